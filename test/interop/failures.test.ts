/**
 * Interop, failures: one side killed mid-transfer, against Linux siw and the rdma-core tools.
 *
 *   F1. softrdma killed: softrdma `rping -c -S 65535` (no count) against the guest's `rping -s`,
 *       and softrdma `perf write --bw` against the guest's `ib_write_bw -R` server, each
 *       SIGKILLed mid-transfer: the guest tool must notice and exit by itself (rping reports
 *       the DISCONNECT and exits 0; ib_write_bw fails with a bad work completion).
 *   F2. guest tool killed: the guest's `rping -c -S 65535` (no count) against softrdma
 *       `rping -s`, and the guest's `ib_send_bw -R` client against softrdma `perf send --bw
 *       --server`, each `kill -9`ed mid-transfer: softrdma must report the broken connection
 *       (rping: DISCONNECT, and exit by itself as rdma-core's rping does, status 0; perf: the
 *       flushed receive, exit status 1).
 *
 * "By itself" is bounded: every tool runs under a limit far above its expected reaction time,
 * and hitting a limit (status 124 in the guest, a kill by the test on the host) is a failure.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { cli, GUEST_IP, HOST_IP, harness, guest as bootGuest, host, hostStart, kill, pcapDir, show, tagged, wireCheck } from './harness.js';

const h = harness();
const opts = { skip: 'skip' in h ? h.skip : false, timeout: 600_000 };
/** How long the killed side may take to be noticed (guest: TCG, so generous). */
const REACT_S = 30;

test('interop F: one side killed mid-transfer — the other reports the broken connection and exits, no hang', opts, async () => {
  if ('skip' in h) return;
  assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
  const failures: string[] = [];
  const pcap = pcapDir('F');
  // The pcap of a SIGKILLed process may end inside a record: those are kept apart, unchecked.
  const killedPcap = pcapDir('F-killed');
  // F2's softrdma servers wait before the guest boots (bound to all addresses).
  const f2rping = hostStart(h.dir, ['rping', '-s', '-a', '0.0.0.0', '-p', '7201', '-S', '65535', '-V'], { SOFTRDMA_PCAP: pcap });
  const script = [
    // F1: guest servers, the host clients get killed.
    `(timeout 120 rping -s -a ${GUEST_IP} -p 7200 -S 65535 -V 2>&1; echo "END rc=$?") | sed 's/^/f1rping| /' &`,
    'sleep 2',
    'echo KP_READY',
    'wait',
    'echo "START ib_write_bw"',
    `(timeout 120 ib_write_bw -R -n 100000 -s 65536 -p 18515 2>&1; echo "END rc=$?") | sed 's/^/f1perf| /'`,
    // F2: guest clients, killed by the guest itself (by PID: the guest has no pkill).
    `rping -c -a ${HOST_IP} -p 7201 -S 65535 -V > /tmp/f2rping.out 2>&1 &`,
    'P=$!; sleep 8; kill -9 $P; echo "KILLED rping"; wait $P; echo "END rc=$?" >> /tmp/f2rping.out',
    "sed 's/^/f2rping| /' /tmp/f2rping.out",
    'echo "START f2perf"',
    'sleep 4',
    `ib_send_bw -R -n 100000 -s 65536 -p 18515 ${HOST_IP} > /tmp/f2perf.out 2>&1 &`,
    'P=$!; sleep 10; kill -9 $P; echo "KILLED ib_send_bw"; wait $P; echo "END rc=$?" >> /tmp/f2perf.out',
    "sed 's/^/f2perf| /' /tmp/f2perf.out",
    `sleep ${REACT_S}`,
  ].join('\n');
  const g = bootGuest(h.dir, script, 500);
  let f1rping: { rc: number; lines: string[] } | null = null;
  let f1perf: { rc: number; lines: string[] } | null = null;
  let f2perf: { rc: number; lines: string[] } | null = null;
  let f2rpingRc = -1;
  let guestRc = -1;
  const ms = (s: number): number => s * 1000;
  try {
    assert.ok(await g.wait(/^KP_READY$/, 120_000), `the guest did not boot:\n${g.lines.join('\n')}`);
    // F1 rping: kill softrdma's client after 6 s of 64 KiB pings.
    {
      const p = hostStart(h.dir, ['rping', '-c', '-a', GUEST_IP, '-p', '7200', '-S', '65535', '-V'], { SOFTRDMA_PCAP: killedPcap });
      await sleep(6000);
      // host-exec.sh execs `ip netns exec`, which execs node: the child is the node process.
      kill(p, 'SIGKILL');
      f1rping = { rc: await p.done, lines: p.lines };
    }
    if (await g.wait(/^START ib_write_bw$/, ms(REACT_S + 60))) {
      await sleep(2000);
      const p = hostStart(h.dir, ['perf', 'write', '--bw', '-R', '-n', '100000', '-s', '65536', '-p', '18515', GUEST_IP]);
      await sleep(8000);
      kill(p, 'SIGKILL');
      f1perf = { rc: await p.done, lines: p.lines };
    }
    // F2 perf: the softrdma server must be up before the guest client starts.
    if (await g.wait(/^START f2perf$/, ms(REACT_S + 120))) {
      // No pcap here: ten seconds of 64 KiB Sends are ≈1 GB of capture; C and D check this path's wire.
      f2perf = await host(
        h.dir,
        ['perf', 'send', '--bw', '--server', '-R', '-n', '100000', '-s', '65536', '-p', '18515'],
        ms(REACT_S + 60),
      );
    }
    const t = setTimeout(() => kill(f2rping), ms(REACT_S));
    f2rpingRc = await f2rping.done;
    clearTimeout(t);
    guestRc = await g.done;
  } finally {
    kill(g);
    kill(f2rping);
    show(`guest (run-guest.sh rc ${guestRc})`, 'guest', g.lines);
  }

  const gr = tagged(g.lines, 'f1rping');
  console.log(`---- F1 softrdma rping -c SIGKILLed → guest rping -s: guest rc=${gr.rc} ----`);
  show('softrdma rping -c (killed)', 'host ', (f1rping?.lines ?? []).slice(-5));
  // rdma-core's rping reports the disconnect ("DISCONNECT EVENT", "wait for … state 10") but
  // exits 0 all the same: what counts is that it noticed and ended by itself.
  if (gr.rc === 124 || gr.rc === -1) failures.push(`F1 rping: the guest rping -s did not end by itself (status ${gr.rc})`);
  if (!gr.lines.some((l) => /DISCONNECT|error|fail/i.test(l)))
    failures.push('F1 rping: the guest rping -s did not report the broken connection');
  const gp = tagged(g.lines, 'f1perf');
  console.log(`---- F1 softrdma perf write --bw SIGKILLed → guest ib_write_bw -R server: guest rc=${gp.rc} ----`);
  show('softrdma perf (killed)', 'host ', (f1perf?.lines ?? []).slice(-5));
  if (!f1perf) failures.push('F1 perf: not run');
  if (gp.rc === 0 || gp.rc === 124 || gp.rc === -1)
    failures.push(`F1 perf: the guest ib_write_bw server should exit with an error, status ${gp.rc}${gp.rc === 124 ? ' (hung)' : ''}`);
  for (const l of gp.lines.filter((x) => /Bad wc|Failed|Unable|error/i.test(x))) console.log(`[guest] ${l}`);

  console.log(`---- F2 guest rping -c kill -9 → softrdma rping -s: softrdma rc=${f2rpingRc} ----`);
  show('softrdma rping -s', 'host ', f2rping.lines.slice(-8));
  // Like rdma-core's rping (F1), `softrdma rping -s` reports the vanished peer and exits 0.
  if (f2rpingRc === 128) failures.push('F2 rping: softrdma rping -s did not end by itself (killed at the limit: hung)');
  if (!f2rping.lines.some((l) => /DISCONNECT|flush|failed|error/i.test(l)))
    failures.push('F2 rping: softrdma rping -s did not report the broken connection');
  console.log(`---- F2 guest ib_send_bw kill -9 → softrdma perf send --bw --server: softrdma rc=${f2perf?.rc} ----`);
  show('softrdma perf send --bw --server', 'host ', (f2perf?.lines ?? []).slice(-8));
  if (!f2perf) failures.push('F2 perf: not run');
  else {
    if (f2perf.rc === 0 || f2perf.rc === 128)
      failures.push(
        `F2 perf: softrdma perf server should exit non-zero by itself, status ${f2perf.rc}${f2perf.rc === 128 ? ' (killed at the limit: hung)' : ''}`,
      );
    // Which it notices first is a race: the data QP's flushed completion, or the control
    // connection closing ("the peer closed the control connection"); either is the report.
    if (!f2perf.lines.some((l) => /status|flush|disconnect|failed|error|closed the control connection/i.test(l)))
      failures.push('F2 perf: softrdma did not report the broken connection');
  }
  const w = wireCheck(pcap);
  console.log('---- F: tshark on softrdma pcaps ----');
  for (const l of w.summary) console.log(`[tshark] ${l}`);
  failures.push(...w.failures.map((f) => `F wire: ${f}`));
  assert.deepEqual(failures, [], failures.join('; '));
});

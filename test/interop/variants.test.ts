/**
 * Interop, MPA variants: softrdma against Linux siw (6.1) with CRC on and with the RFC 6581
 * peer-to-peer handshake, each RTR type.
 *
 * This siw has no module parameters for its MPA settings (`mpa_crc_required`, `mpa_crc_strict`,
 * `peer_to_peer`, `mpa_version` are compile-time constants in siw_main.c), so the guest's side
 * cannot be switched. What siw does decide at run time is driven from softrdma's side with
 * `SOFTRDMA_MPA` (the same switches, see docs/interop.md):
 *
 *   E1. softrdma `rping -c` with `crc=require` → guest `rping -s`: siw honours a CRC request
 *       (RFC 5044 §7.1.2), so both directions carry CRCs.
 *   E2. softrdma `rping -c` with `p2p=write` → guest `rping -s`: zero-length Write RTR.
 *   E3. softrdma `rping -c` with `p2p=read` → guest `rping -s`: zero-length Read RTR.
 *   E4. softrdma `rping -c` with `p2p=send` → guest `rping -s`: siw cannot do a Send RTR and
 *       answers Write RTR anyway; softrdma refuses that Reply (RFC 6581: the RTR must be one it
 *       offered; Terminate "No Matching RTR") and reports CONNECT_ERROR. Found here: the guest's
 *       Linux 6.1 iw_cm then hits a kernel BUG (cm_work_handler) and its rping hangs in the
 *       kernel, so E4 runs last and the guest is stopped after it.
 *   E5. guest `rping -c` → softrdma `rping -s` with `crc=require`: the Reply asks for CRCs and
 *       siw (mpa_crc_strict off) accepts them.
 *   E6. softrdma `perf write --bw` with `crc=require` → guest `ib_write_bw -R`: bulk with CRC.
 *
 * Every softrdma side writes a pcap; tshark must decode it with no malformed frame and no bad
 * CRC (and good CRCs where CRC is on).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import {
  cli,
  guest as bootGuest,
  GUEST_IP,
  harness,
  host,
  HOST_IP,
  hostStart,
  kill,
  pcapDir,
  perftestCloseRace,
  pings,
  show,
  tagged,
  wireCheck,
} from './harness.js';

const COUNT = 10;
const h = harness();
const opts = { skip: 'skip' in h ? h.skip : false, timeout: 600_000 };

const CLIENT_CASES = [
  { tag: 'e1', port: 7190, mpa: 'crc=require', crc: true, ok: true, what: 'CRC on (requested by softrdma)' },
  { tag: 'e2', port: 7191, mpa: 'p2p=write', crc: false, ok: true, what: 'P2P, Write RTR' },
  { tag: 'e3', port: 7192, mpa: 'p2p=read', crc: false, ok: true, what: 'P2P, Read RTR' },
  { tag: 'e4', port: 7193, mpa: 'p2p=send', crc: false, ok: false, what: 'P2P, Send RTR only (siw has none)' },
] as const;

test('interop E: MPA variants against Linux siw — CRC on both ways, P2P with each RTR type', opts, async () => {
  if ('skip' in h) return;
  assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
  const failures: string[] = [];
  const pcaps = { e1: pcapDir('E1'), e2: pcapDir('E2'), e3: pcapDir('E3'), e4: pcapDir('E4'), e5: pcapDir('E5'), e6: pcapDir('E6') };
  // E5's softrdma server listens on all addresses before the guest exists (the bridge address
  // has no carrier yet); the guest connects to it once its own servers are done.
  const e5 = hostStart(h.dir, ['rping', '-s', '-a', '0.0.0.0', '-p', '7195', '-C', String(COUNT), '-V', '-v'], {
    SOFTRDMA_MPA: 'crc=require',
    SOFTRDMA_PCAP: pcaps.e5,
  });
  const okCases = CLIENT_CASES.filter((c) => c.ok);
  const e4 = CLIENT_CASES.find((c) => !c.ok)!;
  const script = [
    ...okCases.map(
      (c, i) =>
        `(timeout 60 rping -s -a ${GUEST_IP} -p ${c.port} -C ${COUNT} -V -v 2>&1; echo "END rc=$?") | sed 's/^/${c.tag}| /' &\nP${i}=$!`,
    ),
    'sleep 3',
    'echo KP_READY',
    `wait ${okCases.map((_, i) => `$P${i}`).join(' ')}`,
    `(timeout 60 rping -c -a ${HOST_IP} -p 7195 -C ${COUNT} -V -v 2>&1; echo "END rc=$?") | sed 's/^/e5| /'`,
    'echo "START ib_write_bw"',
    `(timeout 60 ib_write_bw -R -n 200 -s 65536 -p 18515 2>&1; echo "END rc=$?") | sed 's/^/e6| /'`,
    // Last, because it takes the guest's iw_cm down (see E4 above).
    `(timeout 30 rping -s -a ${GUEST_IP} -p ${e4.port} -C ${COUNT} -V -v 2>&1; echo "END rc=$?") | sed 's/^/e4| /' &`,
    'sleep 2',
    'echo "START e4"',
    'sleep 15',
    "dmesg | grep -E 'kernel BUG|invalid opcode|RIP:' | head -4 | sed 's/^/e4k| /'",
    'echo "E4 DONE"',
  ].join('\n');
  const g = bootGuest(h.dir, script, 400);
  const clients: Array<{ rc: number; lines: string[] }> = [];
  let e6: { rc: number; lines: string[] } | null = null;
  let guestRc = -1;
  let e5Rc = -1;
  try {
    assert.ok(await g.wait(/^KP_READY$/, 120_000), `the guest did not boot:\n${g.lines.join('\n')}`);
    const run1 = (c: (typeof CLIENT_CASES)[number]) =>
      host(h.dir, ['rping', '-c', '-a', GUEST_IP, '-p', String(c.port), '-C', String(COUNT), '-V', '-v'], 60_000, {
        SOFTRDMA_MPA: c.mpa,
        SOFTRDMA_PCAP: pcaps[c.tag],
        DEBUG: 'softrdma:cm',
      });
    const results = new Map<string, { rc: number; lines: string[] }>();
    for (const c of okCases) results.set(c.tag, await run1(c));
    if (await g.wait(/^START ib_write_bw$/, 120_000)) {
      await new Promise((r) => setTimeout(r, 1500));
      e6 = await host(h.dir, ['perf', 'write', '--bw', '-R', '-n', '200', '-s', '65536', '-p', '18515', GUEST_IP], 60_000, {
        SOFTRDMA_MPA: 'crc=require',
        SOFTRDMA_PCAP: pcaps.e6,
      });
    }
    if (await g.wait(/^START e4$/, 120_000)) results.set(e4.tag, await run1(e4));
    for (const c of CLIENT_CASES) clients.push(results.get(c.tag) ?? { rc: -1, lines: [] });
    // The guest cannot power off cleanly after E4 (its iw_cm worker died): stop it.
    await g.wait(/^E4 DONE$/, 60_000);
    kill(g);
    guestRc = await g.done;
    const t = setTimeout(() => kill(e5), 20_000);
    e5Rc = await e5.done;
    clearTimeout(t);
  } finally {
    kill(g);
    kill(e5);
    show(
      `guest (run-guest.sh rc ${guestRc})`,
      'guest',
      g.lines.filter((l) => !/ping data: /.test(l)),
    );
  }

  for (const [i, c] of CLIENT_CASES.entries()) {
    const s = clients[i] ?? { rc: -1, lines: [] };
    const gs = tagged(g.lines, c.tag);
    const p = pings(s.lines);
    const gp = pings(gs.lines);
    const mpaLines = s.lines
      .filter((l) => /MPA (Req|Rep)|RTS \(active\)|Terminate|No Matching RTR/i.test(l))
      .map((l) => l.replace(/^\S+ softrdma:cm /, ''));
    console.log(
      `---- ${c.tag.toUpperCase()} ${c.what}: SOFTRDMA_MPA="${c.mpa}" softrdma rping -c rc=${s.rc}, ${p.n} ping lines; guest rping -s rc=${gs.rc}, ${gp.n} ping lines ----`,
    );
    for (const l of mpaLines) console.log(`[host ] ${l}`);
    for (const l of p.ends) console.log(`[host ] ${l}`);
    for (const l of gp.ends) console.log(`[guest] ${l}`);
    if (c.ok) {
      if (s.rc !== 0) failures.push(`${c.tag}: softrdma rping -c exit status ${s.rc}`);
      if (p.n !== COUNT) failures.push(`${c.tag}: softrdma printed ${p.n} of ${COUNT} ping lines`);
      if (gs.rc !== 0) failures.push(`${c.tag}: guest rping -s exit status ${gs.rc}`);
      if (gp.n !== COUNT) failures.push(`${c.tag}: guest printed ${gp.n} of ${COUNT} ping lines`);
      const rts = s.lines.find((l) => /RTS \(active\)/.test(l)) ?? '';
      if (c.crc && !/crc=1/.test(rts)) failures.push(`${c.tag}: CRC not negotiated: ${rts}`);
      if (c.mpa.startsWith('p2p=') && !rts.includes(`rtr=${c.mpa.slice(4)}`)) failures.push(`${c.tag}: RTR not negotiated: ${rts}`);
      const w = wireCheck(pcaps[c.tag], { crc: c.crc });
      for (const l of w.summary) console.log(`[tshark] ${l}`);
      failures.push(...w.failures.map((f) => `${c.tag} wire: ${f}`));
    } else {
      show(`${c.tag} softrdma output`, 'host ', s.lines.filter((l) => !/ping data: /.test(l)).slice(0, 15));
      show(`${c.tag} guest output`, 'guest', gs.lines.slice(0, 10));
      if (s.rc === 0 || s.rc === 128) failures.push(`${c.tag}: softrdma rping -c should fail by itself, exit status ${s.rc}`);
      if (!s.lines.some((l) => /no-matching-rtr/.test(l))) failures.push(`${c.tag}: softrdma did not report the RTR mismatch`);
      if (!s.lines.some((l) => /RDMA_CM_EVENT_CONNECT_ERROR/.test(l))) failures.push(`${c.tag}: no CONNECT_ERROR event`);
      // Not ours to assert, but worth seeing: what the refused Reply does to the guest.
      const bug = tagged(g.lines, 'e4k').lines;
      if (bug.length)
        console.log(
          `KNOWN: Linux 6.1 iw_cm hits a kernel BUG when the Initiator refuses siw's RTR choice:\n${bug.map((l) => `[guest] ${l}`).join('\n')}`,
        );
    }
  }

  const g5 = tagged(g.lines, 'e5');
  const gp5 = pings(g5.lines);
  const sp5 = e5.lines.filter((l) => /^server ping data: /.test(l) || /ping data: /.test(l));
  console.log(
    `---- E5 guest rping -c → SOFTRDMA_MPA="crc=require" softrdma rping -s: guest rc=${g5.rc}, ${gp5.n} ping lines; softrdma rc=${e5Rc} ----`,
  );
  for (const l of gp5.ends) console.log(`[guest] ${l}`);
  if (g5.rc !== 0) failures.push(`e5: guest rping -c exit status ${g5.rc}`);
  if (gp5.n !== COUNT) failures.push(`e5: guest printed ${gp5.n} of ${COUNT} ping lines`);
  if (e5Rc !== 0) failures.push(`e5: softrdma rping -s exit status ${e5Rc}`);
  if (sp5.length === 0) failures.push('e5: softrdma printed no ping data');
  {
    const w = wireCheck(pcaps.e5, { crc: true });
    for (const l of w.summary) console.log(`[tshark] ${l}`);
    failures.push(...w.failures.map((f) => `e5 wire: ${f}`));
  }

  const g6 = tagged(g.lines, 'e6');
  const row = /^\s*65536\s+200\s/;
  console.log(
    `---- E6 SOFTRDMA_MPA="crc=require" softrdma perf write --bw → guest ib_write_bw -R: ours rc=${e6?.rc}, guest rc=${g6.rc} ----`,
  );
  for (const l of e6?.lines.filter((x) => row.test(x)) ?? []) console.log(`[host ] ${l}`);
  for (const l of g6.lines.filter((x) => row.test(x))) console.log(`[guest] ${l}`);
  if (e6?.rc !== 0) failures.push(`e6: softrdma perf exit status ${e6?.rc}`);
  if (!e6?.lines.some((l) => row.test(l))) failures.push('e6: softrdma perf printed no result row');
  if (!g6.lines.some((l) => row.test(l))) failures.push('e6: guest ib_write_bw printed no result row');
  if (g6.rc !== 0 && !(perftestCloseRace(g6.lines, g6.rc) && g6.lines.some((l) => row.test(l))))
    failures.push(`e6: guest ib_write_bw exit status ${g6.rc}`);
  {
    const w = wireCheck(pcaps.e6, { crc: true });
    for (const l of w.summary) console.log(`[tshark] ${l}`);
    failures.push(...w.failures.map((f) => `e6 wire: ${f}`));
  }
  assert.deepEqual(failures, [], failures.join('; '));
});

/**
 * Interop over RoCEv2 with the IB CM: softrdma's softroce0 (rdma_cm over QP1) against Linux rxe
 * and rdma-core 44.0 / perftest 4.5 in the kernel-peer guest booted with `-l rxe` (so that the
 * guest's rdma_cm uses rxe0, not siw0).
 *
 *   RA. guest `rping -c` → softrdma `rping -s` (64 B and -S 65535, -C 100 -V)
 *   RB. softrdma `rping -c` (SOFTRDMA_DEVICE=softroce0) → guest `rping -s` (64 B and -S 65535)
 *   RC. softrdma `perf … -d softroce0 ADDR` → guest `ib_*` -R servers: the six bw/lat tests and ib_atomic_bw
 *   RD. guest `ib_* -R ADDR` → softrdma `perf … --server -d softroce0`: the same seven
 *   RE–RG. udaddy and ucmatose with 50 connections, mckey, both ways (examples/rdmacm); RK. mckey
 *   with a send-only join (-o) both ways
 *   RI–RJ. ib_atomic_lat (both atomics), ib_atomic_bw CMP_AND_SWAP, ib_write_bw -a and -q 4, both roles
 *   RL. mckey with two receivers on two hosts (the guest and softrdma) of a softrdma sender
 *   RH. guest `rping -c` → the IT-API rping server on softroce0 (examples/itapi/rping-server --device softroce0)
 *
 * The host side runs in the harness's netns (192.168.77.1); its GID table holds the netns's
 * IPv4 addresses. Every case checks its pcaps with tshark (RRoCE: CM MADs and data, nothing
 * malformed). Same skip rules as the other interop files.
 */
import { retryOnce } from '../helpers/retry.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  cli,
  GUEST_IP,
  HOST_IP,
  harness,
  host,
  hostNode,
  kill,
  type Proc,
  pcapDir,
  pings,
  roceWireCheck,
  run,
  show,
  tagged,
  section,
  unlessClockFailure,
} from './harness.js';

const COUNT = 100;
const TESTS = [
  ['write', 'bw'],
  ['read', 'bw'],
  ['send', 'bw'],
  ['write', 'lat'],
  ['read', 'lat'],
  ['send', 'lat'],
  ['atomic', 'bw'],
] as const;
/** perftest arguments (atomic: 8-octet Fetch & Add, no -s). */
const perfArgs = (t: (typeof TESTS)[number]): string[] => ['-R', '-n', '200', ...(t[0] === 'atomic' ? [] : ['-s', '65536']), '-p', '18515'];
const rowOf = (t: (typeof TESTS)[number]): RegExp => (t[0] === 'atomic' ? /^\s*8\s+200\s/ : /^\s*65536\s+200\s/);
const ibName = (t: (typeof TESTS)[number]): string => `ib_${t[0]}_${t[1]}`;
/** The guest's ib_read_lat server is passive and prints no row (the real one neither). */
const passive = (name: string): boolean => name === 'ib_read_lat';
const ROCE = { SOFTRDMA_DEVICE: 'softroce0' };

function checkWire(name: string, dir: string, failures: string[], needCm = true): void {
  const w = roceWireCheck(dir, { needCm });
  console.log(`---- ${name}: tshark on softrdma's RoCEv2 pcaps (${dir}) ----`);
  for (const l of w.summary) console.log(`[tshark] ${l}`);
  failures.push(...w.failures.map((f) => `${name} wire: ${f}`));
}

/** The output of one guest perftest run between "START name" and the next START. */
function perfOut(lines: string[], name: string): { rc: number; out: string[] } {
  const e = lines.findIndex((l) => l.startsWith(`END ${name} rc=`));
  const rc = e < 0 ? -1 : Number(lines[e]!.slice(`END ${name} rc=`.length));
  const after = e < 0 ? [] : lines.slice(e + 1);
  const next = after.findIndex((l) => l.startsWith('START '));
  return { rc, out: next < 0 ? after : after.slice(0, next) };
}

const h = harness();
const opts = { skip: 'skip' in h ? h.skip : false, timeout: 900_000 };
const ready = /KP_READY/;
const dir = 'dir' in h ? h.dir : '';
const guestRun = (script: string, limit: number) => run(join(dir, 'run-guest.sh'), ['-t', String(limit), '-l', 'rxe', script], dir);

test('interop RA: guest rping -c (Linux rxe, rdma_cm over the IB CM) → softrdma rping -s, 64 B and -S 65535, -C 100 -V', opts, async () => {
  if ('skip' in h) return;
  assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
  await retryOnce('RA', async () => {
    const pcap = pcapDir('RA');
    const cases = [
      { tag: 'small', port: 7274, size: [] as string[] },
      { tag: 'big', port: 7275, size: ['-S', '65535'] },
    ];
    // One softrdma process at a time: each binds UDP 4791 on 192.168.77.1 for its RoCE device.
    const script = [
      'echo KP_READY',
      ...cases.map(
        (c) =>
          `echo "WAIT ${c.tag}"; sleep 8; echo "BEGIN ${c.tag}"; rping -c -a ${HOST_IP} -p ${c.port} -C ${COUNT} -V -v ${c.size.join(' ')}; echo "END ${c.tag} rc=$?"`,
      ),
      'rdma statistic show link rxe0/1 2>/dev/null | tr " " "\\n" | grep -A1 -E "^(rcvd_pkts|sent_pkts|duplicate_request|out_of_seq_request|rcvd_seq_err|completer_retry_err)$" | paste - - | sed "s/^/rxe0: /"',
    ].join('\n');
    const guest = guestRun(script, 400);
    let guestRc = -1;
    const results: Array<{ rc: number; lines: string[] }> = [];
    try {
      assert.ok(await guest.wait(ready, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
      // One server per case, listening on every device; the guest's rdma_cm reaches softroce0's QP1.
      for (const c of cases) {
        assert.ok(await guest.wait(new RegExp(`^WAIT ${c.tag}$`), 240_000), `RA: the guest did not reach ${c.tag}`);
        results.push(
          await host(dir, ['rping', '-s', '-a', HOST_IP, '-p', String(c.port), '-C', String(COUNT), '-V', ...c.size], 240_000, {
            SOFTRDMA_PCAP: pcap,
          }),
        );
      }
      guestRc = await guest.done;
    } finally {
      kill(guest);
      show(
        `guest (run-guest.sh rc ${guestRc})`,
        'guest',
        guest.lines.filter((l) => !/ping data: /.test(l)),
      );
    }
    const failures: string[] = [];
    for (const [i, c] of cases.entries()) {
      const g = section(guest.lines, c.tag);
      const p = pings(g.lines);
      const s = results[i]!;
      console.log(
        `---- RA ${c.tag} (${c.size.join(' ') || '64 B'}): guest rping -c rc=${g.rc}, ${p.n} ping lines; softrdma rping -s rc=${s.rc} ----`,
      );
      for (const l of p.ends) console.log(`[guest] ${l}`);
      show(`softrdma rping -s -p ${c.port} (rc ${s.rc})`, 'host', s.lines.filter((l) => !/ping data: /.test(l)).slice(0, 20));
      if (p.n !== COUNT) failures.push(`RA ${c.tag}: the guest rping -c printed ${p.n} of ${COUNT} ping data lines`);
      if (g.rc !== 0) failures.push(`RA ${c.tag}: guest rping -c exit status ${g.rc}`);
      if (s.rc !== 0) failures.push(`RA ${c.tag}: softrdma rping -s exit status ${s.rc}`);
    }
    checkWire('RA', pcap, failures);
    assert.deepEqual(failures, [], failures.join('; '));
  });
});

test(
  'interop RB: softrdma rping -c (SOFTRDMA_DEVICE=softroce0) → guest rping -s (Linux rxe), 64 B and -S 65535, -C 100 -V',
  opts,
  async () => {
    if ('skip' in h) return;
    assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
    await retryOnce('RB', async () => {
      const pcap = pcapDir('RB');
      const cases = [
        { tag: 'small', port: 7280, size: [] as string[] },
        { tag: 'big', port: 7281, size: ['-S', '65535'] },
      ];
      const script = [
        ...cases.map(
          (c) =>
            `(rping -s -a ${GUEST_IP} -p ${c.port} -C ${COUNT} -V -v ${c.size.join(' ')} 2>&1; echo "END rc=$?") | sed 's/^/${c.tag}| /' &`,
        ),
        'sleep 3',
        'echo KP_READY',
        'wait',
      ].join('\n');
      const guest = guestRun(script, 400);
      let guestRc = -1;
      const results: Array<{ rc: number; lines: string[] }> = [];
      try {
        assert.ok(await guest.wait(ready, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
        for (const c of cases) {
          results.push(
            await host(dir, ['rping', '-c', '-a', GUEST_IP, '-p', String(c.port), '-C', String(COUNT), '-V', '-v', ...c.size], 120_000, {
              ...ROCE,
              SOFTRDMA_PCAP: pcap,
            }),
          );
        }
        const t = setTimeout(() => kill(guest), 30_000);
        guestRc = await guest.done;
        clearTimeout(t);
      } finally {
        kill(guest);
        show(
          `guest (run-guest.sh rc ${guestRc})`,
          'guest',
          guest.lines.filter((l) => !/ping data: /.test(l)),
        );
      }
      const failures: string[] = [];
      for (const [i, c] of cases.entries()) {
        const g = tagged(guest.lines, c.tag);
        const s = results[i] ?? { rc: -1, lines: [] };
        const p = pings(s.lines);
        const gp = pings(g.lines);
        console.log(
          `---- RB ${c.tag} (${c.size.join(' ') || '64 B'}): softrdma rping -c rc=${s.rc}, ${p.n} ping lines; guest rping -s rc=${g.rc}, ${gp.n} ping lines ----`,
        );
        for (const l of p.ends) console.log(`[host] ${l}`);
        for (const l of gp.ends) console.log(`[guest] ${l}`);
        show(`softrdma rping -c -p ${c.port} (other lines)`, 'host', s.lines.filter((l) => !/ping data: /.test(l)).slice(0, 20));
        if (s.rc !== 0) failures.push(`RB ${c.tag}: softrdma rping -c exit status ${s.rc}`);
        if (p.n !== COUNT) failures.push(`RB ${c.tag}: softrdma rping -c printed ${p.n} of ${COUNT} ping data lines`);
        if (gp.n !== COUNT) failures.push(`RB ${c.tag}: the guest rping -s printed ${gp.n} of ${COUNT} ping data lines`);
        if (g.rc !== 0) failures.push(`RB ${c.tag}: guest rping -s exit status ${g.rc}`);
      }
      checkWire('RB', pcap, failures);
      assert.deepEqual(failures, [], failures.join('; '));
    });
  },
);

test(
  'interop RC: softrdma perf -d softroce0 clients → guest perftest -R servers on rxe (six bw/lat tests and ib_atomic_bw)',
  opts,
  async () => {
    if ('skip' in h) return;
    assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
    await retryOnce('RC', async () => {
      const pcap = pcapDir('RC');
      const script = [
        'echo KP_READY',
        ...TESTS.map(
          (t) =>
            `echo "START ${ibName(t)}"; timeout 90 ${ibName(t)} ${perfArgs(t).join(' ')} > /tmp/o 2>&1; rc=$?; echo "END ${ibName(t)} rc=$rc"; grep -E "^ *[0-9]+ +[0-9]+" /tmp/o | head -2; if [ $rc -ne 0 ]; then head -60 /tmp/o; fi`,
        ),
      ].join('\n');
      const guest = guestRun(script, 900);
      let guestRc = -1;
      const results: Array<{ rc: number; lines: string[] }> = [];
      try {
        assert.ok(await guest.wait(ready, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
        for (const t of TESTS) {
          assert.ok(await guest.wait(new RegExp(`^START ${ibName(t)}$`), 120_000), `RC: the guest did not start ${ibName(t)}`);
          await sleep(2000); // the server's rdma_cm listen (TCG)
          results.push(
            await host(dir, ['perf', t[0], `--${t[1]}`, '-d', 'softroce0', ...perfArgs(t), GUEST_IP], 120_000, { SOFTRDMA_PCAP: pcap }),
          );
        }
        const tm = setTimeout(() => kill(guest), 120_000);
        guestRc = await guest.done;
        clearTimeout(tm);
      } finally {
        kill(guest);
        show(`guest (run-guest.sh rc ${guestRc})`, 'guest', guest.lines);
      }
      const failures: string[] = [];
      for (const [i, t] of TESTS.entries()) {
        const r = results[i];
        const name = ibName(t);
        const g = perfOut(guest.lines, name);
        const gRows = g.out.filter((l) => rowOf(t).test(l));
        const rows = r?.lines.filter((l) => rowOf(t).test(l)) ?? [];
        console.log(`---- RC softrdma perf ${t[0]} --${t[1]} -d softroce0 → guest ${name} -R: ours rc=${r?.rc}, guest rc=${g.rc} ----`);
        for (const l of rows) console.log(`[host ] ${l}`);
        for (const l of gRows) console.log(`[guest] ${l}`);
        if (r?.rc !== 0 || rows.length === 0) show(`softrdma perf ${t[0]} --${t[1]} output`, 'host', r?.lines ?? []);
        const f: string[] = [];
        if (!r) f.push(`${name}: not run`);
        else {
          if (r.rc !== 0) f.push(`${name}: softrdma perf client exit status ${r.rc}`);
          if (rows.length === 0) f.push(`${name}: softrdma perf client printed no result row`);
        }
        if (gRows.length === 0 && !passive(name)) f.push(`${name}: the guest server printed no result row`);
        if (g.rc !== 0) f.push(`${name}: guest server exit status ${g.rc}`);
        failures.push(...unlessClockFailure(`RC ${name}`, g.out, f));
      }
      checkWire('RC', pcap, failures);
      assert.deepEqual(failures, [], `RC: ${failures.join('; ')}`);
    });
  },
);

test(
  'interop RD: guest perftest -R clients on rxe → softrdma perf --server -d softroce0 (six bw/lat tests and ib_atomic_bw)',
  opts,
  async () => {
    if ('skip' in h) return;
    assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
    await retryOnce('RD', async () => {
      const pcap = pcapDir('RD');
      const script = [
        'echo KP_READY',
        'sleep 4',
        ...TESTS.map(
          (t) =>
            `sleep 3; echo "START ${ibName(t)}"; timeout 90 ${ibName(t)} ${perfArgs(t).join(' ')} ${HOST_IP} > /tmp/o 2>&1; rc=$?; echo "END ${ibName(t)} rc=$rc"; grep -E "^ *[0-9]+ +[0-9]+" /tmp/o | head -2; if [ $rc -ne 0 ]; then head -60 /tmp/o; fi`,
        ),
      ].join('\n');
      const guest = guestRun(script, 900);
      let guestRc = -1;
      const results: Array<{ rc: number; lines: string[] }> = [];
      try {
        assert.ok(await guest.wait(ready, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
        for (const t of TESTS)
          results.push(
            await host(dir, ['perf', t[0], `--${t[1]}`, '--server', '-d', 'softroce0', ...perfArgs(t)], 150_000, { SOFTRDMA_PCAP: pcap }),
          );
        const tm = setTimeout(() => kill(guest), 120_000);
        guestRc = await guest.done;
        clearTimeout(tm);
      } finally {
        kill(guest);
        show(`guest (run-guest.sh rc ${guestRc})`, 'guest', guest.lines);
      }
      const failures: string[] = [];
      for (const [i, t] of TESTS.entries()) {
        const r = results[i];
        const name = ibName(t);
        const g = perfOut(guest.lines, name);
        const gRows = g.out.filter((l) => rowOf(t).test(l));
        const rows = r?.lines.filter((l) => rowOf(t).test(l)) ?? [];
        console.log(
          `---- RD guest ${name} -R → softrdma perf ${t[0]} --${t[1]} --server -d softroce0: ours rc=${r?.rc}, guest rc=${g.rc} ----`,
        );
        for (const l of rows) console.log(`[host ] ${l}`);
        for (const l of gRows) console.log(`[guest] ${l}`);
        if (r?.rc !== 0 || (rows.length === 0 && !passive(name)))
          show(`softrdma perf ${t[0]} --${t[1]} --server output`, 'host', r?.lines ?? []);
        const f: string[] = [];
        if (!r) f.push(`${name}: not run`);
        else {
          if (r.rc !== 0) f.push(`${name}: softrdma perf server exit status ${r.rc}`);
          if (rows.length === 0 && !passive(name)) f.push(`${name}: softrdma perf server printed no result row`);
        }
        if (g.rc !== 0) f.push(`${name}: guest client exit status ${g.rc}`);
        if (gRows.length === 0) f.push(`${name}: the guest client printed no result row`);
        failures.push(...unlessClockFailure(`RD ${name}`, g.out, f));
      }
      checkWire('RD', pcap, failures);
      assert.deepEqual(failures, [], `RD: ${failures.join('; ')}`);
    });
  },
);

/**
 * The rest of perftest against rxe, both roles: ib_atomic_lat and ib_atomic_bw with both atomics,
 * an `-a` size sweep, and 4 QPs (`-q 4`). Each entry: the perftest program, its arguments (both
 * ends take the same), softrdma perf's test words, and how many result rows each end prints.
 */
const MORE = [
  { prog: 'ib_atomic_lat', args: ['-A', 'FETCH_AND_ADD', '-n', '200'], ours: ['atomic', '--lat'], rows: 1 },
  { prog: 'ib_atomic_lat', args: ['-A', 'CMP_AND_SWAP', '-n', '200'], ours: ['atomic', '--lat'], rows: 1 },
  { prog: 'ib_atomic_bw', args: ['-A', 'CMP_AND_SWAP', '-n', '200'], ours: ['atomic', '--bw'], rows: 1 },
  // -a: 2 B … 8 MiB, 23 rows; -n 20 keeps the 8 MiB row short under TCG. A perftest server in
  // the emulated guest sets up its 8 MiB buffers between the control handshake and listening for
  // the data connection, for longer than a perftest client's 10 attempts 100 ms apart; softrdma
  // perf's client keeps trying for 2 min.
  { prog: 'ib_write_bw', args: ['-a', '-n', '20'], ours: ['write', '--bw'], rows: 23 },
  { prog: 'ib_write_bw', args: ['-q', '4', '-s', '65536', '-n', '200'], ours: ['write', '--bw'], rows: 1 },
] as const;
const moreArgs = (m: (typeof MORE)[number]): string[] => ['-R', ...m.args, '-p', '18515'];
const moreName = (m: (typeof MORE)[number]): string => `${m.prog} ${m.args.join(' ')}`;
/** perftest's result rows: "bytes iterations …". */
const resultRow = /^\s*\d+\s+\d+\s+[\d.]+/;

/** One guest boot: for each MORE entry, a perftest server in the guest and `softrdma perf` as the client, or the reverse. */
async function morePerf(tag: string, guestServes: boolean): Promise<void> {
  const pcap = pcapDir(tag);
  const cases = MORE;
  const script = [
    'echo KP_READY',
    'sleep 4',
    ...cases.map(
      (m, i) =>
        `${guestServes ? '' : 'sleep 3; '}echo "START m${i}"; timeout 240 ${m.prog} ${moreArgs(m).join(' ')} ${guestServes ? '' : HOST_IP} > /tmp/o 2>&1; rc=$?; echo "END m${i} rc=$rc"; grep -E "^ *[0-9]+ +[0-9]+ +[0-9.]+" /tmp/o | head -30; if [ $rc -ne 0 ]; then head -60 /tmp/o; fi`,
    ),
  ].join('\n');
  const guest = guestRun(script, 1500);
  let guestRc = -1;
  const results: Array<{ rc: number; lines: string[] }> = [];
  try {
    assert.ok(await guest.wait(ready, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
    for (const [i, m] of cases.entries()) {
      if (guestServes) {
        assert.ok(await guest.wait(new RegExp(`^START m${i}$`), 300_000), `${tag}: the guest did not start ${moreName(m)}`);
        await sleep(2000); // the server's rdma_cm listen (TCG)
        results.push(await host(dir, ['perf', ...m.ours, '-d', 'softroce0', ...moreArgs(m), GUEST_IP], 300_000, { SOFTRDMA_PCAP: pcap }));
      } else {
        results.push(await host(dir, ['perf', ...m.ours, '--server', '-d', 'softroce0', ...moreArgs(m)], 300_000, { SOFTRDMA_PCAP: pcap }));
      }
    }
    const tm = setTimeout(() => kill(guest), 120_000);
    guestRc = await guest.done;
    clearTimeout(tm);
  } finally {
    kill(guest);
    show(`guest (run-guest.sh rc ${guestRc})`, 'guest', guest.lines);
  }
  const failures: string[] = [];
  for (const [i, m] of cases.entries()) {
    const r = results[i];
    const g = perfOut(guest.lines, `m${i}`);
    const gRows = g.out.filter((l) => resultRow.test(l));
    const rows = r?.lines.filter((l) => resultRow.test(l)) ?? [];
    const role = guestServes ? 'softrdma client → guest server' : 'guest client → softrdma server';
    console.log(
      `---- ${tag} ${moreName(m)} -R (${role}): ours rc=${r?.rc} rows=${rows.length}, guest rc=${g.rc} rows=${gRows.length} ----`,
    );
    for (const l of rows.slice(0, 3)) console.log(`[host ] ${l}`);
    for (const l of gRows.slice(0, 3)) console.log(`[guest] ${l}`);
    // perftest's Read and atomic latency servers are passive: they print no row (softrdma perf neither).
    // A bw server's size sweep (-a) ends with one row: only the client reports each size.
    const oursNeeds = guestServes ? m.rows : m.prog === 'ib_atomic_lat' ? 0 : Math.min(m.rows, 1);
    if (r?.rc !== 0 || rows.length < oursNeeds) show(`softrdma perf ${m.ours.join(' ')} output`, 'host', r?.lines ?? []);
    const f: string[] = [];
    if (!r) f.push(`${moreName(m)}: not run`);
    else {
      if (r.rc !== 0) f.push(`${moreName(m)}: softrdma perf exit status ${r.rc}`);
      if (rows.length < oursNeeds) f.push(`${moreName(m)}: softrdma perf printed ${rows.length} of ${oursNeeds} result rows`);
    }
    if (g.rc !== 0) f.push(`${moreName(m)}: guest exit status ${g.rc}`);
    // A passive perftest server prints no row for latency tests and one for a bw -a sweep (the
    // client reports each size); the client always prints them all.
    const guestNeeds = !guestServes ? m.rows : m.prog.endsWith('_lat') ? 0 : Math.min(m.rows, 1);
    if (gRows.length < guestNeeds) f.push(`${moreName(m)}: the guest printed ${gRows.length} of ${guestNeeds} result rows`);
    failures.push(...unlessClockFailure(`${tag} ${moreName(m)}`, g.out, f));
  }
  checkWire(tag, pcap, failures);
  assert.deepEqual(failures, [], `${tag}: ${failures.join('; ')}`);
}

test(
  'interop RI: softrdma perf -d softroce0 clients → guest perftest -R servers on rxe (ib_atomic_lat both atomics, ib_atomic_bw CMP_AND_SWAP, ib_write_bw -a and -q 4)',
  opts,
  async () => {
    if ('skip' in h) return;
    assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
    await retryOnce('RI', () => morePerf('RI', true));
  },
);

test(
  'interop RJ: guest perftest -R clients on rxe → softrdma perf --server -d softroce0 (ib_atomic_lat both atomics, ib_atomic_bw CMP_AND_SWAP, ib_write_bw -a and -q 4)',
  opts,
  async () => {
    if ('skip' in h) return;
    assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
    await retryOnce('RJ', () => morePerf('RJ', false));
  },
);

const example = (name: string): string => join(cli, `../../../examples/rdmacm/${name}.js`);

/**
 * One guest boot, two exchanges of a librdmacm example: the guest as client against a softrdma
 * server, then the guest as server against a softrdma client (one softrdma process at a time:
 * each binds UDP 4791 on 192.168.77.1).
 */
async function bothWays(
  name: string,
  prog: string,
  guestArgs: { client: string; server: string },
  hostArgs: { server: string[]; client: string[] },
  env: NodeJS.ProcessEnv = {},
  needCm = true,
): Promise<void> {
  const pcap = pcapDir(name);
  const script = [
    'echo KP_READY',
    'echo "WAIT a"; sleep 8',
    `echo "BEGIN a"; ${prog} ${guestArgs.client}; echo "END a rc=$?"`,
    `(${prog} ${guestArgs.server} 2>&1; echo "END rc=$?") | sed 's/^/b| /' &`,
    'sleep 2; echo "READY b"; wait',
  ].join('\n');
  const guest = guestRun(script, 400);
  let guestRc = -1;
  let a: { rc: number; lines: string[] } = { rc: -1, lines: [] };
  let b: { rc: number; lines: string[] } = { rc: -1, lines: [] };
  try {
    assert.ok(await guest.wait(ready, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
    assert.ok(await guest.wait(/^WAIT a$/, 60_000), `${name}: the guest did not reach its client run`);
    a = await hostNode(dir, example(prog), hostArgs.server, 120_000, { SOFTRDMA_PCAP: pcap });
    assert.ok(await guest.wait(/^READY b$/, 120_000), `${name}: the guest server did not start`);
    b = await hostNode(dir, example(prog), hostArgs.client, 120_000, { ...env, SOFTRDMA_PCAP: pcap });
    const t = setTimeout(() => kill(guest), 60_000);
    guestRc = await guest.done;
    clearTimeout(t);
  } finally {
    kill(guest);
    show(`guest (run-guest.sh rc ${guestRc})`, 'guest', guest.lines);
    show(`softrdma ${prog} server (rc ${a.rc})`, 'host', a.lines);
    show(`softrdma ${prog} client (rc ${b.rc})`, 'host', b.lines);
  }
  const failures: string[] = [];
  const ga = section(guest.lines, 'a');
  const gb = tagged(guest.lines, 'b');
  if (ga.rc !== 0) failures.push(`${name}: guest ${prog} client exit status ${ga.rc}`);
  if (!ga.lines.some((l) => /data transfers complete/.test(l)))
    failures.push(`${name}: the guest ${prog} client did not complete its data transfers`);
  if (a.rc !== 0) failures.push(`${name}: softrdma ${prog} server exit status ${a.rc}`);
  if (gb.rc !== 0) failures.push(`${name}: guest ${prog} server exit status ${gb.rc}`);
  if (!gb.lines.some((l) => /data transfers complete/.test(l)))
    failures.push(`${name}: the guest ${prog} server did not complete its data transfers`);
  if (b.rc !== 0) failures.push(`${name}: softrdma ${prog} client exit status ${b.rc}`);
  checkWire(name, pcap, failures, needCm);
  assert.deepEqual(failures, [], failures.join('; '));
}

test(
  'interop RE: udaddy with 50 connections both ways (RDMA_PS_UDP, SIDR and UD datagrams) between the guest (rxe) and examples/rdmacm/udaddy',
  opts,
  async () => {
    if ('skip' in h) return;
    assert.ok(existsSync(example('udaddy')), 'examples/rdmacm/udaddy.js missing: npx tsc -p .');
    await retryOnce('RE', () =>
      bothWays(
        'RE',
        'udaddy',
        { client: `-s ${HOST_IP} -c 50`, server: `-b ${GUEST_IP} -c 50` },
        { server: ['-b', HOST_IP, '-c', '50'], client: ['-s', GUEST_IP, '-c', '50'] },
      ),
    );
  },
);

test('interop RF: ucmatose with 50 connections both ways between the guest (rxe) and examples/rdmacm/ucmatose', opts, async () => {
  if ('skip' in h) return;
  assert.ok(existsSync(example('ucmatose')), 'examples/rdmacm/ucmatose.js missing: npx tsc -p .');
  await retryOnce('RF', () =>
    bothWays(
      'RF',
      'ucmatose',
      { client: `-s ${HOST_IP} -p 7471 -c 50`, server: `-b ${GUEST_IP} -p 7472 -c 50` },
      { server: ['-b', HOST_IP, '-p', '7471', '-c', '50'], client: ['-s', GUEST_IP, '-p', '7472', '-c', '50'] },
      ROCE,
    ),
  );
});

test(
  'interop RG: mckey both ways (IPv4 group 239.255.1.1, IGMP, UD to QPN 0xFFFFFF): guest sender → softrdma receiver, then softrdma sender → guest receiver',
  opts,
  async () => {
    if ('skip' in h) return;
    assert.ok(existsSync(example('mckey')), 'examples/rdmacm/mckey.js missing: npx tsc -p .');
    const G = '239.255.1.1';
    await retryOnce('RG', () =>
      bothWays(
        'RG',
        'mckey',
        { client: `-m ${G} -b ${GUEST_IP} -s`, server: `-m ${G} -b ${GUEST_IP}` },
        { server: ['-m', G, '-b', HOST_IP], client: ['-m', G, '-b', HOST_IP, '-s'] },
        {},
        false,
      ),
    );
  },
);

test(
  'interop RK: mckey with a send-only join (-o, rdma_join_multicast_ex SENDONLY_FULLMEMBER) both ways: guest sender → softrdma receiver, then softrdma sender → guest receiver',
  opts,
  async () => {
    if ('skip' in h) return;
    assert.ok(existsSync(example('mckey')), 'examples/rdmacm/mckey.js missing: npx tsc -p .');
    const G = '239.255.1.5';
    await retryOnce('RK', () =>
      bothWays(
        'RK',
        'mckey',
        { client: `-m ${G} -b ${GUEST_IP} -s -o`, server: `-m ${G} -b ${GUEST_IP}` },
        { server: ['-m', G, '-b', HOST_IP], client: ['-m', G, '-b', HOST_IP, '-s', '-o'] },
        {},
        false,
      ),
    );
  },
);

/**
 * mckey with two receivers on two hosts: the guest (Linux rxe) and a softrdma process on the
 * host (192.168.77.1) both join the group, and a second softrdma process sends from a host of its
 * own: a network namespace (`kprl`, 192.168.77.4) whose veth is a port of the harness's bridge.
 * The bridge carries the datagrams to the guest (it joined with IGMP) and to the host's own
 * interface, where the softrdma receiver joined.
 */
test(
  'interop RL: mckey with two receivers on two hosts (the guest on rxe and softrdma) of one softrdma sender on a third, group 239.255.1.9',
  opts,
  async () => {
    if ('skip' in h) return;
    assert.ok(existsSync(example('mckey')), 'examples/rdmacm/mckey.js missing: npx tsc -p .');
    const G = '239.255.1.9';
    const SENDER_IP = '192.168.77.4';
    const NS = process.env.KP_NS ?? 'rdmapeer';
    const SNS = 'kprl';
    const ip = (args: string[]) => spawnSync('ip', args, { encoding: 'utf8', timeout: 30_000 });
    const sh = (args: string[]): void => {
      const r = ip(args);
      assert.equal(r.status, 0, `ip ${args.join(' ')}: ${r.stderr}`);
    };
    await retryOnce('RL', async () => {
      const pcap = pcapDir('RL');
      // The sender's host: a namespace with a veth into the bridge (host-exec.sh makes the bridge).
      assert.equal(spawnSync(join(dir, 'host-exec.sh'), ['true']).status, 0, 'the harness netns');
      ip(['netns', 'del', SNS]);
      sh(['netns', 'add', SNS]);
      sh(['-n', NS, 'link', 'add', 'kprl-b', 'type', 'veth', 'peer', 'name', 'kprl-h', 'netns', SNS]);
      sh(['-n', NS, 'link', 'set', 'kprl-b', 'master', 'kpbr0', 'up']);
      sh(['-n', SNS, 'link', 'set', 'lo', 'up']);
      sh(['-n', SNS, 'addr', 'add', `${SENDER_IP}/24`, 'dev', 'kprl-h']);
      sh(['-n', SNS, 'link', 'set', 'kprl-h', 'up']);
      sh(['-n', SNS, 'route', 'add', '224.0.0.0/4', 'dev', 'kprl-h']);
      const script = [
        'echo KP_READY',
        `(mckey -m ${G} -b ${GUEST_IP} 2>&1; echo "END rc=$?") | sed 's/^/g| /' &`,
        'sleep 2; echo "READY g"; wait',
      ].join('\n');
      const guest = guestRun(script, 400);
      let guestRc = -1;
      let receiver: Proc | null = null;
      let sender: Proc | null = null;
      let recvRc = -1;
      let sendRc = -1;
      try {
        assert.ok(await guest.wait(ready, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
        assert.ok(await guest.wait(/^READY g$/, 120_000), 'RL: the guest receiver did not start');
        receiver = run(join(dir, 'host-exec.sh'), ['node', example('mckey'), '-m', G, '-b', HOST_IP], dir, { SOFTRDMA_PCAP: pcap });
        assert.ok(
          await receiver.wait(/^mckey: joined dgid/, 60_000),
          `RL: the softrdma receiver did not join:\n${receiver.lines.join('\n')}`,
        );
        sender = run('ip', ['netns', 'exec', SNS, process.execPath, example('mckey'), '-m', G, '-b', SENDER_IP, '-s'], dir, {
          SOFTRDMA_PCAP: pcap,
        });
        const ts = setTimeout(() => kill(sender), 120_000);
        sendRc = await sender.done;
        clearTimeout(ts);
        const t = setTimeout(() => kill(receiver), 60_000);
        recvRc = await receiver.done;
        clearTimeout(t);
        const tg = setTimeout(() => kill(guest), 60_000);
        guestRc = await guest.done;
        clearTimeout(tg);
      } finally {
        kill(sender);
        kill(receiver);
        kill(guest);
        ip(['netns', 'del', SNS]); // and with it the veth pair
        show(`guest (run-guest.sh rc ${guestRc})`, 'guest', guest.lines);
        show(`softrdma mckey receiver on ${HOST_IP} (rc ${recvRc})`, 'host', receiver?.lines ?? []);
        show(`softrdma mckey sender on ${SENDER_IP}, netns ${SNS} (rc ${sendRc})`, 'host', sender?.lines ?? []);
      }
      const failures: string[] = [];
      const g = tagged(guest.lines, 'g');
      if (sendRc !== 0) failures.push(`RL: softrdma mckey sender exit status ${sendRc}`);
      if (!sender?.lines.some((l) => /data transfers complete/.test(l)))
        failures.push('RL: the softrdma sender did not complete its data transfers');
      if (recvRc !== 0) failures.push(`RL: softrdma mckey receiver exit status ${recvRc}`);
      if (!receiver?.lines.some((l) => /data transfers complete/.test(l)))
        failures.push('RL: the softrdma receiver did not receive the 10 datagrams');
      if (g.rc !== 0) failures.push(`RL: guest mckey receiver exit status ${g.rc}`);
      if (!g.lines.some((l) => /data transfers complete/.test(l))) failures.push('RL: the guest receiver did not receive the 10 datagrams');
      checkWire('RL', pcap, failures, false);
      assert.deepEqual(failures, [], failures.join('; '));
    });
  },
);

test(
  'interop RH: guest rping -c (Linux rxe) → the IT-API rping server on softroce0 (examples/itapi/rping-server --device softroce0), 64 B and -S 65535, -C 100 -V',
  opts,
  async () => {
    if ('skip' in h) return;
    const itServer = join(cli, '../../../examples/itapi/rping-server.js');
    assert.ok(existsSync(itServer), 'examples/itapi/rping-server.js missing: npx tsc -p .');
    await retryOnce('RH', async () => {
      const pcap = pcapDir('RH');
      const cases = [
        { tag: 'small', port: 7276, size: [] as string[], ours: [] as string[] },
        { tag: 'big', port: 7277, size: ['-S', '65535'], ours: ['--size', '65535'] },
      ];
      const script = [
        'echo KP_READY',
        ...cases.map(
          (c) =>
            `echo "WAIT ${c.tag}"; sleep 8; echo "BEGIN ${c.tag}"; rping -c -a ${HOST_IP} -p ${c.port} -C ${COUNT} -V -v ${c.size.join(' ')}; echo "END ${c.tag} rc=$?"`,
        ),
      ].join('\n');
      const guest = guestRun(script, 400);
      let guestRc = -1;
      const results: Array<{ rc: number; lines: string[] }> = [];
      try {
        assert.ok(await guest.wait(ready, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
        for (const c of cases) {
          assert.ok(await guest.wait(new RegExp(`^WAIT ${c.tag}$`), 240_000), `RH: the guest did not reach ${c.tag}`);
          const args = ['--device', 'softroce0', '--addr', HOST_IP, '--port', String(c.port), '--count', String(COUNT), '-v', ...c.ours];
          results.push(await hostNode(dir, itServer, args, 240_000, { SOFTRDMA_PCAP: pcap }));
        }
        guestRc = await guest.done;
      } finally {
        kill(guest);
        show(
          `guest (run-guest.sh rc ${guestRc})`,
          'guest',
          guest.lines.filter((l) => !/ping data: /.test(l)),
        );
      }
      const failures: string[] = [];
      for (const [i, c] of cases.entries()) {
        const g = section(guest.lines, c.tag);
        const p = pings(g.lines);
        const s = results[i]!;
        const served = s.lines.filter((l) => /^server ping data: rdma-ping-\d+: /.test(l)).length;
        console.log(
          `---- RH ${c.tag} (${c.size.join(' ') || '64 B'}): guest rping -c rc=${g.rc}, ${p.n} ping lines; IT-API rping server rc=${s.rc}, ${served} served ----`,
        );
        for (const l of p.ends) console.log(`[guest] ${l}`);
        show(
          `IT-API rping-server --device softroce0 -p ${c.port} (rc ${s.rc})`,
          'host',
          s.lines.filter((l) => !/ping data: /.test(l)).slice(0, 20),
        );
        if (p.n !== COUNT) failures.push(`RH ${c.tag}: the guest rping -c printed ${p.n} of ${COUNT} ping data lines`);
        if (g.rc !== 0) failures.push(`RH ${c.tag}: guest rping -c exit status ${g.rc}`);
        if (s.rc !== 0) failures.push(`RH ${c.tag}: IT-API rping server exit status ${s.rc}`);
        if (served !== COUNT) failures.push(`RH ${c.tag}: the IT-API server served ${served} of ${COUNT}`);
      }
      checkWire('RH', pcap, failures);
      assert.deepEqual(failures, [], failures.join('; '));
    });
  },
);

/**
 * Interop: softrdma's RoCEv2 device (`softroce0`) against Linux rxe (6.1) and the rdma-core 44
 * tools that connect without a CM, in the kernel-peer qemu guest booted with `-l rxe` (rxe0
 * only). Both roles each time:
 *
 *   E. guest `ibv_{rc,uc,ud,srq}_pingpong -g 1` clients → `softrdma pingpong` servers
 *   F. `softrdma pingpong` clients → guest `ibv_*_pingpong -g 1` servers
 *      (rc at 4 KiB, -s 1 and -s 65536; uc; ud -s 1024; srq with 16 QPs)
 *   G. `softrdma perf -d softroce0 -x 1` clients → guest perftest servers
 *   H. guest perftest clients → `softrdma perf … --server`
 *      (ib_{write,read,send}_{bw,lat} -s 65536 -n 200, ib_atomic_bw -A FETCH_AND_ADD and
 *      -A CMP_AND_SWAP -n 200; all -x 1, without -R: perftest's TCP exchange)
 *   U. perftest -c UD: ib_send_bw and ib_send_lat, both roles
 *   L. 2 % loss both ways on the link (nftables in the harness's netns): ib_write_bw and
 *      ib_read_bw at 1 MiB in both roles; the data checked where softrdma holds it (what the
 *      guest's ib_write_bw placed in our buffer, what our RDMA Reads returned), against the
 *      guest's buffer regenerated from glibc's rand() (perftest fills it after
 *      srand(time(NULL))); retransmission and sequence-error counters rise on both ends (rxe's
 *      hw_counters, softrdma stat).
 *   R7. retry_cnt 7 as rxe reads it: a 2 s outage in the middle of softrdma perf write -D 8
 *      against the guest's ib_write_bw; the run resumes.
 *
 * Host side: netns `rdmapeer`, `SOFTRDMA_ROCE_ADDRS=127.0.0.1,192.168.77.1` so that our GID index
 * 1 is 192.168.77.1, as the guest's GID 1 is ::ffff:192.168.77.2 (`-g 1` / `-x 1`). Every case
 * captures softrdma's traffic (`SOFTRDMA_PCAP`) and tshark decodes it as RRoCE with no
 * malformed packet. One softrdma RoCE process at a time binds 192.168.77.1:4791, so the host
 * commands of a case run one after the other, paced by marker lines of the guest script; a
 * client retries while the other side does not listen yet.
 */
import { retryOnce } from '../helpers/retry.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { findGlibcSeed, glibcRand, glibcRandBytes } from './glibc-rand.js';
import { cli, GUEST_IP, HOST_IP, harness, host, kill, pcapDir, show, unlessClockFailure, wireCheckRoce, section } from './harness.js';
import { bootGuest, hostClient, idZero, nft, PROLOGUE } from './rxe-harness.js';

const h = harness();
const opts = { skip: 'skip' in h ? h.skip : false, timeout: 900_000 };
/** Our GID table in the netns: index 1 is the link's address. */
const ENV = { SOFTRDMA_ROCE_ADDRS: `127.0.0.1,${HOST_IP}` };
const ready = /KP_READY/;

function nftList(dir: string, table: string): string {
  return spawnSync(join(dir, 'host-exec.sh'), ['nft', 'list', 'table', 'ip', table], { encoding: 'utf8', timeout: 30_000 }).stdout ?? '';
}

/** Counters the guest printed for `tag` (`CNT tag name value`). */
function counters(lines: string[], tag: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const l of lines) {
    const x = /^CNT (\S+) (\S+) (\d+)$/.exec(l);
    if (x && x[1] === tag) m.set(x[2]!, Number(x[3]));
  }
  return m;
}

function checkWire(name: string, dir: string, failures: string[]): Map<string, number> {
  const w = wireCheckRoce(dir);
  console.log(`---- ${name}: tshark on softrdma's RoCEv2 pcaps (${dir}) ----`);
  for (const l of w.summary) console.log(`[tshark] ${l}`);
  failures.push(...w.failures.map((f) => `${name} wire: ${f}`));
  return w.ops;
}

/** Sets up the IPv4-ID fallback if needed; returns a cleanup. */
// --------------------------------------------------------------------------- pingpong

interface PpCase {
  tag: string;
  prog: string;
  kind: 'rc' | 'uc' | 'ud' | 'srq';
  args: string[];
}

const PP: readonly PpCase[] = [
  { tag: 'rc', prog: 'ibv_rc_pingpong', kind: 'rc', args: ['-n', '200', '-c'] },
  { tag: 'rc_s1', prog: 'ibv_rc_pingpong', kind: 'rc', args: ['-s', '1', '-n', '200'] },
  { tag: 'rc_s65536', prog: 'ibv_rc_pingpong', kind: 'rc', args: ['-s', '65536', '-n', '50', '-c'] },
  { tag: 'uc', prog: 'ibv_uc_pingpong', kind: 'uc', args: ['-n', '200', '-c'] },
  { tag: 'ud', prog: 'ibv_ud_pingpong', kind: 'ud', args: ['-s', '1024', '-n', '200', '-c'] },
  { tag: 'srq', prog: 'ibv_srq_pingpong', kind: 'srq', args: ['-n', '400', '-c'] },
];
const PP_LINE = /^\d+ bytes in \d+\.\d+ seconds = [\d.]+ Mbit\/sec$|^\d+ iters in \d+\.\d+ seconds = [\d.]+ usec\/iter$/;
const ppPort = (i: number): number => 18600 + i;

function ppReport(
  name: string,
  c: PpCase,
  ours: { rc: number; lines: string[] },
  g: { rc: number; lines: string[] },
  failures: string[],
): void {
  const oRes = ours.lines.filter((l) => PP_LINE.test(l));
  const gRes = g.lines.filter((l) => PP_LINE.test(l));
  console.log(`---- ${name} ${c.prog} ${c.args.join(' ')}: softrdma rc=${ours.rc}, guest rc=${g.rc} ----`);
  for (const l of ours.lines.filter((l) => /address/.test(l)).slice(0, 2)) console.log(`[host ] ${l}`);
  for (const l of oRes) console.log(`[host ] ${l}`);
  for (const l of g.lines.filter((l) => /address/.test(l)).slice(0, 2)) console.log(`[guest] ${l}`);
  for (const l of gRes) console.log(`[guest] ${l}`);
  if (ours.rc !== 0 || oRes.length < 2) show(`softrdma pingpong ${c.kind} output`, 'host', ours.lines.slice(0, 40));
  if (g.rc !== 0 || gRes.length < 2) show(`guest ${c.prog} output`, 'guest', g.lines.slice(0, 40));
  if (ours.rc !== 0) failures.push(`${c.tag}: softrdma pingpong exit status ${ours.rc}`);
  if (g.rc !== 0) failures.push(`${c.tag}: guest ${c.prog} exit status ${g.rc}`);
  if (oRes.length < 2) failures.push(`${c.tag}: softrdma printed no result lines`);
  if (gRes.length < 2) failures.push(`${c.tag}: the guest printed no result lines`);
  for (const [who, lines] of [
    ['softrdma', ours.lines],
    ['guest', g.lines],
  ] as const) {
    if (lines.some((l) => /invalid data/.test(l))) failures.push(`${c.tag}: ${who} found invalid data (-c)`);
  }
}

test('interop E: guest ibv_{rc,uc,ud,srq}_pingpong -g 1 clients (Linux rxe) → softrdma pingpong servers', opts, async () => {
  if ('skip' in h) return;
  assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
  await retryOnce('E', async () => {
    const pcap = pcapDir('E');
    const restore = await idZero(h.dir);
    const script = [
      PROLOGUE,
      'sleep 3',
      ...PP.map((c, i) => `client ${c.tag} ${c.prog} -d rxe0 -g 1 -p ${ppPort(i)} ${c.args.join(' ')} ${HOST_IP}`),
    ].join('\n');
    const guest = bootGuest(h.dir, script, 600);
    const results: Array<{ rc: number; lines: string[] }> = [];
    let guestRc = -1;
    try {
      assert.ok(await guest.wait(ready, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
      for (const [i, c] of PP.entries()) {
        results.push(
          await host(h.dir, ['pingpong', c.kind, '-g', '1', '-p', String(ppPort(i)), ...c.args], 180_000, { ...ENV, SOFTRDMA_PCAP: pcap }),
        );
        await guest.wait(new RegExp(`^END ${c.tag} rc=`), 60_000);
      }
      const t = setTimeout(() => kill(guest), 60_000);
      guestRc = await guest.done;
      clearTimeout(t);
    } finally {
      kill(guest);
      restore();
      show(`guest (run-guest.sh rc ${guestRc})`, 'guest', guest.lines.filter((l) => !/^(BEGIN|END|CNT) /.test(l)).slice(0, 30));
    }
    const failures: string[] = [];
    for (const [i, c] of PP.entries()) ppReport('E', c, results[i] ?? { rc: -1, lines: [] }, section(guest.lines, c.tag), failures);
    checkWire('E', pcap, failures);
    assert.deepEqual(failures, [], `E: ${failures.join('; ')}`);
  });
});

test('interop F: softrdma pingpong clients → guest ibv_{rc,uc,ud,srq}_pingpong -g 1 servers (Linux rxe)', opts, async () => {
  if ('skip' in h) return;
  assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
  await retryOnce('F', async () => {
    const pcap = pcapDir('F');
    const restore = await idZero(h.dir);
    const script = [PROLOGUE, ...PP.map((c, i) => `server ${c.tag} ${c.prog} -d rxe0 -g 1 -p ${ppPort(i)} ${c.args.join(' ')}`)].join('\n');
    const guest = bootGuest(h.dir, script, 600);
    const results: Array<{ rc: number; lines: string[] }> = [];
    let guestRc = -1;
    try {
      assert.ok(await guest.wait(ready, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
      for (const [i, c] of PP.entries()) {
        assert.ok(await guest.wait(new RegExp(`^START ${c.tag}$`), 200_000), `F: the guest did not start ${c.tag}`);
        results.push(
          await hostClient(
            h.dir,
            ['pingpong', c.kind, '-g', '1', '-p', String(ppPort(i)), ...c.args, GUEST_IP],
            { ...ENV, SOFTRDMA_PCAP: pcap },
            150_000,
          ),
        );
      }
      const t = setTimeout(() => kill(guest), 60_000);
      guestRc = await guest.done;
      clearTimeout(t);
    } finally {
      kill(guest);
      restore();
      show(`guest (run-guest.sh rc ${guestRc})`, 'guest', guest.lines.filter((l) => !/^(BEGIN|END|START|CNT) /.test(l)).slice(0, 30));
    }
    const failures: string[] = [];
    for (const [i, c] of PP.entries()) ppReport('F', c, results[i] ?? { rc: -1, lines: [] }, section(guest.lines, c.tag), failures);
    checkWire('F', pcap, failures);
    assert.deepEqual(failures, [], `F: ${failures.join('; ')}`);
  });
});

// --------------------------------------------------------------------------- perftest

interface PerfCase {
  tag: string;
  /** The guest's program and its arguments (before the server address). */
  prog: string;
  pargs: string[];
  /** `softrdma perf …` arguments (before the address / --server). */
  ours: string[];
  /** The result row both sides print (the ib_read_lat server and ib_*_bw servers of … see below). */
  row: RegExp;
}

/**
 * `-F`: perftest measures the CPU clock before it reports, and under TCG its fit is sometimes
 * too poor ("Correlation coefficient r^2 … < 0.9 / Can't produce a report", exit 1); -F turns
 * that into a warning. softrdma accepts and ignores it.
 */
const COMMON = ['-x', '1', '-n', '200', '-F'];
const PERF: readonly PerfCase[] = [
  ...(['write', 'read', 'send'] as const).flatMap((v) =>
    (['bw', 'lat'] as const).map((t) => ({
      tag: `${v}_${t}`,
      prog: `ib_${v}_${t}`,
      pargs: ['-d', 'rxe0', ...COMMON, '-s', '65536'],
      ours: ['perf', v, `--${t}`, '-d', 'softroce0', ...COMMON, '-s', '65536'],
      row: /^\s*65536\s+200\s/,
    })),
  ),
  ...(['FETCH_AND_ADD', 'CMP_AND_SWAP'] as const).map((a) => ({
    tag: `atomic_bw_${a}`,
    prog: 'ib_atomic_bw',
    pargs: ['-d', 'rxe0', ...COMMON, '-A', a],
    ours: ['perf', 'atomic', '--bw', '-d', 'softroce0', ...COMMON, '-A', a],
    row: /^\s*8\s+200\s/,
  })),
];
const perfPort = (i: number): number => 18700 + i;
/** perftest's ib_read_lat server is passive (it prints no result row), as ours. */
const passive = (c: PerfCase): boolean => c.tag === 'read_lat';

function perfReport(
  name: string,
  c: PerfCase,
  ours: { rc: number; lines: string[] },
  g: { rc: number; lines: string[] },
  guestServer: boolean,
  failures: string[],
): void {
  const oRows = ours.lines.filter((l) => c.row.test(l));
  const gRows = g.lines.filter((l) => c.row.test(l));
  console.log(
    `---- ${name} ${c.prog} ${c.pargs.join(' ')}: softrdma ${guestServer ? 'client' : 'server'} rc=${ours.rc}, guest ${guestServer ? 'server' : 'client'} rc=${g.rc} ----`,
  );
  for (const l of ours.lines.filter((l) => /Data ex\. method|Transport type|local address|remote address|GID:/.test(l)).slice(0, 6))
    console.log(`[host ] ${l.trim()}`);
  for (const l of oRows) console.log(`[host ] ${l}`);
  for (const l of g.lines.filter((l) => /Data ex\. method|Transport type|remote address/.test(l)).slice(0, 3))
    console.log(`[guest] ${l.trim()}`);
  for (const l of gRows) console.log(`[guest] ${l}`);
  const oPassive = passive(c) && !guestServer;
  const gPassive = passive(c) && guestServer;
  if (ours.rc !== 0 || (oRows.length === 0 && !oPassive)) show(`softrdma ${c.ours.join(' ')} output`, 'host', ours.lines.slice(0, 60));
  if (g.rc !== 0 || (gRows.length === 0 && !gPassive)) show(`guest ${c.prog} output`, 'guest', g.lines.slice(0, 60));
  const f: string[] = [];
  if (ours.rc !== 0) f.push(`${c.tag}: softrdma perf exit status ${ours.rc}`);
  if (g.rc !== 0) f.push(`${c.tag}: guest ${c.prog} exit status ${g.rc}`);
  if (oRows.length === 0 && !oPassive) f.push(`${c.tag}: softrdma printed no result row`);
  if (gRows.length === 0 && !gPassive) f.push(`${c.tag}: the guest printed no result row`);
  failures.push(...unlessClockFailure(`${name} ${c.tag}`, g.lines, f));
  if (!ours.lines.some((l) => /Data ex\. method : Ethernet/.test(l)))
    failures.push(`${c.tag}: softrdma did not use perftest's TCP exchange`);
}

test(
  'interop G: softrdma perf -d softroce0 -x 1 clients → guest perftest servers (Linux rxe, no -R): write/read/send bw+lat, atomic_bw FETCH_AND_ADD and CMP_AND_SWAP',
  opts,
  async () => {
    if ('skip' in h) return;
    assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
    await retryOnce('G', async () => {
      const pcap = pcapDir('G');
      const restore = await idZero(h.dir);
      const script = [PROLOGUE, ...PERF.map((c, i) => `server ${c.tag} ${c.prog} ${c.pargs.join(' ')} -p ${perfPort(i)}`)].join('\n');
      const guest = bootGuest(h.dir, script, 900);
      const results: Array<{ rc: number; lines: string[] }> = [];
      let guestRc = -1;
      try {
        assert.ok(await guest.wait(ready, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
        for (const [i, c] of PERF.entries()) {
          assert.ok(await guest.wait(new RegExp(`^START ${c.tag}$`), 200_000), `G: the guest did not start ${c.tag}`);
          results.push(await hostClient(h.dir, [...c.ours, '-p', String(perfPort(i)), GUEST_IP], { ...ENV, SOFTRDMA_PCAP: pcap }, 150_000));
        }
        const t = setTimeout(() => kill(guest), 60_000);
        guestRc = await guest.done;
        clearTimeout(t);
      } finally {
        kill(guest);
        restore();
        show(`guest (run-guest.sh rc ${guestRc})`, 'guest', guest.lines.filter((l) => !/^(BEGIN|END|START|CNT) /.test(l)).slice(0, 20));
      }
      const failures: string[] = [];
      for (const [i, c] of PERF.entries())
        perfReport('G', c, results[i] ?? { rc: -1, lines: [] }, section(guest.lines, c.tag), true, failures);
      checkWire('G', pcap, failures);
      assert.deepEqual(failures, [], `G: ${failures.join('; ')}`);
    });
  },
);

test(
  'interop H: guest perftest clients (Linux rxe, -x 1, no -R) → softrdma perf -d softroce0 --server: write/read/send bw+lat, atomic_bw FETCH_AND_ADD and CMP_AND_SWAP',
  opts,
  async () => {
    if ('skip' in h) return;
    assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
    await retryOnce('H', async () => {
      const pcap = pcapDir('H');
      const restore = await idZero(h.dir);
      const script = [
        PROLOGUE,
        'sleep 3',
        ...PERF.map((c, i) => `client ${c.tag} ${c.prog} ${c.pargs.join(' ')} -p ${perfPort(i)} ${HOST_IP}`),
      ].join('\n');
      const guest = bootGuest(h.dir, script, 900);
      const results: Array<{ rc: number; lines: string[] }> = [];
      let guestRc = -1;
      try {
        assert.ok(await guest.wait(ready, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
        for (const [i, c] of PERF.entries()) {
          results.push(await host(h.dir, [...c.ours, '--server', '-p', String(perfPort(i))], 180_000, { ...ENV, SOFTRDMA_PCAP: pcap }));
          await guest.wait(new RegExp(`^END ${c.tag} rc=`), 60_000);
        }
        const t = setTimeout(() => kill(guest), 60_000);
        guestRc = await guest.done;
        clearTimeout(t);
      } finally {
        kill(guest);
        restore();
        show(`guest (run-guest.sh rc ${guestRc})`, 'guest', guest.lines.filter((l) => !/^(BEGIN|END|START|CNT) /.test(l)).slice(0, 20));
      }
      const failures: string[] = [];
      for (const [i, c] of PERF.entries())
        perfReport('H', c, results[i] ?? { rc: -1, lines: [] }, section(guest.lines, c.tag), false, failures);
      checkWire('H', pcap, failures);
      assert.deepEqual(failures, [], `H: ${failures.join('; ')}`);
    });
  },
);

// --------------------------------------------------------------------------- perftest -c UD

/**
 * perftest's UD mode (`-c UD`): ib_send_bw (its default 64 KiB cut to the path MTU, 1024 on both
 * ends, with perftest's "Max msg size in UD is MTU" on stderr) and ib_send_lat (2 octets). UD
 * datagrams carry the Q_Key 0x11111111 and land behind a 40-octet GRH. -n 200: the receiving end
 * posts all 200 receives before the first datagram (a datagram that finds none is dropped).
 */
const UD_CASES: readonly PerfCase[] = [
  {
    tag: 'ud_send_bw',
    prog: 'ib_send_bw',
    pargs: ['-d', 'rxe0', ...COMMON, '-c', 'UD'],
    ours: ['perf', 'send', '--bw', '-d', 'softroce0', ...COMMON, '-c', 'UD'],
    row: /^\s*1024\s+200\s/,
  },
  {
    tag: 'ud_send_lat',
    prog: 'ib_send_lat',
    pargs: ['-d', 'rxe0', ...COMMON, '-c', 'UD'],
    ours: ['perf', 'send', '--lat', '-d', 'softroce0', ...COMMON, '-c', 'UD'],
    row: /^\s*2\s+200\s/,
  },
];
const udPort = (i: number, guestServes: boolean): number => 18750 + 2 * i + (guestServes ? 0 : 1);

test(
  'interop U: perftest -c UD (ib_send_bw, ib_send_lat) against Linux rxe, both roles: softrdma perf clients → guest servers, then guest clients → softrdma perf --server',
  opts,
  async () => {
    if ('skip' in h) return;
    assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
    await retryOnce('U', async () => {
      const pcap = pcapDir('U');
      const restore = await idZero(h.dir);
      const script = [
        PROLOGUE,
        ...UD_CASES.map((c, i) => `server ${c.tag}_gs ${c.prog} ${c.pargs.join(' ')} -p ${udPort(i, true)}`),
        'sleep 3',
        ...UD_CASES.map((c, i) => `client ${c.tag}_gc ${c.prog} ${c.pargs.join(' ')} -p ${udPort(i, false)} ${HOST_IP}`),
      ].join('\n');
      const guest = bootGuest(h.dir, script, 900);
      const asClient: Array<{ rc: number; lines: string[] }> = [];
      const asServer: Array<{ rc: number; lines: string[] }> = [];
      let guestRc = -1;
      try {
        assert.ok(await guest.wait(ready, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
        for (const [i, c] of UD_CASES.entries()) {
          assert.ok(await guest.wait(new RegExp(`^START ${c.tag}_gs$`), 200_000), `U: the guest did not start ${c.tag}`);
          asClient.push(
            await hostClient(h.dir, [...c.ours, '-p', String(udPort(i, true)), GUEST_IP], { ...ENV, SOFTRDMA_PCAP: pcap }, 150_000),
          );
          await guest.wait(new RegExp(`^END ${c.tag}_gs rc=`), 180_000);
        }
        for (const [i, c] of UD_CASES.entries()) {
          asServer.push(
            await host(h.dir, [...c.ours, '--server', '-p', String(udPort(i, false))], 180_000, { ...ENV, SOFTRDMA_PCAP: pcap }),
          );
          await guest.wait(new RegExp(`^END ${c.tag}_gc rc=`), 60_000);
        }
        const t = setTimeout(() => kill(guest), 60_000);
        guestRc = await guest.done;
        clearTimeout(t);
      } finally {
        kill(guest);
        restore();
        show(`guest (run-guest.sh rc ${guestRc})`, 'guest', guest.lines.filter((l) => !/^(BEGIN|END|START|CNT) /.test(l)).slice(0, 20));
      }
      const failures: string[] = [];
      for (const [i, c] of UD_CASES.entries()) {
        for (const [role, ours, g] of [
          ['U (softrdma client → guest server)', asClient[i], section(guest.lines, `${c.tag}_gs`)],
          ['U (guest client → softrdma server)', asServer[i], section(guest.lines, `${c.tag}_gc`)],
        ] as const) {
          const o = ours ?? { rc: -1, lines: [] };
          perfReport(role, c, o, g, role.includes('guest server'), failures);
          if (!o.lines.some((l) => /Connection type : UD/.test(l))) failures.push(`${role} ${c.tag}: softrdma did not run UD`);
          if (!g.lines.some((l) => /Connection type : UD/.test(l))) failures.push(`${role} ${c.tag}: the guest did not run UD`);
        }
      }
      const ops = checkWire('U', pcap, failures);
      if (!ops.has('UD_SEND_ONLY')) failures.push(`U wire: no UD SEND ONLY in softrdma's captures (${[...ops.keys()].join(', ')})`);
      assert.deepEqual(failures, [], `U: ${failures.join('; ')}`);
    });
  },
);

// --------------------------------------------------------------------------- loss

const MIB = 1 << 20;
const LOSS_N = '20';
/** perftest's data buffer for -s 1M: the local sources, then the areas the peer targets (1 MiB each). */
const LOSS_ARGS = ['-x', '1', '-s', String(MIB), '-n', LOSS_N, '-F'];

test("glibc rand(): the generator behind perftest's buffers matches glibc's outputs", () => {
  // glibc 2.36: srand(1) → 1804289383, 846930886, 1681692777; srand(1700000000) → 280491303, 626398474.
  assert.deepEqual(glibcRand(1, 3), [1804289383, 846930886, 1681692777]);
  assert.deepEqual(glibcRand(1700000000, 2), [280491303, 626398474]);
  assert.deepEqual(Array.from(glibcRandBytes(1700000000, 2, 1)), [626398474 & 0xff, 65378190 & 0xff]);
  const data = glibcRandBytes(1700000123, 4096, 10);
  assert.equal(findGlibcSeed(data, 1700000000, 1700000200, 10), 1700000123);
});

/**
 * `softrdma stat --json` polled while softrdma processes run (each publishes its counters every
 * second into SOFTRDMA_STATS_DIR and removes them when it exits): the last values seen of each
 * process, summed per counter at the end.
 */
function watchStat(dir: string): { stop: () => Map<string, number> } {
  const last = new Map<number, Record<string, number>>();
  const poll = () => {
    const r = spawnSync(process.execPath, [cli, 'stat', '--json'], {
      encoding: 'utf8',
      env: { ...process.env, SOFTRDMA_STATS_DIR: dir },
      timeout: 10_000,
    });
    try {
      for (const row of JSON.parse(r.stdout || '[]') as Array<Record<string, number | string>>) {
        if (row.ifname !== 'softroce0') continue;
        const nums: Record<string, number> = {};
        for (const [k, val] of Object.entries(row)) if (typeof val === 'number' && k !== 'pid' && k !== 'port') nums[k] = val;
        last.set(Number(row.pid), nums);
      }
    } catch {
      // A file caught mid-write: the next poll reads it.
    }
  };
  const t = setInterval(poll, 500);
  return {
    stop: () => {
      clearInterval(t);
      poll();
      const sum = new Map<string, number>();
      for (const c of last.values()) for (const [k, val] of Object.entries(c)) sum.set(k, (sum.get(k) ?? 0) + val);
      return sum;
    },
  };
}

test(
  'interop L: 2 % loss both ways on the link (nftables): ib_write_bw and ib_read_bw at 1 MiB against Linux rxe in both roles, data intact, rxe retry counters rising',
  opts,
  async () => {
    if ('skip' in h) return;
    assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
    if (spawnSync(join(h.dir, 'host-exec.sh'), ['nft', '--version']).status !== 0) {
      assert.fail('nftables (nft) is not installed on the host: setup.sh installs it');
    }
    await retryOnce('L', async () => {
      const pcap = pcapDir('L');
      const dumps = pcapDir('L-dumps');
      const restore = await idZero(h.dir);
      // Drop 2 % of the RoCEv2 datagrams leaving the host and 2 % of those arriving (the guest's),
      // at random; TCP (the side channel) is untouched.
      const loss = nft(
        h.dir,
        'table ip kploss {\n' +
          '  chain out { type filter hook output priority 0; udp dport 4791 numgen random mod 100 < 2 counter drop; }\n' +
          '  chain in { type filter hook input priority 0; udp dport 4791 numgen random mod 100 < 2 counter drop; }\n' +
          '}',
      );
      assert.equal(loss, null, `nft: ${loss}`);
      const W = (s: string[]) => s.join(' ');
      const script = [
        PROLOGUE,
        'counters before',
        // L1: the guest writes (rxe requester under loss), softrdma's buffer is checked.
        `echo "SEED L1 $(date +%s)"; client L1 ib_write_bw -d rxe0 ${W(LOSS_ARGS)} -p 18801 ${HOST_IP}`,
        'counters L1',
        // L2: softrdma reads (rxe responder under loss: replayed reads), what we read is checked.
        `echo "SEED L2 $(date +%s)"; server L2 ib_read_bw -d rxe0 ${W(LOSS_ARGS)} -p 18802`,
        'counters L2',
        // L3: softrdma writes (rxe responder: out-of-sequence and duplicate requests).
        `server L3 ib_write_bw -d rxe0 ${W(LOSS_ARGS)} -p 18803`,
        'counters L3',
        // L4: the guest reads from softrdma (our read responder, rxe requester).
        `client L4 ib_read_bw -d rxe0 ${W(LOSS_ARGS)} -p 18804 ${HOST_IP}`,
        'counters after',
      ].join('\n');
      const guest = bootGuest(h.dir, script, 900);
      const res: Record<string, { rc: number; lines: string[] }> = {};
      const statDir = pcapDir('L-stat');
      const env = { ...ENV, SOFTRDMA_PCAP: pcap, SOFTRDMA_STATS_DIR: statDir };
      const stat = watchStat(statDir);
      let ours = new Map<string, number>();
      const d1 = join(dumps, 'L1.bin');
      const d2 = join(dumps, 'L2.bin');
      let guestRc = -1;
      let dropped = '';
      try {
        assert.ok(await guest.wait(ready, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
        res.L1 = await host(
          h.dir,
          ['perf', 'write', '--server', '-d', 'softroce0', ...LOSS_ARGS, '-p', '18801', `--dump-buffer=${d1}`],
          300_000,
          env,
        );
        assert.ok(await guest.wait(/^START L2$/, 200_000), 'L: the guest did not start L2');
        res.L2 = await hostClient(
          h.dir,
          ['perf', 'read', '-d', 'softroce0', ...LOSS_ARGS, '-p', '18802', `--dump-buffer=${d2}`, GUEST_IP],
          env,
          300_000,
        );
        assert.ok(await guest.wait(/^START L3$/, 200_000), 'L: the guest did not start L3');
        res.L3 = await hostClient(h.dir, ['perf', 'write', '-d', 'softroce0', ...LOSS_ARGS, '-p', '18803', GUEST_IP], env, 300_000);
        res.L4 = await host(h.dir, ['perf', 'read', '--server', '-d', 'softroce0', ...LOSS_ARGS, '-p', '18804'], 300_000, env);
        const t = setTimeout(() => kill(guest), 60_000);
        guestRc = await guest.done;
        clearTimeout(t);
      } finally {
        kill(guest);
        ours = stat.stop();
        dropped = nftList(h.dir, 'kploss');
        void nft(h.dir, 'delete table ip kploss');
        restore();
        show(`guest (run-guest.sh rc ${guestRc})`, 'guest', guest.lines.filter((l) => !/^(BEGIN|END|START|CNT) /.test(l)).slice(0, 20));
      }
      const failures: string[] = [];
      const drops = [...dropped.matchAll(/counter packets (\d+)/g)].map((m) => Number(m[1]));
      console.log(`---- L: nftables dropped ${drops[0] ?? '?'} datagrams host→guest and ${drops[1] ?? '?'} guest→host ----`);
      if (!(drops[0]! > 0 && drops[1]! > 0)) failures.push(`L: the loss rule dropped nothing in one direction (${drops.join(', ')})`);
      const row = /^\s*1048576\s+20\s/;
      for (const [tag, guestServer, prog] of [
        ['L1', false, 'ib_write_bw'],
        ['L2', true, 'ib_read_bw'],
        ['L3', true, 'ib_write_bw'],
        ['L4', false, 'ib_read_bw'],
      ] as const) {
        const o = res[tag] ?? { rc: -1, lines: [] };
        const g = section(guest.lines, tag);
        const oRows = o.lines.filter((l) => row.test(l));
        const gRows = g.lines.filter((l) => row.test(l));
        console.log(
          `---- ${tag} ${prog} -s 1M -n ${LOSS_N} with 2 % loss: softrdma ${guestServer ? 'client' : 'server'} rc=${o.rc}, guest ${guestServer ? 'server' : 'client'} rc=${g.rc} ----`,
        );
        for (const l of oRows) console.log(`[host ] ${l}`);
        for (const l of gRows) console.log(`[guest] ${l}`);
        if (o.rc !== 0 || oRows.length === 0) show(`softrdma ${tag} output`, 'host', o.lines.slice(0, 60));
        if (g.rc !== 0 || gRows.length === 0) show(`guest ${tag} output`, 'guest', g.lines.slice(0, 60));
        if (o.rc !== 0) failures.push(`${tag}: softrdma exit status ${o.rc}`);
        if (g.rc !== 0) failures.push(`${tag}: guest ${prog} exit status ${g.rc}`);
        if (oRows.length === 0 || gRows.length === 0) failures.push(`${tag}: a side printed no result row`);
      }
      // The data: perftest filled its buffer with (char)rand() after srand(time(NULL)); the guest
      // printed its clock just before starting the tool.
      const seedAt = (tag: string): number => Number(guest.lines.find((l) => l.startsWith(`SEED ${tag} `))?.split(' ')[2] ?? Number.NaN);
      const check = (tag: string, file: string, ours: number, skip: number, what: string): void => {
        if (!existsSync(file)) {
          failures.push(`${tag}: no buffer dump`);
          return;
        }
        const buf = readFileSync(file).subarray(ours, ours + MIB);
        const t = seedAt(tag);
        const seed = Number.isFinite(t) ? findGlibcSeed(buf, t - 2, t + 120, skip) : null;
        console.log(
          `---- ${tag} data: ${what}: ${seed === null ? 'NO MATCH' : `equal to the guest's buffer (glibc rand(), srand(${seed}), ${seed - t} s after the guest's clock line), all ${MIB} octets`} ----`,
        );
        if (seed === null) failures.push(`${tag}: ${what} is not the guest's data`);
      };
      // L1: the guest's source is its buffer's first MiB; our target area is our buffer's second.
      check('L1', d1, MIB, 0, 'the 1 MiB area the guest RDMA-Wrote 20 times into softrdma');
      // L2: the guest advertises its buffer's second MiB; our Read sink is our buffer's first.
      check('L2', d2, 0, MIB, 'the 1 MiB softrdma RDMA-Read 20 times from the guest');
      const before = counters(guest.lines, 'before');
      const after = counters(guest.lines, 'after');
      const shown = [
        'duplicate_request',
        'out_of_seq_request',
        'rcvd_seq_err',
        'completer_retry_err',
        'retry_exceeded_err',
        'rcvd_rnr_err',
        'send_rnr_err',
        'rcvd_pkts',
        'sent_pkts',
      ];
      console.log('---- L: guest rxe0 hw_counters (before → after) ----');
      for (const k of shown) if (after.has(k)) console.log(`[guest] ${k}: ${before.get(k) ?? 0} → ${after.get(k)}`);
      if ((after.get('retry_exceeded_err') ?? 0) > (before.get('retry_exceeded_err') ?? 0)) failures.push('L: rxe exhausted its retries');
      // softrdma's own counters for the same runs (softrdma stat, rxe's names), beside rxe's.
      console.log('---- L: softrdma stat --json, softroce0, summed over the four softrdma processes | rxe0 (after - before) ----');
      for (const k of shown) console.log(`[both ] ${k}: softrdma ${ours.get(k) ?? 0} | rxe ${(after.get(k) ?? 0) - (before.get(k) ?? 0)}`);
      // The same recovery on both ends, counted under the same names: retransmissions started by
      // each requester, sequence NAKs each requester received, sequence errors and duplicates each
      // responder saw. Both must rise (the values differ: each side lost different packets).
      for (const [k, what] of [
        ['completer_retry_err', 'retransmissions (the requester went back)'],
        ['rcvd_seq_err', 'PSN sequence error NAKs received by the requester'],
        ['out_of_seq_request', 'sequence errors seen by the responder'],
        ['duplicate_request', 'duplicate requests seen by the responder'],
      ] as const) {
        const theirs = (after.get(k) ?? 0) - (before.get(k) ?? 0);
        console.log(`[rose ] ${k} (${what}): softrdma +${ours.get(k) ?? 0}, rxe +${theirs}`);
        if (!((ours.get(k) ?? 0) > 0)) failures.push(`L: softrdma's ${k} (${what}) did not rise under 2 % loss`);
        if (!(theirs > 0)) failures.push(`L: rxe's ${k} (${what}) did not rise under 2 % loss`);
      }
      checkWire('L', pcap, failures);
      assert.deepEqual(failures, [], `L: ${failures.join('; ')}`);
    });
  },
);

/**
 * retry_cnt 7 as rxe reads it (never used up; docs/spec-notes.md "retry_cnt 7"): perftest sets
 * 7, and a perftest run on rxe survives any outage. Here softrdma is the requester: `softrdma perf
 * write -D 8` (retry_cnt 7, Local ACK Timeout 14: 67 ms) against the guest's `ib_write_bw -D 8`,
 * and 3 s into the run every RoCEv2 datagram is dropped both ways for 2 s — about 30 timeouts,
 * where a count of 7 fails at the eighth (IBV_WC_RETRY_EXC_ERR). The run must end normally.
 */
test(
  'interop R7: retry_cnt 7 against rxe: a 2 s outage (all RoCEv2 datagrams dropped both ways) in the middle of softrdma perf write -D 8 → guest ib_write_bw -D 8; the transfer resumes',
  opts,
  async () => {
    if ('skip' in h) return;
    assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
    await retryOnce('R7', async () => {
      const pcap = pcapDir('R7');
      const restore = await idZero(h.dir);
      const args = ['-x', '1', '-s', '65536', '-D', '8', '-F'];
      const script = [PROLOGUE, `server R7 ib_write_bw -d rxe0 ${args.join(' ')} -p 18810`].join('\n');
      const guest = bootGuest(h.dir, script, 400);
      const statDir = pcapDir('R7-stat');
      const stat = watchStat(statDir);
      let ours = new Map<string, number>();
      let res: { rc: number; lines: string[] } = { rc: -1, lines: [] };
      let guestRc = -1;
      let dropped = '';
      let outage: Promise<void> = Promise.resolve();
      try {
        assert.ok(await guest.wait(ready, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
        assert.ok(await guest.wait(/^START R7$/, 120_000), 'R7: the guest did not start its server');
        const client = hostClient(
          h.dir,
          ['perf', 'write', '-d', 'softroce0', ...args, '-p', '18810', GUEST_IP],
          { ...ENV, SOFTRDMA_PCAP: pcap, SOFTRDMA_STATS_DIR: statDir },
          150_000,
        );
        outage = (async () => {
          await sleep(3000);
          const err = nft(
            h.dir,
            'table ip kpdown {\n  chain out { type filter hook output priority 0; udp dport 4791 counter drop; }\n  chain in { type filter hook input priority 0; udp dport 4791 counter drop; }\n}',
          );
          assert.equal(err, null, `nft: ${err}`);
          await sleep(2000);
          dropped = nftList(h.dir, 'kpdown');
          void nft(h.dir, 'delete table ip kpdown');
        })();
        res = await client;
        await outage;
        const t = setTimeout(() => kill(guest), 60_000);
        guestRc = await guest.done;
        clearTimeout(t);
      } finally {
        kill(guest);
        await outage.catch(() => {});
        void nft(h.dir, 'delete table ip kpdown');
        ours = stat.stop();
        restore();
        show(`guest (run-guest.sh rc ${guestRc})`, 'guest', guest.lines.filter((l) => !/^(BEGIN|END|START|CNT) /.test(l)).slice(0, 20));
      }
      const failures: string[] = [];
      const g = section(guest.lines, 'R7');
      const drops = [...dropped.matchAll(/counter packets (\d+)/g)].map((m) => Number(m[1]));
      const row = /^\s*65536\s+\d+\s+[\d.]+\s+[\d.]+/;
      console.log(
        `---- R7: nftables dropped ${drops[0] ?? '?'} datagrams host→guest and ${drops[1] ?? '?'} guest→host during the outage ----`,
      );
      for (const l of res.lines.filter((l) => row.test(l))) console.log(`[host ] ${l}`);
      for (const l of g.lines.filter((l) => row.test(l))) console.log(`[guest] ${l}`);
      const timeouts = ours.get('local_ack_timeout_err') ?? 0;
      console.log(
        `---- R7: softrdma stat: local_ack_timeout_err ${timeouts}, completer_retry_err ${ours.get('completer_retry_err') ?? 0}, retry_exceeded_err ${ours.get('retry_exceeded_err') ?? 0} ----`,
      );
      if (res.rc !== 0 || !res.lines.some((l) => row.test(l))) show('softrdma perf write output', 'host', res.lines.slice(0, 60));
      if (g.rc !== 0) show('guest ib_write_bw output', 'guest', g.lines.slice(0, 60));
      if (!(drops[0]! > 0)) failures.push(`R7: the outage dropped nothing from the host (${drops.join(', ')}): the run was over before it`);
      if (res.rc !== 0) failures.push(`R7: softrdma perf write exit status ${res.rc}`);
      if (!res.lines.some((l) => row.test(l))) failures.push('R7: softrdma printed no result row');
      if (g.rc !== 0) failures.push(`R7: guest ib_write_bw exit status ${g.rc}`);
      if (!(timeouts > 8)) failures.push(`R7: only ${timeouts} Local ACK Timeouts: the outage did not outlast a count of 7`);
      if ((ours.get('retry_exceeded_err') ?? 0) !== 0) failures.push('R7: softrdma ran out of retries');
      checkWire('R7', pcap, failures);
      assert.deepEqual(failures, [], `R7: ${failures.join('; ')}`);
    });
  },
);

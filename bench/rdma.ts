/**
 * Loopback RDMA beside raw Node TCP, each side in its own process, in one run: ratios against
 * a baseline measured minutes apart on a shared machine would mean nothing, so every round
 * runs the baseline and the RDMA figures back to back and each figure is the median of the
 * rounds (noise then hits all of them alike).
 *
 * RDMA Write comes from bench/peer.ts (the engine driven directly); Read, Send and the Send
 * latencies come from the `softrdma perf` CLI in loopback mode (--json), i.e. what a user sees.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type BenchRow, type BenchSection, GOALS, median, quick, ratioRow } from './harness.js';

const peer = fileURLToPath(new URL('./peer.js', import.meta.url));
const cli = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const ROUNDS = 3;

/** Runs `node script ...args`; resolves its stdout once it exits 0 (`PORT n` as soon as seen). */
export function start(
  script: string,
  args: string[],
  env?: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
): { port: Promise<number>; result: Promise<string>; kill: () => void } {
  const p = spawn(process.execPath, [...nodeArgs, script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: env ? { ...process.env, ...env } : process.env,
  });
  let out = '';
  let resolvePort: (n: number) => void = () => {};
  const port = new Promise<number>((r) => (resolvePort = r));
  p.stdout.on('data', (d: Buffer) => {
    out += d;
    const m = /PORT (\d+)/.exec(out);
    if (m) resolvePort(Number(m[1]));
  });
  const result = new Promise<string>((resolve, reject) =>
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}`)))),
  );
  return { port, result, kill: () => p.kill('SIGKILL') };
}

/** A peer.ts server/client pair; returns the client's JSON result line. */
export async function pair<T>(kind: string, clientArgs: string[], serverArgs: string[] = []): Promise<T> {
  const srv = start(peer, [`${kind}-server`, ...serverArgs]);
  const port = await srv.port;
  const out = await start(peer, [`${kind}-client`, String(port), ...clientArgs]).result;
  await srv.result;
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}

type Passes = { mbps: number; cold_mbps: number };
/** Raw TCP, two passes on one connection: `mbps` steady state, `cold_mbps` the first pass. */
export const tcpPasses = async (size: number, total: number) => pair<Passes>('raw', [String(size), String(total), 'nocrc']);
/** The first (cold) pass of raw TCP: what a fresh process and connection get. */
export const tcpMBps = async (size: number, total: number) => (await tcpPasses(size, total)).cold_mbps;
const writePasses = async (size: number, total: number, crc: boolean) =>
  pair<Passes>('rdma', [String(size), String(total), crc ? 'crc' : 'nocrc']);

/**
 * One `softrdma perf ... --json` loopback run (it spawns its own server process); its result row.
 * `crc`: SOFTRDMA_MPA=crc=require on both ends. perf reports bandwidth as perftest does, in
 * MiB/s (its "MB/sec" is 2^20 octets per second); `mbps` gives it in 10^6 octets per second,
 * `env`: more environment for both processes (`SOFTRDMA_NATIVE=0`: the RoCEv2 dgram path);
 * the unit of every other bandwidth row here, so ratios compare like with like.
 */
export async function perf(args: string, crc = false, env?: NodeJS.ProcessEnv): Promise<Record<string, number> & { mbps: number }> {
  const out = await start(
    cli,
    ['perf', ...args.split(' '), '--json'],
    crc || env ? { ...(crc && { SOFTRDMA_MPA: 'crc=require' }), ...env } : undefined,
  ).result;
  const r = JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
  return { ...r, mbps: ((r.bw_average ?? Number.NaN) * MIB) / 1e6 };
}

/** perftest's (and ucx_perftest's) "MB": 2^20 octets. */
export const MIB = 0x100000;

/** Collects each named measurement over `ROUNDS` interleaved rounds; returns the medians. */
export async function rounds(runs: Record<string, () => Promise<number>>, n = ROUNDS): Promise<Record<string, number>> {
  const got: Record<string, number[]> = {};
  for (let i = 0; i < n; i++) for (const [k, f] of Object.entries(runs)) (got[k] ??= []).push(await f());
  return Object.fromEntries(Object.entries(got).map(([k, xs]) => [k, median(xs)]));
}

/**
 * The performance targets, as ratios measured in the same run:
 * - `large`: RDMA Write, Read and Send at 1 MiB, warm, at least 0.9× raw Node TCP;
 * - `stream4k`: Write and Send at 4 KiB at least 0.5× raw Node TCP's stream figure;
 * - `cold`: the first pass of a fresh process at least 0.8× the warm figure, at every size;
 * - `crc`: CRC on at least 0.85× CRC off at 64 KiB and 1 MiB;
 * - `latBlock`: the 8 B Send round trip, blocking, at most 1.2× raw TCP ping-pong;
 * - `latBusy`: busy-polling (and ib_write_lat's memory polling) at most 1.5× raw TCP ping-pong
 *   with a spinning event loop.
 * The rows the fast-path table lists carry their `GOALS` entry instead (same figures).
 */
export const TARGET = {
  large: { min: 0.9 },
  stream4k: { min: 0.5 },
  cold: { min: 0.8 },
  crc: { min: 0.85 },
  latBlock: GOALS.rttBlock,
  latBusy: GOALS.rttBusy,
};

const KiB = 1024;
const sizeLabel = (n: number): string => (n >= 1 << 20 ? `${n >> 20} MiB` : n >= KiB ? `${n / KiB} KiB` : `${n} B`);

/**
 * Steady state and cold start: each RDMA Write figure comes from two passes on one connection
 * (bench/peer.ts): the second is steady state (V8 has compiled the hot paths, the kernel has
 * grown the TCP windows — raw TCP alike), the first is what a fresh process sees ("cold").
 * Read and Send are `perf --perform_warm_up` (steady state). The size sweep below is all cold.
 */
export const rdmaSection: BenchSection = {
  name: 'loopback bandwidth, steady state and cold: RDMA Write/Read/Send vs raw Node TCP (two processes)',
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    for (const size of [4 * KiB, 64 * KiB, 1 << 20]) {
      const label = sizeLabel(size);
      // About a second of traffic per figure at each size's rate.
      const total = (quick ? 1 : 4) * (size === 4 * KiB ? 64 << 20 : 256 << 20);
      const n = `-s ${size} -n ${total / size} --perform_warm_up`;
      const cold: Record<string, number> = {};
      const both = (k: string, f: () => Promise<Passes>) => async () => {
        const r = await f();
        cold[k] = r.cold_mbps;
        return r.mbps;
      };
      const withCrc = size !== 4 * KiB;
      // --quick: one round (its ratios wobble more; the full run takes medians of 3).
      const m = await rounds(
        {
          raw: both('raw', () => tcpPasses(size, total)),
          write: both('write', () => writePasses(size, total, false)),
          ...(withCrc ? { writeCrc: both('writeCrc', () => writePasses(size, total, true)) } : {}),
          read: async () => (await perf(`read --bw ${n}`)).mbps,
          send: async () => (await perf(`send --bw ${n}`)).mbps,
        },
        quick ? 1 : ROUNDS,
      );
      const vs = `raw TCP ${label}`;
      const mib = size === 1 << 20;
      const goal = size === 4 * KiB ? TARGET.stream4k : undefined;
      rows.push({ name: `raw TCP ${label} writes`, value: m.raw!, unit: 'MB/s' });
      rows.push(ratioRow(`RDMA Write ${label}, CRC off`, m.write!, 'MB/s', m.raw!, vs, mib ? GOALS.write1m : goal));
      rows.push(
        ratioRow(`RDMA Read ${label} (perf read --bw --perform_warm_up)`, m.read!, 'MB/s', m.raw!, vs, mib ? GOALS.read1m : undefined),
      );
      rows.push(ratioRow(`Send ${label} (perf send --bw --perform_warm_up)`, m.send!, 'MB/s', m.raw!, vs, mib ? GOALS.send1m : goal));
      if (m.writeCrc !== undefined) {
        rows.push(ratioRow(`RDMA Write ${label}, CRC on`, m.writeCrc, 'MB/s', m.raw!, vs));
        rows.push(
          ratioRow(
            `RDMA Write ${label}, CRC on vs CRC off`,
            m.writeCrc,
            'MB/s',
            m.write!,
            'CRC off',
            mib ? GOALS.crc1m : size === 64 * KiB ? GOALS.crc64k : TARGET.crc,
          ),
        );
      }
      // The first passes of the same runs (last round's) against their own second passes.
      rows.push({ name: `cold: raw TCP ${label} writes, first pass`, value: cold.raw!, unit: 'MB/s' });
      rows.push(
        ratioRow(
          `cold: RDMA Write ${label}, CRC off, first pass vs warm`,
          cold.write!,
          'MB/s',
          m.write!,
          `RDMA Write ${label} warm`,
          mib ? GOALS.cold1m : TARGET.cold,
        ),
      );
      rows.push(
        ratioRow(`cold: RDMA Write ${label}, CRC off, first pass vs raw TCP cold`, cold.write!, 'MB/s', cold.raw!, `raw TCP ${label} cold`),
      );
    }
    return rows;
  },
};

export const latencySection: BenchSection = {
  name: 'loopback latency: Send and RDMA Write round trips vs raw Node TCP ping-pong, blocking and spinning (two processes)',
  async run(): Promise<BenchRow[]> {
    const iters = quick ? 3000 : 20000;
    const rows: BenchRow[] = [];
    for (const size of [8, 64, 4096]) {
      const label = sizeLabel(size);
      // CRC on for every size in the full run; --quick keeps it for 8 B only.
      const crc = !quick || size === 8;
      // perf's t_typical is perftest's: the median of half round trips; doubled to an RTT here.
      const lat = (verb: string, busy: boolean, c: boolean) => async () =>
        2 * (await perf(`${verb} --lat -s ${size} -n ${iters}${busy ? ' --busy-poll' : ''}`, c)).t_typical!;
      const rawPp = (spin: boolean) => async () =>
        (await pair<{ rtt_us: number }>('raw-pp', [String(iters), String(size), ...(spin ? ['spin'] : [])], spin ? ['spin'] : [])).rtt_us;
      const m = await rounds(
        {
          raw: rawPp(false),
          rawSpin: rawPp(true),
          block: lat('send', false, false),
          busy: lat('send', true, false),
          // ib_write_lat watches memory for the peer's Write: it always polls.
          write: lat('write', false, false),
          ...(crc ? { blockCrc: lat('send', false, true), busyCrc: lat('send', true, true) } : {}),
        },
        quick ? 1 : ROUNDS,
      );
      const vs = `raw TCP ping-pong ${label}`;
      const vsSpin = `raw TCP spinning ${label}`;
      const first = size === 8;
      rows.push({ name: `raw TCP ${label} ping-pong RTT (median, data events)`, value: m.raw!, unit: 'µs' });
      rows.push({ name: `raw TCP ${label} ping-pong RTT, spinning event loop (median)`, value: m.rawSpin!, unit: 'µs' });
      rows.push(
        ratioRow(
          `Send ${label} RTT, blocking (2 × perf send --lat t_typical)`,
          m.block!,
          'µs',
          m.raw!,
          vs,
          first ? TARGET.latBlock : undefined,
        ),
      );
      rows.push(
        ratioRow(`Send ${label} RTT, busy-poll (--busy-poll)`, m.busy!, 'µs', m.rawSpin!, vsSpin, first ? TARGET.latBusy : undefined),
      );
      rows.push(
        ratioRow(
          `RDMA Write ${label} RTT (2 × perf write --lat t_typical, memory-polled)`,
          m.write!,
          'µs',
          m.rawSpin!,
          vsSpin,
          first ? GOALS.writeLat : undefined,
        ),
      );
      if (m.blockCrc !== undefined) rows.push(ratioRow(`Send ${label} RTT, blocking, CRC on`, m.blockCrc, 'µs', m.raw!, vs));
      if (m.busyCrc !== undefined) rows.push(ratioRow(`Send ${label} RTT, busy-poll, CRC on`, m.busyCrc, 'µs', m.rawSpin!, vsSpin));
    }
    return rows;
  },
};

/**
 * Minimal benchmark harness shared by the bench sections: time a function for a fixed wall
 * time after a warm-up and report throughput. Numbers are informational only (no assertions);
 * the targets are ratios (a shared machine makes absolute figures meaningless), so a
 * row can carry its ratio against a baseline measured in the same run and whether it meets
 * the target.
 */
import { performance } from 'node:perf_hooks';

/** `--quick`: fewer bytes and iterations, so the whole suite finishes in under a minute. */
export const quick = process.argv.includes('--quick');

/** A goal for a ratio: at least `min` (throughput) or at most `max` (latency). */
export interface Target {
  min?: number;
  max?: number;
}

/**
 * One row of the fast-path table that `npm run bench` prints at its end: a figure with its
 * target, measured against a baseline of the same run. `absolute`: the target bounds the value
 * itself (in the row's unit), not the ratio. `roce`: the figure is measured on each RoCEv2
 * datagram layer (the native one and the `dgram` fallback).
 */
export interface Goal extends Target {
  id: string;
  figure: string;
  absolute?: boolean;
  roce?: boolean;
}

const goal = (id: string, figure: string, t: Target & { absolute?: boolean; roce?: boolean }): Goal => ({ id, figure, ...t });

/**
 * The fast-path targets, in the order of the table printed at the end of a run. Each section
 * tags the rows that measure one of them (`ratioRow(..., GOALS.x)`), or a `skippedRow` that says
 * why it cannot measure it here; a goal with neither is printed as not measured, with the reason.
 */
export const GOALS = {
  roceMtu4096: goal('roceMtu4096', 'RoCEv2 RDMA Write 64 KiB, path MTU 4096, vs raw dgram 4112 B', { min: 1.0, roce: true }),
  roceMtu1024: goal('roceMtu1024', 'RoCEv2 RDMA Write 64 KiB, path MTU 1024, vs raw dgram 1040 B', { min: 1.0, roce: true }),
  roceVsIwarp: goal('roceVsIwarp', 'RoCEv2 RDMA Write 64 KiB, MTU 4096, vs iWARP RDMA Write 64 KiB', { min: 0.6, roce: true }),
  roceRtt: goal('roceRtt', 'RoCEv2 Send 8 B round trip vs raw Node UDP ping-pong', { max: 1.4, roce: true }),
  read1m: goal('read1m', 'RDMA Read 1 MiB vs raw Node TCP', { min: 0.9 }),
  send1m: goal('send1m', 'Send 1 MiB vs raw Node TCP', { min: 0.9 }),
  write1m: goal('write1m', 'RDMA Write 1 MiB vs raw Node TCP', { min: 0.9 }),
  rttBlock: goal('rttBlock', 'Send 8 B round trip, blocking, vs raw TCP ping-pong', { max: 1.2 }),
  rttBusy: goal('rttBusy', 'Send 8 B round trip, busy-polling, vs spinning raw TCP loop', { max: 1.5 }),
  writeLat: goal('writeLat', 'RDMA Write 8 B latency (memory-polled) vs spinning raw TCP loop', { max: 1.5 }),
  ucxWrite1k: goal('ucxWrite1k', 'RDMA Write 1 KiB vs best of UCX tag_bw/ucp_put_bw over tcp', { min: 1.0 }),
  ucxSend1k: goal('ucxSend1k', 'Send 1 KiB vs best of UCX tag_bw/ucp_put_bw over tcp', { min: 1.0 }),
  ucxWrite4k: goal('ucxWrite4k', 'RDMA Write 4 KiB vs best of UCX tag_bw/ucp_put_bw over tcp', { min: 1.0 }),
  ucxSend4k: goal('ucxSend4k', 'Send 4 KiB vs best of UCX tag_bw/ucp_put_bw over tcp', { min: 1.0 }),
  ucxSend64: goal('ucxSend64', 'Send 64 B vs UCX tag_bw over tcp', { min: 1.0 }),
  crc64k: goal('crc64k', 'RDMA Write 64 KiB, CRC on vs CRC off', { min: 0.85 }),
  crc1m: goal('crc1m', 'RDMA Write 1 MiB, CRC on vs CRC off', { min: 0.85 }),
  cold1m: goal('cold1m', 'cold (first pass of a fresh process) vs warm, RDMA Write 1 MiB', { min: 0.8 }),
  qpMem: goal('qpMem', 'RSS per idle connected QP (KiB)', { max: 12, absolute: true }),
} satisfies Record<string, Goal>;

/** One reported measurement. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** `value / baseline`, when the row is compared with a baseline from the same run. */
  ratio?: number;
  /** The baseline's value (same unit), from the same run. */
  base?: number;
  /** What the ratio is taken against, e.g. "raw TCP 64 KiB". */
  vs?: string;
  /** The id of the fast-path goal (`GOALS`) this row measures. */
  goal?: string;
  /** The RoCEv2 datagram layer the row ran on, for a RoCE goal: "native" or "fallback". */
  layer?: string;
  /** Why the row's figure could not be measured here (its value is then NaN). */
  skipped?: string;
  /** The goal for `ratio`, printed as "≥0.90" / "≤1.20". */
  target?: string;
  met?: boolean;
}

/** A named group of measurements; `bench/main.ts` runs every registered section in order. */
export interface BenchSection {
  name: string;
  run(): Promise<BenchRow[]> | BenchRow[];
}

/**
 * The row for `value` compared with `base` (same unit), with the target's verdict if any. A
 * `Goal` also tags the row with its id (and `layer`, for a RoCE goal); an absolute goal judges
 * `value` itself.
 */
export function ratioRow(
  name: string,
  value: number,
  unit: string,
  base: number,
  vs: string,
  target?: Target | Goal,
  layer?: string,
): BenchRow {
  const ratio = value / base;
  const row: BenchRow = { name, value, unit, ratio, base, vs };
  const g = target && 'id' in target ? target : undefined;
  const judged = g?.absolute ? value : ratio;
  const suffix = g?.absolute ? ` ${unit}` : '';
  if (target?.min !== undefined) Object.assign(row, { target: `≥${target.min.toFixed(2)}${suffix}`, met: judged >= target.min });
  if (target?.max !== undefined) Object.assign(row, { target: `≤${target.max.toFixed(2)}${suffix}`, met: judged <= target.max });
  if (g) row.goal = g.id;
  if (layer !== undefined) row.layer = layer;
  return row;
}

/** A row that says why `goal` could not be measured in this run (no figure, no verdict). */
export function skippedRow(goal: Goal, why: string, layer?: string): BenchRow {
  const row: BenchRow = { name: `${goal.figure}: not measured (${why})`, value: Number.NaN, unit: '', goal: goal.id, skipped: why };
  if (layer !== undefined) row.layer = layer;
  return row;
}

/** Median (upper median for an even count): robust against the odd run a noisy neighbour spoils. */
export function median(xs: readonly number[]): number {
  return [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
}

/**
 * Calls `fn` repeatedly for about `ms` milliseconds (after `warmupMs` of warm-up) and returns
 * the throughput in MB/s (10^6 octets per second), `bytesPerCall` being the work of one call.
 */
export function throughputMBps(fn: () => void, bytesPerCall: number, ms = quick ? 800 : 1500, warmupMs = quick ? 200 : 300): number {
  const until = (deadline: number): number => {
    let calls = 0;
    while (performance.now() < deadline) {
      fn();
      calls++;
    }
    return calls;
  };
  until(performance.now() + warmupMs);
  const t0 = performance.now();
  const calls = until(t0 + ms);
  const elapsed = (performance.now() - t0) / 1000;
  return (calls * bytesPerCall) / elapsed / 1e6;
}

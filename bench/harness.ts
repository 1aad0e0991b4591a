/**
 * Minimal benchmark harness shared by the bench sections: time a function for a fixed wall
 * time after a warm-up and report throughput. Numbers are informational only (no assertions).
 */
import { performance } from 'node:perf_hooks';

/** One reported measurement. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
}

/** A named group of measurements; `bench/main.ts` runs every registered section in order. */
export interface BenchSection {
  name: string;
  run(): Promise<BenchRow[]> | BenchRow[];
}

/**
 * Calls `fn` repeatedly for about `ms` milliseconds (after `warmupMs` of warm-up) and returns
 * the throughput in MB/s (10^6 octets per second), `bytesPerCall` being the work of one call.
 */
export function throughputMBps(fn: () => void, bytesPerCall: number, ms = 1500, warmupMs = 300): number {
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

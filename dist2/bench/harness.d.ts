/** `--quick`: fewer bytes and iterations, so the whole suite finishes in under a minute. */
export declare const quick: boolean;
/** A goal for a ratio: at least `min` (throughput) or at most `max` (latency). */
export interface Target {
    min?: number;
    max?: number;
}
/** One reported measurement. */
export interface BenchRow {
    name: string;
    value: number;
    unit: string;
    /** `value / baseline`, when the row is compared with a baseline from the same run. */
    ratio?: number;
    /** What the ratio is taken against, e.g. "raw TCP 64 KiB". */
    vs?: string;
    /** The goal for `ratio`, printed as "≥0.90" / "≤1.20". */
    target?: string;
    met?: boolean;
}
/** A named group of measurements; `bench/main.ts` runs every registered section in order. */
export interface BenchSection {
    name: string;
    run(): Promise<BenchRow[]> | BenchRow[];
}
/** The row for `value` compared with `base` (same unit), with the target's verdict if any. */
export declare function ratioRow(name: string, value: number, unit: string, base: number, vs: string, target?: Target): BenchRow;
/** Median (upper median for an even count): robust against the odd run a noisy neighbour spoils. */
export declare function median(xs: readonly number[]): number;
/**
 * Calls `fn` repeatedly for about `ms` milliseconds (after `warmupMs` of warm-up) and returns
 * the throughput in MB/s (10^6 octets per second), `bytesPerCall` being the work of one call.
 */
export declare function throughputMBps(fn: () => void, bytesPerCall: number, ms?: number, warmupMs?: number): number;

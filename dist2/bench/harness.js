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
/** The row for `value` compared with `base` (same unit), with the target's verdict if any. */
export function ratioRow(name, value, unit, base, vs, target) {
    const ratio = value / base;
    const row = { name, value, unit, ratio, vs };
    if (target?.min !== undefined)
        Object.assign(row, { target: `≥${target.min.toFixed(2)}`, met: ratio >= target.min });
    if (target?.max !== undefined)
        Object.assign(row, { target: `≤${target.max.toFixed(2)}`, met: ratio <= target.max });
    return row;
}
/** Median (upper median for an even count): robust against the odd run a noisy neighbour spoils. */
export function median(xs) {
    return [...xs].sort((x, y) => x - y)[xs.length >> 1];
}
/**
 * Calls `fn` repeatedly for about `ms` milliseconds (after `warmupMs` of warm-up) and returns
 * the throughput in MB/s (10^6 octets per second), `bytesPerCall` being the work of one call.
 */
export function throughputMBps(fn, bytesPerCall, ms = quick ? 800 : 1500, warmupMs = quick ? 200 : 300) {
    const until = (deadline) => {
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
//# sourceMappingURL=harness.js.map
/**
 * `softrdma perf`: result computation and the perftest output formats (docs/interop-protocols.md
 * §2.10). Pure functions, so that the numbers and the table layout can be tested on their own.
 *
 * Times are `performance.now()` milliseconds where perftest has CPU cycles; everything else
 * (MB = 2^20 bytes, Gb = 10^9 bits, the peak search, the latency statistics with their tail
 * cut and percentile indices) is perftest 4.5's `print_report_bw` / `print_report_lat`.
 */
/** `RESULT_LINE`: 87 dashes. */
export const RESULT_LINE = `${'-'.repeat(87)}\n`;
export const BW_HEADER_MB = ' #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n';
export const BW_HEADER_GB = ' #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n';
export const LAT_HEADER = ' #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n';
export const LAT_DUR_HEADER = ' #bytes        #iterations       t_avg[usec]    tps average\n';
/** Samples perftest drops from the top of the sorted latencies (`LAT_MEASURE_TAIL`). */
const LAT_MEASURE_TAIL = 2;
/** `%-Nx`: left-justified in `width` columns. */
function left(s, width) {
    return s.padEnd(width);
}
/** `%.Nf` (finite; C prints inf/nan, we print them as C does). */
function fixed(v, digits) {
    if (Number.isNaN(v))
        return '-nan';
    if (!Number.isFinite(v))
        return v > 0 ? 'inf' : '-inf';
    return v.toFixed(digits);
}
/**
 * The units of `format_factor` in `print_report_bw`: MB/s divides bytes/s by 2^20, Gb/s by
 * 125 000 000 (10^9 bits).
 */
export function formatFactor(gbits) {
    return gbits ? 125_000_000 : 0x100000;
}
/** `ROUND_UP(a, b)`: the smallest multiple of b that is ≥ a. */
function roundUp(a, b) {
    return Math.ceil(a / b) * b;
}
/**
 * `print_report_bw` for iteration mode: `n` operations (all QPs), `tposted[i]` when operation i
 * was posted, `tcompleted[j]` when the completion counting operation j was polled (only every
 * `cqMod`-th index and the last are set). The peak is size over the smallest per-message time
 * between any post and a later completion; the average spans the first post to the last
 * completion.
 */
export function bwReport(size, n, tposted, tcompleted, cqMod, noPeak, gbits) {
    const ff = formatFactor(gbits);
    let bwPeak = 0;
    if (!noPeak) {
        let opt = Number.POSITIVE_INFINITY;
        for (let i = 0; i < n; i++) {
            const tp = tposted[i];
            for (let j = roundUp(i + 1, cqMod) - 1; j < n; j += cqMod) {
                const t = (tcompleted[j] - tp) / (j - i + 1);
                if (t < opt)
                    opt = t;
            }
            if (n % cqMod) {
                const j = n - 1;
                const t = (tcompleted[j] - tp) / (j - i + 1);
                if (t < opt)
                    opt = t;
            }
        }
        bwPeak = opt > 0 && Number.isFinite(opt) ? size / (opt / 1000) / ff : 0;
    }
    const last = noPeak ? 0 : n - 1;
    return bwAverage(size, n, tposted[0], tcompleted[last], bwPeak, gbits);
}
/** The average figures of a BW row for `n` operations of `size` bytes between `t0` and `t1` (ms). */
export function bwAverage(size, n, t0, t1, bwPeak, gbits) {
    const s = (t1 - t0) / 1000;
    return {
        size,
        iters: n,
        bwPeak,
        bwAvg: (size * n) / s / formatFactor(gbits),
        msgRate: n / s / 1e6,
    };
}
/** One table row, `REPORT_FMT` (or `REPORT_FMT_EXT` for a Gb/s average below 0.1). */
export function formatBwRow(r, gbits) {
    if (gbits && r.bwAvg < 0.1) {
        return ` ${left(String(r.size), 7)}    ${r.iters}           ${left(fixed(r.bwPeak, 6), 7)}            ${left(fixed(r.bwAvg, 6), 7)}            ${left(fixed(r.msgRate, 6), 7)}\n`;
    }
    return ` ${left(String(r.size), 7)}    ${left(String(r.iters), 10)}       ${left(fixed(r.bwPeak, 2), 7)}            ${left(fixed(r.bwAvg, 2), 7)}\t\t   ${left(fixed(r.msgRate, 6), 7)}\n`;
}
/**
 * `print_report_lat`: `iters` post times (ms) give `iters − 1` round-trip samples; sorted, the
 * two largest dropped; values in µs divided by `rttFactor` (2 for write/send: half a round
 * trip; 1 for read). The median of an even count is the mean of the middle two. perftest's
 * stdev truncates each deviation to an integer before squaring; `tStdev` keeps that quirk,
 * `tStdevExact` does not.
 */
export function latReport(size, iters, tposted, rttFactor) {
    const total = iters - 1;
    const delta = new Float64Array(total);
    for (let i = 0; i < total; i++)
        delta[i] = ((tposted[i + 1] - tposted[i]) * 1000) / rttFactor;
    delta.sort();
    const cnt = Math.max(1, total - LAT_MEASURE_TAIL);
    const median = (cnt - 1) % 2 ? (delta[cnt >> 1] + delta[(cnt >> 1) - 1]) / 2 : delta[cnt >> 1];
    let sum = 0;
    for (let i = 0; i < cnt; i++)
        sum += delta[i];
    const avg = sum / cnt;
    let quirk = 0;
    let exact = 0;
    for (let i = 0; i < cnt; i++) {
        const d = avg - delta[i];
        const t = Math.trunc(d);
        quirk += Math.trunc(t * t);
        exact += d * d;
    }
    const at = (k) => delta[Math.min(k, total - 1)];
    return {
        size,
        iters,
        tMin: delta[0],
        tMax: at(cnt),
        tTypical: median,
        tAvg: avg,
        tStdev: Math.sqrt(quirk / cnt),
        tStdevExact: Math.sqrt(exact / cnt),
        p99: at(Math.ceil(cnt * 0.99)),
        p999: at(Math.ceil(cnt * 0.999)),
    };
}
/** `REPORT_FMT_LAT`. */
export function formatLatRow(r) {
    const f = (v) => left(fixed(v, 2), 7);
    return ` ${left(String(r.size), 7)} ${r.iters}          ${f(r.tMin)}        ${f(r.tMax)}      ${f(r.tTypical)}  \t       ${f(r.tAvg)}     \t${f(r.tStdev)}\t\t${f(r.p99)} \t\t${f(r.p999)}\n`;
}
/** `print_report_lat_duration`: `iters` operations between `t0` and `t1` (ms). */
export function latDurReport(size, iters, t0, t1, rttFactor) {
    const us = (t1 - t0) * 1000;
    return { size, iters, tAvg: us / rttFactor / iters, tps: iters / (us / 1e6) };
}
/** `REPORT_FMT_LAT_DUR`. */
export function formatLatDurRow(r) {
    return ` ${left(String(r.size), 7)}       ${r.iters}            ${left(fixed(r.tAvg, 2), 7)}        ${left(fixed(r.tps, 2), 7)}\n`;
}
/** `%#0Nx`: "0x" and zero padding to `width` columns in total; zero prints without "0x". */
export function hexAlt(v, width) {
    const h = v.toString(16);
    if (v === 0 || v === 0n)
        return '0'.padStart(width, '0');
    return `0x${h.padStart(width - 2, '0')}`;
}
//# sourceMappingURL=perf-report.js.map
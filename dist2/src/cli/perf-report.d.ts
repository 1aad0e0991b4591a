/**
 * `softrdma perf`: result computation and the perftest output formats (docs/interop-protocols.md
 * §2.10). Pure functions, so that the numbers and the table layout can be tested on their own.
 *
 * Times are `performance.now()` milliseconds where perftest has CPU cycles; everything else
 * (MB = 2^20 bytes, Gb = 10^9 bits, the peak search, the latency statistics with their tail
 * cut and percentile indices) is perftest 4.5's `print_report_bw` / `print_report_lat`.
 */
/** `RESULT_LINE`: 87 dashes. */
export declare const RESULT_LINE: string;
export declare const BW_HEADER_MB = " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n";
export declare const BW_HEADER_GB = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n";
export declare const LAT_HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n";
export declare const LAT_DUR_HEADER = " #bytes        #iterations       t_avg[usec]    tps average\n";
/** One BW row (`struct bw_report_data`, the fields that are printed and exchanged). */
export interface BwReport {
    size: number;
    iters: number;
    bwPeak: number;
    bwAvg: number;
    msgRate: number;
}
/** One latency row. `tStdevExact` is the plain standard deviation (not printed by perftest). */
export interface LatReport {
    size: number;
    iters: number;
    tMin: number;
    tMax: number;
    tTypical: number;
    tAvg: number;
    tStdev: number;
    tStdevExact: number;
    p99: number;
    p999: number;
}
/** One latency row in duration mode. */
export interface LatDurReport {
    size: number;
    iters: number;
    tAvg: number;
    tps: number;
}
/**
 * The units of `format_factor` in `print_report_bw`: MB/s divides bytes/s by 2^20, Gb/s by
 * 125 000 000 (10^9 bits).
 */
export declare function formatFactor(gbits: boolean): number;
/**
 * `print_report_bw` for iteration mode: `n` operations (all QPs), `tposted[i]` when operation i
 * was posted, `tcompleted[j]` when the completion counting operation j was polled (only every
 * `cqMod`-th index and the last are set). The peak is size over the smallest per-message time
 * between any post and a later completion; the average spans the first post to the last
 * completion.
 */
export declare function bwReport(size: number, n: number, tposted: Float64Array, tcompleted: Float64Array, cqMod: number, noPeak: boolean, gbits: boolean): BwReport;
/** The average figures of a BW row for `n` operations of `size` bytes between `t0` and `t1` (ms). */
export declare function bwAverage(size: number, n: number, t0: number, t1: number, bwPeak: number, gbits: boolean): BwReport;
/** One table row, `REPORT_FMT` (or `REPORT_FMT_EXT` for a Gb/s average below 0.1). */
export declare function formatBwRow(r: BwReport, gbits: boolean): string;
/**
 * `print_report_lat`: `iters` post times (ms) give `iters − 1` round-trip samples; sorted, the
 * two largest dropped; values in µs divided by `rttFactor` (2 for write/send: half a round
 * trip; 1 for read). The median of an even count is the mean of the middle two. perftest's
 * stdev truncates each deviation to an integer before squaring; `tStdev` keeps that quirk,
 * `tStdevExact` does not.
 */
export declare function latReport(size: number, iters: number, tposted: Float64Array, rttFactor: number): LatReport;
/** `REPORT_FMT_LAT`. */
export declare function formatLatRow(r: LatReport): string;
/** `print_report_lat_duration`: `iters` operations between `t0` and `t1` (ms). */
export declare function latDurReport(size: number, iters: number, t0: number, t1: number, rttFactor: number): LatDurReport;
/** `REPORT_FMT_LAT_DUR`. */
export declare function formatLatDurRow(r: LatDurReport): string;
/** `%#0Nx`: "0x" and zero padding to `width` columns in total; zero prints without "0x". */
export declare function hexAlt(v: number | bigint, width: number): string;

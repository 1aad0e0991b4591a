import { type BenchSection } from './harness.js';
/** Runs `node script ...args`; resolves its stdout once it exits 0 (`PORT n` as soon as seen). */
export declare function start(script: string, args: string[], env?: NodeJS.ProcessEnv, nodeArgs?: string[]): {
    port: Promise<number>;
    result: Promise<string>;
    kill: () => void;
};
/** A peer.ts server/client pair; returns the client's JSON result line. */
export declare function pair<T>(kind: string, clientArgs: string[], serverArgs?: string[]): Promise<T>;
type Passes = {
    mbps: number;
    cold_mbps: number;
};
/** Raw TCP, two passes on one connection: `mbps` steady state, `cold_mbps` the first pass. */
export declare const tcpPasses: (size: number, total: number) => Promise<Passes>;
/** The first (cold) pass of raw TCP: what a fresh process and connection get. */
export declare const tcpMBps: (size: number, total: number) => Promise<number>;
/**
 * One `softrdma perf ... --json` loopback run (it spawns its own server process); its result row.
 * `crc`: SOFTRDMA_MPA=crc=require on both ends. perf reports bandwidth as perftest does, in
 * MiB/s (its "MB/sec" is 2^20 octets per second); `mbps` gives it in 10^6 octets per second,
 * the unit of every other bandwidth row here, so ratios compare like with like.
 */
export declare function perf(args: string, crc?: boolean): Promise<Record<string, number> & {
    mbps: number;
}>;
/** perftest's (and ucx_perftest's) "MB": 2^20 octets. */
export declare const MIB = 1048576;
/** Collects each named measurement over `ROUNDS` interleaved rounds; returns the medians. */
export declare function rounds(runs: Record<string, () => Promise<number>>, n?: number): Promise<Record<string, number>>;
/**
 * The performance issue's targets, as ratios measured in the same run (issue 19, "Targets"):
 * - `large`: RDMA Write, Read and Send at 1 MiB, warm, at least 0.9× raw Node TCP;
 * - `stream4k`: Write and Send at 4 KiB at least 0.5× raw Node TCP's stream figure;
 * - `cold`: the first pass of a fresh process at least 0.8× the warm figure, at every size;
 * - `crc`: CRC on at least 0.85× CRC off at 64 KiB and 1 MiB;
 * - `latBlock`: the 8 B Send round trip, blocking, at most 1.1× raw TCP ping-pong;
 * - `latBusy`: busy-polling (and ib_write_lat's memory polling) at most 1.2× raw TCP ping-pong
 *   with a spinning event loop.
 */
export declare const TARGET: {
    large: {
        min: number;
    };
    stream4k: {
        min: number;
    };
    cold: {
        min: number;
    };
    crc: {
        min: number;
    };
    latBlock: {
        max: number;
    };
    latBusy: {
        max: number;
    };
};
/**
 * Steady state and cold start: each RDMA Write figure comes from two passes on one connection
 * (bench/peer.ts): the second is steady state (V8 has compiled the hot paths, the kernel has
 * grown the TCP windows — raw TCP alike), the first is what a fresh process sees ("cold").
 * Read and Send are `perf --perform_warm_up` (steady state). The size sweep below is all cold.
 */
export declare const rdmaSection: BenchSection;
export declare const latencySection: BenchSection;
export {};

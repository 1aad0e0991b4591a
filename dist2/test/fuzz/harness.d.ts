import fc from 'fast-check';
import '../../src/roce/transport.js';
import { DECODERS, type DecoderTarget } from './decoders.js';
/** Where inputs that found a bug are kept (source tree: `test/fuzz/regressions`). */
export declare const REGRESSIONS: string;
/** Inputs: raw bytes half of the time, otherwise a seed edited, cut or spliced. */
export declare function inputArb(seeds: readonly Uint8Array[]): fc.Arbitrary<Uint8Array>;
export interface DecoderReport {
    name: string;
    runs: number;
    accepted: number;
    rejected: number;
    crashes: number;
    /** The shrunk input that crashed, if any (also written to the regressions folder). */
    counterexample: string | null;
    error: string | null;
    ms: number;
}
/** Runs one decoder on one input: 'ok', 'rejected' (its own error) or throws the foreign error. */
export declare function runDecoder(t: DecoderTarget, b: Uint8Array, bit: number): 'ok' | 'rejected';
/** Fuzzes one decoder with `runs` inputs from `seed`; a failure is kept as a regression case. */
export declare function fuzzDecoder(t: DecoderTarget, runs: number, seed: number, keep?: boolean): DecoderReport;
/** A regression case: the decoder, the input and what it threw when found. */
export interface Regression {
    target: string;
    input: string;
    bit: number;
    found: string;
}
export declare function keepRegression(target: string, b: Uint8Array, bit: number, found: string): string;
export declare function loadRegressions(): Regression[];
export { DECODERS };
/** A tiny seeded PRNG (mulberry32) for the stream fuzzers. */
export declare class Rng {
    #private;
    constructor(seed: number);
    u32(): number;
    int(n: number): number;
    bytes(n: number): Uint8Array;
}
export interface StreamReport {
    transport: 'iwarp' | 'rocev2';
    streams: number;
    units: number;
    /** Exceptions out of the data path, memory changed outside the region, receives not completed. */
    crashes: number;
    failures: string[];
    /** QPs the streams went through (a new one after each that left RTS). */
    qps: number;
    ms: number;
}
/** `streams` mutated FPDU streams into fresh iWARP QPs. */
export declare function fuzzIwarpStreams(streams: number, seed: number): Promise<StreamReport>;
/** `streams` bursts of mutated IB packets over UDP into RoCEv2 QPs. */
export declare function fuzzRoceStreams(streams: number, seed: number): Promise<StreamReport>;

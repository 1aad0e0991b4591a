import { TerminateError } from '../../src/wire/errors.js';
/** Hex string (spaces and newlines ignored) → bytes. */
export declare function hex(s: string): Uint8Array;
/** Bytes → lowercase hex without separators. */
export declare function toHex(b: Uint8Array): string;
export declare function concat(parts: readonly Uint8Array[]): Uint8Array;
/**
 * A small, fast, seeded PRNG (mulberry32): deterministic fuzzing that a failure message can
 * reproduce from its seed.
 */
export declare class Prng {
    #private;
    constructor(seed: number);
    /** Uniform uint32. */
    u32(): number;
    /** Uniform integer in [0, n). */
    int(n: number): number;
    bytes(n: number): Uint8Array;
}
/** Asserts that `fn` throws a TerminateError with exactly this layer/etype/ecode. */
export declare function assertTerminate(fn: () => unknown, layer: number, etype: number, ecode: number): TerminateError;

export interface DecoderTarget {
    readonly name: string;
    /** Valid encodings the mutator starts from. */
    readonly seeds: readonly Uint8Array[];
    /** Runs the decoder on `b` (`bit` chooses between its options). */
    run(b: Uint8Array, bit: number): unknown;
    /** The error class the decoder may throw on bad input. */
    readonly allowed: new (...args: never[]) => Error;
}
/** iWARP seeds: MPA frames, DDP/RDMAP headers of several opcodes, Terminates, FPDUs. */
export declare const IWARP_SEEDS: readonly Uint8Array[];
/** IB seeds: one packet of every opcode, with each extension header it has. */
export declare const IB_SEEDS: readonly Uint8Array[];
export declare const DECODERS: readonly DecoderTarget[];

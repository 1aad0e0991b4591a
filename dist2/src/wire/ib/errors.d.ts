/**
 * The typed error of the InfiniBand transport-layer codecs.
 *
 * InfiniBand has no Terminate message: a packet that fails the packet-level checks of IBTA
 * Vol. 1 §9.6 ("Packet header validation": transport version, opcode, lengths, ICRC) is
 * **silently dropped** by the receiver. Errors a responder detects in a well-formed request
 * (an R_Key, a length, an unexpected opcode in the message sequence) are NAKs (§9.7.5.2.x),
 * decided by the transport from the QP's state, not by the codec. So every decoder in
 * `src/wire/ib` reports malformed input by throwing an {@link IbWireError} that says why the
 * packet is dropped, and nothing else escapes it.
 *
 * @packageDocumentation
 */
/** Why a packet is dropped (IBTA Vol. 1 §9.6, and RoCEv2 Annex A17 for the ICRC). */
export declare enum IbDropReason {
    /** Shorter than the BTH, its extension headers and the ICRC (§9.6.1). */
    Truncated = "truncated",
    /** TVer ≠ 0: this is transport header version 0 (§9.2, BTH; §9.6.1.1 drops any other). */
    TransportVersion = "tver",
    /** An opcode this implementation does not support (§9.6.1.1: unsupported opcodes are dropped). */
    Opcode = "opcode",
    /** PadCnt on a packet that cannot carry it, or payload plus pad not a multiple of 4 (§9.2, BTH PadCnt). */
    Pad = "pad",
    /** A payload on an opcode that carries none (§9.2 opcode table, §9.6.1). */
    Length = "length",
    /** A reserved AETH syndrome (§9.3.5, AETH). */
    Syndrome = "syndrome",
    /** The Invariant CRC does not match (§7.8.1; Annex A17.3.3 for RoCEv2). */
    Icrc = "icrc"
}
/** The error every `src/wire/ib` decoder throws for malformed input: the packet is dropped. */
export declare class IbWireError extends Error {
    /** Stable error code for `err.code` checks. */
    readonly code = "ERR_IB_WIRE";
    readonly reason: IbDropReason;
    constructor(reason: IbDropReason, detail: string);
}
/** True if `e` is an {@link IbWireError} (also across realms/bundles, by `code`). */
export declare function isIbWireError(e: unknown): e is IbWireError;
/** RangeError for a value that does not fit an unsigned field of `bits` bits (encoders). */
export declare function checkUint(name: string, v: number, bits: number): void;
/** RangeError for a bigint outside uint64 (encoders). */
export declare function checkU64(name: string, v: bigint): void;
/** `0x` and `w` hex digits. */
export declare const hx: (v: number | bigint, w: number) => string;

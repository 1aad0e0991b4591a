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
export var IbDropReason;
(function (IbDropReason) {
    /** Shorter than the BTH, its extension headers and the ICRC (§9.6.1). */
    IbDropReason["Truncated"] = "truncated";
    /** TVer ≠ 0: this is transport header version 0 (§9.2, BTH; §9.6.1.1 drops any other). */
    IbDropReason["TransportVersion"] = "tver";
    /** An opcode this implementation does not support (§9.6.1.1: unsupported opcodes are dropped). */
    IbDropReason["Opcode"] = "opcode";
    /** PadCnt on a packet that cannot carry it, or payload plus pad not a multiple of 4 (§9.2, BTH PadCnt). */
    IbDropReason["Pad"] = "pad";
    /** A payload on an opcode that carries none (§9.2 opcode table, §9.6.1). */
    IbDropReason["Length"] = "length";
    /** A reserved AETH syndrome (§9.3.5, AETH). */
    IbDropReason["Syndrome"] = "syndrome";
    /** The Invariant CRC does not match (§7.8.1; Annex A17.3.3 for RoCEv2). */
    IbDropReason["Icrc"] = "icrc";
})(IbDropReason || (IbDropReason = {}));
/** The error every `src/wire/ib` decoder throws for malformed input: the packet is dropped. */
export class IbWireError extends Error {
    /** Stable error code for `err.code` checks. */
    code = 'ERR_IB_WIRE';
    reason;
    constructor(reason, detail) {
        super(`IB packet dropped (${reason}): ${detail}`);
        this.reason = reason;
    }
}
// On the prototype rather than per instance: stack traces and util.inspect read it from there.
Object.defineProperty(IbWireError.prototype, 'name', { value: 'IbWireError', writable: true, configurable: true });
/** True if `e` is an {@link IbWireError} (also across realms/bundles, by `code`). */
export function isIbWireError(e) {
    return e instanceof IbWireError || (e instanceof Error && e.code === 'ERR_IB_WIRE');
}
/** RangeError for a value that does not fit an unsigned field of `bits` bits (encoders). */
export function checkUint(name, v, bits) {
    if (!Number.isInteger(v) || v < 0 || v > 2 ** bits - 1)
        throw new RangeError(`${name} ${v} is not a uint${bits}`);
}
const U64 = (1n << 64n) - 1n;
/** RangeError for a bigint outside uint64 (encoders). */
export function checkU64(name, v) {
    if (typeof v !== 'bigint' || v < 0n || v > U64)
        throw new RangeError(`${name} ${String(v)} is not a uint64`);
}
/** `0x` and `w` hex digits. */
export const hx = (v, w) => `0x${v.toString(16).padStart(w, '0')}`;
//# sourceMappingURL=errors.js.map
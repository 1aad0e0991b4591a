/**
 * The two 4-octet extension headers that carry a 32-bit value for the receiver's work
 * completion: ImmDt, the Immediate Extended Transport Header (IBTA Vol. 1 §9.3.7: opaque
 * immediate data, after any RETH/DETH, in SEND/RDMA WRITE …_WITH_IMMEDIATE), and IETH, the
 * Invalidate Extended Transport Header (§9.3.8: the R_Key the responder invalidates, in SEND
 * LAST/ONLY WITH INVALIDATE).
 *
 * ImmDt is opaque: it is carried as a big-endian uint32 here (as `ibv_wc.imm_data`, which is in
 * network order, exposes it).
 *
 * @packageDocumentation
 */
import { checkUint, hx, IbDropReason, IbWireError } from './errors.js';
/** Octets of the ImmDt header. */
export const IMMDT_LEN = 4;
/** Octets of the IETH. */
export const IETH_LEN = 4;
function enc32(name, v, out, offset) {
    checkUint(name, v, 32);
    const buf = out ?? new Uint8Array(4);
    if (buf.length - offset < 4)
        throw new RangeError(`buffer too small for the ${name}`);
    buf[offset] = v >>> 24;
    buf[offset + 1] = (v >>> 16) & 0xff;
    buf[offset + 2] = (v >>> 8) & 0xff;
    buf[offset + 3] = v & 0xff;
    return buf;
}
function dec32(name, buf, offset) {
    if (buf.length - offset < 4)
        throw new IbWireError(IbDropReason.Truncated, name);
    return ((buf[offset] << 24) | (buf[offset + 1] << 16) | (buf[offset + 2] << 8) | buf[offset + 3]) >>> 0;
}
/** Encodes the immediate data `imm` (uint32, big-endian). */
export function encodeImmDt(imm, out, offset = 0) {
    return enc32('ImmDt', imm, out, offset);
}
export function decodeImmDt(buf, offset = 0) {
    return dec32('ImmDt', buf, offset);
}
/** Encodes the R_Key to invalidate. */
export function encodeIeth(rkey, out, offset = 0) {
    return enc32('IETH', rkey, out, offset);
}
export function decodeIeth(buf, offset = 0) {
    return dec32('IETH', buf, offset);
}
export function stringifyImmDt(imm) {
    return `ImmDt ${hx(imm, 8)}`;
}
export function stringifyIeth(rkey) {
    return `IETH R_Key=${hx(rkey, 8)}`;
}
//# sourceMappingURL=immdt.js.map
/**
 * DDP: Direct Data Placement over Reliable Transports (RFC 5041), segment headers.
 *
 * Every DDP segment starts with the DDP Control Field (RFC 5041 §4.1):
 *
 * ```
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5
 * |T|L| Rsvd  | DV|   RsvdULP     |
 * ```
 *
 * followed, for the tagged buffer model (T=1, RFC 5041 §4.2), by the 32-bit STag and the 64-bit
 * Tagged Offset (14 octets in all), or, for the untagged model (T=0, RFC 5041 §4.3), by 32 more
 * bits reserved for the ULP, the Queue Number, the Message Sequence Number and the Message
 * Offset (18 octets in all). All fields are big-endian. RDMAP (RFC 5040 §4.1) uses the 8-bit
 * RsvdULP as its control field and the untagged 32-bit RsvdULP as the Invalidate STag.
 *
 * @packageDocumentation
 */
import { DdpTaggedEcode, DdpUntaggedEcode, TerminateError } from './errors.js';
/** RFC 5041 §4.1: the DDP version this codec implements (DV = 01b). */
export const DDP_VERSION = 1;
/** T flag: tagged buffer model (RFC 5041 §4.1). */
export const DDP_FLAG_TAGGED = 0x80;
/** L flag: last segment of a DDP message (RFC 5041 §4.1). */
export const DDP_FLAG_LAST = 0x40;
/** Reserved bits of the control octet: sent as zero, not checked (RFC 5041 §4.1). */
export const DDP_RSVD_MASK = 0x3c;
/** The 2-bit DDP version field (RFC 5041 §4.1). */
export const DDP_DV_MASK = 0x03;
/** RFC 5041 §4.2: tagged header length (control 2 + STag 4 + TO 8). */
export const DDP_TAGGED_HDR_LEN = 14;
/** RFC 5041 §4.3: untagged header length (control 2 + RsvdULP 4 + QN 4 + MSN 4 + MO 4). */
export const DDP_UNTAGGED_HDR_LEN = 18;
/** Untagged queue numbers RDMAP uses (RFC 5040 §5.1; QN 3 added by RFC 7306). */
export var DdpQueue;
(function (DdpQueue) {
    /** Send, Send with Invalidate, Send with SE (and Invalidate); RFC 7306 Immediate Data. */
    DdpQueue[DdpQueue["Send"] = 0] = "Send";
    /** RDMA Read Request; RFC 7306 Atomic Request. */
    DdpQueue[DdpQueue["ReadRequest"] = 1] = "ReadRequest";
    /** Terminate. */
    DdpQueue[DdpQueue["Terminate"] = 2] = "Terminate";
    /** RFC 7306 Atomic Response. */
    DdpQueue[DdpQueue["AtomicResponse"] = 3] = "AtomicResponse";
})(DdpQueue || (DdpQueue = {}));
/** Header length implied by the control octet's T flag. */
export function ddpHeaderLength(ctrl) {
    return ctrl & DDP_FLAG_TAGGED ? DDP_TAGGED_HDR_LEN : DDP_UNTAGGED_HDR_LEN;
}
const U64 = (1n << 64n) - 1n;
function u32(name, v) {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff)
        throw new RangeError(`${name} ${v} is not a uint32`);
    return v;
}
/**
 * Encodes a DDP header into `out` at `offset` (default: a new buffer of the exact size).
 * Returns `out`. Throws RangeError for values that do not fit their fields.
 */
export function encodeDdpHeader(h, out, offset = 0) {
    const len = h.tagged ? DDP_TAGGED_HDR_LEN : DDP_UNTAGGED_HDR_LEN;
    const buf = out ?? new Uint8Array(len);
    if (buf.length - offset < len)
        throw new RangeError('buffer too small for the DDP header');
    const dv = new DataView(buf.buffer, buf.byteOffset + offset, len);
    dv.setUint8(0, (h.tagged ? DDP_FLAG_TAGGED : 0) | (h.last ? DDP_FLAG_LAST : 0) | ((h.rsvd & 0xf) << 2) | (h.version & DDP_DV_MASK));
    dv.setUint8(1, h.rsvdUlp & 0xff);
    if (h.tagged) {
        if (h.to < 0n || h.to > U64)
            throw new RangeError('TO is not a uint64');
        dv.setUint32(2, u32('STag', h.stag));
        dv.setBigUint64(6, h.to);
    }
    else {
        dv.setUint32(2, u32('RsvdULP', h.rsvdUlp32));
        dv.setUint32(6, u32('QN', h.qn));
        dv.setUint32(10, u32('MSN', h.msn));
        dv.setUint32(14, u32('MO', h.mo));
    }
    return buf;
}
/**
 * Decodes the DDP header of the segment at `buf[offset .. offset+length)` (`length` defaults to
 * the rest of `buf`: the ULPDU as delivered by MPA).
 *
 * Errors (RFC 5041 §7): a DDP version other than 1 is DDP / Tagged (0x04) or Untagged (0x06)
 * "Invalid DDP version", chosen by the T flag; a segment too short for its header cannot be
 * placed at all and is reported as a DDP local catastrophic error.
 */
export function decodeDdpHeader(buf, offset = 0, length = buf.length - offset) {
    if (length < 1)
        throw TerminateError.ddpCatastrophic('empty DDP segment');
    const ctrl = buf[offset];
    const tagged = (ctrl & DDP_FLAG_TAGGED) !== 0;
    // Version first: with another version the rest of the header cannot be interpreted.
    if ((ctrl & DDP_DV_MASK) !== DDP_VERSION) {
        const detail = `DDP version ${ctrl & DDP_DV_MASK}`;
        throw tagged
            ? TerminateError.ddpTagged(DdpTaggedEcode.InvalidVersion, detail)
            : TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidVersion, detail);
    }
    const need = tagged ? DDP_TAGGED_HDR_LEN : DDP_UNTAGGED_HDR_LEN;
    if (length < need)
        throw TerminateError.ddpCatastrophic(`DDP segment of ${length} octets is shorter than its ${need}-octet header`);
    const dv = new DataView(buf.buffer, buf.byteOffset + offset, need);
    const common = {
        last: (ctrl & DDP_FLAG_LAST) !== 0,
        rsvd: (ctrl & DDP_RSVD_MASK) >>> 2,
        version: ctrl & DDP_DV_MASK,
        rsvdUlp: dv.getUint8(1),
    };
    if (tagged)
        return { tagged: true, ...common, stag: dv.getUint32(2), to: dv.getBigUint64(6) };
    return {
        tagged: false,
        ...common,
        rsvdUlp32: dv.getUint32(2),
        qn: dv.getUint32(6),
        msn: dv.getUint32(10),
        mo: dv.getUint32(14),
    };
}
const h32 = (v) => `0x${v.toString(16).padStart(8, '0')}`;
/** e.g. `DDP T L STag=0x00001234 TO=0x1000` or `DDP U QN=0 MSN=1 MO=0`. */
export function stringifyDdpHeader(h) {
    let s = `DDP ${h.tagged ? 'T' : 'U'}${h.last ? ' L' : ''}`;
    if (h.version !== DDP_VERSION)
        s += ` DV=${h.version}`;
    if (h.rsvd)
        s += ` rsvd=0x${h.rsvd.toString(16)}`;
    s += ` ulp=0x${h.rsvdUlp.toString(16).padStart(2, '0')}`;
    if (h.tagged)
        return `${s} STag=${h32(h.stag)} TO=0x${h.to.toString(16)}`;
    return `${s}${h.rsvdUlp32 ? ` ulp32=${h32(h.rsvdUlp32)}` : ''} QN=${h.qn} MSN=${h.msn} MO=${h.mo}`;
}
//# sourceMappingURL=ddp.js.map
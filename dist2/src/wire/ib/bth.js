/**
 * The Base Transport Header (IBTA Vol. 1 §9.2), 12 octets, big-endian, first in every
 * InfiniBand transport packet (and, for RoCEv2, first in the UDP payload: Annex A17.4):
 *
 * ```
 *  byte 0   OpCode
 *  byte 1   SE(1) M(1) PadCnt(2) TVer(4)
 *  byte 2-3 P_Key
 *  byte 4   FECN(1) BECN(1) Resv6(6)      (RoCEv2 Annex A17.9: F/B carry ECN feedback)
 *  byte 5-7 DestQP(24)
 *  byte 8   A(1) Resv7(7)
 *  byte 9-11 PSN(24)
 * ```
 *
 * @packageDocumentation
 */
import { checkUint, hx, IbDropReason, IbWireError } from './errors.js';
/** Octets of the BTH. */
export const BTH_LEN = 12;
/** Transport header version this codec implements (§9.2: TVer = 0). */
export const BTH_TVER = 0;
/** The default partition key, full membership (§10.9.1.2); Linux rxe sends it. */
export const PKEY_DEFAULT = 0xffff;
/** The default partition key, limited membership. */
export const PKEY_DEFAULT_LIMITED = 0x7fff;
/** DestQP of the General Services Interface QP (§3.5.1: QP1). */
export const QPN_GSI = 1;
/** DestQP of multicast packets (§10.5.2.2: 0xFFFFFF). */
export const QPN_MULTICAST = 0xffffff;
/** A BTH with every field at its usual value; `opcode`, `destQp` and `psn` to be filled in. */
export function newBth(opcode, destQp, psn) {
    return {
        opcode,
        se: false,
        migReq: false,
        padCnt: 0,
        tver: 0,
        pkey: PKEY_DEFAULT,
        fecn: false,
        becn: false,
        resv6: 0,
        destQp,
        ackReq: false,
        resv7: 0,
        psn,
    };
}
/** Encodes `h` at `out[offset]` (default: a new 12-octet buffer). RangeError for bad values. */
export function encodeBth(h, out, offset = 0) {
    checkUint('OpCode', h.opcode, 8);
    checkUint('PadCnt', h.padCnt, 2);
    checkUint('TVer', h.tver, 4);
    checkUint('P_Key', h.pkey, 16);
    checkUint('Resv6', h.resv6, 6);
    checkUint('DestQP', h.destQp, 24);
    checkUint('Resv7', h.resv7, 7);
    checkUint('PSN', h.psn, 24);
    const buf = out ?? new Uint8Array(BTH_LEN);
    if (buf.length - offset < BTH_LEN)
        throw new RangeError('buffer too small for the BTH');
    const o = offset;
    buf[o] = h.opcode;
    buf[o + 1] = (h.se ? 0x80 : 0) | (h.migReq ? 0x40 : 0) | (h.padCnt << 4) | h.tver;
    buf[o + 2] = h.pkey >>> 8;
    buf[o + 3] = h.pkey & 0xff;
    buf[o + 4] = (h.fecn ? 0x80 : 0) | (h.becn ? 0x40 : 0) | h.resv6;
    buf[o + 5] = h.destQp >>> 16;
    buf[o + 6] = (h.destQp >>> 8) & 0xff;
    buf[o + 7] = h.destQp & 0xff;
    buf[o + 8] = (h.ackReq ? 0x80 : 0) | h.resv7;
    buf[o + 9] = h.psn >>> 16;
    buf[o + 10] = (h.psn >>> 8) & 0xff;
    buf[o + 11] = h.psn & 0xff;
    return buf;
}
/**
 * Decodes the BTH at `buf[offset]`. Drops (IbWireError) a buffer shorter than 12 octets and a
 * TVer other than 0 (§9.6.1.1); the opcode is checked against the opcode table by the packet
 * decoder, the P_Key and DestQP by the receiving QP.
 */
export function decodeBth(buf, offset = 0) {
    if (buf.length - offset < BTH_LEN)
        throw new IbWireError(IbDropReason.Truncated, `${buf.length - offset} octets, BTH needs ${BTH_LEN}`);
    const o = offset;
    const b1 = buf[o + 1];
    const tver = b1 & 0x0f;
    if (tver !== BTH_TVER)
        throw new IbWireError(IbDropReason.TransportVersion, `TVer ${tver}`);
    const b4 = buf[o + 4];
    const b8 = buf[o + 8];
    return {
        opcode: buf[o],
        se: (b1 & 0x80) !== 0,
        migReq: (b1 & 0x40) !== 0,
        padCnt: (b1 >>> 4) & 3,
        tver,
        pkey: (buf[o + 2] << 8) | buf[o + 3],
        fecn: (b4 & 0x80) !== 0,
        becn: (b4 & 0x40) !== 0,
        resv6: b4 & 0x3f,
        destQp: (buf[o + 5] << 16) | (buf[o + 6] << 8) | buf[o + 7],
        ackReq: (b8 & 0x80) !== 0,
        resv7: b8 & 0x7f,
        psn: (buf[o + 9] << 16) | (buf[o + 10] << 8) | buf[o + 11],
    };
}
/** e.g. `BTH op=0x04 QP=0x000011 PSN=5 A SE pad=2 P_Key=0xffff`. */
export function stringifyBth(h) {
    let s = `BTH op=${hx(h.opcode, 2)} QP=${hx(h.destQp, 6)} PSN=${h.psn}`;
    if (h.ackReq)
        s += ' A';
    if (h.se)
        s += ' SE';
    if (h.migReq)
        s += ' M';
    if (h.fecn)
        s += ' FECN';
    if (h.becn)
        s += ' BECN';
    if (h.padCnt)
        s += ` pad=${h.padCnt}`;
    if (h.tver)
        s += ` TVer=${h.tver}`;
    if (h.resv6)
        s += ` resv6=${hx(h.resv6, 2)}`;
    if (h.resv7)
        s += ` resv7=${hx(h.resv7, 2)}`;
    return `${s} P_Key=${hx(h.pkey, 4)}`;
}
//# sourceMappingURL=bth.js.map
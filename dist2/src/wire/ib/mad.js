/**
 * The InfiniBand Management Datagram (MAD) common header (IBTA Vol. 1 §13.4.2–§13.4.3) and
 * the typed error of the MAD codecs.
 *
 * A MAD is exactly 256 octets carried as the payload of one UD packet to the General
 * Services Interface (QP1, Q_Key 0x80010000, §13.5.1, §10.2.5.1). Its first 24 octets are the
 * common header:
 *
 * ```
 *  0               1               2               3
 * | BaseVersion   | MgmtClass     | ClassVersion  |R|  Method     |
 * |            Status             |         ClassSpecific         |
 * |                       TransactionID (64)                      |
 * |          AttributeID          |           Reserved            |
 * |                      AttributeModifier                        |
 * ```
 *
 * A MAD that fails the header checks is dropped by the receiving MAD layer (§13.5.3.x; Linux
 * `mad.c:validate_mad`), so the decoders report malformed input with a {@link MadWireError}
 * (the reason it is dropped) and nothing else escapes them.
 *
 * @packageDocumentation
 */
/** Octets in every MAD (IBTA Vol. 1 §13.4.2). */
export const MAD_SIZE = 256;
/** Octets of the MAD common header (IBTA Vol. 1 §13.4.3). */
export const MAD_HDR_LEN = 24;
/** BaseVersion of every MAD of IBTA Vol. 1 (§13.4.3). */
export const MAD_BASE_VERSION = 1;
/** The R bit of the Method octet: this MAD is a response (§13.4.3, §13.4.5). */
export const MAD_METHOD_RESPONSE = 0x80;
/** The QPN of the General Services Interface (§3.5.4, §13.5.1). */
export const GSI_QPN = 1;
/** The well-known Q_Key of QP1 (IBTA Vol. 1 §10.2.5.1 / §13.5.1; Linux `IB_QP1_QKEY`). */
export const GSI_QKEY = 0x80010000;
/** The default (full-member) P_Key (§10.9.1.2). */
export const DEFAULT_PKEY = 0xffff;
/** Common MAD methods (IBTA Vol. 1 §13.4.5, Table 141). */
export var MadMethod;
(function (MadMethod) {
    MadMethod[MadMethod["Get"] = 1] = "Get";
    MadMethod[MadMethod["Set"] = 2] = "Set";
    /** Every CM message is a Send (§12.6.1; Linux `cm.c:cm_format_mad_hdr`). */
    MadMethod[MadMethod["Send"] = 3] = "Send";
    MadMethod[MadMethod["Trap"] = 5] = "Trap";
    MadMethod[MadMethod["Report"] = 6] = "Report";
    MadMethod[MadMethod["TrapRepress"] = 7] = "TrapRepress";
    MadMethod[MadMethod["GetResp"] = 129] = "GetResp";
})(MadMethod || (MadMethod = {}));
/** Why a MAD is dropped. */
export var MadDropReason;
(function (MadDropReason) {
    /** Not exactly 256 octets (§13.4.2). */
    MadDropReason["Length"] = "length";
    /** BaseVersion ≠ 1 (§13.4.3). */
    MadDropReason["BaseVersion"] = "base-version";
    /** A management class this codec does not decode (§13.4.4). */
    MadDropReason["Class"] = "class";
    /** A class version this codec does not decode (§13.4.3; the CM is version 2, §12.6.1). */
    MadDropReason["ClassVersion"] = "class-version";
    /** A method the class does not use (§13.4.5; Linux drops CM MADs other than Send). */
    MadDropReason["Method"] = "method";
    /** An attribute the class does not define, or one this implementation does not support. */
    MadDropReason["Attribute"] = "attribute";
    /** A field holds a value its definition reserves (for example a reserved message code). */
    MadDropReason["Field"] = "field";
})(MadDropReason || (MadDropReason = {}));
/** The error every MAD decoder throws for malformed input: the MAD is dropped. */
export class MadWireError extends Error {
    /** Stable error code for `err.code` checks. */
    code = 'ERR_IB_MAD';
    reason;
    constructor(reason, detail) {
        super(`MAD dropped (${reason}): ${detail}`);
        this.reason = reason;
    }
}
Object.defineProperty(MadWireError.prototype, 'name', { value: 'MadWireError', writable: true, configurable: true });
/** True if `e` is a {@link MadWireError} (also across realms/bundles, by `code`). */
export function isMadWireError(e) {
    return e instanceof MadWireError || (e instanceof Error && e.code === 'ERR_IB_MAD');
}
/** RangeError unless `v` is an integer in [0, 2^bits). */
export function checkUint(name, v, bits) {
    if (!Number.isInteger(v) || v < 0 || v > 2 ** bits - 1)
        throw new RangeError(`${name} ${v} is not a uint${bits}`);
}
/** RangeError unless `v` is a bigint in [0, 2^64). */
export function checkU64(name, v) {
    if (typeof v !== 'bigint' || v < 0n || v >= 1n << 64n)
        throw new RangeError(`${name} ${String(v)} is not a uint64`);
}
/** Writes the 24-octet MAD header at `out[offset]`. RangeError on out-of-range fields. */
export function encodeMadHeader(h, out, offset = 0) {
    checkUint('BaseVersion', h.baseVersion, 8);
    checkUint('MgmtClass', h.mgmtClass, 8);
    checkUint('ClassVersion', h.classVersion, 8);
    checkUint('Method', h.method, 8);
    checkUint('Status', h.status, 16);
    checkUint('ClassSpecific', h.classSpecific, 16);
    checkU64('TransactionID', h.tid);
    checkUint('AttributeID', h.attrId, 16);
    checkUint('Reserved', h.resv, 16);
    checkUint('AttributeModifier', h.attrMod, 32);
    if (out.length - offset < MAD_HDR_LEN)
        throw new RangeError('buffer too small for a MAD header');
    const dv = new DataView(out.buffer, out.byteOffset + offset, MAD_HDR_LEN);
    dv.setUint8(0, h.baseVersion);
    dv.setUint8(1, h.mgmtClass);
    dv.setUint8(2, h.classVersion);
    dv.setUint8(3, h.method);
    dv.setUint16(4, h.status);
    dv.setUint16(6, h.classSpecific);
    dv.setBigUint64(8, h.tid);
    dv.setUint16(16, h.attrId);
    dv.setUint16(18, h.resv);
    dv.setUint32(20, h.attrMod);
}
/** Reads the MAD header at `buf[offset]` (no value checks; the class decoders make them). */
export function decodeMadHeader(buf, offset = 0) {
    if (buf.length - offset < MAD_HDR_LEN) {
        throw new MadWireError(MadDropReason.Length, `${buf.length - offset} < ${MAD_HDR_LEN} octets of MAD header`);
    }
    const dv = new DataView(buf.buffer, buf.byteOffset + offset, MAD_HDR_LEN);
    return {
        baseVersion: dv.getUint8(0),
        mgmtClass: dv.getUint8(1),
        classVersion: dv.getUint8(2),
        method: dv.getUint8(3),
        status: dv.getUint16(4),
        classSpecific: dv.getUint16(6),
        tid: dv.getBigUint64(8),
        attrId: dv.getUint16(16),
        resv: dv.getUint16(18),
        attrMod: dv.getUint32(20),
    };
}
/** `0x` and `w` hex digits. */
export const hx = (v, w) => `0x${v.toString(16).padStart(w, '0')}`;
/** One-line description of a MAD header. */
export function stringifyMadHeader(h) {
    return (`MAD v${h.baseVersion} class=${hx(h.mgmtClass, 2)}/v${h.classVersion} method=${hx(h.method, 2)}` +
        ` status=${hx(h.status, 4)} tid=${hx(h.tid, 16)} attr=${hx(h.attrId, 4)} mod=${hx(h.attrMod, 8)}`);
}
//# sourceMappingURL=mad.js.map
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
export declare const MAD_SIZE = 256;
/** Octets of the MAD common header (IBTA Vol. 1 §13.4.3). */
export declare const MAD_HDR_LEN = 24;
/** BaseVersion of every MAD of IBTA Vol. 1 (§13.4.3). */
export declare const MAD_BASE_VERSION = 1;
/** The R bit of the Method octet: this MAD is a response (§13.4.3, §13.4.5). */
export declare const MAD_METHOD_RESPONSE = 128;
/** The QPN of the General Services Interface (§3.5.4, §13.5.1). */
export declare const GSI_QPN = 1;
/** The well-known Q_Key of QP1 (IBTA Vol. 1 §10.2.5.1 / §13.5.1; Linux `IB_QP1_QKEY`). */
export declare const GSI_QKEY = 2147549184;
/** The default (full-member) P_Key (§10.9.1.2). */
export declare const DEFAULT_PKEY = 65535;
/** Common MAD methods (IBTA Vol. 1 §13.4.5, Table 141). */
export declare enum MadMethod {
    Get = 1,
    Set = 2,
    /** Every CM message is a Send (§12.6.1; Linux `cm.c:cm_format_mad_hdr`). */
    Send = 3,
    Trap = 5,
    Report = 6,
    TrapRepress = 7,
    GetResp = 129
}
/** Why a MAD is dropped. */
export declare enum MadDropReason {
    /** Not exactly 256 octets (§13.4.2). */
    Length = "length",
    /** BaseVersion ≠ 1 (§13.4.3). */
    BaseVersion = "base-version",
    /** A management class this codec does not decode (§13.4.4). */
    Class = "class",
    /** A class version this codec does not decode (§13.4.3; the CM is version 2, §12.6.1). */
    ClassVersion = "class-version",
    /** A method the class does not use (§13.4.5; Linux drops CM MADs other than Send). */
    Method = "method",
    /** An attribute the class does not define, or one this implementation does not support. */
    Attribute = "attribute",
    /** A field holds a value its definition reserves (for example a reserved message code). */
    Field = "field"
}
/** The error every MAD decoder throws for malformed input: the MAD is dropped. */
export declare class MadWireError extends Error {
    /** Stable error code for `err.code` checks. */
    readonly code = "ERR_IB_MAD";
    readonly reason: MadDropReason;
    constructor(reason: MadDropReason, detail: string);
}
/** True if `e` is a {@link MadWireError} (also across realms/bundles, by `code`). */
export declare function isMadWireError(e: unknown): e is MadWireError;
/** The MAD common header (IBTA Vol. 1 §13.4.3). */
export interface MadHeader {
    baseVersion: number;
    mgmtClass: number;
    classVersion: number;
    /** The full Method octet, R bit (0x80) included. */
    method: number;
    status: number;
    classSpecific: number;
    /** TransactionID: chosen by the requester, echoed by every response (§13.4.6.4). */
    tid: bigint;
    attrId: number;
    /** The 16 reserved bits after AttributeID, as received (sent as zero). */
    resv: number;
    attrMod: number;
}
/** RangeError unless `v` is an integer in [0, 2^bits). */
export declare function checkUint(name: string, v: number, bits: number): void;
/** RangeError unless `v` is a bigint in [0, 2^64). */
export declare function checkU64(name: string, v: bigint): void;
/** Writes the 24-octet MAD header at `out[offset]`. RangeError on out-of-range fields. */
export declare function encodeMadHeader(h: MadHeader, out: Uint8Array, offset?: number): void;
/** Reads the MAD header at `buf[offset]` (no value checks; the class decoders make them). */
export declare function decodeMadHeader(buf: Uint8Array, offset?: number): MadHeader;
/** `0x` and `w` hex digits. */
export declare const hx: (v: number | bigint, w: number) => string;
/** One-line description of a MAD header. */
export declare function stringifyMadHeader(h: MadHeader): string;

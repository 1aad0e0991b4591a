/** RFC 5041 §4.1: the DDP version this codec implements (DV = 01b). */
export declare const DDP_VERSION = 1;
/** T flag: tagged buffer model (RFC 5041 §4.1). */
export declare const DDP_FLAG_TAGGED = 128;
/** L flag: last segment of a DDP message (RFC 5041 §4.1). */
export declare const DDP_FLAG_LAST = 64;
/** Reserved bits of the control octet: sent as zero, not checked (RFC 5041 §4.1). */
export declare const DDP_RSVD_MASK = 60;
/** The 2-bit DDP version field (RFC 5041 §4.1). */
export declare const DDP_DV_MASK = 3;
/** RFC 5041 §4.2: tagged header length (control 2 + STag 4 + TO 8). */
export declare const DDP_TAGGED_HDR_LEN = 14;
/** RFC 5041 §4.3: untagged header length (control 2 + RsvdULP 4 + QN 4 + MSN 4 + MO 4). */
export declare const DDP_UNTAGGED_HDR_LEN = 18;
/** Untagged queue numbers RDMAP uses (RFC 5040 §5.1; QN 3 added by RFC 7306). */
export declare enum DdpQueue {
    /** Send, Send with Invalidate, Send with SE (and Invalidate); RFC 7306 Immediate Data. */
    Send = 0,
    /** RDMA Read Request; RFC 7306 Atomic Request. */
    ReadRequest = 1,
    /** Terminate. */
    Terminate = 2,
    /** RFC 7306 Atomic Response. */
    AtomicResponse = 3
}
interface DdpCommon {
    /** L: last segment of the message. */
    last: boolean;
    /** The 4 reserved bits of the control octet, as received (sent as zero). */
    rsvd: number;
    /** DV, the 2-bit DDP version; 1 for RFC 5041. */
    version: number;
    /** The 8-bit RsvdULP octet (RDMAP's control field). */
    rsvdUlp: number;
}
/** Tagged buffer model header (RFC 5041 §4.2). */
export interface DdpTaggedHeader extends DdpCommon {
    tagged: true;
    /** Data Sink STag (uint32). */
    stag: number;
    /** Data Sink Tagged Offset (uint64). */
    to: bigint;
}
/** Untagged buffer model header (RFC 5041 §4.3). */
export interface DdpUntaggedHeader extends DdpCommon {
    tagged: false;
    /** The 32-bit RsvdULP field (RDMAP: Invalidate STag for Send with Invalidate, else 0). */
    rsvdUlp32: number;
    /** Queue Number. */
    qn: number;
    /** Message Sequence Number (uint32, wraps). */
    msn: number;
    /** Message Offset. */
    mo: number;
}
export type DdpHeader = DdpTaggedHeader | DdpUntaggedHeader;
/** Header length implied by the control octet's T flag. */
export declare function ddpHeaderLength(ctrl: number): number;
/**
 * Encodes a DDP header into `out` at `offset` (default: a new buffer of the exact size).
 * Returns `out`. Throws RangeError for values that do not fit their fields.
 */
export declare function encodeDdpHeader(h: DdpHeader, out?: Uint8Array, offset?: number): Uint8Array;
/**
 * Decodes the DDP header of the segment at `buf[offset .. offset+length)` (`length` defaults to
 * the rest of `buf`: the ULPDU as delivered by MPA).
 *
 * Errors (RFC 5041 §7): a DDP version other than 1 is DDP / Tagged (0x04) or Untagged (0x06)
 * "Invalid DDP version", chosen by the T flag; a segment too short for its header cannot be
 * placed at all and is reported as a DDP local catastrophic error.
 */
export declare function decodeDdpHeader(buf: Uint8Array, offset?: number, length?: number): DdpHeader;
/** e.g. `DDP T L STag=0x00001234 TO=0x1000` or `DDP U QN=0 MSN=1 MO=0`. */
export declare function stringifyDdpHeader(h: DdpHeader): string;
export {};

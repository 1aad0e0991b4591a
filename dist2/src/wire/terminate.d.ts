/**
 * The RDMAP Terminate message (RFC 5040 §4.8, error handling in §7).
 *
 * A Terminate is an untagged DDP message on queue 2 (RDMAP OpCode 0x7) whose payload is:
 *
 * ```
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * | Layer | EType |  Error Code   |M|D|R|        Reserved         |   Terminate Control
 * |   DDP Segment Length (if M)   |  Terminated DDP Header (if D)  …   14 or 18 octets
 * |          Terminated RDMA Header (if R): a Read Request header …   28 octets
 * ```
 *
 * M: the DDP Segment Length is valid; D: the DDP header of the offending segment is copied;
 * R: its RDMAP Read Request header is copied. Implementations copy the offending FPDU's
 * ULPDU_LENGTH as the DDP Segment Length immediately followed by its DDP header (Intel's
 * nes/i40iw/irdma `bld_terminate_hdr`, Chelsio's `TERM_MAX_LENGTH = 4 + 2 + 18 + 28`), so this
 * codec treats the 2-octet length as present when M or D is set (see docs/spec-notes.md).
 *
 * @packageDocumentation
 */
import { type DdpUntaggedHeader } from './ddp.js';
import { TerminateError } from './errors.js';
import { type ReadRequestHeader } from './rdmap.js';
/** Terminate Control length (RFC 5040 §4.8). */
export declare const TERM_CTRL_LEN = 4;
/** M: DDP Segment Length valid (RFC 5040 §4.8). */
export declare const TERM_HDRCT_M = 128;
/** D: Terminated DDP Header included (RFC 5040 §4.8). */
export declare const TERM_HDRCT_D = 64;
/** R: Terminated RDMA Header included (RFC 5040 §4.8). */
export declare const TERM_HDRCT_R = 32;
/** Length of the DDP Segment Length field. */
export declare const TERM_DDP_SEGLEN_LEN = 2;
/** The largest Terminate header: control, segment length, untagged DDP header, Read Request header. */
export declare const TERM_MAX_LEN: number;
/** The Terminate header (the payload of a Terminate message). */
export interface TerminateHeader {
    /** Layer that detected the error (see `TermLayer`). */
    layer: number;
    /** Error Type within the layer. */
    etype: number;
    /** Error Code within the type. */
    ecode: number;
    /** M: `ddpSegmentLength` is valid. */
    m: boolean;
    /** D: `ddpHeader` holds the offending segment's DDP header. */
    d: boolean;
    /** R: `rdmaHeader` holds the offending segment's RDMA Read Request header. */
    r: boolean;
    /** The 13 reserved bits as received (sent as zero). */
    rsvd: number;
    /** Length of the offending DDP segment (present when M or D is set). */
    ddpSegmentLength?: number;
    /** Copied DDP header, 14 (tagged) or 18 (untagged) octets by its own T flag (present when D). */
    ddpHeader?: Uint8Array;
    /** Copied RDMA Read Request header, 28 octets (present when R). */
    rdmaHeader?: Uint8Array;
}
/** Octets {@link encodeTerminate} writes for `t`. */
export declare function terminateLength(t: TerminateHeader): number;
/** Encodes the Terminate header (the part after the DDP/RDMAP header). RangeError on bad fields. */
export declare function encodeTerminate(t: TerminateHeader, out?: Uint8Array, offset?: number): Uint8Array;
/**
 * Decodes a Terminate header at `buf[offset .. offset+length)`. The copied headers are returned
 * as copies of the raw octets (they may be exactly what was malformed). A header shorter than
 * its HdrCt bits announce throws RDMAP/Remote Operation/Unspecified.
 */
export declare function decodeTerminate(buf: Uint8Array, offset?: number, length?: number): TerminateHeader;
/**
 * A complete Terminate message ULPDU (RFC 5040 §4.8, §5.1): untagged DDP header with L=1 on the
 * Terminate queue (QN 2), MO 0 and the given MSN (the Terminate queue's MSNs start at 1), RDMAP
 * OpCode Terminate, then the Terminate header.
 */
export declare function encodeTerminateMessage(t: TerminateHeader, msn?: number): Uint8Array;
/** Decodes a whole Terminate message ULPDU (DDP + RDMAP headers, then the Terminate header). */
export declare function decodeTerminateMessage(ulpdu: Uint8Array): {
    ddp: DdpUntaggedHeader;
    terminate: TerminateHeader;
};
/**
 * Builds the Terminate header reporting `err` about an offending DDP segment, copying the
 * headers RFC 5040 §7.2/§7.3 asks for when they are available: the DDP Segment Length (M) and
 * DDP header (D) whenever the segment was long enough to hold one, and the RDMA Read Request
 * header (R) when the segment was a Read Request. With no segment (a local error) only the
 * Terminate Control is sent.
 *
 * @param segment the offending ULPDU (or at least its first 46 octets).
 * @param segmentLength its full length (the MPA ULPDU_LENGTH), if more than `segment` holds.
 */
export declare function buildTerminate(err: TerminateError, segment?: Uint8Array, segmentLength?: number): TerminateHeader;
/** Decodes a copied RDMA header as the Read Request header it is. */
export declare function decodeTerminatedReadRequest(rdmaHeader: Uint8Array): ReadRequestHeader;
/** One-line description, e.g. `Terminate LLP/MPA/CRC error (0x02/0x00/0x02) M D len=64 [DDP …]`. */
export declare function stringifyTerminate(t: TerminateHeader): string;

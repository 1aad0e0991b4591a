/**
 * RDMAP: the Remote Direct Memory Access Protocol (RFC 5040) and its extensions of RFC 7306
 * (Immediate Data and Atomic operations), as headers on top of DDP segments.
 *
 * RDMAP puts its control octet in DDP's 8-bit RsvdULP field (RFC 5040 §4.1):
 *
 * ```
 *  0 1 2 3 4 5 6 7
 * |RV |Rsv| OpCode|     RV = RDMAP version (01b), OpCode = message type
 * ```
 *
 * and, for Send with Invalidate, the Invalidate STag in DDP's untagged 32-bit RsvdULP field.
 * Some messages carry a further RDMAP header after the DDP header: RDMA Read Request
 * (RFC 5040 §4.4, 28 octets), Terminate (RFC 5040 §4.8, see `terminate.ts`), Immediate Data
 * (RFC 7306, 8 octets), Atomic Request (RFC 7306, 52 octets), Atomic Response (RFC 7306,
 * 12 octets).
 *
 * Two decoders: {@link decodeRdmapHeaderInto} fills a reusable {@link RdmapHeaderStruct} without
 * allocating (the receive path), {@link decodeRdmapHeader} returns a plain object.
 *
 * @packageDocumentation
 */
import { type DdpHeader, DdpQueue } from './ddp.js';
/** RFC 5040 §4.1: RDMAP version (RV = 01b). */
export declare const RDMAP_VERSION = 1;
/** RV bits of the RDMAP control octet. */
export declare const RDMAP_RV_MASK = 192;
/** Reserved bits of the RDMAP control octet (sent as zero, not checked). */
export declare const RDMAP_RSVD_MASK = 48;
/** OpCode bits of the RDMAP control octet. */
export declare const RDMAP_OPCODE_MASK = 15;
/** RFC 5040 §4.4: RDMA Read Request header length. */
export declare const RDMAP_READ_REQ_HDR_LEN = 28;
/** RFC 7306: Immediate Data header length (64 bits of data). */
export declare const RDMAP_IMMEDIATE_HDR_LEN = 8;
/** RFC 7306: Atomic Request header length. */
export declare const RDMAP_ATOMIC_REQ_HDR_LEN = 52;
/** RFC 7306: Atomic Response header length. */
export declare const RDMAP_ATOMIC_RESP_HDR_LEN = 12;
/** RDMAP OpCodes: RFC 5040 §4.2 (0–7) and RFC 7306 (8–11). 12–15 are reserved. */
export declare enum RdmapOpcode {
    Write = 0,
    ReadRequest = 1,
    ReadResponse = 2,
    Send = 3,
    SendInvalidate = 4,
    SendSE = 5,
    SendSEInvalidate = 6,
    Terminate = 7,
    /** RFC 7306 Immediate Data. */
    ImmediateData = 8,
    /** RFC 7306 Immediate Data with Solicited Event. */
    ImmediateDataSE = 9,
    /** RFC 7306 Atomic Request. */
    AtomicRequest = 10,
    /** RFC 7306 Atomic Response. */
    AtomicResponse = 11
}
/** RFC 7306 Atomic Operation codes (4-bit AOpCode of the Atomic Request header). */
export declare enum AtomicOpcode {
    FetchAdd = 0,
    Swap = 1,
    CompareSwap = 2
}
/** What the engine needs to know about an opcode to dispatch a segment (RFC 5040 §4.2, RFC 7306). */
export interface RdmapOpInfo {
    readonly opcode: RdmapOpcode;
    readonly name: string;
    /** Carried in tagged (true) or untagged (false) DDP segments. */
    readonly tagged: boolean;
    /** Untagged queue number, or null for tagged messages. */
    readonly qn: DdpQueue | null;
    /** Octets of RDMAP header after the DDP header (Terminate: 0 here, its header is variable). */
    readonly rdmapHeaderLength: number;
    /** DDP + RDMAP header octets before the ULP payload (Terminate: the DDP header only). */
    readonly headerLength: number;
    /** Carries ULP payload after its headers. */
    readonly payload: boolean;
    /** Send with Invalidate: the untagged RsvdULP field is the Invalidate STag. */
    readonly invalidate: boolean;
    /** Solicited Event requested. */
    readonly solicited: boolean;
    /** The RFC defining the opcode. */
    readonly rfc: 5040 | 7306;
}
/**
 * Per-opcode table indexed by the 4-bit OpCode (undefined for the reserved 12–15).
 * RFC 5040 §4.2 Table "RDMA Usage of DDP Fields" and RFC 7306's additions (§3: Immediate Data on
 * QN 0, Atomic Request on QN 1 sharing the RDMA Read Request queue, Atomic Response on QN 3).
 */
export declare const RDMAP_OPCODES: readonly (RdmapOpInfo | undefined)[];
/** RDMA Read Request header (RFC 5040 §4.4). */
export interface ReadRequestHeader {
    /** Data Sink STag: where the Read Response is placed (requester's buffer). */
    sinkStag: number;
    /** Data Sink Tagged Offset. */
    sinkTo: bigint;
    /** RDMA Read Message Size in octets. */
    size: number;
    /** Data Source STag: what is read (responder's buffer). */
    srcStag: number;
    /** Data Source Tagged Offset. */
    srcTo: bigint;
}
/** RFC 7306 Atomic Request header. */
export interface AtomicRequestHeader {
    /** The 28 reserved bits before AOpCode (sent as zero). */
    rsvd: number;
    /** AOpCode (4 bits), see {@link AtomicOpcode}. */
    atomicOpcode: number;
    /** Request Identifier, echoed in the Atomic Response. */
    requestId: number;
    /** Remote STag of the target. */
    remoteStag: number;
    /** Remote Tagged Offset of the 64-bit target. */
    remoteTo: bigint;
    /** Add Data (FetchAdd) or Swap Data (Swap, CompareSwap). */
    addSwapData: bigint;
    /** Add Mask or Swap Mask. */
    addSwapMask: bigint;
    /** Compare Data (CompareSwap). */
    compareData: bigint;
    /** Compare Mask (CompareSwap). */
    compareMask: bigint;
}
/** RFC 7306 Atomic Response header. */
export interface AtomicResponseHeader {
    /** The Request Identifier of the Atomic Request this answers. */
    originalRequestId: number;
    /** The value at the target before the operation. */
    originalValue: bigint;
}
/**
 * A DDP + RDMAP header as a plain object. The DDP header's `rsvdUlp` octet is RDMAP's control
 * octet: {@link encodeRdmapHeader} computes it from `version`, `rsvd` and `opcode` and ignores
 * `ddp.rsvdUlp`; {@link decodeRdmapHeader} fills both consistently.
 */
export interface RdmapHeader {
    ddp: DdpHeader;
    /** RV: RDMAP version, 1. */
    version: number;
    /** The 2 reserved control bits as received. */
    rsvd: number;
    opcode: number;
    /** opcode 1. */
    readRequest?: ReadRequestHeader;
    /** opcodes 8 and 9: the 64 bits of Immediate Data. */
    immediateData?: bigint;
    /** opcode 10. */
    atomicRequest?: AtomicRequestHeader;
    /** opcode 11. */
    atomicResponse?: AtomicResponseHeader;
}
/** RDMAP control octet from its fields. */
export declare function rdmapControl(version: number, rsvd: number, opcode: number): number;
/** Octets {@link encodeRdmapHeader} writes for `h`. */
export declare function rdmapHeaderLength(h: RdmapHeader): number;
/**
 * Encodes the DDP header and the opcode's fixed RDMAP header (none for Write, Read Response,
 * Sends and Terminate). The opcode's extra header must be given (RangeError otherwise). The
 * DDP header's buffer model is taken from `h.ddp` as is, so malformed combinations can be built
 * for tests.
 */
export declare function encodeRdmapHeader(h: RdmapHeader, out?: Uint8Array, offset?: number): Uint8Array;
/**
 * A reusable, mutable decoded header for the receive path: {@link decodeRdmapHeaderInto} fills
 * it without allocating for the RFC 5040 messages. 64-bit offsets of the hot messages are kept
 * as two uint32 halves (`toHi`/`toLo`, …) with bigint getters; RFC 7306 fields are bigints.
 * Fields not used by the decoded opcode keep stale values.
 */
export declare class RdmapHeaderStruct {
    tagged: boolean;
    last: boolean;
    ddpRsvd: number;
    ddpVersion: number;
    version: number;
    rsvd: number;
    opcode: number;
    stag: number;
    toHi: number;
    toLo: number;
    rsvdUlp32: number;
    qn: number;
    msn: number;
    mo: number;
    sinkStag: number;
    sinkToHi: number;
    sinkToLo: number;
    readSize: number;
    srcStag: number;
    srcToHi: number;
    srcToLo: number;
    immediateData: bigint;
    atomicRsvd: number;
    atomicOpcode: number;
    requestId: number;
    remoteStag: number;
    remoteTo: bigint;
    addSwapData: bigint;
    addSwapMask: bigint;
    compareData: bigint;
    compareMask: bigint;
    originalRequestId: number;
    originalValue: bigint;
    /** Octets of DDP + RDMAP header decoded (the payload, if any, starts here). */
    headerLength: number;
    /** Tagged Offset of a tagged segment. */
    get to(): bigint;
    /** Read Request Data Sink TO. */
    get sinkTo(): bigint;
    /** Read Request Data Source TO. */
    get srcTo(): bigint;
    /** The Invalidate STag of Send with Invalidate (the untagged RsvdULP field). */
    get invalidateStag(): number;
    /** The opcode's table entry (always defined after a successful decode). */
    get info(): RdmapOpInfo;
}
/**
 * Decodes the DDP and RDMAP headers of the segment `buf[offset .. offset+length)` into `out`
 * and returns the header length. Throws {@link TerminateError}, checking in this order:
 *
 * 1. DDP version ≠ 1 → DDP/Tagged 0x04 or DDP/Untagged 0x06 "Invalid DDP version" (RFC 5041 §7);
 *    segment shorter than the DDP header → DDP local catastrophic error.
 * 2. RDMAP version ≠ 1 → RDMAP/Remote Operation/"Invalid RDMAP version" (RFC 5040 §7.3).
 * 3. Reserved opcode, or an opcode in the wrong buffer model (e.g. a tagged Send) →
 *    RDMAP/Remote Operation/"Unexpected OpCode" (RFC 5040 §7.3).
 * 4. Untagged opcode on another queue than its own → DDP/Untagged/"Invalid QN" (RFC 5041 §7).
 * 5. Segment too short for the opcode's RDMAP header → RDMAP/Remote Operation/"Unspecified Error".
 *
 * The Terminate header after the DDP header is not decoded here (see `decodeTerminate`).
 */
export declare function decodeRdmapHeaderInto(buf: Uint8Array, offset: number, length: number, out: RdmapHeaderStruct): number;
/** Converts a decoded struct to the plain {@link RdmapHeader} form. */
export declare function rdmapStructToHeader(s: RdmapHeaderStruct): RdmapHeader;
/** Plain-object decode: see {@link decodeRdmapHeaderInto} for the checks. */
export declare function decodeRdmapHeader(buf: Uint8Array, offset?: number, length?: number): {
    header: RdmapHeader;
    headerLength: number;
};
/** Name of an opcode (e.g. "Send with SE"), or `OpCode(n)` for reserved values. */
export declare function rdmapOpcodeName(opcode: number): string;
/** One-line description, e.g. `RDMAP Read Request [DDP U L QN=1 MSN=1 MO=0] sink=… size=4096 src=…`. */
export declare function stringifyRdmapHeader(h: RdmapHeader): string;
/**
 * Writes the DDP + RDMAP header of an outbound segment straight from the opcode table
 * ({@link RDMAP_OPCODES}), the way Linux siw builds headers from `iwarp_pktinfo[]`: the table
 * says tagged or untagged, the queue number and the extra RDMAP header; the caller gives the
 * per-segment fields. Returns the header length. No validation beyond the table: the transmit
 * path only passes values it made itself (use {@link encodeRdmapHeader} for arbitrary input).
 *
 * - tagged (Write, Read Response): `stag`, `to`;
 * - untagged: `rsvdUlp32` (Send with Invalidate's STag), `msn`, `mo`;
 * - Read Request: `rr` (RFC 5040 §4.4).
 */
export declare function encodeRdmapTxHeader(out: Uint8Array, offset: number, opcode: RdmapOpcode, last: boolean, stag: number, to: bigint, rsvdUlp32: number, msn: number, mo: number, rr: ReadRequestHeader | null): number;

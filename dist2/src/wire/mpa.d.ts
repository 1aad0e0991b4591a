/** RFC 5044 §7.1.1: the 16-octet key of an MPA Request Frame, "MPA ID Req Frame". */
export declare const MPA_KEY_REQ: Uint8Array;
/** RFC 5044 §7.1.1: the 16-octet key of an MPA Reply Frame, "MPA ID Rep Frame". */
export declare const MPA_KEY_REP: Uint8Array;
/** Length of the key. */
export declare const MPA_KEY_LEN = 16;
/** Key + flags + revision + PD_Length: the fixed part of a Request/Reply frame (RFC 5044 §7.1.1). */
export declare const MPA_RR_HEADER_LEN = 20;
/** M: the sender requires Markers in the FPDUs it receives (RFC 5044 §7.1.1). */
export declare const MPA_FLAG_MARKERS = 128;
/** C: the sender requires CRCs (RFC 5044 §7.1.1). */
export declare const MPA_FLAG_CRC = 64;
/** R: the responder rejects the connection (Reply only; RFC 5044 §7.1.1). */
export declare const MPA_FLAG_REJECT = 32;
/** S ("Enhanced"): RFC 6581 enhanced connection establishment; the PD starts with IRD/ORD. */
export declare const MPA_FLAG_ENHANCED = 16;
/** The remaining reserved bits: sent as zero, not checked (RFC 5044 §7.1.1). */
export declare const MPA_FLAG_RES_MASK = 15;
/**
 * softrdma's use of the lowest reserved bit: "this side speaks softrdma's RDMAP extensions"
 * (RFC 7306 atomics and Immediate Data, and the extended atomics). An Initiator sets it in its
 * Request; a softrdma Responder echoes it in an accepting Reply. Receivers that do not know it
 * ignore it (RFC 5044 §7.1.1: reserved bits are not checked). Linux siw uses bit 0x08 of the
 * same field for its own GSO experiment, which is why softrdma takes 0x01. See the spec-notes.
 */
export declare const MPA_RES_SOFTRDMA_EXT = 1;
/** Revision 1: RFC 5044. */
export declare const MPA_REVISION_1 = 1;
/** Revision 2: RFC 6581 (enhanced connection establishment capable). */
export declare const MPA_REVISION_2 = 2;
/** RFC 5044 §7.1.1: at most 512 octets of private data in a Request/Reply. */
export declare const MPA_MAX_PRIVATE_DATA = 512;
/** RFC 5044 §4.1: the ULPDU_LENGTH field is 2 octets. */
export declare const MPA_HDR_LEN = 2;
/** RFC 5044 §4.1: the CRC field is 4 octets (present, as zero, even when CRCs are off). */
export declare const MPA_CRC_LEN = 4;
/** RFC 5044 §4.2: a Marker is 4 octets. */
export declare const MPA_MARKER_LEN = 4;
/** RFC 5044 §4.3: a Marker every 512 octets of the TCP stream. */
export declare const MPA_MARKER_INTERVAL = 512;
/** The largest ULPDU_LENGTH the 16-bit field can carry. */
export declare const MPA_MAX_ULPDU = 65535;
/** RFC 6581 IRD/ORD word: IRD and ORD are 14-bit fields. */
export declare const MPA_IRD_ORD_MASK = 16383;
/** RFC 6581 control flag A (IRD word bit 15): peer-to-peer connection model, RTR needed. */
export declare const MPA_V2_PEER_TO_PEER = 32768;
/** RFC 6581 control flag B (IRD word bit 14): zero-length FULPDU (Send) RTR supported. */
export declare const MPA_V2_ZERO_LENGTH_RTR = 16384;
/** RFC 6581 control flag C (ORD word bit 15): zero-length RDMA Write RTR supported. */
export declare const MPA_V2_RDMA_WRITE_RTR = 32768;
/** RFC 6581 control flag D (ORD word bit 14): zero-length RDMA Read RTR supported. */
export declare const MPA_V2_RDMA_READ_RTR = 16384;
/** Length of the IRD/ORD word at the front of an enhanced frame's private data. */
export declare const MPA_V2_IRD_ORD_LEN = 4;
/** An MPA Request or Reply frame (RFC 5044 §7.1.1, RFC 6581). */
export interface MpaReqRep {
    /** Request ("MPA ID Req Frame") or Reply ("MPA ID Rep Frame"). */
    type: 'request' | 'reply';
    /** M: Markers required by the sender on its receive direction. */
    markers: boolean;
    /** C: CRC required. */
    crc: boolean;
    /** R: connection rejected (Reply). */
    reject: boolean;
    /** RFC 6581 enhanced connection establishment (only meaningful with revision 2). */
    enhanced: boolean;
    /** The four reserved flag bits as received (sent as zero). */
    res: number;
    /** Revision: 1 (RFC 5044) or 2 (RFC 6581). */
    revision: number;
    /** Private data, including the IRD/ORD word when `enhanced`. At most 512 octets. */
    privateData: Uint8Array;
}
/** Encodes a Request/Reply frame. Throws RangeError for values that cannot be encoded. */
export declare function encodeMpaReqRep(f: MpaReqRep): Uint8Array;
/** Result of {@link decodeMpaReqRep}: either more bytes are needed, or a complete frame. */
export type MpaReqRepDecodeResult = {
    status: 'need-more'; /** total octets needed before trying again */
    needed: number;
} | {
    status: 'frame';
    frame: MpaReqRep; /** octets of `buf` the frame occupied */
    consumed: number;
};
/**
 * Incrementally decodes a Request/Reply frame at the start of `buf`, which may hold only part of
 * it (or more: bytes after the frame are not looked at). Validation follows RFC 5044 §7.1.2: a
 * wrong key, an unknown revision or private data longer than 512 octets are fatal, reported as
 * LLP/MPA "Invalid MPA Request or Reply Frame" (0x04). The key is checked as soon as its first
 * octets arrive, so a peer that is not speaking MPA is rejected without waiting for 20 octets.
 *
 * @param expect the frame type this side is waiting for (an initiator expects a Reply); a frame
 *   of the other type is also an invalid frame. Omit to accept either.
 */
export declare function decodeMpaReqRep(buf: Uint8Array, expect?: 'request' | 'reply'): MpaReqRepDecodeResult;
/** One-line description of a Request/Reply frame, for logs and test names. */
export declare function stringifyMpaReqRep(f: MpaReqRep): string;
/**
 * The RFC 6581 §9.1 "Enhanced RDMA Connection Establishment" data: the first 4 octets of an
 * enhanced frame's private data, as two big-endian 16-bit words
 * `|A|B| IRD (14) | C|D| ORD (14) |`. Bit names follow RFC 6581; the constant names follow
 * Linux siw's `iwarp.h`.
 */
export interface MpaIrdOrd {
    /** Inbound RDMA Read queue depth (14 bits). */
    ird: number;
    /** Outbound RDMA Read queue depth (14 bits). */
    ord: number;
    /** A: peer-to-peer connection model; the initiator will send an RTR message (IRD bit 15). */
    peerToPeer: boolean;
    /** B: a zero-length FULPDU (Send) is acceptable as RTR (IRD bit 14). */
    zeroLengthSendRtr: boolean;
    /** C: a zero-length RDMA Write is acceptable as RTR (ORD bit 15). */
    zeroLengthWriteRtr: boolean;
    /** D: a zero-length RDMA Read is acceptable as RTR (ORD bit 14). */
    zeroLengthReadRtr: boolean;
}
/** Encodes the IRD/ORD word (4 octets). Throws RangeError if IRD or ORD exceed 14 bits. */
export declare function encodeMpaIrdOrd(p: MpaIrdOrd, out?: Uint8Array, offset?: number): Uint8Array;
/**
 * Decodes the IRD/ORD word at the front of `privateData`. A private data shorter than 4 octets
 * cannot be an enhanced frame: LLP/MPA "Invalid MPA Request or Reply Frame".
 */
export declare function decodeMpaIrdOrd(privateData: Uint8Array): MpaIrdOrd;
/** e.g. `IRD=16 ORD=16 P2P RTR=send,write`. */
export declare function stringifyMpaIrdOrd(p: MpaIrdOrd): string;
/**
 * Octets of PAD after a ULPDU of `ulpduLen` octets. RFC 5044 §4.1: PAD (0–3 octets) makes
 * ULPDU_LENGTH + ULPDU + PAD a multiple of 4, so every FPDU (and hence every CRC and Marker)
 * stays 4-octet aligned in the stream.
 */
export declare function mpaPadLength(ulpduLen: number): number;
/** Total octets of an FPDU carrying `ulpduLen` octets, without Markers. */
export declare function mpaFpduLength(ulpduLen: number): number;
/**
 * The 2-octet FPDU prefix: ULPDU_LENGTH, big-endian (RFC 5044 §4.1). It counts the ULPDU only,
 * not itself, the PAD, the CRC or any Markers.
 */
export declare function mpaFramePrefix(ulpduLen: number, out?: Uint8Array): Uint8Array;
/** Writes a CRC32C value as the FPDU's CRC field: little-endian, as Linux siw and Wireshark do. */
export declare function writeMpaCrc(out: Uint8Array, offset: number, crc: number): void;
/** Reads the FPDU's CRC field (see {@link writeMpaCrc}). */
export declare function readMpaCrc(buf: Uint8Array, offset: number): number;
/**
 * The FPDU trailer: PAD (zeros) and the CRC field, for a ULPDU given as `parts` (transmitted
 * after `prefix` from {@link mpaFramePrefix}). The ULPDU is only read, never copied, so the
 * transmit path can write `[prefix, ...parts, trailer]` as a gather list.
 *
 * RFC 5044 §4.4: the CRC covers ULPDU_LENGTH, ULPDU and PAD. With CRCs off the field is still
 * sent; this codec sends zeros.
 */
export declare function mpaTrailer(parts: readonly Uint8Array[], prefix: Uint8Array, crcOn: boolean): Uint8Array;
/** Options of the single-buffer FPDU codec. */
export interface FpduCodecOptions {
    /** CRCs negotiated (RFC 5044 §7.1.2: on if either side asked). */
    crc: boolean;
}
/** Encodes one FPDU (no Markers) into a new buffer. Convenience; the transmit path uses the gather API. */
export declare function encodeFpdu(ulpdu: Uint8Array, opts: FpduCodecOptions): Uint8Array;
/** Result of {@link decodeFpdu}. */
export type FpduDecodeResult = {
    status: 'need-more';
    needed: number;
} | {
    status: 'fpdu'; /** view into the input */
    ulpdu: Uint8Array;
    consumed: number;
};
/**
 * Decodes one FPDU (no Markers) at the start of `buf`. For whole buffers in tests and tools;
 * the receive path uses the streaming {@link FpduDeframer} from `deframer.ts`.
 *
 * @param maxUlpdu largest acceptable ULPDU_LENGTH; a larger one means framing is lost:
 *   LLP/MPA 0x03 (see docs/spec-notes.md).
 */
export declare function decodeFpdu(buf: Uint8Array, opts: FpduCodecOptions & {
    maxUlpdu?: number;
}): FpduDecodeResult;
/**
 * Marker layout, RFC 5044 §4.2: 16 reserved bits (zero) and the 16-bit FPDUPTR, the number of
 * octets from the start of the current FPDU's ULPDU_LENGTH field to the first octet of the
 * Marker (so 0 for a Marker immediately preceding an FPDU).
 */
export declare function encodeMpaMarker(fpduPtr: number, out?: Uint8Array, offset?: number): Uint8Array;
/** A decoded Marker (RFC 5044 §4.2). */
export interface MpaMarker {
    /** The 16 reserved bits (sent as zero, not checked). */
    rsvd: number;
    /** FPDUPTR: octets back from the Marker to the current FPDU's ULPDU_LENGTH field. */
    fpduPtr: number;
}
/** Decodes the Marker at `buf[offset]`; a truncated one is LLP/MPA 0x03 (framing lost). */
export declare function decodeMpaMarker(buf: Uint8Array, offset?: number): MpaMarker;
/** e.g. `Marker FPDUPTR=508`. */
export declare function stringifyMpaMarker(m: MpaMarker): string;
/**
 * Transmit-side Marker insertion (RFC 5044 §4.3).
 *
 * Stream offsets count octets of the MPA full-operation stream in one direction, Markers
 * included, starting at 0 with the first octet after this side's MPA Request/Reply frame.
 * RFC 5044 §4.3 places the first Marker immediately before the first FPDU (so it has
 * FPDUPTR 0) and one every 512 octets thereafter, i.e. at every offset ≡ 0 (mod 512).
 *
 * A Marker is emitted lazily, when the octet at its position is about to be sent, so a Marker
 * that falls exactly on an FPDU boundary precedes the next FPDU (FPDUPTR 0) and is covered by
 * that FPDU's CRC; a Marker between PAD and CRC belongs to the FPDU it is in and is covered by
 * its CRC (RFC 5044 §4.4: the CRC covers everything in the FPDU before the CRC field).
 */
export declare class MarkerInserter {
    #private;
    /** @param streamOffset offset of the next octet to send (a multiple of 4; 0 at FPDU-mode start). */
    constructor(streamOffset?: number);
    /** Stream offset of the next octet to be sent. */
    get streamOffset(): number;
    /** Stream offset of the ULPDU_LENGTH field of the FPDU being framed (or last framed). */
    get fpduStart(): number;
    /**
     * Frames one FPDU carrying `ulpduParts` and returns its wire segments in order: the ULPDU parts
     * (as zero-copy views) interleaved with small new buffers for the prefix, Markers, PAD and CRC.
     * Advances the stream offset.
     */
    frame(ulpduParts: readonly Uint8Array[], crcOn: boolean, out?: Uint8Array[]): Uint8Array[];
}
/**
 * Removes the Markers from a piece of an MPA stream that starts at `streamOffset` (see
 * {@link MarkerInserter} for the offset convention). Returns a new buffer. The piece must not
 * end inside a Marker. Mainly for tests and tools: the deframer strips Markers on the fly.
 */
export declare function removeMarkers(data: Uint8Array, streamOffset: number): Uint8Array;
/** Number of Markers that fall in `[streamOffset, streamOffset + length)`. */
export declare function countMarkers(streamOffset: number, length: number): number;

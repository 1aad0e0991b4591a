/**
 * MPA: Marker PDU Aligned framing for TCP (RFC 5044), with the Enhanced RDMA Connection
 * Establishment extension of RFC 6581.
 *
 * - MPA Request/Reply frames (RFC 5044 §7.1.1, RFC 6581) with an incremental decoder.
 * - The RFC 6581 IRD/ORD word carried at the front of the private data.
 * - FPDU framing (RFC 5044 §4.1): ULPDU_LENGTH, ULPDU, PAD, CRC — with a scatter/gather friendly
 *   transmit API that never copies the ULPDU.
 * - Markers (RFC 5044 §4.2/§4.3): insertion on transmit ({@link MarkerInserter}) and removal on
 *   receive ({@link removeMarkers}; the streaming deframer removes them itself).
 *
 * Pure codecs: no I/O, no timers.
 *
 * @packageDocumentation
 */
import { crc32c } from './crc32c.js';
import { MpaEcode, TerminateError } from './errors.js';

/** RFC 5044 §7.1.1: the 16-octet key of an MPA Request Frame, "MPA ID Req Frame". */
export const MPA_KEY_REQ: Uint8Array = Uint8Array.from([
  0x4d, 0x50, 0x41, 0x20, 0x49, 0x44, 0x20, 0x52, 0x65, 0x71, 0x20, 0x46, 0x72, 0x61, 0x6d, 0x65,
]);
/** RFC 5044 §7.1.1: the 16-octet key of an MPA Reply Frame, "MPA ID Rep Frame". */
export const MPA_KEY_REP: Uint8Array = Uint8Array.from([
  0x4d, 0x50, 0x41, 0x20, 0x49, 0x44, 0x20, 0x52, 0x65, 0x70, 0x20, 0x46, 0x72, 0x61, 0x6d, 0x65,
]);
/** Length of the key. */
export const MPA_KEY_LEN = 16;
/** Key + flags + revision + PD_Length: the fixed part of a Request/Reply frame (RFC 5044 §7.1.1). */
export const MPA_RR_HEADER_LEN = 20;
/** M: the sender requires Markers in the FPDUs it receives (RFC 5044 §7.1.1). */
export const MPA_FLAG_MARKERS = 0x80;
/** C: the sender requires CRCs (RFC 5044 §7.1.1). */
export const MPA_FLAG_CRC = 0x40;
/** R: the responder rejects the connection (Reply only; RFC 5044 §7.1.1). */
export const MPA_FLAG_REJECT = 0x20;
/** S ("Enhanced"): RFC 6581 enhanced connection establishment; the PD starts with IRD/ORD. */
export const MPA_FLAG_ENHANCED = 0x10;
/** The remaining reserved bits: sent as zero, not checked (RFC 5044 §7.1.1). */
export const MPA_FLAG_RES_MASK = 0x0f;
/**
 * softrdma's use of the lowest reserved bit: "this side speaks softrdma's RDMAP extensions"
 * (RFC 7306 atomics and Immediate Data, and the extended atomics). An Initiator sets it in its
 * Request; a softrdma Responder echoes it in an accepting Reply. Receivers that do not know it
 * ignore it (RFC 5044 §7.1.1: reserved bits are not checked). Linux siw uses bit 0x08 of the
 * same field for its own GSO experiment, which is why softrdma takes 0x01. See the spec-notes.
 */
export const MPA_RES_SOFTRDMA_EXT = 0x01;
/** Revision 1: RFC 5044. */
export const MPA_REVISION_1 = 1;
/** Revision 2: RFC 6581 (enhanced connection establishment capable). */
export const MPA_REVISION_2 = 2;
/** RFC 5044 §7.1.1: at most 512 octets of private data in a Request/Reply. */
export const MPA_MAX_PRIVATE_DATA = 512;

/** RFC 5044 §4.1: the ULPDU_LENGTH field is 2 octets. */
export const MPA_HDR_LEN = 2;
/** RFC 5044 §4.1: the CRC field is 4 octets (present, as zero, even when CRCs are off). */
export const MPA_CRC_LEN = 4;
/** RFC 5044 §4.2: a Marker is 4 octets. */
export const MPA_MARKER_LEN = 4;
/** RFC 5044 §4.3: a Marker every 512 octets of the TCP stream. */
export const MPA_MARKER_INTERVAL = 512;
/** The largest ULPDU_LENGTH the 16-bit field can carry. */
export const MPA_MAX_ULPDU = 0xffff;

/** RFC 6581 IRD/ORD word: IRD and ORD are 14-bit fields. */
export const MPA_IRD_ORD_MASK = 0x3fff;
/** RFC 6581 control flag A (IRD word bit 15): peer-to-peer connection model, RTR needed. */
export const MPA_V2_PEER_TO_PEER = 0x8000;
/** RFC 6581 control flag B (IRD word bit 14): zero-length FULPDU (Send) RTR supported. */
export const MPA_V2_ZERO_LENGTH_RTR = 0x4000;
/** RFC 6581 control flag C (ORD word bit 15): zero-length RDMA Write RTR supported. */
export const MPA_V2_RDMA_WRITE_RTR = 0x8000;
/** RFC 6581 control flag D (ORD word bit 14): zero-length RDMA Read RTR supported. */
export const MPA_V2_RDMA_READ_RTR = 0x4000;
/** Length of the IRD/ORD word at the front of an enhanced frame's private data. */
export const MPA_V2_IRD_ORD_LEN = 4;

// ---------------------------------------------------------------------------------------------
// Request / Reply frames
// ---------------------------------------------------------------------------------------------

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
export function encodeMpaReqRep(f: MpaReqRep): Uint8Array {
  if (f.privateData.length > MPA_MAX_PRIVATE_DATA) {
    throw new RangeError(`MPA private data is ${f.privateData.length} octets; RFC 5044 §7.1.1 allows 512`);
  }
  if (!Number.isInteger(f.revision) || f.revision < 0 || f.revision > 0xff) throw new RangeError('MPA revision');
  const out = new Uint8Array(MPA_RR_HEADER_LEN + f.privateData.length);
  out.set(f.type === 'request' ? MPA_KEY_REQ : MPA_KEY_REP, 0);
  out[16] =
    (f.markers ? MPA_FLAG_MARKERS : 0) |
    (f.crc ? MPA_FLAG_CRC : 0) |
    (f.reject ? MPA_FLAG_REJECT : 0) |
    (f.enhanced ? MPA_FLAG_ENHANCED : 0) |
    (f.res & MPA_FLAG_RES_MASK);
  out[17] = f.revision;
  out[18] = f.privateData.length >>> 8;
  out[19] = f.privateData.length & 0xff;
  out.set(f.privateData, MPA_RR_HEADER_LEN);
  return out;
}

/** Result of {@link decodeMpaReqRep}: either more bytes are needed, or a complete frame. */
export type MpaReqRepDecodeResult =
  | { status: 'need-more' /** total octets needed before trying again */; needed: number }
  | { status: 'frame'; frame: MpaReqRep /** octets of `buf` the frame occupied */; consumed: number };

function keyMismatch(buf: Uint8Array, key: Uint8Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (buf[i] !== key[i]) return true;
  return false;
}

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
export function decodeMpaReqRep(buf: Uint8Array, expect?: 'request' | 'reply'): MpaReqRepDecodeResult {
  const n = Math.min(buf.length, MPA_KEY_LEN);
  const badReq = expect === 'reply' || keyMismatch(buf, MPA_KEY_REQ, n);
  const badRep = expect === 'request' || keyMismatch(buf, MPA_KEY_REP, n);
  if (badReq && badRep) {
    throw TerminateError.mpa(MpaEcode.InvalidRequestReply, `not an MPA ${expect ?? 'Request/Reply'} key`);
  }
  if (buf.length < MPA_RR_HEADER_LEN) return { status: 'need-more', needed: MPA_RR_HEADER_LEN };
  const flags = buf[16]!;
  const revision = buf[17]!;
  // RFC 5044 §7.1.1 defines revision 1, RFC 6581 revision 2; anything else is not a frame we
  // can interpret (revision 0 is the pre-IETF RDMAC MPA of RFC 5044 Appendix C).
  if (revision !== MPA_REVISION_1 && revision !== MPA_REVISION_2) {
    throw TerminateError.mpa(MpaEcode.InvalidRequestReply, `unsupported MPA revision ${revision}`);
  }
  const pdLen = (buf[18]! << 8) | buf[19]!;
  if (pdLen > MPA_MAX_PRIVATE_DATA) {
    throw TerminateError.mpa(MpaEcode.InvalidRequestReply, `PD_Length ${pdLen} exceeds 512`);
  }
  const enhanced = (flags & MPA_FLAG_ENHANCED) !== 0;
  // RFC 6581: an enhanced frame's private data starts with the 4-octet IRD/ORD word.
  if (enhanced && revision === MPA_REVISION_2 && pdLen < MPA_V2_IRD_ORD_LEN) {
    throw TerminateError.mpa(MpaEcode.InvalidRequestReply, `enhanced frame with PD_Length ${pdLen} < 4`);
  }
  const total = MPA_RR_HEADER_LEN + pdLen;
  if (buf.length < total) return { status: 'need-more', needed: total };
  return {
    status: 'frame',
    consumed: total,
    frame: {
      type: badReq ? 'reply' : 'request',
      markers: (flags & MPA_FLAG_MARKERS) !== 0,
      crc: (flags & MPA_FLAG_CRC) !== 0,
      reject: (flags & MPA_FLAG_REJECT) !== 0,
      enhanced,
      res: flags & MPA_FLAG_RES_MASK,
      revision,
      privateData: buf.slice(MPA_RR_HEADER_LEN, total),
    },
  };
}

const hexBytes = (b: Uint8Array, max = 16): string =>
  Array.from(b.subarray(0, max), (x) => x.toString(16).padStart(2, '0')).join('') + (b.length > max ? '…' : '');

/** One-line description of a Request/Reply frame, for logs and test names. */
export function stringifyMpaReqRep(f: MpaReqRep): string {
  let s = `MPA ${f.type === 'request' ? 'Req' : 'Rep'} rev=${f.revision} M=${+f.markers} C=${+f.crc} R=${+f.reject} S=${+f.enhanced}`;
  if (f.res) s += ` res=0x${f.res.toString(16)}`;
  s += ` pd=${f.privateData.length}`;
  if (f.enhanced && f.privateData.length >= MPA_V2_IRD_ORD_LEN) {
    s += ` [${stringifyMpaIrdOrd(decodeMpaIrdOrd(f.privateData))}]`;
    if (f.privateData.length > MPA_V2_IRD_ORD_LEN) s += ` ulp=${hexBytes(f.privateData.subarray(MPA_V2_IRD_ORD_LEN))}`;
  } else if (f.privateData.length) {
    s += ` ${hexBytes(f.privateData)}`;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// RFC 6581 IRD/ORD word
// ---------------------------------------------------------------------------------------------

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
export function encodeMpaIrdOrd(p: MpaIrdOrd, out: Uint8Array = new Uint8Array(MPA_V2_IRD_ORD_LEN), offset = 0): Uint8Array {
  if (p.ird < 0 || p.ird > MPA_IRD_ORD_MASK || p.ord < 0 || p.ord > MPA_IRD_ORD_MASK) {
    throw new RangeError('RFC 6581 IRD and ORD are 14-bit values');
  }
  const ird = p.ird | (p.peerToPeer ? MPA_V2_PEER_TO_PEER : 0) | (p.zeroLengthSendRtr ? MPA_V2_ZERO_LENGTH_RTR : 0);
  const ord = p.ord | (p.zeroLengthWriteRtr ? MPA_V2_RDMA_WRITE_RTR : 0) | (p.zeroLengthReadRtr ? MPA_V2_RDMA_READ_RTR : 0);
  out[offset] = ird >>> 8;
  out[offset + 1] = ird & 0xff;
  out[offset + 2] = ord >>> 8;
  out[offset + 3] = ord & 0xff;
  return out;
}

/**
 * Decodes the IRD/ORD word at the front of `privateData`. A private data shorter than 4 octets
 * cannot be an enhanced frame: LLP/MPA "Invalid MPA Request or Reply Frame".
 */
export function decodeMpaIrdOrd(privateData: Uint8Array): MpaIrdOrd {
  if (privateData.length < MPA_V2_IRD_ORD_LEN) {
    throw TerminateError.mpa(MpaEcode.InvalidRequestReply, 'private data too short for the RFC 6581 IRD/ORD word');
  }
  const ird = (privateData[0]! << 8) | privateData[1]!;
  const ord = (privateData[2]! << 8) | privateData[3]!;
  return {
    ird: ird & MPA_IRD_ORD_MASK,
    ord: ord & MPA_IRD_ORD_MASK,
    peerToPeer: (ird & MPA_V2_PEER_TO_PEER) !== 0,
    zeroLengthSendRtr: (ird & MPA_V2_ZERO_LENGTH_RTR) !== 0,
    zeroLengthWriteRtr: (ord & MPA_V2_RDMA_WRITE_RTR) !== 0,
    zeroLengthReadRtr: (ord & MPA_V2_RDMA_READ_RTR) !== 0,
  };
}

/** e.g. `IRD=16 ORD=16 P2P RTR=send,write`. */
export function stringifyMpaIrdOrd(p: MpaIrdOrd): string {
  const rtr = [p.zeroLengthSendRtr && 'send', p.zeroLengthWriteRtr && 'write', p.zeroLengthReadRtr && 'read'].filter(Boolean);
  return `IRD=${p.ird} ORD=${p.ord}${p.peerToPeer ? ' P2P' : ''}${rtr.length ? ` RTR=${rtr.join(',')}` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// FPDU framing
// ---------------------------------------------------------------------------------------------

/**
 * Octets of PAD after a ULPDU of `ulpduLen` octets. RFC 5044 §4.1: PAD (0–3 octets) makes
 * ULPDU_LENGTH + ULPDU + PAD a multiple of 4, so every FPDU (and hence every CRC and Marker)
 * stays 4-octet aligned in the stream.
 */
export function mpaPadLength(ulpduLen: number): number {
  return -(ulpduLen + MPA_HDR_LEN) & 3;
}

/** Total octets of an FPDU carrying `ulpduLen` octets, without Markers. */
export function mpaFpduLength(ulpduLen: number): number {
  return MPA_HDR_LEN + ulpduLen + mpaPadLength(ulpduLen) + MPA_CRC_LEN;
}

function checkUlpduLen(len: number): void {
  if (!Number.isInteger(len) || len < 0 || len > MPA_MAX_ULPDU) {
    throw new RangeError(`ULPDU length ${len} does not fit MPA's 16-bit ULPDU_LENGTH (RFC 5044 §4.1)`);
  }
}

/**
 * The 2-octet FPDU prefix: ULPDU_LENGTH, big-endian (RFC 5044 §4.1). It counts the ULPDU only,
 * not itself, the PAD, the CRC or any Markers.
 */
export function mpaFramePrefix(ulpduLen: number, out: Uint8Array = new Uint8Array(MPA_HDR_LEN)): Uint8Array {
  checkUlpduLen(ulpduLen);
  out[0] = ulpduLen >>> 8;
  out[1] = ulpduLen & 0xff;
  return out;
}

/** Writes a CRC32C value as the FPDU's CRC field: little-endian, as Linux siw and Wireshark do. */
export function writeMpaCrc(out: Uint8Array, offset: number, crc: number): void {
  out[offset] = crc & 0xff;
  out[offset + 1] = (crc >>> 8) & 0xff;
  out[offset + 2] = (crc >>> 16) & 0xff;
  out[offset + 3] = crc >>> 24;
}

/** Reads the FPDU's CRC field (see {@link writeMpaCrc}). */
export function readMpaCrc(buf: Uint8Array, offset: number): number {
  return (buf[offset]! | (buf[offset + 1]! << 8) | (buf[offset + 2]! << 16) | (buf[offset + 3]! << 24)) >>> 0;
}

/**
 * The FPDU trailer: PAD (zeros) and the CRC field, for a ULPDU given as `parts` (transmitted
 * after `prefix` from {@link mpaFramePrefix}). The ULPDU is only read, never copied, so the
 * transmit path can write `[prefix, ...parts, trailer]` as a gather list.
 *
 * RFC 5044 §4.4: the CRC covers ULPDU_LENGTH, ULPDU and PAD. With CRCs off the field is still
 * sent; this codec sends zeros.
 */
export function mpaTrailer(parts: readonly Uint8Array[], prefix: Uint8Array, crcOn: boolean): Uint8Array {
  let len = 0;
  for (const p of parts) len += p.length;
  const pad = mpaPadLength(len);
  const out = new Uint8Array(pad + MPA_CRC_LEN);
  if (crcOn) {
    let c = crc32c(prefix);
    for (const p of parts) c = crc32c(p, c);
    if (pad) c = crc32c(out.subarray(0, pad), c);
    writeMpaCrc(out, pad, c);
  }
  return out;
}

/** Options of the single-buffer FPDU codec. */
export interface FpduCodecOptions {
  /** CRCs negotiated (RFC 5044 §7.1.2: on if either side asked). */
  crc: boolean;
}

/** Encodes one FPDU (no Markers) into a new buffer. Convenience; the transmit path uses the gather API. */
export function encodeFpdu(ulpdu: Uint8Array, opts: FpduCodecOptions): Uint8Array {
  const prefix = mpaFramePrefix(ulpdu.length);
  const trailer = mpaTrailer([ulpdu], prefix, opts.crc);
  const out = new Uint8Array(MPA_HDR_LEN + ulpdu.length + trailer.length);
  out.set(prefix, 0);
  out.set(ulpdu, MPA_HDR_LEN);
  out.set(trailer, MPA_HDR_LEN + ulpdu.length);
  return out;
}

/** Result of {@link decodeFpdu}. */
export type FpduDecodeResult =
  | { status: 'need-more'; needed: number }
  | { status: 'fpdu' /** view into the input */; ulpdu: Uint8Array; consumed: number };

/**
 * Decodes one FPDU (no Markers) at the start of `buf`. For whole buffers in tests and tools;
 * the receive path uses the streaming {@link FpduDeframer} from `deframer.ts`.
 *
 * @param maxUlpdu largest acceptable ULPDU_LENGTH; a larger one means framing is lost:
 *   LLP/MPA 0x03 (see docs/spec-notes.md).
 */
export function decodeFpdu(buf: Uint8Array, opts: FpduCodecOptions & { maxUlpdu?: number }): FpduDecodeResult {
  if (buf.length < MPA_HDR_LEN) return { status: 'need-more', needed: MPA_HDR_LEN };
  const len = (buf[0]! << 8) | buf[1]!;
  if (len > (opts.maxUlpdu ?? MPA_MAX_ULPDU)) {
    throw TerminateError.mpa(MpaEcode.MarkerMismatch, `ULPDU_LENGTH ${len} exceeds the maximum ${opts.maxUlpdu}`);
  }
  const total = mpaFpduLength(len);
  if (buf.length < total) return { status: 'need-more', needed: total };
  if (opts.crc) {
    const crcAt = total - MPA_CRC_LEN;
    const want = crc32c(buf.subarray(0, crcAt));
    const got = readMpaCrc(buf, crcAt);
    if (want !== got) throw TerminateError.mpa(MpaEcode.CrcError, `CRC 0x${got.toString(16)} != 0x${want.toString(16)}`);
  }
  return { status: 'fpdu', ulpdu: buf.subarray(MPA_HDR_LEN, MPA_HDR_LEN + len), consumed: total };
}

// ---------------------------------------------------------------------------------------------
// Markers
// ---------------------------------------------------------------------------------------------

/**
 * Marker layout, RFC 5044 §4.2: 16 reserved bits (zero) and the 16-bit FPDUPTR, the number of
 * octets from the start of the current FPDU's ULPDU_LENGTH field to the first octet of the
 * Marker (so 0 for a Marker immediately preceding an FPDU).
 */
export function encodeMpaMarker(fpduPtr: number, out: Uint8Array = new Uint8Array(MPA_MARKER_LEN), offset = 0): Uint8Array {
  if (fpduPtr < 0 || fpduPtr > 0xffff) throw new RangeError(`FPDUPTR ${fpduPtr} does not fit 16 bits`);
  out[offset] = 0;
  out[offset + 1] = 0;
  out[offset + 2] = fpduPtr >>> 8;
  out[offset + 3] = fpduPtr & 0xff;
  return out;
}

/** A decoded Marker (RFC 5044 §4.2). */
export interface MpaMarker {
  /** The 16 reserved bits (sent as zero, not checked). */
  rsvd: number;
  /** FPDUPTR: octets back from the Marker to the current FPDU's ULPDU_LENGTH field. */
  fpduPtr: number;
}

/** Decodes the Marker at `buf[offset]`; a truncated one is LLP/MPA 0x03 (framing lost). */
export function decodeMpaMarker(buf: Uint8Array, offset = 0): MpaMarker {
  if (buf.length - offset < MPA_MARKER_LEN) throw TerminateError.mpa(MpaEcode.MarkerMismatch, 'truncated Marker');
  return { rsvd: (buf[offset]! << 8) | buf[offset + 1]!, fpduPtr: (buf[offset + 2]! << 8) | buf[offset + 3]! };
}

/** e.g. `Marker FPDUPTR=508`. */
export function stringifyMpaMarker(m: MpaMarker): string {
  return `Marker FPDUPTR=${m.fpduPtr}${m.rsvd ? ` rsvd=0x${m.rsvd.toString(16)}` : ''}`;
}

function checkStreamOffset(off: number): void {
  // FPDUs are multiples of 4 octets and the marker grid starts at the first FPDU, so every
  // meaningful position is 4-aligned; an unaligned one would let a Marker split a field.
  if (!Number.isSafeInteger(off) || off < 0 || off % 4 !== 0) {
    throw new RangeError(`MPA stream offset ${off} must be a non-negative multiple of 4`);
  }
}

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
export class MarkerInserter {
  #pos: number;
  #hdrPos = -1;

  /** @param streamOffset offset of the next octet to send (a multiple of 4; 0 at FPDU-mode start). */
  constructor(streamOffset = 0) {
    checkStreamOffset(streamOffset);
    this.#pos = streamOffset;
  }

  /** Stream offset of the next octet to be sent. */
  get streamOffset(): number {
    return this.#pos;
  }

  /** Stream offset of the ULPDU_LENGTH field of the FPDU being framed (or last framed). */
  get fpduStart(): number {
    return this.#hdrPos;
  }

  #markerDue(): boolean {
    return this.#pos % MPA_MARKER_INTERVAL === 0;
  }

  #pushMarker(out: Uint8Array[], fpduPtr: number): void {
    out.push(encodeMpaMarker(fpduPtr));
    this.#pos += MPA_MARKER_LEN;
  }

  #emit(data: Uint8Array, out: Uint8Array[]): void {
    let i = 0;
    while (i < data.length) {
      if (this.#markerDue()) this.#pushMarker(out, this.#pos - this.#hdrPos);
      const room = MPA_MARKER_INTERVAL - (this.#pos % MPA_MARKER_INTERVAL);
      const n = Math.min(room, data.length - i);
      out.push(i === 0 && n === data.length ? data : data.subarray(i, i + n));
      this.#pos += n;
      i += n;
    }
  }

  /**
   * Frames one FPDU carrying `ulpduParts` and returns its wire segments in order: the ULPDU parts
   * (as zero-copy views) interleaved with small new buffers for the prefix, Markers, PAD and CRC.
   * Advances the stream offset.
   */
  frame(ulpduParts: readonly Uint8Array[], crcOn: boolean, out: Uint8Array[] = []): Uint8Array[] {
    let len = 0;
    for (const p of ulpduParts) len += p.length;
    const prefix = mpaFramePrefix(len);
    const first = out.length;
    // A Marker due at the FPDU's first octet precedes ULPDU_LENGTH and points at it (FPDUPTR 0).
    if (this.#markerDue()) this.#pushMarker(out, 0);
    this.#hdrPos = this.#pos;
    this.#emit(prefix, out);
    for (const p of ulpduParts) if (p.length) this.#emit(p, out);
    const pad = mpaPadLength(len);
    const tail = new Uint8Array(pad + MPA_CRC_LEN);
    if (pad) this.#emit(tail.subarray(0, pad), out);
    // A Marker due at the CRC field lies inside this FPDU: send it before computing the CRC.
    if (this.#markerDue()) this.#pushMarker(out, this.#pos - this.#hdrPos);
    if (crcOn) {
      let c = 0;
      for (let i = first; i < out.length; i++) c = crc32c(out[i]!, c);
      writeMpaCrc(tail, pad, c);
    }
    // 4-aligned CRC at a position that is not a Marker position: it cannot straddle one.
    out.push(tail.subarray(pad));
    this.#pos += MPA_CRC_LEN;
    return out;
  }
}

/**
 * Removes the Markers from a piece of an MPA stream that starts at `streamOffset` (see
 * {@link MarkerInserter} for the offset convention). Returns a new buffer. The piece must not
 * end inside a Marker. Mainly for tests and tools: the deframer strips Markers on the fly.
 */
export function removeMarkers(data: Uint8Array, streamOffset: number): Uint8Array {
  checkStreamOffset(streamOffset);
  const out = new Uint8Array(data.length);
  let o = 0;
  let i = 0;
  let pos = streamOffset;
  while (i < data.length) {
    if (pos % MPA_MARKER_INTERVAL === 0) {
      if (data.length - i < MPA_MARKER_LEN) throw new RangeError('data ends inside a Marker');
      i += MPA_MARKER_LEN;
      pos += MPA_MARKER_LEN;
      continue;
    }
    const n = Math.min(MPA_MARKER_INTERVAL - (pos % MPA_MARKER_INTERVAL), data.length - i);
    out.set(data.subarray(i, i + n), o);
    o += n;
    i += n;
    pos += n;
  }
  return out.slice(0, o);
}

/** Number of Markers that fall in `[streamOffset, streamOffset + length)`. */
export function countMarkers(streamOffset: number, length: number): number {
  if (length <= 0) return 0;
  const first = Math.ceil(streamOffset / MPA_MARKER_INTERVAL) * MPA_MARKER_INTERVAL;
  const last = streamOffset + length - 1;
  return first > last ? 0 : Math.floor((last - first) / MPA_MARKER_INTERVAL) + 1;
}

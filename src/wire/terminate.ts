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
import {
  DDP_FLAG_TAGGED,
  DDP_TAGGED_HDR_LEN,
  DDP_UNTAGGED_HDR_LEN,
  DDP_VERSION,
  DdpQueue,
  type DdpUntaggedHeader,
  decodeDdpHeader,
  stringifyDdpHeader,
} from './ddp.js';
import { RdmapEcode, RdmapEtype, stringifyTermCode, TerminateError } from './errors.js';
import {
  decodeRdmapHeader,
  encodeRdmapHeader,
  RDMAP_READ_REQ_HDR_LEN,
  RDMAP_VERSION,
  RdmapOpcode,
  type ReadRequestHeader,
} from './rdmap.js';

/** Terminate Control length (RFC 5040 §4.8). */
export const TERM_CTRL_LEN = 4;
/** M: DDP Segment Length valid (RFC 5040 §4.8). */
export const TERM_HDRCT_M = 0x80;
/** D: Terminated DDP Header included (RFC 5040 §4.8). */
export const TERM_HDRCT_D = 0x40;
/** R: Terminated RDMA Header included (RFC 5040 §4.8). */
export const TERM_HDRCT_R = 0x20;
/** Length of the DDP Segment Length field. */
export const TERM_DDP_SEGLEN_LEN = 2;
/** The largest Terminate header: control, segment length, untagged DDP header, Read Request header. */
export const TERM_MAX_LEN = TERM_CTRL_LEN + TERM_DDP_SEGLEN_LEN + DDP_UNTAGGED_HDR_LEN + RDMAP_READ_REQ_HDR_LEN;

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

function hasSegLen(t: { m: boolean; d: boolean }): boolean {
  return t.m || t.d;
}

/** Octets {@link encodeTerminate} writes for `t`. */
export function terminateLength(t: TerminateHeader): number {
  return (
    TERM_CTRL_LEN + (hasSegLen(t) ? TERM_DDP_SEGLEN_LEN : 0) + (t.d ? (t.ddpHeader?.length ?? 0) : 0) + (t.r ? RDMAP_READ_REQ_HDR_LEN : 0)
  );
}

/** Encodes the Terminate header (the part after the DDP/RDMAP header). RangeError on bad fields. */
export function encodeTerminate(t: TerminateHeader, out?: Uint8Array, offset = 0): Uint8Array {
  if (t.layer < 0 || t.layer > 0xf || t.etype < 0 || t.etype > 0xf || t.ecode < 0 || t.ecode > 0xff) {
    throw new RangeError('Terminate Layer/EType are 4 bits, Error Code 8 bits');
  }
  if (t.rsvd < 0 || t.rsvd > 0x1fff) throw new RangeError('Terminate reserved field is 13 bits');
  if (t.d) {
    const h = t.ddpHeader;
    if (!h || h.length !== ddpHeaderLengthOf(h)) {
      throw new RangeError('D set: ddpHeader must be a 14-octet tagged or 18-octet untagged DDP header');
    }
  }
  if (t.r && t.rdmaHeader?.length !== RDMAP_READ_REQ_HDR_LEN) {
    throw new RangeError('R set: rdmaHeader must be the 28-octet RDMA Read Request header');
  }
  const len = terminateLength(t);
  const buf = out ?? new Uint8Array(len);
  if (buf.length - offset < len) throw new RangeError('buffer too small for the Terminate header');
  let o = offset;
  buf[o++] = (t.layer << 4) | t.etype;
  buf[o++] = t.ecode;
  const hdrct = (t.m ? TERM_HDRCT_M : 0) | (t.d ? TERM_HDRCT_D : 0) | (t.r ? TERM_HDRCT_R : 0);
  buf[o++] = hdrct | (t.rsvd >>> 8);
  buf[o++] = t.rsvd & 0xff;
  if (hasSegLen(t)) {
    const sl = t.ddpSegmentLength ?? 0;
    if (sl < 0 || sl > 0xffff) throw new RangeError('DDP Segment Length is 16 bits');
    buf[o++] = sl >>> 8;
    buf[o++] = sl & 0xff;
  }
  if (t.d) {
    buf.set(t.ddpHeader!, o);
    o += t.ddpHeader!.length;
  }
  if (t.r) buf.set(t.rdmaHeader!, o);
  return buf;
}

function ddpHeaderLengthOf(h: Uint8Array): number {
  return h.length > 0 && h[0]! & DDP_FLAG_TAGGED ? DDP_TAGGED_HDR_LEN : DDP_UNTAGGED_HDR_LEN;
}

function truncated(detail: string): TerminateError {
  return TerminateError.rdmap(RdmapEtype.RemoteOperation, RdmapEcode.Unspecified, `Terminate header truncated: ${detail}`);
}

/**
 * Decodes a Terminate header at `buf[offset .. offset+length)`. The copied headers are returned
 * as copies of the raw octets (they may be exactly what was malformed). A header shorter than
 * its HdrCt bits announce throws RDMAP/Remote Operation/Unspecified.
 */
export function decodeTerminate(buf: Uint8Array, offset = 0, length = buf.length - offset): TerminateHeader {
  if (length < TERM_CTRL_LEN) throw truncated(`${length} < 4 octets of Terminate Control`);
  let o = offset;
  const end = offset + length;
  const b0 = buf[o]!;
  const b2 = buf[o + 2]!;
  const t: TerminateHeader = {
    layer: b0 >>> 4,
    etype: b0 & 0xf,
    ecode: buf[o + 1]!,
    m: (b2 & TERM_HDRCT_M) !== 0,
    d: (b2 & TERM_HDRCT_D) !== 0,
    r: (b2 & TERM_HDRCT_R) !== 0,
    rsvd: ((b2 & 0x1f) << 8) | buf[o + 3]!,
  };
  o += TERM_CTRL_LEN;
  if (hasSegLen(t)) {
    if (end - o < TERM_DDP_SEGLEN_LEN) throw truncated('no DDP Segment Length');
    t.ddpSegmentLength = (buf[o]! << 8) | buf[o + 1]!;
    o += TERM_DDP_SEGLEN_LEN;
  }
  if (t.d) {
    if (end - o < 1) throw truncated('no Terminated DDP Header');
    const n = ddpHeaderLengthOf(buf.subarray(o, o + 1));
    if (end - o < n) throw truncated(`Terminated DDP Header shorter than ${n} octets`);
    t.ddpHeader = buf.slice(o, o + n);
    o += n;
  }
  if (t.r) {
    if (end - o < RDMAP_READ_REQ_HDR_LEN) throw truncated('Terminated RDMA Header shorter than 28 octets');
    t.rdmaHeader = buf.slice(o, o + RDMAP_READ_REQ_HDR_LEN);
  }
  return t;
}

/**
 * A complete Terminate message ULPDU (RFC 5040 §4.8, §5.1): untagged DDP header with L=1 on the
 * Terminate queue (QN 2), MO 0 and the given MSN (the Terminate queue's MSNs start at 1), RDMAP
 * OpCode Terminate, then the Terminate header.
 */
export function encodeTerminateMessage(t: TerminateHeader, msn = 1): Uint8Array {
  const hdr: DdpUntaggedHeader = {
    tagged: false,
    last: true,
    rsvd: 0,
    version: DDP_VERSION,
    rsvdUlp: 0,
    rsvdUlp32: 0,
    qn: DdpQueue.Terminate,
    msn,
    mo: 0,
  };
  const out = new Uint8Array(DDP_UNTAGGED_HDR_LEN + terminateLength(t));
  encodeRdmapHeader({ ddp: hdr, version: RDMAP_VERSION, rsvd: 0, opcode: RdmapOpcode.Terminate }, out, 0);
  encodeTerminate(t, out, DDP_UNTAGGED_HDR_LEN);
  return out;
}

/** Decodes a whole Terminate message ULPDU (DDP + RDMAP headers, then the Terminate header). */
export function decodeTerminateMessage(ulpdu: Uint8Array): { ddp: DdpUntaggedHeader; terminate: TerminateHeader } {
  const { header, headerLength } = decodeRdmapHeader(ulpdu);
  if (header.opcode !== RdmapOpcode.Terminate || header.ddp.tagged) {
    throw TerminateError.rdmap(RdmapEtype.RemoteOperation, RdmapEcode.UnexpectedOpcode, 'not a Terminate message');
  }
  return { ddp: header.ddp, terminate: decodeTerminate(ulpdu, headerLength) };
}

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
export function buildTerminate(err: TerminateError, segment?: Uint8Array, segmentLength = segment?.length ?? 0): TerminateHeader {
  const t: TerminateHeader = { layer: err.layer, etype: err.etype, ecode: err.ecode, m: false, d: false, r: false, rsvd: 0 };
  if (!segment || segment.length === 0) return t;
  t.m = true;
  t.ddpSegmentLength = segmentLength & 0xffff;
  const n = ddpHeaderLengthOf(segment);
  if (segment.length >= n) {
    t.d = true;
    t.ddpHeader = segment.slice(0, n);
    const isReadReq = n === DDP_UNTAGGED_HDR_LEN && (segment[1]! & 0x0f) === RdmapOpcode.ReadRequest;
    if (isReadReq && segment.length >= n + RDMAP_READ_REQ_HDR_LEN) {
      t.r = true;
      t.rdmaHeader = segment.slice(n, n + RDMAP_READ_REQ_HDR_LEN);
    }
  }
  return t;
}

/** Decodes a copied RDMA header as the Read Request header it is. */
export function decodeTerminatedReadRequest(rdmaHeader: Uint8Array): ReadRequestHeader {
  // Found by `npm run fuzz`: a short header threw a RangeError out of the DataView.
  if (rdmaHeader.length < RDMAP_READ_REQ_HDR_LEN) {
    throw TerminateError.rdmap(
      RdmapEtype.RemoteOperation,
      RdmapEcode.Unspecified,
      `copied Read Request header of ${rdmaHeader.length} octets`,
    );
  }
  const dv = new DataView(rdmaHeader.buffer, rdmaHeader.byteOffset, RDMAP_READ_REQ_HDR_LEN);
  return {
    sinkStag: dv.getUint32(0),
    sinkTo: dv.getBigUint64(4),
    size: dv.getUint32(12),
    srcStag: dv.getUint32(16),
    srcTo: dv.getBigUint64(20),
  };
}

/** One-line description, e.g. `Terminate LLP/MPA/CRC error (0x02/0x00/0x02) M D len=64 [DDP …]`. */
export function stringifyTerminate(t: TerminateHeader): string {
  let s = `Terminate ${stringifyTermCode(t.layer, t.etype, t.ecode)}`;
  if (t.m) s += ' M';
  if (t.d) s += ' D';
  if (t.r) s += ' R';
  if (t.rsvd) s += ` rsvd=0x${t.rsvd.toString(16)}`;
  if (t.ddpSegmentLength !== undefined) s += ` len=${t.ddpSegmentLength}`;
  if (t.ddpHeader) {
    try {
      s += ` [${stringifyDdpHeader(decodeDdpHeader(t.ddpHeader))}]`;
    } catch {
      s += ` [DDP ${Array.from(t.ddpHeader, (x) => x.toString(16).padStart(2, '0')).join('')}]`;
    }
  }
  if (t.rdmaHeader) {
    const r = decodeTerminatedReadRequest(t.rdmaHeader);
    s += ` [RR sink=0x${r.sinkStag.toString(16)}@0x${r.sinkTo.toString(16)} size=${r.size} src=0x${r.srcStag.toString(16)}@0x${r.srcTo.toString(16)}]`;
  }
  return s;
}

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
export enum DdpQueue {
  /** Send, Send with Invalidate, Send with SE (and Invalidate); RFC 7306 Immediate Data. */
  Send = 0,
  /** RDMA Read Request; RFC 7306 Atomic Request. */
  ReadRequest = 1,
  /** Terminate. */
  Terminate = 2,
  /** RFC 7306 Atomic Response. */
  AtomicResponse = 3,
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
export function ddpHeaderLength(ctrl: number): number {
  return ctrl & DDP_FLAG_TAGGED ? DDP_TAGGED_HDR_LEN : DDP_UNTAGGED_HDR_LEN;
}

const U64 = (1n << 64n) - 1n;

function u32(name: string, v: number): number {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`${name} ${v} is not a uint32`);
  return v;
}

/**
 * Encodes a DDP header into `out` at `offset` (default: a new buffer of the exact size).
 * Returns `out`. Throws RangeError for values that do not fit their fields.
 */
export function encodeDdpHeader(h: DdpHeader, out?: Uint8Array, offset = 0): Uint8Array {
  const len = h.tagged ? DDP_TAGGED_HDR_LEN : DDP_UNTAGGED_HDR_LEN;
  const buf = out ?? new Uint8Array(len);
  if (buf.length - offset < len) throw new RangeError('buffer too small for the DDP header');
  const dv = new DataView(buf.buffer, buf.byteOffset + offset, len);
  dv.setUint8(0, (h.tagged ? DDP_FLAG_TAGGED : 0) | (h.last ? DDP_FLAG_LAST : 0) | ((h.rsvd & 0xf) << 2) | (h.version & DDP_DV_MASK));
  dv.setUint8(1, h.rsvdUlp & 0xff);
  if (h.tagged) {
    if (h.to < 0n || h.to > U64) throw new RangeError('TO is not a uint64');
    dv.setUint32(2, u32('STag', h.stag));
    dv.setBigUint64(6, h.to);
  } else {
    dv.setUint32(2, u32('RsvdULP', h.rsvdUlp32));
    dv.setUint32(6, u32('QN', h.qn));
    dv.setUint32(10, u32('MSN', h.msn));
    dv.setUint32(14, u32('MO', h.mo));
  }
  return buf;
}

/**
 * The checks every DDP segment passes before its header is read (RFC 5041 §7): not empty, DDP
 * version 1 ("Invalid DDP version", Tagged 0x04 or Untagged 0x06 by the T flag: with another
 * version the rest of the header cannot be interpreted), and long enough for the header its T flag
 * announces (else a DDP local catastrophic error: the segment cannot be placed at all).
 * Returns the T flag.
 */
export function checkDdpSegment(buf: Uint8Array, offset: number, length: number): boolean {
  if (length < 1) throw TerminateError.ddpCatastrophic('empty DDP segment');
  const ctrl = buf[offset]!;
  const tagged = (ctrl & DDP_FLAG_TAGGED) !== 0;
  if ((ctrl & DDP_DV_MASK) !== DDP_VERSION) {
    const detail = `DDP version ${ctrl & DDP_DV_MASK}`;
    throw tagged
      ? TerminateError.ddpTagged(DdpTaggedEcode.InvalidVersion, detail)
      : TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidVersion, detail);
  }
  const need = tagged ? DDP_TAGGED_HDR_LEN : DDP_UNTAGGED_HDR_LEN;
  if (length < need) throw TerminateError.ddpCatastrophic(`DDP segment of ${length} octets is shorter than its ${need}-octet header`);
  return tagged;
}

/**
 * Decodes the DDP header of the segment at `buf[offset .. offset+length)` (`length` defaults to
 * the rest of `buf`: the ULPDU as delivered by MPA).
 *
 * Errors (RFC 5041 §7): a DDP version other than 1 is DDP / Tagged (0x04) or Untagged (0x06)
 * "Invalid DDP version", chosen by the T flag; a segment too short for its header cannot be
 * placed at all and is reported as a DDP local catastrophic error.
 */
export function decodeDdpHeader(buf: Uint8Array, offset = 0, length = buf.length - offset): DdpHeader {
  const tagged = checkDdpSegment(buf, offset, length);
  const ctrl = buf[offset]!;
  const need = tagged ? DDP_TAGGED_HDR_LEN : DDP_UNTAGGED_HDR_LEN;
  const dv = new DataView(buf.buffer, buf.byteOffset + offset, need);
  const common = {
    last: (ctrl & DDP_FLAG_LAST) !== 0,
    rsvd: (ctrl & DDP_RSVD_MASK) >>> 2,
    version: ctrl & DDP_DV_MASK,
    rsvdUlp: dv.getUint8(1),
  };
  if (tagged) return { tagged: true, ...common, stag: dv.getUint32(2), to: dv.getBigUint64(6) };
  return {
    tagged: false,
    ...common,
    rsvdUlp32: dv.getUint32(2),
    qn: dv.getUint32(6),
    msn: dv.getUint32(10),
    mo: dv.getUint32(14),
  };
}

const h32 = (v: number): string => `0x${v.toString(16).padStart(8, '0')}`;

/** e.g. `DDP T L STag=0x00001234 TO=0x1000` or `DDP U QN=0 MSN=1 MO=0`. */
export function stringifyDdpHeader(h: DdpHeader): string {
  let s = `DDP ${h.tagged ? 'T' : 'U'}${h.last ? ' L' : ''}`;
  if (h.version !== DDP_VERSION) s += ` DV=${h.version}`;
  if (h.rsvd) s += ` rsvd=0x${h.rsvd.toString(16)}`;
  s += ` ulp=0x${h.rsvdUlp.toString(16).padStart(2, '0')}`;
  if (h.tagged) return `${s} STag=${h32(h.stag)} TO=0x${h.to.toString(16)}`;
  return `${s}${h.rsvdUlp32 ? ` ulp32=${h32(h.rsvdUlp32)}` : ''} QN=${h.qn} MSN=${h.msn} MO=${h.mo}`;
}

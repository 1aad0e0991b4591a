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
import {
  checkDdpSegment,
  DDP_DV_MASK,
  DDP_FLAG_LAST,
  DDP_FLAG_TAGGED,
  DDP_RSVD_MASK,
  DDP_TAGGED_HDR_LEN,
  DDP_UNTAGGED_HDR_LEN,
  DDP_VERSION,
  type DdpHeader,
  DdpQueue,
  encodeDdpHeader,
  stringifyDdpHeader,
} from './ddp.js';
import { DdpUntaggedEcode, RdmapEcode, RdmapEtype, TerminateError } from './errors.js';

/** RFC 5040 §4.1: RDMAP version (RV = 01b). */
export const RDMAP_VERSION = 1;
/** RV bits of the RDMAP control octet. */
export const RDMAP_RV_MASK = 0xc0;
/** Reserved bits of the RDMAP control octet (sent as zero, not checked). */
export const RDMAP_RSVD_MASK = 0x30;
/** OpCode bits of the RDMAP control octet. */
export const RDMAP_OPCODE_MASK = 0x0f;
/** RFC 5040 §4.4: RDMA Read Request header length. */
export const RDMAP_READ_REQ_HDR_LEN = 28;
/** RFC 7306: Immediate Data header length (64 bits of data). */
export const RDMAP_IMMEDIATE_HDR_LEN = 8;
/** RFC 7306: Atomic Request header length. */
export const RDMAP_ATOMIC_REQ_HDR_LEN = 52;
/** RFC 7306: Atomic Response header length. */
export const RDMAP_ATOMIC_RESP_HDR_LEN = 12;

/** RDMAP OpCodes: RFC 5040 §4.2 (0–7) and RFC 7306 (8–11). 12–15 are reserved. */
export enum RdmapOpcode {
  Write = 0x0,
  ReadRequest = 0x1,
  ReadResponse = 0x2,
  Send = 0x3,
  SendInvalidate = 0x4,
  SendSE = 0x5,
  SendSEInvalidate = 0x6,
  Terminate = 0x7,
  /** RFC 7306 Immediate Data. */
  ImmediateData = 0x8,
  /** RFC 7306 Immediate Data with Solicited Event. */
  ImmediateDataSE = 0x9,
  /** RFC 7306 Atomic Request. */
  AtomicRequest = 0xa,
  /** RFC 7306 Atomic Response. */
  AtomicResponse = 0xb,
}

/** RFC 7306 Atomic Operation codes (4-bit AOpCode of the Atomic Request header). */
export enum AtomicOpcode {
  FetchAdd = 0x0,
  Swap = 0x1,
  CompareSwap = 0x2,
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

function op(
  opcode: RdmapOpcode,
  name: string,
  qn: DdpQueue | null,
  rdmapHeaderLength: number,
  payload: boolean,
  flags: { invalidate?: boolean; solicited?: boolean } = {},
): RdmapOpInfo {
  const tagged = qn === null;
  return Object.freeze({
    opcode,
    name,
    tagged,
    qn,
    rdmapHeaderLength,
    headerLength: (tagged ? DDP_TAGGED_HDR_LEN : DDP_UNTAGGED_HDR_LEN) + rdmapHeaderLength,
    payload,
    invalidate: flags.invalidate ?? false,
    solicited: flags.solicited ?? false,
    rfc: opcode >= RdmapOpcode.ImmediateData ? 7306 : 5040,
  });
}

/**
 * Per-opcode table indexed by the 4-bit OpCode (undefined for the reserved 12–15).
 * RFC 5040 §4.2 Table "RDMA Usage of DDP Fields" and RFC 7306's additions (§3: Immediate Data on
 * QN 0, Atomic Request on QN 1 sharing the RDMA Read Request queue, Atomic Response on QN 3).
 */
export const RDMAP_OPCODES: readonly (RdmapOpInfo | undefined)[] = Object.freeze([
  op(RdmapOpcode.Write, 'Write', null, 0, true),
  op(RdmapOpcode.ReadRequest, 'Read Request', DdpQueue.ReadRequest, RDMAP_READ_REQ_HDR_LEN, false),
  op(RdmapOpcode.ReadResponse, 'Read Response', null, 0, true),
  op(RdmapOpcode.Send, 'Send', DdpQueue.Send, 0, true),
  op(RdmapOpcode.SendInvalidate, 'Send with Invalidate', DdpQueue.Send, 0, true, { invalidate: true }),
  op(RdmapOpcode.SendSE, 'Send with SE', DdpQueue.Send, 0, true, { solicited: true }),
  op(RdmapOpcode.SendSEInvalidate, 'Send with SE and Invalidate', DdpQueue.Send, 0, true, {
    invalidate: true,
    solicited: true,
  }),
  op(RdmapOpcode.Terminate, 'Terminate', DdpQueue.Terminate, 0, false),
  op(RdmapOpcode.ImmediateData, 'Immediate Data', DdpQueue.Send, RDMAP_IMMEDIATE_HDR_LEN, false),
  op(RdmapOpcode.ImmediateDataSE, 'Immediate Data with SE', DdpQueue.Send, RDMAP_IMMEDIATE_HDR_LEN, false, {
    solicited: true,
  }),
  op(RdmapOpcode.AtomicRequest, 'Atomic Request', DdpQueue.ReadRequest, RDMAP_ATOMIC_REQ_HDR_LEN, false),
  op(RdmapOpcode.AtomicResponse, 'Atomic Response', DdpQueue.AtomicResponse, RDMAP_ATOMIC_RESP_HDR_LEN, false),
  undefined,
  undefined,
  undefined,
  undefined,
]);

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
export function rdmapControl(version: number, rsvd: number, opcode: number): number {
  return ((version & 3) << 6) | ((rsvd & 3) << 4) | (opcode & RDMAP_OPCODE_MASK);
}

const U64 = (1n << 64n) - 1n;

function checkU32(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`${name} ${v} is not a uint32`);
}
function checkU64(name: string, v: bigint): void {
  if (v < 0n || v > U64) throw new RangeError(`${name} is not a uint64`);
}

/** Octets {@link encodeRdmapHeader} writes for `h`. */
export function rdmapHeaderLength(h: RdmapHeader): number {
  const ddpLen = h.ddp.tagged ? DDP_TAGGED_HDR_LEN : DDP_UNTAGGED_HDR_LEN;
  return ddpLen + (RDMAP_OPCODES[h.opcode & 0xf]?.rdmapHeaderLength ?? 0);
}

/**
 * Encodes the DDP header and the opcode's fixed RDMAP header (none for Write, Read Response,
 * Sends and Terminate). The opcode's extra header must be given (RangeError otherwise). The
 * DDP header's buffer model is taken from `h.ddp` as is, so malformed combinations can be built
 * for tests.
 */
export function encodeRdmapHeader(h: RdmapHeader, out?: Uint8Array, offset = 0): Uint8Array {
  const len = rdmapHeaderLength(h);
  const buf = out ?? new Uint8Array(len);
  if (buf.length - offset < len) throw new RangeError('buffer too small for the RDMAP header');
  encodeDdpHeader({ ...h.ddp, rsvdUlp: rdmapControl(h.version, h.rsvd, h.opcode) }, buf, offset);
  const at = offset + (h.ddp.tagged ? DDP_TAGGED_HDR_LEN : DDP_UNTAGGED_HDR_LEN);
  const dv = new DataView(buf.buffer, buf.byteOffset + at, len - (at - offset));
  switch (h.opcode) {
    case RdmapOpcode.ReadRequest: {
      const r = h.readRequest;
      if (!r) throw new RangeError('RDMA Read Request needs readRequest');
      checkU32('Sink STag', r.sinkStag);
      checkU32('RDMA Read Message Size', r.size);
      checkU32('Source STag', r.srcStag);
      checkU64('Sink TO', r.sinkTo);
      checkU64('Source TO', r.srcTo);
      dv.setUint32(0, r.sinkStag);
      dv.setBigUint64(4, r.sinkTo);
      dv.setUint32(12, r.size);
      dv.setUint32(16, r.srcStag);
      dv.setBigUint64(20, r.srcTo);
      break;
    }
    case RdmapOpcode.ImmediateData:
    case RdmapOpcode.ImmediateDataSE:
      if (h.immediateData === undefined) throw new RangeError('Immediate Data needs immediateData');
      checkU64('Immediate Data', h.immediateData);
      dv.setBigUint64(0, h.immediateData);
      break;
    case RdmapOpcode.AtomicRequest: {
      const a = h.atomicRequest;
      if (!a) throw new RangeError('Atomic Request needs atomicRequest');
      if (!Number.isInteger(a.rsvd) || a.rsvd < 0 || a.rsvd > 0x0fffffff) throw new RangeError('atomic rsvd is 28 bits');
      checkU32('Request Identifier', a.requestId);
      checkU32('Remote STag', a.remoteStag);
      for (const [k, v] of [
        ['Remote TO', a.remoteTo],
        ['Add/Swap Data', a.addSwapData],
        ['Add/Swap Mask', a.addSwapMask],
        ['Compare Data', a.compareData],
        ['Compare Mask', a.compareMask],
      ] as const) {
        checkU64(k, v);
      }
      dv.setUint32(0, ((a.rsvd << 4) | (a.atomicOpcode & 0xf)) >>> 0);
      dv.setUint32(4, a.requestId);
      dv.setUint32(8, a.remoteStag);
      dv.setBigUint64(12, a.remoteTo);
      dv.setBigUint64(20, a.addSwapData);
      dv.setBigUint64(28, a.addSwapMask);
      dv.setBigUint64(36, a.compareData);
      dv.setBigUint64(44, a.compareMask);
      break;
    }
    case RdmapOpcode.AtomicResponse: {
      const a = h.atomicResponse;
      if (!a) throw new RangeError('Atomic Response needs atomicResponse');
      checkU32('Original Request Identifier', a.originalRequestId);
      checkU64('Original Remote Data Value', a.originalValue);
      dv.setUint32(0, a.originalRequestId);
      dv.setBigUint64(4, a.originalValue);
      break;
    }
    default:
      break;
  }
  return buf;
}

/**
 * A reusable, mutable decoded header for the receive path: {@link decodeRdmapHeaderInto} fills
 * it without allocating for the RFC 5040 messages. 64-bit offsets of the hot messages are kept
 * as two uint32 halves (`toHi`/`toLo`, …) with bigint getters; RFC 7306 fields are bigints.
 * Fields not used by the decoded opcode keep stale values.
 */
export class RdmapHeaderStruct {
  // DDP (RFC 5041 §4)
  tagged = false;
  last = false;
  ddpRsvd = 0;
  ddpVersion = 0;
  // RDMAP control (RFC 5040 §4.1)
  version = 0;
  rsvd = 0;
  opcode = 0;
  // Tagged (RFC 5041 §4.2)
  stag = 0;
  toHi = 0;
  toLo = 0;
  // Untagged (RFC 5041 §4.3)
  rsvdUlp32 = 0;
  qn = 0;
  msn = 0;
  mo = 0;
  // Read Request (RFC 5040 §4.4)
  sinkStag = 0;
  sinkToHi = 0;
  sinkToLo = 0;
  readSize = 0;
  srcStag = 0;
  srcToHi = 0;
  srcToLo = 0;
  // RFC 7306
  immediateData = 0n;
  atomicRsvd = 0;
  atomicOpcode = 0;
  requestId = 0;
  remoteStag = 0;
  remoteTo = 0n;
  addSwapData = 0n;
  addSwapMask = 0n;
  compareData = 0n;
  compareMask = 0n;
  originalRequestId = 0;
  originalValue = 0n;
  /** Octets of DDP + RDMAP header decoded (the payload, if any, starts here). */
  headerLength = 0;

  /** Tagged Offset of a tagged segment. */
  get to(): bigint {
    return (BigInt(this.toHi) << 32n) | BigInt(this.toLo);
  }
  /** Read Request Data Sink TO. */
  get sinkTo(): bigint {
    return (BigInt(this.sinkToHi) << 32n) | BigInt(this.sinkToLo);
  }
  /** Read Request Data Source TO. */
  get srcTo(): bigint {
    return (BigInt(this.srcToHi) << 32n) | BigInt(this.srcToLo);
  }
  /** The Invalidate STag of Send with Invalidate (the untagged RsvdULP field). */
  get invalidateStag(): number {
    return this.rsvdUlp32;
  }
  /** The opcode's table entry (always defined after a successful decode). */
  get info(): RdmapOpInfo {
    return RDMAP_OPCODES[this.opcode]!;
  }
}

function rd32(b: Uint8Array, o: number): number {
  return ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
}
function rd64(b: Uint8Array, o: number): bigint {
  return (BigInt(rd32(b, o)) << 32n) | BigInt(rd32(b, o + 4));
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
export function decodeRdmapHeaderInto(buf: Uint8Array, offset: number, length: number, out: RdmapHeaderStruct): number {
  const tagged = checkDdpSegment(buf, offset, length);
  const ctrl = buf[offset]!;
  const ddpLen = tagged ? DDP_TAGGED_HDR_LEN : DDP_UNTAGGED_HDR_LEN;
  const rctl = buf[offset + 1]!;
  const version = rctl >>> 6;
  if (version !== RDMAP_VERSION) {
    throw TerminateError.rdmap(RdmapEtype.RemoteOperation, RdmapEcode.InvalidVersion, `RDMAP version ${version}`);
  }
  const opcode = rctl & RDMAP_OPCODE_MASK;
  const info = RDMAP_OPCODES[opcode];
  if (info === undefined) {
    throw TerminateError.rdmap(RdmapEtype.RemoteOperation, RdmapEcode.UnexpectedOpcode, `reserved opcode ${opcode}`);
  }
  if (info.tagged !== tagged) {
    throw TerminateError.rdmap(
      RdmapEtype.RemoteOperation,
      RdmapEcode.UnexpectedOpcode,
      `${info.name} in a ${tagged ? 'tagged' : 'untagged'} segment`,
    );
  }
  out.tagged = tagged;
  out.last = (ctrl & DDP_FLAG_LAST) !== 0;
  out.ddpRsvd = (ctrl & DDP_RSVD_MASK) >>> 2;
  out.ddpVersion = ctrl & DDP_DV_MASK;
  out.version = version;
  out.rsvd = (rctl & RDMAP_RSVD_MASK) >>> 4;
  out.opcode = opcode;
  let o = offset + 2;
  if (tagged) {
    out.stag = rd32(buf, o);
    out.toHi = rd32(buf, o + 4);
    out.toLo = rd32(buf, o + 8);
  } else {
    const qn = rd32(buf, o + 4);
    if (qn !== info.qn) {
      throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidQn, `${info.name} on QN ${qn}`);
    }
    out.rsvdUlp32 = rd32(buf, o);
    out.qn = qn;
    out.msn = rd32(buf, o + 8);
    out.mo = rd32(buf, o + 12);
  }
  o = offset + ddpLen;
  if (length < info.headerLength) {
    throw TerminateError.rdmap(
      RdmapEtype.RemoteOperation,
      RdmapEcode.Unspecified,
      `${info.name} segment of ${length} octets is shorter than its ${info.headerLength}-octet header`,
    );
  }
  switch (opcode) {
    case RdmapOpcode.ReadRequest:
      out.sinkStag = rd32(buf, o);
      out.sinkToHi = rd32(buf, o + 4);
      out.sinkToLo = rd32(buf, o + 8);
      out.readSize = rd32(buf, o + 12);
      out.srcStag = rd32(buf, o + 16);
      out.srcToHi = rd32(buf, o + 20);
      out.srcToLo = rd32(buf, o + 24);
      break;
    case RdmapOpcode.ImmediateData:
    case RdmapOpcode.ImmediateDataSE:
      out.immediateData = rd64(buf, o);
      break;
    case RdmapOpcode.AtomicRequest: {
      const w = rd32(buf, o);
      out.atomicRsvd = w >>> 4;
      out.atomicOpcode = w & 0xf;
      out.requestId = rd32(buf, o + 4);
      out.remoteStag = rd32(buf, o + 8);
      out.remoteTo = rd64(buf, o + 12);
      out.addSwapData = rd64(buf, o + 20);
      out.addSwapMask = rd64(buf, o + 28);
      out.compareData = rd64(buf, o + 36);
      out.compareMask = rd64(buf, o + 44);
      break;
    }
    case RdmapOpcode.AtomicResponse:
      out.originalRequestId = rd32(buf, o);
      out.originalValue = rd64(buf, o + 4);
      break;
    default:
      break;
  }
  out.headerLength = info.headerLength;
  return info.headerLength;
}

/** Converts a decoded struct to the plain {@link RdmapHeader} form. */
export function rdmapStructToHeader(s: RdmapHeaderStruct): RdmapHeader {
  const rsvdUlp = rdmapControl(s.version, s.rsvd, s.opcode);
  const common = { last: s.last, rsvd: s.ddpRsvd, version: s.ddpVersion, rsvdUlp };
  const h: RdmapHeader = {
    ddp: s.tagged
      ? { tagged: true, ...common, stag: s.stag, to: s.to }
      : { tagged: false, ...common, rsvdUlp32: s.rsvdUlp32, qn: s.qn, msn: s.msn, mo: s.mo },
    version: s.version,
    rsvd: s.rsvd,
    opcode: s.opcode,
  };
  switch (s.opcode) {
    case RdmapOpcode.ReadRequest:
      h.readRequest = { sinkStag: s.sinkStag, sinkTo: s.sinkTo, size: s.readSize, srcStag: s.srcStag, srcTo: s.srcTo };
      break;
    case RdmapOpcode.ImmediateData:
    case RdmapOpcode.ImmediateDataSE:
      h.immediateData = s.immediateData;
      break;
    case RdmapOpcode.AtomicRequest:
      h.atomicRequest = {
        rsvd: s.atomicRsvd,
        atomicOpcode: s.atomicOpcode,
        requestId: s.requestId,
        remoteStag: s.remoteStag,
        remoteTo: s.remoteTo,
        addSwapData: s.addSwapData,
        addSwapMask: s.addSwapMask,
        compareData: s.compareData,
        compareMask: s.compareMask,
      };
      break;
    case RdmapOpcode.AtomicResponse:
      h.atomicResponse = { originalRequestId: s.originalRequestId, originalValue: s.originalValue };
      break;
    default:
      break;
  }
  return h;
}

/** Plain-object decode: see {@link decodeRdmapHeaderInto} for the checks. */
export function decodeRdmapHeader(
  buf: Uint8Array,
  offset = 0,
  length = buf.length - offset,
): { header: RdmapHeader; headerLength: number } {
  const s = new RdmapHeaderStruct();
  const headerLength = decodeRdmapHeaderInto(buf, offset, length, s);
  return { header: rdmapStructToHeader(s), headerLength };
}

/** Name of an opcode (e.g. "Send with SE"), or `OpCode(n)` for reserved values. */
export function rdmapOpcodeName(opcode: number): string {
  return RDMAP_OPCODES[opcode & 0xf]?.name ?? `OpCode(${opcode})`;
}

const h32 = (v: number): string => `0x${v.toString(16).padStart(8, '0')}`;

/** One-line description, e.g. `RDMAP Read Request [DDP U L QN=1 MSN=1 MO=0] sink=… size=4096 src=…`. */
export function stringifyRdmapHeader(h: RdmapHeader): string {
  let s = `RDMAP ${rdmapOpcodeName(h.opcode)}`;
  if (h.version !== RDMAP_VERSION) s += ` RV=${h.version}`;
  if (h.rsvd) s += ` rsvd=${h.rsvd}`;
  const info = RDMAP_OPCODES[h.opcode & 0xf];
  s += ` [${stringifyDdpHeader(h.ddp)}]`;
  if (info?.invalidate && !h.ddp.tagged) s += ` InvSTag=${h32(h.ddp.rsvdUlp32)}`;
  const r = h.readRequest;
  if (r) s += ` sink=${h32(r.sinkStag)}@0x${r.sinkTo.toString(16)} size=${r.size} src=${h32(r.srcStag)}@0x${r.srcTo.toString(16)}`;
  if (h.immediateData !== undefined) s += ` imm=0x${h.immediateData.toString(16)}`;
  const a = h.atomicRequest;
  if (a) {
    const name = AtomicOpcode[a.atomicOpcode] ?? `AOp(${a.atomicOpcode})`;
    s += ` ${name} id=${a.requestId} remote=${h32(a.remoteStag)}@0x${a.remoteTo.toString(16)} data=0x${a.addSwapData.toString(16)}/0x${a.addSwapMask.toString(16)} cmp=0x${a.compareData.toString(16)}/0x${a.compareMask.toString(16)}`;
  }
  const ar = h.atomicResponse;
  if (ar) s += ` id=${ar.originalRequestId} orig=0x${ar.originalValue.toString(16)}`;
  return s;
}

/** The per-segment fields of an outbound DDP/RDMAP header ({@link encodeRdmapTxHeader}); the rest is the opcode table's. */
export interface RdmapTxFields {
  opcode: RdmapOpcode;
  /** DDP's Last flag (RFC 5041 §4.2). */
  last: boolean;
  /** Tagged: the STag and Tagged Offset (RFC 5041 §4.3). */
  stag: number;
  to: bigint;
  /** Untagged: RsvdULP (Send with Invalidate's STag, RFC 5040 §4.6), MSN and MO (RFC 5041 §4.4). */
  rsvdUlp32: number;
  msn: number;
  mo: number;
  /** A Read Request's fields (RFC 5040 §4.4), else null. */
  rr: ReadRequestHeader | null;
}

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
export function encodeRdmapTxHeader(out: Uint8Array, offset: number, h: RdmapTxFields): number {
  const { opcode, last, stag, to, rsvdUlp32, msn, mo, rr } = h;
  const info = RDMAP_OPCODES[opcode]!;
  const dv = viewOf(out);
  const o = out.byteOffset + offset;
  dv.setUint8(o, (info.tagged ? DDP_FLAG_TAGGED : 0) | (last ? DDP_FLAG_LAST : 0) | DDP_VERSION);
  dv.setUint8(o + 1, rdmapControl(RDMAP_VERSION, 0, opcode));
  if (info.tagged) {
    dv.setUint32(o + 2, stag >>> 0);
    dv.setBigUint64(o + 6, to);
    return info.headerLength;
  }
  dv.setUint32(o + 2, rsvdUlp32 >>> 0);
  dv.setUint32(o + 6, info.qn!);
  dv.setUint32(o + 10, msn >>> 0);
  dv.setUint32(o + 14, mo >>> 0);
  if (rr) {
    dv.setUint32(o + 18, rr.sinkStag >>> 0);
    dv.setBigUint64(o + 22, rr.sinkTo);
    dv.setUint32(o + 30, rr.size >>> 0);
    dv.setUint32(o + 34, rr.srcStag >>> 0);
    dv.setBigUint64(o + 38, rr.srcTo);
  }
  return info.headerLength;
}

/**
 * A DataView over the whole ArrayBuffer behind `out`, kept while consecutive headers land in the
 * same one (Node's Buffer pool hands out slices of one 8 KiB ArrayBuffer), so a header costs no
 * view of its own.
 */
let lastAb: ArrayBufferLike | null = null;
let lastDv: DataView | null = null;
function viewOf(out: Uint8Array): DataView {
  if (out.buffer !== lastAb) {
    lastAb = out.buffer;
    lastDv = new DataView(out.buffer);
  }
  return lastDv!;
}

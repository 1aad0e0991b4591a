/**
 * What the iWARP transport (`datapath.ts`) writes in front of a payload besides the DDP/RDMAP
 * header of the opcode table: the transport's capabilities, the RDMAP opcode of each Send-family
 * segment, each transmit operation's header length, the RFC 7306 headers (Immediate Data,
 * Atomic Request and Response) and the further words of softrdma's extended atomics, and the
 * copied headers a Terminate carries.
 */
import type { TransportCaps, TxSeg } from '../rnic/transport.js';
import { TxOp } from '../rnic/transport.js';
import type { Fpdu } from '../wire/deframer.js';
import { RDMAP_OPCODES, RdmapOpcode } from '../wire/rdmap.js';

/**
 * softrdma's marker in the untagged RsvdULP field of an Immediate Data message (RFC 7306 §6)
 * that carries the immediate of an RDMA Write with Immediate (see the spec-notes: RFC 7306 has
 * one Immediate Data message; the verbs tell a Write's immediate from a Send's).
 */
export const IMM_AFTER_WRITE = 1;
/**
 * softrdma's AOpCode flag for extended (16/32-octet) atomics (the manual's §8.7): the RFC 7306
 * AOpCode | 0x8, with the further 64-bit words after the header (32 octets each: Add/Swap
 * Data, Add/Swap Mask, Compare Data, Compare Mask); the Atomic Response then carries the
 * further original words (8 octets each) after its header. Used only between softrdma peers.
 */
export const AOP_EXTENDED = 0x8;

/** Headers of the offending inbound segment, copied into the Terminate (RFC 5040 §7.1). */
export interface TermCopied {
  /** The first octets (up to 46) of the offending DDP segment. */
  segment: Uint8Array;
  /** The segment's full length (its MPA ULPDU_LENGTH). */
  segLen: number;
}

/** What iWARP carries towards any peer: the RFC 5040 operations. */
export const IWARP_CAPS: TransportCaps = Object.freeze({
  immediateData: false,
  atomics: false,
  extAtomics: false,
  rnr: false,
  sendCompletion: 'local-delivery',
  states: 'iwarp',
});

/**
 * What iWARP carries towards a peer that agreed softrdma's RDMAP extensions in the MPA
 * exchange (mpa-startup.ts): RFC 7306 atomics and Immediate Data, and extended atomics.
 */
export const IWARP_CAPS_RFC7306: TransportCaps = Object.freeze({ ...IWARP_CAPS, immediateData: true, atomics: true, extAtomics: true });

/** The RDMAP opcode of each Send-family segment: [invalidate][solicited]. */
export const SEND_OPCODE = [
  [RdmapOpcode.Send, RdmapOpcode.SendSE],
  [RdmapOpcode.SendInvalidate, RdmapOpcode.SendSEInvalidate],
] as const;

/** Header length of each transmit op (for the payload room of an FPDU). */
export const TX_HDR_LEN: Readonly<Record<TxOp, number>> = {
  [TxOp.SEND]: RDMAP_OPCODES[RdmapOpcode.Send]!.headerLength,
  [TxOp.SEND_INVALIDATE]: RDMAP_OPCODES[RdmapOpcode.SendInvalidate]!.headerLength,
  [TxOp.RDMA_WRITE]: RDMAP_OPCODES[RdmapOpcode.Write]!.headerLength,
  [TxOp.READ_REQUEST]: RDMAP_OPCODES[RdmapOpcode.ReadRequest]!.headerLength,
  [TxOp.READ_RESPONSE]: RDMAP_OPCODES[RdmapOpcode.ReadResponse]!.headerLength,
  [TxOp.SEND_IMM]: RDMAP_OPCODES[RdmapOpcode.ImmediateData]!.headerLength,
  [TxOp.ATOMIC_REQUEST]: RDMAP_OPCODES[RdmapOpcode.AtomicRequest]!.headerLength,
  [TxOp.ATOMIC_RESPONSE]: RDMAP_OPCODES[RdmapOpcode.AtomicResponse]!.headerLength,
};

/** Writes the RFC 7306 header of `opcode` (Immediate Data, Atomic Request/Response) at `at`. */
export function writeRfc7306Header(b: Uint8Array, at: number, opcode: RdmapOpcode, g: TxSeg): void {
  const dv = new DataView(b.buffer, b.byteOffset + at);
  switch (opcode) {
    case RdmapOpcode.ImmediateData:
    case RdmapOpcode.ImmediateDataSE:
      // The verbs' 32-bit immediate is the low-order half of the 64-bit Immediate Data.
      dv.setUint32(0, 0);
      dv.setUint32(4, g.imm >>> 0);
      return;
    case RdmapOpcode.AtomicRequest: {
      const a = g.atomic!;
      const ext = a.size > 8 ? AOP_EXTENDED : 0;
      dv.setUint32(0, (a.kind | ext) >>> 0);
      dv.setUint32(4, g.requestId >>> 0);
      dv.setUint32(8, g.stag >>> 0);
      dv.setBigUint64(12, g.to);
      dv.setBigUint64(20, a.addSwap[0]!);
      dv.setBigUint64(28, a.addSwapMask[0]!);
      dv.setBigUint64(36, a.compare[0]!);
      dv.setBigUint64(44, a.compareMask[0]!);
      return;
    }
    case RdmapOpcode.AtomicResponse:
      dv.setUint32(0, g.requestId >>> 0);
      dv.setBigUint64(4, g.orig![0]!);
      return;
    default:
  }
}

/** The words after the first of an extended atomic request or response, as FPDU payload. */
export function extWords(g: TxSeg): Uint8Array | null {
  if (g.op === TxOp.ATOMIC_REQUEST) {
    const a = g.atomic!;
    if (a.size === 8) return null;
    const b = new Uint8Array((a.size / 8 - 1) * 32);
    const dv = new DataView(b.buffer);
    for (let i = 1; i < a.size / 8; i++) {
      const o = (i - 1) * 32;
      dv.setBigUint64(o, a.addSwap[i]!);
      dv.setBigUint64(o + 8, a.addSwapMask[i]!);
      dv.setBigUint64(o + 16, a.compare[i]!);
      dv.setBigUint64(o + 24, a.compareMask[i]!);
    }
    return b;
  }
  const orig = g.orig!;
  if (orig.length === 1) return null;
  const b = new Uint8Array((orig.length - 1) * 8);
  const dv = new DataView(b.buffer);
  for (let i = 1; i < orig.length; i++) dv.setBigUint64((i - 1) * 8, orig[i]!);
  return b;
}

/** The first `dst.length` octets of the FPDU's ULPDU (the offending segment's headers a Terminate copies, RFC 5040 §7.1). */
export function copyUlpduPrefixInto(f: Fpdu, dst: Uint8Array): void {
  let o = 0;
  for (const s of f.segments) {
    if (o >= dst.length) break;
    const n = Math.min(s.length, dst.length - o);
    dst.set(n === s.length ? s : s.subarray(0, n), o);
    o += n;
  }
}

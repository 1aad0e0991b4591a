/**
 * A whole InfiniBand transport packet as RoCEv2 carries it in a UDP datagram (IBTA Vol. 1
 * §9.2–§9.3; Annex A17.4): BTH, the extension headers of its opcode (the table in
 * `opcodes.ts`), the payload, 0–3 pad octets (PadCnt; zero), and the 4-octet ICRC.
 *
 * {@link encodeIbPacket} builds it (the ICRC with the IP/UDP header it will be sent with, or
 * zero when none is given: a caller may patch it later with `writeIcrc`); {@link decodeIbPacket}
 * parses and validates everything that does not depend on the receiving QP (§9.6: the
 * transport version, a supported opcode, lengths, pad), leaving the ICRC to `icrc.ts` because
 * checking it needs the IP header. The payload is a view into the input, not a copy.
 *
 * @packageDocumentation
 */
import { type Aeth, decodeAeth, encodeAeth, stringifyAeth } from './aeth.js';
import {
  type AtomicAckEth,
  type AtomicEth,
  decodeAtomicAckEth,
  decodeAtomicEth,
  encodeAtomicAckEth,
  encodeAtomicEth,
  stringifyAtomicAckEth,
  stringifyAtomicEth,
} from './atomic-eth.js';
import { type Bth, decodeBth, encodeBth, stringifyBth } from './bth.js';
import { type Deth, decodeDeth, encodeDeth, stringifyDeth } from './deth.js';
import { hx, IbDropReason, IbWireError } from './errors.js';
import { ICRC_LEN, type RoceIpHeader, readIcrc, writeIcrc } from './icrc.js';
import { decodeIeth, decodeImmDt, encodeIeth, encodeImmDt, stringifyIeth, stringifyImmDt } from './immdt.js';
import { type IbOpInfo, ibOpcodeName, ibOpInfo } from './opcodes.js';
import { decodeReth, encodeReth, type Reth, stringifyReth } from './reth.js';

/** An InfiniBand transport packet: the BTH, the extension headers its opcode has, the payload. */
export interface IbPacket {
  bth: Bth;
  reth?: Reth;
  aeth?: Aeth;
  atomicEth?: AtomicEth;
  atomicAckEth?: AtomicAckEth;
  deth?: Deth;
  /** ImmDt (§9.3.7), as a big-endian uint32. */
  immDt?: number;
  /** IETH (§9.3.8): the R_Key to invalidate. */
  ieth?: number;
  /** Payload octets (without pad). On decode, a view into the input. */
  payload: Uint8Array;
  /** On decode: the ICRC found on the wire (little-endian, as `readIcrc`). Ignored by encode. */
  icrc?: number;
}

/**
 * A packet with `bth`, an empty payload and no extension header, with every field of
 * {@link IbPacket} present (absent ones undefined): packets built from it and decoded ones have
 * one shape, so the code that reads them stays monomorphic. Set the headers the opcode has.
 */
export function newIbPacket(bth: Bth): IbPacket {
  return {
    bth,
    reth: undefined,
    aeth: undefined,
    atomicEth: undefined,
    atomicAckEth: undefined,
    deth: undefined,
    immDt: undefined,
    ieth: undefined,
    payload: NO_PAYLOAD,
    icrc: undefined,
  };
}

const NO_PAYLOAD = new Uint8Array(0);

/** Pad octets after a payload of `len` octets: to the next multiple of 4 (§9.2, PadCnt). */
export function ibPadCount(len: number): number {
  return -len & 3;
}

/** Octets of the packet (BTH … ICRC) for `opcode` with `payloadLen` payload octets. */
export function ibPacketLength(opcode: number, payloadLen: number): number {
  const info = ibOpInfo(opcode);
  if (!info) throw new RangeError(`unsupported opcode ${hx(opcode, 2)}`);
  return info.headerLength + payloadLen + ibPadCount(payloadLen) + ICRC_LEN;
}

function need<T>(v: T | undefined, what: string, info: IbOpInfo): T {
  if (v === undefined) throw new RangeError(`${info.name} needs ${what}`);
  return v;
}

/** Checks `p` for a payload of `plen` octets (see {@link encodeIbPacket}); its opcode's row. */
function checkIbPacket(p: IbPacket, plen: number): IbOpInfo {
  const info = ibOpInfo(p.bth.opcode);
  if (!info) throw new RangeError(`unsupported opcode ${hx(p.bth.opcode, 2)}`);
  if (plen && !info.payload) throw new RangeError(`${info.name} carries no payload`);
  const pad = ibPadCount(plen);
  if (p.bth.padCnt !== pad) throw new RangeError(`PadCnt ${p.bth.padCnt} for a ${plen}-octet payload (needs ${pad})`);
  checkHeader(info, p.reth, info.rethOffset, 'RETH');
  checkHeader(info, p.aeth, info.aethOffset, 'AETH');
  checkHeader(info, p.atomicEth, info.atomicEthOffset, 'AtomicETH');
  checkHeader(info, p.atomicAckEth, info.atomicAckEthOffset, 'AtomicAckETH');
  checkHeader(info, p.deth, info.dethOffset, 'DETH');
  checkHeader(info, p.immDt, info.immDtOffset, 'ImmDt');
  checkHeader(info, p.ieth, info.iethOffset, 'IETH');
  return info;
}

/** An extension header is given exactly when the opcode has it (`offset` ≥ 0). */
function checkHeader(info: IbOpInfo, present: unknown, offset: number, name: string): void {
  if ((present !== undefined) !== offset >= 0) throw new RangeError(`${info.name} ${offset >= 0 ? 'needs' : 'has no'} ${name}`);
}

/** Writes the BTH and the extension headers of `p` at the start of `buf`. */
function writeIbHeaders(p: IbPacket, info: IbOpInfo, buf: Uint8Array): void {
  encodeBth(p.bth, buf, 0);
  if (info.rethOffset >= 0) encodeReth(need(p.reth, 'RETH', info), buf, info.rethOffset);
  if (info.aethOffset >= 0) encodeAeth(need(p.aeth, 'AETH', info), buf, info.aethOffset);
  if (info.atomicEthOffset >= 0) encodeAtomicEth(need(p.atomicEth, 'AtomicETH', info), buf, info.atomicEthOffset);
  if (info.atomicAckEthOffset >= 0) encodeAtomicAckEth(need(p.atomicAckEth, 'AtomicAckETH', info), buf, info.atomicAckEthOffset);
  if (info.dethOffset >= 0) encodeDeth(need(p.deth, 'DETH', info), buf, info.dethOffset);
  if (info.immDtOffset >= 0) encodeImmDt(need(p.immDt, 'ImmDt', info), buf, info.immDtOffset);
  if (info.iethOffset >= 0) encodeIeth(need(p.ieth, 'IETH', info), buf, info.iethOffset);
}

function payloadLength(p: IbPacket, parts?: readonly Uint8Array[]): number {
  let plen = p.payload.length;
  if (parts) for (const x of parts) plen += x.length;
  return plen;
}

/**
 * Encodes `p` (BTH … ICRC). The opcode must be in the table, its extension headers present
 * (others are refused, so a packet cannot carry a header its opcode does not have), a payload
 * only where the opcode allows one, and `bth.padCnt` equal to {@link ibPadCount} of the payload
 * (RangeError otherwise). `payload` may be given in parts (gathered without a copy first). With
 * `ip`, the ICRC is computed for those IP/UDP headers; without, it is left zero.
 */
export function encodeIbPacket(p: IbPacket, ip?: RoceIpHeader, parts?: readonly Uint8Array[]): Uint8Array {
  const plen = payloadLength(p, parts);
  const info = checkIbPacket(p, plen);
  const total = info.headerLength + plen + ibPadCount(plen) + ICRC_LEN;
  // From Node's buffer pool (see encodeIbPacketGather); every octet is written below.
  const buf: Uint8Array = Buffer.allocUnsafe(total);
  writeIbHeaders(p, info, buf);
  let o = info.headerLength;
  buf.set(p.payload, o);
  o += p.payload.length;
  if (parts) {
    for (const x of parts) {
      buf.set(x, o);
      o += x.length;
    }
  }
  buf.fill(0, o);
  if (ip) writeIcrc(ip, buf);
  return buf;
}

/** Payloads from this size on are not copied by {@link encodeIbPacketGather}. */
export const IB_GATHER_MIN = 512;

/**
 * Encodes `p` for a gathering send: as `[headers, …payload parts, pad + ICRC]`, the payload
 * parts (views of registered memory) not copied, or as one buffer ({@link encodeIbPacket}) when
 * the payload is shorter than {@link IB_GATHER_MIN} octets. The ICRC octets are left zero: the
 * sender computes them over the parts (`src/roce/net.ts`). The parts must not change until the
 * packet is no longer needed (an RC requester's: until its ACK).
 */
export function encodeIbPacketGather(p: IbPacket, parts: readonly Uint8Array[]): Uint8Array | Uint8Array[] {
  const plen = payloadLength(p, parts);
  if (plen < IB_GATHER_MIN) return encodeIbPacket(p, undefined, parts);
  const info = checkIbPacket(p, plen);
  // The headers and the tail come from Node's shared buffer pool, not each from a typed array of
  // its own: a small typed array lives in V8's heap, and the native sender reading it makes V8
  // move it out (an allocation of its own per packet part).
  const head = Buffer.allocUnsafe(info.headerLength);
  writeIbHeaders(p, info, head);
  const out: Uint8Array[] = [head];
  if (p.payload.length) out.push(p.payload);
  for (const x of parts) if (x.length) out.push(x);
  out.push(Buffer.allocUnsafe(ibPadCount(plen) + ICRC_LEN).fill(0));
  return out;
}

/** Octets of a packet given whole or in parts (see {@link encodeIbPacketGather}). */
export function ibPacketPartsLength(pkt: Uint8Array | readonly Uint8Array[]): number {
  if (!Array.isArray(pkt)) return (pkt as Uint8Array).length;
  let n = 0;
  for (const x of pkt) n += x.length;
  return n;
}

/**
 * Decodes a packet (the whole UDP payload: BTH … ICRC). Drops (IbWireError) a truncated packet,
 * TVer ≠ 0, an opcode not in the table, a length that is not a multiple of 4 (§9.2: payload +
 * pad fill whole words), a payload or pad on an opcode without payload, a pad on a FIRST or
 * MIDDLE packet (only the last packet of a message may be short, §9.7.1), and a reserved AETH
 * syndrome. The ICRC is read, not checked.
 */
export function decodeIbPacket(buf: Uint8Array): IbPacket {
  const bth = decodeBth(buf);
  const info = ibOpInfo(bth.opcode);
  if (!info) throw new IbWireError(IbDropReason.Opcode, `unsupported opcode ${hx(bth.opcode, 2)}`);
  const n = buf.length;
  if (n < info.headerLength + ICRC_LEN) {
    throw new IbWireError(IbDropReason.Truncated, `${info.name}: ${n} octets, needs ${info.headerLength + ICRC_LEN}`);
  }
  if (n & 3) throw new IbWireError(IbDropReason.Pad, `${info.name}: ${n} octets is not a whole number of words`);
  const region = n - info.headerLength - ICRC_LEN;
  if (!info.payload && (region || bth.padCnt)) {
    throw new IbWireError(IbDropReason.Length, `${info.name} carries no payload (${region} octets, pad ${bth.padCnt})`);
  }
  if (bth.padCnt && !info.last) throw new IbWireError(IbDropReason.Pad, `${info.name} with PadCnt ${bth.padCnt}`);
  if (bth.padCnt > region) throw new IbWireError(IbDropReason.Pad, `PadCnt ${bth.padCnt} exceeds ${region} octets`);
  // One object literal with every field (absent headers undefined): every decoded packet has
  // one shape, so the receive path's property loads stay monomorphic across opcodes.
  return {
    bth,
    reth: info.rethOffset >= 0 ? decodeReth(buf, info.rethOffset) : undefined,
    aeth: info.aethOffset >= 0 ? decodeAeth(buf, info.aethOffset) : undefined,
    atomicEth: info.atomicEthOffset >= 0 ? decodeAtomicEth(buf, info.atomicEthOffset) : undefined,
    atomicAckEth: info.atomicAckEthOffset >= 0 ? decodeAtomicAckEth(buf, info.atomicAckEthOffset) : undefined,
    deth: info.dethOffset >= 0 ? decodeDeth(buf, info.dethOffset) : undefined,
    immDt: info.immDtOffset >= 0 ? decodeImmDt(buf, info.immDtOffset) : undefined,
    ieth: info.iethOffset >= 0 ? decodeIeth(buf, info.iethOffset) : undefined,
    payload: buf.subarray(info.headerLength, info.headerLength + region - bth.padCnt),
    icrc: readIcrc(buf),
  };
}

/** One line: `RC_SEND_ONLY BTH … | RETH … | 100 B`. */
export function stringifyIbPacket(p: IbPacket): string {
  const s = [`${ibOpcodeName(p.bth.opcode)} ${stringifyBth(p.bth)}`];
  if (p.reth) s.push(stringifyReth(p.reth));
  if (p.aeth) s.push(stringifyAeth(p.aeth));
  if (p.atomicEth) s.push(stringifyAtomicEth(p.atomicEth));
  if (p.atomicAckEth) s.push(stringifyAtomicAckEth(p.atomicAckEth));
  if (p.deth) s.push(stringifyDeth(p.deth));
  if (p.immDt !== undefined) s.push(stringifyImmDt(p.immDt));
  if (p.ieth !== undefined) s.push(stringifyIeth(p.ieth));
  s.push(`${p.payload.length} B`);
  return s.join(' | ');
}

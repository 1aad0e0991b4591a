/**
 * The Datagram Extended Transport Header (IBTA Vol. 1 §9.3.2), 8 octets, after the BTH of every
 * Unreliable Datagram packet:
 *
 * ```
 *  0-3  Q_Key (32)            the receiver accepts only its own Q_Key (§10.2.5)
 *  4    reserved (8)
 *  5-7  SrcQP (24)            the sender's QP, reported in the work completion
 * ```
 *
 * A Q_Key with the high-order bit set is a "controlled" Q_Key (§10.2.5): a consumer cannot
 * send it from a WR; the QP's own Q_Key is used instead.
 *
 * @packageDocumentation
 */

import { QPN_MASK } from './constants.js';
import { checkUint, hx, IbDropReason, IbWireError } from './errors.js';

/** Octets of the DETH. */
export const DETH_LEN = 8;
/** The Q_Key of QP1 (GSI, §13.5: 0x80010000). */
export const QKEY_GSI = 0x80010000;
/** The high-order bit that makes a Q_Key controlled (§10.2.5). */
export const QKEY_CONTROLLED = 0x80000000;

/** DETH (§9.3.2). */
export interface Deth {
  qkey: number;
  /** The reserved octet, as received (sent as zero). */
  resv8: number;
  srcQp: number;
}

export function encodeDeth(h: Deth, out?: Uint8Array, offset = 0): Uint8Array {
  checkUint('Q_Key', h.qkey, 32);
  checkUint('reserved', h.resv8, 8);
  checkUint('SrcQP', h.srcQp, 24);
  const buf = out ?? new Uint8Array(DETH_LEN);
  if (buf.length - offset < DETH_LEN) throw new RangeError('buffer too small for the DETH');
  const dv = new DataView(buf.buffer, buf.byteOffset + offset, DETH_LEN);
  dv.setUint32(0, h.qkey);
  dv.setUint32(4, ((h.resv8 << 24) | h.srcQp) >>> 0);
  return buf;
}

export function decodeDeth(buf: Uint8Array, offset = 0): Deth {
  if (buf.length - offset < DETH_LEN) throw new IbWireError(IbDropReason.Truncated, 'DETH');
  const dv = new DataView(buf.buffer, buf.byteOffset + offset, DETH_LEN);
  const w = dv.getUint32(4);
  return { qkey: dv.getUint32(0), resv8: w >>> 24, srcQp: w & QPN_MASK };
}

export function stringifyDeth(h: Deth): string {
  return `DETH Q_Key=${hx(h.qkey, 8)} SrcQP=${hx(h.srcQp, 6)}${h.resv8 ? ` resv=${hx(h.resv8, 2)}` : ''}`;
}

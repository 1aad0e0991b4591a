/**
 * What the IT-API functions of several groups share: the Interface's limits and private-data
 * sizes (what `it_ia_query` reports and the calls enforce), the small validation helpers in the
 * order the binding checks, the DTO flags each call takes, and the building of RNICPI
 * scatter/gather lists from LMR triplets.
 *
 * @module
 */
import { hostMemory } from '../rnic/hostmem.js';
import { RiRet } from '../rnicpi/status.js';
import { RiWrFlags, type ri_data_seg_t, type ri_rnic_attr_t } from '../rnicpi/types.js';
import type { ItDevice } from './access.js';
import { Ep } from './ep.js';
import { Lmr } from './mem.js';
import { check, fail, type Ia } from './objects.js';
import { UdEp } from './ud.js';
import { IB_PDATA_ACCEPT, IB_PDATA_CONNECT, IB_PDATA_REJECT, isIbDevice } from './roce.js';
import { Evd, Sevd } from './evd.js';
import { it_status_t as S } from './status.js';
import {
  IT_MAX_PRIV_DATA,
  it_addr_mode_t as AM,
  it_dto_flags_t as DF,
  it_ep_state_rc_t as ST,
  it_event_type_t as ET,
  type it_lmr_triplet_t,
} from './types.js';

/** Largest private data per call (the RFC 6581 word travels in front of it, never shown). */
export const PDATA_CONNECT = IT_MAX_PRIV_DATA;
export const PDATA_ACCEPT = IT_MAX_PRIV_DATA;

export const PDATA_REJECT = IT_MAX_PRIV_DATA;

export const PDATA_DISCONNECT = 0;

/** Largest message (and RDMA) of an iWARP RC Endpoint: the 32-bit DDP/RDMAP length. */
export const MAX_RC_LEN = 0xffff_ffff;

/** Default connection-establishment timeout of a Path (µs): siw's MPA Reply timeout. */
export const DEFAULT_PATH_TIMEOUT_US = 10_000_000n;

/** The STag used for a segment whose LMR handle is not an LMR (fails as an invalid STag). */
export const BAD_STAG = 0xffff_ffff;

export const EMPTY = new Uint8Array(0);

export const limitCache = new WeakMap<ItDevice, ri_rnic_attr_t>();

export function limits(ia: Ia): ri_rnic_attr_t {
  let l = limitCache.get(ia.device);
  if (!l) {
    const r = ia.ops.ri_rnic_query(ia.rnic, 0, 1 << 20);
    if (r.status !== RiRet.SUCCESS) fail(S.IT_ERR_RESOURCES, `ri_rnic_query: ${RiRet[r.status]}`);
    l = r.attrs;
    limitCache.set(ia.device, l);
  }
  return l;
}

export function isIb(ia: Ia): boolean {
  return isIbDevice(ia.device);
}

/** Private data limits of an IA: iWARP's MPA frames carry 256 octets; the IB CM's REQ (less the `cma_hdr`), REP and REJ fewer. */
export function pdataLimits(ia: Ia): { connect: number; accept: number; reject: number; disconnect: number } {
  return isIb(ia)
    ? { connect: IB_PDATA_CONNECT, accept: IB_PDATA_ACCEPT, reject: IB_PDATA_REJECT, disconnect: PDATA_DISCONNECT }
    : { connect: PDATA_CONNECT, accept: PDATA_ACCEPT, reject: PDATA_REJECT, disconnect: PDATA_DISCONNECT };
}

export function isUint(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0;
}

/** Private data of a call: `null` or a buffer of at most `max` bytes. */
export function pdataOf(p: Uint8Array | null | undefined, max: number): Uint8Array {
  if (p === null || p === undefined) return EMPTY;
  if (!(p instanceof Uint8Array) || p.length > max) fail(S.IT_ERR_INVALID_PDATA_LENGTH);
  return p;
}

/** A query mask: undefined bits → `IT_ERR_INVALID_MASK`. */
export function checkMask(mask: number, defined: number): void {
  if (!isUint(mask) || (mask & ~defined) !== 0) fail(S.IT_ERR_INVALID_MASK);
}

/** The fields of `full` whose mask bit (or ALL, bit 0x1) is set. */
export function pick<T extends object>(mask: number, full: T, bits: readonly (readonly [number, keyof T])[]): Partial<T> {
  const out: Partial<T> = {};
  for (const [bit, key] of bits) if (mask & 0x1 || mask & bit) out[key] = full[key];
  return out;
}

export function addrOf(a: Uint8Array | bigint | null | undefined): bigint | null {
  if (a instanceof Uint8Array) return hostMemory.addressOf(a);
  if (typeof a === 'bigint') return a;
  return null;
}

export function cookieOf(c: bigint): bigint {
  return BigInt.asUintN(64, typeof c === 'bigint' ? c : BigInt(c as number));
}

/** `IT_ERR_INVALID_DTO_FLAGS` unless `f` uses only `allowed` and NOTIFY comes with COMPLETION. */
export function checkDtoFlags(f: number, allowed: number): void {
  if (!isUint(f) || (f & ~allowed) !== 0) fail(S.IT_ERR_INVALID_DTO_FLAGS);
  if (f & DF.IT_NOTIFY_FLAG && !(f & DF.IT_COMPLETION_FLAG)) fail(S.IT_ERR_INVALID_DTO_FLAGS);
}

export const BASE_SQ = DF.IT_COMPLETION_FLAG | DF.IT_NOTIFY_FLAG | DF.IT_BARRIER_FENCE_FLAG | DF.IT_COALESCE_WR_FLAG;

export const UNLINK_FLAGS = BASE_SQ | DF.IT_UNLINK_FENCE_FLAG;

export const RECV_FLAGS = DF.IT_COMPLETION_FLAG | DF.IT_NOTIFY_FLAG | DF.IT_COALESCE_WR_FLAG;

/** An RC Endpoint handle; a UD Endpoint is the wrong type (`IT_ERR_INVALID_EP_TYPE`). */
export function rcEp(h: unknown): Ep {
  if (h instanceof UdEp && !h.freed) {
    if (h.ia.disabled) fail(S.IT_ERR_IA_CATASTROPHE);
    fail(S.IT_ERR_INVALID_EP_TYPE, 'a UD Endpoint');
  }
  return check(h, Ep, S.IT_ERR_INVALID_EP);
}

/** RNICPI WR flags of an IT-API WR: always signalled (the Endpoint filters the completions). */
export function riFlags(f: number, kind: 'send' | 'write' | 'read' | 'mem' | 'unlink'): number {
  let r = RiWrFlags.SIGNALED_FLAG;
  if (f & DF.IT_SOLICITED_WAIT_FLAG) r |= RiWrFlags.SOLICITED_EVENT_FLAG;
  // iWARP Read Fence exists for Sends and RDMA Writes (RNICPI); Reads and memory WRs complete
  // in order behind earlier Reads anyway.
  if (f & DF.IT_BARRIER_FENCE_FLAG && (kind === 'send' || kind === 'write')) r |= RiWrFlags.READ_FENCE_FLAG;
  if (f & DF.IT_UNLINK_FENCE_FLAG && kind === 'unlink') r |= RiWrFlags.LOCAL_FENCE_FLAG;
  if (f & DF.IT_COALESCE_WR_FLAG) r |= RiWrFlags.COALESCE_FLAG;
  return r;
}

export function checkAddrMode(m: number): void {
  if (m !== AM.IT_ADDR_MODE_ABSOLUTE && m !== AM.IT_ADDR_MODE_RELATIVE) fail(S.IT_ERR_INVALID_ADDR_MODE);
}

/** SQ posts are legal in CONNECTED and NONOPERATIONAL (flushed) only. */
export function checkSqState(ep: Ep): void {
  if (ep.state !== ST.IT_EP_STATE_CONNECTED && ep.state !== ST.IT_EP_STATE_NONOPERATIONAL) fail(S.IT_ERR_INVALID_EP_STATE);
}

/** One local segment as an RNICPI SGE. */
export function sgeOf(ep: { ia: Ia }, t: it_lmr_triplet_t, invalidLmrImmediate: boolean): ri_data_seg_t {
  if (!t || typeof t !== 'object' || typeof t.addr !== 'bigint' || !isUint(t.length) || t.length > MAX_RC_LEN) {
    fail(S.IT_ERR_INVALID_NUM_SEGMENTS, 'malformed segment');
  }
  const l = t.lmr as unknown;
  if (l instanceof Lmr) {
    if (l.direct) {
      // The Direct LMR Handle: STag 0 with an I/O address (privileged Endpoints only; others
      // get IT_DTO_ERR_LOCAL_PROTECTION from the RNIC).
      if (l.ia !== ep.ia && invalidLmrImmediate) fail(S.IT_ERR_INVALID_LMR, 'no Direct LMR on this IA');
      return { tag: 0, addr: t.addr, len: t.length };
    }
    return { tag: l.ltag, addr: t.addr, len: t.length };
  }
  if (invalidLmrImmediate) fail(S.IT_ERR_INVALID_LMR);
  // Not an LMR: the RNIC reports it as an invalid STag (IT_DTO_ERR_LOCAL_PROTECTION).
  return { tag: BAD_STAG, addr: t.addr, len: t.length };
}

export function sglOf(
  ep: { ia: Ia },
  segs: readonly it_lmr_triplet_t[] | null,
  max: number,
  invalidLmrImmediate: boolean,
): ri_data_seg_t[] {
  const list = segs ?? [];
  if (!Array.isArray(list) || list.length > max) fail(S.IT_ERR_INVALID_NUM_SEGMENTS);
  return list.map((t) => sgeOf(ep, t, invalidLmrImmediate));
}

/** A new RMR Context for a (re)link: same STag index, the next key (RDMAC verbs §7.2). */
export function nextContext(stag: number): number {
  return ((stag & ~0xff) | ((stag + 1) & 0xff)) >>> 0;
}

/**
 * The SEVDs of a new Endpoint (`it_ep_rc_create`, `it_ep_ud_create`), in the order the pages
 * check them: each an EVD of `ia`, then of the right stream, then the DTO SEVDs usable. Only an
 * RC Endpoint (`rc`) has a connect SEVD (`connH`).
 */
export function epSevds(ia: Ia, reqH: unknown, recvH: unknown, connH: unknown, rc: boolean): { req: Sevd; recv: Sevd; conn: Sevd | null } {
  const evdOf = (h: unknown, invalid: S): Evd => {
    const e = check(h, Evd, invalid);
    if (e.ia !== ia) fail(invalid);
    return e;
  };
  const req = evdOf(reqH, S.IT_ERR_INVALID_REQ_EVD);
  const recv = evdOf(recvH, S.IT_ERR_INVALID_RECV_EVD);
  const conn = rc ? evdOf(connH, S.IT_ERR_INVALID_CONN_EVD) : null;
  if (!(req instanceof Sevd) || req.stream !== ET.IT_DTO_EVENT_STREAM) fail(S.IT_ERR_INVALID_EVD_TYPE, 'request SEVD');
  if (!(recv instanceof Sevd) || recv.stream !== ET.IT_DTO_EVENT_STREAM) fail(S.IT_ERR_INVALID_EVD_TYPE, 'recv SEVD');
  if (conn && (!(conn instanceof Sevd) || conn.stream !== ET.IT_CM_MSG_EVENT_STREAM)) fail(S.IT_ERR_INVALID_EVD_TYPE, 'connect SEVD');
  if (req.overflowed || req.dtoDead) fail(S.IT_ERR_INVALID_REQ_EVD_STATE);
  if (recv.overflowed || recv.dtoDead) fail(S.IT_ERR_INVALID_RECV_EVD_STATE);
  return { req, recv, conn: conn as Sevd | null };
}

/**
 * Reserves a new Endpoint's completion entries on its SEVDs (`sq`, `rq`) and creates its QP; an
 * immediate error gives the reservation back. `rc`: an RNIC that refuses the IRD/ORD is
 * `IT_ERR_RESOURCE_IRD`.
 */
export function createEpQp(
  ep: { cqReservation: { req: number; recv: number }; createQp(): RiRet },
  req: Sevd,
  recv: Sevd,
  sq: number,
  rq: number,
  rc: boolean,
): void {
  if (!req.reserveCq(sq)) fail(S.IT_ERR_RESOURCES, 'request SEVD completion queue');
  if (!recv.reserveCq(rq)) {
    req.unreserveCq(sq);
    fail(S.IT_ERR_RESOURCES, 'recv SEVD completion queue');
  }
  ep.cqReservation = { req: sq, recv: rq };
  const st = ep.createQp();
  if (st !== RiRet.SUCCESS) {
    req.unreserveCq(sq);
    recv.unreserveCq(rq);
    if (st === RiRet.RNIC_WR_LIMIT_EXCEEDED) fail(S.IT_ERR_RESOURCE_REQ_DTO);
    if (st === RiRet.RNIC_SG_LIMIT_EXCEEDED) fail(S.IT_ERR_RESOURCE_SSEG);
    if (rc && st === RiRet.RNIC_IRD_ORD_EXCEEDED) fail(S.IT_ERR_RESOURCE_IRD);
    fail(S.IT_ERR_RESOURCES, `ri_qp_create: ${RiRet[st]}`);
  }
}

/**
 * Posting work requests (RDMA Protocol Verbs §8.1–8.2.1, RNICPI §5.5–5.6).
 *
 * Each function validates one WR completely and either queues a WQE (a private copy of the
 * WR) or returns the immediate error and changes nothing. List posting stops at the first
 * immediate error and reports how many WRs were posted (Verbs §8.2.1); that loop lives in
 * the provider, one call to these functions per WR.
 *
 * Every local SGE of an SQ WR (a Send's or Write's source, a Read's sink, an atomic's result
 * buffer) is checked against its region here, when it is posted (a Read
 * longer than its own sink went on the wire before its sink was looked at). A violation is the
 * spec's *completion* error (Verbs §8.1.3.2, the manual's E15 "completes with
 * IBV_WC_LOC_PROT_ERR"; RNICPI §2.4 lets the provider choose): the WR is queued already failed,
 * completes with that status in post order when it reaches the SQ head, the QP terminates
 * (Verbs §8.3), and nothing of it goes on the wire. The check is left to execution only when a
 * local memory operation (Bind, Fast-Register, Invalidate) is still queued ahead of the WR,
 * because that one may legitimately change the verdict; the requester checks every SGE again
 * before the first octet or Read Request goes out, since the region may also have changed since
 * the post (a deregistration, a remote invalidation).
 */
import { RiRet } from '../rnicpi/status.js';
import { RiQpState, RiWrType, RI_WR_ALL_FLAGS, RI_WR_RECV_VALID_FLAGS } from '../rnicpi/types.js';
import { type AtomicArgs, atomicArgsValid } from './atomics.js';
import { MemKind, type MemObject } from './memory.js';
import type { Qp } from './qp.js';
import type { Srq } from './srq.js';
import { mtuBytes, type UdDest } from './transport.js';
import { type FmrSpec, RqWqe, type Sge, SqWqe } from './wqe.js';
import { allowedFlags, SgeLimit, SglRole, WrExec, wrRow } from './wr-table.js';
import { QPN_MASK } from '../wire/ib/constants.js';

/** The QP's SGE limit of each kind (RNICPI `sq_max_sges`, `sq_max_sges_rdmaw`; Read sinks also the RNIC's). */
function sgeLimit(qp: Qp, k: SgeLimit): number {
  switch (k) {
    case SgeLimit.RDMA_WRITE:
      return qp.sqMaxSgesRdmaw;
    case SgeLimit.RDMA_READ:
      return Math.min(qp.sqMaxSges, qp.rnic.limits.maxSglRdmaRead);
    case SgeLimit.SEND:
      return qp.sqMaxSges;
    default:
      return 0;
  }
}

/** An SGE as the Consumer gives it. */
export interface SgeIn {
  stag: number;
  to: bigint;
  len: number;
}

/** One Send Queue WR, with the fields of every type (unused ones ignored). */
export interface SqWrIn {
  type: RiWrType;
  flags: number;
  id: bigint;
  sgl?: readonly SgeIn[];
  /** Remote STag: Write/Read target, Send with Invalidate's STag to invalidate. */
  rtag?: number;
  /** Remote TO of a Write or Read. */
  remoteTo?: bigint;
  // Bind
  mw?: MemObject;
  mr?: MemObject;
  mrStag?: number;
  bindVa?: bigint;
  bindLength?: number;
  bindFlags?: number;
  // Fast-Register
  fmr?: FmrSpec;
  // Fast-Register / Local Invalidate target
  target?: MemObject;
  targetStag?: number;
  /** UD Send: the destination (address vector, remote QPN and Q_Key). */
  ud?: UdDest;
  /** Send/Write with Immediate: the 32-bit immediate data. */
  imm?: number;
  /** Atomics: the operation, its operand size and masks (atomics.ts). */
  atomic?: AtomicArgs;
}

/** IB states in which the SQ takes no WR (IBTA Vol. 1 §10.3.1: Reset, Init, RTR). */
function ibSqClosed(s: RiQpState): boolean {
  return s === RiQpState.IDLE || s === RiQpState.INITIALIZED || s === RiQpState.READY_TO_RECEIVE;
}

/**
 * Can the QP's connection carry the row? A row that needs a negotiated capability (iWARP
 * atomics and immediate data: RFC 7306, agreed per connection) is refused at post time once
 * the connection is known not to have it, as rdma-core's siw provider refuses the opcodes
 * (EINVAL with `bad_wr`). Before a connection exists the WR is queued; the requester fails
 * it without touching the wire if the connection turns out not to have it.
 */
export function connectionCarries(qp: Qp, needs: 'atomics' | 'immediateData' | null, atomic?: AtomicArgs | null): boolean {
  const t = qp.transport;
  if (!needs || !t) return true;
  if (!t.caps[needs]) return false;
  return !atomic || atomic.size === 8 || t.caps.extAtomics === true;
}

const MAX_MSG = 0xffff_ffff;
const TWO64 = 1n << 64n;

/** The SGL's total length from the last {@link copySgl} (a module slot: no result object per WR). */
let copiedTotal = 0;

/**
 * Validates and copies an SGL into the WQE's own array (exactly sized: a pushed-to array would
 * reserve sixteen slots per WR). The total is left in {@link copiedTotal}.
 */
function copySgl(sgl: readonly SgeIn[] | undefined): Sge[] | RiRet {
  const n = sgl ? sgl.length : 0;
  const out: Sge[] = new Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const s = sgl![i];
    if (
      !s ||
      typeof s.to !== 'bigint' ||
      !Number.isInteger(s.len) ||
      s.len < 0 ||
      s.len > MAX_MSG ||
      !Number.isInteger(s.stag) ||
      s.stag < 0 ||
      s.stag > 0xffff_ffff
    ) {
      return RiRet.WR_SG_INVALID_FORMAT;
    }
    out[i] = { stag: s.stag >>> 0, to: s.to, len: s.len };
    total += s.len;
  }
  // The total length of an SGL is at most 2^32 − 1 (Verbs §8.1.3.2).
  if (total > MAX_MSG) return RiRet.MEM_INVALID_LENGTH;
  copiedTotal = total;
  return out;
}

/**
 * Posts one SQ WR. `privileged` is the caller's domain: Fast-Register needs it (RNICPI
 * §3.3); the QP's STag0/FastReg enable is checked when the WQE executes (Verbs §7.3).
 */
export function postSq(qp: Qp, wr: SqWrIn, privileged: boolean): RiRet {
  if (qp.destroyed) return RiRet.QP_INVALID_HANDLE;
  if (typeof wr.id !== 'bigint' || !Number.isInteger(wr.flags)) return RiRet.INVALID_PARAMETER;
  // After some time in Terminate the RI must answer immediately (Verbs §6.2.3); softrdma
  // keeps accepting (and later flushing) only in Idle, RTS, Closing and Error.
  if (qp.state === RiQpState.TERMINATE) return RiRet.QP_INVALID_STATE;
  if (qp.isIb && ibSqClosed(qp.state)) return RiRet.QP_INVALID_STATE;
  const t = wr.type;
  // Everything about the type comes from its row of the work-request table (wr-table.ts).
  const row = wrRow(t);
  if (!row) return RiRet.WR_INVALID_TYPE;
  if (!row.families.includes(qp.rnic.config.family)) return row.unsupported;
  // The QP's service must carry it (the table's services column; iWARP QPs are RC).
  if (!row.services.includes(qp.service)) return RiRet.WR_INVALID_TYPE;
  if ((wr.flags & ~RI_WR_ALL_FLAGS) !== 0 || (wr.flags & ~allowedFlags(row)) !== 0) return RiRet.WR_INVALID_FLAGS;
  if (row.needs === 'atomics') {
    if (!wr.atomic || !atomicArgsValid(wr.atomic)) return RiRet.INVALID_PARAMETER;
  }
  if (row.needs === 'immediateData' && (!Number.isInteger(wr.imm ?? 0) || (wr.imm ?? 0) < 0 || (wr.imm ?? 0) > 0xffff_ffff)) {
    return RiRet.INVALID_PARAMETER;
  }
  if (!connectionCarries(qp, row.needs, wr.atomic)) return row.unsupported;
  if (qp.sq.length >= qp.sqSize) return RiRet.QP_CAPACITY_EXCEEDED;
  let sgl: Sge[] = [];
  let total = 0;
  if (row.sgl !== SglRole.NONE) {
    const c = copySgl(wr.sgl);
    if (typeof c === 'number') return c;
    if (row.maxSges > 0 && c.length > row.maxSges) return RiRet.WR_SG_INVALID_FORMAT;
    if (c.length > sgeLimit(qp, row.sgeLimit)) return RiRet.RNIC_SG_LIMIT_EXCEEDED;
    sgl = c;
    total = copiedTotal;
  }
  if (row.sgl === SglRole.RESULT) {
    // The result buffer holds the whole original value (or there is none: it is discarded).
    if (sgl.length === 1 && sgl[0]!.len < wr.atomic!.size) return RiRet.WR_SG_INVALID_FORMAT;
    total = wr.atomic!.size;
  }
  if (row.remote === 'address') {
    if (typeof wr.remoteTo !== 'bigint' || wr.remoteTo < 0n || wr.remoteTo >= TWO64) return RiRet.MEM_INVALID_ADDRESS;
    if (!Number.isInteger(wr.rtag)) return RiRet.MEM_INVALID_RTAG;
    // STag 0 is local-only (Verbs §7.2.1): as the remote STag of a non-empty Write or Read it
    // is reported at once (RNICPI §4.4 lets the provider choose immediate or completion).
    if (wr.rtag === 0 && total > 0) return RiRet.MEM_INVALID_RTAG;
  }
  if (row.remote === 'stag' && !Number.isInteger(wr.rtag)) return RiRet.MEM_INVALID_RTAG;
  if (t === RiWrType.BIND) {
    if (!wr.mw || wr.mw.kind !== MemKind.MW || wr.mw.destroyed) return RiRet.MW_INVALID_HANDLE;
    if (!wr.mr || wr.mr.kind !== MemKind.MR || wr.mr.destroyed) return RiRet.MR_INVALID_HANDLE;
    if (typeof wr.bindVa !== 'bigint') return RiRet.MEM_INVALID_ADDRESS;
    if (!Number.isInteger(wr.bindLength) || wr.bindLength! < 0) return RiRet.MEM_INVALID_LENGTH;
    // A zero-length bind on a narrow window is a type error (RNICPI §3.8).
    if (wr.bindLength === 0 && wr.mw.mwType === 1) return RiRet.INVALID_WINDOW_TYPE;
    if (!Number.isInteger(wr.rtag)) return RiRet.MEM_INVALID_RTAG;
  }
  if (t === RiWrType.FAST_REGISTER) {
    if (!privileged) return RiRet.NO_PERMISSION;
    if (!wr.target || wr.target.kind !== MemKind.MR || wr.target.destroyed) return RiRet.MR_INVALID_HANDLE;
    if (!wr.fmr || !Array.isArray(wr.fmr.pbl)) return RiRet.INVALID_PARAMETER;
    if (!Number.isInteger(wr.fmr.pbeSize) || wr.fmr.pbeSize <= 0) return RiRet.INVALID_PARAMETER;
  }
  if (t === RiWrType.LOCAL_INVALIDATE_MR || t === RiWrType.LOCAL_INVALIDATE_MW) {
    const want = t === RiWrType.LOCAL_INVALIDATE_MW ? MemKind.MW : MemKind.MR;
    if (!wr.target || wr.target.kind !== want) {
      return want === MemKind.MW ? RiRet.MW_INVALID_HANDLE : RiRet.MR_INVALID_HANDLE;
    }
    // Invalidating a wide (Type 1) window is a window-type error (RNICPI §3.8).
    if (want === MemKind.MW && wr.target.mwType === 0) return RiRet.INVALID_WINDOW_TYPE;
  }
  if (qp.isIb && qp.service === 'UD') {
    const d = wr.ud;
    if (!d?.av || !(d.av.dgid instanceof Uint8Array)) return RiRet.ADDRESS_HANDLE_INVALID;
    if (!Number.isInteger(d.remoteQpn) || d.remoteQpn < 0 || d.remoteQpn > QPN_MASK) return RiRet.INVALID_PARAMETER;
    if (!Number.isInteger(d.remoteQkey) || d.remoteQkey < 0 || d.remoteQkey > 0xffff_ffff) return RiRet.INVALID_PARAMETER;
    // A datagram is one packet: at most the port's active MTU (IBTA Vol. 1 §9.8.3.1).
    if (total > mtuBytes(qp.rnic.config.activeMtu ?? 3)) return RiRet.MEM_INVALID_LENGTH;
  }
  // ---- valid: copy into a WQE ----
  const w = new SqWqe(qp.nextSqSeq(), t, wr.flags, wr.id);
  // Local SGEs are checked now unless a local memory operation ahead may still change them.
  if (row.sgl !== SglRole.NONE && !(qp.lastLocalOpSeq >= qp.sqProc)) w.postError = qp.requester.checkLocalSgl(sgl, row.sgl, false);
  if (row.exec === WrExec.LOCAL) qp.lastLocalOpSeq = w.seq;
  if (qp.isIb && qp.service === 'UD') {
    const d = wr.ud!;
    w.ud = {
      av: { ...d.av, dgid: Uint8Array.from(d.av.dgid), sgid: Uint8Array.from(d.av.sgid) },
      remoteQpn: d.remoteQpn,
      remoteQkey: d.remoteQkey >>> 0,
    };
  }
  w.sgl = sgl;
  w.totalLen = total;
  w.remoteStag = (wr.rtag ?? 0) >>> 0;
  w.remoteTo = wr.remoteTo ?? 0n;
  if (row.needs === 'immediateData') w.imm = (wr.imm ?? 0) >>> 0;
  if (row.needs === 'atomics') {
    const a = wr.atomic!;
    w.atomic = { ...a, addSwap: [...a.addSwap], addSwapMask: [...a.addSwapMask], compare: [...a.compare], compareMask: [...a.compareMask] };
  }
  if (t === RiWrType.BIND) {
    w.local = {
      mw: wr.mw!,
      mr: wr.mr!,
      bindVa: wr.bindVa!,
      bindLength: wr.bindLength!,
      bindFlags: wr.bindFlags ?? 0,
      bindNewStag: wr.rtag! >>> 0,
      fmr: null,
      target: null,
      targetStag: (wr.mrStag ?? wr.mr!.stag) >>> 0,
    };
  }
  if (t === RiWrType.FAST_REGISTER || t === RiWrType.LOCAL_INVALIDATE_MR || t === RiWrType.LOCAL_INVALIDATE_MW) {
    const f = t === RiWrType.FAST_REGISTER ? wr.fmr! : null;
    w.local = {
      mw: null,
      mr: null,
      bindVa: 0n,
      bindLength: 0,
      bindFlags: 0,
      bindNewStag: 0,
      fmr: f ? { ...f, pbl: [...f.pbl] } : null,
      target: wr.target!,
      targetStag: (wr.targetStag ?? wr.target!.stag) >>> 0,
    };
  }
  qp.enqueueSq(w);
  return RiRet.SUCCESS;
}

/** Posts one receive WR to a QP's RQ (RNICPI `ri_qp_post_recv`). */
export function postRq(qp: Qp, flags: number, id: bigint, sglIn: readonly SgeIn[]): RiRet {
  if (qp.destroyed) return RiRet.QP_INVALID_HANDLE;
  if (qp.srq) return RiRet.QP_TIED_TO_SRQ;
  if (typeof id !== 'bigint') return RiRet.INVALID_PARAMETER;
  if (!Number.isInteger(flags) || (flags & ~RI_WR_RECV_VALID_FLAGS) !== 0) return RiRet.WR_INVALID_FLAGS;
  if (qp.state === RiQpState.TERMINATE) return RiRet.QP_INVALID_STATE;
  // An IB QP in Reset has no Receive Queue to post to (IBTA Vol. 1 §10.3.1.1).
  if (qp.isIb && qp.state === RiQpState.IDLE) return RiRet.QP_INVALID_STATE;
  const c = copySgl(sglIn);
  if (typeof c === 'number') return c;
  if (c.length > qp.rqMaxSges) return RiRet.RNIC_SG_LIMIT_EXCEEDED;
  if (qp.rq.length >= qp.rqSize) return RiRet.QP_CAPACITY_EXCEEDED;
  const w = new RqWqe(qp.nextRqSeq(), flags, id, c);
  w.capacity = copiedTotal;
  qp.enqueueRq(w);
  return RiRet.SUCCESS;
}

/** Posts one receive WR to an S-RQ (RNICPI `ri_srq_post_recv`). */
export function postSrq(srq: Srq, flags: number, id: bigint, sglIn: readonly SgeIn[]): RiRet {
  if (srq.destroyed) return RiRet.SRQ_INVALID_HANDLE;
  if (typeof id !== 'bigint') return RiRet.INVALID_PARAMETER;
  if (!Number.isInteger(flags) || (flags & ~RI_WR_RECV_VALID_FLAGS) !== 0) return RiRet.WR_INVALID_FLAGS;
  const c = copySgl(sglIn);
  if (typeof c === 'number') return c;
  if (c.length > srq.maxSgl) return RiRet.RNIC_SG_LIMIT_EXCEEDED;
  const w = new RqWqe(-1, flags, id, c);
  w.capacity = copiedTotal;
  return srq.push(w) ? RiRet.SUCCESS : RiRet.QP_CAPACITY_EXCEEDED;
}

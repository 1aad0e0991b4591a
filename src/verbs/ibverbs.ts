/**
 * libibverbs in TypeScript (manual chapter 4), a thin face over RNICPI.
 *
 * Every call maps to one or a few `ri_*` calls on the context's RNIC handle; the rules
 * (state machine, access checks, flushing, notification) are the engine's. What lives here is
 * the ibverbs vocabulary: IB-style QP states over the iWARP ones, `ibv_access_flags`, the WR
 * and WC layouts and their status codes, completion channels, and the C return conventions
 * (`errno.ts`).
 *
 * IB QP states on an iWARP QP follow Linux's iWARP mapping (siw): RESET, INIT and RTR are all
 * the RNIC's Idle; RTS needs an LLP stream, which only rdma_cm provides; SQD is Closing, SQE is
 * Terminate, ERR is Error.
 */
import { RiRet } from '../rnicpi/status.js';
import { bytesOfRiGid, riGidOfBytes } from '../rnicpi/gid.js';
import {
  RiCmpltNotifyType,
  RiMemFlags,
  RiMwType,
  RiQpAttrMask,
  RiQpState,
  RiSrqAttrMask,
  RiSvcType,
  RiWcFlags,
  RiWcStatus,
  RiWcType,
  RiWrFlags,
  RiWrType,
  riWcIsGen,
  type ri_address_handle_t,
  type ri_cq_handle_t,
  type ri_gen_address_vector_t,
  type ri_ib_qp_attr_t,
  type ri_data_seg_t,
  type ri_mr_handle_t,
  type ri_mw_handle_t,
  type ri_pd_handle_t,
  type ri_qp_handle_t,
  type ri_srq_handle_t,
  type ri_rc_wc_t,
  type ri_wc_t,
  type ri_wr_recv_t,
  type ri_wr_t,
} from '../rnicpi/types.js';
import { hostMemory } from '../rnic/hostmem.js';
import { riQpState } from '../provider/softrdma.js';
import { IbQpAttr, type IbQpState, ibModifyOk } from '../rnic/qp-states.js';
import type { PostResult, WrList } from './api.js';
import {
  ibv_access_flags,
  ibv_mig_state,
  ibv_mw_type,
  ibv_qp_attr_mask,
  ibv_qp_state,
  ibv_qp_type,
  ibv_send_flags,
  ibv_srq_attr_mask,
  ibv_transport_type,
  ibv_wc_flags,
  ibv_wc_opcode,
  ibv_wc_status,
  ibv_wr_opcode,
  ibv_exp_wr_opcode,
  IBV_EXP_DEVICE_ATTR_EXT_ATOMIC_ARGS,
  IBV_EXP_DEVICE_EXT_ATOMICS,
  IBV_EXP_QP_INIT_ATTR_ATOMICS_ARG,
  IBV_EXP_QP_INIT_ATTR_PD,
  IBV_EXP_SEND_FENCE,
  IBV_EXP_SEND_SIGNALED,
  IBV_EXP_SEND_SOLICITED,
} from './constants.js';
import { type AsyncTarget, type CompletionTarget, Context, closeDevice, errnoOf, fail, queryDevice, queryGid, rnicAttrs } from './device.js';
import { EAGAIN, EBADF, EBUSY, EINVAL, ENOMEM, ENOSYS, EOPNOTSUPP, setErrno } from './errno.js';
import {
  type ibv_ah,
  type ibv_ah_attr,
  type ibv_gid,
  type ibv_grh,
  type ibv_async_event,
  type ibv_comp_channel,
  type ibv_context,
  type ibv_cq,
  type ibv_device_attr,
  type ibv_exp_device_attr,
  type ibv_exp_qp_init_attr,
  type ibv_exp_send_wr,
  type ibv_mr,
  type ibv_mw,
  type ibv_pd,
  type ibv_qp,
  type ibv_qp_attr,
  type ibv_qp_cap,
  type ibv_qp_init_attr,
  type ibv_recv_wr,
  type ibv_send_wr,
  type ibv_sge,
  type ibv_srq,
  type ibv_srq_attr,
  type ibv_srq_init_attr,
  type ibv_wc,
  type In,
  VERBS_HANDLE,
} from './types.js';

/** Bytes a WR may carry inline (`IBV_SEND_INLINE`), copied at post time. */
export const MAX_INLINE_DATA = 256;
/** ORD/IRD a QP gets unless rdma_cm or `ibv_modify_qp` sets others. */
export const DEFAULT_RD_ATOMIC = 16;

let handleSeq = 1;

// ------------------------------------------------------------------------------ objects

export class Pd implements ibv_pd {
  readonly [VERBS_HANDLE] = 'ibv_pd' as const;
  readonly handle = handleSeq++;
  dead = false;
  constructor(
    readonly context: Context,
    readonly ri: ri_pd_handle_t,
  ) {}
}

export class Mr implements ibv_mr {
  readonly [VERBS_HANDLE] = 'ibv_mr' as const;
  readonly handle = handleSeq++;
  dead = false;
  constructor(
    readonly context: Context,
    readonly pd: Pd,
    readonly addr: bigint,
    readonly length: number,
    readonly lkey: number,
    readonly rkey: number,
    readonly ri: ri_mr_handle_t,
    readonly bytes: Uint8Array,
  ) {}
}

export class Mw implements ibv_mw {
  readonly [VERBS_HANDLE] = 'ibv_mw' as const;
  readonly handle = handleSeq++;
  dead = false;
  constructor(
    readonly context: Context,
    readonly pd: Pd,
    public rkey: number,
    readonly type: ibv_mw_type,
    readonly ri: ri_mw_handle_t,
  ) {}
}

let channelFdSeq = 1000;

export class CompChannel implements ibv_comp_channel {
  readonly [VERBS_HANDLE] = 'ibv_comp_channel' as const;
  readonly fd = channelFdSeq++;
  refcnt = 0;
  nonblocking = false;
  dead = false;
  private readonly ready: Cq[] = [];
  private readonly waiters: ((r: { ret: number; cq: ibv_cq | null; cq_context: unknown }) => void)[] = [];
  constructor(readonly context: Context) {}

  /** A CQ of this channel fired its notification. */
  push(cq: Cq): void {
    if (this.dead) return;
    const w = this.waiters.shift();
    if (w) {
      // Events handed to the consumer must be acked before the CQ can be destroyed.
      cq.compEvents++;
      w({ ret: 0, cq, cq_context: cq.cq_context });
    } else this.ready.push(cq);
  }

  get(): Promise<{ ret: number; cq: ibv_cq | null; cq_context: unknown }> {
    if (this.dead) return Promise.resolve({ ret: fail(EBADF), cq: null, cq_context: null });
    const cq = this.ready.shift();
    if (cq) {
      cq.compEvents++;
      return Promise.resolve({ ret: 0, cq, cq_context: cq.cq_context });
    }
    if (this.nonblocking) return Promise.resolve({ ret: fail(EAGAIN), cq: null, cq_context: null });
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Drops queued events of a CQ being destroyed. */
  forget(cq: Cq): void {
    for (let i = this.ready.length - 1; i >= 0; i--) if (this.ready[i] === cq) this.ready.splice(i, 1);
  }

  close(): void {
    this.dead = true;
    for (const w of this.waiters.splice(0)) w({ ret: fail(EBADF), cq: null, cq_context: null });
  }
}

export class Cq implements ibv_cq, CompletionTarget, AsyncTarget {
  readonly [VERBS_HANDLE] = 'ibv_cq' as const;
  readonly handle = handleSeq++;
  comp_events_completed = 0;
  async_events_completed = 0;
  /** Completion events delivered (to be acked before destroy). */
  compEvents = 0;
  asyncEvents = 0;
  dead = false;
  ri!: ri_cq_handle_t;
  cqe = 0;
  constructor(
    readonly context: Context,
    readonly channel: CompChannel | null,
    readonly cq_context: unknown,
  ) {}
  onCompletionEvent(): void {
    if (this.dead || !this.channel) return;
    this.channel.push(this);
  }
  reportAsync(): void {
    this.asyncEvents++;
  }
  asyncElement(): ibv_async_event['element'] {
    return { cq: this, qp: null, srq: null, port_num: 0 };
  }
  ackAsync(): void {
    this.async_events_completed++;
  }
}

export class Srq implements ibv_srq, AsyncTarget {
  readonly [VERBS_HANDLE] = 'ibv_srq' as const;
  readonly handle = handleSeq++;
  events_completed = 0;
  asyncEvents = 0;
  dead = false;
  ri!: ri_srq_handle_t;
  maxWr = 0;
  maxSge = 0;
  constructor(
    readonly context: Context,
    readonly pd: Pd,
    readonly srq_context: unknown,
  ) {}
  reportAsync(): void {
    this.asyncEvents++;
  }
  asyncElement(): ibv_async_event['element'] {
    return { cq: null, qp: null, srq: this, port_num: 0 };
  }
  ackAsync(): void {
    this.events_completed++;
  }
}

export class Qp implements ibv_qp, AsyncTarget {
  readonly [VERBS_HANDLE] = 'ibv_qp' as const;
  readonly handle = handleSeq++;
  events_completed = 0;
  asyncEvents = 0;
  dead = false;
  ri!: ri_qp_handle_t;
  qp_num = 0;
  /**
   * `rdma_disconnect` asked for a graceful close: a bad close that follows (work was still
   * outstanding) is the expected abortive close, not reported as an asynchronous event.
   */
  quietBadClose = false;
  /** The IB state last set (RESET/INIT/RTR are all Idle on the RNIC). */
  ibState: ibv_qp_state = ibv_qp_state.IBV_QPS_RESET;
  cap: ibv_qp_cap = { max_send_wr: 0, max_recv_wr: 0, max_send_sge: 0, max_recv_sge: 0, max_inline_data: 0 };
  sqSigAll = false;
  accessFlags = 0;
  maxRdAtomic = DEFAULT_RD_ATOMIC;
  maxDestRdAtomic = DEFAULT_RD_ATOMIC;
  /** Bounce buffer for inline sends: one slot of MAX_INLINE_DATA per SQ entry. */
  inline: { mr: Mr; next: number } | null = null;
  /**
   * The IB attributes set by `ibv_modify_qp` (path, PSNs, timers, retry counts): they have no
   * effect on an iWARP QP but `ibv_query_qp` reports them back as set (manual §4.6.1).
   */
  ib: QpIbAttrs = newIbAttrs();
  constructor(
    readonly context: Context,
    readonly pd: Pd,
    readonly send_cq: Cq,
    readonly recv_cq: Cq,
    readonly srq: Srq | null,
    readonly qp_context: unknown,
    readonly qp_type: ibv_qp_type = ibv_qp_type.IBV_QPT_RC,
  ) {}
  /** The QP lives on a RoCEv2 (InfiniBand transport) device: the RNIC keeps the IB states. */
  get isIb(): boolean {
    return this.context.device.transport_type === ibv_transport_type.IBV_TRANSPORT_IB;
  }
  /** The state the RNIC reports, in IB terms (iWARP mapping of Linux siw; IB states as they are). */
  get state(): ibv_qp_state {
    if (this.dead) return ibv_qp_state.IBV_QPS_UNKNOWN;
    const st = riQpState(this.context.ops, this.context.rnic, this.ri);
    if (st === null) return ibv_qp_state.IBV_QPS_UNKNOWN;
    if (this.isIb) return IBV_OF_RI[st] ?? ibv_qp_state.IBV_QPS_UNKNOWN;
    switch (st) {
      case RiQpState.IDLE:
        return this.ibState === ibv_qp_state.IBV_QPS_ERR || this.ibState === ibv_qp_state.IBV_QPS_RTS
          ? ibv_qp_state.IBV_QPS_RESET
          : this.ibState;
      case RiQpState.READY_TO_SEND:
        // The LLP connection (a socket converted by the CM) can put the RNIC in RTS while the
        // consumer has not yet issued its RTR→RTS modify: the QP reads as RTR until it does.
        return this.ibState === ibv_qp_state.IBV_QPS_RTR ? ibv_qp_state.IBV_QPS_RTR : ibv_qp_state.IBV_QPS_RTS;
      case RiQpState.CLOSING:
        return ibv_qp_state.IBV_QPS_SQD;
      case RiQpState.TERMINATE:
        return ibv_qp_state.IBV_QPS_SQE;
      default:
        return ibv_qp_state.IBV_QPS_ERR;
    }
  }
  reportAsync(): void {
    this.asyncEvents++;
  }
  asyncElement(): ibv_async_event['element'] {
    return { cq: null, qp: this, srq: null, port_num: 0 };
  }
  ackAsync(): void {
    this.events_completed++;
  }
}

/** The IB state of each RNICPI IB state (RNICPI 1.0 §6.7; SQD covers Draining and Drained). */
const IBV_OF_RI: Readonly<Record<number, ibv_qp_state>> = {
  [RiQpState.IDLE]: ibv_qp_state.IBV_QPS_RESET,
  [RiQpState.INITIALIZED]: ibv_qp_state.IBV_QPS_INIT,
  [RiQpState.READY_TO_RECEIVE]: ibv_qp_state.IBV_QPS_RTR,
  [RiQpState.READY_TO_SEND]: ibv_qp_state.IBV_QPS_RTS,
  [RiQpState.SEND_QUEUE_DRAINING]: ibv_qp_state.IBV_QPS_SQD,
  [RiQpState.SEND_QUEUE_DRAINED]: ibv_qp_state.IBV_QPS_SQD,
  [RiQpState.SEND_QUEUE_ERROR]: ibv_qp_state.IBV_QPS_SQE,
  [RiQpState.ERROR]: ibv_qp_state.IBV_QPS_ERR,
};
const RI_OF_IBV: Readonly<Record<number, RiQpState>> = {
  [ibv_qp_state.IBV_QPS_RESET]: RiQpState.IDLE,
  [ibv_qp_state.IBV_QPS_INIT]: RiQpState.INITIALIZED,
  [ibv_qp_state.IBV_QPS_RTR]: RiQpState.READY_TO_RECEIVE,
  [ibv_qp_state.IBV_QPS_RTS]: RiQpState.READY_TO_SEND,
  [ibv_qp_state.IBV_QPS_SQD]: RiQpState.SEND_QUEUE_DRAINED,
  [ibv_qp_state.IBV_QPS_SQE]: RiQpState.SEND_QUEUE_ERROR,
  [ibv_qp_state.IBV_QPS_ERR]: RiQpState.ERROR,
};

/** `struct ibv_ah` of a RoCEv2 device: the RNIC's address handle (`ri_ah_create`). */
export class Ah implements ibv_ah {
  readonly [VERBS_HANDLE] = 'ibv_ah' as const;
  readonly handle = handleSeq++;
  dead = false;
  constructor(
    readonly context: Context,
    readonly pd: Pd,
    readonly ri: ri_address_handle_t,
  ) {}
}

// ------------------------------------------------------------------------------ helpers

function alive<T extends { dead: boolean }>(o: T | null | undefined, kind: string): o is T {
  return !!o && typeof o === 'object' && !o.dead && (o as unknown as Record<symbol, unknown>)[VERBS_HANDLE] === kind;
}

function ctxOk(ctx: Context): boolean {
  return ctx instanceof Context && !ctx.closed;
}

/** `ibv_access_flags` → RNICPI memory rights; null for a combination ibverbs forbids. */
export function memFlagsOf(access: number): number | null {
  const A = ibv_access_flags;
  const known =
    A.IBV_ACCESS_LOCAL_WRITE | A.IBV_ACCESS_REMOTE_WRITE | A.IBV_ACCESS_REMOTE_READ | A.IBV_ACCESS_REMOTE_ATOMIC |
    A.IBV_ACCESS_MW_BIND | A.IBV_ACCESS_ZERO_BASED | A.IBV_ACCESS_RELAXED_ORDERING;
  if (!Number.isInteger(access) || (access & ~known) !== 0) return null;
  // Remote Write and Remote Atomic need Local Write (ibv_reg_mr(3)).
  if (access & (A.IBV_ACCESS_REMOTE_WRITE | A.IBV_ACCESS_REMOTE_ATOMIC) && !(access & A.IBV_ACCESS_LOCAL_WRITE)) return null;
  let f = RiMemFlags.LOCAL_READ;
  if (access & A.IBV_ACCESS_LOCAL_WRITE) f |= RiMemFlags.LOCAL_WRITE;
  if (access & A.IBV_ACCESS_REMOTE_WRITE) f |= RiMemFlags.REMOTE_WRITE;
  if (access & A.IBV_ACCESS_REMOTE_READ) f |= RiMemFlags.REMOTE_READ;
  if (access & A.IBV_ACCESS_REMOTE_ATOMIC) f |= RiMemFlags.ATOMICS;
  if (access & A.IBV_ACCESS_MW_BIND) f |= RiMemFlags.BINDING;
  if (access & A.IBV_ACCESS_ZERO_BASED) f |= RiMemFlags.ZBVA;
  return f;
}

/** Walks a WR list given as an array or as one WR with a `next` chain. */
function* wrItems<W extends { next?: unknown }>(list: W | readonly W[]): Generator<W> {
  if (Array.isArray(list)) {
    for (const w of list as readonly W[]) yield w;
    return;
  }
  let w: W | null | undefined = list as W;
  while (w) {
    yield w;
    w = (w.next ?? null) as W | null;
  }
}

function sgeList(sg: readonly In<ibv_sge>[] | undefined, num: number | undefined): ri_data_seg_t[] | null {
  const list = sg ?? [];
  const n = num ?? list.length;
  if (!Number.isInteger(n) || n < 0 || n > list.length) return null;
  const out: ri_data_seg_t[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const s = list[i]!;
    out[i] = { addr: s.addr ?? 0n, tag: (s.lkey ?? 0) >>> 0, len: s.length ?? 0 };
  }
  return out;
}

// ------------------------------------------------------------------------------ PD / MR / MW

export function ibv_alloc_pd(context: ibv_context_like): ibv_pd | null {
  const ctx = context as Context;
  if (!ctxOk(ctx)) return nullWith(EINVAL);
  const r = ctx.ops.ri_pd_alloc(ctx.rnic, null, null);
  if (r.status !== RiRet.SUCCESS) return nullWith(errnoOf(r.status));
  const pd = new Pd(ctx, r.pd);
  ctx.objects.add(pd);
  return pd;
}

export function ibv_dealloc_pd(pd: ibv_pd): number {
  const p = pd as Pd;
  if (!alive(p, 'ibv_pd')) return fail(EINVAL);
  const st = p.context.ops.ri_pd_dealloc(p.context.rnic, p.ri);
  if (st.status !== RiRet.SUCCESS) return fail(errnoOf(st.status));
  p.dead = true;
  p.context.objects.delete(p);
  return 0;
}

/**
 * `ibv_reg_mr`: registers `addr` (the bytes themselves) as `[mr.addr, mr.addr+length)` in the
 * synthetic address space; `length` may cover a prefix of the view.
 */
export function ibv_reg_mr(pd: ibv_pd, addr: Uint8Array, length: number, access: number): ibv_mr | null {
  const p = pd as Pd;
  if (!alive(p, 'ibv_pd')) return nullWith(EINVAL);
  const bad = regMrArgError(addr, length);
  if (bad) return nullWith(EINVAL, `ibv_reg_mr: ${bad} (EINVAL)`);
  const flags = memFlagsOf(access);
  if (flags === null) return nullWith(EINVAL, `ibv_reg_mr: access 0x${Number(access).toString(16)} is not a valid ibv_access_flags combination (remote write needs local write) (EINVAL)`);
  const va = hostMemory.addressOf(addr);
  const ctx = p.context;
  const r = ctx.ops.ri_mr_reg(ctx.rnic, { va, length, mem_attr: flags | RiMemFlags.USER_VA, pd: p.ri }, 0, null, null);
  if (r.status !== RiRet.SUCCESS) return nullWith(errnoOf(r.status));
  // On iWARP one STag serves as both keys.
  const mr = new Mr(ctx, p, va, length, r.ltag, r.rtag ?? r.ltag, r.mr, addr.subarray(0, length));
  ctx.objects.add(mr);
  return mr;
}

/** What is wrong with `ibv_reg_mr`'s buffer and length, in words; null when nothing is. */
function regMrArgError(addr: unknown, length: unknown): string | null {
  if (!(addr instanceof Uint8Array)) {
    const what = addr === null ? 'null' : addr instanceof ArrayBuffer ? 'an ArrayBuffer' : `a ${typeof addr}`;
    return `addr is ${what}; expected a Uint8Array (or Buffer) holding the memory to register`;
  }
  if (typeof length !== 'number' || !Number.isInteger(length) || length <= 0) return `length ${String(length)} is not a positive integer`;
  if (length > addr.length) return `length ${length} is beyond the end of addr (${addr.length} bytes)`;
  return null;
}

export function ibv_dereg_mr(mr: ibv_mr): number {
  const m = mr as Mr;
  if (!alive(m, 'ibv_mr')) return fail(EINVAL);
  const st = m.context.ops.ri_mr_dereg(m.context.rnic, m.ri);
  if (st.status !== RiRet.SUCCESS) return fail(errnoOf(st.status));
  m.dead = true;
  m.context.objects.delete(m);
  return 0;
}

/** `ibv_alloc_mw` (rdma-core; type 2 = narrow, bound by a WR to one QP). */
export function ibv_alloc_mw(pd: ibv_pd, type: ibv_mw_type): ibv_mw | null {
  const p = pd as Pd;
  if (!alive(p, 'ibv_pd')) return nullWith(EINVAL);
  let t: RiMwType;
  if (type === ibv_mw_type.IBV_MW_TYPE_2) t = RiMwType.TYPE_NARROW;
  else if (type === ibv_mw_type.IBV_MW_TYPE_1) t = RiMwType.TYPE_WIDE;
  else return nullWith(EINVAL);
  const ctx = p.context;
  const r = ctx.ops.ri_mw_alloc(ctx.rnic, p.ri, t, null, null);
  if (r.status !== RiRet.SUCCESS) return nullWith(errnoOf(r.status));
  const mw = new Mw(ctx, p, r.rtag, type, r.mw);
  ctx.objects.add(mw);
  return mw;
}

export function ibv_dealloc_mw(mw: ibv_mw): number {
  const w = mw as Mw;
  if (!alive(w, 'ibv_mw')) return fail(EINVAL);
  const st = w.context.ops.ri_mw_dealloc(w.context.rnic, w.ri);
  if (st.status !== RiRet.SUCCESS) return fail(errnoOf(st.status));
  w.dead = true;
  w.context.objects.delete(w);
  return 0;
}

// ------------------------------------------------------------------------------ CQ

export function ibv_create_comp_channel(context: ibv_context_like): ibv_comp_channel | null {
  const ctx = context as Context;
  if (!ctxOk(ctx)) return nullWith(EINVAL);
  const ch = new CompChannel(ctx);
  ctx.objects.add(ch);
  return ch;
}

export function ibv_destroy_comp_channel(channel: ibv_comp_channel): number {
  const ch = channel as CompChannel;
  if (!alive(ch, 'ibv_comp_channel')) return fail(EINVAL);
  if (ch.refcnt > 0) return fail(EBUSY);
  ch.close();
  ch.context.objects.delete(ch);
  return 0;
}

export function ibv_create_cq(
  context: ibv_context_like,
  cqe: number,
  cq_context: unknown,
  channel: ibv_comp_channel | null,
  comp_vector: number,
): ibv_cq | null {
  const ctx = context as Context;
  if (!ctxOk(ctx)) return nullWith(EINVAL);
  const ch = channel as CompChannel | null;
  if (ch !== null && !alive(ch, 'ibv_comp_channel')) return nullWith(EINVAL);
  if (!Number.isInteger(cqe) || cqe < 1 || comp_vector !== 0) return nullWith(EINVAL);
  const cq = new Cq(ctx, ch, cq_context);
  const r = ctx.ops.ri_cq_create(ctx.rnic, { num_cqe: cqe, handler_id: ctx.device.cqHandlerId }, null, cq);
  if (r.status !== RiRet.SUCCESS) return nullWith(errnoOf(r.status));
  cq.ri = r.cq;
  cq.cqe = r.cq_attr.num_cqe;
  if (ch) ch.refcnt++;
  ctx.objects.add(cq);
  return cq;
}

export function ibv_resize_cq(cq: ibv_cq, cqe: number): number {
  const c = cq as Cq;
  if (!alive(c, 'ibv_cq') || !Number.isInteger(cqe) || cqe < 1) return fail(EINVAL);
  const r = c.context.ops.ri_cq_modify(c.context.rnic, c.ri, 1, { num_cqe: cqe, handler_id: 0 });
  if (r.status !== RiRet.SUCCESS) return fail(errnoOf(r.status));
  c.cqe = r.cq_attr.num_cqe;
  return 0;
}

export function ibv_destroy_cq(cq: ibv_cq): number {
  const c = cq as Cq;
  if (!alive(c, 'ibv_cq')) return fail(EINVAL);
  // C blocks until every event was acknowledged; a single thread cannot wait (api.ts).
  if (c.comp_events_completed < c.compEvents || c.async_events_completed < c.asyncEvents) return fail(EBUSY);
  const st = c.context.ops.ri_cq_destroy(c.context.rnic, c.ri);
  if (st.status !== RiRet.SUCCESS) return fail(errnoOf(st.status));
  c.dead = true;
  if (c.channel) {
    c.channel.refcnt--;
    c.channel.forget(c);
  }
  c.context.dropAsync(c);
  c.context.objects.delete(c);
  return 0;
}

export function ibv_req_notify_cq(cq: ibv_cq, solicited_only: number): number {
  const c = cq as Cq;
  if (!alive(c, 'ibv_cq')) return fail(EINVAL);
  const st = c.context.ops.ri_cq_req_notification(
    c.context.rnic,
    c.ri,
    solicited_only ? RiCmpltNotifyType.SOLICITED : RiCmpltNotifyType.ANY,
  );
  return st.status === RiRet.SUCCESS ? 0 : fail(errnoOf(st.status));
}

export function ibv_get_cq_event(channel: ibv_comp_channel): Promise<{ ret: number; cq: ibv_cq | null; cq_context: unknown }> {
  const ch = channel as CompChannel;
  if (!(ch instanceof CompChannel)) return Promise.resolve({ ret: fail(EINVAL), cq: null, cq_context: null });
  return ch.get();
}

export function ibv_ack_cq_events(cq: ibv_cq, nevents: number): void {
  const c = cq as Cq;
  if (c instanceof Cq) c.comp_events_completed += nevents;
}

/** RNICPI WC status → ibverbs (the iWARP statuses folded as Linux siw folds them). */
export function wcStatusOf(st: number, opType: number): ibv_wc_status {
  const S = ibv_wc_status;
  switch (st) {
    case RiWcStatus.SUCCESS:
      return S.IBV_WC_SUCCESS;
    case RiWcStatus.WR_FLUSHED_ERROR:
      return S.IBV_WC_WR_FLUSH_ERR;
    case RiWcStatus.LOCAL_QP_OP_ERROR:
    case RiWcStatus.WQE_FORMAT_ERROR:
    case RiWcStatus.ZERO_ORD_ERROR:
      return S.IBV_WC_LOC_QP_OP_ERR;
    case RiWcStatus.REMOTE_TERMINATION_ERROR:
    case RiWcStatus.REMOTE_OP_ERROR:
      return S.IBV_WC_REM_OP_ERR;
    case RiWcStatus.REMOTE_ACCESS_ERROR:
      return S.IBV_WC_REM_ACCESS_ERR;
    case RiWcStatus.REMOTE_INVALID_REQ_ERROR:
      return S.IBV_WC_REM_INV_REQ_ERR;
    case RiWcStatus.BASE_BOUNDS_VIOLATION_ERROR:
      // A receive buffer too small for the message is a length error in ibverbs terms.
      return opType === RiWcType.DATA_RECEIVED ? S.IBV_WC_LOC_LEN_ERR : S.IBV_WC_LOC_PROT_ERR;
    case RiWcStatus.HUGE_PAYLOAD_ERROR:
      return S.IBV_WC_LOC_LEN_ERR;
    case RiWcStatus.INVALID_BIND_MR_ERROR:
    case RiWcStatus.INVALID_BIND_MW_ERROR:
      return S.IBV_WC_MW_BIND_ERR;
    case RiWcStatus.STAG_NOT_IN_INVALID_STATE_ERROR:
      return opType === RiWcType.BIND ? S.IBV_WC_MW_BIND_ERR : S.IBV_WC_LOC_PROT_ERR;
    case RiWcStatus.INVALID_STAG_ERROR:
    case RiWcStatus.ACCESS_VIOLATION_ERROR:
    case RiWcStatus.INVALID_PD_ERROR:
    case RiWcStatus.ADDRESS_WRAP_ERROR:
    case RiWcStatus.STAG_INVALIDATE_ERROR:
      return opType === RiWcType.BIND ? S.IBV_WC_MW_BIND_ERR : S.IBV_WC_LOC_PROT_ERR;
    // InfiniBand completion statuses (RNICPI §6.10 IB-specific; IBTA Vol. 1 §11.6.2).
    case RiWcStatus.LOCAL_LENGTH_ERROR:
      return S.IBV_WC_LOC_LEN_ERR;
    case RiWcStatus.LOCAL_PROTECTION_ERROR:
      return S.IBV_WC_LOC_PROT_ERR;
    case RiWcStatus.MEMORY_MGMT_ERROR:
      return S.IBV_WC_MW_BIND_ERR;
    case RiWcStatus.BAD_RESPONSE_ERROR:
      return S.IBV_WC_BAD_RESP_ERR;
    case RiWcStatus.LOCAL_ACCESS_ERROR:
      return S.IBV_WC_LOC_ACCESS_ERR;
    case RiWcStatus.TRANSPORT_RETRY_EXCEEDED:
      return S.IBV_WC_RETRY_EXC_ERR;
    case RiWcStatus.RNR_RETRY_EXCEEDED:
      return S.IBV_WC_RNR_RETRY_EXC_ERR;
    case RiWcStatus.REMOTE_ABORTED_ERROR:
      return S.IBV_WC_REM_ABORT_ERR;
    default:
      if (st >= RiWcStatus.FMR_QP_NOT_PRIVILEGED_ERROR && st <= RiWcStatus.INVALID_FMR_VA_ERROR) return S.IBV_WC_LOC_PROT_ERR;
      return S.IBV_WC_GENERAL_ERR;
  }
}

const WC_OPCODE: Record<number, ibv_wc_opcode> = {
  [RiWcType.SEND]: ibv_wc_opcode.IBV_WC_SEND,
  [RiWcType.RDMA_WRITE]: ibv_wc_opcode.IBV_WC_RDMA_WRITE,
  [RiWcType.RDMA_READ]: ibv_wc_opcode.IBV_WC_RDMA_READ,
  [RiWcType.RDMA_READ_LOCAL_INVALIDATE]: ibv_wc_opcode.IBV_WC_RDMA_READ,
  [RiWcType.BIND]: ibv_wc_opcode.IBV_WC_BIND_MW,
  [RiWcType.LOCAL_INVALIDATE]: ibv_wc_opcode.IBV_WC_LOCAL_INV,
  [RiWcType.DATA_RECEIVED]: ibv_wc_opcode.IBV_WC_RECV,
  [RiWcType.COMPARE_AND_SWAP]: ibv_wc_opcode.IBV_WC_COMP_SWAP,
  [RiWcType.FETCH_AND_ADD]: ibv_wc_opcode.IBV_WC_FETCH_ADD,
  [RiWcType.RDMA_IMMEDIATE_RECEIVED]: ibv_wc_opcode.IBV_WC_RECV_RDMA_WITH_IMM,
};

/** Copies one RNICPI completion into an ibverbs `ibv_wc`. */
function fillWc(w: ibv_wc, r: ri_wc_t): void {
  // An iWARP QP's completions are RC completions (RNICPI 1.0 §8 `ri_rc_wc_t`); softrdma's also
  // carry the local QP number, used when the QP's os_data is not a verbs QP.
  const rc = r as ri_rc_wc_t & { readonly qp_num?: number };
  w.wr_id = rc.id;
  w.status = wcStatusOf(rc.op_status, rc.op_type);
  w.opcode = WC_OPCODE[rc.op_type] ?? ibv_wc_opcode.IBV_WC_SEND;
  w.vendor_err = rc.op_status;
  w.byte_len = rc.bytes_transferred;
  const qp = rc.qp_os_data as Qp | null;
  w.qp_num = qp?.qp_num ?? rc.qp_num ?? 0;
  w.src_qp = 0;
  let flags = 0;
  if (riWcIsGen(r)) {
    // A UD completion (`ri_gen_wc_t`): the datagram's source QP, and the GRH in the buffer.
    w.qp_num = r.qpn;
    w.src_qp = r.remote_qpn;
    if (r.grh_present) flags |= ibv_wc_flags.IBV_WC_GRH;
  }
  w.invalidated_rkey = 0;
  w.imm_data = 0;
  if (rc.flags & RiWcFlags.RTAG_INVALIDATE) {
    flags |= ibv_wc_flags.IBV_WC_WITH_INV;
    w.invalidated_rkey = rc.invalidated_rtag;
    w.imm_data = rc.invalidated_rtag;
  }
  if (rc.flags & RiWcFlags.IMMEDIATE_DATA) {
    // The 32 bits as the sender posted them (C's __be32 travels untouched).
    flags |= ibv_wc_flags.IBV_WC_WITH_IMM;
    w.imm_data = rc.immediate_data >>> 0;
  }
  w.wc_flags = flags;
  w.pkey_index = 0;
  w.slid = 0;
  w.sl = 0;
  w.dlid_path_bits = 0;
}

/** A blank `ibv_wc` (for callers that pass an empty array). */
export function newWc(): ibv_wc {
  return {
    wr_id: 0n,
    status: ibv_wc_status.IBV_WC_SUCCESS,
    opcode: ibv_wc_opcode.IBV_WC_SEND,
    vendor_err: 0,
    byte_len: 0,
    imm_data: 0,
    invalidated_rkey: 0,
    qp_num: 0,
    src_qp: 0,
    wc_flags: 0,
    pkey_index: 0,
    slid: 0,
    sl: 0,
    dlid_path_bits: 0,
  };
}

/** `ibv_poll_cq`: synchronous; fills `wc[0..n)` (creating entries that are missing). */
export function ibv_poll_cq(cq: ibv_cq, num_entries: number, wc: ibv_wc[]): number {
  const c = cq as Cq;
  if (!alive(c, 'ibv_cq') || !Number.isInteger(num_entries) || num_entries < 0) return -EINVAL;
  if (num_entries === 0) return 0;
  const r = c.context.ops.ri_cq_poll(c.context.rnic, c.ri, num_entries);
  if (r.status === RiRet.CQ_EMPTY) return 0;
  if (r.status !== RiRet.SUCCESS) return -errnoOf(r.status);
  const n = r.wcs.length;
  for (let i = 0; i < n; i++) {
    let w = wc[i];
    if (!w) {
      w = newWc();
      wc[i] = w;
    }
    fillWc(w, r.wcs[i]!);
  }
  return n;
}

// ------------------------------------------------------------------------------ SRQ

export function ibv_create_srq(pd: ibv_pd, init: In<ibv_srq_init_attr>): ibv_srq | null {
  const p = pd as Pd;
  if (!alive(p, 'ibv_pd')) return nullWith(EINVAL);
  const a = init?.attr ?? {};
  const ctx = p.context;
  const srq = new Srq(ctx, p, init?.srq_context ?? null);
  const r = ctx.ops.ri_srq_create(
    ctx.rnic,
    { max_wrs: a.max_wr ?? 0, max_sgl: a.max_sge ?? 0, lowat: a.srq_limit ?? 0, pd: p.ri },
    null,
    srq,
  );
  if (r.status !== RiRet.SUCCESS) return nullWith(errnoOf(r.status));
  srq.ri = r.srq;
  srq.maxWr = r.srq_attrs.max_wrs;
  srq.maxSge = r.srq_attrs.max_sgl;
  if (init && typeof init.attr === 'object' && init.attr) {
    (init.attr as ibv_srq_attr).max_wr = srq.maxWr;
    (init.attr as ibv_srq_attr).max_sge = srq.maxSge;
  }
  ctx.objects.add(srq);
  return srq;
}

export function ibv_modify_srq(srq: ibv_srq, attr: In<ibv_srq_attr>, mask: number): number {
  const s = srq as Srq;
  if (!alive(s, 'ibv_srq')) return fail(EINVAL);
  const M = ibv_srq_attr_mask;
  if ((mask & ~(M.IBV_SRQ_MAX_WR | M.IBV_SRQ_LIMIT)) !== 0 || mask === 0) return fail(EINVAL);
  let m = 0;
  if (mask & M.IBV_SRQ_MAX_WR) m |= RiSrqAttrMask.MAX_WRS;
  if (mask & M.IBV_SRQ_LIMIT) m |= RiSrqAttrMask.LOWAT;
  const r = s.context.ops.ri_srq_modify(s.context.rnic, s.ri, m, { max_wrs: attr.max_wr ?? 0, lowat: attr.srq_limit ?? 0 });
  if (r.status !== RiRet.SUCCESS) return fail(errnoOf(r.status));
  s.maxWr = r.attrs.max_wrs;
  return 0;
}

export function ibv_query_srq(srq: ibv_srq, out: ibv_srq_attr): number {
  const s = srq as Srq;
  if (!alive(s, 'ibv_srq')) return fail(EINVAL);
  const r = s.context.ops.ri_srq_query(s.context.rnic, s.ri);
  if (r.status !== RiRet.SUCCESS) return fail(errnoOf(r.status));
  out.max_wr = r.srq_attrs.max_wrs;
  out.max_sge = r.srq_attrs.max_sgl;
  out.srq_limit = r.srq_attrs.srq_armed ? r.srq_attrs.lowat : 0;
  return 0;
}

export function ibv_destroy_srq(srq: ibv_srq): number {
  const s = srq as Srq;
  if (!alive(s, 'ibv_srq')) return fail(EINVAL);
  if (s.events_completed < s.asyncEvents) return fail(EBUSY);
  const st = s.context.ops.ri_srq_destroy(s.context.rnic, s.ri);
  if (st.status !== RiRet.SUCCESS) return fail(errnoOf(st.status));
  s.dead = true;
  s.context.dropAsync(s);
  s.context.objects.delete(s);
  return 0;
}

export function ibv_post_srq_recv(srq: ibv_srq, wr: WrList<ibv_recv_wr>): PostResult<ibv_recv_wr> {
  const s = srq as Srq;
  if (!alive(s, 'ibv_srq')) return { ret: fail(EINVAL), bad_wr: firstOf(wr) };
  for (const w of wrItems<In<ibv_recv_wr>>(wr)) {
    const badId = wrIdError('ibv_post_srq_recv', w.wr_id);
    if (badId) return { ret: fail(EINVAL, badId), bad_wr: w };
    const sg = sgeList(w.sg_list, w.num_sge);
    if (!sg) return { ret: fail(EINVAL), bad_wr: w };
    const r = s.context.ops.ri_srq_post_recv(s.context.rnic, s.ri, 0, w.wr_id ?? 0n, sg, sg.length);
    if (r.status !== RiRet.SUCCESS) return { ret: fail(errnoOf(r.status)), bad_wr: w };
  }
  return { ret: 0, bad_wr: null };
}

// ------------------------------------------------------------------------------ QP

export function ibv_create_qp(pd: ibv_pd, init: In<ibv_qp_init_attr>): ibv_qp | null {
  const p = pd as Pd;
  if (!alive(p, 'ibv_pd') || !init) return nullWith(EINVAL);
  const T = ibv_qp_type;
  const type = init.qp_type ?? T.IBV_QPT_RC;
  const ib = p.context.device.transport_type === ibv_transport_type.IBV_TRANSPORT_IB;
  // siw: "only RC QP's supported" (EOPNOTSUPP); iWARP has no UD/UC/XRC. RoCEv2: RC, UC, UD.
  const svc = type === T.IBV_QPT_RC ? RiSvcType.RELIABLE_CONNECTION : type === T.IBV_QPT_UC ? RiSvcType.SR_UNRELIABLE_CONNECTION : type === T.IBV_QPT_UD ? RiSvcType.UNRELIABLE_DATAGRAM : null;
  if (svc === null || (!ib && type !== T.IBV_QPT_RC)) return nullWith(EOPNOTSUPP);
  const scq = init.send_cq as Cq | null | undefined;
  const rcq = init.recv_cq as Cq | null | undefined;
  const srq = (init.srq ?? null) as Srq | null;
  if (!alive(scq, 'ibv_cq') || !alive(rcq, 'ibv_cq') || (srq !== null && !alive(srq, 'ibv_srq'))) return nullWith(EINVAL);
  const cap = init.cap ?? {};
  const maxInline = cap.max_inline_data ?? 0;
  if (maxInline > MAX_INLINE_DATA) return nullWith(EINVAL);
  const ctx = p.context;
  const qp = new Qp(ctx, p, scq, rcq, srq, init.qp_context ?? null, type);
  const sendWr = cap.max_send_wr ?? 0;
  const r = ctx.ops.ri_qp_create(
    ctx.rnic,
    {
      scq: { scq_handle: scq.ri },
      rcq: { rcq_handle: rcq.ri },
      srq: srq ? { srq_handle: srq.ri } : null,
      srq_valid: srq !== null,
      pd: p.ri,
      sq_size: Math.max(sendWr, 1),
      rq_size: srq ? 0 : Math.max(cap.max_recv_wr ?? 0, 1),
      sq_max_sges: Math.max(cap.max_send_sge ?? 0, 1),
      sq_max_sges_rdmaw: Math.max(cap.max_send_sge ?? 0, 1),
      rq_max_sges: Math.max(cap.max_recv_sge ?? 0, 1),
      // iWARP fixes the remote-access enables at create (RNICPI §6.7); ibverbs sets them by
      // modify, so both are on and IBV_QP_ACCESS_FLAGS is recorded (see spec-notes). An IB QP
      // takes them, and its ORD/IRD, by Modify QP (Reset→INIT, INIT→RTR, RTR→RTS).
      enable_rdma_read: !ib,
      enable_rdma_write: !ib,
      max_rdma_read_outgoing: ib ? 0 : DEFAULT_RD_ATOMIC,
      max_rdma_read_incoming: ib ? 0 : DEFAULT_RD_ATOMIC,
      enable_stag0_fastreg: false,
      qp_xport: ib ? { qp_ib: { trans_type: svc } } : { qp_iwarp: { enable_bind: true, rq_hiwat: 0 } },
    },
    null,
    qp,
  );
  if (r.status !== RiRet.SUCCESS) return nullWith(errnoOf(r.status));
  qp.ri = r.qp;
  qp.qp_num = r.attrs.qp_id;
  if (ib) {
    qp.maxRdAtomic = 0;
    qp.maxDestRdAtomic = 0;
  }
  qp.sqSigAll = (init.sq_sig_all ?? 0) !== 0;
  qp.cap = {
    max_send_wr: r.attrs.sq_size,
    max_recv_wr: srq ? 0 : r.attrs.rq_size,
    max_send_sge: r.attrs.sq_max_sges,
    max_recv_sge: srq ? 0 : r.attrs.rq_max_sges,
    max_inline_data: maxInline > 0 ? MAX_INLINE_DATA : 0,
  };
  if (maxInline > 0) {
    const bounce = new Uint8Array(MAX_INLINE_DATA * r.attrs.sq_size);
    const mr = ibv_reg_mr(p, bounce, bounce.length, ibv_access_flags.IBV_ACCESS_LOCAL_WRITE);
    if (!mr) {
      ctx.ops.ri_qp_destroy(ctx.rnic, qp.ri);
      return nullWith(ENOMEM);
    }
    qp.inline = { mr: mr as Mr, next: 0 };
  }
  if (init.cap && typeof init.cap === 'object') Object.assign(init.cap, qp.cap);
  ctx.objects.add(qp);
  return qp;
}

export function ibv_destroy_qp(qp: ibv_qp): number {
  const q = qp as Qp;
  if (!alive(q, 'ibv_qp')) return fail(EINVAL);
  if (q.events_completed < q.asyncEvents) return fail(EBUSY);
  const st = q.context.ops.ri_qp_destroy(q.context.rnic, q.ri);
  if (st.status !== RiRet.SUCCESS) return fail(errnoOf(st.status));
  q.dead = true;
  if (q.inline) ibv_dereg_mr(q.inline.mr);
  q.context.dropAsync(q);
  q.context.objects.delete(q);
  return 0;
}

/** The RNICPI state an IB target state means on an iWARP QP, or null if it is not reachable by modify. */
function riStateOf(s: ibv_qp_state): RiQpState | null {
  switch (s) {
    case ibv_qp_state.IBV_QPS_RESET:
    case ibv_qp_state.IBV_QPS_INIT:
    case ibv_qp_state.IBV_QPS_RTR:
      return RiQpState.IDLE;
    case ibv_qp_state.IBV_QPS_SQD:
      return RiQpState.CLOSING;
    case ibv_qp_state.IBV_QPS_SQE:
      return RiQpState.TERMINATE;
    case ibv_qp_state.IBV_QPS_ERR:
      return RiQpState.ERROR;
    default:
      return null;
  }
}

/** The IB-only attributes of a QP, as last set by `ibv_modify_qp`. */
export interface QpIbAttrs {
  path_mtu: number;
  rq_psn: number;
  sq_psn: number;
  dest_qp_num: number;
  pkey_index: number;
  port_num: number;
  ah_attr: ibv_ah_attr;
  min_rnr_timer: number;
  timeout: number;
  retry_cnt: number;
  rnr_retry: number;
  en_sqd_async_notify: number;
}

function zeroAh(): ibv_ah_attr {
  return {
    grh: { dgid: { raw: new Uint8Array(16) }, flow_label: 0, sgid_index: 0, hop_limit: 0, traffic_class: 0 },
    dlid: 0,
    sl: 0,
    src_path_bits: 0,
    static_rate: 0,
    is_global: 0,
    port_num: 0,
  };
}

function newIbAttrs(): QpIbAttrs {
  return {
    path_mtu: 0,
    rq_psn: 0,
    sq_psn: 0,
    dest_qp_num: 0,
    pkey_index: 0,
    port_num: 0,
    ah_attr: zeroAh(),
    min_rnr_timer: 0,
    timeout: 0,
    retry_cnt: 0,
    rnr_retry: 0,
    en_sqd_async_notify: 0,
  };
}

function copyAh(a: In<ibv_ah_attr> | undefined): ibv_ah_attr {
  const z = zeroAh();
  if (!a) return z;
  const g = a.grh ?? {};
  const raw = g.dgid?.raw;
  return {
    grh: {
      dgid: { raw: raw instanceof Uint8Array && raw.length === 16 ? Uint8Array.from(raw) : new Uint8Array(16) },
      flow_label: g.flow_label ?? 0,
      sgid_index: g.sgid_index ?? 0,
      hop_limit: g.hop_limit ?? 0,
      traffic_class: g.traffic_class ?? 0,
    },
    dlid: a.dlid ?? 0,
    sl: a.sl ?? 0,
    src_path_bits: a.src_path_bits ?? 0,
    static_rate: a.static_rate ?? 0,
    is_global: a.is_global ?? 0,
    port_num: a.port_num ?? 0,
  };
}

/**
 * `ibv_qp_attr_mask` bits besides the IB table's that an iWARP QP accepts: `IBV_QP_CAP` (queue
 * resizing, `IBV_DEVICE_RESIZE_MAX_WR`) on INIT→INIT, INIT→RTR and RTS→RTS, where the RNIC can
 * resize.
 */
function capAllowed(cur: ibv_qp_state, target: ibv_qp_state): number {
  const S = ibv_qp_state;
  const ok = (cur === S.IBV_QPS_INIT && (target === S.IBV_QPS_INIT || target === S.IBV_QPS_RTR)) || (cur === S.IBV_QPS_RTS && target === S.IBV_QPS_RTS);
  return ok ? IbQpAttr.CAP : 0;
}

const QP_ACCESS_BITS =
  ibv_access_flags.IBV_ACCESS_LOCAL_WRITE |
  ibv_access_flags.IBV_ACCESS_REMOTE_WRITE |
  ibv_access_flags.IBV_ACCESS_REMOTE_READ |
  ibv_access_flags.IBV_ACCESS_REMOTE_ATOMIC |
  ibv_access_flags.IBV_ACCESS_MW_BIND;

/** True when every attribute selected by `mask` has a value the port/QP can take. */
function qpAttrValuesOk(q: Qp, attr: In<ibv_qp_attr>, mask: number, cur: ibv_qp_state): boolean {
  const M = ibv_qp_attr_mask;
  const u = (v: number | undefined, max: number) => Number.isInteger(v ?? 0) && (v ?? 0) >= 0 && (v ?? 0) <= max;
  if (mask & M.IBV_QP_CUR_STATE && (attr.cur_qp_state ?? 0) !== cur) return false;
  // One port (phys_port_cnt 1) with one P_Key entry (pkey_tbl_len 1).
  if (mask & M.IBV_QP_PORT && attr.port_num !== 1) return false;
  if (mask & M.IBV_QP_PKEY_INDEX && (attr.pkey_index ?? 0) !== 0) return false;
  if (mask & M.IBV_QP_ACCESS_FLAGS && ((attr.qp_access_flags ?? 0) & ~QP_ACCESS_BITS) !== 0) return false;
  if (mask & M.IBV_QP_PATH_MTU && !u((attr.path_mtu ?? 0) - 1, 4)) return false;
  if (mask & M.IBV_QP_AV && (attr.ah_attr?.port_num ?? 1) > 1) return false;
  if (mask & M.IBV_QP_DEST_QPN && !u(attr.dest_qp_num, 0xffffff)) return false;
  if (mask & M.IBV_QP_RQ_PSN && !u(attr.rq_psn, 0xffffff)) return false;
  if (mask & M.IBV_QP_SQ_PSN && !u(attr.sq_psn, 0xffffff)) return false;
  if (mask & M.IBV_QP_MIN_RNR_TIMER && !u(attr.min_rnr_timer, 31)) return false;
  if (mask & M.IBV_QP_TIMEOUT && !u(attr.timeout, 31)) return false;
  if (mask & M.IBV_QP_RETRY_CNT && !u(attr.retry_cnt, 7)) return false;
  if (mask & M.IBV_QP_RNR_RETRY && !u(attr.rnr_retry, 7)) return false;
  if (mask & M.IBV_QP_MAX_QP_RD_ATOMIC && !u(attr.max_rd_atomic, 0xff)) return false;
  if (mask & M.IBV_QP_MAX_DEST_RD_ATOMIC && !u(attr.max_dest_rd_atomic, 0xff)) return false;
  void q;
  return true;
}

/** Records the IB-only attributes of a successful modify. */
function storeIbAttrs(q: Qp, attr: In<ibv_qp_attr>, mask: number): void {
  const M = ibv_qp_attr_mask;
  const ib = q.ib;
  if (mask & M.IBV_QP_PATH_MTU) ib.path_mtu = attr.path_mtu ?? 0;
  if (mask & M.IBV_QP_RQ_PSN) ib.rq_psn = attr.rq_psn ?? 0;
  if (mask & M.IBV_QP_SQ_PSN) ib.sq_psn = attr.sq_psn ?? 0;
  if (mask & M.IBV_QP_DEST_QPN) ib.dest_qp_num = attr.dest_qp_num ?? 0;
  if (mask & M.IBV_QP_PKEY_INDEX) ib.pkey_index = attr.pkey_index ?? 0;
  if (mask & M.IBV_QP_PORT) ib.port_num = attr.port_num ?? 0;
  if (mask & M.IBV_QP_AV) ib.ah_attr = copyAh(attr.ah_attr);
  if (mask & M.IBV_QP_MIN_RNR_TIMER) ib.min_rnr_timer = attr.min_rnr_timer ?? 0;
  if (mask & M.IBV_QP_TIMEOUT) ib.timeout = attr.timeout ?? 0;
  if (mask & M.IBV_QP_RETRY_CNT) ib.retry_cnt = attr.retry_cnt ?? 0;
  if (mask & M.IBV_QP_RNR_RETRY) ib.rnr_retry = attr.rnr_retry ?? 0;
  if (mask & M.IBV_QP_EN_SQD_ASYNC_NOTIFY) ib.en_sqd_async_notify = attr.en_sqd_async_notify ?? 0;
  if (mask & M.IBV_QP_ACCESS_FLAGS) q.accessFlags = attr.qp_access_flags ?? 0;
}

/**
 * `ibv_modify_qp`: the RC transition table ({@link RC_TRANSITIONS}); a missing required or a
 * disallowed mask bit, a skipped state or an out-of-range value → EINVAL with nothing changed.
 * Path, PSN, timer and retry attributes are IB notions with no iWARP effect: recorded for
 * `ibv_query_qp` (siw ignores them). RTS needs an LLP stream, which only the connection manager
 * supplies (siw answers EINVAL for a QP without a socket): rdma_cm calls {@link modifyQpToRts};
 * a QP whose socket was converted (`cmConvertSocket`) while it was in RTR takes the RTR→RTS modify.
 * RESET empties the work queues: on the RNIC that is a pass through Error, so WRs still posted
 * complete with `IBV_WC_WR_FLUSH_ERR` (IB drops them silently).
 */
export function ibv_modify_qp(qp: ibv_qp, attr: In<ibv_qp_attr>, mask: number): number {
  const q = qp as Qp;
  if (!alive(q, 'ibv_qp') || !attr || !Number.isInteger(mask)) return fail(EINVAL);
  const M = ibv_qp_attr_mask;
  const S = ibv_qp_state;
  if (mask & (M.IBV_QP_ALT_PATH | M.IBV_QP_PATH_MIG_STATE)) return fail(EOPNOTSUPP);
  if (q.isIb) return modifyIbQp(q, attr, mask);
  const cur = q.state;
  const target: ibv_qp_state = mask & M.IBV_QP_STATE ? (attr.qp_state ?? S.IBV_QPS_RESET) : cur;
  const attrMask = mask & ~M.IBV_QP_STATE;
  if (target === S.IBV_QPS_RESET || target === S.IBV_QPS_ERR) {
    // Any state → RESET / ERR, with IBV_QP_STATE alone (an attribute-only modify in RESET has no
    // attribute to take; one in ERR neither).
    if (attrMask !== 0) return fail(EINVAL);
  } else {
    // The core's IB transition table (qp-states.ts, as `ib_modify_qp_is_ok`), RC service.
    if (!ibModifyOk(cur as number as IbQpState, target as number as IbQpState, 'RC', attrMask, capAllowed(cur, target))) return fail(EINVAL);
    if (!qpAttrValuesOk(q, attr, attrMask, cur)) return fail(EINVAL);
  }
  const eng = q.context.ops.ri_qp_query(q.context.rnic, q.ri);
  if (eng.status !== RiRet.SUCCESS) return fail(errnoOf(eng.status));
  const rnicState = eng.attrs.state;
  // RNIC state changes, in order.
  const steps: RiQpState[] = [];
  if (target === S.IBV_QPS_RTS && cur === S.IBV_QPS_RTR) {
    // Only the CM brings an iWARP QP to RTS; this modify completes an LLP-made RTS.
    if (rnicState !== RiQpState.READY_TO_SEND) return fail(EINVAL);
  } else if (target !== cur) {
    const s = riStateOf(target);
    if (s === null) return fail(EINVAL);
    if (target === S.IBV_QPS_RESET) {
      // Empty the queues: Idle and RTS pass through Error; Error goes straight to Idle.
      if (rnicState !== RiQpState.ERROR) steps.push(RiQpState.ERROR);
      steps.push(RiQpState.IDLE);
    } else if (s !== rnicState) {
      steps.push(s);
    }
  }
  // Attributes the RNIC holds (IRD/ORD, queue sizes): only while it is Idle or in RTS→RTS.
  const ri: { state?: RiQpState; max_rdma_read_outgoing?: number; max_rdma_read_incoming?: number; sq_size?: number; rq_size?: number } = {};
  let riMask = 0;
  const llpMadeRts = target === S.IBV_QPS_RTS && cur === S.IBV_QPS_RTR;
  if (mask & M.IBV_QP_MAX_QP_RD_ATOMIC && !llpMadeRts) {
    riMask |= RiQpAttrMask.MAX_RDMA_READ_OUTGOING;
    ri.max_rdma_read_outgoing = attr.max_rd_atomic ?? 0;
  }
  if (mask & M.IBV_QP_MAX_DEST_RD_ATOMIC) {
    riMask |= RiQpAttrMask.MAX_RDMA_READ_INCOMING;
    ri.max_rdma_read_incoming = attr.max_dest_rd_atomic ?? 0;
  }
  if (mask & M.IBV_QP_CAP) {
    riMask |= RiQpAttrMask.SQ_SIZE;
    ri.sq_size = attr.cap?.max_send_wr ?? q.cap.max_send_wr;
    if (!q.srq) {
      riMask |= RiQpAttrMask.RQ_SIZE;
      ri.rq_size = attr.cap?.max_recv_wr ?? q.cap.max_recv_wr;
    }
  }
  const ops = q.context.ops;
  if (riMask !== 0) {
    // Attribute changes go with the first step (Idle→Idle/Error is refused by the RNIC for
    // attributes, so they are applied in the current state first: still all-or-nothing,
    // because the RNIC validates them before changing anything).
    const r = ops.ri_qp_modify(q.context.rnic, q.ri, riMask, ri);
    if (r.status !== RiRet.SUCCESS) return fail(errnoOf(r.status));
    if (mask & M.IBV_QP_MAX_QP_RD_ATOMIC && !llpMadeRts) q.maxRdAtomic = r.attrs.max_rdma_read_outgoing;
    if (mask & M.IBV_QP_MAX_DEST_RD_ATOMIC) q.maxDestRdAtomic = r.attrs.max_rdma_read_incoming;
    if (mask & M.IBV_QP_CAP) {
      q.cap.max_send_wr = r.attrs.sq_size;
      if (!q.srq) q.cap.max_recv_wr = r.attrs.rq_size;
    }
  }
  for (const st of steps) {
    const r = ops.ri_qp_modify(q.context.rnic, q.ri, RiQpAttrMask.NEXT_STATE, { state: st });
    if (r.status !== RiRet.SUCCESS) return fail(errnoOf(r.status));
  }
  if (llpMadeRts) {
    const a = ops.ri_qp_query(q.context.rnic, q.ri);
    if (a.status === RiRet.SUCCESS) q.maxRdAtomic = a.attrs.max_rdma_read_outgoing;
  }
  storeIbAttrs(q, attr, attrMask);
  if (target === S.IBV_QPS_RESET) {
    q.ib = newIbAttrs();
    q.accessFlags = 0;
  }
  q.ibState = target;
  return 0;
}

/** rdma_cm's way to RTS: the LLP stream and MPA attributes from the connection manager. */
export function modifyQpToRts(qp: Qp, stream: unknown, mpa: { crc: boolean; recvMarkers: boolean; xmitMarkers: boolean }, ord: number, ird: number): number {
  const ri = qp.context.ops.ri_qp_modify(
    qp.context.rnic,
    qp.ri,
    RiQpAttrMask.NEXT_STATE |
      RiQpAttrMask.LLQ_STREAM_HANDLE |
      RiQpAttrMask.MPA_ATTR |
      RiQpAttrMask.MAX_RDMA_READ_OUTGOING |
      RiQpAttrMask.MAX_RDMA_READ_INCOMING,
    {
      state: RiQpState.READY_TO_SEND,
      max_rdma_read_outgoing: ord,
      max_rdma_read_incoming: ird,
      qp_xport: {
        qp_iwarp: {
          llp_stream_handle: stream,
          mpa_attributes: {
            crc_enabled: mpa.crc,
            recv_marker_enabled: mpa.recvMarkers,
            xmit_marker_enabled: mpa.xmitMarkers,
            ddp_rdma_version: 1,
          },
        },
      },
    },
  );
  if (ri.status !== RiRet.SUCCESS) return fail(errnoOf(ri.status));
  qp.ibState = ibv_qp_state.IBV_QPS_RTS;
  qp.maxRdAtomic = ri.attrs.max_rdma_read_outgoing;
  qp.maxDestRdAtomic = ri.attrs.max_rdma_read_incoming;
  return 0;
}

/** The RNICPI form of an `ibv_ah_attr` (RoCE: the GRH fields; no LID routing). */
function riAvOf(a: In<ibv_ah_attr> | undefined): ri_gen_address_vector_t | undefined {
  if (!a || typeof a !== 'object') return undefined;
  const g = a.grh ?? {};
  const raw = g.dgid?.raw;
  if (!(raw instanceof Uint8Array) || raw.length !== 16) return undefined;
  return {
    sl: a.sl ?? 0,
    send_global_routing_hdr_flg: a.is_global ?? 0,
    hop_limit: g.hop_limit ?? 0,
    source_gid_index: g.sgid_index ?? 0,
    flow_label: g.flow_label ?? 0,
    dgid: riGidOfBytes(raw),
    dlid: a.dlid ?? 0,
    traffic_class: g.traffic_class ?? 0,
    max_static_rate: a.static_rate ?? 0,
    source_path_bits: a.src_path_bits ?? 0,
  };
}

/** The `ibv_ah_attr` of an RNICPI address vector. */
function ahOfRi(av: ri_gen_address_vector_t, port: number): ibv_ah_attr {
  const raw = bytesOfRiGid(av.dgid);
  return {
    grh: { dgid: { raw }, flow_label: av.flow_label, sgid_index: av.source_gid_index, hop_limit: av.hop_limit, traffic_class: av.traffic_class },
    dlid: av.dlid,
    sl: av.sl,
    src_path_bits: av.source_path_bits,
    static_rate: av.max_static_rate,
    is_global: raw.some((x) => x !== 0) ? 1 : 0,
    port_num: port,
  };
}

/**
 * `ibv_modify_qp` on a RoCEv2 QP: a translation. The mask goes to the RNIC as the IBTA
 * component mask (`RI_QP_ATTR_SR_IBTA_ATTRS`, the softrdma RNICPI extension; the `ibv_qp_attr_mask`
 * bits are the IBTA components), each attribute in its `ri_qp_attr_t` field; the RNIC's Modify
 * QP checks the transition table, every value and applies all or nothing (qp.ts `modifyIb`).
 * RoCE addresses are global: an AV without a GRH is EINVAL (as Linux `ib_modify_qp` on RoCE).
 */
function modifyIbQp(q: Qp, attr: In<ibv_qp_attr>, mask: number): number {
  const M = ibv_qp_attr_mask;
  const A = ibv_access_flags;
  let riMask = RiQpAttrMask.SR_IBTA_ATTRS;
  let state: RiQpState | undefined;
  if (mask & M.IBV_QP_STATE) {
    state = RI_OF_IBV[attr.qp_state as number];
    if (state === undefined) return fail(EINVAL);
    riMask |= RiQpAttrMask.NEXT_STATE;
  }
  if (mask & M.IBV_QP_AV && (attr.ah_attr?.is_global ?? 0) !== 1) return fail(EINVAL, 'ibv_modify_qp: a RoCE address vector needs the GRH (is_global 1) (EINVAL)');
  if (mask & M.IBV_QP_CUR_STATE && RI_OF_IBV[attr.cur_qp_state as number] === undefined) return fail(EINVAL);
  const acc = attr.qp_access_flags ?? 0;
  if (mask & M.IBV_QP_ACCESS_FLAGS && (!Number.isInteger(acc) || (acc & ~QP_ACCESS_BITS) !== 0)) return fail(EINVAL);
  const ib: Partial<ri_ib_qp_attr_t> = {
    sr_ibta_mask: mask & ~M.IBV_QP_STATE,
    current_state: RI_OF_IBV[attr.cur_qp_state as number],
    recv_qkey: attr.qkey,
    send_psn: attr.sq_psn,
    recv_psn: attr.rq_psn,
    dest_qpn: attr.dest_qp_num,
    min_rnrnak_timer: attr.min_rnr_timer,
    enable_atomic: (acc & A.IBV_ACCESS_REMOTE_ATOMIC) !== 0,
    enable_async_notify_for_sqd: attr.en_sqd_async_notify,
    primary_av: {
      pkey_index: attr.pkey_index as number,
      physical_port: (mask & M.IBV_QP_PORT ? attr.port_num : attr.ah_attr?.port_num) as number,
      path_mtu: attr.path_mtu as number,
      local_ack_timeout: attr.timeout as number,
      retry_count: attr.retry_cnt as number,
      rnr_retry_count: attr.rnr_retry as number,
      av: riAvOf(attr.ah_attr)!,
    },
  };
  const ops = q.context.ops;
  const r = ops.ri_qp_modify(q.context.rnic, q.ri, riMask, {
    state,
    enable_rdma_read: (acc & A.IBV_ACCESS_REMOTE_READ) !== 0,
    enable_rdma_write: (acc & A.IBV_ACCESS_REMOTE_WRITE) !== 0,
    max_rdma_read_outgoing: attr.max_rd_atomic,
    max_rdma_read_incoming: attr.max_dest_rd_atomic,
    sq_size: mask & M.IBV_QP_CAP ? (attr.cap?.max_send_wr ?? q.cap.max_send_wr) : undefined,
    rq_size: mask & M.IBV_QP_CAP && !q.srq ? (attr.cap?.max_recv_wr ?? q.cap.max_recv_wr) : undefined,
    qp_xport: { qp_ib: ib },
  });
  // A read/atomic depth beyond the device is a bad value for ibv_modify_qp (rxe: EINVAL).
  if (r.status === RiRet.RNIC_IRD_ORD_EXCEEDED) return fail(EINVAL);
  if (r.status !== RiRet.SUCCESS) return fail(errnoOf(r.status));
  if (mask & M.IBV_QP_CAP) {
    q.cap.max_send_wr = r.attrs.sq_size;
    if (!q.srq) q.cap.max_recv_wr = r.attrs.rq_size;
  }
  // Bits the RNIC has no use for (local write, MW bind) are kept for ibv_query_qp.
  if (mask & M.IBV_QP_ACCESS_FLAGS) q.accessFlags = acc;
  if (state === RiQpState.IDLE) q.accessFlags = 0;
  return 0;
}

/** `ibv_query_qp` on a RoCEv2 QP: every attribute from `ri_qp_query`. */
function queryIbQp(q: Qp, attr: ibv_qp_attr, init: ibv_qp_init_attr): number {
  const r = q.context.ops.ri_qp_query(q.context.rnic, q.ri);
  if (r.status !== RiRet.SUCCESS) return fail(errnoOf(r.status));
  const a = r.attrs;
  if (!('qp_ib' in a.qp_xport)) return fail(EINVAL);
  const x = a.qp_xport.qp_ib;
  const A = ibv_access_flags;
  const s = IBV_OF_RI[a.state] ?? ibv_qp_state.IBV_QPS_UNKNOWN;
  attr.qp_state = s;
  attr.cur_qp_state = s;
  attr.qp_access_flags =
    (q.accessFlags & (A.IBV_ACCESS_LOCAL_WRITE | A.IBV_ACCESS_MW_BIND)) |
    (a.enable_rdma_read ? A.IBV_ACCESS_REMOTE_READ : 0) |
    (a.enable_rdma_write ? A.IBV_ACCESS_REMOTE_WRITE : 0) |
    (x.enable_atomic ? A.IBV_ACCESS_REMOTE_ATOMIC : 0);
  attr.cap = { ...q.cap };
  attr.max_rd_atomic = a.max_rdma_read_outgoing;
  attr.max_dest_rd_atomic = a.max_rdma_read_incoming;
  attr.sq_draining = a.state === RiQpState.SEND_QUEUE_DRAINING ? 1 : 0;
  const p = x.primary_av;
  attr.path_mtu = p.path_mtu;
  attr.path_mig_state = ibv_mig_state.IBV_MIG_MIGRATED;
  attr.qkey = x.recv_qkey;
  attr.rq_psn = x.recv_psn;
  attr.sq_psn = x.send_psn;
  attr.dest_qp_num = x.dest_qpn;
  attr.ah_attr = ahOfRi(p.av, p.physical_port);
  attr.alt_ah_attr = zeroAh();
  attr.pkey_index = p.pkey_index;
  attr.alt_pkey_index = 0;
  attr.en_sqd_async_notify = x.enable_async_notify_for_sqd;
  attr.min_rnr_timer = x.min_rnrnak_timer;
  attr.port_num = p.physical_port;
  attr.timeout = p.local_ack_timeout;
  attr.retry_cnt = p.retry_count;
  attr.rnr_retry = p.rnr_retry_count;
  attr.alt_port_num = 0;
  attr.alt_timeout = 0;
  attr.rate_limit = 0;
  init.qp_context = q.qp_context;
  init.send_cq = q.send_cq;
  init.recv_cq = q.recv_cq;
  init.srq = q.srq;
  init.cap = { ...q.cap };
  init.qp_type = q.qp_type;
  init.sq_sig_all = q.sqSigAll ? 1 : 0;
  return 0;
}

// ------------------------------------------------------------------------------ address handles

/**
 * The 40 octets at the start of a UD receive buffer, or null. RoCEv2 over IPv4 puts 20 zero
 * octets and the IPv4 header there (Linux rxe; rdma-core's `ibv_init_ah_from_wc` reads it so):
 * the GIDs are then the IPv4-mapped source and destination addresses. Otherwise it is the IB
 * GRH (IBTA Vol. 1 §8.3, the IPv6 layout).
 */
function decodeGrh(b: Uint8Array): In<ibv_grh> | null {
  if (b.length < 40) return null;
  const v = new DataView(b.buffer, b.byteOffset, 40);
  if (b.subarray(0, 20).every((x) => x === 0) && b[20]! >> 4 === 4) {
    const mapped = (at: number) => {
      const g = new Uint8Array(16);
      g[10] = 0xff;
      g[11] = 0xff;
      g.set(b.subarray(at, at + 4), 12);
      return { raw: g };
    };
    return {
      version_tclass_flow: (6 << 28) | (b[21]! << 20),
      paylen: v.getUint16(22) - 20,
      next_hdr: 0x1b,
      hop_limit: b[28]!,
      sgid: mapped(32),
      dgid: mapped(36),
    };
  }
  return {
    version_tclass_flow: v.getUint32(0),
    paylen: v.getUint16(4),
    next_hdr: b[6]!,
    hop_limit: b[7]!,
    sgid: { raw: b.slice(8, 24) },
    dgid: { raw: b.slice(24, 40) },
  };
}

/** `ibv_create_ah` on a RoCEv2 device (`ri_ah_create`); iWARP keeps the unsupported errno (index.ts). */
export function createAh(pd: ibv_pd, attr: In<ibv_ah_attr>): Ah | null {
  const p = pd as Pd;
  if (!alive(p, 'ibv_pd') || !attr || typeof attr !== 'object') return nullWith(EINVAL);
  // RoCE: every address is global (a GRH carries the IP addresses: IBTA Annex A17).
  if ((attr.is_global ?? 0) !== 1) return nullWith(EINVAL);
  const av = riAvOf(attr);
  if (!av) return nullWith(EINVAL);
  const ctx = p.context;
  const r = ctx.ops.ri_ah_create(ctx.rnic, p.ri, { av_common: av, physical_port: attr.port_num ?? 0 }, null, null);
  if (r.status !== RiRet.SUCCESS) return nullWith(errnoOf(r.status));
  const ah = new Ah(ctx, p, r.ah);
  ctx.objects.add(ah);
  return ah;
}

/**
 * `ibv_attach_mcast` / `ibv_detach_mcast` on a RoCEv2 device (manual §4.6.13–14;
 * `ri_mcast_attach`/`ri_mcast_detach`): a UD QP joins or leaves the multicast group `gid` (an
 * IPv4-mapped group address on RoCEv2). As Linux `ib_attach_mcast`: a QP that is not UD or a GID
 * that is not a multicast group is EINVAL, a full group ENOMEM; detaching a group the QP is not
 * in is EINVAL. iWARP keeps the unsupported errno (index.ts).
 */
export function mcastAttach(qp: ibv_qp, gid: In<ibv_gid>, lid: number, detach: boolean): number {
  const q = qp as Qp;
  if (!alive(q, 'ibv_qp')) return fail(EINVAL);
  const raw = gid?.raw;
  if (!(raw instanceof Uint8Array) || raw.length !== 16 || !Number.isInteger(lid)) return fail(EINVAL);
  const mgid = riGidOfBytes(raw);
  const ctx = q.context;
  const r = detach ? ctx.ops.ri_mcast_detach(ctx.rnic, lid, mgid, q.ri) : ctx.ops.ri_mcast_attach(ctx.rnic, lid, mgid, q.ri, null, null);
  if (r.status === RiRet.SUCCESS) return 0;
  if (r.status === RiRet.RNIC_QPS_PER_MCAST_PORT_EXCEEDED || r.status === RiRet.RESOURCE_SHORTAGE) return fail(ENOMEM);
  return fail(EINVAL, `ibv_${detach ? 'detach' : 'attach'}_mcast: ${RiRet[r.status]} (EINVAL)`);
}

/** `ibv_destroy_ah` (`ri_ah_destroy`). */
export function destroyAh(ah: ibv_ah): number {
  const a = ah as Ah;
  if (!(a instanceof Ah) || a.dead) return fail(EINVAL);
  const st = a.context.ops.ri_ah_destroy(a.context.rnic, a.ri);
  if (st.status !== RiRet.SUCCESS) return fail(errnoOf(st.status));
  a.dead = true;
  a.context.objects.delete(a);
  return 0;
}

/**
 * `ibv_init_ah_from_wc` on a RoCEv2 device (manual §4.6.11): the reply path of a received
 * datagram. RoCE datagrams always carry a GRH (`IBV_WC_GRH`): the reply goes to its source GID,
 * from the local GID it was sent to (its index in the GID table), as rdma-core does.
 */
export function initAhFromWc(ctx: Context, port_num: number, wc: In<ibv_wc>, grhIn: Uint8Array | In<ibv_grh> | null, ah_attr: ibv_ah_attr): number {
  if (ctx.closed || port_num !== 1 || !wc || !ah_attr) return fail(EINVAL);
  const grh = grhIn instanceof Uint8Array ? decodeGrh(grhIn) : grhIn;
  if (!((wc.wc_flags ?? 0) & ibv_wc_flags.IBV_WC_GRH) || !grh) return fail(EINVAL, 'ibv_init_ah_from_wc: a RoCE reply needs the GRH of the datagram (EINVAL)');
  const want = grh.dgid?.raw;
  const src = grh.sgid?.raw;
  if (!(want instanceof Uint8Array) || !(src instanceof Uint8Array) || want.length !== 16 || src.length !== 16) return fail(EINVAL);
  let index = -1;
  const g = { raw: new Uint8Array(16) };
  for (let i = 0; queryGid(ctx, 1, i, g) === 0; i++) {
    if (g.raw.every((b, k) => b === want[k])) {
      index = i;
      break;
    }
  }
  if (index < 0) return fail(EINVAL, 'ibv_init_ah_from_wc: the datagram was not sent to a GID of this port (EINVAL)');
  const vtf = grh.version_tclass_flow ?? 0;
  ah_attr.grh = { dgid: { raw: Uint8Array.from(src) }, flow_label: vtf & 0xf_ffff, sgid_index: index, hop_limit: 0xff, traffic_class: (vtf >>> 20) & 0xff };
  ah_attr.dlid = wc.slid ?? 0;
  ah_attr.sl = wc.sl ?? 0;
  ah_attr.src_path_bits = wc.dlid_path_bits ?? 0;
  ah_attr.static_rate = 0;
  ah_attr.is_global = 1;
  ah_attr.port_num = port_num;
  return 0;
}

export function ibv_query_qp(qp: ibv_qp, attr: ibv_qp_attr, _mask: number, init: ibv_qp_init_attr): number {
  const q = qp as Qp;
  if (!alive(q, 'ibv_qp')) return fail(EINVAL);
  if (q.isIb) return queryIbQp(q, attr, init);
  const s = q.state;
  attr.qp_state = s;
  attr.cur_qp_state = s;
  attr.qp_access_flags = q.accessFlags;
  attr.cap = { ...q.cap };
  attr.max_rd_atomic = q.maxRdAtomic;
  attr.max_dest_rd_atomic = q.maxDestRdAtomic;
  attr.sq_draining = 0;
  const ib = q.ib;
  attr.path_mtu = ib.path_mtu;
  attr.path_mig_state = ibv_mig_state.IBV_MIG_MIGRATED;
  attr.qkey = 0;
  attr.rq_psn = ib.rq_psn;
  attr.sq_psn = ib.sq_psn;
  attr.dest_qp_num = ib.dest_qp_num;
  attr.ah_attr = copyAh(ib.ah_attr);
  attr.alt_ah_attr = zeroAh();
  attr.pkey_index = ib.pkey_index;
  attr.alt_pkey_index = 0;
  attr.en_sqd_async_notify = ib.en_sqd_async_notify;
  attr.min_rnr_timer = ib.min_rnr_timer;
  attr.port_num = ib.port_num;
  attr.timeout = ib.timeout;
  attr.retry_cnt = ib.retry_cnt;
  attr.rnr_retry = ib.rnr_retry;
  attr.alt_port_num = 0;
  attr.alt_timeout = 0;
  attr.rate_limit = 0;
  init.qp_context = q.qp_context;
  init.send_cq = q.send_cq;
  init.recv_cq = q.recv_cq;
  init.srq = q.srq;
  init.cap = { ...q.cap };
  init.qp_type = ibv_qp_type.IBV_QPT_RC;
  init.sq_sig_all = q.sqSigAll ? 1 : 0;
  return 0;
}

// ------------------------------------------------------------------------------ posting

/**
 * `wr_id` is C's `uint64_t`, a bigint here: a number would lose precision above 2^53 and would
 * not compare equal to the `wc.wr_id` bigint it comes back as, so it is refused with a message.
 */
function wrIdError(fn: string, id: unknown): string | null {
  if (id === undefined || (typeof id === 'bigint' && id >= 0n && id < 1n << 64n)) return null;
  const hint = typeof id === 'number' ? ` (write ${Number.isInteger(id) && id >= 0 ? `${id}n or BigInt(${id})` : 'a bigint'})` : '';
  return `${fn}: wr_id must be a bigint in 0 … 2^64-1, got ${typeof id === 'bigint' ? String(id) : `a ${typeof id}`}${hint} (EINVAL)`;
}

function firstOf<W>(list: W | readonly W[]): W | null {
  if (Array.isArray(list)) return (list as readonly W[])[0] ?? null;
  return (list as W) ?? null;
}

/** Converts one `ibv_send_wr` into an RNICPI WR; a number is the errno of a refused WR. */
function toRiWr(q: Qp, w: In<ibv_send_wr>): ri_wr_t | number {
  const O = ibv_wr_opcode;
  const F = ibv_send_flags;
  const sf = w.send_flags ?? 0;
  let flags = 0;
  if (sf & F.IBV_SEND_SIGNALED || q.sqSigAll) flags |= RiWrFlags.SIGNALED_FLAG;
  if (sf & F.IBV_SEND_SOLICITED) flags |= RiWrFlags.SOLICITED_EVENT_FLAG;
  const id = w.wr_id ?? 0n;
  let sg = sgeList(w.sg_list, w.num_sge);
  if (!sg) return EINVAL;
  const op = w.opcode ?? O.IBV_WR_RDMA_WRITE;
  if (sf & F.IBV_SEND_INLINE && (op === O.IBV_WR_SEND || op === O.IBV_WR_RDMA_WRITE || op === O.IBV_WR_SEND_WITH_INV)) {
    const inl = inlineCopy(q, w.sg_list ?? [], sg);
    if (typeof inl === 'number') return inl;
    sg = inl;
  }
  if (q.qp_type === ibv_qp_type.IBV_QPT_UD) {
    // A UD Send (with or without immediate data, IBTA Vol. 1 §9.8.3 Table 38) names its
    // destination: the address handle, remote QPN and Q_Key (`wr.ud`).
    if (op !== O.IBV_WR_SEND && op !== O.IBV_WR_SEND_WITH_IMM) return EINVAL;
    const ud = w.wr?.ud;
    const ah = ud?.ah as Ah | null | undefined;
    if (!(ah instanceof Ah) || ah.dead || ah.context !== q.context) return EINVAL;
    return {
      type: op === O.IBV_WR_SEND_WITH_IMM ? RiWrType.SEND_IMMEDIATE : RiWrType.SEND,
      ...(op === O.IBV_WR_SEND_WITH_IMM && { imm_data: (w.imm_data ?? 0) >>> 0 }),
      flags,
      id,
      sg_list: sg,
      num_sgls: sg.length,
      remote_node_address: ah.ri,
      dest_qp: ud?.remote_qpn ?? 0,
      dest_qkey: (ud?.remote_qkey ?? 0) >>> 0,
      max_static_rate: 0,
    };
  }
  switch (op) {
    case O.IBV_WR_SEND_WITH_IMM:
      if (sf & F.IBV_SEND_FENCE) flags |= RiWrFlags.READ_FENCE_FLAG;
      return { type: RiWrType.SEND_IMMEDIATE, flags, id, sg_list: sg, num_sgls: sg.length, rtag: 0, imm_data: (w.imm_data ?? 0) >>> 0 };
    case O.IBV_WR_RDMA_WRITE_WITH_IMM:
      if (sf & F.IBV_SEND_FENCE) flags |= RiWrFlags.READ_FENCE_FLAG;
      return {
        type: RiWrType.RDMA_WRITE_IMMEDIATE,
        flags,
        id,
        sg_list: sg,
        num_sgls: sg.length,
        rdma_addr: w.wr?.rdma?.remote_addr ?? 0n,
        rtag: (w.wr?.rdma?.rkey ?? 0) >>> 0,
        imm_data: (w.imm_data ?? 0) >>> 0,
      };
    case O.IBV_WR_ATOMIC_CMP_AND_SWP:
    case O.IBV_WR_ATOMIC_FETCH_AND_ADD: {
      // IB's fence orders an atomic after earlier Reads and atomics: the Read Fence.
      if (sf & F.IBV_SEND_FENCE) flags |= RiWrFlags.READ_FENCE_FLAG;
      const a = w.wr?.atomic;
      const cmpAdd = a?.compare_add ?? 0n;
      const swap = a?.swap ?? 0n;
      if (typeof cmpAdd !== 'bigint' || typeof swap !== 'bigint') return EINVAL;
      // The result buffer is the first SGE (8 octets); none discards the result.
      if (sg.length > 1) return EINVAL;
      return {
        type: op === O.IBV_WR_ATOMIC_FETCH_AND_ADD ? RiWrType.FETCH_AND_ADD : RiWrType.COMPARE_AND_SWAP,
        flags,
        id,
        rtag: (a?.rkey ?? 0) >>> 0,
        rdma_addr: a?.remote_addr ?? 0n,
        atomic_operand1: BigInt.asUintN(64, cmpAdd),
        atomic_operand2: BigInt.asUintN(64, swap),
        atomic_result: sg[0] ?? { tag: 0, addr: 0n, len: 0 },
      } as ri_wr_t;
    }
    case O.IBV_WR_SEND:
    case O.IBV_WR_SEND_WITH_INV: {
      // IB's fence (wait for earlier Reads) is iWARP's Read Fence.
      if (sf & F.IBV_SEND_FENCE) flags |= RiWrFlags.READ_FENCE_FLAG;
      const inv = op === O.IBV_WR_SEND_WITH_INV;
      return {
        type: inv ? RiWrType.SEND_INVALIDATE : RiWrType.SEND,
        flags,
        id,
        sg_list: sg,
        num_sgls: sg.length,
        rtag: inv ? (w.invalidate_rkey ?? 0) >>> 0 : 0,
      };
    }
    case O.IBV_WR_RDMA_WRITE:
      if (sf & F.IBV_SEND_FENCE) flags |= RiWrFlags.READ_FENCE_FLAG;
      return {
        type: RiWrType.RDMA_WRITE,
        flags,
        id,
        sg_list: sg,
        num_sgls: sg.length,
        rdma_addr: w.wr?.rdma?.remote_addr ?? 0n,
        rtag: (w.wr?.rdma?.rkey ?? 0) >>> 0,
      };
    case O.IBV_WR_RDMA_READ:
      return {
        type: RiWrType.RDMA_READ,
        flags,
        id,
        sg_list: sg,
        num_sgls: sg.length,
        rdma_addr: w.wr?.rdma?.remote_addr ?? 0n,
        rtag: (w.wr?.rdma?.rkey ?? 0) >>> 0,
      };
    case O.IBV_WR_LOCAL_INV: {
      if (sf & F.IBV_SEND_FENCE) flags |= RiWrFlags.LOCAL_FENCE_FLAG;
      const key = (w.invalidate_rkey ?? 0) >>> 0;
      const target = findKey(q.context, key);
      if (!target) return EINVAL;
      return target instanceof Mr
        ? { type: RiWrType.LOCAL_INVALIDATE_MR, flags, id, ltag: key, rtag: key, mrw_handle: target.ri }
        : { type: RiWrType.LOCAL_INVALIDATE_MW, flags, id, ltag: 0, rtag: key, mrw_handle: target.ri };
    }
    case O.IBV_WR_BIND_MW: {
      const b = w.bind_mw;
      const mw = b?.mw as Mw | null | undefined;
      const mr = b?.bind_info?.mr as Mr | null | undefined;
      if (!alive(mw, 'ibv_mw') || !alive(mr, 'ibv_mr')) return EINVAL;
      const acc = b!.bind_info!.mw_access_flags ?? 0;
      let mem = 0;
      if (acc & ibv_access_flags.IBV_ACCESS_REMOTE_READ) mem |= RiMemFlags.REMOTE_READ;
      if (acc & ibv_access_flags.IBV_ACCESS_REMOTE_WRITE) mem |= RiMemFlags.REMOTE_WRITE;
      if (acc & ibv_access_flags.IBV_ACCESS_ZERO_BASED) mem |= RiMemFlags.ZBVA;
      const rkey = (b!.rkey ?? mw.rkey) >>> 0;
      return {
        type: RiWrType.BIND,
        flags,
        id,
        mw_handle: mw.ri,
        rtag: rkey,
        mr_handle: mr.ri,
        ltag: mr.lkey,
        vaddr: b!.bind_info!.addr ?? 0n,
        length: Number(b!.bind_info!.length ?? 0n),
        mem_attr: mem,
      };
    }
    default:
      // Opcodes an RC QP cannot carry (siw: EINVAL at post time).
      return EINVAL;
  }
}

/** Copies inline payload into the QP's bounce slot (IBV_SEND_INLINE: buffer free on return). */
function inlineCopy(q: Qp, list: readonly In<ibv_sge>[], sg: ri_data_seg_t[]): ri_data_seg_t[] | number {
  const b = q.inline;
  let total = 0;
  for (const s of sg) total += s.len;
  if (!b || total > MAX_INLINE_DATA) return EINVAL;
  const slot = b.next;
  const at = slot * MAX_INLINE_DATA;
  let o = at;
  for (let i = 0; i < sg.length; i++) {
    const s = sg[i]!;
    if (s.len === 0) continue;
    const r = hostMemory.resolve(s.addr, s.len);
    if (!r) return EINVAL;
    b.mr.bytes.set(r.region.bytes.subarray(r.offset, r.offset + s.len), o);
    o += s.len;
  }
  void list;
  return [{ addr: b.mr.addr + BigInt(at), tag: b.mr.lkey, len: total }];
}

function findKey(ctx: Context, key: number): Mr | Mw | null {
  for (const o of ctx.objects) {
    if (o instanceof Mr && !o.dead && o.lkey === key) return o;
    if (o instanceof Mw && !o.dead && o.rkey === key) return o;
  }
  return null;
}

export function ibv_post_send(qp: ibv_qp, wr: WrList<ibv_send_wr>): PostResult<ibv_send_wr> {
  const q = qp as Qp;
  if (!alive(q, 'ibv_qp')) return { ret: fail(EINVAL), bad_wr: firstOf(wr) };
  // Send WRs need RTS (or later: SQD/SQE/ERR, where they are flushed); the RNIC would queue
  // them in Idle, IB refuses them in RESET/INIT/RTR.
  const st = q.state;
  if (st === ibv_qp_state.IBV_QPS_RESET || st === ibv_qp_state.IBV_QPS_INIT || st === ibv_qp_state.IBV_QPS_RTR) {
    return { ret: fail(EINVAL), bad_wr: firstOf(wr) };
  }
  const ctx = q.context;
  for (const w of wrItems<In<ibv_send_wr>>(wr)) {
    const badId = wrIdError('ibv_post_send', w.wr_id);
    if (badId) return { ret: fail(EINVAL, badId), bad_wr: w };
    const r = toRiWr(q, w);
    if (typeof r === 'number') return { ret: fail(r), bad_wr: w };
    const st = ctx.ops.ri_qp_postsq(ctx.rnic, q.ri, [r]);
    if (st.status === RiRet.RNIC_ATOMICS_UNSUPPORTED || st.status === RiRet.WR_INVALID_TYPE) {
      // Atomics or immediate data on a connection that did not negotiate RFC 7306 (a Linux siw
      // peer): refused as rdma-core's siw provider refuses the opcodes, EINVAL with bad_wr.
      return { ret: fail(EINVAL, `ibv_post_send: opcode ${w.opcode} not available on this connection (the peer did not negotiate RFC 7306) (EINVAL)`), bad_wr: w };
    }
    if (st.status !== RiRet.SUCCESS) return { ret: fail(errnoOf(st.status)), bad_wr: w };
    if (q.inline && (w.send_flags ?? 0) & ibv_send_flags.IBV_SEND_INLINE) q.inline.next = (q.inline.next + 1) % q.cap.max_send_wr;
    if (r.type === RiWrType.BIND) {
      const mw = (w.bind_mw!.mw as Mw);
      mw.rkey = r.rtag;
    }
  }
  return { ret: 0, bad_wr: null };
}

export function ibv_post_recv(qp: ibv_qp, wr: WrList<ibv_recv_wr>): PostResult<ibv_recv_wr> {
  const q = qp as Qp;
  if (!alive(q, 'ibv_qp')) return { ret: fail(EINVAL), bad_wr: firstOf(wr) };
  // Receives are allowed from INIT on; the RNIC's Idle would take them in RESET too.
  if (q.state === ibv_qp_state.IBV_QPS_RESET) return { ret: fail(EINVAL), bad_wr: firstOf(wr) };
  const ctx = q.context;
  const batch: ri_wr_recv_t[] = [];
  const items: In<ibv_recv_wr>[] = [];
  for (const w of wrItems<In<ibv_recv_wr>>(wr)) {
    const badId = wrIdError('ibv_post_recv', w.wr_id);
    if (badId) return postRecvBatch(q, batch, items) ?? { ret: fail(EINVAL, badId), bad_wr: w };
    const sg = sgeList(w.sg_list, w.num_sge);
    if (!sg) {
      const done = postRecvBatch(q, batch, items);
      return done ?? { ret: fail(EINVAL), bad_wr: w };
    }
    batch.push({ flags: 0, id: w.wr_id ?? 0n, sg_list: sg, num_sgls: sg.length });
    items.push(w);
  }
  return postRecvBatch(q, batch, items) ?? { ret: 0, bad_wr: null };
  function postRecvBatch(qq: Qp, b: ri_wr_recv_t[], its: In<ibv_recv_wr>[]): PostResult<ibv_recv_wr> | null {
    if (b.length === 0) return null;
    const r = ctx.ops.ri_qp_postrq(ctx.rnic, qq.ri, b);
    if (r.status !== RiRet.SUCCESS) return { ret: fail(errnoOf(r.status)), bad_wr: its[r.num_wrs] ?? null };
    return null;
  }
}

// ------------------------------------------------------------------------------ async events

/**
 * `ibv_get_async_event(context, event)` (manual §4.7.1): C fills the caller's `struct
 * ibv_async_event`. A missing or non-object `event` is C's NULL pointer, which the binding
 * answers with EINVAL and a message (see softrdmaLastError) rather than a TypeError.
 */
export function ibv_get_async_event(context: ibv_context_like, event: ibv_async_event): Promise<number> {
  const ctx = context as Context;
  if (!(ctx instanceof Context)) return Promise.resolve(fail(EINVAL, 'ibv_get_async_event: context is not an open ibv_context (EINVAL)'));
  if (typeof event !== 'object' || event === null) {
    return Promise.resolve(fail(EINVAL, 'ibv_get_async_event: event must be an ibv_async_event object for the call to fill, e.g. `const ev = {} as ibv_async_event` (EINVAL)'));
  }
  return ctx.getAsync(event);
}

export function ibv_ack_async_event(event: ibv_async_event): void {
  const e = event.element;
  const t = (e.qp ?? e.cq ?? e.srq) as AsyncTarget | null;
  t?.ackAsync();
}

// ------------------------------------------------------------------------------ device close

/**
 * `ibv_close_device` (manual §4.2.6): closes the context even while objects created on it are
 * still alive — like closing the uverbs file in C, which makes the kernel destroy them. The
 * objects stay allocated for the caller (C leaks their user-space memory) but are dead: any call
 * on them fails with EINVAL. Destruction order is the dependency order: QPs, SRQs, MWs, MRs, CQs,
 * completion channels, PDs.
 */
export function ibv_close_device(context: ibv_context_like): number {
  const ctx = context as Context;
  if (!(ctx instanceof Context) || ctx.closed) return fail(EINVAL);
  const ops = ctx.ops;
  const live = [...ctx.objects];
  const kill = (o: { dead: boolean }): void => {
    o.dead = true;
    ctx.objects.delete(o);
  };
  for (const o of live) if (o instanceof Qp && !o.dead && ops.ri_qp_destroy(ctx.rnic, o.ri).status === RiRet.SUCCESS) kill(o);
  for (const o of live) if (o instanceof Srq && !o.dead && ops.ri_srq_destroy(ctx.rnic, o.ri).status === RiRet.SUCCESS) kill(o);
  for (const o of live) if (o instanceof Mw && !o.dead && ops.ri_mw_dealloc(ctx.rnic, o.ri).status === RiRet.SUCCESS) kill(o);
  for (const o of [...ctx.objects]) if (o instanceof Mr && !o.dead && ops.ri_mr_dereg(ctx.rnic, o.ri).status === RiRet.SUCCESS) kill(o);
  for (const o of live) {
    if (o instanceof Cq && !o.dead && ops.ri_cq_destroy(ctx.rnic, o.ri).status === RiRet.SUCCESS) {
      if (o.channel) {
        o.channel.refcnt--;
        o.channel.forget(o);
      }
      kill(o);
    }
  }
  for (const o of live) {
    if (o instanceof CompChannel && !o.dead) {
      o.close();
      kill(o);
    }
  }
  for (const o of live) if (o instanceof Pd && !o.dead && ops.ri_pd_dealloc(ctx.rnic, o.ri).status === RiRet.SUCCESS) kill(o);
  return closeDevice(ctx);
}

// ------------------------------------------------------------------------------ misc

type ibv_context_like = import('./types.js').ibv_context;

function nullWith(errno: number, detail?: string): null {
  setErrno(errno, detail);
  return null;
}

export { Context };

// ------------------------------------------------------------------------------ §4.8, §8.7 extended atomics

/**
 * §4.8.1 / §8.7.2.1 `ibv_exp_query_device`: `ibv_query_device`'s attributes plus the extended
 * atomics (`IBV_EXP_DEVICE_EXT_ATOMICS`, `ext_atom`), all from the RNIC's atomic executor
 * (ri_rnic_query's softrdma extension). Returns 0 or the errno value (experimental verbs).
 * Nothing else experimental (DC, UMR, cross-channel, calc) is offered: those fields are 0.
 */
export function ibv_exp_query_device(context: ibv_context, attr: ibv_exp_device_attr): number {
  const ctx = context as Context;
  if (!(ctx instanceof Context) || ctx.closed || !attr) return fail(EINVAL);
  const base = {} as ibv_device_attr;
  const ret = queryDevice(ctx, base);
  if (ret !== 0) return ret;
  const r = rnicAttrs(ctx);
  const x = r?.softrdma_atomics;
  const { device_cap_flags, atomic_cap, ...rest } = base;
  Object.assign(attr, rest);
  attr.reserved = 0;
  attr.exp_atomic_cap = atomic_cap as number;
  attr.exp_device_cap_flags = BigInt(device_cap_flags) | (x?.ext_atomic_arg_sizes ? IBV_EXP_DEVICE_EXT_ATOMICS : 0n);
  attr.comp_mask = x?.ext_atomic_arg_sizes ? IBV_EXP_DEVICE_ATTR_EXT_ATOMIC_ARGS : 0;
  // The largest inline atomic: a 32-octet masked Compare-and-Swap (4 fields × 32 octets).
  attr.ext_atom = {
    atomic_arg_sizes: BigInt(x?.ext_atomic_arg_sizes ?? 0),
    max_fa_bit_boundary: x?.max_fa_bit_boundary ?? 0,
    log_max_atomic_inline: x?.ext_atomic_arg_sizes ? 7 : 0,
  };
  attr.calc_cap = { data_types: 0n, data_sizes: 0n, int_ops: 0n, uint_ops: 0n, fp_ops: 0n };
  attr.max_dc_req_rd_atom = 0;
  attr.max_dc_res_rd_atom = 0;
  attr.inline_recv_sz = 0;
  attr.max_rss_tbl_sz = 0;
  attr.umr_caps = { max_klm_list_size: 0, max_send_wqe_inline_klms: 0, max_umr_recursion_depth: 0, max_umr_stride_dimension: 0 };
  attr.max_mkey_klm_list_size = 0;
  attr.max_send_wqe_inline_klms = 0;
  attr.max_umr_recursion_depth = 0;
  attr.max_umr_stride_dimension = 0;
  return 0;
}

/**
 * §4.8.2 / §8.7.2.3 `ibv_exp_create_qp`: an RC QP as `ibv_create_qp` makes it, provisioned for
 * atomics up to `max_atomic_arg` octets (`IBV_EXP_QP_INIT_ATTR_ATOMICS_ARG`; softrdma's WQEs
 * always hold 32). The other experimental QP kinds (DC, UMR, cross-channel, QP groups) are not
 * offered: null, errno ENOSYS.
 */
export function ibv_exp_create_qp(context: ibv_context, init: In<ibv_exp_qp_init_attr>): ibv_qp | null {
  const ctx = context as Context;
  if (!(ctx instanceof Context) || ctx.closed || !init) return nullWith(EINVAL);
  const mask = init.comp_mask ?? 0;
  if ((mask & ~(IBV_EXP_QP_INIT_ATTR_PD | IBV_EXP_QP_INIT_ATTR_ATOMICS_ARG)) !== 0 || (init.exp_create_flags ?? 0) !== 0) return nullWith(ENOSYS);
  if (!(mask & IBV_EXP_QP_INIT_ATTR_PD) || !init.pd) return nullWith(EINVAL);
  if (mask & IBV_EXP_QP_INIT_ATTR_ATOMICS_ARG && ![0, 8, 16, 32].includes(init.max_atomic_arg ?? 0)) return nullWith(EINVAL);
  if ((init.pd as Pd).context !== ctx) return nullWith(EINVAL);
  return ibv_create_qp(init.pd as ibv_pd, {
    qp_context: init.qp_context,
    send_cq: init.send_cq,
    recv_cq: init.recv_cq,
    srq: init.srq,
    cap: init.cap,
    qp_type: init.qp_type,
    sq_sig_all: init.sq_sig_all,
  } as In<ibv_qp_init_attr>);
}

/** Operand sizes of `masked_atomics.log_arg_sz` (§8.7.2.4): 2^3 … 2^5 octets. */
const EXT_ARG_SIZES: Readonly<Record<number, number>> = { 3: 8, 4: 16, 5: 32 };

/** One `ibv_exp_send_wr` as an `ibv_send_wr` (base opcodes) or an RNICPI atomic WR (masked atomics). */
function toRiExpWr(q: Qp, w: In<ibv_exp_send_wr>): ri_wr_t | number {
  const O = ibv_exp_wr_opcode;
  const ef = w.exp_send_flags ?? 0n;
  if (typeof ef !== 'bigint') return EINVAL;
  let sendFlags = 0;
  if (ef & IBV_EXP_SEND_SIGNALED) sendFlags |= ibv_send_flags.IBV_SEND_SIGNALED;
  if (ef & IBV_EXP_SEND_SOLICITED) sendFlags |= ibv_send_flags.IBV_SEND_SOLICITED;
  if (ef & IBV_EXP_SEND_FENCE) sendFlags |= ibv_send_flags.IBV_SEND_FENCE;
  const op = w.exp_opcode ?? O.IBV_EXP_WR_RDMA_WRITE;
  if (op !== O.IBV_EXP_WR_EXT_MASKED_ATOMIC_CMP_AND_SWP && op !== O.IBV_EXP_WR_EXT_MASKED_ATOMIC_FETCH_AND_ADD) {
    // The base opcodes share ibv_wr_opcode's numbers (verbs_exp.h).
    if (op > O.IBV_EXP_WR_SEND_WITH_INV) return EINVAL;
    return toRiWr(q, {
      wr_id: w.wr_id,
      sg_list: w.sg_list,
      num_sge: w.num_sge,
      opcode: op as number as ibv_wr_opcode,
      send_flags: sendFlags,
      imm_data: w.ex?.imm_data,
      invalidate_rkey: w.ex?.invalidate_rkey,
      wr: w.wr,
    } as In<ibv_send_wr>);
  }
  const m = w.ext_op?.masked_atomics;
  const size = EXT_ARG_SIZES[m?.log_arg_sz ?? -1];
  if (!m || size === undefined) return EINVAL;
  const sg = sgeList(w.sg_list, w.num_sge);
  if (!sg || sg.length > 1) return EINVAL;
  let flags = 0;
  if (sendFlags & ibv_send_flags.IBV_SEND_SIGNALED || q.sqSigAll) flags |= RiWrFlags.SIGNALED_FLAG;
  if (sendFlags & ibv_send_flags.IBV_SEND_FENCE) flags |= RiWrFlags.READ_FENCE_FLAG;
  const o = m.wr_data?.inline_data?.op;
  const cas = op === O.IBV_EXP_WR_EXT_MASKED_ATOMIC_CMP_AND_SWP;
  // Operands up to 8 octets are inline values; wider ones are bigints of that width (C passes
  // pointers to them). Every field is required: the masks are the point of these operations.
  const vals = cas
    ? [o?.cmp_swap?.compare_val, o?.cmp_swap?.swap_val, o?.cmp_swap?.compare_mask, o?.cmp_swap?.swap_mask]
    : [o?.fetch_add?.add_val, 0n, o?.fetch_add?.field_boundary, 0n];
  const lim = 1n << BigInt(size * 8);
  if (vals.some((v) => typeof v !== 'bigint' || v < 0n || v >= lim)) return EINVAL;
  return {
    type: cas ? RiWrType.COMPARE_AND_SWAP : RiWrType.FETCH_AND_ADD,
    flags,
    id: w.wr_id ?? 0n,
    rtag: (m.rkey ?? 0) >>> 0,
    rdma_addr: m.remote_addr ?? 0n,
    atomic_operand1: vals[0] as bigint,
    atomic_operand2: vals[1] as bigint,
    atomic_result: sg[0] ?? { tag: 0, addr: 0n, len: 0 },
    atomic_size: size,
    atomic_mask1: vals[2] as bigint,
    atomic_mask2: cas ? (vals[3] as bigint) : undefined,
  } as ri_wr_t;
}

/**
 * §4.8.3 / §8.7.2.4 `ibv_exp_post_send`: the base opcodes as `ibv_post_send`, plus the masked
 * atomics `IBV_EXP_WR_EXT_MASKED_ATOMIC_CMP_AND_SWP` / `_FETCH_AND_ADD` at 8, 16 or 32 octets
 * (the core's executor; between softrdma peers, RFC 7306 with softrdma's extension on iWARP).
 * Returns 0 or the errno value with `bad_wr`; towards a peer without the capability: EINVAL.
 */
export function ibv_exp_post_send(qp: ibv_qp, wr: WrList<ibv_exp_send_wr>): PostResult<ibv_exp_send_wr> {
  const q = qp as Qp;
  if (!alive(q, 'ibv_qp')) return { ret: fail(EINVAL), bad_wr: firstOf(wr) };
  const st = q.state;
  if (st === ibv_qp_state.IBV_QPS_RESET || st === ibv_qp_state.IBV_QPS_INIT || st === ibv_qp_state.IBV_QPS_RTR) {
    return { ret: fail(EINVAL), bad_wr: firstOf(wr) };
  }
  const ctx = q.context;
  for (const w of wrItems<In<ibv_exp_send_wr>>(wr)) {
    const badId = wrIdError('ibv_exp_post_send', w.wr_id);
    if (badId) return { ret: fail(EINVAL, badId), bad_wr: w };
    const r = toRiExpWr(q, w);
    if (typeof r === 'number') return { ret: fail(r), bad_wr: w };
    const res = ctx.ops.ri_qp_postsq(ctx.rnic, q.ri, [r]);
    if (res.status === RiRet.RNIC_ATOMICS_UNSUPPORTED || res.status === RiRet.WR_INVALID_TYPE) {
      return { ret: fail(EINVAL, 'ibv_exp_post_send: the peer did not negotiate RFC 7306 / extended atomics (EINVAL)'), bad_wr: w };
    }
    if (res.status !== RiRet.SUCCESS) return { ret: fail(errnoOf(res.status)), bad_wr: w };
  }
  return { ret: 0, bad_wr: null };
}

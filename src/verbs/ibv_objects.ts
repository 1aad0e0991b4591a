/**
 * The ibverbs objects (manual chapter 4: `ibv_pd`, `ibv_mr`, `ibv_mw`, `ibv_comp_channel`,
 * `ibv_cq`, `ibv_srq`, `ibv_qp`, `ibv_ah`), each over its RNICPI handle, and the helpers every
 * verb shares: the liveness check of a handle, `ibv_access_flags` as RNICPI memory rights,
 * WR lists and scatter/gather lists.
 *
 * @module
 */
import {
  RiMemFlags,
  type ri_address_handle_t,
  type ri_cq_handle_t,
  type ri_data_seg_t,
  type ri_mr_handle_t,
  type ri_mw_handle_t,
  type ri_pd_handle_t,
  type ri_qp_handle_t,
  type ri_srq_handle_t,
} from '../rnicpi/types.js';
import { ibv_access_flags, type ibv_mw_type, ibv_qp_state, ibv_qp_type, ibv_transport_type } from './constants.js';
import { type AsyncTarget, type CompletionTarget, Context, fail } from './device.js';
import { EAGAIN, EBADF, setErrno } from './errno.js';
import {
  type ibv_ah,
  type ibv_async_event,
  type ibv_comp_channel,
  type ibv_cq,
  type ibv_mr,
  type ibv_mw,
  type ibv_pd,
  type ibv_qp,
  type ibv_qp_cap,
  type ibv_sge,
  type ibv_srq,
  type In,
  VERBS_HANDLE,
} from './types.js';
import { type QpIbAttrs, newIbAttrs, qpState } from './ibv_qp_state.js';

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
  readonly #ready: Cq[] = [];
  readonly #waiters: ((r: { ret: number; cq: ibv_cq | null; cq_context: unknown }) => void)[] = [];
  constructor(readonly context: Context) {}

  /**
   * A consumer that takes this channel's events synchronously, as the CQ fires (softrdma
   * extension `softrdmaOnCqEvent`): no promise between the wire and the consumer. A pending
   * `ibv_get_cq_event` still takes an event first.
   */
  listener: ((cq: Cq) => void) | null = null;

  /** A CQ of this channel fired its notification. */
  push(cq: Cq): void {
    if (this.dead) return;
    const w = this.#waiters.shift();
    if (w) {
      // Events handed to the consumer must be acked before the CQ can be destroyed.
      cq.compEvents++;
      w({ ret: 0, cq, cq_context: cq.cq_context });
    } else if (this.listener) {
      cq.compEvents++;
      this.listener(cq);
    } else this.#ready.push(cq);
  }

  /** Installs (or, with null, removes) the synchronous consumer; hands it the queued events. */
  listen(fn: ((cq: Cq) => void) | null): void {
    this.listener = fn;
    while (fn && !this.dead && this.listener === fn && this.#ready.length > 0) {
      const cq = this.#ready.shift()!;
      cq.compEvents++;
      fn(cq);
    }
  }

  get(): Promise<{ ret: number; cq: ibv_cq | null; cq_context: unknown }> {
    if (this.dead) return Promise.resolve({ ret: fail(EBADF), cq: null, cq_context: null });
    const cq = this.#ready.shift();
    if (cq) {
      cq.compEvents++;
      return Promise.resolve({ ret: 0, cq, cq_context: cq.cq_context });
    }
    if (this.nonblocking) return Promise.resolve({ ret: fail(EAGAIN), cq: null, cq_context: null });
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Drops queued events of a CQ being destroyed. */
  forget(cq: Cq): void {
    for (let i = this.#ready.length - 1; i >= 0; i--) if (this.#ready[i] === cq) this.#ready.splice(i, 1);
  }

  close(): void {
    this.dead = true;
    for (const w of this.#waiters.splice(0)) w({ ret: fail(EBADF), cq: null, cq_context: null });
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
  /** The state the RNIC reports, in IB terms (`ibv_qp_state.ts`). */
  get state(): ibv_qp_state {
    return qpState(this);
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

export function alive<T extends { dead: boolean }>(o: T | null | undefined, kind: string): o is T {
  return !!o && typeof o === 'object' && !o.dead && (o as unknown as Record<symbol, unknown>)[VERBS_HANDLE] === kind;
}

export function ctxOk(ctx: Context): boolean {
  return ctx instanceof Context && !ctx.closed;
}

/** `ibv_access_flags` → RNICPI memory rights; null for a combination ibverbs forbids. */
export function memFlagsOf(access: number): number | null {
  const A = ibv_access_flags;
  const known =
    A.IBV_ACCESS_LOCAL_WRITE |
    A.IBV_ACCESS_REMOTE_WRITE |
    A.IBV_ACCESS_REMOTE_READ |
    A.IBV_ACCESS_REMOTE_ATOMIC |
    A.IBV_ACCESS_MW_BIND |
    A.IBV_ACCESS_ZERO_BASED |
    A.IBV_ACCESS_RELAXED_ORDERING;
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

/**
 * A WR list given as an array or as one WR with a `next` chain, as an array: the array itself,
 * else the chain collected (a lone WR: one element). Post calls run on every work request, so
 * this allocates no generator or iterator.
 */
/** More WRs than any queue of the device holds (`max_qp_wr`), so a post of them fails at the full queue. */
const MAX_WR_CHAIN = 1 << 16;

export function wrArray<W extends { next?: unknown }>(list: W | readonly W[]): readonly W[] {
  if (Array.isArray(list)) return list as readonly W[];
  const out: W[] = [];
  // A chain longer than any queue (or a cycle) is cut: posting stops at the full queue anyway.
  for (let w: W | null = list as W; w && out.length < MAX_WR_CHAIN; w = (w.next ?? null) as W | null) out.push(w);
  return out;
}

export function sgeList(sg: readonly In<ibv_sge>[] | undefined, num: number | undefined): ri_data_seg_t[] | null {
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

// ------------------------------------------------------------------------------ misc

export type ibv_context_like = import('./types.js').ibv_context;

export function nullWith(errno: number, detail?: string): null {
  setErrno(errno, detail);
  return null;
}

import { type ri_address_handle_t, type ri_cq_handle_t, type ri_mr_handle_t, type ri_mw_handle_t, type ri_pd_handle_t, type ri_qp_handle_t, type ri_srq_handle_t } from '../rnicpi/types.js';
import type { PostResult, WrList } from './api.js';
import { ibv_mw_type, ibv_qp_state, ibv_qp_type, ibv_wc_status } from './constants.js';
import { type AsyncTarget, type CompletionTarget, Context } from './device.js';
import { type ibv_ah, type ibv_ah_attr, type ibv_gid, type ibv_grh, type ibv_async_event, type ibv_comp_channel, type ibv_context, type ibv_cq, type ibv_exp_device_attr, type ibv_exp_qp_init_attr, type ibv_exp_send_wr, type ibv_mr, type ibv_mw, type ibv_pd, type ibv_qp, type ibv_qp_attr, type ibv_qp_cap, type ibv_qp_init_attr, type ibv_recv_wr, type ibv_send_wr, type ibv_srq, type ibv_srq_attr, type ibv_srq_init_attr, type ibv_wc, type In, VERBS_HANDLE } from './types.js';
/** Bytes a WR may carry inline (`IBV_SEND_INLINE`), copied at post time. */
export declare const MAX_INLINE_DATA = 256;
/** ORD/IRD a QP gets unless rdma_cm or `ibv_modify_qp` sets others. */
export declare const DEFAULT_RD_ATOMIC = 16;
export declare class Pd implements ibv_pd {
    readonly context: Context;
    readonly ri: ri_pd_handle_t;
    readonly [VERBS_HANDLE]: "ibv_pd";
    readonly handle: number;
    dead: boolean;
    constructor(context: Context, ri: ri_pd_handle_t);
}
export declare class Mr implements ibv_mr {
    readonly context: Context;
    readonly pd: Pd;
    readonly addr: bigint;
    readonly length: number;
    readonly lkey: number;
    readonly rkey: number;
    readonly ri: ri_mr_handle_t;
    readonly bytes: Uint8Array;
    readonly [VERBS_HANDLE]: "ibv_mr";
    readonly handle: number;
    dead: boolean;
    constructor(context: Context, pd: Pd, addr: bigint, length: number, lkey: number, rkey: number, ri: ri_mr_handle_t, bytes: Uint8Array);
}
export declare class Mw implements ibv_mw {
    readonly context: Context;
    readonly pd: Pd;
    rkey: number;
    readonly type: ibv_mw_type;
    readonly ri: ri_mw_handle_t;
    readonly [VERBS_HANDLE]: "ibv_mw";
    readonly handle: number;
    dead: boolean;
    constructor(context: Context, pd: Pd, rkey: number, type: ibv_mw_type, ri: ri_mw_handle_t);
}
export declare class CompChannel implements ibv_comp_channel {
    readonly context: Context;
    readonly [VERBS_HANDLE]: "ibv_comp_channel";
    readonly fd: number;
    refcnt: number;
    nonblocking: boolean;
    dead: boolean;
    private readonly ready;
    private readonly waiters;
    constructor(context: Context);
    /** A CQ of this channel fired its notification. */
    push(cq: Cq): void;
    get(): Promise<{
        ret: number;
        cq: ibv_cq | null;
        cq_context: unknown;
    }>;
    /** Drops queued events of a CQ being destroyed. */
    forget(cq: Cq): void;
    close(): void;
}
export declare class Cq implements ibv_cq, CompletionTarget, AsyncTarget {
    readonly context: Context;
    readonly channel: CompChannel | null;
    readonly cq_context: unknown;
    readonly [VERBS_HANDLE]: "ibv_cq";
    readonly handle: number;
    comp_events_completed: number;
    async_events_completed: number;
    /** Completion events delivered (to be acked before destroy). */
    compEvents: number;
    asyncEvents: number;
    dead: boolean;
    ri: ri_cq_handle_t;
    cqe: number;
    constructor(context: Context, channel: CompChannel | null, cq_context: unknown);
    onCompletionEvent(): void;
    reportAsync(): void;
    asyncElement(): ibv_async_event['element'];
    ackAsync(): void;
}
export declare class Srq implements ibv_srq, AsyncTarget {
    readonly context: Context;
    readonly pd: Pd;
    readonly srq_context: unknown;
    readonly [VERBS_HANDLE]: "ibv_srq";
    readonly handle: number;
    events_completed: number;
    asyncEvents: number;
    dead: boolean;
    ri: ri_srq_handle_t;
    maxWr: number;
    maxSge: number;
    constructor(context: Context, pd: Pd, srq_context: unknown);
    reportAsync(): void;
    asyncElement(): ibv_async_event['element'];
    ackAsync(): void;
}
export declare class Qp implements ibv_qp, AsyncTarget {
    readonly context: Context;
    readonly pd: Pd;
    readonly send_cq: Cq;
    readonly recv_cq: Cq;
    readonly srq: Srq | null;
    readonly qp_context: unknown;
    readonly qp_type: ibv_qp_type;
    readonly [VERBS_HANDLE]: "ibv_qp";
    readonly handle: number;
    events_completed: number;
    asyncEvents: number;
    dead: boolean;
    ri: ri_qp_handle_t;
    qp_num: number;
    /**
     * `rdma_disconnect` asked for a graceful close: a bad close that follows (work was still
     * outstanding) is the expected abortive close, not reported as an asynchronous event.
     */
    quietBadClose: boolean;
    /** The IB state last set (RESET/INIT/RTR are all Idle on the RNIC). */
    ibState: ibv_qp_state;
    cap: ibv_qp_cap;
    sqSigAll: boolean;
    accessFlags: number;
    maxRdAtomic: number;
    maxDestRdAtomic: number;
    /** Bounce buffer for inline sends: one slot of MAX_INLINE_DATA per SQ entry. */
    inline: {
        mr: Mr;
        next: number;
    } | null;
    /**
     * The IB attributes set by `ibv_modify_qp` (path, PSNs, timers, retry counts): they have no
     * effect on an iWARP QP but `ibv_query_qp` reports them back as set (manual §4.6.1).
     */
    ib: QpIbAttrs;
    constructor(context: Context, pd: Pd, send_cq: Cq, recv_cq: Cq, srq: Srq | null, qp_context: unknown, qp_type?: ibv_qp_type);
    /** The QP lives on a RoCEv2 (InfiniBand transport) device: the RNIC keeps the IB states. */
    get isIb(): boolean;
    /** The state the RNIC reports, in IB terms (iWARP mapping of Linux siw; IB states as they are). */
    get state(): ibv_qp_state;
    reportAsync(): void;
    asyncElement(): ibv_async_event['element'];
    ackAsync(): void;
}
/** `struct ibv_ah` of a RoCEv2 device: the RNIC's address handle (`ri_ah_create`). */
export declare class Ah implements ibv_ah {
    readonly context: Context;
    readonly pd: Pd;
    readonly ri: ri_address_handle_t;
    readonly [VERBS_HANDLE]: "ibv_ah";
    readonly handle: number;
    dead: boolean;
    constructor(context: Context, pd: Pd, ri: ri_address_handle_t);
}
/** `ibv_access_flags` → RNICPI memory rights; null for a combination ibverbs forbids. */
export declare function memFlagsOf(access: number): number | null;
export declare function ibv_alloc_pd(context: ibv_context_like): ibv_pd | null;
export declare function ibv_dealloc_pd(pd: ibv_pd): number;
/**
 * `ibv_reg_mr`: registers `addr` (the bytes themselves) as `[mr.addr, mr.addr+length)` in the
 * synthetic address space; `length` may cover a prefix of the view.
 */
export declare function ibv_reg_mr(pd: ibv_pd, addr: Uint8Array, length: number, access: number): ibv_mr | null;
export declare function ibv_dereg_mr(mr: ibv_mr): number;
/** `ibv_alloc_mw` (rdma-core; type 2 = narrow, bound by a WR to one QP). */
export declare function ibv_alloc_mw(pd: ibv_pd, type: ibv_mw_type): ibv_mw | null;
export declare function ibv_dealloc_mw(mw: ibv_mw): number;
export declare function ibv_create_comp_channel(context: ibv_context_like): ibv_comp_channel | null;
export declare function ibv_destroy_comp_channel(channel: ibv_comp_channel): number;
export declare function ibv_create_cq(context: ibv_context_like, cqe: number, cq_context: unknown, channel: ibv_comp_channel | null, comp_vector: number): ibv_cq | null;
export declare function ibv_resize_cq(cq: ibv_cq, cqe: number): number;
export declare function ibv_destroy_cq(cq: ibv_cq): number;
export declare function ibv_req_notify_cq(cq: ibv_cq, solicited_only: number): number;
export declare function ibv_get_cq_event(channel: ibv_comp_channel): Promise<{
    ret: number;
    cq: ibv_cq | null;
    cq_context: unknown;
}>;
export declare function ibv_ack_cq_events(cq: ibv_cq, nevents: number): void;
/** RNICPI WC status → ibverbs (the iWARP statuses folded as Linux siw folds them). */
export declare function wcStatusOf(st: number, opType: number): ibv_wc_status;
/** A blank `ibv_wc` (for callers that pass an empty array). */
export declare function newWc(): ibv_wc;
/** `ibv_poll_cq`: synchronous; fills `wc[0..n)` (creating entries that are missing). */
export declare function ibv_poll_cq(cq: ibv_cq, num_entries: number, wc: ibv_wc[]): number;
export declare function ibv_create_srq(pd: ibv_pd, init: In<ibv_srq_init_attr>): ibv_srq | null;
export declare function ibv_modify_srq(srq: ibv_srq, attr: In<ibv_srq_attr>, mask: number): number;
export declare function ibv_query_srq(srq: ibv_srq, out: ibv_srq_attr): number;
export declare function ibv_destroy_srq(srq: ibv_srq): number;
export declare function ibv_post_srq_recv(srq: ibv_srq, wr: WrList<ibv_recv_wr>): PostResult<ibv_recv_wr>;
export declare function ibv_create_qp(pd: ibv_pd, init: In<ibv_qp_init_attr>): ibv_qp | null;
export declare function ibv_destroy_qp(qp: ibv_qp): number;
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
export declare function ibv_modify_qp(qp: ibv_qp, attr: In<ibv_qp_attr>, mask: number): number;
/** rdma_cm's way to RTS: the LLP stream and MPA attributes from the connection manager. */
export declare function modifyQpToRts(qp: Qp, stream: unknown, mpa: {
    crc: boolean;
    recvMarkers: boolean;
    xmitMarkers: boolean;
}, ord: number, ird: number): number;
/** `ibv_create_ah` on a RoCEv2 device (`ri_ah_create`); iWARP keeps the unsupported errno (index.ts). */
export declare function createAh(pd: ibv_pd, attr: In<ibv_ah_attr>): Ah | null;
/**
 * `ibv_attach_mcast` / `ibv_detach_mcast` on a RoCEv2 device (manual §4.6.13–14;
 * `ri_mcast_attach`/`ri_mcast_detach`): a UD QP joins or leaves the multicast group `gid` (an
 * IPv4-mapped group address on RoCEv2). As Linux `ib_attach_mcast`: a QP that is not UD or a GID
 * that is not a multicast group is EINVAL, a full group ENOMEM; detaching a group the QP is not
 * in is EINVAL. iWARP keeps the unsupported errno (index.ts).
 */
export declare function mcastAttach(qp: ibv_qp, gid: In<ibv_gid>, lid: number, detach: boolean): number;
/** `ibv_destroy_ah` (`ri_ah_destroy`). */
export declare function destroyAh(ah: ibv_ah): number;
/**
 * `ibv_init_ah_from_wc` on a RoCEv2 device (manual §4.6.11): the reply path of a received
 * datagram. RoCE datagrams always carry a GRH (`IBV_WC_GRH`): the reply goes to its source GID,
 * from the local GID it was sent to (its index in the GID table), as rdma-core does.
 */
export declare function initAhFromWc(ctx: Context, port_num: number, wc: In<ibv_wc>, grhIn: Uint8Array | In<ibv_grh> | null, ah_attr: ibv_ah_attr): number;
export declare function ibv_query_qp(qp: ibv_qp, attr: ibv_qp_attr, _mask: number, init: ibv_qp_init_attr): number;
export declare function ibv_post_send(qp: ibv_qp, wr: WrList<ibv_send_wr>): PostResult<ibv_send_wr>;
export declare function ibv_post_recv(qp: ibv_qp, wr: WrList<ibv_recv_wr>): PostResult<ibv_recv_wr>;
/**
 * `ibv_get_async_event(context, event)` (manual §4.7.1): C fills the caller's `struct
 * ibv_async_event`. A missing or non-object `event` is C's NULL pointer, which the binding
 * answers with EINVAL and a message (see softrdmaLastError) rather than a TypeError.
 */
export declare function ibv_get_async_event(context: ibv_context_like, event: ibv_async_event): Promise<number>;
export declare function ibv_ack_async_event(event: ibv_async_event): void;
/**
 * `ibv_close_device` (manual §4.2.6): closes the context even while objects created on it are
 * still alive — like closing the uverbs file in C, which makes the kernel destroy them. The
 * objects stay allocated for the caller (C leaks their user-space memory) but are dead: any call
 * on them fails with EINVAL. Destruction order is the dependency order: QPs, SRQs, MWs, MRs, CQs,
 * completion channels, PDs.
 */
export declare function ibv_close_device(context: ibv_context_like): number;
type ibv_context_like = import('./types.js').ibv_context;
export { Context };
/**
 * §4.8.1 / §8.7.2.1 `ibv_exp_query_device`: `ibv_query_device`'s attributes plus the extended
 * atomics (`IBV_EXP_DEVICE_EXT_ATOMICS`, `ext_atom`), all from the RNIC's atomic executor
 * (ri_rnic_query's softrdma extension). Returns 0 or the errno value (experimental verbs).
 * Nothing else experimental (DC, UMR, cross-channel, calc) is offered: those fields are 0.
 */
export declare function ibv_exp_query_device(context: ibv_context, attr: ibv_exp_device_attr): number;
/**
 * §4.8.2 / §8.7.2.3 `ibv_exp_create_qp`: an RC QP as `ibv_create_qp` makes it, provisioned for
 * atomics up to `max_atomic_arg` octets (`IBV_EXP_QP_INIT_ATTR_ATOMICS_ARG`; softrdma's WQEs
 * always hold 32). The other experimental QP kinds (DC, UMR, cross-channel, QP groups) are not
 * offered: null, errno ENOSYS.
 */
export declare function ibv_exp_create_qp(context: ibv_context, init: In<ibv_exp_qp_init_attr>): ibv_qp | null;
/**
 * §4.8.3 / §8.7.2.4 `ibv_exp_post_send`: the base opcodes as `ibv_post_send`, plus the masked
 * atomics `IBV_EXP_WR_EXT_MASKED_ATOMIC_CMP_AND_SWP` / `_FETCH_AND_ADD` at 8, 16 or 32 octets
 * (the core's executor; between softrdma peers, RFC 7306 with softrdma's extension on iWARP).
 * Returns 0 or the errno value with `bad_wr`; towards a peer without the capability: EINVAL.
 */
export declare function ibv_exp_post_send(qp: ibv_qp, wr: WrList<ibv_exp_send_wr>): PostResult<ibv_exp_send_wr>;

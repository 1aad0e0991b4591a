/**
 * Completion channels and completion queues (manual §4.3, §4.4, §4.5): creation, resizing,
 * notification (`ibv_req_notify_cq`, `ibv_get_cq_event`, `ibv_ack_cq_events`) and
 * `ibv_poll_cq`, which turns RNICPI work completions into `ibv_wc` (status and opcode tables).
 *
 * @module
 */
import { RiRet } from '../rnicpi/status.js';
import { RiCmpltNotifyType, RiWcFlags, RiWcStatus, RiWcType, riWcIsGen, type ri_rc_wc_t, type ri_wc_t } from '../rnicpi/types.js';
import { ibv_wc_flags, ibv_wc_opcode, ibv_wc_status } from './constants.js';
import { type Context, errnoOf, fail } from './device.js';
import { EBUSY, EINVAL } from './errno.js';
import type { ibv_comp_channel, ibv_cq, ibv_wc } from './types.js';
import { CompChannel, Cq, type Qp, alive, ctxOk, type ibv_context_like, nullWith } from './ibv_objects.js';

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

/**
 * softrdma extension: `fn` receives each completion event of `channel` synchronously, as the
 * CQ fires — from the socket callback that delivered the completion when it came from the wire
 * — instead of through the promise of `ibv_get_cq_event` (which, when one is pending, still
 * takes the event first). Each event given to `fn` must be acked with `ibv_ack_cq_events` as
 * one returned by `ibv_get_cq_event`. `fn` null removes it. 0, or -1 and EINVAL for a
 * non-channel.
 */
export function softrdmaOnCqEvent(channel: ibv_comp_channel, fn: ((cq: ibv_cq) => void) | null): number {
  const ch = channel as CompChannel;
  if (!(ch instanceof CompChannel) || ch.dead) return fail(EINVAL);
  ch.listen(fn);
  return 0;
}

export function ibv_ack_cq_events(cq: ibv_cq, nevents: number): void {
  const c = cq as Cq;
  if (c instanceof Cq) c.comp_events_completed += nevents;
}

/**
 * RNICPI WC status → ibverbs: the iWARP statuses folded as Linux siw folds them, the
 * InfiniBand ones (RNICPI §6.10 IB-specific; IBTA Vol. 1 §11.6.2) as they are. Two depend on
 * the WR as well: {@link BIND_FAULTS} and a receive buffer too small ({@link wcStatusOf}).
 */
const WC_STATUS: Readonly<Partial<Record<RiWcStatus, ibv_wc_status>>> = {
  [RiWcStatus.SUCCESS]: ibv_wc_status.IBV_WC_SUCCESS,
  [RiWcStatus.WR_FLUSHED_ERROR]: ibv_wc_status.IBV_WC_WR_FLUSH_ERR,
  [RiWcStatus.LOCAL_QP_OP_ERROR]: ibv_wc_status.IBV_WC_LOC_QP_OP_ERR,
  [RiWcStatus.WQE_FORMAT_ERROR]: ibv_wc_status.IBV_WC_LOC_QP_OP_ERR,
  [RiWcStatus.ZERO_ORD_ERROR]: ibv_wc_status.IBV_WC_LOC_QP_OP_ERR,
  [RiWcStatus.REMOTE_TERMINATION_ERROR]: ibv_wc_status.IBV_WC_REM_OP_ERR,
  [RiWcStatus.REMOTE_OP_ERROR]: ibv_wc_status.IBV_WC_REM_OP_ERR,
  [RiWcStatus.REMOTE_ACCESS_ERROR]: ibv_wc_status.IBV_WC_REM_ACCESS_ERR,
  [RiWcStatus.REMOTE_INVALID_REQ_ERROR]: ibv_wc_status.IBV_WC_REM_INV_REQ_ERR,
  [RiWcStatus.BASE_BOUNDS_VIOLATION_ERROR]: ibv_wc_status.IBV_WC_LOC_PROT_ERR,
  [RiWcStatus.HUGE_PAYLOAD_ERROR]: ibv_wc_status.IBV_WC_LOC_LEN_ERR,
  [RiWcStatus.INVALID_BIND_MR_ERROR]: ibv_wc_status.IBV_WC_MW_BIND_ERR,
  [RiWcStatus.INVALID_BIND_MW_ERROR]: ibv_wc_status.IBV_WC_MW_BIND_ERR,
  [RiWcStatus.STAG_NOT_IN_INVALID_STATE_ERROR]: ibv_wc_status.IBV_WC_LOC_PROT_ERR,
  [RiWcStatus.INVALID_STAG_ERROR]: ibv_wc_status.IBV_WC_LOC_PROT_ERR,
  [RiWcStatus.ACCESS_VIOLATION_ERROR]: ibv_wc_status.IBV_WC_LOC_PROT_ERR,
  [RiWcStatus.INVALID_PD_ERROR]: ibv_wc_status.IBV_WC_LOC_PROT_ERR,
  [RiWcStatus.ADDRESS_WRAP_ERROR]: ibv_wc_status.IBV_WC_LOC_PROT_ERR,
  [RiWcStatus.STAG_INVALIDATE_ERROR]: ibv_wc_status.IBV_WC_LOC_PROT_ERR,
  [RiWcStatus.LOCAL_LENGTH_ERROR]: ibv_wc_status.IBV_WC_LOC_LEN_ERR,
  [RiWcStatus.LOCAL_PROTECTION_ERROR]: ibv_wc_status.IBV_WC_LOC_PROT_ERR,
  [RiWcStatus.MEMORY_MGMT_ERROR]: ibv_wc_status.IBV_WC_MW_BIND_ERR,
  [RiWcStatus.BAD_RESPONSE_ERROR]: ibv_wc_status.IBV_WC_BAD_RESP_ERR,
  [RiWcStatus.LOCAL_ACCESS_ERROR]: ibv_wc_status.IBV_WC_LOC_ACCESS_ERR,
  [RiWcStatus.TRANSPORT_RETRY_EXCEEDED]: ibv_wc_status.IBV_WC_RETRY_EXC_ERR,
  [RiWcStatus.RNR_RETRY_EXCEEDED]: ibv_wc_status.IBV_WC_RNR_RETRY_EXC_ERR,
  [RiWcStatus.REMOTE_ABORTED_ERROR]: ibv_wc_status.IBV_WC_REM_ABORT_ERR,
};

/** Protection faults that a Bind completes with as a bind error (the window could not be bound). */
const BIND_FAULTS: ReadonlySet<number> = new Set([
  RiWcStatus.STAG_NOT_IN_INVALID_STATE_ERROR,
  RiWcStatus.INVALID_STAG_ERROR,
  RiWcStatus.ACCESS_VIOLATION_ERROR,
  RiWcStatus.INVALID_PD_ERROR,
  RiWcStatus.ADDRESS_WRAP_ERROR,
  RiWcStatus.STAG_INVALIDATE_ERROR,
]);

/** RNICPI WC status → ibverbs ({@link WC_STATUS}), given the WC type it completes. */
export function wcStatusOf(st: number, opType: number): ibv_wc_status {
  if (opType === RiWcType.BIND && BIND_FAULTS.has(st)) return ibv_wc_status.IBV_WC_MW_BIND_ERR;
  // A receive buffer too small for the message is a length error in ibverbs terms.
  if (st === RiWcStatus.BASE_BOUNDS_VIOLATION_ERROR && opType === RiWcType.DATA_RECEIVED) return ibv_wc_status.IBV_WC_LOC_LEN_ERR;
  const s = WC_STATUS[st as RiWcStatus];
  if (s !== undefined) return s;
  if (st >= RiWcStatus.FMR_QP_NOT_PRIVILEGED_ERROR && st <= RiWcStatus.INVALID_FMR_VA_ERROR) return ibv_wc_status.IBV_WC_LOC_PROT_ERR;
  return ibv_wc_status.IBV_WC_GENERAL_ERR;
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

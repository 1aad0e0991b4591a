/**
 * Queue pairs (manual §4.5: `ibv_create_qp`, `ibv_destroy_qp`, `ibv_modify_qp`): creation over
 * `ri_qp_create`, and Modify QP, which on a RoCEv2 QP is a translation to the RNIC's IB Modify
 * QP and on an iWARP QP the emulation of `ibv_qp_state.ts`; rdma_cm's way to RTS
 * (`modifyQpToRts`).
 *
 * @module
 */
import { RiRet } from '../rnicpi/status.js';
import { riGidOfBytes } from '../rnicpi/gid.js';
import { RiQpAttrMask, RiQpState, RiSvcType, type ri_gen_address_vector_t, type ri_ib_qp_attr_t } from '../rnicpi/types.js';
import { ibv_access_flags, ibv_qp_attr_mask, ibv_qp_type, ibv_transport_type } from './constants.js';
import { errnoOf, fail } from './device.js';
import { EBUSY, EINVAL, ENOMEM, EOPNOTSUPP } from './errno.js';
import type { ibv_ah_attr, ibv_pd, ibv_qp, ibv_qp_attr, ibv_qp_init_attr, In } from './types.js';
import { type Cq, DEFAULT_RD_ATOMIC, MAX_INLINE_DATA, type Mr, type Pd, Qp, type Srq, alive, nullWith } from './ibv_objects.js';
import { ibv_dereg_mr, ibv_reg_mr } from './ibv_pd.js';
import { QP_ACCESS_BITS, riOfIbv, modifyIwarpQp } from './ibv_qp_state.js';

// ------------------------------------------------------------------------------ QP

export function ibv_create_qp(pd: ibv_pd, init: In<ibv_qp_init_attr>): ibv_qp | null {
  const p = pd as Pd;
  if (!alive(p, 'ibv_pd') || !init) return nullWith(EINVAL);
  const T = ibv_qp_type;
  const type = init.qp_type ?? T.IBV_QPT_RC;
  const ib = p.context.device.transport_type === ibv_transport_type.IBV_TRANSPORT_IB;
  // siw: "only RC QP's supported" (EOPNOTSUPP); iWARP has no UD/UC/XRC. RoCEv2: RC, UC, UD.
  const svc =
    type === T.IBV_QPT_RC
      ? RiSvcType.RELIABLE_CONNECTION
      : type === T.IBV_QPT_UC
        ? RiSvcType.SR_UNRELIABLE_CONNECTION
        : type === T.IBV_QPT_UD
          ? RiSvcType.UNRELIABLE_DATAGRAM
          : null;
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

/**
 * `ibv_modify_qp` (manual §4.5.1): on a RoCEv2 QP a translation to the RNIC's IB Modify QP
 * (`modifyIbQp`); on an iWARP QP the emulation of `ibv_qp_state.ts` (`modifyIwarpQp`).
 */
export function ibv_modify_qp(qp: ibv_qp, attr: In<ibv_qp_attr>, mask: number): number {
  const q = qp as Qp;
  if (!alive(q, 'ibv_qp') || !attr || !Number.isInteger(mask)) return fail(EINVAL);
  const M = ibv_qp_attr_mask;
  if (mask & (M.IBV_QP_ALT_PATH | M.IBV_QP_PATH_MIG_STATE)) return fail(EOPNOTSUPP);
  if (q.isIb) return modifyIbQp(q, attr, mask);
  return modifyIwarpQp(q, attr, mask);
}

/** The RNICPI form of an `ibv_ah_attr` (RoCE: the GRH fields; no LID routing). */
export function riAvOf(a: In<ibv_ah_attr> | undefined): ri_gen_address_vector_t | undefined {
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
    state = riOfIbv(attr.qp_state);
    if (state === undefined) return fail(EINVAL);
    riMask |= RiQpAttrMask.NEXT_STATE;
  }
  if (mask & M.IBV_QP_AV && (attr.ah_attr?.is_global ?? 0) !== 1)
    return fail(EINVAL, 'ibv_modify_qp: a RoCE address vector needs the GRH (is_global 1) (EINVAL)');
  if (mask & M.IBV_QP_CUR_STATE && riOfIbv(attr.cur_qp_state) === undefined) return fail(EINVAL);
  const acc = attr.qp_access_flags ?? 0;
  if (mask & M.IBV_QP_ACCESS_FLAGS && (!Number.isInteger(acc) || (acc & ~QP_ACCESS_BITS) !== 0)) return fail(EINVAL);
  const ib: Partial<ri_ib_qp_attr_t> = {
    sr_ibta_mask: mask & ~M.IBV_QP_STATE,
    current_state: riOfIbv(attr.cur_qp_state),
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

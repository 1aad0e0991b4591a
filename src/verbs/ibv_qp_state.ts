/**
 * The IB view of a QP in ibverbs: its state, its IB attributes and `ibv_query_qp` (manual §4.5.2).
 *
 * On a RoCEv2 QP the RNIC keeps the IB states and attributes, and this reads them back. On an
 * iWARP QP it is an emulation, as Linux's iWARP mapping (siw) does: RESET, INIT and RTR are all
 * the RNIC's Idle; RTS needs an LLP stream, which only rdma_cm provides; SQD is Closing, SQE is
 * Terminate, ERR is Error. The IB state last set (`Qp.ibState`) and the IB-only attributes
 * (`QpIbAttrs`: path, PSNs, timers, retry counts) are recorded here so that `ibv_query_qp`
 * reports them as set.
 *
 * @module
 */
import { PSN_MASK, QPN_MASK } from '../wire/ib/constants.js';
import { RiRet } from '../rnicpi/status.js';
import { bytesOfRiGid } from '../rnicpi/gid.js';
import { RiQpAttrMask, RiQpState, type ri_gen_address_vector_t } from '../rnicpi/types.js';
import { riQpState } from '../provider/softrdma.js';
import { IbQpAttr, ibModifyOk } from '../rnic/qp-states.js';
import { IB_OF_IWARP, IB_OF_RI, IbQpState, IWARP_OF_IB, RI_OF_IB } from '../rnicpi/qp-state-map.js';
import { ibv_access_flags, ibv_mig_state, ibv_qp_attr_mask, ibv_qp_state, ibv_qp_type } from './constants.js';
import { errnoOf, fail } from './device.js';
import { EINVAL } from './errno.js';
import type { ibv_ah_attr, ibv_qp, ibv_qp_attr, ibv_qp_init_attr, In } from './types.js';
import { type Qp, alive } from './ibv_objects.js';

/**
 * An `ibv_qp_state` is the IB state of the same value; the map between RNICPI and IB states
 * is `src/rnicpi/qp-state-map.ts`, read here for both directions.
 */
export function ibvOfRi(s: RiQpState): ibv_qp_state {
  const ib = IB_OF_RI[s];
  return ib === undefined ? ibv_qp_state.IBV_QPS_UNKNOWN : (ib as number as ibv_qp_state);
}

/** The RNICPI state a Modify QP into an `ibv_qp_state` requests on a RoCEv2 QP, or undefined for no IB state. */
export function riOfIbv(s: number | undefined): RiQpState | undefined {
  return Object.hasOwn(RI_OF_IB, s as number) ? RI_OF_IB[s as IbQpState] : undefined;
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

/** An `ibv_ah_attr` of zeros (no GRH). */
export function zeroAh(): ibv_ah_attr {
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

export function newIbAttrs(): QpIbAttrs {
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
export function capAllowed(cur: ibv_qp_state, target: ibv_qp_state): number {
  const S = ibv_qp_state;
  const ok =
    (cur === S.IBV_QPS_INIT && (target === S.IBV_QPS_INIT || target === S.IBV_QPS_RTR)) ||
    (cur === S.IBV_QPS_RTS && target === S.IBV_QPS_RTS);
  return ok ? IbQpAttr.CAP : 0;
}

export const QP_ACCESS_BITS =
  ibv_access_flags.IBV_ACCESS_LOCAL_WRITE |
  ibv_access_flags.IBV_ACCESS_REMOTE_WRITE |
  ibv_access_flags.IBV_ACCESS_REMOTE_READ |
  ibv_access_flags.IBV_ACCESS_REMOTE_ATOMIC |
  ibv_access_flags.IBV_ACCESS_MW_BIND;

/** True when every attribute selected by `mask` has a value the port/QP can take. */
export function qpAttrValuesOk(q: Qp, attr: In<ibv_qp_attr>, mask: number, cur: ibv_qp_state): boolean {
  const M = ibv_qp_attr_mask;
  const u = (v: number | undefined, max: number) => Number.isInteger(v ?? 0) && (v ?? 0) >= 0 && (v ?? 0) <= max;
  if (mask & M.IBV_QP_CUR_STATE && (attr.cur_qp_state ?? 0) !== cur) return false;
  // One port (phys_port_cnt 1) with one P_Key entry (pkey_tbl_len 1).
  if (mask & M.IBV_QP_PORT && attr.port_num !== 1) return false;
  if (mask & M.IBV_QP_PKEY_INDEX && (attr.pkey_index ?? 0) !== 0) return false;
  if (mask & M.IBV_QP_ACCESS_FLAGS && ((attr.qp_access_flags ?? 0) & ~QP_ACCESS_BITS) !== 0) return false;
  if (mask & M.IBV_QP_PATH_MTU && !u((attr.path_mtu ?? 0) - 1, 4)) return false;
  if (mask & M.IBV_QP_AV && (attr.ah_attr?.port_num ?? 1) > 1) return false;
  if (mask & M.IBV_QP_DEST_QPN && !u(attr.dest_qp_num, QPN_MASK)) return false;
  if (mask & M.IBV_QP_RQ_PSN && !u(attr.rq_psn, PSN_MASK)) return false;
  if (mask & M.IBV_QP_SQ_PSN && !u(attr.sq_psn, PSN_MASK)) return false;
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
export function storeIbAttrs(q: Qp, attr: In<ibv_qp_attr>, mask: number): void {
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

/** The `ibv_ah_attr` of an RNICPI address vector. */
function ahOfRi(av: ri_gen_address_vector_t, port: number): ibv_ah_attr {
  const raw = bytesOfRiGid(av.dgid);
  return {
    grh: {
      dgid: { raw },
      flow_label: av.flow_label,
      sgid_index: av.source_gid_index,
      hop_limit: av.hop_limit,
      traffic_class: av.traffic_class,
    },
    dlid: av.dlid,
    sl: av.sl,
    src_path_bits: av.source_path_bits,
    static_rate: av.max_static_rate,
    is_global: raw.some((x) => x !== 0) ? 1 : 0,
    port_num: port,
  };
}

/** `ibv_query_qp` on a RoCEv2 QP: every attribute from `ri_qp_query`. */
function queryIbQp(q: Qp, attr: ibv_qp_attr, init: ibv_qp_init_attr): number {
  const r = q.context.ops.ri_qp_query(q.context.rnic, q.ri);
  if (r.status !== RiRet.SUCCESS) return fail(errnoOf(r.status));
  const a = r.attrs;
  if (!('qp_ib' in a.qp_xport)) return fail(EINVAL);
  const x = a.qp_xport.qp_ib;
  const A = ibv_access_flags;
  const s = ibvOfRi(a.state);
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
  fillInitAttr(q, init, q.qp_type);
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
  fillInitAttr(q, init, ibv_qp_type.IBV_QPT_RC);
  return 0;
}

/**
 * The state of a QP in IB terms: a RoCEv2 QP's RNIC state as it is; an iWARP QP's by Linux
 * siw's mapping, with the IB state last set standing for the RNIC's Idle.
 */
export function qpState(q: Qp): ibv_qp_state {
  if (q.dead) return ibv_qp_state.IBV_QPS_UNKNOWN;
  const st = riQpState(q.context.ops, q.context.rnic, q.ri);
  if (st === null) return ibv_qp_state.IBV_QPS_UNKNOWN;
  if (q.isIb) return ibvOfRi(st);
  // Idle is whichever of RESET, INIT or RTR the consumer last set (an RTS or ERR left is RESET).
  if (st === RiQpState.IDLE)
    return q.ibState === ibv_qp_state.IBV_QPS_ERR || q.ibState === ibv_qp_state.IBV_QPS_RTS ? ibv_qp_state.IBV_QPS_RESET : q.ibState;
  // The LLP connection (a socket converted by the CM) can put the RNIC in RTS while the
  // consumer has not yet issued its RTR→RTS modify: the QP reads as RTR until it does.
  if (st === RiQpState.READY_TO_SEND && q.ibState === ibv_qp_state.IBV_QPS_RTR) return ibv_qp_state.IBV_QPS_RTR;
  return (IB_OF_IWARP[st] ?? IbQpState.ERR) as number as ibv_qp_state;
}

/**
 * `ibv_modify_qp` on an iWARP QP: the RC transition table ({@link RC_TRANSITIONS}); a missing required or a
 * disallowed mask bit, a skipped state or an out-of-range value → EINVAL with nothing changed.
 * Path, PSN, timer and retry attributes are IB notions with no iWARP effect: recorded for
 * `ibv_query_qp` (siw ignores them). RTS needs an LLP stream, which only the connection manager
 * supplies (siw answers EINVAL for a QP without a socket): rdma_cm calls {@link modifyQpToRts};
 * a QP whose socket was converted (`cmConvertSocket`) while it was in RTR takes the RTR→RTS modify.
 * RESET empties the work queues: on the RNIC that is a pass through Error, so WRs still posted
 * complete with `IBV_WC_WR_FLUSH_ERR` (IB drops them silently).
 */
export function modifyIwarpQp(q: Qp, attr: In<ibv_qp_attr>, mask: number): number {
  const M = ibv_qp_attr_mask;
  const S = ibv_qp_state;
  const cur = q.state;
  const target: ibv_qp_state = mask & M.IBV_QP_STATE ? (attr.qp_state ?? S.IBV_QPS_RESET) : cur;
  const attrMask = mask & ~M.IBV_QP_STATE;
  if (target === S.IBV_QPS_RESET || target === S.IBV_QPS_ERR) {
    // Any state → RESET / ERR, with IBV_QP_STATE alone (an attribute-only modify in RESET has no
    // attribute to take; one in ERR neither).
    if (attrMask !== 0) return fail(EINVAL);
  } else {
    // The core's IB transition table (qp-states.ts, as `ib_modify_qp_is_ok`), RC service.
    if (!ibModifyOk(cur as number as IbQpState, target as number as IbQpState, 'RC', attrMask, capAllowed(cur, target)))
      return fail(EINVAL);
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
    const s = IWARP_OF_IB[target as number as IbQpState] ?? null;
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
  const ri: { state?: RiQpState; max_rdma_read_outgoing?: number; max_rdma_read_incoming?: number; sq_size?: number; rq_size?: number } =
    {};
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
export function modifyQpToRts(
  qp: Qp,
  stream: unknown,
  mpa: { crc: boolean; recvMarkers: boolean; xmitMarkers: boolean },
  ord: number,
  ird: number,
): number {
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

/** rdma_cm established the connection of an iWARP or RoCEv2 QP: it reads as RTS from now on. */
export function qpConnected(qp: Qp): void {
  qp.ibState = ibv_qp_state.IBV_QPS_RTS;
}

/** The `ibv_qp_init_attr` half of `ibv_query_qp`: what the QP was created with. */
function fillInitAttr(q: Qp, init: ibv_qp_init_attr, qpType: ibv_qp_type): void {
  init.qp_context = q.qp_context;
  init.send_cq = q.send_cq;
  init.recv_cq = q.recv_cq;
  init.srq = q.srq;
  init.cap = { ...q.cap };
  init.qp_type = qpType;
  init.sq_sig_all = q.sqSigAll ? 1 : 0;
}

/**
 * The QP attributes of an InfiniBand connection, in one place: what a QP is given on its way
 * to RTS when the IB CM connects it, as Linux `ib_cm_init_qp_attr` (`cm_init_qp_init_attr`,
 * `cm_init_qp_rtr_attr`, `cm_init_qp_rts_attr`) and `rdma_init_qp_attr` give them, and the
 * executor that applies them through RNICPI.
 *
 * A **plan** is the list of state steps (INIT, RTR, RTS) with the Modify QP attributes of each
 * (IBTA Vol. 1 §11.2.4.2 lists which a transition takes), computed from the CM messages alone:
 *
 * - **RC active** ({@link rcActivePlan}): after the REP, RTR with the REP's QPN, our REQ's
 *   Starting PSN as the receive PSN, the REQ's path and the responder resources both sides
 *   allow; RTS with the REP's Starting PSN, the REQ's Local ACK Timeout and Retry Count and the
 *   REP's RNR Retry Count (IBTA Vol. 1 §12.7.27, §12.7.34);
 * - **RC passive** ({@link rcPassivePlan}): before the REP, RTR with the REQ's QPN and path and
 *   the REP's Starting PSN as the receive PSN; RTS with the REQ's Starting PSN, Local ACK
 *   Timeout, Retry Count and RNR Retry Count;
 * - **RC INIT** ({@link rcInitPlan}): P_Key index 0, port 1 and the remote access, when the QP
 *   is created (rdma_cm) or an Endpoint made (IT-API);
 * - **UD** ({@link udPlan}): INIT with the Q_Key, RTR, RTS with send PSN 0 (Linux
 *   `cma_init_ud_qp`; QP1 with the GSI Q_Key).
 *
 * Each CM message's Starting PSN is the PSN its sender will *receive* first (Linux `ib_cm`; rxe's
 * first Send carries the PSN of our REP): so our RQ PSN is the one we sent, our SQ PSN the peer's.
 *
 * {@link runQpPlan} is the one executor: it moves a QP through a plan with `ri_qp_modify`, in
 * RNICPI 1.0 masks (`RI_QP_ATTR_PRIMARY_PATH` carries the members of the primary path the
 * transition takes: INIT→RTR the address vector and path MTU, RTR→RTS the Local ACK Timeout and
 * the retry counts). IT-API, rdma_cm and QP1 (`ri-gsi.ts`) all call it.
 *
 * @module
 */
import type { ri_ops_t } from '../rnicpi/ops.js';
import { riGidOfBytes } from '../rnicpi/gid.js';
import { RiRet } from '../rnicpi/status.js';
import {
  RiQpAttrMask,
  RiQpState,
  type ri_ib_qp_attr_t,
  type ri_path_address_info_t,
  type ri_qp_attr_in_t,
  type ri_qp_handle_t,
  type ri_rnic_handle_t,
} from '../rnicpi/types.js';
import type { CmRep, CmReq } from '../wire/ib/cm.js';
import { gidIndexIn } from './gsi.js';

/** Hop limit of a RoCE path (Linux rdma_cm `cma_resolve_iboe_route`: 64 when routed). */
export const IBOE_HOP_LIMIT = 64;
/** Path MTU of a RoCE path: the port's active MTU, 1024 (`enum ibv_mtu` 3), as rxe on 1500-octet Ethernet. */
export const IBOE_PATH_MTU = 3;
/** Packet life time of a RoCE path (`CMA_IBOE_PACKET_LIFETIME`). */
export const IBOE_PACKET_LIFETIME = 18;
/** The RNR timer a connected QP advertises: 12 (0.64 ms), as ibv_rc_pingpong; Linux rdma_cm leaves 0 (655 ms). */
export const CM_MIN_RNR_TIMER = 12;
/** The physical port of a RoCE device (it has one). */
const PORT = 1;

/** The remote access an RC QP allows (IBTA Vol. 1 §11.2.4.2 "Access Control"). */
export interface QpAccess {
  readonly read: boolean;
  readonly write: boolean;
  readonly atomic: boolean;
}

/** The primary path a connected QP takes at RTR: the address vector (always with a GRH on RoCE) and the path MTU. */
export interface QpPlanPath {
  readonly dgid: Uint8Array;
  readonly sgidIndex: number;
  readonly hopLimit: number;
  readonly pathMtu: number;
}

/** A state a plan takes a QP to. */
export type QpPlanState = 'INIT' | 'RTR' | 'RTS';

/**
 * One step of a plan: the state and the attributes the transition gives the QP (named as the
 * IBTA Modify QP components, `ib_qp_attr`); an attribute left out is not modified.
 */
export interface QpPlanStep {
  readonly state: QpPlanState;
  /** INIT. */
  readonly pkeyIndex?: number;
  readonly port?: number;
  readonly qkey?: number;
  readonly access?: QpAccess;
  /** INIT→RTR. */
  readonly path?: QpPlanPath;
  readonly destQpn?: number;
  readonly rqPsn?: number;
  readonly maxDestRdAtomic?: number;
  readonly minRnrTimer?: number;
  /** RTR→RTS (the three go together). */
  readonly timeout?: number;
  readonly retryCnt?: number;
  readonly rnrRetry?: number;
  readonly sqPsn?: number;
  readonly maxRdAtomic?: number;
}

/** A list of steps, applied in order. */
export type QpPlan = readonly QpPlanStep[];

/** What the REP of the passive side carries that its QP takes (sent after the plan is applied). */
export interface RepQpValues {
  readonly startingPsn: number;
  readonly responderResources: number;
  readonly initiatorDepth: number;
}

/** The inputs of an RC plan besides the CM messages. */
export interface RcPlanLocal {
  /** The port's GID table: the local GID of the path is looked up in it (index 0 when absent). */
  readonly gids: readonly Uint8Array[];
  /** A Local ACK Timeout the consumer set (`rdma_set_option`), instead of the REQ's. */
  readonly timeout?: number | null | undefined;
}

/** The GID table index of a path's local GID (0, the port's first, when it is not in the table). */
function localGidIndex(gids: readonly Uint8Array[], gid: Uint8Array): number {
  return Math.max(0, gidIndexIn(gids, gid));
}

/** RESET→INIT of an RC QP: P_Key index 0, port 1 and the remote access it allows. */
export function rcInitPlan(access: QpAccess): QpPlan {
  return [{ state: 'INIT', pkeyIndex: 0, port: PORT, access: { read: access.read, write: access.write, atomic: access.atomic } }];
}

/** RESET→INIT→RTR→RTS of a UD QP with its Q_Key (Linux `cma_init_ud_qp`); QP1 with the GSI Q_Key on `port`. */
export function udPlan(qkey: number, port = PORT): QpPlan {
  return [{ state: 'INIT', pkeyIndex: 0, port, qkey: qkey >>> 0 }, { state: 'RTR' }, { state: 'RTS', sqPsn: 0 }];
}

/**
 * INIT→RTR→RTS of the active side once the REP of its REQ arrived (Linux `cm_init_qp_rtr_attr`
 * / `cm_init_qp_rts_attr` of a REP_RCVD connection). What the peer grants bounds ours: its REP's
 * initiator depth our responder resources, its responder resources our initiator depth (Linux
 * `cm_rep_handler`).
 */
export function rcActivePlan(req: CmReq, rep: CmRep, local: RcPlanLocal): QpPlan {
  return [
    {
      state: 'RTR',
      path: {
        dgid: req.primary.remoteGid,
        sgidIndex: localGidIndex(local.gids, req.primary.localGid),
        hopLimit: IBOE_HOP_LIMIT,
        pathMtu: req.pathMtu,
      },
      destQpn: rep.localQpn,
      rqPsn: req.startingPsn,
      maxDestRdAtomic: Math.min(req.responderResources, rep.initiatorDepth),
      minRnrTimer: CM_MIN_RNR_TIMER,
    },
    {
      state: 'RTS',
      timeout: local.timeout ?? req.primary.localAckTimeout,
      retryCnt: req.retryCount,
      rnrRetry: rep.rnrRetryCount,
      sqPsn: rep.startingPsn,
      maxRdAtomic: Math.min(req.initiatorDepth, rep.responderResources),
    },
  ];
}

/**
 * INIT→RTR→RTS of the passive side, before it sends `rep` (Linux `cm_init_qp_rtr_attr` /
 * `cm_init_qp_rts_attr` of a REQ_RCVD connection): the REQ's QPN, path, Starting PSN, Local ACK
 * Timeout and retry counts; the depths the REP grants.
 */
export function rcPassivePlan(req: CmReq, rep: RepQpValues, local: RcPlanLocal): QpPlan {
  return [
    {
      state: 'RTR',
      path: {
        dgid: req.primary.localGid,
        sgidIndex: localGidIndex(local.gids, req.primary.remoteGid),
        hopLimit: IBOE_HOP_LIMIT,
        pathMtu: req.pathMtu,
      },
      destQpn: req.localQpn,
      rqPsn: rep.startingPsn,
      maxDestRdAtomic: rep.responderResources,
      minRnrTimer: CM_MIN_RNR_TIMER,
    },
    {
      state: 'RTS',
      timeout: local.timeout ?? req.primary.localAckTimeout,
      retryCnt: req.retryCount,
      rnrRetry: req.rnrRetryCount,
      sqPsn: req.startingPsn,
      maxRdAtomic: rep.initiatorDepth,
    },
  ];
}

const RI_STATE: Readonly<Record<QpPlanState, RiQpState>> = {
  INIT: RiQpState.INITIALIZED,
  RTR: RiQpState.READY_TO_RECEIVE,
  RTS: RiQpState.READY_TO_SEND,
};

/** One step as an `ri_qp_modify` call: its mask and attributes (RNICPI 1.0 bits). */
export function riModifyOf(step: QpPlanStep): { mask: number; attrs: ri_qp_attr_in_t } {
  const M = RiQpAttrMask;
  let mask = M.NEXT_STATE;
  const ib: { -readonly [K in keyof ri_ib_qp_attr_t]?: ri_ib_qp_attr_t[K] } = {};
  const attrs: { -readonly [K in keyof ri_qp_attr_in_t]: ri_qp_attr_in_t[K] } = { state: RI_STATE[step.state] };
  const has = (v: unknown) => v !== undefined;
  if (has(step.pkeyIndex)) mask |= M.PRIMARY_PKEY;
  if (has(step.port)) mask |= M.PORT_NUM;
  if (has(step.qkey)) {
    mask |= M.QKEY;
    ib.recv_qkey = step.qkey;
  }
  if (step.access) {
    mask |= M.ENABLE_RDMA_READ | M.ENABLE_RDMA_WRITE | M.ENABLE_ATOMICS;
    attrs.enable_rdma_read = step.access.read;
    attrs.enable_rdma_write = step.access.write;
    ib.enable_atomic = step.access.atomic;
  }
  if (has(step.destQpn)) {
    mask |= M.DEST_QPID;
    ib.dest_qpn = step.destQpn;
  }
  if (has(step.rqPsn)) {
    mask |= M.RECV_PSN;
    ib.recv_psn = step.rqPsn;
  }
  if (has(step.minRnrTimer)) {
    mask |= M.MIN_RNR_TIMER;
    ib.min_rnrnak_timer = step.minRnrTimer;
  }
  if (has(step.maxDestRdAtomic)) {
    mask |= M.MAX_RDMA_READ_INCOMING;
    attrs.max_rdma_read_incoming = step.maxDestRdAtomic;
  }
  if (has(step.sqPsn)) {
    mask |= M.SEND_PSN;
    ib.send_psn = step.sqPsn;
  }
  if (has(step.maxRdAtomic)) {
    mask |= M.MAX_RDMA_READ_OUTGOING;
    attrs.max_rdma_read_outgoing = step.maxRdAtomic;
  }
  if (step.path || has(step.timeout)) mask |= M.PRIMARY_PATH;
  if (mask & (M.PRIMARY_PKEY | M.PORT_NUM | M.PRIMARY_PATH)) ib.primary_av = pathOf(step);
  if (Object.keys(ib).length > 0) attrs.qp_xport = { qp_ib: ib };
  return { mask, attrs };
}

/** The primary path record of a step (members the step does not set are 0: the transition does not take them). */
function pathOf(step: QpPlanStep): ri_path_address_info_t {
  const p = step.path;
  return {
    pkey_index: step.pkeyIndex ?? 0,
    physical_port: step.port ?? PORT,
    path_mtu: p?.pathMtu ?? 0,
    local_ack_timeout: step.timeout ?? 0,
    retry_count: step.retryCnt ?? 0,
    rnr_retry_count: step.rnrRetry ?? 0,
    av: {
      sl: 0,
      send_global_routing_hdr_flg: p ? 1 : 0,
      hop_limit: p?.hopLimit ?? 0,
      source_gid_index: p?.sgidIndex ?? 0,
      flow_label: 0,
      dgid: riGidOfBytes(p?.dgid ?? new Uint8Array(16)),
      dlid: 0,
      traffic_class: 0,
      max_static_rate: 0,
      source_path_bits: 0,
    },
  };
}

/**
 * Applies `plan` to `qp` with `ri_qp_modify`, step by step; `after` runs after each step (QP1
 * posts its receives in INIT). Returns SUCCESS, or the status of the first call that failed (the
 * QP stays in the state it reached).
 */
export function runQpPlan(
  ops: ri_ops_t,
  rnic: ri_rnic_handle_t,
  qp: ri_qp_handle_t,
  plan: QpPlan,
  after?: (step: QpPlanStep) => RiRet,
): RiRet {
  for (const step of plan) {
    const { mask, attrs } = riModifyOf(step);
    const r = ops.ri_qp_modify(rnic, qp, mask, attrs);
    if (r.status !== RiRet.SUCCESS) return r.status;
    const a = after?.(step) ?? RiRet.SUCCESS;
    if (a !== RiRet.SUCCESS) return a;
  }
  return RiRet.SUCCESS;
}

/**
 * The one map between the QP states of RNICPI, InfiniBand and ibverbs.
 *
 * - **RNICPI** (RNICPI 1.0 §6.7 `ri_qp_state_t`) has one enumeration for both technologies:
 *   Idle, RTS and Error for both; Closing and Terminate for iWARP only (RDMA Protocol Verbs
 *   §6.2); Initialized, Ready to Receive, Send Queue Draining, Send Queue Drained, Send Queue
 *   Error and Timewait for IB only.
 * - **InfiniBand** (IBTA Vol. 1 §10.3.1, Figure 124 "QP/EE State Diagram"): Reset, INIT, RTR,
 *   RTS, SQD, SQE and Error. SQD has two sub-states, draining and drained; the QP leaves
 *   draining by itself once every outstanding send has completed (§10.3.1.5).
 * - **ibverbs** (the manual §4.5.1, `enum ibv_qp_state`) numbers the IB states as Linux's
 *   `enum ib_qp_state` does, so an `ibv_qp_state` is an {@link IbQpState} of the same value
 *   (a conformance test holds the two enumerations together).
 *
 * SQD: a Modify QP into SQD requests {@link RiQpState.SEND_QUEUE_DRAINING}: the draining
 * sub-state is the one a Modify enters, and drained is reached only by the QP itself (IBTA
 * Vol. 1 §10.3.1.5; RNICPI 1.0 has no rule of its own). Both sub-states read as SQD; ibverbs
 * tells them apart with `ibv_qp_attr.sq_draining`.
 *
 * An iWARP QP seen through ibverbs (Linux siw's mapping, `siw_verbs.c`): RESET, INIT and RTR
 * are all Idle; RTS is reached only with an LLP stream from the connection manager, never by a
 * state alone; SQD is Closing, SQE is Terminate, ERR is Error.
 *
 * @module
 */
import { RiQpState } from './types.js';

/** InfiniBand QP states (IBTA Vol. 1 §10.3.1; values as `enum ibv_qp_state`). */
export enum IbQpState {
  RESET = 0,
  INIT = 1,
  RTR = 2,
  RTS = 3,
  SQD = 4,
  SQE = 5,
  ERR = 6,
}

/** The RNICPI state a Modify QP into each IB state requests on an IB QP. SQD is entered as Draining. */
export const RI_OF_IB: Readonly<Record<IbQpState, RiQpState>> = {
  [IbQpState.RESET]: RiQpState.IDLE,
  [IbQpState.INIT]: RiQpState.INITIALIZED,
  [IbQpState.RTR]: RiQpState.READY_TO_RECEIVE,
  [IbQpState.RTS]: RiQpState.READY_TO_SEND,
  [IbQpState.SQD]: RiQpState.SEND_QUEUE_DRAINING,
  [IbQpState.SQE]: RiQpState.SEND_QUEUE_ERROR,
  [IbQpState.ERR]: RiQpState.ERROR,
};

/**
 * The IB state of each RNICPI state of an IB QP: both SQD sub-states are SQD. The iWARP-only
 * states (Closing, Terminate) and Timewait have none.
 */
export const IB_OF_RI: Readonly<Partial<Record<RiQpState, IbQpState>>> = {
  [RiQpState.IDLE]: IbQpState.RESET,
  [RiQpState.INITIALIZED]: IbQpState.INIT,
  [RiQpState.READY_TO_RECEIVE]: IbQpState.RTR,
  [RiQpState.READY_TO_SEND]: IbQpState.RTS,
  [RiQpState.SEND_QUEUE_DRAINING]: IbQpState.SQD,
  [RiQpState.SEND_QUEUE_DRAINED]: IbQpState.SQD,
  [RiQpState.SEND_QUEUE_ERROR]: IbQpState.SQE,
  [RiQpState.ERROR]: IbQpState.ERR,
};

/** The IB state of an RNICPI state, or undefined for the iWARP-only ones (Closing, Terminate) and Timewait. */
export function ibStateOf(s: RiQpState): IbQpState | undefined {
  return IB_OF_RI[s];
}

/**
 * The RNICPI state an IB target state means on an iWARP QP (siw), or null when no Modify with
 * a state alone reaches it (RTS needs the LLP stream).
 */
export const IWARP_OF_IB: Readonly<Record<IbQpState, RiQpState | null>> = {
  [IbQpState.RESET]: RiQpState.IDLE,
  [IbQpState.INIT]: RiQpState.IDLE,
  [IbQpState.RTR]: RiQpState.IDLE,
  [IbQpState.RTS]: null,
  [IbQpState.SQD]: RiQpState.CLOSING,
  [IbQpState.SQE]: RiQpState.TERMINATE,
  [IbQpState.ERR]: RiQpState.ERROR,
};

/**
 * The IB state of each iWARP RNICPI state (siw). Idle reads as whichever of RESET, INIT or RTR
 * the consumer last set, which only the face knows; every state not listed reads as ERR.
 */
export const IB_OF_IWARP: Readonly<Partial<Record<RiQpState, IbQpState>>> = {
  [RiQpState.IDLE]: IbQpState.RESET,
  [RiQpState.READY_TO_SEND]: IbQpState.RTS,
  [RiQpState.CLOSING]: IbQpState.SQD,
  [RiQpState.TERMINATE]: IbQpState.SQE,
  [RiQpState.ERROR]: IbQpState.ERR,
};

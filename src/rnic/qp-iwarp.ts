/**
 * The iWARP Modify QP (RDMA Protocol Verbs §6.2, §9.2.2; RNICPI 1.0 §6.1.4): the transitions of
 * qp-states.ts `IWARP_TRANSITIONS`, the attributes each may change, the LLP (MPA) attributes of
 * the conversion to RDMA mode and the LLP handle that attaches the transport; and the QP's answer
 * to the LLP's events (FIN, close, reset: Verbs §6.2). The QP's states and queues are qp.ts's.
 */
import { RiRet } from '../rnicpi/status.js';
import { RiAsyncEventType, RiQpState } from '../rnicpi/types.js';
import { Fault } from './faults.js';
import type { Qp, QpModify } from './qp.js';
import { iwarpTransition } from './qp-states.js';
import { bindLlp, type QpTransport } from './transport.js';

/**
 * Modify QP of an iWARP QP (RDMA Protocol Verbs §9.2.2, RNICPI `ri_qp_modify`): validates the
 * whole request first and changes nothing unless every part is acceptable (all-or-nothing).
 * Idle→RTS attaches the transport that recognises the LLP handle (transport.ts `bindLlp`).
 */
export function modifyIwarp(qp: Qp, m: QpModify): RiRet {
  if (m.ib !== undefined) return RiRet.QP_INVALID_SERVICE_TYPE;
  const from = qp.state;
  const to = m.nextState ?? from;
  const rnic = qp.rnic;
  // The transition table (qp-states.ts): Closing and Terminate have no rows, so they refuse
  // every Modify; a modify naming no next state is checked as the from→from row.
  const rule = iwarpTransition(from, to, m.nextState !== undefined);
  if (!rule) return RiRet.QP_INVALID_STATE;
  const attrChange =
    m.sqSize !== undefined ||
    m.rqSize !== undefined ||
    m.ord !== undefined ||
    m.ird !== undefined ||
    m.rqHiwat !== undefined ||
    m.rqArmed !== undefined;
  // Attributes may change only where the row allows (Verbs §6.2 Figure 4/5).
  if (attrChange && !rule.attrs) return RiRet.QP_ATTRIBUTE_CANT_CHANGE;
  if ((m.llp !== undefined || m.streamMsg !== undefined) && !rule.llp) return RiRet.QP_ATTRIBUTE_CANT_CHANGE;
  // The LLP's (MPA) attributes belong to the conversion: once in RDMA mode they are LL_BAD_STATE
  // (RNICPI ri_qp_modify, Ch. 6.1.4); they may be set again after Error→Idle. Their values are
  // the transport's to check.
  if (m.llpAttrs !== undefined && from !== RiQpState.IDLE) return RiRet.LL_BAD_STATE;
  if (from === RiQpState.ERROR && to === RiQpState.IDLE && qp.flushing) return RiRet.STILL_FLUSHING_WQES;
  const resize = qp.checkResize(m, false);
  if (resize !== RiRet.SUCCESS) return resize;
  if ((m.rqHiwat !== undefined || m.rqArmed !== undefined) && !qp.srq) return RiRet.QP_ATTRIBUTE_CANT_CHANGE;
  if (m.rqHiwat !== undefined && qp.srq && m.rqHiwat > qp.srq.capacity) return RiRet.SRQ_LIMIT_OUT_OF_RANGE;
  if (m.ord !== undefined && m.ord > rnic.limits.maxOrdPerQp) return RiRet.RNIC_IRD_ORD_EXCEEDED;
  if (m.ird !== undefined && m.ird > rnic.limits.maxIrdPerQp) return RiRet.RNIC_IRD_ORD_EXCEEDED;
  let transport: QpTransport | null = null;
  if (rule.llp) {
    if (m.llp === undefined || m.llp === null) return RiRet.INVALID_LL_HANDLE;
    // Each transport recognises its own handles (transport.ts); none: not an LLP handle.
    const made = bindLlp(qp, m.llp, { ...qp.llpAttrs, ...m.llpAttrs }) ?? RiRet.INVALID_LL_HANDLE;
    if (typeof made === 'number') return made;
    transport = made;
  }
  // ---- every check passed: apply ----
  if (m.sqSize !== undefined) qp.sqSize = m.sqSize;
  if (m.rqSize !== undefined) qp.rqSize = m.rqSize;
  if (m.ord !== undefined) qp.ord = m.ord;
  if (m.ird !== undefined) qp.ird = m.ird;
  if (m.rqHiwat !== undefined) {
    qp.rqHiwat = m.rqHiwat;
    qp.rqArmed = true;
  }
  if (m.rqArmed !== undefined) qp.rqArmed = m.rqArmed;
  if (m.llpAttrs) qp.llpAttrs = { ...qp.llpAttrs, ...m.llpAttrs };
  if (from === to) return RiRet.SUCCESS;
  switch (to) {
    case RiQpState.READY_TO_SEND:
      qp.toRts(transport!, m.llp, m.streamMsg ?? null);
      break;
    case RiQpState.ERROR:
      // RTS→Error is the abortive teardown: LLP reset, no Terminate (Verbs §6.2 T12).
      qp.toError('modify', null);
      break;
    case RiQpState.CLOSING:
      qp.startGracefulClose();
      break;
    case RiQpState.TERMINATE:
      // ULP-initiated termination: Terminate with RDMAP Local Catastrophic (Verbs §6.2 T8).
      qp.terminateWith(Fault.LOCAL_CATASTROPHIC, null);
      break;
    case RiQpState.IDLE:
      qp.setState(RiQpState.IDLE, 'modify');
      qp.terminate = null;
      qp.llpHandle = null;
      break;
  }
  return RiRet.SUCCESS;
}

/** The peer sent a FIN (Verbs §6.2 T7 / T10). */
export function llpFin(qp: Qp): void {
  if (qp.state === RiQpState.READY_TO_SEND) {
    if (qp.sqOutstanding > 0 || qp.remoteReadInProgress) {
      // Bad LLP Close: Terminate with "catastrophic error local to the RDMAP stream"
      // (0x0207), AE "Bad LLP Close" (Verbs §7.3).
      qp.rnic.asyncEvent(RiAsyncEventType.QP_BAD_LLQ_CLOSE, qp);
      qp.terminateWith(Fault.STREAM_CATASTROPHIC, null);
      return;
    }
    qp.setState(RiQpState.CLOSING, 'peer FIN');
    qp.flushRq();
    qp.armCloseTimer();
    qp.transport?.closeGraceful();
    return;
  }
  // In Terminate the FIN is part of the close we asked for: the close path finishes it.
}

/** The LLP finished closing (both FINs, socket closed) without error. */
export function llpClosed(qp: Qp): void {
  qp.clearCloseTimer();
  qp.takeTransport()?.detach();
  if (qp.state === RiQpState.CLOSING) {
    qp.setState(RiQpState.IDLE, 'LLP close complete');
    qp.llpHandle = null;
    qp.rnic.asyncEvent(RiAsyncEventType.QP_LLQ_CLOSE_COMPLETE, qp);
  } else if (qp.state === RiQpState.TERMINATE) {
    qp.toError('LLP closed after Terminate', null);
  } else if (qp.state === RiQpState.READY_TO_SEND) {
    qp.onLlpReset(false);
  }
}

/** The LLP was reset or lost (Verbs §6.2 T13/T15/T16). */
export function llpReset(qp: Qp, lost: boolean): void {
  qp.clearCloseTimer();
  qp.takeTransport()?.detach();
  const from = qp.state;
  if (from === RiQpState.READY_TO_SEND) {
    qp.toError(lost ? 'LLP lost' : 'LLP reset', null);
    qp.rnic.asyncEvent(lost ? RiAsyncEventType.QP_LLQ_CONNECTION_LOST : RiAsyncEventType.QP_LLQ_CONNECTION_RESET, qp);
  } else if (from === RiQpState.CLOSING) {
    qp.toError('LLP failure while closing', null);
    qp.rnic.asyncEvent(RiAsyncEventType.QP_LLQ_CONNECTION_LOST, qp);
  } else if (from === RiQpState.TERMINATE) {
    qp.toError('LLP reset after Terminate', null);
  }
}

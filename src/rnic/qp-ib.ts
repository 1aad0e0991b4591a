/**
 * The InfiniBand side of a QP's attributes (IBTA Vol. 1 §10.3, §11.2.4.2): the IB attributes of
 * a QP in Reset, the address vector rule, and the IB Modify QP (all or nothing). The QP's
 * states and queues are qp.ts's; this file only decides and applies one Modify.
 */
import { RiRet } from '../rnicpi/status.js';
import { RiQpState } from '../rnicpi/types.js';
import { GSI_QKEY } from '../wire/ib/mad.js';
import type { Qp, QpModify } from './qp.js';
import { type IbService, IbQpAttr, IbQpState, ibModifyOk, ibStateOf, ibTransition, RI_OF_IB } from './qp-states.js';
import type { Rnic } from './rnic.js';
import { bindIb, type IbAv, type IbQpAttrs, newIbAv, type QpTransport } from './transport.js';
import { PSN_MASK, QPN_MASK } from '../wire/ib/constants.js';

/** An address vector as a Modify gives it: the source GID is named by its index. */
export type IbAvIn = Omit<IbAv, 'sgid'>;

/**
 * The IB attributes of one Modify. Each field present is one component of the IBTA Modify QP
 * attribute mask (IBTA Vol. 1 §11.2.4.2): the mask is what is present.
 */
export interface IbModify {
  pathMtu?: number;
  destQpn?: number;
  rqPsn?: number;
  sqPsn?: number;
  timeout?: number;
  retryCnt?: number;
  rnrRetry?: number;
  minRnrTimer?: number;
  qkey?: number;
  pkeyIndex?: number;
  port?: number;
  av?: IbAvIn;
  sqdNotify?: boolean;
  /** The access flags (remote Read, Write, Atomic enables). */
  access?: { read: boolean; write: boolean; atomic: boolean };
  /** The state the Consumer believes the QP is in (IBV_QP_CUR_STATE). */
  curState?: RiQpState;
  /** Alternate path / path migration: not supported (no APM), refused when present. */
  altPath?: boolean;
}

/** The default IB attributes of a QP in Reset. */
export function newIbAttrs(service: IbService): IbQpAttrs {
  return {
    service,
    pathMtu: 0,
    destQpn: 0,
    rqPsn: 0,
    sqPsn: 0,
    timeout: 0,
    retryCnt: 0,
    rnrRetry: 0,
    minRnrTimer: 0,
    qkey: 0,
    pkeyIndex: 0,
    port: 1,
    av: newIbAv(),
    sqdNotify: false,
  };
}

const u = (v: unknown, max: number): boolean => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= max;

/**
 * Validates an address vector against the RNIC (IBTA Vol. 1 §11.2.2.1; the one port, the GID
 * table) and returns a private copy with the source GID resolved: the one rule for a QP's AV
 * (Modify QP) and an address handle's (Create AH).
 */
export function resolveAv(rnic: Rnic, av: IbAvIn): IbAv | RiRet {
  if (!av || typeof av !== 'object') return RiRet.INVALID_PARAMETER;
  if (!(av.dgid instanceof Uint8Array) || av.dgid.length !== 16) return RiRet.INVALID_PARAMETER;
  if (!u(av.hopLimit, 0xff) || !u(av.trafficClass, 0xff) || !u(av.flowLabel, 0xf_ffff) || !u(av.sl, 15)) return RiRet.INVALID_PARAMETER;
  if (av.port !== 1) return RiRet.RNIC_INVALID_PORT;
  const gids = rnic.gidTable();
  if (!u(av.sgidIndex, gids.length - 1)) return RiRet.INVALID_PARAMETER;
  // An empty slot of the table (an address that went away) is no source GID.
  if (gids[av.sgidIndex]!.every((b) => b === 0)) return RiRet.INVALID_PARAMETER;
  return {
    dgid: Uint8Array.from(av.dgid),
    sgidIndex: av.sgidIndex,
    sgid: Uint8Array.from(gids[av.sgidIndex]!),
    hopLimit: av.hopLimit,
    trafficClass: av.trafficClass,
    flowLabel: av.flowLabel,
    sl: av.sl,
    port: av.port,
  };
}

/**
 * Modify QP of an InfiniBand QP (IBTA Vol. 1 §10.3.1, §11.2.4.2; the manual §4.5.1
 * `ibv_modify_qp`): the transition must exist for the service type, every required attribute
 * must be present and nothing beyond required ∪ optional (qp-states.ts `ibModifyOk`), every
 * value in range; then everything is applied at once, or nothing. INIT→RTR attaches the
 * transport from the binder of the RNIC's IB link (transport.ts `bindIb`).
 */
export function modifyIb(qp: Qp, m: QpModify): RiRet {
  const from = ibStateOf(qp.state)!;
  let to = from;
  if (m.nextState !== undefined) {
    const t = ibStateOf(m.nextState);
    if (t === undefined) return RiRet.QP_INVALID_STATE;
    to = t;
  }
  if (m.llp !== undefined || m.streamMsg !== undefined || m.llpAttrs !== undefined || m.rqHiwat !== undefined || m.rqArmed !== undefined) {
    return RiRet.QP_ATTRIBUTE_CANT_CHANGE;
  }
  const ib = m.ib ?? {};
  if (ib.altPath) return RiRet.OP_UNSUPPORTED;
  // The IBTA attribute mask is what the request carries.
  const A = IbQpAttr;
  let mask = 0;
  if (ib.curState !== undefined) mask |= A.CUR_STATE;
  if (ib.sqdNotify !== undefined) mask |= A.EN_SQD_ASYNC_NOTIFY;
  if (ib.access !== undefined) mask |= A.ACCESS_FLAGS;
  if (ib.pkeyIndex !== undefined) mask |= A.PKEY_INDEX;
  if (ib.port !== undefined) mask |= A.PORT;
  if (ib.qkey !== undefined) mask |= A.QKEY;
  if (ib.av !== undefined) mask |= A.AV;
  if (ib.pathMtu !== undefined) mask |= A.PATH_MTU;
  if (ib.timeout !== undefined) mask |= A.TIMEOUT;
  if (ib.retryCnt !== undefined) mask |= A.RETRY_CNT;
  if (ib.rnrRetry !== undefined) mask |= A.RNR_RETRY;
  if (ib.rqPsn !== undefined) mask |= A.RQ_PSN;
  if (m.ord !== undefined) mask |= A.MAX_QP_RD_ATOMIC;
  if (ib.minRnrTimer !== undefined) mask |= A.MIN_RNR_TIMER;
  if (ib.sqPsn !== undefined) mask |= A.SQ_PSN;
  if (m.ird !== undefined) mask |= A.MAX_DEST_RD_ATOMIC;
  if (m.sqSize !== undefined || m.rqSize !== undefined) mask |= A.CAP;
  if (ib.destQpn !== undefined) mask |= A.DEST_QPN;
  if (m.nextState === undefined && mask === 0) return RiRet.SUCCESS;
  // Queue resizing (IBV_QP_CAP) is accepted wherever attributes may change, except to Reset/Error.
  if (!ibModifyOk(from, to, qp.service, mask, A.CAP)) {
    // A transition that exists with a wrong mask is a bad parameter; one that does not exist, a bad state.
    return ibTransition(from, to, qp.service) ? RiRet.INVALID_PARAMETER : RiRet.QP_INVALID_STATE;
  }
  // SQD takes attributes only once drained (IBTA Vol. 1 §10.3.1.5).
  if (from === IbQpState.SQD && to === IbQpState.SQD && qp.state !== RiQpState.SEND_QUEUE_DRAINED) return RiRet.QP_INVALID_STATE;
  if (ib.curState !== undefined && ibStateOf(ib.curState) !== from) return RiRet.INVALID_PARAMETER;
  if (from === IbQpState.ERR && to === IbQpState.RESET && qp.flushing) return RiRet.STILL_FLUSHING_WQES;
  const rnic = qp.rnic;
  // Values (IBTA Vol. 1 §11.2.4.2; ranges as Linux `ib_modify_qp` checks them).
  if (ib.pathMtu !== undefined && (!u(ib.pathMtu, 5) || ib.pathMtu < 1)) return RiRet.RNIC_INVALID_MTU;
  if (ib.destQpn !== undefined && !u(ib.destQpn, QPN_MASK)) return RiRet.INVALID_PARAMETER;
  if (ib.rqPsn !== undefined && !u(ib.rqPsn, PSN_MASK)) return RiRet.INVALID_PARAMETER;
  if (ib.sqPsn !== undefined && !u(ib.sqPsn, PSN_MASK)) return RiRet.INVALID_PARAMETER;
  if (ib.timeout !== undefined && !u(ib.timeout, 31)) return RiRet.INVALID_PARAMETER;
  if (ib.retryCnt !== undefined && !u(ib.retryCnt, 7)) return RiRet.INVALID_PARAMETER;
  if (ib.rnrRetry !== undefined && !u(ib.rnrRetry, 7)) return RiRet.INVALID_PARAMETER;
  if (ib.minRnrTimer !== undefined && !u(ib.minRnrTimer, 31)) return RiRet.RNIC_INVALID_RNR_VALUE;
  if (ib.qkey !== undefined && !u(ib.qkey, 0xffff_ffff)) return RiRet.INVALID_PARAMETER;
  // QP1 answers the GSI Q_Key only (IBTA Vol. 1 §13.5.1: "QP1 … Q_Key 0x80010000").
  if (ib.qkey !== undefined && qp.special === 'GSI' && ib.qkey !== GSI_QKEY) return RiRet.INVALID_PARAMETER;
  // One port with a one-entry P_Key table.
  if (ib.pkeyIndex !== undefined && ib.pkeyIndex !== 0) return RiRet.RNIC_INVALID_PKEY_INDEX;
  if (ib.port !== undefined && ib.port !== 1) return RiRet.RNIC_INVALID_PORT;
  // The remote-atomic enable is accepted on any RNIC (as Linux rxe and the iWARP face do): without
  // atomics in the work-request table no atomic can reach the QP (the device reports none).
  let av: IbAv | null = null;
  if (ib.av !== undefined) {
    const r = resolveAv(rnic, ib.av);
    if (typeof r === 'number') return r;
    av = r;
  }
  if (m.ord !== undefined && (!u(m.ord, 0xff) || m.ord > rnic.limits.maxOrdPerQp)) return RiRet.RNIC_IRD_ORD_EXCEEDED;
  if (m.ird !== undefined && (!u(m.ird, 0xff) || m.ird > rnic.limits.maxIrdPerQp)) return RiRet.RNIC_IRD_ORD_EXCEEDED;
  const resize = qp.checkResize(m, true);
  if (resize !== RiRet.SUCCESS) return resize;
  // The candidate attributes, then the transport (the last thing that may fail).
  const next: IbQpAttrs = {
    ...qp.ib,
    ...(ib.pathMtu !== undefined && { pathMtu: ib.pathMtu }),
    ...(ib.destQpn !== undefined && { destQpn: ib.destQpn }),
    ...(ib.rqPsn !== undefined && { rqPsn: ib.rqPsn }),
    ...(ib.sqPsn !== undefined && { sqPsn: ib.sqPsn }),
    ...(ib.timeout !== undefined && { timeout: ib.timeout }),
    ...(ib.retryCnt !== undefined && { retryCnt: ib.retryCnt }),
    ...(ib.rnrRetry !== undefined && { rnrRetry: ib.rnrRetry }),
    ...(ib.minRnrTimer !== undefined && { minRnrTimer: ib.minRnrTimer }),
    ...(ib.qkey !== undefined && { qkey: ib.qkey }),
    ...(ib.pkeyIndex !== undefined && { pkeyIndex: ib.pkeyIndex }),
    ...(ib.port !== undefined && { port: ib.port }),
    ...(ib.sqdNotify !== undefined && { sqdNotify: ib.sqdNotify }),
  };
  if (av) next.av = av;
  let transport: QpTransport | null = null;
  if (from === IbQpState.INIT && to === IbQpState.RTR) {
    const made = bindIb(rnic.config.ibLink ?? '', qp, next) ?? RiRet.XPORT_UNSUPPORTED;
    if (typeof made === 'number') return made;
    transport = made;
  }
  // ---- every check passed: apply ----
  qp.ib = next;
  if (ib.access !== undefined) {
    qp.enableRdmaRead = ib.access.read;
    qp.enableRdmaWrite = ib.access.write;
    qp.enableAtomic = ib.access.atomic;
  }
  if (m.ord !== undefined) qp.ord = m.ord;
  if (m.ird !== undefined) qp.ird = m.ird;
  if (m.sqSize !== undefined) qp.sqSize = m.sqSize;
  if (m.rqSize !== undefined) qp.rqSize = m.rqSize;
  const riFrom = qp.state;
  if (to !== from) {
    switch (to) {
      case IbQpState.RESET:
        // Reset empties the queues; softrdma completes what was posted with a flush status
        // rather than dropping it (nothing posted is lost; see spec-notes).
        qp.takeTransport()?.reset();
        if (qp.state !== RiQpState.ERROR) qp.flushAll();
        qp.setState(RiQpState.IDLE, 'modify');
        qp.ib = newIbAttrs(qp.service);
        qp.enableRdmaRead = false;
        qp.enableRdmaWrite = false;
        qp.enableAtomic = false;
        qp.terminate = null;
        break;
      case IbQpState.ERR:
        qp.toError('modify', null);
        break;
      case IbQpState.RTR:
        qp.commEstablished = false;
        qp.transport = transport;
        qp.responder.reset();
        qp.setState(RiQpState.READY_TO_RECEIVE, 'modify');
        transport!.start(null);
        break;
      case IbQpState.SQD:
        qp.setState(RiQpState.SEND_QUEUE_DRAINING, 'modify');
        qp.checkDrained();
        break;
      default:
        qp.setState(RI_OF_IB[to], 'modify');
        // RTR→RTS, SQD→RTS, SQE→RTS: the send side (re)starts.
        if (to === IbQpState.RTS) qp.kick();
    }
  }
  // A transport bound by this Modify got the attributes from its binder.
  if (mask !== 0 && !transport && to !== IbQpState.RESET && to !== IbQpState.ERR) qp.transport?.ibModified?.(qp.ib, mask, riFrom, qp.state);
  return RiRet.SUCCESS;
}

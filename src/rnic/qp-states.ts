/**
 * QP state tables: which transitions a Modify QP may ask for and which attributes each may
 * carry. Two state sets, one per transport family:
 *
 * - **iWARP** (RDMA Protocol Verbs §6.2, Figures 4–5; RNICPI 1.0 §6.1.4 `ri_qp_modify`):
 *   Idle, RTS, Closing, Terminate, Error. The LLP (the connection) and error detection make
 *   the other transitions; only the rows below are the Consumer's.
 * - **InfiniBand** (IBTA Vol. 1 §10.3.1, §11.2.4.2 Table 91 "QP State Transition
 *   Properties"; the manual §4.5.1; as Linux's `ib_modify_qp_is_ok` encodes it): Reset, Init,
 *   RTR, RTS, SQD, SQE, Error, with required and optional attributes per service type.
 *
 * Adding a transition means adding a row. {@link Qp.modify} reads the iWARP table for the QPs
 * of an iWARP RNIC and the IB table for those of an InfiniBand (RoCEv2) RNIC; `ibv_modify_qp`
 * reaches both through `ri_qp_modify`.
 */
import { RiQpState } from '../rnicpi/types.js';
import { IbQpState } from '../rnicpi/qp-state-map.js';

/** One iWARP transition the Consumer may request. */
export interface IwarpTransition {
  /** Attributes (queue sizes, IRD/ORD, S-RQ limit) may change with it (Verbs §6.2 Figure 4/5). */
  readonly attrs: boolean;
  /** It takes the LLP stream handle and the last streaming-mode message (Idle→RTS only). */
  readonly llp: boolean;
  /** It is only the implicit "no next state" of an attribute modify, never named. */
  readonly implicitOnly?: boolean;
}

const T = (attrs: boolean, llp = false, implicitOnly = false): IwarpTransition => ({ attrs, llp, implicitOnly });

/**
 * The iWARP table: `IWARP_TRANSITIONS[from][to]`. A missing entry is `QP_INVALID_STATE`.
 * Closing and Terminate have no rows: they refuse every Modify, attribute-only ones included
 * (Verbs §6.2). Out of Error only Idle (Verbs §6.2.4).
 */
export const IWARP_TRANSITIONS: Readonly<Record<number, Readonly<Record<number, IwarpTransition>>>> = {
  [RiQpState.IDLE]: {
    [RiQpState.IDLE]: T(true),
    [RiQpState.READY_TO_SEND]: T(true, true),
    [RiQpState.ERROR]: T(false),
  },
  [RiQpState.READY_TO_SEND]: {
    [RiQpState.READY_TO_SEND]: T(true),
    [RiQpState.CLOSING]: T(false),
    [RiQpState.TERMINATE]: T(false),
    [RiQpState.ERROR]: T(false),
  },
  [RiQpState.ERROR]: {
    [RiQpState.IDLE]: T(false),
    [RiQpState.ERROR]: T(false, false, true),
  },
};

/** The row for `from → to`, or undefined if the transition is not the Consumer's to ask. */
export function iwarpTransition(from: RiQpState, to: RiQpState, named: boolean): IwarpTransition | undefined {
  const t = IWARP_TRANSITIONS[from]?.[to];
  if (!t || (t.implicitOnly && named)) return undefined;
  return t;
}

// ---------------------------------------------------------------------------- InfiniBand

// The IB states and their map to RNICPI's: `src/rnicpi/qp-state-map.ts`.
export { IbQpState, ibStateOf, RI_OF_IB } from '../rnicpi/qp-state-map.js';

/** IB QP service types the table knows. */
export type IbService = 'RC' | 'UC' | 'UD';

/** Modify QP attribute bits (IBTA Vol. 1 §11.2.4.2; values as `enum ibv_qp_attr_mask`). */
export enum IbQpAttr {
  STATE = 1 << 0,
  CUR_STATE = 1 << 1,
  EN_SQD_ASYNC_NOTIFY = 1 << 2,
  ACCESS_FLAGS = 1 << 3,
  PKEY_INDEX = 1 << 4,
  PORT = 1 << 5,
  QKEY = 1 << 6,
  AV = 1 << 7,
  PATH_MTU = 1 << 8,
  TIMEOUT = 1 << 9,
  RETRY_CNT = 1 << 10,
  RNR_RETRY = 1 << 11,
  RQ_PSN = 1 << 12,
  MAX_QP_RD_ATOMIC = 1 << 13,
  ALT_PATH = 1 << 14,
  MIN_RNR_TIMER = 1 << 15,
  SQ_PSN = 1 << 16,
  MAX_DEST_RD_ATOMIC = 1 << 17,
  PATH_MIG_STATE = 1 << 18,
  CAP = 1 << 19,
  DEST_QPN = 1 << 20,
}

/** Required and optional attributes of one IB transition, per service type. */
export interface IbTransition {
  readonly req: Readonly<Record<IbService, number>>;
  readonly opt: Readonly<Record<IbService, number>>;
}

const A = IbQpAttr;
const none = { RC: 0, UC: 0, UD: 0 } as const;
const per = (rc: number, uc: number, ud: number): Record<IbService, number> => ({ RC: rc, UC: uc, UD: ud });
const ib = (req: Record<IbService, number>, opt: Record<IbService, number>): IbTransition => ({ req, opt });

/**
 * The IB table: `IB_TRANSITIONS[from][to]`. Any state → Reset and any state → Error take no
 * attribute and are not listed (see {@link ibTransition}). SQE exists for UC/UD only.
 */
export const IB_TRANSITIONS: Readonly<Record<number, Readonly<Record<number, IbTransition>>>> = {
  [IbQpState.RESET]: {
    [IbQpState.INIT]: ib(
      per(A.PKEY_INDEX | A.PORT | A.ACCESS_FLAGS, A.PKEY_INDEX | A.PORT | A.ACCESS_FLAGS, A.PKEY_INDEX | A.PORT | A.QKEY),
      none,
    ),
  },
  [IbQpState.INIT]: {
    [IbQpState.INIT]: ib(
      none,
      per(A.PKEY_INDEX | A.PORT | A.ACCESS_FLAGS, A.PKEY_INDEX | A.PORT | A.ACCESS_FLAGS, A.PKEY_INDEX | A.PORT | A.QKEY),
    ),
    [IbQpState.RTR]: ib(
      per(A.AV | A.PATH_MTU | A.DEST_QPN | A.RQ_PSN | A.MAX_DEST_RD_ATOMIC | A.MIN_RNR_TIMER, A.AV | A.PATH_MTU | A.DEST_QPN | A.RQ_PSN, 0),
      per(A.ALT_PATH | A.ACCESS_FLAGS | A.PKEY_INDEX, A.ALT_PATH | A.ACCESS_FLAGS | A.PKEY_INDEX, A.PKEY_INDEX | A.QKEY),
    ),
  },
  [IbQpState.RTR]: {
    [IbQpState.RTS]: ib(
      per(A.TIMEOUT | A.RETRY_CNT | A.RNR_RETRY | A.SQ_PSN | A.MAX_QP_RD_ATOMIC, A.SQ_PSN, A.SQ_PSN),
      per(
        A.CUR_STATE | A.ALT_PATH | A.ACCESS_FLAGS | A.MIN_RNR_TIMER | A.PATH_MIG_STATE,
        A.CUR_STATE | A.ALT_PATH | A.ACCESS_FLAGS | A.PATH_MIG_STATE,
        A.CUR_STATE | A.QKEY,
      ),
    ),
  },
  [IbQpState.RTS]: {
    [IbQpState.RTS]: ib(
      none,
      per(
        A.CUR_STATE | A.ACCESS_FLAGS | A.ALT_PATH | A.PATH_MIG_STATE | A.MIN_RNR_TIMER,
        A.CUR_STATE | A.ACCESS_FLAGS | A.ALT_PATH | A.PATH_MIG_STATE,
        A.CUR_STATE | A.QKEY,
      ),
    ),
    [IbQpState.SQD]: ib(none, per(A.EN_SQD_ASYNC_NOTIFY, A.EN_SQD_ASYNC_NOTIFY, A.EN_SQD_ASYNC_NOTIFY)),
  },
  [IbQpState.SQD]: {
    [IbQpState.RTS]: ib(
      none,
      per(
        A.CUR_STATE | A.ALT_PATH | A.ACCESS_FLAGS | A.MIN_RNR_TIMER | A.PATH_MIG_STATE,
        A.CUR_STATE | A.ALT_PATH | A.ACCESS_FLAGS | A.PATH_MIG_STATE,
        A.CUR_STATE | A.QKEY,
      ),
    ),
    [IbQpState.SQD]: ib(
      none,
      per(
        A.AV |
          A.TIMEOUT |
          A.RETRY_CNT |
          A.RNR_RETRY |
          A.MAX_QP_RD_ATOMIC |
          A.MAX_DEST_RD_ATOMIC |
          A.ALT_PATH |
          A.ACCESS_FLAGS |
          A.PKEY_INDEX |
          A.MIN_RNR_TIMER |
          A.PATH_MIG_STATE,
        A.AV | A.ALT_PATH | A.ACCESS_FLAGS | A.PKEY_INDEX | A.PATH_MIG_STATE,
        A.PKEY_INDEX | A.QKEY,
      ),
    ),
  },
  [IbQpState.SQE]: {
    [IbQpState.RTS]: ib(none, per(0, A.CUR_STATE | A.ACCESS_FLAGS, A.CUR_STATE | A.QKEY)),
  },
};

/**
 * The rule for `from → to` on a `service` QP, or undefined if the transition does not exist.
 * Any state → Reset / Error needs no attribute (IBTA Vol. 1 §10.3.1).
 */
export function ibTransition(from: IbQpState, to: IbQpState, service: IbService): { req: number; opt: number } | undefined {
  if (to === IbQpState.RESET || to === IbQpState.ERR) return { req: 0, opt: 0 };
  const t = IB_TRANSITIONS[from]?.[to];
  if (!t) return undefined;
  // SQE is an unreliable-service state: an RC QP never enters it (IBTA Vol. 1 §10.3.1.7).
  if (from === IbQpState.SQE && service === 'RC') return undefined;
  return { req: t.req[service], opt: t.opt[service] };
}

/**
 * Checks a Modify QP mask against the IB table, as `ib_modify_qp_is_ok` does: every required
 * attribute present, nothing beyond required ∪ optional. `extraOpt` adds attributes a device
 * accepts on top (for example CAP where queues can be resized).
 */
export function ibModifyOk(from: IbQpState, to: IbQpState, service: IbService, mask: number, extraOpt = 0): boolean {
  const rule = ibTransition(from, to, service);
  if (!rule) return false;
  const attrs = mask & ~IbQpAttr.STATE;
  if (to === IbQpState.RESET || to === IbQpState.ERR) return attrs === 0;
  return (attrs & rule.req) === rule.req && (attrs & ~(rule.req | rule.opt | extraOpt)) === 0;
}
/** The name of each RNICPI QP state, for logs and `softrdma stat`. */
export const QP_STATE_NAMES: Record<number, string> = {
  [RiQpState.IDLE]: 'IDLE',
  [RiQpState.READY_TO_SEND]: 'RTS',
  [RiQpState.ERROR]: 'ERROR',
  [RiQpState.TERMINATE]: 'TERMINATE',
  [RiQpState.CLOSING]: 'CLOSING',
  [RiQpState.INITIALIZED]: 'INIT',
  [RiQpState.READY_TO_RECEIVE]: 'RTR',
  [RiQpState.SEND_QUEUE_DRAINING]: 'SQD(draining)',
  [RiQpState.SEND_QUEUE_DRAINED]: 'SQD',
  [RiQpState.SEND_QUEUE_ERROR]: 'SQE',
};

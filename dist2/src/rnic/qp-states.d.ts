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
/** One iWARP transition the Consumer may request. */
export interface IwarpTransition {
    /** Attributes (queue sizes, IRD/ORD, S-RQ limit) may change with it (Verbs §6.2 Figure 4/5). */
    readonly attrs: boolean;
    /** It takes the LLP stream handle and the last streaming-mode message (Idle→RTS only). */
    readonly llp: boolean;
    /** It is only the implicit "no next state" of an attribute modify, never named. */
    readonly implicitOnly?: boolean;
}
/**
 * The iWARP table: `IWARP_TRANSITIONS[from][to]`. A missing entry is `QP_INVALID_STATE`.
 * Closing and Terminate have no rows: they refuse every Modify, attribute-only ones included
 * (Verbs §6.2). Out of Error only Idle (Verbs §6.2.4).
 */
export declare const IWARP_TRANSITIONS: Readonly<Record<number, Readonly<Record<number, IwarpTransition>>>>;
/** The row for `from → to`, or undefined if the transition is not the Consumer's to ask. */
export declare function iwarpTransition(from: RiQpState, to: RiQpState, named: boolean): IwarpTransition | undefined;
/** InfiniBand QP states (IBTA Vol. 1 §10.3.1; values as `enum ibv_qp_state`). */
export declare enum IbQpState {
    RESET = 0,
    INIT = 1,
    RTR = 2,
    RTS = 3,
    SQD = 4,
    SQE = 5,
    ERR = 6
}
/** IB QP service types the table knows. */
export type IbService = 'RC' | 'UC' | 'UD';
/** Modify QP attribute bits (IBTA Vol. 1 §11.2.4.2; values as `enum ibv_qp_attr_mask`). */
export declare enum IbQpAttr {
    STATE = 1,
    CUR_STATE = 2,
    EN_SQD_ASYNC_NOTIFY = 4,
    ACCESS_FLAGS = 8,
    PKEY_INDEX = 16,
    PORT = 32,
    QKEY = 64,
    AV = 128,
    PATH_MTU = 256,
    TIMEOUT = 512,
    RETRY_CNT = 1024,
    RNR_RETRY = 2048,
    RQ_PSN = 4096,
    MAX_QP_RD_ATOMIC = 8192,
    ALT_PATH = 16384,
    MIN_RNR_TIMER = 32768,
    SQ_PSN = 65536,
    MAX_DEST_RD_ATOMIC = 131072,
    PATH_MIG_STATE = 262144,
    CAP = 524288,
    DEST_QPN = 1048576
}
/** Required and optional attributes of one IB transition, per service type. */
export interface IbTransition {
    readonly req: Readonly<Record<IbService, number>>;
    readonly opt: Readonly<Record<IbService, number>>;
}
/**
 * The IB table: `IB_TRANSITIONS[from][to]`. Any state → Reset and any state → Error take no
 * attribute and are not listed (see {@link ibTransition}). SQE exists for UC/UD only.
 */
export declare const IB_TRANSITIONS: Readonly<Record<number, Readonly<Record<number, IbTransition>>>>;
/**
 * The rule for `from → to` on a `service` QP, or undefined if the transition does not exist.
 * Any state → Reset / Error needs no attribute (IBTA Vol. 1 §10.3.1).
 */
export declare function ibTransition(from: IbQpState, to: IbQpState, service: IbService): {
    req: number;
    opt: number;
} | undefined;
/**
 * Checks a Modify QP mask against the IB table, as `ib_modify_qp_is_ok` does: every required
 * attribute present, nothing beyond required ∪ optional. `extraOpt` adds attributes a device
 * accepts on top (for example CAP where queues can be resized).
 */
export declare function ibModifyOk(from: IbQpState, to: IbQpState, service: IbService, mask: number, extraOpt?: number): boolean;
/**
 * The RNICPI state that stands for each IB state (RNICPI 1.0 §6.7 `ri_qp_state_t`, whose IB
 * members are Idle = Reset, Initialized, Ready to Receive, Ready to Send, Send Queue
 * Draining/Drained, Send Queue Error and Error). SQD is entered as Draining.
 */
export declare const RI_OF_IB: Readonly<Record<IbQpState, RiQpState>>;
/** The IB state of an RNICPI state, or undefined for the iWARP-only ones (Closing, Terminate). */
export declare function ibStateOf(s: RiQpState): IbQpState | undefined;

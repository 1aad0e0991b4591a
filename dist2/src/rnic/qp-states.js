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
const T = (attrs, llp = false, implicitOnly = false) => ({ attrs, llp, implicitOnly });
/**
 * The iWARP table: `IWARP_TRANSITIONS[from][to]`. A missing entry is `QP_INVALID_STATE`.
 * Closing and Terminate have no rows: they refuse every Modify, attribute-only ones included
 * (Verbs §6.2). Out of Error only Idle (Verbs §6.2.4).
 */
export const IWARP_TRANSITIONS = {
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
export function iwarpTransition(from, to, named) {
    const t = IWARP_TRANSITIONS[from]?.[to];
    if (!t || (t.implicitOnly && named))
        return undefined;
    return t;
}
// ---------------------------------------------------------------------------- InfiniBand
/** InfiniBand QP states (IBTA Vol. 1 §10.3.1; values as `enum ibv_qp_state`). */
export var IbQpState;
(function (IbQpState) {
    IbQpState[IbQpState["RESET"] = 0] = "RESET";
    IbQpState[IbQpState["INIT"] = 1] = "INIT";
    IbQpState[IbQpState["RTR"] = 2] = "RTR";
    IbQpState[IbQpState["RTS"] = 3] = "RTS";
    IbQpState[IbQpState["SQD"] = 4] = "SQD";
    IbQpState[IbQpState["SQE"] = 5] = "SQE";
    IbQpState[IbQpState["ERR"] = 6] = "ERR";
})(IbQpState || (IbQpState = {}));
/** Modify QP attribute bits (IBTA Vol. 1 §11.2.4.2; values as `enum ibv_qp_attr_mask`). */
export var IbQpAttr;
(function (IbQpAttr) {
    IbQpAttr[IbQpAttr["STATE"] = 1] = "STATE";
    IbQpAttr[IbQpAttr["CUR_STATE"] = 2] = "CUR_STATE";
    IbQpAttr[IbQpAttr["EN_SQD_ASYNC_NOTIFY"] = 4] = "EN_SQD_ASYNC_NOTIFY";
    IbQpAttr[IbQpAttr["ACCESS_FLAGS"] = 8] = "ACCESS_FLAGS";
    IbQpAttr[IbQpAttr["PKEY_INDEX"] = 16] = "PKEY_INDEX";
    IbQpAttr[IbQpAttr["PORT"] = 32] = "PORT";
    IbQpAttr[IbQpAttr["QKEY"] = 64] = "QKEY";
    IbQpAttr[IbQpAttr["AV"] = 128] = "AV";
    IbQpAttr[IbQpAttr["PATH_MTU"] = 256] = "PATH_MTU";
    IbQpAttr[IbQpAttr["TIMEOUT"] = 512] = "TIMEOUT";
    IbQpAttr[IbQpAttr["RETRY_CNT"] = 1024] = "RETRY_CNT";
    IbQpAttr[IbQpAttr["RNR_RETRY"] = 2048] = "RNR_RETRY";
    IbQpAttr[IbQpAttr["RQ_PSN"] = 4096] = "RQ_PSN";
    IbQpAttr[IbQpAttr["MAX_QP_RD_ATOMIC"] = 8192] = "MAX_QP_RD_ATOMIC";
    IbQpAttr[IbQpAttr["ALT_PATH"] = 16384] = "ALT_PATH";
    IbQpAttr[IbQpAttr["MIN_RNR_TIMER"] = 32768] = "MIN_RNR_TIMER";
    IbQpAttr[IbQpAttr["SQ_PSN"] = 65536] = "SQ_PSN";
    IbQpAttr[IbQpAttr["MAX_DEST_RD_ATOMIC"] = 131072] = "MAX_DEST_RD_ATOMIC";
    IbQpAttr[IbQpAttr["PATH_MIG_STATE"] = 262144] = "PATH_MIG_STATE";
    IbQpAttr[IbQpAttr["CAP"] = 524288] = "CAP";
    IbQpAttr[IbQpAttr["DEST_QPN"] = 1048576] = "DEST_QPN";
})(IbQpAttr || (IbQpAttr = {}));
const A = IbQpAttr;
const none = { RC: 0, UC: 0, UD: 0 };
const per = (rc, uc, ud) => ({ RC: rc, UC: uc, UD: ud });
const ib = (req, opt) => ({ req, opt });
/**
 * The IB table: `IB_TRANSITIONS[from][to]`. Any state → Reset and any state → Error take no
 * attribute and are not listed (see {@link ibTransition}). SQE exists for UC/UD only.
 */
export const IB_TRANSITIONS = {
    [IbQpState.RESET]: {
        [IbQpState.INIT]: ib(per(A.PKEY_INDEX | A.PORT | A.ACCESS_FLAGS, A.PKEY_INDEX | A.PORT | A.ACCESS_FLAGS, A.PKEY_INDEX | A.PORT | A.QKEY), none),
    },
    [IbQpState.INIT]: {
        [IbQpState.INIT]: ib(none, per(A.PKEY_INDEX | A.PORT | A.ACCESS_FLAGS, A.PKEY_INDEX | A.PORT | A.ACCESS_FLAGS, A.PKEY_INDEX | A.PORT | A.QKEY)),
        [IbQpState.RTR]: ib(per(A.AV | A.PATH_MTU | A.DEST_QPN | A.RQ_PSN | A.MAX_DEST_RD_ATOMIC | A.MIN_RNR_TIMER, A.AV | A.PATH_MTU | A.DEST_QPN | A.RQ_PSN, 0), per(A.ALT_PATH | A.ACCESS_FLAGS | A.PKEY_INDEX, A.ALT_PATH | A.ACCESS_FLAGS | A.PKEY_INDEX, A.PKEY_INDEX | A.QKEY)),
    },
    [IbQpState.RTR]: {
        [IbQpState.RTS]: ib(per(A.TIMEOUT | A.RETRY_CNT | A.RNR_RETRY | A.SQ_PSN | A.MAX_QP_RD_ATOMIC, A.SQ_PSN, A.SQ_PSN), per(A.CUR_STATE | A.ALT_PATH | A.ACCESS_FLAGS | A.MIN_RNR_TIMER | A.PATH_MIG_STATE, A.CUR_STATE | A.ALT_PATH | A.ACCESS_FLAGS | A.PATH_MIG_STATE, A.CUR_STATE | A.QKEY)),
    },
    [IbQpState.RTS]: {
        [IbQpState.RTS]: ib(none, per(A.CUR_STATE | A.ACCESS_FLAGS | A.ALT_PATH | A.PATH_MIG_STATE | A.MIN_RNR_TIMER, A.CUR_STATE | A.ACCESS_FLAGS | A.ALT_PATH | A.PATH_MIG_STATE, A.CUR_STATE | A.QKEY)),
        [IbQpState.SQD]: ib(none, per(A.EN_SQD_ASYNC_NOTIFY, A.EN_SQD_ASYNC_NOTIFY, A.EN_SQD_ASYNC_NOTIFY)),
    },
    [IbQpState.SQD]: {
        [IbQpState.RTS]: ib(none, per(A.CUR_STATE | A.ALT_PATH | A.ACCESS_FLAGS | A.MIN_RNR_TIMER | A.PATH_MIG_STATE, A.CUR_STATE | A.ALT_PATH | A.ACCESS_FLAGS | A.PATH_MIG_STATE, A.CUR_STATE | A.QKEY)),
        [IbQpState.SQD]: ib(none, per(A.AV | A.TIMEOUT | A.RETRY_CNT | A.RNR_RETRY | A.MAX_QP_RD_ATOMIC | A.MAX_DEST_RD_ATOMIC | A.ALT_PATH | A.ACCESS_FLAGS | A.PKEY_INDEX | A.MIN_RNR_TIMER | A.PATH_MIG_STATE, A.AV | A.ALT_PATH | A.ACCESS_FLAGS | A.PKEY_INDEX | A.PATH_MIG_STATE, A.PKEY_INDEX | A.QKEY)),
    },
    [IbQpState.SQE]: {
        [IbQpState.RTS]: ib(none, per(0, A.CUR_STATE | A.ACCESS_FLAGS, A.CUR_STATE | A.QKEY)),
    },
};
/**
 * The rule for `from → to` on a `service` QP, or undefined if the transition does not exist.
 * Any state → Reset / Error needs no attribute (IBTA Vol. 1 §10.3.1).
 */
export function ibTransition(from, to, service) {
    if (to === IbQpState.RESET || to === IbQpState.ERR)
        return { req: 0, opt: 0 };
    const t = IB_TRANSITIONS[from]?.[to];
    if (!t)
        return undefined;
    // SQE is an unreliable-service state: an RC QP never enters it (IBTA Vol. 1 §10.3.1.7).
    if (from === IbQpState.SQE && service === 'RC')
        return undefined;
    return { req: t.req[service], opt: t.opt[service] };
}
/**
 * Checks a Modify QP mask against the IB table, as `ib_modify_qp_is_ok` does: every required
 * attribute present, nothing beyond required ∪ optional. `extraOpt` adds attributes a device
 * accepts on top (for example CAP where queues can be resized).
 */
export function ibModifyOk(from, to, service, mask, extraOpt = 0) {
    const rule = ibTransition(from, to, service);
    if (!rule)
        return false;
    const attrs = mask & ~IbQpAttr.STATE;
    if (to === IbQpState.RESET || to === IbQpState.ERR)
        return attrs === 0;
    return (attrs & rule.req) === rule.req && (attrs & ~(rule.req | rule.opt | extraOpt)) === 0;
}
/**
 * The RNICPI state that stands for each IB state (RNICPI 1.0 §6.7 `ri_qp_state_t`, whose IB
 * members are Idle = Reset, Initialized, Ready to Receive, Ready to Send, Send Queue
 * Draining/Drained, Send Queue Error and Error). SQD is entered as Draining.
 */
export const RI_OF_IB = {
    [IbQpState.RESET]: RiQpState.IDLE,
    [IbQpState.INIT]: RiQpState.INITIALIZED,
    [IbQpState.RTR]: RiQpState.READY_TO_RECEIVE,
    [IbQpState.RTS]: RiQpState.READY_TO_SEND,
    [IbQpState.SQD]: RiQpState.SEND_QUEUE_DRAINING,
    [IbQpState.SQE]: RiQpState.SEND_QUEUE_ERROR,
    [IbQpState.ERR]: RiQpState.ERROR,
};
/** The IB state of an RNICPI state, or undefined for the iWARP-only ones (Closing, Terminate). */
export function ibStateOf(s) {
    switch (s) {
        case RiQpState.IDLE:
            return IbQpState.RESET;
        case RiQpState.INITIALIZED:
            return IbQpState.INIT;
        case RiQpState.READY_TO_RECEIVE:
            return IbQpState.RTR;
        case RiQpState.READY_TO_SEND:
            return IbQpState.RTS;
        case RiQpState.SEND_QUEUE_DRAINING:
        case RiQpState.SEND_QUEUE_DRAINED:
            return IbQpState.SQD;
        case RiQpState.SEND_QUEUE_ERROR:
            return IbQpState.SQE;
        case RiQpState.ERROR:
            return IbQpState.ERR;
        default:
            return undefined;
    }
}
//# sourceMappingURL=qp-states.js.map
/** Operations a transmit segment carries: the core's neutral names for the wire messages. */
export var TxOp;
(function (TxOp) {
    TxOp[TxOp["SEND"] = 0] = "SEND";
    TxOp[TxOp["SEND_INVALIDATE"] = 1] = "SEND_INVALIDATE";
    TxOp[TxOp["RDMA_WRITE"] = 2] = "RDMA_WRITE";
    TxOp[TxOp["READ_REQUEST"] = 3] = "READ_REQUEST";
    TxOp[TxOp["READ_RESPONSE"] = 4] = "READ_RESPONSE";
    /** Send with Immediate: a Send whose every segment carries `imm` (iWARP: RFC 7306 Immediate Data). */
    TxOp[TxOp["SEND_IMM"] = 5] = "SEND_IMM";
    /** An atomic request (`atomic`, `requestId`, `stag`/`to` of the target). */
    TxOp[TxOp["ATOMIC_REQUEST"] = 6] = "ATOMIC_REQUEST";
    /** The response to an inbound atomic (`requestId`, `orig`). */
    TxOp[TxOp["ATOMIC_RESPONSE"] = 7] = "ATOMIC_RESPONSE";
})(TxOp || (TxOp = {}));
/** A blank segment (zero-length, last, no WQE): the starting point every producer fills in. */
export function newTxSeg() {
    return {
        op: TxOp.SEND,
        wqe: null,
        len: 0,
        parts: [],
        offset: 0,
        last: true,
        se: false,
        stag: 0,
        to: 0n,
        invStag: 0,
        sinkStag: 0,
        sinkTo: 0n,
        size: 0,
        srcStag: 0,
        srcTo: 0n,
        ud: null,
        hasImm: false,
        imm: 0,
        requestId: 0,
        atomic: null,
        orig: null,
    };
}
/** A blank address vector (all-zero GIDs, port 1). */
export function newIbAv() {
    return { dgid: new Uint8Array(16), sgidIndex: 0, sgid: new Uint8Array(16), hopLimit: 0, trafficClass: 0, flowLabel: 0, sl: 0, port: 1 };
}
/** Octets of an `enum ibv_mtu` value (IBTA Vol. 1 §7.7.1: 256 × 2^(mtu−1)). */
export function mtuBytes(mtu) {
    return 128 << mtu;
}
const ibBinders = new Map();
/** Registers the binder of an IB transport under its kind (`'rocev2'`, `'loopback'`). */
export function registerIbBinder(kind, b) {
    ibBinders.set(kind, b);
}
/** The transport for `qp` from the binder of `kind`, or null if none is registered. */
export function bindIb(kind, qp, attrs) {
    const b = ibBinders.get(kind);
    return b ? b(qp, attrs) : null;
}
const binders = [];
/** Registers a transport's binder (each transport module registers itself when loaded). */
export function registerLlpBinder(b) {
    if (!binders.includes(b))
        binders.push(b);
}
/** Asks every registered binder; `null` if none knows the handle. */
export function bindLlp(qp, handle, mpa) {
    for (const b of binders) {
        const r = b(qp, handle, mpa);
        if (r !== null)
            return r;
    }
    return null;
}
//# sourceMappingURL=transport.js.map
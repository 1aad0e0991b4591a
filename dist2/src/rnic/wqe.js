/** Where a WQE is in its life. */
export var WqeState;
(function (WqeState) {
    /** Posted, not started. */
    WqeState[WqeState["QUEUED"] = 0] = "QUEUED";
    /** Being transmitted (some segments sent). */
    WqeState[WqeState["ACTIVE"] = 1] = "ACTIVE";
    /** An RDMA Read waiting for its Read Response (in the ORQ). */
    WqeState[WqeState["WAIT_RESPONSE"] = 2] = "WAIT_RESPONSE";
    /**
     * Transmitted; waiting for delivery: the LLP releasing the data (iWARP zero-copy) or the
     * peer's acknowledgement (IB RC), whichever the transport's `sendCompletion` says.
     */
    WqeState[WqeState["WAIT_DELIVERY"] = 3] = "WAIT_DELIVERY";
    /** Finished: its completion (if any) can be generated in SQ order. */
    WqeState[WqeState["DONE"] = 4] = "DONE";
})(WqeState || (WqeState = {}));
/** A Send Queue WQE. Fields that do not apply to the type are left at their defaults. */
export class SqWqe {
    seq;
    type;
    flags;
    id;
    state = WqeState.QUEUED;
    /** Completion status (RI_WC_STATUS_*); 0 = success. */
    status = 0;
    /**
     * A local SGE failed its check when the WR was posted (post.ts): the WR completes with this
     * status when it reaches the SQ head, and nothing of it goes on the wire. 0 = none.
     */
    postError = 0;
    /** Send/Write: octets of the message already handed to the transport. */
    bytesSent = 0;
    /** Read: sink SGEs for which a Read Request has been issued. */
    readsIssued = 0;
    /** Read: Read Requests issued and not yet fully answered (the WQE completes at 0). */
    readsOutstanding = 0;
    // -- SGL (Send, Write: source; Read: sink) --
    sgl = [];
    totalLen = 0;
    /** SGL entries resolved by the access check at start of transmission. */
    targets = null;
    // -- remote address (Write, Read: STag/TO; Send with Invalidate: STag to invalidate) --
    remoteStag = 0;
    remoteTo = 0n;
    // -- Bind --
    mw = null;
    mr = null;
    bindVa = 0n;
    bindLength = 0;
    bindFlags = 0;
    bindNewStag = 0;
    // -- immediate data (Send/Write with Immediate) --
    imm = 0;
    // -- atomics: the operation and the Request Identifier it went out with --
    atomic = null;
    requestId = 0;
    // -- Fast-Register / Local Invalidate --
    fmr = null;
    target = null;
    targetStag = 0;
    // -- UD Send: the datagram's destination --
    ud = null;
    constructor(
    /** Sequence number of this WQE in its SQ. */
    seq, 
    /** RI_WR_TYPE_*. */
    type, 
    /** RI_WR_* flags. */
    flags, id) {
        this.seq = seq;
        this.type = type;
        this.flags = flags;
        this.id = id;
    }
}
/** A Receive Queue / S-RQ WQE. */
export class RqWqe {
    seq;
    flags;
    id;
    sgl;
    /** Bytes placed so far (DDP MO of the next expected segment). */
    placed = 0;
    targets = null;
    capacity = 0;
    constructor(seq, flags, id, sgl) {
        this.seq = seq;
        this.flags = flags;
        this.id = id;
        this.sgl = sgl;
    }
}
//# sourceMappingURL=wqe.js.map
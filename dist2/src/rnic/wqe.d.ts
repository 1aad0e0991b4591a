/**
 * Work Queue Elements: the RNIC's private copies of posted Work Requests.
 *
 * A WR exists only during the post call; everything the RNIC needs later is copied into a
 * WQE at post time (RDMA Protocol Verbs §8.1, RNICPI §5.5 "the VP must copy what it needs").
 */
import type { AtomicArgs } from './atomics.js';
import type { MemObject, MemTarget } from './memory.js';
import type { UdDest } from './transport.js';
/** A scatter/gather element: (STag, TO, length). */
export interface Sge {
    stag: number;
    to: bigint;
    len: number;
}
/** Where a WQE is in its life. */
export declare enum WqeState {
    /** Posted, not started. */
    QUEUED = 0,
    /** Being transmitted (some segments sent). */
    ACTIVE = 1,
    /** An RDMA Read waiting for its Read Response (in the ORQ). */
    WAIT_RESPONSE = 2,
    /**
     * Transmitted; waiting for delivery: the LLP releasing the data (iWARP zero-copy) or the
     * peer's acknowledgement (IB RC), whichever the transport's `sendCompletion` says.
     */
    WAIT_DELIVERY = 3,
    /** Finished: its completion (if any) can be generated in SQ order. */
    DONE = 4
}
/** The Fast-Register WR's physical buffer description (RNICPI `ri_mr_reg_phys_attr_t`). */
export interface FmrSpec {
    va: bigint;
    length: number;
    memFlags: number;
    /** Physical addresses of equal-size buffers (pbeSize > 0). */
    pbl: bigint[];
    pbeSize: number;
    fbo: number;
}
/** A Send Queue WQE. Fields that do not apply to the type are left at their defaults. */
export declare class SqWqe {
    /** Sequence number of this WQE in its SQ. */
    readonly seq: number;
    /** RI_WR_TYPE_*. */
    readonly type: number;
    /** RI_WR_* flags. */
    readonly flags: number;
    readonly id: bigint;
    state: WqeState;
    /** Completion status (RI_WC_STATUS_*); 0 = success. */
    status: number;
    /**
     * A local SGE failed its check when the WR was posted (post.ts): the WR completes with this
     * status when it reaches the SQ head, and nothing of it goes on the wire. 0 = none.
     */
    postError: number;
    /** Send/Write: octets of the message already handed to the transport. */
    bytesSent: number;
    /** Read: sink SGEs for which a Read Request has been issued. */
    readsIssued: number;
    /** Read: Read Requests issued and not yet fully answered (the WQE completes at 0). */
    readsOutstanding: number;
    sgl: Sge[];
    totalLen: number;
    /** SGL entries resolved by the access check at start of transmission. */
    targets: {
        target: MemTarget;
        offset: number;
        len: number;
    }[] | null;
    remoteStag: number;
    remoteTo: bigint;
    mw: MemObject | null;
    mr: MemObject | null;
    bindVa: bigint;
    bindLength: number;
    bindFlags: number;
    bindNewStag: number;
    imm: number;
    atomic: AtomicArgs | null;
    requestId: number;
    fmr: FmrSpec | null;
    target: MemObject | null;
    targetStag: number;
    ud: UdDest | null;
    constructor(
    /** Sequence number of this WQE in its SQ. */
    seq: number, 
    /** RI_WR_TYPE_*. */
    type: number, 
    /** RI_WR_* flags. */
    flags: number, id: bigint);
}
/** A Receive Queue / S-RQ WQE. */
export declare class RqWqe {
    readonly seq: number;
    readonly flags: number;
    readonly id: bigint;
    readonly sgl: Sge[];
    /** Bytes placed so far (DDP MO of the next expected segment). */
    placed: number;
    targets: {
        target: MemTarget;
        offset: number;
        len: number;
    }[] | null;
    capacity: number;
    constructor(seq: number, flags: number, id: bigint, sgl: Sge[]);
}
/**
 * An inbound RDMA Read Request waiting for (or being served by) Read Responses
 * (RDMA Protocol Verbs §6.5 IRRQ, RFC 5040 §4.5).
 */
export interface InboundRead {
    sinkStag: number;
    sinkTo: bigint;
    length: number;
    target: MemTarget | null;
    offset: number;
    /** The source object (its validity is re-checked before each Read Response segment). */
    src: MemObject | null;
    /** Octets of the Read Response already handed to the transport. */
    sent: number;
    /**
     * An inbound atomic shares the queue (and IRD) with Reads (RFC 7306 §5, IBTA §9.4.5): it was
     * executed on arrival, and its response (this identifier and original value) waits here in
     * order with the Read Responses.
     */
    atomic?: {
        requestId: number;
        orig: bigint[];
    } | null;
}
/** One outbound RDMA Read Request in flight: an ORQ entry (Verbs §6.5). */
export interface OrqEntry {
    /** The Read WQE; null for a request the RNIC makes itself (the RFC 6581 Read RTR). */
    wqe: SqWqe | null;
    sinkStag: number;
    sinkTo: bigint;
    length: number;
    /** Octets of the response placed so far. */
    received: number;
    /** The resolved sink, checked when the first response segment arrives (Verbs §7.6.3). */
    target: {
        target: MemTarget | null;
        offset: number;
        obj: MemObject | null;
    } | null;
    /** An atomic's entry: its Request Identifier (the ORQ holds Reads and atomics in order). */
    atomicId?: number;
}

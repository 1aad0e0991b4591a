/**
 * Transport-neutral faults: what the core's responder and requester report when an inbound
 * operation or a local condition must end the connection. Each transport maps them to its
 * own wire error: an iWARP Terminate with layer/type/code (RFC 5040 §7, RFC 5041 §7), or an
 * InfiniBand NAK syndrome (IBTA Vol. 1 §9.7.5.2.8: 0x61 Remote Access, 0x62 Remote
 * Operational, 0x63 Invalid Request).
 *
 * The names follow the checks of RDMA Protocol Verbs §7.6.3 (the access check) and §6.5
 * (ORD/IRD), so that a fault says *which rule* failed, not how a wire spells it.
 */
import { RiAsyncEventType as AE } from '../rnicpi/types.js';
/** A fault found on an inbound operation, or a local condition that ends the stream. */
export declare enum Fault {
    /** No error. */
    OK = 0,
    /** No such STag/key, or the STag is invalid. */
    INVALID_STAG = 1,
    /** The range is outside the region or window. */
    BOUNDS = 2,
    /** The region's (or the QP's) rights do not allow the access. */
    RIGHTS = 3,
    /** The STag exists but belongs to another PD (or its window to another QP). */
    NOT_ASSOCIATED = 4,
    /** TO + length wraps past 2^64 − 1. */
    WRAP = 5,
    /** A Send arrived and no receive WQE is posted (iWARP: Terminate; IB: RNR NAK). */
    NO_RECV_BUFFER = 10,
    /** The message is longer than the receive WQE's buffers. */
    MSG_TOO_LONG = 11,
    /** A segment's message offset is not the next expected one. */
    BAD_OFFSET = 12,
    INVALIDATE_INVALID_STAG = 20,
    INVALIDATE_NOT_ASSOCIATED = 21,
    INVALIDATE_RIGHTS = 22,
    CANNOT_INVALIDATE = 23,
    /** More Read Requests outstanding than the responder's IRD. */
    IRD_EXCEEDED = 30,
    /** Inbound RDMA Read is not enabled on the QP (its Read Request queue does not exist). */
    READ_NOT_ENABLED = 31,
    /** A Read Request whose source failed the access check: the variants mirror 1–5. */
    READ_SRC_INVALID_STAG = 32,
    READ_SRC_BOUNDS = 33,
    READ_SRC_RIGHTS = 34,
    READ_SRC_NOT_ASSOCIATED = 35,
    READ_SRC_WRAP = 36,
    /** The Read's source was invalidated or deallocated while its Response was going out. */
    READ_SRC_GONE = 37,
    /** A Read Response arrived with no Read outstanding. */
    UNEXPECTED_RESPONSE = 38,
    /** A Read Response names another sink than the outstanding Read. */
    RESPONSE_STAG_MISMATCH = 39,
    /** A Read Response falls outside the requested sink or is short. */
    RESPONSE_OUT_OF_RANGE = 40,
    /** The atomic's target is not 8-octet aligned (IBTA: Invalid Request NAK). */
    ATOMIC_MISALIGNED = 41,
    /** More Read and Atomic Requests outstanding than the responder's IRD (they share it). */
    ATOMIC_IRD_EXCEEDED = 42,
    /** The target failed the access check: the variants mirror 1–5 (rights: no Remote Atomic). */
    ATOMIC_INVALID_STAG = 43,
    ATOMIC_BOUNDS = 44,
    ATOMIC_RIGHTS = 45,
    ATOMIC_NOT_ASSOCIATED = 46,
    ATOMIC_WRAP = 47,
    /** An atomic operation code or operand size this responder does not implement. */
    ATOMIC_UNSUPPORTED = 48,
    /** An Atomic Response with no atomic outstanding at the ORQ head, or with another identifier. */
    UNEXPECTED_ATOMIC_RESPONSE = 49,
    /** An operation the receiving side does not support. */
    UNEXPECTED_OP = 50,
    /** A local, catastrophic error: a local WR failed, or the Consumer asked (Verbs §6.2 T8). */
    LOCAL_CATASTROPHIC = 60,
    /**
     * A catastrophic error local to this stream: the LLP closed while work was outstanding
     * ("Bad LLP Close"), or a CQ overflowed (Verbs §7.3).
     */
    STREAM_CATASTROPHIC = 61,
    /** The fault was already handled by the core (a completion and the QP's error path). */
    HANDLED = 99
}
/** Faults that mean "the Read Request's source failed the access check", by AccessError. */
export declare const READ_SRC_FAULT: Readonly<Record<number, Fault>>;
/** Faults of an atomic's target, by AccessError. */
export declare const ATOMIC_TARGET_FAULT: Readonly<Record<number, Fault>>;
/** Faults of a tagged sink (inbound Write), by AccessError. */
export declare const SINK_FAULT: Readonly<Record<number, Fault>>;
/**
 * What a peer is told instead of "STag not associated" (issue 17, finding 4). A valid STag of
 * another Protection Domain, or a window bound to another QP, is reported on the wire exactly as
 * an STag that does not exist, so that an unauthenticated peer cannot sweep the STag space for
 * other PDs' regions; the local Consumer still gets the precise affiliated event. RDMA Protocol
 * Verbs §10 I3 wants 0x0103 for a Send with Invalidate of another PD's MR: an RNIC configured
 * with `discloseNotAssociated` sends the RFC's "not associated" codes (see the spec-notes).
 */
export declare const UNDISCLOSED_FAULT: Readonly<Partial<Record<Fault, Fault>>>;
/**
 * The affiliated asynchronous event that reports each inbound fault (RDMA Protocol Verbs §7.3
 * "Asynchronous Event Identifiers"; RNICPI 1.0 §6.11). Faults with no entry (local ones) raise
 * no event of their own: the failed WR's completion reports them (Verbs §8.3).
 */
export declare const AE_OF_FAULT: Readonly<Partial<Record<Fault, AE>>>;

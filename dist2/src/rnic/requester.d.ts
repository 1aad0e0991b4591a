/**
 * The requester: the Send Queue side of a QP (RDMA Protocol Verbs §8.2.2; RNICPI 1.0 §5.5).
 *
 * It decides *what* goes out next and leaves *how* to the transport: the transport calls
 * {@link Requester.next} whenever it can take a segment, frames the {@link TxSeg} it gets,
 * and reports delivery back ({@link Requester.delivered}). The rules kept here, once for
 * every transport:
 * - fences: a Read Fence waits for earlier Reads, a Local Fence for every earlier WR
 *   (Verbs §8.2.2.2);
 * - ORD: at most `qp.ord` Read Requests outstanding (Verbs §6.5); ORD 0 fails a Read;
 * - the local access check of every source and sink SGE (Verbs §7.6.3), a failure completing
 *   the WR in error and terminating the QP (Verbs §8.3 Figure 23);
 * - local operations (Bind, Fast-Register, Local Invalidate) at the SQ head (Verbs §8.2.2.1);
 * - fairness: at most {@link IRQ_BURST} Read Response segments back to back while SQ work
 *   waits, as Linux siw's `SIW_IRQ_MAXBURST_SQ_ACTIVE`.
 *
 * Segmentation is restartable: a WQE remembers how far it got (`bytesSent`, `readsIssued`),
 * so a transport that must resend (go-back-N) can re-run a message from an offset.
 */
import { RiWcStatus } from '../rnicpi/types.js';
import { Access, AccessError } from './memory.js';
import type { Qp } from './qp.js';
import { type QpTransport, type TxSeg } from './transport.js';
import { type OrqEntry, type Sge, type SqWqe } from './wqe.js';
import { SglRole } from './wr-table.js';
/** Read Response segments sent back to back while SQ work waits (siw: 4). */
export declare const IRQ_BURST = 4;
/** Completion status for a failed local (SGE) access check (RNICPI §6.10). */
export declare const LOCAL_ACCESS_STATUS: Readonly<Record<AccessError, RiWcStatus>>;
/**
 * The access each local SGL needs (Verbs §7.6.3): a source is read; an atomic's result buffer
 * is written locally; a Read's sink is written by the Read Response, which needs Remote Write
 * as Verbs §7.6.3 Figure 21 says (the responder checks the same when the response arrives).
 */
export declare const SGL_ACCESS: Readonly<Record<SglRole, Access | null>>;
export declare class Requester {
    readonly qp: Qp;
    private readonly seg;
    private readonly access;
    private irqBurst;
    constructor(qp: Qp);
    /**
     * The next segment to transmit, or null when nothing may go now (empty queues, a fence,
     * ORD). Local operations at the SQ head run inside the call. The returned object is reused
     * by the next call.
     */
    next(t: QpTransport): TxSeg | null;
    /** Executes the local-only WQEs at the head of the SQ while the transport holds the wire. */
    runLocalOps(): void;
    /** Is there SQ work that may start or continue now (fences and ORD respected)? */
    private sqHeadReady;
    /**
     * Checks a local SGL against its regions (Verbs §7.6.3): the completion status of the first
     * failing SGE, or 0. At post time (`qpEnables` false) the QP's own inbound enables are not
     * looked at: they may change before the WR runs; the check at execution includes them.
     */
    checkLocalSgl(sgl: readonly Sge[], role: SglRole, qpEnables: boolean): RiWcStatus;
    /** Resolves an SGL with the local access check; returns the pieces or the error. */
    private resolveSgl;
    /** A WQE failed locally: its completion carries the error, then the QP terminates (Verbs §8.3 Figure 23). */
    failWqe(w: SqWqe, status: RiWcStatus): void;
    /**
     * InfiniBand: the peer refused a WQE (a NAK: invalid request, remote access or operation
     * error) or the transport gave up on it (retry or RNR retry count exceeded). It completes with
     * `status` and the QP enters Error, flushing the rest (IBTA Vol. 1 §9.7.5.2, §10.3.1.8;
     * C9-143 …). The transport calls this; nothing goes back on the wire.
     */
    failRemote(w: SqWqe, status: RiWcStatus): void;
    /** The next segment of a Send or RDMA Write. */
    private messageSegment;
    /**
     * The next RDMA Read Request of a Read WQE: one per sink SGE (a Read Request names one sink
     * STag/TO, RFC 5040 §4.4), each entered in the ORQ *before* it is sent, because on loopback
     * the Read Response can arrive before the send returns (siw does the same).
     */
    private readRequest;
    /**
     * The Atomic Request of an atomic WQE (IBTA Vol. 1 §9.4.5; RFC 7306 §5.1). It counts against
     * ORD like a Read (RFC 7306 §5: atomics share the Read queues), is entered in the ORQ before
     * it is sent, and its local result buffer is checked (Local Write) before anything goes out.
     */
    private atomicRequest;
    /** An atomic's response arrived (matched to the ORQ head by the responder): result, then WC. */
    atomicDone(w: SqWqe, orig: readonly bigint[], t: QpTransport): void;
    /**
     * A Terminate (or NAK) answered the Read or atomic at the ORQ head: the WR completes with the
     * status of the peer's fault (IB: misaligned or beyond IRD → Invalid Request, access → Remote
     * Access), before the QP's error path flushes the rest. The ORQ is in order, so the head is
     * the first request the peer had not answered; a fault of the other kind leaves it alone.
     */
    refusedByPeer(fault: number | undefined): void;
    /**
     * Enters a Read the RNIC makes itself (the RFC 6581 zero-length Read RTR) in the ORQ, so its
     * zero-length Response is matched like any other.
     */
    pushInternalRead(stag: number): OrqEntry;
    /** Bind, Fast-Register and Local Invalidate take effect before the next WR starts (Verbs §8.2.2.1). */
    private execLocal;
    /**
     * A Send or Write was delivered: the LLP took its last octet (iWARP) or the peer
     * acknowledged it (IB). A WQE flushed meanwhile (the QP's error path) is left alone.
     */
    delivered(w: SqWqe): void;
    /** A Read WQE's local sink failed its check when the response arrived: error WC, then terminate. */
    failRead(w: SqWqe, status: RiWcStatus): void;
    /** One Read Request of a Read WQE was answered; the WQE completes with its last one. */
    readDone(w: SqWqe, t: QpTransport): void;
}

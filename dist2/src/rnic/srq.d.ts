/**
 * Shared Receive Queues (RDMA Protocol Verbs §5.x S-RQ, RNICPI §5.7 `ri_srq_*`).
 *
 * An S-RQ holds receive WQEs that any associated QP may consume, in FIFO order. Its limit
 * event fires once per arming when the number of available WQEs drops to or below the
 * low-water mark (`lowat`), and must be re-armed explicitly (RNICPI §6.8).
 */
import type { Pd } from './pd.js';
import type { RqWqe } from './wqe.js';
export declare class Srq {
    readonly id: number;
    readonly maxSgl: number;
    readonly pd: Pd;
    readonly osData: unknown;
    /** Raises `RI_EVENT_SRQ_LIMIT_REACHED`. */
    private readonly onLimit;
    private ring;
    private head;
    private count;
    /** QPs associated with this S-RQ: SRQ_INUSE guard. */
    users: number;
    /**
     * WQEs taken by a QP whose completion has not been polled yet: their slots are not free
     * (a WQ slot is released when the Consumer reaps the WC, Verbs §8.1.3.1, §10 Q-S5).
     */
    inFlight: number;
    destroyed: boolean;
    error: boolean;
    lowat: number;
    armed: boolean;
    constructor(id: number, capacity: number, maxSgl: number, lowat: number, pd: Pd, osData: unknown, 
    /** Raises `RI_EVENT_SRQ_LIMIT_REACHED`. */
    onLimit: (srq: Srq) => void);
    get capacity(): number;
    /** WQEs posted and not yet consumed. */
    get available(): number;
    /** Slots in use: posted WQEs plus consumed ones whose WC is not yet polled. */
    get occupied(): number;
    /** Appends a WQE; false if every slot is in use. */
    push(w: RqWqe): boolean;
    /** Takes the oldest WQE, checking the limit event afterwards. */
    shift(): RqWqe | undefined;
    /** Resizes keeping queued WQEs; false if `capacity` is below the queued count. */
    resize(capacity: number): boolean;
}

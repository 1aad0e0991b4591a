import type { Qp } from './qp.js';
/** `ri_cmplt_notify_type_t` (RNICPI §6.12). */
export declare enum NotifyType {
    SOLICITED = 0,
    ANY = 1
}
/**
 * One work completion, with the fields of RNICPI `ri_rc_wc_t` (§6.10). The engine fills
 * these; the consumer faces copy out what they need.
 */
export interface WorkCompletion {
    op_type: number;
    cq_os_data: unknown;
    flags: number;
    invalidated_rtag: number;
    qp_os_data: unknown;
    id: bigint;
    op_status: number;
    bytes_transferred: number;
    immediate_data: number;
    err_data: bigint;
    /** The local QP number (the verbs WC carries it, Verbs §8.2.3). */
    qp_num: number;
    /**
     * A UD QP's completions are RNICPI's general WCs (`ri_gen_wc_t`): these members are present
     * on them only. `qpn` is the local QP, `remote_qpn` a datagram's source QP (its DETH), and
     * `grh_present` says the first 40 octets of the receive buffer hold the GRH (IBTA Vol. 1 §11.4.2.1).
     */
    qpn?: number;
    remote_lid?: number;
    remote_qpn?: number;
    remote_sl?: number;
    local_lid_pathbits?: number;
    ether_type?: number;
    grh_present?: number;
    pkey_index?: number;
    freed_resource_count?: number;
}
/** Called when an armed CQ fires. */
export type CqNotifyFn = (cq: Cq) => void;
export declare class Cq {
    readonly id: number;
    /** Completion Event Handler identifier, fixed for the CQ's life (0 = none). */
    readonly handlerId: number;
    readonly osData: unknown;
    private readonly notify;
    private readonly onOverflow;
    private ring;
    private head;
    private count;
    /** 0 = disarmed, otherwise the strongest notify type requested + 1. */
    private armed;
    private notifyPending;
    /** Overflow or internal error: `ri_cq_query` answers CQ_ERROR from then on. */
    error: boolean;
    destroyed: boolean;
    /** Work queues (QP SQ/RQ) that use this CQ: CQ_INUSE guard. */
    users: number;
    constructor(id: number, capacity: number, 
    /** Completion Event Handler identifier, fixed for the CQ's life (0 = none). */
    handlerId: number, osData: unknown, notify: CqNotifyFn, onOverflow: (cq: Cq, qp: Qp | null, sq: boolean) => void);
    get capacity(): number;
    get depth(): number;
    /**
     * Adds a completion. Returns false, marks the CQ in error and reports overflow when the
     * ring is full: a completion is never silently overwritten.
     */
    push(wc: WorkCompletion, qp: Qp | null, sq: boolean, seq: number, solicited: boolean): boolean;
    private scheduleNotify;
    /**
     * Arms the CQ. Entries already queued never trigger it; ANY takes precedence over
     * SOLICITED; one arm gives at most one callback (RNICPI `ri_cq_req_notification`).
     */
    arm(type: NotifyType): void;
    get armedType(): NotifyType | null;
    /** Removes up to `max` completions into `out`; returns how many. */
    poll(out: WorkCompletion[], max: number): number;
    /** Resizes without losing completions; false if `capacity` < queued entries. */
    resize(capacity: number): boolean;
    /** Drops every queued completion that belongs to `qp` (QP destroyed). */
    purgeQp(qp: Qp): void;
    destroy(): void;
}

/**
 * RC Endpoints, Listen Points, connection requests and Shared Receive Queues (IT-API Ch. 3–4,
 * the `it_ep_*`, `it_listen_*`, `it_post_*`, `it_srq_*` pages; digest §4, §6).
 *
 * An Endpoint is one RNICPI QP plus the IT-API state machine of `it_ep_state_t`. The rules kept
 * here:
 * - **States.** The RC state changes *before* its CM Event is queued; leaving CONNECTED yields
 *   exactly one of DISCONNECT or BROKEN; any failure after connect/accept lands in
 *   NONOPERATIONAL. On iWARP without an RTR state the passive side becomes CONNECTED on its first
 *   successful Receive completion (App. B).
 * - **Connection management** runs on the QP through the connection manager (TCP + MPA; the
 *   RFC 6581 IRD/ORD word plays the part of the IT-API IOH and is never shown to the Consumer).
 *   `it_ep_disconnect` is a graceful LLP close (the peer sees DISCONNECT, or BROKEN if it still
 *   had work queued); errors and resets give BROKEN.
 * - **Work requests** are always posted signalled to the RNIC; the Endpoint keeps one record per
 *   WR and turns each Work Completion into the IT-API Event the Consumer asked for (unsignalled
 *   successes produce none). A WR stays outstanding until the Consumer dequeues a completion that
 *   covers it (`IT_ERR_TOO_MANY_POSTS` accounting). WRs posted in NONOPERATIONAL never reach the
 *   RNIC: they complete `IT_DTO_ERR_FLUSHED` after every earlier WR of their queue.
 *
 * @module
 */
import type { Socket } from 'node:net';
import { type CmConnection, type CmConnectRequest, type CmListener, type CmQp } from '../iwarp/cm.js';
import { RiRet } from '../rnicpi/status.js';
import { RiQpState, type ri_data_seg_t, type ri_event_record_t, type ri_qp_handle_t, type ri_srq_handle_t, type ri_wc_t, type ri_wr_t } from '../rnicpi/types.js';
import type { ItAsyncTarget } from './access.js';
import type { Sevd } from './evd.js';
import type { Lmr, Rmr } from './mem.js';
import { type Ia, ItObject, type Pz } from './objects.js';
import { type IbItListen, IbItRequest } from './roce.js';
import { IT_HANDLE_KIND, IT_ID_KIND, it_conn_reject_code_t as RJ, it_dto_status_t as DS, it_ep_state_rc_t as ST, it_handle_type_enum_t as HT, type it_cn_est_identifier_t, type it_conn_qual_t, type it_conn_request_event_t, type it_connection_event_number_t, type it_connection_event_t, type it_ep_attributes_t, type it_net_addr_t, type it_path_t } from './types.js';
/** Private data as received: a 256-byte buffer (the length is not conveyed). */
export declare function pdataBuffer(src: Uint8Array | null | undefined): Uint8Array;
/** An `it_net_addr_t` for a socket address string (IPv4-mapped IPv6 becomes IPv4). */
export declare function netAddrOf(addr: string): it_net_addr_t;
/** NONPEER_REJECT reason for a failed connection attempt (digest §6.6 iWARP mapping). */
export declare function rejectReason(e: unknown): RJ;
/** What kind of WR a record is (decides the completion's event number and status mapping). */
export type WrKind = 'send' | 'write' | 'read' | 'fetch_add' | 'cmp_swap' | 'rmr_link' | 'rmr_unlink' | 'lmr_link' | 'lmr_unlink';
/** One Send Queue WR as the Endpoint remembers it. */
export interface SqRec {
    seq: number;
    kind: WrKind;
    cookie: bigint;
    /** The IT-API `it_dto_flags_t`. */
    flags: number;
    /** RMR/LMR Link: what to record on success. */
    rmr?: Rmr;
    lmr?: Lmr;
    link?: {
        lmr: Lmr | null;
        addr: bigint;
        length: number;
        privs: number;
        addrMode: number;
        context: number;
    };
    /** RMR Link to a Relative-mode LMR (`IT_DTO_ERR_LOCAL_MM_OPERATION`, digest §11.15). */
    relLmr?: boolean;
    /** `IT_UNLINK_LOCAL_SINK`: the sink region unlinked on success. */
    sink?: Lmr | Rmr;
    /** A status decided by the IT-API layer (the WR never reached the RNIC). */
    synthetic?: DS;
}
/** One Receive as the Endpoint (or S-RQ) remembers it. */
export interface RecvRec {
    cookie: bigint;
    flags: number;
    /** A WR posted in NONOPERATIONAL (never given to the RNIC). */
    synthetic?: boolean;
}
/** The Endpoint attributes as kept (actual values; `srv.rc` flattened). */
export interface EpAttrs {
    max_dto_payload_size: number;
    max_request_dtos: number;
    max_recv_dtos: number;
    max_send_segments: number;
    max_recv_segments: number;
    priv_ops_enable: boolean;
    rdma_read_enable: boolean;
    rdma_write_enable: boolean;
    max_rdma_read_segments: number;
    max_rdma_write_segments: number;
    rdma_read_ird: number;
    rdma_read_ord: number;
    soft_hi_watermark: number;
    hard_hi_watermark: number;
    atomics_enable: boolean;
}
/** An RC Endpoint. */
export declare class Ep extends ItObject implements ItAsyncTarget {
    private readonly ia_;
    readonly pz: Pz;
    readonly reqEvd: Sevd;
    readonly recvEvd: Sevd;
    readonly connEvd: Sevd;
    readonly flags: number;
    readonly srq: Srq | null;
    readonly attr: EpAttrs;
    readonly [IT_HANDLE_KIND]: HT.IT_HANDLE_TYPE_EP;
    state: ST;
    qp: ri_qp_handle_t;
    /** The QP as the connection manager takes it (`ri_qp_query` / `ri_qp_modify` on {@link qp}). */
    cmQp: CmQp;
    /** Broken by a DTO SEVD overflow: `it_ep_reset` answers `IT_ERR_CANNOT_RESET`. */
    cannotReset: boolean;
    /** Entered NONOPERATIONAL because of an error (affiliated Events still reported). */
    private errorClosed;
    spigot: number;
    dstPath: it_path_t | null;
    /** A connect or conversion in progress (aborted by disconnect/free). */
    private pending;
    conn: CmConnection | null;
    /** Passive side: the request accepted (for the ESTABLISHED Event). */
    private accepted;
    /** TDI: ESTABLISHED carries no private data and IRD = ORD = 0. */
    private converted;
    /** RoCE Interface: the IB CM connection (held on the port's CM until the Endpoint goes). */
    private ib;
    private sqNext;
    private sqRetired;
    private readonly wrs;
    private engineSq;
    private readonly deferredSq;
    private rqPosted;
    private rqRetired;
    private readonly recvs;
    private engineRq;
    private readonly deferredRq;
    private nextId;
    /** Narrow RMRs linked through this Endpoint (`IT_ERR_EP_BUSY`). */
    narrowLinked: number;
    /** CQ entries this Endpoint's work queues reserved on its DTO SEVDs. */
    cqReservation: {
        req: number;
        recv: number;
    };
    constructor(ia_: Ia, pz: Pz, reqEvd: Sevd, recvEvd: Sevd, connEvd: Sevd, flags: number, srq: Srq | null, attr: EpAttrs);
    get ia(): Ia;
    private get ops();
    /** On the RoCE Interface (InfiniBand transport, the IB CM). */
    get isIb(): boolean;
    /** Creates the QP with the current attributes; returns the RNIC status. */
    createQp(): RiRet;
    /** The QP's RNICPI state. */
    qpState(): RiQpState | null;
    /** The QP's IRD/ORD (they follow the negotiation). */
    qpIrdOrd(): {
        ird: number;
        ord: number;
    };
    /** Moves the QP out of service: Idle → Error (flushes pre-posted Receives), RTS → Closing/Error. */
    private quenchQp;
    private cmEvent;
    /** Enters CONNECTED and queues ESTABLISHED (in that order). */
    private established;
    /**
     * Enters NONOPERATIONAL (once), queues `event` after the change, stops a pending connect or
     * conversion and takes the QP out of service; the WRs still on the RNIC are flushed by it.
     */
    toNonoperational(event: it_connection_event_number_t | null, o?: Partial<it_connection_event_t>, how?: 'close' | 'abort'): void;
    /** A DTO SEVD this Endpoint feeds overflowed: broken for good (digest §5.1). */
    onDtoEvdOverflow(): void;
    /** A failure ended a connection attempt or a connection (state-dependent Event). */
    private connectionFailed;
    /** Affiliated asynchronous events of the QP (RNICPI → IT-API, digest §2.11). */
    onRiAsync(ev: ri_event_record_t): void;
    private postAffiliated;
    /** `it_ep_connect` after validation: UNCONNECTED → ACTIVE1, TCP + MPA Request. */
    connect(host: string, port: number, path: it_path_t, opts: {
        localAddress?: string;
        localPort?: number;
        timeoutMs: number;
        pdata: Uint8Array;
        suppress: boolean;
    }): void;
    /** `it_ep_accept` (2-way, passive) after validation. Throws the immediate error. */
    accept(req: PendingRequest, pdata: Uint8Array): void;
    /**
     * `it_ep_connect` on the RoCE Interface: UNCONNECTED → ACTIVE1, a REQ to `host`'s GID for
     * the RDMA_PS_TCP service of `port` with the `cma_hdr` in front of the private data (rdma_cm's
     * format, so any rdma_cm server answers); the REP moves the QP to RTR/RTS, the RTU goes out
     * and ESTABLISHED is queued. A REJ 28 is PEER_REJECT with its private data; other REJ reasons,
     * the CM's timeouts and the path's `timeout` are NONPEER_REJECT.
     */
    connectIb(host: string, port: number, path: it_path_t, opts: {
        localAddress?: string;
        timeoutMs: number;
        pdata: Uint8Array;
    }): void;
    /**
     * `it_ep_accept` of a RoCE request: the QP to RTR/RTS with the REQ's values (its QPN and
     * starting PSN, the path, its Local ACK Timeout and retry counts; IRD/ORD the smaller of ours
     * and the peer's), then the REP with our private data. ESTABLISHED follows on the RTU, or on
     * the first data (COMM_EST).
     */
    private acceptIb;
    /** The IB CM's events for this Endpoint's connection. */
    private onIbEvent;
    /** IB: the first data arrived before the RTU; the CM is told (it reports ESTABLISHED). */
    private ibCommEst;
    /** IB: the connection ends with the Endpoint's: DREQ when established, else REJ (Linux `cm_destroy_id`). */
    private ibTeardown;
    /** IB: lets go of the connection and the port's CM (free, reset). */
    private ibRelease;
    /**
     * `it_socket_convert` after validation. `msg` non-empty = Conversion Initiator (MPA
     * Responder, passive states); null = Conversion Responder (MPA Initiator, active states).
     */
    convert(sd: Socket, msg: Uint8Array | null, noReqRep: boolean): void;
    /** `it_ep_disconnect` after validation (state ≠ UNCONNECTED). */
    disconnect(): void;
    /** `it_ep_reset`: NONOPERATIONAL → UNCONNECTED with the same attributes. */
    reset(): boolean;
    /** Frees the Endpoint unconditionally (busy checks are the caller's). */
    destroy(): void;
    /** WRs outstanding on the Send Queue (posted, no covering completion dequeued). */
    get sqOutstanding(): number;
    get rqOutstanding(): number;
    /**
     * Posts one SQ WR (validated by the caller). In NONOPERATIONAL the WR completes flushed
     * without reaching the RNIC.
     */
    postSq(rec: Omit<SqRec, 'seq'>, wr: ri_wr_t, length?: number): void;
    /** Posts one Receive to the Endpoint's own RQ (validated by the caller). */
    postRecv(rec: RecvRec, sgl: ri_data_seg_t[]): void;
    /** Completes the WRs that never reached the RNIC once everything posted before them did. */
    private flushDeferred;
    /** A Work Completion of this Endpoint's QP (drained from an SEVD's CQ). */
    onWc(wc: ri_wc_t): void;
    /** Memory bookkeeping of a successful Link/Unlink or unlinking Read. */
    private applySuccess;
    private completeSq;
    private onRecvWc;
    private completeRecv;
    /** Any unsuccessful completion ends a connection that is up or being set up. */
    private onCompletionError;
}
/** A Listen Point: one CM listener feeding a CM_REQ SEVD. */
export declare class Listen extends ItObject {
    private readonly ia_;
    readonly spigot: number;
    readonly evd: Sevd;
    readonly port: number;
    /** The iWARP CM's listener, or the RoCE Interface's ({@link IbItListen}). */
    readonly cm: CmListener | IbItListen;
    readonly suppressIrdOrd: boolean;
    readonly [IT_HANDLE_KIND]: HT.IT_HANDLE_TYPE_LISTEN;
    constructor(ia_: Ia, spigot: number, evd: Sevd, port: number, 
    /** The iWARP CM's listener, or the RoCE Interface's ({@link IbItListen}). */
    cm: CmListener | IbItListen, suppressIrdOrd: boolean);
    get ia(): Ia;
    get connQual(): it_conn_qual_t;
    /** A UD service request: `IT_CM_REQ_UD_SERVICE_REQUEST_EVENT` (a full SEVD drops it; the requester retransmits). */
    private onUdRequest;
    private onRequest;
    /** Stops listening; requests already delivered stay valid (`it_listen_free`). */
    destroy(): void;
}
/**
 * A connection request (`it_cn_est_identifier_t`): the CM request behind it, consumed once by
 * `it_ep_accept`, `it_reject` or `it_handoff`.
 */
export declare class PendingRequest implements it_cn_est_identifier_t {
    readonly ia: Ia;
    readonly cm: CmConnectRequest | IbItRequest;
    readonly suppressIrdOrd: boolean;
    readonly [IT_ID_KIND]: "cn_est_id";
    consumed: boolean;
    /** Dropped because the CM_REQ SEVD was full: never shown to the Consumer. */
    held: boolean;
    /** The CONN_REQUEST Event delivered for it (re-delivered by `it_handoff`). */
    event: it_conn_request_event_t | null;
    constructor(ia: Ia, cm: CmConnectRequest | IbItRequest, suppressIrdOrd: boolean);
    consume(): void;
    /** `it_ia_free`: ends a request nobody will answer. */
    terminate(): void;
}
/**
 * Queues `IT_CM_REQ_CONN_REQUEST_EVENT` for `req` on the Listen's SEVD. A full SEVD drops the
 * request (digest §2.5): it is left unanswered, so the active side times out
 * (`IT_CN_REJ_TIMEOUT`), and forgotten when the Initiator gives up.
 */
export declare function deliverRequest(listen: Listen, req: PendingRequest, original?: it_conn_request_event_t | null): void;
/** A Shared Receive Queue: one RNICPI SRQ. */
export declare class Srq extends ItObject implements ItAsyncTarget {
    private readonly ia_;
    readonly pz: Pz;
    srq: ri_srq_handle_t;
    maxRecvDtos: number;
    maxRecvSegs: number;
    readonly [IT_HANDLE_KIND]: HT.IT_HANDLE_TYPE_SRQ;
    readonly recvs: Map<bigint, RecvRec>;
    private nextId;
    /** Receives posted / completed (any status) / completion dequeued. */
    posted: number;
    consumed: number;
    retired: number;
    /** Endpoints using the S-RQ (`IT_ERR_SRQ_BUSY`). */
    users: number;
    /** IT-API low watermark while armed; 0 = disarmed. */
    lowWatermark: number;
    constructor(ia_: Ia, pz: Pz, srq: ri_srq_handle_t, maxRecvDtos: number, maxRecvSegs: number);
    get ia(): Ia;
    get outstanding(): number;
    post(rec: RecvRec, sgl: ri_data_seg_t[]): void;
    /** Arms the low watermark `lw` (> 0). The RNIC's SRQ limit fires at "≤ lowat" (lowat = lw − 1). */
    arm(lw: number): RiRet;
    /**
     * A watermark of 1 ("below one Receive", i.e. empty) cannot be an RNICPI limit (lowat 0
     * disarms): the IT-API layer checks it on each S-RQ Receive completion.
     */
    checkLowWatermark(): void;
    private fire;
    onRiAsync(ev: ri_event_record_t): void;
    destroy(): void;
}
/** The attributes an `it_ep_attributes_t` asks for, flattened (validated by the caller). */
export declare function epAttrsOf(a: it_ep_attributes_t): EpAttrs;

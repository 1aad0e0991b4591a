/**
 * The InfiniBand Communication Manager (IBTA Vol. 1 chapter 12) for the RoCE device: the
 * connection state machines of the active and the passive side (§12.9), Service ID Resolution
 * (§12.11), retransmission with MaxCMRetries and the CM response timeouts, MRA, TIMEWAIT, the
 * exact rejects, and duplicate handling, over an abstract GSI port (QP1).
 *
 * It is the IB counterpart of the iWARP CM (`src/iwarp/cm.ts`): a consumer-side service that
 * knows QPs only by number. The consumer (rdma_cm / IT-API over RoCE) moves its QP through
 * RTR/RTS with the values the events carry, then calls `ready()` (RTU) or `accept()` (REP).
 *
 * Where the IBTA leaves a choice, this follows what Linux `ib_cm` (drivers/infiniband/core/cm.c)
 * puts on the wire, so that a Linux rxe peer sees what it would see from another Linux host;
 * deviations are listed in docs/spec-notes.md ("InfiniBand CM").
 *
 * States (Linux `enum ib_cm_state`, IBTA §12.9.6 figures):
 *
 * ```text
 *  active:  IDLE → REQ_SENT ─MRA→ MRA_REQ_RCVD ─REP→ REP_RCVD ─mra()→ MRA_REP_SENT
 *                   └──────────REP──────────────┘    └ready()→ ESTABLISHED ←───────┘
 *  passive: (listen) REQ → REQ_RCVD ─mra()→ MRA_REQ_SENT ─accept()→ REP_SENT ─MRA→ MRA_REP_RCVD
 *                                                         RTU (or establish()) → ESTABLISHED
 *  both:    ESTABLISHED ─disconnect()→ DREQ_SENT ─DREP/timeout→ TIMEWAIT → IDLE
 *           ESTABLISHED ─DREQ→ DREQ_RCVD ─disconnect()→ (DREP) TIMEWAIT → IDLE
 * ```
 *
 * @packageDocumentation
 */
import { CmMsgResponse, CmTransport, type CmMessage, type CmRej, type CmRep, type CmReq, type CmSidrRep, type CmSidrReq, SidrStatus } from '../wire/ib/cm.js';
import { type GsiAddress, type GsiPort, type Timers } from './gsi.js';
/** IBTA timeout encoding: 4.096 µs × 2^t, in milliseconds (§12.7.x "…Timeout" fields, §9.7.6.1.3). */
export declare function ibTimeoutMs(t: number): number;
/**
 * The QP Local ACK Timeout for a path: the round trip (2 × packet life time) plus the
 * responder's ACK delay, as a 5-bit exponent. In log2 terms the sum of two powers is the
 * larger one, plus one when they are within one of each other (Linux `cm_ack_timeout`).
 */
export declare function cmAckTimeout(caAckDelay: number, packetLifeTime: number): number;
/** The connection states (IBTA Vol. 1 §12.9; names of Linux `enum ib_cm_state`). */
export type IbCmState = 'IDLE' | 'REQ_SENT' | 'REQ_RCVD' | 'MRA_REQ_SENT' | 'MRA_REQ_RCVD' | 'REP_SENT' | 'REP_RCVD' | 'MRA_REP_SENT' | 'MRA_REP_RCVD' | 'ESTABLISHED' | 'DREQ_SENT' | 'DREQ_RCVD' | 'TIMEWAIT';
/** What a connection reports to its consumer. */
export type IbCmEvent = 
/** Active: the peer's CM asked for more time (MRA for our REQ). */
{
    type: 'mra';
    serviceTimeout: number;
}
/** Active: the REP; move the QP to RTR/RTS with it, then `ready()` (or `reject()`). */
 | {
    type: 'rep';
    rep: CmRep;
}
/** Passive: the RTU arrived (or `establish()` was called); the connection is up. */
 | {
    type: 'established';
    privateData: Uint8Array;
}
/** The peer refused (or answered a stale connection). */
 | {
    type: 'rejected';
    reason: number;
    ari: Uint8Array;
    privateData: Uint8Array;
    msgRejected: CmMsgResponse;
}
/**
 * Our REQ or REP was never answered after MaxCMRetries retransmissions (Linux REQ_ERROR/REP_ERROR),
 * or, passive, the listener's limits ended the connection before it was established: `REP` when
 * its REP was awaiting the RTU (the peer got REJ Timeout), `decision` when the consumer had not
 * accepted or rejected the REQ in time or it was evicted undecided (the peer got REJ 3, No
 * Resources) ({@link IbCmListenLimits}).
 */
 | {
    type: 'timeout';
    message: 'REQ' | 'REP' | 'decision';
}
/** The peer disconnected (DREQ); answer with `disconnect()` (DREP). */
 | {
    type: 'dreq';
    privateData: Uint8Array;
}
/** Our DREQ was answered (DREP) or timed out. */
 | {
    type: 'disconnected';
    privateData: Uint8Array;
    timedOut: boolean;
}
/** TIMEWAIT is over: the comm ID and the (CA GUID, QPN) pair are free again. */
 | {
    type: 'timewait-exit';
};
/** A pending SIDR exchange of the active side reports one of these. */
export type IbCmSidrEvent = {
    type: 'sidr-rep';
    rep: CmSidrRep;
    from: GsiAddress;
} | {
    type: 'timeout';
};
/** What a listener receives. */
export type IbCmListenEvent = {
    type: 'req';
    conn: IbCmConnection;
    req: CmReq;
    from: GsiAddress;
} | {
    type: 'sidr-req';
    request: IbCmSidrRequest;
};
/** The active side's parameters (IBTA Table 106; defaults are what Linux rdma_cm sends on RoCE). */
export interface IbCmConnectParams {
    /** The peer's GID (its CM is at QPN 1 unless `destQpn` says otherwise). */
    destGid: Uint8Array;
    destQpn?: number;
    /** Our GID for this path; must be one of the CM's GIDs. */
    localGid: Uint8Array;
    serviceId: bigint;
    qpn: number;
    startingPsn: number;
    /** RC (default) or UC. */
    transport?: CmTransport.RC | CmTransport.UC;
    qkey?: number;
    responderResources?: number;
    initiatorDepth?: number;
    retryCount?: number;
    rnrRetryCount?: number;
    /** 1..5 (256..4096); default 3 (1024), the rxe active MTU on a 1500-octet link. */
    pathMtu?: number;
    pkey?: number;
    hopLimit?: number;
    trafficClass?: number;
    flowLabel?: number;
    sl?: number;
    /** Default 18 (`CMA_IBOE_PACKET_LIFETIME`). */
    packetLifeTime?: number;
    /** The peer may take 4.096 µs × 2^t to answer (default 20, as rdma_cm). */
    remoteCmResponseTimeout?: number;
    /** We answer a REP within 4.096 µs × 2^t (default 20). */
    localCmResponseTimeout?: number;
    /** Default 15 (`CMA_MAX_CM_RETRIES`). */
    maxCmRetries?: number;
    srq?: boolean;
    privateData?: Uint8Array;
}
/** The passive side's REP parameters (IBTA Table 110). */
export interface IbCmAcceptParams {
    qpn: number;
    startingPsn: number;
    qkey?: number;
    responderResources?: number;
    initiatorDepth?: number;
    rnrRetryCount?: number;
    failoverAccepted?: number;
    e2eFlowControl?: boolean;
    srq?: boolean;
    privateData?: Uint8Array;
}
/** Options of {@link IbCm}. */
export interface IbCmOptions {
    port: GsiPort;
    /** Our CA (node) GUID: with the comm ID it names a connection (IBTA §12.9.1). */
    caGuid: bigint;
    /** The GID table of the port (index = sgid_index), read on each REQ. */
    gids: () => readonly Uint8Array[];
    timers?: Timers;
    /** Source of randomness for comm IDs and TIDs (default Math.random); seed it in tests. */
    random?: () => number;
    /** The CA's ACK delay exponent for REP TargetACKDelay (default 15, rxe's). */
    caAckDelay?: number;
    /** TIMEWAIT duration; default 4.096 µs × 2^(the path's Local ACK Timeout), as Linux. */
    timewaitMs?: number;
    /** Connections and pending SIDR requests at once (default 65536). */
    maxConnections?: number;
    /**
     * The longest wait a peer may ask of us, as a timeout exponent (4.096 µs × 2^t): a REQ's Local
     * CM Response Timeout and Local ACK Timeout (our REP retransmission interval and TIMEWAIT) and
     * the ServiceTimeout of an MRA for our REP are cut to it. Default 22 (about 17 s): above the
     * 20 (4.3 s) Linux rdma_cm sends, far below the 31 (2.4 hours) a hostile REQ may carry.
     */
    maxResponseTimeout?: number;
    /** Defaults of every listener's limits ({@link IBCM_LISTEN_LIMITS}). */
    listenLimits?: Partial<IbCmListenLimits>;
}
/**
 * A listener's bounds on the passive connections peers make it hold before they are
 * established: *half-open* = REQ_RCVD, MRA_REQ_SENT (the consumer decides), REP_SENT,
 * MRA_REP_RCVD (the REP awaits its RTU). As the iWARP listener's (`CM_LISTEN_LIMITS` in
 * `src/iwarp/cm.ts`): per source and per listener, in time, and full means the oldest goes, not
 * the newest. A source is the GRH source GID a REQ arrived with; RoCEv2 cannot authenticate it
 * (a spoofed source is one more source), so the per-listener cap and the timers are what bound
 * a spoofing peer, while a legitimate active side, which answers the REP at once, leaves the
 * half-open set within a round trip.
 */
export interface IbCmListenLimits {
    /** Half-open connections per listener; a new REQ beyond it evicts the oldest (REJ 3 if undecided, REJ Timeout if its REP awaits the RTU). */
    maxHalfOpen: number;
    /** Half-open connections per source GID; a new REQ beyond it evicts that source's oldest. */
    maxHalfOpenPerSource: number;
    /** How long a REQ may wait for the consumer's accept/reject before the CM rejects it (REJ 3, No Resources); 0 = no limit. */
    acceptTimeoutMs: number;
    /** Under pressure (half-open at half of `maxHalfOpen` or more) a REP awaits its RTU this long in all (one retransmission). */
    pressureTimeoutMs: number;
}
/** The listener limits and their defaults (docs/spec-notes.md, "InfiniBand CM"). A rule table. */
export declare const IBCM_LISTEN_LIMITS: Readonly<Record<keyof IbCmListenLimits, {
    readonly default: number;
    readonly why: string;
}>>;
/** Counters of one CM, for tests and diagnostics. */
export interface IbCmStats {
    sent: Record<string, number>;
    received: Record<string, number>;
    retransmits: number;
    duplicates: number;
    malformed: number;
    unmatched: number;
    /** Half-open passive connections evicted for newer REQs (per source or per listener). */
    evicted: number;
    /** REQs the consumer left undecided past `acceptTimeoutMs`. */
    expired: number;
}
/** The IB CM of one RNIC port. */
export declare class IbCm {
    #private;
    readonly caGuid: bigint;
    readonly timers: Timers;
    readonly caAckDelay: number;
    readonly timewaitMs: number | undefined;
    readonly maxConnections: number;
    readonly stats: IbCmStats;
    readonly maxResponseTimeout: number;
    readonly listenLimits: Readonly<IbCmListenLimits>;
    constructor(opts: IbCmOptions);
    /** Listens on a service ID (exact match). Throws if one is there already (EADDRINUSE). */
    listen(serviceId: bigint, handler: (ev: IbCmListenEvent) => void, opts?: {
        backlog?: number;
        limits?: Partial<IbCmListenLimits>;
    }): IbCmListener;
    /** @internal */
    unlisten(l: IbCmListener): void;
    /** Sends a REQ (IBTA §12.9.5.1) and returns the connection in REQ_SENT. RangeError on bad parameters. */
    connect(p: IbCmConnectParams, onEvent: (ev: IbCmEvent) => void): IbCmConnection;
    /** Sends a SIDR_REQ (IBTA §12.11.1) and reports the SIDR_REP or a timeout. */
    sidrRequest(p: {
        destGid: Uint8Array;
        destQpn?: number;
        /** Our GID to send from (default: the port's first). */
        localGid?: Uint8Array;
        serviceId: bigint;
        pkey?: number;
        privateData?: Uint8Array;
        /** Default: 2 × 4.096 µs × 2^18 + 4.096 µs × 2^20, as a REQ. */
        timeoutMs?: number;
        maxRetries?: number;
    }, onEvent: (ev: IbCmSidrEvent) => void): IbCmSidrPending;
    /**
     * True while a request MAD (REQ, REP, DREQ, SIDR_REQ) awaits its answer and would be
     * retransmitted: closing the port now would leave the peer without it.
     */
    get busy(): boolean;
    /** Closes the CM: every connection is destroyed as by `destroy()`, then the port stops. */
    close(): void;
    /** @internal A fresh TransactionID: a random high half and a counter (§13.4.6.4). */
    newTid(): bigint;
    /** @internal Sends one MAD (no retransmission). */
    send(to: GsiAddress, mad: Uint8Array, msg: CmMessage): void;
    /**
     * @internal Sends a request MAD and retransmits it every `x.timeoutMs` up to
     * `x.maxRetries` times (IBTA §12.9.3 "MaxCMRetries"; Linux: the MAD layer's retries), then
     * calls `exhausted`. An MRA stretches the current wait (see `#mraReceived`).
     */
    sendReliable(x: Retransmitter, mad: Uint8Array, msg: CmMessage, exhausted: () => void): void;
    /** @internal */
    cancelRetransmit(x: Retransmitter): void;
    /** @internal A REJ answering `c` in its current state (Linux `cm_format_rej`). */
    rejFor(c: IbCmConnection, reason: number, ari: Uint8Array, privateData: Uint8Array): CmRej;
    /** @internal Our CA GUID as the 8-octet ARI of a REJ Timeout. */
    caGuidAri(): Uint8Array;
    /** REQ or REP unanswered: REJ Timeout with our CA GUID as ARI (IBTA REJ reason 4), back to IDLE. */
    /** @internal */
    requestTimedOut(c: IbCmConnection, message: 'REQ' | 'REP' | 'decision'): void;
    /** @internal Registers `c` under its remote identity (comm ID and QPN). */
    bindRemote(c: IbCmConnection): void;
    /** @internal Forgets `c` entirely (IDLE). */
    toIdle(c: IbCmConnection): void;
    /**
     * @internal TIMEWAIT (IBTA §12.9.7.2): the connection keeps its comm ID and (CA GUID, QPN)
     * so that late or stale messages are recognised, for about one ACK timeout, then goes IDLE.
     */
    enterTimewait(c: IbCmConnection): void;
    /** @internal */
    sidrDone(s: IbCmSidrPending): void;
    /** @internal */
    sidrInDone(r: IbCmSidrRequest): void;
    /** @internal */
    sendSidrRep(r: IbCmSidrRequest, rep: CmSidrRep): Uint8Array;
}
/** Something with an outstanding request MAD that is retransmitted until answered. */
interface Retransmitter {
    readonly name: string;
    peer: GsiAddress;
    timeoutMs: number;
    maxRetries: number;
    retries: number;
    timer: unknown;
    outstanding: {
        mad: Uint8Array;
        msg: CmMessage;
        exhausted: () => void;
    } | undefined;
}
/** A listener on one service ID. */
export declare class IbCmListener {
    #private;
    readonly cm: IbCm;
    readonly serviceId: bigint;
    /** @internal */ readonly handler: (ev: IbCmListenEvent) => void;
    /** At most this many undecided REQs; more are rejected with NO_RESOURCES (3). */
    readonly backlog: number;
    readonly limits: Readonly<IbCmListenLimits>;
    /** Connections of this listener the consumer has not accepted or rejected yet. */
    readonly undecided: Set<IbCmConnection>;
    /** Passive connections not established yet, oldest first ({@link IbCmListenLimits}). */
    readonly halfOpen: Set<IbCmConnection>;
    /** The half-open connections of each source GID (hex), oldest first; no empty entries. */
    readonly bySource: Map<string, Set<IbCmConnection>>;
    constructor(cm: IbCm, serviceId: bigint, 
    /** @internal */ handler: (ev: IbCmListenEvent) => void, 
    /** At most this many undecided REQs; more are rejected with NO_RESOURCES (3). */
    backlog: number, limits?: Readonly<IbCmListenLimits>);
    /** Half-open connections of the source GID `gid`. */
    heldBy(gid: Uint8Array): number;
    /** @internal `c` is no longer half-open. */
    forget(c: IbCmConnection): void;
    close(): void;
}
/** One connection (a Linux `ib_cm_id`), active or passive. */
export declare class IbCmConnection implements Retransmitter {
    #private;
    readonly cm: IbCm;
    readonly localCommId: number;
    readonly role: 'active' | 'passive';
    state: IbCmState;
    remoteCommId: number;
    remoteCaGuid: bigint;
    localQpn: number;
    remoteQpn: number;
    serviceId: bigint;
    /** The REQ sent (active) or received (passive). */
    req: CmReq | undefined;
    /** The REP received (active) or sent (passive). */
    rep: CmRep | undefined;
    /** The TID of the current exchange: the REQ's for REP/RTU/MRA/REJ, the DREQ's for the DREP. */
    tid: bigint;
    peer: GsiAddress;
    packetLifeTime: number;
    localAckTimeout: number;
    timeoutMs: number;
    maxRetries: number;
    retries: number;
    timer: unknown;
    twTimer: unknown;
    outstanding: Retransmitter['outstanding'];
    /** The last response sent (MRA, REP or RTU), sent again when its trigger is duplicated. */
    lastSent: {
        mad: Uint8Array;
        msg: CmMessage;
    } | undefined;
    drepPrivateData: Uint8Array;
    onEvent: ((ev: IbCmEvent) => void) | undefined;
    /** The listener a passive connection came from. */
    listener: IbCmListener | undefined;
    /** Passive: the source GID (hex) its REQ came from, for the per-source cap. */
    source: string | undefined;
    /** Passive: the consumer's deadline for accept/reject (`acceptTimeoutMs`). */
    decideTimer: unknown;
    constructor(cm: IbCm, localCommId: number, role: 'active' | 'passive');
    get name(): string;
    /** @internal */
    setState(s: IbCmState): void;
    /** @internal */
    stopDecideTimer(): void;
    /** @internal */
    emit(ev: IbCmEvent): void;
    /** Passive: sends an MRA for the REQ (serviceTimeout 5 bits), or active: for the REP. */
    mra(serviceTimeout: number, privateData?: Uint8Array): void;
    /** Passive: accepts the REQ with a REP (IBTA §12.9.5.2), retransmitted until the RTU. */
    accept(p: IbCmAcceptParams): void;
    /** Active: the QP is ready; sends the RTU (IBTA §12.9.5.1). The connection is established. */
    ready(privateData?: Uint8Array): void;
    /**
     * Passive: data arrived on the QP before the RTU (the COMM_EST affiliated event): the
     * connection is established without it (IBTA §12.9.5.2; Linux `ib_cm_notify`).
     */
    establish(): void;
    /**
     * Rejects the REQ (passive) or the REP (active) with `reason` (default 28, consumer
     * defined) and private data (≤ 148 octets). Linux `ib_send_cm_rej`.
     */
    reject(privateData?: Uint8Array, reason?: number, ari?: Uint8Array): void;
    /**
     * Disconnects: from ESTABLISHED sends a DREQ (retransmitted until the DREP, then TIMEWAIT);
     * after the peer's DREQ sends the DREP and enters TIMEWAIT (IBTA §12.9.7). Idempotent in
     * DREQ_SENT and TIMEWAIT.
     */
    disconnect(privateData?: Uint8Array): void;
    /**
     * Destroys the connection as Linux `cm_destroy_id` does: a pending REQ gets REJ Timeout, an
     * undecided one REJ 28, an established one a DREQ, a received DREQ its DREP. No event is
     * reported afterwards; TIMEWAIT still runs so stale messages are recognised.
     */
    destroy(): void;
}
/** An active SIDR request awaiting its SIDR_REP. */
export declare class IbCmSidrPending implements Retransmitter {
    readonly cm: IbCm;
    readonly requestId: number;
    readonly onEvent: (ev: IbCmSidrEvent) => void;
    peer: GsiAddress;
    timeoutMs: number;
    maxRetries: number;
    retries: number;
    timer: unknown;
    outstanding: Retransmitter['outstanding'];
    done: boolean;
    constructor(cm: IbCm, requestId: number, onEvent: (ev: IbCmSidrEvent) => void);
    get name(): string;
    destroy(): void;
}
/** An incoming SIDR request, answered once with `reply()` or `reject()`. */
export declare class IbCmSidrRequest {
    #private;
    readonly cm: IbCm;
    /** @internal */ readonly key: string;
    readonly req: CmSidrReq;
    readonly tid: bigint;
    readonly from: GsiAddress;
    reply: CmSidrRep | undefined;
    replyMad: Uint8Array | undefined;
    expireTimer: unknown;
    constructor(cm: IbCm, 
    /** @internal */ key: string, req: CmSidrReq, tid: bigint, from: GsiAddress);
    /** Answers with status Success, the UD QP and its Q_Key (IBTA §12.11.2). */
    accept(p: {
        qpn: number;
        qkey: number;
        privateData?: Uint8Array;
        info?: Uint8Array;
    }): void;
    /** Answers with a failure status (default REJECT). */
    reject(status?: SidrStatus, privateData?: Uint8Array): void;
    /** @internal Forgets the request (its duplicates are new requests again). */
    expire(): void;
}
export {};

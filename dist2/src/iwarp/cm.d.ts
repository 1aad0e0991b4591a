/**
 * iWARP connection management: listen, connect, accept, reject and socket conversion, with the
 * MPA start-up exchange (RFC 5044 §7.1, RFC 6581) between TCP establishment and RDMA mode.
 *
 * This is the connection manager the IT-API (TII `it_listen_create`, `it_ep_connect`,
 * `it_ep_accept`, `it_reject`; TDI `it_socket_convert`, IT-API §6) and the rdma_cm face both sit
 * on. RNICPI leaves everything before RDMA mode to the host stack (RNICPI 1.0 §6.1.3–6.1.4): this
 * module *is* that host stack, and a consumer of RNICPI like any other. It owns the TCP socket
 * while the stream is in streaming mode, runs the Request/Reply exchange and its negotiation (the
 * rules live in `mpa-startup.ts`), then hands the stream to the QP with `ri_qp_modify` (Idle→RTS
 * with the LLP handle, the MPA attributes, IRD, ORD and the last streaming message). It sees the
 * QP only as a {@link CmQp}: `ri_qp_query`, `ri_qp_modify` and the RNIC's attributes, never the
 * engine's objects ({@link riCmQp} builds one over an RNICPI ops vector).
 *
 * Guarantees:
 * - every attempt ends in exactly one outcome: `cmConnect` settles once; a connection request
 *   is accepted, rejected or aborted once; a listener reports a failed handshake once;
 * - every failure before RTS destroys the socket and clears its timers, and leaves the QP in
 *   Idle (Modify QP is all-or-nothing, so a failed Idle→RTS changes nothing);
 * - slow or hostile peers are bounded in time (the MPA Request timer at the Responder, 5 s, 1 s
 *   under pressure; the Reply timer at the Initiator, 10 s — siw's `MPAREQ_TIMEOUT`/
 *   `MPAREP_TIMEOUT`; a request the ULP leaves unanswered is rejected after 8 s) and in number,
 *   fairly (per source address and per listener, see {@link CM_LISTEN_LIMITS}): a listener that
 *   is full evicts its oldest half-open connection rather than refuse the newest, so a peer that
 *   opens connections and sends nothing cannot lock others out.
 *
 * {@link cmStats} counts what the CM holds (listeners, sockets, timers, connects in progress)
 * so tests can prove that nothing leaks.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import type { ri_ops_t } from '../rnicpi/ops.js';
import { RiRet } from '../rnicpi/status.js';
import { RiQpState, type ri_qp_handle_t, type ri_rnic_handle_t } from '../rnicpi/types.js';
import { TerminateError } from '../wire/errors.js';
import { type RtrType } from './llp.js';
import { type IrdOrdMode, type MpaAgreement, type MpaPolicy, type MpaRequestInfo, type ResponderConfig } from './mpa-startup.js';
/**
 * The MPA attributes the CM programs into a QP (RNICPI 1.0 §8 `ri_mpa_attr_t`, in the CM's
 * spelling): Marker use per direction, CRC, and the DDP/RDMAP version (1 = IETF).
 */
export interface MpaAttrs {
    recvMarkers: boolean;
    xmitMarkers: boolean;
    crc: boolean;
    ddpRdmapVersion: number;
}
/** What the CM reads of its QP (RNICPI 1.0 Ch. 7 `ri_qp_query`). */
export interface CmQpInfo {
    state: RiQpState;
    /** `max_rdma_read_incoming`. */
    ird: number;
    /** `max_rdma_read_outgoing`. */
    ord: number;
    /** `enable_rdma_read`: a Read RTR (RFC 6581) needs it on the Responder. */
    enableRdmaRead: boolean;
    /**
     * `llp_stream_handle` is set: the QP holds a stream. Only a QP in Idle without one can be
     * connected (RNICPI 1.0 §6.1.4: the handle is given on the Idle→RTS modify).
     */
    llpAttached: boolean;
}
/** What the CM asks of its QP on Idle→RTS or at teardown (RNICPI 1.0 Ch. 7 `ri_qp_modify`). */
export interface CmQpModify {
    nextState: RiQpState;
    /** `RI_QP_ATTR_LLQ_STREAM_HANDLE`: the stream the QP takes over (RNICPI 1.0 §6.1.4). */
    llp?: unknown;
    /** `RI_QP_ATTR_MPA_ATTR`: the negotiated MPA attributes, set with the handle (§6.1.4). */
    mpa?: MpaAttrs;
    /** `RI_QP_ATTR_MAX_RDMA_READ_INCOMING`. */
    ird?: number;
    /** `RI_QP_ATTR_MAX_RDMA_READ_OUTGOING`. */
    ord?: number;
    /** `RI_QP_ATTR_STREAM_MSG_BUFFER`: the last streaming-mode message (the MPA Reply), Idle→RTS only. */
    streamMsg?: Uint8Array;
}
/** The RNIC's limits the CM negotiates within (RNICPI 1.0 §8 `ri_rnic_attr_t`). */
export interface CmQpCaps {
    maxIrdPerQp: number;
    maxOrdPerQp: number;
}
/**
 * The QP a connection is made for, as the CM sees it. The CM is a consumer of RNICPI (RNICPI 1.0
 * §6.1.3–6.1.5: everything before RDMA mode belongs to the host stack): it only queries the QP,
 * moves it Idle→RTS with the stream and the negotiated attributes, and later to Closing,
 * Terminate or Error — all through `ri_qp_modify`. {@link riCmQp} implements it over an RNICPI
 * ops vector; any other object with these calls (a test double, another transport) will do.
 */
export interface CmQp {
    /** The QP number, for log lines (`QP[17] ...`). */
    readonly id: number;
    /** The QP's current attributes, or null once the QP is gone (destroyed, handle invalid). */
    query(): CmQpInfo | null;
    /** One `ri_qp_modify`; all-or-nothing (a failure changes nothing). */
    modify(m: CmQpModify): RiRet;
    /** The RNIC's IRD/ORD limits. */
    caps(): CmQpCaps;
    /** Whether the RNIC can send and accept MPA Markers (RFC 5044 §5). */
    markersSupported(): boolean;
}
/**
 * The {@link CmQp} of an RNICPI QP: `ri_qp_query` / `ri_qp_modify` on `qp` through `ops`, the
 * limits from `ri_rnic_query`. One object per QP handle, so "already connecting" is seen
 * whichever face asks.
 *
 * RNICPI 1.0 has no RNIC attribute for Marker support (`RI_IWARP_PREFER_MARKERS` is a
 * preference, §8 `ri_iwarp_rnic_attr_t`); an RNIC that cannot use them answers
 * `MPA_ATTR_UNSUPPORTED` to `ri_qp_modify` with `RI_QP_ATTR_MPA_ATTR` (§6.1.4). So the adapter asks
 * an Idle QP once per RNIC handle: Markers on, then the QP's own attributes back.
 */
export declare function riCmQp(ops: ri_ops_t, rnic: ri_rnic_handle_t, qp: ri_qp_handle_t): CmQp;
/** Why a connection attempt or request ended without a connection. */
export type CmErrorKind = 
/** The peer's MPA Reply had R set (IT-API `IT_CM_MSG_CONN_PEER_REJECT_EVENT`); see `privateData`. */
'rejected'
/** The MPA Reply (Initiator) or Request (Responder) did not arrive in time. */
 | 'timeout'
/** TCP connect refused (ECONNREFUSED). */
 | 'refused'
/** No route, unknown host, address not available. */
 | 'unreachable'
/** The peer reset the TCP connection. */
 | 'reset'
/** The peer closed the TCP connection (FIN) during the exchange. */
 | 'closed'
/** The peer's frame breaks RFC 5044/6581; `terminate` holds the MPA error. */
 | 'protocol'
/** CRC or Marker negotiation refused by a policy (ours or, for a rejected conversion, theirs). */
 | 'policy'
/** The peer speaks an MPA revision we do not (IT-API `IT_CN_REJ_BAD_CONN_PARMS`). */
 | 'bad-revision'
/** RFC 6581 P2P: no RTR type both sides accept. */
 | 'no-matching-rtr'
/** IRD/ORD could not be reconciled (RFC 6581 "Insufficient IRD", or strict mode). */
 | 'ird-ord'
/** Bad arguments or a QP in the wrong state (nothing was sent). */
 | 'invalid'
/** Cancelled through the AbortSignal (IT-API: `it_ep_disconnect` on a pending connect). */
 | 'aborted'
/** Modify QP refused the transition; `ret` holds its status. */
 | 'qp'
/**
 * Ended by a listener limit ({@link CM_LISTEN_LIMITS}): a half-open connection evicted for a
 * newer one, or a Request beyond the request caps (answered with an R Reply).
 */
 | 'overload';
export declare class CmError extends Error {
    readonly kind: CmErrorKind;
    readonly code = "ERR_SOFTRDMA_CM";
    /** The peer's private data of a rejecting Reply. */
    readonly privateData: Uint8Array | null;
    /** The MPA error found in the peer's frame (or sent in a Terminate). */
    readonly terminate: TerminateError | null;
    /** Modify QP's status for kind `qp`. */
    readonly ret: RiRet | null;
    /** The revision the peer spoke, for kind `bad-revision`. */
    readonly revision: number | null;
    constructor(kind: CmErrorKind, message: string, extra?: {
        privateData?: Uint8Array;
        terminate?: TerminateError;
        ret?: RiRet;
        revision?: number;
        cause?: unknown;
    });
}
/** Counts of everything the CM currently holds; all zero once every connection is gone. */
export interface CmStats {
    /** Open listeners. */
    listeners: number;
    /** Sockets created or accepted by the CM (or handed to it) that are not closed yet. */
    sockets: number;
    /** CM timers armed (MPA timeouts, close grace). */
    timers: number;
    /** `cmConnect`/`cmConvertSocket` calls not settled yet. */
    connecting: number;
    /** Connection requests delivered and not yet accepted, rejected or aborted. */
    requests: number;
    /** Accepted TCP connections still waiting for their MPA Request. */
    handshakes: number;
}
export declare function cmStats(): CmStats;
/** How long a socket we closed gracefully may wait for the peer's FIN before it is reset. */
export declare const CLOSE_GRACE_MS = 1000;
/** A streaming-mode message on the wire, as a trace hook sees it (exact bytes). */
export interface CmTraceEvent {
    dir: 'tx' | 'rx';
    what: 'request' | 'reply' | 'stream-msg' | 'terminate';
    bytes: Uint8Array;
}
export type CmTrace = (ev: CmTraceEvent) => void;
/** MPA parameters of one side of a start-up exchange. */
export interface CmMpaParams {
    /** Revision of the Request, or the highest accepted by a Responder: 1 or 2 (default 2). */
    revision?: 1 | 2;
    /** CRC and Marker policy (default {@link DEFAULT_MPA_POLICY}). */
    policy?: Partial<MpaPolicy>;
    /** IRD/ORD resolution (default `relaxed`). */
    irdOrd?: IrdOrdMode;
    /** IRD/ORD to advertise and negotiate from (default: the QP's). */
    ird?: number;
    ord?: number;
    /**
     * Initiator, RFC 6581 peer-to-peer mode: the RTR types offered; `true` offers Write and Read
     * (as siw does). Revision 2 only.
     */
    p2p?: boolean | readonly RtrType[];
    /** Responder: the RTR type preference (default Write, Read, Send). */
    rtrPreference?: readonly RtrType[];
    /** ULP private data: ≤ 512 octets at revision 1, ≤ 508 at revision 2. */
    privateData?: Uint8Array;
    /** Sees every streaming-mode message sent or received, with its exact bytes. */
    trace?: CmTrace;
    /**
     * Offer (Initiator) or accept (Responder) softrdma's RDMAP extensions: RFC 7306 atomics and
     * Immediate Data, agreed through a reserved MPA bit that other peers ignore (default true).
     */
    rdmapExt?: boolean;
}
/**
 * How long an active connection is held back from its ULP after the MPA Reply, for consumer faces
 * that talk to Linux: siw's Responder sends its Reply before it hands the socket to the QP, and an
 * FPDU arriving in between (≈12 ms under emulation) is left unread (docs/spec-notes.md, "Interop
 * with Linux siw"). Kernel rdma_cm clients are slow enough never to hit it; a ULP told at once is
 * not. rdma_cm and IT-API pass this as {@link CmConnectParams.settleMs}.
 */
export declare const ACTIVE_SETTLE_MS = 50;
export interface CmConnectParams extends CmMpaParams {
    /**
     * Resolve this many ms after the QP reached RTS (default 0: at once, as RFC 5044 allows). The
     * QP already receives meanwhile; only the ULP's first post waits. See {@link ACTIVE_SETTLE_MS}.
     */
    settleMs?: number;
    /** Bounds the whole attempt, TCP connect through MPA Reply (default 10 s, siw's `MPAREP_TIMEOUT`). */
    timeoutMs?: number;
    localAddress?: string;
    localPort?: number;
    /** Aborts the attempt (IT-API: `it_ep_disconnect` on an EP in a connection-pending state). */
    signal?: AbortSignal;
}
/** What `SOFTRDMA_MPA` can set. */
export type CmEnvParams = Pick<CmConnectParams, 'revision' | 'policy' | 'p2p' | 'rtrPreference' | 'settleMs'> & Pick<Partial<CmListenLimits>, 'acceptTimeoutMs'>;
/**
 * MPA start-up settings from the environment, `SOFTRDMA_MPA="crc=require p2p=write,read rev=2"`:
 * the host-wide switches Linux siw has as module parameters (`mpa_crc_required`,
 * `peer_to_peer`, `mpa_version`), for consumers that cannot pass {@link CmMpaParams} themselves
 * (rdma_cm programs such as `softrdma rping` and `softrdma perf`). Keys, separated by spaces or
 * semicolons:
 * - `crc=never|allow|require` and `markers=refuse|allow|require` ({@link MpaPolicy});
 * - `rev=1|2`: the Request's revision, or the highest a Responder accepts;
 * - `p2p=none|write,read,send`: the RTR types an Initiator offers (RFC 6581 §4) and, in that
 *   order, a Responder's preference;
 * - `settle=MS`: {@link CmConnectParams.settleMs} (rdma_cm's default: {@link ACTIVE_SETTLE_MS});
 * - `accept=MS`: a listener's {@link CmListenLimits.acceptTimeoutMs}, how long a connection
 *   request may wait for `rdma_accept`/`rdma_reject` before the CM rejects it (0: no limit).
 * Throws a {@link CmError} (`invalid`) naming the bad key, so a typo never goes unnoticed.
 */
export declare function cmParamsFromEnv(value?: string | undefined): CmEnvParams;
/** How the connection was made. */
export type CmRole = 'active' | 'passive';
/**
 * One connection in RDMA mode. The QP owns the stream from here on (RNICPI Ch. 6.1.5); this
 * object reports when the TCP connection is finally closed (event `close`, exactly once) and
 * offers the three ways to end it, all of which are QP state changes (Verbs §6.2).
 */
export declare class CmConnection extends EventEmitter {
    readonly qp: CmQp;
    readonly socket: net.Socket;
    readonly role: CmRole;
    /** What was negotiated (null for a conversion without MPA start-up). */
    readonly agreement: MpaAgreement | null;
    /** The peer's ULP private data (without the RFC 6581 word). */
    readonly peerPrivateData: Uint8Array;
    /** True once the TCP connection is closed. */
    closed: boolean;
    readonly remoteAddress: string;
    readonly remotePort: number;
    readonly localAddress: string;
    readonly localPort: number;
    constructor(qp: CmQp, socket: net.Socket, role: CmRole, 
    /** What was negotiated (null for a conversion without MPA start-up). */
    agreement: MpaAgreement | null, 
    /** The peer's ULP private data (without the RFC 6581 word). */
    peerPrivateData: Uint8Array);
    private onClose;
    /**
     * Ends the connection through the QP: `graceful` (RTS→Closing: FIN once the queues are empty,
     * Verbs §6.2 T6), `terminate` (RTS→Terminate: a Terminate message, then close, T8) or
     * `abortive` (→Error: RST and flush, T12). Returns Modify QP's status.
     */
    disconnect(how?: 'graceful' | 'terminate' | 'abortive'): RiRet;
}
/**
 * Active connection establishment (IT-API `it_ep_connect`, RFC 5044 §7.1.2 Initiator): TCP
 * connect to `host:port`, MPA Request with the parameters, wait for the Reply, negotiate, and
 * move `qp` (which must be Idle) to RTS. Resolves with the connection once the QP is in RTS (in
 * P2P mode the RTR has been queued as its first FPDU); rejects with a {@link CmError} — kind
 * `rejected` carries the peer's private data. The QP stays Idle on every failure.
 */
export declare function cmConnect(qp: CmQp, host: string, port: number, params?: CmConnectParams): Promise<CmConnection>;
export interface CmListenOptions extends Omit<CmMpaParams, 'p2p' | 'privateData' | 'ird' | 'ord'>, Partial<CmListenLimits> {
    /** Address to bind (default all). */
    host?: string;
    /** TCP port; 0 (default) picks a free one. */
    port?: number;
}
/**
 * A listener's bounds on what peers can make it hold before the ULP has a connection: time,
 * number per listener and number per source address. One row per limit; the defaults are
 * {@link cmListenDefaults} (changeable process-wide with {@link setCmListenDefaults}), each
 * overridable per listener in {@link CmListenOptions}.
 *
 * A *half-open* connection is a TCP connection whose MPA Request is not complete yet (RFC 5044
 * §7.1.2: the Responder waits for it); a *request* is a valid Request delivered to the ULP and
 * not yet accepted or rejected.
 */
export interface CmListenLimits {
    /** TCP accept queue (`listen(2)` backlog; Linux caps it at `net.core.somaxconn`). */
    backlog: number;
    /** How long a half-open connection may take to complete its Request (siw's `MPAREQ_TIMEOUT`). */
    requestTimeoutMs: number;
    /**
     * How long a delivered request may wait for accept/reject before the CM rejects it (an MPA
     * Reply with R, then a FIN); 0 = no limit.
     */
    acceptTimeoutMs: number;
    /**
     * Half-open connections per listener. Newcomers are always admitted; above the cap the oldest
     * are evicted once older than `evictGraceMs` (a newcomer's Request has been read by then).
     */
    maxHalfOpen: number;
    /** Half-open connections per source address (IPv4 address, IPv6 /64); above it that source's oldest are evicted. */
    maxHalfOpenPerSource: number;
    /**
     * How old a half-open connection must be before it can be evicted for a newer one: a real
     * Initiator's Request has arrived by then. Twice the caps, the oldest go at once.
     */
    evictGraceMs: number;
    /**
     * Under pressure (half-open connections at half of `maxHalfOpen` or more), the Request timeout
     * of new half-open connections, and the age beyond which older ones are dropped.
     */
    pressureTimeoutMs: number;
    /** Delivered requests per listener; one more is refused with an R Reply. */
    maxRequests: number;
    /** Delivered requests per source address; one more is refused with an R Reply. */
    maxRequestsPerSource: number;
}
/**
 * The listener limits, their defaults and why (docs/spec-notes.md, "Timers and hostile peers").
 * A rule table: the listener reads the values from here; the docs list the same rows.
 */
export declare const CM_LISTEN_LIMITS: Readonly<Record<keyof CmListenLimits, {
    readonly default: number;
    readonly why: string;
}>>;
/** The listener limits a new listener starts from (see {@link CM_LISTEN_LIMITS}). */
export declare function cmListenDefaults(): Readonly<CmListenLimits>;
/**
 * Changes the process-wide defaults of later listeners (existing ones keep theirs); returns
 * the previous defaults. Values must be non-negative integers; the caps and `backlog` at least 1.
 */
export declare function setCmListenDefaults(limits: Partial<CmListenLimits>): CmListenLimits;
/**
 * The address a per-source cap counts by: an IPv4 address (IPv4-mapped IPv6 included) as is,
 * an IPv6 address by its /64 prefix, since one host commonly owns a whole /64 (RFC 4291 §2.5.1
 * interface identifiers are 64 bits).
 */
export declare function sourceKey(address: string): string;
/** A handshake that failed before (or instead of) a connection request. */
export interface CmFailure {
    kind: CmErrorKind;
    error: CmError;
    remoteAddress: string;
    remotePort: number;
}
/**
 * A passive endpoint (IT-API `it_listen_create`; RFC 5044 §7.1.2 Responder): accepts TCP
 * connections, reads and validates each MPA Request, and emits one `request` event
 * ({@link CmConnectRequest}) per valid Request for the ULP to accept or reject. Handshakes that
 * fail are answered as RFC 5044 asks (a Reply with R for an unsupported revision or a refused
 * policy; a reset for anything that is not MPA) and reported once as a `failure` event.
 *
 * What peers can make it hold is bounded fairly ({@link CM_LISTEN_LIMITS}): per source address
 * and per listener, in time, with the oldest half-open connection evicted rather than the newest
 * refused, so that legitimate Initiators, which send their Request at once, keep being served.
 */
export declare class CmListener extends EventEmitter {
    readonly server: net.Server;
    readonly cfg: ResponderConfig;
    /** The limits this listener runs with. */
    readonly limits: Readonly<CmListenLimits>;
    readonly trace: CmTrace | undefined;
    private closed;
    /** Half-open connections, oldest first (a Set keeps insertion order). */
    private readonly handshakes;
    private readonly sources;
    /** Sources above `maxHalfOpenPerSource`, for the next trim. */
    private readonly crowded;
    private trimTimer;
    /** @internal delivered, unanswered requests */
    readonly requests: Set<CmConnectRequest>;
    /**
     * `evicted`: half-open connections dropped for newer ones (per source or per listener) or by
     * the pressure timeout; `expired`: requests the ULP left unanswered past `acceptTimeoutMs`;
     * `refused`: Requests beyond the request caps; `dropped`: connections arriving while closing.
     */
    readonly stats: {
        connections: number;
        requests: number;
        accepted: number;
        rejected: number;
        aborted: number;
        failed: number;
        dropped: number;
        evicted: number;
        expired: number;
        refused: number;
    };
    private constructor();
    /** How long a half-open connection may take to complete its Request (outside pressure). */
    get requestTimeoutMs(): number;
    /** How long a delivered request may wait for the ULP (0: no limit). */
    get acceptTimeoutMs(): number;
    /** Opens a listener; resolves once it is bound. */
    static listen(opts?: CmListenOptions): Promise<CmListener>;
    /**
     * Opens a listener synchronously on all local addresses, for callers that must answer at once
     * (IT-API `it_listen_create` reports `IT_ERR_CONN_QUAL_BUSY` or the chosen port on return).
     * Without a host Node binds without a name lookup, so the outcome is known on return: the
     * listener, or null when the port cannot be bound (in use or not permitted).
     */
    static listenSync(opts?: Omit<CmListenOptions, 'host'>): CmListener | null;
    get port(): number;
    get pendingHandshakes(): number;
    get pendingRequests(): number;
    /** Half-open connections and delivered requests of one source address ({@link sourceKey}). */
    heldBy(address: string): {
        halfOpen: number;
        requests: number;
    };
    /** Source addresses holding anything right now. */
    get sourceCount(): number;
    /**
     * Stops listening (IT-API `it_listen_free`): handshakes still waiting for their Request are
     * reset; requests already delivered stay valid for accept/reject.
     */
    close(): Promise<void>;
    private fail;
    private use;
    private release;
    /** @internal a delivered request of `source` was answered, expired or aborted */
    requestSettled(r: CmConnectRequest): void;
    private endHandshake;
    /** Drops a half-open connection to make room (reset, reported as `overload` or `timeout`). */
    private evict;
    private onConnection;
    /**
     * Evictions wait `evictGraceMs`: Node accepts a whole accept queue before it reads any of the
     * new sockets, and a peer's Request may trail its TCP handshake a little, so evicting at accept
     * time could drop a connection whose Request is on its way. A legitimate Initiator sends its
     * Request right after TCP connect and leaves the half-open set within the grace; only peers
     * that sent nothing (or half a Request) grow older than it. Meanwhile the hard ceilings (twice
     * the caps) bound what is admitted.
     */
    private scheduleTrim;
    /**
     * The fair half-open limit, on connections older than the grace: a source above its cap loses
     * its own oldest; under pressure, connections older than the pressure timeout go; a listener
     * above its cap loses its oldest. The newest connection is never refused.
     */
    private trim;
    private onRequest;
}
/** Parameters of an accept (IT-API `it_ep_accept`). */
export interface CmAcceptParams {
    /** Local IRD/ORD to negotiate from (default: the QP's). */
    ird?: number;
    ord?: number;
    /** Private data of the Reply: ≤ 512 octets, ≤ 508 with the RFC 6581 word. */
    privateData?: Uint8Array;
    /**
     * Without an agreed RTR, hold our FPDUs until the Initiator's first one (RFC 5044 §7.1.2;
     * default true). Linux siw does not hold, and tools written for it rely on that
     * (perftest's ib_write_lat server writes first), so rdma_cm passes false.
     */
    awaitFirstRx?: boolean;
}
/**
 * One valid MPA Request awaiting the ULP's decision (IT-API `IT_CM_REQ_CONN_REQUEST_EVENT`): it
 * carries the peer's private data, IRD and ORD. It ends exactly once: `accept`, `reject`, or
 * `aborted` (event) when the peer goes away or sends data early (the socket is reset), or when
 * the ULP leaves it unanswered past the listener's `acceptTimeoutMs` (error kind `timeout`: the
 * CM rejects it as the ULP would, with an R Reply and a FIN, so the Initiator is told at once).
 */
export declare class CmConnectRequest extends EventEmitter {
    readonly listener: CmListener;
    readonly socket: net.Socket;
    readonly info: MpaRequestInfo;
    /** The peer's {@link sourceKey}, which the listener's per-source caps count by. */
    readonly source: string;
    state: 'pending' | 'accepted' | 'rejected' | 'aborted';
    readonly remoteAddress: string;
    readonly remotePort: number;
    readonly localAddress: string;
    readonly localPort: number;
    private timer;
    private watching;
    constructor(listener: CmListener, socket: net.Socket, info: MpaRequestInfo, 
    /** The peer's {@link sourceKey}, which the listener's per-source caps count by. */
    source?: string);
    /** The Request's MPA revision. */
    get revision(): number;
    /** RFC 6581 enhanced establishment in use (the peer's IRD/ORD are known). */
    get enhanced(): boolean;
    /** The Initiator's IRD (RFC 6581 word), or null without one. */
    get peerIrd(): number | null;
    /** The Initiator's ORD (RFC 6581 word), or null without one. */
    get peerOrd(): number | null;
    /** RTR types offered in RFC 6581 P2P mode, or null when not P2P. */
    get p2p(): readonly RtrType[] | null;
    /** The Initiator's ULP private data. */
    get privateData(): Uint8Array;
    /**
     * While the ULP decides, the socket is read: any octet now is a protocol error (the Initiator
     * must wait for the Reply), and a FIN or reset ends the request.
     */
    private watch;
    private unwatch;
    private readonly onData;
    private readonly onEnd;
    private settle;
    /**
     * The ULP did not answer in time: rejected for it (an R Reply without private data, then a
     * FIN), so the Initiator is refused rather than left waiting for its own timer, and the
     * listener's slot is free again. The ULP sees `aborted` with kind `timeout`.
     */
    private expire;
    private abort;
    /**
     * Accepts with `qp` (Idle): negotiates (see `responderAgree`), then Idle→RTS with the Reply as
     * the last streaming-mode message, so the QP's receive path is in place before the Initiator
     * can answer it (siw installs its callbacks before sending the Reply for the same reason). The
     * QP waits for the Initiator's first FPDU — in P2P mode, the RTR — before it sends anything
     * (RFC 5044 §7.1.2, RFC 6581).
     *
     * Throws a {@link CmError} when the request is no longer pending, or when the parameters or
     * the QP do not fit (kinds `invalid`, `ird-ord`, `no-matching-rtr`, `policy`, `qp`); in those
     * cases nothing was sent and the request stays pending, so the ULP may fix and retry, or reject.
     */
    accept(qp: CmQp, params?: CmAcceptParams): CmConnection;
    /**
     * Rejects (IT-API `it_reject`): a Reply with R set carrying `privateData` (RFC 5044 §7.1.1),
     * then a graceful close. The Initiator reports a peer reject with exactly this private data.
     */
    reject(privateData?: Uint8Array): void;
}
export interface CmConvertMpa extends CmMpaParams {
    /**
     * MPA role: by default the side that sends the last streaming-mode message is the MPA
     * Responder and the other the Initiator (IT-API §6.4: the Conversion Initiator waits for the
     * MPA Request).
     */
    role?: 'initiator' | 'responder';
    /** Bounds the MPA exchange; 0 = no limit (IT-API: conversion never times out). Default 10 s. */
    timeoutMs?: number;
    signal?: AbortSignal;
}
export interface CmConvertOptions {
    /** MPA start-up parameters, or `false` to go straight to RDMA mode (IT-API `IT_SC_NO_REQ_REP`). */
    mpa?: CmConvertMpa | false;
    /** The ULP's last streaming-mode message, sent just before the MPA exchange / RDMA mode. */
    lastStreamingMessage?: Uint8Array;
    /** Octets the ULP already read from the socket past its own last message (FPDUs or the Request). */
    pending?: Uint8Array;
    /** With `mpa: false`: the MPA attributes agreed by the ULP (default no CRC, no Markers). */
    mpaAttrs?: Partial<MpaAttrs>;
}
/**
 * Converts a connected streaming-mode socket into an RDMA-mode QP (IT-API `it_socket_convert`,
 * RNICPI Ch. 6.1.4 conversion). The ULP must have stopped reading the socket (its own `data`
 * listeners removed); from here the CM and then the QP own it.
 *
 * - With MPA start-up (default): optionally the last streaming message, then the Initiator or
 *   Responder half of RFC 5044 §7.1.2. The Responder accepts by itself (there is no ULP
 *   decision in a conversion) unless the policies clash, which rejects with R.
 * - With `mpa: false`: the last streaming message (if any) goes out as Modify QP's stream
 *   message and the QP enters RTS at once with `mpaAttrs`; the side that sent the message waits
 *   for the peer's first FPDU, mirroring the MPA roles.
 */
export declare function cmConvertSocket(qp: CmQp, socket: net.Socket, opts?: CmConvertOptions): Promise<CmConnection>;

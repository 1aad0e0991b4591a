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
import {
  CM_ARI_LEN,
  CmMsgResponse,
  CmRejReason,
  CmTransport,
  type CmDreq,
  type CmMessage,
  type CmMra,
  type CmRej,
  type CmRep,
  type CmReq,
  type CmRtu,
  type CmSidrRep,
  type CmSidrReq,
  decodeCmMad,
  emptyCmPath,
  encodeCmMad,
  SidrStatus,
  stringifyCmMessage,
  stringifyGid,
} from '../wire/ib/cm.js';
import { DEFAULT_PKEY, GSI_QKEY, GSI_QPN, hx } from '../wire/ib/mad.js';
import { logger } from '../util/log.js';
import { ibcmFromEnv } from '../util/env.js';
import { randomUnit } from '../util/random.js';
import { type GsiAddress, type GsiPort, realTimers, type Timers } from './gsi.js';

const log = logger('ibcm');

/** IBTA timeout encoding: 4.096 µs × 2^t, in milliseconds (§12.7.x "…Timeout" fields, §9.7.6.1.3). */
export function ibTimeoutMs(t: number): number {
  return 4.096e-3 * 2 ** t;
}

/**
 * The QP Local ACK Timeout for a path: the round trip (2 × packet life time) plus the
 * responder's ACK delay, as a 5-bit exponent. In log2 terms the sum of two powers is the
 * larger one, plus one when they are within one of each other (Linux `cm_ack_timeout`).
 */
export function cmAckTimeout(caAckDelay: number, packetLifeTime: number): number {
  const rtt = packetLifeTime + 1; // 2 × PacketLifeTime
  let t: number;
  if (rtt >= caAckDelay) t = rtt + (caAckDelay >= rtt - 1 ? 1 : 0);
  else t = caAckDelay + (rtt >= caAckDelay - 1 ? 1 : 0);
  return Math.min(31, t);
}

/** The connection states (IBTA Vol. 1 §12.9; names of Linux `enum ib_cm_state`). */
export type IbCmState =
  | 'IDLE'
  | 'REQ_SENT'
  | 'REQ_RCVD'
  | 'MRA_REQ_SENT'
  | 'MRA_REQ_RCVD'
  | 'REP_SENT'
  | 'REP_RCVD'
  | 'MRA_REP_SENT'
  | 'MRA_REP_RCVD'
  | 'ESTABLISHED'
  | 'DREQ_SENT'
  | 'DREQ_RCVD'
  | 'TIMEWAIT';

/** What a connection reports to its consumer. */
export type IbCmEvent =
  /** Active: the peer's CM asked for more time (MRA for our REQ). */
  | { type: 'mra'; serviceTimeout: number }
  /** Active: the REP; move the QP to RTR/RTS with it, then `ready()` (or `reject()`). */
  | { type: 'rep'; rep: CmRep }
  /** Passive: the RTU arrived (or `establish()` was called); the connection is up. */
  | { type: 'established'; privateData: Uint8Array }
  /** The peer refused (or answered a stale connection). */
  | { type: 'rejected'; reason: number; ari: Uint8Array; privateData: Uint8Array; msgRejected: CmMsgResponse }
  /**
   * Our REQ or REP was never answered after MaxCMRetries retransmissions (Linux REQ_ERROR/REP_ERROR),
   * or, passive, the listener's limits ended the connection before it was established: `REP` when
   * its REP was awaiting the RTU (the peer got REJ Timeout), `decision` when the consumer had not
   * accepted or rejected the REQ in time or it was evicted undecided (the peer got REJ 3, No
   * Resources) ({@link IbCmListenLimits}).
   */
  | { type: 'timeout'; message: 'REQ' | 'REP' | 'decision' }
  /** The peer disconnected (DREQ); answer with `disconnect()` (DREP). */
  | { type: 'dreq'; privateData: Uint8Array }
  /** Our DREQ was answered (DREP) or timed out. */
  | { type: 'disconnected'; privateData: Uint8Array; timedOut: boolean }
  /** TIMEWAIT is over: the comm ID and the (CA GUID, QPN) pair are free again. */
  | { type: 'timewait-exit' };

/** A pending SIDR exchange of the active side reports one of these. */
export type IbCmSidrEvent = { type: 'sidr-rep'; rep: CmSidrRep; from: GsiAddress } | { type: 'timeout' };

/** What a listener receives. */
export type IbCmListenEvent =
  | { type: 'req'; conn: IbCmConnection; req: CmReq; from: GsiAddress }
  | { type: 'sidr-req'; request: IbCmSidrRequest };

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
  /** Source of randomness for comm IDs and TIDs (default: the CSPRNG, `randomUnit`); seed it in tests. */
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
export const IBCM_LISTEN_LIMITS: Readonly<Record<keyof IbCmListenLimits, { readonly default: number; readonly why: string }>> = Object.freeze({
  maxHalfOpen: { default: 1024, why: 'as the iWARP listener; the undecided REQs are bounded by the backlog too' },
  maxHalfOpenPerSource: { default: 128, why: 'one GID cannot fill the listener (1024), and a host opening many connections at once (ucmatose -c 50, perftest -q 64) against a slow listener is served' },
  acceptTimeoutMs: { default: 8_000, why: 'as the iWARP listener: a consumer that never answers cannot hold a REQ' },
  pressureTimeoutMs: { default: 1_000, why: 'a real active side sends its RTU one round trip after the REP' },
});

/** The MRA ServiceTimeout an active side honours at most: Linux rdma_cm's own (`CMA_CM_MRA_SETTING`, 24, about 67 s). */
const MAX_MRA_FOR_REQ = 24;
const HALF_OPEN: ReadonlySet<IbCmState> = new Set<IbCmState>(['REQ_RCVD', 'MRA_REQ_SENT', 'REP_SENT', 'MRA_REP_RCVD']);

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

const key2 = (a: bigint | string, b: number) => `${a.toString(16)}:${b}`;
const gidKey = (g: Uint8Array) => Buffer.from(g).toString('hex');
const sameGid = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
const EMPTY = new Uint8Array(0);
/** Incoming SIDR requests remembered at once (pending or answered); the oldest is forgotten first. */
const MAX_SIDR_IN = 4096;
/** Undecided REQs a listener holds by default (rdma_cm's backlog when the consumer gives none). */
const DEFAULT_BACKLOG = 1024;

function defaultLimits(): IbCmListenLimits {
  return Object.fromEntries(Object.entries(IBCM_LISTEN_LIMITS).map(([k, v]) => [k, v.default])) as unknown as IbCmListenLimits;
}

/** `over` on `base`, validated (RangeError): non-negative integers, the caps at least 1, the pressure timeout above 0. */
function limitsOf(over: Partial<IbCmListenLimits>, base: IbCmListenLimits): IbCmListenLimits {
  const l = { ...base };
  for (const k of Object.keys(IBCM_LISTEN_LIMITS) as (keyof IbCmListenLimits)[]) {
    const v = over[k] ?? base[k];
    const min = k === 'acceptTimeoutMs' ? 0 : 1;
    if (!Number.isSafeInteger(v) || v < min) throw new RangeError(`IB CM listener limit ${k} = ${String(v)}; an integer ≥ ${min}`);
    l[k] = v;
  }
  return l;
}

/** What `SOFTRDMA_IBCM` can set: the listener limits and the per-CM cap on peer-chosen waits. */
export interface IbCmEnvParams {
  listenLimits: Partial<IbCmListenLimits>;
  maxResponseTimeout?: number;
}

/**
 * RoCE CM settings from the environment, `SOFTRDMA_IBCM="accept=2000 persource=8"`: the RoCE
 * counterpart of `SOFTRDMA_MPA`'s `accept=MS`, for rdma_cm and IT-API programs that cannot pass
 * {@link IbCmOptions} themselves. Keys, separated by spaces or semicolons:
 * - `accept=MS`: {@link IbCmListenLimits.acceptTimeoutMs} (0: no limit);
 * - `halfopen=N`, `persource=N`: {@link IbCmListenLimits.maxHalfOpen}, `maxHalfOpenPerSource`;
 * - `pressure=MS`: {@link IbCmListenLimits.pressureTimeoutMs};
 * - `resp=T`: {@link IbCmOptions.maxResponseTimeout}, the CM response timeout exponent (0–31)
 *   that caps what a REQ or MRA may make us wait (IBTA "Communication Management", REQ: Local
 *   CM Response Timeout). Per CM: it takes effect when the port's CM opens (QP1).
 * Parsed by the environment module (`ibcmFromEnv`); throws its EnvError (a RangeError) naming
 * the bad setting, so a typo never goes unnoticed.
 */
export function ibCmParamsFromEnv(value?: string): IbCmEnvParams {
  const { maxResponseTimeout, ...listenLimits } = ibcmFromEnv(value?.trim());
  return { listenLimits, ...(maxResponseTimeout !== undefined && { maxResponseTimeout }) };
}

/** The IB CM of one RNIC port. */
export class IbCm {
  readonly #port: GsiPort;
  readonly caGuid: bigint;
  readonly #gids: () => readonly Uint8Array[];
  readonly timers: Timers;
  readonly #random: () => number;
  readonly caAckDelay: number;
  readonly timewaitMs: number | undefined;
  readonly maxConnections: number;
  readonly #tidHigh: bigint;
  #tidSeq = 0;
  /** Connections and pending SIDR requests by local comm ID / request ID. */
  readonly #byLocal = new Map<number, IbCmConnection | IbCmSidrPending>();
  /** Passive/active connections by (remote CA GUID, remote comm ID): duplicates, REJ Timeout. */
  readonly #byRemoteId = new Map<string, IbCmConnection>();
  /** By (remote CA GUID, remote QPN): stale connections (IBTA §12.9.8.3.1). */
  readonly #byRemoteQpn = new Map<string, IbCmConnection>();
  readonly #listeners = new Map<bigint, IbCmListener>();
  /** Incoming SIDR requests by (source GID, request ID): pending or recently answered. */
  readonly #sidrIn = new Map<string, IbCmSidrRequest>();
  #closed = false;
  readonly stats: IbCmStats = { sent: {}, received: {}, retransmits: 0, duplicates: 0, malformed: 0, unmatched: 0, evicted: 0, expired: 0 };
  readonly maxResponseTimeout: number;
  readonly listenLimits: Readonly<IbCmListenLimits>;

  constructor(opts: IbCmOptions) {
    this.#port = opts.port;
    this.caGuid = opts.caGuid;
    this.#gids = opts.gids;
    this.timers = opts.timers ?? realTimers;
    this.#random = opts.random ?? randomUnit;
    this.caAckDelay = opts.caAckDelay ?? 15;
    this.timewaitMs = opts.timewaitMs;
    this.maxConnections = opts.maxConnections ?? 65536;
    this.maxResponseTimeout = Math.min(31, Math.max(0, opts.maxResponseTimeout ?? 22));
    this.listenLimits = Object.freeze(limitsOf(opts.listenLimits ?? {}, defaultLimits()));
    this.#tidHigh = BigInt(Math.floor(this.#random() * 0x100000000)) << 32n;
    this.#port.onReceive((mad, from) => this.#receive(mad, from));
  }

  /** Listens on a service ID (exact match). Throws if one is there already (EADDRINUSE). */
  listen(serviceId: bigint, handler: (ev: IbCmListenEvent) => void, opts: { backlog?: number; limits?: Partial<IbCmListenLimits> } = {}): IbCmListener {
    if (this.#closed) throw new Error('IbCm is closed');
    if (this.#listeners.has(serviceId)) {
      throw Object.assign(new Error(`service ID ${hx(serviceId, 16)} is already listened on`), { code: 'EADDRINUSE' });
    }
    const l = new IbCmListener(this, serviceId, handler, opts.backlog && opts.backlog > 0 ? opts.backlog : DEFAULT_BACKLOG, limitsOf(opts.limits ?? {}, this.listenLimits));
    this.#listeners.set(serviceId, l);
    log('listen sid=%s', hx(serviceId, 16));
    return l;
  }

  /** @internal */
  unlisten(l: IbCmListener): void {
    if (this.#listeners.get(l.serviceId) === l) this.#listeners.delete(l.serviceId);
  }

  /** Sends a REQ (IBTA §12.9.5.1) and returns the connection in REQ_SENT. RangeError on bad parameters. */
  connect(p: IbCmConnectParams, onEvent: (ev: IbCmEvent) => void): IbCmConnection {
    if (this.#closed) throw new Error('IbCm is closed');
    this.#checkRoom();
    if (!this.#gids().some((g) => sameGid(g, p.localGid))) throw new RangeError(`${stringifyGid(p.localGid)} is not a GID of this port`);
    const pathMtu = p.pathMtu ?? 3;
    if (pathMtu < 1 || pathMtu > 5) throw new RangeError('pathMtu must be 1..5 (256..4096)');
    const packetLifeTime = p.packetLifeTime ?? 18;
    const hopLimit = p.hopLimit ?? 64;
    const routed = hopLimit > 1;
    const c = new IbCmConnection(this, this.#newCommId(), 'active');
    c.localQpn = p.qpn;
    c.peer = { gid: p.destGid.slice(), qpn: p.destQpn ?? GSI_QPN, qkey: GSI_QKEY, pkey: p.pkey ?? DEFAULT_PKEY, localGid: p.localGid.slice() };
    c.serviceId = p.serviceId;
    const localAckTimeout = cmAckTimeout(this.caAckDelay, packetLifeTime);
    const req: CmReq = {
      kind: 'REQ',
      localCommId: c.localCommId,
      vendorId: 0,
      serviceId: p.serviceId,
      localCaGuid: this.caGuid,
      localQkey: p.qkey ?? 0,
      localQpn: p.qpn,
      responderResources: p.responderResources ?? 1,
      localEecn: 0,
      initiatorDepth: p.initiatorDepth ?? 1,
      remoteEecn: 0,
      remoteCmResponseTimeout: p.remoteCmResponseTimeout ?? 20,
      transport: p.transport ?? CmTransport.RC,
      e2eFlowControl: false,
      startingPsn: p.startingPsn,
      localCmResponseTimeout: p.localCmResponseTimeout ?? 20,
      retryCount: p.retryCount ?? 7,
      pkey: p.pkey ?? DEFAULT_PKEY,
      pathMtu,
      rdcExists: false,
      rnrRetryCount: p.rnrRetryCount ?? 7,
      maxCmRetries: p.maxCmRetries ?? 15,
      srq: p.srq ?? false,
      extendedTransport: 0,
      primary: {
        // Routed (RoCE): the permissive LID in both fields, SubnetLocal 0 (Linux cm_format_req).
        localLid: routed ? 0xffff : 0,
        remoteLid: routed ? 0xffff : 0,
        localGid: p.localGid.slice(),
        remoteGid: p.destGid.slice(),
        flowLabel: p.flowLabel ?? 0,
        packetRate: 0,
        trafficClass: p.trafficClass ?? 0,
        hopLimit,
        sl: p.sl ?? 0,
        subnetLocal: !routed,
        localAckTimeout,
      },
      alternate: emptyCmPath(),
      sapSupported: false,
      privateData: p.privateData ?? EMPTY,
    };
    const tid = this.newTid();
    const mad = encodeCmMad(tid, req); // throws RangeError before anything changed
    c.req = req;
    c.tid = tid;
    c.onEvent = onEvent;
    c.packetLifeTime = packetLifeTime;
    c.localAckTimeout = localAckTimeout;
    c.maxRetries = req.maxCmRetries;
    c.timeoutMs = 2 * ibTimeoutMs(packetLifeTime) + ibTimeoutMs(req.remoteCmResponseTimeout);
    this.#byLocal.set(c.localCommId, c);
    c.setState('REQ_SENT');
    this.sendReliable(c, mad, req, () => this.requestTimedOut(c, 'REQ'));
    return c;
  }

  /** Sends a SIDR_REQ (IBTA §12.11.1) and reports the SIDR_REP or a timeout. */
  sidrRequest(
    p: {
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
    },
    onEvent: (ev: IbCmSidrEvent) => void,
  ): IbCmSidrPending {
    if (this.#closed) throw new Error('IbCm is closed');
    this.#checkRoom();
    const s = new IbCmSidrPending(this, this.#newCommId(), onEvent);
    const msg: CmSidrReq = {
      kind: 'SIDR_REQ',
      requestId: s.requestId,
      pkey: p.pkey ?? DEFAULT_PKEY,
      serviceId: p.serviceId,
      privateData: p.privateData ?? EMPTY,
    };
    const tid = this.newTid();
    const mad = encodeCmMad(tid, msg);
    s.peer = { gid: p.destGid.slice(), qpn: p.destQpn ?? GSI_QPN, qkey: GSI_QKEY, pkey: msg.pkey, ...(p.localGid && { localGid: p.localGid.slice() }) };
    s.timeoutMs = p.timeoutMs ?? 2 * ibTimeoutMs(18) + ibTimeoutMs(20);
    s.maxRetries = p.maxRetries ?? 15;
    this.#byLocal.set(s.requestId, s);
    this.sendReliable(s, mad, msg, () => {
      this.#byLocal.delete(s.requestId);
      s.done = true;
      s.onEvent({ type: 'timeout' });
    });
    return s;
  }

  /**
   * True while a request MAD (REQ, REP, DREQ, SIDR_REQ) awaits its answer and would be
   * retransmitted: closing the port now would leave the peer without it.
   */
  get busy(): boolean {
    for (const x of this.#byLocal.values()) if (x.outstanding) return true;
    return false;
  }

  /** Closes the CM: every connection is destroyed as by `destroy()`, then the port stops. */
  close(): void {
    if (this.#closed) return;
    for (const x of [...this.#byLocal.values()]) x.destroy();
    for (const l of [...this.#listeners.values()]) l.close();
    for (const r of this.#sidrIn.values()) r.expire();
    this.#closed = true;
    this.#port.close();
  }

  // -------------------------------------------------------------------------------------------
  // Sending.

  #checkRoom(): void {
    if (this.#byLocal.size >= this.maxConnections) {
      throw Object.assign(new Error(`IbCm: ${this.maxConnections} connections already (ENOMEM)`), { code: 'ENOMEM' });
    }
  }

  #newCommId(): number {
    for (;;) {
      const id = Math.floor(this.#random() * 0xffffffff) + 1;
      if (id <= 0xffffffff && !this.#byLocal.has(id)) return id >>> 0;
    }
  }

  /** @internal A fresh TransactionID: a random high half and a counter (§13.4.6.4). */
  newTid(): bigint {
    this.#tidSeq = (this.#tidSeq + 1) >>> 0;
    return this.#tidHigh | BigInt(this.#tidSeq);
  }

  /** @internal Sends one MAD (no retransmission). */
  send(to: GsiAddress, mad: Uint8Array, msg: CmMessage): void {
    this.stats.sent[msg.kind] = (this.stats.sent[msg.kind] ?? 0) + 1;
    if (log.enabled) log('→ %s %s', stringifyGid(to.gid), stringifyCmMessage(msg));
    this.#port.send(mad, to);
  }

  /**
   * @internal Sends a request MAD and retransmits it every `x.timeoutMs` up to
   * `x.maxRetries` times (IBTA §12.9.3 "MaxCMRetries"; Linux: the MAD layer's retries), then
   * calls `exhausted`. An MRA stretches the current wait (see `#mraReceived`).
   */
  sendReliable(x: Retransmitter, mad: Uint8Array, msg: CmMessage, exhausted: () => void): void {
    this.cancelRetransmit(x);
    x.retries = 0;
    x.outstanding = { mad, msg, exhausted };
    this.send(x.peer, mad, msg);
    this.#armRetransmit(x, x.timeoutMs);
  }

  #armRetransmit(x: Retransmitter, ms: number): void {
    x.timer = this.timers.set(() => {
      x.timer = undefined;
      const o = x.outstanding;
      if (!o) return;
      if (x.retries >= x.maxRetries) {
        x.outstanding = undefined;
        log('%s: %s unanswered after %d retries', x.name, o.msg.kind, x.retries);
        o.exhausted();
        return;
      }
      x.retries++;
      this.stats.retransmits++;
      log('%s: retransmit %s (%d/%d)', x.name, o.msg.kind, x.retries, x.maxRetries);
      this.send(x.peer, o.mad, o.msg);
      this.#armRetransmit(x, x.timeoutMs);
    }, ms);
  }

  /** @internal */
  cancelRetransmit(x: Retransmitter): void {
    if (x.timer !== undefined) this.timers.clear(x.timer);
    x.timer = undefined;
    x.outstanding = undefined;
  }

  /** @internal A REJ answering `c` in its current state (Linux `cm_format_rej`). */
  rejFor(c: IbCmConnection, reason: number, ari: Uint8Array, privateData: Uint8Array): CmRej {
    const s = c.state;
    return {
      kind: 'REJ',
      localCommId: s === 'REQ_RCVD' ? 0 : c.localCommId,
      remoteCommId: c.remoteCommId,
      msgRejected:
        s === 'REQ_RCVD' || s === 'MRA_REQ_SENT' ? CmMsgResponse.REQ : s === 'REP_RCVD' || s === 'MRA_REP_SENT' ? CmMsgResponse.REP : CmMsgResponse.OTHER,
      reason,
      ari,
      privateData,
    };
  }

  /** @internal Our CA GUID as the 8-octet ARI of a REJ Timeout. */
  caGuidAri(): Uint8Array {
    const a = new Uint8Array(8);
    new DataView(a.buffer).setBigUint64(0, this.caGuid);
    return a;
  }

  /** REQ or REP unanswered: REJ Timeout with our CA GUID as ARI (IBTA REJ reason 4), back to IDLE. */
  /** @internal */
  requestTimedOut(c: IbCmConnection, message: 'REQ' | 'REP' | 'decision'): void {
    const rej = this.rejFor(c, CmRejReason.TIMEOUT, this.caGuidAri(), EMPTY);
    this.send(c.peer, encodeCmMad(c.tid, rej), rej);
    this.toIdle(c);
    c.emit({ type: 'timeout', message });
  }

  // -------------------------------------------------------------------------------------------
  // State bookkeeping.

  /** @internal Registers `c` under its remote identity (comm ID and QPN). */
  bindRemote(c: IbCmConnection): void {
    this.#byRemoteId.set(key2(c.remoteCaGuid, c.remoteCommId), c);
    this.#byRemoteQpn.set(key2(c.remoteCaGuid, c.remoteQpn), c);
  }

  /** @internal Forgets `c` entirely (IDLE). */
  toIdle(c: IbCmConnection): void {
    this.cancelRetransmit(c);
    c.stopDecideTimer();
    if (c.twTimer !== undefined) this.timers.clear(c.twTimer);
    c.twTimer = undefined;
    c.setState('IDLE');
    if (this.#byLocal.get(c.localCommId) === c) this.#byLocal.delete(c.localCommId);
    const rk = key2(c.remoteCaGuid, c.remoteCommId);
    if (this.#byRemoteId.get(rk) === c) this.#byRemoteId.delete(rk);
    const qk = key2(c.remoteCaGuid, c.remoteQpn);
    if (this.#byRemoteQpn.get(qk) === c) this.#byRemoteQpn.delete(qk);
  }

  /**
   * @internal TIMEWAIT (IBTA §12.9.7.2): the connection keeps its comm ID and (CA GUID, QPN)
   * so that late or stale messages are recognised, for about one ACK timeout, then goes IDLE.
   */
  enterTimewait(c: IbCmConnection): void {
    this.cancelRetransmit(c);
    c.setState('TIMEWAIT');
    // The ACK timeout of a passive connection came from the peer's REQ: bounded.
    const ms = this.timewaitMs ?? ibTimeoutMs(c.role === 'passive' ? Math.min(c.localAckTimeout, this.maxResponseTimeout) : c.localAckTimeout);
    c.twTimer = this.timers.set(() => {
      c.twTimer = undefined;
      this.toIdle(c);
      c.emit({ type: 'timewait-exit' });
    }, ms);
  }

  /** @internal */
  sidrDone(s: IbCmSidrPending): void {
    this.cancelRetransmit(s);
    if (this.#byLocal.get(s.requestId) === s) this.#byLocal.delete(s.requestId);
  }

  /** @internal */
  sidrInDone(r: IbCmSidrRequest): void {
    if (this.#sidrIn.get(r.key) === r) this.#sidrIn.delete(r.key);
  }

  /** @internal */
  sendSidrRep(r: IbCmSidrRequest, rep: CmSidrRep): Uint8Array {
    const mad = encodeCmMad(r.tid, rep);
    this.send(r.from, mad, rep);
    // Keep the answer for two of the requester's default retransmission intervals: a
    // retransmitted SIDR_REQ gets it again without asking the consumer twice. Bounded.
    r.expireTimer = this.timers.set(() => r.expire(), this.timewaitMs ?? 2 * (2 * ibTimeoutMs(18) + ibTimeoutMs(20)));
    return mad;
  }

  // -------------------------------------------------------------------------------------------
  // Receiving.

  #receive(mad: Uint8Array, from: GsiAddress): void {
    if (this.#closed) return;
    let header: ReturnType<typeof decodeCmMad>['header'];
    let msg: CmMessage;
    try {
      ({ header, msg } = decodeCmMad(mad));
    } catch (e) {
      // A malformed MAD is dropped (IBTA §13.5.3.x); so is anything not sent to the GSI Q_Key.
      this.stats.malformed++;
      log('drop from %s: %s', stringifyGid(from.gid), (e as Error).message);
      return;
    }
    if (from.qkey !== GSI_QKEY) {
      this.stats.malformed++;
      log('drop %s: Q_Key %s is not the GSI Q_Key', msg.kind, hx(from.qkey, 8));
      return;
    }
    this.stats.received[msg.kind] = (this.stats.received[msg.kind] ?? 0) + 1;
    if (log.enabled) log('← %s %s', stringifyGid(from.gid), stringifyCmMessage(msg));
    const tid = header.tid;
    switch (msg.kind) {
      case 'REQ':
        this.#onReq(msg, tid, from);
        return;
      case 'MRA':
        this.#onMra(msg);
        return;
      case 'REJ':
        this.#onRej(msg);
        return;
      case 'REP':
        this.#onRep(msg, tid, from);
        return;
      case 'RTU':
        this.#onRtu(msg);
        return;
      case 'DREQ':
        this.#onDreq(msg, tid, from);
        return;
      case 'DREP':
        this.#onDrep(msg);
        return;
      case 'SIDR_REQ':
        this.#onSidrReq(msg, tid, from);
        return;
      case 'SIDR_REP':
        this.#onSidrRep(msg, from);
        return;
    }
  }

  #unmatched(msg: CmMessage): void {
    this.stats.unmatched++;
    log('unmatched %s', stringifyCmMessage(msg));
  }

  /** A REJ for a REQ we have no connection for (Linux `cm_issue_rej`: the comm IDs swapped). */
  #issueRej(req: CmReq, tid: bigint, to: GsiAddress, reason: number, ari: Uint8Array = EMPTY): void {
    const rej: CmRej = {
      kind: 'REJ',
      localCommId: 0,
      remoteCommId: req.localCommId,
      msgRejected: CmMsgResponse.REQ,
      reason,
      ari,
      privateData: EMPTY,
    };
    this.send(to, encodeCmMad(tid, rej), rej);
  }

  /** Passive side: REQ (IBTA §12.9.5.2; the checks in the order of Linux `cm_req_handler`). */
  #onReq(req: CmReq, tid: bigint, from: GsiAddress): void {
    // 1. A duplicate of a REQ we already have a connection for (§12.9.8.3.2).
    const dup = this.#byRemoteId.get(key2(req.localCaGuid, req.localCommId));
    if (dup) {
      this.stats.duplicates++;
      switch (dup.state) {
        case 'MRA_REQ_SENT':
        case 'REP_SENT':
        case 'MRA_REP_RCVD':
          // Our MRA or REP was lost: send it again (Linux resends the MRA and leaves the REP
          // to its own timer; resending the REP at once is harmless and recovers sooner).
          if (dup.lastSent) this.send(dup.peer, dup.lastSent.mad, dup.lastSent.msg);
          return;
        case 'TIMEWAIT': {
          const rej = this.rejFor(dup, CmRejReason.STALE_CONN, EMPTY, EMPTY);
          this.send(from, encodeCmMad(tid, rej), rej);
          return;
        }
        default:
          return; // REQ_RCVD: the consumer has not decided yet; established: ignore
      }
    }
    // 2. A stale connection: this (CA GUID, QPN) is still in use or in TIMEWAIT (§12.9.8.3.1).
    const stale = this.#byRemoteQpn.get(key2(req.localCaGuid, req.localQpn));
    if (stale) {
      this.#issueRej(req, tid, from, CmRejReason.STALE_CONN);
      if (stale.state === 'ESTABLISHED') stale.disconnect();
      return;
    }
    // 3. A listener for the service ID.
    const l = this.#listeners.get(req.serviceId);
    if (!l) {
      this.#issueRej(req, tid, from, CmRejReason.INVALID_SERVICE_ID);
      return;
    }
    // 4. Our GID as the peer named it must be ours; ARI = a GID we do have (Linux: index 0).
    const gids = this.#gids();
    if (!gids.some((g) => sameGid(g, req.primary.remoteGid))) {
      this.#issueRej(req, tid, from, CmRejReason.INVALID_GID, gids[0]?.slice() ?? EMPTY);
      return;
    }
    if (req.transport !== CmTransport.RC && req.transport !== CmTransport.UC) {
      this.#issueRej(req, tid, from, CmRejReason.INVALID_TRANSPORT_TYPE);
      return;
    }
    if (req.pathMtu < 1 || req.pathMtu > 5) {
      this.#issueRej(req, tid, from, CmRejReason.INVALID_MTU);
      return;
    }
    // Fair half-open limit: a source at its cap loses its own oldest half-open connection.
    const source = gidKey(from.gid);
    const lim = l.limits;
    const mine = l.bySource.get(source);
    if (mine && mine.size >= lim.maxHalfOpenPerSource) this.#evict(mine.values().next().value as IbCmConnection);
    // Bounded: an undecided-REQ backlog per listener and a cap on connections per CM. A REQ
    // beyond them is refused with REJ 3 (No Resources); the active side may retry later.
    if (l.undecided.size >= l.backlog || this.#byLocal.size >= this.maxConnections) {
      this.#issueRej(req, tid, from, CmRejReason.NO_RESOURCES);
      return;
    }
    // A full listener evicts its oldest half-open connection rather than refuse the newest.
    if (l.halfOpen.size >= lim.maxHalfOpen) this.#evict(l.halfOpen.values().next().value as IbCmConnection);
    const c = new IbCmConnection(this, this.#newCommId(), 'passive');
    c.listener = l;
    c.source = source;
    l.undecided.add(c);
    l.halfOpen.add(c);
    // (The eviction above may have dropped the source's entry: look it up again.)
    const held = l.bySource.get(source);
    if (held) held.add(c);
    else l.bySource.set(source, new Set([c]));
    c.remoteCommId = req.localCommId;
    c.remoteCaGuid = req.localCaGuid;
    c.remoteQpn = req.localQpn;
    c.serviceId = req.serviceId;
    c.req = req;
    c.tid = tid;
    // Replies leave from our GID the peer named (validated above), as Linux cm_init_av_for_response.
    c.peer = { gid: from.gid.slice(), qpn: from.qpn, qkey: GSI_QKEY, pkey: from.pkey, localGid: req.primary.remoteGid.slice() };
    c.localAckTimeout = req.primary.localAckTimeout;
    // The peer names how long we wait for it; a hostile REQ says hours: bounded (maxResponseTimeout).
    const cap = this.maxResponseTimeout;
    c.packetLifeTime = Math.min(cap, Math.max(0, req.primary.localAckTimeout - 1));
    c.maxRetries = req.maxCmRetries;
    // The active side answers a REP within its LocalCMResponseTimeout (Linux cm_req_handler).
    c.timeoutMs = ibTimeoutMs(Math.min(cap, req.localCmResponseTimeout)) + 2 * ibTimeoutMs(c.packetLifeTime);
    this.#byLocal.set(c.localCommId, c);
    this.bindRemote(c);
    c.setState('REQ_RCVD');
    if (lim.acceptTimeoutMs > 0) {
      c.decideTimer = this.timers.set(() => {
        c.decideTimer = undefined;
        if (c.state !== 'REQ_RCVD' && c.state !== 'MRA_REQ_SENT') return;
        this.stats.expired++;
        log('%s: the consumer did not decide within %d ms; REJ No Resources', c.name, lim.acceptTimeoutMs);
        this.#drop(c);
      }, lim.acceptTimeoutMs);
    }
    l.handler({ type: 'req', conn: c, req, from });
  }

  /** Ends a half-open passive connection to make room (see {@link IbCm.#drop}). */
  #evict(c: IbCmConnection): void {
    this.stats.evicted++;
    log('%s: evicted (%s, half-open from %s)', c.name, c.state, c.source ?? '?');
    this.#drop(c);
  }

  /**
   * Ends a passive connection that is not established, for the listener's limits, and tells the
   * consumer (`timeout`). An undecided REQ gets REJ 3 (No Resources): the passive side had no
   * room to keep it, and a REJ from REQ_RCVD carries no local comm ID, so only a reason matched
   * by the remote comm ID reaches the active side (Linux `cm_acquire_rejected_id` looks a REJ
   * Timeout up by the ARI's CA GUID and the local comm ID). A REP awaiting its RTU ends as an
   * unanswered REP does: REJ Timeout with our CA GUID.
   */
  #drop(c: IbCmConnection): void {
    if (c.state === 'REQ_RCVD' || c.state === 'MRA_REQ_SENT') {
      const rej = this.rejFor(c, CmRejReason.NO_RESOURCES, EMPTY, EMPTY);
      this.send(c.peer, encodeCmMad(c.tid, rej), rej);
      this.toIdle(c);
      c.emit({ type: 'timeout', message: 'decision' });
    } else {
      this.requestTimedOut(c, 'REP');
    }
  }

  #onMra(mra: CmMra): void {
    const c = this.#byLocal.get(mra.remoteCommId);
    if (!(c instanceof IbCmConnection)) {
      this.#unmatched(mra);
      return;
    }
    // An MRA of a REQ names only our comm ID: it is ours only while the peer's is still unknown
    // (0); any other names both (Linux cm_acquire_mraed_id).
    if (c.remoteCommId !== (mra.msgMraed === CmMsgResponse.REQ ? 0 : mra.localCommId)) {
      this.#unmatched(mra);
      return;
    }
    let next: IbCmState;
    if (c.state === 'REQ_SENT' && mra.msgMraed === CmMsgResponse.REQ) next = 'MRA_REQ_RCVD';
    else if (c.state === 'REP_SENT' && mra.msgMraed === CmMsgResponse.REP) next = 'MRA_REP_RCVD';
    else {
      this.stats.duplicates++;
      return;
    }
    if (!c.outstanding) return;
    // The peer will answer within ServiceTimeout: wait that long (plus the round trip) before
    // the next retransmission (IBTA §12.6.6; Linux cm_mra_handler → ib_modify_mad).
    if (c.timer !== undefined) this.timers.clear(c.timer);
    c.setState(next);
    // How long the peer may make us wait is bounded: for our REP (a passive connection, the peer
    // is whoever sent a REQ) by maxResponseTimeout, for our REQ by what Linux rdma_cm itself asks.
    const st = Math.min(mra.serviceTimeout, next === 'MRA_REP_RCVD' ? this.maxResponseTimeout : MAX_MRA_FOR_REQ);
    this.#armRetransmit(c, ibTimeoutMs(st) + 2 * ibTimeoutMs(c.packetLifeTime));
    c.emit({ type: 'mra', serviceTimeout: mra.serviceTimeout });
  }

  #onRej(rej: CmRej): void {
    let c: IbCmConnection | undefined;
    if (rej.reason === CmRejReason.TIMEOUT && rej.ari.length >= 8) {
      const guid = new DataView(rej.ari.buffer, rej.ari.byteOffset, 8).getBigUint64(0);
      c = this.#byRemoteId.get(key2(guid, rej.localCommId));
    } else {
      // A REJ of a REQ names only our comm ID, so it is acted on only while the peer's is still
      // unknown (0); once the peer's is known, both must match (Linux cm_acquire_rejected_id).
      // Otherwise one guessed 32-bit ID would tear down an established connection.
      c = this.#connFor(rej.remoteCommId, rej.msgRejected === CmMsgResponse.REQ ? 0 : rej.localCommId);
    }
    if (!c) {
      this.#unmatched(rej);
      return;
    }
    switch (c.state) {
      case 'REQ_SENT':
      case 'MRA_REQ_RCVD':
      case 'REP_SENT':
      case 'MRA_REP_RCVD':
      case 'REQ_RCVD':
      case 'MRA_REQ_SENT':
        if (rej.reason === CmRejReason.STALE_CONN) this.enterTimewait(c);
        else this.toIdle(c);
        break;
      case 'DREQ_SENT':
      case 'REP_RCVD':
      case 'MRA_REP_SENT':
      case 'ESTABLISHED':
        this.enterTimewait(c);
        break;
      default:
        this.#unmatched(rej);
        return;
    }
    c.emit({ type: 'rejected', reason: rej.reason, ari: rej.ari, privateData: rej.privateData, msgRejected: rej.msgRejected });
  }

  /** Active side: REP (IBTA §12.9.5.1), or a duplicate of one (answered with the RTU or MRA again). */
  #onRep(rep: CmRep, tid: bigint, from: GsiAddress): void {
    const c = this.#byLocal.get(rep.remoteCommId);
    if (!(c instanceof IbCmConnection) || c.role !== 'active') {
      this.#unmatched(rep);
      return;
    }
    if (c.state !== 'REQ_SENT' && c.state !== 'MRA_REQ_RCVD') {
      if (c.remoteCommId === rep.localCommId && (c.state === 'ESTABLISHED' || c.state === 'MRA_REP_SENT') && c.lastSent) {
        // Our RTU or MRA was lost (Linux cm_dup_rep_handler).
        this.stats.duplicates++;
        this.send(c.peer, c.lastSent.mad, c.lastSent.msg);
      } else {
        this.stats.duplicates++;
      }
      return;
    }
    // Stale: the replier's (CA GUID, QPN) belongs to another connection of ours.
    const stale = this.#byRemoteQpn.get(key2(rep.localCaGuid, rep.localQpn));
    if ((stale && stale !== c) || this.#byRemoteId.has(key2(rep.localCaGuid, rep.localCommId))) {
      const rej: CmRej = {
        kind: 'REJ',
        localCommId: rep.remoteCommId,
        remoteCommId: rep.localCommId,
        msgRejected: CmMsgResponse.REP,
        reason: CmRejReason.STALE_CONN,
        ari: EMPTY,
        privateData: EMPTY,
      };
      this.send(from, encodeCmMad(tid, rej), rej);
      if (stale?.state === 'ESTABLISHED') stale.disconnect();
      return;
    }
    this.cancelRetransmit(c);
    c.remoteCommId = rep.localCommId;
    c.remoteCaGuid = rep.localCaGuid;
    c.remoteQpn = rep.localQpn;
    c.rep = rep;
    this.bindRemote(c);
    c.setState('REP_RCVD');
    c.emit({ type: 'rep', rep });
  }

  #connFor(local: number, remote: number): IbCmConnection | undefined {
    const c = this.#byLocal.get(local);
    return c instanceof IbCmConnection && c.remoteCommId === remote ? c : undefined;
  }

  #onRtu(rtu: CmRtu): void {
    const c = this.#connFor(rtu.remoteCommId, rtu.localCommId);
    if (!c) {
      this.#unmatched(rtu);
      return;
    }
    if (c.state !== 'REP_SENT' && c.state !== 'MRA_REP_RCVD') {
      this.stats.duplicates++;
      return;
    }
    this.cancelRetransmit(c);
    c.setState('ESTABLISHED');
    c.emit({ type: 'established', privateData: rtu.privateData });
  }

  #onDreq(dreq: CmDreq, tid: bigint, from: GsiAddress): void {
    const c = this.#connFor(dreq.remoteCommId, dreq.localCommId);
    if (!c) {
      // Nothing to disconnect (already gone): answer anyway so the peer stops (Linux cm_issue_drep).
      this.stats.duplicates++;
      const drep = { kind: 'DREP' as const, localCommId: dreq.remoteCommId, remoteCommId: dreq.localCommId, privateData: EMPTY };
      this.send(from, encodeCmMad(tid, drep), drep);
      return;
    }
    if (c.localQpn !== dreq.remoteQpn) {
      this.#unmatched(dreq);
      return;
    } // not our QP (§12.6, Table 112)
    switch (c.state) {
      case 'REP_SENT':
      case 'MRA_REP_RCVD':
      case 'DREQ_SENT':
      case 'ESTABLISHED':
        this.cancelRetransmit(c);
        break;
      case 'TIMEWAIT': {
        this.stats.duplicates++;
        const drep = { kind: 'DREP' as const, localCommId: c.localCommId, remoteCommId: c.remoteCommId, privateData: c.drepPrivateData };
        this.send(from, encodeCmMad(tid, drep), drep);
        return;
      }
      case 'DREQ_RCVD':
        this.stats.duplicates++;
        return;
      default:
        this.#unmatched(dreq);
        return;
    }
    c.tid = tid;
    c.setState('DREQ_RCVD');
    c.emit({ type: 'dreq', privateData: dreq.privateData });
  }

  #onDrep(drep: CmMessage & { kind: 'DREP' }): void {
    const c = this.#connFor(drep.remoteCommId, drep.localCommId);
    if (!c) {
      this.#unmatched(drep);
      return;
    }
    if (c.state !== 'DREQ_SENT' && c.state !== 'DREQ_RCVD') {
      this.stats.duplicates++;
      return;
    }
    this.enterTimewait(c);
    c.emit({ type: 'disconnected', privateData: drep.privateData, timedOut: false });
  }

  #onSidrReq(req: CmSidrReq, tid: bigint, from: GsiAddress): void {
    const key = `${gidKey(from.gid)}:${req.requestId}`;
    const seen = this.#sidrIn.get(key);
    if (seen) {
      this.stats.duplicates++;
      if (seen.replyMad) this.send(from, seen.replyMad, seen.reply as CmSidrRep);
      return;
    }
    const l = this.#listeners.get(req.serviceId);
    if (!l) {
      // Nothing listens: SIDR_REP Unsupported (Linux cm_sidr_req_handler → cm_reject_sidr_req).
      const rep: CmSidrRep = {
        kind: 'SIDR_REP',
        requestId: req.requestId,
        status: SidrStatus.UNSUPPORTED,
        qpn: 0,
        serviceId: req.serviceId,
        qkey: 0,
        info: EMPTY,
        privateData: EMPTY,
      };
      this.send(from, encodeCmMad(tid, rep), rep);
      return;
    }
    const r = new IbCmSidrRequest(this, key, req, tid, { gid: from.gid.slice(), qpn: from.qpn, qkey: GSI_QKEY, pkey: from.pkey, ...(from.localGid && { localGid: from.localGid.slice() }) });
    if (this.#sidrIn.size >= MAX_SIDR_IN) this.#sidrIn.values().next().value?.expire();
    this.#sidrIn.set(key, r);
    l.handler({ type: 'sidr-req', request: r });
  }

  #onSidrRep(rep: CmSidrRep, from: GsiAddress): void {
    const s = this.#byLocal.get(rep.requestId);
    if (!(s instanceof IbCmSidrPending) || s.done) {
      this.#unmatched(rep);
      return;
    }
    s.done = true;
    this.sidrDone(s);
    s.onEvent({ type: 'sidr-rep', rep, from });
  }
}

/** Something with an outstanding request MAD that is retransmitted until answered. */
interface Retransmitter {
  readonly name: string;
  peer: GsiAddress;
  timeoutMs: number;
  maxRetries: number;
  retries: number;
  timer: unknown;
  outstanding: { mad: Uint8Array; msg: CmMessage; exhausted: () => void } | undefined;
}

/** A listener on one service ID. */
export class IbCmListener {
  #open = true;
  /** Connections of this listener the consumer has not accepted or rejected yet. */
  readonly undecided = new Set<IbCmConnection>();
  /** Passive connections not established yet, oldest first ({@link IbCmListenLimits}). */
  readonly halfOpen = new Set<IbCmConnection>();
  /** The half-open connections of each source GID (hex), oldest first; no empty entries. */
  readonly bySource = new Map<string, Set<IbCmConnection>>();
  constructor(
    readonly cm: IbCm,
    readonly serviceId: bigint,
    /** @internal */ readonly handler: (ev: IbCmListenEvent) => void,
    /** At most this many undecided REQs; more are rejected with NO_RESOURCES (3). */
    readonly backlog: number,
    readonly limits: Readonly<IbCmListenLimits> = defaultLimits(),
  ) {}
  /** Half-open connections of the source GID `gid`. */
  heldBy(gid: Uint8Array): number {
    return this.bySource.get(gidKey(gid))?.size ?? 0;
  }
  /** @internal `c` is no longer half-open. */
  forget(c: IbCmConnection): void {
    if (!this.halfOpen.delete(c)) return;
    const set = c.source === undefined ? undefined : this.bySource.get(c.source);
    set?.delete(c);
    if (set && set.size === 0) this.bySource.delete(c.source!);
  }
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    this.cm.unlisten(this);
  }
}

/** One connection (a Linux `ib_cm_id`), active or passive. */
export class IbCmConnection implements Retransmitter {
  state: IbCmState = 'IDLE';
  remoteCommId = 0;
  remoteCaGuid = 0n;
  localQpn = 0;
  remoteQpn = 0;
  serviceId = 0n;
  /** The REQ sent (active) or received (passive). */
  req: CmReq | undefined;
  /** The REP received (active) or sent (passive). */
  rep: CmRep | undefined;
  /** The TID of the current exchange: the REQ's for REP/RTU/MRA/REJ, the DREQ's for the DREP. */
  tid = 0n;
  peer: GsiAddress = { gid: new Uint8Array(16), qpn: GSI_QPN, qkey: GSI_QKEY, pkey: DEFAULT_PKEY };
  packetLifeTime = 18;
  localAckTimeout = 19;
  timeoutMs = 0;
  maxRetries = 15;
  retries = 0;
  timer: unknown;
  twTimer: unknown;
  outstanding: Retransmitter['outstanding'];
  /** The last response sent (MRA, REP or RTU), sent again when its trigger is duplicated. */
  lastSent: { mad: Uint8Array; msg: CmMessage } | undefined;
  drepPrivateData: Uint8Array = EMPTY;
  onEvent: ((ev: IbCmEvent) => void) | undefined;
  /** The listener a passive connection came from. */
  listener: IbCmListener | undefined;
  /** Passive: the source GID (hex) its REQ came from, for the per-source cap. */
  source: string | undefined;
  /** Passive: the consumer's deadline for accept/reject (`acceptTimeoutMs`). */
  decideTimer: unknown;
  #destroyed = false;

  constructor(
    readonly cm: IbCm,
    readonly localCommId: number,
    readonly role: 'active' | 'passive',
  ) {}

  get name(): string {
    return `CM[${hx(this.localCommId, 8)}]`;
  }

  /** @internal */
  setState(s: IbCmState): void {
    if (s !== this.state) log('%s %s→%s', this.name, this.state, s);
    this.state = s;
    if (this.listener && s !== 'REQ_RCVD' && s !== 'MRA_REQ_SENT') {
      this.listener.undecided.delete(this);
      this.stopDecideTimer();
    }
    if (this.listener && !HALF_OPEN.has(s)) this.listener.forget(this);
  }

  /** @internal */
  stopDecideTimer(): void {
    if (this.decideTimer !== undefined) this.cm.timers.clear(this.decideTimer);
    this.decideTimer = undefined;
  }

  /** @internal */
  emit(ev: IbCmEvent): void {
    if (!this.#destroyed) this.onEvent?.(ev);
  }

  #bad(what: string): never {
    throw Object.assign(new Error(`${this.name}: ${what} in state ${this.state}`), { code: 'EINVAL' });
  }

  /** Passive: sends an MRA for the REQ (serviceTimeout 5 bits), or active: for the REP. */
  mra(serviceTimeout: number, privateData: Uint8Array = EMPTY): void {
    let msgMraed: CmMsgResponse;
    let next: IbCmState;
    if (this.state === 'REQ_RCVD') [msgMraed, next] = [CmMsgResponse.REQ, 'MRA_REQ_SENT'];
    else if (this.state === 'REP_RCVD') [msgMraed, next] = [CmMsgResponse.REP, 'MRA_REP_SENT'];
    else this.#bad('mra');
    const mra: CmMra = { kind: 'MRA', localCommId: this.localCommId, remoteCommId: this.remoteCommId, msgMraed, serviceTimeout, privateData };
    const mad = encodeCmMad(this.tid, mra);
    this.lastSent = { mad, msg: mra };
    this.setState(next);
    this.cm.send(this.peer, mad, mra);
  }

  /** Passive: accepts the REQ with a REP (IBTA §12.9.5.2), retransmitted until the RTU. */
  accept(p: IbCmAcceptParams): void {
    if (this.state !== 'REQ_RCVD' && this.state !== 'MRA_REQ_SENT') this.#bad('accept');
    const rep: CmRep = {
      kind: 'REP',
      localCommId: this.localCommId,
      remoteCommId: this.remoteCommId,
      localQkey: p.qkey ?? 0,
      localQpn: p.qpn,
      localEecn: 0,
      startingPsn: p.startingPsn,
      responderResources: p.responderResources ?? 1,
      initiatorDepth: p.initiatorDepth ?? 1,
      targetAckDelay: this.cm.caAckDelay,
      failoverAccepted: p.failoverAccepted ?? 0,
      e2eFlowControl: p.e2eFlowControl ?? false,
      rnrRetryCount: p.rnrRetryCount ?? 7,
      srq: p.srq ?? false,
      localCaGuid: this.cm.caGuid,
      privateData: p.privateData ?? EMPTY,
    };
    const mad = encodeCmMad(this.tid, rep);
    this.localQpn = p.qpn;
    this.rep = rep;
    this.lastSent = { mad, msg: rep };
    this.setState('REP_SENT');
    // Under pressure the REP gets one retransmission within the pressure timeout, not the
    // MaxCMRetries the REQ asked for: a spoofed REQ's REP would otherwise hold the slot (and be
    // sent to whoever the spoofed GID is) for as long as the peer said.
    const l = this.listener;
    if (l && l.halfOpen.size >= Math.ceil(l.limits.maxHalfOpen / 2)) {
      this.timeoutMs = Math.min(this.timeoutMs, l.limits.pressureTimeoutMs / 2);
      this.maxRetries = Math.min(this.maxRetries, 1);
    }
    this.cm.sendReliable(this, mad, rep, () => this.cm.requestTimedOut(this, 'REP'));
  }

  /** Active: the QP is ready; sends the RTU (IBTA §12.9.5.1). The connection is established. */
  ready(privateData: Uint8Array = EMPTY): void {
    if (this.state !== 'REP_RCVD' && this.state !== 'MRA_REP_SENT') this.#bad('ready (RTU)');
    const rtu: CmRtu = { kind: 'RTU', localCommId: this.localCommId, remoteCommId: this.remoteCommId, privateData };
    const mad = encodeCmMad(this.tid, rtu);
    this.lastSent = { mad, msg: rtu };
    this.setState('ESTABLISHED');
    this.cm.send(this.peer, mad, rtu);
  }

  /**
   * Passive: data arrived on the QP before the RTU (the COMM_EST affiliated event): the
   * connection is established without it (IBTA §12.9.5.2; Linux `ib_cm_notify`).
   */
  establish(): void {
    if (this.state !== 'REP_SENT' && this.state !== 'MRA_REP_RCVD') this.#bad('establish');
    this.cm.cancelRetransmit(this);
    this.setState('ESTABLISHED');
    this.emit({ type: 'established', privateData: EMPTY });
  }

  /**
   * Rejects the REQ (passive) or the REP (active) with `reason` (default 28, consumer
   * defined) and private data (≤ 148 octets). Linux `ib_send_cm_rej`.
   */
  reject(privateData: Uint8Array = EMPTY, reason: number = CmRejReason.CONSUMER_DEFINED, ari: Uint8Array = EMPTY): void {
    if (ari.length > CM_ARI_LEN) throw new RangeError(`ARI is at most ${CM_ARI_LEN} octets`);
    const s = this.state;
    if (!['REQ_SENT', 'MRA_REQ_RCVD', 'REQ_RCVD', 'MRA_REQ_SENT', 'REP_RCVD', 'MRA_REP_SENT', 'REP_SENT', 'MRA_REP_RCVD'].includes(s)) {
      this.#bad('reject');
    }
    const rej = this.cm.rejFor(this, reason, ari, privateData);
    const mad = encodeCmMad(this.tid, rej);
    this.cm.send(this.peer, mad, rej);
    if (s === 'REP_SENT' || s === 'MRA_REP_RCVD') this.cm.enterTimewait(this);
    else this.cm.toIdle(this);
  }

  /**
   * Disconnects: from ESTABLISHED sends a DREQ (retransmitted until the DREP, then TIMEWAIT);
   * after the peer's DREQ sends the DREP and enters TIMEWAIT (IBTA §12.9.7). Idempotent in
   * DREQ_SENT and TIMEWAIT.
   */
  disconnect(privateData: Uint8Array = EMPTY): void {
    switch (this.state) {
      case 'ESTABLISHED': {
        const dreq: CmDreq = {
          kind: 'DREQ',
          localCommId: this.localCommId,
          remoteCommId: this.remoteCommId,
          remoteQpn: this.remoteQpn,
          privateData,
        };
        this.tid = this.cm.newTid();
        const mad = encodeCmMad(this.tid, dreq);
        this.setState('DREQ_SENT');
        this.cm.sendReliable(this, mad, dreq, () => {
          this.cm.enterTimewait(this);
          this.emit({ type: 'disconnected', privateData: EMPTY, timedOut: true });
        });
        return;
      }
      case 'DREQ_RCVD': {
        const drep = { kind: 'DREP' as const, localCommId: this.localCommId, remoteCommId: this.remoteCommId, privateData };
        this.drepPrivateData = privateData;
        this.cm.send(this.peer, encodeCmMad(this.tid, drep), drep);
        this.cm.enterTimewait(this);
        return;
      }
      case 'DREQ_SENT':
      case 'TIMEWAIT':
      case 'IDLE':
        return;
      default:
        this.#bad('disconnect');
    }
  }

  /**
   * Destroys the connection as Linux `cm_destroy_id` does: a pending REQ gets REJ Timeout, an
   * undecided one REJ 28, an established one a DREQ, a received DREQ its DREP. No event is
   * reported afterwards; TIMEWAIT still runs so stale messages are recognised.
   */
  destroy(): void {
    if (this.#destroyed) return;
    switch (this.state) {
      case 'REQ_SENT':
      case 'MRA_REQ_RCVD': {
        this.reject(EMPTY, CmRejReason.TIMEOUT, this.cm.caGuidAri());
        break;
      }
      case 'REQ_RCVD':
      case 'MRA_REQ_SENT':
      case 'REP_SENT':
      case 'MRA_REP_RCVD':
      case 'REP_RCVD':
      case 'MRA_REP_SENT':
        this.reject();
        break;
      case 'ESTABLISHED':
      case 'DREQ_RCVD':
        this.disconnect();
        break;
      default:
        break;
    }
    this.#destroyed = true;
  }
}

/** An active SIDR request awaiting its SIDR_REP. */
export class IbCmSidrPending implements Retransmitter {
  peer: GsiAddress = { gid: new Uint8Array(16), qpn: GSI_QPN, qkey: GSI_QKEY, pkey: DEFAULT_PKEY };
  timeoutMs = 0;
  maxRetries = 15;
  retries = 0;
  timer: unknown;
  outstanding: Retransmitter['outstanding'];
  done = false;
  constructor(
    readonly cm: IbCm,
    readonly requestId: number,
    readonly onEvent: (ev: IbCmSidrEvent) => void,
  ) {}
  get name(): string {
    return `SIDR[${hx(this.requestId, 8)}]`;
  }
  destroy(): void {
    this.done = true;
    this.cm.sidrDone(this);
  }
}

/** An incoming SIDR request, answered once with `reply()` or `reject()`. */
export class IbCmSidrRequest {
  reply: CmSidrRep | undefined;
  replyMad: Uint8Array | undefined;
  expireTimer: unknown;
  constructor(
    readonly cm: IbCm,
    /** @internal */ readonly key: string,
    readonly req: CmSidrReq,
    readonly tid: bigint,
    readonly from: GsiAddress,
  ) {}

  /** Answers with status Success, the UD QP and its Q_Key (IBTA §12.11.2). */
  accept(p: { qpn: number; qkey: number; privateData?: Uint8Array; info?: Uint8Array }): void {
    this.#answer(SidrStatus.SUCCESS, p.qpn, p.qkey, p.privateData ?? EMPTY, p.info ?? EMPTY);
  }

  /** Answers with a failure status (default REJECT). */
  reject(status: SidrStatus = SidrStatus.REJECT, privateData: Uint8Array = EMPTY): void {
    this.#answer(status, 0, 0, privateData, EMPTY);
  }

  #answer(status: number, qpn: number, qkey: number, privateData: Uint8Array, info: Uint8Array): void {
    if (this.reply) throw Object.assign(new Error('SIDR request already answered'), { code: 'EINVAL' });
    const rep: CmSidrRep = { kind: 'SIDR_REP', requestId: this.req.requestId, status, qpn, serviceId: this.req.serviceId, qkey, info, privateData };
    this.replyMad = this.cm.sendSidrRep(this, rep);
    this.reply = rep;
  }

  /** @internal Forgets the request (its duplicates are new requests again). */
  expire(): void {
    if (this.expireTimer !== undefined) this.cm.timers.clear(this.expireTimer);
    this.expireTimer = undefined;
    this.cm.sidrInDone(this);
  }
}

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
 * This module holds the CM of a port (its maps, the messages it receives, the REQ and SIDR_REQ
 * it sends); its vocabulary (states, events, parameters, listener limits) is `cm-params.ts`, the
 * objects its consumers hold (listener, connection, SIDR exchanges) and the retransmission of
 * request MADs are `connection.ts`, and the REQ's format and first checks are `cm-format.ts`.
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
  CmMsgResponse,
  CmRejReason,
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
  encodeCmMad,
  SidrStatus,
  stringifyCmMessage,
  stringifyGid,
} from '../wire/ib/cm.js';
import { DEFAULT_PKEY, GSI_QKEY, GSI_QPN, hx } from '../wire/ib/mad.js';
import { logger } from '../util/log.js';
import { randomUnit } from '../util/random.js';
import {
  CMA_CM_MRA_SETTING,
  cmAckTimeout,
  DEFAULT_BACKLOG,
  defaultLimits,
  EMPTY,
  gidKey,
  type IbCmConnectParams,
  type IbCmEvent,
  type IbCmListenEvent,
  type IbCmListenLimits,
  type IbCmOptions,
  type IbCmSidrEvent,
  type IbCmSidrParams,
  type IbCmState,
  type IbCmStats,
  ibTimeoutMs,
  key2,
  limitsOf,
  MAX_SIDR_IN,
} from './cm-params.js';
import { formatReq, reqRejectReason } from './cm-format.js';
import {
  caGuidAri,
  cancelRetransmit,
  armRetransmit,
  IbCmConnection,
  IbCmListener,
  IbCmSidrPending,
  IbCmSidrRequest,
  rejFor,
  sendReliable,
} from './connection.js';
import { type GsiAddress, type GsiPort, realTimers, sameGid, type Timers } from './gsi.js';

export * from './cm-params.js';
export { IbCmConnection, IbCmListener, IbCmSidrPending, IbCmSidrRequest } from './connection.js';

const log = logger('ibcm');

/** The states in which a connection waits on a MAD of the peer's, or on its own consumer, to go on. */
const WAITING_ON_PEER: ReadonlySet<IbCmState> = new Set([
  'REQ_SENT',
  'REQ_RCVD',
  'MRA_REQ_SENT',
  'MRA_REQ_RCVD',
  'REP_SENT',
  'REP_RCVD',
  'MRA_REP_SENT',
  'MRA_REP_RCVD',
]);

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
    this.#port.onFail?.((reason) => this.#portFailed(reason));
  }

  /**
   * The port died (QP1 entered Error): no MAD can be sent or received any more. Every exchange
   * that waits on the peer ends now, as its timeout would have ended it (IBTA §12.9.3: the
   * request is abandoned), rather than after MaxCMRetries retransmissions into the void; then
   * the CM closes. An established connection is left to its QP, whose endpoint failed too.
   */
  #portFailed(reason: string): void {
    if (this.#closed) return;
    log('port failed (%s): ending %d pending exchange(s)', reason, this.#byLocal.size);
    for (const x of [...this.#byLocal.values()]) {
      if (x instanceof IbCmSidrPending) {
        if (x.done) continue;
        cancelRetransmit(this, x);
        this.#byLocal.delete(x.requestId);
        x.done = true;
        x.onEvent({ type: 'timeout' });
        continue;
      }
      if (!WAITING_ON_PEER.has(x.state)) continue;
      this.toIdle(x);
      x.emit({ type: 'timeout', message: 'port' });
    }
    this.close();
  }

  /** Listens on a service ID (exact match). Throws if one is there already (EADDRINUSE). */
  listen(
    serviceId: bigint,
    handler: (ev: IbCmListenEvent) => void,
    opts: { backlog?: number; limits?: Partial<IbCmListenLimits> } = {},
  ): IbCmListener {
    if (this.#closed) throw new Error('IbCm is closed');
    if (this.#listeners.has(serviceId)) {
      throw Object.assign(new Error(`service ID ${hx(serviceId, 16)} is already listened on`), { code: 'EADDRINUSE' });
    }
    const l = new IbCmListener(
      this,
      serviceId,
      handler,
      opts.backlog && opts.backlog > 0 ? opts.backlog : DEFAULT_BACKLOG,
      limitsOf(opts.limits ?? {}, this.listenLimits),
    );
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
    const c = new IbCmConnection(this, this.#newCommId(), 'active');
    const localAckTimeout = cmAckTimeout(this.caAckDelay, packetLifeTime);
    const req = formatReq(p, c.localCommId, this.caGuid, { pathMtu, hopLimit, localAckTimeout });
    const tid = this.newTid();
    const mad = encodeCmMad(tid, req); // throws RangeError before anything changed
    c.initActive(p, req, tid, packetLifeTime, onEvent);
    this.#byLocal.set(c.localCommId, c);
    c.setState('REQ_SENT');
    sendReliable(this, c, mad, req, () => this.requestTimedOut(c, 'REQ'));
    return c;
  }

  /** Sends a SIDR_REQ (IBTA §12.11.1) and reports the SIDR_REP or a timeout. */
  sidrRequest(p: IbCmSidrParams, onEvent: (ev: IbCmSidrEvent) => void): IbCmSidrPending {
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
    s.peer = {
      gid: p.destGid.slice(),
      qpn: p.destQpn ?? GSI_QPN,
      qkey: GSI_QKEY,
      pkey: msg.pkey,
      ...(p.localGid && { localGid: p.localGid.slice() }),
    };
    s.timeoutMs = p.timeoutMs ?? 2 * ibTimeoutMs(18) + ibTimeoutMs(20);
    s.maxRetries = p.maxRetries ?? 15;
    this.#byLocal.set(s.requestId, s);
    sendReliable(this, s, mad, msg, () => {
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

  /** REQ or REP unanswered: REJ Timeout with our CA GUID as ARI (IBTA REJ reason 4), back to IDLE. */
  /** @internal */
  requestTimedOut(c: IbCmConnection, message: 'REQ' | 'REP' | 'decision'): void {
    const rej = rejFor(c, CmRejReason.TIMEOUT, caGuidAri(this.caGuid), EMPTY);
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
    cancelRetransmit(this, c);
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
    cancelRetransmit(this, c);
    c.setState('TIMEWAIT');
    // The ACK timeout of a passive connection came from the peer's REQ: bounded.
    const ms =
      this.timewaitMs ?? ibTimeoutMs(c.role === 'passive' ? Math.min(c.localAckTimeout, this.maxResponseTimeout) : c.localAckTimeout);
    c.twTimer = this.timers.set(() => {
      c.twTimer = undefined;
      this.toIdle(c);
      c.emit({ type: 'timewait-exit' });
    }, ms);
  }

  /** @internal */
  sidrDone(s: IbCmSidrPending): void {
    cancelRetransmit(this, s);
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
          const rej = rejFor(dup, CmRejReason.STALE_CONN, EMPTY, EMPTY);
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
    // 4. The REQ's own fields: our GID as the peer named it, the transport, the path MTU.
    const gids = this.#gids();
    const bad = reqRejectReason(req, gids);
    if (bad) {
      this.#issueRej(req, tid, from, bad.reason, bad.ari);
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
    c.initPassive(req, tid, from, this.maxResponseTimeout);
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
      const rej = rejFor(c, CmRejReason.NO_RESOURCES, EMPTY, EMPTY);
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
    const st = Math.min(mra.serviceTimeout, next === 'MRA_REP_RCVD' ? this.maxResponseTimeout : CMA_CM_MRA_SETTING);
    armRetransmit(this, c, ibTimeoutMs(st) + 2 * ibTimeoutMs(c.packetLifeTime));
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
    cancelRetransmit(this, c);
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
    cancelRetransmit(this, c);
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
        cancelRetransmit(this, c);
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
    const r = new IbCmSidrRequest(this, key, req, tid, {
      gid: from.gid.slice(),
      qpn: from.qpn,
      qkey: GSI_QKEY,
      pkey: from.pkey,
      ...(from.localGid && { localGid: from.localGid.slice() }),
    });
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

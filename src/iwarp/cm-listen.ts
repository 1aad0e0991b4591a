/**
 * The responder side of the iWARP connection manager: a listener ({@link CmListener}) and the
 * connection requests it delivers ({@link CmConnectRequest}: accept or reject), with the MPA
 * Request timer and the bounds on what peers may make it hold, per source and per listener
 * ({@link CM_LISTEN_LIMITS}; RFC 5044 §7.1, RFC 6581). The initiator and socket conversion are
 * `cm.ts`.
 *
 * @module
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { RiRet } from '../rnicpi/status.js';
import { logger } from '../util/log.js';
import { MpaEcode, TerminateError } from '../wire/errors.js';
import { type MpaReqRep, stringifyMpaReqRep } from '../wire/mpa.js';
import { LlpStream, type RtrType } from './llp.js';
import {
  DEFAULT_RTR_PREFERENCE,
  examineRequest,
  type MpaRequestInfo,
  maxUserPrivateData,
  type ResponderConfig,
  rejectReply,
  responderAgree,
} from './mpa-startup.js';
import { CM_LISTEN_LIMITS, type CmListenLimits, checkLimits, listenDefaults, sourceKey } from './cm-limits.js';
import type { CmQp } from './cm-qp.js';
import {
  CmConnection,
  CmError,
  CmSocketEnds,
  type CmErrorKind,
  type CmMpaParams,
  type CmTrace,
  EMPTY,
  type FrameRead,
  FrameReader,
  checkQpIdle,
  closeGracefully,
  fromFailure,
  live,
  orphanRequests,
  peerName,
  policyOf,
  resetSocket,
  startTimer,
  stopTimer,
  toRts,
  track,
} from './cm-common.js';

export * from './cm-limits.js';

const log = logger('cm');
// ---------------------------------------------------------------------------------------------
// Responder: listener and connection requests
// ---------------------------------------------------------------------------------------------

export interface CmListenOptions extends Omit<CmMpaParams, 'p2p' | 'privateData' | 'ird' | 'ord'>, Partial<CmListenLimits> {
  /** Address to bind (default all). */
  host?: string;
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
}

/** A handshake that failed before (or instead of) a connection request. */
export interface CmFailure {
  kind: CmErrorKind;
  error: CmError;
  remoteAddress: string;
  remotePort: number;
}

export const peers = new WeakMap<net.Socket, { remoteAddress: string; remotePort: number }>();

export interface Handshake {
  socket: net.Socket;
  reader: FrameReader | null;
  timer: NodeJS.Timeout | null;
  /** {@link sourceKey} of the peer. */
  source: string;
  /** `performance.now()` at TCP accept: the age the pressure timeout and eviction go by. */
  born: number;
}

/** What one source address holds at a listener (the entry is dropped when it holds nothing). */
export interface SourceUse {
  /** Its half-open connections, oldest first. */
  halfOpen: Set<Handshake>;
  /** Its delivered, unanswered requests. */
  requests: number;
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
export class CmListener extends EventEmitter {
  readonly server: net.Server;
  readonly cfg: ResponderConfig;
  /** The limits this listener runs with. */
  readonly limits: Readonly<CmListenLimits>;
  readonly trace: CmTrace | undefined;
  #closed = false;
  /** Half-open connections, oldest first (a Set keeps insertion order). */
  readonly #handshakes = new Set<Handshake>();
  readonly #sources = new Map<string, SourceUse>();
  /** Sources above `maxHalfOpenPerSource`, for the next trim. */
  readonly #crowded = new Set<string>();
  #trimTimer: NodeJS.Timeout | null = null;
  /** @internal delivered, unanswered requests */
  readonly requests = new Set<CmConnectRequest>();
  /**
   * `evicted`: half-open connections dropped for newer ones (per source or per listener) or by
   * the pressure timeout; `expired`: requests the ULP left unanswered past `acceptTimeoutMs`;
   * `refused`: Requests beyond the request caps; `dropped`: connections arriving while closing.
   */
  readonly stats = {
    connections: 0,
    requests: 0,
    accepted: 0,
    rejected: 0,
    aborted: 0,
    failed: 0,
    dropped: 0,
    evicted: 0,
    expired: 0,
    refused: 0,
  };

  private constructor(opts: CmListenOptions) {
    super();
    this.cfg = {
      revision: opts.revision ?? 2,
      policy: policyOf(opts.policy),
      rtrPreference: opts.rtrPreference ?? DEFAULT_RTR_PREFERENCE,
      irdOrd: opts.irdOrd ?? 'relaxed',
      rdmapExt: opts.rdmapExt ?? true,
    };
    const limits = { ...listenDefaults };
    for (const k of Object.keys(CM_LISTEN_LIMITS) as (keyof CmListenLimits)[]) {
      const v = opts[k];
      if (v !== undefined) limits[k] = v;
    }
    this.limits = Object.freeze(checkLimits(limits));
    this.trace = opts.trace;
    // Half-open must stay possible for the QP (a Terminate may follow the peer's FIN), and the
    // socket must not be read by anyone before the MPA reader is in place.
    this.server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }, (s) => this.#onConnection(s));
  }

  /** How long a half-open connection may take to complete its Request (outside pressure). */
  get requestTimeoutMs(): number {
    return this.limits.requestTimeoutMs;
  }
  /** How long a delivered request may wait for the ULP (0: no limit). */
  get acceptTimeoutMs(): number {
    return this.limits.acceptTimeoutMs;
  }

  /** Opens a listener; resolves once it is bound. */
  static listen(opts: CmListenOptions = {}): Promise<CmListener> {
    const l = new CmListener(opts);
    return new Promise((resolve, reject) => {
      const onErr = (e: Error): void => reject(new CmError('invalid', `listen: ${e.message}`, { cause: e }));
      l.server.once('error', onErr);
      l.server.listen({ host: opts.host, port: opts.port ?? 0, backlog: l.limits.backlog }, () => {
        l.server.off('error', onErr);
        l.server.on('error', (e) => log('listener error: %s', e.message));
        live.listeners.add(l);
        log('listening on %s:%d', opts.host ?? '*', l.port);
        resolve(l);
      });
    });
  }

  /**
   * Opens a listener synchronously on all local addresses, for callers that must answer at once
   * (IT-API `it_listen_create` reports `IT_ERR_CONN_QUAL_BUSY` or the chosen port on return).
   * Without a host Node binds without a name lookup, so the outcome is known on return: the
   * listener, or null when the port cannot be bound (in use or not permitted).
   */
  static listenSync(opts: Omit<CmListenOptions, 'host'> = {}): CmListener | null {
    const l = new CmListener(opts);
    // A failed bind is also emitted as an 'error' on the next tick: keep it from being uncaught.
    l.server.on('error', (e) => log('listener error: %s', e.message));
    l.server.listen({ port: opts.port ?? 0, backlog: l.limits.backlog });
    if (l.server.address() === null) return null;
    live.listeners.add(l);
    log('listening on *:%d', l.port);
    return l;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo | null)?.port ?? 0;
  }
  get pendingHandshakes(): number {
    return this.#handshakes.size;
  }
  get pendingRequests(): number {
    return this.requests.size;
  }
  /** Half-open connections and delivered requests of one source address ({@link sourceKey}). */
  heldBy(address: string): { halfOpen: number; requests: number } {
    const u = this.#sources.get(sourceKey(address));
    return { halfOpen: u?.halfOpen.size ?? 0, requests: u?.requests ?? 0 };
  }
  /** Source addresses holding anything right now. */
  get sourceCount(): number {
    return this.#sources.size;
  }

  /**
   * Stops listening (IT-API `it_listen_free`): handshakes still waiting for their Request are
   * reset; requests already delivered stay valid for accept/reject.
   */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    live.listeners.delete(this);
    for (const r of this.requests) orphanRequests.add(r);
    for (const h of [...this.#handshakes]) this.#endHandshake(h, null);
    stopTimer(this.#trimTimer);
    this.#trimTimer = null;
    return new Promise((resolve) => {
      // The listening handle closes now; 'close' waits for accepted sockets, which QPs own.
      this.server.close();
      setImmediate(resolve);
    });
  }

  #fail(s: net.Socket, err: CmError): void {
    this.stats.failed++;
    // Addresses are read before the socket is destroyed (Node forgets them afterwards).
    const who = peers.get(s) ?? { remoteAddress: s.remoteAddress ?? '', remotePort: s.remotePort ?? 0 };
    log('handshake from %s:%d failed: %s (%s)', who.remoteAddress, who.remotePort, err.kind, err.message);
    const f: CmFailure = { kind: err.kind, error: err, ...who };
    this.emit('failure', f);
  }

  #use(source: string): SourceUse {
    let u = this.#sources.get(source);
    if (!u) {
      u = { halfOpen: new Set(), requests: 0 };
      this.#sources.set(source, u);
    }
    return u;
  }

  #release(source: string): void {
    const u = this.#sources.get(source);
    if (u && u.halfOpen.size === 0 && u.requests === 0) this.#sources.delete(source);
  }

  /** @internal a delivered request of `source` was answered, expired or aborted */
  requestSettled(r: CmConnectRequest): void {
    if (!this.requests.delete(r)) return;
    const u = this.#sources.get(r.source);
    if (u) {
      u.requests--;
      this.#release(r.source);
    }
  }

  /** Sends a refusing Reply (traced), then closes the socket gracefully. */
  #replyAndClose(s: net.Socket, reply: Uint8Array): void {
    this.trace?.({ dir: 'tx', what: 'reply', bytes: reply });
    closeGracefully(s, reply);
  }

  #endHandshake(h: Handshake, next: 'keep' | null): void {
    if (!this.#handshakes.delete(h)) return;
    this.#sources.get(h.source)?.halfOpen.delete(h);
    this.#release(h.source);
    stopTimer(h.timer);
    h.reader?.cancel();
    if (next === null) resetSocket(h.socket);
  }

  /** Drops a half-open connection to make room (reset, reported as `overload` or `timeout`). */
  #evict(h: Handshake, err: CmError): void {
    this.stats.evicted++;
    this.#endHandshake(h, null);
    this.#fail(h.socket, err);
  }

  #onConnection(s: net.Socket): void {
    track(s);
    const remoteAddress = s.remoteAddress ?? '';
    peers.set(s, { remoteAddress, remotePort: s.remotePort ?? 0 });
    this.stats.connections++;
    if (this.#closed) {
      this.stats.dropped++;
      this.#fail(s, new CmError('overload', 'the listener is closing'));
      resetSocket(s);
      return;
    }
    const lim = this.limits;
    const source = sourceKey(remoteAddress);
    const use = this.#use(source);
    const now = performance.now();
    // Under pressure a new half-open connection gets the short Request timeout.
    const pressure = this.#handshakes.size >= Math.ceil(lim.maxHalfOpen / 2);
    s.setNoDelay(true);
    const h: Handshake = { socket: s, reader: null, timer: null, source, born: now };
    this.#handshakes.add(h);
    use.halfOpen.add(h);
    const ms = pressure ? lim.pressureTimeoutMs : lim.requestTimeoutMs;
    h.timer = startTimer(ms, () => {
      h.timer = null;
      this.#endHandshake(h, null);
      this.#fail(s, new CmError('timeout', `no MPA Request within ${ms} ms`));
    });
    h.reader = new FrameReader(s, 'request', null, (r) => this.#onRequest(h, r));
    // Hard ceilings (twice the caps): beyond them the oldest go at once, whatever their age.
    while (use.halfOpen.size > 2 * lim.maxHalfOpenPerSource) {
      this.#evict(
        use.halfOpen.values().next().value as Handshake,
        new CmError('overload', `evicted: ${source} holds ${2 * lim.maxHalfOpenPerSource} half-open connections`),
      );
    }
    while (this.#handshakes.size > 2 * lim.maxHalfOpen) {
      this.#evict(
        this.#handshakes.values().next().value as Handshake,
        new CmError('overload', `evicted: the listener holds ${2 * lim.maxHalfOpen} half-open connections`),
      );
    }
    if (use.halfOpen.size > lim.maxHalfOpenPerSource) this.#crowded.add(source);
    if (pressure || this.#crowded.size > 0 || this.#handshakes.size > lim.maxHalfOpen) this.#scheduleTrim();
  }

  /**
   * Evictions wait `evictGraceMs`: Node accepts a whole accept queue before it reads any of the
   * new sockets, and a peer's Request may trail its TCP handshake a little, so evicting at accept
   * time could drop a connection whose Request is on its way. A legitimate Initiator sends its
   * Request right after TCP connect and leaves the half-open set within the grace; only peers
   * that sent nothing (or half a Request) grow older than it. Meanwhile the hard ceilings (twice
   * the caps) bound what is admitted.
   */
  #scheduleTrim(): void {
    if (this.#trimTimer || this.#closed) return;
    this.#trimTimer = startTimer(Math.max(1, this.limits.evictGraceMs), () => {
      this.#trimTimer = null;
      this.#trim();
    });
  }

  /**
   * The fair half-open limit, on connections older than the grace: a source above its cap loses
   * its own oldest; under pressure, connections older than the pressure timeout go; a listener
   * above its cap loses its oldest. The newest connection is never refused.
   */
  #trim(): void {
    if (this.#closed) return;
    const lim = this.limits;
    const now = performance.now();
    const ripe = (h: Handshake): boolean => now - h.born >= lim.evictGraceMs;
    for (const source of [...this.#crowded]) {
      this.#crowded.delete(source);
      const use = this.#sources.get(source);
      if (!use) continue;
      for (const h of [...use.halfOpen]) {
        if (use.halfOpen.size <= lim.maxHalfOpenPerSource || !ripe(h)) break;
        this.#evict(h, new CmError('overload', `evicted: ${source} holds more than ${lim.maxHalfOpenPerSource} half-open connections`));
      }
      if (use.halfOpen.size > lim.maxHalfOpenPerSource) this.#crowded.add(source);
    }
    const pressure = this.#handshakes.size >= Math.ceil(lim.maxHalfOpen / 2);
    if (pressure) {
      for (const h of this.#handshakes) {
        if (now - h.born < lim.pressureTimeoutMs) break;
        this.#evict(h, new CmError('timeout', `no MPA Request within ${lim.pressureTimeoutMs} ms (listener under pressure)`));
      }
    }
    for (const h of this.#handshakes) {
      if (this.#handshakes.size <= lim.maxHalfOpen || !ripe(h)) break;
      this.#evict(h, new CmError('overload', `evicted: the listener holds more than ${lim.maxHalfOpen} half-open connections`));
    }
    if (this.#crowded.size > 0 || this.#handshakes.size > lim.maxHalfOpen) this.#scheduleTrim();
  }

  #onRequest(h: Handshake, r: FrameRead | CmError): void {
    const s = h.socket;
    if (r instanceof CmError) {
      if (r.kind === 'bad-revision') {
        // RFC 5044 §7.1.1: tell the Initiator with a Reply carrying our revision and R.
        const rev = r.revision ?? 0;
        const fake: MpaReqRep = {
          type: 'request',
          markers: false,
          crc: false,
          reject: false,
          enhanced: false,
          res: 0,
          revision: rev,
          privateData: EMPTY,
        };
        const ex = examineRequest(fake, this.cfg);
        this.#endHandshake(h, 'keep');
        if (!ex.ok) this.#replyAndClose(s, ex.reply);
        else resetSocket(s);
      } else {
        this.#endHandshake(h, null);
      }
      this.#fail(s, r);
      return;
    }
    this.trace?.({ dir: 'rx', what: 'request', bytes: r.raw });
    if (log.enabled) log('← %s: %s', peerName(s), stringifyMpaReqRep(r.frame));
    if (r.rest.length > 0) {
      // The Initiator must wait for the Reply before its first FPDU (siw: "peer sent extra data").
      this.#endHandshake(h, null);
      this.#fail(
        s,
        new CmError('protocol', 'data after the MPA Request, before the Reply', {
          terminate: TerminateError.mpa(MpaEcode.InvalidRequestReply, 'data after the Request'),
        }),
      );
      return;
    }
    const ex = examineRequest(r.frame, this.cfg);
    this.#endHandshake(h, 'keep');
    if (!ex.ok) {
      this.#replyAndClose(s, ex.reply);
      this.#fail(s, fromFailure(ex.failure));
      return;
    }
    if (this.#closed) {
      resetSocket(s);
      return;
    }
    // The ULP's queue is bounded too, per source and in all: a complete Request beyond it is
    // refused the way the ULP would refuse it (RFC 5044 §7.1.1: a Reply with R set).
    const use = this.#use(h.source);
    const full =
      use.requests >= this.limits.maxRequestsPerSource
        ? `${h.source} has ${this.limits.maxRequestsPerSource} requests waiting for the ULP`
        : this.requests.size >= this.limits.maxRequests
          ? `the listener has ${this.limits.maxRequests} requests waiting for the ULP`
          : null;
    if (full) {
      this.#release(h.source);
      this.stats.refused++;
      const reply = rejectReply(ex.info, EMPTY);
      this.trace?.({ dir: 'tx', what: 'reply', bytes: reply });
      closeGracefully(s, reply);
      this.#fail(s, new CmError('overload', `refused: ${full}`));
      return;
    }
    const req = new CmConnectRequest(this, s, ex.info, h.source);
    this.requests.add(req);
    use.requests++;
    this.stats.requests++;
    this.emit('request', req);
  }
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
  /**
   * With `awaitFirstRx` false: still hold our first FPDU this long after the Reply unless the
   * Initiator's comes sooner (default 0; rdma_cm passes `PASSIVE_SETTLE_MS`, for Linux siw).
   */
  firstTxHoldMs?: number;
}

/**
 * One valid MPA Request awaiting the ULP's decision (IT-API `IT_CM_REQ_CONN_REQUEST_EVENT`): it
 * carries the peer's private data, IRD and ORD. It ends exactly once: `accept`, `reject`, or
 * `aborted` (event) when the peer goes away or sends data early (the socket is reset), or when
 * the ULP leaves it unanswered past the listener's `acceptTimeoutMs` (error kind `timeout`: the
 * CM rejects it as the ULP would, with an R Reply and a FIN, so the Initiator is told at once).
 */
export class CmConnectRequest extends CmSocketEnds {
  state: 'pending' | 'accepted' | 'rejected' | 'aborted' = 'pending';
  #timer: NodeJS.Timeout | null = null;
  #watching = false;

  constructor(
    readonly listener: CmListener,
    readonly socket: net.Socket,
    readonly info: MpaRequestInfo,
    /** The peer's {@link sourceKey}, which the listener's per-source caps count by. */
    readonly source: string = sourceKey(socket.remoteAddress ?? ''),
  ) {
    super(socket);
    this.#watch();
  }

  /** The Request's MPA revision. */
  get revision(): number {
    return this.info.frame.revision;
  }
  /** RFC 6581 enhanced establishment in use (the peer's IRD/ORD are known). */
  get enhanced(): boolean {
    return this.info.replyEnhanced;
  }
  /** The Initiator's IRD (RFC 6581 word), or null without one. */
  get peerIrd(): number | null {
    return this.info.peerIrdOrd?.ird ?? null;
  }
  /** The Initiator's ORD (RFC 6581 word), or null without one. */
  get peerOrd(): number | null {
    return this.info.peerIrdOrd?.ord ?? null;
  }
  /** RTR types offered in RFC 6581 P2P mode, or null when not P2P. */
  get p2p(): readonly RtrType[] | null {
    return this.info.p2p;
  }
  /** The Initiator's ULP private data. */
  get privateData(): Uint8Array {
    return this.info.privateData;
  }

  /**
   * While the ULP decides, the socket is read: any octet now is a protocol error (the Initiator
   * must wait for the Reply), and a FIN or reset ends the request.
   */
  #watch(): void {
    if (this.#watching) return;
    this.#watching = true;
    const s = this.socket;
    s.on('data', this.#onData);
    s.on('end', this.#onEnd);
    s.on('close', this.#onEnd);
    s.resume();
    if (this.listener.acceptTimeoutMs > 0 && !this.#timer) {
      this.#timer = startTimer(this.listener.acceptTimeoutMs, () => {
        this.#timer = null;
        this.#expire();
      });
    }
  }

  #unwatch(): void {
    if (!this.#watching) return;
    this.#watching = false;
    const s = this.socket;
    s.off('data', this.#onData);
    s.off('end', this.#onEnd);
    s.off('close', this.#onEnd);
    s.pause();
  }

  readonly #onData = (): void => {
    this.#abort(
      new CmError('protocol', 'data before the MPA Reply', {
        terminate: TerminateError.mpa(MpaEcode.InvalidRequestReply, 'data before the Reply'),
      }),
    );
  };
  readonly #onEnd = (): void => {
    this.#abort(new CmError('closed', 'the Initiator closed the connection before accept/reject'));
  };

  #settle(state: 'accepted' | 'rejected' | 'aborted'): void {
    this.state = state;
    this.#unwatch();
    stopTimer(this.#timer);
    this.#timer = null;
    this.listener.requestSettled(this);
    orphanRequests.delete(this);
  }

  /**
   * The ULP did not answer in time: rejected for it (an R Reply without private data, then a
   * FIN), so the Initiator is refused rather than left waiting for its own timer, and the
   * listener's slot is free again. The ULP sees `aborted` with kind `timeout`.
   */
  #expire(): void {
    if (this.state !== 'pending') return;
    const ms = this.listener.acceptTimeoutMs;
    this.#settle('aborted');
    this.listener.stats.aborted++;
    this.listener.stats.expired++;
    const reply = rejectReply(this.info, EMPTY);
    this.listener.trace?.({ dir: 'tx', what: 'reply', bytes: reply });
    closeGracefully(this.socket, reply);
    log('request from %s:%d not answered within %d ms: rejected', this.remoteAddress, this.remotePort, ms);
    this.emit('aborted', new CmError('timeout', `not accepted or rejected within ${ms} ms; the CM rejected it`));
  }

  #abort(err: CmError): void {
    if (this.state !== 'pending') return;
    this.#settle('aborted');
    this.listener.stats.aborted++;
    resetSocket(this.socket);
    log('request from %s:%d aborted: %s', this.remoteAddress, this.remotePort, err.message);
    this.emit('aborted', err);
  }

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
  accept(qp: CmQp, params: CmAcceptParams = {}): CmConnection {
    if (this.state !== 'pending') throw new CmError('invalid', `the request is ${this.state}`);
    const q = checkQpIdle(qp);
    const pd = params.privateData ?? EMPTY;
    if (pd.length > maxUserPrivateData(this.enhanced)) {
      throw new CmError('invalid', `private data of ${pd.length} octets; at most ${maxUserPrivateData(this.enhanced)}`);
    }
    const lim = qp.caps();
    const ird = params.ird ?? q.ird;
    const ord = params.ord ?? q.ord;
    if (ird > lim.maxIrdPerQp || ord > lim.maxOrdPerQp) throw new CmError('invalid', `IRD ${ird}/ORD ${ord} above the RNIC's limits`);
    const a = responderAgree(
      this.info,
      { ird, ord, maxIrd: lim.maxIrdPerQp, readRtrOk: q.enableRdmaRead, privateData: pd },
      this.listener.cfg,
    );
    if (!a.ok) throw fromFailure(a.failure);
    const ag = a.agreement;
    if ((ag.mpa.recvMarkers || ag.mpa.xmitMarkers) && !qp.markersSupported()) {
      throw new CmError('policy', 'Markers negotiated but this RNIC has none');
    }
    // The QP's receive path takes over the socket: stop watching it first.
    this.#unwatch();
    const waitForPeer = ag.rtr !== null || (params.awaitFirstRx ?? true);
    const holdMs = waitForPeer ? Number.POSITIVE_INFINITY : (params.firstTxHoldMs ?? 0);
    const stream = new LlpStream(this.socket, {
      awaitFirstRx: holdMs > 0,
      txHoldMs: holdMs,
      expectRtr: ag.rtr,
      rdmapExt: ag.rdmapExt,
    });
    const ret = toRts(qp, stream, ag.mpa, ag.ird, ag.ord, a.reply);
    if (ret !== RiRet.SUCCESS) {
      this.#watch();
      throw new CmError('qp', `Modify QP to RTS failed: ${RiRet[ret]}`, { ret });
    }
    this.#settle('accepted');
    this.listener.stats.accepted++;
    this.listener.trace?.({ dir: 'tx', what: 'reply', bytes: a.reply });
    if (log.enabled) {
      const now = qp.query();
      log(
        'QP[%d] RTS (passive) for %s:%d crc=%d markers rx=%d tx=%d ird=%d ord=%d rtr=%s',
        qp.id,
        this.remoteAddress,
        this.remotePort,
        +ag.mpa.crc,
        +ag.mpa.recvMarkers,
        +ag.mpa.xmitMarkers,
        now?.ird,
        now?.ord,
        ag.rtr ?? '-',
      );
    }
    return new CmConnection(qp, this.socket, 'passive', ag, this.info.privateData);
  }

  /**
   * Rejects (IT-API `it_reject`): a Reply with R set carrying `privateData` (RFC 5044 §7.1.1),
   * then a graceful close. The Initiator reports a peer reject with exactly this private data.
   */
  reject(privateData: Uint8Array = EMPTY): void {
    if (this.state !== 'pending') throw new CmError('invalid', `the request is ${this.state}`);
    if (privateData.length > maxUserPrivateData(this.enhanced)) {
      throw new CmError('invalid', `private data of ${privateData.length} octets; at most ${maxUserPrivateData(this.enhanced)}`);
    }
    this.#settle('rejected');
    this.listener.stats.rejected++;
    const reply = rejectReply(this.info, privateData);
    this.listener.trace?.({ dir: 'tx', what: 'reply', bytes: reply });
    closeGracefully(this.socket, reply);
  }
}

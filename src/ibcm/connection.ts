/**
 * The objects of the InfiniBand CM (IBTA Vol. 1 §12.9, §12.11): a listener, a connection (a
 * Linux `ib_cm_id`) with the calls its consumer makes (`mra`, `accept`, `ready`, `establish`,
 * `reject`, `disconnect`, `destroy`), the SIDR exchanges of both sides, and the retransmission
 * of a request MAD until it is answered (IBTA §12.9.3 "MaxCMRetries"). The CM (`cm.ts`) owns
 * the maps they are found by and dispatches received messages to them.
 *
 * @module
 */
import {
  CM_ARI_LEN,
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
  encodeCmMad,
  SidrStatus,
} from '../wire/ib/cm.js';
import { DEFAULT_PKEY, GSI_QKEY, GSI_QPN, hx } from '../wire/ib/mad.js';
import { logger } from '../util/log.js';
import type { IbCm } from './cm.js';
import {
  defaultLimits,
  EMPTY,
  gidKey,
  HALF_OPEN,
  type IbCmAcceptParams,
  type IbCmConnectParams,
  type IbCmEvent,
  type IbCmListenEvent,
  type IbCmListenLimits,
  type IbCmSidrEvent,
  type IbCmState,
  ibTimeoutMs,
} from './cm-params.js';
import type { GsiAddress } from './gsi.js';

const log = logger('ibcm');

/**
 * Sends a request MAD and retransmits it every `x.timeoutMs` up to `x.maxRetries` times (IBTA
 * §12.9.3 "MaxCMRetries"; Linux: the MAD layer's retries), then calls `exhausted`. An MRA
 * stretches the current wait (the CM's MRA handling re-arms `x`).
 */
export function sendReliable(cm: IbCm, x: Retransmitter, mad: Uint8Array, msg: CmMessage, exhausted: () => void): void {
  cancelRetransmit(cm, x);
  x.retries = 0;
  x.outstanding = { mad, msg, exhausted };
  cm.send(x.peer, mad, msg);
  armRetransmit(cm, x, x.timeoutMs);
}

/** Arms `x`'s retransmission timer for `ms`. */
export function armRetransmit(cm: IbCm, x: Retransmitter, ms: number): void {
  x.timer = cm.timers.set(() => {
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
    cm.stats.retransmits++;
    log('%s: retransmit %s (%d/%d)', x.name, o.msg.kind, x.retries, x.maxRetries);
    cm.send(x.peer, o.mad, o.msg);
    armRetransmit(cm, x, x.timeoutMs);
  }, ms);
}

/** Stops retransmitting `x`'s request (it was answered, or the connection is gone). */
export function cancelRetransmit(cm: IbCm, x: Retransmitter): void {
  if (x.timer !== undefined) cm.timers.clear(x.timer);
  x.timer = undefined;
  x.outstanding = undefined;
}

/** A REJ answering `c` in its current state (Linux `cm_format_rej`). */
export function rejFor(c: IbCmConnection, reason: number, ari: Uint8Array, privateData: Uint8Array): CmRej {
  const s = c.state;
  return {
    kind: 'REJ',
    localCommId: s === 'REQ_RCVD' ? 0 : c.localCommId,
    remoteCommId: c.remoteCommId,
    msgRejected:
      s === 'REQ_RCVD' || s === 'MRA_REQ_SENT'
        ? CmMsgResponse.REQ
        : s === 'REP_RCVD' || s === 'MRA_REP_SENT'
          ? CmMsgResponse.REP
          : CmMsgResponse.OTHER,
    reason,
    ari,
    privateData,
  };
}

/** A CA GUID as the 8-octet ARI of a REJ Timeout (IBTA REJ reason 4). */
export function caGuidAri(caGuid: bigint): Uint8Array {
  const a = new Uint8Array(8);
  new DataView(a.buffer).setBigUint64(0, caGuid);
  return a;
}

/** Something with an outstanding request MAD that is retransmitted until answered. */
export interface Retransmitter {
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

  /** An active connection takes its peer and timers from the consumer's parameters and its REQ (IBTA §12.9.6.1). */
  initActive(p: IbCmConnectParams, req: CmReq, tid: bigint, packetLifeTime: number, onEvent: (ev: IbCmEvent) => void): void {
    this.localQpn = p.qpn;
    this.peer = {
      gid: p.destGid.slice(),
      qpn: p.destQpn ?? GSI_QPN,
      qkey: GSI_QKEY,
      pkey: p.pkey ?? DEFAULT_PKEY,
      localGid: p.localGid.slice(),
    };
    this.serviceId = p.serviceId;
    this.req = req;
    this.tid = tid;
    this.onEvent = onEvent;
    this.packetLifeTime = packetLifeTime;
    this.localAckTimeout = req.primary.localAckTimeout;
    this.maxRetries = req.maxCmRetries;
    this.timeoutMs = 2 * ibTimeoutMs(packetLifeTime) + ibTimeoutMs(req.remoteCmResponseTimeout);
  }

  /**
   * A passive connection takes its peer and timers from the REQ (IBTA §12.9.6.2). The peer names
   * how long we wait for it, and a hostile REQ says hours: `cap` (the CM's maxResponseTimeout)
   * bounds both exponents.
   */
  initPassive(req: CmReq, tid: bigint, from: GsiAddress, cap: number): void {
    this.remoteCommId = req.localCommId;
    this.remoteCaGuid = req.localCaGuid;
    this.remoteQpn = req.localQpn;
    this.serviceId = req.serviceId;
    this.req = req;
    this.tid = tid;
    // Replies leave from our GID the peer named (validated by the CM), as Linux cm_init_av_for_response.
    this.peer = { gid: from.gid.slice(), qpn: from.qpn, qkey: GSI_QKEY, pkey: from.pkey, localGid: req.primary.remoteGid.slice() };
    this.localAckTimeout = req.primary.localAckTimeout;
    this.packetLifeTime = Math.min(cap, Math.max(0, req.primary.localAckTimeout - 1));
    this.maxRetries = req.maxCmRetries;
    // The active side answers a REP within its LocalCMResponseTimeout (Linux cm_req_handler).
    this.timeoutMs = ibTimeoutMs(Math.min(cap, req.localCmResponseTimeout)) + 2 * ibTimeoutMs(this.packetLifeTime);
  }

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
    const mra: CmMra = {
      kind: 'MRA',
      localCommId: this.localCommId,
      remoteCommId: this.remoteCommId,
      msgMraed,
      serviceTimeout,
      privateData,
    };
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
    sendReliable(this.cm, this, mad, rep, () => this.cm.requestTimedOut(this, 'REP'));
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
    cancelRetransmit(this.cm, this);
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
    const rej = rejFor(this, reason, ari, privateData);
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
        sendReliable(this.cm, this, mad, dreq, () => {
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
        this.reject(EMPTY, CmRejReason.TIMEOUT, caGuidAri(this.cm.caGuid));
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
    const rep: CmSidrRep = {
      kind: 'SIDR_REP',
      requestId: this.req.requestId,
      status,
      qpn,
      serviceId: this.req.serviceId,
      qkey,
      info,
      privateData,
    };
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

/**
 * The in-process loopback transport: two QPs of the same process (or of two RNICs in it)
 * joined by a pair of {@link LoopbackEndpoint} LLP handles, with no socket and no framing.
 * It exists so the core's semantics can be tested quickly and deterministically on a second
 * transport, and so loss and reordering can be injected ({@link FaultHook}).
 *
 * Each direction is an ordered queue of units: copies of the requester's {@link TxSeg}s (the
 * payload is copied when sent, so a Send or Write completes at once: "local delivery"), plus
 * the control units FIN, RST and TERMINATE. The receiving side checks its own sequencing, as a
 * wire would: a per-queue message number and, when faults are injected, a CRC32C of each
 * payload, and reports a violation as its own {@link LoopbackWireError}. Everything else — the
 * access check, receive matching, ORD/IRD — is the core's responder.
 *
 * Backpressure: at most {@link LOOPBACK_WINDOW} units may wait unconsumed at the peer; the
 * sender stops pulling from its requester until the peer drains them.
 *
 * It also carries InfiniBand QPs (an RNIC whose `ibLink` is `'loopback'`, registered with
 * `registerIbBinder`): RC and UC QPs joined by their dest QPNs, messages cut at the path MTU, UD
 * datagrams to the QP each Send names with a synthesised GRH, and a responder fault returned to
 * the requester as the status an IB NAK would give. It has no ACKs, PSNs or retransmission: that
 * is the RoCEv2 transport's (src/roce/).
 */
import { RiRet } from '../rnicpi/status.js';
import { RiAsyncEventType, RiQpState, RiWcStatus } from '../rnicpi/types.js';
import { Fault, type WireError } from '../rnic/faults.js';
import type { LlpAttrs, Qp } from '../rnic/qp.js';
import { type IbQpAttrs, mtuBytes, newTxSeg, type QpTransport, type TransportCaps, TxOp, type TxSeg } from '../rnic/transport.js';
import { newUntaggedSegment, type UntaggedSegment } from '../rnic/responder.js';
import { WqeState } from '../rnic/wqe.js';
import { logger } from '../util/log.js';
import { crc32c } from '../wire/crc32c.js';
import { type FaultDecision, FaultHook, type FaultPlan } from './faults.js';
import { udGrh } from '../wire/ib/grh.js';

const log = logger('loopback');

/** Units that may wait unconsumed at the peer before the sender pauses. */
export const LOOPBACK_WINDOW = 256;
/** Payload per unit: the segment size the requester cuts messages into. */
export const LOOPBACK_MTU = 65_536;

/** Both ends are this process's core: every operation, atomics and immediate data included. */
export const LOOPBACK_CAPS: TransportCaps = Object.freeze({
  immediateData: true,
  atomics: true,
  extAtomics: true,
  rnr: false,
  sendCompletion: 'local-delivery',
  states: 'iwarp',
});

/** The loopback carrying InfiniBand (RC, UC) QPs: IB states, segments cut at the path MTU. */
export const LOOPBACK_IB_CAPS: TransportCaps = Object.freeze({ ...LOOPBACK_CAPS, states: 'ib' });

/** Kinds of unit on the loopback wire. */
export const enum K {
  DATA = 0,
  FIN = 1,
  RST = 2,
  TERMINATE = 3,
}

/** A segment as it crosses the loopback wire: the requester's fields, with the payload copied. */
export interface Unit extends TxSeg {
  k: K;
  /** Message number within its queue (Send, Read Request), as DDP's MSN. */
  msn: number;
  payload: Uint8Array;
  crc: number;
  /** TERMINATE: the sender's fault. */
  fault: number;
  /** TERMINATE for a violation of the loopback wire itself (no core fault): its kind. */
  wire?: LoopbackWireError['kind'];
  /** The sending connection, whose window slot frees when the unit is processed. */
  from?: LoopbackConn;
  /** IB UD: the datagram's GRH as the receiver's buffer gets it, its Q_Key and source QP. */
  grh?: Uint8Array;
  qkey?: number;
  srcQpn?: number;
}

/** What sits at one end of a loopback link and takes the units sent to it. */
interface UnitSink {
  readonly detached: boolean;
  receive(u: Unit, from: LoopbackConn | undefined): void;
  /** Abortive close of this end (RST toward the other). */
  reset(): void;
}

/** A sequencing or integrity violation the loopback wire itself detects. */
export class LoopbackWireError {
  constructor(
    readonly kind: 'sequence' | 'corrupt',
    readonly message: string,
  ) {}
}

/** One end of a loopback link: the LLP handle a QP is given at Idle→RTS (RNICPI §4.4). */
export class LoopbackEndpoint {
  peer!: LoopbackEndpoint;
  inUse = false;
  conn: UnitSink | null = null;
  /** Units that arrived before a QP attached (bounded by the sender's window). */
  readonly early: Unit[] = [];
  /** Faults applied to units this end sends. */
  hook: FaultHook | null = null;
  closed = false;
  /** IB: the QPN this end's QP sends to (the pair is joined when both name each other). */
  ibDest = -1;
  /** IB: units sent before the peer QP reached RTR and was joined. */
  readonly unlinked: Unit[] = [];
  constructor(readonly name: string) {}
}

/**
 * Makes a connected pair of loopback LLP handles. `faults` (one plan per direction, a→b and
 * b→a) turns the fault hook on.
 */
export function loopbackPair(faults: { ab?: FaultPlan; ba?: FaultPlan } = {}): [LoopbackEndpoint, LoopbackEndpoint] {
  const a = new LoopbackEndpoint('a');
  const b = new LoopbackEndpoint('b');
  a.peer = b;
  b.peer = a;
  if (faults.ab) a.hook = new FaultHook(faults.ab);
  if (faults.ba) b.hook = new FaultHook(faults.ba);
  return [a, b];
}

/** Binds loopback handles (the provider lists it: `src/provider/transports.ts`). */
export function attachLoopback(qp: Qp, handle: unknown, _attrs: LlpAttrs): LoopbackConn | RiRet | null {
  if (!(handle instanceof LoopbackEndpoint)) return null;
  if (handle.closed) return RiRet.INVALID_LL_HANDLE;
  if (handle.inUse) return RiRet.LL_BAD_STATE;
  handle.inUse = true;
  return new LoopbackConn(qp, handle);
}

/** IB loopback endpoints by the QPN of their QP (QPNs of IB RNICs are unique in the process). */
const ibEndpoints = new Map<number, LoopbackEndpoint>();

/**
 * The IB binder of the loopback (listed as `loopback` in `src/provider/transports.ts`): an RC or UC QP reaching
 * RTR is joined to the QP its dest QPN names, in this process, once that one names it back;
 * until then what it sends waits. A UD QP's datagrams go to the QP each Send names, with a GRH
 * synthesised from the address vector. An RNIC whose `ibLink` is `'loopback'` uses it.
 */
export function attachLoopbackIb(qp: Qp, attrs: Readonly<IbQpAttrs>): LoopbackConn | RiRet {
  const ep = new LoopbackEndpoint(`qp${qp.id}`);
  if (attrs.service === 'UD') {
    // Datagrams go to whichever QP each Send names: no peer to join.
    ep.inUse = true;
    ibEndpoints.set(qp.id, ep);
    return new LoopbackConn(qp, ep, true);
  }
  ep.ibDest = attrs.destQpn;
  ep.inUse = true;
  ibEndpoints.set(qp.id, ep);
  const peer = ibEndpoints.get(attrs.destQpn);
  if (peer && !peer.closed && peer.ibDest === qp.id) {
    ep.peer = peer;
    peer.peer = ep;
    // What the peer sent before we were there arrives now, in order.
    for (const u of peer.unlinked.splice(0)) ep.early.push(u);
    if (peer.conn instanceof LoopbackConn) peer.conn.flushUnlinked();
  }
  return new LoopbackConn(qp, ep, true);
}

/** Is `g` an IPv4-mapped GID (::ffff:a.b.c.d, RFC 4291 §2.5.5.2)? */
function isV4Mapped(g: Uint8Array): boolean {
  return g.subarray(0, 10).every((b) => b === 0) && g[10] === 0xff && g[11] === 0xff;
}

/**
 * The 40 octets a UD receive buffer starts with, as a RoCEv2 receiver writes them (`udGrh`):
 * between IPv4-mapped GIDs the IPv4 header the datagram would have had, otherwise the IPv6
 * header. `len` is the payload; the UDP header (8), BTH (12), DETH (8) and ICRC (4) are counted
 * as the wire would carry them.
 */
export function synthGrh(sgid: Uint8Array, dgid: Uint8Array, tclass: number, flow: number, hopLimit: number, len: number): Uint8Array {
  const v4 = isV4Mapped(sgid) && isV4Mapped(dgid);
  const src = v4 ? sgid.subarray(12) : sgid;
  const dst = v4 ? dgid.subarray(12) : dgid;
  return udGrh({ src, dst, trafficClass: tclass, flowLabel: flow, hopLimit, ipId: 0, udpLength: 8 + 12 + 8 + len + 4 });
}

/** The completion status of a WQE the loopback peer refused, by the peer's fault (IB NAK codes). */
function nakStatus(f: number): RiWcStatus {
  if (f >= Fault.INVALID_STAG && f <= Fault.WRAP) return RiWcStatus.REMOTE_ACCESS_ERROR;
  if (f >= Fault.READ_SRC_INVALID_STAG && f <= Fault.READ_SRC_WRAP) return RiWcStatus.REMOTE_ACCESS_ERROR;
  if (f === Fault.LOCAL_CATASTROPHIC || f === Fault.NO_RECV_BUFFER) return RiWcStatus.REMOTE_OP_ERROR;
  return RiWcStatus.REMOTE_INVALID_REQ_ERROR;
}

export class LoopbackConn implements QpTransport {
  readonly caps: TransportCaps;
  #active = false;
  detached = false;
  #rxStopped = false;
  #scheduled = false;
  #running = false;
  #finSent = false;
  #finReceived = false;
  #closedReported = false;
  /** Units sent and not yet consumed by the peer. */
  inFlight = 0;
  /** Units received and not yet processed. */
  readonly #inbox: Unit[] = [];
  #draining = false;
  /** Received units are held unprocessed, as by a reader that stopped reading. */
  #paused = false;
  #held: Unit | null = null;
  #sendMsn = 1;
  #readMsn = 1;
  #recvMsn = 1;
  /** The untagged segment handed to the core's responder, reused. */
  readonly #rxSeg: UntaggedSegment = newUntaggedSegment();
  #recvReadMsn = 1;

  constructor(
    readonly qp: Qp,
    readonly ep: LoopbackEndpoint,
    /** Carries an InfiniBand QP (joined by QPN; no FIN/Terminate handshake). */
    readonly ib = false,
  ) {
    this.caps = ib ? LOOPBACK_IB_CAPS : LOOPBACK_CAPS;
  }

  maxPayload(_op: TxOp): number {
    // IB: messages are cut at exactly the path MTU, as a RoCE wire does (IBTA Vol. 1 §9.7.7).
    if (!this.ib) return LOOPBACK_MTU;
    // UD: a datagram is at most the port's active MTU (the core refuses longer ones at post).
    return this.qp.service === 'UD' ? mtuBytes(this.qp.rnic.config.activeMtu ?? 3) : mtuBytes(this.qp.ib.pathMtu);
  }

  /** IB: the peer was joined; deliver what waited for it. */
  flushUnlinked(): void {
    for (const u of this.ep.unlinked.splice(0)) this.#toPeer(u, 0);
  }

  start(_streamMsg: Uint8Array | null): void {
    this.#active = true;
    this.ep.conn = this;
    for (const u of this.ep.early.splice(0)) this.#inbox.push(u);
    if (this.#inbox.length > 0) this.#scheduleDrain();
    if (this.ep.peer?.closed) {
      // The peer went away before we attached: as a reset LLP.
      queueMicrotask(() => this.#deliverControl(K.RST));
    }
  }

  kick(): void {
    if (this.#scheduled || !this.#active) return;
    this.#scheduled = true;
    queueMicrotask(() => this.#run());
  }

  /** The transmit loop: pulls segments until the peer's window is full. */
  #run(): void {
    this.#scheduled = false;
    const qp = this.qp;
    if (!this.#active || this.#running || !qp.canTransmit) return;
    this.#running = true;
    try {
      while (this.inFlight < LOOPBACK_WINDOW && qp.canTransmit) {
        const g = qp.requester.next(this);
        if (!g) break;
        this.#sendSeg(g);
      }
    } finally {
      this.#running = false;
    }
  }

  #sendSeg(g: TxSeg): void {
    let msn = 0;
    if (g.op === TxOp.SEND || g.op === TxOp.SEND_INVALIDATE || g.op === TxOp.SEND_IMM) {
      msn = this.#sendMsn;
      if (g.last) this.#sendMsn++;
    } else if (g.op === TxOp.READ_REQUEST || g.op === TxOp.ATOMIC_REQUEST) {
      // Atomic Requests share the Read Request queue, as on iWARP (RFC 7306 §5).
      msn = this.#readMsn++;
    }
    const payload = new Uint8Array(g.len);
    let o = 0;
    for (const p of g.parts) {
      payload.set(p, o);
      o += p.length;
    }
    const u: Unit = { ...g, wqe: null, parts: [], k: K.DATA, msn, payload, crc: this.ep.hook ? crc32c(payload) : 0, fault: 0 };
    if (this.ib && g.ud) {
      // A datagram: to the QP it names, if that QP is listening; else it is lost, as on a wire.
      const d = g.ud;
      const qp = this.qp;
      // A Q_Key with the high-order bit set means the QP's own (IBTA Vol. 1 §10.2.5).
      u.qkey = d.remoteQkey & 0x8000_0000 ? qp.ib.qkey : d.remoteQkey;
      u.srcQpn = qp.id;
      u.grh = synthGrh(d.av.sgid, d.av.dgid, d.av.trafficClass, d.av.flowLabel, d.av.hopLimit || 64, g.len);
      u.ud = null;
      const target = ibEndpoints.get(d.remoteQpn);
      if (target?.conn && !target.closed) this.#toPeer(u, 0, target);
    } else {
      this.#transmit(u);
    }
    // The payload was copied: the buffer is free and the WR is delivered (local delivery).
    const w = g.wqe;
    if (w && g.last && w.state === WqeState.WAIT_DELIVERY) this.qp.requester.delivered(w);
  }

  /** Puts a unit on the wire toward the peer, through the fault hook if any. */
  #transmit(u: Unit): void {
    const hook = this.ep.hook;
    if (!hook || u.k !== K.DATA) {
      this.#flushHeld();
      this.#toPeer(u, 0);
      return;
    }
    const d: FaultDecision = hook.decide();
    if (d.drop) return;
    if (d.corrupt && u.payload.length > 0) {
      const copy = u.payload.slice();
      const i = hook.pick(copy.length);
      copy[i] = copy[i]! ^ (1 << hook.pick(8));
      u = { ...u, payload: copy };
    }
    if (d.reorder && !this.#held) {
      this.#held = u;
      return;
    }
    this.#toPeer(u, d.delayMs);
    this.#flushHeld();
    if (d.duplicate) this.#toPeer(u, d.delayMs);
  }

  #flushHeld(): void {
    const h = this.#held;
    if (!h) return;
    this.#held = null;
    this.#toPeer(h, 0);
  }

  #toPeer(u: Unit, delayMs: number, to?: LoopbackEndpoint): void {
    const peer = to ?? this.ep.peer;
    if (!peer) {
      // IB: the QP named by dest QPN has not reached RTR yet.
      this.ep.unlinked.push(u);
      return;
    }
    this.inFlight++;
    const deliver = () => {
      const c = peer.conn;
      if (c && !c.detached) c.receive(u, this);
      else if (!peer.closed) peer.early.push(u);
      else this.inFlight--;
    };
    if (delayMs > 0) setTimeout(deliver, delayMs).unref?.();
    else deliver();
  }

  // ------------------------------------------------------------------ receive

  receive(u: Unit, from: LoopbackConn | undefined): void {
    u.from = from;
    this.#inbox.push(u);
    this.#scheduleDrain();
  }

  #scheduleDrain(): void {
    if (this.#draining) return;
    this.#draining = true;
    setImmediate(() => this.#drain());
  }

  /** Stops processing received units (they queue up), as a paused socket's reader. */
  pauseRx(): void {
    this.#paused = true;
  }

  resumeRx(): void {
    this.#paused = false;
    if (this.#inbox.length > 0) this.#scheduleDrain();
  }

  #drain(): void {
    this.#draining = false;
    if (this.#paused) return;
    const batch = this.#inbox.splice(0);
    for (const u of batch) {
      const from = u.from;
      if (from) {
        from.inFlight--;
        if (from.inFlight === LOOPBACK_WINDOW - 1 || from.inFlight === 0) from.kick();
      }
      if (this.detached) continue;
      this.#process(u);
    }
  }

  #process(u: Unit): void {
    const qp = this.qp;
    switch (u.k) {
      case K.FIN:
        this.#finReceived = true;
        qp.onLlpFin();
        this.#maybeClosed();
        return;
      case K.RST:
        // IB has no connection to reset: the peer's packets simply stop.
        if (!this.detached && !this.ib) qp.onLlpReset(false);
        return;
      case K.TERMINATE:
        if (this.#rxStopped) return;
        if (this.ib) {
          // The IB peer NAKed: the oldest unfinished WQE completes with the NAK's status and
          // the QP enters Error (IBTA Vol. 1 §9.7.5.2.2).
          this.#rxStopped = true;
          qp.rnic.counters.terminatesReceived++;
          const w = qp.sqAt(qp.firstIncompleteSeq);
          if (w) qp.requester.failRemote(w, nakStatus(u.fault));
          else qp.toError('NAK received', null);
          return;
        }
        this.#rxStopped = true;
        qp.rnic.counters.terminatesReceived++;
        qp.onTerminateReceived({ fault: u.fault as Fault, bytes: new Uint8Array(0), local: false });
        return;
    }
    if (this.#rxStopped) return;
    const st = qp.state;
    if (st === RiQpState.TERMINATE || st === RiQpState.ERROR || st === RiQpState.IDLE || st === RiQpState.INITIALIZED) return;
    if (st === RiQpState.CLOSING) {
      // Data while Closing is a bad close (Verbs §6.2 T15).
      this.#rxStopped = true;
      qp.badClose();
      return;
    }
    if (this.ib && qp.service === 'UD') {
      // UD: the core checks the Q_Key; no posted receive drops the datagram silently.
      if (u.grh) {
        const payload = { segments: [u.payload] };
        qp.responder.rxDatagram({
          grh: u.grh,
          payload,
          skip: 0,
          len: u.payload.length,
          se: u.se,
          srcQpn: u.srcQpn ?? 0,
          qkey: u.qkey ?? 0,
        });
      }
      return;
    }
    if (this.ep.peer?.hook && crc32c(u.payload) !== u.crc) {
      this.#wireError(new LoopbackWireError('corrupt', 'payload checksum mismatch'));
      return;
    }
    const r = qp.responder;
    const len = u.payload.length;
    const p = { segments: [u.payload] };
    let f: Fault;
    switch (u.op) {
      case TxOp.RDMA_WRITE:
        f = r.rxWrite(u.stag, u.to, len, u.last, p, 0);
        // RDMA Write with Immediate: the immediate consumes a receive after the data is placed.
        if (f === Fault.OK && u.hasImm && u.last) f = r.rxWriteImm(u.imm, u.se);
        break;
      case TxOp.ATOMIC_REQUEST:
        if (u.msn !== this.#recvReadMsn) {
          this.#wireError(new LoopbackWireError('sequence', `Atomic Request ${u.msn}, expected ${this.#recvReadMsn}`));
          return;
        }
        f = r.rxAtomicRequest(u.requestId, u.atomic!, u.stag, u.to, this);
        if (f === Fault.OK) this.#recvReadMsn++;
        break;
      case TxOp.ATOMIC_RESPONSE:
        f = this.qp.completer.rxAtomicResponse(u.requestId, u.orig!, this);
        break;
      case TxOp.READ_RESPONSE:
        // IB responses carry no sink address: they answer the ORQ head.
        f = this.ib
          ? this.qp.completer.rxReadResponseIb(len, u.last, p, 0, this)
          : this.qp.completer.rxReadResponse(u.stag, u.to, len, u.last, p, 0, this);
        break;
      case TxOp.READ_REQUEST:
        if (u.msn !== this.#recvReadMsn) {
          this.#wireError(new LoopbackWireError('sequence', `Read Request ${u.msn}, expected ${this.#recvReadMsn}`));
          return;
        }
        f = r.rxReadRequest(u.sinkStag, u.sinkTo, u.size, u.srcStag, u.srcTo, this);
        if (f === Fault.OK) this.#recvReadMsn++;
        break;
      default: {
        if (u.msn !== this.#recvMsn) {
          this.#wireError(new LoopbackWireError('sequence', `message ${u.msn}, expected ${this.#recvMsn}`));
          return;
        }
        const s = this.#rxSeg;
        s.offset = u.offset;
        s.len = len;
        s.last = u.last;
        s.se = u.se;
        s.invalidate = u.op === TxOp.SEND_INVALIDATE;
        s.invStag = u.invStag;
        s.imm = u.op === TxOp.SEND_IMM ? u.imm : undefined;
        f = r.rxSend(s, p, 0);
        if (f === Fault.OK && u.last) this.#recvMsn++;
      }
    }
    if (f !== Fault.OK) {
      this.#rxStopped = true;
      if (f !== Fault.HANDLED) qp.remoteFault(f, null);
    }
  }

  /** A violation of the loopback wire itself: its event, then the QP's error path. */
  #wireError(e: LoopbackWireError): void {
    this.#rxStopped = true;
    log('QP[%d] loopback wire error: %s', this.qp.id, e.message);
    if (e.kind === 'corrupt') this.qp.rnic.counters.crcErrors++;
    this.qp.rnic.asyncEvent(
      e.kind === 'corrupt' ? RiAsyncEventType.QP_LLQ_INTEGRITY_ERROR_CRC : RiAsyncEventType.QP_RQ_PROTECTION_ERROR_INVALID_MSN,
      this.qp,
    );
    this.qp.terminateWith(e, null);
  }

  // ------------------------------------------------------------------ control

  /** The loopback's TERMINATE carries the core's fault itself: the record has no wire form, only the fault. */
  sendFatal(err: Fault | object, _copied: unknown): WireError {
    const fault = typeof err === 'number' ? err : Fault.LOCAL_CATASTROPHIC;
    this.qp.rnic.counters.terminatesSent++;
    log('QP[%d] sending TERMINATE (%s)', this.qp.id, typeof err === 'number' ? Fault[err] : (err as LoopbackWireError).message);
    this.#flushHeld();
    const u = this.#control(K.TERMINATE, fault);
    if (err instanceof LoopbackWireError) u.wire = err.kind;
    this.#toPeer(u, 0);
    return { fault, bytes: new Uint8Array(0), local: true };
  }

  closeGraceful(): void {
    if (this.#finSent || this.detached) return;
    this.#finSent = true;
    this.#flushHeld();
    this.#toPeer(this.#control(K.FIN, 0), 0);
    this.#maybeClosed();
  }

  /** Both FINs are through: the LLP is closed (as TCP's close after a FIN each way). */
  #maybeClosed(): void {
    if (!this.#finSent || !this.#finReceived || this.#closedReported) return;
    this.#closedReported = true;
    setImmediate(() => {
      if (!this.detached) this.qp.onLlpClosed();
    });
  }

  reset(): void {
    if (this.detached) return;
    this.detach();
    this.#toPeer(this.#control(K.RST, 0), 0);
  }

  #deliverControl(k: K): void {
    if (!this.detached) this.#process(this.#control(k, 0));
  }

  detach(): void {
    if (this.detached) return;
    if (this.ib && ibEndpoints.get(this.qp.id) === this.ep) ibEndpoints.delete(this.qp.id);
    this.detached = true;
    this.#active = false;
    this.ep.closed = true;
    this.ep.conn = null;
    this.#inbox.length = 0;
  }

  #control(k: K, fault: number): Unit {
    return { ...newTxSeg(), k, msn: 0, payload: EMPTY, crc: 0, fault };
  }
}

const EMPTY = new Uint8Array(0);

/**
 * A raw end of a loopback link: it puts units on the wire exactly as given and records what
 * arrives, with none of the core's checks. It is the loopback counterpart of a raw TCP peer
 * speaking MPA/DDP/RDMAP bytes, so a hostile peer can be tested on this transport too.
 * The victim's window slots are freed as units arrive (a peer that keeps reading).
 */
export class LoopbackRawEnd implements UnitSink {
  detached = false;
  readonly received: Unit[] = [];
  #waiters: (() => void)[] = [];
  #sendMsn = 1;
  #readMsn = 1;

  constructor(readonly ep: LoopbackEndpoint) {
    if (ep.inUse) throw new Error('loopback endpoint already in use');
    ep.inUse = true;
    ep.conn = this;
    for (const u of ep.early.splice(0)) this.receive(u, u.from);
  }

  receive(u: Unit, from: LoopbackConn | undefined): void {
    if (from) {
      from.inFlight--;
      if (from.inFlight === LOOPBACK_WINDOW - 1 || from.inFlight === 0) from.kick();
    }
    this.received.push(u);
    for (const w of this.#waiters.splice(0)) w();
  }

  /** Waits for a unit matching `pred` (or throws after `ms`). */
  async waitFor(pred: (u: Unit) => boolean, ms = 3000): Promise<Unit> {
    const end = Date.now() + ms;
    for (;;) {
      const u = this.received.find(pred);
      if (u) return u;
      if (Date.now() > end) throw new Error('loopback raw end: timed out');
      await new Promise<void>((r) => {
        this.#waiters.push(r);
        setTimeout(r, 20).unref?.();
      });
    }
  }

  /** The TERMINATE the victim sent: the core's fault, or the kind of wire violation. */
  async terminate(ms = 3000): Promise<{ fault: Fault; wire?: LoopbackWireError['kind'] }> {
    const u = await this.waitFor((x) => x.k === K.TERMINATE, ms);
    return { fault: u.fault as Fault, wire: u.wire };
  }

  /** Puts one unit on the wire. Unset fields take a blank segment's values; `msn` defaults to the next of its queue. */
  inject(fields: Partial<Omit<Unit, 'payload'>> & { op: TxOp; payload?: Uint8Array }): void {
    const payload = fields.payload ?? EMPTY;
    let msn = fields.msn;
    if (msn === undefined) {
      if (fields.op === TxOp.SEND || fields.op === TxOp.SEND_INVALIDATE) msn = this.#sendMsn++;
      else if (fields.op === TxOp.READ_REQUEST) msn = this.#readMsn++;
      else msn = 0;
    }
    const u: Unit = {
      ...newTxSeg(),
      k: K.DATA,
      fault: 0,
      ...fields,
      msn,
      payload,
      len: payload.length,
      crc: fields.crc ?? crc32c(payload),
    };
    const c = this.ep.peer.conn;
    if (c && !c.detached) c.receive(u, undefined);
    else if (!this.ep.peer.closed) this.ep.peer.early.push(u);
  }

  /** Sends a FIN (as a graceful LLP close) or a RST. */
  control(k: K.FIN | K.RST): void {
    this.inject({ op: TxOp.SEND, k, msn: 0 });
  }

  reset(): void {
    if (this.detached) return;
    this.control(K.RST);
    this.detached = true;
    this.ep.closed = true;
    this.ep.conn = null;
  }
}

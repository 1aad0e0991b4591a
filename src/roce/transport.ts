/**
 * The RoCEv2 transport: InfiniBand RC, UC and UD QPs (IBTA Vol. 1 chapter 9) carried in UDP
 * datagrams (Annex A17) through `net.ts`. It implements the core's {@link QpTransport} for
 * IB QPs, bound on INIT→RTR by `registerIbBinder('rocev2', attachRoce)`.
 *
 * The core keeps the semantics (queues, access checks, placement, completions, flushes); this
 * file owns what the InfiniBand wire adds, as Linux rxe's requester/responder/completer do:
 *
 * **Requester (RC)** — §9.7.6. Each packet takes the next PSN; a Read Request reserves
 * `max(1, ceil(len / MTU))` PSNs, one per response packet. Messages are cut at exactly the path
 * MTU (`maxPayload`). AckReq is set on the last packet of every message and on every 64th packet
 * (every half window when that is less; rxe ACKs only packets that ask). At most a window
 * of PSNs is unacknowledged: {@link MAX_WINDOW}, or half what the receive buffer holds. The encoded
 * packets of unacknowledged PSNs are kept, so go-back-N resends them as they were; a Read is
 * retried from its first missing response as a *partial* Read Request (VA advanced, length
 * reduced, PSN of the missing response: rxe's `retry_first_write_send`/read rewind). The
 * retransmit timer is the QP's Local ACK Timeout, 4.096 µs × 2^timeout (§9.7.6.1.3); a
 * timeout, or a PSN-sequence NAK that makes no progress, uses one of `retry_cnt` retries
 * (0–6 a count, §9.7.6.1.3; 7 never runs out, as Linux rxe reads it: docs/spec-notes.md); an
 * RNR NAK waits the peer's RNR timer and uses one of `rnr_retry` (7 = infinite, §9.7.5.2.8).
 * Exhaustion completes the WQE with
 * `TRANSPORT_RETRY_EXCEEDED` / `RNR_RETRY_EXCEEDED` and the QP enters Error.
 *
 * **Completer (RC)** — §9.7.6.1. ACKs are cumulative; an ACK never completes a Read (only its
 * responses do, in PSN order), and what it acknowledges past an unfinished Read is applied once
 * the Read completes. NAK codes 1–3 complete the WQE with the remote error status (`nak-map.ts`).
 * A gap in a Read's responses triggers one partial-Read retry at once (not waiting for the
 * timer), and another only after progress or a timeout.
 *
 * **Responder (RC)** — §9.7.5. Requests execute in PSN order: the expected PSN (ePSN) only.
 * Ahead of ePSN: one PSN-sequence NAK per gap, then silence until the gap closes. Behind it
 * (a duplicate): a Send or Write is re-ACKed (ePSN − 1); a Read is replayed from a ring of
 * `max_dest_rd_atomic` resources if it lies inside one. No receive posted: an RNR NAK with the
 * QP's `min_rnr_timer`, ePSN unchanged. ACKs are coalesced per turn (they leave at its end,
 * with what the consumer posted in it: `RoceNet.atTurnEnd`) and never overtake pending Read
 * Responses. Opcode sequence and length rules (FIRST/MIDDLE exactly one
 * MTU, the Write's DMA length) are checked here; a violation or a core fault is a NAK
 * (0x61/0x62/0x63) and the QP enters Error.
 *
 * **UC** — the same packets, no ACKs: a PSN gap abandons the message in progress (its receive
 * WQE is reused) and packets are dropped until the next FIRST/ONLY; errors drop silently.
 * **UD** — one packet per message (≤ MTU) with a DETH; the receiver checks the Q_Key and puts
 * the 40-octet GRH, synthesised from the datagram's addresses and the IPv4 ID recovered from
 * the ICRC, in front of the payload.
 *
 * **Atomics** (RC) — 8-octet COMPARE SWAP and FETCH ADD (§9.4.5), one PSN each, executed by the
 * core's atomic executor; the original value returns in an ATOMIC ACKNOWLEDGE. The responder
 * keeps each atomic's result in its resource ring, so a retried atomic is answered again and
 * never executed twice. A response that overtakes an earlier one that was lost (an implied NAK,
 * §9.7.6.1.1) triggers one immediate re-request of the earlier Read/atomic, and an ATOMIC
 * ACKNOWLEDGE received ahead of its turn is kept until the earlier ones complete.
 * **Immediate data** (§9.4.1, §9.4.3) — the ImmDt header on the last packet of a Send or RDMA
 * Write with Immediate (UD too). A Write with Immediate needs a receive WQE: when none is posted
 * its last packet is RNR-NAKed before anything of it is placed.
 */
import { RiRet } from '../rnicpi/status.js';
import { type RiQpState, RiWcStatus } from '../rnicpi/types.js';
import { AtomicKind, atomicArgs } from '../rnic/atomics.js';
import { Fault } from '../rnic/faults.js';
import type { Qp, TerminateInfo } from '../rnic/qp.js';
import { IbQpAttr } from '../rnic/qp-states.js';
import type { RxPayload } from '../rnic/responder.js';
import { type IbQpAttrs, mtuBytes, type QpTransport, registerIbBinder, type TransportCaps, TxOp, type TxSeg } from '../rnic/transport.js';
import type { OrqEntry, SqWqe } from '../rnic/wqe.js';
import { logger } from '../util/log.js';
import {
  AethType,
  aethType,
  aethValue,
  ackSyndrome,
  encodeIbPacket,
  IbOpcode,
  type IbPacket,
  IbService,
  ibOpInfo,
  ibPadCount,
  NakCode,
  nakSyndrome,
  newBth,
  PKEY_DEFAULT,
  PKEY_DEFAULT_LIMITED,
  psnAdd,
  psnDiff,
  psnInRange,
  QKEY_CONTROLLED,
  RNR_TIMER_USEC,
  rnrSyndrome,
} from '../wire/ib/index.js';
import { C, RoceQpCounters } from './counters.js';
import { nakOfFault, wcStatusOfNak } from './nak-map.js';
import { datagramsPerRecvBuffer, gidToAddress, gidToIpv4, ipv4Bytes, ipv6Bytes, isIpv6Address, ROCEV2_PORT, RoceNet, type RoceNetClient, type RoceRx } from './net.js';

const log = logger('roce');

/**
 * Unacknowledged PSNs a requester may have outstanding at most (rxe: `RXE_MAX_UNACKED_PSNS`);
 * fewer when the receive buffer holds fewer (see `#window`).
 */
export const MAX_WINDOW = 128;
/** ... and at least (a receive buffer too small for more still gets this many). */
const MIN_WINDOW = 16;
/** AckReq at least every this many packets within a message (rxe: `noack_pkts > 64`). */
export const ACK_EVERY = 64;
/** Packets sent per transmit slice before yielding to the event loop (receive, timers). */
const TX_BURST = 64;
/** The largest BTH + extension headers + pad + ICRC around a payload (RETH + ImmDt: 12+16+4+3+4). */
const MAX_HEADERS = 40;
/** Octets of the GRH in front of a UD receive (IBTA Vol. 1 §8.3; Annex A17.4.5.1 for IPv4). */
export const GRH_LEN = 40;
/** The `retry_cnt` and `rnr_retry` value that never runs out (rnr_retry: IBTA Vol. 1 §9.7.5.2.8; retry_cnt: as Linux rxe). */
const RETRY_UNLIMITED = 7;

const RC_CAPS: TransportCaps = Object.freeze({
  kind: 'rocev2',
  immediateData: true,
  // Compare & Swap and Fetch & Add on 8 octets (IBTA Vol. 1 §9.4.5); no extended atomics.
  atomics: true,
  extAtomics: false,
  rnr: true,
  sendCompletion: 'ack',
  states: 'ib',
});
const UNRELIABLE_CAPS: TransportCaps = Object.freeze({ ...RC_CAPS, atomics: false, rnr: false, sendCompletion: 'local-delivery' });

/** The UDP port of an RNIC's RoCEv2 endpoints (`RnicConfig.roceUdpPort`, default 4791). */
function portOf(qp: Qp): number {
  return qp.rnic.config.roceUdpPort ?? ROCEV2_PORT;
}

/** One unacknowledged request: a packet (kept encoded) or a Read Request and its responses. */
interface Entry {
  first: number;
  /** PSNs it takes (1 for a packet; the response count for a Read). */
  n: number;
  wqe: SqWqe | null;
  /** The packet as sent (ICRC recomputed on every send); null for a Read. */
  buf: Uint8Array | null;
  /** The last packet of its WQE's message: the ACK covering it completes the WQE. */
  lastOfWqe: boolean;
  read: ReadInfo | null;
  /** An atomic: the core's request identifier (completed by its ATOMIC ACKNOWLEDGE); else null. */
  atomicId: number | null;
}

interface ReadInfo {
  va: bigint;
  rkey: number;
  len: number;
  orq: OrqEntry;
  /** Response packets received, in order. */
  got: number;
  /** PSN of the request (original or partial retry) the responses answer now. */
  reqFirst: number;
}

/** A Read or atomic the responder answered: for duplicate replay (rxe `resp.resources`). */
interface ReadResource {
  first: number;
  n: number;
  va: bigint;
  rkey: number;
  len: number;
  /** An atomic: the original value sent in its ATOMIC ACKNOWLEDGE (replayed, never re-executed). */
  orig: bigint | null;
}

const enum RxMsg {
  NONE = 0,
  SEND = 1,
  WRITE = 2,
}

/** The error object for faults only this transport sees (handed to `qp.terminateWith`). */
export class RoceWireError {
  constructor(
    readonly nak: NakCode,
    readonly message: string,
  ) {}
}

/**
 * The IB binder (`registerIbBinder('rocev2', …)`): checks that the path is RoCEv2 (source and
 * destination GIDs of one family, IPv4-mapped or IPv6) and attaches the QP to the UDP endpoint
 * of its source address.
 */
export function attachRoce(qp: Qp, attrs: Readonly<IbQpAttrs>): RoceQp | RiRet {
  const port = portOf(qp);
  if (attrs.service === 'UD') {
    const locals = qp.rnic
      .gidTable()
      .map((g) => gidToAddress(g))
      .filter((a): a is string => a !== null);
    if (locals.length === 0) return RiRet.INVALID_PARAMETER;
    const t = new RoceQp(qp, locals, null, port);
    // QPNs are unique in the process except QP1, which each RNIC has: two RNICs of one process
    // cannot both have their GSI on one address and port (a datagram to QP1 would be ambiguous).
    if (t.nets.some((n) => n.has(qp.id))) {
      t.detach();
      return RiRet.QP_INUSE;
    }
    return t;
  }
  const local = gidToAddress(attrs.av.sgid);
  const remote = gidToAddress(attrs.av.dgid);
  // IPv4 to IPv6 (or back) is no path: one UDP socket carries one family.
  if (!local || !remote || isIpv6Address(local) !== isIpv6Address(remote)) return RiRet.INVALID_PARAMETER;
  const t = new RoceQp(qp, [local], remote, port);
  // A path MTU the link cannot carry unfragmented (DF is set) would only lose every full packet.
  if (mtuBytes(attrs.pathMtu) + MAX_HEADERS > t.nets[0]!.maxDatagram) {
    t.detach();
    return RiRet.INVALID_PARAMETER;
  }
  return t;
}
registerIbBinder('rocev2', attachRoce);

const EMPTY = new Uint8Array(0);

/** The RoCEv2 half of one IB QP. */
export class RoceQp implements QpTransport, RoceNetClient {
  readonly caps: TransportCaps;
  readonly service: 'RC' | 'UC' | 'UD';
  readonly nets: RoceNet[];
  readonly remote: string | null;
  #active = false;
  #gone = false;
  #scheduled = false;
  #running = false;
  // ---- requester
  #nextPsn = 0;
  #una = 0;
  readonly #inflight: Entry[] = [];
  #retriesLeft = 0;
  /** Counts progress (anything acknowledged or answered), so that a deferred timeout sees it. */
  #progressMark = 0;
  #rnrLeft = 0;
  #timer: NodeJS.Timeout | null = null;
  #rnrTimer: NodeJS.Timeout | null = null;
  #sinceAck = 0;
  /** The highest ACK PSN seen (applied again when a Read that held it back completes). */
  #lastAckPsn = -1;
  /** PSN of the last immediate partial-Read retry (one per gap). */
  #readGapPsn = -1;
  /** PSN of the last RNR NAK received. */
  #rnrPsn = -1;
  /** Original values of atomics whose ATOMIC ACKNOWLEDGE overtook an earlier one's, by PSN. */
  readonly #stash = new Map<number, bigint>();
  /** PSN of the head Read/atomic last re-requested because a later response showed it lost. */
  #impliedPsn = -1;
  // ---- responder
  #ePsn = 0;
  #msn = 0;
  #nakSent = false;
  #rxMsg = RxMsg.NONE;
  #rxOffset = 0;
  #wVa = 0n;
  #wRkey = 0;
  #wLen = 0;
  #ucDropping = false;
  #ackPsn = -1;
  #ackScheduled = false;
  /** Read Responses and atomic ACKs queued in the core, by the PSN they answer. */
  readonly #respFifo: { first: number; va: bigint }[] = [];
  readonly #ring: ReadResource[] = [];
  /** PSN of the request being processed (for the NAK of a fault the core reports). */
  #curPsn = 0;
  #curIsResponse = false;
  /** This QP's counters, rxe's names (`counters.ts`); each also counts for the device. */
  readonly counters: RoceQpCounters;
  /** The counters tests read by their older names (a view of {@link counters}). */
  get stats() {
    const v = this.counters.v;
    return {
      retransmitTimeouts: v[C.LOCAL_ACK_TIMEOUT]!,
      seqNaksSent: v[C.SEQ_NAKS_SENT]!,
      seqNaksReceived: v[C.RCV_SEQ_ERR]!,
      rnrNaksSent: v[C.SND_RNR]!,
      rnrNaksReceived: v[C.RCV_RNR]!,
      duplicateRequests: v[C.DUP_REQ]!,
      outOfSequence: v[C.OUT_OF_SEQ_REQ]!,
      packetsResent: v[C.RESENT_PKTS]!,
    };
  }

  constructor(
    readonly qp: Qp,
    locals: string[],
    remote: string | null,
    readonly port: number,
  ) {
    this.service = qp.service;
    this.caps = this.service === 'RC' ? RC_CAPS : UNRELIABLE_CAPS;
    this.remote = remote;
    this.nets = locals.map((a) => RoceNet.acquire(a, port));
    this.counters = new RoceQpCounters(qp.rnic, qp.id, qp.service);
  }

  /**
   * The PSN window of this QP (RC): never more full-MTU packets than half the peer's receive
   * buffer holds — the peer is assumed to have this host's (loopback, or a host set up alike)
   * — so that a window sent back to back is queued, not dropped. A fixed 128 overran the
   * default 208 KiB buffer at MTU 4096 (it holds 49 such datagrams), each overrun costing a
   * sequence NAK or a Local ACK Timeout and a go-back-N of the window. Follows the path MTU.
   */
  get #window(): number {
    const mtu = this.#mtu;
    if (mtu !== this.#windowMtu) {
      this.#windowMtu = mtu;
      this.#windowCache = Math.max(MIN_WINDOW, Math.min(MAX_WINDOW, datagramsPerRecvBuffer(mtu + MAX_HEADERS) >>> 1));
      // AckReq often enough that an ACK comes back before the window closes: every half window.
      this.#ackEvery = Math.min(ACK_EVERY, this.#windowCache >>> 1);
    }
    return this.#windowCache;
  }
  #windowMtu = 0;
  #windowCache = MIN_WINDOW;
  #ackEvery = ACK_EVERY;

  /** The path MTU (RC, UC); UD: the port's active MTU (IBTA Vol. 1 §9.8.3.1). */
  get #mtu(): number {
    if (this.service === 'UD') return mtuBytes(this.qp.rnic.config.activeMtu ?? 3);
    return mtuBytes(this.qp.ib.pathMtu);
  }

  maxPayload(_op: TxOp): number {
    // Messages are cut at exactly the path MTU: rxe's responder requires it (§9.7.7, rocev2.md §1.5).
    return this.#mtu;
  }

  start(_streamMsg: Uint8Array | null): void {
    if (this.#gone) return;
    this.#active = true;
    const ib = this.qp.ib;
    this.#ePsn = ib.rqPsn;
    this.#nextPsn = ib.sqPsn;
    this.#una = ib.sqPsn;
    this.#resetRetries();
    for (const n of this.nets) n.attach(this.qp.id, this);
    // Groups attached before the transport was bound (ibv_attach_mcast in INIT).
    for (const m of this.qp.mcast.values()) this.#joinGroup(m);
  }

  /** UD multicast groups joined, by MGID hex: the group's endpoint. */
  readonly #groups = new Map<string, RoceNet>();

  mcastChanged(mgid: Uint8Array, attached: boolean): void {
    if (!this.#active || this.#gone) return;
    if (attached) this.#joinGroup(mgid);
    else this.#leaveGroup(Buffer.from(mgid).toString('hex'));
  }

  /**
   * Receives the IPv4 group of `mgid` (`::ffff:G`): the group's endpoint on this port (a socket
   * bound to G), joined on the interface of each of the QP's addresses (IGMP), as Linux rdma_cm
   * joins through `ip_mc_inc_group` for RoCE (`cma_igmp_send`).
   */
  #joinGroup(mgid: Uint8Array): void {
    const key = Buffer.from(mgid).toString('hex');
    const g = gidToIpv4(mgid);
    if (!g || this.#groups.has(key)) return;
    const net = RoceNet.acquire(g, this.port);
    net.attach(this.qp.id, this);
    for (const n of this.nets) net.join(n.address);
    this.#groups.set(key, net);
  }

  #leaveGroup(key: string): void {
    const net = this.#groups.get(key);
    if (!net) return;
    this.#groups.delete(key);
    for (const n of this.nets) net.leave(n.address);
    net.detach(this.qp.id, this);
    net.release();
  }

  /** Addresses whose endpoint is being bound for this UD QP (see {@link gidsChanged}). */
  readonly #adding = new Set<string>();

  /**
   * UD: the port's GID table changed. The QP receives on every address of the table, so it
   * binds an endpoint for each new address (attached once the socket listens; a bind failure is
   * logged and that address skipped) and drops the endpoints of addresses that went, keeping
   * its last one (it sends from it again when an address returns).
   */
  gidsChanged(): void {
    if (this.service !== 'UD' || this.#gone) return;
    const table = () =>
      new Set(
        this.qp.rnic
          .gidTable()
          .map((g) => gidToAddress(g))
          .filter((a): a is string => a !== null),
      );
    const want = table();
    for (const n of [...this.nets]) {
      if (want.has(n.address) || this.nets.length === 1) continue;
      this.nets.splice(this.nets.indexOf(n), 1);
      for (const g of this.#groups.values()) g.leave(n.address);
      if (this.#active) n.detach(this.qp.id, this);
      n.release();
      log('QP[%d] no longer receives on %s', this.qp.id, n.address);
    }
    for (const a of want) {
      if (this.nets.some((n) => n.address === a) || this.#adding.has(a)) continue;
      this.#adding.add(a);
      const n = RoceNet.acquire(a, this.port);
      n.ready.then(
        () => {
          this.#adding.delete(a);
          if (this.#gone || !table().has(a) || this.nets.some((x) => x.address === a)) {
            n.release();
            return;
          }
          this.nets.push(n);
          if (this.#active) n.attach(this.qp.id, this);
          for (const g of this.#groups.values()) g.join(a);
          log('QP[%d] receives on %s too', this.qp.id, a);
        },
        (err: Error) => {
          this.#adding.delete(a);
          n.release();
          log('QP[%d] cannot bind %s: %s', this.qp.id, a, err.message);
        },
      );
    }
  }

  ibModified(attrs: Readonly<IbQpAttrs>, changed: number, _from: RiQpState, _to: RiQpState): void {
    if (changed & IbQpAttr.SQ_PSN && this.#inflight.length === 0) {
      this.#nextPsn = attrs.sqPsn;
      this.#una = attrs.sqPsn;
    }
    if (changed & IbQpAttr.RQ_PSN) this.#ePsn = attrs.rqPsn;
    if (changed & (IbQpAttr.RETRY_CNT | IbQpAttr.RNR_RETRY)) this.#resetRetries();
  }

  #resetRetries(): void {
    this.#progressMark++;
    this.#retriesLeft = this.qp.ib.retryCnt;
    this.#rnrLeft = this.qp.ib.rnrRetry;
  }

  kick(): void {
    if (this.#scheduled || !this.#active) return;
    this.#scheduled = true;
    queueMicrotask(() => this.#run());
  }

  closeGraceful(): void {
    // IB has no graceful close of a connection (the core never calls this on an IB QP).
  }

  reset(): void {
    // An ACK still coalescing acknowledges requests that were executed (and completed at this
    // end): it leaves before the QP goes, or a peer whose last message arrived just before
    // ibv_destroy_qp / Error would retransmit it to nobody (rxe with retry_cnt 7: forever).
    if (this.#respFifo.length === 0) this.#flushAck();
    this.detach();
  }

  detach(): void {
    if (this.#gone) return;
    // Requests already executed are acknowledged before the QP leaves (an ACK coalesced for
    // the end of this event-loop turn would be lost): otherwise a peer whose last Write or Send
    // took effect sees it flushed when the connection goes down right after (rdma_disconnect
    // moves the QP to Error at once; rxe ACKs each such packet as it executes it).
    if (this.#ackPsn >= 0 && this.#respFifo.length === 0) this.#flushAck();
    this.#gone = true;
    this.#active = false;
    this.#clearTimer();
    if (this.#rnrTimer) clearTimeout(this.#rnrTimer);
    this.#rnrTimer = null;
    this.#inflight.length = 0;
    for (const k of [...this.#groups.keys()]) this.#leaveGroup(k);
    for (const n of this.nets) {
      n.detach(this.qp.id, this);
      n.release();
    }
    this.counters.release();
  }

  netError(err: Error): void {
    if (this.#gone) return;
    log('QP[%d] UDP endpoint failed: %s', this.qp.id, err.message);
    this.qp.toError(`RoCEv2 socket: ${err.message}`, null);
  }

  /**
   * The NAK for a fatal fault of an inbound request (the core's or {@link RoceWireError}), with
   * the PSN of that request; nothing for faults found on responses (a requester has no NAK).
   */
  sendFatal(err: Fault | object, _copied: unknown): TerminateInfo {
    const code = typeof err === 'number' ? nakOfFault(err) : err instanceof RoceWireError ? err.nak : NakCode.RemoteOperationalError;
    const syn = nakSyndrome(code);
    const fault = typeof err === 'number' ? err : undefined;
    if (this.service === 'RC' && !this.#curIsResponse && !this.#gone) {
      // What was executed before the faulty request is acknowledged first, then the NAK.
      if (this.#respFifo.length === 0) this.#flushAck();
      this.#sendAck(this.#curPsn, syn);
      this.qp.rnic.counters.terminatesSent++;
      log('QP[%d] NAK 0x%s PSN %d (%s)', this.qp.id, syn.toString(16), this.#curPsn, typeof err === 'number' ? Fault[err] : (err as RoceWireError).message);
    }
    const bytes = Uint8Array.of(syn, (this.#msn >>> 16) & 0xff, (this.#msn >>> 8) & 0xff, this.#msn & 0xff);
    return { layer: 0, etype: 0, ecode: syn, bytes, local: true, ...(fault !== undefined && { fault }) };
  }

  // =================================================================== transmit

  /** The endpoint of source address `addr`, else the first of the destination's family. */
  #netFor(addr: string | null, dst: string | null): RoceNet {
    if (addr) for (const n of this.nets) if (n.address === addr) return n;
    const v6 = dst !== null && isIpv6Address(dst);
    return this.nets.find((n) => n.ipv6 === v6) ?? this.nets[0]!;
  }

  /**
   * Octets handed to the UDP socket and not sent yet. A peer cannot make us queue more than the
   * RNIC's `txWindow` toward it: transmission pauses above it and resumes at half (the RoCEv2
   * counterpart of the iWARP socket's backpressure).
   */
  #queued = 0;
  readonly #sent = (n: number) => () => {
    this.#queued -= n;
    if (this.#queued < this.qp.rnic.config.txWindow >>> 1 && this.#blocked) {
      this.#blocked = false;
      this.kick();
    }
  };
  #blocked = false;

  /** Octets queued in the UDP socket toward the peer (see {@link #queued}). */
  get queuedOctets(): number {
    return this.#queued;
  }

  #send(buf: Uint8Array, dst: string, net = this.nets[0]!): void {
    this.#queued += buf.length;
    this.counters.inc(C.SENT_PKTS);
    net.send(buf, dst, this.port, this.#sent(buf.length));
  }

  #run(): void {
    this.#scheduled = false;
    const qp = this.qp;
    if (!this.#active || this.#running) return;
    this.#running = true;
    let budget = TX_BURST;
    try {
      while (budget > 0 && qp.canTransmit && !this.#gone) {
        if (this.#queued >= qp.rnic.config.txWindow) {
          // The socket holds a window's worth: resume from the send callbacks.
          this.#blocked = true;
          break;
        }
        // The window of unacknowledged PSNs (Read Responses are not limited by it).
        const full = this.service === 'RC' && (this.#rnrTimer !== null || psnDiff(this.#nextPsn, this.#una) >= this.#window);
        if (full && qp.irq.length === 0) break;
        const seg = qp.requester.next(this);
        if (!seg) break;
        this.#emit(seg);
        budget--;
      }
    } finally {
      this.#running = false;
    }
    // An ACK waiting for the end of the turn leaves then, behind what the consumer posts in
    // this turn (one flush, and a run of equal-sized datagrams first); one held back behind
    // Read Responses leaves now that they have gone.
    if (this.#ackPsn >= 0 && this.#respFifo.length === 0 && !this.#ackScheduled) this.#flushAck();
    if (budget === 0 && !this.#gone && !this.#blocked) {
      // More may be ready: continue after the event loop has had its turn.
      this.#scheduled = true;
      setImmediate(() => this.#run());
    }
  }

  #emit(seg: TxSeg): void {
    switch (seg.op) {
      case TxOp.READ_RESPONSE:
        this.#emitReadResponse(seg);
        return;
      case TxOp.READ_REQUEST:
        this.#emitReadRequest(seg);
        return;
      case TxOp.ATOMIC_REQUEST:
        this.#emitAtomic(seg);
        return;
      case TxOp.ATOMIC_RESPONSE:
        this.#emitAtomicAck(seg);
        return;
      default:
        this.#emitMessage(seg);
    }
  }

  #opcodeOf(seg: TxSeg): number {
    const first = seg.offset === 0;
    const last = seg.last;
    const svc = this.service === 'UC' ? 0x20 : 0;
    const imm = seg.hasImm && last;
    if (this.service === 'UD') return imm ? IbOpcode.UD_SEND_ONLY_WITH_IMMEDIATE : IbOpcode.UD_SEND_ONLY;
    if (seg.op === TxOp.RDMA_WRITE) {
      if (last) {
        if (first) return svc | (imm ? IbOpcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE : IbOpcode.RC_RDMA_WRITE_ONLY);
        return svc | (imm ? IbOpcode.RC_RDMA_WRITE_LAST_WITH_IMMEDIATE : IbOpcode.RC_RDMA_WRITE_LAST);
      }
      return svc | (first ? IbOpcode.RC_RDMA_WRITE_FIRST : IbOpcode.RC_RDMA_WRITE_MIDDLE);
    }
    if (seg.op === TxOp.SEND_INVALIDATE && last) return first ? IbOpcode.RC_SEND_ONLY_WITH_INVALIDATE : IbOpcode.RC_SEND_LAST_WITH_INVALIDATE;
    if (last) {
      if (first) return svc | (imm ? IbOpcode.RC_SEND_ONLY_WITH_IMMEDIATE : IbOpcode.RC_SEND_ONLY);
      return svc | (imm ? IbOpcode.RC_SEND_LAST_WITH_IMMEDIATE : IbOpcode.RC_SEND_LAST);
    }
    return svc | (first ? IbOpcode.RC_SEND_FIRST : IbOpcode.RC_SEND_MIDDLE);
  }

  /** A Send or RDMA Write packet (RC, UC, UD). */
  #emitMessage(seg: TxSeg): void {
    const qp = this.qp;
    const opcode = this.#opcodeOf(seg);
    const psn = this.#nextPsn;
    this.#nextPsn = psnAdd(psn, 1);
    const rc = this.service === 'RC';
    const ackReq = rc && (seg.last || ++this.#sinceAck >= this.#ackEvery);
    if (ackReq) this.#sinceAck = 0;
    const bth = { ...newBth(opcode, this.service === 'UD' ? (seg.ud?.remoteQpn ?? 0) : qp.ib.destQpn, psn), padCnt: ibPadCount(seg.len), ackReq, se: seg.se && seg.last };
    const p: IbPacket = { bth, payload: EMPTY };
    if (seg.op === TxOp.RDMA_WRITE && seg.offset === 0) p.reth = { va: seg.to, rkey: seg.stag, dmaLen: seg.wqe?.totalLen ?? seg.len };
    if (seg.op === TxOp.SEND_INVALIDATE && seg.last) p.ieth = seg.invStag;
    if (ibOpInfo(opcode)!.immediate) p.immDt = seg.imm >>> 0;
    let dst = this.remote;
    let net = this.nets[0]!;
    if (this.service === 'UD') {
      const ud = seg.ud;
      dst = ud ? gidToAddress(ud.av.dgid) : null;
      net = this.#netFor(ud ? gidToAddress(ud.av.sgid) : null, dst);
      const qkey = ud && ud.remoteQkey & QKEY_CONTROLLED ? qp.ib.qkey : (ud?.remoteQkey ?? 0);
      p.deth = { qkey: qkey >>> 0, resv8: 0, srcQp: qp.id };
    }
    const buf = encodeIbPacket(p, undefined, seg.parts);
    if (dst) this.#send(buf, dst, net);
    else log('QP[%d] UD destination GID names no address: datagram dropped', qp.id);
    if (rc) {
      this.#inflight.push({ first: psn, n: 1, wqe: seg.wqe, buf, lastOfWqe: seg.last, read: null, atomicId: null });
      this.#armTimer();
    } else if (seg.last && seg.wqe) {
      // UC and UD complete when the last packet has left (no acknowledgement exists).
      this.counters.inc(C.RDMA_SEND);
      qp.requester.delivered(seg.wqe);
    }
  }

  #emitReadRequest(seg: TxSeg): void {
    const qp = this.qp;
    if (this.service !== 'RC') {
      // The WR table lets no Read reach a UC/UD QP; refuse rather than send an invalid opcode.
      if (seg.wqe) qp.requester.failRemote(seg.wqe, RiWcStatus.LOCAL_QP_OP_ERROR);
      return;
    }
    const n = Math.max(1, Math.ceil(seg.size / this.#mtu));
    const psn = this.#nextPsn;
    this.#nextPsn = psnAdd(psn, n);
    const orq = qp.orq[qp.orq.length - 1]!;
    const read: ReadInfo = { va: seg.srcTo, rkey: seg.srcStag, len: seg.size, orq, got: 0, reqFirst: psn };
    this.#inflight.push({ first: psn, n, wqe: seg.wqe, buf: null, lastOfWqe: true, read, atomicId: null });
    this.#sendReadRequest(read, psn, 0);
    this.#armTimer();
  }

  /** Sends the Read Request of `r` from response `k` on (k > 0: a partial retry). */
  #sendReadRequest(r: ReadInfo, psn: number, received: number): void {
    const bth = { ...newBth(IbOpcode.RC_RDMA_READ_REQUEST, this.qp.ib.destQpn, psn), ackReq: true };
    const pkt = encodeIbPacket({ bth, reth: { va: r.va + BigInt(received), rkey: r.rkey, dmaLen: r.len - received }, payload: EMPTY });
    r.reqFirst = psn;
    this.#sinceAck = 0;
    this.#send(pkt, this.remote!);
  }

  /** A Compare & Swap or Fetch & Add request (IBTA Vol. 1 §9.4.5): one PSN, kept for go-back-N. */
  #emitAtomic(seg: TxSeg): void {
    const qp = this.qp;
    const a = seg.atomic;
    if (this.service !== 'RC' || !a || a.size !== 8 || a.kind === AtomicKind.SWAP) {
      // IB has 8-octet Compare & Swap and Fetch & Add on RC only (the caps say so; the core
      // refuses the rest at post time): a WQE getting here anyway fails locally.
      if (seg.wqe) qp.requester.failRemote(seg.wqe, RiWcStatus.LOCAL_QP_OP_ERROR);
      return;
    }
    const cs = a.kind === AtomicKind.COMPARE_SWAP;
    const psn = this.#nextPsn;
    this.#nextPsn = psnAdd(psn, 1);
    this.#sinceAck = 0;
    const bth = { ...newBth(cs ? IbOpcode.RC_COMPARE_SWAP : IbOpcode.RC_FETCH_ADD, qp.ib.destQpn, psn), ackReq: true };
    const atomicEth = { va: seg.to, rkey: seg.stag, swapAdd: a.addSwap[0]!, compare: cs ? a.compare[0]! : 0n };
    const buf = encodeIbPacket({ bth, atomicEth, payload: EMPTY });
    this.#inflight.push({ first: psn, n: 1, wqe: seg.wqe, buf, lastOfWqe: true, read: null, atomicId: seg.requestId });
    this.#send(buf, this.remote!);
    this.#armTimer();
  }

  /** The ATOMIC ACKNOWLEDGE of an executed atomic: the original value, with the request's PSN. */
  #emitAtomicAck(seg: TxSeg): void {
    const head = this.#respFifo.shift();
    if (!head) return;
    this.#sendAtomicAck(head.first, seg.orig?.[0] ?? 0n);
  }

  #sendAtomicAck(psn: number, orig: bigint): void {
    const bth = newBth(IbOpcode.RC_ATOMIC_ACKNOWLEDGE, this.qp.ib.destQpn, psn);
    const pkt = encodeIbPacket({ bth, aeth: { syndrome: ackSyndrome(), msn: this.#msn }, atomicAckEth: { origData: orig }, payload: EMPTY });
    this.#send(pkt, this.remote!);
  }

  #emitReadResponse(seg: TxSeg): void {
    const head = this.#respFifo[0];
    if (!head) return; // the QP is going to Error (a source gone): nothing to answer
    const psn = psnAdd(head.first, Math.floor(seg.offset / this.#mtu));
    const first = seg.offset === 0;
    const opcode = first
      ? seg.last
        ? IbOpcode.RC_RDMA_READ_RESPONSE_ONLY
        : IbOpcode.RC_RDMA_READ_RESPONSE_FIRST
      : seg.last
        ? IbOpcode.RC_RDMA_READ_RESPONSE_LAST
        : IbOpcode.RC_RDMA_READ_RESPONSE_MIDDLE;
    const p: IbPacket = { bth: { ...newBth(opcode, this.qp.ib.destQpn, psn), padCnt: ibPadCount(seg.len) }, payload: EMPTY };
    if (ibOpInfo(opcode)!.aethOffset >= 0) p.aeth = { syndrome: ackSyndrome(), msn: this.#msn };
    this.#send(encodeIbPacket(p, undefined, seg.parts), this.remote!);
    if (seg.last) this.#respFifo.shift();
  }

  // ---- the retransmit timer and go-back-N

  #armTimer(): void {
    if (this.#timer || this.#inflight.length === 0 || this.#rnrTimer) return;
    const t = this.qp.ib.timeout;
    if (t === 0) return; // infinite (§9.7.6.1.3)
    const ms = Math.max(1, (4.096 * 2 ** t) / 1000);
    this.#timer = setTimeout(() => this.#onTimeout(), ms);
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #restartTimer(): void {
    this.#clearTimer();
    this.#armTimer();
  }

  #onTimeout(): void {
    this.#timer = null;
    if (this.#gone || this.#inflight.length === 0) return;
    // Node runs expired timers before it polls the sockets: after the event loop was held up (a
    // loaded machine), the answers may already wait in the socket buffer. They are read first
    // (setImmediate runs after the poll phase), and a timeout they answer is void; otherwise a
    // stalled process would spend its retries on packets it has received but not yet read.
    const mark = this.#progressMark;
    setImmediate(() => {
      if (this.#gone || this.#inflight.length === 0) return;
      if (this.#progressMark !== mark) {
        this.#armTimer();
        return;
      }
      this.#clearTimer();
      this.#expire();
    });
  }

  /** The Local ACK Timeout expired with nothing acknowledged: one retry, go-back-N from the oldest. */
  #expire(): void {
    this.counters.inc(C.LOCAL_ACK_TIMEOUT);
    if (log.enabled) {
      const h = this.#inflight[0]!;
      log('QP[%d] timeout: una %d next %d, %d outstanding, head %s', this.qp.id, this.#una, this.#nextPsn, this.#inflight.length, h.read ? 'Read' : h.atomicId !== null ? 'atomic' : 'packet');
    }
    if (!this.#useRetry()) return;
    this.#readGapPsn = -1;
    this.#goBackN(this.#una);
  }

  /**
   * Takes one of `retry_cnt`; false (and the QP fails) when none is left. `retry_cnt` 7 is never
   * used up: Linux rxe's reading (`rxe_comp.c` decrements only a count other than 7), on which
   * rdma-core programs run against it rely (perftest and the pingpongs set 7); IBTA Vol. 1
   * §9.7.6.1.3 makes 7 a count, docs/spec-notes.md says why we follow rxe.
   */
  #useRetry(): boolean {
    if (this.#retriesLeft === RETRY_UNLIMITED) return true;
    if (this.#retriesLeft <= 0) {
      const e = this.#inflight[0];
      log('QP[%d] retry count exceeded at PSN %d', this.qp.id, this.#una);
      this.counters.inc(C.RETRY_EXCEEDED);
      if (e?.wqe) this.qp.requester.failRemote(e.wqe, RiWcStatus.TRANSPORT_RETRY_EXCEEDED);
      else this.qp.toError('retry count exceeded', null);
      return false;
    }
    this.#retriesLeft--;
    return true;
  }

  /** Resends everything from `psn` on, as it was; Reads as partial Read Requests. */
  #goBackN(psn: number): void {
    const resend = this.#inflight.filter((e) => psnDiff(psnAdd(e.first, e.n - 1), psn) >= 0);
    this.counters.inc(C.COMP_RETRY);
    // Ask for an ACK on the last packet resent, so the window reopens without another timeout
    // (a copy: the old buffer may still be held by the fault hook with its old ICRC).
    const last = resend[resend.length - 1];
    if (last?.buf && !(last.buf[8]! & 0x80)) {
      last.buf = last.buf.slice();
      last.buf[8]! |= 0x80;
    }
    for (const e of resend) {
      if (e.read) {
        const r = e.read;
        this.#sendReadRequest(r, psnAdd(e.first, r.got), r.orq.received);
      } else {
        this.#send(e.buf!, this.remote!);
      }
      this.counters.inc(C.RESENT_PKTS);
    }
    this.#sinceAck = 0;
    this.#restartTimer();
  }

  // =================================================================== receive

  rx(r: RoceRx): void {
    if (!this.#active || this.#gone || !this.qp.live) return;
    this.counters.inc(C.RCVD_PKTS);
    const p = r.pkt;
    const info = ibOpInfo(p.bth.opcode)!;
    // P_Key: only the default partition exists here (rxe accepts 0xFFFF and 0x7FFF).
    if (p.bth.pkey !== PKEY_DEFAULT && p.bth.pkey !== PKEY_DEFAULT_LIMITED) return;
    if (this.service === 'UD') {
      if (info.service === IbService.UD) this.#rxUd(r);
      return;
    }
    // RC/UC: the opcode's service must be the QP's, and the source the QP's destination
    // (rxe `check_addr`).
    if (info.service !== (this.service === 'UC' ? IbService.UC : IbService.RC)) return;
    if (r.srcAddress !== this.remote) return;
    if (info.request) {
      if (this.service === 'RC') this.#rxRcRequest(p);
      else this.#rxUcRequest(p);
    } else if (this.service === 'RC') {
      this.#rxResponse(p);
    }
  }

  // ---- responder (RC)

  #rxRcRequest(p: IbPacket): void {
    const psn = p.bth.psn;
    const d = psnDiff(psn, this.#ePsn);
    if (d > 0) {
      // A gap: one PSN-sequence NAK with the expected PSN, then silence (§9.7.5.1.2, rxe).
      this.counters.inc(C.OUT_OF_SEQ_REQ);
      if (!this.#nakSent) {
        this.#nakSent = true;
        this.counters.inc(C.SEQ_NAKS_SENT);
        this.#sendAck(this.#ePsn, nakSyndrome(NakCode.PsnSequenceError));
      }
      return;
    }
    if (d < 0) {
      this.#rxDuplicate(p);
      return;
    }
    this.#nakSent = false;
    this.#curPsn = psn;
    this.#curIsResponse = false;
    const info = ibOpInfo(p.bth.opcode)!;
    const mtu = this.#mtu;
    const len = p.payload.length;
    const qp = this.qp;
    const inv = (why: string) => qp.terminateWith(new RoceWireError(NakCode.InvalidRequest, why), null);
    // Opcode sequence (§9.7.5.1.3): a FIRST/ONLY starts a message only between messages, a
    // MIDDLE/LAST continues the message of its kind.
    const kind = info.operation === 'send' ? RxMsg.SEND : info.operation === 'write' ? RxMsg.WRITE : RxMsg.NONE;
    if (info.first ? this.#rxMsg !== RxMsg.NONE : this.#rxMsg !== kind) {
      inv(`${info.name} out of sequence`);
      return;
    }
    if (info.payload && (info.last ? len > mtu : len !== mtu)) {
      inv(`${info.name} with ${len} octets (MTU ${mtu})`);
      return;
    }
    const payload: RxPayload = { segments: [p.payload] };
    // An RDMA Write with Immediate takes a receive at its end: none posted is an RNR NAK before
    // anything of this packet is placed, so the resent packet finds the Write as it was.
    if (info.operation === 'write' && info.immediate && !qp.recvReady()) {
      this.counters.inc(C.SND_RNR);
      this.#nakSent = true;
      this.#sendAck(psn, rnrSyndrome(qp.ib.minRnrTimer));
      return;
    }
    let f: Fault;
    switch (info.operation) {
      case 'send': {
        const invalidate = info.invalidate;
        f = qp.responder.rxSend(this.#rxOffset, len, info.last, p.bth.se, invalidate, p.ieth ?? 0, payload, 0, info.immediate ? p.immDt : undefined);
        if (f === Fault.NO_RECV_BUFFER) {
          // Receiver not ready: RNR NAK with this PSN; ePSN unchanged (§9.7.5.2.8).
          // The packets behind it are dropped silently, as after a sequence NAK: the requester
          // resends from this PSN when its RNR timer expires.
          this.counters.inc(C.SND_RNR);
          this.#nakSent = true;
          this.#sendAck(psn, rnrSyndrome(qp.ib.minRnrTimer));
          return;
        }
        if (f === Fault.OK) {
          if (info.last) this.counters.inc(C.RDMA_RECV);
          this.#rxOffset = info.last ? 0 : this.#rxOffset + len;
          this.#rxMsg = info.last ? RxMsg.NONE : RxMsg.SEND;
        }
        break;
      }
      case 'write': {
        if (info.first) {
          const reth = p.reth!;
          this.#wVa = reth.va;
          this.#wRkey = reth.rkey;
          this.#wLen = reth.dmaLen;
          this.#rxOffset = 0;
        }
        const end = this.#rxOffset + len;
        if (end > this.#wLen || (info.last && end !== this.#wLen)) {
          inv(`RDMA Write of ${end} octets, DMA length ${this.#wLen}`);
          return;
        }
        f = qp.responder.rxWrite(this.#wRkey, this.#wVa + BigInt(this.#rxOffset), len, info.last, payload, 0);
        if (f === Fault.OK) {
          this.#rxOffset = info.last ? 0 : end;
          this.#rxMsg = info.last ? RxMsg.NONE : RxMsg.WRITE;
          // With Immediate: the receive completes with the immediate after the data (§9.4.3).
          if (info.immediate) f = qp.responder.rxWriteImm(p.immDt!, p.bth.se);
          if (info.immediate && f === Fault.OK) this.counters.inc(C.RDMA_RECV);
        }
        break;
      }
      case 'read-request': {
        const reth = p.reth!;
        f = qp.responder.rxReadRequest(0, 0n, reth.dmaLen, reth.rkey, reth.va, this);
        if (f === Fault.OK) {
          const n = Math.max(1, Math.ceil(reth.dmaLen / mtu));
          this.#respFifo.push({ first: psn, va: reth.va });
          this.#remember({ first: psn, n, va: reth.va, rkey: reth.rkey, len: reth.dmaLen, orig: null });
          this.#ePsn = psnAdd(psn, n);
          this.#msn = (this.#msn + 1) & 0xffffff;
          return;
        }
        break;
      }
      case 'atomic': {
        // Executed at once by the core's atomic executor (8-octet aligned, Remote Atomic right,
        // atomic with respect to every other atomic of the process: IBTA Vol. 1 §9.4.5).
        const ae = p.atomicEth!;
        const cs = p.bth.opcode === IbOpcode.RC_COMPARE_SWAP;
        const args = cs ? atomicArgs(AtomicKind.COMPARE_SWAP, 8, ae.compare, ae.swapAdd) : atomicArgs(AtomicKind.FETCH_ADD, 8, ae.swapAdd, 0n);
        f = qp.responder.rxAtomicRequest(psn, args, ae.rkey, ae.va, this);
        if (f === Fault.OK) {
          const orig = qp.irq[qp.irq.length - 1]?.atomic?.orig[0] ?? 0n;
          this.#respFifo.push({ first: psn, va: 0n });
          this.#remember({ first: psn, n: 1, va: ae.va, rkey: ae.rkey, len: 8, orig });
          this.#ePsn = psnAdd(psn, 1);
          this.#msn = (this.#msn + 1) & 0xffffff;
          return;
        }
        break;
      }
      default: {
        inv(`${info.name} not supported`);
        return;
      }
    }
    if (f !== Fault.OK) {
      if (f !== Fault.HANDLED) qp.remoteFault(f, null);
      return;
    }
    this.#ePsn = psnAdd(psn, 1);
    if (info.last) this.#msn = (this.#msn + 1) & 0xffffff;
    if (p.bth.ackReq) this.#scheduleAck(psn);
  }

  /** Keeps a Read or atomic for duplicate replay; the ring holds `max_dest_rd_atomic` (rxe). */
  #remember(r: ReadResource): void {
    this.#ring.push(r);
    while (this.#ring.length > Math.max(1, this.qp.ird)) this.#ring.shift();
  }

  #rxDuplicate(p: IbPacket): void {
    this.counters.inc(C.DUP_REQ);
    const info = ibOpInfo(p.bth.opcode)!;
    if (info.operation === 'atomic') {
      // A retried atomic is answered with the value it returned, never executed twice (§9.4.5).
      const res = this.#ring.find((x) => x.orig !== null && x.first === p.bth.psn);
      if (res && p.atomicEth!.va === res.va && p.atomicEth!.rkey === res.rkey) this.#sendAtomicAck(res.first, res.orig!);
      return;
    }
    if (info.operation !== 'read-request') {
      // Executed already: acknowledge what has been executed (rxe: ePSN − 1).
      this.#scheduleAck(psnAdd(this.#ePsn, -1));
      return;
    }
    // A Read retried: replay it if it lies inside a Read we answered (its range a subset).
    const reth = p.reth!;
    const psn = p.bth.psn;
    const res = this.#ring.find((x) => x.orig === null && psnInRange(psn, x.first, x.n));
    if (!res || reth.rkey !== res.rkey || reth.va < res.va || reth.va + BigInt(reth.dmaLen) > res.va + BigInt(res.len)) return;
    const qp = this.qp;
    // The Read being answered now is this one (or an earlier replay of it): the requester has
    // given up on that stream (it accepts responses only from the start of its latest request),
    // so restart the stream where it asks, as rxe's duplicate_request makes the replayed
    // resource the current one (IBTA Vol. 1 §9.7.5.1.2). Otherwise a Read lost in a long
    // response could only be retried after the whole stale stream had gone out, and a lossy
    // path would exhaust retry_cnt on a large Read.
    const cur = this.#respFifo[0];
    if (cur && cur.va !== 0n && psnInRange(cur.first, res.first, res.n) && qp.responder.restartHeadRead(Number(reth.va - cur.va), reth.dmaLen)) {
      cur.first = psn;
      cur.va = reth.va;
      this.kick();
      return;
    }
    if (qp.irq.length >= qp.ird) return; // still answering: the requester will retry again
    this.#curPsn = psn;
    this.#curIsResponse = false;
    const f = qp.responder.rxReadRequest(0, 0n, reth.dmaLen, reth.rkey, reth.va, this);
    if (f === Fault.OK) this.#respFifo.push({ first: psn, va: reth.va });
    else if (f !== Fault.HANDLED) qp.remoteFault(f, null);
  }

  #scheduleAck(psn: number): void {
    if (this.#ackPsn < 0 || psnDiff(psn, this.#ackPsn) > 0) this.#ackPsn = psn;
    if (this.#ackScheduled) return;
    this.counters.inc(C.ACK_DEFERRED);
    this.#ackScheduled = true;
    this.nets[0]!.atTurnEnd(this.#ackAtTurnEnd);
  }

  /**
   * The coalesced ACK, at the end of the turn that executed the requests: it leaves in the
   * same flush as what the consumer posted on seeing their completions (`RoceNet.atTurnEnd`).
   */
  readonly #ackAtTurnEnd = (): void => {
    this.#ackScheduled = false;
    // Never let an ACK overtake Read Responses still to go: the transmit loop sends it after them.
    if (this.#respFifo.length === 0) this.#flushAck();
    else this.kick();
  };

  #flushAck(): void {
    if (this.#ackPsn < 0 || this.#gone) return;
    const psn = this.#ackPsn;
    this.#ackPsn = -1;
    this.#sendAck(psn, ackSyndrome());
  }

  /** An ACKNOWLEDGE packet with `syndrome` and `psn` (a sequence NAK carries the ePSN). */
  #sendAck(psn: number, syndrome: number): void {
    const bth = newBth(IbOpcode.RC_ACKNOWLEDGE, this.qp.ib.destQpn, psn);
    const pkt = encodeIbPacket({ bth, aeth: { syndrome, msn: this.#msn }, payload: EMPTY });
    if (this.remote) this.#send(pkt, this.remote);
  }

  // ---- responder (UC)

  #rxUcRequest(p: IbPacket): void {
    const info = ibOpInfo(p.bth.opcode)!;
    const psn = p.bth.psn;
    const qp = this.qp;
    if (psn !== this.#ePsn) {
      // A packet was lost: the message in progress is abandoned (its receive WQE kept for the
      // next one) and packets are dropped until the next FIRST/ONLY (§9.8.3.2, rxe `drop_msg`).
      this.counters.inc(C.OUT_OF_SEQ_REQ);
      if (this.#rxMsg !== RxMsg.NONE) this.#abandon();
      if (!info.first) {
        this.#ucDropping = true;
        this.#ePsn = psnAdd(psn, 1);
        return;
      }
    }
    this.#ePsn = psnAdd(psn, 1);
    if (info.first) {
      if (this.#rxMsg !== RxMsg.NONE) this.#abandon();
      this.#ucDropping = false;
    }
    if (this.#ucDropping) return;
    const kind = info.operation === 'send' ? RxMsg.SEND : RxMsg.WRITE;
    const len = p.payload.length;
    const mtu = this.#mtu;
    if ((!info.first && this.#rxMsg !== kind) || (info.last ? len > mtu : len !== mtu)) {
      this.#dropUc();
      return;
    }
    const payload: RxPayload = { segments: [p.payload] };
    if (kind === RxMsg.WRITE && info.immediate && !qp.recvReady()) {
      this.#dropUc(); // no receive for the immediate: UC drops the message
      return;
    }
    let f: Fault;
    if (kind === RxMsg.SEND) {
      f = qp.responder.rxSend(this.#rxOffset, len, info.last, p.bth.se, false, 0, payload, 0, info.immediate ? p.immDt : undefined);
    } else {
      if (info.first) {
        this.#wVa = p.reth!.va;
        this.#wRkey = p.reth!.rkey;
        this.#wLen = p.reth!.dmaLen;
        this.#rxOffset = 0;
      }
      const end = this.#rxOffset + len;
      if (end > this.#wLen || (info.last && end !== this.#wLen)) {
        this.#dropUc();
        return;
      }
      f = qp.responder.rxWrite(this.#wRkey, this.#wVa + BigInt(this.#rxOffset), len, info.last, payload, 0);
      if (f === Fault.OK && info.immediate) f = qp.responder.rxWriteImm(p.immDt!, p.bth.se);
    }
    if (f !== Fault.OK) {
      // UC has no NAK: a request in error is dropped (IBTA Vol. 1 §9.8.3.2; rxe drops it).
      if (f !== Fault.HANDLED) this.#dropUc();
      return;
    }
    if (info.last && (kind === RxMsg.SEND || info.immediate)) this.counters.inc(C.RDMA_RECV);
    this.#rxOffset = info.last ? 0 : this.#rxOffset + len;
    this.#rxMsg = info.last ? RxMsg.NONE : kind;
  }

  #abandon(): void {
    this.qp.responder.abortMessage();
    this.#rxMsg = RxMsg.NONE;
    this.#rxOffset = 0;
  }

  #dropUc(): void {
    if (this.#rxMsg !== RxMsg.NONE) this.#abandon();
    this.#ucDropping = true;
  }

  // ---- responder (UD)

  #rxUd(r: RoceRx): void {
    const p = r.pkt;
    // A message no larger than the MTU; the core checks the Q_Key (§10.2.5; rxe `check_keys`),
    // takes a receive WQE and completes it with the source QP and the GRH flag. Any problem
    // drops the datagram: UD has no NAK (a missing receive, a short buffer: class D).
    if (p.payload.length > this.#mtu) return;
    const d = p.deth!;
    if (this.qp.responder.rxDatagram(this.#grh(r), p.payload.length, p.bth.se, { segments: [p.payload] }, 0, d.srcQp, d.qkey >>> 0, p.immDt) === Fault.OK) this.counters.inc(C.RDMA_RECV);
  }

  /**
   * The GRH of a received UD datagram (IBTA Vol. 1 §8.3; RoCEv2 over IPv4, Annex A17.4.5.1:
   * 20 zero octets, then the IPv4 header as received). The IP header is not visible to a UDP
   * socket: it is rebuilt from the addresses, the length and the IPv4 ID recovered from the
   * ICRC; TOS and TTL (masked in the ICRC, so not recoverable) are 0 and 64.
   */
  #grh(r: RoceRx): Uint8Array {
    const g = new Uint8Array(GRH_LEN);
    if (isIpv6Address(r.dstAddress)) {
      // RoCEv2 over IPv6 (Annex A17.4.5.2): the GRH is the IPv6 header as received. Traffic
      // class and flow label (masked in the ICRC, not visible to a UDP socket) are 0, as Linux rxe
      // sends them by default; the hop limit 64.
      const len = 8 + r.raw.length;
      g[0] = 0x60;
      g[4] = len >>> 8;
      g[5] = len & 0xff;
      g[6] = 17;
      g[7] = 64;
      g.set(ipv6Bytes(r.srcAddress), 8);
      g.set(ipv6Bytes(r.dstAddress), 24);
      return g;
    }
    const ip = 20;
    const total = 28 + r.raw.length;
    g[ip] = 0x45;
    g[ip + 2] = total >>> 8;
    g[ip + 3] = total & 0xff;
    g[ip + 4] = r.ipId >>> 8;
    g[ip + 5] = r.ipId & 0xff;
    g[ip + 6] = 0x40;
    g[ip + 8] = 64;
    g[ip + 9] = 17;
    g.set(ipv4Bytes(r.srcAddress), ip + 12);
    g.set(ipv4Bytes(r.dstAddress), ip + 16);
    let s = 0;
    for (let i = ip; i < ip + 20; i += 2) s += (g[i]! << 8) | g[i + 1]!;
    while (s > 0xffff) s = (s & 0xffff) + (s >>> 16);
    const c = ~s & 0xffff;
    g[ip + 10] = c >>> 8;
    g[ip + 11] = c & 0xff;
    return g;
  }

  // ---- completer (RC)

  #rxResponse(p: IbPacket): void {
    const info = ibOpInfo(p.bth.opcode)!;
    this.#curIsResponse = true;
    if (info.operation === 'ack') this.#rxAck(p.bth.psn, p.aeth!.syndrome);
    else if (info.operation === 'read-response') this.#rxReadResponse(p);
    else if (info.operation === 'atomic-ack') this.#rxAtomicAck(p);
  }

  /** An ATOMIC ACKNOWLEDGE: acknowledges what precedes it and completes its atomic (§9.7.6.1.1). */
  #rxAtomicAck(p: IbPacket): void {
    const psn = p.bth.psn;
    const idx = this.#inflight.findIndex((e) => e.atomicId !== null && e.first === psn);
    if (idx < 0) return; // a duplicate of a finished atomic, or garbage
    const e = this.#inflight[idx]!;
    if (aethType(p.aeth!.syndrome) !== AethType.Ack) return;
    if (idx > 0) {
      this.#ackUpTo(psnAdd(e.first, -1));
      if (this.#gone) return;
      if (this.#inflight[0] !== e) {
        // An earlier Read or atomic is unfinished: its response was lost. Keep this result for
        // when it completes, and ask for the earlier one again now (an implied NAK, §9.7.6.1.1).
        this.#stash.set(e.first, p.atomicAckEth!.origData);
        this.#impliedRetry();
        return;
      }
    }
    this.#completeAtomic(e, p.atomicAckEth!.origData);
  }

  /** Completes the atomic at the head with its original value, then any stashed ones after it. */
  #completeAtomic(e: Entry, orig: bigint): void {
    const qp = this.qp;
    const f = qp.responder.rxAtomicResponse(e.atomicId!, [orig], this);
    if (f !== Fault.OK) {
      if (f !== Fault.HANDLED) qp.remoteFault(f, null);
      return;
    }
    this.#inflight.shift();
    this.#afterResponse();
  }

  /** A Read or atomic at the head completed: progress, then what waited behind it. */
  #afterResponse(): void {
    this.#progress();
    if (this.#lastAckPsn >= 0) this.#ackUpTo(this.#lastAckPsn);
    const h = this.#inflight[0];
    if (!h || this.#gone || h.atomicId === null) return;
    const orig = this.#stash.get(h.first);
    if (orig === undefined) return;
    this.#stash.delete(h.first);
    this.#completeAtomic(h, orig);
  }

  /**
   * A response to a later request arrived while the Read or atomic at the head is unfinished:
   * its response was lost, so request it again at once (once per head), rather than waiting
   * for the timer. The responder replays it from its resources.
   */
  #impliedRetry(): void {
    const h = this.#inflight[0];
    if (!h || h.first === this.#impliedPsn) return;
    this.#impliedPsn = h.first;
    this.counters.inc(C.COMP_RETRY);
    this.counters.inc(C.RESENT_PKTS);
    if (h.read) {
      this.#readGapPsn = psnAdd(h.first, h.read.got);
      this.#sendReadRequest(h.read, this.#readGapPsn, h.read.orq.received);
    } else if (h.buf) {
      this.#send(h.buf, this.remote!);
    }
  }

  /** Acknowledges every request wholly at or before `psn`, stopping at an unfinished Read. */
  #ackUpTo(psn: number): boolean {
    const qp = this.qp;
    let progress = false;
    while (this.#inflight.length > 0) {
      const e = this.#inflight[0]!;
      // Reads and atomics complete only by their responses (§9.7.6.1.1).
      if (e.read || e.atomicId !== null || psnDiff(e.first, psn) > 0) break;
      this.#inflight.shift();
      progress = true;
      if (e.lastOfWqe && e.wqe) {
        this.counters.inc(C.RDMA_SEND);
        qp.requester.delivered(e.wqe);
      }
      if (this.#gone) return progress;
    }
    if (progress) this.#progress();
    return progress;
  }

  #progress(): void {
    this.#una = this.#inflight.length ? this.#inflight[0]!.first : this.#nextPsn;
    if (this.#inflight.length === 0) {
      this.#lastAckPsn = -1;
      this.#stash.clear();
    }
    this.#resetRetries();
    this.#restartTimer();
    this.kick();
  }

  #rxAck(psn: number, syndrome: number): void {
    if (this.#inflight.length === 0) return;
    // Stale: before the oldest outstanding PSN − 1, or beyond what was sent.
    if (psnDiff(psn, psnAdd(this.#una, -1)) < 0 || psnDiff(psn, this.#nextPsn) >= 0) return;
    const type = aethType(syndrome);
    if (type === AethType.Ack) {
      if (this.#lastAckPsn < 0 || psnDiff(psn, this.#lastAckPsn) > 0) this.#lastAckPsn = psn;
      this.#ackUpTo(psn);
      return;
    }
    // A NAK acknowledges everything before its PSN (§9.7.5.2.x): progress if that is new, even
    // when an unfinished Read or atomic at the head keeps the entries from completing yet.
    const implied = psnAdd(psn, -1);
    const newer = this.#lastAckPsn < 0 || psnDiff(implied, this.#lastAckPsn) > 0;
    if (newer && psnDiff(implied, psnAdd(this.#una, -1)) >= 0) this.#lastAckPsn = implied;
    const progress = this.#ackUpTo(implied) || newer;
    if (this.#gone) return;
    const v = aethValue(syndrome);
    if (type === AethType.RnrNak) {
      this.counters.inc(C.RCV_RNR);
      if (this.#rnrLeft !== RETRY_UNLIMITED) {
        if (this.#rnrLeft <= 0) {
          const e = this.#entryAt(psn) ?? this.#inflight[0];
          this.counters.inc(C.RNR_RETRY_EXCEEDED);
          if (e?.wqe) this.qp.requester.failRemote(e.wqe, RiWcStatus.RNR_RETRY_EXCEEDED);
          else this.qp.toError('RNR retry count exceeded', null);
          return;
        }
        this.#rnrLeft--;
      }
      // Wait the responder's RNR timer, then resend from the NAK's PSN (§9.7.5.2.8).
      this.#rnrPsn = psn;
      this.#clearTimer();
      if (this.#rnrTimer) clearTimeout(this.#rnrTimer);
      const ms = Math.max(1, RNR_TIMER_USEC[v]! / 1000);
      this.#rnrTimer = setTimeout(() => {
        this.#rnrTimer = null;
        if (this.#gone) return;
        this.#goBackN(psn);
        this.kick();
      }, ms);
      return;
    }
    if (v === NakCode.PsnSequenceError) {
      this.counters.inc(C.RCV_SEQ_ERR);
      // Waiting out an RNR NAK for this PSN: the resend after the RNR timer covers it.
      if (!progress && this.#rnrTimer && psn === this.#rnrPsn) return;
      if (!progress && !this.#useRetry()) return;
      this.#goBackN(psn);
      return;
    }
    // Invalid request, remote access or operational error: the WQE fails, the QP enters Error.
    const e = this.#entryAt(psn) ?? this.#inflight[0];
    log('QP[%d] NAK %d at PSN %d', this.qp.id, v, psn);
    if (e?.wqe) this.qp.requester.failRemote(e.wqe, wcStatusOfNak(v));
    else this.qp.toError(`NAK ${v}`, null);
  }

  #entryAt(psn: number): Entry | undefined {
    return this.#inflight.find((e) => psnInRange(psn, e.first, e.n));
  }

  #rxReadResponse(p: IbPacket): void {
    const psn = p.bth.psn;
    const info = ibOpInfo(p.bth.opcode)!;
    // A response acknowledges every request before its Read (§9.7.6.1.1).
    const idx = this.#inflight.findIndex((e) => psnInRange(psn, e.first, e.n));
    if (idx < 0) return; // a duplicate of a finished Read, or garbage
    const e = this.#inflight[idx]!;
    const r = e.read;
    if (!r) return;
    if (idx > 0) {
      this.#ackUpTo(psnAdd(e.first, -1));
      if (this.#gone) return;
      if (this.#inflight[0] !== e) {
        // An earlier Read or atomic is unfinished: its response was lost (an implied NAK).
        this.#impliedRetry();
        return;
      }
    }
    const expected = psnAdd(e.first, r.got);
    const d = psnDiff(psn, expected);
    // Responses of this Read that cannot be used (from an earlier request's stream, or after a
    // gap) still show the responder answering it: the retransmit timer restarts (without a
    // retry refund), so a backlog of stale responses draining through a busy event loop does
    // not look like a dead path and trigger yet more Read Requests, each answered by a whole
    // new response stream (a congestion collapse seen on a loaded 2-core machine).
    if (d !== 0 || psnDiff(psn, r.reqFirst) < 0) this.#restartTimer();
    if (d !== 0) {
      if (d > 0) {
        // Responses were lost: re-request the rest now, once per gap (a partial Read).
        if (this.#readGapPsn !== expected) {
          this.#readGapPsn = expected;
          this.#sendReadRequest(r, expected, r.orq.received);
          this.counters.inc(C.COMP_RETRY);
          this.counters.inc(C.RESENT_PKTS);
        }
      }
      return;
    }
    // A response must start where its request started, and end at the Read's last PSN. The
    // answer to a partial Read Request (a retry from inside the Read) may restart the message
    // (FIRST/ONLY, as we and hardware answer) or continue it (MIDDLE/LAST: Linux rxe replays a
    // Read from its resource in that state when the PSN is not the original first one).
    const k = psnDiff(psn, r.reqFirst);
    const isLast = r.got === e.n - 1;
    const partial = r.reqFirst !== e.first;
    const firstOk = k === 0 ? info.first || partial : !info.first;
    if (!firstOk || info.last !== isLast) return;
    if (aethType(p.aeth?.syndrome ?? 0) !== AethType.Ack) return;
    const len = p.payload.length;
    const remaining = r.len - r.orq.received;
    if (isLast ? len !== remaining : len !== this.#mtu) return;
    const qp = this.qp;
    const f = qp.responder.rxReadResponseIb(len, isLast, { segments: [p.payload] }, 0, this);
    if (f !== Fault.OK) {
      if (f !== Fault.HANDLED) qp.remoteFault(f, null);
      return;
    }
    r.got++;
    this.#readGapPsn = -1;
    if (isLast) {
      this.#inflight.shift();
      // What an ACK acknowledged past this Read applies now, and atomics that waited behind it.
      this.#afterResponse();
    } else {
      this.#resetRetries();
      this.#restartTimer();
    }
  }
}

/**
 * The RoCEv2 transport: InfiniBand RC, UC and UD QPs (IBTA Vol. 1 chapter 9) carried in UDP
 * datagrams (Annex A17) through `net.ts`. It implements the core's {@link QpTransport} for
 * IB QPs, bound on INIT→RTR by `registerIbBinder('rocev2', attachRoce)`.
 *
 * The core keeps the semantics (queues, access checks, placement, completions, flushes); what
 * the InfiniBand wire adds is split as Linux rxe splits it, one part per file, each holding its
 * own state:
 *
 * - {@link RoceQp.req} (`requester.ts`, rxe `rxe_req.c`): PSNs, AckReq, the window of
 *   unacknowledged PSNs, the packets kept for go-back-N;
 * - {@link RoceQp.comp} (`completer.ts`, rxe `rxe_comp.c`): ACKs, NAKs, Read responses and
 *   ATOMIC ACKNOWLEDGEs, the retransmit timer, `retry_cnt` and `rnr_retry`;
 * - {@link RoceQp.resp} (`responder.ts`, rxe `rxe_resp.c`): requests in PSN order, duplicates,
 *   RNR and error NAKs, coalesced ACKs, Read Responses; UC and UD receive.
 *
 * This file owns what the three share: the UDP endpoints (and multicast groups) of the QP, the
 * transmit loop that pulls the core's segments at its own pace, receive dispatch by opcode,
 * the QP's life (start, modify, reset, detach) and the NAK of a fatal fault (`sendFatal`).
 *
 * **Atomics** (RC) — 8-octet COMPARE SWAP and FETCH ADD (§9.4.5), one PSN each, executed by the
 * core's atomic executor; the original value returns in an ATOMIC ACKNOWLEDGE.
 * **Immediate data** (§9.4.1, §9.4.3) — the ImmDt header on the last packet of a Send or RDMA
 * Write with Immediate (UD too).
 */

import { Fault, type WireError } from '../rnic/faults.js';
import type { Qp } from '../rnic/qp.js';
import { IbQpAttr } from '../rnic/qp-states.js';
import { type IbQpAttrs, mtuBytes, type QpTransport, type TransportCaps, TxOp, type TxSeg } from '../rnic/transport.js';
import { RiRet } from '../rnicpi/status.js';
import type { RiQpState } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import { gidToAddress, isIpv6Address } from '../wire/ib/gid-address.js';
import {
  IbService,
  ibOpInfo,
  ibPacketPartsLength,
  NakCode,
  nakSyndrome,
  PKEY_DEFAULT,
  PKEY_DEFAULT_LIMITED,
  ROCEV2_PORT,
} from '../wire/ib/index.js';
import { RoceCompleter } from './completer.js';
import { C, RoceQpCounters } from './counters.js';
import { nakOfFault } from './nak-map.js';
import { RoceNet, type RoceNetClient, type RoceRx } from './net.js';
import { gidToIpv4 } from './net-host.js';
import type { RocePacket } from './net-tx.js';
import { MAX_HEADERS, RoceRequester } from './requester.js';
import { RoceResponder, RoceWireError } from './responder.js';

export { COMP_STEP_NAMES } from './completer.js';
export { ACK_EVERY, MAX_WINDOW } from './requester.js';
export { RESP_STEP_NAMES, RoceWireError } from './responder.js';

const log = logger('roce');

/** Packets sent per transmit slice before yielding to the event loop (receive, timers). */
const TX_BURST = 64;

const RC_CAPS: TransportCaps = Object.freeze({
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

/** The RoCEv2 half of one IB QP: its endpoints, transmit loop and receive dispatch. */
export class RoceQp implements QpTransport, RoceNetClient {
  readonly caps: TransportCaps;
  readonly service: 'RC' | 'UC' | 'UD';
  readonly nets: RoceNet[];
  readonly remote: string | null;
  /** The requester part (`requester.ts`). */
  readonly req: RoceRequester;
  /** The responder part (`responder.ts`). */
  readonly resp: RoceResponder;
  /** The completer part (`completer.ts`). */
  readonly comp: RoceCompleter;
  #active = false;
  /** Detached: nothing more is sent or received. */
  gone = false;
  #scheduled = false;
  #running = false;
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
    this.req = new RoceRequester(this);
    this.resp = new RoceResponder(this);
    this.comp = new RoceCompleter(this);
  }

  /** The path MTU (RC, UC); UD: the port's active MTU (IBTA Vol. 1 §9.8.3.1). */
  get mtu(): number {
    if (this.service === 'UD') return mtuBytes(this.qp.rnic.config.activeMtu ?? 3);
    return mtuBytes(this.qp.ib.pathMtu);
  }

  maxPayload(_op: TxOp): number {
    // Messages are cut at exactly the path MTU: rxe's responder requires it (§9.7.7, rocev2.md §1.5).
    return this.mtu;
  }

  start(_streamMsg: Uint8Array | null): void {
    if (this.gone) return;
    this.#active = true;
    const ib = this.qp.ib;
    this.resp.ePsn = ib.rqPsn;
    this.req.nextPsn = ib.sqPsn;
    this.comp.una = ib.sqPsn;
    this.comp.resetRetries();
    for (const n of this.nets) n.attach(this.qp.id, this);
    // Groups attached before the transport was bound (ibv_attach_mcast in INIT).
    for (const m of this.qp.mcast.values()) this.#joinGroup(m);
  }

  /** UD multicast groups joined, by MGID hex: the group's endpoint. */
  readonly #groups = new Map<string, RoceNet>();

  mcastChanged(mgid: Uint8Array, attached: boolean): void {
    if (!this.#active || this.gone) return;
    if (attached) this.#joinGroup(mgid);
    else this.#leaveGroup(Buffer.from(mgid).toString('hex'));
  }

  /**
   * Receives the group of `mgid` (IPv4 `::ffff:G`, or an IPv6 group G): the group's endpoint on
   * this port (a socket bound to G), joined on the interface of each of the QP's addresses of
   * G's family (an IGMP or MLD report), as Linux rdma_cm joins through `ip_mc_inc_group` for
   * RoCE (`cma_igmp_send`).
   */
  #joinGroup(mgid: Uint8Array): void {
    const key = Buffer.from(mgid).toString('hex');
    const g = gidToIpv4(mgid) ?? (mgid[0] === 0xff ? gidToAddress(mgid) : null);
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
    if (this.service !== 'UD' || this.gone) return;
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
          if (this.gone || !table().has(a) || this.nets.some((x) => x.address === a)) {
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
    if (changed & IbQpAttr.SQ_PSN && this.req.inflight.length === 0) {
      this.req.nextPsn = attrs.sqPsn;
      this.comp.una = attrs.sqPsn;
    }
    if (changed & IbQpAttr.RQ_PSN) this.resp.ePsn = attrs.rqPsn;
    if (changed & (IbQpAttr.RETRY_CNT | IbQpAttr.RNR_RETRY)) this.comp.resetRetries();
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
    if (this.resp.respFifo.length === 0) this.resp.flushAck();
    this.detach();
  }

  detach(): void {
    if (this.gone) return;
    // Requests already executed are acknowledged before the QP leaves (an ACK coalesced for
    // the end of this event-loop turn would be lost): otherwise a peer whose last Write or Send
    // took effect sees it flushed when the connection goes down right after (rdma_disconnect
    // moves the QP to Error at once; rxe ACKs each such packet as it executes it).
    if (this.resp.ackPsn >= 0 && this.resp.respFifo.length === 0) this.resp.flushAck();
    this.gone = true;
    this.#active = false;
    this.comp.stop();
    this.req.inflight.length = 0;
    for (const k of [...this.#groups.keys()]) this.#leaveGroup(k);
    for (const n of this.nets) {
      n.detach(this.qp.id, this);
      n.release();
    }
    this.counters.release();
  }

  /**
   * An endpoint of this QP failed. A UD QP receives on every address of the port's GID table:
   * while it keeps another endpoint it drops this one (as {@link gidsChanged} skips an address
   * it cannot bind, e.g. an IPv6 link-local address of an interface without carrier), and
   * enters Error only with its last. An address taken by another process (EADDRINUSE) is a
   * conflict, not an absent address: the QP enters Error, as any QP with one endpoint does.
   */
  netError(err: Error, net?: RoceNet): void {
    if (this.gone) return;
    const i = net ? this.nets.indexOf(net) : -1;
    if (net && i >= 0 && this.service === 'UD' && this.nets.length > 1 && (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') {
      this.nets.splice(i, 1);
      for (const g of this.#groups.values()) g.leave(net.address);
      net.detach(this.qp.id, this);
      net.release();
      log('QP[%d] cannot receive on %s: %s', this.qp.id, net.address, err.message);
      return;
    }
    log('QP[%d] UDP endpoint failed: %s', this.qp.id, err.message);
    this.qp.toError(`RoCEv2 socket: ${err.message}`, null);
  }

  /**
   * The NAK for a fatal fault of an inbound request (the core's or {@link RoceWireError}), with
   * the PSN of that request; nothing for faults found on responses (a requester has no NAK).
   * The record is the NAK's AETH: its syndrome and MSN (IBTA Vol. 1 §9.7.5.2.8, §9.3.5.1).
   */
  sendFatal(err: Fault | object, _copied: unknown): WireError {
    const resp = this.resp;
    const code = typeof err === 'number' ? nakOfFault(err) : err instanceof RoceWireError ? err.nak : NakCode.RemoteOperationalError;
    const syn = nakSyndrome(code);
    const fault = typeof err === 'number' ? err : undefined;
    if (this.service === 'RC' && !resp.curIsResponse && !this.gone) {
      // What was executed before the faulty request is acknowledged first, then the NAK.
      if (resp.respFifo.length === 0) resp.flushAck();
      resp.sendAck(resp.curPsn, syn);
      this.qp.rnic.counters.terminatesSent++;
      log(
        'QP[%d] NAK 0x%s PSN %d (%s)',
        this.qp.id,
        syn.toString(16),
        resp.curPsn,
        typeof err === 'number' ? Fault[err] : (err as RoceWireError).message,
      );
    }
    const msn = resp.msn;
    const bytes = Uint8Array.of(syn, (msn >>> 16) & 0xff, (msn >>> 8) & 0xff, msn & 0xff);
    return { bytes, local: true, ...(fault !== undefined && { fault }), codes: { syndrome: syn, msn } };
  }

  // =================================================================== transmit

  /** The endpoint of source address `addr`, else the first of the destination's family. */
  netFor(addr: string | null, dst: string | null): RoceNet {
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

  /** Sends one encoded packet to `dst` from `net` (the ICRC is written by the endpoint). */
  send(buf: RocePacket, dst: string, net = this.nets[0]!): void {
    const len = ibPacketPartsLength(buf);
    this.#queued += len;
    this.counters.inc(C.SENT_PKTS);
    net.send(buf, dst, this.port, this.#sent(len));
  }

  #run(): void {
    this.#scheduled = false;
    const qp = this.qp;
    if (!this.#active || this.#running) return;
    this.#running = true;
    let budget = TX_BURST;
    try {
      while (budget > 0 && qp.canTransmit && !this.gone) {
        if (this.#queued >= qp.rnic.config.txWindow) {
          // The socket holds a window's worth: resume from the send callbacks.
          this.#blocked = true;
          break;
        }
        // The window of unacknowledged PSNs (Read Responses are not limited by it).
        const full = this.service === 'RC' && this.req.windowClosed;
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
    const resp = this.resp;
    if (resp.ackPsn >= 0 && resp.respFifo.length === 0 && !resp.ackScheduled) resp.flushAck();
    if (budget === 0 && !this.gone && !this.#blocked) {
      // More may be ready: continue after the event loop has had its turn.
      this.#scheduled = true;
      setImmediate(() => this.#run());
    }
  }

  /** Responses are the responder's to send, requests the requester's. */
  #emit(seg: TxSeg): void {
    if (seg.op === TxOp.READ_RESPONSE) this.resp.emitReadResponse(seg);
    else if (seg.op === TxOp.ATOMIC_RESPONSE) this.resp.emitAtomicAck(seg);
    else this.req.emit(seg);
  }

  // =================================================================== receive

  rx(r: RoceRx): void {
    if (!this.#active || this.gone || !this.qp.live) return;
    this.counters.inc(C.RCVD_PKTS);
    const p = r.pkt;
    const info = ibOpInfo(p.bth.opcode)!;
    // P_Key: only the default partition exists here (rxe accepts 0xFFFF and 0x7FFF).
    if (p.bth.pkey !== PKEY_DEFAULT && p.bth.pkey !== PKEY_DEFAULT_LIMITED) return;
    if (this.service === 'UD') {
      if (info.service === IbService.UD) this.resp.rxUd(r);
      return;
    }
    // RC/UC: the opcode's service must be the QP's, and the source the QP's destination
    // (rxe `check_addr`).
    if (info.service !== (this.service === 'UC' ? IbService.UC : IbService.RC)) return;
    if (r.srcAddress !== this.remote) return;
    if (info.request) {
      if (this.service === 'RC') this.resp.rxRc(p);
      else this.resp.rxUc(p);
    } else if (this.service === 'RC') {
      this.resp.curIsResponse = true;
      this.comp.rx(p);
    }
  }
}

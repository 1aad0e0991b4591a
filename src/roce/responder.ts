/**
 * The RoCEv2 responder: the receive side of an InfiniBand QP for requests (IBTA Vol. 1 §9.7.5,
 * §9.8.3), as Linux rxe's `rxe_resp.c`. The core's responder places and matches; this part owns
 * what the InfiniBand wire adds.
 *
 * **RC** — each request walks named steps, each returning the next ({@link RespStep};
 * {@link RESP_STEP_NAMES} names them in the debug log):
 * `CHECK_PSN → CHECK_OP_SEQ → CHECK_LENGTH → CHECK_RESOURCE → EXECUTE → ACKNOWLEDGE`.
 * - Requests execute in PSN order: the expected PSN (ePSN) only. Ahead of ePSN: one
 *   PSN-sequence NAK per gap, then silence until the gap closes. Behind it (a duplicate): a Send
 *   or Write is re-ACKed (ePSN − 1); a Read is replayed from a ring of `max_dest_rd_atomic`
 *   resources if it lies inside one; an atomic is answered again with its original value, never
 *   executed twice.
 * - Opcode sequence and length rules (FIRST/MIDDLE exactly one MTU, the Write's DMA length) are
 *   checked here; a violation or a core fault is a NAK (0x61/0x62/0x63) and the QP enters Error.
 * - No receive posted: an RNR NAK with the QP's `min_rnr_timer`, ePSN unchanged. A Write with
 *   Immediate needs a receive WQE: when none is posted its last packet is RNR-NAKed before
 *   anything of it is placed.
 * - ACKs are coalesced per turn (they leave at its end, with what the consumer posted in it:
 *   `RoceNet.atTurnEnd`) and never overtake pending Read Responses, which this part also sends
 *   (with ATOMIC ACKNOWLEDGEs) as the core hands them out.
 *
 * **UC** — the same packets, no ACKs: a PSN gap abandons the message in progress (its receive
 * WQE is reused) and packets are dropped until the next FIRST/ONLY; errors drop silently.
 * **UD** — one packet per message (≤ MTU) with a DETH; the core checks the Q_Key and puts the
 * GRH, synthesised from the datagram's addresses and the IPv4 ID recovered from the ICRC, in
 * front of the payload.
 */
import { AtomicKind, atomicArgs } from '../rnic/atomics.js';
import { Fault } from '../rnic/faults.js';
import { newUntaggedSegment, type RxPayload, type UntaggedSegment } from '../rnic/responder.js';
import type { TxSeg } from '../rnic/transport.js';
import { logger } from '../util/log.js';
import { ipv6Bytes, isIpv6Address } from '../wire/ib/gid-address.js';
import {
  ackSyndrome,
  encodeIbPacket,
  encodeIbPacketGather,
  IbOpcode,
  type IbOpInfo,
  type IbPacket,
  ibOpInfo,
  ibPadCount,
  MSN_MASK,
  NakCode,
  nakSyndrome,
  newBth,
  newIbPacket,
  psnAdd,
  psnDiff,
  psnInRange,
  rnrSyndrome,
  udGrh,
} from '../wire/ib/index.js';
import { C } from './counters.js';
import type { RoceRx } from './net.js';
import { ipv4Bytes } from './net-host.js';
import type { RoceQp } from './transport.js';

const log = logger('roce');

/** The error object for faults only this transport sees (handed to `qp.terminateWith`). */
export class RoceWireError {
  constructor(
    readonly nak: NakCode,
    readonly message: string,
  ) {}
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

/** The message in progress on the receive side. */
const enum RxMsg {
  NONE = 0,
  SEND = 1,
  WRITE = 2,
}

/** The steps of an RC request's receive path (rxe `enum resp_states`). */
export const enum RespStep {
  CHECK_PSN,
  CHECK_OP_SEQ,
  CHECK_LENGTH,
  CHECK_RESOURCE,
  EXECUTE,
  ACKNOWLEDGE,
  DUPLICATE,
  SEQ_NAK,
  RNR_NAK,
  INVALID_REQUEST,
  FAULT,
  DONE,
}

/** {@link RespStep} names, for the debug log. */
export const RESP_STEP_NAMES: readonly string[] = [
  'CHECK_PSN',
  'CHECK_OP_SEQ',
  'CHECK_LENGTH',
  'CHECK_RESOURCE',
  'EXECUTE',
  'ACKNOWLEDGE',
  'DUPLICATE',
  'SEQ_NAK',
  'RNR_NAK',
  'INVALID_REQUEST',
  'FAULT',
  'DONE',
];

/** The responder part of a {@link RoceQp} (rxe `qp->resp`). */
export class RoceResponder {
  /** The expected PSN (rxe `resp.psn`). */
  ePsn = 0;
  /** The Message Sequence Number the AETHs carry (§9.7.5.1.4). */
  msn = 0;
  /** A NAK was sent for the current gap (no other until it closes). */
  #nakSent = false;
  #rxMsg = RxMsg.NONE;
  #rxOffset = 0;
  /** The untagged segment handed to the core's responder, reused ({@link #sendSegment}). */
  readonly #rxSeg: UntaggedSegment = newUntaggedSegment();
  /** The RETH of the RDMA Write in progress. */
  #wVa = 0n;
  #wRkey = 0;
  #wLen = 0;
  #ucDropping = false;
  /** The PSN the coalesced ACK will carry; −1: none due. */
  ackPsn = -1;
  ackScheduled = false;
  /** Read Responses and atomic ACKs queued in the core, by the PSN they answer. */
  readonly respFifo: { first: number; va: bigint }[] = [];
  readonly #ring: ReadResource[] = [];
  /** PSN of the request being processed (for the NAK of a fault the core reports). */
  curPsn = 0;
  /** The last packet received was a response (a fault then sends no NAK). */
  curIsResponse = false;

  // ---- the request being processed (set by rxRc, read by the steps)
  #p: IbPacket | null = null;
  #info: IbOpInfo | null = null;
  #fault: Fault = Fault.OK;
  /** Why the request is invalid (made only on that path). */
  #why = '';

  constructor(readonly t: RoceQp) {}

  // ---- RC

  /** An RC request packet (the QP and the source were checked by the transport). */
  rxRc(p: IbPacket): void {
    this.#p = p;
    this.#info = ibOpInfo(p.bth.opcode)!;
    let s = RespStep.CHECK_PSN;
    // Read once per packet: debug's `enabled` is a getter.
    const trace = log.enabled;
    while (s !== RespStep.DONE) {
      if (trace) log('QP[%d] resp PSN %d %s', this.t.qp.id, p.bth.psn, RESP_STEP_NAMES[s]);
      s = this.#step(s);
    }
    this.#p = null;
  }

  #step(s: RespStep): RespStep {
    switch (s) {
      case RespStep.CHECK_PSN:
        return this.#checkPsn();
      case RespStep.CHECK_OP_SEQ:
        return this.#checkOpSeq();
      case RespStep.CHECK_LENGTH:
        return this.#checkLength();
      case RespStep.CHECK_RESOURCE:
        return this.#checkResource();
      case RespStep.EXECUTE:
        return this.#execute();
      case RespStep.ACKNOWLEDGE:
        return this.#acknowledge();
      case RespStep.DUPLICATE:
        return this.#duplicate();
      case RespStep.SEQ_NAK:
        return this.#seqNak();
      case RespStep.RNR_NAK:
        return this.#rnrNak();
      case RespStep.INVALID_REQUEST:
        this.t.qp.terminateWith(new RoceWireError(NakCode.InvalidRequest, this.#why), null);
        return RespStep.DONE;
      case RespStep.FAULT:
        if (this.#fault !== Fault.HANDLED) this.t.qp.remoteFault(this.#fault, null);
        return RespStep.DONE;
      default:
        return RespStep.DONE;
    }
  }

  /** The expected PSN executes; ahead of it is a gap (§9.7.5.1.2), behind it a duplicate. */
  #checkPsn(): RespStep {
    const psn = this.#p!.bth.psn;
    const d = psnDiff(psn, this.ePsn);
    if (d > 0) {
      if (this.#nakSent) return RespStep.DONE;
      // Counted once per gap, with the NAK it sends, as rxe's `check_psn` counts it: the packets
      // that follow a gap until the retransmission are dropped silently and not counted again.
      this.t.counters.inc(C.OUT_OF_SEQ_REQ);
      return RespStep.SEQ_NAK;
    }
    if (d < 0) return RespStep.DUPLICATE;
    this.#nakSent = false;
    this.curPsn = psn;
    this.curIsResponse = false;
    return RespStep.CHECK_OP_SEQ;
  }

  /** A gap: one PSN-sequence NAK with the expected PSN, then silence (§9.7.5.1.2, rxe). */
  #seqNak(): RespStep {
    this.#nakSent = true;
    this.t.counters.inc(C.SEQ_NAKS_SENT);
    this.sendAck(this.ePsn, nakSyndrome(NakCode.PsnSequenceError));
    return RespStep.DONE;
  }

  /**
   * Opcode sequence (§9.7.5.1.3): a FIRST/ONLY starts a message only between messages, a
   * MIDDLE/LAST continues the message of its kind.
   */
  #checkOpSeq(): RespStep {
    const info = this.#info!;
    const kind = info.operation === 'send' ? RxMsg.SEND : info.operation === 'write' ? RxMsg.WRITE : RxMsg.NONE;
    if (info.first ? this.#rxMsg !== RxMsg.NONE : this.#rxMsg !== kind) {
      this.#why = `${info.name} out of sequence`;
      return RespStep.INVALID_REQUEST;
    }
    return RespStep.CHECK_LENGTH;
  }

  /** FIRST and MIDDLE packets carry exactly one MTU, LAST and ONLY at most one (§9.7.7). */
  #checkLength(): RespStep {
    const info = this.#info!;
    const len = this.#p!.payload.length;
    const mtu = this.t.mtu;
    if (info.payload && (info.last ? len > mtu : len !== mtu)) {
      this.#why = `${info.name} with ${len} octets (MTU ${mtu})`;
      return RespStep.INVALID_REQUEST;
    }
    return RespStep.CHECK_RESOURCE;
  }

  /**
   * An RDMA Write with Immediate takes a receive at its end: none posted is an RNR NAK before
   * anything of this packet is placed, so the resent packet finds the Write as it was.
   */
  #checkResource(): RespStep {
    const info = this.#info!;
    if (info.operation === 'write' && info.immediate && !this.t.qp.recvReady()) return RespStep.RNR_NAK;
    return RespStep.EXECUTE;
  }

  /** The Send segment at the current offset of the message, as the core's responder takes it. */
  #sendSegment(len: number, last: boolean, se: boolean, invalidate: boolean, invStag: number, imm: number | undefined): UntaggedSegment {
    const s = this.#rxSeg;
    s.offset = this.#rxOffset;
    s.len = len;
    s.last = last;
    s.se = se;
    s.invalidate = invalidate;
    s.invStag = invStag;
    s.imm = imm;
    return s;
  }

  /** Receiver not ready: RNR NAK with this PSN; ePSN unchanged (§9.7.5.2.8). */
  #rnrNak(): RespStep {
    // The packets behind it are dropped silently, as after a sequence NAK: the requester
    // resends from this PSN when its RNR timer expires.
    this.t.counters.inc(C.SND_RNR);
    this.#nakSent = true;
    this.sendAck(this.#p!.bth.psn, rnrSyndrome(this.t.qp.ib.minRnrTimer));
    return RespStep.DONE;
  }

  #execute(): RespStep {
    switch (this.#info!.operation) {
      case 'send':
        return this.#executeSend();
      case 'write':
        return this.#executeWrite();
      case 'read-request':
        return this.#executeRead();
      case 'atomic':
        return this.#executeAtomic();
      default:
        this.#why = `${this.#info!.name} not supported`;
        return RespStep.INVALID_REQUEST;
    }
  }

  #executeSend(): RespStep {
    const p = this.#p!;
    const info = this.#info!;
    const len = p.payload.length;
    const payload: RxPayload = { segments: [p.payload] };
    const f = this.t.qp.responder.rxSend(
      this.#sendSegment(len, info.last, p.bth.se, info.invalidate, p.ieth ?? 0, info.immediate ? p.immDt : undefined),
      payload,
      0,
    );
    if (f === Fault.NO_RECV_BUFFER) return RespStep.RNR_NAK;
    if (f !== Fault.OK) {
      this.#fault = f;
      return RespStep.FAULT;
    }
    if (info.last) this.t.counters.inc(C.RDMA_RECV);
    this.#rxOffset = info.last ? 0 : this.#rxOffset + len;
    this.#rxMsg = info.last ? RxMsg.NONE : RxMsg.SEND;
    return RespStep.ACKNOWLEDGE;
  }

  #executeWrite(): RespStep {
    const p = this.#p!;
    const info = this.#info!;
    const qp = this.t.qp;
    const len = p.payload.length;
    if (info.first) {
      const reth = p.reth!;
      this.#wVa = reth.va;
      this.#wRkey = reth.rkey;
      this.#wLen = reth.dmaLen;
      this.#rxOffset = 0;
    }
    // The packets of a Write add up to its DMA length, exactly (§9.7.5.1.3).
    const end = this.#rxOffset + len;
    if (end > this.#wLen || (info.last && end !== this.#wLen)) {
      this.#why = `RDMA Write of ${end} octets, DMA length ${this.#wLen}`;
      return RespStep.INVALID_REQUEST;
    }
    let f = qp.responder.rxWrite(this.#wRkey, this.#wVa + BigInt(this.#rxOffset), len, info.last, { segments: [p.payload] }, 0);
    if (f === Fault.OK) {
      this.#rxOffset = info.last ? 0 : end;
      this.#rxMsg = info.last ? RxMsg.NONE : RxMsg.WRITE;
      // With Immediate: the receive completes with the immediate after the data (§9.4.3).
      if (info.immediate) f = qp.responder.rxWriteImm(p.immDt!, p.bth.se);
      if (info.immediate && f === Fault.OK) this.t.counters.inc(C.RDMA_RECV);
    }
    if (f !== Fault.OK) {
      this.#fault = f;
      return RespStep.FAULT;
    }
    return RespStep.ACKNOWLEDGE;
  }

  /** A Read Request: queued in the core for Read Responses; it takes one PSN per response. */
  #executeRead(): RespStep {
    const p = this.#p!;
    const psn = p.bth.psn;
    const reth = p.reth!;
    const f = this.t.qp.responder.rxReadRequest(0, 0n, reth.dmaLen, reth.rkey, reth.va, this.t);
    if (f !== Fault.OK) {
      this.#fault = f;
      return RespStep.FAULT;
    }
    const n = Math.max(1, Math.ceil(reth.dmaLen / this.t.mtu));
    this.respFifo.push({ first: psn, va: reth.va });
    this.#remember({ first: psn, n, va: reth.va, rkey: reth.rkey, len: reth.dmaLen, orig: null });
    this.ePsn = psnAdd(psn, n);
    this.msn = (this.msn + 1) & MSN_MASK;
    return RespStep.DONE;
  }

  /**
   * An atomic, executed at once by the core's atomic executor (8-octet aligned, Remote Atomic
   * right, atomic with respect to every other atomic of the process: IBTA Vol. 1 §9.4.5).
   */
  #executeAtomic(): RespStep {
    const p = this.#p!;
    const qp = this.t.qp;
    const psn = p.bth.psn;
    const ae = p.atomicEth!;
    const cs = p.bth.opcode === IbOpcode.RC_COMPARE_SWAP;
    const args = cs ? atomicArgs(AtomicKind.COMPARE_SWAP, 8, ae.compare, ae.swapAdd) : atomicArgs(AtomicKind.FETCH_ADD, 8, ae.swapAdd, 0n);
    const f = qp.responder.rxAtomicRequest(psn, args, ae.rkey, ae.va, this.t);
    if (f !== Fault.OK) {
      this.#fault = f;
      return RespStep.FAULT;
    }
    const orig = qp.irq[qp.irq.length - 1]?.atomic?.orig[0] ?? 0n;
    this.respFifo.push({ first: psn, va: 0n });
    this.#remember({ first: psn, n: 1, va: ae.va, rkey: ae.rkey, len: 8, orig });
    this.ePsn = psnAdd(psn, 1);
    this.msn = (this.msn + 1) & MSN_MASK;
    return RespStep.DONE;
  }

  /** A Send or Write packet executed: the next PSN, the MSN on a last packet, an ACK if asked. */
  #acknowledge(): RespStep {
    const p = this.#p!;
    const psn = p.bth.psn;
    this.ePsn = psnAdd(psn, 1);
    if (this.#info!.last) this.msn = (this.msn + 1) & MSN_MASK;
    if (p.bth.ackReq) this.#scheduleAck(psn);
    return RespStep.DONE;
  }

  /** Keeps a Read or atomic for duplicate replay; the ring holds `max_dest_rd_atomic` (rxe). */
  #remember(r: ReadResource): void {
    this.#ring.push(r);
    while (this.#ring.length > Math.max(1, this.t.qp.ird)) this.#ring.shift();
  }

  /** A request behind ePSN (§9.7.5.1.2). */
  #duplicate(): RespStep {
    const p = this.#p!;
    const t = this.t;
    t.counters.inc(C.DUP_REQ);
    const info = this.#info!;
    if (info.operation === 'atomic') {
      // A retried atomic is answered with the value it returned, never executed twice (§9.4.5).
      const res = this.#ring.find((x) => x.orig !== null && x.first === p.bth.psn);
      if (res && p.atomicEth!.va === res.va && p.atomicEth!.rkey === res.rkey) this.#sendAtomicAck(res.first, res.orig!);
      return RespStep.DONE;
    }
    if (info.operation !== 'read-request') {
      // Executed already: acknowledge what has been executed (rxe: ePSN − 1).
      this.#scheduleAck(psnAdd(this.ePsn, -1));
      return RespStep.DONE;
    }
    // A Read retried: replay it if it lies inside a Read we answered (its range a subset).
    const reth = p.reth!;
    const psn = p.bth.psn;
    const res = this.#ring.find((x) => x.orig === null && psnInRange(psn, x.first, x.n));
    if (!res || reth.rkey !== res.rkey || reth.va < res.va || reth.va + BigInt(reth.dmaLen) > res.va + BigInt(res.len))
      return RespStep.DONE;
    const qp = t.qp;
    // The Read being answered now is this one (or an earlier replay of it): the requester has
    // given up on that stream (it accepts responses only from the start of its latest request),
    // so restart the stream where it asks, as rxe's duplicate_request makes the replayed
    // resource the current one (IBTA Vol. 1 §9.7.5.1.2). Otherwise a Read lost in a long
    // response could only be retried after the whole stale stream had gone out, and a lossy
    // path would exhaust retry_cnt on a large Read.
    const cur = this.respFifo[0];
    if (
      cur &&
      cur.va !== 0n &&
      psnInRange(cur.first, res.first, res.n) &&
      qp.responder.restartHeadRead(Number(reth.va - cur.va), reth.dmaLen)
    ) {
      cur.first = psn;
      cur.va = reth.va;
      t.kick();
      return RespStep.DONE;
    }
    if (qp.irq.length >= qp.ird) return RespStep.DONE; // still answering: the requester will retry again
    this.curPsn = psn;
    this.curIsResponse = false;
    const f = qp.responder.rxReadRequest(0, 0n, reth.dmaLen, reth.rkey, reth.va, t);
    if (f === Fault.OK) this.respFifo.push({ first: psn, va: reth.va });
    else if (f !== Fault.HANDLED) qp.remoteFault(f, null);
    return RespStep.DONE;
  }

  // ---- ACKs and responses

  #scheduleAck(psn: number): void {
    if (this.ackPsn < 0 || psnDiff(psn, this.ackPsn) > 0) this.ackPsn = psn;
    if (this.ackScheduled) return;
    this.t.counters.inc(C.ACK_DEFERRED);
    this.ackScheduled = true;
    this.t.nets[0]!.atTurnEnd(this.#ackAtTurnEnd);
  }

  /**
   * The coalesced ACK, at the end of the turn that executed the requests: it leaves in the
   * same flush as what the consumer posted on seeing their completions (`RoceNet.atTurnEnd`).
   */
  readonly #ackAtTurnEnd = (): void => {
    this.ackScheduled = false;
    // Never let an ACK overtake Read Responses still to go: the transmit loop sends it after them.
    if (this.respFifo.length === 0) this.flushAck();
    else this.t.kick();
  };

  /** Sends the coalesced ACK now, if one is due. */
  flushAck(): void {
    if (this.ackPsn < 0 || this.t.gone) return;
    const psn = this.ackPsn;
    this.ackPsn = -1;
    this.sendAck(psn, ackSyndrome());
  }

  /** An ACKNOWLEDGE packet with `syndrome` and `psn` (a sequence NAK carries the ePSN). */
  sendAck(psn: number, syndrome: number): void {
    const bth = newBth(IbOpcode.RC_ACKNOWLEDGE, this.t.qp.ib.destQpn, psn);
    const pkt = encodeIbPacket(Object.assign(newIbPacket(bth), { aeth: { syndrome, msn: this.msn } }));
    if (this.t.remote) this.t.send(pkt, this.t.remote);
  }

  /** The ATOMIC ACKNOWLEDGE of an executed atomic: the original value, with the request's PSN. */
  emitAtomicAck(seg: TxSeg): void {
    const head = this.respFifo.shift();
    if (!head) return;
    this.#sendAtomicAck(head.first, seg.orig?.[0] ?? 0n);
  }

  #sendAtomicAck(psn: number, orig: bigint): void {
    const bth = newBth(IbOpcode.RC_ATOMIC_ACKNOWLEDGE, this.t.qp.ib.destQpn, psn);
    const pkt = encodeIbPacket(
      Object.assign(newIbPacket(bth), { aeth: { syndrome: ackSyndrome(), msn: this.msn }, atomicAckEth: { origData: orig } }),
    );
    this.t.send(pkt, this.t.remote!);
  }

  /** A Read Response packet of the Read at the head of the response FIFO. */
  emitReadResponse(seg: TxSeg): void {
    const head = this.respFifo[0];
    if (!head) return; // the QP is going to Error (a source gone): nothing to answer
    const psn = psnAdd(head.first, Math.floor(seg.offset / this.t.mtu));
    const first = seg.offset === 0;
    const opcode = first
      ? seg.last
        ? IbOpcode.RC_RDMA_READ_RESPONSE_ONLY
        : IbOpcode.RC_RDMA_READ_RESPONSE_FIRST
      : seg.last
        ? IbOpcode.RC_RDMA_READ_RESPONSE_LAST
        : IbOpcode.RC_RDMA_READ_RESPONSE_MIDDLE;
    const bth = newBth(opcode, this.t.qp.ib.destQpn, psn);
    bth.padCnt = ibPadCount(seg.len);
    const p = newIbPacket(bth);
    if (ibOpInfo(opcode)!.aethOffset >= 0) p.aeth = { syndrome: ackSyndrome(), msn: this.msn };
    this.t.send(this.t.nets[0]!.gathers ? encodeIbPacketGather(p, seg.parts) : encodeIbPacket(p, undefined, seg.parts), this.t.remote!);
    if (seg.last) this.respFifo.shift();
  }

  // ---- UC

  /** A UC request packet. */
  rxUc(p: IbPacket): void {
    const info = ibOpInfo(p.bth.opcode)!;
    const psn = p.bth.psn;
    const qp = this.t.qp;
    if (psn !== this.ePsn) {
      // A packet was lost: the message in progress is abandoned (its receive WQE kept for the
      // next one) and packets are dropped until the next FIRST/ONLY (§9.8.3.2, rxe `drop_msg`).
      this.t.counters.inc(C.OUT_OF_SEQ_REQ);
      if (this.#rxMsg !== RxMsg.NONE) this.#abandon();
      if (!info.first) {
        this.#ucDropping = true;
        this.ePsn = psnAdd(psn, 1);
        return;
      }
    }
    this.ePsn = psnAdd(psn, 1);
    if (info.first) {
      if (this.#rxMsg !== RxMsg.NONE) this.#abandon();
      this.#ucDropping = false;
    }
    if (this.#ucDropping) return;
    const kind = info.operation === 'send' ? RxMsg.SEND : RxMsg.WRITE;
    const len = p.payload.length;
    const mtu = this.t.mtu;
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
      f = qp.responder.rxSend(this.#sendSegment(len, info.last, p.bth.se, false, 0, info.immediate ? p.immDt : undefined), payload, 0);
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
    if (info.last && (kind === RxMsg.SEND || info.immediate)) this.t.counters.inc(C.RDMA_RECV);
    this.#rxOffset = info.last ? 0 : this.#rxOffset + len;
    this.#rxMsg = info.last ? RxMsg.NONE : kind;
  }

  #abandon(): void {
    this.t.qp.responder.abortMessage();
    this.#rxMsg = RxMsg.NONE;
    this.#rxOffset = 0;
  }

  #dropUc(): void {
    if (this.#rxMsg !== RxMsg.NONE) this.#abandon();
    this.#ucDropping = true;
  }

  // ---- UD

  /** A UD datagram. */
  rxUd(r: RoceRx): void {
    const p = r.pkt;
    // A message no larger than the MTU; the core checks the Q_Key (§10.2.5; rxe `check_keys`),
    // takes a receive WQE and completes it with the source QP and the GRH flag. Any problem
    // drops the datagram: UD has no NAK (a missing receive, a short buffer: class D).
    if (p.payload.length > this.t.mtu) return;
    const d = p.deth!;
    const dg = {
      grh: grhOf(r),
      payload: { segments: [p.payload] },
      skip: 0,
      len: p.payload.length,
      se: p.bth.se,
      srcQpn: d.srcQp,
      qkey: d.qkey >>> 0,
      imm: p.immDt,
    };
    if (this.t.qp.responder.rxDatagram(dg) === Fault.OK) {
      this.t.counters.inc(C.RDMA_RECV);
    }
  }
}

/**
 * The GRH of a received UD datagram (`udGrh`): the IP header is rebuilt from the addresses, the
 * length and the IPv4 ID recovered from the ICRC. TOS / traffic class and the flow label (masked
 * in the ICRC, not visible to a UDP socket) are 0, as Linux rxe sends them by default; the TTL /
 * hop limit 64.
 */
function grhOf(r: RoceRx): Uint8Array {
  const v6 = isIpv6Address(r.dstAddress);
  const src = v6 ? ipv6Bytes(r.srcAddress) : ipv4Bytes(r.srcAddress);
  const dst = v6 ? ipv6Bytes(r.dstAddress) : ipv4Bytes(r.dstAddress);
  return udGrh({ src, dst, trafficClass: 0, flowLabel: 0, hopLimit: 64, ipId: r.ipId, udpLength: 8 + r.raw.length });
}

/**
 * The RoCEv2 requester: what an InfiniBand QP puts on the wire for its Send Queue (IBTA Vol. 1
 * §9.7.6), as Linux rxe's `rxe_req.c`. The core's requester (`src/rnic/requester.ts`) decides
 * *which* segment goes next; this part turns each into packets:
 *
 * - each packet takes the next PSN; a Read Request reserves `max(1, ceil(len / MTU))` PSNs, one
 *   per response packet; messages are cut at exactly the path MTU;
 * - AckReq is set on the last packet of every message and on every 64th packet (every half
 *   window when that is less; rxe ACKs only packets that ask);
 * - at most a window of PSNs is unacknowledged ({@link MAX_WINDOW}, or half what the receive
 *   buffer holds); the encoded packets of unacknowledged PSNs are kept, so go-back-N
 *   ({@link RoceRequester.goBackN}) resends them as they were, and a Read is retried from its
 *   first missing response as a *partial* Read Request (VA advanced, length reduced, PSN of the
 *   missing response: rxe's read rewind);
 * - UC and UD complete a WQE when its last packet has left; UD packets carry a DETH.
 *
 * What comes back (ACKs, NAKs, responses) is the completer's (`completer.ts`), which also owns
 * the retransmit timer and the retry counts.
 */

import { AtomicKind } from '../rnic/atomics.js';
import { TxOp, type TxSeg } from '../rnic/transport.js';
import type { OrqEntry, SqWqe } from '../rnic/wqe.js';
import { RiWcStatus } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import { gidToAddress } from '../wire/ib/gid-address.js';
import {
  encodeIbPacket,
  encodeIbPacketGather,
  IbOpcode,
  ibOpInfo,
  ibPadCount,
  newBth,
  newIbPacket,
  psnAdd,
  psnDiff,
  QKEY_CONTROLLED,
} from '../wire/ib/index.js';
import { C } from './counters.js';
import { datagramsPerRecvBuffer } from './net-host.js';
import type { RocePacket } from './net-tx.js';
import type { RoceQp } from './transport.js';

const log = logger('roce');

/**
 * Unacknowledged PSNs a requester may have outstanding at most (rxe: `RXE_MAX_UNACKED_PSNS`);
 * fewer when the receive buffer holds fewer (see {@link RoceRequester.window}).
 */
export const MAX_WINDOW = 128;
/** ... and at least (a receive buffer too small for more still gets this many). */
const MIN_WINDOW = 16;
/** AckReq at least every this many packets within a message (rxe: `noack_pkts > 64`). */
export const ACK_EVERY = 64;
/** The largest BTH + extension headers + pad + ICRC around a payload (RETH + ImmDt: 12+16+4+3+4). */
export const MAX_HEADERS = 40;

/** One unacknowledged request: a packet (kept encoded) or a Read Request and its responses. */
export interface Entry {
  first: number;
  /** PSNs it takes (1 for a packet; the response count for a Read). */
  n: number;
  wqe: SqWqe | null;
  /** The packet as sent (ICRC recomputed on every send); null for a Read. */
  buf: RocePacket | null;
  /** The last packet of its WQE's message: the ACK covering it completes the WQE. */
  lastOfWqe: boolean;
  read: ReadInfo | null;
  /** An atomic: the core's request identifier (completed by its ATOMIC ACKNOWLEDGE); else null. */
  atomicId: number | null;
}

/** The Read Request of an {@link Entry} and how far its responses have come. */
export interface ReadInfo {
  va: bigint;
  rkey: number;
  len: number;
  orq: OrqEntry;
  /** Response packets received, in order. */
  got: number;
  /** PSN of the request (original or partial retry) the responses answer now. */
  reqFirst: number;
}

/** The requester part of a {@link RoceQp} (rxe `qp->req`). */
export class RoceRequester {
  /** The PSN the next request packet takes (rxe `req.psn`). */
  nextPsn = 0;
  /** Unacknowledged requests, oldest first (RC). */
  readonly inflight: Entry[] = [];
  /** Packets sent since the last one with AckReq. */
  sinceAck = 0;
  #windowMtu = 0;
  #windowCache = MIN_WINDOW;
  #ackEvery = ACK_EVERY;

  constructor(readonly t: RoceQp) {}

  /**
   * The PSN window of this QP (RC): never more full-MTU packets than half the peer's receive
   * buffer holds — the peer is assumed to have this host's (loopback, or a host set up alike)
   * — so that a window sent back to back is queued, not dropped. A fixed 128 overran the
   * default 208 KiB buffer at MTU 4096 (it holds 49 such datagrams), each overrun costing a
   * sequence NAK or a Local ACK Timeout and a go-back-N of the window. Follows the path MTU.
   */
  get window(): number {
    const mtu = this.t.mtu;
    if (mtu !== this.#windowMtu) {
      this.#windowMtu = mtu;
      this.#windowCache = Math.max(MIN_WINDOW, Math.min(MAX_WINDOW, datagramsPerRecvBuffer(mtu + MAX_HEADERS) >>> 1));
      // AckReq often enough that an ACK comes back before the window closes: every half window.
      this.#ackEvery = Math.min(ACK_EVERY, this.#windowCache >>> 1);
    }
    return this.#windowCache;
  }

  /** RC: no request may go now (an RNR wait, or a full window of unacknowledged PSNs). */
  get windowClosed(): boolean {
    return this.t.comp.rnrTimer !== null || psnDiff(this.nextPsn, this.t.comp.una) >= this.window;
  }

  /** Puts a request segment of the core on the wire (Send, RDMA Write, Read Request, atomic). */
  emit(seg: TxSeg): void {
    switch (seg.op) {
      case TxOp.READ_REQUEST:
        this.#emitReadRequest(seg);
        return;
      case TxOp.ATOMIC_REQUEST:
        this.#emitAtomic(seg);
        return;
      default:
        this.#emitMessage(seg);
    }
  }

  #opcodeOf(seg: TxSeg): number {
    const service = this.t.service;
    const first = seg.offset === 0;
    const last = seg.last;
    const svc = service === 'UC' ? 0x20 : 0;
    const imm = seg.hasImm && last;
    if (service === 'UD') return imm ? IbOpcode.UD_SEND_ONLY_WITH_IMMEDIATE : IbOpcode.UD_SEND_ONLY;
    if (seg.op === TxOp.RDMA_WRITE) {
      if (last) {
        if (first) return svc | (imm ? IbOpcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE : IbOpcode.RC_RDMA_WRITE_ONLY);
        return svc | (imm ? IbOpcode.RC_RDMA_WRITE_LAST_WITH_IMMEDIATE : IbOpcode.RC_RDMA_WRITE_LAST);
      }
      return svc | (first ? IbOpcode.RC_RDMA_WRITE_FIRST : IbOpcode.RC_RDMA_WRITE_MIDDLE);
    }
    if (seg.op === TxOp.SEND_INVALIDATE && last)
      return first ? IbOpcode.RC_SEND_ONLY_WITH_INVALIDATE : IbOpcode.RC_SEND_LAST_WITH_INVALIDATE;
    if (last) {
      if (first) return svc | (imm ? IbOpcode.RC_SEND_ONLY_WITH_IMMEDIATE : IbOpcode.RC_SEND_ONLY);
      return svc | (imm ? IbOpcode.RC_SEND_LAST_WITH_IMMEDIATE : IbOpcode.RC_SEND_LAST);
    }
    return svc | (first ? IbOpcode.RC_SEND_FIRST : IbOpcode.RC_SEND_MIDDLE);
  }

  /** A Send or RDMA Write packet (RC, UC, UD). */
  #emitMessage(seg: TxSeg): void {
    const t = this.t;
    const qp = t.qp;
    const service = t.service;
    const opcode = this.#opcodeOf(seg);
    const psn = this.nextPsn;
    this.nextPsn = psnAdd(psn, 1);
    const rc = service === 'RC';
    const ackReq = rc && (seg.last || ++this.sinceAck >= this.#ackEvery);
    if (ackReq) this.sinceAck = 0;
    // newBth returns a fresh object: set in place (a spread would copy it once more per packet).
    const bth = newBth(opcode, service === 'UD' ? (seg.ud?.remoteQpn ?? 0) : qp.ib.destQpn, psn);
    bth.padCnt = ibPadCount(seg.len);
    bth.ackReq = ackReq;
    bth.se = seg.se && seg.last;
    const p = newIbPacket(bth);
    if (seg.op === TxOp.RDMA_WRITE && seg.offset === 0) p.reth = { va: seg.to, rkey: seg.stag, dmaLen: seg.wqe?.totalLen ?? seg.len };
    if (seg.op === TxOp.SEND_INVALIDATE && seg.last) p.ieth = seg.invStag;
    if (ibOpInfo(opcode)!.immediate) p.immDt = seg.imm >>> 0;
    let dst = t.remote;
    let net = t.nets[0]!;
    if (service === 'UD') {
      const ud = seg.ud;
      dst = ud ? gidToAddress(ud.av.dgid) : null;
      net = t.netFor(ud ? gidToAddress(ud.av.sgid) : null, dst);
      const qkey = ud && ud.remoteQkey & QKEY_CONTROLLED ? qp.ib.qkey : (ud?.remoteQkey ?? 0);
      p.deth = { qkey: qkey >>> 0, resv8: 0, srcQp: qp.id };
    }
    // RC sends the payload from registered memory (kept until the ACK, which completes the
    // WQE) where the layer gathers; UC and UD complete as the packet is handed over, so theirs is copied.
    const buf = rc && net.gathers ? encodeIbPacketGather(p, seg.parts) : encodeIbPacket(p, undefined, seg.parts);
    if (dst) t.send(buf, dst, net);
    else log('QP[%d] UD destination GID names no address: datagram dropped', qp.id);
    if (rc) {
      this.inflight.push({ first: psn, n: 1, wqe: seg.wqe, buf, lastOfWqe: seg.last, read: null, atomicId: null });
      t.comp.armTimer();
    } else if (seg.last && seg.wqe) {
      // UC and UD complete when the last packet has left (no acknowledgement exists).
      t.counters.inc(C.RDMA_SEND);
      qp.requester.delivered(seg.wqe);
    }
  }

  #emitReadRequest(seg: TxSeg): void {
    const t = this.t;
    const qp = t.qp;
    if (t.service !== 'RC') {
      // The WR table lets no Read reach a UC/UD QP; refuse rather than send an invalid opcode.
      if (seg.wqe) qp.requester.failRemote(seg.wqe, RiWcStatus.LOCAL_QP_OP_ERROR);
      return;
    }
    const n = Math.max(1, Math.ceil(seg.size / t.mtu));
    const psn = this.nextPsn;
    this.nextPsn = psnAdd(psn, n);
    const orq = qp.orq[qp.orq.length - 1]!;
    const read: ReadInfo = { va: seg.srcTo, rkey: seg.srcStag, len: seg.size, orq, got: 0, reqFirst: psn };
    this.inflight.push({ first: psn, n, wqe: seg.wqe, buf: null, lastOfWqe: true, read, atomicId: null });
    this.sendReadRequest(read, psn, 0);
    t.comp.armTimer();
  }

  /** Sends the Read Request of `r` at `psn` for what is left after `received` octets (> 0: a partial retry). */
  sendReadRequest(r: ReadInfo, psn: number, received: number): void {
    const bth = newBth(IbOpcode.RC_RDMA_READ_REQUEST, this.t.qp.ib.destQpn, psn);
    bth.ackReq = true;
    const pkt = encodeIbPacket(
      Object.assign(newIbPacket(bth), { reth: { va: r.va + BigInt(received), rkey: r.rkey, dmaLen: r.len - received } }),
    );
    r.reqFirst = psn;
    this.sinceAck = 0;
    this.t.send(pkt, this.t.remote!);
  }

  /** A Compare & Swap or Fetch & Add request (IBTA Vol. 1 §9.4.5): one PSN, kept for go-back-N. */
  #emitAtomic(seg: TxSeg): void {
    const t = this.t;
    const qp = t.qp;
    const a = seg.atomic;
    if (t.service !== 'RC' || !a || a.size !== 8 || a.kind === AtomicKind.SWAP) {
      // IB has 8-octet Compare & Swap and Fetch & Add on RC only (the caps say so; the core
      // refuses the rest at post time): a WQE getting here anyway fails locally.
      if (seg.wqe) qp.requester.failRemote(seg.wqe, RiWcStatus.LOCAL_QP_OP_ERROR);
      return;
    }
    const cs = a.kind === AtomicKind.COMPARE_SWAP;
    const psn = this.nextPsn;
    this.nextPsn = psnAdd(psn, 1);
    this.sinceAck = 0;
    const bth = newBth(cs ? IbOpcode.RC_COMPARE_SWAP : IbOpcode.RC_FETCH_ADD, qp.ib.destQpn, psn);
    bth.ackReq = true;
    const atomicEth = { va: seg.to, rkey: seg.stag, swapAdd: a.addSwap[0]!, compare: cs ? a.compare[0]! : 0n };
    const buf = encodeIbPacket(Object.assign(newIbPacket(bth), { atomicEth }));
    this.inflight.push({ first: psn, n: 1, wqe: seg.wqe, buf, lastOfWqe: true, read: null, atomicId: seg.requestId });
    t.send(buf, t.remote!);
    t.comp.armTimer();
  }

  /** Resends everything from `psn` on, as it was; Reads as partial Read Requests (rxe `req_retry`). */
  goBackN(psn: number): void {
    const t = this.t;
    const resend = this.inflight.filter((e) => psnDiff(psnAdd(e.first, e.n - 1), psn) >= 0);
    t.counters.inc(C.COMP_RETRY);
    // Ask for an ACK on the last packet resent, so the window reopens without another timeout
    // (a copy: the old buffer may still be held by the fault hook with its old ICRC).
    const last = resend[resend.length - 1];
    const head = last?.buf ? (Array.isArray(last.buf) ? last.buf[0]! : (last.buf as Uint8Array)) : null;
    if (last && head && !(head[8]! & 0x80)) {
      const h = head.slice();
      h[8]! |= 0x80;
      last.buf = Array.isArray(last.buf) ? [h, ...last.buf.slice(1)] : h;
    }
    for (const e of resend) {
      if (e.read) {
        const r = e.read;
        this.sendReadRequest(r, psnAdd(e.first, r.got), r.orq.received);
      } else {
        t.send(e.buf!, t.remote!);
      }
      t.counters.inc(C.RESENT_PKTS);
    }
    this.sinceAck = 0;
    t.comp.restartTimer();
  }
}

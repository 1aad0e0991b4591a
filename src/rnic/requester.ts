/**
 * The requester: the Send Queue side of a QP (RDMA Protocol Verbs §8.2.2; RNICPI 1.0 §5.5).
 *
 * It decides *what* goes out next and leaves *how* to the transport: the transport calls
 * {@link Requester.next} whenever it can take a segment, frames the {@link TxSeg} it gets,
 * and reports delivery back ({@link Requester.delivered}). The rules kept here, once for
 * every transport:
 * - fences: a Read Fence waits for earlier Reads, a Local Fence for every earlier WR
 *   (Verbs §8.2.2.2);
 * - ORD: at most `qp.ord` Read Requests outstanding (Verbs §6.5); ORD 0 fails a Read;
 * - the local access check of every source and sink SGE (Verbs §7.6.3), a failure completing
 *   the WR in error and terminating the QP (Verbs §8.3 Figure 23);
 * - local operations (Bind, Fast-Register, Local Invalidate) at the SQ head (Verbs §8.2.2.1);
 * - fairness: at most {@link IRQ_BURST} Read Response segments back to back while SQ work
 *   waits, as Linux siw's `SIW_IRQ_MAXBURST_SQ_ACTIVE`.
 *
 * Segmentation is restartable: a WQE remembers how far it got (`bytesSent`, `readsIssued`),
 * so a transport that must resend (go-back-N) can re-run a message from an offset.
 */
import { RiQpState, RiWcStatus, RiWrFlags, RiWrType } from '../rnicpi/types.js';
import { writeResult } from './atomics.js';
import { Fault } from './faults.js';
import { Access, AccessError, type AccessBy, type AccessOut, accessBy, checkAccess, LOCAL_ACCESS_STATUS, memSlicesAt } from './memory.js';
import { execBind, execFastReg, INVALIDATE_WC_STATUS, invalidateStag } from './memops.js';
import { connectionCarries } from './post.js';
import type { Qp } from './qp.js';
import { newTxSeg, type QpTransport, resetTxSeg, TxOp, type TxSeg } from './transport.js';
import { type OrqEntry, type Sge, type SqWqe, WqeState } from './wqe.js';
import { isRequestWr, isWireWr, SglRole, WR_TABLE } from './wr-table.js';

/** Read Response segments sent back to back while SQ work waits (siw: 4). */
export const IRQ_BURST = 4;

/**
 * The access each local SGL needs (Verbs §7.6.3): a source is read; an atomic's result buffer
 * is written locally; a Read's sink is written by the Read Response, which needs Remote Write
 * as Verbs §7.6.3 Figure 21 says (the responder checks the same when the response arrives).
 */
export const SGL_ACCESS: Readonly<Record<SglRole, Access | null>> = {
  [SglRole.NONE]: null,
  [SglRole.SOURCE]: Access.LOCAL_READ,
  [SglRole.SINK]: Access.REMOTE_WRITE,
  [SglRole.RESULT]: Access.LOCAL_WRITE,
};

/** The requester's completion status for each atomic fault the peer reports. */
const ATOMIC_REMOTE_STATUS: Readonly<Record<number, RiWcStatus>> = {
  [Fault.ATOMIC_MISALIGNED]: RiWcStatus.REMOTE_INVALID_REQ_ERROR,
  [Fault.ATOMIC_IRD_EXCEEDED]: RiWcStatus.REMOTE_INVALID_REQ_ERROR,
  [Fault.ATOMIC_UNSUPPORTED]: RiWcStatus.REMOTE_INVALID_REQ_ERROR,
  [Fault.ATOMIC_INVALID_STAG]: RiWcStatus.REMOTE_ACCESS_ERROR,
  [Fault.ATOMIC_BOUNDS]: RiWcStatus.REMOTE_ACCESS_ERROR,
  [Fault.ATOMIC_RIGHTS]: RiWcStatus.REMOTE_ACCESS_ERROR,
  [Fault.ATOMIC_NOT_ASSOCIATED]: RiWcStatus.REMOTE_ACCESS_ERROR,
  [Fault.ATOMIC_WRAP]: RiWcStatus.REMOTE_ACCESS_ERROR,
};

/**
 * The status of a Read Request the peer refused with a Terminate (RDMA Protocol Verbs §6.6.2.4 and
 * the completion status table's "Remote Termination Error ... related to the execution of this
 * Work Request"): the source's access-check failures are a Remote Access Error, as the IB
 * transport's NAK gives them (IBTA Vol. 1 §9.7.5.2.8), so a bad rkey reads the same on both wires.
 */
const READ_REMOTE_STATUS: Readonly<Record<number, RiWcStatus>> = {
  [Fault.READ_SRC_INVALID_STAG]: RiWcStatus.REMOTE_ACCESS_ERROR,
  [Fault.READ_SRC_BOUNDS]: RiWcStatus.REMOTE_ACCESS_ERROR,
  [Fault.READ_SRC_RIGHTS]: RiWcStatus.REMOTE_ACCESS_ERROR,
  [Fault.READ_SRC_NOT_ASSOCIATED]: RiWcStatus.REMOTE_ACCESS_ERROR,
  [Fault.READ_SRC_WRAP]: RiWcStatus.REMOTE_ACCESS_ERROR,
  [Fault.READ_NOT_ENABLED]: RiWcStatus.REMOTE_ACCESS_ERROR,
  [Fault.IRD_EXCEEDED]: RiWcStatus.REMOTE_INVALID_REQ_ERROR,
};

export class Requester {
  readonly #seg: TxSeg = newTxSeg();
  readonly #parts: Uint8Array[] = [];
  readonly #access: AccessOut = { target: null, offset: 0, obj: null };
  #byMemo: AccessBy | null = null;
  #byPostMemo: AccessBy | null = null;
  /** The QP's accesses as a requester makes them (its PD; the QP's enables apply to remote ones). */
  get #by(): AccessBy {
    return (this.#byMemo ??= accessBy(this.qp));
  }
  /** Post-time checks of its own SGEs: the QP's inbound enables do not apply. */
  get #byPost(): AccessBy {
    return (this.#byPostMemo ??= accessBy(this.qp, this.qp.pd, false));
  }
  #irqBurst = 0;

  constructor(readonly qp: Qp) {}

  /**
   * The next segment to transmit, or null when nothing may go now (empty queues, a fence,
   * ORD). Local operations at the SQ head run inside the call. The returned object is reused
   * by the next call.
   */
  next(t: QpTransport): TxSeg | null {
    const qp = this.qp;
    while (qp.canTransmit) {
      const irqReady = qp.irq.length > 0;
      const sqReady = this.#sqHeadReady();
      if (irqReady && (this.#irqBurst < IRQ_BURST || !sqReady)) {
        this.#irqBurst++;
        const s = qp.responder.nextReadResponse(resetTxSeg(this.#seg), t.maxPayload(TxOp.READ_RESPONSE));
        if (s) return s;
        continue;
      }
      if (!sqReady) return null;
      this.#irqBurst = 0;
      const w = qp.sqAt(qp.sqProc)!;
      if (w.state === WqeState.QUEUED && w.postError !== 0) {
        // A local SGE failed its check at post time: the WR completes in error, in order, and
        // the QP terminates; nothing of it goes on the wire.
        this.failWqe(w, w.postError);
        continue;
      }
      if (!isWireWr(w.type)) {
        this.#execLocal(w);
        continue;
      }
      if (w.state === WqeState.QUEUED && !connectionCarries(qp, WR_TABLE[w.type]!.needs, w.atomic)) {
        // Posted before the connection existed, which did not negotiate the operation (iWARP
        // without RFC 7306): nothing goes on the wire; the WR fails as an unsupported local
        // operation (IB "local QP operation error") and the QP terminates (Verbs §8.3).
        this.failWqe(w, RiWcStatus.LOCAL_QP_OP_ERROR);
        continue;
      }
      const s = w.atomic ? this.#atomicRequest(w) : isRequestWr(w.type) ? this.#readRequest(w) : this.#messageSegment(w, t);
      if (s) return s;
    }
    return null;
  }

  /** Executes the local-only WQEs at the head of the SQ while the transport holds the wire. */
  runLocalOps(): void {
    const qp = this.qp;
    for (;;) {
      const w = qp.sqAt(qp.sqProc);
      if (!w || w.state !== WqeState.QUEUED || isWireWr(w.type) || !this.#sqHeadReady()) return;
      this.#execLocal(w);
      if (qp.state !== RiQpState.READY_TO_SEND) return;
    }
  }

  /** Is there SQ work that may start or continue now (fences and ORD respected)? */
  #sqHeadReady(): boolean {
    const qp = this.qp;
    const w = qp.sqAt(qp.sqProc);
    if (!w) return false;
    // IB: new WQEs start only in RTS; in SQD only the one already started continues.
    if (!qp.sqMayRun(w)) return false;
    if (w.state !== WqeState.QUEUED) return true;
    // Read Fence: wait for every earlier RDMA Read to complete (Verbs §8.2.2.2).
    if (w.flags & RiWrFlags.READ_FENCE_FLAG && qp.orq.length > 0) return false;
    // Local Fence: wait for every earlier WR to complete.
    if (w.flags & RiWrFlags.LOCAL_FENCE_FLAG && qp.firstIncompleteSeq < w.seq) return false;
    if (isRequestWr(w.type) && qp.ord > 0 && qp.orq.length >= qp.ord) return false;
    return true;
  }

  /**
   * Checks a local SGL against its regions (Verbs §7.6.3): the completion status of the first
   * failing SGE, or 0. At post time (`qpEnables` false) the QP's own inbound enables are not
   * looked at: they may change before the WR runs; the check at execution includes them.
   */
  checkLocalSgl(sgl: readonly Sge[], role: SglRole, qpEnables: boolean): RiWcStatus {
    // An IB Read's sink is a local buffer named by its L_Key: Local Write, as the responder
    // checks the Read Responses (rxReadResponseIb; IBTA Vol. 1 §10.6.3.3). iWARP advertises
    // the sink as a tagged buffer, so it needs Remote Write there.
    const access = role === SglRole.SINK && this.qp.isIb ? Access.LOCAL_WRITE : SGL_ACCESS[role];
    if (access === null) return RiWcStatus.SUCCESS;
    const a = this.#access;
    for (const sge of sgl) {
      const e = checkAccess(sge, access, qpEnables ? this.#by : this.#byPost, a);
      if (e !== AccessError.OK) return LOCAL_ACCESS_STATUS[e];
    }
    return RiWcStatus.SUCCESS;
  }

  /** Resolves an SGL with the local access check; returns the pieces or the error. */
  #resolveSgl(w: SqWqe, access: Access): NonNullable<SqWqe['targets']> | AccessError {
    // Exactly sized (a pushed-to array reserves sixteen slots); zero-length SGEs are left out.
    const sgl = w.sgl;
    let n = 0;
    for (let i = 0; i < sgl.length; i++) if (sgl[i]!.len > 0) n++;
    const out: NonNullable<SqWqe['targets']> = new Array(n);
    const a = this.#access;
    let k = 0;
    for (let i = 0; i < sgl.length; i++) {
      const sge = sgl[i]!;
      const e = checkAccess(sge, access, this.#by, a);
      if (e !== AccessError.OK) return e;
      if (sge.len > 0) out[k++] = { target: a.target!, offset: a.offset, len: sge.len };
    }
    return out;
  }

  /** A WQE failed locally: its completion carries the error, then the QP terminates (Verbs §8.3 Figure 23). */
  failWqe(w: SqWqe, status: RiWcStatus): void {
    const qp = this.qp;
    qp.sqProc = w.seq + 1;
    qp.finishSq(w, status);
    // An unreliable IB QP's local send error is the Send Queue Error state (IBTA Vol. 1 §10.3.1.7).
    if (qp.isIb && qp.service !== 'RC') qp.toSqe('local send error');
    else qp.terminateWith(Fault.LOCAL_CATASTROPHIC, null);
  }

  /**
   * InfiniBand: the peer refused a WQE (a NAK: invalid request, remote access or operation
   * error) or the transport gave up on it (retry or RNR retry count exceeded). It completes with
   * `status` and the QP enters Error, flushing the rest (IBTA Vol. 1 §9.7.5.2, §10.3.1.8;
   * C9-143 …). The transport calls this; nothing goes back on the wire.
   */
  failRemote(w: SqWqe, status: RiWcStatus): void {
    const qp = this.qp;
    if (w.state === WqeState.DONE) return;
    if (qp.sqProc <= w.seq) qp.sqProc = w.seq + 1;
    qp.finishSq(w, status);
    qp.toError(`remote error ${RiWcStatus[status]}`, w);
  }

  /** The next segment of a Send or RDMA Write. */
  #messageSegment(w: SqWqe, t: QpTransport): TxSeg | null {
    const qp = this.qp;
    if (w.state === WqeState.QUEUED) {
      const r = this.#resolveSgl(w, Access.LOCAL_READ);
      if (typeof r === 'number') {
        this.failWqe(w, LOCAL_ACCESS_STATUS[r]);
        return null;
      }
      w.targets = r;
      w.state = WqeState.ACTIVE;
      w.bytesSent = 0;
    }
    const op = WR_TABLE[w.type]!.txOp!;
    const n = Math.min(t.maxPayload(op), w.totalLen - w.bytesSent);
    const s = resetTxSeg(this.#seg);
    s.op = op;
    s.wqe = w;
    s.len = n;
    s.offset = w.bytesSent;
    s.last = w.bytesSent + n === w.totalLen;
    s.se = (w.flags & RiWrFlags.SOLICITED_EVENT_FLAG) !== 0;
    s.stag = w.remoteStag;
    // Only a later segment of a tagged message moves the TO (the BigInt sum allocates).
    s.to = w.bytesSent === 0 ? w.remoteTo : w.remoteTo + BigInt(w.bytesSent);
    s.invStag = op === TxOp.SEND_INVALIDATE ? w.remoteStag : 0;
    s.ud = w.ud;
    // Send with Immediate: every segment; RDMA Write with Immediate: the last one.
    s.hasImm = op === TxOp.SEND_IMM || (w.type === RiWrType.RDMA_WRITE_IMMEDIATE && s.last);
    s.imm = w.imm;
    // The segment's views, in an array reused by the next segment (transports copy what they keep).
    const parts = this.#parts;
    let k = 0;
    let off = w.bytesSent;
    let left = n;
    for (const p of w.targets!) {
      if (left === 0) break;
      if (off >= p.len) {
        off -= p.len;
        continue;
      }
      const take = Math.min(p.len - off, left);
      k = memSlicesAt(p.target, p.offset + off, take, parts, k);
      left -= take;
      off = 0;
    }
    // Shrinking only when the count drops keeps the storage of a steady run of segments.
    if (parts.length !== k) parts.length = k;
    s.parts = parts;
    w.bytesSent += n;
    if (s.last) {
      // The SQ moves on; the WQE completes when the transport reports delivery.
      qp.sqProc = w.seq + 1;
      w.state = WqeState.WAIT_DELIVERY;
    }
    return s;
  }

  /**
   * The next RDMA Read Request of a Read WQE: one per sink SGE (a Read Request names one sink
   * STag/TO, RFC 5040 §4.4), each entered in the ORQ *before* it is sent, because on loopback
   * the Read Response can arrive before the send returns (siw does the same).
   */
  #readRequest(w: SqWqe): TxSeg | null {
    const qp = this.qp;
    if (qp.ord === 0) {
      // ORD 0: a Read completes in error (Verbs §6.5).
      this.failWqe(w, RiWcStatus.ZERO_ORD_ERROR);
      return null;
    }
    if (w.state === WqeState.QUEUED) {
      // Every sink is checked before the first Read Request goes out, so a Read longer than its
      // sink, or into a region that went away since the post, never reaches the wire.
      const st = this.checkLocalSgl(w.sgl, SglRole.SINK, true);
      if (st !== RiWcStatus.SUCCESS) {
        this.failWqe(w, st);
        return null;
      }
      w.state = WqeState.ACTIVE;
      w.readsIssued = 0;
      w.readsOutstanding = 0;
    }
    // A zero-length Read is one request of size 0.
    const sges = w.sgl.length === 0 ? ZERO_SGL : w.sgl;
    const i = w.readsIssued;
    const sge = sges[i]!;
    let srcOff = 0n;
    for (let k = 0; k < i; k++) srcOff += BigInt(sges[k]!.len);
    qp.orq.push({ wqe: w, sinkStag: sge.stag, sinkTo: sge.to, length: sge.len, received: 0, target: null });
    w.readsOutstanding++;
    w.readsIssued++;
    if (w.readsIssued === sges.length) {
      w.state = WqeState.WAIT_RESPONSE;
      // The SQ does not wait for Reads (Verbs §8.2.2 rule 14).
      qp.sqProc = w.seq + 1;
    }
    const s = resetTxSeg(this.#seg);
    s.op = TxOp.READ_REQUEST;
    s.wqe = w;
    s.sinkStag = sge.stag;
    s.sinkTo = sge.to;
    s.size = sge.len;
    s.srcStag = w.remoteStag;
    s.srcTo = w.remoteTo + srcOff;
    return s;
  }

  /**
   * The Atomic Request of an atomic WQE (IBTA Vol. 1 §9.4.5; RFC 7306 §5.1). It counts against
   * ORD like a Read (RFC 7306 §5: atomics share the Read queues), is entered in the ORQ before
   * it is sent, and its local result buffer is checked (Local Write) before anything goes out.
   */
  #atomicRequest(w: SqWqe): TxSeg | null {
    const qp = this.qp;
    if (qp.ord === 0) {
      this.failWqe(w, RiWcStatus.ZERO_ORD_ERROR);
      return null;
    }
    const r = this.#resolveSgl(w, Access.LOCAL_WRITE);
    if (typeof r === 'number') {
      this.failWqe(w, LOCAL_ACCESS_STATUS[r]);
      return null;
    }
    w.targets = r;
    w.requestId = qp.nextAtomicId;
    qp.nextAtomicId = (qp.nextAtomicId + 1) >>> 0 || 1;
    qp.orq.push({ wqe: w, sinkStag: 0, sinkTo: 0n, length: 0, received: 0, target: null, atomicId: w.requestId });
    w.state = WqeState.WAIT_RESPONSE;
    qp.sqProc = w.seq + 1;
    const s = resetTxSeg(this.#seg);
    s.op = TxOp.ATOMIC_REQUEST;
    s.wqe = w;
    s.stag = w.remoteStag;
    s.to = w.remoteTo;
    s.requestId = w.requestId;
    s.atomic = w.atomic;
    return s;
  }

  /** An atomic's response arrived (matched to the ORQ head by the responder): result, then WC. */
  atomicDone(w: SqWqe, orig: readonly bigint[], t: QpTransport): void {
    // The result buffer is checked again: it may have been invalidated while the request was out.
    const sge = w.sgl[0];
    if (sge && sge.len > 0) {
      const a = this.#access;
      const e = checkAccess(sge, Access.LOCAL_WRITE, this.#by, a);
      if (e !== AccessError.OK) {
        this.failRead(w, LOCAL_ACCESS_STATUS[e]);
        return;
      }
      writeResult(a.target!, a.offset, orig, sge.len);
    }
    if (w.state === WqeState.WAIT_RESPONSE) this.qp.finishSq(w, RiWcStatus.SUCCESS);
    // An ORD slot and maybe a Read Fence were released.
    t.kick();
  }

  /**
   * A Terminate (or NAK) answered the Read or atomic at the ORQ head: the WR completes with the
   * status of the peer's fault (IB: misaligned or beyond IRD → Invalid Request, access → Remote
   * Access), before the QP's error path flushes the rest. The ORQ is in order, so the head is
   * the first request the peer had not answered; a fault of the other kind leaves it alone.
   */
  refusedByPeer(fault: number | undefined): void {
    const e = this.qp.orq[0];
    if (!e?.wqe || fault === undefined || e.wqe.state !== WqeState.WAIT_RESPONSE) return;
    const st = e.atomicId === undefined ? READ_REMOTE_STATUS[fault] : ATOMIC_REMOTE_STATUS[fault];
    if (st === undefined) return;
    this.qp.orq.shift();
    this.qp.finishSq(e.wqe, st);
  }

  /**
   * Enters a Read the RNIC makes itself (the RFC 6581 zero-length Read RTR) in the ORQ, so its
   * zero-length Response is matched like any other.
   */
  pushInternalRead(stag: number): OrqEntry {
    const e: OrqEntry = { wqe: null, sinkStag: stag, sinkTo: 0n, length: 0, received: 0, target: null };
    this.qp.orq.push(e);
    return e;
  }

  /** Bind, Fast-Register and Local Invalidate take effect before the next WR starts (Verbs §8.2.2.1). */
  #execLocal(w: SqWqe): void {
    const qp = this.qp;
    let status: RiWcStatus;
    const l = w.local!;
    switch (w.type) {
      case RiWrType.BIND:
        status = execBind(qp, l.mw!, l.mr!, l.targetStag, l.bindVa, l.bindLength, l.bindFlags, l.bindNewStag & 0xff);
        break;
      case RiWrType.FAST_REGISTER:
        status = execFastReg(qp, l.target!, l.targetStag, l.fmr!);
        break;
      default:
        status = INVALIDATE_WC_STATUS[invalidateStag(qp, l.targetStag, false)];
    }
    if (status !== RiWcStatus.SUCCESS) {
      this.failWqe(w, status);
      return;
    }
    qp.sqProc = w.seq + 1;
    qp.finishSq(w, RiWcStatus.SUCCESS);
  }

  /**
   * A Send or Write was delivered: the LLP took its last octet (iWARP) or the peer
   * acknowledged it (IB). A WQE flushed meanwhile (the QP's error path) is left alone.
   */
  delivered(w: SqWqe): void {
    if (w.state === WqeState.WAIT_DELIVERY) this.qp.finishSq(w, RiWcStatus.SUCCESS);
  }

  /** A Read WQE's local sink failed its check when the response arrived: error WC, then terminate. */
  failRead(w: SqWqe, status: RiWcStatus): void {
    const qp = this.qp;
    qp.finishSq(w, status);
    qp.terminateWith(Fault.LOCAL_CATASTROPHIC, null);
  }

  /** One Read Request of a Read WQE was answered; the WQE completes with its last one. */
  readDone(w: SqWqe, t: QpTransport): void {
    const qp = this.qp;
    w.readsOutstanding--;
    if (w.readsOutstanding > 0 || w.state !== WqeState.WAIT_RESPONSE) {
      t.kick();
      return;
    }
    let status = RiWcStatus.SUCCESS;
    if (w.type === RiWrType.RDMA_READ_LOCAL_INVALIDATE && w.sgl.length > 0) {
      // Invalidate the local sink after the data is placed, before the WC (Verbs §8.2.2.1).
      status = INVALIDATE_WC_STATUS[invalidateStag(qp, w.sgl[0]!.stag, false)];
    }
    if (status !== RiWcStatus.SUCCESS) {
      this.failRead(w, status);
      return;
    }
    qp.finishSq(w, RiWcStatus.SUCCESS);
    // An ORD slot and maybe a Read Fence were released.
    t.kick();
  }
}

const ZERO_SGL = [{ stag: 0, to: 0n, len: 0 }] as const;

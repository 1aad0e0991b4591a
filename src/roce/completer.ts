/**
 * The RoCEv2 completer: what comes back to an RC requester (IBTA Vol. 1 §9.7.6.1), as Linux
 * rxe's `rxe_comp.c`. Each response packet walks named steps, each returning the next
 * ({@link CompStep}; {@link COMP_STEP_NAMES} names them in the debug log):
 *
 * `CHECK_PSN` (which request it answers; for a Read, the requests before it are acknowledged and
 * a gap in its responses re-requested) → `CHECK_ACK` (the AETH, and for a Read the opcode
 * sequence and length) → `READ_RESPONSE` | `ATOMIC` | `ACK` | a NAK step → `COMPLETE`.
 *
 * - ACKs are cumulative; an ACK never completes a Read or an atomic (only their responses do, in
 *   PSN order), and what it acknowledges past an unfinished one is applied once that completes.
 * - NAK codes 1–3 complete the WQE with the remote error status (`nak-map.ts`); a PSN-sequence
 *   NAK goes back N; an RNR NAK waits the peer's RNR timer and uses one of `rnr_retry`
 *   (7 = infinite, §9.7.5.2.8).
 * - A gap in a Read's responses triggers one partial-Read retry at once, and another only after
 *   progress or a timeout. A response that overtakes an earlier one that was lost (an implied
 *   NAK, §9.7.6.1.1) re-requests the earlier Read/atomic once; an ATOMIC ACKNOWLEDGE received
 *   ahead of its turn is kept until the earlier ones complete.
 * - The retransmit timer is the QP's Local ACK Timeout, 4.096 µs × 2^timeout (§9.7.6.1.3); a
 *   timeout, or a PSN-sequence NAK that makes no progress, uses one of `retry_cnt` (0–6 a count;
 *   7 never runs out, as Linux rxe reads it: docs/spec-notes.md). Exhaustion completes the WQE
 *   with `TRANSPORT_RETRY_EXCEEDED` / `RNR_RETRY_EXCEEDED` and the QP enters Error.
 */

import { Fault } from '../rnic/faults.js';
import { RiWcStatus } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import {
  AethType,
  aethType,
  aethValue,
  type IbOpInfo,
  type IbPacket,
  ibOpInfo,
  NakCode,
  psnAdd,
  psnDiff,
  psnInRange,
  RNR_TIMER_USEC,
} from '../wire/ib/index.js';
import { C } from './counters.js';
import { wcStatusOfNak } from './nak-map.js';
import type { Entry } from './requester.js';
import type { RoceQp } from './transport.js';

/**
 * The `setTimeout` delay for a transport timer due at `due` (`performance.now()` milliseconds).
 * IBTA Vol. 1 gives the Local ACK Timeout (§9.7.6.1.3) and the RNR NAK timer (§9.7.5.2.8) as
 * the least time to wait, but Node truncates a delay to whole milliseconds and counts it from
 * the event loop's cached clock, so a timer set for 4.194 ms can fire after 4 ms or less. The
 * callers round up here and check the monotonic clock when the timer fires, setting it again for
 * what is left if it came early.
 */
function delayUntil(due: number): number {
  return Math.max(1, Math.ceil(due - performance.now()));
}

const log = logger('roce');

/** The `retry_cnt` and `rnr_retry` value that never runs out (rnr_retry: IBTA Vol. 1 §9.7.5.2.8; retry_cnt: as Linux rxe). */
const RETRY_UNLIMITED = 7;

/** The steps of a response's receive path (rxe `enum comp_state`). */
export const enum CompStep {
  CHECK_PSN,
  CHECK_ACK,
  READ_RESPONSE,
  ATOMIC,
  ACK,
  NAK,
  RNR_NAK,
  SEQ_NAK,
  ERROR_NAK,
  COMPLETE,
  DONE,
}

/** {@link CompStep} names, for the debug log. */
export const COMP_STEP_NAMES: readonly string[] = [
  'CHECK_PSN',
  'CHECK_ACK',
  'READ_RESPONSE',
  'ATOMIC',
  'ACK',
  'NAK',
  'RNR_NAK',
  'SEQ_NAK',
  'ERROR_NAK',
  'COMPLETE',
  'DONE',
];

/** The completer part of a {@link RoceQp} (rxe `qp->comp`). */
export class RoceCompleter {
  /** The oldest unacknowledged PSN (rxe `comp.psn`). */
  una = 0;
  #retriesLeft = 0;
  /** Counts progress (anything acknowledged or answered), so that a deferred timeout sees it. */
  #progressMark = 0;
  #rnrLeft = 0;
  #timer: NodeJS.Timeout | null = null;
  /** When the running Local ACK Timeout is due, by the monotonic clock (ms). */
  #timerDue = 0;
  /** The RNR wait in progress (the requester sends nothing new meanwhile). */
  rnrTimer: NodeJS.Timeout | null = null;
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

  // ---- the packet being processed (set by rx, read by the steps)
  #p: IbPacket | null = null;
  #info: IbOpInfo | null = null;
  /** The request it answers, and its index in the requester's inflight list. */
  #entry: Entry | null = null;
  #idx = 0;
  /** A Read response: the last of its Read. */
  #last = false;
  /** A NAK acknowledged something new. */
  #progressed = false;

  constructor(readonly t: RoceQp) {}

  /** An RC response packet: ACKNOWLEDGE, RDMA READ response or ATOMIC ACKNOWLEDGE. */
  rx(p: IbPacket): void {
    this.#p = p;
    this.#info = ibOpInfo(p.bth.opcode)!;
    this.#entry = null;
    let s = CompStep.CHECK_PSN;
    // Read once per packet: debug's `enabled` is a getter.
    const trace = log.enabled;
    while (s !== CompStep.DONE) {
      if (trace) log('QP[%d] comp PSN %d %s', this.t.qp.id, p.bth.psn, COMP_STEP_NAMES[s]);
      s = this.#step(s);
    }
    this.#p = null;
    this.#entry = null;
  }

  #step(s: CompStep): CompStep {
    switch (s) {
      case CompStep.CHECK_PSN:
        return this.#checkPsn();
      case CompStep.CHECK_ACK:
        return this.#checkAck();
      case CompStep.READ_RESPONSE:
        return this.#readResponse();
      case CompStep.ATOMIC:
        return this.#atomic();
      case CompStep.ACK:
        return this.#ack();
      case CompStep.NAK:
        return this.#nak();
      case CompStep.RNR_NAK:
        return this.#rnrNak();
      case CompStep.SEQ_NAK:
        return this.#seqNak();
      case CompStep.ERROR_NAK:
        return this.#errorNak();
      case CompStep.COMPLETE:
        return this.#complete();
      default:
        return CompStep.DONE;
    }
  }

  /** Which request the response answers; a stale or unknown one is dropped. */
  #checkPsn(): CompStep {
    const p = this.#p!;
    const psn = p.bth.psn;
    const inflight = this.t.req.inflight;
    switch (this.#info!.operation) {
      case 'ack':
        if (inflight.length === 0) return CompStep.DONE;
        // Stale: before the oldest outstanding PSN − 1, or beyond what was sent.
        if (psnDiff(psn, psnAdd(this.una, -1)) < 0 || psnDiff(psn, this.t.req.nextPsn) >= 0) return CompStep.DONE;
        return CompStep.CHECK_ACK;
      case 'atomic-ack': {
        let idx = 0;
        while (idx < inflight.length && !(inflight[idx]!.atomicId !== null && inflight[idx]!.first === psn)) idx++;
        if (idx === inflight.length) return CompStep.DONE; // a duplicate of a finished atomic, or garbage
        this.#idx = idx;
        this.#entry = inflight[idx]!;
        return CompStep.CHECK_ACK;
      }
      case 'read-response':
        return this.#checkReadPsn(psn);
      default:
        return CompStep.DONE;
    }
  }

  /**
   * A Read response: it acknowledges every request before its Read (§9.7.6.1.1), and must be
   * the next response of that Read; an earlier one missing is re-requested.
   */
  #checkReadPsn(psn: number): CompStep {
    const inflight = this.t.req.inflight;
    let idx = 0;
    while (idx < inflight.length && !psnInRange(psn, inflight[idx]!.first, inflight[idx]!.n)) idx++;
    if (idx === inflight.length) return CompStep.DONE; // a duplicate of a finished Read, or garbage
    const e = inflight[idx]!;
    const r = e.read;
    if (!r) return CompStep.DONE;
    if (idx > 0) {
      this.#ackUpTo(psnAdd(e.first, -1));
      if (this.t.gone) return CompStep.DONE;
      if (inflight[0] !== e) {
        // An earlier Read or atomic is unfinished: its response was lost (an implied NAK).
        this.#impliedRetry();
        return CompStep.DONE;
      }
    }
    this.#entry = e;
    const expected = psnAdd(e.first, r.got);
    const d = psnDiff(psn, expected);
    // Responses of this Read that cannot be used (from an earlier request's stream, or after a
    // gap) still show the responder answering it: the retransmit timer restarts (without a
    // retry refund), so a backlog of stale responses draining through a busy event loop does
    // not look like a dead path and trigger yet more Read Requests, each answered by a whole
    // new response stream (a congestion collapse seen on a loaded 2-core machine).
    if (d !== 0 || psnDiff(psn, r.reqFirst) < 0) this.restartTimer();
    if (d !== 0) {
      // Responses were lost: re-request the rest now, once per gap (a partial Read).
      if (d > 0 && this.#readGapPsn !== expected) {
        this.#readGapPsn = expected;
        this.t.req.sendReadRequest(r, expected, r.orq.received);
        this.t.counters.inc(C.COMP_RETRY);
        this.t.counters.inc(C.RESENT_PKTS);
      }
      return CompStep.DONE;
    }
    return CompStep.CHECK_ACK;
  }

  /** The AETH (and for a Read response its place in the Read): which step handles it. */
  #checkAck(): CompStep {
    const p = this.#p!;
    const info = this.#info!;
    switch (info.operation) {
      case 'ack':
        return aethType(p.aeth!.syndrome) === AethType.Ack ? CompStep.ACK : CompStep.NAK;
      case 'atomic-ack':
        return aethType(p.aeth!.syndrome) === AethType.Ack ? CompStep.ATOMIC : CompStep.DONE;
      default: {
        // A response must start where its request started, and end at the Read's last PSN. The
        // answer to a partial Read Request (a retry from inside the Read) may restart the message
        // (FIRST/ONLY, as we and hardware answer) or continue it (MIDDLE/LAST: Linux rxe replays a
        // Read from its resource in that state when the PSN is not the original first one).
        const e = this.#entry!;
        const r = e.read!;
        const k = psnDiff(p.bth.psn, r.reqFirst);
        const isLast = r.got === e.n - 1;
        const partial = r.reqFirst !== e.first;
        const firstOk = k === 0 ? info.first || partial : !info.first;
        if (!firstOk || info.last !== isLast) return CompStep.DONE;
        if (aethType(p.aeth?.syndrome ?? 0) !== AethType.Ack) return CompStep.DONE;
        const len = p.payload.length;
        const remaining = r.len - r.orq.received;
        if (isLast ? len !== remaining : len !== this.t.mtu) return CompStep.DONE;
        this.#last = isLast;
        return CompStep.READ_RESPONSE;
      }
    }
  }

  /** The response's data goes to the Read's sink (the core checks and places it). */
  #readResponse(): CompStep {
    const p = this.#p!;
    const qp = this.t.qp;
    const f = qp.completer.rxReadResponseIb(p.payload.length, this.#last, { segments: [p.payload] }, 0, this.t);
    if (f !== Fault.OK) {
      if (f !== Fault.HANDLED) qp.remoteFault(f, null);
      return CompStep.DONE;
    }
    this.#entry!.read!.got++;
    this.#readGapPsn = -1;
    return CompStep.COMPLETE;
  }

  /** An ATOMIC ACKNOWLEDGE: acknowledges what precedes it and completes its atomic (§9.7.6.1.1). */
  #atomic(): CompStep {
    const e = this.#entry!;
    const orig = this.#p!.atomicAckEth!.origData;
    if (this.#idx > 0) {
      this.#ackUpTo(psnAdd(e.first, -1));
      if (this.t.gone) return CompStep.DONE;
      if (this.t.req.inflight[0] !== e) {
        // An earlier Read or atomic is unfinished: its response was lost. Keep this result for
        // when it completes, and ask for the earlier one again now (an implied NAK, §9.7.6.1.1).
        this.#stash.set(e.first, orig);
        this.#impliedRetry();
        return CompStep.DONE;
      }
    }
    if (!this.#deliverAtomic(e, orig)) return CompStep.DONE;
    this.#last = true;
    return CompStep.COMPLETE;
  }

  /** The Read (its last response) or the atomic at the head is done; else the Read goes on. */
  #complete(): CompStep {
    if (this.#last) {
      this.t.req.inflight.shift();
      // What an ACK acknowledged past it applies now, and atomics that waited behind it.
      this.#afterResponse();
    } else {
      this.resetRetries();
      this.restartTimer();
    }
    return CompStep.DONE;
  }

  /** A positive ACK: every request wholly at or before its PSN is acknowledged. */
  #ack(): CompStep {
    const psn = this.#p!.bth.psn;
    if (this.#lastAckPsn < 0 || psnDiff(psn, this.#lastAckPsn) > 0) this.#lastAckPsn = psn;
    this.#ackUpTo(psn);
    return CompStep.DONE;
  }

  /**
   * A NAK acknowledges everything before its PSN (§9.7.5.2.x): progress if that is new, even
   * when an unfinished Read or atomic at the head keeps the entries from completing yet.
   */
  #nak(): CompStep {
    const p = this.#p!;
    const implied = psnAdd(p.bth.psn, -1);
    const newer = this.#lastAckPsn < 0 || psnDiff(implied, this.#lastAckPsn) > 0;
    if (newer && psnDiff(implied, psnAdd(this.una, -1)) >= 0) this.#lastAckPsn = implied;
    this.#progressed = this.#ackUpTo(implied) || newer;
    if (this.t.gone) return CompStep.DONE;
    const syndrome = p.aeth!.syndrome;
    if (aethType(syndrome) === AethType.RnrNak) return CompStep.RNR_NAK;
    return aethValue(syndrome) === NakCode.PsnSequenceError ? CompStep.SEQ_NAK : CompStep.ERROR_NAK;
  }

  /** Receiver not ready: wait the responder's RNR timer, then resend from the NAK's PSN (§9.7.5.2.8). */
  #rnrNak(): CompStep {
    const t = this.t;
    const psn = this.#p!.bth.psn;
    t.counters.inc(C.RCV_RNR);
    if (this.#rnrLeft !== RETRY_UNLIMITED) {
      if (this.#rnrLeft <= 0) {
        const e = this.#entryAt(psn) ?? t.req.inflight[0];
        t.counters.inc(C.RNR_RETRY_EXCEEDED);
        if (e?.wqe) t.qp.requester.failRemote(e.wqe, RiWcStatus.RNR_RETRY_EXCEEDED);
        else t.qp.toError('RNR retry count exceeded', null);
        return CompStep.DONE;
      }
      this.#rnrLeft--;
    }
    this.#rnrPsn = psn;
    this.#clearTimer();
    if (this.rnrTimer) clearTimeout(this.rnrTimer);
    const due = performance.now() + RNR_TIMER_USEC[aethValue(this.#p!.aeth!.syndrome)]! / 1000;
    const fire = (): void => {
      // The peer's RNR NAK timer is the least time to wait before the retry (§9.7.5.2.8).
      if (performance.now() < due) {
        this.rnrTimer = setTimeout(fire, delayUntil(due));
        return;
      }
      this.rnrTimer = null;
      if (t.gone) return;
      t.req.goBackN(psn);
      t.kick();
    };
    this.rnrTimer = setTimeout(fire, delayUntil(due));
    return CompStep.DONE;
  }

  /** A PSN-sequence NAK: go back N from its PSN (a retry unless it acknowledged something). */
  #seqNak(): CompStep {
    const psn = this.#p!.bth.psn;
    this.t.counters.inc(C.RCV_SEQ_ERR);
    // Waiting out an RNR NAK for this PSN: the resend after the RNR timer covers it.
    if (!this.#progressed && this.rnrTimer && psn === this.#rnrPsn) return CompStep.DONE;
    if (!this.#progressed && !this.#useRetry()) return CompStep.DONE;
    this.t.req.goBackN(psn);
    return CompStep.DONE;
  }

  /** Invalid request, remote access or operational error: the WQE fails, the QP enters Error. */
  #errorNak(): CompStep {
    const t = this.t;
    const psn = this.#p!.bth.psn;
    const v = aethValue(this.#p!.aeth!.syndrome);
    const e = this.#entryAt(psn) ?? t.req.inflight[0];
    log('QP[%d] NAK %d at PSN %d', t.qp.id, v, psn);
    if (e?.wqe) t.qp.requester.failRemote(e.wqe, wcStatusOfNak(v));
    else t.qp.toError(`NAK ${v}`, null);
    return CompStep.DONE;
  }

  /** Hands an atomic's original value to the core; false when it refused it (the QP is failing). */
  #deliverAtomic(e: Entry, orig: bigint): boolean {
    const qp = this.t.qp;
    const f = qp.completer.rxAtomicResponse(e.atomicId!, [orig], this.t);
    if (f !== Fault.OK) {
      if (f !== Fault.HANDLED) qp.remoteFault(f, null);
      return false;
    }
    return true;
  }

  /** A Read or atomic at the head completed: progress, then what waited behind it. */
  #afterResponse(): void {
    this.#progress();
    if (this.#lastAckPsn >= 0) this.#ackUpTo(this.#lastAckPsn);
    const h = this.t.req.inflight[0];
    if (!h || this.t.gone || h.atomicId === null) return;
    const orig = this.#stash.get(h.first);
    if (orig === undefined) return;
    this.#stash.delete(h.first);
    if (!this.#deliverAtomic(h, orig)) return;
    this.t.req.inflight.shift();
    this.#afterResponse();
  }

  /**
   * A response to a later request arrived while the Read or atomic at the head is unfinished:
   * its response was lost, so request it again at once (once per head), rather than waiting
   * for the timer. The responder replays it from its resources.
   */
  #impliedRetry(): void {
    const t = this.t;
    const h = t.req.inflight[0];
    if (!h || h.first === this.#impliedPsn) return;
    this.#impliedPsn = h.first;
    t.counters.inc(C.COMP_RETRY);
    t.counters.inc(C.RESENT_PKTS);
    if (h.read) {
      this.#readGapPsn = psnAdd(h.first, h.read.got);
      t.req.sendReadRequest(h.read, this.#readGapPsn, h.read.orq.received);
    } else if (h.buf) {
      t.send(h.buf, t.remote!);
    }
  }

  /** Acknowledges every request wholly at or before `psn`, stopping at an unfinished Read. */
  #ackUpTo(psn: number): boolean {
    const t = this.t;
    const inflight = t.req.inflight;
    let progress = false;
    while (inflight.length > 0) {
      const e = inflight[0]!;
      // Reads and atomics complete only by their responses (§9.7.6.1.1).
      if (e.read || e.atomicId !== null || psnDiff(e.first, psn) > 0) break;
      inflight.shift();
      progress = true;
      if (e.lastOfWqe && e.wqe) {
        t.counters.inc(C.RDMA_SEND);
        t.qp.requester.delivered(e.wqe);
      }
      if (t.gone) return progress;
    }
    if (progress) this.#progress();
    return progress;
  }

  #progress(): void {
    const req = this.t.req;
    this.una = req.inflight.length ? req.inflight[0]!.first : req.nextPsn;
    if (req.inflight.length === 0) {
      this.#lastAckPsn = -1;
      this.#stash.clear();
    }
    this.resetRetries();
    this.restartTimer();
    this.t.kick();
  }

  #entryAt(psn: number): Entry | undefined {
    return this.t.req.inflight.find((e) => psnInRange(psn, e.first, e.n));
  }

  /** Progress was made (or the counts changed): `retry_cnt` and `rnr_retry` are full again. */
  resetRetries(): void {
    this.#progressMark++;
    this.#retriesLeft = this.t.qp.ib.retryCnt;
    this.#rnrLeft = this.t.qp.ib.rnrRetry;
  }

  // ---- the retransmit timer

  /** Starts the Local ACK Timeout if requests are outstanding and it is not running. */
  armTimer(): void {
    if (this.#timer || this.t.req.inflight.length === 0 || this.rnrTimer) return;
    const to = this.t.qp.ib.timeout;
    if (to === 0) return; // infinite (§9.7.6.1.3)
    this.#timerDue = performance.now() + (4.096 * 2 ** to) / 1000;
    this.#timer = setTimeout(() => this.#onTimeout(), delayUntil(this.#timerDue));
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  restartTimer(): void {
    this.#clearTimer();
    this.armTimer();
  }

  /** Stops both timers (the QP goes). */
  stop(): void {
    this.#clearTimer();
    if (this.rnrTimer) clearTimeout(this.rnrTimer);
    this.rnrTimer = null;
  }

  #onTimeout(): void {
    const t = this.t;
    this.#timer = null;
    if (t.gone || t.req.inflight.length === 0) return;
    if (performance.now() < this.#timerDue) {
      // Early by Node's clock (see delayUntil): the timeout is at least the spec's value.
      this.#timer = setTimeout(() => this.#onTimeout(), delayUntil(this.#timerDue));
      return;
    }
    // Node runs expired timers before it polls the sockets: after the event loop was held up (a
    // loaded machine), the answers may already wait in the socket buffer. They are read first
    // (setImmediate runs after the poll phase), and a timeout they answer is void; otherwise a
    // stalled process would spend its retries on packets it has received but not yet read.
    const mark = this.#progressMark;
    setImmediate(() => {
      if (t.gone || t.req.inflight.length === 0) return;
      if (this.#progressMark !== mark) {
        this.armTimer();
        return;
      }
      this.#clearTimer();
      this.#expire();
    });
  }

  /** The Local ACK Timeout expired with nothing acknowledged: one retry, go-back-N from the oldest. */
  #expire(): void {
    const t = this.t;
    t.counters.inc(C.LOCAL_ACK_TIMEOUT);
    if (log.enabled) {
      const h = t.req.inflight[0]!;
      log(
        'QP[%d] timeout: una %d next %d, %d outstanding, head %s',
        t.qp.id,
        this.una,
        t.req.nextPsn,
        t.req.inflight.length,
        h.read ? 'Read' : h.atomicId !== null ? 'atomic' : 'packet',
      );
    }
    if (!this.#useRetry()) return;
    this.#readGapPsn = -1;
    t.req.goBackN(this.una);
  }

  /**
   * Takes one of `retry_cnt`; false (and the QP fails) when none is left. `retry_cnt` 7 is never
   * used up: Linux rxe's reading (`rxe_comp.c` decrements only a count other than 7), on which
   * rdma-core programs run against it rely (perftest and the pingpongs set 7); IBTA Vol. 1
   * §9.7.6.1.3 makes 7 a count, docs/spec-notes.md says why we follow rxe.
   */
  #useRetry(): boolean {
    const t = this.t;
    if (this.#retriesLeft === RETRY_UNLIMITED) return true;
    if (this.#retriesLeft <= 0) {
      const e = t.req.inflight[0];
      log('QP[%d] retry count exceeded at PSN %d', t.qp.id, this.una);
      t.counters.inc(C.RETRY_EXCEEDED);
      if (e?.wqe) t.qp.requester.failRemote(e.wqe, RiWcStatus.TRANSPORT_RETRY_EXCEEDED);
      else t.qp.toError('retry count exceeded', null);
      return false;
    }
    this.#retriesLeft--;
    return true;
  }
}

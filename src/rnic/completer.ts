/**
 * The completer: the requester's receive side, what answers this QP's own Reads and atomics
 * (RDMA Protocol Verbs §6.5, §8.2.2; RFC 5040 §4.5; RFC 7306 §5.2; IBTA Vol. 1 §9.7.6.1). In
 * InfiniBand terms (and Linux rxe's `rxe_comp.c`) this is the completer, apart from the
 * responder, which serves the peer's requests.
 *
 * A transport hands each response it has checked for its own framing and sequencing to one of
 * the neutral entry points below. The rules here: a response answers the head of the ORQ (on
 * InfiniBand by PSN order alone: a response carries no sink address); the local sink is checked
 * once, when the first segment arrives; the requester completes the WQE (in order, qp.ts).
 * A failure is returned as a neutral {@link Fault}, as from the responder.
 */
import { Fault } from './faults.js';
import { Access, AccessError, type AccessOut, accessBy, checkAccess, LOCAL_ACCESS_STATUS } from './memory.js';
import type { Qp } from './qp.js';
import { placePayload, type RxPayload } from './responder.js';
import type { QpTransport } from './transport.js';

export class Completer {
  constructor(readonly qp: Qp) {}

  /**
   * Inbound Read Response segment: must match the head of the ORQ (RFC 5040 §4.5, Verbs §6.5).
   * The local sink is checked when the first segment arrives (Verbs §7.6.3) for `sinkAccess`:
   * on iWARP the Read Response is a tagged message into the Data Sink STag, which takes Remote
   * Write (RFC 5040 §4.5, as siw checks it); on InfiniBand the sink is a local data segment,
   * which takes Local Write only (IBTA Vol. 1 §10.6.3.1, as rxe copies the response).
   */
  rxReadResponse(
    stag: number,
    to: bigint,
    len: number,
    last: boolean,
    p: RxPayload,
    skip: number,
    t: QpTransport,
    sinkAccess: Access = Access.REMOTE_WRITE,
  ): Fault {
    const qp = this.qp;
    const e = qp.orq[0];
    if (!e) return Fault.UNEXPECTED_RESPONSE;
    if (stag !== e.sinkStag) return Fault.RESPONSE_STAG_MISMATCH;
    if (to !== e.sinkTo + BigInt(e.received) || e.received + len > e.length) return Fault.RESPONSE_OUT_OF_RANGE;
    if (e.received === 0 && e.length > 0 && !e.target) {
      const a: AccessOut = { target: null, offset: 0, obj: null };
      const err = checkAccess({ stag: e.sinkStag, to: e.sinkTo, len: e.length }, sinkAccess, accessBy(qp), a);
      if (err !== AccessError.OK) {
        // The local sink is bad: the Read completes in error, then the QP terminates.
        qp.orq.shift();
        if (e.wqe) qp.requester.failRead(e.wqe, LOCAL_ACCESS_STATUS[err]);
        return Fault.HANDLED;
      }
      e.target = a;
    }
    if (len > 0) placePayload(p, skip, e.target!.target!, e.target!.offset + e.received);
    e.received += len;
    if (last) {
      if (e.received !== e.length) return Fault.RESPONSE_OUT_OF_RANGE;
      qp.orq.shift();
      if (e.wqe) qp.requester.readDone(e.wqe, t);
      else t.kick();
    }
    return Fault.OK;
  }

  /**
   * InfiniBand Read Response packet (IBTA Vol. 1 §9.4.4): IB responses carry no sink address,
   * they answer the oldest outstanding Read in PSN order, so the sink is the ORQ head's.
   */
  rxReadResponseIb(len: number, last: boolean, p: RxPayload, skip: number, t: QpTransport): Fault {
    const e = this.qp.orq[0];
    if (!e) return Fault.UNEXPECTED_RESPONSE;
    return this.rxReadResponse(e.sinkStag, e.sinkTo + BigInt(e.received), len, last, p, skip, t, Access.LOCAL_WRITE);
  }

  /**
   * Inbound atomic response: must answer the atomic at the ORQ head, with its Request
   * Identifier (RFC 7306 §5.2); the requester writes the original value into the WR's result
   * buffer and completes it.
   */
  rxAtomicResponse(requestId: number, orig: readonly bigint[], t: QpTransport): Fault {
    const qp = this.qp;
    const e = qp.orq[0];
    if (!e || e.atomicId === undefined || e.atomicId !== requestId || !e.wqe?.atomic) return Fault.UNEXPECTED_ATOMIC_RESPONSE;
    if (orig.length !== e.wqe.atomic.size / 8) return Fault.UNEXPECTED_ATOMIC_RESPONSE;
    qp.orq.shift();
    qp.requester.atomicDone(e.wqe, orig, t);
    return Fault.OK;
  }
}

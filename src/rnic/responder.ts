/**
 * The responder: the receive side of a QP (RDMA Protocol Verbs §6.5, §7.6.3, §8.2.3;
 * RNICPI 1.0 §5.6).
 *
 * A transport hands each received segment to one of the neutral entry points below after
 * checking its own framing and sequencing (iWARP: MPA CRC, DDP MSN; IB: PSN). Everything that
 * is a *semantic* rule lives here, once:
 * - placement only after the one access check (STag/key, PD, bounds, rights: Verbs §7.6.3),
 *   done once per message for tagged data and re-used while the message continues in order;
 * - receive matching for the RQ and the S-RQ, with the message offset of each segment;
 * - Send with Invalidate (Verbs §7.10.2);
 * - IRD and the Read Request queue, and the Read Responses it produces.
 *
 * Responses to this QP's own Reads and atomics are the completer's (`completer.ts`).
 *
 * A failure is returned as a neutral {@link Fault}; the transport maps it to its wire error
 * (a Terminate, a NAK) and the QP's error path. {@link Fault.HANDLED} means the core already
 * completed the affected WR in error and moved the QP on.
 */
import { RiWcFlags, RiWcStatus, RiWcType } from '../rnicpi/types.js';
import { ATOMIC_ALIGNMENT, type AtomicArgs, atomicArgsValid, executeAtomic } from './atomics.js';
import { ATOMIC_TARGET_FAULT, Fault, READ_SRC_FAULT, SINK_FAULT } from './faults.js';
import {
  Access,
  AccessError,
  type AccessBy,
  type AccessOut,
  accessBy,
  checkAccess,
  copyToMem,
  LOCAL_ACCESS_STATUS,
  type MemObject,
  type MemRef,
  type MemTarget,
  memSlices,
} from './memory.js';
import { InvalidateError, invalidateStag } from './memops.js';
import type { Qp } from './qp.js';
import { type QpTransport, TxOp, type TxSeg } from './transport.js';
import type { InboundRead, RqWqe } from './wqe.js';
import { GRH_LEN } from '../wire/ib/constants.js';

/** Received payload: the bytes of one segment, possibly spread over several chunks. */
export interface RxPayload {
  readonly segments: readonly Uint8Array[];
}

/** An inbound UD datagram as its transport hands it over, after its own checks (IBTA Vol. 1 §9.8.3.1). */
export interface RxDatagram {
  /** The 40 octets the receive buffer starts with (IBTA Vol. 1 §11.4.2.1; RoCEv2: the IP header). */
  readonly grh: Uint8Array;
  /** The received bytes; the data starts `skip` octets in and is `len` octets long. */
  readonly payload: RxPayload;
  readonly skip: number;
  readonly len: number;
  /** The BTH's Solicited Event bit. */
  readonly se: boolean;
  /** The DETH's source QP and Q_Key (IBTA Vol. 1 §9.3.3). */
  readonly srcQpn: number;
  readonly qkey: number;
  /** The immediate data of a Send with Immediate. */
  readonly imm?: number | undefined;
}

/** Copies the octets of `p` after `skip` header octets into a target at `off`. */
export function placePayload(p: RxPayload, skip: number, target: MemTarget, off: number): void {
  for (const s of p.segments) {
    if (skip >= s.length) {
      skip -= s.length;
      continue;
    }
    const n = s.length - skip;
    copyToMem(target, off, s, skip, n);
    off += n;
    skip = 0;
  }
}

/** A resolved SGL entry: where `len` octets of a message go. */
interface Piece {
  target: MemTarget;
  offset: number;
  len: number;
}

/**
 * One segment of an inbound untagged (Send-family) message, as a transport hands it to
 * {@link Responder.rxSend}; each transport fills one such record per connection and reuses it.
 */
export interface UntaggedSegment {
  /** Where the segment starts in the message (DDP's Message Offset, RFC 5041 §5.1; on InfiniBand the octets before it). */
  offset: number;
  len: number;
  /** The message's last segment. */
  last: boolean;
  /** Solicited Event. */
  se: boolean;
  /** Send with Invalidate, and the STag it names (RFC 5040 §4.6; IBTA Vol. 1 §9.4.1 IETH). */
  invalidate: boolean;
  invStag: number;
  /** Send with Immediate: the 32-bit immediate, else undefined. */
  imm: number | undefined;
}

/** A blank {@link UntaggedSegment}. */
export function newUntaggedSegment(): UntaggedSegment {
  return { offset: 0, len: 0, last: false, se: false, invalidate: false, invStag: 0, imm: undefined };
}

/** The fault of a failed Send with Invalidate, by InvalidateError (Verbs §7.10.2). */
const INVALIDATE_FAULT: Readonly<Record<number, Fault>> = {
  [InvalidateError.NOT_ASSOCIATED]: Fault.INVALIDATE_NOT_ASSOCIATED,
  [InvalidateError.RIGHTS]: Fault.INVALIDATE_RIGHTS,
  [InvalidateError.CANNOT_INVALIDATE]: Fault.CANNOT_INVALIDATE,
};

export class Responder {
  readonly #access: AccessOut = { target: null, offset: 0, obj: null };
  /** The memory an inbound request names, reused per request ({@link refOf}). */
  readonly #ref: MemRef = { stag: 0, to: 0n, len: 0 };
  #byMemo: AccessBy | null = null;
  #byRecv: AccessBy | null = null;
  /** The QP's accesses as a responder makes them: its PD, its inbound enables. */
  get #by(): AccessBy {
    return (this.#byMemo ??= accessBy(this.qp));
  }
  /** `stag`, `to` and `len` of an inbound request as the one reused {@link MemRef}. */
  #refOf(stag: number, to: bigint, len: number): MemRef {
    const r = this.#ref;
    r.stag = stag;
    r.to = to;
    r.len = len;
    return r;
  }
  /** The receive WQE of the Send message being placed, if any. */
  #recvWqe: RqWqe | null = null;
  #recvPieces: Piece[] | null = null;
  /** Tagged placement context: the STag and next TO of the message in progress. */
  #tagStag = -1;
  #tagNextTo = 0n;
  #tagObj: MemObject | null = null;
  #tagTarget: MemTarget | null = null;
  #tagOffset = 0;
  #tagEnd = 0;
  /** Octets of the RDMA Write message in progress, and of the last one completed. */
  #writeLen = 0;
  #lastWriteLen = 0;

  constructor(readonly qp: Qp) {}

  /** Forgets the per-connection receive state (a new LLP was attached). */
  reset(): void {
    this.#recvWqe = null;
    this.#recvPieces = null;
    this.#tagObj = null;
    this.#tagStag = -1;
  }

  /**
   * InfiniBand UC: a packet of the message in progress was lost, so the message is abandoned
   * (IBTA Vol. 1 §9.8.3.2). Its receive WQE, if it had taken one, stays for the next message,
   * placed from offset 0 again; a Write's sink is forgotten.
   */
  abortMessage(): void {
    if (this.#recvWqe) this.#recvWqe.placed = 0;
    this.#tagObj = null;
    this.#tagStag = -1;
  }

  // ------------------------------------------------------------------ tagged

  /**
   * Inbound RDMA Write segment (RFC 5040 §4.3; IBTA Vol. 1 §9.4.3): `len` octets at `to` of
   * `stag`. The full access check runs on the first segment of a message (or when the message
   * does not continue in order); later segments only need to stay inside the checked object.
   */
  rxWrite(stag: number, to: bigint, len: number, last: boolean, p: RxPayload, skip: number): Fault {
    if (this.qp.isIb) this.qp.received();
    if (len > 0) {
      const o = this.#tagObj;
      const cont =
        o !== null && stag === this.#tagStag && to === this.#tagNextTo && o.valid && !o.destroyed && this.#tagOffset + len <= this.#tagEnd;
      if (!cont) {
        const a = this.#access;
        const e = checkAccess(this.#refOf(stag, to, len), Access.REMOTE_WRITE, this.#by, a);
        if (e !== AccessError.OK) return SINK_FAULT[e] ?? Fault.INVALID_STAG;
        // Check once for what remains of the object from `to` on.
        const obj = a.obj;
        const limit = obj ? obj.length - Number(to - obj.base) : len;
        this.#tagStag = stag;
        this.#tagNextTo = to;
        this.#tagObj = a.obj;
        this.#tagTarget = a.target;
        this.#tagOffset = a.offset;
        this.#tagEnd = a.offset + limit;
      }
      placePayload(p, skip, this.#tagTarget!, this.#tagOffset);
      this.#tagOffset += len;
      this.#tagNextTo = to + BigInt(len);
    }
    this.#writeLen += len;
    if (last) {
      this.#tagObj = null;
      this.#tagStag = -1;
      this.#lastWriteLen = this.#writeLen;
      this.#writeLen = 0;
    }
    return Fault.OK;
  }

  /**
   * The immediate data of an RDMA Write with Immediate (IBTA Vol. 1 §9.4.3; on iWARP the RFC
   * 7306 Immediate Data message that follows the Write): consumes the next receive WQE, which
   * completes as RDMA_IMMEDIATE_RECEIVED with the immediate and the Write's length, after the
   * Write's data is placed (the transport calls this after the Write's last segment).
   */
  rxWriteImm(imm: number, se: boolean): Fault {
    const qp = this.qp;
    if (this.#recvWqe) return Fault.BAD_OFFSET;
    const w = qp.takeRecv();
    if (!w) return Fault.NO_RECV_BUFFER;
    let flags = RiWcFlags.IMMEDIATE_DATA;
    if (se) flags |= RiWcFlags.SOLICITED_EVENT;
    qp.completeRecv(w, RiWcStatus.SUCCESS, this.#lastWriteLen, flags, 0, RiWcType.RDMA_IMMEDIATE_RECEIVED, imm >>> 0);
    return Fault.OK;
  }

  // ------------------------------------------------------------------ untagged

  /**
   * Inbound Send-family segment (RFC 5040 §4.6–4.7; IBTA Vol. 1 §9.4.1): `len` octets at
   * message offset `offset`. The first segment takes a receive WQE (RQ or S-RQ) and checks its
   * SGL; the last one completes it, after invalidating `invStag` if `invalidate`.
   */
  rxSend(seg: UntaggedSegment, p: RxPayload, skip: number): Fault {
    const { offset, len, last, se, invalidate, invStag, imm } = seg;
    const qp = this.qp;
    if (qp.isIb) qp.received();
    let w = this.#recvWqe;
    if (!w) {
      if (offset !== 0) return Fault.BAD_OFFSET;
      w = qp.takeRecv() ?? null;
      // No receive posted: iWARP has no RNR, the stream terminates (RFC 5041 §7, Verbs §13.2);
      // an RNR-capable transport answers with an RNR NAK instead.
      if (!w) return Fault.NO_RECV_BUFFER;
      const pieces = this.#resolveRecv(w, -1);
      if (!pieces) return Fault.HANDLED;
      this.#recvWqe = w;
      this.#recvPieces = pieces;
      w.placed = 0;
    }
    if (offset !== w.placed) return Fault.BAD_OFFSET;
    if (w.placed + len > w.capacity) {
      // Longer than the receive buffer: the receive completes in error and the stream ends
      // with "message too long" (RFC 5041 §7.2).
      this.#recvWqe = null;
      qp.completeRecv(w, RiWcStatus.BASE_BOUNDS_VIOLATION_ERROR, 0, 0, 0);
      return Fault.MSG_TOO_LONG;
    }
    if (len > 0) this.#placeUntagged(p, skip, w.placed, len);
    w.placed += len;
    if (!last) return Fault.OK;
    this.#recvWqe = null;
    this.#recvPieces = null;
    let flags = 0;
    if (se) flags |= RiWcFlags.SOLICITED_EVENT;
    // Send with Immediate: the immediate is reported with the data (IBTA Vol. 1 §9.4.1).
    if (imm !== undefined) flags |= RiWcFlags.IMMEDIATE_DATA;
    let invalidated = 0;
    if (invalidate) {
      const r = invalidateStag(qp, invStag, true);
      if (r !== InvalidateError.OK) {
        qp.completeRecv(w, RiWcStatus.STAG_INVALIDATE_ERROR, w.placed, flags, 0);
        return INVALIDATE_FAULT[r] ?? Fault.INVALIDATE_INVALID_STAG;
      }
      flags |= RiWcFlags.RTAG_INVALIDATE;
      invalidated = invStag;
    }
    qp.completeRecv(w, RiWcStatus.SUCCESS, w.placed, flags, invalidated, RiWcType.DATA_RECEIVED, (imm ?? 0) >>> 0);
    return Fault.OK;
  }

  /**
   * The SGL of receive WQE `w` resolved through the one access check (Local Write, the QP's or
   * the S-RQ's PD: Verbs §7.6.3); on a bad SGE the WQE completes with its status, the QP
   * terminates, and null is returned. `srcQpn`: a datagram's source QP (−1: none).
   */
  #resolveRecv(w: RqWqe, srcQpn: number): Piece[] | null {
    const qp = this.qp;
    // Exactly sized (a pushed-to array reserves sixteen slots); zero-length SGEs are left out.
    const sgl = w.sgl;
    let n = 0;
    for (let i = 0; i < sgl.length; i++) if (sgl[i]!.len > 0) n++;
    const pieces: Piece[] = new Array(n);
    let k = 0;
    const a = this.#access;
    const by = (this.#byRecv ??= qp.srq ? accessBy(qp, qp.srq.pd) : this.#by);
    for (const sge of sgl) {
      const e = checkAccess(sge, Access.LOCAL_WRITE, by, a);
      if (e !== AccessError.OK) {
        qp.completeRecv(w, LOCAL_ACCESS_STATUS[e], 0, 0, 0, RiWcType.DATA_RECEIVED, 0, srcQpn);
        qp.terminateWith(Fault.LOCAL_CATASTROPHIC, null);
        return null;
      }
      if (sge.len > 0) pieces[k++] = { target: a.target!, offset: a.offset, len: sge.len };
    }
    return pieces;
  }

  #placeUntagged(p: RxPayload, skip: number, mo: number, len: number): void {
    // Walk the SGL to the piece holding MO, then copy chunk by chunk.
    const pieces = this.#recvPieces!;
    let pi = 0;
    let pOff = mo;
    while (pi < pieces.length && pOff >= pieces[pi]!.len) {
      pOff -= pieces[pi]!.len;
      pi++;
    }
    let left = len;
    for (const s of p.segments) {
      if (left === 0) break;
      if (skip >= s.length) {
        skip -= s.length;
        continue;
      }
      let sOff = skip;
      skip = 0;
      while (sOff < s.length && left > 0) {
        const piece = pieces[pi]!;
        const n = Math.min(s.length - sOff, piece.len - pOff, left);
        copyToMem(piece.target, piece.offset + pOff, s, sOff, n);
        sOff += n;
        pOff += n;
        left -= n;
        if (pOff === piece.len) {
          pi++;
          pOff = 0;
        }
      }
    }
  }

  // ------------------------------------------------------------------ datagrams

  /**
   * An inbound UD datagram (IBTA Vol. 1 §9.8.3.1, §11.4.2.1), after the transport's own checks.
   * A Q_Key other than the QP's drops it, counted as a Q_Key violation (IBTA Vol. 1 §10.2.5
   * C10-15; the transport has already replaced a WR's high-bit Q_Key by the sender QP's own).
   * Otherwise it takes the next receive WQE, whose buffer gets the 40-octet
   * GRH first and then the `len` octets of payload; the WC carries the source QP and says
   * a GRH is present. No receive posted: {@link Fault.NO_RECV_BUFFER} and nothing changed (UD
   * drops the datagram silently). A datagram longer than the buffer completes the WQE with
   * Local Length Error and the QP goes on (returned as {@link Fault.HANDLED}).
   */
  rxDatagram(d: RxDatagram): Fault {
    const { grh, len, se, srcQpn, qkey, imm } = d;
    const qp = this.qp;
    if (qkey !== qp.ib.qkey) {
      qp.rnic.counters.qkeyViolations++;
      return Fault.HANDLED;
    }
    const head = qp.peekRecv();
    if (!head) return Fault.NO_RECV_BUFFER;
    // A datagram that does not fit the receive (with its 40-octet GRH) is dropped and the
    // receive stays posted (IBTA Vol. 1 §9.8.3: UD has no NAK; as rxe
    // `check_length`), so a sender that knows the Q_Key cannot turn receives into errors.
    if (grh.length !== GRH_LEN || GRH_LEN + len > head.capacity) {
      qp.rnic.counters.udLengthDrops++;
      return Fault.HANDLED;
    }
    const w = qp.takeRecv()!;
    const pieces = this.#resolveRecv(w, srcQpn);
    if (!pieces) return Fault.HANDLED;
    this.#recvPieces = pieces;
    this.#placeUntagged({ segments: [grh] }, 0, 0, GRH_LEN);
    if (len > 0) this.#placeUntagged(d.payload, d.skip, GRH_LEN, len);
    this.#recvPieces = null;
    // Send with Immediate as a datagram: the immediate is reported with the data (IBTA Vol. 1 §9.4.1).
    const flags = (se ? RiWcFlags.SOLICITED_EVENT : 0) | (imm !== undefined ? RiWcFlags.IMMEDIATE_DATA : 0);
    qp.completeRecv(w, RiWcStatus.SUCCESS, GRH_LEN + len, flags, 0, RiWcType.DATA_RECEIVED, (imm ?? 0) >>> 0, srcQpn);
    return Fault.OK;
  }

  // ------------------------------------------------------------------ Read Requests

  /**
   * Inbound RDMA Read Request (RFC 5040 §4.4; IBTA Vol. 1 §9.4.4): checked against IRD and
   * the source's access rights, then queued for Read Responses.
   */
  rxReadRequest(sinkStag: number, sinkTo: bigint, size: number, srcStag: number, srcTo: bigint, t: QpTransport): Fault {
    const qp = this.qp;
    if (qp.isIb) qp.received();
    // Reads not enabled: the Read Request queue does not exist (Verbs §7.3).
    if (!qp.enableRdmaRead) return Fault.READ_NOT_ENABLED;
    // IRD exceeded (RFC 5040 §6.10, Verbs §6.5).
    if (qp.irq.length >= qp.ird) return Fault.IRD_EXCEEDED;
    const a: AccessOut = { target: null, offset: 0, obj: null };
    const e = checkAccess(this.#refOf(srcStag, srcTo, size), Access.REMOTE_READ, this.#by, a);
    if (e !== AccessError.OK) return READ_SRC_FAULT[e] ?? Fault.READ_SRC_INVALID_STAG;
    const ir: InboundRead = { sinkStag, sinkTo, length: size, target: a.target, offset: a.offset, src: a.obj, sent: 0 };
    qp.irq.push(ir);
    t.kick();
    return Fault.OK;
  }

  /**
   * Restarts the Read Response being sent (the IRQ head) at `delta` octets from where it began,
   * for `length` octets: a duplicate Read Request asked again for part of the same Read
   * (IBTA Vol. 1 §9.7.5.1.2; the range was checked to lie inside the original, already
   * access-checked Read). False when the head is not a Read.
   */
  restartHeadRead(delta: number, length: number): boolean {
    const ir = this.qp.irq[0];
    if (!ir || ir.atomic || !ir.target || ir.offset + delta < 0) return false;
    ir.offset += delta;
    ir.length = length;
    ir.sent = 0;
    return true;
  }

  // ------------------------------------------------------------------ atomics

  /**
   * Inbound atomic request (IBTA Vol. 1 §9.4.5; RFC 7306 §5.1): checked, in this order, against
   * IRD (atomics and Reads share it), the operation, the 8-octet alignment of the target and
   * the one access check for Remote Atomic; then executed at once by the atomic executor
   * (atomics.ts), and its response queued behind earlier Read Responses. A refused request
   * changes no memory.
   */
  rxAtomicRequest(requestId: number, args: AtomicArgs, stag: number, to: bigint, t: QpTransport): Fault {
    const qp = this.qp;
    if (qp.irq.length >= qp.ird) return Fault.ATOMIC_IRD_EXCEEDED;
    if (!atomicArgsValid(args)) return Fault.ATOMIC_UNSUPPORTED;
    if (to % BigInt(ATOMIC_ALIGNMENT) !== 0n) return Fault.ATOMIC_MISALIGNED;
    const a: AccessOut = { target: null, offset: 0, obj: null };
    const e = checkAccess(this.#refOf(stag, to, args.size), Access.REMOTE_ATOMIC, this.#by, a);
    if (e !== AccessError.OK) return ATOMIC_TARGET_FAULT[e] ?? Fault.ATOMIC_INVALID_STAG;
    const orig = executeAtomic(a.target!, a.offset, args);
    qp.rnic.counters.atomicsExecuted++;
    qp.irq.push({ sinkStag: 0, sinkTo: 0n, length: 0, target: null, offset: 0, src: null, sent: 0, atomic: { requestId, orig } });
    t.kick();
    return Fault.OK;
  }

  /**
   * The next Read Response segment of the head inbound Read (RFC 5040 §4.5), or the response of
   * the head inbound atomic, or null if a Read's source went away meanwhile (then the QP is
   * terminating: Verbs §7.10.4).
   */
  nextReadResponse(s: TxSeg, maxPayload: number): TxSeg | null {
    const qp = this.qp;
    const ir = qp.irq[0]!;
    if (ir.atomic) {
      qp.irq.shift();
      s.op = TxOp.ATOMIC_RESPONSE;
      s.wqe = null;
      s.len = 0;
      s.parts = [];
      s.offset = 0;
      s.last = true;
      s.se = false;
      s.hasImm = false;
      s.requestId = ir.atomic.requestId;
      s.orig = ir.atomic.orig;
      return s;
    }
    if (ir.length > 0 && ir.src && (ir.src.destroyed || !ir.src.valid)) {
      qp.irq.shift();
      qp.remoteFault(Fault.READ_SRC_GONE, null);
      return null;
    }
    const n = Math.min(maxPayload, ir.length - ir.sent);
    const last = ir.sent + n === ir.length;
    const parts: Uint8Array[] = [];
    if (n > 0) memSlices(ir.target!, ir.offset + ir.sent, n, parts);
    s.op = TxOp.READ_RESPONSE;
    s.hasImm = false;
    s.wqe = null;
    s.len = n;
    s.parts = parts;
    s.offset = ir.sent;
    s.last = last;
    s.se = false;
    s.stag = ir.sinkStag;
    s.to = ir.sinkTo + BigInt(ir.sent);
    s.ud = null;
    ir.sent += n;
    if (last) qp.irq.shift();
    return s;
  }
}

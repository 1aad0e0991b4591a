/**
 * Queue Pairs: the iWARP QP state machine, the Send and Receive Queues, posting, flushing
 * and in-order completion (RDMA Protocol Verbs §6.2, §8; RNICPI §5.4–5.6).
 *
 * States are Idle, RTS, Closing, Terminate and Error (Verbs §6.2). The Consumer moves the QP
 * only through {@link Qp.modify}, which reads the transition table of qp-states.ts; the LLP
 * (the attached {@link QpTransport}) and error detection move it through the automatic
 * transitions. Every transition is logged `QP[n] A→B`.
 *
 * The QP owns its {@link Requester} (the SQ side) and {@link Responder} (the receive side);
 * a transport attached at Idle→RTS carries their work on a wire.
 *
 * Send Queue completions are generated strictly in post order (Verbs §8.2.2 rule 2): a WQE
 * that finishes early (a Send behind an outstanding RDMA Read) waits for its predecessors.
 * A queue slot is released only when the Consumer polls the completion that covers it
 * (Verbs §8.1.3.1): a signaled WR's own WC, or for unsignaled WRs the WC of a later
 * signaled WR on the same queue.
 */
import { RiRet } from '../rnicpi/status.js';
import {
  RiAsyncEventType,
  RiQpState,
  RiWcFlags,
  RiWcStatus,
  RiWcType,
  RiWrFlags,
} from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import type { Cq } from './cq.js';
import { AE_OF_FAULT, Fault } from './faults.js';
import type { Pd } from './pd.js';
import { iwarpTransition } from './qp-states.js';
import { Requester } from './requester.js';
import { Responder } from './responder.js';
import type { Rnic } from './rnic.js';
import type { Srq } from './srq.js';
import { bindLlp, type QpTransport } from './transport.js';
import { type InboundRead, type OrqEntry, RqWqe, type SqWqe, WqeState } from './wqe.js';
import { WR_TABLE } from './wr-table.js';

const log = logger('qp');

export const QP_STATE_NAMES: Record<number, string> = {
  [RiQpState.IDLE]: 'IDLE',
  [RiQpState.READY_TO_SEND]: 'RTS',
  [RiQpState.ERROR]: 'ERROR',
  [RiQpState.TERMINATE]: 'TERMINATE',
  [RiQpState.CLOSING]: 'CLOSING',
};

/** MPA attributes of a QP (RNICPI `ri_mpa_attr_t`). */
export interface MpaAttrs {
  recvMarkers: boolean;
  xmitMarkers: boolean;
  crc: boolean;
  /** DDP/RDMAP version: 1 = IETF (RFC 5040/5041), 0 = RDMAC. */
  ddpRdmapVersion: number;
}

/** A decoded Terminate message kept for Query QP (Verbs §6.4; RNICPI `terminate_buffer`). */
export interface TerminateInfo {
  layer: number;
  etype: number;
  ecode: number;
  /** The Terminate message as sent or received (at most 52 bytes, RNICPI §6.7). */
  bytes: Uint8Array;
  local: boolean;
  /** The neutral fault behind it, when the transport has no wire code of its own (loopback). */
  fault?: number;
}

/** The attributes a QP is created with, after validation by the provider. */
export interface QpInit {
  pd: Pd;
  scq: Cq;
  rcq: Cq;
  srq: Srq | null;
  sqSize: number;
  rqSize: number;
  sqMaxSges: number;
  sqMaxSgesRdmaw: number;
  rqMaxSges: number;
  enableRdmaRead: boolean;
  enableRdmaWrite: boolean;
  ord: number;
  ird: number;
  stag0Enabled: boolean;
  enableBind: boolean;
  rqHiwat: number;
  mpa: MpaAttrs;
  osData: unknown;
}

/** One Modify QP request (RNICPI `ri_qp_modify` after mask decoding). */
export interface QpModify {
  nextState?: RiQpState;
  sqSize?: number;
  rqSize?: number;
  ord?: number;
  ird?: number;
  rqHiwat?: number;
  rqArmed?: boolean;
  /** LLP stream handle: the connection to attach at Idle→RTS. */
  llp?: unknown;
  /** Last streaming-mode message to send before RDMA mode (active side). */
  streamMsg?: Uint8Array;
  mpa?: Partial<MpaAttrs>;
}

/** How long Terminate and Closing may last before the LLP is reset (Verbs §6.2.3). */
export const CLOSE_TIMEOUT_MS = 5_000;

export class Qp {
  state: RiQpState = RiQpState.IDLE;
  destroyed = false;
  readonly pd: Pd;
  readonly scq: Cq;
  readonly rcq: Cq;
  readonly srq: Srq | null;
  sqSize: number;
  rqSize: number;
  readonly sqMaxSges: number;
  readonly sqMaxSgesRdmaw: number;
  readonly rqMaxSges: number;
  readonly enableRdmaRead: boolean;
  readonly enableRdmaWrite: boolean;
  ord: number;
  ird: number;
  readonly stag0Enabled: boolean;
  /**
   * Inbound atomics enabled (IB `IBV_ACCESS_REMOTE_ATOMIC` in `qp_access_flags`). iWARP
   * Verbs have no such QP attribute, so it stays on there and the MR's right decides.
   */
  enableAtomic = true;
  /** Request Identifier of the next outbound atomic (RFC 7306 §5.1). */
  nextAtomicId = 1;
  readonly enableBind: boolean;
  rqHiwat: number;
  rqArmed: boolean;
  mpa: MpaAttrs;
  readonly osData: unknown;
  /** The stream handle given at Idle→RTS (returned by Query QP). */
  llpHandle: unknown = null;
  /** The attached transport while in RTS/Closing/Terminate. */
  transport: QpTransport | null = null;
  /** The Send Queue side: what goes out next (requester.ts). */
  readonly requester: Requester;
  /** The receive side: placement, matching, Read Requests (responder.ts). */
  readonly responder: Responder;
  terminate: TerminateInfo | null = null;
  /** MWs bound to this QP: Destroy QP is refused while any is (`WINDOWS_BOUND`). */
  boundWindows = 0;

  // ---- Send Queue: WQEs in seq order; `sq[0]` has seq `sqBase` ----
  /** Occupied SQ slots, oldest first (released on poll). */
  readonly sq: SqWqe[] = [];
  private sqBase = 0;
  /** Next SQ seq to assign. */
  private sqNextSeq = 0;
  /** Seq of the next WQE to start processing (tx). */
  sqProc = 0;
  /** Seq of the next WQE whose completion has not been generated. */
  private sqCompl = 0;

  // ---- Receive Queue ----
  readonly rq: RqWqe[] = [];
  private rqBase = 0;
  private rqNextSeq = 0;
  /** Seq of the next RQ WQE to consume for an inbound Send. */
  rqProc = 0;
  private rqCompl = 0;
  /** S-RQ WQEs taken by this QP and not yet completed (flushed on Error). */
  readonly srqTaken: RqWqe[] = [];
  /** S-RQ WQEs taken and whose completion is not yet polled (for `rq_hiwat`). */
  srqOutstanding = 0;

  /** Outbound RDMA Read Requests in flight, oldest first (at most ORD): the ORQ (Verbs §6.5). */
  readonly orq: OrqEntry[] = [];
  /** Inbound RDMA Read Requests not yet fully answered, oldest first (at most IRD). */
  readonly irq: InboundRead[] = [];

  /** A modify to Error/Idle is refused while flushing is in progress. */
  private flushing = false;
  private closeTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly rnic: Rnic,
    readonly id: number,
    init: QpInit,
  ) {
    this.pd = init.pd;
    this.scq = init.scq;
    this.rcq = init.rcq;
    this.srq = init.srq;
    this.sqSize = init.sqSize;
    this.rqSize = init.rqSize;
    this.sqMaxSges = init.sqMaxSges;
    this.sqMaxSgesRdmaw = init.sqMaxSgesRdmaw;
    this.rqMaxSges = init.rqMaxSges;
    this.enableRdmaRead = init.enableRdmaRead;
    this.enableRdmaWrite = init.enableRdmaWrite;
    this.ord = init.ord;
    this.ird = init.ird;
    this.stag0Enabled = init.stag0Enabled;
    this.enableBind = init.enableBind;
    this.rqHiwat = init.rqHiwat;
    this.rqArmed = init.srq !== null && init.rqHiwat > 0;
    this.mpa = { ...init.mpa };
    this.osData = init.osData;
    this.requester = new Requester(this);
    this.responder = new Responder(this);
  }

  // ------------------------------------------------------------------ state

  /** Changes state, logging old→new with the QP id. */
  setState(next: RiQpState, why: string): void {
    if (next === this.state) return;
    log('QP[%d] %s→%s (%s)', this.id, QP_STATE_NAMES[this.state], QP_STATE_NAMES[next], why);
    this.state = next;
  }

  get sqOccupied(): number {
    return this.sq.length;
  }
  get rqOccupied(): number {
    return this.rq.length;
  }
  /** Seq of the oldest SQ WQE that has not finished (its completion not generated). */
  get firstIncompleteSeq(): number {
    return this.sqCompl;
  }
  /** WQEs posted to the SQ and not yet finished. */
  get sqOutstanding(): number {
    return this.sqNextSeq - this.sqCompl;
  }
  sqAt(seq: number): SqWqe | undefined {
    return this.sq[seq - this.sqBase];
  }
  rqAt(seq: number): RqWqe | undefined {
    return this.rq[seq - this.rqBase];
  }
  /** True while a Remote RDMA Read Operation is in progress (Verbs §6.2 T6/T10). */
  get remoteReadInProgress(): boolean {
    return this.irq.length > 0;
  }

  /**
   * Modify QP (Verbs §9.2.2, RNICPI `ri_qp_modify`): validates the whole request first and
   * changes nothing unless every part is acceptable (all-or-nothing).
   */
  modify(m: QpModify): RiRet {
    const from = this.state;
    const to = m.nextState ?? from;
    const rnic = this.rnic;
    // The transition table (qp-states.ts): Closing and Terminate have no rows, so they refuse
    // every Modify; a modify naming no next state is checked as the from→from row.
    const rule = iwarpTransition(from, to, m.nextState !== undefined);
    if (!rule) return RiRet.QP_INVALID_STATE;
    const attrChange =
      m.sqSize !== undefined ||
      m.rqSize !== undefined ||
      m.ord !== undefined ||
      m.ird !== undefined ||
      m.rqHiwat !== undefined ||
      m.rqArmed !== undefined;
    // Attributes may change only where the row allows (Verbs §6.2 Figure 4/5).
    if (attrChange && !rule.attrs) return RiRet.QP_ATTRIBUTE_CANT_CHANGE;
    if ((m.llp !== undefined || m.streamMsg !== undefined) && !rule.llp) return RiRet.QP_ATTRIBUTE_CANT_CHANGE;
    // MPA attributes belong to the conversion: once in RDMA mode they are LL_BAD_STATE (RNICPI
    // ri_qp_modify, Ch. 6.1.4); they may be set again after Error→Idle.
    if (m.mpa !== undefined && from !== RiQpState.IDLE) return RiRet.LL_BAD_STATE;
    if (from === RiQpState.ERROR && to === RiQpState.IDLE && this.flushing) return RiRet.STILL_FLUSHING_WQES;
    // Queue resizing.
    if (m.sqSize !== undefined) {
      if (m.sqSize === 0) return RiRet.INVALID_PARAMETER;
      if (m.sqSize > rnic.limits.maxWrsQp) return RiRet.RNIC_WR_LIMIT_EXCEEDED;
      if (m.sqSize < this.sq.length) return RiRet.QP_CANNOT_SHRINK;
    }
    if (m.rqSize !== undefined) {
      if (this.srq) return RiRet.QP_ATTRIBUTE_CANT_CHANGE;
      if (m.rqSize === 0) return RiRet.INVALID_PARAMETER;
      if (m.rqSize > rnic.limits.maxWrsQp) return RiRet.RNIC_WR_LIMIT_EXCEEDED;
      if (m.rqSize < this.rq.length) return RiRet.QP_CANNOT_SHRINK;
    }
    if ((m.rqHiwat !== undefined || m.rqArmed !== undefined) && !this.srq) return RiRet.QP_ATTRIBUTE_CANT_CHANGE;
    if (m.rqHiwat !== undefined && this.srq && m.rqHiwat > this.srq.capacity) return RiRet.SRQ_LIMIT_OUT_OF_RANGE;
    if (m.ord !== undefined && m.ord > rnic.limits.maxOrdPerQp) return RiRet.RNIC_IRD_ORD_EXCEEDED;
    if (m.ird !== undefined && m.ird > rnic.limits.maxIrdPerQp) return RiRet.RNIC_IRD_ORD_EXCEEDED;
    if (m.mpa) {
      if (m.mpa.ddpRdmapVersion !== undefined && m.mpa.ddpRdmapVersion !== 1) return RiRet.INVALID_DDP_RDMAP_VERSION;
      if ((m.mpa.recvMarkers || m.mpa.xmitMarkers) && !rnic.config.markers) return RiRet.MPA_ATTR_UNSUPPORTED;
    }
    let transport: QpTransport | null = null;
    if (rule.llp) {
      if (m.llp === undefined || m.llp === null) return RiRet.INVALID_LL_HANDLE;
      // Each transport recognises its own handles (transport.ts); none: not an LLP handle.
      const made = bindLlp(this, m.llp, { ...this.mpa, ...m.mpa }) ?? RiRet.INVALID_LL_HANDLE;
      if (typeof made === 'number') return made;
      transport = made;
    }
    // ---- every check passed: apply ----
    if (m.sqSize !== undefined) this.sqSize = m.sqSize;
    if (m.rqSize !== undefined) this.rqSize = m.rqSize;
    if (m.ord !== undefined) this.ord = m.ord;
    if (m.ird !== undefined) this.ird = m.ird;
    if (m.rqHiwat !== undefined) {
      this.rqHiwat = m.rqHiwat;
      this.rqArmed = true;
    }
    if (m.rqArmed !== undefined) this.rqArmed = m.rqArmed;
    if (m.mpa) this.mpa = { ...this.mpa, ...m.mpa };
    if (from === to) return RiRet.SUCCESS;
    switch (to) {
      case RiQpState.READY_TO_SEND:
        this.toRts(transport!, m.llp, m.streamMsg ?? null);
        break;
      case RiQpState.ERROR:
        // RTS→Error is the abortive teardown: LLP reset, no Terminate (Verbs §6.2 T12).
        this.toError('modify', null);
        break;
      case RiQpState.CLOSING:
        this.startGracefulClose();
        break;
      case RiQpState.TERMINATE:
        // ULP-initiated termination: Terminate with RDMAP Local Catastrophic (Verbs §6.2 T8).
        this.terminateWith(Fault.LOCAL_CATASTROPHIC, null);
        break;
      case RiQpState.IDLE:
        this.setState(RiQpState.IDLE, 'modify');
        this.terminate = null;
        this.llpHandle = null;
        break;
    }
    return RiRet.SUCCESS;
  }

  private toRts(t: QpTransport, handle: unknown, streamMsg: Uint8Array | null): void {
    this.llpHandle = handle;
    this.transport = t;
    this.responder.reset();
    this.setState(RiQpState.READY_TO_SEND, 'modify');
    t.start(streamMsg);
    this.kick();
  }

  /** Asks the transmit path to make progress (called after posts and state changes). */
  kick(): void {
    if (this.state === RiQpState.READY_TO_SEND && this.transport) this.transport.kick();
  }

  /** Detaches and returns the transport (the QP no longer hears from its LLP). */
  private takeTransport(): QpTransport | null {
    const t = this.transport;
    this.transport = null;
    return t;
  }

  /**
   * Graceful close requested by the Consumer (RTS→Closing, Verbs §6.2 T6): flush the RQ and
   * send a FIN. With SQ work or a remote Read in progress this is a bad close.
   */
  private startGracefulClose(): void {
    this.setState(RiQpState.CLOSING, 'modify');
    this.flushRq();
    if (this.sqOutstanding > 0 || this.remoteReadInProgress) {
      this.badClose();
      return;
    }
    this.armCloseTimer();
    this.transport?.closeGraceful();
  }

  /** The peer sent a FIN (Verbs §6.2 T7 / T10). */
  onLlpFin(): void {
    if (this.state === RiQpState.READY_TO_SEND) {
      if (this.sqOutstanding > 0 || this.remoteReadInProgress) {
        // Bad LLP Close: Terminate with "catastrophic error local to the RDMAP stream"
        // (0x0207), AE "Bad LLP Close" (Verbs §7.3).
        this.rnic.asyncEvent(RiAsyncEventType.QP_BAD_LLQ_CLOSE, this);
        this.terminateWith(Fault.STREAM_CATASTROPHIC, null);
        return;
      }
      this.setState(RiQpState.CLOSING, 'peer FIN');
      this.flushRq();
      this.armCloseTimer();
      this.transport?.closeGraceful();
      return;
    }
    // In Terminate the FIN is part of the close we asked for: the close path finishes it.
  }

  /** The LLP finished closing (both FINs, socket closed) without error. */
  onLlpClosed(): void {
    this.clearCloseTimer();
    this.takeTransport()?.detach();
    if (this.state === RiQpState.CLOSING) {
      this.setState(RiQpState.IDLE, 'LLP close complete');
      this.llpHandle = null;
      this.rnic.asyncEvent(RiAsyncEventType.QP_LLQ_CLOSE_COMPLETE, this);
    } else if (this.state === RiQpState.TERMINATE) {
      this.toError('LLP closed after Terminate', null);
    } else if (this.state === RiQpState.READY_TO_SEND) {
      this.onLlpReset(false);
    }
  }

  /** The LLP was reset or lost (Verbs §6.2 T13/T15/T16). */
  onLlpReset(lost: boolean): void {
    this.clearCloseTimer();
    this.takeTransport()?.detach();
    const from = this.state;
    if (from === RiQpState.READY_TO_SEND) {
      this.toError(lost ? 'LLP lost' : 'LLP reset', null);
      this.rnic.asyncEvent(
        lost ? RiAsyncEventType.QP_LLQ_CONNECTION_LOST : RiAsyncEventType.QP_LLQ_CONNECTION_RESET,
        this,
      );
    } else if (from === RiQpState.CLOSING) {
      this.toError('LLP failure while closing', null);
      this.rnic.asyncEvent(RiAsyncEventType.QP_LLQ_CONNECTION_LOST, this);
    } else if (from === RiQpState.TERMINATE) {
      this.toError('LLP reset after Terminate', null);
    }
  }

  /** Bad Close while Closing (Verbs §6.2 T15): reset, then Error, then the AE. */
  badClose(): void {
    const t = this.takeTransport();
    this.clearCloseTimer();
    t?.reset();
    this.toError('bad close', null);
    this.rnic.asyncEvent(RiAsyncEventType.QP_BAD_CLOSE, this);
  }

  armCloseTimer(): void {
    this.clearCloseTimer();
    this.closeTimer = setTimeout(() => {
      this.closeTimer = null;
      log('QP[%d] close timeout in %s: resetting the LLP', this.id, QP_STATE_NAMES[this.state]);
      this.takeTransport()?.reset();
      if (this.state === RiQpState.CLOSING) {
        this.toError('close timeout', null);
        this.rnic.asyncEvent(RiAsyncEventType.QP_LLQ_CONNECTION_LOST, this);
      } else if (this.state === RiQpState.TERMINATE) {
        this.toError('terminate timeout', null);
      }
    }, CLOSE_TIMEOUT_MS);
    this.closeTimer.unref?.();
  }

  private clearCloseTimer(): void {
    if (this.closeTimer) {
      clearTimeout(this.closeTimer);
      this.closeTimer = null;
    }
  }

  /**
   * Enters Error: the LLP (if any) is reset, then every incomplete WQE on the SQ and RQ is
   * flushed in order, except the one that caused the error, which has already been given
   * its status (Verbs §6.2 Error state).
   */
  toError(why: string, _cause: SqWqe | null): void {
    this.clearCloseTimer();
    this.takeTransport()?.reset();
    this.setState(RiQpState.ERROR, why);
    this.flushAll();
    // A QP on an S-RQ reports that no further WQE of the S-RQ will be consumed for it
    // (IBTA Vol. 1 §11.6.3.2 "Last WQE Reached"; RNICPI `RI_RNIC_SRQ_LAST_WQE_ASYNC`), as Linux
    // siw and rxe raise it on entering Error.
    if (this.srq) this.rnic.asyncEvent(RiAsyncEventType.QP_LAST_WQE_REACHED, this);
  }

  // ------------------------------------------------------------------ posting

  /** Allocates the next SQ WQE sequence number. Caller has checked capacity. */
  nextSqSeq(): number {
    return this.sqNextSeq++;
  }
  nextRqSeq(): number {
    return this.rqNextSeq++;
  }

  /** Queues a validated SQ WQE and makes progress according to the state. */
  enqueueSq(w: SqWqe): void {
    this.sq.push(w);
    switch (this.state) {
      case RiQpState.READY_TO_SEND:
        this.kick();
        break;
      case RiQpState.ERROR:
        this.flushAll();
        break;
      case RiQpState.CLOSING:
        // An SQ WQE at any time during Closing makes the close a bad one (Verbs §6.2 T15).
        this.badClose();
        break;
      default:
        // Idle: accepted and queued, never processed; Terminate: flushed on entering Error.
        break;
    }
  }

  enqueueRq(w: RqWqe): void {
    this.rq.push(w);
    if (this.state === RiQpState.ERROR || this.state === RiQpState.CLOSING) this.flushRq();
  }

  // ------------------------------------------------------------------ completion

  /**
   * Generates SQ completions in post order for every finished WQE at the completion head.
   * Unsignaled successes produce no WC (Verbs §8.1.3.1).
   */
  completeSqInOrder(): void {
    for (;;) {
      const w = this.sqAt(this.sqCompl);
      if (!w || w.state !== WqeState.DONE) return;
      this.sqCompl++;
      const signaled = (w.flags & RiWrFlags.SIGNALED_FLAG) !== 0;
      if (signaled || w.status !== RiWcStatus.SUCCESS) this.pushSqWc(w);
    }
  }

  private pushSqWc(w: SqWqe): void {
    // Nothing completes after Destroy QP returned (RNICPI ri_qp_destroy), e.g. a late write callback.
    if (this.destroyed) return;
    const cq = this.scq;
    const wc = this.rnic.makeWc(this);
    wc.op_type = WR_TABLE[w.type]?.wcType ?? RiWcType.SEND;
    wc.id = w.id;
    wc.op_status = w.status;
    wc.bytes_transferred = w.status === RiWcStatus.SUCCESS ? w.totalLen : 0;
    let flags = 0;
    if (w.flags & RiWrFlags.LOCAL_SOLICITED_FLAG) flags |= RiWcFlags.LOCAL_SOLICITED;
    if (w.flags & RiWrFlags.CONSUMER_FLAG0) flags |= RiWcFlags.CONSUMER0;
    if (w.flags & RiWrFlags.CONSUMER_FLAG1) flags |= RiWcFlags.CONSUMER1;
    wc.flags = flags;
    const solicited = (w.flags & RiWrFlags.LOCAL_SOLICITED_FLAG) !== 0 && (w.flags & RiWrFlags.SIGNALED_FLAG) !== 0;
    if (!cq.push(wc, this, true, w.seq, solicited)) this.cqOverflow(true);
  }

  /**
   * Completes an RQ (or S-RQ) WQE with a WC on the receive CQ. `opType` is DATA_RECEIVED, or
   * RDMA_IMMEDIATE_RECEIVED for the receive an RDMA Write with Immediate consumed; `imm` is
   * reported when `wcFlags` has IMMEDIATE_DATA.
   */
  pushRqWc(w: RqWqe, status: number, bytes: number, wcFlags: number, invalidated: number, opType = RiWcType.DATA_RECEIVED, imm = 0): void {
    if (this.destroyed) return;
    const wc = this.rnic.makeWc(this);
    wc.op_type = opType;
    wc.immediate_data = imm;
    wc.id = w.id;
    wc.op_status = status;
    wc.bytes_transferred = bytes;
    wc.flags = wcFlags;
    wc.invalidated_rtag = invalidated;
    const solicited = (wcFlags & RiWcFlags.SOLICITED_EVENT) !== 0;
    if (!this.rcq.push(wc, this, false, this.srq ? -1 : w.seq, solicited)) this.cqOverflow(false);
  }

  /** Called by the CQ when the Consumer polls a WC of this QP: releases queue slots. */
  onCompletionPolled(sq: boolean, seq: number): void {
    if (sq) {
      while (this.sq.length > 0 && this.sqBase <= seq) {
        this.sq.shift();
        this.sqBase++;
      }
    } else if (seq >= 0) {
      while (this.rq.length > 0 && this.rqBase <= seq) {
        this.rq.shift();
        this.rqBase++;
      }
    } else if (this.srqOutstanding > 0) {
      this.srqOutstanding--;
      // The S-RQ slot of that WQE is free again (Verbs §8.1.3.1, §10 Q-S5).
      if (this.srq) this.srq.inFlight--;
    }
  }

  /** A completion could not be queued: the CQ overflowed (Verbs §7.3 CQ/SQ, CQ/RQ error). */
  private cqOverflow(sq: boolean): void {
    if (this.state === RiQpState.ERROR) return;
    this.rnic.asyncEvent(sq ? RiAsyncEventType.QP_CQ_SQ_ERROR : RiAsyncEventType.QP_CQ_RQ_ERROR, this);
    if (this.state === RiQpState.READY_TO_SEND) {
      this.terminateWith(Fault.STREAM_CATASTROPHIC, null);
    } else {
      this.toError('CQ overflow', null);
    }
  }

  /** Marks a WQE finished with `status` and generates completions in order. */
  finishSq(w: SqWqe, status: number): void {
    w.status = status;
    w.state = WqeState.DONE;
    this.completeSqInOrder();
  }

  /** Flushes every incomplete SQ and RQ WQE (status WR_FLUSHED_ERROR), in order. */
  flushAll(): void {
    if (this.flushing) return;
    this.flushing = true;
    try {
      this.orq.length = 0;
      this.irq.length = 0;
      for (let s = this.sqCompl; s < this.sqNextSeq; s++) {
        const w = this.sqAt(s)!;
        if (w.state !== WqeState.DONE) {
          w.status = RiWcStatus.WR_FLUSHED_ERROR;
          w.state = WqeState.DONE;
        }
      }
      this.sqProc = this.sqNextSeq;
      this.completeSqInOrder();
      this.flushRq();
    } finally {
      this.flushing = false;
    }
  }

  /** Flushes the RQ (or the S-RQ WQEs this QP had taken). */
  flushRq(): void {
    for (const w of this.srqTaken.splice(0)) this.pushRqWc(w, RiWcStatus.WR_FLUSHED_ERROR, 0, 0, 0);
    while (this.rqCompl < this.rqNextSeq) {
      const w = this.rqAt(this.rqCompl)!;
      this.rqCompl++;
      this.pushRqWc(w, RiWcStatus.WR_FLUSHED_ERROR, 0, 0, 0);
    }
    this.rqProc = this.rqNextSeq;
  }

  /** Takes the next receive WQE for an inbound untagged Send (RQ or S-RQ). */
  takeRecv(): RqWqe | undefined {
    if (this.srq) {
      const w = this.srq.shift();
      if (!w) return undefined;
      this.srqTaken.push(w);
      this.srqOutstanding++;
      this.srq.inFlight++;
      // rq_hiwat: the event fires when this QP's outstanding S-RQ WQEs reach the mark;
      // a mark of 0 set by modify means "the first S-RQ WQE consumed" (RNICPI §6.7).
      if (this.rqArmed && this.srqOutstanding >= Math.max(1, this.rqHiwat)) {
        this.rqArmed = false;
        this.rnic.asyncEvent(RiAsyncEventType.QP_RQ_LIMIT_REACHED, this);
      }
      return w;
    }
    const w = this.rqAt(this.rqProc);
    if (!w) return undefined;
    this.rqProc++;
    return w;
  }

  /** Completes the receive WQE consumed first and not yet completed (RQ order). */
  completeRecv(w: RqWqe, status: number, bytes: number, wcFlags: number, invalidated: number, opType = RiWcType.DATA_RECEIVED, imm = 0): void {
    if (this.srq) {
      const i = this.srqTaken.indexOf(w);
      if (i >= 0) this.srqTaken.splice(i, 1);
      // `srqOutstanding` drops only when this WC is polled (onCompletionPolled).
      this.pushRqWc(w, status, bytes, wcFlags, invalidated, opType, imm);
      return;
    }
    this.rqCompl++;
    this.pushRqWc(w, status, bytes, wcFlags, invalidated, opType, imm);
  }

  /**
   * Stops the QP for a protocol or local error and has the transport send its wire error
   * (iWARP: the Terminate message): the single place where that is decided (RDMA Protocol
   * Verbs §6.4, RFC 5040 §7). Only the first error is recorded; later ones while already
   * terminating are ignored.
   *
   * `err` is a neutral {@link Fault} or the transport's own error object; `copied` carries
   * the offending segment's headers for errors found on inbound segments (Verbs §6.4 rule 8),
   * in the transport's form.
   */
  terminateWith(err: Fault | object, copied: unknown): void {
    if (this.state !== RiQpState.READY_TO_SEND) return;
    const t = this.transport;
    if (!t) {
      this.setState(RiQpState.TERMINATE, 'terminate');
      this.toError('terminate without LLP', null);
      return;
    }
    const info = t.sendFatal(err, copied);
    this.setState(RiQpState.TERMINATE, `terminate ${info.layer}/${info.etype}/${info.ecode}`);
    this.terminate = info;
    this.armCloseTimer();
    t.closeGraceful();
  }

  /**
   * An inbound operation broke a rule the core checks (responder.ts): the affiliated event of
   * the fault (Verbs §7.3), then the transport's wire error.
   */
  remoteFault(f: Fault, copied: unknown): void {
    if (this.state !== RiQpState.READY_TO_SEND) return;
    const ae = AE_OF_FAULT[f];
    if (ae !== undefined) this.rnic.asyncEvent(ae, this);
    this.terminateWith(f, copied);
  }

  /** A Terminate message arrived (Verbs §6.2 T11): no Terminate goes back. */
  onTerminateReceived(info: TerminateInfo): void {
    if (this.state !== RiQpState.READY_TO_SEND && this.state !== RiQpState.CLOSING) return;
    this.terminate = info;
    // The peer refused our atomic: it completes with the status of the peer's fault.
    this.requester.atomicRefused(info.fault);
    if (this.state === RiQpState.CLOSING) {
      // While Closing a Terminate gives a reset and Bad Close (Verbs §6.2 T15).
      this.badClose();
      return;
    }
    this.setState(RiQpState.TERMINATE, 'Terminate received');
    this.rnic.asyncEvent(RiAsyncEventType.QP_TERMINATE_MESSAGE_RECEIVED, this);
    this.armCloseTimer();
    this.transport?.closeGraceful();
  }

  /** Destroy QP (Verbs §9.2.4): stops everything; no more completions or events after. */
  destroy(): void {
    this.destroyed = true;
    // S-RQ WQEs this QP took and whose completions will never be polled free their slots.
    if (this.srq) this.srq.inFlight -= this.srqOutstanding;
    this.srqOutstanding = 0;
    this.clearCloseTimer();
    this.takeTransport()?.reset();
    this.orq.length = 0;
    this.irq.length = 0;
  }
}

export { RqWqe };

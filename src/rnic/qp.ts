/**
 * Queue Pairs: the iWARP and InfiniBand QP state machines, the Send and Receive Queues,
 * posting, flushing and in-order completion (RDMA Protocol Verbs §6.2, §8; RNICPI §5.4–5.6;
 * IBTA Vol. 1 §10.3, §11.2.4).
 *
 * iWARP states are Idle, RTS, Closing, Terminate and Error (Verbs §6.2). The QPs of an
 * InfiniBand (RoCEv2) RNIC have the IB states Reset, INIT, RTR, RTS, SQD, SQE and Error, held as
 * RNICPI's IB members of `ri_qp_state_t`, and the IB attributes ({@link IbQpAttrs}). The Consumer
 * moves a QP only through {@link Qp.modify}, which reads the transition tables of qp-states.ts;
 * the LLP (the attached {@link QpTransport}) and error detection move it through the automatic
 * transitions. Every transition is logged `QP[n] A→B`.
 *
 * The QP owns its {@link Requester} (the SQ side), its {@link Responder} (the peer's requests)
 * and its {@link Completer} (the responses to its own Reads and atomics);
 * a transport attached at Idle→RTS carries their work on a wire.
 *
 * Send Queue completions are generated strictly in post order (Verbs §8.2.2 rule 2): a WQE
 * that finishes early (a Send behind an outstanding RDMA Read) waits for its predecessors.
 * A queue slot is released only when the Consumer polls the completion that covers it
 * (Verbs §8.1.3.1): a signaled WR's own WC, or for unsignaled WRs the WC of a later
 * signaled WR on the same queue.
 */
import { RiRet } from '../rnicpi/status.js';
import { RiAsyncEventType, RiQpState, RiWcFlags, RiWcStatus, RiWcType, RiWrFlags } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import { GSI_QKEY } from '../wire/ib/mad.js';
import type { Cq } from './cq.js';
import { AE_OF_FAULT, Fault, UNDISCLOSED_FAULT, type WireError, wireErrorText } from './faults.js';
import type { Pd } from './pd.js';
import { Completer } from './completer.js';
import { type IbModify, modifyIb, newIbAttrs } from './qp-ib.js';
import { llpClosed, llpFin, llpReset, modifyIwarp } from './qp-iwarp.js';
import { type IbService, QP_STATE_NAMES } from './qp-states.js';
import { Requester } from './requester.js';
import { Responder } from './responder.js';
import type { Rnic } from './rnic.js';
import type { Srq } from './srq.js';
import type { IbQpAttrs, QpTransport } from './transport.js';
import { type InboundRead, type OrqEntry, RqWqe, type SqWqe, WqeState } from './wqe.js';
import { WR_TABLE } from './wr-table.js';

const log = logger('qp');

/**
 * A QP's attributes of its lower-layer protocol, opaque to the core (iWARP: the MPA attributes,
 * RNICPI `ri_mpa_attr_t`, validated and read by the iWARP transport). The core stores them for
 * Query QP and hands them to the transport that binds the LLP handle at Idle→RTS.
 */
export type LlpAttrs = Readonly<Record<string, boolean | number>>;

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
  /** The LLP attributes (iWARP: MPA), if any were given. */
  llpAttrs?: LlpAttrs;
  osData: unknown;
  /** InfiniBand RNICs: the service type (IBTA Vol. 1 §9.8.1); iWARP QPs are RC and omit it. */
  service?: IbService;
  /**
   * InfiniBand RNICs: a special QP (RNICPI `ri_special_qp_get`). `'GSI'` is QP1 of the port, a
   * UD QP whose Q_Key is fixed at 0x80010000 (IBTA Vol. 1 §3.5.2, §10.2.5, §13.5.1).
   */
  special?: 'GSI';
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
  /** LLP attributes to merge (iWARP: MPA), in Idle only. */
  llpAttrs?: LlpAttrs;
  /** InfiniBand QPs only: the IB attributes (`ord` is max_rd_atomic, `ird` max_dest_rd_atomic). */
  ib?: IbModify;
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
  /** Remote Read/Write enables: fixed at create on iWARP, the access flags of a Modify on IB. */
  enableRdmaRead: boolean;
  enableRdmaWrite: boolean;
  ord: number;
  ird: number;
  readonly stag0Enabled: boolean;
  /**
   * Inbound atomics enabled (IB `IBV_ACCESS_REMOTE_ATOMIC` in `qp_access_flags`, set by the
   * access flags of Reset→INIT and later Modifies; IBTA Vol. 1 §10.2.5). iWARP Verbs have no
   * such QP attribute, so it stays on there and the MR's right decides.
   */
  enableAtomic = true;
  /** Request Identifier of the next outbound atomic (RFC 7306 §5.1). */
  nextAtomicId = 1;
  readonly enableBind: boolean;
  rqHiwat: number;
  rqArmed: boolean;
  llpAttrs: LlpAttrs;
  readonly osData: unknown;
  /** The stream handle given at Idle→RTS (returned by Query QP). */
  llpHandle: unknown = null;
  /** The attached transport while in RTS/Closing/Terminate. */
  transport: QpTransport | null = null;
  /** The Send Queue side: what goes out next (requester.ts). */
  readonly requester: Requester;
  /** The receive side for the peer's requests: placement, matching, Read Requests (responder.ts). */
  readonly responder: Responder;
  /** The receive side for responses to this QP's Reads and atomics (completer.ts). */
  readonly completer: Completer;
  /** The wire error this QP sent or received, kept for Query QP (Verbs §6.4; RNICPI `terminate_buffer`). */
  terminate: WireError | null = null;
  /** MWs bound to this QP: Destroy QP is refused while any is (`WINDOWS_BOUND`). */
  boundWindows = 0;
  /**
   * UD QPs: the multicast groups the QP is attached to, by MGID (hex) (IBTA Vol. 1 §10.5;
   * Destroy QP is refused while any is: RNICPI `MULTICAST_ATTACHED`).
   */
  get mcast(): Map<string, Uint8Array> {
    return (this.#mcastGroups ??= new Map());
  }
  /** Made on the first attach: most QPs are never attached to a group. */
  #mcastGroups: Map<string, Uint8Array> | null = null;
  /** Whether the QP is attached to any multicast group, without making the map. */
  get mcastAttached(): boolean {
    return this.#mcastGroups !== null && this.#mcastGroups.size > 0;
  }
  /** The QP uses the InfiniBand state set (an RNIC whose transport is RoCEv2). */
  readonly isIb: boolean;
  /** The IB service type (iWARP QPs: RC). */
  readonly service: IbService;
  /** IB: Communication Established was raised since the last RTR (once per connection). */
  commEstablished = false;
  /**
   * IB attributes (IBTA Vol. 1 §11.2.4.2), read by the transport; defaults on iWARP QPs. Made
   * on first use, so an iWARP QP, which never reads them on its data path, does not carry them.
   */
  get ib(): IbQpAttrs {
    return (this.#ibAttrs ??= newIbAttrs(this.service));
  }
  set ib(a: IbQpAttrs) {
    this.#ibAttrs = a;
  }
  #ibAttrs: IbQpAttrs | null = null;
  /** A special QP (QP1, the GSI), or undefined for an ordinary one. */
  readonly special: 'GSI' | undefined;

  // ---- Send Queue: WQEs in seq order; `sq[0]` has seq `sqBase` ----
  /** Occupied SQ slots, oldest first (released on poll). */
  readonly sq: SqWqe[] = [];
  #sqBase = 0;
  /** Next SQ seq to assign. */
  #sqNextSeq = 0;
  /** Seq of the next WQE to start processing (tx). */
  sqProc = 0;
  /**
   * Sequence number of the last local memory operation (Bind, Fast-Register, Invalidate)
   * posted; while it is not processed yet (`>= sqProc`), later WRs' SGEs are checked at
   * execution only (post.ts).
   */
  lastLocalOpSeq = -1;
  /** Seq of the next WQE whose completion has not been generated. */
  #sqCompl = 0;

  // ---- Receive Queue ----
  readonly rq: RqWqe[] = [];
  #rqBase = 0;
  #rqNextSeq = 0;
  /** Seq of the next RQ WQE to consume for an inbound Send. */
  rqProc = 0;
  #rqCompl = 0;
  /** S-RQ WQEs taken by this QP and not yet completed (flushed on Error). */
  readonly srqTaken: RqWqe[] = [];
  /** S-RQ WQEs taken and whose completion is not yet polled (for `rq_hiwat`). */
  srqOutstanding = 0;

  /** Outbound RDMA Read Requests in flight, oldest first (at most ORD): the ORQ (Verbs §6.5). */
  readonly orq: OrqEntry[] = [];
  /** Inbound RDMA Read Requests not yet fully answered, oldest first (at most IRD). */
  readonly irq: InboundRead[] = [];

  /** A modify to Error/Idle (Reset) is refused while flushing is in progress. */
  flushing = false;
  #closeTimer: NodeJS.Timeout | null = null;

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
    this.llpAttrs = { ...init.llpAttrs };
    this.osData = init.osData;
    this.isIb = rnic.isIb;
    this.service = init.service ?? 'RC';
    this.special = init.special;
    // QP1's Q_Key is the well-known GSI Q_Key from the start (IBTA Vol. 1 §10.2.5).
    if (this.special === 'GSI') this.ib.qkey = GSI_QKEY;
    // IB: the remote access enables are the access flags given at Reset→INIT (IBTA Vol. 1 §11.2.4.2).
    if (this.isIb) {
      this.enableRdmaRead = false;
      this.enableRdmaWrite = false;
      this.enableAtomic = false;
    }
    this.requester = new Requester(this);
    this.responder = new Responder(this);
    this.completer = new Completer(this);
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
    return this.#sqCompl;
  }
  /** WQEs posted to the SQ and not yet finished. */
  get sqOutstanding(): number {
    return this.#sqNextSeq - this.#sqCompl;
  }
  sqAt(seq: number): SqWqe | undefined {
    return this.sq[seq - this.#sqBase];
  }
  rqAt(seq: number): RqWqe | undefined {
    return this.rq[seq - this.#rqBase];
  }
  /** True while a Remote RDMA Read Operation is in progress (Verbs §6.2 T6/T10). */
  get remoteReadInProgress(): boolean {
    return this.irq.length > 0;
  }

  /**
   * Modify QP (Verbs §9.2.2, RNICPI `ri_qp_modify`): validates the whole request first and
   * changes nothing unless every part is acceptable (all-or-nothing); the rules are
   * qp-iwarp.ts's (`modifyIwarp`) and qp-ib.ts's (`modifyIb`).
   */
  modify(m: QpModify): RiRet {
    return this.isIb ? modifyIb(this, m) : modifyIwarp(this, m);
  }

  /**
   * The queue sizes of a Modify (Verbs §9.2.2; IBTA `IBV_QP_CAP`): not 0 (`integers`: whole
   * numbers only, as the IB Modify checks them), within the RNIC's limit, not below what is
   * queued; a QP on an S-RQ has no RQ to resize.
   */
  checkResize(m: QpModify, integers: boolean): RiRet {
    const max = this.rnic.limits.maxWrsQp;
    if (m.sqSize !== undefined) {
      if ((integers && !Number.isInteger(m.sqSize)) || m.sqSize === 0) return RiRet.INVALID_PARAMETER;
      if (m.sqSize > max) return RiRet.RNIC_WR_LIMIT_EXCEEDED;
      if (m.sqSize < this.sq.length) return RiRet.QP_CANNOT_SHRINK;
    }
    if (m.rqSize === undefined) return RiRet.SUCCESS;
    if (this.srq) return RiRet.QP_ATTRIBUTE_CANT_CHANGE;
    if ((integers && !Number.isInteger(m.rqSize)) || m.rqSize === 0) return RiRet.INVALID_PARAMETER;
    if (m.rqSize > max) return RiRet.RNIC_WR_LIMIT_EXCEEDED;
    return m.rqSize < this.rq.length ? RiRet.QP_CANNOT_SHRINK : RiRet.SUCCESS;
  }

  /**
   * A packet reached the responder. In RTR that is the Communication Established event
   * (IBTA Vol. 1 §11.6.3.1: the first packet a QP receives in RTR); the QP stays in RTR.
   */
  received(): void {
    if (this.state === RiQpState.READY_TO_RECEIVE && !this.commEstablished) {
      this.commEstablished = true;
      this.rnic.asyncEvent(RiAsyncEventType.QP_COMMUNICATION_ESTABLISHED, this);
    }
  }

  /** SQD: once every WQE that had started is complete, Draining becomes Drained (IBTA Vol. 1 §10.3.1.5). */
  checkDrained(): void {
    if (this.state !== RiQpState.SEND_QUEUE_DRAINING) return;
    if (this.#sqCompl < this.sqProc) return;
    const head = this.sqAt(this.sqProc);
    if (head && head.state !== WqeState.QUEUED) return;
    this.setState(RiQpState.SEND_QUEUE_DRAINED, 'send queue drained');
    if (this.ib.sqdNotify) this.rnic.asyncEvent(RiAsyncEventType.QP_SEND_QUEUE_DRAINED, this);
  }

  /**
   * The transport may transmit: iWARP in RTS; IB in RTR (responses only), RTS and SQD (responses
   * and the WQEs that had started: IBTA Vol. 1 §10.3.1.5).
   */
  get canTransmit(): boolean {
    const s = this.state;
    if (s === RiQpState.READY_TO_SEND) return true;
    return this.isIb && (s === RiQpState.READY_TO_RECEIVE || s === RiQpState.SEND_QUEUE_DRAINING || s === RiQpState.SEND_QUEUE_DRAINED);
  }

  /** The QP is connected and processing (iWARP RTS; IB RTR, RTS, SQD, SQE). */
  get live(): boolean {
    return this.canTransmit || (this.isIb && this.state === RiQpState.SEND_QUEUE_ERROR);
  }

  /** May the SQ WQE `w` at the head be processed now? New WQEs start only in RTS. */
  sqMayRun(w: SqWqe): boolean {
    if (this.state === RiQpState.READY_TO_SEND) return true;
    return this.state === RiQpState.SEND_QUEUE_DRAINING && w.state !== WqeState.QUEUED;
  }

  /**
   * An unreliable (UC, UD) QP's send side failed locally: the Send Queue Error state, where the
   * failed WQE has its status, every later SQ WQE is flushed, and receiving goes on (IBTA Vol. 1
   * §10.3.1.7). RC QPs go to Error instead.
   */
  toSqe(why: string): void {
    this.setState(RiQpState.SEND_QUEUE_ERROR, why);
    this.flushSq();
  }

  toRts(t: QpTransport, handle: unknown, streamMsg: Uint8Array | null): void {
    this.llpHandle = handle;
    this.transport = t;
    this.responder.reset();
    this.setState(RiQpState.READY_TO_SEND, 'modify');
    t.start(streamMsg);
    this.kick();
  }

  /** Asks the transmit path to make progress (called after posts and state changes). */
  kick(): void {
    if (this.canTransmit && this.transport) this.transport.kick();
  }

  /** Detaches and returns the transport (the QP no longer hears from its LLP). */
  takeTransport(): QpTransport | null {
    const t = this.transport;
    this.transport = null;
    return t;
  }

  /**
   * Graceful close requested by the Consumer (RTS→Closing, Verbs §6.2 T6): flush the RQ and
   * send a FIN. With SQ work or a remote Read in progress this is a bad close.
   */
  startGracefulClose(): void {
    this.setState(RiQpState.CLOSING, 'modify');
    this.flushRq();
    if (this.sqOutstanding > 0 || this.remoteReadInProgress) {
      this.badClose();
      return;
    }
    this.armCloseTimer();
    this.transport?.closeGraceful();
  }

  /** The peer sent a FIN (Verbs §6.2 T7 / T10; qp-iwarp.ts `llpFin`). */
  onLlpFin(): void {
    llpFin(this);
  }

  /** The LLP finished closing (both FINs, socket closed) without error (qp-iwarp.ts `llpClosed`). */
  onLlpClosed(): void {
    llpClosed(this);
  }

  /** The LLP was reset or lost (Verbs §6.2 T13/T15/T16; qp-iwarp.ts `llpReset`). */
  onLlpReset(lost: boolean): void {
    llpReset(this, lost);
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
    this.#closeTimer = setTimeout(() => {
      this.#closeTimer = null;
      log('QP[%d] close timeout in %s: resetting the LLP', this.id, QP_STATE_NAMES[this.state]);
      this.takeTransport()?.reset();
      if (this.state === RiQpState.CLOSING) {
        this.toError('close timeout', null);
        this.rnic.asyncEvent(RiAsyncEventType.QP_LLQ_CONNECTION_LOST, this);
      } else if (this.state === RiQpState.TERMINATE) {
        this.toError('terminate timeout', null);
      }
    }, CLOSE_TIMEOUT_MS);
    this.#closeTimer.unref?.();
  }

  clearCloseTimer(): void {
    if (this.#closeTimer) {
      clearTimeout(this.#closeTimer);
      this.#closeTimer = null;
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
    return this.#sqNextSeq++;
  }
  nextRqSeq(): number {
    return this.#rqNextSeq++;
  }

  /** Queues a validated SQ WQE and makes progress according to the state. */
  enqueueSq(w: SqWqe): void {
    this.sq.push(w);
    if (this.state === RiQpState.SEND_QUEUE_ERROR) {
      // Work posted in SQE is flushed (IBTA Vol. 1 §10.3.1.7).
      this.flushSq();
      return;
    }
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
      const w = this.sqAt(this.#sqCompl);
      if (!w || w.state !== WqeState.DONE) return;
      this.#sqCompl++;
      const signaled = (w.flags & RiWrFlags.SIGNALED_FLAG) !== 0;
      if (signaled || w.status !== RiWcStatus.SUCCESS) this.#pushSqWc(w);
      if (this.state === RiQpState.SEND_QUEUE_DRAINING) this.checkDrained();
    }
  }

  #pushSqWc(w: SqWqe): void {
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
    if (!cq.push(wc, this, true, w.seq, solicited)) this.#cqOverflow(true);
  }

  /**
   * Completes an RQ (or S-RQ) WQE with a WC on the receive CQ. `opType` is DATA_RECEIVED, or
   * RDMA_IMMEDIATE_RECEIVED for the receive an RDMA Write with Immediate consumed; `imm` is
   * reported when `wcFlags` has IMMEDIATE_DATA.
   */
  pushRqWc(
    w: RqWqe,
    status: number,
    bytes: number,
    wcFlags: number,
    invalidated: number,
    opType = RiWcType.DATA_RECEIVED,
    imm = 0,
    srcQpn = -1,
  ): void {
    if (this.destroyed) return;
    const wc = this.rnic.makeWc(this);
    if (srcQpn >= 0) {
      // A datagram: its source QP, and the GRH in the first 40 octets.
      wc.remote_qpn = srcQpn;
      wc.grh_present = 1;
    }
    wc.op_type = opType;
    wc.immediate_data = imm;
    wc.id = w.id;
    wc.op_status = status;
    wc.bytes_transferred = bytes;
    wc.flags = wcFlags;
    wc.invalidated_rtag = invalidated;
    const solicited = (wcFlags & RiWcFlags.SOLICITED_EVENT) !== 0;
    if (!this.rcq.push(wc, this, false, this.srq ? -1 : w.seq, solicited)) this.#cqOverflow(false);
  }

  /** Called by the CQ when the Consumer polls a WC of this QP: releases queue slots. */
  onCompletionPolled(sq: boolean, seq: number): void {
    if (sq) {
      while (this.sq.length > 0 && this.#sqBase <= seq) {
        this.sq.shift();
        this.#sqBase++;
      }
    } else if (seq >= 0) {
      while (this.rq.length > 0 && this.#rqBase <= seq) {
        this.rq.shift();
        this.#rqBase++;
      }
    } else if (this.srqOutstanding > 0) {
      this.srqOutstanding--;
      // The S-RQ slot of that WQE is free again (Verbs §8.1.3.1, §10 Q-S5).
      if (this.srq) this.srq.inFlight--;
    }
  }

  /** A completion could not be queued: the CQ overflowed (Verbs §7.3 CQ/SQ, CQ/RQ error). */
  #cqOverflow(sq: boolean): void {
    if (this.state === RiQpState.ERROR) return;
    this.rnic.asyncEvent(sq ? RiAsyncEventType.QP_CQ_SQ_ERROR : RiAsyncEventType.QP_CQ_RQ_ERROR, this);
    if (this.live) {
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
      this.irq.length = 0;
      this.flushSq();
      this.flushRq();
    } finally {
      this.flushing = false;
    }
  }

  /** Flushes every incomplete SQ WQE (status WR_FLUSHED_ERROR), in order, and the ORQ. */
  flushSq(): void {
    this.orq.length = 0;
    for (let s = this.#sqCompl; s < this.#sqNextSeq; s++) {
      const w = this.sqAt(s)!;
      if (w.state !== WqeState.DONE) {
        w.status = RiWcStatus.WR_FLUSHED_ERROR;
        w.state = WqeState.DONE;
      }
    }
    this.sqProc = this.#sqNextSeq;
    this.completeSqInOrder();
  }

  /** Flushes the RQ (or the S-RQ WQEs this QP had taken). */
  flushRq(): void {
    for (const w of this.srqTaken.splice(0)) this.pushRqWc(w, RiWcStatus.WR_FLUSHED_ERROR, 0, 0, 0);
    while (this.#rqCompl < this.#rqNextSeq) {
      const w = this.rqAt(this.#rqCompl)!;
      this.#rqCompl++;
      this.pushRqWc(w, RiWcStatus.WR_FLUSHED_ERROR, 0, 0, 0);
    }
    this.rqProc = this.#rqNextSeq;
  }

  /**
   * Is a receive WQE there to take (RQ or S-RQ)? IB transports ask before executing a packet
   * that will need one (an RDMA Write with Immediate's last packet), so that an RNR NAK leaves
   * nothing half done (IBTA Vol. 1 §9.7.5.2.8).
   */
  recvReady(): boolean {
    return this.srq ? this.srq.available > 0 : this.rqAt(this.rqProc) !== undefined;
  }

  /** Takes the next receive WQE for an inbound untagged Send (RQ or S-RQ). */
  /** The receive WQE {@link takeRecv} would take next, left in place. */
  peekRecv(): RqWqe | undefined {
    return this.srq ? this.srq.peek() : this.rqAt(this.rqProc);
  }

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
  completeRecv(
    w: RqWqe,
    status: number,
    bytes: number,
    wcFlags: number,
    invalidated: number,
    opType = RiWcType.DATA_RECEIVED,
    imm = 0,
    srcQpn = -1,
  ): void {
    if (this.srq) {
      const i = this.srqTaken.indexOf(w);
      if (i >= 0) this.srqTaken.splice(i, 1);
      // `srqOutstanding` drops only when this WC is polled (onCompletionPolled).
      this.pushRqWc(w, status, bytes, wcFlags, invalidated, opType, imm, srcQpn);
      return;
    }
    this.#rqCompl++;
    this.pushRqWc(w, status, bytes, wcFlags, invalidated, opType, imm, srcQpn);
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
    if (this.isIb) {
      // InfiniBand has no Terminate/Closing: the transport sends its wire error (a NAK), and
      // the QP enters Error at once (IBTA Vol. 1 §10.3.1.8, §9.9.2).
      if (!this.live) return;
      const t = this.transport;
      if (t) this.terminate = t.sendFatal(err, copied);
      this.toError(typeof err === 'number' ? `fault ${Fault[err]}` : 'transport error', null);
      return;
    }
    if (this.state !== RiQpState.READY_TO_SEND) return;
    const t = this.transport;
    if (!t) {
      this.setState(RiQpState.TERMINATE, 'terminate');
      this.toError('terminate without LLP', null);
      return;
    }
    const info = t.sendFatal(err, copied);
    this.setState(RiQpState.TERMINATE, `terminate ${wireErrorText(info)}`);
    this.terminate = info;
    this.armCloseTimer();
    t.closeGraceful();
  }

  /**
   * An inbound operation broke a rule the core checks (responder.ts): the affiliated event of
   * the fault (Verbs §7.3), then the transport's wire error.
   */
  remoteFault(f: Fault, copied: unknown): void {
    if (!this.live) return;
    const ae = AE_OF_FAULT[f];
    if (ae !== undefined) this.rnic.asyncEvent(ae, this);
    // The peer is not told that an STag exists in another PD (faults.ts UNDISCLOSED_FAULT).
    this.terminateWith(this.rnic.config.discloseNotAssociated ? f : (UNDISCLOSED_FAULT[f] ?? f), copied);
  }

  /** A Terminate message arrived (Verbs §6.2 T11): no Terminate goes back. */
  onTerminateReceived(info: WireError): void {
    if (this.state !== RiQpState.READY_TO_SEND && this.state !== RiQpState.CLOSING) return;
    this.terminate = info;
    // The peer refused our Read or atomic: it completes with the status of the peer's fault.
    this.requester.refusedByPeer(info.fault);
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
export { QP_STATE_NAMES } from './qp-states.js';
export { type IbAvIn, type IbModify, resolveAv } from './qp-ib.js';

/**
 * RC Endpoints (IT-API Ch. 3–4, the `it_ep_*` and `it_post_*` pages). Listen Points and
 * connection requests are `listen.ts`, Shared Receive Queues `srq.ts`, what an Endpoint reports
 * (Events, statuses, Paths) `ep-events.ts`, and the RoCE Interface's connection (the IB CM)
 * `ep-ib.ts`.
 *
 * An Endpoint is one RNICPI QP plus the IT-API state machine of `it_ep_state_t`. The rules kept
 * here:
 * - **States.** The RC state changes *before* its CM Event is queued; leaving CONNECTED yields
 *   exactly one of DISCONNECT or BROKEN; any failure after connect/accept lands in
 *   NONOPERATIONAL. On iWARP without an RTR state the passive side becomes CONNECTED on its first
 *   successful Receive completion (App. B).
 * - **Connection management** runs on the QP through the connection manager (TCP + MPA; the
 *   RFC 6581 IRD/ORD word plays the part of the IT-API IOH and is never shown to the Consumer).
 *   `it_ep_disconnect` is a graceful LLP close (the peer sees DISCONNECT, or BROKEN if it still
 *   had work queued); errors and resets give BROKEN.
 * - **Work requests** are always posted signalled to the RNIC; the Endpoint keeps one record per
 *   WR and turns each Work Completion into the IT-API Event the Consumer asked for (unsignalled
 *   successes produce none). A WR stays outstanding until the Consumer dequeues a completion that
 *   covers it (`IT_ERR_TOO_MANY_POSTS` accounting). WRs posted in NONOPERATIONAL never reach the
 *   RNIC: they complete `IT_DTO_ERR_FLUSHED` after every earlier WR of their queue.
 *
 * @module
 */
import type { Socket } from 'node:net';
import { type CmConnection, type CmQp, riCmQp } from '../iwarp/cm.js';
import { riQpState } from '../provider/softrdma.js';
import { RiRet } from '../rnicpi/status.js';
import {
  RiAsyncEventType,
  RiQpAttrMask,
  RiQpState,
  RiSvcType,
  RiWcFlags,
  RiWcType,
  type ri_data_seg_t,
  type ri_event_record_t,
  type ri_qp_handle_t,
  type ri_wc_t,
  type ri_rc_wc_t,
  type ri_wr_recv_t,
  type ri_wr_t,
} from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import { decodeTerminate } from '../wire/terminate.js';
import type { ItAsyncTarget } from './access.js';
import type { Sevd } from './evd.js';
import type { Lmr, Rmr } from './mem.js';
import { fail, type Ia, ItObject, type Pz } from './objects.js';
import { IbItRequest, ibQpInit, isIbDevice } from './roce.js';
import { it_status_t as S } from './status.js';
import {
  IT_HANDLE_KIND,
  it_conn_reject_code_t as RJ,
  it_dto_flags_t as DF,
  it_dto_status_t as DS,
  it_ep_state_rc_t as ST,
  it_event_type_t as ET,
  it_handle_type_enum_t as HT,
  type it_affiliated_ep_event_number_t,
  type it_connection_event_number_t,
  type it_connection_event_t,
  type it_dto_cmpl_event_t,
  type it_ep_attributes_t,
  type it_path_t,
} from './types.js';
import { affiliatedOf, EVENT_OF, pdataBuffer, recvStatus, type RecvRec, type SqRec, sqStatus } from './ep-events.js';
import { iwAccept, iwConnect, type IwConnectOptions, iwConvert } from './ep-iwarp.js';
import { ibAccept, ibCommEst, type IbConnectOptions, ibConnect, type IbEpConn, ibRelease, ibTeardown } from './ep-ib.js';
import type { PendingRequest } from './listen.js';
import type { Srq } from './srq.js';

const log = logger('itapi:ep');

/** The Endpoint attributes as kept (actual values; `srv.rc` flattened). */
export interface EpAttrs {
  max_dto_payload_size: number;
  max_request_dtos: number;
  max_recv_dtos: number;
  max_send_segments: number;
  max_recv_segments: number;
  priv_ops_enable: boolean;
  rdma_read_enable: boolean;
  rdma_write_enable: boolean;
  max_rdma_read_segments: number;
  max_rdma_write_segments: number;
  rdma_read_ird: number;
  rdma_read_ord: number;
  soft_hi_watermark: number;
  hard_hi_watermark: number;
  atomics_enable: boolean;
}

/** An RC Endpoint. */
export class Ep extends ItObject implements ItAsyncTarget {
  readonly [IT_HANDLE_KIND] = HT.IT_HANDLE_TYPE_EP as const;
  state: ST = ST.IT_EP_STATE_UNCONNECTED;
  qp!: ri_qp_handle_t;
  /** The QP as the connection manager takes it (`ri_qp_query` / `ri_qp_modify` on {@link qp}). */
  cmQp!: CmQp;
  /** Broken by a DTO SEVD overflow: `it_ep_reset` answers `IT_ERR_CANNOT_RESET`. */
  cannotReset = false;
  /** Entered NONOPERATIONAL because of an error (affiliated Events still reported). */
  #errorClosed = false;
  spigot = 0;
  dstPath: it_path_t | null = null;
  /** A connect or conversion in progress (aborted by disconnect/free) (shared with ep-iwarp.ts and ep-ib.ts). */
  pending: AbortController | null = null;
  conn: CmConnection | null = null;
  /** Passive side: the request accepted, for the ESTABLISHED Event (shared with ep-iwarp.ts and ep-ib.ts). */
  accepted: { pdata: Uint8Array; ird: number; ord: number } | null = null;
  /** TDI: ESTABLISHED carries no private data and IRD = ORD = 0 (shared with ep-iwarp.ts). */
  converted = false;
  /** RoCE Interface: the IB CM connection, held on the port's CM until the Endpoint goes (shared with ep-iwarp.ts and ep-ib.ts). */
  ib: IbEpConn | null = null;

  // ---- Send Queue accounting ----
  #sqNext = 0;
  #sqRetired = 0;
  readonly #wrs = new Map<bigint, SqRec>();
  #engineSq = 0;
  readonly #deferredSq: SqRec[] = [];
  // ---- Receive Queue accounting (own RQ) ----
  #rqPosted = 0;
  #rqRetired = 0;
  readonly #recvs = new Map<bigint, RecvRec>();
  #engineRq = 0;
  readonly #deferredRq: RecvRec[] = [];
  #nextId = 1n;
  /** Narrow RMRs linked through this Endpoint (`IT_ERR_EP_BUSY`). */
  narrowLinked = 0;
  /** CQ entries this Endpoint's work queues reserved on its DTO SEVDs. */
  cqReservation = { req: 0, recv: 0 };

  readonly #ia_: Ia;
  constructor(
    ia_: Ia,
    readonly pz: Pz,
    readonly reqEvd: Sevd,
    readonly recvEvd: Sevd,
    readonly connEvd: Sevd,
    readonly flags: number,
    readonly srq: Srq | null,
    readonly attr: EpAttrs,
  ) {
    super();
    this.#ia_ = ia_;
  }
  get ia(): Ia {
    return this.#ia_;
  }
  get #ops() {
    return this.#ia_.ops;
  }
  /** On the RoCE Interface (InfiniBand transport, the IB CM). */
  get isIb(): boolean {
    return isIbDevice(this.#ia_.device);
  }

  // ------------------------------------------------------------------ QP

  /** Creates the QP with the current attributes; returns the RNIC status. */
  createQp(): RiRet {
    const ia = this.#ia_;
    const a = this.attr;
    const r = ia.ops.ri_qp_create(
      ia.rnic,
      {
        scq: { scq_handle: this.reqEvd.cq! },
        rcq: { rcq_handle: this.recvEvd.cq! },
        srq: this.srq ? { srq_handle: this.srq.srq } : null,
        srq_valid: this.srq !== null,
        pd: this.pz.pd,
        sq_size: Math.max(1, a.max_request_dtos),
        rq_size: this.srq ? 0 : Math.max(1, a.max_recv_dtos),
        sq_max_sges: Math.max(1, a.max_send_segments, a.max_rdma_read_segments),
        sq_max_sges_rdmaw: Math.max(1, a.max_rdma_write_segments),
        rq_max_sges: this.srq ? 0 : Math.max(1, a.max_recv_segments),
        enable_rdma_read: a.rdma_read_enable,
        enable_rdma_write: a.rdma_write_enable,
        max_rdma_read_outgoing: a.rdma_read_ord,
        max_rdma_read_incoming: a.rdma_read_ird,
        enable_stag0_fastreg: a.priv_ops_enable,
        qp_xport: this.isIb ? { qp_ib: { trans_type: RiSvcType.RELIABLE_CONNECTION } } : { qp_iwarp: { enable_bind: true } },
      },
      null,
      this,
    );
    if (r.status !== RiRet.SUCCESS) return r.status;
    if (this.isIb) {
      // An IB QP starts in Reset: Init (P_Key, port, remote access) takes Receives already.
      const st = ibQpInit(this.#ops, ia.rnic, r.qp, { read: a.rdma_read_enable, write: a.rdma_write_enable, atomic: a.atomics_enable });
      if (st !== RiRet.SUCCESS) {
        this.#ops.ri_qp_destroy(ia.rnic, r.qp);
        return st;
      }
    }
    this.qp = r.qp;
    this.cmQp = riCmQp(this.#ops, ia.rnic, r.qp);
    a.max_request_dtos = r.attrs.sq_size;
    if (!this.srq) a.max_recv_dtos = r.attrs.rq_size;
    return RiRet.SUCCESS;
  }

  /** The QP's RNICPI state. */
  qpState(): RiQpState | null {
    return riQpState(this.#ops, this.#ia_.rnic, this.qp);
  }

  /** The QP's IRD/ORD (they follow the negotiation). */
  qpIrdOrd(): { ird: number; ord: number } {
    const r = this.#ops.ri_qp_query(this.#ia_.rnic, this.qp);
    if (r.status !== RiRet.SUCCESS) return { ird: this.attr.rdma_read_ird, ord: this.attr.rdma_read_ord };
    return { ird: r.attrs.max_rdma_read_incoming, ord: r.attrs.max_rdma_read_outgoing };
  }

  /** Moves the QP out of service: Idle → Error (flushes pre-posted Receives), RTS → Closing/Error. */
  #quenchQp(how: 'close' | 'abort'): void {
    const st = this.qpState();
    if (this.isIb) {
      // IB has no graceful close of the QP: the CM's DREQ/DREP says it; the QP goes to Error.
      if (st !== null && st !== RiQpState.ERROR)
        this.#ops.ri_qp_modify(this.#ia_.rnic, this.qp, RiQpAttrMask.NEXT_STATE, { state: RiQpState.ERROR });
      return;
    }
    let next: RiQpState | null = null;
    if (st === RiQpState.IDLE) next = RiQpState.ERROR;
    else if (st === RiQpState.READY_TO_SEND) next = how === 'close' ? RiQpState.CLOSING : RiQpState.ERROR;
    if (next === null) return;
    const r = this.#ops.ri_qp_modify(this.#ia_.rnic, this.qp, RiQpAttrMask.NEXT_STATE, { state: next });
    if (r.status !== RiRet.SUCCESS && next === RiQpState.CLOSING) {
      this.#ops.ri_qp_modify(this.#ia_.rnic, this.qp, RiQpAttrMask.NEXT_STATE, { state: RiQpState.ERROR });
    }
  }

  // ------------------------------------------------------------------ CM Events and states

  #cmEvent(n: it_connection_event_number_t, o: Partial<it_connection_event_t> = {}): void {
    const ev: it_connection_event_t = {
      event_number: n,
      evd: this.connEvd,
      cn_est_id: null,
      ep: this,
      rdma_read_ird: 0,
      rdma_read_ord: 0,
      dst_path: null,
      reject_reason_code: RJ.IT_CN_REJ_OTHER,
      private_data: pdataBuffer(null),
      private_data_present: false,
      ...o,
    };
    this.connEvd.post(ev, true);
  }

  /** Enters CONNECTED and queues ESTABLISHED, in that order (shared with ep-iwarp.ts and ep-ib.ts). */
  established(o: Partial<it_connection_event_t>): void {
    this.state = ST.IT_EP_STATE_CONNECTED;
    this.#cmEvent(ET.IT_CM_MSG_CONN_ESTABLISHED_EVENT, o);
  }

  /**
   * Enters NONOPERATIONAL (once), queues `event` after the change, stops a pending connect or
   * conversion and takes the QP out of service; the WRs still on the RNIC are flushed by it.
   */
  toNonoperational(
    event: it_connection_event_number_t | null,
    o: Partial<it_connection_event_t> = {},
    how: 'close' | 'abort' = 'abort',
  ): void {
    if (this.state === ST.IT_EP_STATE_NONOPERATIONAL || this.freed) return;
    this.state = ST.IT_EP_STATE_NONOPERATIONAL;
    this.#errorClosed = event !== ET.IT_CM_MSG_CONN_DISCONNECT_EVENT && event !== null;
    const p = this.pending;
    this.pending = null;
    p?.abort();
    if (event !== null) this.#cmEvent(event, o);
    ibTeardown(this);
    this.#quenchQp(how);
    this.#flushDeferred();
  }

  /** A DTO SEVD this Endpoint feeds overflowed: broken for good. */
  onDtoEvdOverflow(): void {
    this.cannotReset = true;
    const was = this.state;
    if (was === ST.IT_EP_STATE_CONNECTED) this.toNonoperational(ET.IT_CM_MSG_CONN_BROKEN_EVENT);
    else if (was !== ST.IT_EP_STATE_NONOPERATIONAL && was !== ST.IT_EP_STATE_UNCONNECTED) {
      this.toNonoperational(ET.IT_CM_MSG_CONN_NONPEER_REJECT_EVENT);
    } else if (was === ST.IT_EP_STATE_UNCONNECTED) {
      this.state = ST.IT_EP_STATE_NONOPERATIONAL;
      this.#quenchQp('abort');
    }
  }

  /** A failure ended a connection attempt or a connection: the state's Event (shared with ep-iwarp.ts and ep-ib.ts). */
  connectionFailed(reason: RJ = RJ.IT_CN_REJ_OTHER): void {
    switch (this.state) {
      case ST.IT_EP_STATE_CONNECTED:
        this.toNonoperational(ET.IT_CM_MSG_CONN_BROKEN_EVENT);
        break;
      case ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING:
      case ST.IT_EP_STATE_ACTIVE2_CONNECTION_PENDING:
      case ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING:
      case ST.IT_EP_STATE_PASSIVE_WAIT_RDMA_TRANS_REQ:
        this.toNonoperational(ET.IT_CM_MSG_CONN_NONPEER_REJECT_EVENT, { reject_reason_code: reason });
        break;
      default:
        break;
    }
  }

  /** Affiliated asynchronous events of the QP (RNICPI → IT-API). */
  onRiAsync(ev: ri_event_record_t): void {
    if (this.freed) return;
    const t = ev.event_type;
    if (t === RiAsyncEventType.QP_COMMUNICATION_ESTABLISHED) {
      // IB: data arrived before the RTU (IBTA §12.9.5.2): the CM is told, ESTABLISHED follows.
      ibCommEst(this);
      return;
    }
    if (t === RiAsyncEventType.QP_LLQ_CLOSE_COMPLETE) {
      // The peer closed the connection gracefully (or our own close finished).
      if (this.state === ST.IT_EP_STATE_CONNECTED) this.toNonoperational(ET.IT_CM_MSG_CONN_DISCONNECT_EVENT, {}, 'close');
      else this.connectionFailed();
      return;
    }
    const before = this.state;
    let term: { layer: number; etype: number; ecode: number } | null = null;
    const q = this.#ops.ri_qp_query(this.#ia_.rnic, this.qp);
    if (q.status === RiRet.SUCCESS && 'qp_iwarp' in q.attrs.qp_xport) {
      const iw = q.attrs.qp_xport.qp_iwarp;
      if (iw.terminate_msg_length > 0) {
        try {
          term = decodeTerminate(iw.terminate_buffer, 0, iw.terminate_msg_length);
        } catch {
          term = null;
        }
      }
    }
    const aff = affiliatedOf(t, term);
    log('EP qp async %s in state %d → %s', RiAsyncEventType[t], before, aff === null ? '-' : ET[aff]);
    this.connectionFailed();
    const report =
      before === ST.IT_EP_STATE_CONNECTED ||
      before === ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING ||
      (before === ST.IT_EP_STATE_NONOPERATIONAL && this.#errorClosed);
    if (aff !== null && report) this.#postAffiliated(aff);
  }

  #postAffiliated(n: it_affiliated_ep_event_number_t): void {
    const a = this.#ia_.affEvd;
    a?.post({ event_number: n, evd: a, cause: { ep: this } }, true);
  }

  // ------------------------------------------------------------------ connection management (ep-iwarp.ts, ep-ib.ts)

  /** `it_ep_connect` after validation: UNCONNECTED → ACTIVE1, TCP + MPA Request ({@link iwConnect}). */
  connect(host: string, port: number, path: it_path_t, opts: IwConnectOptions): void {
    iwConnect(this, host, port, path, opts);
  }

  /** `it_ep_accept` (2-way, passive) after validation ({@link iwAccept}, {@link ibAccept}). Throws the immediate error. */
  accept(req: PendingRequest, pdata: Uint8Array): void {
    const cm = req.cm;
    if (cm instanceof IbItRequest) ibAccept(this, req, cm, pdata);
    else iwAccept(this, req, cm, pdata);
  }

  /** `it_socket_convert` after validation ({@link iwConvert}). */
  convert(sd: Socket, msg: Uint8Array | null, noReqRep: boolean): void {
    iwConvert(this, sd, msg, noReqRep);
  }

  /** `it_ep_connect` on the RoCE Interface ({@link ibConnect}). */
  connectIb(host: string, port: number, path: it_path_t, opts: IbConnectOptions): void {
    ibConnect(this, host, port, path, opts);
  }

  /** `it_ep_disconnect` after validation (state ≠ UNCONNECTED). */
  disconnect(): void {
    if (this.state === ST.IT_EP_STATE_NONOPERATIONAL) return;
    this.toNonoperational(ET.IT_CM_MSG_CONN_DISCONNECT_EVENT, {}, 'close');
  }

  /** `it_ep_reset`: NONOPERATIONAL → UNCONNECTED with the same attributes. */
  reset(): boolean {
    const st = this.qpState();
    let ok = false;
    ibRelease(this);
    if (st === RiQpState.IDLE) ok = true;
    else if (st === RiQpState.ERROR) {
      const r = this.#ops.ri_qp_modify(this.#ia_.rnic, this.qp, RiQpAttrMask.NEXT_STATE, { state: RiQpState.IDLE });
      ok = r.status === RiRet.SUCCESS;
    }
    if (ok && this.isIb) {
      const a = this.attr;
      ok =
        ibQpInit(this.#ops, this.#ia_.rnic, this.qp, { read: a.rdma_read_enable, write: a.rdma_write_enable, atomic: a.atomics_enable }) ===
        RiRet.SUCCESS;
    }
    if (!ok) {
      // Still closing (LLP close or Terminate in progress): start over with a fresh QP.
      const d = this.#ops.ri_qp_destroy(this.#ia_.rnic, this.qp);
      if (d.status !== RiRet.SUCCESS) return false;
      const c = this.createQp();
      if (c !== RiRet.SUCCESS) {
        log('it_ep_reset: QP re-creation failed: %s', RiRet[c]);
        return false;
      }
    }
    this.state = ST.IT_EP_STATE_UNCONNECTED;
    this.#errorClosed = false;
    this.conn = null;
    this.accepted = null;
    this.converted = false;
    this.dstPath = null;
    // Completions not harvested may be dropped (it_ep_reset): forget the WRs of the old life.
    this.#wrs.clear();
    this.#recvs.clear();
    this.#deferredSq.length = 0;
    this.#deferredRq.length = 0;
    this.#engineSq = 0;
    this.#engineRq = 0;
    this.#sqRetired = this.#sqNext;
    this.#rqRetired = this.#rqPosted;
    return true;
  }

  /** Frees the Endpoint unconditionally (busy checks are the caller's). */
  destroy(): void {
    if (this.freed) return;
    this.freed = true;
    const p = this.pending;
    this.pending = null;
    p?.abort();
    ibRelease(this);
    const ia = this.#ia_;
    const st = this.#ops.ri_qp_destroy(ia.rnic, this.qp);
    if (st.status !== RiRet.SUCCESS) log('ri_qp_destroy: %s', RiRet[st.status]);
    this.connEvd.feeders--;
    this.reqEvd.releaseEp(this, this.cqReservation.req);
    this.recvEvd.releaseEp(this, this.cqReservation.recv);
    if (this.srq) this.srq.users--;
    ia.eps.delete(this);
  }

  // ------------------------------------------------------------------ posting

  /** WRs outstanding on the Send Queue (posted, no covering completion dequeued). */
  get sqOutstanding(): number {
    return this.#sqNext - this.#sqRetired;
  }
  get rqOutstanding(): number {
    return this.#rqPosted - this.#rqRetired;
  }

  /**
   * Posts one SQ WR (validated by the caller). In NONOPERATIONAL the WR completes flushed
   * without reaching the RNIC.
   */
  postSq(rec: Omit<SqRec, 'seq'>, wr: ri_wr_t, length = 0): void {
    if (this.sqOutstanding >= this.attr.max_request_dtos) fail(S.IT_ERR_TOO_MANY_POSTS);
    const r: SqRec = { ...rec, seq: this.#sqNext++ };
    if (this.state === ST.IT_EP_STATE_NONOPERATIONAL || this.#deferredSq.length > 0) {
      // Flushed; or behind a WR that failed before reaching the RNIC (it breaks the connection,
      // so everything after it is flushed too, and completions keep their post order).
      r.synthetic = DS.IT_DTO_ERR_FLUSHED;
      this.#deferredSq.push(r);
      this.#flushDeferred();
      return;
    }
    if (length > this.attr.max_dto_payload_size && (rec.kind === 'send' || rec.kind === 'write' || rec.kind === 'read')) {
      // Above max_dto_payload_size: IT_DTO_ERR_LOCAL_LENGTH (it_dto_status_t), in post order.
      r.synthetic = DS.IT_DTO_ERR_LOCAL_LENGTH;
      this.#deferredSq.push(r);
      this.#flushDeferred();
      return;
    }
    const id = this.#nextId++;
    this.#wrs.set(id, r);
    this.#engineSq++;
    const res = this.#ops.ri_qp_postsq(this.#ia_.rnic, this.qp, [{ ...wr, id } as ri_wr_t]);
    if (res.status === RiRet.SUCCESS) return;
    this.#wrs.delete(id);
    this.#engineSq--;
    switch (res.status) {
      case RiRet.QP_CAPACITY_EXCEEDED:
        this.#sqNext--;
        fail(S.IT_ERR_TOO_MANY_POSTS);
        break;
      case RiRet.RNIC_SG_LIMIT_EXCEEDED:
      case RiRet.WR_SG_INVALID_FORMAT:
        this.#sqNext--;
        fail(S.IT_ERR_INVALID_NUM_SEGMENTS);
        break;
      case RiRet.QP_INVALID_STATE:
        // The RNIC is terminating the connection (its Events are on their way): flushed.
        r.synthetic = DS.IT_DTO_ERR_FLUSHED;
        break;
      case RiRet.MEM_INVALID_RTAG:
        // A non-empty RDMA operation naming context 0 (never valid remotely): a remote access
        // error the RNIC found before sending; the connection breaks as for any error.
        r.synthetic = DS.IT_DTO_ERR_REMOTE_ACCESS;
        break;
      default:
        log('ri_qp_postsq: %s', RiRet[res.status]);
        r.synthetic = DS.IT_DTO_ERR_LOCAL_EP;
        break;
    }
    this.#deferredSq.push(r);
    this.#flushDeferred();
  }

  /** Posts one Receive to the Endpoint's own RQ (validated by the caller). */
  postRecv(rec: RecvRec, sgl: ri_data_seg_t[]): void {
    if (this.rqOutstanding >= this.attr.max_recv_dtos) fail(S.IT_ERR_TOO_MANY_POSTS);
    this.#rqPosted++;
    if (this.state === ST.IT_EP_STATE_NONOPERATIONAL) {
      rec.synthetic = true;
      this.#deferredRq.push(rec);
      this.#flushDeferred();
      return;
    }
    const id = this.#nextId++;
    this.#recvs.set(id, rec);
    this.#engineRq++;
    const wr: ri_wr_recv_t = { flags: 0, id, sg_list: sgl };
    const res = this.#ops.ri_qp_postrq(this.#ia_.rnic, this.qp, [wr]);
    if (res.status === RiRet.SUCCESS) return;
    this.#recvs.delete(id);
    this.#engineRq--;
    this.#rqPosted--;
    switch (res.status) {
      case RiRet.QP_CAPACITY_EXCEEDED:
        fail(S.IT_ERR_TOO_MANY_POSTS);
        break;
      case RiRet.RNIC_SG_LIMIT_EXCEEDED:
      case RiRet.WR_SG_INVALID_FORMAT:
        fail(S.IT_ERR_INVALID_NUM_SEGMENTS);
        break;
      default:
        // Terminate in progress: the Receive is flushed like every other one.
        this.#rqPosted++;
        rec.synthetic = true;
        this.#deferredRq.push(rec);
        this.#flushDeferred();
        break;
    }
  }

  /** Completes the WRs that never reached the RNIC once everything posted before them did. */
  #flushDeferred(): void {
    if (this.#engineSq === 0) {
      for (const r of this.#deferredSq.splice(0)) this.#completeSq(r, r.synthetic ?? DS.IT_DTO_ERR_FLUSHED, 0);
    }
    if (this.#engineRq === 0) {
      for (const r of this.#deferredRq.splice(0)) this.#completeRecv(r, DS.IT_DTO_ERR_FLUSHED, 0, false, null);
    }
  }

  // ------------------------------------------------------------------ completions

  /** A Work Completion of this Endpoint's QP (drained from an SEVD's CQ). */
  onWc(wc: ri_wc_t): void {
    if (this.freed) return;
    const w = wc as ri_rc_wc_t;
    if (w.op_type === RiWcType.DATA_RECEIVED) {
      this.#onRecvWc(w);
      return;
    }
    const rec = this.#wrs.get(w.id);
    if (!rec) return;
    this.#wrs.delete(w.id);
    this.#engineSq--;
    const st = sqStatus(rec, w.op_status);
    if (st === DS.IT_DTO_SUCCESS) this.#applySuccess(rec);
    this.#completeSq(rec, st, w.bytes_transferred);
    this.#flushDeferred();
  }

  /** Memory bookkeeping of a successful Link/Unlink or unlinking Read. */
  #applySuccess(rec: SqRec): void {
    switch (rec.kind) {
      case 'rmr_link':
        rec.rmr?.onLinked(this, rec.link!);
        break;
      case 'rmr_unlink':
        rec.rmr?.onUnlinked();
        break;
      case 'lmr_link':
        rec.lmr?.onLinked(rec.link!);
        break;
      case 'lmr_unlink':
        rec.lmr?.onUnlinked();
        break;
      case 'read':
        rec.sink?.onUnlinked();
        break;
      default:
        break;
    }
  }

  #completeSq(rec: SqRec, st: DS, bytes: number): void {
    const signaled = (rec.flags & DF.IT_COMPLETION_FLAG) !== 0;
    if (st === DS.IT_DTO_SUCCESS && !signaled) return;
    const ev: it_dto_cmpl_event_t = {
      event_number: EVENT_OF[rec.kind] as it_dto_cmpl_event_t['event_number'],
      evd: this.reqEvd,
      ep: this,
      cookie: rec.cookie,
      dto_status: st,
      transferred_length: st === DS.IT_DTO_SUCCESS ? bytes : 0,
      unlinked_mr_handle: null,
    };
    const notify = st !== DS.IT_DTO_SUCCESS || (rec.flags & DF.IT_NOTIFY_FLAG) !== 0;
    const seq = rec.seq;
    this.reqEvd.post(ev, notify, () => {
      if (seq + 1 > this.#sqRetired) this.#sqRetired = seq + 1;
    });
    if (st !== DS.IT_DTO_SUCCESS) this.#onCompletionError(st);
  }

  #onRecvWc(w: ri_rc_wc_t): void {
    const srq = this.srq;
    const rec = srq ? srq.recvs.get(w.id) : this.#recvs.get(w.id);
    if (!rec) return;
    if (srq) {
      srq.recvs.delete(w.id);
      srq.consumed++;
    } else {
      this.#recvs.delete(w.id);
      this.#engineRq--;
    }
    const st = recvStatus(w.op_status);
    let unlinked: Lmr | Rmr | null = null;
    if (st === DS.IT_DTO_SUCCESS && (w.flags & RiWcFlags.RTAG_INVALIDATE) !== 0) {
      unlinked = this.#ia_.memByContext(w.invalidated_rtag);
      unlinked?.onUnlinked();
    }
    this.#completeRecv(rec, st, w.bytes_transferred, (w.flags & RiWcFlags.SOLICITED_EVENT) !== 0, unlinked);
    if (!srq) this.#flushDeferred();
    srq?.checkLowWatermark();
  }

  #completeRecv(rec: RecvRec, st: DS, bytes: number, solicited: boolean, unlinked: Lmr | Rmr | null): void {
    // IB: the first data before the RTU establishes the connection (COMM_EST).
    if (st === DS.IT_DTO_SUCCESS && this.state === ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING) ibCommEst(this);
    // iWARP without RTR: the first Receive completion is the first payload (App. B).
    if (st === DS.IT_DTO_SUCCESS && this.state === ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING) {
      const a = this.accepted;
      this.established(
        this.converted || !a
          ? {}
          : { private_data: pdataBuffer(a.pdata), private_data_present: a.pdata.length > 0, rdma_read_ird: a.ird, rdma_read_ord: a.ord },
      );
    }
    const ev: it_dto_cmpl_event_t = {
      event_number: ET.IT_DTO_RC_RECV_CMPL_EVENT,
      evd: this.recvEvd,
      ep: this,
      cookie: rec.cookie,
      dto_status: st,
      transferred_length: st === DS.IT_DTO_SUCCESS ? bytes : 0,
      unlinked_mr_handle: unlinked as it_dto_cmpl_event_t['unlinked_mr_handle'],
    };
    const notify = st !== DS.IT_DTO_SUCCESS || solicited || (rec.flags & DF.IT_NOTIFY_FLAG) !== 0;
    const srq = this.srq;
    this.recvEvd.post(ev, notify, () => {
      if (srq) srq.retired++;
      else this.#rqRetired++;
    });
    if (st !== DS.IT_DTO_SUCCESS) this.#onCompletionError(st);
  }

  /** Any unsuccessful completion ends a connection that is up or being set up. */
  #onCompletionError(st: DS): void {
    if (this.state === ST.IT_EP_STATE_CONNECTED) {
      // Receives flushed because the peer closed gracefully (QP Closing): a disconnect.
      if (st === DS.IT_DTO_ERR_FLUSHED && this.qpState() === RiQpState.CLOSING) {
        this.toNonoperational(ET.IT_CM_MSG_CONN_DISCONNECT_EVENT, {}, 'close');
        return;
      }
      this.toNonoperational(ET.IT_CM_MSG_CONN_BROKEN_EVENT);
      return;
    }
    if (this.state === ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING) this.connectionFailed();
  }
}

/** The attributes an `it_ep_attributes_t` asks for, flattened (validated by the caller). */
export function epAttrsOf(a: it_ep_attributes_t): EpAttrs {
  const rc = 'rc' in a.srv ? a.srv.rc : null;
  return {
    max_dto_payload_size: a.max_dto_payload_size,
    max_request_dtos: a.max_request_dtos,
    max_recv_dtos: a.max_recv_dtos,
    max_send_segments: a.max_send_segments,
    max_recv_segments: a.max_recv_segments,
    priv_ops_enable: a.priv_ops_enable === true,
    rdma_read_enable: rc?.rdma_read_enable === true,
    rdma_write_enable: rc?.rdma_write_enable === true,
    max_rdma_read_segments: rc?.max_rdma_read_segments ?? 0,
    max_rdma_write_segments: rc?.max_rdma_write_segments ?? 0,
    rdma_read_ird: rc?.rdma_read_ird ?? 0,
    rdma_read_ord: rc?.rdma_read_ord ?? 0,
    soft_hi_watermark: rc?.soft_hi_watermark ?? 0,
    hard_hi_watermark: rc?.hard_hi_watermark ?? 0,
    atomics_enable: rc?.atomics_enable === true,
  };
}

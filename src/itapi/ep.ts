/**
 * RC Endpoints, Listen Points, connection requests and Shared Receive Queues (IT-API Ch. 3–4,
 * the `it_ep_*`, `it_listen_*`, `it_post_*`, `it_srq_*` pages).
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
import type { IbCmConnection, IbCmEvent, IbCmSidrRequest } from '../ibcm/cm.js';
import { type CmaAddresses, cmaPrivateDataOf, ephemeralPort, type RdmaIpCm, randomPsn, roceSourceFor } from '../ibcm/rdma-ip.js';
import {
  ACTIVE_SETTLE_MS,
  type CmConnection,
  type CmConnectParams,
  type CmConnectRequest,
  CmError,
  type CmListener,
  cmConnect,
  type CmConvertOptions,
  type CmQp,
  cmConvertSocket,
  riCmQp,
} from '../iwarp/cm.js';
import { riQpState } from '../provider/softrdma.js';
import { RiRet } from '../rnicpi/status.js';
import {
  RiAsyncEventType,
  RiQpAttrMask,
  RiQpState,
  RiSrqAttrMask,
  RiSvcType,
  RiWcFlags,
  RiWcStatus,
  RiWcType,
  type ri_data_seg_t,
  type ri_event_record_t,
  type ri_qp_handle_t,
  type ri_srq_handle_t,
  type ri_wc_t,
  type ri_rc_wc_t,
  type ri_wr_recv_t,
  type ri_wr_t,
} from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import { CmRejReason, gidFromIpv4, RdmaPs, rdmaServiceId } from '../wire/ib/cm.js';
import { decodeTerminate } from '../wire/terminate.js';
import type { ItAsyncTarget } from './access.js';
import type { Sevd } from './evd.js';
import type { Lmr, Rmr } from './mem.js';
import { fail, type Ia, ItObject, type Pz } from './objects.js';
import { gidIndexOf, IBOE_HOP_LIMIT, IBOE_PACKET_LIFETIME, IBOE_PATH_MTU, type IbItListen, IbItRequest, ibPathOf, ibQpInit, ibQpToRts, isIbDevice, rejectCodeOf, roceAddresses, roceCm } from './roce.js';
import { it_status_t as S } from './status.js';
import { UdSvcRequest } from './ud.js';
import {
  IT_HANDLE_KIND,
  IT_ID_KIND,
  IT_MAX_PRIV_DATA,
  it_conn_reject_code_t as RJ,
  it_dto_flags_t as DF,
  it_dto_status_t as DS,
  it_ep_state_rc_t as ST,
  it_event_type_t as ET,
  it_handle_type_enum_t as HT,
  it_ip_vers_t,
  it_net_addr_type_t,
  IT_IANA_PORT,
  type it_cn_est_identifier_t,
  type it_conn_qual_t,
  type it_conn_request_event_t,
  type it_connection_event_number_t,
  type it_connection_event_t,
  type it_dto_cmpl_event_t,
  type it_dto_event_number_t,
  type it_ep_attributes_t,
  type it_net_addr_t,
  type it_path_t,
} from './types.js';

const log = logger('itapi:ep');

// =============================================================================================
// Helpers
// =============================================================================================

/** Private data as received: a 256-byte buffer (the length is not conveyed). */
export function pdataBuffer(src: Uint8Array | null | undefined): Uint8Array {
  const b = new Uint8Array(IT_MAX_PRIV_DATA);
  if (src) b.set(src.subarray(0, IT_MAX_PRIV_DATA));
  return b;
}

/** An `it_net_addr_t` for a socket address string (IPv4-mapped IPv6 becomes IPv4). */
export function netAddrOf(addr: string): it_net_addr_t {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  if (m) return { addr_type: it_net_addr_type_t.IT_IPV4, addr: { ipv4: m[1]! } };
  if (addr.includes(':')) return { addr_type: it_net_addr_type_t.IT_IPV6, addr: { ipv6: addr } };
  return { addr_type: it_net_addr_type_t.IT_IPV4, addr: { ipv4: addr } };
}

/** NONPEER_REJECT reason for a failed connection attempt. */
export function rejectReason(e: unknown): RJ {
  if (!(e instanceof CmError)) return RJ.IT_CN_REJ_OTHER;
  const code = ((e.cause as NodeJS.ErrnoException | undefined)?.code ?? '') as string;
  if (code === 'EADDRINUSE') return RJ.IT_CN_REJ_STALE_CONN;
  if (code === 'ENOMEM' || code === 'ENOBUFS') return RJ.IT_CN_REJ_RESOURCES;
  switch (e.kind) {
    case 'timeout':
      return RJ.IT_CN_REJ_TIMEOUT;
    case 'refused':
    case 'unreachable':
      return RJ.IT_CN_REJ_BAD_PATH;
    case 'protocol':
    case 'policy':
    case 'bad-revision':
    case 'no-matching-rtr':
      return RJ.IT_CN_REJ_BAD_CONN_PARMS;
    case 'ird-ord':
      return RJ.IT_CN_REJ_BAD_ORD;
    default:
      return RJ.IT_CN_REJ_OTHER;
  }
}

/** What kind of WR a record is (decides the completion's event number and status mapping). */
export type WrKind = 'send' | 'write' | 'read' | 'fetch_add' | 'cmp_swap' | 'rmr_link' | 'rmr_unlink' | 'lmr_link' | 'lmr_unlink';

const EVENT_OF: Record<WrKind, it_dto_event_number_t> = {
  send: ET.IT_DTO_SEND_CMPL_EVENT,
  write: ET.IT_DTO_RDMA_WRITE_CMPL_EVENT,
  read: ET.IT_DTO_RDMA_READ_CMPL_EVENT,
  fetch_add: ET.IT_DTO_FETCH_ADD_CMPL_EVENT,
  cmp_swap: ET.IT_DTO_CMP_SWAP_CMPL_EVENT,
  rmr_link: ET.IT_RMR_LINK_CMPL_EVENT,
  rmr_unlink: ET.IT_RMR_LINK_CMPL_EVENT,
  lmr_link: ET.IT_LMR_LINK_CMPL_EVENT,
  lmr_unlink: ET.IT_LMR_LINK_CMPL_EVENT,
};

/** One Send Queue WR as the Endpoint remembers it. */
export interface SqRec {
  seq: number;
  kind: WrKind;
  cookie: bigint;
  /** The IT-API `it_dto_flags_t`. */
  flags: number;
  /** RMR/LMR Link: what to record on success. */
  rmr?: Rmr;
  lmr?: Lmr;
  link?: { lmr: Lmr | null; addr: bigint; length: number; privs: number; addrMode: number; context: number };
  /** RMR Link to a Relative-mode LMR (`IT_DTO_ERR_LOCAL_MM_OPERATION`). */
  relLmr?: boolean;
  /** `IT_UNLINK_LOCAL_SINK`: the sink region unlinked on success. */
  sink?: Lmr | Rmr;
  /** A status decided by the IT-API layer (the WR never reached the RNIC). */
  synthetic?: DS;
}

/** One Receive as the Endpoint (or S-RQ) remembers it. */
export interface RecvRec {
  cookie: bigint;
  flags: number;
  /** A WR posted in NONOPERATIONAL (never given to the RNIC). */
  synthetic?: boolean;
}

const LOCAL_PROT = new Set<number>([
  RiWcStatus.INVALID_STAG_ERROR,
  RiWcStatus.BASE_BOUNDS_VIOLATION_ERROR,
  RiWcStatus.ACCESS_VIOLATION_ERROR,
  RiWcStatus.INVALID_PD_ERROR,
  RiWcStatus.ADDRESS_WRAP_ERROR,
  RiWcStatus.STAG_INVALIDATE_ERROR,
]);

/** `it_dto_status_t` of an SQ Work Completion. */
function sqStatus(rec: SqRec, st: RiWcStatus): DS {
  if (st === RiWcStatus.SUCCESS) return DS.IT_DTO_SUCCESS;
  if (st === RiWcStatus.WR_FLUSHED_ERROR) return DS.IT_DTO_ERR_FLUSHED;
  switch (rec.kind) {
    case 'rmr_link':
      return rec.relLmr ? DS.IT_DTO_ERR_LOCAL_MM_OPERATION : DS.IT_RMR_OPERATION_FAILED;
    case 'rmr_unlink':
      return DS.IT_RMR_OPERATION_FAILED;
    case 'lmr_link':
    case 'lmr_unlink':
      return DS.IT_DTO_ERR_LOCAL_MM_OPERATION;
    default:
      break;
  }
  if (LOCAL_PROT.has(st)) return DS.IT_DTO_ERR_LOCAL_PROTECTION;
  if (st === RiWcStatus.REMOTE_TERMINATION_ERROR) return rec.kind === 'read' ? DS.IT_DTO_ERR_REMOTE_ACCESS : DS.IT_DTO_ERR_TRANSPORT;
  // A refused atomic (RFC 7306): access faults and malformed requests (misaligned, beyond IRD).
  if (st === RiWcStatus.REMOTE_ACCESS_ERROR) return DS.IT_DTO_ERR_REMOTE_ACCESS;
  if (st === RiWcStatus.REMOTE_INVALID_REQ_ERROR) return DS.IT_DTO_ERR_REMOTE_RESPONDER;
  if (st === RiWcStatus.HUGE_PAYLOAD_ERROR) return DS.IT_DTO_ERR_LOCAL_LENGTH;
  if (st === RiWcStatus.LOCAL_QP_OP_ERROR || st === RiWcStatus.WQE_FORMAT_ERROR || st === RiWcStatus.ZERO_ORD_ERROR) {
    return DS.IT_DTO_ERR_LOCAL_EP;
  }
  return DS.IT_DTO_ERR_TRANSPORT;
}

/** `it_dto_status_t` of a Receive Work Completion. */
function recvStatus(st: RiWcStatus): DS {
  if (st === RiWcStatus.SUCCESS) return DS.IT_DTO_SUCCESS;
  if (st === RiWcStatus.WR_FLUSHED_ERROR) return DS.IT_DTO_ERR_FLUSHED;
  // A Send longer than the Receive (RFC 5041 "message too long").
  if (st === RiWcStatus.BASE_BOUNDS_VIOLATION_ERROR || st === RiWcStatus.HUGE_PAYLOAD_ERROR) return DS.IT_DTO_ERR_LOCAL_LENGTH;
  if (LOCAL_PROT.has(st)) return DS.IT_DTO_ERR_LOCAL_PROTECTION;
  if (st === RiWcStatus.LOCAL_QP_OP_ERROR || st === RiWcStatus.WQE_FORMAT_ERROR) return DS.IT_DTO_ERR_LOCAL_EP;
  return DS.IT_DTO_ERR_TRANSPORT;
}

/**
 * The affiliated Event that reports an RNICPI QP event,
 * using the Terminate message for the remote-error cases; null when none is reported.
 */
function affiliatedOf(t: RiAsyncEventType, term: { layer: number; etype: number; ecode: number } | null): ET | null {
  switch (t) {
    case RiAsyncEventType.QP_TERMINATE_MESSAGE_RECEIVED: {
      if (!term) return ET.IT_ASYNC_AFF_EP_R_ERROR;
      if (term.layer === 1 && term.etype === 2) {
        if (term.ecode === 2) return ET.IT_ASYNC_AFF_EP_R_RECV_ACCESS_VIOLATION;
        if (term.ecode === 5) return ET.IT_ASYNC_AFF_EP_R_RECV_LENGTH_ERROR;
        return ET.IT_ASYNC_AFF_EP_R_ERROR;
      }
      if ((term.layer === 1 && term.etype === 1) || (term.layer === 0 && term.etype === 1)) return ET.IT_ASYNC_AFF_EP_R_ACCESS_VIOLATION;
      return ET.IT_ASYNC_AFF_EP_R_ERROR;
    }
    case RiAsyncEventType.QP_LLQ_CONNECTION_RESET:
    case RiAsyncEventType.QP_LLQ_CONNECTION_LOST:
    case RiAsyncEventType.QP_LLQ_INTEGRITY_ERROR_SIZE:
    case RiAsyncEventType.QP_LLQ_INTEGRITY_ERROR_CRC:
    case RiAsyncEventType.QP_LLQ_INTEGRITY_ERROR_BAD_FPDU:
      return ET.IT_ASYNC_AFF_EP_L_LLP_ERROR;
    case RiAsyncEventType.QP_REMOTE_OP_ERROR_OPCODE:
      return ET.IT_ASYNC_AFF_EP_BAD_TRANSPORT_OPCODE;
    case RiAsyncEventType.QP_REMOTE_OP_ERROR_DDP_VERSION:
    case RiAsyncEventType.QP_REMOTE_OP_ERROR_RDMA_VERSION:
    case RiAsyncEventType.QP_REMOTE_OP_ERROR_DDP_QN:
    case RiAsyncEventType.QP_REMOTE_OP_ERROR_RDMA_RD_INVALID:
    case RiAsyncEventType.QP_REMOTE_OP_ERROR_NO_L_BIT:
    case RiAsyncEventType.QP_RQ_PROTECTION_ERROR_MSN_GAP:
    case RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_MSN_GAP:
    case RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_INVALID_MSN:
    case RiAsyncEventType.QP_LOCAL_CATASTROPHIC_ERROR:
      return ET.IT_ASYNC_AFF_EP_L_TRANSPORT_ERROR;
    case RiAsyncEventType.QP_REMOTE_OP_ERROR_RDMA_RD_DISABLED:
    case RiAsyncEventType.QP_REMOTE_OP_ERROR_RDMA_WR_RD_RESP_DISABLED:
    case RiAsyncEventType.QP_PROTECTION_ERROR_STAG_QP_MISMATCH:
    case RiAsyncEventType.QP_PROTECTION_ERROR_BOUNDS_VIOLATION:
    case RiAsyncEventType.QP_PROTECTION_ERROR_ACCESS_VIOLATION:
    case RiAsyncEventType.QP_PROTECTION_ERROR_INVALID_PD:
    case RiAsyncEventType.QP_PROTECTION_ERROR_WRAP_ERROR:
      return ET.IT_ASYNC_AFF_EP_L_ACCESS_VIOLATION;
    case RiAsyncEventType.QP_RQ_PROTECTION_ERROR_INVALID_MSN:
      // "No buffer" is a Receive access violation; "message too long" is reported by the
      // Receive's IT_DTO_ERR_LOCAL_LENGTH completion.
      if (term && term.layer === 1 && term.etype === 2 && term.ecode === 5) return null;
      if (term && term.layer === 1 && term.etype === 2 && term.ecode !== 2) return ET.IT_ASYNC_AFF_EP_L_TRANSPORT_ERROR;
      return ET.IT_ASYNC_AFF_EP_L_RECV_ACCESS_VIOLATION;
    case RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_TOO_MANY_RDMA_RDs:
    case RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_INVALID_STAG:
    case RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_BOUNDS_VIOLATION:
    case RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_ACCESS_VIOLATION:
    case RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_INVALID_PD:
    case RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_WRAP_ERROR:
      return ET.IT_ASYNC_AFF_EP_L_IRRQ_ACCESS_VIOLATION;
    case RiAsyncEventType.QP_CQ_SQ_ERROR:
    case RiAsyncEventType.QP_CQ_RQ_ERROR:
    case RiAsyncEventType.QP_SRQ_ERROR:
      return ET.IT_ASYNC_AFF_EP_FAILURE;
    default:
      // Close-related events (bad close, LLP close complete) end the connection without an
      // affiliated error of their own.
      return null;
  }
}

// =============================================================================================
// Endpoint
// =============================================================================================

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

/** An Endpoint's connection on the RoCE Interface. */
interface IbEpConn {
  cm: RdmaIpCm;
  conn: IbCmConnection;
  /** Our Starting PSN (our RQ's first PSN). */
  psn: number;
  /** The IRD/ORD we asked for (active) or granted (passive). */
  ird: number;
  ord: number;
  sgid: Uint8Array;
  dgid: Uint8Array;
  /** Active: the connect in progress (`pending`). */
  ac: AbortController | null;
  /** Active: the path's timeout. */
  timer: NodeJS.Timeout | null;
  /** A hold on the port's CM is ours to release. */
  held: boolean;
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
  private errorClosed = false;
  spigot = 0;
  dstPath: it_path_t | null = null;
  /** A connect or conversion in progress (aborted by disconnect/free). */
  private pending: AbortController | null = null;
  conn: CmConnection | null = null;
  /** Passive side: the request accepted (for the ESTABLISHED Event). */
  private accepted: { pdata: Uint8Array; ird: number; ord: number } | null = null;
  /** TDI: ESTABLISHED carries no private data and IRD = ORD = 0. */
  private converted = false;
  /** RoCE Interface: the IB CM connection (held on the port's CM until the Endpoint goes). */
  private ib: IbEpConn | null = null;

  // ---- Send Queue accounting ----
  private sqNext = 0;
  private sqRetired = 0;
  private readonly wrs = new Map<bigint, SqRec>();
  private engineSq = 0;
  private readonly deferredSq: SqRec[] = [];
  // ---- Receive Queue accounting (own RQ) ----
  private rqPosted = 0;
  private rqRetired = 0;
  private readonly recvs = new Map<bigint, RecvRec>();
  private engineRq = 0;
  private readonly deferredRq: RecvRec[] = [];
  private nextId = 1n;
  /** Narrow RMRs linked through this Endpoint (`IT_ERR_EP_BUSY`). */
  narrowLinked = 0;
  /** CQ entries this Endpoint's work queues reserved on its DTO SEVDs. */
  cqReservation = { req: 0, recv: 0 };

  constructor(
    private readonly ia_: Ia,
    readonly pz: Pz,
    readonly reqEvd: Sevd,
    readonly recvEvd: Sevd,
    readonly connEvd: Sevd,
    readonly flags: number,
    readonly srq: Srq | null,
    readonly attr: EpAttrs,
  ) {
    super();
  }
  get ia(): Ia {
    return this.ia_;
  }
  private get ops() {
    return this.ia_.ops;
  }
  /** On the RoCE Interface (InfiniBand transport, the IB CM). */
  get isIb(): boolean {
    return isIbDevice(this.ia_.device);
  }

  // ------------------------------------------------------------------ QP

  /** Creates the QP with the current attributes; returns the RNIC status. */
  createQp(): RiRet {
    const ia = this.ia_;
    const a = this.attr;
    const r = this.ops.ri_qp_create(
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
      const st = ibQpInit(this.ops, ia.rnic, r.qp, { read: a.rdma_read_enable, write: a.rdma_write_enable, atomic: a.atomics_enable });
      if (st !== RiRet.SUCCESS) {
        this.ops.ri_qp_destroy(ia.rnic, r.qp);
        return st;
      }
    }
    this.qp = r.qp;
    this.cmQp = riCmQp(this.ops, ia.rnic, r.qp);
    a.max_request_dtos = r.attrs.sq_size;
    if (!this.srq) a.max_recv_dtos = r.attrs.rq_size;
    return RiRet.SUCCESS;
  }

  /** The QP's RNICPI state. */
  qpState(): RiQpState | null {
    return riQpState(this.ops, this.ia_.rnic, this.qp);
  }

  /** The QP's IRD/ORD (they follow the negotiation). */
  qpIrdOrd(): { ird: number; ord: number } {
    const r = this.ops.ri_qp_query(this.ia_.rnic, this.qp);
    if (r.status !== RiRet.SUCCESS) return { ird: this.attr.rdma_read_ird, ord: this.attr.rdma_read_ord };
    return { ird: r.attrs.max_rdma_read_incoming, ord: r.attrs.max_rdma_read_outgoing };
  }

  /** Moves the QP out of service: Idle → Error (flushes pre-posted Receives), RTS → Closing/Error. */
  private quenchQp(how: 'close' | 'abort'): void {
    const st = this.qpState();
    if (this.isIb) {
      // IB has no graceful close of the QP: the CM's DREQ/DREP says it; the QP goes to Error.
      if (st !== null && st !== RiQpState.ERROR) this.ops.ri_qp_modify(this.ia_.rnic, this.qp, RiQpAttrMask.NEXT_STATE, { state: RiQpState.ERROR });
      return;
    }
    let next: RiQpState | null = null;
    if (st === RiQpState.IDLE) next = RiQpState.ERROR;
    else if (st === RiQpState.READY_TO_SEND) next = how === 'close' ? RiQpState.CLOSING : RiQpState.ERROR;
    if (next === null) return;
    const r = this.ops.ri_qp_modify(this.ia_.rnic, this.qp, RiQpAttrMask.NEXT_STATE, { state: next });
    if (r.status !== RiRet.SUCCESS && next === RiQpState.CLOSING) {
      this.ops.ri_qp_modify(this.ia_.rnic, this.qp, RiQpAttrMask.NEXT_STATE, { state: RiQpState.ERROR });
    }
  }

  // ------------------------------------------------------------------ CM Events and states

  private cmEvent(n: it_connection_event_number_t, o: Partial<it_connection_event_t> = {}): void {
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

  /** Enters CONNECTED and queues ESTABLISHED (in that order). */
  private established(o: Partial<it_connection_event_t>): void {
    this.state = ST.IT_EP_STATE_CONNECTED;
    this.cmEvent(ET.IT_CM_MSG_CONN_ESTABLISHED_EVENT, o);
  }

  /**
   * Enters NONOPERATIONAL (once), queues `event` after the change, stops a pending connect or
   * conversion and takes the QP out of service; the WRs still on the RNIC are flushed by it.
   */
  toNonoperational(event: it_connection_event_number_t | null, o: Partial<it_connection_event_t> = {}, how: 'close' | 'abort' = 'abort'): void {
    if (this.state === ST.IT_EP_STATE_NONOPERATIONAL || this.freed) return;
    this.state = ST.IT_EP_STATE_NONOPERATIONAL;
    this.errorClosed = event !== ET.IT_CM_MSG_CONN_DISCONNECT_EVENT && event !== null;
    const p = this.pending;
    this.pending = null;
    p?.abort();
    if (event !== null) this.cmEvent(event, o);
    this.ibTeardown();
    this.quenchQp(how);
    this.flushDeferred();
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
      this.quenchQp('abort');
    }
  }

  /** A failure ended a connection attempt or a connection (state-dependent Event). */
  private connectionFailed(reason: RJ = RJ.IT_CN_REJ_OTHER): void {
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
      this.ibCommEst();
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
    const q = this.ops.ri_qp_query(this.ia_.rnic, this.qp);
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
      (before === ST.IT_EP_STATE_NONOPERATIONAL && this.errorClosed);
    if (aff !== null && report) this.postAffiliated(aff);
  }

  private postAffiliated(n: ET): void {
    const a = this.ia_.affEvd;
    a?.post({ event_number: n as never, evd: a, cause: { ep: this } }, true);
  }

  // ------------------------------------------------------------------ connection management

  /** `it_ep_connect` after validation: UNCONNECTED → ACTIVE1, TCP + MPA Request. */
  connect(host: string, port: number, path: it_path_t, opts: { localAddress?: string; localPort?: number; timeoutMs: number; pdata: Uint8Array; suppress: boolean }): void {
    this.state = ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING;
    this.dstPath = path;
    this.spigot = path.spigot_id;
    const ac = new AbortController();
    this.pending = ac;
    const params: CmConnectParams = {
      timeoutMs: opts.timeoutMs,
      privateData: opts.pdata,
      ird: this.attr.rdma_read_ird,
      ord: this.attr.rdma_read_ord,
      revision: opts.suppress ? 1 : 2,
      signal: ac.signal,
      // The ESTABLISHED event waits a moment after the Reply, for Linux siw peers.
      settleMs: ACTIVE_SETTLE_MS,
    };
    if (opts.localAddress) params.localAddress = opts.localAddress;
    if (opts.localPort) params.localPort = opts.localPort;
    cmConnect(this.cmQp, host, port, params).then(
      (conn) => {
        if (this.freed || this.pending !== ac || this.state !== ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING) {
          conn.disconnect('abortive');
          return;
        }
        this.pending = null;
        this.conn = conn;
        const ag = conn.agreement;
        this.established({
          private_data: pdataBuffer(conn.peerPrivateData),
          private_data_present: conn.peerPrivateData.length > 0,
          rdma_read_ird: ag?.peerIrd ?? 0,
          rdma_read_ord: ag?.peerOrd ?? 0,
        });
      },
      (err: unknown) => {
        if (this.freed || this.pending !== ac) return;
        this.pending = null;
        if (err instanceof CmError && err.kind === 'rejected') {
          const pd = err.privateData ?? new Uint8Array(0);
          this.toNonoperational(ET.IT_CM_MSG_CONN_PEER_REJECT_EVENT, { private_data: pdataBuffer(pd), private_data_present: pd.length > 0 });
          return;
        }
        const reason = rejectReason(err);
        log('connect failed: %s', (err as Error).message);
        this.toNonoperational(ET.IT_CM_MSG_CONN_NONPEER_REJECT_EVENT, {
          reject_reason_code: reason,
          dst_path: reason === RJ.IT_CN_REJ_BAD_PATH ? path : null,
        });
      },
    );
  }

  /** `it_ep_accept` (2-way, passive) after validation. Throws the immediate error. */
  accept(req: PendingRequest, pdata: Uint8Array): void {
    const cm = req.cm;
    if (cm instanceof IbItRequest) {
      this.acceptIb(req, cm, pdata);
      return;
    }
    const info = { pdata: cm.privateData.slice(), ird: cm.peerIrd ?? 0, ord: cm.peerOrd ?? 0 };
    if (cm.state === 'pending') {
      let conn: CmConnection;
      try {
        conn = cm.accept(this.cmQp, { ird: this.attr.rdma_read_ird, ord: this.attr.rdma_read_ord, privateData: pdata });
      } catch (e) {
        const k = e instanceof CmError ? e.kind : 'invalid';
        log('accept refused: %s', (e as Error).message);
        if (k === 'qp') fail(S.IT_ERR_INVALID_EP_STATE, (e as Error).message);
        fail(S.IT_ERR_INVALID_EP_ATTR, (e as Error).message);
      }
      req.consume();
      this.conn = conn;
      this.accepted = info;
      this.state = ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING;
      this.spigot = 0;
      this.dstPath = pathTo(cm.localAddress, cm.remoteAddress);
      return;
    }
    // The Initiator went away before the accept: the EP still starts establishment, which
    // then fails (cn_est_ids are destroyed only by the Consumer).
    req.consume();
    this.accepted = info;
    this.state = ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING;
    queueMicrotask(() => this.connectionFailed(RJ.IT_CN_REJ_OTHER));
  }

  // ------------------------------------------------------------------ RoCE: the IB CM

  /**
   * `it_ep_connect` on the RoCE Interface: UNCONNECTED → ACTIVE1, a REQ to `host`'s GID for
   * the RDMA_PS_TCP service of `port` with the `cma_hdr` in front of the private data (rdma_cm's
   * format, so any rdma_cm server answers); the REP moves the QP to RTR/RTS, the RTU goes out
   * and ESTABLISHED is queued. A REJ 28 is PEER_REJECT with its private data; other REJ reasons,
   * the CM's timeouts and the path's `timeout` are NONPEER_REJECT.
   */
  connectIb(host: string, port: number, path: it_path_t, opts: { localAddress?: string; timeoutMs: number; pdata: Uint8Array }): void {
    this.state = ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING;
    this.dstPath = path;
    this.spigot = path.spigot_id;
    const ac = new AbortController();
    this.pending = ac;
    const dev = this.ia_.device;
    const fails = (reason: RJ) => {
      if (this.freed || this.pending !== ac) return;
      this.pending = null;
      this.toNonoperational(ET.IT_CM_MSG_CONN_NONPEER_REJECT_EVENT, { reject_reason_code: reason, dst_path: reason === RJ.IT_CN_REJ_BAD_PATH ? path : null });
    };
    const cm = roceCm(dev);
    if (typeof cm === 'number') {
      log('connect: the CM of %s cannot be opened: %s', dev.name, RiRet[cm]);
      queueMicrotask(() => fails(RJ.IT_CN_REJ_RESOURCES));
      return;
    }
    cm.hold();
    let held = true;
    const letGo = () => {
      if (held) cm.release();
      held = false;
    };
    void (async () => {
      const own = roceAddresses(dev);
      const src = opts.localAddress && own.includes(opts.localAddress) ? opts.localAddress : await roceSourceFor(own, host);
      if (this.freed || this.pending !== ac) {
        letGo();
        return;
      }
      if (!src) {
        letGo();
        fails(RJ.IT_CN_REJ_BAD_PATH);
        return;
      }
      const sgid = gidFromIpv4(src);
      const dgid = gidFromIpv4(host);
      const psn = randomPsn();
      const ird = this.attr.rdma_read_ird;
      const ord = this.attr.rdma_read_ord;
      let conn: IbCmConnection;
      try {
        conn = cm.cm.connect(
          {
            destGid: dgid,
            localGid: sgid,
            serviceId: rdmaServiceId(RdmaPs.TCP, port),
            qpn: this.cmQp.id,
            startingPsn: psn,
            responderResources: ird,
            initiatorDepth: ord,
            retryCount: 7,
            rnrRetryCount: 7,
            pathMtu: IBOE_PATH_MTU,
            hopLimit: IBOE_HOP_LIMIT,
            packetLifeTime: IBOE_PACKET_LIFETIME,
            srq: this.srq !== null,
            privateData: cmaPrivateDataOf({ address: src, port: ephemeralPort() }, host, opts.pdata),
          },
          (e) => this.onIbEvent(e),
        );
      } catch (e) {
        log('connect: %s', (e as Error).message);
        letGo();
        fails(RJ.IT_CN_REJ_RESOURCES);
        return;
      }
      const timer = setTimeout(() => {
        if (this.ib?.conn === conn) fails(RJ.IT_CN_REJ_TIMEOUT);
      }, opts.timeoutMs);
      timer.unref();
      this.ib = { cm, conn, psn, ird, ord, sgid, dgid, ac, timer, held };
      held = false;
    })();
  }

  /**
   * `it_ep_accept` of a RoCE request: the QP to RTR/RTS with the REQ's values (its QPN and
   * starting PSN, the path, its Local ACK Timeout and retry counts; IRD/ORD the smaller of ours
   * and the peer's), then the REP with our private data. ESTABLISHED follows on the RTU, or on
   * the first data (COMM_EST).
   */
  private acceptIb(req: PendingRequest, cm: IbItRequest, pdata: Uint8Array): void {
    const info = { pdata: cm.privateData.slice(), ird: cm.peerIrd, ord: cm.peerOrd };
    if (cm.state !== 'pending') {
      req.consume();
      this.accepted = info;
      this.state = ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING;
      queueMicrotask(() => this.connectionFailed(RJ.IT_CN_REJ_OTHER));
      return;
    }
    const r = cm.req;
    const dev = this.ia_.device;
    const psn = randomPsn();
    const ird = Math.min(this.attr.rdma_read_ird, r.initiatorDepth);
    const ord = Math.min(this.attr.rdma_read_ord, r.responderResources);
    const back = () => {
      // Back to Init with the Receives flushed, as the Endpoint was (the request stays open).
      this.ops.ri_qp_modify(this.ia_.rnic, this.qp, RiQpAttrMask.NEXT_STATE, { state: RiQpState.IDLE });
      ibQpInit(this.ops, this.ia_.rnic, this.qp, { read: this.attr.rdma_read_enable, write: this.attr.rdma_write_enable, atomic: this.attr.atomics_enable });
    };
    const st = ibQpToRts(this.ops, this.ia_.rnic, this.qp, {
      dgid: r.primary.localGid,
      sgidIndex: gidIndexOf(dev, r.primary.remoteGid),
      pathMtu: r.pathMtu,
      destQpn: r.localQpn,
      // The REQ's Starting PSN is what the active side receives first (our SQ PSN); the REP's
      // (ours) what we will receive.
      rqPsn: psn,
      sqPsn: r.startingPsn,
      ird,
      ord,
      timeout: r.primary.localAckTimeout,
      retryCount: r.retryCount,
      rnrRetryCount: r.rnrRetryCount,
    });
    if (st !== RiRet.SUCCESS) {
      back();
      fail(S.IT_ERR_INVALID_EP_ATTR, `the QP cannot take the request's path: ${RiRet[st]}`);
    }
    cm.take((e) => this.onIbEvent(e));
    try {
      cm.conn.accept({ qpn: this.cmQp.id, startingPsn: psn, responderResources: ird, initiatorDepth: ord, rnrRetryCount: 7, srq: this.srq !== null, privateData: pdata });
    } catch (e) {
      back();
      fail(S.IT_ERR_INVALID_EP_STATE, (e as Error).message);
    }
    cm.cm.hold();
    this.ib = { cm: cm.cm, conn: cm.conn, psn, ird, ord, sgid: r.primary.remoteGid, dgid: r.primary.localGid, ac: null, timer: null, held: true };
    req.consume();
    this.accepted = info;
    this.state = ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING;
    this.spigot = 0;
    this.dstPath = ibPathOf(cm.localAddress, cm.remoteAddress, 0n);
  }

  /** The IB CM's events for this Endpoint's connection. */
  private onIbEvent(e: IbCmEvent): void {
    const ib = this.ib;
    if (this.freed || !ib) return;
    switch (e.type) {
      case 'rep': {
        if (this.state !== ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING || this.pending !== ib.ac) {
          ib.conn.destroy();
          return;
        }
        const rep = e.rep;
        const req = ib.conn.req!;
        const st = ibQpToRts(this.ops, this.ia_.rnic, this.qp, {
          dgid: ib.dgid,
          sgidIndex: gidIndexOf(this.ia_.device, ib.sgid),
          pathMtu: req.pathMtu,
          destQpn: rep.localQpn,
          // Each CM message's Starting PSN is the PSN its sender receives first.
          rqPsn: ib.psn,
          sqPsn: rep.startingPsn,
          // What the peer grants: its initiator depth bounds our IRD, its responder resources our ORD.
          ird: Math.min(ib.ird, rep.initiatorDepth),
          ord: Math.min(ib.ord, rep.responderResources),
          timeout: req.primary.localAckTimeout,
          retryCount: req.retryCount,
          rnrRetryCount: rep.rnrRetryCount,
        });
        if (st !== RiRet.SUCCESS) {
          log('REP: the QP cannot reach RTS (%s): REJ', RiRet[st]);
          ib.conn.reject();
          this.pending = null;
          this.toNonoperational(ET.IT_CM_MSG_CONN_NONPEER_REJECT_EVENT, { reject_reason_code: RJ.IT_CN_REJ_BAD_CONN_PARMS });
          return;
        }
        ib.conn.ready();
        if (ib.timer) clearTimeout(ib.timer);
        this.pending = null;
        this.established({
          private_data: pdataBuffer(rep.privateData),
          private_data_present: rep.privateData.length > 0,
          rdma_read_ird: rep.responderResources,
          rdma_read_ord: rep.initiatorDepth,
        });
        return;
      }
      case 'established': {
        if (this.state !== ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING) return;
        const a = this.accepted;
        this.established(a ? { private_data: pdataBuffer(a.pdata), private_data_present: a.pdata.length > 0, rdma_read_ird: a.ird, rdma_read_ord: a.ord } : {});
        return;
      }
      case 'rejected': {
        if (this.state === ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING && this.pending === ib.ac) {
          this.pending = null;
          if (e.reason === CmRejReason.CONSUMER_DEFINED) {
            this.toNonoperational(ET.IT_CM_MSG_CONN_PEER_REJECT_EVENT, { private_data: pdataBuffer(e.privateData), private_data_present: e.privateData.length > 0 });
            return;
          }
          const code = rejectCodeOf(e.reason);
          log('connect: REJ reason %d', e.reason);
          this.toNonoperational(ET.IT_CM_MSG_CONN_NONPEER_REJECT_EVENT, { reject_reason_code: code, dst_path: code === RJ.IT_CN_REJ_BAD_PATH ? this.dstPath : null });
          return;
        }
        this.connectionFailed(rejectCodeOf(e.reason));
        return;
      }
      case 'timeout':
        if (this.state === ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING) this.pending = null;
        this.connectionFailed(RJ.IT_CN_REJ_TIMEOUT);
        return;
      case 'dreq':
        ib.conn.disconnect();
        if (this.state === ST.IT_EP_STATE_CONNECTED) this.toNonoperational(ET.IT_CM_MSG_CONN_DISCONNECT_EVENT, {}, 'close');
        else this.connectionFailed();
        return;
      default:
        return;
    }
  }

  /** IB: the first data arrived before the RTU; the CM is told (it reports ESTABLISHED). */
  private ibCommEst(): void {
    const c = this.ib?.conn;
    if (c && (c.state === 'REP_SENT' || c.state === 'MRA_REP_RCVD')) c.establish();
  }

  /** IB: the connection ends with the Endpoint's: DREQ when established, else REJ (Linux `cm_destroy_id`). */
  private ibTeardown(): void {
    const ib = this.ib;
    if (!ib) return;
    if (ib.timer) clearTimeout(ib.timer);
    ib.timer = null;
    const c = ib.conn;
    try {
      if (c.state === 'ESTABLISHED' || c.state === 'DREQ_RCVD') c.disconnect();
      else if (c.state !== 'DREQ_SENT' && c.state !== 'TIMEWAIT' && c.state !== 'IDLE') c.destroy();
    } catch (e) {
      log('CM teardown: %s', (e as Error).message);
    }
  }

  /** IB: lets go of the connection and the port's CM (free, reset). */
  private ibRelease(): void {
    const ib = this.ib;
    if (!ib) return;
    this.ibTeardown();
    if (ib.held) ib.cm.release();
    ib.held = false;
    this.ib = null;
  }

  /**
   * `it_socket_convert` after validation. `msg` non-empty = Conversion Initiator (MPA
   * Responder, passive states); null = Conversion Responder (MPA Initiator, active states).
   */
  convert(sd: Socket, msg: Uint8Array | null, noReqRep: boolean): void {
    this.converted = true;
    const initiator = msg !== null && msg.length > 0;
    const ac = new AbortController();
    this.pending = ac;
    this.dstPath = pathTo(sd.localAddress ?? '', sd.remoteAddress ?? '');
    this.state = initiator
      ? noReqRep
        ? ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING
        : ST.IT_EP_STATE_PASSIVE_WAIT_RDMA_TRANS_REQ
      : ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING;
    const opts: CmConvertOptions = noReqRep
      ? { mpa: false }
      : { mpa: { revision: 1, timeoutMs: 0, signal: ac.signal } };
    if (initiator) opts.lastStreamingMessage = msg;
    cmConvertSocket(this.cmQp, sd, opts).then(
      (conn) => {
        if (this.freed || this.pending !== ac) {
          conn.disconnect('abortive');
          return;
        }
        this.pending = null;
        this.conn = conn;
        if (initiator) {
          // The MPA Request arrived and was answered: wait for the first iWARP payload.
          if (this.state === ST.IT_EP_STATE_PASSIVE_WAIT_RDMA_TRANS_REQ) this.state = ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING;
          this.accepted = { pdata: new Uint8Array(0), ird: 0, ord: 0 };
        } else if (this.state === ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING) {
          this.established({});
        }
      },
      (err: unknown) => {
        if (this.freed || this.pending !== ac) return;
        this.pending = null;
        log('conversion failed: %s', (err as Error).message);
        // A failed Conversion (error, LLP close, unrecognised MPA) is BAD_CONN_PARMS (§2.4).
        this.connectionFailed(RJ.IT_CN_REJ_BAD_CONN_PARMS);
      },
    );
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
    this.ibRelease();
    if (st === RiQpState.IDLE) ok = true;
    else if (st === RiQpState.ERROR) {
      const r = this.ops.ri_qp_modify(this.ia_.rnic, this.qp, RiQpAttrMask.NEXT_STATE, { state: RiQpState.IDLE });
      ok = r.status === RiRet.SUCCESS;
    }
    if (ok && this.isIb) {
      const a = this.attr;
      ok = ibQpInit(this.ops, this.ia_.rnic, this.qp, { read: a.rdma_read_enable, write: a.rdma_write_enable, atomic: a.atomics_enable }) === RiRet.SUCCESS;
    }
    if (!ok) {
      // Still closing (LLP close or Terminate in progress): start over with a fresh QP.
      const d = this.ops.ri_qp_destroy(this.ia_.rnic, this.qp);
      if (d.status !== RiRet.SUCCESS) return false;
      const c = this.createQp();
      if (c !== RiRet.SUCCESS) {
        log('it_ep_reset: QP re-creation failed: %s', RiRet[c]);
        return false;
      }
    }
    this.state = ST.IT_EP_STATE_UNCONNECTED;
    this.errorClosed = false;
    this.conn = null;
    this.accepted = null;
    this.converted = false;
    this.dstPath = null;
    // Completions not harvested may be dropped (it_ep_reset): forget the WRs of the old life.
    this.wrs.clear();
    this.recvs.clear();
    this.deferredSq.length = 0;
    this.deferredRq.length = 0;
    this.engineSq = 0;
    this.engineRq = 0;
    this.sqRetired = this.sqNext;
    this.rqRetired = this.rqPosted;
    return true;
  }

  /** Frees the Endpoint unconditionally (busy checks are the caller's). */
  destroy(): void {
    if (this.freed) return;
    this.freed = true;
    const p = this.pending;
    this.pending = null;
    p?.abort();
    this.ibRelease();
    const ia = this.ia_;
    const st = this.ops.ri_qp_destroy(ia.rnic, this.qp);
    if (st.status !== RiRet.SUCCESS) log('ri_qp_destroy: %s', RiRet[st.status]);
    for (const e of [this.reqEvd, this.recvEvd, this.connEvd]) e.feeders--;
    this.reqEvd.unreserveCq(this.cqReservation.req);
    this.recvEvd.unreserveCq(this.cqReservation.recv);
    this.reqEvd.eps.delete(this);
    this.recvEvd.eps.delete(this);
    if (this.srq) this.srq.users--;
    ia.eps.delete(this);
  }

  // ------------------------------------------------------------------ posting

  /** WRs outstanding on the Send Queue (posted, no covering completion dequeued). */
  get sqOutstanding(): number {
    return this.sqNext - this.sqRetired;
  }
  get rqOutstanding(): number {
    return this.rqPosted - this.rqRetired;
  }

  /**
   * Posts one SQ WR (validated by the caller). In NONOPERATIONAL the WR completes flushed
   * without reaching the RNIC.
   */
  postSq(rec: Omit<SqRec, 'seq'>, wr: ri_wr_t, length = 0): void {
    if (this.sqOutstanding >= this.attr.max_request_dtos) fail(S.IT_ERR_TOO_MANY_POSTS);
    const r: SqRec = { ...rec, seq: this.sqNext++ };
    if (this.state === ST.IT_EP_STATE_NONOPERATIONAL || this.deferredSq.length > 0) {
      // Flushed; or behind a WR that failed before reaching the RNIC (it breaks the connection,
      // so everything after it is flushed too, and completions keep their post order).
      r.synthetic = DS.IT_DTO_ERR_FLUSHED;
      this.deferredSq.push(r);
      this.flushDeferred();
      return;
    }
    if (length > this.attr.max_dto_payload_size && (rec.kind === 'send' || rec.kind === 'write' || rec.kind === 'read')) {
      // Above max_dto_payload_size: IT_DTO_ERR_LOCAL_LENGTH (it_dto_status_t), in post order.
      r.synthetic = DS.IT_DTO_ERR_LOCAL_LENGTH;
      this.deferredSq.push(r);
      this.flushDeferred();
      return;
    }
    const id = this.nextId++;
    this.wrs.set(id, r);
    this.engineSq++;
    const res = this.ops.ri_qp_postsq(this.ia_.rnic, this.qp, [{ ...wr, id } as ri_wr_t]);
    if (res.status === RiRet.SUCCESS) return;
    this.wrs.delete(id);
    this.engineSq--;
    switch (res.status) {
      case RiRet.QP_CAPACITY_EXCEEDED:
        this.sqNext--;
        fail(S.IT_ERR_TOO_MANY_POSTS);
        break;
      case RiRet.RNIC_SG_LIMIT_EXCEEDED:
      case RiRet.WR_SG_INVALID_FORMAT:
        this.sqNext--;
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
    this.deferredSq.push(r);
    this.flushDeferred();
  }

  /** Posts one Receive to the Endpoint's own RQ (validated by the caller). */
  postRecv(rec: RecvRec, sgl: ri_data_seg_t[]): void {
    if (this.rqOutstanding >= this.attr.max_recv_dtos) fail(S.IT_ERR_TOO_MANY_POSTS);
    this.rqPosted++;
    if (this.state === ST.IT_EP_STATE_NONOPERATIONAL) {
      rec.synthetic = true;
      this.deferredRq.push(rec);
      this.flushDeferred();
      return;
    }
    const id = this.nextId++;
    this.recvs.set(id, rec);
    this.engineRq++;
    const wr: ri_wr_recv_t = { flags: 0, id, sg_list: sgl };
    const res = this.ops.ri_qp_postrq(this.ia_.rnic, this.qp, [wr]);
    if (res.status === RiRet.SUCCESS) return;
    this.recvs.delete(id);
    this.engineRq--;
    this.rqPosted--;
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
        this.rqPosted++;
        rec.synthetic = true;
        this.deferredRq.push(rec);
        this.flushDeferred();
        break;
    }
  }

  /** Completes the WRs that never reached the RNIC once everything posted before them did. */
  private flushDeferred(): void {
    if (this.engineSq === 0) {
      for (const r of this.deferredSq.splice(0)) this.completeSq(r, r.synthetic ?? DS.IT_DTO_ERR_FLUSHED, 0);
    }
    if (this.engineRq === 0) {
      for (const r of this.deferredRq.splice(0)) this.completeRecv(r, DS.IT_DTO_ERR_FLUSHED, 0, false, null);
    }
  }

  // ------------------------------------------------------------------ completions

  /** A Work Completion of this Endpoint's QP (drained from an SEVD's CQ). */
  onWc(wc: ri_wc_t): void {
    if (this.freed) return;
    const w = wc as ri_rc_wc_t;
    if (w.op_type === RiWcType.DATA_RECEIVED) {
      this.onRecvWc(w);
      return;
    }
    const rec = this.wrs.get(w.id);
    if (!rec) return;
    this.wrs.delete(w.id);
    this.engineSq--;
    const st = sqStatus(rec, w.op_status);
    if (st === DS.IT_DTO_SUCCESS) this.applySuccess(rec);
    this.completeSq(rec, st, w.bytes_transferred);
    this.flushDeferred();
  }

  /** Memory bookkeeping of a successful Link/Unlink or unlinking Read. */
  private applySuccess(rec: SqRec): void {
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

  private completeSq(rec: SqRec, st: DS, bytes: number): void {
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
      if (seq + 1 > this.sqRetired) this.sqRetired = seq + 1;
    });
    if (st !== DS.IT_DTO_SUCCESS) this.onCompletionError(st);
  }

  private onRecvWc(w: ri_rc_wc_t): void {
    const srq = this.srq;
    const rec = srq ? srq.recvs.get(w.id) : this.recvs.get(w.id);
    if (!rec) return;
    if (srq) {
      srq.recvs.delete(w.id);
      srq.consumed++;
    } else {
      this.recvs.delete(w.id);
      this.engineRq--;
    }
    const st = recvStatus(w.op_status);
    let unlinked: Lmr | Rmr | null = null;
    if (st === DS.IT_DTO_SUCCESS && (w.flags & RiWcFlags.RTAG_INVALIDATE) !== 0) {
      unlinked = this.ia_.memByContext(w.invalidated_rtag);
      unlinked?.onUnlinked();
    }
    this.completeRecv(rec, st, w.bytes_transferred, (w.flags & RiWcFlags.SOLICITED_EVENT) !== 0, unlinked);
    if (!srq) this.flushDeferred();
    srq?.checkLowWatermark();
  }

  private completeRecv(rec: RecvRec, st: DS, bytes: number, solicited: boolean, unlinked: Lmr | Rmr | null): void {
    // IB: the first data before the RTU establishes the connection (COMM_EST).
    if (st === DS.IT_DTO_SUCCESS && this.state === ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING) this.ibCommEst();
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
      else this.rqRetired++;
    });
    if (st !== DS.IT_DTO_SUCCESS) this.onCompletionError(st);
  }

  /** Any unsuccessful completion ends a connection that is up or being set up. */
  private onCompletionError(st: DS): void {
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

/** A Path between the two ends of an established TCP connection. */
function pathTo(local: string, remote: string): it_path_t {
  const l = netAddrOf(local);
  const r = netAddrOf(remote);
  const v6 = l.addr_type === it_net_addr_type_t.IT_IPV6 || r.addr_type === it_net_addr_type_t.IT_IPV6;
  const text = (a: it_net_addr_t): string => ('ipv4' in a.addr ? a.addr.ipv4 : 'ipv6' in a.addr ? a.addr.ipv6 : '');
  return {
    spigot_id: 0,
    timeout: 0n,
    remote: {
      iwarp: v6
        ? { ip_vers: it_ip_vers_t.IT_IP_VERS_IPV6, laddr: { ipv6: text(l) }, raddr: { ipv6: text(r) } }
        : { ip_vers: it_ip_vers_t.IT_IP_VERS_IPV4, laddr: { ipv4: text(l) }, raddr: { ipv4: text(r) } },
    },
  };
}

// =============================================================================================
// Listen Points and connection requests
// =============================================================================================

/** A Listen Point: one CM listener feeding a CM_REQ SEVD. */
export class Listen extends ItObject {
  readonly [IT_HANDLE_KIND] = HT.IT_HANDLE_TYPE_LISTEN as const;
  constructor(
    private readonly ia_: Ia,
    readonly spigot: number,
    readonly evd: Sevd,
    readonly port: number,
    /** The iWARP CM's listener, or the RoCE Interface's ({@link IbItListen}). */
    readonly cm: CmListener | IbItListen,
    readonly suppressIrdOrd: boolean,
  ) {
    super();
    cm.on('request', (r: CmConnectRequest | IbItRequest) => this.onRequest(r));
    // RoCE: the port's UD service requests (SIDR_REQ to RDMA_PS_UDP) arrive here too.
    cm.on('ud-request', (r: IbCmSidrRequest, a: CmaAddresses) => this.onUdRequest(r, a));
    cm.on('failure', (f: { kind: string; remoteAddress: string }) => log('handshake from %s failed: %s', f.remoteAddress, f.kind));
  }
  get ia(): Ia {
    return this.ia_;
  }
  get connQual(): it_conn_qual_t {
    return { type: IT_IANA_PORT, conn_qual: { port: this.port } };
  }
  /** A UD service request: `IT_CM_REQ_UD_SERVICE_REQUEST_EVENT` (a full SEVD drops it; the requester retransmits). */
  private onUdRequest(r: IbCmSidrRequest, a: CmaAddresses): void {
    if (this.freed || this.evd.full) {
      if (!this.freed) this.evd.drop();
      return;
    }
    const id = new UdSvcRequest(this.ia_, r, netAddrOf(a.src));
    this.ia_.udRequests.add(id);
    const pd = id.privateData;
    this.evd.post(
      {
        event_number: ET.IT_CM_REQ_UD_SERVICE_REQUEST_EVENT,
        evd: this.evd,
        ud_svc_req_id: id,
        conn_qual: this.connQual,
        source_addr: id.source,
        spigot_id: this.spigot,
        private_data: pdataBuffer(pd),
        private_data_present: pd.length > 0,
      },
      true,
    );
  }

  private onRequest(r: CmConnectRequest | IbItRequest): void {
    if (this.freed) {
      r.reject();
      return;
    }
    deliverRequest(this, new PendingRequest(this.ia_, r, this.suppressIrdOrd));
  }
  /** Stops listening; requests already delivered stay valid (`it_listen_free`). */
  destroy(): void {
    if (this.freed) return;
    this.freed = true;
    this.evd.feeders--;
    void this.cm.close();
    this.ia_.listens.delete(this);
  }
}

/**
 * A connection request (`it_cn_est_identifier_t`): the CM request behind it, consumed once by
 * `it_ep_accept`, `it_reject` or `it_handoff`.
 */
export class PendingRequest implements it_cn_est_identifier_t {
  readonly [IT_ID_KIND] = 'cn_est_id' as const;
  consumed = false;
  /** Dropped because the CM_REQ SEVD was full: never shown to the Consumer. */
  held = false;
  /** The CONN_REQUEST Event delivered for it (re-delivered by `it_handoff`). */
  event: it_conn_request_event_t | null = null;
  constructor(
    readonly ia: Ia,
    readonly cm: CmConnectRequest | IbItRequest,
    readonly suppressIrdOrd: boolean,
  ) {}
  consume(): void {
    this.consumed = true;
    this.ia.requests.delete(this);
  }
  /** `it_ia_free`: ends a request nobody will answer. */
  terminate(): void {
    if (this.consumed) return;
    this.consume();
    if (this.cm.state === 'pending') this.cm.reject();
  }
}

/**
 * Queues `IT_CM_REQ_CONN_REQUEST_EVENT` for `req` on the Listen's SEVD. A full SEVD drops the
 * request: it is left unanswered, so the active side times out
 * (`IT_CN_REJ_TIMEOUT`), and forgotten when the Initiator gives up.
 */
export function deliverRequest(listen: Listen, req: PendingRequest, original: it_conn_request_event_t | null = null): void {
  const ia = listen.ia;
  const cm = req.cm;
  ia.requests.add(req);
  const evd = listen.evd;
  if (evd.full) {
    req.held = true;
    log('CM_REQ SEVD full: connection request from %s:%d dropped', cm.remoteAddress, cm.remotePort);
    evd.drop();
    cm.once('aborted', () => {
      if (req.held) req.consume();
    });
    return;
  }
  const suppressed = req.suppressIrdOrd || cm.peerIrd === null;
  // it_handoff: the new Event is indistinguishable from the original (but for its id and SEVD).
  const ev: it_conn_request_event_t = original
    ? { ...original, evd, cn_est_id: req }
    : {
        event_number: ET.IT_CM_REQ_CONN_REQUEST_EVENT,
        evd,
        cn_est_id: req,
        conn_qual: listen.connQual,
        source_addr: netAddrOf(cm.remoteAddress),
        spigot_id: listen.spigot,
        max_message_size: 0,
        rdma_read_ird: suppressed ? 0 : (cm.peerIrd ?? 0),
        rdma_read_ord: suppressed ? 0 : (cm.peerOrd ?? 0),
        private_data: pdataBuffer(cm.privateData),
        private_data_present: cm.privateData.length > 0,
      };
  req.event = ev;
  evd.post(ev, true);
}

// =============================================================================================
// Shared Receive Queue
// =============================================================================================

/** A Shared Receive Queue: one RNICPI SRQ. */
export class Srq extends ItObject implements ItAsyncTarget {
  readonly [IT_HANDLE_KIND] = HT.IT_HANDLE_TYPE_SRQ as const;
  readonly recvs = new Map<bigint, RecvRec>();
  private nextId = 1n;
  /** Receives posted / completed (any status) / completion dequeued. */
  posted = 0;
  consumed = 0;
  retired = 0;
  /** Endpoints using the S-RQ (`IT_ERR_SRQ_BUSY`). */
  users = 0;
  /** IT-API low watermark while armed; 0 = disarmed. */
  lowWatermark = 0;
  constructor(
    private readonly ia_: Ia,
    readonly pz: Pz,
    public srq: ri_srq_handle_t,
    public maxRecvDtos: number,
    public maxRecvSegs: number,
  ) {
    super();
  }
  get ia(): Ia {
    return this.ia_;
  }
  get outstanding(): number {
    return this.posted - this.retired;
  }

  post(rec: RecvRec, sgl: ri_data_seg_t[]): void {
    if (this.outstanding >= this.maxRecvDtos) fail(S.IT_ERR_TOO_MANY_POSTS);
    const id = this.nextId++;
    this.recvs.set(id, rec);
    const r = this.ia_.ops.ri_srq_post(this.ia_.rnic, this.srq, [{ flags: 0, id, sg_list: sgl }]);
    if (r.status !== RiRet.SUCCESS) {
      this.recvs.delete(id);
      if (r.status === RiRet.RNIC_SG_LIMIT_EXCEEDED || r.status === RiRet.WR_SG_INVALID_FORMAT) fail(S.IT_ERR_INVALID_NUM_SEGMENTS);
      fail(S.IT_ERR_TOO_MANY_POSTS);
    }
    this.posted++;
  }

  /** Arms the low watermark `lw` (> 0). The RNIC's SRQ limit fires at "≤ lowat" (lowat = lw − 1). */
  arm(lw: number): RiRet {
    if (lw > 1) {
      const r = this.ia_.ops.ri_srq_modify(this.ia_.rnic, this.srq, RiSrqAttrMask.LOWAT, { lowat: lw - 1 });
      if (r.status !== RiRet.SUCCESS) return r.status;
    }
    this.lowWatermark = lw;
    return RiRet.SUCCESS;
  }

  /**
   * A watermark of 1 ("below one Receive", i.e. empty) cannot be an RNICPI limit (lowat 0
   * disarms): the IT-API layer checks it on each S-RQ Receive completion.
   */
  checkLowWatermark(): void {
    if (this.lowWatermark === 1 && this.posted - this.consumed < 1) this.fire();
  }

  private fire(): void {
    this.lowWatermark = 0;
    const a = this.ia_.affEvd;
    a?.post({ event_number: ET.IT_ASYNC_AFF_SRQ_LOW_WATERMARK, evd: a, cause: { srq: this } }, true);
  }

  onRiAsync(ev: ri_event_record_t): void {
    if (this.freed) return;
    if (ev.event_type === RiAsyncEventType.SRQ_LIMIT_REACHED) {
      if (this.lowWatermark > 1) this.fire();
      return;
    }
    log('S-RQ async event %s', RiAsyncEventType[ev.event_type]);
  }

  destroy(): void {
    if (this.freed) return;
    this.freed = true;
    const st = this.ia_.ops.ri_srq_destroy(this.ia_.rnic, this.srq);
    if (st.status !== RiRet.SUCCESS) log('ri_srq_destroy: %s', RiRet[st.status]);
    this.ia_.srqs.delete(this);
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


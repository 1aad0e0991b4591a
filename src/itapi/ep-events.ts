/**
 * What an RC Endpoint reports (IT-API 2.1 Ch. 3–4): the DTO Event of each kind of work request,
 * the `it_dto_status_t` of each RNICPI completion status, the affiliated asynchronous Event of
 * each RNICPI event (with the Terminate that caused it), the reject reason of a failed connect,
 * private data as received, and addresses and Paths. The records an Endpoint keeps per work
 * request are declared here too.
 *
 * @module
 */
import { CmError } from '../iwarp/cm.js';
import { RiAsyncEventType, RiWcStatus } from '../rnicpi/types.js';
import type { Lmr, Rmr } from './mem.js';
import {
  IT_MAX_PRIV_DATA,
  it_conn_reject_code_t as RJ,
  it_dto_status_t as DS,
  it_event_type_t as ET,
  it_ip_vers_t,
  it_net_addr_type_t,
  type it_affiliated_ep_event_number_t,
  type it_dto_event_number_t,
  type it_net_addr_t,
  type it_path_t,
} from './types.js';

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

export const EVENT_OF: Record<WrKind, it_dto_event_number_t> = {
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
export function sqStatus(rec: SqRec, st: RiWcStatus): DS {
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
export function recvStatus(st: RiWcStatus): DS {
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
export function affiliatedOf(
  t: RiAsyncEventType,
  term: { layer: number; etype: number; ecode: number } | null,
): it_affiliated_ep_event_number_t | null {
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

/** A Path between the two ends of an established TCP connection. */
export function pathTo(local: string, remote: string): it_path_t {
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

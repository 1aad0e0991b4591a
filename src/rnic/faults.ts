/**
 * Transport-neutral faults: what the core's responder and requester report when an inbound
 * operation or a local condition must end the connection. Each transport maps them to its
 * own wire error: an iWARP Terminate with layer/type/code (RFC 5040 §7, RFC 5041 §7), or an
 * InfiniBand NAK syndrome (IBTA Vol. 1 §9.7.5.2.8: 0x61 Remote Access, 0x62 Remote
 * Operational, 0x63 Invalid Request).
 *
 * The names follow the checks of RDMA Protocol Verbs §7.6.3 (the access check) and §6.5
 * (ORD/IRD), so that a fault says *which rule* failed, not how a wire spells it.
 */
import { RiAsyncEventType as AE } from '../rnicpi/types.js';

/** A fault found on an inbound operation, or a local condition that ends the stream. */
export enum Fault {
  /** No error. */
  OK = 0,
  // ---- the access check of a tagged buffer (Verbs §7.6.3) ----
  /** No such STag/key, or the STag is invalid. */
  INVALID_STAG = 1,
  /** The range is outside the region or window. */
  BOUNDS = 2,
  /** The region's (or the QP's) rights do not allow the access. */
  RIGHTS = 3,
  /** The STag exists but belongs to another PD (or its window to another QP). */
  NOT_ASSOCIATED = 4,
  /** TO + length wraps past 2^64 − 1. */
  WRAP = 5,
  // ---- untagged (Send) messages ----
  /** A Send arrived and no receive WQE is posted (iWARP: Terminate; IB: RNR NAK). */
  NO_RECV_BUFFER = 10,
  /** The message is longer than the receive WQE's buffers. */
  MSG_TOO_LONG = 11,
  /** A segment's message offset is not the next expected one. */
  BAD_OFFSET = 12,
  // ---- Send with Invalidate (Verbs §7.10.2) ----
  INVALIDATE_INVALID_STAG = 20,
  INVALIDATE_NOT_ASSOCIATED = 21,
  INVALIDATE_RIGHTS = 22,
  CANNOT_INVALIDATE = 23,
  // ---- Read Requests and Responses (Verbs §6.5) ----
  /** More Read Requests outstanding than the responder's IRD. */
  IRD_EXCEEDED = 30,
  /** Inbound RDMA Read is not enabled on the QP (its Read Request queue does not exist). */
  READ_NOT_ENABLED = 31,
  /** A Read Request whose source failed the access check: the variants mirror 1–5. */
  READ_SRC_INVALID_STAG = 32,
  READ_SRC_BOUNDS = 33,
  READ_SRC_RIGHTS = 34,
  READ_SRC_NOT_ASSOCIATED = 35,
  READ_SRC_WRAP = 36,
  /** The Read's source was invalidated or deallocated while its Response was going out. */
  READ_SRC_GONE = 37,
  /** A Read Response arrived with no Read outstanding. */
  UNEXPECTED_RESPONSE = 38,
  /** A Read Response names another sink than the outstanding Read. */
  RESPONSE_STAG_MISMATCH = 39,
  /** A Read Response falls outside the requested sink or is short. */
  RESPONSE_OUT_OF_RANGE = 40,
  // ---- atomics (IBTA Vol. 1 §9.4.5; RFC 7306 §5) ----
  /** The atomic's target is not 8-octet aligned (IBTA: Invalid Request NAK). */
  ATOMIC_MISALIGNED = 41,
  /** More Read and Atomic Requests outstanding than the responder's IRD (they share it). */
  ATOMIC_IRD_EXCEEDED = 42,
  /** The target failed the access check: the variants mirror 1–5 (rights: no Remote Atomic). */
  ATOMIC_INVALID_STAG = 43,
  ATOMIC_BOUNDS = 44,
  ATOMIC_RIGHTS = 45,
  ATOMIC_NOT_ASSOCIATED = 46,
  ATOMIC_WRAP = 47,
  /** An atomic operation code or operand size this responder does not implement. */
  ATOMIC_UNSUPPORTED = 48,
  /** An Atomic Response with no atomic outstanding at the ORQ head, or with another identifier. */
  UNEXPECTED_ATOMIC_RESPONSE = 49,
  // ---- anything else ----
  /** An operation the receiving side does not support. */
  UNEXPECTED_OP = 50,
  /** A local, catastrophic error: a local WR failed, or the Consumer asked (Verbs §6.2 T8). */
  LOCAL_CATASTROPHIC = 60,
  /**
   * A catastrophic error local to this stream: the LLP closed while work was outstanding
   * ("Bad LLP Close"), or a CQ overflowed (Verbs §7.3).
   */
  STREAM_CATASTROPHIC = 61,
  /** The fault was already handled by the core (a completion and the QP's error path). */
  HANDLED = 99,
}

/** Faults that mean "the Read Request's source failed the access check", by AccessError. */
export const READ_SRC_FAULT: Readonly<Record<number, Fault>> = {
  1: Fault.READ_SRC_INVALID_STAG,
  2: Fault.READ_SRC_BOUNDS,
  3: Fault.READ_SRC_RIGHTS,
  4: Fault.READ_SRC_NOT_ASSOCIATED,
  5: Fault.READ_SRC_WRAP,
  6: Fault.READ_SRC_RIGHTS,
  7: Fault.READ_SRC_INVALID_STAG,
};

/** Faults of an atomic's target, by AccessError. */
export const ATOMIC_TARGET_FAULT: Readonly<Record<number, Fault>> = {
  1: Fault.ATOMIC_INVALID_STAG,
  2: Fault.ATOMIC_BOUNDS,
  3: Fault.ATOMIC_RIGHTS,
  4: Fault.ATOMIC_NOT_ASSOCIATED,
  5: Fault.ATOMIC_WRAP,
  6: Fault.ATOMIC_RIGHTS,
  7: Fault.ATOMIC_INVALID_STAG,
};

/** Faults of a tagged sink (inbound Write), by AccessError. */
export const SINK_FAULT: Readonly<Record<number, Fault>> = {
  1: Fault.INVALID_STAG,
  2: Fault.BOUNDS,
  3: Fault.RIGHTS,
  4: Fault.NOT_ASSOCIATED,
  5: Fault.WRAP,
  6: Fault.RIGHTS,
  7: Fault.INVALID_STAG,
};

/**
 * What a peer is told instead of "STag not associated". A valid STag of
 * another Protection Domain, or a window bound to another QP, is reported on the wire exactly as
 * an STag that does not exist, so that an unauthenticated peer cannot sweep the STag space for
 * other PDs' regions; the local Consumer still gets the precise affiliated event. RDMA Protocol
 * Verbs §10 I3 wants 0x0103 for a Send with Invalidate of another PD's MR: an RNIC configured
 * with `discloseNotAssociated` sends the RFC's "not associated" codes (see the spec-notes).
 */
export const UNDISCLOSED_FAULT: Readonly<Partial<Record<Fault, Fault>>> = {
  [Fault.NOT_ASSOCIATED]: Fault.INVALID_STAG,
  [Fault.READ_SRC_NOT_ASSOCIATED]: Fault.READ_SRC_INVALID_STAG,
  [Fault.INVALIDATE_NOT_ASSOCIATED]: Fault.INVALIDATE_INVALID_STAG,
  [Fault.ATOMIC_NOT_ASSOCIATED]: Fault.ATOMIC_INVALID_STAG,
};

/**
 * The affiliated asynchronous event that reports each inbound fault (RDMA Protocol Verbs §7.3
 * "Asynchronous Event Identifiers"; RNICPI 1.0 §6.11). Faults with no entry (local ones) raise
 * no event of their own: the failed WR's completion reports them (Verbs §8.3).
 */
export const AE_OF_FAULT: Readonly<Partial<Record<Fault, AE>>> = {
  [Fault.INVALID_STAG]: AE.QP_PROTECTION_ERROR_STAG_QP_MISMATCH,
  [Fault.BOUNDS]: AE.QP_PROTECTION_ERROR_BOUNDS_VIOLATION,
  [Fault.RIGHTS]: AE.QP_PROTECTION_ERROR_ACCESS_VIOLATION,
  [Fault.NOT_ASSOCIATED]: AE.QP_PROTECTION_ERROR_STAG_QP_MISMATCH,
  [Fault.WRAP]: AE.QP_PROTECTION_ERROR_WRAP_ERROR,
  [Fault.NO_RECV_BUFFER]: AE.QP_RQ_PROTECTION_ERROR_INVALID_MSN,
  [Fault.MSG_TOO_LONG]: AE.QP_RQ_PROTECTION_ERROR_INVALID_MSN,
  [Fault.BAD_OFFSET]: AE.QP_RQ_PROTECTION_ERROR_INVALID_MSN,
  [Fault.INVALIDATE_INVALID_STAG]: AE.QP_PROTECTION_ERROR_STAG_QP_MISMATCH,
  [Fault.INVALIDATE_NOT_ASSOCIATED]: AE.QP_PROTECTION_ERROR_STAG_QP_MISMATCH,
  [Fault.INVALIDATE_RIGHTS]: AE.QP_PROTECTION_ERROR_ACCESS_VIOLATION,
  [Fault.CANNOT_INVALIDATE]: AE.QP_PROTECTION_ERROR_STAG_QP_MISMATCH,
  [Fault.IRD_EXCEEDED]: AE.QP_IRRQ_PROTECTION_ERROR_TOO_MANY_RDMA_RDs,
  [Fault.READ_NOT_ENABLED]: AE.QP_REMOTE_OP_ERROR_DDP_QN,
  [Fault.READ_SRC_INVALID_STAG]: AE.QP_IRRQ_PROTECTION_ERROR_INVALID_STAG,
  [Fault.READ_SRC_BOUNDS]: AE.QP_IRRQ_PROTECTION_ERROR_BOUNDS_VIOLATION,
  [Fault.READ_SRC_RIGHTS]: AE.QP_IRRQ_PROTECTION_ERROR_ACCESS_VIOLATION,
  [Fault.READ_SRC_NOT_ASSOCIATED]: AE.QP_IRRQ_PROTECTION_ERROR_INVALID_PD,
  [Fault.READ_SRC_WRAP]: AE.QP_IRRQ_PROTECTION_ERROR_WRAP_ERROR,
  [Fault.READ_SRC_GONE]: AE.QP_PROTECTION_ERROR_STAG_QP_MISMATCH,
  [Fault.UNEXPECTED_RESPONSE]: AE.QP_REMOTE_OP_ERROR_OPCODE,
  [Fault.RESPONSE_STAG_MISMATCH]: AE.QP_PROTECTION_ERROR_STAG_QP_MISMATCH,
  [Fault.RESPONSE_OUT_OF_RANGE]: AE.QP_PROTECTION_ERROR_BOUNDS_VIOLATION,
  [Fault.UNEXPECTED_OP]: AE.QP_REMOTE_OP_ERROR_OPCODE,
  [Fault.ATOMIC_MISALIGNED]: AE.QP_PROTECTION_ERROR_BOUNDS_VIOLATION,
  [Fault.ATOMIC_IRD_EXCEEDED]: AE.QP_IRRQ_PROTECTION_ERROR_TOO_MANY_RDMA_RDs,
  [Fault.ATOMIC_INVALID_STAG]: AE.QP_PROTECTION_ERROR_STAG_QP_MISMATCH,
  [Fault.ATOMIC_BOUNDS]: AE.QP_PROTECTION_ERROR_BOUNDS_VIOLATION,
  [Fault.ATOMIC_RIGHTS]: AE.QP_PROTECTION_ERROR_ACCESS_VIOLATION,
  [Fault.ATOMIC_NOT_ASSOCIATED]: AE.QP_PROTECTION_ERROR_STAG_QP_MISMATCH,
  [Fault.ATOMIC_WRAP]: AE.QP_PROTECTION_ERROR_WRAP_ERROR,
  [Fault.ATOMIC_UNSUPPORTED]: AE.QP_REMOTE_OP_ERROR_OPCODE,
  [Fault.UNEXPECTED_ATOMIC_RESPONSE]: AE.QP_REMOTE_OP_ERROR_OPCODE,
};

/**
 * A wire error a QP sent or received, as its transport recorded it. The core only keeps it (for
 * Query QP's terminate information, RNICPI §6.7) and reads the neutral fault behind it; what it
 * looks like on the wire is the transport's: an iWARP Terminate message (RFC 5040 §4.8), an
 * InfiniBand NAK (IBTA Vol. 1 §9.7.5.2.8), or nothing for a transport with no wire form.
 */
export interface WireError {
  /** The error as it went on the wire (at most 52 octets, RNICPI §6.7); empty when it has no wire form. */
  readonly bytes: Uint8Array;
  /** This QP sent it (true) or the peer did (false). */
  readonly local: boolean;
  /** The neutral fault behind it, when known: a peer's refusal of a Read or atomic completes it with this fault's status. */
  readonly fault?: Fault;
  /** Its codes by their wire names (iWARP: `layer`, `etype`, `ecode`; InfiniBand: `syndrome`, `msn`); none without a wire form. */
  readonly codes?: Readonly<Record<string, number>>;
}

/** A wire error in one line for the state log: its codes, else its fault. */
export function wireErrorText(e: WireError): string {
  if (e.codes)
    return Object.entries(e.codes)
      .map(([k, v]) => `${k} 0x${v.toString(16)}`)
      .join(' ');
  return e.fault !== undefined ? `fault ${Fault[e.fault]}` : 'no code';
}

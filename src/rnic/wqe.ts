/**
 * Work Queue Elements: the RNIC's private copies of posted Work Requests.
 *
 * A WR exists only during the post call; everything the RNIC needs later is copied into a
 * WQE at post time (RDMA Protocol Verbs §8.1, RNICPI §5.5 "the VP must copy what it needs").
 */
import type { AtomicArgs } from './atomics.js';
import type { MemObject, MemTarget } from './memory.js';
import type { UdDest } from './transport.js';

/** A scatter/gather element: (STag, TO, length). */
export interface Sge {
  stag: number;
  to: bigint;
  len: number;
}

/** Where a WQE is in its life. */
export enum WqeState {
  /** Posted, not started. */
  QUEUED = 0,
  /** Being transmitted (some segments sent). */
  ACTIVE = 1,
  /** An RDMA Read waiting for its Read Response (in the ORQ). */
  WAIT_RESPONSE = 2,
  /**
   * Transmitted; waiting for delivery: the LLP releasing the data (iWARP zero-copy) or the
   * peer's acknowledgement (IB RC), whichever the transport's `sendCompletion` says.
   */
  WAIT_DELIVERY = 3,
  /** Finished: its completion (if any) can be generated in SQ order. */
  DONE = 4,
}

/** The Fast-Register WR's physical buffer description (RNICPI `ri_mr_reg_phys_attr_t`). */
export interface FmrSpec {
  va: bigint;
  length: number;
  memFlags: number;
  /** Physical addresses of equal-size buffers (pbeSize > 0). */
  pbl: bigint[];
  pbeSize: number;
  fbo: number;
}

/**
 * The arguments of a local memory operation WQE (Verbs §8.2.2.1), kept apart from the data WQE's
 * fields so that a Send or Write WQE carries none of them.
 */
export interface LocalOp {
  /** Bind: the window and the region it is bound to, with the window's VA, length, rights and new key. */
  mw: MemObject | null;
  mr: MemObject | null;
  bindVa: bigint;
  bindLength: number;
  bindFlags: number;
  bindNewStag: number;
  /** Fast-Register: the buffer description. */
  fmr: FmrSpec | null;
  /** Fast-Register / Local Invalidate: the region or window. */
  target: MemObject | null;
  /** Bind: the region's STag; Fast-Register / Local Invalidate: the target's STag. */
  targetStag: number;
}

/** A Send Queue WQE. Fields that do not apply to the type are left at their defaults. */
export class SqWqe {
  state = WqeState.QUEUED;
  /** Completion status (RI_WC_STATUS_*); 0 = success. */
  status = 0;
  /**
   * A local SGE failed its check when the WR was posted (post.ts): the WR completes with this
   * status when it reaches the SQ head, and nothing of it goes on the wire. 0 = none.
   */
  postError = 0;
  /** Send/Write: octets of the message already handed to the transport. */
  bytesSent = 0;
  /** Read: sink SGEs for which a Read Request has been issued. */
  readsIssued = 0;
  /** Read: Read Requests issued and not yet fully answered (the WQE completes at 0). */
  readsOutstanding = 0;
  // -- SGL (Send, Write: source; Read: sink) --
  sgl: Sge[] = [];
  totalLen = 0;
  /** SGL entries resolved by the access check at start of transmission. */
  targets: { target: MemTarget; offset: number; len: number }[] | null = null;
  // -- remote address (Write, Read: STag/TO; Send with Invalidate: STag to invalidate) --
  remoteStag = 0;
  remoteTo = 0n;
  /** Bind, Fast-Register, Local Invalidate: what the operation needs (null for the others). */
  local: LocalOp | null = null;
  // -- immediate data (Send/Write with Immediate) --
  imm = 0;
  // -- atomics: the operation and the Request Identifier it went out with --
  atomic: AtomicArgs | null = null;
  requestId = 0;
  // -- UD Send: the datagram's destination --
  ud: UdDest | null = null;
  constructor(
    /** Sequence number of this WQE in its SQ. */
    readonly seq: number,
    /** RI_WR_TYPE_*. */
    readonly type: number,
    /** RI_WR_* flags. */
    readonly flags: number,
    readonly id: bigint,
  ) {}
}

/** A Receive Queue / S-RQ WQE. */
export class RqWqe {
  /** Bytes placed so far (DDP MO of the next expected segment). */
  placed = 0;
  targets: { target: MemTarget; offset: number; len: number }[] | null = null;
  capacity = 0;
  constructor(
    readonly seq: number,
    readonly flags: number,
    readonly id: bigint,
    readonly sgl: Sge[],
  ) {}
}

/**
 * An inbound RDMA Read Request waiting for (or being served by) Read Responses
 * (RDMA Protocol Verbs §6.5 IRRQ, RFC 5040 §4.5).
 */
export interface InboundRead {
  sinkStag: number;
  sinkTo: bigint;
  length: number;
  target: MemTarget | null;
  offset: number;
  /** The source object (its validity is re-checked before each Read Response segment). */
  src: MemObject | null;
  /** Octets of the Read Response already handed to the transport. */
  sent: number;
  /**
   * An inbound atomic shares the queue (and IRD) with Reads (RFC 7306 §5, IBTA §9.4.5): it was
   * executed on arrival, and its response (this identifier and original value) waits here in
   * order with the Read Responses.
   */
  atomic?: { requestId: number; orig: bigint[] } | null;
}

/** One outbound RDMA Read Request in flight: an ORQ entry (Verbs §6.5). */
export interface OrqEntry {
  /** The Read WQE; null for a request the RNIC makes itself (the RFC 6581 Read RTR). */
  wqe: SqWqe | null;
  sinkStag: number;
  sinkTo: bigint;
  length: number;
  /** Octets of the response placed so far. */
  received: number;
  /** The resolved sink, checked when the first response segment arrives (Verbs §7.6.3). */
  target: { target: MemTarget | null; offset: number; obj: MemObject | null } | null;
  /** An atomic's entry: its Request Identifier (the ORQ holds Reads and atomics in order). */
  atomicId?: number;
}

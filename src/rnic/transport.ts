/**
 * The transport interface: what a QP holds while it is connected, and what the core asks of
 * the wire underneath (iWARP over TCP, the in-process loopback, RoCEv2 over UDP).
 *
 * The division of labour:
 * - the **core** (qp.ts, requester.ts, responder.ts) owns the semantics: queues, the access
 *   check, ordering, ORD/IRD, completions and flushes;
 * - a **transport** frames what the requester hands it ({@link TxSeg}), carries it, and hands
 *   what arrives to the responder's neutral entry points. It maps the core's neutral
 *   {@link Fault}s to its own wire errors, and reports LLP events (FIN, close, reset) to the QP.
 *
 * The core says "there is work" ({@link QpTransport.kick}); the transport pulls segments from
 * the requester at its own pace, which is where backpressure lives.
 */
import type { RiRet } from '../rnicpi/status.js';
import type { RiQpState } from '../rnicpi/types.js';
import type { AtomicArgs } from './atomics.js';
import type { Fault, WireError } from './faults.js';
import type { LlpAttrs, Qp } from './qp.js';
import type { IbService } from './qp-states.js';
import type { SqWqe } from './wqe.js';

/** What a transport can do: data the core and the capability queries read. */
export interface TransportCaps {
  /** Immediate data (IBTA Vol. 1 §9.4.1; RFC 7306 §6). */
  readonly immediateData: boolean;
  /** Atomic operations (IBTA Vol. 1 §9.4.5; RFC 7306 §5). */
  readonly atomics: boolean;
  /**
   * Extended atomics (the manual's §8.7: masked operations on 16- and 32-octet operands) can
   * reach the peer. 8-octet masked atomics need only `atomics` (RFC 7306 carries masks).
   */
  readonly extAtomics?: boolean;
  /** Receiver Not Ready retries instead of a fatal error when no receive is posted. */
  readonly rnr: boolean;
  /**
   * When a Send or Write completes: on local delivery to the LLP (iWARP, Verbs §8.2.2 "work
   * completion is only local delivery to TCP") or when the peer acknowledges it (IB RC).
   */
  readonly sendCompletion: 'local-delivery' | 'ack';
  /** The QP state set the transport's QPs use. */
  readonly states: 'iwarp' | 'ib';
}

/** Operations a transmit segment carries: the core's neutral names for the wire messages. */
export enum TxOp {
  SEND = 0,
  SEND_INVALIDATE = 1,
  RDMA_WRITE = 2,
  READ_REQUEST = 3,
  READ_RESPONSE = 4,
  /** Send with Immediate: a Send whose every segment carries `imm` (iWARP: RFC 7306 Immediate Data). */
  SEND_IMM = 5,
  /** An atomic request (`atomic`, `requestId`, `stag`/`to` of the target). */
  ATOMIC_REQUEST = 6,
  /** The response to an inbound atomic (`requestId`, `orig`). */
  ATOMIC_RESPONSE = 7,
}

/**
 * One transmit segment, handed by the requester to the transport. The requester reuses one
 * object per QP, and its `parts` array too, so a transport must copy
 * what it keeps beyond the call.
 */
export interface TxSeg {
  op: TxOp;
  /** The WQE it belongs to (null for Read Responses). */
  wqe: SqWqe | null;
  /** Octets of payload in this segment and where they are (views of registered memory). */
  len: number;
  parts: Uint8Array[];
  /** Offset of this segment within its message (DDP MO; for tagged ops the TO offset). */
  offset: number;
  /** The last segment of its message. */
  last: boolean;
  /** Solicited Event requested (Send family). */
  se: boolean;
  /** Tagged ops: the remote STag and the TO of this segment's first octet. */
  stag: number;
  to: bigint;
  /** Send with Invalidate: the STag the peer invalidates. */
  invStag: number;
  /** Read Request: the sink (requester's) STag/TO, the size, the source STag/TO. */
  sinkStag: number;
  sinkTo: bigint;
  size: number;
  srcStag: number;
  srcTo: bigint;
  /**
   * Immediate data (32 bits, IB `imm_data`) when `hasImm`: on every segment of a Send with
   * Immediate, and on the last segment of an RDMA Write with Immediate.
   */
  hasImm: boolean;
  imm: number;
  /** Atomics: the Request Identifier (RFC 7306 §5.1), the operation, the original value. */
  requestId: number;
  atomic: AtomicArgs | null;
  orig: readonly bigint[] | null;
  /** UD Send: where the datagram goes (IBTA Vol. 1 §9.8 DETH; the WR's `wr.ud`). */
  ud: UdDest | null;
}

/** The destination of a UD Send, from its WR (`ibv_send_wr.wr.ud`, RNICPI `ri_wr_datagram_t`). */
export interface UdDest {
  /** The address handle's address vector. */
  readonly av: IbAv;
  readonly remoteQpn: number;
  /** The Q_Key sent in the DETH (IBTA Vol. 1 §10.2.5: bit 31 set means "the QP's own Q_Key"). */
  readonly remoteQkey: number;
}

/** The parts of a segment without payload; shared, never written. */
const NO_PARTS: Uint8Array[] = [];

/** A blank segment (zero-length, last, no WQE): the starting point every producer fills in. */
export function newTxSeg(): TxSeg {
  return {
    op: TxOp.SEND,
    wqe: null,
    len: 0,
    parts: NO_PARTS,
    offset: 0,
    last: true,
    se: false,
    stag: 0,
    to: 0n,
    invStag: 0,
    sinkStag: 0,
    sinkTo: 0n,
    size: 0,
    srcStag: 0,
    srcTo: 0n,
    ud: null,
    hasImm: false,
    imm: 0,
    requestId: 0,
    atomic: null,
    orig: null,
  };
}

/**
 * Makes a reused segment blank again, every field as {@link newTxSeg} gives it: a producer then
 * sets only the fields of its operation, and none is left over from the segment before (a Read
 * Request after a Send with Immediate carries no immediate).
 */
export function resetTxSeg(s: TxSeg): TxSeg {
  s.op = TxOp.SEND;
  s.wqe = null;
  s.len = 0;
  s.parts = NO_PARTS;
  s.offset = 0;
  s.last = true;
  s.se = false;
  s.stag = 0;
  s.to = 0n;
  s.invStag = 0;
  s.sinkStag = 0;
  s.sinkTo = 0n;
  s.size = 0;
  s.srcStag = 0;
  s.srcTo = 0n;
  s.ud = null;
  s.hasImm = false;
  s.imm = 0;
  s.requestId = 0;
  s.atomic = null;
  s.orig = null;
  return s;
}

/** The transport half of one connected QP. */
export interface QpTransport {
  readonly caps: TransportCaps;
  /** Enters RDMA mode; `streamMsg` is a last streaming-mode message to send first (iWARP). */
  start(streamMsg: Uint8Array | null): void;
  /** The core has work (a post, a freed ORD slot, a queued Read Response). */
  kick(): void;
  /** Largest payload one segment of `op` may carry. */
  maxPayload(op: TxOp): number;
  /** Graceful close of the LLP (iWARP: TCP FIN after everything queued). */
  closeGraceful(): void;
  /** Abortive close (iWARP: TCP RST, Verbs §6.2 T12). */
  reset(): void;
  /** Stops listening to the LLP; the QP no longer hears from it. */
  detach(): void;
  /**
   * Sends the wire error for a fatal condition — the single place each transport emits one
   * (iWARP: the Terminate message, RFC 5040 §4.8). `err` is a core {@link Fault} or the
   * transport's own error object for faults only it can see (a bad CRC, a bad MSN). Returns
   * the wire error as the transport records it (its own codes; the core keeps it for Query QP).
   */
  sendFatal(err: Fault | object, copied: unknown): WireError;
  /**
   * InfiniBand QPs: a Modify changed attributes the transport reads (`changed` holds
   * {@link IbQpAttr} bits; `qp.ib` already holds the new values). Called after the core applied
   * the Modify, e.g. RTR→RTS with the SQ PSN, timeout and retry counts (IBTA Vol. 1 §11.2.4.2).
   */
  ibModified?(attrs: Readonly<IbQpAttrs>, changed: number, from: RiQpState, to: RiQpState): void;
  /**
   * InfiniBand UD QPs: the QP joined (`attached`) or left a multicast group (IBTA Vol. 1 §10.5;
   * RNICPI `ri_mcast_attach`); the QP's current groups are `qp.mcast` (the transport reads them
   * at `start` too, for groups attached before it was bound).
   */
  mcastChanged?(mgid: Uint8Array, attached: boolean): void;
  /** InfiniBand: the port's GID table changed (a UD QP follows the port's addresses). */
  gidsChanged?(): void;
}

// ---------------------------------------------------------------------------- InfiniBand

/**
 * An address vector (IBTA Vol. 1 §11.2.2.1 "Address Vector"; for RoCEv2 the GRH fields carry
 * the IP addresses: Annex A17 §A17.4). GIDs are 16 raw octets.
 */
export interface IbAv {
  dgid: Uint8Array;
  sgidIndex: number;
  /** The source GID the index named when the AV was set (from the RNIC's GID table). */
  sgid: Uint8Array;
  hopLimit: number;
  trafficClass: number;
  flowLabel: number;
  sl: number;
  port: number;
}

/** A blank address vector (all-zero GIDs, port 1). */
export function newIbAv(): IbAv {
  return { dgid: new Uint8Array(16), sgidIndex: 0, sgid: new Uint8Array(16), hopLimit: 0, trafficClass: 0, flowLabel: 0, sl: 0, port: 1 };
}

/**
 * The InfiniBand attributes of a QP (IBTA Vol. 1 §11.2.4.2 "Modify Queue Pair"), kept by the
 * core and read by the transport. `qp.ord` is max_rd_atomic and `qp.ird` max_dest_rd_atomic.
 */
export interface IbQpAttrs {
  service: IbService;
  /** Path MTU as `enum ibv_mtu` (1..5 = 256..4096 octets); see {@link mtuBytes}. */
  pathMtu: number;
  destQpn: number;
  /** Expected PSN of the receive side (24 bits). */
  rqPsn: number;
  /** First PSN of the send side (24 bits). */
  sqPsn: number;
  /** Local ACK timeout: 4.096 µs × 2^timeout, 0 = infinite (IBTA Vol. 1 §9.7.6.1.3). */
  timeout: number;
  retryCnt: number;
  /** 7 means infinite (IBTA Vol. 1 §9.7.5.2.8). */
  rnrRetry: number;
  minRnrTimer: number;
  qkey: number;
  pkeyIndex: number;
  port: number;
  av: IbAv;
  /** Raise the "SQ drained" event on reaching SQD (IBTA Vol. 1 §11.2.4.2). */
  sqdNotify: boolean;
}

/** Octets of an `enum ibv_mtu` value (IBTA Vol. 1 §7.7.1: 256 × 2^(mtu−1)). */
export function mtuBytes(mtu: number): number {
  return 128 << mtu;
}

/**
 * Makes the transport of an InfiniBand QP on INIT→RTR (IBTA Vol. 1 §10.3.1: the QP starts
 * receiving in RTR). Returning a status fails the Modify, which then changes nothing.
 */
export type IbBinder = (qp: Qp, attrs: Readonly<IbQpAttrs>) => QpTransport | RiRet;

const ibBinders = new Map<string, IbBinder>();

/** Registers the binder of an IB transport under the name an RNIC's `ibLink` gives. */
export function registerIbBinder(kind: string, b: IbBinder): void {
  ibBinders.set(kind, b);
}

/** The transport for `qp` from the binder of `kind`, or null if none is registered. */
export function bindIb(kind: string, qp: Qp, attrs: Readonly<IbQpAttrs>): QpTransport | RiRet | null {
  const b = ibBinders.get(kind);
  return b ? b(qp, attrs) : null;
}

/**
 * Turns an LLP handle into a transport for `qp` (RNICPI §4.4 `llp_stream_handle`). A binder
 * returns `null` for handles it does not know, so the core can ask each registered one.
 */
export type LlpBinder = (qp: Qp, handle: unknown, attrs: LlpAttrs) => QpTransport | RiRet | null;

const binders: LlpBinder[] = [];

/** Registers a transport's binder (the provider's list, `installTransports`). */
export function registerLlpBinder(b: LlpBinder): void {
  if (!binders.includes(b)) binders.push(b);
}

/** Asks every registered binder; `null` if none knows the handle. */
export function bindLlp(qp: Qp, handle: unknown, attrs: LlpAttrs): QpTransport | RiRet | null {
  for (const b of binders) {
    const r = b(qp, handle, attrs);
    if (r !== null) return r;
  }
  return null;
}

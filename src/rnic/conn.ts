/**
 * The iWARP data path of one QP: MPA/DDP/RDMAP over a TCP socket (RFC 5040, 5041, 5044).
 *
 * Transmit. Posted WQEs become FPDUs in {@link Conn.run}, a loop that resumes where it
 * stopped: the current WQE and how many of its bytes are out (`SqWqe.processed`), the
 * head Read Response and its progress. The unit handed to the socket is a whole FPDU;
 * under socket backpressure (`write()` returned false) the loop stops between FPDUs and
 * resumes on `drain`, so at most one FPDU overshoots the socket's high-water mark. Each
 * run is corked, so the many small FPDUs of one run leave in one `writev`. Large payloads
 * go out zero-copy as views of registered memory; such a WQE completes only when the
 * socket has taken the bytes (its write callback), because "work completion is only local
 * delivery to TCP" and the Consumer may reuse the buffer right after (Linux siw makes the
 * same argument for its zero-copy path). Inbound Read Responses are interleaved fairly
 * with the Send Queue: at most {@link IRQ_BURST} Read Response FPDUs run back to back while
 * SQ work waits, as siw's `SIW_IRQ_MAXBURST_SQ_ACTIVE`.
 *
 * Receive. The deframer yields complete FPDUs (length and CRC checked) as views into the
 * socket chunks; a per-opcode table ({@link RX_HANDLERS}) dispatches each. Tagged payload
 * is copied straight from the chunks into the target region after one access check per
 * message; untagged payload goes into the receive WQE's SGL at its Message Offset.
 *
 * Errors. Every protocol error becomes a {@link TerminateError} naming the RFC's layer,
 * error type and code; {@link Conn.protocolError} hands the first one to
 * `Qp.terminateWith`, the single place that sends a Terminate.
 */
import type { Socket } from 'node:net';
import { RiRet } from '../rnicpi/status.js';
import { RiAsyncEventType, RiQpState, RiWcFlags, RiWcStatus, RiWrFlags, RiWrType } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import { crc32c } from '../wire/crc32c.js';
import { DDP_TAGGED_HDR_LEN, DDP_UNTAGGED_HDR_LEN, DdpQueue } from '../wire/ddp.js';
import { copyUlpduPrefix, type Fpdu, FpduDeframer } from '../wire/deframer.js';
import {
  DdpTaggedEcode,
  DdpUntaggedEcode,
  isTerminateError,
  MpaEcode,
  RdmapEcode,
  RdmapEtype,
  TerminateError,
} from '../wire/errors.js';
import { MarkerInserter, MPA_CRC_LEN, MPA_HDR_LEN, MPA_MAX_ULPDU, mpaPadLength, writeMpaCrc } from '../wire/mpa.js';
import {
  decodeRdmapHeaderInto,
  encodeRdmapHeader,
  RDMAP_VERSION,
  RdmapHeaderStruct,
  RdmapOpcode,
  rdmapHeaderLength,
} from '../wire/rdmap.js';
import { buildTerminate, decodeTerminate, encodeTerminateMessage } from '../wire/terminate.js';
import { openPcapForConn, type PcapTap } from './trace.js';
import { LlpStream, RTR_STAG, type RtrType } from './llp.js';
import { Access, AccessError, type AccessOut, checkAccess, copyToMem, type MemObject, memSlices } from './memory.js';
import { execBind, execFastReg, INVALIDATE_WC_STATUS, InvalidateError, invalidateStag } from './memops.js';
import type { MpaAttrs, Qp, TermCode, TermCopied } from './qp.js';
import { type InboundRead, type RqWqe, type SqWqe, WqeState } from './wqe.js';

const log = logger('conn');

/** Read Response FPDUs sent back to back while SQ work waits (siw: 4). */
export const IRQ_BURST = 4;
/** Payloads up to this size are copied into one FPDU buffer (one write, no callback wait). */
const COPY_THRESHOLD = 8192;
/** Octets written under one cork before it is flushed (small FPDUs still share a writev). */
const FLUSH_BYTES = 128 * 1024;
/** Largest header we ever parse before the payload (untagged 18 + Read Request 28). */
const MAX_HDR = 64;

/** One outbound RDMA Read Request in flight (the ORQ entry, Verbs §6.5). */
interface OrqEntry {
  /** The Read WQE; null for the RTR zero-length Read of RFC 6581, which has no WQE. */
  wqe: SqWqe | null;
  sinkStag: number;
  sinkTo: bigint;
  length: number;
  received: number;
  /** Resolved sink (checked when the first Read Response segment arrives, Verbs §7.6.3). */
  target: AccessOut | null;
}

/** A resolved SGL entry: where `len` bytes of a message go or come from. */
interface Piece {
  target: NonNullable<AccessOut['target']>;
  offset: number;
  len: number;
}

/** Completion status for a failed local (SGE) access check (RNICPI §6.10). */
const LOCAL_ACCESS_STATUS: Record<AccessError, RiWcStatus> = {
  [AccessError.OK]: RiWcStatus.SUCCESS,
  [AccessError.INVALID_STAG]: RiWcStatus.INVALID_STAG_ERROR,
  [AccessError.BOUNDS]: RiWcStatus.BASE_BOUNDS_VIOLATION_ERROR,
  [AccessError.RIGHTS]: RiWcStatus.ACCESS_VIOLATION_ERROR,
  [AccessError.NOT_ASSOCIATED]: RiWcStatus.INVALID_PD_ERROR,
  [AccessError.WRAP]: RiWcStatus.ADDRESS_WRAP_ERROR,
  [AccessError.QP_RIGHTS]: RiWcStatus.ACCESS_VIOLATION_ERROR,
  [AccessError.MW_IN_SGE]: RiWcStatus.INVALID_STAG_ERROR,
};

/**
 * Terminate for a failed check on a tagged Data Sink (inbound Write or Read Response):
 * DDP tagged buffer errors (RFC 5041 §7.2), except rights, which DDP does not know and
 * RDMAP reports as a remote protection error (RFC 5040 §7.2), as Linux siw does.
 */
function taggedSinkError(e: AccessError): TerminateError {
  switch (e) {
    case AccessError.BOUNDS:
      return TerminateError.ddpTagged(DdpTaggedEcode.BaseOrBounds);
    case AccessError.NOT_ASSOCIATED:
      return TerminateError.ddpTagged(DdpTaggedEcode.StagNotAssociated);
    case AccessError.WRAP:
      return TerminateError.ddpTagged(DdpTaggedEcode.ToWrap);
    case AccessError.RIGHTS:
    case AccessError.QP_RIGHTS:
      return TerminateError.rdmap(RdmapEtype.RemoteProtection, RdmapEcode.AccessRights);
    default:
      return TerminateError.ddpTagged(DdpTaggedEcode.InvalidStag);
  }
}

/** Terminate for a failed check on a Read Request's Data Source: RDMAP remote protection (RFC 5040 §7.2). */
function readSourceError(e: AccessError): TerminateError {
  const code: Record<number, RdmapEcode> = {
    [AccessError.BOUNDS]: RdmapEcode.BaseOrBounds,
    [AccessError.RIGHTS]: RdmapEcode.AccessRights,
    [AccessError.QP_RIGHTS]: RdmapEcode.AccessRights,
    [AccessError.NOT_ASSOCIATED]: RdmapEcode.StagNotAssociated,
    [AccessError.WRAP]: RdmapEcode.ToWrap,
  };
  return TerminateError.rdmap(RdmapEtype.RemoteProtection, code[e] ?? RdmapEcode.InvalidStag);
}

/** The affiliated async event that reports each kind of inbound error (Verbs §7.3, RNICPI §6.11). */
function asyncEventFor(err: TerminateError, opcode: number): RiAsyncEventType {
  const layer = err.layer;
  if (layer === 2) return err.ecode === 2 ? RiAsyncEventType.QP_LLQ_INTEGRITY_ERROR_CRC : RiAsyncEventType.QP_LLQ_INTEGRITY_ERROR_BAD_FPDU;
  const readReq = opcode === RdmapOpcode.ReadRequest;
  if (layer === 1) {
    if (err.etype === 1) {
      if (err.ecode === DdpTaggedEcode.InvalidVersion) return RiAsyncEventType.QP_REMOTE_OP_ERROR_DDP_VERSION;
      if (err.ecode === DdpTaggedEcode.BaseOrBounds) return RiAsyncEventType.QP_PROTECTION_ERROR_BOUNDS_VIOLATION;
      if (err.ecode === DdpTaggedEcode.ToWrap) return RiAsyncEventType.QP_PROTECTION_ERROR_WRAP_ERROR;
      return RiAsyncEventType.QP_PROTECTION_ERROR_STAG_QP_MISMATCH;
    }
    if (err.etype === 2) {
      if (err.ecode === DdpUntaggedEcode.InvalidQn) return RiAsyncEventType.QP_REMOTE_OP_ERROR_DDP_QN;
      if (err.ecode === DdpUntaggedEcode.InvalidVersion) return RiAsyncEventType.QP_REMOTE_OP_ERROR_DDP_VERSION;
      if (readReq) return RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_TOO_MANY_RDMA_RDs;
      return RiAsyncEventType.QP_RQ_PROTECTION_ERROR_INVALID_MSN;
    }
    return RiAsyncEventType.QP_LLQ_INTEGRITY_ERROR_SIZE;
  }
  if (err.etype === RdmapEtype.RemoteProtection) {
    if (readReq) {
      switch (err.ecode) {
        case RdmapEcode.BaseOrBounds:
          return RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_BOUNDS_VIOLATION;
        case RdmapEcode.AccessRights:
          return RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_ACCESS_VIOLATION;
        case RdmapEcode.StagNotAssociated:
          return RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_INVALID_PD;
        case RdmapEcode.ToWrap:
          return RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_WRAP_ERROR;
        default:
          return RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_INVALID_STAG;
      }
    }
    if (err.ecode === RdmapEcode.AccessRights) return RiAsyncEventType.QP_PROTECTION_ERROR_ACCESS_VIOLATION;
    return RiAsyncEventType.QP_PROTECTION_ERROR_STAG_QP_MISMATCH;
  }
  if (err.ecode === RdmapEcode.InvalidVersion) return RiAsyncEventType.QP_REMOTE_OP_ERROR_RDMA_VERSION;
  if (err.ecode === RdmapEcode.UnexpectedOpcode) return RiAsyncEventType.QP_REMOTE_OP_ERROR_OPCODE;
  return RiAsyncEventType.QP_LOCAL_CATASTROPHIC_ERROR;
}

type RxHandler = (c: Conn, h: RdmapHeaderStruct, f: Fpdu) => void;

/**
 * Validates an LLP stream handle and attaches a new connection to `qp` (RNICPI §4.4).
 * Returns `INVALID_LL_HANDLE` for anything that is not an open {@link LlpStream} and
 * `LL_BAD_STATE` for a stream another QP already owns.
 */
export function attachConn(qp: Qp, handle: unknown, mpa: MpaAttrs): Conn | RiRet {
  if (!(handle instanceof LlpStream) || !handle.usable) return RiRet.INVALID_LL_HANDLE;
  if (handle.inUse) return RiRet.LL_BAD_STATE;
  handle.inUse = true;
  return new Conn(qp, handle, mpa);
}

export class Conn {
  readonly socket: Socket;
  private readonly deframer: FpduDeframer;
  private readonly markers: MarkerInserter | null;
  private readonly crcOn: boolean;
  private readonly maxUlpdu: number;
  private readonly hdr = new RdmapHeaderStruct();
  private readonly scratch = new Uint8Array(MAX_HDR);
  private readonly access: AccessOut = { target: null, offset: 0, obj: null };
  private pcap: PcapTap | null = null;
  private active = false;
  private detached = false;
  private rxStopped = false;
  private scheduled = false;
  private running = false;
  private irqBurst = 0;
  private graceful = false;
  /** Responder: hold transmission until the Initiator's first FPDU (RFC 5044 §7.1.2). */
  private txHold: boolean;
  /** Responder in RFC 6581 peer-to-peer mode: the RTR type still expected. */
  private expectRtr: RtrType | null;
  // ---- transmit sequence state (RFC 5041 §5: MSNs start at 1 per queue) ----
  private sendMsn = 1;
  private readReqMsn = 1;
  private readonly orq: OrqEntry[] = [];
  // ---- receive state ----
  private recvMsn = 1;
  private recvReadMsn = 1;
  /** The receive WQE of the untagged Send message being placed, if any. */
  private recvWqe: RqWqe | null = null;
  private recvPieces: Piece[] | null = null;
  /** Tagged placement context: the STag and next TO of the message in progress. */
  private tagStag = -1;
  private tagNextTo = 0n;
  private tagObj: MemObject | null = null;
  private tagTarget: Piece['target'] | null = null;
  private tagOffset = 0;
  private tagEnd = 0;

  constructor(
    readonly qp: Qp,
    readonly stream: LlpStream,
    readonly mpa: MpaAttrs,
  ) {
    this.socket = stream.socket;
    this.crcOn = mpa.crc;
    this.maxUlpdu = Math.min(qp.rnic.config.maxUlpdu, MPA_MAX_ULPDU);
    this.markers = mpa.xmitMarkers ? new MarkerInserter(stream.txOffset) : null;
    this.txHold = stream.awaitFirstRx;
    this.expectRtr = stream.expectRtr;
    this.deframer = new FpduDeframer({
      maxUlpdu: MPA_MAX_ULPDU,
      crc: mpa.crc,
      markers: mpa.recvMarkers,
      streamOffset: stream.rxOffset,
      onFpdu: (f) => this.onFpdu(f),
      onError: (e) => this.protocolError(e, null),
    });
  }

  // ------------------------------------------------------------------ lifecycle

  /** Enters RDMA mode: optional last streaming-mode message, then FPDUs (Verbs §6.2 T3). */
  start(streamMsg: Uint8Array | null): void {
    const s = this.socket;
    this.active = true;
    this.pcap = openPcapForConn(s, this.qp.id);
    s.setNoDelay(true);
    // Half-close must stay possible: a Terminate can still go out after the peer's FIN.
    (s as { allowHalfOpen: boolean }).allowHalfOpen = true;
    if (streamMsg && streamMsg.length > 0) this.write(streamMsg);
    if (this.stream.sendRtr) this.sendRtr(this.stream.sendRtr);
    s.on('data', this.onData);
    s.on('end', this.onEnd);
    s.on('close', this.onClose);
    s.on('error', this.onError);
    s.on('drain', this.onDrain);
    if (this.stream.pending && this.stream.pending.length > 0) this.onData(this.stream.pending);
    s.resume();
  }

  private readonly onData = (chunk: Buffer | Uint8Array): void => {
    if (this.detached || this.rxStopped) return;
    this.pcap?.rx(chunk);
    this.deframer.push(chunk);
    // Transmit work made possible by this chunk (Read Responses, freed ORD) goes out now.
    if (this.scheduled) this.run();
  };
  private readonly onEnd = (): void => {
    if (!this.detached) this.qp.onLlpFin();
  };
  private readonly onClose = (hadError: boolean): void => {
    if (this.detached) return;
    if (hadError) this.qp.onLlpReset(false);
    else this.qp.onLlpClosed();
  };
  private readonly onError = (err: NodeJS.ErrnoException): void => {
    if (this.detached) return;
    log('QP[%d] socket error %s', this.qp.id, err.code ?? err.message);
    this.qp.onLlpReset(err.code !== 'ECONNRESET' && err.code !== 'EPIPE');
  };
  private readonly onDrain = (): void => {
    this.kick();
  };

  /**
   * A zero-copy write finished: refill the socket once it is below half the window rather
   * than waiting for `drain` (which only comes when it is empty), so the pipe never idles.
   */
  private onWritten(): void {
    if (this.socket.writableLength < this.qp.rnic.config.txWindow >>> 1) this.kick();
  }

  /** Removes every listener; the QP no longer hears from this stream. */
  detach(): void {
    if (this.detached) return;
    this.detached = true;
    this.active = false;
    const s = this.socket;
    s.off('data', this.onData);
    s.off('end', this.onEnd);
    s.off('close', this.onClose);
    s.off('drain', this.onDrain);
    // Keep a no-op error listener: a late ECONNRESET must not become an uncaught exception.
    s.off('error', this.onError);
    s.on('error', noop);
    this.pcap?.close();
    this.pcap = null;
  }

  /** Graceful LLP close: a FIN after everything queued (TCP half-close). */
  closeGraceful(): void {
    if (this.graceful) return;
    this.graceful = true;
    this.socket.end();
  }

  /**
   * Abortive close: RST (Verbs §6.2 T12). After our own FIN (`end()`) a reset is refused by
   * libuv (EINVAL) and would leak the handle, so a half-closed socket is simply destroyed.
   */
  reset(): void {
    this.detach();
    const s = this.socket;
    if (!s.destroyed) {
      if (!s.writableEnded && typeof s.resetAndDestroy === 'function') s.resetAndDestroy();
      else s.destroy();
    }
  }

  // ------------------------------------------------------------------ transmit

  /** Schedules a transmit run; posts in one synchronous block share one run (one writev). */
  kick(): void {
    if (this.scheduled || !this.active) return;
    this.scheduled = true;
    queueMicrotask(() => this.run());
  }

  /**
   * Backpressure: stop producing FPDUs once `txWindow` octets wait in the socket. The
   * window is larger than the socket's 16 KiB high-water mark so that 64 KiB FPDUs keep
   * the pipe full; `write()` has returned false by then, so `drain` will restart the loop.
   */
  private blocked(): boolean {
    return this.socket.writableLength >= this.qp.rnic.config.txWindow;
  }

  private write(b: Uint8Array, cb?: (err?: Error | null) => void): void {
    this.pcap?.tx(b);
    this.socket.write(b, cb);
  }

  /** The transmit loop: one FPDU (or one local operation) per iteration. */
  run(): void {
    this.scheduled = false;
    if (!this.active || this.running || this.qp.state !== RiQpState.READY_TO_SEND) return;
    if (this.txHold) {
      // Nothing may go on the wire yet, but Bind, Fast-Register and Local Invalidate at the
      // head of the SQ have no wire effect and run now (Verbs §8.2.2.1).
      this.runLocalOps();
      return;
    }
    this.running = true;
    const s = this.socket;
    s.cork();
    // Flush the cork every FLUSH_BYTES so the kernel sends while the next FPDUs are built:
    // corking a whole window would serialize building and sending.
    let flushAt = s.writableLength + FLUSH_BYTES;
    try {
      while (!this.blocked() && this.qp.state === RiQpState.READY_TO_SEND) {
        if (s.writableLength >= flushAt) {
          s.uncork();
          s.cork();
          flushAt = s.writableLength + FLUSH_BYTES;
        }
        const irqReady = this.qp.irq.length > 0;
        const sqReady = this.sqHeadReady();
        let did = false;
        if (irqReady && (this.irqBurst < IRQ_BURST || !sqReady)) {
          did = this.sendReadResponseFpdu();
          this.irqBurst++;
        } else if (sqReady) {
          did = this.processSq();
          this.irqBurst = 0;
        }
        if (!did) break;
      }
    } finally {
      this.running = false;
      s.uncork();
    }
  }

  /** Executes the local-only WQEs at the head of the SQ (while transmission is held). */
  private runLocalOps(): void {
    const qp = this.qp;
    for (;;) {
      const w = qp.sqAt(qp.sqProc);
      if (!w || w.state !== WqeState.QUEUED || isWireOp(w.type) || !this.sqHeadReady()) return;
      this.execLocal(w);
      if (qp.state !== RiQpState.READY_TO_SEND) return;
    }
  }

  /** Is there SQ work that may start or continue now (fences and ORD respected)? */
  private sqHeadReady(): boolean {
    const qp = this.qp;
    const w = qp.sqAt(qp.sqProc);
    if (!w) return false;
    if (w.state !== WqeState.QUEUED) return true;
    // Read Fence: wait for every earlier RDMA Read to complete (Verbs §8.2.2.2).
    if (w.flags & RiWrFlags.READ_FENCE_FLAG && this.orq.length > 0) return false;
    // Local Fence: wait for every earlier WR to complete.
    if (w.flags & RiWrFlags.LOCAL_FENCE_FLAG && qp.firstIncompleteSeq < w.seq) return false;
    if (isRead(w.type) && qp.ord > 0 && this.orq.length >= qp.ord) return false;
    return true;
  }

  /** Advances the SQ head WQE by one step. Returns false if nothing could be done. */
  private processSq(): boolean {
    const qp = this.qp;
    const w = qp.sqAt(qp.sqProc)!;
    switch (w.type) {
      case RiWrType.SEND:
      case RiWrType.SEND_INVALIDATE:
      case RiWrType.RDMA_WRITE:
        return this.sendMessageFpdu(w);
      case RiWrType.RDMA_READ:
      case RiWrType.RDMA_READ_LOCAL_INVALIDATE:
        return this.sendReadRequest(w);
      default:
        this.execLocal(w);
        return true;
    }
  }

  /**
   * Sends the RFC 6581 Ready-To-Receive message: a zero-length RDMA Write, RDMA Read or Send,
   * outside the Send Queue, before any other FPDU. Write and Read use {@link RTR_STAG}; the
   * Read's zero-length Response is matched by an ORQ entry without a WQE.
   */
  private sendRtr(t: RtrType): void {
    const common = { last: true, rsvd: 0, version: 1, rsvdUlp: 0 };
    if (t === 'write') {
      this.emitFpdu(
        { ddp: { tagged: true, ...common, stag: RTR_STAG, to: 0n }, version: RDMAP_VERSION, rsvd: 0, opcode: RdmapOpcode.Write },
        [],
        0,
        null,
      );
      return;
    }
    if (t === 'read') {
      this.orq.push({ wqe: null, sinkStag: RTR_STAG, sinkTo: 0n, length: 0, received: 0, target: null });
      const ddp = { tagged: false as const, ...common, rsvdUlp32: 0, qn: DdpQueue.ReadRequest, msn: this.readReqMsn, mo: 0 };
      this.readReqMsn = (this.readReqMsn + 1) >>> 0;
      const readRequest = { sinkStag: RTR_STAG, sinkTo: 0n, size: 0, srcStag: RTR_STAG, srcTo: 0n };
      this.emitFpdu({ ddp, version: RDMAP_VERSION, rsvd: 0, opcode: RdmapOpcode.ReadRequest, readRequest }, [], 0, null);
      return;
    }
    const ddp = { tagged: false as const, ...common, rsvdUlp32: 0, qn: DdpQueue.Send, msn: this.sendMsn, mo: 0 };
    this.sendMsn = (this.sendMsn + 1) >>> 0;
    this.emitFpdu({ ddp, version: RDMAP_VERSION, rsvd: 0, opcode: RdmapOpcode.Send }, [], 0, null);
  }

  /** Resolves an SGL with the local access check; returns the pieces or the error. */
  private resolveSgl(w: SqWqe, access: Access): Piece[] | AccessError {
    const out: Piece[] = [];
    const a = this.access;
    for (const sge of w.sgl) {
      const e = checkAccess(this.qp.rnic.stags, sge.stag, sge.to, sge.len, access, this.qp.pd, this.qp, a);
      if (e !== AccessError.OK) return e;
      if (sge.len > 0) out.push({ target: a.target!, offset: a.offset, len: sge.len });
    }
    return out;
  }

  /** A WQE failed locally: its completion carries the error, then the QP terminates (Verbs §8.3 Figure 23). */
  private failWqe(w: SqWqe, status: RiWcStatus): void {
    const qp = this.qp;
    qp.sqProc = w.seq + 1;
    qp.finishSq(w, status);
    qp.terminateWith({ layer: 0, etype: 0, ecode: 0 }, null);
  }

  /** Sends the next FPDU of a Send or RDMA Write. */
  private sendMessageFpdu(w: SqWqe): boolean {
    const qp = this.qp;
    if (w.state === WqeState.QUEUED) {
      const r = this.resolveSgl(w, Access.LOCAL_READ);
      if (typeof r === 'number') {
        this.failWqe(w, LOCAL_ACCESS_STATUS[r]);
        return true;
      }
      w.targets = r;
      w.state = WqeState.ACTIVE;
      w.processed = 0;
    }
    const write = w.type === RiWrType.RDMA_WRITE;
    const hdrLen = write ? DDP_TAGGED_HDR_LEN : DDP_UNTAGGED_HDR_LEN;
    const room = this.maxUlpdu - hdrLen;
    const n = Math.min(room, w.totalLen - w.processed);
    const last = w.processed + n === w.totalLen;
    let opcode: RdmapOpcode;
    if (write) opcode = RdmapOpcode.Write;
    else {
      const se = (w.flags & RiWrFlags.SOLICITED_EVENT_FLAG) !== 0;
      const inv = w.type === RiWrType.SEND_INVALIDATE;
      opcode = inv ? (se ? RdmapOpcode.SendSEInvalidate : RdmapOpcode.SendInvalidate) : se ? RdmapOpcode.SendSE : RdmapOpcode.Send;
    }
    const hdr = write
      ? { tagged: true as const, last, rsvd: 0, version: 1, rsvdUlp: 0, stag: w.remoteStag, to: w.remoteTo + BigInt(w.processed) }
      : {
          tagged: false as const,
          last,
          rsvd: 0,
          version: 1,
          rsvdUlp: 0,
          rsvdUlp32: w.type === RiWrType.SEND_INVALIDATE ? w.remoteStag : 0,
          qn: DdpQueue.Send,
          msn: this.sendMsn,
          mo: w.processed,
        };
    const parts: Uint8Array[] = [];
    let off = w.processed;
    let left = n;
    for (const p of w.targets!) {
      if (left === 0) break;
      if (off >= p.len) {
        off -= p.len;
        continue;
      }
      const take = Math.min(p.len - off, left);
      memSlices(p.target, p.offset + off, take, parts);
      left -= take;
      off = 0;
    }
    w.processed += n;
    if (last) {
      if (!write) this.sendMsn = (this.sendMsn + 1) >>> 0;
      qp.sqProc = w.seq + 1;
      const copied = this.emitFpdu({ ddp: hdr, version: RDMAP_VERSION, rsvd: 0, opcode }, parts, n, (err) => {
        // A failed write means the LLP is gone: the QP's error path flushes the WQE.
        if (!err && w.state === WqeState.WAIT_LLP) qp.finishSq(w, RiWcStatus.SUCCESS);
        this.onWritten();
      });
      if (copied) qp.finishSq(w, RiWcStatus.SUCCESS);
      else w.state = WqeState.WAIT_LLP;
    } else {
      this.emitFpdu({ ddp: hdr, version: RDMAP_VERSION, rsvd: 0, opcode }, parts, n, null);
    }
    return true;
  }

  /**
   * Issues the RDMA Read Request(s) of a Read WQE: one per sink SGE (a Read Request names one
   * sink STag/TO, RFC 5040 §4.4), each entered in the ORQ *before* it is sent, because on
   * loopback the Read Response can arrive before `write()` returns (siw does the same).
   */
  private sendReadRequest(w: SqWqe): boolean {
    const qp = this.qp;
    if (qp.ord === 0) {
      // ORD 0: a Read completes in error (Verbs §6.5).
      this.failWqe(w, RiWcStatus.ZERO_ORD_ERROR);
      return true;
    }
    if (w.state === WqeState.QUEUED) {
      w.state = WqeState.ACTIVE;
      w.processed = 0;
      w.msn = 0;
    }
    // `processed` counts sink SGEs issued; a zero-length Read is one request of size 0.
    const sges = w.sgl.length === 0 ? [{ stag: 0, to: 0n, len: 0 }] : w.sgl;
    const i = w.processed;
    const sge = sges[i]!;
    let srcOff = 0n;
    for (let k = 0; k < i; k++) srcOff += BigInt(sges[k]!.len);
    this.orq.push({ wqe: w, sinkStag: sge.stag, sinkTo: sge.to, length: sge.len, received: 0, target: null });
    w.msn++;
    w.processed++;
    const hdr = {
      tagged: false as const,
      last: true,
      rsvd: 0,
      version: 1,
      rsvdUlp: 0,
      rsvdUlp32: 0,
      qn: DdpQueue.ReadRequest,
      msn: this.readReqMsn,
      mo: 0,
    };
    const readRequest = { sinkStag: sge.stag, sinkTo: sge.to, size: sge.len, srcStag: w.remoteStag, srcTo: w.remoteTo + srcOff };
    this.readReqMsn = (this.readReqMsn + 1) >>> 0;
    if (w.processed === sges.length) {
      w.state = WqeState.WAIT_RESPONSE;
      // The SQ does not wait for Reads (Verbs §8.2.2 rule 14).
      qp.sqProc = w.seq + 1;
    }
    this.emitFpdu({ ddp: hdr, version: RDMAP_VERSION, rsvd: 0, opcode: RdmapOpcode.ReadRequest, readRequest }, [], 0, null);
    return true;
  }

  /** Bind, Fast-Register and Local Invalidate take effect before the next WR starts (Verbs §8.2.2.1). */
  private execLocal(w: SqWqe): void {
    const qp = this.qp;
    let status: RiWcStatus;
    switch (w.type) {
      case RiWrType.BIND:
        status = execBind(qp, w.mw!, w.mr!, w.targetStag, w.bindVa, w.bindLength, w.bindFlags, w.bindNewStag & 0xff);
        break;
      case RiWrType.FAST_REGISTER:
        status = execFastReg(qp, w.target!, w.targetStag, w.fmr!);
        break;
      default:
        status = INVALIDATE_WC_STATUS[invalidateStag(qp, w.targetStag, false)];
    }
    if (status !== RiWcStatus.SUCCESS) {
      this.failWqe(w, status);
      return;
    }
    qp.sqProc = w.seq + 1;
    qp.finishSq(w, RiWcStatus.SUCCESS);
  }

  /** Sends the next Read Response FPDU of the head inbound Read (RFC 5040 §4.5). */
  private sendReadResponseFpdu(): boolean {
    const qp = this.qp;
    const ir = qp.irq[0]!;
    // A source invalidated or deallocated meanwhile must not be read (Verbs §7.10.4).
    if (ir.length > 0 && ir.src && (ir.src.destroyed || !ir.src.valid)) {
      qp.irq.shift();
      this.protocolError(TerminateError.rdmap(RdmapEtype.RemoteProtection, RdmapEcode.InvalidStag), null);
      return true;
    }
    const n = Math.min(this.maxUlpdu - DDP_TAGGED_HDR_LEN, ir.length - ir.processed);
    const last = ir.processed + n === ir.length;
    const parts: Uint8Array[] = [];
    if (n > 0) memSlices(ir.target!, ir.offset + ir.processed, n, parts);
    const hdr = {
      tagged: true as const,
      last,
      rsvd: 0,
      version: 1,
      rsvdUlp: 0,
      stag: ir.sinkStag,
      to: ir.sinkTo + BigInt(ir.processed),
    };
    ir.processed += n;
    if (last) qp.irq.shift();
    this.emitFpdu({ ddp: hdr, version: RDMAP_VERSION, rsvd: 0, opcode: RdmapOpcode.ReadResponse }, parts, n, null);
    return true;
  }

  /**
   * Frames and writes one FPDU: `[ULPDU_LENGTH | header | payload | PAD | CRC]`
   * (RFC 5044 §4.1, CRC little-endian as Linux siw sends it). Small payloads are copied into a single buffer; larger ones are written as views and
   * `done` runs from the socket's write callback. Returns true if the payload was copied
   * (so the source buffer is free again at once).
   */
  private emitFpdu(
    h: Parameters<typeof encodeRdmapHeader>[0],
    parts: Uint8Array[],
    payloadLen: number,
    done: ((err?: Error | null) => void) | null,
  ): boolean {
    const hdrLen = rdmapHeaderLength(h);
    const ulpduLen = hdrLen + payloadLen;
    const pad = mpaPadLength(ulpduLen);
    if (this.markers) {
      const head = new Uint8Array(hdrLen);
      encodeRdmapHeader(h, head, 0);
      const wire = this.markers.frame([head, ...parts], this.crcOn);
      for (let i = 0; i < wire.length - 1; i++) this.write(wire[i]!);
      this.write(wire[wire.length - 1]!, done ?? undefined);
      return false;
    }
    if (payloadLen <= COPY_THRESHOLD) {
      const total = MPA_HDR_LEN + ulpduLen + pad + MPA_CRC_LEN;
      const b = Buffer.allocUnsafe(total);
      b[0] = ulpduLen >>> 8;
      b[1] = ulpduLen & 0xff;
      encodeRdmapHeader(h, b, MPA_HDR_LEN);
      let o = MPA_HDR_LEN + hdrLen;
      for (const p of parts) {
        b.set(p, o);
        o += p.length;
      }
      for (let k = 0; k < pad; k++) b[o + k] = 0;
      o += pad;
      writeMpaCrc(b, o, this.crcOn ? crc32c(b.subarray(0, o)) : 0);
      this.write(b);
      return true;
    }
    const head = Buffer.allocUnsafe(MPA_HDR_LEN + hdrLen);
    head[0] = ulpduLen >>> 8;
    head[1] = ulpduLen & 0xff;
    encodeRdmapHeader(h, head, MPA_HDR_LEN);
    // allocUnsafe draws from Node's pool for small sizes; the PAD octets are zeroed by hand.
    const trailer = Buffer.allocUnsafe(pad + MPA_CRC_LEN);
    trailer.fill(0);
    if (this.crcOn) {
      let c = crc32c(head);
      for (const p of parts) c = crc32c(p, c);
      if (pad) c = crc32c(trailer.subarray(0, pad), c);
      writeMpaCrc(trailer, pad, c);
    }
    this.write(head);
    for (const p of parts) this.write(p);
    this.write(trailer, done ?? undefined);
    return false;
  }

  /**
   * Sends the Terminate message for `code` (RFC 5040 §4.8) on the Terminate queue (QN 2,
   * MSN 1, siw's convention), copying the offending segment's headers when given, and
   * returns the Terminate header for Query QP's `terminate_buffer`.
   */
  sendTerminate(code: TermCode, copied: TermCopied | null): Uint8Array {
    const err = new TerminateError(code.layer, code.etype, code.ecode);
    const t = buildTerminate(err, copied?.segment, copied?.segLen);
    const ulpdu = encodeTerminateMessage(t, 1);
    this.qp.rnic.counters.terminatesSent++;
    log('QP[%d] sending Terminate %s', this.qp.id, err.message);
    if (!this.socket.destroyed && this.socket.writable) {
      const hdrLen = DDP_UNTAGGED_HDR_LEN;
      const parts = [ulpdu.subarray(hdrLen)];
      const hdrView = ulpdu.subarray(0, hdrLen);
      // Frame the already-encoded ULPDU: reuse emitFpdu's copy path via a raw header.
      this.emitRaw(hdrView, parts);
    }
    return ulpdu.slice(DDP_UNTAGGED_HDR_LEN);
  }

  /** Frames an already-encoded header + payload (used for the Terminate message). */
  private emitRaw(header: Uint8Array, parts: Uint8Array[]): void {
    let len = header.length;
    for (const p of parts) len += p.length;
    if (this.markers) {
      const wire = this.markers.frame([header, ...parts], this.crcOn);
      for (const w of wire) this.write(w);
      return;
    }
    const pad = mpaPadLength(len);
    const b = Buffer.alloc(MPA_HDR_LEN + len + pad + MPA_CRC_LEN);
    b[0] = len >>> 8;
    b[1] = len & 0xff;
    b.set(header, MPA_HDR_LEN);
    let o = MPA_HDR_LEN + header.length;
    for (const p of parts) {
      b.set(p, o);
      o += p.length;
    }
    o += pad;
    writeMpaCrc(b, o, this.crcOn ? crc32c(b.subarray(0, o)) : 0);
    this.write(b);
  }

  // ------------------------------------------------------------------ receive

  private onFpdu(f: Fpdu): void {
    if (this.rxStopped || this.detached) return;
    if (this.txHold) {
      this.txHold = false;
      this.kick();
    }
    const qp = this.qp;
    const st = qp.state;
    // Terminate: inbound segments are ignored (Verbs §6.2.3).
    if (st === RiQpState.TERMINATE || st === RiQpState.ERROR || st === RiQpState.IDLE) return;
    const buf = copyUlpduPrefix(f, MAX_HDR, this.scratch);
    const h = this.hdr;
    try {
      decodeRdmapHeaderInto(buf, 0, f.length, h);
    } catch (e) {
      if (isTerminateError(e)) {
        this.protocolError(e, f);
        return;
      }
      throw e;
    }
    if (this.expectRtr !== null && h.opcode !== RdmapOpcode.Terminate) {
      const want = this.expectRtr;
      this.expectRtr = null;
      const len = f.length - h.headerLength;
      const got =
        h.opcode === RdmapOpcode.Write ? 'write' : h.opcode === RdmapOpcode.ReadRequest ? 'read' : h.opcode === RdmapOpcode.Send ? 'send' : null;
      const zero = h.opcode === RdmapOpcode.ReadRequest ? h.readSize === 0 : len === 0;
      if (got !== want || !zero || !h.last) {
        // Not the RTR the Reply asked for (RFC 6581 §9.2: "No matching RTR model", 0x07).
        this.protocolError(TerminateError.mpa(MpaEcode.NoMatchingRtr, `expected a zero-length ${want} RTR`), f);
        return;
      }
      // The RTR is consumed by the RNIC, never delivered to the ULP. A zero-length Send uses
      // MSN 1; a zero-length Read is answered by the normal path with a zero-length Response.
      if (got === 'send') {
        this.recvMsn = (this.recvMsn + 1) >>> 0;
        return;
      }
      if (got === 'write') return;
    }
    if (st === RiQpState.CLOSING && h.opcode !== RdmapOpcode.Terminate) {
      // An incoming non-Terminate segment while Closing is a bad close (Verbs §6.2 T15).
      this.rxStopped = true;
      qp.badClose();
      return;
    }
    const handler = RX_HANDLERS[h.opcode];
    if (!handler) {
      this.protocolError(TerminateError.rdmap(RdmapEtype.RemoteOperation, RdmapEcode.UnexpectedOpcode), f);
      return;
    }
    try {
      handler(this, h, f);
    } catch (e) {
      if (isTerminateError(e)) this.protocolError(e, f);
      else throw e;
    }
  }

  /**
   * Records an inbound protocol error: raises the affiliated async event and terminates the
   * QP with the error's code and the offending segment's headers. Only the first error
   * counts; afterwards the receive side ignores the stream.
   */
  protocolError(err: TerminateError, f: Fpdu | null): void {
    if (this.rxStopped) return;
    this.rxStopped = true;
    if (err.layer === 2 && err.ecode === 2) this.qp.rnic.counters.crcErrors++;
    log('QP[%d] protocol error: %s', this.qp.id, err.message);
    let copied: TermCopied | null = null;
    if (f) {
      const seg = new Uint8Array(Math.min(f.length, 46));
      copyUlpduPrefixInto(f, seg);
      copied = { segment: seg, segLen: f.length };
    }
    const opcode = f ? this.hdr.opcode : -1;
    // Reported through a completion instead when the error belongs to a local WR (Verbs §8.3).
    this.qp.rnic.asyncEvent(asyncEventFor(err, opcode), this.qp);
    this.qp.terminateWith({ layer: err.layer, etype: err.etype, ecode: err.ecode }, copied);
  }

  /** Copies the payload of `f` after `skip` header octets into a target at `off`. */
  private place(f: Fpdu, skip: number, target: Piece['target'], off: number): void {
    for (const s of f.segments) {
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

  /** Tagged placement (Write, Read Response): one full access check per message (see module doc). */
  placeTagged(h: RdmapHeaderStruct, f: Fpdu, len: number, sink: () => TerminateError | null): void {
    const to = h.to;
    const stag = h.stag;
    if (len > 0) {
      const o = this.tagObj;
      const cont =
        o !== null &&
        stag === this.tagStag &&
        to === this.tagNextTo &&
        o.valid &&
        !o.destroyed &&
        this.tagOffset + len <= this.tagEnd;
      if (!cont) {
        const err = sink();
        if (err) throw err;
      }
      this.place(f, h.headerLength, this.tagTarget!, this.tagOffset);
      this.tagOffset += len;
      this.tagNextTo = to + BigInt(len);
    }
    if (h.last) {
      this.tagObj = null;
      this.tagStag = -1;
    }
  }

  /** Opens a tagged context after a successful access check of `[to, to+len)` or of the whole ORQ sink. */
  private openTagged(stag: number, to: bigint, a: AccessOut, limit: number): void {
    this.tagStag = stag;
    this.tagNextTo = to;
    this.tagObj = a.obj;
    this.tagTarget = a.target;
    this.tagOffset = a.offset;
    this.tagEnd = a.offset + limit;
  }

  /** Inbound RDMA Write (RFC 5040 §4.3). */
  static rxWrite(c: Conn, h: RdmapHeaderStruct, f: Fpdu): void {
    const len = f.length - h.headerLength;
    c.placeTagged(h, f, len, () => {
      const a = c.access;
      const e = checkAccess(c.qp.rnic.stags, h.stag, h.to, len, Access.REMOTE_WRITE, c.qp.pd, c.qp, a);
      if (e !== AccessError.OK) return taggedSinkError(e);
      // Check once for what remains of the object from `to` on: later segments of this
      // message only need to stay inside it.
      const obj = a.obj;
      const limit = obj ? obj.length - Number(h.to - obj.base) : len;
      c.openTagged(h.stag, h.to, a, limit);
      return null;
    });
  }

  /** Inbound Read Response: must match the head of the ORQ (RFC 5040 §4.5, Verbs §6.5). */
  static rxReadResponse(c: Conn, h: RdmapHeaderStruct, f: Fpdu): void {
    const e = c.orq[0];
    if (!e) throw TerminateError.rdmap(RdmapEtype.RemoteOperation, RdmapEcode.UnexpectedOpcode, 'Read Response with no Read outstanding');
    const len = f.length - h.headerLength;
    if (h.stag !== e.sinkStag) throw TerminateError.ddpTagged(DdpTaggedEcode.InvalidStag, 'Read Response STag does not match the ORQ head');
    if (h.to !== e.sinkTo + BigInt(e.received) || e.received + len > e.length) {
      throw TerminateError.ddpTagged(DdpTaggedEcode.BaseOrBounds, 'Read Response outside the requested sink');
    }
    if (e.received === 0 && e.length > 0 && !e.target) {
      const a: AccessOut = { target: null, offset: 0, obj: null };
      const err = checkAccess(c.qp.rnic.stags, e.sinkStag, e.sinkTo, e.length, Access.REMOTE_WRITE, c.qp.pd, c.qp, a);
      if (err !== AccessError.OK) {
        // The local sink is bad: the Read completes in error, then the QP terminates.
        c.orq.shift();
        c.rxStopped = true;
        if (e.wqe) c.failRead(e.wqe, LOCAL_ACCESS_STATUS[err]);
        return;
      }
      e.target = a;
    }
    if (len > 0) c.place(f, h.headerLength, e.target!.target!, e.target!.offset + e.received);
    e.received += len;
    if (h.last) {
      if (e.received !== e.length) {
        throw TerminateError.ddpTagged(DdpTaggedEcode.BaseOrBounds, 'Read Response shorter than requested');
      }
      c.orq.shift();
      if (e.wqe) c.readDone(e.wqe);
      else c.kick();
    }
  }

  private failRead(w: SqWqe, status: RiWcStatus): void {
    const qp = this.qp;
    qp.finishSq(w, status);
    qp.terminateWith({ layer: 0, etype: 0, ecode: 0 }, null);
  }

  /** One Read Request of a Read WQE completed; the WQE completes with its last one. */
  private readDone(w: SqWqe): void {
    const qp = this.qp;
    w.msn--;
    if (w.msn > 0 || w.state !== WqeState.WAIT_RESPONSE) {
      this.kick();
      return;
    }
    let status = RiWcStatus.SUCCESS;
    if (w.type === RiWrType.RDMA_READ_LOCAL_INVALIDATE && w.sgl.length > 0) {
      // Invalidate the local sink after the data is placed, before the WC (Verbs §8.2.2.1).
      status = INVALIDATE_WC_STATUS[invalidateStag(qp, w.sgl[0]!.stag, false)];
    }
    if (status !== RiWcStatus.SUCCESS) {
      this.failRead(w, status);
      return;
    }
    qp.finishSq(w, RiWcStatus.SUCCESS);
    // An ORD slot and maybe a Read Fence were released.
    this.kick();
  }

  /** Inbound Send family (RFC 5040 §4.6–4.7): untagged placement into a receive WQE. */
  static rxSend(c: Conn, h: RdmapHeaderStruct, f: Fpdu): void {
    const qp = c.qp;
    const len = f.length - h.headerLength;
    if (h.msn !== c.recvMsn) {
      throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidMsnRange, `MSN ${h.msn}, expected ${c.recvMsn}`);
    }
    let w = c.recvWqe;
    if (!w) {
      if (h.mo !== 0) throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidMo, `first segment at MO ${h.mo}`);
      w = qp.takeRecv() ?? null;
      // No receive posted: iWARP has no RNR; the stream terminates (RFC 5041 §7, Verbs §13.2).
      if (!w) throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidMsnNoBuffer, 'no receive WQE posted');
      const pieces: Piece[] = [];
      const pd = qp.srq ? qp.srq.pd : qp.pd;
      const a = c.access;
      for (const sge of w.sgl) {
        const e = checkAccess(qp.rnic.stags, sge.stag, sge.to, sge.len, Access.LOCAL_WRITE, pd, qp, a);
        if (e !== AccessError.OK) {
          c.rxStopped = true;
          qp.completeRecv(w, LOCAL_ACCESS_STATUS[e], 0, 0, 0);
          qp.terminateWith({ layer: 0, etype: 0, ecode: 0 }, null);
          return;
        }
        if (sge.len > 0) pieces.push({ target: a.target!, offset: a.offset, len: sge.len });
      }
      c.recvWqe = w;
      c.recvPieces = pieces;
      w.placed = 0;
    }
    if (h.mo !== w.placed) throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidMo, `MO ${h.mo}, expected ${w.placed}`);
    if (w.placed + len > w.capacity) {
      // The message is longer than the receive buffer: the receive completes in error and
      // the stream terminates with "message too long" (RFC 5041 §7.2).
      c.recvWqe = null;
      qp.completeRecv(w, RiWcStatus.BASE_BOUNDS_VIOLATION_ERROR, 0, 0, 0);
      throw TerminateError.ddpUntagged(DdpUntaggedEcode.MessageTooLong);
    }
    if (len > 0) c.placeUntagged(f, h.headerLength, w.placed, len);
    w.placed += len;
    if (!h.last) return;
    c.recvWqe = null;
    c.recvPieces = null;
    c.recvMsn = (c.recvMsn + 1) >>> 0;
    let flags = 0;
    if (h.info.solicited) flags |= RiWcFlags.SOLICITED_EVENT;
    let invalidated = 0;
    if (h.info.invalidate) {
      const r = invalidateStag(qp, h.invalidateStag, true);
      if (r !== InvalidateError.OK) {
        qp.completeRecv(w, RiWcStatus.STAG_INVALIDATE_ERROR, w.placed, flags, 0);
        const code: Record<number, RdmapEcode> = {
          [InvalidateError.NOT_ASSOCIATED]: RdmapEcode.StagNotAssociated,
          [InvalidateError.RIGHTS]: RdmapEcode.AccessRights,
          [InvalidateError.CANNOT_INVALIDATE]: RdmapEcode.CannotInvalidate,
        };
        throw TerminateError.rdmap(RdmapEtype.RemoteProtection, code[r] ?? RdmapEcode.InvalidStag, 'Send with Invalidate');
      }
      flags |= RiWcFlags.RTAG_INVALIDATE;
      invalidated = h.invalidateStag;
    }
    qp.completeRecv(w, RiWcStatus.SUCCESS, w.placed, flags, invalidated);
  }

  private placeUntagged(f: Fpdu, skip: number, mo: number, len: number): void {
    // Walk the SGL to the piece holding MO, then copy segment by segment.
    const pieces = this.recvPieces!;
    let pi = 0;
    let pOff = mo;
    while (pi < pieces.length && pOff >= pieces[pi]!.len) {
      pOff -= pieces[pi]!.len;
      pi++;
    }
    let left = len;
    for (const s of f.segments) {
      if (left === 0) break;
      if (skip >= s.length) {
        skip -= s.length;
        continue;
      }
      let sOff = skip;
      skip = 0;
      while (sOff < s.length && left > 0) {
        const p = pieces[pi]!;
        const n = Math.min(s.length - sOff, p.len - pOff, left);
        copyToMem(p.target, p.offset + pOff, s, sOff, n);
        sOff += n;
        pOff += n;
        left -= n;
        if (pOff === p.len) {
          pi++;
          pOff = 0;
        }
      }
    }
  }

  /** Inbound RDMA Read Request (RFC 5040 §4.4): validated, then queued for Read Responses. */
  static rxReadRequest(c: Conn, h: RdmapHeaderStruct, _f: Fpdu): void {
    const qp = c.qp;
    if (!qp.enableRdmaRead) {
      // Reads not enabled: the Read Request queue does not exist (Verbs §7.3: 0x1201).
      throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidQn, 'RDMA Read not enabled');
    }
    if (h.msn !== c.recvReadMsn) {
      throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidMsnRange, `Read Request MSN ${h.msn}, expected ${c.recvReadMsn}`);
    }
    if (h.mo !== 0) throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidMo);
    if (!h.last) throw TerminateError.rdmap(RdmapEtype.RemoteOperation, RdmapEcode.CatastrophicStream, 'Read Request without L bit');
    // IRD exceeded: "Invalid MSN - MSN range is not valid" (RFC 5040 §6.10, Verbs §7.3: 0x1203).
    if (qp.irq.length >= qp.ird) throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidMsnRange, `more than IRD=${qp.ird} Read Requests`);
    const size = h.readSize;
    const a: AccessOut = { target: null, offset: 0, obj: null };
    const e = checkAccess(qp.rnic.stags, h.srcStag, h.srcTo, size, Access.REMOTE_READ, qp.pd, qp, a);
    if (e !== AccessError.OK) throw readSourceError(e);
    c.recvReadMsn = (c.recvReadMsn + 1) >>> 0;
    const ir: InboundRead = {
      sinkStag: h.sinkStag,
      sinkTo: h.sinkTo,
      length: size,
      target: a.target,
      offset: a.offset,
      src: a.obj,
      processed: 0,
    };
    qp.irq.push(ir);
    c.kick();
  }

  /** Inbound Terminate (RFC 5040 §4.8): recorded for Query QP; no Terminate goes back. */
  static rxTerminate(c: Conn, h: RdmapHeaderStruct, f: Fpdu): void {
    const body = new Uint8Array(f.length - h.headerLength);
    const all = new Uint8Array(f.length);
    copyUlpduPrefixInto(f, all);
    body.set(all.subarray(h.headerLength));
    let layer = 0;
    let etype = 0;
    let ecode = 0;
    try {
      const t = decodeTerminate(all, h.headerLength);
      layer = t.layer;
      etype = t.etype;
      ecode = t.ecode;
    } catch {
      // A malformed Terminate still terminates the stream; its code is then unknown.
    }
    c.rxStopped = true;
    c.qp.rnic.counters.terminatesReceived++;
    log('QP[%d] Terminate received: %s', c.qp.id, new TerminateError(layer, etype, ecode).message);
    c.qp.onTerminateReceived({ layer, etype, ecode, bytes: body.slice(0, 52), local: false });
  }
}

/** Per-opcode receive handlers (RFC 5040 §4, RFC 7306 opcodes are not supported). */
export const RX_HANDLERS: readonly (RxHandler | undefined)[] = [
  Conn.rxWrite, // 0 Write
  Conn.rxReadRequest, // 1 Read Request
  Conn.rxReadResponse, // 2 Read Response
  Conn.rxSend, // 3 Send
  Conn.rxSend, // 4 Send with Invalidate
  Conn.rxSend, // 5 Send with SE
  Conn.rxSend, // 6 Send with SE and Invalidate
  Conn.rxTerminate, // 7 Terminate
];

/** WR types that put FPDUs on the wire (the others are local memory operations). */
function isWireOp(t: number): boolean {
  return t === RiWrType.SEND || t === RiWrType.SEND_INVALIDATE || t === RiWrType.RDMA_WRITE || isRead(t);
}

function isRead(t: number): boolean {
  return t === RiWrType.RDMA_READ || t === RiWrType.RDMA_READ_LOCAL_INVALIDATE;
}

function copyUlpduPrefixInto(f: Fpdu, dst: Uint8Array): void {
  let o = 0;
  for (const s of f.segments) {
    if (o >= dst.length) break;
    const n = Math.min(s.length, dst.length - o);
    dst.set(n === s.length ? s : s.subarray(0, n), o);
    o += n;
  }
}

function noop(): void {}

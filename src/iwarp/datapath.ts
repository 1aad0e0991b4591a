/**
 * The iWARP transport of one QP: MPA/DDP/RDMAP over a TCP socket (RFC 5040, 5041, 5044).
 * It frames what the core's requester hands it and hands what arrives to the core's
 * responder; the semantics (access checks, ordering, completions) are the core's
 * (src/rnic/requester.ts, responder.ts). What is iWARP's own lives here: FPDU framing, MPA
 * CRC and Markers, DDP message sequence numbers and queues, the RFC 6581 RTR messages, the
 * Terminate message, and the TCP socket's events.
 *
 * Transmit. {@link IwarpConn.run} pulls one segment at a time from the requester and frames it
 * as one FPDU, with the DDP/RDMAP header written from the opcode table (`encodeRdmapTxHeader`,
 * as siw's `iwarp_pktinfo[]`). Under socket backpressure (`txWindow` octets waiting) the loop
 * stops between FPDUs and resumes on `drain`. Each run is corked, so the many small FPDUs of
 * one run leave in one `writev`. Large payloads go out zero-copy as views of registered memory;
 * such a WQE completes only when the socket has taken the bytes (its write callback), because
 * "work completion is only local delivery to TCP" and the Consumer may reuse the buffer right
 * after (Linux siw makes the same argument for its zero-copy path).
 *
 * Receive. The deframer yields complete FPDUs (length and CRC checked) as views into the
 * socket chunks; a per-opcode table (`RX_HANDLERS`, rx-ops.ts) checks DDP sequencing and calls the
 * responder, which places tagged payload after one access check per message and untagged
 * payload into the receive WQE's SGL at its Message Offset.
 *
 * Errors. A protocol error this transport finds is a {@link TerminateError}; a fault the core
 * finds is a neutral {@link Fault}, mapped by terminate-map.ts. Either reaches
 * `Qp.terminateWith`, which calls back {@link IwarpConn.sendFatal}: the single place that
 * sends a Terminate.
 */
import type { Socket } from 'node:net';
import { RiRet } from '../rnicpi/status.js';
import { RiQpState } from '../rnicpi/types.js';
import { Fault, type WireError } from '../rnic/faults.js';
import type { LlpAttrs, Qp } from '../rnic/qp.js';
import { newTxSeg, type QpTransport, resetTxSeg, type TransportCaps, TxOp, type TxSeg } from '../rnic/transport.js';
import { deliverCqNotifications } from '../rnic/cq.js';
import { newUntaggedSegment, type UntaggedSegment } from '../rnic/responder.js';
import { type SqWqe, WqeState } from '../rnic/wqe.js';
import { logger } from '../util/log.js';
import { crc32c } from '../wire/crc32c.js';
import { DDP_UNTAGGED_HDR_LEN } from '../wire/ddp.js';
import { copyUlpduPrefix, type Fpdu, FpduDeframer } from '../wire/deframer.js';
import { isTerminateError, MpaEcode, RdmapEcode, RdmapEtype, TerminateError } from '../wire/errors.js';
import { MarkerInserter, MPA_CRC_LEN, MPA_HDR_LEN, MPA_MAX_ULPDU, mpaPadLength, writeMpaCrc } from '../wire/mpa.js';
import {
  decodeRdmapHeaderInto,
  encodeRdmapTxHeader,
  RDMAP_OPCODES,
  RdmapHeaderStruct,
  RdmapOpcode,
  type RdmapTxFields,
  type ReadRequestHeader,
} from '../wire/rdmap.js';
import { buildTerminate, encodeTerminateMessage } from '../wire/terminate.js';
import {
  copyUlpduPrefixInto,
  extWords,
  IMM_AFTER_WRITE,
  IWARP_CAPS,
  IWARP_CAPS_RFC7306,
  SEND_OPCODE,
  type TermCopied,
  TX_HDR_LEN,
  writeRfc7306Header,
} from './tx-headers.js';
import { LlpStream, RTR_STAG, type RtrType } from './llp.js';
import { asyncEventForTerminate, terminateOfFault, terminateRecord } from './terminate-map.js';
import { openPcapForConn, type PcapTap } from './trace.js';
import { RX_HANDLERS } from './rx-ops.js';
import { iwarpConfig, type MpaAttrs, mpaAttrsOf } from './llp-attrs.js';

const log = logger('conn');

/** Payloads up to this size are copied into one FPDU buffer (one write, no callback wait). */
const COPY_THRESHOLD = 8192;
/** Octets written under one cork before it is flushed (small FPDUs still share a writev). */
const FLUSH_BYTES = 128 * 1024;
/** Largest header we ever parse before the payload (untagged 18 + RFC 7306 Atomic Request 52). */
const MAX_HDR = 72;

/**
 * Validates an LLP stream handle and attaches a new connection to `qp` (RNICPI §4.4).
 * Returns null for a handle that is not an {@link LlpStream} (another transport's),
 * `INVALID_LL_HANDLE` for a stream that is not open, and `LL_BAD_STATE` for a stream another
 * QP already owns.
 */
export function attachIwarp(qp: Qp, handle: unknown, attrs: LlpAttrs): IwarpConn | RiRet | null {
  if (!(handle instanceof LlpStream)) return null;
  if (!handle.usable) return RiRet.INVALID_LL_HANDLE;
  if (handle.inUse) return RiRet.LL_BAD_STATE;
  handle.inUse = true;
  return new IwarpConn(qp, handle, mpaAttrsOf(attrs));
}

export class IwarpConn implements QpTransport {
  /** RFC 7306 operations only when the MPA exchange agreed them (LlpStream.rdmapExt). */
  readonly caps: TransportCaps;
  readonly socket: Socket;
  readonly #deframer: FpduDeframer;
  readonly #markers: MarkerInserter | null;
  readonly #crcOn: boolean;
  readonly #maxUlpdu: number;
  readonly #hdr = new RdmapHeaderStruct();
  /** The header fields of the FPDU being framed, reused. */
  readonly #txHdr: RdmapTxFields = { opcode: RdmapOpcode.Send, last: true, stag: 0, to: 0n, rsvdUlp32: 0, msn: 0, mo: 0, rr: null };
  /** The untagged segment handed to the core's responder, reused. */
  readonly rxSeg: UntaggedSegment = newUntaggedSegment();
  readonly #scratch = new Uint8Array(MAX_HDR);
  readonly #rr: ReadRequestHeader = { sinkStag: 0, sinkTo: 0n, size: 0, srcStag: 0, srcTo: 0n };
  #pcap: PcapTap | null = null;
  #active = false;
  #detached = false;
  rxStopped = false;
  #scheduled = false;
  #running = false;
  #graceful = false;
  /** Responder: hold transmission until the Initiator's first FPDU (RFC 5044 §7.1.2). */
  #txHold: boolean;
  /** Ends {@link #txHold} after the stream's `txHoldMs` if no FPDU came first. */
  #txHoldTimer: NodeJS.Timeout | null = null;
  /** Responder in RFC 6581 peer-to-peer mode: the RTR type still expected. */
  #expectRtr: RtrType | null;
  // ---- DDP sequence numbers (RFC 5041 §5: MSNs start at 1 per queue) ----
  #sendMsn = 1;
  #readReqMsn = 1;
  recvMsn = 1;
  recvReadMsn = 1;
  /** RFC 7306 Atomic Responses have their own queue (QN 3) and MSNs. */
  #atomicRespMsn = 1;
  recvAtomicRespMsn = 1;
  /** The Immediate Data segment after an RDMA Write with Immediate; made on first use. */
  #immSeg: TxSeg | null = null;

  constructor(
    readonly qp: Qp,
    readonly stream: LlpStream,
    readonly mpa: MpaAttrs,
  ) {
    this.socket = stream.socket;
    this.caps = stream.rdmapExt ? IWARP_CAPS_RFC7306 : IWARP_CAPS;
    this.#crcOn = mpa.crc;
    this.#maxUlpdu = Math.min(iwarpConfig(qp.rnic).maxUlpdu, MPA_MAX_ULPDU);
    this.#markers = mpa.xmitMarkers ? new MarkerInserter(stream.txOffset) : null;
    this.#txHold = stream.awaitFirstRx;
    this.#expectRtr = stream.expectRtr;
    this.#deframer = new FpduDeframer({
      maxUlpdu: MPA_MAX_ULPDU,
      crc: mpa.crc,
      markers: mpa.recvMarkers,
      streamOffset: stream.rxOffset,
      onFpdu: (f) => this.#onFpdu(f),
      onError: (e) => this.protocolError(e, null),
    });
  }

  maxPayload(op: TxOp): number {
    return this.#maxUlpdu - TX_HDR_LEN[op];
  }

  // ------------------------------------------------------------------ lifecycle

  /** Enters RDMA mode: optional last streaming-mode message, then FPDUs (Verbs §6.2 T3). */
  start(streamMsg: Uint8Array | null): void {
    const s = this.socket;
    this.#active = true;
    this.#pcap = openPcapForConn(s, this.qp.id);
    s.setNoDelay(true);
    // Half-close must stay possible: a Terminate can still go out after the peer's FIN.
    (s as { allowHalfOpen: boolean }).allowHalfOpen = true;
    if (streamMsg && streamMsg.length > 0) this.#write(streamMsg);
    if (this.stream.sendRtr) this.#sendRtr(this.stream.sendRtr);
    s.on('data', this.#onData);
    s.on('end', this.#onEnd);
    s.on('close', this.#onClose);
    s.on('error', this.#onError);
    s.on('drain', this.#onDrain);
    // Not the data callback: its completions are notified by their microtasks, since `start`
    // may run inside a consumer's call.
    if (this.stream.pending && this.stream.pending.length > 0) this.#receive(this.stream.pending);
    if (this.#txHold && Number.isFinite(this.stream.txHoldMs)) {
      this.#txHoldTimer = setTimeout(this.#releaseTxHold, this.stream.txHoldMs);
      this.#txHoldTimer.unref();
    }
    s.resume();
  }

  /** Transmission may begin: the Initiator's first FPDU came, or the stream's hold ran out. */
  readonly #releaseTxHold = (): void => {
    if (this.#txHoldTimer) clearTimeout(this.#txHoldTimer);
    this.#txHoldTimer = null;
    if (!this.#txHold) return;
    this.#txHold = false;
    if (!this.#detached) this.kick();
  };

  #receive(chunk: Buffer | Uint8Array): void {
    if (this.#detached || this.rxStopped) return;
    this.#pcap?.rx(chunk);
    this.#deframer.push(chunk);
    // Transmit work made possible by this chunk (Read Responses, freed ORD) goes out now.
    if (this.#scheduled) this.run();
  }

  readonly #onData = (chunk: Buffer | Uint8Array): void => {
    this.#receive(chunk);
    // The chunk's completions reach their consumers now, from the socket's data callback.
    deliverCqNotifications();
  };
  readonly #onEnd = (): void => {
    if (!this.#detached) this.qp.onLlpFin();
  };
  readonly #onClose = (hadError: boolean): void => {
    if (this.#detached) return;
    if (hadError) this.qp.onLlpReset(false);
    else this.qp.onLlpClosed();
  };
  readonly #onError = (err: NodeJS.ErrnoException): void => {
    if (this.#detached) return;
    log('QP[%d] socket error %s', this.qp.id, err.code ?? err.message);
    this.qp.onLlpReset(err.code !== 'ECONNRESET' && err.code !== 'EPIPE');
  };
  readonly #onDrain = (): void => {
    this.kick();
  };

  /**
   * A zero-copy write finished: refill the socket once it is below half the window rather
   * than waiting for `drain` (which only comes when it is empty), so the pipe never idles.
   */
  #onWritten(): void {
    if (this.socket.writableLength < this.qp.rnic.config.txWindow >>> 1) this.kick();
  }

  /** Removes every listener; the QP no longer hears from this stream. */
  detach(): void {
    if (this.#detached) return;
    this.#detached = true;
    this.#active = false;
    if (this.#txHoldTimer) clearTimeout(this.#txHoldTimer);
    this.#txHoldTimer = null;
    const s = this.socket;
    s.off('data', this.#onData);
    s.off('end', this.#onEnd);
    s.off('close', this.#onClose);
    s.off('drain', this.#onDrain);
    // Keep a no-op error listener: a late ECONNRESET must not become an uncaught exception.
    s.off('error', this.#onError);
    s.on('error', noop);
    this.#pcap?.close();
    this.#pcap = null;
  }

  /** Graceful LLP close: a FIN after everything queued (TCP half-close). */
  closeGraceful(): void {
    if (this.#graceful) return;
    this.#graceful = true;
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

  /** {@link run} as a task, made once: a kick per posted WR allocates no closure. */
  readonly #runTask = (): void => this.run();

  /** Schedules a transmit run; posts in one synchronous block share one run (one writev). */
  kick(): void {
    if (this.#scheduled || !this.#active) return;
    this.#scheduled = true;
    queueMicrotask(this.#runTask);
  }

  /**
   * Backpressure: stop producing FPDUs once `txWindow` octets wait in the socket. The
   * window is larger than the socket's 16 KiB high-water mark so that 64 KiB FPDUs keep
   * the pipe full; `write()` has returned false by then, so `drain` will restart the loop.
   */
  #blocked(): boolean {
    return this.socket.writableLength >= this.qp.rnic.config.txWindow;
  }

  #write(b: Uint8Array, cb?: (err?: Error | null) => void): void {
    this.#pcap?.tx(b);
    this.socket.write(b, cb);
  }

  /** The transmit loop: one FPDU per iteration, pulled from the requester. */
  run(): void {
    this.#scheduled = false;
    const qp = this.qp;
    if (!this.#active || this.#running || qp.state !== RiQpState.READY_TO_SEND) return;
    if (this.#txHold) {
      // Nothing may go on the wire yet, but Bind, Fast-Register and Local Invalidate at the
      // head of the SQ have no wire effect and run now (Verbs §8.2.2.1).
      qp.requester.runLocalOps();
      return;
    }
    this.#running = true;
    const s = this.socket;
    s.cork();
    // Flush the cork every FLUSH_BYTES so the kernel sends while the next FPDUs are built:
    // corking a whole window would serialize building and sending.
    let flushAt = s.writableLength + FLUSH_BYTES;
    try {
      while (!this.#blocked() && qp.state === RiQpState.READY_TO_SEND) {
        if (s.writableLength >= flushAt) {
          s.uncork();
          s.cork();
          flushAt = s.writableLength + FLUSH_BYTES;
        }
        const seg = qp.requester.next(this);
        if (!seg) break;
        this.#sendSegment(seg);
      }
    } finally {
      this.#running = false;
      s.uncork();
    }
  }

  /** Frames one segment of the requester as one FPDU; Sends and Writes complete on delivery. */
  #sendSegment(g: TxSeg): void {
    let opcode: RdmapOpcode;
    let msn = 0;
    let rr: ReadRequestHeader | null = null;
    switch (g.op) {
      case TxOp.RDMA_WRITE:
        opcode = RdmapOpcode.Write;
        if (g.hasImm) {
          // RDMA Write with Immediate: the Write, then an Immediate Data message (RFC 7306 §6)
          // marked as a Write's, which completes the WR.
          this.#emitFpdu(opcode, g, 0, null, null);
          const t = resetTxSeg((this.#immSeg ??= newTxSeg()));
          t.op = TxOp.SEND_IMM;
          t.wqe = g.wqe;
          t.se = g.se;
          t.imm = g.imm;
          t.hasImm = true;
          this.#sendMessage(g.se ? RdmapOpcode.ImmediateDataSE : RdmapOpcode.ImmediateData, t, IMM_AFTER_WRITE);
          return;
        }
        break;
      case TxOp.SEND_IMM:
        this.#sendMessage(g.se ? RdmapOpcode.ImmediateDataSE : RdmapOpcode.ImmediateData, g, 0);
        return;
      case TxOp.ATOMIC_REQUEST:
      case TxOp.ATOMIC_RESPONSE: {
        // Atomic Requests share the Read Request queue (QN 1) and its MSNs; Atomic Responses
        // have their own queue (QN 3) (RFC 7306 §5).
        if (g.op === TxOp.ATOMIC_REQUEST) {
          opcode = RdmapOpcode.AtomicRequest;
          msn = this.#readReqMsn;
          this.#readReqMsn = (this.#readReqMsn + 1) >>> 0;
        } else {
          opcode = RdmapOpcode.AtomicResponse;
          msn = this.#atomicRespMsn;
          this.#atomicRespMsn = (this.#atomicRespMsn + 1) >>> 0;
        }
        const ext = extWords(g);
        if (ext) {
          g.parts = [ext];
          g.len = ext.length;
        }
        this.#emitFpdu(opcode, g, msn, null, null);
        return;
      }
      case TxOp.READ_RESPONSE:
        opcode = RdmapOpcode.ReadResponse;
        break;
      case TxOp.READ_REQUEST:
        opcode = RdmapOpcode.ReadRequest;
        msn = this.#readReqMsn;
        this.#readReqMsn = (this.#readReqMsn + 1) >>> 0;
        rr = this.#rr;
        rr.sinkStag = g.sinkStag;
        rr.sinkTo = g.sinkTo;
        rr.size = g.size;
        rr.srcStag = g.srcStag;
        rr.srcTo = g.srcTo;
        break;
      default:
        this.#sendMessage(SEND_OPCODE[g.op === TxOp.SEND_INVALIDATE ? 1 : 0][g.se ? 1 : 0], g, 0);
        return;
    }
    this.#deliverWith(opcode, g, msn, rr, 0);
  }

  /** One segment of an untagged message on the Send queue (QN 0): the MSN moves on its last one. */
  #sendMessage(opcode: RdmapOpcode, g: TxSeg, rsvdUlp32: number): void {
    const msn = this.#sendMsn;
    if (g.last) this.#sendMsn = (this.#sendMsn + 1) >>> 0;
    this.#deliverWith(opcode, g, msn, null, rsvdUlp32);
  }

  /** Emits the FPDU; the last one of a Send or Write completes its WQE on local delivery. */
  #deliverWith(opcode: RdmapOpcode, g: TxSeg, msn: number, rr: ReadRequestHeader | null, rsvdUlp32: number): void {
    const w = g.wqe;
    if (w && g.last && w.state === WqeState.WAIT_DELIVERY) {
      const copied = this.#emitFpdu(opcode, g, msn, rr, w, rsvdUlp32);
      if (copied) this.qp.requester.delivered(w);
      return;
    }
    this.#emitFpdu(opcode, g, msn, rr, null, rsvdUlp32);
  }

  /**
   * Sends the RFC 6581 Ready-To-Receive message: a zero-length RDMA Write, RDMA Read or Send,
   * outside the Send Queue, before any other FPDU. Write and Read use {@link RTR_STAG}; the
   * Read's zero-length Response is matched by an ORQ entry without a WQE.
   */
  #sendRtr(t: RtrType): void {
    // A zero-length message outside the SQ, naming RTR_STAG wherever an STag goes.
    const g = newTxSeg();
    g.op = TxOp.RDMA_WRITE;
    g.stag = RTR_STAG;
    g.sinkStag = RTR_STAG;
    g.srcStag = RTR_STAG;
    if (t === 'write') {
      this.#sendSegment(g);
      return;
    }
    if (t === 'read') {
      this.qp.requester.pushInternalRead(RTR_STAG);
      g.op = TxOp.READ_REQUEST;
    } else {
      g.op = TxOp.SEND;
    }
    this.#sendSegment(g);
  }

  /**
   * Frames and writes one FPDU: `[ULPDU_LENGTH | header | payload | PAD | CRC]`
   * (RFC 5044 §4.1, CRC little-endian as Linux siw sends it). Small payloads are copied into
   * a single buffer; larger ones are written as views and `delivering` (the WQE this FPDU
   * completes) is delivered from the socket's write callback. Returns true if the payload was
   * copied (so the source buffer is free again and the caller delivers `delivering` itself; no
   * callback is made for it).
   */
  #emitFpdu(opcode: RdmapOpcode, g: TxSeg, msn: number, rr: ReadRequestHeader | null, delivering: SqWqe | null, ulp32 = 0): boolean {
    const hdrLen = RDMAP_OPCODES[opcode]!.headerLength;
    const payloadLen = g.len;
    const parts = g.parts;
    const ulpduLen = hdrLen + payloadLen;
    const pad = mpaPadLength(ulpduLen);
    const h = this.#txHdr;
    h.opcode = opcode;
    h.last = g.last;
    h.stag = g.stag;
    h.to = g.to;
    h.rsvdUlp32 = g.op === TxOp.SEND_INVALIDATE ? g.invStag : ulp32;
    h.msn = msn;
    h.mo = g.offset;
    h.rr = rr;
    const rfc7306 = opcode >= RdmapOpcode.ImmediateData;
    if (this.#markers) {
      const head = new Uint8Array(hdrLen);
      encodeRdmapTxHeader(head, 0, h);
      if (rfc7306) writeRfc7306Header(head, DDP_UNTAGGED_HDR_LEN, opcode, g);
      const wire = this.#markers.frame([head, ...parts], this.#crcOn);
      for (let i = 0; i < wire.length - 1; i++) this.#write(wire[i]!);
      this.#write(wire[wire.length - 1]!, delivering ? this.#onDelivered(delivering) : undefined);
      return false;
    }
    if (payloadLen <= COPY_THRESHOLD) {
      const total = MPA_HDR_LEN + ulpduLen + pad + MPA_CRC_LEN;
      const b = Buffer.allocUnsafe(total);
      b[0] = ulpduLen >>> 8;
      b[1] = ulpduLen & 0xff;
      encodeRdmapTxHeader(b, MPA_HDR_LEN, h);
      if (rfc7306) writeRfc7306Header(b, MPA_HDR_LEN + DDP_UNTAGGED_HDR_LEN, opcode, g);
      let o = MPA_HDR_LEN + hdrLen;
      for (const p of parts) {
        b.set(p, o);
        o += p.length;
      }
      for (let k = 0; k < pad; k++) b[o + k] = 0;
      o += pad;
      writeMpaCrc(b, o, this.#crcOn ? crc32c(b.subarray(0, o)) : 0);
      this.#write(b);
      return true;
    }
    const head = Buffer.allocUnsafe(MPA_HDR_LEN + hdrLen);
    head[0] = ulpduLen >>> 8;
    head[1] = ulpduLen & 0xff;
    encodeRdmapTxHeader(head, MPA_HDR_LEN, h);
    if (rfc7306) writeRfc7306Header(head, MPA_HDR_LEN + DDP_UNTAGGED_HDR_LEN, opcode, g);
    // allocUnsafe draws from Node's pool for small sizes; the PAD octets are zeroed by hand.
    const trailer = Buffer.allocUnsafe(pad + MPA_CRC_LEN);
    trailer.fill(0);
    if (this.#crcOn) {
      let c = crc32c(head);
      for (const p of parts) c = crc32c(p, c);
      if (pad) c = crc32c(trailer.subarray(0, pad), c);
      writeMpaCrc(trailer, pad, c);
    }
    this.#write(head);
    for (const p of parts) this.#write(p);
    this.#write(trailer, delivering ? this.#onDelivered(delivering) : undefined);
    return false;
  }

  /**
   * The write callback of a zero-copy FPDU that completes `w`: the WQE is delivered once the
   * socket has taken the bytes. A failed write means the LLP is gone: the QP's error path
   * flushes the WQE.
   */
  #onDelivered(w: SqWqe): (err?: Error | null) => void {
    return (err) => {
      if (!err) this.qp.requester.delivered(w);
      this.#onWritten();
    };
  }

  /**
   * Sends the Terminate message for `err` (RFC 5040 §4.8) on the Terminate queue (QN 2,
   * MSN 1, siw's convention), copying the offending segment's headers when given, and
   * returns what Query QP reports (`terminate_buffer`).
   */
  sendFatal(err: Fault | object, copied: unknown): WireError {
    const te = typeof err === 'number' ? terminateOfFault(err) : (err as TerminateError);
    const c = copied as TermCopied | null;
    const t = buildTerminate(te, c?.segment, c?.segLen);
    const ulpdu = encodeTerminateMessage(t, 1);
    this.qp.rnic.counters.terminatesSent++;
    log('QP[%d] sending Terminate %s', this.qp.id, te.message);
    if (!this.socket.destroyed && this.socket.writable) this.#emitRaw(ulpdu);
    return terminateRecord(te, ulpdu.slice(DDP_UNTAGGED_HDR_LEN), true);
  }

  /** Frames an already-encoded ULPDU (the Terminate message). */
  #emitRaw(ulpdu: Uint8Array): void {
    const len = ulpdu.length;
    if (this.#markers) {
      const wire = this.#markers.frame([ulpdu], this.#crcOn);
      for (const w of wire) this.#write(w);
      return;
    }
    const pad = mpaPadLength(len);
    const b = Buffer.alloc(MPA_HDR_LEN + len + pad + MPA_CRC_LEN);
    b[0] = len >>> 8;
    b[1] = len & 0xff;
    b.set(ulpdu, MPA_HDR_LEN);
    const o = MPA_HDR_LEN + len + pad;
    writeMpaCrc(b, o, this.#crcOn ? crc32c(b.subarray(0, o)) : 0);
    this.#write(b);
  }

  // ------------------------------------------------------------------ receive

  #onFpdu(f: Fpdu): void {
    if (this.rxStopped || this.#detached) return;
    if (this.#txHold) this.#releaseTxHold();
    const qp = this.qp;
    const st = qp.state;
    // Terminate: inbound segments are ignored (Verbs §6.2.3).
    if (st === RiQpState.TERMINATE || st === RiQpState.ERROR || st === RiQpState.IDLE) return;
    const buf = copyUlpduPrefix(f, MAX_HDR, this.#scratch);
    const h = this.#hdr;
    try {
      decodeRdmapHeaderInto(buf, 0, f.length, h);
    } catch (e) {
      if (isTerminateError(e)) {
        this.protocolError(e, f);
        return;
      }
      throw e;
    }
    if (this.#expectRtr !== null && h.opcode !== RdmapOpcode.Terminate) {
      const want = this.#expectRtr;
      this.#expectRtr = null;
      const len = f.length - h.headerLength;
      const got =
        h.opcode === RdmapOpcode.Write
          ? 'write'
          : h.opcode === RdmapOpcode.ReadRequest
            ? 'read'
            : h.opcode === RdmapOpcode.Send
              ? 'send'
              : null;
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
   * Records an inbound protocol error: a {@link TerminateError} found by this transport (its
   * affiliated event from terminate-map.ts) or a core {@link Fault} (the core's event table),
   * then terminates the QP with the offending segment's headers. Only the first error counts;
   * afterwards the receive side ignores the stream.
   */
  protocolError(err: TerminateError | Fault, f: Fpdu | null): void {
    if (this.rxStopped) return;
    this.rxStopped = true;
    if (err === Fault.HANDLED) return;
    let copied: TermCopied | null = null;
    if (f) {
      const seg = new Uint8Array(Math.min(f.length, 46));
      copyUlpduPrefixInto(f, seg);
      copied = { segment: seg, segLen: f.length };
    }
    if (typeof err === 'number') {
      log('QP[%d] protocol error: %s', this.qp.id, Fault[err]);
      this.qp.remoteFault(err, copied);
      return;
    }
    if (err.layer === 2 && err.ecode === 2) this.qp.rnic.counters.crcErrors++;
    log('QP[%d] protocol error: %s', this.qp.id, err.message);
    // Reported through a completion instead when the error belongs to a local WR (Verbs §8.3).
    this.qp.rnic.asyncEvent(asyncEventForTerminate(err, f ? this.#hdr.opcode : -1), this.qp);
    this.qp.terminateWith(err, copied);
  }

  /** A fault from the core's responder ends the receive side with its Terminate. */
  fault(r: Fault, f: Fpdu): void {
    if (r !== Fault.OK) this.protocolError(r, f);
  }

  /**
   * RFC 7306 opcodes from a peer that did not agree them in the MPA exchange are unexpected
   * opcodes (RFC 5040 §7.3), as they are to Linux siw.
   */
  rfc7306Refused(f: Fpdu): boolean {
    if (this.caps.atomics) return false;
    this.protocolError(TerminateError.rdmap(RdmapEtype.RemoteOperation, RdmapEcode.UnexpectedOpcode, 'RFC 7306 not negotiated'), f);
    return true;
  }
}

function noop(): void {}

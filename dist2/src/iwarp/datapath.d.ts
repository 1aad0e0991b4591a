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
 * socket chunks; a per-opcode table ({@link RX_HANDLERS}) checks DDP sequencing and calls the
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
import { Fault } from '../rnic/faults.js';
import type { MpaAttrs, Qp, TerminateInfo } from '../rnic/qp.js';
import { type QpTransport, type TransportCaps, TxOp } from '../rnic/transport.js';
import { type Fpdu } from '../wire/deframer.js';
import { TerminateError } from '../wire/errors.js';
import { RdmapHeaderStruct } from '../wire/rdmap.js';
import { LlpStream } from './llp.js';
/**
 * softrdma's marker in the untagged RsvdULP field of an Immediate Data message (RFC 7306 §6)
 * that carries the immediate of an RDMA Write with Immediate (see the spec-notes: RFC 7306 has
 * one Immediate Data message; the verbs tell a Write's immediate from a Send's).
 */
export declare const IMM_AFTER_WRITE = 1;
/**
 * softrdma's AOpCode flag for extended (16/32-octet) atomics (the manual's §8.7): the RFC 7306
 * AOpCode | 0x8, with the further 64-bit words after the header (32 octets each: Add/Swap
 * Data, Add/Swap Mask, Compare Data, Compare Mask); the Atomic Response then carries the
 * further original words (8 octets each) after its header. Used only between softrdma peers.
 */
export declare const AOP_EXTENDED = 8;
/** Headers of the offending inbound segment, copied into the Terminate (RFC 5040 §7.1). */
export interface TermCopied {
    /** The first octets (up to 46) of the offending DDP segment. */
    segment: Uint8Array;
    /** The segment's full length (its MPA ULPDU_LENGTH). */
    segLen: number;
}
/** What iWARP carries towards any peer: the RFC 5040 operations. */
export declare const IWARP_CAPS: TransportCaps;
/**
 * What iWARP carries towards a peer that agreed softrdma's RDMAP extensions in the MPA
 * exchange (mpa-startup.ts): RFC 7306 atomics and Immediate Data, and extended atomics.
 */
export declare const IWARP_CAPS_RFC7306: TransportCaps;
type RxHandler = (c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu) => void;
/**
 * Validates an LLP stream handle and attaches a new connection to `qp` (RNICPI §4.4).
 * Returns null for a handle that is not an {@link LlpStream} (another transport's),
 * `INVALID_LL_HANDLE` for a stream that is not open, and `LL_BAD_STATE` for a stream another
 * QP already owns.
 */
export declare function attachIwarp(qp: Qp, handle: unknown, mpa: MpaAttrs): IwarpConn | RiRet | null;
export declare class IwarpConn implements QpTransport {
    readonly qp: Qp;
    readonly stream: LlpStream;
    readonly mpa: MpaAttrs;
    /** RFC 7306 operations only when the MPA exchange agreed them (LlpStream.rdmapExt). */
    readonly caps: TransportCaps;
    readonly socket: Socket;
    private readonly deframer;
    private readonly markers;
    private readonly crcOn;
    private readonly maxUlpdu;
    private readonly hdr;
    private readonly scratch;
    private readonly rr;
    private pcap;
    private active;
    private detached;
    private rxStopped;
    private scheduled;
    private running;
    private graceful;
    /** Responder: hold transmission until the Initiator's first FPDU (RFC 5044 §7.1.2). */
    private txHold;
    /** Responder in RFC 6581 peer-to-peer mode: the RTR type still expected. */
    private expectRtr;
    private sendMsn;
    private readReqMsn;
    private recvMsn;
    private recvReadMsn;
    /** RFC 7306 Atomic Responses have their own queue (QN 3) and MSNs. */
    private atomicRespMsn;
    private recvAtomicRespMsn;
    private readonly immSeg;
    constructor(qp: Qp, stream: LlpStream, mpa: MpaAttrs);
    maxPayload(op: TxOp): number;
    /** Enters RDMA mode: optional last streaming-mode message, then FPDUs (Verbs §6.2 T3). */
    start(streamMsg: Uint8Array | null): void;
    private readonly onData;
    private readonly onEnd;
    private readonly onClose;
    private readonly onError;
    private readonly onDrain;
    /**
     * A zero-copy write finished: refill the socket once it is below half the window rather
     * than waiting for `drain` (which only comes when it is empty), so the pipe never idles.
     */
    private onWritten;
    /** Removes every listener; the QP no longer hears from this stream. */
    detach(): void;
    /** Graceful LLP close: a FIN after everything queued (TCP half-close). */
    closeGraceful(): void;
    /**
     * Abortive close: RST (Verbs §6.2 T12). After our own FIN (`end()`) a reset is refused by
     * libuv (EINVAL) and would leak the handle, so a half-closed socket is simply destroyed.
     */
    reset(): void;
    /** Schedules a transmit run; posts in one synchronous block share one run (one writev). */
    kick(): void;
    /**
     * Backpressure: stop producing FPDUs once `txWindow` octets wait in the socket. The
     * window is larger than the socket's 16 KiB high-water mark so that 64 KiB FPDUs keep
     * the pipe full; `write()` has returned false by then, so `drain` will restart the loop.
     */
    private blocked;
    private write;
    /** The transmit loop: one FPDU per iteration, pulled from the requester. */
    run(): void;
    /** Frames one segment of the requester as one FPDU; Sends and Writes complete on delivery. */
    private sendSegment;
    /** One segment of an untagged message on the Send queue (QN 0): the MSN moves on its last one. */
    private sendMessage;
    /** Emits the FPDU; the last one of a Send or Write completes its WQE on local delivery. */
    private deliverWith;
    /**
     * Sends the RFC 6581 Ready-To-Receive message: a zero-length RDMA Write, RDMA Read or Send,
     * outside the Send Queue, before any other FPDU. Write and Read use {@link RTR_STAG}; the
     * Read's zero-length Response is matched by an ORQ entry without a WQE.
     */
    private sendRtr;
    /**
     * Frames and writes one FPDU: `[ULPDU_LENGTH | header | payload | PAD | CRC]`
     * (RFC 5044 §4.1, CRC little-endian as Linux siw sends it). Small payloads are copied into
     * a single buffer; larger ones are written as views and `done` runs from the socket's write
     * callback. Returns true if the payload was copied (so the source buffer is free again).
     */
    private emitFpdu;
    /**
     * Sends the Terminate message for `err` (RFC 5040 §4.8) on the Terminate queue (QN 2,
     * MSN 1, siw's convention), copying the offending segment's headers when given, and
     * returns what Query QP reports (`terminate_buffer`).
     */
    sendFatal(err: Fault | object, copied: unknown): TerminateInfo;
    /** Frames an already-encoded ULPDU (the Terminate message). */
    private emitRaw;
    private onFpdu;
    /**
     * Records an inbound protocol error: a {@link TerminateError} found by this transport (its
     * affiliated event from terminate-map.ts) or a core {@link Fault} (the core's event table),
     * then terminates the QP with the offending segment's headers. Only the first error counts;
     * afterwards the receive side ignores the stream.
     */
    protocolError(err: TerminateError | Fault, f: Fpdu | null): void;
    /** A fault from the core's responder ends the receive side with its Terminate. */
    private fault;
    /** Inbound RDMA Write (RFC 5040 §4.3): placement is the responder's. */
    static rxWrite(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void;
    /** Inbound Read Response: matched against the ORQ by the responder (RFC 5040 §4.5). */
    static rxReadResponse(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void;
    /** Inbound Send family (RFC 5040 §4.6–4.7): the DDP MSN here, receive matching in the responder. */
    static rxSend(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void;
    /** Inbound RDMA Read Request (RFC 5040 §4.4): DDP sequencing here, IRD and access in the responder. */
    static rxReadRequest(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void;
    /**
     * RFC 7306 opcodes from a peer that did not agree them in the MPA exchange are unexpected
     * opcodes (RFC 5040 §7.3), as they are to Linux siw.
     */
    private rfc7306Refused;
    /**
     * Inbound Immediate Data (RFC 7306 §6), on the Send queue: softrdma's Send with Immediate
     * (payload after the header), or, marked {@link IMM_AFTER_WRITE}, the immediate of the RDMA
     * Write before it. The verbs' 32-bit immediate is the low-order half of the 64 bits.
     */
    static rxImmediate(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void;
    /** Inbound Atomic Request (RFC 7306 §5.1): DDP sequencing on the Read Request queue here, the rest in the core. */
    static rxAtomicRequest(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void;
    /** Inbound Atomic Response (RFC 7306 §5.2) on its own queue (QN 3): matched to the ORQ head by the core. */
    static rxAtomicResponse(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void;
    /** Inbound Terminate (RFC 5040 §4.8): recorded for Query QP; no Terminate goes back. */
    static rxTerminate(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void;
}
/** Per-opcode receive handlers (RFC 5040 §4; RFC 7306 §5–6, refused unless negotiated). */
export declare const RX_HANDLERS: readonly (RxHandler | undefined)[];
export {};

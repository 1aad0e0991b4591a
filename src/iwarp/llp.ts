/**
 * LLP stream handles: what a QP is given at Idle→RTS (RNICPI §4.4 `llp_stream_handle`,
 * RDMA Protocol Verbs §6.1 "LLP Stream Handle").
 *
 * softrdma's LLP is TCP through a Node `net.Socket`. A handle wraps a connected socket
 * together with what the host stack learned while it owned the stream in streaming mode:
 * bytes already read past the last streaming-mode message (the first FPDUs may arrive in
 * the same TCP segment as the MPA Reply), and the stream offsets where FPDU mode begins in
 * each direction, which fix the MPA Marker grid (RFC 5044 §4.3).
 */
import type { Socket } from 'node:net';

export interface LlpStreamOptions {
  /** Bytes received after the streaming-mode exchange, to be parsed as FPDUs first. */
  pending?: Uint8Array | null;
  /** Stream offset of the first FPDU-mode octet this side sends (Marker grid), default 0. */
  txOffset?: number;
  /** Stream offset of the first FPDU-mode octet this side receives, default 0. */
  rxOffset?: number;
  /**
   * This side is the MPA Responder: it must not send an FPDU before it has received one
   * (RFC 5044 §7.1.2). Transmit work is held until the first FPDU arrives.
   */
  awaitFirstRx?: boolean;
  /**
   * With {@link awaitFirstRx}: release the held transmit work this many ms after the QP starts
   * even if no FPDU came (a Responder allowed to send first, see `PASSIVE_SETTLE_MS`). Default:
   * no limit.
   */
  txHoldMs?: number;
  /**
   * RFC 6581 peer-to-peer mode, Initiator: the zero-length Ready-To-Receive message to send
   * before anything else (the type the Responder chose in its Reply).
   */
  sendRtr?: RtrType | null;
  /** RFC 6581 peer-to-peer mode, Responder: the RTR message expected as the first FPDU. */
  expectRtr?: RtrType | null;
  /** The MPA exchange agreed softrdma's RDMAP extensions (RFC 7306, extended atomics). */
  rdmapExt?: boolean;
}

/** The zero-length operations RFC 6581 allows as the Ready-To-Receive message. */
export type RtrType = 'write' | 'read' | 'send';

/**
 * STag carried by zero-length Write and Read RTR messages. Zero-length operations are not
 * validated, so any value works for RFC 5041; Linux siw uses 1 because Chelsio hardware
 * rejects STag 0 (zrlio/softiwarp#21).
 */
export const RTR_STAG = 1;

export class LlpStream {
  /** Set while a QP owns the stream (a second attach is `LL_BAD_STATE`). */
  inUse = false;
  readonly pending: Uint8Array | null;
  readonly txOffset: number;
  readonly rxOffset: number;
  readonly awaitFirstRx: boolean;
  readonly txHoldMs: number;
  readonly sendRtr: RtrType | null;
  readonly expectRtr: RtrType | null;
  readonly rdmapExt: boolean;
  constructor(
    readonly socket: Socket,
    opts: LlpStreamOptions = {},
  ) {
    this.pending = opts.pending ?? null;
    this.txOffset = opts.txOffset ?? 0;
    this.rxOffset = opts.rxOffset ?? 0;
    this.awaitFirstRx = opts.awaitFirstRx ?? false;
    this.txHoldMs = opts.txHoldMs ?? Number.POSITIVE_INFINITY;
    this.sendRtr = opts.sendRtr ?? null;
    this.expectRtr = opts.expectRtr ?? null;
    this.rdmapExt = opts.rdmapExt ?? false;
  }

  /** True if the socket is connected and open in both directions. */
  get usable(): boolean {
    const s = this.socket;
    return !s.destroyed && !s.pending && s.readyState === 'open';
  }
}

/**
 * The shapes of a connection: its options, operations, messages and statistics (public), the
 * internal records of an operation and of a caller waiting for a slot, and the constants of the
 * send and receive queues.
 *
 * @module
 */
import type { ibv_mr } from '../verbs/index.js';
import type { LocalSlice, MemoryRegion } from './memory.js';

/** Options of a connection, on either side. */
export interface ConnectionOptions {
  /** Operations posted at once (the send queue's depth); further calls wait. Default 64. */
  maxOutstanding?: number;
  /** Calls allowed to wait for the window; one more rejects with `QueueFullError` (ENOBUFS). Default 65536. */
  maxQueued?: number;
  /**
   * Receive buffers the connection keeps posted: `count` buffers of `size` bytes (defaults 16 and
   * 4096). A buffer is posted again once its message has been taken from {@link Connection.receive}
   * or the iterator, so a reader that stops reading stops the receives too. `count: 0`: none.
   */
  receive?: { count?: number; size?: number };
  /**
   * Bytes per operation of the staging area for plain (unregistered) `Uint8Array`s: a smaller
   * one is copied there (send, write) or read through it; a larger one is registered for the
   * operation. Default 4096.
   */
  stagingSize?: number;
}

/** Where to connect, and how long to try. */
export interface ConnectOptions extends ConnectionOptions {
  port: number;
  /** Default 127.0.0.1. A name is looked up with `dns.lookup`. */
  host?: string;
  /** Sent with the request (at most 512 bytes on iWARP, MPA RFC 5044 §7.1). */
  privateData?: Uint8Array;
  /** Cancels the attempt: the promise rejects with `signal.reason`, nothing is left behind. */
  signal?: AbortSignal;
  /** Milliseconds before the attempt fails with `ConnectError` `'ETIMEDOUT'`. Default 10000. */
  timeout?: number;
}

/** Per-operation options. */
export interface OperationOptions {
  /**
   * Aborting rejects the operation's promise with `signal.reason` at once. An operation still
   * waiting for the window is never posted; one already posted cannot be recalled — the RNIC may
   * still read or write its buffers until its completion, and its window slot is freed then.
   */
  signal?: AbortSignal;
}

/** A received message: a copy of the bytes (the receive buffer is reposted), and the immediate data of a Write/Send with Immediate. */
export interface Message {
  data: Buffer;
  imm: number | undefined;
}

/** The local side of an operation: a registered region (or part of one), or any `Uint8Array`. */
export type LocalBuffer = Uint8Array | MemoryRegion | LocalSlice;

/** Counters of a connection (for tests and tuning). */
export interface ConnectionStats {
  /** Operations posted and not yet completed. */
  outstanding: number;
  /** The most operations ever outstanding at once. */
  maxOutstandingSeen: number;
  /** Calls waiting for the window. */
  waiting: number;
  /** WRs posted, calls to `ibv_post_send`, completions polled, completion-channel wakeups. */
  posted: number;
  postCalls: number;
  completions: number;
  wakeups: number;
}

export const RECV_BASE = 1 << 24;
/** `wr_id`s from here on are the caller's own (escape hatch), never the connection's. */
export const FOREIGN_WR_ID = 1n << 32n;
export const POLL_BATCH = 32;
/**
 * Signal at least every this many bytes: large WRs complete one by one (as perftest's CQ
 * moderation of 1 above 8 KiB), so the window refills smoothly instead of in bursts of megabytes.
 */
export const SIGNAL_BYTES = 16 << 10;
/**
 * The transport retry count of a connection (RoCEv2; iWARP has TCP's): 6, the largest count that
 * runs out, so a peer that vanished fails the pending operations (IBV_WC_RETRY_EXC_ERR) after
 * seven Local ACK Timeouts. 7 would retry for as long as the connection lives (Linux rxe's
 * reading of retry_cnt 7, which softroce0 follows: docs/spec-notes.md).
 */
export const RETRY_COUNT = 6;

export type Kind = 'send' | 'write' | 'read' | 'writeWithImm' | 'atomicFetchAdd' | 'atomicCompareSwap';

/** A connection's staging buffer: `size` bytes per send slot, registered once. */
export interface Staging {
  readonly buf: Uint8Array;
  readonly mr: ibv_mr;
  readonly size: number;
}

export interface Op {
  kind: Kind;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  settled: boolean;
  /** A registration made for this operation only (deregistered at its completion). */
  tmpMr: ibv_mr | null;
  /** Staged read: copy `len` bytes from the slot to `dst` on success. */
  copyTo: Uint8Array | null;
  /** Offset of the staging slot of a staged read. */
  stageAt: number;
  /** What the promise resolves with: nothing, the read buffer, or the 64-bit atomic result. */
  result: 'void' | 'buffer' | 'u64';
  buffer: Uint8Array | null;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | null;
}

export interface Waiter {
  resolve: (slot: number) => void;
  reject: (e: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | null;
}

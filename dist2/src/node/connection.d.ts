import { type ibv_comp_channel, type ibv_cq, type ibv_pd, type ibv_qp, type ibv_wc, type rdma_cm_id } from '../verbs/index.js';
import { type CmEvent, IdEvents } from './cm.js';
import type { RdmaDevice } from './device.js';
import { type LocalSlice, MemoryRegion, type RemoteBufferLike } from './memory.js';
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
    receive?: {
        count?: number;
        size?: number;
    };
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
/**
 * One connection. Made by {@link RdmaDevice.connect} or `ConnectionRequest.accept()`; `close()`
 * (or `await using`) disconnects and frees its QP, CQ, receive buffers and rdma_cm id.
 */
export declare class Connection implements AsyncIterable<Message> {
    #private;
    /** The verbs QP (escape hatch: post your own WRs with `ibv_post_send` and a `wr_id` ≥ 2^32; see {@link onForeignCompletion}). */
    readonly qp: ibv_qp;
    /** The completion queue of both queues (escape hatch). */
    readonly cq: ibv_cq;
    /** The completion channel the CQ reports to (escape hatch). */
    readonly channel: ibv_comp_channel;
    /** The rdma_cm id (escape hatch). */
    readonly cm_id: rdma_cm_id;
    readonly device: RdmaDevice;
    /** Private data the peer sent with its request (server side) or its accept (client side). */
    privateData: Uint8Array;
    /** Settles once the connection is closed (by either side); never rejects. */
    readonly closed: Promise<void>;
    /**
     * Completions of WRs this object did not post (escape hatch: `ibv_post_send(conn.qp, …)` with a
     * `wr_id` ≥ 2^32, which the connection never uses); the connection polls `cq` and hands them
     * here (a copy), else drops them. Such WRs share the send queue (`maxOutstanding` entries) with
     * the connection's own: post them when the window has room (`stats.outstanding`).
     */
    onForeignCompletion: ((wc: ibv_wc) => void) | null;
    /** @internal Creates the CQ, QP and buffers on `id` (bound to the device). Throws RdmaError; frees what it made. */
    constructor(device: RdmaDevice, id: rdma_cm_id, events: IdEvents, opts: ConnectionOptions);
    /** The protection domain (escape hatch; the device's). */
    get pd(): ibv_pd;
    /** The peer's address and port. */
    get remoteAddress(): string;
    get remotePort(): number;
    get localAddress(): string;
    get localPort(): number;
    /** The window: at most this many operations are posted at once. */
    get maxOutstanding(): number;
    /** A snapshot of the counters. */
    get stats(): Readonly<ConnectionStats>;
    /** True until the connection is closing or closed. */
    get open(): boolean;
    /** @internal The connection is established: events now mean "disconnected". */
    start(ev: CmEvent): void;
    /** Sends `data` into the peer's next receive buffer (a Send); resolves on its completion. */
    send(data: LocalBuffer, options?: OperationOptions): Promise<void>;
    /** RDMA-Writes `data` to `remote` (its start); resolves on the completion. */
    write(data: LocalBuffer, remote: RemoteBufferLike, options?: OperationOptions): Promise<void>;
    /**
     * RDMA Write with Immediate: like `write`, and the peer's receive completes with `imm` (its
     * {@link Message.imm}). Rejects with `UnsupportedError` where the transport has no immediate data.
     */
    writeWithImm(data: LocalBuffer, remote: RemoteBufferLike, imm: number, options?: OperationOptions): Promise<void>;
    /**
     * RDMA-Reads `remote` into `into` (a registered region or slice, or a plain `Uint8Array`, or a
     * byte count: a new Buffer); resolves with the buffer that holds the bytes.
     */
    read(remote: RemoteBufferLike, into?: LocalBuffer | number, options?: OperationOptions): Promise<Uint8Array>;
    /** Atomic Fetch and Add on the 8 bytes at `remote`; resolves with the value before the add. */
    atomicFetchAdd(remote: RemoteBufferLike, add: bigint, options?: OperationOptions): Promise<bigint>;
    /** Atomic Compare and Swap on the 8 bytes at `remote`; resolves with the value found there. */
    atomicCompareSwap(remote: RemoteBufferLike, compare: bigint, swap: bigint, options?: OperationOptions): Promise<bigint>;
    /** The next received message; rejects with `ConnectionClosedError` once the connection is closed and every message was taken. */
    receive(options?: OperationOptions): Promise<Message>;
    /** Received messages until the connection closes. */
    messages(options?: OperationOptions): AsyncGenerator<Message, void, undefined>;
    [Symbol.asyncIterator](): AsyncIterator<Message>;
    /**
     * Disconnects (gracefully when nothing is outstanding), waits for the flushed completions of
     * what was still posted (every such promise rejects, with `IBV_WC_WR_FLUSH_ERR`), then frees the
     * QP, CQ, completion channel, buffers and rdma_cm id. Idempotent.
     */
    close(): Promise<void>;
    /** @internal Frees what the constructor made, before the connection was established. */
    destroyUnestablished(): void;
    [Symbol.asyncDispose](): Promise<void>;
}
/** `device.connect()`: resolve, create the QP, `rdma_connect`, wait for ESTABLISHED. */
export declare function connect(device: RdmaDevice, opts: ConnectOptions): Promise<Connection>;
/** @internal `ConnectionRequest.accept()`: the QP on the request's id, `rdma_accept`, ESTABLISHED. */
export declare function accept(device: RdmaDevice, id: rdma_cm_id, events: IdEvents, opts: ConnectionOptions & {
    privateData?: Uint8Array;
}, peerData: Uint8Array): Promise<Connection>;

/**
 * A connected RC queue pair, Node style: `send`, `write`, `read`, the atomics and
 * `writeWithImm` return promises settled by the work completion; received messages come from an
 * async iterator over receive buffers the connection manages; at most `maxOutstanding`
 * operations are posted at once and further calls wait their turn.
 *
 * Inside, the verbs calls do the work: one CQ (send and receive) with a completion channel,
 * drained on each of its events, taken synchronously as the CQ fires (`softrdmaOnCqEvent`) — one wakeup polls every completion there is
 * (`ibv_poll_cq` in batches of 32); operations issued in the same tick go out as one post list
 * (`ibv_post_send` with an array); and only every `maxOutstanding / 4`-th WR (or 16 KiB) and the
 * last of a list are signaled: the send queue completes in order (RDMA Protocol Verbs §8.1.3.1 — an
 * unsignaled WR is complete when a later WR of the queue is), so one completion settles the
 * operations before it. A WR that fails always completes with its own error status, and a
 * flushed one too, so no promise waits for a completion that never comes.
 */
import {
  IBV_SEND_SIGNALED,
  IBV_WC_SUCCESS,
  IBV_WC_WITH_IMM,
  IBV_WR_ATOMIC_CMP_AND_SWP,
  IBV_WR_ATOMIC_FETCH_AND_ADD,
  IBV_WR_RDMA_READ,
  IBV_WR_RDMA_WRITE,
  IBV_WR_RDMA_WRITE_WITH_IMM,
  IBV_WR_SEND,
  errnoName,
  ibv_ack_cq_events,
  ibv_dereg_mr,
  ibv_destroy_comp_channel,
  ibv_destroy_cq,
  ibv_poll_cq,
  ibv_post_recv,
  ibv_post_send,
  ibv_req_notify_cq,
  type ibv_wr_opcode,
  rdma_cm_event_type,
  rdma_destroy_qp,
  rdma_disconnect,
  rdma_get_local_addr,
  rdma_get_peer_addr,
  softrdmaLastError,
  softrdmaOnCqEvent,
  type ibv_comp_channel,
  type ibv_cq,
  type ibv_mr,
  type ibv_pd,
  type ibv_qp,
  type ibv_recv_wr,
  type ibv_send_wr,
  type ibv_wc,
  type rdma_cm_id,
} from '../verbs/index.js';
import { logger } from '../util/log.js';
import type { CmEvent, IdEvents } from './cm.js';
import type { RdmaDevice } from './device.js';
import { ConnectionClosedError, QueueFullError, RdmaError, WcError } from './errors.js';
import { RemoteBuffer, type RemoteBufferLike } from './memory.js';
import {
  AbortHub,
  bindLocal,
  createQueues,
  isOptional,
  lastError,
  localLength,
  posInt,
  sinkAccess,
  unsupportedError,
} from './connection-parts.js';
import {
  type ConnectionOptions,
  type ConnectionStats,
  FOREIGN_WR_ID,
  type Kind,
  type LocalBuffer,
  type Message,
  type Op,
  type OperationOptions,
  POLL_BATCH,
  RECV_BASE,
  SIGNAL_BYTES,
  type Staging,
} from './connection-types.js';
import { SlotWaiters } from './waiters.js';

export type { ConnectionOptions, ConnectionStats, ConnectOptions, LocalBuffer, Message, OperationOptions } from './connection-types.js';
export { accept, connect } from './connect.js';

const log = logger('node');

/**
 * One connection. Made by {@link RdmaDevice.connect} or `ConnectionRequest.accept()`; `close()`
 * (or `await using`) disconnects and frees its QP, CQ, receive buffers and rdma_cm id.
 */
export class Connection implements AsyncIterable<Message> {
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
  privateData: Uint8Array = new Uint8Array(0);
  /** Settles once the connection is closed (by either side); never rejects. */
  readonly closed: Promise<void>;
  /**
   * Completions of WRs this object did not post (escape hatch: `ibv_post_send(conn.qp, …)` with a
   * `wr_id` ≥ 2^32, which the connection never uses); the connection polls `cq` and hands them
   * here (a copy), else drops them. Such WRs share the send queue (`maxOutstanding` entries) with
   * the connection's own: post them when the window has room (`stats.outstanding`).
   */
  onForeignCompletion: ((wc: ibv_wc) => void) | null = null;

  readonly #events: IdEvents;
  readonly #aborts = new AbortHub();
  readonly #window: number;
  readonly #maxQueued: number;
  readonly #moderation: number;
  readonly #stagingSize: number;
  /** Each send slot's staging area in one registered buffer. */
  readonly #stage: Staging;
  readonly #recvCount: number;
  readonly #recvSize: number;
  readonly #recvBuf: Uint8Array;
  readonly #recvMr: ibv_mr | null;
  readonly #recvWrs: ibv_recv_wr[];
  readonly #sendWrs: ibv_send_wr[];
  readonly #slotIds: bigint[] = [];
  readonly #ops: (Op | undefined)[] = [];
  readonly #free: number[] = [];
  /** Slots in posting order (the send queue's completion order). */
  readonly #sq: number[];
  #sqHead = 0;
  #sqLen = 0;
  readonly #waiters = new SlotWaiters(this.#aborts);
  #pending: number[] = [];
  #flushScheduled = false;
  #flushSeen = 0;
  #flushHops = 0;
  /**
   * Posts once the calls of this tick have stopped coming: while the list grew since the last
   * microtask, look again one microtask later (an `await` loop issues one call per microtask), so
   * that a burst becomes one post list (and one socket write for the transport) at the cost of a
   * microtask, never of a turn of the event loop.
   */
  readonly #flushTick = (): void => {
    const n = this.#pending.length;
    if (n > this.#flushSeen && this.#free.length > 0 && this.#flushHops < 1024) {
      this.#flushSeen = n;
      this.#flushHops++;
      queueMicrotask(this.#flushTick);
      return;
    }
    this.#flush();
  };
  #sinceSignal = 0;
  #sinceBytes = 0;
  readonly #wcs: ibv_wc[] = [];
  readonly #ready: { index: number; len: number; imm: number | undefined }[] = [];
  readonly #recvWaiters: { resolve: (m: Message | null) => void; reject: (e: unknown) => void }[] = [];
  #repost: number[] = [];
  #repostScheduled = false;
  #recvOpen: boolean;
  #state: 'setup' | 'open' | 'peer-closed' | 'closing' | 'closed' = 'setup';
  #closing: Promise<void> | null = null;
  #resolveClosed!: () => void;
  #disconnected = false;
  #onDisconnected: (() => void) | null = null;
  #onIdle: (() => void) | null = null;
  readonly #stats: ConnectionStats = {
    outstanding: 0,
    maxOutstandingSeen: 0,
    waiting: 0,
    posted: 0,
    postCalls: 0,
    completions: 0,
    wakeups: 0,
  };

  /** @internal Creates the CQ, QP and buffers on `id` (bound to the device). Throws RdmaError; frees what it made. */
  constructor(device: RdmaDevice, id: rdma_cm_id, events: IdEvents, opts: ConnectionOptions) {
    this.device = device;
    this.cm_id = id;
    this.#events = events;
    this.closed = new Promise((r) => (this.#resolveClosed = r));
    const N = posInt(opts.maxOutstanding, 64, 'maxOutstanding');
    if (N > device.capabilities.maxQpWr)
      throw new RangeError(`maxOutstanding ${N} exceeds the device's max_qp_wr ${device.capabilities.maxQpWr}`);
    this.#window = N;
    this.#maxQueued = posInt(opts.maxQueued, 65536, 'maxQueued', 0);
    this.#moderation = Math.max(1, N >> 2);
    this.#stagingSize = posInt(opts.stagingSize, 4096, 'stagingSize', 8);
    this.#recvCount = posInt(opts.receive?.count, 16, 'receive.count', 0);
    this.#recvSize = posInt(opts.receive?.size, 4096, 'receive.size');
    if (this.#recvCount > device.capabilities.maxQpWr)
      throw new RangeError(`receive.count ${this.#recvCount} exceeds the device's max_qp_wr`);
    this.#recvOpen = this.#recvCount > 0;
    this.#sq = new Array<number>(N).fill(0);

    const q = createQueues(device, id, this, {
      n: N,
      recvCount: this.#recvCount,
      recvSize: this.#recvSize,
      stagingSize: this.#stagingSize,
      sinkAccess: sinkAccess(this.device),
    });
    this.qp = q.qp;
    this.cq = q.cq;
    this.channel = q.channel;
    this.#stage = { buf: q.staging, mr: q.stagingMr, size: this.#stagingSize };
    this.#recvBuf = q.recvBuf;
    this.#recvMr = q.recvMr;
    this.#sendWrs = q.sendWrs;
    this.#recvWrs = q.recvWrs;
    for (let i = 0; i < N; i++) {
      this.#slotIds.push(BigInt(i));
      this.#free.push(N - 1 - i);
    }
    this.#startCq();
  }

  /** The protection domain (escape hatch; the device's). */
  get pd(): ibv_pd {
    return this.device.pd;
  }
  /** The peer's address and port. */
  get remoteAddress(): string {
    return rdma_get_peer_addr(this.cm_id).address;
  }
  get remotePort(): number {
    return rdma_get_peer_addr(this.cm_id).port;
  }
  get localAddress(): string {
    return rdma_get_local_addr(this.cm_id).address;
  }
  get localPort(): number {
    return rdma_get_local_addr(this.cm_id).port;
  }
  /** The window: at most this many operations are posted at once. */
  get maxOutstanding(): number {
    return this.#window;
  }
  /** A snapshot of the counters. */
  get stats(): Readonly<ConnectionStats> {
    return { ...this.#stats, outstanding: this.#sqLen, waiting: this.#waiters.count };
  }
  /** True until the connection is closing or closed. */
  get open(): boolean {
    return this.#state === 'open';
  }

  /** @internal The connection is established: events now mean "disconnected". */
  start(ev: CmEvent): void {
    this.privateData = ev.privateData ?? new Uint8Array(0);
    this.#state = 'open';
    this.#events.forward((e) => {
      if (e.type === rdma_cm_event_type.RDMA_CM_EVENT_DISCONNECTED || e.type === rdma_cm_event_type.RDMA_CM_EVENT_DEVICE_REMOVAL)
        this.#peerGone();
    });
  }

  // ------------------------------------------------------------------------------ operations

  /** Sends `data` into the peer's next receive buffer (a Send); resolves on its completion. */
  send(data: LocalBuffer, options?: OperationOptions): Promise<void> {
    return this.#op('send', IBV_WR_SEND, data, null, 0, 0n, 0n, options) as Promise<void>;
  }

  /** RDMA-Writes `data` to `remote` (its start); resolves on the completion. */
  write(data: LocalBuffer, remote: RemoteBufferLike, options?: OperationOptions): Promise<void> {
    return this.#op('write', IBV_WR_RDMA_WRITE, data, remote, 0, 0n, 0n, options) as Promise<void>;
  }

  /**
   * RDMA Write with Immediate: like `write`, and the peer's receive completes with `imm` (its
   * {@link Message.imm}). Rejects with `UnsupportedError` where the transport has no immediate data.
   */
  writeWithImm(data: LocalBuffer, remote: RemoteBufferLike, imm: number, options?: OperationOptions): Promise<void> {
    if (!Number.isInteger(imm) || imm < 0 || imm > 0xffffffff)
      return Promise.reject(new RangeError(`imm must be a 32-bit unsigned integer; got ${imm}`));
    return this.#op('writeWithImm', IBV_WR_RDMA_WRITE_WITH_IMM, data, remote, imm, 0n, 0n, options) as Promise<void>;
  }

  /**
   * RDMA-Reads `remote` into `into` (a registered region or slice, or a plain `Uint8Array`, or a
   * byte count: a new Buffer); resolves with the buffer that holds the bytes.
   */
  read(remote: RemoteBufferLike, into?: LocalBuffer | number, options?: OperationOptions): Promise<Uint8Array> {
    let local: LocalBuffer;
    if (into === undefined || typeof into === 'number') {
      let r: RemoteBuffer;
      try {
        r = RemoteBuffer.from(remote);
      } catch (e) {
        return Promise.reject(e);
      }
      local = Buffer.alloc(into ?? r.length);
    } else local = into;
    return this.#op('read', IBV_WR_RDMA_READ, local, remote, 0, 0n, 0n, options) as Promise<Uint8Array>;
  }

  /** Atomic Fetch and Add on the 8 bytes at `remote`; resolves with the value before the add. */
  atomicFetchAdd(remote: RemoteBufferLike, add: bigint, options?: OperationOptions): Promise<bigint> {
    return this.#op(
      'atomicFetchAdd',
      IBV_WR_ATOMIC_FETCH_AND_ADD,
      null,
      remote,
      0,
      BigInt.asUintN(64, add),
      0n,
      options,
    ) as Promise<bigint>;
  }

  /** Atomic Compare and Swap on the 8 bytes at `remote`; resolves with the value found there. */
  atomicCompareSwap(remote: RemoteBufferLike, compare: bigint, swap: bigint, options?: OperationOptions): Promise<bigint> {
    return this.#op(
      'atomicCompareSwap',
      IBV_WR_ATOMIC_CMP_AND_SWP,
      null,
      remote,
      0,
      BigInt.asUintN(64, compare),
      BigInt.asUintN(64, swap),
      options,
    ) as Promise<bigint>;
  }

  /** The next received message; rejects with `ConnectionClosedError` once the connection is closed and every message was taken. */
  async receive(options?: OperationOptions): Promise<Message> {
    const m = await this.#nextMessage(options?.signal);
    if (!m) throw new ConnectionClosedError('the connection is closed: no more messages');
    return m;
  }

  /** Received messages until the connection closes. */
  async *messages(options?: OperationOptions): AsyncGenerator<Message, void, undefined> {
    for (;;) {
      const m = await this.#nextMessage(options?.signal);
      if (!m) return;
      yield m;
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<Message> {
    return this.messages();
  }

  // ------------------------------------------------------------------------------ the window

  #op(
    kind: Kind,
    opcode: ibv_wr_opcode,
    local: LocalBuffer | null,
    remote: RemoteBufferLike | null,
    imm: number,
    a: bigint,
    b: bigint,
    opts?: OperationOptions,
  ): Promise<unknown> {
    let rb: RemoteBuffer | null = null;
    let len: number;
    try {
      if (remote !== null) rb = RemoteBuffer.from(remote);
      len = local === null ? 8 : localLength(local);
      if (rb && len > rb.length) throw new RangeError(`${kind}: ${len} bytes do not fit the remote buffer of ${rb.length} bytes`);
      if (this.#state !== 'open')
        throw new ConnectionClosedError(`${kind}: the connection is ${this.#state === 'setup' ? 'not established' : 'closed'}`);
      const signal = opts?.signal;
      if (signal?.aborted) throw signal.reason;
      if (this.#free.length > 0 && this.#waiters.count === 0)
        return this.#start(this.#free.pop()!, kind, opcode, local, len, rb, imm, a, b, signal);
      if (this.#waiters.count >= this.#maxQueued) throw new QueueFullError(this.#maxQueued);
      return this.#waiters.wait(signal).then((slot) => this.#start(slot, kind, opcode, local, len, rb, imm, a, b, signal));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  #release(slot: number): void {
    if (this.#state === 'open') {
      const w = this.#waiters.next();
      if (w) {
        w.resolve(slot);
        return;
      }
    }
    this.#free.push(slot);
    if (this.#sqLen === 0 && this.#onIdle) this.#onIdle();
  }

  /** Builds the WR of `slot` and queues it for the next post list. */
  #start(
    slot: number,
    kind: Kind,
    opcode: ibv_wr_opcode,
    local: LocalBuffer | null,
    len: number,
    rb: RemoteBuffer | null,
    imm: number,
    a: bigint,
    b: bigint,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    if (this.#state !== 'open') {
      this.#free.push(slot);
      return Promise.reject(new ConnectionClosedError(`${kind}: the connection is closed`));
    }
    if (signal?.aborted) {
      this.#release(slot);
      return Promise.reject(signal.reason);
    }
    return new Promise((resolve, reject) => {
      const op: Op = {
        kind,
        resolve,
        reject,
        settled: false,
        tmpMr: null,
        copyTo: null,
        stageAt: 0,
        result: 'void',
        buffer: null,
        signal,
        onAbort: null,
      };
      const wr = this.#sendWrs[slot]!;
      wr.opcode = opcode;
      wr.send_flags = 0;
      const inbound = opcode === IBV_WR_RDMA_READ;
      if (!bindLocal(wr.sg_list[0]!, op, local, len, slot, this.#stage, this.device)) {
        this.#release(slot);
        reject(lastError(`${kind}: ibv_reg_mr`));
        return;
      }
      if (inbound) op.result = 'buffer';
      if (rb) {
        if (local === null) {
          const at = wr.wr.atomic;
          at.remote_addr = rb.addr;
          at.rkey = rb.rkey;
          at.compare_add = a;
          at.swap = b;
        } else {
          wr.wr.rdma.remote_addr = rb.addr;
          wr.wr.rdma.rkey = rb.rkey;
        }
      }
      wr.imm_data = imm;
      if (signal) {
        op.onAbort = () => {
          if (op.settled) return;
          op.settled = true;
          reject(signal.reason);
        };
        this.#aborts.add(signal, op.onAbort);
      }
      this.#ops[slot] = op;
      this.#pending.push(slot);
      if (!this.#flushScheduled) {
        this.#flushScheduled = true;
        this.#flushSeen = 0;
        this.#flushHops = 0;
        queueMicrotask(this.#flushTick);
      }
    });
  }

  /** Posts the WRs queued in this tick as one list. */
  #flush(): void {
    this.#flushScheduled = false;
    const slots = this.#pending;
    if (slots.length === 0) return;
    this.#pending = [];
    const list: ibv_send_wr[] = new Array(slots.length);
    const last = slots.length - 1;
    for (let i = 0; i <= last; i++) {
      const slot = slots[i]!;
      const wr = this.#sendWrs[slot]!;
      const optional = isOptional(wr.opcode);
      // Signal the last of the list, every `moderation`-th WR, and an optional opcode and the WR
      // before it (if the provider refuses it, nothing posted before waits for a later WC).
      this.#sinceBytes += wr.sg_list[0]!.length;
      if (
        i === last ||
        ++this.#sinceSignal >= this.#moderation ||
        this.#sinceBytes >= SIGNAL_BYTES ||
        optional ||
        (i < last && isOptional(this.#sendWrs[slots[i + 1]!]!.opcode))
      ) {
        wr.send_flags = IBV_SEND_SIGNALED;
        this.#sinceSignal = 0;
        this.#sinceBytes = 0;
      }
      list[i] = wr;
    }
    let from = 0;
    while (from < list.length) {
      const part = from === 0 ? list : list.slice(from);
      this.#stats.postCalls++;
      const r = ibv_post_send(this.qp, part);
      const bad = r.ret === 0 ? part.length : part.indexOf(r.bad_wr as ibv_send_wr);
      for (let i = 0; i < bad; i++) this.#sqPush(slots[from + i]!);
      this.#stats.posted += bad;
      if (r.ret === 0) break;
      const detail = softrdmaLastError().message;
      const slot = slots[from + bad]!;
      const op = this.#ops[slot]!;
      this.#ops[slot] = undefined;
      const opcode = this.#sendWrs[slot]!.opcode;
      if (isOptional(opcode)) {
        this.#finish(op, unsupportedError(this.device, op.kind, opcode, r.ret));
        this.#release(slot);
        from += bad + 1;
        continue;
      }
      // Anything else refused at post time: this WR and the rest of the list fail with the errno.
      const err = RdmaError.fromErrno(`${op.kind}: ibv_post_send`, r.ret, detail);
      this.#finish(op, err);
      this.#release(slot);
      for (let i = from + bad + 1; i < slots.length; i++) {
        const s = slots[i]!;
        const o = this.#ops[s]!;
        this.#ops[s] = undefined;
        this.#finish(o, err);
        this.#release(s);
      }
      break;
    }
  }

  #sqPush(slot: number): void {
    this.#sq[(this.#sqHead + this.#sqLen) % this.#window] = slot;
    this.#sqLen++;
    if (this.#sqLen > this.#stats.maxOutstandingSeen) this.#stats.maxOutstandingSeen = this.#sqLen;
  }

  // ------------------------------------------------------------------------------ completions

  /**
   * Completions reach the connection synchronously: the channel's events come to
   * {@link #onCqEvent} as the CQ fires (from the socket callback that delivered them), not
   * through `ibv_get_cq_event`'s promise, so a consumer's `await` is the only hop left.
   */
  #startCq(): void {
    this.#drain();
    if (softrdmaOnCqEvent(this.channel, this.#onCqEvent) !== 0) log('softrdmaOnCqEvent: %s', softrdmaLastError().message);
  }

  readonly #onCqEvent = (cq: ibv_cq): void => {
    this.#stats.wakeups++;
    ibv_ack_cq_events(cq, 1);
    // Re-arm before polling, so a completion that lands after the last poll still wakes us.
    ibv_req_notify_cq(cq, 0);
    this.#drain();
  };

  #drain(): void {
    const wcs = this.#wcs;
    for (;;) {
      const n = ibv_poll_cq(this.cq, POLL_BATCH, wcs);
      if (n <= 0) return;
      this.#stats.completions += n;
      for (let i = 0; i < n; i++) this.#completion(wcs[i]!);
      if (n < POLL_BATCH) return;
    }
  }

  #completion(wc: ibv_wc): void {
    const id = wc.wr_id < FOREIGN_WR_ID ? Number(wc.wr_id) : -1;
    if (id >= RECV_BASE && id < RECV_BASE + this.#recvCount) {
      this.#recvCompletion(id - RECV_BASE, wc);
      return;
    }
    if (id < 0 || id >= this.#window || !this.#ops[id]) {
      // Not ours: a WR posted on `qp` through the escape hatch.
      this.onForeignCompletion?.({ ...wc });
      return;
    }
    // Every WR posted before this one, unsignaled, has completed successfully (in order).
    while (this.#sqLen > 0) {
      const slot = this.#sq[this.#sqHead]!;
      this.#sqHead = (this.#sqHead + 1) % this.#window;
      this.#sqLen--;
      const op = this.#ops[slot];
      this.#ops[slot] = undefined;
      if (slot === id) {
        if (op) this.#finish(op, wc.status === IBV_WC_SUCCESS ? null : new WcError(op.kind, wc));
        this.#release(slot);
        return;
      }
      if (op) this.#finish(op, null);
      this.#release(slot);
    }
  }

  #finish(op: Op, err: Error | null): void {
    if (op.tmpMr) ibv_dereg_mr(op.tmpMr);
    if (op.onAbort) this.#aborts.remove(op.signal!, op.onAbort);
    if (op.settled) return;
    op.settled = true;
    if (err) {
      op.reject(err);
      return;
    }
    if (op.result === 'void') op.resolve(undefined);
    else if (op.result === 'u64') {
      const b = op.buffer!;
      op.resolve(new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0, true));
    } else {
      if (op.copyTo) op.copyTo.set(this.#stage.buf.subarray(op.stageAt, op.stageAt + op.copyTo.byteLength));
      op.resolve(op.buffer);
    }
  }

  #recvCompletion(index: number, wc: ibv_wc): void {
    if (wc.status !== IBV_WC_SUCCESS) {
      // Flushed (the connection is closing) or failed: no more messages.
      if (this.#recvOpen) {
        this.#recvOpen = false;
        if (wc.status !== 5 /* IBV_WC_WR_FLUSH_ERR */) log('receive failed: %s', new WcError('recv', wc).message);
      }
      this.#wakeReceivers();
      return;
    }
    const imm = wc.wc_flags & IBV_WC_WITH_IMM ? wc.imm_data : undefined;
    this.#ready.push({ index, len: wc.byte_len, imm });
    const w = this.#recvWaiters.shift();
    if (w) w.resolve(this.#take());
  }

  #take(): Message {
    const r = this.#ready.shift()!;
    const at = r.index * this.#recvSize;
    const data = Buffer.from(this.#recvBuf.subarray(at, at + r.len));
    this.#repost.push(r.index);
    if (!this.#repostScheduled) {
      this.#repostScheduled = true;
      queueMicrotask(() => this.#repostNow());
    }
    return { data, imm: r.imm };
  }

  #repostNow(): void {
    this.#repostScheduled = false;
    const idx = this.#repost;
    this.#repost = [];
    if (!this.#recvOpen || this.#state !== 'open' || idx.length === 0) return;
    const r = ibv_post_recv(
      this.qp,
      idx.map((i) => this.#recvWrs[i]!),
    );
    if (r.ret !== 0) log('ibv_post_recv: %s', softrdmaLastError().message);
  }

  #nextMessage(signal?: AbortSignal): Promise<Message | null> {
    if (this.#ready.length > 0) return Promise.resolve(this.#take());
    if (!this.#recvOpen || this.#state === 'closing' || this.#state === 'closed' || this.#state === 'peer-closed')
      return Promise.resolve(null);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Message | null>((resolve, reject) => {
      const w = {
        resolve: (m: Message | null) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(m);
        },
        reject,
      };
      const onAbort = (): void => {
        const i = this.#recvWaiters.indexOf(w);
        if (i >= 0) this.#recvWaiters.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#recvWaiters.push(w);
    });
  }

  #wakeReceivers(): void {
    for (const w of this.#recvWaiters.splice(0)) w.resolve(this.#ready.length > 0 ? this.#take() : null);
  }

  // ------------------------------------------------------------------------------ teardown

  /** The peer disconnected (or died): rdma_cm moved the QP to Error, so every posted WR is flushed. */
  #peerGone(): void {
    this.#disconnected = true;
    this.#onDisconnected?.();
    if (this.#state === 'open') {
      this.#state = 'peer-closed';
      this.#rejectWaiters(new ConnectionClosedError('the peer closed the connection'));
      // Flushed completions are in the CQ now (or soon): drain them at once.
      this.#drain();
      this.#wakeReceivers();
      this.#resolveClosed();
    }
  }

  #rejectWaiters(err: Error): void {
    this.#waiters.rejectAll(err);
  }

  /**
   * Disconnects (gracefully when nothing is outstanding), waits for the flushed completions of
   * what was still posted (every such promise rejects, with `IBV_WC_WR_FLUSH_ERR`), then frees the
   * QP, CQ, completion channel, buffers and rdma_cm id. Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    const was = this.#state;
    this.#state = 'closing';
    this.#rejectWaiters(new ConnectionClosedError('the connection was closed'));
    this.#wakeReceivers();
    const wait = (ms: number, cond: () => boolean, arm: (fn: (() => void) | null) => void): Promise<void> =>
      cond()
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const t = setTimeout(done, ms);
            function done(): void {
              clearTimeout(t);
              arm(null);
              resolve();
            }
            arm(done);
          });
    if (was === 'open' && !this.#disconnected) {
      if ((await rdma_disconnect(this.cm_id)) !== 0) log('rdma_disconnect: %s', softrdmaLastError().message);
      await wait(
        2000,
        () => this.#disconnected,
        (fn) => (this.#onDisconnected = fn),
      );
    }
    // What was posted completes (flushed) once the QP is in Error.
    this.#drain();
    await wait(
      2000,
      () => this.#sqLen === 0,
      (fn) => (this.#onIdle = fn),
    );
    const leftover = new ConnectionClosedError('the connection was closed before the operation completed');
    for (let i = 0; i < this.#ops.length; i++) {
      const op = this.#ops[i];
      if (op) {
        this.#ops[i] = undefined;
        this.#finish(op, leftover);
      }
    }
    this.#sqLen = 0;
    for (const s of this.#pending) {
      const op = this.#ops[s];
      if (op) this.#finish(op, leftover);
    }
    this.#pending = [];
    this.#recvOpen = false;
    this.#wakeReceivers();
    rdma_destroy_qp(this.cm_id);
    if (ibv_destroy_cq(this.cq) !== 0) log('ibv_destroy_cq: %s', softrdmaLastError().message);
    if (ibv_destroy_comp_channel(this.channel) !== 0) log('ibv_destroy_comp_channel: %s', softrdmaLastError().message);
    ibv_dereg_mr(this.#stage.mr);
    if (this.#recvMr) ibv_dereg_mr(this.#recvMr);
    const e = this.device.events.destroy(this.cm_id);
    if (e !== 0) log('rdma_destroy_id: %s', errnoName(e));
    this.device.owned.delete(this);
    this.#state = 'closed';
    this.#resolveClosed();
  }

  /** @internal Frees what the constructor made, before the connection was established. */
  destroyUnestablished(): void {
    this.#state = 'closed';
    rdma_destroy_qp(this.cm_id);
    ibv_destroy_cq(this.cq);
    ibv_destroy_comp_channel(this.channel);
    ibv_dereg_mr(this.#stage.mr);
    if (this.#recvMr) ibv_dereg_mr(this.#recvMr);
    this.#resolveClosed();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * `device.listen()`: a listening rdma_cm id as an async iterable of connection requests, each
 * accepted (`accept()` → a {@link Connection}) or rejected with private data (`reject()`).
 * Requests wait in a queue of `backlog` entries; one more is rejected at once (bounded, and the
 * client sees `ECONNREFUSED` rather than a hang).
 */
import {
  rdma_bind_addr,
  rdma_cm_event_type,
  rdma_create_id,
  rdma_event_str,
  rdma_get_peer_addr,
  rdma_get_src_port,
  rdma_listen,
  rdma_reject,
  rdmaUseDevice,
  RDMA_PS_TCP,
  rdmaListenReady,
  softrdmaLastError,
  type rdma_cm_event,
  type rdma_cm_id,
} from '../verbs/index.js';
import { logger } from '../util/log.js';
import { type CmEvent, IdEvents, privateDataOf } from './cm.js';
import { accept, type Connection, type ConnectionOptions } from './connection.js';
import type { RdmaDevice } from './device.js';
import { RdmaError } from './errors.js';

const log = logger('node');

export interface ListenOptions {
  /** Address to listen on (default 0.0.0.0: every address). */
  host?: string;
  /** Port (default 0: any free port; read it from `listener.port`). */
  port?: number;
  /** Requests waiting to be taken from the iterator; more are rejected. Default 16. */
  backlog?: number;
}

/** An incoming connection request. Take it with `accept()` or refuse it with `reject()`. */
export class ConnectionRequest {
  /** The private data the client sent with its request. */
  readonly privateData: Uint8Array;
  readonly remoteAddress: string;
  readonly remotePort: number;
  #done = false;
  /**
   * The events of the request's id from its arrival on: while the request waits in the
   * listener's queue, an event means it died there (the client gave up, the CM's accept timeout
   * refused it) and the listener drops it; once taken, they wait for `accept()`.
   */
  readonly #events: IdEvents;
  /** @internal */
  constructor(
    readonly listener: Listener,
    /** The request's rdma_cm id (escape hatch); the accepted connection's `cm_id`. */
    readonly cm_id: rdma_cm_id,
    privateData: Uint8Array,
  ) {
    this.privateData = privateData;
    const peer = rdma_get_peer_addr(cm_id);
    this.remoteAddress = peer.address;
    this.remotePort = peer.port;
    this.#events = new IdEvents(listener.device.events, cm_id);
  }

  /** True once accepted, rejected or dropped. */
  get settled(): boolean {
    return this.#done;
  }

  /** @internal While queued: `fn` hears the id's events (null: they wait for `accept()`). */
  watch(fn: ((ev: CmEvent) => void) | null): void {
    this.#events.onEvent = fn;
  }

  /** Accepts: creates the QP and buffers, answers with `privateData`, resolves once established. */
  accept(options: ConnectionOptions & { privateData?: Uint8Array } = {}): Promise<Connection> {
    if (this.#done) return Promise.reject(new RdmaError('the request was already accepted or rejected', 'EINVAL', 22));
    this.#done = true;
    this.listener.forget(this);
    return accept(this.listener.device, this.cm_id, this.#events, options, this.privateData);
  }

  /** Rejects, with `privateData` for the client (its `ConnectError.privateData`). */
  reject(privateData?: Uint8Array): void {
    if (this.#done) throw new RdmaError('the request was already accepted or rejected', 'EINVAL', 22);
    this.#done = true;
    this.listener.forget(this);
    rdma_reject(this.cm_id, privateData ?? null);
    this.listener.device.events.destroy(this.cm_id);
  }

  /**
   * @internal The request will not be taken: the listener closed or is full (refuse it), or it
   * died in the queue (`refuse: false`: the CM already ended it; only the id is freed).
   */
  drop(refuse = true): void {
    if (this.#done) return;
    this.#done = true;
    this.listener.forget(this);
    if (refuse) rdma_reject(this.cm_id, null);
    this.listener.device.events.destroy(this.cm_id);
  }
}

/** A listening id: `for await (const req of listener)`; `close()` stops it. */
export class Listener implements AsyncIterable<ConnectionRequest> {
  readonly #queue: ConnectionRequest[] = [];
  readonly #waiters: ((r: ConnectionRequest | null) => void)[] = [];
  readonly #backlog: number;
  #closed = false;
  /** @internal */
  constructor(
    readonly device: RdmaDevice,
    /** The listening rdma_cm id (escape hatch). */
    readonly cm_id: rdma_cm_id,
    backlog: number,
  ) {
    this.#backlog = backlog;
  }

  /** The port listened on. */
  get port(): number {
    return rdma_get_src_port(this.cm_id);
  }

  /** @internal A CONNECT_REQUEST for this listener. */
  onRequest(ev: rdma_cm_event): void {
    const data = privateDataOf(ev) ?? new Uint8Array(0);
    const req = new ConnectionRequest(this, ev.id, data);
    // rdma_cm may listen on every device that owns the address; this listener takes the
    // requests that arrived on its own device only.
    if (this.#closed || (ev.id.verbs && ev.id.verbs.device !== this.device.device)) {
      queueMicrotask(() => req.drop());
      return;
    }
    const w = this.#waiters.shift();
    if (w) w(req);
    else if (this.#queue.length < this.#backlog) {
      this.#queue.push(req);
      // Any event on a request not yet taken ends it (CONNECT_ERROR from the CM's accept
      // timeout, REJECTED/DISCONNECTED when the client gave up): it leaves the queue, so that
      // the iterator never yields a dead request and it holds no backlog slot.
      req.watch((e) => {
        log(
          'listener %d: queued request from %s:%d ended by %s before it was taken',
          this.port,
          req.remoteAddress,
          req.remotePort,
          rdma_event_str(e.type),
        );
        this.forget(req);
        // After the event is acknowledged: rdma_destroy_id refuses an id with events unacknowledged.
        queueMicrotask(() => req.drop(false));
      });
    } else queueMicrotask(() => req.drop());
  }

  /** @internal `req` is settled: it leaves the queue if it still waits there. */
  forget(req: ConnectionRequest): void {
    const i = this.#queue.indexOf(req);
    if (i >= 0) this.#queue.splice(i, 1);
  }

  /** Requests waiting in the queue, not yet taken from the iterator. */
  get pending(): number {
    return this.#queue.length;
  }

  /** The next request, or null once the listener is closed. */
  next(): Promise<ConnectionRequest | null> {
    const r = this.#queue.shift();
    if (r) {
      r.watch(null);
      return Promise.resolve(r);
    }
    if (this.#closed) return Promise.resolve(null);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<ConnectionRequest, void, undefined> {
    for (;;) {
      const r = await this.next();
      if (!r) return;
      yield r;
    }
  }

  /** Stops listening; requests not yet taken are rejected. Connections already accepted stay open. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const w of this.#waiters.splice(0)) w(null);
    for (const r of [...this.#queue]) r.drop();
    this.#queue.length = 0;
    this.device.events.destroy(this.cm_id);
    this.device.owned.delete(this);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** `device.listen()`: `rdma_bind_addr` + `rdma_listen`, resolved once the port is bound. */
export async function listen(device: RdmaDevice, opts: ListenOptions): Promise<Listener> {
  const port = opts.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`listen: port must be 0..65535; got ${String(port)}`);
  const backlog = opts.backlog ?? 16;
  if (!Number.isInteger(backlog) || backlog < 1) throw new RangeError(`listen: backlog must be a positive integer; got ${String(backlog)}`);
  const made = rdma_create_id(device.events.channel, null, RDMA_PS_TCP);
  if (!made.id) throw RdmaError.fromErrno('rdma_create_id', softrdmaLastError().errno, softrdmaLastError().message);
  const id = made.id;
  const host = opts.host ?? '0.0.0.0';
  // The handler is in place before the id listens: no request can arrive unseen.
  const l = new Listener(device, id, backlog);
  device.events.on(id, (ev) => {
    if (ev.event === rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_REQUEST) l.onRequest(ev);
  });
  try {
    // Listen on this device only (rdma_cm would listen on every device that owns the address).
    if (rdmaUseDevice(id, device.context) !== 0)
      throw RdmaError.fromErrno('listen: rdmaUseDevice', softrdmaLastError().errno, softrdmaLastError().message);
    if (rdma_bind_addr(id, { family: host.includes(':') ? 'ipv6' : 'ipv4', address: host, port }) !== 0)
      throw RdmaError.fromErrno('listen: rdma_bind_addr', softrdmaLastError().errno, softrdmaLastError().message);
    if (rdma_listen(id, backlog) !== 0) {
      // The verbs message already names the call ("rdma_listen: …"): said once.
      const { errno, message } = softrdmaLastError();
      throw RdmaError.fromErrno('listen: rdma_listen', errno, message.replace(/^rdma_listen: /, ''));
    }
    await rdmaListenReady(id).catch((e: Error & { errno?: number }) => {
      throw RdmaError.fromErrno('listen', e.errno ?? 22, e.message);
    });
  } catch (e) {
    device.events.destroy(id);
    throw e;
  }
  device.owned.add(l);
  return l;
}

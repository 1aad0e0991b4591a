/**
 * `openDevice()`: one RDMA device, chosen by transport, with its protection domain, the
 * rdma_cm event channel its connections and listeners share, and the memory registered on it.
 * Built on the public verbs/rdma_cm calls only (`src/verbs/`).
 */
import './dispose.js';
import {
  IBV_ATOMIC_NONE,
  ibv_alloc_pd,
  ibv_close_device,
  ibv_dealloc_pd,
  ibv_get_device_list,
  ibv_open_device,
  ibv_query_device,
  ibv_transport_type,
  rdma_ack_cm_event,
  rdma_cm_event_type,
  rdma_create_event_channel,
  rdma_destroy_event_channel,
  rdma_destroy_id,
  rdma_get_cm_event,
  rdma_get_devices,
  rdma_migrate_id,
  rdma_reject,
  softrdmaHwCounters,
  softrdmaLastError,
  type ibv_context,
  type ibv_device,
  type ibv_device_attr,
  type ibv_pd,
  type rdma_cm_event,
  type rdma_cm_id,
  type rdma_event_channel,
} from '../verbs/index.js';
import { logger } from '../util/log.js';
import { connect, type ConnectOptions, type Connection } from './connection.js';
import { DeviceNotFoundError, RdmaError } from './errors.js';
import { listen, type Listener, type ListenOptions } from './listener.js';
import { type Access, MemoryRegion } from './memory.js';

const log = logger('node');

/** The transports a device can speak. */
export type Transport = 'iwarp' | 'rocev2';

export interface OpenDeviceOptions {
  /** `'iwarp'` (default; softrdma0) or `'rocev2'` (softroce0). */
  transport?: Transport;
  /** A device by name (`'softrdma0'`); its transport must match `transport` when both are given. */
  name?: string;
}

/** What the device can do, from `ibv_query_device`. */
export interface DeviceCapabilities {
  /** RDMA atomics (`atomic_cap` other than `IBV_ATOMIC_NONE`). */
  atomics: boolean;
  /** Work requests per queue (`max_qp_wr`). */
  maxQpWr: number;
  /** Entries per completion queue (`max_cqe`). */
  maxCqe: number;
  /**
   * IPv6 multicast groups (RoCEv2, joined with MLD): true on the RoCE device. iWARP has no
   * multicast at all (no UD QPs).
   */
  ipv6Multicast: boolean;
}

function transportOf(d: ibv_device): Transport | null {
  if (d.transport_type === ibv_transport_type.IBV_TRANSPORT_IWARP) return 'iwarp';
  // A RoCE device is an InfiniBand-transport device on an Ethernet link (IBTA Annex A17).
  if (d.transport_type === ibv_transport_type.IBV_TRANSPORT_IB || d.name.startsWith('softroce')) return 'rocev2';
  return null;
}

/**
 * The rdma_cm event channel of a device, read in one loop that hands each event to the object
 * owning its id (a connection, a listener) and acknowledges it at once, so that ids can always be
 * destroyed (`rdma_destroy_id` refuses while events are unacknowledged).
 * @internal
 */
export class CmEvents {
  readonly channel: rdma_event_channel;
  readonly #handlers = new Map<rdma_cm_id, (ev: rdma_cm_event) => void>();
  #closed = false;
  constructor() {
    const ch = rdma_create_event_channel();
    if (!ch) throw RdmaError.fromErrno('rdma_create_event_channel', softrdmaLastError().errno, softrdmaLastError().message);
    this.channel = ch;
    void this.#loop();
  }
  on(id: rdma_cm_id, fn: (ev: rdma_cm_event) => void): void {
    this.#handlers.set(id, fn);
  }
  /** Forgets `id`, drops its queued events and destroys it (0, or the rdma_cm errno). */
  destroy(id: rdma_cm_id): number {
    this.#handlers.delete(id);
    // Moving the id off the channel takes its events not yet retrieved with it (rdma_migrate_id).
    rdma_migrate_id(id, null);
    return rdma_destroy_id(id) === 0 ? 0 : softrdmaLastError().errno;
  }
  async #loop(): Promise<void> {
    for (;;) {
      const { ret, event } = await rdma_get_cm_event(this.channel);
      if (ret !== 0 || !event) return; // the channel was destroyed
      const owner = event.event === rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_REQUEST ? event.listen_id : event.id;
      const h = owner ? this.#handlers.get(owner) : undefined;
      try {
        if (h) h(event);
        else if (event.event === rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_REQUEST) {
          // A request that reached a listener already closed: refuse it and free its id.
          rdma_reject(event.id, null);
          queueMicrotask(() => this.destroy(event.id));
        }
      } catch (e) {
        log('cm event handler threw: %s', (e as Error).message);
      } finally {
        rdma_ack_cm_event(event);
      }
    }
  }
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    rdma_destroy_event_channel(this.channel);
  }
}

/**
 * An open RDMA device. Memory registered here can be used on every connection of the device
 * (one protection domain). `close()` (or `await using`) closes its listeners and connections and
 * deregisters its memory.
 */
export class RdmaDevice {
  /** The verbs device (escape hatch). */
  readonly device: ibv_device;
  /** The verbs context (escape hatch). */
  readonly context: ibv_context;
  /** The protection domain of every QP and MR made through this object (escape hatch). */
  readonly pd: ibv_pd;
  readonly transport: Transport;
  readonly capabilities: Readonly<DeviceCapabilities>;
  /** @internal */
  readonly events: CmEvents;
  /** @internal Objects to close with the device. */
  readonly owned = new Set<{ close(): unknown }>();
  readonly #ownContext: boolean;
  #closed = false;

  /** @internal Use {@link openDevice}. */
  constructor(device: ibv_device, context: ibv_context, ownContext: boolean, transport: Transport) {
    this.device = device;
    this.context = context;
    this.#ownContext = ownContext;
    this.transport = transport;
    const attr = {} as ibv_device_attr;
    const q = ibv_query_device(context, attr);
    if (q !== 0) throw RdmaError.fromErrno('ibv_query_device', q, softrdmaLastError().message);
    this.capabilities = Object.freeze({
      atomics: attr.atomic_cap !== IBV_ATOMIC_NONE,
      maxQpWr: attr.max_qp_wr,
      maxCqe: attr.max_cqe,
      ipv6Multicast: this.transport === 'rocev2',
    });
    const pd = ibv_alloc_pd(context);
    if (!pd) throw RdmaError.fromErrno('ibv_alloc_pd', softrdmaLastError().errno, softrdmaLastError().message);
    this.pd = pd;
    this.events = new CmEvents();
  }

  get name(): string {
    return this.device.name;
  }
  get closed(): boolean {
    return this.#closed;
  }

  /** @internal Throws if closed. */
  assertOpen(): void {
    if (this.#closed) throw new RdmaError(`device ${this.name} is closed`, 'EBADF', 9);
  }

  /**
   * Registers `buffer` for RDMA with the named rights (local write unless `localWrite: false`).
   * The region's `toJSON()` is what the peer needs: `{ addr: '0x…', rkey, length }`.
   */
  register(buffer: Uint8Array, access: Access = {}): MemoryRegion {
    this.assertOpen();
    const r = MemoryRegion.register(this.pd, buffer, access);
    this.owned.add(r);
    r.onClose = () => this.owned.delete(r);
    return r;
  }

  /**
   * The device's counters by Linux rxe's names (`rdma statistic show link`: `sent_pkts`,
   * `rcvd_pkts`, `out_of_seq_request`, `completer_retry_err`, …; `softrdma stat --help` gives each
   * meaning). RoCEv2 only: an iWARP device has none (an empty object).
   */
  counters(): Readonly<Record<string, number>> {
    this.assertOpen();
    return Object.freeze(softrdmaHwCounters(this.context) ?? {});
  }

  /** Listens for connections (`rdma_listen`); the listener is an async iterable of requests. */
  listen(options: ListenOptions = {}): Promise<Listener> {
    this.assertOpen();
    return listen(this, options);
  }

  /** Connects to a listener (`rdma_connect`), with an optional AbortSignal and timeout. */
  connect(options: ConnectOptions): Promise<Connection> {
    this.assertOpen();
    return connect(this, options);
  }

  /** Closes every listener and connection of the device, deregisters its memory, frees the PD. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Connections and listeners first (they hold QPs and ids), then the memory.
    const all = [...this.owned];
    await Promise.allSettled(all.filter((o) => !(o instanceof MemoryRegion)).map((o) => o.close()));
    for (const o of all) if (o instanceof MemoryRegion) o.close();
    this.owned.clear();
    this.events.close();
    const r = ibv_dealloc_pd(this.pd);
    if (r !== 0) log('ibv_dealloc_pd: %s', softrdmaLastError().message);
    if (this.#ownContext) ibv_close_device(this.context);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Opens the device of a transport: `openDevice()` is softrdma's iWARP device;
 * `openDevice({ transport: 'rocev2' })` is the RoCEv2 device, and throws
 * {@link DeviceNotFoundError} (`code: 'ENODEV'`) while the device list has none.
 */
export function openDevice(options: OpenDeviceOptions = {}): RdmaDevice {
  const want = options.transport;
  if (want !== undefined && want !== 'iwarp' && want !== 'rocev2')
    throw new TypeError(`transport must be 'iwarp' or 'rocev2'; got ${String(want)}`);
  const list = ibv_get_device_list() ?? [];
  const describe = () => list.map((d) => `${d.name} (${transportOf(d) ?? 'unknown'})`).join(', ') || 'none';
  let dev: ibv_device | undefined;
  if (options.name !== undefined) {
    dev = list.find((d) => d.name === options.name);
    if (!dev) throw new DeviceNotFoundError(`no RDMA device named ${options.name}; the device list has ${describe()}`);
    if (want && transportOf(dev) !== want)
      throw new DeviceNotFoundError(`device ${options.name} is ${transportOf(dev) ?? 'unknown'}, not ${want}`);
  } else {
    const t = want ?? 'iwarp';
    dev = list.find((d) => transportOf(d) === t);
    if (!dev) throw new DeviceNotFoundError(`no ${t === 'rocev2' ? 'RoCEv2' : 'iWARP'} device; the device list has ${describe()}`);
  }
  // rdma_cm binds its ids to its own context of the device: use it, so that QPs, CQs and MRs
  // made here live on the context of the ids that connect them.
  const shared = (rdma_get_devices() ?? []).find((c) => c.device === dev);
  const ctx = shared ?? ibv_open_device(dev);
  if (!ctx) throw RdmaError.fromErrno(`ibv_open_device(${dev.name})`, softrdmaLastError().errno, softrdmaLastError().message);
  return new RdmaDevice(dev, ctx, !shared, transportOf(dev)!);
}

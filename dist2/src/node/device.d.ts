/**
 * `openDevice()`: one RDMA device, chosen by transport, with its protection domain, the
 * rdma_cm event channel its connections and listeners share, and the memory registered on it.
 * Built on the public verbs/rdma_cm calls only (`src/verbs/`).
 */
import './dispose.js';
import { type ibv_context, type ibv_device, type ibv_pd, type rdma_cm_event, type rdma_cm_id, type rdma_event_channel } from '../verbs/index.js';
import { type ConnectOptions, type Connection } from './connection.js';
import { type Listener, type ListenOptions } from './listener.js';
import { type Access, MemoryRegion } from './memory.js';
/** The transports a device can speak. */
export type Transport = 'iwarp' | 'rocev2';
export interface OpenDeviceOptions {
    /** `'iwarp'` (default; softrdma0) or `'rocev2'` (softroce0, once the build has it). */
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
}
/**
 * The rdma_cm event channel of a device, read in one loop that hands each event to the object
 * owning its id (a connection, a listener) and acknowledges it at once, so that ids can always be
 * destroyed (`rdma_destroy_id` refuses while events are unacknowledged).
 * @internal
 */
export declare class CmEvents {
    #private;
    readonly channel: rdma_event_channel;
    constructor();
    on(id: rdma_cm_id, fn: (ev: rdma_cm_event) => void): void;
    /** Forgets `id`, drops its queued events and destroys it (0, or the rdma_cm errno). */
    destroy(id: rdma_cm_id): number;
    close(): void;
}
/**
 * An open RDMA device. Memory registered here can be used on every connection of the device
 * (one protection domain). `close()` (or `await using`) closes its listeners and connections and
 * deregisters its memory.
 */
export declare class RdmaDevice {
    #private;
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
    readonly owned: Set<{
        close(): unknown;
    }>;
    /** @internal Use {@link openDevice}. */
    constructor(device: ibv_device, context: ibv_context, ownContext: boolean, transport: Transport);
    get name(): string;
    get closed(): boolean;
    /** @internal Throws if closed. */
    assertOpen(): void;
    /**
     * Registers `buffer` for RDMA with the named rights (local write unless `localWrite: false`).
     * The region's `toJSON()` is what the peer needs: `{ addr: '0x…', rkey, length }`.
     */
    register(buffer: Uint8Array, access?: Access): MemoryRegion;
    /** Listens for connections (`rdma_listen`); the listener is an async iterable of requests. */
    listen(options?: ListenOptions): Promise<Listener>;
    /** Connects to a listener (`rdma_connect`), with an optional AbortSignal and timeout. */
    connect(options: ConnectOptions): Promise<Connection>;
    /** Closes every listener and connection of the device, deregisters its memory, frees the PD. */
    close(): Promise<void>;
    [Symbol.asyncDispose](): Promise<void>;
}
/**
 * Opens the device of a transport: `openDevice()` is softrdma's iWARP device;
 * `openDevice({ transport: 'rocev2' })` is the RoCEv2 device, and throws
 * {@link DeviceNotFoundError} (`code: 'ENODEV'`) while the device list has none.
 */
export declare function openDevice(options?: OpenDeviceOptions): RdmaDevice;

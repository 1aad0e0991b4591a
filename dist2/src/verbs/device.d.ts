import type { SoftrdmaVp } from '../provider/softrdma.js';
import type { ri_ops_t } from '../rnicpi/ops.js';
import { RiRet } from '../rnicpi/status.js';
import { RiAsyncEventType, type ri_ib_port_attr_t, type ri_event_record_t, type ri_rnic_attr_t, type ri_rnic_handle_t } from '../rnicpi/types.js';
import { ibv_event_type, ibv_node_type, ibv_transport_type } from './constants.js';
import { type ibv_async_event, type ibv_context, type ibv_device, type ibv_device_attr, type ibv_gid, type ibv_port_attr, VERBS_HANDLE } from './types.js';
/** Vendor id reported by `ibv_query_device` (none is registered for a software RNIC). */
export declare const SOFTRDMA_VENDOR_ID = 5459782;
export declare const SOFTRDMA_VENDOR_PART_ID = 1;
/** Objects that can be the subject of an affiliated asynchronous event. */
export interface AsyncTarget {
    readonly context: Context;
    /** Builds the `element` of the event for this object. */
    asyncElement(): ibv_async_event['element'];
    /** Counts an acknowledged event (`ibv_ack_async_event`). */
    ackAsync(): void;
    /**
     * Counts an event handed to the consumer by `ibv_get_async_event`: only those must be acked
     * before the object can be destroyed (C's `events_reported`; queued, unread events are dropped
     * with the object).
     */
    reportAsync(): void;
    /** True once destroyed: no event is delivered for it any more. */
    readonly dead: boolean;
}
/** Objects that receive completion events (an `ibv_cq`). */
export interface CompletionTarget {
    onCompletionEvent(): void;
}
/** One softrdma RNIC as an `ibv_device`. */
export declare class Device implements ibv_device {
    readonly vp: SoftrdmaVp;
    /** The consumer vector (AL-serialized kernel ops). */
    readonly ops: ri_ops_t;
    readonly [VERBS_HANDLE]: "ibv_device";
    /** An iWARP RNIC, or (RoCEv2) an InfiniBand channel adapter, as Linux rxe shows. */
    readonly node_type: ibv_node_type;
    readonly transport_type: ibv_transport_type;
    readonly name: string;
    readonly dev_name: string;
    readonly dev_path: string;
    readonly ibdev_path: string;
    /** Node GUID: the EUI-64 of the device's MAC, as siw derives it. */
    readonly guid: bigint;
    readonly mac: Uint8Array;
    /** The completion event handler id every CQ of this device is created with. */
    cqHandlerId: number;
    constructor(vp: SoftrdmaVp, 
    /** The consumer vector (AL-serialized kernel ops). */
    ops: ri_ops_t, index: number);
}
/** An opened device (`ibv_context`). */
export declare class Context implements ibv_context {
    readonly device: Device;
    readonly rnic: ri_rnic_handle_t;
    readonly [VERBS_HANDLE]: "ibv_context";
    readonly async_fd: number;
    readonly num_comp_vectors = 1;
    async_nonblocking: boolean;
    closed: boolean;
    /** Objects created through this context and not yet destroyed. */
    readonly objects: Set<{
        readonly dead: boolean;
    }>;
    private readonly events;
    private readonly waiters;
    constructor(device: Device, rnic: ri_rnic_handle_t);
    get ops(): ri_ops_t;
    /** Queues an asynchronous event, or hands it to the oldest waiter. */
    postAsync(type: ibv_event_type, element: ibv_async_event['element']): void;
    /** Drops the queued (not yet read) events of an object being destroyed. */
    dropAsync(target: object): void;
    /** `ibv_get_async_event`: resolves with 0 once an event is copied into `ev`. */
    getAsync(ev: ibv_async_event): Promise<number>;
    close(): void;
}
/** Sets errno and returns it (the ibverbs int convention). */
export declare function fail(errno: number, detail?: string): number;
/** Maps an RNICPI return code to the errno a C provider would give. */
export declare function errnoOf(st: RiRet): number;
/** Maps an RNICPI asynchronous event to the ibverbs event type (null: not reported). */
export declare function ibvEventOf(t: RiAsyncEventType): ibv_event_type | null;
export declare function onRawAsyncEvent(fn: (dev: Device, ev: ri_event_record_t) => void): () => void;
/** The devices (booting the provider on first use). */
export declare function devices(): readonly Device[];
/** `ibv_open_device`. */
export declare function openDevice(dev: Device): Context | null;
/** `ibv_close_device`: refuses (EBUSY) while objects remain, as the RNIC handle does. */
export declare function closeDevice(ctx: Context): number;
/** The RNIC attributes (`ri_rnic_query`). */
export declare function rnicAttrs(ctx: Context): ri_rnic_attr_t | null;
/** `ibv_query_device`, from `ri_rnic_query`: what the RNIC really has, nothing more. */
export declare function queryDevice(ctx: Context, a: ibv_device_attr): number;
/** The IB port attributes of a RoCEv2 device (`ri_rnic_query` with port info), or null on iWARP. */
export declare function ibPort(ctx: Context): ri_ib_port_attr_t | null;
/**
 * `ibv_query_port`: one Ethernet port, active. iWARP: MTU as Linux siw derives it from 1500.
 * RoCEv2: the port RNICPI reports (active MTU, GID table length, message size), as rxe.
 */
export declare function queryPort(ctx: Context, port: number, a: ibv_port_attr): number;
/**
 * `ibv_query_gid`. iWARP: index 0 is the MAC in the first 6 bytes (as siw reports it). RoCEv2:
 * the port's GID table (the IPv4-mapped GIDs of the host's addresses).
 */
export declare function queryGid(ctx: Context, port: number, index: number, gid: ibv_gid): number;
/** The GID types of a RoCEv2 port (`IBV_GID_TYPE_ROCE_V2` for each entry); empty on iWARP. */
export declare function gidTypes(ctx: Context): readonly number[];
/** `ibv_query_pkey`: iWARP has no partitions; index 0 reads as the default key. */
export declare function queryPkey(ctx: Context, port: number, index: number): {
    ret: number;
    pkey: number;
};

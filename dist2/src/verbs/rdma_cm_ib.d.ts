/**
 * rdma_cm over the InfiniBand CM, for the RoCE device: the device-level half. `rdma_cm.ts` keeps
 * the ids and their events; this module holds, per RoCE device, the IB CM on QP1
 * ({@link RoceCm}: `src/ibcm` over a {@link RiGsiPort}), the rdma_cm services listened on, and
 * the pure translations between rdma_cm and the CM (IBTA Vol. 1 Annex A11 "RDMA IP CM Service",
 * as Linux `drivers/infiniband/core/cma.c` applies it to RoCE):
 *
 * - the **service ID** `ps << 16 | port` and the **`cma_hdr`** (36 octets: version 0, IP version
 *   4, source port, source and destination address) at the head of REQ and SIDR_REQ private
 *   data; the user's private data follows (at most 92 − 36 = 56 octets in a REQ, 216 − 36 = 180
 *   in a SIDR_REQ); REP, REJ, RTU and SIDR_REP carry the user's data alone;
 * - the **path**: IPv4-mapped GIDs (Annex A17.4.5.1) of the source and destination addresses,
 *   hop limit 64, path MTU 1024 (the port's active MTU), packet life time 18, as
 *   `cma_resolve_iboe_route`;
 * - the **QP attributes** a connection gives its QP (Linux `cm_init_qp_*_attr`): RTR with the
 *   peer's QPN, starting PSN and the path, RTS with the Local ACK Timeout and the retry counts.
 *
 * @module
 */
import type { IbCm } from '../ibcm/cm.js';
import { cmaAddresses, RdmaIpCm, type RdmaIpListenHandler, ephemeralPort, randomPsn } from '../ibcm/rdma-ip.js';
import { type Context, type Device } from './device.js';
import { type Qp } from './ibverbs.js';
import type { ibv_ah_attr } from './types.js';
/** Hop limit of rdma_cm's RoCE paths (Linux `cma_resolve_iboe_route`: 64 when routed). */
export declare const IBOE_HOP_LIMIT = 64;
/** Packet life time of rdma_cm's RoCE paths (`CMA_IBOE_PACKET_LIFETIME`). */
export declare const IBOE_PACKET_LIFETIME = 18;
/** Path MTU of the RoCE device's paths: its active MTU, 1024 (`enum ibv_mtu` 3), as rxe on 1500-octet Ethernet. */
export declare const IBOE_PATH_MTU = 3;
/** The RNR timer a connected QP advertises: 12 (0.64 ms), as ibv_rc_pingpong; Linux rdma_cm leaves 0 (655 ms). */
export declare const CM_MIN_RNR_TIMER = 12;
/** The MRA service timeout rdma_cm sends while its consumer decides (`CMA_CM_MRA_SETTING`: 24, about 67 s). */
export declare const CMA_MRA_TIMEOUT = 24;
/** User private data in a REQ and a SIDR_REQ after the `cma_hdr` (`rdma_cm` limits). */
export declare const REQ_USER_PD: number;
export declare const SIDR_REQ_USER_PD: number;
/** True when `ctx` is the RoCE (InfiniBand transport) device. */
export declare function isIbContext(ctx: Context | null): boolean;
/** True when `dev` is the RoCE device. */
export declare function isIbDevice(dev: Device): boolean;
/** The RoCE device's GID table (`ibv_query_gid` of each index until it fails). */
export declare function gidTable(ctx: Context): Uint8Array[];
/** The IPv4 addresses of the RoCE device (those of its IPv4-mapped GIDs). */
export declare function ibAddresses(ctx: Context): string[];
/** The GID table index of `gid`, or -1. */
export declare function gidIndex(ctx: Context, gid: Uint8Array): number;
/**
 * The source address of a RoCE path to `dst` (rdma_resolve_addr with no source): see
 * {@link roceSourceFor}. null when the device has no IPv4 address.
 */
export declare function ibSourceFor(ctx: Context, dst: string): Promise<string | null>;
export { ephemeralPort, randomPsn };
/**
 * REQ / SIDR_REQ private data: the `cma_hdr` then the user's data, or EINVAL when the user's
 * data does not fit (`limit` octets).
 */
export declare function cmaPrivateData(src: {
    address: string;
    port: number;
}, dst: string, user: Uint8Array | null, limit: number): Uint8Array | number;
export { cmaAddresses };
/** The address handle attributes of a RoCE path (a GRH always: Annex A17). */
export declare function ibAhAttr(dgid: Uint8Array, sgidIndex: number, hopLimit?: number): ibv_ah_attr;
/** The access flags rdma_cm gives a RoCE RC QP at INIT: local write, remote read, write and atomics. */
export declare const IB_CM_ACCESS: number;
/** What a connection gives its QP on the way to RTS (Linux `cm_init_qp_rtr_attr` / `cm_init_qp_rts_attr`). */
export interface IbQpPath {
    dgid: Uint8Array;
    sgidIndex: number;
    pathMtu: number;
    destQpn: number;
    rqPsn: number;
    sqPsn: number;
    /** max_dest_rd_atomic (our responder resources). */
    responderResources: number;
    /** max_rd_atomic (our initiator depth). */
    initiatorDepth: number;
    timeout: number;
    retryCnt: number;
    rnrRetry: number;
}
/** Moves an RC QP INIT→RTR→RTS with `p` (0, or the errno of the modify that failed). */
export declare function ibQpToRts(qp: Qp, p: IbQpPath): number;
/** A UD QP of rdma_cm straight to RTS (Linux `cma_init_ud_qp`): INIT with `qkey`, RTR, RTS. */
export declare function ibUdQpToRts(qp: Qp, qkey: number): number;
/** A REQ or SIDR_REQ for one rdma_cm listener, with its `cma_hdr` addresses. */
export type IbListenHandler = RdmaIpListenHandler;
/**
 * rdma_cm's view of the IB CM of one RoCE device: the process's {@link RdmaIpCm} of the port
 * (`src/ibcm/rdma-ip.ts`: QP1, the {@link IbCm} over it, the services by service ID dispatched
 * on the `cma_hdr`'s destination, as Linux `cma_ib_id_from_event`), opened on this context's
 * RNIC when rdma_cm is the first face to need it, and the context the ids it serves are on.
 */
export declare class RoceCm {
    readonly ctx: Context;
    readonly shared: RdmaIpCm;
    private constructor();
    /** The CM of `ctx`'s device (QP1 opened on first use), or the errno of a failure to open QP1. */
    static of(ctx: Context): RoceCm | number;
    get cm(): IbCm;
    /** An id starts using the CM. */
    hold(): void;
    /** An id stops using it; the last user lets it close once idle. */
    release(): void;
    /**
     * Listens on `sid` for the rdma_cm listener bound to `address` ('0.0.0.0' for all). EADDRINUSE
     * when that address (or the wildcard, or any address against a wildcard) is taken on it.
     */
    listen(sid: bigint, address: string, handler: IbListenHandler): number;
    /** Stops the listener of `address` on `sid`. */
    unlisten(sid: bigint, address: string): void;
}
/** `::ffff:a.b.c.d` text of an IPv4 address's GID (for logs). */
export declare function gidText(address: string): string;

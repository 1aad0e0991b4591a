import type { IbCmConnection, IbCmSidrPending, IbCmSidrRequest } from '../ibcm/cm.js';
import net from 'node:net';
import { type CmConnection, type CmConnectRequest, CmListener } from '../iwarp/cm.js';
import { type CmReq } from '../wire/ib/cm.js';
import { ibv_qp_type, rdma_cm_event_type, rdma_port_space } from './constants.js';
import { Context } from './device.js';
import { RoceCm } from './rdma_cm_ib.js';
import { type Qp } from './ibverbs.js';
import { type ibv_ah, type ibv_comp_channel, type ibv_context, type ibv_cq, type ibv_mr, type ibv_pd, type ibv_qp_init_attr, type ibv_sge, type ibv_srq, type ibv_srq_init_attr, type ibv_wc, type In, type rdma_addrinfo, type rdma_cm_event, type rdma_cm_id, type rdma_conn_param, type rdma_event_channel, type rdma_route, type sockaddr, VERBS_HANDLE } from './types.js';
export declare class EventChannel implements rdma_event_channel {
    readonly [VERBS_HANDLE]: "rdma_event_channel";
    readonly fd: number;
    nonblocking: boolean;
    dead: boolean;
    readonly ids: Set<CmId>;
    private readonly queue;
    private readonly waiters;
    push(ev: rdma_cm_event): void;
    get(): Promise<{
        ret: number;
        event: rdma_cm_event | null;
    }>;
    close(): void;
    /** Removes and returns the queued (not yet retrieved) events of `id`. */
    take(id: CmId): rdma_cm_event[];
    /** Queued (not yet retrieved) events of `id`. */
    queuedFor(id: CmId): number;
}
type IdState = 'idle' | 'bound' | 'addr' | 'route' | 'listen' | 'connecting' | 'request' | 'connected' | 'disconnected';
/** The environment variable that names the device of active ids whose program names none. */
export declare const RDMA_CM_DEVICE_ENV = "SOFTRDMA_DEVICE";
/**
 * softrdma extension: the device an id will use, named by the program before it binds or
 * resolves (what perftest's `-d` and a Node API device do; librdmacm has no such call because a
 * Linux address belongs to one device's netdev, while here both devices own every address).
 * A listener named to a device listens on it alone. 0, or -1 with errno EINVAL (a destroyed id,
 * one already bound or resolved, or not a context of this process).
 */
export declare function rdmaUseDevice(id: rdma_cm_id, ctx: ibv_context): number;
/** What a RoCE id holds of the IB CM (Linux: `id_priv->cm_id.ib`). */
export interface IbIdState {
    roce: RoceCm;
    /** RC (PS_TCP, PS_IB): the CM connection. */
    conn?: IbCmConnection;
    /** The REQ sent (active) or received (passive). */
    req?: CmReq;
    /** UD (PS_UDP) active: the SIDR request in progress. */
    sidrOut?: IbCmSidrPending;
    /** UD passive: the SIDR request to answer. */
    sidrIn?: IbCmSidrRequest;
    /** Our starting PSN. */
    psn: number;
    /** Responder resources and initiator depth we asked for (active) or accepted with (passive). */
    rr: number;
    id: number;
    /** Resolves a synchronous `rdma_connect` with its outcome. */
    settle?: (ret: number) => void;
}
export declare class CmId implements rdma_cm_id {
    channel: EventChannel | null;
    context: unknown;
    readonly ps: rdma_port_space;
    readonly [VERBS_HANDLE]: "rdma_cm_id";
    verbs: Context | null;
    qp: Qp | null;
    readonly port_num = 1;
    event: rdma_cm_event | null;
    send_cq_channel: ibv_comp_channel | null;
    send_cq: ibv_cq | null;
    recv_cq_channel: ibv_comp_channel | null;
    recv_cq: ibv_cq | null;
    srq: ibv_srq | null;
    pd: ibv_pd | null;
    readonly qp_type: ibv_qp_type;
    readonly route: rdma_route;
    state: IdState;
    dead: boolean;
    /** Events delivered and not yet acked. */
    unacked: number;
    listener: CmListener | null;
    listenReady: Promise<void> | null;
    req: CmConnectRequest | null;
    conn: CmConnection | null;
    /** CQs (and their channels) rdma_cm created for this id's QP (destroyed with the QP). */
    ownSendCq: boolean;
    ownRecvCq: boolean;
    /** `rdma_create_ep` on a passive address: the QP every `rdma_get_request` id gets. */
    epQp: {
        pd: ibv_pd | null;
        attr: In<ibv_qp_init_attr>;
    } | null;
    /** Staging buffer of inline sends/writes given without an MR (see `sgeOf`). */
    inlineScratch: Uint8Array | null;
    /** Cancels an `rdma_connect` in progress (`rdma_destroy_id` during the connect, as librdmacm). */
    connectAbort: AbortController | null;
    /** The port `rdma_bind_addr` picked for port 0, held by a placeholder socket until used. */
    portHold: net.Server | null;
    releasePort(): void;
    /** Synchronous ids: waiters for the next event, and requests not yet collected. */
    private readonly syncWaiters;
    readonly pendingRequests: CmId[];
    private disconnectedPosted;
    /** The device the program named (`rdmaUseDevice`). */
    pinned: Context | null;
    /** RoCE: this id's IB CM state (see {@link IbIdState}). */
    ib: IbIdState | null;
    /** RoCE listeners: the service the id listens on through the device's IB CM. */
    ibListen: {
        roce: RoceCm;
        sid: bigint;
        address: string;
    } | null;
    /** `RDMA_OPTION_ID_ACK_TIMEOUT`: the QP's Local ACK Timeout (RoCE), instead of the path's. */
    ackTimeout: number | null;
    /** RoCE: the multicast groups joined (IPv4 address → MGID, and whether the QP is attached). */
    readonly mcast: Map<string, {
        mgid: Uint8Array;
        attached: boolean;
    }>;
    constructor(channel: EventChannel | null, context: unknown, ps: rdma_port_space);
    /** True once DISCONNECTED was delivered. */
    get disconnected(): boolean;
    /** Delivers an event for this id (to its channel, or to a synchronous caller). */
    post(type: rdma_cm_event_type, status?: number, param?: {
        conn: rdma_conn_param;
        ud: import("./types.js").rdma_ud_param;
    }, listenId?: CmId | null, target?: CmId): void;
    /** Waits for the next event on a synchronous id. */
    nextSync(): Promise<rdma_cm_event>;
    /** The connection closed: DISCONNECTED once, and the QP to Error (WRs flushed). */
    onClosed(): void;
    attach(conn: CmConnection): void;
}
export declare function rdma_create_event_channel(): rdma_event_channel | null;
export declare function rdma_destroy_event_channel(channel: rdma_event_channel): void;
export declare function rdma_create_id(channel: rdma_event_channel | null, context: unknown, ps: rdma_port_space): {
    ret: number;
    id: rdma_cm_id | null;
};
export declare function rdma_destroy_id(id: rdma_cm_id): number;
/**
 * `rdma_migrate_id`: events of the id not yet retrieved move with it to the new channel; events
 * retrieved from the old channel must be acked first (C blocks until then; here EBUSY).
 */
export declare function rdma_migrate_id(id: rdma_cm_id, channel: rdma_event_channel | null): number;
export declare function rdma_set_option(id: rdma_cm_id, level: number, optname: number, optval: number | Uint8Array): number;
export declare function rdma_bind_addr(id: rdma_cm_id, addr: sockaddr): number;
/**
 * `rdma_listen`: on every device that owns the bound address and serves the id's port space
 * (only the named one after `rdmaUseDevice`), as Linux `cma_listen_on_all`: a TCP listener for
 * softrdma0 (MPA requests), the service ID `ps << 16 | port` on softroce0's IB CM (REQ and
 * SIDR_REQ on QP1). EADDRINUSE only when no device could listen.
 */
export declare function rdma_listen(id: rdma_cm_id, backlog: number): number;
/**
 * Resolves once a listening id's socket is bound (its port is then known); rejects with an
 * Error (`.errno`, `.code` = `'EADDRINUSE'`, …) when the listen failed after `rdma_listen`
 * returned — a port taken in between, which the synchronous check could not see.
 */
export declare function rdmaListenReady(id: rdma_cm_id): Promise<void>;
/**
 * `rdma_resolve_addr`: binds the id to its device (see the module documentation). On the RoCE
 * device the source address is the route's (or one the device owns, `ibSourceFor`), and the
 * path's GIDs are the IPv4-mapped ones of both addresses (Annex A17.4.5.1), as
 * `cma_resolve_iboe_route` sets them; an IPv6 destination is ADDR_ERROR (-EAFNOSUPPORT): RoCEv2
 * over IPv6 is not carried (docs/spec-notes.md).
 */
export declare function rdma_resolve_addr(id: rdma_cm_id, src_addr: sockaddr | null, dst_addr: sockaddr, _timeout_ms: number): Promise<number>;
/**
 * `rdma_resolve_route`. On the RoCE device the route is one path record (`struct
 * ibv_sa_path_rec`) as Linux `cma_resolve_iboe_route` makes it without a subnet manager: the
 * GIDs, P_Key 0xffff, the port's MTU, hop limit 64 and packet life time 18.
 */
export declare function rdma_resolve_route(id: rdma_cm_id, _timeout_ms: number): Promise<number>;
/**
 * `rdma_create_qp`: on `pd` or the id's (default) PD; a CQ missing from the attributes is created
 * by rdma_cm with its own completion channel (`id.send_cq`/`recv_cq`, `*_cq_channel`), as
 * librdmacm does. The QP is moved to INIT at once (receives can be posted); connect/accept bring
 * it to RTS.
 */
export declare function rdma_create_qp(id: rdma_cm_id, pd: ibv_pd | null, attr: In<ibv_qp_init_attr>): number;
export declare function rdma_destroy_qp(id: rdma_cm_id): void;
/**
 * `rdma_connect`: MPA Request with the private data and IRD/ORD (`responder_resources` /
 * `initiator_depth`); ESTABLISHED (or REJECTED/UNREACHABLE/CONNECT_ERROR) follows as an event.
 */
export declare function rdma_connect(id: rdma_cm_id, param: In<rdma_conn_param> | null): Promise<number>;
export declare function rdma_accept(id: rdma_cm_id, param: In<rdma_conn_param> | null): Promise<number>;
export declare function rdma_reject(id: rdma_cm_id, private_data: Uint8Array | null, private_data_len?: number): number;
export declare function rdma_notify(id: rdma_cm_id, _event: number): number;
/** `rdma_disconnect`: graceful close; DISCONNECTED arrives on both sides when TCP is closed. */
export declare function rdma_disconnect(id: rdma_cm_id): Promise<number>;
export declare function rdma_get_src_port(id: rdma_cm_id): number;
export declare function rdma_get_dst_port(id: rdma_cm_id): number;
export declare function rdma_get_local_addr(id: rdma_cm_id): sockaddr;
export declare function rdma_get_peer_addr(id: rdma_cm_id): sockaddr;
/** `rdma_get_devices`: rdma_cm's context of every device (softrdma0, softroce0). */
export declare function rdma_get_devices(): Context[] | null;
export declare function rdma_free_devices(_list: readonly unknown[]): void;
export declare function rdma_get_cm_event(channel: rdma_event_channel): Promise<{
    ret: number;
    event: rdma_cm_event | null;
}>;
export declare function rdma_ack_cm_event(event: rdma_cm_event): number;
/**
 * `rdma_join_multicast` (manual §5.2.21). On the RoCE device, as Linux `cma_iboe_join_multicast`
 * with librdmacm's `ucma_process_join`: the IPv4 group G becomes the MGID `::ffff:G`, the id's QP
 * (if it has one) is attached to it (`ibv_attach_mcast`; the RoCEv2 transport then makes the
 * real IGMP join through its socket), and MULTICAST_JOIN follows with `param.ud`: an address
 * handle attribute to the group, QPN 0xFFFFFF, Q_Key RDMA_UDP_QKEY, private_data = `context`.
 * The id must be bound or resolved to the RoCE device; an IPv6 group is EOPNOTSUPP (RoCEv2
 * over IPv6 is not carried); a group joined twice is EADDRINUSE. Multicast needs UD QPs, which
 * iWARP does not have: on softrdma0 ENOSYS (Linux rdma_cm on iWARP).
 */
export declare function rdma_join_multicast(id: rdma_cm_id, addr: sockaddr, context: unknown): Promise<number>;
/** `rdma_leave_multicast`: the QP leaves the group (IGMP leave with its last member). A group not joined: EADDRNOTAVAIL. */
export declare function rdma_leave_multicast(id: rdma_cm_id, addr: sockaddr): number;
/** `rdma_get_request` on a synchronous listening id: the next connection request's new id. */
export declare function rdma_get_request(listen: rdma_cm_id): Promise<{
    ret: number;
    id: rdma_cm_id | null;
}>;
export declare function rdma_getaddrinfo(node: string | null, service: string | null, hints: In<rdma_addrinfo> | null): Promise<{
    ret: number;
    res: rdma_addrinfo | null;
}>;
export declare function rdma_freeaddrinfo(_res: rdma_addrinfo): void;
/** `rdma_create_ep`: a synchronous id with address and route resolved (or bound), and a QP. */
export declare function rdma_create_ep(res: rdma_addrinfo, pd: ibv_pd | null, attr: In<ibv_qp_init_attr> | null): Promise<{
    ret: number;
    id: rdma_cm_id | null;
}>;
export declare function rdma_destroy_ep(id: rdma_cm_id): number;
export declare function rdma_reg_msgs(id: rdma_cm_id, addr: Uint8Array, length: number): ibv_mr | null;
export declare function rdma_reg_read(id: rdma_cm_id, addr: Uint8Array, length: number): ibv_mr | null;
export declare function rdma_reg_write(id: rdma_cm_id, addr: Uint8Array, length: number): ibv_mr | null;
export declare function rdma_dereg_mr(mr: ibv_mr): number;
export declare function rdma_create_srq(id: rdma_cm_id, pd: ibv_pd | null, attr: In<ibv_srq_init_attr>): number;
export declare function rdma_destroy_srq(id: rdma_cm_id): void;
export declare function rdma_post_recvv(id: rdma_cm_id, context: bigint | null, sgl: readonly In<ibv_sge>[], nsge: number): number;
export declare function rdma_post_sendv(id: rdma_cm_id, context: bigint | null, sgl: readonly In<ibv_sge>[], nsge: number, flags: number): number;
export declare function rdma_post_readv(id: rdma_cm_id, context: bigint | null, sgl: readonly In<ibv_sge>[], nsge: number, flags: number, remote_addr: bigint, rkey: number): number;
export declare function rdma_post_writev(id: rdma_cm_id, context: bigint | null, sgl: readonly In<ibv_sge>[], nsge: number, flags: number, remote_addr: bigint, rkey: number): number;
export declare function rdma_post_recv(id: rdma_cm_id, context: bigint | null, addr: Uint8Array | bigint, length: number, mr: ibv_mr): number;
export declare function rdma_post_send(id: rdma_cm_id, context: bigint | null, addr: Uint8Array | bigint, length: number, mr: ibv_mr | null, flags: number): number;
export declare function rdma_post_read(id: rdma_cm_id, context: bigint | null, addr: Uint8Array | bigint, length: number, mr: ibv_mr, flags: number, remote_addr: bigint, rkey: number): number;
export declare function rdma_post_write(id: rdma_cm_id, context: bigint | null, addr: Uint8Array | bigint, length: number, mr: ibv_mr | null, flags: number, remote_addr: bigint, rkey: number): number;
/**
 * `rdma_post_ud_send` (manual §6.2.9): a UD Send to `remote_qpn` through `ah` with rdma_cm's
 * Q_Key (RDMA_UDP_QKEY). Only UD QPs (the RoCE device) have it: on an RC QP -1, errno EOPNOTSUPP.
 */
export declare function rdma_post_ud_send(id: rdma_cm_id, context: bigint | null, addr: Uint8Array | bigint, length: number, mr: ibv_mr | null, flags: number, ah: ibv_ah, remote_qpn: number): number;
export declare function rdma_get_send_comp(id: rdma_cm_id, wc: ibv_wc): Promise<number>;
export declare function rdma_get_recv_comp(id: rdma_cm_id, wc: ibv_wc): Promise<number>;
export {};

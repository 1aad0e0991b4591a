/**
 * IT-API on the RoCE Interface (`softroce0`, `IT_IB_TRANSPORT`): the device-level half. The
 * Endpoint logic stays in `ep.ts`; this module holds what the InfiniBand CM needs there:
 *
 * - the Interface's **CM**: the process's RDMA IP CM service of the port (`src/ibcm/rdma-ip.ts`:
 *   QP1, the IB CM, the services), shared with rdma_cm — opened on this face's RNIC when IT-API
 *   is the first to need it. IT-API connections use rdma_cm's conventions on it (IBTA Vol. 1
 *   Annex A11 as Linux `cma.c`): an `IT_IANA_PORT` qualifier is the service ID
 *   `RDMA_PS_TCP << 16 | port`, and a REQ's private data starts with the `cma_hdr` (the
 *   addresses), so an IT-API Endpoint talks to any rdma_cm peer (rping, perftest `-R`, rxe);
 * - **paths**: `it_path_t.remote.ib` with IPv4-mapped GIDs (Annex A17.4.5.1), hop limit 64,
 *   path MTU 1024, packet life time 18, as rdma_cm's RoCE routes;
 * - the **QP transitions** a connection makes (Linux `cm_init_qp_*_attr`);
 * - **requests** and **Listen Points** shaped like the iWARP CM's, so the Listen/request code of
 *   `ep.ts` serves both transports.
 *
 * @module
 */
import { EventEmitter } from 'node:events';
import type { IbCmConnection, IbCmEvent } from '../ibcm/cm.js';
import { type CmaAddresses, RdmaIpCm } from '../ibcm/rdma-ip.js';
import type { ri_ops_t } from '../rnicpi/ops.js';
import { RiRet } from '../rnicpi/status.js';
import { type ri_qp_handle_t, type ri_rnic_handle_t } from '../rnicpi/types.js';
import { type CmReq } from '../wire/ib/cm.js';
import type { ItDevice } from './access.js';
import { type it_path_t, it_conn_reject_code_t as RJ } from './types.js';
/** Hop limit, path MTU (1024) and packet life time of a RoCE path (rdma_cm's `cma_resolve_iboe_route`). */
export declare const IBOE_HOP_LIMIT = 64;
export declare const IBOE_PATH_MTU = 3;
export declare const IBOE_PACKET_LIFETIME = 18;
/** Private data on RoCE: a REQ's 92 octets less the `cma_hdr`; REP 196; REJ 148 (IBTA Table 99). */
export declare const IB_PDATA_CONNECT: number;
export declare const IB_PDATA_ACCEPT = 196;
export declare const IB_PDATA_REJECT = 148;
/** True for the RoCE (InfiniBand-transport) Interface. */
export declare function isIbDevice(dev: ItDevice): boolean;
/** The port's GID table (RNICPI port attributes). */
export declare function roceGids(dev: ItDevice): Uint8Array[];
/** The IPv4 addresses of the port (those of its IPv4-mapped GIDs). */
export declare function roceAddresses(dev: ItDevice): string[];
/** The GID table index of `gid` (0 when it is not in the table). */
export declare function gidIndexOf(dev: ItDevice, gid: Uint8Array): number;
/** The CM of the RoCE Interface (QP1 opened on first use), or the RNICPI status of the failure. */
export declare function roceCm(dev: ItDevice, index: number): RdmaIpCm | RiRet;
/** The 16 octets of an IPv6-text GID (`::ffff:192.0.2.1`, `fe80::1`), or null. */
export declare function gidFromText(text: string): Uint8Array | null;
/** An `it_path_t` on the RoCE Interface between the GIDs of two IPv4 addresses. */
export declare function ibPathOf(local: string, remote: string, timeoutUs: bigint): it_path_t;
/** The IT-API reject code of an IB CM REJ reason (the active side's NONPEER_REJECT). */
export declare function rejectCodeOf(reason: number): RJ;
/** Moves a new RC QP RESET → INIT (P_Key index 0, port 1, the remote access it allows). */
export declare function ibQpInit(ops: ri_ops_t, rnic: ri_rnic_handle_t, qp: ri_qp_handle_t, access: {
    read: boolean;
    write: boolean;
    atomic: boolean;
}): RiRet;
/** What a connection gives its QP on the way to RTS. */
export interface IbQpPath {
    dgid: Uint8Array;
    sgidIndex: number;
    pathMtu: number;
    destQpn: number;
    rqPsn: number;
    sqPsn: number;
    /** max_dest_rd_atomic (our IRD) and max_rd_atomic (our ORD). */
    ird: number;
    ord: number;
    timeout: number;
    retryCount: number;
    rnrRetryCount: number;
}
/** Moves an RC QP INIT → RTR → RTS with `p` (Linux `cm_init_qp_rtr_attr` / `cm_init_qp_rts_attr`). */
export declare function ibQpToRts(ops: ri_ops_t, rnic: ri_rnic_handle_t, qp: ri_qp_handle_t, p: IbQpPath): RiRet;
/**
 * A REQ delivered to an IT-API Listen Point, shaped like the iWARP CM's request: `state`,
 * the consumer's private data (after the `cma_hdr`), the peer's IRD/ORD (the REQ's responder
 * resources and initiator depth), the addresses of the `cma_hdr`; `'aborted'` when the active
 * side gave up (REJ, timeout) before the consumer answered.
 */
export declare class IbItRequest extends EventEmitter {
    #private;
    readonly cm: RdmaIpCm;
    readonly conn: IbCmConnection;
    readonly req: CmReq;
    state: 'pending' | 'accepted' | 'rejected' | 'aborted';
    readonly privateData: Uint8Array;
    readonly remoteAddress: string;
    readonly remotePort: number;
    readonly localAddress: string;
    readonly localPort: number;
    constructor(cm: RdmaIpCm, conn: IbCmConnection, req: CmReq, addrs: CmaAddresses, port: number);
    get peerIrd(): number;
    get peerOrd(): number;
    /** REJ 28 (Consumer Defined) with the consumer's private data. */
    reject(pd?: Uint8Array): void;
    /** The Endpoint takes the connection over (its events go there from now on). */
    take(onEvent: (e: IbCmEvent) => void): void;
}
/**
 * An IT-API Listen Point on the RoCE Interface: the RDMA_PS_TCP service of `port` (connection
 * requests, `'request'`) and its RDMA_PS_UDP service (UD service requests, `'ud-request'`) on
 * every address of the port, shaped like the iWARP CM listener (`close()`).
 */
export declare class IbItListen extends EventEmitter {
    #private;
    readonly cm: RdmaIpCm;
    readonly port: number;
    private constructor();
    /** Listens on `port` (0: an unused one of the ephemeral range); null when the port is taken. */
    static listen(cm: RdmaIpCm, port: number): IbItListen | null;
    close(): void;
}
/** `::ffff:a.b.c.d` of an IPv4 address (logs). */
export declare function gidTextOf(ip: string): string;

import { RiRet } from '../rnicpi/status.js';
import { IbCm, type IbCmListener, type IbCmListenEvent } from './cm.js';
import type { RiGsiPort } from './ri-gsi.js';
/**
 * The source address of a RoCE path to `dst` from a port owning the IPv4 addresses `own`: the
 * route's source when the port owns it; otherwise one of its addresses — a loopback one for a
 * loopback destination, else the first that is not loopback. A port restricted to other
 * addresses than the route's (`SOFTRDMA_ROCE_ADDRS`, two processes on one host) thus still
 * resolves. null when the port has no IPv4 address.
 */
export declare function roceSourceFor(own: readonly string[], dst: string): Promise<string | null>;
/** rdma_cm's source port for an active id (the port space's ephemeral range). */
export declare function ephemeralPort(): number;
/** A random 24-bit starting PSN (IBTA Vol. 1 §9.7.1; Linux `get_random_u32() & 0xffffff`). */
export declare function randomPsn(): number;
/** The addresses a REQ's or SIDR_REQ's `cma_hdr` carries. */
export interface CmaAddresses {
    src: string;
    dst: string;
    srcPort: number;
}
/** REQ / SIDR_REQ private data: the IPv4 `cma_hdr` (36 octets), then `user`. */
export declare function cmaPrivateDataOf(src: {
    address: string;
    port: number;
}, dst: string, user: Uint8Array | null): Uint8Array;
/** The addresses of a REQ's or SIDR_REQ's `cma_hdr`, or null when it is not a valid IPv4 one. */
export declare function cmaAddresses(pd: Uint8Array): CmaAddresses | null;
/** A REQ or SIDR_REQ for one listener, with its `cma_hdr` addresses. */
export type RdmaIpListenHandler = (ev: IbCmListenEvent, addrs: CmaAddresses) => void;
/** How a face opens the CM of a port when it is the first to need it. */
export interface RdmaIpCmOpener {
    /** The port's name (the RoCE device's, `softroce0`): the key faces share the CM by. */
    name: string;
    /** Opens QP1 on the face's RNIC. */
    openGsi(): RiGsiPort | RiRet;
    /** The face's RNIC node GUID (the CM's CA GUID). */
    caGuid: bigint;
    /** The port's GID table, read on each REQ. */
    gids(): readonly Uint8Array[];
}
interface Service {
    listener: IbCmListener;
    /** Listeners on this service ID by bound address ('0.0.0.0' = every address). */
    byAddress: Map<string, RdmaIpListenHandler>;
}
/** The IB CM of one RoCE port with its RDMA IP services, shared by the faces of the process. */
export declare class RdmaIpCm {
    #private;
    readonly name: string;
    readonly gsi: RiGsiPort;
    readonly cm: IbCm;
    readonly services: Map<bigint, Service>;
    private constructor();
    /** The CM of the port `o.name` (opened through `o` on first use), or the RNICPI status of a failure to open QP1. */
    static of(o: RdmaIpCmOpener): RdmaIpCm | RiRet;
    get closed(): boolean;
    /** A user (an id, an endpoint, a listener) starts using the CM. */
    hold(): void;
    /** A user stops using it; the last one lets it close once idle. */
    release(): void;
    /**
     * Listens on `sid` for the listener bound to `address` ('0.0.0.0' for all). False when that
     * address (or the wildcard, or any address against a wildcard) is taken on it.
     */
    listen(sid: bigint, address: string, handler: RdmaIpListenHandler): boolean;
    /** Stops the listener of `address` on `sid`; the CM listener goes with the last one. */
    unlisten(sid: bigint, address: string): void;
    close(): void;
}
export {};

/**
 * `device.listen()`: a listening rdma_cm id as an async iterable of connection requests, each
 * accepted (`accept()` → a {@link Connection}) or rejected with private data (`reject()`).
 * Requests wait in a queue of `backlog` entries; one more is rejected at once (bounded, and the
 * client sees `ECONNREFUSED` rather than a hang).
 */
import { type rdma_cm_event, type rdma_cm_id } from '../verbs/index.js';
import { type Connection, type ConnectionOptions } from './connection.js';
import type { RdmaDevice } from './device.js';
export interface ListenOptions {
    /** Address to listen on (default 0.0.0.0: every address). */
    host?: string;
    /** Port (default 0: any free port; read it from `listener.port`). */
    port?: number;
    /** Requests waiting to be taken from the iterator; more are rejected. Default 16. */
    backlog?: number;
}
/** An incoming connection request. Take it with `accept()` or refuse it with `reject()`. */
export declare class ConnectionRequest {
    #private;
    readonly listener: Listener;
    /** The request's rdma_cm id (escape hatch); the accepted connection's `cm_id`. */
    readonly cm_id: rdma_cm_id;
    /** The private data the client sent with its request. */
    readonly privateData: Uint8Array;
    readonly remoteAddress: string;
    readonly remotePort: number;
    /** @internal */
    constructor(listener: Listener, 
    /** The request's rdma_cm id (escape hatch); the accepted connection's `cm_id`. */
    cm_id: rdma_cm_id, privateData: Uint8Array);
    /** Accepts: creates the QP and buffers, answers with `privateData`, resolves once established. */
    accept(options?: ConnectionOptions & {
        privateData?: Uint8Array;
    }): Promise<Connection>;
    /** Rejects, with `privateData` for the client (its `ConnectError.privateData`). */
    reject(privateData?: Uint8Array): void;
    /** @internal The listener closed before the request was taken. */
    drop(): void;
}
/** A listening id: `for await (const req of listener)`; `close()` stops it. */
export declare class Listener implements AsyncIterable<ConnectionRequest> {
    #private;
    readonly device: RdmaDevice;
    /** The listening rdma_cm id (escape hatch). */
    readonly cm_id: rdma_cm_id;
    /** @internal */
    constructor(device: RdmaDevice, 
    /** The listening rdma_cm id (escape hatch). */
    cm_id: rdma_cm_id, backlog: number);
    /** The port listened on. */
    get port(): number;
    /** @internal A CONNECT_REQUEST for this listener. */
    onRequest(ev: rdma_cm_event): void;
    /** The next request, or null once the listener is closed. */
    next(): Promise<ConnectionRequest | null>;
    [Symbol.asyncIterator](): AsyncGenerator<ConnectionRequest, void, undefined>;
    /** Stops listening; requests not yet taken are rejected. Connections already accepted stay open. */
    close(): Promise<void>;
    [Symbol.asyncDispose](): Promise<void>;
}
/** `device.listen()`: `rdma_bind_addr` + `rdma_listen`, resolved once the port is bound. */
export declare function listen(device: RdmaDevice, opts: ListenOptions): Promise<Listener>;

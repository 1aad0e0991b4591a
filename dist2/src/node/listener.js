/**
 * `device.listen()`: a listening rdma_cm id as an async iterable of connection requests, each
 * accepted (`accept()` → a {@link Connection}) or rejected with private data (`reject()`).
 * Requests wait in a queue of `backlog` entries; one more is rejected at once (bounded, and the
 * client sees `ECONNREFUSED` rather than a hang).
 */
import { rdma_bind_addr, rdma_cm_event_type, rdma_create_id, rdma_get_peer_addr, rdma_get_src_port, rdma_listen, rdma_reject, rdmaUseDevice, RDMA_PS_TCP, rdmaListenReady, softrdmaLastError, } from '../verbs/index.js';
import { IdEvents, privateDataOf } from './cm.js';
import { accept } from './connection.js';
import { RdmaError } from './errors.js';
/** An incoming connection request. Take it with `accept()` or refuse it with `reject()`. */
export class ConnectionRequest {
    listener;
    cm_id;
    /** The private data the client sent with its request. */
    privateData;
    remoteAddress;
    remotePort;
    #done = false;
    /** @internal */
    constructor(listener, 
    /** The request's rdma_cm id (escape hatch); the accepted connection's `cm_id`. */
    cm_id, privateData) {
        this.listener = listener;
        this.cm_id = cm_id;
        this.privateData = privateData;
        const peer = rdma_get_peer_addr(cm_id);
        this.remoteAddress = peer.address;
        this.remotePort = peer.port;
    }
    /** Accepts: creates the QP and buffers, answers with `privateData`, resolves once established. */
    accept(options = {}) {
        if (this.#done)
            return Promise.reject(new RdmaError('the request was already accepted or rejected', 'EINVAL', 22));
        this.#done = true;
        const dev = this.listener.device;
        return accept(dev, this.cm_id, new IdEvents(dev.events, this.cm_id), options, this.privateData);
    }
    /** Rejects, with `privateData` for the client (its `ConnectError.privateData`). */
    reject(privateData) {
        if (this.#done)
            throw new RdmaError('the request was already accepted or rejected', 'EINVAL', 22);
        this.#done = true;
        rdma_reject(this.cm_id, privateData ?? null);
        this.listener.device.events.destroy(this.cm_id);
    }
    /** @internal The listener closed before the request was taken. */
    drop() {
        if (this.#done)
            return;
        this.#done = true;
        rdma_reject(this.cm_id, null);
        this.listener.device.events.destroy(this.cm_id);
    }
}
/** A listening id: `for await (const req of listener)`; `close()` stops it. */
export class Listener {
    device;
    cm_id;
    #queue = [];
    #waiters = [];
    #backlog;
    #closed = false;
    /** @internal */
    constructor(device, 
    /** The listening rdma_cm id (escape hatch). */
    cm_id, backlog) {
        this.device = device;
        this.cm_id = cm_id;
        this.#backlog = backlog;
    }
    /** The port listened on. */
    get port() {
        return rdma_get_src_port(this.cm_id);
    }
    /** @internal A CONNECT_REQUEST for this listener. */
    onRequest(ev) {
        const data = privateDataOf(ev) ?? new Uint8Array(0);
        const req = new ConnectionRequest(this, ev.id, data);
        // rdma_cm may listen on every device that owns the address; this listener takes the
        // requests that arrived on its own device only.
        if (this.#closed || (ev.id.verbs && ev.id.verbs.device !== this.device.device)) {
            queueMicrotask(() => req.drop());
            return;
        }
        const w = this.#waiters.shift();
        if (w)
            w(req);
        else if (this.#queue.length < this.#backlog)
            this.#queue.push(req);
        else
            queueMicrotask(() => req.drop());
    }
    /** The next request, or null once the listener is closed. */
    next() {
        const r = this.#queue.shift();
        if (r)
            return Promise.resolve(r);
        if (this.#closed)
            return Promise.resolve(null);
        return new Promise((resolve) => this.#waiters.push(resolve));
    }
    async *[Symbol.asyncIterator]() {
        for (;;) {
            const r = await this.next();
            if (!r)
                return;
            yield r;
        }
    }
    /** Stops listening; requests not yet taken are rejected. Connections already accepted stay open. */
    async close() {
        if (this.#closed)
            return;
        this.#closed = true;
        for (const w of this.#waiters.splice(0))
            w(null);
        for (const r of this.#queue.splice(0))
            r.drop();
        this.device.events.destroy(this.cm_id);
        this.device.owned.delete(this);
    }
    [Symbol.asyncDispose]() {
        return this.close();
    }
}
/** `device.listen()`: `rdma_bind_addr` + `rdma_listen`, resolved once the port is bound. */
export async function listen(device, opts) {
    const port = opts.port ?? 0;
    if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new RangeError(`listen: port must be 0..65535; got ${String(port)}`);
    const backlog = opts.backlog ?? 16;
    if (!Number.isInteger(backlog) || backlog < 1)
        throw new RangeError(`listen: backlog must be a positive integer; got ${String(backlog)}`);
    const made = rdma_create_id(device.events.channel, null, RDMA_PS_TCP);
    if (!made.id)
        throw RdmaError.fromErrno('rdma_create_id', softrdmaLastError().errno, softrdmaLastError().message);
    const id = made.id;
    const host = opts.host ?? '0.0.0.0';
    // The handler is in place before the id listens: no request can arrive unseen.
    const l = new Listener(device, id, backlog);
    device.events.on(id, (ev) => {
        if (ev.event === rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_REQUEST)
            l.onRequest(ev);
    });
    try {
        // Listen on this device only (rdma_cm would listen on every device that owns the address).
        if (rdmaUseDevice(id, device.context) !== 0)
            throw RdmaError.fromErrno('listen: rdmaUseDevice', softrdmaLastError().errno, softrdmaLastError().message);
        if (rdma_bind_addr(id, { family: host.includes(':') ? 'ipv6' : 'ipv4', address: host, port }) !== 0)
            throw RdmaError.fromErrno('listen: rdma_bind_addr', softrdmaLastError().errno, softrdmaLastError().message);
        if (rdma_listen(id, backlog) !== 0)
            throw RdmaError.fromErrno('listen: rdma_listen', softrdmaLastError().errno, softrdmaLastError().message);
        await rdmaListenReady(id).catch((e) => {
            throw RdmaError.fromErrno('listen', e.errno ?? 22, e.message);
        });
    }
    catch (e) {
        device.events.destroy(id);
        throw e;
    }
    device.owned.add(l);
    return l;
}
//# sourceMappingURL=listener.js.map
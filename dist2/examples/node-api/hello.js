var __addDisposableResource = (this && this.__addDisposableResource) || function (env, value, async) {
    if (value !== null && value !== void 0) {
        if (typeof value !== "object" && typeof value !== "function") throw new TypeError("Object expected.");
        var dispose, inner;
        if (async) {
            if (!Symbol.asyncDispose) throw new TypeError("Symbol.asyncDispose is not defined.");
            dispose = value[Symbol.asyncDispose];
        }
        if (dispose === void 0) {
            if (!Symbol.dispose) throw new TypeError("Symbol.dispose is not defined.");
            dispose = value[Symbol.dispose];
            if (async) inner = dispose;
        }
        if (typeof dispose !== "function") throw new TypeError("Object not disposable.");
        if (inner) dispose = function() { try { inner.call(this); } catch (e) { return Promise.reject(e); } };
        env.stack.push({ value: value, dispose: dispose, async: async });
    }
    else if (async) {
        env.stack.push({ async: true });
    }
    return value;
};
var __disposeResources = (this && this.__disposeResources) || (function (SuppressedError) {
    return function (env) {
        function fail(e) {
            env.error = env.hasError ? new SuppressedError(e, env.error, "An error was suppressed during disposal.") : e;
            env.hasError = true;
        }
        var r, s = 0;
        function next() {
            while (r = env.stack.pop()) {
                try {
                    if (!r.async && s === 1) return s = 0, env.stack.push(r), Promise.resolve().then(next);
                    if (r.dispose) {
                        var result = r.dispose.call(r.value);
                        if (r.async) return s |= 2, Promise.resolve(result).then(next, function(e) { fail(e); return next(); });
                    }
                    else s |= 1;
                }
                catch (e) {
                    fail(e);
                }
            }
            if (s === 1) return env.hasError ? Promise.reject(env.error) : Promise.resolve();
            if (env.hasError) throw env.error;
        }
        return next();
    };
})(typeof SuppressedError === "function" ? SuppressedError : function (error, suppressed, message) {
    var e = new Error(message);
    return e.name = "SuppressedError", e.error = error, e.suppressed = suppressed, e;
});
// The README's Node API program: a server and a client in one process (node dist/examples/node-api/hello.js).
import { openDevice, RemoteBuffer } from '../../src/index.js';
var dev, inbox, listener, server, conn, remote;
const env_1 = { stack: [], error: void 0, hasError: false };
try {
    dev = __addDisposableResource(env_1, openDevice(), true); // softrdma0 (iWARP); openDevice({ transport: 'rocev2' }) for RoCE
    // Server: a buffer the client may RDMA-Write, handed over as JSON with the accept.
    inbox = dev.register(Buffer.alloc(64), { remoteWrite: true });
    listener = __addDisposableResource(env_1, await dev.listen({ host: '127.0.0.1' }), true);
    server = (async () => {
        for await (const request of listener) {
            const env_2 = { stack: [], error: void 0, hasError: false };
            try {
                const conn = __addDisposableResource(env_2, await request.accept({ privateData: Buffer.from(JSON.stringify(inbox)) }), true);
                for await (const msg of conn) {
                    // The Send arrives after the Write before it: the bytes are in place.
                    console.log(`${msg.data}: ${Buffer.from(inbox.buffer).toString('utf8', 0, 5)}`);
                    return;
                }
            }
            catch (e_2) {
                env_2.error = e_2;
                env_2.hasError = true;
            }
            finally {
                const result_2 = __disposeResources(env_2);
                if (result_2)
                    await result_2;
            }
        }
    })();
    // Client: connect, RDMA-Write into the server's buffer (one-sided), then Send a message.
    conn = __addDisposableResource(env_1, await dev.connect({ host: '127.0.0.1', port: listener.port, timeout: 5000 }), true);
    remote = RemoteBuffer.from(JSON.parse(Buffer.from(conn.privateData).toString()));
    await conn.write(Buffer.from('hello'), remote);
    await conn.send(Buffer.from('written'));
    await server; // prints "written: hello"
}
catch (e_1) {
    env_1.error = e_1;
    env_1.hasError = true;
}
finally {
    const result_1 = __disposeResources(env_1);
    if (result_1)
        await result_1;
}
//# sourceMappingURL=hello.js.map
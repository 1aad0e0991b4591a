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
/**
 * One side of the Node API benchmark (bench/nodeapi.ts), over softrdma's idiomatic API:
 *   node dist/bench/nodeapi-peer.js server                     → prints `PORT n`; echoes messages
 *   node dist/bench/nodeapi-peer.js write PORT SIZE N          → `{"mbps": …}`: N RDMA Writes of SIZE bytes
 *   node dist/bench/nodeapi-peer.js rtt PORT SIZE N            → `{"rtt_us": median}`: Send, await the echo
 *
 * As `softrdma perf` (the verbs figure it is compared with): tx depth 128 (here the connection's
 * window), registered local memory, a warm-up pass first, then the measured pass. It loads the
 * Node API's own entry point (`softrdma/node`), as perf loads only the verbs face: in paired runs
 * a server that also loaded the IT-API, RNICPI and wire faces (the package root) placed inbound
 * 64 KiB Writes measurably slower (the loaded code, not the API; see docs/spec-notes.md).
 */
import { openDevice, RemoteBuffer } from '../src/node/index.js';
const [role, portArg, sizeArg, nArg] = process.argv.slice(2);
const DEPTH = 128;
async function server() {
    const env_1 = { stack: [], error: void 0, hasError: false };
    try {
        const dev = __addDisposableResource(env_1, openDevice(), true);
        const l = __addDisposableResource(env_1, await dev.listen({ host: '127.0.0.1' }), true);
        const target = dev.register(Buffer.alloc(1 << 20), { remoteWrite: true });
        process.stdout.write(`PORT ${l.port}\n`);
        const req = await l.next();
        if (!req)
            return;
        const conn = __addDisposableResource(env_1, await req.accept({ privateData: Buffer.from(JSON.stringify(target)), receive: { count: 64, size: 4096 } }), true);
        for await (const m of conn)
            await conn.send(m.data);
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
}
/** N writes of `size` bytes with at most DEPTH in flight (the idiomatic loop: await the oldest when full). */
async function writes(conn, src, remote, n) {
    const local = conn.device.register(src, { localWrite: false });
    const t0 = process.hrtime.bigint();
    const inflight = [];
    for (let i = 0; i < n; i++) {
        if (inflight.length === DEPTH)
            await inflight.shift();
        inflight.push(conn.write(local, remote));
    }
    await Promise.all(inflight);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    local.close();
    return (src.length * n) / 1e6 / s;
}
async function client(mode, port, size, n) {
    const env_2 = { stack: [], error: void 0, hasError: false };
    try {
        const dev = __addDisposableResource(env_2, openDevice(), true);
        const conn = __addDisposableResource(env_2, await dev.connect({ port, maxOutstanding: DEPTH, receive: { count: 16, size: Math.max(size, 64) } }), true);
        const remote = RemoteBuffer.from(JSON.parse(Buffer.from(conn.privateData).toString())).slice(0, size);
        const src = Buffer.alloc(size, 1);
        if (mode === 'write') {
            await writes(conn, src, remote, n); // warm-up pass
            console.log(JSON.stringify({ mbps: await writes(conn, src, remote, n) }));
            return;
        }
        const rtts = [];
        for (let i = 0; i < n + 100; i++) {
            const t0 = process.hrtime.bigint();
            await conn.send(src);
            await conn.receive();
            if (i >= 100)
                rtts.push(Number(process.hrtime.bigint() - t0) / 1e3);
        }
        rtts.sort((a, b) => a - b);
        console.log(JSON.stringify({ rtt_us: rtts[rtts.length >> 1] }));
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
if (role === 'server')
    await server();
else
    await client(role, Number(portArg), Number(sizeArg), Number(nArg));
//# sourceMappingURL=nodeapi-peer.js.map
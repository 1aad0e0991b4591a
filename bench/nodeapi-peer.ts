/**
 * One side of the Node API benchmark (bench/nodeapi.ts), over softrdma's idiomatic API:
 *   node dist/bench/nodeapi-peer.js server [TRANSPORT HOST]                → prints `PORT n`; echoes messages
 *   node dist/bench/nodeapi-peer.js write PORT SIZE N [TRANSPORT HOST]     → `{"mbps": …}`: N RDMA Writes of SIZE bytes
 *   node dist/bench/nodeapi-peer.js rtt PORT SIZE N [TRANSPORT HOST]       → `{"rtt_us": median}`: Send, await the echo
 *
 * TRANSPORT is `iwarp` (default) or `rocev2`; HOST the server's address (default 127.0.0.1). On
 * RoCE the two processes own different addresses (`SOFTRDMA_ROCE_ADDRS`, set by bench/nodeapi.ts).
 *
 * As `softrdma perf` (the verbs figure it is compared with): tx depth 128 (here the connection's
 * window), registered local memory, a warm-up pass first, then the measured pass. It loads the
 * Node API's own entry point (`softrdma/node`), as perf loads only the verbs face: in paired runs
 * a server that also loaded the IT-API, RNICPI and wire faces (the package root) placed inbound
 * 64 KiB Writes measurably slower (the loaded code, not the API; see docs/spec-notes.md).
 */
import { type Connection, openDevice, RemoteBuffer, type Transport } from '../src/node/index.js';
import { tuneGcForSocketData } from '../src/util/gc-tuning.js';

// With the V8 setting the softrdma command applies at start (src/util/gc-tuning.ts), so that the
// Node API and the `softrdma perf` it is compared with run alike.
tuneGcForSocketData();

const argv = process.argv.slice(2);
const role = argv[0];
const [portArg, sizeArg, nArg] = role === 'server' ? [] : argv.slice(1, 4);
const [transportArg, hostArg] = role === 'server' ? argv.slice(1, 3) : argv.slice(4, 6);
const transport = (transportArg ?? 'iwarp') as Transport;
const host = hostArg ?? '127.0.0.1';
const DEPTH = 128;

async function server(): Promise<void> {
  await using dev = openDevice({ transport });
  await using l = await dev.listen({ host });
  const target = dev.register(Buffer.alloc(1 << 20), { remoteWrite: true });
  process.stdout.write(`PORT ${l.port}\n`);
  const req = await l.next();
  if (!req) return;
  await using conn = await req.accept({ privateData: Buffer.from(JSON.stringify(target)), receive: { count: 64, size: 4096 } });
  for await (const m of conn) await conn.send(m.data);
}

/** N writes of `size` bytes with at most DEPTH in flight (the idiomatic loop: await the oldest when full). */
async function writes(conn: Connection, src: Buffer, remote: RemoteBuffer, n: number): Promise<number> {
  const local = conn.device.register(src, { localWrite: false });
  const t0 = process.hrtime.bigint();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    if (inflight.length === DEPTH) await inflight.shift();
    inflight.push(conn.write(local, remote));
  }
  await Promise.all(inflight);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  local.close();
  return (src.length * n) / 1e6 / s;
}

async function client(mode: string, port: number, size: number, n: number): Promise<void> {
  await using dev = openDevice({ transport });
  await using conn = await dev.connect({ host, port, maxOutstanding: DEPTH, receive: { count: 16, size: Math.max(size, 64) } });
  const remote = RemoteBuffer.from(JSON.parse(Buffer.from(conn.privateData).toString())).slice(0, size);
  const src = Buffer.alloc(size, 1);
  if (mode === 'write') {
    await writes(conn, src, remote, n); // warm-up pass
    console.log(JSON.stringify({ mbps: await writes(conn, src, remote, n) }));
    return;
  }
  const rtts: number[] = [];
  for (let i = 0; i < n + 100; i++) {
    const t0 = process.hrtime.bigint();
    await conn.send(src);
    await conn.receive();
    if (i >= 100) rtts.push(Number(process.hrtime.bigint() - t0) / 1e3);
  }
  rtts.sort((a, b) => a - b);
  console.log(JSON.stringify({ rtt_us: rtts[rtts.length >> 1] }));
}

if (role === 'server') await server();
else await client(role!, Number(portArg), Number(sizeArg), Number(nArg));

/**
 * A key-value cache whose clients read values with one-sided RDMA Reads (softrdma's Node API).
 *
 * The server keeps a hash table in registered memory: an index of SLOTS entries (key hash,
 * value offset, value length; 16 bytes each) and a value heap. It hands both regions to each
 * client in the accept's private data and is not involved in lookups at all: a client hashes the
 * key, RDMA-Reads the 16-byte index entry, then RDMA-Reads the value.
 *
 *   node dist/examples/node-api/kv-cache.js server [--transport iwarp|rocev2] [--host ADDR]   prints "PORT n"
 *   node dist/examples/node-api/kv-cache.js client PORT key... [--host ADDR]                   prints "key = value"
 *   node dist/examples/node-api/kv-cache.js [--transport rocev2]                               both, as two processes
 *
 * On RoCE two processes of one host must own different addresses (each binds UDP 4791 on its
 * own): run both roles with SOFTRDMA_ROCE_ADDRS set apart, the server's address as --host.
 * The two-process mode does that itself (the server on 127.0.0.2, the client on 127.0.0.1).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { openDevice, RemoteBuffer, type Transport } from '../../src/index.js';

const SLOTS = 1024;
const ENTRY = 16;
const transport = (process.argv.includes('--transport') ? process.argv[process.argv.indexOf('--transport') + 1] : 'iwarp') as Transport;
const opt = (name: string): string | undefined => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const host = opt('--host') ?? '127.0.0.1';
const args = process.argv
  .slice(2)
  .filter((a, i, all) => !['--transport', '--host'].includes(a) && !['--transport', '--host'].includes(all[i - 1]!));
/** The environment of each role in the two-process mode: on RoCE, an address of its own. */
const roleEnv = (role: 'server' | 'client'): NodeJS.ProcessEnv =>
  transport === 'rocev2' ? { ...process.env, SOFTRDMA_ROCE_ADDRS: role === 'server' ? '127.0.0.2' : '127.0.0.1' } : process.env;
const pairHost = transport === 'rocev2' ? ['--host', '127.0.0.2'] : [];

/** 64-bit key hash (never 0: 0 marks a free slot). */
const hash = (key: string): bigint => createHash('sha256').update(key).digest().readBigUInt64LE(0) | 1n;

async function server(): Promise<void> {
  await using dev = openDevice({ transport });
  const index = Buffer.alloc(SLOTS * ENTRY);
  const heap = Buffer.alloc(1 << 20);
  let top = 0;
  const put = (key: string, value: string): void => {
    const h = hash(key);
    let slot = Number(h % BigInt(SLOTS));
    while (index.readBigUInt64LE(slot * ENTRY) !== 0n) slot = (slot + 1) % SLOTS; // linear probing
    const n = heap.write(value, top);
    index.writeBigUInt64LE(h, slot * ENTRY);
    index.writeUInt32LE(top, slot * ENTRY + 8);
    index.writeUInt32LE(n, slot * ENTRY + 12);
    top += n;
  };
  for (const [k, v] of Object.entries({
    alpha: 'first letter',
    beta: 'second letter',
    rdma: 'remote direct memory access',
    node: 'a JavaScript runtime',
  }))
    put(k, v);
  const indexMr = dev.register(index, { remoteRead: true });
  const heapMr = dev.register(heap, { remoteRead: true });
  await using listener = await dev.listen({ host });
  console.log(`PORT ${listener.port}`);
  for await (const req of listener) {
    // The regions travel as JSON ({ addr: "0x…", rkey, length }); the client says when it is done.
    const conn = await req.accept({ privateData: Buffer.from(JSON.stringify({ index: indexMr, heap: heapMr })) });
    const bye = await conn.receive();
    console.log(`server: client done (${bye.data.toString()}), served with no server CPU per lookup`);
    await conn.close();
    break;
  }
}

async function client(port: number, keys: string[]): Promise<void> {
  await using dev = openDevice({ transport });
  await using conn = await dev.connect({ host, port });
  const layout = JSON.parse(Buffer.from(conn.privateData).toString());
  const index = RemoteBuffer.from(layout.index);
  const heap = RemoteBuffer.from(layout.heap);
  for (const key of keys) {
    const h = hash(key);
    let value: string | null = null;
    for (let slot = Number(h % BigInt(SLOTS)), probes = 0; probes < SLOTS; slot = (slot + 1) % SLOTS, probes++) {
      const entry = Buffer.from(await conn.read(index.slice(slot * ENTRY, ENTRY))); // one-sided
      const eh = entry.readBigUInt64LE(0);
      if (eh === 0n) break;
      if (eh !== h) continue;
      value = Buffer.from(await conn.read(heap.slice(entry.readUInt32LE(8), entry.readUInt32LE(12)))).toString(); // one-sided
      break;
    }
    console.log(`${key} = ${value ?? '(not found)'}`);
  }
  await conn.send(Buffer.from(`${keys.length} lookups`));
}

const [role, port, ...keys] = args;
if (role === 'server') await server();
else if (role === 'client') await client(Number(port), keys);
else {
  // Both roles, each in its own process.
  const self = fileURLToPath(import.meta.url);
  const srv = spawn(process.execPath, [self, 'server', '--transport', transport, ...pairHost], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: roleEnv('server'),
  });
  const p = await new Promise<number>((resolve) =>
    srv.stdout.on('data', (d: Buffer) => /PORT (\d+)/.test(String(d)) && resolve(Number(/PORT (\d+)/.exec(String(d))![1]))),
  );
  srv.stdout.pipe(process.stdout);
  const cli = spawn(
    process.execPath,
    [self, 'client', String(p), 'alpha', 'rdma', 'node', 'missing', '--transport', transport, ...pairHost],
    { stdio: 'inherit', env: roleEnv('client') },
  );
  const codes = await Promise.all([srv, cli].map((c) => new Promise<number | null>((r) => c.on('exit', r))));
  process.exitCode = codes.every((c) => c === 0) ? 0 : 1;
}

/**
 * File transfer with RDMA Write and a completion message (softrdma's Node API).
 *
 * The client announces the file (name, size) in a Send; the server registers a buffer of that
 * size with remote write and answers with it as JSON; the client RDMA-Writes the file in 64 KiB
 * chunks, many in flight (the connection's window bounds them), then Sends "done" with the
 * SHA-256. A Send is ordered behind the Writes before it on the connection, so when the server
 * receives "done" every byte is in place: it checks the digest and stores the file.
 *
 *   node dist/examples/node-api/file-transfer.js server OUTDIR [--transport iwarp|rocev2] [--host ADDR]   prints "PORT n"
 *   node dist/examples/node-api/file-transfer.js client PORT FILE [--host ADDR]
 *   node dist/examples/node-api/file-transfer.js [--transport rocev2]           both, as two processes, on a generated file
 *
 * On RoCE two processes of one host must own different addresses (each binds UDP 4791 on its
 * own): run both roles with SOFTRDMA_ROCE_ADDRS set apart, the server's address as --host.
 * The two-process mode does that itself (the server on 127.0.0.2, the client on 127.0.0.1).
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// softrdma/node: the Node API alone (the package root also loads the IT-API, RNICPI and wire faces).
import { openDevice, RemoteBuffer, type Transport } from '../../src/node/index.js';

const CHUNK = 64 << 10;
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
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

async function server(outDir: string): Promise<void> {
  await using dev = openDevice({ transport });
  await using listener = await dev.listen({ host });
  console.log(`PORT ${listener.port}`);
  const req = await listener.next();
  if (!req) return;
  await using conn = await req.accept();
  const { name, size } = JSON.parse((await conn.receive()).data.toString()) as { name: string; size: number };
  const target = dev.register(Buffer.alloc(size), { remoteWrite: true });
  await conn.send(Buffer.from(JSON.stringify(target)));
  const done = JSON.parse((await conn.receive()).data.toString()) as { sha256: string };
  const ok = sha256(target.buffer) === done.sha256;
  if (ok) await writeFile(join(outDir, basename(name)), target.buffer);
  await conn.send(Buffer.from(ok ? 'ok' : 'digest mismatch'));
  console.log(`server: received ${basename(name)}, ${size} bytes, sha256 ${ok ? 'verified' : 'MISMATCH'}`);
  if (!ok) process.exitCode = 1;
}

async function client(port: number, file: string): Promise<void> {
  const data = await readFile(file);
  await using dev = openDevice({ transport });
  await using conn = await dev.connect({ host, port, maxOutstanding: 32 });
  await conn.send(Buffer.from(JSON.stringify({ name: basename(file), size: data.length })));
  const remote = RemoteBuffer.from(JSON.parse((await conn.receive()).data.toString()));
  // Register the file's bytes once: every Write is zero-copy from them.
  const local = dev.register(data, { localWrite: false });
  const started = process.hrtime.bigint();
  const writes: Promise<void>[] = [];
  for (let at = 0; at < data.length; at += CHUNK) {
    const n = Math.min(CHUNK, data.length - at);
    writes.push(conn.write(local.slice(at, n), remote.slice(at, n)));
  }
  await Promise.all(writes);
  await conn.send(Buffer.from(JSON.stringify({ sha256: sha256(data) })));
  const verdict = (await conn.receive()).data.toString();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(`client: sent ${basename(file)} (${data.length} bytes in ${writes.length} RDMA Writes): ${verdict}`);
  console.error(`client: ${(data.length / 1e6 / (ms / 1e3)).toFixed(0)} MB/s`);
  if (verdict !== 'ok') process.exitCode = 1;
}

const [role, a1, a2] = args;
if (role === 'server') await server(a1 ?? '.');
else if (role === 'client') await client(Number(a1), a2!);
else {
  // Both roles, each in its own process, on a 5 MB file of random bytes.
  const dir = await mkdtemp(join(tmpdir(), 'softrdma-ft-'));
  try {
    const file = join(dir, 'payload.bin');
    await writeFile(file, randomBytes(5_000_000));
    const self = fileURLToPath(import.meta.url);
    const out = join(dir, 'out');
    await import('node:fs/promises').then((fs) => fs.mkdir(out));
    const srv = spawn(process.execPath, [self, 'server', out, '--transport', transport, ...pairHost], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: roleEnv('server'),
    });
    const port = await new Promise<number>((resolve) =>
      srv.stdout.on('data', (d: Buffer) => /PORT (\d+)/.test(String(d)) && resolve(Number(/PORT (\d+)/.exec(String(d))![1]))),
    );
    srv.stdout.pipe(process.stdout);
    const cli = spawn(process.execPath, [self, 'client', String(port), file, '--transport', transport, ...pairHost], {
      stdio: 'inherit',
      env: roleEnv('client'),
    });
    const codes = await Promise.all([srv, cli].map((c) => new Promise<number | null>((r) => c.on('exit', r))));
    const same = sha256(await readFile(join(out, 'payload.bin'))) === sha256(await readFile(file));
    console.log(`stored copy ${same ? 'identical' : 'DIFFERS'}`);
    process.exitCode = codes.every((c) => c === 0) && same ? 0 : 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

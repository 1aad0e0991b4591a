/**
 * examples/node-api run between two processes (a server and a client), on each device: iWARP
 * (softrdma0), and RoCEv2 (softroce0: rdma_cm over the IB CM on QP1).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DeviceNotFoundError, openDevice, type Transport } from '../../src/index.js';
import { freeUdpPort } from '../helpers/roce-port.js';

const T = 60_000;
const example = (name: string) => fileURLToPath(new URL(`../../examples/node-api/${name}.js`, import.meta.url));

/** Null when the transport's device exists, else the reason to skip. */
async function missing(transport: Transport): Promise<string | null> {
  try {
    await openDevice({ transport }).close();
    return null;
  } catch (e) {
    if (e instanceof DeviceNotFoundError) return `no ${transport} device in the device list yet (${e.message})`;
    throw e;
  }
}

/**
 * The environment and extra arguments of each role: on RoCE the two processes own different
 * addresses (the server 127.0.0.2, the client 127.0.0.1) on one ephemeral UDP port, as two hosts.
 */
const UDP = String(await freeUdpPort());
function roleOf(transport: Transport, role: 'server' | 'client'): { env: NodeJS.ProcessEnv; args: string[] } {
  if (transport !== 'rocev2') return { env: process.env, args: [] };
  return {
    env: { ...process.env, SOFTRDMA_ROCE_PORT: UDP, SOFTRDMA_ROCE_ADDRS: role === 'server' ? '127.0.0.2' : '127.0.0.1' },
    args: ['--host', '127.0.0.2'],
  };
}

/** Runs `node script ...args`; `port` resolves with the "PORT n" it prints; `done` with its exit code and output. */
function run(script: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const p = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  let err = '';
  let gotPort: (n: number) => void = () => {};
  const port = new Promise<number>((r) => (gotPort = r));
  p.stdout.on('data', (d: Buffer) => {
    out += d;
    const m = /PORT (\d+)/.exec(out);
    if (m) gotPort(Number(m[1]));
  });
  p.stderr.on('data', (d: Buffer) => (err += d));
  const done = new Promise<{ code: number | null; out: string; err: string }>((r) => p.on('exit', (code) => r({ code, out, err })));
  return { port, done, kill: () => p.kill('SIGKILL') };
}

for (const transport of ['iwarp', 'rocev2'] as const) {
  test(`examples/node-api/kv-cache on ${transport}: a client process reads values with one-sided RDMA Reads from a server process`, {
    timeout: T,
  }, async (t) => {
    const why = await missing(transport);
    if (why) return t.skip(why);
    const S = roleOf(transport, 'server');
    const C = roleOf(transport, 'client');
    const srv = run(example('kv-cache'), ['server', '--transport', transport, ...S.args], S.env);
    try {
      const port = await Promise.race([srv.port, srv.done.then((r) => assert.fail(`server exited ${r.code}: ${r.err}`))]);
      const cli = await run(
        example('kv-cache'),
        ['client', String(port), 'rdma', 'beta', 'nope', '--transport', transport, ...C.args],
        C.env,
      ).done;
      assert.equal(cli.code, 0, cli.err);
      assert.equal(cli.out, 'rdma = remote direct memory access\nbeta = second letter\nnope = (not found)\n');
      const s = await srv.done;
      assert.equal(s.code, 0, s.err);
      assert.match(s.out, /server: client done \(3 lookups\)/);
    } finally {
      srv.kill();
    }
  });

  test(`examples/node-api/file-transfer on ${transport}: RDMA Writes then a completion message, between two processes`, {
    timeout: T,
  }, async (t) => {
    const why = await missing(transport);
    if (why) return t.skip(why);
    const dir = await mkdtemp(join(tmpdir(), 'softrdma-ft-test-'));
    const S = roleOf(transport, 'server');
    const C = roleOf(transport, 'client');
    const srv = run(example('file-transfer'), ['server', join(dir, 'out'), '--transport', transport, ...S.args], S.env);
    try {
      await mkdir(join(dir, 'out'));
      const data = randomBytes(3 * 65536 + 12345);
      await writeFile(join(dir, 'f.bin'), data);
      const port = await Promise.race([srv.port, srv.done.then((r) => assert.fail(`server exited ${r.code}: ${r.err}`))]);
      const cli = await run(
        example('file-transfer'),
        ['client', String(port), join(dir, 'f.bin'), '--transport', transport, ...C.args],
        C.env,
      ).done;
      assert.equal(cli.code, 0, cli.err);
      assert.match(cli.out, /client: sent f\.bin \(208953 bytes in 4 RDMA Writes\): ok/);
      const s = await srv.done;
      assert.equal(s.code, 0, s.err);
      const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
      assert.equal(sha(await readFile(join(dir, 'out', 'f.bin'))), sha(data));
    } finally {
      srv.kill();
      await rm(dir, { recursive: true, force: true });
    }
  });
}

test('examples/node-api/hello (the README program) prints what the README says', { timeout: T }, async () => {
  const r = await run(example('hello'), []).done;
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, 'written: hello\n');
});

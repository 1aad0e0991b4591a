/**
 * The librdmacm example ports under examples/rdmacm/ between two processes: ucmatose with
 * several RC connections (on softroce0 over the IB CM, and on softrdma0 over TCP) and udaddy
 * (RDMA_PS_UDP: SIDR and UD Sends with immediate data, softroce0 only). On RoCE the server owns
 * 127.0.0.2 and the client 127.0.0.1, on one ephemeral UDP port.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '../helpers/net.js';
import { freeUdpPort } from '../helpers/roce-port.js';

const example = (name: string) => fileURLToPath(new URL(`../../examples/rdmacm/${name}.js`, import.meta.url));

function run(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d));
    p.stderr.on('data', (d: Buffer) => (out += d));
    const t = setTimeout(() => p.kill(), 90_000);
    p.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, out });
    });
  });
}

/** Runs the client until the server listens (a REJECTED while it is not up yet is retried). */
async function clientWhenUp(script: string, args: string[], env: Record<string, string>) {
  let r = await run(script, args, env);
  for (let i = 0; i < 20 && r.code !== 0 && /REJECTED|UNREACHABLE/.test(r.out); i++) {
    await new Promise((x) => setTimeout(x, 250));
    r = await run(script, args, env);
  }
  return r;
}

async function roceEnv() {
  const udp = String(await freeUdpPort());
  return {
    srv: { SOFTRDMA_ROCE_ADDRS: '127.0.0.2', SOFTRDMA_ROCE_PORT: udp },
    cli: { SOFTRDMA_ROCE_ADDRS: '127.0.0.1', SOFTRDMA_ROCE_PORT: udp, SOFTRDMA_DEVICE: 'softroce0' },
  };
}

test('ucmatose -c 4 on softroce0: four RC connections over the IB CM, 10 Sends each way on each, the server disconnects', {
  timeout: 180_000,
}, async () => {
  const e = await roceEnv();
  const port = String(await freePort());
  const srv = run(example('ucmatose'), ['-b', '127.0.0.2', '-p', port, '-c', '4'], e.srv);
  const cli = await clientWhenUp(example('ucmatose'), ['-s', '127.0.0.2', '-p', port, '-c', '4'], e.cli);
  assert.equal(cli.code, 0, cli.out);
  assert.match(cli.out, /receiving data transfers\nsending replies\ndata transfers complete\ntest complete\nreturn status 0/);
  const s = await srv;
  assert.equal(s.code, 0, s.out);
  assert.match(
    s.out,
    /initiating data transfers\ncompleting sends\nreceiving data transfers\ndata transfers complete\ncmatose: disconnecting\ndisconnected\ntest complete\nreturn status 0/,
  );
});

test('ucmatose -c 3 on softrdma0 (iWARP over TCP): the same program, the default device', { timeout: 180_000 }, async () => {
  const port = String(await freePort());
  const srv = run(example('ucmatose'), ['-b', '127.0.0.1', '-p', port, '-c', '3'], {});
  const cli = await clientWhenUp(example('ucmatose'), ['-s', '127.0.0.1', '-p', port, '-c', '3'], {});
  assert.equal(cli.code, 0, cli.out);
  const s = await srv;
  assert.equal(s.code, 0, s.out);
  assert.match(s.out, /disconnected\ntest complete\nreturn status 0/);
});

test("udaddy on softroce0: SIDR resolves the server's UD QP; 10 datagrams with the sender's QPN as immediate, 10 replies addressed from the completion", {
  timeout: 180_000,
}, async () => {
  const e = await roceEnv();
  // udaddy's port is fixed (7174): a RoCE service ID, no TCP port, private to each process's device.
  const srv = run(example('udaddy'), ['-b', '127.0.0.2'], e.srv);
  // RDMA_PS_UDP exists on the RoCE device only: no SOFTRDMA_DEVICE needed.
  const { SOFTRDMA_DEVICE: _d, ...cliEnv } = e.cli;
  const cli = await clientWhenUp(example('udaddy'), ['-s', '127.0.0.2'], cliEnv);
  assert.equal(cli.code, 0, cli.out);
  assert.equal(
    cli.out,
    'udaddy: starting client\nudaddy: connecting\ninitiating data transfers\nreceiving data transfers\ndata transfers complete\ntest complete\n',
  );
  const s = await srv;
  assert.equal(s.code, 0, s.out);
  assert.equal(s.out, 'udaddy: starting server\nreceiving data transfers\nsending replies\ndata transfers complete\ntest complete\n');
});

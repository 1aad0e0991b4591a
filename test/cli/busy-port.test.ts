/**
 * A server on a port that is in use says so first, in our words: no "Waiting for client" line
 * and no "local address" line before the error.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import net from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });

async function busyPort(): Promise<{ port: number; close: () => void }> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { port: (s.address() as net.AddressInfo).port, close: () => s.close() };
}

test('perf --server on a busy port: the error, and no "Waiting for client" before it', async () => {
  const b = await busyPort();
  try {
    const r = run('perf', 'write', '--server', '--bind', '127.0.0.1', '-p', String(b.port));
    assert.equal(r.signal, null);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /EADDRINUSE|already in use/);
    assert.doesNotMatch(r.stdout, /Waiting for client/);
  } finally {
    b.close();
  }
});

test('pingpong server on a busy port: our message first, no "local address" line', async () => {
  const b = await busyPort();
  try {
    const r = run('pingpong', 'rc', '-d', 'softroce0', '-p', String(b.port));
    assert.equal(r.signal, null);
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`^Couldn't listen to port ${b.port} on all addresses: address already in use \\(EADDRINUSE\\)`));
    assert.equal(r.stdout, '');
  } finally {
    b.close();
  }
});

test('pingpong refuses the iWARP device at once, with the reason', () => {
  const r = run('pingpong', 'rc', '-d', 'softrdma0', '127.0.0.1');
  assert.equal(r.status, 1);
  assert.match(r.stderr, /softrdma0 is an iWARP device: .*no connection manager/);
  assert.equal(r.stdout, '');
});

test('perf -R on softroce0 whose RoCE UDP port is taken by another socket: the connection fails at once with ENETDOWN and the hint (no silent exit)', async () => {
  // Another process's RoCE stack on 127.0.0.1:P, as a plain socket holding the address.
  const taken = dgram.createSocket('udp4');
  await new Promise<void>((r) => taken.bind(0, '127.0.0.1', () => r()));
  const port = taken.address().port;
  try {
    const r = spawnSync(process.execPath, [bin, 'perf', 'write', '-R', '-d', 'softroce0', '127.0.0.1'], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, SOFTRDMA_ROCE_PORT: String(port), SOFTRDMA_ROCE_ADDRS: '127.0.0.1' },
    });
    assert.equal(r.signal, null, 'perf ended by itself');
    assert.equal(r.status, 1, `exit status (13 is Node's "unsettled top-level await": the silent exit)\n${r.stderr}`);
    assert.match(r.stderr, /ENETDOWN.*on this side; is another RoCE stack .* using UDP port 4791/);
  } finally {
    taken.close();
  }
});

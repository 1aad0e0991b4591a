/**
 * The CLI as a user meets it: --version, help for every command, devices / link, devinfo's
 * bad port, a busy port and a refused connection by name, and perf naming its mode.
 */
import { freePort } from '../helpers/net.js';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });
const COMMANDS = ['devices', 'devinfo', 'link', 'rping', 'perf'];

function holdPort(): Promise<{ port: number; close: () => void }> {
  const s = net.createServer();
  return new Promise((resolve) =>
    s.listen({ port: 0, host: '127.0.0.1' }, () => resolve({ port: (s.address() as net.AddressInfo).port, close: () => s.close() })),
  );
}

test('softrdma --version prints the package version', () => {
  const r = run('--version');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^softrdma \d+\.\d+\.\d+/);
});

test("softrdma help CMD and CMD --help print that command's usage, for every command", () => {
  for (const c of COMMANDS) {
    const a = run('help', c);
    assert.equal(a.status, 0, c);
    assert.match(a.stdout, new RegExp(`^Usage: softrdma ${c}`), c);
    const b = run(c, '--help');
    assert.equal(b.status, 0, c);
    assert.equal(b.stdout, a.stdout, c);
  }
  const bad = run('help', 'frob');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /unknown command 'frob'/);
});

test('softrdma devices lists the devices (iWARP and RoCEv2) and their node GUIDs as ibv_devices does', () => {
  const r = run('devices');
  assert.equal(r.status, 0);
  assert.match(
    r.stdout,
    /^ {4}device {10}\t {3}node GUID\n {4}------ {10}\t-{16}\n {4}softrdma0 {7}\t[0-9a-f]{16}\n {4}softroce0 {7}\t[0-9a-f]{16}\n$/,
  );
  assert.equal(JSON.parse(run('devices', '--json').stdout)[0].device, 'softrdma0');
});

test('softrdma link shows the port as rdma link does: state, physical state, transport, netdevs', () => {
  const r = run('link');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^link softrdma0\/1 state ACTIVE physical_state LINK_UP transport iWARP netdev .*127\.0\.0\.1/m);
  const j = JSON.parse(run('link', '--json').stdout);
  assert.equal(j[0].port, 1);
  assert.equal(run('link', 'show', 'softrdma0/2').status, 1);
  assert.equal(run('link', 'nodev').status, 1);
});

test('softrdma devinfo -i 2 fails as ibv_devinfo does: "Invalid port requested for device", non-zero', () => {
  const r = run('devinfo', '-i', '2');
  assert.equal(r.status, 4);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, 'Invalid port requested for device\n');
  assert.equal(run('devinfo', '-i', '0').status, 1);
  assert.match(run('devinfo', '-i', '1').stdout, /port:\t1/);
});

test('a busy port: perf --server and rping -s name EADDRINUSE and exit non-zero', async () => {
  const held = await holdPort();
  try {
    const p = run('perf', 'write', '--server', '--bind', '127.0.0.1', '-p', String(held.port));
    assert.equal(p.status, 1);
    assert.match(p.stderr, new RegExp(`rdma_listen: 127\\.0\\.0\\.1 port ${held.port} is already in use \\(EADDRINUSE\\)`));
    const r = run('rping', '-s', '-a', '127.0.0.1', '-p', String(held.port));
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /rping server failed: .*EADDRINUSE/);
  } finally {
    held.close();
  }
});

test('a refused connection reads as one line naming ECONNREFUSED (perf and rping clients)', async () => {
  const port = String(await freePort());
  const p = run('perf', 'write', '127.0.0.1', '-p', port);
  assert.equal(p.status, 1);
  assert.match(
    p.stderr,
    new RegExp(`connection to 127\\.0\\.0\\.1:${port} refused: ECONNREFUSED \\(Connection refused\\); is a server running`),
  );
  assert.doesNotMatch(p.stderr, /bl blka/);
  const r = run('rping', '-c', '-a', '127.0.0.1', '-p', port, '-C', '1');
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /rping client failed: connection to 127\.0\.0\.1:\d+ refused: ECONNREFUSED/);
});

test('perf says which mode it is in (loopback, client, server) on stderr, and nothing with --json', async () => {
  const lo = run('perf', 'write', '-n', '20', '-s', '4096');
  assert.equal(lo.status, 0, lo.stderr);
  assert.match(lo.stderr, /^softrdma perf: write_bw loopback: server and client on 127\.0\.0\.1/m);
  const js = run('perf', 'write', '-n', '20', '-s', '4096', '--json');
  assert.equal(js.status, 0, js.stderr);
  assert.doesNotMatch(js.stderr, /loopback/);
  const port = String(await freePort());
  const srv = spawn(process.execPath, [bin, 'perf', 'write', '--server', '--bind', '127.0.0.1', '-p', port, '-n', '20', '-s', '4096'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let serr = '';
  srv.stderr.on('data', (d: Buffer) => (serr += d));
  const srvOut = new Promise<void>((resolve) =>
    srv.stdout.on('data', (d: Buffer) => String(d).includes('Waiting for client') && resolve()),
  );
  await srvOut;
  const cl = spawnSync(process.execPath, [bin, 'perf', 'write', '127.0.0.1', '-p', port, '-n', '20', '-s', '4096'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(cl.status, 0, cl.stderr);
  assert.match(cl.stderr, new RegExp(`write_bw client: connecting to 127\\.0\\.0\\.1 port ${port}`));
  await new Promise((resolve) => srv.once('exit', resolve));
  assert.match(serr, new RegExp(`write_bw server: waiting for a client on 127\\.0\\.0\\.1 port ${port}`));
});

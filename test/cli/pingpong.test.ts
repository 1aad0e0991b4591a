/**
 * `softrdma pingpong rc|uc|ud|srq`: both roles in one process over the RoCE device, its QPs
 * carried by the in-process loopback link, and two processes over RoCEv2 on loopback UDP
 * (`SOFTRDMA_ROCE_ADDRS` gives each its own address); the interop suite runs them against
 * rdma-core's own programs. Checks the rdma-core output lines, the exchange and the counts.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cli } from '../../src/cli/cli.js';
import { gidText } from '../../src/cli/pingpong.js';
import { freePort } from '../helpers/net.js';
import { useLoopbackLink } from '../verbs/roce.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await cli(args, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

const ADDR =
  /^ {2}local address: {2}LID 0x[0-9a-f]{4}, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, GID \S+\n {2}remote address: LID 0x[0-9a-f]{4}, QPN 0x([0-9a-f]{6}), PSN 0x[0-9a-f]{6}, GID \S+\n/;

for (const kind of ['rc', 'uc', 'ud'] as const) {
  test(`pingpong ${kind}: server and client exchange addresses over TCP and ping-pong 200 messages`, async () => {
    const restore = useLoopbackLink();
    try {
      const port = await freePort();
      const size = kind === 'ud' ? '512' : '4096';
      const common = ['-p', String(port), '-g', '0', '-n', '200', '-s', size];
      const chk = kind === 'rc' ? ['-c'] : [];
      const server = run(['pingpong', kind, ...common, ...chk]);
      await new Promise((r) => setTimeout(r, 100));
      const client = await run(['pingpong', kind, ...common, ...chk, '-e', '127.0.0.1']);
      const srv = await server;
      assert.equal(client.code, 0, client.err);
      assert.equal(srv.code, 0, srv.err);
      for (const r of [client, srv]) {
        assert.match(r.out, ADDR);
        assert.match(r.out, new RegExp(`^${Number(size) * 400} bytes in \\d+\\.\\d\\d seconds = \\d+\\.\\d\\d Mbit/sec$`, 'm'));
        assert.match(r.out, /^200 iters in \d+\.\d\d seconds = \d+\.\d\d usec\/iter$/m);
        assert.doesNotMatch(r.out, /invalid data/);
      }
    } finally {
      restore();
    }
  });
}

test('pingpong srq: 16 QPs on one shared receive queue, 256 addresses exchanged each way, 400 exchanges', async () => {
  const restore = useLoopbackLink();
  try {
    const port = await freePort();
    const common = ['-p', String(port), '-g', '0', '-n', '400', '-s', '2048', '-c'];
    const server = run(['pingpong', 'srq', ...common]);
    await new Promise((r) => setTimeout(r, 100));
    const client = await run(['pingpong', 'srq', ...common, '127.0.0.1']);
    const srv = await server;
    assert.equal(client.code, 0, client.err);
    assert.equal(srv.code, 0, srv.err);
    for (const r of [client, srv]) {
      assert.equal(r.out.match(/^ {2}local address: {2}LID 0x0000, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, GID \S+$/gm)?.length, 16);
      assert.equal(r.out.match(/^ {2}remote address: LID 0x0000, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, GID \S+$/gm)?.length, 16);
      assert.match(r.out, /^1638400 bytes in \d+\.\d\d seconds = \d+\.\d\d Mbit\/sec$/m);
      assert.doesNotMatch(r.out, /invalid data/);
    }
    // Each side's remote QPNs are the other's local ones, in order.
    const qpns = (out: string, side: string) =>
      [...out.matchAll(new RegExp(`${side} address: +LID 0x0000, QPN 0x([0-9a-f]{6})`, 'g'))].map((m) => m[1]);
    assert.deepEqual(qpns(client.out, 'remote'), qpns(srv.out, 'local'));
    assert.deepEqual(qpns(srv.out, 'remote'), qpns(client.out, 'local'));
  } finally {
    restore();
  }
});

const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function spawnPp(gids: string, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [bin, 'pingpong', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SOFTRDMA_ROCE_ADDRS: gids },
    });
    let out = '';
    let err = '';
    c.stdout.on('data', (d: Buffer) => (out += d));
    c.stderr.on('data', (d: Buffer) => (err += d));
    const t = setTimeout(() => c.kill(), 60_000);
    c.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, out, err });
    });
  });
}

for (const [kind, extra] of [
  ['rc', ['-s', '65536', '-n', '20', '-c']],
  ['rc', ['-s', '1', '-n', '200']],
  ['srq', ['-q', '4', '-n', '100', '-c']],
  ['ud', ['-s', '1024', '-n', '100', '-c']],
  ['uc', ['-s', '4096', '-n', '100']],
] as const) {
  test(`pingpong ${kind} ${extra.join(' ')}: two processes over RoCEv2 on loopback UDP, -g 1`, { timeout: 90_000 }, async () => {
    const port = String(await freePort());
    // Each process: GID 1 its own loopback address (as rxe's -g 1 is its IPv4 GID), GID 0
    // another address of its own (a UD QP binds every GID of the table).
    const net = `127.0.${kind === 'rc' ? (extra[1] === '1' ? 31 : 30) : kind === 'srq' ? 32 : kind === 'ud' ? 33 : 34}`;
    const args = [kind, '-g', '1', '-p', port, ...extra];
    const srv = spawnPp(`${net}.8,${net}.2`, args);
    let cli = await spawnPp(`${net}.9,${net}.1`, [...args, '127.0.0.1']);
    for (let i = 0; i < 40 && cli.code !== 0 && /ECONNREFUSED|Couldn't connect/.test(cli.err); i++) {
      await new Promise((r) => setTimeout(r, 100));
      cli = await spawnPp(`${net}.9,${net}.1`, [...args, '127.0.0.1']);
    }
    const s = await srv;
    assert.equal(cli.code, 0, cli.err);
    assert.equal(s.code, 0, s.err);
    assert.match(cli.out, new RegExp(`local address: +LID 0x0000, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, GID ::ffff:${net}\\.1$`, 'm'));
    assert.match(cli.out, new RegExp(`remote address: LID 0x0000, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, GID ::ffff:${net}\\.2$`, 'm'));
    for (const r of [cli, s]) {
      assert.match(r.out, /iters in \d+\.\d\d seconds = \d+\.\d\d usec\/iter$/m);
      assert.doesNotMatch(r.out, /invalid data/);
    }
  });
}

test("pingpong: bad arguments and a UD size above the port MTU are refused with rdma-core's message", async () => {
  const r = await run(['pingpong', 'xx']);
  assert.equal(r.code, 2);
  assert.match(r.err, /say rc, uc, ud or srq \(got 'xx'\)/);
  assert.match(
    (await run(['pingpong', 'srq', '-q', '20', '-r', '10'])).err,
    /rx_depth 10 is too small for 20 QPs -- must have at least one receive per QP\./,
  );
  assert.match(
    (await run(['pingpong', 'srq', '-q', '300', '-r', '1000'])).err,
    /-q\/--num-qp: bad value '300' \(allowed: an integer 1 … 255\)/,
  );
  assert.match((await run(['pingpong', 'rc', '-q', '2'])).err, /-q\/--num-qp is for srq only/);
  assert.match((await run(['pingpong', 'rc', '-t'])).err, /The device isn't completion timestamp capable/);
  assert.match((await run(['pingpong', 'rc', '-o'])).err, /The device isn't ODP capable/);
  assert.match((await run(['pingpong', 'uc', '-N'])).err, /-N\/--new_send is for rc only/);
  const m = await run(['pingpong', 'rc', '-m', '1000']);
  assert.equal(m.code, 2);
  assert.match(m.err, /-m\/--mtu: bad value '1000' \(allowed: 256, 512, 1024, 2048, 4096\)/);
  const u = await run(['pingpong', 'ud', '-s', '100000', '-p', String(await freePort())]);
  assert.equal(u.code, 1);
  assert.match(u.err, /Requested size larger than port MTU \(\d+\)/);
});

test('pingpong: GIDs print as inet_ntop prints them', () => {
  const g = (...b: number[]) => new Uint8Array(b);
  assert.equal(gidText(g(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 168, 77, 1)), '::ffff:192.168.77.1');
  assert.equal(gidText(new Uint8Array(16)), '::');
  assert.equal(gidText(g(0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55)), 'fe80::211:22ff:fe33:4455');
  assert.equal(gidText(g(0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1)), '2001:db8:0:1::1');
});

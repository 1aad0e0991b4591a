/**
 * `softrdma pingpong rc|uc|ud`: both roles in one process over the RoCE device, its QPs carried
 * by the in-process loopback link (the RoCEv2 wire is tested by the interop suite against
 * rdma-core's own programs). Checks the rdma-core output lines, the exchange and the counts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
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

const ADDR = /^ {2}local address: {2}LID 0x[0-9a-f]{4}, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, GID \S+\n {2}remote address: LID 0x[0-9a-f]{4}, QPN 0x([0-9a-f]{6}), PSN 0x[0-9a-f]{6}, GID \S+\n/;

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

test('pingpong: bad arguments and a UD size above the port MTU are refused with rdma-core\'s message', async () => {
  const r = await run(['pingpong', 'xx']);
  assert.equal(r.code, 1);
  assert.match(r.err, /say rc, uc or ud/);
  const m = await run(['pingpong', 'rc', '-m', '1000']);
  assert.match(m.err, /invalid MTU 1000/);
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

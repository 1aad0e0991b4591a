/**
 * `softrdma rping` over IPv6 on the RoCE device: rdma_cm with IPv6 addresses, as rdma-core's
 * rping takes them (`-a fd…`), between two processes on two ULA addresses of a veth pair in a
 * network namespace the test makes (`nodad`, so they are usable at once). Needs root and iproute2.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ip, nsSkipReason } from '../helpers/netns.js';

const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function rping(ns: string, gids: string, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const c = spawn('ip', ['netns', 'exec', ns, process.execPath, bin, 'rping', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SOFTRDMA_DEVICE: 'softroce0', SOFTRDMA_ROCE_ADDRS: gids },
    });
    let out = '';
    let err = '';
    c.stdout.on('data', (d: Buffer) => (out += d));
    c.stderr.on('data', (d: Buffer) => (err += d));
    const t = setTimeout(() => c.kill(), 60_000);
    c.on('close', (code) => {
      clearTimeout(t);
      resolve({ code, out, err });
    });
  });
}

test('softrdma rping -a <IPv6> on softroce0: a server on one ULA address, a client on another, -C 100 -V', {
  skip: nsSkipReason(),
  timeout: 120_000,
}, async () => {
  const ns = `srr6-${process.pid}`;
  const [a, b] = ['fd52:6f43:4577::1', 'fd52:6f43:4577::2'];
  ip('netns', 'add', ns);
  try {
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    ip('-n', ns, 'link', 'add', 'srr6v0', 'type', 'veth', 'peer', 'name', 'srr6v1');
    for (const d of ['srr6v0', 'srr6v1']) ip('-n', ns, 'link', 'set', d, 'up');
    ip('-n', ns, 'addr', 'add', `${a}/64`, 'dev', 'srr6v0', 'nodad');
    ip('-n', ns, 'addr', 'add', `${b}/64`, 'dev', 'srr6v1', 'nodad');
    const srv = rping(ns, a, ['-s', '-a', a, '-p', '7471', '-C', '100', '-V', '-v']);
    let cli = await rping(ns, b, ['-c', '-a', a, '-p', '7471', '-C', '100', '-V', '-d']);
    // The server may not listen yet: rdma_cm rejects the REQ (no such service), as for rping.
    for (let i = 0; i < 40 && cli.code !== 0 && /refused|REJECTED/.test(cli.out + cli.err); i++) {
      await new Promise((r) => setTimeout(r, 200));
      cli = await rping(ns, b, ['-c', '-a', a, '-p', '7471', '-C', '100', '-V', '-d']);
    }
    const s = await srv;
    assert.equal(cli.code, 0, `client: ${cli.out}${cli.err}`);
    assert.equal(s.code, 0, `server: ${s.out}${s.err}`);
    assert.equal(s.out.match(/^server ping data: rdma-ping-\d+: /gm)?.length, 100, s.out);
    assert.doesNotMatch(cli.out + cli.err, /data mismatch/);
  } finally {
    spawnSync('ip', ['netns', 'del', ns]);
  }
});

/**
 * The IT-API rping server (examples/itapi/rping-server.ts) against softrdma's own rping client
 * (`softrdma rping -c`, rdma_cm/verbs face) on 127.0.0.1: 10 pings with validation, and both
 * processes exit 0. The same server against Linux siw is test/interop/itapi-rping.test.ts. On the
 * RoCE Interface (`--device softroce0`: the IB CM on QP1) against `SOFTRDMA_DEVICE=softroce0
 * softrdma rping -c`, 100 pings at 64 B and 65535 B; the two processes own 127.0.0.2 and
 * 127.0.0.1 on one ephemeral RoCEv2 port. Against Linux rxe: test/interop/roce-cm.test.ts.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freeUdpPort } from '../helpers/roce-port.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '../..');
const server = join(dist, 'examples/itapi/rping-server.js');
const cli = join(dist, 'src/cli/main.js');
const COUNT = 10;

function start(
  args: string[],
  env: Record<string, string> = {},
): { lines: string[]; done: Promise<number>; waitFor: (re: RegExp) => Promise<RegExpExecArray | null>; kill: () => void } {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  for (const s of [child.stdout, child.stderr]) {
    let rest = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      const parts = (rest + d).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts);
      for (const w of [...waiters]) w();
    });
    s.on('end', () => {
      if (rest) lines.push(rest);
    });
  }
  const done = new Promise<number>((res) => child.on('close', (code, sig) => res(code ?? (sig ? 128 : 1))));
  const waitFor = (re: RegExp): Promise<RegExpExecArray | null> =>
    new Promise((res) => {
      const check = (): void => {
        for (const l of lines) {
          const m = re.exec(l);
          if (m) {
            waiters.splice(waiters.indexOf(check), 1);
            res(m);
            return;
          }
        }
      };
      waiters.push(check);
      void done.then(() => {
        check();
        res(null);
      });
      check();
    });
  return { lines, done, waitFor, kill: () => child.kill() };
}

test('examples/itapi/rping-server: answers softrdma rping -c -C 10 -V over 127.0.0.1', { timeout: 60_000 }, async () => {
  const srv = start([server, '--addr', '127.0.0.1', '--port', '0', '--count', String(COUNT), '-v']);
  let cl: ReturnType<typeof start> | null = null;
  try {
    const m = await srv.waitFor(/^rping server listening on 127\.0\.0\.1:(\d+)$/);
    assert.ok(m, `server did not listen:\n${srv.lines.join('\n')}`);
    cl = start([cli, 'rping', '-c', '-C', String(COUNT), '-V', '-v', '-a', '127.0.0.1', '-p', m[1]!]);
    const [c, s] = await Promise.all([cl.done, srv.done]);
    const transcript = `client:\n${cl.lines.join('\n')}\nserver:\n${srv.lines.join('\n')}`;
    assert.equal(c, 0, `client exit status\n${transcript}`);
    assert.equal(s, 0, `server exit status\n${transcript}`);
    const served = srv.lines.filter((l) => /^server ping data: rdma-ping-\d+: /.test(l));
    assert.equal(served.length, COUNT, transcript);
    for (const [i, l] of served.entries()) assert.match(l, new RegExp(`^server ping data: rdma-ping-${i}: [A-z]{50}$`));
    const pings = cl.lines.filter((l) => l.startsWith('ping data: '));
    assert.deepEqual(
      pings,
      served.map((l) => l.slice('server '.length)),
      'the client got back what the server read',
    );
    assert.ok(srv.lines.includes('server DISCONNECT EVENT...'), transcript);
    assert.ok(srv.lines.includes(`rping server: ${COUNT} pings served`), transcript);
  } finally {
    srv.kill();
    cl?.kill();
  }
});

test('examples/itapi/rping-server: a client that stops early is a failure for --count', { timeout: 60_000 }, async () => {
  const srv = start([server, '--addr', '127.0.0.1', '--port', '0', '--count', '5']);
  try {
    const m = await srv.waitFor(/^rping server listening on 127\.0\.0\.1:(\d+)$/);
    assert.ok(m);
    const cl = start([cli, 'rping', '-c', '-C', '2', '-V', '-a', '127.0.0.1', '-p', m[1]!]);
    const [c, s] = await Promise.all([cl.done, srv.done]);
    assert.equal(c, 0);
    assert.equal(s, 1, srv.lines.join('\n'));
    assert.ok(srv.lines.includes('rping server: 2 pings served'), srv.lines.join('\n'));
    assert.ok(srv.lines.includes('server DISCONNECT EVENT...'), srv.lines.join('\n'));
  } finally {
    srv.kill();
  }
});

test('examples/itapi/rping-server: an address that is not local is refused', { timeout: 20_000 }, async () => {
  const srv = start([server, '--addr', '192.0.2.77', '--port', '0']);
  assert.equal(await srv.done, 1);
  assert.ok(
    srv.lines.some((l) => /192\.0\.2\.77 is not an address of this host/.test(l)),
    srv.lines.join('\n'),
  );
});

for (const size of [64, 65535]) {
  test(`examples/itapi/rping-server --device softroce0: softrdma rping -c -C 100 -V -S ${size} on RoCE (IB CM on QP1)`, {
    timeout: 120_000,
  }, async () => {
    const udp = String(await freeUdpPort());
    const srv = start(
      [server, '--device', 'softroce0', '--addr', '127.0.0.2', '--port', '0', '--count', '100', '--size', String(size), '-v'],
      {
        SOFTRDMA_ROCE_ADDRS: '127.0.0.2',
        SOFTRDMA_ROCE_PORT: udp,
      },
    );
    let cl: ReturnType<typeof start> | null = null;
    try {
      const m = await srv.waitFor(/^rping server listening on 127\.0\.0\.2:(\d+)$/);
      assert.ok(m, `server did not listen:\n${srv.lines.join('\n')}`);
      cl = start([cli, 'rping', '-c', '-C', '100', '-S', String(size), '-V', '-a', '127.0.0.2', '-p', m[1]!], {
        SOFTRDMA_ROCE_ADDRS: '127.0.0.1',
        SOFTRDMA_ROCE_PORT: udp,
        SOFTRDMA_DEVICE: 'softroce0',
      });
      const [c, s] = await Promise.all([cl.done, srv.done]);
      const transcript = `client:\n${cl.lines.slice(-5).join('\n')}\nserver:\n${srv.lines.slice(-5).join('\n')}`;
      assert.equal(c, 0, `client exit status\n${transcript}`);
      assert.equal(s, 0, `server exit status\n${transcript}`);
      const served = srv.lines.filter((l) => /^server ping data: rdma-ping-\d+: /.test(l));
      assert.equal(served.length, 100, transcript);
      assert.match(served[99]!, /^server ping data: rdma-ping-99: /);
      assert.ok(srv.lines.includes('server DISCONNECT EVENT...'), transcript);
      assert.ok(srv.lines.includes('rping server: 100 pings served'), transcript);
    } finally {
      srv.kill();
      cl?.kill();
    }
  });
}

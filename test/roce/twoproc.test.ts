/**
 * RoCEv2 between two processes over loopback UDP (127.0.0.1 and 127.0.0.2, one ephemeral
 * port): 16 MiB RDMA-Written in 1 MiB messages, its SHA-256 Sent and checked by the target,
 * then read back with RDMA Reads and compared byte for byte. The same over IPv6, between two
 * ULA addresses of a veth pair in a network namespace the test makes (`nodad`, so they
 * are usable at once); that one needs root and iproute2.
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { RoceNet } from '../../src/roce/net.js';
import { ip, nsSkipReason } from '../helpers/netns.js';

const peer = fileURLToPath(new URL('./fixtures/roce-peer.js', import.meta.url));

interface Proc {
  p: ChildProcessWithoutNullStreams;
  out: string[];
  next(re: RegExp): Promise<RegExpExecArray>;
  exit: Promise<{ code: number | null; err: string }>;
}

/** A peer process; in network namespace `ns` when one is given. */
function start(role: string, addr: string, port: number, ns?: string): Proc {
  const argv = [peer, role, addr, String(port)];
  const p = ns ? spawn('ip', ['netns', 'exec', ns, process.execPath, ...argv]) : spawn(process.execPath, argv);
  const out: string[] = [];
  let err = '';
  const waiters: [RegExp, (m: RegExpExecArray) => void][] = [];
  let buf = '';
  p.stdout.on('data', (d: Buffer) => {
    buf += d;
    let i = buf.indexOf('\n');
    while (i >= 0) {
      const l = buf.slice(0, i);
      buf = buf.slice(i + 1);
      out.push(l);
      for (const w of [...waiters]) {
        const m = w[0].exec(l);
        if (m) {
          waiters.splice(waiters.indexOf(w), 1);
          w[1](m);
        }
      }
      i = buf.indexOf('\n');
    }
  });
  p.stderr.on('data', (d: Buffer) => (err += d));
  const exit = new Promise<{ code: number | null; err: string }>((r) => p.on('exit', (code) => r({ code, err })));
  return {
    p,
    out,
    exit,
    next: (re) =>
      new Promise((resolve, reject) => {
        const seen = out.map((l) => re.exec(l)).find((m) => m);
        if (seen) return resolve(seen);
        waiters.push([re, resolve]);
        void exit.then((x) => reject(new Error(`exited ${x.code} before ${re}: ${x.err}`)));
      }),
  };
}

/** Runs the exchange between a server on `srvAddr` and a client on `cliAddr`. */
async function exchange(srvAddr: string, cliAddr: string, port: number, ns?: string): Promise<void> {
  const srv = start('server', srvAddr, port, ns);
  const cli = start('client', cliAddr, port, ns);
  try {
    const [, sq] = await srv.next(/^QPN (\d+)/);
    const [, cq] = await cli.next(/^QPN (\d+)/);
    srv.p.stdin.write(`QPN ${cq} ${cliAddr}\n`);
    cli.p.stdin.write(`QPN ${sq} ${srvAddr}\n`);
    const [mr] = await srv.next(/^MR \d+ \d+/);
    cli.p.stdin.write(`${mr}\n`);
    await cli.next(/^CLIENT OK/);
    await srv.next(/^SERVER OK/);
    srv.p.stdin.write('DONE\n');
    const [c, s] = await Promise.all([cli.exit, srv.exit]);
    assert.equal(c.code, 0, c.err);
    assert.equal(s.code, 0, s.err);
  } finally {
    srv.p.kill();
    cli.p.kill();
  }
}

test('two processes: 16 MiB RDMA Write, a digest Send and RDMA Read back over RoCEv2', { timeout: 180_000 }, async () => {
  // An ephemeral port free on 127.0.0.1 (the probe is closed before the children bind it).
  const probe = RoceNet.acquire('127.0.0.1', 0);
  await probe.ready;
  const port = probe.port;
  probe.close();
  await exchange('127.0.0.2', '127.0.0.1', port);
});

test('two processes on two IPv6 addresses: the same exchange over RoCEv2 on IPv6', { skip: nsSkipReason(), timeout: 180_000 }, async () => {
  const ns = `sr6-${process.pid}`;
  const [a, b] = ['fd52:6f43:4576::1', 'fd52:6f43:4576::2'];
  ip('netns', 'add', ns);
  try {
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    // A veth pair, one address on each end (a dummy interface needs a module not every kernel has).
    ip('-n', ns, 'link', 'add', 'sr6v0', 'type', 'veth', 'peer', 'name', 'sr6v1');
    // Up first, then the addresses: bringing an interface up re-runs IPv6 address configuration.
    for (const d of ['sr6v0', 'sr6v1']) ip('-n', ns, 'link', 'set', d, 'up');
    ip('-n', ns, 'addr', 'add', `${a}/64`, 'dev', 'sr6v0', 'nodad');
    ip('-n', ns, 'addr', 'add', `${b}/64`, 'dev', 'sr6v1', 'nodad');
    await exchange(a, b, 4791, ns);
  } finally {
    spawnSync('ip', ['netns', 'del', ns]);
  }
});

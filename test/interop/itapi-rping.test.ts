/**
 * Interop (issue 9): IT-API against a real peer. The IT-API rping server
 * (examples/itapi/rping-server.ts) runs on the host inside the kernel-peer harness's network
 * namespace (192.168.77.1) and answers `rping -c -C 10 -V -v` of a Linux guest (siw, rdma-core
 * 44.0) booted by `run-guest.sh`.
 *
 * Needs root and the harness (/work/shared/interop/kernel-peer, see its README): env
 * KERNEL_PEER_DIR, else `../shared/interop/kernel-peer` next to the repository. The guest image
 * must exist (/var/cache/kernel-peer/out/vmlinux, or KP_CACHE/out); with
 * SOFTRDMA_INTEROP_SETUP=1 the test runs `setup.sh` to build it. Otherwise the test is skipped
 * with the reason. Run with `npm run test:interop`.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const server = join(repo, 'dist/examples/itapi/rping-server.js');
const HOST_IP = '192.168.77.1';
const PORT = 7174;
const COUNT = 10;

/** The harness directory, or the reason why the test cannot run. */
function harness(): { dir: string } | { skip: string } {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return { skip: 'needs root (the kernel-peer harness uses a netns, a tap and qemu)' };
  const dir = process.env.KERNEL_PEER_DIR ?? resolve(repo, '../shared/interop/kernel-peer');
  if (!existsSync(join(dir, 'run-guest.sh')) || !existsSync(join(dir, 'host-exec.sh'))) return { skip: `no kernel-peer harness at ${dir} (set KERNEL_PEER_DIR)` };
  const image = join(process.env.KP_CACHE ?? '/var/cache/kernel-peer', 'out/vmlinux');
  if (!existsSync(image)) {
    if (process.env.SOFTRDMA_INTEROP_SETUP !== '1') return { skip: `no guest image (${image}): run ${dir}/setup.sh as root, or set SOFTRDMA_INTEROP_SETUP=1` };
    const r = spawnSync(join(dir, 'setup.sh'), [], { cwd: dir, stdio: 'inherit', timeout: 900_000 });
    if (r.status !== 0 || !existsSync(image)) return { skip: `setup.sh failed (status ${r.status})` };
  }
  return { dir };
}

/** Collects a child's stdout+stderr lines and its exit status. */
function run(cmd: string, args: string[], cwd: string): { child: ChildProcess; lines: string[]; done: Promise<number>; wait: (re: RegExp, ms: number) => Promise<boolean> } {
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const watchers: Array<() => void> = [];
  for (const s of [child.stdout!, child.stderr!]) {
    let rest = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      const parts = (rest + d).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts);
      for (const w of watchers) w();
    });
    s.on('end', () => {
      if (rest) lines.push(rest);
    });
  }
  const done = new Promise<number>((res) => child.on('close', (code, sig) => res(code ?? (sig ? 128 : 1))));
  const wait = (re: RegExp, ms: number): Promise<boolean> =>
    new Promise((res) => {
      const check = (): void => {
        if (lines.some((l) => re.test(l))) finish(true);
      };
      const timer = setTimeout(() => finish(false), ms);
      const finish = (v: boolean): void => {
        clearTimeout(timer);
        const i = watchers.indexOf(check);
        if (i >= 0) watchers.splice(i, 1);
        res(v);
      };
      watchers.push(check);
      void done.then(() => finish(lines.some((l) => re.test(l))));
      check();
    });
  return { child, lines, done, wait };
}

const h = harness();

test(
  'interop: the IT-API rping server answers the kernel-peer guest’s rping -c -C 10 -V (Linux siw)',
  { skip: 'skip' in h ? h.skip : false, timeout: 300_000 },
  async () => {
    if ('skip' in h) return;
    assert.ok(existsSync(server), `${server} missing: npm run build`);
    const srv = run(join(h.dir, 'host-exec.sh'), ['node', server, '--addr', HOST_IP, '--port', String(PORT), '--count', String(COUNT), '-v'], h.dir);
    let guest: ReturnType<typeof run> | null = null;
    let guestRc = -1;
    let serverRc = -1;
    try {
      const listening = await srv.wait(new RegExp(`^rping server listening on ${HOST_IP.replace(/\./g, '\\.')}:${PORT}$`), 20_000);
      assert.ok(listening, `the server did not start listening:\n${srv.lines.join('\n')}`);
      guest = run(join(h.dir, 'run-guest.sh'), ['-t', '240', `rping -c -a ${HOST_IP} -p ${PORT} -C ${COUNT} -V -v`], h.dir);
      guestRc = await guest.done;
      const t = setTimeout(() => srv.child.kill('SIGTERM'), 30_000);
      serverRc = await srv.done;
      clearTimeout(t);
    } finally {
      if (srv.child.exitCode === null && srv.child.signalCode === null) srv.child.kill('SIGTERM');
      if (guest && guest.child.exitCode === null) guest.child.kill('SIGTERM');
      console.log(`---- guest: rping -c -a ${HOST_IP} -p ${PORT} -C ${COUNT} -V -v (run-guest.sh rc ${guestRc}) ----`);
      for (const l of guest?.lines ?? []) console.log(`[guest] ${l}`);
      console.log(`---- host (netns rdmapeer): IT-API rping-server.js (rc ${serverRc}) ----`);
      for (const l of srv.lines) console.log(`[itapi-server] ${l}`);
    }
    const gl = guest?.lines ?? [];
    const pings = gl.filter((l) => /^ping data: rdma-ping-\d+: /.test(l));
    assert.equal(pings.length, COUNT, `guest printed ${pings.length} ping lines`);
    for (const [i, l] of pings.entries()) assert.match(l, new RegExp(`^ping data: rdma-ping-${i}: `));
    assert.ok(!gl.some((l) => /data mismatch|failed|error/i.test(l)), 'guest reported an error');
    assert.equal(guestRc, 0, 'guest rping exit status');
    const served = srv.lines.filter((l) => /^server ping data: rdma-ping-\d+: /.test(l));
    assert.equal(served.length, COUNT, `server printed ${served.length} ping lines`);
    // What the server read is what the guest validated and printed.
    for (const [i, l] of served.entries()) assert.equal(l.slice('server '.length), pings[i]);
    assert.ok(srv.lines.includes('server DISCONNECT EVENT...'), 'server saw the disconnect');
    assert.equal(serverRc, 0, 'server exit status');
  },
);

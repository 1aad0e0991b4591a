/**
 * An unmodified C program over softrdma: perftest's `ib_write_bw` (Debian's binary) under
 * `softrdma exec`, through libsoftrdma.so and `softrdma daemon`, against a `softrdma perf write
 * --bw --server` on softroce0; beside it, in the same run and against the same kind of server,
 * `softrdma perf write --bw` as the client. The ratio is what the preloaded library and the
 * daemon's forwarding cost (or save) against softrdma's own client.
 *
 * Each RoCE process binds UDP 4791 on its GID's address, so the three take their own loopback
 * addresses (`SOFTRDMA_ROCE_ADDRS`): the server 127.0.0.2, the daemon 127.0.0.3, perf's client
 * 127.0.0.1. A missing library, addon or ib_write_bw gives rows that say so, never a failure.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { preloadLibraryPath } from '../src/cli/daemon.js';
import { preloadAddon } from '../src/preload/native.js';
import { type BenchRow, type BenchSection, quick, ratioRow } from './harness.js';
import { freePort, have } from './peers.js';
import { MIB, rounds } from './rdma.js';

const cli = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SERVER_ADDR = '127.0.0.2';
const DAEMON_ADDR = '127.0.0.3';

/** Runs `node main.js ARGS`; resolves with its stdout once it exits 0, and `ready` once its stdout matches `until`. */
function run(args: string[], env: NodeJS.ProcessEnv, until?: RegExp): { ready: Promise<void>; done: Promise<string> } {
  const p = spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let ready: () => void = () => {};
  const readyP = new Promise<void>((r) => (ready = r));
  p.stdout.on('data', (d: Buffer) => {
    out += d;
    if (until?.test(out)) ready();
  });
  p.stderr.on('data', (d: Buffer) => (err += d));
  const t = setTimeout(() => p.kill('SIGKILL'), 120_000);
  const done = new Promise<string>((resolve, reject) =>
    p.on('exit', (code) => {
      clearTimeout(t);
      ready();
      code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}: ${err.trim().split('\n').pop()}`));
    }),
  );
  return { ready: readyP, done };
}

/** perftest's bw row ("bytes iterations peak average msgrate"): the average, in 10^6 octets/s. */
function bwAverage(out: string, size: number): number {
  const row = out.split('\n').find((l) => new RegExp(`^\\s*${size}\\s+\\d+\\s+[\\d.]+\\s+[\\d.]+`).test(l));
  if (!row) throw new Error(`no ${size}-octet result row`);
  return (Number(row.trim().split(/\s+/)[3]) * MIB) / 1e6;
}

/** One measurement: a fresh perf server, then `client(port)` against it. */
async function against(size: number, n: number, client: (port: number) => { done: Promise<string> }): Promise<number> {
  const port = await freePort();
  const common = ['-d', 'softroce0', '-x', '0', '-s', String(size), '-n', String(n), '-p', String(port)];
  const srv = run(['perf', 'write', '--bw', '--server', ...common], { SOFTRDMA_ROCE_ADDRS: SERVER_ADDR }, /Waiting for client to connect/);
  srv.done.catch(() => {});
  await srv.ready;
  const out = await client(port).done;
  await srv.done;
  return bwAverage(out, size);
}

export const execSection: BenchSection = {
  name: 'softrdma exec: perftest ib_write_bw (C, unmodified) through libsoftrdma.so and the daemon vs softrdma perf, softroce0, loopback, same run',
  async run(): Promise<BenchRow[]> {
    const why = !existsSync(preloadLibraryPath())
      ? 'libsoftrdma.so is not built (needs a C compiler and libibverbs-dev at install)'
      : !preloadAddon()
        ? 'softrdma_preload.node is not built (no node_api.h at install)'
        : !(await have('ib_write_bw'))
          ? 'ib_write_bw is not installed (Debian perftest)'
          : null;
    if (why) return [{ name: `softrdma exec rows skipped: ${why}`, value: Number.NaN, unit: '' }];
    const dir = mkdtempSync(join(tmpdir(), 'softrdma-bench-exec-'));
    const socket = join(dir, 'd.sock');
    const daemon = spawn(process.execPath, [cli, 'daemon', '--socket', socket], {
      env: { ...process.env, SOFTRDMA_ROCE_ADDRS: DAEMON_ADDR },
      stdio: 'ignore',
    });
    const rows: BenchRow[] = [];
    try {
      for (let i = 0; !existsSync(socket); i++) {
        if (i > 200) throw new Error('softrdma daemon did not start');
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const size of [64, 4096, 65536]) {
        const n = Math.max(1000, Math.min(quick ? 20_000 : 50_000, Math.floor(((quick ? 16 : 64) * (1 << 20)) / size)));
        const args = (port: number) => ['-d', 'softroce0', '-x', '0', '-s', String(size), '-n', String(n), '-p', String(port), SERVER_ADDR];
        const m = await rounds(
          {
            exec: () => against(size, n, (port) => run(['exec', '--socket', socket, '--', 'ib_write_bw', ...args(port)], {})),
            perf: () => against(size, n, (port) => run(['perf', 'write', '--bw', ...args(port)], {})),
          },
          quick ? 1 : 3,
        );
        const l = size >= 1024 ? `${size / 1024} KiB` : `${size} B`;
        rows.push({ name: `softrdma perf write --bw ${l} → perf server (softroce0)`, value: m.perf!, unit: 'MB/s' });
        rows.push(
          ratioRow(`ib_write_bw ${l} under softrdma exec → perf server`, m.exec!, 'MB/s', m.perf!, `softrdma perf write --bw ${l}`),
        );
      }
    } finally {
      daemon.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};

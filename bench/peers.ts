/**
 * softrdma beside the C stacks that move RDMA-style traffic over TCP, in the same run on the
 * same loopback: UCX over its tcp transport (`ucx_perftest` from Debian's `ucx-utils`: tag_bw,
 * ucp_put_bw, tag_lat) and libfabric's tcp provider (`fi_pingpong` from `libfabric-bin`).
 * Each row's ratio is against the peer figure measured minutes (not days) apart, interleaved
 * round by round like the raw TCP baselines (bench/rdma.ts).
 *
 * Units: ucx_perftest and perf print "MB/s" as perftest does, 2^20 octets per second; both are
 * converted to 10^6 here. UCX's and libfabric's latencies are one-way (half a round trip), as
 * perf's t_typical: each is doubled to a round trip. A missing tool gives a row that says so
 * (value n/a), never a failure.
 */
import { execFile, spawn } from 'node:child_process';
import net from 'node:net';
import { type BenchRow, type BenchSection, GOALS, type Goal, quick, ratioRow, skippedRow } from './harness.js';
import { MIB, perf, rounds } from './rdma.js';

const KiB = 1024;
const label = (n: number): string => (n >= 1 << 20 ? `${n >> 20} MiB` : n >= KiB ? `${n / KiB} KiB` : `${n} B`);

/** Whether `cmd` is on the PATH. */
export function have(cmd: string): Promise<boolean> {
  return new Promise((r) => execFile('sh', ['-c', `command -v ${cmd}`], (e) => r(!e)));
}

/** A TCP port nobody listens on now (the tools bind their own). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
    s.on('error', reject);
  });
}

/** Waits until something listens on `port`. */
async function listening(port: number, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((r) => {
      const c = net.connect({ port, host: '127.0.0.1' }, () => {
        c.destroy();
        r(true);
      });
      c.on('error', () => r(false));
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs a server and a client of one tool; resolves with the client's stdout. */
async function serverClient(
  cmd: string,
  server: string[],
  client: (port: number) => string[],
  port: number,
  env: NodeJS.ProcessEnv,
  probe = true,
): Promise<string> {
  const run = (args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const p = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      p.stdout.on('data', (d: Buffer) => (out += d));
      p.stderr.on('data', (d: Buffer) => (err += d));
      const t = setTimeout(() => p.kill('SIGKILL'), 120_000);
      p.on('exit', (code) => {
        clearTimeout(t);
        code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err.trim().split('\n').pop()}`));
      });
    });
  const srv = run(server);
  srv.catch(() => {});
  // ucx_perftest's and fi_pingpong's servers accept one connection: probing would use it up,
  // so wait instead.
  if (probe) await listening(port);
  else await new Promise((r) => setTimeout(r, 500));
  const out = await run(client(port));
  await srv;
  return out;
}

const UCX_ENV = { UCX_TLS: 'tcp', UCX_NET_DEVICES: 'lo' };

/** ucx_perftest's "Final:" row: iterations, overhead 50%ile/avg/overall (µs), bandwidth avg/overall (MiB/s), msg rate avg/overall. */
async function ucx(test: string, size: number, iters: number): Promise<{ bw: number; lat: number }> {
  const port = await freePort();
  const out = await serverClient(
    'ucx_perftest',
    ['-p', String(port)],
    (p) => ['127.0.0.1', '-p', String(p), '-t', test, '-s', String(size), '-n', String(iters)],
    port,
    UCX_ENV,
    false,
  );
  const line = out.split('\n').find((l) => l.startsWith('Final:'));
  if (!line) throw new Error(`ucx_perftest ${test}: no Final row`);
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  return { bw: (f[4]! * MIB) / 1e6, lat: f[1]! };
}

/** fi_pingpong over libfabric's tcp provider (msg endpoints): usec/xfer is one way. */
async function fiPingpong(size: number, iters: number): Promise<number> {
  const port = await freePort();
  const args = ['-p', 'tcp', '-e', 'msg', '-S', String(size), '-I', String(iters)];
  const out = await serverClient(
    'fi_pingpong',
    [...args, '-B', String(port)],
    (p) => [...args, '-P', String(p), '127.0.0.1'],
    port,
    {},
    false,
  );
  const row = out.split('\n').find((l) => new RegExp(`^${size}\\s`).test(l));
  if (!row) throw new Error('fi_pingpong: no result row');
  return Number(row.trim().split(/\s+/)[6]);
}

export const peersSection: BenchSection = {
  name: 'peers: softrdma vs UCX over tcp (ucx_perftest) and libfabric tcp (fi_pingpong), loopback, same run',
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    const hasUcx = await have('ucx_perftest');
    const hasFi = await have('fi_pingpong');
    const ucxGoals: Goal[] = [GOALS.ucxWrite1k, GOALS.ucxSend1k, GOALS.ucxWrite4k, GOALS.ucxSend4k, GOALS.ucxSend64];
    if (!hasUcx) rows.push(...ucxGoals.map((g) => skippedRow(g, 'ucx_perftest not installed (Debian ucx-utils)')));
    if (!hasFi)
      rows.push({ name: 'libfabric rows skipped: fi_pingpong not installed (Debian libfabric-bin)', value: Number.NaN, unit: '' });
    if (!hasUcx && !hasFi) return rows;
    const sizes = quick ? [64, KiB, 4 * KiB, 64 * KiB] : [64, KiB, 4 * KiB, 64 * KiB, 1 << 20];
    // The targets: Write and Send at 1 KiB and 4 KiB at least the better of UCX's put and tag
    // figures; Send 64 B at least tag_bw. The other sizes are informational.
    const goalAt: Record<number, [Goal | undefined, Goal | undefined]> = {
      64: [undefined, GOALS.ucxSend64],
      [KiB]: [GOALS.ucxWrite1k, GOALS.ucxSend1k],
      [4 * KiB]: [GOALS.ucxWrite4k, GOALS.ucxSend4k],
    };
    if (hasUcx) {
      for (const size of sizes) {
        const n = Math.max(500, Math.min(quick ? 20_000 : 100_000, Math.floor(((quick ? 64 : 256) * (1 << 20)) / size)));
        const m = await rounds(
          {
            tag: async () => (await ucx('tag_bw', size, n)).bw,
            put: async () => (await ucx('ucp_put_bw', size, n)).bw,
            write: async () => (await perf(`write --bw -s ${size} -n ${n}`)).mbps,
            send: async () => (await perf(`send --bw -s ${size} -n ${n}`)).mbps,
          },
          quick ? 1 : 3,
        );
        const l = label(size);
        rows.push({ name: `UCX tcp ${l}: ucp_put_bw`, value: m.put!, unit: 'MB/s' });
        rows.push({ name: `UCX tcp ${l}: tag_bw`, value: m.tag!, unit: 'MB/s' });
        const [gw, gs] = goalAt[size] ?? [undefined, undefined];
        const best = Math.max(m.put!, m.tag!);
        const bestVs = `UCX ${m.put! >= m.tag! ? 'ucp_put_bw' : 'tag_bw'} ${l} (the better)`;
        rows.push(
          gw
            ? ratioRow(`RDMA Write ${l} (perf write --bw)`, m.write!, 'MB/s', best, bestVs, gw)
            : ratioRow(`RDMA Write ${l} (perf write --bw)`, m.write!, 'MB/s', m.put!, `UCX ucp_put_bw ${l}`),
        );
        rows.push(
          gs === GOALS.ucxSend64 || !gs
            ? ratioRow(`Send ${l} (perf send --bw)`, m.send!, 'MB/s', m.tag!, `UCX tag_bw ${l}`, gs)
            : ratioRow(`Send ${l} (perf send --bw)`, m.send!, 'MB/s', best, bestVs, gs),
        );
      }
    }
    // Round trips, busy-polling on every side (the C tools always poll).
    const iters = quick ? 5000 : 20000;
    const m = await rounds(
      {
        ...(hasUcx ? { ucx: async () => 2 * (await ucx('tag_lat', 8, iters)).lat } : {}),
        ...(hasFi ? { fi: async () => 2 * (await fiPingpong(64, iters)) } : {}),
        busy8: async () => 2 * (await perf(`send --lat -s 8 -n ${iters} --busy-poll`)).t_typical!,
        busy64: async () => 2 * (await perf(`send --lat -s 64 -n ${iters} --busy-poll`)).t_typical!,
      },
      quick ? 1 : 3,
    );
    if (m.ucx !== undefined) {
      rows.push({ name: 'UCX tcp 8 B round trip (2 × tag_lat median)', value: m.ucx, unit: 'µs' });
      rows.push(
        ratioRow('Send 8 B round trip, busy-poll (2 × perf send --lat t_typical)', m.busy8!, 'µs', m.ucx, 'UCX tag_lat 8 B', { max: 2.0 }),
      );
    }
    if (m.fi !== undefined) {
      rows.push({ name: 'libfabric tcp 64 B round trip (2 × fi_pingpong usec/xfer, mean)', value: m.fi, unit: 'µs' });
      rows.push(ratioRow('Send 64 B round trip, busy-poll', m.busy64!, 'µs', m.fi, 'fi_pingpong 64 B', { max: 2.0 }));
    }
    return rows;
  },
};

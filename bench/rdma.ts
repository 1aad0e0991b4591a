/**
 * Loopback RDMA Write bandwidth beside raw Node TCP with the same write size, each side in
 * its own process, in one run (ratios are the only figures that hold on a shared machine).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchRow, BenchSection } from './harness.js';

const peer = fileURLToPath(new URL('./peer.js', import.meta.url));

function start(args: string[]): { port: Promise<number>; result: Promise<string> } {
  const p = spawn(process.execPath, [peer, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let resolvePort: (n: number) => void = () => {};
  const port = new Promise<number>((r) => (resolvePort = r));
  p.stdout.on('data', (d: Buffer) => {
    out += d;
    const m = /PORT (\d+)/.exec(out);
    if (m) resolvePort(Number(m[1]));
  });
  const result = new Promise<string>((resolve, reject) =>
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args[0]} exited ${code}`)))),
  );
  return { port, result };
}

async function pairRun(kind: 'raw' | 'rdma', size: number, total: number, crc = false): Promise<number> {
  const srv = start([`${kind}-server`]);
  const port = await srv.port;
  const cli = start([`${kind}-client`, String(port), String(size), String(total), crc ? 'crc' : 'nocrc']);
  const out = await cli.result;
  await srv.result;
  const line = out.trim().split('\n').pop()!;
  return (JSON.parse(line) as { mbps: number }).mbps;
}

export const rdmaSection: BenchSection = {
  name: 'loopback bandwidth: RDMA Write vs raw Node TCP (two processes)',
  async run(): Promise<BenchRow[]> {
    const quick = process.argv.includes('--quick');
    const total = quick ? 256 << 20 : 1 << 30;
    // Each figure is the median of `rounds` runs.
    const rows: BenchRow[] = [];
    // Rounds interleave the three runs so that machine noise hits all of them alike; medians.
    const rounds = 3;
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
    for (const size of [64 << 10, 1 << 20]) {
      const label = size === 1 << 20 ? '1 MiB' : '64 KiB';
      const rs: number[] = [];
      const ws: number[] = [];
      const wcs: number[] = [];
      for (let i = 0; i < rounds; i++) {
        rs.push(await pairRun('raw', size, total));
        ws.push(await pairRun('rdma', size, total));
        wcs.push(await pairRun('rdma', size, total, true));
      }
      const raw = median(rs);
      const w = median(ws);
      const wc = median(wcs);
      rows.push({ name: `raw TCP ${label} writes`, value: raw, unit: 'MB/s' });
      rows.push({ name: `RDMA Write ${label}, CRC off`, value: w, unit: 'MB/s' });
      rows.push({ name: `RDMA Write ${label}, CRC off / raw TCP`, value: (w / raw) * 100, unit: '%' });
      rows.push({ name: `RDMA Write ${label}, CRC on`, value: wc, unit: 'MB/s' });
      rows.push({ name: `RDMA Write ${label}, CRC on / raw TCP`, value: (wc / raw) * 100, unit: '%' });
    }
    return rows;
  },
};

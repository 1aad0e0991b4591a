/**
 * `softrdma stat` and `device.counters()`: the RoCE counters of a running process, by rxe's
 * names, read by another process from what each process publishes; per device and per QP.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openDevice } from '../../src/index.js';
import { ROCE_COUNTERS } from '../../src/roce/counters.js';
import { until } from '../helpers/engine.js';
import { useEphemeralRocePort } from '../helpers/roce-port.js';

const dir = mkdtempSync(join(tmpdir(), 'softrdma-stat-'));
process.env.SOFTRDMA_STATS_DIR = dir;
await useEphemeralRocePort('127.0.0.1');
const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const fixture = fileURLToPath(new URL('../node/peer-fixture.js', import.meta.url));

function stat(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, 'stat', ...args], { encoding: 'utf8', env: process.env });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test("softrdma stat shows a running server's counters by rxe's names (link and qp), the client has the same through device.counters(); a process that exits disappears", {
  timeout: 120_000,
}, async () => {
  const child: ChildProcess = spawn(process.execPath, [fixture, 'rocev2'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, SOFTRDMA_ROCE_ADDRS: '127.0.0.2' },
  });
  try {
    let out = '';
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d;
        const m = /PORT (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (c) => reject(new Error(`fixture exited ${c}`)));
    });
    await using dev = openDevice({ transport: 'rocev2' });
    await using c = await dev.connect({ host: '127.0.0.2', port });
    for (let i = 0; i < 10; i++) await c.send(Buffer.from(`message ${i}`));
    const mine = dev.counters();
    assert.deepEqual(
      Object.keys(mine),
      ROCE_COUNTERS.map(([n]) => n),
      'every counter, in rxe order',
    );
    assert.ok(mine.rdma_sends >= 10 && mine.sent_pkts >= 10 && mine.rcvd_pkts >= 1, JSON.stringify(mine));
    assert.equal(mine.retry_exceeded_err, 0);

    // The server is another process: its published counters show the 10 receives.
    const pid = child.pid!;
    type Row = Record<string, number | string>;
    let link: Row | undefined;
    await until(
      () => {
        const rows = JSON.parse(stat('--json').out) as Row[];
        link = rows.find((r) => r.pid === pid && r.ifname === 'softroce0');
        return link !== undefined && (link.rdma_recvs as number) >= 10;
      },
      30_000,
      "the server's published counters",
    );
    assert.equal(link!.port, 1);
    for (const [n] of ROCE_COUNTERS) assert.equal(typeof link![n], 'number', n);
    const qps = JSON.parse(stat('qp', 'show', '--json').out) as Row[];
    const q = qps.find((r) => r.pid === pid && r['qp-type'] === 'RC');
    assert.ok(q && (q.rdma_recvs as number) >= 10, JSON.stringify(qps));
    const text = stat('show', 'link', 'softroce0/1');
    assert.equal(text.code, 0);
    assert.match(
      text.out,
      new RegExp(
        `^link softroce0/1 pid ${pid} comm peer-fixture\\.js sent_pkts \\d+ rcvd_pkts \\d+ duplicate_request \\d+ out_of_seq_request \\d+ .* rdma_recvs \\d+`,
        'm',
      ),
    );
    assert.match(stat('--help').out, /out_of_seq_request +responder: requests received ahead of the expected PSN/);

    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const after = JSON.parse(stat('--json').out) as Row[];
    assert.ok(!after.some((r) => r.pid === pid), 'a dead process is not shown');
  } finally {
    child.kill('SIGKILL');
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

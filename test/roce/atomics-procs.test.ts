/**
 * Issue 16 acceptance on RoCEv2: six softrdma processes on softroce0 (rdma_cm over the IB CM on
 * QP1, each process on its own loopback address), as test/rnic/atomics-procs.test.ts does on
 * iWARP. Three clients each run 10,000 Fetch-and-Adds on one shared counter, and two more take
 * and release a Compare-and-Swap lock 5,000 times each around a read-increment-write of a
 * protected value; the server then checks the counter, the lock and the value exactly.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const fixture = fileURLToPath(new URL('./fixtures/atomics-node.js', import.meta.url));

function run(addr: string, args: string[], onLine?: (l: string) => void): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [fixture, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SOFTRDMA_ROCE_ADDRS: addr },
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d;
      for (const l of d.toString().split('\n')) if (l) onLine?.(l);
    });
    p.stderr.on('data', (d: Buffer) => (err += d));
    p.on('exit', (code) => resolve({ code, out, err }));
  });
}

test('six processes over RoCEv2: 3 × 10,000 Fetch-and-Adds give exactly 30,000; a CAS lock taken 10,000 times by two clients loses no update', {
  timeout: 600_000,
}, async () => {
  let resolvePort: (p: number) => void;
  const portP = new Promise<number>((r) => (resolvePort = r));
  const srv = run('127.0.0.2', ['server', '5'], (l) => {
    const m = /^PORT (\d+)/.exec(l);
    if (m) resolvePort(Number(m[1]));
  });
  const port = String(await Promise.race([portP, srv.then((s) => assert.fail(`server exited ${s.code}: ${s.err}`))]));
  const clients = await Promise.all([
    run('127.0.0.11', ['client', port, 'faa', '10000', '1']),
    run('127.0.0.12', ['client', port, 'faa', '10000', '2']),
    run('127.0.0.13', ['client', port, 'faa', '10000', '3']),
    run('127.0.0.14', ['client', port, 'lock', '5000', '4']),
    run('127.0.0.15', ['client', port, 'lock', '5000', '5']),
  ]);
  for (const r of clients) {
    assert.equal(r.code, 0, `client: ${r.err}`);
    assert.match(r.out, /CLIENT OK/);
  }
  const s = await srv;
  assert.equal(s.code, 0, `server: ${s.err}`);
  assert.match(s.out, /^COUNTER 30000 LOCK 0 VALUE 10000$/m);
});

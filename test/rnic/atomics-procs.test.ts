/**
 * Issue 16 acceptance across processes: softrdma processes over real TCP on iWARP (RFC 7306
 * agreed in the MPA exchange), CRCs on and off. Three client processes each run 10,000
 * Fetch-and-Adds on one shared counter, and two more take and release a Compare-and-Swap lock
 * 5,000 times each (10,000 in all) around a read-increment-write of a protected value; the
 * server process then checks the counter, the lock and the value exactly.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const fixture = fileURLToPath(new URL('./fixtures/atomics-proc.js', import.meta.url));

function run(args: string[], onLine?: (l: string) => void): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [fixture, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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

for (const crc of [false, true]) {
  test(`six processes, CRC ${crc ? 'on' : 'off'}: 3 × 10,000 Fetch-and-Adds give exactly 30,000; a CAS lock taken 10,000 times by two clients loses no update`, {
    timeout: 600_000,
  }, async () => {
    let resolvePort: (p: number) => void;
    const portP = new Promise<number>((r) => (resolvePort = r));
    const srv = run(['server', '5', crc ? '1' : '0'], (l) => {
      const m = /^PORT (\d+)/.exec(l);
      if (m) resolvePort(Number(m[1]));
    });
    const port = String(await portP);
    const c = crc ? '1' : '0';
    const clients = await Promise.all([
      run(['client', port, 'faa', '10000', c, '1']),
      run(['client', port, 'faa', '10000', c, '2']),
      run(['client', port, 'faa', '10000', c, '3']),
      run(['client', port, 'lock', '5000', c, '4']),
      run(['client', port, 'lock', '5000', c, '5']),
    ]);
    for (const r of clients) {
      assert.equal(r.code, 0, `client: ${r.err}`);
      assert.match(r.out, /CLIENT OK/);
    }
    const s = await srv;
    assert.equal(s.code, 0, `server: ${s.err}`);
    assert.match(s.out, /^COUNTER 30000 LOCK 0 VALUE 10000$/m);
  });
}

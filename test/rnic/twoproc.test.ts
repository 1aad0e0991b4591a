import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const peer = fileURLToPath(new URL('./fixtures/bigxfer.js', import.meta.url));

function run(args: string[], onLine?: (l: string) => void): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [peer, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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

test('two processes: 64 MiB RDMA-Written in 1 MiB chunks, read back, digest sent and verified byte for byte', {
  timeout: 180_000,
}, async () => {
  let resolvePort: (p: number) => void;
  const portP = new Promise<number>((r) => (resolvePort = r));
  const srv = run(['server'], (l) => {
    const m = /^PORT (\d+)/.exec(l);
    if (m) resolvePort(Number(m[1]));
  });
  const port = await portP;
  const cli = await run(['client', String(port)]);
  const s = await srv;
  assert.equal(cli.code, 0, `client: ${cli.err}`);
  assert.equal(s.code, 0, `server: ${s.err}`);
  assert.match(s.out, /SERVER OK/);
  assert.match(cli.out, /CLIENT OK/);
  console.log(cli.out.trim());
});

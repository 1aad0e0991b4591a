/**
 * The V8 setting for fast socket receivers (src/util/gc-tuning.ts), shown by what it is for: the
 * receiving end of `softrdma perf write --bw -s 1M` (a fresh process each run, since V8 flags
 * are per process), whose full collections are counted from `--trace-gc`'s Mark-Compact lines.
 * No time is measured.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const ITERS = '800';

async function freePort(): Promise<number> {
  const s = net.createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as net.AddressInfo).port;
  s.close();
  return port;
}

/**
 * The server's (the Writes' sink's) young-generation collections started by socket buffers
 * ("external memory pressure"), and its Mark-Compacts from the first of them on: the data phase.
 */
async function sinkGcs(tuning: string): Promise<{ young: number; full: number }> {
  const port = String(await freePort());
  const env = { ...process.env, SOFTRDMA_GC_TUNING: tuning };
  const args = ['perf', 'write', '--bw', '-s', '1M', '-n', ITERS, '-p', port];
  const srv = spawn(process.execPath, ['--trace-gc', bin, ...args, '--server'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  srv.stdout.on('data', (d: Buffer) => (out += d));
  srv.stderr.on('data', (d: Buffer) => (out += d));
  const srvExit = once(srv, 'exit');
  // The client retries its connection until the server listens (perftest's behaviour).
  await new Promise((r) => setTimeout(r, 500));
  const cli = spawn(process.execPath, [bin, ...args, '127.0.0.1'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  cli.stderr.on('data', (d: Buffer) => (err += d));
  const [code] = (await once(cli, 'exit')) as [number];
  assert.equal(code, 0, err);
  const [scode] = (await srvExit) as [number];
  assert.equal(scode, 0, out.slice(-800));
  assert.match(out, /1048576\s+800\s/, 'the server reports the 800 Writes');
  const lines = out.split('\n');
  const first = lines.findIndex((l) => l.includes('Scavenge') && l.includes('external memory pressure'));
  const data = first < 0 ? [] : lines.slice(first);
  return {
    young: data.filter((l) => l.includes('Scavenge') && l.includes('external memory pressure')).length,
    full: data.filter((l) => l.includes('Mark-Compact')).length,
  };
}

const v8Major = Number.parseInt(process.versions.v8, 10);

const known = v8Major >= 9 && v8Major <= 13;

// Without the setting the same sink does up to one full collection per young one (16 to 110 in
// a run of this size here); how many depends on how close the old generation sits to V8's
// threshold, so that side is a measurement (docs/performance.md), not a test.
test('the sink of 800 RDMA Writes of 1 MiB does no full collection per young one (SOFTRDMA_GC_TUNING default)', {
  skip: known ? false : `V8 ${process.versions.v8}: the setting is applied on V8 9 to 13 only`,
}, async () => {
  const { young, full } = await sinkGcs('1');
  // 800 MiB is about 25 young-generation collections of 32 MiB of socket buffers each.
  assert.ok(young >= 10, `only ${young} young-generation collections from socket buffers`);
  // A few full collections while the old generation grows to its working size are V8's normal
  // behaviour, with or without the setting: three back to back early in the run were seen with
  // both processes sharing one core. What the setting removes is one after most young ones.
  assert.ok(full * 4 <= young, `${full} Mark-Compacts against ${young} young collections, with the setting`);
});

/**
 * `softrdma perf`: the loopback mode (client here, server in a second process) for every test,
 * the client/server roles on an explicit port, --json, duration mode, and option errors.
 * Numbers are not asserted beyond sanity (positive, finite): timing depends on the machine.
 */
import { freePort } from '../helpers/net.js';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

interface Out {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `softrdma perf ...` to completion (asynchronously, so tests can overlap). */
function perf(...args: string[]): Promise<Out> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [bin, 'perf', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d: Buffer) => (stdout += d));
    c.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => c.kill(), 30_000);
    c.on('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

const BW_ROW = /^ (\d+)\s+(\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)$/;
const LAT_ROW = /^ (\d+)\s+(\d+)((?:\s+\d+\.\d+){7})\s*$/;

function bwRows(stdout: string): { bytes: number; iters: number; peak: number; avg: number; rate: number }[] {
  return stdout
    .split('\n')
    .map((l) => BW_ROW.exec(l))
    .filter((m) => m !== null)
    .map((m) => ({ bytes: Number(m[1]), iters: Number(m[2]), peak: Number(m[3]), avg: Number(m[4]), rate: Number(m[5]) }));
}

function latRows(stdout: string): { bytes: number; iters: number; v: number[] }[] {
  return stdout
    .split('\n')
    .map((l) => LAT_ROW.exec(l))
    .filter((m) => m !== null)
    .map((m) => ({ bytes: Number(m[1]), iters: Number(m[2]), v: m[3]!.trim().split(/\s+/).map(Number) }));
}

function checkBw(r: Out, sizes: number[], iters: number): void {
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Transport type : IW/);
  assert.match(r.stdout, /Data ex\. method : rdma_cm/);
  assert.match(r.stdout, / #bytes {5}#iterations {4}BW peak\[MB\/sec\] {4}BW average\[MB\/sec\] {3}MsgRate\[Mpps\]/);
  assert.match(r.stdout, /^ local address: LID 0000 QPN 0x[0-9a-f]{4,} PSN 0x[0-9a-f]+/m);
  assert.match(r.stdout, /^ GID: 02:83:79:70:00:00(:00){10}$/m);
  const rows = bwRows(r.stdout);
  assert.deepEqual(
    rows.map((x) => x.bytes),
    sizes,
  );
  for (const x of rows) {
    assert.equal(x.iters, iters);
    // The table prints MB/s with two decimals, so tiny runs (2 B × 10 iterations, a few ms on a
    // loaded machine) legitimately show 0.00; the message rate (six decimals) must be positive.
    assert.ok(Number.isFinite(x.avg) && (x.avg > 0 || x.bytes * x.iters < 64 * 1024), `average ${x.avg} at ${x.bytes} B`);
    assert.ok(x.rate > 0, `message rate ${x.rate}`);
    assert.ok(x.peak >= 0);
  }
}

test('perf write -a: loopback, one row per size 2 B … 8 MiB', { timeout: 40_000 }, async () => {
  const r = await perf('write', '-a', '-n', '10');
  assert.match(r.stdout, /^ {20}RDMA_Write BW Test$/m);
  assert.match(r.stdout, /RKey 0x[0-9a-f]{6,} VAddr 0x[0-9a-f]{14}/);
  checkBw(
    r,
    Array.from({ length: 23 }, (_, i) => 2 ** (i + 1)),
    10,
  );
});

test('perf read and send --bw: loopback at two sizes each', { timeout: 40_000 }, async () => {
  const [r1, r2, s1, s2] = await Promise.all([
    perf('read', '-s', '4096', '-n', '200'),
    perf('read', '-s', '1M', '-n', '20', '--busy-poll'),
    perf('send', '-s', '64', '-n', '600'),
    perf('send', '-s', '256K', '-n', '30'),
  ]);
  checkBw(r1, [4096], 200);
  assert.match(r1.stdout, /^ {20}RDMA_Read BW Test$/m);
  assert.match(r1.stdout, / Outstand reads {2}: 128/);
  assert.match(r1.stdout, / OUT 0x80 RKey/);
  checkBw(r2, [1048576], 20);
  checkBw(s1, [64], 600);
  assert.match(s1.stdout, /^ {20}Send BW Test$/m);
  checkBw(s2, [262144], 30);
});

test('perf --lat: write, read and send latency on loopback', { timeout: 40_000 }, async () => {
  const runs = await Promise.all([
    perf('write', '--lat', '-n', '100'),
    perf('read', '--lat', '-s', '64', '-n', '100'),
    perf('send', '--lat', '-n', '100', '--busy-poll'),
  ]);
  const sizes = [2, 64, 2];
  runs.forEach((r, i) => {
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Latency Test/);
    assert.match(
      r.stdout,
      / #bytes #iterations {4}t_min\[usec\] {4}t_max\[usec\] {2}t_typical\[usec\] {4}t_avg\[usec\] {4}t_stdev\[usec\] {3}99% percentile\[usec\] {3}99\.9% percentile\[usec\] $/m,
    );
    const rows = latRows(r.stdout);
    assert.equal(rows.length, 1);
    const [min, max, typical, avg, , p99, p999] = rows[0]!.v as [number, number, number, number, number, number, number];
    assert.equal(rows[0]!.bytes, sizes[i]);
    assert.equal(rows[0]!.iters, 100);
    assert.ok(min > 0 && min <= typical && typical <= max && avg > 0, rows[0]!.v.join(' '));
    assert.ok(p99 <= p999 && p999 <= max);
  });
});

test('perf atomic --bw|--lat (ib_atomic_bw / ib_atomic_lat, -A): loopback between two softrdma processes over RFC 7306', {
  timeout: 40_000,
}, async () => {
  const [faa, cas, lat, bad] = await Promise.all([
    perf('atomic', '-n', '300'),
    perf('atomic', '--bw', '-A', 'CMP_AND_SWAP', '-n', '200', '-o', '16'),
    perf('atomic', '--lat', '-A', 'CMP_AND_SWAP', '-n', '100'),
    perf('atomic', '-A', 'SWAP'),
  ]);
  checkBw(faa, [8], 300);
  assert.match(faa.stdout, /^ {20}Atomic FETCH_AND_ADD BW Test$/m);
  assert.match(faa.stdout, / Outstand reads {2}: 128/);
  checkBw(cas, [8], 200);
  assert.match(cas.stdout, /^ {20}Atomic CMP_AND_SWAP BW Test$/m);
  assert.match(cas.stdout, / OUT 0x10 RKey/);
  assert.equal(lat.status, 0, lat.stderr);
  assert.match(lat.stdout, /^ {20}Atomic CMP_AND_SWAP Latency Test$/m);
  const rows = latRows(lat.stdout);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.bytes, 8);
  assert.equal(rows[0]!.iters, 100);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /-A\/--atomic_type: bad value 'SWAP' \(allowed: CMP_AND_SWAP, FETCH_AND_ADD\)/);
});

test('perf --json: one object per size with the table fields', { timeout: 40_000 }, async () => {
  const [bw, lat] = await Promise.all([perf('send', '-a', '-n', '5', '--json'), perf('read', '--lat', '-n', '50', '--json')]);
  assert.equal(bw.status, 0, bw.stderr);
  const rows = bw.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(rows.length, 23);
  rows.forEach((o, i) => {
    assert.equal(o.test, 'send_bw');
    assert.equal(o.bytes, 2 ** (i + 1));
    assert.equal(o.iterations, 5);
    assert.equal(o.bw_unit, 'MB/sec');
    assert.ok((o.bw_average as number) > 0 && (o.msg_rate as number) > 0);
  });
  assert.equal(lat.status, 0, lat.stderr);
  const l = JSON.parse(lat.stdout) as Record<string, number | string>;
  assert.equal(l.test, 'read_lat');
  assert.equal(l.bytes, 2);
  for (const k of ['t_min', 't_max', 't_typical', 't_avg', 't_stdev', 'p99', 'p99_9']) assert.equal(typeof l[k], 'number', k);
  assert.ok((l.t_min as number) > 0);
});

test('perf write -D 1: duration mode reports the sampled iterations', { timeout: 40_000 }, async () => {
  const r = await perf('write', '-D', '1', '-s', '8192');
  assert.equal(r.status, 0, r.stderr);
  const rows = bwRows(r.stdout);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.bytes, 8192);
  assert.ok(rows[0]!.iters > 0 && rows[0]!.avg > 0);
  assert.equal(rows[0]!.peak, 0);
});

test("perf --server and perf ADDR: the write_bw server prints the client's report", { timeout: 40_000 }, async () => {
  const port = String(await freePort());
  const srv = perf('write', '--server', '-p', port, '-s', '16384', '-n', '300');
  let cli = await perf('write', '127.0.0.1', '-p', port, '-s', '16384', '-n', '300');
  // The server may not listen yet: retry while the connection is refused.
  for (let i = 0; i < 20 && cli.status !== 0 && /ECONNREFUSED/.test(cli.stderr); i++) {
    await new Promise((r) => setTimeout(r, 100));
    cli = await perf('write', '127.0.0.1', '-p', port, '-s', '16384', '-n', '300');
  }
  const s = await srv;
  checkBw(cli, [16384], 300);
  assert.equal(s.status, 0, s.stderr);
  assert.match(s.stdout, /\* Waiting for client to connect\.\.\. \*/);
  assert.match(s.stdout, / Waiting for client rdma_cm QP to connect/);
  assert.doesNotMatch(s.stdout, /TX depth/);
  assert.deepEqual(bwRows(s.stdout), bwRows(cli.stdout));
});

test('perf: --help, option errors', () => {
  const run = (...args: string[]) => spawnSync(process.execPath, [bin, 'perf', ...args], { encoding: 'utf8', timeout: 10_000 });
  const h = run('--help');
  assert.equal(h.status, 0);
  assert.match(h.stdout, /Usage: softrdma perf write\|read\|send/);
  assert.match(h.stdout, /loopback with -a and no -n/);
  assert.match(run('write', '--help').stdout, /--busy-poll/);
  for (const [args, msg] of [
    [[], /missing the test/],
    [['frob'], /unknown test 'frob'/],
    [['write', '-n', '2'], /-n\/--iters: bad value '2' \(allowed: an integer 5 … 100000000\)/],
    [['write', '-n', 'x'], /-n\/--iters: bad value 'x'/],
    [['write', '-a', '-D', '2'], /doesn't support running on all sizes/],
    [['write', '--bw', '--lat'], /exclude each other/],
    [['read', '-r', '8'], /rx depth can be only 1/],
    [['write', '-s', '0'], /-s\/--size: bad value '0' \(allowed: an integer 1 … 1073741824, K or M suffix allowed\)/],
    [['write', '-o', '4'], /-o\/--outs is for read, atomic only/],
    [['write', '--server', '10.0.0.1'], /--server takes no ADDR/],
    [['write', '-D', '2', '-f', '1'], /DURATION > 2\*MARGIN/],
    [['write', '--frobnicate'], /Unknown option '--frobnicate'/],
    [['write', '-n', '100', '-l', '7'], /multiple of post list size/],
    [['write', '-t', '4', '-n', '64', '-l', '8'], /must not exceed the tx depth/],
    [['send', '--lat', '-l', '2'], /Post list is for bandwidth tests/],
  ] as [string[], RegExp][]) {
    const r = run(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, msg);
  }
  const d = run('write', '-d', 'mlx5_0');
  assert.equal(d.status, 1);
  assert.match(d.stderr, /IB device mlx5_0 not found/);
  assert.equal(run('write', '-V').stdout, 'Version: 6.06\n');
});

test('perf --post_list and --perform_warm_up: chained posts and an untimed first pass, one row each', { timeout: 40_000 }, async () => {
  const [w, s, r] = await Promise.all([
    perf('write', '-s', '4096', '-n', '320', '-l', '32', '--json'),
    perf('send', '-s', '4096', '-n', '300', '--perform_warm_up', '--json'),
    perf('read', '-s', '8192', '-n', '200', '-l', '8', '--perform_warm_up', '--json'),
  ]);
  for (const [o, t] of [
    [w, 'write_bw'],
    [s, 'send_bw'],
    [r, 'read_bw'],
  ] as const) {
    assert.equal(o.status, 0, o.stderr);
    const rows = o.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, number | string>);
    // The warm-up pass prints nothing: exactly one result row.
    assert.equal(rows.length, 1, o.stdout);
    assert.equal(rows[0]!.test, t);
    assert.ok((rows[0]!.bw_average as number) > 0);
  }
});

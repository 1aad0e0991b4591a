/**
 * `softrdma perf -d softroce0` without `-R`: perftest's TCP exchange (KEY_PRINT_FMT_GID keys,
 * "Data ex. method : Ethernet") and QPs connected with `ibv_modify_qp`, between two softrdma
 * processes over RoCEv2 on loopback UDP. Each run gets loopback addresses of its own
 * (`SOFTRDMA_ROCE_ADDRS`), so runs in parallel (and other test files) never share a UDP
 * endpoint. Numbers are not asserted beyond sanity: timing depends on the machine.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '../helpers/net.js';

const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

interface Out {
  status: number | null;
  stdout: string;
  stderr: string;
}

function perf(gids: string, ...args: string[]): Promise<Out> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [bin, 'perf', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SOFTRDMA_ROCE_ADDRS: gids },
    });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d: Buffer) => (stdout += d));
    c.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => c.kill(), 60_000);
    c.on('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

const BW_ROW = /^ (\d+)\s+(\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)$/m;
const LAT_ROW = /^ (\d+)\s+(\d+)((?:\s+\d+\.\d+){7})\s*$/m;

/** The banner and address lines of a RoCE run without rdma_cm, with our GID `a.b.c.d`. */
function checkEth(r: Out, gid: string, gidIndex = 0): void {
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Device {9}: softroce0/);
  assert.match(r.stdout, /Transport type : IB/);
  assert.match(r.stdout, / rdma_cm QPs\t : OFF/);
  assert.match(r.stdout, / Data ex\. method : Ethernet/);
  assert.match(r.stdout, new RegExp(` GID index {7}: ${gidIndex}\\n`));
  // perftest prints the GID octets in decimal.
  const g = gid.split('.').map((x) => x.padStart(2, '0'));
  assert.match(
    r.stdout,
    new RegExp(
      `^ local address: LID 0000 QPN 0x[0-9a-f]{4,} PSN 0x[0-9a-f]+.*\\n GID: 00:00:00:00:00:00:00:00:00:00:255:255:${g.join(':')}$`,
      'm',
    ),
  );
  assert.match(r.stdout, /^ remote address: LID 0000 QPN 0x[0-9a-f]{4,} PSN 0x[0-9a-f]+/m);
}

test('perf -d softroce0 (no -R): write, read and send bandwidth, loopback between two processes over RoCEv2', {
  timeout: 120_000,
}, async () => {
  const runs: [string, string[], string, number][] = [
    ['127.0.10.1', ['write', '-s', '65536', '-n', '100'], 'RDMA_Write BW Test', 65536],
    ['127.0.11.1', ['read', '-s', '1M', '-n', '8'], 'RDMA_Read BW Test', 1048576],
    ['127.0.12.1', ['send', '-s', '4096', '-n', '600'], 'Send BW Test', 4096],
  ];
  const outs = await Promise.all(runs.map(([gid, args]) => perf(gid, ...args, '-d', 'softroce0')));
  outs.forEach((r, i) => {
    const [gid, , title, bytes] = runs[i]!;
    checkEth(r, gid);
    assert.match(r.stdout, new RegExp(`^ {20}${title}$`, 'm'));
    const m = BW_ROW.exec(r.stdout);
    assert.ok(m, r.stdout);
    assert.equal(Number(m[1]), bytes);
    assert.ok(Number(m[5]) > 0);
  });
  assert.match(outs[1]!.stdout, / Outstand reads {2}: 128/);
  assert.match(outs[1]!.stdout, / OUT 0x80 RKey 0x[0-9a-f]+ VAddr/);
});

test('perf atomic -d softroce0 (no -R): ib_atomic_bw FETCH_AND_ADD and CMP_AND_SWAP, ib_atomic_lat', { timeout: 120_000 }, async () => {
  const [faa, cas, lat] = await Promise.all([
    perf('127.0.13.1', 'atomic', '-n', '300', '-d', 'softroce0'),
    perf('127.0.14.1', 'atomic', '-A', 'CMP_AND_SWAP', '-n', '200', '-o', '16', '-d', 'softroce0'),
    perf('127.0.15.1', 'atomic', '--lat', '-A', 'FETCH_AND_ADD', '-n', '100', '-d', 'softroce0'),
  ]);
  checkEth(faa, '127.0.13.1');
  assert.match(faa.stdout, /^ {20}Atomic FETCH_AND_ADD BW Test$/m);
  assert.equal(Number(BW_ROW.exec(faa.stdout)?.[2]), 300);
  checkEth(cas, '127.0.14.1');
  assert.match(cas.stdout, /^ {20}Atomic CMP_AND_SWAP BW Test$/m);
  assert.match(cas.stdout, / OUT 0x10 RKey/);
  assert.equal(Number(BW_ROW.exec(cas.stdout)?.[2]), 200);
  checkEth(lat, '127.0.15.1');
  assert.match(lat.stdout, /^ {20}Atomic FETCH_AND_ADD Latency Test$/m);
  const m = LAT_ROW.exec(lat.stdout);
  assert.ok(m, lat.stdout);
  assert.equal(Number(m[1]), 8);
  assert.equal(Number(m[2]), 100);
});

test('perf --lat -d softroce0 (no -R): write, read and send latency', { timeout: 120_000 }, async () => {
  const outs = await Promise.all([
    perf('127.0.16.1', 'write', '--lat', '-n', '100', '-d', 'softroce0'),
    perf('127.0.17.1', 'read', '--lat', '-s', '4096', '-n', '100', '-d', 'softroce0'),
    perf('127.0.18.1', 'send', '--lat', '-s', '64', '-n', '100', '-d', 'softroce0', '--busy-poll'),
  ]);
  const sizes = [2, 4096, 64];
  outs.forEach((r, i) => {
    checkEth(r, `127.0.${16 + i}.1`);
    const m = LAT_ROW.exec(r.stdout);
    assert.ok(m, r.stdout);
    assert.equal(Number(m[1]), sizes[i]);
    const [min, max, typical] = m[3]!.trim().split(/\s+/).map(Number) as [number, number, number];
    assert.ok(min > 0 && min <= typical && typical <= max);
  });
});

test("perf -d softroce0 --server and perf -d softroce0 -x 1 ADDR: the roles apart, the server prints the client's report", {
  timeout: 120_000,
}, async () => {
  const port = String(await freePort());
  const common = ['-d', 'softroce0', '-p', port, '-s', '8192', '-n', '200'];
  const srv = perf('127.0.19.2', 'write', '--server', '--bind', '127.0.0.1', ...common);
  // The client's table: index 0 is unused, index 1 the address it talks from (as rxe's -x 1).
  let cli = await perf('127.0.19.9,127.0.19.1', 'write', '-x', '1', '127.0.0.1', ...common);
  for (let i = 0; i < 40 && cli.status !== 0 && /Couldn't connect/.test(cli.stderr); i++) {
    await new Promise((r) => setTimeout(r, 100));
    cli = await perf('127.0.19.9,127.0.19.1', 'write', '-x', '1', '127.0.0.1', ...common);
  }
  const s = await srv;
  checkEth(cli, '127.0.19.1', 1);
  checkEth(s, '127.0.19.2', 0);
  assert.match(s.stdout, /\* Waiting for client to connect\.\.\. \*/);
  assert.doesNotMatch(s.stdout, /TX depth/);
  assert.doesNotMatch(s.stdout, /Waiting for client rdma_cm QP/);
  assert.match(s.stderr, /ib_write_bw -d rxe0 -x 1 ADDR/);
  assert.equal(BW_ROW.exec(s.stdout)?.[0], BW_ROW.exec(cli.stdout)?.[0]);
});

test('perf -d softroce0: a GID index the table lacks is refused', async () => {
  const r = await perf('127.0.20.1', 'write', '-d', 'softroce0', '-x', '5', '--server', '-p', String(await freePort()));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /no GID at index 5 of softroce0/);
});

test("perf send -c UD -d softroce0 (perftest's UD mode): ib_send_bw with its default size cut to the MTU, ib_send_lat, and -a up to the MTU", {
  timeout: 120_000,
}, async () => {
  const [bw, lat, all] = await Promise.all([
    perf('127.0.21.1', 'send', '-c', 'UD', '-n', '200', '-d', 'softroce0'),
    perf('127.0.22.1', 'send', '--lat', '-c', 'UD', '-n', '100', '-d', 'softroce0'),
    perf('127.0.23.1', 'send', '-c', 'UD', '-a', '-n', '50', '-d', 'softroce0'),
  ]);
  for (const [r, gid] of [
    [bw, '127.0.21.1'],
    [lat, '127.0.22.1'],
    [all, '127.0.23.1'],
  ] as const) {
    checkEth(r, gid);
    assert.match(r.stdout, / Connection type : UD\t/);
  }
  // 64 KiB by default, one datagram at most the path MTU (1024 on softroce0): perftest's words.
  assert.match(bw.stderr, / Max msg size in UD is MTU 1024\n Changing to this MTU\n/);
  assert.equal(Number(BW_ROW.exec(bw.stdout)?.[1]), 1024);
  assert.match(bw.stdout, / CQ Moderation {3}: 100\n/);
  assert.equal(Number(LAT_ROW.exec(lat.stdout)?.[1]), 2);
  const sizes = [...all.stdout.matchAll(new RegExp(BW_ROW.source, 'gm'))].map((m) => Number(m[1]));
  assert.deepEqual(sizes, [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
});

test('perf send -c UD: a size above the MTU asked for with -s is refused; UD is refused with -R and for the other tests', async () => {
  // Known once the ends have agreed on the MTU: both refuse.
  const big = await perf('127.0.24.1', 'send', '-c', 'UD', '-s', '2048', '-n', '10', '-d', 'softroce0');
  assert.equal(big.status, 1);
  assert.match(big.stderr, /Max message size in UD cannot be greater than MTU/);
  const cm = await perf('127.0.24.2', 'send', '-c', 'UD', '-R', '-d', 'softroce0', '--server');
  assert.equal(cm.status, 2);
  assert.match(cm.stderr, /UD over rdma_cm \(-R\) is not supported/);
  const write = await perf('127.0.24.3', 'write', '-c', 'UD', '-d', 'softroce0', '--server');
  assert.equal(write.status, 2);
  assert.match(write.stderr, /-c\/--connection is for send only/);
});

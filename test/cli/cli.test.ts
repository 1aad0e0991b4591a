import { freePort } from '../helpers/net.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });

test('softrdma --help lists the commands', () => {
  const r = run('--help');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /devinfo/);
});

test('softrdma with an unknown command exits 2 with the help on stderr', () => {
  const r = run('frobnicate');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown command 'frobnicate'/);
});

test('softrdma devinfo prints the iWARP device like ibv_devinfo', () => {
  const r = run('devinfo');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^hca_id:\tsoftrdma0$/m);
  assert.match(r.stdout, /transport:\t+iWARP \(1\)/);
  assert.match(r.stdout, /state:\t+PORT_ACTIVE \(4\)/);
  assert.match(r.stdout, /link_layer:\t+Ethernet/);
  assert.doesNotMatch(r.stdout, /max_qp:/);
});

test('softrdma devinfo -v adds the device limits, which match what the RNIC enforces', () => {
  const r = run('devinfo', '-v');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /max_qp_rd_atom:\s+128/);
  assert.match(r.stdout, /atomic_cap:\s+ATOMIC_HCA \(1\)/);
  assert.match(r.stdout, /GID\[ {2}0\]:/);
});

test('softrdma devinfo -v -d softroce0 shows the RoCE device: InfiniBand over Ethernet, its MTUs, atomic_cap and the RoCE v2 GID table', () => {
  const r = run('devinfo', '-v', '-d', 'softroce0');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^hca_id:\tsoftroce0$/m);
  assert.doesNotMatch(r.stdout, /softrdma0/);
  assert.match(r.stdout, /transport:\t+InfiniBand \(0\)/);
  assert.match(r.stdout, /link_layer:\t+Ethernet/);
  assert.match(r.stdout, /max_mtu:\t+4096 \(5\)/);
  assert.match(r.stdout, /active_mtu:\t+1024 \(3\)/);
  assert.match(r.stdout, /max_qp_rd_atom:\s+128/);
  // What the core's atomic executor can do (the work-request table carries atomics on RoCEv2).
  assert.match(r.stdout, /atomic_cap:\s+ATOMIC_HCA \(1\)/);
  assert.match(r.stdout, /GID\[ *\d+\]:\t+::ffff:127\.0\.0\.1, RoCE v2$/m);
  const n = Number(/gid_tbl_len:\t+(\d+)/.exec(r.stdout)![1]);
  assert.equal((r.stdout.match(/GID\[/g) ?? []).length, n);
});

test('softrdma devinfo --help and a bad option', () => {
  assert.match(run('devinfo', '--help').stdout, /Usage: softrdma devinfo/);
  const r = run('devinfo', '--bogus');
  assert.equal(r.status, 2);
});

test('softrdma rping: client and server complete -C 1000 -V against each other, the server prints each ping with -v', {
  timeout: 120_000,
}, async () => {
  const { spawn } = await import('node:child_process');
  const port = String(await freePort());
  const srv = spawn(process.execPath, [bin, 'rping', '-s', '-a', '127.0.0.1', '-p', port, '-v'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let sout = '';
  let serr = '';
  srv.stdout.on('data', (d: Buffer) => (sout += d));
  srv.stderr.on('data', (d: Buffer) => (serr += d));
  const srvDone = new Promise<number | null>((r) => srv.on('close', r));
  // Retry until the listener is up.
  let r = run('rping', '-c', '-a', '127.0.0.1', '-p', port, '-C', '1000', '-V');
  for (let i = 0; i < 20 && r.status !== 0 && /REJECTED|ECONNREFUSED/.test(r.stderr); i++) {
    await new Promise((x) => setTimeout(x, 100));
    r = run('rping', '-c', '-a', '127.0.0.1', '-p', port, '-C', '1000', '-V');
  }
  assert.equal(r.status, 0, r.stderr);
  assert.equal(await srvDone, 0, serr);
  const lines = sout.trim().split('\n');
  assert.equal(lines.length, 1000);
  assert.equal(lines[0], 'server ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr');
  assert.match(lines[999]!, /^server ping data: rdma-ping-999: /);
  assert.match(serr, /server DISCONNECT EVENT/);
});

test('softrdma rping: when the server process is killed mid-run, the client reports the disconnect and exits non-zero (no hang)', {
  timeout: 60_000,
}, async () => {
  const { spawn } = await import('node:child_process');
  const port = String(await freePort());
  const srv = spawn(process.execPath, [bin, 'rping', '-s', '-a', '127.0.0.1', '-p', port, '-v'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const srvDone = new Promise((r) => srv.on('exit', r));
  let pings = 0;
  const firstPing = new Promise<void>((r) =>
    srv.stdout.on('data', (d: Buffer) => {
      pings += d.toString().split('\n').length - 1;
      if (pings >= 10) r();
    }),
  );
  // The client pings forever (no -C); retried until the listener is up.
  let cli: ReturnType<typeof spawn> | null = null;
  let cerr = '';
  let cliDone: Promise<number | null> = Promise.resolve(null);
  const started = (async () => {
    for (let i = 0; i < 40; i++) {
      cerr = '';
      const c = spawn(process.execPath, [bin, 'rping', '-c', '-a', '127.0.0.1', '-p', port], { stdio: ['ignore', 'ignore', 'pipe'] });
      c.stderr!.on('data', (d: Buffer) => (cerr += d));
      const done = new Promise<number | null>((r) => c.on('close', r));
      const early = await Promise.race([done, firstPing.then(() => 'running' as const)]);
      if (early === 'running') {
        cli = c;
        cliDone = done;
        return;
      }
      await new Promise((x) => setTimeout(x, 100));
    }
    throw new Error(`client never got going: ${cerr}`);
  })();
  try {
    await started;
    srv.kill('SIGKILL');
    await srvDone;
    const status = await Promise.race([cliDone, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 20_000))]);
    assert.notEqual(status, 'hung', `the client did not notice the dead server within 20 s: ${cerr}`);
    assert.notEqual(status, 0);
    assert.match(cerr, /client DISCONNECT EVENT/);
  } finally {
    srv.kill('SIGKILL');
    (cli as ReturnType<typeof spawn> | null)?.kill('SIGKILL');
  }
});

test('softrdma rping: a client whose -S the server refuses is told why', { timeout: 60_000 }, async () => {
  const { spawn } = await import('node:child_process');
  const port = String(await freePort());
  const srv = spawn(process.execPath, [bin, 'rping', '-s', '-a', '127.0.0.1', '-p', port], { stdio: ['ignore', 'ignore', 'pipe'] });
  let serr = '';
  srv.stderr.on('data', (d: Buffer) => (serr += d));
  const srvDone = new Promise<number | null>((r) => srv.on('close', r));
  try {
    let r = run('rping', '-c', '-a', '127.0.0.1', '-p', port, '-S', '65535', '-C', '1', '-V');
    for (let i = 0; i < 20 && /REJECTED|ECONNREFUSED/.test(r.stderr); i++) {
      await new Promise((x) => setTimeout(x, 100));
      r = run('rping', '-c', '-a', '127.0.0.1', '-p', port, '-S', '65535', '-C', '1', '-V');
    }
    assert.notEqual(r.status, 0);
    assert.match(
      r.stderr,
      /the server ended the connection after our first advertisement \(-S 65535\); a server accepts at most its own -S/,
    );
    await srvDone;
    assert.match(serr, /advertised size 65535 exceeds the ping buffer/);
  } finally {
    srv.kill('SIGKILL');
  }
});

test('softrdma rping: option errors exit 22 as rping does', () => {
  assert.equal(run('rping', '-c', '-S', '5').status, 22);
  assert.equal(run('rping').status, 22);
  assert.match(run('rping', '--help').stdout, /Usage: softrdma rping/);
});

test('softrdma rping with SOFTRDMA_MPA: the client asks for CRC and a Read RTR, the server prefers it; a bad setting fails with EINVAL', {
  timeout: 60_000,
}, async () => {
  const { spawn } = await import('node:child_process');
  const port = String(await freePort());
  const env = { ...process.env, SOFTRDMA_MPA: 'crc=require p2p=read', DEBUG: 'softrdma:cm' };
  const srv = spawn(process.execPath, [bin, 'rping', '-s', '-a', '127.0.0.1', '-p', port, '-C', '5'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let serr = '';
  srv.stderr.on('data', (d: Buffer) => (serr += d));
  // 'close', not 'exit': a process can exit before its stderr pipe is drained, and the
  // server's last lines are what this test reads.
  const srvDone = new Promise<number | null>((r) => srv.on('close', r));
  const runEnv = () =>
    spawnSync(process.execPath, [bin, 'rping', '-c', '-a', '127.0.0.1', '-p', port, '-C', '5', '-V'], {
      encoding: 'utf8',
      timeout: 30_000,
      env,
    });
  let r = runEnv();
  for (let i = 0; i < 20 && r.status !== 0 && /REJECTED|ECONNREFUSED/.test(r.stderr); i++) {
    await new Promise((x) => setTimeout(x, 100));
    r = runEnv();
  }
  assert.equal(r.status, 0, r.stderr);
  assert.equal(await srvDone, 0, serr);
  assert.match(r.stderr, /MPA Req rev=2 M=0 C=1 .*P2P RTR=read/);
  assert.match(r.stderr, /RTS \(active\) crc=1 .* rtr=read/);
  assert.match(serr, /RTS \(passive\) .*crc=1 .* rtr=read/);
  const bad = spawnSync(process.execPath, [bin, 'rping', '-c', '-a', '127.0.0.1', '-p', port, '-C', '1'], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, SOFTRDMA_MPA: 'crc=maybe' },
  });
  assert.notEqual(bad.status, 0);
  assert.doesNotMatch(bad.stderr, /DISCONNECT/);
});

/**
 * `softrdma rping` and `softrdma perf -R` on the RoCE device between two softrdma processes
 * over loopback UDP: rdma_cm's IB CM on QP1 of each process's softroce0. The two processes own
 * different addresses (`SOFTRDMA_ROCE_ADDRS`: the server 127.0.0.2, the client 127.0.0.1) on one
 * ephemeral UDP port (`SOFTRDMA_ROCE_PORT`), as two hosts would; the client picks the device
 * with `SOFTRDMA_DEVICE` (rping has no device option) or `-d` (perf).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '../helpers/net.js';
import { freeUdpPort } from '../helpers/roce-port.js';

const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

interface Out {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `softrdma ...args` with `env` added; `onOut` sees stdout as it comes. */
function run(args: string[], env: Record<string, string>, timeoutMs = 90_000, onOut?: (s: string) => void): Promise<Out> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d: Buffer) => {
      stdout += d;
      onOut?.(stdout);
    });
    c.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => c.kill(), timeoutMs);
    c.on('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

async function envs(): Promise<{ srv: Record<string, string>; cli: Record<string, string> }> {
  const udp = String(await freeUdpPort());
  return {
    srv: { SOFTRDMA_ROCE_ADDRS: '127.0.0.2', SOFTRDMA_ROCE_PORT: udp },
    cli: { SOFTRDMA_ROCE_ADDRS: '127.0.0.1', SOFTRDMA_ROCE_PORT: udp, SOFTRDMA_DEVICE: 'softroce0' },
  };
}

/** Runs the client until the server is listening (a REJ 8 while it is not yet: retried). */
async function clientWhenUp(args: string[], env: Record<string, string>): Promise<Out> {
  let r = await run(args, env);
  for (let i = 0; i < 30 && r.status !== 0 && /REJ reason 8|Invalid|refused/i.test(r.stderr + r.stdout); i++) {
    await new Promise((x) => setTimeout(x, 200));
    r = await run(args, env);
  }
  return r;
}

for (const size of ['64', '65535']) {
  test(`rping -C 100 -V -S ${size} on softroce0 between two processes (IB CM on QP1, RC over RoCEv2)`, { timeout: 240_000 }, async () => {
    const e = await envs();
    const port = String(await freePort());
    // The server owns 127.0.0.2 through its RoCE device only: it listens there on QP1 (no TCP).
    const srv = run(['rping', '-s', '-a', '127.0.0.2', '-p', port, '-C', '100', '-S', size, '-v'], {
      ...e.srv,
      DEBUG: 'softrdma:rdma_cm*,softrdma:ibcm:rdma-ip',
    });
    const cli = await clientWhenUp(['rping', '-c', '-a', '127.0.0.2', '-p', port, '-C', '100', '-S', size, '-V', '-d'], e.cli);
    assert.equal(cli.status, 0, cli.stderr);
    assert.match(cli.stdout, /rping client connected/);
    assert.match(cli.stderr, /client DISCONNECT EVENT/);
    const s = await srv;
    assert.equal(s.status, 0, s.stderr);
    const lines = s.stdout.trim().split('\n');
    assert.equal(lines.length, 100);
    assert.match(lines[99]!, /^server ping data: rdma-ping-99: /);
    assert.match(s.stderr, /server DISCONNECT EVENT/);
    assert.match(s.stderr, /softroce0: IB CM on QP1/, 'the server used its RoCE device');
  });
}

for (const verb of ['write', 'read', 'send', 'atomic'] as const) {
  test(`perf ${verb} -R -d softroce0: bw and lat between two processes over the IB CM (atomic: Fetch & Add)`, {
    timeout: 240_000,
  }, async () => {
    const e = await envs();
    const port = String(await freePort());
    for (const lat of [false, true]) {
      const size = verb === 'atomic' ? '8' : '4096';
      const args = [
        'perf',
        verb,
        ...(lat ? ['--lat'] : []),
        '-R',
        '-d',
        'softroce0',
        '-n',
        '200',
        ...(verb === 'atomic' ? [] : ['-s', size]),
        '-p',
        port,
      ];
      let listening: () => void = () => {};
      const up = new Promise<void>((r) => (listening = r));
      const srv = run([...args, '--server', '--bind', '127.0.0.2'], e.srv, 120_000, () => listening());
      // The server prints its banner once it listens; give it a moment before the client.
      await Promise.race([up, new Promise((r) => setTimeout(r, 2000))]);
      const cli = await clientWhenUp([...args, '127.0.0.2'], e.cli);
      assert.equal(cli.status, 0, cli.stderr + cli.stdout);
      assert.match(cli.stdout, /Transport type : IB/);
      assert.match(cli.stdout, /Device +: softroce0/);
      assert.match(cli.stdout, /Data ex\. method : rdma_cm/);
      assert.match(
        cli.stdout,
        new RegExp(lat ? `^ ${size}\\s+200\\s` : `^ ${size}\\s+200\\s+\\d+\\.\\d+\\s+\\d+\\.\\d+\\s+\\d+\\.\\d+`, 'm'),
      );
      const s = await srv;
      assert.equal(s.status, 0, s.stderr + s.stdout);
    }
  });
}

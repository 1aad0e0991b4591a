/**
 * CM loss between two softrdma processes on the RoCE device (softroce0, loopback UDP): the
 * rdma_cm and IT-API programs of the interop suite — `softrdma rping`, `softrdma perf -R`,
 * examples/rdmacm/ucmatose and udaddy, and the IT-API rping server — run unmodified while each
 * process loses the first REQ, REP, RTU and DREQ it sends (udaddy: the first SIDR_REQ and
 * SIDR_REP) to the fault tap of the RoCEv2 endpoint (test/helpers/cm-drop-preload). Every
 * program must still complete, so every lost message was recovered by the CM's retransmission
 * (IBTA Communication Management, "Retries and Timeouts"). mckey has no CM exchange on RoCE
 * (the join is local: IGMP and the MGID), so it has no loss case here (test/verbs/mckey.test.ts
 * runs it between processes).
 *
 * The server owns 127.0.0.2 and the client 127.0.0.1, on one ephemeral UDP port.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '../helpers/net.js';
import { freeUdpPort } from '../helpers/roce-port.js';

const dist = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const preload = new URL('../helpers/cm-drop-preload.js', import.meta.url).href;
const cliBin = dist('src/cli/main.js');
const CONNECTED = ['REQ', 'REP', 'RTU', 'DREQ'];

interface Run {
  code: number | null;
  out: string;
  dropped: string[];
}

/** Runs `node --import cm-drop-preload SCRIPT ARGS` losing the first of each kind in `drop`. */
function run(script: string, args: string[], env: Record<string, string>, drop: string[], onOut?: (out: string) => void): Promise<Run> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', preload, script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env, SOFTRDMA_TEST_CM_DROP: drop.join(',') },
    });
    let out = '';
    const add = (d: Buffer) => {
      out += d;
      onOut?.(out);
    };
    p.stdout.on('data', add);
    p.stderr.on('data', add);
    const t = setTimeout(() => p.kill(), 150_000);
    p.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, out, dropped: [...out.matchAll(/^cm-drop: dropped (\w+)$/gm)].map((m) => m[1]!) });
    });
  });
}

/** The client, rerun while the server does not listen yet (REJ 8 / REJECTED / UNREACHABLE). */
async function clientWhenUp(script: string, args: string[], env: Record<string, string>, drop: string[]): Promise<Run> {
  let r = await run(script, args, env, drop);
  for (let i = 0; i < 30 && r.code !== 0 && /REJ reason 8|REJECTED|UNREACHABLE|Invalid|refused/i.test(r.out); i++) {
    await new Promise((x) => setTimeout(x, 250));
    r = await run(script, args, env, drop);
  }
  return r;
}

async function envs() {
  const udp = String(await freeUdpPort());
  return {
    srv: { SOFTRDMA_ROCE_ADDRS: '127.0.0.2', SOFTRDMA_ROCE_PORT: udp },
    cli: { SOFTRDMA_ROCE_ADDRS: '127.0.0.1', SOFTRDMA_ROCE_PORT: udp, SOFTRDMA_DEVICE: 'softroce0' },
  };
}

/** Every kind in `want` was lost by one process or the other. */
function assertLost(want: string[], ...runs: Run[]): void {
  const got = new Set(runs.flatMap((r) => r.dropped));
  for (const k of want)
    assert.ok(got.has(k), `no ${k} was dropped (dropped: ${[...got].join(',') || 'none'})\n${runs.map((r) => r.out).join('\n----\n')}`);
}

const T = { timeout: 300_000 };

test('softrdma rping -C 10 -V on softroce0, two processes, each losing its first REQ/REP/RTU/DREQ: 10 pings, both exit 0', T, async () => {
  const e = await envs();
  const port = String(await freePort());
  const srv = run(cliBin, ['rping', '-s', '-a', '127.0.0.2', '-p', port, '-C', '10', '-v'], e.srv, CONNECTED);
  const cli = await clientWhenUp(cliBin, ['rping', '-c', '-a', '127.0.0.2', '-p', port, '-C', '10', '-V', '-d'], e.cli, CONNECTED);
  const s = await srv;
  assert.equal(cli.code, 0, cli.out);
  assert.equal(s.code, 0, s.out);
  assert.equal(s.out.split('\n').filter((l) => /^server ping data: rdma-ping-\d+: /.test(l)).length, 10, s.out);
  assertLost(CONNECTED, cli, s);
});

test(
  'softrdma perf write --bw -R -d softroce0, two processes, each losing its first REQ/REP/RTU/DREQ: the result row, both exit 0',
  T,
  async () => {
    const e = await envs();
    const port = String(await freePort());
    const args = ['perf', 'write', '-R', '-d', 'softroce0', '-n', '100', '-s', '4096', '-p', port];
    let listening: () => void = () => {};
    const up = new Promise<void>((r) => (listening = r));
    const srv = run(cliBin, [...args, '--server', '--bind', '127.0.0.2'], e.srv, CONNECTED, () => listening());
    await Promise.race([up, new Promise((r) => setTimeout(r, 2000))]);
    const cli = await clientWhenUp(cliBin, [...args, '127.0.0.2'], e.cli, CONNECTED);
    const s = await srv;
    assert.equal(cli.code, 0, cli.out);
    assert.equal(s.code, 0, s.out);
    assert.match(cli.out, /Data ex\. method : rdma_cm/);
    assert.match(cli.out, /^ 4096\s+100\s+\d+\.\d+\s+\d+\.\d+/m);
    assertLost(CONNECTED, cli, s);
  },
);

test(
  'examples/rdmacm/ucmatose -c 2 on softroce0, each process losing its first REQ/REP/RTU/DREQ: both connections complete, return status 0',
  T,
  async () => {
    const e = await envs();
    const port = String(await freePort());
    const prog = dist('examples/rdmacm/ucmatose.js');
    const srv = run(prog, ['-b', '127.0.0.2', '-p', port, '-c', '2'], e.srv, CONNECTED);
    const cli = await clientWhenUp(prog, ['-s', '127.0.0.2', '-p', port, '-c', '2'], e.cli, CONNECTED);
    const s = await srv;
    assert.equal(cli.code, 0, cli.out);
    assert.equal(s.code, 0, s.out);
    assert.match(cli.out, /data transfers complete\ntest complete\nreturn status 0/);
    assert.match(s.out, /disconnected\ntest complete\nreturn status 0/);
    assertLost(CONNECTED, cli, s);
  },
);

test(
  'examples/rdmacm/udaddy on softroce0, the client losing its first SIDR_REQ and the server its first SIDR_REP: SIDR retransmitted, 10 datagrams each way',
  T,
  async () => {
    const e = await envs();
    const prog = dist('examples/rdmacm/udaddy.js');
    const srv = run(prog, ['-b', '127.0.0.2'], e.srv, ['SIDR_REP']);
    const cli = await clientWhenUp(prog, ['-s', '127.0.0.2'], e.cli, ['SIDR_REQ']);
    const s = await srv;
    assert.equal(cli.code, 0, cli.out);
    assert.equal(s.code, 0, s.out);
    assert.match(cli.out, /data transfers complete\ntest complete/);
    assert.match(s.out, /data transfers complete\ntest complete/);
    assertLost(['SIDR_REQ', 'SIDR_REP'], cli, s);
  },
);

test(
  'the IT-API rping server --device softroce0 and softrdma rping -c, each losing its first REQ/REP/RTU/DREQ: 10 pings served, both exit 0',
  T,
  async () => {
    const e = await envs();
    let port: (p: string) => void = () => {};
    const listening = new Promise<string>((r) => (port = r));
    const srv = run(
      dist('examples/itapi/rping-server.js'),
      ['--device', 'softroce0', '--addr', '127.0.0.2', '--port', '0', '--count', '10', '-v'],
      e.srv,
      CONNECTED,
      (out) => {
        const m = /^rping server listening on 127\.0\.0\.2:(\d+)$/m.exec(out);
        if (m) port(m[1]!);
      },
    );
    const p = await Promise.race([listening, srv.then((r) => assert.fail(`the server ended before it listened:\n${r.out}`))]);
    const cli = await run(cliBin, ['rping', '-c', '-a', '127.0.0.2', '-p', p, '-C', '10', '-V'], e.cli, CONNECTED);
    const s = await srv;
    assert.equal(cli.code, 0, cli.out);
    assert.equal(s.code, 0, s.out);
    assert.match(s.out, /rping server: 10 pings served/);
    assertLost(CONNECTED, cli, s);
  },
);

/**
 * Issue 17, finding 1: one MPA Request whose RFC 6581 word carries IRD or ORD above 128 wedged
 * `softrdma rping -s` — no Reply, no close, a legitimate client refused meanwhile — because the
 * server passed the peer's IRD/ORD to `rdma_accept` uncapped, ignored the failure, and the CM
 * never timed out a request its ULP had not answered. A raw peer speaks MPA to the real CLI
 * process here; the waits are bounds, not timing assertions.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decodeMpaIrdOrd, decodeMpaReqRep, encodeMpaIrdOrd, encodeMpaReqRep, type MpaReqRep } from '../../src/wire/mpa.js';
import { freePort } from '../helpers/net.js';

const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const T = { timeout: 90_000 };

/** A CLI server process, resolved once it listens (`-d` prints the listening line). */
async function server(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ proc: ChildProcess; port: number; out: () => string; err: () => string }> {
  const port = await freePort();
  const proc = spawn(process.execPath, [bin, 'rping', ...args, '-d', '-a', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d));
  await new Promise<void>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d;
      if (/listening on/.test(out)) resolve();
    });
    proc.once('exit', (c) => reject(new Error(`server exited ${c}: ${err}`)));
  });
  return { proc, port, out: () => out, err: () => err };
}

/** Sends an enhanced MPA Request with `ird`/`ord` in its RFC 6581 word; resolves with the socket. */
async function hostileRequest(port: number, ird: number, ord: number): Promise<{ sock: net.Socket; reply: Promise<MpaReqRep> }> {
  const sock = net.connect({ port, host: '127.0.0.1' });
  await once(sock, 'connect');
  const word = encodeMpaIrdOrd({
    ird,
    ord,
    peerToPeer: false,
    zeroLengthSendRtr: false,
    zeroLengthWriteRtr: false,
    zeroLengthReadRtr: false,
  });
  sock.write(
    encodeMpaReqRep({ type: 'request', markers: false, crc: false, reject: false, enhanced: true, res: 0, revision: 2, privateData: word }),
  );
  sock.on('error', () => {});
  let buf = Buffer.alloc(0);
  const reply = new Promise<MpaReqRep>((resolve, reject) => {
    const onData = (d: Buffer): void => {
      buf = Buffer.concat([buf, d]);
      const r = decodeMpaReqRep(new Uint8Array(buf), 'reply');
      if (r.status === 'frame') {
        sock.off('data', onData);
        resolve(r.frame);
      }
    };
    sock.on('data', onData);
    sock.once('close', () => reject(new Error('closed without a Reply')));
  });
  reply.catch(() => {});
  return { sock, reply };
}

/** A bound on a wait that must end (a hang is what the finding was). */
function within<V>(p: Promise<V>, ms: number, what: string): Promise<V> {
  return Promise.race([
    p,
    new Promise<V>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms).unref()),
  ]);
}

const client = (port: number, ...more: string[]) =>
  spawnSync(process.execPath, [bin, 'rping', '-c', '-a', '127.0.0.1', '-p', String(port), ...more], { encoding: 'utf8', timeout: 60_000 });

test(
  'finding 1: rping -s answers a Request with IRD/ORD 16383 (RFC 6581 word) with a Reply, IRD/ORD capped to the device limit of 128',
  T,
  async () => {
    const srv = await server(['-s']);
    try {
      const h = await hostileRequest(srv.port, 0x3fff, 0x3fff);
      // Before the fix: no Reply, no close, for as long as the peer held the socket.
      const reply = await within(h.reply, 20_000, 'the MPA Reply');
      assert.equal(reply.reject, false, 'accepted, with capped values');
      const w = decodeMpaIrdOrd(reply.privateData);
      assert.ok(w.ird <= 128 && w.ord <= 128, `Reply IRD ${w.ird} ORD ${w.ord}`);
      assert.equal(w.ord, 128, 'our ORD is the peer IRD capped to the device');
      // The peer leaves: the one-shot server ends on its own.
      h.sock.destroy();
      const code = await within(once(srv.proc, 'exit'), 20_000, 'the server to exit');
      assert.equal(typeof code[0], 'number');
    } finally {
      srv.proc.kill('SIGKILL');
    }
  },
);

test(
  'finding 1: rping -P keeps serving legitimate clients while a hostile accepted peer and an idle half-open peer hold their sockets',
  T,
  async () => {
    const srv = await server(['-P']);
    const idle = net.connect({ port: srv.port, host: '127.0.0.1' });
    idle.on('error', () => {});
    try {
      const h = await hostileRequest(srv.port, 0x3fff, 0x3fff);
      await within(h.reply, 20_000, 'the MPA Reply to the hostile Request');
      // Two legitimate clients, one after the other, each validated.
      for (let i = 0; i < 2; i++) {
        const r = client(srv.port, '-C', '3', '-V');
        assert.equal(r.status, 0, `client ${i}: ${r.stderr}`);
      }
      // The hostile peer is still connected, the server still up.
      assert.equal(h.sock.destroyed, false);
      assert.equal(srv.proc.exitCode, null);
      h.sock.destroy();
    } finally {
      idle.destroy();
      srv.proc.kill('SIGKILL');
    }
  },
);

test('rping -s serves one client: a second one is rejected at once, not left waiting', T, async () => {
  const srv = await server(['-s']);
  try {
    const h = await hostileRequest(srv.port, 1, 1);
    await within(h.reply, 20_000, 'the first Reply');
    const second = await hostileRequest(srv.port, 1, 1);
    const r = await within(second.reply, 20_000, 'the second Reply');
    assert.equal(r.reject, true, 'refused with R');
    second.sock.destroy();
    h.sock.destroy();
  } finally {
    srv.proc.kill('SIGKILL');
  }
});

test(
  'rping -s refuses a Read advertisement longer than its ping buffer: the client sees the connection end, the server says why and exits',
  T,
  async () => {
    const srv = await server(['-s', '-S', '64']);
    try {
      // A legitimate rping client with a larger buffer advertises 4096 octets; before, the server
      // posted a 4096-octet Read into its 64-octet region and failed on the SGE check.
      const r = client(srv.port, '-S', '4096', '-C', '1');
      assert.notEqual(r.status, 0, 'the client does not complete a ping');
      await within(once(srv.proc, 'exit'), 20_000, 'the server to exit');
      assert.match(srv.err(), /advertised size 4096 exceeds the ping buffer \(64\)/);
    } finally {
      srv.proc.kill('SIGKILL');
    }
  },
);

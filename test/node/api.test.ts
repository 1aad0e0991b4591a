/**
 * The Node-native API over iWARP on loopback: connections and listeners, memory as
 * JSON, every operation's promise, typed errors for what a user can provoke, AbortSignal,
 * the bounded window, `await using` leaving nothing behind, a peer that dies mid-operation.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  type Connection,
  ConnectError,
  ConnectionClosedError,
  DeviceNotFoundError,
  type Listener,
  openDevice,
  QueueFullError,
  type RdmaDevice,
  RemoteBuffer,
  UnsupportedError,
  WcError,
} from '../../src/index.js';
import { cmStats } from '../../src/iwarp/cm.js';
import { IBV_SEND_SIGNALED, IBV_WC_SUCCESS, IBV_WR_RDMA_WRITE, type ibv_wc, ibv_post_send } from '../../src/verbs/index.js';
import { devices } from '../../src/verbs/device.js';
import { until } from '../helpers/engine.js';
import { useEphemeralRocePort } from '../helpers/roce-port.js';
import type { SoftrdmaVp } from '../../src/provider/softrdma.js';

const T = { timeout: 60_000 };
// softroce0 rides the RoCEv2 wire on loopback, on a UDP port of its own.
await useEphemeralRocePort();

/** The engine's live objects (the verbs provider's RNIC), and the CM's and Node's sockets. */
function live() {
  const e = (devices()[0]!.vp as SoftrdmaVp).engine;
  const cm = cmStats();
  return {
    qps: e.qps.size,
    cqs: e.cqs.size,
    mrs: e.mrCount,
    pds: e.pds.size,
    cmSockets: cm.sockets + cm.listeners + cm.connecting + cm.timers,
    tcp: process.getActiveResourcesInfo().filter((r) => r.startsWith('TCP')).length,
  };
}

/** A listener and one connection to it on `dev`; the server side is accepted with `serverOpts`. */
async function pairOn(dev: RdmaDevice, clientOpts: Record<string, unknown> = {}, serverOpts: Record<string, unknown> = {}) {
  const l = await dev.listen({ host: '127.0.0.1' });
  const srv = (async () => {
    const req = await l.next();
    assert.ok(req);
    return req.accept(serverOpts);
  })();
  const client = await dev.connect({ port: l.port, ...clientOpts });
  const server = await srv;
  return { l, client, server };
}

async function closeAll(...xs: (Connection | Listener)[]) {
  for (const x of xs) await x.close();
}

describe('Node API', () => {
  for (const transport of ['iwarp', 'rocev2'] as const) {
    test(`${transport}: connect/accept with private data both ways; send/receive, write, read; region JSON round trip`, T, async () => {
      await using dev = openDevice({ transport });
      assert.equal(dev.transport, transport);
      await using l = await dev.listen({ host: '127.0.0.1' });
      const region = dev.register(Buffer.alloc(4096), { remoteRead: true, remoteWrite: true });
      const served = (async () => {
        for await (const req of l) {
          assert.equal(Buffer.from(req.privateData).toString(), 'who are you');
          const conn = await req.accept({ privateData: Buffer.from(JSON.stringify(region)) });
          for await (const m of conn) await conn.send(Buffer.concat([Buffer.from('echo:'), m.data]));
          return;
        }
      })();
      await using c = await dev.connect({ port: l.port, privateData: Buffer.from('who are you') });
      const json = JSON.parse(Buffer.from(c.privateData).toString());
      assert.match(json.addr, /^0x[0-9a-f]+$/);
      const remote = RemoteBuffer.from(json);
      assert.equal(remote.addr, region.addr);
      assert.equal(remote.rkey, region.rkey);
      await c.send(Buffer.from('ping'));
      assert.equal((await c.receive()).data.toString(), 'echo:ping');
      await c.write(Buffer.from('one-sided'), remote.slice(100));
      // A Write's completion frees the local buffer; the peer sees the data once a later
      // operation on the connection has reached it (here a Read, ordered behind the Write).
      assert.equal(Buffer.from(await c.read(remote.slice(100, 9))).toString(), 'one-sided');
      assert.equal(Buffer.from(region.buffer).subarray(100, 109).toString(), 'one-sided');
      region.buffer.set(Buffer.from('from the server'), 2000);
      assert.equal(Buffer.from(await c.read(remote.slice(2000, 15))).toString(), 'from the server');
      // Larger than the staging slots: registered for the operation.
      const big = Buffer.alloc(3000 * 1 + 8192, 7);
      const bigRemote = dev.register(Buffer.alloc(big.length), { remoteRead: true, remoteWrite: true });
      await c.write(big, bigRemote);
      assert.deepEqual(Buffer.from(await c.read(bigRemote)), big);
      // Registered local memory, zero-copy.
      const local = dev.register(Buffer.alloc(64), { remoteWrite: true });
      await c.read(remote.slice(2000, 15), local.slice(10, 15));
      assert.equal(Buffer.from(local.buffer).subarray(10, 25).toString(), 'from the server');
      // Escape hatches: a WR of our own on the connection's QP, its completion handed back.
      assert.ok(c.qp && c.cq && c.pd && c.cm_id && region.mr && dev.context);
      const own = dev.register(Buffer.from('raw verbs'));
      const foreign = new Promise<ibv_wc>((resolve) => (c.onForeignCompletion = resolve));
      const posted = ibv_post_send(c.qp, {
        wr_id: 1n << 40n,
        opcode: IBV_WR_RDMA_WRITE,
        send_flags: IBV_SEND_SIGNALED,
        sg_list: [{ addr: own.addr, length: own.length, lkey: own.lkey }],
        wr: { rdma: { remote_addr: region.addr + 3000n, rkey: region.rkey } },
      });
      assert.equal(posted.ret, 0);
      const wc = await foreign;
      assert.equal(wc.wr_id, 1n << 40n);
      assert.equal(wc.status, IBV_WC_SUCCESS);
      assert.equal(Buffer.from(await c.read(remote.slice(3000, 9))).toString(), 'raw verbs');
      await c.close();
      await served;
    });
  }

  for (const transport of ['iwarp', 'rocev2'] as const) {
    test(`${transport}: reject with private data → ConnectError ECONNREFUSED carrying it`, T, async () => {
      await using dev = openDevice({ transport });
      await using l = await dev.listen({ host: '127.0.0.1' });
      void l.next().then((req) => req!.reject(Buffer.from('go away')));
      const err = await dev.connect({ port: l.port }).then(
        () => assert.fail('connected'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof ConnectError, String(err));
      assert.equal(err.code, 'ECONNREFUSED');
      assert.equal(Buffer.from(err.privateData!).toString(), 'go away');
      // Nobody listening: refused, no private data.
      const closed = await dev.listen({ host: '127.0.0.1' });
      const port = closed.port;
      await closed.close();
      await assert.rejects(
        dev.connect({ port }),
        (e: unknown) => e instanceof ConnectError && e.code === 'ECONNREFUSED' && e.privateData === null,
      );
    });
  }

  for (const transport of ['iwarp', 'rocev2'] as const) {
    test(
      `${transport}: a queued request leaves the listener's queue once rejected, or once the client gave up; the iterator never yields a dead one`,
      T,
      async () => {
        await using dev = openDevice({ transport });
        await using l = await dev.listen({ host: '127.0.0.1', backlog: 4 });
        // Two requests wait in the queue (nobody iterates yet).
        const a = dev.connect({ port: l.port, privateData: Buffer.from('a') }).catch((e: unknown) => e);
        const b = dev.connect({ port: l.port, privateData: Buffer.from('b') });
        await until(() => l.pending === 2, 10_000, 'two queued requests');
        const first = (await l.next())!;
        assert.equal(Buffer.from(first.privateData).toString(), 'a');
        first.reject(Buffer.from('no'));
        assert.ok(first.settled);
        assert.equal(l.pending, 1);
        assert.ok((await a) instanceof ConnectError);
        // A client that gives up while its request is queued: the request leaves the queue.
        const ac = new AbortController();
        const gaveUp = dev.connect({ port: l.port, privateData: Buffer.from('c'), signal: ac.signal });
        await until(() => l.pending === 2, 10_000, 'the third request queued');
        ac.abort();
        await assert.rejects(gaveUp, (e: Error) => e.name === 'AbortError');
        await until(() => l.pending === 1, 10_000, 'the abandoned request to leave the queue');
        const second = (await l.next())!;
        assert.equal(Buffer.from(second.privateData).toString(), 'b');
        await using s = await second.accept();
        await using c = await b;
        await c.send(Buffer.from('live'));
        assert.equal((await s.receive()).data.toString(), 'live');
        assert.equal(l.pending, 0);
      },
    );
  }

  for (const transport of ['iwarp', 'rocev2'] as const) {
    test(`${transport}: AbortSignal and timeout during connect while the server has not answered; the device closes clean`, T, async () => {
      await using dev = openDevice({ transport });
      await using l = await dev.listen({ host: '127.0.0.1' }); // nobody takes its requests
      const ac = new AbortController();
      const p = dev.connect({ port: l.port, signal: ac.signal });
      await until(() => l.pending === 1, 10_000, 'the request to reach the listener');
      ac.abort();
      await assert.rejects(p, (e: Error) => e.name === 'AbortError');
      await assert.rejects(
        dev.connect({ port: l.port, timeout: 300 }),
        (e: unknown) => e instanceof ConnectError && e.code === 'ETIMEDOUT',
      );
      await until(() => l.pending === 0, 10_000, 'the abandoned requests to leave the queue');
      assert.equal(dev.owned.size, 1); // the listener only
    });
  }

  test('AbortSignal and timeout during connect: rejected, nothing left behind', T, async () => {
    // A TCP server that never answers the MPA Request.
    const socks: net.Socket[] = [];
    const silent = net.createServer((s) => socks.push(s.on('error', () => {})));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as net.AddressInfo).port;
    const before = live();
    {
      await using dev = openDevice();
      const ac = new AbortController();
      const p = dev.connect({ port, signal: ac.signal });
      setTimeout(() => ac.abort(), 100);
      await assert.rejects(p, (e: Error) => e.name === 'AbortError');
      await assert.rejects(dev.connect({ port, timeout: 150 }), (e: unknown) => e instanceof ConnectError && e.code === 'ETIMEDOUT');
      const pre = new AbortController();
      pre.abort(new Error('already'));
      await assert.rejects(dev.connect({ port, signal: pre.signal }), /already/);
    }
    for (const s of socks) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
    await until(() => live().cmSockets === 0 && live().tcp === 0, 5000, 'the CM to release the aborted connects');
    assert.deepEqual(live(), { ...before, cmSockets: 0, tcp: 0 });
  });

  for (const transport of ['iwarp', 'rocev2'] as const) {
    test(
      `${transport}: AbortSignal during a pending operation: a posted one rejects at once, a waiting one is never posted`,
      T,
      async () => {
        await using dev = openDevice({ transport });
        const { l, client, server } = await pairOn(dev, { maxOutstanding: 1 });
        const big = dev.register(Buffer.alloc(8 << 20), { remoteRead: true });
        const posted = new AbortController();
        const p1 = client.read(big, undefined, { signal: posted.signal });
        const waiting = new AbortController();
        const p2 = client.read(big.remote(0, 8), 8, { signal: waiting.signal });
        await Promise.resolve();
        assert.equal(client.stats.waiting, 1);
        waiting.abort();
        posted.abort();
        await assert.rejects(p1, (e: Error) => e.name === 'AbortError');
        await assert.rejects(p2, (e: Error) => e.name === 'AbortError');
        assert.equal(client.stats.waiting, 0);
        // The posted Read still completes on the wire and frees its slot; the waiting one never went out.
        await until(() => client.stats.outstanding === 0, 10_000, 'the aborted Read to complete');
        assert.equal(client.stats.posted, 1);
        assert.equal(Buffer.from(await client.read(big.remote(0, 4))).length, 4);
        await closeAll(client, server, l);
      },
    );
  }

  for (const transport of ['iwarp', 'rocev2'] as const) {
    test(
      `${transport}: typed errors: bad rkey → WcError with the spec name; later work rejects (closed on iWARP, flushed on RoCE)`,
      T,
      async () => {
        await using dev = openDevice({ transport });
        const { l, client, server } = await pairOn(dev);
        const r = dev.register(Buffer.alloc(64), { remoteRead: true });
        const bad = new RemoteBuffer(r.addr, (r.rkey + 0x100) >>> 0, 64);
        const err = await client.read(bad).then(
          () => assert.fail('read with a bad rkey succeeded'),
          (e: unknown) => e,
        );
        assert.ok(err instanceof WcError, String(err));
        // The peer's Terminate names our Read Request: Remote Access, as rxe's NAK gives it (not a flush).
        assert.equal(err.code, 'IBV_WC_REM_ACCESS_ERR');
        assert.notEqual(err.status, 0);
        assert.match(err.message, new RegExp(`read failed: ${err.code} \\(`));
        // iWARP: the Terminate ends the connection (rdma_cm DISCONNECTED). RoCE: the NAK moves the
        // requester QP to Error with no CM message, so later work is flushed (IBTA §10.8.3.3).
        if (transport === 'iwarp') {
          await client.closed;
          await assert.rejects(client.write(Buffer.alloc(1), r), ConnectionClosedError);
        } else
          await assert.rejects(
            client.write(Buffer.alloc(1), r),
            (e: unknown) => (e instanceof WcError && e.code === 'IBV_WC_WR_FLUSH_ERR') || e instanceof ConnectionClosedError,
          );
        await closeAll(client, server, l);
      },
    );
  }

  test('typed errors: a Send with no receive posted terminates the connection; pending work rejects with WcError', T, async () => {
    await using dev = openDevice();
    const { l, client, server } = await pairOn(dev, {}, { receive: { count: 0 } });
    const r = dev.register(Buffer.alloc(1 << 20), { remoteRead: true });
    // iWARP has no RNR: the responder Terminates (RFC 5041 §7.2); the Send itself may complete
    // on local delivery, the Reads behind it cannot.
    const results = await Promise.allSettled([
      client.send(Buffer.from('nobody listens')),
      ...Array.from({ length: 8 }, () => client.read(r)),
    ]);
    const errors = results.filter((x) => x.status === 'rejected').map((x) => (x as PromiseRejectedResult).reason);
    assert.ok(errors.length >= 8, `${errors.length} rejected`);
    for (const e of errors) assert.ok(e instanceof WcError || e instanceof ConnectionClosedError, String(e));
    assert.ok(errors.some((e) => e instanceof WcError));
    await client.closed;
    await closeAll(client, server, l);
  });

  test(
    'rocev2: a Send with no receive posted waits (RNR NAKs, rnr_retry_count 7 = retry forever, IBTA §9.7.5.2.8); the peer closing rejects it',
    T,
    async () => {
      await using dev = openDevice({ transport: 'rocev2' });
      const { l, client, server } = await pairOn(dev, {}, { receive: { count: 0 } });
      const p = client.send(Buffer.from('nobody listens'));
      let settled = false;
      p.then(
        () => (settled = true),
        () => (settled = true),
      );
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(settled, false);
      assert.equal(client.stats.outstanding, 1);
      await server.close(); // DREQ: the client's QP goes to Error, the Send is flushed
      await assert.rejects(p, (e: unknown) => e instanceof WcError || e instanceof ConnectionClosedError);
      await client.closed;
      await closeAll(client, l);
    },
  );

  for (const transport of ['iwarp', 'rocev2'] as const) {
    test(`${transport}: 10,000 operations against a window of 16: at most 16 posted, all complete, in order`, T, async () => {
      await using dev = openDevice({ transport });
      const { l, client, server } = await pairOn(dev, { maxOutstanding: 16 });
      const target = dev.register(Buffer.alloc(10_000 * 4), { remoteWrite: true, remoteRead: true });
      const ops: Promise<void>[] = [];
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(w.name);
      process.on('warning', onWarning);
      const shared = new AbortController(); // one signal for all: one listener, not 10,000
      for (let i = 0; i < 10_000; i++) {
        const b = Buffer.alloc(4);
        b.writeUInt32LE(i);
        ops.push(client.write(b, target.remote(i * 4, 4), { signal: shared.signal }));
      }
      assert.equal(client.stats.waiting, 10_000 - 16);
      await Promise.all(ops);
      await new Promise((r) => setImmediate(r));
      process.off('warning', onWarning);
      assert.deepEqual(warnings, []);
      const s = client.stats;
      assert.equal(s.maxOutstandingSeen, 16);
      assert.equal(s.posted, 10_000);
      assert.ok(s.completions < 10_000, `CQ moderation: ${s.completions} completions for 10,000 WRs`);
      await client.read(target.remote(0, 4)); // ordered behind every Write: they are all placed
      const buf = Buffer.from(target.buffer);
      for (let i = 0; i < 10_000; i++) assert.equal(buf.readUInt32LE(i * 4), i);
      await closeAll(client, server, l);
    });
  }

  for (const transport of ['iwarp', 'rocev2'] as const) {
    test(`${transport}: maxQueued bounds the callers waiting for the window (QueueFullError, ENOBUFS)`, T, async () => {
      await using dev = openDevice({ transport });
      const { l, client, server } = await pairOn(dev, { maxOutstanding: 2, maxQueued: 3 });
      const t = dev.register(Buffer.alloc(64), { remoteWrite: true });
      const ok = Array.from({ length: 5 }, () => client.write(Buffer.alloc(8), t));
      await assert.rejects(client.write(Buffer.alloc(8), t), (e: unknown) => e instanceof QueueFullError && e.code === 'ENOBUFS');
      await Promise.all(ok);
      await closeAll(client, server, l);
    });
  }

  test('await using leaves no QP, CQ, MR, PD, CM socket or TCP handle behind', T, async () => {
    // Warm up once so that objects rdma_cm keeps for the process (its default PD) exist already.
    {
      await using dev = openDevice();
      const { l, client, server } = await pairOn(dev);
      await closeAll(client, server, l);
    }
    const before = live();
    {
      await using dev = openDevice();
      await using l = await dev.listen({ host: '127.0.0.1' });
      const accepted = l.next().then((r) => r!.accept());
      await using c = await dev.connect({ port: l.port });
      await using s = await accepted;
      const r = dev.register(Buffer.alloc(128), { remoteWrite: true, remoteRead: true });
      await c.write(Buffer.from('x'), r);
      const inflight = c.read(r); // still posted when the scope ends: flushed or completed, never left pending
      inflight.catch(() => {});
      assert.ok(live().qps >= 2);
      void s;
    }
    await until(() => live().tcp === before.tcp && live().cmSockets === 0, 5000, 'the sockets to close');
    assert.deepEqual(live(), before);
    assert.equal(before.qps, 0);
    assert.equal(before.cqs, 0);
    assert.equal(before.mrs, 0);
  });

  for (const transport of ['iwarp', 'rocev2'] as const) {
    test(`${transport}: a peer that dies mid-operation rejects every pending promise`, T, async () => {
      const fixture = fileURLToPath(new URL('./peer-fixture.js', import.meta.url));
      const child: ChildProcess = spawn(process.execPath, [fixture, transport], {
        stdio: ['ignore', 'pipe', 'inherit'],
        // On RoCE the peer is another host: its own address on this process's UDP port.
        env: transport === 'rocev2' ? { ...process.env, SOFTRDMA_ROCE_ADDRS: '127.0.0.2' } : process.env,
      });
      try {
        let out = '';
        const port = await new Promise<number>((resolve, reject) => {
          child.stdout!.on('data', (d: Buffer) => {
            out += d;
            const m = /PORT (\d+)/.exec(out);
            if (m) resolve(Number(m[1]));
          });
          child.once('exit', (c) => reject(new Error(`fixture exited ${c}`)));
        });
        await using dev = openDevice({ transport });
        await using c = await dev.connect({ host: transport === 'rocev2' ? '127.0.0.2' : '127.0.0.1', port, maxOutstanding: 32 });
        const remote = RemoteBuffer.from(JSON.parse(Buffer.from(c.privateData).toString()));
        assert.equal(Buffer.from(await c.read(remote.slice(0, 4))).toString('hex'), '5a5a5a5a');
        // Freeze the peer so that the Reads stay outstanding, then kill it.
        child.kill('SIGSTOP');
        const pending = Array.from({ length: 32 }, () => c.read(remote));
        const queued = Array.from({ length: 8 }, () => c.write(Buffer.alloc(16), remote));
        await new Promise((r) => setTimeout(r, 100));
        assert.equal(c.stats.outstanding, 32);
        child.kill('SIGKILL');
        const settled = await Promise.allSettled([...pending, ...queued]);
        for (const s of settled) {
          assert.equal(s.status, 'rejected');
          const e = (s as PromiseRejectedResult).reason;
          assert.ok(e instanceof WcError || e instanceof ConnectionClosedError, String(e));
        }
        assert.ok(
          settled.some(
            (s) =>
              (s as PromiseRejectedResult).reason instanceof WcError && (s as PromiseRejectedResult).reason.code === 'IBV_WC_WR_FLUSH_ERR',
          ),
        );
        // iWARP learns of the death from TCP (DISCONNECTED); RoCE from the retry counter running
        // out (IBV_WC_RETRY_EXC_ERR, then every other WR flushed): no CM event, the QP is in Error.
        if (transport === 'iwarp') await c.closed;
        else
          assert.ok(
            settled.some(
              (s) =>
                (s as PromiseRejectedResult).reason instanceof WcError &&
                (s as PromiseRejectedResult).reason.code === 'IBV_WC_RETRY_EXC_ERR',
            ),
          );
      } finally {
        child.kill('SIGKILL');
      }
    });
  }

  test('atomics and RDMA Write with Immediate: supported → results; unsupported → UnsupportedError from the verbs return', T, async (t) => {
    await using dev = openDevice();
    const { l, client, server } = await pairOn(dev);
    const cell = dev.register(Buffer.alloc(8), { remoteAtomic: dev.capabilities.atomics, remoteWrite: true, remoteRead: true });
    if (!dev.capabilities.atomics) {
      const e = await client.atomicFetchAdd(cell, 1n).then(
        () => assert.fail('atomic succeeded on a device without atomics'),
        (x: unknown) => x,
      );
      assert.ok(e instanceof UnsupportedError, String(e));
      assert.equal(e.code, 'EOPNOTSUPP');
      assert.equal(e.errno, 22); // EINVAL, what ibv_post_send answers (as siw)
      await assert.rejects(client.atomicCompareSwap(cell, 0n, 1n), UnsupportedError);
      // The connection is still usable after a refused post.
      await client.write(Buffer.alloc(8, 1), cell);
    } else {
      assert.equal(await client.atomicFetchAdd(cell, 5n), 0n);
      assert.equal(await client.atomicCompareSwap(cell, 5n, 9n), 5n);
      assert.equal(await client.atomicFetchAdd(cell, 0n), 9n);
    }
    const imm = await client.writeWithImm(Buffer.from('imm'), cell, 0xabcd).then(
      () => null,
      (x: unknown) => x,
    );
    if (imm !== null) assert.ok(imm instanceof UnsupportedError, String(imm));
    else assert.equal((await server.receive()).imm, 0xabcd);
    await closeAll(client, server, l);
    if (!dev.capabilities.atomics || imm !== null) {
      t.skip(
        `${dev.name} has no RDMA atomics / immediate data yet (verbs: ibv_post_send → EINVAL, atomic_cap IBV_ATOMIC_NONE); the result path is tested once the atomics branch lands`,
      );
    }
  });

  test('RemoteBuffer.from: hex or decimal string, bigint, safe integer; malformed input is a TypeError', () => {
    assert.equal(RemoteBuffer.from({ addr: '0x10', rkey: 1, length: 2 }).addr, 16n);
    assert.equal(RemoteBuffer.from({ addr: '4294967296', rkey: 1, length: 2 }).addr, 4294967296n);
    assert.equal(RemoteBuffer.from({ addr: 5, rkey: 1, length: 2 }).addr, 5n);
    assert.deepEqual(JSON.parse(JSON.stringify(new RemoteBuffer(0x7f0000001000n, 9, 10))), { addr: '0x7f0000001000', rkey: 9, length: 10 });
    assert.throws(() => RemoteBuffer.from({ addr: 'zz', rkey: 1, length: 2 }), TypeError);
    assert.throws(() => RemoteBuffer.from({ addr: 1.5, rkey: 1, length: 2 }), TypeError);
    assert.throws(() => RemoteBuffer.from({ addr: 1n, rkey: -1, length: 2 }), TypeError);
    assert.throws(() => new RemoteBuffer(0n, 1, 10).slice(5, 6), RangeError);
  });

  test('RoCEv2: openDevice({ transport: "rocev2" }) opens the RoCE device; an unknown name is a DeviceNotFoundError (ENODEV) naming the devices there are', async () => {
    const dev = openDevice({ transport: 'rocev2' });
    assert.equal(dev.transport, 'rocev2');
    await dev.close();
    try {
      openDevice({ transport: 'rocev2', name: 'nosuch0' });
      assert.fail('opened a device that does not exist');
    } catch (e) {
      assert.ok(e instanceof DeviceNotFoundError, String(e));
      assert.equal(e.code, 'ENODEV');
      assert.match(e.message, /softroce0/);
    }
  });
});

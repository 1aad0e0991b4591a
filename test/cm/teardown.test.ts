/**
 * Teardown, end to end through the CM: graceful close, a FIN with work outstanding ("Bad LLP
 * Close"), ULP-initiated termination, abortive close, the peer resetting, and the peer process
 * dying. Every path must end with all posted work completed or flushed, each event delivered
 * exactly once, and every socket closed.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { type CmConnection, type CmConnectRequest, CmListener, cmConnect } from '../../src/iwarp/cm.js';
import type { WorkCompletion } from '../../src/rnic/cq.js';
import type { Rnic } from '../../src/rnic/rnic.js';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiAsyncEventType, RiQpState, RiWcStatus, RiWcType, RiWrType } from '../../src/rnicpi/types.js';
import { RdmapOpcode } from '../../src/wire/rdmap.js';
import { cmSide, riRnic, pollN, recv, reg, type Side, send, sge, until } from '../helpers/engine.js';
import { RawPeer } from '../helpers/rawpeer.js';
import { assertNoLeaks, destroyAll, te } from './helpers.js';

const T = { timeout: 30_000 };

/** Counts async events per type for one RNIC. */
function events(r: Rnic): Map<RiAsyncEventType, number> {
  const m = new Map<RiAsyncEventType, number>();
  r.asyncHandler = (_o, ev) => m.set(ev.event_type, (m.get(ev.event_type) ?? 0) + 1);
  return m;
}

/** Posts `n` receives on a side. */
function postRecvs(s: Side, n: number, base = 100n): void {
  const b = new Uint8Array(256);
  const mr = reg(s, b);
  for (let i = 0; i < n; i++) assert.equal(recv(s.qp, base + BigInt(i), [sge(mr, b)]), RiRet.SUCCESS);
}

/** Counts `close` events of a connection (must end at exactly 1). */
function closes(c: CmConnection): { n: number; done: Promise<void> } {
  const o = { n: 0, done: Promise.resolve() };
  o.done = new Promise((r) =>
    c.on('close', () => {
      o.n++;
      r();
    }),
  );
  return o;
}

/** Connects a → b through a fresh listener. */
async function pair(recvsA = 2, recvsB = 2) {
  const a = cmSide(riRnic());
  const b = cmSide(riRnic());
  const evA = events(a.rnic);
  const evB = events(b.rnic);
  const l = await CmListener.listen({ host: '127.0.0.1' });
  let pb: CmConnection | null = null;
  l.once('request', (r: CmConnectRequest) => {
    postRecvs(b, recvsB);
    pb = r.accept(b.cm);
  });
  postRecvs(a, recvsA);
  const pa = await cmConnect(a.cm, '127.0.0.1', l.port);
  await l.close();
  // The Initiator speaks first (RFC 5044 §7.1.2): a Send, so both sides are fully up.
  const m = te('hi');
  assert.equal(send(a.qp, { type: RiWrType.SEND, id: 1n, sgl: [sge(reg(a, m), m)] }), RiRet.SUCCESS);
  const [wc] = await pollN(a.cq, 1);
  assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
  const [rc] = await pollN(b.cq, 1);
  assert.equal(rc!.op_status, RiWcStatus.SUCCESS);
  return { a, b, evA, evB, pa, pb: pb! as CmConnection, ca: closes(pa), cb: closes(pb! as CmConnection) };
}

function flushed(wcs: WorkCompletion[], n: number): void {
  assert.equal(wcs.length, n);
  for (const w of wcs) assert.equal(w.op_status, RiWcStatus.WR_FLUSHED_ERROR, `WC ${w.id} flushed`);
}

/** Nothing more arrives on the CQ (the flushes above were all). */
function cqEmpty(s: Side): void {
  assert.equal(s.cq.poll([], 16), 0, 'no further completions');
}

test('graceful close: FIN both ways, both QPs Idle, receives flushed, one close event and one CLOSE_COMPLETE each', T, async () => {
  const p = await pair(3, 3);
  assert.equal(p.pa.disconnect('graceful'), RiRet.SUCCESS);
  await Promise.all([p.ca.done, p.cb.done]);
  await until(() => p.a.qp.state === RiQpState.IDLE && p.b.qp.state === RiQpState.IDLE, 3000, 'Idle');
  flushed(await pollN(p.a.cq, 3), 3);
  flushed(await pollN(p.b.cq, 2), 2);
  await new Promise((r) => setTimeout(r, 20));
  cqEmpty(p.a);
  cqEmpty(p.b);
  assert.deepEqual([...p.evA], [[RiAsyncEventType.QP_LLQ_CLOSE_COMPLETE, 1]]);
  assert.deepEqual([...p.evB], [[RiAsyncEventType.QP_LLQ_CLOSE_COMPLETE, 1]]);
  assert.deepEqual([p.ca.n, p.cb.n], [1, 1]);
  // Idle again: the QP can be reused for a new connection.
  assert.equal(p.a.qp.llpHandle, null);
  destroyAll(p.a.rnic, p.b.rnic);
  await assertNoLeaks([p.a.rnic, p.b.rnic]);
});

test('ULP-initiated termination: a Terminate to the peer, both QPs in Error, everything flushed', T, async () => {
  const p = await pair(2, 2);
  assert.equal(p.pa.disconnect('terminate'), RiRet.SUCCESS);
  await Promise.all([p.ca.done, p.cb.done]);
  await until(() => p.a.qp.state === RiQpState.ERROR && p.b.qp.state === RiQpState.ERROR, 3000, 'Error');
  assert.equal(p.a.qp.terminate?.local, true);
  assert.equal(p.b.qp.terminate?.local, false);
  flushed(await pollN(p.a.cq, 2), 2);
  flushed(await pollN(p.b.cq, 1), 1);
  await new Promise((r) => setTimeout(r, 20));
  cqEmpty(p.a);
  cqEmpty(p.b);
  assert.deepEqual([...p.evA], []);
  assert.deepEqual([...p.evB], [[RiAsyncEventType.QP_TERMINATE_MESSAGE_RECEIVED, 1]]);
  assert.deepEqual([p.ca.n, p.cb.n], [1, 1]);
  destroyAll(p.a.rnic, p.b.rnic);
  await assertNoLeaks([p.a.rnic, p.b.rnic]);
});

test('abortive close: RST, the peer sees a connection reset once, both flushed', T, async () => {
  const p = await pair(2, 2);
  assert.equal(p.pa.disconnect('abortive'), RiRet.SUCCESS);
  assert.equal(p.a.qp.state, RiQpState.ERROR);
  await Promise.all([p.ca.done, p.cb.done]);
  await until(() => p.b.qp.state === RiQpState.ERROR, 3000, 'peer Error');
  flushed(await pollN(p.a.cq, 2), 2);
  flushed(await pollN(p.b.cq, 1), 1);
  await new Promise((r) => setTimeout(r, 20));
  cqEmpty(p.a);
  cqEmpty(p.b);
  assert.deepEqual([...p.evA], []);
  assert.deepEqual([...p.evB], [[RiAsyncEventType.QP_LLQ_CONNECTION_RESET, 1]]);
  assert.deepEqual([p.ca.n, p.cb.n], [1, 1]);
  destroyAll(p.a.rnic, p.b.rnic);
  await assertNoLeaks([p.a.rnic, p.b.rnic]);
});

/** Our listener with a raw Initiator (test/helpers/rawpeer.ts speaks MPA itself). */
async function rawPair(recvs: number) {
  const b = cmSide(riRnic());
  const ev = events(b.rnic);
  const l = await CmListener.listen({ host: '127.0.0.1' });
  let pb: CmConnection | null = null;
  l.once('request', (r: CmConnectRequest) => {
    postRecvs(b, recvs);
    pb = r.accept(b.cm);
  });
  const raw = await RawPeer.connect(l.port);
  await until(() => pb !== null, 3000, 'accept');
  await l.close();
  // First FPDU from the Initiator: a Send (MSN 1), which also lets our side transmit.
  raw.send(1, te('first'));
  const [rc] = await pollN(b.cq, 1);
  assert.equal(rc!.op_status, RiWcStatus.SUCCESS);
  return { b, ev, raw, pb: pb! as CmConnection, cb: closes(pb! as CmConnection) };
}

test('FIN with an RDMA Read outstanding: Terminate "catastrophic, stream" + Bad LLP Close, the Read flushed', T, async () => {
  const p = await rawPair(2);
  const sink = new Uint8Array(32);
  assert.equal(
    send(p.b.qp, { type: RiWrType.RDMA_READ, id: 7n, sgl: [sge(reg(p.b, sink), sink)], rtag: 0x1234, remoteTo: 0n }),
    RiRet.SUCCESS,
  );
  // The raw peer receives the Read Request and closes instead of answering it.
  await until(() => p.raw.fpdus.some((u) => (u[1]! & 0x0f) === RdmapOpcode.ReadRequest), 3000, 'the Read Request');
  p.raw.sock.end();
  const t = await p.raw.terminate();
  assert.deepEqual([t.layer, t.etype, t.ecode], [0, 2, 7], 'RDMAP / Remote Operation / catastrophic, localized to the stream');
  await p.cb.done;
  await until(() => p.b.qp.state === RiQpState.ERROR, 3000, 'Error');
  const wcs = await pollN(p.b.cq, 2);
  assert.deepEqual(
    wcs.map((w) => [w.op_type, w.op_status]).sort(),
    [
      [RiWcType.RDMA_READ, RiWcStatus.WR_FLUSHED_ERROR],
      [RiWcType.DATA_RECEIVED, RiWcStatus.WR_FLUSHED_ERROR],
    ].sort(),
  );
  await new Promise((r) => setTimeout(r, 20));
  cqEmpty(p.b);
  assert.deepEqual([...p.ev], [[RiAsyncEventType.QP_BAD_LLQ_CLOSE, 1]]);
  assert.equal(p.cb.n, 1);
  destroyAll(p.b.rnic);
  await assertNoLeaks([p.b.rnic]);
});

test('the peer resets the connection: Error, one CONNECTION_RESET, receives flushed', T, async () => {
  const p = await rawPair(3);
  p.raw.sock.resetAndDestroy();
  await p.cb.done;
  await until(() => p.b.qp.state === RiQpState.ERROR, 3000, 'Error');
  flushed(await pollN(p.b.cq, 2), 2);
  await new Promise((r) => setTimeout(r, 20));
  cqEmpty(p.b);
  assert.deepEqual([...p.ev], [[RiAsyncEventType.QP_LLQ_CONNECTION_RESET, 1]]);
  assert.equal(p.cb.n, 1);
  destroyAll(p.b.rnic);
  await assertNoLeaks([p.b.rnic]);
});

test('the peer process dies (SIGKILL): the QP leaves RTS, receives are flushed, one close event', T, async () => {
  const b = cmSide(riRnic());
  const ev = events(b.rnic);
  const l = await CmListener.listen({ host: '127.0.0.1' });
  let pb: CmConnection | null = null;
  l.once('request', (r: CmConnectRequest) => {
    assert.match(Buffer.from(r.privateData).toString(), /^pid \d+$/);
    postRecvs(b, 2);
    pb = r.accept(b.cm);
  });
  const script = fileURLToPath(new URL('./fixtures/cm-peer.js', import.meta.url));
  const child = spawn(process.execPath, [script, String(l.port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d));
  const exited = new Promise((r) => child.once('exit', r));
  await until(() => out.includes('RTS') || child.exitCode !== null, 10_000, 'the child in RTS');
  assert.match(out, /RTS/, err);
  await l.close();
  const c = closes(pb! as CmConnection);
  assert.equal(b.qp.state, RiQpState.READY_TO_SEND);
  child.kill('SIGKILL');
  await exited;
  await c.done;
  // The kernel closes the dead process's socket: a FIN (→ Closing → Idle) or a reset (→ Error).
  await until(() => b.qp.state === RiQpState.IDLE || b.qp.state === RiQpState.ERROR, 5000, 'the QP out of RTS');
  flushed(await pollN(b.cq, 2), 2);
  await new Promise((r) => setTimeout(r, 20));
  cqEmpty(b);
  const total = [...ev.values()].reduce((x, y) => x + y, 0);
  assert.equal(total, 1, `exactly one async event: ${JSON.stringify([...ev])}`);
  assert.ok(
    ev.has(RiAsyncEventType.QP_LLQ_CLOSE_COMPLETE) ||
      ev.has(RiAsyncEventType.QP_LLQ_CONNECTION_RESET) ||
      ev.has(RiAsyncEventType.QP_LLQ_CONNECTION_LOST),
  );
  assert.equal(c.n, 1);
  destroyAll(b.rnic);
  await assertNoLeaks([b.rnic]);
});

test('graceful close towards a peer that never sends its FIN: the 5 s close timer ends the LLP (Error, CONNECTION_LOST)', T, async () => {
  const p = await rawPair(2);
  assert.equal(p.pb.disconnect('graceful'), RiRet.SUCCESS);
  assert.equal(p.b.qp.state, RiQpState.CLOSING);
  // Closing flushes the receive queue at once (Verbs §6.2 T6).
  flushed(await pollN(p.b.cq, 1), 1);
  await p.cb.done;
  assert.equal(p.b.qp.state, RiQpState.ERROR);
  // The raw peer (in CLOSE_WAIT, no longer reading) learns that our socket is gone only when it
  // writes: our kernel answers data for the closed socket with a RST.
  const poke = setInterval(() => p.raw.sock.writable && p.raw.sock.write(new Uint8Array(4)), 50);
  try {
    await until(() => p.raw.closed, 3000, 'the raw peer sees the reset');
  } finally {
    clearInterval(poke);
  }
  assert.deepEqual([...p.ev], [[RiAsyncEventType.QP_LLQ_CONNECTION_LOST, 1]]);
  assert.equal(p.cb.n, 1);
  destroyAll(p.b.rnic);
  await assertNoLeaks([p.b.rnic]);
});

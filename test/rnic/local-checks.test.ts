/**
 * Issue 17 finding 5: every local SGE of a posted WR, Read sinks included, is checked against its
 * region when it is posted, and a violation puts nothing on the wire. Before, a Read's sink was
 * checked only when the first Read Response arrived, so a Read longer than its own sink (a peer
 * advertising 4 GiB to rping's server) went on the wire as a 4 GiB Read Request.
 *
 * The QP under test talks to a raw end of the loopback link, which records every unit the QP
 * puts on the wire. The verbs-level version (iWARP and RoCEv2, through a server that trusts the
 * advertised length) is in attacks.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { K, LoopbackRawEnd, loopbackPair } from '../../src/loopback/loopback.js';
import { mrDereg } from '../../src/rnic/memops.js';
import { TxOp } from '../../src/rnic/transport.js';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiQpState, RiWcStatus, RiWrType } from '../../src/rnicpi/types.js';
import { makeSide, pollN, reg, send, type Side, sge, until } from '../helpers/engine.js';

/** `side` connected to a raw end of the loopback link. */
function toRaw(side: Side): LoopbackRawEnd {
  const [ev, er] = loopbackPair();
  const raw = new LoopbackRawEnd(er);
  assert.equal(side.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp: ev }), RiRet.SUCCESS);
  return raw;
}
const readRequests = (raw: LoopbackRawEnd) => raw.received.filter((u) => u.op === TxOp.READ_REQUEST);

test('finding 5: a Read longer than its own 64-octet sink completes with a bounds error and no Read Request goes on the wire', async () => {
  const s = makeSide();
  const raw = toRaw(s);
  const sink = new Uint8Array(64);
  const m = reg(s, sink);
  // A good Read first: the raw end sees its request (the observation works).
  assert.equal(send(s.qp, { type: RiWrType.RDMA_READ, id: 1n, sgl: [sge(m, sink)], rtag: 0x1234_5600, remoteTo: 0x1000n }), RiRet.SUCCESS);
  await until(() => readRequests(raw).length === 1, 2000, 'the good Read Request');
  assert.equal(readRequests(raw)[0]!.size, 64);
  // The peer advertised 4 GiB − 1: the sink SGE says so too.
  assert.equal(
    send(s.qp, { type: RiWrType.RDMA_READ, id: 2n, sgl: [{ ...sge(m, sink), len: 0xffff_ffff }], rtag: 0x1234_5600, remoteTo: 0x1000n }),
    RiRet.SUCCESS,
  );
  // The QP terminates and closes its half of the LLP; the raw end closes its own, as a TCP peer
  // does, so the QP enters Error and flushes the good Read (Verbs §6.2: Terminate → Error when
  // the LLP closes). Without it only the QP's close timer would end Terminate, and a poll timed
  // against that timer would race it.
  await raw.waitFor((u) => u.k === K.FIN, 2000);
  raw.control(K.FIN);
  const wcs = await pollN(s.cq, 2);
  const bad = wcs.find((w) => w.id === 2n)!;
  assert.equal(RiWcStatus[bad.op_status], RiWcStatus[RiWcStatus.BASE_BOUNDS_VIOLATION_ERROR]);
  await until(() => s.qp.state === RiQpState.TERMINATE || s.qp.state === RiQpState.ERROR, 2000, 'the QP leaves RTS');
  assert.equal(readRequests(raw).length, 1, 'the oversized Read Request reached the wire');
});

test('finding 5: a Read into a sink without Remote Write, or with a wrong key, fails before its request is sent', async () => {
  for (const [what, fix] of [
    ['no Remote Write', (m: ReturnType<typeof reg>, sink: Uint8Array) => ({ ...sge(m, sink), stag: m.stag })],
    [
      'wrong key',
      (m: ReturnType<typeof reg>, sink: Uint8Array) => ({ ...sge(m, sink), stag: ((m.stag & ~0xff) | ((m.stag + 1) & 0xff)) >>> 0 }),
    ],
  ] as const) {
    const s = makeSide();
    const raw = toRaw(s);
    const sink = new Uint8Array(64);
    const m = what === 'no Remote Write' ? reg(s, sink, 0x1 | 0x2) : reg(s, sink);
    assert.equal(
      send(s.qp, { type: RiWrType.RDMA_READ, id: 1n, sgl: [fix(m, sink)], rtag: 0x1234_5600, remoteTo: 0x1000n }),
      RiRet.SUCCESS,
    );
    const [w] = await pollN(s.cq, 1);
    assert.notEqual(w!.op_status, RiWcStatus.SUCCESS, what);
    assert.equal(readRequests(raw).length, 0, `${what}: a Read Request reached the wire`);
  }
});

test('a sink deregistered between post and execution (posted in Idle) fails at execution, nothing on the wire', async () => {
  const s = makeSide();
  const sink = new Uint8Array(64);
  const m = reg(s, sink);
  // Idle: accepted and queued (Verbs §6.2); the post-time check passes, the region is valid.
  assert.equal(send(s.qp, { type: RiWrType.RDMA_READ, id: 1n, sgl: [sge(m, sink)], rtag: 0x1234_5600, remoteTo: 0x1000n }), RiRet.SUCCESS);
  assert.equal(mrDereg(s.rnic, m), RiRet.SUCCESS);
  const raw = toRaw(s);
  const [w] = await pollN(s.cq, 1);
  assert.equal(RiWcStatus[w!.op_status], RiWcStatus[RiWcStatus.INVALID_STAG_ERROR]);
  assert.equal(readRequests(raw).length, 0);
});

test('a bad SGE behind a good Send: the Send goes out and completes, the bad WR completes in error in post order, its data never leaves', async () => {
  const s = makeSide();
  const raw = toRaw(s);
  const src = new Uint8Array(32).fill(7);
  const m = reg(s, src);
  assert.equal(send(s.qp, { type: RiWrType.SEND, id: 1n, sgl: [sge(m, src)] }), RiRet.SUCCESS);
  assert.equal(
    send(s.qp, { type: RiWrType.RDMA_WRITE, id: 2n, sgl: [{ ...sge(m, src), len: 33 }], rtag: 0x1234_5600, remoteTo: 0x1000n }),
    RiRet.SUCCESS,
  );
  const wcs = await pollN(s.cq, 2);
  assert.deepEqual(
    wcs.map((w) => [w.id, RiWcStatus[w.op_status]]),
    [
      [1n, RiWcStatus[RiWcStatus.SUCCESS]],
      [2n, RiWcStatus[RiWcStatus.BASE_BOUNDS_VIOLATION_ERROR]],
    ],
  );
  assert.equal(raw.received.filter((u) => u.op === TxOp.RDMA_WRITE && u.k === 0).length, 0, 'the Write went out');
});

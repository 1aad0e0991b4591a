/**
 * Scale: 1,000 connections established and torn down through one listener in one process
 * (at most 50 in flight), each exchanging a Send; afterwards no socket, timer, request or QP is
 * left anywhere.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CmConnection, type CmConnectRequest, CmListener, type CmQp, cmConnect } from '../../src/iwarp/cm.js';
import type { Qp } from '../../src/rnic/qp.js';
import type { Rnic } from '../../src/rnic/rnic.js';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiQpState, RiWcStatus, RiWrType } from '../../src/rnicpi/types.js';
import { cmQps, must, recv, riRnic, send, until } from '../helpers/engine.js';
import { assertNoLeaks } from './helpers.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import { mrReg } from '../../src/rnic/memops.js';
import { ALL_ACCESS } from '../helpers/engine.js';

const TOTAL = 1000;
const IN_FLIGHT = 50;

test(`${TOTAL} connections through one listener, established and torn down, nothing left`, { timeout: 60_000 }, async () => {
  const ra = riRnic();
  const rb = riRnic();
  // One PD, CQ and buffer per side; one QP per connection.
  // QPs are made through RNICPI (the CM takes them as CmQp); `engine` finds the engine QP of a
  // connection for the engine-level checks.
  const engine = new Map<CmQp, Qp>();
  const mk = (r: Rnic) => {
    const f = cmQps(r, 8 * IN_FLIGHT, {
      sqSize: 4,
      rqSize: 4,
      ord: 2,
      ird: 2,
      sqMaxSges: 1,
      sqMaxSgesRdmaw: 1,
      rqMaxSges: 1,
      enableBind: false,
    });
    const { pd, cq } = f;
    const buf = new Uint8Array(16);
    const mr = must(mrReg(r, { va: hostMemory.addressOf(buf), length: buf.length, flags: ALL_ACCESS, pd, key: 0 }, null));
    const qp = () => {
      const q = f.make();
      engine.set(q.cm, q.qp);
      return q;
    };
    const sge = { stag: mr.stag, to: hostMemory.addressOf(buf), len: buf.length };
    return { cq, qp, sge };
  };
  const A = mk(ra);
  const B = mk(rb);
  const l = await CmListener.listen({ host: '127.0.0.1' });
  const passive = new Map<number, CmConnection>();
  l.on('request', (r: CmConnectRequest) => {
    const q = B.qp();
    assert.equal(recv(q.qp, 1n, [B.sge]), RiRet.SUCCESS);
    passive.set(Number(Buffer.from(r.privateData).readUInt32BE(0)), r.accept(q.cm));
  });
  let done = 0;
  let next = 0;
  const one = async (i: number): Promise<void> => {
    const { qp, cm } = A.qp();
    const pd = Buffer.alloc(4);
    pd.writeUInt32BE(i);
    const c = await cmConnect(cm, '127.0.0.1', l.port, { privateData: pd });
    const pc = passive.get(i)!;
    assert.ok(pc, `request ${i} accepted`);
    const p = { qp: engine.get(pc.qp)!, once: pc.once.bind(pc) };
    engine.delete(cm);
    engine.delete(pc.qp);
    assert.equal(send(qp, { type: RiWrType.SEND, id: BigInt(i), sgl: [A.sge] }), RiRet.SUCCESS);
    const closed = Promise.all([new Promise((r) => c.once('close', r)), new Promise((r) => p.once('close', r))]);
    // The Responder's receive completes once the Send is in; then close gracefully.
    await until(() => p.qp.rqOccupied === 0 || p.qp.state !== RiQpState.READY_TO_SEND, 10_000, 'the Send');
    assert.equal(c.disconnect('graceful'), RiRet.SUCCESS);
    await closed;
    await until(() => qp.state === RiQpState.IDLE && p.qp.state === RiQpState.IDLE, 10_000, 'both Idle');
    assert.equal(ra.qpDestroy(qp), RiRet.SUCCESS);
    assert.equal(rb.qpDestroy(p.qp), RiRet.SUCCESS);
    passive.delete(i);
    done++;
  };
  // Completions are reaped as they come (they release queue slots).
  let reaped = 0;
  const reap = (): void => {
    const wcs: Parameters<typeof A.cq.poll>[0] = [];
    for (const cq of [A.cq, B.cq]) {
      const n = cq.poll(wcs, 256);
      for (let k = 0; k < n; k++) assert.equal(wcs[k]!.op_status, RiWcStatus.SUCCESS);
      reaped += n;
    }
  };
  const reaper = setInterval(reap, 5);
  try {
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < TOTAL) await one(next++);
      }),
    );
  } finally {
    clearInterval(reaper);
  }
  assert.equal(done, TOTAL);
  assert.equal(l.stats.accepted, TOTAL);
  assert.equal(l.stats.failed + l.stats.dropped + l.stats.aborted, 0);
  await l.close();
  // Every Send completed on both sides: one SQ and one RQ completion per connection.
  reap();
  assert.equal(reaped, 2 * TOTAL);
  await assertNoLeaks([ra, rb], 10_000);
});

/**
 * The loopback transport's deterministic fault hook: the same seed gives the same faults, and a
 * lost, duplicated or corrupted unit is caught by the loopback wire's own checks (message
 * sequence, payload CRC) and ends the connection with every WR completed or flushed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiQpState, RiWcStatus, RiWrType } from '../../src/rnicpi/types.js';
import { FaultHook } from '../../src/loopback/faults.js';
import { connectPair, makeSide, pollN, recv, reg, send, sge, until } from '../helpers/engine.js';

test('fault hook: a seed replays the same decisions', () => {
  const plan = { seed: 42, drop: 0.05, duplicate: 0.01, reorder: 0.1, corrupt: 0.02 };
  const a = new FaultHook(plan);
  const b = new FaultHook(plan);
  const seqA = Array.from({ length: 500 }, () => a.decide());
  const seqB = Array.from({ length: 500 }, () => b.decide());
  assert.deepEqual(seqA, seqB);
  assert.ok(a.applied.drop > 0 && a.applied.reorder > 0, 'faults are drawn');
});

for (const [name, plan] of [
  ['dropped', { seed: 7, drop: 0.3 }],
  ['duplicated', { seed: 7, duplicate: 0.3 }],
  ['corrupted', { seed: 7, corrupt: 0.3 }],
] as const) {
  test(`loopback: a ${name} Send is detected by the receiver, the stream ends and every WR completes or flushes`, async () => {
    const a = makeSide();
    const b = makeSide();
    const src = new Uint8Array(64).fill(7);
    const mrA = reg(a, src);
    const dst = new Uint8Array(64 * 40);
    const mrB = reg(b, dst);
    const n = 40;
    const pair = await connectPair(a, b, {
      transport: 'loopback',
      faults: { ab: plan },
      beforeRts: (s) => {
        if (s === b) for (let i = 0; i < n; i++) assert.equal(recv(b.qp, BigInt(i), [sge(mrB, dst, i * 64, 64)]), RiRet.SUCCESS);
      },
    });
    try {
      for (let i = 0; i < n; i++) assert.equal(send(a.qp, { type: RiWrType.SEND, id: BigInt(i), sgl: [sge(mrA, src)] }), RiRet.SUCCESS);
      await until(() => b.qp.state !== RiQpState.READY_TO_SEND, 3000, 'receiver left RTS');
      await until(() => b.qp.state === RiQpState.ERROR, 6000, 'receiver in Error');
      const wcs = await pollN(b.cq, n);
      assert.equal(wcs.length, n, 'every receive completes (success or flush)');
      assert.ok(
        wcs.some((w) => w.op_status === RiWcStatus.WR_FLUSHED_ERROR),
        'the rest is flushed',
      );
      const sent = await pollN(a.cq, n);
      assert.equal(sent.length, n, 'every Send completes');
    } finally {
      await pair.close();
    }
  });
}

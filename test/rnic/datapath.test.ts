import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiQpState, RiWcStatus, RiWcType, RiWrType } from '../../src/rnicpi/types.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import { connectPair, makeSide, pollN, recv, reg, send, sge } from '../helpers/engine.js';

for (const crc of [false, true]) {
  test(`Send, RDMA Write and RDMA Read move bytes between two QPs (crc=${crc})`, async () => {
    const a = makeSide();
    const b = makeSide();
    const bufA = randomBytes(200_000);
    const bufB = new Uint8Array(200_000);
    const back = new Uint8Array(200_000);
    const msg = new Uint8Array(100);
    const rbuf = new Uint8Array(100);
    const mrA = reg(a, bufA);
    const mrB = reg(b, bufB);
    const mrBack = reg(a, back);
    const mrMsg = reg(a, msg);
    const mrR = reg(b, rbuf);
    const pair = await connectPair(a, b, {
      mpaA: { crc },
      beforeRts: (s) => {
        if (s === b) assert.equal(recv(b.qp, 7n, [sge(mrR, rbuf)]), RiRet.SUCCESS);
      },
    });
    try {
      // RDMA Write a → b
      assert.equal(
        send(a.qp, { type: RiWrType.RDMA_WRITE, id: 1n, sgl: [sge(mrA, bufA)], rtag: mrB.stag, remoteTo: hostMemory.addressOf(bufB) }),
        RiRet.SUCCESS,
      );
      // RDMA Read back b → a
      assert.equal(
        send(a.qp, { type: RiWrType.RDMA_READ, id: 2n, sgl: [sge(mrBack, back)], rtag: mrB.stag, remoteTo: hostMemory.addressOf(bufB) }),
        RiRet.SUCCESS,
      );
      msg.set(Buffer.from('hello, softrdma'));
      assert.equal(send(a.qp, { type: RiWrType.SEND, id: 3n, sgl: [sge(mrMsg, msg, 0, 15)] }), RiRet.SUCCESS);
      const wcs = await pollN(a.cq, 3);
      assert.deepEqual(
        wcs.map((w) => [w.id, w.op_status, w.op_type]),
        [
          [1n, RiWcStatus.SUCCESS, RiWcType.RDMA_WRITE],
          [2n, RiWcStatus.SUCCESS, RiWcType.RDMA_READ],
          [3n, RiWcStatus.SUCCESS, RiWcType.SEND],
        ],
      );
      assert.deepEqual(Buffer.from(bufB), Buffer.from(bufA));
      assert.deepEqual(Buffer.from(back), Buffer.from(bufA));
      const [rwc] = await pollN(b.cq, 1);
      assert.equal(rwc!.id, 7n);
      assert.equal(rwc!.op_type, RiWcType.DATA_RECEIVED);
      assert.equal(rwc!.bytes_transferred, 15);
      assert.equal(Buffer.from(rbuf.subarray(0, 15)).toString(), 'hello, softrdma');
      assert.equal(a.qp.state, RiQpState.READY_TO_SEND);
      assert.equal(b.qp.state, RiQpState.READY_TO_SEND);
    } finally {
      await pair.close();
    }
  });
}

test('a Send with no receive posted terminates the stream and flushes the peer', async () => {
  const a = makeSide();
  const b = makeSide();
  const msg = new Uint8Array(10);
  const mr = reg(a, msg);
  const rb = new Uint8Array(10);
  const mrb = reg(b, rb);
  const pair = await connectPair(a, b);
  try {
    assert.equal(send(a.qp, { type: RiWrType.SEND, id: 1n, sgl: [sge(mr, msg)] }), RiRet.SUCCESS);
    await new Promise((r) => setTimeout(r, 50));
    // b had no receive posted: it sends a Terminate (DDP untagged, no buffer) and errors out.
    const deadline = Date.now() + 3000;
    while (b.qp.state !== RiQpState.ERROR && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.equal(b.qp.state, RiQpState.ERROR);
    assert.deepEqual(
      b.qp.terminate?.codes && [b.qp.terminate.codes.layer, b.qp.terminate.codes.etype, b.qp.terminate.codes.ecode],
      [1, 2, 2],
    );
    while (a.qp.state !== RiQpState.ERROR && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.equal(a.qp.state, RiQpState.ERROR);
    assert.equal(a.qp.terminate?.local, false);
    // Posting to b now flushes.
    assert.equal(recv(b.qp, 9n, [sge(mrb, rb)]), RiRet.SUCCESS);
    const [wc] = await pollN(b.cq, 1);
    assert.equal(wc!.op_status, RiWcStatus.WR_FLUSHED_ERROR);
  } finally {
    await pair.close();
  }
});

test('the MPA Responder holds FPDUs until the Initiator speaks, but runs a Bind at once (no wire effect)', async () => {
  const { mwAlloc } = await import('../../src/rnic/memops.js');
  const { RiMemFlags, RiMwType } = await import('../../src/rnicpi/types.js');
  const a = makeSide();
  const b = makeSide();
  const buf = new Uint8Array(64);
  const mr = reg(b, buf, RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE | RiMemFlags.BINDING);
  const pair = await connectPair(a, b);
  try {
    const mw = mwAlloc(b.rnic, b.pd, RiMwType.TYPE_NARROW, null);
    assert.equal(typeof mw, 'object');
    const mwo = mw as Exclude<typeof mw, number>;
    const va = hostMemory.addressOf(buf);
    assert.equal(
      send(b.qp, {
        type: RiWrType.BIND,
        id: 5n,
        mw: mwo,
        mr,
        bindVa: va,
        bindLength: 64,
        bindFlags: RiMemFlags.REMOTE_WRITE,
        rtag: ((mwo.stag & ~0xff) | 0x42) >>> 0,
      }),
      RiRet.SUCCESS,
    );
    // A Send from the Responder stays held: the Initiator has sent nothing yet.
    const m = new Uint8Array(4);
    const mm = reg(b, m);
    assert.equal(send(b.qp, { type: RiWrType.SEND, id: 6n, sgl: [sge(mm, m)] }), RiRet.SUCCESS);
    const [wc] = await pollN(b.cq, 1);
    assert.equal(wc!.id, 5n);
    assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
    assert.equal(mwo.valid, true);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(b.cq.depth, 0, 'the Send is still held');
  } finally {
    await pair.close();
  }
});

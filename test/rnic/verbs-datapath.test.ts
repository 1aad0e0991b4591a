/**
 * RDMA Protocol Verbs §10 assertions about the data path, the automatic QP transitions,
 * ordering, fences, ORD/IRD, Terminate and flush, driven on the engine. The suite runs once per
 * transport (iWARP over loopback TCP, and the in-process loopback transport), named in its
 * title. Each test is named after its assertion ID in the RDMA Protocol Verbs §10 checklist.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiAsyncEventType, RiMemFlags, RiQpState, RiWcFlags, RiWcStatus, RiWrFlags, RiWrType } from '../../src/rnicpi/types.js';
import { type AsyncEventRecord, DEFAULT_CONFIG, Rnic } from '../../src/rnic/rnic.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import { WqeState } from '../../src/rnic/wqe.js';
import {
  connectPair,
  llp,
  makeSide,
  type Pair,
  pollN,
  recv,
  reg,
  type Side,
  send,
  sge,
  TRANSPORTS,
  type TransportName,
  termCode,
  until,
} from '../helpers/engine.js';

const LOCAL = RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE;

function events(s: Side): AsyncEventRecord[] {
  const out: AsyncEventRecord[] = [];
  s.rnic.asyncHandler = (_os, ev) => out.push(ev);
  return out;
}

let transport: TransportName = 'iwarp';

async function pair(opts: Parameters<typeof makeSide>[1] = {}, beforeRts?: (s: Side) => void): Promise<Pair> {
  return connectPair(makeSide(undefined, opts), makeSide(undefined, opts), { beforeRts, transport });
}

const va = (b: Uint8Array) => hostMemory.addressOf(b);
const hasEvent = (evs: AsyncEventRecord[], t: RiAsyncEventType) => evs.some((e) => e.event_type === t);

for (const t of TRANSPORTS) {
  describe(`verbs data path [${t}]`, () => {
    before(() => {
      transport = t;
    });

    test('VERBS-D1 an RDMA Write consumes no receive WQE at the peer', async () => {
      const rb = new Uint8Array(16);
      const p = await pair({}, (s) => void s);
      try {
        const { a, b } = p;
        const rmr = reg(b, rb);
        assert.equal(recv(b.qp, 1n, [sge(rmr, rb)]), RiRet.SUCCESS);
        const dst = new Uint8Array(64);
        const mrd = reg(b, dst);
        const src = new Uint8Array(64).fill(9);
        const mrs = reg(a, src);
        assert.equal(send(a.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(mrs, src)], rtag: mrd.stag, remoteTo: va(dst) }), RiRet.SUCCESS);
        await pollN(a.cq, 1);
        await until(() => dst[63] === 9, 2000, 'placement');
        assert.equal(b.cq.depth, 0);
        assert.equal(b.qp.rqOccupied, 1);
        assert.equal(b.qp.rqProc, 0, 'the posted receive is still unconsumed');
      } finally {
        await p.close();
      }
    });

    test('VERBS-D2 an RDMA Write to a remote MR without Remote Write terminates the target with an access-rights AE; the initiator gets "Terminate Message Received"', async () => {
      const p = await pair();
      try {
        const { a, b } = p;
        const evA = events(a);
        const evB = events(b);
        const dst = new Uint8Array(64);
        const mrd = reg(b, dst, LOCAL | RiMemFlags.REMOTE_READ);
        const src = new Uint8Array(64).fill(9);
        const mrs = reg(a, src);
        assert.equal(send(a.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(mrs, src)], rtag: mrd.stag, remoteTo: va(dst) }), RiRet.SUCCESS);
        await until(() => b.qp.state === RiQpState.ERROR && a.qp.state === RiQpState.ERROR, 5000, 'both in Error');
        assert.ok(hasEvent(evB, RiAsyncEventType.QP_PROTECTION_ERROR_ACCESS_VIOLATION));
        assert.ok(hasEvent(evA, RiAsyncEventType.QP_TERMINATE_MESSAGE_RECEIVED));
        assert.deepEqual(termCode(a.qp), [0, 1, 2]);
        assert.equal(
          dst.every((x) => x === 0),
          true,
        );
      } finally {
        await p.close();
      }
    });

    test('VERBS-D3 an RDMA Read from a remote MR without Remote Read raises the IRRQ access-violation AE and Terminate 0x0102', async () => {
      const p = await pair();
      try {
        const { a, b } = p;
        const evB = events(b);
        const srcB = new Uint8Array(64);
        const mrB = reg(b, srcB, LOCAL | RiMemFlags.REMOTE_WRITE);
        const sink = new Uint8Array(64);
        const mrA = reg(a, sink);
        assert.equal(send(a.qp, { type: RiWrType.RDMA_READ, sgl: [sge(mrA, sink)], rtag: mrB.stag, remoteTo: va(srcB) }), RiRet.SUCCESS);
        await until(() => b.qp.state === RiQpState.ERROR, 5000, 'target in Error');
        assert.ok(hasEvent(evB, RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_ACCESS_VIOLATION));
        assert.deepEqual(termCode(b.qp), [0, 1, 2]);
        // The Terminate names our Read Request: the Read completes with Remote Access Error
        // ("Remote Termination Error ... related to this WR", Verbs §6.6.2.4; spec-notes).
        const [wc] = await pollN(a.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.REMOTE_ACCESS_ERROR);
      } finally {
        await p.close();
      }
    });

    test('VERBS-D4 a Read Response landing in a local MR without Remote Write fails the Read (CE) and terminates the QP', async () => {
      const p = await pair();
      try {
        const { a, b } = p;
        const srcB = new Uint8Array(64).fill(5);
        const mrB = reg(b, srcB);
        const sink = new Uint8Array(64);
        const mrA = reg(a, sink, LOCAL);
        assert.equal(send(a.qp, { type: RiWrType.RDMA_READ, sgl: [sge(mrA, sink)], rtag: mrB.stag, remoteTo: va(srcB) }), RiRet.SUCCESS);
        const [wc] = await pollN(a.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.ACCESS_VIOLATION_ERROR);
        await until(() => a.qp.state === RiQpState.ERROR, 5000, 'Error');
        assert.equal(
          sink.every((x) => x === 0),
          true,
        );
      } finally {
        await p.close();
      }
    });

    test('VERBS-D5 an RDMA Read with ORD = 0 completes with "Zero RDMA Read Resources"', async () => {
      const p = await pair({ ord: 0 });
      try {
        const { a, b } = p;
        const srcB = new Uint8Array(8);
        const mrB = reg(b, srcB);
        const sink = new Uint8Array(8);
        const mrA = reg(a, sink);
        assert.equal(send(a.qp, { type: RiWrType.RDMA_READ, sgl: [sge(mrA, sink)], rtag: mrB.stag, remoteTo: va(srcB) }), RiRet.SUCCESS);
        const [wc] = await pollN(a.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.ZERO_ORD_ERROR);
      } finally {
        await p.close();
      }
    });

    test('VERBS-D6 posting ORD+1 RDMA Reads keeps at most ORD Read Requests outstanding, with no error', async () => {
      const p = await pair({ ord: 2, ird: 2 });
      try {
        const { a, b } = p;
        const srcB = new Uint8Array(1 << 20).fill(1);
        const mrB = reg(b, srcB);
        const sinks = [0, 1, 2].map(() => new Uint8Array(1 << 20));
        const mrs = sinks.map((s) => reg(a, s));
        for (const [i, s] of sinks.entries()) {
          assert.equal(
            send(a.qp, { type: RiWrType.RDMA_READ, id: BigInt(i), sgl: [sge(mrs[i]!, s)], rtag: mrB.stag, remoteTo: va(srcB) }),
            RiRet.SUCCESS,
          );
        }
        let maxOut = 0;
        const wcs = [];
        while (wcs.length < 3) {
          const orq = a.qp.orq;
          maxOut = Math.max(maxOut, orq.length);
          wcs.push(...(await pollN(a.cq, 1)));
        }
        assert.ok(maxOut <= 2, `at most ORD=2 outstanding, saw ${maxOut}`);
        assert.deepEqual(
          wcs.map((w) => w.op_status),
          [0, 0, 0],
        );
        assert.equal(sinks[2]![(1 << 20) - 1], 1);
      } finally {
        await p.close();
      }
    });

    test('VERBS-D8 RDMA Write then RDMA Read of the same remote buffer returns the written data', async () => {
      const p = await pair();
      try {
        const { a, b } = p;
        const dst = new Uint8Array(300_000);
        const mrd = reg(b, dst);
        const src = new Uint8Array(300_000).map((_, i) => i & 0xff);
        const mrs = reg(a, src);
        const back = new Uint8Array(300_000);
        const mrb = reg(a, back);
        assert.equal(
          send(a.qp, { type: RiWrType.RDMA_WRITE, id: 1n, flags: 0, sgl: [sge(mrs, src)], rtag: mrd.stag, remoteTo: va(dst) }),
          RiRet.SUCCESS,
        );
        assert.equal(
          send(a.qp, { type: RiWrType.RDMA_READ, id: 2n, sgl: [sge(mrb, back)], rtag: mrd.stag, remoteTo: va(dst) }),
          RiRet.SUCCESS,
        );
        const [wc] = await pollN(a.cq, 1);
        assert.equal(wc!.id, 2n);
        assert.deepEqual(Buffer.from(back), Buffer.from(src));
      } finally {
        await p.close();
      }
    });

    for (const fenced of [true, false]) {
      test(`VERBS-D9 a Read followed by a ${fenced ? 'Read-Fenced' : 'plain (control)'} Send: ${fenced ? 'the Send waits for the Read' : 'the Send may overtake the Read'}`, async () => {
        const p = await pair();
        try {
          const { a, b } = p;
          const rb = new Uint8Array(8);
          const rmr = reg(b, rb);
          assert.equal(recv(b.qp, 1n, [sge(rmr, rb)]), RiRet.SUCCESS);
          const srcB = new Uint8Array(8 << 20).fill(2);
          const mrB = reg(b, srcB);
          const sink = new Uint8Array(8 << 20);
          const mrA = reg(a, sink);
          const m = new Uint8Array(8);
          const mm = reg(a, m);
          assert.equal(
            send(a.qp, { type: RiWrType.RDMA_READ, id: 1n, sgl: [sge(mrA, sink)], rtag: mrB.stag, remoteTo: va(srcB) }),
            RiRet.SUCCESS,
          );
          const flags = RiWrFlags.SIGNALED_FLAG | (fenced ? RiWrFlags.READ_FENCE_FLAG : 0);
          assert.equal(send(a.qp, { type: RiWrType.SEND, id: 2n, flags, sgl: [sge(mm, m)] }), RiRet.SUCCESS);
          const readWqe = a.qp.sqAt(0)!;
          await pollN(b.cq, 1);
          // When the peer has the Send, was the Read already complete at the requester?
          const readDoneFirst = readWqe.state === WqeState.DONE;
          if (fenced) assert.equal(readDoneFirst, true);
          else assert.equal(readDoneFirst, false, 'without the fence the Send goes out right behind the Read Request');
          await pollN(a.cq, 2);
        } finally {
          await p.close();
        }
      });
    }

    test('VERBS-D10 an Invalidate Local STag with Local Fence waits for every earlier SQ WR to complete', async () => {
      const p = await pair();
      try {
        const { a, b } = p;
        const dst = new Uint8Array(8 << 20);
        const mrd = reg(b, dst);
        const src = new Uint8Array(8 << 20).fill(4);
        const mrs = reg(a, src);
        assert.equal(
          send(a.qp, { type: RiWrType.RDMA_WRITE, id: 1n, sgl: [sge(mrs, src)], rtag: mrd.stag, remoteTo: va(dst) }),
          RiRet.SUCCESS,
        );
        assert.equal(
          send(a.qp, {
            type: RiWrType.LOCAL_INVALIDATE_MR,
            id: 2n,
            flags: RiWrFlags.SIGNALED_FLAG | RiWrFlags.LOCAL_FENCE_FLAG,
            target: mrs,
          }),
          RiRet.SUCCESS,
        );
        await new Promise((r) => setImmediate(r));
        const w1 = a.qp.sqAt(0)!;
        // The Write is still being sent: the fenced Invalidate has not run yet.
        if (w1.state !== WqeState.DONE) assert.equal(mrs.valid, true);
        const wcs = await pollN(a.cq, 2);
        assert.deepEqual(
          wcs.map((w) => [w.id, w.op_status]),
          [
            [1n, 0],
            [2n, 0],
          ],
        );
        assert.equal(mrs.valid, false);
        await until(() => dst[(8 << 20) - 1] === 4, 5000, 'data placed intact');
      } finally {
        await p.close();
      }
    });

    test('VERBS-D11 a zero-length RDMA Read with an invalid remote STag succeeds', async () => {
      const p = await pair();
      try {
        assert.equal(send(p.a.qp, { type: RiWrType.RDMA_READ, sgl: [], rtag: 0xdeadbe01, remoteTo: 12345n }), RiRet.SUCCESS);
        const [wc] = await pollN(p.a.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
        assert.equal(p.b.qp.state, RiQpState.READY_TO_SEND);
      } finally {
        await p.close();
      }
    });

    test('VERBS-D12 an inbound tagged access of length 0 skips every STag check', async () => {
      const p = await pair();
      try {
        assert.equal(send(p.a.qp, { type: RiWrType.RDMA_WRITE, sgl: [], rtag: 0xbadbad01, remoteTo: 1n }), RiRet.SUCCESS);
        const [wc] = await pollN(p.a.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
        await new Promise((r) => setTimeout(r, 20));
        assert.equal(p.b.qp.state, RiQpState.READY_TO_SEND);
      } finally {
        await p.close();
      }
    });

    test('VERBS-D13 an RDMA Write WR with STag 0 as the remote STag is refused (reported at post time: MEM_INVALID_RTAG, see spec-notes)', async () => {
      const p = await pair();
      try {
        const src = new Uint8Array(8);
        const mrs = reg(p.a, src);
        assert.equal(send(p.a.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(mrs, src)], rtag: 0, remoteTo: 0n }), RiRet.MEM_INVALID_RTAG);
        assert.equal(p.a.qp.sqOccupied, 0, 'nothing was queued');
        assert.equal(p.a.qp.state, RiQpState.READY_TO_SEND);
      } finally {
        await p.close();
      }
    });

    test('VERBS-S8 Modify RTS→Error resets the LLP without a Terminate and flushes every outstanding WR', async () => {
      const p = await pair();
      try {
        const { a, b } = p;
        const rb = new Uint8Array(8);
        const rmr = reg(a, rb);
        assert.equal(recv(a.qp, 1n, [sge(rmr, rb)]), RiRet.SUCCESS);
        const evB = events(b);
        assert.equal(a.qp.modify({ nextState: RiQpState.ERROR }), RiRet.SUCCESS);
        const [wc] = await pollN(a.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.WR_FLUSHED_ERROR);
        await until(() => b.qp.state === RiQpState.ERROR, 5000, 'peer in Error');
        assert.equal(b.qp.terminate, null, 'no Terminate reached the peer');
        assert.ok(hasEvent(evB, RiAsyncEventType.QP_LLQ_CONNECTION_RESET) || hasEvent(evB, RiAsyncEventType.QP_LLQ_CONNECTION_LOST));
      } finally {
        await p.close();
      }
    });

    test('VERBS-S9 VERBS-S10 Modify RTS→Terminate sends RDMAP Local Catastrophic 0x0000, reaches Error, and keeps the Terminate buffer (is-local)', async () => {
      const p = await pair();
      try {
        const { a, b } = p;
        const evB = events(b);
        assert.equal(a.qp.modify({ nextState: RiQpState.TERMINATE }), RiRet.SUCCESS);
        await until(() => a.qp.state === RiQpState.ERROR && b.qp.state === RiQpState.ERROR, 5000, 'both in Error');
        assert.equal(a.qp.terminate!.local, true);
        assert.deepEqual(termCode(a.qp), [0, 0, 0]);
        assert.equal(b.qp.terminate!.local, false);
        assert.deepEqual(termCode(b.qp), [0, 0, 0]);
        assert.ok(hasEvent(evB, RiAsyncEventType.QP_TERMINATE_MESSAGE_RECEIVED));
      } finally {
        await p.close();
      }
    });

    test('VERBS-S13 a received Terminate moves the QP to Terminate, raises the AE, sends no Terminate back, then Error with all WRs flushed', async () => {
      const p = await pair();
      try {
        const { a, b } = p;
        const evB = events(b);
        const rb = new Uint8Array(8);
        const rmr = reg(b, rb);
        assert.equal(recv(b.qp, 5n, [sge(rmr, rb)]), RiRet.SUCCESS);
        const sentBefore = b.rnic.counters.terminatesSent;
        assert.equal(a.qp.modify({ nextState: RiQpState.TERMINATE }), RiRet.SUCCESS);
        await until(() => b.qp.state === RiQpState.ERROR, 5000, 'Error');
        assert.ok(hasEvent(evB, RiAsyncEventType.QP_TERMINATE_MESSAGE_RECEIVED));
        assert.equal(b.rnic.counters.terminatesSent, sentBefore);
        const [wc] = await pollN(b.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.WR_FLUSHED_ERROR);
      } finally {
        await p.close();
      }
    });

    test('VERBS-S14 VERBS-S16 a graceful close with empty queues goes RTS→Closing→Idle with "LLP Close Complete" on both sides and flushes the RQ', async () => {
      const p = await pair();
      try {
        const { a, b } = p;
        const evA = events(a);
        const evB = events(b);
        const rb = new Uint8Array(8);
        const rmr = reg(b, rb);
        assert.equal(recv(b.qp, 5n, [sge(rmr, rb)]), RiRet.SUCCESS);
        assert.equal(a.qp.modify({ nextState: RiQpState.CLOSING }), RiRet.SUCCESS);
        assert.equal(evA.length, 0, 'no AE from the Modify itself');
        await until(() => a.qp.state === RiQpState.IDLE && b.qp.state === RiQpState.IDLE, 5000, 'both Idle');
        assert.ok(hasEvent(evA, RiAsyncEventType.QP_LLQ_CLOSE_COMPLETE));
        assert.ok(hasEvent(evB, RiAsyncEventType.QP_LLQ_CLOSE_COMPLETE));
        const [wc] = await pollN(b.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.WR_FLUSHED_ERROR);
      } finally {
        await p.close();
      }
    });

    test('VERBS-S15 a peer FIN while an SQ WR is outstanding terminates with 0x0207 and "Bad LLP Close"', async () => {
      const p = await pair({ ord: 1 });
      try {
        const { a, b } = p;
        const evA = events(a);
        // An RDMA Read that cannot be answered: b stops transmitting, then sends its FIN.
        const srcB = new Uint8Array(64);
        const mrB = reg(b, srcB);
        const sink = new Uint8Array(64);
        const mrA = reg(a, sink);
        // b stops reading (the Read Request is never answered), then sends its FIN.
        llp(b).pause();
        assert.equal(send(a.qp, { type: RiWrType.RDMA_READ, sgl: [sge(mrA, sink)], rtag: mrB.stag, remoteTo: va(srcB) }), RiRet.SUCCESS);
        await new Promise((r) => setTimeout(r, 20));
        llp(b).end();
        await until(() => a.qp.state === RiQpState.ERROR, 6000, 'a in Error');
        assert.ok(hasEvent(evA, RiAsyncEventType.QP_BAD_LLQ_CLOSE));
        assert.deepEqual(termCode(a.qp), [0, 2, 7]);
        const [wc] = await pollN(a.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.WR_FLUSHED_ERROR);
      } finally {
        await p.close();
      }
    });

    test('VERBS-S17 Modify RTS→Closing with a non-empty SQ ends in Error with "Bad Close"', async () => {
      const p = await pair({ ord: 1 });
      try {
        const { a, b } = p;
        const evA = events(a);
        const srcB = new Uint8Array(64);
        const mrB = reg(b, srcB);
        const sink = new Uint8Array(64);
        const mrA = reg(a, sink);
        llp(b).pause();
        assert.equal(send(a.qp, { type: RiWrType.RDMA_READ, sgl: [sge(mrA, sink)], rtag: mrB.stag, remoteTo: va(srcB) }), RiRet.SUCCESS);
        assert.equal(a.qp.modify({ nextState: RiQpState.CLOSING }), RiRet.SUCCESS);
        await until(() => a.qp.state === RiQpState.ERROR, 3000, 'Error');
        assert.ok(hasEvent(evA, RiAsyncEventType.QP_BAD_CLOSE));
        const [wc] = await pollN(a.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.WR_FLUSHED_ERROR);
      } finally {
        await p.close();
      }
    });

    test('VERBS-S20 an incoming RST in RTS moves the QP to Error with "LLP Connection Reset" and no Terminate', async () => {
      const p = await pair();
      try {
        const { a, b } = p;
        const evA = events(a);
        llp(b).reset();
        await until(() => a.qp.state === RiQpState.ERROR, 3000, 'Error');
        assert.ok(hasEvent(evA, RiAsyncEventType.QP_LLQ_CONNECTION_RESET));
        assert.equal(a.qp.terminate, null);
      } finally {
        await p.close();
      }
    });

    test('VERBS-S22 VERBS-S21 a WR failing with a CE gets its error WC and every later WR is flushed, at most one non-flush error', async () => {
      const p = await pair();
      try {
        const { a } = p;
        const src = new Uint8Array(8);
        const mrs = reg(a, src);
        assert.equal(
          send(a.qp, { type: RiWrType.SEND, id: 1n, sgl: [{ stag: (mrs.stag ^ 0x1) >>> 0, to: va(src), len: 8 }] }),
          RiRet.SUCCESS,
        );
        assert.equal(send(a.qp, { type: RiWrType.SEND, id: 2n, flags: 0, sgl: [sge(mrs, src)] }), RiRet.SUCCESS);
        assert.equal(send(a.qp, { type: RiWrType.SEND, id: 3n, sgl: [sge(mrs, src)] }), RiRet.SUCCESS);
        const wcs = await pollN(a.cq, 3);
        assert.deepEqual(
          wcs.map((w) => [w.id, w.op_status]),
          [
            [1n, RiWcStatus.INVALID_STAG_ERROR],
            [2n, RiWcStatus.WR_FLUSHED_ERROR],
            [3n, RiWcStatus.WR_FLUSHED_ERROR],
          ],
        );
        await until(() => a.qp.state === RiQpState.ERROR, 5000, 'Error');
      } finally {
        await p.close();
      }
    });

    test('VERBS-W6 SQ WRs complete in post order: a Send behind an RDMA Read completes after it', async () => {
      const p = await pair();
      try {
        const { a, b } = p;
        const rb = new Uint8Array(8);
        const rmr = reg(b, rb);
        assert.equal(recv(b.qp, 1n, [sge(rmr, rb)]), RiRet.SUCCESS);
        const srcB = new Uint8Array(4 << 20);
        const mrB = reg(b, srcB);
        const sink = new Uint8Array(4 << 20);
        const mrA = reg(a, sink);
        const m = new Uint8Array(8);
        const mm = reg(a, m);
        assert.equal(
          send(a.qp, { type: RiWrType.RDMA_READ, id: 1n, sgl: [sge(mrA, sink)], rtag: mrB.stag, remoteTo: va(srcB) }),
          RiRet.SUCCESS,
        );
        assert.equal(send(a.qp, { type: RiWrType.SEND, id: 2n, sgl: [sge(mm, m)] }), RiRet.SUCCESS);
        const wcs = await pollN(a.cq, 2);
        assert.deepEqual(
          wcs.map((w) => w.id),
          [1n, 2n],
        );
      } finally {
        await p.close();
      }
    });

    test('VERBS-W11 VERBS-W12 a zero-length Send succeeds and the receive WC reports 0 bytes and the QP', async () => {
      const p = await pair();
      try {
        const { a, b } = p;
        const rb = new Uint8Array(8);
        const rmr = reg(b, rb);
        assert.equal(recv(b.qp, 1n, [sge(rmr, rb)]), RiRet.SUCCESS);
        assert.equal(send(a.qp, { type: RiWrType.SEND, id: 1n, sgl: [] }), RiRet.SUCCESS);
        const [wc] = await pollN(b.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
        assert.equal(wc!.bytes_transferred, 0);
        assert.equal(wc!.qp_num, b.qp.id);
        assert.equal(wc!.qp_os_data, 'qp');
      } finally {
        await p.close();
      }
    });

    test('VERBS-W13 a receive buffer smaller than the incoming Send fails the receive (CE) and terminates the receiver', async () => {
      const p = await pair();
      try {
        const { a, b } = p;
        const rb = new Uint8Array(4);
        const rmr = reg(b, rb);
        assert.equal(recv(b.qp, 1n, [sge(rmr, rb)]), RiRet.SUCCESS);
        const m = new Uint8Array(8).fill(1);
        const mm = reg(a, m);
        assert.equal(send(a.qp, { type: RiWrType.SEND, id: 1n, sgl: [sge(mm, m)] }), RiRet.SUCCESS);
        const [wc] = await pollN(b.cq, 1);
        assert.notEqual(wc!.op_status, RiWcStatus.SUCCESS);
        assert.notEqual(wc!.op_status, RiWcStatus.WR_FLUSHED_ERROR);
        await until(() => b.qp.state === RiQpState.ERROR, 5000, 'Error');
        assert.deepEqual(termCode(b.qp), [1, 2, 5]);
      } finally {
        await p.close();
      }
    });

    test('VERBS-I1 VERBS-I5 a Send with Invalidate of a remote-enabled MR invalidates it before the receive WC, which reports the STag (RNIC with remoteInvalidateRegistered)', async () => {
      const p = await connectPair(
        makeSide(new Rnic({ ...DEFAULT_CONFIG, remoteInvalidateRegistered: true })),
        makeSide(new Rnic({ ...DEFAULT_CONFIG, remoteInvalidateRegistered: true })),
        { transport },
      );
      try {
        const { a, b } = p;
        const rb = new Uint8Array(8);
        const rmr = reg(b, rb);
        const target = new Uint8Array(64);
        const tmr = reg(b, target);
        assert.equal(recv(b.qp, 1n, [sge(rmr, rb)]), RiRet.SUCCESS);
        const m = new Uint8Array(8);
        const mm = reg(a, m);
        assert.equal(send(a.qp, { type: RiWrType.SEND_INVALIDATE, sgl: [sge(mm, m)], rtag: tmr.stag }), RiRet.SUCCESS);
        const [wc] = await pollN(b.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
        assert.ok(wc!.flags & RiWcFlags.RTAG_INVALIDATE);
        assert.equal(wc!.invalidated_rtag, tmr.stag);
        assert.equal(tmr.valid, false);
      } finally {
        await p.close();
      }
    });

    test('a Send with Invalidate naming a registered (not fast-register) MR: the receive fails, the receiver terminates with 0/1/9 "STag cannot be invalidated", and the MR stays valid', async () => {
      const p = await pair();
      try {
        const { a, b } = p;
        const rb = new Uint8Array(8);
        const rmr = reg(b, rb);
        const target = new Uint8Array(64);
        const tmr = reg(b, target);
        assert.equal(recv(b.qp, 1n, [sge(rmr, rb)]), RiRet.SUCCESS);
        const m = new Uint8Array(8);
        const mm = reg(a, m);
        assert.equal(send(a.qp, { type: RiWrType.SEND_INVALIDATE, sgl: [sge(mm, m)], rtag: tmr.stag }), RiRet.SUCCESS);
        const [wc] = await pollN(b.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.STAG_INVALIDATE_ERROR);
        await until(() => b.qp.state === RiQpState.ERROR, 5000, 'Error');
        assert.deepEqual(termCode(b.qp), [0, 1, 9]);
        assert.equal(tmr.valid, true, 'the registered MR was invalidated by the peer');
      } finally {
        await p.close();
      }
    });

    for (const [id, what, setup, code] of [
      ['VERBS-I2', 'an MR with only local rights', (b: Side) => reg(b, new Uint8Array(8), LOCAL).stag, [0, 1, 2]],
      // Verbs §10 I3 says 0/1/3 ("not associated"); by default the peer is told "Invalid STag"
      // so that it cannot map other PDs' regions (RnicConfig.discloseNotAssociated).
      [
        'VERBS-I3',
        'an MR in another PD (told "Invalid STag")',
        (b: Side) => {
          const pd2 = b.rnic.pdAlloc('pd2');
          if (typeof pd2 === 'number') throw new Error('pd');
          return reg({ ...b, pd: pd2 }, new Uint8Array(8)).stag;
        },
        [0, 1, 0],
      ],
    ] as const) {
      test(`${id} a Send with Invalidate naming ${what} fails the receive and terminates the receiver with ${code.join('/')}`, async () => {
        const p = await pair();
        try {
          const { a, b } = p;
          const rb = new Uint8Array(8);
          const rmr = reg(b, rb);
          const stag = setup(b);
          assert.equal(recv(b.qp, 1n, [sge(rmr, rb)]), RiRet.SUCCESS);
          const m = new Uint8Array(8);
          const mm = reg(a, m);
          assert.equal(send(a.qp, { type: RiWrType.SEND_INVALIDATE, sgl: [sge(mm, m)], rtag: stag }), RiRet.SUCCESS);
          const [wc] = await pollN(b.cq, 1);
          assert.equal(wc!.op_status, RiWcStatus.STAG_INVALIDATE_ERROR);
          await until(() => b.qp.state === RiQpState.ERROR, 5000, 'Error');
          assert.deepEqual(termCode(b.qp), [...code]);
        } finally {
          await p.close();
        }
      });
    }

    test('VERBS-I6 an RDMA Read with Invalidate Local STag leaves the sink Invalid, with the data present, when its WC is polled', async () => {
      const p = await pair();
      try {
        const { a, b } = p;
        const srcB = new Uint8Array(64).fill(6);
        const mrB = reg(b, srcB);
        const sink = new Uint8Array(64);
        const mrA = reg(a, sink);
        assert.equal(
          send(a.qp, { type: RiWrType.RDMA_READ_LOCAL_INVALIDATE, sgl: [sge(mrA, sink)], rtag: mrB.stag, remoteTo: va(srcB) }),
          RiRet.SUCCESS,
        );
        const [wc] = await pollN(a.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
        assert.equal(mrA.valid, false);
        assert.equal(sink[63], 6);
      } finally {
        await p.close();
      }
    });
  });
}

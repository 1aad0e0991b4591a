/**
 * Loss recovery of the RoCEv2 transport over loopback UDP with the seeded fault hook on both
 * endpoints (drop, duplicate, reorder: both directions): 64 MiB each of RDMA Write, RDMA Read
 * and Send complete with every byte verified; and the limits — retry exhaustion ends in
 * TRANSPORT_RETRY_EXCEEDED (IBV_WC_RETRY_EXC_ERR), RNR exhaustion in RNR_RETRY_EXCEEDED
 * (IBV_WC_RNR_RETRY_EXC_ERR), the QP in Error and everything after it flushed.
 */
import assert from 'node:assert/strict';
import { randomFillSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiQpState, RiWcStatus, RiWrType } from '../../src/rnicpi/types.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import { deviceCounters } from '../../src/roce/counters.js';
import { RoceNet } from '../../src/roce/net.js';
import type { RoceQp } from '../../src/roce/transport.js';
import type { FaultPlan } from '../../src/util/fault-hook.js';
import { connectPair, type IbPath, makeIbSide, type Pair, pollN, recv, reg, type Side, send, sge, until } from '../helpers/engine.js';

const va = (b: Uint8Array) => hostMemory.addressOf(b);
const MiB = 1 << 20;
const TOTAL = 64 * MiB;
const MSG = MiB;
const DEPTH = 8;

function roce(s: Side): RoceQp {
  return s.qp.transport as unknown as RoceQp;
}

type RocePair = Pair & { port: number };

async function pair(ib: IbPath, pathMtu = 5): Promise<RocePair> {
  const a = makeIbSide('RC', undefined, { sqSize: 64, rqSize: 64 });
  const b = makeIbSide('RC', undefined, { sqSize: 64, rqSize: 64 });
  const p = await connectPair(a, b, { transport: 'rocev2', pathMtu, ib });
  return { ...p, port: roce(a).port };
}

/** Installs the fault plans on the endpoints of `a` (a → b) and `b` (b → a). */
function faults(p: RocePair, ab: FaultPlan | null, ba: FaultPlan | null): void {
  RoceNet.find('127.0.0.1', p.port)?.setFaults(ab);
  RoceNet.find('127.0.0.2', p.port)?.setFaults(ba);
}

/** Posts `count` work requests through `post(i)`, keeping at most DEPTH outstanding. */
async function pump(side: Side, count: number, post: (i: number) => RiRet): Promise<void> {
  let posted = 0;
  let done = 0;
  while (done < count) {
    while (posted < count && posted - done < DEPTH) {
      assert.equal(post(posted), RiRet.SUCCESS);
      posted++;
    }
    const wcs = await pollN(side.cq, 1, 120_000);
    for (const w of wcs) assert.equal(w.op_status, RiWcStatus.SUCCESS, `WR ${w.id}: status ${RiWcStatus[w.op_status]}`);
    done += wcs.length;
  }
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

describe('RoCEv2 loss recovery (seeded faults on both directions)', { timeout: 900_000 }, () => {
  it('64 MiB each of RDMA Write, RDMA Read and Send under 5 % drop, 1 % duplicate and reordering: every byte verified', async () => {
    const p = await pair({ timeout: 14, retryCnt: 7, rnrRetry: 7 });
    const plan = (seed: number): FaultPlan => ({ seed, drop: 0.05, duplicate: 0.01, reorder: 0.01 });
    faults(p, plan(0xa11ce), plan(0xb0b));
    try {
      const { a, b } = p;
      const src = randomFillSync(new Uint8Array(TOTAL));
      const bufB = new Uint8Array(TOTAL);
      const sinkA = new Uint8Array(TOTAL);
      const mSrc = reg(a, src);
      const mB = reg(b, bufB);
      const mSink = reg(a, sinkA);
      const n = TOTAL / MSG;
      // RDMA Write A → B.
      await pump(a, n, (i) =>
        send(a.qp, {
          type: RiWrType.RDMA_WRITE,
          sgl: [sge(mSrc, src, i * MSG, MSG)],
          rtag: mB.stag,
          remoteTo: va(bufB) + BigInt(i * MSG),
          id: BigInt(i),
        }),
      );
      assert.ok(same(bufB, src), 'Write data');
      // RDMA Read A ← B (of other data).
      randomFillSync(bufB);
      await pump(a, n, (i) =>
        send(a.qp, {
          type: RiWrType.RDMA_READ,
          sgl: [sge(mSink, sinkA, i * MSG, MSG)],
          rtag: mB.stag,
          remoteTo: va(bufB) + BigInt(i * MSG),
          id: BigInt(i),
        }),
      );
      assert.ok(same(sinkA, bufB), 'Read data');
      // Send A → B into posted receives.
      bufB.fill(0);
      for (let i = 0; i < n; i++)
        assert.equal(recv(b.qp, BigInt(i), [sge(mB, bufB, i * MSG, MSG)]), i < 64 ? RiRet.SUCCESS : RiRet.SUCCESS);
      const recvs = pollN(b.cq, n, 600_000);
      await pump(a, n, (i) => send(a.qp, { type: RiWrType.SEND, sgl: [sge(mSrc, src, i * MSG, MSG)], id: BigInt(i) }));
      const rw = await recvs;
      assert.ok(rw.every((w) => w.op_status === RiWcStatus.SUCCESS && w.bytes_transferred === MSG));
      assert.ok(same(bufB, src), 'Send data');
      const ra = roce(a);
      const rb = roce(b);
      const ha = ra.nets[0]!;
      // The faults happened and were recovered from.
      console.log('faults a→b', JSON.stringify(ha.stats), 'requester', JSON.stringify(ra.stats), 'responder', JSON.stringify(rb.stats));
      assert.ok(ra.stats.packetsResent > 0);
      assert.ok(rb.stats.duplicateRequests > 0 && rb.stats.outOfSequence > 0);
      // The device counters (rxe's names, as `softrdma stat` shows them) saw the same recovery:
      // retransmissions at the requester, sequence errors at both ends.
      const ca = deviceCounters(a.qp.rnic);
      const cb = deviceCounters(b.qp.rnic);
      console.log('counters a', JSON.stringify(ca), 'b', JSON.stringify(cb));
      assert.ok(ca.completer_retry_err > 0 && ca.resent_pkts > 0, 'requester retransmissions');
      assert.ok(ca.rcvd_seq_err > 0 && cb.seq_naks_sent > 0, 'sequence NAKs sent and received');
      assert.ok(cb.out_of_seq_request > 0 && cb.duplicate_request > 0, 'responder sequence errors and duplicates');
      // As rxe counts it: once per gap, with the sequence NAK it sends (not per packet past the gap).
      assert.equal(cb.out_of_seq_request, cb.seq_naks_sent, 'out_of_seq_request counts the gaps (one NAK each)');
      assert.ok(ca.sent_pkts > ca.resent_pkts && cb.rcvd_pkts > 0 && cb.rdma_recvs >= n && ca.rdma_sends >= 2 * n);
      assert.equal(ca.retry_exceeded_err, 0);
      assert.equal(a.qp.state, RiQpState.READY_TO_SEND);
      assert.equal(b.qp.state, RiQpState.READY_TO_SEND);
    } finally {
      faults(p, null, null);
      await p.close();
    }
  });

  it('retry exhaustion: no ACK ever comes back → TRANSPORT_RETRY_EXCEEDED (IBV_WC_RETRY_EXC_ERR), QP in Error, the rest flushed', async () => {
    const p = await pair({ timeout: 8, retryCnt: 3, rnrRetry: 7 }, 3);
    try {
      const { a, b } = p;
      const ra = roce(a);
      faults(p, null, { seed: 1, drop: 1 }); // B → A: everything lost
      const src = new Uint8Array(4096).fill(5);
      const dst = new Uint8Array(4096);
      const ms = reg(a, src);
      const md = reg(b, dst);
      assert.equal(send(a.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(ms, src)], rtag: md.stag, remoteTo: va(dst), id: 1n }), RiRet.SUCCESS);
      assert.equal(send(a.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(ms, src)], rtag: md.stag, remoteTo: va(dst), id: 2n }), RiRet.SUCCESS);
      const wcs = await pollN(a.cq, 2, 30_000);
      assert.deepEqual(
        wcs.map((w) => [w.id, w.op_status]),
        [
          [1n, RiWcStatus.TRANSPORT_RETRY_EXCEEDED],
          [2n, RiWcStatus.WR_FLUSHED_ERROR],
        ],
      );
      assert.equal(a.qp.state, RiQpState.ERROR);
      // 1 transmission + retryCnt retransmissions, then the error.
      assert.equal(ra.stats.retransmitTimeouts, 4);
      // The counters: four timeouts, three retransmissions, one WQE out of retries.
      const ca = deviceCounters(a.qp.rnic);
      assert.deepEqual([ca.local_ack_timeout_err, ca.completer_retry_err, ca.retry_exceeded_err], [4, 3, 1]);
      // The data did arrive (only the ACKs were lost): the responder executed it once.
      assert.ok(dst.every((x) => x === 5));
      // Posting in Error: flushed at once.
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(ms, src)], id: 3n }), RiRet.SUCCESS);
      const [f] = await pollN(a.cq, 1);
      assert.equal(f!.op_status, RiWcStatus.WR_FLUSHED_ERROR);
    } finally {
      faults(p, null, null);
      await p.close();
    }
  });

  it('retry_cnt 7 never runs out (as Linux rxe reads it): an outage longer than 1 + 7 Local ACK Timeouts, then the Write completes', async () => {
    const p = await pair({ timeout: 8, retryCnt: 7, rnrRetry: 7 }, 3);
    try {
      const { a, b } = p;
      const ra = roce(a);
      faults(p, { seed: 3, drop: 1 }, null); // A → B: everything lost, for a while
      const src = new Uint8Array(4096).fill(7);
      const dst = new Uint8Array(4096);
      const ms = reg(a, src);
      const md = reg(b, dst);
      assert.equal(send(a.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(ms, src)], rtag: md.stag, remoteTo: va(dst), id: 1n }), RiRet.SUCCESS);
      // A count of 7 would have failed the Write at the eighth timeout.
      await until(() => ra.stats.retransmitTimeouts >= 12 || a.qp.state !== RiQpState.READY_TO_SEND, 30_000, '12 Local ACK Timeouts');
      assert.equal(a.qp.state, RiQpState.READY_TO_SEND, 'the QP is still sending after 12 timeouts');
      faults(p, null, null); // the path is back
      const [w] = await pollN(a.cq, 1, 30_000);
      assert.deepEqual([w!.id, w!.op_status], [1n, RiWcStatus.SUCCESS]);
      assert.ok(dst.every((x) => x === 7));
      const ca = deviceCounters(a.qp.rnic);
      assert.equal(ca.retry_exceeded_err, 0);
      assert.ok(ca.local_ack_timeout_err >= 12 && ca.completer_retry_err >= 12, JSON.stringify(ca));
    } finally {
      faults(p, null, null);
      await p.close();
    }
  });

  it('RNR exhaustion: no receive posted → RNR NAKs, then RNR_RETRY_EXCEEDED (IBV_WC_RNR_RETRY_EXC_ERR), QP in Error, the rest flushed', async () => {
    const p = await pair({ timeout: 14, retryCnt: 7, rnrRetry: 2, minRnrTimer: 1 }, 3);
    try {
      const { a, b } = p;
      const src = new Uint8Array(100).fill(9);
      const ms = reg(a, src);
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(ms, src)], id: 1n }), RiRet.SUCCESS);
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(ms, src)], id: 2n }), RiRet.SUCCESS);
      const wcs = await pollN(a.cq, 2, 30_000);
      assert.deepEqual(
        wcs.map((w) => [w.id, w.op_status]),
        [
          [1n, RiWcStatus.RNR_RETRY_EXCEEDED],
          [2n, RiWcStatus.WR_FLUSHED_ERROR],
        ],
      );
      assert.equal(a.qp.state, RiQpState.ERROR);
      assert.equal(roce(b).stats.rnrNaksSent, 3); // the first try and rnr_retry = 2 retries
      const [ca, cb] = [deviceCounters(a.qp.rnic), deviceCounters(b.qp.rnic)];
      assert.deepEqual([ca.rcvd_rnr_err, ca.retry_rnr_exceeded_err, cb.send_rnr_err], [3, 1, 3]);
      assert.equal(b.qp.state, RiQpState.READY_TO_SEND, 'RNR is not an error for the responder');
    } finally {
      await p.close();
    }
  });

  it('rnr_retry 7 is infinite: a receive posted late is filled', async () => {
    const p = await pair({ timeout: 14, retryCnt: 7, rnrRetry: 7, minRnrTimer: 1 }, 3);
    try {
      const { a, b } = p;
      const src = new Uint8Array(3000).map((_, i) => i & 0xff);
      const dst = new Uint8Array(3000);
      const ms = reg(a, src);
      const md = reg(b, dst);
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(ms, src)], id: 1n }), RiRet.SUCCESS);
      await until(() => roce(b).stats.rnrNaksSent >= 10, 10_000, '10 RNR NAKs');
      assert.equal(recv(b.qp, 7n, [sge(md, dst)]), RiRet.SUCCESS);
      const [w] = await pollN(a.cq, 1, 10_000);
      assert.equal(w!.op_status, RiWcStatus.SUCCESS);
      const [r] = await pollN(b.cq, 1);
      assert.equal(r!.bytes_transferred, 3000);
      assert.deepEqual(dst, src);
    } finally {
      await p.close();
    }
  });
});

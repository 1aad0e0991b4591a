/**
 * The work-request rings of a program's QP (src/preload/qp-ring.ts), driven as the C library
 * writes them: WRs taken in order under their sequence numbers, the program's WR IDs restored
 * at completion, the retired count published (a completion retires its WR and every earlier
 * one of its queue), and a queue's room bounding what is taken.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ibv_send_flags, ibv_wc_opcode, ibv_wr_opcode } from '../../src/verbs/constants.js';
import { newWc } from '../../src/verbs/ibverbs.js';
import { QP_RING_HEADER, QpRing, qpRingBytes, type RingSend, sqSlotBytes, validQpRing } from '../../src/preload/qp-ring.js';

const SQ = 16;
const RQ = 16;
const INLINE = 64;

/** A ring over plain memory, and the program's side of it. */
function setup(sqCap = 4, rqCap = 8) {
  const ab = new ArrayBuffer(qpRingBytes(SQ, RQ, INLINE));
  const ring = new QpRing(ab, SQ, RQ, INLINE, sqCap, rqCap, 1 << ibv_wr_opcode.IBV_WR_RDMA_WRITE);
  const hdr = new Uint32Array(ab, 0, QP_RING_HEADER / 4);
  const v = new DataView(ab);
  let sqProd = 0;
  let rqProd = 0;
  return {
    ring,
    hdr,
    /** Writes a send slot as ring_post_send does; publishes it. */
    postSend(id: bigint, flags = 0, inline?: Uint8Array): void {
      const o = QP_RING_HEADER + (sqProd % SQ) * sqSlotBytes(INLINE);
      v.setBigUint64(o, id, true);
      v.setUint32(o + 8, ibv_wr_opcode.IBV_WR_RDMA_WRITE, true);
      v.setUint32(o + 12, flags | (inline ? ibv_send_flags.IBV_SEND_INLINE : 0), true);
      v.setUint32(o + 20, inline ? 0 : 1, true);
      v.setBigUint64(o + 24, 0x1000n + id, true);
      v.setUint32(o + 32, 8, true);
      v.setUint32(o + 36, 77, true);
      v.setBigUint64(o + 40, 0x2000n, true);
      v.setUint32(o + 48, 99, true);
      if (inline) {
        v.setUint32(o + 80, inline.length, true);
        new Uint8Array(ab, o + 128, inline.length).set(inline);
      }
      hdr[0] = ++sqProd;
    },
    postRecv(id: bigint): void {
      const o = QP_RING_HEADER + SQ * sqSlotBytes(INLINE) + (rqProd % RQ) * 32;
      v.setBigUint64(o, id, true);
      v.setUint32(o + 8, 1, true);
      v.setUint32(o + 12, 5, true);
      v.setBigUint64(o + 16, 0x3000n, true);
      v.setUint32(o + 24, 256, true);
      hdr[1] = ++rqProd;
    },
  };
}

function wc(opcode: number, wr_id: bigint) {
  const w = newWc();
  w.opcode = opcode;
  w.wr_id = wr_id;
  return w;
}

test('ring sizes: powers of two up to 16,384 slots, inline bytes in whole 64-octet areas up to 1 KiB', () => {
  assert.ok(validQpRing(16, 0, 0));
  assert.ok(validQpRing(1 << 14, 1 << 14, 1024));
  assert.ok(!validQpRing(24, 16, 0));
  assert.ok(!validQpRing(1 << 15, 16, 0));
  assert.ok(!validQpRing(16, 16, 100));
  assert.ok(!validQpRing(16, 16, 2048));
  assert.ok(validQpRing(0, 16, 0), "an S-RQ's: a receive ring alone");
  assert.ok(!validQpRing(0, 0, 0));
  assert.throws(() => new QpRing(new ArrayBuffer(64), 16, 16, 0, 4, 4, 0), RangeError);
});

test('send WRs are taken in order under their sequence numbers; a completion restores the program ID and retires every earlier WR', () => {
  const p = setup();
  assert.equal(p.hdr[22], 4, 'sq_cap published');
  assert.equal(p.hdr[23], 8, 'rq_cap published');
  for (const id of [100n, 101n, 102n]) p.postSend(id);
  p.postSend(103n, ibv_send_flags.IBV_SEND_SIGNALED);
  const seen: RingSend[] = [];
  p.ring.takeSends((w) => {
    seen.push({ ...w });
    return 0;
  });
  assert.deepEqual(
    seen.map((w) => w.wr_id),
    [0n, 1n, 2n, 3n],
  );
  assert.deepEqual(seen[0]!.sg_list, [{ addr: 0x1000n + 100n, length: 8, lkey: 77 }]);
  assert.equal(seen[0]!.remote_addr, 0x2000n);
  assert.equal(seen[0]!.rkey, 99);
  assert.equal(seen[3]!.send_flags, ibv_send_flags.IBV_SEND_SIGNALED);
  assert.equal(p.hdr[16], 4, 'sq_taken');
  // The queue holds 4: a fifth written WR waits in the ring.
  p.postSend(104n);
  p.ring.takeSends(() => assert.fail('taken past the queue room'));
  assert.equal(p.hdr[16], 4);
  // The signaled WR's completion retires all four (the three unsignaled ones before it).
  const c = wc(ibv_wc_opcode.IBV_WC_RDMA_WRITE, 3n);
  p.ring.complete(c);
  assert.equal(c.wr_id, 103n);
  assert.equal(p.hdr[17], 4, 'sq_retired');
  const later: bigint[] = [];
  p.ring.takeSends((w) => {
    later.push(w.wr_id);
    return 0;
  });
  assert.deepEqual(later, [4n]);
  const c2 = wc(ibv_wc_opcode.IBV_WC_RDMA_WRITE, 4n);
  p.ring.complete(c2);
  assert.equal(c2.wr_id, 104n);
});

test('a WR the verbs face refuses is not counted as posted: the next WR takes its sequence number', () => {
  const p = setup();
  p.postSend(1n);
  p.postSend(2n);
  const ids: bigint[] = [];
  let n = 0;
  p.ring.takeSends((w) => {
    ids.push(w.wr_id);
    return n++ === 0 ? 22 : 0;
  });
  assert.deepEqual(ids, [0n, 0n]);
  const c = wc(ibv_wc_opcode.IBV_WC_RDMA_WRITE, 0n);
  p.ring.complete(c);
  assert.equal(c.wr_id, 2n);
});

test('inline bytes come from the slot; receive WRs have their own numbering, retired by receive completions', () => {
  const p = setup();
  p.postSend(7n, 0, new TextEncoder().encode('inline!'));
  let inl = '';
  p.ring.takeSends((w) => {
    inl = new TextDecoder().decode(w.inline!);
    assert.deepEqual(w.sg_list, []);
    return 0;
  });
  assert.equal(inl, 'inline!');
  p.postRecv(500n);
  p.postRecv(501n);
  const got: [bigint, number][] = [];
  p.ring.takeRecvs((id, sg) => {
    got.push([id, sg[0]!.lkey]);
    return 0;
  });
  assert.deepEqual(got, [
    [0n, 5],
    [1n, 5],
  ]);
  const r = wc(ibv_wc_opcode.IBV_WC_RECV, 1n);
  p.ring.complete(r);
  assert.equal(r.wr_id, 501n);
  assert.equal(p.hdr[19], 2, 'rq_retired');
  assert.equal(p.hdr[17], 0, 'a receive retires nothing of the send queue');
  const rw = wc(ibv_wc_opcode.IBV_WC_RECV_RDMA_WITH_IMM, 0n);
  p.ring.complete(rw);
  assert.equal(rw.wr_id, 500n);
});

test('a producer index far ahead (a broken program) costs one ring of refused slots per take, not 2^32', () => {
  const p = setup();
  p.hdr[0] = 0xffff_fff0;
  let calls = 0;
  p.ring.takeSends(() => {
    calls++;
    return 22;
  });
  assert.equal(calls, SQ);
  p.hdr[1] = 0xffff_fff0;
  calls = 0;
  p.ring.takeRecvs(() => {
    calls++;
    return 22;
  });
  assert.equal(calls, RQ);
});

test('after detach the rings are not read, but completions still get their program IDs', () => {
  const p = setup();
  p.postSend(42n);
  p.ring.takeSends(() => 0);
  p.ring.detach();
  p.postSend(43n);
  p.ring.takeSends(() => assert.fail('a detached ring was read'));
  const c = wc(ibv_wc_opcode.IBV_WC_RDMA_WRITE, 0n);
  p.ring.complete(c);
  assert.equal(c.wr_id, 42n);
  assert.equal(p.hdr[17], 0, 'nothing written to the unmapped header');
});

test("an S-RQ's ring retires one WR per completion, in whatever order the QPs consume them", () => {
  const ab = new ArrayBuffer(qpRingBytes(0, RQ, 0));
  const ring = new QpRing(ab, 0, RQ, 0, 0, 4, 0, true);
  const hdr = new Uint32Array(ab, 0, QP_RING_HEADER / 4);
  const v = new DataView(ab);
  for (let i = 0; i < 4; i++) {
    v.setBigUint64(QP_RING_HEADER + i * 32, 700n + BigInt(i), true);
    hdr[1] = i + 1;
  }
  const ids: bigint[] = [];
  ring.takeRecvs((id) => {
    ids.push(id);
    return 0;
  });
  assert.deepEqual(ids, [0n, 1n, 2n, 3n]);
  assert.equal(ring.recv!.next(), null, 'four outstanding of four');
  const c = wc(ibv_wc_opcode.IBV_WC_RECV, 2n);
  ring.complete(c);
  assert.equal(c.wr_id, 702n);
  assert.equal(hdr[19], 1, 'one retired, not three');
  assert.equal(ring.recv!.next(), 4n, 'room for one');
  const d = wc(ibv_wc_opcode.IBV_WC_RECV, 0n);
  ring.complete(d);
  assert.equal(d.wr_id, 700n);
  assert.equal(hdr[19], 2);
});

/**
 * The completion ring of a program's CQ (src/preload/cq-ring.ts), driven as the daemon drives
 * it, over a CQ of the verbs face: completions land in the ring in order with their fields; a
 * ring that fills leaves the rest in the CQ with `backlog` set, and gives them once the program
 * has read (its `cons` moved); `backlog` clears when the CQ is empty; a `cons` ahead of `prod`
 * (a broken program) is taken as a full ring, not as room.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CQ_RING_ENTRY, CQ_RING_HEADER, CqRing, cqRingBytes, validRingEntries } from '../../src/preload/cq-ring.js';
import {
  IBV_ACCESS_LOCAL_WRITE,
  IBV_QP_ACCESS_FLAGS,
  IBV_QP_PKEY_INDEX,
  IBV_QP_PORT,
  IBV_QP_STATE,
  ibv_qp_state,
  ibv_qp_type,
  ibv_wc_opcode,
  ibv_wc_status,
} from '../../src/verbs/constants.js';
import { closeDevice, devices, openDevice } from '../../src/verbs/device.js';
import * as v from '../../src/verbs/ibverbs.js';

/** A QP on softroce0 with `n` receives posted, moved to ERR: `n` flushed receive completions on its CQ. */
function flushed(n: number) {
  const dev = devices().find((d) => d.name === 'softroce0');
  assert.ok(dev, 'softroce0');
  const ctx = openDevice(dev)!;
  const pd = v.ibv_alloc_pd(ctx)!;
  const cq = v.ibv_create_cq(ctx, 256, null, null, 0)!;
  const qp = v.ibv_create_qp(pd, {
    send_cq: cq,
    recv_cq: cq,
    qp_type: ibv_qp_type.IBV_QPT_RC,
    cap: { max_send_wr: 1, max_recv_wr: n, max_send_sge: 1, max_recv_sge: 1 },
  })!;
  assert.equal(
    v.ibv_modify_qp(
      qp,
      { qp_state: ibv_qp_state.IBV_QPS_INIT, pkey_index: 0, port_num: 1, qp_access_flags: 0 },
      IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS,
    ),
    0,
  );
  const buf = new Uint8Array(64);
  const mr = v.ibv_reg_mr(pd, buf, buf.length, IBV_ACCESS_LOCAL_WRITE)!;
  for (let i = 0; i < n; i++)
    assert.equal(
      v.ibv_post_recv(qp, { wr_id: BigInt(1000 + i), sg_list: [{ addr: mr.addr, length: 64, lkey: mr.lkey }], num_sge: 1 }).ret,
      0,
    );
  assert.equal(v.ibv_modify_qp(qp, { qp_state: ibv_qp_state.IBV_QPS_ERR }, IBV_QP_STATE), 0);
  return {
    cq,
    close() {
      v.ibv_destroy_qp(qp);
      v.ibv_dereg_mr(mr);
      v.ibv_destroy_cq(cq);
      v.ibv_dealloc_pd(pd);
      closeDevice(ctx);
    },
  };
}

/** The program's side: reads what the ring holds from `cons` to `prod` and moves `cons`. */
function read(ab: ArrayBuffer, entries: number): { wrIds: bigint[]; status: number[]; opcode: number[] } {
  const h = new Uint32Array(ab, 0, CQ_RING_HEADER / 4);
  const dv = new DataView(ab);
  const out = { wrIds: [] as bigint[], status: [] as number[], opcode: [] as number[] };
  let cons = h[16]!;
  for (; cons !== h[0]!; cons = (cons + 1) >>> 0) {
    const o = CQ_RING_HEADER + (cons & (entries - 1)) * CQ_RING_ENTRY;
    out.wrIds.push(dv.getBigUint64(o, true));
    out.status.push(dv.getUint32(o + 8, true));
    out.opcode.push(dv.getUint32(o + 12, true));
  }
  h[16] = cons;
  return out;
}

test('ring sizes: powers of two up to 65,536 entries', () => {
  for (const n of [1, 16, 512, 65536]) assert.ok(validRingEntries(n), String(n));
  for (const n of [0, 3, 48, 131072, 1.5, -16]) assert.equal(validRingEntries(n), false, String(n));
  assert.throws(() => new CqRing(new ArrayBuffer(cqRingBytes(16) - 1), 16), RangeError);
});

test('a ring of 16 and 40 completions: 16, then nothing until the program reads, then 16 and 8, in order; backlog set while the CQ holds more', () => {
  const q = flushed(40);
  try {
    const ab = new ArrayBuffer(cqRingBytes(16));
    const h = new Uint32Array(ab, 0, 32);
    const ring = new CqRing(ab, 16);
    assert.equal(h[2], 16, 'entries in the header');
    assert.equal(ring.drain(q.cq), 16);
    assert.equal(h[0], 16, 'prod');
    assert.equal(h[1], 1, 'backlog: the ring filled first');
    assert.equal(ring.drain(q.cq), 0, 'no room until the program reads');
    const seen: bigint[] = [];
    let r = read(ab, 16);
    seen.push(...r.wrIds);
    assert.ok(r.status.every((s) => s === ibv_wc_status.IBV_WC_WR_FLUSH_ERR));
    assert.ok(r.opcode.every((o) => o === ibv_wc_opcode.IBV_WC_RECV));
    assert.equal(ring.drain(q.cq), 16);
    r = read(ab, 16);
    seen.push(...r.wrIds);
    assert.equal(ring.drain(q.cq), 8);
    assert.equal(h[1], 0, 'backlog clear: the CQ is empty');
    seen.push(...read(ab, 16).wrIds);
    assert.deepEqual(
      seen,
      Array.from({ length: 40 }, (_, i) => BigInt(1000 + i)),
    );
    assert.equal(ring.drain(q.cq), 0);
  } finally {
    q.close();
  }
});

test("a program's cons ahead of prod is a full ring: nothing is written over unread entries", () => {
  const q = flushed(4);
  try {
    const ab = new ArrayBuffer(cqRingBytes(16));
    const h = new Uint32Array(ab, 0, 32);
    const ring = new CqRing(ab, 16);
    h[16] = 5; // cons > prod (0)
    assert.equal(ring.drain(q.cq), 0);
    assert.equal(h[0], 0);
    assert.equal(h[1], 1);
    h[16] = 0;
    assert.equal(ring.drain(q.cq), 4);
  } finally {
    q.close();
  }
});

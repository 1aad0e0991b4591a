/**
 * A verbs program served by softrdma, connected by a peer that speaks MPA as Linux siw does
 * (test/helpers/rawpeer.ts: it never sets softrdma's RFC 7306 bit): the atomic and immediate-data
 * opcodes fail with the verbs' error (EINVAL with `bad_wr`, what rdma-core's siw provider
 * answers), nothing is queued, and no RFC 7306 opcode reaches the wire; a plain Send still works.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  EINVAL,
  IBV_ACCESS_LOCAL_WRITE,
  IBV_EXP_SEND_SIGNALED,
  IBV_EXP_WR_EXT_MASKED_ATOMIC_FETCH_AND_ADD,
  IBV_SEND_SIGNALED,
  IBV_WC_SUCCESS,
  IBV_WR_ATOMIC_CMP_AND_SWP,
  IBV_WR_ATOMIC_FETCH_AND_ADD,
  IBV_WR_RDMA_WRITE_WITH_IMM,
  IBV_WR_SEND,
  IBV_WR_SEND_WITH_IMM,
  RDMA_CM_EVENT_CONNECT_REQUEST,
  RDMA_CM_EVENT_ESTABLISHED,
  RDMA_PS_TCP,
  rdmaListenReady,
  verbs as v,
} from '../../src/verbs/index.js';
import { RdmapOpcode } from '../../src/wire/rdmap.js';
import { RawPeer } from '../helpers/rawpeer.js';
import { cap, expectEvent, LOOP, pollN, RC, reg } from './pair.js';

test('verbs against a siw-like peer: atomics, *_WITH_IMM and the extended atomics → EINVAL with bad_wr, nothing RFC 7306 on the wire', {
  timeout: 30_000,
}, async () => {
  const ch = v.rdma_create_event_channel()!;
  const listen = v.rdma_create_id(ch, 'listener', RDMA_PS_TCP).id!;
  assert.equal(v.rdma_bind_addr(listen, LOOP(0)), 0);
  assert.equal(v.rdma_listen(listen, 1), 0);
  await rdmaListenReady(listen);
  const peerP = RawPeer.connect(v.rdma_get_src_port(listen));
  const req = await expectEvent(ch, RDMA_CM_EVENT_CONNECT_REQUEST);
  const id = req.id;
  assert.equal(v.rdma_create_qp(id, null, { qp_type: RC, cap: cap() }), 0);
  assert.equal(await v.rdma_accept(id, null), 0);
  const peer = await peerP;
  // The Responder holds its first FPDU until the Initiator's (RFC 5044 §7.1.2).
  peer.write(0x99, 0n, new Uint8Array(0));
  v.rdma_ack_cm_event(await expectEvent(ch, RDMA_CM_EVENT_ESTABLISHED));
  try {
    assert.equal(peer.reply[16]! & 0x0f, 0, 'the Reply carries no reserved bit (siw sees what it always saw)');
    const buf = new Uint8Array(8);
    const mr = reg(id.pd!, buf, IBV_ACCESS_LOCAL_WRITE);
    const sg = [{ addr: mr.addr, length: 8, lkey: mr.lkey }];
    for (const wr of [
      {
        wr_id: 1n,
        opcode: IBV_WR_ATOMIC_FETCH_AND_ADD,
        sg_list: sg,
        wr: { atomic: { remote_addr: 0x1000n, rkey: 0x1234, compare_add: 1n, swap: 0n } },
      },
      {
        wr_id: 2n,
        opcode: IBV_WR_ATOMIC_CMP_AND_SWP,
        sg_list: sg,
        wr: { atomic: { remote_addr: 0x1000n, rkey: 0x1234, compare_add: 0n, swap: 1n } },
      },
      { wr_id: 3n, opcode: IBV_WR_RDMA_WRITE_WITH_IMM, imm_data: 7, sg_list: sg, wr: { rdma: { remote_addr: 0x1000n, rkey: 0x1234 } } },
      { wr_id: 4n, opcode: IBV_WR_SEND_WITH_IMM, imm_data: 7, sg_list: sg },
    ]) {
      const r = v.ibv_post_send(id.qp!, wr);
      assert.deepEqual(r, { ret: EINVAL, bad_wr: wr }, `opcode ${wr.opcode}`);
    }
    // The manual's extended atomics (§8.7) need a softrdma peer: refused the same way.
    const xwr = {
      wr_id: 6n,
      exp_opcode: IBV_EXP_WR_EXT_MASKED_ATOMIC_FETCH_AND_ADD,
      exp_send_flags: IBV_EXP_SEND_SIGNALED,
      sg_list: sg,
      ext_op: {
        masked_atomics: {
          log_arg_sz: 3,
          remote_addr: 0x1000n,
          rkey: 0x1234,
          wr_data: { inline_data: { op: { fetch_add: { add_val: 1n, field_boundary: 0n } } } },
        },
      },
    };
    assert.deepEqual(v.ibv_exp_post_send(id.qp!, xwr), { ret: EINVAL, bad_wr: xwr });
    // A plain Send goes, and is the only data FPDU the peer sees.
    assert.equal(v.ibv_post_send(id.qp!, { wr_id: 5n, opcode: IBV_WR_SEND, send_flags: IBV_SEND_SIGNALED, sg_list: sg }).ret, 0);
    const [wc] = await pollN(id.qp!.send_cq, 1);
    assert.equal(wc!.wr_id, 5n, 'no refused WR was queued');
    assert.equal(wc!.status, IBV_WC_SUCCESS);
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(peer.fpdus.length >= 1);
    assert.ok(
      peer.fpdus.every((u) => (u[1]! & 0x0f) < RdmapOpcode.ImmediateData),
      'no RFC 7306 opcode on the wire',
    );
    v.ibv_dereg_mr(mr);
  } finally {
    v.rdma_ack_cm_event(req);
    peer.sock.destroy();
    await new Promise((r) => setTimeout(r, 50));
    v.rdma_destroy_qp(id);
    v.rdma_destroy_id(id);
    v.rdma_destroy_id(listen);
    v.rdma_destroy_event_channel(ch);
  }
});

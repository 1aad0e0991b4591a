/**
 * libibverbs over RNICPI: device, PD/MR/CQ/QP life cycle, posting and polling, completion
 * channels and async events, on two QPs connected over loopback (the MPA start-up halves
 * stand in for rdma_cm here).
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { test } from 'node:test';
import { mpaAccept, mpaConnect, mpaReadRequest } from '../../src/iwarp/mpa-startup.js';
import {
  ibv_access_flags,
  ibv_event_type,
  ibv_node_type,
  ibv_qp_state,
  ibv_send_flags,
  ibv_transport_type,
  ibv_wc_opcode,
  ibv_wc_status,
  ibv_wr_opcode,
} from '../../src/verbs/constants.js';
import { closeDevice, devices, openDevice, queryDevice, queryPort } from '../../src/verbs/device.js';
import { EBUSY, EINVAL, EOPNOTSUPP, getErrno } from '../../src/verbs/errno.js';
import {
  ibv_ack_async_event,
  ibv_ack_cq_events,
  ibv_alloc_pd,
  ibv_create_comp_channel,
  ibv_create_cq,
  ibv_create_qp,
  ibv_dealloc_pd,
  ibv_dereg_mr,
  ibv_destroy_comp_channel,
  ibv_destroy_cq,
  ibv_destroy_qp,
  ibv_get_async_event,
  ibv_get_cq_event,
  ibv_modify_qp,
  ibv_poll_cq,
  ibv_post_recv,
  ibv_post_send,
  ibv_reg_mr,
  ibv_req_notify_cq,
  modifyQpToRts,
  type Qp,
} from '../../src/verbs/ibverbs.js';
import type { ibv_async_event, ibv_cq, ibv_device_attr, ibv_mr, ibv_port_attr, ibv_qp, ibv_wc } from '../../src/verbs/types.js';
import { INIT_ATTR, INIT_MASK, RTR_ATTR, RTR_MASK, RTS_ATTR, RTS_MASK } from './pair.js';

const ACC = ibv_access_flags.IBV_ACCESS_LOCAL_WRITE | ibv_access_flags.IBV_ACCESS_REMOTE_READ | ibv_access_flags.IBV_ACCESS_REMOTE_WRITE;

function side() {
  const ctx = openDevice(devices()[0]!)!;
  const pd = ibv_alloc_pd(ctx)!;
  const ch = ibv_create_comp_channel(ctx)!;
  const cq = ibv_create_cq(ctx, 64, 'cqctx', ch, 0)!;
  const qp = ibv_create_qp(pd, {
    send_cq: cq,
    recv_cq: cq,
    qp_type: 2,
    cap: { max_send_wr: 16, max_recv_wr: 16, max_send_sge: 2, max_recv_sge: 2, max_inline_data: 64 },
  })!;
  assert.ok(qp, `create_qp errno ${getErrno()}`);
  return { ctx, pd, ch, cq, qp };
}

async function connect(a: ibv_qp, b: ibv_qp): Promise<net.Server> {
  const srv = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }).listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const port = (srv.address() as net.AddressInfo).port;
  const p = { revision: 2 as const, crc: false, markers: false, ird: 16, ord: 16 };
  const passive = (async () => {
    const [s] = (await once(srv, 'connection')) as [net.Socket];
    const req = await mpaReadRequest(s);
    const out = mpaAccept(s, req.frame, p);
    assert.equal(modifyQpToRts(b as Qp, out.stream, out.mpa, 16, 16), 0);
  })();
  const s = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  await once(s, 'connect');
  const out = await mpaConnect(s, p);
  assert.equal(modifyQpToRts(a as Qp, out.stream, out.mpa, 16, 16), 0);
  await passive;
  return srv;
}

async function poll(cq: ibv_cq, n: number): Promise<ibv_wc[]> {
  const out: ibv_wc[] = [];
  const wc: ibv_wc[] = [];
  const end = Date.now() + 5000;
  while (out.length < n) {
    const k = ibv_poll_cq(cq, n - out.length, wc);
    assert.ok(k >= 0);
    for (let i = 0; i < k; i++) out.push({ ...wc[i]! });
    if (Date.now() > end) throw new Error('poll timeout');
    if (out.length < n) await new Promise((r) => setImmediate(r));
  }
  return out;
}

test('ibv_get_device_list / ibv_query_device / ibv_query_port describe one iWARP RNIC truthfully', () => {
  const [dev] = devices();
  assert.ok(dev);
  assert.equal(dev.node_type, ibv_node_type.IBV_NODE_RNIC);
  assert.equal(dev.transport_type, ibv_transport_type.IBV_TRANSPORT_IWARP);
  const ctx = openDevice(dev)!;
  const a = {} as ibv_device_attr;
  assert.equal(queryDevice(ctx, a), 0);
  assert.equal(a.atomic_cap, 1, 'IBV_ATOMIC_HCA: the RNIC atomic executor (RFC 7306 towards softrdma peers)');
  assert.ok(a.max_sge >= 4);
  assert.ok(a.max_qp_rd_atom >= 1);
  const p = {} as ibv_port_attr;
  assert.equal(queryPort(ctx, 1, p), 0);
  assert.equal(queryPort(ctx, 2, p), EINVAL);
  assert.equal(closeDevice(ctx), 0);
});

test('ibv_query_device: max_qp_rd_atom is the per-QP IRD (responder resources), max_qp_init_rd_atom the per-QP ORD (initiator depth)', () => {
  const ctx = openDevice(devices()[0]!)!;
  // An RNIC whose IRD and ORD per QP differ (the default has both 128): the query must not swap them.
  const ops = {
    ...ctx.ops,
    ri_rnic_query: (...args: Parameters<typeof ctx.ops.ri_rnic_query>) => {
      const q = ctx.ops.ri_rnic_query(...args);
      return q.status === 0 ? { ...q, attrs: { ...q.attrs, max_ird_per_qp: 16, max_ord_per_qp: 4, max_ird: 1024 } } : q;
    },
  };
  const view = { closed: false, ops, rnic: ctx.rnic, device: ctx.device } as unknown as typeof ctx;
  const a = {} as ibv_device_attr;
  assert.equal(queryDevice(view, a), 0);
  assert.equal(a.max_qp_rd_atom, 16);
  assert.equal(a.max_qp_init_rd_atom, 4);
  assert.equal(a.max_res_rd_atom, 1024);
  assert.equal(closeDevice(ctx), 0);
});

test('ibv_create_qp refuses non-RC QPs with EOPNOTSUPP, as siw does', () => {
  const { ctx, pd, cq } = side();
  assert.equal(
    ibv_create_qp(pd, { send_cq: cq, recv_cq: cq, qp_type: 4, cap: { max_send_wr: 1, max_recv_wr: 1, max_send_sge: 1, max_recv_sge: 1 } }),
    null,
  );
  assert.equal(getErrno(), EOPNOTSUPP);
  void ctx;
});

test('ibv_modify_qp to RTS without rdma_cm fails with EINVAL; INIT/RTR are accepted; ERR flushes', async () => {
  const { pd, cq, qp } = side();
  // The manual's RC masks (see pair.ts); the mask checks themselves are in assertions.test.ts.
  assert.equal(ibv_modify_qp(qp, INIT_ATTR, INIT_MASK), 0);
  assert.equal(qp.state, ibv_qp_state.IBV_QPS_INIT);
  assert.equal(ibv_modify_qp(qp, RTR_ATTR, RTR_MASK), 0);
  assert.equal(ibv_modify_qp(qp, RTS_ATTR, RTS_MASK), EINVAL);
  const buf = new Uint8Array(64);
  const mr = ibv_reg_mr(pd, buf, 64, ACC)!;
  assert.equal(ibv_post_recv(qp, { wr_id: 5n, sg_list: [{ addr: mr.addr, length: 64, lkey: mr.lkey }] }).ret, 0);
  assert.equal(ibv_modify_qp(qp, { qp_state: ibv_qp_state.IBV_QPS_ERR }, 1), 0);
  const [wc] = await poll(cq, 1);
  assert.equal(wc!.wr_id, 5n);
  assert.equal(wc!.status, ibv_wc_status.IBV_WC_WR_FLUSH_ERR);
  assert.equal(ibv_modify_qp(qp, { qp_state: ibv_qp_state.IBV_QPS_RESET }, 1), 0);
  assert.equal(qp.state, ibv_qp_state.IBV_QPS_RESET);
});

test('Send/Recv, RDMA Write (inline and not) and RDMA Read between two verbs QPs, with a completion channel', async () => {
  const A = side();
  const B = side();
  const srv = await connect(A.qp, B.qp);
  try {
    const abuf = new Uint8Array(100_000).map((_, i) => i % 251);
    const bbuf = new Uint8Array(100_000);
    const amr = ibv_reg_mr(A.pd, abuf, abuf.length, ACC)! as ibv_mr;
    const bmr = ibv_reg_mr(B.pd, bbuf, bbuf.length, ACC)! as ibv_mr;
    const rbuf = new Uint8Array(32);
    const rmr = ibv_reg_mr(B.pd, rbuf, 32, ACC)!;
    assert.equal(ibv_post_recv(B.qp, [{ wr_id: 77n, sg_list: [{ addr: rmr.addr, length: 32, lkey: rmr.lkey }] }]).ret, 0);
    assert.equal(ibv_req_notify_cq(B.cq, 0), 0);
    const w = ibv_post_send(A.qp, [
      {
        wr_id: 1n,
        opcode: ibv_wr_opcode.IBV_WR_RDMA_WRITE,
        send_flags: ibv_send_flags.IBV_SEND_SIGNALED,
        sg_list: [{ addr: amr.addr, length: abuf.length, lkey: amr.lkey }],
        wr: { rdma: { remote_addr: bmr.addr, rkey: bmr.rkey } },
      },
      {
        wr_id: 2n,
        opcode: ibv_wr_opcode.IBV_WR_SEND,
        send_flags: ibv_send_flags.IBV_SEND_SIGNALED | ibv_send_flags.IBV_SEND_INLINE,
        sg_list: [{ addr: amr.addr, length: 20, lkey: amr.lkey }],
      },
    ]);
    assert.equal(w.ret, 0);
    abuf.fill(0, 0, 20); // inline: the buffer is ours again at once
    const ev = await ibv_get_cq_event(B.ch);
    assert.equal(ev.ret, 0);
    assert.equal(ev.cq, B.cq);
    assert.equal(ev.cq_context, 'cqctx');
    ibv_ack_cq_events(B.cq, 1);
    const [rwc] = await poll(B.cq, 1);
    assert.equal(rwc!.wr_id, 77n);
    assert.equal(rwc!.opcode, ibv_wc_opcode.IBV_WC_RECV);
    assert.equal(rwc!.byte_len, 20);
    assert.equal(rwc!.qp_num, B.qp.qp_num);
    assert.deepEqual([...rbuf.subarray(0, 20)], [...Array(20).keys()]);
    const swc = await poll(A.cq, 2);
    assert.deepEqual(
      swc.map((x) => [x.wr_id, x.status, x.opcode]),
      [
        [1n, 0, ibv_wc_opcode.IBV_WC_RDMA_WRITE],
        [2n, 0, ibv_wc_opcode.IBV_WC_SEND],
      ],
    );
    assert.equal(bbuf[99_999], 99_999 % 251);
    const back = new Uint8Array(100_000);
    const backmr = ibv_reg_mr(A.pd, back, back.length, ACC)!;
    assert.equal(
      ibv_post_send(A.qp, {
        wr_id: 3n,
        opcode: ibv_wr_opcode.IBV_WR_RDMA_READ,
        send_flags: ibv_send_flags.IBV_SEND_SIGNALED,
        sg_list: [{ addr: backmr.addr, length: back.length, lkey: backmr.lkey }],
        wr: { rdma: { remote_addr: bmr.addr, rkey: bmr.rkey } },
      }).ret,
      0,
    );
    const [rd] = await poll(A.cq, 1);
    assert.equal(rd!.opcode, ibv_wc_opcode.IBV_WC_RDMA_READ);
    assert.equal(rd!.status, ibv_wc_status.IBV_WC_SUCCESS);
    assert.deepEqual(Buffer.from(back), Buffer.from(bbuf));
    // Unsupported opcodes: EINVAL with bad_wr, as siw.
    const bad = { wr_id: 9n, opcode: ibv_wr_opcode.IBV_WR_ATOMIC_FETCH_AND_ADD, sg_list: [] };
    const r = ibv_post_send(A.qp, bad);
    assert.equal(r.ret, EINVAL);
    assert.equal(r.bad_wr, bad);
    // Destroy order guards: CQ in use, events unacked.
    assert.equal(ibv_destroy_cq(A.cq), EBUSY);
    assert.equal(ibv_dereg_mr(backmr), 0);
  } finally {
    // Destroying the QPs resets their connections, so nothing keeps the process alive.
    ibv_destroy_qp(A.qp);
    ibv_destroy_qp(B.qp);
    srv.close();
  }
});

test('a protection error at the peer surfaces as IBV_EVENT_QP_FATAL/ACCESS_ERR async events and flushed WCs', async () => {
  const A = side();
  const B = side();
  const srv = await connect(A.qp, B.qp);
  try {
    const abuf = new Uint8Array(64);
    const amr = ibv_reg_mr(A.pd, abuf, 64, ACC)!;
    const bbuf = new Uint8Array(64);
    const bmr = ibv_reg_mr(B.pd, bbuf, 64, ibv_access_flags.IBV_ACCESS_LOCAL_WRITE)!;
    const evB: ibv_async_event = { event_type: 0, element: { cq: null, qp: null, srq: null, port_num: 0 } };
    const evP = ibv_get_async_event(B.ctx, evB);
    assert.equal(
      ibv_post_send(A.qp, {
        wr_id: 1n,
        opcode: ibv_wr_opcode.IBV_WR_RDMA_WRITE,
        sg_list: [{ addr: amr.addr, length: 64, lkey: amr.lkey }],
        wr: { rdma: { remote_addr: bmr.addr, rkey: bmr.rkey } },
      }).ret,
      0,
    );
    assert.equal(await evP, 0);
    assert.equal(evB.event_type, ibv_event_type.IBV_EVENT_QP_ACCESS_ERR);
    assert.equal(evB.element.qp, B.qp);
    ibv_ack_async_event(evB);
    const evA: ibv_async_event = { event_type: 0, element: { cq: null, qp: null, srq: null, port_num: 0 } };
    assert.equal(await ibv_get_async_event(A.ctx, evA), 0);
    assert.equal(evA.event_type, ibv_event_type.IBV_EVENT_QP_FATAL);
    ibv_ack_async_event(evA);
    const deadline = Date.now() + 3000;
    while (A.qp.state !== ibv_qp_state.IBV_QPS_ERR && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.equal(A.qp.state, ibv_qp_state.IBV_QPS_ERR);
    // Tear everything down in order.
    for (const s of [A, B]) {
      assert.equal(ibv_destroy_qp(s.qp), 0);
    }
    assert.equal(ibv_dereg_mr(amr), 0);
    assert.equal(ibv_dereg_mr(bmr), 0);
    for (const s of [A, B]) {
      assert.equal(ibv_destroy_cq(s.cq), 0);
      assert.equal(ibv_destroy_comp_channel(s.ch), 0);
      assert.equal(ibv_dealloc_pd(s.pd), 0);
      assert.equal(closeDevice(s.ctx), 0);
    }
  } finally {
    srv.close();
  }
});

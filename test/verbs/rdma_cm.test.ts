/**
 * rdma_cm over the iWARP connection manager: the manual's event sequences on both sides,
 * private data, IRD/ORD in the events, reject, unreachable, disconnect (and the flush it implies).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ibv_qp_state, ibv_send_flags, ibv_wc_status, rdma_cm_event_type as E, rdma_port_space } from '../../src/verbs/constants.js';
import { ibv_alloc_pd, ibv_poll_cq, ibv_reg_mr } from '../../src/verbs/ibverbs.js';
import {
  rdma_accept,
  rdma_ack_cm_event,
  rdma_bind_addr,
  rdma_connect,
  rdma_create_event_channel,
  rdma_create_id,
  rdma_destroy_event_channel,
  rdma_create_qp,
  rdma_destroy_id,
  rdma_destroy_qp,
  rdma_disconnect,
  rdma_get_cm_event,
  rdma_get_recv_comp,
  rdma_get_send_comp,
  rdma_get_src_port,
  rdma_listen,
  rdma_post_recv,
  rdma_post_send,
  rdma_reject,
  rdma_resolve_addr,
  rdma_resolve_route,
  rdma_get_devices,
  rdmaListenReady,
  rdmaUseDevice,
} from '../../src/verbs/rdma_cm.js';
import { EBADF, EOPNOTSUPP, getErrno, setErrno } from '../../src/verbs/errno.js';
import type { ibv_wc, rdma_cm_event, rdma_cm_id, rdma_event_channel } from '../../src/verbs/types.js';
import { newWc } from '../../src/verbs/ibverbs.js';

async function next(ch: rdma_event_channel, want: E): Promise<rdma_cm_event> {
  const r = await rdma_get_cm_event(ch);
  assert.equal(r.ret, 0);
  assert.equal(E[r.event!.event], E[want], `event ${E[r.event!.event]} status ${r.event!.status}`);
  return r.event!;
}

const CAP = { max_send_wr: 8, max_recv_wr: 8, max_send_sge: 1, max_recv_sge: 1 };

async function listener(): Promise<{ ch: rdma_event_channel; id: rdma_cm_id; port: number }> {
  const ch = rdma_create_event_channel()!;
  const { id } = rdma_create_id(ch, 'srv', rdma_port_space.RDMA_PS_TCP);
  assert.equal(rdma_bind_addr(id!, { family: 'ipv4', address: '127.0.0.1', port: 0 }), 0);
  assert.equal(rdma_listen(id!, 4), 0);
  await rdmaListenReady(id!);
  return { ch, id: id!, port: rdma_get_src_port(id!) };
}

test('rdma_cm: connect/accept with private data and IRD/ORD, Send both ways, disconnect → DISCONNECTED on both sides and the QPs flushed', async () => {
  const srv = await listener();
  const cch = rdma_create_event_channel()!;
  const { id: cid } = rdma_create_id(cch, 'cli', rdma_port_space.RDMA_PS_TCP);
  assert.equal(await rdma_resolve_addr(cid!, null, { family: 'ipv4', address: '127.0.0.1', port: srv.port }, 2000), 0);
  rdma_ack_cm_event(await next(cch, E.RDMA_CM_EVENT_ADDR_RESOLVED));
  assert.equal(await rdma_resolve_route(cid!, 2000), 0);
  rdma_ack_cm_event(await next(cch, E.RDMA_CM_EVENT_ROUTE_RESOLVED));
  assert.equal(rdma_create_qp(cid!, null, { cap: CAP, qp_type: 2 }), 0);
  const cbuf = new Uint8Array(64);
  const cmr = ibv_reg_mr(cid!.pd!, cbuf, 64, 1)!;
  assert.equal(rdma_post_recv(cid!, 11n, cbuf, 64, cmr), 0);
  assert.equal(await rdma_connect(cid!, { private_data: Buffer.from('hello'), responder_resources: 4, initiator_depth: 2 }), 0);

  const req = await next(srv.ch, E.RDMA_CM_EVENT_CONNECT_REQUEST);
  assert.equal(req.listen_id, srv.id);
  assert.equal(Buffer.from(req.param.conn.private_data!).toString(), 'hello');
  // iw_cm: the peer's IRD is our initiator_depth bound, its ORD our responder_resources need.
  assert.equal(req.param.conn.initiator_depth, 4);
  assert.equal(req.param.conn.responder_resources, 2);
  const sid = req.id;
  assert.notEqual(sid, srv.id);
  assert.equal(rdma_create_qp(sid, null, { cap: CAP, qp_type: 2 }), 0);
  const sbuf = new Uint8Array(64);
  const smr = ibv_reg_mr(sid.pd!, sbuf, 64, 1)!;
  assert.equal(rdma_post_recv(sid, 21n, sbuf, 64, smr), 0);
  assert.equal(await rdma_accept(sid, { private_data: Buffer.from('welcome'), responder_resources: 2, initiator_depth: 4 }), 0);
  rdma_ack_cm_event(req);
  rdma_ack_cm_event(await next(srv.ch, E.RDMA_CM_EVENT_ESTABLISHED));
  const est = await next(cch, E.RDMA_CM_EVENT_ESTABLISHED);
  assert.equal(Buffer.from(est.param.conn.private_data!).subarray(0, 7).toString(), 'welcome');
  rdma_ack_cm_event(est);
  assert.equal(cid!.qp!.state, ibv_qp_state.IBV_QPS_RTS);

  // Send client → server and back, with the rdma_verbs helpers.
  cbuf.set(Buffer.from('ping'));
  assert.equal(rdma_post_send(cid!, 1n, cbuf, 4, cmr, ibv_send_flags.IBV_SEND_SIGNALED), 0);
  const wc: ibv_wc = newWc();
  assert.equal(await rdma_get_recv_comp(sid, wc), 1);
  assert.equal(wc.wr_id, 21n);
  assert.equal(Buffer.from(sbuf.subarray(0, 4)).toString(), 'ping');
  assert.equal(await rdma_get_send_comp(cid!, wc), 1);
  assert.equal(wc.status, ibv_wc_status.IBV_WC_SUCCESS);
  sbuf.set(Buffer.from('pong'));
  assert.equal(rdma_post_send(sid, 2n, sbuf, 4, smr, ibv_send_flags.IBV_SEND_SIGNALED), 0);
  assert.equal(await rdma_get_recv_comp(cid!, wc), 1);
  assert.equal(Buffer.from(cbuf.subarray(0, 4)).toString(), 'pong');
  assert.equal(await rdma_get_send_comp(sid, wc), 1);

  // A receive left posted is flushed by the disconnect.
  assert.equal(rdma_post_recv(sid, 22n, sbuf, 64, smr), 0);
  assert.equal(await rdma_disconnect(cid!), 0);
  rdma_ack_cm_event(await next(cch, E.RDMA_CM_EVENT_DISCONNECTED));
  rdma_ack_cm_event(await next(srv.ch, E.RDMA_CM_EVENT_DISCONNECTED));
  const wcs: ibv_wc[] = [];
  assert.equal(ibv_poll_cq(sid.recv_cq!, 4, wcs), 1);
  assert.equal(wcs[0]!.wr_id, 22n);
  assert.equal(wcs[0]!.status, ibv_wc_status.IBV_WC_WR_FLUSH_ERR);
  assert.equal(sid.qp!.state, ibv_qp_state.IBV_QPS_ERR);
  for (const id of [cid!, sid]) {
    rdma_destroy_qp(id);
    assert.equal(rdma_destroy_id(id), 0);
  }
  assert.equal(rdma_destroy_id(srv.id), 0);
});

test('rdma_cm: rdma_reject gives the active side REJECTED with the private data and status -ECONNREFUSED', async () => {
  const srv = await listener();
  const cch = rdma_create_event_channel()!;
  const { id: cid } = rdma_create_id(cch, null, rdma_port_space.RDMA_PS_TCP);
  await rdma_resolve_addr(cid!, null, { family: 'ipv4', address: '127.0.0.1', port: srv.port }, 2000);
  rdma_ack_cm_event(await next(cch, E.RDMA_CM_EVENT_ADDR_RESOLVED));
  await rdma_resolve_route(cid!, 2000);
  rdma_ack_cm_event(await next(cch, E.RDMA_CM_EVENT_ROUTE_RESOLVED));
  assert.equal(rdma_create_qp(cid!, null, { cap: CAP, qp_type: 2 }), 0);
  assert.equal(await rdma_connect(cid!, null), 0);
  const req = await next(srv.ch, E.RDMA_CM_EVENT_CONNECT_REQUEST);
  assert.equal(rdma_reject(req.id, Buffer.from('go away')), 0);
  rdma_ack_cm_event(req);
  const rej = await next(cch, E.RDMA_CM_EVENT_REJECTED);
  assert.equal(rej.status, -111);
  assert.equal(Buffer.from(rej.param.conn.private_data!).toString(), 'go away');
  rdma_ack_cm_event(rej);
  rdma_destroy_qp(cid!);
  assert.equal(rdma_destroy_id(cid!), 0);
  assert.equal(rdma_destroy_id(req.id), 0);
  assert.equal(rdma_destroy_id(srv.id), 0);
});

test('rdma_cm: connecting to a port nobody listens on is REJECTED (-ECONNREFUSED), as iWARP reports a TCP RST', async () => {
  const cch = rdma_create_event_channel()!;
  const { id } = rdma_create_id(cch, null, rdma_port_space.RDMA_PS_TCP);
  await rdma_resolve_addr(id!, null, { family: 'ipv4', address: '127.0.0.1', port: 1 }, 2000);
  rdma_ack_cm_event(await next(cch, E.RDMA_CM_EVENT_ADDR_RESOLVED));
  await rdma_resolve_route(id!, 2000);
  rdma_ack_cm_event(await next(cch, E.RDMA_CM_EVENT_ROUTE_RESOLVED));
  assert.equal(rdma_create_qp(id!, ibv_alloc_pd(id!.verbs!), { cap: CAP, qp_type: 2 }), 0);
  assert.equal(await rdma_connect(id!, null), 0);
  const ev = await next(cch, E.RDMA_CM_EVENT_REJECTED);
  assert.equal(ev.status, -111);
  // An unacked event keeps the id alive (C would block; we answer EBUSY).
  assert.equal(rdma_destroy_id(id!), -1);
  rdma_ack_cm_event(ev);
  rdma_destroy_qp(id!);
  assert.equal(rdma_destroy_id(id!), 0);
});

test('rdma_cm: an RDMA_PS_UDP id exists (as on Linux) but the iWARP device does not listen on it: named to softrdma0, rdma_listen → EOPNOTSUPP', async () => {
  const ch = rdma_create_event_channel()!;
  const r = rdma_create_id(ch, null, rdma_port_space.RDMA_PS_UDP);
  assert.equal(r.ret, 0);
  assert.equal(rdmaUseDevice(r.id!, rdma_get_devices()!.find((c) => c.device.name === 'softrdma0')!), 0);
  assert.equal(rdma_bind_addr(r.id!, { family: 'ipv4', address: '127.0.0.1', port: 0 }), 0);
  assert.equal(rdma_listen(r.id!, 1), -1);
  assert.equal(getErrno(), 95);
  assert.equal(rdma_destroy_id(r.id!), 0);
});

test('rdma_destroy_event_channel with a blocked rdma_get_cm_event: the blocked call returns EBADF and sets errno as it returns; the destroying caller keeps its own errno', async () => {
  const ch = rdma_create_event_channel()!;
  const blocked = rdma_get_cm_event(ch);
  setErrno(EOPNOTSUPP);
  rdma_destroy_event_channel(ch);
  assert.equal(getErrno(), EOPNOTSUPP, 'errno of the destroying flow is untouched');
  const r = await blocked;
  assert.equal(r.event, null);
  assert.equal(r.ret, -1);
  assert.equal(getErrno(), EBADF);
});

/**
 * rdma_cm over RoCEv2 on IPv6 (the IB CM on QP1 of softroce0, one process, over ::1): the route's
 * GIDs are the IPv6 addresses themselves (IBTA Vol. 1 Annex A17.8), the `cma_hdr` carries IP
 * version 6, the listener's request has IPv6 addresses, and a connection made that way carries
 * Sends both ways; a listener on `::` (every address) serves an IPv6 client too. The device's
 * GID table is pinned to 127.0.0.1 and ::1, so the IPv6 GID has index 1.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isHostAddress } from '../../src/provider/gid-table.js';
import { ibv_qp_state, ibv_send_flags, ibv_wc_status, rdma_cm_event_type as E, rdma_port_space } from '../../src/verbs/constants.js';
import { ibv_reg_mr, newWc } from '../../src/verbs/ibverbs.js';
import { verbs as v } from '../../src/verbs/index.js';
import {
  rdma_accept,
  rdma_ack_cm_event,
  rdma_bind_addr,
  rdma_connect,
  rdma_create_event_channel,
  rdma_create_id,
  rdma_create_qp,
  rdma_destroy_id,
  rdma_destroy_qp,
  rdma_disconnect,
  rdma_get_cm_event,
  rdma_get_devices,
  rdma_get_recv_comp,
  rdma_get_send_comp,
  rdma_get_src_port,
  rdma_listen,
  rdma_post_recv,
  rdma_post_send,
  rdma_resolve_addr,
  rdma_resolve_route,
  rdmaListenReady,
  rdmaUseDevice,
} from '../../src/verbs/rdma_cm.js';
import type { rdma_cm_event, rdma_event_channel } from '../../src/verbs/types.js';
import { ipv6Bytes } from '../../src/wire/ib/gid-address.js';
import { openDevice } from '../../src/node/index.js';
import { EINVAL, getErrno } from '../../src/verbs/errno.js';
import { rdma_join_multicast } from '../../src/verbs/rdma_cm.js';
import { useEphemeralRocePort } from '../helpers/roce-port.js';

const has6 = isHostAddress('::1');
if (has6) await useEphemeralRocePort('127.0.0.1,::1');
const skip = has6 ? false : 'the host has no IPv6 loopback (::1)';
const T = { timeout: 60_000 };
const CAP = { max_send_wr: 8, max_recv_wr: 8, max_send_sge: 1, max_recv_sge: 1 };
const LO6 = [...ipv6Bytes('::1')];

const roce = () => rdma_get_devices()!.find((c) => c.device.name === 'softroce0')!;

async function next(ch: rdma_event_channel, want: E): Promise<rdma_cm_event> {
  const r = await rdma_get_cm_event(ch);
  assert.equal(r.ret, 0);
  assert.equal(E[r.event!.event], E[want], `event ${E[r.event!.event]} status ${r.event!.status}`);
  return r.event!;
}

/** Listens on `address` (softroce0), connects from ::1, checks both ends' addresses and Sends both ways, disconnects. */
async function connectOver(address: string): Promise<void> {
  const sch = rdma_create_event_channel()!;
  const { id: srv } = rdma_create_id(sch, 'srv', rdma_port_space.RDMA_PS_TCP);
  assert.equal(rdmaUseDevice(srv!, roce()), 0);
  assert.equal(rdma_bind_addr(srv!, { family: 'ipv6', address, port: 0 }), 0);
  assert.equal(rdma_listen(srv!, 4), 0);
  await rdmaListenReady(srv!);
  const port = rdma_get_src_port(srv!);

  const ch = rdma_create_event_channel()!;
  const { id } = rdma_create_id(ch, 'cli', rdma_port_space.RDMA_PS_TCP);
  const c = id!;
  assert.equal(rdmaUseDevice(c, roce()), 0);
  assert.equal(await rdma_resolve_addr(c, null, { family: 'ipv6', address: '::1', port }, 2000), 0);
  rdma_ack_cm_event(await next(ch, E.RDMA_CM_EVENT_ADDR_RESOLVED));
  assert.equal(c.route.addr.src_addr.family, 'ipv6');
  assert.equal(c.route.addr.src_addr.address, '::1');
  assert.deepEqual([...c.route.addr.addr.ibaddr.dgid.raw], LO6, 'the destination GID is the IPv6 address');
  assert.deepEqual([...c.route.addr.addr.ibaddr.sgid.raw], LO6);
  assert.equal(await rdma_resolve_route(c, 2000), 0);
  rdma_ack_cm_event(await next(ch, E.RDMA_CM_EVENT_ROUTE_RESOLVED));
  assert.deepEqual([...(c.route.path_rec![0] as { dgid: { raw: Uint8Array } }).dgid.raw], LO6, 'the path record carries the IPv6 GIDs');

  assert.equal(rdma_create_qp(c, null, { cap: CAP, qp_type: 2 }), 0);
  const cbuf = new Uint8Array(64);
  const cmr = ibv_reg_mr(c.pd!, cbuf, 64, 1)!;
  assert.equal(rdma_post_recv(c, 11n, cbuf, 64, cmr), 0);
  assert.equal(
    await rdma_connect(c, {
      private_data: Buffer.from('hello6'),
      responder_resources: 4,
      initiator_depth: 2,
      retry_count: 7,
      rnr_retry_count: 7,
    }),
    0,
  );
  const req = await next(sch, E.RDMA_CM_EVENT_CONNECT_REQUEST);
  assert.equal(Buffer.from(req.param.conn.private_data!.subarray(0, 6)).toString(), 'hello6');
  const sid = req.id;
  assert.equal(sid.route.addr.dst_addr.family, 'ipv6', "the request's cma_hdr is IP version 6");
  assert.equal(sid.route.addr.dst_addr.address, '::1');
  assert.equal(sid.route.addr.src_addr.address, '::1');
  assert.equal(rdma_create_qp(sid, null, { cap: CAP, qp_type: 2 }), 0);
  const sbuf = new Uint8Array(64);
  const smr = ibv_reg_mr(sid.pd!, sbuf, 64, 1)!;
  assert.equal(rdma_post_recv(sid, 21n, sbuf, 64, smr), 0);
  assert.equal(await rdma_accept(sid, null), 0);
  rdma_ack_cm_event(req);
  rdma_ack_cm_event(await next(ch, E.RDMA_CM_EVENT_ESTABLISHED));
  rdma_ack_cm_event(await next(sch, E.RDMA_CM_EVENT_ESTABLISHED));
  assert.equal(c.qp!.state, ibv_qp_state.IBV_QPS_RTS);

  const wc = newWc();
  cbuf.set(Buffer.from('ping'));
  assert.equal(rdma_post_send(c, 1n, cbuf, 4, cmr, ibv_send_flags.IBV_SEND_SIGNALED), 0);
  assert.equal(await rdma_get_recv_comp(sid, wc), 1);
  assert.equal(Buffer.from(sbuf.subarray(0, 4)).toString(), 'ping');
  assert.equal(await rdma_get_send_comp(c, wc), 1);
  assert.equal(wc.status, ibv_wc_status.IBV_WC_SUCCESS);
  sbuf.set(Buffer.from('pong'));
  assert.equal(rdma_post_send(sid, 2n, sbuf, 4, smr, ibv_send_flags.IBV_SEND_SIGNALED), 0);
  assert.equal(await rdma_get_recv_comp(c, wc), 1);
  assert.equal(Buffer.from(cbuf.subarray(0, 4)).toString(), 'pong');
  assert.equal(await rdma_get_send_comp(sid, wc), 1);

  assert.equal(await rdma_disconnect(c), 0);
  rdma_ack_cm_event(await next(sch, E.RDMA_CM_EVENT_DISCONNECTED));
  assert.equal(await rdma_disconnect(sid), 0);
  rdma_ack_cm_event(await next(ch, E.RDMA_CM_EVENT_DISCONNECTED));
  for (const x of [c, sid]) {
    rdma_destroy_qp(x);
    assert.equal(rdma_destroy_id(x), 0);
  }
  assert.equal(rdma_destroy_id(srv!), 0);
}

describe('rdma_cm over RoCEv2 on IPv6 (::1)', { skip }, () => {
  test('ibv_query_gid shows ::1 as a GID of its own (not IPv4-mapped)', () => {
    const g = { raw: new Uint8Array(16) };
    assert.equal(v.ibv_query_gid(roce(), 1, 1, g), 0);
    assert.deepEqual([...g.raw], LO6);
  });

  test('rdma_listen on ::1, rdma_resolve_addr ::1: IPv6 GIDs in the route and path record, cma_hdr IP version 6, Sends both ways', T, () =>
    connectOver('::1'),
  );

  test('rdma_listen on :: (every address) serves an IPv6 client', T, () => connectOver('::'));
});

describe('IPv6 multicast on softroce0: the group is its own MGID', { skip }, () => {
  test('the device reports IPv6 multicast; rdma_join_multicast of an IPv6 group posts MULTICAST_JOIN with the group as the MGID, a unicast IPv6 address is EINVAL', async () => {
    const ch = rdma_create_event_channel()!;
    const { id } = rdma_create_id(ch, 'mc6', rdma_port_space.RDMA_PS_UDP);
    assert.equal(rdmaUseDevice(id!, roce()), 0);
    assert.equal(rdma_bind_addr(id!, { family: 'ipv6', address: '::1', port: 0 }), 0);
    assert.equal(await rdma_join_multicast(id!, { family: 'ipv6', address: 'fd00::7', port: 0 }, null), -1);
    assert.equal(getErrno(), EINVAL);
    assert.equal(await rdma_join_multicast(id!, { family: 'ipv6', address: 'ff15::1:2', port: 0 }, null), 0);
    const ev = await next(ch, E.RDMA_CM_EVENT_MULTICAST_JOIN);
    assert.deepEqual([...ev.param.ud.ah_attr.grh.dgid.raw], [...ipv6Bytes('ff15::1:2')]);
    assert.equal(ev.param.ud.qp_num, 0xffffff);
    rdma_ack_cm_event(ev);
    assert.equal(rdma_destroy_id(id!), 0);
    const dev = openDevice({ transport: 'rocev2' });
    try {
      assert.equal(dev.capabilities.ipv6Multicast, true);
    } finally {
      dev.close();
    }
  });
});

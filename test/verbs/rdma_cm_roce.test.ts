/**
 * rdma_cm over RoCEv2 (the IB CM on QP1 of softroce0) in one process, over loopback UDP: the
 * device choice (rdmaUseDevice, SOFTRDMA_DEVICE, the default), a listener on both devices,
 * connect/accept with private data behind the cma_hdr, Sends both ways, disconnect with
 * DISCONNECTED on both sides, the exact REJ reasons as REJECTED statuses, SIDR for
 * RDMA_PS_UDP with a UD datagram, and CM messages lost on the wire recovered by retransmission.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { ibCmParamsFromEnv } from '../../src/ibcm/cm.js';
import { RoceNet } from '../../src/roce/net.js';
import { ibv_qp_state, ibv_send_flags, ibv_wc_status, rdma_cm_event_type as E, rdma_port_space } from '../../src/verbs/constants.js';
import { ibv_create_ah, ibv_destroy_ah } from '../../src/verbs/index.js';
import { ibv_poll_cq, ibv_reg_mr, newWc } from '../../src/verbs/ibverbs.js';
import {
  rdma_accept,
  rdma_ack_cm_event,
  rdma_bind_addr,
  rdma_connect,
  rdma_create_event_channel,
  rdma_create_id,
  rdma_create_qp,
  rdma_destroy_event_channel,
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
  rdma_post_ud_send,
  rdma_reject,
  rdma_resolve_addr,
  rdma_resolve_route,
  rdmaListenReady,
  rdmaUseDevice,
} from '../../src/verbs/rdma_cm.js';
import type { ibv_wc, rdma_cm_event, rdma_cm_id, rdma_event_channel } from '../../src/verbs/types.js';
import { CmRejReason, decodeCmMad } from '../../src/wire/ib/cm.js';
import { useEphemeralRocePort } from '../helpers/roce-port.js';

const PORT = await useEphemeralRocePort();
const T = { timeout: 60_000 };
const CAP = { max_send_wr: 8, max_recv_wr: 8, max_send_sge: 1, max_recv_sge: 1 };

const roce = () => rdma_get_devices()!.find((c) => c.device.name === 'softroce0')!;

async function next(ch: rdma_event_channel, want: E): Promise<rdma_cm_event> {
  const r = await rdma_get_cm_event(ch);
  assert.equal(r.ret, 0);
  assert.equal(E[r.event!.event], E[want], `event ${E[r.event!.event]} status ${r.event!.status}`);
  return r.event!;
}

async function listener(ps = rdma_port_space.RDMA_PS_TCP): Promise<{ ch: rdma_event_channel; id: rdma_cm_id; port: number }> {
  const ch = rdma_create_event_channel()!;
  const { id } = rdma_create_id(ch, 'srv', ps);
  assert.equal(rdma_bind_addr(id!, { family: 'ipv4', address: '127.0.0.1', port: 0 }), 0);
  assert.equal(rdma_listen(id!, 4), 0);
  await rdmaListenReady(id!);
  return { ch, id: id!, port: rdma_get_src_port(id!) };
}

/** An active id resolved to `port` on 127.0.0.1 (on RoCE when `pin`), with a QP. */
async function client(port: number, pin = true, ps = rdma_port_space.RDMA_PS_TCP): Promise<{ ch: rdma_event_channel; id: rdma_cm_id }> {
  const ch = rdma_create_event_channel()!;
  const { id } = rdma_create_id(ch, 'cli', ps);
  if (pin) assert.equal(rdmaUseDevice(id!, roce()), 0);
  assert.equal(await rdma_resolve_addr(id!, null, { family: 'ipv4', address: '127.0.0.1', port }, 2000), 0);
  rdma_ack_cm_event(await next(ch, E.RDMA_CM_EVENT_ADDR_RESOLVED));
  assert.equal(await rdma_resolve_route(id!, 2000), 0);
  rdma_ack_cm_event(await next(ch, E.RDMA_CM_EVENT_ROUTE_RESOLVED));
  return { ch, id: id! };
}

const net = () => RoceNet.find('127.0.0.1', PORT)!;

/** The CM message kind of a RoCEv2 packet to QP1, or null. */
function madKind(pkt: Uint8Array): string | null {
  const destQp = (pkt[5]! << 16) | (pkt[6]! << 8) | pkt[7]!;
  if (destQp !== 1 || pkt.length < 12 + 8 + 256) return null;
  try {
    return decodeCmMad(pkt.subarray(20, 276)).msg.kind;
  } catch {
    return null;
  }
}

after(() => net()?.setTap(null));

describe('rdma_cm over RoCEv2 (IB CM on QP1, one process, loopback UDP)', () => {
  test(
    'device choice: rdmaUseDevice → softroce0 (route GIDs IPv4-mapped, one path record); SOFTRDMA_DEVICE names it for programs without a flag; the default is softrdma0',
    T,
    async () => {
      const srv = await listener();
      const a = await client(srv.port);
      assert.equal(a.id.verbs!.device.name, 'softroce0');
      assert.deepEqual(Array.from(a.id.route.addr.addr.ibaddr.dgid.raw), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 127, 0, 0, 1]);
      assert.deepEqual(Array.from(a.id.route.addr.addr.ibaddr.sgid.raw.subarray(10)), [255, 255, 127, 0, 0, 1]);
      assert.equal(a.id.route.num_paths, 1);
      const d = await client(srv.port, false);
      assert.equal(d.id.verbs!.device.name, 'softrdma0');
      process.env.SOFTRDMA_DEVICE = 'softroce0';
      try {
        const e = await client(srv.port, false);
        assert.equal(e.id.verbs!.device.name, 'softroce0');
        assert.equal(rdma_destroy_id(e.id), 0);
        process.env.SOFTRDMA_DEVICE = 'nosuch0';
        const ch = rdma_create_event_channel()!;
        const { id } = rdma_create_id(ch, null, rdma_port_space.RDMA_PS_TCP);
        await rdma_resolve_addr(id!, null, { family: 'ipv4', address: '127.0.0.1', port: srv.port }, 2000);
        const ev = await next(ch, E.RDMA_CM_EVENT_ADDR_ERROR);
        assert.equal(ev.status, -19, 'ENODEV');
        rdma_ack_cm_event(ev);
        assert.equal(rdma_destroy_id(id!), 0);
      } finally {
        delete process.env.SOFTRDMA_DEVICE;
      }
      // RDMA_PS_UDP exists on RoCE only: with no name, it resolves there.
      const u = await client(srv.port, false, rdma_port_space.RDMA_PS_UDP);
      assert.equal(u.id.verbs!.device.name, 'softroce0');
      for (const x of [a.id, d.id, u.id, srv.id]) assert.equal(rdma_destroy_id(x), 0);
    },
  );

  test(
    'connect/accept with private data after the cma_hdr, Send both ways, disconnect → DISCONNECTED on both sides, the QPs flushed',
    T,
    async () => {
      const srv = await listener();
      const c = await client(srv.port);
      assert.equal(rdma_create_qp(c.id, null, { cap: CAP, qp_type: 2 }), 0);
      const cbuf = new Uint8Array(64);
      const cmr = ibv_reg_mr(c.id.pd!, cbuf, 64, 1)!;
      assert.equal(rdma_post_recv(c.id, 11n, cbuf, 64, cmr), 0);
      assert.equal(
        await rdma_connect(c.id, {
          private_data: Buffer.from('hello'),
          responder_resources: 4,
          initiator_depth: 2,
          retry_count: 7,
          rnr_retry_count: 7,
        }),
        0,
      );
      const req = await next(srv.ch, E.RDMA_CM_EVENT_CONNECT_REQUEST);
      assert.equal(req.listen_id, srv.id);
      assert.equal(req.id.verbs!.device.name, 'softroce0', 'the request arrived on QP1 of the RoCE device');
      // The user's private data follows the 36-octet cma_hdr: 56 octets, zero padded.
      assert.equal(req.param.conn.private_data_len, 56);
      assert.equal(Buffer.from(req.param.conn.private_data!.subarray(0, 5)).toString(), 'hello');
      // Linux reports the REQ's initiator depth as responder_resources and the reverse.
      assert.equal(req.param.conn.responder_resources, 2);
      assert.equal(req.param.conn.initiator_depth, 4);
      assert.equal(req.param.conn.qp_num, c.id.qp!.qp_num);
      assert.equal(req.id.route.addr.dst_addr.address, '127.0.0.1');
      const sid = req.id;
      assert.equal(rdma_create_qp(sid, null, { cap: CAP, qp_type: 2 }), 0);
      const sbuf = new Uint8Array(64);
      const smr = ibv_reg_mr(sid.pd!, sbuf, 64, 1)!;
      assert.equal(rdma_post_recv(sid, 21n, sbuf, 64, smr), 0);
      assert.equal(await rdma_accept(sid, { private_data: Buffer.from('welcome'), responder_resources: 4, initiator_depth: 2 }), 0);
      rdma_ack_cm_event(req);
      const est = await next(c.ch, E.RDMA_CM_EVENT_ESTABLISHED);
      assert.equal(Buffer.from(est.param.conn.private_data!.subarray(0, 7)).toString(), 'welcome');
      assert.equal(est.param.conn.private_data_len, 196);
      rdma_ack_cm_event(est);
      rdma_ack_cm_event(await next(srv.ch, E.RDMA_CM_EVENT_ESTABLISHED));
      assert.equal(c.id.qp!.state, ibv_qp_state.IBV_QPS_RTS);
      assert.equal(sid.qp!.state, ibv_qp_state.IBV_QPS_RTS);

      cbuf.set(Buffer.from('ping'));
      assert.equal(rdma_post_send(c.id, 1n, cbuf, 4, cmr, ibv_send_flags.IBV_SEND_SIGNALED), 0);
      const wc: ibv_wc = newWc();
      assert.equal(await rdma_get_recv_comp(sid, wc), 1);
      assert.equal(wc.wr_id, 21n);
      assert.equal(Buffer.from(sbuf.subarray(0, 4)).toString(), 'ping');
      assert.equal(await rdma_get_send_comp(c.id, wc), 1);
      assert.equal(wc.status, ibv_wc_status.IBV_WC_SUCCESS);
      sbuf.set(Buffer.from('pong'));
      assert.equal(rdma_post_send(sid, 2n, sbuf, 4, smr, ibv_send_flags.IBV_SEND_SIGNALED), 0);
      assert.equal(await rdma_get_recv_comp(c.id, wc), 1);
      assert.equal(Buffer.from(cbuf.subarray(0, 4)).toString(), 'pong');
      assert.equal(await rdma_get_send_comp(sid, wc), 1);

      assert.equal(rdma_post_recv(sid, 22n, sbuf, 64, smr), 0);
      assert.equal(await rdma_disconnect(c.id), 0);
      rdma_ack_cm_event(await next(srv.ch, E.RDMA_CM_EVENT_DISCONNECTED));
      assert.equal(await rdma_disconnect(sid), 0, 'the passive side answers the DREQ (DREP)');
      rdma_ack_cm_event(await next(c.ch, E.RDMA_CM_EVENT_DISCONNECTED));
      const wcs: ibv_wc[] = [];
      assert.equal(ibv_poll_cq(sid.recv_cq!, 4, wcs), 1);
      assert.equal(wcs[0]!.wr_id, 22n);
      assert.equal(wcs[0]!.status, ibv_wc_status.IBV_WC_WR_FLUSH_ERR);
      assert.equal(sid.qp!.state, ibv_qp_state.IBV_QPS_ERR);
      for (const id of [c.id, sid]) {
        rdma_destroy_qp(id);
        assert.equal(rdma_destroy_id(id), 0);
      }
      assert.equal(rdma_destroy_id(srv.id), 0);
    },
  );

  test(
    'rejects: rdma_reject → REJECTED status 28 (Consumer Defined) with its private data; no listener → REJECTED status 8 (Invalid Service ID)',
    T,
    async () => {
      const srv = await listener();
      const c = await client(srv.port);
      assert.equal(rdma_create_qp(c.id, null, { cap: CAP, qp_type: 2 }), 0);
      assert.equal(await rdma_connect(c.id, null), 0);
      const req = await next(srv.ch, E.RDMA_CM_EVENT_CONNECT_REQUEST);
      assert.equal(rdma_reject(req.id, Buffer.from('go away')), 0);
      rdma_ack_cm_event(req);
      const rej = await next(c.ch, E.RDMA_CM_EVENT_REJECTED);
      assert.equal(rej.status, CmRejReason.CONSUMER_DEFINED);
      assert.equal(Buffer.from(rej.param.conn.private_data!.subarray(0, 7)).toString(), 'go away');
      rdma_ack_cm_event(rej);
      const port = srv.port;
      for (const id of [c.id, req.id, srv.id]) {
        rdma_destroy_qp(id);
        assert.equal(rdma_destroy_id(id), 0);
      }
      const n = await client(port);
      assert.equal(rdma_create_qp(n.id, null, { cap: CAP, qp_type: 2 }), 0);
      assert.equal(await rdma_connect(n.id, null), 0);
      const none = await next(n.ch, E.RDMA_CM_EVENT_REJECTED);
      assert.equal(none.status, CmRejReason.INVALID_SERVICE_ID);
      rdma_ack_cm_event(none);
      rdma_destroy_qp(n.id);
      assert.equal(rdma_destroy_id(n.id), 0);
    },
  );

  test(
    'RDMA_PS_UDP: SIDR_REQ → CONNECT_REQUEST, rdma_accept → SIDR_REP (QPN, RDMA_UDP_QKEY) → ESTABLISHED with param.ud; a UD datagram with rdma_post_ud_send',
    T,
    async () => {
      const srv = await listener(rdma_port_space.RDMA_PS_UDP);
      const c = await client(srv.port, false, rdma_port_space.RDMA_PS_UDP);
      assert.equal(rdma_create_qp(c.id, null, { cap: CAP, qp_type: 4 }), 0);
      assert.equal(await rdma_connect(c.id, { private_data: Buffer.from('udp hello') }), 0);
      const req = await next(srv.ch, E.RDMA_CM_EVENT_CONNECT_REQUEST);
      assert.equal(Buffer.from(req.param.ud.private_data!.subarray(0, 9)).toString(), 'udp hello');
      const sid = req.id;
      assert.equal(rdma_create_qp(sid, null, { cap: CAP, qp_type: 4 }), 0);
      const sbuf = new Uint8Array(40 + 64);
      const smr = ibv_reg_mr(sid.pd!, sbuf, sbuf.length, 1)!;
      assert.equal(rdma_post_recv(sid, 5n, sbuf, sbuf.length, smr), 0);
      assert.equal(await rdma_accept(sid, { private_data: Buffer.from('udp welcome') }), 0);
      rdma_ack_cm_event(req);
      const est = await next(c.ch, E.RDMA_CM_EVENT_ESTABLISHED);
      assert.equal(est.param.ud.qp_num, sid.qp!.qp_num);
      assert.equal(est.param.ud.qkey, 0x01234567);
      assert.equal(Buffer.from(est.param.ud.private_data!.subarray(0, 11)).toString(), 'udp welcome');
      const ah = ibv_create_ah(c.id.pd!, est.param.ud.ah_attr)!;
      assert.ok(ah);
      const cbuf = Buffer.from('one datagram');
      const cmr = ibv_reg_mr(c.id.pd!, cbuf, cbuf.length, 1)!;
      assert.equal(rdma_post_ud_send(c.id, 9n, cbuf, cbuf.length, cmr, ibv_send_flags.IBV_SEND_SIGNALED, ah, est.param.ud.qp_num), 0);
      rdma_ack_cm_event(est);
      const wc: ibv_wc = newWc();
      assert.equal(await rdma_get_recv_comp(sid, wc), 1);
      assert.equal(wc.status, ibv_wc_status.IBV_WC_SUCCESS);
      assert.equal(wc.byte_len, 40 + cbuf.length);
      assert.equal(Buffer.from(sbuf.subarray(40, 40 + cbuf.length)).toString(), 'one datagram');
      assert.equal(wc.src_qp, c.id.qp!.qp_num);
      assert.equal(await rdma_get_send_comp(c.id, wc), 1);
      assert.equal(ibv_destroy_ah(ah), 0);
      for (const id of [c.id, sid]) {
        rdma_destroy_qp(id);
        assert.equal(rdma_destroy_id(id), 0);
      }
      assert.equal(rdma_destroy_id(srv.id), 0);
    },
  );

  for (const lost of [
    ['REQ', 'DREQ'],
    ['REP', 'RTU'],
  ] as const) {
    test(`a lost ${lost[0]} and a lost ${lost[1]} (dropped on the wire) are recovered by retransmission`, {
      timeout: 120_000,
    }, async () => {
      const srv = await listener();
      const c = await client(srv.port);
      assert.equal(rdma_create_qp(c.id, null, { cap: CAP, qp_type: 2 }), 0);
      const dropped: string[] = [];
      net().setTap((pkt) => {
        const k = madKind(pkt);
        if (k && (lost as readonly string[]).includes(k) && !dropped.includes(k)) {
          dropped.push(k);
          return 'drop';
        }
        return 'pass';
      });
      try {
        assert.equal(await rdma_connect(c.id, null), 0);
        const req = await next(srv.ch, E.RDMA_CM_EVENT_CONNECT_REQUEST);
        assert.equal(rdma_create_qp(req.id, null, { cap: CAP, qp_type: 2 }), 0);
        assert.equal(await rdma_accept(req.id, null), 0);
        rdma_ack_cm_event(req);
        rdma_ack_cm_event(await next(c.ch, E.RDMA_CM_EVENT_ESTABLISHED));
        rdma_ack_cm_event(await next(srv.ch, E.RDMA_CM_EVENT_ESTABLISHED));
        assert.equal(await rdma_disconnect(c.id), 0);
        rdma_ack_cm_event(await next(srv.ch, E.RDMA_CM_EVENT_DISCONNECTED));
        assert.equal(await rdma_disconnect(req.id), 0);
        rdma_ack_cm_event(await next(c.ch, E.RDMA_CM_EVENT_DISCONNECTED));
        assert.deepEqual(dropped.sort(), [...lost].sort());
        for (const id of [c.id, req.id]) {
          rdma_destroy_qp(id);
          assert.equal(rdma_destroy_id(id), 0);
        }
        assert.equal(rdma_destroy_id(srv.id), 0);
      } finally {
        net().setTap(null);
      }
    });
  }
});

test('SOFTRDMA_IBCM sets the RoCE CM limits as SOFTRDMA_MPA does the iWARP ones: keys parsed and range-checked; a malformed value makes rdma_listen EINVAL', () => {
  assert.deepEqual(ibCmParamsFromEnv('accept=250 persource=8;halfopen=64 pressure=500 resp=18'), {
    listenLimits: { acceptTimeoutMs: 250, maxHalfOpenPerSource: 8, maxHalfOpen: 64, pressureTimeoutMs: 500 },
    maxResponseTimeout: 18,
  });
  assert.deepEqual(ibCmParamsFromEnv(''), { listenLimits: {} });
  for (const bad of ['accept=', 'accept=-1', 'accept=1s', 'persource=0', 'resp=32', 'ird=4', 'accept'])
    assert.throws(() => ibCmParamsFromEnv(bad), RangeError, bad);
  const ch = rdma_create_event_channel()!;
  const { id } = rdma_create_id(ch, 'srv', rdma_port_space.RDMA_PS_TCP);
  assert.equal(rdmaUseDevice(id!, roce()), 0);
  assert.equal(rdma_bind_addr(id!, { family: 'ipv4', address: '127.0.0.1', port: 0 }), 0);
  process.env.SOFTRDMA_IBCM = 'accept=soon';
  try {
    assert.equal(rdma_listen(id!, 4), -1);
  } finally {
    delete process.env.SOFTRDMA_IBCM;
  }
  assert.equal(rdma_destroy_id(id!), 0);
  rdma_destroy_event_channel(ch);
});

test(
  "a RoCE request the program never answers is rejected by the CM after SOFTRDMA_IBCM accept=MS: REJECTED at the client, CONNECT_ERROR -ETIMEDOUT on the request's id",
  T,
  async () => {
    process.env.SOFTRDMA_IBCM = 'accept=200';
    let srv: Awaited<ReturnType<typeof listener>>;
    try {
      srv = await listener();
    } finally {
      delete process.env.SOFTRDMA_IBCM;
    }
    const c = await client(srv.port);
    assert.equal(rdma_create_qp(c.id, null, { cap: CAP, qp_type: 2 }), 0);
    assert.equal(await rdma_connect(c.id, null), 0);
    // The server takes the request and then does nothing with it.
    const req = await next(srv.ch, E.RDMA_CM_EVENT_CONNECT_REQUEST);
    rdma_ack_cm_event(req);
    const rej = await next(c.ch, E.RDMA_CM_EVENT_REJECTED);
    rdma_ack_cm_event(rej);
    const err = await next(srv.ch, E.RDMA_CM_EVENT_CONNECT_ERROR);
    assert.equal(err.id, req.id);
    assert.equal(err.status, -110);
    rdma_ack_cm_event(err);
    assert.equal(rdma_destroy_id(req.id), 0);
    rdma_destroy_qp(c.id);
    assert.equal(rdma_destroy_id(c.id), 0);
    assert.equal(rdma_destroy_id(srv.id), 0);
  },
);

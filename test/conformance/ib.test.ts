/**
 * Conformance of the provider's InfiniBand side (a RoCEv2 RNIC through RNICPI 1.0 and the
 * softrdma IB extension, docs/spec-notes.md): `ri_rnic_query` of an IB RNIC, `ri_qp_create` with
 * `qp_ib` service types, `ri_qp_modify` with RNICPI's own IB mask bits and with
 * `RI_QP_ATTR_SR_IBTA_ATTRS`, `ri_qp_query`'s `qp_ib`, and `ri_ah_*`.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { hostGids } from '../../src/provider/ib.js';
import { riGidOfBytes } from '../../src/rnicpi/gid.js';
import { roceConfig } from '../../src/provider/softrdma.js';
import { IbQpAttr } from '../../src/rnic/qp-states.js';
import { RiRet } from '../../src/rnicpi/status.js';
import {
  RiIbMtu,
  RiIbRnicFlags,
  RiQpAttrMask,
  RiQpState,
  RiRnicQueryFlags,
  RiSrGidType,
  RiSvcType,
  RiTransportType,
  type ri_gen_address_vector_t,
  type ri_ib_qp_attr_t,
  type ri_qp_attr_t,
} from '../../src/rnicpi/types.js';
import { allocPd, cleanupAll, code, createCq, name, ok, openRnic, qpAttrsIn } from './helpers.js';

after(cleanupAll);

const M = RiQpAttrMask;
/** A RoCE RNIC whose IB QPs ride the in-process loopback (no RoCEv2 transport needed). */
const roce = () => openRnic({ config: { ...roceConfig(undefined, 0), ibLink: 'loopback' } });

function av(dgid = hostGids()[0]!): ri_gen_address_vector_t {
  return {
    sl: 0,
    send_global_routing_hdr_flg: 1,
    hop_limit: 64,
    source_gid_index: 0,
    flow_label: 0,
    dgid: riGidOfBytes(dgid),
    dlid: 0,
    traffic_class: 0,
    max_static_rate: 0,
    source_path_bits: 0,
  };
}

function ibQp(env: ReturnType<typeof roce>, trans_type: RiSvcType) {
  const pd = allocPd(env);
  const cq = createCq(env);
  const r = env.ops.ri_qp_create(
    env.rnic,
    qpAttrsIn(pd, cq, cq, { qp_xport: { qp_ib: { trans_type } }, max_rdma_read_outgoing: 0, max_rdma_read_incoming: 0 }),
    null,
    'qp',
  );
  return { pd, cq, qp: ok(r, 'ri_qp_create').qp };
}

const ibOf = (a: ri_qp_attr_t): ri_ib_qp_attr_t => {
  assert.ok('qp_ib' in a.qp_xport);
  return a.qp_xport.qp_ib;
};

test('ri_rnic_query of a RoCEv2 RNIC: transport IB, one Ethernet port with the host IPv4-mapped GIDs (RoCE v2), active MTU 1024', () => {
  const env = roce();
  const a = ok(env.ops.ri_rnic_query(env.rnic, RiRnicQueryFlags.PORT_INFO, 1 << 20)).attrs;
  assert.equal(a.transport_type, RiTransportType.IB);
  assert.ok('ib' in a.trans_attr);
  const ib = a.trans_attr.ib;
  assert.equal(ib.num_ports, 1);
  // Atomics exactly when the work-request table carries them on this transport (the core's
  // executor); UD multicast (ri_mcast_attach) with rxe's limits.
  assert.equal(ib.ib_rnic_flags, RiIbRnicFlags.ATOMICS | RiIbRnicFlags.UD_MULTICAST);
  assert.deepEqual([ib.max_mcgs, ib.max_qps_per_mcg, ib.max_multicast_qps], [8192, 56, 8192 * 56]);
  const p = ib.port_attrs![0]!;
  const gids = hostGids();
  assert.equal(p.src_gid_table_size, gids.length);
  assert.deepEqual(
    p.src_gid_table,
    gids.map((g) => riGidOfBytes(g)),
  );
  assert.deepEqual(
    p.sr_gid_types,
    gids.map(() => RiSrGidType.ROCE_V2),
  );
  assert.equal(p.sr_link_layer, 'ethernet');
  assert.equal(p.sr_active_mtu, RiIbMtu.MTU_1K);
  assert.equal(p.max_mtu, RiIbMtu.MTU_4K);
  assert.deepEqual(p.pkey_table, [0xffff]);
  const bare = ok(env.ops.ri_rnic_query(env.rnic, 0, 1 << 20)).attrs.trans_attr;
  assert.ok('ib' in bare && bare.ib.port_attrs === null, 'no port attributes without RI_QUERY_RNIC_PORT_INFO');
  env.close();
});

test('ri_qp_create: qp_ib RC/UC/UD on an IB RNIC; qp_iwarp there, or qp_ib on an iWARP RNIC, is QP_INVALID_SERVICE_TYPE', () => {
  const env = roce();
  for (const t of [RiSvcType.RELIABLE_CONNECTION, RiSvcType.SR_UNRELIABLE_CONNECTION, RiSvcType.UNRELIABLE_DATAGRAM]) {
    const { qp } = ibQp(env, t);
    const a = ok(env.ops.ri_qp_query(env.rnic, qp)).attrs;
    assert.equal(a.state, RiQpState.IDLE);
    assert.equal(ibOf(a).trans_type, t);
  }
  const pd = allocPd(env);
  const cq = createCq(env);
  assert.equal(code(env.ops.ri_qp_create(env.rnic, qpAttrsIn(pd, cq), null, null)), name(RiRet.QP_INVALID_SERVICE_TYPE));
  assert.equal(
    code(env.ops.ri_qp_create(env.rnic, qpAttrsIn(pd, cq, cq, { qp_xport: { qp_ib: { trans_type: 7 as RiSvcType } } }), null, null)),
    name(RiRet.QP_INVALID_SERVICE_TYPE),
  );
  env.close();
  const iw = openRnic();
  const p2 = allocPd(iw);
  const c2 = createCq(iw);
  assert.equal(
    code(
      iw.ops.ri_qp_create(
        iw.rnic,
        qpAttrsIn(p2, c2, c2, { qp_xport: { qp_ib: { trans_type: RiSvcType.RELIABLE_CONNECTION } } }),
        null,
        null,
      ),
    ),
    name(RiRet.QP_INVALID_SERVICE_TYPE),
  );
  iw.close();
});

test('ri_qp_modify with RNICPI 1.0 IB bits: PRIMARY_PATH carries what each transition takes; query returns every attribute', () => {
  const env = roce();
  const { qp } = ibQp(env, RiSvcType.RELIABLE_CONNECTION);
  const path = {
    pkey_index: 0,
    physical_port: 1,
    path_mtu: RiIbMtu.MTU_2K,
    local_ack_timeout: 14,
    retry_count: 6,
    rnr_retry_count: 5,
    av: av(),
  };
  const init = M.NEXT_STATE | M.PRIMARY_PKEY | M.PORT_NUM | M.ENABLE_RDMA_READ | M.ENABLE_RDMA_WRITE;
  assert.equal(
    code(
      env.ops.ri_qp_modify(env.rnic, qp, init & ~M.PORT_NUM, {
        state: RiQpState.INITIALIZED,
        enable_rdma_read: true,
        enable_rdma_write: true,
        qp_xport: { qp_ib: { primary_av: path } },
      }),
    ),
    name(RiRet.INVALID_PARAMETER),
  );
  ok(
    env.ops.ri_qp_modify(env.rnic, qp, init, {
      state: RiQpState.INITIALIZED,
      enable_rdma_read: true,
      enable_rdma_write: false,
      qp_xport: { qp_ib: { primary_av: path } },
    }),
  );
  const rtr = M.NEXT_STATE | M.PRIMARY_PATH | M.DEST_QPID | M.RECV_PSN | M.MAX_RDMA_READ_INCOMING | M.MIN_RNR_TIMER;
  ok(
    env.ops.ri_qp_modify(env.rnic, qp, rtr, {
      state: RiQpState.READY_TO_RECEIVE,
      max_rdma_read_incoming: 3,
      qp_xport: { qp_ib: { primary_av: path, dest_qpn: 0x4242, recv_psn: 0x10, min_rnrnak_timer: 9 } },
    }),
  );
  const rts = M.NEXT_STATE | M.PRIMARY_PATH | M.SEND_PSN | M.MAX_RDMA_READ_OUTGOING;
  ok(
    env.ops.ri_qp_modify(env.rnic, qp, rts, {
      state: RiQpState.READY_TO_SEND,
      max_rdma_read_outgoing: 2,
      qp_xport: { qp_ib: { primary_av: path, send_psn: 0x20 } },
    }),
  );
  const a = ok(env.ops.ri_qp_query(env.rnic, qp)).attrs;
  const ib = ibOf(a);
  assert.equal(a.state, RiQpState.READY_TO_SEND);
  assert.equal(a.enable_rdma_read, true);
  assert.equal(a.enable_rdma_write, false);
  assert.equal(a.max_rdma_read_incoming, 3);
  assert.equal(a.max_rdma_read_outgoing, 2);
  assert.equal(ib.dest_qpn, 0x4242);
  assert.equal(ib.recv_psn, 0x10);
  assert.equal(ib.send_psn, 0x20);
  assert.equal(ib.min_rnrnak_timer, 9);
  assert.equal(ib.current_state, RiQpState.READY_TO_SEND);
  assert.deepEqual({ ...ib.primary_av, av: undefined }, { ...path, av: undefined });
  assert.deepEqual(ib.primary_av.av.dgid, path.av.dgid);
  env.close();
});

test('ri_qp_modify: the members both transports share (next state, queue sizes, ORD, IRD) must be non-negative integers, on an IB QP as on an iWARP QP', () => {
  for (const env of [roce(), openRnic()]) {
    const isIb = ok(env.ops.ri_rnic_query(env.rnic, 0, 1 << 20)).attrs.transport_type === RiTransportType.IB;
    const pd = allocPd(env);
    const cq = createCq(env);
    const more = isIb ? { qp_xport: { qp_ib: { trans_type: RiSvcType.RELIABLE_CONNECTION } } } : {};
    const h = ok(env.ops.ri_qp_create(env.rnic, qpAttrsIn(pd, cq, cq, more), null, 'qp')).qp;
    const modify = (mask: number, attrs: object) => code(env.ops.ri_qp_modify(env.rnic, h, mask, attrs as never));
    assert.equal(modify(M.NEXT_STATE, { state: -1 }), name(RiRet.INVALID_PARAMETER), 'negative state');
    assert.equal(modify(M.SQ_SIZE, { sq_size: -1 }), name(RiRet.INVALID_PARAMETER), 'negative SQ size');
    assert.equal(modify(M.RQ_SIZE, { rq_size: -2 }), name(RiRet.INVALID_PARAMETER), 'negative RQ size');
    assert.equal(modify(M.MAX_RDMA_READ_OUTGOING, { max_rdma_read_outgoing: -1 }), name(RiRet.INVALID_PARAMETER), 'negative ORD');
    assert.equal(modify(M.MAX_RDMA_READ_INCOMING, { max_rdma_read_incoming: -1 }), name(RiRet.INVALID_PARAMETER), 'negative IRD');
    env.close();
  }
});

test('ri_qp_modify with RI_QP_ATTR_SR_IBTA_ATTRS: the IBTA components one by one; RNICPI IB bits beside it are INVALID_PARAMETER', () => {
  const env = roce();
  const { qp } = ibQp(env, RiSvcType.RELIABLE_CONNECTION);
  const path = {
    pkey_index: 0,
    physical_port: 1,
    path_mtu: RiIbMtu.MTU_1K,
    local_ack_timeout: 3,
    retry_count: 1,
    rnr_retry_count: 2,
    av: av(),
  };
  const x = (sr_ibta_mask: number, more: Partial<ri_ib_qp_attr_t> = {}) => ({ qp_ib: { sr_ibta_mask, primary_av: path, ...more } });
  const A = IbQpAttr;
  ok(
    env.ops.ri_qp_modify(env.rnic, qp, M.NEXT_STATE | M.SR_IBTA_ATTRS, {
      state: RiQpState.INITIALIZED,
      enable_rdma_read: true,
      enable_rdma_write: true,
      qp_xport: x(A.PKEY_INDEX | A.PORT | A.ACCESS_FLAGS),
    }),
  );
  assert.equal(
    code(
      env.ops.ri_qp_modify(env.rnic, qp, M.NEXT_STATE | M.SR_IBTA_ATTRS | M.DEST_QPID, {
        state: RiQpState.READY_TO_RECEIVE,
        qp_xport: x(0),
      }),
    ),
    name(RiRet.INVALID_PARAMETER),
  );
  // INIT→RTR without TIMEOUT: the table forbids it there.
  const rtr = A.AV | A.PATH_MTU | A.DEST_QPN | A.RQ_PSN | A.MAX_DEST_RD_ATOMIC | A.MIN_RNR_TIMER;
  const rtrAttrs = (m: number) => ({
    state: RiQpState.READY_TO_RECEIVE,
    max_rdma_read_incoming: 1,
    qp_xport: x(m, { dest_qpn: 5, recv_psn: 1, min_rnrnak_timer: 1 }),
  });
  assert.equal(
    code(env.ops.ri_qp_modify(env.rnic, qp, M.NEXT_STATE | M.SR_IBTA_ATTRS, rtrAttrs(rtr | A.TIMEOUT))),
    name(RiRet.INVALID_PARAMETER),
  );
  assert.equal(ok(env.ops.ri_qp_query(env.rnic, qp)).attrs.state, RiQpState.INITIALIZED);
  ok(env.ops.ri_qp_modify(env.rnic, qp, M.NEXT_STATE | M.SR_IBTA_ATTRS, rtrAttrs(rtr)));
  const ib = ibOf(ok(env.ops.ri_qp_query(env.rnic, qp)).attrs);
  assert.equal(ib.primary_av.local_ack_timeout, 0, 'TIMEOUT was not a component of that modify');
  assert.equal(ib.primary_av.path_mtu, RiIbMtu.MTU_1K);
  env.close();
});

test('ri_ah_create / query / modify / destroy on an IB RNIC; XPORT_UNSUPPORTED on iWARP; the PD is in use meanwhile', () => {
  const env = roce();
  const pd = allocPd(env);
  const udav = { av_common: av(), physical_port: 1 };
  assert.equal(
    code(env.ops.ri_ah_create(env.rnic, pd, { av_common: { ...av(), source_gid_index: 99 }, physical_port: 1 }, null, null)),
    name(RiRet.INVALID_PARAMETER),
  );
  assert.equal(code(env.ops.ri_ah_create(env.rnic, pd, { ...udav, physical_port: 2 }, null, null)), name(RiRet.RNIC_INVALID_PORT));
  const ah = ok(env.ops.ri_ah_create(env.rnic, pd, udav, null, null)).ah;
  const q = ok(env.ops.ri_ah_query(env.rnic, ah));
  assert.equal(q.pd, pd);
  assert.deepEqual(q.av.av_common.dgid, udav.av_common.dgid);
  assert.equal(q.av.av_common.hop_limit, 64);
  ok(env.ops.ri_ah_modify(env.rnic, ah, { av_common: { ...av(), hop_limit: 3 }, physical_port: 1 }));
  assert.equal(ok(env.ops.ri_ah_query(env.rnic, ah)).av.av_common.hop_limit, 3);
  assert.equal(code(env.ops.ri_pd_dealloc(env.rnic, pd)), name(RiRet.PD_INUSE));
  ok(env.ops.ri_ah_destroy(env.rnic, ah));
  assert.equal(code(env.ops.ri_ah_destroy(env.rnic, ah)), name(RiRet.ADDRESS_HANDLE_INVALID));
  ok(env.ops.ri_pd_dealloc(env.rnic, pd));
  env.close();
  const iw = openRnic();
  assert.equal(code(iw.ops.ri_ah_create(iw.rnic, allocPd(iw), udav, null, null)), name(RiRet.XPORT_UNSUPPORTED));
  iw.close();
});

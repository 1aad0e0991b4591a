/**
 * The RoCEv2 device through ibverbs (manual ch. 4): `softroce0` beside `softrdma0` — device,
 * port and GID queries; the IB QP state machine of `ibv_modify_qp` (every required attribute
 * missing, every disallowed one, every value out of range gives EINVAL and changes nothing);
 * `ibv_query_qp` round trips; RC, UC and UD QPs; address handles; and the data path of IB QPs
 * over the in-process loopback link (the RoCEv2 transport is another module).
 */
import assert from 'node:assert/strict';
import { hostGids } from '../../src/provider/ib.js';
import { gidToIpv4 } from '../../src/roce/net-host.js';
import { networkInterfaces } from 'node:os';
import { after, before, describe, test } from 'node:test';
import {
  EBUSY,
  EINVAL,
  EOPNOTSUPP,
  getErrno,
  IBV_ACCESS_REMOTE_ATOMIC,
  IBV_ATOMIC_HCA,
  IBV_EVENT_COMM_EST,
  IBV_EVENT_SQ_DRAINED,
  IBV_LINK_LAYER_ETHERNET,
  IBV_MTU_1024,
  IBV_MTU_256,
  IBV_NODE_CA,
  IBV_QP_ALT_PATH,
  IBV_QP_CUR_STATE,
  IBV_QP_EN_SQD_ASYNC_NOTIFY,
  IBV_QP_MIN_RNR_TIMER,
  IBV_QP_PATH_MTU,
  IBV_QP_QKEY,
  IBV_QP_STATE,
  IBV_QPS_ERR,
  IBV_QPS_INIT,
  IBV_QPS_RESET,
  IBV_QPS_RTR,
  IBV_QPS_RTS,
  IBV_QPS_SQD,
  IBV_QPT_RC,
  IBV_DEVICE_AUTO_PATH_MIG,
  IBV_MIG_MIGRATED,
  IBV_QP_PATH_MIG_STATE,
  IBV_QPT_UC,
  IBV_QPT_UD,
  IBV_SEND_SIGNALED,
  IBV_TRANSPORT_IB,
  IBV_WC_GRH,
  IBV_WC_REM_ACCESS_ERR,
  IBV_WC_SUCCESS,
  IBV_WC_WR_FLUSH_ERR,
  IBV_WR_RDMA_READ,
  IBV_WR_RDMA_WRITE,
  IBV_WR_SEND,
  type ibv_ah,
  type ibv_async_event,
  type ibv_context,
  type ibv_device_attr,
  type ibv_mr,
  type ibv_port_attr,
  type ibv_qp,
  type ibv_qp_attr,
  type ibv_qp_init_attr,
  type ibv_wc,
  verbs as v,
} from '../../src/verbs/index.js';
import { pollN, reg, settle } from './pair.js';
import { engineOf } from '../helpers/hostile.js';
import {
  avTo,
  closeRoceSide,
  gid,
  openRoce,
  QKEY,
  RC_INIT_MASK,
  RC_RTR_MASK,
  RC_RTS_MASK,
  ROCE_ACC,
  type RoceSide,
  roceDevice,
  roceSide,
  roceToRts,
  UC_RTR_MASK,
  UC_RTS_MASK,
  UD_INIT_MASK,
  useLoopbackLink,
} from './roce.js';

const T = { timeout: 30_000 };
const sge = (mr: ibv_mr, length = mr.length, offset = 0) => ({ addr: mr.addr + BigInt(offset), length, lkey: mr.lkey });
const hostV4 = () =>
  Object.values(networkInterfaces())
    .flatMap((l) => l ?? [])
    .filter((a) => a.family === 'IPv4')
    .map((a) => a.address);

function query(qp: ibv_qp): { a: ibv_qp_attr; i: ibv_qp_init_attr } {
  const a = {} as ibv_qp_attr;
  const i = {} as ibv_qp_init_attr;
  assert.equal(v.ibv_query_qp(qp, a, 0, i), 0);
  return { a, i };
}

/** The next async event of `ctx` that satisfies `pred` (others are acked and dropped). */
async function asyncEvent(ctx: ibv_context, pred: (e: ibv_async_event) => boolean): Promise<ibv_async_event> {
  for (;;) {
    const e: ibv_async_event = { event_type: 0, element: { cq: null, qp: null, srq: null, port_num: 0 } };
    assert.equal(await v.ibv_get_async_event(ctx, e), 0);
    if (pred(e)) return e;
    v.ibv_ack_async_event(e);
  }
}

let restore: () => void = () => {};
before(() => {
  restore = useLoopbackLink();
});
after(() => restore());

describe('softroce0: the device, its port and GID table', () => {
  test('ibv_get_device_list has softroce0 beside softrdma0: an InfiniBand CA', () => {
    const names = v.ibv_get_device_list()!.map((d) => d.name);
    assert.deepEqual(names, ['softrdma0', 'softroce0']);
    const d = roceDevice();
    assert.equal(d.node_type, IBV_NODE_CA);
    assert.equal(d.transport_type, IBV_TRANSPORT_IB);
  });

  test('ibv_query_device: atomic_cap from the RNIC capability (the core executes atomics), max_qp_rd_atom, address handles', () => {
    const ctx = openRoce();
    const a = {} as ibv_device_attr;
    assert.equal(v.ibv_query_device(ctx, a), 0);
    assert.equal(a.atomic_cap, IBV_ATOMIC_HCA);
    assert.equal(a.max_qp_rd_atom, 128);
    assert.ok(a.max_ah > 0);
    assert.equal(a.phys_port_cnt, 1);
    assert.equal(v.ibv_close_device(ctx), 0);
  });

  test('ibv_query_port: Ethernet link layer, active MTU 1024, one GID per host address (IPv4 and IPv6)', () => {
    const ctx = openRoce();
    const p = {} as ibv_port_attr;
    assert.equal(v.ibv_query_port(ctx, 1, p), 0);
    assert.equal(p.link_layer, IBV_LINK_LAYER_ETHERNET);
    assert.equal(p.active_mtu, IBV_MTU_1024);
    assert.equal(p.gid_tbl_len, hostV4().length + hostGids().filter((g) => !gidToIpv4(g)).length);
    assert.equal(v.ibv_query_port(ctx, 2, p), EINVAL);
    assert.equal(v.ibv_close_device(ctx), 0);
  });

  test('ibv_query_gid: the IPv4-mapped GID (::ffff:a.b.c.d) of each host IPv4 address, in order, then the IPv6 ones; past the table EINVAL', () => {
    const ctx = openRoce();
    const addrs = hostV4();
    addrs.forEach((ip, i) => {
      const g = gid(ctx, i);
      assert.deepEqual([...g.subarray(0, 12)], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]);
      assert.equal([...g.subarray(12)].join('.'), ip);
    });
    const v6 = hostGids().filter((g) => !gidToIpv4(g));
    for (const [k, want] of v6.entries()) assert.deepEqual([...gid(ctx, addrs.length + k)], [...want], 'an IPv6 GID is the address itself');
    assert.equal(v.ibv_query_gid(ctx, 1, addrs.length + v6.length, { raw: new Uint8Array(16) }), EINVAL);
    assert.equal(v.ibv_close_device(ctx), 0);
  });
});

describe("softroce0: Automatic Path Migration (the manual's APM example, §8.5.1) is not supported", () => {
  test('no IBV_DEVICE_AUTO_PATH_MIG (the example stops with "device does not support auto path migration!"); an alternate path or a path migration state on an RTS RC QP is EOPNOTSUPP and changes nothing', async () => {
    const ctx = openRoce();
    const a = {} as ibv_device_attr;
    assert.equal(v.ibv_query_device(ctx, a), 0);
    assert.equal(a.device_cap_flags & IBV_DEVICE_AUTO_PATH_MIG, 0);
    assert.equal(v.ibv_close_device(ctx), 0);
    const s = roceSide(IBV_QPT_RC);
    roceToRts(s, s.qp.qp_num);
    const g = gid(s.ctx);
    // The example's step 2 (its client and server): the alternate path with the same GID (the
    // only port) and MIG_REARM; then its -m option: path_mig_state = IBV_MIG_MIGRATED.
    const alt = { alt_ah_attr: avTo(g), alt_pkey_index: 0, alt_port_num: 1, alt_timeout: 14, path_mig_state: 1 };
    assert.equal(v.ibv_modify_qp(s.qp, alt, IBV_QP_ALT_PATH | IBV_QP_PATH_MIG_STATE), EOPNOTSUPP);
    assert.equal(getErrno(), EOPNOTSUPP);
    assert.equal(v.ibv_modify_qp(s.qp, { path_mig_state: IBV_MIG_MIGRATED }, IBV_QP_PATH_MIG_STATE), EOPNOTSUPP);
    assert.equal(
      v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_RTS, path_mig_state: IBV_MIG_MIGRATED }, IBV_QP_STATE | IBV_QP_PATH_MIG_STATE),
      EOPNOTSUPP,
    );
    assert.equal(s.qp.state, IBV_QPS_RTS);
    // ibv_query_qp reports the state a QP without APM is in: migrated, no alternate port.
    const q = query(s.qp).a;
    assert.equal(q.path_mig_state, IBV_MIG_MIGRATED);
    assert.equal(q.alt_port_num, 0);
    closeRoceSide(s);
  });
});

describe('softroce0: QP creation and the IB state machine', () => {
  test('RC, UC and UD QPs are created; other types are EOPNOTSUPP', () => {
    const ctx = openRoce();
    const pd = v.ibv_alloc_pd(ctx)!;
    const cq = v.ibv_create_cq(ctx, 8, null, null, 0)!;
    const made: ibv_qp[] = [];
    for (const t of [IBV_QPT_RC, IBV_QPT_UC, IBV_QPT_UD]) {
      const qp = v.ibv_create_qp(pd, {
        qp_type: t,
        send_cq: cq,
        recv_cq: cq,
        cap: { max_send_wr: 4, max_recv_wr: 4, max_send_sge: 1, max_recv_sge: 1 },
      });
      assert.ok(qp, `type ${t}: errno ${getErrno()}`);
      assert.equal(qp.qp_type, t);
      assert.equal(qp.state, IBV_QPS_RESET);
      assert.equal(query(qp).i.qp_type, t);
      made.push(qp);
    }
    assert.equal(v.ibv_create_qp(pd, { qp_type: 8 as never, send_cq: cq, recv_cq: cq, cap: {} }), null);
    assert.equal(getErrno(), EOPNOTSUPP);
    for (const qp of made) assert.equal(v.ibv_destroy_qp(qp), 0);
    assert.equal(v.ibv_destroy_cq(cq), 0);
    assert.equal(v.ibv_dealloc_pd(pd), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  });

  test('RC: each required attribute missing and each attribute not allowed gives EINVAL and changes nothing, at every step', () => {
    const s = roceSide(IBV_QPT_RC);
    const g = gid(s.ctx);
    const init = { qp_state: IBV_QPS_INIT, pkey_index: 0, port_num: 1, qp_access_flags: ROCE_ACC, qkey: 5 };
    const rtr = {
      qp_state: IBV_QPS_RTR,
      path_mtu: IBV_MTU_1024,
      dest_qp_num: 0x77,
      rq_psn: 0x123,
      max_dest_rd_atomic: 4,
      min_rnr_timer: 12,
      ah_attr: avTo(g),
      sq_psn: 9,
    };
    const rts = { qp_state: IBV_QPS_RTS, timeout: 14, retry_cnt: 7, rnr_retry: 6, sq_psn: 0x456, max_rd_atomic: 4, path_mtu: IBV_MTU_256 };
    const steps: [object, number, number, number][] = [
      [init, RC_INIT_MASK, IBV_QP_QKEY, IBV_QPS_RESET],
      [rtr, RC_RTR_MASK, 1 << 16 /* SQ_PSN */, IBV_QPS_INIT],
      [rts, RC_RTS_MASK, IBV_QP_PATH_MTU, IBV_QPS_RTR],
    ];
    for (const [attr, mask, extra, from] of steps) {
      for (let bit = 1; bit < 1 << 21; bit <<= 1) {
        if (!(mask & bit) || bit === IBV_QP_STATE) continue;
        assert.equal(v.ibv_modify_qp(s.qp, attr, mask & ~bit), EINVAL, `from ${from} without bit ${bit}`);
        assert.equal(s.qp.state, from);
      }
      assert.equal(v.ibv_modify_qp(s.qp, attr, mask | extra), EINVAL, `from ${from} with disallowed bit ${extra}`);
      assert.equal(s.qp.state, from);
      assert.equal(v.ibv_modify_qp(s.qp, attr, mask), 0, `from ${from}: errno ${getErrno()}`);
    }
    assert.equal(s.qp.state, IBV_QPS_RTS);
    closeRoceSide(s);
  });

  test('out-of-range values, a wrong current state, an AV without GRH or a bad sgid index: EINVAL, nothing changed', () => {
    const s = roceSide(IBV_QPT_RC);
    const g = gid(s.ctx);
    const init = { qp_state: IBV_QPS_INIT, pkey_index: 0, port_num: 1, qp_access_flags: ROCE_ACC };
    assert.equal(v.ibv_modify_qp(s.qp, { ...init, port_num: 2 }, RC_INIT_MASK), EINVAL);
    assert.equal(v.ibv_modify_qp(s.qp, { ...init, pkey_index: 1 }, RC_INIT_MASK), EINVAL);
    assert.equal(v.ibv_modify_qp(s.qp, { ...init, qp_access_flags: 1 << 20 }, RC_INIT_MASK), EINVAL);
    assert.equal(s.qp.state, IBV_QPS_RESET);
    assert.equal(v.ibv_modify_qp(s.qp, init, RC_INIT_MASK), 0);
    const rtr = {
      qp_state: IBV_QPS_RTR,
      path_mtu: IBV_MTU_1024,
      dest_qp_num: 0x77,
      rq_psn: 0x123,
      max_dest_rd_atomic: 4,
      min_rnr_timer: 12,
      ah_attr: avTo(g),
    };
    const bad: [string, object, number?][] = [
      ['path_mtu 6', { path_mtu: 6 }],
      ['dest_qp_num 2^24', { dest_qp_num: 1 << 24 }],
      ['rq_psn 2^24', { rq_psn: 1 << 24 }],
      ['min_rnr_timer 32', { min_rnr_timer: 32 }],
      ['max_dest_rd_atomic beyond the device', { max_dest_rd_atomic: 129 }],
      ['no GRH', { ah_attr: { ...avTo(g), is_global: 0 } }],
      ['sgid_index past the table', { ah_attr: { ...avTo(g), grh: { ...avTo(g).grh, sgid_index: 99 } } }],
      ['port 2 in the AV', { ah_attr: { ...avTo(g), port_num: 2 } }],
      ['CUR_STATE, not an INIT→RTR attribute', { cur_qp_state: IBV_QPS_INIT }, RC_RTR_MASK | IBV_QP_CUR_STATE],
    ];
    for (const [what, over, mask] of bad) {
      assert.equal(v.ibv_modify_qp(s.qp, { ...rtr, ...over }, mask ?? RC_RTR_MASK), EINVAL, what);
      const q = query(s.qp).a;
      assert.equal(q.qp_state, IBV_QPS_INIT, what);
      assert.equal(q.dest_qp_num, 0, what);
    }
    assert.equal(v.ibv_modify_qp(s.qp, rtr, RC_RTR_MASK), 0);
    const rts = { qp_state: IBV_QPS_RTS, timeout: 14, retry_cnt: 7, rnr_retry: 7, sq_psn: 1, max_rd_atomic: 4 };
    for (const [what, over] of [
      ['timeout 32', { timeout: 32 }],
      ['retry_cnt 8', { retry_cnt: 8 }],
      ['rnr_retry 8', { rnr_retry: 8 }],
      ['sq_psn 2^24', { sq_psn: 1 << 24 }],
      ['max_rd_atomic beyond the device', { max_rd_atomic: 129 }],
    ] as const) {
      assert.equal(v.ibv_modify_qp(s.qp, { ...rts, ...over }, RC_RTS_MASK), EINVAL, what);
      assert.equal(s.qp.state, IBV_QPS_RTR, what);
    }
    assert.equal(
      v.ibv_modify_qp(s.qp, { ...rts, cur_qp_state: IBV_QPS_INIT }, RC_RTS_MASK | IBV_QP_CUR_STATE),
      EINVAL,
      'a wrong current state',
    );
    assert.equal(query(s.qp).a.sq_psn, 0);
    assert.equal(v.ibv_modify_qp(s.qp, { ...rts, cur_qp_state: IBV_QPS_RTR }, RC_RTS_MASK | IBV_QP_CUR_STATE), 0);
    // Alternate paths do not exist (no APM): the iWARP answer, EOPNOTSUPP.
    assert.equal(v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_RTS }, IBV_QP_STATE | IBV_QP_ALT_PATH), EOPNOTSUPP);
    assert.equal(s.qp.state, IBV_QPS_RTS);
    closeRoceSide(s);
  });

  test('ibv_query_qp returns every attribute ibv_modify_qp set', () => {
    const s = roceSide(IBV_QPT_RC);
    const g = gid(s.ctx);
    roceToRts(s, 0x345, { pathMtu: IBV_MTU_256, psn: 0xabcde, peerPsn: 0x12345 });
    const { a, i } = query(s.qp);
    assert.equal(a.qp_state, IBV_QPS_RTS);
    assert.equal(a.path_mtu, IBV_MTU_256);
    assert.equal(a.dest_qp_num, 0x345);
    assert.equal(a.rq_psn, 0x12345);
    assert.equal(a.sq_psn, 0xabcde);
    assert.equal(a.timeout, 14);
    assert.equal(a.retry_cnt, 7);
    assert.equal(a.rnr_retry, 7);
    assert.equal(a.min_rnr_timer, 12);
    assert.equal(a.max_rd_atomic, 4);
    assert.equal(a.max_dest_rd_atomic, 4);
    assert.equal(a.pkey_index, 0);
    assert.equal(a.port_num, 1);
    assert.equal(a.qp_access_flags, ROCE_ACC);
    assert.equal(a.ah_attr.is_global, 1);
    assert.deepEqual([...a.ah_attr.grh.dgid.raw], [...g]);
    assert.equal(a.ah_attr.grh.hop_limit, 64);
    assert.equal(a.ah_attr.grh.sgid_index, 0);
    assert.equal(a.ah_attr.port_num, 1);
    assert.equal(i.qp_type, IBV_QPT_RC);
    // RTS→RTS with optional attributes: the min RNR timer, and the access flags with REMOTE_ATOMIC.
    assert.equal(
      v.ibv_modify_qp(s.qp, { min_rnr_timer: 3, qp_access_flags: ROCE_ACC | IBV_ACCESS_REMOTE_ATOMIC }, IBV_QP_MIN_RNR_TIMER | (1 << 3)),
      0,
    );
    assert.equal(query(s.qp).a.min_rnr_timer, 3);
    assert.equal(query(s.qp).a.qp_access_flags, ROCE_ACC | IBV_ACCESS_REMOTE_ATOMIC);
    // Reset clears them.
    assert.equal(v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_RESET }, IBV_QP_STATE), 0);
    assert.equal(query(s.qp).a.dest_qp_num, 0);
    assert.equal(query(s.qp).a.qp_state, IBV_QPS_RESET);
    closeRoceSide(s);
  });

  test('UD: RESET→INIT needs QKEY (not ACCESS_FLAGS), INIT→RTR takes STATE alone, RTR→RTS STATE|SQ_PSN; qkey round-trips', () => {
    const s = roceSide(IBV_QPT_UD);
    const init = { qp_state: IBV_QPS_INIT, pkey_index: 0, port_num: 1, qkey: QKEY, qp_access_flags: ROCE_ACC };
    assert.equal(v.ibv_modify_qp(s.qp, init, UD_INIT_MASK & ~IBV_QP_QKEY), EINVAL);
    assert.equal(v.ibv_modify_qp(s.qp, init, RC_INIT_MASK), EINVAL);
    assert.equal(s.qp.state, IBV_QPS_RESET);
    assert.equal(v.ibv_modify_qp(s.qp, init, UD_INIT_MASK), 0);
    assert.equal(v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_RTR, path_mtu: IBV_MTU_1024 }, IBV_QP_STATE | IBV_QP_PATH_MTU), EINVAL);
    assert.equal(v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_RTR }, IBV_QP_STATE), 0);
    assert.equal(v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_RTS }, IBV_QP_STATE), EINVAL, 'without SQ_PSN');
    assert.equal(v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_RTS, sq_psn: 1 }, UC_RTS_MASK), 0);
    assert.equal(query(s.qp).a.qkey, QKEY);
    closeRoceSide(s);
  });

  test('UC: INIT→RTR with AV|PATH_MTU|DEST_QPN|RQ_PSN (MAX_DEST_RD_ATOMIC is not a UC attribute), RTR→RTS with SQ_PSN', () => {
    const s = roceSide(IBV_QPT_UC);
    const g = gid(s.ctx);
    assert.equal(v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_INIT, pkey_index: 0, port_num: 1, qp_access_flags: ROCE_ACC }, RC_INIT_MASK), 0);
    const rtr = {
      qp_state: IBV_QPS_RTR,
      path_mtu: IBV_MTU_1024,
      dest_qp_num: 5,
      rq_psn: 0,
      max_dest_rd_atomic: 1,
      min_rnr_timer: 1,
      ah_attr: avTo(g),
    };
    assert.equal(v.ibv_modify_qp(s.qp, rtr, RC_RTR_MASK), EINVAL);
    assert.equal(v.ibv_modify_qp(s.qp, rtr, UC_RTR_MASK), 0);
    assert.equal(
      v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_RTS, sq_psn: 0, timeout: 1, retry_cnt: 1, rnr_retry: 1, max_rd_atomic: 1 }, RC_RTS_MASK),
      EINVAL,
    );
    assert.equal(v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_RTS, sq_psn: 0 }, UC_RTS_MASK), 0);
    closeRoceSide(s);
  });

  test('without a transport for the device (RoCEv2 not loaded), INIT→RTR is EOPNOTSUPP and the QP stays in INIT', () => {
    const back = useLoopbackLink('no-such-transport');
    try {
      const s = roceSide(IBV_QPT_RC);
      assert.equal(
        v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_INIT, pkey_index: 0, port_num: 1, qp_access_flags: ROCE_ACC }, RC_INIT_MASK),
        0,
      );
      const rtr = {
        qp_state: IBV_QPS_RTR,
        path_mtu: IBV_MTU_1024,
        dest_qp_num: 5,
        rq_psn: 0,
        max_dest_rd_atomic: 1,
        min_rnr_timer: 1,
        ah_attr: avTo(gid(s.ctx)),
      };
      assert.equal(v.ibv_modify_qp(s.qp, rtr, RC_RTR_MASK), EOPNOTSUPP);
      assert.equal(s.qp.state, IBV_QPS_INIT);
      closeRoceSide(s);
    } finally {
      back();
      useLoopbackLink();
    }
  });

  test('the iWARP device keeps its answers: UD/UC QPs and address handles are EOPNOTSUPP there', () => {
    const list = v.ibv_get_device_list()!;
    const ctx = v.ibv_open_device(list.find((d) => d.name === 'softrdma0')!)!;
    const pd = v.ibv_alloc_pd(ctx)!;
    const cq = v.ibv_create_cq(ctx, 4, null, null, 0)!;
    assert.equal(v.ibv_create_qp(pd, { qp_type: IBV_QPT_UD, send_cq: cq, recv_cq: cq, cap: {} }), null);
    assert.equal(getErrno(), EOPNOTSUPP);
    assert.equal(v.ibv_create_ah(pd, avTo(new Uint8Array(16))), null);
    assert.equal(getErrno(), EOPNOTSUPP);
    assert.equal(v.ibv_destroy_cq(cq), 0);
    assert.equal(v.ibv_dealloc_pd(pd), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  });
});

describe('softroce0: address handles', () => {
  test('ibv_create_ah needs a GRH and a GID of the table; the PD is in use while it lives; destroyed once', () => {
    const ctx = openRoce();
    const pd = v.ibv_alloc_pd(ctx)!;
    const g = gid(ctx);
    assert.equal(v.ibv_create_ah(pd, { ...avTo(g), is_global: 0 }), null);
    assert.equal(getErrno(), EINVAL);
    assert.equal(v.ibv_create_ah(pd, { ...avTo(g), grh: { ...avTo(g).grh, sgid_index: 64 } }), null);
    assert.equal(getErrno(), EINVAL);
    assert.equal(v.ibv_create_ah(pd, { ...avTo(g), port_num: 2 }), null);
    assert.equal(getErrno(), EINVAL);
    const ah = v.ibv_create_ah(pd, avTo(g));
    assert.ok(ah, `errno ${getErrno()}`);
    assert.equal(ah.pd, pd);
    assert.equal(v.ibv_dealloc_pd(pd), EBUSY);
    assert.equal(v.ibv_destroy_ah(ah), 0);
    assert.equal(v.ibv_destroy_ah(ah), EINVAL);
    assert.equal(v.ibv_dealloc_pd(pd), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  });
});

describe('softroce0 over the loopback link: the data path of IB QPs', () => {
  async function rcPair(pathMtu = IBV_MTU_1024): Promise<{ a: RoceSide; b: RoceSide; close(mrs: ibv_mr[]): void }> {
    const a = roceSide(IBV_QPT_RC);
    const b = roceSide(IBV_QPT_RC);
    roceToRts(b, a.qp.qp_num, { pathMtu });
    roceToRts(a, b.qp.qp_num, { pathMtu });
    return {
      a,
      b,
      close(mrs) {
        for (const m of mrs) v.ibv_dereg_mr(m);
        closeRoceSide(a);
        closeRoceSide(b);
      },
    };
  }

  test('Send, RDMA Write and RDMA Read of many MTUs between two RC QPs of softroce0, every byte verified', T, async () => {
    const P = await rcPair(IBV_MTU_256);
    const n = 10_000;
    const src = Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);
    const smr = reg(P.a.pd, src);
    const rbuf = new Uint8Array(n);
    const rmr = reg(P.b.pd, rbuf);
    assert.equal(v.ibv_post_recv(P.b.qp, { wr_id: 1n, sg_list: [sge(rmr)] }).ret, 0);
    assert.equal(v.ibv_post_send(P.a.qp, { wr_id: 2n, opcode: IBV_WR_SEND, send_flags: IBV_SEND_SIGNALED, sg_list: [sge(smr)] }).ret, 0);
    const [rw] = await pollN(P.b.cq, 1);
    assert.equal(rw!.status, IBV_WC_SUCCESS);
    assert.equal(rw!.byte_len, n);
    assert.equal(rw!.qp_num, P.b.qp.qp_num);
    assert.deepEqual(rbuf, src);
    const wbuf = new Uint8Array(n);
    const wmr = reg(P.b.pd, wbuf);
    assert.equal(
      v.ibv_post_send(P.a.qp, {
        wr_id: 3n,
        opcode: IBV_WR_RDMA_WRITE,
        send_flags: IBV_SEND_SIGNALED,
        sg_list: [sge(smr)],
        wr: { rdma: { remote_addr: wmr.addr, rkey: wmr.rkey } },
      }).ret,
      0,
    );
    const sink = new Uint8Array(n);
    const kmr = reg(P.a.pd, sink);
    assert.equal(
      v.ibv_post_send(P.a.qp, {
        wr_id: 4n,
        opcode: IBV_WR_RDMA_READ,
        send_flags: IBV_SEND_SIGNALED,
        sg_list: [sge(kmr)],
        wr: { rdma: { remote_addr: wmr.addr, rkey: wmr.rkey } },
      }).ret,
      0,
    );
    const wcs = await pollN(P.a.cq, 3);
    assert.deepEqual(
      wcs.map((w) => [w.wr_id, w.status]),
      [
        [2n, IBV_WC_SUCCESS],
        [3n, IBV_WC_SUCCESS],
        [4n, IBV_WC_SUCCESS],
      ],
    );
    assert.deepEqual(wbuf, src);
    assert.deepEqual(sink, src);
    P.close([smr, rmr, wmr, kmr]);
  });

  test(
    'a Read without Remote Read at the target completes with IBV_WC_REM_ACCESS_ERR; the QP is in ERR and later WRs flush',
    T,
    async () => {
      const P = await rcPair();
      const src = new Uint8Array(64);
      const smr = reg(P.b.pd, src, 1 /* LOCAL_WRITE only */);
      const sink = new Uint8Array(64);
      const kmr = reg(P.a.pd, sink);
      assert.equal(
        v.ibv_post_send(P.a.qp, {
          wr_id: 1n,
          opcode: IBV_WR_RDMA_READ,
          send_flags: IBV_SEND_SIGNALED,
          sg_list: [sge(kmr)],
          wr: { rdma: { remote_addr: smr.addr, rkey: smr.rkey } },
        }).ret,
        0,
      );
      const [wc] = await pollN(P.a.cq, 1);
      assert.equal(wc!.status, IBV_WC_REM_ACCESS_ERR);
      assert.equal(P.a.qp.state, IBV_QPS_ERR);
      assert.equal(
        v.ibv_post_send(P.a.qp, { wr_id: 2n, opcode: IBV_WR_SEND, send_flags: IBV_SEND_SIGNALED, sg_list: [sge(kmr, 8)] }).ret,
        0,
      );
      const [f] = await pollN(P.a.cq, 1);
      assert.equal(f!.status, IBV_WC_WR_FLUSH_ERR);
      P.close([smr, kmr]);
    },
  );

  test('UC: Send and Write between two UC QPs', T, async () => {
    const a = roceSide(IBV_QPT_UC);
    const b = roceSide(IBV_QPT_UC);
    roceToRts(b, a.qp.qp_num);
    roceToRts(a, b.qp.qp_num);
    const src = Uint8Array.from({ length: 3000 }, (_, i) => i & 0xff);
    const smr = reg(a.pd, src);
    const rbuf = new Uint8Array(3000);
    const rmr = reg(b.pd, rbuf);
    assert.equal(v.ibv_post_recv(b.qp, { wr_id: 1n, sg_list: [sge(rmr)] }).ret, 0);
    assert.equal(v.ibv_post_send(a.qp, { wr_id: 2n, opcode: IBV_WR_SEND, send_flags: IBV_SEND_SIGNALED, sg_list: [sge(smr)] }).ret, 0);
    await pollN(b.cq, 1);
    await pollN(a.cq, 1);
    assert.deepEqual(rbuf, src);
    // UC has no RDMA Read: refused at post.
    assert.equal(
      v.ibv_post_send(a.qp, {
        wr_id: 3n,
        opcode: IBV_WR_RDMA_READ,
        sg_list: [sge(smr)],
        wr: { rdma: { remote_addr: rmr.addr, rkey: rmr.rkey } },
      }).ret,
      EINVAL,
    );
    for (const [s, m] of [
      [a, smr],
      [b, rmr],
    ] as const)
      closeRoceSide(s, [m]);
  });

  test(
    'UD: the receive buffer starts with the GRH, byte_len counts it, IBV_WC_GRH and src_qp are set; the reply AH from the WC reaches the sender',
    T,
    async () => {
      const a = roceSide(IBV_QPT_UD);
      const b = roceSide(IBV_QPT_UD);
      roceToRts(a, 0);
      roceToRts(b, 0);
      const g = gid(a.ctx);
      const msg = new TextEncoder().encode('datagram over softroce0');
      const smr = reg(a.pd, msg);
      const rbuf = new Uint8Array(40 + 256);
      const rmr = reg(b.pd, rbuf);
      assert.equal(v.ibv_post_recv(b.qp, { wr_id: 1n, sg_list: [sge(rmr)] }).ret, 0);
      const ah = v.ibv_create_ah(a.pd, avTo(g))!;
      assert.ok(ah);
      const ud = (to: ibv_ah, qpn: number, qkey = QKEY) => ({ ud: { ah: to, remote_qpn: qpn, remote_qkey: qkey } });
      assert.equal(
        v.ibv_post_send(a.qp, {
          wr_id: 2n,
          opcode: IBV_WR_SEND,
          send_flags: IBV_SEND_SIGNALED,
          sg_list: [sge(smr)],
          wr: ud(ah, b.qp.qp_num),
        }).ret,
        0,
      );
      const [sw] = await pollN(a.cq, 1);
      assert.equal(sw!.status, IBV_WC_SUCCESS);
      const [rw] = await pollN(b.cq, 1);
      assert.equal(rw!.status, IBV_WC_SUCCESS);
      assert.equal(rw!.byte_len, 40 + msg.length);
      assert.ok(rw!.wc_flags & IBV_WC_GRH);
      assert.equal(rw!.src_qp, a.qp.qp_num);
      assert.equal(rw!.qp_num, b.qp.qp_num);
      assert.deepEqual(rbuf.subarray(40, 40 + msg.length), msg);
      // The reply: an AH from the WC and the GRH in the buffer.
      const back = v.ibv_create_ah_from_wc(b.pd, rw as ibv_wc, rbuf.subarray(0, 40), 1);
      assert.ok(back, `ibv_create_ah_from_wc errno ${getErrno()}`);
      const reply = new Uint8Array(40 + 16);
      const pmr = reg(a.pd, reply);
      assert.equal(v.ibv_post_recv(a.qp, { wr_id: 3n, sg_list: [sge(pmr)] }).ret, 0);
      const r2 = Uint8Array.from([1, 2, 3, 4]);
      const r2mr = reg(b.pd, r2);
      assert.equal(v.ibv_post_send(b.qp, { wr_id: 4n, opcode: IBV_WR_SEND, sg_list: [sge(r2mr)], wr: ud(back, rw!.src_qp) }).ret, 0);
      const [aw] = await pollN(a.cq, 1);
      assert.equal(aw!.status, IBV_WC_SUCCESS);
      assert.equal(aw!.src_qp, b.qp.qp_num);
      assert.deepEqual([...reply.subarray(40, 44)], [1, 2, 3, 4]);
      // A wrong Q_Key is dropped silently; a datagram longer than the buffer is a length error there.
      assert.equal(v.ibv_post_recv(b.qp, { wr_id: 5n, sg_list: [sge(rmr, 40 + 4)] }).ret, 0);
      assert.equal(
        v.ibv_post_send(a.qp, { wr_id: 6n, opcode: IBV_WR_SEND, sg_list: [sge(smr)], wr: ud(ah, b.qp.qp_num, QKEY + 1) }).ret,
        0,
      );
      await settle();
      const none: ibv_wc[] = [];
      assert.equal(v.ibv_poll_cq(b.cq, 1, none), 0, 'a wrong Q_Key delivers nothing');
      const port = {} as ibv_port_attr;
      assert.equal(v.ibv_query_port(b.ctx, 1, port), 0);
      assert.ok(port.qkey_viol_cntr >= 1, 'counted as a Q_Key violation');
      // A datagram longer than the receive (with its GRH) is dropped and counted; the receive
      // stays posted for the next datagram that fits (as rxe).
      const drops = engineOf(b.ctx).counters.udLengthDrops;
      assert.equal(v.ibv_post_send(a.qp, { wr_id: 7n, opcode: IBV_WR_SEND, sg_list: [sge(smr)], wr: ud(ah, b.qp.qp_num) }).ret, 0);
      await settle();
      assert.equal(v.ibv_poll_cq(b.cq, 1, none), 0, 'a datagram longer than the receive completed it');
      assert.equal(engineOf(b.ctx).counters.udLengthDrops, drops + 1);
      assert.equal(v.ibv_post_send(a.qp, { wr_id: 10n, opcode: IBV_WR_SEND, sg_list: [sge(smr, 4)], wr: ud(ah, b.qp.qp_num) }).ret, 0);
      const [lw] = await pollN(b.cq, 1);
      assert.deepEqual([lw!.wr_id, lw!.status, lw!.byte_len], [5n, IBV_WC_SUCCESS, 40 + 4]);
      // A receive smaller than the GRH takes no datagram either.
      assert.equal(v.ibv_post_recv(b.qp, { wr_id: 11n, sg_list: [sge(rmr, 20)] }).ret, 0);
      assert.equal(v.ibv_post_send(a.qp, { wr_id: 12n, opcode: IBV_WR_SEND, sg_list: [sge(smr, 0)], wr: ud(ah, b.qp.qp_num) }).ret, 0);
      await settle();
      assert.equal(v.ibv_poll_cq(b.cq, 1, none), 0, 'a receive smaller than the GRH completed');
      assert.equal(engineOf(b.ctx).counters.udLengthDrops, drops + 2);
      assert.equal(b.qp.state, IBV_QPS_RTS, 'a UD length drop leaves the QP running');
      // Larger than the port's active MTU: refused at post.
      const big = new Uint8Array(1025);
      const bmr = reg(a.pd, big);
      assert.equal(v.ibv_post_send(a.qp, { wr_id: 8n, opcode: IBV_WR_SEND, sg_list: [sge(bmr)], wr: ud(ah, b.qp.qp_num) }).ret, EINVAL);
      // A destroyed AH can no longer be used.
      assert.equal(v.ibv_destroy_ah(ah), 0);
      assert.equal(v.ibv_post_send(a.qp, { wr_id: 9n, opcode: IBV_WR_SEND, sg_list: [sge(smr)], wr: ud(ah, b.qp.qp_num) }).ret, EINVAL);
      assert.equal(v.ibv_destroy_ah(back), 0);
      closeRoceSide(a, [smr, pmr, bmr]);
      closeRoceSide(b, [rmr, r2mr]);
    },
  );

  test('events: COMM_EST on the first packet a QP receives in RTR; SQ_DRAINED after RTS→SQD with en_sqd_async_notify', T, async () => {
    const a = roceSide(IBV_QPT_RC);
    const b = roceSide(IBV_QPT_RC);
    // b stops in RTR; a goes to RTS and sends.
    assert.equal(v.ibv_modify_qp(b.qp, { qp_state: IBV_QPS_INIT, pkey_index: 0, port_num: 1, qp_access_flags: ROCE_ACC }, RC_INIT_MASK), 0);
    const rbuf = new Uint8Array(8);
    const rmr = reg(b.pd, rbuf);
    assert.equal(v.ibv_post_recv(b.qp, { wr_id: 1n, sg_list: [sge(rmr)] }).ret, 0);
    const rtr = {
      qp_state: IBV_QPS_RTR,
      path_mtu: IBV_MTU_1024,
      dest_qp_num: a.qp.qp_num,
      rq_psn: 0,
      max_dest_rd_atomic: 4,
      min_rnr_timer: 12,
      ah_attr: avTo(gid(b.ctx)),
    };
    assert.equal(v.ibv_modify_qp(b.qp, rtr, RC_RTR_MASK), 0);
    roceToRts(a, b.qp.qp_num);
    const smr = reg(a.pd, new Uint8Array(8).fill(5));
    assert.equal(v.ibv_post_send(a.qp, { wr_id: 2n, opcode: IBV_WR_SEND, send_flags: IBV_SEND_SIGNALED, sg_list: [sge(smr)] }).ret, 0);
    const ce = await asyncEvent(b.ctx, (e) => e.event_type === IBV_EVENT_COMM_EST);
    assert.equal(ce.element.qp, b.qp);
    assert.equal(b.qp.state, IBV_QPS_RTR);
    v.ibv_ack_async_event(ce);
    await pollN(b.cq, 1);
    await pollN(a.cq, 1);
    assert.equal(v.ibv_modify_qp(a.qp, { qp_state: IBV_QPS_SQD, en_sqd_async_notify: 1 }, IBV_QP_STATE | IBV_QP_EN_SQD_ASYNC_NOTIFY), 0);
    const dr = await asyncEvent(a.ctx, (e) => e.event_type === IBV_EVENT_SQ_DRAINED);
    assert.equal(dr.element.qp, a.qp);
    assert.equal(a.qp.state, IBV_QPS_SQD);
    assert.equal(query(a.qp).a.sq_draining, 0);
    v.ibv_ack_async_event(dr);
    assert.equal(v.ibv_modify_qp(a.qp, { qp_state: IBV_QPS_RTS }, IBV_QP_STATE), 0);
    closeRoceSide(a, [smr]);
    closeRoceSide(b, [rmr]);
  });
});

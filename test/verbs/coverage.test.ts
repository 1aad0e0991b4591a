/**
 * Every function of the manual's API (`VERBS_API_FUNCTIONS`, the groups of `VerbsApi`) is wired in
 * `verbs` (src/verbs/index.ts): one test per function, generated from the list, each exercising
 * the function for real on softrdma's iWARP device, or — for what iWARP cannot do — checking the
 * documented failure (return value in the call's C convention, and errno = `IWARP_UNSUPPORTED`).
 * Connected QPs come from rdma_cm on loopback.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  EADDRNOTAVAIL,
  EAGAIN,
  EBADF,
  EINVAL,
  ENOSYS,
  EOPNOTSUPP,
  getErrno,
  IBV_ATOMIC_HCA,
  IBV_EXP_QP_INIT_ATTR_ATOMICS_ARG,
  IBV_EXP_QP_INIT_ATTR_PD,
  IBV_EXP_WR_EXT_MASKED_ATOMIC_FETCH_AND_ADD,
  IBV_QPT_RC,
  type ibv_exp_device_attr,
  IBV_EVENT_SRQ_LIMIT_REACHED,
  IBV_LINK_LAYER_ETHERNET,
  IBV_NODE_CA,
  IBV_NODE_RNIC,
  IBV_PORT_ACTIVE,
  IBV_QP_STATE,
  IBV_QPS_INIT,
  IBV_QPS_RESET,
  IBV_QPS_RTS,
  IBV_SEND_SIGNALED,
  IBV_SRQ_LIMIT,
  IBV_TRANSPORT_IB,
  IBV_TRANSPORT_IWARP,
  IBV_WC_RDMA_READ,
  IBV_WC_RDMA_WRITE,
  IBV_WC_RECV,
  IBV_WC_SEND,
  IBV_WC_SUCCESS,
  IBV_WC_WR_FLUSH_ERR,
  IBV_WR_SEND,
  IWARP_UNSUPPORTED,
  type ibv_async_event,
  type ibv_device_attr,
  type ibv_gid,
  type ibv_port_attr,
  type ibv_qp_attr,
  type ibv_qp_init_attr,
  type ibv_srq_attr,
  type ibv_wc,
  newWc,
  RAI_PASSIVE,
  RDMA_CM_JOIN_MC_ATTR_ADDRESS,
  RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS,
  RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER,
  RDMA_CM_EVENT_ADDR_RESOLVED,
  RDMA_CM_EVENT_CONNECT_REQUEST,
  RDMA_CM_EVENT_DISCONNECTED,
  RDMA_CM_EVENT_REJECTED,
  RDMA_CM_EVENT_ROUTE_RESOLVED,
  RDMA_OPTION_ID,
  RDMA_OPTION_ID_TOS,
  RDMA_OPTION_IB,
  RDMA_OPTION_IB_PATH,
  RDMA_PS_TCP,
  type rdma_cm_id,
  rdmaListenReady,
  VERBS_API_FUNCTIONS,
  type VerbsApi,
  verbs as v,
} from '../../src/verbs/index.js';
import {
  ACC,
  cap,
  type CmPair,
  cmPair,
  expectEvent,
  INIT_ATTR,
  INIT_MASK,
  LOOP,
  openCtx,
  pollN,
  RC,
  reg,
  RTR_ATTR,
  RTR_MASK,
} from './pair.js';

const T = { timeout: 20_000 };

/** errno after a call, and that the call reported failure the C way. */
function failedWith(ret: unknown, errno: number, failValue: unknown): void {
  assert.equal(ret, failValue);
  assert.equal(getErrno(), errno);
}

/** Client → server Send of `text` through the rdma_verbs helpers (server receive posted first). */
async function sendToServer(P: CmPair, text: string): Promise<ibv_wc> {
  const rbuf = new Uint8Array(64);
  const rmr = v.rdma_reg_msgs(P.server.id, rbuf, 64)!;
  assert.equal(v.rdma_post_recv(P.server.id, 5n, rbuf, 64, rmr), 0);
  const sbuf = new Uint8Array(Buffer.from(text));
  const smr = v.rdma_reg_msgs(P.client.id, sbuf, sbuf.length)!;
  assert.equal(v.rdma_post_send(P.client.id, 6n, sbuf, sbuf.length, smr, IBV_SEND_SIGNALED), 0);
  const wc = newWc();
  assert.equal(await v.rdma_get_recv_comp(P.server.id, wc), 1);
  assert.equal(await v.rdma_get_send_comp(P.client.id, newWc()), 1);
  assert.equal(Buffer.from(rbuf.subarray(0, sbuf.length)).toString(), text);
  v.rdma_dereg_mr(rmr);
  v.rdma_dereg_mr(smr);
  return wc;
}

/** An async id with ADDR_RESOLVED (acked), on its own channel. */
async function resolvedId(port = 1): Promise<{ ch: ReturnType<typeof v.rdma_create_event_channel> & object; id: rdma_cm_id }> {
  const ch = v.rdma_create_event_channel()!;
  const id = v.rdma_create_id(ch, null, RDMA_PS_TCP).id!;
  assert.equal(await v.rdma_resolve_addr(id, null, LOOP(port), 2000), 0);
  v.rdma_ack_cm_event(await expectEvent(ch, RDMA_CM_EVENT_ADDR_RESOLVED));
  return { ch, id };
}

/** An SRQ-backed server QP: the pair, the SRQ (on the rdma_cm default PD) and its receive buffer. */
async function srqPair(posted: number) {
  const ch = v.rdma_create_event_channel()!;
  // The default PD of the device: any bound id has it.
  const probe = v.rdma_create_id(ch, null, RDMA_PS_TCP).id!;
  assert.equal(v.rdma_bind_addr(probe, LOOP(0)), 0);
  const pd = probe.pd!;
  const srq = v.ibv_create_srq(pd, { attr: { max_wr: 16, max_sge: 1 } })!;
  assert.ok(srq);
  const buf = new Uint8Array(64);
  const mr = reg(pd, buf);
  for (let i = 0; i < posted; i++)
    assert.equal(v.ibv_post_srq_recv(srq, { wr_id: BigInt(100 + i), sg_list: [{ addr: mr.addr, length: 64, lkey: mr.lkey }] }).ret, 0);
  const P = await cmPair({ serverAttr: { qp_type: RC, cap: cap(), srq } });
  return {
    P,
    srq,
    async close() {
      await P.close();
      assert.equal(v.ibv_dereg_mr(mr), 0);
      assert.equal(v.ibv_destroy_srq(srq), 0);
      v.rdma_destroy_id(probe);
      v.rdma_destroy_event_channel(ch);
    },
  };
}

type Fn = keyof VerbsApi;
type Case = (P: CmPair) => void | Promise<void>;

const cases: Record<Fn, Case> = {
  // ------------------------------------------------------------------ errno
  getErrno() {
    assert.equal(v.ibv_alloc_pd(null as never), null);
    assert.equal(v.getErrno(), EINVAL);
  },

  // ------------------------------------------------------------------ ch. 4: devices and context
  ibv_fork_init() {
    assert.equal(v.ibv_fork_init(), 0);
  },
  ibv_get_device_list() {
    const list = v.ibv_get_device_list()!;
    assert.ok(Array.isArray(list) && list.length >= 2);
    // softrdma0 is an iWARP RNIC; softroce0 an InfiniBand channel adapter over Ethernet (RoCEv2), as rxe.
    for (const d of list) {
      const roce = d.name.startsWith('softroce');
      assert.equal(d.node_type, roce ? IBV_NODE_CA : IBV_NODE_RNIC, d.name);
      assert.equal(d.transport_type, roce ? IBV_TRANSPORT_IB : IBV_TRANSPORT_IWARP, d.name);
    }
    assert.deepEqual(
      list.map((d) => d.name),
      ['softrdma0', 'softroce0'],
    );
    v.ibv_free_device_list(list);
  },
  ibv_free_device_list() {
    const list = v.ibv_get_device_list()!;
    const ctx = v.ibv_open_device(list[0]!)!;
    v.ibv_free_device_list(list);
    assert.equal(v.ibv_query_device(ctx, {} as ibv_device_attr), 0, 'an opened context outlives the list');
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_get_device_name() {
    const list = v.ibv_get_device_list()!;
    assert.equal(v.ibv_get_device_name(list[0]!), list[0]!.name);
    assert.match(v.ibv_get_device_name(list[0]!)!, /^softrdma\d+$/);
    failedWith(v.ibv_get_device_name({} as never), EINVAL, null);
  },
  ibv_get_device_guid() {
    const list = v.ibv_get_device_list()!;
    const ctx = v.ibv_open_device(list[0]!)!;
    const a = {} as ibv_device_attr;
    assert.equal(v.ibv_query_device(ctx, a), 0);
    const guid = v.ibv_get_device_guid(list[0]!);
    assert.ok(guid > 0n);
    assert.equal(guid, a.node_guid);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_open_device() {
    const list = v.ibv_get_device_list()!;
    const ctx = v.ibv_open_device(list[0]!)!;
    assert.equal(ctx.device, list[0]);
    assert.equal(ctx.num_comp_vectors, 1);
    assert.equal(v.ibv_close_device(ctx), 0);
    failedWith(v.ibv_open_device({} as never), EINVAL, null);
  },
  ibv_close_device() {
    const ctx = openCtx();
    assert.equal(v.ibv_close_device(ctx), 0);
    failedWith(v.ibv_close_device(ctx), EINVAL, EINVAL);
    failedWith(v.ibv_alloc_pd(ctx), EINVAL, null);
  },
  ibv_node_type_str() {
    assert.equal(v.ibv_node_type_str(IBV_NODE_RNIC), 'iWARP NIC');
    assert.equal(v.ibv_node_type_str(99), 'unknown');
  },
  ibv_port_state_str() {
    assert.equal(v.ibv_port_state_str(IBV_PORT_ACTIVE), 'active');
    assert.equal(v.ibv_port_state_str(-5), 'unknown');
  },
  ibv_query_device() {
    const ctx = openCtx();
    const a = {} as ibv_device_attr;
    assert.equal(v.ibv_query_device(ctx, a), 0);
    assert.equal(a.phys_port_cnt, 1);
    assert.equal(a.atomic_cap, IBV_ATOMIC_HCA);
    assert.ok(a.max_qp > 0 && a.max_cqe > 0 && a.max_srq > 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_query_port() {
    const ctx = openCtx();
    const p = {} as ibv_port_attr;
    assert.equal(v.ibv_query_port(ctx, 1, p), 0);
    assert.equal(p.state, IBV_PORT_ACTIVE);
    assert.equal(p.link_layer, IBV_LINK_LAYER_ETHERNET);
    assert.equal(p.gid_tbl_len, 1);
    failedWith(v.ibv_query_port(ctx, 2, p), EINVAL, EINVAL);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_query_gid() {
    const ctx = openCtx();
    const gid: ibv_gid = { raw: new Uint8Array(16) };
    assert.equal(v.ibv_query_gid(ctx, 1, 0, gid), 0);
    // The GID holds the MAC; the GUID is its EUI-64 (U/L bit flipped, ff:fe in the middle).
    const g = Buffer.alloc(8);
    g.writeBigUInt64BE(v.ibv_get_device_guid(ctx.device));
    assert.deepEqual([...g], [gid.raw[0]! ^ 2, gid.raw[1], gid.raw[2], 0xff, 0xfe, gid.raw[3], gid.raw[4], gid.raw[5]]);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_query_pkey() {
    const ctx = openCtx();
    assert.deepEqual(v.ibv_query_pkey(ctx, 1, 0), { ret: 0, pkey: 0xffff });
    assert.equal(v.ibv_query_pkey(ctx, 1, 1).ret, EINVAL);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_alloc_pd() {
    const ctx = openCtx();
    const pd = v.ibv_alloc_pd(ctx)!;
    assert.equal(pd.context, ctx);
    assert.equal(v.ibv_dealloc_pd(pd), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_dealloc_pd() {
    const ctx = openCtx();
    const pd = v.ibv_alloc_pd(ctx)!;
    assert.equal(v.ibv_dealloc_pd(pd), 0);
    failedWith(v.ibv_dealloc_pd(pd), EINVAL, EINVAL);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_create_cq() {
    const ctx = openCtx();
    const cq = v.ibv_create_cq(ctx, 5, 'ctx', null, 0)!;
    assert.ok(cq.cqe >= 5);
    assert.equal(cq.cq_context, 'ctx');
    assert.equal(v.ibv_destroy_cq(cq), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_resize_cq() {
    const ctx = openCtx();
    const cq = v.ibv_create_cq(ctx, 4, null, null, 0)!;
    assert.equal(v.ibv_resize_cq(cq, 100), 0);
    assert.ok(cq.cqe >= 100);
    assert.equal(v.ibv_destroy_cq(cq), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_destroy_cq() {
    const ctx = openCtx();
    const cq = v.ibv_create_cq(ctx, 4, null, null, 0)!;
    assert.equal(v.ibv_destroy_cq(cq), 0);
    failedWith(v.ibv_destroy_cq(cq), EINVAL, EINVAL);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_create_comp_channel() {
    const ctx = openCtx();
    const ch = v.ibv_create_comp_channel(ctx)!;
    assert.equal(ch.refcnt, 0);
    const cq = v.ibv_create_cq(ctx, 4, null, ch, 0)!;
    assert.equal(ch.refcnt, 1);
    assert.equal(v.ibv_destroy_cq(cq), 0);
    assert.equal(v.ibv_destroy_comp_channel(ch), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  async ibv_destroy_comp_channel() {
    const ctx = openCtx();
    const ch = v.ibv_create_comp_channel(ctx)!;
    const waiting = v.ibv_get_cq_event(ch);
    assert.equal(v.ibv_destroy_comp_channel(ch), 0);
    assert.equal((await waiting).ret, EBADF, 'a wait pending on a destroyed channel ends with EBADF');
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_reg_mr() {
    const ctx = openCtx();
    const pd = v.ibv_alloc_pd(ctx)!;
    const buf = new Uint8Array(100);
    const mr = v.ibv_reg_mr(pd, buf, 100, ACC)!;
    assert.equal(mr.length, 100);
    assert.equal(mr.pd, pd);
    assert.ok(mr.addr > 0n);
    assert.equal(v.ibv_dereg_mr(mr), 0);
    assert.equal(v.ibv_dealloc_pd(pd), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_dereg_mr() {
    const ctx = openCtx();
    const pd = v.ibv_alloc_pd(ctx)!;
    const mr = v.ibv_reg_mr(pd, new Uint8Array(8), 8, 0)!;
    assert.equal(v.ibv_dereg_mr(mr), 0);
    failedWith(v.ibv_dereg_mr(mr), EINVAL, EINVAL);
    assert.equal(v.ibv_dealloc_pd(pd), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_create_qp() {
    const ctx = openCtx();
    const pd = v.ibv_alloc_pd(ctx)!;
    const cq = v.ibv_create_cq(ctx, 8, null, null, 0)!;
    const qp = v.ibv_create_qp(pd, { qp_type: RC, send_cq: cq, recv_cq: cq, cap: cap() })!;
    assert.equal(qp.state, IBV_QPS_RESET);
    assert.ok(qp.qp_num > 0);
    assert.equal(v.ibv_destroy_qp(qp), 0);
    assert.equal(v.ibv_destroy_cq(cq), 0);
    assert.equal(v.ibv_dealloc_pd(pd), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_destroy_qp() {
    const ctx = openCtx();
    const pd = v.ibv_alloc_pd(ctx)!;
    const cq = v.ibv_create_cq(ctx, 8, null, null, 0)!;
    const qp = v.ibv_create_qp(pd, { qp_type: RC, send_cq: cq, recv_cq: cq, cap: cap() })!;
    assert.equal(v.ibv_destroy_cq(cq), 16, 'EBUSY: the QP uses the CQ');
    assert.equal(v.ibv_destroy_qp(qp), 0);
    failedWith(v.ibv_destroy_qp(qp), EINVAL, EINVAL);
    assert.equal(v.ibv_destroy_cq(cq), 0);
    assert.equal(v.ibv_dealloc_pd(pd), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_create_srq() {
    const ctx = openCtx();
    const pd = v.ibv_alloc_pd(ctx)!;
    const init = { srq_context: 'srq', attr: { max_wr: 10, max_sge: 2, srq_limit: 0 } };
    const srq = v.ibv_create_srq(pd, init)!;
    assert.equal(srq.srq_context, 'srq');
    assert.ok(init.attr.max_wr >= 10 && init.attr.max_sge >= 2);
    assert.equal(v.ibv_destroy_srq(srq), 0);
    assert.equal(v.ibv_dealloc_pd(pd), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_modify_srq() {
    const ctx = openCtx();
    const pd = v.ibv_alloc_pd(ctx)!;
    const srq = v.ibv_create_srq(pd, { attr: { max_wr: 10, max_sge: 1 } })!;
    assert.equal(v.ibv_modify_srq(srq, { srq_limit: 3 }, IBV_SRQ_LIMIT), 0);
    const a = {} as ibv_srq_attr;
    assert.equal(v.ibv_query_srq(srq, a), 0);
    assert.equal(a.srq_limit, 3);
    failedWith(v.ibv_modify_srq(srq, {}, 1 << 7), EINVAL, EINVAL);
    assert.equal(v.ibv_destroy_srq(srq), 0);
    assert.equal(v.ibv_dealloc_pd(pd), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_destroy_srq() {
    const ctx = openCtx();
    const pd = v.ibv_alloc_pd(ctx)!;
    const srq = v.ibv_create_srq(pd, { attr: { max_wr: 4, max_sge: 1 } })!;
    assert.equal(v.ibv_destroy_srq(srq), 0);
    failedWith(v.ibv_destroy_srq(srq), EINVAL, EINVAL);
    assert.equal(v.ibv_dealloc_pd(pd), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_open_xrc_domain() {
    failedWith(v.ibv_open_xrc_domain(openCtx(), -1, 0o100), IWARP_UNSUPPORTED.ibv_open_xrc_domain!, null);
  },
  ibv_create_xrc_srq() {
    failedWith(v.ibv_create_xrc_srq(null as never, null as never, null as never, {}), ENOSYS, null);
  },
  ibv_close_xrc_domain() {
    failedWith(v.ibv_close_xrc_domain(null as never), ENOSYS, ENOSYS);
  },
  ibv_create_xrc_rcv_qp() {
    const r = v.ibv_create_xrc_rcv_qp({});
    failedWith(r.ret, ENOSYS, ENOSYS);
  },
  ibv_modify_xrc_rcv_qp() {
    failedWith(v.ibv_modify_xrc_rcv_qp(null as never, 1, {}, IBV_QP_STATE), ENOSYS, ENOSYS);
  },
  ibv_reg_xrc_rcv_qp() {
    failedWith(v.ibv_reg_xrc_rcv_qp(null as never, 1), ENOSYS, ENOSYS);
  },
  ibv_unreg_xrc_rcv_qp() {
    failedWith(v.ibv_unreg_xrc_rcv_qp(null as never, 1), ENOSYS, ENOSYS);
  },
  ibv_create_ah(P) {
    failedWith(v.ibv_create_ah(P.client.pd, { is_global: 1, port_num: 1 }), IWARP_UNSUPPORTED.ibv_create_ah!, null);
  },
  ibv_destroy_ah() {
    failedWith(v.ibv_destroy_ah({} as never), EOPNOTSUPP, EOPNOTSUPP);
  },
  ibv_modify_qp() {
    const ctx = openCtx();
    const pd = v.ibv_alloc_pd(ctx)!;
    const cq = v.ibv_create_cq(ctx, 8, null, null, 0)!;
    const qp = v.ibv_create_qp(pd, { qp_type: RC, send_cq: cq, recv_cq: cq, cap: cap() })!;
    assert.equal(v.ibv_modify_qp(qp, INIT_ATTR, INIT_MASK), 0);
    assert.equal(qp.state, IBV_QPS_INIT);
    assert.equal(v.ibv_modify_qp(qp, { qp_state: IBV_QPS_RESET }, IBV_QP_STATE), 0);
    assert.equal(qp.state, IBV_QPS_RESET);
    assert.equal(v.ibv_destroy_qp(qp), 0);
    assert.equal(v.ibv_destroy_cq(cq), 0);
    assert.equal(v.ibv_dealloc_pd(pd), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  ibv_query_qp() {
    const ctx = openCtx();
    const pd = v.ibv_alloc_pd(ctx)!;
    const cq = v.ibv_create_cq(ctx, 8, null, null, 0)!;
    const qp = v.ibv_create_qp(pd, { qp_type: RC, send_cq: cq, recv_cq: cq, cap: cap(), qp_context: 'q', sq_sig_all: 1 })!;
    assert.equal(v.ibv_modify_qp(qp, INIT_ATTR, INIT_MASK), 0);
    assert.equal(v.ibv_modify_qp(qp, RTR_ATTR, RTR_MASK), 0);
    const a = {} as ibv_qp_attr;
    const i = {} as ibv_qp_init_attr;
    assert.equal(v.ibv_query_qp(qp, a, 0, i), 0);
    assert.equal(a.qp_state, 2);
    assert.equal(a.dest_qp_num, RTR_ATTR.dest_qp_num);
    assert.equal(a.rq_psn, RTR_ATTR.rq_psn);
    assert.equal(a.qp_access_flags, ACC);
    assert.equal(i.qp_context, 'q');
    assert.equal(i.sq_sig_all, 1);
    assert.equal(i.send_cq, cq);
    assert.equal(v.ibv_destroy_qp(qp), 0);
    assert.equal(v.ibv_destroy_cq(cq), 0);
    assert.equal(v.ibv_dealloc_pd(pd), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  },
  async ibv_query_srq() {
    const S = await srqPair(2);
    try {
      const a = {} as ibv_srq_attr;
      assert.equal(v.ibv_query_srq(S.srq, a), 0);
      assert.ok(a.max_wr >= 16);
      assert.equal(a.srq_limit, 0, 'not armed');
    } finally {
      await S.close();
    }
  },
  ibv_query_xrc_rcv_qp() {
    failedWith(v.ibv_query_xrc_rcv_qp(null as never, 1, {} as ibv_qp_attr, 0, {} as ibv_qp_init_attr), ENOSYS, ENOSYS);
  },
  async ibv_post_recv(P) {
    // The server's Send may go first only after the client (MPA Initiator) sent: the fixture did.
    const buf = new Uint8Array(32);
    const mr = reg(P.client.pd, buf);
    assert.deepEqual(v.ibv_post_recv(P.client.qp, { wr_id: 42n, sg_list: [{ addr: mr.addr, length: 32, lkey: mr.lkey }] }), {
      ret: 0,
      bad_wr: null,
    });
    const src = new Uint8Array(Buffer.from('to client'));
    const smr = reg(P.server.pd, src);
    assert.equal(
      v.ibv_post_send(P.server.qp, {
        wr_id: 1n,
        opcode: IBV_WR_SEND,
        send_flags: IBV_SEND_SIGNALED,
        sg_list: [{ addr: smr.addr, length: src.length, lkey: smr.lkey }],
      }).ret,
      0,
    );
    const [wc] = await pollN(P.client.rcq, 1);
    assert.equal(wc!.wr_id, 42n);
    assert.equal(wc!.opcode, IBV_WC_RECV);
    assert.equal(wc!.byte_len, src.length);
    assert.equal(Buffer.from(buf.subarray(0, src.length)).toString(), 'to client');
    assert.equal((await pollN(P.server.scq, 1))[0]!.status, IBV_WC_SUCCESS);
    v.ibv_dereg_mr(mr);
    v.ibv_dereg_mr(smr);
  },
  async ibv_post_send(P) {
    const wc = await sendToServer(P, 'via post_send');
    assert.equal(wc.status, IBV_WC_SUCCESS);
    // And the raw verb: an RDMA Write from the client into a server MR.
    const dst = new Uint8Array(16);
    const dmr = v.rdma_reg_write(P.server.id, dst, 16)!;
    const src = new Uint8Array(16).fill(7);
    const smr = reg(P.client.pd, src);
    const r = v.ibv_post_send(P.client.qp, {
      wr_id: 9n,
      opcode: 0,
      send_flags: IBV_SEND_SIGNALED,
      sg_list: [{ addr: smr.addr, length: 16, lkey: smr.lkey }],
      wr: { rdma: { remote_addr: dmr.addr, rkey: dmr.rkey } },
    });
    assert.equal(r.ret, 0);
    const [w] = await pollN(P.client.scq, 1);
    assert.equal(w!.opcode, IBV_WC_RDMA_WRITE);
    assert.equal(w!.status, IBV_WC_SUCCESS);
    await placed(P);
    assert.deepEqual([...dst], [...src]);
    v.ibv_dereg_mr(dmr);
    v.ibv_dereg_mr(smr);
  },
  async ibv_post_srq_recv() {
    const S = await srqPair(0);
    try {
      const buf = new Uint8Array(32);
      const mr = reg(S.P.server.pd, buf);
      assert.equal(v.ibv_post_srq_recv(S.srq, [{ wr_id: 77n, sg_list: [{ addr: mr.addr, length: 32, lkey: mr.lkey }] }]).ret, 0);
      const src = new Uint8Array(Buffer.from('srq'));
      const smr = reg(S.P.client.pd, src);
      assert.equal(
        v.ibv_post_send(S.P.client.qp, { opcode: IBV_WR_SEND, sg_list: [{ addr: smr.addr, length: 3, lkey: smr.lkey }] }).ret,
        0,
      );
      const [wc] = await pollN(S.P.server.rcq, 1);
      assert.equal(wc!.wr_id, 77n);
      assert.equal(wc!.qp_num, S.P.server.qp.qp_num);
      assert.equal(Buffer.from(buf.subarray(0, 3)).toString(), 'srq');
      v.ibv_dereg_mr(mr);
      v.ibv_dereg_mr(smr);
    } finally {
      await S.close();
    }
  },
  async ibv_req_notify_cq(P) {
    const ch = P.server.rcq.channel!;
    assert.equal(v.ibv_req_notify_cq(P.server.rcq, 0), 0);
    const ev = v.ibv_get_cq_event(ch);
    const wc = await sendRaw(P, ev);
    assert.equal(wc.opcode, IBV_WC_RECV);
  },
  async ibv_get_cq_event(P) {
    const ch = P.client.rcq.channel!;
    ch.nonblocking = true;
    try {
      const r = await v.ibv_get_cq_event(ch);
      failedWith(r.ret, EAGAIN, EAGAIN);
    } finally {
      ch.nonblocking = false;
    }
    assert.equal(v.ibv_req_notify_cq(P.server.rcq, 0), 0);
    let got: { cq: unknown; cq_context: unknown } | null = null;
    const ev = v.ibv_get_cq_event(P.server.rcq.channel!).then((r) => {
      got = r;
      return r;
    });
    await sendRaw(P, ev);
    assert.equal(got!.cq, P.server.rcq);
    assert.equal(got!.cq_context, P.server.rcq.cq_context);
  },
  async ibv_ack_cq_events(P) {
    // A CQ of our own on the server's context, attached to no QP, to see destroy wait for the ack.
    const ctx = P.server.id.verbs!;
    const ch = v.ibv_create_comp_channel(ctx)!;
    const cq = v.ibv_create_cq(ctx, 4, null, ch, 0)!;
    const qp = v.ibv_create_qp(P.server.pd, { qp_type: RC, send_cq: cq, recv_cq: cq, cap: cap() })!;
    assert.equal(v.ibv_modify_qp(qp, INIT_ATTR, INIT_MASK), 0);
    const buf = new Uint8Array(8);
    const mr = reg(P.server.pd, buf);
    assert.equal(v.ibv_post_recv(qp, { wr_id: 1n, sg_list: [{ addr: mr.addr, length: 8, lkey: mr.lkey }] }).ret, 0);
    assert.equal(v.ibv_req_notify_cq(cq, 0), 0);
    const ev = v.ibv_get_cq_event(ch);
    // Moving the QP to ERR flushes the receive: a completion, hence an event.
    assert.equal(v.ibv_modify_qp(qp, { qp_state: 6 }, IBV_QP_STATE), 0);
    assert.equal((await ev).cq, cq);
    assert.equal(v.ibv_destroy_qp(qp), 0);
    assert.equal(v.ibv_destroy_cq(cq), 16, 'EBUSY until the event is acked');
    v.ibv_ack_cq_events(cq, 1);
    assert.equal(v.ibv_destroy_cq(cq), 0);
    assert.equal(v.ibv_destroy_comp_channel(ch), 0);
    assert.equal(v.ibv_dereg_mr(mr), 0);
  },
  async ibv_poll_cq(P) {
    const wc: ibv_wc[] = [];
    assert.equal(v.ibv_poll_cq(P.client.scq, 4, wc), 0, 'nothing queued');
    const src = new Uint8Array(Buffer.from('poll'));
    const smr = reg(P.client.pd, src);
    const rbuf = new Uint8Array(8);
    const rmr = reg(P.server.pd, rbuf);
    assert.equal(v.ibv_post_recv(P.server.qp, { wr_id: 3n, sg_list: [{ addr: rmr.addr, length: 8, lkey: rmr.lkey }] }).ret, 0);
    assert.equal(
      v.ibv_post_send(P.client.qp, {
        wr_id: 4n,
        opcode: IBV_WR_SEND,
        send_flags: IBV_SEND_SIGNALED,
        sg_list: [{ addr: smr.addr, length: 4, lkey: smr.lkey }],
      }).ret,
      0,
    );
    const [s] = await pollN(P.client.scq, 1);
    assert.equal(s!.wr_id, 4n);
    assert.equal(s!.opcode, IBV_WC_SEND);
    assert.equal((await pollN(P.server.rcq, 1))[0]!.byte_len, 4);
    assert.equal(v.ibv_poll_cq(P.client.scq, 4, wc), 0, 'removed by the poll');
    v.ibv_dereg_mr(smr);
    v.ibv_dereg_mr(rmr);
  },
  ibv_init_ah_from_wc(P) {
    failedWith(v.ibv_init_ah_from_wc(P.client.id.verbs!, 1, newWc(), null, {} as never), EOPNOTSUPP, EOPNOTSUPP);
  },
  ibv_create_ah_from_wc(P) {
    failedWith(v.ibv_create_ah_from_wc(P.client.pd, newWc(), null, 1), EOPNOTSUPP, null);
  },
  ibv_attach_mcast(P) {
    failedWith(v.ibv_attach_mcast(P.client.qp, { raw: new Uint8Array(16) }, 0), IWARP_UNSUPPORTED.ibv_attach_mcast!, EOPNOTSUPP);
  },
  ibv_detach_mcast(P) {
    failedWith(v.ibv_detach_mcast(P.client.qp, { raw: new Uint8Array(16) }, 0), EOPNOTSUPP, EOPNOTSUPP);
  },
  async ibv_get_async_event() {
    const S = await srqPair(4);
    try {
      assert.equal(v.ibv_modify_srq(S.srq, { srq_limit: 4 }, IBV_SRQ_LIMIT), 0);
      const ev: ibv_async_event = { event_type: 0, element: { cq: null, qp: null, srq: null, port_num: 0 } };
      const got = v.ibv_get_async_event(S.P.server.id.verbs!, ev);
      const src = new Uint8Array(4);
      const smr = reg(S.P.client.pd, src);
      assert.equal(
        v.ibv_post_send(S.P.client.qp, { opcode: IBV_WR_SEND, sg_list: [{ addr: smr.addr, length: 4, lkey: smr.lkey }] }).ret,
        0,
      );
      assert.equal(await got, 0);
      assert.equal(ev.event_type, IBV_EVENT_SRQ_LIMIT_REACHED);
      assert.equal(ev.element.srq, S.srq);
      v.ibv_ack_async_event(ev);
      await pollN(S.P.server.rcq, 1);
      v.ibv_dereg_mr(smr);
    } finally {
      await S.close();
    }
  },
  async ibv_ack_async_event() {
    const S = await srqPair(2);
    try {
      assert.equal(v.ibv_modify_srq(S.srq, { srq_limit: 2 }, IBV_SRQ_LIMIT), 0);
      const ev: ibv_async_event = { event_type: 0, element: { cq: null, qp: null, srq: null, port_num: 0 } };
      const got = v.ibv_get_async_event(S.P.server.id.verbs!, ev);
      const src = new Uint8Array(4);
      const smr = reg(S.P.client.pd, src);
      assert.equal(
        v.ibv_post_send(S.P.client.qp, { opcode: IBV_WR_SEND, sg_list: [{ addr: smr.addr, length: 4, lkey: smr.lkey }] }).ret,
        0,
      );
      assert.equal(await got, 0);
      await pollN(S.P.server.rcq, 1);
      v.ibv_dereg_mr(smr);
      await S.P.close();
      assert.equal(v.ibv_destroy_srq(S.srq), 16, 'EBUSY while the event is unacked');
      v.ibv_ack_async_event(ev);
      assert.equal(S.srq.events_completed, 1);
    } finally {
      await S.close();
    }
  },
  ibv_event_type_str() {
    assert.equal(v.ibv_event_type_str(IBV_EVENT_SRQ_LIMIT_REACHED), 'SRQ limit reached');
    assert.equal(v.ibv_event_type_str(1000), 'unknown');
  },
  ibv_wc_status_str() {
    assert.equal(v.ibv_wc_status_str(IBV_WC_WR_FLUSH_ERR), 'Work Request Flushed Error');
    assert.equal(v.ibv_wc_status_str(IBV_WC_SUCCESS), 'success');
  },

  // ------------------------------------------------------------------ §4.8 / ch. 8 experimental (ENOSYS)
  ibv_exp_query_device(P) {
    const a = {} as ibv_exp_device_attr;
    assert.equal(v.ibv_exp_query_device(P.client.id.verbs!, a), 0);
    assert.equal(a.exp_atomic_cap, 1);
    assert.equal(a.ext_atom.atomic_arg_sizes, 8n | 16n | 32n);
    assert.equal(a.ext_atom.max_fa_bit_boundary, 3);
    failedWith(v.ibv_exp_query_device({} as never, {} as never), EINVAL, EINVAL);
  },
  ibv_exp_create_qp(P) {
    // DC initiators, UMR and cross-channel QPs are not offered; a plain RC QP for atomics is.
    failedWith(v.ibv_exp_create_qp(P.client.id.verbs!, { comp_mask: 1 << 2, exp_create_flags: 1 }), ENOSYS, null);
    const cq = v.ibv_create_cq(P.client.id.verbs!, 4, null, null, 0)!;
    const qp = v.ibv_exp_create_qp(P.client.id.verbs!, {
      comp_mask: IBV_EXP_QP_INIT_ATTR_PD | IBV_EXP_QP_INIT_ATTR_ATOMICS_ARG,
      pd: P.client.pd,
      send_cq: cq,
      recv_cq: cq,
      qp_type: IBV_QPT_RC,
      max_atomic_arg: 32,
      cap: { max_send_wr: 1, max_recv_wr: 1, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 },
    });
    assert.ok(qp);
    assert.equal(v.ibv_destroy_qp(qp), 0);
    assert.equal(v.ibv_destroy_cq(cq), 0);
  },
  ibv_exp_post_send(P) {
    // A masked atomic of an unsupported size (log_arg_sz 6 = 64 bytes): EINVAL with bad_wr.
    const wr = {
      wr_id: 1n,
      exp_opcode: IBV_EXP_WR_EXT_MASKED_ATOMIC_FETCH_AND_ADD,
      ext_op: { masked_atomics: { log_arg_sz: 6, remote_addr: 0n, rkey: 1 } },
    };
    const r = v.ibv_exp_post_send(P.client.qp, wr);
    failedWith(r.ret, EINVAL, EINVAL);
    assert.equal(r.bad_wr, wr);
  },
  ibv_exp_create_dct(P) {
    failedWith(v.ibv_exp_create_dct(P.client.id.verbs!, {}), ENOSYS, null);
  },
  ibv_exp_destroy_dct() {
    failedWith(v.ibv_exp_destroy_dct({} as never), ENOSYS, ENOSYS);
  },
  ibv_exp_query_dct() {
    failedWith(v.ibv_exp_query_dct({} as never, {} as never), ENOSYS, ENOSYS);
  },
  ibv_exp_arm_dct() {
    failedWith(v.ibv_exp_arm_dct({} as never, {}), ENOSYS, ENOSYS);
  },
  ibv_exp_reg_mr() {
    failedWith(v.ibv_exp_reg_mr({}), ENOSYS, null);
  },
  ibv_exp_create_mr() {
    failedWith(v.ibv_exp_create_mr({}), ENOSYS, null);
  },
  ibv_exp_query_mkey() {
    failedWith(v.ibv_exp_query_mkey({} as never, {} as never), ENOSYS, ENOSYS);
  },
  ibv_exp_alloc_mkey_list_memory() {
    failedWith(v.ibv_exp_alloc_mkey_list_memory({}), ENOSYS, null);
  },
  ibv_exp_dealloc_mkey_list_memory() {
    failedWith(v.ibv_exp_dealloc_mkey_list_memory({} as never), ENOSYS, ENOSYS);
  },

  // ------------------------------------------------------------------ ch. 5: rdma_cm
  async rdma_create_event_channel() {
    const ch = v.rdma_create_event_channel()!;
    assert.ok(ch.fd > 0);
    ch.nonblocking = true;
    failedWith((await v.rdma_get_cm_event(ch)).ret, EAGAIN, -1);
    v.rdma_destroy_event_channel(ch);
  },
  async rdma_destroy_event_channel() {
    const ch = v.rdma_create_event_channel()!;
    const waiting = v.rdma_get_cm_event(ch);
    v.rdma_destroy_event_channel(ch);
    assert.equal((await waiting).ret, -1);
    assert.equal(getErrno(), EBADF);
  },
  rdma_create_id() {
    const ch = v.rdma_create_event_channel()!;
    const r = v.rdma_create_id(ch, 'ctx', RDMA_PS_TCP);
    assert.equal(r.ret, 0);
    assert.equal(r.id!.context, 'ctx');
    assert.equal(r.id!.channel, ch);
    assert.equal(r.id!.verbs, null, 'not bound yet');
    assert.equal(v.rdma_destroy_id(r.id!), 0);
    v.rdma_destroy_event_channel(ch);
  },
  async rdma_destroy_id() {
    const { ch, id } = await resolvedId();
    assert.equal(v.rdma_destroy_id(id), 0);
    failedWith(v.rdma_destroy_id(id), EINVAL, -1);
    v.rdma_destroy_event_channel(ch);
  },
  async rdma_migrate_id() {
    const ch1 = v.rdma_create_event_channel()!;
    const ch2 = v.rdma_create_event_channel()!;
    const id = v.rdma_create_id(ch1, null, RDMA_PS_TCP).id!;
    assert.equal(v.rdma_migrate_id(id, ch2), 0);
    assert.equal(id.channel, ch2);
    await v.rdma_resolve_addr(id, null, LOOP(1), 2000);
    v.rdma_ack_cm_event(await expectEvent(ch2, RDMA_CM_EVENT_ADDR_RESOLVED));
    ch1.nonblocking = true;
    assert.equal((await v.rdma_get_cm_event(ch1)).ret, -1, 'nothing on the old channel');
    assert.equal(v.rdma_destroy_id(id), 0);
    v.rdma_destroy_event_channel(ch1);
    v.rdma_destroy_event_channel(ch2);
  },
  rdma_set_option() {
    const id = v.rdma_create_id(null, null, RDMA_PS_TCP).id!;
    assert.equal(v.rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, 0), 0);
    failedWith(
      v.rdma_set_option(id, RDMA_OPTION_IB, RDMA_OPTION_IB_PATH, new Uint8Array(64)),
      IWARP_UNSUPPORTED['rdma_set_option:RDMA_OPTION_IB_PATH']!,
      -1,
    );
    assert.equal(v.rdma_destroy_id(id), 0);
  },
  async rdma_create_ep() {
    const attr = { qp_type: RC, cap: cap() };
    const srv = (await v.rdma_getaddrinfo('127.0.0.1', '0', { ai_flags: RAI_PASSIVE, ai_port_space: RDMA_PS_TCP })).res!;
    const r = await v.rdma_create_ep(srv, null, attr);
    assert.equal(r.ret, 0);
    const listen = r.id!;
    assert.equal(listen.channel, null, 'a synchronous id');
    assert.equal(v.rdma_listen(listen, 2), 0);
    await rdmaListenReady(listen);
    const cli = (await v.rdma_getaddrinfo('127.0.0.1', String(v.rdma_get_src_port(listen)), { ai_port_space: RDMA_PS_TCP })).res!;
    const c = await v.rdma_create_ep(cli, null, attr);
    assert.equal(c.ret, 0);
    assert.ok(c.id!.qp, 'the active ep has its QP');
    const connecting = v.rdma_connect(c.id!, null);
    const req = await v.rdma_get_request(listen);
    assert.ok(req.id!.qp, 'the request id has a QP (H21)');
    assert.equal(await v.rdma_accept(req.id!, null), 0);
    assert.equal(await connecting, 0);
    assert.equal(c.id!.qp!.state, IBV_QPS_RTS);
    assert.equal(await v.rdma_disconnect(c.id!), 0);
    for (const id of [c.id!, req.id!, listen]) assert.equal(v.rdma_destroy_ep(id), 0);
    v.rdma_freeaddrinfo(srv);
    v.rdma_freeaddrinfo(cli);
  },
  async rdma_destroy_ep() {
    const cli = (await v.rdma_getaddrinfo('127.0.0.1', '1', { ai_port_space: RDMA_PS_TCP })).res!;
    const c = await v.rdma_create_ep(cli, null, { qp_type: RC, cap: cap() });
    const qp = c.id!.qp!;
    assert.equal(v.rdma_destroy_ep(c.id!), 0);
    failedWith(v.ibv_query_qp(qp, {} as ibv_qp_attr, 0, {} as ibv_qp_init_attr), EINVAL, EINVAL);
  },
  async rdma_resolve_addr() {
    const { ch, id } = await resolvedId();
    assert.ok(id.verbs, 'bound to a device');
    assert.ok(id.pd, 'with the device default PD');
    assert.equal(v.rdma_get_peer_addr(id).port, 1);
    assert.equal(v.rdma_destroy_id(id), 0);
    v.rdma_destroy_event_channel(ch);
  },
  rdma_bind_addr() {
    const id = v.rdma_create_id(null, null, RDMA_PS_TCP).id!;
    assert.equal(v.rdma_bind_addr(id, LOOP(0)), 0);
    assert.notEqual(v.rdma_get_src_port(id), 0, 'port 0 picks a free port');
    assert.ok(id.verbs);
    failedWith(v.rdma_bind_addr(id, LOOP(0)), EINVAL, -1);
    assert.equal(v.rdma_destroy_id(id), 0);
  },
  async rdma_resolve_route() {
    const ch = v.rdma_create_event_channel()!;
    const id = v.rdma_create_id(ch, null, RDMA_PS_TCP).id!;
    failedWith(await v.rdma_resolve_route(id, 1000), EINVAL, -1);
    await v.rdma_resolve_addr(id, null, LOOP(1), 1000);
    v.rdma_ack_cm_event(await expectEvent(ch, RDMA_CM_EVENT_ADDR_RESOLVED));
    assert.equal(await v.rdma_resolve_route(id, 1000), 0);
    v.rdma_ack_cm_event(await expectEvent(ch, RDMA_CM_EVENT_ROUTE_RESOLVED));
    assert.equal(v.rdma_destroy_id(id), 0);
    v.rdma_destroy_event_channel(ch);
  },
  async rdma_listen() {
    const id = v.rdma_create_id(null, null, RDMA_PS_TCP).id!;
    failedWith(v.rdma_listen(id, 1), EINVAL, -1);
    assert.equal(v.rdma_bind_addr(id, LOOP(0)), 0);
    const port = v.rdma_get_src_port(id);
    assert.equal(v.rdma_listen(id, 1), 0);
    await rdmaListenReady(id);
    assert.equal(v.rdma_get_src_port(id), port, 'listens on the port picked at bind');
    assert.equal(v.rdma_destroy_id(id), 0);
  },
  async rdma_connect() {
    const P = await cmPair({ connParam: { private_data: new Uint8Array([1, 2, 3]), responder_resources: 2, initiator_depth: 3 } });
    try {
      assert.deepEqual([...P.req.param.conn.private_data!.subarray(0, 3)], [1, 2, 3]);
      assert.equal(P.client.qp.state, IBV_QPS_RTS);
    } finally {
      await P.close();
    }
  },
  async rdma_get_request() {
    const srv = (await v.rdma_getaddrinfo('127.0.0.1', null, { ai_flags: RAI_PASSIVE })).res!;
    const listen = v.rdma_create_id(null, null, RDMA_PS_TCP).id!;
    assert.equal(v.rdma_bind_addr(listen, srv.ai_src_addr!), 0);
    assert.equal(v.rdma_listen(listen, 2), 0);
    await rdmaListenReady(listen);
    const { ch, id } = await resolvedId(v.rdma_get_src_port(listen));
    await v.rdma_resolve_route(id, 1000);
    v.rdma_ack_cm_event(await expectEvent(ch, RDMA_CM_EVENT_ROUTE_RESOLVED));
    assert.equal(v.rdma_create_qp(id, null, { qp_type: RC, cap: cap() }), 0);
    assert.equal(await v.rdma_connect(id, { private_data: Buffer.from('req') }), 0);
    const r = await v.rdma_get_request(listen);
    assert.equal(r.ret, 0);
    assert.equal(r.id!.event!.event, RDMA_CM_EVENT_CONNECT_REQUEST);
    assert.equal(Buffer.from(r.id!.event!.param.conn.private_data!.subarray(0, 3)).toString(), 'req');
    assert.equal(v.rdma_reject(r.id!, null), 0);
    v.rdma_ack_cm_event(await expectEvent(ch, RDMA_CM_EVENT_REJECTED));
    v.rdma_destroy_qp(id);
    for (const x of [id, r.id!, listen]) assert.equal(v.rdma_destroy_id(x), 0);
    v.rdma_destroy_event_channel(ch);
  },
  async rdma_accept() {
    const P = await cmPair({ acceptParam: { private_data: Buffer.from('welcome') } });
    try {
      assert.equal(P.server.qp.state, IBV_QPS_RTS);
      failedWith(await v.rdma_accept(P.listen, null), EINVAL, -1);
    } finally {
      await P.close();
    }
  },
  async rdma_reject() {
    const lch = v.rdma_create_event_channel()!;
    const listen = v.rdma_create_id(lch, null, RDMA_PS_TCP).id!;
    v.rdma_bind_addr(listen, LOOP(0));
    v.rdma_listen(listen, 1);
    await rdmaListenReady(listen);
    const { ch, id } = await resolvedId(v.rdma_get_src_port(listen));
    await v.rdma_resolve_route(id, 1000);
    v.rdma_ack_cm_event(await expectEvent(ch, RDMA_CM_EVENT_ROUTE_RESOLVED));
    assert.equal(v.rdma_create_qp(id, null, { qp_type: RC, cap: cap() }), 0);
    await v.rdma_connect(id, null);
    const req = await expectEvent(lch, RDMA_CM_EVENT_CONNECT_REQUEST);
    assert.equal(v.rdma_reject(req.id, Buffer.from('no')), 0);
    const rej = await expectEvent(ch, RDMA_CM_EVENT_REJECTED);
    assert.equal(Buffer.from(rej.param.conn.private_data!).toString(), 'no');
    v.rdma_ack_cm_event(rej);
    v.rdma_ack_cm_event(req);
    v.rdma_destroy_qp(id);
    for (const x of [id, req.id, listen]) assert.equal(v.rdma_destroy_id(x), 0);
    v.rdma_destroy_event_channel(ch);
    v.rdma_destroy_event_channel(lch);
  },
  rdma_notify(P) {
    assert.equal(v.rdma_notify(P.client.id, 4), 0);
  },
  async rdma_disconnect() {
    const P = await cmPair();
    const buf = new Uint8Array(8);
    const mr = reg(P.server.pd, buf);
    assert.equal(v.ibv_post_recv(P.server.qp, { wr_id: 8n, sg_list: [{ addr: mr.addr, length: 8, lkey: mr.lkey }] }).ret, 0);
    assert.equal(await v.rdma_disconnect(P.client.id), 0);
    v.rdma_ack_cm_event(await expectEvent(P.cch, RDMA_CM_EVENT_DISCONNECTED));
    v.rdma_ack_cm_event(await expectEvent(P.lch, RDMA_CM_EVENT_DISCONNECTED));
    const [wc] = await pollN(P.server.rcq, 1);
    assert.equal(wc!.status, IBV_WC_WR_FLUSH_ERR);
    v.ibv_dereg_mr(mr);
    v.rdma_ack_cm_event(P.req);
    for (const s of [P.client, P.server]) {
      v.rdma_destroy_qp(s.id);
      assert.equal(v.rdma_destroy_id(s.id), 0);
    }
    assert.equal(v.rdma_destroy_id(P.listen), 0);
  },
  rdma_get_src_port(P) {
    assert.equal(v.rdma_get_src_port(P.server.id), v.rdma_get_src_port(P.listen));
    assert.notEqual(v.rdma_get_src_port(P.client.id), 0);
  },
  rdma_get_dst_port(P) {
    assert.equal(v.rdma_get_dst_port(P.client.id), v.rdma_get_src_port(P.listen));
    assert.equal(v.rdma_get_dst_port(P.server.id), v.rdma_get_src_port(P.client.id));
  },
  rdma_get_local_addr(P) {
    assert.deepEqual(v.rdma_get_local_addr(P.client.id), { family: 'ipv4', address: '127.0.0.1', port: v.rdma_get_src_port(P.client.id) });
  },
  rdma_get_peer_addr(P) {
    assert.deepEqual(v.rdma_get_peer_addr(P.server.id), v.rdma_get_local_addr(P.client.id));
  },
  rdma_get_devices() {
    const list = v.rdma_get_devices()!;
    assert.ok(list.length >= 1);
    const a = {} as ibv_device_attr;
    assert.equal(v.ibv_query_device(list[0]!, a), 0, 'an opened context');
    v.rdma_free_devices(list);
  },
  rdma_free_devices() {
    const list = v.rdma_get_devices()!;
    v.rdma_free_devices(list);
    assert.equal(v.ibv_query_port(list[0]!, 1, {} as ibv_port_attr), 0, 'the contexts stay open');
  },
  async rdma_getaddrinfo() {
    const p = await v.rdma_getaddrinfo(null, '7471', { ai_flags: RAI_PASSIVE });
    assert.equal(p.ret, 0);
    assert.equal(p.res!.ai_src_addr!.port, 7471);
    assert.equal(p.res!.ai_dst_addr, null);
    const a = await v.rdma_getaddrinfo('127.0.0.1', '7471', null);
    assert.deepEqual(a.res!.ai_dst_addr, LOOP(7471));
    v.rdma_freeaddrinfo(p.res!);
    v.rdma_freeaddrinfo(a.res!);
  },
  async rdma_freeaddrinfo() {
    const a = await v.rdma_getaddrinfo('127.0.0.1', null, null);
    v.rdma_freeaddrinfo(a.res!);
    assert.equal(a.res!.ai_next, null);
  },
  async rdma_create_qp() {
    const { ch, id } = await resolvedId();
    assert.equal(v.rdma_create_qp(id, null, { qp_type: RC, cap: cap() }), 0);
    assert.equal(id.qp!.state, IBV_QPS_INIT, 'ready for receives at once');
    assert.equal(id.qp!.pd, id.pd);
    assert.ok(id.send_cq && id.recv_cq && id.send_cq_channel && id.recv_cq_channel);
    failedWith(v.rdma_create_qp(id, null, { qp_type: RC, cap: cap() }), EINVAL, -1);
    v.rdma_destroy_qp(id);
    assert.equal(v.rdma_destroy_id(id), 0);
    v.rdma_destroy_event_channel(ch);
  },
  async rdma_destroy_qp() {
    const { ch, id } = await resolvedId();
    assert.equal(v.rdma_create_qp(id, null, { qp_type: RC, cap: cap() }), 0);
    const qp = id.qp!;
    v.rdma_destroy_qp(id);
    assert.equal(id.qp, null);
    assert.equal(id.send_cq, null);
    failedWith(v.ibv_destroy_qp(qp), EINVAL, EINVAL);
    assert.equal(v.rdma_destroy_id(id), 0);
    v.rdma_destroy_event_channel(ch);
  },
  async rdma_join_multicast(P) {
    failedWith(
      await v.rdma_join_multicast(P.client.id, { family: 'ipv4', address: '239.0.0.1', port: 0 }, null),
      IWARP_UNSUPPORTED.rdma_join_multicast!,
      -1,
    );
  },
  async rdma_join_multicast_ex(P) {
    const addr = { family: 'ipv4' as const, address: '239.0.0.1', port: 0 };
    // Missing JOIN_FLAGS, then a reserved flag: EINVAL before anything else; then iWARP's ENOSYS.
    failedWith(
      await v.rdma_join_multicast_ex(P.client.id, { comp_mask: RDMA_CM_JOIN_MC_ATTR_ADDRESS, join_flags: 0, addr }, null),
      EINVAL,
      -1,
    );
    failedWith(
      await v.rdma_join_multicast_ex(
        P.client.id,
        { comp_mask: RDMA_CM_JOIN_MC_ATTR_ADDRESS | RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS, join_flags: 2, addr },
        null,
      ),
      EINVAL,
      -1,
    );
    const ok = {
      comp_mask: RDMA_CM_JOIN_MC_ATTR_ADDRESS | RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS,
      join_flags: RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER,
      addr,
    };
    failedWith(await v.rdma_join_multicast_ex(P.client.id, ok, null), IWARP_UNSUPPORTED.rdma_join_multicast_ex!, -1);
  },
  rdma_leave_multicast(P) {
    failedWith(v.rdma_leave_multicast(P.client.id, { family: 'ipv4', address: '239.0.0.1', port: 0 }), EADDRNOTAVAIL, -1);
  },
  async rdma_get_cm_event() {
    const ch = v.rdma_create_event_channel()!;
    const id = v.rdma_create_id(ch, 'mine', RDMA_PS_TCP).id!;
    const pending = v.rdma_get_cm_event(ch);
    await v.rdma_resolve_addr(id, null, LOOP(1), 1000);
    const r = await pending;
    assert.equal(r.ret, 0);
    assert.equal(r.event!.id, id);
    assert.equal(r.event!.event, RDMA_CM_EVENT_ADDR_RESOLVED);
    assert.equal(r.event!.status, 0);
    assert.equal(v.rdma_ack_cm_event(r.event!), 0);
    assert.equal(v.rdma_destroy_id(id), 0);
    v.rdma_destroy_event_channel(ch);
  },
  async rdma_ack_cm_event() {
    const ch = v.rdma_create_event_channel()!;
    const id = v.rdma_create_id(ch, null, RDMA_PS_TCP).id!;
    await v.rdma_resolve_addr(id, null, LOOP(1), 1000);
    const ev = (await v.rdma_get_cm_event(ch)).event!;
    failedWith(v.rdma_destroy_id(id), 16, -1);
    assert.equal(v.rdma_ack_cm_event(ev), 0);
    failedWith(v.rdma_ack_cm_event(ev), EINVAL, -1);
    assert.equal(v.rdma_destroy_id(id), 0);
    v.rdma_destroy_event_channel(ch);
  },
  rdma_event_str() {
    assert.equal(v.rdma_event_str(RDMA_CM_EVENT_ADDR_RESOLVED), 'RDMA_CM_EVENT_ADDR_RESOLVED');
    assert.equal(v.rdma_event_str(-1), 'UNKNOWN EVENT');
  },

  // ------------------------------------------------------------------ ch. 6: rdma verbs helpers
  rdma_reg_msgs(P) {
    const mr = v.rdma_reg_msgs(P.client.id, new Uint8Array(16), 16)!;
    assert.equal(mr.pd, P.client.id.pd);
    assert.equal(v.rdma_dereg_mr(mr), 0);
  },
  async rdma_reg_read(P) {
    const src = new Uint8Array(Buffer.from('readable'));
    const smr = v.rdma_reg_read(P.server.id, src, src.length)!;
    // iWARP: the Read Response is a tagged message into the sink, which needs remote write.
    const dst = new Uint8Array(8);
    const dmr = v.rdma_reg_write(P.client.id, dst, 8)!;
    assert.equal(v.rdma_post_read(P.client.id, 1n, dst, 8, dmr, IBV_SEND_SIGNALED, smr.addr, smr.rkey), 0);
    const wc = newWc();
    assert.equal(await v.rdma_get_send_comp(P.client.id, wc), 1);
    assert.equal(wc.status, IBV_WC_SUCCESS);
    assert.equal(Buffer.from(dst).toString(), 'readable');
    v.rdma_dereg_mr(smr);
    v.rdma_dereg_mr(dmr);
  },
  async rdma_reg_write(P) {
    const dst = new Uint8Array(8);
    const dmr = v.rdma_reg_write(P.server.id, dst, 8)!;
    const src = new Uint8Array(Buffer.from('writable'));
    const smr = v.rdma_reg_msgs(P.client.id, src, 8)!;
    assert.equal(v.rdma_post_write(P.client.id, 2n, src, 8, smr, IBV_SEND_SIGNALED, dmr.addr, dmr.rkey), 0);
    const wc = newWc();
    assert.equal(await v.rdma_get_send_comp(P.client.id, wc), 1);
    assert.equal(wc.status, IBV_WC_SUCCESS);
    await placed(P);
    assert.equal(Buffer.from(dst).toString(), 'writable');
    v.rdma_dereg_mr(smr);
    v.rdma_dereg_mr(dmr);
  },
  rdma_dereg_mr(P) {
    const mr = v.rdma_reg_msgs(P.client.id, new Uint8Array(4), 4)!;
    assert.equal(v.rdma_dereg_mr(mr), 0);
    failedWith(v.rdma_dereg_mr(mr), EINVAL, -1);
  },
  rdma_create_srq() {
    const id = v.rdma_create_id(null, null, RDMA_PS_TCP).id!;
    failedWith(v.rdma_create_srq(id, null, { attr: { max_wr: 4, max_sge: 1 } }), EINVAL, -1);
    assert.equal(v.rdma_bind_addr(id, LOOP(0)), 0);
    assert.equal(v.rdma_create_srq(id, null, { attr: { max_wr: 4, max_sge: 1 } }), 0);
    assert.equal(id.srq!.pd, id.pd, 'on the default PD');
    failedWith(v.rdma_create_srq(id, null, { attr: { max_wr: 4, max_sge: 1 } }), EINVAL, -1);
    v.rdma_destroy_srq(id);
    assert.equal(v.rdma_destroy_id(id), 0);
  },
  rdma_destroy_srq() {
    const id = v.rdma_create_id(null, null, RDMA_PS_TCP).id!;
    assert.equal(v.rdma_bind_addr(id, LOOP(0)), 0);
    assert.equal(v.rdma_create_srq(id, null, { attr: { max_wr: 4, max_sge: 1 } }), 0);
    const srq = id.srq!;
    v.rdma_destroy_srq(id);
    assert.equal(id.srq, null);
    failedWith(v.ibv_destroy_srq(srq), EINVAL, EINVAL);
    assert.equal(v.rdma_destroy_id(id), 0);
  },
  async rdma_post_recvv(P) {
    const a = new Uint8Array(3);
    const b = new Uint8Array(5);
    const ma = v.rdma_reg_msgs(P.server.id, a, 3)!;
    const mb = v.rdma_reg_msgs(P.server.id, b, 5)!;
    assert.equal(
      v.rdma_post_recvv(
        P.server.id,
        11n,
        [
          { addr: ma.addr, length: 3, lkey: ma.lkey },
          { addr: mb.addr, length: 5, lkey: mb.lkey },
        ],
        2,
      ),
      0,
    );
    const src = new Uint8Array(Buffer.from('scatter!'));
    const ms = v.rdma_reg_msgs(P.client.id, src, 8)!;
    assert.equal(v.rdma_post_send(P.client.id, null, src, 8, ms, IBV_SEND_SIGNALED), 0);
    const wc = newWc();
    assert.equal(await v.rdma_get_recv_comp(P.server.id, wc), 1);
    assert.equal(wc.wr_id, 11n);
    assert.equal(Buffer.from(a).toString() + Buffer.from(b).toString(), 'scatter!');
    assert.equal(await v.rdma_get_send_comp(P.client.id, wc), 1);
    for (const m of [ma, mb, ms]) v.rdma_dereg_mr(m);
  },
  async rdma_post_sendv(P) {
    const a = new Uint8Array(Buffer.from('gath'));
    const b = new Uint8Array(Buffer.from('ered'));
    const ma = v.rdma_reg_msgs(P.client.id, a, 4)!;
    const mb = v.rdma_reg_msgs(P.client.id, b, 4)!;
    const dst = new Uint8Array(16);
    const md = v.rdma_reg_msgs(P.server.id, dst, 16)!;
    assert.equal(v.rdma_post_recv(P.server.id, 12n, dst, 16, md), 0);
    assert.equal(
      v.rdma_post_sendv(
        P.client.id,
        13n,
        [
          { addr: ma.addr, length: 4, lkey: ma.lkey },
          { addr: mb.addr, length: 4, lkey: mb.lkey },
        ],
        2,
        IBV_SEND_SIGNALED,
      ),
      0,
    );
    const wc = newWc();
    assert.equal(await v.rdma_get_send_comp(P.client.id, wc), 1);
    assert.equal(wc.wr_id, 13n);
    assert.equal(await v.rdma_get_recv_comp(P.server.id, wc), 1);
    assert.equal(wc.byte_len, 8);
    assert.equal(Buffer.from(dst.subarray(0, 8)).toString(), 'gathered');
    for (const m of [ma, mb, md]) v.rdma_dereg_mr(m);
  },
  async rdma_post_readv(P) {
    const src = new Uint8Array(Buffer.from('abcdefgh'));
    const ms = v.rdma_reg_read(P.server.id, src, 8)!;
    const a = new Uint8Array(2);
    const b = new Uint8Array(6);
    const ma = v.rdma_reg_write(P.client.id, a, 2)!;
    const mb = v.rdma_reg_write(P.client.id, b, 6)!;
    assert.equal(
      v.rdma_post_readv(
        P.client.id,
        14n,
        [
          { addr: ma.addr, length: 2, lkey: ma.lkey },
          { addr: mb.addr, length: 6, lkey: mb.lkey },
        ],
        2,
        IBV_SEND_SIGNALED,
        ms.addr,
        ms.rkey,
      ),
      0,
    );
    const wc = newWc();
    assert.equal(await v.rdma_get_send_comp(P.client.id, wc), 1);
    assert.equal(wc.opcode, IBV_WC_RDMA_READ);
    assert.equal(Buffer.from(a).toString() + Buffer.from(b).toString(), 'abcdefgh');
    for (const m of [ms, ma, mb]) v.rdma_dereg_mr(m);
  },
  async rdma_post_writev(P) {
    const dst = new Uint8Array(8);
    const md = v.rdma_reg_write(P.server.id, dst, 8)!;
    const a = new Uint8Array(Buffer.from('wr'));
    const b = new Uint8Array(Buffer.from('itev!!'));
    const ma = v.rdma_reg_msgs(P.client.id, a, 2)!;
    const mb = v.rdma_reg_msgs(P.client.id, b, 6)!;
    assert.equal(
      v.rdma_post_writev(
        P.client.id,
        15n,
        [
          { addr: ma.addr, length: 2, lkey: ma.lkey },
          { addr: mb.addr, length: 6, lkey: mb.lkey },
        ],
        2,
        IBV_SEND_SIGNALED,
        md.addr,
        md.rkey,
      ),
      0,
    );
    assert.equal(await v.rdma_get_send_comp(P.client.id, newWc()), 1);
    await placed(P);
    assert.equal(Buffer.from(dst).toString(), 'writev!!');
    for (const m of [md, ma, mb]) v.rdma_dereg_mr(m);
  },
  async rdma_post_recv(P) {
    const wc = await sendToServer(P, 'post_recv');
    assert.equal(wc.wr_id, 5n);
    assert.equal(wc.byte_len, 9);
  },
  async rdma_post_send(P) {
    // Inline: no MR needed, the buffer is free on return.
    const dst = new Uint8Array(16);
    const md = v.rdma_reg_msgs(P.server.id, dst, 16)!;
    assert.equal(v.rdma_post_recv(P.server.id, null, dst, 16, md), 0);
    const src = new Uint8Array(Buffer.from('inline'));
    assert.equal(v.rdma_post_send(P.client.id, 16n, src, 6, null, IBV_SEND_SIGNALED | 8), 0);
    src.fill(0);
    assert.equal(await v.rdma_get_recv_comp(P.server.id, newWc()), 1);
    assert.equal(Buffer.from(dst.subarray(0, 6)).toString(), 'inline');
    assert.equal(await v.rdma_get_send_comp(P.client.id, newWc()), 1);
    v.rdma_dereg_mr(md);
  },
  async rdma_post_read(P) {
    const src = new Uint8Array(Buffer.from('read me'));
    const ms = v.rdma_reg_read(P.server.id, src, 7)!;
    const dst = new Uint8Array(7);
    const md = v.rdma_reg_write(P.client.id, dst, 7)!;
    assert.equal(v.rdma_post_read(P.client.id, 17n, dst, 7, md, IBV_SEND_SIGNALED, ms.addr, ms.rkey), 0);
    const wc = newWc();
    assert.equal(await v.rdma_get_send_comp(P.client.id, wc), 1);
    assert.equal(wc.wr_id, 17n);
    assert.equal(Buffer.from(dst).toString(), 'read me');
    v.rdma_dereg_mr(ms);
    v.rdma_dereg_mr(md);
  },
  async rdma_post_write(P) {
    const dst = new Uint8Array(7);
    const md = v.rdma_reg_write(P.server.id, dst, 7)!;
    const src = new Uint8Array(Buffer.from('written'));
    const ms = v.rdma_reg_msgs(P.client.id, src, 7)!;
    assert.equal(v.rdma_post_write(P.client.id, 18n, src, 7, ms, IBV_SEND_SIGNALED, md.addr, md.rkey), 0);
    const wc = newWc();
    assert.equal(await v.rdma_get_send_comp(P.client.id, wc), 1);
    assert.equal(wc.opcode, IBV_WC_RDMA_WRITE);
    await placed(P);
    assert.equal(Buffer.from(dst).toString(), 'written');
    v.rdma_dereg_mr(ms);
    v.rdma_dereg_mr(md);
  },
  rdma_post_ud_send(P) {
    const buf = new Uint8Array(4);
    const mr = v.rdma_reg_msgs(P.client.id, buf, 4)!;
    failedWith(v.rdma_post_ud_send(P.client.id, null, buf, 4, mr, 0, {} as never, 1), IWARP_UNSUPPORTED.rdma_post_ud_send!, -1);
    v.rdma_dereg_mr(mr);
  },
  async rdma_get_send_comp(P) {
    const wc = newWc();
    const waiting = v.rdma_get_send_comp(P.client.id, wc);
    await sendToServerNoComp(P);
    assert.equal(await waiting, 1, 'blocks until the completion exists');
    assert.equal(wc.opcode, IBV_WC_SEND);
  },
  async rdma_get_recv_comp(P) {
    const wc = newWc();
    const rbuf = new Uint8Array(8);
    const rmr = v.rdma_reg_msgs(P.server.id, rbuf, 8)!;
    assert.equal(v.rdma_post_recv(P.server.id, 19n, rbuf, 8, rmr), 0);
    const waiting = v.rdma_get_recv_comp(P.server.id, wc);
    const src = new Uint8Array(4);
    const smr = v.rdma_reg_msgs(P.client.id, src, 4)!;
    assert.equal(v.rdma_post_send(P.client.id, null, src, 4, smr, IBV_SEND_SIGNALED), 0);
    assert.equal(await waiting, 1);
    assert.equal(wc.wr_id, 19n);
    assert.equal(wc.opcode, IBV_WC_RECV);
    assert.equal(await v.rdma_get_send_comp(P.client.id, newWc()), 1);
    v.rdma_dereg_mr(rmr);
    v.rdma_dereg_mr(smr);
  },
};

/**
 * On iWARP an RDMA Write completes at the requester once its data is handed to TCP; a Send that
 * follows it on the QP is placed after it, so its receive completion proves the Write landed.
 */
async function placed(P: CmPair): Promise<void> {
  await sendToServer(P, '.');
}

/**
 * Client → server Send collected by raw verbs (no rdma_get_*_comp, whose waits would compete with
 * the caller's `ibv_get_cq_event`): waits for `event` (the caller's armed wait on the server's
 * receive channel), acks it, and returns the receive completion.
 */
async function sendRaw(P: CmPair, event: Promise<{ ret: number; cq: unknown }>): Promise<ibv_wc> {
  const rbuf = new Uint8Array(8);
  const rmr = reg(P.server.pd, rbuf);
  assert.equal(v.ibv_post_recv(P.server.qp, { wr_id: 21n, sg_list: [{ addr: rmr.addr, length: 8, lkey: rmr.lkey }] }).ret, 0);
  const src = new Uint8Array(Buffer.from('raw'));
  const smr = reg(P.client.pd, src);
  assert.equal(
    v.ibv_post_send(P.client.qp, {
      wr_id: 22n,
      opcode: IBV_WR_SEND,
      send_flags: IBV_SEND_SIGNALED,
      sg_list: [{ addr: smr.addr, length: 3, lkey: smr.lkey }],
    }).ret,
    0,
  );
  const r = await event;
  assert.equal(r.ret, 0);
  assert.equal(r.cq, P.server.rcq);
  v.ibv_ack_cq_events(P.server.rcq, 1);
  const [wc] = await pollN(P.server.rcq, 1);
  assert.equal(wc!.wr_id, 21n);
  assert.equal((await pollN(P.client.scq, 1))[0]!.wr_id, 22n);
  v.ibv_dereg_mr(rmr);
  v.ibv_dereg_mr(smr);
  return wc!;
}

/** A client Send whose send completion the caller collects. */
async function sendToServerNoComp(P: CmPair): Promise<void> {
  const rbuf = new Uint8Array(8);
  const rmr = v.rdma_reg_msgs(P.server.id, rbuf, 8)!;
  assert.equal(v.rdma_post_recv(P.server.id, null, rbuf, 8, rmr), 0);
  const src = new Uint8Array(4);
  const smr = v.rdma_reg_msgs(P.client.id, src, 4)!;
  assert.equal(v.rdma_post_send(P.client.id, null, src, 4, smr, IBV_SEND_SIGNALED), 0);
  assert.equal(await v.rdma_get_recv_comp(P.server.id, newWc()), 1);
}

describe('VerbsApi: every function of the manual is wired in `verbs`', () => {
  let P: CmPair;
  before(async () => {
    P = await cmPair();
    // The MPA Initiator (client) sends first; after that both sides may.
    await sendToServer(P, 'hello');
  });
  after(async () => {
    await P.close();
  });

  const seen = new Set<string>();
  for (const [group, names] of Object.entries(VERBS_API_FUNCTIONS)) {
    for (const name of names as readonly Fn[]) {
      seen.add(name);
      test(`${group}: ${name}`, T, async () => {
        assert.equal(typeof v[name], 'function', `${name} is missing from verbs`);
        const c = cases[name];
        assert.ok(c, `no coverage case for ${name}`);
        await c(P);
      });
    }
  }

  test('the list and the cases match (no function left out, none extra)', () => {
    assert.deepEqual([...seen].sort(), Object.keys(cases).sort());
    assert.deepEqual(Object.keys(v).sort(), [...seen].sort());
  });
});

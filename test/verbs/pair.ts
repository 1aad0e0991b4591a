/**
 * Fixtures for the verbs tests: connected RC QPs over loopback, made the two ways an iWARP QP can
 * reach RTS — rdma_cm (`cmPair`) and, for QPs created with `ibv_create_qp`, the manual's RC-example
 * way with the TCP socket converted by the CM between RTR and RTS (`convertedPair`) — plus small
 * helpers. Every fixture has a `close()` that destroys all it made.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { cmConvertSocket, riCmQp } from '../../src/iwarp/cm.js';
import type { Qp } from '../../src/verbs/ibverbs.js';
import {
  getErrno,
  IBV_ACCESS_LOCAL_WRITE,
  IBV_ACCESS_REMOTE_READ,
  IBV_ACCESS_REMOTE_WRITE,
  IBV_MTU_1024,
  IBV_QP_ACCESS_FLAGS,
  IBV_QP_AV,
  IBV_QP_DEST_QPN,
  IBV_QP_MAX_DEST_RD_ATOMIC,
  IBV_QP_MAX_QP_RD_ATOMIC,
  IBV_QP_MIN_RNR_TIMER,
  IBV_QP_PATH_MTU,
  IBV_QP_PKEY_INDEX,
  IBV_QP_PORT,
  IBV_QP_RETRY_CNT,
  IBV_QP_RNR_RETRY,
  IBV_QP_RQ_PSN,
  IBV_QP_SQ_PSN,
  IBV_QP_STATE,
  IBV_QP_TIMEOUT,
  IBV_QPS_INIT,
  IBV_QPS_RTR,
  IBV_QPS_RTS,
  type ibv_comp_channel,
  type ibv_context,
  type ibv_cq,
  type ibv_mr,
  type ibv_pd,
  type ibv_qp,
  type ibv_qp_init_attr,
  type ibv_wc,
  type In,
  RDMA_CM_EVENT_CONNECT_REQUEST,
  RDMA_CM_EVENT_DISCONNECTED,
  RDMA_CM_EVENT_ESTABLISHED,
  RDMA_CM_EVENT_ROUTE_RESOLVED,
  RDMA_CM_EVENT_ADDR_RESOLVED,
  RDMA_PS_TCP,
  type rdma_cm_event,
  type rdma_cm_event_type,
  type rdma_cm_id,
  type rdma_conn_param,
  type rdma_event_channel,
  rdma_event_str,
  rdmaListenReady,
  verbs as v,
} from '../../src/verbs/index.js';

export const RC = 2; // IBV_QPT_RC
export const ACC = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
export const CAP = Object.freeze({ max_send_wr: 16, max_recv_wr: 16, max_send_sge: 4, max_recv_sge: 4, max_inline_data: 64 });
/** A fresh copy of {@link CAP} (create calls write the granted capabilities back into `cap`). */
export const cap = () => ({ ...CAP });
export const INIT_MASK = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
export const RTR_MASK =
  IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
export const RTS_MASK = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC;
export const INIT_ATTR = { qp_state: IBV_QPS_INIT, pkey_index: 0, port_num: 1, qp_access_flags: ACC };
export const RTR_ATTR = {
  qp_state: IBV_QPS_RTR,
  path_mtu: IBV_MTU_1024,
  dest_qp_num: 7,
  rq_psn: 0x123,
  max_dest_rd_atomic: 4,
  min_rnr_timer: 12,
  ah_attr: { port_num: 1 },
};
export const RTS_ATTR = { qp_state: IBV_QPS_RTS, timeout: 14, retry_cnt: 7, rnr_retry: 7, sq_psn: 0x456, max_rd_atomic: 4 };

export const LOOP = (port: number) => ({ family: 'ipv4' as const, address: '127.0.0.1', port });

/** The first device, opened. */
export function openCtx(): ibv_context {
  const list = v.ibv_get_device_list();
  assert.ok(list && list.length > 0, 'no device');
  const ctx = v.ibv_open_device(list[0]!);
  assert.ok(ctx, `ibv_open_device errno ${getErrno()}`);
  v.ibv_free_device_list(list);
  return ctx;
}

/** Next CM event on `ch`, which must be `want`. */
export async function expectEvent(ch: rdma_event_channel, want: rdma_cm_event_type): Promise<rdma_cm_event> {
  const r = await v.rdma_get_cm_event(ch);
  assert.equal(r.ret, 0, `rdma_get_cm_event errno ${getErrno()}`);
  assert.equal(rdma_event_str(r.event!.event), rdma_event_str(want), `status ${r.event!.status}`);
  return r.event!;
}

/** Polls until `n` completions arrived on `cq` (yielding to the event loop; the caller's test timeout bounds it). */
export async function pollN(cq: ibv_cq, n: number): Promise<ibv_wc[]> {
  const got: ibv_wc[] = [];
  const wc: ibv_wc[] = [];
  while (got.length < n) {
    const k = v.ibv_poll_cq(cq, n - got.length, wc);
    assert.ok(k >= 0, `ibv_poll_cq ${k}`);
    for (let i = 0; i < k; i++) got.push({ ...wc[i]! });
    if (got.length < n) await new Promise((r) => setImmediate(r));
  }
  return got;
}

/** Lets the event loop run `turns` times (for "nothing more happens" checks, no timers). */
export async function settle(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
}

export interface CmSide {
  id: rdma_cm_id;
  qp: ibv_qp;
  pd: ibv_pd;
  /** Send and receive CQs (rdma_cm's, or the ones given). */
  scq: ibv_cq;
  rcq: ibv_cq;
}

export interface CmPair {
  lch: rdma_event_channel;
  listen: rdma_cm_id;
  cch: rdma_event_channel;
  client: CmSide;
  server: CmSide;
  req: rdma_cm_event;
  /** Disconnects (if still connected), waits for DISCONNECTED on both sides, destroys everything. */
  close(): Promise<void>;
}

export interface CmPairOptions {
  clientAttr?: In<ibv_qp_init_attr>;
  serverAttr?: In<ibv_qp_init_attr>;
  connParam?: In<rdma_conn_param>;
  acceptParam?: In<rdma_conn_param>;
  /** Called on each side after its QP exists and before the connection is made (post receives here). */
  beforeConnect?: (client: CmSide) => void;
  beforeAccept?: (server: CmSide) => void;
}

function sideOf(id: rdma_cm_id): CmSide {
  return { id, qp: id.qp!, pd: id.pd ?? id.qp!.pd, scq: id.qp!.send_cq, rcq: id.qp!.recv_cq };
}

/** Two RC QPs connected by rdma_cm (asynchronous ids) over loopback. */
export async function cmPair(o: CmPairOptions = {}): Promise<CmPair> {
  const lch = v.rdma_create_event_channel()!;
  const listen = v.rdma_create_id(lch, 'listener', RDMA_PS_TCP).id!;
  assert.equal(v.rdma_bind_addr(listen, LOOP(0)), 0);
  assert.equal(v.rdma_listen(listen, 8), 0);
  await rdmaListenReady(listen);
  const cch = v.rdma_create_event_channel()!;
  const cid = v.rdma_create_id(cch, 'client', RDMA_PS_TCP).id!;
  assert.equal(await v.rdma_resolve_addr(cid, null, LOOP(v.rdma_get_src_port(listen)), 2000), 0);
  v.rdma_ack_cm_event(await expectEvent(cch, RDMA_CM_EVENT_ADDR_RESOLVED));
  assert.equal(await v.rdma_resolve_route(cid, 2000), 0);
  v.rdma_ack_cm_event(await expectEvent(cch, RDMA_CM_EVENT_ROUTE_RESOLVED));
  assert.equal(v.rdma_create_qp(cid, null, o.clientAttr ?? { qp_type: RC, cap: cap() }), 0, `client rdma_create_qp errno ${getErrno()}`);
  const client = sideOf(cid);
  o.beforeConnect?.(client);
  assert.equal(await v.rdma_connect(cid, o.connParam ?? null), 0);
  const req = await expectEvent(lch, RDMA_CM_EVENT_CONNECT_REQUEST);
  const sid = req.id;
  assert.equal(v.rdma_create_qp(sid, null, o.serverAttr ?? { qp_type: RC, cap: cap() }), 0, `server rdma_create_qp errno ${getErrno()}`);
  const server = sideOf(sid);
  o.beforeAccept?.(server);
  assert.equal(await v.rdma_accept(sid, o.acceptParam ?? null), 0);
  v.rdma_ack_cm_event(await expectEvent(lch, RDMA_CM_EVENT_ESTABLISHED));
  v.rdma_ack_cm_event(await expectEvent(cch, RDMA_CM_EVENT_ESTABLISHED));
  let closed = false;
  return {
    lch,
    listen,
    cch,
    client,
    server,
    req,
    async close() {
      if (closed) return;
      closed = true;
      v.rdma_ack_cm_event(req);
      await v.rdma_disconnect(cid);
      v.rdma_ack_cm_event(await expectEvent(cch, RDMA_CM_EVENT_DISCONNECTED));
      v.rdma_ack_cm_event(await expectEvent(lch, RDMA_CM_EVENT_DISCONNECTED));
      for (const id of [cid, sid]) {
        v.rdma_destroy_qp(id);
        assert.equal(v.rdma_destroy_id(id), 0, `rdma_destroy_id errno ${getErrno()}`);
      }
      assert.equal(v.rdma_destroy_id(listen), 0);
      v.rdma_destroy_event_channel(cch);
      v.rdma_destroy_event_channel(lch);
    },
  };
}

export interface IbvSide {
  ctx: ibv_context;
  pd: ibv_pd;
  ch: ibv_comp_channel;
  cq: ibv_cq;
  qp: ibv_qp;
}

/** One `ibv_create_qp` RC QP on its own context, PD, channel and CQ (in RESET). */
export function ibvSide(attr: In<ibv_qp_init_attr> = {}, cqe = 64): IbvSide {
  const ctx = openCtx();
  const pd = v.ibv_alloc_pd(ctx)!;
  const ch = v.ibv_create_comp_channel(ctx)!;
  const cq = v.ibv_create_cq(ctx, cqe, 'cq-context', ch, 0)!;
  const qp = v.ibv_create_qp(pd, { qp_type: RC, send_cq: cq, recv_cq: cq, cap: cap(), ...attr });
  assert.ok(qp, `ibv_create_qp errno ${getErrno()}`);
  return { ctx, pd, ch, cq, qp };
}

/** Destroys an {@link ibvSide} and its context (MRs given are deregistered first). */
export function closeIbvSide(s: IbvSide, mrs: readonly ibv_mr[] = []): void {
  for (const mr of mrs) v.ibv_dereg_mr(mr);
  assert.equal(v.ibv_destroy_qp(s.qp), 0, `ibv_destroy_qp errno ${getErrno()}`);
  assert.equal(v.ibv_destroy_cq(s.cq), 0, `ibv_destroy_cq errno ${getErrno()}`);
  assert.equal(v.ibv_destroy_comp_channel(s.ch), 0);
  assert.equal(v.ibv_dealloc_pd(s.pd), 0, `ibv_dealloc_pd errno ${getErrno()}`);
  assert.equal(v.ibv_close_device(s.ctx), 0);
}

/**
 * Connects two `ibv_create_qp` QPs as the manual's RC example does on iWARP: RESET→INIT→RTR by
 * `ibv_modify_qp`, then the TCP socket converted by the CM (MPA start-up, `a` as Initiator in
 * peer-to-peer mode), then the RTR→RTS `ibv_modify_qp` unless `rts` is false. `beforeRtr` runs on
 * each side in INIT (post receives there).
 */
export async function convertedPair(
  a: IbvSide,
  b: IbvSide,
  o: { rts?: boolean; beforeRtr?: (s: IbvSide) => void } = {},
): Promise<{ close(): Promise<void> }> {
  for (const s of [a, b]) {
    assert.equal(v.ibv_modify_qp(s.qp, INIT_ATTR, INIT_MASK), 0);
    o.beforeRtr?.(s);
    assert.equal(v.ibv_modify_qp(s.qp, { ...RTR_ATTR, dest_qp_num: (s === a ? b : a).qp.qp_num }, RTR_MASK), 0);
  }
  const srv = net.createServer({ allowHalfOpen: true, pauseOnConnect: true });
  srv.listen({ port: 0, host: '127.0.0.1' });
  await once(srv, 'listening');
  const c = net.connect({ port: (srv.address() as net.AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true });
  c.pause();
  const [[s]] = (await Promise.all([once(srv, 'connection'), once(c, 'connect')])) as [[net.Socket], unknown];
  srv.close();
  const qa = a.qp as Qp;
  const ea = riCmQp(qa.context.ops, qa.context.rnic, qa.ri);
  const qb = b.qp as Qp;
  const eb = riCmQp(qb.context.ops, qb.context.rnic, qb.ri);
  await Promise.all([
    cmConvertSocket(ea, c, { mpa: { role: 'initiator', p2p: true } }),
    cmConvertSocket(eb, s, { mpa: { role: 'responder' } }),
  ]);
  if (o.rts !== false) for (const x of [a, b]) assert.equal(v.ibv_modify_qp(x.qp, RTS_ATTR, RTS_MASK), 0, `RTS errno ${getErrno()}`);
  return {
    async close() {
      c.destroy();
      s.destroy();
      await settle();
    },
  };
}

/** Registers `bytes` on `pd` with `access` (asserting success). */
export function reg(pd: ibv_pd, bytes: Uint8Array, access = ACC) {
  const mr = v.ibv_reg_mr(pd, bytes, bytes.length, access);
  assert.ok(mr, `ibv_reg_mr errno ${getErrno()}`);
  return mr;
}

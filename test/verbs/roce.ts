/**
 * Fixtures for the verbs tests of the RoCEv2 device (`softroce0`): QPs made with `ibv_create_qp`
 * and connected with `ibv_modify_qp` alone (RESET→INIT→RTR→RTS, dest QPN and GID exchanged in
 * process), as `ibv_rc_pingpong` does after its side channel. Until the RoCEv2 transport is
 * loaded, {@link useLoopbackLink} makes the device's IB QPs ride the in-process loopback
 * transport (`RnicConfig.ibLink = 'loopback'`), which joins two QPs by their dest QPNs.
 */
import assert from 'node:assert/strict';
import type { Device } from '../../src/verbs/device.js';
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
  IBV_QP_QKEY,
  IBV_QP_RETRY_CNT,
  IBV_QP_RNR_RETRY,
  IBV_QP_RQ_PSN,
  IBV_QP_SQ_PSN,
  IBV_QP_STATE,
  IBV_QP_TIMEOUT,
  IBV_QPS_INIT,
  IBV_QPS_RTR,
  IBV_QPS_RTS,
  IBV_QPT_RC,
  IBV_QPT_UD,
  type ibv_ah_attr,
  type ibv_context,
  type ibv_cq,
  type ibv_device,
  type ibv_mr,
  type ibv_pd,
  type ibv_qp,
  type ibv_qp_type,
  verbs as v,
} from '../../src/verbs/index.js';
import type { SoftrdmaVp } from '../../src/provider/softrdma.js';

export const ROCE_ACC = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
export const ROCE_CAP = () => ({ max_send_wr: 16, max_recv_wr: 16, max_send_sge: 4, max_recv_sge: 4, max_inline_data: 0 });
/** Q_Key of the UD fixtures. */
export const QKEY = 0x11111111;

export const RC_INIT_MASK = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
export const UD_INIT_MASK = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY;
export const RC_RTR_MASK =
  IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
export const UC_RTR_MASK = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
export const RC_RTS_MASK = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC;
export const UC_RTS_MASK = IBV_QP_STATE | IBV_QP_SQ_PSN;

/** The RoCEv2 device of the list. */
export function roceDevice(): ibv_device {
  const d = v.ibv_get_device_list()!.find((x) => x.name === 'softroce0');
  assert.ok(d, 'softroce0 is listed');
  return d;
}

/**
 * Points the RoCE device's IB QPs at the in-process loopback transport (a test hook on the
 * RNIC's configuration), until the returned function restores the RoCEv2 link.
 */
export function useLoopbackLink(link = 'loopback'): () => void {
  const cfg = ((roceDevice() as Device).vp as SoftrdmaVp).engine.config;
  const before = cfg.ibLink;
  cfg.ibLink = link;
  return () => {
    cfg.ibLink = before;
  };
}

export function openRoce(): ibv_context {
  const ctx = v.ibv_open_device(roceDevice());
  assert.ok(ctx, `ibv_open_device errno ${getErrno()}`);
  return ctx;
}

/** GID `index` of port 1. */
export function gid(ctx: ibv_context, index = 0): Uint8Array {
  const g = { raw: new Uint8Array(16) };
  assert.equal(v.ibv_query_gid(ctx, 1, index, g), 0);
  return g.raw;
}

/** An address vector to `dgid` from GID `sgidIndex` (RoCE: global, port 1). */
export function avTo(dgid: Uint8Array, sgidIndex = 0): ibv_ah_attr {
  return {
    grh: { dgid: { raw: dgid }, flow_label: 0, sgid_index: sgidIndex, hop_limit: 64, traffic_class: 0 },
    dlid: 0,
    sl: 0,
    src_path_bits: 0,
    static_rate: 0,
    is_global: 1,
    port_num: 1,
  };
}

export interface RoceSide {
  ctx: ibv_context;
  pd: ibv_pd;
  cq: ibv_cq;
  qp: ibv_qp;
}

/** A QP of `type` on its own context of softroce0, with its PD and one CQ (in RESET). */
export function roceSide(type: ibv_qp_type = IBV_QPT_RC, cqe = 64): RoceSide {
  const ctx = openRoce();
  const pd = v.ibv_alloc_pd(ctx)!;
  const cq = v.ibv_create_cq(ctx, cqe, null, null, 0)!;
  const qp = v.ibv_create_qp(pd, { qp_type: type, send_cq: cq, recv_cq: cq, cap: ROCE_CAP() });
  assert.ok(qp, `ibv_create_qp errno ${getErrno()}`);
  return { ctx, pd, cq, qp };
}

export function closeRoceSide(s: RoceSide, mrs: readonly ibv_mr[] = []): void {
  for (const mr of mrs) assert.equal(v.ibv_dereg_mr(mr), 0);
  assert.equal(v.ibv_destroy_qp(s.qp), 0, `ibv_destroy_qp errno ${getErrno()}`);
  assert.equal(v.ibv_destroy_cq(s.cq), 0, `ibv_destroy_cq errno ${getErrno()}`);
  assert.equal(v.ibv_dealloc_pd(s.pd), 0, `ibv_dealloc_pd errno ${getErrno()}`);
  assert.equal(v.ibv_close_device(s.ctx), 0);
}

/** RESET→INIT→RTR→RTS of `s` toward `destQpn` (RC, UC or UD masks as the manual's §4.5.1 table). */
export function roceToRts(
  s: RoceSide,
  destQpn: number,
  o: { pathMtu?: number; psn?: number; peerPsn?: number; gidIndex?: number } = {},
): void {
  const t = s.qp.qp_type;
  const g = gid(s.ctx, o.gidIndex ?? 0);
  if (t === IBV_QPT_UD) {
    assert.equal(
      v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_INIT, pkey_index: 0, port_num: 1, qkey: QKEY }, UD_INIT_MASK),
      0,
      `UD INIT errno ${getErrno()}`,
    );
    assert.equal(v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_RTR }, IBV_QP_STATE), 0, `UD RTR errno ${getErrno()}`);
    assert.equal(v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_RTS, sq_psn: o.psn ?? 0 }, UC_RTS_MASK), 0, `UD RTS errno ${getErrno()}`);
    return;
  }
  const rc = t === IBV_QPT_RC;
  assert.equal(
    v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_INIT, pkey_index: 0, port_num: 1, qp_access_flags: ROCE_ACC }, RC_INIT_MASK),
    0,
    `INIT errno ${getErrno()}`,
  );
  const rtr = {
    qp_state: IBV_QPS_RTR,
    path_mtu: o.pathMtu ?? IBV_MTU_1024,
    dest_qp_num: destQpn,
    rq_psn: o.peerPsn ?? 0,
    max_dest_rd_atomic: 4,
    min_rnr_timer: 12,
    ah_attr: avTo(g, o.gidIndex ?? 0),
  };
  assert.equal(v.ibv_modify_qp(s.qp, rtr, rc ? RC_RTR_MASK : UC_RTR_MASK), 0, `RTR errno ${getErrno()}`);
  const rts = { qp_state: IBV_QPS_RTS, timeout: 14, retry_cnt: 7, rnr_retry: 7, sq_psn: o.psn ?? 0, max_rd_atomic: 4 };
  assert.equal(v.ibv_modify_qp(s.qp, rts, rc ? RC_RTS_MASK : UC_RTS_MASK), 0, `RTS errno ${getErrno()}`);
}

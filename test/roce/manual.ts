/**
 * The manual's §7 assertions that need the RoCEv2 wire itself (E19 RNR NAK and rnr_retry, E20
 * retry exhaustion, E21 UC loss), through ibverbs on softroce0 over the real RoCEv2 transport
 * (loopback UDP on the device's first GID, an ephemeral port). test/verbs/assertions.test.ts
 * runs them under their manual numbers.
 */
import assert from 'node:assert/strict';
import { RoceNet } from '../../src/roce/net.js';
import { gidToIpv4 } from '../../src/roce/net-host.js';
import type { Device } from '../../src/verbs/device.js';
import {
  IBV_MTU_1024,
  IBV_QP_AV,
  IBV_QP_DEST_QPN,
  IBV_QP_MAX_DEST_RD_ATOMIC,
  IBV_QP_MAX_QP_RD_ATOMIC,
  IBV_QP_MIN_RNR_TIMER,
  IBV_QP_PATH_MTU,
  IBV_QP_RETRY_CNT,
  IBV_QP_RNR_RETRY,
  IBV_QP_RQ_PSN,
  IBV_QP_SQ_PSN,
  IBV_QP_STATE,
  IBV_QP_TIMEOUT,
  IBV_QPS_ERR,
  IBV_QPS_INIT,
  IBV_QPS_RTR,
  IBV_QPS_RTS,
  IBV_QPT_RC,
  IBV_QPT_UC,
  IBV_SEND_SIGNALED,
  IBV_WC_RETRY_EXC_ERR,
  IBV_WC_RNR_RETRY_EXC_ERR,
  IBV_WC_SUCCESS,
  IBV_WC_WR_FLUSH_ERR,
  IBV_WR_SEND,
  type ibv_cq,
  type ibv_mr,
  type ibv_qp_attr,
  type ibv_qp_init_attr,
  type ibv_wc,
  verbs as v,
} from '../../src/verbs/index.js';
import { pollN, reg } from '../verbs/pair.js';
import {
  avTo,
  closeRoceSide,
  gid,
  RC_INIT_MASK,
  ROCE_ACC,
  type RoceSide,
  roceDevice,
  roceSide,
  UC_RTR_MASK,
  UC_RTS_MASK,
} from '../verbs/roce.js';
import type { SoftrdmaVp } from '../../src/provider/softrdma.js';

const sge = (mr: ibv_mr, length = mr.length) => ({ addr: mr.addr, length, lkey: mr.lkey });

/** Runs `fn` with softroce0's QPs on the RoCEv2 transport, on an ephemeral UDP port. */
export async function onRoceWire<T>(fn: (net: RoceNet) => Promise<T>): Promise<T> {
  const cfg = ((roceDevice() as Device).vp as SoftrdmaVp).engine.config;
  const probe = RoceNet.acquire(gidToIpv4(cfg.gids!()[0]!)!, 0);
  await probe.ready;
  const saved = { link: cfg.ibLink, port: cfg.roceUdpPort };
  cfg.ibLink = 'rocev2';
  cfg.roceUdpPort = probe.port;
  try {
    return await fn(probe);
  } finally {
    cfg.ibLink = saved.link;
    cfg.roceUdpPort = saved.port;
    probe.setFaults(null);
    probe.release();
  }
}

interface Rc {
  timeout?: number;
  retryCnt?: number;
  rnrRetry?: number;
  minRnrTimer?: number;
}

/** RESET→RTS of an RC or UC QP toward `destQpn` on GID 0, with the given RC timers. */
function toRts(s: RoceSide, destQpn: number, o: Rc = {}): void {
  const rc = s.qp.qp_type === IBV_QPT_RC;
  assert.equal(v.ibv_modify_qp(s.qp, { qp_state: IBV_QPS_INIT, pkey_index: 0, port_num: 1, qp_access_flags: ROCE_ACC }, RC_INIT_MASK), 0);
  const rtr = {
    qp_state: IBV_QPS_RTR,
    path_mtu: IBV_MTU_1024,
    dest_qp_num: destQpn,
    rq_psn: 0,
    max_dest_rd_atomic: 1,
    min_rnr_timer: o.minRnrTimer ?? 1,
    ah_attr: avTo(gid(s.ctx)),
  };
  const rtrMask = rc
    ? IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER
    : UC_RTR_MASK;
  assert.equal(v.ibv_modify_qp(s.qp, rtr, rtrMask), 0);
  const rts = {
    qp_state: IBV_QPS_RTS,
    timeout: o.timeout ?? 14,
    retry_cnt: o.retryCnt ?? 7,
    rnr_retry: o.rnrRetry ?? 7,
    sq_psn: 0,
    max_rd_atomic: 1,
  };
  const rtsMask = rc
    ? IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC
    : UC_RTS_MASK;
  assert.equal(v.ibv_modify_qp(s.qp, rts, rtsMask), 0);
}

function pair(type: number, o: Rc = {}): { a: RoceSide; b: RoceSide; close(): void } {
  const a = roceSide(type as typeof IBV_QPT_RC);
  const b = roceSide(type as typeof IBV_QPT_RC);
  toRts(b, a.qp.qp_num, o);
  toRts(a, b.qp.qp_num, o);
  return {
    a,
    b,
    close() {
      closeRoceSide(a);
      closeRoceSide(b);
    },
  };
}

function state(s: RoceSide): number {
  const at = {} as ibv_qp_attr;
  assert.equal(v.ibv_query_qp(s.qp, at, 0, {} as ibv_qp_init_attr), 0);
  return at.qp_state;
}

const statuses = (w: ibv_wc[]) => w.map((x) => [x.wr_id, x.status]);

async function nothingOn(cq: ibv_cq, ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
  const wc: ibv_wc[] = [];
  assert.equal(v.ibv_poll_cq(cq, 1, wc), 0, 'no completion');
}

/** E19: rnr_retry 0 → IBV_WC_RNR_RETRY_EXC_ERR; rnr_retry 7 waits and succeeds once a receive is posted. */
export async function e19(): Promise<void> {
  await onRoceWire(async () => {
    const p = pair(IBV_QPT_RC, { rnrRetry: 0 });
    const buf = new Uint8Array(2000).fill(19);
    const mr = reg(p.a.pd, buf);
    assert.equal(v.ibv_post_send(p.a.qp, { wr_id: 1n, opcode: IBV_WR_SEND, send_flags: IBV_SEND_SIGNALED, sg_list: [sge(mr)] }).ret, 0);
    assert.equal(v.ibv_post_send(p.a.qp, { wr_id: 2n, opcode: IBV_WR_SEND, send_flags: IBV_SEND_SIGNALED, sg_list: [sge(mr)] }).ret, 0);
    assert.deepEqual(statuses(await pollN(p.a.cq, 2)), [
      [1n, IBV_WC_RNR_RETRY_EXC_ERR],
      [2n, IBV_WC_WR_FLUSH_ERR],
    ]);
    assert.equal(state(p.a), IBV_QPS_ERR);
    v.ibv_dereg_mr(mr);
    p.close();
    const q = pair(IBV_QPT_RC, { rnrRetry: 7 });
    const src = reg(q.a.pd, buf);
    const dst = new Uint8Array(2000);
    const dmr = reg(q.b.pd, dst);
    assert.equal(v.ibv_post_send(q.a.qp, { wr_id: 3n, opcode: IBV_WR_SEND, send_flags: IBV_SEND_SIGNALED, sg_list: [sge(src)] }).ret, 0);
    await nothingOn(q.a.cq, 100); // RNR NAKs, retried for ever
    assert.equal(v.ibv_post_recv(q.b.qp, { wr_id: 4n, sg_list: [sge(dmr)] }).ret, 0);
    assert.deepEqual(statuses(await pollN(q.a.cq, 1)), [[3n, IBV_WC_SUCCESS]]);
    assert.deepEqual(statuses(await pollN(q.b.cq, 1)), [[4n, IBV_WC_SUCCESS]]);
    assert.deepEqual(dst, buf);
    v.ibv_dereg_mr(src);
    v.ibv_dereg_mr(dmr);
    q.close();
  });
}

/** E20: a Send to a peer that vanished → IBV_WC_RETRY_EXC_ERR after (retry_cnt + 1) Local ACK Timeouts. */
export async function e20(): Promise<void> {
  await onRoceWire(async () => {
    const timeout = 10; // 4.096 µs × 2^10 ≈ 4.2 ms
    const retryCnt = 3;
    const p = pair(IBV_QPT_RC, { timeout, retryCnt });
    // The peer vanishes: its QP is destroyed, its packets no longer answered.
    closeRoceSide(p.b);
    const mr = reg(p.a.pd, new Uint8Array(64));
    const t0 = Date.now();
    assert.equal(v.ibv_post_send(p.a.qp, { wr_id: 20n, opcode: IBV_WR_SEND, send_flags: IBV_SEND_SIGNALED, sg_list: [sge(mr)] }).ret, 0);
    assert.deepEqual(statuses(await pollN(p.a.cq, 1)), [[20n, IBV_WC_RETRY_EXC_ERR]]);
    // Never sooner than (retry_cnt + 1) timeouts (a lower bound only: the machine may be slow).
    assert.ok(Date.now() - t0 >= Math.floor(((retryCnt + 1) * 4.096 * 2 ** timeout) / 1000), `${Date.now() - t0} ms`);
    assert.equal(state(p.a), IBV_QPS_ERR);
    v.ibv_dereg_mr(mr);
    closeRoceSide(p.a);
  });
}

/** E21: UC — a message that lost a packet is dropped silently (sender: success; receiver: no CQE); the next arrives. */
export async function e21(): Promise<void> {
  await onRoceWire(async (net) => {
    const p = pair(IBV_QPT_UC);
    const one = new Uint8Array(3000).fill(1);
    const two = new Uint8Array(3000).fill(2);
    const m1 = reg(p.a.pd, one);
    const m2 = reg(p.a.pd, two);
    const dst = new Uint8Array(3000);
    const dm = reg(p.b.pd, dst);
    assert.equal(v.ibv_post_recv(p.b.qp, { wr_id: 7n, sg_list: [sge(dm)] }).ret, 0);
    // Lose the second datagram on the wire: the MIDDLE packet of the first message.
    const send = net.send.bind(net);
    let n = 0;
    net.send = (pkt, addr, port) => {
      if (++n !== 2) send(pkt, addr, port);
    };
    try {
      assert.equal(v.ibv_post_send(p.a.qp, { wr_id: 1n, opcode: IBV_WR_SEND, send_flags: IBV_SEND_SIGNALED, sg_list: [sge(m1)] }).ret, 0);
      assert.deepEqual(statuses(await pollN(p.a.cq, 1)), [[1n, IBV_WC_SUCCESS]]);
      await nothingOn(p.b.cq, 50);
      assert.equal(v.ibv_post_send(p.a.qp, { wr_id: 2n, opcode: IBV_WR_SEND, send_flags: IBV_SEND_SIGNALED, sg_list: [sge(m2)] }).ret, 0);
      assert.deepEqual(statuses(await pollN(p.a.cq, 1)), [[2n, IBV_WC_SUCCESS]]);
      const [w] = await pollN(p.b.cq, 1);
      assert.deepEqual([w!.wr_id, w!.status, w!.byte_len], [7n, IBV_WC_SUCCESS, 3000]);
      assert.deepEqual(dst, two);
    } finally {
      net.send = send;
    }
    for (const m of [m1, m2, dm]) v.ibv_dereg_mr(m);
    p.close();
  });
}

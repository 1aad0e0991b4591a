/**
 * ibverbs on softroce0 over the real RoCEv2 transport (UDP on the host's first IPv4 address,
 * an ephemeral port instead of 4791 so parallel test files do not collide): RC Send, Write and
 * Read through ibv_post_send/ibv_poll_cq, a remote access error as IBV_WC_REM_ACCESS_ERR, and a
 * UD datagram with its GRH and source QP. Both QPs are on one device, so their packets go
 * through one UDP socket to itself, as rxe's do on one host. The suite runs twice: over the
 * first IPv4 GID, and over the GID of `::1` (RoCEv2 over IPv6; skipped when the host has no
 * IPv6 loopback).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Device } from '../../src/verbs/device.js';
import { RoceNet } from '../../src/roce/net.js';
import { gidToAddress, ipv6Bytes } from '../../src/wire/ib/gid-address.js';
import {
  IBV_ACCESS_LOCAL_WRITE,
  IBV_MTU_1024,
  IBV_QPS_ERR,
  IBV_QPT_RC,
  IBV_QPT_UD,
  IBV_SEND_SIGNALED,
  IBV_WC_GRH,
  IBV_WC_REM_ACCESS_ERR,
  IBV_WC_SUCCESS,
  IBV_WC_WR_FLUSH_ERR,
  IBV_WR_RDMA_READ,
  IBV_WR_RDMA_WRITE,
  IBV_WR_SEND,
  type ibv_mr,
  type ibv_qp_attr,
  type ibv_qp_init_attr,
  verbs as v,
} from '../../src/verbs/index.js';
import { pollN, reg } from '../verbs/pair.js';
import { avTo, closeRoceSide, gid, QKEY, type RoceSide, roceDevice, roceSide, roceToRts } from '../verbs/roce.js';
import type { SoftrdmaVp } from '../../src/provider/softrdma.js';

const T = { timeout: 30_000 };
const sge = (mr: ibv_mr, length = mr.length, offset = 0) => ({ addr: mr.addr + BigInt(offset), length, lkey: mr.lkey });

let probe: RoceNet | null = null;
let probe6: RoceNet | null = null;
let restore = () => {};
/** The GID index of `::1` on softroce0, or -1. */
const loopback6 = (): number =>
  (((roceDevice() as Device).vp as SoftrdmaVp).engine.config.gids!() ?? []).findIndex((g) => gidToAddress(g) === '::1');
before(async () => {
  const cfg = ((roceDevice() as Device).vp as SoftrdmaVp).engine.config;
  const addr = gidToAddress(cfg.gids!()[0]!)!;
  probe = RoceNet.acquire(addr, 0);
  await probe.ready;
  // The same port must be free on ::1 for the IPv6 run (one port serves the whole device).
  if (loopback6() >= 0) {
    probe6 = RoceNet.acquire('::1', probe.port);
    await probe6.ready.catch(() => {});
  }
  const before = { link: cfg.ibLink, port: cfg.roceUdpPort };
  cfg.ibLink = 'rocev2';
  cfg.roceUdpPort = probe.port;
  restore = () => {
    cfg.ibLink = before.link;
    cfg.roceUdpPort = before.port;
  };
});
after(() => {
  restore();
  probe?.release();
  probe6?.release();
});

function rcPair(gidIndex: number): { a: RoceSide; b: RoceSide } {
  const a = roceSide(IBV_QPT_RC);
  const b = roceSide(IBV_QPT_RC);
  roceToRts(b, a.qp.qp_num, { pathMtu: IBV_MTU_1024, gidIndex });
  roceToRts(a, b.qp.qp_num, { pathMtu: IBV_MTU_1024, gidIndex });
  return { a, b };
}

function qpState(s: RoceSide): number {
  const a = {} as ibv_qp_attr;
  assert.equal(v.ibv_query_qp(s.qp, a, 0, {} as ibv_qp_init_attr), 0);
  return a.qp_state;
}

for (const family of ['IPv4', 'IPv6'] as const) {
  const idx = (): number => (family === 'IPv4' ? 0 : loopback6());
  const skip = family === 'IPv6' && loopback6() < 0 ? 'the host has no IPv6 loopback (::1)' : false;
  describe(`ibverbs on softroce0 over RoCEv2 (loopback UDP, ${family})`, { skip }, () => {
    test('RC: Send, RDMA Write and RDMA Read of many MTUs, every byte verified', T, async () => {
      const { a, b } = rcPair(idx());
      const n = 100_000;
      const src = Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);
      const smr = reg(a.pd, src);
      const rbuf = new Uint8Array(n);
      const rmr = reg(b.pd, rbuf);
      assert.equal(v.ibv_post_recv(b.qp, { wr_id: 1n, sg_list: [sge(rmr)] }).ret, 0);
      assert.equal(v.ibv_post_send(a.qp, { wr_id: 2n, opcode: IBV_WR_SEND, send_flags: IBV_SEND_SIGNALED, sg_list: [sge(smr)] }).ret, 0);
      const [rw] = await pollN(b.cq, 1);
      assert.equal(rw!.status, IBV_WC_SUCCESS);
      assert.equal(rw!.byte_len, n);
      assert.deepEqual(rbuf, src);
      const wbuf = new Uint8Array(n);
      const wmr = reg(b.pd, wbuf);
      assert.equal(
        v.ibv_post_send(a.qp, {
          wr_id: 3n,
          opcode: IBV_WR_RDMA_WRITE,
          send_flags: IBV_SEND_SIGNALED,
          sg_list: [sge(smr)],
          wr: { rdma: { remote_addr: wmr.addr, rkey: wmr.rkey } },
        }).ret,
        0,
      );
      const sink = new Uint8Array(n);
      const kmr = reg(a.pd, sink);
      assert.equal(
        v.ibv_post_send(a.qp, {
          wr_id: 4n,
          opcode: IBV_WR_RDMA_READ,
          send_flags: IBV_SEND_SIGNALED,
          sg_list: [sge(kmr)],
          wr: { rdma: { remote_addr: wmr.addr, rkey: wmr.rkey } },
        }).ret,
        0,
      );
      const wcs = await pollN(a.cq, 3);
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
      for (const m of [smr, rmr, wmr, kmr]) v.ibv_dereg_mr(m);
      closeRoceSide(a);
      closeRoceSide(b);
    });

    test(
      'RC: a Write to an MR without Remote Write → IBV_WC_REM_ACCESS_ERR (NAK 0x62), both QPs in ERR, later WRs flushed',
      T,
      async () => {
        const { a, b } = rcPair(idx());
        const src = new Uint8Array(64).fill(1);
        const smr = reg(a.pd, src);
        const dst = new Uint8Array(64);
        const dmr = reg(b.pd, dst, IBV_ACCESS_LOCAL_WRITE);
        assert.equal(
          v.ibv_post_send(a.qp, {
            wr_id: 1n,
            opcode: IBV_WR_RDMA_WRITE,
            send_flags: IBV_SEND_SIGNALED,
            sg_list: [sge(smr)],
            wr: { rdma: { remote_addr: dmr.addr, rkey: dmr.rkey } },
          }).ret,
          0,
        );
        assert.equal(v.ibv_post_send(a.qp, { wr_id: 2n, opcode: IBV_WR_SEND, send_flags: IBV_SEND_SIGNALED, sg_list: [sge(smr)] }).ret, 0);
        const wcs = await pollN(a.cq, 2);
        assert.deepEqual(
          wcs.map((w) => [w.wr_id, w.status]),
          [
            [1n, IBV_WC_REM_ACCESS_ERR],
            [2n, IBV_WC_WR_FLUSH_ERR],
          ],
        );
        assert.equal(qpState(a), IBV_QPS_ERR);
        assert.equal(qpState(b), IBV_QPS_ERR);
        assert.ok(dst.every((x) => x === 0));
        for (const m of [smr, dmr]) v.ibv_dereg_mr(m);
        closeRoceSide(a);
        closeRoceSide(b);
      },
    );

    test('UD: a datagram lands after the 40-octet GRH, with IBV_WC_GRH and the sender as src_qp', T, async () => {
      const a = roceSide(IBV_QPT_UD);
      const b = roceSide(IBV_QPT_UD);
      roceToRts(a, 0);
      roceToRts(b, 0);
      const buf = new Uint8Array(40 + 512);
      const rmr = reg(b.pd, buf);
      assert.equal(v.ibv_post_recv(b.qp, { wr_id: 9n, sg_list: [sge(rmr)] }).ret, 0);
      const src = Uint8Array.from({ length: 512 }, (_, i) => i & 0xff);
      const smr = reg(a.pd, src);
      const ah = v.ibv_create_ah(a.pd, avTo(gid(b.ctx, idx()), idx()));
      assert.ok(ah);
      assert.equal(
        v.ibv_post_send(a.qp, {
          wr_id: 1n,
          opcode: IBV_WR_SEND,
          send_flags: IBV_SEND_SIGNALED,
          sg_list: [sge(smr)],
          wr: { ud: { ah, remote_qpn: b.qp.qp_num, remote_qkey: QKEY } },
        }).ret,
        0,
      );
      const [sw] = await pollN(a.cq, 1);
      assert.equal(sw!.status, IBV_WC_SUCCESS);
      const [w] = await pollN(b.cq, 1);
      assert.equal(w!.status, IBV_WC_SUCCESS);
      assert.equal(w!.byte_len, 552);
      assert.equal(w!.src_qp, a.qp.qp_num);
      assert.ok(w!.wc_flags & IBV_WC_GRH);
      assert.deepEqual(buf.subarray(40), src);
      if (family === 'IPv4') assert.equal(buf[20], 0x45, 'the IPv4 header of the GRH (rxe layout)');
      else {
        // RoCEv2 over IPv6: the GRH is the IPv6 header (version 6, next header UDP, ::1 to ::1).
        assert.equal(buf[0]! >> 4, 6, 'the IPv6 header of the GRH');
        assert.equal(buf[6], 17);
        assert.equal((buf[4]! << 8) | buf[5]!, 8 + 12 + 8 + 512 + 4, 'payload length: UDP + BTH + DETH + data + ICRC');
        assert.deepEqual(buf.subarray(8, 24), ipv6Bytes('::1'));
        assert.deepEqual(buf.subarray(24, 40), ipv6Bytes('::1'));
      }
      assert.equal(v.ibv_destroy_ah(ah), 0);
      for (const m of [smr, rmr]) v.ibv_dereg_mr(m);
      closeRoceSide(a);
      closeRoceSide(b);
    });
  });
}

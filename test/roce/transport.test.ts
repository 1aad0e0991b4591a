/**
 * The RoCEv2 transport over loopback UDP beyond the shared IB suites: UD datagrams (Q_Key,
 * the synthesised GRH, the source QP), UC losing a packet (the message is dropped, the next
 * one arrives), a hostile peer breaking the RC opcode sequence and lengths (NAK Invalid
 * Request, the responder in Error), duplicates and out-of-sequence requests injected raw, and
 * a live capture (SOFTRDMA_PCAP) that tshark decodes as RRoCE with no malformed packet.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RiRet } from '../../src/rnicpi/status.js';
import type { RnicConfig } from '../../src/rnic/rnic.js';
import { RiMemFlags, RiQpState, RiWcStatus, RiWrType } from '../../src/rnicpi/types.js';
import { AtomicKind, atomicArgs } from '../../src/rnic/atomics.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import { RoceNet, type RoceRx } from '../../src/roce/net.js';
import { linkMtuOf } from '../../src/roce/net-host.js';
import type { RoceQp } from '../../src/roce/transport.js';
import { AethType, aethType, aethValue, encodeIbPacket, IbOpcode, ibOpInfo, ibPadCount, NakCode, newBth } from '../../src/wire/ib/index.js';
import {
  ALL_ACCESS,
  connectPair,
  gidOf,
  ibRnic,
  ibToRts,
  makeIbSide,
  type Pair,
  pollN,
  recv,
  reg,
  type Side,
  send,
  sge,
  until,
} from '../helpers/engine.js';

const va = (b: Uint8Array) => hostMemory.addressOf(b);
const roce = (s: Side) => s.qp.transport as unknown as RoceQp;

describe('RoCEv2 transport', () => {
  it('UD: datagrams with the GRH synthesised in front, the source QP and Q_Key; a wrong Q_Key is dropped', async () => {
    const a = makeIbSide('UD');
    const b = makeIbSide('UD');
    const p = await connectPair(a, b, { transport: 'rocev2' });
    try {
      const buf = new Uint8Array(40 + 1024);
      const mb = reg(b, buf);
      assert.equal(recv(b.qp, 1n, [sge(mb, buf)]), RiRet.SUCCESS);
      assert.equal(recv(b.qp, 2n, [sge(mb, buf)]), RiRet.SUCCESS);
      const src = new Uint8Array(1000).map((_, i) => (i * 3) & 0xff);
      const ms = reg(a, src);
      const av = {
        ...roce(a).qp.ib.av,
        dgid: gidOf('127.0.0.2'),
        sgid: gidOf('127.0.0.1'),
        sgidIndex: 0,
        hopLimit: 64,
        trafficClass: 0,
        flowLabel: 0,
        sl: 0,
        port: 1,
      };
      const ud = (qkey: number) => ({ av, remoteQpn: b.qp.id, remoteQkey: qkey });
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(ms, src)], id: 7n, ud: ud(0x12345678) }), RiRet.SUCCESS);
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(ms, src)], id: 8n, ud: ud(0x11111111) }), RiRet.SUCCESS);
      const sw = await pollN(a.cq, 2);
      assert.ok(sw.every((w) => w.op_status === RiWcStatus.SUCCESS));
      const [w] = await pollN(b.cq, 1);
      assert.equal(w!.op_status, RiWcStatus.SUCCESS);
      assert.equal(w!.bytes_transferred, 1040);
      assert.equal(w!.remote_qpn, a.qp.id);
      assert.equal(w!.grh_present, 1);
      assert.deepEqual(buf.subarray(40, 1040), src);
      // GRH: 20 zero octets, then the IPv4 header as received (rxe's layout for IPv4).
      assert.ok(buf.subarray(0, 20).every((x) => x === 0));
      assert.equal(buf[20], 0x45);
      assert.equal((buf[22]! << 8) | buf[23]!, 20 + 8 + 12 + 8 + 1000 + 4);
      assert.deepEqual(Array.from(buf.subarray(32, 40)), [127, 0, 0, 1, 127, 0, 0, 2]);
      assert.equal(b.rnic.counters.qkeyViolations, 1);
      // The second receive is still posted: the wrong-Q_Key datagram consumed nothing.
      assert.equal(b.cq.poll([], 1), 0);
    } finally {
      await p.close();
    }
  });

  it('UD: an address of the GID table that cannot be bound (on no interface: EADDRNOTAVAIL) is skipped; the QP stays in RTS and serves on the others', async () => {
    const a = makeIbSide('UD');
    const b = makeIbSide('UD');
    // 192.0.2.77 (TEST-NET-1) is held by no interface here.
    const p = await connectPair(a, b, {
      transport: 'rocev2',
      beforeRts: (s) => s === a && ((s.rnic.config as RnicConfig).gids = () => [gidOf('127.0.0.1'), gidOf('192.0.2.77')]),
    });
    try {
      await until(() => roce(a).nets.length === 1 || a.qp.state === RiQpState.ERROR, 5000);
      assert.equal(a.qp.state, RiQpState.READY_TO_SEND);
      assert.deepEqual(
        roce(a).nets.map((n) => n.address),
        ['127.0.0.1'],
      );
      const buf = new Uint8Array(40 + 64);
      const mb = reg(b, buf);
      assert.equal(recv(b.qp, 1n, [sge(mb, buf)]), RiRet.SUCCESS);
      const src = Uint8Array.from([1, 2, 3, 4, 5]);
      const ms = reg(a, src);
      const av = {
        ...roce(a).qp.ib.av,
        dgid: gidOf('127.0.0.2'),
        sgid: gidOf('127.0.0.1'),
        sgidIndex: 0,
        hopLimit: 64,
        trafficClass: 0,
        flowLabel: 0,
        sl: 0,
        port: 1,
      };
      assert.equal(
        send(a.qp, { type: RiWrType.SEND, sgl: [sge(ms, src)], id: 1n, ud: { av, remoteQpn: b.qp.id, remoteQkey: 0x11111111 } }),
        RiRet.SUCCESS,
      );
      const [w] = await pollN(b.cq, 1);
      assert.equal(w!.op_status, RiWcStatus.SUCCESS);
      assert.deepEqual(buf.subarray(40, 45), src);
    } finally {
      await p.close();
    }
  });

  it('UD: a datagram longer than the receive, or a receive smaller than the GRH, is dropped and counted; the receive stays posted', async () => {
    const a = makeIbSide('UD');
    const b = makeIbSide('UD');
    const p = await connectPair(a, b, { transport: 'rocev2' });
    try {
      const buf = new Uint8Array(40 + 64);
      const mb = reg(b, buf);
      const src = new Uint8Array(100).fill(0x5a);
      const ms = reg(a, src);
      const av = {
        ...roce(a).qp.ib.av,
        dgid: gidOf('127.0.0.2'),
        sgid: gidOf('127.0.0.1'),
        sgidIndex: 0,
        hopLimit: 64,
        trafficClass: 0,
        flowLabel: 0,
        sl: 0,
        port: 1,
      };
      const ud = { av, remoteQpn: b.qp.id, remoteQkey: 0x11111111 };
      // 100 octets do not fit 40 + 64: dropped and counted, the receive still posted.
      assert.equal(recv(b.qp, 1n, [sge(mb, buf)]), RiRet.SUCCESS);
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(ms, src)], id: 1n, ud }), RiRet.SUCCESS);
      await pollN(a.cq, 1);
      await until(() => b.rnic.counters.udLengthDrops === 1, 5000, 'the long datagram dropped');
      assert.equal(b.cq.poll([], 1), 0, 'a datagram longer than the receive completed it');
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(ms, src, 0, 8)], id: 2n, ud }), RiRet.SUCCESS);
      const [w] = await pollN(b.cq, 1);
      assert.deepEqual([w!.id, w!.op_status, w!.bytes_transferred], [1n, RiWcStatus.SUCCESS, 48]);
      // A receive smaller than the GRH takes nothing.
      assert.equal(recv(b.qp, 3n, [sge(mb, buf, 0, 39)]), RiRet.SUCCESS);
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(ms, src, 0, 8)], id: 4n, ud }), RiRet.SUCCESS);
      await until(() => b.rnic.counters.udLengthDrops === 2, 5000, 'the datagram dropped for the 39-octet receive');
      assert.equal(b.cq.poll([], 1), 0, 'the receive smaller than the GRH completed');
      assert.equal(b.qp.state, RiQpState.READY_TO_SEND);
    } finally {
      await p.close();
    }
  });

  it('UC: a lost packet drops its message, the receive is reused by the next message', async () => {
    const a = makeIbSide('UC');
    const b = makeIbSide('UC');
    const p = await connectPair(a, b, { transport: 'rocev2', pathMtu: 1 });
    try {
      const dst = new Uint8Array(1000);
      const md = reg(b, dst);
      assert.equal(recv(b.qp, 1n, [sge(md, dst)]), RiRet.SUCCESS);
      const src = new Uint8Array(1000).fill(1);
      const ms = reg(a, src);
      // Drop exactly the 2nd datagram of A (a MIDDLE of the 4-packet first message).
      const net = roce(a).nets[0]!;
      let n = 0;
      const orig = net.send.bind(net);
      net.send = (pkt, addr, port) => {
        if (++n !== 2) orig(pkt, addr, port);
      };
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(ms, src)], id: 1n }), RiRet.SUCCESS);
      const src2 = new Uint8Array(1000).fill(2);
      const ms2 = reg(a, src2);
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(ms2, src2)], id: 2n }), RiRet.SUCCESS);
      await pollN(a.cq, 2);
      const [w] = await pollN(b.cq, 1);
      assert.equal(w!.op_status, RiWcStatus.SUCCESS);
      assert.equal(w!.bytes_transferred, 1000);
      assert.ok(
        dst.every((x) => x === 2),
        'the second message',
      );
      assert.equal(b.qp.state, RiQpState.READY_TO_SEND);
      net.send = orig;
    } finally {
      await p.close();
    }
  });
});

/** A raw peer on 127.0.0.2 speaking to the RC QP `a` on 127.0.0.1 with hand-made packets. */
async function rawPeer(): Promise<{
  p: Pair;
  a: Side;
  inject(op: number, psn: number, extra?: object, len?: number, ackReq?: boolean, payload?: Uint8Array): void;
  got: RoceRx[];
  close(): Promise<void>;
}> {
  const a = makeIbSide('RC');
  const b = makeIbSide('RC');
  const p = await connectPair(a, b, { transport: 'rocev2', pathMtu: 1 });
  // Take b's place on the wire: detach its QP and listen for what A sends to b's QPN.
  const bq = roce(b);
  const net = bq.nets[0]!;
  net.detach(b.qp.id, bq);
  const got: RoceRx[] = [];
  net.attach(b.qp.id, { rx: (r) => got.push(r), netError: () => {} });
  return {
    p,
    a,
    got,
    inject(op, psn, extra = {}, len = 0, ackReq = true, payload = new Uint8Array(len).fill(0xee)) {
      const pkt = encodeIbPacket({ bth: { ...newBth(op, a.qp.id, psn), padCnt: ibPadCount(payload.length), ackReq }, payload, ...extra });
      net.send(pkt, '127.0.0.1');
    },
    async close() {
      net.detach(b.qp.id);
      await p.close();
    },
  };
}

const acks = (got: RoceRx[]) =>
  got.filter((r) => r.pkt.bth.opcode === IbOpcode.RC_ACKNOWLEDGE).map((r) => [r.pkt.bth.psn, r.pkt.aeth!.syndrome]);

describe('RoCEv2 RC responder against a raw peer', () => {
  it('duplicates are re-ACKed with the last executed PSN; a gap gets one sequence NAK', async () => {
    const r = await rawPeer();
    try {
      const dst = new Uint8Array(256);
      const md = reg(r.a, dst);
      const reth = (off: number, len: number) => ({ reth: { va: va(dst) + BigInt(off), rkey: md.stag, dmaLen: len } });
      r.inject(IbOpcode.RC_RDMA_WRITE_ONLY, 0, reth(0, 8), 8);
      r.inject(IbOpcode.RC_RDMA_WRITE_ONLY, 1, reth(8, 8), 8);
      await until(() => acks(r.got).length >= 1, 3000, 'ACK');
      r.inject(IbOpcode.RC_RDMA_WRITE_ONLY, 0, reth(0, 8), 8); // duplicate
      await until(() => acks(r.got).some(([psn]) => psn === 1) && acks(r.got).length >= 2, 3000, 'duplicate ACK');
      r.inject(IbOpcode.RC_RDMA_WRITE_ONLY, 5, reth(16, 8), 8); // ahead of ePSN 2
      r.inject(IbOpcode.RC_RDMA_WRITE_ONLY, 6, reth(24, 8), 8);
      await until(() => acks(r.got).some(([, s]) => s === 0x60), 3000, 'sequence NAK');
      await new Promise((res) => setTimeout(res, 50));
      const naks = acks(r.got).filter(([, s]) => s === 0x60);
      assert.deepEqual(naks, [[2, 0x60]], 'one NAK, with the expected PSN');
      assert.ok(dst.subarray(0, 16).every((x) => x === 0xee));
      assert.ok(
        dst.subarray(16).every((x) => x === 0),
        'nothing ahead of ePSN executed',
      );
      assert.equal(r.a.qp.state, RiQpState.READY_TO_SEND);
    } finally {
      await r.close();
    }
  });

  for (const style of ['continues the message (MIDDLE/LAST, as Linux rxe replays)', 'restarts the message (FIRST/LAST)'] as const) {
    it(`a lost Read Response: the partial Read Request's answer ${style} and the Read completes with every octet`, async () => {
      const r = await rawPeer();
      try {
        // MTU 256: a 1024-octet Read is 4 responses.
        const data = new Uint8Array(1024).map((_, i) => (i * 7 + 3) & 0xff);
        const sink = new Uint8Array(1024);
        const ms = reg(r.a, sink);
        assert.equal(
          send(r.a.qp, { type: RiWrType.RDMA_READ, sgl: [sge(ms, sink)], rtag: 0x1234, remoteTo: 0x10000n, id: 9n }),
          RiRet.SUCCESS,
        );
        const isReq = (x: RoceRx) => x.pkt.bth.opcode === IbOpcode.RC_RDMA_READ_REQUEST;
        await until(() => r.got.some(isReq), 3000, 'Read Request');
        const req = r.got.find(isReq)!;
        const p0 = req.pkt.bth.psn;
        assert.equal(req.pkt.reth!.dmaLen, 1024);
        const part = (k: number) => data.subarray(256 * k, 256 * (k + 1));
        const aeth = { aeth: { syndrome: 0x1f, msn: 0 } };
        r.inject(IbOpcode.RC_RDMA_READ_RESPONSE_FIRST, p0, aeth, 0, false, part(0));
        // Response 1 is lost; response 2 shows the gap.
        r.inject(IbOpcode.RC_RDMA_READ_RESPONSE_MIDDLE, p0 + 2, {}, 0, false, part(2));
        await until(() => r.got.filter(isReq).length >= 2, 3000, 'partial Read Request');
        const retry = r.got.filter(isReq)[1]!;
        assert.equal(retry.pkt.bth.psn, p0 + 1);
        assert.equal(retry.pkt.reth!.va, 0x10000n + 256n);
        assert.equal(retry.pkt.reth!.dmaLen, 768);
        const firstOp = style.startsWith('continues') ? IbOpcode.RC_RDMA_READ_RESPONSE_MIDDLE : IbOpcode.RC_RDMA_READ_RESPONSE_FIRST;
        r.inject(firstOp, p0 + 1, firstOp === IbOpcode.RC_RDMA_READ_RESPONSE_FIRST ? aeth : {}, 0, false, part(1));
        r.inject(IbOpcode.RC_RDMA_READ_RESPONSE_MIDDLE, p0 + 2, {}, 0, false, part(2));
        r.inject(IbOpcode.RC_RDMA_READ_RESPONSE_LAST, p0 + 3, aeth, 0, false, part(3));
        const [w] = await pollN(r.a.cq, 1, 3000);
        assert.equal(w!.op_status, RiWcStatus.SUCCESS);
        assert.deepEqual(sink, data);
        assert.equal(r.got.filter(isReq).length, 2, 'no further retry');
      } finally {
        await r.close();
      }
    });
  }

  it('a duplicate Read Request from inside the Read being answered cuts the old stream short and replays from its PSN', async () => {
    const r = await rawPeer();
    try {
      // MTU 256: a 64 KiB Read is 256 responses, sent 64 per turn of the event loop.
      const src = new Uint8Array(65536).map((_, i) => (i * 13 + 1) & 0xff);
      const ms = reg(r.a, src);
      const reth = (off: number, len: number) => ({ reth: { va: va(src) + BigInt(off), rkey: ms.stag, dmaLen: len } });
      // The Read and, in the same instant, its retry from response 10 on: both datagrams reach
      // the responder in one poll of its socket.
      r.inject(IbOpcode.RC_RDMA_READ_REQUEST, 0, reth(0, 65536));
      r.inject(IbOpcode.RC_RDMA_READ_REQUEST, 10, reth(2560, 65536 - 2560));
      const isResp = (x: RoceRx) => ibOpInfo(x.pkt.bth.opcode)?.operation === 'read-response';
      const restart = (x: RoceRx) => x.pkt.bth.opcode === IbOpcode.RC_RDMA_READ_RESPONSE_FIRST && x.pkt.bth.psn === 10;
      await until(
        () => r.got.some((x) => isResp(x) && x.pkt.bth.psn === 255 && x.pkt.bth.opcode === IbOpcode.RC_RDMA_READ_RESPONSE_LAST),
        5000,
        "the replay's LAST",
      );
      const resp = r.got.filter(isResp);
      const k = resp.findIndex(restart);
      // On the dgram layer the first Read's stream has started when the retry arrives (each
      // datagram is its own callback); the native layer handles both in one batch, so the replay
      // may come first. Either way the old stream stops and the replay starts at PSN 10.
      assert.ok(k >= 0, 'the replay restarts at PSN 10 with READ RESPONSE FIRST');
      assert.ok(k < 256, `the old stream was cut short (${k} of 256 responses sent)`);
      // The replay: PSNs 10 … 255 in order, the data from offset 2560 on.
      const replay = resp.slice(k);
      assert.deepEqual(
        replay.map((x) => x.pkt.bth.psn),
        Array.from({ length: 246 }, (_, i) => 10 + i),
      );
      assert.deepEqual(Buffer.concat(replay.map((x) => x.pkt.payload)), Buffer.from(src.subarray(2560)));
    } finally {
      await r.close();
    }
  });

  it("a QP destroyed right after its last receive completes still sends the coalesced ACK: the peer's Send completes", async () => {
    const a = makeIbSide('RC');
    const b = makeIbSide('RC');
    // One retry (timeout 14: ≈67 ms): without that ACK the Send would end in TRANSPORT_RETRY_EXCEEDED.
    const p = await connectPair(a, b, { transport: 'rocev2', ib: { retryCnt: 1, timeout: 14 } });
    try {
      for (const s of [a, b]) for (const n of roce(s).nets) await n.ready;
      const buf = new Uint8Array(64);
      const mb = reg(b, buf);
      assert.equal(recv(b.qp, 1n, [sge(mb, buf)]), RiRet.SUCCESS);
      const src = new Uint8Array(64).fill(5);
      const ms = reg(a, src);
      // Poll b on every turn of the event loop and destroy its QP in the same turn as the
      // receive completion shows, before the ACK coalesced for the Send has left.
      const destroyed = new Promise<void>((resolve) => {
        const tick = () => {
          if (b.cq.poll([], 1) > 0) {
            b.qp.destroy();
            resolve();
          } else setImmediate(tick);
        };
        tick();
      });
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(ms, src)], id: 1n }), RiRet.SUCCESS);
      await destroyed;
      const [w] = await pollN(a.cq, 1, 3000);
      assert.equal(w!.op_status, RiWcStatus.SUCCESS);
      assert.deepEqual(buf, src);
    } finally {
      await p.close();
    }
  });

  for (const [name, build, code] of [
    [
      'a SEND MIDDLE with no FIRST',
      (r: Awaited<ReturnType<typeof rawPeer>>) => r.inject(IbOpcode.RC_SEND_MIDDLE, 0, {}, 256),
      NakCode.InvalidRequest,
    ],
    [
      'a SEND FIRST shorter than the MTU',
      (r: Awaited<ReturnType<typeof rawPeer>>) => r.inject(IbOpcode.RC_SEND_FIRST, 0, {}, 100),
      NakCode.InvalidRequest,
    ],
    [
      'an RDMA WRITE ONLY whose payload differs from its DMA length',
      (r: Awaited<ReturnType<typeof rawPeer>>) =>
        r.inject(IbOpcode.RC_RDMA_WRITE_ONLY, 0, { reth: { va: 0x1000n, rkey: 1, dmaLen: 64 } }, 8),
      NakCode.InvalidRequest,
    ],
    [
      'an RDMA WRITE with an unknown R_Key',
      (r: Awaited<ReturnType<typeof rawPeer>>) =>
        r.inject(IbOpcode.RC_RDMA_WRITE_ONLY, 0, { reth: { va: 0x1000n, rkey: 0xdead, dmaLen: 8 } }, 8),
      NakCode.RemoteAccessError,
    ],
    [
      'a COMPARE SWAP on a misaligned address',
      (r: Awaited<ReturnType<typeof rawPeer>>) =>
        r.inject(IbOpcode.RC_COMPARE_SWAP, 0, { atomicEth: { va: 0x1004n, rkey: 1, swapAdd: 1n, compare: 0n } }),
      NakCode.InvalidRequest,
    ],
    [
      'a FETCH ADD with an unknown R_Key',
      (r: Awaited<ReturnType<typeof rawPeer>>) =>
        r.inject(IbOpcode.RC_FETCH_ADD, 0, { atomicEth: { va: 0x1000n, rkey: 0xdead, swapAdd: 1n, compare: 0n } }),
      NakCode.RemoteAccessError,
    ],
  ] as const) {
    it(`${name}: NAK 0x${(0x60 | code).toString(16)} with its PSN, the QP in Error`, async () => {
      const r = await rawPeer();
      try {
        build(r);
        await until(() => r.a.qp.state === RiQpState.ERROR, 3000, 'Error');
        await until(() => acks(r.got).length > 0, 3000, 'NAK');
        const [[psn, syn]] = acks(r.got) as [[number, number]];
        assert.equal(psn, 0);
        assert.equal(aethType(syn), AethType.Nak);
        assert.equal(aethValue(syn), code);
      } finally {
        await r.close();
      }
    });
  }
});

describe('RoCEv2 live capture', { skip: spawnSync('tshark', ['--version']).status === 0 ? false : 'tshark not installed' }, () => {
  it('SOFTRDMA_PCAP: an RC Send, Write, Read, Send with Immediate and Fetch & Add decode as RRoCE with no malformed packet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'softrdma-roce-live-'));
    const old = process.env.SOFTRDMA_PCAP;
    process.env.SOFTRDMA_PCAP = dir;
    let port = 0;
    try {
      const a = makeIbSide('RC');
      const b = makeIbSide('RC');
      const p = await connectPair(a, b, { transport: 'rocev2', pathMtu: 1, ib: { access: { read: true, write: true, atomic: true } } });
      port = roce(a).port;
      const src = new Uint8Array(1000).map((_, i) => i & 0xff);
      const dst = new Uint8Array(1000);
      const ms = reg(a, src);
      const md = reg(b, dst);
      assert.equal(recv(b.qp, 1n, [sge(md, dst)]), RiRet.SUCCESS);
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(ms, src)], id: 1n }), RiRet.SUCCESS);
      assert.equal(send(a.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(ms, src)], rtag: md.stag, remoteTo: va(dst), id: 2n }), RiRet.SUCCESS);
      const sink = new Uint8Array(1000);
      const mk = reg(a, sink);
      assert.equal(send(a.qp, { type: RiWrType.RDMA_READ, sgl: [sge(mk, sink)], rtag: md.stag, remoteTo: va(dst), id: 3n }), RiRet.SUCCESS);
      // Immediate data and an atomic: SEND ONLY WITH IMMEDIATE, FETCH ADD, ATOMIC ACKNOWLEDGE.
      const counter = new Uint8Array(8);
      const mc = reg(b, counter, ALL_ACCESS | RiMemFlags.ATOMICS);
      const res = new Uint8Array(8);
      const mres = reg(a, res);
      assert.equal(recv(b.qp, 2n, [sge(md, dst, 0, 16)]), RiRet.SUCCESS);
      assert.equal(send(a.qp, { type: RiWrType.SEND_IMMEDIATE, sgl: [sge(ms, src, 0, 16)], imm: 0x1234, id: 4n }), RiRet.SUCCESS);
      assert.equal(
        send(a.qp, {
          type: RiWrType.FETCH_AND_ADD,
          sgl: [sge(mres, res)],
          rtag: mc.stag,
          remoteTo: va(counter),
          atomic: atomicArgs(AtomicKind.FETCH_ADD, 8, 3n, 0n),
          id: 5n,
        }),
        RiRet.SUCCESS,
      );
      const wcs = await pollN(a.cq, 5);
      assert.ok(wcs.every((w) => w.op_status === RiWcStatus.SUCCESS));
      assert.deepEqual(sink, src);
      await p.close();
      // The endpoints close once no QP uses them (and their capture files with them).
      await until(
        () => RoceNet.find('127.0.0.1', port) === undefined && RoceNet.find('127.0.0.2', port) === undefined,
        3000,
        'endpoints closed',
      );
      const files = readdirSync(dir).filter((f) => f.endsWith('.pcap'));
      assert.ok(files.length >= 2, files.join());
      const ops = new Set<string>();
      for (const f of files) {
        const args = [
          '-r',
          join(dir, f),
          '-o',
          `infiniband.rroce.port:${port}`,
          '--disable-protocol',
          'rpcordma',
          '--disable-heuristic',
          'eth_over_ib',
          '--disable-heuristic',
          'mellanox_eoib',
        ];
        const bad = spawnSync('tshark', [...args, '-Y', '_ws.malformed || _ws.expert.severity >= "error"'], { encoding: 'utf8' });
        assert.equal(bad.status, 0, bad.stderr);
        assert.equal(bad.stdout.trim(), '', `${f}: malformed:\n${bad.stdout}`);
        const r = spawnSync('tshark', [...args, '-T', 'fields', '-e', 'infiniband.bth.opcode'], { encoding: 'utf8' });
        for (const l of r.stdout.trim().split('\n')) if (l) ops.add(l);
      }
      // SEND FIRST/MIDDLE/LAST, WRITE FIRST/MIDDLE/LAST, READ REQUEST, READ RESPONSE FIRST/MIDDLE/LAST,
      // ACK, SEND ONLY WITH IMMEDIATE, FETCH ADD, ATOMIC ACKNOWLEDGE.
      for (const op of [0, 1, 2, 6, 7, 8, 12, 13, 14, 15, 17, 5, 20, 18])
        assert.ok(ops.has(String(op)), `opcode ${op} in ${[...ops].join()}`);
    } finally {
      if (old === undefined) delete process.env.SOFTRDMA_PCAP;
      else process.env.SOFTRDMA_PCAP = old;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('RoCEv2 against a hostile peer', () => {
  it('20,000 random well-framed packets (every opcode, PSNs near and far, any lengths and keys) neither crash nor hang a QP', {
    timeout: 120_000,
  }, async () => {
    let seed = 0x5eed;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const ops = [0, 1, 2, 4, 6, 7, 8, 10, 12, 13, 14, 15, 16, 17, 18, 19, 20, 22, 23, 0x24, 0x64];
    let errorsSeen = 0;
    for (let round = 0; round < 20; round++) {
      const r = await rawPeer();
      // Keep A's endpoint open past the QP's Error, to read its counters.
      const netA = RoceNet.acquire('127.0.0.1', roce(r.a).port);
      try {
        const dst = new Uint8Array(4096);
        const md = reg(r.a, dst);
        assert.equal(recv(r.a.qp, 1n, [sge(md, dst)]), RiRet.SUCCESS);
        // Outstanding requests of A, so that responses and ACKs have something to match.
        const sink = new Uint8Array(2048);
        const mk = reg(r.a, sink);
        send(r.a.qp, { type: RiWrType.RDMA_READ, sgl: [sge(mk, sink)], rtag: 0x1234, remoteTo: 0x1000n, id: 1n });
        send(r.a.qp, { type: RiWrType.SEND, sgl: [sge(mk, sink, 0, 600)], id: 2n });
        for (let i = 0; i < 1000; i++) {
          const op = ops[rnd(ops.length)]!;
          const len = rnd(3) === 0 ? 0 : rnd(600);
          const psn = rnd(2) ? rnd(8) : rnd(0x1000000);
          const extra: Record<string, unknown> = {};
          const u64 = () => BigInt(rnd(2) ? va(dst) + BigInt(rnd(4096)) : BigInt(rnd(0x7fffffff)));
          const key = rnd(2) ? md.stag : rnd(0x7fffffff);
          if ([6, 10, 12].includes(op)) extra.reth = { va: u64(), rkey: key, dmaLen: rnd(5000) };
          if ([13, 15, 16, 17, 18].includes(op)) extra.aeth = { syndrome: [0x1f, 0x20 | rnd(32), 0x60 | rnd(4)][rnd(3)], msn: rnd(100) };
          if (op === 18) extra.atomicAckEth = { origData: 1n };
          if (op === 19 || op === 20) extra.atomicEth = { va: u64(), rkey: key, swapAdd: 1n, compare: 2n };
          if (op === 0x64) extra.deth = { qkey: rnd(0x7fffffff), resv8: 0, srcQp: rnd(100) };
          if (op === 22 || op === 23) extra.ieth = key;
          const payload = [12, 17, 18, 19, 20].includes(op) ? 0 : len;
          r.inject(op, psn, extra, payload, rnd(2) === 1);
          if (i % 100 === 99) await new Promise((res) => setImmediate(res));
        }
        await new Promise((res) => setTimeout(res, 50));
        assert.equal(netA.stats.rxClientErrors, 0, 'no packet made the transport throw');
        assert.ok(netA.stats.rxPackets > 0);
        assert.ok([RiQpState.READY_TO_SEND, RiQpState.ERROR].includes(r.a.qp.state));
        if (r.a.qp.state === RiQpState.ERROR) errorsSeen++;
      } finally {
        netA.release();
        await r.close();
      }
    }
    // Hostile requests are NAKed and the QP goes to Error in most rounds.
    assert.ok(errorsSeen > 0);
    // The stack is still sound: a fresh pair moves data.
    const a = makeIbSide('RC');
    const b = makeIbSide('RC');
    const p = await connectPair(a, b, { transport: 'rocev2' });
    try {
      const src = new Uint8Array(5000).fill(3);
      const dst = new Uint8Array(5000);
      const ms = reg(a, src);
      const md = reg(b, dst);
      assert.equal(send(a.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(ms, src)], rtag: md.stag, remoteTo: va(dst), id: 1n }), RiRet.SUCCESS);
      const [w] = await pollN(a.cq, 1);
      assert.equal(w!.op_status, RiWcStatus.SUCCESS);
      assert.deepEqual(dst, src);
    } finally {
      await p.close();
    }
  });
});

describe('RoCEv2 and the link MTU', () => {
  const small = Object.entries(networkInterfaces())
    .flatMap(([, l]) => l ?? [])
    .filter((x) => x.family === 'IPv4')
    .map((x) => x.address)
    .find((addr) => (linkMtuOf(addr) ?? 65536) < 4096 + 40 + 28);
  it('a path MTU the link cannot carry without fragmentation fails INIT→RTR with INVALID_PARAMETER; one that fits binds', {
    skip: small ? false : 'no IPv4 interface with an MTU below 4164',
  }, () => {
    const g = gidOf(small!);
    const rnic = ibRnic('rocev2', { gids: () => [g] });
    const s = makeIbSide('RC', rnic);
    const t = makeIbSide('RC', ibRnic('rocev2', { gids: () => [g] }));
    assert.equal(ibToRts(s.qp, t.qp.id, { pathMtu: 5, dgid: g }), RiRet.INVALID_PARAMETER);
    assert.equal(s.qp.state, RiQpState.INITIALIZED);
    assert.equal(ibToRts(t.qp, s.qp.id, { pathMtu: 3, dgid: g }), RiRet.SUCCESS);
    t.qp.modify({ nextState: RiQpState.ERROR });
  });
});

describe('RoCEv2 with many QPs on one endpoint', () => {
  it('16 RC pairs share the two UDP sockets (dispatch by DestQP): concurrent Sends and Writes land in the right QP', {
    timeout: 60_000,
  }, async () => {
    const pairs: Pair[] = [];
    try {
      const first = await connectPair(makeIbSide('RC'), makeIbSide('RC'), { transport: 'rocev2', pathMtu: 1 });
      pairs.push(first);
      const port = roce(first.a).port;
      // The other pairs on the same RNICs' addresses and port: one socket per address for all.
      for (let i = 1; i < 16; i++) {
        const a = makeIbSide('RC', first.a.rnic);
        const b = makeIbSide('RC', first.b.rnic);
        assert.equal(ibToRts(b.qp, a.qp.id, { pathMtu: 1, dgid: gidOf('127.0.0.1') }), RiRet.SUCCESS);
        assert.equal(ibToRts(a.qp, b.qp.id, { pathMtu: 1, dgid: gidOf('127.0.0.2') }), RiRet.SUCCESS);
        pairs.push({
          a,
          b,
          transport: 'rocev2',
          server: null,
          async close() {
            for (const x of [a, b]) x.qp.modify({ nextState: RiQpState.ERROR });
          },
        });
        assert.equal(roce(a).port, port);
        assert.equal(roce(a).nets[0], roce(first.a).nets[0]);
      }
      const bufs = pairs.map((p, i) => {
        const src = new Uint8Array(3000).fill(i + 1);
        const dst = new Uint8Array(3000);
        const wdst = new Uint8Array(3000);
        const ms = reg(p.a, src);
        const md = reg(p.b, dst);
        const mw = reg(p.b, wdst);
        assert.equal(recv(p.b.qp, BigInt(i), [sge(md, dst)]), RiRet.SUCCESS);
        return { src, dst, wdst, ms, mw };
      });
      pairs.forEach((p, i) => {
        const x = bufs[i]!;
        assert.equal(send(p.a.qp, { type: RiWrType.SEND, sgl: [sge(x.ms, x.src)], id: 1n }), RiRet.SUCCESS);
        assert.equal(
          send(p.a.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(x.ms, x.src)], rtag: x.mw.stag, remoteTo: va(x.wdst), id: 2n }),
          RiRet.SUCCESS,
        );
      });
      for (const [i, p] of pairs.entries()) {
        const wcs = await pollN(p.a.cq, 2);
        assert.ok(wcs.every((w) => w.op_status === RiWcStatus.SUCCESS));
        const [r] = await pollN(p.b.cq, 1);
        assert.equal(r!.id, BigInt(i));
        assert.ok(
          bufs[i]!.dst.every((x) => x === i + 1),
          `pair ${i} Send`,
        );
        assert.ok(
          bufs[i]!.wdst.every((x) => x === i + 1),
          `pair ${i} Write`,
        );
      }
    } finally {
      for (const p of pairs) await p.close();
    }
  });
});

describe('RoCEv2 PSN wrap', () => {
  it('starting 8 PSNs below 2^24: multi-packet Send, Write and Read across the wrap, with loss', async () => {
    const a = makeIbSide('RC');
    const b = makeIbSide('RC');
    const p = await connectPair(a, b, { transport: 'rocev2', pathMtu: 1, ib: { psn: 0xfffff8, timeout: 14 } });
    const port = roce(a).port;
    RoceNet.find('127.0.0.1', port)!.setFaults({ seed: 3, drop: 0.1 });
    RoceNet.find('127.0.0.2', port)!.setFaults({ seed: 4, drop: 0.1 });
    try {
      const src = Uint8Array.from({ length: 20_000 }, (_, i) => (i * 13) & 0xff);
      const ms = reg(a, src);
      const dst = new Uint8Array(20_000);
      const md = reg(b, dst);
      const wdst = new Uint8Array(20_000);
      const mw = reg(b, wdst);
      const back = new Uint8Array(20_000);
      const mk = reg(a, back);
      assert.equal(recv(b.qp, 1n, [sge(md, dst)]), RiRet.SUCCESS);
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(ms, src)], id: 1n }), RiRet.SUCCESS);
      assert.equal(
        send(a.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(ms, src)], rtag: mw.stag, remoteTo: va(wdst), id: 2n }),
        RiRet.SUCCESS,
      );
      assert.equal(
        send(a.qp, { type: RiWrType.RDMA_READ, sgl: [sge(mk, back)], rtag: mw.stag, remoteTo: va(wdst), id: 3n }),
        RiRet.SUCCESS,
      );
      const wcs = await pollN(a.cq, 3, 30_000);
      assert.deepEqual(
        wcs.map((w) => w.op_status),
        [RiWcStatus.SUCCESS, RiWcStatus.SUCCESS, RiWcStatus.SUCCESS],
      );
      assert.deepEqual(dst, src);
      assert.deepEqual(wdst, src);
      assert.deepEqual(back, src);
    } finally {
      RoceNet.find('127.0.0.1', port)?.setFaults(null);
      RoceNet.find('127.0.0.2', port)?.setFaults(null);
      await p.close();
    }
  });
});

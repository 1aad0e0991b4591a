/**
 * Atomics and immediate data on the RoCEv2 transport (IBTA Vol. 1 §9.4.5 COMPARE SWAP and
 * FETCH ADD with their ATOMIC ACKNOWLEDGE, §9.4.1/§9.4.3 ImmDt): results exact, immediates in
 * the receiver's WC, on RC, UC and UD; a misaligned atomic is NAKed 0x61; and under 5 % drop,
 * 1 % duplicate and reordering in both directions, a mix of Writes, Reads, Sends with Immediate
 * and 2,048 Fetch & Adds on one counter ends with every byte right and the counter exact: a
 * retried atomic is answered from the responder's replay ring, never executed twice.
 */
import assert from 'node:assert/strict';
import { randomFillSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiMemFlags, RiQpState, RiWcFlags, RiWcStatus, RiWcType, RiWrType } from '../../src/rnicpi/types.js';
import { AtomicKind, atomicArgs } from '../../src/rnic/atomics.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import { RoceNet } from '../../src/roce/net.js';
import type { RoceQp } from '../../src/roce/transport.js';
import {
  ALL_ACCESS,
  connectPair,
  gidOf,
  type IbPath,
  makeIbSide,
  type Pair,
  pollN,
  recv,
  reg,
  type Side,
  send,
  sge,
} from '../helpers/engine.js';

const va = (b: Uint8Array) => hostMemory.addressOf(b);
const roce = (s: Side) => s.qp.transport as unknown as RoceQp;
const ATOMIC_ACCESS = ALL_ACCESS | RiMemFlags.ATOMICS;
const ACCESS = { read: true, write: true, atomic: true };

async function rc(ib: IbPath = {}, pathMtu = 3): Promise<Pair> {
  const a = makeIbSide('RC');
  const b = makeIbSide('RC');
  return connectPair(a, b, { transport: 'rocev2', pathMtu, ib: { access: ACCESS, ...ib } });
}

const u64 = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0, true);

describe('RoCEv2 atomics and immediate data', () => {
  it('Fetch & Add and Compare & Swap: the original value in the result buffer, the target updated', async () => {
    const p = await rc();
    try {
      const { a, b } = p;
      const mem = new Uint8Array(16);
      new DataView(mem.buffer).setBigUint64(8, 100n, true);
      const mm = reg(b, mem, ATOMIC_ACCESS);
      const res = new Uint8Array(24);
      const rm = reg(a, res);
      assert.equal(
        send(a.qp, {
          type: RiWrType.FETCH_AND_ADD,
          sgl: [sge(rm, res, 0, 8)],
          rtag: mm.stag,
          remoteTo: va(mem) + 8n,
          atomic: atomicArgs(AtomicKind.FETCH_ADD, 8, 5n, 0n),
          id: 1n,
        }),
        RiRet.SUCCESS,
      );
      assert.equal(
        send(a.qp, {
          type: RiWrType.COMPARE_AND_SWAP,
          sgl: [sge(rm, res, 8, 8)],
          rtag: mm.stag,
          remoteTo: va(mem) + 8n,
          atomic: atomicArgs(AtomicKind.COMPARE_SWAP, 8, 105n, 7n),
          id: 2n,
        }),
        RiRet.SUCCESS,
      );
      assert.equal(
        send(a.qp, {
          type: RiWrType.COMPARE_AND_SWAP,
          sgl: [sge(rm, res, 16, 8)],
          rtag: mm.stag,
          remoteTo: va(mem) + 8n,
          atomic: atomicArgs(AtomicKind.COMPARE_SWAP, 8, 999n, 1n),
          id: 3n,
        }),
        RiRet.SUCCESS,
      );
      const wcs = await pollN(a.cq, 3);
      assert.deepEqual(
        wcs.map((w) => [w.id, w.op_status, w.op_type]),
        [
          [1n, RiWcStatus.SUCCESS, RiWcType.FETCH_AND_ADD],
          [2n, RiWcStatus.SUCCESS, RiWcType.COMPARE_AND_SWAP],
          [3n, RiWcStatus.SUCCESS, RiWcType.COMPARE_AND_SWAP],
        ],
      );
      assert.equal(u64(res.subarray(0, 8)), 100n);
      assert.equal(u64(res.subarray(8, 16)), 105n);
      assert.equal(u64(res.subarray(16, 24)), 7n, 'the failed compare returns the current value');
      assert.equal(new DataView(mem.buffer).getBigUint64(8, true), 7n);
    } finally {
      await p.close();
    }
  });

  it('a misaligned atomic is NAKed Invalid Request: REMOTE_INVALID_REQ_ERROR, both QPs in Error, nothing changed', async () => {
    const p = await rc();
    try {
      const { a, b } = p;
      const mem = new Uint8Array(16).fill(9);
      const mm = reg(b, mem, ATOMIC_ACCESS);
      const res = new Uint8Array(8);
      const rm = reg(a, res);
      assert.equal(
        send(a.qp, {
          type: RiWrType.FETCH_AND_ADD,
          sgl: [sge(rm, res)],
          rtag: mm.stag,
          remoteTo: va(mem) + 4n,
          atomic: atomicArgs(AtomicKind.FETCH_ADD, 8, 1n, 0n),
          id: 1n,
        }),
        RiRet.SUCCESS,
      );
      const [w] = await pollN(a.cq, 1);
      assert.equal(w!.op_status, RiWcStatus.REMOTE_INVALID_REQ_ERROR);
      assert.equal(a.qp.state, RiQpState.ERROR);
      assert.equal(b.qp.state, RiQpState.ERROR);
      assert.ok(mem.every((x) => x === 9));
    } finally {
      await p.close();
    }
  });

  it('an atomic without Remote Atomic access is NAKed Remote Access: REMOTE_ACCESS_ERROR, nothing changed', async () => {
    const p = await rc();
    try {
      const { a, b } = p;
      const mem = new Uint8Array(16).fill(9);
      const mm = reg(b, mem, ALL_ACCESS); // Remote Read and Write, no Remote Atomic
      const res = new Uint8Array(8);
      const rm = reg(a, res);
      assert.equal(
        send(a.qp, {
          type: RiWrType.FETCH_AND_ADD,
          sgl: [sge(rm, res)],
          rtag: mm.stag,
          remoteTo: va(mem) + 8n,
          atomic: atomicArgs(AtomicKind.FETCH_ADD, 8, 1n, 0n),
          id: 1n,
        }),
        RiRet.SUCCESS,
      );
      const [w] = await pollN(a.cq, 1);
      assert.equal(w!.op_status, RiWcStatus.REMOTE_ACCESS_ERROR);
      assert.equal(w!.op_type, RiWcType.FETCH_AND_ADD);
      assert.ok(
        mem.every((x) => x === 9),
        'no memory changed',
      );
      assert.ok(
        res.every((x) => x === 0),
        'no result written',
      );
    } finally {
      await p.close();
    }
  });

  it('atomics beyond the responder IRD are NAKed Invalid Request: only the atomic within IRD executes', async () => {
    const p = await rc();
    try {
      const { a, b } = p;
      // A requester that ignores the responder's max_dest_rd_atomic: ORD 8 against IRD 1.
      b.qp.ird = 1;
      a.qp.ord = 8;
      const mem = new Uint8Array(16);
      const mm = reg(b, mem, ATOMIC_ACCESS);
      const res = new Uint8Array(64);
      const rm = reg(a, res);
      // Hold the responder's transmit side so the first atomic's response stays queued.
      const held = b.qp.transport!;
      const kick = held.kick.bind(held);
      held.kick = () => {};
      for (let i = 0; i < 3; i++) {
        assert.equal(
          send(a.qp, {
            type: RiWrType.FETCH_AND_ADD,
            sgl: [sge(rm, res, i * 8, 8)],
            rtag: mm.stag,
            remoteTo: va(mem),
            atomic: atomicArgs(AtomicKind.FETCH_ADD, 8, 1n, 0n),
            id: BigInt(i),
          }),
          RiRet.SUCCESS,
        );
      }
      const wcs = await pollN(a.cq, 3);
      held.kick = kick;
      assert.ok(
        wcs.every((w) => w.op_status !== RiWcStatus.SUCCESS || w.id === 0n),
        'only the first atomic may succeed',
      );
      assert.ok(
        wcs.some((w) => w.op_status === RiWcStatus.REMOTE_INVALID_REQ_ERROR),
        wcs.map((w) => w.op_status).join(','),
      );
      assert.equal(u64(mem), 1n, 'only the atomic within IRD executed');
    } finally {
      await p.close();
    }
  });

  it('Send with Immediate and RDMA Write with Immediate (RC and UC): the immediate in the receiver WC', async () => {
    for (const service of ['RC', 'UC'] as const) {
      const a = makeIbSide(service);
      const b = makeIbSide(service);
      const p = await connectPair(a, b, { transport: 'rocev2', pathMtu: 1 });
      try {
        const src = Uint8Array.from({ length: 700 }, (_, i) => i & 0xff);
        const ms = reg(a, src);
        const rbuf = new Uint8Array(700);
        const rm = reg(b, rbuf);
        const wbuf = new Uint8Array(700);
        const wm = reg(b, wbuf);
        assert.equal(recv(b.qp, 1n, [sge(rm, rbuf)]), RiRet.SUCCESS);
        assert.equal(recv(b.qp, 2n, [sge(rm, rbuf, 0, 0)]), RiRet.SUCCESS);
        assert.equal(send(a.qp, { type: RiWrType.SEND_IMMEDIATE, sgl: [sge(ms, src)], imm: 0xdeadbeef, id: 10n }), RiRet.SUCCESS);
        assert.equal(
          send(a.qp, {
            type: RiWrType.RDMA_WRITE_IMMEDIATE,
            sgl: [sge(ms, src)],
            rtag: wm.stag,
            remoteTo: va(wbuf),
            imm: 0x01020304,
            id: 11n,
          }),
          RiRet.SUCCESS,
        );
        const rw = await pollN(b.cq, 2);
        assert.deepEqual(
          rw.map((w) => [w.id, w.op_status, w.op_type, w.immediate_data, w.bytes_transferred, (w.flags & RiWcFlags.IMMEDIATE_DATA) !== 0]),
          [
            [1n, RiWcStatus.SUCCESS, RiWcType.DATA_RECEIVED, 0xdeadbeef, 700, true],
            [2n, RiWcStatus.SUCCESS, RiWcType.RDMA_IMMEDIATE_RECEIVED, 0x01020304, 700, true],
          ],
          service,
        );
        assert.deepEqual(rbuf, src);
        assert.deepEqual(wbuf, src);
        await pollN(a.cq, 2);
      } finally {
        await p.close();
      }
    }
  });

  it('an RDMA Write with Immediate finding no receive: RNR NAK, and the Write completes once one is posted', async () => {
    const p = await rc({ minRnrTimer: 1 }, 1);
    try {
      const { a, b } = p;
      const src = new Uint8Array(1000).fill(6);
      const ms = reg(a, src);
      const dst = new Uint8Array(1000);
      const md = reg(b, dst);
      assert.equal(
        send(a.qp, { type: RiWrType.RDMA_WRITE_IMMEDIATE, sgl: [sge(ms, src)], rtag: md.stag, remoteTo: va(dst), imm: 77, id: 1n }),
        RiRet.SUCCESS,
      );
      const rb = roce(b);
      while (rb.stats.rnrNaksSent < 3) await new Promise((r) => setTimeout(r, 2));
      assert.equal(recv(b.qp, 5n, [sge(md, dst, 0, 0)]), RiRet.SUCCESS);
      const [w] = await pollN(a.cq, 1);
      assert.equal(w!.op_status, RiWcStatus.SUCCESS);
      const [r] = await pollN(b.cq, 1);
      assert.deepEqual([r!.op_type, r!.immediate_data, r!.bytes_transferred], [RiWcType.RDMA_IMMEDIATE_RECEIVED, 77, 1000]);
      assert.ok(dst.every((x) => x === 6));
    } finally {
      await p.close();
    }
  });

  it('UD Send with Immediate: the immediate with the GRH and the payload', async () => {
    const a = makeIbSide('UD');
    const b = makeIbSide('UD');
    const p = await connectPair(a, b, { transport: 'rocev2' });
    try {
      const buf = new Uint8Array(40 + 100);
      const mb = reg(b, buf);
      assert.equal(recv(b.qp, 1n, [sge(mb, buf)]), RiRet.SUCCESS);
      const src = new Uint8Array(100).fill(4);
      const ms = reg(a, src);
      const av = {
        ...a.qp.ib.av,
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
        send(a.qp, {
          type: RiWrType.SEND_IMMEDIATE,
          sgl: [sge(ms, src)],
          imm: 0xabcd,
          ud: { av, remoteQpn: b.qp.id, remoteQkey: 0x11111111 },
        }),
        RiRet.SUCCESS,
      );
      const [w] = await pollN(b.cq, 1);
      assert.deepEqual(
        [w!.op_status, w!.immediate_data, w!.bytes_transferred, (w!.flags & RiWcFlags.IMMEDIATE_DATA) !== 0],
        [RiWcStatus.SUCCESS, 0xabcd, 140, true],
      );
      assert.ok(buf.subarray(40).every((x) => x === 4));
    } finally {
      await p.close();
    }
  });

  it('under 5 % drop, 1 % duplicate and reordering both ways: 64 MiB of Writes and Reads mixed with Sends with Immediate and 2,048 Fetch & Adds — bytes right, counter exact', {
    timeout: 300_000,
  }, async () => {
    const p = await rc({ timeout: 14 }, 5);
    const port = roce(p.a).port;
    RoceNet.find('127.0.0.1', port)!.setFaults({ seed: 7, drop: 0.05, duplicate: 0.01, reorder: 0.01 });
    RoceNet.find('127.0.0.2', port)!.setFaults({ seed: 8, drop: 0.05, duplicate: 0.01, reorder: 0.01 });
    try {
      const { a, b } = p;
      const SZ = 64 << 20;
      const src = randomFillSync(new Uint8Array(SZ));
      const ms = reg(a, src);
      const bufB = new Uint8Array(SZ);
      const mB = reg(b, bufB);
      const back = new Uint8Array(SZ);
      const mBack = reg(a, back);
      const counter = new Uint8Array(8);
      const mc = reg(b, counter, ATOMIC_ACCESS);
      const FAAS = 2048;
      const results = new Uint8Array(8 * FAAS);
      const mr = reg(a, results);
      const SENDS = 50;
      const rbuf = new Uint8Array(64 * SENDS);
      const mrb = reg(b, rbuf);
      for (let i = 0; i < SENDS; i++) assert.equal(recv(b.qp, BigInt(i), [sge(mrb, rbuf, i * 64, 64)]), RiRet.SUCCESS);
      const CHUNK = 1 << 20;
      // The mix, posted in rounds of at most 16 outstanding: each round a Write chunk, 20 FAAs, a Send with Immediate.
      let posted = 0;
      let done = 0;
      let faa = 0;
      const mixed: (() => RiRet)[] = [];
      for (let i = 0; i < SZ / CHUNK; i++) {
        mixed.push(() =>
          send(a.qp, {
            type: RiWrType.RDMA_WRITE,
            sgl: [sge(ms, src, i * CHUNK, CHUNK)],
            rtag: mB.stag,
            remoteTo: va(bufB) + BigInt(i * CHUNK),
            id: BigInt(1000 + i),
          }),
        );
        for (let k = 0; k < FAAS / (SZ / CHUNK); k++) {
          const slot = faa++;
          mixed.push(() =>
            send(a.qp, {
              type: RiWrType.FETCH_AND_ADD,
              sgl: [sge(mr, results, slot * 8, 8)],
              rtag: mc.stag,
              remoteTo: va(counter),
              atomic: atomicArgs(AtomicKind.FETCH_ADD, 8, 1n, 0n),
              id: BigInt(slot),
            }),
          );
        }
        if (i < SENDS)
          mixed.push(() => send(a.qp, { type: RiWrType.SEND_IMMEDIATE, sgl: [sge(ms, src, i * 64, 64)], imm: i, id: BigInt(5000 + i) }));
      }
      for (let i = 0; i < SZ / CHUNK; i++)
        mixed.push(() =>
          send(a.qp, {
            type: RiWrType.RDMA_READ,
            sgl: [sge(mBack, back, i * CHUNK, CHUNK)],
            rtag: mB.stag,
            remoteTo: va(bufB) + BigInt(i * CHUNK),
            id: BigInt(9000 + i),
          }),
        );
      while (done < mixed.length) {
        while (posted < mixed.length && posted - done < 16) assert.equal(mixed[posted++]!(), RiRet.SUCCESS);
        const wcs = await pollN(a.cq, 1, 120_000);
        for (const w of wcs) assert.equal(w.op_status, RiWcStatus.SUCCESS, `WR ${w.id}: ${RiWcStatus[w.op_status]}`);
        done += wcs.length;
      }
      assert.equal(faa, FAAS);
      assert.equal(new DataView(counter.buffer).getBigUint64(0, true), BigInt(FAAS), 'every Fetch & Add executed exactly once');
      const seen = new Set<bigint>();
      for (let i = 0; i < FAAS; i++) seen.add(u64(results.subarray(i * 8, i * 8 + 8)));
      assert.equal(seen.size, FAAS, 'each Fetch & Add saw a distinct original value');
      assert.ok(Buffer.from(bufB).equals(Buffer.from(src)), 'Write data');
      assert.ok(Buffer.from(back).equals(Buffer.from(src)), 'Read data');
      const rw = await pollN(b.cq, SENDS);
      assert.ok(rw.every((w, i) => w.op_status === RiWcStatus.SUCCESS && w.immediate_data === i));
      for (let i = 0; i < SENDS; i++)
        assert.ok(Buffer.from(rbuf.subarray(i * 64, i * 64 + 64)).equals(Buffer.from(src.subarray(i * 64, i * 64 + 64))));
      assert.ok(roce(a).stats.packetsResent > 0 && roce(b).stats.duplicateRequests > 0);
    } finally {
      RoceNet.find('127.0.0.1', port)?.setFaults(null);
      RoceNet.find('127.0.0.2', port)?.setFaults(null);
      await p.close();
    }
  });
});

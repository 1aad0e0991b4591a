/**
 * Atomics and immediate data on the engine, on every transport of the suites (iWARP
 * over real TCP between two engines, with CRCs on and off, and the in-process loopback):
 * the shared-counter Fetch-and-Add, the Compare-and-Swap lock, Write with Immediate in order
 * with its data, the masked and extended atomics of the manual's §8.7, and the defined errors
 * (misaligned, no Remote Atomic access, beyond IRD) with no memory changed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiMemFlags, RiQpState, RiWcFlags, RiWcStatus, RiWcType, RiWrFlags, RiWrType } from '../../src/rnicpi/types.js';
import { AtomicKind, atomicArgs, executeAtomic, maskedAdd } from '../../src/rnic/atomics.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import { contigTarget } from '../../src/rnic/memory.js';
import type { Qp } from '../../src/rnic/qp.js';
import { Rnic } from '../../src/rnic/rnic.js';
import {
  ALL_ACCESS,
  connectPair,
  makeSide,
  must,
  type Pair,
  pollN,
  recv,
  reg,
  type Side,
  send,
  sge,
  TRANSPORTS,
  termCode,
  until,
} from '../helpers/engine.js';

const ATOMIC_ACCESS = ALL_ACCESS | RiMemFlags.ATOMICS;
const va = (b: Uint8Array) => hostMemory.addressOf(b);
const u64 = (b: Uint8Array, off = 0) => new DataView(b.buffer, b.byteOffset + off, 8).getBigUint64(0, true);

/** A further QP on `s`'s RNIC, PD and CQ (so one MR serves several connections). */
function sideOn(s: Side): Side {
  const qp = must(
    s.rnic.qpCreate({
      pd: s.pd,
      scq: s.cq,
      rcq: s.cq,
      srq: null,
      sqSize: 64,
      rqSize: 64,
      sqMaxSges: 4,
      sqMaxSgesRdmaw: 4,
      rqMaxSges: 4,
      enableRdmaRead: true,
      enableRdmaWrite: true,
      ord: 8,
      ird: 8,
      stag0Enabled: false,
      enableBind: false,
      rqHiwat: 0,
      llpAttrs: { crc: false, recvMarkers: false, xmitMarkers: false, ddpRdmapVersion: 1 },
      osData: 'qp',
    }),
  );
  return { ...s, qp };
}

interface Variant {
  name: string;
  transport: 'iwarp' | 'loopback';
  crc: boolean;
}
const VARIANTS: Variant[] = [];
for (const t of TRANSPORTS) {
  if (t === 'iwarp') VARIANTS.push({ name: 'iwarp crc=off', transport: t, crc: false }, { name: 'iwarp crc=on', transport: t, crc: true });
  else VARIANTS.push({ name: t, transport: t, crc: false });
}

function connect(v: Variant, a: Side, b: Side): Promise<Pair> {
  return connectPair(a, b, { transport: v.transport, mpaA: { crc: v.crc }, mpaB: { crc: v.crc } });
}

function faa(qp: Qp, res: { stag: number; to: bigint; len: number } | null, rtag: number, to: bigint, add: bigint, id = 1n): RiRet {
  return send(qp, {
    type: RiWrType.FETCH_AND_ADD,
    id,
    sgl: res ? [res] : [],
    rtag,
    remoteTo: to,
    atomic: atomicArgs(AtomicKind.FETCH_ADD, 8, add, 0n),
  });
}

function cas(qp: Qp, res: { stag: number; to: bigint; len: number }, rtag: number, to: bigint, cmp: bigint, swap: bigint, id = 1n): RiRet {
  return send(qp, {
    type: RiWrType.COMPARE_AND_SWAP,
    id,
    sgl: [res],
    rtag,
    remoteTo: to,
    atomic: atomicArgs(AtomicKind.COMPARE_SWAP, 8, cmp, swap),
  });
}

describe('atomic executor', () => {
  test('masked Fetch-and-Add keeps carries inside the fields the mask ends', () => {
    // Four 16-bit fields: bits 15, 31, 47 mark field ends (63 is implicit).
    const m = (1n << 15n) | (1n << 31n) | (1n << 47n);
    assert.equal(maskedAdd(0xffff_0001_ffff_0000n, 0x0001_0001_0001_0001n, m), 0x0000_0002_0000_0001n);
    assert.equal(maskedAdd(0xffff_ffff_ffff_ffffn, 1n, 0n), 0n);
  });

  test('masked Compare-and-Swap compares and swaps only under the masks; 16- and 32-octet operands are words in address order', () => {
    const mem = new Uint8Array(32);
    const dv = new DataView(mem.buffer);
    dv.setBigUint64(0, 0x1122_3344_5566_7788n, true);
    const t = contigTarget(mem);
    // Compare only the low 16 bits (0x7788), swap only the high 32 bits.
    const a = atomicArgs(AtomicKind.COMPARE_SWAP, 8, 0xffff_7788n, 0xaabb_ccdd_0000_0000n, 0xffffn, 0xffff_ffff_0000_0000n);
    assert.deepEqual(executeAtomic(t, 0, a), [0x1122_3344_5566_7788n]);
    assert.equal(dv.getBigUint64(0, true), 0xaabb_ccdd_5566_7788n);
    // 32 octets: word 3 (the most significant) does not match, so nothing changes.
    const big = atomicArgs(AtomicKind.COMPARE_SWAP, 32, 1n << 200n, 5n);
    const before = mem.slice();
    executeAtomic(t, 0, big);
    assert.deepEqual(mem, before);
    // A 16-octet Fetch-and-Add: each 64-bit word is its own field (no carry between words).
    dv.setBigUint64(16, 0xffff_ffff_ffff_ffffn, true);
    const orig = executeAtomic(t, 16, atomicArgs(AtomicKind.FETCH_ADD, 16, (2n << 64n) | 1n, 0n));
    assert.deepEqual(orig, [0xffff_ffff_ffff_ffffn, 0n]);
    assert.equal(dv.getBigUint64(16, true), 0n);
    assert.equal(dv.getBigUint64(24, true), 2n);
  });
});

for (const v of VARIANTS) {
  describe(`atomics and immediate data [${v.name}]`, () => {
    test('3 clients × 10,000 Fetch-and-Adds on one shared counter: the final value is exact and every result distinct', {
      timeout: 120_000,
    }, async () => {
      const N = 3;
      const OPS = 10_000;
      const server = makeSide(new Rnic());
      const counter = new Uint8Array(8);
      const cmr = reg(server, counter, ATOMIC_ACCESS);
      const pairs: Pair[] = [];
      try {
        const seen = new Set<bigint>();
        const runs: Promise<void>[] = [];
        for (let c = 0; c < N; c++) {
          const client = makeSide(new Rnic());
          const p = await connect(v, client, c === 0 ? server : sideOn(server));
          pairs.push(p);
          const res = new Uint8Array(8 * 16);
          const rmr = reg(client, res);
          runs.push(
            (async () => {
              let posted = 0;
              let done = 0;
              while (done < OPS) {
                while (posted < OPS && posted - done < 16) {
                  const slot = posted % 16;
                  assert.equal(faa(client.qp, sge(rmr, res, slot * 8, 8), cmr.stag, va(counter), 1n, BigInt(slot)), RiRet.SUCCESS);
                  posted++;
                }
                const wcs = await pollN(client.cq, 1, 20_000);
                for (const wc of wcs) {
                  assert.equal(wc.op_status, RiWcStatus.SUCCESS);
                  assert.equal(wc.op_type, RiWcType.FETCH_AND_ADD);
                  assert.equal(wc.bytes_transferred, 8);
                  const got = u64(res, Number(wc.id) * 8);
                  assert.ok(!seen.has(got), `value ${got} fetched twice`);
                  seen.add(got);
                  done++;
                }
              }
            })(),
          );
        }
        await Promise.all(runs);
        assert.equal(u64(counter), BigInt(N * OPS));
        assert.equal(seen.size, N * OPS);
        assert.equal(server.rnic.counters.atomicsExecuted, N * OPS);
      } finally {
        for (const p of pairs) await p.close();
      }
    });

    test('a Compare-and-Swap lock taken and released 10,000 times by two clients loses no update', { timeout: 180_000 }, async () => {
      const ROUNDS = 5_000;
      const server = makeSide(new Rnic());
      // [lock | protected value], both 8-octet aligned.
      const mem = new Uint8Array(16);
      const smr = reg(server, mem, ATOMIC_ACCESS);
      const lockTo = va(mem);
      const valTo = va(mem) + 8n;
      const pairs: Pair[] = [];
      let taken = 0;
      try {
        const runs: Promise<void>[] = [];
        for (let c = 1; c <= 2; c++) {
          const client = makeSide(new Rnic());
          const p = await connect(v, client, c === 1 ? server : sideOn(server));
          pairs.push(p);
          const buf = new Uint8Array(16);
          const bmr = reg(client, buf);
          const me = BigInt(c);
          runs.push(
            (async () => {
              for (let i = 0; i < ROUNDS; i++) {
                // Acquire: CAS 0 → me until the original value was 0.
                for (;;) {
                  assert.equal(cas(client.qp, sge(bmr, buf, 0, 8), smr.stag, lockTo, 0n, me), RiRet.SUCCESS);
                  const [wc] = await pollN(client.cq, 1, 20_000);
                  assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
                  if (u64(buf) === 0n) break;
                }
                taken++;
                // Critical section: read, increment, write back — a plain read-modify-write.
                assert.equal(
                  send(client.qp, { type: RiWrType.RDMA_READ, sgl: [sge(bmr, buf, 8, 8)], rtag: smr.stag, remoteTo: valTo }),
                  RiRet.SUCCESS,
                );
                await pollN(client.cq, 1, 20_000);
                new DataView(buf.buffer, 8, 8).setBigUint64(0, u64(buf, 8) + 1n, true);
                assert.equal(
                  send(client.qp, { type: RiWrType.RDMA_WRITE, flags: 0, sgl: [sge(bmr, buf, 8, 8)], rtag: smr.stag, remoteTo: valTo }),
                  RiRet.SUCCESS,
                );
                // Release: CAS me → 0 (the Write before it is placed first: same stream, in order).
                assert.equal(cas(client.qp, sge(bmr, buf, 0, 8), smr.stag, lockTo, me, 0n), RiRet.SUCCESS);
                const [rel] = await pollN(client.cq, 1, 20_000);
                assert.equal(rel!.op_status, RiWcStatus.SUCCESS);
                assert.equal(u64(buf), me, 'the lock was ours when released');
              }
            })(),
          );
        }
        await Promise.all(runs);
        assert.equal(taken, 2 * ROUNDS);
        assert.equal(u64(mem, 8), BigInt(2 * ROUNDS), 'no lost update');
        assert.equal(u64(mem, 0), 0n, 'the lock is free');
      } finally {
        for (const p of pairs) await p.close();
      }
    });

    test('RDMA Write with Immediate: each immediate is reported in order, after its data is placed', async () => {
      const a = makeSide(new Rnic());
      const b = makeSide(new Rnic());
      const p = await connect(v, a, b);
      try {
        const N = 40;
        const dst = new Uint8Array(N * 64);
        const dmr = reg(b, dst);
        const rbuf = new Uint8Array(16);
        const rmr = reg(b, rbuf);
        const src = new Uint8Array(N * 64);
        const smr = reg(a, src);
        for (let i = 0; i < N; i++) assert.equal(recv(b.qp, BigInt(i), [sge(rmr, rbuf)]), RiRet.SUCCESS);
        for (let i = 0; i < N; i++) {
          src.fill(i + 1, i * 64, i * 64 + 64);
          const se = i === N - 1 ? RiWrFlags.SOLICITED_EVENT_FLAG : 0;
          const r = send(a.qp, {
            type: RiWrType.RDMA_WRITE_IMMEDIATE,
            flags: RiWrFlags.SIGNALED_FLAG | se,
            id: BigInt(i),
            sgl: [sge(smr, src, i * 64, 64)],
            rtag: dmr.stag,
            remoteTo: va(dst) + BigInt(i * 64),
            imm: 0xc0de_0000 + i,
          });
          assert.equal(r, RiRet.SUCCESS);
        }
        const sent = await pollN(a.cq, N);
        for (const wc of sent) assert.equal(wc.op_type, RiWcType.RDMA_WRITE);
        for (let i = 0; i < N; i++) {
          const [wc] = await pollN(b.cq, 1);
          assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
          assert.equal(wc!.op_type, RiWcType.RDMA_IMMEDIATE_RECEIVED);
          assert.equal(wc!.id, BigInt(i));
          assert.ok(wc!.flags & RiWcFlags.IMMEDIATE_DATA);
          assert.equal(wc!.immediate_data, 0xc0de_0000 + i, 'immediates in order');
          assert.equal(wc!.bytes_transferred, 64);
          // The data of this Write (and of every earlier one) is placed before its completion.
          for (let k = 0; k <= i; k++) assert.equal(dst[k * 64 + 63], k + 1);
          assert.equal((wc!.flags & RiWcFlags.SOLICITED_EVENT) !== 0, i === N - 1);
        }
        assert.deepEqual(rbuf, new Uint8Array(16), 'Write with Immediate places nothing in the receive buffer');
      } finally {
        await p.close();
      }
    });

    test('Send with Immediate delivers the data and the immediate in one receive completion', async () => {
      const a = makeSide(new Rnic());
      const b = makeSide(new Rnic());
      const p = await connect(v, a, b);
      try {
        const rbuf = new Uint8Array(100_000);
        const rmr = reg(b, rbuf);
        assert.equal(recv(b.qp, 7n, [sge(rmr, rbuf)]), RiRet.SUCCESS);
        const src = new Uint8Array(90_000).map((_, i) => i & 0xff);
        const smr = reg(a, src);
        assert.equal(send(a.qp, { type: RiWrType.SEND_IMMEDIATE, sgl: [sge(smr, src)], imm: 0xdead_beef }), RiRet.SUCCESS);
        const [wc] = await pollN(b.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
        assert.equal(wc!.op_type, RiWcType.DATA_RECEIVED);
        assert.equal(wc!.bytes_transferred, 90_000);
        assert.ok(wc!.flags & RiWcFlags.IMMEDIATE_DATA);
        assert.equal(wc!.immediate_data, 0xdead_beef);
        assert.deepEqual(rbuf.subarray(0, 90_000), src);
      } finally {
        await p.close();
      }
    });

    test('masked and extended (16/32-octet) atomics between softrdma peers', async () => {
      const a = makeSide(new Rnic());
      const b = makeSide(new Rnic());
      const p = await connect(v, a, b);
      try {
        const mem = new Uint8Array(64);
        const dv = new DataView(mem.buffer);
        dv.setBigUint64(0, 0x00ff_00ff_00ff_00ffn, true);
        const mmr = reg(b, mem, ATOMIC_ACCESS);
        const res = new Uint8Array(32);
        const rmr = reg(a, res);
        // Masked FAA at 8 octets: four 16-bit counters, each incremented by 0x0101, no carries across.
        const m = (1n << 15n) | (1n << 31n) | (1n << 47n);
        assert.equal(
          send(a.qp, {
            type: RiWrType.FETCH_AND_ADD,
            sgl: [sge(rmr, res, 0, 8)],
            rtag: mmr.stag,
            remoteTo: va(mem),
            atomic: atomicArgs(AtomicKind.FETCH_ADD, 8, 0xff01_ff01_ff01_ff01n, 0n, m),
          }),
          RiRet.SUCCESS,
        );
        await pollN(a.cq, 1);
        assert.equal(u64(res), 0x00ff_00ff_00ff_00ffn);
        assert.equal(dv.getBigUint64(0, true), 0x0000_0000_0000_0000n);
        // 32-octet masked CAS at offset 32: compare all, swap only word 2.
        dv.setBigUint64(32, 1n, true);
        dv.setBigUint64(40, 2n, true);
        dv.setBigUint64(48, 3n, true);
        dv.setBigUint64(56, 4n, true);
        const cmp = (4n << 192n) | (3n << 128n) | (2n << 64n) | 1n;
        const swapMask = ((1n << 64n) - 1n) << 128n;
        assert.equal(
          send(a.qp, {
            type: RiWrType.COMPARE_AND_SWAP,
            sgl: [sge(rmr, res, 0, 32)],
            rtag: mmr.stag,
            remoteTo: va(mem) + 32n,
            atomic: atomicArgs(AtomicKind.COMPARE_SWAP, 32, cmp, 99n << 128n, undefined, swapMask),
          }),
          RiRet.SUCCESS,
        );
        const [wc] = await pollN(a.cq, 1);
        assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
        assert.equal(wc!.bytes_transferred, 32);
        assert.deepEqual([u64(res, 0), u64(res, 8), u64(res, 16), u64(res, 24)], [1n, 2n, 3n, 4n]);
        assert.deepEqual(
          [dv.getBigUint64(32, true), dv.getBigUint64(40, true), dv.getBigUint64(48, true), dv.getBigUint64(56, true)],
          [1n, 2n, 99n, 4n],
        );
      } finally {
        await p.close();
      }
    });

    for (const c of [
      {
        what: 'a misaligned atomic',
        status: RiWcStatus.REMOTE_INVALID_REQ_ERROR,
        term: [0, 2, 0xff],
        setup: (to: bigint) => ({ to: to + 4n, flags: ATOMIC_ACCESS }),
      },
      {
        what: 'an atomic without Remote Atomic access',
        status: RiWcStatus.REMOTE_ACCESS_ERROR,
        term: [0, 1, 2],
        setup: (to: bigint) => ({ to, flags: ALL_ACCESS }),
      },
    ]) {
      test(`${c.what} gets its defined error and changes no memory`, async () => {
        const a = makeSide(new Rnic());
        const b = makeSide(new Rnic());
        const p = await connect(v, a, b);
        try {
          const mem = new Uint8Array(32).fill(0x5a);
          const s = c.setup(va(mem) + 8n);
          const mmr = reg(b, mem, s.flags);
          const res = new Uint8Array(8);
          const rmr = reg(a, res);
          assert.equal(faa(a.qp, sge(rmr, res), mmr.stag, s.to, 1n), RiRet.SUCCESS);
          const [wc] = await pollN(a.cq, 1);
          assert.equal(wc!.op_status, c.status);
          assert.equal(wc!.op_type, RiWcType.FETCH_AND_ADD);
          await until(() => b.qp.state === RiQpState.ERROR, 5000, 'responder in Error');
          assert.deepEqual(termCode(b.qp), c.term);
          assert.ok(
            mem.every((x) => x === 0x5a),
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
    }

    test('atomics beyond the responder IRD: Terminate "too many", the atomic fails and no memory changes', async () => {
      const a = makeSide(new Rnic(), { ord: 8 });
      const b = makeSide(new Rnic(), { ird: 1 });
      const p = await connect(v, a, b);
      try {
        // The MPA exchange may raise IRD (relaxed RFC 6581): force it back to 1 on the responder.
        b.qp.ird = 1;
        a.qp.ord = 8;
        const mem = new Uint8Array(16);
        const mmr = reg(b, mem, ATOMIC_ACCESS);
        const res = new Uint8Array(64);
        const rmr = reg(a, res);
        // Hold the responder's transmit side so the first atomic's response stays queued.
        const held = b.qp.transport!;
        const kick = held.kick.bind(held);
        held.kick = () => {};
        for (let i = 0; i < 3; i++) assert.equal(faa(a.qp, sge(rmr, res, i * 8, 8), mmr.stag, va(mem), 1n, BigInt(i)), RiRet.SUCCESS);
        await until(() => b.qp.state !== RiQpState.READY_TO_SEND, 5000, 'responder terminated');
        held.kick = kick;
        assert.deepEqual(termCode(b.qp), [1, 2, 3]);
        const wcs = await pollN(a.cq, 3);
        assert.ok(
          wcs.every((w) => w.op_status !== RiWcStatus.SUCCESS || w.id === 0n),
          'only the first atomic may succeed',
        );
        assert.ok(wcs.some((w) => w.op_status === RiWcStatus.REMOTE_INVALID_REQ_ERROR || w.op_status === RiWcStatus.WR_FLUSHED_ERROR));
        assert.equal(u64(mem), 1n, 'only the atomic within IRD executed');
      } finally {
        await p.close();
      }
    });
  });
}

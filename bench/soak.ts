/**
 * `npm run soak`: a bounded loopback soak. Lanes of connected RC QP pairs run mixed
 * operations with up to 16 outstanding: Sends carrying a sequence number, RDMA Writes of a
 * pattern into one of 16 slots, RDMA Reads of a slot back (checked against the last Write
 * posted before them), and on RoCEv2 Fetch & Add on a counter. iWARP lanes run over loopback
 * TCP; RoCEv2 lanes over loopback UDP with seeded loss, duplication and reordering both ways.
 * Peers are killed or reset at random (iWARP: the socket destroyed or reset; RoCEv2: the peer QP
 * moved to Error, so the requester's retries run out); a lane then starts a new pair.
 *
 * It reports operations completed, errors by kind (WC status), kills, RSS over time, and what
 * must be zero: Sends lost (a Send that completed successfully but was never received; on
 * iWARP a successful Send means "handed to TCP", so only pairs that ended without a kill
 * count), Sends received twice or out of order, Reads that returned other data than written,
 * and Fetch & Add results that skip or repeat.
 *
 *   node dist/bench/soak.js [--seconds 20 | --minutes 30] [--iwarp 6] [--rocev2 6] [--kill 0.0005] [--seed N]
 *
 * Exit status 1 if anything was lost, duplicated or corrupted, or a lane failed.
 */
import { randomFillSync } from 'node:crypto';
import { parseArgs } from 'node:util';
import { writeHeapSnapshot } from 'node:v8';
import { IwarpConn } from '../src/iwarp/datapath.js';
import { AtomicKind, atomicArgs } from '../src/rnic/atomics.js';
import type { WorkCompletion } from '../src/rnic/cq.js';
import { hostMemory } from '../src/rnic/hostmem.js';
import { RoceNet } from '../src/roce/net.js';
import type { RoceQp } from '../src/roce/transport.js';
import { RiRet } from '../src/rnicpi/status.js';
import { RiMemFlags, RiQpState, RiWcStatus, RiWrType } from '../src/rnicpi/types.js';
import { connectPair, makeIbSide, makeSide, type Pair, recv, reg, type Side, send, sge } from '../test/helpers/engine.js';
import { Rng } from '../test/fuzz/harness.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    minutes: { type: 'string' },
    iwarp: { type: 'string', default: '6' },
    rocev2: { type: 'string', default: '6' },
    kill: { type: 'string', default: '0.0005' },
    seed: { type: 'string', default: String(0x50a6) },
    sample: { type: 'string' },
  },
});
const seconds = values.minutes ? Number(values.minutes) * 60 : Number(values.seconds);
const killP = Number(values.kill);
const seed = Number(values.seed);
const sampleMs = values.sample ? Number(values.sample) * 1000 : seconds > 120 ? 60_000 : 5_000;
const DEPTH = 16;
/**
 * RoCEv2 Local ACK Timeout exponent: 4.096 µs × 2^14 ≈ 67 ms (IBTA "Local ACK Timeout", 9.7.6.1.3).
 * The soak used 10 (≈ 4 ms): on a loaded 2-core machine an event-loop stall of 8 × 4 ms ran a
 * live requester's retries out, which counted as extra RETRY_EXCEEDED completions beside the
 * ones the kills cause. rdma_cm's RoCE default is larger still (a packet life time of 16 + 1,
 * ≈ 0.5 s); 14 keeps a killed pair's retries (7 × 67 ms) short enough for the soak's churn.
 */
const LOCAL_ACK_TIMEOUT = 14;
/** RoCEv2 retry count: 6, so a killed pair runs out (7 retries for ever, as Linux rxe reads it). */
const RETRY_CNT = 6;
const SLOTS = 16;
const SLOT = 4096;
const ALL = RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_READ | RiMemFlags.REMOTE_WRITE;

const totals = {
  ops: { send: 0, write: 0, read: 0, fetchAdd: 0 },
  errors: new Map<string, number>(),
  kills: { iwarp: 0, rocev2: 0 },
  pairs: { iwarp: 0, rocev2: 0 },
  lost: 0,
  duplicated: 0,
  outOfOrder: 0,
  corrupted: 0,
  readsRaced: 0,
  laneFailures: [] as string[],
};
const va = (b: Uint8Array) => hostMemory.addressOf(b);
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

type Kind = 'iwarp' | 'rocev2';

interface Op {
  kind: 'send' | 'write' | 'read' | 'fetchAdd';
  seq?: number;
  slot?: number;
  /** Read and Fetch & Add: the sink or result slot it owns until it completes. */
  own?: number;
  expect?: Uint8Array;
  /** Read: the slot's Write count when it was posted. */
  writes?: number;
}

/** One pair's life: connect, run operations until the deadline or a kill, check, tear down. */
async function incarnation(kind: Kind, rng: Rng, deadline: number): Promise<void> {
  const ib = kind === 'rocev2';
  const a: Side = ib ? makeIbSide('RC', undefined, { sqSize: 64, rqSize: 64 }) : makeSide(undefined, { sqSize: 64, rqSize: 64 });
  const b: Side = ib ? makeIbSide('RC', undefined, { sqSize: 64, rqSize: 64 }) : makeSide(undefined, { sqSize: 64, rqSize: 64 });
  let p: Pair | null = null;
  try {
    p = await connectPair(
      a,
      b,
      ib
        ? {
            transport: 'rocev2',
            pathMtu: 3,
            ib: { timeout: LOCAL_ACK_TIMEOUT, retryCnt: RETRY_CNT, rnrRetry: 7, access: { read: true, write: true, atomic: true } },
          }
        : { transport: 'iwarp' },
    );
    totals.pairs[kind]++;
    if (ib) {
      const port = (a.qp.transport as unknown as RoceQp).port;
      RoceNet.find('127.0.0.1', port)?.setFaults({ seed: rng.u32(), drop: 0.01, duplicate: 0.005, reorder: 0.005 });
      RoceNet.find('127.0.0.2', port)?.setFaults({ seed: rng.u32(), drop: 0.01, duplicate: 0.005, reorder: 0.005 });
    }
    // Sends take their 8-octet sequence number from one of 64 slots of `ssrc` (at most DEPTH in
    // flight); Writes copy from a static random pattern, so no source changes while in flight.
    const src = randomFillSync(new Uint8Array(SLOTS * SLOT));
    const ssrc = new Uint8Array(64 * 64);
    const mSsrc = reg(a, ssrc);
    // Read sinks and atomic result buffers: one slot per operation in flight (a free list).
    const sink = new Uint8Array(DEPTH * SLOT);
    const freeSlots = Array.from({ length: DEPTH }, (_, i) => i);
    const dst = new Uint8Array(SLOTS * SLOT + 8);
    const rbuf = new Uint8Array(DEPTH * 2 * 64);
    const fa = new Uint8Array(8 * DEPTH);
    const mSrc = reg(a, src);
    const mSink = reg(a, sink);
    const mFa = reg(a, fa);
    const mDst = reg(b, dst, ALL | RiMemFlags.ATOMICS);
    const mR = reg(b, rbuf);
    const counterVa = va(dst) + BigInt(SLOTS * SLOT);
    // Receives: 2 × DEPTH slots, reposted as they complete.
    const postRecv = (i: number) => recv(b.qp, BigInt(i), [sge(mR, rbuf, (i % (2 * DEPTH)) * 64, 64)]);
    for (let i = 0; i < 2 * DEPTH; i++) if (postRecv(i) !== RiRet.SUCCESS) throw new Error('post recv');
    let nextRecv = 2 * DEPTH;
    const sent = new Set<number>();
    const got = new Map<number, number>();
    let lastGot = -1;
    let seq = 0;
    const faSeen = new Set<bigint>();
    let faOk = 0;
    const lastWritten: (Uint8Array | null)[] = new Array(SLOTS).fill(null);
    /** Writes posted per slot: a Read raced by a later Write to its slot is not checked. */
    const writes: number[] = new Array(SLOTS).fill(0);
    const ops = new Map<bigint, Op>();
    let id = 0n;
    let killed = false;
    let failed = false;
    const wc: WorkCompletion[] = [];
    const drainB = () => {
      for (let k = b.cq.poll(wc, 64); k > 0; k = b.cq.poll(wc, 64)) {
        for (let i = 0; i < k; i++) {
          const w = wc[i]!;
          if (w.op_status !== RiWcStatus.SUCCESS) continue;
          const at = (Number(w.id) % (2 * DEPTH)) * 64;
          const s = new DataView(rbuf.buffer, rbuf.byteOffset + at, 8).getUint32(0);
          got.set(s, (got.get(s) ?? 0) + 1);
          if (got.get(s)! > 1) totals.duplicated++;
          if (s < lastGot) totals.outOfOrder++;
          lastGot = Math.max(lastGot, s);
          postRecv(nextRecv++);
        }
      }
    };
    const post = (): boolean => {
      const r = rng.int(ib ? 10 : 9);
      const wid = id++;
      let st: RiRet;
      let op: Op;
      if (r < 4) {
        const s = seq++;
        const at = (s % 64) * 64;
        new DataView(ssrc.buffer, ssrc.byteOffset + at, 8).setUint32(0, s);
        op = { kind: 'send', seq: s };
        st = send(a.qp, { type: RiWrType.SEND, id: wid, sgl: [sge(mSsrc, ssrc, at, 8 + rng.int(56))] });
      } else if (r < 6) {
        const slot = rng.int(SLOTS);
        const len = 1 + rng.int(SLOT);
        const from = rng.int(src.length - len + 1);
        const data = src.subarray(from, from + len);
        const full = dst.slice(slot * SLOT, slot * SLOT + SLOT);
        const prev = lastWritten[slot];
        if (prev) full.set(prev);
        full.set(data);
        lastWritten[slot] = full;
        op = { kind: 'write', slot };
        writes[slot]!++;
        st = send(a.qp, {
          type: RiWrType.RDMA_WRITE,
          id: wid,
          sgl: [sge(mSrc, src, from, len)],
          rtag: mDst.stag,
          remoteTo: va(dst) + BigInt(slot * SLOT),
        });
      } else if (r < 9) {
        const slot = rng.int(SLOTS);
        const own = freeSlots.pop()!;
        op = { kind: 'read', slot, own, writes: writes[slot]!, expect: lastWritten[slot] ?? dst.slice(slot * SLOT, slot * SLOT + SLOT) };
        st = send(a.qp, {
          type: RiWrType.RDMA_READ,
          id: wid,
          sgl: [sge(mSink, sink, own * SLOT, SLOT)],
          rtag: mDst.stag,
          remoteTo: va(dst) + BigInt(slot * SLOT),
        });
      } else {
        const own = freeSlots.pop()!;
        op = { kind: 'fetchAdd', own };
        st = send(a.qp, {
          type: RiWrType.FETCH_AND_ADD,
          id: wid,
          sgl: [sge(mFa, fa, own * 8, 8)],
          rtag: mDst.stag,
          remoteTo: counterVa,
          atomic: atomicArgs(AtomicKind.FETCH_ADD, 8, 1n, 0n),
        });
      }
      if (st !== RiRet.SUCCESS) return false;
      ops.set(wid, op);
      return true;
    };
    while (Date.now() < deadline && !failed) {
      while (ops.size < DEPTH && !failed) {
        if (!post()) {
          failed = true;
          break;
        }
      }
      if (!killed && rng.u32() / 2 ** 32 < killP * DEPTH) {
        killed = true;
        totals.kills[kind]++;
        if (ib) b.qp.modify({ nextState: RiQpState.ERROR });
        else {
          const c = (rng.int(2) ? a : b).qp.transport as IwarpConn | null;
          if (c instanceof IwarpConn) {
            if (rng.int(2)) c.socket.destroy();
            else c.socket.resetAndDestroy();
          }
        }
      }
      await new Promise((r) => setImmediate(r));
      drainB();
      for (let k = a.cq.poll(wc, 64); k > 0; k = a.cq.poll(wc, 64)) {
        for (let i = 0; i < k; i++) {
          const w = wc[i]!;
          const op = ops.get(w.id);
          ops.delete(w.id);
          if (!op) continue;
          if (op.own !== undefined) freeSlots.push(op.own);
          if (w.op_status !== RiWcStatus.SUCCESS) {
            bump(totals.errors, `${kind} ${RiWcStatus[w.op_status] ?? w.op_status}`);
            failed = true;
            continue;
          }
          totals.ops[op.kind]++;
          if (op.kind === 'send') sent.add(op.seq!);
          else if (op.kind === 'read') {
            const got2 = sink.subarray(op.own! * SLOT, op.own! * SLOT + SLOT);
            // A Read Response may reflect a Write posted after the Read (RFC 5040 §5.5 leaves
            // Read/Write ordering to a Read Fence): only Reads no later Write raced are checked.
            if (writes[op.slot!] !== op.writes) totals.readsRaced++;
            else if (!Buffer.from(got2).equals(Buffer.from(op.expect!))) {
              totals.corrupted++;
              if (process.env.SOAK_DEBUG && totals.corrupted < 4) {
                let d = 0;
                while (d < SLOT && got2[d] === op.expect![d]) d++;
                console.error(
                  `${kind} read slot ${op.slot} differs at ${d}: got ${got2[d]} want ${op.expect![d]} (dst ${dst[op.slot! * SLOT + d]})`,
                );
              }
            }
          } else if (op.kind === 'fetchAdd') {
            // The original value, in host (little-endian) order as a C program reads it.
            const orig = new DataView(fa.buffer, fa.byteOffset + op.own! * 8, 8).getBigUint64(0, true);
            if (faSeen.has(orig)) totals.duplicated++;
            faSeen.add(orig);
            faOk++;
          }
        }
      }
      if (failed) break;
    }
    // Drain: let what is in flight finish (or flush), then account.
    const until = Date.now() + 5000;
    while (ops.size > 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 2));
      drainB();
      for (let k = a.cq.poll(wc, 64); k > 0; k = a.cq.poll(wc, 64)) {
        for (let i = 0; i < k; i++) {
          const w = wc[i]!;
          const op = ops.get(w.id);
          ops.delete(w.id);
          if (!op) continue;
          if (op.own !== undefined) freeSlots.push(op.own);
          if (w.op_status === RiWcStatus.SUCCESS) {
            totals.ops[op.kind]++;
            if (op.kind === 'send') sent.add(op.seq!);
          } else bump(totals.errors, `${kind} ${RiWcStatus[w.op_status] ?? w.op_status}`);
        }
      }
    }
    await new Promise((r) => setTimeout(r, 20));
    drainB();
    // Lost: completed Sends never received. On iWARP a success means "taken by TCP": a killed
    // pair may lose what TCP held, so only unkilled iWARP pairs count.
    if (ib || !killed) for (const s of sent) if (!got.has(s)) totals.lost++;
    if (ib && faOk > 0 && !killed) {
      // Fetch & Add results: 0 … n−1 each once (repeats are counted as they come).
      for (let i = 0n; i < BigInt(faSeen.size); i++) {
        if (!faSeen.has(i)) {
          totals.corrupted++;
          if (process.env.SOAK_DEBUG) console.error(`fetch&add gap at ${i} of ${faSeen.size}: ${[...faSeen].sort().slice(0, 8).join(',')}`);
        }
      }
    }
  } catch (e) {
    totals.laneFailures.push(`${kind}: ${String(e)}`);
  } finally {
    await p?.close();
    a.rnic.close();
    b.rnic.close();
  }
}

async function lane(kind: Kind, n: number, deadline: number): Promise<void> {
  const rng = new Rng(seed + n * 7919 + (kind === 'rocev2' ? 1 : 0));
  while (Date.now() < deadline) await incarnation(kind, rng, deadline);
}

const t0 = Date.now();
const deadline = t0 + seconds * 1000;
const mib = (x: number) => (x / 1048576).toFixed(1);
const rssLog: { t: number; rss: number }[] = [];
/** With `node --expose-gc` (as `npm run soak` runs it) each sample follows a full GC, so RSS and heap are what is live. */
const gc = (globalThis as { gc?: () => void }).gc;
const sample = () => {
  gc?.();
  const m = process.memoryUsage();
  if (process.env.SOAK_HEAPSNAP)
    writeHeapSnapshot(`${process.env.SOAK_HEAPSNAP}/soak-${String(Math.round((Date.now() - t0) / 1000)).padStart(5, '0')}.heapsnapshot`);
  const t = Math.round((Date.now() - t0) / 1000);
  rssLog.push({ t, rss: m.rss });
  const o = totals.ops;
  console.log(
    `t=${String(t).padStart(5)}s  ops ${String(o.send + o.write + o.read + o.fetchAdd).padStart(9)}  pairs ${totals.pairs.iwarp + totals.pairs.rocev2}  kills ${totals.kills.iwarp + totals.kills.rocev2}  rss ${mib(m.rss)} MiB  heap ${mib(m.heapUsed)} MiB  external ${mib(m.external)} MiB (array buffers ${mib(m.arrayBuffers)})  pins ${hostMemory.stats().pins}`,
  );
};
console.log(
  `soak: ${seconds} s, ${values.iwarp} iWARP + ${values.rocev2} RoCEv2 lanes (2 QPs each, ${DEPTH} outstanding), kill probability ${killP} per operation, RoCEv2 loss 1 %, dup 0.5 %, reorder 0.5 %, seed ${seed}`,
);
sample();
const timer = setInterval(sample, sampleMs);
const lanes: Promise<void>[] = [];
for (let i = 0; i < Number(values.iwarp); i++) lanes.push(lane('iwarp', i, deadline));
for (let i = 0; i < Number(values.rocev2); i++) lanes.push(lane('rocev2', i, deadline));
await Promise.all(lanes);
clearInterval(timer);
sample();
const o = totals.ops;
console.log('--- soak report');
console.log(
  `operations completed: ${o.send + o.write + o.read + o.fetchAdd} (send ${o.send}, write ${o.write}, read ${o.read} of which ${o.read - totals.readsRaced} checked byte for byte, fetch&add ${o.fetchAdd})`,
);
console.log(
  `pairs: iWARP ${totals.pairs.iwarp}, RoCEv2 ${totals.pairs.rocev2}; kills/resets: iWARP ${totals.kills.iwarp}, RoCEv2 ${totals.kills.rocev2}`,
);
console.log(
  `errors by kind: ${
    [...totals.errors]
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || 'none'
  }`,
);
// Drift is measured in the steady state: from the first sample at a tenth of the run (as
// rss-mem's warm-up: V8's heap, malloc's arenas and the binary's code pages reach their working
// size in the first minutes) to the last sample taken while the lanes ran. The sample after
// teardown is printed apart: it catches the closing pairs' buffers at one instant.
const during = rssLog.slice(0, -1);
const r0 = during.find((x) => x.t >= seconds / 10) ?? during[0] ?? rssLog[0]!;
const r1 = during[during.length - 1] ?? rssLog[rssLog.length - 1]!;
const after = rssLog[rssLog.length - 1]!;
const peak = Math.max(...during.filter((x) => x.t >= r0.t).map((x) => x.rss));
console.log(`rss: ${rssLog.map((x) => `${x.t}s ${mib(x.rss)}`).join(' | ')} MiB`);
console.log(
  `rss after warm-up (${r0.t}s) ${mib(r0.rss)} MiB, peak ${mib(peak)} MiB, end of run (${r1.t}s) ${mib(r1.rss)} MiB, drift ${(((r1.rss - r0.rss) / r0.rss) * 100).toFixed(1)} %; after teardown ${mib(after.rss)} MiB${gc ? ' (each sample after a full GC)' : ' (no --expose-gc: samples include garbage)'}`,
);
console.log(
  `lost ${totals.lost}, duplicated ${totals.duplicated}, out of order ${totals.outOfOrder}, corrupted ${totals.corrupted}, lane failures ${totals.laneFailures.length}`,
);
for (const f of totals.laneFailures.slice(0, 5)) console.log(`  lane failure: ${f}`);
const bad = totals.lost + totals.duplicated + totals.outOfOrder + totals.corrupted + totals.laneFailures.length;
console.log(bad ? 'soak: FAILED' : 'soak: ok');
process.exit(bad ? 1 : 0);

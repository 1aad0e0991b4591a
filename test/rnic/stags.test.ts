/**
 * Issue 17 finding 4: STags are neither predictable nor mappable. A registration gets a random
 * key (when the Consumer does not own the key) and an index drawn at random from the 24-bit
 * space, so one advertised STag gives away nothing about the others (RFC 5040 §8; RDMA Protocol
 * Verbs §7.2 "Implementation Note"). Before, keys came from a rolling counter and indices were
 * handed out round robin: rping's three MRs had consecutive indices and keys.
 *
 * Whether a valid STag of another Protection Domain is distinguishable from a free one is
 * tested on the wire in attacks.test.ts (both answer "Invalid STag").
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hostMemory } from '../../src/rnic/hostmem.js';
import { MemKind, MemObject, STAG_INDEX_MAX, StagTable } from '../../src/rnic/memory.js';
import { mrReg, mwAlloc } from '../../src/rnic/memops.js';
import { Rnic } from '../../src/rnic/rnic.js';
import { RiMemFlags, RiMwType } from '../../src/rnicpi/types.js';
import { verbs as v } from '../../src/verbs/index.js';
import { must } from '../helpers/engine.js';

/** Differences between consecutive values, modulo `mod`. */
const steps = (xs: readonly number[], mod: number) => xs.slice(1).map((x, i) => (x - xs[i]! + mod) % mod);

test('stags: consecutive registrations get unrelated indices and keys (finding 4)', () => {
  const rnic = new Rnic();
  const pd = must(rnic.pdAlloc(null));
  const buf = new Uint8Array(64);
  const va = hostMemory.addressOf(buf);
  const objs = Array.from({ length: 64 }, () =>
    must(mrReg(rnic, { va, length: 64, flags: RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_WRITE, pd, key: 0 }, null)),
  );
  const idx = objs.map((o) => o.index);
  const keys = objs.map((o) => o.key);
  assert.ok(
    idx.every((i) => i > 0 && i <= STAG_INDEX_MAX),
    'index 0 is never issued',
  );
  // A rolling counter gives steps of 1 (or one repeated step); random draws give (almost) all different steps.
  assert.ok(
    new Set(steps(idx, STAG_INDEX_MAX + 1)).size > 48,
    `index steps ${steps(idx, STAG_INDEX_MAX + 1)
      .slice(0, 8)
      .join(',')}…`,
  );
  assert.ok(new Set(steps(keys, 256)).size > 16, `key steps ${steps(keys, 256).slice(0, 8).join(',')}…`);
  // Spread over the space, not a window near one random start.
  assert.ok(Math.max(...idx) - Math.min(...idx) > 1 << 22, 'indices cover the 24-bit space');
  rnic.close();
});

test('stags: Memory Windows also get random indices and keys', () => {
  const rnic = new Rnic();
  const pd = must(rnic.pdAlloc(null));
  const mws = Array.from({ length: 32 }, () => must(mwAlloc(rnic, pd, RiMwType.TYPE_NARROW, null)));
  assert.ok(
    new Set(
      steps(
        mws.map((m) => m.index),
        STAG_INDEX_MAX + 1,
      ),
    ).size > 24,
  );
  assert.ok(
    new Set(
      steps(
        mws.map((m) => m.key),
        256,
      ),
    ).size > 8,
  );
  rnic.close();
});

test('stags: rping-style MRs through the verbs: one advertised rkey does not give away the next', () => {
  const list = v.ibv_get_device_list()!;
  const ctx = v.ibv_open_device(list[0]!)!;
  v.ibv_free_device_list(list);
  const pd = v.ibv_alloc_pd(ctx)!;
  const bufs = [new Uint8Array(64), new Uint8Array(64), new Uint8Array(64)];
  const rkeys: number[] = [];
  for (let round = 0; round < 8; round++) {
    const mrs = bufs.map((b) => v.ibv_reg_mr(pd, b, b.length, 1 | 2 | 4)!);
    rkeys.push(...mrs.map((m) => m.rkey));
    for (const m of mrs) assert.equal(v.ibv_dereg_mr(m), 0);
  }
  // Consecutive rkeys: neither index+1 nor key+1 (the old allocator's pattern).
  const related = rkeys.slice(1).filter((k, i) => k >>> 8 === (rkeys[i]! >>> 8) + 1 || (k & 0xff) === ((rkeys[i]! + 1) & 0xff)).length;
  assert.ok(related < 4, `${related} of ${rkeys.length - 1} consecutive rkeys are related`);
  assert.equal(v.ibv_dealloc_pd(pd), 0);
  assert.equal(v.ibv_close_device(ctx), 0);
});

test('stags: the table skips index 0 and taken indices, and refuses beyond its limit', () => {
  const draws = [0, 5, 5, 0x1_000_005, 7];
  let k = 0;
  const t = new StagTable(3, () => draws[k++ % draws.length]!);
  const pd = { users: 0, destroyed: false, id: 1, osData: null };
  const mk = () => new MemObject(MemKind.MR, pd, null);
  const a = mk();
  const b = mk();
  const c = mk();
  assert.ok(t.insert(a));
  assert.equal(a.index, 5, '0 is skipped');
  assert.ok(t.insert(b));
  // 0 again, then 5 (taken), then 0x1000005 masks to 5 (taken), then 7.
  assert.equal(b.index, 7);
  assert.ok(t.insert(c));
  assert.ok(c.index !== 0 && c.index !== 5 && c.index !== 7);
  assert.equal(t.insert(mk()), false, 'full');
  t.remove(b);
  assert.equal(t.byStagIndex((7 << 8) | b.key), undefined);
  // A source that only ever draws taken indices still finds the free one after them.
  const t2 = new StagTable(10, () => 9);
  const x = mk();
  const y = mk();
  assert.ok(t2.insert(x) && t2.insert(y));
  assert.deepEqual([x.index, y.index], [9, 10]);
});

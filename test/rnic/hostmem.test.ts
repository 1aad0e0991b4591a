/**
 * Issue 17 finding 3: registered memory is given back. Deregistration and PD deallocation
 * release everything registration took: the address space holds a buffer strongly only while
 * a pin covers it, so once the consumer drops a deregistered buffer the garbage collector takes
 * it and its address range is reused. Before the fix every buffer ever registered stayed
 * reachable from the address space (300 MiB resident after 300 × 1 MiB reg/dereg).
 *
 * The collector is asked to run (`gc` exposed through V8's flags); the checks loop over a
 * bounded number of collections, never over time.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { HOST_PAGE_SIZE, HostMemory, hostMemory } from '../../src/rnic/hostmem.js';
import { mrDereg, mrReg } from '../../src/rnic/memops.js';
import { Rnic } from '../../src/rnic/rnic.js';
import { RiMemFlags } from '../../src/rnicpi/types.js';
import { verbs as v } from '../../src/verbs/index.js';
import { must } from '../helpers/engine.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Collects until `done()` holds, at most 20 full collections with a turn of the loop between. */
async function collectUntil(done: () => boolean): Promise<boolean> {
  for (let i = 0; i < 20; i++) {
    // A timer turn, not an immediate: WeakRef targets dereferenced in a job stay alive until the
    // job's microtask checkpoint, and finalizers run in a later task.
    await new Promise((r) => setTimeout(r, 0));
    gc();
    await new Promise((r) => setTimeout(r, 0));
    if (done()) return true;
  }
  return done();
}

/** Registers and deregisters `n` fresh 1 MiB buffers through the verbs, each in its own PD; returns weak references to them. */
function regDeregCycles(ctx: NonNullable<ReturnType<typeof v.ibv_open_device>>, n: number, each?: () => void): WeakRef<ArrayBufferLike>[] {
  const refs: WeakRef<ArrayBufferLike>[] = [];
  for (let i = 0; i < n; i++) {
    const pd = v.ibv_alloc_pd(ctx)!;
    const buf = new Uint8Array(1 << 20);
    refs.push(new WeakRef(buf.buffer));
    const mr = v.ibv_reg_mr(pd, buf, buf.length, 1 /* LOCAL_WRITE */)!;
    assert.ok(mr);
    each?.();
    assert.equal(v.ibv_dereg_mr(mr), 0);
    assert.equal(v.ibv_dealloc_pd(pd), 0);
  }
  return refs;
}

function openCtx() {
  const list = v.ibv_get_device_list()!;
  const ctx = v.ibv_open_device(list[0]!)!;
  v.ibv_free_device_list(list);
  return ctx;
}

test('hostmem: buffers registered and deregistered through ibv_reg_mr/ibv_dereg_mr/ibv_dealloc_pd are collected (finding 3)', async () => {
  const ctx = openCtx();
  const refs = regDeregCycles(ctx, 8);
  const gone = await collectUntil(() => refs.every((r) => r.deref() === undefined));
  assert.ok(gone, `${refs.filter((r) => r.deref()).length} of ${refs.length} deregistered buffers are still reachable`);
  assert.equal(v.ibv_close_device(ctx), 0);
});

test("hostmem: a registration pins its buffer, deregistration unpins it, and the dropped buffer's place is removed", async () => {
  const ctx = openCtx();
  const before = hostMemory.stats();
  regDeregCycles(ctx, 4, () =>
    assert.equal(hostMemory.stats().pinnedRegions, before.pinnedRegions + 1, 'the registration pins its buffer'),
  );
  assert.equal(hostMemory.stats().pinnedRegions, before.pinnedRegions, 'deregistration unpins it');
  assert.equal(hostMemory.stats().pins, before.pins);
  assert.ok(await collectUntil(() => hostMemory.stats().regions <= before.regions), 'their places in the address space are removed');
  assert.equal(v.ibv_close_device(ctx), 0);
});

test('hostmem: closing the RNIC releases the pins of the registrations it still had', async () => {
  const rnic = new Rnic();
  const pd = must(rnic.pdAlloc(null));
  const refs: WeakRef<ArrayBufferLike>[] = [];
  const before = hostMemory.stats().pinnedRegions;
  (() => {
    for (let i = 0; i < 4; i++) {
      const buf = new Uint8Array(65536);
      refs.push(new WeakRef(buf.buffer));
      must(mrReg(rnic, { va: hostMemory.addressOf(buf), length: buf.length, flags: RiMemFlags.LOCAL_WRITE, pd, key: 0 }, null));
    }
  })();
  assert.equal(hostMemory.stats().pinnedRegions, before + 4);
  rnic.close();
  assert.equal(hostMemory.stats().pinnedRegions, before);
  assert.equal(rnic.stags.size, 0);
  assert.ok(
    await collectUntil(() => refs.every((r) => r.deref() === undefined)),
    `${refs.filter((r) => r.deref()).length} buffers of a closed RNIC are still reachable`,
  );
});

test('hostmem: a buffer the consumer still holds keeps its address after deregistration; registered again, it is the same memory', () => {
  const rnic = new Rnic();
  const pd = must(rnic.pdAlloc(null));
  const buf = new Uint8Array(10000);
  const va = hostMemory.addressOf(buf);
  const mr = must(mrReg(rnic, { va, length: buf.length, flags: RiMemFlags.LOCAL_WRITE, pd, key: 0 }, null));
  assert.equal(mrDereg(rnic, mr), 0);
  assert.equal(mr.target, null, 'a deregistered object keeps no view of the memory');
  assert.equal(hostMemory.addressOf(buf), va);
  assert.equal(hostMemory.addressOf(buf.subarray(100)), va + 100n);
  const r = hostMemory.resolve(va + 5n, 10)!;
  buf[5] = 0x5a;
  assert.equal(r.region.bytes[r.offset], 0x5a);
  rnic.close();
});

test('hostmem: the address range of a collected buffer is reused; pins hold a buffer the consumer dropped', async () => {
  const mem = new HostMemory();
  let va1 = 0n;
  (() => {
    va1 = mem.addressOf(new Uint8Array(3 * HOST_PAGE_SIZE));
  })();
  // A pinned buffer survives although nothing else references it.
  let pinnedVa = 0n;
  (() => {
    const b = new Uint8Array(HOST_PAGE_SIZE);
    b[7] = 7;
    pinnedVa = mem.addressOf(b);
    assert.ok(mem.pin(pinnedVa, 16));
  })();
  assert.ok(await collectUntil(() => mem.stats().regions === 1), 'the unpinned, dropped buffer was not removed');
  assert.equal(mem.resolve(va1, 1), null);
  assert.equal(mem.resolve(pinnedVa + 7n, 1)!.region.bytes[7], 7);
  // The freed range (3 pages + guard) takes a buffer of up to that size again.
  const again = new Uint8Array(2 * HOST_PAGE_SIZE);
  assert.equal(mem.addressOf(again), va1);
  assert.ok(mem.unpin(pinnedVa, 16));
  assert.equal(mem.stats().pinnedRegions, 0);
});

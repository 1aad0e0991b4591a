/**
 * Issue 17 finding 3: is registered memory given back? Runs register/deregister cycles through
 * the verbs (`ibv_alloc_pd`, `ibv_reg_mr` of a fresh buffer, `ibv_dereg_mr`, `ibv_dealloc_pd`
 * every `--pd-every` cycles) and samples the resident set size. The buffers are dropped after
 * deregistration, as a server that registers per connection drops them; the process's RSS must
 * stay flat (within 10 % of the RSS after the warm-up, the first tenth of the cycles).
 *
 *   node --expose-gc dist/bench/rss-mem.js [--cycles 100000] [--size 65536] [--pd-every 1] [--samples 10] [--gc-every 1000]
 *
 * Not a timing test: it reports RSS only. With `--expose-gc` a full collection runs every
 * `--gc-every` cycles (0: never) and before each sample, so that the figures are the live set
 * plus a bounded amount of garbage, not whatever the collector has not reached yet (freed
 * ArrayBuffer memory stays in malloc's arenas, so RSS keeps the high-water mark of garbage).
 * Exit status 1 if the final RSS is more than 10 % above the warm-up RSS.
 */
import { parseArgs } from 'node:util';
import { hostMemory } from '../src/rnic/hostmem.js';
import { verbs as v } from '../src/verbs/index.js';

const { values } = parseArgs({
  options: {
    cycles: { type: 'string', default: '100000' },
    size: { type: 'string', default: '65536' },
    'pd-every': { type: 'string', default: '1' },
    samples: { type: 'string', default: '10' },
    'gc-every': { type: 'string', default: '1000' },
  },
});
const cycles = Number(values.cycles);
const size = Number(values.size);
const pdEvery = Math.max(1, Number(values['pd-every']));
const samples = Math.max(2, Number(values.samples));
const gc = (globalThis as { gc?: () => void }).gc;
const gcEvery = Math.max(0, Number(values['gc-every']));

const list = v.ibv_get_device_list();
if (!list?.length) throw new Error('no softrdma device');
const ctx = v.ibv_open_device(list[0]!)!;
v.ibv_free_device_list(list);

const mib = (n: number) => (n / 1048576).toFixed(1);
async function sample(label: string): Promise<number> {
  if (gc) {
    // Let finalizers of collected buffers run, then measure the live set.
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 0));
      gc();
    }
  }
  const m = process.memoryUsage();
  const h = hostMemory.stats();
  console.log(
    `${label.padEnd(16)} rss ${mib(m.rss).padStart(7)} MiB  heap ${mib(m.heapUsed).padStart(6)} MiB  arrayBuffers ${mib(m.arrayBuffers).padStart(7)} MiB  regions ${String(h.regions).padStart(5)}  pinned ${h.pinnedRegions}`,
  );
  return m.rss;
}

let pd = v.ibv_alloc_pd(ctx)!;
const step = Math.max(1, Math.floor(cycles / samples));
const warm = Math.max(1, Math.floor(cycles / 10));
let base = 0;
console.log(
  `rss-mem: ${cycles} cycles of ibv_reg_mr/ibv_dereg_mr of a fresh ${size}-octet buffer, a new PD every ${pdEvery}; gc ${gc ? 'exposed' : 'not exposed (run with --expose-gc for live-set figures)'}`,
);
await sample('start');
for (let i = 1; i <= cycles; i++) {
  const buf = new Uint8Array(size);
  buf[0] = i & 0xff;
  const mr = v.ibv_reg_mr(pd, buf, size, 1 /* IBV_ACCESS_LOCAL_WRITE */);
  if (!mr) throw new Error(`ibv_reg_mr failed at cycle ${i}`);
  if (v.ibv_dereg_mr(mr) !== 0) throw new Error(`ibv_dereg_mr failed at cycle ${i}`);
  if (i % pdEvery === 0) {
    if (v.ibv_dealloc_pd(pd) !== 0) throw new Error(`ibv_dealloc_pd failed at cycle ${i}`);
    pd = v.ibv_alloc_pd(ctx)!;
  }
  if (i === warm) base = await sample(`after ${i}`);
  else if (i % step === 0) await sample(`after ${i}`);
  else if (i % 1000 === 0) await new Promise((r) => setImmediate(r));
  // The collector's own pace decides how much garbage waits in malloc between collections, and
  // glibc keeps the high-water mark resident; collecting at a fixed pace measures what the
  // stack retains, not how lazy the collector was.
  if (gc && gcEvery > 0 && i % gcEvery === 0) gc();
}
v.ibv_dealloc_pd(pd);
const end = await sample('end');
v.ibv_close_device(ctx);
const growth = (end - base) / base;
console.log(`rss after warm-up ${mib(base)} MiB, at the end ${mib(end)} MiB: ${(growth * 100).toFixed(1)} % (limit 10 %)`);
process.exit(growth > 0.1 ? 1 : 0);

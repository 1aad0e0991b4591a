/**
 * `npm run fuzz`: every wire decoder with 10^6 inputs, and 10^5 mutated streams against a live
 * engine per transport (iWARP, RoCEv2); see harness.ts. Prints inputs per target, accepted and
 * rejected counts, crashes and throughput; an input that crashes is shrunk and kept under
 * test/fuzz/regressions (the seeded slice in `npm test` replays every kept case).
 *
 *   node dist/test/fuzz/main.js [--runs 1000000] [--streams 100000] [--seed N] [--only name,…]
 *
 * Exit status 1 if anything crashed.
 */
import { parseArgs } from 'node:util';
import { DECODERS, fuzzDecoder, fuzzIwarpStreams, fuzzRoceStreams } from './harness.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000000' },
    streams: { type: 'string', default: '100000' },
    seed: { type: 'string', default: String(0x17f022) },
    only: { type: 'string', default: '' },
  },
});
const runs = Number(values.runs);
const streams = Number(values.streams);
const seed = Number(values.seed);
const only = values.only ? values.only.split(',') : null;
const want = (n: string) => !only || only.some((o) => n.includes(o));

let crashes = 0;
const t0 = Date.now();
console.log(`fuzz: seed ${seed}, ${runs} inputs per decoder, ${streams} streams per transport`);
console.log(
  `${'target'.padEnd(28)} ${'inputs'.padStart(9)} ${'accepted'.padStart(9)} ${'rejected'.padStart(9)} ${'crashes'.padStart(7)} ${'inputs/s'.padStart(9)}`,
);
for (const t of DECODERS) {
  if (!want(t.name)) continue;
  const r = fuzzDecoder(t, runs, seed);
  crashes += r.crashes;
  console.log(
    `${r.name.padEnd(28)} ${String(r.runs).padStart(9)} ${String(r.accepted).padStart(9)} ${String(r.rejected).padStart(9)} ${String(r.crashes).padStart(7)} ${String(Math.round((r.runs * 1000) / Math.max(1, r.ms))).padStart(9)}`,
  );
  if (r.crashes) console.log(`  CRASH ${r.error}\n  input ${r.counterexample} (kept in test/fuzz/regressions)`);
}
for (const [name, f] of [
  ['live iwarp', fuzzIwarpStreams],
  ['live rocev2', fuzzRoceStreams],
] as const) {
  if (!want(name)) continue;
  const r = await f(streams, seed);
  crashes += r.crashes;
  console.log(
    `${`${name} (streams)`.padEnd(28)} ${String(r.streams).padStart(9)} ${`${r.units} units`.padStart(19)} ${String(r.crashes).padStart(7)} ${String(Math.round((r.streams * 1000) / Math.max(1, r.ms))).padStart(9)}  (${r.qps} QPs)`,
  );
  for (const f2 of r.failures) console.log(`  CRASH ${f2}`);
}
console.log(`fuzz: ${crashes} crash(es) in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
process.exit(crashes ? 1 : 0);

/**
 * `npm run bench`: runs every benchmark section in order and prints one line per measurement.
 * Add a section by writing a module that exports a `BenchSection` and listing it below.
 */
import { deframerSection } from './deframer.js';
import type { BenchSection } from './harness.js';
import { rdmaSection } from './rdma.js';

const sections: BenchSection[] = [deframerSection, rdmaSection];

const filter = process.argv.slice(2).filter((a) => !a.startsWith('--'));
for (const s of sections) {
  if (filter.length && !filter.some((f) => s.name.includes(f))) continue;
  console.log(`# ${s.name}`);
  for (const row of await s.run()) {
    console.log(`${row.name.padEnd(72)} ${Number.isNaN(row.value) ? 'n/a' : row.value.toFixed(0).padStart(8)} ${row.unit}`);
  }
}

/**
 * `npm run bench [-- --quick] [filter...]`: runs every benchmark section in order, prints one
 * table row per measurement (ratio, baseline and target verdict where one is set), then the
 * fast-path table (`GOALS`: each goal beside its baseline, met or missed, or why it was not measured), and
 * writes all rows as JSON to bench/results/<date>.json and bench/results/latest.json so runs
 * can be compared over time. Add a section by writing a module that exports a `BenchSection`
 * and listing it below.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { bandwidthChart } from './chart.js';
import { deframerSection } from './deframer.js';
import { execSection } from './exec.js';
import type { BenchRow, BenchSection, Goal } from './harness.js';
import { GOALS, quick } from './harness.js';
import { nodeApiSection } from './nodeapi.js';
import { peersSection } from './peers.js';
import { latencySection, rdmaSection } from './rdma.js';
import { roceSection } from './roce.js';
import { memorySection, msgRateSection, scaleSection, sweepSection } from './sweep.js';

const sections: BenchSection[] = [
  deframerSection,
  rdmaSection,
  latencySection,
  sweepSection,
  msgRateSection,
  memorySection,
  scaleSection,
  roceSection,
  peersSection,
  nodeApiSection,
  execSection,
];

const fmt = (v: number): string => (Number.isNaN(v) ? 'n/a' : v.toFixed(v < 100 ? 1 : 0));

const filter = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const all: (BenchRow & { section: string })[] = [];
const started = new Date();
console.log(`${'measurement'.padEnd(72)} ${'value'.padStart(8)} unit   ratio  vs                 target  met`);
for (const s of sections) {
  if (filter.length && !filter.some((f) => s.name.includes(f))) continue;
  console.log(`# ${s.name}`);
  for (const row of await s.run()) {
    all.push({ section: s.name, ...row });
    const ratio =
      row.ratio === undefined
        ? ''
        : `${row.ratio.toFixed(2).padStart(5)}  ${row.vs!.padEnd(18)} ${(row.target ?? '-').padEnd(6)}  ${row.met === undefined ? '' : row.met ? 'met' : 'missed'}`;
    console.log(`${row.name.padEnd(72)} ${fmt(row.value).padStart(8)} ${row.unit.padEnd(5)}  ${ratio}`.trimEnd());
  }
}

// Every row that carries a target, once more, together: the checklist for this run.
const goals = all.filter((r) => r.met !== undefined);
if (goals.length) {
  console.log(`# targets: ${goals.filter((r) => r.met).length} met of ${goals.length}`);
  for (const r of goals) {
    // An absolute goal (GOALS.qpMem) judges the value, so the value is what is shown.
    const absolute = Object.values(GOALS).some((g: Goal) => g.id === r.goal && g.absolute);
    const shown = absolute ? r.value : r.ratio!;
    console.log(
      `${(r.met ? 'met    ' : 'missed ') + r.name.padEnd(72)} ${shown.toFixed(2).padStart(5)} ${r.target!.padEnd(6)} vs ${r.vs} (${fmt(r.value)} ${r.unit})`,
    );
  }
}

// The fast-path table: every goal, each beside its baseline from this run, on each RoCEv2
// datagram layer where the goal involves RoCE; a goal this run did not measure says why.
console.log('# fast-path table: figure [layer] | ours | baseline | ratio | target | verdict');
for (const g of Object.values(GOALS) as Goal[]) {
  for (const layer of g.roce ? ['native', 'fallback'] : [undefined]) {
    const label = `${g.figure}${layer ? ` [${layer}]` : ''}`.padEnd(76);
    const rows = all.filter((r) => r.goal === g.id && r.layer === layer);
    if (!rows.length) {
      console.log(`${label} not measured: ${filter.length ? 'its section was left out by the filter' : 'no section measured it'}`);
      continue;
    }
    for (const r of rows) {
      if (r.skipped !== undefined) {
        console.log(`${label} not measured: ${r.skipped}`);
        continue;
      }
      const verdict = r.met === undefined ? 'n/a' : r.met ? 'met' : 'missed';
      console.log(
        `${label} ${fmt(r.value).padStart(8)} ${r.unit.padEnd(5)} ${fmt(r.base ?? Number.NaN).padStart(8)} ${(r.ratio ?? Number.NaN).toFixed(2).padStart(6)}  ${(r.target ?? '-').padEnd(10)} ${verdict}  (vs ${r.vs})`,
      );
    }
  }
}

// Kept in the source tree (not dist/), beside the code that produced them.
const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
mkdirSync(dir, { recursive: true });
const json = `${JSON.stringify({ date: started.toISOString(), quick, node: process.version, cpus: cpus().length, rows: all }, null, 2)}\n`;
// A filtered run (some sections only) does not replace the full record of the day.
const files = filter.length
  ? [`${started.toISOString().slice(0, 10)}-partial.json`]
  : [`${started.toISOString().slice(0, 10)}.json`, 'latest.json'];
for (const f of files) writeFileSync(dir + f, json);
console.log(`# rows written to bench/results/${files.join(' and ')}`);

// The README's chart (docs/bench-bandwidth.svg), from this run's sweep, when it ran.
const svg = bandwidthChart(
  all,
  `${started.toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}${quick ? ', --quick' : ''}`,
);
if (svg && !filter.length) {
  const docs = fileURLToPath(new URL('../../docs/', import.meta.url));
  writeFileSync(`${docs}bench-bandwidth.svg`, svg);
  console.log('# chart written to docs/bench-bandwidth.svg');
}

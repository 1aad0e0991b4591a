#!/usr/bin/env node
// Duplicate code in src/: runs jscpd (settings in .jscpd.json) and fails when the number of
// clones rises above CEILING. A rule written twice is a rule with two owners (docs/architecture.md
// "Who owns which rule"); when a change removes clones, lower CEILING to the new count so that
// they cannot come back.
//
//   node scripts/check-dups.mjs           check; exit 1 above the ceiling, listing the clones
//   node scripts/check-dups.mjs --list    also list the clones when within the ceiling
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The most clones src/ may hold. */
const CEILING = 5;

const bin = fileURLToPath(new URL('../node_modules/jscpd/bin/jscpd', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'softrdma-jscpd-'));
try {
  const r = spawnSync(process.execPath, [bin, '--config', '.jscpd.json', '--reporters', 'json', '--output', out], {
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    process.stderr.write(r.stdout + r.stderr);
    console.error(`check-dups: jscpd exited with ${r.status}`);
    process.exit(1);
  }
  const report = JSON.parse(readFileSync(join(out, 'jscpd-report.json'), 'utf8'));
  const clones = report.duplicates ?? [];
  const where = (f) => `${f.name}:${f.start}-${f.end}`;
  const over = clones.length > CEILING;
  if (over || process.argv.includes('--list')) {
    for (const c of clones) console.log(`  ${c.lines} lines: ${where(c.firstFile)}  =  ${where(c.secondFile)}`);
  }
  if (over) {
    console.error(`check-dups: ${clones.length} clones in src/, above the ceiling of ${CEILING}: move the shared rule to one owner`);
    process.exit(1);
  }
  console.log(`check-dups: ${clones.length} clones in src/ (ceiling ${CEILING})`);
} finally {
  rmSync(out, { recursive: true, force: true });
}

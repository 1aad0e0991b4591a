#!/usr/bin/env node
// Runs every compiled test file under dist/test (except the interop suite, which has its
// own script because it needs root and a VM) on node's built-in test runner.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = 'dist/test';
const skipDirs = new Set(['interop']);
/** @param {string} dir @returns {string[]} */
function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!skipDirs.has(name)) out.push(...walk(p));
    } else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}
const files = walk(root);
const filter = process.argv.slice(2);
const chosen = filter.length ? files.filter((f) => filter.some((s) => f.includes(s))) : files;
if (chosen.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...chosen], { stdio: 'inherit' });
process.exit(r.status ?? 1);

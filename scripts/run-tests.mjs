#!/usr/bin/env node
// Runs every compiled test file under dist/test (except the interop suite, which has its
// own script because it needs root and a VM) on node's built-in test runner, each file in its
// own child process, a few at a time. A file that has not exited after the per-file timeout
// (TEST_FILE_TIMEOUT_S, default 600 s) is killed and named, so that a hang is attributed.
//
//   node scripts/run-tests.mjs [SUBSTRING ...]   the files whose path contains one of them
//   TEST_JOBS=N                                  files run at once (default: as node --test,
//                                                the cores less one, at least 1)
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

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
const timeoutS = Number(process.env.TEST_FILE_TIMEOUT_S ?? 600);
const jobs = Math.max(1, Number(process.env.TEST_JOBS ?? availableParallelism() - 1));

/** Summary lines of node's spec reporter ("ℹ tests 12"), added up over the files. */
const totals = { tests: 0, pass: 0, fail: 0, skipped: 0, todo: 0, cancelled: 0 };
const failedFiles = [];
const hung = [];
const retries = [];

/** Runs one file; its output is printed in one piece when it ends, so files do not interleave. */
function runFile(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutS * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      process.stdout.write(`\n=== ${file}\n${out}`);
      for (const k of Object.keys(totals)) {
        const m = new RegExp(`^ℹ ${k} (\\d+)$`, 'm').exec(out);
        if (m) totals[k] += Number(m[1]);
      }
      // The interop suites' retryOnce prints "RETRY: <test>: <first failure>" for every retry.
      for (const m of out.matchAll(/^.*RETRY: (.*)$/gm)) retries.push(`${file}: ${m[1]}`);
      if (timedOut) hung.push(file);
      else if (code !== 0) failedFiles.push(`${file} (exit ${code ?? signal})`);
      resolve();
    });
  });
}

const queue = [...chosen];
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let f = queue.shift(); f !== undefined; f = queue.shift()) await runFile(f);
  }),
);

console.log(
  `\n== ${chosen.length} files: ${totals.tests} tests, ${totals.pass} pass, ${totals.fail} fail, ${totals.skipped} skipped, ${totals.cancelled} cancelled`,
);
for (const r of retries) console.log(`RETRIED (flaky): ${r}`);
for (const f of hung) console.log(`TIMED OUT: ${f} did not exit within ${timeoutS} s (killed)`);
for (const f of failedFiles) console.log(`FAILED: ${f}`);
process.exit(hung.length || failedFiles.length ? 1 : 0);

#!/usr/bin/env node
// `npm run test:interop`: the interop suite against Linux siw and the rdma-core tools in the
// kernel-peer qemu guest (test/interop/kernel-peer, the repository's own copy of the harness).
//
// As root it first runs the harness's setup.sh, which installs qemu & co. with apt, downloads the
// Debian kernel, rdma-core and perftest packages, builds siw.ko and the initramfs into
// /var/cache/kernel-peer (≈90 s the first time, instant when up to date), then runs every
// dist/test/interop/*.test.js one file at a time. Without root the tests skip, each with the
// reason. Arguments filter the test files by substring, as in scripts/run-tests.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const dir = process.env.KERNEL_PEER_DIR ?? resolve('test/interop/kernel-peer');
const root = typeof process.getuid === 'function' && process.getuid() === 0;
if (!root) {
  console.log('# interop: not root; the tests will skip (the harness needs a netns, a tap device and qemu)');
} else if (process.env.SOFTRDMA_INTEROP_SETUP === '0') {
  console.log('# interop: SOFTRDMA_INTEROP_SETUP=0, not running setup.sh');
} else {
  console.log(`# interop: ${dir}/setup.sh`);
  const r = spawnSync(join(dir, 'setup.sh'), [], { cwd: dir, stdio: 'inherit', timeout: 1_800_000 });
  // A machine that cannot build the guest (no Debian archive, no apt) still runs the suite:
  // without a guest image every case skips and says why.
  if (r.status !== 0)
    console.error(
      `# interop: setup.sh failed (status ${r.status}${r.error ? `, ${r.error.message}` : ''}); the cases that need the guest will skip`,
    );
}
const tests = 'dist/test/interop';
const files = existsSync(tests)
  ? readdirSync(tests)
      .filter((f) => f.endsWith('.test.js'))
      .sort()
      .map((f) => join(tests, f))
  : [];
const filter = process.argv.slice(2);
const chosen = filter.length ? files.filter((f) => filter.some((s) => f.includes(s))) : files;
if (chosen.length === 0) {
  console.error('no interop test files found (npm run build first)');
  process.exit(1);
}
// Every process's whole output (the guest's rdma-core tools and softrdma's side) is kept, one
// directory per test file (test/interop/harness.ts); the place is printed at the end.
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const transcripts = process.env.SOFTRDMA_INTEROP_TRANSCRIPTS ?? join(tmpdir(), `softrdma-interop-${stamp}`);
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', ...chosen], {
  stdio: ['inherit', 'pipe', 'inherit'],
  encoding: 'utf8',
  maxBuffer: 256 * 1024 * 1024,
  env: { ...process.env, SOFTRDMA_INTEROP_TRANSCRIPTS: transcripts },
});
process.stdout.write(r.stdout ?? '');
// Every retry of test/helpers/retry.ts's retryOnce, in the summary: a case that needed one is flaky.
const retried = [...(r.stdout ?? '').matchAll(/RETRY: (.*)$/gm)].map((m) => m[1]);
console.log(`# retried (flaky) cases: ${retried.length}`);
for (const l of retried) console.log(`# RETRIED: ${l}`);
console.log(`# interop transcripts (guest and softrdma output of every case): ${transcripts}`);
process.exit(r.status ?? 1);

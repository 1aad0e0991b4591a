#!/usr/bin/env node
// Builds libsoftrdma.so (native/libsoftrdma/*.c), the library `softrdma exec` preloads into C
// verbs programs (docs/preload.md), into build/Release/. Run by scripts/build-native.mjs after
// the addon (node-gyp's rebuild empties build/). It never fails the install: on another OS,
// without a C compiler or without libibverbs' headers (<infiniband/verbs.h>, Debian's
// libibverbs-dev) it prints one line saying why, and `softrdma exec` and its tests say the
// library is not built.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'native', 'libsoftrdma');
const out = join(root, 'build', 'Release', 'libsoftrdma.so');

function skip(why) {
  console.log(`softrdma: libsoftrdma.so not built (${why}); softrdma exec is unavailable`);
  process.exit(0);
}

if (process.platform !== 'linux') skip(`${process.platform} is not Linux`);
const cc = process.env.CC || 'cc';
const probe = spawnSync(cc, ['-x', 'c', '-E', '-o', '/dev/null', '-'], { input: '#include <infiniband/verbs.h>\n', encoding: 'utf8' });
if (probe.error) skip('no C compiler');
if (probe.status !== 0) skip('no <infiniband/verbs.h>: install libibverbs-dev');
const sources = readdirSync(src)
  .filter((f) => f.endsWith('.c'))
  .sort()
  .map((f) => join(src, f));
mkdirSync(dirname(out), { recursive: true });
const flags = ['-O2', '-g', '-std=gnu11', '-Wall', '-Wextra', '-Wno-unused-parameter', '-Wno-missing-field-initializers', '-fPIC', '-shared'];
const r = spawnSync(cc, [...flags, '-o', out, ...sources, '-lpthread'], { encoding: 'utf8' });
if (r.error || r.status !== 0) {
  if (process.env.SOFTRDMA_NATIVE_VERBOSE) process.stderr.write(`${r.stderr ?? ''}${r.stdout ?? ''}`);
  skip(r.error ? r.error.message : `${cc} exited with ${r.status}`);
}
console.log('softrdma: libsoftrdma.so built (build/Release/libsoftrdma.so)');

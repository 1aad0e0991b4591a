#!/usr/bin/env node
// Builds libsoftrdma.so (native/libsoftrdma/*.c), the library `softrdma exec` preloads into C
// verbs programs (docs/preload.md), into build/Release/, and the daemon's side of it,
// softrdma_preload.node (native/libsoftrdma/daemon/addon.c: fd passing and shared mappings),
// against Node's own headers. Run by scripts/build-native.mjs after
// the addon (node-gyp's rebuild empties build/). It never fails the install: on another OS,
// without a C compiler or without libibverbs' headers (<infiniband/verbs.h>, Debian's
// libibverbs-dev) it prints one line saying why, and `softrdma exec` and its tests say the
// library is not built. librdmacm's calls (native/libsoftrdma/cm.c) need <rdma/rdma_cma.h>
// (Debian's librdmacm-dev) too: without it the library is built without them, and says so in
// build/Release/libsoftrdma.features (`rdmacm=0`), which the rdma_cm tests read.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'native', 'libsoftrdma');
const out = join(root, 'build', 'Release', 'libsoftrdma.so');
const addonOut = join(root, 'build', 'Release', 'softrdma_preload.node');

function skip(why) {
  console.log(`softrdma: libsoftrdma.so not built (${why}); softrdma exec is unavailable`);
  process.exit(0);
}

if (process.platform !== 'linux') skip(`${process.platform} is not Linux`);
const cc = process.env.CC || 'cc';
// A compiler that cannot even say its version (absent, or a stub on PATH) is no compiler: the
// header probe below would otherwise blame the missing header.
const version = spawnSync(cc, ['--version'], { encoding: 'utf8' });
if (version.error || version.status !== 0) skip(`no C compiler (${cc})`);
const probe = spawnSync(cc, ['-x', 'c', '-E', '-o', '/dev/null', '-'], { input: '#include <infiniband/verbs.h>\n', encoding: 'utf8' });
if (probe.error) skip('no C compiler');
if (probe.status !== 0) skip('no <infiniband/verbs.h>: install libibverbs-dev');
const cmProbe = spawnSync(cc, ['-x', 'c', '-E', '-o', '/dev/null', '-'], { input: '#include <rdma/rdma_cma.h>\n', encoding: 'utf8' });
const rdmacm = cmProbe.status === 0;
const sources = readdirSync(src)
  .filter((f) => f.endsWith('.c') && (rdmacm || f !== 'cm.c'))
  .sort()
  .map((f) => join(src, f));
mkdirSync(dirname(out), { recursive: true });
const flags = [
  '-O2',
  '-g',
  '-std=gnu11',
  '-Wall',
  '-Wextra',
  '-Wno-unused-parameter',
  '-Wno-missing-field-initializers',
  '-fPIC',
  '-shared',
];
const r = spawnSync(cc, [...flags, '-o', out, ...sources, '-lpthread'], { encoding: 'utf8' });
if (r.error || r.status !== 0) {
  if (process.env.SOFTRDMA_NATIVE_VERBOSE) process.stderr.write(`${r.stderr ?? ''}${r.stdout ?? ''}`);
  skip(r.error ? r.error.message : `${cc} exited with ${r.status}`);
}
writeFileSync(join(dirname(out), 'libsoftrdma.features'), `rdmacm=${rdmacm ? 1 : 0}\n`);
console.log(
  `softrdma: libsoftrdma.so built (build/Release/libsoftrdma.so)${rdmacm ? '' : '; without librdmacm calls (no <rdma/rdma_cma.h>: install librdmacm-dev)'}`,
);

/** Node's headers: npm's `nodedir`, beside this node, the system's, or node-gyp's cache. */
function nodeInclude() {
  const dirs = [
    process.env.npm_config_nodedir && join(process.env.npm_config_nodedir, 'include', 'node'),
    join(dirname(process.execPath), '..', 'include', 'node'),
    '/usr/include/node',
    join(homedir(), '.cache', 'node-gyp', process.versions.node, 'include', 'node'),
  ];
  return dirs.find((d) => d && existsSync(join(d, 'node_api.h'))) ?? null;
}
const inc = nodeInclude();
if (!inc) {
  console.log('softrdma: softrdma_preload.node not built (no node_api.h); the daemon refuses memory registration');
  process.exit(0);
}
const a = spawnSync(cc, [...flags, `-I${inc}`, '-DNODE_GYP_MODULE_NAME=softrdma_preload', '-o', addonOut, join(src, 'daemon', 'addon.c')], {
  encoding: 'utf8',
});
if (a.error || a.status !== 0) {
  if (process.env.SOFTRDMA_NATIVE_VERBOSE) process.stderr.write(`${a.stderr ?? ''}${a.stdout ?? ''}`);
  console.log(`softrdma: softrdma_preload.node not built (${cc} exited with ${a.status}); the daemon refuses memory registration`);
  process.exit(0);
}
console.log('softrdma: daemon addon built (build/Release/softrdma_preload.node)');

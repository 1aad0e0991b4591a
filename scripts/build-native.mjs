#!/usr/bin/env node
// The package's `install` step: builds the native datagram layer (native/udp.c, Linux) with
// node-gyp against Node's own headers. It never fails the install: without a compiler, on
// another OS, or on any build error it prints one line and the RoCEv2 transport uses its pure
// TypeScript `dgram` path instead (src/roce/net.ts).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FALLBACK = 'softrdma: native datagram layer not built (%s); the pure-TypeScript dgram fallback will be used';

/** Then the preload library (scripts/build-libsoftrdma.mjs): after node-gyp, whose rebuild empties build/. */
function buildPreload() {
  spawnSync(process.execPath, [join(dirname(fileURLToPath(import.meta.url)), 'build-libsoftrdma.mjs')], { stdio: 'inherit' });
}

function skip(why) {
  console.log(FALLBACK.replace('%s', why));
  buildPreload();
  process.exit(0);
}

if (process.platform !== 'linux') skip(`${process.platform} is not Linux`);
if (process.env.SOFTRDMA_NATIVE === '0') skip('SOFTRDMA_NATIVE=0');

/** node-gyp: the one npm runs scripts with, else npm's bundled copy, else one on PATH. */
function nodeGyp() {
  const fromNpm = process.env.npm_config_node_gyp;
  if (fromNpm && existsSync(fromNpm)) return [process.execPath, fromNpm];
  try {
    const req = createRequire(join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'package.json'));
    return [process.execPath, req.resolve('node-gyp/bin/node-gyp.js')];
  } catch {
    return ['node-gyp'];
  }
}

/** Node's own headers: npm's `nodedir` setting, else the headers installed beside this node. */
function nodeDirArgs() {
  if (process.env.npm_config_nodedir) return [`--nodedir=${process.env.npm_config_nodedir}`];
  const prefix = join(dirname(process.execPath), '..');
  return existsSync(join(prefix, 'include', 'node', 'node_api.h')) ? [`--nodedir=${prefix}`] : [];
}

const [cmd, ...pre] = nodeGyp();
const r = spawnSync(cmd, [...pre, 'rebuild', ...nodeDirArgs()], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
if (r.error || r.status !== 0) {
  const out = `${r.stderr ?? ''}${r.stdout ?? ''}`;
  const why = r.error
    ? r.error.message
    : /not found|No such file|ENOENT|make: \S*(cc|g\+\+)/.test(out) && /(cc|g\+\+|c\+\+|gcc)/.test(out)
      ? 'no C compiler'
      : `node-gyp exited with ${r.status}`;
  if (process.env.SOFTRDMA_NATIVE_VERBOSE) process.stderr.write(out);
  skip(why);
}
console.log('softrdma: native datagram layer built (build/Release/softrdma_net.node)');
buildPreload();

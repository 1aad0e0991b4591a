#!/usr/bin/env node
/**
 * Entry point of the `softrdma` bin (see cli.ts).
 *
 * Cold start: where Node has `module.enableCompileCache()` (22.1 and later), the V8 code of the
 * package's modules is cached on disk, so a fresh `softrdma perf` process does not recompile
 * the stack while it moves its first data. Node 20 has no such call, and there the CLI starts
 * as before. The CLI is loaded with a dynamic `import()` after the call, because static imports
 * would be compiled before it runs. `NODE_DISABLE_COMPILE_CACHE=1` turns the cache off (Node's
 * own switch).
 */
import * as nodeModule from 'node:module';
import process, { argv, exit, stderr, stdout } from 'node:process';
import { checkEnv, EnvError } from '../util/env.js';
import { tuneGcForSocketData } from '../util/gc-tuning.js';
const enableCompileCache = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
if (typeof enableCompileCache === 'function') {
  try {
    enableCompileCache();
  } catch {
    // An unwritable cache directory only costs the cache.
  }
}

// The environment is checked before the stack is loaded: some variables are read when their
// module loads (SOFTRDMA_CRC32C), and a bad one must be named, not thrown from an import.
try {
  checkEnv();
} catch (e) {
  if (!(e instanceof EnvError)) throw e;
  stderr.write(`softrdma: ${e.message}\nRun 'softrdma help env' for the environment variables.\n`);
  exit(2);
}
// Before any socket exists: the V8 setting for fast socket receivers (gc-tuning.ts).
tuneGcForSocketData();
const { cli } = await import('./cli.js');

// Node exits with 13 when the top-level await below never settles (a wait for an event that
// can no longer come); say so rather than leave the user with a bare status.
process.once('exit', (c) => {
  if (c === 13)
    stderr.write(
      'softrdma: internal error: the command stopped waiting for an event that cannot come (exit 13); rerun with DEBUG=softrdma:* and report it\n',
    );
});
const code = await cli(argv.slice(2), { out: (s) => stdout.write(s), err: (s) => stderr.write(s) });
// Let pending writes drain, then leave even if sockets or timers are still open.
stdout.write('', () => exit(code));

#!/usr/bin/env node
/** Entry point of the `softrdma` bin (see cli.ts). */
import process, { argv, exit, stderr, stdout } from 'node:process';
import { checkEnv, EnvError } from '../util/env.js';

// The environment is checked before the stack is loaded: some variables are read when their
// module loads (SOFTRDMA_CRC32C), and a bad one must be named, not thrown from an import.
try {
  checkEnv();
} catch (e) {
  if (!(e instanceof EnvError)) throw e;
  stderr.write(`softrdma: ${e.message}\nRun 'softrdma help env' for the environment variables.\n`);
  exit(2);
}
const { cli } = await import('./cli.js');

// Node exits with 13 when the top-level await below never settles (a wait for an event that
// can no longer come); say so rather than leave the user with a bare status.
process.once('exit', (c) => {
  if (c === 13) stderr.write('softrdma: internal error: the command stopped waiting for an event that cannot come (exit 13); rerun with DEBUG=softrdma:* and report it\n');
});
const code = await cli(argv.slice(2), { out: (s) => stdout.write(s), err: (s) => stderr.write(s) });
// Let pending writes drain, then leave even if sockets or timers are still open.
stdout.write('', () => exit(code));

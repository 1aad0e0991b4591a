#!/usr/bin/env node
/** Entry point of the `softrdma` bin (see cli.ts). */
import { argv, exit, stderr, stdout } from 'node:process';
import { cli } from './cli.js';

const code = await cli(argv.slice(2), { out: (s) => stdout.write(s), err: (s) => stderr.write(s) });
// Let pending writes drain, then leave even if sockets or timers are still open.
stdout.write('', () => exit(code));

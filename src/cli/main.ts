#!/usr/bin/env node
/**
 * The `softrdma` command. Subcommands are added by later layers (devinfo, rping, perf);
 * each one answers `--help`.
 */
import { argv, exit, stdout } from 'node:process';

const HELP = `softrdma — a software RDMA stack (iWARP over TCP) in TypeScript

Usage: softrdma <command> [options]

Commands:
  help                 show this help

Run 'softrdma <command> --help' for a command's options.
`;

export function main(args: readonly string[]): number {
  const [cmd] = args;
  if (cmd === undefined || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    stdout.write(HELP);
    return 0;
  }
  process.stderr.write(`softrdma: unknown command '${cmd}'\n\n${HELP}`);
  return 2;
}

exit(main(argv.slice(2)));

/**
 * The `softrdma` command: subcommand dispatch. Every subcommand answers `--help`.
 */
import { DEVINFO_HELP, devinfo } from './devinfo.js';
import { PERF_HELP, perf } from './perf.js';
import { RPING_HELP, rping } from './rping.js';

export const HELP = `softrdma — a software RDMA stack (iWARP over TCP) in TypeScript

Usage: softrdma <command> [options]

Commands:
  devinfo              list the RDMA devices and their attributes (like ibv_devinfo)
  rping                rdma-core's rping test, interoperable with it (-s server, -c client)
  perf                 perftest's ib_{write,read,send}_{bw,lat} -R, interoperable with it
  help                 show this help

Run 'softrdma <command> --help' for a command's options.
`;

export interface CliIo {
  out(s: string): void;
  err(s: string): void;
}

const COMMANDS: Record<string, { help: string; run: (args: readonly string[], io: CliIo) => number | Promise<number> }> = {
  devinfo: { help: DEVINFO_HELP, run: (args, io) => devinfo(args, io.out) },
  rping: { help: RPING_HELP, run: (args, io) => rping(args, io) },
  perf: { help: PERF_HELP, run: (args, io) => perf(args, io) },
};

/** Runs the command line `args` (without the program name); resolves with the exit code. */
export async function cli(args: readonly string[], io: CliIo): Promise<number> {
  const [cmd, ...rest] = args;
  if (cmd === undefined || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    io.out(HELP);
    return 0;
  }
  const c = COMMANDS[cmd];
  if (!c) {
    io.err(`softrdma: unknown command '${cmd}'\n\n${HELP}`);
    return 2;
  }
  try {
    return await c.run(rest, io);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`softrdma ${cmd}: ${err.message}\n\n${c.help}`);
      return 2;
    }
    throw e;
  }
}

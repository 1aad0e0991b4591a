/**
 * The `softrdma` command: subcommand dispatch. Every subcommand answers `--help` and
 * `softrdma help CMD`; `softrdma --version` prints the package version.
 */
import { readFileSync } from 'node:fs';
import { DEVINFO_HELP, devinfo } from './devinfo.js';
import { DEVICES_HELP, devicesCmd, LINK_HELP, linkCmd } from './link.js';
import { PERF_HELP, perf } from './perf.js';
import { PINGPONG_HELP, pingpong } from './pingpong.js';
import { RPING_HELP, rping } from './rping.js';
import { STAT_HELP, statCmd } from './stat.js';

/** The package's version (package.json sits three levels above dist/src/cli/, in the repository and in an install alike). */
export function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export const HELP = `softrdma — a software RDMA stack (iWARP over TCP) in TypeScript

Usage: softrdma <command> [options]
       softrdma help <command>
       softrdma --version

Commands:
  devices              list the RDMA devices and their node GUIDs (like ibv_devices)
  devinfo              the devices and their attributes (like ibv_devinfo)
  link                 the ports: state, transport, addresses (like rdma link)
  stat                 the RoCE counters of running processes, rxe's names (like rdma statistic)
  rping                rdma-core's rping test, interoperable with it (-s server, -c client)
  perf                 perftest's ib_{write,read,send,atomic}_{bw,lat}, interoperable with it
  pingpong             rdma-core's ibv_{rc,uc,ud,srq}_pingpong over RoCEv2, interoperable with them
  help                 show this help, or a command's

Run 'softrdma help <command>' or 'softrdma <command> --help' for a command's options.
`;

export interface CliIo {
  out(s: string): void;
  err(s: string): void;
}

const COMMANDS: Record<string, { help: string; run: (args: readonly string[], io: CliIo) => number | Promise<number> }> = {
  devices: { help: DEVICES_HELP, run: (args, io) => devicesCmd(args, io) },
  devinfo: { help: DEVINFO_HELP, run: (args, io) => devinfo(args, io.out, io.err) },
  link: { help: LINK_HELP, run: (args, io) => linkCmd(args, io) },
  stat: { help: STAT_HELP, run: (args, io) => statCmd(args, io) },
  rping: { help: RPING_HELP, run: (args, io) => rping(args, io) },
  perf: { help: PERF_HELP, run: (args, io) => perf(args, io) },
  pingpong: { help: PINGPONG_HELP, run: (args, io) => pingpong([...args], io) },
};

/** Runs the command line `args` (without the program name); resolves with the exit code. */
export async function cli(args: readonly string[], io: CliIo): Promise<number> {
  const [cmd, ...rest] = args;
  if (cmd === '--version' || cmd === '-V' || cmd === 'version') {
    io.out(`softrdma ${version()}\n`);
    return 0;
  }
  if (cmd === 'help' && rest[0] !== undefined) {
    const c = COMMANDS[rest[0]];
    if (!c) {
      io.err(`softrdma help: unknown command '${rest[0]}'\n\n${HELP}`);
      return 2;
    }
    io.out(c.help);
    return 0;
  }
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

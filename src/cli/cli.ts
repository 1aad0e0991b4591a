/**
 * The `softrdma` command: subcommand dispatch over the command table (spec.ts). Every command
 * and subcommand answers `--help`/`-h` and `softrdma help CMD [SUB]`; `softrdma help env` lists
 * the environment variables, which are all checked before a command starts; `softrdma
 * --version` prints the package version. A usage error exits with the command's code (2, or
 * the code of the rdma-core program it mirrors).
 */
import { readFileSync } from 'node:fs';
import { EnvError, checkEnv } from '../util/env.js';
import { devices } from '../verbs/device.js';
import { command, envHelp, helpText, mainHelp, UsageError, wantsHelp } from './spec.js';

/** The package's version (package.json sits three levels above dist/src/cli/, in the repository and in an install alike). */
export function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** `softrdma --help`. */
export const HELP = mainHelp();

export interface CliIo {
  out(s: string): void;
  err(s: string): void;
}

/**
 * Each command's module is loaded when the command runs, so a process compiles only the one it
 * runs (a `softrdma perf` data path does not load rping, pingpong, devinfo, …): cold start.
 */
const RUN: Record<string, (args: readonly string[], io: CliIo) => number | Promise<number>> = {
  devices: async (args, io) => (await import('./link.js')).devicesCmd(args, io),
  devinfo: async (args, io) => (await import('./devinfo.js')).devinfo(args, io.out, io.err),
  link: async (args, io) => (await import('./link.js')).linkCmd(args, io),
  stat: async (args, io) => (await import('./stat.js')).statCmd(args, io),
  rping: async (args, io) => (await import('./rping.js')).rping(args, io),
  perf: async (args, io) => (await import('./perf.js')).perf(args, io),
  pingpong: async (args, io) => (await import('./pingpong.js')).pingpong([...args], io),
  daemon: async (args, io) => (await import('./daemon.js')).daemonCmd(args, io),
  exec: async (args, io) => (await import('./daemon.js')).execCmd(args, io),
};

/** The help of `softrdma help WORDS` or `softrdma WORDS --help`: a command's, a subcommand's, or the environment's. */
function helpFor(words: readonly string[]): string | null {
  const [name, sub] = words;
  if (name === 'env') return envHelp();
  const c = name === undefined ? undefined : command(name);
  if (!c) return null;
  return helpText(c, sub !== undefined && c.subcommands?.some((s) => s.name === sub) ? sub : undefined);
}

/** Runs the command line `args` (without the program name); resolves with the exit code. */
export async function cli(args: readonly string[], io: CliIo): Promise<number> {
  const [cmd, ...rest] = args;
  if (cmd === '--version' || cmd === '-V' || cmd === 'version') {
    io.out(`softrdma ${version()}\n`);
    return 0;
  }
  if (cmd === undefined || cmd === '--help' || cmd === '-h') {
    io.out(HELP);
    return 0;
  }
  if (cmd === 'help') {
    const words = rest.filter((w) => w !== '--help' && w !== '-h');
    if (words.length === 0) {
      io.out(HELP);
      return 0;
    }
    const h = helpFor(words);
    if (h === null) {
      io.err(`softrdma help: unknown command '${words[0]}'\n\n${HELP}`);
      return 2;
    }
    io.out(h);
    return 0;
  }
  const run = RUN[cmd];
  const spec = command(cmd);
  if (!run || !spec) {
    io.err(`softrdma: unknown command '${cmd}'\n\n${HELP}`);
    return 2;
  }
  if (wantsHelp(rest)) {
    io.out(helpFor([cmd, ...rest.filter((w) => !w.startsWith('-')).slice(0, 1)]) ?? HELP);
    return 0;
  }
  // Every environment variable is checked before the command starts, so that a bad one is
  // named at once rather than when (or whether) the command reaches the code that reads it.
  try {
    checkEnv(devices().map((d) => d.name));
  } catch (e) {
    if (!(e instanceof EnvError)) throw e;
    io.err(`softrdma ${cmd}: ${e.message}\nRun 'softrdma help env' for the environment variables.\n`);
    return 2;
  }
  try {
    return await run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`${e.message}\nRun 'softrdma ${cmd} --help' for the options.\n`);
      return e.exitCode;
    }
    if (e instanceof EnvError) {
      io.err(`softrdma ${cmd}: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

/**
 * `softrdma daemon` and `softrdma exec -- PROG ARGS` (docs/preload.md): the daemon serves C
 * verbs programs; exec runs one with libsoftrdma.so preloaded and the daemon's socket named.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { daemonSocketPath, PreloadDaemon } from '../preload/daemon.js';
import { ENV_SOCKET } from '../util/env.js';
import type { CliIo } from './cli.js';
import { command, parseCommand } from './spec.js';

/** Where the package's native build puts the preload library (build/Release, three levels above dist/src/cli/). */
export function preloadLibraryPath(): string {
  return fileURLToPath(new URL('../../../build/Release/libsoftrdma.so', import.meta.url));
}

export async function daemonCmd(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(command('daemon')!, argv);
  const path = (values.socket as string | undefined) ?? daemonSocketPath();
  let d: PreloadDaemon;
  try {
    d = await PreloadDaemon.listen(path);
  } catch (e) {
    io.err(`softrdma daemon: ${path}: ${(e as Error).message}\n`);
    return 1;
  }
  io.out(`softrdma daemon: listening on ${d.path}\n`);
  await new Promise<void>((resolve) => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve());
  });
  await d.close();
  return 0;
}

export async function execCmd(argv: readonly string[], io: CliIo): Promise<number> {
  const dash = argv.indexOf('--');
  const own = dash < 0 ? argv : argv.slice(0, dash);
  const prog = dash < 0 ? [] : argv.slice(dash + 1);
  const { values, positionals } = parseCommand(command('exec')!, own);
  const cmdLine = [...positionals, ...prog];
  if (cmdLine.length === 0) {
    io.err("softrdma exec: no program given (softrdma exec -- PROG ARGS)\nRun 'softrdma exec --help' for the options.\n");
    return 2;
  }
  const lib = preloadLibraryPath();
  if (!existsSync(lib)) {
    io.err(`softrdma exec: ${lib} is not built (the package's native build needs a C compiler: node scripts/build-native.mjs)\n`);
    return 1;
  }
  const preload = [lib, process.env.LD_PRELOAD].filter((s) => s && s.trim() !== '').join(':');
  const env = { ...process.env, LD_PRELOAD: preload, [ENV_SOCKET]: (values.socket as string | undefined) ?? daemonSocketPath() };
  const child = spawn(cmdLine[0]!, cmdLine.slice(1), { stdio: 'inherit', env });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, forward);
  return await new Promise<number>((resolve) => {
    child.once('error', (e) => {
      io.err(`softrdma exec: ${cmdLine[0]}: ${e.message}\n`);
      resolve(127);
    });
    child.once('exit', (code, signal) =>
      resolve(
        code ??
          128 + (signal ? (({ SIGKILL: 9, SIGTERM: 15, SIGINT: 2, SIGSEGV: 11, SIGABRT: 6 } as Record<string, number>)[signal] ?? 1) : 1),
      ),
    );
  });
}

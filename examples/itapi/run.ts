/**
 * Runs the IT-API example: starts the server (a child process), waits until it listens, runs the
 * client (another child process) against it on 127.0.0.1, and relays both outputs line by line
 * with a prefix. Exits non-zero if either side fails or the run takes longer than 30 s.
 *
 *   node dist/examples/itapi/run.js
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

function start(
  script: string,
  args: string[],
  prefix: string,
  onLine?: (l: string) => void,
): { child: ChildProcess; done: Promise<number> } {
  const child = spawn(process.execPath, [join(here, script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (l) => {
      console.log(`${prefix} ${l}`);
      onLine?.(l);
    });
  }
  const done = new Promise<number>((resolve) => child.on('exit', (code, sig) => resolve(code ?? (sig ? 1 : 0))));
  return { child, done };
}

async function main(): Promise<number> {
  let portResolve: (p: number) => void = () => {};
  const port = new Promise<number>((r) => (portResolve = r));
  const server = start('server.js', [], '[server]', (l) => {
    const m = /listening on port (\d+)/.exec(l);
    if (m) portResolve(Number(m[1]));
  });
  const kids: ChildProcess[] = [server.child];
  const timer = setTimeout(() => {
    console.log('[run] timed out');
    for (const k of kids) k.kill();
  }, 30_000);
  try {
    const p = await Promise.race([port, server.done.then(() => 0)]);
    if (!p) return 1;
    const client = start('client.js', [String(p)], '[client]');
    kids.push(client.child);
    const [c, s] = await Promise.all([client.done, server.done]);
    console.log(`[run] client exit ${c}, server exit ${s}`);
    return c === 0 && s === 0 ? 0 : 1;
  } finally {
    clearTimeout(timer);
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  },
);

/**
 * Issue 17: is a persistent server's memory flat over many connections? Starts the real CLI
 * server, `softrdma rping -P` (rdma-core's persistent server), in its own process, and makes
 * `--connections` rping client connections to it (`--parallel` at a time, `-C 1` each, so every
 * connection allocates a PD, CQ, QP and three MRs on the server and frees them at disconnect).
 * The server's resident set size is sampled after full collections (a preloaded probe answers
 * over IPC, `rss-probe.ts`); it must stay flat: within 10 % of the RSS after the warm-up (the
 * first tenth of the connections).
 *
 *   node dist/bench/rss-conn.js [--connections 10000] [--parallel 8] [--samples 10] [--size 64]
 *
 * Not a timing test: it reports RSS only. Exit status 1 if the final RSS is more than 10 %
 * above the warm-up RSS, or if any connection failed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { rping } from '../src/cli/rping.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '10000' },
    parallel: { type: 'string', default: '8' },
    samples: { type: 'string', default: '10' },
    size: { type: 'string', default: '64' },
  },
});
const total = Number(values.connections);
const parallel = Math.max(1, Number(values.parallel));
const samples = Math.max(2, Number(values.samples));
const size = String(Number(values.size));
// The clients skip the 50 ms hold-back meant for Linux siw Responders (ACTIVE_SETTLE_MS).
process.env.SOFTRDMA_MPA = 'settle=0';

const cli = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const probe = new URL('./rss-probe.js', import.meta.url).href;

async function freePort(): Promise<number> {
  const s = net.createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

const port = await freePort();
const server: ChildProcess = spawn(
  process.execPath,
  ['--expose-gc', '--import', probe, cli, 'rping', '-P', '-d', '-a', '127.0.0.1', '-p', String(port), '-S', size],
  {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  },
);
let serverErr = '';
server.stderr!.on('data', (d: Buffer) => {
  // Each connection logs its DISCONNECT lines; keep only what is not routine.
  for (const line of String(d).split('\n')) if (line && !/DISCONNECT EVENT|wait for RDMA_READ_ADV/.test(line)) serverErr += `${line}\n`;
});
let serverOut = '';
await new Promise<void>((resolve, reject) => {
  server.stdout!.on('data', (d: Buffer) => {
    serverOut += d;
    if (/listening on/.test(serverOut)) resolve();
  });
  server.once('exit', (c) => reject(new Error(`server exited ${c}: ${serverErr}`)));
});

const mib = (n: number) => (n / 1048576).toFixed(1);
async function sample(label: string): Promise<number> {
  const answer = once(server, 'message') as Promise<[{ memory: NodeJS.MemoryUsage; gc: boolean }]>;
  server.send('sample');
  const [{ memory: m, gc }] = await answer;
  console.log(
    `${label.padEnd(18)} server rss ${mib(m.rss).padStart(7)} MiB  heap ${mib(m.heapUsed).padStart(6)} MiB  external ${mib(m.external).padStart(6)} MiB  arrayBuffers ${mib(m.arrayBuffers).padStart(6)} MiB${gc ? '' : '  (no gc)'}`,
  );
  return m.rss;
}

const quiet = { out: () => {}, err: (s: string) => void (lastClientErr = s) };
let lastClientErr = '';
let done = 0;
let failed = 0;
let next = 0;
const step = Math.max(1, Math.floor(total / samples));
const warm = Math.max(1, Math.floor(total / 10));
const rss: { at: number; rss: number }[] = [];
let base = 0;
console.log(`rss-conn: ${total} connections to softrdma rping -P (-C 1 -S ${size} each, ${parallel} at a time), server pid ${server.pid}`);
rss.push({ at: 0, rss: await sample('start') });
let sampling: Promise<void> = Promise.resolve();
async function worker(): Promise<void> {
  while (next < total) {
    next++;
    const code = await rping(['-c', '-a', '127.0.0.1', '-p', String(port), '-C', '1', '-S', size, '-V'], quiet);
    if (code !== 0) {
      failed++;
      if (failed <= 5) console.log(`connection failed (exit ${code}): ${lastClientErr.trim()}`);
    }
    done++;
    if (done === warm || done % step === 0) {
      const at = done;
      sampling = sampling.then(async () => {
        const r = await sample(`after ${at}`);
        rss.push({ at, rss: r });
        if (at === warm) base = r;
      });
      await sampling;
    }
  }
}
await Promise.all(Array.from({ length: parallel }, () => worker()));
await sampling;
const end = await sample('end');
server.kill('SIGTERM');
const after = rss.filter((x) => x.at >= warm).map((x) => x.rss);
const max = Math.max(...after, end);
const growth = (end - base) / base;
console.log(`connections ${done}, failed ${failed}`);
console.log(
  `server rss after warm-up (${warm}) ${mib(base)} MiB, highest after it ${mib(max)} MiB (${(((max - base) / base) * 100).toFixed(1)} %), at the end ${mib(end)} MiB: ${(growth * 100).toFixed(1)} % (limit 10 %)`,
);
if (serverErr) console.log(`server stderr (not routine):\n${serverErr.slice(0, 2000)}`);
process.exit(growth > 0.1 || failed > 0 ? 1 : 0);

/**
 * Memory of idle connections, started by bench/sweep.ts (`memorySection`):
 *   node --expose-gc dist/bench/memqp.js server KIND N   → prints `PORT n`, then a JSON result
 *   node dist/bench/memqp.js client KIND PORT N
 *
 * The server process holds N connected, idle endpoints and reports how much its RSS and V8 heap
 * grew per endpoint (after a full GC, before vs. after, with everything else already set up),
 * twice: 1 s after the last connection (`rss_per`, `heap_per`), and once V8 has settled
 * (`rss_settled_per`, `heap_settled_per`). Settled means V8's memory reducer has run: the burst of
 * connections grows the young generation to its maximum (32 MiB in Node 20, a fixed amount
 * whatever the number of connections), and an idle process gives it back some 8 to 20 s later.
 * The baseline is taken settled too, so both sides compare the same state.
 * KIND `qp`: N iWARP QPs (SQ 16, RQ 16, one posted receive each) accepted through the CM, the
 * peer in another process so its memory does not count. KIND `tcp`: N plain Node TCP sockets,
 * the baseline.
 */
import { once } from 'node:events';
import net from 'node:net';
import { getHeapSpaceStatistics } from 'node:v8';
import { type CmConnection, type CmConnectRequest, CmListener, cmConnect } from '../src/iwarp/cm.js';
import { hostMemory } from '../src/rnic/hostmem.js';
import { mrReg } from '../src/rnic/memops.js';
import type { Rnic } from '../src/rnic/rnic.js';
import { RiRet } from '../src/rnicpi/status.js';
import { ALL_ACCESS, cmQps, must, recv, riRnic } from '../test/helpers/engine.js';

const [role, kind, a, b] = process.argv.slice(2);
const IN_FLIGHT = 50;

/** QPs made through RNICPI (the CM takes them as CmQp), as test/helpers/engine.ts makes them. */
function side(r: Rnic) {
  const f = cmQps(r, 4096, { sqSize: 16, rqSize: 16, sqMaxSges: 1, sqMaxSgesRdmaw: 1, rqMaxSges: 1, ord: 4, ird: 4, enableBind: false });
  const buf = new Uint8Array(64);
  const mr = must(mrReg(r, { va: hostMemory.addressOf(buf), length: buf.length, flags: ALL_ACCESS, pd: f.pd, key: 0 }, null));
  const sge = { stag: mr.stag, to: hostMemory.addressOf(buf), len: buf.length };
  return { qp: f.make, sge };
}

/** The young generation's committed size. */
function newSpace(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

/** The smallest young generation V8 shrinks to (1 MiB in Node 20). */
const NEW_SPACE_MIN = 1 << 20;

/**
 * Waits, after full collections, until V8's memory reducer has given back the young generation
 * (at most 40 s). Returns how long that took, or -1 if it did not happen.
 */
async function settle(): Promise<number> {
  usage();
  const t0 = Date.now();
  while (newSpace() > NEW_SPACE_MIN) {
    if (Date.now() - t0 > 40_000) return -1;
    await new Promise((r) => setTimeout(r, 250));
  }
  return Date.now() - t0;
}

function usage(): { rss: number; heap: number } {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed + m.external + m.arrayBuffers };
}

async function server(n: number): Promise<void> {
  const held: unknown[] = [];
  let port: number;
  let connected: Promise<void>;
  if (kind === 'qp') {
    const r = riRnic();
    const s = side(r);
    const l = await CmListener.listen({ host: '127.0.0.1' });
    port = l.port;
    connected = new Promise((resolve) => {
      l.on('request', (req: CmConnectRequest) => {
        const qp = s.qp();
        if (recv(qp.qp, 1n, [s.sge]) !== RiRet.SUCCESS) throw new Error('post recv');
        const c: CmConnection = req.accept(qp.cm, { awaitFirstRx: false });
        held.push(c);
        if (held.length === n) resolve();
      });
    });
  } else {
    const srv = net.createServer((c) => {
      held.push(c);
      if (held.length === n) resolveTcp();
    });
    let resolveTcp: () => void = () => {};
    connected = new Promise((resolve) => (resolveTcp = resolve));
    srv.listen(0, '127.0.0.1');
    await once(srv, 'listening');
    port = (srv.address() as net.AddressInfo).port;
  }
  // Warm the code paths with nothing held yet, then take the baseline.
  await new Promise((r) => setTimeout(r, 200));
  const before = usage();
  const settledBeforeMs = await settle();
  const beforeSettled = usage();
  process.stdout.write(`PORT ${port}\n`);
  await connected;
  await new Promise((r) => setTimeout(r, 1000));
  const after = usage();
  const settledAfterMs = await settle();
  const afterSettled = usage();
  process.stdout.write(
    `${JSON.stringify({
      kind,
      n: held.length,
      rss_per: (after.rss - before.rss) / n,
      heap_per: (after.heap - before.heap) / n,
      rss_settled_per: (afterSettled.rss - beforeSettled.rss) / n,
      heap_settled_per: (afterSettled.heap - beforeSettled.heap) / n,
      settled_ms: [settledBeforeMs, settledAfterMs],
    })}\n`,
  );
  process.exit(0);
}

async function client(port: number, n: number): Promise<void> {
  const held: unknown[] = [];
  const r = riRnic();
  const s = side(r);
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < n) {
      next++;
      if (kind === 'qp') held.push(await cmConnect(s.qp().cm, '127.0.0.1', port));
      else {
        const c = net.connect({ port, host: '127.0.0.1' });
        await once(c, 'connect');
        held.push(c);
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, one));
  // Hold everything until bench/sweep.ts, having the server's result, kills this process.
  setInterval(() => held.length, 60_000);
}

if (role === 'server') await server(Number(a));
else if (role === 'client') await client(Number(a), Number(b));
else throw new Error(`unknown role ${role}`);

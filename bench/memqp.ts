/**
 * Memory of idle connections, started by bench/sweep.ts (`memorySection`):
 *   node --expose-gc dist/bench/memqp.js server KIND N   → prints `PORT n`, then a JSON result
 *   node dist/bench/memqp.js client KIND PORT N
 *
 * The server process holds N connected, idle endpoints and reports how much its RSS and V8 heap
 * grew per endpoint (after a full GC, before vs. after, with everything else already set up).
 * KIND `qp`: N iWARP QPs (SQ 16, RQ 16, one posted receive each) accepted through the CM, the
 * peer in another process so its memory does not count. KIND `tcp`: N plain Node TCP sockets,
 * the baseline.
 */
import { once } from 'node:events';
import net from 'node:net';
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
  process.stdout.write(`PORT ${port}\n`);
  await connected;
  await new Promise((r) => setTimeout(r, 1000));
  const after = usage();
  process.stdout.write(
    `${JSON.stringify({ kind, n: held.length, rss_per: (after.rss - before.rss) / n, heap_per: (after.heap - before.heap) / n })}\n`,
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

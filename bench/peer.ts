/**
 * One side of a two-process loopback benchmark, started by bench/rdma.ts:
 *   node dist/bench/peer.js raw-server | rdma-server            → prints `PORT n`
 *   node dist/bench/peer.js raw-client|rdma-client PORT SIZE TOTAL [crc] → prints a JSON result
 *   node dist/bench/peer.js raw-pp-server [spin]                   → prints `PORT n`
 *   node dist/bench/peer.js raw-pp-client PORT ITERS [SIZE] [spin] → prints `{"rtt_us": median}`
 *
 * Raw TCP: the client writes SIZE-byte buffers until `write()` returns false, resumes on
 * `drain`; the server answers one byte after TOTAL bytes. RDMA Write: the client keeps DEPTH
 * writes of SIZE bytes in flight into the server's registered region, then Sends a marker;
 * the server answers it with a Send. Both time from the first byte to the answer, so the two
 * figures measure the same thing, and both run two passes on one connection: `cold_mbps` (a
 * fresh process and connection) and `mbps` (steady state: compiled code, grown TCP windows).
 *
 * Raw UDP (the RoCEv2 baselines): `udp-server` counts datagrams until an end marker and
 * answers with its goodput (octets received from the first to the last datagram);
 * `udp-client PORT SIZE TOTAL` sends SIZE-octet datagrams, 64 sends in flight. `udp-pp-server`
 * echoes; `udp-pp-client PORT ITERS SIZE` prints the median round trip (a lost ping is resent
 * after 100 ms and that round is not counted).
 *
 * Raw ping-pong: the latency baseline for `softrdma perf send --lat`. The client writes 8 bytes
 * and waits for the server's 8-byte echo before the next, ITERS times, woken by ordinary
 * 'data' events (the blocking case, as the perf default sleeps on completion events). With
 * `spin` both ends keep a `setImmediate` chain going, so libuv polls the socket with a zero
 * timeout instead of sleeping in epoll: the "spinning event loop" that `perf --busy-poll` and
 * ib_write_lat's memory polling are compared with.
 */
import dgram from 'node:dgram';
import { once } from 'node:events';
import net from 'node:net';
import { hostMemory } from '../src/rnic/hostmem.js';
import { mpaAccept, mpaConnect, mpaReadRequest } from '../src/iwarp/mpa-startup.js';
import { RiRet } from '../src/rnicpi/status.js';
import { RiQpState, RiWcStatus, RiWrType } from '../src/rnicpi/types.js';
import { makeSide, pollN, recv, reg, send, sge, waitCq } from '../test/helpers/engine.js';
import { tuneGcForSocketData } from '../src/util/gc-tuning.js';

const [role, portArg, sizeArg, totalArg, crcArg] = process.argv.slice(2);
// softrdma's ends run with the V8 setting the softrdma command applies at start
// (src/util/gc-tuning.ts). The raw baselines keep Node's defaults: the setting is for processes
// whose old generation is above V8's 8 MiB threshold, and a bare socket sink stays below it.
if (role?.startsWith('rdma-')) tuneGcForSocketData();
const REGION = 64 << 20;
const DEPTH = 64;

async function listen(): Promise<net.Server> {
  const srv = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }).listen(0, '127.0.0.1');
  await once(srv, 'listening');
  process.stdout.write(`PORT ${(srv.address() as net.AddressInfo).port}\n`);
  return srv;
}

/** Answers one byte after each TOTAL-byte pass (8-byte TOTAL header first); ends with the client. */
async function rawServer(): Promise<void> {
  const srv = await listen();
  const [c] = (await once(srv, 'connection')) as [net.Socket];
  let want = -1;
  let got = 0;
  let hdr = Buffer.alloc(0);
  c.on('data', (d: Buffer) => {
    if (want < 0) {
      hdr = Buffer.concat([hdr, d]);
      if (hdr.length < 8) return;
      want = Number(hdr.readBigUInt64BE(0));
      got = hdr.length - 8;
      hdr = Buffer.alloc(0);
    } else got += d.length;
    if (got >= want) {
      want = -1;
      c.write(Buffer.from([1]));
    }
  });
  c.on('end', () => {
    c.end();
    srv.close();
  });
  c.resume();
}

/**
 * Two passes of TOTAL bytes on one connection, each timed from its first write to the server's
 * answer: the first is cold (fresh process, fresh TCP windows), the second steady state.
 */
async function rawClient(port: number, size: number, total: number): Promise<void> {
  const c = net.connect({ port, host: '127.0.0.1' });
  await once(c, 'connect');
  c.setNoDelay(true);
  const buf = Buffer.alloc(size, 7);
  const pass = async (): Promise<number> => {
    const t0 = process.hrtime.bigint();
    const h = Buffer.alloc(8);
    h.writeBigUInt64BE(BigInt(total));
    c.write(h);
    let sent = 0;
    const pump = (): void => {
      while (sent < total) {
        sent += size;
        if (!c.write(buf)) {
          c.once('drain', pump);
          return;
        }
      }
    };
    pump();
    await once(c, 'data');
    return total / (Number(process.hrtime.bigint() - t0) / 1e9) / 1e6;
  };
  const cold = await pass();
  const warm = await pass();
  process.stdout.write(`${JSON.stringify({ mbps: warm, cold_mbps: cold })}\n`);
  c.end();
}

/** Keeps the event loop from sleeping until the returned stop function is called. */
function spinLoop(): () => void {
  let on = true;
  const spin = (): void => {
    if (on) setImmediate(spin);
  };
  spin();
  return () => {
    on = false;
  };
}

/** Echoes whatever arrives; ends when the client does. */
async function rawPpServer(spin: boolean): Promise<void> {
  const srv = await listen();
  const [c] = (await once(srv, 'connection')) as [net.Socket];
  c.setNoDelay(true);
  const stop = spin ? spinLoop() : () => {};
  c.on('data', (d: Buffer) => c.write(d));
  c.on('end', () => {
    stop();
    c.end();
    srv.close();
  });
  c.resume();
}

/** Median round trip of `iters` SIZE-byte pings (default 8); like perftest, every iteration counts (no warm-up). */
async function rawPpClient(port: number, iters: number, size = 8, spin = false): Promise<void> {
  const c = net.connect({ port, host: '127.0.0.1' });
  await once(c, 'connect');
  c.setNoDelay(true);
  const stop = spin ? spinLoop() : () => {};
  const msg = Buffer.alloc(size, 7);
  const rtts = new Float64Array(iters);
  let i = 0;
  let got = 0;
  let t0 = 0n;
  const ping = (): void => {
    t0 = process.hrtime.bigint();
    c.write(msg);
  };
  await new Promise<void>((resolve) => {
    c.on('data', (d: Buffer) => {
      // The echo may come in pieces; only its last byte completes the round trip.
      got += d.length;
      if (got < msg.length) return;
      got -= msg.length;
      rtts[i] = Number(process.hrtime.bigint() - t0) / 1e3;
      if (++i === iters) resolve();
      else ping();
    });
    ping();
  });
  stop();
  rtts.sort();
  process.stdout.write(`${JSON.stringify({ rtt_us: rtts[iters >> 1] })}\n`);
  c.end();
}

async function rdmaServer(): Promise<void> {
  const srv = await listen();
  const side = makeSide(undefined, { ird: 16, sqSize: 16, rqSize: 16 });
  const region = new Uint8Array(REGION).fill(1);
  const mr = reg(side, region);
  const small = new Uint8Array(8);
  const smr = reg(side, small);
  const [sock] = (await once(srv, 'connection')) as [net.Socket];
  const req = await mpaReadRequest(sock);
  const pd = new Uint8Array(12);
  const dv = new DataView(pd.buffer);
  dv.setBigUint64(0, hostMemory.addressOf(region));
  dv.setUint32(8, mr.stag);
  const out = mpaAccept(sock, req.frame, { revision: 2, crc: req.frame.crc, markers: false, ird: 16, ord: 16, privateData: pd });
  recv(side.qp, 1n, [sge(smr, small)]);
  side.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp: out.stream, llpAttrs: out.mpa });
  // Two passes (cold, then steady state): answer each end-of-pass Send with a Send.
  for (let pass = 0; pass < 2; pass++) {
    await pollN(side.cq, 1, 600_000);
    if (pass === 0) recv(side.qp, 3n, [sge(smr, small)]);
    send(side.qp, { type: RiWrType.SEND, id: 2n, sgl: [sge(smr, small)] });
    await pollN(side.cq, 1, 10_000);
  }
  setTimeout(() => process.exit(0), 50);
}

async function rdmaClient(port: number, size: number, total: number, crc: boolean): Promise<void> {
  const side = makeSide(undefined, { sqSize: DEPTH + 4, rqSize: 4, ord: 16 });
  const src = new Uint8Array(Math.min(REGION, Math.max(size, 1 << 20))).fill(7);
  const mr = reg(side, src);
  const small = new Uint8Array(8);
  const smr = reg(side, small);
  const sock = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  await once(sock, 'connect');
  const out = await mpaConnect(sock, { revision: 2, crc, markers: false, ird: 16, ord: 16 });
  const dv = new DataView(out.peerPrivateData.buffer, out.peerPrivateData.byteOffset);
  const raddr = dv.getBigUint64(0);
  const rkey = dv.getUint32(8);
  recv(side.qp, 9n, [sge(smr, small)]);
  side.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp: out.stream, llpAttrs: out.mpa });
  const n = Math.ceil(total / size);
  const slots = Math.floor(REGION / size);
  const wcs: import('../src/rnic/cq.js').WorkCompletion[] = [];
  /** One pass: DEPTH writes in flight until n are done, then a Send answered by the server. */
  const pass = async (k: number): Promise<number> => {
    let posted = 0;
    let done = 0;
    const post = (): void => {
      while (posted < n && posted - done < DEPTH) {
        const at = BigInt((posted % slots) * size);
        const st = send(side.qp, {
          type: RiWrType.RDMA_WRITE,
          id: BigInt(posted),
          sgl: [sge(mr, src, 0, size)],
          rtag: rkey,
          remoteTo: raddr + at,
        });
        if (st !== RiRet.SUCCESS) throw new Error(`post: ${RiRet[st]}`);
        posted++;
      }
    };
    const t0 = process.hrtime.bigint();
    post();
    // Blocking mode: poll, and when empty arm the CQ and sleep until its completion event.
    while (done < n) {
      const got = side.cq.poll(wcs, 64);
      for (let i = 0; i < got; i++) if (wcs[i]!.op_status !== RiWcStatus.SUCCESS) throw new Error('write failed');
      done += got;
      post();
      if (got === 0) await waitCq(side.cq);
    }
    if (k === 0) recv(side.qp, 11n, [sge(smr, small)]);
    send(side.qp, { type: RiWrType.SEND, id: 10n, sgl: [sge(smr, small)] });
    await pollN(side.cq, 2, 60_000);
    return (n * size) / (Number(process.hrtime.bigint() - t0) / 1e9) / 1e6;
  };
  const cold = await pass(0);
  const warm = await pass(1);
  process.stdout.write(`${JSON.stringify({ mbps: warm, cold_mbps: cold })}\n`);
  setTimeout(() => process.exit(0), 20);
}

/** The socket buffers the RoCEv2 transport asks for (src/roce/net.ts), so both see the same kernel. */
const UDP_BUFFER = 4 << 20;

async function udpBind(): Promise<dgram.Socket> {
  const u = dgram.createSocket({ type: 'udp4', recvBufferSize: UDP_BUFFER, sendBufferSize: UDP_BUFFER });
  u.bind(0, '127.0.0.1');
  await once(u, 'listening');
  process.stdout.write(`PORT ${u.address().port}\n`);
  return u;
}

async function udpServer(): Promise<void> {
  const u = await udpBind();
  let bytes = 0;
  let first = 0n;
  let last = 0n;
  u.on('message', (m, from) => {
    if (m.length === 1 && m[0] === 0xff) {
      const s = Number(last - first) / 1e9;
      u.send(JSON.stringify({ mbps: s > 0 ? bytes / s / 1e6 : 0, bytes }), from.port, from.address, () => {
        u.close();
      });
      return;
    }
    last = process.hrtime.bigint();
    if (bytes === 0) first = last;
    bytes += m.length;
  });
}

async function udpClient(port: number, size: number, total: number): Promise<void> {
  const u = dgram.createSocket({ type: 'udp4', recvBufferSize: UDP_BUFFER, sendBufferSize: UDP_BUFFER });
  u.bind(0, '127.0.0.1');
  await once(u, 'listening');
  const msg = Buffer.alloc(size, 7);
  const n = Math.ceil(total / size);
  let sent = 0;
  let inflight = 0;
  await new Promise<void>((resolve) => {
    const pump = (): void => {
      while (sent < n && inflight < 64) {
        sent++;
        inflight++;
        u.send(msg, port, '127.0.0.1', () => {
          inflight--;
          if (sent === n && inflight === 0) resolve();
          else pump();
        });
      }
    };
    pump();
  });
  const reply = new Promise<Buffer>((r) => u.once('message', (m) => r(m)));
  const end = Buffer.from([0xff]);
  const t = setInterval(() => u.send(end, port, '127.0.0.1'), 20);
  u.send(end, port, '127.0.0.1');
  const r = await reply;
  clearInterval(t);
  process.stdout.write(`${r.toString()}\n`);
  u.close();
}

async function udpPpServer(): Promise<void> {
  const u = await udpBind();
  u.on('message', (m, from) => {
    if (m.length === 1 && m[0] === 0xff) return u.close();
    u.send(m, from.port, from.address);
  });
}

async function udpPpClient(port: number, iters: number, size: number): Promise<void> {
  const u = dgram.createSocket('udp4');
  u.bind(0, '127.0.0.1');
  await once(u, 'listening');
  const msg = Buffer.alloc(size, 7);
  const rtts: number[] = [];
  let t0 = 0n;
  let lost = false;
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    const ping = (): void => {
      t0 = process.hrtime.bigint();
      u.send(msg, port, '127.0.0.1');
      timer = setTimeout(() => {
        lost = true;
        ping();
      }, 100);
    };
    u.on('message', () => {
      clearTimeout(timer);
      if (!lost) rtts.push(Number(process.hrtime.bigint() - t0) / 1e3);
      lost = false;
      if (rtts.length >= iters) resolve();
      else ping();
    });
    ping();
  });
  u.send(Buffer.from([0xff]), port, '127.0.0.1', () => u.close());
  rtts.sort((a, b) => a - b);
  process.stdout.write(`${JSON.stringify({ rtt_us: rtts[rtts.length >> 1] })}\n`);
}

switch (role) {
  case 'udp-server':
    await udpServer();
    break;
  case 'udp-client':
    await udpClient(Number(portArg), Number(sizeArg), Number(totalArg));
    break;
  case 'udp-pp-server':
    await udpPpServer();
    break;
  case 'udp-pp-client':
    await udpPpClient(Number(portArg), Number(sizeArg), Number(totalArg));
    break;
  case 'raw-server':
    await rawServer();
    break;
  case 'raw-client':
    await rawClient(Number(portArg), Number(sizeArg), Number(totalArg));
    break;
  case 'raw-pp-server':
    await rawPpServer(portArg === 'spin');
    break;
  case 'raw-pp-client':
    await rawPpClient(Number(portArg), Number(sizeArg), totalArg ? Number(totalArg) : 8, crcArg === 'spin');
    break;
  case 'rdma-server':
    await rdmaServer();
    break;
  case 'rdma-client':
    await rdmaClient(Number(portArg), Number(sizeArg), Number(totalArg), crcArg === 'crc');
    break;
  default:
    throw new Error(`unknown role ${role}`);
}

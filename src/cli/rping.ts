/**
 * `softrdma rping`: rdma-core's rping protocol over softrdma's rdma_cm and verbs, so that it
 * works against the real rping in both roles (protocol: docs/interop-protocols.md §1).
 *
 * Per ping the client advertises its start buffer in a 16-byte big-endian
 * `{addr, rkey, size}` Send; the server RDMA-Reads it, answers "go ahead"; the client
 * advertises its RDMA buffer; the server RDMA-Writes the data back and answers again.
 */
import { parseArgs } from 'node:util';
import {
  ibv_access_flags as A,
  ibv_send_flags,
  ibv_wc_opcode,
  ibv_wc_status,
  ibv_wr_opcode,
  rdma_cm_event_type as E,
  rdma_event_str,
  rdma_port_space,
} from '../verbs/constants.js';
import { errnoString, getErrno } from '../verbs/errno.js';
import { connectFailure, lastError } from './errors.js';
import {
  ibv_ack_cq_events,
  ibv_alloc_pd,
  ibv_create_comp_channel,
  ibv_create_cq,
  ibv_get_cq_event,
  ibv_poll_cq,
  ibv_post_recv,
  ibv_post_send,
  ibv_reg_mr,
  ibv_req_notify_cq,
  newWc,
} from '../verbs/ibverbs.js';
import {
  rdma_accept,
  rdma_ack_cm_event,
  rdma_bind_addr,
  rdma_connect,
  rdma_create_event_channel,
  rdma_create_id,
  rdma_create_qp,
  rdma_destroy_id,
  rdma_destroy_qp,
  rdma_disconnect,
  rdma_get_cm_event,
  rdma_getaddrinfo,
  rdma_listen,
  rdma_resolve_addr,
  rdma_resolve_route,
  rdmaListenReady,
} from '../verbs/rdma_cm.js';
import type { ibv_comp_channel, ibv_cq, ibv_mr, ibv_qp, ibv_wc, rdma_cm_event, rdma_cm_id, rdma_event_channel } from '../verbs/types.js';
import type { CliIo } from './cli.js';

export const RPING_HELP = `Usage: softrdma rping -s|-c [options]

The rping test of rdma-core (librdmacm/examples/rping), interoperable with it.

Options:
  -s               server
  -c               client
  -a ADDR          address (server: to bind, default 0.0.0.0; client: the server)
  -I ADDR          client source address
  -p PORT          port (default 7174)
  -C COUNT         number of pings (default 0: forever)
  -S SIZE          ping buffer size, ${23}..65535 (default 64)
  -v               print the ping data
  -V               validate the ping data (client)
  -d               debug output
  -h, --help       show this help

Devices: the server listens on every device that owns its address (softrdma0 over TCP,
softroce0 on QP1). rping has no device option: a client uses softrdma0 (iWARP) unless
SOFTRDMA_DEVICE=softroce0 names the RoCE device or its -I address belongs to it alone.
`;

const MIN_SIZE = 23;
const INFO_LEN = 16;

interface Opts {
  server: boolean;
  addr: string;
  src: string | null;
  port: number;
  count: number;
  size: number;
  verbose: boolean;
  validate: boolean;
  debug: boolean;
}

/** The rping ping pattern (`rping_test_client`): "rdma-ping-N: " then A..z cycling, NUL-terminated. */
export function rpingPattern(buf: Uint8Array, ping: number, start: number): void {
  const head = Buffer.from(`rdma-ping-${ping}: `);
  const cc = Math.min(head.length, buf.length - 1);
  buf.set(head.subarray(0, cc));
  let c = start;
  for (let i = cc; i < buf.length; i++) {
    buf[i] = c;
    c++;
    if (c > 122) c = 65;
  }
  buf[buf.length - 1] = 0;
}

function cstr(b: Uint8Array): string {
  const z = b.indexOf(0);
  return Buffer.from(b.subarray(0, z < 0 ? b.length : z)).toString('latin1');
}

/** One end's verbs resources (rping_setup_qp / rping_setup_buffers). */
class Endpoint {
  cq!: ibv_cq;
  ch!: ibv_comp_channel;
  qp!: ibv_qp;
  recvBuf = new Uint8Array(INFO_LEN);
  sendBuf = new Uint8Array(INFO_LEN);
  rdmaBuf: Uint8Array;
  startBuf: Uint8Array | null;
  recvMr!: ibv_mr;
  sendMr!: ibv_mr;
  rdmaMr!: ibv_mr;
  startMr: ibv_mr | null = null;
  private readonly wc: ibv_wc[] = [newWc()];
  constructor(
    readonly id: rdma_cm_id,
    readonly o: Opts,
  ) {
    this.rdmaBuf = new Uint8Array(o.size);
    this.startBuf = o.server ? null : new Uint8Array(o.size);
  }

  setup(): void {
    const ctx = this.id.verbs!;
    const pd = ibv_alloc_pd(ctx)!;
    this.ch = ibv_create_comp_channel(ctx)!;
    this.cq = ibv_create_cq(ctx, 32, null, this.ch, 0)!;
    ibv_req_notify_cq(this.cq, 0);
    if (rdma_create_qp(this.id, pd, { send_cq: this.cq, recv_cq: this.cq, qp_type: 2, cap: { max_send_wr: 16, max_recv_wr: 2, max_send_sge: 1, max_recv_sge: 1 } }) !== 0) {
      throw new Error(`rdma_create_qp: errno ${getErrno()}`);
    }
    this.qp = this.id.qp!;
    const rw = A.IBV_ACCESS_LOCAL_WRITE | A.IBV_ACCESS_REMOTE_READ | A.IBV_ACCESS_REMOTE_WRITE;
    this.recvMr = ibv_reg_mr(pd, this.recvBuf, INFO_LEN, A.IBV_ACCESS_LOCAL_WRITE)!;
    this.sendMr = ibv_reg_mr(pd, this.sendBuf, INFO_LEN, 0)!;
    this.rdmaMr = ibv_reg_mr(pd, this.rdmaBuf, this.o.size, rw)!;
    if (this.startBuf) this.startMr = ibv_reg_mr(pd, this.startBuf, this.o.size, rw)!;
  }

  postRecv(): void {
    const r = ibv_post_recv(this.qp, { wr_id: 1n, sg_list: [{ addr: this.recvMr.addr, length: INFO_LEN, lkey: this.recvMr.lkey }] });
    if (r.ret !== 0) throw new Error(`post recv error ${r.ret}`);
  }

  send(): void {
    const r = ibv_post_send(this.qp, {
      wr_id: 2n,
      opcode: ibv_wr_opcode.IBV_WR_SEND,
      send_flags: ibv_send_flags.IBV_SEND_SIGNALED,
      sg_list: [{ addr: this.sendMr.addr, length: INFO_LEN, lkey: this.sendMr.lkey }],
    });
    if (r.ret !== 0) throw new Error(`post send error ${r.ret}`);
  }

  rdma(op: ibv_wr_opcode, len: number, addr: bigint, rkey: number): void {
    const r = ibv_post_send(this.qp, {
      wr_id: 3n,
      opcode: op,
      send_flags: ibv_send_flags.IBV_SEND_SIGNALED,
      sg_list: [{ addr: this.rdmaMr.addr, length: len, lkey: this.rdmaMr.lkey }],
      wr: { rdma: { remote_addr: addr, rkey } },
    });
    if (r.ret !== 0) throw new Error(`post send error ${r.ret}`);
  }

  /** rping_format_send: {buf, rkey, size} big-endian. */
  format(addr: bigint, rkey: number): void {
    const dv = new DataView(this.sendBuf.buffer, this.sendBuf.byteOffset, INFO_LEN);
    dv.setBigUint64(0, addr);
    dv.setUint32(8, rkey);
    dv.setUint32(12, this.o.size);
  }

  /** Waits (blocking on the completion channel) for the next completion. */
  async next(): Promise<ibv_wc> {
    for (;;) {
      const n = ibv_poll_cq(this.cq, 1, this.wc);
      if (n > 0) {
        const w = this.wc[0]!;
        return { ...w };
      }
      const ev = await ibv_get_cq_event(this.ch);
      if (ev.ret !== 0) throw new Error(`ibv_get_cq_event ${ev.ret}`);
      ibv_ack_cq_events(this.cq, 1);
      ibv_req_notify_cq(this.cq, 0);
    }
  }

  /**
   * Completions that arrived ahead of the one awaited. On InfiniBand a Send completes on its
   * ACK, so the peer's next message (sent once ours was received) may complete first; rping's
   * CQ handler takes completions in any order, and so does this.
   */
  private readonly early: ibv_wc[] = [];

  /** Waits for a completion of `opcode`; a receive is re-posted and its payload decoded. */
  async expect(opcode: ibv_wc_opcode, what: string): Promise<{ addr: bigint; rkey: number; size: number } | null> {
    const i = this.early.findIndex((x) => x.opcode === opcode);
    let w: ibv_wc;
    if (i >= 0) w = this.early.splice(i, 1)[0]!;
    else {
      for (;;) {
        w = await this.next();
        if (w.status !== ibv_wc_status.IBV_WC_SUCCESS || w.opcode === opcode) break;
        // One out-of-order completion at most is legitimate (a Send and the peer's answer).
        if (this.early.length >= 2) throw new Error(`unexpected completion ${w.opcode} waiting for ${what}`);
        this.early.push(w);
      }
    }
    if (w.status !== ibv_wc_status.IBV_WC_SUCCESS) {
      if (w.status === ibv_wc_status.IBV_WC_WR_FLUSH_ERR) throw new Flushed();
      throw new Error(`cq completion failed status ${w.status}`);
    }
    if (w.opcode !== opcode) throw new Error(`unexpected completion ${w.opcode} waiting for ${what}`);
    if (opcode !== ibv_wc_opcode.IBV_WC_RECV) return null;
    if (w.byte_len !== INFO_LEN) throw new Error(`Received bogus data, size ${w.byte_len}`);
    const dv = new DataView(this.recvBuf.buffer, this.recvBuf.byteOffset, INFO_LEN);
    const info = { addr: dv.getBigUint64(0), rkey: dv.getUint32(8), size: dv.getUint32(12) };
    this.postRecv();
    return info;
  }
}

class Flushed extends Error {}

/** The next CM event, which must be `want`; `peer` names the other end in the error. */
async function cmEvent(ch: rdma_event_channel, want: E, io: CliIo, peer = ''): Promise<rdma_cm_event> {
  const r = await rdma_get_cm_event(ch);
  if (r.ret !== 0 || !r.event) throw new Error(`rdma_get_cm_event: ${lastError()}`);
  const ev = r.event;
  if (ev.event !== want) {
    rdma_ack_cm_event(ev);
    io.err(`cma event ${rdma_event_str(ev.event)}, error ${ev.status}\n`);
    throw new Error(want === E.RDMA_CM_EVENT_ESTABLISHED ? connectFailure(ev, peer) : `unexpected ${rdma_event_str(ev.event)}${ev.status ? ` (${errnoString(ev.status)})` : ''}`);
  }
  return ev;
}

async function resolve(host: string): Promise<string> {
  const r = await rdma_getaddrinfo(host, null, null);
  if (r.ret !== 0 || !r.res?.ai_dst_addr) throw new Error(`getaddrinfo failed (${host}) - invalid hostname or IP address`);
  return r.res.ai_dst_addr.address;
}

async function client(o: Opts, io: CliIo): Promise<number> {
  const ch = rdma_create_event_channel()!;
  const { id } = rdma_create_id(ch, null, rdma_port_space.RDMA_PS_TCP);
  const addr = await resolve(o.addr);
  const src = o.src ? { family: 'ipv4' as const, address: await resolve(o.src), port: 0 } : null;
  if ((await rdma_resolve_addr(id!, src, { family: 'ipv4', address: addr, port: o.port }, 2000)) !== 0) throw new Error(`rdma_resolve_addr: ${lastError()}`);
  rdma_ack_cm_event(await cmEvent(ch, E.RDMA_CM_EVENT_ADDR_RESOLVED, io));
  if ((await rdma_resolve_route(id!, 2000)) !== 0) throw new Error(`rdma_resolve_route: ${lastError()}`);
  rdma_ack_cm_event(await cmEvent(ch, E.RDMA_CM_EVENT_ROUTE_RESOLVED, io));
  const ep = new Endpoint(id!, o);
  ep.setup();
  ep.postRecv();
  if ((await rdma_connect(id!, { responder_resources: 1, initiator_depth: 1, retry_count: 7, rnr_retry_count: 7 })) !== 0) {
    throw new Error(`rdma_connect: ${lastError()}`);
  }
  rdma_ack_cm_event(await cmEvent(ch, E.RDMA_CM_EVENT_ESTABLISHED, io, `${addr}:${o.port}`));
  if (o.debug) io.out('rping client connected\n');
  let start = 65;
  let failed = false;
  try {
    for (let ping = 0; o.count === 0 || ping < o.count; ping++) {
      rpingPattern(ep.startBuf!, ping, start);
      start++;
      if (start > 122) start = 65;
      ep.format(ep.startMr!.addr, ep.startMr!.rkey);
      ep.send();
      await ep.expect(ibv_wc_opcode.IBV_WC_SEND, 'send');
      await ep.expect(ibv_wc_opcode.IBV_WC_RECV, 'go ahead');
      ep.format(ep.rdmaMr.addr, ep.rdmaMr.rkey);
      ep.send();
      await ep.expect(ibv_wc_opcode.IBV_WC_SEND, 'send');
      await ep.expect(ibv_wc_opcode.IBV_WC_RECV, 'write complete');
      if (o.validate && Buffer.compare(Buffer.from(ep.startBuf!), Buffer.from(ep.rdmaBuf)) !== 0) {
        io.err('data mismatch!\n');
        failed = true;
        break;
      }
      if (o.verbose) io.out(`ping data: ${cstr(ep.rdmaBuf)}\n`);
    }
  } catch (e) {
    // A flushed completion means the connection went away; rping stays silent about flushes
    // (its DISCONNECT line follows), as our server does.
    if (!(e instanceof Flushed)) io.err(`rping client failed: ${(e as Error).message}\n`);
    failed = true;
  }
  await rdma_disconnect(id!);
  const ev = await rdma_get_cm_event(ch);
  if (ev.event?.event === E.RDMA_CM_EVENT_DISCONNECTED) io.err('client DISCONNECT EVENT...\n');
  if (ev.event) rdma_ack_cm_event(ev.event);
  rdma_destroy_qp(id!);
  rdma_destroy_id(id!);
  return failed ? 255 : 0;
}

async function server(o: Opts, io: CliIo): Promise<number> {
  const ch = rdma_create_event_channel()!;
  const { id: listen } = rdma_create_id(ch, null, rdma_port_space.RDMA_PS_TCP);
  const addr = o.addr === '0.0.0.0' ? o.addr : await resolve(o.addr);
  if (rdma_bind_addr(listen!, { family: 'ipv4', address: addr, port: o.port }) !== 0) throw new Error(lastError());
  if (rdma_listen(listen!, 3) !== 0) throw new Error(lastError());
  await rdmaListenReady(listen!);
  if (o.debug) io.out(`rping server listening on ${addr}:${o.port}\n`);
  const req = await cmEvent(ch, E.RDMA_CM_EVENT_CONNECT_REQUEST, io);
  const child = req.id;
  const ep = new Endpoint(child, o);
  ep.setup();
  ep.postRecv();
  // NULL conn_param: librdmacm answers with the request's IRD/ORD (capped by the device).
  await rdma_accept(child, { responder_resources: req.param.conn.responder_resources, initiator_depth: req.param.conn.initiator_depth });
  rdma_ack_cm_event(req);
  // The client's first Send may complete before our ESTABLISHED arrives; both are fine.
  const est = await cmEvent(ch, E.RDMA_CM_EVENT_ESTABLISHED, io);
  rdma_ack_cm_event(est);
  let failed = false;
  const disconnected = new Promise<void>((resolve) => {
    void rdma_get_cm_event(ch).then((r) => {
      if (r.event?.event === E.RDMA_CM_EVENT_DISCONNECTED) io.err('server DISCONNECT EVENT...\n');
      if (r.event) rdma_ack_cm_event(r.event);
      resolve();
    });
  });
  try {
    for (;;) {
      const adv = await ep.expect(ibv_wc_opcode.IBV_WC_RECV, 'read advertisement');
      ep.rdma(ibv_wr_opcode.IBV_WR_RDMA_READ, adv!.size, adv!.addr, adv!.rkey);
      await ep.expect(ibv_wc_opcode.IBV_WC_RDMA_READ, 'read');
      if (o.verbose) io.out(`server ping data: ${cstr(ep.rdmaBuf)}\n`);
      ep.send();
      await ep.expect(ibv_wc_opcode.IBV_WC_SEND, 'send');
      const wadv = await ep.expect(ibv_wc_opcode.IBV_WC_RECV, 'write advertisement');
      const len = Math.min(cstr(ep.rdmaBuf).length + 1, o.size);
      ep.rdma(ibv_wr_opcode.IBV_WR_RDMA_WRITE, len, wadv!.addr, wadv!.rkey);
      await ep.expect(ibv_wc_opcode.IBV_WC_RDMA_WRITE, 'write');
      ep.send();
      await ep.expect(ibv_wc_opcode.IBV_WC_SEND, 'send');
    }
  } catch (e) {
    if (!(e instanceof Flushed)) {
      io.err(`rping server failed: ${(e as Error).message}\n`);
      failed = true;
    }
  }
  await disconnected;
  io.err('wait for RDMA_READ_ADV state 10\n');
  rdma_destroy_qp(child);
  rdma_destroy_id(child);
  rdma_destroy_id(listen!);
  return failed ? 255 : 0;
}

export async function rping(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      s: { type: 'boolean', short: 's' },
      c: { type: 'boolean', short: 'c' },
      a: { type: 'string', short: 'a' },
      I: { type: 'string', short: 'I' },
      p: { type: 'string', short: 'p' },
      C: { type: 'string', short: 'C' },
      S: { type: 'string', short: 'S' },
      v: { type: 'boolean', short: 'v' },
      V: { type: 'boolean', short: 'V' },
      d: { type: 'boolean', short: 'd' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    io.out(RPING_HELP);
    return 0;
  }
  if (values.s === values.c) {
    io.err(RPING_HELP);
    return 22;
  }
  const count = Number(values.C ?? 0);
  const size = Number(values.S ?? 64);
  if (!Number.isInteger(count) || count < 0) {
    io.err(`Invalid count ${values.C}\n`);
    return 22;
  }
  if (!Number.isInteger(size) || size < MIN_SIZE || size > 65535) {
    io.err(`Invalid size ${values.S} (valid range is ${MIN_SIZE} to 65536)\n`);
    return 22;
  }
  const o: Opts = {
    server: !!values.s,
    addr: values.a ?? (values.s ? '0.0.0.0' : '127.0.0.1'),
    src: values.I ?? null,
    port: Number(values.p ?? 7174),
    count,
    size,
    verbose: !!values.v,
    validate: !!values.V,
    debug: !!values.d,
  };
  try {
    return o.server ? await server(o, io) : await client(o, io);
  } catch (e) {
    io.err(`rping ${o.server ? 'server' : 'client'} failed: ${(e as Error).message}\n`);
    return 255;
  }
}

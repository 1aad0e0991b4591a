/**
 * `softrdma rping`: rdma-core's rping protocol over softrdma's rdma_cm and verbs, so that it
 * works against the real rping in both roles (protocol: docs/interop-protocols.md §1).
 *
 * Per ping the client advertises its start buffer in a 16-byte big-endian
 * `{addr, rkey, size}` Send; the server RDMA-Reads it, answers "go ahead"; the client
 * advertises its RDMA buffer; the server RDMA-Writes the data back and answers again.
 */
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
import { isIP } from 'node:net';
import { errnoString } from '../verbs/errno.js';
import { cappedDepths } from './depth.js';
import { connectFailure, lastError } from './errors.js';
import {
  ibv_ack_cq_events,
  ibv_alloc_pd,
  ibv_create_comp_channel,
  ibv_create_cq,
  ibv_dealloc_pd,
  ibv_dereg_mr,
  ibv_destroy_comp_channel,
  ibv_destroy_cq,
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
  rdma_destroy_event_channel,
  rdma_destroy_id,
  rdma_destroy_qp,
  rdma_disconnect,
  rdma_get_cm_event,
  rdma_getaddrinfo,
  rdma_listen,
  rdma_reject,
  rdma_resolve_addr,
  rdma_resolve_route,
  rdmaListenReady,
} from '../verbs/rdma_cm.js';
import type {
  ibv_comp_channel,
  ibv_cq,
  ibv_mr,
  ibv_pd,
  ibv_qp,
  ibv_wc,
  rdma_cm_event,
  rdma_cm_id,
  rdma_event_channel,
  sockaddr,
} from '../verbs/types.js';
import type { CliIo } from './cli.js';
import { command, parseCommand, UsageError } from './spec.js';

const INFO_LEN = 16;

interface Opts {
  server: boolean;
  persistent: boolean;
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

/** One end's verbs resources (rping_setup_qp / rping_setup_buffers), freed by `free()`. */
class Endpoint {
  pd: ibv_pd | null = null;
  cq: ibv_cq | null = null;
  ch: ibv_comp_channel | null = null;
  qp!: ibv_qp;
  recvBuf = new Uint8Array(INFO_LEN);
  sendBuf = new Uint8Array(INFO_LEN);
  rdmaBuf: Uint8Array;
  startBuf: Uint8Array | null;
  recvMr!: ibv_mr;
  sendMr!: ibv_mr;
  rdmaMr!: ibv_mr;
  startMr: ibv_mr | null = null;
  readonly #mrs: ibv_mr[] = [];
  readonly #wc: ibv_wc[] = [newWc()];
  constructor(
    readonly id: rdma_cm_id,
    readonly o: Opts,
  ) {
    this.rdmaBuf = new Uint8Array(o.size);
    this.startBuf = o.server ? null : new Uint8Array(o.size);
  }

  /** Creates the PD, CQ, QP and MRs; throws naming the call that failed (what is made so far is freed by `free`). */
  setup(): void {
    const ctx = this.id.verbs;
    if (!ctx) throw new Error('no device for the connection');
    this.pd = ibv_alloc_pd(ctx);
    if (!this.pd) throw new Error(`ibv_alloc_pd: ${lastError()}`);
    this.ch = ibv_create_comp_channel(ctx);
    if (!this.ch) throw new Error(`ibv_create_comp_channel: ${lastError()}`);
    this.cq = ibv_create_cq(ctx, 32, null, this.ch, 0);
    if (!this.cq) throw new Error(`ibv_create_cq: ${lastError()}`);
    if (ibv_req_notify_cq(this.cq, 0) !== 0) throw new Error(`ibv_req_notify_cq: ${lastError()}`);
    if (
      rdma_create_qp(this.id, this.pd, {
        send_cq: this.cq,
        recv_cq: this.cq,
        qp_type: 2,
        cap: { max_send_wr: 16, max_recv_wr: 2, max_send_sge: 1, max_recv_sge: 1 },
      }) !== 0
    ) {
      throw new Error(`rdma_create_qp: ${lastError()}`);
    }
    this.qp = this.id.qp!;
    const rw = A.IBV_ACCESS_LOCAL_WRITE | A.IBV_ACCESS_REMOTE_READ | A.IBV_ACCESS_REMOTE_WRITE;
    this.recvMr = this.#reg(this.recvBuf, A.IBV_ACCESS_LOCAL_WRITE);
    this.sendMr = this.#reg(this.sendBuf, 0);
    this.rdmaMr = this.#reg(this.rdmaBuf, rw);
    if (this.startBuf) this.startMr = this.#reg(this.startBuf, rw);
  }

  #reg(buf: Uint8Array, access: number): ibv_mr {
    const mr = ibv_reg_mr(this.pd!, buf, buf.length, access);
    if (!mr) throw new Error(`ibv_reg_mr: ${lastError()}`);
    this.#mrs.push(mr);
    return mr;
  }

  /**
   * rping_free_buffers / rping_free_qp: every MR, the QP, the CQ and its channel, the PD. A
   * persistent server serves peer after peer, so nothing may stay behind; a failing call is
   * reported and the rest still freed.
   */
  free(io: CliIo): void {
    const check = (what: string, r: number): void => {
      if (r !== 0) io.err(`${what}: ${errnoString(r)}\n`);
    };
    for (const mr of this.#mrs.splice(0)) check('ibv_dereg_mr', ibv_dereg_mr(mr));
    if (this.id.qp) rdma_destroy_qp(this.id);
    if (this.cq) check('ibv_destroy_cq', ibv_destroy_cq(this.cq));
    if (this.ch) check('ibv_destroy_comp_channel', ibv_destroy_comp_channel(this.ch));
    if (this.pd) check('ibv_dealloc_pd', ibv_dealloc_pd(this.pd));
    this.cq = this.ch = this.pd = null;
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
    const cq = this.cq!;
    for (;;) {
      const n = ibv_poll_cq(cq, 1, this.#wc);
      if (n < 0) throw new Error(`ibv_poll_cq: ${errnoString(-n)}`);
      if (n > 0) {
        const w = this.#wc[0]!;
        return { ...w };
      }
      const ev = await ibv_get_cq_event(this.ch!);
      if (ev.ret !== 0) throw new Error(`ibv_get_cq_event ${ev.ret}`);
      ibv_ack_cq_events(cq, 1);
      if (ibv_req_notify_cq(cq, 0) !== 0) throw new Error(`ibv_req_notify_cq: ${lastError()}`);
    }
  }

  /**
   * Completions that arrived ahead of the one awaited. On InfiniBand a Send completes on its
   * ACK, so the peer's next message (sent once ours was received) may complete first; rping's
   * CQ handler takes completions in any order, and so does this.
   */
  readonly #early: ibv_wc[] = [];

  /** Waits for a completion of `opcode`; a receive is re-posted and its payload decoded. */
  async expect(opcode: ibv_wc_opcode, what: string): Promise<{ addr: bigint; rkey: number; size: number } | null> {
    const i = this.#early.findIndex((x) => x.opcode === opcode);
    let w: ibv_wc;
    if (i >= 0) w = this.#early.splice(i, 1)[0]!;
    else {
      for (;;) {
        w = await this.next();
        if (w.status !== ibv_wc_status.IBV_WC_SUCCESS || w.opcode === opcode) break;
        // One out-of-order completion at most is legitimate (a Send and the peer's answer).
        if (this.#early.length >= 2) throw new Error(`unexpected completion ${w.opcode} waiting for ${what}`);
        this.#early.push(w);
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
    throw new Error(
      want === E.RDMA_CM_EVENT_ESTABLISHED
        ? connectFailure(ev, peer)
        : `unexpected ${rdma_event_str(ev.event)}${ev.status ? ` (${errnoString(ev.status)})` : ''}`,
    );
  }
  return ev;
}

/** A sockaddr of the address's own family: rping takes IPv4 and IPv6 addresses (`-a`, `-I`). */
function sockaddrOf(address: string, port: number): sockaddr {
  return { family: isIP(address) === 6 ? 'ipv6' : 'ipv4', address, port };
}

async function resolve(host: string): Promise<string> {
  const r = await rdma_getaddrinfo(host, null, null);
  if (r.ret !== 0 || !r.res?.ai_dst_addr) throw new Error(`getaddrinfo failed (${host}) - invalid hostname or IP address`);
  return r.res.ai_dst_addr.address;
}

async function client(o: Opts, io: CliIo): Promise<number> {
  const ch = rdma_create_event_channel();
  if (!ch) throw new Error(`rdma_create_event_channel: ${lastError()}`);
  const { id } = rdma_create_id(ch, null, rdma_port_space.RDMA_PS_TCP);
  if (!id) throw new Error(`rdma_create_id: ${lastError()}`);
  const addr = await resolve(o.addr);
  const src = o.src ? sockaddrOf(await resolve(o.src), 0) : null;
  if ((await rdma_resolve_addr(id, src, sockaddrOf(addr, o.port), 2000)) !== 0) throw new Error(`rdma_resolve_addr: ${lastError()}`);
  rdma_ack_cm_event(await cmEvent(ch, E.RDMA_CM_EVENT_ADDR_RESOLVED, io));
  if ((await rdma_resolve_route(id, 2000)) !== 0) throw new Error(`rdma_resolve_route: ${lastError()}`);
  rdma_ack_cm_event(await cmEvent(ch, E.RDMA_CM_EVENT_ROUTE_RESOLVED, io));
  const ep = new Endpoint(id, o);
  try {
    ep.setup();
    ep.postRecv();
    if ((await rdma_connect(id, { responder_resources: 1, initiator_depth: 1, retry_count: 7, rnr_retry_count: 7 })) !== 0) {
      throw new Error(`rdma_connect: ${lastError()}`);
    }
    rdma_ack_cm_event(await cmEvent(ch, E.RDMA_CM_EVENT_ESTABLISHED, io, `${addr}:${o.port}`));
  } catch (e) {
    ep.free(io);
    rdma_destroy_id(id);
    rdma_destroy_event_channel(ch);
    throw e;
  }
  if (o.debug) io.out('rping client connected\n');
  let start = 65;
  let failed = false;
  let ping = 0;
  let stage = '';
  try {
    for (; o.count === 0 || ping < o.count; ping++) {
      rpingPattern(ep.startBuf!, ping, start);
      start++;
      if (start > 122) start = 65;
      ep.format(ep.startMr!.addr, ep.startMr!.rkey);
      ep.send();
      stage = 'first advertisement';
      await ep.expect(ibv_wc_opcode.IBV_WC_SEND, 'send');
      await ep.expect(ibv_wc_opcode.IBV_WC_RECV, 'go ahead');
      stage = '';
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
    else if (ping === 0 && stage !== '') {
      // rping's protocol has no reject after the connection is up: a server that refuses our
      // buffer (an -S above its own) ends the connection, which is all the client sees.
      io.err(
        `rping client: the server ended the connection after our ${stage} (-S ${o.size}); a server accepts at most its own -S (default 64): start it with -S ${o.size} or more\n`,
      );
    }
    failed = true;
  }
  if ((await rdma_disconnect(id)) !== 0) io.err(`rdma_disconnect: ${lastError()}\n`);
  const ev = await rdma_get_cm_event(ch);
  if (ev.event?.event === E.RDMA_CM_EVENT_DISCONNECTED) io.err('client DISCONNECT EVENT...\n');
  if (ev.event) rdma_ack_cm_event(ev.event);
  ep.free(io);
  if (rdma_destroy_id(id) !== 0) io.err(`rdma_destroy_id: ${lastError()}\n`);
  rdma_destroy_event_channel(ch);
  return failed ? 255 : 0;
}

/**
 * Routes a server's CM events (rping's `cm_thread`): connection requests to `onRequest`, the
 * events of each accepted id to whoever waits for them, in order.
 */
class CmEvents {
  readonly #queues = new Map<rdma_cm_id, rdma_cm_event[]>();
  readonly #waiters = new Map<rdma_cm_id, (ev: rdma_cm_event) => void>();
  /** Settles when the channel fails or is destroyed. */
  readonly done: Promise<void>;
  constructor(
    readonly ch: rdma_event_channel,
    onRequest: (ev: rdma_cm_event) => void,
  ) {
    this.done = (async () => {
      for (;;) {
        const r = await rdma_get_cm_event(ch);
        if (r.ret !== 0 || !r.event) return;
        const ev = r.event;
        if (ev.event === E.RDMA_CM_EVENT_CONNECT_REQUEST) {
          onRequest(ev);
          continue;
        }
        const w = this.#waiters.get(ev.id);
        if (w) {
          this.#waiters.delete(ev.id);
          w(ev);
        } else {
          const q = this.#queues.get(ev.id) ?? [];
          q.push(ev);
          this.#queues.set(ev.id, q);
        }
      }
    })();
  }

  /** The next event of `id` (the caller acks it). */
  next(id: rdma_cm_id): Promise<rdma_cm_event> {
    const q = this.#queues.get(id);
    const ev = q?.shift();
    if (q && q.length === 0) this.#queues.delete(id);
    if (ev) return Promise.resolve(ev);
    return new Promise((resolve) => this.#waiters.set(id, resolve));
  }

  /** Forgets `id` (its events not taken yet are acked). */
  forget(id: rdma_cm_id): void {
    for (const ev of this.#queues.get(id) ?? []) rdma_ack_cm_event(ev);
    this.#queues.delete(id);
    this.#waiters.delete(id);
  }
}

/**
 * Serves one client (rping_test_server): resources, accept with the request's IRD/ORD capped to
 * the device's limits (as librdmacm does for rping's NULL `conn_param`), the ping loop until the
 * client disconnects, then everything freed. A failed accept rejects the request. Returns
 * whether the connection failed.
 */
async function serveOne(req: rdma_cm_event, events: CmEvents, o: Opts, io: CliIo): Promise<boolean> {
  const child = req.id;
  const ep = new Endpoint(child, o);
  const reject = (why: string): boolean => {
    io.err(`${why}\n`);
    if (rdma_reject(child, null) !== 0) io.err(`rdma_reject: ${lastError()}\n`);
    rdma_ack_cm_event(req);
    ep.free(io);
    events.forget(child);
    if (rdma_destroy_id(child) !== 0) io.err(`rdma_destroy_id: ${lastError()}\n`);
    return true;
  };
  try {
    ep.setup();
    ep.postRecv();
  } catch (e) {
    return reject(`rping server: ${(e as Error).message}`);
  }
  const depth = cappedDepths(child.verbs!, req.param.conn);
  if (!depth) return reject(`ibv_query_device: ${lastError()}`);
  if ((await rdma_accept(child, depth)) !== 0) return reject(`rdma_accept: ${lastError()}`);
  rdma_ack_cm_event(req);
  let failed = false;
  // The client's first Send may complete before our ESTABLISHED arrives; both are fine.
  const est = await events.next(child);
  rdma_ack_cm_event(est);
  if (est.event !== E.RDMA_CM_EVENT_ESTABLISHED) {
    io.err(`cma event ${rdma_event_str(est.event)}, error ${est.status}\n`);
    failed = true;
  }
  const disconnected = failed
    ? Promise.resolve()
    : events.next(child).then((ev) => {
        if (ev.event === E.RDMA_CM_EVENT_DISCONNECTED) io.err('server DISCONNECT EVENT...\n');
        rdma_ack_cm_event(ev);
      });
  try {
    for (; !failed; ) {
      const adv = await ep.expect(ibv_wc_opcode.IBV_WC_RECV, 'read advertisement');
      // The peer's size is untrusted: a Read longer than our ping buffer is refused before it is
      // posted (the post-time SGE check would fail it too; this says why, and nothing goes on
      // the wire), and the connection ends.
      if (adv!.size > ep.rdmaBuf.length)
        throw new Error(`advertised size ${adv!.size} exceeds the ping buffer (${ep.rdmaBuf.length}); use -S`);
      ep.rdma(ibv_wr_opcode.IBV_WR_RDMA_READ, adv!.size, adv!.addr, adv!.rkey);
      await ep.expect(ibv_wc_opcode.IBV_WC_RDMA_READ, 'read');
      if (o.verbose) io.out(`server ping data: ${cstr(ep.rdmaBuf)}\n`);
      ep.send();
      await ep.expect(ibv_wc_opcode.IBV_WC_SEND, 'send');
      const wadv = await ep.expect(ibv_wc_opcode.IBV_WC_RECV, 'write advertisement');
      // Never more than the peer advertised for its sink.
      const len = Math.min(cstr(ep.rdmaBuf).length + 1, o.size, wadv!.size);
      ep.rdma(ibv_wr_opcode.IBV_WR_RDMA_WRITE, len, wadv!.addr, wadv!.rkey);
      await ep.expect(ibv_wc_opcode.IBV_WC_RDMA_WRITE, 'write');
      ep.send();
      await ep.expect(ibv_wc_opcode.IBV_WC_SEND, 'send');
    }
  } catch (e) {
    if (!(e instanceof Flushed)) {
      io.err(`rping server failed: ${(e as Error).message}\n`);
      failed = true;
      // Our own error: end the connection so that DISCONNECTED comes.
      if ((await rdma_disconnect(child)) !== 0) io.err(`rdma_disconnect: ${lastError()}\n`);
    }
  }
  await disconnected;
  io.err('wait for RDMA_READ_ADV state 10\n');
  ep.free(io);
  events.forget(child);
  if (rdma_destroy_id(child) !== 0) io.err(`rdma_destroy_id: ${lastError()}\n`);
  return failed;
}

async function server(o: Opts, io: CliIo): Promise<number> {
  const ch = rdma_create_event_channel();
  if (!ch) throw new Error(`rdma_create_event_channel: ${lastError()}`);
  const { id: listen } = rdma_create_id(ch, null, rdma_port_space.RDMA_PS_TCP);
  if (!listen) throw new Error(`rdma_create_id: ${lastError()}`);
  const addr = o.addr === '0.0.0.0' ? o.addr : await resolve(o.addr);
  if (rdma_bind_addr(listen, sockaddrOf(addr, o.port)) !== 0) throw new Error(lastError());
  // rping's backlog of 3; rdma_cm sizes the TCP accept queue for a server whatever is asked.
  if (rdma_listen(listen, 3) !== 0) throw new Error(lastError());
  await rdmaListenReady(listen);
  if (o.debug) io.out(`rping server listening on ${addr}:${o.port}${o.persistent ? ' (persistent)' : ''}\n`);
  let first: ((ev: rdma_cm_event) => void) | null = null;
  const firstReq = new Promise<rdma_cm_event>((r) => (first = r));
  let served = 0;
  let failures = 0;
  const events = new CmEvents(ch, (ev) => {
    if (o.persistent) {
      // rping_run_persistent_server: one handler per client, each on its own.
      served++;
      void serveOne(ev, events, o, io).then((bad) => {
        if (bad) failures++;
        if (o.debug) io.out(`rping server: ${served} connections, ${failures} failed\n`);
      });
      return;
    }
    if (first) {
      const f = first;
      first = null;
      f(ev);
      return;
    }
    // rping -s serves one client; a second one is told so at once instead of waiting.
    if (rdma_reject(ev.id, null) !== 0) io.err(`rdma_reject: ${lastError()}\n`);
    rdma_ack_cm_event(ev);
    rdma_destroy_id(ev.id);
  });
  if (o.persistent) {
    await events.done;
    return 255;
  }
  const req = await Promise.race([firstReq, events.done.then(() => null)]);
  if (!req) throw new Error(`rdma_get_cm_event: ${lastError()}`);
  const failed = await serveOne(req, events, o, io);
  rdma_destroy_id(listen);
  rdma_destroy_event_channel(ch);
  return failed ? 255 : 0;
}

export async function rping(argv: readonly string[], io: CliIo): Promise<number> {
  const spec = command('rping')!;
  const { values: v, numbers } = parseCommand(spec, argv);
  const values = v as { s?: boolean; P?: boolean; c?: boolean; a?: string; I?: string; v?: boolean; V?: boolean; d?: boolean };
  // -P alone is a server, as in rdma-core's rping.
  if (values.P) values.s = true;
  if (!!values.s === !!values.c) throw new UsageError('softrdma rping: say -s (server) or -c (client)', spec.usageExit);
  const count = numbers.C ?? 0;
  const size = numbers.S ?? 64;
  const o: Opts = {
    server: !!values.s,
    persistent: !!values.P,
    addr: values.a ?? (values.s ? '0.0.0.0' : '127.0.0.1'),
    src: values.I ?? null,
    port: numbers.p ?? 7174,
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

/**
 * An rping server (rdma-core's `librdmacm/examples/rping.c` protocol, docs/interop-protocols.md
 * §1) written against IT-API 2.1 only: it answers a real `rping -c` (Linux siw) or
 * `softrdma rping -c`.
 *
 *   node dist/examples/itapi/rping-server.js [--addr A] [--port P] [--count N] [--size S] [-v] [--device NAME]
 *
 * Prints `rping server listening on A:P` once the Listen Point exists (`--port 0`: IT-API picks
 * the port). One connection: like rping, it posts a Receive and accepts; the client's first Send
 * makes our passive Endpoint CONNECTED (iWARP has no RTR here). Per ping:
 *   ← Send {be64 addr, be32 rkey, be32 size}   (the client's start buffer)
 *   → RDMA Read of `size` bytes into our rdma buffer; with -v `server ping data: %s`
 *   → Send of 16 zero bytes ("go ahead")
 *   ← Send {addr, rkey, size}                   (the client's rdma buffer)
 *   → RDMA Write of strlen+1 bytes back
 *   → Send of 16 zero bytes
 * until the client disconnects. Exit status 0 when the client disconnected cleanly and, if
 * --count N > 0, exactly N pings were served; 1 otherwise.
 *
 * IT-API has no listen address: a Listen Point listens on its Spigot (all addresses of the
 * Interface). `--addr` is checked to be an address of this host and is then informational.
 *
 * The Interface: `--device NAME`, else the environment's `SOFTRDMA_DEVICE` (as for softrdma's
 * rping), else the first of `it_interface_list` (`softrdma0`, iWARP). On the RoCE Interface
 * (`--device softroce0`) the Listen Point is rdma_cm's RDMA_PS_TCP service of the port on QP1, so
 * `rping -c` of Linux rxe or `SOFTRDMA_DEVICE=softroce0 softrdma rping -c` connect to it; the
 * RTU (or the client's first Send) makes the Endpoint CONNECTED.
 */
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import {
  IT_ADDR_MODE_ABSOLUTE,
  IT_CM_MSG_CONN_BROKEN_EVENT,
  IT_CM_MSG_CONN_DISCONNECT_EVENT,
  IT_CM_MSG_CONN_ESTABLISHED_EVENT,
  IT_CM_MSG_EVENT_STREAM,
  IT_CM_REQ_CONN_REQUEST_EVENT,
  IT_CM_REQ_EVENT_STREAM,
  IT_COMPLETION_FLAG,
  IT_DTO_EVENT_STREAM,
  IT_DTO_RC_RECV_CMPL_EVENT,
  IT_DTO_RDMA_READ_CMPL_EVENT,
  IT_DTO_RDMA_WRITE_CMPL_EVENT,
  IT_DTO_SEND_CMPL_EVENT,
  IT_DTO_SUCCESS,
  IT_EVD_OVERFLOW_DEFAULT,
  IT_IANA_PORT,
  IT_LISTEN_CONN_QUAL_INPUT,
  IT_LISTEN_NO_FLAG,
  IT_NOTIFY_FLAG,
  IT_PRIV_LOCAL,
  IT_PRIV_REMOTE,
  IT_SUCCESS,
  IT_TIMEOUT_INFINITE,
  it_ep_accept,
  it_ep_disconnect,
  it_ep_rc_create,
  it_event_type_t,
  it_evd_create,
  it_evd_wait,
  it_ia_create,
  it_ia_free,
  it_interface_list,
  it_listen_create,
  it_lmr_create,
  it_make_rdma_addr_absolute,
  it_post_rdma_read,
  it_post_rdma_write,
  it_post_recv,
  it_post_send,
  it_pz_create,
  itStatusName,
  type it_conn_request_event_t,
  type it_dto_cmpl_event_t,
  type it_ep_handle_t,
  type it_evd_flags_t,
  type it_evd_handle_t,
  type it_event_t,
  type it_lmr_flag_t,
  type it_lmr_handle_t,
  type it_mem_priv_t,
  type it_pz_handle_t,
} from '../../src/itapi/index.js';

const INFO_LEN = 16; // struct rping_rdma_info { be64 buf; be32 rkey; be32 size; }
const MAX_SIZE = 65536;
const NO_EVD_FLAGS = 0 as it_evd_flags_t;
const NO_LMR_FLAGS = 0 as it_lmr_flag_t;

interface Opts {
  addr: string;
  port: number;
  count: number;
  size: number;
  verbose: boolean;
  debug: boolean;
  device: string | undefined;
}

function parse(argv: string[]): Opts {
  const { values } = parseArgs({
    args: argv,
    options: {
      addr: { type: 'string', short: 'a', default: '0.0.0.0' },
      port: { type: 'string', short: 'p', default: '7174' },
      count: { type: 'string', short: 'C', default: '0' },
      size: { type: 'string', short: 'S', default: String(MAX_SIZE) },
      v: { type: 'boolean', short: 'v', default: false },
      d: { type: 'boolean', short: 'd', default: false },
      device: { type: 'string' },
    },
    strict: true,
  });
  const num = (s: string, what: string, lo: number, hi: number): number => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < lo || n > hi) throw new Error(`invalid ${what} ${s}`);
    return n;
  };
  return {
    addr: values.addr,
    port: num(values.port, 'port', 0, 65535),
    count: num(values.count, 'count', 0, 2 ** 31 - 1),
    size: num(values.size, 'size', 23, MAX_SIZE),
    verbose: values.v,
    debug: values.d,
    device: values.device ?? (process.env.SOFTRDMA_DEVICE || undefined),
  };
}

/**
 * Whether `a` is an address of this host: a trial TCP bind on it (the interface list of
 * `os.networkInterfaces` leaves out links without carrier, such as a bridge whose tap is down).
 */
function isLocalAddress(a: string): Promise<boolean> {
  if (a === '0.0.0.0' || a === '::') return Promise.resolve(true);
  return new Promise((res) => {
    const s = createServer();
    s.once('error', () => res(false));
    s.listen({ host: a, port: 0 }, () => s.close(() => res(true)));
  });
}

/** A registered buffer: the bytes, its LMR and its absolute address. */
interface Region {
  buf: Uint8Array;
  lmr: it_lmr_handle_t;
  base: bigint;
}

function region(pz: it_pz_handle_t, n: number, privs: it_mem_priv_t): Region {
  const buf = new Uint8Array(n);
  const lmr = it_lmr_create(pz, buf, null, n, IT_ADDR_MODE_ABSOLUTE, privs, NO_LMR_FLAGS, 0).lmr_handle;
  return { buf, lmr, base: it_make_rdma_addr_absolute(buf) };
}

function cstr(b: Uint8Array): string {
  const end = b.indexOf(0);
  return Buffer.from(end < 0 ? b : b.subarray(0, end)).toString('latin1');
}

class Disconnected extends Error {}

/**
 * Waits on the DTO EVD while watching the connection EVD: a DISCONNECT or BROKEN Event (or a
 * flushed completion) ends the connection. One wait on the CM EVD stays outstanding across calls.
 */
class Waiter {
  #cmWait: Promise<it_event_t | null> | null = null;
  disconnected = false;
  established = false;

  readonly #dto: it_evd_handle_t;
  readonly #cm: it_evd_handle_t;
  readonly #debug: (s: string) => void;
  constructor(dto: it_evd_handle_t, cm: it_evd_handle_t, debug: (s: string) => void) {
    this.#dto = dto;
    this.#cm = cm;
    this.#debug = debug;
  }

  #armCm(): Promise<it_event_t | null> {
    this.#cmWait ??= it_evd_wait(this.#cm, IT_TIMEOUT_INFINITE).then((r) => (r.status === IT_SUCCESS ? r.event : null));
    return this.#cmWait;
  }

  #onCm(ev: it_event_t | null): void {
    this.#cmWait = null;
    if (!ev) {
      this.disconnected = true;
      return;
    }
    this.#debug(`cm event ${it_event_type_t[ev.event_number]}`);
    if (ev.event_number === IT_CM_MSG_CONN_ESTABLISHED_EVENT) this.established = true;
    else if (ev.event_number === IT_CM_MSG_CONN_DISCONNECT_EVENT || ev.event_number === IT_CM_MSG_CONN_BROKEN_EVENT)
      this.disconnected = true;
    else this.disconnected = true; // any reject / failure ends this one-connection server
  }

  /** Completions that arrived before the one awaited (kept in order). */
  readonly #early: it_dto_cmpl_event_t[] = [];

  /**
   * The next DTO completion of `type`, which must be successful; throws Disconnected otherwise.
   * Completions of another type are kept for later: on InfiniBand (the RoCE Interface) a Send
   * completes on its ACK, which may come after the peer's answer to it has arrived.
   */
  async dto_(type: it_event_type_t, what: string): Promise<it_dto_cmpl_event_t> {
    const i = this.#early.findIndex((e) => e.event_number === type);
    if (i >= 0) return this.#early.splice(i, 1)[0]!;
    let dtoWait = it_evd_wait(this.#dto, IT_TIMEOUT_INFINITE);
    for (;;) {
      const cmWait = this.#armCm();
      const won = await Promise.race([dtoWait.then((r) => ({ k: 'dto' as const, r })), cmWait.then((ev) => ({ k: 'cm' as const, ev }))]);
      if (won.k === 'cm') {
        this.#onCm(won.ev);
        if (this.disconnected) throw new Disconnected(`disconnected while waiting for ${what}`);
        continue;
      }
      const r = won.r;
      if (r.status !== IT_SUCCESS) throw new Disconnected(`no DTO event while waiting for ${what}: ${itStatusName(r.status)}`);
      const ev = r.event as it_dto_cmpl_event_t;
      this.#debug(
        `dto event ${it_event_type_t[ev.event_number]} cookie=${ev.cookie} status=${ev.dto_status} length=${ev.transferred_length}`,
      );
      if (ev.dto_status !== IT_DTO_SUCCESS) throw new Disconnected(`${what} completed with status ${ev.dto_status}`);
      if (ev.event_number === type) return ev;
      if (this.#early.length >= 8)
        throw new Error(
          `expected ${it_event_type_t[type]} (${what}), got ${this.#early.map((e) => it_event_type_t[e.event_number]).join(', ')}`,
        );
      this.#early.push(ev);
      dtoWait = it_evd_wait(this.#dto, IT_TIMEOUT_INFINITE);
    }
  }

  /** After the loop: waits (bounded) for the DISCONNECT Event if it has not come yet. */
  async awaitDisconnect(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (!this.disconnected && Date.now() < deadline) {
      const t = new Promise<'t'>((r) => setTimeout(() => r('t'), Math.max(1, deadline - Date.now())).unref());
      const won = await Promise.race([this.#armCm(), t]);
      if (won === 't') return;
      this.#onCm(won);
    }
  }
}

async function serve(o: Opts): Promise<number> {
  const out = (s: string): void => void process.stdout.write(s);
  const err = (s: string): void => void process.stderr.write(s);
  const debug = (s: string): void => {
    if (o.debug) err(`[debug] ${s}\n`);
  };
  if (!(await isLocalAddress(o.addr))) {
    err(`rping server: ${o.addr} is not an address of this host\n`);
    return 1;
  }
  const list = it_interface_list(16).interfaces;
  const name = o.device ?? list[0]?.name;
  if (!name || !list.some((i) => i.name === name)) {
    err(`rping server: no IT-API interface ${name ?? ''} (have ${list.map((i) => i.name).join(', ')})\n`);
    return 1;
  }
  debug(`interface ${name}`);
  const ia = it_ia_create(name, 2, 1);
  let pings = 0;
  try {
    const pz = it_pz_create(ia);
    // rping: one CQ of 32 for both queues; a connection EVD; a CM_REQ EVD with backlog 3.
    const dto = it_evd_create(ia, IT_DTO_EVENT_STREAM, NO_EVD_FLAGS, 32, 1, null).evd_handle;
    const cm = it_evd_create(ia, IT_CM_MSG_EVENT_STREAM, IT_EVD_OVERFLOW_DEFAULT, 8, 1, null).evd_handle;
    const creq = it_evd_create(ia, IT_CM_REQ_EVENT_STREAM, NO_EVD_FLAGS, 3, 1, null).evd_handle;
    const l = it_listen_create(ia, 0, creq, o.port > 0 ? IT_LISTEN_CONN_QUAL_INPUT : IT_LISTEN_NO_FLAG, {
      type: IT_IANA_PORT,
      conn_qual: { port: o.port },
    });
    const port = 'port' in l.conn_qual.conn_qual ? l.conn_qual.conn_qual.port : o.port;
    out(`rping server listening on ${o.addr}:${port}\n`);

    const w = await it_evd_wait(creq, IT_TIMEOUT_INFINITE);
    if (w.status !== IT_SUCCESS || w.event.event_number !== IT_CM_REQ_CONN_REQUEST_EVENT) throw new Error('no connection request');
    const req = w.event as it_conn_request_event_t;
    const src = req.source_addr.addr;
    debug(
      `connection request from ${'ipv4' in src ? src.ipv4 : 'ipv6' in src ? src.ipv6 : '?'} ird=${req.rdma_read_ird} ord=${req.rdma_read_ord}`,
    );

    const ep: it_ep_handle_t = it_ep_rc_create(pz, dto, dto, cm, 0, {
      max_dto_payload_size: MAX_SIZE,
      max_request_dtos: 16,
      max_recv_dtos: 2,
      max_send_segments: 1,
      max_recv_segments: 1,
      priv_ops_enable: false,
      srv: {
        rc: {
          rdma_read_enable: true,
          // iWARP: the sink of an RDMA Read needs Remote Write (and the Endpoint's write enable).
          rdma_write_enable: true,
          max_rdma_read_segments: 1,
          max_rdma_write_segments: 1,
          rdma_read_ird: 1,
          rdma_read_ord: 1,
          srq: null,
          soft_hi_watermark: 0,
          hard_hi_watermark: 0,
          atomics_enable: false,
        },
      },
    });
    const recvBuf = region(pz, INFO_LEN, IT_PRIV_LOCAL);
    const sendBuf = region(pz, INFO_LEN, IT_PRIV_LOCAL); // never written: the "go ahead" is 16 zero bytes
    // rping's rdma_buf: LOCAL_WRITE | REMOTE_READ | REMOTE_WRITE (Read sink, Write source).
    const rdmaBuf = region(pz, o.size, (IT_PRIV_LOCAL | IT_PRIV_REMOTE) as it_mem_priv_t);
    let cookie = 0n;
    const postRecv = (): void =>
      it_post_recv(ep, [{ lmr: recvBuf.lmr, addr: recvBuf.base, length: INFO_LEN }], ++cookie, IT_COMPLETION_FLAG | IT_NOTIFY_FLAG);
    const waiter = new Waiter(dto, cm, debug);

    /** Receives one advertisement (re-posting the receive first, as rping does). */
    const recvInfo = async (what: string): Promise<{ addr: bigint; rkey: number; size: number }> => {
      const ev = await waiter.dto_(IT_DTO_RC_RECV_CMPL_EVENT, what);
      if (ev.transferred_length !== INFO_LEN) throw new Error(`Received bogus data, size ${ev.transferred_length}`);
      const v = new DataView(recvBuf.buf.buffer, recvBuf.buf.byteOffset, INFO_LEN);
      const info = { addr: v.getBigUint64(0), rkey: v.getUint32(8), size: v.getUint32(12) };
      postRecv();
      debug(`${what}: addr 0x${info.addr.toString(16)} rkey 0x${info.rkey.toString(16)} size ${info.size}`);
      return info;
    };
    const sendGo = async (): Promise<void> => {
      it_post_send(ep, [{ lmr: sendBuf.lmr, addr: sendBuf.base, length: INFO_LEN }], ++cookie, IT_COMPLETION_FLAG | IT_NOTIFY_FLAG);
      await waiter.dto_(IT_DTO_SEND_CMPL_EVENT, 'send completion');
    };

    // rping posts one receive, then accepts; the client's first Send makes the EP CONNECTED.
    postRecv();
    it_ep_accept(ep, req.cn_est_id, null);
    try {
      while (o.count === 0 || pings < o.count) {
        const rd = await recvInfo('read advertisement');
        if (rd.size > o.size) throw new Error(`the client's size ${rd.size} exceeds ours (${o.size})`);
        rdmaBuf.buf.fill(0);
        it_post_rdma_read(
          ep,
          [{ lmr: rdmaBuf.lmr, addr: rdmaBuf.base, length: rd.size }],
          ++cookie,
          IT_COMPLETION_FLAG | IT_NOTIFY_FLAG,
          rd.addr,
          rd.rkey,
        );
        await waiter.dto_(IT_DTO_RDMA_READ_CMPL_EVENT, 'RDMA Read completion');
        if (o.verbose) out(`server ping data: ${cstr(rdmaBuf.buf.subarray(0, rd.size))}\n`);
        await sendGo();

        const wr = await recvInfo('write advertisement');
        let len = rdmaBuf.buf.indexOf(0) + 1;
        if (len === 0) len = rd.size;
        len = Math.min(len, wr.size);
        it_post_rdma_write(
          ep,
          [{ lmr: rdmaBuf.lmr, addr: rdmaBuf.base, length: len }],
          ++cookie,
          IT_COMPLETION_FLAG | IT_NOTIFY_FLAG,
          wr.addr,
          wr.rkey,
        );
        await waiter.dto_(IT_DTO_RDMA_WRITE_CMPL_EVENT, 'RDMA Write completion');
        await sendGo();
        pings++;
      }
      // Count reached: the client disconnects next (its pending receive is flushed then). rdma-core's
      // rping server waits for it without limit; a minute covers an emulated client under load.
      await waiter.awaitDisconnect(60_000);
    } catch (e) {
      if (!(e instanceof Disconnected)) throw e;
      debug((e as Error).message);
      if (!waiter.disconnected) await waiter.awaitDisconnect(5_000);
    }
    if (waiter.disconnected) err('server DISCONNECT EVENT...\n');
    else err('rping server: no disconnect from the client\n');
    if (!waiter.disconnected) {
      try {
        it_ep_disconnect(ep, null);
      } catch {
        // already NONOPERATIONAL
      }
    }
    out(`rping server: ${pings} ping${pings === 1 ? '' : 's'} served\n`);
    return waiter.disconnected && (o.count === 0 || pings === o.count) ? 0 : 1;
  } finally {
    it_ia_free(ia);
  }
}

serve(parse(process.argv.slice(2))).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`rping server failed: ${(e as Error).message ?? e}\n`);
    process.exitCode = 1;
  },
);

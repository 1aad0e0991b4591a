/**
 * `softrdma perf`: perftest's `-R` wire protocol (docs/interop-protocols.md §2.3–2.6) — the
 * control ("comm") connection that carries every out-of-band exchange as Send/Recv messages,
 * the `struct pingpong_dest` encoding, the version / system-data / MTU / BW-report messages —
 * plus the rdma_cm event pump and the completion waits the test loops share.
 */
import { setImmediate as yieldLoop } from 'node:timers/promises';
import {
  ibv_access_flags as A,
  ibv_qp_type,
  ibv_send_flags,
  ibv_wc_opcode,
  ibv_wc_status,
  ibv_wc_status_str,
  ibv_wr_opcode,
  rdma_cm_event_type as E,
  rdma_event_str,
  rdma_port_space,
} from '../verbs/constants.js';
import { getErrno } from '../verbs/errno.js';
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
  rdma_create_id,
  rdma_create_qp,
  rdma_get_cm_event,
  rdma_get_src_port,
  rdma_get_devices,
  rdma_listen,
  rdma_reject,
  rdma_resolve_addr,
  rdma_resolve_route,
  rdmaListenReady,
  rdmaUseDevice,
} from '../verbs/rdma_cm.js';
import type { ibv_comp_channel, ibv_cq, ibv_mr, ibv_qp, ibv_wc, rdma_cm_id, rdma_conn_param, rdma_event_channel } from '../verbs/types.js';

/** The version string we claim: Debian 12's perftest 4.5-0.17 (below 6.28: no negotiation). */
export const PERFTEST_VERSION = '6.06';
/** `SYNC_SPEC_ID`: the wr_id of every control message. */
const SYNC_SPEC_ID = 5n;
/** `sizeof(struct pingpong_dest)` up to perftest 6.28, and from 6.29 on. */
export const DEST_LEN = 56;
export const DEST_LEN_WIDE = 64;
/** Control buffer: one page for receives (a 6.28+ negotiate message is ~300 B), one for sends. */
const COMM_PAGE = 4096;
/**
 * What we put in the four padding octets of `pingpong_dest` (offset 20, "garbage" in perftest,
 * which copies the fields one by one and never reads them): lets a softrdma peer recognise
 * another one.
 */
export const SOFTRDMA_MAGIC = 0x736f6674; // "soft"

export class PerfError extends Error {}

/** `struct pingpong_dest` (host values). */
export interface PingpongDest {
  lid: number;
  outReads: number;
  qpn: number;
  psn: number;
  rkey: number;
  vaddr: bigint;
  gid: Uint8Array;
  srqn: number;
  gidIndex: number;
  /** Whether the padding carried {@link SOFTRDMA_MAGIC} (decode only). */
  softrdma?: boolean;
}

export function zeroDest(): PingpongDest {
  return { lid: 0, outReads: 0, qpn: 0, psn: 0, rkey: 0, vaddr: 0n, gid: new Uint8Array(16), srqn: 0, gidIndex: 0 };
}

/**
 * `rdma_write_keys`: every integer big-endian. 56 octets (4.5 … 6.28), or 64 with 6.29's
 * `tail_markers_vaddr` at 32 (then gid at 40, srqn 56, gid_index 60; we send 0 there).
 */
export function encodeDest(d: PingpongDest, wide: boolean): Uint8Array {
  const b = new Uint8Array(wide ? DEST_LEN_WIDE : DEST_LEN);
  const v = new DataView(b.buffer);
  v.setInt32(0, d.lid);
  v.setInt32(4, d.outReads);
  v.setInt32(8, d.qpn);
  v.setInt32(12, d.psn);
  v.setUint32(16, d.rkey >>> 0);
  v.setUint32(20, SOFTRDMA_MAGIC);
  v.setBigUint64(24, d.vaddr);
  const g = wide ? 40 : 32;
  b.set(d.gid.subarray(0, 16), g);
  v.setUint32(g + 16, d.srqn >>> 0);
  v.setInt32(g + 20, d.gidIndex);
  return b;
}

/** `rdma_read_keys` (gid_index is not read: perftest keeps its own). */
export function decodeDest(b: Uint8Array, wide: boolean): PingpongDest {
  const v = new DataView(b.buffer, b.byteOffset, b.length);
  const g = wide ? 40 : 32;
  return {
    lid: v.getInt32(0),
    outReads: v.getInt32(4),
    qpn: v.getInt32(8),
    psn: v.getInt32(12),
    rkey: v.getUint32(16),
    vaddr: v.getBigUint64(24),
    gid: b.slice(g, g + 16),
    srqn: v.getUint32(g + 16),
    gidIndex: 0,
    softrdma: v.getUint32(20) === SOFTRDMA_MAGIC,
  };
}

/** C's `atof` on a version string: the leading decimal number, 0 if none. */
export function versionNumber(s: string): number {
  const m = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)/.exec(s);
  return m ? Number(m[0]) : 0;
}

/** `float` comparison as perftest does it (`atof` result stored in a float). */
export function versionAtLeast(v: number, min: number): boolean {
  return Math.fround(v) >= Math.fround(min);
}

// ------------------------------------------------------------------------------ CM events

/** The fields of an rdma_cm event we keep (the event itself is acked at once). */
export interface CmEv {
  event: E;
  status: number;
  id: rdma_cm_id;
  listenId: rdma_cm_id | null;
  conn: rdma_conn_param;
}

/**
 * Reads one event channel for its whole life and hands each event to whoever waits for its id
 * (CONNECT_REQUEST: for the listening id). Events are acked on arrival, so ids can always be
 * destroyed. DISCONNECTED is also remembered per id, so that loops can stop waiting on a
 * connection the peer has closed.
 */
export class CmPump {
  readonly #queues = new Map<rdma_cm_id, CmEv[]>();
  readonly #waiters = new Map<rdma_cm_id, ((e: CmEv | null) => void)[]>();
  readonly disconnected = new Set<rdma_cm_id>();
  closed = false;
  constructor(readonly ch: rdma_event_channel) {
    void this.#loop();
  }

  async #loop(): Promise<void> {
    for (;;) {
      const r = await rdma_get_cm_event(this.ch);
      if (r.ret !== 0 || !r.event) break;
      const ev = r.event;
      const e: CmEv = { event: ev.event, status: ev.status, id: ev.id, listenId: ev.listen_id, conn: { ...ev.param.conn } };
      rdma_ack_cm_event(ev);
      if (e.event === E.RDMA_CM_EVENT_DISCONNECTED) this.disconnected.add(e.id);
      const key = e.event === E.RDMA_CM_EVENT_CONNECT_REQUEST && e.listenId ? e.listenId : e.id;
      const w = this.#waiters.get(key)?.shift();
      if (w) w(e);
      else {
        const q = this.#queues.get(key) ?? [];
        q.push(e);
        this.#queues.set(key, q);
      }
    }
    this.closed = true;
    for (const ws of this.#waiters.values()) for (const w of ws.splice(0)) w(null);
  }

  /** The next event of `id`; null when the channel closed or after `timeoutMs`. */
  next(id: rdma_cm_id, timeoutMs = 0): Promise<CmEv | null> {
    const q = this.#queues.get(id);
    const e = q?.shift();
    if (e) return Promise.resolve(e);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      const list = this.#waiters.get(id) ?? [];
      let timer: NodeJS.Timeout | null = null;
      const done = (ev: CmEv | null) => {
        if (timer) clearTimeout(timer);
        resolve(ev);
      };
      list.push(done);
      this.#waiters.set(id, list);
      if (timeoutMs > 0) {
        timer = setTimeout(() => {
          const i = list.indexOf(done);
          if (i >= 0) list.splice(i, 1);
          resolve(null);
        }, timeoutMs);
        timer.unref();
      }
    });
  }

  /** Waits for an event of `id` that must be `want`. */
  async expect(id: rdma_cm_id, want: E, what: string, timeoutMs = 0): Promise<CmEv> {
    const e = await this.next(id, timeoutMs);
    if (!e) throw new PerfError(`${what}: no ${rdma_event_str(want)} event`);
    if (e.event !== want) throw new PerfError(`${what}: unexpected CM event ${rdma_event_str(e.event)} (${e.event}), status ${e.status}`);
    return e;
  }
}

// ------------------------------------------------------------------------------ completions

/** How the test loops wait for completions: sleep on the CQ's channel, or poll and yield. */
export interface Waiter {
  busyPoll: boolean;
  /** Throws when the run must stop (the peer went away). */
  check(): void;
}

/**
 * Polls `cq` for up to `wc.length` completions and returns how many (≥ 1). When the CQ is
 * empty: with a channel (blocking mode) arms the CQ and sleeps until its completion event;
 * without one (busy polling) yields to the event loop and polls again.
 */
export async function waitCq(cq: ibv_cq, ch: ibv_comp_channel | null, wc: ibv_wc[], w: Waiter): Promise<number> {
  for (;;) {
    let n = ibv_poll_cq(cq, wc.length, wc);
    if (n < 0) throw new PerfError(`poll CQ failed ${n}`);
    if (n > 0) return n;
    w.check();
    if (ch && !w.busyPoll) {
      if (ibv_req_notify_cq(cq, 0) !== 0) throw new PerfError("Couldn't request CQ notification");
      n = ibv_poll_cq(cq, wc.length, wc);
      if (n > 0) return n;
      const ev = await ibv_get_cq_event(ch);
      if (ev.ret !== 0) throw new PerfError(`ibv_get_cq_event failed (errno ${getErrno()})`);
      ibv_ack_cq_events(ev.cq ?? cq, 1);
    } else {
      await yieldLoop();
    }
  }
}

export function wcError(wc: ibv_wc, what: string): PerfError {
  return new PerfError(`${what}: completion with error: ${ibv_wc_status_str(wc.status)} (${wc.status}), vendor error ${wc.vendor_err}`);
}

// ------------------------------------------------------------------------------ control connection

/** `-d DEV`: the id uses that device (rdmaUseDevice); without it rdma_cm chooses (SOFTRDMA_DEVICE, else softrdma0). */
export function useDevice(id: rdma_cm_id, dev: string | undefined): void {
  if (dev === undefined) return;
  const ctx = rdma_get_devices()?.find((c) => c.device.name === dev);
  if (!ctx || rdmaUseDevice(id, ctx) !== 0) throw new PerfError(`IB device ${dev} not found`);
}

/**
 * What the test flows need of the out-of-band channel, whichever carries it: the rdma_cm
 * control connection ({@link Control}, `-R`) or perftest's TCP socket (`EthControl`).
 */
export interface CtlChannel {
  readonly client: boolean;
  /** Set once the run is over: a closing peer is then expected. */
  finished: boolean;
  /** Throws if the peer has gone. */
  check(): void;
  /** `ctx_xchg_data`: the client sends then receives; the server receives then sends. */
  xchg(msg: Uint8Array, n?: number): Promise<Uint8Array>;
  /** `ctx_hand_shake`: one `pingpong_dest` exchange. */
  handshake(my: PingpongDest): Promise<PingpongDest>;
}

/**
 * The control connection (`create_comm_struct`, `rdma_client_connect`, `rdma_server_connect`):
 * an RC QP with one receive always posted (before connect/accept, and re-posted right after a
 * message is consumed, before any reply), IRD/ORD 0. Messages are single signaled Sends; the
 * client sends first in every exchange, the server receives first.
 */
export class Control implements CtlChannel {
  readonly #buf = new Uint8Array(2 * COMM_PAGE);
  #mr!: ibv_mr;
  #qp!: ibv_qp;
  #scq!: ibv_cq;
  #rcq!: ibv_cq;
  #sch!: ibv_comp_channel;
  #rch!: ibv_comp_channel;
  readonly #wc: ibv_wc[] = [newWc()];
  /** Message length of `pingpong_dest` towards the peer (64 for a 6.29+ peer). */
  destLen = DEST_LEN;
  /** Set once the run is over: a closing peer is then expected. */
  finished = false;

  readonly #waiter: Waiter;
  private constructor(
    readonly id: rdma_cm_id,
    readonly client: boolean,
    readonly pump: CmPump,
    waiter: Waiter,
  ) {
    this.#waiter = waiter;
  }

  #setup(): void {
    const ctx = this.id.verbs;
    if (!ctx) throw new PerfError('no device for the control connection');
    const pd = ibv_alloc_pd(ctx);
    this.#sch = ibv_create_comp_channel(ctx)!;
    this.#rch = ibv_create_comp_channel(ctx)!;
    this.#scq = ibv_create_cq(ctx, 1, null, this.#sch, 0)!;
    this.#rcq = ibv_create_cq(ctx, 1, null, this.#rch, 0)!;
    if (!pd || !this.#scq || !this.#rcq) throw new PerfError(' Unable to create the resources needed by comm struct');
    const cap = { max_send_wr: 1, max_recv_wr: 1, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 };
    if (rdma_create_qp(this.id, pd, { send_cq: this.#scq, recv_cq: this.#rcq, qp_type: ibv_qp_type.IBV_QPT_RC, cap }) !== 0) {
      throw new PerfError(`rdma_create_qp failed (errno ${getErrno()})`);
    }
    this.#qp = this.id.qp!;
    const mr = ibv_reg_mr(pd, this.#buf, this.#buf.length, A.IBV_ACCESS_LOCAL_WRITE);
    if (!mr) throw new PerfError("Couldn't allocate MR");
    this.#mr = mr;
    this.#postRecv();
  }

  #postRecv(): void {
    const r = ibv_post_recv(this.#qp, { wr_id: SYNC_SPEC_ID, sg_list: [{ addr: this.#mr.addr, length: COMM_PAGE, lkey: this.#mr.lkey }] });
    if (r.ret !== 0) throw new PerfError('Function ibv_post_recv failed for RDMA_CM QP');
  }

  /** Client: resolve, create resources, post the receive, connect (IRD/ORD 0), wait for ESTABLISHED. */
  static async connect(pump: CmPump, addr: string, port: number, waiter: Waiter, dev?: string): Promise<Control> {
    const { id } = rdma_create_id(pump.ch, null, rdma_port_space.RDMA_PS_TCP);
    if (!id) throw new PerfError(`rdma_create_id failed (errno ${getErrno()})`);
    useDevice(id, dev);
    const c = new Control(id, true, pump, waiter);
    if ((await rdma_resolve_addr(id, null, { family: 'ipv4', address: addr, port }, 2000)) !== 0)
      throw new PerfError(`rdma_resolve_addr failed: ${lastError()}`);
    await pump.expect(id, E.RDMA_CM_EVENT_ADDR_RESOLVED, 'rdma_resolve_addr');
    if ((await rdma_resolve_route(id, 2000)) !== 0) throw new PerfError('rdma_resolve_route failed');
    await pump.expect(id, E.RDMA_CM_EVENT_ROUTE_RESOLVED, 'rdma_resolve_route');
    c.#setup();
    const param = { responder_resources: 0, initiator_depth: 0, retry_count: 7, rnr_retry_count: 7 };
    if ((await rdma_connect(id, param)) !== 0) throw new PerfError(`Function rdma_connect failed: ${lastError()}`);
    const e = await pump.next(id);
    if (!e || e.event !== E.RDMA_CM_EVENT_ESTABLISHED) throw new PerfError(connectFailure(e, `${addr}:${port}`));
    return c;
  }

  /** Server: binds and listens; the listener stays up for the data connections too. Resolves with the port. */
  static async listen(
    pump: CmPump,
    bind: string,
    port: number,
    backlog: number,
    dev?: string,
  ): Promise<{ listenId: rdma_cm_id; port: number }> {
    const { id: listenId } = rdma_create_id(pump.ch, null, rdma_port_space.RDMA_PS_TCP);
    if (!listenId) throw new PerfError(`rdma_create_id failed (errno ${getErrno()})`);
    useDevice(listenId, dev);
    if (rdma_bind_addr(listenId, { family: 'ipv4', address: bind, port }) !== 0)
      throw new PerfError(`rdma_bind_addr failed: ${lastError()}`);
    if (rdma_listen(listenId, backlog) !== 0) throw new PerfError(`rdma_listen failed: ${lastError()}`);
    await rdmaListenReady(listenId).catch((e: Error) => {
      throw new PerfError(`rdma_listen failed: ${e.message}`);
    });
    const bound = rdma_get_src_port(listenId);
    if (bound === 0 || (port !== 0 && bound !== port)) throw new PerfError(`rdma_listen failed: cannot listen on ${bind}:${port}`);
    return { listenId, port: bound };
  }

  /**
   * Server: waits for the first CONNECT_REQUEST on the listener, creates the resources, posts
   * the receive and accepts with IRD/ORD 0. Like perftest, does not wait for ESTABLISHED.
   */
  static async accept(pump: CmPump, listenId: rdma_cm_id, waiter: Waiter): Promise<Control> {
    const e = await pump.next(listenId);
    if (!e || e.event !== E.RDMA_CM_EVENT_CONNECT_REQUEST) throw new PerfError(`bad event waiting for connect request ${e?.event ?? -1}`);
    const c = new Control(e.id, false, pump, waiter);
    c.#setup();
    if ((await rdma_accept(e.id, { responder_resources: 0, initiator_depth: 0, retry_count: 7, rnr_retry_count: 7 })) !== 0) {
      const errno = getErrno();
      // A failed accept rejects, so the client hears at once rather than waiting for the CM.
      rdma_reject(e.id, null);
      throw new PerfError(`Function rdma_accept failed (errno ${errno})`);
    }
    return c;
  }

  /** Throws if the control connection is gone (the peer closed it). */
  check(): void {
    if (this.pump.disconnected.has(this.id) && !this.finished) throw new PerfError('the peer closed the control connection');
  }

  /** `rdma_write_data`: one signaled Send of `msg` from the send page; waits for its completion. */
  async send(msg: Uint8Array): Promise<void> {
    this.#buf.set(msg, COMM_PAGE);
    const r = ibv_post_send(this.#qp, {
      wr_id: SYNC_SPEC_ID,
      opcode: ibv_wr_opcode.IBV_WR_SEND,
      send_flags: ibv_send_flags.IBV_SEND_SIGNALED,
      sg_list: [{ addr: this.#mr.addr + BigInt(COMM_PAGE), length: msg.length, lkey: this.#mr.lkey }],
    });
    if (r.ret !== 0) throw new PerfError('Function ibv_post_send failed');
    await waitCq(this.#scq, this.#sch, this.#wc, this.#waiterFor());
    const w = this.#wc[0]!;
    if (w.status === ibv_wc_status.IBV_WC_WR_FLUSH_ERR) throw new PerfError('the control connection was closed (is the peer gone?)');
    if (w.status !== ibv_wc_status.IBV_WC_SUCCESS || w.opcode !== ibv_wc_opcode.IBV_WC_SEND) throw wcError(w, ' Bad wc status');
  }

  /** `rdma_read_data`: waits for the next message, copies `n` octets (whatever its length), re-posts. */
  async recv(n: number): Promise<Uint8Array> {
    await waitCq(this.#rcq, this.#rch, this.#wc, this.#waiterFor());
    const w = this.#wc[0]!;
    if (w.status === ibv_wc_status.IBV_WC_WR_FLUSH_ERR) throw new PerfError('the control connection was closed (is the peer gone?)');
    if (w.status !== ibv_wc_status.IBV_WC_SUCCESS || w.opcode !== ibv_wc_opcode.IBV_WC_RECV) throw wcError(w, 'Bad wc status');
    const out = this.#buf.slice(0, n);
    this.#postRecv();
    return out;
  }

  #waiterFor(): Waiter {
    return { busyPoll: this.#waiter.busyPoll, check: () => this.check() };
  }

  /** `ctx_xchg_data`: the client sends then receives; the server receives then sends. */
  async xchg(msg: Uint8Array, n = msg.length): Promise<Uint8Array> {
    if (this.client) {
      await this.send(msg);
      return this.recv(n);
    }
    const r = await this.recv(n);
    await this.send(msg);
    return r;
  }

  /** `ctx_hand_shake`: one `pingpong_dest` exchange. */
  async handshake(my: PingpongDest): Promise<PingpongDest> {
    const wide = this.destLen === DEST_LEN_WIDE;
    return decodeDest(await this.xchg(encodeDest(my, wide), this.destLen), wide);
  }
}

// ------------------------------------------------------------------------------ messages

/** The version message: the string NUL-padded to 16 octets (`char version[16]`). */
export function versionMsg(v: string): Uint8Array {
  const b = new Uint8Array(16);
  b.set(Buffer.from(v, 'latin1').subarray(0, 15));
  return b;
}

export function cstring(b: Uint8Array): string {
  const z = b.indexOf(0);
  return Buffer.from(b.subarray(0, z < 0 ? b.length : z)).toString('latin1');
}

export function be32(v: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, v);
  return b;
}

export function readBe32(b: Uint8Array): number {
  return new DataView(b.buffer, b.byteOffset, 4).getInt32(0);
}

/** The MTU message: `sprintf("%d", mtu_enum)` in `len` octets (2 for a peer ≥ 5.31, else 4). */
export function mtuMsg(mtuEnum: number, len: number): Uint8Array {
  const b = new Uint8Array(len);
  b.set(Buffer.from(String(mtuEnum), 'latin1').subarray(0, len - 1));
  return b;
}

/** `strtol(rem, NULL, 10)`. */
export function parseMtuMsg(b: Uint8Array): number {
  const m = /^\s*[+-]?\d+/.exec(cstring(b));
  return m ? Number(m[0]) : 0;
}

/** Big-endian unsigned 64-bit (perftest's `hton_long` / `hton_64`). */
export function be64(v: number | bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt.asUintN(64, BigInt(v)));
  return b;
}

export function beDouble(v: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, v);
  return b;
}

export function readBe64(b: Uint8Array): number {
  return Number(new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0));
}

export function readBeDouble(b: Uint8Array): number {
  return new DataView(b.buffer, b.byteOffset, 8).getFloat64(0);
}

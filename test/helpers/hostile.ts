/**
 * A long-running server built on the verbs API, for the hostile-peer suite: its
 * memory regions sit between guard bytes, a region of another PD and an unregistered buffer are
 * watched, and the engine's resource counters can be compared with their idle values.
 *
 * The application is rping-like: every connection posts receives; a received 16-octet message
 * `{addr u64, rkey u32, len u32}` with `len > 0` makes the server RDMA Read `len` octets of the
 * peer's advertised buffer into its 64-octet sink (finding 5: a peer advertising more than the
 * sink); `len == 0` is a plain "hello". Failed connections are torn down and forgotten.
 *
 * Two front ends: iWARP connections arrive through rdma_cm (`IwarpServer`); RoCEv2 connections
 * are made by `ibv_modify_qp` toward a peer given by QPN, address and PSN (`RoceServer`), as
 * ibv_rc_pingpong does after its side channel.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { hostMemory } from '../../src/rnic/hostmem.js';
import type { Rnic, RnicConfig } from '../../src/rnic/rnic.js';
import type { Device } from '../../src/verbs/device.js';
import type { Context } from '../../src/verbs/ibverbs.js';
import {
  getErrno,
  IBV_ACCESS_LOCAL_WRITE,
  IBV_ACCESS_REMOTE_READ,
  IBV_ACCESS_REMOTE_WRITE,
  IBV_MTU_1024,
  IBV_QP_ACCESS_FLAGS,
  IBV_QP_AV,
  IBV_QP_DEST_QPN,
  IBV_QP_MAX_DEST_RD_ATOMIC,
  IBV_QP_MAX_QP_RD_ATOMIC,
  IBV_QP_MIN_RNR_TIMER,
  IBV_QP_PATH_MTU,
  IBV_QP_PKEY_INDEX,
  IBV_QP_PORT,
  IBV_QP_RETRY_CNT,
  IBV_QP_RNR_RETRY,
  IBV_QP_RQ_PSN,
  IBV_QP_SQ_PSN,
  IBV_QP_STATE,
  IBV_QP_TIMEOUT,
  IBV_QPS_INIT,
  IBV_QPS_RTR,
  IBV_QPS_RTS,
  IBV_QP_QKEY,
  IBV_QPT_RC,
  IBV_QPT_UD,
  IBV_SEND_SIGNALED,
  IBV_WC_RECV,
  IBV_WC_RDMA_READ,
  IBV_WC_SUCCESS,
  IBV_WR_RDMA_READ,
  IBV_WR_RDMA_WRITE,
  IBV_WR_SEND,
  type ibv_comp_channel,
  type ibv_context,
  type ibv_cq,
  type ibv_mr,
  type ibv_pd,
  type ibv_qp,
  type ibv_wc,
  RDMA_CM_EVENT_ADDR_RESOLVED,
  RDMA_CM_EVENT_CONNECT_REQUEST,
  RDMA_CM_EVENT_DISCONNECTED,
  RDMA_CM_EVENT_ESTABLISHED,
  RDMA_CM_EVENT_ROUTE_RESOLVED,
  RDMA_PS_TCP,
  type rdma_cm_id,
  type rdma_event_channel,
  rdma_event_str,
  rdmaListenReady,
  verbs as v,
} from '../../src/verbs/index.js';
import type { IbCm, IbCmConnection } from '../../src/ibcm/cm.js';
import { type CmId, rdmaUseDevice } from '../../src/verbs/rdma_cm.js';
import { gidOf } from './engine.js';
import type { SoftrdmaVp } from '../../src/provider/softrdma.js';

export const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** A buffer with random guard octets on both sides of the part that is exposed. */
export interface Guarded {
  readonly name: string;
  readonly whole: Uint8Array;
  /** The exposed part (registered, or for `unreg` only watched). */
  readonly inner: Uint8Array;
  readonly guard: number;
  /** Digest of the guards as made. */
  readonly guards: string;
}

export const GUARD = 256;

export function guarded(name: string, size: number, guard = GUARD): Guarded {
  const whole = new Uint8Array(randomBytes(size + 2 * guard));
  const inner = whole.subarray(guard, guard + size);
  const g: Guarded = { name, whole, inner, guard, guards: '' };
  return { ...g, guards: guardDigest(g) };
}

export function guardDigest(g: Pick<Guarded, 'whole' | 'guard' | 'inner'>): string {
  return sha(Buffer.concat([g.whole.subarray(0, g.guard), g.whole.subarray(g.guard + g.inner.length)]));
}

/** What the engine holds: every count must come back to its idle value after a connection. */
export interface EngineCounters {
  qps: number;
  cqs: number;
  pds: number;
  srqs: number;
  mrs: number;
  mws: number;
  pins: number;
}

export function engineCounters(rnic: Rnic): EngineCounters {
  return {
    qps: rnic.qps.size,
    cqs: rnic.cqs.size,
    pds: rnic.pds.size,
    srqs: rnic.srqs.size,
    mrs: rnic.mrCount,
    mws: rnic.mwCount,
    pins: hostMemory.stats().pins,
  };
}

export function engineOf(ctx: ibv_context): Rnic {
  return (((ctx as Context).device as Device).vp as SoftrdmaVp).engine;
}

/** The message of the rping-like protocol. */
export function advert(addr: bigint, rkey: number, len: number): Uint8Array {
  const b = new Uint8Array(16);
  const dv = new DataView(b.buffer);
  dv.setBigUint64(0, addr);
  dv.setUint32(8, rkey >>> 0);
  dv.setUint32(12, len >>> 0);
  return b;
}

const RECV_SLOT = 64;
const RECVS = 4;
const SINK = 64;

/** One connection of the server. */
interface Conn {
  qp: ibv_qp;
  cq: ibv_cq;
  ch: ibv_comp_channel;
  id: rdma_cm_id | null;
  dead: boolean;
  /** The application does not post receives again (it is slow, or has not got to it yet). */
  hold?: boolean;
}

/** The regions, the application and the bookkeeping both front ends share. */
export abstract class VerbsServer {
  readonly ctx: ibv_context;
  readonly engine: Rnic;
  readonly pd: ibv_pd;
  /** Another PD, whose region no connection may reach. */
  readonly pd2: ibv_pd;
  /** Remote Read and Write. */
  readonly rw = guarded('rw', 4096);
  /** Remote Read only. */
  readonly ro = guarded('ro', 1024);
  /** A large Remote Read source (Read Request floods, zero window). */
  readonly big = guarded('big', 1 << 20);
  /** Receive buffers (local only). */
  readonly recv = guarded('recv', 64 * RECV_SLOT);
  /** The sink of the server's own Reads (finding 5). */
  readonly sink = guarded('sink', SINK);
  /** Remote Read and Write, but in `pd2`. */
  readonly other = guarded('other', 4096);
  /** Never registered; its address is known to the attacker. */
  readonly unreg = guarded('unreg', 4096);
  readonly mrs: Record<'rw' | 'ro' | 'big' | 'recv' | 'sink' | 'other', ibv_mr>;
  readonly conns = new Set<Conn>();
  /** Messages received, Reads completed, and failed completions by status. */
  readonly served = { messages: 0, reads: 0 };
  readonly errors = new Map<number, number>();
  #slot = 0;

  protected constructor(ctx: ibv_context) {
    this.ctx = ctx;
    this.engine = engineOf(ctx);
    this.pd = v.ibv_alloc_pd(ctx)!;
    this.pd2 = v.ibv_alloc_pd(ctx)!;
    const RW = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
    const reg = (pd: ibv_pd, g: Guarded, acc: number): ibv_mr => {
      const mr = v.ibv_reg_mr(pd, g.inner, g.inner.length, acc);
      assert.ok(mr, `ibv_reg_mr ${g.name} errno ${getErrno()}`);
      return mr;
    };
    this.mrs = {
      rw: reg(this.pd, this.rw, RW),
      ro: reg(this.pd, this.ro, IBV_ACCESS_REMOTE_READ),
      big: reg(this.pd, this.big, IBV_ACCESS_REMOTE_READ),
      recv: reg(this.pd, this.recv, IBV_ACCESS_LOCAL_WRITE),
      // The sink of a Read needs Remote Write on iWARP (Verbs §7.6.3 Figure 21).
      sink: reg(this.pd, this.sink, RW),
      other: reg(this.pd2, this.other, RW),
    };
    hostMemory.addressOf(this.unreg.inner);
  }

  /** Every watched buffer: the guards of all, and the whole of `other` and `unreg`. */
  watched(): Map<string, string> {
    const m = new Map<string, string>();
    for (const g of [this.rw, this.ro, this.big, this.recv, this.sink, this.other, this.unreg]) m.set(`${g.name} guards`, guardDigest(g));
    m.set('other (another PD)', sha(this.other.inner));
    m.set('unreg (never registered)', sha(this.unreg.inner));
    m.set('ro (read only)', sha(this.ro.inner));
    m.set('big (read only)', sha(this.big.inner));
    return m;
  }

  /** The address of `g`'s exposed part. */
  va(g: Guarded): bigint {
    return hostMemory.addressOf(g.inner);
  }

  /** Receives and the application loop of a new connection's QP (its CQ has `ch`). */
  protected serve(c: Conn): void {
    this.conns.add(c);
    for (let i = 0; i < RECVS; i++) this.postRecv(c);
    void this.#pump(c);
  }

  protected postRecv(c: Conn): void {
    const at = (this.#slot++ % 64) * RECV_SLOT;
    const r = v.ibv_post_recv(c.qp, {
      wr_id: BigInt(at),
      sg_list: [{ addr: this.mrs.recv.addr + BigInt(at), length: RECV_SLOT, lkey: this.mrs.recv.lkey }],
    });
    if (r.ret !== 0) this.fail(c);
  }

  async #pump(c: Conn): Promise<void> {
    const wc: ibv_wc[] = [];
    while (!c.dead) {
      if (v.ibv_req_notify_cq(c.cq, 0) !== 0) break;
      for (;;) {
        const n = v.ibv_poll_cq(c.cq, 16, wc);
        if (n <= 0) break;
        for (let i = 0; i < n; i++) this.#onWc(c, wc[i]!);
      }
      if (c.dead) break;
      const e = await v.ibv_get_cq_event(c.ch);
      if (e.ret !== 0) break;
      v.ibv_ack_cq_events(c.cq, 1);
    }
  }

  #onWc(c: Conn, w: ibv_wc): void {
    if (w.status !== IBV_WC_SUCCESS) {
      this.errors.set(w.status, (this.errors.get(w.status) ?? 0) + 1);
      this.fail(c);
      return;
    }
    if (w.opcode === IBV_WC_RDMA_READ) {
      this.served.reads++;
      return;
    }
    if (w.opcode !== IBV_WC_RECV) return;
    this.served.messages++;
    const at = Number(w.wr_id);
    const msg = this.recv.inner.subarray(at, at + 16);
    const dv = new DataView(msg.buffer, msg.byteOffset, 16);
    const addr = dv.getBigUint64(0);
    const rkey = dv.getUint32(8);
    const len = dv.getUint32(12);
    if (!c.hold) this.postRecv(c);
    if (w.byte_len === 16 && len > 0) {
      // rping's server reads what the client advertises into its own buffer, trusting the
      // length: the RNIC checks the sink when the Read is posted (finding 5).
      const r = v.ibv_post_send(c.qp, {
        wr_id: 1n,
        opcode: IBV_WR_RDMA_READ,
        send_flags: IBV_SEND_SIGNALED,
        sg_list: [{ addr: this.mrs.sink.addr, length: len, lkey: this.mrs.sink.lkey }],
        wr: { rdma: { remote_addr: addr, rkey } },
      });
      if (r.ret !== 0) this.fail(c);
    }
  }

  /** A connection failed: tear it down (the front end finishes it). */
  protected fail(c: Conn): void {
    if (c.dead) return;
    c.dead = true;
    this.conns.delete(c);
    this.teardown(c);
  }

  protected abstract teardown(c: Conn): void;

  /** A legitimate client's round (Write, Read back, a Send the server answers with a Read). */
  abstract legit(offset: number): Promise<void>;

  /** Tears every connection down and frees everything; the counters must then be idle. */
  async close(): Promise<void> {
    for (const c of [...this.conns]) this.fail(c);
    await until(() => this.engine.cqs.size === 0 || this.conns.size === 0, 'connections freed');
    await new Promise((r) => setTimeout(r, 20));
    for (const mr of Object.values(this.mrs)) assert.equal(v.ibv_dereg_mr(mr), 0);
    assert.equal(v.ibv_dealloc_pd(this.pd), 0);
    assert.equal(v.ibv_dealloc_pd(this.pd2), 0);
  }

  protected newConnResources(): { cq: ibv_cq; ch: ibv_comp_channel } {
    const ch = v.ibv_create_comp_channel(this.ctx)!;
    const cq = v.ibv_create_cq(this.ctx, 64, null, ch, 0)!;
    assert.ok(cq, `ibv_create_cq errno ${getErrno()}`);
    return { cq, ch };
  }

  /**
   * Destroys the CQ and its channel once every completion event is acknowledged (ibverbs refuses
   * to destroy a CQ with events outstanding): events still queued on the channel are taken and
   * acknowledged first.
   */
  protected async freeConnResources(c: Conn): Promise<void> {
    await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 100 && v.ibv_destroy_cq(c.cq) !== 0; i++) {
      const e = await Promise.race([v.ibv_get_cq_event(c.ch), new Promise<null>((r) => setTimeout(() => r(null), 10))]);
      if (e && e.ret === 0) v.ibv_ack_cq_events(c.cq, 1);
    }
    assert.equal(v.ibv_destroy_comp_channel(c.ch), 0, `ibv_destroy_comp_channel errno ${getErrno()}`);
  }
}

export const CAP = { max_send_wr: 16, max_recv_wr: 16, max_send_sge: 2, max_recv_sge: 2, max_inline_data: 0 };
/** IRD and ORD the server grants (the attacker's Read Requests beyond IRD are refused). */
export const SERVER_IRD = 4;

/** The iWARP front end: rdma_cm on 127.0.0.1, accepting everyone. */
export class IwarpServer extends VerbsServer {
  readonly port: number;
  #stopped = false;
  private constructor(
    readonly ch: rdma_event_channel,
    readonly listen: rdma_cm_id,
  ) {
    super(listen.verbs!);
    this.port = v.rdma_get_src_port(listen);
  }

  static async start(): Promise<IwarpServer> {
    const ch = v.rdma_create_event_channel()!;
    const listen = v.rdma_create_id(ch, 'hostile-server', RDMA_PS_TCP).id!;
    assert.equal(v.rdma_bind_addr(listen, { family: 'ipv4', address: '127.0.0.1', port: 0 }), 0);
    assert.equal(v.rdma_listen(listen, 64), 0);
    await rdmaListenReady(listen);
    const s = new IwarpServer(ch, listen);
    void s.#loop();
    return s;
  }

  async #loop(): Promise<void> {
    while (!this.#stopped) {
      const r = await v.rdma_get_cm_event(this.ch);
      if (r.ret !== 0 || !r.event) return;
      const ev = r.event;
      const id = ev.id;
      const type = ev.event;
      v.rdma_ack_cm_event(ev);
      if (type === RDMA_CM_EVENT_CONNECT_REQUEST) await this.#accept(id);
      else if (type !== RDMA_CM_EVENT_ESTABLISHED) {
        // Disconnected, or the connection failed: tear it down.
        const c = [...this.conns].find((x) => x.id === id);
        if (c) this.fail(c);
      }
    }
  }

  async #accept(id: rdma_cm_id): Promise<void> {
    const { cq, ch } = this.newConnResources();
    if (v.rdma_create_qp(id, this.pd, { qp_type: IBV_QPT_RC, send_cq: cq, recv_cq: cq, cap: { ...CAP } }) !== 0) {
      v.ibv_destroy_cq(cq);
      v.ibv_destroy_comp_channel(ch);
      v.rdma_reject(id, null);
      this.#destroyId(id);
      return;
    }
    const c: Conn = { qp: id.qp!, cq, ch, id, dead: false };
    this.serve(c);
    // The peer's IRD/ORD are capped to what the server grants (librdmacm does the same).
    if ((await v.rdma_accept(id, { responder_resources: SERVER_IRD, initiator_depth: SERVER_IRD })) !== 0) this.fail(c);
  }

  #destroyId(id: rdma_cm_id): void {
    v.rdma_destroy_qp(id);
    v.rdma_destroy_id(id);
  }

  protected teardown(c: Conn): void {
    const id = c.id!;
    void v.rdma_disconnect(id);
    v.rdma_destroy_qp(id);
    v.rdma_destroy_id(id);
    void this.freeConnResources(c);
  }

  override async close(): Promise<void> {
    this.#stopped = true;
    await super.close();
    assert.equal(v.rdma_destroy_id(this.listen), 0);
    v.rdma_destroy_event_channel(this.ch);
  }

  /**
   * A legitimate client: connects with rdma_cm, RDMA Writes 64 octets into `rw` at `offset`,
   * Reads them back, sends an advertisement of its own 32-octet buffer (the server Reads it),
   * and disconnects.
   */
  async legit(offset: number): Promise<void> {
    const ch = v.rdma_create_event_channel()!;
    const id = v.rdma_create_id(ch, 'legit', RDMA_PS_TCP).id!;
    const next = async (want: number) => {
      const r = await v.rdma_get_cm_event(ch);
      assert.equal(r.ret, 0);
      assert.equal(rdma_event_str(r.event!.event), rdma_event_str(want), `legit client: status ${r.event!.status}`);
      v.rdma_ack_cm_event(r.event!);
    };
    assert.equal(await v.rdma_resolve_addr(id, null, { family: 'ipv4', address: '127.0.0.1', port: this.port }, 2000), 0);
    await next(RDMA_CM_EVENT_ADDR_RESOLVED);
    assert.equal(await v.rdma_resolve_route(id, 2000), 0);
    await next(RDMA_CM_EVENT_ROUTE_RESOLVED);
    assert.equal(v.rdma_create_qp(id, null, { qp_type: IBV_QPT_RC, cap: { ...CAP } }), 0);
    const pd = id.pd ?? id.qp!.pd;
    const buf = new Uint8Array(256);
    const pattern = new Uint8Array(randomBytes(64));
    buf.set(pattern, 0);
    buf.set(randomBytes(32), 128);
    const mr = v.ibv_reg_mr(pd, buf, buf.length, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE)!;
    assert.equal(await v.rdma_connect(id, { responder_resources: 4, initiator_depth: 4 }), 0);
    await next(RDMA_CM_EVENT_ESTABLISHED);
    const reads = this.served.reads;
    await runLegit(id.qp!, id.qp!.send_cq, mr, buf, pattern, this, offset);
    await until(() => this.served.reads > reads, 'the server Read the advertised buffer');
    assert.deepEqual(this.sink.inner.subarray(0, 32), buf.subarray(128, 160), 'the server Read the advertised 32 octets');
    await v.rdma_disconnect(id);
    await next(RDMA_CM_EVENT_DISCONNECTED);
    v.rdma_destroy_qp(id);
    assert.equal(v.ibv_dereg_mr(mr), 0);
    assert.equal(v.rdma_destroy_id(id), 0);
    v.rdma_destroy_event_channel(ch);
  }
}

/** Polls `cq` until `n` completions (bounded by the test's own timeout). */
export async function pollN(cq: ibv_cq, n: number, ms = 10_000): Promise<ibv_wc[]> {
  const got: ibv_wc[] = [];
  const wc: ibv_wc[] = [];
  const end = Date.now() + ms;
  while (got.length < n) {
    const k = v.ibv_poll_cq(cq, n - got.length, wc);
    for (let i = 0; i < k; i++) got.push({ ...wc[i]! });
    if (got.length < n) {
      if (Date.now() > end) throw new Error(`${got.length} of ${n} completions`);
      await new Promise((r) => setTimeout(r, 1));
    }
  }
  return got;
}

export async function until(pred: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** The legitimate client's work on a connected QP (both front ends). */
async function runLegit(
  qp: ibv_qp,
  cq: ibv_cq,
  mr: ibv_mr,
  buf: Uint8Array,
  pattern: Uint8Array,
  s: VerbsServer,
  offset: number,
): Promise<void> {
  const rwVa = s.va(s.rw) + BigInt(offset);
  const sg = (at: number, len: number) => [{ addr: mr.addr + BigInt(at), length: len, lkey: mr.lkey }];
  // Write, then Read back into buf[64..128).
  assert.equal(
    v.ibv_post_send(qp, {
      wr_id: 1n,
      opcode: IBV_WR_RDMA_WRITE,
      send_flags: IBV_SEND_SIGNALED,
      sg_list: sg(0, 64),
      wr: { rdma: { remote_addr: rwVa, rkey: s.mrs.rw.rkey } },
    }).ret,
    0,
  );
  assert.equal(
    v.ibv_post_send(qp, {
      wr_id: 2n,
      opcode: IBV_WR_RDMA_READ,
      send_flags: IBV_SEND_SIGNALED,
      sg_list: sg(64, 64),
      wr: { rdma: { remote_addr: rwVa, rkey: s.mrs.rw.rkey } },
    }).ret,
    0,
  );
  const w = await pollN(cq, 2);
  assert.deepEqual(
    w.map((x) => x.status),
    [IBV_WC_SUCCESS, IBV_WC_SUCCESS],
    'legit Write and Read',
  );
  assert.deepEqual(buf.subarray(64, 128), pattern, 'legit client reads back what it wrote');
  assert.deepEqual(s.rw.inner.subarray(offset, offset + 64), pattern);
  // Advertise buf[128..160): the server Reads it.
  buf.set(advert(mr.addr + 128n, mr.rkey, 32), 192);
  const before = s.served.messages;
  assert.equal(v.ibv_post_send(qp, { wr_id: 3n, opcode: IBV_WR_SEND, send_flags: IBV_SEND_SIGNALED, sg_list: sg(192, 16) }).ret, 0);
  assert.equal((await pollN(cq, 1))[0]!.status, IBV_WC_SUCCESS, 'legit Send');
  await until(() => s.served.messages > before, 'the server received the legit Send');
}

// ------------------------------------------------------------------------------ RoCEv2

export const ROCE_SERVER_ADDR = '127.0.0.1';
export const ROCE_CLIENT_ADDR = '127.0.0.2';
export const ROCE_ATTACKER_ADDR = '127.0.0.3';

/**
 * The RoCEv2 front end on `softroce0`: the device's endpoints are moved to an ephemeral UDP port
 * and given three IPv4-mapped GIDs (server, legitimate client, attacker), a test hook on the
 * RNIC's configuration as in the RoCE verbs tests.
 */
export class RoceServer extends VerbsServer {
  readonly #restore: () => void;
  private constructor(
    ctx: ibv_context,
    readonly udpPort: number,
    restore: () => void,
  ) {
    super(ctx);
    this.#restore = restore;
  }

  static async start(udpPort: number): Promise<RoceServer> {
    const dev = v.ibv_get_device_list()!.find((d) => d.name === 'softroce0');
    assert.ok(dev, 'softroce0 is listed');
    const cfg = ((dev as Device).vp as SoftrdmaVp).engine.config as RnicConfig;
    const before = { ibLink: cfg.ibLink, roceUdpPort: cfg.roceUdpPort, gids: cfg.gids };
    cfg.ibLink = 'rocev2';
    cfg.roceUdpPort = udpPort;
    cfg.gids = () => [gidOf(ROCE_SERVER_ADDR), gidOf(ROCE_CLIENT_ADDR)];
    const ctx = v.ibv_open_device(dev)!;
    return new RoceServer(ctx, udpPort, () => Object.assign(cfg, before));
  }

  /**
   * A connection toward the peer QP `peerQpn` at `peerAddr`, whose first PSN is `peerPsn`;
   * the server's own first PSN is `psn`. Returns the server's QPN.
   */
  connect(peerQpn: number, peerAddr: string, peerPsn: number, psn: number, o: { timeout?: number; retryCnt?: number } = {}): number {
    const { cq, ch } = this.newConnResources();
    const qp = v.ibv_create_qp(this.pd, { qp_type: IBV_QPT_RC, send_cq: cq, recv_cq: cq, cap: { ...CAP } })!;
    assert.ok(qp, `ibv_create_qp errno ${getErrno()}`);
    roceRts(qp, { sgidIndex: 0, dgid: gidOf(peerAddr), destQpn: peerQpn, rqPsn: peerPsn, sqPsn: psn, ird: SERVER_IRD, ...o });
    this.serve({ qp, cq, ch, id: null, dead: false });
    return qp.qp_num;
  }

  protected teardown(c: Conn): void {
    v.ibv_destroy_qp(c.qp);
    void this.freeConnResources(c);
  }

  /** A QP of the server that failed (its connection was torn down) or is live, by QPN. */
  conn(qpn: number): Conn | undefined {
    return [...this.conns].find((c) => c.qp.qp_num === qpn);
  }

  /** The application stops posting receives on a connection (`false`: posts them again). */
  hold(qpn: number, on: boolean): void {
    const c = this.conn(qpn);
    if (!c) return;
    c.hold = on;
    if (!on) for (let i = 0; i < RECVS; i++) this.postRecv(c);
  }

  /** Tears a live connection down (the application's own timeout, for a peer that vanished). */
  drop(qpn: number): void {
    const c = this.conn(qpn);
    if (c) this.fail(c);
  }

  override async close(): Promise<void> {
    if (this.#cm) {
      assert.equal(v.rdma_destroy_id(this.#cm.listen), 0);
      v.rdma_destroy_event_channel(this.#cm.ch);
      this.#cm = null;
    }
    await super.close();
    assert.equal(v.ibv_close_device(this.ctx), 0);
    this.#restore();
  }

  /** The rdma_cm listener on softroce0 (the IB CM on the device's QP1) of {@link cmConnection}. */
  #cm: { ch: rdma_event_channel; listen: rdma_cm_id; port: number } | null = null;

  /**
   * Listens with rdma_cm on the server's address: the device's QP1 and IB CM come up and stay
   * while the listener lives (call it before the counters at rest are taken).
   */
  async listenCm(): Promise<void> {
    const ch = v.rdma_create_event_channel()!;
    const listen = v.rdma_create_id(ch, 'hostile-cm-server', RDMA_PS_TCP).id!;
    assert.equal(v.rdma_bind_addr(listen, { family: 'ipv4', address: ROCE_SERVER_ADDR, port: 0 }), 0);
    assert.equal(v.rdma_listen(listen, 8), 0);
    await rdmaListenReady(listen);
    this.#cm = { ch, listen, port: v.rdma_get_src_port(listen) };
  }

  /**
   * An RC connection made by rdma_cm over the IB CM of softroce0, between a client id and the
   * listener of {@link listenCm}, each end with its own PD, CQ and one receive buffer.
   */
  async cmConnection(): Promise<RoceCmPair> {
    const lc = this.#cm;
    assert.ok(lc, 'listenCm first');
    const next = async (ch: rdma_event_channel, want: number): Promise<rdma_cm_id> => {
      const r = await v.rdma_get_cm_event(ch);
      assert.equal(r.ret, 0);
      assert.equal(rdma_event_str(r.event!.event), rdma_event_str(want), `CM pair: status ${r.event!.status}`);
      const id = r.event!.id;
      v.rdma_ack_cm_event(r.event!);
      return id;
    };
    const ch = v.rdma_create_event_channel()!;
    const client = v.rdma_create_id(ch, 'cm-client', RDMA_PS_TCP).id!;
    const roce = v.rdma_get_devices()!.find((c) => c.device.name === this.ctx.device.name)!;
    assert.equal(rdmaUseDevice(client, roce), 0);
    assert.equal(await v.rdma_resolve_addr(client, null, { family: 'ipv4', address: ROCE_SERVER_ADDR, port: lc.port }, 2000), 0);
    await next(ch, RDMA_CM_EVENT_ADDR_RESOLVED);
    assert.equal(await v.rdma_resolve_route(client, 2000), 0);
    await next(ch, RDMA_CM_EVENT_ROUTE_RESOLVED);
    const end = (id: rdma_cm_id): CmEnd => {
      const pd = v.ibv_alloc_pd(id.verbs!)!;
      const cq = v.ibv_create_cq(id.verbs!, 16, null, null, 0)!;
      assert.equal(
        v.rdma_create_qp(id, pd, { qp_type: IBV_QPT_RC, send_cq: cq, recv_cq: cq, cap: { ...CAP } }),
        0,
        `rdma_create_qp errno ${getErrno()}`,
      );
      const buf = new Uint8Array(64);
      const mr = v.ibv_reg_mr(pd, buf, buf.length, IBV_ACCESS_LOCAL_WRITE)!;
      return { id, pd, cq, buf, mr };
    };
    const c = end(client);
    const connected = v.rdma_connect(client, { responder_resources: 1, initiator_depth: 1 });
    const sid = await next(lc.ch, RDMA_CM_EVENT_CONNECT_REQUEST);
    const sv = end(sid);
    assert.equal(await v.rdma_accept(sid, { responder_resources: 1, initiator_depth: 1 }), 0);
    assert.equal(await connected, 0);
    await next(ch, RDMA_CM_EVENT_ESTABLISHED);
    await next(lc.ch, RDMA_CM_EVENT_ESTABLISHED);
    const ib = (e: CmEnd) => (e.id as CmId).ib!;
    const send = async (from: CmEnd, to: CmEnd, text: string) => {
      const rr = v.ibv_post_recv(to.id.qp!, { wr_id: 9n, sg_list: [{ addr: to.mr.addr, length: 64, lkey: to.mr.lkey }] });
      assert.equal(rr.ret, 0);
      const msg = new TextEncoder().encode(text);
      from.buf.set(msg);
      const sr = v.ibv_post_send(from.id.qp!, {
        wr_id: 8n,
        opcode: IBV_WR_SEND,
        send_flags: IBV_SEND_SIGNALED,
        sg_list: [{ addr: from.mr.addr, length: msg.length, lkey: from.mr.lkey }],
      });
      assert.equal(sr.ret, 0);
      assert.equal((await pollN(from.cq, 1))[0]!.status, IBV_WC_SUCCESS, `Send ${text}`);
      const [w] = await pollN(to.cq, 1);
      assert.equal(w!.status, IBV_WC_SUCCESS, `receive ${text}`);
      assert.equal(new TextDecoder().decode(to.buf.subarray(0, w!.byte_len)), text);
    };
    return {
      server: sv.id,
      client,
      cm: ib(c).roce.cm,
      serverConn: () => ib(sv).conn!,
      clientConn: () => ib(c).conn!,
      async exchange() {
        await send(c, sv, 'client to server');
        await send(sv, c, 'server to client');
      },
      async close() {
        // The client's DREQ; the server, told DISCONNECTED, answers it with its DREP.
        assert.equal(await v.rdma_disconnect(client), 0);
        await next(lc.ch, RDMA_CM_EVENT_DISCONNECTED);
        assert.equal(await v.rdma_disconnect(sv.id), 0);
        await next(ch, RDMA_CM_EVENT_DISCONNECTED);
        for (const e of [c, sv]) {
          v.rdma_destroy_qp(e.id);
          assert.equal(v.ibv_dereg_mr(e.mr), 0);
          assert.equal(v.ibv_destroy_cq(e.cq), 0);
          assert.equal(v.ibv_dealloc_pd(e.pd), 0);
          assert.equal(v.rdma_destroy_id(e.id), 0);
        }
        v.rdma_destroy_event_channel(ch);
      },
    };
  }

  /**
   * A UD QP of the server with Q_Key `qkey` and a CQ, receiving into a guarded buffer of
   * `size` octets (GRH included); {@link UdVictim.close} frees it all.
   */
  udQp(qkey: number, size: number): UdVictim {
    const cq = v.ibv_create_cq(this.ctx, 16, null, null, 0)!;
    const qp = v.ibv_create_qp(this.pd, { qp_type: IBV_QPT_UD, send_cq: cq, recv_cq: cq, cap: { ...CAP } })!;
    assert.ok(qp, `ibv_create_qp UD errno ${getErrno()}`);
    assert.equal(
      v.ibv_modify_qp(
        qp,
        { qp_state: IBV_QPS_INIT, pkey_index: 0, port_num: 1, qkey },
        IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY,
      ),
      0,
    );
    assert.equal(v.ibv_modify_qp(qp, { qp_state: IBV_QPS_RTR }, IBV_QP_STATE), 0);
    assert.equal(v.ibv_modify_qp(qp, { qp_state: IBV_QPS_RTS, sq_psn: 0 }, IBV_QP_STATE | IBV_QP_SQ_PSN), 0);
    const buf = guarded('ud', size);
    const mr = v.ibv_reg_mr(this.pd, buf.inner, size, IBV_ACCESS_LOCAL_WRITE)!;
    return {
      qp,
      cq,
      buf,
      postRecv: () => assert.equal(v.ibv_post_recv(qp, { wr_id: 5n, sg_list: [{ addr: mr.addr, length: size, lkey: mr.lkey }] }).ret, 0),
      close() {
        assert.equal(v.ibv_destroy_qp(qp), 0);
        assert.equal(v.ibv_dereg_mr(mr), 0);
        assert.equal(v.ibv_destroy_cq(cq), 0);
      },
    };
  }

  /** A legitimate RoCEv2 client on 127.0.0.2 of the same device (see {@link IwarpServer.legit}). */
  async legit(offset: number): Promise<void> {
    const ctx = v.ibv_open_device(this.ctx.device)!;
    const pd = v.ibv_alloc_pd(ctx)!;
    const cq = v.ibv_create_cq(ctx, 64, null, null, 0)!;
    const qp = v.ibv_create_qp(pd, { qp_type: IBV_QPT_RC, send_cq: cq, recv_cq: cq, cap: { ...CAP } })!;
    const buf = new Uint8Array(256);
    const pattern = new Uint8Array(randomBytes(64));
    buf.set(pattern, 0);
    buf.set(randomBytes(32), 128);
    const mr = v.ibv_reg_mr(pd, buf, buf.length, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE)!;
    const sqpn = this.connect(qp.qp_num, ROCE_CLIENT_ADDR, 0x2000, 0x3000);
    roceRts(qp, { sgidIndex: 1, dgid: gidOf(ROCE_SERVER_ADDR), destQpn: sqpn, rqPsn: 0x3000, sqPsn: 0x2000, ird: 4 });
    const reads = this.served.reads;
    await runLegit(qp, cq, mr, buf, pattern, this, offset);
    await until(() => this.served.reads > reads, 'the server Read the advertised buffer');
    assert.deepEqual(this.sink.inner.subarray(0, 32), buf.subarray(128, 160), 'the server Read the advertised 32 octets');
    this.drop(sqpn);
    assert.equal(v.ibv_destroy_qp(qp), 0);
    assert.equal(v.ibv_dereg_mr(mr), 0);
    assert.equal(v.ibv_destroy_cq(cq), 0);
    assert.equal(v.ibv_dealloc_pd(pd), 0);
    assert.equal(v.ibv_close_device(ctx), 0);
  }
}

/** One end of a {@link RoceCmPair}. */
interface CmEnd {
  id: rdma_cm_id;
  pd: ibv_pd;
  cq: ibv_cq;
  buf: Uint8Array;
  mr: ibv_mr;
}

/** An rdma_cm connection over the IB CM of softroce0 ({@link RoceServer.cmConnection}). */
export interface RoceCmPair {
  server: rdma_cm_id;
  client: rdma_cm_id;
  /** The device's IB CM (both ends are on it). */
  cm: IbCm;
  serverConn(): IbCmConnection;
  clientConn(): IbCmConnection;
  /** A Send each way over the connected QPs, each received and checked. */
  exchange(): Promise<void>;
  /** rdma_disconnect from the client, DISCONNECTED on both ends, everything freed. */
  close(): Promise<void>;
}

/** A UD QP of the server ({@link RoceServer.udQp}). */
export interface UdVictim {
  qp: ibv_qp;
  cq: ibv_cq;
  buf: Guarded;
  postRecv(): void;
  close(): void;
}

/** RESET→INIT→RTR→RTS of an RC QP with the masks ibv_rc_pingpong uses. */
function roceRts(
  qp: ibv_qp,
  o: {
    sgidIndex: number;
    dgid: Uint8Array;
    destQpn: number;
    rqPsn: number;
    sqPsn: number;
    ird: number;
    timeout?: number;
    retryCnt?: number;
  },
): void {
  const ACC = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
  assert.equal(
    v.ibv_modify_qp(qp, { qp_state: IBV_QPS_INIT, pkey_index: 0, port_num: 1, qp_access_flags: ACC }, INIT_MASK),
    0,
    `INIT errno ${getErrno()}`,
  );
  const av = {
    grh: { dgid: { raw: o.dgid }, flow_label: 0, sgid_index: o.sgidIndex, hop_limit: 64, traffic_class: 0 },
    dlid: 0,
    sl: 0,
    src_path_bits: 0,
    static_rate: 0,
    is_global: 1,
    port_num: 1,
  };
  assert.equal(
    v.ibv_modify_qp(
      qp,
      {
        qp_state: IBV_QPS_RTR,
        path_mtu: IBV_MTU_1024,
        dest_qp_num: o.destQpn,
        rq_psn: o.rqPsn,
        max_dest_rd_atomic: o.ird,
        min_rnr_timer: 1,
        ah_attr: av,
      },
      RTR_MASK,
    ),
    0,
    `RTR errno ${getErrno()}`,
  );
  assert.equal(
    v.ibv_modify_qp(
      qp,
      { qp_state: IBV_QPS_RTS, timeout: o.timeout ?? 14, retry_cnt: o.retryCnt ?? 7, rnr_retry: 7, sq_psn: o.sqPsn, max_rd_atomic: 4 },
      RTS_MASK,
    ),
    0,
    `RTS errno ${getErrno()}`,
  );
}

const INIT_MASK = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
const RTR_MASK =
  IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
const RTS_MASK = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC;

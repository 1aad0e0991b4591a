/**
 * Conformance-suite helpers: everything goes through the softrdma provider's `ri_*` ops (the
 * engine is never driven directly). Connected QPs are built over loopback TCP with the MPA
 * start-up halves of `src/iwarp/mpa-startup.ts`, then converted with `ri_qp_modify`
 * (NEXT_STATE | LLQ_STREAM_HANDLE | MPA_ATTR).
 */
import { test } from 'node:test';
import { once } from 'node:events';
import net from 'node:net';
import type { ri_ops_t } from '../../src/rnicpi/ops.js';
import {
  createSoftrdmaVp,
  SOFTRDMA_KERNEL_OPS,
  SOFTRDMA_USER_OPS,
  type SoftrdmaVp,
  softrdmaTerminateDomain,
} from '../../src/provider/softrdma.js';
import { RiRet, riRetName } from '../../src/rnicpi/status.js';
import {
  type ri_cq_handle_t,
  type ri_data_seg_t,
  type ri_event_record_t,
  type ri_mr_handle_t,
  type ri_pd_handle_t,
  type ri_qp_attr_in_t,
  type ri_qp_attr_t,
  type ri_qp_handle_t,
  type ri_rnic_handle_t,
  type ri_srq_handle_t,
  type ri_rc_wc_t,
  RiConsumerDomain,
  RiMemFlags,
  RiPblMode,
  RiQpAttrMask,
  RiQpState,
  RiWrFlags,
  RiWrType,
} from '../../src/rnicpi/types.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import { LlpStream } from '../../src/iwarp/llp.js';
import { buildFrame, mpaAccept, mpaConnect, type MpaParams, mpaReadRequest } from '../../src/iwarp/mpa-startup.js';
import { type MpaAttrs, riMpa } from '../../src/iwarp/llp-attrs.js';
export { riMpa };
import type { RnicConfig } from '../../src/rnic/rnic.js';
import { loopbackPair } from '../../src/loopback/loopback.js';
import { TRANSPORTS, type TransportName } from '../helpers/engine.js';

export const ALL_ACCESS = RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_READ | RiMemFlags.REMOTE_WRITE;

/** Unwraps a successful result; fails the test with the code name otherwise. */
export function ok<R extends { readonly status: RiRet }>(r: R, what = 'call'): Extract<R, { readonly status: RiRet.SUCCESS }> {
  if (r.status !== RiRet.SUCCESS) throw new Error(`${what} failed: ${riRetName(r.status)}`);
  return r as Extract<R, { readonly status: RiRet.SUCCESS }>;
}

/** Asserts a status by name (clearer failure messages than numbers). */
export function code(r: { readonly status: RiRet }): string {
  return riRetName(r.status);
}
export const name = riRetName;

/** One opened softrdma RNIC with a consumer handle and event recorders. */
export interface Env {
  vp: SoftrdmaVp;
  ops: ri_ops_t;
  rnic: ri_rnic_handle_t;
  /** `ri_rnic_open` os_data. */
  osData: object;
  events: ri_event_record_t[];
  /** Every CEH call: [vp_hdl_os_data, cq_os_data]. */
  cqCalls: [unknown, unknown][];
  /** A CEH id bound to the recorder. */
  handlerId: number;
  /** Frees every object of every handle and closes the RNIC. */
  close(): void;
}

const live = new Set<Env>();

export function openRnic(opts: { location?: RiConsumerDomain; asyncHandler?: boolean; config?: Partial<RnicConfig> } = {}): Env {
  const vp = createSoftrdmaVp(opts.config);
  const ops = SOFTRDMA_KERNEL_OPS;
  const osData = { rnic: 'open-os-data' };
  ok(ops.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, osData), 'ri_rnic_open');
  const events: ri_event_record_t[] = [];
  if (opts.asyncHandler !== false) ok(ops.ri_async_set_event_handler(vp, (_o, ev) => events.push(ev)));
  const cqCalls: [unknown, unknown][] = [];
  const handlerId = ok(ops.ri_cq_set_event_handler(vp, 0, (a, b) => cqCalls.push([a, b]))).handler_id;
  const loc = opts.location ?? RiConsumerDomain.KERNEL;
  const get = loc === RiConsumerDomain.USER ? SOFTRDMA_USER_OPS : ops;
  const rnic = ok(get.ri_rnic_get_hdl(vp, loc, null, { consumer: 'c' })).rnic;
  const env: Env = {
    vp,
    ops,
    rnic,
    osData,
    events,
    cqCalls,
    handlerId,
    close() {
      live.delete(env);
      for (const h of [...vp.handles]) {
        const st = softrdmaTerminateDomain(vp, h);
        if (st.status !== RiRet.SUCCESS) throw new Error(`terminate domain: ${code(st)}`);
      }
      ok(ops.ri_rnic_close(vp), 'ri_rnic_close');
    },
  };
  live.add(env);
  return env;
}

/** A second consumer handle on the same RNIC. */
export function userHandle(env: Env): ri_rnic_handle_t {
  return ok(SOFTRDMA_USER_OPS.ri_rnic_get_hdl(env.vp, RiConsumerDomain.USER, null, { user: true })).rnic;
}

export function allocPd(env: Env, rnic = env.rnic, osData: unknown = 'pd'): ri_pd_handle_t {
  return ok(env.ops.ri_pd_alloc(rnic, null, osData), 'ri_pd_alloc').pd;
}

export function createCq(env: Env, n = 64, handlerId = 0, osData: unknown = { cq: n }, rnic = env.rnic): ri_cq_handle_t {
  return ok(env.ops.ri_cq_create(rnic, { num_cqe: n, handler_id: handlerId }, null, osData), 'ri_cq_create').cq;
}

export function qpAttrsIn(pd: ri_pd_handle_t, scq: ri_cq_handle_t, rcq = scq, over: Partial<ri_qp_attr_in_t> = {}): ri_qp_attr_in_t {
  return {
    scq: { scq_handle: scq },
    rcq: { rcq_handle: rcq },
    pd,
    sq_size: 16,
    rq_size: 16,
    sq_max_sges: 4,
    sq_max_sges_rdmaw: 4,
    rq_max_sges: 4,
    enable_rdma_read: true,
    enable_rdma_write: true,
    max_rdma_read_outgoing: 4,
    max_rdma_read_incoming: 4,
    qp_xport: { qp_iwarp: { enable_bind: true } },
    ...over,
  };
}

/** A QP with its PD and CQ, the unit most tests work with. */
export interface Side {
  env: Env;
  rnic: ri_rnic_handle_t;
  pd: ri_pd_handle_t;
  cq: ri_cq_handle_t;
  qp: ri_qp_handle_t;
  qpOsData: object;
  cqOsData: unknown;
  attrs: ri_qp_attr_t;
}

export function makeSide(
  env: Env,
  over: Partial<ri_qp_attr_in_t> = {},
  opts: {
    pd?: ri_pd_handle_t;
    cq?: ri_cq_handle_t;
    cqOsData?: unknown;
    cqSize?: number;
    handlerId?: number;
    rnic?: ri_rnic_handle_t;
  } = {},
): Side {
  const rnic = opts.rnic ?? env.rnic;
  const pd = opts.pd ?? allocPd(env, rnic);
  const cqOsData = opts.cq ? opts.cqOsData : { cq: 'side' };
  const cq = opts.cq ?? createCq(env, opts.cqSize ?? 64, opts.handlerId ?? 0, cqOsData, rnic);
  const qpOsData = { qp: 'os-data' };
  const r = ok(env.ops.ri_qp_create(rnic, qpAttrsIn(pd, cq, cq, over), null, qpOsData), 'ri_qp_create');
  return { env, rnic, pd, cq, qp: r.qp, qpOsData, cqOsData, attrs: r.attrs };
}

export function query(s: Side): ri_qp_attr_t {
  return ok(s.env.ops.ri_qp_query(s.rnic, s.qp), 'ri_qp_query').attrs;
}

export function state(s: Side): RiQpState {
  return query(s).state;
}

export function modifyState(s: Side, to: RiQpState) {
  return s.env.ops.ri_qp_modify(s.rnic, s.qp, RiQpAttrMask.NEXT_STATE, { state: to });
}

/** A host buffer and its virtual address. */
export interface Buf {
  bytes: Uint8Array;
  va: bigint;
}
export function buf(n: number, fill = 0): Buf {
  return bufOf(new Uint8Array(n).fill(fill));
}
export function bufOf(bytes: Uint8Array): Buf {
  return { bytes, va: hostMemory.addressOf(bytes) };
}

export interface Mr {
  mr: ri_mr_handle_t;
  ltag: number;
  rtag?: number;
  b: Buf;
}

export function regMr(s: { env: Env; rnic: ri_rnic_handle_t; pd: ri_pd_handle_t }, b: Buf, flags = ALL_ACCESS, key = 0): Mr {
  const r = ok(
    s.env.ops.ri_mr_reg(s.rnic, { va: b.va, length: b.bytes.length, mem_attr: flags, pd: s.pd }, key, null, { mr: true }),
    'ri_mr_reg',
  );
  return { mr: r.mr, ltag: r.ltag, ...(r.rtag === undefined ? {} : { rtag: r.rtag }), b };
}

export function seg(m: Mr, off = 0, len = m.b.bytes.length - off): ri_data_seg_t {
  return { addr: m.b.va + BigInt(off), tag: m.ltag, len };
}

export function postRecv(s: Side, m: Mr, id: bigint, off = 0, len = m.b.bytes.length - off) {
  return s.env.ops.ri_qp_post_recv(s.rnic, s.qp, 0, id, [seg(m, off, len)], 1);
}

export function postSend(s: Side, m: Mr | null, id: bigint, flags: number = RiWrFlags.SIGNALED_FLAG, len?: number) {
  const sg = m ? [seg(m, 0, len ?? m.b.bytes.length)] : [];
  return s.env.ops.ri_qp_post_send(s.rnic, s.qp, RiWrType.SEND, flags, id, sg, 0, sg.length, 0);
}

/** Polls `cq` through `ri_cq_poll` until `n` WCs arrived (fails after `ms`). */
export async function pollWcs(env: Env, rnic: ri_rnic_handle_t, cq: ri_cq_handle_t, n: number, ms = 3000): Promise<ri_rc_wc_t[]> {
  const out: ri_rc_wc_t[] = [];
  const end = Date.now() + ms;
  while (out.length < n) {
    const r = env.ops.ri_cq_poll(rnic, cq, n - out.length);
    if (r.status === RiRet.SUCCESS) out.push(...(r.wcs as ri_rc_wc_t[]));
    else if (r.status !== RiRet.CQ_EMPTY) throw new Error(`ri_cq_poll: ${code(r)}`);
    if (out.length >= n) break;
    if (Date.now() > end) throw new Error(`timed out: ${out.length}/${n} completions`);
    await tick();
  }
  return out;
}

/** Polls everything currently on `cq`. */
export function drain(env: Env, rnic: ri_rnic_handle_t, cq: ri_cq_handle_t): ri_rc_wc_t[] {
  const out: ri_rc_wc_t[] = [];
  for (;;) {
    const r = env.ops.ri_cq_poll(rnic, cq, 16);
    if (r.status !== RiRet.SUCCESS) return out;
    out.push(...(r.wcs as ri_rc_wc_t[]));
  }
}

export function tick(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}

/** Lets queued microtasks and I/O callbacks run for a few loop turns. */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await tick();
}

export async function until(pred: () => boolean, what = 'condition', ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** Converts `s` to RDMA mode over `stream` (Idle→RTS). */
export function toRts(s: Side, stream: LlpStream, mpa: MpaAttrs, streamMsg?: Uint8Array) {
  let mask = RiQpAttrMask.NEXT_STATE | RiQpAttrMask.LLQ_STREAM_HANDLE | RiQpAttrMask.MPA_ATTR;
  if (streamMsg) mask |= RiQpAttrMask.STREAM_MSG_BUFFER;
  return s.env.ops.ri_qp_modify(s.rnic, s.qp, mask, {
    state: RiQpState.READY_TO_SEND,
    qp_xport: {
      qp_iwarp: {
        llp_stream_handle: stream,
        mpa_attributes: riMpa(mpa),
        ...(streamMsg ? { stream_msg_buf: streamMsg } : {}),
      },
    },
  });
}

export interface Pair {
  server: net.Server;
  sockets: net.Socket[];
  /** The passive side's stream (for LLP-handle assertions). */
  streamB: LlpStream;
  streamA: LlpStream;
  close(): void;
}

const BASE_MPA: MpaParams = { revision: 2, crc: false, markers: false, ird: 8, ord: 8 };

/**
 * Connects `a` (MPA Initiator) to `b` (Responder) over 127.0.0.1 and moves both QPs to RTS
 * through `ri_qp_modify`. `beforeRts` runs on each side before its conversion. With
 * `replyAsStreamMsg`, the Responder does not write its MPA Reply itself: it hands it to
 * `ri_qp_modify` as the last streaming-mode message (STREAM_MSG_BUFFER).
 */
export async function connect(
  a: Side,
  b: Side,
  opts: { crc?: boolean; beforeRts?: (s: Side) => void; replyAsStreamMsg?: boolean; transport?: TransportName } = {},
): Promise<Pair> {
  if ((opts.transport ?? conformanceTransport) === 'loopback') return connectLoopbackRnicpi(a, b, opts);
  const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as net.AddressInfo).port;
  const sockets: net.Socket[] = [];
  const p: MpaParams = { ...BASE_MPA, crc: opts.crc ?? false };
  let streamB: LlpStream | null = null;
  const passive = (async () => {
    const [sock] = (await once(server, 'connection')) as [net.Socket];
    sockets.push(sock);
    const req = await mpaReadRequest(sock);
    opts.beforeRts?.(b);
    if (opts.replyAsStreamMsg) {
      const reply = buildFrame('reply', { ...p, revision: Math.min(p.revision, req.frame.revision) as 1 | 2, crc: p.crc || req.frame.crc });
      streamB = new LlpStream(sock, { awaitFirstRx: true });
      const mpa: MpaAttrs = { crc: p.crc || req.frame.crc, recvMarkers: false, xmitMarkers: req.frame.markers, ddpRdmapVersion: 1 };
      ok(toRts(b, streamB, mpa, reply), 'ri_qp_modify(b → RTS with stream message)');
    } else {
      const out = mpaAccept(sock, req.frame, p);
      streamB = out.stream;
      ok(toRts(b, out.stream, out.mpa), 'ri_qp_modify(b → RTS)');
    }
  })();
  const sock = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  sockets.push(sock);
  await once(sock, 'connect');
  const out = await mpaConnect(sock, p);
  opts.beforeRts?.(a);
  ok(toRts(a, out.stream, out.mpa), 'ri_qp_modify(a → RTS)');
  await passive;
  const pair: Pair = {
    server,
    sockets,
    streamA: out.stream,
    streamB: streamB!,
    close() {
      server.close();
      for (const s of sockets) if (!s.destroyed) s.destroy();
    },
  };
  pairs.add(pair);
  return pair;
}

const pairs = new Set<Pair>();

/** The transport `connect` uses when a test does not name one (set by each suite's `before`). */
let conformanceTransport: TransportName = 'iwarp';
export function setConformanceTransport(t: TransportName): void {
  conformanceTransport = t;
}

/**
 * Registers a connected-pair test once per transport in {@link TRANSPORTS} (the transport named
 * in its title): `fn` runs with `connect`/`twoSides` on that transport. `only` keeps a test to
 * the transports whose wire it is about (an iWARP streaming-mode message, say).
 */
export function transportTest(name: string, fn: (transport: TransportName) => Promise<void>, only?: readonly TransportName[]): void {
  for (const t of TRANSPORTS) {
    if (only && !only.includes(t)) continue;
    test(`${name} [${t}]`, async () => {
      const before = conformanceTransport;
      setConformanceTransport(t);
      try {
        await fn(t);
      } finally {
        setConformanceTransport(before);
      }
    });
  }
}

/**
 * Connects `a` and `b` with the in-process loopback transport, through `ri_qp_modify` with a
 * loopback LLP handle, as an RNICPI consumer converts a stream. No sockets; `streamA/B` are
 * the loopback handles.
 */
function connectLoopbackRnicpi(a: Side, b: Side, opts: { beforeRts?: (s: Side) => void }): Promise<Pair> {
  const [ea, eb] = loopbackPair();
  const mpa: MpaAttrs = { crc: false, recvMarkers: false, xmitMarkers: false, ddpRdmapVersion: 1 };
  for (const [s, e, n] of [
    [b, eb, 'b'],
    [a, ea, 'a'],
  ] as const) {
    opts.beforeRts?.(s);
    ok(toRts(s, e as unknown as LlpStream, mpa), `ri_qp_modify(${n} → RTS over loopback)`);
  }
  const pair: Pair = {
    server: null as unknown as net.Server,
    sockets: [],
    streamA: ea as unknown as LlpStream,
    streamB: eb as unknown as LlpStream,
    close() {
      for (const e of [ea, eb]) e.conn?.reset();
    },
  };
  pairs.add(pair);
  return Promise.resolve(pair);
}

/**
 * A zero-length Send from `from` to `to`, both completions reaped: everything `from` posted
 * earlier has reached `to` (Verbs §8.2.2 rule 12: an RDMA Write's sink is defined once a later
 * Send completed at the peer).
 */
export async function deliver(from: Side, to: Side): Promise<void> {
  ok(to.env.ops.ri_qp_post_recv(to.rnic, to.qp, 0, DELIVER_ID, [], 0), 'deliver: post recv');
  ok(
    from.env.ops.ri_qp_post_send(from.rnic, from.qp, RiWrType.SEND, RiWrFlags.SIGNALED_FLAG, DELIVER_ID, [], 0, 0, 0),
    'deliver: post send',
  );
  const [s] = await pollWcs(from.env, from.rnic, from.cq, 1);
  const [r] = await pollWcs(to.env, to.rnic, to.cq, 1);
  if (s!.id !== DELIVER_ID || s!.op_status !== 0 || r!.id !== DELIVER_ID || r!.op_status !== 0) {
    throw new Error(`deliver: unexpected completions ${s!.id}/${s!.op_status} ${r!.id}/${r!.op_status}`);
  }
}
export const DELIVER_ID = 0xffff_ffff_ffff_fff0n;

/** Two RNICs, one QP each, connected. */
export async function twoSides(
  overA: Partial<ri_qp_attr_in_t> = {},
  overB: Partial<ri_qp_attr_in_t> = {},
  opts: { beforeRts?: (s: Side) => void; handlerId?: boolean; cqSize?: number; warm?: boolean; configB?: Partial<RnicConfig> } = {},
): Promise<{ a: Side; b: Side; pair: Pair; envA: Env; envB: Env; done(): void }> {
  const envA = openRnic();
  const envB = openRnic(opts.configB ? { config: opts.configB } : {});
  const a = makeSide(envA, overA, { handlerId: opts.handlerId ? envA.handlerId : 0, cqSize: opts.cqSize ?? 64 });
  const b = makeSide(envB, overB, { handlerId: opts.handlerId ? envB.handlerId : 0, cqSize: opts.cqSize ?? 64 });
  const pair = await connect(a, b, opts.beforeRts ? { beforeRts: opts.beforeRts } : {});
  // The MPA Responder (b) transmits nothing, and runs no SQ work, before the Initiator's first
  // FPDU (RFC 5044 §7.1.2): a first zero-length Send a→b releases it (as MPA v2's RTR does).
  if (opts.warm !== false) await deliver(a, b);
  return {
    a,
    b,
    pair,
    envA,
    envB,
    done() {
      pairs.delete(pair);
      envA.close();
      envB.close();
      pair.close();
    },
  };
}

/** Closes whatever a failed test left open (call from `after`/`afterEach`). */
export function cleanupAll(): void {
  for (const p of [...pairs]) {
    pairs.delete(p);
    p.close();
  }
  for (const e of [...live]) {
    try {
      e.close();
    } catch {
      live.delete(e);
    }
  }
}

export type { ri_srq_handle_t };

/**
 * Helpers for the IT-API conformance suite: open IAs, build Endpoints with their Event
 * Dispatchers, register buffers, connect two Endpoints over loopback, and wait for Events.
 * Every helper goes through the IT-API functions only (the engine is touched only where a test
 * must inject a fault the API cannot produce, and says so).
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import {
  IT_ADDR_MODE_ABSOLUTE,
  IT_CM_MSG_CONN_ESTABLISHED_EVENT,
  IT_CM_MSG_EVENT_STREAM,
  IT_CM_REQ_CONN_REQUEST_EVENT,
  IT_CM_REQ_EVENT_STREAM,
  IT_COMPLETION_FLAG,
  IT_CONNECT_FLAG_TWO_WAY,
  IT_DTO_EVENT_STREAM,
  IT_DTO_RC_RECV_CMPL_EVENT,
  IT_DTO_SEND_CMPL_EVENT,
  IT_DTO_SUCCESS,
  IT_EVD_OVERFLOW_DEFAULT,
  IT_IANA_PORT,
  IT_IP_VERS_IPV4,
  IT_LISTEN_NO_FLAG,
  IT_NOTIFY_FLAG,
  IT_PRIV_ALL,
  IT_SUCCESS,
  isItError,
  it_ep_accept,
  it_ep_connect,
  it_ep_rc_create,
  it_evd_create,
  it_evd_dequeue,
  it_evd_wait,
  it_ia_create,
  it_ia_free,
  it_interface_list,
  it_listen_create,
  it_lmr_create,
  it_make_rdma_addr_absolute,
  it_post_recv,
  it_post_send,
  it_pz_create,
  type it_status_t,
  itStatusName,
  softrdmaItapiDevices,
  softrdmaItapiSetPrivileged,
  type it_conn_request_event_t,
  type it_connection_event_t,
  type it_dto_cmpl_event_t,
  type it_ep_attributes_t,
  type it_ep_handle_t,
  type it_evd_handle_t,
  type it_event_t,
  type it_ia_handle_t,
  type it_listen_handle_t,
  type it_lmr_handle_t,
  type it_path_t,
  type it_pz_handle_t,
  type it_rmr_context_t,
  type it_srq_handle_t,
  type it_dto_flags_t,
  type it_lmr_flag_t,
} from '../../src/itapi/index.js';
import type { SoftrdmaVp } from '../../src/provider/softrdma.js';

/** No DTO flags (`it_dto_flags_t` has no zero member). */
export const NO_FLAGS = 0 as it_dto_flags_t;
/** No LMR flags (`0` means "none", like IT_LMR_FLAG_NONE). */
export const NO_LMR_FLAGS = 0 as it_lmr_flag_t;

/** The name of the first IT-API Interface. */
export function ifName(): string {
  const l = it_interface_list(1);
  assert.ok(l.interfaces.length === 1, 'an Interface');
  return l.interfaces[0]!.name;
}

/** Every IA a test opened; `freeAll` frees them (each test ends with it). */
const open = new Set<it_ia_handle_t>();

export function openIa(privileged = false): it_ia_handle_t {
  softrdmaItapiSetPrivileged(privileged);
  try {
    const ia = it_ia_create(ifName(), 2, 1);
    open.add(ia);
    return ia;
  } finally {
    softrdmaItapiSetPrivileged(false);
  }
}

export function freeIa(ia: it_ia_handle_t): void {
  if (open.delete(ia)) it_ia_free(ia);
}

/** Frees every IA the test opened, then checks that nothing is left on the RNIC. */
export function freeAll(): void {
  for (const ia of [...open]) freeIa(ia);
  for (const d of softrdmaItapiDevices()) {
    assert.equal((d.vp as SoftrdmaVp).handles.size, 0, 'an RNIC handle was left (an object of a freed IA survived)');
    assert.equal((d.vp as SoftrdmaVp).engine.qps.size, 0, 'QPs left on the RNIC');
  }
}

/** Asserts that `fn` throws `ItError` with `status`. */
export function throwsIt(fn: () => unknown, status: it_status_t, msg?: string): void {
  try {
    fn();
  } catch (e) {
    if (!isItError(e)) throw e;
    assert.equal(itStatusName(e.status), itStatusName(status), msg ?? e.message);
    return;
  }
  assert.fail(`expected ${itStatusName(status)}${msg ? ` (${msg})` : ''}, nothing was thrown`);
}

/** Asserts that the Promise rejects with `ItError` `status`. */
export async function rejectsIt(p: Promise<unknown>, status: it_status_t): Promise<void> {
  try {
    await p;
  } catch (e) {
    if (!isItError(e)) throw e;
    assert.equal(itStatusName(e.status), itStatusName(status));
    return;
  }
  assert.fail(`expected a rejection with ${itStatusName(status)}`);
}

export function sevd(
  ia: it_ia_handle_t,
  stream: number,
  size = 64,
  threshold = 1,
  flags = 0,
  aevd: it_evd_handle_t | null = null,
): it_evd_handle_t {
  return it_evd_create(ia, stream, flags, size, threshold, aevd).evd_handle;
}

/** Waits (bounded) for the next Event of `evd`; fails the test on timeout. */
export async function next(evd: it_evd_handle_t, ms = 5000): Promise<it_event_t> {
  const r = await it_evd_wait(evd, BigInt(ms) * 1000n);
  if (r.status !== IT_SUCCESS) assert.fail(`no Event within ${ms} ms: ${itStatusName(r.status)}`);
  return r.event;
}

/** Waits for the next Event of `evd` with event number `n`, skipping others it may deliver first. */
export async function nextOf(evd: it_evd_handle_t, n: number, ms = 5000): Promise<it_event_t> {
  const end = Date.now() + ms;
  for (;;) {
    const left = end - Date.now();
    if (left <= 0) assert.fail(`no Event 0x${n.toString(16)} within ${ms} ms`);
    const ev = await next(evd, left);
    if (ev.event_number === n) return ev;
  }
}

/** Dequeues everything queued right now. */
export function drain(evd: it_evd_handle_t): it_event_t[] {
  const out: it_event_t[] = [];
  for (;;) {
    const r = it_evd_dequeue(evd);
    if (r.status !== IT_SUCCESS) return out;
    out.push(r.event);
  }
}

/** Lets pending I/O and microtasks run (bounded waits only; never a timing assertion). */
export function tick(ms = 20): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls `pred` until it holds (bounded). */
export async function until(pred: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await tick(5);
  }
}

export function rcAttrs(over: Partial<it_ep_attributes_t> = {}, rc: Record<string, unknown> = {}): it_ep_attributes_t {
  return {
    max_dto_payload_size: 1 << 20,
    max_request_dtos: 16,
    max_recv_dtos: 16,
    max_send_segments: 4,
    max_recv_segments: 4,
    priv_ops_enable: false,
    srv: {
      rc: {
        rdma_read_enable: true,
        rdma_write_enable: true,
        max_rdma_read_segments: 4,
        max_rdma_write_segments: 4,
        rdma_read_ird: 4,
        rdma_read_ord: 4,
        srq: null,
        soft_hi_watermark: 0,
        hard_hi_watermark: 0,
        atomics_enable: false,
        ...rc,
      },
    },
    ...over,
  };
}

/**
 * One side: an IA with a PZ, DTO SEVDs (`req` for the Send Queue, `dto` for Receives; the same
 * SEVD unless a request threshold is asked for), a CM_MSG SEVD and an Endpoint.
 */
export interface Side {
  ia: it_ia_handle_t;
  pz: it_pz_handle_t;
  req: it_evd_handle_t;
  dto: it_evd_handle_t;
  cm: it_evd_handle_t;
  ep: it_ep_handle_t;
}

export interface SideOpts {
  attrs?: it_ep_attributes_t;
  flags?: number;
  /** Threshold of the Receive (and shared) DTO SEVD. */
  threshold?: number;
  /** A separate request SEVD with this threshold. */
  reqThreshold?: number;
  cmSize?: number;
}

export function makeSide(ia = openIa(), o: SideOpts = {}): Side {
  const pz = it_pz_create(ia);
  const dto = sevd(ia, IT_DTO_EVENT_STREAM, 256, o.threshold ?? 1);
  const req = o.reqThreshold === undefined ? dto : sevd(ia, IT_DTO_EVENT_STREAM, 256, o.reqThreshold);
  const cm = sevd(ia, IT_CM_MSG_EVENT_STREAM, o.cmSize ?? 16, 1, IT_EVD_OVERFLOW_DEFAULT);
  const ep = it_ep_rc_create(pz, req, dto, cm, o.flags ?? 0, o.attrs ?? rcAttrs());
  return { ia, pz, req, dto, cm, ep };
}

/** A registered buffer. */
export interface Buf {
  bytes: Uint8Array;
  lmr: it_lmr_handle_t;
  ctx: it_rmr_context_t | null;
  addr: bigint;
}

export function reg(pz: it_pz_handle_t, size: number, privs = IT_PRIV_ALL, fill?: string): Buf {
  const bytes = new Uint8Array(size);
  if (fill) bytes.set(new TextEncoder().encode(fill).subarray(0, size));
  const r = it_lmr_create(pz, bytes, null, size, IT_ADDR_MODE_ABSOLUTE, privs, NO_LMR_FLAGS, 0);
  return { bytes, lmr: r.lmr_handle, ctx: r.rmr_context, addr: it_make_rdma_addr_absolute(bytes) };
}

export function seg(b: Buf, off = 0, len = b.bytes.length - off) {
  return { lmr: b.lmr, addr: b.addr + BigInt(off), length: len };
}

export const te = (s: string): Uint8Array => new TextEncoder().encode(s);
export const td = (b: Uint8Array): string => new TextDecoder().decode(b);

/** A loopback iWARP path with a bounded connection timeout (µs). */
export function loopPath(timeoutUs = 5_000_000n): it_path_t {
  return {
    spigot_id: 0,
    timeout: timeoutUs,
    remote: { iwarp: { ip_vers: IT_IP_VERS_IPV4, laddr: { ipv4: '127.0.0.1' }, raddr: { ipv4: '127.0.0.1' } } },
  };
}

/** A Listen Point on a free port with its CM_REQ SEVD. */
export interface Listener {
  ia: it_ia_handle_t;
  evd: it_evd_handle_t;
  listen: it_listen_handle_t;
  port: number;
}

export function listen(ia: it_ia_handle_t, size = 8): Listener {
  const evd = sevd(ia, IT_CM_REQ_EVENT_STREAM, size);
  const r = it_listen_create(ia, 0, evd, IT_LISTEN_NO_FLAG, { type: IT_IANA_PORT, conn_qual: { port: 0 } });
  assert.equal(r.conn_qual.type, IT_IANA_PORT);
  const port = 'port' in r.conn_qual.conn_qual ? r.conn_qual.conn_qual.port : 0;
  return { ia, evd, listen: r.listen_handle, port };
}

export function connectTo(ep: it_ep_handle_t, port: number, pdata: Uint8Array | null = null, timeoutUs?: bigint): void {
  it_ep_connect(ep, loopPath(timeoutUs), null, { type: IT_IANA_PORT, conn_qual: { port } }, IT_CONNECT_FLAG_TWO_WAY, pdata);
}

/** A connected pair: `a` connected actively to `b`'s Listen; both CONNECTED, all Events consumed. */
export interface Pair {
  a: Side;
  b: Side;
  l: Listener;
  /** The passive side's first Receive buffer (got the "hello" that made it CONNECTED). */
  hello: Buf;
}

export async function connectPair(
  o: {
    a?: SideOpts;
    b?: SideOpts;
    aIa?: it_ia_handle_t;
    bIa?: it_ia_handle_t;
    pdata?: Uint8Array;
    /** Where b's first Receive goes (an S-RQ and a PZ of it); default b's Endpoint. */
    bRecv?: { handle: it_srq_handle_t; pz: it_pz_handle_t };
  } = {},
): Promise<Pair> {
  const b = makeSide(o.bIa ?? openIa(), o.b);
  const a = makeSide(o.aIa ?? openIa(), o.a);
  const l = listen(b.ia);
  const hello = reg(o.bRecv?.pz ?? b.pz, 64);
  // iWARP without RTR: the passive side pre-posts a Receive and becomes CONNECTED on it (App. B).
  it_post_recv(o.bRecv?.handle ?? b.ep, [seg(hello)], 0xb0n, IT_COMPLETION_FLAG | IT_NOTIFY_FLAG);
  connectTo(a.ep, l.port, o.pdata ?? null);
  const req = (await nextOf(l.evd, IT_CM_REQ_CONN_REQUEST_EVENT)) as it_conn_request_event_t;
  const acc = it_ep_accept(b.ep, req.cn_est_id, null);
  assert.equal(acc.status, IT_SUCCESS);
  const estA = (await next(a.cm)) as it_connection_event_t;
  assert.equal(estA.event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
  const ping = reg(a.pz, 8, IT_PRIV_ALL, 'hello');
  // Signalled, and its completion dequeued, so that it does not stay outstanding.
  it_post_send(a.ep, [seg(ping, 0, 5)], 0xa0n, IT_COMPLETION_FLAG | IT_NOTIFY_FLAG);
  await nextOf(a.req, IT_DTO_SEND_CMPL_EVENT);
  const estB = (await next(b.cm)) as it_connection_event_t;
  assert.equal(estB.event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
  const rc = (await nextOf(b.dto, IT_DTO_RC_RECV_CMPL_EVENT)) as it_dto_cmpl_event_t;
  assert.equal(rc.dto_status, IT_DTO_SUCCESS);
  return { a, b, l, hello };
}

/** A port nobody listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

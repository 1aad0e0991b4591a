/**
 * The objects of librdmacm (manual chapter 5): the event channel and the `rdma_cm_id` with its
 * state, and the rules every rdma_cm call shares: which device an id uses (`chooseDevice`, as
 * Linux rdma_cm chooses), its default context and PD, the event a call posts, and the C return
 * convention (-1 with errno).
 *
 * @module
 */
import { deviceFromEnv, ENV_DEVICE } from '../util/env.js';
import type { IbCmConnection, IbCmSidrPending, IbCmSidrRequest } from '../ibcm/cm.js';
import type net from 'node:net';
import { type CmConnection, type CmConnectRequest, type CmListener, type CmQp, riCmQp } from '../iwarp/cm.js';
import { RiQpState } from '../rnicpi/types.js';
import type { CmReq } from '../wire/ib/cm.js';
import { logger } from '../util/log.js';
import { ibv_qp_state, ibv_qp_type, rdma_cm_event_type, rdma_port_space } from './constants.js';
import { Context, type Device, devices, openDevice } from './device.js';
import { EADDRNOTAVAIL, EAGAIN, EBADF, EINVAL, ENODEV, setErrno } from './errno.js';
import { ibAddresses, isIbContext, type RoceCm } from './rdma_cm_ib.js';
import { qpConnected, zeroAh } from './ibv_qp_state.js';
import { ibv_alloc_pd, ibv_modify_qp, type Pd, type Qp } from './ibverbs.js';
import {
  type ibv_comp_channel,
  type ibv_context,
  type ibv_cq,
  type ibv_pd,
  type ibv_qp_init_attr,
  type ibv_srq,
  type In,
  type rdma_cm_event,
  type rdma_cm_id,
  type rdma_event_channel,
  type rdma_route,
  type sockaddr,
  VERBS_HANDLE,
} from './types.js';
import { hostHas, stripV6 } from './rdma_cm_addr.js';

export const log = logger('rdma_cm');

export const ECONNREFUSED = 111;
export const ETIMEDOUT = 110;
export const ECONNRESET = 104;
export const ECONNABORTED = 103;

// ------------------------------------------------------------------------------ channels

let fdSeq = 2000;

export class EventChannel implements rdma_event_channel {
  readonly [VERBS_HANDLE] = 'rdma_event_channel' as const;
  readonly fd = fdSeq++;
  nonblocking = false;
  dead = false;
  readonly ids = new Set<CmId>();
  readonly #queue: rdma_cm_event[] = [];
  /** Blocked `rdma_get_cm_event` calls; null wakes one for the channel's destruction. */
  readonly #waiters: ((r: { ret: number; event: rdma_cm_event | null } | null) => void)[] = [];
  push(ev: rdma_cm_event): void {
    const w = this.#waiters.shift();
    if (w) w({ ret: 0, event: ev });
    else this.#queue.push(ev);
  }
  get(): Promise<{ ret: number; event: rdma_cm_event | null }> {
    if (this.dead) return Promise.resolve({ ret: failRdma(EBADF), event: null });
    const ev = this.#queue.shift();
    if (ev) return Promise.resolve({ ret: 0, event: ev });
    if (this.nonblocking) return Promise.resolve({ ret: failRdma(EAGAIN), event: null });
    // errno is set as the blocked call returns, in its own flow: errno is per caller (per thread
    // in C), so the caller of rdma_destroy_event_channel keeps its own.
    return new Promise<{ ret: number; event: rdma_cm_event | null } | null>((resolve) => this.#waiters.push(resolve)).then(
      (r) => r ?? { ret: failRdma(EBADF), event: null },
    );
  }
  close(): void {
    this.dead = true;
    for (const w of this.#waiters.splice(0)) w(null);
  }
  /** Removes and returns the queued (not yet retrieved) events of `id`. */
  take(id: CmId): rdma_cm_event[] {
    const mine = this.#queue.filter((e) => e.id === id);
    if (mine.length > 0) this.#queue.splice(0, this.#queue.length, ...this.#queue.filter((e) => e.id !== id));
    return mine;
  }
  /** Queued (not yet retrieved) events of `id`. */
  queuedFor(id: CmId): number {
    let n = 0;
    for (const e of this.#queue) if (e.id === id) n++;
    return n;
  }
}

export function failRdma(errno: number, detail?: string): number {
  setErrno(errno, detail);
  return -1;
}

// ------------------------------------------------------------------------------ ids

const ANY: sockaddr = { family: 'ipv4', address: '0.0.0.0', port: 0 };

type IdState = 'idle' | 'bound' | 'addr' | 'route' | 'listen' | 'connecting' | 'request' | 'connected' | 'disconnected';

export function emptyParam(): rdma_cm_event['param'] {
  return {
    conn: {
      private_data: null,
      private_data_len: 0,
      responder_resources: 0,
      initiator_depth: 0,
      flow_control: 0,
      retry_count: 0,
      rnr_retry_count: 0,
      srq: 0,
      qp_num: 0,
    },
    ud: { private_data: null, private_data_len: 0, ah_attr: zeroAh(), qp_num: 0, qkey: 0 },
  };
}

/** One default context per device, shared by every id (librdmacm opens each device once). */
const defaultCtxs = new Map<Device, Context>();
function contextOf(dev: Device): Context | null {
  const have = defaultCtxs.get(dev);
  if (have && !have.closed) return have;
  const c = openDevice(dev);
  if (c) defaultCtxs.set(dev, c);
  else defaultCtxs.delete(dev);
  return c;
}

/** The default context of every device, in device order (softrdma0, then softroce0). */
export function deviceContexts(): Context[] {
  return devices()
    .map((d) => contextOf(d))
    .filter((c): c is Context => c !== null);
}

/**
 * The device's default PD (librdmacm allocates one per device and keeps it for the life of the
 * process): every id bound to the device gets it as `id.pd`, and `rdma_create_qp`,
 * `rdma_create_srq` and the `rdma_reg_*` helpers use it when no PD is given. Being per device, it
 * lets the QPs of several ids share one SRQ and one MR (the manual's SRQ example, §8.5.3).
 */
const defaultPds = new Map<Context, ibv_pd>();
export function defaultPd(ctx: Context): ibv_pd | null {
  if (defaultCtxs.get(ctx.device) !== ctx) return null;
  const have = defaultPds.get(ctx);
  if (have && !(have as Pd).dead) return have;
  const pd = ibv_alloc_pd(ctx);
  if (pd) defaultPds.set(ctx, pd);
  return pd;
}

/** Binds an id to a device: its context and default PD. */
export function bindDevice(i: CmId, ctx: Context | null): void {
  i.verbs = ctx;
  if (ctx && (!i.pd || (i.pd as Pd).context !== ctx)) i.pd = defaultPd(ctx);
}

/** The environment variable that names the device of active ids whose program names none. */
export const RDMA_CM_DEVICE_ENV = ENV_DEVICE;

export const isWildcard = (a: string) => a === '0.0.0.0' || a === '::';

/** True when `ctx`'s device owns `address` (a wildcard is everyone's). */
export function owns(ctx: Context, address: string): boolean {
  const x = stripV6(address);
  if (isWildcard(x)) return true;
  return isIbContext(ctx) ? ibAddresses(ctx).includes(x) : hostHas(address);
}

/** iWARP carries RDMA_PS_TCP connections only; the RoCE device TCP, UDP (SIDR) and IB. */
export function supportsPs(ctx: Context, ps: rdma_port_space): boolean {
  return isIbContext(ctx) || ps === rdma_port_space.RDMA_PS_TCP;
}

/**
 * The device of an id (see the module documentation): the one named with `rdmaUseDevice`; the
 * only one that owns `src` and supports the id's port space; `SOFTRDMA_DEVICE`; the first. An
 * errno when none fits (EADDRNOTAVAIL: no device owns `src`; ENODEV: `SOFTRDMA_DEVICE` names a
 * device that does not exist or cannot serve the id).
 */
export function chooseDevice(i: CmId, src: string | null, fn: string): Context | number {
  if (i.pinned) {
    // A port space the device lacks fails later, where Linux fails it (rdma_connect, rdma_listen).
    if (src !== null && !owns(i.pinned, src))
      return fail(EADDRNOTAVAIL, `${fn}: device ${i.pinned.device.name} does not own ${src} (EADDRNOTAVAIL)`);
    return i.pinned;
  }
  const all = deviceContexts().filter((c) => supportsPs(c, i.ps));
  const cands = all.filter((c) => src === null || owns(c, src));
  if (cands.length === 0) return fail(EADDRNOTAVAIL, `${fn}: no RDMA device owns ${src} (EADDRNOTAVAIL)`);
  if (cands.length === 1) return cands[0]!;
  let want: string | undefined;
  try {
    want = deviceFromEnv();
  } catch (e) {
    return fail(ENODEV, `${fn}: ${(e as Error).message} (ENODEV)`);
  }
  if (want) {
    const c = cands.find((x) => x.device.name === want);
    if (!c)
      return fail(
        ENODEV,
        `${fn}: ${RDMA_CM_DEVICE_ENV}=${want} names no device that can serve this id (${cands.map((x) => x.device.name).join(', ')}) (ENODEV)`,
      );
    return c;
  }
  return cands[0]!;
}

function fail(errno: number, detail: string): number {
  setErrno(errno, detail);
  log('%s', detail);
  return errno;
}

/**
 * softrdma extension: the device an id will use, named by the program before it binds or
 * resolves (what perftest's `-d` and a Node API device do; librdmacm has no such call because a
 * Linux address belongs to one device's netdev, while here both devices own every address).
 * A listener named to a device listens on it alone. 0, or -1 with errno EINVAL (a destroyed id,
 * one already bound or resolved, or not a context of this process).
 */
export function rdmaUseDevice(id: rdma_cm_id, ctx: ibv_context): number {
  const i = id as CmId;
  if (!idOk(i) || i.state !== 'idle' || !(ctx instanceof Context) || ctx.closed) return failRdma(EINVAL);
  // rdma_cm's ids live on its own context of the device (librdmacm opens each device once).
  const own = contextOf(ctx.device);
  if (!own) return failRdma(EINVAL);
  i.pinned = own;
  return 0;
}

/** What a RoCE id holds of the IB CM (Linux: `id_priv->cm_id.ib`). */
export interface IbIdState {
  roce: RoceCm;
  /** RC (PS_TCP, PS_IB): the CM connection. */
  conn?: IbCmConnection;
  /** The REQ sent (active) or received (passive). */
  req?: CmReq;
  /** UD (PS_UDP) active: the SIDR request in progress. */
  sidrOut?: IbCmSidrPending;
  /** UD passive: the SIDR request to answer. */
  sidrIn?: IbCmSidrRequest;
  /** Our starting PSN. */
  psn: number;
  /** Responder resources and initiator depth we asked for (active) or accepted with (passive). */
  rr: number;
  id: number;
  /** Resolves a synchronous `rdma_connect` with its outcome. */
  settle?: (ret: number) => void;
}

export class CmId implements rdma_cm_id {
  readonly [VERBS_HANDLE] = 'rdma_cm_id' as const;
  verbs: Context | null = null;
  qp: Qp | null = null;
  readonly port_num = 1;
  event: rdma_cm_event | null = null;
  send_cq_channel: ibv_comp_channel | null = null;
  send_cq: ibv_cq | null = null;
  recv_cq_channel: ibv_comp_channel | null = null;
  recv_cq: ibv_cq | null = null;
  srq: ibv_srq | null = null;
  pd: ibv_pd | null = null;
  readonly qp_type: ibv_qp_type;
  readonly route: rdma_route = {
    addr: {
      src_addr: { ...ANY },
      dst_addr: { ...ANY },
      addr: { ibaddr: { sgid: { raw: new Uint8Array(16) }, dgid: { raw: new Uint8Array(16) }, pkey: 0xffff } },
    },
    path_rec: null,
    num_paths: 0,
  };
  state: IdState = 'idle';
  dead = false;
  /** Events delivered and not yet acked. */
  unacked = 0;
  listener: CmListener | null = null;
  listenReady: Promise<void> | null = null;
  req: CmConnectRequest | null = null;
  conn: CmConnection | null = null;
  /** CQs (and their channels) rdma_cm created for this id's QP (destroyed with the QP). */
  ownSendCq = false;
  ownRecvCq = false;
  /** `rdma_create_ep` on a passive address: the QP every `rdma_get_request` id gets. */
  epQp: { pd: ibv_pd | null; attr: In<ibv_qp_init_attr> } | null = null;
  /** Staging buffer of inline sends/writes given without an MR (see `sgeOf`). */
  inlineScratch: Uint8Array | null = null;
  /** Cancels an `rdma_connect` in progress (`rdma_destroy_id` during the connect, as librdmacm). */
  connectAbort: AbortController | null = null;
  /** The port `rdma_bind_addr` picked for port 0, held by a placeholder socket until used. */
  portHold: net.Server | null = null;
  releasePort(): void {
    this.portHold?.close();
    this.portHold = null;
  }
  /** Synchronous ids: waiters for the next event, and requests not yet collected. */
  readonly #syncWaiters: ((ev: rdma_cm_event) => void)[] = [];
  readonly pendingRequests: CmId[] = [];
  #disconnectedPosted = false;
  /** The device the program named (`rdmaUseDevice`). */
  pinned: Context | null = null;
  /** RoCE: this id's IB CM state (see {@link IbIdState}). */
  ib: IbIdState | null = null;
  /** RoCE listeners: the service the id listens on through the device's IB CM. */
  ibListen: { roce: RoceCm; sid: bigint; address: string } | null = null;
  /** `RDMA_OPTION_ID_ACK_TIMEOUT`: the QP's Local ACK Timeout (RoCE), instead of the path's. */
  ackTimeout: number | null = null;
  /** RoCE: the multicast groups joined (IPv4 address → MGID, and whether the QP is attached). */
  readonly mcast = new Map<string, { mgid: Uint8Array; attached: boolean }>();
  constructor(
    public channel: EventChannel | null,
    public context: unknown,
    readonly ps: rdma_port_space,
  ) {
    // RDMA_PS_UDP ids are UD (librdmacm `rdma_create_id`: ucma_get_qp_type).
    this.qp_type = ps === rdma_port_space.RDMA_PS_UDP ? ibv_qp_type.IBV_QPT_UD : ibv_qp_type.IBV_QPT_RC;
  }

  /** True once DISCONNECTED was delivered. */
  get disconnected(): boolean {
    return this.#disconnectedPosted;
  }

  /** Delivers an event for this id (to its channel, or to a synchronous caller). */
  post(type: rdma_cm_event_type, status = 0, param = emptyParam(), listenId: CmId | null = null, target: CmId = this): void {
    if (this.dead) return;
    const ev: rdma_cm_event = { id: target, listen_id: listenId, event: type, status, param };
    log('event %s status %d', rdma_cm_event_type[type], status);
    if (this.channel) {
      target.unacked++;
      this.channel.push(ev);
      return;
    }
    target.event = ev;
    const w = this.#syncWaiters.shift();
    if (w) w(ev);
  }

  /** Waits for the next event on a synchronous id. */
  nextSync(): Promise<rdma_cm_event> {
    return new Promise((resolve) => this.#syncWaiters.push(resolve));
  }

  /** The connection closed: DISCONNECTED once, and the QP to Error (WRs flushed). */
  onClosed(): void {
    if (this.#disconnectedPosted || this.dead) return;
    this.#disconnectedPosted = true;
    this.state = 'disconnected';
    if (this.qp && !this.qp.dead) {
      const st = cmQpOf(this.qp).query()?.state;
      // iWARP: an idle or RTS QP (a closed stream already moved the others); IB: any but Error.
      const toErr = isIbContext(this.qp.context)
        ? st !== undefined && st !== RiQpState.ERROR
        : st === RiQpState.IDLE || st === RiQpState.READY_TO_SEND;
      if (toErr) ibv_modify_qp(this.qp, { qp_state: ibv_qp_state.IBV_QPS_ERR }, 1);
    }
    this.post(rdma_cm_event_type.RDMA_CM_EVENT_DISCONNECTED);
  }

  attach(conn: CmConnection): void {
    this.conn = conn;
    this.state = 'connected';
    if (this.qp) {
      qpConnected(this.qp);
      this.qp.quietBadClose = false;
    }
    conn.once('close', () => this.onClosed());
  }
}

/**
 * The connection manager's view of a verbs QP: `ri_qp_query` / `ri_qp_modify` on its RNICPI
 * handle (RNICPI 1.0 §6.1.4: the host stack converts the stream through `ri_qp_modify`).
 */
export function cmQpOf(qp: Qp): CmQp {
  return riCmQp(qp.context.ops, qp.context.rnic, qp.ri);
}

export function idOk(id: rdma_cm_id): id is CmId {
  return id instanceof CmId && !id.dead;
}

export function sockaddrOk(a: sockaddr | null | undefined): a is sockaddr {
  return !!a && (a.family === 'ipv4' || a.family === 'ipv6') && typeof a.address === 'string' && Number.isInteger(a.port);
}

/**
 * librdmacm in TypeScript (manual chapter 5): `rdma_cm_id`s and event channels over the iWARP
 * connection manager (`src/iwarp/cm.ts`) for softrdma0 and the InfiniBand CM on QP1
 * (`src/ibcm`, `rdma_cm_ib.ts`) for the RoCE device softroce0, with the QPs of `ibverbs.ts`.
 *
 * **Which device an id uses**, as Linux rdma_cm chooses (docs/spec-notes.md "rdma_cm over
 * RoCE"): a listener listens on every device that owns its address (iWARP requests arrive over
 * TCP, RoCE ones on QP1), and each request's new id is on the device it arrived on. An active
 * id takes, in order: the device the program named (`rdmaUseDevice`, as perftest's `-d`); the
 * one device that owns its source address and supports its port space (RDMA_PS_UDP and
 * RDMA_PS_IB: RoCE only); the device named by `SOFTRDMA_DEVICE` (for programs without such a
 * flag, e.g. rping); else softrdma0.
 *
 * Event sequences are the manual's: active ADDR_RESOLVED → ROUTE_RESOLVED
 * → ESTABLISHED | REJECTED | UNREACHABLE | CONNECT_ERROR → DISCONNECTED; passive
 * CONNECT_REQUEST (a new id) → ESTABLISHED → DISCONNECTED. As with Linux rdma_cm, a
 * disconnected QP is moved to Error so that every posted WR is flushed.
 *
 * iWARP specifics, as Linux's iw_cm reports them: the CONNECT_REQUEST's `initiator_depth` and
 * `responder_resources` are the peer's IRD and ORD (RFC 6581 word); a refused or rejected
 * connect is REJECTED with status -ECONNREFUSED; a timeout is UNREACHABLE (-ETIMEDOUT).
 */
import { deviceFromEnv, ENV_DEVICE } from '../util/env.js';
import { lookup } from 'node:dns/promises';
import { type IbCmConnection, type IbCmEnvParams, type IbCmEvent, type IbCmListenEvent, type IbCmSidrPending, type IbCmSidrRequest, ibCmParamsFromEnv } from '../ibcm/cm.js';
import net, { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { ACTIVE_SETTLE_MS, cmConnect, type CmConnection, cmListenDefaults, type CmConnectRequest, CmError, CmListener, type CmQp, cmParamsFromEnv, riCmQp } from '../iwarp/cm.js';
import { RiAsyncEventType, RiQpState } from '../rnicpi/types.js';
import { CM_PRIVATE_DATA_SIZE, type CmReq, RDMA_UDP_QKEY, rdmaServiceId, SidrStatus, gidFromIpv4 } from '../wire/ib/cm.js';
import { addressToGid, canonicalAddress, isIpv6Address } from '../wire/ib/gid-address.js';
import { logger } from '../util/log.js';
import { hostMemory } from '../rnic/hostmem.js';
import { AF_INET, AF_INET6, ibv_access_flags, ibv_qp_attr_mask, ibv_send_flags, ibv_qp_state, ibv_qp_type, ibv_wr_opcode, RAI_PASSIVE, RDMA_MAX_INIT_DEPTH, RDMA_MAX_RESP_RES, rdma_cm_event_type, rdma_port_space, rdma_cm_join_mc_attr_mask, rdma_cm_mc_join_flags } from './constants.js';
import { Context, type Device, devices, onRawAsyncEvent, openDevice, queryDevice } from './device.js';
import { EACCES, EADDRINUSE, EADDRNOTAVAIL, EAFNOSUPPORT, EAGAIN, EBADF, EBUSY, EINVAL, EHOSTUNREACH, ENETUNREACH, ENODEV, ENOSYS, EOPNOTSUPP, errnoName, errnoString, getErrno, setErrno } from './errno.js';
import {
  CMA_MRA_TIMEOUT,
  cmaPrivateData,
  ephemeralPort,
  gidIndex,
  IB_CM_ACCESS,
  IBOE_HOP_LIMIT,
  IBOE_PACKET_LIFETIME,
  IBOE_PATH_MTU,
  ibAddresses,
  ibAhAttr,
  ibQpToRts,
  ibSourceFor,
  ibUdQpToRts,
  isIbContext,
  randomPsn,
  REQ_USER_PD,
  RoceCm,
  SIDR_REQ_USER_PD,
} from './rdma_cm_ib.js';
import { tcpPortBusy } from './portprobe.js';
import {
  type Cq,
  ibv_alloc_pd,
  ibv_create_comp_channel,
  ibv_create_cq,
  ibv_create_qp,
  ibv_create_srq,
  ibv_dereg_mr,
  ibv_destroy_comp_channel,
  ibv_destroy_cq,
  ibv_destroy_qp,
  ibv_destroy_srq,
  ibv_get_cq_event,
  ibv_ack_cq_events,
  ibv_modify_qp,
  ibv_poll_cq,
  mcastAttach,
  ibv_post_recv,
  ibv_post_send,
  ibv_post_srq_recv,
  ibv_reg_mr,
  ibv_req_notify_cq,
  MAX_INLINE_DATA,
  type Pd,
  type Qp,
} from './ibverbs.js';
import {
  type ibv_ah,
  type ibv_comp_channel,
  type ibv_context,
  type ibv_device_attr,
  type ibv_cq,
  type ibv_mr,
  type ibv_pd,
  type ibv_qp_init_attr,
  type ibv_sge,
  type ibv_srq,
  type ibv_srq_init_attr,
  type ibv_wc,
  type In,
  type rdma_addrinfo,
  type rdma_cm_event,
  type rdma_cm_id,
  type rdma_cm_join_mc_attr_ex,
  type rdma_conn_param,
  type rdma_event_channel,
  type rdma_route,
  type sockaddr,
  VERBS_HANDLE,
} from './types.js';

const log = logger('rdma_cm');

const ECONNREFUSED = 111;
const ETIMEDOUT = 110;
const ECONNRESET = 104;
const ECONNABORTED = 103;

// ------------------------------------------------------------------------------ channels

let fdSeq = 2000;

export class EventChannel implements rdma_event_channel {
  readonly [VERBS_HANDLE] = 'rdma_event_channel' as const;
  readonly fd = fdSeq++;
  nonblocking = false;
  dead = false;
  readonly ids = new Set<CmId>();
  private readonly queue: rdma_cm_event[] = [];
  private readonly waiters: ((r: { ret: number; event: rdma_cm_event | null }) => void)[] = [];
  push(ev: rdma_cm_event): void {
    const w = this.waiters.shift();
    if (w) w({ ret: 0, event: ev });
    else this.queue.push(ev);
  }
  get(): Promise<{ ret: number; event: rdma_cm_event | null }> {
    if (this.dead) return Promise.resolve({ ret: failRdma(EBADF), event: null });
    const ev = this.queue.shift();
    if (ev) return Promise.resolve({ ret: 0, event: ev });
    if (this.nonblocking) return Promise.resolve({ ret: failRdma(EAGAIN), event: null });
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  close(): void {
    this.dead = true;
    for (const w of this.waiters.splice(0)) w({ ret: failRdma(EBADF), event: null });
  }
  /** Removes and returns the queued (not yet retrieved) events of `id`. */
  take(id: CmId): rdma_cm_event[] {
    const mine = this.queue.filter((e) => e.id === id);
    if (mine.length > 0) this.queue.splice(0, this.queue.length, ...this.queue.filter((e) => e.id !== id));
    return mine;
  }
  /** Queued (not yet retrieved) events of `id`. */
  queuedFor(id: CmId): number {
    let n = 0;
    for (const e of this.queue) if (e.id === id) n++;
    return n;
  }
}

function failRdma(errno: number, detail?: string): number {
  setErrno(errno, detail);
  return -1;
}

// ------------------------------------------------------------------------------ ids

const ANY: sockaddr = { family: 'ipv4', address: '0.0.0.0', port: 0 };

type IdState = 'idle' | 'bound' | 'addr' | 'route' | 'listen' | 'connecting' | 'request' | 'connected' | 'disconnected';

function emptyParam(): rdma_cm_event['param'] {
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
    ud: { private_data: null, private_data_len: 0, ah_attr: null as never, qp_num: 0, qkey: 0 },
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
function deviceContexts(): Context[] {
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
function defaultPd(ctx: Context): ibv_pd | null {
  if (defaultCtxs.get(ctx.device) !== ctx) return null;
  const have = defaultPds.get(ctx);
  if (have && !(have as Pd).dead) return have;
  const pd = ibv_alloc_pd(ctx);
  if (pd) defaultPds.set(ctx, pd);
  return pd;
}

/** Binds an id to a device: its context and default PD. */
function bindDevice(i: CmId, ctx: Context | null): void {
  i.verbs = ctx;
  if (ctx && (!i.pd || (i.pd as Pd).context !== ctx)) i.pd = defaultPd(ctx);
}

/** The environment variable that names the device of active ids whose program names none. */
export const RDMA_CM_DEVICE_ENV = ENV_DEVICE;

const isWildcard = (a: string) => a === '0.0.0.0' || a === '::';

/** True when `ctx`'s device owns `address` (a wildcard is everyone's). */
function owns(ctx: Context, address: string): boolean {
  const x = stripV6(address);
  if (isWildcard(x)) return true;
  return isIbContext(ctx) ? ibAddresses(ctx).includes(x) : hostHas(address);
}

/** iWARP carries RDMA_PS_TCP connections only; the RoCE device TCP, UDP (SIDR) and IB. */
function supportsPs(ctx: Context, ps: rdma_port_space): boolean {
  return isIbContext(ctx) || ps === rdma_port_space.RDMA_PS_TCP;
}

/**
 * The device of an id (see the module documentation): the one named with `rdmaUseDevice`; the
 * only one that owns `src` and supports the id's port space; `SOFTRDMA_DEVICE`; the first. An
 * errno when none fits (EADDRNOTAVAIL: no device owns `src`; ENODEV: `SOFTRDMA_DEVICE` names a
 * device that does not exist or cannot serve the id).
 */
function chooseDevice(i: CmId, src: string | null, fn: string): Context | number {
  if (i.pinned) {
    // A port space the device lacks fails later, where Linux fails it (rdma_connect, rdma_listen).
    if (src !== null && !owns(i.pinned, src)) return fail(EADDRNOTAVAIL, `${fn}: device ${i.pinned.device.name} does not own ${src} (EADDRNOTAVAIL)`);
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
    if (!c) return fail(ENODEV, `${fn}: ${RDMA_CM_DEVICE_ENV}=${want} names no device that can serve this id (${cands.map((x) => x.device.name).join(', ')}) (ENODEV)`);
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
    addr: { src_addr: { ...ANY }, dst_addr: { ...ANY }, addr: { ibaddr: { sgid: { raw: new Uint8Array(16) }, dgid: { raw: new Uint8Array(16) }, pkey: 0xffff } } },
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
  private readonly syncWaiters: ((ev: rdma_cm_event) => void)[] = [];
  readonly pendingRequests: CmId[] = [];
  private disconnectedPosted = false;
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
    return this.disconnectedPosted;
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
    const w = this.syncWaiters.shift();
    if (w) w(ev);
  }

  /** Waits for the next event on a synchronous id. */
  nextSync(): Promise<rdma_cm_event> {
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** The connection closed: DISCONNECTED once, and the QP to Error (WRs flushed). */
  onClosed(): void {
    if (this.disconnectedPosted || this.dead) return;
    this.disconnectedPosted = true;
    this.state = 'disconnected';
    if (this.qp && !this.qp.dead) {
      const st = cmQpOf(this.qp).query()?.state;
      // iWARP: an idle or RTS QP (a closed stream already moved the others); IB: any but Error.
      const toErr = isIbContext(this.qp.context) ? st !== undefined && st !== RiQpState.ERROR : st === RiQpState.IDLE || st === RiQpState.READY_TO_SEND;
      if (toErr) ibv_modify_qp(this.qp, { qp_state: ibv_qp_state.IBV_QPS_ERR }, 1);
    }
    this.post(rdma_cm_event_type.RDMA_CM_EVENT_DISCONNECTED);
  }

  attach(conn: CmConnection): void {
    this.conn = conn;
    this.state = 'connected';
    if (this.qp) {
      this.qp.ibState = ibv_qp_state.IBV_QPS_RTS;
      this.qp.quietBadClose = false;
    }
    conn.once('close', () => this.onClosed());
  }
}

/**
 * The connection manager's view of a verbs QP: `ri_qp_query` / `ri_qp_modify` on its RNICPI
 * handle (RNICPI 1.0 §6.1.4: the host stack converts the stream through `ri_qp_modify`).
 */
function cmQpOf(qp: Qp): CmQp {
  return riCmQp(qp.context.ops, qp.context.rnic, qp.ri);
}

function idOk(id: rdma_cm_id): id is CmId {
  return id instanceof CmId && !id.dead;
}

function sockaddrOk(a: sockaddr | null | undefined): a is sockaddr {
  return !!a && (a.family === 'ipv4' || a.family === 'ipv6') && typeof a.address === 'string' && Number.isInteger(a.port);
}

// ------------------------------------------------------------------------------ API

export function rdma_create_event_channel(): rdma_event_channel | null {
  return new EventChannel();
}

export function rdma_destroy_event_channel(channel: rdma_event_channel): void {
  const ch = channel as EventChannel;
  if (!(ch instanceof EventChannel) || ch.dead) {
    setErrno(EINVAL);
    return;
  }
  // Every id of the channel must be destroyed first (C: undefined behaviour); refuse instead.
  for (const id of ch.ids) {
    if (!id.dead) {
      setErrno(EBUSY);
      return;
    }
  }
  ch.close();
}

export function rdma_create_id(channel: rdma_event_channel | null, context: unknown, ps: rdma_port_space): { ret: number; id: rdma_cm_id | null } {
  const ch = channel as EventChannel | null;
  if (ch !== null && (!(ch instanceof EventChannel) || ch.dead)) return { ret: failRdma(EINVAL), id: null };
  // TCP on every device; UDP (SIDR, UD QPs) and IB on the RoCE device only (chooseDevice).
  // IPoIB needs an IPoIB netdev, which softrdma does not have.
  if (ps !== rdma_port_space.RDMA_PS_TCP && ps !== rdma_port_space.RDMA_PS_UDP && ps !== rdma_port_space.RDMA_PS_IB) return { ret: failRdma(EOPNOTSUPP), id: null };
  const id = new CmId(ch, context, ps);
  ch?.ids.add(id);
  return { ret: 0, id };
}

export function rdma_destroy_id(id: rdma_cm_id): number {
  const i = id as CmId;
  if (!idOk(i)) return failRdma(EINVAL);
  if (i.unacked > 0) return failRdma(EBUSY);
  i.dead = true;
  i.releasePort();
  i.connectAbort?.abort();
  void i.listener?.close();
  if (i.req && i.req.state === 'pending') i.req.reject(new Uint8Array(0));
  if (i.conn && !i.conn.closed) i.conn.disconnect('abortive');
  leaveAll(i);
  ibDestroy(i);
  i.channel?.ids.delete(i);
  return 0;
}

/**
 * `rdma_migrate_id`: events of the id not yet retrieved move with it to the new channel; events
 * retrieved from the old channel must be acked first (C blocks until then; here EBUSY).
 */
export function rdma_migrate_id(id: rdma_cm_id, channel: rdma_event_channel | null): number {
  const i = id as CmId;
  const to = channel as EventChannel | null;
  if (!idOk(i) || (to !== null && (!(to instanceof EventChannel) || to.dead))) return failRdma(EINVAL);
  const queued = i.channel?.queuedFor(i) ?? 0;
  if (i.unacked > queued) return failRdma(EBUSY);
  const pending = i.channel?.take(i) ?? [];
  i.channel?.ids.delete(i);
  i.channel = to;
  i.unacked = 0;
  if (to) {
    to.ids.add(i);
    for (const ev of pending) {
      i.unacked++;
      to.push(ev);
    }
  } else if (pending.length > 0) {
    // A synchronous id keeps only the last event.
    i.event = pending[pending.length - 1]!;
  }
  return 0;
}

export function rdma_set_option(id: rdma_cm_id, level: number, optname: number, optval: number | Uint8Array): number {
  const i = id as CmId;
  if (!idOk(i)) return failRdma(EINVAL);
  // RDMA_OPTION_ID (0): TOS, REUSEADDR, AFONLY — accepted (TCP and RoCE need none of them);
  // ACK_TIMEOUT (3): the Local ACK Timeout of a RoCE QP (Linux `rdma_set_ack_timeout`, 5 bits).
  if (level === 0 && optname === 3) {
    const v = typeof optval === 'number' ? optval : (optval[0] ?? -1);
    if (!Number.isInteger(v) || v < 0 || v > 31) return failRdma(EINVAL);
    i.ackTimeout = v;
    return 0;
  }
  if (level === 0 && optname >= 0 && optname <= 2) return 0;
  return failRdma(EINVAL);
}

/**
 * Picks a free TCP port at once, as the kernel does on bind: a placeholder listener on the
 * wildcard address (Node binds it synchronously when no host is named) holds it until the id
 * listens or is destroyed. null if none could be bound.
 */
function reservePort(): { port: number; hold: net.Server } | null {
  const hold = net.createServer();
  hold.on('error', () => {});
  hold.listen({ port: 0 });
  const a = hold.address();
  if (!a || typeof a !== 'object') {
    hold.close();
    return null;
  }
  hold.unref();
  return { port: a.port, hold };
}

export function rdma_bind_addr(id: rdma_cm_id, addr: sockaddr): number {
  const i = id as CmId;
  if (!idOk(i) || !sockaddrOk(addr) || i.state !== 'idle') return failRdma(EINVAL);
  if (!deviceContexts().some((c) => owns(c, addr.address))) {
    return failRdma(EADDRNOTAVAIL, `rdma_bind_addr: ${addr.address} is not an address of a running interface of this host (EADDRNOTAVAIL)`);
  }
  // The id's device (a listener listens on every device that owns the address, see rdma_listen).
  const ctx = chooseDevice(i, addr.address, 'rdma_bind_addr');
  if (typeof ctx === 'number') return -1;
  i.route.addr.src_addr = { ...addr };
  if (addr.port === 0) {
    const r = reservePort();
    if (!r) return failRdma(EADDRINUSE);
    i.portHold = r.hold;
    i.route.addr.src_addr.port = r.port;
  }
  bindDevice(i, ctx);
  if (isIbContext(ctx) && !isWildcard(stripV6(addr.address))) i.route.addr.addr.ibaddr.sgid.raw = addressToGid(stripV6(addr.address))!;
  i.state = 'bound';
  return 0;
}

/** `SOFTRDMA_MPA` (see `cmParamsFromEnv`), or null when it is malformed (errno EINVAL, the parse error as its message). */
function envParams(fn: string): ReturnType<typeof cmParamsFromEnv> | null {
  try {
    return cmParamsFromEnv();
  } catch (e) {
    log('%s', (e as Error).message);
    setErrno(EINVAL, `${fn}: ${(e as Error).message} (EINVAL)`);
    return null;
  }
}

/**
 * `rdma_listen`: on every device that owns the bound address and serves the id's port space
 * (only the named one after `rdmaUseDevice`), as Linux `cma_listen_on_all`: a TCP listener for
 * softrdma0 (MPA requests), the service ID `ps << 16 | port` on softroce0's IB CM (REQ and
 * SIDR_REQ on QP1). EADDRINUSE only when no device could listen.
 */
export function rdma_listen(id: rdma_cm_id, backlog: number): number {
  const i = id as CmId;
  if (!idOk(i) || i.state !== 'bound') return failRdma(EINVAL);
  const env = envParams('rdma_listen');
  if (!env) return -1;
  const src = i.route.addr.src_addr;
  const host = src.address === '0.0.0.0' || src.address === '::' ? undefined : src.address;
  const ctxs = (i.pinned ? [i.pinned] : deviceContexts().filter((c) => owns(c, src.address))).filter((c) => supportsPs(c, i.ps));
  if (ctxs.length === 0) return failRdma(EOPNOTSUPP, `rdma_listen: no device serves port space 0x${i.ps.toString(16)} on ${src.address} (EOPNOTSUPP)`);
  const iw = ctxs.find((c) => !isIbContext(c));
  const ib = ctxs.find((c) => isIbContext(c));
  i.releasePort();
  // The port is the id's in the rdma_cm port space on every device, or the listen fails.
  if (iw && tcpPortBusy(host, src.port)) return failRdma(EADDRINUSE, `rdma_listen: ${src.address} port ${src.port} is already in use (EADDRINUSE)`);
  // RoCE: the service on the device's IB CM, bound to the address (or every address).
  if (ib) {
    const roce = RoceCm.of(ib);
    if (typeof roce === 'number') return failRdma(roce, `rdma_listen: ${ib.device.name} has no IB CM (QP1): ${errnoString(roce)}`);
    const sid = rdmaServiceId(i.ps, src.port);
    const address = isWildcard(stripV6(src.address)) ? '0.0.0.0' : stripV6(src.address);
    // SOFTRDMA_IBCM: the RoCE CM's listener limits (accept=MS … as SOFTRDMA_MPA's for iWARP).
    let ibEnv: IbCmEnvParams;
    try {
      ibEnv = ibCmParamsFromEnv();
    } catch (e) {
      return failRdma(EINVAL, `rdma_listen: ${(e as Error).message} (EINVAL)`);
    }
    const st = roce.listen(sid, address, (ev, addrs) => onIbRequest(i, roce, ev, addrs), ibEnv.listenLimits);
    if (st !== 0) return failRdma(st, `rdma_listen: ${src.address} port ${src.port} is already in use on ${ib.device.name} (${errnoName(st)})`);
    roce.hold();
    i.ibListen = { roce, sid, address };
  }
  i.state = 'listen';
  if (!iw) {
    i.listenReady = Promise.resolve();
    return 0;
  }
  const { p2p: _offer, settleMs: _settle, ...mpa } = env;
  // The TCP accept queue is server-sized whatever the program asks (rping asks for 3); a
  // larger backlog is honoured. The CM bounds what peers hold (cmListenDefaults).
  const tcpBacklog = Math.max(backlog, cmListenDefaults().backlog);
  i.listenReady = CmListener.listen({ ...mpa, host, port: src.port, backlog: tcpBacklog }).then(
    (l) => {
      if (i.dead) {
        void l.close();
        return;
      }
      i.listener = l;
      i.route.addr.src_addr = { ...src, port: l.port };
      l.on('request', (req: CmConnectRequest) => onRequest(i, req));
    },
    (e: unknown) => {
      log('listen failed: %s', (e as Error).message);
      ibDestroy(i);
      i.state = 'bound';
      throw listenError(e, src);
    },
  );
  i.listenReady.catch(() => {});
  return 0;
}

/** The Error a failed listen rejects `rdmaListenReady` with; errno and message are also set. */
function listenError(e: unknown, src: sockaddr): Error {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  const errno = code === 'EADDRINUSE' ? EADDRINUSE : code === 'EADDRNOTAVAIL' ? EADDRNOTAVAIL : code === 'EACCES' ? EACCES : EINVAL;
  const msg = `rdma_listen: ${src.address} port ${src.port}: ${errnoString(errno)}`;
  setErrno(errno, msg);
  return Object.assign(new Error(msg), { errno, code: errnoName(errno) });
}

/**
 * Resolves once a listening id's socket is bound (its port is then known); rejects with an
 * Error (`.errno`, `.code` = `'EADDRINUSE'`, …) when the listen failed after `rdma_listen`
 * returned — a port taken in between, which the synchronous check could not see.
 */
export function rdmaListenReady(id: rdma_cm_id): Promise<void> {
  return (id as CmId).listenReady ?? Promise.resolve();
}

function onRequest(listen: CmId, req: CmConnectRequest): void {
  const child = new CmId(listen.channel, listen.context, listen.ps);
  listen.channel?.ids.add(child);
  // An MPA request arrives over TCP: the iWARP device's.
  bindDevice(child, deviceContexts().find((c) => !isIbContext(c)) ?? null);
  child.req = req;
  child.state = 'request';
  child.route.addr.src_addr = { family: 'ipv4', address: stripV6(req.localAddress), port: req.localPort };
  child.route.addr.dst_addr = { family: 'ipv4', address: stripV6(req.remoteAddress), port: req.remotePort };
  const p = emptyParam();
  p.conn.private_data = req.privateData;
  p.conn.private_data_len = req.privateData.length;
  // iw_cm reports the peer's IRD as initiator_depth and its ORD as responder_resources.
  p.conn.initiator_depth = req.peerIrd ?? 0;
  p.conn.responder_resources = req.peerOrd ?? 0;
  // The peer went away (-ECONNRESET), or the request waited too long and the CM rejected it (-ETIMEDOUT).
  req.once('aborted', (e: CmError) => child.post(rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_ERROR, e.kind === 'timeout' ? -ETIMEDOUT : -ECONNRESET));
  postConnectRequest(listen, child, p);
}

/** CONNECT_REQUEST on the listener's channel, or queued for `rdma_get_request` on a synchronous listener. */
function postConnectRequest(listen: CmId, child: CmId, p: rdma_cm_event['param']): void {
  if (listen.channel) listen.post(rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_REQUEST, 0, p, listen, child);
  else {
    child.event = { id: child, listen_id: listen, event: rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_REQUEST, status: 0, param: p };
    listen.pendingRequests.push(child);
    listen.post(rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_REQUEST, 0, p, listen, child);
  }
}

/**
 * A REQ or SIDR_REQ for a RoCE listener (Linux `cma_ib_req_handler`/`cma_ib_new_conn_id`): a new
 * id on the RoCE device with the `cma_hdr`'s addresses, and CONNECT_REQUEST with the user's
 * private data (what follows the `cma_hdr`: 56 octets of a REQ, 180 of a SIDR_REQ) and the
 * peer's parameters as Linux reports them (a REQ's initiator depth as `responder_resources`,
 * its responder resources as `initiator_depth`). A REQ the consumer has not answered when the
 * event has been handed out gets an MRA (service timeout 24, about 67 s), as Linux sends it, so
 * that the active side stops retransmitting while the program decides. A REQ to a UDP service
 * or a SIDR_REQ to a TCP one is refused (REJ 28 / SIDR_REP Reject).
 */
function onIbRequest(listen: CmId, roce: RoceCm, ev: IbCmListenEvent, addrs: { src: string; dst: string; srcPort: number }): void {
  const ud = listen.ps === rdma_port_space.RDMA_PS_UDP;
  if (listen.dead || listen.state !== 'listen') {
    if (ev.type === 'req') ev.conn.reject();
    else ev.request.reject();
    return;
  }
  if ((ev.type === 'req') === ud) {
    log('rdma_listen: a %s for a %s listener refused', ev.type === 'req' ? 'REQ' : 'SIDR_REQ', ud ? 'RDMA_PS_UDP' : 'connected');
    if (ev.type === 'req') ev.conn.reject();
    else ev.request.reject();
    return;
  }
  const child = new CmId(listen.channel, listen.context, listen.ps);
  listen.channel?.ids.add(child);
  bindDevice(child, roce.ctx);
  child.state = 'request';
  child.route.addr.src_addr = { family: familyOf(addrs.dst), address: addrs.dst, port: listen.route.addr.src_addr.port };
  child.route.addr.dst_addr = { family: familyOf(addrs.src), address: addrs.src, port: addrs.srcPort };
  const p = emptyParam();
  roce.hold();
  if (ev.type === 'req') {
    const { conn, req } = ev;
    child.ib = { roce, conn, req, psn: 0, rr: 0, id: 0 };
    child.route.addr.addr.ibaddr.sgid.raw = Uint8Array.from(req.primary.remoteGid);
    child.route.addr.addr.ibaddr.dgid.raw = Uint8Array.from(req.primary.localGid);
    conn.onEvent = (e) => onIbEvent(child, e);
    const user = req.privateData.subarray(36);
    p.conn.private_data = user;
    p.conn.private_data_len = user.length;
    p.conn.responder_resources = req.initiatorDepth;
    p.conn.initiator_depth = req.responderResources;
    p.conn.flow_control = req.e2eFlowControl ? 1 : 0;
    p.conn.retry_count = req.retryCount;
    p.conn.rnr_retry_count = req.rnrRetryCount;
    p.conn.srq = req.srq ? 1 : 0;
    p.conn.qp_num = req.localQpn;
    postConnectRequest(listen, child, p);
    queueMicrotask(() => {
      if (conn.state === 'REQ_RCVD') conn.mra(CMA_MRA_TIMEOUT);
    });
    return;
  }
  const r = ev.request;
  child.ib = { roce, sidrIn: r, psn: 0, rr: 0, id: 0 };
  const peer = r.from.gid;
  const local = r.from.localGid ?? addressToGid(addrs.dst)!;
  child.route.addr.addr.ibaddr.sgid.raw = Uint8Array.from(local);
  child.route.addr.addr.ibaddr.dgid.raw = Uint8Array.from(peer);
  const user = r.req.privateData.subarray(36);
  p.ud.private_data = user;
  p.ud.private_data_len = user.length;
  p.ud.ah_attr = ibAhAttr(peer, Math.max(0, gidIndex(roce.ctx, local)));
  p.ud.qp_num = 0;
  p.ud.qkey = 0;
  postConnectRequest(listen, child, p);
}

/** An address's canonical text: an IPv4-mapped IPv6 address as IPv4, other IPv6 addresses as RFC 5952 writes them (no scope). */
function stripV6(a: string): string {
  return isIpv6Address(a) ? canonicalAddress(a) : a;
}

/** The sockaddr family of an address's text. */
const familyOf = (a: string): 'ipv4' | 'ipv6' => (isIpv6Address(a) ? 'ipv6' : 'ipv4');

/** True when `a` is an address of a running interface of this host (what the iWARP device answers for). */
function hostHas(a: string): boolean {
  const x = stripV6(a);
  for (const list of Object.values(networkInterfaces())) {
    for (const n of list ?? []) if (stripV6(n.address) === x || n.address === a) return true;
  }
  return false;
}

/**
 * `rdma_resolve_addr`: binds the id to its device (see the module documentation). On the RoCE
 * device the source address is the route's (or one the device owns, `ibSourceFor`), and the
 * path's GIDs are those of both addresses (IPv4-mapped for IPv4, the address itself for IPv6,
 * Annex A17.8), as `cma_resolve_iboe_route` sets them. The source has the destination's family
 * (none: ADDR_ERROR -EADDRNOTAVAIL).
 */
export async function rdma_resolve_addr(id: rdma_cm_id, src_addr: sockaddr | null, dst_addr: sockaddr, _timeout_ms: number): Promise<number> {
  const i = id as CmId;
  if (!idOk(i) || !sockaddrOk(dst_addr) || (i.state !== 'idle' && i.state !== 'bound') || (src_addr && !sockaddrOk(src_addr))) {
    return failRdma(EINVAL);
  }
  const addrError = (errno: number): number => {
    i.post(rdma_cm_event_type.RDMA_CM_EVENT_ADDR_ERROR, -errno);
    return i.channel ? 0 : failRdma(errno);
  };
  const bound = i.state === 'bound' ? i.route.addr.src_addr : null;
  const src = src_addr ?? (bound && !isWildcard(stripV6(bound.address)) ? bound : null);
  if (src && !deviceContexts().some((c) => owns(c, src.address))) {
    // No local RDMA device has the source address: the resolution fails (Linux: -EADDRNOTAVAIL).
    return addrError(EADDRNOTAVAIL);
  }
  const ctx = i.verbs && i.state === 'bound' ? i.verbs : chooseDevice(i, src ? src.address : null, 'rdma_resolve_addr');
  if (typeof ctx === 'number') return addrError(ctx);
  if (src_addr) i.route.addr.src_addr = { ...src_addr };
  i.route.addr.dst_addr = { ...dst_addr };
  if (isIbContext(ctx)) {
    const dst = stripV6(dst_addr.address);
    if (isIP(dst) === 0) return addrError(EAFNOSUPPORT);
    const from = src ? stripV6(src.address) : await ibSourceFor(ctx, dst);
    if (i.dead) return 0;
    if (!from || isWildcard(from) || isIP(from) !== isIP(dst)) return addrError(EADDRNOTAVAIL);
    const port = i.route.addr.src_addr.port || ephemeralPort();
    i.route.addr.src_addr = { family: familyOf(from), address: from, port };
    i.route.addr.addr.ibaddr.sgid.raw = addressToGid(from)!;
    i.route.addr.addr.ibaddr.dgid.raw = addressToGid(dst)!;
  }
  bindDevice(i, ctx);
  i.state = 'addr';
  i.post(rdma_cm_event_type.RDMA_CM_EVENT_ADDR_RESOLVED);
  return 0;
}

/**
 * `rdma_resolve_route`. On the RoCE device the route is one path record (`struct
 * ibv_sa_path_rec`) as Linux `cma_resolve_iboe_route` makes it without a subnet manager: the
 * GIDs, P_Key 0xffff, the port's MTU, hop limit 64 and packet life time 18.
 */
export async function rdma_resolve_route(id: rdma_cm_id, _timeout_ms: number): Promise<number> {
  const i = id as CmId;
  if (!idOk(i) || i.state !== 'addr') return failRdma(EINVAL);
  if (isIbContext(i.verbs)) {
    const a = i.route.addr.addr.ibaddr;
    i.route.path_rec = [
      {
        dgid: { raw: Uint8Array.from(a.dgid.raw) },
        sgid: { raw: Uint8Array.from(a.sgid.raw) },
        dlid: 0,
        slid: 0,
        raw_traffic: 0,
        flow_label: 0,
        hop_limit: IBOE_HOP_LIMIT,
        traffic_class: 0,
        reversible: 1,
        numb_path: 1,
        pkey: 0xffff,
        sl: 0,
        mtu_selector: 2,
        mtu: IBOE_PATH_MTU,
        rate_selector: 2,
        rate: 0,
        packet_life_time_selector: 2,
        packet_life_time: IBOE_PACKET_LIFETIME,
        preference: 0,
      },
    ];
    i.route.num_paths = 1;
  }
  i.state = 'route';
  i.post(rdma_cm_event_type.RDMA_CM_EVENT_ROUTE_RESOLVED);
  return 0;
}

/**
 * `rdma_create_qp`: on `pd` or the id's (default) PD; a CQ missing from the attributes is created
 * by rdma_cm with its own completion channel (`id.send_cq`/`recv_cq`, `*_cq_channel`), as
 * librdmacm does. The QP is moved to INIT at once (receives can be posted); connect/accept bring
 * it to RTS.
 */
export function rdma_create_qp(id: rdma_cm_id, pd: ibv_pd | null, attr: In<ibv_qp_init_attr>): number {
  const i = id as CmId;
  if (!idOk(i) || !i.verbs || i.qp || !attr) return failRdma(EINVAL);
  const ctx = i.verbs;
  const p = pd ?? i.pd ?? defaultPd(ctx);
  if (!p) return failRdma(EINVAL);
  const cap = attr.cap ?? {};
  let scq = (attr.send_cq ?? null) as ibv_cq | null;
  let rcq = (attr.recv_cq ?? null) as ibv_cq | null;
  const made: { cq: ibv_cq; ch: ibv_comp_channel }[] = [];
  const undo = (): number => {
    for (const m of made) {
      ibv_destroy_cq(m.cq);
      ibv_destroy_comp_channel(m.ch);
    }
    return -1;
  };
  const makeCq = (n: number): { cq: ibv_cq; ch: ibv_comp_channel } | null => {
    const ch = ibv_create_comp_channel(ctx);
    if (!ch) return null;
    const cq = ibv_create_cq(ctx, Math.max(n, 1), null, ch, 0);
    if (!cq) {
      ibv_destroy_comp_channel(ch);
      return null;
    }
    made.push({ cq, ch });
    return { cq, ch };
  };
  let sMade: { cq: ibv_cq; ch: ibv_comp_channel } | null = null;
  let rMade: { cq: ibv_cq; ch: ibv_comp_channel } | null = null;
  if (!scq) {
    sMade = makeCq(cap.max_send_wr ?? 1);
    if (!sMade) return undo();
    scq = sMade.cq;
  }
  if (!rcq) {
    rMade = makeCq(cap.max_recv_wr ?? 1);
    if (!rMade) return undo();
    rcq = rMade.cq;
  }
  const qp = ibv_create_qp(p, { ...attr, send_cq: scq, recv_cq: rcq, srq: (attr.srq ?? i.srq ?? null) as ibv_srq | null });
  if (!qp) return undo();
  const M = ibv_qp_attr_mask;
  let r: number;
  if (isIbContext(ctx) && (attr.qp_type ?? ibv_qp_type.IBV_QPT_RC) === ibv_qp_type.IBV_QPT_UD) {
    // A UD QP goes straight to RTS with rdma_cm's Q_Key (Linux cma_init_ud_qp; RDMA_UDP_QKEY).
    r = ibUdQpToRts(qp as Qp, RDMA_UDP_QKEY);
  } else {
    // rdma_cm's INIT (Linux cma_iw_init_qp_attr): local write, remote read and write; on RoCE
    // remote atomics too (Linux grants them with responder resources, cm_init_qp_init_attr).
    const access = isIbContext(ctx)
      ? IB_CM_ACCESS
      : ibv_access_flags.IBV_ACCESS_LOCAL_WRITE | ibv_access_flags.IBV_ACCESS_REMOTE_READ | ibv_access_flags.IBV_ACCESS_REMOTE_WRITE;
    r = ibv_modify_qp(qp, { qp_state: ibv_qp_state.IBV_QPS_INIT, pkey_index: 0, port_num: 1, qp_access_flags: access }, M.IBV_QP_STATE | M.IBV_QP_PKEY_INDEX | M.IBV_QP_PORT | M.IBV_QP_ACCESS_FLAGS);
  }
  if (r !== 0) {
    ibv_destroy_qp(qp);
    undo();
    return failRdma(r);
  }
  i.qp = qp as Qp;
  i.send_cq = scq;
  i.recv_cq = rcq;
  if (sMade) {
    i.send_cq_channel = sMade.ch;
    i.ownSendCq = true;
  }
  if (rMade) {
    i.recv_cq_channel = rMade.ch;
    i.ownRecvCq = true;
  }
  if (!i.pd) i.pd = p;
  return 0;
}

export function rdma_destroy_qp(id: rdma_cm_id): void {
  const i = id as CmId;
  if (!(i instanceof CmId) || !i.qp) return;
  // The QP cannot go while attached to a group (EBUSY): its groups are left first.
  leaveAll(i);
  if (ibv_destroy_qp(i.qp) !== 0) return;
  i.qp = null;
  if (i.ownSendCq && i.send_cq && ibv_destroy_cq(i.send_cq) === 0 && i.send_cq_channel) ibv_destroy_comp_channel(i.send_cq_channel);
  if (i.ownRecvCq && i.recv_cq && ibv_destroy_cq(i.recv_cq) === 0 && i.recv_cq_channel) ibv_destroy_comp_channel(i.recv_cq_channel);
  i.send_cq = i.recv_cq = null;
  i.send_cq_channel = i.recv_cq_channel = null;
  i.ownSendCq = i.ownRecvCq = false;
}

/**
 * The errno of an UNREACHABLE event by the socket's error code. A host name that does not
 * resolve has no kernel errno (librdmacm resolves names before it creates the event); it is
 * reported as EHOSTUNREACH (docs/spec-notes.md, "Unreachable peers").
 */
const UNREACHABLE_ERRNO: Readonly<Record<string, number>> = Object.freeze({
  ENETUNREACH,
  EHOSTUNREACH,
  EADDRNOTAVAIL,
  EADDRINUSE,
  ENOTFOUND: EHOSTUNREACH,
  EAI_AGAIN: EHOSTUNREACH,
});

function cmEventOfError(e: unknown): { type: rdma_cm_event_type; status: number; pd: Uint8Array | null } {
  if (e instanceof CmError) {
    switch (e.kind) {
      case 'rejected':
        return { type: rdma_cm_event_type.RDMA_CM_EVENT_REJECTED, status: -ECONNREFUSED, pd: e.privateData };
      case 'refused':
        return { type: rdma_cm_event_type.RDMA_CM_EVENT_REJECTED, status: -ECONNREFUSED, pd: null };
      case 'timeout':
        return { type: rdma_cm_event_type.RDMA_CM_EVENT_UNREACHABLE, status: -ETIMEDOUT, pd: null };
      case 'unreachable':
        // The socket's own errno, as librdmacm's UNREACHABLE event carries the kernel's.
        return { type: rdma_cm_event_type.RDMA_CM_EVENT_UNREACHABLE, status: -(UNREACHABLE_ERRNO[e.socketCode ?? ''] ?? ETIMEDOUT), pd: null };
      default:
        return { type: rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_ERROR, status: -ECONNRESET, pd: null };
    }
  }
  return { type: rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_ERROR, status: -ECONNRESET, pd: null };
}

function connParamOut(conn: CmConnection, ird: number, ord: number): rdma_cm_event['param'] {
  const p = emptyParam();
  p.conn.private_data = conn.peerPrivateData;
  p.conn.private_data_len = conn.peerPrivateData.length;
  p.conn.responder_resources = ird;
  p.conn.initiator_depth = ord;
  return p;
}

function pdOf(param: In<rdma_conn_param> | null): Uint8Array | null | number {
  const pd = param?.private_data ?? null;
  if (!pd) return null;
  const len = param?.private_data_len ?? pd.length;
  if (!Number.isInteger(len) || len < 0 || len > pd.length) return EINVAL;
  return pd.subarray(0, len);
}

/**
 * `rdma_connect`: MPA Request with the private data and IRD/ORD (`responder_resources` /
 * `initiator_depth`); ESTABLISHED (or REJECTED/UNREACHABLE/CONNECT_ERROR) follows as an event.
 */
export async function rdma_connect(id: rdma_cm_id, param: In<rdma_conn_param> | null): Promise<number> {
  const i = id as CmId;
  if (idOk(i) && i.state === 'route' && isIbContext(i.verbs)) return ibConnect(i, param);
  // iWARP connects RDMA_PS_TCP only (IWARP_UNSUPPORTED 'rdma_connect:RDMA_PS_UDP').
  if (idOk(i) && i.ps !== rdma_port_space.RDMA_PS_TCP) return failRdma(EOPNOTSUPP);
  if (!idOk(i) || i.state !== 'route' || !i.qp) return failRdma(EINVAL);
  const eqp = cmQpOf(i.qp);
  const q = eqp.query();
  const pd = pdOf(param);
  if (!q || typeof pd === 'number') return failRdma(EINVAL);
  const ird = param?.responder_resources ?? q.ird;
  const ord = param?.initiator_depth ?? q.ord;
  const env = envParams('rdma_connect');
  if (!env) return -1;
  i.state = 'connecting';
  i.releasePort();
  const dst = i.route.addr.dst_addr;
  // ESTABLISHED, and so the ULP's first post, waits ACTIVE_SETTLE_MS after the Reply (Linux siw).
  const abort = new AbortController();
  i.connectAbort = abort;
  const run = cmConnect(eqp, dst.address, dst.port, { settleMs: ACTIVE_SETTLE_MS, ...env, privateData: pd ?? undefined, ird, ord, signal: abort.signal }).then(
    (conn) => {
      i.connectAbort = null;
      if (i.dead) {
        // Destroyed while the connection settled: nobody owns it any more.
        conn.disconnect('abortive');
        return 0;
      }
      i.route.addr.src_addr = { family: 'ipv4', address: stripV6(conn.localAddress), port: conn.localPort };
      i.attach(conn);
      const now = eqp.query();
      i.post(rdma_cm_event_type.RDMA_CM_EVENT_ESTABLISHED, 0, connParamOut(conn, now?.ird ?? ird, now?.ord ?? ord));
      if (conn.closed) i.onClosed();
      return 0;
    },
    (e: unknown) => {
      i.connectAbort = null;
      i.state = 'route';
      const ev = cmEventOfError(e);
      const p = emptyParam();
      if (ev.pd) {
        p.conn.private_data = ev.pd;
        p.conn.private_data_len = ev.pd.length;
      }
      i.post(ev.type, ev.status, p);
      return -1;
    },
  );
  // An asynchronous id returns at once; a synchronous one waits for the outcome.
  if (i.channel) return 0;
  const r = await run;
  if (r !== 0) setErrno(ECONNREFUSED);
  return r;
}

/**
 * The IRD/ORD an accept asks for, as librdmacm's `rdma_accept` decides them: without
 * `conn_param`, or with `RDMA_MAX_RESP_RES`/`RDMA_MAX_INIT_DEPTH`, the request's values capped to
 * the device's limits (a Request without the RFC 6581 word has none: the QP's own then); an
 * explicit value above the device's limit is refused (`ucma_valid_param`: EINVAL), so a peer's
 * oversized IRD/ORD never reaches the CM unchecked. null = EINVAL.
 */
function acceptDepth(req: CmConnectRequest, param: In<rdma_conn_param> | null, q: { ird: number; ord: number }, lim: { maxIrdPerQp: number; maxOrdPerQp: number }): { ird: number; ord: number } | null {
  // iw_cm reports the peer's ORD as responder_resources (our IRD) and its IRD as initiator_depth (our ORD).
  const pick = (given: number | undefined, max: number, sentinel: number, peer: number | null, own: number): number | null => {
    if (param && given !== undefined && given !== sentinel) return given > max ? null : given;
    if (param && given === undefined) return own;
    return Math.min(peer ?? own, max);
  };
  const ird = pick(param?.responder_resources, lim.maxIrdPerQp, RDMA_MAX_RESP_RES, req.peerOrd, q.ird);
  const ord = pick(param?.initiator_depth, lim.maxOrdPerQp, RDMA_MAX_INIT_DEPTH, req.peerIrd, q.ord);
  return ird === null || ord === null ? null : { ird, ord };
}

export async function rdma_accept(id: rdma_cm_id, param: In<rdma_conn_param> | null): Promise<number> {
  const i = id as CmId;
  if (idOk(i) && i.state === 'request' && i.ib) return ibAccept(i, param);
  if (!idOk(i) || i.state !== 'request' || !i.req || !i.qp) return failRdma(EINVAL);
  const eqp = cmQpOf(i.qp);
  const q = eqp.query();
  const pd = pdOf(param);
  if (!q || typeof pd === 'number') return failRdma(EINVAL);
  const depth = acceptDepth(i.req, param, q, eqp.caps());
  if (!depth) return failRdma(EINVAL, 'rdma_accept: responder_resources/initiator_depth above the device limits (EINVAL)');
  let conn: CmConnection;
  try {
    conn = i.req.accept(eqp, {
      ird: depth.ird,
      ord: depth.ord,
      privateData: pd ?? undefined,
      // As Linux siw: the passive side may send first when no RTR was agreed.
      awaitFirstRx: false,
    });
  } catch (e) {
    log('accept failed: %s', (e as Error).message);
    return failRdma(EINVAL);
  }
  i.req = null;
  i.attach(conn);
  const now = eqp.query();
  i.post(rdma_cm_event_type.RDMA_CM_EVENT_ESTABLISHED, 0, connParamOut(conn, now?.ird ?? q.ird, now?.ord ?? q.ord));
  return 0;
}

export function rdma_reject(id: rdma_cm_id, private_data: Uint8Array | null, private_data_len?: number): number {
  const i = id as CmId;
  const pd = private_data ? private_data.subarray(0, private_data_len ?? private_data.length) : new Uint8Array(0);
  if (idOk(i) && i.state === 'request' && i.ib) return ibReject(i, pd);
  if (!idOk(i) || i.state !== 'request' || !i.req) return failRdma(EINVAL);
  i.req.reject(pd);
  i.req = null;
  i.state = 'disconnected';
  return 0;
}

export function rdma_notify(id: rdma_cm_id, _event: number): number {
  return idOk(id as CmId) ? 0 : failRdma(EINVAL);
}

/** `rdma_disconnect`: graceful close; DISCONNECTED arrives on both sides when TCP is closed. */
export async function rdma_disconnect(id: rdma_cm_id): Promise<number> {
  const i = id as CmId;
  if (idOk(i) && i.ib) return ibDisconnect(i);
  if (!idOk(i) || !i.conn) return failRdma(EINVAL);
  if (i.conn.closed) return 0;
  // RTS→Closing (RNICPI 1.0 §6.1.6 normal close); from any other state, Error. With work still
  // outstanding the RNIC makes the close a bad one (RDMAC Verbs §6.2 T15: reset, flush, Error):
  // what Linux siw does too, but siw reports no event, so neither does rdma_disconnect.
  const graceful = i.conn.qp.query()?.state === RiQpState.READY_TO_SEND;
  if (graceful && i.qp) i.qp.quietBadClose = true;
  i.conn.disconnect(graceful ? 'graceful' : 'abortive');
  if (!i.channel) await i.nextSync();
  return 0;
}

// ------------------------------------------------------------------------------ RoCE (IB CM)

/** The device's limit of outstanding Reads/atomics per QP, for RDMA_MAX_RESP_RES / RDMA_MAX_INIT_DEPTH (0xff). */
function maxRdAtomic(ctx: Context): number {
  const a = {} as ibv_device_attr;
  return queryDevice(ctx, a) === 0 ? Math.min(a.max_qp_rd_atom, a.max_qp_init_rd_atom) : 1;
}

/** `responder_resources` / `initiator_depth` of a conn_param: 0xff (or none) is the device's maximum; more than it is EINVAL (librdmacm `ucma_valid_param`). */
function depthOf(v: number | undefined, max: number): number {
  if (v === undefined || v === 0xff) return max;
  return Number.isInteger(v) && v >= 0 && v <= max ? v : -1;
}

/** The verbs QP of an id by the QP's own object (COMM_EST is reported on the QP). */
const idOfQp = new WeakMap<object, CmId>();
let commEstHooked = false;

/**
 * Data on a passive RoCE QP before the RTU (the RTU was lost): the QP's Communication
 * Established event makes the connection established (IBTA Vol. 1 §12.9.5.2; Linux
 * `ib_cm_notify` from `cma_ib_handler`'s user of IB_EVENT_COMM_EST).
 */
function hookCommEst(): void {
  if (commEstHooked) return;
  commEstHooked = true;
  onRawAsyncEvent((_dev, ev) => {
    if (ev.event_type !== RiAsyncEventType.QP_COMMUNICATION_ESTABLISHED || !('resource_os_data' in ev.event_data)) return;
    const id = idOfQp.get(ev.event_data.resource_os_data as object);
    const c = id?.ib?.conn;
    if (c && (c.state === 'REP_SENT' || c.state === 'MRA_REP_RCVD')) c.establish();
  });
}

/** Moves a RoCE id's QP to Error (Linux `cma_modify_qp_err`): its WRs are flushed. */
function ibQpToErr(i: CmId): void {
  if (i.qp && !i.qp.dead) ibv_modify_qp(i.qp, { qp_state: ibv_qp_state.IBV_QPS_ERR }, ibv_qp_attr_mask.IBV_QP_STATE);
}

/** Settles a synchronous `rdma_connect` (0 or -1 with errno). */
function ibSettle(i: CmId, ret: number, errno = 0): void {
  const s = i.ib?.settle;
  if (!s) return;
  i.ib!.settle = undefined;
  if (ret !== 0) setErrno(errno);
  s(ret);
}

/**
 * The IB CM's events on one RoCE id, as Linux `cma_ib_handler` reports them: the REP moves
 * the active QP to RTR/RTS and sends the RTU, then ESTABLISHED (private data: the REP's 196
 * octets); the RTU (or COMM_EST) makes the passive side ESTABLISHED; a REJ is REJECTED with
 * the REJ reason as status and its 148 octets of private data; an unanswered REQ or REP is
 * UNREACHABLE (-ETIMEDOUT); a DREQ, or the DREP of ours, is DISCONNECTED; TIMEWAIT's end is
 * TIMEWAIT_EXIT. Every failure moves the QP to Error.
 */
function onIbEvent(i: CmId, e: IbCmEvent): void {
  if (i.dead || !i.ib) return;
  const T = rdma_cm_event_type;
  const s = i.ib;
  switch (e.type) {
    case 'mra':
      return;
    case 'rep': {
      const rep = e.rep;
      const req = s.req!;
      const ctx = i.verbs!;
      const r = i.qp
        ? ibQpToRts(i.qp, {
            dgid: i.route.addr.addr.ibaddr.dgid.raw,
            sgidIndex: Math.max(0, gidIndex(ctx, i.route.addr.addr.ibaddr.sgid.raw)),
            pathMtu: req.pathMtu,
            destQpn: rep.localQpn,
            // Each CM message's Starting PSN is the PSN its sender will *receive* first (Linux
            // ib_cm; seen from rxe: its first Send carries our REP's PSN): ours is our RQ PSN.
            rqPsn: s.psn,
            sqPsn: rep.startingPsn,
            // What the peer grants: its REP's initiator depth bounds our responder resources (Linux cm_rep_handler).
            responderResources: Math.min(s.rr, rep.initiatorDepth),
            initiatorDepth: Math.min(s.id, rep.responderResources),
            timeout: i.ackTimeout ?? req.primary.localAckTimeout,
            retryCnt: req.retryCount,
            rnrRetry: rep.rnrRetryCount,
          })
        : EINVAL;
      if (r !== 0) {
        log('REP: the QP could not reach RTS (%s); REJ', errnoName(r));
        s.conn?.reject();
        ibQpToErr(i);
        i.state = 'route';
        i.post(T.RDMA_CM_EVENT_CONNECT_ERROR, -r);
        ibSettle(i, -1, r);
        return;
      }
      s.conn!.ready();
      i.state = 'connected';
      if (i.qp) i.qp.ibState = ibv_qp_state.IBV_QPS_RTS;
      const p = emptyParam();
      p.conn.private_data = rep.privateData;
      p.conn.private_data_len = rep.privateData.length;
      p.conn.responder_resources = rep.initiatorDepth;
      p.conn.initiator_depth = rep.responderResources;
      p.conn.flow_control = rep.e2eFlowControl ? 1 : 0;
      p.conn.rnr_retry_count = rep.rnrRetryCount;
      p.conn.srq = rep.srq ? 1 : 0;
      p.conn.qp_num = rep.localQpn;
      i.post(T.RDMA_CM_EVENT_ESTABLISHED, 0, p);
      ibSettle(i, 0);
      return;
    }
    case 'established':
      i.state = 'connected';
      if (i.qp) i.qp.ibState = ibv_qp_state.IBV_QPS_RTS;
      i.post(T.RDMA_CM_EVENT_ESTABLISHED);
      return;
    case 'rejected': {
      ibQpToErr(i);
      if (i.state === 'connected') {
        i.onClosed();
        return;
      }
      const p = emptyParam();
      p.conn.private_data = e.privateData;
      p.conn.private_data_len = e.privateData.length;
      i.state = i.state === 'connecting' ? 'route' : 'disconnected';
      i.post(T.RDMA_CM_EVENT_REJECTED, e.reason, p);
      ibSettle(i, -1, ECONNREFUSED);
      return;
    }
    case 'timeout':
      ibQpToErr(i);
      i.state = i.state === 'connecting' ? 'route' : 'disconnected';
      // A request the program left undecided, rejected by the CM: as on iWARP, CONNECT_ERROR.
      i.post(e.message === 'decision' ? T.RDMA_CM_EVENT_CONNECT_ERROR : T.RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT);
      ibSettle(i, -1, ETIMEDOUT);
      return;
    case 'dreq':
    case 'disconnected':
      i.onClosed();
      return;
    case 'timewait-exit':
      i.post(T.RDMA_CM_EVENT_TIMEWAIT_EXIT);
      return;
  }
}

/**
 * `rdma_connect` on the RoCE device. RDMA_PS_TCP and RDMA_PS_IB send a REQ (Linux
 * `cma_connect_ib`): the service ID of the destination port, the QP's number, a random
 * starting PSN, the conn_param's depths and retry counts, the path of `rdma_resolve_route`,
 * and the `cma_hdr` then at most 56 octets of private data. RDMA_PS_UDP sends a SIDR_REQ
 * (`cma_resolve_ib_udp`: at most 180 octets) and reports the peer's QPN and Q_Key in
 * ESTABLISHED's `param.ud`.
 */
async function ibConnect(i: CmId, param: In<rdma_conn_param> | null): Promise<number> {
  const ctx = i.verbs!;
  const user = pdOf(param);
  if (typeof user === 'number') return failRdma(EINVAL);
  const dst = i.route.addr.dst_addr;
  const src = i.route.addr.src_addr;
  const sid = rdmaServiceId(i.ps, dst.port);
  const dgid = Uint8Array.from(i.route.addr.addr.ibaddr.dgid.raw);
  const sgid = Uint8Array.from(i.route.addr.addr.ibaddr.sgid.raw);
  const roce = RoceCm.of(ctx);
  if (typeof roce === 'number') return failRdma(roce, `rdma_connect: ${ctx.device.name} has no IB CM (QP1): ${errnoString(roce)}`);
  const T = rdma_cm_event_type;
  if (i.ps === rdma_port_space.RDMA_PS_UDP) {
    const pd = cmaPrivateData(src, stripV6(dst.address), user, SIDR_REQ_USER_PD);
    if (typeof pd === 'number') return failRdma(EINVAL, `rdma_connect: at most ${SIDR_REQ_USER_PD} octets of private data on RDMA_PS_UDP (EINVAL)`);
    roce.hold();
    i.ib = { roce, psn: 0, rr: 0, id: 0 };
    i.state = 'connecting';
    const done = new Promise<number>((resolve) => {
      i.ib!.settle = resolve;
    });
    i.ib.sidrOut = roce.cm.sidrRequest({ destGid: dgid, localGid: sgid, serviceId: sid, privateData: pd }, (e) => {
      if (i.dead || !i.ib) return;
      i.ib.sidrOut = undefined;
      if (e.type === 'timeout') {
        i.state = 'route';
        i.post(T.RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT);
        ibSettle(i, -1, ETIMEDOUT);
        return;
      }
      const rep = e.rep;
      if (rep.status !== SidrStatus.SUCCESS) {
        i.state = 'route';
        i.post(T.RDMA_CM_EVENT_UNREACHABLE, rep.status);
        ibSettle(i, -1, ECONNREFUSED);
        return;
      }
      // rdma_cm's UD services use RDMA_UDP_QKEY; another is an address error (Linux cma_set_qkey).
      if (rep.qkey !== RDMA_UDP_QKEY) {
        i.state = 'route';
        i.post(T.RDMA_CM_EVENT_ADDR_ERROR, -EINVAL);
        ibSettle(i, -1, EINVAL);
        return;
      }
      i.state = 'connected';
      const p = emptyParam();
      p.ud.private_data = rep.privateData;
      p.ud.private_data_len = rep.privateData.length;
      p.ud.ah_attr = ibAhAttr(dgid, Math.max(0, gidIndex(ctx, sgid)));
      p.ud.qp_num = rep.qpn;
      p.ud.qkey = rep.qkey;
      i.post(T.RDMA_CM_EVENT_ESTABLISHED, 0, p);
      ibSettle(i, 0);
    });
    if (i.channel) return 0;
    return done;
  }
  if (!i.qp) return failRdma(EINVAL);
  const pd = cmaPrivateData(src, stripV6(dst.address), user, REQ_USER_PD);
  if (typeof pd === 'number') return failRdma(EINVAL, `rdma_connect: at most ${REQ_USER_PD} octets of private data on RoCE (EINVAL)`);
  const max = maxRdAtomic(ctx);
  const rr = depthOf(param?.responder_resources, max);
  const id = depthOf(param?.initiator_depth, max);
  if (rr < 0 || id < 0) return failRdma(EINVAL, `rdma_connect: responder_resources and initiator_depth must be at most ${max} (EINVAL)`);
  const psn = randomPsn();
  hookCommEst();
  let conn: IbCmConnection;
  try {
    conn = roce.cm.connect(
      {
        destGid: dgid,
        localGid: sgid,
        serviceId: sid,
        qpn: i.qp.qp_num,
        startingPsn: psn,
        responderResources: rr,
        initiatorDepth: id,
        retryCount: Math.min(Math.max(param?.retry_count ?? 7, 0), 7),
        rnrRetryCount: Math.min(Math.max(param?.rnr_retry_count ?? 7, 0), 7),
        pathMtu: IBOE_PATH_MTU,
        hopLimit: IBOE_HOP_LIMIT,
        packetLifeTime: IBOE_PACKET_LIFETIME,
        srq: i.qp.srq !== null,
        privateData: pd,
      },
      (e) => onIbEvent(i, e),
    );
  } catch (e) {
    return failRdma((e as { code?: string }).code === 'ENOMEM' ? 12 : EINVAL, `rdma_connect: ${(e as Error).message}`);
  }
  roce.hold();
  i.ib = { roce, conn, req: conn.req, psn, rr, id };
  idOfQp.set(i.qp, i);
  i.state = 'connecting';
  if (i.channel) return 0;
  return new Promise<number>((resolve) => {
    i.ib!.settle = resolve;
  });
}

/**
 * `rdma_accept` on a RoCE request. A REQ: the QP goes to RTR and RTS with the REQ's values
 * (its QPN, starting PSN, path, Local ACK Timeout and retry counts), then the REP (at most 196
 * octets of private data) as Linux `cma_accept_ib`; ESTABLISHED follows on the RTU. A SIDR_REQ:
 * SIDR_REP Success with the UD QP and RDMA_UDP_QKEY (at most 136 octets), no event.
 */
async function ibAccept(i: CmId, param: In<rdma_conn_param> | null): Promise<number> {
  const s = i.ib!;
  const user = pdOf(param);
  if (typeof user === 'number') return failRdma(EINVAL);
  if (s.sidrIn) {
    const qpn = i.qp?.qp_num ?? param?.qp_num;
    if (!qpn) return failRdma(EINVAL, 'rdma_accept: a UD request needs a QP (EINVAL)');
    if ((user?.length ?? 0) > CM_PRIVATE_DATA_SIZE.SIDR_REP) return failRdma(EINVAL);
    s.sidrIn.accept({ qpn, qkey: RDMA_UDP_QKEY, privateData: user ?? undefined });
    i.state = 'connected';
    return 0;
  }
  const conn = s.conn!;
  const req = s.req!;
  if (!i.qp) return failRdma(EINVAL, 'rdma_accept: the id has no QP (EINVAL)');
  if ((user?.length ?? 0) > CM_PRIVATE_DATA_SIZE.REP) return failRdma(EINVAL, `rdma_accept: at most ${CM_PRIVATE_DATA_SIZE.REP} octets of private data (EINVAL)`);
  const ctx = i.verbs!;
  const max = maxRdAtomic(ctx);
  const rr = depthOf(param?.responder_resources, max);
  const id = depthOf(param?.initiator_depth, max);
  if (rr < 0 || id < 0) return failRdma(EINVAL, `rdma_accept: responder_resources and initiator_depth must be at most ${max} (EINVAL)`);
  const psn = randomPsn();
  const r = ibQpToRts(i.qp, {
    dgid: req.primary.localGid,
    sgidIndex: Math.max(0, gidIndex(ctx, req.primary.remoteGid)),
    pathMtu: req.pathMtu,
    destQpn: req.localQpn,
    // The REQ's Starting PSN is what the active side will receive first (our SQ PSN); the REP's,
    // what we will receive (see onIbEvent 'rep').
    rqPsn: psn,
    sqPsn: req.startingPsn,
    responderResources: rr,
    initiatorDepth: id,
    timeout: i.ackTimeout ?? req.primary.localAckTimeout,
    retryCnt: req.retryCount,
    rnrRetry: req.rnrRetryCount,
  });
  if (r !== 0) return failRdma(r, `rdma_accept: the QP could not reach RTS with the REQ's values (${errnoName(r)})`);
  hookCommEst();
  try {
    conn.accept({ qpn: i.qp.qp_num, startingPsn: psn, responderResources: rr, initiatorDepth: id, rnrRetryCount: Math.min(Math.max(param?.rnr_retry_count ?? 7, 0), 7), srq: i.qp.srq !== null, privateData: user ?? undefined });
  } catch (e) {
    ibQpToErr(i);
    return failRdma(EINVAL, `rdma_accept: ${(e as Error).message}`);
  }
  s.psn = psn;
  s.rr = rr;
  s.id = id;
  idOfQp.set(i.qp, i);
  i.state = 'connecting';
  return 0;
}

/** `rdma_reject` on a RoCE request: REJ 28 (Consumer Defined) with ≤ 148 octets, or SIDR_REP Reject with ≤ 136. */
function ibReject(i: CmId, pd: Uint8Array): number {
  const s = i.ib!;
  if (pd.length > (s.sidrIn ? CM_PRIVATE_DATA_SIZE.SIDR_REP : CM_PRIVATE_DATA_SIZE.REJ)) return failRdma(EINVAL);
  if (s.sidrIn) {
    if (s.sidrIn.reply) return failRdma(EINVAL);
    s.sidrIn.reject(SidrStatus.REJECT, pd);
  } else s.conn?.reject(pd);
  i.state = 'disconnected';
  return 0;
}

/**
 * `rdma_disconnect` on RoCE: the QP to Error, then a DREQ (or the DREP of the peer's DREQ), as
 * Linux `rdma_disconnect`. DISCONNECTED comes with the DREP (or at once after the peer's DREQ).
 */
async function ibDisconnect(i: CmId): Promise<number> {
  const c = i.ib?.conn;
  if (!c) return failRdma(EINVAL);
  if (c.state !== 'ESTABLISHED' && c.state !== 'DREQ_RCVD' && c.state !== 'DREQ_SENT' && c.state !== 'TIMEWAIT') return failRdma(EINVAL);
  ibQpToErr(i);
  c.disconnect();
  if (!i.channel && !i.disconnected) await i.nextSync();
  return 0;
}

/** `rdma_destroy_id` of a RoCE id: what Linux `cm_destroy_id` sends (REJ, DREQ or DREP), the listener closed, the CM let go. */
function ibDestroy(i: CmId): void {
  const s = i.ib;
  if (s) {
    ibSettle(i, -1, ECONNABORTED);
    s.conn?.destroy();
    s.sidrOut?.destroy();
    if (s.sidrIn && !s.sidrIn.reply) s.sidrIn.reject();
    i.ib = null;
    s.roce.release();
  }
  const l = i.ibListen;
  if (l) {
    l.roce.unlisten(l.sid, l.address);
    i.ibListen = null;
    l.roce.release();
  }
}

export function rdma_get_src_port(id: rdma_cm_id): number {
  return (id as CmId).route.addr.src_addr.port;
}
export function rdma_get_dst_port(id: rdma_cm_id): number {
  return (id as CmId).route.addr.dst_addr.port;
}
export function rdma_get_local_addr(id: rdma_cm_id): sockaddr {
  return { ...(id as CmId).route.addr.src_addr };
}
export function rdma_get_peer_addr(id: rdma_cm_id): sockaddr {
  return { ...(id as CmId).route.addr.dst_addr };
}

/** `rdma_get_devices`: rdma_cm's context of every device (softrdma0, softroce0). */
export function rdma_get_devices(): Context[] | null {
  return deviceContexts();
}
export function rdma_free_devices(_list: readonly unknown[]): void {}

export function rdma_get_cm_event(channel: rdma_event_channel): Promise<{ ret: number; event: rdma_cm_event | null }> {
  const ch = channel as EventChannel;
  if (!(ch instanceof EventChannel)) return Promise.resolve({ ret: failRdma(EINVAL), event: null });
  return ch.get();
}

/** Events already acked: a second ack of one is an error (the event is freed in C). */
const ackedEvents = new WeakSet<rdma_cm_event>();

export function rdma_ack_cm_event(event: rdma_cm_event): number {
  const id = event?.id as CmId | undefined;
  if (!(id instanceof CmId) || ackedEvents.has(event)) return failRdma(EINVAL);
  ackedEvents.add(event);
  if (id.unacked > 0) id.unacked--;
  return 0;
}

/**
 * `rdma_join_multicast` (manual §5.2.21). On the RoCE device, as Linux `cma_iboe_join_multicast`
 * with librdmacm's `ucma_process_join`: the IPv4 group G becomes the MGID `::ffff:G`, the id's QP
 * (if it has one) is attached to it (`ibv_attach_mcast`; the RoCEv2 transport then makes the
 * real IGMP join through its socket), and MULTICAST_JOIN follows with `param.ud`: an address
 * handle attribute to the group, QPN 0xFFFFFF, Q_Key RDMA_UDP_QKEY, private_data = `context`.
 * The id must be bound or resolved to the RoCE device; an IPv6 group is EOPNOTSUPP (its MLD
 * join is not carried, docs/spec-notes.md "RoCEv2 over IPv6"); a group joined twice is EADDRINUSE. Multicast needs UD QPs, which
 * iWARP does not have: on softrdma0 ENOSYS (Linux rdma_cm on iWARP).
 */
export async function rdma_join_multicast(id: rdma_cm_id, addr: sockaddr, context: unknown): Promise<number> {
  return joinMulticast(id as CmId, addr, context, false);
}

/**
 * `rdma_join_multicast_ex` (librdmacm, rdma_cma.h): `rdma_join_multicast` with join flags. Both
 * `RDMA_CM_JOIN_MC_ATTR_ADDRESS` and `RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS` must be in `comp_mask`, and
 * the flag must be a known one, else EINVAL. A send-only full member
 * (`RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER`) gets its MULTICAST_JOIN event, with the address
 * handle attribute to send to the group, but its QP is not attached and no IGMP join is made,
 * so it receives nothing sent to the group: as librdmacm's `ucma_process_join` skips the attach
 * and Linux `cma_iboe_join_multicast` the IGMP join for a send-only member.
 */
export async function rdma_join_multicast_ex(id: rdma_cm_id, mc_join_attr: In<rdma_cm_join_mc_attr_ex>, context: unknown): Promise<number> {
  const M = rdma_cm_join_mc_attr_mask;
  const a = mc_join_attr;
  if (!a || typeof a !== 'object') return failRdma(EINVAL);
  const mask = a.comp_mask ?? 0;
  const flags = a.join_flags ?? -1;
  if (!Number.isInteger(mask) || !Number.isInteger(flags)) return failRdma(EINVAL);
  if (mask & ~(M.RDMA_CM_JOIN_MC_ATTR_ADDRESS | M.RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS)) return failRdma(EINVAL, 'rdma_join_multicast_ex: unknown comp_mask bits (EINVAL)');
  if (!(mask & M.RDMA_CM_JOIN_MC_ATTR_ADDRESS)) return failRdma(EINVAL, 'rdma_join_multicast_ex: RDMA_CM_JOIN_MC_ATTR_ADDRESS is required (EINVAL)');
  if (!(mask & M.RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS) || flags < 0 || flags >= rdma_cm_mc_join_flags.RDMA_MC_JOIN_FLAG_RESERVED) {
    return failRdma(EINVAL, 'rdma_join_multicast_ex: a join flag (FULLMEMBER or SENDONLY_FULLMEMBER) is required (EINVAL)');
  }
  return joinMulticast(id as CmId, a.addr as sockaddr, context, flags === rdma_cm_mc_join_flags.RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER);
}

async function joinMulticast(i: CmId, addr: sockaddr, context: unknown, sendOnly: boolean): Promise<number> {
  if (!idOk(i) || !sockaddrOk(addr)) return failRdma(EINVAL);
  if (!isIbContext(i.verbs)) return failRdma(ENOSYS);
  if (i.state !== 'bound' && i.state !== 'addr' && i.state !== 'route') return failRdma(EINVAL);
  const g = stripV6(addr.address);
  if (isIP(g) === 6) return failRdma(EOPNOTSUPP);
  if (isIP(g) !== 4 || Number(g.split('.')[0]) < 224 || Number(g.split('.')[0]) > 239) return failRdma(EINVAL, `rdma_join_multicast: ${g} is not an IPv4 multicast address (EINVAL)`);
  if (i.mcast.has(g)) return failRdma(EADDRINUSE);
  const mgid = gidFromIpv4(g);
  const joined = { mgid, attached: false };
  i.mcast.set(g, joined);
  const sgid = i.route.addr.addr.ibaddr.sgid.raw;
  const sgidIndex = Math.max(0, gidIndex(i.verbs!, sgid));
  // The join completes later, as Linux's (a work item): a leave before it cancels it.
  setImmediate(() => {
    if (i.dead || i.mcast.get(g) !== joined) return;
    if (i.qp && !i.qp.dead && !sendOnly) {
      const r = ibv_attach_mcast_ib(i.qp, mgid);
      if (r !== 0) {
        i.mcast.delete(g);
        const p = emptyParam();
        p.ud.private_data = context as Uint8Array | null;
        i.post(rdma_cm_event_type.RDMA_CM_EVENT_MULTICAST_ERROR, -r, p);
        return;
      }
      joined.attached = true;
    }
    const p = emptyParam();
    p.ud.private_data = context as Uint8Array | null;
    p.ud.private_data_len = 0;
    p.ud.ah_attr = ibAhAttr(mgid, sgidIndex);
    p.ud.qp_num = 0xffffff;
    p.ud.qkey = RDMA_UDP_QKEY;
    i.post(rdma_cm_event_type.RDMA_CM_EVENT_MULTICAST_JOIN, 0, p);
  });
  return 0;
}

/** `rdma_leave_multicast`: the QP leaves the group (IGMP leave with its last member). A group not joined: EADDRNOTAVAIL. */
export function rdma_leave_multicast(id: rdma_cm_id, addr: sockaddr): number {
  const i = id as CmId;
  if (!idOk(i) || !sockaddrOk(addr)) return failRdma(EADDRNOTAVAIL);
  const g = stripV6(addr.address);
  const j = i.mcast.get(g);
  if (!j) return failRdma(EADDRNOTAVAIL);
  i.mcast.delete(g);
  if (j.attached && i.qp && !i.qp.dead) ibv_detach_mcast_ib(i.qp, j.mgid);
  return 0;
}

/** Leaves every group the id joined (before its QP or the id goes). */
function leaveAll(i: CmId): void {
  for (const [g, j] of [...i.mcast]) {
    i.mcast.delete(g);
    if (j.attached && i.qp && !i.qp.dead) ibv_detach_mcast_ib(i.qp, j.mgid);
  }
}

function ibv_attach_mcast_ib(qp: Qp, mgid: Uint8Array): number {
  return mcastAttach(qp, { raw: mgid }, 0, false);
}
function ibv_detach_mcast_ib(qp: Qp, mgid: Uint8Array): number {
  return mcastAttach(qp, { raw: mgid }, 0, true);
}

// ------------------------------------------------------------------------------ synchronous ids

/** `rdma_get_request` on a synchronous listening id: the next connection request's new id. */
export async function rdma_get_request(listen: rdma_cm_id): Promise<{ ret: number; id: rdma_cm_id | null }> {
  const l = listen as CmId;
  if (!idOk(l) || l.state !== 'listen' || l.channel) return { ret: failRdma(EINVAL), id: null };
  for (;;) {
    const ready = l.pendingRequests.shift();
    if (ready) {
      // A listener made by rdma_create_ep with QP attributes hands out ids that have a QP.
      if (l.epQp && !ready.qp && rdma_create_qp(ready, l.epQp.pd, { ...l.epQp.attr, cap: { ...l.epQp.attr.cap } }) !== 0) {
        const e = getErrno();
        ready.req?.reject(new Uint8Array(0));
        ready.dead = true;
        return { ret: failRdma(e), id: null };
      }
      return { ret: 0, id: ready };
    }
    await l.nextSync();
  }
}

export async function rdma_getaddrinfo(node: string | null, service: string | null, hints: In<rdma_addrinfo> | null): Promise<{ ret: number; res: rdma_addrinfo | null }> {
  // At least one of node and service (getaddrinfo(3): EAI_NONAME; librdmacm fails).
  if (node === null && service === null) return { ret: failRdma(EINVAL), res: null };
  const passive = ((hints?.ai_flags ?? 0) & RAI_PASSIVE) !== 0;
  const port = service ? Number(service) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) return { ret: failRdma(EINVAL), res: null };
  let address = passive ? '0.0.0.0' : '127.0.0.1';
  if (node) {
    if (isIP(node)) address = node;
    else {
      try {
        address = (await lookup(node, { family: 4 })).address;
      } catch {
        return { ret: failRdma(EADDRNOTAVAIL), res: null };
      }
    }
  }
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  const sa: sockaddr = { family, address, port };
  const res: rdma_addrinfo = {
    ai_flags: hints?.ai_flags ?? 0,
    ai_family: family === 'ipv6' ? AF_INET6 : AF_INET,
    ai_qp_type: ibv_qp_type.IBV_QPT_RC,
    ai_port_space: rdma_port_space.RDMA_PS_TCP,
    ai_src_len: passive ? 16 : 0,
    ai_dst_len: passive ? 0 : 16,
    ai_src_addr: passive ? sa : null,
    ai_dst_addr: passive ? null : sa,
    ai_src_canonname: null,
    ai_dst_canonname: node,
    ai_route_len: 0,
    ai_route: null,
    ai_connect_len: 0,
    ai_connect: null,
    ai_next: null,
  };
  return { ret: 0, res };
}

export function rdma_freeaddrinfo(_res: rdma_addrinfo): void {}

/** `rdma_create_ep`: a synchronous id with address and route resolved (or bound), and a QP. */
export async function rdma_create_ep(res: rdma_addrinfo, pd: ibv_pd | null, attr: In<ibv_qp_init_attr> | null): Promise<{ ret: number; id: rdma_cm_id | null }> {
  const { id } = rdma_create_id(null, null, rdma_port_space.RDMA_PS_TCP);
  if (!id) return { ret: -1, id: null };
  const i = id as CmId;
  if (res.ai_flags & RAI_PASSIVE) {
    if (!res.ai_src_addr || rdma_bind_addr(i, res.ai_src_addr) !== 0) return { ret: failRdma(EINVAL), id: null };
  } else {
    if (!res.ai_dst_addr) return { ret: failRdma(EINVAL), id: null };
    await rdma_resolve_addr(i, res.ai_src_addr, res.ai_dst_addr, 2000);
    await rdma_resolve_route(i, 2000);
  }
  if (attr) {
    if (res.ai_flags & RAI_PASSIVE) i.epQp = { pd, attr };
    else if (rdma_create_qp(i, pd, attr) !== 0) {
      const e = getErrno();
      rdma_destroy_id(i);
      return { ret: failRdma(e), id: null };
    }
  }
  return { ret: 0, id: i };
}

export function rdma_destroy_ep(id: rdma_cm_id): number {
  const i = id as CmId;
  if (!(i instanceof CmId)) return failRdma(EINVAL);
  rdma_destroy_qp(i);
  if (i.srq) ibv_destroy_srq(i.srq);
  return rdma_destroy_id(i);
}

// ------------------------------------------------------------------------------ rdma_verbs.h helpers

/** Registers memory in the id's PD (created on first use, as librdmacm does). */
function regFor(id: rdma_cm_id, addr: Uint8Array, length: number, access: number): ibv_mr | null {
  const p = ctxOf(id) ? pdFor(id as CmId) : null;
  if (!p) {
    setErrno(EINVAL);
    return null;
  }
  return ibv_reg_mr(p, addr, length, access);
}

function ctxOf(id: rdma_cm_id): Context | null {
  const i = id as CmId;
  return idOk(i) ? i.verbs : null;
}

function pdFor(i: CmId): ibv_pd | null {
  if (i.pd) return i.pd;
  if (!i.verbs) return null;
  i.pd = defaultPd(i.verbs);
  return i.pd;
}

export function rdma_reg_msgs(id: rdma_cm_id, addr: Uint8Array, length: number): ibv_mr | null {
  return regFor(id, addr, length, ibv_access_flags.IBV_ACCESS_LOCAL_WRITE);
}
export function rdma_reg_read(id: rdma_cm_id, addr: Uint8Array, length: number): ibv_mr | null {
  return regFor(id, addr, length, ibv_access_flags.IBV_ACCESS_LOCAL_WRITE | ibv_access_flags.IBV_ACCESS_REMOTE_READ);
}
export function rdma_reg_write(id: rdma_cm_id, addr: Uint8Array, length: number): ibv_mr | null {
  return regFor(id, addr, length, ibv_access_flags.IBV_ACCESS_LOCAL_WRITE | ibv_access_flags.IBV_ACCESS_REMOTE_WRITE);
}
export function rdma_dereg_mr(mr: ibv_mr): number {
  return ibv_dereg_mr(mr) === 0 ? 0 : -1;
}

export function rdma_create_srq(id: rdma_cm_id, pd: ibv_pd | null, attr: In<ibv_srq_init_attr>): number {
  const i = id as CmId;
  // One SRQ per id (librdmacm: the id must be bound to a device, and `id->srq` is taken).
  if (!idOk(i) || !i.verbs || i.srq) return failRdma(EINVAL);
  const p = pd ?? pdFor(i);
  if (!p) return failRdma(EINVAL);
  const s = ibv_create_srq(p, attr);
  if (!s) return -1;
  i.srq = s;
  return 0;
}
export function rdma_destroy_srq(id: rdma_cm_id): void {
  const i = id as CmId;
  if (i instanceof CmId && i.srq) {
    ibv_destroy_srq(i.srq);
    i.srq = null;
  }
}

/** The address of a `BufferRef` (a view of registered memory, or an address). */
function addrOf(mr: ibv_mr | null, addr: Uint8Array | bigint): bigint {
  if (typeof addr === 'bigint') return addr;
  if (mr) {
    const m = mr as ibv_mr & { bytes?: Uint8Array };
    if (m.bytes && m.bytes.buffer === addr.buffer) return mr.addr + BigInt(addr.byteOffset - m.bytes.byteOffset);
  }
  return 0n;
}

function postRet(r: { ret: number }): number {
  if (r.ret === 0) return 0;
  setErrno(r.ret);
  return -1;
}

export function rdma_post_recvv(id: rdma_cm_id, context: bigint | null, sgl: readonly In<ibv_sge>[], nsge: number): number {
  const i = id as CmId;
  if (!idOk(i)) return failRdma(EINVAL);
  const wr = { wr_id: context ?? 0n, sg_list: sgl.slice(0, nsge) as ibv_sge[], num_sge: nsge };
  if (i.srq) return postRet(ibv_post_srq_recv(i.srq, wr));
  if (!i.qp) return failRdma(EINVAL);
  return postRet(ibv_post_recv(i.qp, wr));
}

function postSendv(i: CmId, wr: Parameters<typeof ibv_post_send>[1]): number {
  if (!idOk(i) || !i.qp) return failRdma(EINVAL);
  return postRet(ibv_post_send(i.qp, wr));
}

export function rdma_post_sendv(id: rdma_cm_id, context: bigint | null, sgl: readonly In<ibv_sge>[], nsge: number, flags: number): number {
  return postSendv(id as CmId, { wr_id: context ?? 0n, opcode: ibv_wr_opcode.IBV_WR_SEND, sg_list: sgl.slice(0, nsge) as ibv_sge[], send_flags: flags });
}
export function rdma_post_readv(id: rdma_cm_id, context: bigint | null, sgl: readonly In<ibv_sge>[], nsge: number, flags: number, remote_addr: bigint, rkey: number): number {
  return postSendv(id as CmId, { wr_id: context ?? 0n, opcode: ibv_wr_opcode.IBV_WR_RDMA_READ, sg_list: sgl.slice(0, nsge) as ibv_sge[], send_flags: flags, wr: { rdma: { remote_addr, rkey } } });
}
export function rdma_post_writev(id: rdma_cm_id, context: bigint | null, sgl: readonly In<ibv_sge>[], nsge: number, flags: number, remote_addr: bigint, rkey: number): number {
  return postSendv(id as CmId, { wr_id: context ?? 0n, opcode: ibv_wr_opcode.IBV_WR_RDMA_WRITE, sg_list: sgl.slice(0, nsge) as ibv_sge[], send_flags: flags, wr: { rdma: { remote_addr, rkey } } });
}
export function rdma_post_recv(id: rdma_cm_id, context: bigint | null, addr: Uint8Array | bigint, length: number, mr: ibv_mr): number {
  return rdma_post_recvv(id, context, [{ addr: addrOf(mr, addr), length, lkey: mr.lkey }], 1);
}
export function rdma_post_send(id: rdma_cm_id, context: bigint | null, addr: Uint8Array | bigint, length: number, mr: ibv_mr | null, flags: number): number {
  const sge = sgeOf(id as CmId, mr, addr, length, flags);
  if (!sge) return failRdma(EINVAL);
  return rdma_post_sendv(id, context, [sge], 1, flags);
}
export function rdma_post_read(id: rdma_cm_id, context: bigint | null, addr: Uint8Array | bigint, length: number, mr: ibv_mr, flags: number, remote_addr: bigint, rkey: number): number {
  return rdma_post_readv(id, context, [{ addr: addrOf(mr, addr), length, lkey: mr.lkey }], 1, flags, remote_addr, rkey);
}
export function rdma_post_write(id: rdma_cm_id, context: bigint | null, addr: Uint8Array | bigint, length: number, mr: ibv_mr | null, flags: number, remote_addr: bigint, rkey: number): number {
  const sge = sgeOf(id as CmId, mr, addr, length, flags);
  if (!sge) return failRdma(EINVAL);
  return rdma_post_writev(id, context, [sge], 1, flags, remote_addr, rkey);
}

/**
 * The SGE of an inline Send/Write without an MR (§6.2.6: `mr` is optional when inline): the
 * bytes go through a small per-id scratch buffer of the synthetic address space, which the post
 * copies from at once (`IBV_SEND_INLINE`), so any `Uint8Array` may be sent. null if not inline.
 */
function sgeOf(i: CmId, mr: ibv_mr | null, addr: Uint8Array | bigint, length: number, flags: number): In<ibv_sge> | null {
  // Without an MR and not inline, librdmacm posts lkey 0: the completion reports the error.
  if (mr || !(flags & ibv_send_flags.IBV_SEND_INLINE)) return { addr: addrOf(mr, addr), length, lkey: mr?.lkey ?? 0 };
  if (typeof addr === 'bigint') return { addr, length, lkey: 0 };
  if (!Number.isInteger(length) || length < 0 || length > addr.length || length > MAX_INLINE_DATA) return null;
  i.inlineScratch ??= new Uint8Array(MAX_INLINE_DATA);
  i.inlineScratch.set(addr.subarray(0, length));
  return { addr: hostMemory.addressOf(i.inlineScratch), length, lkey: 0 };
}
/**
 * `rdma_post_ud_send` (manual §6.2.9): a UD Send to `remote_qpn` through `ah` with rdma_cm's
 * Q_Key (RDMA_UDP_QKEY). Only UD QPs (the RoCE device) have it: on an RC QP -1, errno EOPNOTSUPP.
 */
export function rdma_post_ud_send(id: rdma_cm_id, context: bigint | null, addr: Uint8Array | bigint, length: number, mr: ibv_mr | null, flags: number, ah: ibv_ah, remote_qpn: number): number {
  const i = id as CmId;
  if (!idOk(i)) return failRdma(EINVAL);
  // iWARP has no UD QPs (IWARP_UNSUPPORTED); on RoCE the id's QP must be one.
  if (!isIbContext(i.verbs)) return failRdma(EOPNOTSUPP);
  if (!i.qp) return failRdma(EINVAL);
  if (i.qp.qp_type !== ibv_qp_type.IBV_QPT_UD) return failRdma(EOPNOTSUPP);
  const sge = sgeOf(i, mr, addr, length, flags);
  if (!sge) return failRdma(EINVAL);
  return postSendv(i, { wr_id: context ?? 0n, opcode: ibv_wr_opcode.IBV_WR_SEND, sg_list: [sge as ibv_sge], send_flags: flags, wr: { ud: { ah, remote_qpn, remote_qkey: RDMA_UDP_QKEY } } });
}

/** Waits for one completion on the id's send or receive CQ, arming and sleeping when empty. */
async function getComp(cq: ibv_cq | null, ch: ibv_comp_channel | null, wc: ibv_wc): Promise<number> {
  if (!cq || !ch) return failRdma(EINVAL);
  for (;;) {
    const out = [wc];
    const n = ibv_poll_cq(cq, 1, out);
    if (n < 0) return failRdma(-n);
    if (n > 0) return 1;
    if (ibv_req_notify_cq(cq, 0) !== 0) return -1;
    if (ibv_poll_cq(cq, 1, out) > 0) return 1;
    const ev = await ibv_get_cq_event(ch);
    if (ev.ret !== 0) return failRdma(ev.ret);
    ibv_ack_cq_events(ev.cq as Cq, 1);
  }
}

export function rdma_get_send_comp(id: rdma_cm_id, wc: ibv_wc): Promise<number> {
  const i = id as CmId;
  return getComp(i.send_cq, i.send_cq_channel, wc);
}
export function rdma_get_recv_comp(id: rdma_cm_id, wc: ibv_wc): Promise<number> {
  const i = id as CmId;
  return getComp(i.recv_cq, i.recv_cq_channel, wc);
}



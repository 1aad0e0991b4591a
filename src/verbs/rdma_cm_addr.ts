/**
 * Addressing (manual §5.1: `rdma_bind_addr`, `rdma_listen`, `rdma_resolve_addr`,
 * `rdma_resolve_route`): binding a port, listening on every device that owns the address
 * (iWARP requests over TCP, RoCE ones on QP1), the CONNECT_REQUEST of an iWARP request, and
 * resolving a destination to the device and source address that reach it.
 *
 * @module
 */
import { type IbCmEnvParams, ibCmParamsFromEnv } from '../ibcm/cm.js';
import net, { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { cmListenDefaults, type CmConnectRequest, type CmError, CmListener, cmParamsFromEnv } from '../iwarp/cm.js';
import { rdmaServiceId } from '../wire/ib/cm.js';
import { addressToGid, canonicalAddress, isIpv6Address } from '../wire/ib/gid-address.js';
import { rdma_cm_event_type } from './constants.js';
import { EACCES, EADDRINUSE, EADDRNOTAVAIL, EAFNOSUPPORT, EINVAL, EOPNOTSUPP, errnoName, errnoString, setErrno } from './errno.js';
import { ephemeralPort, IBOE_HOP_LIMIT, IBOE_PACKET_LIFETIME, IBOE_PATH_MTU, ibSourceFor, isIbContext, RoceCm } from './rdma_cm_ib.js';
import { tcpPortBusy } from './portprobe.js';
import type { rdma_cm_event, rdma_cm_id, sockaddr } from './types.js';
import {
  CmId,
  ECONNRESET,
  ETIMEDOUT,
  bindDevice,
  chooseDevice,
  deviceContexts,
  emptyParam,
  failRdma,
  idOk,
  isWildcard,
  log,
  owns,
  sockaddrOk,
  supportsPs,
} from './rdma_cm_id.js';
import { ibDestroy, onIbRequest } from './rdma_cm_roce.js';

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
export function envParams(fn: string): ReturnType<typeof cmParamsFromEnv> | null {
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
  if (ctxs.length === 0)
    return failRdma(EOPNOTSUPP, `rdma_listen: no device serves port space 0x${i.ps.toString(16)} on ${src.address} (EOPNOTSUPP)`);
  const iw = ctxs.find((c) => !isIbContext(c));
  const ib = ctxs.find((c) => isIbContext(c));
  i.releasePort();
  // The port is the id's in the rdma_cm port space on every device, or the listen fails.
  if (iw && tcpPortBusy(host, src.port))
    return failRdma(EADDRINUSE, `rdma_listen: ${src.address} port ${src.port} is already in use (EADDRINUSE)`);
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
    if (st !== 0)
      return failRdma(st, `rdma_listen: ${src.address} port ${src.port} is already in use on ${ib.device.name} (${errnoName(st)})`);
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
  req.once('aborted', (e: CmError) =>
    child.post(rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_ERROR, e.kind === 'timeout' ? -ETIMEDOUT : -ECONNRESET),
  );
  postConnectRequest(listen, child, p);
}

/** CONNECT_REQUEST on the listener's channel, or queued for `rdma_get_request` on a synchronous listener. */
export function postConnectRequest(listen: CmId, child: CmId, p: rdma_cm_event['param']): void {
  if (listen.channel) listen.post(rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_REQUEST, 0, p, listen, child);
  else {
    child.event = { id: child, listen_id: listen, event: rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_REQUEST, status: 0, param: p };
    listen.pendingRequests.push(child);
    listen.post(rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_REQUEST, 0, p, listen, child);
  }
}

/** An address's canonical text: an IPv4-mapped IPv6 address as IPv4, other IPv6 addresses as RFC 5952 writes them (no scope). */
export function stripV6(a: string): string {
  return isIpv6Address(a) ? canonicalAddress(a) : a;
}

/** The sockaddr family of an address's text. */
export const familyOf = (a: string): 'ipv4' | 'ipv6' => (isIpv6Address(a) ? 'ipv6' : 'ipv4');

/** True when `a` is an address of a running interface of this host (what the iWARP device answers for). */
export function hostHas(a: string): boolean {
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
export async function rdma_resolve_addr(
  id: rdma_cm_id,
  src_addr: sockaddr | null,
  dst_addr: sockaddr,
  _timeout_ms: number,
): Promise<number> {
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

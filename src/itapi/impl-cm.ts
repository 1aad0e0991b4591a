/**
 * IT-API 2.1 over RNICPI: connection management (`it_ep_connect`, `it_ep_accept`, `it_reject`,
 * `it_ep_disconnect`, `it_handoff`, `it_listen_*`; IT-API 2.1 Ch. 6, the CM group).
 *
 * @module
 */
import net from 'node:net';
import { CmListener } from '../iwarp/cm.js';
import { RiRet } from '../rnicpi/status.js';
import { ipv4FromGid } from '../wire/ib/cm.js';
import type { ItApi } from './api.js';
import type { Ep } from './ep.js';
import { deliverRequest, Listen, PendingRequest } from './listen.js';
import { Evd, Sevd } from './evd.js';
import { check, fail, Ia } from './objects.js';
import { gidFromText, IB_PDATA_CONNECT, IbItListen, roceCm } from './roce.js';
import { it_status_t as S } from './status.js';
import {
  it_cn_est_flags_t as CF,
  it_conn_qual_type_t as CQ,
  it_ep_state_rc_t as ST,
  it_event_type_t as ET,
  it_ip_vers_t,
  it_listen_flags_t as LFL,
  it_listen_param_mask_t as LPM,
  type it_path_t,
  type it_conn_qual_t,
} from './types.js';
import {
  PDATA_CONNECT,
  PDATA_DISCONNECT,
  DEFAULT_PATH_TIMEOUT_US,
  isIb,
  pdataLimits,
  isUint,
  pdataOf,
  checkMask,
  pick,
  rcEp,
} from './impl-common.js';

function cnOf(id: unknown): PendingRequest {
  if (!(id instanceof PendingRequest) || id.consumed || id.held || id.ia.freed) fail(S.IT_ERR_INVALID_CN_EST_ID);
  if (id.ia.disabled) fail(S.IT_ERR_IA_CATASTROPHE);
  return id;
}

/**
 * `it_ep_connect` on the RoCE Interface after the common checks: the path's remote GID must be
 * IPv4-mapped (rdma_cm's `cma_hdr` carries IPv4 addresses), the qualifier an IANA port (the
 * service ID `RDMA_PS_TCP << 16 | port`), the private data at most 56 octets.
 */
function connectIb(ep: Ep, path: it_path_t, connect_qual: it_conn_qual_t, private_data: Uint8Array | null | undefined): void {
  if (!('ib' in path.remote)) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'an InfiniBand path is needed on the RoCE Interface');
  const ib = path.remote.ib;
  const dgid = gidFromText(ib.remote_port_gid);
  const host = dgid ? ipv4FromGid(dgid) : null;
  if (!host) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'the remote GID must be IPv4-mapped (::ffff:a.b.c.d)');
  const sgid = ib.local_port_gid ? gidFromText(ib.local_port_gid) : null;
  const local = sgid ? ipv4FromGid(sgid) : null;
  if (typeof path.timeout !== 'bigint' || path.timeout < 0n) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'timeout');
  if (!connect_qual || typeof connect_qual !== 'object' || connect_qual.type !== CQ.IT_IANA_PORT) {
    fail(S.IT_ERR_INVALID_CONN_QUAL, 'RoCE connections are to IANA ports (rdma_cm service IDs)');
  }
  const port = connect_qual.conn_qual.port;
  if (!isUint(port) || port === 0 || port > 0xffff) fail(S.IT_ERR_INVALID_CONN_QUAL);
  const pd = pdataOf(private_data, IB_PDATA_CONNECT);
  const us = path.timeout === 0n ? DEFAULT_PATH_TIMEOUT_US : path.timeout;
  const timeoutMs = Math.max(1, Number((us + 999n) / 1000n));
  const opts: Parameters<Ep['connectIb']>[3] = { timeoutMs, pdata: pd };
  if (local && local !== '0.0.0.0') opts.localAddress = local;
  ep.connectIb(host, port, path, opts);
}

/** The CM group of {@link ItApi}. */
export const itCm: Pick<
  ItApi,
  | 'it_ep_accept'
  | 'it_ep_connect'
  | 'it_ep_disconnect'
  | 'it_handoff'
  | 'it_listen_create'
  | 'it_listen_free'
  | 'it_listen_query'
  | 'it_reject'
> = {
  it_ep_accept(ep_handle, cn_est_id, private_data) {
    const ep = rcEp(ep_handle);
    const req = cnOf(cn_est_id);
    if (req.ia !== ep.ia) fail(S.IT_ERR_INVALID_CN_EST_ID, 'the request belongs to another IA');
    // iWARP is 2-way only: the passive side accepts with an UNCONNECTED Endpoint.
    if (ep.state !== ST.IT_EP_STATE_UNCONNECTED) fail(S.IT_ERR_INVALID_EP_STATE);
    const pd = pdataOf(private_data, pdataLimits(ep.ia).accept);
    ep.accept(req, pd);
    return { status: S.IT_SUCCESS };
  },

  it_ep_connect(ep_handle, path, conn_attr, connect_qual, cn_est_flags, private_data) {
    const ep = rcEp(ep_handle);
    if (ep.state !== ST.IT_EP_STATE_UNCONNECTED) fail(S.IT_ERR_INVALID_EP_STATE);
    const f = cn_est_flags;
    const known = CF.IT_CONNECT_FLAG_TWO_WAY | CF.IT_CONNECT_FLAG_THREE_WAY | CF.IT_CONNECT_SUPPRESS_IRD_ORD;
    if (!isUint(f) || (f & ~known) !== 0) fail(S.IT_ERR_INVALID_CN_EST_FLAGS);
    const twoWay = (f & CF.IT_CONNECT_FLAG_TWO_WAY) !== 0;
    const threeWay = (f & CF.IT_CONNECT_FLAG_THREE_WAY) !== 0;
    if (twoWay === threeWay) fail(S.IT_ERR_INVALID_CN_EST_FLAGS, 'exactly one of TWO_WAY and THREE_WAY');
    if (threeWay) fail(S.IT_ERR_INVALID_CN_EST_FLAGS, 'no three-way handshake on iWARP');
    // conn_attr: iWARP has no CM knobs; any value (or IT_NO_ADDR) means the defaults.
    void conn_attr;
    if (!path || typeof path !== 'object' || !path.remote) fail(S.IT_ERR_INVALID_SOURCE_PATH);
    if (path.spigot_id !== 0) fail(S.IT_ERR_INVALID_SPIGOT);
    if (isIb(ep.ia)) {
      connectIb(ep, path, connect_qual, private_data);
      return;
    }
    if (!('iwarp' in path.remote)) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'an iWARP path is needed');
    const iw = path.remote.iwarp;
    const v6 = iw.ip_vers === it_ip_vers_t.IT_IP_VERS_IPV6;
    const host = v6 ? ('ipv6' in iw.raddr ? iw.raddr.ipv6 : '') : 'ipv4' in iw.raddr ? iw.raddr.ipv4 : '';
    const local = v6 ? ('ipv6' in iw.laddr ? iw.laddr.ipv6 : '') : 'ipv4' in iw.laddr ? iw.laddr.ipv4 : '';
    if (!net.isIP(host)) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'remote address');
    if (local && !net.isIP(local)) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'local address');
    if (typeof path.timeout !== 'bigint' || path.timeout < 0n) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'timeout');
    let port: number;
    let localPort: number | undefined;
    if (!connect_qual || typeof connect_qual !== 'object') fail(S.IT_ERR_INVALID_CONN_QUAL);
    if (connect_qual.type === CQ.IT_IANA_PORT) port = connect_qual.conn_qual.port;
    else if (connect_qual.type === CQ.IT_IANA_LR_PORT) {
      port = connect_qual.conn_qual.lr_port.remote;
      localPort = connect_qual.conn_qual.lr_port.local;
      if (!isUint(localPort) || localPort === 0 || localPort > 0xffff) fail(S.IT_ERR_INVALID_CONN_QUAL);
    } else fail(S.IT_ERR_INVALID_CONN_QUAL, 'iWARP qualifiers are IANA ports');
    if (!isUint(port) || port === 0 || port > 0xffff) fail(S.IT_ERR_INVALID_CONN_QUAL);
    const pd = pdataOf(private_data, PDATA_CONNECT);
    const us = path.timeout === 0n ? DEFAULT_PATH_TIMEOUT_US : path.timeout;
    const timeoutMs = Math.max(1, Number((us + 999n) / 1000n));
    const opts: Parameters<Ep['connect']>[3] = { timeoutMs, pdata: pd, suppress: (f & CF.IT_CONNECT_SUPPRESS_IRD_ORD) !== 0 };
    if (local && local !== '0.0.0.0' && local !== '::') opts.localAddress = local;
    if (localPort !== undefined) opts.localPort = localPort;
    ep.connect(host, port, path, opts);
  },

  it_ep_disconnect(ep_handle, private_data) {
    const ep = rcEp(ep_handle);
    pdataOf(private_data, PDATA_DISCONNECT);
    if (ep.state === ST.IT_EP_STATE_UNCONNECTED) fail(S.IT_ERR_INVALID_EP_STATE);
    ep.disconnect();
  },

  it_handoff(conn_qual, spigot_id, cn_est_id) {
    const req = cnOf(cn_est_id);
    if (spigot_id !== 0) fail(S.IT_ERR_INVALID_SPIGOT);
    if (!conn_qual || conn_qual.type !== CQ.IT_IANA_PORT) fail(S.IT_ERR_INVALID_CONN_QUAL);
    const port = conn_qual.conn_qual.port;
    const target = [...req.ia.listens].find((l) => !l.freed && l.port === port && l.spigot === spigot_id);
    if (!target) fail(S.IT_ERR_INVALID_CONN_QUAL, 'no Listen of this IA on that qualifier');
    req.consume();
    deliverRequest(target, new PendingRequest(req.ia, req.cm, target.suppressIrdOrd), req.event);
  },

  it_listen_create(ia_handle, spigot_id, connect_evd, flags, conn_qual) {
    const ia = check(ia_handle, Ia, S.IT_ERR_INVALID_IA);
    if (spigot_id !== 0) fail(S.IT_ERR_INVALID_SPIGOT);
    const e = check(connect_evd, Evd, S.IT_ERR_INVALID_CONN_EVD);
    if (e.ia !== ia) fail(S.IT_ERR_INVALID_CONN_EVD);
    if (!(e instanceof Sevd) || e.stream !== ET.IT_CM_REQ_EVENT_STREAM) fail(S.IT_ERR_INVALID_EVD_TYPE);
    if (!isUint(flags) || (flags & ~(LFL.IT_LISTEN_CONN_QUAL_INPUT | LFL.IT_LISTEN_SUPPRESS_IRD_ORD)) !== 0) fail(S.IT_ERR_INVALID_FLAGS);
    if (!conn_qual || conn_qual.type !== CQ.IT_IANA_PORT)
      fail(S.IT_ERR_INVALID_CONN_QUAL, 'Listen Points are on IANA ports (iWARP; RoCE: rdma_cm service IDs)');
    const input = (flags & LFL.IT_LISTEN_CONN_QUAL_INPUT) !== 0;
    let port = 0;
    if (input) {
      port = conn_qual.conn_qual.port;
      if (!isUint(port) || port === 0 || port > 0xffff) fail(S.IT_ERR_INVALID_CONN_QUAL);
      // One Listen per port and Interface (iWARP's TCP port and RoCE's service ID are apart).
      for (const x of ia.device.listeners) {
        if (x instanceof Ia) for (const l of x.listens) if (!l.freed && l.port === port) fail(S.IT_ERR_CONN_QUAL_BUSY);
      }
    }
    const suppress = (flags & LFL.IT_LISTEN_SUPPRESS_IRD_ORD) !== 0;
    if (isIb(ia)) {
      const roce = roceCm(ia.device);
      if (typeof roce === 'number') fail(S.IT_ERR_RESOURCES, `the CM (QP1) cannot be opened: ${RiRet[roce]}`);
      const ibl = IbItListen.listen(roce, port);
      if (!ibl) fail(input ? S.IT_ERR_CONN_QUAL_BUSY : S.IT_ERR_RESOURCES, `service ID of port ${port} taken`);
      const l = new Listen(ia, spigot_id, e, ibl.port, ibl, suppress);
      e.feeders++;
      ia.listens.add(l);
      return { listen_handle: l, conn_qual: l.connQual };
    }
    const cm = CmListener.listenSync({ port, revision: suppress ? 1 : 2 });
    if (!cm) fail(input ? S.IT_ERR_CONN_QUAL_BUSY : S.IT_ERR_RESOURCES, `port ${port} cannot be bound`);
    const l = new Listen(ia, spigot_id, e, cm.port, cm, suppress);
    e.feeders++;
    ia.listens.add(l);
    return { listen_handle: l, conn_qual: l.connQual };
  },

  it_listen_free(listen_handle) {
    check(listen_handle, Listen, S.IT_ERR_INVALID_LISTEN).destroy();
  },

  it_listen_query(listen_handle, mask) {
    const l = check(listen_handle, Listen, S.IT_ERR_INVALID_LISTEN);
    checkMask(
      mask,
      LPM.IT_LISTEN_PARAM_ALL |
        LPM.IT_LISTEN_PARAM_IA_HANDLE |
        LPM.IT_LISTEN_PARAM_SPIGOT_ID |
        LPM.IT_LISTEN_PARAM_CONNECT_EVD |
        LPM.IT_LISTEN_PARAM_CONN_QUAL,
    );
    return pick(mask, { ia_handle: l.ia, spigot_id: l.spigot, connect_evd: l.evd, connect_qual: l.connQual }, [
      [LPM.IT_LISTEN_PARAM_IA_HANDLE, 'ia_handle'],
      [LPM.IT_LISTEN_PARAM_SPIGOT_ID, 'spigot_id'],
      [LPM.IT_LISTEN_PARAM_CONNECT_EVD, 'connect_evd'],
      [LPM.IT_LISTEN_PARAM_CONN_QUAL, 'connect_qual'],
    ]);
  },

  it_reject(cn_est_id, private_data) {
    const req = cnOf(cn_est_id);
    const pd = pdataOf(private_data, pdataLimits(req.ia).reject);
    req.consume();
    if (req.cm.state === 'pending') req.cm.reject(pd);
  },
};

/**
 * The IB CM path of rdma_cm on a RoCE device (Linux `cma.c` over `ib_cm`): a REQ or SIDR_REQ
 * arriving on a listener, `rdma_connect` (REQ/REP/RTU; SIDR for RDMA_PS_UDP), `rdma_accept`,
 * `rdma_reject`, `rdma_disconnect` (DREQ/DREP) and `rdma_destroy_id`, the IB CM's events as
 * rdma_cm events, and the QP moved with `ibv_modify_qp` (the attributes from `rdma_cm_ib.ts`).
 *
 * @module
 */
import type { IbCmConnection, IbCmEvent, IbCmListenEvent } from '../ibcm/cm.js';
import { RiAsyncEventType } from '../rnicpi/types.js';
import { CM_PRIVATE_DATA_SIZE, RDMA_UDP_QKEY, rdmaServiceId, SidrStatus } from '../wire/ib/cm.js';
import { addressToGid } from '../wire/ib/gid-address.js';
import { ibv_qp_attr_mask, ibv_qp_state, rdma_cm_event_type, rdma_port_space } from './constants.js';
import { type Context, onRawAsyncEvent, queryDevice } from './device.js';
import { EINVAL, ENETDOWN, errnoName, errnoString, setErrno } from './errno.js';
import {
  CMA_MRA_TIMEOUT,
  cmaPrivateData,
  gidIndex,
  IBOE_HOP_LIMIT,
  IBOE_PACKET_LIFETIME,
  IBOE_PATH_MTU,
  ibAhAttr,
  gidTable,
  ibQpRun,
  randomPsn,
  REQ_USER_PD,
  RoceCm,
  SIDR_REQ_USER_PD,
} from './rdma_cm_ib.js';
import { rcActivePlan, rcPassivePlan } from '../ibcm/qp-plan.js';
import { qpConnected } from './ibv_qp_state.js';
import { ibv_modify_qp } from './ibverbs.js';
import type { ibv_device_attr, In, rdma_conn_param } from './types.js';
import { familyOf, postConnectRequest, stripV6 } from './rdma_cm_addr.js';
import { pdOf } from './rdma_cm_conn.js';
import { CmId, ECONNABORTED, ECONNREFUSED, ETIMEDOUT, bindDevice, emptyParam, failRdma, log } from './rdma_cm_id.js';

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
export function onIbRequest(listen: CmId, roce: RoceCm, ev: IbCmListenEvent, addrs: { src: string; dst: string; srcPort: number }): void {
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
      const r = i.qp ? ibQpRun(i.qp, rcActivePlan(s.req!, rep, { gids: gidTable(i.verbs!), timeout: i.ackTimeout })) : EINVAL;
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
      if (i.qp) qpConnected(i.qp);
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
      if (i.qp) qpConnected(i.qp);
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
      // The local port's QP1 failed ('port': its UDP endpoint could not be bound or was lost):
      // UNREACHABLE with -ENETDOWN, so that the program sees its own side is down, not the peer.
      i.post(
        e.message === 'decision' ? T.RDMA_CM_EVENT_CONNECT_ERROR : T.RDMA_CM_EVENT_UNREACHABLE,
        e.message === 'port' ? -ENETDOWN : -ETIMEDOUT,
      );
      ibSettle(i, -1, e.message === 'port' ? ENETDOWN : ETIMEDOUT);
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
export async function ibConnect(i: CmId, param: In<rdma_conn_param> | null): Promise<number> {
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
    if (typeof pd === 'number')
      return failRdma(EINVAL, `rdma_connect: at most ${SIDR_REQ_USER_PD} octets of private data on RDMA_PS_UDP (EINVAL)`);
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
export async function ibAccept(i: CmId, param: In<rdma_conn_param> | null): Promise<number> {
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
  if ((user?.length ?? 0) > CM_PRIVATE_DATA_SIZE.REP)
    return failRdma(EINVAL, `rdma_accept: at most ${CM_PRIVATE_DATA_SIZE.REP} octets of private data (EINVAL)`);
  const ctx = i.verbs!;
  const max = maxRdAtomic(ctx);
  const rr = depthOf(param?.responder_resources, max);
  const id = depthOf(param?.initiator_depth, max);
  if (rr < 0 || id < 0) return failRdma(EINVAL, `rdma_accept: responder_resources and initiator_depth must be at most ${max} (EINVAL)`);
  const psn = randomPsn();
  // The REP's values are what the QP takes (Linux cma_accept_ib: RTR and RTS before the REP).
  const rep = {
    qpn: i.qp.qp_num,
    startingPsn: psn,
    responderResources: rr,
    initiatorDepth: id,
    rnrRetryCount: Math.min(Math.max(param?.rnr_retry_count ?? 7, 0), 7),
    srq: i.qp.srq !== null,
    privateData: user ?? undefined,
  };
  const r = ibQpRun(i.qp, rcPassivePlan(req, rep, { gids: gidTable(ctx), timeout: i.ackTimeout }));
  if (r !== 0) return failRdma(r, `rdma_accept: the QP could not reach RTS with the REQ's values (${errnoName(r)})`);
  hookCommEst();
  try {
    conn.accept(rep);
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
export function ibReject(i: CmId, pd: Uint8Array): number {
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
export async function ibDisconnect(i: CmId): Promise<number> {
  const c = i.ib?.conn;
  if (!c) return failRdma(EINVAL);
  if (c.state !== 'ESTABLISHED' && c.state !== 'DREQ_RCVD' && c.state !== 'DREQ_SENT' && c.state !== 'TIMEWAIT') return failRdma(EINVAL);
  ibQpToErr(i);
  c.disconnect();
  if (!i.channel && !i.disconnected) await i.nextSync();
  return 0;
}

/** `rdma_destroy_id` of a RoCE id: what Linux `cm_destroy_id` sends (REJ, DREQ or DREP), the listener closed, the CM let go. */
export function ibDestroy(i: CmId): void {
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

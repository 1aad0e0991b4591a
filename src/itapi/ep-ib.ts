/**
 * An RC Endpoint's connection on the RoCE Interface: the InfiniBand CM path of `it_ep_connect`
 * and `it_ep_accept` (IBTA Vol. 1 ch. 12, in rdma_cm's format so that any rdma_cm peer
 * answers), the CM's events for the connection, Communication Established, and the teardown
 * (DREQ when established, else REJ). The Endpoint's states and Events are `ep.ts`'s; this module
 * drives them through the members `ep.ts` marks as shared with it.
 *
 * @module
 */
import type { IbCmConnection, IbCmEvent } from '../ibcm/cm.js';
import { cmaPrivateDataOf, ephemeralPort, type RdmaIpCm, randomPsn, roceSourceFor } from '../ibcm/rdma-ip.js';
import { RiRet } from '../rnicpi/status.js';
import { RiQpAttrMask, RiQpState } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import { CmRejReason, gidFromIpv4, RdmaPs, rdmaServiceId } from '../wire/ib/cm.js';
import { fail } from './objects.js';
import {
  IBOE_HOP_LIMIT,
  IBOE_PACKET_LIFETIME,
  IBOE_PATH_MTU,
  type IbItRequest,
  ibPathOf,
  ibQpInit,
  rejectCodeOf,
  roceAddresses,
  roceCm,
  roceGids,
} from './roce.js';
import { rcActivePlan, rcPassivePlan, runQpPlan } from '../ibcm/qp-plan.js';
import { it_status_t as S } from './status.js';
import { it_conn_reject_code_t as RJ, it_ep_state_rc_t as ST, it_event_type_t as ET, type it_path_t } from './types.js';
import type { Ep } from './ep.js';
import type { PendingRequest } from './listen.js';
import { pdataBuffer } from './ep-events.js';

const log = logger('itapi:ep');

/** An Endpoint's connection on the RoCE Interface. */
export interface IbEpConn {
  cm: RdmaIpCm;
  conn: IbCmConnection;
  /** Our Starting PSN (our RQ's first PSN). */
  psn: number;
  /** The IRD/ORD we asked for (active) or granted (passive). */
  ird: number;
  ord: number;
  sgid: Uint8Array;
  dgid: Uint8Array;
  /** Active: the connect in progress (`pending`). */
  ac: AbortController | null;
  /** Active: the path's timeout. */
  timer: NodeJS.Timeout | null;
  /** A hold on the port's CM is ours to release. */
  held: boolean;
}

/** What `ibConnect` takes besides the host and port. */
export interface IbConnectOptions {
  localAddress?: string;
  timeoutMs: number;
  pdata: Uint8Array;
}

/**
 * `it_ep_connect` on the RoCE Interface: UNCONNECTED → ACTIVE1, a REQ to `host`'s GID for
 * the RDMA_PS_TCP service of `port` with the `cma_hdr` in front of the private data (rdma_cm's
 * format, so any rdma_cm server answers); the REP moves the QP to RTR/RTS, the RTU goes out
 * and ESTABLISHED is queued. A REJ 28 is PEER_REJECT with its private data; other REJ reasons,
 * the CM's timeouts and the path's `timeout` are NONPEER_REJECT.
 */
export function ibConnect(ep: Ep, host: string, port: number, path: it_path_t, opts: IbConnectOptions): void {
  ep.state = ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING;
  ep.dstPath = path;
  ep.spigot = path.spigot_id;
  const ac = new AbortController();
  ep.pending = ac;
  const dev = ep.ia.device;
  const fails = (reason: RJ) => {
    if (ep.freed || ep.pending !== ac) return;
    ep.pending = null;
    ep.toNonoperational(ET.IT_CM_MSG_CONN_NONPEER_REJECT_EVENT, {
      reject_reason_code: reason,
      dst_path: reason === RJ.IT_CN_REJ_BAD_PATH ? path : null,
    });
  };
  const cm = roceCm(dev);
  if (typeof cm === 'number') {
    log('connect: the CM of %s cannot be opened: %s', dev.name, RiRet[cm]);
    queueMicrotask(() => fails(RJ.IT_CN_REJ_RESOURCES));
    return;
  }
  cm.hold();
  let held = true;
  const letGo = () => {
    if (held) cm.release();
    held = false;
  };
  void (async () => {
    const own = roceAddresses(dev);
    const src = opts.localAddress && own.includes(opts.localAddress) ? opts.localAddress : await roceSourceFor(own, host);
    if (ep.freed || ep.pending !== ac) {
      letGo();
      return;
    }
    if (!src) {
      letGo();
      fails(RJ.IT_CN_REJ_BAD_PATH);
      return;
    }
    const sgid = gidFromIpv4(src);
    const dgid = gidFromIpv4(host);
    const psn = randomPsn();
    const ird = ep.attr.rdma_read_ird;
    const ord = ep.attr.rdma_read_ord;
    let conn: IbCmConnection;
    try {
      conn = cm.cm.connect(
        {
          destGid: dgid,
          localGid: sgid,
          serviceId: rdmaServiceId(RdmaPs.TCP, port),
          qpn: ep.cmQp.id,
          startingPsn: psn,
          responderResources: ird,
          initiatorDepth: ord,
          retryCount: 7,
          rnrRetryCount: 7,
          pathMtu: IBOE_PATH_MTU,
          hopLimit: IBOE_HOP_LIMIT,
          packetLifeTime: IBOE_PACKET_LIFETIME,
          srq: ep.srq !== null,
          privateData: cmaPrivateDataOf({ address: src, port: ephemeralPort() }, host, opts.pdata),
        },
        (e) => ibOnEvent(ep, e),
      );
    } catch (e) {
      log('connect: %s', (e as Error).message);
      letGo();
      fails(RJ.IT_CN_REJ_RESOURCES);
      return;
    }
    const timer = setTimeout(() => {
      if (ep.ib?.conn === conn) fails(RJ.IT_CN_REJ_TIMEOUT);
    }, opts.timeoutMs);
    timer.unref();
    ep.ib = { cm, conn, psn, ird, ord, sgid, dgid, ac, timer, held };
    held = false;
  })();
}

/**
 * `it_ep_accept` of a RoCE request: the QP to RTR/RTS with the REQ's values (its QPN and
 * starting PSN, the path, its Local ACK Timeout and retry counts; IRD/ORD the smaller of ours
 * and the peer's), then the REP with our private data. ESTABLISHED follows on the RTU, or on
 * the first data (COMM_EST).
 */
export function ibAccept(ep: Ep, req: PendingRequest, cm: IbItRequest, pdata: Uint8Array): void {
  const info = { pdata: cm.privateData.slice(), ird: cm.peerIrd, ord: cm.peerOrd };
  if (cm.state !== 'pending') {
    req.consume();
    ep.accepted = info;
    ep.state = ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING;
    queueMicrotask(() => ep.connectionFailed(RJ.IT_CN_REJ_OTHER));
    return;
  }
  const r = cm.req;
  const dev = ep.ia.device;
  const psn = randomPsn();
  const ird = Math.min(ep.attr.rdma_read_ird, r.initiatorDepth);
  const ord = Math.min(ep.attr.rdma_read_ord, r.responderResources);
  const back = () => {
    // Back to Init with the Receives flushed, as the Endpoint was (the request stays open).
    ep.ia.ops.ri_qp_modify(ep.ia.rnic, ep.qp, RiQpAttrMask.NEXT_STATE, { state: RiQpState.IDLE });
    ibQpInit(ep.ia.ops, ep.ia.rnic, ep.qp, {
      read: ep.attr.rdma_read_enable,
      write: ep.attr.rdma_write_enable,
      atomic: ep.attr.atomics_enable,
    });
  };
  const rep = {
    qpn: ep.cmQp.id,
    startingPsn: psn,
    responderResources: ird,
    initiatorDepth: ord,
    rnrRetryCount: 7,
    srq: ep.srq !== null,
    privateData: pdata,
  };
  const st = runQpPlan(ep.ia.ops, ep.ia.rnic, ep.qp, rcPassivePlan(r, rep, { gids: roceGids(dev) }));
  if (st !== RiRet.SUCCESS) {
    back();
    fail(S.IT_ERR_INVALID_EP_ATTR, `the QP cannot take the request's path: ${RiRet[st]}`);
  }
  cm.take((e) => ibOnEvent(ep, e));
  try {
    cm.conn.accept(rep);
  } catch (e) {
    back();
    fail(S.IT_ERR_INVALID_EP_STATE, (e as Error).message);
  }
  cm.cm.hold();
  ep.ib = {
    cm: cm.cm,
    conn: cm.conn,
    psn,
    ird,
    ord,
    sgid: r.primary.remoteGid,
    dgid: r.primary.localGid,
    ac: null,
    timer: null,
    held: true,
  };
  req.consume();
  ep.accepted = info;
  ep.state = ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING;
  ep.spigot = 0;
  ep.dstPath = ibPathOf(cm.localAddress, cm.remoteAddress, 0n);
}

/** The IB CM's events for this Endpoint's connection. */
function ibOnEvent(ep: Ep, e: IbCmEvent): void {
  const ib = ep.ib;
  if (ep.freed || !ib) return;
  switch (e.type) {
    case 'rep': {
      if (ep.state !== ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING || ep.pending !== ib.ac) {
        ib.conn.destroy();
        return;
      }
      const rep = e.rep;
      const st = runQpPlan(ep.ia.ops, ep.ia.rnic, ep.qp, rcActivePlan(ib.conn.req!, rep, { gids: roceGids(ep.ia.device) }));
      if (st !== RiRet.SUCCESS) {
        log('REP: the QP cannot reach RTS (%s): REJ', RiRet[st]);
        ib.conn.reject();
        ep.pending = null;
        ep.toNonoperational(ET.IT_CM_MSG_CONN_NONPEER_REJECT_EVENT, { reject_reason_code: RJ.IT_CN_REJ_BAD_CONN_PARMS });
        return;
      }
      ib.conn.ready();
      if (ib.timer) clearTimeout(ib.timer);
      ep.pending = null;
      ep.established({
        private_data: pdataBuffer(rep.privateData),
        private_data_present: rep.privateData.length > 0,
        rdma_read_ird: rep.responderResources,
        rdma_read_ord: rep.initiatorDepth,
      });
      return;
    }
    case 'established': {
      if (ep.state !== ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING) return;
      const a = ep.accepted;
      ep.established(
        a
          ? { private_data: pdataBuffer(a.pdata), private_data_present: a.pdata.length > 0, rdma_read_ird: a.ird, rdma_read_ord: a.ord }
          : {},
      );
      return;
    }
    case 'rejected': {
      if (ep.state === ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING && ep.pending === ib.ac) {
        ep.pending = null;
        if (e.reason === CmRejReason.CONSUMER_DEFINED) {
          ep.toNonoperational(ET.IT_CM_MSG_CONN_PEER_REJECT_EVENT, {
            private_data: pdataBuffer(e.privateData),
            private_data_present: e.privateData.length > 0,
          });
          return;
        }
        const code = rejectCodeOf(e.reason);
        log('connect: REJ reason %d', e.reason);
        ep.toNonoperational(ET.IT_CM_MSG_CONN_NONPEER_REJECT_EVENT, {
          reject_reason_code: code,
          dst_path: code === RJ.IT_CN_REJ_BAD_PATH ? ep.dstPath : null,
        });
        return;
      }
      ep.connectionFailed(rejectCodeOf(e.reason));
      return;
    }
    case 'timeout':
      if (ep.state === ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING) ep.pending = null;
      // The local port's QP1 failed ('port'): not the peer's silence, so not a timeout.
      ep.connectionFailed(e.message === 'port' ? RJ.IT_CN_REJ_OTHER : RJ.IT_CN_REJ_TIMEOUT);
      return;
    case 'dreq':
      ib.conn.disconnect();
      if (ep.state === ST.IT_EP_STATE_CONNECTED) ep.toNonoperational(ET.IT_CM_MSG_CONN_DISCONNECT_EVENT, {}, 'close');
      else ep.connectionFailed();
      return;
    default:
      return;
  }
}

/** IB: the first data arrived before the RTU; the CM is told (it reports ESTABLISHED). */
export function ibCommEst(ep: Ep): void {
  const c = ep.ib?.conn;
  if (c && (c.state === 'REP_SENT' || c.state === 'MRA_REP_RCVD')) c.establish();
}

/** IB: the connection ends with the Endpoint's: DREQ when established, else REJ (Linux `cm_destroy_id`). */
export function ibTeardown(ep: Ep): void {
  const ib = ep.ib;
  if (!ib) return;
  if (ib.timer) clearTimeout(ib.timer);
  ib.timer = null;
  const c = ib.conn;
  try {
    if (c.state === 'ESTABLISHED' || c.state === 'DREQ_RCVD') c.disconnect();
    else if (c.state !== 'DREQ_SENT' && c.state !== 'TIMEWAIT' && c.state !== 'IDLE') c.destroy();
  } catch (e) {
    log('CM teardown: %s', (e as Error).message);
  }
}

/** IB: lets go of the connection and the port's CM (free, reset). */
export function ibRelease(ep: Ep): void {
  const ib = ep.ib;
  if (!ib) return;
  ibTeardown(ep);
  if (ib.held) ib.cm.release();
  ib.held = false;
  ep.ib = null;
}

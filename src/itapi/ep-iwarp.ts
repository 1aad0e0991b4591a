/**
 * An RC Endpoint's connection on an iWARP Interface: `it_ep_connect` (TCP, then the MPA Request
 * with the RFC 6581 IRD/ORD word), `it_ep_accept` (the MPA Reply) and `it_socket_convert` (an
 * established TCP stream taken over, with or without the MPA exchange), through the iWARP
 * connection manager (`src/iwarp/cm.ts`). The Endpoint's states and Events are `ep.ts`'s; this
 * module drives them through the members `ep.ts` marks as shared with it.
 *
 * @module
 */
import type { Socket } from 'node:net';
import {
  ACTIVE_SETTLE_MS,
  type CmConnection,
  type CmConnectParams,
  type CmConnectRequest,
  CmError,
  cmConnect,
  type CmConvertOptions,
  cmConvertSocket,
} from '../iwarp/cm.js';
import { logger } from '../util/log.js';
import { fail } from './objects.js';
import { it_status_t as S } from './status.js';
import { it_conn_reject_code_t as RJ, it_ep_state_rc_t as ST, it_event_type_t as ET, type it_path_t } from './types.js';
import type { Ep } from './ep.js';
import type { PendingRequest } from './listen.js';
import { pathTo, pdataBuffer, rejectReason } from './ep-events.js';

const log = logger('itapi:ep');

/** What `iwConnect` takes besides the host, port and Path. */
export interface IwConnectOptions {
  localAddress?: string;
  localPort?: number;
  timeoutMs: number;
  pdata: Uint8Array;
  suppress: boolean;
}

/** `it_ep_connect` after validation: UNCONNECTED → ACTIVE1, TCP + MPA Request. */
export function iwConnect(ep: Ep, host: string, port: number, path: it_path_t, opts: IwConnectOptions): void {
  ep.state = ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING;
  ep.dstPath = path;
  ep.spigot = path.spigot_id;
  const ac = new AbortController();
  ep.pending = ac;
  const params: CmConnectParams = {
    timeoutMs: opts.timeoutMs,
    privateData: opts.pdata,
    ird: ep.attr.rdma_read_ird,
    ord: ep.attr.rdma_read_ord,
    revision: opts.suppress ? 1 : 2,
    signal: ac.signal,
    // The ESTABLISHED event waits a moment after the Reply, for Linux siw peers.
    settleMs: ACTIVE_SETTLE_MS,
  };
  if (opts.localAddress) params.localAddress = opts.localAddress;
  if (opts.localPort) params.localPort = opts.localPort;
  cmConnect(ep.cmQp, host, port, params).then(
    (conn) => {
      if (ep.freed || ep.pending !== ac || ep.state !== ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING) {
        conn.disconnect('abortive');
        return;
      }
      ep.pending = null;
      ep.conn = conn;
      const ag = conn.agreement;
      ep.established({
        private_data: pdataBuffer(conn.peerPrivateData),
        private_data_present: conn.peerPrivateData.length > 0,
        rdma_read_ird: ag?.peerIrd ?? 0,
        rdma_read_ord: ag?.peerOrd ?? 0,
      });
    },
    (err: unknown) => {
      if (ep.freed || ep.pending !== ac) return;
      ep.pending = null;
      if (err instanceof CmError && err.kind === 'rejected') {
        const pd = err.privateData ?? new Uint8Array(0);
        ep.toNonoperational(ET.IT_CM_MSG_CONN_PEER_REJECT_EVENT, { private_data: pdataBuffer(pd), private_data_present: pd.length > 0 });
        return;
      }
      const reason = rejectReason(err);
      log('connect failed: %s', (err as Error).message);
      ep.toNonoperational(ET.IT_CM_MSG_CONN_NONPEER_REJECT_EVENT, {
        reject_reason_code: reason,
        dst_path: reason === RJ.IT_CN_REJ_BAD_PATH ? path : null,
      });
    },
  );
}

/** `it_ep_accept` of an iWARP request (MPA Reply), after validation. Throws the immediate error. */
export function iwAccept(ep: Ep, req: PendingRequest, cm: CmConnectRequest, pdata: Uint8Array): void {
  const info = { pdata: cm.privateData.slice(), ird: cm.peerIrd ?? 0, ord: cm.peerOrd ?? 0 };
  if (cm.state === 'pending') {
    let conn: CmConnection;
    try {
      conn = cm.accept(ep.cmQp, { ird: ep.attr.rdma_read_ird, ord: ep.attr.rdma_read_ord, privateData: pdata });
    } catch (e) {
      const k = e instanceof CmError ? e.kind : 'invalid';
      log('accept refused: %s', (e as Error).message);
      if (k === 'qp') fail(S.IT_ERR_INVALID_EP_STATE, (e as Error).message);
      fail(S.IT_ERR_INVALID_EP_ATTR, (e as Error).message);
    }
    req.consume();
    ep.conn = conn;
    ep.accepted = info;
    ep.state = ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING;
    ep.spigot = 0;
    ep.dstPath = pathTo(cm.localAddress, cm.remoteAddress);
    return;
  }
  // The Initiator went away before the accept: the EP still starts establishment, which
  // then fails (cn_est_ids are destroyed only by the Consumer).
  req.consume();
  ep.accepted = info;
  ep.state = ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING;
  queueMicrotask(() => ep.connectionFailed(RJ.IT_CN_REJ_OTHER));
}

/**
 * `it_socket_convert` after validation. `msg` non-empty = Conversion Initiator (MPA
 * Responder, passive states); null = Conversion Responder (MPA Initiator, active states).
 */
export function iwConvert(ep: Ep, sd: Socket, msg: Uint8Array | null, noReqRep: boolean): void {
  ep.converted = true;
  const initiator = msg !== null && msg.length > 0;
  const ac = new AbortController();
  ep.pending = ac;
  ep.dstPath = pathTo(sd.localAddress ?? '', sd.remoteAddress ?? '');
  ep.state = initiator
    ? noReqRep
      ? ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING
      : ST.IT_EP_STATE_PASSIVE_WAIT_RDMA_TRANS_REQ
    : ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING;
  const opts: CmConvertOptions = noReqRep ? { mpa: false } : { mpa: { revision: 1, timeoutMs: 0, signal: ac.signal } };
  if (initiator) opts.lastStreamingMessage = msg;
  cmConvertSocket(ep.cmQp, sd, opts).then(
    (conn) => {
      if (ep.freed || ep.pending !== ac) {
        conn.disconnect('abortive');
        return;
      }
      ep.pending = null;
      ep.conn = conn;
      if (initiator) {
        // The MPA Request arrived and was answered: wait for the first iWARP payload.
        if (ep.state === ST.IT_EP_STATE_PASSIVE_WAIT_RDMA_TRANS_REQ) ep.state = ST.IT_EP_STATE_PASSIVE_CONNECTION_PENDING;
        ep.accepted = { pdata: new Uint8Array(0), ird: 0, ord: 0 };
      } else if (ep.state === ST.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING) {
        ep.established({});
      }
    },
    (err: unknown) => {
      if (ep.freed || ep.pending !== ac) return;
      ep.pending = null;
      log('conversion failed: %s', (err as Error).message);
      // A failed Conversion (error, LLP close, unrecognised MPA) is BAD_CONN_PARMS (§2.4).
      ep.connectionFailed(RJ.IT_CN_REJ_BAD_CONN_PARMS);
    },
  );
}

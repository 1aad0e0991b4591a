/**
 * Connections (manual §5.1: `rdma_create_qp`, `rdma_destroy_qp`, `rdma_connect`, `rdma_accept`,
 * `rdma_reject`, `rdma_notify`, `rdma_disconnect`) over the iWARP connection manager
 * (`src/iwarp/cm.ts`, MPA start-up); on a RoCE id each call takes the IB CM path of
 * `rdma_cm_roce.ts`. The errno of an unreachable peer is the socket's, as librdmacm's UNREACHABLE
 * event reports it.
 *
 * @module
 */
import {
  ACTIVE_SETTLE_MS,
  cmConnect,
  PASSIVE_SETTLE_MS,
  type CmConnection,
  type CmConnectRequest,
  CmError,
  type CmQp,
} from '../iwarp/cm.js';
import { RiQpState } from '../rnicpi/types.js';
import { RDMA_UDP_QKEY } from '../wire/ib/cm.js';
import {
  ibv_access_flags,
  ibv_qp_attr_mask,
  ibv_qp_state,
  ibv_qp_type,
  RDMA_MAX_INIT_DEPTH,
  RDMA_MAX_RESP_RES,
  rdma_cm_event_type,
  rdma_port_space,
} from './constants.js';
import { EADDRINUSE, EADDRNOTAVAIL, EINVAL, EHOSTUNREACH, ENETUNREACH, EOPNOTSUPP, setErrno } from './errno.js';
import { ibCmQpInit, ibQpRun, isIbContext } from './rdma_cm_ib.js';
import { udPlan } from '../ibcm/qp-plan.js';
import {
  ibv_create_comp_channel,
  ibv_create_cq,
  ibv_create_qp,
  ibv_destroy_comp_channel,
  ibv_destroy_cq,
  ibv_destroy_qp,
  ibv_modify_qp,
  type Qp,
} from './ibverbs.js';
import type {
  ibv_comp_channel,
  ibv_cq,
  ibv_pd,
  ibv_qp,
  ibv_qp_init_attr,
  ibv_srq,
  In,
  rdma_cm_event,
  rdma_cm_id,
  rdma_conn_param,
} from './types.js';
import { envParams, stripV6 } from './rdma_cm_addr.js';
import { CmId, ECONNREFUSED, ECONNRESET, ETIMEDOUT, cmQpOf, defaultPd, emptyParam, failRdma, idOk, log } from './rdma_cm_id.js';
import { leaveAll } from './rdma_cm_mcast.js';
import { ibAccept, ibConnect, ibDisconnect, ibReject } from './rdma_cm_roce.js';

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
  const r = cmQpInit(ctx, qp, attr.qp_type ?? ibv_qp_type.IBV_QPT_RC);
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

/** rdma_cm's first move of an id's new QP, by the id's transport (0 or an errno). */
function cmQpInit(ctx: NonNullable<CmId['verbs']>, qp: ibv_qp, qpType: ibv_qp_type): number {
  const M = ibv_qp_attr_mask;
  let r: number;
  if (isIbContext(ctx) && qpType === ibv_qp_type.IBV_QPT_UD) {
    // A UD QP goes straight to RTS with rdma_cm's Q_Key (Linux cma_init_ud_qp; RDMA_UDP_QKEY).
    r = ibQpRun(qp as Qp, udPlan(RDMA_UDP_QKEY));
  } else if (isIbContext(ctx)) {
    // rdma_cm's INIT on RoCE: remote atomics too (Linux grants them with responder resources, cm_init_qp_init_attr).
    r = ibCmQpInit(qp as Qp);
  } else {
    // rdma_cm's INIT (Linux cma_iw_init_qp_attr): local write, remote read and write.
    const access =
      ibv_access_flags.IBV_ACCESS_LOCAL_WRITE | ibv_access_flags.IBV_ACCESS_REMOTE_READ | ibv_access_flags.IBV_ACCESS_REMOTE_WRITE;
    r = ibv_modify_qp(
      qp,
      { qp_state: ibv_qp_state.IBV_QPS_INIT, pkey_index: 0, port_num: 1, qp_access_flags: access },
      M.IBV_QP_STATE | M.IBV_QP_PKEY_INDEX | M.IBV_QP_PORT | M.IBV_QP_ACCESS_FLAGS,
    );
  }
  return r;
}

/**
 * Attaches to an id a QP the program created itself with `ibv_create_qp` (a C program under
 * `softrdma exec`, whose QPs the daemon makes through the verbs face): the same first move as
 * `rdma_create_qp` (INIT; RTS for a UD QP on RoCE), then `id.qp` and its CQs are the QP's. The
 * QP stays the caller's: {@link rdmaDetachQp} undoes this without destroying it. 0, or -1 with
 * errno (EINVAL: no device yet, a QP already there, or a QP of another device).
 */
export function rdmaAttachQp(id: rdma_cm_id, qp: ibv_qp): number {
  const i = id as CmId;
  if (!idOk(i) || !i.verbs || i.qp || (qp.context as { device?: unknown }).device !== i.verbs.device) return failRdma(EINVAL);
  const r = cmQpInit(i.verbs, qp, qp.qp_type);
  if (r !== 0) return failRdma(r);
  i.qp = qp as Qp;
  i.send_cq = qp.send_cq;
  i.recv_cq = qp.recv_cq;
  i.pd = qp.pd;
  return 0;
}

/** Takes an attached QP off its id (multicast groups left), leaving it to its owner. */
export function rdmaDetachQp(id: rdma_cm_id): void {
  const i = id as CmId;
  if (!(i instanceof CmId) || !i.qp) return;
  leaveAll(i);
  i.qp = null;
  i.send_cq = i.recv_cq = null;
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
        return {
          type: rdma_cm_event_type.RDMA_CM_EVENT_UNREACHABLE,
          status: -(UNREACHABLE_ERRNO[e.socketCode ?? ''] ?? ETIMEDOUT),
          pd: null,
        };
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

export function pdOf(param: In<rdma_conn_param> | null): Uint8Array | null | number {
  const pd = param?.private_data ?? null;
  if (!pd) return null;
  const len = param?.private_data_len ?? pd.length;
  if (!Number.isInteger(len) || len < 0 || len > pd.length) return EINVAL;
  return pd.subarray(0, len);
}

/** The id's QP as the iWARP CM drives it, its attributes and the private data of `param`; null when either is not usable. */
function cmQpSetup(
  qp: Qp,
  param: In<rdma_conn_param> | null,
): { eqp: CmQp; q: NonNullable<ReturnType<CmQp['query']>>; pd: Uint8Array | null } | null {
  const eqp = cmQpOf(qp);
  const q = eqp.query();
  const pd = pdOf(param);
  if (!q || typeof pd === 'number') return null;
  return { eqp, q, pd };
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
  const setup = cmQpSetup(i.qp, param);
  if (!setup) return failRdma(EINVAL);
  const { eqp, q, pd } = setup;
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
  const run = cmConnect(eqp, dst.address, dst.port, {
    settleMs: ACTIVE_SETTLE_MS,
    ...env,
    privateData: pd ?? undefined,
    ird,
    ord,
    signal: abort.signal,
  }).then(
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
function acceptDepth(
  req: CmConnectRequest,
  param: In<rdma_conn_param> | null,
  q: { ird: number; ord: number },
  lim: { maxIrdPerQp: number; maxOrdPerQp: number },
): { ird: number; ord: number } | null {
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
  const setup = cmQpSetup(i.qp, param);
  if (!setup) return failRdma(EINVAL);
  const { eqp, q, pd } = setup;
  const depth = acceptDepth(i.req, param, q, eqp.caps());
  if (!depth) return failRdma(EINVAL, 'rdma_accept: responder_resources/initiator_depth above the device limits (EINVAL)');
  let conn: CmConnection;
  try {
    conn = i.req.accept(eqp, {
      ird: depth.ird,
      ord: depth.ord,
      privateData: pd ?? undefined,
      // As Linux siw: the passive side may send first when no RTR was agreed, after a short
      // hold that a siw Initiator needs (PASSIVE_SETTLE_MS).
      awaitFirstRx: false,
      firstTxHoldMs: PASSIVE_SETTLE_MS,
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

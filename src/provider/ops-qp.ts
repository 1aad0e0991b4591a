/**
 * Queue pairs (RNICPI 1.0 Ch. 7: `ri_qp_create`, `ri_special_qp_get`, `ri_qp_query`,
 * `ri_qp_modify`, `ri_qp_destroy`): the attributes valid at create, the attribute set a query
 * reports, and the one state read the faces make per posted work request ({@link riQpState}).
 * Decoding a Modify QP is `qp-modify.ts` (iWARP) and `ib.ts` (InfiniBand); the state machine is
 * the core's (`src/rnic/qp.ts`).
 *
 * @module
 */
import type { Cq } from '../rnic/cq.js';
import { terminateOfFault } from '../iwarp/terminate-map.js';
import { buildTerminate, encodeTerminate } from '../wire/terminate.js';
import type { Qp } from '../rnic/qp.js';
import { checkMpaAttrs, type MpaAttrs, qpMpaAttrs, riMpa } from '../iwarp/llp-attrs.js';
import { decodeModifyIb, ibQpAttr, serviceOfRi } from './ib.js';
import type { ri_ops_t } from '../rnicpi/ops.js';
import { RiRet, type RiResult, riFail, riOk, riStatus } from '../rnicpi/status.js';
import {
  RI_TERMINATE_BUFFER_LEN,
  type RiQpState,
  RiSqpType,
  RiSvcType,
  type ri_iwarp_qp_attr_t,
  type ri_qp_attr_in_t,
  type ri_qp_attr_t,
  type ri_qp_handle_t,
  type ri_rnic_handle_t,
} from '../rnicpi/types.js';
import { type RiOp, type SoftrdmaRnicHandle, PdHandle, CqHandle, SrqHandle, QpHandle, objOf, rnicOf, own, XPORT } from './handles.js';
import { decodeModify } from './qp-modify.js';

/**
 * The RNICPI state of a QP (RNICPI §6.7 `ri_qp_state_t`): the one state read the faces make per
 * posted work request (RDMA Protocol Verbs: PostSQ and PostRQ accept work requests only in
 * certain QP states). For a QP of a live softrdma RNIC handle it reads the
 * engine's state without building the attribute set and allocates nothing; for any other
 * provider it asks `ri_qp_query`. Answers what `ri_qp_query` reports in `attrs.state`, and null
 * where `ri_qp_query` fails.
 */
export function riQpState(ops: ri_ops_t, rnic: unknown, qp: unknown): RiQpState | null {
  const r = rnicOf(rnic);
  if (r) {
    const h = own(r, qp, QpHandle);
    if (h) return h.qp.state;
  }
  const q = ops.ri_qp_query(rnic as ri_rnic_handle_t, qp as ri_qp_handle_t);
  return q.status === RiRet.SUCCESS ? q.attrs.state : null;
}

/** CQs in use by special QPs (QP1): RNICPI forbids sharing them with ordinary QPs (Ch. 7 ri_special_qp_get). */
const specialCqUsers = new WeakMap<Cq, number>();

/** A destroyed special QP no longer holds its CQs. */
export function releaseSpecialCqs(qp: Qp): void {
  if (!qp.special) return;
  for (const c of new Set([qp.scq, qp.rcq])) {
    const n = (specialCqUsers.get(c) ?? 0) - (qp.scq === qp.rcq ? 2 : 1);
    if (n > 0) specialCqUsers.set(c, n);
    else specialCqUsers.delete(c);
  }
}

/**
 * `ri_qp_create` and `ri_special_qp_get`: the attributes "valid in create", checked and given
 * to the core. A special QP (`special`) is QP1 of the port.
 */
function createQp(
  r: SoftrdmaRnicHandle,
  attrs: ri_qp_attr_in_t,
  vp_data: unknown,
  os_data: unknown,
  special: 'GSI' | undefined,
): RiResult<{ qp: ri_qp_handle_t; attrs: ri_qp_attr_t }> {
  if (!attrs || typeof attrs !== 'object') return riFail(RiRet.INVALID_PARAMETER);
  const isIb = r.engine.isIb;
  // The transport struct must be the RNIC's: IB attributes on an iWARP RNIC and the reverse
  // name a service the RNIC does not have.
  if (attrs.qp_xport && 'qp_ib' in attrs.qp_xport !== isIb) return riFail(RiRet.QP_INVALID_SERVICE_TYPE);
  let service: 'RC' | 'UC' | 'UD' | undefined;
  if (isIb) {
    const t = attrs.qp_xport && 'qp_ib' in attrs.qp_xport ? attrs.qp_xport.qp_ib?.trans_type : undefined;
    const sv = t === undefined ? 'RC' : serviceOfRi(t);
    if (!sv) return riFail(RiRet.QP_INVALID_SERVICE_TYPE);
    service = sv;
  }
  const iw: Partial<ri_iwarp_qp_attr_t> = attrs.qp_xport && 'qp_iwarp' in attrs.qp_xport ? (attrs.qp_xport.qp_iwarp ?? {}) : {};
  const useSrq = attrs.srq_valid === true;
  // Attributes required at create (Ch. 8 ri_qp_attr_t, "valid in create" for iWARP).
  const num = (x: unknown): x is number => typeof x === 'number';
  if (!attrs.scq || !attrs.rcq || !attrs.pd || !num(attrs.sq_size) || !num(attrs.sq_max_sges)) {
    return riFail(RiRet.INVALID_PARAMETER);
  }
  if (!useSrq && (!num(attrs.rq_size) || !num(attrs.rq_max_sges))) return riFail(RiRet.INVALID_PARAMETER);
  const scq = own(r, attrs.scq.scq_handle, CqHandle);
  const rcq = own(r, attrs.rcq.rcq_handle, CqHandle);
  if (!scq || !rcq) return riFail(RiRet.CQ_INVALID_HANDLE);
  // Special QPs may not share a CQ with ordinary QPs (RNICPI Ch. 7 ri_special_qp_get).
  for (const c of [scq.cq, rcq.cq]) {
    const sp = specialCqUsers.get(c) ?? 0;
    if (special ? c.users > sp : sp > 0) return riFail(RiRet.CQ_INVALID_HANDLE);
  }
  const pd = own(r, attrs.pd, PdHandle);
  if (!pd) return riFail(RiRet.PD_INVALID_HANDLE);
  let srq: SrqHandle | null = null;
  if (useSrq) {
    const s = attrs.srq;
    srq = s && 'srq_handle' in s ? own(r, s.srq_handle, SrqHandle) : null;
    if (!srq) return riFail(RiRet.SRQ_INVALID_HANDLE);
  }
  const stag0 = attrs.enable_stag0_fastreg === true;
  // STag0 / Fast-Register QPs are for privileged consumers only (Ch. 5.3.4).
  if (stag0 && !r.privileged) return riFail(RiRet.NO_PERMISSION);
  const m = iw.mpa_attributes;
  const mpa: MpaAttrs = {
    recvMarkers: false,
    xmitMarkers: false,
    crc: m?.crc_enabled ?? true,
    ddpRdmapVersion: m?.ddp_rdma_version ?? 1,
  };
  const mst = checkMpaAttrs(r.engine, mpa);
  if (mst !== RiRet.SUCCESS) return riFail(mst);
  const qp = r.engine.qpCreate({
    pd: pd.pd,
    scq: scq.cq,
    rcq: rcq.cq,
    srq: srq ? srq.srq : null,
    sqSize: attrs.sq_size,
    rqSize: useSrq ? 0 : (attrs.rq_size as number),
    sqMaxSges: attrs.sq_max_sges,
    sqMaxSgesRdmaw: attrs.sq_max_sges_rdmaw ?? attrs.sq_max_sges,
    rqMaxSges: useSrq ? 0 : (attrs.rq_max_sges as number),
    enableRdmaRead: attrs.enable_rdma_read === true,
    enableRdmaWrite: attrs.enable_rdma_write === true,
    ord: attrs.max_rdma_read_outgoing ?? 0,
    ird: attrs.max_rdma_read_incoming ?? 0,
    stag0Enabled: stag0,
    enableBind: iw.enable_bind === true,
    rqHiwat: useSrq ? (iw.rq_hiwat ?? 0) : 0,
    llpAttrs: mpa,
    osData: os_data,
    ...(service && { service }),
    ...(special && { special }),
  });
  if (typeof qp === 'number') return riFail(qp as Exclude<RiRet, RiRet.SUCCESS>);
  if (special) for (const c of new Set([qp.scq, qp.rcq])) specialCqUsers.set(c, (specialCqUsers.get(c) ?? 0) + (qp.scq === qp.rcq ? 2 : 1));
  const h = new QpHandle(r, qp, pd, vp_data, os_data);
  return riOk({ qp: h, attrs: qpAttrs(h) });
}

/**
 * A QP's wire error as Query QP and the QP's details report it (RNICPI §6.7): as its transport
 * recorded it, except that a record with no wire form (the loopback's, which carries the core's
 * fault itself) is shown as the Terminate iWARP would have sent for its fault.
 */
export function terminateShown(qp: Qp): { bytes: Uint8Array; codes: Readonly<Record<string, number>>; local: boolean } | null {
  const t = qp.terminate;
  if (!t) return null;
  if (t.bytes.length === 0 && t.fault !== undefined) {
    const te = terminateOfFault(t.fault);
    return { bytes: encodeTerminate(buildTerminate(te)), codes: { layer: te.layer, etype: te.etype, ecode: te.ecode }, local: t.local };
  }
  return { bytes: t.bytes, codes: t.codes ?? {}, local: t.local };
}

function qpAttrs(h: QpHandle): ri_qp_attr_t {
  const qp = h.qp;
  const term = new Uint8Array(RI_TERMINATE_BUFFER_LEN);
  let termLen = 0;
  const shown = terminateShown(qp);
  if (shown) {
    termLen = Math.min(shown.bytes.length, RI_TERMINATE_BUFFER_LEN);
    term.set(shown.bytes.subarray(0, termLen));
  }
  const iwarp: ri_iwarp_qp_attr_t = {
    enable_bind: qp.enableBind,
    terminate_buffer: term,
    terminate_msg_length: termLen,
    is_terminate_local: qp.terminate?.local ?? false,
    llp_stream_handle: qp.llpHandle ?? null,
    mpa_attributes: riMpa(qpMpaAttrs(qp)),
    stream_msg_buf: null,
    stream_msg_buf_length: 0,
    rq_hiwat: qp.rqHiwat,
    rq_armed: qp.rqArmed,
  };
  const srq = qp.srq;
  return {
    qp_id: qp.id,
    scq: { scq_os_data: qp.scq.osData },
    rcq: { rcq_os_data: qp.rcq.osData },
    srq: srq ? { srq_os_data: srq.osData } : null,
    pd: h.pdH,
    sq_size: qp.sqSize,
    // With an S-RQ the RQ depth and SGE limit do not exist (Verbs §10 Q4).
    rq_size: srq ? 0 : qp.rqSize,
    srq_valid: srq !== null,
    sq_max_sges: qp.sqMaxSges,
    sq_max_sges_rdmaw: qp.sqMaxSgesRdmaw,
    rq_max_sges: srq ? 0 : qp.rqMaxSges,
    state: qp.state,
    enable_rdma_read: qp.enableRdmaRead,
    enable_rdma_write: qp.enableRdmaWrite,
    max_rdma_read_outgoing: qp.ord,
    max_rdma_read_incoming: qp.ird,
    enable_stag0_fastreg: qp.stag0Enabled,
    qp_xport: qp.isIb ? { qp_ib: ibQpAttr(qp) } : { qp_iwarp: iwarp },
  };
}

export const ri_special_qp_get: RiOp<'ri_special_qp_get'> = (rnic, port, qp_type, attrs, vp_data, os_data) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (!r.engine.isIb) return XPORT;
  if (port !== 1) return riFail(RiRet.RNIC_INVALID_PORT);
  // RoCE has no subnet manager and so no QP0 (IBTA Annex A17.4.7: "QP0 … not used"); QP1
  // is the GSI. Its service type is UD (IBTA Vol. 1 §13.5.1), as the caller must say.
  if (qp_type !== RiSqpType.GSI) return riFail(RiRet.QP_INVALID_SPECIAL_TYPE);
  if (!attrs || typeof attrs !== 'object') return riFail(RiRet.INVALID_PARAMETER);
  const x = attrs.qp_xport;
  if (!x || !('qp_ib' in x) || x.qp_ib?.trans_type !== RiSvcType.UNRELIABLE_DATAGRAM) return riFail(RiRet.INVALID_PARAMETER);
  return createQp(r, attrs, vp_data, os_data, 'GSI');
};

export const ri_qp_create: RiOp<'ri_qp_create'> = (rnic, attrs, vp_data, os_data) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  return createQp(r, attrs, vp_data, os_data, undefined);
};

export const ri_qp_query: RiOp<'ri_qp_query'> = (rnic, qp) => {
  const h = objOf(rnic, qp, QpHandle, RiRet.QP_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  return riOk({ attrs: qpAttrs(h) });
};

export const ri_qp_modify: RiOp<'ri_qp_modify'> = (rnic, qp, qp_mask, attrs) => {
  const h = objOf(rnic, qp, QpHandle, RiRet.QP_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  const m = h.qp.isIb ? decodeModifyIb(h.qp, qp_mask, attrs) : decodeModify(qp_mask, attrs);
  if (typeof m === 'number') return riFail(m as Exclude<RiRet, RiRet.SUCCESS>);
  // MPA attributes are the iWARP transport's to validate (the core keeps them opaque).
  const mst = m.llpAttrs ? checkMpaAttrs(h.qp.rnic, m.llpAttrs as Partial<MpaAttrs>) : RiRet.SUCCESS;
  if (mst !== RiRet.SUCCESS) return riFail(mst);
  const st = h.qp.modify(m);
  if (st !== RiRet.SUCCESS) return riFail(st as Exclude<RiRet, RiRet.SUCCESS>);
  return riOk({ attrs: qpAttrs(h) });
};

export const ri_qp_destroy: RiOp<'ri_qp_destroy'> = (rnic, qp) => {
  const h = objOf(rnic, qp, QpHandle, RiRet.QP_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  const r = h.owner;
  const st = r.engine.qpDestroy(h.qp);
  if (st === RiRet.SUCCESS) {
    releaseSpecialCqs(h.qp);
    h.kill();
  }
  return riStatus(st);
};

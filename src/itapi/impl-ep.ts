/**
 * IT-API 2.1 over RNICPI: Endpoints (`it_ep_rc_create`, `it_ep_query`, `it_ep_modify`,
 * `it_ep_reset`, `it_ep_free`; IT-API 2.1 Ch. 6, the EP group); the Endpoint itself is `ep.ts`.
 *
 * @module
 */
import { RiRet } from '../rnicpi/status.js';
import type { ItApi } from './api.js';
import { Ep, type EpAttrs, epAttrsOf } from './ep.js';
import { Srq } from './srq.js';
import { check, fail, type Ia, Pz } from './objects.js';
import { UD_MAX_MESSAGE, UdEp } from './ud.js';
import { it_status_t as S } from './status.js';
import {
  IT_HARD_HI_WATERMARK_DISABLE,
  it_ep_param_mask_t as EPM,
  it_ep_rc_creation_flags_t as EPF,
  it_ep_state_rc_t as ST,
  it_transport_service_type_t as SVC,
  type it_ep_attributes_partial_t,
  type it_ep_attributes_t,
  type it_ep_param_partial_t,
  type it_rc_only_attributes_t,
} from './types.js';
import { MAX_RC_LEN, limits, isUint, checkMask, rcEp, epSevds, createEpQp } from './impl-common.js';

/** A hi watermark softrdma takes: none (0) or disabled. */
function hwm(v: number): boolean {
  return v === 0 || v === IT_HARD_HI_WATERMARK_DISABLE;
}

function checkEpAttrs(ia: Ia, a: it_ep_attributes_t, flags: number): { attr: EpAttrs; srq: Srq | null } {
  const l = limits(ia);
  if (!a || typeof a !== 'object' || !a.srv || !('rc' in a.srv)) fail(S.IT_ERR_INVALID_EP_ATTR, 'RC attributes (srv.rc) required');
  const rc: it_rc_only_attributes_t = a.srv.rc;
  if (!isUint(a.max_dto_payload_size) || a.max_dto_payload_size > MAX_RC_LEN) fail(S.IT_ERR_PAYLOAD_SIZE);
  if (!isUint(a.max_request_dtos) || a.max_request_dtos > l.max_wrs_qp) fail(S.IT_ERR_RESOURCE_REQ_DTO);
  if (!isUint(a.max_send_segments) || a.max_send_segments > l.max_sgl_send_recvqp) fail(S.IT_ERR_RESOURCE_SSEG);
  if (!isUint(rc.max_rdma_read_segments) || rc.max_rdma_read_segments > l.max_sgl_rdma_read) fail(S.IT_ERR_RESOURCE_RRSEG);
  if (!isUint(rc.max_rdma_write_segments) || rc.max_rdma_write_segments > l.max_sgl_rdma_write) fail(S.IT_ERR_RESOURCE_RWSEG);
  if (!isUint(rc.rdma_read_ird) || rc.rdma_read_ird > l.max_ird_per_qp) fail(S.IT_ERR_RESOURCE_IRD);
  if (!isUint(rc.rdma_read_ord) || rc.rdma_read_ord > l.max_ord_per_qp) fail(S.IT_ERR_RESOURCE_ORD);
  let srq: Srq | null = null;
  if (flags & EPF.IT_EP_SRQ) {
    srq = check(rc.srq, Srq, S.IT_ERR_INVALID_SRQ);
    if (srq.ia !== ia) fail(S.IT_ERR_INVALID_SRQ);
    // Neither watermark is supported by this IA: only "no watermark" is accepted.
    if (rc.soft_hi_watermark !== 0 && rc.soft_hi_watermark !== undefined) fail(S.IT_ERR_SOFT_HI_WATERMARK);
    if (rc.hard_hi_watermark !== undefined && !hwm(rc.hard_hi_watermark)) fail(S.IT_ERR_HARD_HI_WATERMARK);
  } else {
    if (!isUint(a.max_recv_dtos) || a.max_recv_dtos > l.max_wrs_qp) fail(S.IT_ERR_RESOURCE_RECV_DTO);
    if (!isUint(a.max_recv_segments) || a.max_recv_segments > l.max_sgl_send_recvqp) fail(S.IT_ERR_RESOURCE_RSEG);
  }
  if (a.priv_ops_enable && !ia.privileged) fail(S.IT_ERR_NO_PERMISSION, 'Privileged Mode Endpoints need a Privileged Consumer');
  const attr = epAttrsOf(a);
  if (srq) {
    attr.max_recv_dtos = 0;
    attr.max_recv_segments = 0;
  }
  attr.soft_hi_watermark = 0;
  attr.hard_hi_watermark = 0;
  return { attr, srq };
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** `it_ep_query` of either kind of Endpoint: the members they share, then the RC or UD ones. */
function epParams(ep: Ep | UdEp, mask: number): it_ep_param_partial_t {
  const all = (mask & EPM.IT_EP_PARAM_ALL) !== 0;
  const has = (b: number): boolean => all || (mask & b) !== 0;
  const rc = ep instanceof Ep ? ep : null;
  const out: Writable<it_ep_param_partial_t> = {};
  if (has(EPM.IT_EP_PARAM_IA)) out.ia = ep.ia;
  if (has(EPM.IT_EP_PARAM_SPIGOT)) out.spigot_id = ep.spigot;
  if (has(EPM.IT_EP_PARAM_STATE)) out.ep_state = rc ? { rc: rc.state } : { ud: (ep as UdEp).state };
  if (has(EPM.IT_EP_PARAM_SERV_TYPE)) out.service_type = rc ? SVC.IT_RC_SERVICE : SVC.IT_UD_SERVICE;
  if (rc && has(EPM.IT_EP_PARAM_PATH) && rc.dstPath) out.dst_path = rc.dstPath;
  if (has(EPM.IT_EP_PARAM_PZ)) out.pz = ep.pz;
  if (has(EPM.IT_EP_PARAM_REQ_SEVD)) out.request_sevd = ep.reqEvd;
  if (has(EPM.IT_EP_PARAM_RECV_SEVD)) out.recv_sevd = ep.recvEvd;
  const attr = rc ? rcEpAttrs(rc, has, out) : udEpAttrs(ep as UdEp, has);
  if (Object.keys(attr).length > 0) out.attr = attr;
  return out;
}

/** The attributes `it_ep_query` reports of a UD Endpoint. */
function udEpAttrs(ep: UdEp, has: (b: number) => boolean): it_ep_attributes_partial_t {
  const a = ep.attr;
  const attr: Writable<it_ep_attributes_partial_t> = {};
  if (has(EPM.IT_EP_PARAM_MAX_PAYLOAD)) attr.max_dto_payload_size = a.max_dto_payload_size;
  if (has(EPM.IT_EP_PARAM_MAX_REQ_DTO)) attr.max_request_dtos = a.max_request_dtos;
  if (has(EPM.IT_EP_PARAM_MAX_RECV_DTO)) attr.max_recv_dtos = a.max_recv_dtos;
  if (has(EPM.IT_EP_PARAM_MAX_SEND_SEG)) attr.max_send_segments = a.max_send_segments;
  if (has(EPM.IT_EP_PARAM_MAX_RECV_SEG)) attr.max_recv_segments = a.max_recv_segments;
  if (has(EPM.IT_EP_PARAM_PRIV_OPS_ENABLE)) attr.priv_ops_enable = false;
  if (has(EPM.IT_EP_PARAM_EP_ID) || has(EPM.IT_EP_PARAM_EP_KEY))
    attr.srv = { ud: { ep_info: { ud_ep_id: ep.qpn, ud_ep_key: a.ud_ep_key } } };
  return attr;
}

/** The Connect SEVD and the attributes `it_ep_query` reports of an RC Endpoint. */
function rcEpAttrs(ep: Ep, has: (b: number) => boolean, out: Writable<it_ep_param_partial_t>): it_ep_attributes_partial_t {
  if (has(EPM.IT_EP_PARAM_CONN_SEVD)) out.connect_sevd = ep.connEvd;
  const a = ep.attr;
  const { ird, ord } = ep.qpIrdOrd();
  const attr: Writable<it_ep_attributes_partial_t> = {};
  const rc: Partial<Writable<it_rc_only_attributes_t>> = {};
  if (has(EPM.IT_EP_PARAM_MAX_PAYLOAD)) attr.max_dto_payload_size = a.max_dto_payload_size;
  if (has(EPM.IT_EP_PARAM_MAX_REQ_DTO)) attr.max_request_dtos = a.max_request_dtos;
  if (has(EPM.IT_EP_PARAM_MAX_RECV_DTO)) attr.max_recv_dtos = ep.srq ? 0 : a.max_recv_dtos;
  if (has(EPM.IT_EP_PARAM_MAX_SEND_SEG)) attr.max_send_segments = a.max_send_segments;
  if (has(EPM.IT_EP_PARAM_MAX_RECV_SEG)) attr.max_recv_segments = ep.srq ? 0 : a.max_recv_segments;
  if (has(EPM.IT_EP_PARAM_PRIV_OPS_ENABLE)) attr.priv_ops_enable = a.priv_ops_enable;
  if (has(EPM.IT_EP_PARAM_RDMA_RD_ENABLE)) rc.rdma_read_enable = a.rdma_read_enable;
  if (has(EPM.IT_EP_PARAM_RDMA_WR_ENABLE)) rc.rdma_write_enable = a.rdma_write_enable;
  if (has(EPM.IT_EP_PARAM_MAX_RDMA_READ_SEG)) rc.max_rdma_read_segments = a.max_rdma_read_segments;
  if (has(EPM.IT_EP_PARAM_MAX_RDMA_WRITE_SEG)) rc.max_rdma_write_segments = a.max_rdma_write_segments;
  if (has(EPM.IT_EP_PARAM_MAX_IRD)) rc.rdma_read_ird = ird;
  if (has(EPM.IT_EP_PARAM_MAX_ORD)) rc.rdma_read_ord = ord;
  if (has(EPM.IT_EP_PARAM_SRQ)) rc.srq = ep.srq;
  if (has(EPM.IT_EP_PARAM_SOFT_HI_WATERMARK)) rc.soft_hi_watermark = 0;
  if (has(EPM.IT_EP_PARAM_HARD_HI_WATERMARK)) rc.hard_hi_watermark = 0;
  if (has(EPM.IT_EP_PARAM_ATOMICS_ENABLE)) rc.atomics_enable = a.atomics_enable;
  if (Object.keys(rc).length > 0) attr.srv = { rc };
  return attr;
}

const EP_MODIFIABLE =
  EPM.IT_EP_PARAM_MAX_PAYLOAD |
  EPM.IT_EP_PARAM_MAX_REQ_DTO |
  EPM.IT_EP_PARAM_MAX_RECV_DTO |
  EPM.IT_EP_PARAM_RDMA_RD_ENABLE |
  EPM.IT_EP_PARAM_RDMA_WR_ENABLE |
  EPM.IT_EP_PARAM_MAX_IRD |
  EPM.IT_EP_PARAM_MAX_ORD |
  EPM.IT_EP_PARAM_EP_KEY |
  EPM.IT_EP_PARAM_SOFT_HI_WATERMARK |
  EPM.IT_EP_PARAM_HARD_HI_WATERMARK |
  EPM.IT_EP_PARAM_ATOMICS_ENABLE;

/** The EP group of {@link ItApi}. */
export const itEp: Pick<ItApi, 'it_ep_free' | 'it_ep_modify' | 'it_ep_query' | 'it_ep_rc_create' | 'it_ep_reset'> = {
  it_ep_free(ep_handle) {
    if (ep_handle instanceof UdEp) {
      check(ep_handle, UdEp, S.IT_ERR_INVALID_EP).destroy();
      return;
    }
    const ep = rcEp(ep_handle);
    if (ep.narrowLinked > 0) fail(S.IT_ERR_EP_BUSY, 'a Narrow RMR is linked through the Endpoint');
    ep.destroy();
  },

  it_ep_modify(ep_handle, mask, ep_attr) {
    if (ep_handle instanceof UdEp) {
      const u = check(ep_handle, UdEp, S.IT_ERR_INVALID_EP);
      // A UD Endpoint: its key and its payload size.
      if (!isUint(mask) || Number(mask) === 0 || (mask & ~(EPM.IT_EP_PARAM_EP_KEY | EPM.IT_EP_PARAM_MAX_PAYLOAD)) !== 0)
        fail(S.IT_ERR_INVALID_MASK);
      const a = ep_attr ?? {};
      const key = a.srv && 'ud' in a.srv ? a.srv.ud.ep_info?.ud_ep_key : undefined;
      if (mask & EPM.IT_EP_PARAM_EP_KEY && (!isUint(key) || key > 0xffff_ffff || (key & 0x8000_0000) !== 0)) fail(S.IT_ERR_INVALID_EP_KEY);
      if (mask & EPM.IT_EP_PARAM_MAX_PAYLOAD && (!isUint(a.max_dto_payload_size) || a.max_dto_payload_size > UD_MAX_MESSAGE))
        fail(S.IT_ERR_PAYLOAD_SIZE);
      if (mask & EPM.IT_EP_PARAM_EP_KEY && u.setKey(key!) !== RiRet.SUCCESS) fail(S.IT_ERR_INVALID_EP_STATE);
      if (mask & EPM.IT_EP_PARAM_MAX_PAYLOAD) u.attr.max_dto_payload_size = a.max_dto_payload_size!;
      return;
    }
    const ep = rcEp(ep_handle);
    if (!isUint(mask) || Number(mask) === 0 || (mask & ~EP_MODIFIABLE) !== 0) fail(S.IT_ERR_INVALID_MASK);
    if (mask & EPM.IT_EP_PARAM_EP_KEY) fail(S.IT_ERR_INVALID_MASK, 'ud_ep_key is a UD attribute');
    const ia = ep.ia;
    const l = limits(ia);
    const a = ep_attr ?? {};
    const rc: Partial<it_rc_only_attributes_t> = a.srv && 'rc' in a.srv ? a.srv.rc : {};
    const st = ep.state;
    // ---- validate everything first (the call is atomic) ----
    if (mask & (EPM.IT_EP_PARAM_RDMA_RD_ENABLE | EPM.IT_EP_PARAM_RDMA_WR_ENABLE | EPM.IT_EP_PARAM_ATOMICS_ENABLE)) {
      // ep_rdma_enables_modifiable is FALSE: the enables are creation-only.
      fail(S.IT_ERR_INVALID_MASK, 'RDMA/atomics enables are fixed at creation on this IA');
    }
    if (mask & EPM.IT_EP_PARAM_MAX_PAYLOAD) {
      if (st !== ST.IT_EP_STATE_UNCONNECTED && st !== ST.IT_EP_STATE_NONOPERATIONAL) fail(S.IT_ERR_INVALID_EP_STATE);
      if (!isUint(a.max_dto_payload_size) || a.max_dto_payload_size > MAX_RC_LEN) fail(S.IT_ERR_PAYLOAD_SIZE);
    }
    if (mask & EPM.IT_EP_PARAM_MAX_IRD) {
      if (st !== ST.IT_EP_STATE_UNCONNECTED && st !== ST.IT_EP_STATE_ACTIVE2_CONNECTION_PENDING) fail(S.IT_ERR_INVALID_EP_STATE);
      if (!isUint(rc.rdma_read_ird) || rc.rdma_read_ird > l.max_ird_per_qp) fail(S.IT_ERR_RESOURCE_IRD);
    }
    if (mask & EPM.IT_EP_PARAM_MAX_ORD) {
      if (st !== ST.IT_EP_STATE_UNCONNECTED && st !== ST.IT_EP_STATE_ACTIVE2_CONNECTION_PENDING && st !== ST.IT_EP_STATE_CONNECTED) {
        fail(S.IT_ERR_INVALID_EP_STATE);
      }
      if (!isUint(rc.rdma_read_ord) || rc.rdma_read_ord > l.max_ord_per_qp) fail(S.IT_ERR_RESOURCE_ORD);
    }
    if (mask & EPM.IT_EP_PARAM_MAX_REQ_DTO) {
      if (!isUint(a.max_request_dtos) || a.max_request_dtos > l.max_wrs_qp || a.max_request_dtos < ep.sqOutstanding) {
        fail(S.IT_ERR_RESOURCE_REQ_DTO);
      }
    }
    if (mask & EPM.IT_EP_PARAM_MAX_RECV_DTO) {
      if (ep.srq) fail(S.IT_ERR_INVALID_RECV_DTO, 'the Endpoint uses an S-RQ');
      if (!isUint(a.max_recv_dtos) || a.max_recv_dtos > l.max_wrs_qp || a.max_recv_dtos < ep.rqOutstanding) {
        fail(S.IT_ERR_RESOURCE_RECV_DTO);
      }
    }
    if (mask & EPM.IT_EP_PARAM_SOFT_HI_WATERMARK && rc.soft_hi_watermark !== 0) fail(S.IT_ERR_SOFT_HI_WATERMARK);
    if (mask & EPM.IT_EP_PARAM_HARD_HI_WATERMARK && !hwm(rc.hard_hi_watermark ?? 0)) fail(S.IT_ERR_HARD_HI_WATERMARK);
    // ---- the RNIC part, all or nothing ----
    let qmask = 0;
    const qa: { sq_size?: number; rq_size?: number; max_rdma_read_outgoing?: number; max_rdma_read_incoming?: number } = {};
    if (mask & EPM.IT_EP_PARAM_MAX_REQ_DTO && a.max_request_dtos !== ep.attr.max_request_dtos) {
      qmask |= 1 << 1;
      qa.sq_size = Math.max(1, a.max_request_dtos!);
    }
    if (mask & EPM.IT_EP_PARAM_MAX_RECV_DTO && a.max_recv_dtos !== ep.attr.max_recv_dtos) {
      qmask |= 1 << 2;
      qa.rq_size = Math.max(1, a.max_recv_dtos!);
    }
    if (mask & EPM.IT_EP_PARAM_MAX_ORD) {
      qmask |= 1 << 3;
      qa.max_rdma_read_outgoing = rc.rdma_read_ord!;
    }
    if (mask & EPM.IT_EP_PARAM_MAX_IRD) {
      qmask |= 1 << 4;
      qa.max_rdma_read_incoming = rc.rdma_read_ird!;
    }
    if (qmask !== 0) {
      // CQ room for bigger work queues first, so that a refusal changes nothing.
      const growReq = qa.sq_size !== undefined ? Math.max(0, qa.sq_size - ep.cqReservation.req) : 0;
      const growRecv = qa.rq_size !== undefined ? Math.max(0, qa.rq_size - ep.cqReservation.recv) : 0;
      if (!ep.reqEvd.reserveCq(growReq)) fail(S.IT_ERR_RESOURCE_REQ_DTO);
      if (!ep.recvEvd.reserveCq(growRecv)) {
        ep.reqEvd.unreserveCq(growReq);
        fail(S.IT_ERR_RESOURCE_RECV_DTO);
      }
      const r = ia.ops.ri_qp_modify(ia.rnic, ep.qp, qmask, qa);
      if (r.status !== RiRet.SUCCESS) {
        ep.reqEvd.unreserveCq(growReq);
        ep.recvEvd.unreserveCq(growRecv);
        // The RNIC changes attributes only while the QP is Idle or RTS (RNICPI ri_qp_modify).
        if (r.status === RiRet.RNIC_WR_LIMIT_EXCEEDED || r.status === RiRet.QP_CANNOT_SHRINK) {
          fail(qmask & (1 << 2) ? S.IT_ERR_RESOURCE_RECV_DTO : S.IT_ERR_RESOURCE_REQ_DTO);
        }
        if (r.status === RiRet.RNIC_IRD_ORD_EXCEEDED) fail(qmask & (1 << 4) ? S.IT_ERR_RESOURCE_IRD : S.IT_ERR_RESOURCE_ORD);
        fail(S.IT_ERR_INVALID_EP_STATE, `ri_qp_modify: ${RiRet[r.status]}`);
      }
      ep.cqReservation.req += growReq;
      ep.cqReservation.recv += growRecv;
      if (qa.sq_size !== undefined) ep.attr.max_request_dtos = r.attrs.sq_size;
      if (qa.rq_size !== undefined) ep.attr.max_recv_dtos = r.attrs.rq_size;
      if (qa.max_rdma_read_outgoing !== undefined) ep.attr.rdma_read_ord = qa.max_rdma_read_outgoing;
      if (qa.max_rdma_read_incoming !== undefined) ep.attr.rdma_read_ird = qa.max_rdma_read_incoming;
    }
    if (mask & EPM.IT_EP_PARAM_MAX_PAYLOAD) ep.attr.max_dto_payload_size = a.max_dto_payload_size!;
  },

  it_ep_query(ep_handle, mask) {
    if (ep_handle instanceof UdEp) {
      const u = check(ep_handle, UdEp, S.IT_ERR_INVALID_EP);
      checkMask(mask, (1 << 28) - 1);
      return epParams(u, mask);
    }
    const ep = rcEp(ep_handle);
    checkMask(mask, (1 << 28) - 1);
    return epParams(ep, mask);
  },

  it_ep_rc_create(pz_handle, request_sevd_handle, recv_sevd_handle, connect_sevd_handle, flags, ep_attr) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    const ia = pz.ia;
    const { req, recv, conn } = epSevds(ia, request_sevd_handle, recv_sevd_handle, connect_sevd_handle, true);
    if (!isUint(flags) || (flags & ~(EPF.IT_EP_REUSEADDR | EPF.IT_EP_SRQ)) !== 0) fail(S.IT_ERR_INVALID_FLAGS);
    const { attr, srq } = checkEpAttrs(ia, ep_attr, flags);
    const ep = new Ep(ia, pz, req, recv, conn!, flags, srq, attr);
    const sq = Math.max(1, attr.max_request_dtos);
    const rq = srq ? srq.maxRecvDtos : Math.max(1, attr.max_recv_dtos);
    createEpQp(ep, req, recv, sq, rq, true);
    for (const e of [req, recv, conn!]) e.feeders++;
    req.eps.add(ep);
    recv.eps.add(ep);
    if (srq) srq.users++;
    ia.eps.add(ep);
    return ep;
  },

  it_ep_reset(ep_handle) {
    const ep = rcEp(ep_handle);
    if (ep.state !== ST.IT_EP_STATE_NONOPERATIONAL) fail(S.IT_ERR_INVALID_EP_STATE);
    if (ep.cannotReset) fail(S.IT_ERR_CANNOT_RESET, 'broken by a DTO SEVD overflow');
    if (!ep.reset()) fail(S.IT_ERR_CANNOT_RESET, 'the connection is still being torn down with RMRs linked');
  },
};

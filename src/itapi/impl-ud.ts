/**
 * IT-API 2.1 over RNICPI: the UD service (Address Handles, `it_ep_ud_create`, `it_post_sendto`,
 * `it_post_recvfrom`, `it_ud_service_*`; IT-API 2.1 Ch. 6, the UD group); the UD objects are
 * `ud.ts`.
 *
 * @module
 */
import { RiRet } from '../rnicpi/status.js';
import type { ItApi } from './api.js';
import { pdataBuffer } from './ep-events.js';
import { Ep } from './ep.js';
import { Evd, Sevd } from './evd.js';
import { check, fail, Pz } from './objects.js';
import {
  Ah,
  avOfPath,
  hostOfPath,
  sidrOfStatus,
  UD_GRH_LEN,
  UD_MAX_MESSAGE,
  UD_PDATA_REPLY,
  UD_PDATA_REQUEST,
  UdEp,
  UdSvcHandle,
  UdSvcRequest,
} from './ud.js';
import { roceCm } from './roce.js';
import { it_status_t as S } from './status.js';
import {
  it_addr_param_mask_t as ADM,
  it_ah_flags_t as AHF,
  it_conn_qual_type_t as CQ,
  it_dg_type_t as DG,
  it_dto_flags_t as DF,
  it_event_type_t as ET,
  it_ud_svc_req_param_mask_t as UDM,
  it_ud_svc_req_status_t as US,
} from './types.js';
import {
  limits,
  isIb,
  isUint,
  pdataOf,
  checkMask,
  pick,
  cookieOf,
  checkDtoFlags,
  RECV_FLAGS,
  sglOf,
  epSevds,
  createEpQp,
} from './impl-common.js';

/** A datagram Send: no fences (BARRIER_FENCE is illegal on any UD WR). */
const SENDTO_FLAGS = DF.IT_COMPLETION_FLAG | DF.IT_NOTIFY_FLAG | DF.IT_SOLICITED_WAIT_FLAG | DF.IT_COALESCE_WR_FLAG;

/** A UD Endpoint handle; an RC Endpoint is the wrong type (`IT_ERR_INVALID_EP_TYPE`). */
function udEp(h: unknown): UdEp {
  if (h instanceof Ep && !h.freed) {
    if (h.ia.disabled) fail(S.IT_ERR_IA_CATASTROPHE);
    fail(S.IT_ERR_INVALID_EP_TYPE, 'not a UD Endpoint');
  }
  return check(h, UdEp, S.IT_ERR_INVALID_EP);
}

/** The UD group of {@link ItApi}. */
export const itUd: Pick<
  ItApi,
  | 'it_address_handle_create'
  | 'it_address_handle_free'
  | 'it_address_handle_modify'
  | 'it_address_handle_query'
  | 'it_ep_ud_create'
  | 'it_post_recvfrom'
  | 'it_post_sendto'
  | 'it_ud_service_reply'
  | 'it_ud_service_request'
  | 'it_ud_service_request_handle_create'
  | 'it_ud_service_request_handle_free'
  | 'it_ud_service_request_handle_query'
> = {
  it_address_handle_create(pz_handle, destination_path, ah_flags) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    const ia = pz.ia;
    if (!isIb(ia)) fail(S.IT_ERR_OP_NOT_SUPPORTED, 'no UD service on an iWARP IA');
    if (!isUint(ah_flags) || (ah_flags & ~AHF.IT_AH_PATH_COMPLETE) !== 0) fail(S.IT_ERR_INVALID_FLAGS);
    if (!destination_path || typeof destination_path !== 'object') fail(S.IT_ERR_INVALID_SOURCE_PATH);
    if (destination_path.spigot_id !== 0) fail(S.IT_ERR_INVALID_SPIGOT);
    const av = avOfPath(ia, destination_path);
    if (!av) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'an IB path with a remote GID is needed');
    const r = ia.ops.ri_ah_create(ia.rnic, pz.pd, av, null, null);
    if (r.status !== RiRet.SUCCESS) fail(S.IT_ERR_RESOURCES, `ri_ah_create: ${RiRet[r.status]}`);
    const ah = new Ah(pz, r.ah, destination_path);
    ia.ahs.add(ah);
    return ah;
  },

  it_address_handle_free(addr_handle) {
    check(addr_handle, Ah, S.IT_ERR_INVALID_AH).destroy();
  },

  it_address_handle_modify(addr_handle, mask, params) {
    const ah = check(addr_handle, Ah, S.IT_ERR_INVALID_AH);
    if (mask !== ADM.IT_ADDR_PARAM_PATH) fail(S.IT_ERR_INVALID_MASK, 'only the path can change');
    const path = params?.path;
    if (!path || typeof path !== 'object') fail(S.IT_ERR_INVALID_SOURCE_PATH);
    if (path.spigot_id !== 0) fail(S.IT_ERR_INVALID_SPIGOT);
    const av = avOfPath(ah.ia, path);
    if (!av) fail(S.IT_ERR_INVALID_SOURCE_PATH);
    const st = ah.ia.ops.ri_ah_modify(ah.ia.rnic, ah.ah, av);
    if (st.status !== RiRet.SUCCESS) fail(S.IT_ERR_INVALID_SOURCE_PATH, `ri_ah_modify: ${RiRet[st.status]}`);
    ah.path = path;
  },

  it_address_handle_query(addr_handle, mask) {
    const ah = check(addr_handle, Ah, S.IT_ERR_INVALID_AH);
    checkMask(mask, ADM.IT_ADDR_PARAM_ALL | ADM.IT_ADDR_PARAM_IA | ADM.IT_ADDR_PARAM_PZ | ADM.IT_ADDR_PARAM_PATH);
    return pick(mask, { ia: ah.ia, pz: ah.pz, path: ah.path }, [
      [ADM.IT_ADDR_PARAM_IA, 'ia'],
      [ADM.IT_ADDR_PARAM_PZ, 'pz'],
      [ADM.IT_ADDR_PARAM_PATH, 'path'],
    ]);
  },

  it_ep_ud_create(pz_handle, request_sevd_handle, recv_sevd_handle, ep_attr, spigot_id) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    const ia = pz.ia;
    if (!isIb(ia)) fail(S.IT_ERR_OP_NOT_SUPPORTED, 'no UD service on an iWARP IA');
    const { req, recv } = epSevds(ia, request_sevd_handle, recv_sevd_handle, null, false);
    if (spigot_id !== 0) fail(S.IT_ERR_INVALID_SPIGOT);
    const l = limits(ia);
    const a = ep_attr;
    if (!a || typeof a !== 'object' || !a.srv || !('ud' in a.srv)) fail(S.IT_ERR_INVALID_EP_KEY, 'UD attributes (srv.ud) required');
    if (!isUint(a.max_dto_payload_size) || a.max_dto_payload_size > UD_MAX_MESSAGE)
      fail(S.IT_ERR_PAYLOAD_SIZE, `a UD message is at most ${UD_MAX_MESSAGE} octets`);
    if (!isUint(a.max_request_dtos) || a.max_request_dtos > l.max_wrs_qp) fail(S.IT_ERR_RESOURCE_REQ_DTO);
    if (!isUint(a.max_recv_dtos) || a.max_recv_dtos > l.max_wrs_qp) fail(S.IT_ERR_RESOURCE_RECV_DTO);
    if (!isUint(a.max_send_segments) || a.max_send_segments > l.max_sgl_send_recvqp) fail(S.IT_ERR_RESOURCE_SSEG);
    if (!isUint(a.max_recv_segments) || a.max_recv_segments > l.max_sgl_send_recvqp) fail(S.IT_ERR_RESOURCE_RSEG);
    if (a.priv_ops_enable) fail(S.IT_ERR_PRIV_OPS_UNAVAILABLE, 'no privileged operations on UD Endpoints');
    const key = a.srv.ud.ep_info?.ud_ep_key;
    if (!isUint(key) || key > 0xffff_ffff || (key & 0x8000_0000) !== 0)
      fail(S.IT_ERR_INVALID_EP_KEY, 'a Q_Key below 0x80000000 (the high bit is for privileged keys)');
    const ep = new UdEp(
      ia,
      pz,
      req,
      recv,
      {
        max_dto_payload_size: a.max_dto_payload_size,
        max_request_dtos: a.max_request_dtos,
        max_recv_dtos: a.max_recv_dtos,
        max_send_segments: a.max_send_segments,
        max_recv_segments: a.max_recv_segments,
        ud_ep_key: key,
      },
      spigot_id,
    );
    const sq = Math.max(1, a.max_request_dtos);
    const rq = Math.max(1, a.max_recv_dtos);
    createEpQp(ep, req, recv, sq, rq, false);
    req.feeders++;
    recv.feeders++;
    req.eps.add(ep);
    recv.eps.add(ep);
    ia.udEps.add(ep);
    return ep;
  },

  it_post_recvfrom(ep_handle, local_segments, cookie, dto_flags) {
    const ep = udEp(ep_handle);
    checkDtoFlags(dto_flags, RECV_FLAGS);
    if (!(dto_flags & DF.IT_COMPLETION_FLAG)) fail(S.IT_ERR_INVALID_DTO_FLAGS, 'Receives need IT_COMPLETION_FLAG');
    const sgl = sglOf({ ia: ep.ia }, local_segments, ep.attr.max_recv_segments, false);
    if (sgl.length === 0) fail(S.IT_ERR_INVALID_NUM_SEGMENTS, `a UD Receive needs at least one segment (${UD_GRH_LEN} octets for the GRH)`);
    ep.postRecvfrom(sgl, cookieOf(cookie), dto_flags);
  },

  it_post_sendto(ep_handle, local_segments, cookie, dto_flags, remote_ep_addr) {
    const ep = udEp(ep_handle);
    checkDtoFlags(dto_flags, SENDTO_FLAGS);
    const d = remote_ep_addr;
    if (!d || typeof d !== 'object' || d.type !== DG.IT_DG_TYPE_IB_UD || !d.addr?.ud)
      fail(S.IT_ERR_INVALID_AH, 'an IB UD destination is needed');
    const ah = check(d.addr.ud.addr, Ah, S.IT_ERR_INVALID_AH);
    // The AH must be of the Endpoint's PZ (IT-API §2.7; IBTA: the AH's PD is the QP's).
    if (ah.pz !== ep.pz || ah.path.spigot_id !== ep.spigot) fail(S.IT_ERR_INVALID_AH, 'the Address Handle belongs to another PZ or Spigot');
    const info = d.addr.ud.ep_info;
    if (!info || !isUint(info.ud_ep_id) || !isUint(info.ud_ep_key)) fail(S.IT_ERR_INVALID_AH, 'ep_info');
    const sgl = sglOf({ ia: ep.ia }, local_segments, ep.attr.max_send_segments, true);
    ep.postSendto(sgl, cookieOf(cookie), dto_flags, ah, info);
  },

  it_ud_service_reply(ud_svc_req_id, status, ep_info, private_data) {
    const id = ud_svc_req_id as unknown;
    if (!(id instanceof UdSvcRequest) || id.replied || !id.ia.udRequests.has(id)) fail(S.IT_ERR_INVALID_UD_SVC_REQ_ID);
    if (id.ia.disabled) fail(S.IT_ERR_IA_CATASTROPHE);
    if (status === US.IT_UD_REQ_REDIRECTED) fail(S.IT_ERR_INVALID_UD_STATUS, 'IT_UD_REQ_REDIRECTED is for implementations only');
    const sidr = sidrOfStatus(status);
    if (sidr === null) fail(S.IT_ERR_INVALID_UD_STATUS);
    const pd = pdataOf(private_data, UD_PDATA_REPLY);
    if (sidr === 0 && (!ep_info || !isUint(ep_info.ud_ep_id) || !isUint(ep_info.ud_ep_key)))
      fail(S.IT_ERR_INVALID_UD_STATUS, 'EP_INFO_VALID needs ep_info');
    id.ia.udRequests.delete(id);
    id.reply(sidr, ep_info, pd);
  },

  it_ud_service_request(ud_svc_handle) {
    const h = check(ud_svc_handle, UdSvcHandle, S.IT_ERR_INVALID_UD_SVC);
    h.request();
  },

  it_ud_service_request_handle_create(conn_qual, reply_evd, destination_path, private_data) {
    const e = check(reply_evd, Evd, S.IT_ERR_INVALID_CONN_EVD);
    if (!(e instanceof Sevd) || e.stream !== ET.IT_CM_MSG_EVENT_STREAM) fail(S.IT_ERR_INVALID_EVD_TYPE, 'the reply SEVD is a CM_MSG one');
    const ia = e.ia;
    if (!isIb(ia)) fail(S.IT_ERR_OP_NOT_SUPPORTED, 'no UD service on an iWARP IA');
    const pd = pdataOf(private_data, UD_PDATA_REQUEST);
    if (!conn_qual || typeof conn_qual !== 'object' || conn_qual.type !== CQ.IT_IANA_PORT)
      fail(S.IT_ERR_INVALID_CONN_QUAL, 'UD services are on IANA ports (rdma_cm service IDs)');
    const port = conn_qual.conn_qual.port;
    if (!isUint(port) || port === 0 || port > 0xffff) fail(S.IT_ERR_INVALID_CONN_QUAL);
    if (!destination_path || typeof destination_path !== 'object') fail(S.IT_ERR_INVALID_SOURCE_PATH);
    if (destination_path.spigot_id !== 0) fail(S.IT_ERR_INVALID_SPIGOT);
    const where = hostOfPath(destination_path);
    if (!where) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'an IB path to an IPv4-mapped GID is needed');
    const cm = roceCm(ia.device);
    if (typeof cm === 'number') fail(S.IT_ERR_RESOURCES, `the CM (QP1) cannot be opened: ${RiRet[cm]}`);
    const h = new UdSvcHandle(ia, cm, e, conn_qual, destination_path, pd.slice(), where.host, where.local);
    e.feeders++;
    ia.udSvcs.add(h);
    return h;
  },

  it_ud_service_request_handle_free(ud_svc_handle) {
    check(ud_svc_handle, UdSvcHandle, S.IT_ERR_INVALID_UD_SVC).destroy();
  },

  it_ud_service_request_handle_query(ud_svc_handle, mask) {
    const h = check(ud_svc_handle, UdSvcHandle, S.IT_ERR_INVALID_UD_SVC);
    const U = UDM;
    checkMask(
      mask,
      U.IT_UD_PARAM_ALL |
        U.IT_UD_PARAM_IA_HANDLE |
        U.IT_UD_PARAM_REQ_ID |
        U.IT_UD_PARAM_REPLY_EVD |
        U.IT_UD_PARAM_CONN_QUAL |
        U.IT_UD_PARAM_DEST_PATH |
        U.IT_UD_PARAM_PRIV_DATA |
        U.IT_UD_PARAM_PRIV_DATA_LENGTH,
    );
    const full = {
      ia: h.ia,
      request_id: h.requestId,
      reply_evd: h.replyEvd,
      conn_qual: h.connQual,
      destination_path: h.path,
      private_data: pdataBuffer(h.privateData),
      private_data_length: h.privateData.length,
    };
    return pick(mask, full, [
      [U.IT_UD_PARAM_IA_HANDLE, 'ia'],
      [U.IT_UD_PARAM_REQ_ID, 'request_id'],
      [U.IT_UD_PARAM_REPLY_EVD, 'reply_evd'],
      [U.IT_UD_PARAM_CONN_QUAL, 'conn_qual'],
      [U.IT_UD_PARAM_DEST_PATH, 'destination_path'],
      [U.IT_UD_PARAM_PRIV_DATA, 'private_data'],
      [U.IT_UD_PARAM_PRIV_DATA_LENGTH, 'private_data_length'],
    ]);
  },
};

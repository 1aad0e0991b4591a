/**
 * IT-API 2.1 over RNICPI: Shared Receive Queues (`it_srq_*`; IT-API 2.1 Ch. 6, the SRQ group).
 *
 * @module
 */
import { RiRet } from '../rnicpi/status.js';
import type { ItApi } from './api.js';
import { Srq } from './srq.js';
import { check, fail, Pz } from './objects.js';
import { it_status_t as S } from './status.js';
import { it_srq_param_mask_t as SQM, type it_srq_param_t } from './types.js';
import { limits, isUint, checkMask, pick } from './impl-common.js';

/** The SRQ group of {@link ItApi}. */
export const itSrq: Pick<ItApi, 'it_srq_create' | 'it_srq_free' | 'it_srq_modify' | 'it_srq_query'> = {
  it_srq_create(pz_handle, max_recv_segments, max_recv_dtos) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    const ia = pz.ia;
    const l = limits(ia);
    if (!isUint(max_recv_dtos) || max_recv_dtos > l.max_wrs_srq) fail(S.IT_ERR_RESOURCE_RECV_DTO);
    if (!isUint(max_recv_segments) || max_recv_segments > l.max_sgl_srq) fail(S.IT_ERR_RESOURCE_RSEG);
    // The S-RQ object is the SRQ's os_data: its events come back to it.
    const srq = new Srq(ia, pz);
    const r = ia.ops.ri_srq_create(
      ia.rnic,
      { max_wrs: Math.max(1, max_recv_dtos), max_sgl: Math.max(1, max_recv_segments), lowat: 0, pd: pz.pd },
      null,
      srq,
    );
    if (r.status !== RiRet.SUCCESS) fail(S.IT_ERR_RESOURCES, `ri_srq_create: ${RiRet[r.status]}`);
    srq.srq = r.srq;
    srq.maxRecvDtos = r.srq_attrs.max_wrs;
    srq.maxRecvSegs = r.srq_attrs.max_sgl;
    ia.srqs.add(srq);
    return srq;
  },

  it_srq_free(srq_handle) {
    const srq = check(srq_handle, Srq, S.IT_ERR_INVALID_SRQ);
    if (srq.users > 0) fail(S.IT_ERR_SRQ_BUSY);
    srq.destroy();
  },

  it_srq_modify(srq_handle, mask, params) {
    const srq = check(srq_handle, Srq, S.IT_ERR_INVALID_SRQ);
    const modifiable = SQM.IT_SRQ_PARAM_MAX_RECV_DTO | SQM.IT_SRQ_PARAM_LOW_WATERMARK;
    if (!isUint(mask) || Number(mask) === 0 || (mask & ~modifiable) !== 0) fail(S.IT_ERR_INVALID_MASK);
    const ia = srq.ia;
    const p = params ?? {};
    const size = mask & SQM.IT_SRQ_PARAM_MAX_RECV_DTO ? p.max_recv_dtos : srq.maxRecvDtos;
    if (mask & SQM.IT_SRQ_PARAM_MAX_RECV_DTO) {
      if (!isUint(size) || size === 0 || size < srq.outstanding) fail(S.IT_ERR_INVALID_SRQ_SIZE);
      if (size > limits(ia).max_wrs_srq) fail(S.IT_ERR_RESOURCES);
    }
    if (mask & SQM.IT_SRQ_PARAM_LOW_WATERMARK) {
      const lw = p.low_watermark;
      if (!isUint(lw) || lw === 0 || lw > (size as number)) fail(S.IT_ERR_SRQ_LOW_WATERMARK);
    }
    if (mask & SQM.IT_SRQ_PARAM_MAX_RECV_DTO && size !== srq.maxRecvDtos) {
      const r = ia.ops.ri_srq_modify(ia.rnic, srq.srq, 0x1, { max_wrs: size as number });
      if (r.status !== RiRet.SUCCESS) fail(r.status === RiRet.SRQ_CANNOT_SHRINK ? S.IT_ERR_INVALID_SRQ_SIZE : S.IT_ERR_RESOURCES);
      srq.maxRecvDtos = r.attrs.max_wrs;
    }
    if (mask & SQM.IT_SRQ_PARAM_LOW_WATERMARK) {
      const st = srq.arm(p.low_watermark as number);
      if (st !== RiRet.SUCCESS) fail(S.IT_ERR_SRQ_LOW_WATERMARK, RiRet[st]);
    }
  },

  it_srq_query(srq_handle, mask) {
    const srq = check(srq_handle, Srq, S.IT_ERR_INVALID_SRQ);
    checkMask(mask, (1 << 6) - 1);
    const full: it_srq_param_t = {
      ia: srq.ia,
      pz: srq.pz,
      max_recv_dtos: srq.maxRecvDtos,
      max_recv_segs: srq.maxRecvSegs,
      low_watermark: srq.lowWatermark,
    };
    return pick(mask, full, [
      [SQM.IT_SRQ_PARAM_IA, 'ia'],
      [SQM.IT_SRQ_PARAM_PZ, 'pz'],
      [SQM.IT_SRQ_PARAM_MAX_RECV_DTO, 'max_recv_dtos'],
      [SQM.IT_SRQ_PARAM_MAX_RECV_SEG, 'max_recv_segs'],
      [SQM.IT_SRQ_PARAM_LOW_WATERMARK, 'low_watermark'],
    ]);
  },
};

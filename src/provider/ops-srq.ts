/**
 * Shared receive queues (RNICPI 1.0 Ch. 7: `ri_srq_create`, `ri_srq_query`, `ri_srq_modify`,
 * `ri_srq_destroy`; posting is `ops-post.ts`).
 *
 * @module
 */
import { RiRet, riFail, riOk, riStatus } from '../rnicpi/status.js';
import { RiSrqAttrMask, type ri_srq_attr_t } from '../rnicpi/types.js';
import { type RiOp, PdHandle, SrqHandle, objOf, rnicOf, own } from './handles.js';

function srqAttrs(h: SrqHandle): ri_srq_attr_t {
  const s = h.srq;
  return { max_wrs: s.capacity, max_sgl: s.maxSgl, lowat: s.lowat, pd: h.pdH, srq_armed: s.armed };
}

export const ri_srq_create: RiOp<'ri_srq_create'> = (rnic, srq_attrs, vp_data, os_data) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (!srq_attrs || typeof srq_attrs !== 'object') return riFail(RiRet.INVALID_PARAMETER);
  const pd = own(r, srq_attrs.pd, PdHandle);
  if (!pd) return riFail(RiRet.PD_INVALID_HANDLE);
  const s = r.engine.srqCreate(pd.pd, srq_attrs.max_wrs, srq_attrs.max_sgl, srq_attrs.lowat ?? 0, os_data);
  if (typeof s === 'number') return riFail(s as Exclude<RiRet, RiRet.SUCCESS>);
  const h = new SrqHandle(r, s, pd, vp_data, os_data);
  return riOk({ srq: h, srq_attrs: srqAttrs(h) });
};

export const ri_srq_query: RiOp<'ri_srq_query'> = (rnic, srq) => {
  const h = objOf(rnic, srq, SrqHandle, RiRet.SRQ_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  if (h.srq.error) return riFail(RiRet.SRQ_IN_ERROR);
  return riOk({ srq_attrs: srqAttrs(h) });
};

export const ri_srq_modify: RiOp<'ri_srq_modify'> = (rnic, srq, srqmask, attrs) => {
  const h = objOf(rnic, srq, SrqHandle, RiRet.SRQ_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  const r = h.owner;
  const known = RiSrqAttrMask.MAX_WRS | RiSrqAttrMask.LOWAT;
  if (!Number.isInteger(srqmask) || srqmask === 0 || (srqmask & ~known) !== 0 || !attrs) {
    return riFail(RiRet.INVALID_PARAMETER);
  }
  let maxWrs: number | undefined;
  let lowat: number | undefined;
  if (srqmask & RiSrqAttrMask.MAX_WRS) {
    if (!Number.isInteger(attrs.max_wrs)) return riFail(RiRet.INVALID_PARAMETER);
    maxWrs = attrs.max_wrs;
  }
  if (srqmask & RiSrqAttrMask.LOWAT) {
    if (!Number.isInteger(attrs.lowat)) return riFail(RiRet.INVALID_PARAMETER);
    lowat = attrs.lowat;
  }
  const st = r.engine.srqModify(h.srq, maxWrs, lowat);
  if (st !== RiRet.SUCCESS) return riFail(st as Exclude<RiRet, RiRet.SUCCESS>);
  return riOk({ attrs: srqAttrs(h) });
};

export const ri_srq_destroy: RiOp<'ri_srq_destroy'> = (rnic, srq) => {
  const h = objOf(rnic, srq, SrqHandle, RiRet.SRQ_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  const r = h.owner;
  const st = r.engine.srqDestroy(h.srq);
  if (st === RiRet.SUCCESS) h.kill();
  return riStatus(st);
};

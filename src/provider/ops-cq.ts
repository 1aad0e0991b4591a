/**
 * Completion queues (RNICPI 1.0 Ch. 7: `ri_cq_*`): creation, resizing, the event handlers,
 * notification and polling. Arming and overflow are the core's (`src/rnic/cq.ts`).
 *
 * @module
 */
import type { WorkCompletion } from '../rnic/cq.js';
import { RI_OK, RiRet, riFail, riOk, riStatus } from '../rnicpi/status.js';
import { RiCmpltNotifyType, RiCqModifyMask, type ri_wc_t } from '../rnicpi/types.js';
import { type RiOp, CqHandle, objOf, rnicOf, vpOf } from './handles.js';

export const ri_cq_create: RiOp<'ri_cq_create'> = (rnic, cq_attr, vp_data, os_data) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (!cq_attr || typeof cq_attr !== 'object') return riFail(RiRet.INVALID_PARAMETER);
  // Non-privileged consumers cannot name a CEH; the uVP ignores the field (Ch. 7 ri_cq_create).
  const hid = r.privileged ? (cq_attr.handler_id ?? 0) : 0;
  if (!Number.isInteger(hid) || hid < 0) return riFail(RiRet.CQ_INVALID_EVENT_HANDLER);
  const cq = r.engine.cqCreate(cq_attr.num_cqe, hid, os_data);
  if (typeof cq === 'number') return riFail(cq as Exclude<RiRet, RiRet.SUCCESS>);
  return riOk({ cq: new CqHandle(r, cq, vp_data, os_data), cq_attr: { num_cqe: cq.capacity, handler_id: cq.handlerId } });
};

export const ri_cq_query: RiOp<'ri_cq_query'> = (rnic, cq) => {
  const h = objOf(rnic, cq, CqHandle, RiRet.CQ_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  if (h.cq.error) return riFail(RiRet.CQ_ERROR);
  return riOk({ cq_attr: { num_cqe: h.cq.capacity, handler_id: h.cq.handlerId } });
};

export const ri_cq_modify: RiOp<'ri_cq_modify'> = (rnic, cq, mask, cq_attr) => {
  const h = objOf(rnic, cq, CqHandle, RiRet.CQ_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  const r = h.owner;
  if (mask !== RiCqModifyMask.NUM_CQE || !cq_attr || typeof cq_attr.num_cqe !== 'number') {
    return riFail(RiRet.INVALID_PARAMETER);
  }
  const st = r.engine.cqResize(h.cq, cq_attr.num_cqe);
  if (st !== RiRet.SUCCESS) return riFail(st as Exclude<RiRet, RiRet.SUCCESS>);
  return riOk({ cq_attr: { num_cqe: h.cq.capacity, handler_id: h.cq.handlerId } });
};

export const ri_cq_destroy: RiOp<'ri_cq_destroy'> = (rnic, cq) => {
  const h = objOf(rnic, cq, CqHandle, RiRet.CQ_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  const r = h.owner;
  const st = r.engine.cqDestroy(h.cq);
  if (st === RiRet.SUCCESS) h.kill();
  return riStatus(st);
};

export const ri_cq_set_event_handler: RiOp<'ri_cq_set_event_handler'> = (vp_hdl, handler_id, cq_callback) => {
  const vp = vpOf(vp_hdl);
  if (!vp) return riFail(RiRet.VP_INVALID_HANDLE);
  if (handler_id === null || !Number.isInteger(handler_id) || handler_id < 0) return riFail(RiRet.INVALID_PARAMETER);
  if (cq_callback !== null && typeof cq_callback !== 'function') return riFail(RiRet.INVALID_PARAMETER);
  const r = vp.engine.setCqHandler(handler_id, cq_callback);
  if (r.status !== RiRet.SUCCESS) return riFail(r.status as Exclude<RiRet, RiRet.SUCCESS>);
  return riOk({ handler_id: r.id });
};

export const ri_cq_req_notification: RiOp<'ri_cq_req_notification'> = (rnic, cq, type) => {
  const h = objOf(rnic, cq, CqHandle, RiRet.CQ_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  if (type !== RiCmpltNotifyType.SOLICITED && type !== RiCmpltNotifyType.ANY) return riFail(RiRet.INVALID_PARAMETER);
  if (h.cq.handlerId === 0) return riFail(RiRet.CQ_NO_EVENT_HANDLER);
  h.cq.arm(type as number);
  return RI_OK;
};

export const ri_cq_poll: RiOp<'ri_cq_poll'> = (rnic, cq, num_wcs) => {
  const h = objOf(rnic, cq, CqHandle, RiRet.CQ_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  if (!Number.isInteger(num_wcs) || num_wcs < 1) return riFail(RiRet.INVALID_PARAMETER);
  const out: WorkCompletion[] = [];
  const n = h.cq.poll(out, num_wcs);
  if (n === 0) return riFail(RiRet.CQ_EMPTY);
  return riOk({ wcs: out as ri_wc_t[] });
};

/**
 * Shared receive queues (manual §4.5: `ibv_create_srq`, `ibv_modify_srq`, `ibv_query_srq`,
 * `ibv_destroy_srq`, `ibv_post_srq_recv`) over RNICPI's S-RQ.
 *
 * @module
 */
import { RiRet } from '../rnicpi/status.js';
import { RiSrqAttrMask } from '../rnicpi/types.js';
import type { PostResult, WrList } from './api.js';
import { ibv_srq_attr_mask } from './constants.js';
import { errnoOf, fail } from './device.js';
import { EBUSY, EINVAL } from './errno.js';
import type { ibv_pd, ibv_recv_wr, ibv_srq, ibv_srq_attr, ibv_srq_init_attr, In } from './types.js';
import { type Pd, Srq, alive, nullWith, sgeList, wrArray } from './ibv_objects.js';
import { firstOf, wrIdError } from './ibv_post.js';

// ------------------------------------------------------------------------------ SRQ

export function ibv_create_srq(pd: ibv_pd, init: In<ibv_srq_init_attr>): ibv_srq | null {
  const p = pd as Pd;
  if (!alive(p, 'ibv_pd')) return nullWith(EINVAL);
  const a = init?.attr ?? {};
  const ctx = p.context;
  const srq = new Srq(ctx, p, init?.srq_context ?? null);
  const r = ctx.ops.ri_srq_create(
    ctx.rnic,
    { max_wrs: a.max_wr ?? 0, max_sgl: a.max_sge ?? 0, lowat: a.srq_limit ?? 0, pd: p.ri },
    null,
    srq,
  );
  if (r.status !== RiRet.SUCCESS) return nullWith(errnoOf(r.status));
  srq.ri = r.srq;
  srq.maxWr = r.srq_attrs.max_wrs;
  srq.maxSge = r.srq_attrs.max_sgl;
  if (init && typeof init.attr === 'object' && init.attr) {
    (init.attr as ibv_srq_attr).max_wr = srq.maxWr;
    (init.attr as ibv_srq_attr).max_sge = srq.maxSge;
  }
  ctx.objects.add(srq);
  return srq;
}

export function ibv_modify_srq(srq: ibv_srq, attr: In<ibv_srq_attr>, mask: number): number {
  const s = srq as Srq;
  if (!alive(s, 'ibv_srq')) return fail(EINVAL);
  const M = ibv_srq_attr_mask;
  if ((mask & ~(M.IBV_SRQ_MAX_WR | M.IBV_SRQ_LIMIT)) !== 0 || mask === 0) return fail(EINVAL);
  let m = 0;
  if (mask & M.IBV_SRQ_MAX_WR) m |= RiSrqAttrMask.MAX_WRS;
  if (mask & M.IBV_SRQ_LIMIT) m |= RiSrqAttrMask.LOWAT;
  const r = s.context.ops.ri_srq_modify(s.context.rnic, s.ri, m, { max_wrs: attr.max_wr ?? 0, lowat: attr.srq_limit ?? 0 });
  if (r.status !== RiRet.SUCCESS) return fail(errnoOf(r.status));
  s.maxWr = r.attrs.max_wrs;
  return 0;
}

export function ibv_query_srq(srq: ibv_srq, out: ibv_srq_attr): number {
  const s = srq as Srq;
  if (!alive(s, 'ibv_srq')) return fail(EINVAL);
  const r = s.context.ops.ri_srq_query(s.context.rnic, s.ri);
  if (r.status !== RiRet.SUCCESS) return fail(errnoOf(r.status));
  out.max_wr = r.srq_attrs.max_wrs;
  out.max_sge = r.srq_attrs.max_sgl;
  out.srq_limit = r.srq_attrs.srq_armed ? r.srq_attrs.lowat : 0;
  return 0;
}

export function ibv_destroy_srq(srq: ibv_srq): number {
  const s = srq as Srq;
  if (!alive(s, 'ibv_srq')) return fail(EINVAL);
  if (s.events_completed < s.asyncEvents) return fail(EBUSY);
  const st = s.context.ops.ri_srq_destroy(s.context.rnic, s.ri);
  if (st.status !== RiRet.SUCCESS) return fail(errnoOf(st.status));
  s.dead = true;
  s.context.dropAsync(s);
  s.context.objects.delete(s);
  return 0;
}

export function ibv_post_srq_recv(srq: ibv_srq, wr: WrList<ibv_recv_wr>): PostResult<ibv_recv_wr> {
  const s = srq as Srq;
  if (!alive(s, 'ibv_srq')) return { ret: fail(EINVAL), bad_wr: firstOf(wr) };
  for (const w of wrArray<In<ibv_recv_wr>>(wr)) {
    const badId = wrIdError('ibv_post_srq_recv', w.wr_id);
    if (badId) return { ret: fail(EINVAL, badId), bad_wr: w };
    const sg = sgeList(w.sg_list, w.num_sge);
    if (!sg) return { ret: fail(EINVAL), bad_wr: w };
    const r = s.context.ops.ri_srq_post_recv(s.context.rnic, s.ri, 0, w.wr_id ?? 0n, sg, sg.length);
    if (r.status !== RiRet.SUCCESS) return { ret: fail(errnoOf(r.status)), bad_wr: w };
  }
  return { ret: 0, bad_wr: null };
}

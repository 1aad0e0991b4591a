/**
 * Protection domains, memory regions and memory windows (manual §4.4: `ibv_alloc_pd`,
 * `ibv_reg_mr`, `ibv_alloc_mw` and their releases) over `ri_pd_alloc`, `ri_mr_reg_*` and
 * `ri_mw_alloc`.
 *
 * @module
 */
import { RiRet } from '../rnicpi/status.js';
import { RiMemFlags, RiMwType } from '../rnicpi/types.js';
import { hostMemory } from '../rnic/hostmem.js';
import { ibv_mw_type } from './constants.js';
import { type Context, errnoOf, fail } from './device.js';
import { EINVAL } from './errno.js';
import type { ibv_mr, ibv_mw, ibv_pd } from './types.js';
import { Mr, Mw, Pd, alive, ctxOk, type ibv_context_like, memFlagsOf, nullWith } from './ibv_objects.js';

// ------------------------------------------------------------------------------ PD / MR / MW

export function ibv_alloc_pd(context: ibv_context_like): ibv_pd | null {
  const ctx = context as Context;
  if (!ctxOk(ctx)) return nullWith(EINVAL);
  const r = ctx.ops.ri_pd_alloc(ctx.rnic, null, null);
  if (r.status !== RiRet.SUCCESS) return nullWith(errnoOf(r.status));
  const pd = new Pd(ctx, r.pd);
  ctx.objects.add(pd);
  return pd;
}

export function ibv_dealloc_pd(pd: ibv_pd): number {
  const p = pd as Pd;
  if (!alive(p, 'ibv_pd')) return fail(EINVAL);
  const st = p.context.ops.ri_pd_dealloc(p.context.rnic, p.ri);
  if (st.status !== RiRet.SUCCESS) return fail(errnoOf(st.status));
  p.dead = true;
  p.context.objects.delete(p);
  return 0;
}

/**
 * `ibv_reg_mr`: registers `addr` (the bytes themselves) as `[mr.addr, mr.addr+length)` in the
 * synthetic address space; `length` may cover a prefix of the view.
 */
export function ibv_reg_mr(pd: ibv_pd, addr: Uint8Array, length: number, access: number): ibv_mr | null {
  const p = pd as Pd;
  if (!alive(p, 'ibv_pd')) return nullWith(EINVAL);
  const bad = regMrArgError(addr, length);
  if (bad) return nullWith(EINVAL, `ibv_reg_mr: ${bad} (EINVAL)`);
  const flags = memFlagsOf(access);
  if (flags === null)
    return nullWith(
      EINVAL,
      `ibv_reg_mr: access 0x${Number(access).toString(16)} is not a valid ibv_access_flags combination (remote write needs local write) (EINVAL)`,
    );
  const va = hostMemory.addressOf(addr);
  const ctx = p.context;
  const r = ctx.ops.ri_mr_reg(ctx.rnic, { va, length, mem_attr: flags | RiMemFlags.USER_VA, pd: p.ri }, 0, null, null);
  if (r.status !== RiRet.SUCCESS) return nullWith(errnoOf(r.status));
  // On iWARP one STag serves as both keys.
  const mr = new Mr(ctx, p, va, length, r.ltag, r.rtag ?? r.ltag, r.mr, addr.subarray(0, length));
  ctx.objects.add(mr);
  return mr;
}

/** What is wrong with `ibv_reg_mr`'s buffer and length, in words; null when nothing is. */
function regMrArgError(addr: unknown, length: unknown): string | null {
  if (!(addr instanceof Uint8Array)) {
    const what = addr === null ? 'null' : addr instanceof ArrayBuffer ? 'an ArrayBuffer' : `a ${typeof addr}`;
    return `addr is ${what}; expected a Uint8Array (or Buffer) holding the memory to register`;
  }
  if (typeof length !== 'number' || !Number.isInteger(length) || length <= 0) return `length ${String(length)} is not a positive integer`;
  if (length > addr.length) return `length ${length} is beyond the end of addr (${addr.length} bytes)`;
  return null;
}

export function ibv_dereg_mr(mr: ibv_mr): number {
  const m = mr as Mr;
  if (!alive(m, 'ibv_mr')) return fail(EINVAL);
  const st = m.context.ops.ri_mr_dereg(m.context.rnic, m.ri);
  if (st.status !== RiRet.SUCCESS) return fail(errnoOf(st.status));
  m.dead = true;
  m.context.objects.delete(m);
  return 0;
}

/** `ibv_alloc_mw` (rdma-core; type 2 = narrow, bound by a WR to one QP). */
export function ibv_alloc_mw(pd: ibv_pd, type: ibv_mw_type): ibv_mw | null {
  const p = pd as Pd;
  if (!alive(p, 'ibv_pd')) return nullWith(EINVAL);
  let t: RiMwType;
  if (type === ibv_mw_type.IBV_MW_TYPE_2) t = RiMwType.TYPE_NARROW;
  else if (type === ibv_mw_type.IBV_MW_TYPE_1) t = RiMwType.TYPE_WIDE;
  else return nullWith(EINVAL);
  const ctx = p.context;
  const r = ctx.ops.ri_mw_alloc(ctx.rnic, p.ri, t, null, null);
  if (r.status !== RiRet.SUCCESS) return nullWith(errnoOf(r.status));
  const mw = new Mw(ctx, p, r.rtag, type, r.mw);
  ctx.objects.add(mw);
  return mw;
}

export function ibv_dealloc_mw(mw: ibv_mw): number {
  const w = mw as Mw;
  if (!alive(w, 'ibv_mw')) return fail(EINVAL);
  const st = w.context.ops.ri_mw_dealloc(w.context.rnic, w.ri);
  if (st.status !== RiRet.SUCCESS) return fail(errnoOf(st.status));
  w.dead = true;
  w.context.objects.delete(w);
  return 0;
}

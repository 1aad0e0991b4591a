/**
 * The device context's asynchronous events (manual §4.7: `ibv_get_async_event`,
 * `ibv_ack_async_event`) and `ibv_close_device`, which destroys what is still open on the context
 * in dependency order.
 *
 * @module
 */
import { RiRet } from '../rnicpi/status.js';
import { type AsyncTarget, Context, closeDevice, fail } from './device.js';
import { EINVAL } from './errno.js';
import type { ibv_async_event } from './types.js';
import { CompChannel, Cq, Mr, Mw, Pd, Qp, Srq, type ibv_context_like } from './ibv_objects.js';

// ------------------------------------------------------------------------------ async events

/**
 * `ibv_get_async_event(context, event)` (manual §4.7.1): C fills the caller's `struct
 * ibv_async_event`. A missing or non-object `event` is C's NULL pointer, which the binding
 * answers with EINVAL and a message (see softrdmaLastError) rather than a TypeError.
 */
export function ibv_get_async_event(context: ibv_context_like, event: ibv_async_event): Promise<number> {
  const ctx = context as Context;
  if (!(ctx instanceof Context)) return Promise.resolve(fail(EINVAL, 'ibv_get_async_event: context is not an open ibv_context (EINVAL)'));
  if (typeof event !== 'object' || event === null) {
    return Promise.resolve(
      fail(
        EINVAL,
        'ibv_get_async_event: event must be an ibv_async_event object for the call to fill, e.g. `const ev = {} as ibv_async_event` (EINVAL)',
      ),
    );
  }
  return ctx.getAsync(event);
}

export function ibv_ack_async_event(event: ibv_async_event): void {
  const e = event.element;
  const t = (e.qp ?? e.cq ?? e.srq) as AsyncTarget | null;
  t?.ackAsync();
}

// ------------------------------------------------------------------------------ device close

/**
 * `ibv_close_device` (manual §4.2.6): closes the context even while objects created on it are
 * still alive — like closing the uverbs file in C, which makes the kernel destroy them. The
 * objects stay allocated for the caller (C leaks their user-space memory) but are dead: any call
 * on them fails with EINVAL. Destruction order is the dependency order: QPs, SRQs, MWs, MRs, CQs,
 * completion channels, PDs.
 */
export function ibv_close_device(context: ibv_context_like): number {
  const ctx = context as Context;
  if (!(ctx instanceof Context) || ctx.closed) return fail(EINVAL);
  const ops = ctx.ops;
  const live = [...ctx.objects];
  const kill = (o: { dead: boolean }): void => {
    o.dead = true;
    ctx.objects.delete(o);
  };
  for (const o of live) if (o instanceof Qp && !o.dead && ops.ri_qp_destroy(ctx.rnic, o.ri).status === RiRet.SUCCESS) kill(o);
  for (const o of live) if (o instanceof Srq && !o.dead && ops.ri_srq_destroy(ctx.rnic, o.ri).status === RiRet.SUCCESS) kill(o);
  for (const o of live) if (o instanceof Mw && !o.dead && ops.ri_mw_dealloc(ctx.rnic, o.ri).status === RiRet.SUCCESS) kill(o);
  for (const o of [...ctx.objects]) if (o instanceof Mr && !o.dead && ops.ri_mr_dereg(ctx.rnic, o.ri).status === RiRet.SUCCESS) kill(o);
  for (const o of live) {
    if (o instanceof Cq && !o.dead && ops.ri_cq_destroy(ctx.rnic, o.ri).status === RiRet.SUCCESS) {
      if (o.channel) {
        o.channel.refcnt--;
        o.channel.forget(o);
      }
      kill(o);
    }
  }
  for (const o of live) {
    if (o instanceof CompChannel && !o.dead) {
      o.close();
      kill(o);
    }
  }
  for (const o of live) if (o instanceof Pd && !o.dead && ops.ri_pd_dealloc(ctx.rnic, o.ri).status === RiRet.SUCCESS) kill(o);
  return closeDevice(ctx);
}

/**
 * libibverbs in TypeScript (manual chapter 4), a thin face over RNICPI.
 *
 * Every call maps to one or a few `ri_*` calls on the context's RNIC handle; the rules
 * (state machine, access checks, flushing, notification) are the engine's. What lives here is
 * the ibverbs vocabulary: IB-style QP states over the iWARP ones, `ibv_access_flags`, the WR
 * and WC layouts and their status codes, completion channels, and the C return conventions
 * (`errno.ts`).
 *
 * This module is the face's one entry: the verbs live in one file per resource, as
 * `rxe_verbs.c` has one function per verb:
 *
 * - `ibv_objects.ts`: the objects and the helpers every verb shares;
 * - `ibv_pd.ts`: protection domains, memory regions and windows;
 * - `ibv_cq.ts`: completion channels, CQs and `ibv_poll_cq`;
 * - `ibv_srq.ts`: shared receive queues;
 * - `ibv_qp.ts`: creating, destroying and modifying QPs;
 * - `ibv_qp_state.ts`: a QP's IB state and attributes, `ibv_query_qp`, and the iWARP-as-IB
 *   emulation (Linux siw's mapping);
 * - `ibv_ah.ts`: address handles and multicast attachment;
 * - `ibv_post.ts`: posting work requests;
 * - `ibv_context.ts`: asynchronous events and closing the device;
 * - `ibv_exp.ts`: the experimental extended atomics.
 */
export { MAX_INLINE_DATA, DEFAULT_RD_ATOMIC, Pd, Mr, Mw, CompChannel, Cq, Srq, Qp, Ah, memFlagsOf } from './ibv_objects.js';
export { ibv_alloc_pd, ibv_dealloc_pd, ibv_reg_mr, ibv_dereg_mr, ibv_alloc_mw, ibv_dealloc_mw } from './ibv_pd.js';
export {
  ibv_create_comp_channel,
  ibv_destroy_comp_channel,
  ibv_create_cq,
  ibv_resize_cq,
  ibv_destroy_cq,
  ibv_req_notify_cq,
  ibv_get_cq_event,
  ibv_ack_cq_events,
  wcStatusOf,
  newWc,
  ibv_poll_cq,
} from './ibv_cq.js';
export { ibv_create_srq, ibv_modify_srq, ibv_query_srq, ibv_destroy_srq, ibv_post_srq_recv } from './ibv_srq.js';
export { ibv_create_qp, ibv_destroy_qp, ibv_modify_qp } from './ibv_qp.js';
export { modifyQpToRts, ibv_query_qp } from './ibv_qp_state.js';
export type { QpIbAttrs } from './ibv_qp_state.js';
export { createAh, mcastAttach, destroyAh, initAhFromWc } from './ibv_ah.js';
export { ibv_post_send, ibv_post_recv } from './ibv_post.js';
export { ibv_get_async_event, ibv_ack_async_event, ibv_close_device } from './ibv_context.js';
export { ibv_exp_query_device, ibv_exp_create_qp, ibv_exp_post_send } from './ibv_exp.js';
export { Context } from './device.js';

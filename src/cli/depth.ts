/**
 * The IRD/ORD a passive CLI tool accepts with: the connection request's values capped to the
 * device's limits, as librdmacm's `rdma_accept` does for a NULL `conn_param`
 * (`min(request, cma_dev->max_*)`). A peer's Request may carry any 14-bit IRD/ORD (RFC 6581
 * §9.1); passing it to `rdma_accept` unchecked fails the accept (librdmacm's `ucma_valid_param`:
 * EINVAL) and, if the failure were ignored, would leave the request unanswered.
 */
import { ibv_query_device } from '../verbs/index.js';
import type { ibv_context, ibv_device_attr } from '../verbs/types.js';

/**
 * `responder_resources` (our IRD) and `initiator_depth` (our ORD) for `rdma_accept`, from a
 * CONNECT_REQUEST's `param.conn`; null if the device cannot be queried.
 */
export function cappedDepths(
  ctx: ibv_context,
  req: { responder_resources: number; initiator_depth: number },
): { responder_resources: number; initiator_depth: number } | null {
  const a = {} as ibv_device_attr;
  if (ibv_query_device(ctx, a) !== 0) return null;
  // iw_cm reports the peer's ORD as responder_resources and its IRD as initiator_depth.
  return {
    responder_resources: Math.min(req.responder_resources, a.max_qp_rd_atom),
    initiator_depth: Math.min(req.initiator_depth, a.max_qp_init_rd_atom),
  };
}

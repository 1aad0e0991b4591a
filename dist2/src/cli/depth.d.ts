import type { ibv_context } from '../verbs/types.js';
/**
 * `responder_resources` (our IRD) and `initiator_depth` (our ORD) for `rdma_accept`, from a
 * CONNECT_REQUEST's `param.conn`; null if the device cannot be queried.
 */
export declare function cappedDepths(ctx: ibv_context, req: {
    responder_resources: number;
    initiator_depth: number;
}): {
    responder_resources: number;
    initiator_depth: number;
} | null;

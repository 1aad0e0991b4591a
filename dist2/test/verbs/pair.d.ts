import { type ibv_comp_channel, type ibv_context, type ibv_cq, type ibv_mr, type ibv_pd, type ibv_qp, type ibv_qp_init_attr, type ibv_wc, type In, type rdma_cm_event, type rdma_cm_event_type, type rdma_cm_id, type rdma_conn_param, type rdma_event_channel } from '../../src/verbs/index.js';
export declare const RC = 2;
export declare const ACC: number;
export declare const CAP: Readonly<{
    max_send_wr: 16;
    max_recv_wr: 16;
    max_send_sge: 4;
    max_recv_sge: 4;
    max_inline_data: 64;
}>;
/** A fresh copy of {@link CAP} (create calls write the granted capabilities back into `cap`). */
export declare const cap: () => {
    max_send_wr: 16;
    max_recv_wr: 16;
    max_send_sge: 4;
    max_recv_sge: 4;
    max_inline_data: 64;
};
export declare const INIT_MASK: number;
export declare const RTR_MASK: number;
export declare const RTS_MASK: number;
export declare const INIT_ATTR: {
    qp_state: import("../../src/verbs/constants.js").ibv_qp_state;
    pkey_index: number;
    port_num: number;
    qp_access_flags: number;
};
export declare const RTR_ATTR: {
    qp_state: import("../../src/verbs/constants.js").ibv_qp_state;
    path_mtu: import("../../src/verbs/constants.js").ibv_mtu;
    dest_qp_num: number;
    rq_psn: number;
    max_dest_rd_atomic: number;
    min_rnr_timer: number;
    ah_attr: {
        port_num: number;
    };
};
export declare const RTS_ATTR: {
    qp_state: import("../../src/verbs/constants.js").ibv_qp_state;
    timeout: number;
    retry_cnt: number;
    rnr_retry: number;
    sq_psn: number;
    max_rd_atomic: number;
};
export declare const LOOP: (port: number) => {
    family: "ipv4";
    address: string;
    port: number;
};
/** The first device, opened. */
export declare function openCtx(): ibv_context;
/** Next CM event on `ch`, which must be `want`. */
export declare function expectEvent(ch: rdma_event_channel, want: rdma_cm_event_type): Promise<rdma_cm_event>;
/** Polls until `n` completions arrived on `cq` (yielding to the event loop; the caller's test timeout bounds it). */
export declare function pollN(cq: ibv_cq, n: number): Promise<ibv_wc[]>;
/** Lets the event loop run `turns` times (for "nothing more happens" checks, no timers). */
export declare function settle(turns?: number): Promise<void>;
export interface CmSide {
    id: rdma_cm_id;
    qp: ibv_qp;
    pd: ibv_pd;
    /** Send and receive CQs (rdma_cm's, or the ones given). */
    scq: ibv_cq;
    rcq: ibv_cq;
}
export interface CmPair {
    lch: rdma_event_channel;
    listen: rdma_cm_id;
    cch: rdma_event_channel;
    client: CmSide;
    server: CmSide;
    req: rdma_cm_event;
    /** Disconnects (if still connected), waits for DISCONNECTED on both sides, destroys everything. */
    close(): Promise<void>;
}
export interface CmPairOptions {
    clientAttr?: In<ibv_qp_init_attr>;
    serverAttr?: In<ibv_qp_init_attr>;
    connParam?: In<rdma_conn_param>;
    acceptParam?: In<rdma_conn_param>;
    /** Called on each side after its QP exists and before the connection is made (post receives here). */
    beforeConnect?: (client: CmSide) => void;
    beforeAccept?: (server: CmSide) => void;
}
/** Two RC QPs connected by rdma_cm (asynchronous ids) over loopback. */
export declare function cmPair(o?: CmPairOptions): Promise<CmPair>;
export interface IbvSide {
    ctx: ibv_context;
    pd: ibv_pd;
    ch: ibv_comp_channel;
    cq: ibv_cq;
    qp: ibv_qp;
}
/** One `ibv_create_qp` RC QP on its own context, PD, channel and CQ (in RESET). */
export declare function ibvSide(attr?: In<ibv_qp_init_attr>, cqe?: number): IbvSide;
/** Destroys an {@link ibvSide} and its context (MRs given are deregistered first). */
export declare function closeIbvSide(s: IbvSide, mrs?: readonly ibv_mr[]): void;
/**
 * Connects two `ibv_create_qp` QPs as the manual's RC example does on iWARP: RESET→INIT→RTR by
 * `ibv_modify_qp`, then the TCP socket converted by the CM (MPA start-up, `a` as Initiator in
 * peer-to-peer mode), then the RTR→RTS `ibv_modify_qp` unless `rts` is false. `beforeRtr` runs on
 * each side in INIT (post receives there).
 */
export declare function convertedPair(a: IbvSide, b: IbvSide, o?: {
    rts?: boolean;
    beforeRtr?: (s: IbvSide) => void;
}): Promise<{
    close(): Promise<void>;
}>;
/** Registers `bytes` on `pd` with `access` (asserting success). */
export declare function reg(pd: ibv_pd, bytes: Uint8Array, access?: number): ibv_mr;

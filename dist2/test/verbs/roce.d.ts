import { type ibv_ah_attr, type ibv_context, type ibv_cq, type ibv_device, type ibv_mr, type ibv_pd, type ibv_qp, type ibv_qp_type } from '../../src/verbs/index.js';
export declare const ROCE_ACC: number;
export declare const ROCE_CAP: () => {
    max_send_wr: number;
    max_recv_wr: number;
    max_send_sge: number;
    max_recv_sge: number;
    max_inline_data: number;
};
/** Q_Key of the UD fixtures. */
export declare const QKEY = 286331153;
export declare const RC_INIT_MASK: number;
export declare const UD_INIT_MASK: number;
export declare const RC_RTR_MASK: number;
export declare const UC_RTR_MASK: number;
export declare const RC_RTS_MASK: number;
export declare const UC_RTS_MASK: number;
/** The RoCEv2 device of the list. */
export declare function roceDevice(): ibv_device;
/**
 * Points the RoCE device's IB QPs at the in-process loopback transport (a test hook on the
 * RNIC's configuration), until the returned function restores the RoCEv2 link.
 */
export declare function useLoopbackLink(link?: string): () => void;
export declare function openRoce(): ibv_context;
/** GID `index` of port 1. */
export declare function gid(ctx: ibv_context, index?: number): Uint8Array;
/** An address vector to `dgid` from GID 0 (RoCE: global, port 1). */
export declare function avTo(dgid: Uint8Array): ibv_ah_attr;
export interface RoceSide {
    ctx: ibv_context;
    pd: ibv_pd;
    cq: ibv_cq;
    qp: ibv_qp;
}
/** A QP of `type` on its own context of softroce0, with its PD and one CQ (in RESET). */
export declare function roceSide(type?: ibv_qp_type, cqe?: number): RoceSide;
export declare function closeRoceSide(s: RoceSide, mrs?: readonly ibv_mr[]): void;
/** RESET→INIT→RTR→RTS of `s` toward `destQpn` (RC, UC or UD masks as the manual's §4.5.1 table). */
export declare function roceToRts(s: RoceSide, destQpn: number, o?: {
    pathMtu?: number;
    psn?: number;
    peerPsn?: number;
}): void;

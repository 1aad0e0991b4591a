/**
 * Heuristic dissectors of the InfiniBand payload that would claim our test bytes (RPC-over-RDMA,
 * SMB Direct, SMC-R, Ethernet over IB, …): off, so the payload stays opaque data.
 */
export declare const TSHARK_IB_ARGS: string[];

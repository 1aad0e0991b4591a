/**
 * `softrdma perf` without `-R` on an InfiniBand (RoCEv2) device: perftest's own out-of-band
 * exchange ("Data ex. method : Ethernet") and its CM-less QP connection, as perftest 4.5-0.17
 * does them (`perftest_communication.c` `ethernet_client_connect`, `ethernet_server_connect`,
 * `ctx_xchg_data_ethernet`, `ethernet_write_keys`/`ethernet_read_keys`, `ctx_close_connection`;
 * `perftest_resources.c` `ctx_modify_qp_to_init`, `ctx_connect`):
 *
 * - one TCP connection to the server's port (18515): every exchange of the `-R` control channel
 *   (versions, system data, MTU, BW reports) goes over it as the same raw octets, the client
 *   writing first and the server reading first;
 * - a `pingpong_dest` handshake is the 108-octet `KEY_PRINT_FMT_GID` text (src/cli/oob.ts) in
 *   place of the 56-octet binary structure;
 * - the QPs are made with `ibv_create_qp`, moved to INIT with the test's remote access, and,
 *   after the first round of key handshakes, to RTR with the peer's QPN, PSN and GID (and to RTS
 *   on the client, and on both ends of a latency test);
 * - closing (`ctx_close_connection`): a last handshake, then "done" (5 octets) and close.
 */
import { ibv_access_flags as A, type ibv_mtu } from '../verbs/constants.js';
import { type Context } from '../verbs/device.js';
import type { ibv_cq, ibv_pd, ibv_qp } from '../verbs/types.js';
import { OobChannel } from './oob.js';
import { type CtlChannel, type PingpongDest } from './perf-proto.js';
/** perftest's `MIN_RNR_TIMER` (0.64 ms, IBTA Vol. 1 Table 45) and `DEF_QP_TIME` (4.096 µs × 2^14 ≈ 67 ms). */
export declare const PERF_MIN_RNR_TIMER = 12;
export declare const PERF_QP_TIMEOUT = 14;
/** The control "channel" of a run without rdma_cm: the TCP side channel. */
export declare class EthControl implements CtlChannel {
    readonly ch: OobChannel;
    readonly client: boolean;
    finished: boolean;
    private constructor();
    /** `ethernet_client_connect`: one attempt, as perftest (the server must be listening). */
    static connect(host: string, port: number): Promise<EthControl>;
    /** `ethernet_server_connect`: listen on `bind:port`, take one connection, stop listening. */
    static accept(bind: string, port: number, onListening?: (port: number) => void): Promise<EthControl>;
    check(): void;
    xchg(msg: Uint8Array, n?: number): Promise<Uint8Array>;
    /** `ctx_hand_shake` with `ethernet_write_keys`/`ethernet_read_keys` (GID format: RoCE always has a GID index). */
    handshake(my: PingpongDest): Promise<PingpongDest>;
    /** The end of `ctx_close_connection` (after its handshake): "done", then close. */
    done(): void;
    /** Closes without the "done" (ib_write_lat has no close handshake; failures). */
    close(): void;
}
/** `ctx_modify_qp_to_init`'s remote access per test: the one operation the peer performs. */
declare const INIT_ACCESS: {
    readonly write: A.IBV_ACCESS_REMOTE_WRITE;
    readonly read: A.IBV_ACCESS_REMOTE_READ;
    readonly atomic: A.IBV_ACCESS_REMOTE_ATOMIC;
    readonly send: number;
};
/** `ctx_qp_create` + `ctx_modify_qp_to_init` for an RC QP on an InfiniBand device. */
export declare function createIbRcQp(pd: ibv_pd, scq: ibv_cq, rcq: ibv_cq, cap: {
    max_send_wr: number;
    max_recv_wr: number;
}, verb: keyof typeof INIT_ACCESS): ibv_qp;
/**
 * `ctx_connect` for one RC QP: RTR with the peer's QPN, PSN and GID (`is_global`, hop limit
 * 0xFF, our `sgid_index`), `max_dest_rd_atomic` = our outstanding reads, `min_rnr_timer` 12;
 * then, if `rts`, RTS with timeout 14, retry 7/7, our PSN and the peer's outstanding reads.
 */
export declare function connectIbRcQp(qp: ibv_qp, my: PingpongDest, rem: PingpongDest, mtu: ibv_mtu, gidIndex: number, rts: boolean): void;
/** `ipv6_addr_v4mapped` of a raw GID. */
export declare function gidIsV4Mapped(g: Uint8Array): boolean;
/**
 * The source GID of a run: `-x` when given, else perftest's `get_best_gid_index` on an
 * all-RoCE-v2 table, the first IPv4-mapped GID (index 0 if none is). Null when the index has no GID.
 */
export declare function pickGid(ctx: Context, want: number): {
    index: number;
    gid: Uint8Array;
} | null;
export {};

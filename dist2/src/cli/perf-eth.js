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
import { ibv_access_flags as A, ibv_qp_attr_mask as M, ibv_qp_state, ibv_qp_type, } from '../verbs/constants.js';
import { queryGid, queryPort } from '../verbs/device.js';
import { getErrno } from '../verbs/errno.js';
import { ibv_create_qp, ibv_modify_qp } from '../verbs/ibverbs.js';
import { decodePerftestKeys, encodePerftestKeys, OobChannel, OobError, PERFTEST_KEYS_LEN, PP_DONE } from './oob.js';
import { PerfError } from './perf-proto.js';
/** perftest's `MIN_RNR_TIMER` (0.64 ms, IBTA Vol. 1 Table 45) and `DEF_QP_TIME` (4.096 µs × 2^14 ≈ 67 ms). */
export const PERF_MIN_RNR_TIMER = 12;
export const PERF_QP_TIMEOUT = 14;
/** perftest's GRH hop limit on RoCE. */
const PERF_HOP_LIMIT = 0xff;
/** The control "channel" of a run without rdma_cm: the TCP side channel. */
export class EthControl {
    ch;
    client;
    finished = false;
    constructor(ch, client) {
        this.ch = ch;
        this.client = client;
        // The server waits in a handshake for the whole of the client's run: no read timeout.
        ch.timeoutMs = 0;
    }
    /** `ethernet_client_connect`: one attempt, as perftest (the server must be listening). */
    static async connect(host, port) {
        try {
            return new EthControl(await OobChannel.connect(host, port), true);
        }
        catch (e) {
            throw new PerfError(`Couldn't connect to ${host}:${port}${e instanceof OobError ? '' : ` (${e.message})`}`);
        }
    }
    /** `ethernet_server_connect`: listen on `bind:port`, take one connection, stop listening. */
    static async accept(bind, port, onListening) {
        try {
            return new EthControl(await OobChannel.accept(bind, port, 0, onListening), false);
        }
        catch (e) {
            throw new PerfError(`Couldn't listen to port ${port} (${e.message})`);
        }
    }
    check() {
        if (this.ch.closed && !this.finished)
            throw new PerfError('the peer closed the TCP connection');
    }
    async xchg(msg, n = msg.length) {
        try {
            return await this.ch.xchg(this.client, msg, n);
        }
        catch (e) {
            throw new PerfError(` Failed to exchange data between server and clients (${e.message})`);
        }
    }
    /** `ctx_hand_shake` with `ethernet_write_keys`/`ethernet_read_keys` (GID format: RoCE always has a GID index). */
    async handshake(my) {
        const out = encodePerftestKeys({ lid: my.lid, outReads: my.outReads, qpn: my.qpn, psn: my.psn, rkey: my.rkey >>> 0, vaddr: my.vaddr, gid: my.gid, srqn: my.srqn >>> 0 });
        let k;
        try {
            k = decodePerftestKeys(await this.xchg(out, PERFTEST_KEYS_LEN));
        }
        catch (e) {
            if (e instanceof OobError)
                throw new PerfError(`ethernet_read_keys: Couldn't parse the remote address (${e.message})`);
            throw e;
        }
        return { lid: k.lid, outReads: k.outReads, qpn: k.qpn, psn: k.psn, rkey: k.rkey, vaddr: k.vaddr, gid: k.gid, srqn: k.srqn, gidIndex: my.gidIndex };
    }
    /** The end of `ctx_close_connection` (after its handshake): "done", then close. */
    done() {
        this.finished = true;
        this.ch.writeLast(PP_DONE);
        this.ch.close();
    }
    /** Closes without the "done" (ib_write_lat has no close handshake; failures). */
    close() {
        this.finished = true;
        this.ch.close();
    }
}
/** `ctx_modify_qp_to_init`'s remote access per test: the one operation the peer performs. */
const INIT_ACCESS = {
    write: A.IBV_ACCESS_REMOTE_WRITE,
    read: A.IBV_ACCESS_REMOTE_READ,
    atomic: A.IBV_ACCESS_REMOTE_ATOMIC,
    send: A.IBV_ACCESS_REMOTE_WRITE | A.IBV_ACCESS_LOCAL_WRITE,
};
/** `ctx_qp_create` + `ctx_modify_qp_to_init` for an RC QP on an InfiniBand device. */
export function createIbRcQp(pd, scq, rcq, cap, verb) {
    const qp = ibv_create_qp(pd, {
        send_cq: scq,
        recv_cq: rcq,
        qp_type: ibv_qp_type.IBV_QPT_RC,
        cap: { ...cap, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 },
        sq_sig_all: 0,
    });
    if (!qp)
        throw new PerfError(` Couldn't create QP (errno ${getErrno()})`);
    const init = { qp_state: ibv_qp_state.IBV_QPS_INIT, pkey_index: 0, port_num: 1, qp_access_flags: INIT_ACCESS[verb] };
    const ret = ibv_modify_qp(qp, init, M.IBV_QP_STATE | M.IBV_QP_PKEY_INDEX | M.IBV_QP_PORT | M.IBV_QP_ACCESS_FLAGS);
    if (ret !== 0)
        throw new PerfError(`Failed to modify QP to INIT, ret=${ret}`);
    return qp;
}
/**
 * `ctx_connect` for one RC QP: RTR with the peer's QPN, PSN and GID (`is_global`, hop limit
 * 0xFF, our `sgid_index`), `max_dest_rd_atomic` = our outstanding reads, `min_rnr_timer` 12;
 * then, if `rts`, RTS with timeout 14, retry 7/7, our PSN and the peer's outstanding reads.
 */
export function connectIbRcQp(qp, my, rem, mtu, gidIndex, rts) {
    const ah = {
        is_global: 1,
        dlid: rem.lid,
        sl: 0,
        src_path_bits: 0,
        static_rate: 0,
        port_num: 1,
        grh: { dgid: { raw: rem.gid }, sgid_index: gidIndex, hop_limit: PERF_HOP_LIMIT, flow_label: 0, traffic_class: 0 },
    };
    const rtr = {
        qp_state: ibv_qp_state.IBV_QPS_RTR,
        ah_attr: ah,
        path_mtu: mtu,
        dest_qp_num: rem.qpn,
        rq_psn: rem.psn,
        max_dest_rd_atomic: my.outReads,
        min_rnr_timer: PERF_MIN_RNR_TIMER,
    };
    const rtrMask = M.IBV_QP_STATE | M.IBV_QP_AV | M.IBV_QP_PATH_MTU | M.IBV_QP_DEST_QPN | M.IBV_QP_RQ_PSN | M.IBV_QP_MIN_RNR_TIMER | M.IBV_QP_MAX_DEST_RD_ATOMIC;
    if (ibv_modify_qp(qp, rtr, rtrMask) !== 0)
        throw new PerfError(`Failed to modify QP ${qp.qp_num} to RTR (errno ${getErrno()})`);
    if (!rts)
        return;
    const rtsAttr = { qp_state: ibv_qp_state.IBV_QPS_RTS, sq_psn: my.psn, timeout: PERF_QP_TIMEOUT, retry_cnt: 7, rnr_retry: 7, max_rd_atomic: rem.outReads };
    const rtsMask = M.IBV_QP_STATE | M.IBV_QP_SQ_PSN | M.IBV_QP_TIMEOUT | M.IBV_QP_RETRY_CNT | M.IBV_QP_RNR_RETRY | M.IBV_QP_MAX_QP_RD_ATOMIC;
    if (ibv_modify_qp(qp, rtsAttr, rtsMask) !== 0)
        throw new PerfError(`Failed to modify QP to RTS (errno ${getErrno()})`);
}
/** `ipv6_addr_v4mapped` of a raw GID. */
export function gidIsV4Mapped(g) {
    for (let i = 0; i < 10; i++)
        if (g[i] !== 0)
            return false;
    return g[10] === 0xff && g[11] === 0xff;
}
/**
 * The source GID of a run: `-x` when given, else perftest's `get_best_gid_index` on an
 * all-RoCE-v2 table, the first IPv4-mapped GID (index 0 if none is). Null when the index has no GID.
 */
export function pickGid(ctx, want) {
    let index = want;
    if (index < 0) {
        index = 0;
        const port = {};
        const n = queryPort(ctx, 1, port) === 0 ? port.gid_tbl_len : 0;
        for (let i = 0; i < n; i++) {
            const g = { raw: new Uint8Array(16) };
            if (queryGid(ctx, 1, i, g) === 0 && gidIsV4Mapped(g.raw)) {
                index = i;
                break;
            }
        }
    }
    const g = { raw: new Uint8Array(16) };
    if (queryGid(ctx, 1, index, g) !== 0)
        return null;
    return { index, gid: g.raw };
}
//# sourceMappingURL=perf-eth.js.map
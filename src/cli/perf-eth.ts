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
 *
 * `-c UD` (ib_send_bw, ib_send_lat): UD QPs with perftest's Q_Key 0x11111111 (`DEF_QKEY`) at INIT,
 * RTR and RTS with no path attributes, and an address handle to the peer's GID wherever the QP
 * sends (the client of a bandwidth test, both ends of a latency test).
 */
import { ibv_access_flags as A, type ibv_mtu, ibv_qp_attr_mask as M, ibv_qp_state, ibv_qp_type } from '../verbs/constants.js';
import { type Context, queryGid, queryPort } from '../verbs/device.js';
import { getErrno } from '../verbs/errno.js';
import { ibv_create_qp, ibv_modify_qp } from '../verbs/ibverbs.js';
import { ibv_create_ah } from '../verbs/index.js';
import type { ibv_ah, ibv_ah_attr, ibv_cq, ibv_gid, ibv_pd, ibv_port_attr, ibv_qp } from '../verbs/types.js';
import { decodePerftestKeys, encodePerftestKeys, OobChannel, OobError, PERFTEST_KEYS_LEN, PP_DONE } from './oob.js';
import { type CtlChannel, PerfError, type PingpongDest } from './perf-proto.js';

/** perftest's `MIN_RNR_TIMER` (0.64 ms, IBTA Vol. 1 Table 45) and `DEF_QP_TIME` (4.096 µs × 2^14 ≈ 67 ms). */
export const PERF_MIN_RNR_TIMER = 12;
export const PERF_QP_TIMEOUT = 14;
/** perftest's GRH hop limit on RoCE. */
const PERF_HOP_LIMIT = 0xff;
/** perftest's `DEF_QKEY`: the Q_Key of its UD QPs (both ends, every datagram). */
export const PERF_UD_QKEY = 0x11111111;

/** The control "channel" of a run without rdma_cm: the TCP side channel. */
export class EthControl implements CtlChannel {
  finished = false;

  private constructor(
    readonly ch: OobChannel,
    readonly client: boolean,
  ) {
    // The server waits in a handshake for the whole of the client's run: no read timeout.
    ch.timeoutMs = 0;
  }

  /** `ethernet_client_connect`: one attempt, as perftest (the server must be listening). */
  static async connect(host: string, port: number): Promise<EthControl> {
    try {
      return new EthControl(await OobChannel.connect(host, port), true);
    } catch (e) {
      throw new PerfError(`Couldn't connect to ${host}:${port}${e instanceof OobError ? '' : ` (${(e as Error).message})`}`);
    }
  }

  /** `ethernet_server_connect`: listen on `bind:port`, take one connection, stop listening. */
  static async accept(bind: string, port: number, onListening?: (port: number) => void): Promise<EthControl> {
    try {
      return new EthControl(await OobChannel.accept(bind, port, 0, onListening), false);
    } catch (e) {
      throw new PerfError(`Couldn't listen to port ${port} (${(e as Error).message})`);
    }
  }

  check(): void {
    if (this.ch.closed && !this.finished) throw new PerfError('the peer closed the TCP connection');
  }

  async xchg(msg: Uint8Array, n = msg.length): Promise<Uint8Array> {
    try {
      return await this.ch.xchg(this.client, msg, n);
    } catch (e) {
      throw new PerfError(` Failed to exchange data between server and clients (${(e as Error).message})`);
    }
  }

  /** `ctx_hand_shake` with `ethernet_write_keys`/`ethernet_read_keys` (GID format: RoCE always has a GID index). */
  async handshake(my: PingpongDest): Promise<PingpongDest> {
    const out = encodePerftestKeys({
      lid: my.lid,
      outReads: my.outReads,
      qpn: my.qpn,
      psn: my.psn,
      rkey: my.rkey >>> 0,
      vaddr: my.vaddr,
      gid: my.gid,
      srqn: my.srqn >>> 0,
    });
    let k: ReturnType<typeof decodePerftestKeys>;
    try {
      k = decodePerftestKeys(await this.xchg(out, PERFTEST_KEYS_LEN));
    } catch (e) {
      if (e instanceof OobError) throw new PerfError(`ethernet_read_keys: Couldn't parse the remote address (${e.message})`);
      throw e;
    }
    return {
      lid: k.lid,
      outReads: k.outReads,
      qpn: k.qpn,
      psn: k.psn,
      rkey: k.rkey,
      vaddr: k.vaddr,
      gid: k.gid,
      srqn: k.srqn,
      gidIndex: my.gidIndex,
    };
  }

  /** The end of `ctx_close_connection` (after its handshake): "done", then close. */
  done(): void {
    this.finished = true;
    this.ch.writeLast(PP_DONE);
    this.ch.close();
  }

  /** Closes without the "done" (ib_write_lat has no close handshake; failures). */
  close(): void {
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
} as const;

/**
 * `ctx_qp_create` + `ctx_modify_qp_to_init` on an InfiniBand device: the QP (one SGE each way, no
 * inline data), then INIT with P_Key index 0, port 1 and `init` (RC: the test's remote access;
 * UD: perftest's Q_Key), whose attribute bits are `mask`.
 */
function createIbQp(
  pd: ibv_pd,
  scq: ibv_cq,
  rcq: ibv_cq,
  cap: { max_send_wr: number; max_recv_wr: number },
  qpType: ibv_qp_type,
  init: object,
  mask: number,
): ibv_qp {
  const qp = ibv_create_qp(pd, {
    send_cq: scq,
    recv_cq: rcq,
    qp_type: qpType,
    cap: { ...cap, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 },
    sq_sig_all: 0,
  });
  if (!qp) throw new PerfError(` Couldn't create QP (errno ${getErrno()})`);
  const attr = { qp_state: ibv_qp_state.IBV_QPS_INIT, pkey_index: 0, port_num: 1, ...init };
  const ret = ibv_modify_qp(qp, attr, M.IBV_QP_STATE | M.IBV_QP_PKEY_INDEX | M.IBV_QP_PORT | mask);
  if (ret !== 0) throw new PerfError(`Failed to modify QP to INIT, ret=${ret}`);
  return qp;
}

/** An RC QP in INIT with the test's remote access. */
export function createIbRcQp(
  pd: ibv_pd,
  scq: ibv_cq,
  rcq: ibv_cq,
  cap: { max_send_wr: number; max_recv_wr: number },
  verb: keyof typeof INIT_ACCESS,
): ibv_qp {
  return createIbQp(pd, scq, rcq, cap, ibv_qp_type.IBV_QPT_RC, { qp_access_flags: INIT_ACCESS[verb] }, M.IBV_QP_ACCESS_FLAGS);
}

/** A UD QP (`-c UD`) in INIT with perftest's Q_Key. */
export function createIbUdQp(pd: ibv_pd, scq: ibv_cq, rcq: ibv_cq, cap: { max_send_wr: number; max_recv_wr: number }): ibv_qp {
  return createIbQp(pd, scq, rcq, cap, ibv_qp_type.IBV_QPT_UD, { qkey: PERF_UD_QKEY }, M.IBV_QP_QKEY);
}

/** The address vector toward the peer (`ctx_modify_qp_to_rtr`): its GID, our `sgid_index`, hop limit 0xFF. */
function perfAv(rem: PingpongDest, gidIndex: number): ibv_ah_attr {
  return {
    is_global: 1,
    dlid: rem.lid,
    sl: 0,
    src_path_bits: 0,
    static_rate: 0,
    port_num: 1,
    grh: { dgid: { raw: rem.gid }, sgid_index: gidIndex, hop_limit: PERF_HOP_LIMIT, flow_label: 0, traffic_class: 0 },
  } as ibv_ah_attr;
}

/**
 * `ctx_connect` for one UD QP: RTR, and, if `rts` (the QP sends), RTS with our PSN and an address
 * handle to the peer. Returns the address handle, or null when the QP only receives.
 */
export function connectIbUdQp(qp: ibv_qp, pd: ibv_pd, my: PingpongDest, rem: PingpongDest, gidIndex: number, rts: boolean): ibv_ah | null {
  if (ibv_modify_qp(qp, { qp_state: ibv_qp_state.IBV_QPS_RTR }, M.IBV_QP_STATE) !== 0)
    throw new PerfError(`Failed to modify QP ${qp.qp_num} to RTR (errno ${getErrno()})`);
  if (!rts) return null;
  if (ibv_modify_qp(qp, { qp_state: ibv_qp_state.IBV_QPS_RTS, sq_psn: my.psn }, M.IBV_QP_STATE | M.IBV_QP_SQ_PSN) !== 0) {
    throw new PerfError(`Failed to modify QP to RTS (errno ${getErrno()})`);
  }
  const ah = ibv_create_ah(pd, perfAv(rem, gidIndex));
  if (!ah) throw new PerfError(`Failed to create AH (errno ${getErrno()})`);
  return ah;
}

/**
 * `ctx_connect` for one RC QP: RTR with the peer's QPN, PSN and GID (`is_global`, hop limit
 * 0xFF, our `sgid_index`), `max_dest_rd_atomic` = our outstanding reads, `min_rnr_timer` 12;
 * then, if `rts`, RTS with timeout 14, retry 7/7, our PSN and the peer's outstanding reads.
 */
export function connectIbRcQp(qp: ibv_qp, my: PingpongDest, rem: PingpongDest, mtu: ibv_mtu, gidIndex: number, rts: boolean): void {
  const ah = perfAv(rem, gidIndex);
  const rtr = {
    qp_state: ibv_qp_state.IBV_QPS_RTR,
    ah_attr: ah,
    path_mtu: mtu,
    dest_qp_num: rem.qpn,
    rq_psn: rem.psn,
    max_dest_rd_atomic: my.outReads,
    min_rnr_timer: PERF_MIN_RNR_TIMER,
  };
  const rtrMask =
    M.IBV_QP_STATE |
    M.IBV_QP_AV |
    M.IBV_QP_PATH_MTU |
    M.IBV_QP_DEST_QPN |
    M.IBV_QP_RQ_PSN |
    M.IBV_QP_MIN_RNR_TIMER |
    M.IBV_QP_MAX_DEST_RD_ATOMIC;
  if (ibv_modify_qp(qp, rtr, rtrMask) !== 0) throw new PerfError(`Failed to modify QP ${qp.qp_num} to RTR (errno ${getErrno()})`);
  if (!rts) return;
  const rtsAttr = {
    qp_state: ibv_qp_state.IBV_QPS_RTS,
    sq_psn: my.psn,
    timeout: PERF_QP_TIMEOUT,
    retry_cnt: 7,
    rnr_retry: 7,
    max_rd_atomic: rem.outReads,
  };
  const rtsMask = M.IBV_QP_STATE | M.IBV_QP_SQ_PSN | M.IBV_QP_TIMEOUT | M.IBV_QP_RETRY_CNT | M.IBV_QP_RNR_RETRY | M.IBV_QP_MAX_QP_RD_ATOMIC;
  if (ibv_modify_qp(qp, rtsAttr, rtsMask) !== 0) throw new PerfError(`Failed to modify QP to RTS (errno ${getErrno()})`);
}

/** `ipv6_addr_v4mapped` of a raw GID. */
export function gidIsV4Mapped(g: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (g[i] !== 0) return false;
  return g[10] === 0xff && g[11] === 0xff;
}

/**
 * The source GID of a run: `-x` when given, else perftest's `get_best_gid_index` on an
 * all-RoCE-v2 table, the first IPv4-mapped GID (index 0 if none is). Null when the index has no GID.
 */
export function pickGid(ctx: Context, want: number): { index: number; gid: Uint8Array } | null {
  let index = want;
  if (index < 0) {
    index = 0;
    const port = {} as ibv_port_attr;
    const n = queryPort(ctx, 1, port) === 0 ? port.gid_tbl_len : 0;
    for (let i = 0; i < n; i++) {
      const g: ibv_gid = { raw: new Uint8Array(16) };
      if (queryGid(ctx, 1, i, g) === 0 && gidIsV4Mapped(g.raw)) {
        index = i;
        break;
      }
    }
  }
  const g: ibv_gid = { raw: new Uint8Array(16) };
  if (queryGid(ctx, 1, index, g) !== 0) return null;
  return { index, gid: g.raw };
}

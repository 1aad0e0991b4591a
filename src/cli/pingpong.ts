/**
 * `softrdma pingpong rc|uc|ud|srq`: rdma-core's `ibv_rc_pingpong`, `ibv_uc_pingpong`,
 * `ibv_ud_pingpong` and `ibv_srq_pingpong` (libibverbs/examples), wire-compatible with them
 * over RoCEv2: the same flags, the same output, the same CM-less TCP exchange of
 * LID:QPN:PSN:GID (src/cli/oob.ts), the same QP attributes, so either side can be the real
 * program.
 *
 * The exchange: the client writes its address, the server moves its QP to RTR/RTS with it
 * (RC/UC) or creates its address handle (UD) and answers with its own, the client does the
 * same and writes "done". Then they ping-pong `iters` messages of `size` octets: the client
 * sends first, each side sends its next message once its previous Send completed and the
 * peer's message arrived (rdma-core's `pending` bits).
 *
 * srq: `-q` RC QPs (default 16) share one CQ and one shared receive queue; each QP ping-pongs
 * on its own, and the exchange carries `MAX_QP` (256) addresses each way whatever `-q` is
 * (the unused ones all zero), as `srq_pingpong.c` writes and reads its whole `my_dest` array.
 */
import { randomInt } from 'node:crypto';
import { setImmediate as yieldLoop } from 'node:timers/promises';
import {
  ibv_access_flags as A,
  ibv_mtu,
  ibv_qp_attr_mask as M,
  ibv_qp_state,
  ibv_qp_type,
  ibv_transport_type,
  ibv_send_flags,
  ibv_wc_status,
  ibv_wc_status_str,
  ibv_wr_opcode,
} from '../verbs/constants.js';
import {
  ibv_ack_cq_events,
  ibv_alloc_pd,
  ibv_create_comp_channel,
  ibv_create_cq,
  ibv_create_srq,
  ibv_dealloc_pd,
  ibv_dereg_mr,
  ibv_destroy_comp_channel,
  ibv_destroy_cq,
  ibv_destroy_qp,
  ibv_destroy_srq,
  ibv_get_cq_event,
  ibv_modify_qp,
  ibv_poll_cq,
  ibv_post_recv,
  ibv_post_send,
  ibv_post_srq_recv,
  ibv_reg_mr,
  ibv_req_notify_cq,
  newWc,
} from '../verbs/ibverbs.js';
import {
  ibv_close_device,
  ibv_create_ah,
  ibv_create_qp,
  ibv_destroy_ah,
  ibv_get_device_list,
  ibv_get_device_name,
  ibv_open_device,
  ibv_query_gid,
  ibv_query_port,
} from '../verbs/index.js';
import type { ibv_ah, ibv_comp_channel, ibv_context, ibv_cq, ibv_mr, ibv_pd, ibv_qp, ibv_srq, ibv_wc } from '../verbs/types.js';
import { ipv6Text } from '../wire/ib/gid-address.js';
import type { CliIo } from './cli.js';
import { command, parseCommand, UsageError } from './spec.js';
import {
  decodePpDest,
  encodePpDest,
  OOB_DEFAULT_PORT,
  OobChannel,
  OobError,
  type OobListener,
  PP_DONE,
  PP_MSG_LEN,
  type PpDest,
} from './oob.js';
import { GRH_LEN } from '../wire/ib/constants.js';

const RECV_WRID = 1n;
const SEND_WRID = 2n;
/** The UD Q_Key both programs use. */
const UD_QKEY = 0x11111111;
/** The C programs' `page_size` (sysconf), which -c's marks are spaced by. */
const PAGE = 4096;
/** UD receive buffers start with the 40-octet GRH (IBTA Vol. 1 §11.4.1.1). */
const GRH = GRH_LEN;
/** `srq_pingpong.c`'s `MAX_QP`: addresses exchanged each way, and the bound on `-q`. */
export const SRQ_MAX_QP = 256;

type Kind = 'rc' | 'uc' | 'ud' | 'srq';

interface Opts {
  kind: Kind;
  server: string | null;
  port: number;
  dev: string | null;
  ibPort: number;
  size: number;
  mtu: ibv_mtu;
  rxDepth: number;
  iters: number;
  sl: number;
  events: boolean;
  gidx: number;
  chk: boolean;
  /** srq: QPs sharing the receive queue; 1 otherwise. */
  numQp: number;
}

class PpError extends Error {}

const MTUS: Record<number, ibv_mtu> = {
  256: ibv_mtu.IBV_MTU_256,
  512: ibv_mtu.IBV_MTU_512,
  1024: ibv_mtu.IBV_MTU_1024,
  2048: ibv_mtu.IBV_MTU_2048,
  4096: ibv_mtu.IBV_MTU_4096,
};

function parse(args: string[]): Opts {
  const spec = command('pingpong')!;
  const [kind, ...rest] = args;
  if (kind !== 'rc' && kind !== 'uc' && kind !== 'ud' && kind !== 'srq')
    throw new UsageError(`softrdma pingpong: say rc, uc, ud or srq (got ${kind === undefined ? 'nothing' : `'${kind}'`})`);
  const { values, positionals, numbers: n } = parseCommand(spec, rest, kind);
  const v = values as Partial<Record<'events' | 'chk' | 'new_send' | 'odp' | 'iodp' | 'prefetch' | 'ts' | 'dm', boolean>> & {
    'ib-dev'?: string;
    mtu?: string;
  };
  // rc_pingpong's options for features a software device lacks, with rdma-core's messages.
  if (v.odp || v.iodp || v.prefetch) throw new PpError("The device isn't ODP capable or does not support RC send and receive with ODP");
  if (v.ts) throw new PpError("The device isn't completion timestamp capable");
  if (v.dm) throw new PpError("Device doesn't support dm allocation");
  if (positionals.length > 1) throw new UsageError(`softrdma pingpong ${kind}: at most one HOST (got '${positionals[1]}')`);
  const mtu = MTUS[Number(v.mtu ?? 1024)]!;
  const rxDepth = n['rx-depth'] ?? 500;
  const numQp = kind === 'srq' ? (n['num-qp'] ?? 16) : 1;
  if (numQp > rxDepth) throw new PpError(`rx_depth ${rxDepth} is too small for ${numQp} QPs -- must have at least one receive per QP.`);
  return {
    kind,
    server: positionals[0] ?? null,
    port: n.port ?? OOB_DEFAULT_PORT,
    dev: v['ib-dev'] ?? null,
    ibPort: n['ib-port'] ?? 1,
    size: n.size ?? (kind === 'ud' ? 2048 : 4096),
    mtu,
    rxDepth,
    iters: n.iters ?? 1000,
    sl: n.sl ?? 0,
    events: v.events ?? false,
    gidx: n['gid-idx'] ?? -1,
    chk: v.chk ?? false,
    numQp,
  };
}

/** `inet_ntop(AF_INET6, gid)`, as the C programs print GIDs. */
export function gidText(g: Uint8Array): string {
  // IPv4-mapped (::ffff:a.b.c.d) prints as glibc prints it; the rest as RFC 5952 text.
  if (g.subarray(0, 10).every((x) => x === 0) && g[10] === 0xff && g[11] === 0xff) return `::ffff:${g[12]}.${g[13]}.${g[14]}.${g[15]}`;
  return ipv6Text(g);
}

const hx = (v: number, w: number) => `0x${v.toString(16).padStart(w, '0')}`;

/** One side's resources (rdma-core's `struct pingpong_context`). */
class Ctx {
  ctx!: ibv_context;
  ch: ibv_comp_channel | null = null;
  pd!: ibv_pd;
  mr!: ibv_mr;
  cq!: ibv_cq;
  /** srq: the shared receive queue of every QP. */
  srq: ibv_srq | null = null;
  /** One QP (rc, uc, ud) or `-q` of them (srq). */
  readonly qps: ibv_qp[] = [];
  ah: ibv_ah | null = null;
  buf!: Uint8Array;
  events = 0;

  constructor(readonly o: Opts) {}

  /** Octets in front of the payload in the buffer: the GRH of a UD receive. */
  get extra(): number {
    return this.o.kind === 'ud' ? GRH : 0;
  }

  open(): void {
    const o = this.o;
    const list = ibv_get_device_list() ?? [];
    const dev =
      o.dev === null
        ? (list.find((d) => ibv_get_device_name(d)?.startsWith('softroce')) ?? list[0])
        : list.find((d) => ibv_get_device_name(d) === o.dev);
    if (!dev) throw new PpError(o.dev === null ? 'No IB devices found' : `IB device ${o.dev} not found`);
    if (dev.transport_type !== ibv_transport_type.IBV_TRANSPORT_IB) {
      throw new PpError(
        `${ibv_get_device_name(dev)} is an iWARP device: ibv_${o.kind}_pingpong connects its QPs with ibv_modify_qp and no connection manager, and an iWARP QP is connected only by its MPA exchange (RFC 6581); use -d softroce0, or softrdma rping / softrdma perf on ${ibv_get_device_name(dev)}`,
      );
    }
    const ctx = ibv_open_device(dev);
    if (!ctx) throw new PpError(`Couldn't get context for ${ibv_get_device_name(dev)}`);
    this.ctx = ctx;
    const port = {} as Parameters<typeof ibv_query_port>[2];
    if (ibv_query_port(ctx, o.ibPort, port) !== 0) throw new PpError(`Unable to query port info for port ${o.ibPort}`);
    if (o.kind === 'ud') {
      const mtu = 1 << ((port as { active_mtu: number }).active_mtu + 7);
      if (o.size > mtu) throw new PpError(`Requested size larger than port MTU (${mtu})`);
    }
    // rc/uc/ud fill the buffer with 0x7b; srq_pingpong zeroes it.
    this.buf = new Uint8Array(o.size + this.extra).fill(o.kind === 'srq' ? 0 : 0x7b);
    if (o.events) {
      this.ch = ibv_create_comp_channel(ctx);
      if (!this.ch) throw new PpError("Couldn't create completion channel");
    }
    const pd = ibv_alloc_pd(ctx);
    if (!pd) throw new PpError("Couldn't allocate PD");
    this.pd = pd;
    const mr = ibv_reg_mr(pd, this.buf, this.buf.length, A.IBV_ACCESS_LOCAL_WRITE);
    if (!mr) throw new PpError("Couldn't register MR");
    this.mr = mr;
    const cq = ibv_create_cq(ctx, o.rxDepth + o.numQp, null, this.ch, 0);
    if (!cq) throw new PpError("Couldn't create CQ");
    this.cq = cq;
    if (o.kind === 'srq') {
      this.srq = ibv_create_srq(pd, { attr: { max_wr: o.rxDepth, max_sge: 1, srq_limit: 0 } });
      if (!this.srq) throw new PpError("Couldn't create SRQ");
    }
    const type = o.kind === 'uc' ? ibv_qp_type.IBV_QPT_UC : o.kind === 'ud' ? ibv_qp_type.IBV_QPT_UD : ibv_qp_type.IBV_QPT_RC;
    for (let i = 0; i < o.numQp; i++) {
      const init: Record<string, unknown> = {
        send_cq: cq,
        recv_cq: cq,
        qp_type: type,
        cap: { max_send_wr: 1, max_recv_wr: this.srq ? 0 : o.rxDepth, max_send_sge: 1, max_recv_sge: this.srq ? 0 : 1, max_inline_data: 0 },
      };
      if (this.srq) init.srq = this.srq;
      const qp = ibv_create_qp(pd, init);
      if (!qp) throw new PpError(o.kind === 'srq' ? `Couldn't create QP[${i}]` : "Couldn't create QP");
      this.qps.push(qp);
    }
    for (const [i, qp] of this.qps.entries()) {
      const attr: Record<string, unknown> = { qp_state: ibv_qp_state.IBV_QPS_INIT, pkey_index: 0, port_num: o.ibPort };
      let mask = M.IBV_QP_STATE | M.IBV_QP_PKEY_INDEX | M.IBV_QP_PORT;
      if (o.kind === 'ud') {
        attr.qkey = UD_QKEY;
        mask |= M.IBV_QP_QKEY;
      } else {
        attr.qp_access_flags = 0;
        mask |= M.IBV_QP_ACCESS_FLAGS;
      }
      if (ibv_modify_qp(qp, attr, mask) !== 0)
        throw new PpError(o.kind === 'srq' ? `Failed to modify QP[${i}] to INIT` : 'Failed to modify QP to INIT');
    }
  }

  /** The address of each QP: LID 0 on RoCE, the QPN, a random PSN, the GID at `-g` (all zero without). */
  myDests(): PpDest[] {
    const o = this.o;
    const port = {} as Parameters<typeof ibv_query_port>[2];
    ibv_query_port(this.ctx, o.ibPort, port);
    const gid = { raw: new Uint8Array(16) };
    if (o.gidx >= 0 && ibv_query_gid(this.ctx, o.ibPort, o.gidx, gid) !== 0) {
      throw new PpError(o.kind === 'rc' ? `can't read sgid of index ${o.gidx}` : `Could not get local gid for gid index ${o.gidx}`);
    }
    const lid = (port as { lid?: number }).lid ?? 0;
    return this.qps.map((qp) => ({ lid, qpn: qp.qp_num, psn: randomInt(0, 0x1000000), gid: gid.raw }));
  }

  /**
   * `pp_connect_ctx`: RTR and RTS (RC/UC/SRQ) or the address handle (UD). As rdma-core, the
   * path is global (a GRH, hop limit 1, our `-g` GID index) when the peer's GID has a non-zero
   * interface ID — the first peer's, for every QP of srq.
   */
  connect(my: PpDest[], dest: PpDest[]): void {
    const o = this.o;
    const global = dest[0]!.gid.subarray(8).some((b) => b !== 0);
    const ahOf = (d: PpDest) => ({
      is_global: global ? 1 : 0,
      dlid: d.lid,
      sl: o.sl,
      src_path_bits: 0,
      static_rate: 0,
      port_num: o.ibPort,
      grh: { dgid: { raw: d.gid }, sgid_index: o.gidx < 0 ? 0 : o.gidx, hop_limit: 1, flow_label: 0, traffic_class: 0 },
    });
    if (o.kind === 'ud') {
      const qp = this.qps[0]!;
      if (ibv_modify_qp(qp, { qp_state: ibv_qp_state.IBV_QPS_RTR }, M.IBV_QP_STATE) !== 0) throw new PpError('Failed to modify QP to RTR');
      if (ibv_modify_qp(qp, { qp_state: ibv_qp_state.IBV_QPS_RTS, sq_psn: my[0]!.psn }, M.IBV_QP_STATE | M.IBV_QP_SQ_PSN) !== 0) {
        throw new PpError('Failed to modify QP to RTS');
      }
      this.ah = ibv_create_ah(this.pd, ahOf(dest[0]!));
      if (!this.ah) throw new PpError('Failed to create AH');
      return;
    }
    const reliable = o.kind !== 'uc';
    const what = (i: number, st: string) => (o.kind === 'srq' ? `Failed to modify QP[${i}] to ${st}` : `Failed to modify QP to ${st}`);
    for (const [i, qp] of this.qps.entries()) {
      const d = dest[i]!;
      const rtr: Record<string, unknown> = {
        qp_state: ibv_qp_state.IBV_QPS_RTR,
        path_mtu: o.mtu,
        dest_qp_num: d.qpn,
        rq_psn: d.psn,
        ah_attr: ahOf(d),
      };
      let mask = M.IBV_QP_STATE | M.IBV_QP_AV | M.IBV_QP_PATH_MTU | M.IBV_QP_DEST_QPN | M.IBV_QP_RQ_PSN;
      if (reliable) {
        Object.assign(rtr, { max_dest_rd_atomic: 1, min_rnr_timer: 12 });
        mask |= M.IBV_QP_MAX_DEST_RD_ATOMIC | M.IBV_QP_MIN_RNR_TIMER;
      }
      if (ibv_modify_qp(qp, rtr, mask) !== 0) throw new PpError(what(i, 'RTR'));
      const rts: Record<string, unknown> = { qp_state: ibv_qp_state.IBV_QPS_RTS, sq_psn: my[i]!.psn };
      mask = M.IBV_QP_STATE | M.IBV_QP_SQ_PSN;
      if (reliable) {
        Object.assign(rts, { timeout: 14, retry_cnt: 7, rnr_retry: 7, max_rd_atomic: 1 });
        mask |= M.IBV_QP_TIMEOUT | M.IBV_QP_RETRY_CNT | M.IBV_QP_RNR_RETRY | M.IBV_QP_MAX_QP_RD_ATOMIC;
      }
      if (ibv_modify_qp(qp, rts, mask) !== 0) throw new PpError(what(i, 'RTS'));
    }
  }

  /** Posts up to `n` receives (on the SRQ for srq); returns how many were posted. */
  postRecv(n: number): number {
    const sge = { addr: this.mr.addr, length: this.o.size + this.extra, lkey: this.mr.lkey };
    const wr = { wr_id: RECV_WRID, sg_list: [sge], num_sge: 1 };
    let i = 0;
    for (; i < n; i++) {
      const r = this.srq ? ibv_post_srq_recv(this.srq, wr) : ibv_post_recv(this.qps[0]!, wr);
      if (r.ret !== 0) break;
    }
    return i;
  }

  postSend(qpIndex: number, remoteQpn: number): number {
    const sge = { addr: this.mr.addr + BigInt(this.extra), length: this.o.size, lkey: this.mr.lkey };
    const wr: Record<string, unknown> = {
      wr_id: SEND_WRID,
      sg_list: [sge],
      num_sge: 1,
      opcode: ibv_wr_opcode.IBV_WR_SEND,
      send_flags: ibv_send_flags.IBV_SEND_SIGNALED,
    };
    if (this.o.kind === 'ud') wr.wr = { ud: { ah: this.ah, remote_qpn: remoteQpn, remote_qkey: UD_QKEY } };
    return ibv_post_send(this.qps[qpIndex]!, wr).ret;
  }

  /** Waits for completions: on the channel with -e, else by polling with a turn of the event loop between polls (the wire runs on it). */
  async poll(wc: ibv_wc[]): Promise<number> {
    for (;;) {
      if (this.ch) {
        const ev = await ibv_get_cq_event(this.ch);
        if (ev.ret !== 0) throw new PpError('Failed to get cq_event');
        this.events++;
        if (ev.cq !== this.cq) throw new PpError('CQ event for unknown CQ');
        if (ibv_req_notify_cq(this.cq, 0) !== 0) throw new PpError("Couldn't request CQ notification");
        const n = ibv_poll_cq(this.cq, wc.length, wc);
        if (n < 0) throw new PpError(`poll CQ failed ${n}`);
        return n;
      }
      const n = ibv_poll_cq(this.cq, wc.length, wc);
      if (n < 0) throw new PpError(`poll CQ failed ${n}`);
      if (n > 0) return n;
      await yieldLoop();
    }
  }

  close(): void {
    if (this.events) ibv_ack_cq_events(this.cq, this.events);
    for (const qp of this.qps.splice(0)) ibv_destroy_qp(qp);
    if (this.srq) ibv_destroy_srq(this.srq);
    if (this.cq) ibv_destroy_cq(this.cq);
    if (this.mr) ibv_dereg_mr(this.mr);
    if (this.ah) ibv_destroy_ah(this.ah);
    if (this.pd) ibv_dealloc_pd(this.pd);
    if (this.ch) ibv_destroy_comp_channel(this.ch);
    if (this.ctx) ibv_close_device(this.ctx);
  }
}

const ZERO_DEST: PpDest = { lid: 0, qpn: 0, psn: 0, gid: new Uint8Array(16) };

/**
 * The TCP exchange (`pp_client_exch_dest` / `pp_server_exch_dest`): one address per QP — for
 * srq, `MAX_QP` of them each way, ours padded with zero addresses and the peer's beyond `-q`
 * ignored. The server connects its QPs between reading and answering.
 */
async function exchange(c: Ctx, my: PpDest[], listener: OobListener | null): Promise<PpDest[]> {
  const o = c.o;
  const count = o.kind === 'srq' ? SRQ_MAX_QP : 1;
  const out = Buffer.concat(Array.from({ length: count }, (_, i) => encodePpDest(my[i] ?? ZERO_DEST)));
  const readAll = async (ch: OobChannel): Promise<PpDest[]> => {
    const got: PpDest[] = [];
    for (let i = 0; i < count; i++) got.push(decodePpDest(await ch.read(PP_MSG_LEN)));
    return got.slice(0, o.numQp);
  };
  if (o.server) {
    const ch = await OobChannel.connect(o.server, o.port);
    try {
      ch.write(out);
      const rem = await readAll(ch);
      ch.write(PP_DONE);
      return rem;
    } finally {
      ch.close();
    }
  }
  const ch = await listener!.accept();
  try {
    const rem = await readAll(ch);
    c.connect(my, rem);
    ch.write(out);
    // The client's "done" (5 octets; srq_pingpong reads up to a whole message's worth).
    await ch.read(PP_DONE.length).catch(() => null);
    return rem;
  } finally {
    ch.close();
  }
}

/** Runs one pingpong; resolves with the exit code. */
export async function pingpong(args: string[], io: CliIo): Promise<number> {
  let o: Opts;
  try {
    o = parse(args);
  } catch (e) {
    if (!(e instanceof PpError)) throw e;
    io.err(`${e.message}\n`);
    return 1;
  }
  const c = new Ctx(o);
  let listener: OobListener | null = null;
  try {
    c.open();
    // A server listens before it prints anything, so that a busy port is the first thing said.
    if (!o.server) listener = await OobChannel.listen(undefined, o.port);
    let routs = c.postRecv(o.rxDepth);
    if (routs < o.rxDepth) throw new PpError(`Couldn't post receive (${routs})`);
    if (c.ch && ibv_req_notify_cq(c.cq, 0) !== 0) throw new PpError("Couldn't request CQ notification");
    const my = c.myDests();
    for (const d of my) io.out(`  local address:  LID ${hx(d.lid, 4)}, QPN ${hx(d.qpn, 6)}, PSN ${hx(d.psn, 6)}, GID ${gidText(d.gid)}\n`);
    const rem = await exchange(c, my, listener);
    for (const d of rem) io.out(`  remote address: LID ${hx(d.lid, 4)}, QPN ${hx(d.qpn, 6)}, PSN ${hx(d.psn, 6)}, GID ${gidText(d.gid)}\n`);
    if (o.server) c.connect(my, rem);
    const n = o.numQp;
    const pending: bigint[] = new Array(n).fill(RECV_WRID);
    // -c as the C programs do it: the client marks the first octet of every page of its
    // payload (with i / page_size % sizeof(char), i.e. 0), the server checks those at the end.
    if (o.server && o.chk) for (let i = 0; i < o.size; i += PAGE) c.buf[c.extra + i] = 0;
    if (o.server) {
      for (let i = 0; i < n; i++) {
        if (c.postSend(i, rem[i]!.qpn) !== 0) throw new PpError("Couldn't post send");
        pending[i] = RECV_WRID | SEND_WRID;
      }
    }
    const byQpn = new Map(c.qps.map((qp, i) => [qp.qp_num, i]));
    const t0 = process.hrtime.bigint();
    let rcnt = 0;
    let scnt = 0;
    // srq_pingpong counts sends and receives over all its QPs (its help says "per QP", its loop
    // stops at `iters` in total).
    const wc = Array.from({ length: o.rxDepth + n }, () => newWc());
    // Refill the receive queue when it runs this low (srq: one receive per QP).
    const low = o.kind === 'srq' ? n : 1;
    while (rcnt < o.iters || scnt < o.iters) {
      const ne = await c.poll(wc);
      for (let i = 0; i < ne; i++) {
        const w = wc[i]!;
        if (w.status !== ibv_wc_status.IBV_WC_SUCCESS)
          throw new PpError(`Failed status ${ibv_wc_status_str(w.status)} (${w.status}) for wr_id ${Number(w.wr_id)}`);
        const q = byQpn.get(w.qp_num);
        if (q === undefined) throw new PpError(`Couldn't find QPN ${w.qp_num.toString(16).padStart(6, '0')}`);
        if (w.wr_id === SEND_WRID) scnt++;
        else if (w.wr_id === RECV_WRID) {
          if (--routs <= low) {
            routs += c.postRecv(o.rxDepth - routs);
            if (routs < o.rxDepth) throw new PpError(`Couldn't post receive (${routs})`);
          }
          rcnt++;
        } else throw new PpError(`Completion for unknown wr_id ${Number(w.wr_id)}`);
        pending[q] = pending[q]! & ~w.wr_id;
        if (scnt < o.iters && pending[q] === 0n) {
          if (c.postSend(q, rem[q]!.qpn) !== 0) throw new PpError("Couldn't post send");
          pending[q] = RECV_WRID | SEND_WRID;
        }
      }
    }
    const usec = Number(process.hrtime.bigint() - t0) / 1000;
    const bytes = o.size * o.iters * 2;
    io.out(`${bytes} bytes in ${(usec / 1e6).toFixed(2)} seconds = ${((bytes * 8) / usec).toFixed(2)} Mbit/sec\n`);
    io.out(`${o.iters} iters in ${(usec / 1e6).toFixed(2)} seconds = ${(usec / o.iters).toFixed(2)} usec/iter\n`);
    if (!o.server && o.chk)
      for (let i = 0; i < o.size; i += PAGE) if (c.buf[c.extra + i] !== 0) io.out(`invalid data in page ${i / PAGE}\n`);
    return 0;
  } catch (e) {
    if (e instanceof PpError || e instanceof OobError) io.err(`${e.message}\n`);
    else io.err(`pingpong: ${(e as Error).message}\n`);
    return 1;
  } finally {
    listener?.close();
    c.close();
  }
}

/**
 * `softrdma pingpong rc|uc|ud`: rdma-core's `ibv_rc_pingpong`, `ibv_uc_pingpong` and
 * `ibv_ud_pingpong` (libibverbs/examples), wire-compatible with them over RoCEv2: the same
 * flags, the same output, the same CM-less TCP exchange of LID:QPN:PSN:GID (src/cli/oob.ts),
 * the same QP attributes, so either side can be the real program.
 *
 * The exchange: the client writes its address, the server moves its QP to RTR/RTS with it
 * (RC/UC) or creates its address handle (UD) and answers with its own, the client does the
 * same and writes "done". Then they ping-pong `iters` messages of `size` octets: the client
 * sends first, each side sends its next message once its previous Send completed and the
 * peer's message arrived (rdma-core's `pending` bits).
 */
import { randomInt } from 'node:crypto';
import { setImmediate as yieldLoop } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import {
  ibv_access_flags as A,
  ibv_mtu,
  ibv_qp_attr_mask as M,
  ibv_qp_state,
  ibv_qp_type,
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
  ibv_dealloc_pd,
  ibv_dereg_mr,
  ibv_destroy_cq,
  ibv_destroy_qp,
  ibv_get_cq_event,
  ibv_modify_qp,
  ibv_poll_cq,
  ibv_post_recv,
  ibv_post_send,
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
import type { ibv_ah, ibv_comp_channel, ibv_context, ibv_cq, ibv_mr, ibv_pd, ibv_qp, ibv_wc } from '../verbs/types.js';
import type { CliIo } from './cli.js';
import { decodePpDest, encodePpDest, OOB_DEFAULT_PORT, OobChannel, OobError, PP_DONE, PP_MSG_LEN, type PpDest } from './oob.js';

export const PINGPONG_HELP = `Usage: softrdma pingpong rc|uc|ud [options] [HOST]

rdma-core's ibv_rc_pingpong, ibv_uc_pingpong and ibv_ud_pingpong, interoperable with them
over RoCEv2 (device softroce0). Without HOST: start a server and wait for a connection.

Options:
  -p, --port=PORT        listen on/connect to TCP port PORT (default 18515)
  -d, --ib-dev=DEV       use device DEV (default: the first RoCE device)
  -i, --ib-port=PORT     use port PORT of the device (default 1)
  -s, --size=SIZE        size of message to exchange (default 4096; ud: 2048)
  -m, --mtu=SIZE         path MTU, 256 … 4096 (default 1024; rc and uc)
  -r, --rx-depth=DEPTH   number of receives to post at a time (default 500)
  -n, --iters=ITERS      number of exchanges (default 1000)
  -l, --sl=SL            service level value (default 0)
  -e, --events           sleep on CQ events (default poll)
  -g, --gid-idx=INDEX    local port GID index (RoCE needs one: see softrdma devinfo -v)
  -c, --chk              validate received buffers (client marks each page, server checks)
`;

const RECV_WRID = 1n;
const SEND_WRID = 2n;
/** The UD Q_Key both programs use. */
const UD_QKEY = 0x11111111;
/** The C programs' `page_size` (sysconf), which -c's marks are spaced by. */
const PAGE = 4096;
/** UD receive buffers start with the 40-octet GRH (IBTA Vol. 1 §11.4.1.1). */
const GRH = 40;

type Kind = 'rc' | 'uc' | 'ud';

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
}

class PpError extends Error {}

const MTUS: Record<number, ibv_mtu> = {
  256: ibv_mtu.IBV_MTU_256,
  512: ibv_mtu.IBV_MTU_512,
  1024: ibv_mtu.IBV_MTU_1024,
  2048: ibv_mtu.IBV_MTU_2048,
  4096: ibv_mtu.IBV_MTU_4096,
};

function int(v: string | undefined, name: string, min: number, max: number, dflt: number): number {
  if (v === undefined) return dflt;
  // strtol(…, 0): decimal, 0x hexadecimal or 0 octal.
  const n = /^0x[0-9a-f]+$/i.test(v) ? Number.parseInt(v, 16) : /^0[0-7]+$/.test(v) ? Number.parseInt(v, 8) : /^\d+$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw new PpError(`invalid ${name} '${v}' (${min} … ${max})`);
  return n;
}

function parse(args: string[]): Opts {
  const [kind, ...rest] = args;
  if (kind !== 'rc' && kind !== 'uc' && kind !== 'ud') throw new PpError(`pingpong: say rc, uc or ud (got ${kind ?? 'nothing'})`);
  const { values: v, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      port: { type: 'string', short: 'p' },
      'ib-dev': { type: 'string', short: 'd' },
      'ib-port': { type: 'string', short: 'i' },
      size: { type: 'string', short: 's' },
      mtu: { type: 'string', short: 'm' },
      'rx-depth': { type: 'string', short: 'r' },
      iters: { type: 'string', short: 'n' },
      sl: { type: 'string', short: 'l' },
      events: { type: 'boolean', short: 'e' },
      'gid-idx': { type: 'string', short: 'g' },
      chk: { type: 'boolean', short: 'c' },
    },
  });
  if (positionals.length > 1) throw new PpError('pingpong: at most one HOST');
  const mtuBytes = int(v.mtu, 'MTU', 256, 4096, 1024);
  const mtu = MTUS[mtuBytes];
  if (mtu === undefined) throw new PpError(`invalid MTU ${mtuBytes} (256, 512, 1024, 2048 or 4096)`);
  return {
    kind,
    server: positionals[0] ?? null,
    port: int(v.port, 'port', 0, 65535, OOB_DEFAULT_PORT),
    dev: v['ib-dev'] ?? null,
    ibPort: int(v['ib-port'], 'IB port', 1, 255, 1),
    size: int(v.size, 'size', 1, 1 << 30, kind === 'ud' ? 2048 : 4096),
    mtu,
    rxDepth: int(v['rx-depth'], 'rx depth', 1, 1 << 16, 500),
    iters: int(v.iters, 'iters', 1, 0x7fffffff, 1000),
    sl: int(v.sl, 'SL', 0, 15, 0),
    events: v.events ?? false,
    gidx: int(v['gid-idx'], 'GID index', -1, 255, -1),
    chk: v.chk ?? false,
  };
}

/** `inet_ntop(AF_INET6, gid)`, as the C programs print GIDs. */
export function gidText(g: Uint8Array): string {
  const w = Array.from({ length: 8 }, (_, i) => (g[2 * i]! << 8) | g[2 * i + 1]!);
  // IPv4-mapped (::ffff:a.b.c.d) and the all-zero GID print as glibc prints them.
  if (w.slice(0, 5).every((x) => x === 0) && w[5] === 0xffff) return `::ffff:${g[12]}.${g[13]}.${g[14]}.${g[15]}`;
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (w[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && w[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = w.map((x) => x.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

const hx = (v: number, w: number) => `0x${v.toString(16).padStart(w, '0')}`;

/** One side's resources (rdma-core's `struct pingpong_context`). */
class Ctx {
  ctx!: ibv_context;
  ch: ibv_comp_channel | null = null;
  pd!: ibv_pd;
  mr!: ibv_mr;
  cq!: ibv_cq;
  qp!: ibv_qp;
  ah: ibv_ah | null = null;
  buf!: Uint8Array;
  events = 0;

  constructor(readonly o: Opts) {}

  open(): void {
    const o = this.o;
    const list = ibv_get_device_list() ?? [];
    const dev = o.dev === null ? (list.find((d) => ibv_get_device_name(d)?.startsWith('softroce')) ?? list[0]) : list.find((d) => ibv_get_device_name(d) === o.dev);
    if (!dev) throw new PpError(o.dev === null ? 'No IB devices found' : `IB device ${o.dev} not found`);
    const ctx = ibv_open_device(dev);
    if (!ctx) throw new PpError(`Couldn't get context for ${ibv_get_device_name(dev)}`);
    this.ctx = ctx;
    const port = {} as Parameters<typeof ibv_query_port>[2];
    if (ibv_query_port(ctx, o.ibPort, port) !== 0) throw new PpError(`Unable to query port info for port ${o.ibPort}`);
    if (o.kind === 'ud') {
      const mtu = 1 << ((port as { active_mtu: number }).active_mtu + 7);
      if (o.size > mtu) throw new PpError(`Requested size larger than port MTU (${mtu})`);
    }
    const extra = o.kind === 'ud' ? GRH : 0;
    this.buf = new Uint8Array(o.size + extra).fill(0x7b);
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
    const cq = ibv_create_cq(ctx, o.rxDepth + 1, null, this.ch, 0);
    if (!cq) throw new PpError("Couldn't create CQ");
    this.cq = cq;
    const type = o.kind === 'rc' ? ibv_qp_type.IBV_QPT_RC : o.kind === 'uc' ? ibv_qp_type.IBV_QPT_UC : ibv_qp_type.IBV_QPT_UD;
    const qp = ibv_create_qp(pd, { send_cq: cq, recv_cq: cq, qp_type: type, cap: { max_send_wr: 1, max_recv_wr: o.rxDepth, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 } });
    if (!qp) throw new PpError("Couldn't create QP");
    this.qp = qp;
    const init: Record<string, unknown> = { qp_state: ibv_qp_state.IBV_QPS_INIT, pkey_index: 0, port_num: o.ibPort };
    let mask = M.IBV_QP_STATE | M.IBV_QP_PKEY_INDEX | M.IBV_QP_PORT;
    if (o.kind === 'ud') {
      init.qkey = UD_QKEY;
      mask |= M.IBV_QP_QKEY;
    } else {
      init.qp_access_flags = 0;
      mask |= M.IBV_QP_ACCESS_FLAGS;
    }
    if (ibv_modify_qp(qp, init as never, mask) !== 0) throw new PpError('Failed to modify QP to INIT');
  }

  /** The address of this side: LID 0 on RoCE, the QPN, a random PSN, the GID at `-g`. */
  myDest(): PpDest {
    const o = this.o;
    const port = {} as Parameters<typeof ibv_query_port>[2];
    ibv_query_port(this.ctx, o.ibPort, port);
    const gid = { raw: new Uint8Array(16) };
    if (o.gidx >= 0 && ibv_query_gid(this.ctx, o.ibPort, o.gidx, gid) !== 0) throw new PpError(`Could not get local gid for gid index ${o.gidx}`);
    return { lid: (port as { lid?: number }).lid ?? 0, qpn: this.qp.qp_num, psn: randomInt(0, 0x1000000), gid: gid.raw };
  }

  /** `pp_connect_ctx`: RTR and RTS (RC/UC) or the address handle (UD). */
  connect(myPsn: number, dest: PpDest): void {
    const o = this.o;
    const global = dest.gid.subarray(8).some((b) => b !== 0);
    const ah = {
      is_global: global ? 1 : 0,
      dlid: dest.lid,
      sl: o.sl,
      src_path_bits: 0,
      static_rate: 0,
      port_num: o.ibPort,
      grh: { dgid: { raw: dest.gid }, sgid_index: o.gidx < 0 ? 0 : o.gidx, hop_limit: 1, flow_label: 0, traffic_class: 0 },
    };
    if (o.kind === 'ud') {
      if (ibv_modify_qp(this.qp, { qp_state: ibv_qp_state.IBV_QPS_RTR } as never, M.IBV_QP_STATE) !== 0) throw new PpError('Failed to modify QP to RTR');
      if (ibv_modify_qp(this.qp, { qp_state: ibv_qp_state.IBV_QPS_RTS, sq_psn: myPsn } as never, M.IBV_QP_STATE | M.IBV_QP_SQ_PSN) !== 0) {
        throw new PpError('Failed to modify QP to RTS');
      }
      this.ah = ibv_create_ah(this.pd, ah);
      if (!this.ah) throw new PpError('Failed to create AH');
      return;
    }
    const rtr: Record<string, unknown> = { qp_state: ibv_qp_state.IBV_QPS_RTR, path_mtu: o.mtu, dest_qp_num: dest.qpn, rq_psn: dest.psn, ah_attr: ah };
    let mask = M.IBV_QP_STATE | M.IBV_QP_AV | M.IBV_QP_PATH_MTU | M.IBV_QP_DEST_QPN | M.IBV_QP_RQ_PSN;
    if (o.kind === 'rc') {
      Object.assign(rtr, { max_dest_rd_atomic: 1, min_rnr_timer: 12 });
      mask |= M.IBV_QP_MAX_DEST_RD_ATOMIC | M.IBV_QP_MIN_RNR_TIMER;
    }
    if (ibv_modify_qp(this.qp, rtr as never, mask) !== 0) throw new PpError('Failed to modify QP to RTR');
    const rts: Record<string, unknown> = { qp_state: ibv_qp_state.IBV_QPS_RTS, sq_psn: myPsn };
    mask = M.IBV_QP_STATE | M.IBV_QP_SQ_PSN;
    if (o.kind === 'rc') {
      Object.assign(rts, { timeout: 14, retry_cnt: 7, rnr_retry: 7, max_rd_atomic: 1 });
      mask |= M.IBV_QP_TIMEOUT | M.IBV_QP_RETRY_CNT | M.IBV_QP_RNR_RETRY | M.IBV_QP_MAX_QP_RD_ATOMIC;
    }
    if (ibv_modify_qp(this.qp, rts as never, mask) !== 0) throw new PpError('Failed to modify QP to RTS');
  }

  postRecv(n: number): number {
    const extra = this.o.kind === 'ud' ? GRH : 0;
    const sge = { addr: this.mr.addr, length: this.o.size + extra, lkey: this.mr.lkey };
    let i = 0;
    for (; i < n; i++) if (ibv_post_recv(this.qp, { wr_id: RECV_WRID, sg_list: [sge], num_sge: 1 }).ret !== 0) break;
    return i;
  }

  postSend(remoteQpn: number): number {
    const extra = this.o.kind === 'ud' ? GRH : 0;
    const sge = { addr: this.mr.addr + BigInt(extra), length: this.o.size, lkey: this.mr.lkey };
    const wr: Record<string, unknown> = { wr_id: SEND_WRID, sg_list: [sge], num_sge: 1, opcode: ibv_wr_opcode.IBV_WR_SEND, send_flags: ibv_send_flags.IBV_SEND_SIGNALED };
    if (this.o.kind === 'ud') wr.wr = { ud: { ah: this.ah, remote_qpn: remoteQpn, remote_qkey: UD_QKEY } };
    return ibv_post_send(this.qp, wr as never).ret;
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
    if (this.qp) ibv_destroy_qp(this.qp);
    if (this.cq) ibv_destroy_cq(this.cq);
    if (this.mr) ibv_dereg_mr(this.mr);
    if (this.ah) ibv_destroy_ah(this.ah);
    if (this.pd) ibv_dealloc_pd(this.pd);
    if (this.ctx) ibv_close_device(this.ctx);
  }
}

/** Runs one pingpong; resolves with the exit code. */
export async function pingpong(args: string[], io: CliIo): Promise<number> {
  let o: Opts;
  try {
    o = parse(args);
  } catch (e) {
    io.err(`${(e as Error).message}\n${PINGPONG_HELP}`);
    return 1;
  }
  const c = new Ctx(o);
  let ch: OobChannel | null = null;
  try {
    c.open();
    let routs = c.postRecv(o.rxDepth);
    if (routs < o.rxDepth) throw new PpError(`Couldn't post receive (${routs})`);
    if (c.ch && ibv_req_notify_cq(c.cq, 0) !== 0) throw new PpError("Couldn't request CQ notification");
    const my = c.myDest();
    io.out(`  local address:  LID ${hx(my.lid, 4)}, QPN ${hx(my.qpn, 6)}, PSN ${hx(my.psn, 6)}, GID ${gidText(my.gid)}\n`);
    let rem: PpDest;
    if (o.server) {
      ch = await OobChannel.connect(o.server, o.port);
      rem = decodePpDest(await ch.xchg(true, encodePpDest(my), PP_MSG_LEN));
      ch.write(PP_DONE);
      ch.close();
    } else {
      ch = await OobChannel.accept(undefined, o.port, 0);
      rem = decodePpDest(await ch.read(PP_MSG_LEN));
      c.connect(my.psn, rem);
      ch.write(encodePpDest(my));
      // The client's "done" (5 octets; some versions read a whole message's worth): whatever comes.
      await ch.read(PP_DONE.length).catch(() => null);
      ch.close();
    }
    io.out(`  remote address: LID ${hx(rem.lid, 4)}, QPN ${hx(rem.qpn, 6)}, PSN ${hx(rem.psn, 6)}, GID ${gidText(rem.gid)}\n`);
    if (o.server) c.connect(my.psn, rem);
    let pending = RECV_WRID;
    // -c as rc_pingpong does it: the client marks the first octet of every page of its buffer
    // (with i / page_size % sizeof(char), i.e. 0), the server checks those octets at the end.
    if (o.server && o.chk) for (let i = 0; i < o.size; i += PAGE) c.buf[i] = 0;
    if (o.server) {
      if (c.postSend(rem.qpn) !== 0) throw new PpError("Couldn't post send");
      pending |= SEND_WRID;
    }
    const t0 = process.hrtime.bigint();
    let rcnt = 0;
    let scnt = 0;
    const wc = [newWc(), newWc()];
    while (rcnt < o.iters || scnt < o.iters) {
      const ne = await c.poll(wc);
      for (let i = 0; i < ne; i++) {
        const w = wc[i]!;
        if (w.status !== ibv_wc_status.IBV_WC_SUCCESS) throw new PpError(`Failed status ${ibv_wc_status_str(w.status)} (${w.status}) for wr_id ${Number(w.wr_id)}`);
        if (w.wr_id === SEND_WRID) scnt++;
        else if (w.wr_id === RECV_WRID) {
          if (--routs <= 1) {
            routs += c.postRecv(o.rxDepth - routs);
            if (routs < o.rxDepth) throw new PpError(`Couldn't post receive (${routs})`);
          }
          rcnt++;
        } else throw new PpError(`Completion for unknown wr_id ${Number(w.wr_id)}`);
        pending &= ~w.wr_id;
        if (scnt < o.iters && pending === 0n) {
          if (c.postSend(rem.qpn) !== 0) throw new PpError("Couldn't post send");
          pending = RECV_WRID | SEND_WRID;
        }
      }
    }
    const usec = Number(process.hrtime.bigint() - t0) / 1000;
    const bytes = o.size * o.iters * 2;
    io.out(`${bytes} bytes in ${(usec / 1e6).toFixed(2)} seconds = ${((bytes * 8) / usec).toFixed(2)} Mbit/sec\n`);
    io.out(`${o.iters} iters in ${(usec / 1e6).toFixed(2)} seconds = ${(usec / o.iters).toFixed(2)} usec/iter\n`);
    if (!o.server && o.chk) for (let i = 0; i < o.size; i += PAGE) if (c.buf[i] !== 0) io.out(`invalid data in page ${i / PAGE}\n`);
    return 0;
  } catch (e) {
    if (e instanceof PpError || e instanceof OobError) io.err(`${e.message}\n`);
    else io.err(`pingpong: ${(e as Error).message}\n`);
    return 1;
  } finally {
    ch?.close();
    c.close();
  }
}

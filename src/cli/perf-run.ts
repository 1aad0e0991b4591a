/**
 * `softrdma perf`: one end of a perftest `-R` run (client or server) over softrdma's rdma_cm and
 * verbs — the exchange sequence of each test, the data resources, and the six test loops,
 * following docs/interop-protocols.md §2.6–2.9 (perftest 4.5-0.17's `write_bw.c` … `send_lat.c`,
 * `run_iter_bw`, `run_iter_bw_server`, `run_iter_lat_write`, `run_iter_lat`, `run_iter_lat_send`).
 */
import { randomFillSync, randomInt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep, setImmediate as yieldLoop } from 'node:timers/promises';
import {
  ibv_access_flags as A,
  ibv_mtu,
  ibv_qp_type,
  ibv_send_flags,
  ibv_transport_type,
  ibv_wc_status,
  ibv_wr_opcode,
  rdma_cm_event_type as E,
  RAI_PASSIVE,
  rdma_event_str,
  rdma_port_space,
} from '../verbs/constants.js';
import { type Context, devices, openDevice, queryGid, queryPort } from '../verbs/device.js';
import { getErrno } from '../verbs/errno.js';
import {
  ibv_alloc_pd,
  ibv_close_device,
  ibv_create_comp_channel,
  ibv_create_cq,
  ibv_dealloc_pd,
  ibv_dereg_mr,
  ibv_destroy_comp_channel,
  ibv_destroy_cq,
  ibv_destroy_qp,
  ibv_poll_cq,
  ibv_post_recv,
  ibv_post_send,
  ibv_reg_mr,
  newWc,
} from '../verbs/ibverbs.js';
import {
  rdma_accept,
  rdma_connect,
  rdma_create_event_channel,
  rdma_create_id,
  rdma_create_qp,
  rdma_destroy_event_channel,
  rdma_destroy_id,
  rdma_destroy_qp,
  rdma_disconnect,
  rdma_getaddrinfo,
  rdma_reject,
  rdma_resolve_addr,
  rdma_resolve_route,
} from '../verbs/rdma_cm.js';
import { ibv_destroy_ah } from '../verbs/index.js';
import type { ibv_ah, ibv_comp_channel, ibv_context, ibv_cq, ibv_gid, ibv_mr, ibv_port_attr, ibv_qp, ibv_send_wr, ibv_wc, In, rdma_cm_id } from '../verbs/types.js';
import type { CliIo } from './cli.js';
import { cappedDepths } from './depth.js';
import { connectIbRcQp, connectIbUdQp, createIbRcQp, createIbUdQp, EthControl, gidIsV4Mapped, PERF_UD_QKEY, pickGid } from './perf-eth.js';
import {
  be32,
  be64,
  beDouble,
  CmPump,
  Control,
  type CtlChannel,
  cstring,
  DEST_LEN_WIDE,
  mtuMsg,
  PERFTEST_VERSION,
  PerfError,
  type PingpongDest,
  parseMtuMsg,
  readBe32,
  readBe64,
  readBeDouble,
  versionAtLeast,
  versionMsg,
  versionNumber,
  type Waiter,
  waitCq,
  wcError,
  useDevice,
  zeroDest,
} from './perf-proto.js';
import {
  BW_HEADER_GB,
  BW_HEADER_MB,
  type BwReport,
  bwAverage,
  bwReport,
  formatBwRow,
  formatLatDurRow,
  formatLatRow,
  hexAlt,
  LAT_DUR_HEADER,
  LAT_HEADER,
  type LatDurReport,
  type LatReport,
  latDurReport,
  latReport,
  RESULT_LINE,
} from './perf-report.js';
import { GRH_LEN } from '../wire/ib/constants.js';

export type Verb = 'write' | 'read' | 'send' | 'atomic';

/** perftest's `-A`: the atomic operation of ib_atomic_bw / ib_atomic_lat. */
export type AtomicType = 'CMP_AND_SWAP' | 'FETCH_AND_ADD';

/** Everything a run needs, after perftest's defaults and `force_dependecies`. */
export interface PerfParams {
  verb: Verb;
  lat: boolean;
  server: boolean;
  /**
   * `-d`: the device; with rdma_cm every id uses it (rdmaUseDevice); none: rdma_cm's choice
   * (SOFTRDMA_DEVICE, else softrdma0), without -R the first device.
   */
  dev?: string;
  /**
   * `-R`: connect with rdma_cm. Without it an InfiniBand (RoCEv2) device uses perftest's TCP
   * exchange and `ibv_modify_qp` (perf-eth.ts); an iWARP device always uses rdma_cm (it has no
   * other way to connect).
   */
  rdmaCm: boolean;
  /** `-x`: the source GID index (-1: perftest's choice, the first IPv4-mapped GID). */
  gidIndex: number;
  /**
   * `-c UD` (send tests on an InfiniBand device without -R): UD QPs, one datagram per message,
   * messages of at most the path MTU, receives `UD_ADDITION` octets longer for the GRH.
   */
  ud: boolean;
  /** `-s` was given: a UD message larger than the MTU is then refused rather than cut to it. */
  sizeGiven: boolean;
  /** perftest's -m as an `ibv_mtu` (1 = 256 … 5 = 4096); 0: the port's active MTU. */
  mtu: number;
  /** Client: the server's address. */
  addr: string;
  /** Server: the address to bind. */
  bind: string;
  port: number;
  /** Message size; the buffer size with `all` (8 MiB). */
  size: number;
  all: boolean;
  /** Iterations per size and QP (0 in duration mode). */
  iters: number;
  /** Duration mode: seconds (0: iteration mode). */
  duration: number;
  margin: number;
  txDepth: number;
  rxDepth: number;
  qps: number;
  cqMod: number;
  /** Work requests per `ibv_post_send` (perftest `--post_list`); 1: one at a time. */
  postList: number;
  outReads: number;
  /** Atomic tests: the operation (perftest default FETCH_AND_ADD). */
  atomicType?: AtomicType;
  noPeak: boolean;
  gbits: boolean;
  json: boolean;
  busyPoll: boolean;
  /**
   * bw tests (`--perform_warm_up`): one untimed pass of the first size before the measured ones,
   * so the figure is steady state (V8 has compiled the hot paths, TCP windows have grown).
   */
  warmUp: boolean;
  /** Show a progress line (stdout is a terminal). */
  progress: boolean;
  /**
   * softrdma's `--dump-buffer=FILE`: after the run, the data buffer (both halves: local
   * sources and Read sinks, then the areas the peer targets) is written to FILE, so that a
   * test can check what the peer placed or returned.
   */
  dumpFile?: string;
  /** Called with the bound port once the server listens. */
  onListening?: (port: number) => void;
}

/** perftest's `MAX_SIZE` and the `-a` sizes 2^1 … 2^23 (UD: 2^1 … the MTU). */
export const MAX_SIZE = 8388608;
export function allSizes(max = MAX_SIZE): number[] {
  const s: number[] = [];
  for (let i = 1; 2 ** i <= max; i++) s.push(2 ** i);
  return s;
}

/** Data connection attempts of a `-R` client, 100 ms apart: 2 min (perftest: 10; see `clientConnectData`). */
const DATA_CONNECT_ATTEMPTS = 1200;

/** perftest's `UD_ADDITION`: the GRH in front of every UD receive (IBTA Vol. 1 §11.4.1.1). */
const UD_ADDITION = GRH_LEN;

const VERB_NAME: Record<Verb, string> = { send: 'Send', write: 'RDMA_Write', read: 'RDMA_Read', atomic: 'Atomic' };

/** Reads and atomics are requests answered by responses: both count against ORD/IRD. */
const isRequestVerb = (v: Verb): boolean => v === 'read' || v === 'atomic';
const POLL_BATCH = 16;
/** `sysconf(_SC_PAGESIZE)` and the cache line size perftest reads from sysfs. */
const PAGE_SIZE = 4096;
const CACHE_LINE = 64;

/** `INC(size, cache_line)`. */
function inc(size: number, cl: number): number {
  return size > cl ? Math.ceil(size / cl) * cl : cl;
}

/** `BUFF_SIZE(size, cycle_buffer)`. */
function buffSize(size: number, cycle: number): number {
  return size < cycle ? cycle : size;
}

const now = (): number => performance.now();

/** perftest's duration state machine (`catch_alarm`): warm-up margin, sample window, cool-down. */
class DurationClock {
  static readonly START = 0;
  static readonly SAMPLE = 1;
  static readonly STOP = 2;
  static readonly END = 3;
  state = DurationClock.START;
  t0 = 0;
  t1 = 0;
  private timer: NodeJS.Timeout | null = null;
  constructor(
    private readonly duration: number,
    private readonly margin: number,
  ) {}
  start(): void {
    this.state = DurationClock.START;
    if (this.margin > 0) this.timer = setTimeout(() => this.sample(), this.margin * 1000);
    else this.sample();
  }
  private sample(): void {
    this.state = DurationClock.SAMPLE;
    this.t0 = now();
    this.timer = setTimeout(() => this.stop(), (this.duration - 2 * this.margin) * 1000);
  }
  private stop(): void {
    this.state = DurationClock.STOP;
    this.t1 = now();
    if (this.margin > 0) this.timer = setTimeout(() => (this.state = DurationClock.END), this.margin * 1000);
    else this.state = DurationClock.END;
  }
  get ended(): boolean {
    return this.state === DurationClock.END;
  }
  get sampling(): boolean {
    return this.state === DurationClock.SAMPLE;
  }
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}

/** Output: the perftest text, or JSON lines; a progress line on a terminal. */
class Printer {
  private progressText = '';
  private ticker: NodeJS.Timeout | null = null;
  private spin = 0;
  /** What the progress line shows; the loops update it. */
  status: (() => string) | null = null;
  constructor(
    private readonly io: CliIo,
    private readonly json: boolean,
    private readonly progress: boolean,
  ) {}
  private clear(): void {
    if (this.progressText) {
      this.io.out('\r\x1b[K');
      this.progressText = '';
    }
  }
  text(s: string): void {
    if (this.json) return;
    this.clear();
    this.io.out(s);
  }
  record(obj: Record<string, unknown>, line: string): void {
    this.clear();
    this.io.out(this.json ? `${JSON.stringify(obj)}\n` : line);
  }
  startProgress(): void {
    if (!this.progress || this.json || this.ticker) return;
    this.ticker = setInterval(() => {
      const s = this.status?.();
      if (!s) return;
      const frame = '|/-\\'[this.spin++ % 4];
      this.progressText = ` ${frame} ${s}`;
      this.io.out(`\r\x1b[K${this.progressText}`);
    }, 250);
    this.ticker.unref();
  }
  stopProgress(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    this.clear();
  }
}

/** The data connections' resources (`ctx_init`, `create_single_mr`, `create_cqs`). */
class DataCtx {
  readonly buf: Uint8Array;
  readonly mr: ibv_mr;
  readonly scq: ibv_cq;
  readonly rcq: ibv_cq;
  readonly sch: ibv_comp_channel;
  readonly rch: ibv_comp_channel;
  /** `BUFF_SIZE(ctx->size, cycle_buffer)`: the stride of the per-QP areas. */
  readonly buff: number;
  /** `send_qp_buff_size`: the stride of the receive areas (send tests). */
  readonly sendQpBuff: number;
  readonly pd;
  readonly qps: ibv_qp[] = [];
  readonly ids: rdma_cm_id[] = [];
  /** `-c UD`: the address handle of each QP that sends (`ctx->ah`). */
  readonly ahs: ibv_ah[] = [];
  credit: { bytes: Uint8Array; view: DataView; mr: ibv_mr } | null = null;
  constructor(
    readonly ctx: ibv_context,
    readonly p: PerfParams,
    cycle: number,
    cacheLine: number,
  ) {
    const pd = ibv_alloc_pd(ctx);
    if (!pd) throw new PerfError(`Couldn't allocate PD (errno ${getErrno()})`);
    this.pd = pd;
    this.buff = buffSize(p.size, cycle);
    this.sendQpBuff = inc(this.buff, cacheLine);
    // UD: a cache line more, for the GRH in front of the last receive area (perftest's ctx_init).
    const total = this.sendQpBuff * 2 * p.qps + (p.ud ? cacheLine : 0);
    this.buf = new Uint8Array(total);
    // perftest fills the buffer with rand() bytes, except for ib_write_lat (zeros).
    if (!(p.verb === 'write' && p.lat)) {
      for (let o = 0; o < total; o += 65536) randomFillSync(this.buf, o, Math.min(65536, total - o));
    }
    const iwarp = ctx.device.transport_type === ibv_transport_type.IBV_TRANSPORT_IWARP;
    let flags = A.IBV_ACCESS_LOCAL_WRITE;
    if (p.verb === 'write') flags |= A.IBV_ACCESS_REMOTE_WRITE;
    // iWARP: the Read sink is the same MR, and a Read Response is a tagged (remote) write.
    else if (p.verb === 'read') flags |= A.IBV_ACCESS_REMOTE_READ | (iwarp ? A.IBV_ACCESS_REMOTE_WRITE : 0);
    // ib_atomic_*: the target takes atomics (RFC 7306 on iWARP between softrdma peers).
    else if (p.verb === 'atomic') flags |= A.IBV_ACCESS_REMOTE_READ | A.IBV_ACCESS_REMOTE_WRITE | A.IBV_ACCESS_REMOTE_ATOMIC;
    const mr = ibv_reg_mr(pd, this.buf, total, flags);
    if (!mr) throw new PerfError(`Couldn't allocate MR (errno ${getErrno()})`);
    this.mr = mr;
    this.sch = ibv_create_comp_channel(ctx)!;
    this.rch = ibv_create_comp_channel(ctx)!;
    const scq = ibv_create_cq(ctx, p.txDepth * p.qps, null, this.sch, 0);
    const rcq = p.verb === 'send' ? ibv_create_cq(ctx, p.rxDepth * p.qps, null, this.rch, 0) : scq;
    if (!scq || !rcq) throw new PerfError("Couldn't create CQ");
    this.scq = scq;
    this.rcq = rcq;
  }

  /** The data QP on `id` (`ctx_qp_create` via `rdma_create_qp`). */
  createQp(id: rdma_cm_id): ibv_qp {
    const p = this.p;
    const cap = { max_send_wr: p.txDepth, max_recv_wr: p.rxDepth, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 };
    if (rdma_create_qp(id, this.pd, { send_cq: this.scq, recv_cq: this.rcq, qp_type: ibv_qp_type.IBV_QPT_RC, cap, sq_sig_all: 0 }) !== 0) {
      throw new PerfError(`Failed to create QP (errno ${getErrno()})`);
    }
    return id.qp!;
  }

  /** The data QP of a run without rdma_cm (`ctx_qp_create`, `ctx_modify_qp_to_init`). */
  createIbQp(): ibv_qp {
    const p = this.p;
    const cap = { max_send_wr: p.txDepth, max_recv_wr: p.rxDepth };
    return p.ud ? createIbUdQp(this.pd, this.scq, this.rcq, cap) : createIbRcQp(this.pd, this.scq, this.rcq, cap, p.verb);
  }

  /** `destroy_ctx` of a run without rdma_cm: QPs, MRs, CQs, channels, PD. */
  destroyIb(): void {
    for (const ah of this.ahs.splice(0)) ibv_destroy_ah(ah);
    for (const qp of this.qps.splice(0)) ibv_destroy_qp(qp);
    if (this.credit) ibv_dereg_mr(this.credit.mr);
    ibv_dereg_mr(this.mr);
    if (this.rcq !== this.scq) ibv_destroy_cq(this.rcq);
    ibv_destroy_cq(this.scq);
    ibv_destroy_comp_channel(this.sch);
    ibv_destroy_comp_channel(this.rch);
    ibv_dealloc_pd(this.pd);
  }

  /** `ctx_alloc_credit`: `2 × num_qps` uint32 (ours, then the peer's credit slots), LW | RW. */
  allocCredit(): void {
    const bytes = new Uint8Array(8 * this.p.qps);
    const mr = ibv_reg_mr(this.pd, bytes, bytes.length, A.IBV_ACCESS_LOCAL_WRITE | A.IBV_ACCESS_REMOTE_WRITE);
    if (!mr) throw new PerfError("Couldn't allocate MR");
    this.credit = { bytes, view: new DataView(bytes.buffer), mr };
  }

  /** Credit received for QP i (host order, little-endian, as the peer wrote it). */
  creditOf(i: number): number {
    return this.credit!.view.getUint32(4 * (this.p.qps + i), true);
  }
}

/** `rdma_getaddrinfo` of a host name or address (IPv4, as perftest's `-R` uses). */
async function resolveHost(host: string, passive: boolean): Promise<string> {
  const r = await rdma_getaddrinfo(host, null, { ai_flags: passive ? RAI_PASSIVE : 0 });
  const a = passive ? r.res?.ai_src_addr : r.res?.ai_dst_addr;
  if (r.ret !== 0 || !a) throw new PerfError(`Problem in resolving basic address and port (${host})`);
  if (a.family !== 'ipv4') throw new PerfError(`${host}: rdma_cm with perftest needs an IPv4 address`);
  return a.address;
}

/** One end of a run. */
export class PerfRun {
  private readonly out: Printer;
  private readonly ch;
  private readonly pump: CmPump;
  /** The out-of-band channel: {@link cm} with rdma_cm, {@link eth} without. */
  private ctl: CtlChannel | null = null;
  private cm: Control | null = null;
  private eth: EthControl | null = null;
  /** Without rdma_cm: the device opened for the run. */
  private ibCtx: Context | null = null;
  /** Without rdma_cm: the QPs have been moved to RTR (and RTS). */
  private ibConnected = false;
  /** The source GID index advertised and used. */
  private gidIndex = 0;
  /** iWARP `ib_send_bw`: receive credits (perftest's `send_rcredit`; iWARP has no RNR). */
  private credits = false;
  private data: DataCtx | null = null;
  private listenId: rdma_cm_id | null = null;
  private remVersion = 0;
  private remVersionStr = '';
  private cycle = PAGE_SIZE;
  private cacheLine = CACHE_LINE;
  private mtu = ibv_mtu.IBV_MTU_1024;
  private my: PingpongDest[] = [];
  private rem: PingpongDest[] = [];
  private devName = '';
  private gid: Uint8Array = new Uint8Array(16);
  private readonly wc: ibv_wc[] = Array.from({ length: POLL_BATCH }, () => newWc());
  private readonly wc1: ibv_wc[] = [newWc()];
  private lastBw: BwReport | null = null;
  private dataDone = false;

  constructor(
    private readonly p: PerfParams,
    private readonly io: CliIo,
  ) {
    this.out = new Printer(io, p.json, p.progress);
    const ch = rdma_create_event_channel();
    if (!ch) throw new PerfError('Failed to create RDMA CM event channel.');
    this.ch = ch;
    this.pump = new CmPump(ch);
  }

  private get client(): boolean {
    return !this.p.server;
  }

  private get name(): string {
    return `${this.p.verb}_${this.p.lat ? 'lat' : 'bw'}`;
  }

  /** Stops the loops when the peer has gone away. */
  private readonly waiter: Waiter = {
    busyPoll: false,
    check: () => {
      this.ctl?.check();
      if (this.eth) return;
      if (this.data && !this.dataDone) for (const id of this.data.ids) if (this.pump.disconnected.has(id)) throw new PerfError('the peer closed a data connection');
    },
  };

  /** Runs the whole test; resolves with the exit status. */
  async run(): Promise<number> {
    const p = this.p;
    this.waiter.busyPoll = p.busyPoll || p.duration > 0;
    try {
      const dev = p.dev === undefined ? devices()[0] : devices().find((d) => d.name === p.dev);
      if (!dev) throw new PerfError(p.dev === undefined ? 'No IB devices found' : `IB device ${p.dev} not found`);
      const eth = !p.rdmaCm && dev.transport_type === ibv_transport_type.IBV_TRANSPORT_IB;
      if (p.ud && !eth) throw new PerfError(`-c UD runs without -R on the RoCE device (-d softroce0): ${p.rdmaCm ? 'UD over rdma_cm is not supported' : `${dev.name} has no UD QPs`}`);
      if (eth) await this.ethConnect(dev);
      else await this.cmConnect();
      await this.exchangeSysData();
      this.udSize();
      await this.connectData();
      this.setUpConnection();
      this.printTestInfo();
      if (p.lat) {
        if (p.verb === 'write') await this.writeLat();
        else if (isRequestVerb(p.verb)) await this.readLat();
        else await this.sendLat();
      } else if (p.verb === 'send') await this.sendBw();
      else await this.rdmaBw();
      if (p.dumpFile && this.data) writeFileSync(p.dumpFile, this.data.buf);
      await this.teardown();
      return 0;
    } finally {
      this.out.stopProgress();
    }
  }

  // -------------------------------------------------------------------- set-up

  /** `establish_connection` with `-R`: the rdma_cm control connection. */
  private async cmConnect(): Promise<void> {
    const p = this.p;
    if (p.server && p.bind !== '0.0.0.0') p.bind = await resolveHost(p.bind, true);
    if (!p.server) p.addr = await resolveHost(p.addr, false);
    if (p.server) {
      // Listening first: a busy port is reported before any word about waiting.
      const l = await Control.listen(this.pump, p.bind, p.port, p.qps + 1, p.dev);
      this.out.text('\n************************************\n* Waiting for client to connect... *\n************************************\n');
      this.listenId = l.listenId;
      p.onListening?.(l.port);
      this.cm = await Control.accept(this.pump, l.listenId, this.waiter);
    } else {
      this.cm = await Control.connect(this.pump, p.addr, p.port, this.waiter, p.dev);
    }
    this.ctl = this.cm;
  }

  /**
   * `establish_connection` without `-R` on an InfiniBand device: open it, pick the GID index
   * (`-x`, else perftest's `get_best_gid_index`: the first IPv4-mapped GID), then the TCP side
   * channel (perf-eth.ts).
   */
  private async ethConnect(dev: ReturnType<typeof devices>[number]): Promise<void> {
    const p = this.p;
    const ctx = openDevice(dev);
    if (!ctx) throw new PerfError(` Couldn't get context for the device`);
    this.ibCtx = ctx;
    const g = pickGid(ctx, p.gidIndex);
    if (!g) throw new PerfError(` Unable to set up socket connection (no GID at index ${p.gidIndex} of ${dev.name})`);
    this.gidIndex = g.index;
    this.gid = g.gid;
    if (p.server) {
      this.eth = await EthControl.accept(p.bind, p.port, (port) => {
        this.out.text('\n************************************\n* Waiting for client to connect... *\n************************************\n');
        p.onListening?.(port);
      });
    } else {
      this.eth = await EthControl.connect(p.addr, p.port);
    }
    this.ctl = this.eth;
  }

  /** The device of the data connections. */
  private devCtx(): Context {
    return this.ibCtx ?? (this.cm!.id.verbs as Context);
  }

  /** P1–P4: version, cycle buffer, cache line, MTU (`exchange_versions`, `check_sys_data`, `check_mtu`). */
  private async exchangeSysData(): Promise<void> {
    const ctl = this.ctl!;
    this.remVersionStr = cstring(await ctl.xchg(versionMsg(PERFTEST_VERSION), 16));
    this.remVersion = versionNumber(this.remVersionStr);
    if (!versionAtLeast(this.remVersion, 5.7)) {
      throw new PerfError(`Current implementation is not compatible with versions older than 5.70 (the peer is '${this.remVersionStr}')`);
    }
    if (versionAtLeast(this.remVersion, 5.32)) {
      const rc = readBe32(await ctl.xchg(be32(this.cycle), 4));
      const rl = readBe32(await ctl.xchg(be32(this.cacheLine), 4));
      this.cycle = Math.max(this.cycle, rc);
      this.cacheLine = Math.max(this.cacheLine, rl);
    }
    const ctx = this.devCtx();
    const port = {} as ibv_port_attr;
    const local = this.p.mtu || (queryPort(ctx, 1, port) === 0 ? port.active_mtu : ibv_mtu.IBV_MTU_1024);
    this.mtu = local;
    if (versionAtLeast(this.remVersion, 5.1)) {
      const len = versionAtLeast(this.remVersion, 5.31) ? 2 : 4;
      const rem = parseMtuMsg(await ctl.xchg(mtuMsg(local, len), len));
      if (rem >= ibv_mtu.IBV_MTU_256 && rem <= ibv_mtu.IBV_MTU_4096 && local > rem) this.mtu = rem;
    }
    if (versionAtLeast(this.remVersion, 6.29) && this.cm) this.cm.destLen = DEST_LEN_WIDE;
    this.devName = ctx.device.name;
    this.credits = ctx.device.transport_type === ibv_transport_type.IBV_TRANSPORT_IWARP;
    if (!this.eth) {
      const g: ibv_gid = { raw: new Uint8Array(16) };
      if (queryGid(ctx, 1, 0, g) === 0) this.gid = g.raw;
    }
  }

  /**
   * `check_mtu`'s UD rule: a UD message is one datagram, at most the path MTU. A size above it is
   * cut to the MTU (with perftest's words on stderr) when it was not asked for (-a, or the
   * default), else refused.
   */
  private udSize(): void {
    const p = this.p;
    const mtu = 1 << (7 + this.mtu);
    if (!p.ud || p.size <= mtu) return;
    if (!p.all && p.sizeGiven) throw new PerfError(' Max message size in UD cannot be greater than MTU ');
    this.io.err(` Max msg size in UD is MTU ${mtu}\n Changing to this MTU\n`);
    p.size = mtu;
  }

  /** `create_rdma_cm_connection`: handshake, the data connections on the same port, handshake. */
  private async connectData(): Promise<void> {
    const ctl = this.ctl!;
    if (this.eth) {
      // Without rdma_cm (`ctx_init`): the data QPs are made here and connected after the
      // first key handshakes; no handshakes around it.
      const d = new DataCtx(this.ibCtx!, this.p, this.cycle, this.cacheLine);
      this.data = d;
      for (let i = 0; i < this.p.qps; i++) d.qps.push(d.createIbQp());
      return;
    }
    await ctl.handshake(zeroDest());
    if (this.client) {
      await this.clientConnectData();
    } else await this.serverAcceptData();
    await ctl.handshake(zeroDest());
  }

  /** IRD/ORD of the data connections: `out_reads` for read tests, 0 otherwise. */
  private get rdAtom(): number {
    return isRequestVerb(this.p.verb) ? this.p.outReads : 0;
  }

  /**
   * `rdma_cm_client_connection`: attempts 100 ms apart while the server does not listen yet.
   * perftest gives up after 10; we keep trying for {@link DATA_CONNECT_ATTEMPTS}, since a server
   * sets up its data buffers between the control handshake and its listen (with -a, 2 × 8 MiB
   * registered and filled), which takes longer than a second on a slow or emulated host, and
   * longer than a minute on a loaded one. The control connection already proved that the server
   * exists, so a mistyped address still fails at once, on the control connection.
   */
  private async clientConnectData(): Promise<void> {
    let last: unknown = null;
    for (let attempt = 0; attempt < DATA_CONNECT_ATTEMPTS; attempt++) {
      try {
        await this.tryConnectData();
        return;
      } catch (e) {
        if (!(e instanceof PerfError)) throw e;
        last = e;
        for (const id of this.data?.ids.splice(0) ?? []) {
          rdma_destroy_qp(id);
          rdma_destroy_id(id);
        }
        this.data?.qps.splice(0);
        if (attempt === 99) this.io.err(' The server does not listen for the data connection yet (it may be setting up its buffers); still trying for up to 2 min\n');
        await sleep(100);
      }
    }
    throw new PerfError(`Failed to connect RDMA CM client, tried ${DATA_CONNECT_ATTEMPTS} times (${(last as Error).message}).`);
  }

  private async tryConnectData(): Promise<void> {
    const p = this.p;
    for (let i = 0; i < p.qps; i++) {
      const { id } = rdma_create_id(this.ch, null, rdma_port_space.RDMA_PS_TCP);
      if (!id) throw new PerfError(`rdma_create_id failed (errno ${getErrno()})`);
      useDevice(id, p.dev);
      if ((await rdma_resolve_addr(id, null, { family: 'ipv4', address: p.addr, port: p.port }, 2000)) !== 0) {
        rdma_destroy_id(id);
        throw new PerfError('Failed to resolve RDMA CM address.');
      }
      this.data?.ids.push(id);
      await this.pump.expect(id, E.RDMA_CM_EVENT_ADDR_RESOLVED, 'rdma_resolve_addr');
      if ((await rdma_resolve_route(id, 2000)) !== 0) throw new PerfError('Failed to resolve RDMA CM route.');
      await this.pump.expect(id, E.RDMA_CM_EVENT_ROUTE_RESOLVED, 'rdma_resolve_route');
      if (!this.data) {
        this.data = new DataCtx(id.verbs!, p, this.cycle, this.cacheLine);
        this.data.ids.push(id);
      }
      this.data.qps.push(this.data.createQp(id));
      const rd = this.rdAtom;
      if ((await rdma_connect(id, { responder_resources: rd, initiator_depth: rd, retry_count: 7, rnr_retry_count: 7 })) !== 0) {
        throw new PerfError('Failed to connect through RDMA CM.');
      }
      const e = await this.pump.next(id, 20_000);
      if (!e || e.event !== E.RDMA_CM_EVENT_ESTABLISHED) {
        throw new PerfError(e ? `RDMA CM event error: ${rdma_event_str(e.event)}; error: ${e.status}` : 'no answer to the data connection request');
      }
    }
  }

  /** `rdma_cm_server_connection`: accept `num_qps` requests (not waiting for ESTABLISHED), then close the listener. */
  private async serverAcceptData(): Promise<void> {
    const p = this.p;
    const listenId = this.listenId!;
    while ((this.data?.ids.length ?? 0) < p.qps) {
      const e = await this.pump.next(listenId);
      if (!e) throw new PerfError('Failed to get RDMA CM event.');
      if (e.event !== E.RDMA_CM_EVENT_CONNECT_REQUEST) continue;
      if (!this.data) this.data = new DataCtx(e.id.verbs!, p, this.cycle, this.cacheLine);
      this.data.qps.push(this.data.createQp(e.id));
      this.data.ids.push(e.id);
      // perftest ≥ 23.04 clamps to the request's values; 4.5 accepts with out_reads. The clamp
      // gives the same result against a siw peer and never asks for more than the peer offers,
      // and the device's limits cap what a peer may offer (as librdmacm does).
      const rd = this.rdAtom;
      const dev = cappedDepths(e.id.verbs!, e.conn);
      const ird = Math.min(rd, dev?.responder_resources ?? 0);
      const ord = Math.min(rd, dev?.initiator_depth ?? 0);
      if ((await rdma_accept(e.id, { responder_resources: ird, initiator_depth: ord, retry_count: 7, rnr_retry_count: 7 })) !== 0) {
        const errno = getErrno();
        // A failed accept rejects, so the client hears at once rather than waiting for the CM.
        rdma_reject(e.id, null);
        throw new PerfError(`Failed to accept RDMA CM connection (errno ${errno}).`);
      }
    }
    rdma_destroy_id(listenId);
    this.listenId = null;
  }

  /** `set_up_connection`: what each QP advertises. */
  private setUpConnection(): void {
    const d = this.data!;
    const p = this.p;
    this.my = d.qps.map((qp, i) => ({
      lid: 0,
      outReads: p.outReads,
      qpn: qp.qp_num,
      psn: randomInt(0, 0x1000000),
      rkey: d.mr.rkey,
      vaddr: d.mr.addr + BigInt((p.qps + i) * d.buff),
      gid: this.gid,
      srqn: 0,
      gidIndex: this.gidIndex,
    }));
    this.rem = this.my.map(() => zeroDest());
  }

  // -------------------------------------------------------------------- output

  /** `ctx_print_test_info`. */
  private printTestInfo(): void {
    const p = this.p;
    let s = RESULT_LINE;
    const name = p.verb === 'atomic' ? `${VERB_NAME.atomic} ${p.atomicType ?? 'FETCH_AND_ADD'}` : VERB_NAME[p.verb];
    s += `                    ${name} ${p.lat ? 'Latency ' : 'BW '}Test\n`;
    s += ` Dual-port       : OFF\t\tDevice         : ${this.devName}\n`;
    s += ` Number of qps   : ${p.qps}\t\tTransport type : ${this.credits ? 'IW' : 'IB'}\n`;
    s += ` Connection type : ${p.ud ? 'UD' : 'RC'}\t\tUsing SRQ      : OFF\n`;
    // A software RNIC has no PCIe, and we post with ibv_post_send (perftest's --use_old_post_send).
    s += ' PCIe relax order: Unsupported\n';
    s += ' ibv_wr* API     : OFF\n';
    if (this.client) s += ` TX depth        : ${p.txDepth}\n`;
    if (p.verb === 'send' && p.server) s += ` RX depth        : ${p.rxDepth}\n`;
    if (!p.lat) s += ` CQ Moderation   : ${p.cqMod}\n`;
    s += ` Mtu             : ${1 << (7 + this.mtu)}[B]\n`;
    s += ' Link type       : Ethernet\n';
    s += ` GID index       : ${this.gidIndex}\n`;
    s += isRequestVerb(p.verb) ? ` Outstand reads  : ${p.outReads}\n` : ' Max inline data : 0[B]\n';
    s += ` rdma_cm QPs\t : ${this.eth ? 'OFF' : 'ON'}\n`;
    s += ` Data ex. method : ${this.eth ? 'Ethernet' : 'rdma_cm'}`;
    if (p.server && !this.eth) {
      s += `\n${RESULT_LINE} Waiting for client rdma_cm QP to connect\n Please run the same command with the IB/RoCE interface IP`;
    }
    s += `\n${RESULT_LINE}`;
    this.out.text(s);
  }

  /** `ctx_print_pingpong_data`. */
  private printDest(d: PingpongDest, side: 'local' | 'remote'): void {
    let s = ` ${side} address: LID ${hexAlt(d.lid, 4)} QPN ${hexAlt(d.qpn >>> 0, 6)} PSN ${hexAlt(d.psn >>> 0, 6)}`;
    if (isRequestVerb(this.p.verb)) s += ` OUT ${hexAlt(d.outReads >>> 0, 4)}`;
    if (this.p.verb !== 'send') s += ` RKey ${hexAlt(d.rkey >>> 0, 8)} VAddr ${hexAlt(d.vaddr, 16)}`;
    s += '\n';
    s += ` GID: ${[...d.gid].map((b) => String(b).padStart(2, '0')).join(':')}\n`;
    this.out.text(s);
  }

  private printLocal(): void {
    for (const d of this.my) this.printDest(d, 'local');
  }

  /** H×q with the remote lines printed. */
  private async handshakeRemote(): Promise<void> {
    for (let i = 0; i < this.p.qps; i++) {
      this.rem[i] = await this.ctl!.handshake(this.my[i]!);
      this.printDest(this.rem[i]!, 'remote');
    }
  }

  /**
   * H×q (keys only): the first key exchange of every test. Without rdma_cm, `ctx_connect`
   * follows it: each QP to RTR with the peer's keys, and to RTS on the client (the only sender
   * of a bandwidth test) and on both ends of a latency test.
   */
  private async handshakeAll(): Promise<void> {
    for (let i = 0; i < this.p.qps; i++) this.rem[i] = await this.ctl!.handshake(this.my[i]!);
    if (!this.eth || this.ibConnected) return;
    if (gidIsV4Mapped(this.my[0]!.gid) !== gidIsV4Mapped(this.rem[0]!.gid)) {
      throw new PerfError('\n Found Incompatibility issue with GID types.\n Please Try to use a different IP version.\n');
    }
    const rts = this.p.lat || this.client;
    const d = this.data!;
    for (const [i, qp] of d.qps.entries()) {
      if (!this.p.ud) connectIbRcQp(qp, this.my[i]!, this.rem[i]!, this.mtu, this.gidIndex, rts);
      else {
        const ah = connectIbUdQp(qp, d.pd, this.my[i]!, this.rem[i]!, this.gidIndex, rts);
        if (ah) d.ahs.push(ah);
      }
    }
    this.ibConnected = true;
  }

  /** `ctx_close_connection`: a last handshake; without rdma_cm, then "done" and close. */
  private async closeConnection(): Promise<void> {
    this.ctl!.finished = true;
    await this.handshake0();
    this.eth?.done();
  }

  private async handshake0(): Promise<void> {
    this.rem[0] = await this.ctl!.handshake(this.my[0]!);
  }

  private sizes(): number[] {
    return this.p.all ? allSizes(this.p.ud ? 1 << (7 + this.mtu) : MAX_SIZE) : [this.p.size];
  }

  private bwRow(r: BwReport): void {
    const unit = this.p.gbits ? 'Gb/sec' : 'MB/sec';
    const obj = {
      test: this.name,
      role: this.client ? 'client' : 'server',
      bytes: r.size,
      iterations: r.iters,
      bw_peak: r.bwPeak,
      bw_average: r.bwAvg,
      msg_rate: r.msgRate,
      bw_unit: unit,
      msg_rate_unit: 'Mpps',
      poll: this.waiter.busyPoll ? 'busy' : 'event',
    };
    this.out.record(obj, formatBwRow(r, this.p.gbits));
  }

  private latRow(r: LatReport | LatDurReport): void {
    const base = { test: this.name, role: this.client ? 'client' : 'server', bytes: r.size, iterations: r.iters };
    const poll = this.waiter.busyPoll ? 'busy' : 'event';
    if ('tps' in r) {
      this.out.record({ ...base, t_avg: r.tAvg, tps: r.tps, unit: 'usec', poll }, formatLatDurRow(r));
      return;
    }
    const obj = {
      ...base,
      t_min: r.tMin,
      t_max: r.tMax,
      t_typical: r.tTypical,
      t_avg: r.tAvg,
      t_stdev: r.tStdev,
      t_stdev_exact: r.tStdevExact,
      p99: r.p99,
      p99_9: r.p999,
      unit: 'usec',
      poll,
    };
    this.out.record(obj, formatLatRow(r));
  }

  private bwHeader(): void {
    this.out.text(RESULT_LINE + (this.p.gbits ? BW_HEADER_GB : BW_HEADER_MB));
  }

  private latHeader(): void {
    this.out.text(RESULT_LINE + (this.p.duration > 0 ? LAT_DUR_HEADER : LAT_HEADER));
  }

  // -------------------------------------------------------------------- the tests

  /** ib_write_bw / ib_read_bw (docs §2.7). */
  private async rdmaBw(): Promise<void> {
    const p = this.p;
    await this.handshakeAll();
    this.printLocal();
    await this.handshakeRemote();
    await this.handshake0(); // "after RTR"
    this.bwHeader();
    if (p.server) {
      // Passive: the client runs; we wait in the handshake for it to finish.
      await this.handshake0();
      const rep = await this.xchgBwReport({ size: 0, iters: 0, bwPeak: 0, bwAvg: 0, msgRate: 0 });
      this.bwRow(rep);
      await this.closeConnection();
      this.out.text(RESULT_LINE);
      return;
    }
    this.out.startProgress();
    if (p.warmUp) await this.runIterBw(this.sizes()[0]!);
    for (const size of this.sizes()) this.bwRow(await this.runIterBw(size));
    this.out.stopProgress();
    this.out.text(RESULT_LINE);
    await this.handshake0();
    await this.xchgBwReport(this.lastBw!);
    await this.closeConnection();
  }

  /** ib_send_bw (docs §2.7, §2.8.4: iWARP receive credits). */
  private async sendBw(): Promise<void> {
    const p = this.p;
    const d = this.data!;
    if (this.credits) {
      d.allocCredit();
      for (let i = 0; i < p.qps; i++) {
        this.my[i]!.rkey = d.credit!.mr.rkey;
        this.my[i]!.vaddr = d.credit!.mr.addr + BigInt(4 * (p.qps + i));
      }
    }
    await this.handshakeAll();
    await this.handshake0();
    this.printLocal();
    await this.handshakeRemote();
    this.bwHeader();
    this.out.startProgress();
    const passes = this.sizes().map((size) => ({ size, warm: false }));
    if (p.warmUp) passes.unshift({ size: passes[0]!.size, warm: true });
    for (const { size, warm } of passes) {
      if (p.server) this.postRecvs(size);
      await this.handshake0();
      d.credit?.bytes.fill(0, 4 * p.qps);
      const r = p.server ? await this.runIterBwServer(size) : await this.runIterBw(size);
      if (!warm) this.bwRow(r);
      if (p.all || warm) await this.handshake0();
    }
    this.out.stopProgress();
    this.out.text(RESULT_LINE);
    await this.closeConnection();
  }

  /** ib_write_lat: the server writes first; no close handshake. */
  private async writeLat(): Promise<void> {
    await this.handshake0();
    await this.handshakeAll();
    this.printLocal();
    await this.handshakeRemote();
    await this.handshake0();
    this.latHeader();
    // Our MPA Responder holds its first FPDU until the Initiator's first one arrives, while
    // ib_write_lat's client waits for the server's first Write: a softrdma client starts with
    // one zero-length Write (no placement, no completion at the peer) so a softrdma server can
    // talk. Only towards a softrdma peer, recognised by the pingpong_dest padding.
    if (this.client && this.rem[0]!.softrdma) await this.zeroLengthWrite();
    this.out.startProgress();
    for (const size of this.sizes()) this.latRow(await this.runIterLatWrite(size));
    this.out.stopProgress();
    this.out.text(RESULT_LINE);
    this.ctl!.finished = true;
  }

  /** ib_read_lat: only the client runs; the server goes straight to the close handshake. */
  private async readLat(): Promise<void> {
    await this.handshake0();
    await this.handshakeAll();
    this.printLocal();
    await this.handshakeRemote();
    await this.handshake0();
    if (this.p.server) {
      await this.closeConnection();
      this.out.text(RESULT_LINE);
      return;
    }
    this.latHeader();
    this.out.startProgress();
    for (const size of this.sizes()) this.latRow(await this.runIterLatRead(size));
    this.out.stopProgress();
    await this.closeConnection();
    this.out.text(RESULT_LINE);
  }

  /** ib_send_lat: receives posted, then a handshake, before each size. */
  private async sendLat(): Promise<void> {
    await this.handshakeAll();
    await this.handshake0();
    this.printLocal();
    await this.handshakeRemote();
    this.latHeader();
    this.out.startProgress();
    for (const size of this.sizes()) {
      this.postRecvs(size);
      await this.handshake0();
      this.latRow(await this.runIterLatSend(size));
    }
    this.out.stopProgress();
    this.out.text(RESULT_LINE);
    await this.closeConnection();
  }

  /** `xchg_bw_reports`: size, iters (8 octets if the peer is ≥ 5.33, else 4), peak, average, rate. */
  private async xchgBwReport(my: BwReport): Promise<BwReport> {
    const ctl = this.ctl!;
    const wide = versionAtLeast(this.remVersion, 5.33);
    const size = readBe64(await ctl.xchg(be64(my.size), 8));
    const iters = wide ? readBe64(await ctl.xchg(be64(my.iters), 8)) : readBe32(await ctl.xchg(be32(my.iters), 4)) >>> 0;
    const bwPeak = readBeDouble(await ctl.xchg(beDouble(my.bwPeak), 8));
    const bwAvg = readBeDouble(await ctl.xchg(beDouble(my.bwAvg), 8));
    const msgRate = readBeDouble(await ctl.xchg(beDouble(my.msgRate), 8));
    return { size, iters, bwPeak, bwAvg, msgRate };
  }

  // -------------------------------------------------------------------- data path

  private post(qp: ibv_qp, wr: In<ibv_send_wr>, what: string): void {
    const r = ibv_post_send(qp, wr);
    if (r.ret !== 0) throw new PerfError(`Couldn't post send: ${what} (errno ${getErrno()})`);
  }

  /** Waits for one completion on `cq` (blocking or busy per mode) and checks its status. */
  private async one(cq: ibv_cq, ch: ibv_comp_channel, what: string): Promise<ibv_wc> {
    await waitCq(cq, this.waiter.busyPoll ? null : ch, this.wc1, this.waiter);
    const w = this.wc1[0]!;
    if (w.status !== ibv_wc_status.IBV_WC_SUCCESS) throw wcError(w, what);
    return w;
  }

  /** `ctx_set_recv_wqes`: `rx_depth` receives of `size` per QP in the second half of the buffer. */
  private postRecvs(size: number): void {
    const d = this.data!;
    const p = this.p;
    const cycling = !p.lat && this.recvLength(size) <= this.cycle / 2;
    const step = inc(this.recvLength(size), this.cacheLine);
    const wrap = Math.max(1, Math.floor(this.cycle / step));
    for (let k = 0; k < p.qps; k++) {
      const base = d.mr.addr + BigInt((p.qps + k) * d.sendQpBuff);
      for (let j = 0; j < p.rxDepth; j++) {
        const off = cycling ? (j % wrap) * step : 0;
        this.postRecv(k, base + BigInt(off), size);
      }
    }
  }

  /** A receive for a message of `size` octets: UD receives take the GRH in front (`SIZE(type, size, 1)`). */
  private recvLength(size: number): number {
    return this.p.ud ? size + UD_ADDITION : size;
  }

  private postRecv(qp: number, addr: bigint, size: number): void {
    const d = this.data!;
    const r = ibv_post_recv(d.qps[qp]!, { wr_id: BigInt(qp), sg_list: [{ addr, length: this.recvLength(size), lkey: d.mr.lkey }] });
    if (r.ret !== 0) throw new PerfError(`Couldn't post recv Qp = ${qp} (errno ${getErrno()})`);
  }

  /** `run_iter_bw` (client, all three verbs): tx_depth window, address cycling, CQ moderation, credits for Send. */
  private async runIterBw(size: number): Promise<BwReport> {
    const p = this.p;
    const d = this.data!;
    const q = p.qps;
    const dur = p.duration > 0;
    const iters = p.iters;
    const tot = iters * q;
    const noPeak = p.noPeak;
    const tposted = new Float64Array(noPeak ? 1 : tot);
    const tcompleted = new Float64Array(noPeak ? 1 : tot);
    const cycling = size <= this.cycle / 2;
    const step = inc(size, this.cacheLine);
    const wrap = Math.max(1, Math.floor(this.cycle / step));
    const credits = p.verb === 'send' && this.credits;
    const opcode = this.opcode();
    const scnt = new Array<number>(q).fill(0);
    const ccnt = new Array<number>(q).fill(0);
    const wrs = d.qps.map((_, i) => {
      const sge = { addr: d.mr.addr + BigInt(i * d.buff), length: size, lkey: d.mr.lkey };
      return {
        sge,
        locBase: sge.addr,
        remBase: this.rem[i]!.vaddr,
        signaled: p.cqMod === 1,
        wr: {
          wr_id: BigInt(i),
          opcode,
          send_flags: 0,
          sg_list: [sge],
          wr: this.remoteOf(i),
        },
      };
    });
    /** Address cycling (perftest): the next buffer slot after WR number `n`, wrapping at `wrap`. */
    const advance = (w: (typeof wrs)[number], n: number): void => {
      if ((n + 1) % wrap === 0) {
        w.sge.addr = w.locBase;
        w.wr.wr.rdma.remote_addr = w.remBase;
      } else {
        w.sge.addr += BigInt(step);
        w.wr.wr.rdma.remote_addr += BigInt(step);
      }
    };
    // --post_list: per QP, L work requests chained through `next`, the last one signaled.
    const L = p.postList;
    const chains =
      L > 1
        ? wrs.map((w, wi) =>
            Array.from({ length: L }, (_, j) => ({
              sge: { ...w.sge },
              wr: { wr_id: w.wr.wr_id, opcode, send_flags: j === L - 1 ? ibv_send_flags.IBV_SEND_SIGNALED : 0, sg_list: [] as Array<typeof w.sge>, wr: this.remoteOf(wi), next: null as unknown },
            })),
          )
        : [];
    for (const c of chains) {
      for (const [j, x] of c.entries()) {
        x.wr.sg_list = [x.sge];
        x.wr.next = j + 1 < L ? c[j + 1]!.wr : null;
      }
    }
    const clock = dur ? new DurationClock(p.duration, p.margin) : null;
    let counted = 0;
    let totscnt = 0;
    let totccnt = 0;
    let sigOut = 0;
    this.out.status = () => `${size} B: ${dur ? `${counted} done` : `${Math.min(totccnt, tot)}/${tot}`}`;
    clock?.start();
    if (!dur && noPeak) tposted[0] = now();
    while (totscnt < tot || totccnt < tot || (clock && !clock.ended)) {
      let progressed = false;
      for (let idx = 0; idx < q; idx++) {
        const w = wrs[idx]!;
        if (L > 1) {
          const c = chains[idx]!;
          while ((scnt[idx]! < iters || dur) && scnt[idx]! - ccnt[idx]! + L <= p.txDepth) {
            if (credits && ((scnt[idx]! + L - d.creditOf(idx)) >>> 0) >= p.rxDepth) break;
            if (clock?.ended) break;
            const t = noPeak ? 0 : now();
            for (let j = 0; j < L; j++) {
              const x = c[j]!;
              x.sge.addr = w.sge.addr;
              x.wr.wr.rdma.remote_addr = w.wr.wr.rdma.remote_addr;
              if (!noPeak) tposted[totscnt + j] = t;
              if (cycling) advance(w, scnt[idx]!);
              scnt[idx]!++;
            }
            this.post(d.qps[idx]!, c[0]!.wr as In<ibv_send_wr>, `qp ${idx} scnt=${scnt[idx]! - L} (list of ${L})`);
            sigOut++;
            totscnt += L;
            progressed = true;
          }
          continue;
        }
        while ((scnt[idx]! < iters || dur) && scnt[idx]! - ccnt[idx]! + 1 <= p.txDepth) {
          if (credits && ((scnt[idx]! + 1 - d.creditOf(idx)) >>> 0) >= p.rxDepth) break;
          if (p.cqMod > 1 && scnt[idx]! % p.cqMod === 0 && !(scnt[idx] === iters - 1 && !dur)) w.signaled = false;
          if (!noPeak) tposted[totscnt] = now();
          if (clock?.ended) break;
          w.wr.send_flags = w.signaled ? ibv_send_flags.IBV_SEND_SIGNALED : 0;
          this.post(d.qps[idx]!, w.wr, `qp ${idx} scnt=${scnt[idx]}`);
          if (w.signaled) sigOut++;
          if (cycling) advance(w, scnt[idx]!);
          scnt[idx]!++;
          totscnt++;
          progressed = true;
          if (scnt[idx]! % p.cqMod === p.cqMod - 1 || (!dur && scnt[idx] === iters - 1)) w.signaled = true;
        }
      }
      if (totccnt < tot || (dur && sigOut > 0)) {
        let n = ibv_poll_cq(d.scq, POLL_BATCH, this.wc);
        if (n === 0 && !progressed) {
          this.waiter.check();
          // Sleep on the CQ only when a signaled WR is outstanding: credits (an inbound Write
          // into memory) and the duration clock raise no completion event.
          if (sigOut > 0 && !this.waiter.busyPoll) n = await waitCq(d.scq, d.sch, this.wc, this.waiter);
          else await yieldLoop();
        }
        if (n < 0) throw new PerfError(`poll CQ failed ${n}`);
        for (let i = 0; i < n; i++) {
          const wc = this.wc[i]!;
          if (wc.status !== ibv_wc_status.IBV_WC_SUCCESS) throw wcError(wc, `send CQ (scnt=${totscnt}, ccnt=${totccnt})`);
          ccnt[Number(wc.wr_id)]! += p.cqMod;
          totccnt += p.cqMod;
          sigOut--;
          if (!noPeak) tcompleted[Math.min(totccnt, tot) - 1] = now();
          if (clock?.sampling) counted += p.cqMod;
        }
      } else if (!progressed) {
        this.waiter.check();
        await yieldLoop();
      }
    }
    // Duration mode stops posting at the end of the clock: let the signaled WRs finish.
    while (sigOut > 0) {
      await this.one(d.scq, d.sch, 'send CQ');
      sigOut--;
    }
    this.out.status = null;
    let rep: BwReport;
    if (clock) rep = bwAverage(size, counted, clock.t0, clock.t1, 0, p.gbits);
    else {
      if (noPeak) tcompleted[0] = now();
      rep = bwReport(size, tot, tposted, tcompleted, p.cqMod, noPeak, p.gbits);
    }
    this.lastBw = rep;
    return rep;
  }

  /**
   * `run_iter_bw_server` (ib_send_bw): re-post a receive per completion while the total stays
   * ≤ iters, RDMA-Write the receive count to the peer's credit slot every `rx_depth / 3`
   * receives, time from the first receive to the last.
   */
  private async runIterBwServer(size: number): Promise<BwReport> {
    const p = this.p;
    const d = this.data!;
    const q = p.qps;
    const dur = p.duration > 0;
    const tot = p.iters * q;
    const cycling = this.recvLength(size) <= this.cycle / 2;
    const step = inc(this.recvLength(size), this.cacheLine);
    const wrap = Math.max(1, Math.floor(this.cycle / step));
    const creditCnt = Math.max(1, Math.floor(p.rxDepth / 3));
    const rcntQp = new Array<number>(q).fill(0);
    const postedQp = new Array<number>(q).fill(p.rxDepth);
    const scredit = new Array<number>(q).fill(0);
    let totScredit = 0;
    let rcnt = 0;
    let counted = 0;
    let t0 = 0;
    let first = true;
    const clock = dur ? new DurationClock(p.duration, p.margin) : null;
    // iWARP only (perftest's send_rcredit): an InfiniBand sender is paced by RNR NAKs instead.
    const cr = d.credit;
    const creditWr = d.qps.map((_, i) => ({
      wr_id: BigInt(i),
      opcode: ibv_wr_opcode.IBV_WR_RDMA_WRITE,
      send_flags: ibv_send_flags.IBV_SEND_SIGNALED,
      sg_list: cr ? [{ addr: cr.mr.addr + BigInt(4 * i), length: 4, lkey: cr.mr.lkey }] : [],
      wr: { rdma: { remote_addr: this.rem[i]!.vaddr, rkey: this.rem[i]!.rkey } },
    }));
    this.out.status = () => `${size} B: ${dur ? `${counted} received` : `${rcnt}/${tot}`}`;
    const reapCredits = async (): Promise<void> => {
      const n = await waitCq(d.scq, this.waiter.busyPoll ? null : d.sch, this.wc, this.waiter);
      for (let j = 0; j < n; j++) {
        const wc = this.wc[j]!;
        if (wc.status !== ibv_wc_status.IBV_WC_SUCCESS) throw wcError(wc, 'Poll send CQ (credit)');
        scredit[Number(wc.wr_id)]!--;
        totScredit--;
      }
    };
    while (rcnt < tot || (clock && !clock.ended)) {
      let n: number;
      if (clock) {
        n = ibv_poll_cq(d.rcq, POLL_BATCH, this.wc);
        if (n === 0) {
          this.waiter.check();
          await yieldLoop();
          continue;
        }
      } else n = await waitCq(d.rcq, this.waiter.busyPoll ? null : d.rch, this.wc, this.waiter);
      if (n < 0) throw new PerfError(`Poll Receive CQ failed ${n}`);
      if (first) {
        first = false;
        t0 = now();
        clock?.start();
      }
      // Copy out: posting credits below may reuse this.wc.
      const got = this.wc.slice(0, n).map((w) => ({ status: w.status, id: Number(w.wr_id), w: { ...w } }));
      for (const g of got) {
        if (g.status !== ibv_wc_status.IBV_WC_SUCCESS) throw wcError(g.w, `receive CQ (rcnt=${rcnt})`);
        const id = g.id;
        rcntQp[id]!++;
        rcnt++;
        if (clock?.sampling) counted++;
        if (dur || postedQp[id]! + 1 <= p.iters) {
          const off = cycling ? (postedQp[id]! % wrap) * step : 0;
          this.postRecv(id, d.mr.addr + BigInt((q + id) * d.sendQpBuff + off), size);
          postedQp[id]!++;
        }
        if (cr && (rcntQp[id]! % p.rxDepth) % creditCnt === 0) {
          cr.view.setUint32(4 * id, rcntQp[id]! >>> 0, true);
          while (scredit[id] === p.txDepth) await reapCredits();
          this.post(d.qps[id]!, creditWr[id]! as In<ibv_send_wr>, `credit qp ${id}`);
          scredit[id]!++;
          totScredit++;
        }
      }
    }
    const t1 = clock ? clock.t1 : now();
    while (totScredit > 0) await reapCredits();
    this.out.status = null;
    if (clock) return bwAverage(size, counted, clock.t0, t1, 0, p.gbits);
    return bwAverage(size, tot, t0, t1, 0, p.gbits);
  }

  /** A softrdma peer's MPA Responder sends nothing before our first FPDU: give it one. */
  private async zeroLengthWrite(): Promise<void> {
    const d = this.data!;
    this.post(
      d.qps[0]!,
      {
        wr_id: 0n,
        opcode: ibv_wr_opcode.IBV_WR_RDMA_WRITE,
        send_flags: ibv_send_flags.IBV_SEND_SIGNALED,
        sg_list: [],
        num_sge: 0,
        wr: { rdma: { remote_addr: this.rem[0]!.vaddr, rkey: this.rem[0]!.rkey } },
      },
      'zero-length write',
    );
    await this.one(d.scq, d.sch, 'zero-length write');
  }

  /**
   * `run_iter_lat_write`: each side writes `size` bytes whose last byte is its iteration
   * number, then spins on the last byte of its own target area until the peer's write of the
   * same number lands; the server posts first. An inbound Write raises no completion, so the
   * wait on memory always polls (yielding to the event loop between looks).
   */
  private async runIterLatWrite(size: number): Promise<LatReport | LatDurReport> {
    const p = this.p;
    const d = this.data!;
    const dur = p.duration > 0;
    const iters = p.iters;
    const tposted = new Float64Array(Math.max(iters, 1));
    const postIdx = size - 1;
    const pollIdx = p.qps * d.buff + size - 1;
    const wr = {
      wr_id: 0n,
      opcode: ibv_wr_opcode.IBV_WR_RDMA_WRITE,
      send_flags: ibv_send_flags.IBV_SEND_SIGNALED,
      sg_list: [{ addr: d.mr.addr, length: size, lkey: d.mr.lkey }],
      wr: { rdma: { remote_addr: this.rem[0]!.vaddr, rkey: this.rem[0]!.rkey } },
    };
    const clock = dur ? new DurationClock(p.duration, p.margin) : null;
    let scnt = 0;
    let ccnt = 0;
    let rcnt = 0;
    let counted = 0;
    this.out.status = () => `${size} B: ${dur ? counted : `${ccnt}/${iters}`}`;
    clock?.start();
    const buf = d.buf;
    while (scnt < iters || ccnt < iters || rcnt < iters || (clock && !clock.ended)) {
      if ((rcnt < iters || dur) && !(scnt < 1 && p.server)) {
        rcnt++;
        const want = rcnt & 0xff;
        while (buf[pollIdx] !== want && !clock?.ended) {
          this.waiter.check();
          await yieldLoop();
        }
      }
      if (scnt < iters || dur) {
        if (!dur) tposted[scnt] = now();
        buf[postIdx] = ++scnt & 0xff;
        this.post(d.qps[0]!, wr, `scnt=${scnt}`);
      }
      if (clock?.ended) break;
      if (ccnt < iters || dur) {
        await this.one(d.scq, d.sch, `send CQ (scnt=${scnt}, ccnt=${ccnt})`);
        ccnt++;
        if (clock?.sampling) counted++;
      }
    }
    if (clock && scnt > ccnt) await this.one(d.scq, d.sch, 'send CQ');
    this.out.status = null;
    if (clock) return latDurReport(size, counted, clock.t0, clock.t1, 2);
    return latReport(size, iters, tposted, 2);
  }

  /** The work-request opcode of the test. */
  private opcode(): ibv_wr_opcode {
    const p = this.p;
    if (p.verb === 'atomic') return p.atomicType === 'CMP_AND_SWAP' ? ibv_wr_opcode.IBV_WR_ATOMIC_CMP_AND_SWP : ibv_wr_opcode.IBV_WR_ATOMIC_FETCH_AND_ADD;
    return p.verb === 'write' ? ibv_wr_opcode.IBV_WR_RDMA_WRITE : p.verb === 'read' ? ibv_wr_opcode.IBV_WR_RDMA_READ : ibv_wr_opcode.IBV_WR_SEND;
  }

  /**
   * The remote half of QP `i`'s WR: `rdma` for Writes and Reads; for atomics the same object is
   * also `atomic` (perftest: compare 0 / swap 0 for CMP_AND_SWAP, add 1 for FETCH_AND_ADD), so
   * address cycling moves both.
   */
  private remoteOf(i: number): {
    rdma: { remote_addr: bigint; rkey: number; compare_add: bigint; swap: bigint };
    atomic?: { remote_addr: bigint; rkey: number; compare_add: bigint; swap: bigint };
    ud?: { ah: ibv_ah; remote_qpn: number; remote_qkey: number };
  } {
    const r = { remote_addr: this.rem[i]!.vaddr, rkey: this.rem[i]!.rkey, compare_add: this.p.atomicType === 'CMP_AND_SWAP' ? 0n : 1n, swap: 0n };
    if (this.p.ud) return { rdma: r, ud: this.udDest(i) };
    return this.p.verb === 'atomic' ? { rdma: r, atomic: r } : { rdma: r };
  }

  /** `-c UD`: where QP `i`'s datagrams go (`ctx_set_send_wqes`): its address handle, the peer's QPN, perftest's Q_Key. */
  private udDest(i: number): { ah: ibv_ah; remote_qpn: number; remote_qkey: number } {
    return { ah: this.data!.ahs[i]!, remote_qpn: this.rem[i]!.qpn, remote_qkey: PERF_UD_QKEY };
  }

  /** `run_iter_lat` (ib_read_lat and ib_atomic_lat, client): one signaled RDMA Read or atomic at a time. */
  private async runIterLatRead(size: number): Promise<LatReport | LatDurReport> {
    const p = this.p;
    const d = this.data!;
    const dur = p.duration > 0;
    const iters = p.iters;
    const tposted = new Float64Array(Math.max(iters, 1));
    const wr = {
      wr_id: 0n,
      opcode: this.opcode(),
      send_flags: ibv_send_flags.IBV_SEND_SIGNALED,
      sg_list: [{ addr: d.mr.addr, length: size, lkey: d.mr.lkey }],
      wr: this.remoteOf(0),
    };
    const clock = dur ? new DurationClock(p.duration, p.margin) : null;
    let scnt = 0;
    let counted = 0;
    this.out.status = () => `${size} B: ${dur ? counted : `${scnt}/${iters}`}`;
    clock?.start();
    while (scnt < iters || (clock && !clock.ended)) {
      if (!dur) tposted[scnt] = now();
      scnt++;
      this.post(d.qps[0]!, wr, `scnt=${scnt}`);
      await this.one(d.scq, d.sch, `send CQ (scnt=${scnt})`);
      if (clock?.sampling) counted++;
    }
    this.out.status = null;
    if (clock) return latDurReport(size, counted, clock.t0, clock.t1, 1);
    return latReport(size, iters, tposted, 1);
  }

  /**
   * `run_iter_lat_send`: strict ping-pong, the client sends first, the server first waits for a
   * receive; receives are re-posted while `received + rx_depth ≤ iters`; every Send is signaled
   * (CQ moderation is `tx_depth` = 1) and waited for.
   */
  private async runIterLatSend(size: number): Promise<LatReport | LatDurReport> {
    const p = this.p;
    const d = this.data!;
    const dur = p.duration > 0;
    const iters = p.iters;
    const tposted = new Float64Array(Math.max(iters, 1));
    const recvBase = d.mr.addr + BigInt(p.qps * d.sendQpBuff);
    const wr = { wr_id: 0n, opcode: ibv_wr_opcode.IBV_WR_SEND, send_flags: 0, sg_list: [{ addr: d.mr.addr, length: size, lkey: d.mr.lkey }], ...(p.ud && { wr: { ud: this.udDest(0) } }) };
    const clock = dur ? new DurationClock(p.duration, p.margin) : null;
    let scnt = 0;
    let rcnt = 0;
    let counted = 0;
    let first = true;
    this.out.status = () => `${size} B: ${dur ? counted : `${rcnt}/${iters}`}`;
    while (scnt < iters || rcnt < iters || (clock && !clock.ended)) {
      if ((rcnt < iters || dur) && !(scnt < 1 && this.client)) {
        let w: ibv_wc | null = null;
        if (clock) {
          while (!clock.ended || first) {
            if (ibv_poll_cq(d.rcq, 1, this.wc1) > 0) {
              w = this.wc1[0]!;
              break;
            }
            this.waiter.check();
            await yieldLoop();
          }
        } else w = await this.one(d.rcq, d.rch, `receive CQ (rcnt=${rcnt})`);
        if (w) {
          if (w.status !== ibv_wc_status.IBV_WC_SUCCESS) throw wcError(w, `receive CQ (rcnt=${rcnt})`);
          if (first) {
            first = false;
            clock?.start();
          }
          rcnt++;
          if (clock?.sampling) counted++;
          if (dur || rcnt + p.rxDepth <= iters) {
            const qp = Number(w.wr_id);
            this.postRecv(qp, recvBase + BigInt(qp * d.sendQpBuff), size);
          }
        }
      }
      if (scnt < iters || (clock && !clock.ended)) {
        if (!dur) tposted[scnt] = now();
        scnt++;
        const signaled = scnt % p.cqMod === 0 || (!dur && scnt === iters);
        wr.send_flags = signaled ? ibv_send_flags.IBV_SEND_SIGNALED : 0;
        this.post(d.qps[0]!, wr, `scnt=${scnt}`);
        if (signaled) await this.one(d.scq, d.sch, `send CQ (scnt=${scnt})`);
      }
    }
    this.out.status = null;
    if (clock) return latDurReport(size, counted, clock.t0, clock.t1, 2);
    return latReport(size, iters, tposted, 2);
  }

  // -------------------------------------------------------------------- teardown

  /**
   * After the last control exchange: close every data connection gracefully and wait (briefly)
   * for DISCONNECTED — perftest 4.5's client waits, newer servers close and wait too, so both
   * roles close — then close the control connection (perftest just exits: its peer sees the
   * TCP connection end, which it expects at this point).
   */
  private async teardown(): Promise<void> {
    this.dataDone = true;
    if (this.ctl) this.ctl.finished = true;
    if (this.eth) {
      // Without rdma_cm there is nothing to disconnect (`destroy_ctx`): the QPs are destroyed,
      // and an ACK still owed to the peer leaves first (the RoCEv2 transport flushes it).
      this.data?.destroyIb();
      this.eth.close();
      if (this.ibCtx) ibv_close_device(this.ibCtx);
      rdma_destroy_event_channel(this.ch);
      return;
    }
    const ids = this.data?.ids ?? [];
    for (const id of ids) await rdma_disconnect(id);
    await this.waitDisconnected(ids, 3000);
    for (const id of ids) {
      rdma_destroy_qp(id);
      rdma_destroy_id(id);
    }
    if (this.cm) {
      await rdma_disconnect(this.cm.id);
      await this.waitDisconnected([this.cm.id], 1000);
      rdma_destroy_qp(this.cm.id);
      rdma_destroy_id(this.cm.id);
    }
    if (this.listenId) rdma_destroy_id(this.listenId);
    rdma_destroy_event_channel(this.ch);
  }

  private async waitDisconnected(ids: rdma_cm_id[], ms: number): Promise<void> {
    const until = now() + ms;
    for (const id of ids) {
      while (!this.pump.disconnected.has(id)) {
        const left = until - now();
        if (left <= 0) return;
        const e = await this.pump.next(id, left);
        if (!e) return;
      }
    }
  }

  /** Best-effort cleanup after a failure (the process exits next). */
  abort(): void {
    this.dataDone = true;
    for (const id of this.data?.ids ?? []) void rdma_disconnect(id);
    if (this.cm) void rdma_disconnect(this.cm.id);
    this.eth?.close();
    if (this.ibCtx) {
      // The QPs go to Error (no more retransmissions to a peer that may have gone), then away.
      for (const qp of this.data?.qps ?? []) ibv_destroy_qp(qp);
    }
    rdma_destroy_event_channel(this.ch);
  }
}


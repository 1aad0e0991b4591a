/**
 * `softrdma perf`: the connection of one end of a run (perftest's `establish_connection`,
 * `exchange_versions`, `check_sys_data`, `check_mtu`, `create_rdma_cm_connection`,
 * `set_up_connection`, `ctx_hand_shake`, `ctx_close_connection`, `xchg_bw_reports`,
 * `destroy_ctx`): the control channel (rdma_cm, or perftest's TCP exchange on an InfiniBand
 * device), the data connections and their resources, what each QP advertises and learns of the
 * peer, and the teardown (docs/interop-protocols.md §2.6).
 */
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ibv_mtu, ibv_transport_type, rdma_cm_event_type as E, RAI_PASSIVE, rdma_event_str, rdma_port_space } from '../verbs/constants.js';
import { type Context, devices, openDevice, queryGid, queryPort } from '../verbs/device.js';
import { getErrno } from '../verbs/errno.js';
import { ibv_close_device, ibv_destroy_qp } from '../verbs/ibverbs.js';
import {
  rdma_accept,
  rdma_connect,
  rdma_create_event_channel,
  rdma_create_id,
  rdma_destroy_event_channel,
  rdma_destroy_id,
  rdma_destroy_qp,
  rdma_disconnect,
  rdma_getaddrinfo,
  rdma_reject,
  rdma_resolve_addr,
  rdma_resolve_route,
} from '../verbs/rdma_cm.js';
import type { ibv_gid, ibv_port_attr, rdma_cm_id } from '../verbs/types.js';
import type { CliIo } from './cli.js';
import { cappedDepths } from './depth.js';
import { DataCtx } from './perf-data.js';
import { connectIbRcQp, connectIbUdQp, EthControl, gidIsV4Mapped, pickGid } from './perf-eth.js';
import { busyPollOf, isRequestVerb, now, type PerfParams } from './perf-params.js';
import type { Printer, TestInfo } from './perf-print.js';
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
  useDevice,
  versionAtLeast,
  versionMsg,
  versionNumber,
  type Waiter,
  zeroDest,
} from './perf-proto.js';
import type { BwReport } from './perf-report.js';

/** How long a `-R` client keeps trying the data connection, attempts 100 ms apart (perftest: 10 attempts; see `clientConnectData`). */
const DATA_CONNECT_MS = 120_000;

/** `sysconf(_SC_PAGESIZE)` and the cache line size perftest reads from sysfs. */
const PAGE_SIZE = 4096;
const CACHE_LINE = 64;

/** `rdma_getaddrinfo` of a host name or address (IPv4, as perftest's `-R` uses). */
async function resolveHost(host: string, passive: boolean): Promise<string> {
  const r = await rdma_getaddrinfo(host, null, { ai_flags: passive ? RAI_PASSIVE : 0 });
  const a = passive ? r.res?.ai_src_addr : r.res?.ai_dst_addr;
  if (r.ret !== 0 || !a) throw new PerfError(`Problem in resolving basic address and port (${host})`);
  if (a.family !== 'ipv4') throw new PerfError(`${host}: rdma_cm with perftest needs an IPv4 address`);
  return a.address;
}

/** One end's connection to the peer: the control channel and the data QPs. */
export class PerfConn {
  readonly #ch;
  readonly #pump: CmPump;
  /** The out-of-band channel: {@link cm} with rdma_cm, {@link eth} without. */
  ctl: CtlChannel | null = null;
  #cm: Control | null = null;
  #eth: EthControl | null = null;
  /** Without rdma_cm: the device opened for the run. */
  #ibCtx: Context | null = null;
  /** Without rdma_cm: the QPs have been moved to RTR (and RTS). */
  #ibConnected = false;
  /** The source GID index advertised and used. */
  #gidIndex = 0;
  /** iWARP `ib_send_bw`: receive credits (perftest's `send_rcredit`; iWARP has no RNR). */
  credits = false;
  data: DataCtx | null = null;
  #listenId: rdma_cm_id | null = null;
  #remVersion = 0;
  #remVersionStr = '';
  cycle = PAGE_SIZE;
  cacheLine = CACHE_LINE;
  mtu = ibv_mtu.IBV_MTU_1024;
  my: PingpongDest[] = [];
  rem: PingpongDest[] = [];
  #devName = '';
  #gid: Uint8Array = new Uint8Array(16);
  #dataDone = false;

  readonly #io: CliIo;
  readonly #out: Printer;
  constructor(
    readonly p: PerfParams,
    io: CliIo,
    out: Printer,
  ) {
    this.#io = io;
    this.#out = out;
    const ch = rdma_create_event_channel();
    if (!ch) throw new PerfError('Failed to create RDMA CM event channel.');
    this.#ch = ch;
    this.#pump = new CmPump(ch);
    this.waiter.busyPoll = busyPollOf(p);
  }

  get client(): boolean {
    return !this.p.server;
  }

  /** Stops the loops when the peer has gone away. */
  readonly waiter: Waiter = {
    busyPoll: false,
    check: () => {
      this.ctl?.check();
      if (this.#eth) return;
      if (this.data && !this.#dataDone)
        for (const id of this.data.ids) if (this.#pump.disconnected.has(id)) throw new PerfError('the peer closed a data connection');
    },
  };

  /**
   * Everything before the test's own exchanges: the device, the control channel, the system
   * data, the data connections and what each QP advertises.
   */
  async establish(): Promise<void> {
    const p = this.p;
    const dev = p.dev === undefined ? devices()[0] : devices().find((d) => d.name === p.dev);
    if (!dev) throw new PerfError(p.dev === undefined ? 'No IB devices found' : `IB device ${p.dev} not found`);
    const eth = !p.rdmaCm && dev.transport_type === ibv_transport_type.IBV_TRANSPORT_IB;
    if (p.ud && !eth)
      throw new PerfError(
        `-c UD runs without -R on the RoCE device (-d softroce0): ${p.rdmaCm ? 'UD over rdma_cm is not supported' : `${dev.name} has no UD QPs`}`,
      );
    if (eth) await this.#ethConnect(dev);
    else await this.#cmConnect();
    await this.#exchangeSysData();
    this.#udSize();
    await this.#connectData();
    this.#setUpConnection();
  }

  /** What `ctx_print_test_info` shows of the connection. */
  get info(): TestInfo {
    return { devName: this.#devName, iwarp: this.credits, mtu: this.mtu, gidIndex: this.#gidIndex, eth: !!this.#eth };
  }

  // -------------------------------------------------------------------- set-up

  /** `establish_connection` with `-R`: the rdma_cm control connection. */
  async #cmConnect(): Promise<void> {
    const p = this.p;
    if (p.server && p.bind !== '0.0.0.0') p.bind = await resolveHost(p.bind, true);
    if (!p.server) p.addr = await resolveHost(p.addr, false);
    if (p.server) {
      // Listening first: a busy port is reported before any word about waiting.
      const l = await Control.listen(this.#pump, p.bind, p.port, p.qps + 1, p.dev);
      this.#out.text(
        '\n************************************\n* Waiting for client to connect... *\n************************************\n',
      );
      this.#listenId = l.listenId;
      p.onListening?.(l.port);
      this.#cm = await Control.accept(this.#pump, l.listenId, this.waiter);
    } else {
      this.#cm = await Control.connect(this.#pump, p.addr, p.port, this.waiter, p.dev);
    }
    this.ctl = this.#cm;
  }

  /**
   * `establish_connection` without `-R` on an InfiniBand device: open it, pick the GID index
   * (`-x`, else perftest's `get_best_gid_index`: the first IPv4-mapped GID), then the TCP side
   * channel (perf-eth.ts).
   */
  async #ethConnect(dev: ReturnType<typeof devices>[number]): Promise<void> {
    const p = this.p;
    const ctx = openDevice(dev);
    if (!ctx) throw new PerfError(` Couldn't get context for the device`);
    this.#ibCtx = ctx;
    const g = pickGid(ctx, p.gidIndex);
    if (!g) throw new PerfError(` Unable to set up socket connection (no GID at index ${p.gidIndex} of ${dev.name})`);
    this.#gidIndex = g.index;
    this.#gid = g.gid;
    if (p.server) {
      this.#eth = await EthControl.accept(p.bind, p.port, (port) => {
        this.#out.text(
          '\n************************************\n* Waiting for client to connect... *\n************************************\n',
        );
        p.onListening?.(port);
      });
    } else {
      this.#eth = await EthControl.connect(p.addr, p.port);
    }
    this.ctl = this.#eth;
  }

  /** The device of the data connections. */
  #devCtx(): Context {
    return this.#ibCtx ?? (this.#cm!.id.verbs as Context);
  }

  /** P1–P4: version, cycle buffer, cache line, MTU (`exchange_versions`, `check_sys_data`, `check_mtu`). */
  async #exchangeSysData(): Promise<void> {
    const ctl = this.ctl!;
    this.#remVersionStr = cstring(await ctl.xchg(versionMsg(PERFTEST_VERSION), 16));
    this.#remVersion = versionNumber(this.#remVersionStr);
    if (!versionAtLeast(this.#remVersion, 5.7)) {
      throw new PerfError(`Current implementation is not compatible with versions older than 5.70 (the peer is '${this.#remVersionStr}')`);
    }
    if (versionAtLeast(this.#remVersion, 5.32)) {
      const rc = readBe32(await ctl.xchg(be32(this.cycle), 4));
      const rl = readBe32(await ctl.xchg(be32(this.cacheLine), 4));
      this.cycle = Math.max(this.cycle, rc);
      this.cacheLine = Math.max(this.cacheLine, rl);
    }
    const ctx = this.#devCtx();
    const port = {} as ibv_port_attr;
    const local = this.p.mtu || (queryPort(ctx, 1, port) === 0 ? port.active_mtu : ibv_mtu.IBV_MTU_1024);
    this.mtu = local;
    if (versionAtLeast(this.#remVersion, 5.1)) {
      const len = versionAtLeast(this.#remVersion, 5.31) ? 2 : 4;
      const rem = parseMtuMsg(await ctl.xchg(mtuMsg(local, len), len));
      if (rem >= ibv_mtu.IBV_MTU_256 && rem <= ibv_mtu.IBV_MTU_4096 && local > rem) this.mtu = rem;
    }
    if (versionAtLeast(this.#remVersion, 6.29) && this.#cm) this.#cm.destLen = DEST_LEN_WIDE;
    this.#devName = ctx.device.name;
    this.credits = ctx.device.transport_type === ibv_transport_type.IBV_TRANSPORT_IWARP;
    if (!this.#eth) {
      const g: ibv_gid = { raw: new Uint8Array(16) };
      if (queryGid(ctx, 1, 0, g) === 0) this.#gid = g.raw;
    }
  }

  /**
   * `check_mtu`'s UD rule: a UD message is one datagram, at most the path MTU. A size above it is
   * cut to the MTU (with perftest's words on stderr) when it was not asked for (-a, or the
   * default), else refused.
   */
  #udSize(): void {
    const p = this.p;
    const mtu = 1 << (7 + this.mtu);
    if (!p.ud || p.size <= mtu) return;
    if (!p.all && p.sizeGiven) throw new PerfError(' Max message size in UD cannot be greater than MTU ');
    this.#io.err(` Max msg size in UD is MTU ${mtu}\n Changing to this MTU\n`);
    p.size = mtu;
  }

  /** `create_rdma_cm_connection`: handshake, the data connections on the same port, handshake. */
  async #connectData(): Promise<void> {
    const ctl = this.ctl!;
    if (this.#eth) {
      // Without rdma_cm (`ctx_init`): the data QPs are made here and connected after the
      // first key handshakes; no handshakes around it.
      const d = new DataCtx(this.#ibCtx!, this.p, this.cycle, this.cacheLine);
      this.data = d;
      for (let i = 0; i < this.p.qps; i++) d.qps.push(d.createIbQp());
      return;
    }
    await ctl.handshake(zeroDest());
    if (this.client) {
      await this.#clientConnectData();
    } else await this.#serverAcceptData();
    await ctl.handshake(zeroDest());
  }

  /** IRD/ORD of the data connections: `out_reads` for read tests, 0 otherwise. */
  get #rdAtom(): number {
    return isRequestVerb(this.p.verb) ? this.p.outReads : 0;
  }

  /**
   * `rdma_cm_client_connection`: attempts 100 ms apart while the server does not listen yet.
   * perftest gives up after 10; we keep trying for {@link DATA_CONNECT_MS}, since a server sets up
   * its data buffers around its listen (with -a, 2 × 8 MiB registered and filled), which takes
   * longer than a second on a slow or emulated host, and longer than a minute on a loaded one.
   * The control connection already proved that the server exists, so a mistyped address still
   * fails at once, on the control connection. One attempt that the server does not answer ends
   * when the CM's REQ retries do.
   */
  async #clientConnectData(): Promise<void> {
    let last: unknown = null;
    const deadline = Date.now() + DATA_CONNECT_MS;
    let attempts = 0;
    while (attempts === 0 || Date.now() < deadline) {
      attempts++;
      try {
        await this.#tryConnectData();
        return;
      } catch (e) {
        if (!(e instanceof PerfError)) throw e;
        last = e;
        for (const id of this.data?.ids.splice(0) ?? []) {
          rdma_destroy_qp(id);
          rdma_destroy_id(id);
        }
        this.data?.qps.splice(0);
        if (attempts === 100)
          this.#io.err(
            ' The server does not listen for the data connection yet (it may be setting up its buffers); still trying for up to 2 min\n',
          );
        await sleep(100);
      }
    }
    throw new PerfError(`Failed to connect RDMA CM client, tried ${attempts} times (${(last as Error).message}).`);
  }

  async #tryConnectData(): Promise<void> {
    const p = this.p;
    for (let i = 0; i < p.qps; i++) {
      const { id } = rdma_create_id(this.#ch, null, rdma_port_space.RDMA_PS_TCP);
      if (!id) throw new PerfError(`rdma_create_id failed (errno ${getErrno()})`);
      useDevice(id, p.dev);
      if ((await rdma_resolve_addr(id, null, { family: 'ipv4', address: p.addr, port: p.port }, 2000)) !== 0) {
        rdma_destroy_id(id);
        throw new PerfError('Failed to resolve RDMA CM address.');
      }
      this.data?.ids.push(id);
      await this.#pump.expect(id, E.RDMA_CM_EVENT_ADDR_RESOLVED, 'rdma_resolve_addr');
      if ((await rdma_resolve_route(id, 2000)) !== 0) throw new PerfError('Failed to resolve RDMA CM route.');
      await this.#pump.expect(id, E.RDMA_CM_EVENT_ROUTE_RESOLVED, 'rdma_resolve_route');
      if (!this.data) {
        this.data = new DataCtx(id.verbs!, p, this.cycle, this.cacheLine);
        this.data.ids.push(id);
      }
      this.data.qps.push(this.data.createQp(id));
      const rd = this.#rdAtom;
      if ((await rdma_connect(id, { responder_resources: rd, initiator_depth: rd, retry_count: 7, rnr_retry_count: 7 })) !== 0) {
        throw new PerfError('Failed to connect through RDMA CM.');
      }
      // No deadline of our own: as perftest's `rdma_cm_connect_events`, the CM's REQ retries
      // decide (MaxCMRetries 15, each CM response timeout 4.3 s; IBTA Vol. 1 §12.9.3), and a
      // server slow to accept (a perftest server registers its buffers on the request) is waited for.
      const e = await this.#pump.next(id);
      if (!e || e.event !== E.RDMA_CM_EVENT_ESTABLISHED) {
        throw new PerfError(
          e ? `RDMA CM event error: ${rdma_event_str(e.event)}; error: ${e.status}` : 'no answer to the data connection request',
        );
      }
    }
  }

  /** `rdma_cm_server_connection`: accept `num_qps` requests (not waiting for ESTABLISHED), then close the listener. */
  async #serverAcceptData(): Promise<void> {
    const p = this.p;
    const listenId = this.#listenId!;
    while ((this.data?.ids.length ?? 0) < p.qps) {
      const e = await this.#pump.next(listenId);
      if (!e) throw new PerfError('Failed to get RDMA CM event.');
      if (e.event !== E.RDMA_CM_EVENT_CONNECT_REQUEST) continue;
      if (!this.data) this.data = new DataCtx(e.id.verbs!, p, this.cycle, this.cacheLine);
      this.data.qps.push(this.data.createQp(e.id));
      this.data.ids.push(e.id);
      // perftest ≥ 23.04 clamps to the request's values; 4.5 accepts with out_reads. The clamp
      // gives the same result against a siw peer and never asks for more than the peer offers,
      // and the device's limits cap what a peer may offer (as librdmacm does).
      const rd = this.#rdAtom;
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
    this.#listenId = null;
  }

  /** `set_up_connection`: what each QP advertises. */
  #setUpConnection(): void {
    const d = this.data!;
    const p = this.p;
    this.my = d.qps.map((qp, i) => ({
      lid: 0,
      outReads: p.outReads,
      qpn: qp.qp_num,
      psn: randomInt(0, 0x1000000),
      rkey: d.mr.rkey,
      vaddr: d.mr.addr + BigInt((p.qps + i) * d.buff),
      gid: this.#gid,
      srqn: 0,
      gidIndex: this.#gidIndex,
    }));
    this.rem = this.my.map(() => zeroDest());
  }

  // -------------------------------------------------------------------- handshakes

  printLocal(): void {
    for (const d of this.my) this.#out.dest(d, 'local');
  }

  /** H×q with the remote lines printed. */
  async handshakeRemote(): Promise<void> {
    for (let i = 0; i < this.p.qps; i++) {
      this.rem[i] = await this.ctl!.handshake(this.my[i]!);
      this.#out.dest(this.rem[i]!, 'remote');
    }
  }

  /**
   * H×q (keys only): the first key exchange of every test. Without rdma_cm, `ctx_connect`
   * follows it: each QP to RTR with the peer's keys, and to RTS on the client (the only sender
   * of a bandwidth test) and on both ends of a latency test.
   */
  async handshakeAll(): Promise<void> {
    for (let i = 0; i < this.p.qps; i++) this.rem[i] = await this.ctl!.handshake(this.my[i]!);
    if (!this.#eth || this.#ibConnected) return;
    if (gidIsV4Mapped(this.my[0]!.gid) !== gidIsV4Mapped(this.rem[0]!.gid)) {
      throw new PerfError('\n Found Incompatibility issue with GID types.\n Please Try to use a different IP version.\n');
    }
    const rts = this.p.lat || this.client;
    const d = this.data!;
    for (const [i, qp] of d.qps.entries()) {
      if (!this.p.ud) connectIbRcQp(qp, this.my[i]!, this.rem[i]!, this.mtu, this.#gidIndex, rts);
      else {
        const ah = connectIbUdQp(qp, d.pd, this.my[i]!, this.rem[i]!, this.#gidIndex, rts);
        if (ah) d.ahs.push(ah);
      }
    }
    this.#ibConnected = true;
  }

  /** `ctx_close_connection`: a last handshake; without rdma_cm, then "done" and close. */
  async closeConnection(): Promise<void> {
    this.ctl!.finished = true;
    await this.handshake0();
    this.#eth?.done();
  }

  async handshake0(): Promise<void> {
    this.rem[0] = await this.ctl!.handshake(this.my[0]!);
  }

  /** `xchg_bw_reports`: size, iters (8 octets if the peer is ≥ 5.33, else 4), peak, average, rate. */
  async xchgBwReport(my: BwReport): Promise<BwReport> {
    const ctl = this.ctl!;
    const wide = versionAtLeast(this.#remVersion, 5.33);
    const size = readBe64(await ctl.xchg(be64(my.size), 8));
    const iters = wide ? readBe64(await ctl.xchg(be64(my.iters), 8)) : readBe32(await ctl.xchg(be32(my.iters), 4)) >>> 0;
    const bwPeak = readBeDouble(await ctl.xchg(beDouble(my.bwPeak), 8));
    const bwAvg = readBeDouble(await ctl.xchg(beDouble(my.bwAvg), 8));
    const msgRate = readBeDouble(await ctl.xchg(beDouble(my.msgRate), 8));
    return { size, iters, bwPeak, bwAvg, msgRate };
  }

  // -------------------------------------------------------------------- teardown

  /**
   * After the last control exchange: close every data connection gracefully and wait (briefly)
   * for DISCONNECTED — perftest 4.5's client waits, newer servers close and wait too, so both
   * roles close — then close the control connection (perftest just exits: its peer sees the
   * TCP connection end, which it expects at this point).
   */
  async teardown(): Promise<void> {
    this.#dataDone = true;
    if (this.ctl) this.ctl.finished = true;
    if (this.#eth) {
      // Without rdma_cm there is nothing to disconnect (`destroy_ctx`): the QPs are destroyed,
      // and an ACK still owed to the peer leaves first (the RoCEv2 transport flushes it).
      this.data?.destroyIb();
      this.#eth.close();
      if (this.#ibCtx) ibv_close_device(this.#ibCtx);
      rdma_destroy_event_channel(this.#ch);
      return;
    }
    const ids = this.data?.ids ?? [];
    for (const id of ids) await rdma_disconnect(id);
    await this.#waitDisconnected(ids, 3000);
    for (const id of ids) {
      rdma_destroy_qp(id);
      rdma_destroy_id(id);
    }
    if (this.#cm) {
      await rdma_disconnect(this.#cm.id);
      await this.#waitDisconnected([this.#cm.id], 1000);
      rdma_destroy_qp(this.#cm.id);
      rdma_destroy_id(this.#cm.id);
    }
    if (this.#listenId) rdma_destroy_id(this.#listenId);
    rdma_destroy_event_channel(this.#ch);
  }

  async #waitDisconnected(ids: rdma_cm_id[], ms: number): Promise<void> {
    const until = now() + ms;
    for (const id of ids) {
      while (!this.#pump.disconnected.has(id)) {
        const left = until - now();
        if (left <= 0) return;
        const e = await this.#pump.next(id, left);
        if (!e) return;
      }
    }
  }

  /** Best-effort cleanup after a failure (the process exits next). */
  abort(): void {
    this.#dataDone = true;
    for (const id of this.data?.ids ?? []) void rdma_disconnect(id);
    if (this.#cm) void rdma_disconnect(this.#cm.id);
    this.#eth?.close();
    if (this.#ibCtx) {
      // The QPs go to Error (no more retransmissions to a peer that may have gone), then away.
      for (const qp of this.data?.qps ?? []) ibv_destroy_qp(qp);
    }
    rdma_destroy_event_channel(this.#ch);
  }
}

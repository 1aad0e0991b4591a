/**
 * `softrdma perf`: the test loops of one end (perftest's `run_iter_bw`, `run_iter_bw_server`,
 * `run_iter_lat_write`, `run_iter_lat`, `run_iter_lat_send`, `ctx_set_recv_wqes`), with the
 * duration clock (`catch_alarm`), the work requests they post and the completions they wait for
 * (docs/interop-protocols.md §2.7–2.9).
 */
import { setImmediate as yieldLoop } from 'node:timers/promises';
import { ibv_send_flags, ibv_wc_status, ibv_wr_opcode } from '../verbs/constants.js';
import { getErrno } from '../verbs/errno.js';
import { ibv_poll_cq, ibv_post_recv, ibv_post_send, newWc } from '../verbs/ibverbs.js';
import type { ibv_ah, ibv_comp_channel, ibv_cq, ibv_qp, ibv_send_wr, ibv_wc, In } from '../verbs/types.js';
import { GRH_LEN } from '../wire/ib/constants.js';
import type { PerfConn } from './perf-conn.js';
import { PERF_UD_QKEY } from './perf-eth.js';
import { inc, now } from './perf-params.js';
import type { Printer } from './perf-print.js';
import { PerfError, waitCq, wcError } from './perf-proto.js';
import { type BwReport, bwAverage, bwReport, type LatDurReport, type LatReport, latDurReport, latReport } from './perf-report.js';

/** perftest's `UD_ADDITION`: the GRH in front of every UD receive (IBTA Vol. 1 §11.4.1.1). */
const UD_ADDITION = GRH_LEN;
const POLL_BATCH = 16;

/** perftest's duration state machine (`catch_alarm`): warm-up margin, sample window, cool-down. */
class DurationClock {
  static readonly START = 0;
  static readonly SAMPLE = 1;
  static readonly STOP = 2;
  static readonly END = 3;
  state = DurationClock.START;
  t0 = 0;
  t1 = 0;
  #timer: NodeJS.Timeout | null = null;
  readonly #duration: number;
  readonly #margin: number;
  constructor(duration: number, margin: number) {
    this.#duration = duration;
    this.#margin = margin;
  }
  start(): void {
    this.state = DurationClock.START;
    if (this.#margin > 0) this.#timer = setTimeout(() => this.#sample(), this.#margin * 1000);
    else this.#sample();
  }
  #sample(): void {
    this.state = DurationClock.SAMPLE;
    this.t0 = now();
    this.#timer = setTimeout(() => this.#stop(), (this.#duration - 2 * this.#margin) * 1000);
  }
  #stop(): void {
    this.state = DurationClock.STOP;
    this.t1 = now();
    if (this.#margin > 0) this.#timer = setTimeout(() => (this.state = DurationClock.END), this.#margin * 1000);
    else this.state = DurationClock.END;
  }
  get ended(): boolean {
    return this.state === DurationClock.END;
  }
  get sampling(): boolean {
    return this.state === DurationClock.SAMPLE;
  }
  cancel(): void {
    if (this.#timer) clearTimeout(this.#timer);
  }
}

/** The loops over one end's connection; each measures one message size. */
export class PerfLoops {
  readonly #wc: ibv_wc[] = Array.from({ length: POLL_BATCH }, () => newWc());
  readonly #wc1: ibv_wc[] = [newWc()];
  /** The send CQ's completions while the receive loop still holds a batch in {@link #wc}. */
  readonly #wcCredit: ibv_wc[] = Array.from({ length: POLL_BATCH }, () => newWc());
  /** The report of the last {@link runIterBw}. */
  lastBw: BwReport | null = null;

  readonly #conn: PerfConn;
  readonly #out: Printer;
  constructor(conn: PerfConn, out: Printer) {
    this.#conn = conn;
    this.#out = out;
  }

  get #p() {
    return this.#conn.p;
  }
  get #data() {
    return this.#conn.data;
  }
  get #rem() {
    return this.#conn.rem;
  }
  get #cycle() {
    return this.#conn.cycle;
  }
  get #cacheLine() {
    return this.#conn.cacheLine;
  }
  get #credits() {
    return this.#conn.credits;
  }
  get #waiter() {
    return this.#conn.waiter;
  }
  get #client() {
    return this.#conn.client;
  }

  /**
   * Posts `wr`. `what` names it in the error, and is a function where it needs formatting, so
   * that the latency loops build no string per iteration.
   */
  #post(qp: ibv_qp, wr: In<ibv_send_wr>, what: string | (() => string)): void {
    const r = ibv_post_send(qp, wr);
    if (r.ret !== 0) throw new PerfError(`Couldn't post send: ${typeof what === 'string' ? what : what()} (errno ${getErrno()})`);
  }

  /** Waits for one completion on `cq` (blocking or busy per mode) and checks its status. */
  async #one(cq: ibv_cq, ch: ibv_comp_channel, what: string | (() => string)): Promise<ibv_wc> {
    await waitCq(cq, this.#waiter.busyPoll ? null : ch, this.#wc1, this.#waiter);
    const w = this.#wc1[0]!;
    if (w.status !== ibv_wc_status.IBV_WC_SUCCESS) throw wcError(w, typeof what === 'string' ? what : what());
    return w;
  }

  /** `ctx_set_recv_wqes`: `rx_depth` receives of `size` per QP in the second half of the buffer. */
  postRecvs(size: number): void {
    const d = this.#data!;
    const p = this.#p;
    const cycling = !p.lat && this.#recvLength(size) <= this.#cycle / 2;
    const step = inc(this.#recvLength(size), this.#cacheLine);
    const wrap = Math.max(1, Math.floor(this.#cycle / step));
    for (let k = 0; k < p.qps; k++) {
      const base = d.mr.addr + BigInt((p.qps + k) * d.sendQpBuff);
      for (let j = 0; j < p.rxDepth; j++) {
        const off = cycling ? (j % wrap) * step : 0;
        this.#postRecv(k, base + BigInt(off), size);
      }
    }
  }

  /** A receive for a message of `size` octets: UD receives take the GRH in front (`SIZE(type, size, 1)`). */
  #recvLength(size: number): number {
    return this.#p.ud ? size + UD_ADDITION : size;
  }

  /** One receive WR per QP, refilled for each post (ibv_post_recv copies what it keeps), as perftest reuses its `rwr`. */
  readonly #recvWrs: { wr_id: bigint; sg_list: { addr: bigint; length: number; lkey: number }[] }[] = [];

  #postRecv(qp: number, addr: bigint, size: number): void {
    const d = this.#data!;
    const wr = (this.#recvWrs[qp] ??= { wr_id: BigInt(qp), sg_list: [{ addr: 0n, length: 0, lkey: 0 }] });
    const sge = wr.sg_list[0]!;
    sge.addr = addr;
    sge.length = this.#recvLength(size);
    sge.lkey = d.mr.lkey;
    const r = ibv_post_recv(d.qps[qp]!, wr);
    if (r.ret !== 0) throw new PerfError(`Couldn't post recv Qp = ${qp} (errno ${getErrno()})`);
  }

  /** `run_iter_bw` (client, all three verbs): tx_depth window, address cycling, CQ moderation, credits for Send. */
  async runIterBw(size: number): Promise<BwReport> {
    const p = this.#p;
    const d = this.#data!;
    const q = p.qps;
    const dur = p.duration > 0;
    const iters = p.iters;
    const tot = iters * q;
    const noPeak = p.noPeak;
    const tposted = new Float64Array(noPeak ? 1 : tot);
    const tcompleted = new Float64Array(noPeak ? 1 : tot);
    const cycling = size <= this.#cycle / 2;
    const step = inc(size, this.#cacheLine);
    const wrap = Math.max(1, Math.floor(this.#cycle / step));
    const credits = p.verb === 'send' && this.#credits;
    const opcode = this.#opcode();
    const scnt = new Array<number>(q).fill(0);
    const ccnt = new Array<number>(q).fill(0);
    const wrs = d.qps.map((_, i) => {
      const sge = { addr: d.mr.addr + BigInt(i * d.buff), length: size, lkey: d.mr.lkey };
      return {
        sge,
        locBase: sge.addr,
        remBase: this.#rem[i]!.vaddr,
        signaled: p.cqMod === 1,
        wr: {
          wr_id: BigInt(i),
          opcode,
          send_flags: 0,
          sg_list: [sge],
          wr: this.#remoteOf(i),
        },
      };
    });
    /** Address cycling (perftest): the next buffer slot after WR number `n`, wrapping at `wrap`. */
    const stepBig = BigInt(step);
    const advance = (w: (typeof wrs)[number], n: number): void => {
      if ((n + 1) % wrap === 0) {
        w.sge.addr = w.locBase;
        w.wr.wr.rdma.remote_addr = w.remBase;
      } else {
        w.sge.addr += stepBig;
        w.wr.wr.rdma.remote_addr += stepBig;
      }
    };
    // --post_list: per QP, L work requests chained through `next`, the last one signaled.
    const L = p.postList;
    const chains =
      L > 1
        ? wrs.map((w, wi) =>
            Array.from({ length: L }, (_, j) => ({
              sge: { ...w.sge },
              wr: {
                wr_id: w.wr.wr_id,
                opcode,
                send_flags: j === L - 1 ? ibv_send_flags.IBV_SEND_SIGNALED : 0,
                sg_list: [] as Array<typeof w.sge>,
                wr: this.#remoteOf(wi),
                next: null as unknown,
              },
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
    this.#out.status = () => `${size} B: ${dur ? `${counted} done` : `${Math.min(totccnt, tot)}/${tot}`}`;
    clock?.start();
    if (!dur && noPeak) tposted[0] = now();
    while (totscnt < tot || totccnt < tot || (clock && !clock.ended)) {
      let progressed = false;
      for (let idx = 0; idx < q; idx++) {
        const w = wrs[idx]!;
        if (L > 1) {
          const c = chains[idx]!;
          while ((scnt[idx]! < iters || dur) && scnt[idx]! - ccnt[idx]! + L <= p.txDepth) {
            if (credits && (scnt[idx]! + L - d.creditOf(idx)) >>> 0 >= p.rxDepth) break;
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
            this.#post(d.qps[idx]!, c[0]!.wr as In<ibv_send_wr>, () => `qp ${idx} scnt=${scnt[idx]! - L} (list of ${L})`);
            sigOut++;
            totscnt += L;
            progressed = true;
          }
          continue;
        }
        while ((scnt[idx]! < iters || dur) && scnt[idx]! - ccnt[idx]! + 1 <= p.txDepth) {
          if (credits && (scnt[idx]! + 1 - d.creditOf(idx)) >>> 0 >= p.rxDepth) break;
          if (p.cqMod > 1 && scnt[idx]! % p.cqMod === 0 && !(scnt[idx] === iters - 1 && !dur)) w.signaled = false;
          if (!noPeak) tposted[totscnt] = now();
          if (clock?.ended) break;
          w.wr.send_flags = w.signaled ? ibv_send_flags.IBV_SEND_SIGNALED : 0;
          if (ibv_post_send(d.qps[idx]!, w.wr).ret !== 0) {
            throw new PerfError(`Couldn't post send: qp ${idx} scnt=${scnt[idx]} (errno ${getErrno()})`);
          }
          if (w.signaled) sigOut++;
          if (cycling) advance(w, scnt[idx]!);
          scnt[idx]!++;
          totscnt++;
          progressed = true;
          if (scnt[idx]! % p.cqMod === p.cqMod - 1 || (!dur && scnt[idx] === iters - 1)) w.signaled = true;
        }
      }
      if (totccnt < tot || (dur && sigOut > 0)) {
        let n = ibv_poll_cq(d.scq, POLL_BATCH, this.#wc);
        if (n === 0 && !progressed) {
          this.#waiter.check();
          // Sleep on the CQ only when a signaled WR is outstanding: credits (an inbound Write
          // into memory) and the duration clock raise no completion event.
          if (sigOut > 0 && !this.#waiter.busyPoll) n = await waitCq(d.scq, d.sch, this.#wc, this.#waiter);
          else await yieldLoop();
        }
        if (n < 0) throw new PerfError(`poll CQ failed ${n}`);
        for (let i = 0; i < n; i++) {
          const wc = this.#wc[i]!;
          if (wc.status !== ibv_wc_status.IBV_WC_SUCCESS) throw wcError(wc, `send CQ (scnt=${totscnt}, ccnt=${totccnt})`);
          ccnt[Number(wc.wr_id)]! += p.cqMod;
          totccnt += p.cqMod;
          sigOut--;
          if (!noPeak) tcompleted[Math.min(totccnt, tot) - 1] = now();
          if (clock?.sampling) counted += p.cqMod;
        }
      } else if (!progressed) {
        this.#waiter.check();
        await yieldLoop();
      }
    }
    // Duration mode stops posting at the end of the clock: let the signaled WRs finish.
    while (sigOut > 0) {
      await this.#one(d.scq, d.sch, 'send CQ');
      sigOut--;
    }
    this.#out.status = null;
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
  async runIterBwServer(size: number): Promise<BwReport> {
    const p = this.#p;
    const d = this.#data!;
    const q = p.qps;
    const dur = p.duration > 0;
    const tot = p.iters * q;
    const cycling = this.#recvLength(size) <= this.#cycle / 2;
    const step = inc(this.#recvLength(size), this.#cacheLine);
    const wrap = Math.max(1, Math.floor(this.#cycle / step));
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
      wr: { rdma: { remote_addr: this.#rem[i]!.vaddr, rkey: this.#rem[i]!.rkey } },
    }));
    this.#out.status = () => `${size} B: ${dur ? `${counted} received` : `${rcnt}/${tot}`}`;
    const reapCredits = async (): Promise<void> => {
      const n = await waitCq(d.scq, this.#waiter.busyPoll ? null : d.sch, this.#wcCredit, this.#waiter);
      for (let j = 0; j < n; j++) {
        const wc = this.#wcCredit[j]!;
        if (wc.status !== ibv_wc_status.IBV_WC_SUCCESS) throw wcError(wc, 'Poll send CQ (credit)');
        scredit[Number(wc.wr_id)]!--;
        totScredit--;
      }
    };
    while (rcnt < tot || (clock && !clock.ended)) {
      let n: number;
      if (clock) {
        n = ibv_poll_cq(d.rcq, POLL_BATCH, this.#wc);
        if (n === 0) {
          this.#waiter.check();
          await yieldLoop();
          continue;
        }
      } else n = await waitCq(d.rcq, this.#waiter.busyPoll ? null : d.rch, this.#wc, this.#waiter);
      if (n < 0) throw new PerfError(`Poll Receive CQ failed ${n}`);
      if (first) {
        first = false;
        t0 = now();
        clock?.start();
      }
      // The batch stays in this.#wc while credits are posted: those are reaped into #wcCredit.
      for (let j = 0; j < n; j++) {
        const g = this.#wc[j]!;
        if (g.status !== ibv_wc_status.IBV_WC_SUCCESS) throw wcError(g, `receive CQ (rcnt=${rcnt})`);
        const id = Number(g.wr_id);
        rcntQp[id]!++;
        rcnt++;
        if (clock?.sampling) counted++;
        if (dur || postedQp[id]! + 1 <= p.iters) {
          const off = cycling ? (postedQp[id]! % wrap) * step : 0;
          this.#postRecv(id, d.mr.addr + BigInt((q + id) * d.sendQpBuff + off), size);
          postedQp[id]!++;
        }
        if (cr && (rcntQp[id]! % p.rxDepth) % creditCnt === 0) {
          cr.view.setUint32(4 * id, rcntQp[id]! >>> 0, true);
          while (scredit[id] === p.txDepth) await reapCredits();
          this.#post(d.qps[id]!, creditWr[id]! as In<ibv_send_wr>, () => `credit qp ${id}`);
          scredit[id]!++;
          totScredit++;
        }
      }
    }
    const t1 = clock ? clock.t1 : now();
    while (totScredit > 0) await reapCredits();
    this.#out.status = null;
    if (clock) return bwAverage(size, counted, clock.t0, t1, 0, p.gbits);
    return bwAverage(size, tot, t0, t1, 0, p.gbits);
  }

  /** A softrdma peer's MPA Responder sends nothing before our first FPDU: give it one. */
  async zeroLengthWrite(): Promise<void> {
    const d = this.#data!;
    this.#post(
      d.qps[0]!,
      {
        wr_id: 0n,
        opcode: ibv_wr_opcode.IBV_WR_RDMA_WRITE,
        send_flags: ibv_send_flags.IBV_SEND_SIGNALED,
        sg_list: [],
        num_sge: 0,
        wr: { rdma: { remote_addr: this.#rem[0]!.vaddr, rkey: this.#rem[0]!.rkey } },
      },
      'zero-length write',
    );
    await this.#one(d.scq, d.sch, 'zero-length write');
  }

  /**
   * What each latency loop starts from: the parameters, the data resources, duration or
   * iteration mode, a posting time per iteration, and the clock of duration mode.
   */
  #latStart() {
    const p = this.#p;
    const dur = p.duration > 0;
    const iters = p.iters;
    return {
      p,
      d: this.#data!,
      dur,
      iters,
      tposted: new Float64Array(Math.max(iters, 1)),
      clock: dur ? new DurationClock(p.duration, p.margin) : null,
    };
  }

  /**
   * `run_iter_lat_write`: each side writes `size` bytes whose last byte is its iteration
   * number, then spins on the last byte of its own target area until the peer's write of the
   * same number lands; the server posts first. An inbound Write raises no completion, so the
   * wait on memory always polls (yielding to the event loop between looks).
   */
  async runIterLatWrite(size: number): Promise<LatReport | LatDurReport> {
    const { p, d, dur, iters, tposted, clock } = this.#latStart();
    const postIdx = size - 1;
    const pollIdx = p.qps * d.buff + size - 1;
    const wr = {
      wr_id: 0n,
      opcode: ibv_wr_opcode.IBV_WR_RDMA_WRITE,
      send_flags: ibv_send_flags.IBV_SEND_SIGNALED,
      sg_list: [{ addr: d.mr.addr, length: size, lkey: d.mr.lkey }],
      wr: { rdma: { remote_addr: this.#rem[0]!.vaddr, rkey: this.#rem[0]!.rkey } },
    };
    let scnt = 0;
    let ccnt = 0;
    let rcnt = 0;
    let counted = 0;
    this.#out.status = () => `${size} B: ${dur ? counted : `${ccnt}/${iters}`}`;
    clock?.start();
    const buf = d.buf;
    while (scnt < iters || ccnt < iters || rcnt < iters || (clock && !clock.ended)) {
      if ((rcnt < iters || dur) && !(scnt < 1 && p.server)) {
        rcnt++;
        const want = rcnt & 0xff;
        while (buf[pollIdx] !== want && !clock?.ended) {
          this.#waiter.check();
          await yieldLoop();
        }
      }
      if (scnt < iters || dur) {
        if (!dur) tposted[scnt] = now();
        buf[postIdx] = ++scnt & 0xff;
        this.#post(d.qps[0]!, wr, () => `scnt=${scnt}`);
      }
      if (clock?.ended) break;
      if (ccnt < iters || dur) {
        await this.#one(d.scq, d.sch, () => `send CQ (scnt=${scnt}, ccnt=${ccnt})`);
        ccnt++;
        if (clock?.sampling) counted++;
      }
    }
    if (clock && scnt > ccnt) await this.#one(d.scq, d.sch, 'send CQ');
    this.#out.status = null;
    if (clock) return latDurReport(size, counted, clock.t0, clock.t1, 2);
    return latReport(size, iters, tposted, 2);
  }

  /** The work-request opcode of the test. */
  #opcode(): ibv_wr_opcode {
    const p = this.#p;
    if (p.verb === 'atomic')
      return p.atomicType === 'CMP_AND_SWAP' ? ibv_wr_opcode.IBV_WR_ATOMIC_CMP_AND_SWP : ibv_wr_opcode.IBV_WR_ATOMIC_FETCH_AND_ADD;
    return p.verb === 'write'
      ? ibv_wr_opcode.IBV_WR_RDMA_WRITE
      : p.verb === 'read'
        ? ibv_wr_opcode.IBV_WR_RDMA_READ
        : ibv_wr_opcode.IBV_WR_SEND;
  }

  /**
   * The remote half of QP `i`'s WR: `rdma` for Writes and Reads; for atomics the same object is
   * also `atomic` (perftest: compare 0 / swap 0 for CMP_AND_SWAP, add 1 for FETCH_AND_ADD), so
   * address cycling moves both.
   */
  #remoteOf(i: number): {
    rdma: { remote_addr: bigint; rkey: number; compare_add: bigint; swap: bigint };
    atomic?: { remote_addr: bigint; rkey: number; compare_add: bigint; swap: bigint };
    ud?: { ah: ibv_ah; remote_qpn: number; remote_qkey: number };
  } {
    const r = {
      remote_addr: this.#rem[i]!.vaddr,
      rkey: this.#rem[i]!.rkey,
      compare_add: this.#p.atomicType === 'CMP_AND_SWAP' ? 0n : 1n,
      swap: 0n,
    };
    if (this.#p.ud) return { rdma: r, ud: this.#udDest(i) };
    return this.#p.verb === 'atomic' ? { rdma: r, atomic: r } : { rdma: r };
  }

  /** `-c UD`: where QP `i`'s datagrams go (`ctx_set_send_wqes`): its address handle, the peer's QPN, perftest's Q_Key. */
  #udDest(i: number): { ah: ibv_ah; remote_qpn: number; remote_qkey: number } {
    return { ah: this.#data!.ahs[i]!, remote_qpn: this.#rem[i]!.qpn, remote_qkey: PERF_UD_QKEY };
  }

  /** `run_iter_lat` (ib_read_lat and ib_atomic_lat, client): one signaled RDMA Read or atomic at a time. */
  async runIterLatRead(size: number): Promise<LatReport | LatDurReport> {
    const { d, dur, iters, tposted, clock } = this.#latStart();
    const wr = {
      wr_id: 0n,
      opcode: this.#opcode(),
      send_flags: ibv_send_flags.IBV_SEND_SIGNALED,
      sg_list: [{ addr: d.mr.addr, length: size, lkey: d.mr.lkey }],
      wr: this.#remoteOf(0),
    };
    let scnt = 0;
    let counted = 0;
    this.#out.status = () => `${size} B: ${dur ? counted : `${scnt}/${iters}`}`;
    clock?.start();
    while (scnt < iters || (clock && !clock.ended)) {
      if (!dur) tposted[scnt] = now();
      scnt++;
      this.#post(d.qps[0]!, wr, () => `scnt=${scnt}`);
      await this.#one(d.scq, d.sch, () => `send CQ (scnt=${scnt})`);
      if (clock?.sampling) counted++;
    }
    this.#out.status = null;
    if (clock) return latDurReport(size, counted, clock.t0, clock.t1, 1);
    return latReport(size, iters, tposted, 1);
  }

  /**
   * `run_iter_lat_send`: strict ping-pong, the client sends first, the server first waits for a
   * receive; receives are re-posted while `received + rx_depth ≤ iters`; every Send is signaled
   * (CQ moderation is `tx_depth` = 1) and waited for.
   */
  async runIterLatSend(size: number): Promise<LatReport | LatDurReport> {
    const { p, d, dur, iters, tposted, clock } = this.#latStart();
    const recvBase = d.mr.addr + BigInt(p.qps * d.sendQpBuff);
    const wr = {
      wr_id: 0n,
      opcode: ibv_wr_opcode.IBV_WR_SEND,
      send_flags: 0,
      sg_list: [{ addr: d.mr.addr, length: size, lkey: d.mr.lkey }],
      ...(p.ud && { wr: { ud: this.#udDest(0) } }),
    };
    let scnt = 0;
    let rcnt = 0;
    let counted = 0;
    let first = true;
    this.#out.status = () => `${size} B: ${dur ? counted : `${rcnt}/${iters}`}`;
    while (scnt < iters || rcnt < iters || (clock && !clock.ended)) {
      if ((rcnt < iters || dur) && !(scnt < 1 && this.#client)) {
        let w: ibv_wc | null = null;
        if (clock) {
          while (!clock.ended || first) {
            if (ibv_poll_cq(d.rcq, 1, this.#wc1) > 0) {
              w = this.#wc1[0]!;
              break;
            }
            this.#waiter.check();
            await yieldLoop();
          }
        } else w = await this.#one(d.rcq, d.rch, () => `receive CQ (rcnt=${rcnt})`);
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
            this.#postRecv(qp, recvBase + BigInt(qp * d.sendQpBuff), size);
          }
        }
      }
      if (scnt < iters || (clock && !clock.ended)) {
        if (!dur) tposted[scnt] = now();
        scnt++;
        const signaled = scnt % p.cqMod === 0 || (!dur && scnt === iters);
        wr.send_flags = signaled ? ibv_send_flags.IBV_SEND_SIGNALED : 0;
        this.#post(d.qps[0]!, wr, () => `scnt=${scnt}`);
        if (signaled) await this.#one(d.scq, d.sch, () => `send CQ (scnt=${scnt})`);
      }
    }
    this.#out.status = null;
    if (clock) return latDurReport(size, counted, clock.t0, clock.t1, 2);
    return latReport(size, iters, tposted, 2);
  }
}

/**
 * `softrdma perf`: what a run prints, as perftest prints it (`ctx_print_test_info`,
 * `ctx_print_pingpong_data`, the result tables) or as JSON lines, and the progress line on a
 * terminal. The numbers and the row formats themselves are perf-report.ts.
 */
import type { CliIo } from './cli.js';
import { isRequestVerb, busyPollOf, type PerfParams, type Verb } from './perf-params.js';
import type { PingpongDest } from './perf-proto.js';
import {
  BW_HEADER_GB,
  BW_HEADER_MB,
  type BwReport,
  formatBwRow,
  formatLatDurRow,
  formatLatRow,
  hexAlt,
  LAT_DUR_HEADER,
  LAT_HEADER,
  type LatDurReport,
  type LatReport,
  RESULT_LINE,
} from './perf-report.js';

const VERB_NAME: Record<Verb, string> = { send: 'Send', write: 'RDMA_Write', read: 'RDMA_Read', atomic: 'Atomic' };

/** What the test information shows besides the parameters: the connection as it came up. */
export interface TestInfo {
  devName: string;
  /** The device is iWARP (Transport type IW). */
  iwarp: boolean;
  /** The path MTU as an `ibv_mtu`. */
  mtu: number;
  gidIndex: number;
  /** Connected without rdma_cm (perftest's Ethernet exchange). */
  eth: boolean;
}

/** Output: the perftest text, or JSON lines; a progress line on a terminal. */
export class Printer {
  #progressText = '';
  #ticker: NodeJS.Timeout | null = null;
  #spin = 0;
  /** What the progress line shows; the loops update it. */
  status: (() => string) | null = null;
  readonly #json: boolean;
  readonly #progress: boolean;
  readonly #io: CliIo;
  readonly #p: PerfParams;
  constructor(io: CliIo, p: PerfParams) {
    this.#io = io;
    this.#p = p;
    this.#json = p.json;
    this.#progress = p.progress;
  }
  #clear(): void {
    if (this.#progressText) {
      this.#io.out('\r\x1b[K');
      this.#progressText = '';
    }
  }
  text(s: string): void {
    if (this.#json) return;
    this.#clear();
    this.#io.out(s);
  }
  record(obj: Record<string, unknown>, line: string): void {
    this.#clear();
    this.#io.out(this.#json ? `${JSON.stringify(obj)}\n` : line);
  }
  startProgress(): void {
    if (!this.#progress || this.#json || this.#ticker) return;
    this.#ticker = setInterval(() => {
      const s = this.status?.();
      if (!s) return;
      const frame = '|/-\\'[this.#spin++ % 4];
      this.#progressText = ` ${frame} ${s}`;
      this.#io.out(`\r\x1b[K${this.#progressText}`);
    }, 250);
    this.#ticker.unref();
  }
  stopProgress(): void {
    if (this.#ticker) clearInterval(this.#ticker);
    this.#ticker = null;
    this.#clear();
  }

  /** The test's name in the JSON records (`write_bw`, `send_lat`, …). */
  get #name(): string {
    return `${this.#p.verb}_${this.#p.lat ? 'lat' : 'bw'}`;
  }

  get #role(): 'client' | 'server' {
    return this.#p.server ? 'server' : 'client';
  }

  get #poll(): 'busy' | 'event' {
    return busyPollOf(this.#p) ? 'busy' : 'event';
  }

  /** `ctx_print_test_info`. */
  testInfo(t: TestInfo): void {
    const p = this.#p;
    let s = RESULT_LINE;
    const name = p.verb === 'atomic' ? `${VERB_NAME.atomic} ${p.atomicType ?? 'FETCH_AND_ADD'}` : VERB_NAME[p.verb];
    s += `                    ${name} ${p.lat ? 'Latency ' : 'BW '}Test\n`;
    s += ` Dual-port       : OFF\t\tDevice         : ${t.devName}\n`;
    s += ` Number of qps   : ${p.qps}\t\tTransport type : ${t.iwarp ? 'IW' : 'IB'}\n`;
    s += ` Connection type : ${p.ud ? 'UD' : 'RC'}\t\tUsing SRQ      : OFF\n`;
    // A software RNIC has no PCIe, and we post with ibv_post_send (perftest's --use_old_post_send).
    s += ' PCIe relax order: Unsupported\n';
    s += ' ibv_wr* API     : OFF\n';
    if (!p.server) s += ` TX depth        : ${p.txDepth}\n`;
    if (p.verb === 'send' && p.server) s += ` RX depth        : ${p.rxDepth}\n`;
    if (!p.lat) s += ` CQ Moderation   : ${p.cqMod}\n`;
    s += ` Mtu             : ${1 << (7 + t.mtu)}[B]\n`;
    s += ' Link type       : Ethernet\n';
    s += ` GID index       : ${t.gidIndex}\n`;
    s += isRequestVerb(p.verb) ? ` Outstand reads  : ${p.outReads}\n` : ' Max inline data : 0[B]\n';
    s += ` rdma_cm QPs\t : ${t.eth ? 'OFF' : 'ON'}\n`;
    s += ` Data ex. method : ${t.eth ? 'Ethernet' : 'rdma_cm'}`;
    if (p.server && !t.eth) {
      s += `\n${RESULT_LINE} Waiting for client rdma_cm QP to connect\n Please run the same command with the IB/RoCE interface IP`;
    }
    s += `\n${RESULT_LINE}`;
    this.text(s);
  }

  /** `ctx_print_pingpong_data`. */
  dest(d: PingpongDest, side: 'local' | 'remote'): void {
    let s = ` ${side} address: LID ${hexAlt(d.lid, 4)} QPN ${hexAlt(d.qpn >>> 0, 6)} PSN ${hexAlt(d.psn >>> 0, 6)}`;
    if (isRequestVerb(this.#p.verb)) s += ` OUT ${hexAlt(d.outReads >>> 0, 4)}`;
    if (this.#p.verb !== 'send') s += ` RKey ${hexAlt(d.rkey >>> 0, 8)} VAddr ${hexAlt(d.vaddr, 16)}`;
    s += '\n';
    s += ` GID: ${[...d.gid].map((b) => String(b).padStart(2, '0')).join(':')}\n`;
    this.text(s);
  }

  bwRow(r: BwReport): void {
    const unit = this.#p.gbits ? 'Gb/sec' : 'MB/sec';
    const obj = {
      test: this.#name,
      role: this.#role,
      bytes: r.size,
      iterations: r.iters,
      bw_peak: r.bwPeak,
      bw_average: r.bwAvg,
      msg_rate: r.msgRate,
      bw_unit: unit,
      msg_rate_unit: 'Mpps',
      poll: this.#poll,
    };
    this.record(obj, formatBwRow(r, this.#p.gbits));
  }

  latRow(r: LatReport | LatDurReport): void {
    const base = { test: this.#name, role: this.#role, bytes: r.size, iterations: r.iters };
    const poll = this.#poll;
    if ('tps' in r) {
      this.record({ ...base, t_avg: r.tAvg, tps: r.tps, unit: 'usec', poll }, formatLatDurRow(r));
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
    this.record(obj, formatLatRow(r));
  }

  bwHeader(): void {
    this.text(RESULT_LINE + (this.#p.gbits ? BW_HEADER_GB : BW_HEADER_MB));
  }

  latHeader(): void {
    this.text(RESULT_LINE + (this.#p.duration > 0 ? LAT_DUR_HEADER : LAT_HEADER));
  }
}

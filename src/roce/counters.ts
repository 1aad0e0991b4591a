/**
 * The RoCEv2 counters: one owner for their names, meanings and values, per device and per QP,
 * and for how another process (`softrdma stat`) reads them.
 *
 * The names are Linux rxe's `hw_counters` (`rdma statistic show link rxe0/1`), so that a run
 * against rxe can be compared counter by counter; three more (`local_ack_timeout_err` as mlx5
 * names it, `resent_pkts`, `seq_naks_sent`) count what rxe folds into others. The transport
 * increments them in one-line calls ({@link RoceQpCounters.inc}); each increment counts for the
 * QP and for its device. A QP's counters live as long as the QP's transport (as
 * `rdma statistic qp` shows only live QPs); the device's from the first RoCE QP to process exit.
 *
 * **Publication.** `softrdma stat` runs in another process. While a process has RoCE counters it
 * writes them, about once a second and only when they changed, to one JSON file per device in
 * its counters directory ({@link countersDir}: `$SOFTRDMA_STATS_DIR`, else
 * `$XDG_RUNTIME_DIR/softrdma`, else `<tmpdir>/softrdma-<uid>`; mode 0700), named
 * `<pid>-<device>.json`, and removes it at exit. The timer is unreferenced: it never keeps a
 * process alive. A file whose process is gone is stale; the reader skips and removes it.
 *
 * @module
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Rnic } from '../rnic/rnic.js';
import { statsDirFromEnv } from '../util/env.js';
import { logger } from '../util/log.js';

const log = logger('roce:counters');

/** The counters in their order (rxe's `rxe_counter_name[]` order, then softrdma's), with meanings. */
export const ROCE_COUNTERS = [
  ['sent_pkts', 'packets handed to the network: requests, responses and ACKs, first sends and retransmissions'],
  ['rcvd_pkts', 'packets received for a QP of the device (after the ICRC and header checks)'],
  ['duplicate_request', 'responder: requests received with a PSN already executed (re-ACKed, or a Read/atomic replayed)'],
  ['out_of_seq_request', 'responder: requests received ahead of the expected PSN (a lost packet before them), once per gap'],
  ['rcvd_rnr_err', 'requester: RNR NAKs received (the peer had no receive posted)'],
  ['send_rnr_err', 'responder: RNR NAKs sent (no receive posted)'],
  ['rcvd_seq_err', 'requester: PSN sequence error NAKs received (the peer saw a gap)'],
  ['ack_deferred', 'responder: ACKs coalesced to the end of the event-loop turn instead of sent at once'],
  ['retry_exceeded_err', 'requester: WQEs completed with retry exceeded (retry_cnt used up)'],
  ['retry_rnr_exceeded_err', 'requester: WQEs completed with RNR retry exceeded (rnr_retry used up)'],
  ['completer_retry_err', 'requester: retransmissions started (Local ACK Timeout, sequence NAK or a lost Read response)'],
  ['send_err', 'packets the network refused to send (the UDP layer counts these per endpoint, not per QP: 0 here)'],
  ['link_downed', 'times the port went down (softroce0 has no link of its own: always 0)'],
  ['rdma_sends', 'send-queue WQEs completed successfully (acknowledged)'],
  ['rdma_recvs', 'receive WQEs completed successfully (a Send or Write with Immediate received)'],
  ['local_ack_timeout_err', 'requester: Local ACK Timeouts that expired (each one a go-back-N)'],
  ['resent_pkts', 'requester: packets sent again (go-back-N and Read retries)'],
  ['seq_naks_sent', 'responder: PSN sequence error NAKs sent (one per gap)'],
] as const;

export type RoceCounterName = (typeof ROCE_COUNTERS)[number][0];

/** Counter indices, for {@link RoceQpCounters.inc}. */
export const C = {
  SENT_PKTS: 0,
  RCVD_PKTS: 1,
  DUP_REQ: 2,
  OUT_OF_SEQ_REQ: 3,
  RCV_RNR: 4,
  SND_RNR: 5,
  RCV_SEQ_ERR: 6,
  ACK_DEFERRED: 7,
  RETRY_EXCEEDED: 8,
  RNR_RETRY_EXCEEDED: 9,
  COMP_RETRY: 10,
  SEND_ERR: 11,
  LINK_DOWNED: 12,
  RDMA_SEND: 13,
  RDMA_RECV: 14,
  LOCAL_ACK_TIMEOUT: 15,
  RESENT_PKTS: 16,
  SEQ_NAKS_SENT: 17,
} as const;

const N = ROCE_COUNTERS.length;

/** Counter values by name. */
export type RoceCounterValues = Record<RoceCounterName, number>;

/** The values of a counter array by name. */
export function countersByName(v: Float64Array): RoceCounterValues {
  const out = {} as RoceCounterValues;
  ROCE_COUNTERS.forEach(([name], i) => {
    out[name] = v[i]!;
  });
  return out;
}

/** What one device publishes (and `softrdma stat` reads). */
export interface PublishedCounters {
  pid: number;
  comm: string;
  device: string;
  port: number;
  counters: RoceCounterValues;
  qps: { lqpn: number; type: string; counters: RoceCounterValues }[];
}

interface DeviceState {
  readonly rnic: Rnic;
  readonly v: Float64Array;
  readonly qps: Set<RoceQpCounters>;
  last: string;
}

const devices = new Map<Rnic, DeviceState>();
let timer: NodeJS.Timeout | null = null;
const written = new Set<string>();

/** The directory the counters are published in (see the module documentation). */
export function countersDir(): string {
  return statsDirFromEnv() ?? runtimeDir();
}

/** The per-user directory of softrdma's run-time files: `$XDG_RUNTIME_DIR/softrdma`, else `<tmpdir>/softrdma-<uid>`. */
export function runtimeDir(): string {
  const xdg = process.env.XDG_RUNTIME_DIR?.trim();
  if (xdg) return join(xdg, 'softrdma');
  return join(tmpdir(), `softrdma-${process.getuid?.() ?? 'user'}`);
}

function device(rnic: Rnic): DeviceState {
  let d = devices.get(rnic);
  if (!d) {
    d = { rnic, v: new Float64Array(N), qps: new Set(), last: '' };
    devices.set(rnic, d);
    if (!timer) {
      timer = setInterval(publishCounters, 1000);
      timer.unref();
      process.once('exit', unpublish);
    }
  }
  return d;
}

/** The device counters of a RoCE RNIC by name (all zero before its first RoCE QP). */
export function deviceCounters(rnic: Rnic): RoceCounterValues {
  return countersByName(devices.get(rnic)?.v ?? new Float64Array(N));
}

/** The live QPs' counters of a RoCE RNIC. */
export function qpCounters(rnic: Rnic): { lqpn: number; type: string; counters: RoceCounterValues }[] {
  const d = devices.get(rnic);
  if (!d) return [];
  return [...d.qps].map((q) => ({ lqpn: q.qpn, type: q.type, counters: countersByName(q.v) }));
}

/** The counters of one QP and, through it, of its device. */
export class RoceQpCounters {
  readonly v = new Float64Array(N);
  readonly #dev: DeviceState;

  constructor(
    rnic: Rnic,
    readonly qpn: number,
    readonly type: string,
  ) {
    this.#dev = device(rnic);
    this.#dev.qps.add(this);
  }

  /** Counts `n` (default 1) for counter `i` ({@link C}) of this QP and of its device. */
  inc(i: number, n = 1): void {
    this.v[i]! += n;
    this.#dev.v[i]! += n;
  }

  /** The QP is gone: its counters stop being shown (the device keeps its share). */
  release(): void {
    this.#dev.qps.delete(this);
  }
}

/** Writes each device's counters to its file when they changed (see the module documentation). */
export function publishCounters(): void {
  if (devices.size === 0) return;
  const dir = countersDir();
  for (const d of devices.values()) {
    const rec: PublishedCounters = {
      pid: process.pid,
      comm: basename(process.argv[1] ?? process.title),
      device: d.rnic.config.name,
      port: 1,
      counters: countersByName(d.v),
      qps: qpCounters(d.rnic),
    };
    const text = JSON.stringify(rec);
    if (text === d.last) continue;
    const file = join(dir, `${process.pid}-${d.rnic.config.name}.json`);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // Written whole, then renamed: a reader never sees half a file.
      writeFileSync(`${file}.tmp`, text, { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
      written.add(file);
      d.last = text;
    } catch (e) {
      log('cannot publish counters to %s: %s', file, (e as Error).message);
    }
  }
}

function unpublish(): void {
  for (const f of written) {
    try {
      unlinkSync(f);
    } catch {
      // already gone
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The counters every live process has published in {@link countersDir}, by pid then device. A
 * file of a process that is gone is removed; one that does not parse is skipped.
 */
export function readPublishedCounters(dir = countersDir()): PublishedCounters[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: PublishedCounters[] = [];
  for (const name of names.sort()) {
    const m = /^(\d+)-([\w.-]+)\.json$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    const file = join(dir, name);
    if (!alive(pid)) {
      try {
        unlinkSync(file);
      } catch {
        // another reader removed it
      }
      continue;
    }
    try {
      const rec = JSON.parse(readFileSync(file, 'utf8')) as PublishedCounters;
      if (
        rec &&
        typeof rec === 'object' &&
        rec.pid === pid &&
        typeof rec.device === 'string' &&
        rec.counters &&
        typeof rec.counters === 'object'
      )
        out.push(rec);
    } catch {
      // being replaced, or not ours
    }
  }
  return out.sort((a, b) => a.pid - b.pid || a.device.localeCompare(b.device));
}

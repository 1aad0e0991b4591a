/**
 * One client process of `softrdma daemon`: its objects by handle, and their release, children
 * before parents (QPs, AHs, SRQs, CQs, completion channels, MRs, PDs, contexts), when the client goes —
 * as the kernel releases a process's verbs objects when its uverbs file closes.
 */
import type { ClientAsync } from './async.js';
import { logger } from '../util/log.js';
import type { Context } from '../verbs/device.js';
import { closeDevice } from '../verbs/device.js';
import { softrdmaLastError } from '../verbs/errno.js';
import {
  destroyAh,
  ibv_dealloc_pd,
  ibv_dereg_mr,
  ibv_destroy_comp_channel,
  ibv_destroy_cq,
  ibv_destroy_qp,
  ibv_destroy_srq,
} from '../verbs/ibverbs.js';
import type { ibv_ah, ibv_comp_channel, ibv_cq, ibv_mr, ibv_pd, ibv_qp, ibv_srq, ibv_wc } from '../verbs/types.js';
import { ClientCm } from './cm.js';
import { type CqRing, cqRingBytes } from './cq-ring.js';
import { ibv_wc_opcode } from '../verbs/constants.js';
import { preloadAddon } from './native.js';
import type { QpRing } from './qp-ring.js';

const log = logger('daemon');

type Ops = Context['ops'];

/**
 * A memory region of a client. `host` is the verbs face's registration of the daemon's mapping
 * (it holds the pages, at the engine's own address); the program's region is a second
 * registration of the same pages at the program's address (`ri_mr_reg_phys`), whose keys the
 * program gets, so that its SGE addresses and a peer's remote addresses need no translation.
 */
export interface ClientMr {
  host: ibv_mr;
  pd: number;
  ctx: Context;
  /** The RNICPI region at the program's address, and the pin and map under it. */
  ri: Parameters<Ops['ri_mr_dereg']>[1];
  io: Parameters<Ops['ri_mem_unmap']>[1];
  token: object;
  lkey: number;
  rkey: number;
}

/** Undoes a region: the program's registration, the map and pin of its pages, the host registration. */
export function deregClientMr(r: ClientMr): number {
  const { ops, rnic } = r.ctx;
  const st = ops.ri_mr_dereg(rnic, r.ri);
  if (st.status !== 0) return 1;
  ops.ri_mem_unmap(rnic, r.io, r.token);
  ops.ri_mem_unpin(rnic, r.host.addr, r.host.length, r.token);
  return ibv_dereg_mr(r.host);
}

/** A completion channel: the daemon's end of the socket whose other end is the program's `channel->fd`. */
export interface ClientChannel {
  ch: ibv_comp_channel;
  ctx: number;
  fd: number;
}

export interface ClientCq {
  cq: ibv_cq;
  ctx: number;
  channel: number;
  /** The program's `struct ibv_cq *`, written to the channel for each completion event. */
  user: bigint;
  /** The completion ring (cq-ring.ts) and the daemon's own channel that keeps it filled. */
  ring?: { ring: CqRing; ch: ibv_comp_channel };
}

/** Destroys a program's CQ, and its ring's channel; 0 or the verbs face's errno. */
export function destroyClientCq(q: ClientCq): number {
  const r = ibv_destroy_cq(q.cq);
  if (r !== 0) return r;
  if (q.ring) ibv_destroy_comp_channel(q.ring.ch);
  return 0;
}

export interface ClientQp {
  qp: ibv_qp;
  pd: number;
  /** The program's `struct ibv_qp *`, named in its asynchronous events. */
  user: bigint;
  /** The work-request rings (qp-ring.ts), when the program passed them. */
  ring?: QpRing;
}

export class Client {
  readonly contexts = new Map<number, Context>();
  readonly pds = new Map<number, { pd: ibv_pd; ctx: number }>();
  readonly mrs = new Map<number, ClientMr>();
  readonly channels = new Map<number, ClientChannel>();
  readonly cqs = new Map<number, ClientCq>();
  readonly qps = new Map<number, ClientQp>();
  /**
   * The rings of each QP that had them, by context handle and QP number, kept after the QP is
   * destroyed (until the number is used again) for its completions still in a CQ.
   */
  readonly qpRings = new Map<number, QpRing>();
  readonly ahs = new Map<number, { ah: ibv_ah; pd: number }>();
  /** `ring`: the S-RQ's receive ring (qp-ring.ts), when the program passed one. */
  readonly srqs = new Map<number, { srq: ibv_srq; pd: number; user: bigint; ring?: QpRing }>();
  /** The S-RQ ring each S-RQ's QP receives from, by context handle and QP number (as {@link qpRings}). */
  readonly srqRingOfQp = new Map<number, QpRing>();
  /** Each context's asynchronous events (async.ts), by context handle. */
  readonly asyncs = new Map<number, ClientAsync>();
  /** Octets of completion and work-request rings mapped for this client (cq-ring.ts, qp-ring.ts). */
  ringBytes(): number {
    let n = 0;
    for (const q of this.cqs.values()) if (q.ring) n += cqRingBytes(q.ring.ring.entries);
    for (const q of this.qps.values()) if (q.ring) n += q.ring.bytes;
    for (const q of this.srqs.values()) if (q.ring) n += q.ring.bytes;
    return n;
  }
  /**
   * A completion polled from a CQ of context `ctx`: its QP's ring, or for a receive from an
   * S-RQ the S-RQ's, if there is one, restores the WR ID.
   */
  completed(ctx: number, wc: ibv_wc): void {
    const k = ctx * 0x100_0000 + wc.qp_num;
    const s = wc.opcode & ibv_wc_opcode.IBV_WC_RECV ? this.srqRingOfQp.get(k) : undefined;
    (s ?? this.qpRings.get(k))?.complete(wc);
  }
  /** The daemon's end of the socket the program passes fds on (memory registration), or -1. */
  fdChannel = -1;
  /** Per PD handle: the bytes inline sends are copied from, and their region. */
  readonly inline = new Map<number, { mr: ibv_mr; buf: Uint8Array }>();
  /** rdma_cm: event channels, ids and events not acked. */
  readonly cm = new ClientCm();
  /** Ends the client (set by the daemon): for a client that breaks a bound. */
  onFatal: (() => void) | null = null;
  #nextHandle = 1;
  pid = 0;
  constructor(readonly id: number) {}
  handle(): number {
    return this.#nextHandle++;
  }

  /**
   * Destroys every object of the context `ctx` (all contexts: null), children first, and the
   * contexts themselves; logs what refused. `ibv_close_device` does this too: libibverbs' close
   * always succeeds, the kernel releasing what the program left (a context with objects is not
   * refused as the verbs face's own close refuses it).
   */
  free(ctx: number | null = null): void {
    const why = (what: string, h: number) => log('client %d: %s %d: %s', this.id, what, h, softrdmaLastError().message);
    const mine = (ctxOfIt: number | undefined) => ctx === null || ctxOfIt === ctx;
    // rdma_cm ids first: their connections end before their QPs go.
    if (ctx === null) this.cm.free();
    const pdCtx = (pd: number) => this.pds.get(pd)?.ctx;
    for (const [h, q] of this.qps) {
      if (!mine(pdCtx(q.pd))) continue;
      if (ibv_destroy_qp(q.qp) !== 0) why('qp', h);
      else {
        q.ring?.detach();
        this.qps.delete(h);
      }
    }
    for (const [h, { ah, pd }] of this.ahs) if (mine(pdCtx(pd))) destroyAh(ah) === 0 ? this.ahs.delete(h) : why('ah', h);
    for (const [h, q] of this.srqs) {
      if (!mine(pdCtx(q.pd))) continue;
      if (ibv_destroy_srq(q.srq) !== 0) why('srq', h);
      else {
        q.ring?.detach();
        this.srqs.delete(h);
      }
    }
    for (const [h, q] of this.cqs) if (mine(q.ctx)) destroyClientCq(q) === 0 ? this.cqs.delete(h) : why('cq', h);
    const addon = preloadAddon();
    for (const [h, c] of this.channels) {
      if (!mine(c.ctx)) continue;
      if (ibv_destroy_comp_channel(c.ch) === 0) this.channels.delete(h);
      else why('channel', h);
      addon?.close(c.fd);
    }
    for (const [h, r] of this.mrs) if (mine(pdCtx(r.pd))) deregClientMr(r) === 0 ? this.mrs.delete(h) : why('mr', h);
    for (const [h, { mr }] of this.inline) if (mine(pdCtx(h))) ibv_dereg_mr(mr) === 0 ? this.inline.delete(h) : why('inline mr of pd', h);
    for (const [h, { pd, ctx: x }] of this.pds) if (mine(x)) ibv_dealloc_pd(pd) === 0 ? this.pds.delete(h) : why('pd', h);
    for (const [h, c] of this.contexts) if (mine(h)) closeDevice(c) === 0 ? this.contexts.delete(h) : why('context', h);
    for (const [h, a] of this.asyncs) {
      if (!mine(h) || this.contexts.has(h)) continue;
      addon?.close(a.fd);
      this.asyncs.delete(h);
    }
    if (ctx === null) {
      if (this.fdChannel >= 0) addon?.close(this.fdChannel);
      this.fdChannel = -1;
    }
  }
}

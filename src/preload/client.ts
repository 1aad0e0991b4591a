/**
 * One client process of `softrdma daemon`: its objects by handle, and their release, children
 * before parents (QPs, AHs, SRQs, CQs, completion channels, MRs, PDs, contexts), when the client goes —
 * as the kernel releases a process's verbs objects when its uverbs file closes.
 */
import { logger } from '../util/log.js';
import type { Context } from '../verbs/device.js';
import { closeDevice } from '../verbs/device.js';
import { softrdmaLastError } from '../verbs/errno.js';
import { destroyAh, ibv_ack_cq_events, ibv_dealloc_pd, ibv_dereg_mr, ibv_destroy_comp_channel, ibv_destroy_cq, ibv_destroy_qp, ibv_destroy_srq } from '../verbs/ibverbs.js';
import type { ibv_ah, ibv_comp_channel, ibv_cq, ibv_mr, ibv_pd, ibv_qp, ibv_srq } from '../verbs/types.js';
import { preloadAddon } from './native.js';

const log = logger('daemon');

/** A memory region of a client: where it is in the program (`addr`) and in the engine (`mr.addr`). */
export interface ClientMr {
  mr: ibv_mr;
  pd: number;
  /** The program's address of the region's first byte. */
  addr: bigint;
  length: number;
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
}

export class Client {
  readonly contexts = new Map<number, Context>();
  readonly pds = new Map<number, { pd: ibv_pd; ctx: number }>();
  readonly mrs = new Map<number, ClientMr>();
  readonly channels = new Map<number, ClientChannel>();
  readonly cqs = new Map<number, ClientCq>();
  readonly qps = new Map<number, { qp: ibv_qp; pd: number }>();
  readonly ahs = new Map<number, ibv_ah>();
  readonly srqs = new Map<number, ibv_srq>();
  /** The daemon's end of the socket the program passes fds on (memory registration), or -1. */
  fdChannel = -1;
  /** Per PD handle: the bytes inline sends are copied from, and their region. */
  readonly inline = new Map<number, { mr: ibv_mr; buf: Uint8Array }>();
  private nextHandle = 1;
  pid = 0;
  constructor(readonly id: number) {}
  handle(): number {
    return this.nextHandle++;
  }

  /** Destroys every object, children first; logs what refused. */
  free(): void {
    const why = (what: string, h: number) => log('client %d: %s %d: %s', this.id, what, h, softrdmaLastError().message);
    for (const [h, { qp }] of this.qps) if (ibv_destroy_qp(qp) !== 0) why('qp', h);
    this.qps.clear();
    for (const [h, ah] of this.ahs) if (destroyAh(ah) !== 0) why('ah', h);
    this.ahs.clear();
    for (const [h, srq] of this.srqs) if (ibv_destroy_srq(srq) !== 0) why('srq', h);
    this.srqs.clear();
    for (const [h, { cq }] of this.cqs) {
      // Events the daemon forwarded were acknowledged as it forwarded them.
      ibv_ack_cq_events(cq, 0);
      if (ibv_destroy_cq(cq) !== 0) why('cq', h);
    }
    this.cqs.clear();
    const addon = preloadAddon();
    for (const [h, c] of this.channels) {
      if (ibv_destroy_comp_channel(c.ch) !== 0) why('channel', h);
      addon?.close(c.fd);
    }
    this.channels.clear();
    for (const [h, { mr }] of this.mrs) if (ibv_dereg_mr(mr) !== 0) why('mr', h);
    this.mrs.clear();
    for (const [h, { mr }] of this.inline) if (ibv_dereg_mr(mr) !== 0) why('inline mr of pd', h);
    this.inline.clear();
    for (const [h, { pd }] of this.pds) if (ibv_dealloc_pd(pd) !== 0) why('pd', h);
    this.pds.clear();
    for (const [h, ctx] of this.contexts) if (closeDevice(ctx) !== 0) why('context', h);
    this.contexts.clear();
    if (this.fdChannel >= 0) addon?.close(this.fdChannel);
    this.fdChannel = -1;
  }
}

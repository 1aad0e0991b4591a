/**
 * `softrdma perf`: the data connections' resources (perftest's `ctx_init`, `create_single_mr`,
 * `create_cqs`, `ctx_alloc_credit`, `destroy_ctx`): the buffer and its MR, the CQs and their
 * channels, the data QPs (over rdma_cm, or created and moved to INIT without it), the UD address
 * handles and the iWARP receive-credit slots.
 */
import { randomFillSync } from 'node:crypto';
import { ibv_access_flags as A, ibv_qp_type, ibv_transport_type } from '../verbs/constants.js';
import { getErrno } from '../verbs/errno.js';
import {
  ibv_alloc_pd,
  ibv_create_comp_channel,
  ibv_create_cq,
  ibv_dealloc_pd,
  ibv_dereg_mr,
  ibv_destroy_comp_channel,
  ibv_destroy_cq,
  ibv_destroy_qp,
  ibv_reg_mr,
} from '../verbs/ibverbs.js';
import { ibv_destroy_ah } from '../verbs/index.js';
import { rdma_create_qp } from '../verbs/rdma_cm.js';
import type { ibv_ah, ibv_comp_channel, ibv_context, ibv_cq, ibv_mr, ibv_qp, rdma_cm_id } from '../verbs/types.js';
import { createIbRcQp, createIbUdQp } from './perf-eth.js';
import { type PerfParams, buffSize, inc } from './perf-params.js';
import { PerfError } from './perf-proto.js';

/** The data connections' resources (`ctx_init`, `create_single_mr`, `create_cqs`). */
export class DataCtx {
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

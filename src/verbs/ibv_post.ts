/**
 * Posting work requests (manual §4.6: `ibv_post_send`, `ibv_post_recv`): `ibv_send_wr` and
 * `ibv_recv_wr` as RNICPI WRs, inline data through the QP's bounce buffer, and the C convention
 * of the first failing WR (`bad_wr`).
 *
 * @module
 */
import { RiRet } from '../rnicpi/status.js';
import { RiMemFlags, RiWrFlags, RiWrType, type ri_data_seg_t, type ri_wr_recv_t, type ri_wr_t } from '../rnicpi/types.js';
import { hostMemory } from '../rnic/hostmem.js';
import type { PostResult, WrList } from './api.js';
import { ibv_access_flags, ibv_qp_state, ibv_qp_type, ibv_send_flags, ibv_wr_opcode } from './constants.js';
import { type Context, errnoOf, fail } from './device.js';
import { EINVAL } from './errno.js';
import type { ibv_qp, ibv_recv_wr, ibv_send_wr, ibv_sge, In } from './types.js';
import { Ah, MAX_INLINE_DATA, Mr, Mw, type Qp, alive, sgeList, wrArray } from './ibv_objects.js';

// ------------------------------------------------------------------------------ posting

const TWO64 = 1n << 64n;

/**
 * `wr_id` is C's `uint64_t`, a bigint here: a number would lose precision above 2^53 and would
 * not compare equal to the `wc.wr_id` bigint it comes back as, so it is refused with a message.
 */
export function wrIdError(fn: string, id: unknown): string | null {
  if (id === undefined || (typeof id === 'bigint' && id >= 0n && id < TWO64)) return null;
  const hint = typeof id === 'number' ? ` (write ${Number.isInteger(id) && id >= 0 ? `${id}n or BigInt(${id})` : 'a bigint'})` : '';
  return `${fn}: wr_id must be a bigint in 0 … 2^64-1, got ${typeof id === 'bigint' ? String(id) : `a ${typeof id}`}${hint} (EINVAL)`;
}

export function firstOf<W>(list: W | readonly W[]): W | null {
  if (Array.isArray(list)) return (list as readonly W[])[0] ?? null;
  return (list as W) ?? null;
}

/** The remote side of an RDMA Write or Read: the address and the R_Key. */
function rdmaTarget(w: In<ibv_send_wr>): { rdma_addr: bigint; rtag: number } {
  return { rdma_addr: w.wr?.rdma?.remote_addr ?? 0n, rtag: (w.wr?.rdma?.rkey ?? 0) >>> 0 };
}

/** Converts one `ibv_send_wr` into an RNICPI WR; a number is the errno of a refused WR. */
export function toRiWr(q: Qp, w: In<ibv_send_wr>): ri_wr_t | number {
  const O = ibv_wr_opcode;
  const F = ibv_send_flags;
  const sf = w.send_flags ?? 0;
  let flags = 0;
  if (sf & F.IBV_SEND_SIGNALED || q.sqSigAll) flags |= RiWrFlags.SIGNALED_FLAG;
  if (sf & F.IBV_SEND_SOLICITED) flags |= RiWrFlags.SOLICITED_EVENT_FLAG;
  const id = w.wr_id ?? 0n;
  let sg = sgeList(w.sg_list, w.num_sge);
  if (!sg) return EINVAL;
  const op = w.opcode ?? O.IBV_WR_RDMA_WRITE;
  if (sf & F.IBV_SEND_INLINE && (op === O.IBV_WR_SEND || op === O.IBV_WR_RDMA_WRITE || op === O.IBV_WR_SEND_WITH_INV)) {
    const inl = inlineCopy(q, w.sg_list ?? [], sg);
    if (typeof inl === 'number') return inl;
    sg = inl;
  }
  if (q.qp_type === ibv_qp_type.IBV_QPT_UD) {
    // A UD Send (with or without immediate data, IBTA Vol. 1 §9.8.3 Table 38) names its
    // destination: the address handle, remote QPN and Q_Key (`wr.ud`).
    if (op !== O.IBV_WR_SEND && op !== O.IBV_WR_SEND_WITH_IMM) return EINVAL;
    const ud = w.wr?.ud;
    const ah = ud?.ah as Ah | null | undefined;
    if (!(ah instanceof Ah) || ah.dead || ah.context !== q.context) return EINVAL;
    return {
      type: op === O.IBV_WR_SEND_WITH_IMM ? RiWrType.SEND_IMMEDIATE : RiWrType.SEND,
      ...(op === O.IBV_WR_SEND_WITH_IMM && { imm_data: (w.imm_data ?? 0) >>> 0 }),
      flags,
      id,
      sg_list: sg,
      num_sgls: sg.length,
      remote_node_address: ah.ri,
      dest_qp: ud?.remote_qpn ?? 0,
      dest_qkey: (ud?.remote_qkey ?? 0) >>> 0,
      max_static_rate: 0,
    };
  }
  switch (op) {
    case O.IBV_WR_SEND_WITH_IMM:
      if (sf & F.IBV_SEND_FENCE) flags |= RiWrFlags.READ_FENCE_FLAG;
      return { type: RiWrType.SEND_IMMEDIATE, flags, id, sg_list: sg, num_sgls: sg.length, rtag: 0, imm_data: (w.imm_data ?? 0) >>> 0 };
    case O.IBV_WR_RDMA_WRITE_WITH_IMM:
      if (sf & F.IBV_SEND_FENCE) flags |= RiWrFlags.READ_FENCE_FLAG;
      return {
        type: RiWrType.RDMA_WRITE_IMMEDIATE,
        flags,
        id,
        sg_list: sg,
        num_sgls: sg.length,
        ...rdmaTarget(w),
        imm_data: (w.imm_data ?? 0) >>> 0,
      };
    case O.IBV_WR_ATOMIC_CMP_AND_SWP:
    case O.IBV_WR_ATOMIC_FETCH_AND_ADD: {
      // IB's fence orders an atomic after earlier Reads and atomics: the Read Fence.
      if (sf & F.IBV_SEND_FENCE) flags |= RiWrFlags.READ_FENCE_FLAG;
      const a = w.wr?.atomic;
      const cmpAdd = a?.compare_add ?? 0n;
      const swap = a?.swap ?? 0n;
      if (typeof cmpAdd !== 'bigint' || typeof swap !== 'bigint') return EINVAL;
      // The result buffer is the first SGE (8 octets); none discards the result.
      if (sg.length > 1) return EINVAL;
      return {
        type: op === O.IBV_WR_ATOMIC_FETCH_AND_ADD ? RiWrType.FETCH_AND_ADD : RiWrType.COMPARE_AND_SWAP,
        flags,
        id,
        rtag: (a?.rkey ?? 0) >>> 0,
        rdma_addr: a?.remote_addr ?? 0n,
        atomic_operand1: BigInt.asUintN(64, cmpAdd),
        atomic_operand2: BigInt.asUintN(64, swap),
        atomic_result: sg[0] ?? { tag: 0, addr: 0n, len: 0 },
      } as ri_wr_t;
    }
    case O.IBV_WR_SEND:
    case O.IBV_WR_SEND_WITH_INV: {
      // IB's fence (wait for earlier Reads) is iWARP's Read Fence.
      if (sf & F.IBV_SEND_FENCE) flags |= RiWrFlags.READ_FENCE_FLAG;
      const inv = op === O.IBV_WR_SEND_WITH_INV;
      return {
        type: inv ? RiWrType.SEND_INVALIDATE : RiWrType.SEND,
        flags,
        id,
        sg_list: sg,
        num_sgls: sg.length,
        rtag: inv ? (w.invalidate_rkey ?? 0) >>> 0 : 0,
      };
    }
    case O.IBV_WR_RDMA_WRITE:
      if (sf & F.IBV_SEND_FENCE) flags |= RiWrFlags.READ_FENCE_FLAG;
      return { type: RiWrType.RDMA_WRITE, flags, id, sg_list: sg, num_sgls: sg.length, ...rdmaTarget(w) };
    case O.IBV_WR_RDMA_READ:
      return { type: RiWrType.RDMA_READ, flags, id, sg_list: sg, num_sgls: sg.length, ...rdmaTarget(w) };
    case O.IBV_WR_LOCAL_INV: {
      if (sf & F.IBV_SEND_FENCE) flags |= RiWrFlags.LOCAL_FENCE_FLAG;
      const key = (w.invalidate_rkey ?? 0) >>> 0;
      const target = findKey(q.context, key);
      if (!target) return EINVAL;
      return target instanceof Mr
        ? { type: RiWrType.LOCAL_INVALIDATE_MR, flags, id, ltag: key, rtag: key, mrw_handle: target.ri }
        : { type: RiWrType.LOCAL_INVALIDATE_MW, flags, id, ltag: 0, rtag: key, mrw_handle: target.ri };
    }
    case O.IBV_WR_BIND_MW: {
      const b = w.bind_mw;
      const mw = b?.mw as Mw | null | undefined;
      const mr = b?.bind_info?.mr as Mr | null | undefined;
      if (!alive(mw, 'ibv_mw') || !alive(mr, 'ibv_mr')) return EINVAL;
      const acc = b!.bind_info!.mw_access_flags ?? 0;
      let mem = 0;
      if (acc & ibv_access_flags.IBV_ACCESS_REMOTE_READ) mem |= RiMemFlags.REMOTE_READ;
      if (acc & ibv_access_flags.IBV_ACCESS_REMOTE_WRITE) mem |= RiMemFlags.REMOTE_WRITE;
      if (acc & ibv_access_flags.IBV_ACCESS_ZERO_BASED) mem |= RiMemFlags.ZBVA;
      const rkey = (b!.rkey ?? mw.rkey) >>> 0;
      return {
        type: RiWrType.BIND,
        flags,
        id,
        mw_handle: mw.ri,
        rtag: rkey,
        mr_handle: mr.ri,
        ltag: mr.lkey,
        vaddr: b!.bind_info!.addr ?? 0n,
        length: Number(b!.bind_info!.length ?? 0n),
        mem_attr: mem,
      };
    }
    default:
      // Opcodes an RC QP cannot carry (siw: EINVAL at post time).
      return EINVAL;
  }
}

/** Copies inline payload into the QP's bounce slot (IBV_SEND_INLINE: buffer free on return). */
function inlineCopy(q: Qp, list: readonly In<ibv_sge>[], sg: ri_data_seg_t[]): ri_data_seg_t[] | number {
  const b = q.inline;
  let total = 0;
  for (const s of sg) total += s.len;
  if (!b || total > MAX_INLINE_DATA) return EINVAL;
  const slot = b.next;
  const at = slot * MAX_INLINE_DATA;
  let o = at;
  for (let i = 0; i < sg.length; i++) {
    const s = sg[i]!;
    if (s.len === 0) continue;
    const r = hostMemory.resolve(s.addr, s.len);
    if (!r) return EINVAL;
    b.mr.bytes.set(r.region.bytes.subarray(r.offset, r.offset + s.len), o);
    o += s.len;
  }
  void list;
  return [{ addr: b.mr.addr + BigInt(at), tag: b.mr.lkey, len: total }];
}

function findKey(ctx: Context, key: number): Mr | Mw | null {
  for (const o of ctx.objects) {
    if (o instanceof Mr && !o.dead && o.lkey === key) return o;
    if (o instanceof Mw && !o.dead && o.rkey === key) return o;
  }
  return null;
}

/**
 * The checks before a send WR is looked at: a live QP, in RTS or later (SQD/SQE/ERR, where WRs
 * are flushed); the RNIC would queue them in Idle, IB refuses them in RESET/INIT/RTR.
 */
export function sendRefused<W>(q: Qp, wr: WrList<W>): PostResult<W> | null {
  if (!alive(q, 'ibv_qp')) return { ret: fail(EINVAL), bad_wr: firstOf(wr) };
  const st = q.state;
  if (st === ibv_qp_state.IBV_QPS_RESET || st === ibv_qp_state.IBV_QPS_INIT || st === ibv_qp_state.IBV_QPS_RTR) {
    return { ret: fail(EINVAL), bad_wr: firstOf(wr) };
  }
  return null;
}

/** The result of a post that took every WR: shared, as posting is the hot path. */
const POSTED = Object.freeze({ ret: 0, bad_wr: null }) as PostResult<ibv_send_wr> & PostResult<ibv_recv_wr>;

export function ibv_post_send(qp: ibv_qp, wr: WrList<ibv_send_wr>): PostResult<ibv_send_wr> {
  const q = qp as Qp;
  const refused = sendRefused(q, wr);
  if (refused) return refused;
  if (!Array.isArray(wr) && (wr as In<ibv_send_wr>).next == null) {
    // One WR, the usual case: no list array, the same checks and result as the loop below.
    return postSendOne(q, wr as In<ibv_send_wr>) ?? POSTED;
  }
  const list = wrArray<In<ibv_send_wr>>(wr);
  for (let i = 0; i < list.length; i++) {
    const bad = postSendOne(q, list[i]!);
    if (bad) return bad;
  }
  return POSTED;
}

/** Posts one `ibv_send_wr`; null when it was taken, else the result naming it as `bad_wr`. */
function postSendOne(q: Qp, w: In<ibv_send_wr>): PostResult<ibv_send_wr> | null {
  const r = postTranslated<ibv_send_wr>(q, w, 'ibv_post_send', toRiWr, opcodeRefusal);
  if ('bad_wr' in r) return r;
  if (q.inline && (w.send_flags ?? 0) & ibv_send_flags.IBV_SEND_INLINE) q.inline.next = (q.inline.next + 1) % q.cap.max_send_wr;
  if (r.type === RiWrType.BIND) {
    const mw = w.bind_mw!.mw as Mw;
    mw.rkey = r.rtag;
  }
  return null;
}

function opcodeRefusal(w: In<ibv_send_wr>): string {
  return `ibv_post_send: opcode ${w.opcode} not available on this connection (the peer did not negotiate RFC 7306) (EINVAL)`;
}

/**
 * One send WR of either post verb into the SQ (`ri_qp_postsq`): its `wr_id` checked, then
 * `translate`d, then posted. Returns the work request the RNIC took, or the result naming `w`
 * as `bad_wr`. Atomics or immediate data on a connection that did not negotiate RFC 7306 (a
 * Linux siw peer) are refused as rdma-core's siw provider refuses the opcodes: EINVAL, with
 * `refusal`'s message.
 */
export function postTranslated<W extends { wr_id: bigint }>(
  q: Qp,
  w: In<W>,
  verb: string,
  translate: (q: Qp, w: In<W>) => ri_wr_t | number,
  refusal: (w: In<W>) => string,
): ri_wr_t | PostResult<W> {
  const badId = wrIdError(verb, w.wr_id);
  if (badId) return { ret: fail(EINVAL, badId), bad_wr: w };
  const r = translate(q, w);
  if (typeof r === 'number') return { ret: fail(r), bad_wr: w };
  const ctx = q.context;
  const st = ctx.ops.ri_qp_postsq(ctx.rnic, q.ri, [r]);
  if (st.status === RiRet.RNIC_ATOMICS_UNSUPPORTED || st.status === RiRet.WR_INVALID_TYPE)
    return { ret: fail(EINVAL, refusal(w)), bad_wr: w };
  if (st.status !== RiRet.SUCCESS) return { ret: fail(errnoOf(st.status)), bad_wr: w };
  return r;
}

export function ibv_post_recv(qp: ibv_qp, wr: WrList<ibv_recv_wr>): PostResult<ibv_recv_wr> {
  const q = qp as Qp;
  if (!alive(q, 'ibv_qp')) return { ret: fail(EINVAL), bad_wr: firstOf(wr) };
  // Receives are allowed from INIT on; the RNIC's Idle would take them in RESET too.
  if (q.state === ibv_qp_state.IBV_QPS_RESET) return { ret: fail(EINVAL), bad_wr: firstOf(wr) };
  const ctx = q.context;
  if (!Array.isArray(wr) && (wr as In<ibv_recv_wr>).next == null) {
    // One WR, the usual case (a receive re-posted per completion): no batch arrays, no
    // generator, the same checks and the same result as the loop below.
    const w = wr as In<ibv_recv_wr>;
    const badId = wrIdError('ibv_post_recv', w.wr_id);
    if (badId) return { ret: fail(EINVAL, badId), bad_wr: w };
    const sg = sgeList(w.sg_list, w.num_sge);
    if (!sg) return { ret: fail(EINVAL), bad_wr: w };
    const r = ctx.ops.ri_qp_postrq(ctx.rnic, q.ri, [{ flags: 0, id: w.wr_id ?? 0n, sg_list: sg, num_sgls: sg.length }]);
    if (r.status !== RiRet.SUCCESS) return { ret: fail(errnoOf(r.status)), bad_wr: w };
    return POSTED;
  }
  const batch: ri_wr_recv_t[] = [];
  const items: In<ibv_recv_wr>[] = [];
  for (const w of wrArray<In<ibv_recv_wr>>(wr)) {
    const badId = wrIdError('ibv_post_recv', w.wr_id);
    if (badId) return postRecvBatch(q, batch, items) ?? { ret: fail(EINVAL, badId), bad_wr: w };
    const sg = sgeList(w.sg_list, w.num_sge);
    if (!sg) {
      const done = postRecvBatch(q, batch, items);
      return done ?? { ret: fail(EINVAL), bad_wr: w };
    }
    batch.push({ flags: 0, id: w.wr_id ?? 0n, sg_list: sg, num_sgls: sg.length });
    items.push(w);
  }
  return postRecvBatch(q, batch, items) ?? { ret: 0, bad_wr: null };
  function postRecvBatch(qq: Qp, b: ri_wr_recv_t[], its: In<ibv_recv_wr>[]): PostResult<ibv_recv_wr> | null {
    if (b.length === 0) return null;
    const r = ctx.ops.ri_qp_postrq(ctx.rnic, qq.ri, b);
    if (r.status !== RiRet.SUCCESS) return { ret: fail(errnoOf(r.status)), bad_wr: its[r.num_wrs] ?? null };
    return null;
  }
}

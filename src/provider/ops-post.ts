/**
 * Posting work requests (RNICPI 1.0 Ch. 7: `ri_qp_postsq`, the single-WR `ri_qp_post_*`,
 * `ri_qp_postrq`, `ri_qp_post_recv`, `ri_srq_post`, `ri_srq_post_recv`): decoding each
 * `ri_wr_t` variant into the engine's form. Validating and queueing a WR is the core's
 * (`src/rnic/post.ts`).
 *
 * @module
 */
import { ATOMIC_SIZES, AtomicKind, atomicArgs } from '../rnic/atomics.js';
import { postRq, postSq, postSrq, type SgeIn, type SqWrIn } from '../rnic/post.js';
import type { RiPostListResult } from '../rnicpi/ops.js';
import { RiRet, type RiStatus, riFail, riStatus } from '../rnicpi/status.js';
import { RiWrType, type ri_data_seg_t, type ri_wr_recv_t, type ri_wr_t } from '../rnicpi/types.js';
import {
  type RiOp,
  type SoftrdmaRnicHandle,
  SrqHandle,
  QpHandle,
  MrHandle,
  MwHandle,
  AhHandle,
  objOf,
  rnicOf,
  own,
  listFail,
  XPORT,
} from './handles.js';

function sgl(list: readonly ri_data_seg_t[] | undefined, num: number | undefined): SgeIn[] | RiRet {
  const l = list ?? [];
  if (!Array.isArray(l)) return RiRet.WR_SG_INVALID_FORMAT;
  const n = num ?? l.length;
  if (!Number.isInteger(n) || n < 0 || n > l.length) return RiRet.WR_SG_INVALID_FORMAT;
  const out: SgeIn[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const s = l[i];
    if (!s || typeof s !== 'object') return RiRet.WR_SG_INVALID_FORMAT;
    out[i] = { stag: s.tag, to: s.addr, len: s.len };
  }
  return out;
}

/** Decodes one `ri_wr_t` into the engine's WR form. */
function toSqWr(rnic: SoftrdmaRnicHandle, wr: ri_wr_t): SqWrIn | RiRet {
  if (!wr || typeof wr !== 'object') return RiRet.INVALID_PARAMETER;
  // The data-path types build their WR in one literal of one shape (the hot path: no spread).
  switch (wr.type) {
    case RiWrType.SEND:
    case RiWrType.SEND_INVALIDATE:
    case RiWrType.SEND_IMMEDIATE: {
      const s = sgl(wr.sg_list, wr.num_sgls);
      if (typeof s === 'number') return s;
      if ('remote_node_address' in wr) {
        // A datagram (UD Send): the destination is the address handle's AV, copied now.
        const ah = own(rnic, wr.remote_node_address, AhHandle);
        if (!ah) return RiRet.ADDRESS_HANDLE_INVALID;
        const dimm = wr.type === RiWrType.SEND_IMMEDIATE ? (wr.imm_data ?? 0) : 0;
        return {
          type: wr.type,
          flags: wr.flags,
          id: wr.id,
          sgl: s,
          rtag: 0,
          remoteTo: 0n,
          imm: dimm,
          ud: { av: ah.av, remoteQpn: wr.dest_qp, remoteQkey: wr.dest_qkey },
        };
      }
      const rtag = wr.type === RiWrType.SEND_INVALIDATE && 'rtag' in wr ? wr.rtag : 0;
      const imm = wr.type === RiWrType.SEND_IMMEDIATE && 'imm_data' in wr ? (wr.imm_data ?? 0) : 0;
      return { type: wr.type, flags: wr.flags, id: wr.id, sgl: s, rtag, remoteTo: 0n, imm };
    }
    case RiWrType.RDMA_WRITE:
    case RiWrType.RDMA_WRITE_IMMEDIATE:
    case RiWrType.RDMA_READ:
    case RiWrType.RDMA_READ_LOCAL_INVALIDATE: {
      const s = sgl(wr.sg_list, wr.num_sgls);
      if (typeof s === 'number') return s;
      const imm = wr.type === RiWrType.RDMA_WRITE_IMMEDIATE && 'imm_data' in wr ? (wr.imm_data ?? 0) : 0;
      return { type: wr.type, flags: wr.flags, id: wr.id, sgl: s, rtag: wr.rtag, remoteTo: wr.rdma_addr, imm };
    }
  }
  const base = { type: wr.type, flags: wr.flags, id: wr.id };
  switch (wr.type) {
    case RiWrType.COMPARE_AND_SWAP:
    case RiWrType.FETCH_AND_ADD: {
      // One executor for plain, masked and extended atomics (src/rnic/atomics.ts).
      const size = wr.atomic_size ?? 8;
      const ops = [wr.atomic_operand1, wr.type === RiWrType.FETCH_AND_ADD ? 0n : wr.atomic_operand2];
      const masks = [wr.atomic_mask1, wr.atomic_mask2];
      if (!ATOMIC_SIZES.includes(size)) return RiRet.INVALID_PARAMETER;
      const lim = 1n << BigInt(size * 8);
      for (const v of [...ops, ...masks])
        if (v !== undefined && (typeof v !== 'bigint' || v < 0n || v >= lim)) return RiRet.INVALID_PARAMETER;
      const kind = wr.type === RiWrType.FETCH_AND_ADD ? AtomicKind.FETCH_ADD : AtomicKind.COMPARE_SWAP;
      const r = wr.atomic_result;
      const s = r ? sgl([r], 1) : [];
      if (typeof s === 'number') return s;
      return {
        ...base,
        sgl: s,
        rtag: wr.rtag,
        remoteTo: wr.rdma_addr,
        atomic: atomicArgs(kind, size, ops[0]!, ops[1]!, masks[0], masks[1]),
      };
    }
    case RiWrType.BIND: {
      const mw = own(rnic, wr.mw_handle, MwHandle);
      if (!mw) return RiRet.MW_INVALID_HANDLE;
      const mr = own(rnic, wr.mr_handle, MrHandle);
      if (!mr) return RiRet.MR_INVALID_HANDLE;
      return {
        ...base,
        mw: mw.mem,
        mr: mr.mem,
        mrStag: wr.ltag,
        bindVa: wr.vaddr,
        bindLength: wr.length,
        bindFlags: wr.mem_attr,
        rtag: wr.rtag,
      };
    }
    case RiWrType.FAST_REGISTER: {
      const mr = own(rnic, wr.mr_handle, MrHandle);
      if (!mr) return RiRet.MR_INVALID_HANDLE;
      const a = wr.attr;
      if (!a?.common || !Array.isArray(a.phys_buf_list)) return RiRet.INVALID_PARAMETER;
      const n = a.nbufs ?? a.phys_buf_list.length;
      if (!Number.isInteger(n) || n < 0 || n > a.phys_buf_list.length) return RiRet.INVALID_PARAMETER;
      // A Fast-Register takes a page list (pble_size ≠ 0); see the spec-notes.
      if (!Number.isInteger(a.pble_size) || a.pble_size <= 0) return RiRet.INVALID_PARAMETER;
      const pbl = a.phys_buf_list.slice(0, n) as bigint[];
      if (pbl.some((x) => typeof x !== 'bigint')) return RiRet.INVALID_PARAMETER;
      return {
        ...base,
        target: mr.mem,
        targetStag: wr.ltag,
        fmr: {
          va: a.common.va,
          length: a.common.length,
          memFlags: a.common.mem_attr,
          pbl,
          pbeSize: a.pble_size,
          fbo: a.address_offset,
        },
      };
    }
    case RiWrType.LOCAL_INVALIDATE_MR:
    case RiWrType.LOCAL_INVALIDATE_MW: {
      const isMw = wr.type === RiWrType.LOCAL_INVALIDATE_MW;
      const h = isMw ? own(rnic, wr.mrw_handle, MwHandle) : own(rnic, wr.mrw_handle, MrHandle);
      if (!h) return isMw ? RiRet.MW_INVALID_HANDLE : RiRet.MR_INVALID_HANDLE;
      // The STag checked is the region's LTag, or the window's RTag (windows have no LTag).
      return { ...base, target: h.mem, targetStag: isMw ? wr.rtag : wr.ltag };
    }
    default:
      // Unknown types (WR_INVALID_TYPE): the engine decides.
      return base;
  }
}

function postSqOne(rnic: SoftrdmaRnicHandle, q: QpHandle, wr: ri_wr_t): RiRet {
  const w = toSqWr(rnic, wr);
  if (typeof w === 'number') return w;
  return postSq(q.qp, w, rnic.privileged);
}

function postRecvOne(_rnic: SoftrdmaRnicHandle, target: QpHandle | SrqHandle, wr: ri_wr_recv_t): RiRet {
  if (!wr || typeof wr !== 'object') return RiRet.INVALID_PARAMETER;
  const s = sgl(wr.sg_list, wr.num_sgls);
  if (typeof s === 'number') return s;
  return target instanceof QpHandle ? postRq(target.qp, wr.flags, wr.id, s) : postSrq(target.srq, wr.flags, wr.id, s);
}

/** The result of a list of one posted WR: the usual case, shared (a result object per post is garbage). */
const POSTED_ONE: RiPostListResult = Object.freeze({ status: RiRet.SUCCESS, num_wrs: 1 });

/** Posts `list` WR by WR with `one(rnic, target, wr)`, stopping at the first immediate error (Verbs §8.2.1). */
function postList<W, T>(
  list: readonly W[],
  num: number | undefined,
  rnic: SoftrdmaRnicHandle,
  target: T,
  one: (rnic: SoftrdmaRnicHandle, target: T, w: W) => RiRet,
): RiPostListResult {
  if (!Array.isArray(list)) return { status: RiRet.INVALID_PARAMETER, num_wrs: 0 };
  const n = num ?? list.length;
  if (!Number.isInteger(n) || n < 0 || n > list.length) return { status: RiRet.INVALID_PARAMETER, num_wrs: 0 };
  for (let i = 0; i < n; i++) {
    const st = one(rnic, target, list[i]!);
    if (st !== RiRet.SUCCESS) return { status: st, num_wrs: i };
  }
  return n === 1 ? POSTED_ONE : { status: RiRet.SUCCESS, num_wrs: n };
}

function single(rnic: unknown, qp: unknown, wr: ri_wr_t): RiStatus {
  const h = objOf(rnic, qp, QpHandle, RiRet.QP_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  const r = h.owner;
  return riStatus(postSqOne(r, h, wr));
}

export const ri_qp_postsq: RiOp<'ri_qp_postsq'> = (rnic, qp, wr, num_wrs) => {
  const h = objOf(rnic, qp, QpHandle, RiRet.QP_INVALID_HANDLE);
  if (typeof h === 'number') return listFail(h);
  const r = h.owner;
  return postList(wr, num_wrs, r, h, postSqOne);
};

export const ri_qp_post_send: RiOp<'ri_qp_post_send'> = (rnic, qp, type, flags, id, sg_list, rtag, num_sgls, imm_data) => {
  return single(rnic, qp, { type, flags, id, sg_list, rtag, num_sgls, imm_data } as ri_wr_t);
};

export const ri_qp_post_rdma_read: RiOp<'ri_qp_post_rdma_read'> = (rnic, qp, type, flags, id, sg_list, rdma_addr, num_sgls, rtag) => {
  return single(rnic, qp, { type, flags, id, sg_list, rdma_addr, num_sgls, rtag } as ri_wr_t);
};

export const ri_qp_post_rdma_write: RiOp<'ri_qp_post_rdma_write'> = (
  rnic,
  qp,
  type,
  flags,
  id,
  sg_list,
  rdma_addr,
  rtag,
  num_sgls,
  imm_data,
) => {
  return single(rnic, qp, { type, flags, id, sg_list, rdma_addr, rtag, num_sgls, imm_data } as ri_wr_t);
};

export const ri_qp_post_bind: RiOp<'ri_qp_post_bind'> = (
  rnic,
  qp,
  type,
  flags,
  id,
  mw_handle,
  rtag,
  mr_handle,
  ltag,
  vaddr,
  length,
  mem_attr,
) => {
  return single(rnic, qp, { type, flags, id, mw_handle, rtag, mr_handle, ltag, vaddr, length, mem_attr } as ri_wr_t);
};

export const ri_qp_post_fmr: RiOp<'ri_qp_post_fmr'> = (rnic, qp, type, flags, id, attr, ltag, rtag, mr_handle) => {
  return single(rnic, qp, { type, flags, id, attr, ltag, rtag, mr_handle } as ri_wr_t);
};

export const ri_qp_post_local_invalidate: RiOp<'ri_qp_post_local_invalidate'> = (rnic, qp, type, flags, id, ltag, rtag, mrw_handle) => {
  return single(rnic, qp, { type, flags, id, ltag, rtag, mrw_handle } as ri_wr_t);
};

export const ri_qp_post_atomic: RiOp<'ri_qp_post_atomic'> = (
  rnic,
  qp,
  type,
  flags,
  id,
  rtag,
  atomic_operand1,
  atomic_operand2,
  atomic_result,
  rdma_addr,
) => {
  return single(rnic, qp, { type, flags, id, rtag, atomic_operand1, atomic_operand2, atomic_result, rdma_addr } as ri_wr_t);
};

export const ri_qp_post_datagram: RiOp<'ri_qp_post_datagram'> = (rnic, qp) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (!own(r, qp, QpHandle)) return riFail(RiRet.QP_INVALID_HANDLE);
  return XPORT;
};

export const ri_qp_postrq: RiOp<'ri_qp_postrq'> = (rnic, qp_handle, wr, num_wrs) => {
  const h = objOf(rnic, qp_handle, QpHandle, RiRet.QP_INVALID_HANDLE);
  if (typeof h === 'number') return listFail(h);
  const r = h.owner;
  return postList(wr, num_wrs, r, h, postRecvOne);
};

export const ri_qp_post_recv: RiOp<'ri_qp_post_recv'> = (rnic, qp_handle, flags, id, sg_list, num_sgls) => {
  const res = ri_qp_postrq(rnic, qp_handle, [{ flags, id, sg_list, num_sgls }]);
  return riStatus(res.status);
};

export const ri_srq_post: RiOp<'ri_srq_post'> = (rnic, srq_handle, wr, num_wrs) => {
  const h = objOf(rnic, srq_handle, SrqHandle, RiRet.SRQ_INVALID_HANDLE);
  if (typeof h === 'number') return listFail(h);
  const r = h.owner;
  return postList(wr, num_wrs, r, h, postRecvOne);
};

export const ri_srq_post_recv: RiOp<'ri_srq_post_recv'> = (rnic, srq_handle, flags, id, sg_list, num_sgls) => {
  const res = ri_srq_post(rnic, srq_handle, [{ flags, id, sg_list, num_sgls }]);
  return riStatus(res.status);
};

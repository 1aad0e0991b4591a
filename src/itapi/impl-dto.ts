/**
 * IT-API 2.1 over RNICPI: data transfer operations on RC Endpoints (`it_post_send`,
 * `it_post_recv`, `it_post_rdma_*`, `it_post_atomic`, `it_post_send_and_unlink`; IT-API 2.1 Ch.
 * 6, the DTO group).
 *
 * @module
 */
import { RiWrType, type ri_data_seg_t, type ri_wr_t } from '../rnicpi/types.js';
import type { ItApi } from './api.js';
import type { SqRec } from './ep-events.js';
import type { Ep } from './ep.js';
import { Srq } from './srq.js';
import { Lmr, Rmr } from './mem.js';
import { check, fail } from './objects.js';
import { it_status_t as S } from './status.js';
import {
  IT_COMPARE_AND_SWAP,
  IT_FETCH_AND_ADD,
  it_dto_flags_t as DF,
  type it_dto_cookie_t,
  type it_ep_handle_t,
  type it_lmr_triplet_t,
  type it_rdma_addr_t,
  type it_rmr_context_t,
  type it_rmr_triplet_t,
} from './types.js';
import { BAD_STAG, isUint, cookieOf, checkDtoFlags, BASE_SQ, RECV_FLAGS, rcEp, riFlags, checkSqState, sglOf } from './impl-common.js';

const SEND_FLAGS = BASE_SQ | DF.IT_SOLICITED_WAIT_FLAG;

const READ_FLAGS = BASE_SQ | DF.IT_UNLINK_LOCAL_SINK;

function totalOf(sgl: readonly ri_data_seg_t[]): number {
  let n = 0;
  for (const s of sgl) n += s.len;
  return n;
}

/**
 * `it_post_rdma_read` and `it_post_rdma_read_to_rmr` once the sink's segments are checked: an
 * RDMA Read, or with `IT_UNLINK_LOCAL_SINK` (exactly one segment) an RDMA Read with Local
 * Invalidate whose success unlinks that segment's region (`sinkOf`).
 */
function postRead(
  ep: Ep,
  sgl: ri_data_seg_t[],
  cookie: it_dto_cookie_t,
  dto_flags: DF,
  rdma_addr: it_rdma_addr_t,
  rmr_context: it_rmr_context_t,
  sinkOf: () => Lmr | Rmr | undefined,
): void {
  const unlink = (dto_flags & DF.IT_UNLINK_LOCAL_SINK) !== 0;
  let sink: Lmr | Rmr | undefined;
  if (unlink) {
    if (sgl.length !== 1) fail(S.IT_ERR_INVALID_DTO_FLAGS, 'IT_UNLINK_LOCAL_SINK needs exactly one segment');
    sink = sinkOf();
  }
  const rec: Omit<SqRec, 'seq'> = { kind: 'read', cookie: cookieOf(cookie), flags: dto_flags };
  if (sink) rec.sink = sink;
  ep.postSq(
    rec,
    {
      type: unlink ? RiWrType.RDMA_READ_LOCAL_INVALIDATE : RiWrType.RDMA_READ,
      flags: riFlags(dto_flags, 'read'),
      id: 0n,
      sg_list: sgl,
      rdma_addr: BigInt.asUintN(64, rdma_addr),
      rtag: rmr_context >>> 0,
    },
    totalOf(sgl),
  );
}

/** `it_post_send`, and `it_post_send_and_unlink` (`rmr_context` not null: a Send with Invalidate). */
function postSend(
  ep_handle: it_ep_handle_t,
  local_segments: readonly it_lmr_triplet_t[],
  cookie: it_dto_cookie_t,
  dto_flags: DF,
  rmr_context: it_rmr_context_t | null,
): void {
  const ep = rcEp(ep_handle);
  checkSqState(ep);
  checkDtoFlags(dto_flags, SEND_FLAGS);
  const sgl = sglOf(ep, local_segments, ep.attr.max_send_segments, true);
  const wr: ri_wr_t =
    rmr_context === null
      ? { type: RiWrType.SEND, flags: riFlags(dto_flags, 'send'), id: 0n, sg_list: sgl }
      : { type: RiWrType.SEND_INVALIDATE, flags: riFlags(dto_flags, 'send'), id: 0n, sg_list: sgl, rtag: rmr_context >>> 0 };
  ep.postSq({ kind: 'send', cookie: cookieOf(cookie), flags: dto_flags }, wr, totalOf(sgl));
}

/** The DTO group of {@link ItApi}. */
export const itDto: Pick<
  ItApi,
  | 'it_post_atomic'
  | 'it_post_rdma_read'
  | 'it_post_rdma_read_to_rmr'
  | 'it_post_rdma_write'
  | 'it_post_recv'
  | 'it_post_send'
  | 'it_post_send_and_unlink'
> = {
  it_post_atomic(ep_handle, op, swap_or_add, compare, result, cookie, dto_flags, rdma_addr, rmr_context) {
    // IT-API §6 it_post_atomic: softrdma carries atomics on iWARP with RFC 7306 towards a peer
    // that negotiated it (the spec-notes); towards any other peer the WR completes in error
    // (IT_DTO_ERR_LOCAL_EP) without reaching the wire, and the connection breaks.
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    if (op !== IT_COMPARE_AND_SWAP && op !== IT_FETCH_AND_ADD) fail(S.IT_ERR_INVALID_ATOMIC_OP, `op ${op}`);
    checkDtoFlags(dto_flags, BASE_SQ);
    if (typeof swap_or_add !== 'bigint' || typeof compare !== 'bigint') fail(S.IT_ERR_INVALID_ATOMIC_OP, 'operands are bigints');
    const sgl = sglOf(ep, [result], 1, false);
    // The result buffer holds the 8-octet original value (IT-API: "at least 8 bytes").
    if (sgl.length !== 1 || sgl[0]!.len < 8) fail(S.IT_ERR_INVALID_NUM_SEGMENTS, 'the result buffer is shorter than 8 bytes');
    const cas = op === IT_COMPARE_AND_SWAP;
    ep.postSq(
      { kind: cas ? 'cmp_swap' : 'fetch_add', cookie: cookieOf(cookie), flags: dto_flags },
      {
        type: cas ? RiWrType.COMPARE_AND_SWAP : RiWrType.FETCH_AND_ADD,
        flags: riFlags(dto_flags, 'read'),
        id: 0n,
        rtag: rmr_context >>> 0,
        rdma_addr: BigInt.asUintN(64, rdma_addr),
        // RNICPI's operand 1 is the compare value (CAS) or the addend (FAA); operand 2 the swap value.
        atomic_operand1: BigInt.asUintN(64, cas ? compare : swap_or_add),
        atomic_operand2: BigInt.asUintN(64, cas ? swap_or_add : 0n),
        atomic_result: sgl[0]!,
      },
      8,
    );
  },

  it_post_rdma_read(ep_handle, local_segments, cookie, dto_flags, rdma_addr, rmr_context) {
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    checkDtoFlags(dto_flags, READ_FLAGS);
    const sgl = sglOf(ep, local_segments, ep.attr.max_rdma_read_segments, false);
    postRead(ep, sgl, cookie, dto_flags, rdma_addr, rmr_context, () => {
      const l = local_segments[0]!.lmr as unknown;
      return l instanceof Lmr && !l.direct ? l : undefined;
    });
  },

  it_post_rdma_read_to_rmr(ep_handle, local_segments, cookie, dto_flags, rdma_addr, rmr_context) {
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    checkDtoFlags(dto_flags, READ_FLAGS);
    const list = local_segments ?? [];
    if (!Array.isArray(list) || list.length > ep.attr.max_rdma_read_segments) fail(S.IT_ERR_INVALID_NUM_SEGMENTS);
    const sgl: ri_data_seg_t[] = list.map((t: it_rmr_triplet_t) => {
      if (!t || typeof t.addr !== 'bigint' || !isUint(t.length)) fail(S.IT_ERR_INVALID_NUM_SEGMENTS, 'malformed segment');
      const r = t.rmr as unknown;
      return { tag: r instanceof Rmr ? r.rtag : BAD_STAG, addr: t.addr, len: t.length };
    });
    postRead(ep, sgl, cookie, dto_flags, rdma_addr, rmr_context, () => {
      const r = list[0]!.rmr as unknown;
      return r instanceof Rmr ? r : undefined;
    });
  },

  it_post_rdma_write(ep_handle, local_segments, cookie, dto_flags, rdma_addr, rmr_context) {
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    checkDtoFlags(dto_flags, BASE_SQ);
    const sgl = sglOf(ep, local_segments, ep.attr.max_rdma_write_segments, false);
    ep.postSq(
      { kind: 'write', cookie: cookieOf(cookie), flags: dto_flags },
      {
        type: RiWrType.RDMA_WRITE,
        flags: riFlags(dto_flags, 'write'),
        id: 0n,
        sg_list: sgl,
        rdma_addr: BigInt.asUintN(64, rdma_addr),
        rtag: rmr_context >>> 0,
      },
      totalOf(sgl),
    );
  },

  it_post_recv(handle, local_segments, cookie, dto_flags) {
    if (handle instanceof Srq) {
      const srq = check(handle, Srq, S.IT_ERR_INVALID_SRQ);
      checkDtoFlags(dto_flags, RECV_FLAGS);
      if (!(dto_flags & DF.IT_COMPLETION_FLAG)) fail(S.IT_ERR_INVALID_DTO_FLAGS, 'Receives need IT_COMPLETION_FLAG');
      const list = local_segments ?? [];
      if (!Array.isArray(list) || list.length > srq.maxRecvSegs) fail(S.IT_ERR_INVALID_NUM_SEGMENTS);
      const sgl = list.map((t) => {
        if (!t || typeof t.addr !== 'bigint' || !isUint(t.length)) fail(S.IT_ERR_INVALID_NUM_SEGMENTS, 'malformed segment');
        const l = t.lmr as unknown;
        return { tag: l instanceof Lmr ? l.ltag : BAD_STAG, addr: t.addr, len: t.length };
      });
      srq.post({ cookie: cookieOf(cookie), flags: dto_flags }, sgl);
      return;
    }
    const ep = rcEp(handle);
    checkDtoFlags(dto_flags, RECV_FLAGS);
    if (!(dto_flags & DF.IT_COMPLETION_FLAG)) fail(S.IT_ERR_INVALID_DTO_FLAGS, 'Receives need IT_COMPLETION_FLAG');
    if (ep.srq) fail(S.IT_ERR_INVALID_SRQ, 'the Endpoint receives through its S-RQ');
    const sgl = sglOf(ep, local_segments, ep.attr.max_recv_segments, false);
    ep.postRecv({ cookie: cookieOf(cookie), flags: dto_flags }, sgl);
  },

  it_post_send(ep_handle, local_segments, cookie, dto_flags) {
    postSend(ep_handle, local_segments, cookie, dto_flags, null);
  },

  it_post_send_and_unlink(ep_handle, local_segments, cookie, dto_flags, rmr_context) {
    postSend(ep_handle, local_segments, cookie, dto_flags, rmr_context);
  },
};

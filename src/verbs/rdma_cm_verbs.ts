/**
 * librdmacm's `rdma_verbs.h` helpers (manual §5.2): memory registration in the id's PD, posting
 * on the id's QP (`rdma_post_send`, `rdma_post_recv`, `rdma_post_read`, `rdma_post_write`, their
 * `v` forms, `rdma_post_ud_send`), and waiting for a completion (`rdma_get_send_comp`,
 * `rdma_get_recv_comp`).
 *
 * @module
 */
import { RDMA_UDP_QKEY } from '../wire/ib/cm.js';
import { hostMemory } from '../rnic/hostmem.js';
import { ibv_access_flags, ibv_send_flags, ibv_qp_type, ibv_wr_opcode } from './constants.js';
import type { Context } from './device.js';
import { EINVAL, EOPNOTSUPP, setErrno } from './errno.js';
import { isIbContext } from './rdma_cm_ib.js';
import {
  type Cq,
  ibv_create_srq,
  ibv_dereg_mr,
  ibv_destroy_srq,
  ibv_get_cq_event,
  ibv_ack_cq_events,
  ibv_poll_cq,
  ibv_post_recv,
  ibv_post_send,
  ibv_post_srq_recv,
  ibv_reg_mr,
  ibv_req_notify_cq,
  MAX_INLINE_DATA,
} from './ibverbs.js';
import type { ibv_ah, ibv_comp_channel, ibv_cq, ibv_mr, ibv_pd, ibv_sge, ibv_srq_init_attr, ibv_wc, In, rdma_cm_id } from './types.js';
import { CmId, defaultPd, failRdma, idOk } from './rdma_cm_id.js';

// ------------------------------------------------------------------------------ rdma_verbs.h helpers

/** Registers memory in the id's PD (created on first use, as librdmacm does). */
function regFor(id: rdma_cm_id, addr: Uint8Array, length: number, access: number): ibv_mr | null {
  const p = ctxOf(id) ? pdFor(id as CmId) : null;
  if (!p) {
    setErrno(EINVAL);
    return null;
  }
  return ibv_reg_mr(p, addr, length, access);
}

function ctxOf(id: rdma_cm_id): Context | null {
  const i = id as CmId;
  return idOk(i) ? i.verbs : null;
}

function pdFor(i: CmId): ibv_pd | null {
  if (i.pd) return i.pd;
  if (!i.verbs) return null;
  i.pd = defaultPd(i.verbs);
  return i.pd;
}

export function rdma_reg_msgs(id: rdma_cm_id, addr: Uint8Array, length: number): ibv_mr | null {
  return regFor(id, addr, length, ibv_access_flags.IBV_ACCESS_LOCAL_WRITE);
}
export function rdma_reg_read(id: rdma_cm_id, addr: Uint8Array, length: number): ibv_mr | null {
  return regFor(id, addr, length, ibv_access_flags.IBV_ACCESS_LOCAL_WRITE | ibv_access_flags.IBV_ACCESS_REMOTE_READ);
}
export function rdma_reg_write(id: rdma_cm_id, addr: Uint8Array, length: number): ibv_mr | null {
  return regFor(id, addr, length, ibv_access_flags.IBV_ACCESS_LOCAL_WRITE | ibv_access_flags.IBV_ACCESS_REMOTE_WRITE);
}
export function rdma_dereg_mr(mr: ibv_mr): number {
  return ibv_dereg_mr(mr) === 0 ? 0 : -1;
}

export function rdma_create_srq(id: rdma_cm_id, pd: ibv_pd | null, attr: In<ibv_srq_init_attr>): number {
  const i = id as CmId;
  // One SRQ per id (librdmacm: the id must be bound to a device, and `id->srq` is taken).
  if (!idOk(i) || !i.verbs || i.srq) return failRdma(EINVAL);
  const p = pd ?? pdFor(i);
  if (!p) return failRdma(EINVAL);
  const s = ibv_create_srq(p, attr);
  if (!s) return -1;
  i.srq = s;
  return 0;
}
export function rdma_destroy_srq(id: rdma_cm_id): void {
  const i = id as CmId;
  if (i instanceof CmId && i.srq) {
    ibv_destroy_srq(i.srq);
    i.srq = null;
  }
}

/** The address of a `BufferRef` (a view of registered memory, or an address). */
function addrOf(mr: ibv_mr | null, addr: Uint8Array | bigint): bigint {
  if (typeof addr === 'bigint') return addr;
  if (mr) {
    const m = mr as ibv_mr & { bytes?: Uint8Array };
    if (m.bytes && m.bytes.buffer === addr.buffer) return mr.addr + BigInt(addr.byteOffset - m.bytes.byteOffset);
  }
  return 0n;
}

function postRet(r: { ret: number }): number {
  if (r.ret === 0) return 0;
  setErrno(r.ret);
  return -1;
}

export function rdma_post_recvv(id: rdma_cm_id, context: bigint | null, sgl: readonly In<ibv_sge>[], nsge: number): number {
  const i = id as CmId;
  if (!idOk(i)) return failRdma(EINVAL);
  const wr = { wr_id: context ?? 0n, sg_list: sgl.slice(0, nsge) as ibv_sge[], num_sge: nsge };
  if (i.srq) return postRet(ibv_post_srq_recv(i.srq, wr));
  if (!i.qp) return failRdma(EINVAL);
  return postRet(ibv_post_recv(i.qp, wr));
}

function postSendv(i: CmId, wr: Parameters<typeof ibv_post_send>[1]): number {
  if (!idOk(i) || !i.qp) return failRdma(EINVAL);
  return postRet(ibv_post_send(i.qp, wr));
}

export function rdma_post_sendv(id: rdma_cm_id, context: bigint | null, sgl: readonly In<ibv_sge>[], nsge: number, flags: number): number {
  return postSendv(id as CmId, {
    wr_id: context ?? 0n,
    opcode: ibv_wr_opcode.IBV_WR_SEND,
    sg_list: sgl.slice(0, nsge) as ibv_sge[],
    send_flags: flags,
  });
}
export function rdma_post_readv(
  id: rdma_cm_id,
  context: bigint | null,
  sgl: readonly In<ibv_sge>[],
  nsge: number,
  flags: number,
  remote_addr: bigint,
  rkey: number,
): number {
  return postSendv(id as CmId, {
    wr_id: context ?? 0n,
    opcode: ibv_wr_opcode.IBV_WR_RDMA_READ,
    sg_list: sgl.slice(0, nsge) as ibv_sge[],
    send_flags: flags,
    wr: { rdma: { remote_addr, rkey } },
  });
}
export function rdma_post_writev(
  id: rdma_cm_id,
  context: bigint | null,
  sgl: readonly In<ibv_sge>[],
  nsge: number,
  flags: number,
  remote_addr: bigint,
  rkey: number,
): number {
  return postSendv(id as CmId, {
    wr_id: context ?? 0n,
    opcode: ibv_wr_opcode.IBV_WR_RDMA_WRITE,
    sg_list: sgl.slice(0, nsge) as ibv_sge[],
    send_flags: flags,
    wr: { rdma: { remote_addr, rkey } },
  });
}
export function rdma_post_recv(id: rdma_cm_id, context: bigint | null, addr: Uint8Array | bigint, length: number, mr: ibv_mr): number {
  return rdma_post_recvv(id, context, [{ addr: addrOf(mr, addr), length, lkey: mr.lkey }], 1);
}
export function rdma_post_send(
  id: rdma_cm_id,
  context: bigint | null,
  addr: Uint8Array | bigint,
  length: number,
  mr: ibv_mr | null,
  flags: number,
): number {
  const sge = sgeOf(id as CmId, mr, addr, length, flags);
  if (!sge) return failRdma(EINVAL);
  return rdma_post_sendv(id, context, [sge], 1, flags);
}
export function rdma_post_read(
  id: rdma_cm_id,
  context: bigint | null,
  addr: Uint8Array | bigint,
  length: number,
  mr: ibv_mr,
  flags: number,
  remote_addr: bigint,
  rkey: number,
): number {
  return rdma_post_readv(id, context, [{ addr: addrOf(mr, addr), length, lkey: mr.lkey }], 1, flags, remote_addr, rkey);
}
export function rdma_post_write(
  id: rdma_cm_id,
  context: bigint | null,
  addr: Uint8Array | bigint,
  length: number,
  mr: ibv_mr | null,
  flags: number,
  remote_addr: bigint,
  rkey: number,
): number {
  const sge = sgeOf(id as CmId, mr, addr, length, flags);
  if (!sge) return failRdma(EINVAL);
  return rdma_post_writev(id, context, [sge], 1, flags, remote_addr, rkey);
}

/**
 * The SGE of an inline Send/Write without an MR (§6.2.6: `mr` is optional when inline): the
 * bytes go through a small per-id scratch buffer of the synthetic address space, which the post
 * copies from at once (`IBV_SEND_INLINE`), so any `Uint8Array` may be sent. null if not inline.
 */
function sgeOf(i: CmId, mr: ibv_mr | null, addr: Uint8Array | bigint, length: number, flags: number): In<ibv_sge> | null {
  // Without an MR and not inline, librdmacm posts lkey 0: the completion reports the error.
  if (mr || !(flags & ibv_send_flags.IBV_SEND_INLINE)) return { addr: addrOf(mr, addr), length, lkey: mr?.lkey ?? 0 };
  if (typeof addr === 'bigint') return { addr, length, lkey: 0 };
  if (!Number.isInteger(length) || length < 0 || length > addr.length || length > MAX_INLINE_DATA) return null;
  i.inlineScratch ??= new Uint8Array(MAX_INLINE_DATA);
  i.inlineScratch.set(addr.subarray(0, length));
  return { addr: hostMemory.addressOf(i.inlineScratch), length, lkey: 0 };
}
/**
 * `rdma_post_ud_send` (manual §6.2.9): a UD Send to `remote_qpn` through `ah` with rdma_cm's
 * Q_Key (RDMA_UDP_QKEY). Only UD QPs (the RoCE device) have it: on an RC QP -1, errno EOPNOTSUPP.
 */
export function rdma_post_ud_send(
  id: rdma_cm_id,
  context: bigint | null,
  addr: Uint8Array | bigint,
  length: number,
  mr: ibv_mr | null,
  flags: number,
  ah: ibv_ah,
  remote_qpn: number,
): number {
  const i = id as CmId;
  if (!idOk(i)) return failRdma(EINVAL);
  // iWARP has no UD QPs (IWARP_UNSUPPORTED); on RoCE the id's QP must be one.
  if (!isIbContext(i.verbs)) return failRdma(EOPNOTSUPP);
  if (!i.qp) return failRdma(EINVAL);
  if (i.qp.qp_type !== ibv_qp_type.IBV_QPT_UD) return failRdma(EOPNOTSUPP);
  const sge = sgeOf(i, mr, addr, length, flags);
  if (!sge) return failRdma(EINVAL);
  return postSendv(i, {
    wr_id: context ?? 0n,
    opcode: ibv_wr_opcode.IBV_WR_SEND,
    sg_list: [sge as ibv_sge],
    send_flags: flags,
    wr: { ud: { ah, remote_qpn, remote_qkey: RDMA_UDP_QKEY } },
  });
}

/** Waits for one completion on the id's send or receive CQ, arming and sleeping when empty. */
async function getComp(cq: ibv_cq | null, ch: ibv_comp_channel | null, wc: ibv_wc): Promise<number> {
  if (!cq || !ch) return failRdma(EINVAL);
  for (;;) {
    const out = [wc];
    const n = ibv_poll_cq(cq, 1, out);
    if (n < 0) return failRdma(-n);
    if (n > 0) return 1;
    if (ibv_req_notify_cq(cq, 0) !== 0) return -1;
    if (ibv_poll_cq(cq, 1, out) > 0) return 1;
    const ev = await ibv_get_cq_event(ch);
    if (ev.ret !== 0) return failRdma(ev.ret);
    ibv_ack_cq_events(ev.cq as Cq, 1);
  }
}

export function rdma_get_send_comp(id: rdma_cm_id, wc: ibv_wc): Promise<number> {
  const i = id as CmId;
  return getComp(i.send_cq, i.send_cq_channel, wc);
}
export function rdma_get_recv_comp(id: rdma_cm_id, wc: ibv_wc): Promise<number> {
  const i = id as CmId;
  return getComp(i.recv_cq, i.recv_cq_channel, wc);
}

/**
 * The MLNX_OFED experimental verbs softrdma offers (manual §4.8, §8.7): the extended atomics
 * (`ibv_exp_query_device`, `ibv_exp_create_qp`, `ibv_exp_post_send` with masked and multi-field
 * compare-and-swap and fetch-and-add).
 *
 * @module
 */
import { RiWrFlags, RiWrType, type ri_wr_t } from '../rnicpi/types.js';
import type { PostResult, WrList } from './api.js';
import {
  ibv_send_flags,
  type ibv_wr_opcode,
  ibv_exp_wr_opcode,
  IBV_EXP_DEVICE_ATTR_EXT_ATOMIC_ARGS,
  IBV_EXP_DEVICE_EXT_ATOMICS,
  IBV_EXP_QP_INIT_ATTR_ATOMICS_ARG,
  IBV_EXP_QP_INIT_ATTR_PD,
  IBV_EXP_SEND_FENCE,
  IBV_EXP_SEND_SIGNALED,
  IBV_EXP_SEND_SOLICITED,
} from './constants.js';
import { Context, fail, queryDevice, rnicAttrs } from './device.js';
import { EINVAL, ENOSYS } from './errno.js';
import type {
  ibv_context,
  ibv_device_attr,
  ibv_exp_device_attr,
  ibv_exp_qp_init_attr,
  ibv_exp_send_wr,
  ibv_pd,
  ibv_qp,
  ibv_qp_init_attr,
  ibv_send_wr,
  In,
} from './types.js';
import { type Pd, type Qp, nullWith, sgeList, wrArray } from './ibv_objects.js';
import { postTranslated, sendRefused, toRiWr } from './ibv_post.js';
import { ibv_create_qp } from './ibv_qp.js';

// ------------------------------------------------------------------------------ §4.8, §8.7 extended atomics

/**
 * §4.8.1 / §8.7.2.1 `ibv_exp_query_device`: `ibv_query_device`'s attributes plus the extended
 * atomics (`IBV_EXP_DEVICE_EXT_ATOMICS`, `ext_atom`), all from the RNIC's atomic executor
 * (ri_rnic_query's softrdma extension). Returns 0 or the errno value (experimental verbs).
 * Nothing else experimental (DC, UMR, cross-channel, calc) is offered: those fields are 0.
 */
export function ibv_exp_query_device(context: ibv_context, attr: ibv_exp_device_attr): number {
  const ctx = context as Context;
  if (!(ctx instanceof Context) || ctx.closed || !attr) return fail(EINVAL);
  const base = {} as ibv_device_attr;
  const ret = queryDevice(ctx, base);
  if (ret !== 0) return ret;
  const r = rnicAttrs(ctx);
  const x = r?.softrdma_atomics;
  const { device_cap_flags, atomic_cap, ...rest } = base;
  Object.assign(attr, rest);
  attr.reserved = 0;
  attr.exp_atomic_cap = atomic_cap as number;
  attr.exp_device_cap_flags = BigInt(device_cap_flags) | (x?.ext_atomic_arg_sizes ? IBV_EXP_DEVICE_EXT_ATOMICS : 0n);
  attr.comp_mask = x?.ext_atomic_arg_sizes ? IBV_EXP_DEVICE_ATTR_EXT_ATOMIC_ARGS : 0;
  // The largest inline atomic: a 32-octet masked Compare-and-Swap (4 fields × 32 octets).
  attr.ext_atom = {
    atomic_arg_sizes: BigInt(x?.ext_atomic_arg_sizes ?? 0),
    max_fa_bit_boundary: x?.max_fa_bit_boundary ?? 0,
    log_max_atomic_inline: x?.ext_atomic_arg_sizes ? 7 : 0,
  };
  attr.calc_cap = { data_types: 0n, data_sizes: 0n, int_ops: 0n, uint_ops: 0n, fp_ops: 0n };
  attr.max_dc_req_rd_atom = 0;
  attr.max_dc_res_rd_atom = 0;
  attr.inline_recv_sz = 0;
  attr.max_rss_tbl_sz = 0;
  attr.umr_caps = { max_klm_list_size: 0, max_send_wqe_inline_klms: 0, max_umr_recursion_depth: 0, max_umr_stride_dimension: 0 };
  attr.max_mkey_klm_list_size = 0;
  attr.max_send_wqe_inline_klms = 0;
  attr.max_umr_recursion_depth = 0;
  attr.max_umr_stride_dimension = 0;
  return 0;
}

/**
 * §4.8.2 / §8.7.2.3 `ibv_exp_create_qp`: an RC QP as `ibv_create_qp` makes it, provisioned for
 * atomics up to `max_atomic_arg` octets (`IBV_EXP_QP_INIT_ATTR_ATOMICS_ARG`; softrdma's WQEs
 * always hold 32). The other experimental QP kinds (DC, UMR, cross-channel, QP groups) are not
 * offered: null, errno ENOSYS.
 */
export function ibv_exp_create_qp(context: ibv_context, init: In<ibv_exp_qp_init_attr>): ibv_qp | null {
  const ctx = context as Context;
  if (!(ctx instanceof Context) || ctx.closed || !init) return nullWith(EINVAL);
  const mask = init.comp_mask ?? 0;
  if ((mask & ~(IBV_EXP_QP_INIT_ATTR_PD | IBV_EXP_QP_INIT_ATTR_ATOMICS_ARG)) !== 0 || (init.exp_create_flags ?? 0) !== 0)
    return nullWith(ENOSYS);
  if (!(mask & IBV_EXP_QP_INIT_ATTR_PD) || !init.pd) return nullWith(EINVAL);
  if (mask & IBV_EXP_QP_INIT_ATTR_ATOMICS_ARG && ![0, 8, 16, 32].includes(init.max_atomic_arg ?? 0)) return nullWith(EINVAL);
  if ((init.pd as Pd).context !== ctx) return nullWith(EINVAL);
  return ibv_create_qp(
    init.pd as ibv_pd,
    {
      qp_context: init.qp_context,
      send_cq: init.send_cq,
      recv_cq: init.recv_cq,
      srq: init.srq,
      cap: init.cap,
      qp_type: init.qp_type,
      sq_sig_all: init.sq_sig_all,
    } as In<ibv_qp_init_attr>,
  );
}

/** Operand sizes of `masked_atomics.log_arg_sz` (§8.7.2.4): 2^3 … 2^5 octets. */
const EXT_ARG_SIZES: Readonly<Record<number, number>> = { 3: 8, 4: 16, 5: 32 };

/** One `ibv_exp_send_wr` as an `ibv_send_wr` (base opcodes) or an RNICPI atomic WR (masked atomics). */
function toRiExpWr(q: Qp, w: In<ibv_exp_send_wr>): ri_wr_t | number {
  const O = ibv_exp_wr_opcode;
  const ef = w.exp_send_flags ?? 0n;
  if (typeof ef !== 'bigint') return EINVAL;
  let sendFlags = 0;
  if (ef & IBV_EXP_SEND_SIGNALED) sendFlags |= ibv_send_flags.IBV_SEND_SIGNALED;
  if (ef & IBV_EXP_SEND_SOLICITED) sendFlags |= ibv_send_flags.IBV_SEND_SOLICITED;
  if (ef & IBV_EXP_SEND_FENCE) sendFlags |= ibv_send_flags.IBV_SEND_FENCE;
  const op = w.exp_opcode ?? O.IBV_EXP_WR_RDMA_WRITE;
  if (op !== O.IBV_EXP_WR_EXT_MASKED_ATOMIC_CMP_AND_SWP && op !== O.IBV_EXP_WR_EXT_MASKED_ATOMIC_FETCH_AND_ADD) {
    // The base opcodes share ibv_wr_opcode's numbers (verbs_exp.h).
    if (op > O.IBV_EXP_WR_SEND_WITH_INV) return EINVAL;
    return toRiWr(q, {
      wr_id: w.wr_id,
      sg_list: w.sg_list,
      num_sge: w.num_sge,
      opcode: op as number as ibv_wr_opcode,
      send_flags: sendFlags,
      imm_data: w.ex?.imm_data,
      invalidate_rkey: w.ex?.invalidate_rkey,
      wr: w.wr,
    } as In<ibv_send_wr>);
  }
  const m = w.ext_op?.masked_atomics;
  const size = EXT_ARG_SIZES[m?.log_arg_sz ?? -1];
  if (!m || size === undefined) return EINVAL;
  const sg = sgeList(w.sg_list, w.num_sge);
  if (!sg || sg.length > 1) return EINVAL;
  let flags = 0;
  if (sendFlags & ibv_send_flags.IBV_SEND_SIGNALED || q.sqSigAll) flags |= RiWrFlags.SIGNALED_FLAG;
  if (sendFlags & ibv_send_flags.IBV_SEND_FENCE) flags |= RiWrFlags.READ_FENCE_FLAG;
  const o = m.wr_data?.inline_data?.op;
  const cas = op === O.IBV_EXP_WR_EXT_MASKED_ATOMIC_CMP_AND_SWP;
  // Operands up to 8 octets are inline values; wider ones are bigints of that width (C passes
  // pointers to them). Every field is required: the masks are the point of these operations.
  const vals = cas
    ? [o?.cmp_swap?.compare_val, o?.cmp_swap?.swap_val, o?.cmp_swap?.compare_mask, o?.cmp_swap?.swap_mask]
    : [o?.fetch_add?.add_val, 0n, o?.fetch_add?.field_boundary, 0n];
  const lim = 1n << BigInt(size * 8);
  if (vals.some((v) => typeof v !== 'bigint' || v < 0n || v >= lim)) return EINVAL;
  return {
    type: cas ? RiWrType.COMPARE_AND_SWAP : RiWrType.FETCH_AND_ADD,
    flags,
    id: w.wr_id ?? 0n,
    rtag: (m.rkey ?? 0) >>> 0,
    rdma_addr: m.remote_addr ?? 0n,
    atomic_operand1: vals[0] as bigint,
    atomic_operand2: vals[1] as bigint,
    atomic_result: sg[0] ?? { tag: 0, addr: 0n, len: 0 },
    atomic_size: size,
    atomic_mask1: vals[2] as bigint,
    atomic_mask2: cas ? (vals[3] as bigint) : undefined,
  } as ri_wr_t;
}

/**
 * §4.8.3 / §8.7.2.4 `ibv_exp_post_send`: the base opcodes as `ibv_post_send`, plus the masked
 * atomics `IBV_EXP_WR_EXT_MASKED_ATOMIC_CMP_AND_SWP` / `_FETCH_AND_ADD` at 8, 16 or 32 octets
 * (the core's executor; between softrdma peers, RFC 7306 with softrdma's extension on iWARP).
 * Returns 0 or the errno value with `bad_wr`; towards a peer without the capability: EINVAL.
 */
function expRefusal(): string {
  return 'ibv_exp_post_send: the peer did not negotiate RFC 7306 / extended atomics (EINVAL)';
}

export function ibv_exp_post_send(qp: ibv_qp, wr: WrList<ibv_exp_send_wr>): PostResult<ibv_exp_send_wr> {
  const q = qp as Qp;
  const refused = sendRefused(q, wr);
  if (refused) return refused;
  for (const w of wrArray<In<ibv_exp_send_wr>>(wr)) {
    const r = postTranslated<ibv_exp_send_wr>(q, w, 'ibv_exp_post_send', toRiExpWr, expRefusal);
    if ('bad_wr' in r) return r;
  }
  return { ret: 0, bad_wr: null };
}

/**
 * IT-API 2.1 over RNICPI: Remote Memory Regions (`it_rmr_*`; IT-API 2.1 Ch. 6, the RMR group).
 *
 * @module
 */
import { RiRet } from '../rnicpi/status.js';
import { RiMemFlags, RiMwType, RiWrType } from '../rnicpi/types.js';
import type { ItApi } from './api.js';
import { Lmr, Rmr } from './mem.js';
import { check, fail, Pz } from './objects.js';
import { it_status_t as S } from './status.js';
import {
  it_addr_mode_t as AM,
  it_mem_priv_t as PRIV,
  it_rmr_param_mask_t as RMM,
  it_rmr_type_t as RT,
  type it_rmr_param_t,
} from './types.js';
import {
  isUint,
  checkMask,
  pick,
  addrOf,
  cookieOf,
  checkDtoFlags,
  BASE_SQ,
  UNLINK_FLAGS,
  rcEp,
  riFlags,
  checkAddrMode,
  checkSqState,
  nextContext,
} from './impl-common.js';

/** The RMR group of {@link ItApi}. */
export const itRmr: Pick<ItApi, 'it_rmr_create' | 'it_rmr_free' | 'it_rmr_link' | 'it_rmr_query' | 'it_rmr_unlink'> = {
  it_rmr_create(pz_handle, rmr_type) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    // rmr_types_supported = NARROW: DEFAULT means Narrow; Wide windows are not offered.
    if (rmr_type !== RT.IT_RMR_TYPE_DEFAULT && rmr_type !== RT.IT_RMR_TYPE_NARROW) fail(S.IT_ERR_INVALID_RMR_TYPE);
    const ia = pz.ia;
    const rmr = new Rmr(ia, pz);
    const r = ia.ops.ri_mw_alloc(ia.rnic, pz.pd, RiMwType.TYPE_NARROW, null, rmr);
    if (r.status !== RiRet.SUCCESS) fail(S.IT_ERR_RESOURCES, `ri_mw_alloc: ${RiRet[r.status]}`);
    rmr.mw = r.mw;
    rmr.rtag = r.rtag;
    ia.rmrs.add(rmr);
    return rmr;
  },

  it_rmr_free(rmr_handle) {
    check(rmr_handle, Rmr, S.IT_ERR_INVALID_RMR).destroy();
  },

  it_rmr_link(rmr_handle, lmr_handle, addr, length, addr_mode, privs, ep_handle, cookie, dto_flags) {
    const rmr = check(rmr_handle, Rmr, S.IT_ERR_INVALID_RMR);
    const lmr = check(lmr_handle, Lmr, S.IT_ERR_INVALID_LMR);
    if (lmr.direct) fail(S.IT_ERR_INVALID_LMR, 'the Direct LMR Handle has no remote access');
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    checkDtoFlags(dto_flags, BASE_SQ);
    checkAddrMode(addr_mode);
    if (!isUint(privs) || (privs & ~PRIV.IT_PRIV_ALL) !== 0 || (privs & PRIV.IT_PRIV_REMOTE) === 0) fail(S.IT_ERR_INVALID_PRIVS);
    if (!isUint(length) || length === 0) fail(S.IT_ERR_INVALID_LENGTH);
    const va = addrOf(addr);
    if (va === null) fail(S.IT_ERR_ADDRESS);
    const relLmr = lmr.addrMode === AM.IT_ADDR_MODE_RELATIVE;
    if (!relLmr) {
      if (va < lmr.addr || va >= lmr.addr + BigInt(lmr.length)) fail(S.IT_ERR_ADDRESS, 'outside the LMR');
      if (va + BigInt(length) > lmr.addr + BigInt(lmr.length)) fail(S.IT_ERR_INVALID_LENGTH, 'beyond the LMR');
    }
    const ctx = nextContext(rmr.rtag);
    let rights = 0;
    if (privs & PRIV.IT_PRIV_REMOTE_READ) rights |= RiMemFlags.REMOTE_READ;
    if (privs & PRIV.IT_PRIV_REMOTE_WRITE) rights |= RiMemFlags.REMOTE_WRITE;
    if (addr_mode === AM.IT_ADDR_MODE_RELATIVE) rights |= RiMemFlags.ZBVA;
    ep.postSq(
      {
        kind: 'rmr_link',
        cookie: cookieOf(cookie),
        flags: dto_flags,
        rmr,
        relLmr,
        link: { lmr, addr: va, length, privs: privs & PRIV.IT_PRIV_REMOTE, addrMode: addr_mode, context: ctx },
      },
      {
        type: RiWrType.BIND,
        flags: riFlags(dto_flags, 'mem'),
        id: 0n,
        mw_handle: rmr.mw,
        rtag: ctx,
        mr_handle: lmr.mr!,
        ltag: lmr.ltag,
        vaddr: va,
        length,
        mem_attr: rights,
      },
    );
    return ctx;
  },

  it_rmr_query(rmr_handle, mask) {
    const rmr = check(rmr_handle, Rmr, S.IT_ERR_INVALID_RMR);
    checkMask(mask, (1 << 11) - 1);
    return pick(mask, rmr.params(), [
      [RMM.IT_RMR_PARAM_IA, 'ia'],
      [RMM.IT_RMR_PARAM_PZ, 'pz'],
      [RMM.IT_RMR_PARAM_LINKED, 'linked'],
      [RMM.IT_RMR_PARAM_LMR, 'lmr'],
      [RMM.IT_RMR_PARAM_ADDR, 'addr'],
      [RMM.IT_RMR_PARAM_LENGTH, 'length'],
      [RMM.IT_RMR_PARAM_MEM_PRIV, 'privs'],
      [RMM.IT_RMR_PARAM_RMR_CONTEXT, 'rmr_context'],
      [RMM.IT_RMR_PARAM_TYPE, 'type'],
      [RMM.IT_RMR_PARAM_ADDR_MODE, 'addr_mode'],
    ] as const satisfies readonly (readonly [number, keyof it_rmr_param_t])[]);
  },

  it_rmr_unlink(rmr_handle, ep_handle, cookie, dto_flags) {
    const rmr = check(rmr_handle, Rmr, S.IT_ERR_INVALID_RMR);
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    checkDtoFlags(dto_flags, UNLINK_FLAGS);
    ep.postSq(
      { kind: 'rmr_unlink', cookie: cookieOf(cookie), flags: dto_flags, rmr },
      { type: RiWrType.LOCAL_INVALIDATE_MW, flags: riFlags(dto_flags, 'unlink'), id: 0n, ltag: 0, rtag: rmr.rtag, mrw_handle: rmr.mw },
    );
  },
};

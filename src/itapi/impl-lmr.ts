/**
 * IT-API 2.1 over RNICPI: Local Memory Regions (`it_lmr_*`, `it_mem_map`, `it_mem_unmap`,
 * `it_make_rdma_addr_*`; IT-API 2.1 Ch. 6, the LMR group); the regions themselves are `mem.ts`.
 *
 * @module
 */
import { hostMemory } from '../rnic/hostmem.js';
import { RiRet } from '../rnicpi/status.js';
import { RiMemFlags, RiMrRereg, RiWrType, type ri_phys_buf_t, type ri_wr_t } from '../rnicpi/types.js';
import type { ItApi } from './api.js';
import { Lmr } from './mem.js';
import { check, fail, Ia, Pz } from './objects.js';
import { it_status_t as S } from './status.js';
import {
  it_addr_mode_t as AM,
  it_iobl_type_t as IOBL,
  it_lmr_flag_t as LF,
  it_lmr_param_mask_t as LMM,
  it_mem_priv_t as PRIV,
  type it_iobl_t,
  type it_lmr_param_t,
  type it_lmr_triplet_t,
} from './types.js';
import {
  MAX_RC_LEN,
  limits,
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

/** RNICPI rights of IT-API privileges (note: the remote bits are swapped between the two). */
function memAttrOf(privs: number, relative: boolean): number {
  let a = RiMemFlags.LOCAL_READ | RiMemFlags.BINDING;
  if (privs & PRIV.IT_PRIV_LOCAL_WRITE) a |= RiMemFlags.LOCAL_WRITE;
  if (privs & PRIV.IT_PRIV_REMOTE_READ) a |= RiMemFlags.REMOTE_READ;
  if (privs & PRIV.IT_PRIV_REMOTE_WRITE) a |= RiMemFlags.REMOTE_WRITE;
  // IT-API it_post_atomic: the target needs Remote Read and Remote Write (or IT_PRIV_ATOMIC).
  if (privs & PRIV.IT_PRIV_ATOMIC || (privs & PRIV.IT_PRIV_REMOTE) === PRIV.IT_PRIV_REMOTE) a |= RiMemFlags.ATOMICS;
  if (relative) a |= RiMemFlags.ZBVA;
  return a;
}

/** LMR privileges: non-zero, defined bits, Remote Write needs Local Write. */
function checkPrivs(privs: number): void {
  if (!isUint(privs) || privs === 0 || (privs & ~PRIV.IT_PRIV_ALL) !== 0) fail(S.IT_ERR_INVALID_PRIVS);
  if (privs & PRIV.IT_PRIV_REMOTE_WRITE && !(privs & PRIV.IT_PRIV_LOCAL_WRITE)) fail(S.IT_ERR_INVALID_PRIVS);
}

/** The IT-API status of a failed registration, by its RNICPI code (any other: IT_ERR_RESOURCES). */
const REG_ERROR: Readonly<Partial<Record<RiRet, S>>> = {
  [RiRet.MEM_INVALID_ADDRESS]: S.IT_ERR_FAULT,
  [RiRet.MEM_INVALID_LENGTH]: S.IT_ERR_INVALID_LENGTH,
  [RiRet.MEM_INVALID_ACCESS]: S.IT_ERR_INVALID_PRIVS,
  [RiRet.MEM_INVALID_PBLE]: S.IT_ERR_INVALID_IOBL,
  [RiRet.MEM_INVALID_PBLE_LENGTH]: S.IT_ERR_INVALID_IOBL,
  [RiRet.MEM_INVALID_OFFSET]: S.IT_ERR_INVALID_IOBL,
  [RiRet.PD_INVALID_HANDLE]: S.IT_ERR_INVALID_PZ,
};

function regError(st: RiRet): S {
  return REG_ERROR[st] ?? S.IT_ERR_RESOURCES;
}

/** `it_lmr_create` with an I/O Buffer List (privileged): a physical registration. */
function createLmrIobl(
  ia: Ia,
  pz: Pz,
  va: bigint | null,
  iobl: it_iobl_t,
  length: number,
  mode: AM,
  privs: number,
  fl: number,
  sharedId: number,
) {
  const rel = mode === AM.IT_ADDR_MODE_RELATIVE;
  if (!iobl || typeof iobl !== 'object' || !iobl.list) fail(S.IT_ERR_INVALID_IOBL);
  let list: bigint[] | ri_phys_buf_t[];
  let pble = 0;
  let total = 0;
  if (iobl.iobl_type === IOBL.IT_IOBL_PAGE_LIST && 'ce_list' in iobl.list) {
    const ce = iobl.list.ce_list;
    const n = iobl.num_elts;
    if (!isUint(n) || n === 0 || n > ce.list_elt.length || !isUint(ce.elt_len) || ce.elt_len === 0) fail(S.IT_ERR_INVALID_IOBL);
    list = ce.list_elt.slice(0, n).map((x) => BigInt(x));
    pble = ce.elt_len;
    total = n * ce.elt_len;
  } else if (iobl.iobl_type === IOBL.IT_IOBL_VE_PAGE_LIST && 've_list' in iobl.list) {
    const ve = iobl.list.ve_list.list_elt.slice(0, iobl.num_elts);
    if (ve.length === 0 || ve.length !== iobl.num_elts) fail(S.IT_ERR_INVALID_IOBL);
    list = ve.map((e) => {
      if (!e || typeof e.io_addr !== 'bigint' || !isUint(e.elt_len)) fail(S.IT_ERR_INVALID_IOBL);
      total += e.elt_len;
      return { phys_address: e.io_addr, phys_len: BigInt(e.elt_len) };
    });
  } else {
    return fail(S.IT_ERR_INVALID_IOBL, 'supported: PAGE_LIST and VE_PAGE_LIST');
  }
  if (!isUint(iobl.fbo) || (pble > 0 && iobl.fbo >= pble)) fail(S.IT_ERR_INVALID_IOBL, 'fbo');
  if (!isUint(length) || length === 0 || length > total - iobl.fbo) fail(S.IT_ERR_INVALID_LENGTH);
  if (!rel && va === null) fail(S.IT_ERR_FAULT, 'Absolute Addressing needs the virtual address');
  const regVa = rel ? 0n : (va as bigint);
  const lmr = new Lmr(ia, pz, null, fl, sharedId ?? 0);
  const r = ia.ops.ri_mr_reg_phys(
    ia.rnic,
    {
      common: { va: regVa, length, mem_attr: memAttrOf(privs, rel), pd: pz.pd },
      phys_buf_list: list,
      nbufs: list.length,
      pble_size: pble,
      address_offset: iobl.fbo,
    },
    0,
    null,
    lmr,
  );
  if (r.status !== RiRet.SUCCESS) fail(regError(r.status), `ri_mr_reg_phys: ${RiRet[r.status]}`);
  lmr.mr = r.mr;
  lmr.ltag = r.ltag;
  lmr.addr = regVa;
  lmr.length = length;
  lmr.privs = privs;
  lmr.addrMode = mode;
  lmr.ioblNumElts = list.length;
  lmr.ioblType = iobl.iobl_type;
  lmr.rmrContext = privs & PRIV.IT_PRIV_REMOTE ? (r.rtag ?? r.ltag) : null;
  ia.lmrs.add(lmr);
  return { lmr_handle: lmr, rmr_context: lmr.rmrContext };
}

/**
 * `it_lmr_flush_to_mem` / `it_lmr_refresh_from_mem`: softrdma memory is coherent (the NONCOHERENT
 * flag is silently ignored, as the pages allow), so both are successful no-ops once the IA is
 * known to be enabled.
 */
function memSync(segs: readonly it_lmr_triplet_t[]): void {
  for (const t of segs ?? []) {
    const l = t?.lmr as unknown;
    if (l instanceof Lmr && !l.freed && l.ia.disabled) fail(S.IT_ERR_IA_CATASTROPHE);
  }
}

/** The LMR group of {@link ItApi}. */
export const itLmr: Pick<
  ItApi,
  | 'it_lmr_create'
  | 'it_lmr_create_unlinked'
  | 'it_lmr_flush_to_mem'
  | 'it_lmr_free'
  | 'it_lmr_link'
  | 'it_lmr_modify'
  | 'it_lmr_query'
  | 'it_lmr_refresh_from_mem'
  | 'it_lmr_unlink'
  | 'it_make_rdma_addr_absolute'
  | 'it_make_rdma_addr_relative'
  | 'it_mem_map'
  | 'it_mem_unmap'
> = {
  it_lmr_create(pz_handle, addr, iobl, length, addr_mode, privs, flags, shared_id) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    const ia = pz.ia;
    const fl = Number(flags) === 0 ? LF.IT_LMR_FLAG_NONE : flags;
    const definedFlags = LF.IT_LMR_FLAG_NONE | LF.IT_LMR_FLAG_SHARED | LF.IT_LMR_FLAG_NONCOHERENT | LF.IT_LMR_FLAG_NON_SHAREABLE;
    if (!isUint(fl) || (fl & ~definedFlags) !== 0) fail(S.IT_ERR_INVALID_FLAGS);
    if (fl & LF.IT_LMR_FLAG_SHARED && fl & LF.IT_LMR_FLAG_NON_SHAREABLE) fail(S.IT_ERR_INVALID_FLAGS);
    checkAddrMode(addr_mode);
    checkPrivs(privs);
    const rel = addr_mode === AM.IT_ADDR_MODE_RELATIVE;
    const va = addrOf(addr);
    if (iobl !== null && iobl !== undefined) {
      if (!ia.privileged) fail(S.IT_ERR_NO_PERMISSION, 'I/O Buffer Lists are for Privileged Consumers');
      return createLmrIobl(ia, pz, va, iobl, length, addr_mode, privs, fl, shared_id);
    }
    if (!isUint(length) || length === 0 || length > MAX_RC_LEN) fail(S.IT_ERR_INVALID_LENGTH);
    if (va === null || !hostMemory.resolve(va, length)) fail(S.IT_ERR_FAULT, 'the range is not host memory');
    const lmr = new Lmr(ia, pz, null, fl, shared_id ?? 0);
    const attr = { va, length, mem_attr: memAttrOf(privs, rel), pd: pz.pd };
    let r: { status: RiRet; mr?: unknown; out_mr?: unknown; ltag?: number; rtag?: number };
    const match =
      fl & LF.IT_LMR_FLAG_SHARED
        ? [...ia.lmrs].find(
            (o) =>
              !o.freed &&
              !o.direct &&
              o.linked &&
              !o.unlinkedCreate &&
              o.sharedId === (shared_id ?? 0) &&
              o.addr === va &&
              o.length === length &&
              o.addrMode === addr_mode &&
              (o.flags & LF.IT_LMR_FLAG_NON_SHAREABLE) === 0 &&
              (o.flags & LF.IT_LMR_FLAG_NONCOHERENT) === (fl & LF.IT_LMR_FLAG_NONCOHERENT),
          )
        : undefined;
    if (match) {
      r = ia.ops.ri_mr_reg_shared(ia.rnic, match.mr!, attr, 0, null, lmr);
    } else {
      r = ia.ops.ri_mr_reg(ia.rnic, attr, 0, null, lmr);
    }
    if (r.status !== RiRet.SUCCESS) fail(regError(r.status), `registration: ${RiRet[r.status]}`);
    lmr.mr = (r.mr ?? r.out_mr) as Lmr['mr'];
    lmr.ltag = r.ltag!;
    lmr.addr = va;
    lmr.length = length;
    lmr.privs = privs;
    lmr.addrMode = addr_mode;
    lmr.rmrContext = privs & PRIV.IT_PRIV_REMOTE ? (r.rtag ?? r.ltag!) : null;
    if (match) {
      lmr.shared = true;
      match.shared = true;
    }
    ia.lmrs.add(lmr);
    return { lmr_handle: lmr, rmr_context: lmr.rmrContext };
  },

  it_lmr_create_unlinked(pz_handle, iobl_num_elts, flags, shared_id) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    const ia = pz.ia;
    if (!ia.privileged) fail(S.IT_ERR_NO_PERMISSION, 'unlinked LMRs are for Privileged Consumers');
    const fl = Number(flags) === 0 ? LF.IT_LMR_FLAG_NONE : flags;
    if (!isUint(fl) || (fl & ~(LF.IT_LMR_FLAG_NONE | LF.IT_LMR_FLAG_NONCOHERENT | LF.IT_LMR_FLAG_NON_SHAREABLE)) !== 0) {
      fail(S.IT_ERR_INVALID_FLAGS);
    }
    if (!isUint(iobl_num_elts) || iobl_num_elts === 0 || iobl_num_elts > limits(ia).max_pbl_size) fail(S.IT_ERR_RESOURCE_IOBL_LENGTH);
    const lmr = new Lmr(ia, pz, null, fl, shared_id ?? 0, true);
    const r = ia.ops.ri_ltag_alloc(ia.rnic, iobl_num_elts, pz.pd, RiMemFlags.LOCAL | RiMemFlags.REMOTE | RiMemFlags.BINDING, 0, null, lmr);
    if (r.status !== RiRet.SUCCESS) fail(S.IT_ERR_RESOURCES, `ri_ltag_alloc: ${RiRet[r.status]}`);
    lmr.mr = r.mr;
    lmr.ltag = r.ltag;
    lmr.linked = false;
    lmr.ioblNumElts = r.address_list_length;
    lmr.ioblType = IOBL.IT_IOBL_PAGE_LIST;
    ia.lmrs.add(lmr);
    return lmr;
  },

  it_lmr_flush_to_mem(local_segments) {
    memSync(local_segments);
  },

  it_lmr_free(lmr_handle) {
    const lmr = check(lmr_handle, Lmr, S.IT_ERR_INVALID_LMR);
    if (lmr.direct) fail(S.IT_ERR_INVALID_LMR, 'the Direct LMR Handle cannot be freed');
    if (lmr.linkedRmrs > 0 || !lmr.free()) fail(S.IT_ERR_LMR_BUSY, 'an RMR is linked to it');
  },

  it_lmr_link(lmr_handle, addr, iobl, length, addr_mode, privs, ep_handle, cookie, dto_flags) {
    const lmr = check(lmr_handle, Lmr, S.IT_ERR_INVALID_LMR);
    if (lmr.direct) fail(S.IT_ERR_INVALID_LMR, 'the Direct LMR Handle cannot be linked');
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    if (!ep.attr.priv_ops_enable) fail(S.IT_ERR_OP_NOT_SUPPORTED, 'LMR Link needs a Privileged Mode Endpoint');
    checkDtoFlags(dto_flags, BASE_SQ);
    checkAddrMode(addr_mode);
    checkPrivs(privs);
    const rel = addr_mode === AM.IT_ADDR_MODE_RELATIVE;
    const va = addrOf(addr) ?? 0n;
    if (!isUint(length)) fail(S.IT_ERR_INVALID_IOBL, 'length');
    let pbl: bigint[];
    let pageSize: number;
    let fbo: number;
    if (iobl) {
      if (iobl.iobl_type !== IOBL.IT_IOBL_PAGE_LIST || !('ce_list' in iobl.list)) fail(S.IT_ERR_INVALID_IOBL, 'LMR Link takes a page list');
      const ce = iobl.list.ce_list;
      const n = iobl.num_elts ?? ce.list_elt.length;
      if (!isUint(n) || n > ce.list_elt.length || !isUint(ce.elt_len) || !isUint(iobl.fbo)) fail(S.IT_ERR_INVALID_IOBL);
      pbl = ce.list_elt.slice(0, n).map((x) => BigInt(x));
      pageSize = ce.elt_len;
      fbo = iobl.fbo;
    } else {
      // The virtual buffer's own pages (a host buffer is physically contiguous).
      if (va === 0n) fail(S.IT_ERR_INVALID_IOBL, 'an address or an IOBL is needed');
      pageSize = 4096;
      const pa = hostMemory.physOf(va);
      fbo = Number(pa % BigInt(pageSize));
      const first = pa - BigInt(fbo);
      const count = Math.max(1, Math.ceil((fbo + length) / pageSize));
      pbl = Array.from({ length: count }, (_, i) => first + BigInt(i * pageSize));
    }
    const ctx = nextContext(lmr.ltag);
    const wr: ri_wr_t = {
      type: RiWrType.FAST_REGISTER,
      flags: riFlags(dto_flags, 'mem'),
      id: 0n,
      attr: {
        common: { va: rel ? 0n : va, length, mem_attr: memAttrOf(privs, rel), pd: lmr.pz.pd },
        phys_buf_list: pbl,
        nbufs: pbl.length,
        pble_size: pageSize,
        address_offset: fbo,
      },
      ltag: ctx,
      rtag: ctx,
      mr_handle: lmr.mr!,
    };
    ep.postSq(
      {
        kind: 'lmr_link',
        cookie: cookieOf(cookie),
        flags: dto_flags,
        lmr,
        link: { lmr: null, addr: va, length, privs, addrMode: addr_mode, context: ctx },
      },
      wr,
    );
    return ctx;
  },

  it_lmr_modify(lmr_handle, mask, params) {
    const lmr = check(lmr_handle, Lmr, S.IT_ERR_INVALID_LMR);
    if (lmr.direct) fail(S.IT_ERR_INVALID_LMR);
    const modifiable = LMM.IT_LMR_PARAM_PZ | LMM.IT_LMR_PARAM_MEM_PRIV;
    if (!isUint(mask) || Number(mask) === 0 || (mask & ~modifiable) !== 0) fail(S.IT_ERR_INVALID_MASK);
    if (lmr.linkedRmrs > 0) fail(S.IT_ERR_LMR_BUSY);
    const ia = lmr.ia;
    const p = params ?? {};
    // From here on every error destroys the LMR (it_lmr_modify; erratum GN48).
    const destroyAnd = (st: S, why?: string): never => {
      lmr.destroy();
      return fail(st, why);
    };
    let pz = lmr.pz;
    if (mask & LMM.IT_LMR_PARAM_PZ) {
      const x = p.pz as unknown;
      if (!(x instanceof Pz) || x.freed || x.ia !== ia) destroyAnd(S.IT_ERR_INVALID_PZ, 'the LMR was destroyed');
      pz = x as Pz;
    }
    let privs = lmr.privs;
    if (mask & LMM.IT_LMR_PARAM_MEM_PRIV) {
      privs = p.privs as number;
      const ok =
        isUint(privs) &&
        privs !== 0 &&
        (privs & ~PRIV.IT_PRIV_ALL) === 0 &&
        !(privs & PRIV.IT_PRIV_REMOTE_WRITE && !(privs & PRIV.IT_PRIV_LOCAL_WRITE));
      if (!ok) destroyAnd(S.IT_ERR_INVALID_PRIVS, 'the LMR was destroyed');
    }
    let change = 0;
    if (mask & LMM.IT_LMR_PARAM_PZ) change |= RiMrRereg.PD;
    if (mask & LMM.IT_LMR_PARAM_MEM_PRIV) change |= RiMrRereg.ACCESS;
    const rel = lmr.addrMode === AM.IT_ADDR_MODE_RELATIVE;
    const r = ia.ops.ri_mr_rereg(
      ia.rnic,
      lmr.mr!,
      change,
      { va: lmr.addr, length: lmr.length, mem_attr: memAttrOf(privs, rel), pd: pz.pd },
      lmr.ltag,
      null,
      lmr,
    );
    if (r.status !== RiRet.SUCCESS) {
      if (r.status === RiRet.WINDOWS_BOUND) fail(S.IT_ERR_LMR_BUSY);
      destroyAnd(r.status === RiRet.MEM_INVALID_ACCESS ? S.IT_ERR_INVALID_PRIVS : S.IT_ERR_RESOURCES, `ri_mr_rereg: ${RiRet[r.status]}`);
      return;
    }
    lmr.pz = pz;
    lmr.privs = privs;
    lmr.ltag = r.ltag;
    lmr.rmrContext = privs & PRIV.IT_PRIV_REMOTE ? (r.rtag ?? r.ltag) : null;
  },

  it_lmr_query(lmr_handle, mask) {
    const lmr = check(lmr_handle, Lmr, S.IT_ERR_INVALID_LMR);
    checkMask(mask, (1 << 15) - 1);
    return pick(mask, lmr.params(), [
      [LMM.IT_LMR_PARAM_IA, 'ia'],
      [LMM.IT_LMR_PARAM_PZ, 'pz'],
      [LMM.IT_LMR_PARAM_ADDR, 'addr'],
      [LMM.IT_LMR_PARAM_LENGTH, 'length'],
      [LMM.IT_LMR_PARAM_MEM_PRIV, 'privs'],
      [LMM.IT_LMR_PARAM_FLAG, 'flags'],
      [LMM.IT_LMR_PARAM_SHARED_ID, 'shared_id'],
      [LMM.IT_LMR_PARAM_RMR_CONTEXT, 'rmr_context'],
      [LMM.IT_LMR_PARAM_ACTUAL_ADDR, 'actual_addr'],
      [LMM.IT_LMR_PARAM_ACTUAL_LENGTH, 'actual_length'],
      [LMM.IT_LMR_PARAM_ADDR_MODE, 'addr_mode'],
      [LMM.IT_LMR_PARAM_LINKED, 'linked'],
      [LMM.IT_LMR_PARAM_IOBL_NUM_ELTS, 'iobl_num_elts'],
      [LMM.IT_LMR_PARAM_IOBL_TYPE, 'iobl_type'],
    ] as const satisfies readonly (readonly [number, keyof it_lmr_param_t])[]);
  },

  it_lmr_refresh_from_mem(local_segments) {
    memSync(local_segments);
  },

  it_lmr_unlink(lmr_handle, ep_handle, cookie, dto_flags) {
    const lmr = check(lmr_handle, Lmr, S.IT_ERR_INVALID_LMR);
    if (lmr.direct) fail(S.IT_ERR_INVALID_LMR, 'the Direct LMR Handle cannot be unlinked');
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    checkDtoFlags(dto_flags, UNLINK_FLAGS);
    ep.postSq(
      { kind: 'lmr_unlink', cookie: cookieOf(cookie), flags: dto_flags, lmr },
      { type: RiWrType.LOCAL_INVALIDATE_MR, flags: riFlags(dto_flags, 'unlink'), id: 0n, ltag: lmr.ltag, rtag: 0, mrw_handle: lmr.mr! },
    );
  },

  it_make_rdma_addr_absolute(addr) {
    return addr instanceof Uint8Array ? hostMemory.addressOf(addr) : BigInt.asUintN(64, addr);
  },

  it_make_rdma_addr_relative(offset) {
    return BigInt(offset);
  },

  it_mem_map(ia_handle, vaddr, _aspace_id, len) {
    const ia = check(ia_handle, Ia, S.IT_ERR_INVALID_IA);
    if (!ia.privileged) fail(S.IT_ERR_NO_PERMISSION);
    const va = addrOf(vaddr);
    if (va === null || !isUint(len) || len === 0 || !hostMemory.resolve(va, len)) fail(S.IT_ERR_FAULT);
    const p = ia.ops.ri_mem_pin(ia.rnic, va, len, ia);
    if (p.status !== RiRet.SUCCESS) fail(S.IT_ERR_FAULT, `ri_mem_pin: ${RiRet[p.status]}`);
    const m = ia.ops.ri_mem_map(ia.rnic, va, len, ia);
    if (m.status !== RiRet.SUCCESS) {
      ia.ops.ri_mem_unpin(ia.rnic, va, len, ia);
      fail(S.IT_ERR_FAULT, `ri_mem_map: ${RiRet[m.status]}`);
    }
    const mapped = Number(m.io.phys_len);
    ia.maps.set(`${m.io.phys_address}:${mapped}`, { vaddr: va, len });
    return { io_addr: m.io.phys_address, mapped_len: mapped };
  },

  it_mem_unmap(ia_handle, io_addr, mapped_len) {
    const ia = check(ia_handle, Ia, S.IT_ERR_INVALID_IA);
    if (!ia.privileged) fail(S.IT_ERR_NO_PERMISSION);
    const k = `${io_addr}:${mapped_len}`;
    const m = ia.maps.get(k);
    if (!m) fail(S.IT_ERR_FAULT, 'no such mapping');
    ia.ops.ri_mem_unmap(ia.rnic, { phys_address: io_addr, phys_len: BigInt(mapped_len) }, ia);
    ia.ops.ri_mem_unpin(ia.rnic, m.vaddr, m.len, ia);
    ia.maps.delete(k);
  },
};

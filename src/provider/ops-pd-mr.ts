/**
 * Protection domains, memory regions and memory windows (RNICPI 1.0 Ch. 7: `ri_pd_*`,
 * `ri_ltag_alloc`, `ri_mr_*`, `ri_mw_*`): decoding the registration inputs and reporting the
 * engine's objects. Registration itself is the core's (`src/rnic/memops.ts`).
 *
 * @module
 */
import { MEM_REMOTE, type MemObject } from '../rnic/memory.js';
import {
  ltagAlloc,
  mrDereg,
  mrReg,
  mrRegPhys,
  mrRegShared,
  mrRereg,
  mwAlloc,
  mwDealloc,
  type PhysList,
  type ReregChange,
} from '../rnic/memops.js';
import { RiRet, riFail, riOk, riStatus } from '../rnicpi/status.js';
import {
  RiMrRereg,
  RiStagState,
  type ri_mr_info_t,
  type ri_mr_reg_attr_t,
  type ri_mr_reg_phys_attr_t,
  type ri_phys_buf_t,
} from '../rnicpi/types.js';
import { type RiOp, type SoftrdmaRnicHandle, PdHandle, MrHandle, MwHandle, pdHandles, objOf, rnicOf, own } from './handles.js';

/** Every `ri_mem_attr_t` bit RNICPI defines. */
const MEM_FLAGS_ALL = (1 << 11) - 1;
/** Flags `ri_mr_rereg(_phys)` understands. */
const REREG_ALL = RiMrRereg.TRANSLATE | RiMrRereg.PD | RiMrRereg.ACCESS;

function mrInfo(h: MrHandle): ri_mr_info_t {
  const m = h.mem;
  const remote = (m.rights & MEM_REMOTE) !== 0;
  const len = BigInt(m.length);
  const pdH = m.pd ? pdHandles.get(m.pd) : undefined;
  return {
    attr: { va: m.regVa, length: m.length, mem_attr: m.regFlags, pd: pdH! },
    ltag: m.stag,
    rtag: remote ? m.stag : 0,
    is_shared_region: m.shared,
    local_lb: m.regVa,
    local_ub: m.length > 0 ? m.regVa + len - 1n : m.regVa,
    remote_lb: remote ? m.base : 0n,
    remote_ub: remote && m.length > 0 ? m.base + len - 1n : 0n,
    stag_state: m.valid ? RiStagState.VALID : RiStagState.INVALID,
  };
}

function physList(a: ri_mr_reg_phys_attr_t): PhysList | RiRet {
  if (!a || !Array.isArray(a.phys_buf_list)) return RiRet.INVALID_PARAMETER;
  const n = a.nbufs ?? a.phys_buf_list.length;
  if (!Number.isInteger(n) || n < 0 || n > a.phys_buf_list.length) return RiRet.INVALID_PARAMETER;
  if (!Number.isInteger(a.pble_size) || a.pble_size < 0) return RiRet.INVALID_PARAMETER;
  if (!Number.isInteger(a.address_offset) || a.address_offset < 0) return RiRet.MEM_INVALID_OFFSET;
  const list = a.phys_buf_list.slice(0, n);
  if (a.pble_size > 0) {
    if (list.some((x) => typeof x !== 'bigint')) return RiRet.MEM_INVALID_PBLE;
    return { bufs: list as bigint[], pbeSize: a.pble_size, fbo: a.address_offset };
  }
  const bufs: { addr: bigint; len: number }[] = [];
  for (const e of list as ri_phys_buf_t[]) {
    if (!e || typeof e !== 'object' || typeof e.phys_address !== 'bigint' || typeof e.phys_len !== 'bigint') {
      return RiRet.MEM_INVALID_PBLE;
    }
    bufs.push({ addr: e.phys_address, len: Number(e.phys_len) });
  }
  return { bufs, pbeSize: 0, fbo: a.address_offset };
}

function validMemAttr(flags: unknown): flags is number {
  return Number.isInteger(flags) && ((flags as number) & ~MEM_FLAGS_ALL) === 0;
}

function tagsOf(m: MemObject): { ltag: number; rtag?: number } {
  return (m.rights & MEM_REMOTE) !== 0 ? { ltag: m.stag, rtag: m.stag } : { ltag: m.stag };
}

/** After an engine re-registration: a failure other than the no-change ones deallocated the MR. */
function afterRereg(h: MrHandle, st: RiRet): void {
  if (st !== RiRet.SUCCESS && h.mem.destroyed) h.kill();
}

/** Decodes `ri_mr_rereg(_phys)` inputs; the PD is resolved here, its failure deallocates (spec). */
function decodeRereg(r: SoftrdmaRnicHandle, mask: number, a: ri_mr_reg_attr_t | null | undefined, ltag: number): ReregChange | RiRet {
  if (!Number.isInteger(mask) || mask === 0 || (mask & ~REREG_ALL) !== 0) return RiRet.INVALID_PARAMETER;
  if (!a || typeof a !== 'object' || !Number.isInteger(ltag)) return RiRet.INVALID_PARAMETER;
  const ch: ReregChange = { key: ltag & 0xff };
  if (mask & RiMrRereg.TRANSLATE) {
    if (typeof a.va !== 'bigint') return RiRet.INVALID_PARAMETER;
    ch.translate = { va: a.va, length: a.length };
  }
  if (mask & RiMrRereg.ACCESS) {
    if (!validMemAttr(a.mem_attr)) return RiRet.INVALID_PARAMETER;
    ch.flags = a.mem_attr;
  }
  if (mask & RiMrRereg.PD) {
    const p = own(r, a.pd, PdHandle);
    // PD_INVALID_HANDLE is not one of the four no-change errors: the engine deallocates.
    if (!p) ch.fail = RiRet.PD_INVALID_HANDLE;
    else ch.pd = p.pd;
  }
  return ch;
}

export const ri_pd_alloc: RiOp<'ri_pd_alloc'> = (rnic, vp_data, os_data) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  const pd = r.engine.pdAlloc(os_data);
  if (typeof pd === 'number') return riFail(pd as Exclude<RiRet, RiRet.SUCCESS>);
  return riOk({ pd: new PdHandle(r, pd, vp_data, os_data) });
};

export const ri_pd_dealloc: RiOp<'ri_pd_dealloc'> = (rnic, pd) => {
  const h = objOf(rnic, pd, PdHandle, RiRet.PD_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  const r = h.owner;
  const st = r.engine.pdDealloc(h.pd);
  if (st === RiRet.SUCCESS) h.kill();
  return riStatus(st);
};

export const ri_ltag_alloc: RiOp<'ri_ltag_alloc'> = (rnic, address_list_length, pd, attr, ltag, vp_data, os_data) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (!r.privileged) return riFail(RiRet.NO_PERMISSION);
  const p = own(r, pd, PdHandle);
  if (!p) return riFail(RiRet.PD_INVALID_HANDLE);
  if (!validMemAttr(attr) || !Number.isInteger(ltag)) return riFail(RiRet.INVALID_PARAMETER);
  const m = ltagAlloc(r.engine, p.pd, address_list_length, attr, ltag & 0xff, os_data);
  if (typeof m === 'number') return riFail(m as Exclude<RiRet, RiRet.SUCCESS>);
  const h = new MrHandle(r, m, vp_data, os_data);
  const out = { address_list_length: m.maxPbl, mr: h, ltag: m.stag };
  return riOk(m.remoteAllowed ? { ...out, rtag: m.stag } : out);
};

export const ri_mr_reg: RiOp<'ri_mr_reg'> = (rnic, a, ltag, vp_data, os_data) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (!a || typeof a !== 'object' || typeof a.va !== 'bigint' || !Number.isInteger(ltag)) {
    return riFail(RiRet.INVALID_PARAMETER);
  }
  const p = own(r, a.pd, PdHandle);
  if (!p) return riFail(RiRet.PD_INVALID_HANDLE);
  if (!validMemAttr(a.mem_attr)) return riFail(RiRet.INVALID_PARAMETER);
  const m = mrReg(r.engine, { va: a.va, length: a.length, flags: a.mem_attr, pd: p.pd, key: ltag & 0xff }, os_data);
  if (typeof m === 'number') return riFail(m as Exclude<RiRet, RiRet.SUCCESS>);
  return riOk({ mr: new MrHandle(r, m, vp_data, os_data), ...tagsOf(m) });
};

export const ri_mr_query: RiOp<'ri_mr_query'> = (rnic, mr) => {
  const h = objOf(rnic, mr, MrHandle, RiRet.MR_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  return riOk({ mr_info: mrInfo(h) });
};

export const ri_mr_rereg: RiOp<'ri_mr_rereg'> = (rnic, in_mr, change_mask, mr_attr, ltag, _vp_data, _os_data) => {
  const h = objOf(rnic, in_mr, MrHandle, RiRet.MR_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  const r = h.owner;
  const ch = decodeRereg(r, change_mask, mr_attr, ltag);
  if (typeof ch === 'number') return riFail(ch as Exclude<RiRet, RiRet.SUCCESS>);
  const st = mrRereg(r.engine, h.mem, ch, false);
  afterRereg(h, st);
  if (st !== RiRet.SUCCESS) return riFail(st as Exclude<RiRet, RiRet.SUCCESS>);
  return riOk({ out_mr: h, ...tagsOf(h.mem) });
};

export const ri_mr_dereg: RiOp<'ri_mr_dereg'> = (rnic, mr) => {
  const h = objOf(rnic, mr, MrHandle, RiRet.MR_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  const r = h.owner;
  const st = mrDereg(r.engine, h.mem);
  if (st === RiRet.SUCCESS) h.kill();
  return riStatus(st);
};

export const ri_mr_reg_phys: RiOp<'ri_mr_reg_phys'> = (rnic, a, ltag, vp_data, os_data) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (!r.privileged) return riFail(RiRet.NO_PERMISSION);
  if (!a?.common || typeof a.common.va !== 'bigint' || !Number.isInteger(ltag)) {
    return riFail(RiRet.INVALID_PARAMETER);
  }
  const p = own(r, a.common.pd, PdHandle);
  if (!p) return riFail(RiRet.PD_INVALID_HANDLE);
  if (!validMemAttr(a.common.mem_attr)) return riFail(RiRet.INVALID_PARAMETER);
  const pl = physList(a);
  if (typeof pl === 'number') return riFail(pl as Exclude<RiRet, RiRet.SUCCESS>);
  const c = a.common;
  const m = mrRegPhys(r.engine, r.vp.pblMode, { va: c.va, length: c.length, flags: c.mem_attr, pd: p.pd, key: ltag & 0xff }, pl, os_data);
  if (typeof m === 'number') return riFail(m as Exclude<RiRet, RiRet.SUCCESS>);
  return riOk({ mr: new MrHandle(r, m, vp_data, os_data), mr_phys_attr: a, ...tagsOf(m) });
};

export const ri_mr_rereg_phys: RiOp<'ri_mr_rereg_phys'> = (rnic, in_mr, change_mask, a, ltag, _rtag, _vp_data, _os_data) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (!r.privileged) return riFail(RiRet.NO_PERMISSION);
  const h = own(r, in_mr, MrHandle);
  if (!h) return riFail(RiRet.MR_INVALID_HANDLE);
  if (!a?.common) return riFail(RiRet.INVALID_PARAMETER);
  const ch = decodeRereg(r, change_mask, a.common, ltag);
  if (typeof ch === 'number') return riFail(ch as Exclude<RiRet, RiRet.SUCCESS>);
  if (ch.translate) {
    if (typeof a.common.va !== 'bigint') return riFail(RiRet.INVALID_PARAMETER);
    const pl = physList(a);
    if (typeof pl === 'number') {
      // A malformed list is INVALID_PARAMETER (no change); other list errors deallocate.
      if (pl === RiRet.INVALID_PARAMETER) return riFail(pl);
      ch.fail = pl;
    } else {
      ch.translate = { va: a.common.va, length: a.common.length, phys: pl, mode: r.vp.pblMode };
    }
  }
  const st = mrRereg(r.engine, h.mem, ch, true);
  afterRereg(h, st);
  if (st !== RiRet.SUCCESS) return riFail(st as Exclude<RiRet, RiRet.SUCCESS>);
  return riOk({ out_mr: h, mr_phys_attr: a, ...tagsOf(h.mem) });
};

export const ri_mr_reg_shared: RiOp<'ri_mr_reg_shared'> = (rnic, in_mr, a, ltag, vp_data, os_data) => {
  const src = objOf(rnic, in_mr, MrHandle, RiRet.MR_INVALID_HANDLE);
  if (typeof src === 'number') return riFail(src);
  const r = src.owner;
  if (!a || typeof a.va !== 'bigint' || !Number.isInteger(ltag)) return riFail(RiRet.INVALID_PARAMETER);
  const p = own(r, a.pd, PdHandle);
  if (!p) return riFail(RiRet.PD_INVALID_HANDLE);
  if (!validMemAttr(a.mem_attr)) return riFail(RiRet.INVALID_PARAMETER);
  // The input length is ignored: a shared MR has the original's length.
  const m = mrRegShared(r.engine, src.mem, { va: a.va, length: 0, flags: a.mem_attr, pd: p.pd, key: ltag & 0xff }, os_data);
  if (typeof m === 'number') return riFail(m as Exclude<RiRet, RiRet.SUCCESS>);
  const out: ri_mr_reg_attr_t = { va: m.regVa, length: m.length, mem_attr: m.regFlags, pd: p };
  return riOk({ out_mr: new MrHandle(r, m, vp_data, os_data), mr_reg_attr: out, ...tagsOf(m) });
};

export const ri_mw_alloc: RiOp<'ri_mw_alloc'> = (rnic, pd, mw_type, vp_data, os_data) => {
  const p = objOf(rnic, pd, PdHandle, RiRet.PD_INVALID_HANDLE);
  if (typeof p === 'number') return riFail(p);
  const r = p.owner;
  const m = mwAlloc(r.engine, p.pd, mw_type, os_data);
  if (typeof m === 'number') return riFail(m as Exclude<RiRet, RiRet.SUCCESS>);
  return riOk({ mw: new MwHandle(r, m, vp_data, os_data), rtag: m.stag });
};

export const ri_mw_dealloc: RiOp<'ri_mw_dealloc'> = (rnic, mw) => {
  const h = objOf(rnic, mw, MwHandle, RiRet.MW_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  const r = h.owner;
  const st = mwDealloc(r.engine, h.mem);
  if (st === RiRet.SUCCESS) h.kill();
  return riStatus(st);
};

export const ri_mw_query: RiOp<'ri_mw_query'> = (rnic, mw) => {
  const h = objOf(rnic, mw, MwHandle, RiRet.MW_INVALID_HANDLE);
  if (typeof h === 'number') return riFail(h);
  const m = h.mem;
  const pd = (m.pd ? pdHandles.get(m.pd) : undefined)!;
  return riOk({
    mw_type: m.mwType,
    stag_state: m.valid ? RiStagState.VALID : RiStagState.INVALID,
    pd,
    // An unbound window has no permissions.
    attr: m.valid ? m.rights : 0,
    rtag: m.stag,
  });
};

/**
 * Memory verbs and memory work requests: registration (virtual, physical, shared),
 * re-registration, deregistration, STag allocation for Fast-Register, Memory Windows, and
 * the execution of Bind, Fast-Register and the two invalidations (RDMA Protocol Verbs §7,
 * RNICPI §5.8–5.9).
 *
 * Every function validates its whole input before it changes anything; a refused call
 * leaves the RNIC as it was, except where the spec says otherwise (re-registration, see
 * {@link mrRereg}).
 */
import { RiRet } from '../rnicpi/status.js';
import { RiMemFlags, RiMwType, RiPblMode, RiWcStatus } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import { hostMemory } from './hostmem.js';
import { randomOctet } from './random.js';
import {
  contigTarget,
  isPow2,
  listTarget,
  MEM_REMOTE,
  MemKind,
  MemObject,
  type MemTarget,
  MrOrigin,
  normalizeMrRights,
  windowRightsAllowed,
} from './memory.js';
import type { Pd } from './pd.js';
import type { Qp } from './qp.js';
import type { Rnic } from './rnic.js';
import type { FmrSpec } from './wqe.js';

const log = logger('mem');

/**
 * The key the RNIC chooses when the Consumer does not own it: a fresh random octet for every
 * registration and window (RDMA Protocol Verbs §7.2 "Implementation Note": a suitable random
 * number with each binding), so that one advertised STag tells a peer nothing about the key
 * of the next (RFC 5040 §8 and the DDP/RDMAP security analysis it refers
 * to: STags should not be predictable).
 */
function freshKey(): number {
  return randomOctet();
}

/** Attributes of a virtual registration (`ri_mr_reg_attr_t`). */
export interface VirtReg {
  va: bigint;
  length: number;
  flags: number;
  pd: Pd;
  /** The key portion of the input LTag (used with `CONSUMER_OWNS_KEY`). */
  key: number;
}

/** A physical buffer list (`ri_mr_reg_phys_attr_t` beyond the common part). */
export interface PhysList {
  /** With `pbeSize` > 0: addresses of equal-sized buffers; with 0: `{addr,len}` entries. */
  bufs: readonly bigint[] | readonly { addr: bigint; len: number }[];
  pbeSize: number;
  /** Offset of the first byte in the first buffer (FBO). */
  fbo: number;
}

function keyOf(flags: number, key: number): number {
  return flags & RiMemFlags.CONSUMER_OWNS_KEY ? key & 0xff : freshKey();
}

function insertObj(rnic: Rnic, obj: MemObject): RiRet {
  const mw = obj.isMw;
  if (mw ? rnic.mwCount >= rnic.limits.maxMws : rnic.mrCount >= rnic.limits.maxMrs) return RiRet.RESOURCE_SHORTAGE;
  if (!rnic.stags.insert(obj)) return RiRet.RESOURCE_SHORTAGE;
  if (mw) rnic.mwCount++;
  else rnic.mrCount++;
  obj.pd!.users++;
  return RiRet.SUCCESS;
}

function removeObj(rnic: Rnic, obj: MemObject): void {
  rnic.stags.remove(obj);
  obj.destroyed = true;
  obj.valid = false;
  if (obj.isMw) rnic.mwCount--;
  else rnic.mrCount--;
  obj.pd?.users && obj.pd.users--;
  if (obj.pinned) {
    hostMemory.unpin(obj.pinned.va, obj.pinned.length);
    obj.pinned = null;
  }
  // Nothing the object took stays reachable through a stale reference to it.
  obj.target = null;
  obj.mr = null;
}

/** Resolves a virtual range and checks the rights; the pieces of a virtual registration. */
function prepareVirtual(r: VirtReg): { target: MemTarget; rights: number } | RiRet {
  const rights = normalizeMrRights(r.flags);
  if (rights === null) return RiRet.MEM_INVALID_ACCESS;
  if (!Number.isInteger(r.length) || r.length <= 0 || r.length > 0xffff_ffff) return RiRet.MEM_INVALID_LENGTH;
  const res = hostMemory.resolve(r.va, r.length);
  if (!res) return RiRet.MEM_INVALID_ADDRESS;
  return { target: contigTarget(res.region.bytes.subarray(res.offset, res.offset + r.length)), rights };
}

function applyVirtual(obj: MemObject, r: VirtReg, p: { target: MemTarget; rights: number }): void {
  obj.target = p.target;
  obj.rights = p.rights;
  obj.remoteAllowed = (p.rights & MEM_REMOTE) !== 0;
  obj.zeroBased = (r.flags & RiMemFlags.ZBVA) !== 0;
  obj.base = obj.zeroBased ? 0n : r.va;
  obj.length = r.length;
  obj.regVa = r.va;
  obj.regFlags = r.flags;
  obj.key = keyOf(r.flags, r.key);
  obj.valid = true;
  obj.maxPbl = Math.ceil(r.length / 4096) + 1;
  hostMemory.pin(r.va, r.length);
  obj.pinned = { va: r.va, length: r.length };
}

/** `ri_mr_reg`: registers a virtual range (Verbs §7.3 RI-Register). */
export function mrReg(rnic: Rnic, r: VirtReg, osData: unknown): MemObject | RiRet {
  const p = prepareVirtual(r);
  if (typeof p === 'number') return p;
  const obj = new MemObject(MemKind.MR, r.pd, osData);
  obj.origin = MrOrigin.VIRTUAL;
  const st = insertObj(rnic, obj);
  if (st !== RiRet.SUCCESS) return st;
  applyVirtual(obj, r, p);
  log('MR[%s] registered va=%s len=%d rights=%s', hex(obj.stag), r.va.toString(16), r.length, obj.rights.toString(16));
  return obj;
}

/**
 * Validates a physical buffer list and resolves it to bytes (Verbs §7.6, RNICPI
 * `ri_mr_reg_phys`): page mode wants power-of-two pages the RNIC supports, page-aligned
 * entries and FBO < page size; block mode wants equal blocks within the supported range.
 * A VA-based registration also needs `VA mod size == FBO` (Verbs §7.6.1.1).
 */
export function preparePhys(
  rnic: Rnic,
  mode: RiPblMode,
  pl: PhysList,
  va: bigint,
  length: number,
  zeroBased: boolean,
): { pages: Uint8Array[]; target: MemTarget } | RiRet {
  const n = pl.bufs.length;
  if (n === 0) return RiRet.MEM_INVALID_PBLE_LENGTH;
  if (n > rnic.limits.maxPblSize) return RiRet.MEM_INVALID_PBLE_LENGTH;
  if (!Number.isInteger(length) || length <= 0 || length > 0xffff_ffff) return RiRet.MEM_INVALID_LENGTH;
  if (!Number.isInteger(pl.fbo) || pl.fbo < 0) return RiRet.MEM_INVALID_OFFSET;
  const pages: Uint8Array[] = [];
  if (pl.pbeSize > 0) {
    const size = pl.pbeSize;
    if (mode === RiPblMode.PAGE_LIST_MODE) {
      if (!isPow2(size) || ((rnic.limits.pageSizesMask >> BigInt(Math.log2(size))) & 1n) === 0n) {
        return RiRet.MEM_INVALID_PBLE;
      }
    } else if (BigInt(size) < rnic.limits.blockSizeLow || BigInt(size) > rnic.limits.blockSizeHigh) {
      return RiRet.MEM_INVALID_PBLE;
    }
    if (pl.fbo >= size) return RiRet.MEM_INVALID_OFFSET;
    if (pl.fbo + length > n * size) return RiRet.MEM_INVALID_LENGTH;
    if (!zeroBased && Number(va % BigInt(size)) !== pl.fbo) return RiRet.MEM_INVALID_ADDRESS;
    for (const a of pl.bufs as readonly bigint[]) {
      if (typeof a !== 'bigint') return RiRet.INVALID_PARAMETER;
      if (mode === RiPblMode.PAGE_LIST_MODE && a % BigInt(size) !== 0n) return RiRet.MEM_INVALID_PBLE;
      const r = hostMemory.resolvePhys(a, size);
      if (!r) return RiRet.MEM_INVALID_PBLE;
      pages.push(r.region.bytes.subarray(r.offset, r.offset + size));
    }
    return { pages, target: listTarget(pages, size, pl.fbo, length) };
  }
  let total = 0;
  for (const e of pl.bufs as readonly { addr: bigint; len: number }[]) {
    if (typeof e !== 'object' || !Number.isInteger(e.len) || e.len <= 0) return RiRet.MEM_INVALID_PBLE;
    const r = hostMemory.resolvePhys(e.addr, e.len);
    if (!r) return RiRet.MEM_INVALID_PBLE;
    pages.push(r.region.bytes.subarray(r.offset, r.offset + e.len));
    total += e.len;
  }
  if (pl.fbo >= pages[0]!.length) return RiRet.MEM_INVALID_OFFSET;
  if (pl.fbo + length > total) return RiRet.MEM_INVALID_LENGTH;
  return { pages, target: listTarget(pages, 0, pl.fbo, length) };
}

/** `ri_mr_reg_phys` (privileged): registers a physical buffer list. */
export function mrRegPhys(rnic: Rnic, mode: RiPblMode, r: VirtReg, pl: PhysList, osData: unknown): MemObject | RiRet {
  const rights = normalizeMrRights(r.flags);
  if (rights === null) return RiRet.MEM_INVALID_ACCESS;
  const zero = (r.flags & RiMemFlags.ZBVA) !== 0;
  const p = preparePhys(rnic, mode, pl, r.va, r.length, zero);
  if (typeof p === 'number') return p;
  const obj = new MemObject(MemKind.MR, r.pd, osData);
  obj.origin = MrOrigin.PHYSICAL;
  const st = insertObj(rnic, obj);
  if (st !== RiRet.SUCCESS) return st;
  obj.target = p.target;
  obj.rights = rights;
  obj.remoteAllowed = (rights & MEM_REMOTE) !== 0;
  obj.zeroBased = zero;
  obj.base = zero ? 0n : r.va;
  obj.length = r.length;
  obj.regVa = r.va;
  obj.regFlags = r.flags;
  obj.key = keyOf(r.flags, r.key);
  obj.maxPbl = pl.bufs.length;
  obj.valid = true;
  return obj;
}

/**
 * `ri_ltag_alloc` (privileged): an Invalid MR STag with PBL room for Fast-Register (Verbs
 * §7.3 Allocate Non-Shared MR STag). `flags` lists the rights that may ever be enabled:
 * remote ones only if at least one is given (the Remote Access Flag).
 */
export function ltagAlloc(rnic: Rnic, pd: Pd, listLength: number, flags: number, key: number, osData: unknown): MemObject | RiRet {
  if (!Number.isInteger(listLength) || listLength < 1) return RiRet.INVALID_PARAMETER;
  if (listLength > rnic.limits.maxPblSize) return RiRet.RESOURCE_SHORTAGE;
  const obj = new MemObject(MemKind.MR, pd, osData);
  obj.origin = MrOrigin.LTAG_ALLOC;
  obj.maxPbl = listLength;
  obj.remoteAllowed = (flags & MEM_REMOTE) !== 0;
  obj.regFlags = flags;
  obj.key = key & 0xff;
  const st = insertObj(rnic, obj);
  if (st !== RiRet.SUCCESS) return st;
  return obj;
}

/** Re-registration changes (`ri_mr_rereg_t`). */
export interface ReregChange {
  translate?: { va: bigint; length: number } | { va: bigint; length: number; phys: PhysList; mode: RiPblMode };
  pd?: Pd;
  flags?: number;
  key: number;
  /**
   * An error the caller found while decoding the request (e.g. an invalid PD handle). It is
   * not one of the no-change errors, so it deallocates the MR like any other failure once the
   * no-change checks have passed (RNICPI `ri_mr_rereg`).
   */
  fail?: RiRet;
}

/**
 * `ri_mr_rereg` / `ri_mr_rereg_phys` (Verbs §7.3 RI-Reregister). Refused with no change for
 * bound windows, a shared region (phys form) or bad parameters; **any other error
 * deallocates the old registration** (Verbs §7.3, RNICPI `ri_mr_rereg`), and the caller
 * gets that error with the MR gone.
 */
export function mrRereg(rnic: Rnic, mr: MemObject, ch: ReregChange, phys: boolean): RiRet {
  if (mr.boundWindows > 0) return RiRet.WINDOWS_BOUND;
  if (phys && mr.shared) return RiRet.MR_INVALID_HANDLE;
  if (!ch.translate && ch.pd === undefined && ch.flags === undefined && ch.fail === undefined) {
    return RiRet.INVALID_PARAMETER;
  }
  const flags = ch.flags ?? mr.regFlags;
  const pd = ch.pd ?? mr.pd!;
  const fail = (st: RiRet): RiRet => {
    log('MR[%s] reregistration failed (%s): deallocated', hex(mr.stag), RiRet[st]);
    removeObj(rnic, mr);
    return st;
  };
  if (ch.fail !== undefined) return fail(ch.fail);
  const rights = normalizeMrRights(flags);
  if (rights === null) return fail(RiRet.MEM_INVALID_ACCESS);
  let target: MemTarget | null = mr.target;
  let va = mr.regVa;
  let length = mr.length;
  let pinVa: { va: bigint; length: number } | null = mr.pinned;
  let maxPbl = mr.maxPbl;
  const zero = (flags & RiMemFlags.ZBVA) !== 0;
  if (ch.translate) {
    va = ch.translate.va;
    length = ch.translate.length;
    if ('phys' in ch.translate) {
      const p = preparePhys(rnic, ch.translate.mode, ch.translate.phys, va, length, zero);
      if (typeof p === 'number') return fail(p);
      target = p.target;
      pinVa = null;
      maxPbl = Math.max(maxPbl, ch.translate.phys.bufs.length);
    } else {
      const p = prepareVirtual({ va, length, flags, pd, key: ch.key });
      if (typeof p === 'number') return fail(p);
      target = p.target;
      pinVa = { va, length };
    }
  } else if (!target) {
    // An ltag_alloc'd STag has no translation to keep.
    return fail(RiRet.MEM_INVALID_ADDRESS);
  }
  // Apply: conceptually deregister + register, keeping the index (Verbs §7.3).
  if (mr.pinned && mr.pinned !== pinVa) hostMemory.unpin(mr.pinned.va, mr.pinned.length);
  if (pinVa && pinVa !== mr.pinned) hostMemory.pin(pinVa.va, pinVa.length);
  mr.pinned = pinVa;
  if (pd !== mr.pd) {
    mr.pd!.users--;
    pd.users++;
    mr.pd = pd;
  }
  mr.target = target;
  mr.rights = rights;
  mr.remoteAllowed = (rights & MEM_REMOTE) !== 0;
  mr.zeroBased = zero;
  mr.base = zero ? 0n : va;
  mr.length = length;
  mr.regVa = va;
  mr.regFlags = flags;
  mr.maxPbl = maxPbl;
  mr.key = keyOf(flags, ch.key);
  mr.valid = true;
  return RiRet.SUCCESS;
}

/**
 * `ri_mr_reg_shared` (Verbs §7.3 Register Shared MR): a new STag over the same memory, with
 * its own PD, rights, VA and key. The source must be a Valid MR; it becomes Shared for good.
 */
export function mrRegShared(rnic: Rnic, src: MemObject, r: VirtReg, osData: unknown): MemObject | RiRet {
  if (src.isMw || !src.valid || !src.target) return RiRet.MR_INVALID_HANDLE;
  const rights = normalizeMrRights(r.flags);
  if (rights === null) return RiRet.MEM_INVALID_ACCESS;
  const zero = (r.flags & RiMemFlags.ZBVA) !== 0;
  const t = src.target;
  // VA-based over a page list: VA mod page size must equal the FBO (Verbs §7.3).
  if (!zero && t.pbeSize > 0 && Number(r.va % BigInt(t.pbeSize)) !== t.fbo) return RiRet.MEM_INVALID_ADDRESS;
  const obj = new MemObject(MemKind.MR, r.pd, osData);
  obj.origin = MrOrigin.SHARED;
  const st = insertObj(rnic, obj);
  if (st !== RiRet.SUCCESS) return st;
  obj.target = t;
  obj.rights = rights;
  obj.remoteAllowed = (rights & MEM_REMOTE) !== 0;
  obj.zeroBased = zero;
  obj.base = zero ? 0n : r.va;
  obj.length = src.length;
  obj.regVa = r.va;
  obj.regFlags = r.flags;
  obj.key = keyOf(r.flags, r.key);
  obj.maxPbl = src.maxPbl;
  obj.shared = true;
  obj.valid = true;
  src.shared = true;
  return obj;
}

/** `ri_mr_dereg` (Verbs §7.9 Deallocate STag for an MR). */
export function mrDereg(rnic: Rnic, mr: MemObject): RiRet {
  if (mr.boundWindows > 0) return RiRet.WINDOWS_BOUND;
  removeObj(rnic, mr);
  return RiRet.SUCCESS;
}

/** `ri_mw_alloc`: an Invalid window in `pd` (Verbs §7.10 Allocate MW). */
export function mwAlloc(rnic: Rnic, pd: Pd, type: RiMwType, osData: unknown): MemObject | RiRet {
  if (type !== RiMwType.TYPE_WIDE && type !== RiMwType.TYPE_NARROW) return RiRet.INVALID_PARAMETER;
  const mw = new MemObject(MemKind.MW, pd, osData);
  mw.mwType = type;
  mw.key = freshKey();
  const st = insertObj(rnic, mw);
  if (st !== RiRet.SUCCESS) return st;
  return mw;
}

/** Removes a window's binding (on invalidate or dealloc). */
function unbind(mw: MemObject): void {
  if (mw.mr) mw.mr.boundWindows--;
  if (mw.qp) mw.qp.boundWindows--;
  mw.mr = null;
  mw.qp = null;
  mw.target = null;
  mw.valid = false;
}

/** `ri_mw_dealloc`: allowed even while bound (Verbs §7.9). */
export function mwDealloc(rnic: Rnic, mw: MemObject): RiRet {
  const pd = mw.pd;
  unbind(mw);
  mw.pd = pd;
  removeObj(rnic, mw);
  return RiRet.SUCCESS;
}

// --------------------------------------------------------------------------- work requests

/**
 * Executes a Bind MW WR (Verbs §7.10.6.1). Returns the completion status; on success the
 * window is Valid, bound to the MR and (narrow) to the QP, with the new key.
 */
export function execBind(
  qp: Qp,
  mw: MemObject,
  mr: MemObject,
  mrStag: number,
  va: bigint,
  length: number,
  flags: number,
  newKey: number,
): RiWcStatus {
  if (!qp.enableBind) return RiWcStatus.INVALID_BIND_MW_ERROR;
  if (mw.destroyed || !mw.isMw) return RiWcStatus.INVALID_BIND_MW_ERROR;
  if (mw.valid) return RiWcStatus.STAG_NOT_IN_INVALID_STATE_ERROR;
  if (mr.destroyed || mr.isMw || !mr.valid || !mr.target || mr.stag !== mrStag) return RiWcStatus.INVALID_BIND_MR_ERROR;
  if (mw.pd !== qp.pd || mr.pd !== qp.pd) return RiWcStatus.INVALID_PD_ERROR;
  if (!(mr.rights & RiMemFlags.BINDING)) return RiWcStatus.INVALID_BIND_MR_ERROR;
  // A window binds only to a VA-based region (Verbs §7.10 Figure 19).
  if (mr.zeroBased) return RiWcStatus.INVALID_BIND_MR_ERROR;
  if (!windowRightsAllowed(mr.rights, flags)) return RiWcStatus.ACCESS_VIOLATION_ERROR;
  const off = va - mr.base;
  if (off < 0n || off + BigInt(length) > BigInt(mr.length)) return RiWcStatus.BASE_BOUNDS_VIOLATION_ERROR;
  mw.valid = true;
  mw.key = newKey & 0xff;
  mw.mr = mr;
  mw.target = mr.target;
  mw.mwOffset = Number(off);
  mw.rights = flags & (MEM_REMOTE | RiMemFlags.ATOMICS);
  mw.zeroBased = (flags & RiMemFlags.ZBVA) !== 0;
  mw.base = mw.zeroBased ? 0n : va;
  mw.length = length;
  mr.boundWindows++;
  if (mw.mwType === RiMwType.TYPE_NARROW) {
    // The QP ID replaces the PD in later checks (Verbs §7.10).
    mw.qp = qp;
    qp.boundWindows++;
  }
  return RiWcStatus.SUCCESS;
}

/** Executes a Fast-Register WR (Verbs §7.3 Fast-Register checks, each failure a CE). */
export function execFastReg(qp: Qp, mr: MemObject, stag: number, f: FmrSpec): RiWcStatus {
  if (!qp.stag0Enabled) return RiWcStatus.FMR_QP_NOT_PRIVILEGED_ERROR;
  if (mr.destroyed || mr.isMw || mr.index !== stag >>> 8) return RiWcStatus.INVALID_STAG_ERROR;
  if (mr.pd !== qp.pd) return RiWcStatus.INVALID_PD_ERROR;
  if (mr.shared) return RiWcStatus.INVALID_STAG_ERROR;
  if (mr.valid) return RiWcStatus.STAG_NOT_IN_INVALID_STATE_ERROR;
  if (f.pbl.length > mr.maxPbl) return RiWcStatus.FMR_PBL_TOO_LONG_ERROR;
  const rights = normalizeMrRights(f.memFlags);
  if (rights === null || (rights & MEM_REMOTE && !mr.remoteAllowed)) return RiWcStatus.INVALID_FMR_PERMS_ERROR;
  const rnic = qp.rnic;
  const size = f.pbeSize;
  if (!isPow2(size) || ((rnic.limits.pageSizesMask >> BigInt(Math.log2(size))) & 1n) === 0n) {
    return RiWcStatus.INVALID_FMR_PAGE_SIZE_ERROR;
  }
  if (f.fbo < 0 || f.fbo >= size) return RiWcStatus.INVALID_FMR_FBO_ERROR;
  if (f.length <= 0 || f.fbo + f.length > f.pbl.length * size) return RiWcStatus.INVALID_FMR_LENGTH_ERROR;
  const zero = (f.memFlags & RiMemFlags.ZBVA) !== 0;
  if (!zero && Number(f.va % BigInt(size)) !== f.fbo) return RiWcStatus.INVALID_FMR_VA_ERROR;
  const pages: Uint8Array[] = [];
  for (const a of f.pbl) {
    const r = a % BigInt(size) === 0n ? hostMemory.resolvePhys(a, size) : null;
    if (!r) return RiWcStatus.INVALID_FMR_PBL_ENTRY_ERROR;
    pages.push(r.region.bytes.subarray(r.offset, r.offset + size));
  }
  mr.target = listTarget(pages, size, f.fbo, f.length);
  mr.rights = rights;
  mr.zeroBased = zero;
  mr.base = zero ? 0n : f.va;
  mr.length = f.length;
  mr.regVa = f.va;
  mr.regFlags = f.memFlags;
  mr.key = stag & 0xff;
  mr.valid = true;
  return RiWcStatus.SUCCESS;
}

/** Why an invalidation was refused; the callers map it to a WC status or Terminate code. */
export enum InvalidateError {
  OK = 0,
  /** No such STag / key mismatch / STag 0: invalid STag. */
  INVALID_STAG = 1,
  /** PD or QP mismatch: STag not associated. */
  NOT_ASSOCIATED = 2,
  /** Remote invalidation of an STag without remote rights: access rights. */
  RIGHTS = 3,
  /** Shared MR, or MR with bound windows: STag cannot be invalidated. */
  CANNOT_INVALIDATE = 4,
  /** The STag was deallocated: an operation error, not a protection error (Verbs §7.2.2). */
  DEALLOCATED = 5,
}

/**
 * Whether a peer's Send with Invalidate may invalidate this Memory Region: only one the
 * Consumer allocated for Fast-Register (`ri_ltag_alloc`, the MRs whose STag the Consumer
 * manages by invalidating and re-registering, RDMA Protocol Verbs §7.8), not one made by a
 * registration, unless the RNIC is configured with `remoteInvalidateRegistered`. This is Linux
 * rxe's rule, applied on both transports: a peer told one STag of a
 * PD cannot revoke the PD's other registered regions (RFC 5040 §8: a peer is trusted only with
 * the STags advertised to it). Keyed on how the region was created, not on its current state.
 */
function remoteInvalidatable(rnic: Rnic, mr: MemObject): boolean {
  return mr.origin === MrOrigin.LTAG_ALLOC || rnic.config.remoteInvalidateRegistered === true;
}

/**
 * Invalidates an STag (Verbs §7.8 / §7.10.4): the checks shared by the Local Invalidate WR,
 * RDMA Read with Local Invalidate and inbound Send with Invalidate.
 */
export function invalidateStag(qp: Qp, stag: number, remote: boolean): InvalidateError {
  if (stag === 0) return InvalidateError.INVALID_STAG;
  const obj = qp.rnic.stags.byStagIndex(stag);
  if (!obj) return InvalidateError.DEALLOCATED;
  if (obj.destroyed) return InvalidateError.DEALLOCATED;
  if (obj.key !== (stag & 0xff)) return InvalidateError.INVALID_STAG;
  if (obj.isMw) {
    if (obj.valid) {
      const bound = obj.mwType === RiMwType.TYPE_NARROW ? obj.qp === qp : obj.mr?.pd === qp.pd;
      if (!bound) return InvalidateError.NOT_ASSOCIATED;
    } else if (obj.pd !== qp.pd) {
      return InvalidateError.NOT_ASSOCIATED;
    }
    if (remote && (!(qp.enableRdmaRead || qp.enableRdmaWrite) || !(obj.rights & MEM_REMOTE))) {
      return InvalidateError.RIGHTS;
    }
    if (obj.valid) {
      // An invalidated window moves to the PD of the QP that invalidated it (Verbs §7.10).
      unbind(obj);
      if (obj.pd !== qp.pd) {
        if (obj.pd) obj.pd.users--;
        qp.pd.users++;
        obj.pd = qp.pd;
      }
    }
    return InvalidateError.OK;
  }
  if (obj.shared) return InvalidateError.CANNOT_INVALIDATE;
  if (obj.pd !== qp.pd) return InvalidateError.NOT_ASSOCIATED;
  if (obj.boundWindows > 0) return InvalidateError.CANNOT_INVALIDATE;
  if (remote && (!(qp.enableRdmaRead || qp.enableRdmaWrite) || !(obj.rights & MEM_REMOTE))) {
    return InvalidateError.RIGHTS;
  }
  if (remote && !remoteInvalidatable(qp.rnic, obj)) return InvalidateError.CANNOT_INVALIDATE;
  // Invalid→Invalid is allowed (Verbs §7.2.2).
  obj.valid = false;
  return InvalidateError.OK;
}

/** Completion status of a failed local invalidation. */
export const INVALIDATE_WC_STATUS: Record<InvalidateError, RiWcStatus> = {
  [InvalidateError.OK]: RiWcStatus.SUCCESS,
  [InvalidateError.INVALID_STAG]: RiWcStatus.INVALID_STAG_ERROR,
  [InvalidateError.NOT_ASSOCIATED]: RiWcStatus.INVALID_PD_ERROR,
  [InvalidateError.RIGHTS]: RiWcStatus.ACCESS_VIOLATION_ERROR,
  [InvalidateError.CANNOT_INVALIDATE]: RiWcStatus.STAG_INVALIDATE_ERROR,
  [InvalidateError.DEALLOCATED]: RiWcStatus.LOCAL_QP_OP_ERROR,
};

function hex(n: number): string {
  return `0x${n.toString(16).padStart(8, '0')}`;
}

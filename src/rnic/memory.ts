/**
 * Memory registration, STags and the single access check.
 *
 * Every memory object the RNIC knows (Memory Region or Memory Window) is named by a 32-bit
 * STag: a 24-bit index chosen here and an 8-bit key chosen by the Consumer (RDMA Protocol
 * Verbs §7.2, RNICPI §5 "STag / LTag / RTag"). Index 0 is never issued, because STag 0 is
 * the privileged "reserved LTag" (Verbs §7.2.1).
 *
 * {@link checkAccess} is the one function that decides whether bytes may be touched. The
 * local path (SGEs of posted WRs) and the remote path (inbound tagged DDP segments and
 * inbound RDMA Read Requests) both call it, so the rules of Verbs §7.6.3 and §7.10.6.2 live
 * in exactly one place.
 */
import { RiMemFlags, RiMwType, RiWcStatus } from '../rnicpi/types.js';
import { type HostMemory, hostMemory, HOST_PAGE_SIZE } from './hostmem.js';
import type { Pd } from './pd.js';
import type { Qp } from './qp.js';
import { randomIndex } from './random.js';

/** Highest STag index (24 bits). */
export const STAG_INDEX_MAX = 0xff_ffff;

/** Remote rights mask. */
export const MEM_REMOTE = RiMemFlags.REMOTE_READ | RiMemFlags.REMOTE_WRITE;
/** Local rights mask. */
export const MEM_LOCAL = RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE;

/**
 * Where a memory object's bytes are: one contiguous view, or a list of physical buffers
 * with a first-byte offset (a page or block list of equal-sized buffers, or a list of
 * buffers of any sizes; Verbs §7.6, RNICPI `ri_mr_reg_phys_attr_t`).
 */
export interface MemTarget {
  /** Bytes covered by the object, counting from its first byte. */
  readonly length: number;
  /** Set for a contiguous object: `contig[0]` is the object's first byte. */
  readonly contig: Uint8Array | null;
  /** Physical buffers, in list order. */
  readonly pages: readonly Uint8Array[] | null;
  /** Size of every buffer for an equal-size list; 0 for a list of variable sizes. */
  readonly pbeSize: number;
  /** For a variable list: the list offset of each buffer's first byte. */
  readonly starts: readonly number[] | null;
  /** First Byte Offset into `pages[0]`. */
  readonly fbo: number;
}

export function contigTarget(bytes: Uint8Array): MemTarget {
  return { length: bytes.length, contig: bytes, pages: null, pbeSize: 0, starts: null, fbo: 0 };
}

/** A target over a physical buffer list; `pages` already resolved to bytes. */
export function listTarget(pages: Uint8Array[], pbeSize: number, fbo: number, length: number): MemTarget {
  let starts: number[] | null = null;
  if (pbeSize === 0) {
    starts = [];
    let at = 0;
    for (const p of pages) {
      starts.push(at);
      at += p.length;
    }
  }
  return { length, contig: null, pages, pbeSize, starts, fbo };
}

/** Index of the buffer holding list offset `pos`. */
function pageIndex(t: MemTarget, pos: number): number {
  if (t.pbeSize > 0) return Math.floor(pos / t.pbeSize);
  const st = t.starts!;
  let lo = 0;
  let hi = st.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (st[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Walks the buffers covering `[off, off+len)` of a list target, calling `fn` with each
 * piece (buffer, offset in buffer, length, running offset from `off`).
 */
function walk(t: MemTarget, off: number, len: number, fn: (b: Uint8Array, at: number, n: number, done: number) => void): void {
  let pos = off + t.fbo;
  let done = 0;
  while (len > 0) {
    const i = pageIndex(t, pos);
    const page = t.pages![i]!;
    const inPage = t.pbeSize > 0 ? pos - i * t.pbeSize : pos - t.starts![i]!;
    const n = Math.min(len, page.length - inPage);
    fn(page, inPage, n, done);
    pos += n;
    done += n;
    len -= n;
  }
}

/** Copies `len` bytes from `src[srcOff..]` into the object at byte offset `off`. */
export function copyToMem(t: MemTarget, off: number, src: Uint8Array, srcOff: number, len: number): void {
  if (t.contig) {
    t.contig.set(src.subarray(srcOff, srcOff + len), off);
    return;
  }
  walk(t, off, len, (b, at, n, done) => b.set(src.subarray(srcOff + done, srcOff + done + n), at));
}

/** Copies `len` bytes of the object at offset `off` into `dst[dstOff..]`. */
export function copyFromMem(t: MemTarget, off: number, dst: Uint8Array, dstOff: number, len: number): void {
  if (t.contig) {
    dst.set(t.contig.subarray(off, off + len), dstOff);
    return;
  }
  walk(t, off, len, (b, at, n, done) => dst.set(b.subarray(at, at + n), dstOff + done));
}

/** Appends views covering `[off, off+len)` of the object to `out` (zero-copy transmit). */
export function memSlices(t: MemTarget, off: number, len: number, out: Uint8Array[]): void {
  if (len === 0) return;
  if (t.contig) {
    out.push(t.contig.subarray(off, off + len));
    return;
  }
  walk(t, off, len, (b, at, n) => out.push(b.subarray(at, at + n)));
}

/**
 * Writes views covering `[off, off+len)` of the object into `out` from index `k` on and returns
 * the index after the last: {@link memSlices} for a list that is refilled rather than emptied
 * (emptying an array drops its storage, and refilling it allocates again).
 */
export function memSlicesAt(t: MemTarget, off: number, len: number, out: Uint8Array[], k: number): number {
  if (len === 0) return k;
  if (t.contig) {
    out[k] = t.contig.subarray(off, off + len);
    return k + 1;
  }
  let i = k;
  walk(t, off, len, (b, at, n) => {
    out[i++] = b.subarray(at, at + n);
  });
  return i;
}

/** The kinds of memory object. */
export enum MemKind {
  /** A Memory Region. */
  MR = 0,
  /** A Memory Window. */
  MW = 1,
}

/** How a Memory Region came to be; decides which re-registration paths apply. */
export enum MrOrigin {
  VIRTUAL = 0,
  PHYSICAL = 1,
  /** `ri_ltag_alloc`: an STag with no memory until Fast-Register. */
  LTAG_ALLOC = 2,
  SHARED = 3,
}

/**
 * A Memory Region or Memory Window. One class, because both live in one STag index space
 * and the access check treats them alike up to the rules that differ (Verbs §7.10.6.2).
 */
export class MemObject {
  /** STag index (bits 31..8). */
  index = 0;
  /** Consumer key (bits 7..0). */
  key = 0;
  /** Valid/Invalid state of the STag (Verbs §7.2.2). */
  valid = false;
  /** Set once the object is gone; a stale reference then fails every check. */
  destroyed = false;
  /** Shared MRs are always Valid and can never be invalidated (Verbs §7.2.2). */
  shared = false;
  /** The PD: for an MR always; for an MW while it is Invalid. */
  pd: Pd | null;
  /** For a bound narrow MW: the QP that bound it (it replaces the PD in later checks). */
  qp: Qp | null = null;
  /** RI_MEM_FLAGS_* rights in force. */
  rights = 0;
  /** Remote Access Flag (Verbs §7.4): remote rights may ever be granted. */
  remoteAllowed = false;
  zeroBased = false;
  /** TO of the first byte: the VA for VA-based objects, 0 for zero-based ones. */
  base = 0n;
  length = 0;
  target: MemTarget | null = null;
  /** MR: how many MWs are bound to it. */
  boundWindows = 0;
  /** MR: PBL capacity reserved at allocation (Verbs §7.3, Fast-Register limit). */
  maxPbl = 0;
  origin: MrOrigin = MrOrigin.VIRTUAL;
  /** MR: the VA range pinned on registration (unpinned on deregistration). */
  pinned: { va: bigint; length: number } | null = null;
  /** MW: the MR it is bound to. */
  mr: MemObject | null = null;
  mwType: RiMwType = RiMwType.TYPE_NARROW;
  /** MW: byte offset of the window's first byte inside its MR's target. */
  mwOffset = 0;
  /** The attributes as registered, returned by `ri_mr_query`. */
  regVa = 0n;
  regFlags = 0;
  constructor(
    readonly kind: MemKind,
    pd: Pd,
    /** Opaque consumer data, returned by identity. */
    readonly osData: unknown,
  ) {
    this.pd = pd;
  }
  get stag(): number {
    return ((this.index << 8) | this.key) >>> 0;
  }
  get isMw(): boolean {
    return this.kind === MemKind.MW;
  }
}

/**
 * The STag table: index → object. Indices are drawn at random from the whole 24-bit space
 * (never 0, Verbs §7.2.1), so consecutive registrations get unrelated indices: one advertised
 * STag does not give away the others, and a just-freed
 * index is very unlikely to be reused soon, so a stale STag does not find a new object even
 * before its key is compared.
 */
export class StagTable {
  readonly #byIndex = new Map<number, MemObject>();
  readonly #limit: number;
  readonly #random: () => number;
  constructor(
    limit: number,
    /** Source of random indices (tests may pass a deterministic one). */
    random: () => number = randomIndex,
  ) {
    this.#limit = limit;
    this.#random = random;
  }
  get size(): number {
    return this.#byIndex.size;
  }
  /** Allocates an index for `obj`; false if the table is full. */
  insert(obj: MemObject): boolean {
    if (this.#byIndex.size >= this.#limit || this.#byIndex.size >= STAG_INDEX_MAX) return false;
    // The table holds at most a small fraction of the space in practice, so a few draws find
    // a free index; a nearly full table falls back to the next free index after a draw.
    for (let tries = 0; tries < 64; tries++) {
      const i = this.#random() & STAG_INDEX_MAX;
      if (i !== 0 && !this.#byIndex.has(i)) return this.#take(obj, i);
    }
    let i = this.#random() & STAG_INDEX_MAX || 1;
    while (this.#byIndex.has(i)) i = i >= STAG_INDEX_MAX ? 1 : i + 1;
    return this.#take(obj, i);
  }
  #take(obj: MemObject, i: number): true {
    obj.index = i;
    this.#byIndex.set(i, obj);
    return true;
  }
  /** Forgets every object (the RNIC is closed). */
  clear(): void {
    this.#byIndex.clear();
  }
  remove(obj: MemObject): void {
    if (this.#byIndex.get(obj.index) === obj) this.#byIndex.delete(obj.index);
  }
  /** The object whose index matches the STag's index (its key is not compared here). */
  byStagIndex(stag: number): MemObject | undefined {
    return this.#byIndex.get(stag >>> 8);
  }
  values(): IterableIterator<MemObject> {
    return this.#byIndex.values();
  }
}

/** What a memory access wants to do. */
export enum Access {
  LOCAL_READ = 0,
  LOCAL_WRITE = 1,
  REMOTE_READ = 2,
  REMOTE_WRITE = 3,
  /** An inbound atomic (IBTA Vol. 1 §9.4.5, RFC 7306 §5): needs the Remote Atomic right. */
  REMOTE_ATOMIC = 4,
}

/** The memory right each kind of access needs (RDMA Protocol Verbs §7.6.3; IBTA Vol. 1 §9.4.5 for atomics). */
const RIGHT_OF_ACCESS: Readonly<Record<Access, RiMemFlags>> = {
  [Access.LOCAL_READ]: RiMemFlags.LOCAL_READ,
  [Access.LOCAL_WRITE]: RiMemFlags.LOCAL_WRITE,
  [Access.REMOTE_READ]: RiMemFlags.REMOTE_READ,
  [Access.REMOTE_WRITE]: RiMemFlags.REMOTE_WRITE,
  [Access.REMOTE_ATOMIC]: RiMemFlags.ATOMICS,
};

/**
 * Why an access was refused. The local path turns it into a completion status with
 * {@link LOCAL_ACCESS_STATUS}; the remote path into a transport-neutral fault (faults.ts), which
 * each transport spells as a Terminate or a NAK.
 */
export enum AccessError {
  OK = 0,
  /** No such STag, key mismatch, STag Invalid or deallocated. */
  INVALID_STAG = 1,
  /** TO/length outside the object's bounds. */
  BOUNDS = 2,
  /** The object's rights do not allow the access. */
  RIGHTS = 3,
  /** PD mismatch, or an MW bound to another QP: "STag not associated". */
  NOT_ASSOCIATED = 4,
  /** TO + length wraps past 2^64 − 1. */
  WRAP = 5,
  /** The QP does not enable inbound RDMA Read/Write (Verbs §7.6.3 check 2). */
  QP_RIGHTS = 6,
  /** An MW STag in an SGE (MWs are remote-only, Verbs §7.10). */
  MW_IN_SGE = 7,
}

/**
 * Completion status for a failed local (SGE) access check (RNICPI §6.10), on the send side
 * (requester) and the receive side (responder) alike.
 */
export const LOCAL_ACCESS_STATUS: Readonly<Record<AccessError, RiWcStatus>> = {
  [AccessError.OK]: RiWcStatus.SUCCESS,
  [AccessError.INVALID_STAG]: RiWcStatus.INVALID_STAG_ERROR,
  [AccessError.BOUNDS]: RiWcStatus.BASE_BOUNDS_VIOLATION_ERROR,
  [AccessError.RIGHTS]: RiWcStatus.ACCESS_VIOLATION_ERROR,
  [AccessError.NOT_ASSOCIATED]: RiWcStatus.INVALID_PD_ERROR,
  [AccessError.WRAP]: RiWcStatus.ADDRESS_WRAP_ERROR,
  [AccessError.QP_RIGHTS]: RiWcStatus.ACCESS_VIOLATION_ERROR,
  [AccessError.MW_IN_SGE]: RiWcStatus.INVALID_STAG_ERROR,
};

/** Result of a successful {@link checkAccess}: the target and the byte offset into it. */
export interface AccessOut {
  target: MemTarget | null;
  offset: number;
  obj: MemObject | null;
}

const TWO64 = 1n << 64n;
const MAX_U32 = 0xffff_ffff;
/** The highest TO from which no access of at most 2^32 − 1 octets reaches past 2^64. */
const NO_WRAP_TO = TWO64 - (1n << 32n);
const MAX_SAFE_OFF = BigInt(Number.MAX_SAFE_INTEGER);

/** The memory an access names: an STag, a tagged offset and a length (an SGE, or a tagged message's). */
export interface MemRef {
  stag: number;
  to: bigint;
  len: number;
}

/**
 * Who makes an access, for {@link checkAccess}: the RNIC's STag table, the PD the memory must be
 * in (the QP's, or for receives on an S-RQ the S-RQ's), the QP (windows, its enables, STag 0),
 * whether the QP's inbound enables apply (not to a requester's post-time check of its own SGEs),
 * and the host memory STag 0 reaches.
 */
export interface AccessBy {
  readonly stags: StagTable;
  readonly pd: Pd;
  readonly qp: Qp | null;
  readonly qpEnables: boolean;
  readonly mem: HostMemory;
}

/** The {@link AccessBy} of a QP's accesses: its PD unless another is named (an S-RQ's). */
export function accessBy(qp: Qp, pd: Pd = qp.pd, qpEnables = true): AccessBy {
  return { stags: qp.rnic.stags, pd, qp, qpEnables, mem: hostMemory };
}

/**
 * The access check of RDMA Protocol Verbs §7.6.3 (MRs) and §7.10.6.2 (MWs), the one place
 * that decides whether `[to, to+len)` under `stag` may be read or written.
 *
 * - Zero-length accesses skip every check (§7.6.3, §8.1.3.2: "an SGE with length 0 is not
 *   validated").
 * - STag 0 is only for privileged QPs created with STag0+FastReg, only locally, with a
 *   physical address as TO, and with no PD check (§7.2.1).
 * - All 32 bits of the STag must match and the STag must be Valid (§7.2).
 * - MR: PD equals `pd` (the QP's, or for receives on an S-RQ QP the S-RQ's). MW: a narrow
 *   window must be bound to `qp`; a wide one must be in `qp`'s PD.
 * - MR rights, or for an MW the MW's rights only (the MR's are not checked, §7.10.6.2); for
 *   remote accesses also the QP's enables.
 * - Bounds to the byte, and no 64-bit wrap.
 */
export function checkAccess(ref: MemRef, access: Access, by: AccessBy, out: AccessOut): AccessError {
  const { stag, to, len } = ref;
  const { qp, mem } = by;
  out.target = null;
  out.offset = 0;
  out.obj = null;
  if (len === 0) return AccessError.OK;
  const remote = access === Access.REMOTE_READ || access === Access.REMOTE_WRITE || access === Access.REMOTE_ATOMIC;
  if (stag === 0) {
    if (remote || !qp || !qp.stag0Enabled) return AccessError.INVALID_STAG;
    const r = mem.resolvePhys(to, len);
    if (!r) return AccessError.BOUNDS;
    out.target = contigTarget(r.region.bytes);
    out.offset = r.offset;
    return AccessError.OK;
  }
  const obj = by.stags.byStagIndex(stag);
  if (!obj || obj.destroyed || obj.key !== (stag & 0xff) || !obj.valid || !obj.target) {
    return AccessError.INVALID_STAG;
  }
  if (remote && qp && by.qpEnables) {
    const enabled =
      access === Access.REMOTE_READ ? qp.enableRdmaRead : access === Access.REMOTE_ATOMIC ? qp.enableAtomic : qp.enableRdmaWrite;
    if (!enabled) return AccessError.QP_RIGHTS;
  }
  const need = RIGHT_OF_ACCESS[access];
  if (obj.isMw) {
    if (!remote) return AccessError.MW_IN_SGE;
    if (obj.mwType === RiMwType.TYPE_NARROW) {
      if (obj.qp !== qp) return AccessError.NOT_ASSOCIATED;
    } else if (!qp || obj.mr?.pd !== qp.pd) {
      return AccessError.NOT_ASSOCIATED;
    }
  } else if (obj.pd !== by.pd) {
    return AccessError.NOT_ASSOCIATED;
  }
  if ((obj.rights & need) === 0) return AccessError.RIGHTS;
  // The wrap test needs BigInt arithmetic only near the top of the 64-bit space: an access of
  // at most 2^32 − 1 octets (Verbs §8.1.3.2) that starts at or below NO_WRAP_TO cannot wrap.
  if ((to > NO_WRAP_TO || len > MAX_U32) && to + BigInt(len) > TWO64) return AccessError.WRAP;
  const off = to - obj.base;
  // An offset beyond 2^53 is beyond any region's length; below it, the bounds are exact in numbers.
  if (off < 0n || off > MAX_SAFE_OFF) return AccessError.BOUNDS;
  const offNum = Number(off);
  if (offNum + len > obj.length) return AccessError.BOUNDS;
  if (obj.isMw) {
    // A window's offset is into its MR: the window starts `obj.mwOffset` bytes into it.
    out.target = obj.target;
    out.offset = offNum + obj.mwOffset;
  } else {
    out.target = obj.target;
    out.offset = offNum;
  }
  out.obj = obj;
  return AccessError.OK;
}

/**
 * Verbs §7.6.3 Figure 18: the valid MR rights combinations. At least one local right;
 * Remote Write needs Local Write and Remote Read needs Local Read. RNICPI says Local Read
 * is always implied (§6.6 `RI_MEM_FLAGS_LOCAL_READ`), so it is added before checking.
 */
export function normalizeMrRights(flags: number): number | null {
  let r = flags & (MEM_LOCAL | MEM_REMOTE | RiMemFlags.BINDING | RiMemFlags.ATOMICS);
  r |= RiMemFlags.LOCAL_READ;
  if (r & RiMemFlags.REMOTE_WRITE && !(r & RiMemFlags.LOCAL_WRITE)) return null;
  return r;
}

/**
 * Verbs §7.10 Figure 20: the remote rights a window may get from its MR's local rights.
 * Remote Read needs the MR's Local Read, Remote Write needs its Local Write.
 */
export function windowRightsAllowed(mrRights: number, mwRights: number): boolean {
  const rr = (mwRights & RiMemFlags.REMOTE_READ) !== 0;
  const rw = (mwRights & RiMemFlags.REMOTE_WRITE) !== 0;
  if (!rr && !rw) return false;
  if (rr && !(mrRights & RiMemFlags.LOCAL_READ)) return false;
  if (rw && !(mrRights & RiMemFlags.LOCAL_WRITE)) return false;
  return true;
}

/** Is `n` a power of two? */
export function isPow2(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}

export { HOST_PAGE_SIZE };

/**
 * The atomic executor: the one place where an atomic operation reads, modifies and writes
 * registered memory, for every transport (InfiniBand/RoCE atomics, IBTA Vol. 1 §9.4.5;
 * iWARP atomics, RFC 7306 §5) and for the extended (masked, multi-word) atomics of the RDMA
 * Aware Networks Programming manual §8.7 (`ibv_exp_*`).
 *
 * One operation model covers all of them, with an operand size (8, 16 or 32 octets) and
 * masks, as RFC 7306's Atomic Request carries them:
 * - **Fetch-and-Add**: `mem += add`, where `addMask` marks field boundaries: a 1 bit ends a
 *   field (carries do not propagate out of it), and the top bit of every 64-bit word is an
 *   implicit boundary (manual §8.7: "there is always an implicit 1 in the mask"; the largest
 *   field is 8 octets). A plain Fetch-and-Add is the mask 0: one 64-bit field.
 * - **Compare-and-Swap**: if `(mem & compareMask) == (compare & compareMask)` then
 *   `mem = (mem & ~swapMask) | (swap & swapMask)`. A plain Compare-and-Swap has both masks
 *   all ones.
 * - **Swap** (RFC 7306 AOpCode 1): the Compare-and-Swap with a compare mask of 0.
 * The original value is always returned.
 *
 * Memory layout: an operand is a sequence of 64-bit words in host byte order (little-endian
 * on every platform Node supports), word 0 at the lowest address — what a CPU atomic on the
 * responder's host would see, and what Linux rxe does with `*(u64 *)va`. A multi-word operand
 * given as one `bigint` has word 0 as its least significant 64 bits.
 *
 * Atomicity: each operation is one synchronous read-modify-write of registered memory on the
 * JavaScript thread that owns the device. Node runs JavaScript on one thread per isolate and
 * never interrupts a synchronous function, so no other atomic of the device (of any QP or
 * connection) and no other JavaScript access to that memory can interleave with it. (A buffer
 * shared with a worker thread through a SharedArrayBuffer is outside this guarantee, as CPU
 * accesses are outside a real HCA's; the verbs say the same of local CPU writes.)
 */
import { copyFromMem, copyToMem, type MemTarget } from './memory.js';

/** The operation, numbered as RFC 7306's AOpCode (§5.1). */
export enum AtomicKind {
  FETCH_ADD = 0,
  SWAP = 1,
  COMPARE_SWAP = 2,
}

/** Operand sizes the executor supports (octets). */
export const ATOMIC_SIZES: readonly number[] = [8, 16, 32];
/** Bit mask of the supported sizes, as `ibv_exp_ext_atomics_params.atomic_arg_sizes`. */
export const ATOMIC_ARG_SIZES_MASK = 8 | 16 | 32;
/** log2 of the largest Fetch-and-Add field, in octets (manual §8.7 `max_fa_bit_boundary`). */
export const ATOMIC_MAX_FA_BIT_BOUNDARY = 3;
/** Every atomic target must be 8-octet aligned (IBTA Vol. 1 §9.4.5, RFC 7306 §5.1). */
export const ATOMIC_ALIGNMENT = 8;

const M64 = (1n << 64n) - 1n;

/** One atomic operation, each operand as 64-bit words (word 0 at the lowest address). */
export interface AtomicArgs {
  kind: AtomicKind;
  /** 8, 16 or 32. */
  size: number;
  /** Add data (Fetch-and-Add) or swap data. */
  addSwap: bigint[];
  /** Field boundaries (Fetch-and-Add) or swap mask. */
  addSwapMask: bigint[];
  /** Compare data (Compare-and-Swap). */
  compare: bigint[];
  /** Compare mask (Compare-and-Swap). */
  compareMask: bigint[];
}

/** Splits a `size`-octet value into 64-bit words, least significant first. */
export function toWords(v: bigint, size: number): bigint[] {
  const out: bigint[] = [];
  for (let i = 0; i < size / 8; i++) out.push((v >> BigInt(64 * i)) & M64);
  return out;
}

/** Joins 64-bit words (least significant first) into one value. */
export function fromWords(w: readonly bigint[]): bigint {
  let v = 0n;
  for (let i = w.length - 1; i >= 0; i--) v = (v << 64n) | (w[i]! & M64);
  return v;
}

/**
 * The arguments of a verbs atomic: Compare-and-Swap (`compare`, `swap`, masks default to all
 * ones) or Fetch-and-Add (`add` in `a`, field boundaries in `mask1`, default 0).
 */
export function atomicArgs(kind: AtomicKind, size: number, a: bigint, b: bigint, mask1?: bigint, mask2?: bigint): AtomicArgs {
  const all = (1n << BigInt(size * 8)) - 1n;
  if (kind === AtomicKind.FETCH_ADD) {
    return {
      kind,
      size,
      addSwap: toWords(a, size),
      addSwapMask: toWords(mask1 ?? 0n, size),
      compare: toWords(0n, size),
      compareMask: toWords(0n, size),
    };
  }
  return {
    kind,
    size,
    addSwap: toWords(b, size),
    addSwapMask: toWords(mask2 ?? all, size),
    compare: toWords(a, size),
    compareMask: toWords(kind === AtomicKind.SWAP ? 0n : (mask1 ?? all), size),
  };
}

/** Is `a` well formed (a known kind, a supported size, one word per 8 octets in each operand)? */
export function atomicArgsValid(a: AtomicArgs): boolean {
  if (a.kind !== AtomicKind.FETCH_ADD && a.kind !== AtomicKind.SWAP && a.kind !== AtomicKind.COMPARE_SWAP) return false;
  if (!ATOMIC_SIZES.includes(a.size)) return false;
  const n = a.size / 8;
  return a.addSwap.length === n && a.addSwapMask.length === n && a.compare.length === n && a.compareMask.length === n;
}

/** Adds `add` to `v` within the fields `mask` marks (a 1 bit ends a field; bit 63 always does). */
export function maskedAdd(v: bigint, add: bigint, mask: bigint): bigint {
  const m = (mask | (1n << 63n)) & M64;
  if (m === 1n << 63n) return (v + add) & M64;
  let out = 0n;
  let lo = 0n;
  for (let bit = 0n; bit < 64n; bit++) {
    if (((m >> bit) & 1n) === 0n) continue;
    const width = bit - lo + 1n;
    const fm = (1n << width) - 1n;
    const f = (((v >> lo) & fm) + ((add >> lo) & fm)) & fm;
    out |= f << lo;
    lo = bit + 1n;
  }
  return out;
}

const scratch = new Uint8Array(32);
const view = new DataView(scratch.buffer);

/**
 * Executes `a` on the `a.size` octets at `offset` of `target` (already checked by
 * `checkAccess` for Remote Atomic access, bounds and alignment) and returns the original
 * words. Synchronous, hence atomic with respect to every other atomic of the process (see the
 * module comment).
 */
export function executeAtomic(target: MemTarget, offset: number, a: AtomicArgs): bigint[] {
  const n = a.size / 8;
  copyFromMem(target, offset, scratch, 0, a.size);
  const orig: bigint[] = [];
  for (let i = 0; i < n; i++) orig.push(view.getBigUint64(i * 8, true));
  let next: bigint[];
  if (a.kind === AtomicKind.FETCH_ADD) {
    next = orig.map((v, i) => maskedAdd(v, a.addSwap[i]!, a.addSwapMask[i]!));
  } else {
    let equal = true;
    for (let i = 0; i < n; i++) if (((orig[i]! ^ a.compare[i]!) & a.compareMask[i]!) !== 0n) equal = false;
    if (!equal) return orig;
    next = orig.map((v, i) => (v & ~a.addSwapMask[i]! & M64) | (a.addSwap[i]! & a.addSwapMask[i]!));
  }
  for (let i = 0; i < n; i++) view.setBigUint64(i * 8, next[i]!, true);
  copyToMem(target, offset, scratch, 0, a.size);
  return orig;
}

/** Writes original words into a result buffer (host order, word 0 first). */
export function writeResult(target: MemTarget, offset: number, orig: readonly bigint[], len: number): void {
  for (let i = 0; i < orig.length; i++) view.setBigUint64(i * 8, orig[i]! & M64, true);
  copyToMem(target, offset, scratch, 0, Math.min(len, orig.length * 8));
}

/**
 * The atomic capability of an RNIC: every transport softrdma has can carry
 * atomics (iWARP only towards a peer that agreed RFC 7306). The executor is atomic with respect
 * to every atomic of the RNIC (`IBV_ATOMIC_HCA`, as Linux rxe reports).
 */
export function rnicAtomicCaps(): { atomic_cap: number; ext_atomic_arg_sizes: number; max_fa_bit_boundary: number } {
  return { atomic_cap: 1, ext_atomic_arg_sizes: ATOMIC_ARG_SIZES_MASK, max_fa_bit_boundary: ATOMIC_MAX_FA_BIT_BOUNDARY };
}

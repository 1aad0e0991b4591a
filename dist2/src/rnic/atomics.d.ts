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
import { type MemTarget } from './memory.js';
/** The operation, numbered as RFC 7306's AOpCode (§5.1). */
export declare enum AtomicKind {
    FETCH_ADD = 0,
    SWAP = 1,
    COMPARE_SWAP = 2
}
/** Operand sizes the executor supports (octets). */
export declare const ATOMIC_SIZES: readonly number[];
/** Bit mask of the supported sizes, as `ibv_exp_ext_atomics_params.atomic_arg_sizes`. */
export declare const ATOMIC_ARG_SIZES_MASK: number;
/** log2 of the largest Fetch-and-Add field, in octets (manual §8.7 `max_fa_bit_boundary`). */
export declare const ATOMIC_MAX_FA_BIT_BOUNDARY = 3;
/** Every atomic target must be 8-octet aligned (IBTA Vol. 1 §9.4.5, RFC 7306 §5.1). */
export declare const ATOMIC_ALIGNMENT = 8;
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
export declare function toWords(v: bigint, size: number): bigint[];
/** Joins 64-bit words (least significant first) into one value. */
export declare function fromWords(w: readonly bigint[]): bigint;
/**
 * The arguments of a verbs atomic: Compare-and-Swap (`compare`, `swap`, masks default to all
 * ones) or Fetch-and-Add (`add` in `a`, field boundaries in `mask1`, default 0).
 */
export declare function atomicArgs(kind: AtomicKind, size: number, a: bigint, b: bigint, mask1?: bigint, mask2?: bigint): AtomicArgs;
/** Is `a` well formed (a known kind, a supported size, one word per 8 octets in each operand)? */
export declare function atomicArgsValid(a: AtomicArgs): boolean;
/** Adds `add` to `v` within the fields `mask` marks (a 1 bit ends a field; bit 63 always does). */
export declare function maskedAdd(v: bigint, add: bigint, mask: bigint): bigint;
/**
 * Executes `a` on the `a.size` octets at `offset` of `target` (already checked by
 * `checkAccess` for Remote Atomic access, bounds and alignment) and returns the original
 * words. Synchronous, hence atomic with respect to every other atomic of the process (see the
 * module comment).
 */
export declare function executeAtomic(target: MemTarget, offset: number, a: AtomicArgs): bigint[];
/** Writes original words into a result buffer (host order, word 0 first). */
export declare function writeResult(target: MemTarget, offset: number, orig: readonly bigint[], len: number): void;
/**
 * The atomic capability of an RNIC whose QPs use `kind`: every transport softrdma has can carry
 * atomics (iWARP only towards a peer that agreed RFC 7306). The executor is atomic with respect
 * to every atomic of the RNIC (`IBV_ATOMIC_HCA`, as Linux rxe reports).
 */
export declare function rnicAtomicCaps(_kind: string): {
    atomic_cap: number;
    ext_atomic_arg_sizes: number;
    max_fa_bit_boundary: number;
};

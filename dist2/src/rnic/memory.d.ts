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
import { RiMwType } from '../rnicpi/types.js';
import { type HostMemory, HOST_PAGE_SIZE } from './hostmem.js';
import type { Pd } from './pd.js';
import type { Qp } from './qp.js';
/** Highest STag index (24 bits). */
export declare const STAG_INDEX_MAX = 16777215;
/** Remote rights mask. */
export declare const MEM_REMOTE: number;
/** Local rights mask. */
export declare const MEM_LOCAL: number;
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
export declare function contigTarget(bytes: Uint8Array): MemTarget;
/** A target over a physical buffer list; `pages` already resolved to bytes. */
export declare function listTarget(pages: Uint8Array[], pbeSize: number, fbo: number, length: number): MemTarget;
/** Copies `len` bytes from `src[srcOff..]` into the object at byte offset `off`. */
export declare function copyToMem(t: MemTarget, off: number, src: Uint8Array, srcOff: number, len: number): void;
/** Copies `len` bytes of the object at offset `off` into `dst[dstOff..]`. */
export declare function copyFromMem(t: MemTarget, off: number, dst: Uint8Array, dstOff: number, len: number): void;
/** Appends views covering `[off, off+len)` of the object to `out` (zero-copy transmit). */
export declare function memSlices(t: MemTarget, off: number, len: number, out: Uint8Array[]): void;
/** The kinds of memory object. */
export declare enum MemKind {
    /** A Memory Region. */
    MR = 0,
    /** A Memory Window. */
    MW = 1
}
/** How a Memory Region came to be; decides which re-registration paths apply. */
export declare enum MrOrigin {
    VIRTUAL = 0,
    PHYSICAL = 1,
    /** `ri_ltag_alloc`: an STag with no memory until Fast-Register. */
    LTAG_ALLOC = 2,
    SHARED = 3
}
/**
 * A Memory Region or Memory Window. One class, because both live in one STag index space
 * and the access check treats them alike up to the rules that differ (Verbs §7.10.6.2).
 */
export declare class MemObject {
    readonly kind: MemKind;
    /** Opaque consumer data, returned by identity. */
    readonly osData: unknown;
    /** STag index (bits 31..8). */
    index: number;
    /** Consumer key (bits 7..0). */
    key: number;
    /** Valid/Invalid state of the STag (Verbs §7.2.2). */
    valid: boolean;
    /** Set once the object is gone; a stale reference then fails every check. */
    destroyed: boolean;
    /** Shared MRs are always Valid and can never be invalidated (Verbs §7.2.2). */
    shared: boolean;
    /** The PD: for an MR always; for an MW while it is Invalid. */
    pd: Pd | null;
    /** For a bound narrow MW: the QP that bound it (it replaces the PD in later checks). */
    qp: Qp | null;
    /** RI_MEM_FLAGS_* rights in force. */
    rights: number;
    /** Remote Access Flag (Verbs §7.4): remote rights may ever be granted. */
    remoteAllowed: boolean;
    zeroBased: boolean;
    /** TO of the first byte: the VA for VA-based objects, 0 for zero-based ones. */
    base: bigint;
    length: number;
    target: MemTarget | null;
    /** MR: how many MWs are bound to it. */
    boundWindows: number;
    /** MR: PBL capacity reserved at allocation (Verbs §7.3, Fast-Register limit). */
    maxPbl: number;
    origin: MrOrigin;
    /** MR: the VA range pinned on registration (unpinned on deregistration). */
    pinned: {
        va: bigint;
        length: number;
    } | null;
    /** MW: the MR it is bound to. */
    mr: MemObject | null;
    mwType: RiMwType;
    /** MW: byte offset of the window's first byte inside its MR's target. */
    mwOffset: number;
    /** The attributes as registered, returned by `ri_mr_query`. */
    regVa: bigint;
    regFlags: number;
    constructor(kind: MemKind, pd: Pd, 
    /** Opaque consumer data, returned by identity. */
    osData: unknown);
    get stag(): number;
    get isMw(): boolean;
}
/**
 * The STag table: index → object. Indices are drawn at random from the whole 24-bit space
 * (never 0, Verbs §7.2.1), so consecutive registrations get unrelated indices: one advertised
 * STag does not give away the others (issue 17, finding 4; RFC 5040 §8), and a just-freed
 * index is very unlikely to be reused soon, so a stale STag does not find a new object even
 * before its key is compared.
 */
export declare class StagTable {
    private readonly limit;
    /** Source of random indices (tests may pass a deterministic one). */
    private readonly random;
    private readonly byIndex;
    constructor(limit: number, 
    /** Source of random indices (tests may pass a deterministic one). */
    random?: () => number);
    get size(): number;
    /** Allocates an index for `obj`; false if the table is full. */
    insert(obj: MemObject): boolean;
    private take;
    /** Forgets every object (the RNIC is closed). */
    clear(): void;
    remove(obj: MemObject): void;
    /** The object whose index matches the STag's index (its key is not compared here). */
    byStagIndex(stag: number): MemObject | undefined;
    values(): IterableIterator<MemObject>;
}
/** What a memory access wants to do. */
export declare enum Access {
    LOCAL_READ = 0,
    LOCAL_WRITE = 1,
    REMOTE_READ = 2,
    REMOTE_WRITE = 3,
    /** An inbound atomic (IBTA Vol. 1 §9.4.5, RFC 7306 §5): needs the Remote Atomic right. */
    REMOTE_ATOMIC = 4
}
/**
 * Why an access was refused. Callers turn this into a completion status (local path) or
 * a Terminate layer/etype/ecode (remote path) through their tables; see tx.ts and rx.ts.
 */
export declare enum AccessError {
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
    MW_IN_SGE = 7
}
/** Result of a successful {@link checkAccess}: the target and the byte offset into it. */
export interface AccessOut {
    target: MemTarget | null;
    offset: number;
    obj: MemObject | null;
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
export declare function checkAccess(stags: StagTable, stag: number, to: bigint, len: number, access: Access, pd: Pd, qp: Qp | null, out: AccessOut, mem?: HostMemory, 
/** Check the QP's inbound enables for remote accesses (false: a requester's post-time check). */
qpEnables?: boolean): AccessError;
/**
 * Verbs §7.6.3 Figure 18: the valid MR rights combinations. At least one local right;
 * Remote Write needs Local Write and Remote Read needs Local Read. RNICPI says Local Read
 * is always implied (§6.6 `RI_MEM_FLAGS_LOCAL_READ`), so it is added before checking.
 */
export declare function normalizeMrRights(flags: number): number | null;
/**
 * Verbs §7.10 Figure 20: the remote rights a window may get from its MR's local rights.
 * Remote Read needs the MR's Local Read, Remote Write needs its Local Write.
 */
export declare function windowRightsAllowed(mrRights: number, mwRights: number): boolean;
/** Is `n` a power of two? */
export declare function isPow2(n: number): boolean;
export { HOST_PAGE_SIZE };

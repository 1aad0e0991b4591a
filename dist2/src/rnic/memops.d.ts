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
import { RiMwType, RiPblMode, RiWcStatus } from '../rnicpi/types.js';
import { MemObject, type MemTarget } from './memory.js';
import type { Pd } from './pd.js';
import type { Qp } from './qp.js';
import type { Rnic } from './rnic.js';
import type { FmrSpec } from './wqe.js';
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
    bufs: readonly bigint[] | readonly {
        addr: bigint;
        len: number;
    }[];
    pbeSize: number;
    /** Offset of the first byte in the first buffer (FBO). */
    fbo: number;
}
/** `ri_mr_reg`: registers a virtual range (Verbs §7.3 RI-Register). */
export declare function mrReg(rnic: Rnic, r: VirtReg, osData: unknown): MemObject | RiRet;
/**
 * Validates a physical buffer list and resolves it to bytes (Verbs §7.6, RNICPI
 * `ri_mr_reg_phys`): page mode wants power-of-two pages the RNIC supports, page-aligned
 * entries and FBO < page size; block mode wants equal blocks within the supported range.
 * A VA-based registration also needs `VA mod size == FBO` (Verbs §7.6.1.1).
 */
export declare function preparePhys(rnic: Rnic, mode: RiPblMode, pl: PhysList, va: bigint, length: number, zeroBased: boolean): {
    pages: Uint8Array[];
    target: MemTarget;
} | RiRet;
/** `ri_mr_reg_phys` (privileged): registers a physical buffer list. */
export declare function mrRegPhys(rnic: Rnic, mode: RiPblMode, r: VirtReg, pl: PhysList, osData: unknown): MemObject | RiRet;
/**
 * `ri_ltag_alloc` (privileged): an Invalid MR STag with PBL room for Fast-Register (Verbs
 * §7.3 Allocate Non-Shared MR STag). `flags` lists the rights that may ever be enabled:
 * remote ones only if at least one is given (the Remote Access Flag).
 */
export declare function ltagAlloc(rnic: Rnic, pd: Pd, listLength: number, flags: number, key: number, osData: unknown): MemObject | RiRet;
/** Re-registration changes (`ri_mr_rereg_t`). */
export interface ReregChange {
    translate?: {
        va: bigint;
        length: number;
    } | {
        va: bigint;
        length: number;
        phys: PhysList;
        mode: RiPblMode;
    };
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
export declare function mrRereg(rnic: Rnic, mr: MemObject, ch: ReregChange, phys: boolean): RiRet;
/**
 * `ri_mr_reg_shared` (Verbs §7.3 Register Shared MR): a new STag over the same memory, with
 * its own PD, rights, VA and key. The source must be a Valid MR; it becomes Shared for good.
 */
export declare function mrRegShared(rnic: Rnic, src: MemObject, r: VirtReg, osData: unknown): MemObject | RiRet;
/** `ri_mr_dereg` (Verbs §7.9 Deallocate STag for an MR). */
export declare function mrDereg(rnic: Rnic, mr: MemObject): RiRet;
/** `ri_mw_alloc`: an Invalid window in `pd` (Verbs §7.10 Allocate MW). */
export declare function mwAlloc(rnic: Rnic, pd: Pd, type: RiMwType, osData: unknown): MemObject | RiRet;
/** `ri_mw_dealloc`: allowed even while bound (Verbs §7.9). */
export declare function mwDealloc(rnic: Rnic, mw: MemObject): RiRet;
/**
 * Executes a Bind MW WR (Verbs §7.10.6.1). Returns the completion status; on success the
 * window is Valid, bound to the MR and (narrow) to the QP, with the new key.
 */
export declare function execBind(qp: Qp, mw: MemObject, mr: MemObject, mrStag: number, va: bigint, length: number, flags: number, newKey: number): RiWcStatus;
/** Executes a Fast-Register WR (Verbs §7.3 Fast-Register checks, each failure a CE). */
export declare function execFastReg(qp: Qp, mr: MemObject, stag: number, f: FmrSpec): RiWcStatus;
/** Why an invalidation was refused; the callers map it to a WC status or Terminate code. */
export declare enum InvalidateError {
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
    DEALLOCATED = 5
}
/**
 * Invalidates an STag (Verbs §7.8 / §7.10.4): the checks shared by the Local Invalidate WR,
 * RDMA Read with Local Invalidate and inbound Send with Invalidate.
 */
export declare function invalidateStag(qp: Qp, stag: number, remote: boolean): InvalidateError;
/** Completion status of a failed local invalidation. */
export declare const INVALIDATE_WC_STATUS: Record<InvalidateError, RiWcStatus>;

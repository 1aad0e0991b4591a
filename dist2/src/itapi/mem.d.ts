import type { ri_mr_handle_t, ri_mw_handle_t } from '../rnicpi/types.js';
import type { Ep } from './ep.js';
import { type Ia, ItObject, type Pz } from './objects.js';
import { IT_HANDLE_KIND, it_addr_mode_t, it_handle_type_enum_t as HT, it_rmr_type_t, type it_iobl_type_t, type it_lmr_param_t, type it_rmr_param_t } from './types.js';
/** What a successful Link establishes. */
export interface LinkInfo {
    lmr: Lmr | null;
    addr: bigint;
    length: number;
    privs: number;
    addrMode: number;
    context: number;
}
/** A Local Memory Region (also the Direct LMR Handle). */
export declare class Lmr extends ItObject {
    private readonly ia_;
    pz: Pz;
    /** null for the Direct LMR Handle. */
    mr: ri_mr_handle_t | null;
    /** `flags` as given (SHARED reported only while actually shared). */
    readonly flags: number;
    readonly sharedId: number;
    /** Created by `it_lmr_create_unlinked`. */
    readonly unlinkedCreate: boolean;
    readonly [IT_HANDLE_KIND]: HT.IT_HANDLE_TYPE_LMR;
    /** The region's LTag (= its STag on iWARP); 0 for the Direct LMR (STag 0). */
    ltag: number;
    /** RMR Context while linked with remote privileges; null otherwise. */
    rmrContext: number | null;
    addr: bigint;
    length: number;
    privs: number;
    addrMode: it_addr_mode_t;
    linked: boolean;
    /** Actually sharing translation resources with another LMR. */
    shared: boolean;
    ioblNumElts: number;
    ioblType: it_iobl_type_t;
    /** Linked RMRs (`IT_ERR_LMR_BUSY`). */
    linkedRmrs: number;
    constructor(ia_: Ia, pz: Pz, 
    /** null for the Direct LMR Handle. */
    mr: ri_mr_handle_t | null, 
    /** `flags` as given (SHARED reported only while actually shared). */
    flags: number, sharedId: number, 
    /** Created by `it_lmr_create_unlinked`. */
    unlinkedCreate?: boolean);
    get ia(): Ia;
    get direct(): boolean;
    get remote(): boolean;
    onLinked(l: LinkInfo): void;
    /** Unlinked by `it_lmr_unlink`, an unlinking RDMA Read or an incoming Send-and-Unlink. */
    onUnlinked(): void;
    /** The query view. */
    params(): it_lmr_param_t;
    /** Deregisters; false while a window is bound (`IT_ERR_LMR_BUSY`). */
    free(): boolean;
    /** Frees even with windows bound (`it_ia_free`: the RMRs are gone by then). */
    destroy(): void;
}
/** A Remote Memory Region (a Narrow memory window). */
export declare class Rmr extends ItObject {
    private readonly ia_;
    readonly pz: Pz;
    mw: ri_mw_handle_t;
    /** The window's current RTag (its RMR Context once linked). */
    rtag: number;
    readonly type: it_rmr_type_t;
    readonly [IT_HANDLE_KIND]: HT.IT_HANDLE_TYPE_RMR;
    linked: boolean;
    lmr: Lmr | null;
    addr: bigint;
    length: number;
    privs: number;
    addrMode: it_addr_mode_t;
    /** The Endpoint a linked Narrow RMR belongs to. */
    ep: Ep | null;
    constructor(ia_: Ia, pz: Pz, mw: ri_mw_handle_t, 
    /** The window's current RTag (its RMR Context once linked). */
    rtag: number, type?: it_rmr_type_t);
    get ia(): Ia;
    onLinked(ep: Ep, l: LinkInfo): void;
    onUnlinked(): void;
    private unbook;
    params(): it_rmr_param_t;
    /** `it_rmr_free`: never busy; the linking and its context die. */
    destroy(): void;
}

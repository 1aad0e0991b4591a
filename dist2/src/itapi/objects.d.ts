import { RiConsumerDomain, type ri_event_record_t, type ri_pd_handle_t, type ri_rnic_handle_t } from '../rnicpi/types.js';
import type { ItDevice, ItRnicListener } from './access.js';
import type { Ep, Listen, PendingRequest, Srq } from './ep.js';
import type { Evd, Sevd } from './evd.js';
import type { Lmr, Rmr } from './mem.js';
import type { Ah, UdEp, UdSvcHandle, UdSvcRequest } from './ud.js';
import { it_status_t as S } from './status.js';
import { IT_HANDLE_KIND, it_handle_type_enum_t as HT, type it_context_t, type it_handle_type_enum_t, type it_ia_info_t } from './types.js';
/** Sets the IT-API function name reported by {@link fail} (the API wrapper calls it). */
export declare function setCurrentFn(name: string | undefined): void;
/** Throws the immediate error `status` of the IT-API call in progress. */
export declare function fail(status: S, detail?: string): never;
/** Base class of every IT-API handle. */
export declare abstract class ItObject {
    abstract readonly [IT_HANDLE_KIND]: it_handle_type_enum_t;
    /** Set once freed: the handle then fails every call (best effort). */
    freed: boolean;
    /** The Consumer Context (`it_set_consumer_context`); null = none. */
    context: it_context_t;
    /** The IA this object belongs to (the IA itself for an IA). */
    abstract get ia(): Ia;
}
type Cls<T> = abstract new (...args: never[]) => T;
/**
 * `h` as a live object of class `cls`, or the immediate error `invalid`; a live object of a
 * disabled IA gives `IT_ERR_IA_CATASTROPHE`.
 */
export declare function check<T extends ItObject>(h: unknown, cls: Cls<T>, invalid: S): T;
/** Any live handle (context and handle-type calls). */
export declare function checkHandle(h: unknown): ItObject;
/**
 * Sets whether IAs created from now on belong to a Privileged Consumer (IT-API leaves the
 * meaning of "privileged" to the OS; in softrdma it is a process credential, like running as
 * root). Privileged IAs may attach EVD callbacks, register IOBLs, link LMRs, map memory, create
 * Privileged Mode Endpoints and use the Direct LMR Handle. Default: not privileged.
 */
export declare function softrdmaItapiSetPrivileged(privileged: boolean): void;
/** True while IAs are created privileged. */
export declare function softrdmaItapiPrivileged(): boolean;
/** An IT-API Interface Adapter: one RNICPI RNIC handle on one device. */
export declare class Ia extends ItObject implements ItRnicListener {
    readonly device: ItDevice;
    readonly rnic: ri_rnic_handle_t;
    readonly privileged: boolean;
    readonly apiMajor: number;
    readonly apiMinor: number;
    readonly [IT_HANDLE_KIND]: HT.IT_HANDLE_TYPE_IA;
    /** Catastrophic error seen: every call but `it_ia_free` answers `IT_ERR_IA_CATASTROPHE`. */
    disabled: boolean;
    readonly pzs: Set<Pz>;
    readonly evds: Set<Evd>;
    readonly eps: Set<Ep>;
    readonly lmrs: Set<Lmr>;
    readonly rmrs: Set<Rmr>;
    readonly listens: Set<Listen>;
    readonly srqs: Set<Srq>;
    /** RoCE Interface: UD Endpoints, Address Handles, UD Service Request Handles, UD service requests not answered. */
    readonly udEps: Set<UdEp>;
    readonly ahs: Set<Ah>;
    readonly udSvcs: Set<UdSvcHandle>;
    readonly udRequests: Set<UdSvcRequest>;
    /** Connection requests delivered and not consumed (`cn_est_id`s). */
    readonly requests: Set<PendingRequest>;
    /** `it_ia_info_t`s handed out and not freed. */
    readonly infos: Set<it_ia_info_t>;
    /** `it_mem_map` results not unmapped: key `io:len` → the mapped virtual range. */
    readonly maps: Map<string, {
        vaddr: bigint;
        len: number;
    }>;
    affEvd: Sevd | null;
    unaffEvd: Sevd | null;
    /** The Direct LMR Handle (privileged IAs only). */
    directLmr: Lmr | null;
    constructor(device: ItDevice, rnic: ri_rnic_handle_t, privileged: boolean, apiMajor: number, apiMinor: number);
    get ia(): Ia;
    get ops(): import("../rnicpi/ops.js").ri_ops_t;
    /** RNIC-level events (not affiliated with one of this IA's objects). */
    onRnicEvent(ev: ri_event_record_t): void;
    /** Enters the disabled state (IT-API §4.6): nothing changes any more except by `it_ia_free`. */
    disable(why: string): void;
    /** The linked LMR or RMR whose RMR Context is `ctx` (an incoming Send-and-Unlink). */
    memByContext(ctx: number): Lmr | Rmr | null;
    /** True if an EVD callback of this IA is running (`it_ia_free` → INVALID_EVD_STATE). */
    callbackRunning(): boolean;
    /**
     * `it_ia_free`: frees every child (in reverse dependency order, each with its own free
     * semantics but without the busy refusals), terminates connections and pending requests,
     * unblocks every waiter (`IT_ERR_ABORT`) and returns the RNIC handle.
     */
    destroy(): void;
}
/** Location of the RNIC handle of every IA: see {@link Ia}. */
export declare const IA_RNIC_LOCATION = RiConsumerDomain.KERNEL;
/** A Protection Zone: one RNICPI PD. */
export declare class Pz extends ItObject {
    private readonly ia_;
    readonly pd: ri_pd_handle_t;
    readonly [IT_HANDLE_KIND]: HT.IT_HANDLE_TYPE_PZ;
    constructor(ia_: Ia, pd: ri_pd_handle_t);
    get ia(): Ia;
    /** Frees the PD; false while something still uses it (`IT_ERR_PZ_BUSY`). */
    free(): boolean;
    destroy(): void;
}
export {};

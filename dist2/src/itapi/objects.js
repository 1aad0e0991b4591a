/**
 * IT-API object model shared by every implementation module: the handle base class, the
 * immediate-error helper, handle validation (including the IA catastrophe rule), the Interface
 * Adapter and the Protection Zone.
 *
 * Handles are class instances tagged with `[IT_HANDLE_KIND]`; a freed handle keeps its class
 * but is marked `freed`, so later use fails with the call's `IT_ERR_INVALID_*` code (best effort
 * stale-handle detection, IT-API §2 "handles may no longer be used"). Every call on an object of
 * a disabled IA throws `IT_ERR_IA_CATASTROPHE` before doing anything (IT-API §4.6).
 *
 * @module
 */
import { RiRet } from '../rnicpi/status.js';
import { RiAsyncEventType, RiConsumerDomain, } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import { ItError, it_status_t as S } from './status.js';
import { IT_HANDLE_KIND, it_handle_type_enum_t as HT, } from './types.js';
const log = logger('itapi');
/** SIDR_REP status Reject (IBTA Table 115): a UD service request left unanswered when its IA goes. */
const SIDR_REJECT = 2;
// =============================================================================================
// Errors
// =============================================================================================
let currentFn;
/** Sets the IT-API function name reported by {@link fail} (the API wrapper calls it). */
export function setCurrentFn(name) {
    currentFn = name;
}
/** Throws the immediate error `status` of the IT-API call in progress. */
export function fail(status, detail) {
    throw new ItError(status, detail, currentFn);
}
// =============================================================================================
// Handles
// =============================================================================================
/** Base class of every IT-API handle. */
export class ItObject {
    /** Set once freed: the handle then fails every call (best effort). */
    freed = false;
    /** The Consumer Context (`it_set_consumer_context`); null = none. */
    context = null;
}
/**
 * `h` as a live object of class `cls`, or the immediate error `invalid`; a live object of a
 * disabled IA gives `IT_ERR_IA_CATASTROPHE`.
 */
export function check(h, cls, invalid) {
    if (!(h instanceof cls) || h.freed || h.ia.freed)
        fail(invalid);
    if (h.ia.disabled)
        fail(S.IT_ERR_IA_CATASTROPHE);
    return h;
}
/** Any live handle (context and handle-type calls). */
export function checkHandle(h) {
    return check(h, ItObject, S.IT_ERR_INVALID_HANDLE);
}
// =============================================================================================
// Process-wide privilege (the OS-defined "Privileged Consumer", IT-API §8)
// =============================================================================================
let privilegedCaller = false;
/**
 * Sets whether IAs created from now on belong to a Privileged Consumer (IT-API leaves the
 * meaning of "privileged" to the OS; in softrdma it is a process credential, like running as
 * root). Privileged IAs may attach EVD callbacks, register IOBLs, link LMRs, map memory, create
 * Privileged Mode Endpoints and use the Direct LMR Handle. Default: not privileged.
 */
export function softrdmaItapiSetPrivileged(privileged) {
    privilegedCaller = privileged;
}
/** True while IAs are created privileged. */
export function softrdmaItapiPrivileged() {
    return privilegedCaller;
}
// =============================================================================================
// Interface Adapter
// =============================================================================================
/** An IT-API Interface Adapter: one RNICPI RNIC handle on one device. */
export class Ia extends ItObject {
    device;
    rnic;
    privileged;
    apiMajor;
    apiMinor;
    [IT_HANDLE_KIND] = HT.IT_HANDLE_TYPE_IA;
    /** Catastrophic error seen: every call but `it_ia_free` answers `IT_ERR_IA_CATASTROPHE`. */
    disabled = false;
    pzs = new Set();
    evds = new Set();
    eps = new Set();
    lmrs = new Set();
    rmrs = new Set();
    listens = new Set();
    srqs = new Set();
    /** RoCE Interface: UD Endpoints, Address Handles, UD Service Request Handles, UD service requests not answered. */
    udEps = new Set();
    ahs = new Set();
    udSvcs = new Set();
    udRequests = new Set();
    /** Connection requests delivered and not consumed (`cn_est_id`s). */
    requests = new Set();
    /** `it_ia_info_t`s handed out and not freed. */
    infos = new Set();
    /** `it_mem_map` results not unmapped: key `io:len` → the mapped virtual range. */
    maps = new Map();
    affEvd = null;
    unaffEvd = null;
    /** The Direct LMR Handle (privileged IAs only). */
    directLmr = null;
    constructor(device, rnic, privileged, apiMajor, apiMinor) {
        super();
        this.device = device;
        this.rnic = rnic;
        this.privileged = privileged;
        this.apiMajor = apiMajor;
        this.apiMinor = apiMinor;
        device.listeners.add(this);
    }
    get ia() {
        return this;
    }
    get ops() {
        return this.device.ops;
    }
    /** RNIC-level events (not affiliated with one of this IA's objects). */
    onRnicEvent(ev) {
        if (this.freed)
            return;
        if (ev.event_type === RiAsyncEventType.LOCAL_CATASTROPHIC_ERROR)
            this.disable('RNIC catastrophic error');
    }
    /** Enters the disabled state (IT-API §4.6): nothing changes any more except by `it_ia_free`. */
    disable(why) {
        if (this.disabled)
            return;
        log('IA %s disabled: %s', this.device.name, why);
        this.disabled = true;
    }
    /** The linked LMR or RMR whose RMR Context is `ctx` (an incoming Send-and-Unlink). */
    memByContext(ctx) {
        for (const r of this.rmrs)
            if (r.linked && r.rtag === ctx)
                return r;
        for (const l of this.lmrs)
            if (l.linked && !l.direct && l.ltag === ctx)
                return l;
        return null;
    }
    /** True if an EVD callback of this IA is running (`it_ia_free` → INVALID_EVD_STATE). */
    callbackRunning() {
        for (const e of this.evds)
            if (e.cbRunning)
                return true;
        return false;
    }
    /**
     * `it_ia_free`: frees every child (in reverse dependency order, each with its own free
     * semantics but without the busy refusals), terminates connections and pending requests,
     * unblocks every waiter (`IT_ERR_ABORT`) and returns the RNIC handle.
     */
    destroy() {
        for (const r of [...this.requests])
            r.terminate();
        for (const r of [...this.udRequests])
            if (!r.replied)
                r.reply(SIDR_REJECT, null, new Uint8Array(0));
        this.udRequests.clear();
        for (const h of [...this.udSvcs])
            h.destroy();
        for (const l of [...this.listens])
            l.destroy();
        // Windows first (a QP with a bound Narrow window cannot be destroyed), then the QPs.
        for (const r of [...this.rmrs])
            r.destroy();
        for (const ep of [...this.eps])
            ep.destroy();
        for (const ep of [...this.udEps])
            ep.destroy();
        for (const a of [...this.ahs])
            a.destroy();
        for (const l of [...this.lmrs])
            l.destroy();
        for (const s of [...this.srqs])
            s.destroy();
        for (const e of [...this.evds])
            e.destroy();
        for (const p of [...this.pzs])
            p.destroy();
        for (const [k, m] of this.maps) {
            const [io, len] = k.split(':');
            this.ops.ri_mem_unmap(this.rnic, { phys_address: BigInt(io), phys_len: BigInt(len) }, this);
            this.ops.ri_mem_unpin(this.rnic, m.vaddr, m.len, this);
        }
        this.maps.clear();
        this.infos.clear();
        this.freed = true;
        this.device.listeners.delete(this);
        const st = this.ops.ri_rnic_free_hdl(this.device.vp, this.rnic);
        if (st.status !== RiRet.SUCCESS)
            log('ri_rnic_free_hdl: %s', RiRet[st.status]);
    }
}
/** Location of the RNIC handle of every IA: see {@link Ia}. */
export const IA_RNIC_LOCATION = RiConsumerDomain.KERNEL;
// =============================================================================================
// Protection Zone
// =============================================================================================
/** A Protection Zone: one RNICPI PD. */
export class Pz extends ItObject {
    ia_;
    pd;
    [IT_HANDLE_KIND] = HT.IT_HANDLE_TYPE_PZ;
    constructor(ia_, pd) {
        super();
        this.ia_ = ia_;
        this.pd = pd;
    }
    get ia() {
        return this.ia_;
    }
    /** Frees the PD; false while something still uses it (`IT_ERR_PZ_BUSY`). */
    free() {
        const st = this.ia_.ops.ri_pd_dealloc(this.ia_.rnic, this.pd);
        if (st.status === RiRet.PD_INUSE)
            return false;
        this.freed = true;
        this.ia_.pzs.delete(this);
        return true;
    }
    destroy() {
        if (!this.freed)
            this.free();
    }
}
//# sourceMappingURL=objects.js.map
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
import { RiAsyncEventType, RiConsumerDomain, type ri_event_record_t, type ri_pd_handle_t, type ri_rnic_handle_t } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import type { ItDevice, ItRnicListener } from './access.js';
import type { Ep } from './ep.js';
import type { Listen, PendingRequest } from './listen.js';
import type { Srq } from './srq.js';
import type { Evd, Sevd } from './evd.js';
import type { Lmr, Rmr } from './mem.js';
import type { Ah, UdEp, UdSvcHandle, UdSvcRequest } from './ud.js';
import { ItError, it_status_t as S } from './status.js';
import { IT_HANDLE_KIND, it_handle_type_enum_t as HT, type it_context_t, type it_handle_type_enum_t, type it_ia_info_t } from './types.js';

const log = logger('itapi');
/** SIDR_REP status Reject (IBTA Table 115): a UD service request left unanswered when its IA goes. */
const SIDR_REJECT = 2;

// =============================================================================================
// Errors
// =============================================================================================

let currentFn: string | undefined;

/** Sets the IT-API function name reported by {@link fail} (the API wrapper calls it). */
export function setCurrentFn(name: string | undefined): void {
  currentFn = name;
}

/** Throws the immediate error `status` of the IT-API call in progress. */
export function fail(status: S, detail?: string): never {
  throw new ItError(status, detail, currentFn);
}

// =============================================================================================
// Handles
// =============================================================================================

/** Base class of every IT-API handle. */
export abstract class ItObject {
  abstract readonly [IT_HANDLE_KIND]: it_handle_type_enum_t;
  /** Set once freed: the handle then fails every call (best effort). */
  freed = false;
  /** The Consumer Context (`it_set_consumer_context`); null = none. */
  context: it_context_t = null;
  /** The IA this object belongs to (the IA itself for an IA). */
  abstract get ia(): Ia;
}

type Cls<T> = abstract new (...args: never[]) => T;

/**
 * `h` as a live object of class `cls`, or the immediate error `invalid`; a live object of a
 * disabled IA gives `IT_ERR_IA_CATASTROPHE`.
 */
export function check<T extends ItObject>(h: unknown, cls: Cls<T>, invalid: S): T {
  if (!(h instanceof cls) || h.freed || h.ia.freed) fail(invalid);
  if (h.ia.disabled) fail(S.IT_ERR_IA_CATASTROPHE);
  return h;
}

/** Any live handle (context and handle-type calls). */
export function checkHandle(h: unknown): ItObject {
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
export function softrdmaItapiSetPrivileged(privileged: boolean): void {
  privilegedCaller = privileged;
}

/** True while IAs are created privileged. */
export function softrdmaItapiPrivileged(): boolean {
  return privilegedCaller;
}

// =============================================================================================
// Interface Adapter
// =============================================================================================

/** An IT-API Interface Adapter: one RNICPI RNIC handle on one device. */
export class Ia extends ItObject implements ItRnicListener {
  readonly [IT_HANDLE_KIND] = HT.IT_HANDLE_TYPE_IA as const;
  /** Catastrophic error seen: every call but `it_ia_free` answers `IT_ERR_IA_CATASTROPHE`. */
  disabled = false;
  readonly pzs = new Set<Pz>();
  readonly evds = new Set<Evd>();
  readonly eps = new Set<Ep>();
  readonly lmrs = new Set<Lmr>();
  readonly rmrs = new Set<Rmr>();
  readonly listens = new Set<Listen>();
  readonly srqs = new Set<Srq>();
  /** RoCE Interface: UD Endpoints, Address Handles, UD Service Request Handles, UD service requests not answered. */
  readonly udEps = new Set<UdEp>();
  readonly ahs = new Set<Ah>();
  readonly udSvcs = new Set<UdSvcHandle>();
  readonly udRequests = new Set<UdSvcRequest>();
  /** Connection requests delivered and not consumed (`cn_est_id`s). */
  readonly requests = new Set<PendingRequest>();
  /** `it_ia_info_t`s handed out and not freed. */
  readonly infos = new Set<it_ia_info_t>();
  /** `it_mem_map` results not unmapped: key `io:len` → the mapped virtual range. */
  readonly maps = new Map<string, { vaddr: bigint; len: number }>();
  affEvd: Sevd | null = null;
  unaffEvd: Sevd | null = null;
  /** The Direct LMR Handle (privileged IAs only). */
  directLmr: Lmr | null = null;
  constructor(
    readonly device: ItDevice,
    readonly rnic: ri_rnic_handle_t,
    readonly privileged: boolean,
    readonly apiMajor: number,
    readonly apiMinor: number,
  ) {
    super();
    device.listeners.add(this);
  }
  get ia(): Ia {
    return this;
  }
  get ops() {
    return this.device.ops;
  }

  /** RNIC-level events (not affiliated with one of this IA's objects). */
  onRnicEvent(ev: ri_event_record_t): void {
    if (this.freed) return;
    if (ev.event_type === RiAsyncEventType.LOCAL_CATASTROPHIC_ERROR) this.disable('RNIC catastrophic error');
  }

  /** Enters the disabled state (IT-API §4.6): nothing changes any more except by `it_ia_free`. */
  disable(why: string): void {
    if (this.disabled) return;
    log('IA %s disabled: %s', this.device.name, why);
    this.disabled = true;
  }

  /** The linked LMR or RMR whose RMR Context is `ctx` (an incoming Send-and-Unlink). */
  memByContext(ctx: number): Lmr | Rmr | null {
    for (const r of this.rmrs) if (r.linked && r.rtag === ctx) return r;
    for (const l of this.lmrs) if (l.linked && !l.direct && l.ltag === ctx) return l;
    return null;
  }

  /** True if an EVD callback of this IA is running (`it_ia_free` → INVALID_EVD_STATE). */
  callbackRunning(): boolean {
    for (const e of this.evds) if (e.cbRunning) return true;
    return false;
  }

  /**
   * `it_ia_free`: frees every child (in reverse dependency order, each with its own free
   * semantics but without the busy refusals), terminates connections and pending requests,
   * unblocks every waiter (`IT_ERR_ABORT`) and returns the RNIC handle.
   */
  destroy(): void {
    for (const r of [...this.requests]) r.terminate();
    for (const r of [...this.udRequests]) if (!r.replied) r.reply(SIDR_REJECT, null, new Uint8Array(0));
    this.udRequests.clear();
    for (const h of [...this.udSvcs]) h.destroy();
    for (const l of [...this.listens]) l.destroy();
    // Windows first (a QP with a bound Narrow window cannot be destroyed), then the QPs.
    for (const r of [...this.rmrs]) r.destroy();
    for (const ep of [...this.eps]) ep.destroy();
    for (const ep of [...this.udEps]) ep.destroy();
    for (const a of [...this.ahs]) a.destroy();
    for (const l of [...this.lmrs]) l.destroy();
    for (const s of [...this.srqs]) s.destroy();
    for (const e of [...this.evds]) e.destroy();
    for (const p of [...this.pzs]) p.destroy();
    for (const [k, m] of this.maps) {
      const [io, len] = k.split(':');
      this.ops.ri_mem_unmap(this.rnic, { phys_address: BigInt(io!), phys_len: BigInt(len!) }, this);
      this.ops.ri_mem_unpin(this.rnic, m.vaddr, m.len, this);
    }
    this.maps.clear();
    this.infos.clear();
    this.freed = true;
    this.device.listeners.delete(this);
    const st = this.ops.ri_rnic_free_hdl(this.device.vp, this.rnic);
    if (st.status !== RiRet.SUCCESS) log('ri_rnic_free_hdl: %s', RiRet[st.status]);
  }
}

/** Location of the RNIC handle of every IA: see {@link Ia}. */
export const IA_RNIC_LOCATION = RiConsumerDomain.KERNEL;

// =============================================================================================
// Protection Zone
// =============================================================================================

/** A Protection Zone: one RNICPI PD. */
export class Pz extends ItObject {
  readonly [IT_HANDLE_KIND] = HT.IT_HANDLE_TYPE_PZ as const;
  readonly #ia_: Ia;
  constructor(
    ia_: Ia,
    readonly pd: ri_pd_handle_t,
  ) {
    super();
    this.#ia_ = ia_;
  }
  get ia(): Ia {
    return this.#ia_;
  }
  /** Frees the PD; false while something still uses it (`IT_ERR_PZ_BUSY`). */
  free(): boolean {
    const st = this.#ia_.ops.ri_pd_dealloc(this.#ia_.rnic, this.pd);
    if (st.status === RiRet.PD_INUSE) return false;
    this.freed = true;
    this.#ia_.pzs.delete(this);
    return true;
  }
  destroy(): void {
    if (!this.freed) this.free();
  }
}

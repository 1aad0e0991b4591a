/**
 * Local and Remote Memory Regions (IT-API `it_lmr_*`, `it_rmr_*` pages–2.9, §7).
 *
 * An LMR is an RNICPI memory region: `it_lmr_create` → `ri_mr_reg` (or `ri_mr_reg_phys` for an
 * I/O Buffer List, or `ri_mr_reg_shared` for a matching shareable LMR), always with window
 * binding allowed (App. A); Relative addressing is zero-based virtual addressing (ZBVA). An
 * unlinked LMR is an `ri_ltag_alloc` STag linked by a Fast-Register WR. An RMR is a Narrow
 * (Type 2) memory window, linked by a Bind WR and unlinked by a Local Invalidate WR.
 *
 * The IT-API bookkeeping lives here: what is linked to what (for `IT_ERR_LMR_BUSY`,
 * `IT_ERR_EP_BUSY` and the query calls), the RMR Context of each object, and the effect of a
 * remote Send-and-Unlink. Protection checks (PZ, bounds, rights, Narrow binding) are the RNIC's.
 *
 * @module
 */
import { RiRet } from '../rnicpi/status.js';
import type { ri_mr_handle_t, ri_mw_handle_t } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import type { Ep } from './ep.js';
import { type Ia, ItObject, type Pz } from './objects.js';
import {
  IT_HANDLE_KIND,
  it_addr_mode_t,
  it_handle_type_enum_t as HT,
  it_lmr_flag_t as LF,
  it_mem_priv_t as PRIV,
  it_rmr_type_t,
  type it_iobl_type_t,
  type it_lmr_param_t,
  type it_rmr_param_t,
} from './types.js';

const log = logger('itapi:mem');

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
export class Lmr extends ItObject {
  readonly [IT_HANDLE_KIND] = HT.IT_HANDLE_TYPE_LMR as const;
  /** The region's LTag (= its STag on iWARP); 0 for the Direct LMR (STag 0). */
  ltag = 0;
  /** RMR Context while linked with remote privileges; null otherwise. */
  rmrContext: number | null = null;
  addr = 0n;
  length = 0;
  privs = 0;
  addrMode: it_addr_mode_t = it_addr_mode_t.IT_ADDR_MODE_ABSOLUTE;
  linked = true;
  /** Actually sharing translation resources with another LMR. */
  shared = false;
  ioblNumElts = 0;
  ioblType: it_iobl_type_t = 0 as it_iobl_type_t;
  /** Linked RMRs (`IT_ERR_LMR_BUSY`). */
  linkedRmrs = 0;
  readonly #ia_: Ia;
  constructor(
    ia_: Ia,
    public pz: Pz,
    /** null for the Direct LMR Handle. */
    public mr: ri_mr_handle_t | null,
    /** `flags` as given (SHARED reported only while actually shared). */
    readonly flags: number,
    readonly sharedId: number,
    /** Created by `it_lmr_create_unlinked`. */
    readonly unlinkedCreate = false,
  ) {
    super();
    this.#ia_ = ia_;
  }
  get ia(): Ia {
    return this.#ia_;
  }
  get direct(): boolean {
    return this.mr === null;
  }
  get remote(): boolean {
    return (this.privs & PRIV.IT_PRIV_REMOTE) !== 0;
  }

  onLinked(l: LinkInfo): void {
    this.linked = true;
    this.addr = l.addr;
    this.length = l.length;
    this.privs = l.privs;
    this.addrMode = l.addrMode;
    this.ltag = l.context;
    this.rmrContext = (l.privs & PRIV.IT_PRIV_REMOTE) !== 0 ? l.context : null;
  }

  /** Unlinked by `it_lmr_unlink`, an unlinking RDMA Read or an incoming Send-and-Unlink. */
  onUnlinked(): void {
    this.linked = false;
    this.rmrContext = null;
  }

  /** The query view. */
  params(): it_lmr_param_t {
    const shared = this.shared ? LF.IT_LMR_FLAG_SHARED : 0;
    const flags = (this.flags & ~LF.IT_LMR_FLAG_SHARED) | shared;
    return {
      ia: this.#ia_,
      pz: this.pz,
      addr: this.addr,
      length: this.length,
      privs: this.privs,
      flags,
      shared_id: this.sharedId,
      rmr_context: this.rmrContext,
      actual_addr: this.addr,
      actual_length: this.length,
      addr_mode: this.addrMode,
      linked: this.linked,
      iobl_num_elts: this.ioblNumElts,
      iobl_type: this.ioblType,
    };
  }

  /** Deregisters; false while a window is bound (`IT_ERR_LMR_BUSY`). */
  free(): boolean {
    if (this.mr) {
      const st = this.#ia_.ops.ri_mr_dereg(this.#ia_.rnic, this.mr);
      if (st.status === RiRet.WINDOWS_BOUND) return false;
      if (st.status !== RiRet.SUCCESS) log('ri_mr_dereg: %s', RiRet[st.status]);
    }
    this.freed = true;
    this.rmrContext = null;
    this.#ia_.lmrs.delete(this);
    return true;
  }

  /** Frees even with windows bound (`it_ia_free`: the RMRs are gone by then). */
  destroy(): void {
    if (!this.freed) this.free();
    this.freed = true;
    this.#ia_.lmrs.delete(this);
  }
}

/** A Remote Memory Region (a Narrow memory window). */
export class Rmr extends ItObject {
  readonly [IT_HANDLE_KIND] = HT.IT_HANDLE_TYPE_RMR as const;
  linked = false;
  lmr: Lmr | null = null;
  addr = 0n;
  length = 0;
  privs = 0;
  addrMode: it_addr_mode_t = it_addr_mode_t.IT_ADDR_MODE_ABSOLUTE;
  /** The Endpoint a linked Narrow RMR belongs to. */
  ep: Ep | null = null;
  /**
   * The RNICPI window: set by `it_rmr_create` as `ri_mw_alloc` returns, which takes this object
   * as the window's context and so needs it first.
   */
  mw!: ri_mw_handle_t;
  /** The window's current RTag (its RMR Context once linked). */
  rtag = 0;
  readonly #ia_: Ia;
  constructor(
    ia_: Ia,
    readonly pz: Pz,
    readonly type: it_rmr_type_t = it_rmr_type_t.IT_RMR_TYPE_NARROW,
  ) {
    super();
    this.#ia_ = ia_;
  }
  get ia(): Ia {
    return this.#ia_;
  }

  onLinked(ep: Ep, l: LinkInfo): void {
    if (this.linked) this.#unbook();
    this.linked = true;
    this.lmr = l.lmr;
    this.addr = l.addr;
    this.length = l.length;
    this.privs = l.privs;
    this.addrMode = l.addrMode;
    this.rtag = l.context;
    this.ep = ep;
    if (this.lmr) this.lmr.linkedRmrs++;
    ep.narrowLinked++;
  }

  onUnlinked(): void {
    if (!this.linked) return;
    this.#unbook();
    this.linked = false;
  }

  #unbook(): void {
    if (this.lmr) this.lmr.linkedRmrs--;
    if (this.ep) this.ep.narrowLinked--;
    this.ep = null;
  }

  params(): it_rmr_param_t {
    return {
      ia: this.#ia_,
      pz: this.pz,
      linked: this.linked,
      lmr: this.linked ? this.lmr : null,
      addr: this.addr,
      length: this.length,
      privs: this.privs,
      rmr_context: this.rtag,
      type: this.type,
      addr_mode: this.addrMode,
    };
  }

  /** `it_rmr_free`: never busy; the linking and its context die. */
  destroy(): void {
    if (this.freed) return;
    this.onUnlinked();
    const st = this.#ia_.ops.ri_mw_dealloc(this.#ia_.rnic, this.mw);
    if (st.status !== RiRet.SUCCESS) log('ri_mw_dealloc: %s', RiRet[st.status]);
    this.freed = true;
    this.#ia_.rmrs.delete(this);
  }
}

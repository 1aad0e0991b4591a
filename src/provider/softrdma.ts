/**
 * The softrdma verbs provider: `ri_ops_t` (all 63 calls) over the RNIC engine of `src/rnic/`.
 *
 * The provider is a thin mapping, one module per resource as Linux `rxe_verbs.c` has one
 * function per verb, and the ops table at the end of this file. It owns the RNICPI-facing
 * concerns only:
 * - the opaque handles (VP, RNIC, PD, CQ, QP, SRQ, MR, MW), their kind, liveness and owner
 *   (an object is valid only with the RNIC handle it was created through, RNICPI Ch. 4.5);
 * - the privileged / unprivileged split (an RNIC handle obtained with location KERNEL is
 *   privileged; USER is not; the user-level vectors answer NO_PERMISSION for the kernel-only
 *   calls);
 * - decoding RNICPI structures (masks, unions, WR variants) into engine calls and encoding
 *   engine state back into RNICPI structures (`ri_qp_query`, `ri_mr_query`, ...);
 * - the RNIC lifecycle (open/close, handle counting) and the registry entry "softrdma".
 *
 * Every semantic rule (state machine, in-use guards, flush order, access checks, notification)
 * lives once in the engine. Calls are synchronous; callbacks come from the engine's
 * microtasks and never run for an object after its destroy returned.
 *
 * Spec: RNICPI 1.0 Ch. 7 (reference pages); summary in `docs/rnicpi-surface.md`; decisions in
 * `docs/spec-notes.md`.
 *
 * @module
 */
import { mrDereg, mwDealloc } from '../rnic/memops.js';
import { DEFAULT_CONFIG, type RnicConfig } from '../rnic/rnic.js';
import { type RiOpName, RI_OPS_ORDER, type ri_ops_t } from '../rnicpi/ops.js';
import { getProvider, type RiProviderEnv, type RiProviderInstance, registerProvider } from '../rnicpi/registry.js';
import { RiError, RiRet, type RiStatus, riFail } from '../rnicpi/status.js';
import { RNICPI_MAJOR_VERSION, RNICPI_MINOR_VERSION, type ri_svcs_dev_arg_t, type ri_vp_handle_t } from '../rnicpi/types.js';
import {
  AhHandle,
  CqHandle,
  MrHandle,
  MwHandle,
  type ObjClass,
  type ObjHandle,
  PdHandle,
  QpHandle,
  SoftrdmaRnicHandle,
  SoftrdmaVp,
  SrqHandle,
  vpOf,
} from './handles.js';
import {
  ri_cq_create,
  ri_cq_destroy,
  ri_cq_modify,
  ri_cq_poll,
  ri_cq_query,
  ri_cq_req_notification,
  ri_cq_set_event_handler,
} from './ops-cq.js';
import { ri_mem_map, ri_mem_pin, ri_mem_sync_rread, ri_mem_sync_rwrite, ri_mem_unmap, ri_mem_unpin } from './ops-mem.js';
import {
  ri_ltag_alloc,
  ri_mr_dereg,
  ri_mr_query,
  ri_mr_reg,
  ri_mr_reg_phys,
  ri_mr_reg_shared,
  ri_mr_rereg,
  ri_mr_rereg_phys,
  ri_mw_alloc,
  ri_mw_dealloc,
  ri_mw_query,
  ri_pd_alloc,
  ri_pd_dealloc,
} from './ops-pd-mr.js';
import {
  ri_qp_post_atomic,
  ri_qp_post_bind,
  ri_qp_post_datagram,
  ri_qp_post_fmr,
  ri_qp_post_local_invalidate,
  ri_qp_post_rdma_read,
  ri_qp_post_rdma_write,
  ri_qp_post_recv,
  ri_qp_post_send,
  ri_qp_postrq,
  ri_qp_postsq,
  ri_srq_post,
  ri_srq_post_recv,
} from './ops-post.js';
import { releaseSpecialCqs, ri_qp_create, ri_qp_destroy, ri_qp_modify, ri_qp_query, ri_special_qp_get } from './ops-qp.js';
import {
  ri_async_set_event_handler,
  ri_rnic_close,
  ri_rnic_diag,
  ri_rnic_free_hdl,
  ri_rnic_modify,
  ri_rnic_open,
  ri_rnic_query,
  riRnicGetHdl,
  rnicAttrSize,
  rnicAttrs,
} from './ops-rnic.js';
import { ri_srq_create, ri_srq_destroy, ri_srq_modify, ri_srq_query } from './ops-srq.js';
import { roceConfig } from './roce-config.js';
export { roceConfig };
import {
  destroyAh,
  ri_ah_create,
  ri_ah_destroy,
  ri_ah_modify,
  ri_ah_query,
  ri_mcast_attach,
  ri_mcast_detach,
  ri_process_sma_mad,
} from './ops-ud.js';

/** Name of the provider in the registry. */
export const SOFTRDMA_PROVIDER_NAME = 'softrdma';
/** `lib_path` announced in `ri_svc_attach` (the uVP: this module's user-level vectors). */
export const SOFTRDMA_LIB_PATH = 'softrdma/rnicpi/provider';

export { PinTable, SoftrdmaRnicHandle, SoftrdmaVp, type SoftrdmaVpInfo } from './handles.js';
export { riQpState } from './ops-qp.js';
export { rnicAttrSize, SOFTRDMA_RNIC_FLAGS } from './ops-rnic.js';
export { roceGidTableOf } from './roce-config.js';

// =============================================================================================
// The operation vectors
// =============================================================================================

const KERNEL_ONLY: readonly RiOpName[] = ['ri_rnic_open', 'ri_rnic_close', 'ri_async_set_event_handler', 'ri_cq_set_event_handler'];

/**
 * Builds one vector. `user` vectors are the uVP's: the kernel-only calls are NO_PERMISSION stubs
 * and `ri_rnic_get_hdl` ignores `location` (always USER). The AL- and VP-serialized vectors
 * behave alike (one thread), but they are distinct objects, so `rnic.ops` tells which was used.
 */
function makeOps(user: boolean, self: () => ri_ops_t): ri_ops_t {
  const ops: ri_ops_t = {
    // RNIC management (ops-rnic.ts)
    ri_rnic_open,
    ri_rnic_close,
    ri_async_set_event_handler,
    ri_rnic_get_hdl: riRnicGetHdl(user, self),
    ri_rnic_query,
    ri_rnic_modify,
    ri_rnic_free_hdl,
    ri_rnic_diag,
    // PD (ops-pd-mr.ts)
    ri_pd_alloc,
    ri_pd_dealloc,
    // CQ (ops-cq.ts); QP1 (ops-qp.ts)
    ri_cq_create,
    ri_cq_query,
    ri_cq_modify,
    ri_cq_destroy,
    ri_special_qp_get,
    ri_cq_set_event_handler,
    ri_cq_req_notification,
    ri_cq_poll,
    // QP (ops-qp.ts)
    ri_qp_create,
    ri_qp_query,
    ri_qp_modify,
    ri_qp_destroy,
    // posting (ops-post.ts)
    ri_qp_postsq,
    ri_qp_post_send,
    ri_qp_post_rdma_read,
    ri_qp_post_rdma_write,
    ri_qp_post_bind,
    ri_qp_post_fmr,
    ri_qp_post_local_invalidate,
    ri_qp_post_atomic,
    ri_qp_post_datagram,
    ri_qp_postrq,
    ri_qp_post_recv,
    // S-RQ (ops-srq.ts; posting: ops-post.ts)
    ri_srq_create,
    ri_srq_query,
    ri_srq_modify,
    ri_srq_destroy,
    ri_srq_post,
    ri_srq_post_recv,
    // memory regions and windows (ops-pd-mr.ts)
    ri_ltag_alloc,
    ri_mr_reg,
    ri_mr_query,
    ri_mr_rereg,
    ri_mr_dereg,
    ri_mr_reg_phys,
    ri_mr_rereg_phys,
    ri_mr_reg_shared,
    ri_mw_alloc,
    ri_mw_dealloc,
    ri_mw_query,
    // pin / map / sync (ops-mem.ts)
    ri_mem_pin,
    ri_mem_unpin,
    ri_mem_map,
    ri_mem_unmap,
    ri_mem_sync_rread,
    ri_mem_sync_rwrite,
    // InfiniBand only (ops-ud.ts)
    ri_ah_create,
    ri_ah_query,
    ri_ah_modify,
    ri_ah_destroy,
    ri_mcast_attach,
    ri_mcast_detach,
    ri_process_sma_mad,
  };
  if (user) {
    const stub = riFail(RiRet.NO_PERMISSION);
    for (const name of KERNEL_ONLY) (ops as unknown as Record<string, () => unknown>)[name] = () => stub;
  }
  return Object.freeze(ops);
}

// The four vectors and the lifecycle helpers
// =============================================================================================

/** Kernel (P-RNICPI), AL-serialized: the vector given to `ri_svc_attach` as `al_locking_ops`. */
export const SOFTRDMA_KERNEL_OPS: ri_ops_t = makeOps(false, () => SOFTRDMA_KERNEL_OPS);
/** Kernel, VP-serialized (`vp_locking_ops`). */
export const SOFTRDMA_KERNEL_VP_OPS: ri_ops_t = makeOps(false, () => SOFTRDMA_KERNEL_VP_OPS);
/** User-level (NP-RNICPI, the uVP), AL-serialized: kernel-only calls answer NO_PERMISSION. */
export const SOFTRDMA_USER_OPS: ri_ops_t = makeOps(true, () => SOFTRDMA_USER_OPS);
/** User-level, VP-serialized. */
export const SOFTRDMA_USER_VP_OPS: ri_ops_t = makeOps(true, () => SOFTRDMA_USER_VP_OPS);

/** Sanity check at load: every vector implements the 63 calls. */
for (const v of [SOFTRDMA_KERNEL_OPS, SOFTRDMA_KERNEL_VP_OPS, SOFTRDMA_USER_OPS, SOFTRDMA_USER_VP_OPS]) {
  for (const name of RI_OPS_ORDER) {
    if (typeof v[name] !== 'function') throw new RiError(RiRet.FAIL, `softrdma provider lacks ${name}`);
  }
}

/** Creates one softrdma RNIC (a VP handle), not yet attached or opened. */
export function createSoftrdmaVp(config: Partial<RnicConfig> = {}): SoftrdmaVp {
  return new SoftrdmaVp(SOFTRDMA_KERNEL_OPS, { ...DEFAULT_CONFIG, ...config, limits: { ...DEFAULT_CONFIG.limits, ...config.limits } });
}

/** The `ri_svcs_dev_arg_t` softrdma announces for `vp`. */
export function softrdmaDevArg(vp: SoftrdmaVp): ri_svcs_dev_arg_t {
  return {
    rnicpi_major_version: RNICPI_MAJOR_VERSION,
    rnicpi_minor_version: RNICPI_MINOR_VERSION,
    fw_major_version: 0,
    fw_minor_version: 1,
    fw_sub_minor_version: 0,
    // Room for a full answer with port info (addresses may change; the hint is generous).
    query_size: rnicAttrSize(rnicAttrs(vp, true)) + 256,
    lib_path: SOFTRDMA_LIB_PATH,
    hw_path: `softrdma:${vp.name}`,
  };
}

/**
 * Releases everything an address domain still holds through `rnic` and frees the handle, in
 * the order the destroy guards require (windows, QPs, regions, S-RQs, CQs, PDs). This is what
 * an access layer does when a user domain terminates (RNICPI Ch. 3.2.6): afterwards no
 * registration of the domain remains, so its memory may be reused.
 */
export function softrdmaTerminateDomain(vp_hdl: ri_vp_handle_t, rnic: unknown): RiStatus {
  const vp = vpOf(vp_hdl);
  if (!vp) return riFail(RiRet.VP_INVALID_HANDLE);
  if (!(rnic instanceof SoftrdmaRnicHandle) || rnic.freed || rnic.vp !== vp) return riFail(RiRet.RNIC_INVALID_HANDLE);
  const e = vp.engine;
  const all = [...rnic.objects];
  const step = <T extends ObjHandle>(cls: ObjClass<T>, destroy: (h: T) => RiRet): RiRet => {
    for (const h of all) {
      if (!(h instanceof cls) || h.dead) continue;
      const st = destroy(h);
      if (st !== RiRet.SUCCESS) return st;
      h.kill();
    }
    return RiRet.SUCCESS;
  };
  const steps: (() => RiRet)[] = [
    () => step(MwHandle, (h) => mwDealloc(e, h.mem)),
    () =>
      step(QpHandle, (h) => {
        // A terminated domain leaves its multicast groups too (Destroy QP refuses an attached QP).
        if (h.qp.mcastAttached) for (const m of [...h.qp.mcast.values()]) e.mcastDetach(h.qp, m, 0);
        const st = e.qpDestroy(h.qp);
        if (st === RiRet.SUCCESS) releaseSpecialCqs(h.qp);
        return st;
      }),
    () => step(MrHandle, (h) => mrDereg(e, h.mem)),
    () => step(SrqHandle, (h) => e.srqDestroy(h.srq)),
    () => step(CqHandle, (h) => e.cqDestroy(h.cq)),
    () =>
      step(AhHandle, (h) => {
        destroyAh(h);
        return RiRet.SUCCESS;
      }),
    () => step(PdHandle, (h) => e.pdDealloc(h.pd)),
  ];
  for (const s of steps) {
    const st = s();
    if (st !== RiRet.SUCCESS) return riFail(st as Exclude<RiRet, RiRet.SUCCESS>);
  }
  return SOFTRDMA_KERNEL_OPS.ri_rnic_free_hdl(vp, rnic);
}

// =============================================================================================
// Registry entry
// =============================================================================================

/** Options of the "softrdma" provider factory. */
export interface SoftrdmaProviderOptions {
  /** Number of iWARP RNICs to attach (default 1), named `softrdma0`, `softrdma1` … */
  rnics?: number;
  /** Number of RoCEv2 RNICs to attach after them (default 0), named `softroce0` … */
  roce?: number;
  /** Engine configuration overrides (name gets a per-RNIC suffix). */
  config?: Partial<RnicConfig>;
  /** `dev_info` given to `ri_svc_attach` (default: the RNIC name). */
  devInfo?: string;
}

/** A loaded softrdma provider. */
export interface SoftrdmaProviderInstance extends RiProviderInstance {
  /** The attached RNICs. */
  readonly vps: readonly SoftrdmaVp[];
  unload(): void;
}

/**
 * The registry factory: creates the RNICs and attaches each with the AL-serialized and the
 * VP-serialized kernel vectors (the AL may open the RNIC from inside `ri_svc_attach`).
 * Throws {@link RiError} if the AL refuses an attachment.
 */
export function softrdmaProviderFactory(env: RiProviderEnv): SoftrdmaProviderInstance {
  const o = env.options as SoftrdmaProviderOptions;
  const count = o.rnics ?? 1;
  const vps: SoftrdmaVp[] = [];
  const baseName = o.config?.name ?? 'softrdma';
  const configs: Partial<RnicConfig>[] = [];
  for (let i = 0; i < count; i++) configs.push({ ...o.config, name: `${baseName}${i}` });
  for (let i = 0; i < (o.roce ?? 0); i++) configs.push(roceConfig(o.config, i));
  for (const cfg of configs) {
    const vp = createSoftrdmaVp(cfg);
    const st = env.svc.ri_svc_attach(vp, o.devInfo ?? vp.name, softrdmaDevArg(vp), SOFTRDMA_KERNEL_OPS, SOFTRDMA_KERNEL_VP_OPS);
    if (st.status !== RiRet.SUCCESS) {
      for (const v of vps) env.svc.ri_svc_detach(v);
      throw new RiError(st.status, `ri_svc_attach(${vp.name})`);
    }
    vps.push(vp);
  }
  return {
    name: SOFTRDMA_PROVIDER_NAME,
    vps,
    unload() {
      for (const vp of vps) {
        if (vp.open && vp.handles.size === 0) SOFTRDMA_KERNEL_OPS.ri_rnic_close(vp);
        env.svc.ri_svc_detach(vp);
      }
    },
  };
}

if (!getProvider(SOFTRDMA_PROVIDER_NAME)) registerProvider(SOFTRDMA_PROVIDER_NAME, softrdmaProviderFactory);

/** The RoCEv2 counters' names, meanings and published values, for `softrdma stat` (roce/counters.ts). */
export { countersDir, runtimeDir, type PublishedCounters, readPublishedCounters, ROCE_COUNTERS } from '../roce/counters.js';

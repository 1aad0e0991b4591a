/**
 * A minimal kernel access layer: the SVC-RNICPI services (`ri_svc_ops_t`) a provider needs to
 * attach its RNICs, plus provider loading through the registry.
 *
 * It does what RNICPI Ch. 7 (`ri_svc_attach` … `ri_svc_mem_unpin`) requires of the AL and no
 * more: it validates attachments (handle, device info, services, versions, paths), refuses a
 * second attachment and a detach while the RNIC is open, checks uVP library registrations
 * against the open RNICs, and pins memory for providers. Consumers reach an attached RNIC
 * through {@link RiAccessLayer.opsFor}, whose `ri_rnic_open`/`ri_rnic_close` let the AL follow
 * the RNIC's open state (as a real AL does, being the one that opens RNICs).
 *
 * @module
 */
import type { ri_ops_t, ri_svc_ops_t } from '../rnicpi/ops.js';
import { PinTable } from './softrdma.js';
import { getProvider, type RiProviderInstance } from '../rnicpi/registry.js';
import { RI_OK, RiError, RiRet, riFail } from '../rnicpi/status.js';
import {
  isRiHandle,
  RI_MAX_HW_PATH_LEN,
  RI_MAX_LIB_PATH_LEN,
  RNICPI_MAJOR_VERSION,
  type ri_pbl_mode_t,
  type ri_svcs_dev_arg_t,
  type ri_vp_handle_t,
} from '../rnicpi/types.js';

/** One attached RNIC as the AL sees it. */
export interface RiAttachment {
  readonly vp_hdl: ri_vp_handle_t;
  readonly dev_info: string;
  readonly svcs: ri_svcs_dev_arg_t;
  readonly al_locking_ops: ri_ops_t;
  readonly vp_locking_ops: ri_ops_t | null;
  /** The consumer-facing vector (AL-serialized ops; open/close tracked). */
  readonly ops: ri_ops_t;
  open: boolean;
}

export interface RiAccessLayer {
  /** The SVC-RNICPI given to providers. */
  readonly svc: ri_svc_ops_t;
  /** Attached RNICs, in attach order. */
  attachments(): RiAttachment[];
  /** The consumer vector of an attached RNIC. */
  opsFor(vp_hdl: ri_vp_handle_t): ri_ops_t | undefined;
  /** uVP libraries registered with `ri_svc_lib_reg`. */
  libraries(): string[];
}

export interface RiAccessLayerOptions {
  /**
   * Called inside `ri_svc_attach` once the RNIC is recorded, with its consumer vector: the AL
   * may open the RNIC from here (RNICPI Ch. 7 `ri_rnic_open`).
   */
  onAttach?: (att: RiAttachment) => void;
}

/** Creates an access layer. */
export function createAccessLayer(opts: RiAccessLayerOptions = {}): RiAccessLayer {
  const atts = new Map<ri_vp_handle_t, RiAttachment>();
  const libs = new Map<string, { al: ri_ops_t; vp: ri_ops_t | null; os_data: unknown }>();
  const pins = new PinTable();

  const svc: ri_svc_ops_t = {
    ri_svc_attach(vp_hdl, dev_info, svcs, al_locking_ops, vp_locking_ops) {
      if (!isRiHandle(vp_hdl, 'vp')) return riFail(RiRet.VP_INVALID_HANDLE);
      if (svcs === null || typeof svcs !== 'object' || al_locking_ops === null || typeof al_locking_ops !== 'object') {
        return riFail(RiRet.INVALID_PARAMETER);
      }
      if (typeof dev_info !== 'string' || dev_info.length === 0) return riFail(RiRet.INVALID_DEV_INFO);
      if (svcs.rnicpi_major_version !== RNICPI_MAJOR_VERSION) return riFail(RiRet.INVALID_VP_VERSION);
      if (typeof svcs.lib_path !== 'string' || svcs.lib_path.length >= RI_MAX_LIB_PATH_LEN) {
        return riFail(RiRet.INVALID_LIB_PATH);
      }
      if (typeof svcs.hw_path !== 'string' || svcs.hw_path.length >= RI_MAX_HW_PATH_LEN) {
        return riFail(RiRet.INVALID_HW_PATH);
      }
      if (atts.has(vp_hdl)) return riFail(RiRet.RNIC_INUSE);
      const inner = al_locking_ops;
      const att: RiAttachment = {
        vp_hdl,
        dev_info,
        svcs: { ...svcs },
        al_locking_ops,
        vp_locking_ops,
        open: false,
        ops: Object.freeze({
          ...inner,
          ri_rnic_open(vp: ri_vp_handle_t, mode: ri_pbl_mode_t, os_data: unknown) {
            const r = inner.ri_rnic_open(vp, mode, os_data);
            if (r.status === RiRet.SUCCESS && vp === vp_hdl) att.open = true;
            return r;
          },
          ri_rnic_close(vp: ri_vp_handle_t) {
            const r = inner.ri_rnic_close(vp);
            if (r.status === RiRet.SUCCESS && vp === vp_hdl) att.open = false;
            return r;
          },
        }),
      };
      atts.set(vp_hdl, att);
      opts.onAttach?.(att);
      return RI_OK;
    },
    ri_svc_detach(vp_hdl) {
      const att = atts.get(vp_hdl);
      if (!att) return riFail(RiRet.VP_INVALID_HANDLE);
      if (att.open) return riFail(RiRet.RNIC_INUSE);
      atts.delete(vp_hdl);
      return RI_OK;
    },
    ri_svc_lib_reg(lib_path, al_locking_ops, vp_locking_ops, os_data) {
      if (al_locking_ops === null || typeof al_locking_ops !== 'object') return riFail(RiRet.INVALID_PARAMETER);
      if (typeof lib_path !== 'string' || lib_path.length >= RI_MAX_LIB_PATH_LEN) return riFail(RiRet.INVALID_LIB_PATH);
      const announced = [...atts.values()].some((a) => a.open && a.svcs.lib_path === lib_path);
      if (!announced) return riFail(RiRet.INVALID_LIB_PATH);
      libs.set(lib_path, { al: al_locking_ops, vp: vp_locking_ops, os_data });
      return RI_OK;
    },
    ri_svc_mem_pin(vaddr, len, os_data) {
      const st = pins.pin(vaddr, len, os_data);
      return st === RiRet.SUCCESS ? RI_OK : riFail(st as Exclude<RiRet, RiRet.SUCCESS>);
    },
    ri_svc_mem_unpin(vaddr, len, os_data) {
      const st = pins.unpin(vaddr, len, os_data);
      return st === RiRet.SUCCESS ? RI_OK : riFail(st as Exclude<RiRet, RiRet.SUCCESS>);
    },
  };

  return {
    svc: Object.freeze(svc),
    attachments: () => [...atts.values()],
    opsFor: (vp) => atts.get(vp)?.ops,
    libraries: () => [...libs.keys()],
  };
}

/**
 * Loads the provider registered as `name` into `al` (its factory attaches its RNICs).
 * Throws {@link RiError} `INVALID_PARAMETER` for an unknown name.
 */
export function riLoadProvider<T extends RiProviderInstance = RiProviderInstance>(
  al: RiAccessLayer,
  name: string,
  options: Readonly<Record<string, unknown>> = {},
): T {
  const factory = getProvider(name);
  if (!factory) throw new RiError(RiRet.INVALID_PARAMETER, `no provider '${name}'`);
  return factory({ svc: al.svc, options }) as T;
}

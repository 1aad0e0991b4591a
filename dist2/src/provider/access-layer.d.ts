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
import { type RiProviderInstance } from '../rnicpi/registry.js';
import { type ri_svcs_dev_arg_t, type ri_vp_handle_t } from '../rnicpi/types.js';
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
export declare function createAccessLayer(opts?: RiAccessLayerOptions): RiAccessLayer;
/**
 * Loads the provider registered as `name` into `al` (its factory attaches its RNICs).
 * Throws {@link RiError} `INVALID_PARAMETER` for an unknown name.
 */
export declare function riLoadProvider<T extends RiProviderInstance = RiProviderInstance>(al: RiAccessLayer, name: string, options?: Readonly<Record<string, unknown>>): T;

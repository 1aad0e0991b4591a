import '../roce/transport.js';
import { Rnic, type RnicConfig } from '../rnic/rnic.js';
import { type ri_ops_t } from '../rnicpi/ops.js';
import { type RiProviderEnv, type RiProviderInstance } from '../rnicpi/registry.js';
import { RiRet, type RiStatus } from '../rnicpi/status.js';
import { RI_HANDLE_KIND, RiConsumerDomain, RiPblMode, RiTransportType, type ri_rnic_attr_t, type ri_svcs_dev_arg_t, type ri_vp_handle_t } from '../rnicpi/types.js';
/** Name of the provider in the registry. */
export declare const SOFTRDMA_PROVIDER_NAME = "softrdma";
/** `lib_path` announced in `ri_svc_attach` (the uVP: this module's user-level vectors). */
export declare const SOFTRDMA_LIB_PATH = "softrdma/rnicpi/provider";
/**
 * A softrdma RNIC as the VP names it (`ri_vp_handle_t`): one engine {@link Rnic}, kept for the
 * VP handle's life; `ri_rnic_open`/`ri_rnic_close` switch it on and off. Since close requires
 * every RNIC handle (hence every object) to be gone, nothing survives a close.
 */
export declare class SoftrdmaVp implements ri_vp_handle_t {
    readonly [RI_HANDLE_KIND]: "vp";
    /** The AL-serialized kernel vector (Ch. 10.2: a VP handle starts with its ops vector). */
    readonly ops: ri_ops_t;
    readonly engine: Rnic;
    open: boolean;
    pblMode: RiPblMode;
    /** RNIC handles not yet freed. */
    readonly handles: Set<SoftrdmaRnicHandle>;
    /** `ri_mem_pin` / `ri_mem_map` bookkeeping (same range and os_data to undo). */
    readonly pins: PinTable;
    readonly maps: Map<string, unknown[]>;
    /** Address handles held (IB), against `max_addr_hdls`. */
    ahCount: number;
    constructor(config?: RnicConfig);
    get name(): string;
    /** The RNIC's transport type (`ri_rnic_attr_t.transport_type`): IB for a RoCEv2 RNIC. */
    get transportType(): RiTransportType;
}
/** A consumer RNIC handle (`ri_rnic_get_hdl`). */
export declare class SoftrdmaRnicHandle {
    readonly vp: SoftrdmaVp;
    /** The vector `ri_rnic_get_hdl` was called through. */
    readonly ops: ri_ops_t;
    readonly location: RiConsumerDomain;
    readonly vpData: unknown;
    readonly osData: unknown;
    readonly [RI_HANDLE_KIND]: "rnic";
    freed: boolean;
    /** Objects created through this handle and not yet destroyed. */
    readonly objects: Set<ObjHandle>;
    constructor(vp: SoftrdmaVp, 
    /** The vector `ri_rnic_get_hdl` was called through. */
    ops: ri_ops_t, location: RiConsumerDomain, vpData: unknown, osData: unknown);
    /** P-RNICPI consumer (kernel location). */
    get privileged(): boolean;
    get engine(): Rnic;
}
declare abstract class ObjHandle {
    readonly owner: SoftrdmaRnicHandle;
    readonly vpData: unknown;
    readonly osData: unknown;
    abstract readonly [RI_HANDLE_KIND]: 'pd' | 'cq' | 'qp' | 'srq' | 'mr' | 'mw' | 'ah';
    dead: boolean;
    constructor(owner: SoftrdmaRnicHandle, vpData: unknown, osData: unknown);
    kill(): void;
}
/**
 * Reference-counted pins of exact ranges, each remembered with the `os_data` it was pinned with:
 * an unpin must name the same range and the same `os_data` (RNICPI Ch. 3.6, `ri_mem_pin`).
 */
export declare class PinTable {
    private readonly m;
    pin(vaddr: bigint, len: number, osData: unknown): RiRet;
    unpin(vaddr: bigint, len: number, osData: unknown): RiRet;
}
/** The RNIC flags softrdma sets: every one is backed by the engine (see the spec-notes). */
export declare const SOFTRDMA_RNIC_FLAGS: number;
/**
 * Notional byte size of a query answer (RNICPI lays the answer out in one caller buffer): the
 * C sizes of `ri_rnic_attr_t` (256 with the vendor string), `ri_iwarp_rnic_attr_t` (24), each
 * port (24) and each address (4 / 16).
 */
export declare function rnicAttrSize(a: ri_rnic_attr_t): number;
/** Kernel (P-RNICPI), AL-serialized: the vector given to `ri_svc_attach` as `al_locking_ops`. */
export declare const SOFTRDMA_KERNEL_OPS: ri_ops_t;
/** Kernel, VP-serialized (`vp_locking_ops`). */
export declare const SOFTRDMA_KERNEL_VP_OPS: ri_ops_t;
/** User-level (NP-RNICPI, the uVP), AL-serialized: kernel-only calls answer NO_PERMISSION. */
export declare const SOFTRDMA_USER_OPS: ri_ops_t;
/** User-level, VP-serialized. */
export declare const SOFTRDMA_USER_VP_OPS: ri_ops_t;
/**
 * The configuration of the `i`th RoCEv2 RNIC: the InfiniBand transport (its binder is the
 * RoCEv2 transport's, `registerIbBinder('rocev2', …)`), the GID table of the host's IPv4
 * addresses or of `SOFTRDMA_ROCE_ADDRS` (read at each query, so address changes show), the UDP
 * port of `SOFTRDMA_ROCE_PORT` (default 4791), and an active MTU of 1024, as Linux rxe derives
 * it from a 1500-octet Ethernet MTU.
 */
export declare function roceConfig(base: Partial<RnicConfig> | undefined, i: number): Partial<RnicConfig>;
/** Creates one softrdma RNIC (a VP handle), not yet attached or opened. */
export declare function createSoftrdmaVp(config?: Partial<RnicConfig>): SoftrdmaVp;
/** The `ri_svcs_dev_arg_t` softrdma announces for `vp`. */
export declare function softrdmaDevArg(vp: SoftrdmaVp): ri_svcs_dev_arg_t;
/**
 * Releases everything an address domain still holds through `rnic` and frees the handle, in
 * the order the destroy guards require (windows, QPs, regions, S-RQs, CQs, PDs). This is what
 * an access layer does when a user domain terminates (RNICPI Ch. 3.2.6): afterwards no
 * registration of the domain remains, so its memory may be reused.
 */
export declare function softrdmaTerminateDomain(vp_hdl: ri_vp_handle_t, rnic: unknown): RiStatus;
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
export declare function softrdmaProviderFactory(env: RiProviderEnv): SoftrdmaProviderInstance;
export {};

/**
 * Provider registry and caller identity.
 *
 * A verbs provider is registered by name with a factory. The access layer (the "OS") loads a
 * provider by calling its factory with the SVC-RNICPI services; the provider then attaches each
 * of its RNICs with `svc.ri_svc_attach(vp_hdl, dev_info, svcs, al_locking_ops, vp_locking_ops)`
 * — exactly as a C kVP's module initializer would (Ch. 9.1.1). The registry itself does no
 * RNICPI policy; handle validation, privilege checks and cleanup belong to the AL.
 *
 * @module
 */
import { type RiOpName, type ri_svc_ops_t } from './ops.js';
import { RiRet } from './status.js';
import { RiConsumerDomain } from './types.js';
/**
 * Who is calling an `ri_*` operation, as the AL sees it. `privileged` models the P-RNICPI vs
 * NP-RNICPI split (kernel consumer vs user consumer); `domain` names the address domain whose
 * handles the caller may use (Ch. 4.5: handles are valid only in the domain that created them).
 */
export interface RiCaller {
    readonly privileged: boolean;
    readonly location: RiConsumerDomain;
    /** Address-domain identity (e.g. a process or session id); handles never cross domains. */
    readonly domain: string;
    /**
     * Credentials beyond the default: `'phys-reg'` lets a user caller use `ri_ltag_alloc`,
     * `ri_mr_reg_phys`, `ri_mr_rereg_phys` (Ch. 7: not granted by default).
     */
    readonly credentials?: readonly string[];
}
/** The kernel (privileged) caller. */
export declare const RI_KERNEL_CALLER: RiCaller;
/** A non-privileged (user) caller in address domain `domain`. */
export declare function riUserCaller(domain: string, credentials?: readonly string[]): RiCaller;
/**
 * The AL's static privilege gate for a call: `NO_PERMISSION` if `caller` may never make it,
 * else `SUCCESS`. Per-argument rules (fast-register WRs, `enable_stag0_fastreg`, writable VA
 * ranges, handle ownership) are not covered here.
 */
export declare function riCheckPermission(caller: RiCaller, op: RiOpName): RiRet;
/** What a provider factory is given when the AL loads it. */
export interface RiProviderEnv {
    /** SVC-RNICPI services of the loading access layer. */
    readonly svc: ri_svc_ops_t;
    /** Provider-specific options (e.g. number of RNICs, interface names, limits). */
    readonly options: Readonly<Record<string, unknown>>;
}
/** A loaded provider instance. */
export interface RiProviderInstance {
    /** Registry name it was loaded under. */
    readonly name: string;
    /**
     * Unloads the provider (module exit): it must have closed and detached (`ri_svc_detach`) every
     * RNIC it attached. Optional for providers with nothing to release.
     */
    unload?(): void;
}
/** Creates a provider instance; normally calls `env.svc.ri_svc_attach` once per RNIC. */
export type RiProviderFactory = (env: RiProviderEnv) => RiProviderInstance;
/**
 * Registers a provider under `name`. Throws {@link RiError} `INVALID_PARAMETER` for an empty
 * name and `RNIC_INUSE` if the name is taken (unregister first).
 */
export declare function registerProvider(name: string, factory: RiProviderFactory): void;
/** Removes a provider registration; returns whether one existed. */
export declare function unregisterProvider(name: string): boolean;
/** The factory registered under `name`, if any. */
export declare function getProvider(name: string): RiProviderFactory | undefined;
/** Names of all registered providers, in registration order. */
export declare function listProviders(): string[];

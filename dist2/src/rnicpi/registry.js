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
import { RI_OP_INFO } from './ops.js';
import { RiError, RiRet } from './status.js';
import { RiConsumerDomain } from './types.js';
/** The kernel (privileged) caller. */
export const RI_KERNEL_CALLER = Object.freeze({
    privileged: true,
    location: RiConsumerDomain.KERNEL,
    domain: 'kernel',
});
/** A non-privileged (user) caller in address domain `domain`. */
export function riUserCaller(domain, credentials) {
    return Object.freeze({
        privileged: false,
        location: RiConsumerDomain.USER,
        domain,
        ...(credentials === undefined ? {} : { credentials: Object.freeze([...credentials]) }),
    });
}
/**
 * The AL's static privilege gate for a call: `NO_PERMISSION` if `caller` may never make it,
 * else `SUCCESS`. Per-argument rules (fast-register WRs, `enable_stag0_fastreg`, writable VA
 * ranges, handle ownership) are not covered here.
 */
export function riCheckPermission(caller, op) {
    if (caller.privileged)
        return RiRet.SUCCESS;
    switch (RI_OP_INFO[op].privilege) {
        case 'kernel-only':
        case 'privileged-only':
            return RiRet.NO_PERMISSION;
        case 'privileged-by-default':
            return caller.credentials?.includes('phys-reg') ? RiRet.SUCCESS : RiRet.NO_PERMISSION;
        default:
            return RiRet.SUCCESS;
    }
}
const providers = new Map();
/**
 * Registers a provider under `name`. Throws {@link RiError} `INVALID_PARAMETER` for an empty
 * name and `RNIC_INUSE` if the name is taken (unregister first).
 */
export function registerProvider(name, factory) {
    if (name.length === 0)
        throw new RiError(RiRet.INVALID_PARAMETER, 'provider name is empty');
    if (providers.has(name))
        throw new RiError(RiRet.RNIC_INUSE, `provider '${name}' is already registered`);
    providers.set(name, factory);
}
/** Removes a provider registration; returns whether one existed. */
export function unregisterProvider(name) {
    return providers.delete(name);
}
/** The factory registered under `name`, if any. */
export function getProvider(name) {
    return providers.get(name);
}
/** Names of all registered providers, in registration order. */
export function listProviders() {
    return [...providers.keys()];
}
//# sourceMappingURL=registry.js.map
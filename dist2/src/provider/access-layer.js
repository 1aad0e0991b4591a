import { PinTable } from './softrdma.js';
import { getProvider } from '../rnicpi/registry.js';
import { RI_OK, RiError, RiRet, riFail } from '../rnicpi/status.js';
import { isRiHandle, RI_MAX_HW_PATH_LEN, RI_MAX_LIB_PATH_LEN, RNICPI_MAJOR_VERSION, } from '../rnicpi/types.js';
/** Creates an access layer. */
export function createAccessLayer(opts = {}) {
    const atts = new Map();
    const libs = new Map();
    const pins = new PinTable();
    const svc = {
        ri_svc_attach(vp_hdl, dev_info, svcs, al_locking_ops, vp_locking_ops) {
            if (!isRiHandle(vp_hdl, 'vp'))
                return riFail(RiRet.VP_INVALID_HANDLE);
            if (svcs === null || typeof svcs !== 'object' || al_locking_ops === null || typeof al_locking_ops !== 'object') {
                return riFail(RiRet.INVALID_PARAMETER);
            }
            if (typeof dev_info !== 'string' || dev_info.length === 0)
                return riFail(RiRet.INVALID_DEV_INFO);
            if (svcs.rnicpi_major_version !== RNICPI_MAJOR_VERSION)
                return riFail(RiRet.INVALID_VP_VERSION);
            if (typeof svcs.lib_path !== 'string' || svcs.lib_path.length >= RI_MAX_LIB_PATH_LEN) {
                return riFail(RiRet.INVALID_LIB_PATH);
            }
            if (typeof svcs.hw_path !== 'string' || svcs.hw_path.length >= RI_MAX_HW_PATH_LEN) {
                return riFail(RiRet.INVALID_HW_PATH);
            }
            if (atts.has(vp_hdl))
                return riFail(RiRet.RNIC_INUSE);
            const inner = al_locking_ops;
            const att = {
                vp_hdl,
                dev_info,
                svcs: { ...svcs },
                al_locking_ops,
                vp_locking_ops,
                open: false,
                ops: Object.freeze({
                    ...inner,
                    ri_rnic_open(vp, mode, os_data) {
                        const r = inner.ri_rnic_open(vp, mode, os_data);
                        if (r.status === RiRet.SUCCESS && vp === vp_hdl)
                            att.open = true;
                        return r;
                    },
                    ri_rnic_close(vp) {
                        const r = inner.ri_rnic_close(vp);
                        if (r.status === RiRet.SUCCESS && vp === vp_hdl)
                            att.open = false;
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
            if (!att)
                return riFail(RiRet.VP_INVALID_HANDLE);
            if (att.open)
                return riFail(RiRet.RNIC_INUSE);
            atts.delete(vp_hdl);
            return RI_OK;
        },
        ri_svc_lib_reg(lib_path, al_locking_ops, vp_locking_ops, os_data) {
            if (al_locking_ops === null || typeof al_locking_ops !== 'object')
                return riFail(RiRet.INVALID_PARAMETER);
            if (typeof lib_path !== 'string' || lib_path.length >= RI_MAX_LIB_PATH_LEN)
                return riFail(RiRet.INVALID_LIB_PATH);
            const announced = [...atts.values()].some((a) => a.open && a.svcs.lib_path === lib_path);
            if (!announced)
                return riFail(RiRet.INVALID_LIB_PATH);
            libs.set(lib_path, { al: al_locking_ops, vp: vp_locking_ops, os_data });
            return RI_OK;
        },
        ri_svc_mem_pin(vaddr, len, os_data) {
            const st = pins.pin(vaddr, len, os_data);
            return st === RiRet.SUCCESS ? RI_OK : riFail(st);
        },
        ri_svc_mem_unpin(vaddr, len, os_data) {
            const st = pins.unpin(vaddr, len, os_data);
            return st === RiRet.SUCCESS ? RI_OK : riFail(st);
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
export function riLoadProvider(al, name, options = {}) {
    const factory = getProvider(name);
    if (!factory)
        throw new RiError(RiRet.INVALID_PARAMETER, `no provider '${name}'`);
    return factory({ svc: al.svc, options });
}
//# sourceMappingURL=access-layer.js.map
/**
 * IT-API 2.1 over RNICPI: Protection Zones (`it_pz_*`; IT-API 2.1 Ch. 6, the PZ group).
 *
 * @module
 */
import { RiRet } from '../rnicpi/status.js';
import type { ItApi } from './api.js';
import { check, fail, Ia, Pz } from './objects.js';
import { it_status_t as S } from './status.js';
import { it_pz_param_mask_t as PZM } from './types.js';
import { checkMask, pick } from './impl-common.js';

/** The PZ group of {@link ItApi}. */
export const itPz: Pick<ItApi, 'it_pz_create' | 'it_pz_free' | 'it_pz_query'> = {
  it_pz_create(ia_handle) {
    const ia = check(ia_handle, Ia, S.IT_ERR_INVALID_IA);
    const r = ia.ops.ri_pd_alloc(ia.rnic, null, null);
    if (r.status !== RiRet.SUCCESS) fail(S.IT_ERR_RESOURCES, `ri_pd_alloc: ${RiRet[r.status]}`);
    const pz = new Pz(ia, r.pd);
    ia.pzs.add(pz);
    return pz;
  },

  it_pz_free(pz_handle) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    if (!pz.free()) fail(S.IT_ERR_PZ_BUSY);
  },

  it_pz_query(pz_handle, mask) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    checkMask(mask, PZM.IT_PZ_PARAM_ALL | PZM.IT_PZ_PARAM_IA);
    return pick(mask, { ia: pz.ia }, [[PZM.IT_PZ_PARAM_IA, 'ia']]);
  },
};

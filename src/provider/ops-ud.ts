/**
 * The InfiniBand-only calls (RNICPI 1.0 Ch. 7): address handles (`ri_ah_*`), multicast
 * (`ri_mcast_attach`, `ri_mcast_detach`) and `ri_process_sma_mad`. An iWARP RNIC answers
 * XPORT_UNSUPPORTED.
 *
 * @module
 */
import { type Qp, resolveAv } from '../rnic/qp.js';
import type { Rnic } from '../rnic/rnic.js';
import type { IbAv } from '../rnic/transport.js';
import { avOfRi, MAX_AHS, gidOfRi, riOfAv } from './ib.js';
import { RI_OK, RiRet, type RiStatus, riFail, riOk, riStatus } from '../rnicpi/status.js';
import type { ri_address_handle_t, ri_gid_t, ri_ud_address_vector_t } from '../rnicpi/types.js';
import { type RiOp, type SoftrdmaRnicHandle, PdHandle, QpHandle, AhHandle, objOf, XPORT } from './handles.js';

/** Validates an `ri_ud_address_vector_t` with the core's AV rule. */
function ahAv(r: SoftrdmaRnicHandle, av: ri_ud_address_vector_t | null): IbAv | RiRet {
  if (!av || typeof av !== 'object') return RiRet.INVALID_PARAMETER;
  const a = avOfRi(av.av_common, av.physical_port);
  if (!a) return RiRet.INVALID_PARAMETER;
  return resolveAv(r.engine, a);
}

export function destroyAh(h: AhHandle): void {
  h.pdH.pd.users--;
  h.owner.vp.ahCount--;
  h.kill();
}

export const ri_ah_create: RiOp<'ri_ah_create'> = (rnic, pd, av, vp_data, os_data) => {
  const p = objOf(rnic, pd, PdHandle, RiRet.PD_INVALID_HANDLE, true);
  if (typeof p === 'number') return riFail(p);
  const r = p.owner;
  const a = ahAv(r, av);
  if (typeof a === 'number') return riFail(a as Exclude<RiRet, RiRet.SUCCESS>);
  if (r.vp.ahCount >= MAX_AHS) return riFail(RiRet.RESOURCE_SHORTAGE);
  r.vp.ahCount++;
  p.pd.users++;
  return riOk({ ah: new AhHandle(r, p, a, vp_data, os_data) as unknown as ri_address_handle_t });
};

export const ri_ah_query: RiOp<'ri_ah_query'> = (rnic, ah) => {
  const h = objOf(rnic, ah, AhHandle, RiRet.ADDRESS_HANDLE_INVALID, true);
  if (typeof h === 'number') return riFail(h);
  return riOk({ av: { av_common: riOfAv(h.av), physical_port: h.av.port }, pd: h.pdH });
};

export const ri_ah_modify: RiOp<'ri_ah_modify'> = (rnic, ah, av) => {
  const h = objOf(rnic, ah, AhHandle, RiRet.ADDRESS_HANDLE_INVALID, true);
  if (typeof h === 'number') return riFail(h);
  const r = h.owner;
  const a = ahAv(r, av);
  if (typeof a === 'number') return riFail(a as Exclude<RiRet, RiRet.SUCCESS>);
  h.av = a;
  return RI_OK;
};

export const ri_ah_destroy: RiOp<'ri_ah_destroy'> = (rnic, ah) => {
  const h = objOf(rnic, ah, AhHandle, RiRet.ADDRESS_HANDLE_INVALID, true);
  if (typeof h === 'number') return riFail(h);
  destroyAh(h);
  return RI_OK;
};

/** `ri_mcast_attach` and `ri_mcast_detach`: the QP, then the group's MGID, then the engine. */
function mcast(rnic: unknown, qp: unknown, mgid: ri_gid_t, run: (e: Rnic, qp: Qp, mgid: Uint8Array) => RiRet): RiStatus {
  const h = objOf(rnic, qp, QpHandle, RiRet.QP_INVALID_HANDLE, true);
  if (typeof h === 'number') return riFail(h);
  const g = gidOfRi(mgid);
  if (!g) return riFail(RiRet.MGID_INVALID);
  return riStatus(run(h.owner.engine, h.qp, g));
}

export const ri_mcast_attach: RiOp<'ri_mcast_attach'> = (rnic, mlid, mgid, qp) =>
  mcast(rnic, qp, mgid, (e, q, g) => e.mcastAttach(q, g, mlid));

export const ri_mcast_detach: RiOp<'ri_mcast_detach'> = (rnic, mlid, mgid, qp) =>
  mcast(rnic, qp, mgid, (e, q, g) => e.mcastDetach(q, g, mlid));

export const ri_process_sma_mad: RiOp<'ri_process_sma_mad'> = () => {
  return XPORT;
};

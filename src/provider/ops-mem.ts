/**
 * Pinning, mapping and synchronising host memory (RNICPI 1.0 Ch. 7: `ri_mem_pin`,
 * `ri_mem_unpin`, `ri_mem_map`, `ri_mem_unmap`, `ri_mem_sync_rread`, `ri_mem_sync_rwrite`).
 *
 * @module
 */
import { hostMemory } from '../rnic/hostmem.js';
import { RI_OK, RiRet, type RiStatus, riFail, riOk, riStatus } from '../rnicpi/status.js';
import type { ri_data_seg_t, ri_phys_buf_t } from '../rnicpi/types.js';
import { type RiOp, rnicOf } from './handles.js';

function memSync(rnic: unknown, list: readonly ri_data_seg_t[] | null, num_seg: number | undefined): RiStatus {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  const n = num_seg ?? list?.length ?? 0;
  if (!Number.isInteger(n) || n < 0) return riFail(RiRet.INVALID_PARAMETER);
  if (n > 0 && (list === null || !Array.isArray(list) || n > list.length)) return riFail(RiRet.INVALID_PARAMETER);
  for (let i = 0; i < n; i++) {
    const s = list![i]!;
    if (!s || typeof s.addr !== 'bigint' || !Number.isInteger(s.len) || s.len < 0) return riFail(RiRet.INVALID_PARAMETER);
    const m = r.engine.stags.byStagIndex(s.tag);
    if (!m || m.destroyed || m.isMw || m.key !== (s.tag & 0xff)) return riFail(RiRet.MEM_INVALID_LTAG);
    const off = s.addr - m.base;
    if (off < 0n || off > BigInt(m.length)) return riFail(RiRet.MEM_INVALID_ADDRESS);
    if (off + BigInt(s.len) > BigInt(m.length)) return riFail(RiRet.MEM_INVALID_LENGTH);
  }
  // softrdma memory is coherent (RI_RNIC_NON_COHERENT_MEMORY clear): nothing to synchronise.
  return RI_OK;
}

export const ri_mem_pin: RiOp<'ri_mem_pin'> = (rnic, vaddr, len, os_data) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (!r.privileged) return riFail(RiRet.NO_PERMISSION);
  return riStatus(r.vp.pins.pin(vaddr, len, os_data));
};

export const ri_mem_unpin: RiOp<'ri_mem_unpin'> = (rnic, vaddr, len, os_data) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (!r.privileged) return riFail(RiRet.NO_PERMISSION);
  return riStatus(r.vp.pins.unpin(vaddr, len, os_data));
};

export const ri_mem_map: RiOp<'ri_mem_map'> = (rnic, vaddr, len, os_data) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (!r.privileged) return riFail(RiRet.NO_PERMISSION);
  if (typeof vaddr !== 'bigint' || !Number.isInteger(len) || len <= 0) return riFail(RiRet.INVALID_PARAMETER);
  // Only pinned memory may be mapped (Ch. 7 ri_mem_map).
  if (!hostMemory.isPinned(vaddr, len)) return riFail(RiRet.INVALID_PARAMETER);
  // A host buffer is physically contiguous in softrdma: the whole range maps in one piece.
  const io: ri_phys_buf_t = { phys_address: hostMemory.physOf(vaddr), phys_len: BigInt(len) };
  const k = `${io.phys_address}:${io.phys_len}`;
  const l = r.vp.maps.get(k);
  if (l) l.push(os_data);
  else r.vp.maps.set(k, [os_data]);
  return riOk({ io });
};

export const ri_mem_unmap: RiOp<'ri_mem_unmap'> = (rnic, io, os_data) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (!r.privileged) return riFail(RiRet.NO_PERMISSION);
  if (!io || typeof io.phys_address !== 'bigint' || typeof io.phys_len !== 'bigint') {
    return riFail(RiRet.INVALID_PARAMETER);
  }
  const k = `${io.phys_address}:${io.phys_len}`;
  const l = r.vp.maps.get(k);
  const i = l ? l.indexOf(os_data) : -1;
  if (!l || i < 0) return riFail(RiRet.INVALID_PARAMETER);
  l.splice(i, 1);
  if (l.length === 0) r.vp.maps.delete(k);
  return RI_OK;
};

export const ri_mem_sync_rread: RiOp<'ri_mem_sync_rread'> = (rnic, list, num_seg) => {
  return memSync(rnic, list, num_seg);
};

export const ri_mem_sync_rwrite: RiOp<'ri_mem_sync_rwrite'> = (rnic, list, num_seg) => {
  return memSync(rnic, list, num_seg);
};

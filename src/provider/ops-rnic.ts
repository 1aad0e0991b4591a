/**
 * RNIC management (RNICPI 1.0 Ch. 7: `ri_rnic_open` … `ri_rnic_diag`): opening and closing the
 * RNIC, its consumer handles, `ri_rnic_query`'s attributes and their notional size, and the
 * diagnostics of `ri_rnic_diag`.
 *
 * @module
 */
import { networkInterfaces } from 'node:os';
import { SOFTRDMA_VENDOR_ID, SOFTRDMA_VENDOR_PART_ID } from './identity.js';
import { rnicAtomicCaps } from '../rnic/atomics.js';
import { countersByName, deviceCounters } from '../roce/counters.js';
import { RoceQp } from '../roce/transport.js';
import { MemKind, MrOrigin } from '../rnic/memory.js';
import { type Qp, QP_STATE_NAMES } from '../rnic/qp.js';
import { iwarpConfig, qpMpaAttrs } from '../iwarp/llp-attrs.js';
import { ibAttrSize, ibRnicAttrs } from './ib.js';
import type { AsyncHandler } from '../rnic/rnic.js';
import type { ri_ops_t } from '../rnicpi/ops.js';
import { RI_OK, RiRet, riFail, riOk } from '../rnicpi/status.js';
import {
  RiConsumerDomain,
  RiDiagOpType,
  RiIwarpProtocolVersion,
  RiIwarpRnicFlags,
  RiPblMode,
  RiRnicFlags,
  RiRnicQueryFlags,
  RiTransportType,
  type ri_iwarp_port_attr_t,
  type ri_rnic_attr_t,
} from '../rnicpi/types.js';
import { terminateShown } from './ops-qp.js';
import { type RiOp, SoftrdmaRnicHandle, type SoftrdmaVp, QpHandle, rnicOf, own, vpOf, XPORT } from './handles.js';
import { roceGidTableOf } from './roce-config.js';

/** The RNIC flags softrdma sets: every one is backed by the engine (see the spec-notes). */
export const SOFTRDMA_RNIC_FLAGS =
  RiRnicFlags.EXT_SRQ |
  RiRnicFlags.EXT_BMM |
  RiRnicFlags.EXT_ZBVA |
  RiRnicFlags.EXT_LIF |
  RiRnicFlags.CQ_OVERFLOW_CHECKING |
  RiRnicFlags.CAN_RESIZE_QP |
  RiRnicFlags.CAN_RESIZE_SRQ |
  RiRnicFlags.SAFE_POST_ON_RTS |
  RiRnicFlags.WIDE_WINDOWS_SUPPORTED |
  RiRnicFlags.EXT_INDEX_KEY_SPLIT |
  RiRnicFlags.CONSUMER0_OPAQUE |
  RiRnicFlags.CONSUMER1_OPAQUE |
  RiRnicFlags.LOCAL_SOLICITED_EVENT |
  RiRnicFlags.SRQ_LAST_WQE_ASYNC;

function portAttrs(): ri_iwarp_port_attr_t {
  const v4: string[] = [];
  const v6: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) (a.family === 'IPv4' ? v4 : v6).push(a.address);
  }
  return {
    ipv4_addrs: v4.length ? v4 : null,
    ipv6_addrs: v6.length ? v6 : null,
    port_num: 1,
    num_ipv4_addrs: v4.length,
    num_ipv6_addrs: v6.length,
  };
}

export function rnicAttrs(vp: SoftrdmaVp, portInfo: boolean): ri_rnic_attr_t {
  const l = vp.engine.limits;
  const common = {
    mem_page_sizes_bit_mask: l.pageSizesMask,
    // Block-list mode is not offered (RI_RNIC_EXT_BLOCK_MODE clear), so no block sizes.
    block_size_low: 0n,
    block_size_hi: 0n,
    vendor_id: SOFTRDMA_VENDOR_ID,
    vendor_part_id: SOFTRDMA_VENDOR_PART_ID,
    hw_version: 1,
    res_ltag_value: 0,
    max_pds: l.maxPds,
    max_qps: l.maxQps,
    max_wrs_qp: l.maxWrsQp,
    max_srq: l.maxSrqs,
    max_wrs_srq: l.maxWrsSrq,
    max_sgl_send_recvqp: l.maxSglSendRecv,
    max_sgl_srq: l.maxSglSrq,
    max_sgl_rdma_write: l.maxSglRdmaWrite,
    max_sgl_rdma_read: l.maxSglRdmaRead,
    max_unregistered_inline: 0,
    max_cqs: l.maxCqs,
    max_cqes_per_cq: l.maxCqesPerCq,
    max_cq_event_handlers: l.maxCqEventHandlers,
    max_mrs: l.maxMrs,
    max_mws: l.maxMws,
    max_pbl_size: l.maxPblSize,
    max_ird: l.maxIrd,
    max_ird_per_qp: l.maxIrdPerQp,
    max_ord: l.maxOrd,
    max_ord_per_qp: l.maxOrdPerQp,
    rnic_flags: SOFTRDMA_RNIC_FLAGS,
    addl_vendor_info: `softrdma ${vp.name} (software ${vp.engine.isIb ? 'RoCEv2' : 'iWARP'} RNIC)`.slice(0, 63),
    softrdma_atomics: rnicAtomicCaps(),
  };
  if (vp.engine.isIb) {
    // Memory windows and the iWARP extensions belong to the core on both transports; the IB
    // specifics (GIDs, P_Keys, MTU) come from ib.ts.
    return { ...common, transport_type: RiTransportType.IB, trans_attr: { ib: ibRnicAttrs(vp.engine, portInfo, vp.identity.nodeGuid) } };
  }
  return {
    ...common,
    transport_type: RiTransportType.IWARP,
    trans_attr: {
      iwarp: {
        port_attrs: portInfo ? [portAttrs()] : null,
        protocol_version: RiIwarpProtocolVersion.IETF,
        num_ports: 1,
        iwarp_rnic_flags: RiIwarpRnicFlags.CAN_MODIFY_IRD | RiIwarpRnicFlags.CAN_INCREASE_ORD | RiIwarpRnicFlags.TCP_SUPPORTED,
      },
    },
  };
}

/**
 * Notional byte size of a query answer (RNICPI lays the answer out in one caller buffer): the
 * C sizes of `ri_rnic_attr_t` (256 with the vendor string), `ri_iwarp_rnic_attr_t` (24), each
 * port (24) and each address (4 / 16).
 */
export function rnicAttrSize(a: ri_rnic_attr_t): number {
  if ('ib' in a.trans_attr) return 256 + ibAttrSize(a.trans_attr.ib);
  let n = 256 + 24;
  const ports = 'iwarp' in a.trans_attr ? a.trans_attr.iwarp.port_attrs : null;
  for (const p of ports ?? []) n += 24 + 4 * p.num_ipv4_addrs + 16 * p.num_ipv6_addrs;
  return n;
}

function jsonText(v: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `0x${x.toString(16)}` : x), 2));
}

function qpDetails(qp: Qp): Record<string, unknown> {
  return {
    qp_id: qp.id,
    state: QP_STATE_NAMES[qp.state] ?? String(qp.state),
    destroyed: qp.destroyed,
    sq: { size: qp.sqSize, occupied: qp.sqOccupied, outstanding: qp.sqOutstanding, max_sges: qp.sqMaxSges },
    rq: qp.srq ? { srq: qp.srq.id } : { size: qp.rqSize, occupied: qp.rqOccupied, max_sges: qp.rqMaxSges },
    ord: qp.ord,
    ird: qp.ird,
    orq: qp.orq.length,
    irq: qp.irq.length,
    bind: qp.enableBind,
    stag0: qp.stag0Enabled,
    rdma_read: qp.enableRdmaRead,
    rdma_write: qp.enableRdmaWrite,
    mpa: qpMpaAttrs(qp),
    connected: qp.transport !== null,
    // RoCEv2: this QP's counters, rxe's names (roce/counters.ts; `rdma statistic qp`).
    ...(qp.transport instanceof RoceQp && { hw_counters: countersByName(qp.transport.counters.v) }),
    bound_windows: qp.boundWindows,
    terminate: terminateDetails(qp),
  };
}

/** The QP's wire error by its codes (iWARP: layer, etype, ecode; RoCEv2: syndrome, msn) and who sent it. */
function terminateDetails(qp: Qp): Record<string, unknown> | null {
  const t = terminateShown(qp);
  return t ? { ...t.codes, local: t.local } : null;
}

function rnicDetails(vp: SoftrdmaVp): Record<string, unknown> {
  const e = vp.engine;
  return {
    name: vp.name,
    transport: e.isIb ? 'RoCEv2' : 'iWARP',
    protocol: e.isIb ? 'InfiniBand over UDP 4791 (IBTA Vol. 1 Annex A17)' : 'IETF (RFC 5040/5041/5044)',
    open: vp.open,
    pbl_mode: vp.pblMode === RiPblMode.PAGE_LIST_MODE ? 'page' : 'block',
    rnic_handles: vp.handles.size,
    resources: { pds: e.pds.size, cqs: e.cqs.size, qps: e.qps.size, srqs: e.srqs.size, mrs: e.mrCount, mws: e.mwCount },
    counters: { ...e.counters },
    // RoCEv2: the device's counters, rxe's names (roce/counters.ts; `rdma statistic show link`).
    ...(e.isIb && { hw_counters: deviceCounters(e) }),
    limits: { ...e.limits },
    config: { markers: iwarpConfig(e).markers, max_ulpdu: iwarpConfig(e).maxUlpdu },
  };
}

function rnicDump(vp: SoftrdmaVp): Record<string, unknown> {
  const e = vp.engine;
  return {
    ...rnicDetails(vp),
    qps: [...e.qps.values()].map(qpDetails),
    cqs: [...e.cqs].map((c) => ({ id: c.id, capacity: c.capacity, depth: c.depth, handler_id: c.handlerId, error: c.error })),
    srqs: [...e.srqs].map((s) => ({ id: s.id, capacity: s.capacity, available: s.available, lowat: s.lowat, armed: s.armed })),
    stags: [...e.stags.values()].map((m) => ({
      stag: m.stag,
      kind: m.kind === MemKind.MW ? 'mw' : 'mr',
      valid: m.valid,
      shared: m.shared,
      origin: m.isMw ? undefined : MrOrigin[m.origin],
      rights: m.rights,
      base: m.base,
      length: m.length,
      bound_windows: m.boundWindows,
    })),
  };
}

export const ri_rnic_open: RiOp<'ri_rnic_open'> = (vp_hdl, pbl_mode, os_data) => {
  const vp = vpOf(vp_hdl);
  if (!vp) return riFail(RiRet.VP_INVALID_HANDLE);
  if (pbl_mode !== RiPblMode.PAGE_LIST_MODE && pbl_mode !== RiPblMode.BLOCK_LIST_MODE) {
    return riFail(RiRet.INVALID_PARAMETER);
  }
  if (vp.open) return riFail(RiRet.RNIC_INUSE);
  // Fast-Register executes page lists only, so block-list mode is not offered (spec-notes).
  if (pbl_mode === RiPblMode.BLOCK_LIST_MODE) return riFail(RiRet.INVALID_PBL_MODE);
  vp.pblMode = pbl_mode;
  vp.engine.osData = os_data;
  vp.engine.closed = false;
  vp.open = true;
  // A GID table that follows the host is watched while the RNIC is open.
  const e = vp.engine;
  vp.unwatchGids = e.config.watchGids?.(() => e.gidTableChanged()) ?? null;
  return RI_OK;
};

export const ri_rnic_close: RiOp<'ri_rnic_close'> = (vp_hdl) => {
  const vp = vpOf(vp_hdl);
  if (!vp?.open) return riFail(RiRet.VP_INVALID_HANDLE);
  if (vp.handles.size > 0) return riFail(RiRet.RNIC_INUSE);
  vp.open = false;
  vp.unwatchGids?.();
  vp.unwatchGids = null;
  // No upcall runs from now on (the engine checks `closed` before every callback).
  vp.engine.closed = true;
  return RI_OK;
};

export const ri_async_set_event_handler: RiOp<'ri_async_set_event_handler'> = (vp_hdl, cb) => {
  const vp = vpOf(vp_hdl);
  if (!vp) return riFail(RiRet.VP_INVALID_HANDLE);
  if (cb !== null && typeof cb !== 'function') return riFail(RiRet.INVALID_PARAMETER);
  vp.engine.asyncHandler = cb as AsyncHandler | null;
  return RI_OK;
};

/**
 * `ri_rnic_get_hdl` of one vector: the handle remembers the vector it was obtained through
 * (`self`); the user-level version ignores `location` (its consumers are never privileged).
 */
export function riRnicGetHdl(user: boolean, self: () => ri_ops_t): RiOp<'ri_rnic_get_hdl'> {
  return (vp_hdl, location, vp_data, os_data) => {
    const vp = vpOf(vp_hdl);
    if (!vp) return riFail(RiRet.VP_INVALID_HANDLE);
    // The user-level version ignores `location` (its consumers are never privileged).
    const loc = user ? RiConsumerDomain.USER : location;
    if (loc !== RiConsumerDomain.KERNEL && loc !== RiConsumerDomain.USER) return riFail(RiRet.INVALID_PARAMETER);
    if (!vp.open) return riFail(RiRet.RNIC_NOT_OPEN);
    // A RoCEv2 RNIC pinned to an address this host does not have is refused (gid-table.ts).
    if (roceGidTableOf(vp)?.problems().length) return riFail(RiRet.INVALID_PARAMETER);
    const h = new SoftrdmaRnicHandle(vp, self(), loc, vp_data, os_data);
    vp.handles.add(h);
    return riOk({ rnic: h });
  };
}

export const ri_rnic_query: RiOp<'ri_rnic_query'> = (rnic, flags, attr_size) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (!Number.isInteger(flags) || (flags & ~RiRnicQueryFlags.PORT_INFO) !== 0) return riFail(RiRet.INVALID_PARAMETER);
  if (!Number.isInteger(attr_size) || attr_size < 0) return riFail(RiRet.INVALID_PARAMETER);
  const attrs = rnicAttrs(r.vp, (flags & RiRnicQueryFlags.PORT_INFO) !== 0);
  const need = rnicAttrSize(attrs);
  if (attr_size < need) return { status: RiRet.BUFFER_TOO_SMALL, attr_size: need };
  return riOk({ attrs, attr_size: need });
};

export const ri_rnic_modify: RiOp<'ri_rnic_modify'> = (rnic, _attr_mask, _attrs) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (!r.privileged) return riFail(RiRet.NO_PERMISSION);
  return XPORT;
};

export const ri_rnic_free_hdl: RiOp<'ri_rnic_free_hdl'> = (vp_hdl, rnic) => {
  const vp = vpOf(vp_hdl);
  if (!vp) return riFail(RiRet.VP_INVALID_HANDLE);
  if (!(rnic instanceof SoftrdmaRnicHandle) || rnic.freed || rnic.vp !== vp) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (rnic.objects.size > 0) return riFail(RiRet.RNIC_INUSE);
  rnic.freed = true;
  vp.handles.delete(rnic);
  return RI_OK;
};

export const ri_rnic_diag: RiOp<'ri_rnic_diag'> = (rnic, op, arg, opval) => {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  if (!r.privileged) return riFail(RiRet.NO_PERMISSION);
  let text: Uint8Array;
  switch (op) {
    case RiDiagOpType.RNIC_DETAILS:
      text = jsonText(rnicDetails(r.vp));
      break;
    case RiDiagOpType.QP_DETAILS: {
      const q = own(r, arg, QpHandle);
      if (!q) return riFail(RiRet.INVALID_PARAMETER);
      text = jsonText(qpDetails(q.qp));
      break;
    }
    case RiDiagOpType.RNIC_DUMP:
      text = jsonText(rnicDump(r.vp));
      break;
    case RiDiagOpType.RDMA_RESET:
      return riFail(RiRet.OP_UNSUPPORTED);
    default:
      return riFail(RiRet.INVALID_PARAMETER);
  }
  if (opval === null || !(opval instanceof Uint8Array) || opval.byteLength < text.length) {
    return { status: RiRet.BUFFER_TOO_SMALL, oplen: text.length };
  }
  opval.set(text);
  return riOk({ oplen: text.length });
};

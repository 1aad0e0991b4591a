/**
 * The softrdma verbs provider: `ri_ops_t` (all 63 calls) over the RNIC engine of `src/rnic/`.
 *
 * The provider is a thin mapping. It owns the RNICPI-facing concerns only:
 * - the opaque handles (VP, RNIC, PD, CQ, QP, SRQ, MR, MW), their kind, liveness and owner
 *   (an object is valid only with the RNIC handle it was created through, RNICPI Ch. 4.5);
 * - the privileged / unprivileged split (an RNIC handle obtained with location KERNEL is
 *   privileged; USER is not; the user-level vectors answer NO_PERMISSION for the kernel-only
 *   calls);
 * - decoding RNICPI structures (masks, unions, WR variants) into engine calls and encoding
 *   engine state back into RNICPI structures (`ri_qp_query`, `ri_mr_query`, ...);
 * - the RNIC lifecycle (open/close, handle counting) and the registry entry "softrdma".
 *
 * Every semantic rule (state machine, in-use guards, flush order, access checks, notification)
 * lives once in the engine. Calls are synchronous; callbacks come from the engine's
 * microtasks and never run for an object after its destroy returned.
 *
 * Spec: RNICPI 1.0 Ch. 7 (reference pages); summary in `docs/rnicpi-surface.md`; decisions in
 * `docs/spec-notes.md`.
 *
 * @module
 */
import { type DeviceIdentity, deviceIdentity } from './identity.js';
import { networkInterfaces } from 'node:os';
import { Socket } from 'node:net';
import type { Cq, WorkCompletion } from '../rnic/cq.js';
import { ATOMIC_SIZES, AtomicKind, atomicArgs, rnicAtomicCaps } from '../rnic/atomics.js';
import { hostMemory } from '../rnic/hostmem.js';
import { attachIwarp } from '../iwarp/datapath.js';
import { terminateOfFault } from '../iwarp/terminate-map.js';
import { buildTerminate, encodeTerminate } from '../wire/terminate.js';
import { LlpStream } from '../iwarp/llp.js';
import { attachLoopback } from '../loopback/loopback.js';
// Registers the RoCEv2 IB binder ('rocev2') that RoCE RNICs' QPs bind through on INIT→RTR.
import { countersByName, deviceCounters } from '../roce/counters.js';
import { RoceQp } from '../roce/transport.js';
import { MEM_REMOTE, MemKind, type MemObject, MrOrigin } from '../rnic/memory.js';
import {
  ltagAlloc,
  mrDereg,
  mrReg,
  mrRegPhys,
  mrRegShared,
  mrRereg,
  mwAlloc,
  mwDealloc,
  type PhysList,
  type ReregChange,
} from '../rnic/memops.js';
import type { Pd } from '../rnic/pd.js';
import { postRq, postSq, postSrq, type SgeIn, type SqWrIn } from '../rnic/post.js';
import { type MpaAttrs, type Qp, QP_STATE_NAMES, type QpModify, resolveAv } from '../rnic/qp.js';
import type { IbAv } from '../rnic/transport.js';
import { RoceGidTable } from './gid-table.js';
import { avOfRi, decodeModifyIb, ibAttrSize, ibQpAttr, ibRnicAttrs, MAX_AHS, gidOfRi, riOfAv, roceUdpPortFromEnv, serviceOfRi } from './ib.js';
import { type AsyncHandler, DEFAULT_CONFIG, Rnic, type RnicConfig } from '../rnic/rnic.js';
import type { Srq } from '../rnic/srq.js';
import { registerLlpBinder } from '../rnic/transport.js';
import { type RiOpName, RI_OPS_ORDER, type RiPostListResult, type ri_ops_t } from '../rnicpi/ops.js';
import { getProvider, type RiProviderEnv, type RiProviderInstance, registerProvider } from '../rnicpi/registry.js';
import { RI_OK, RiError, RiRet, type RiResult, type RiStatus, riFail, riOk } from '../rnicpi/status.js';
import {
  RI_HANDLE_KIND,
  RI_QP_ATTR_IWARP_VALID_MASK,
  RI_TERMINATE_BUFFER_LEN,
  RiCmpltNotifyType,
  RiConsumerDomain,
  RiCqModifyMask,
  RiDiagOpType,
  RiIwarpProtocolVersion,
  RiIwarpRnicFlags,
  RiMrRereg,
  RiPblMode,
  RiQpAttrMask,
  type RiQpState,
  RiRnicFlags,
  RiRnicQueryFlags,
  RiSqpType,
  RiSrqAttrMask,
  RiSvcType,
  RiStagState,
  RiTransportType,
  RiWrType,
  RNICPI_MAJOR_VERSION,
  RNICPI_MINOR_VERSION,
  type ri_data_seg_t,
  type ri_iwarp_port_attr_t,
  type ri_iwarp_qp_attr_t,
  type ri_mr_info_t,
  type ri_mr_reg_attr_t,
  type ri_mr_reg_phys_attr_t,
  type ri_phys_buf_t,
  type ri_qp_attr_in_t,
  type ri_qp_attr_t,
  type ri_qp_handle_t,
  type ri_rnic_handle_t,
  type ri_rnic_attr_t,
  type ri_srq_attr_t,
  type ri_svcs_dev_arg_t,
  type ri_vp_handle_t,
  type ri_wc_t,
  type ri_wr_recv_t,
  type ri_wr_t,
  type ri_address_handle_t,
  type ri_ud_address_vector_t,
} from '../rnicpi/types.js';

/** Name of the provider in the registry. */
export const SOFTRDMA_PROVIDER_NAME = 'softrdma';
/** `lib_path` announced in `ri_svc_attach` (the uVP: this module's user-level vectors). */
export const SOFTRDMA_LIB_PATH = 'softrdma/rnicpi/provider';

/** Every `ri_mem_attr_t` bit RNICPI defines. */
/**
 * The transports this provider's QPs attach to on Idle→RTS (RNICPI §4.4 `llp_stream_handle`):
 * iWARP streams (TCP), and in-process loopback endpoints.
 */
registerLlpBinder(attachIwarp);
registerLlpBinder(attachLoopback);

const MEM_FLAGS_ALL = (1 << 11) - 1;
/** Flags `ri_mr_rereg(_phys)` understands. */
const REREG_ALL = RiMrRereg.TRANSLATE | RiMrRereg.PD | RiMrRereg.ACCESS;

// =============================================================================================
// Handles
// =============================================================================================

/**
 * What a consumer face may read of a softrdma VP handle besides RNICPI: its name, its transport
 * and its identity (the faces name devices as `ibv_get_device_list` and `it_ia_create` do). The
 * faces hold this view, never the provider's class.
 */
export interface SoftrdmaVpInfo extends ri_vp_handle_t {
  readonly name: string;
  readonly transportType: RiTransportType;
  readonly identity: DeviceIdentity;
}

/**
 * A softrdma RNIC as the VP names it (`ri_vp_handle_t`): one engine {@link Rnic}, kept for the
 * VP handle's life; `ri_rnic_open`/`ri_rnic_close` switch it on and off. Since close requires
 * every RNIC handle (hence every object) to be gone, nothing survives a close.
 */
export class SoftrdmaVp implements SoftrdmaVpInfo {
  readonly [RI_HANDLE_KIND] = 'vp' as const;
  /** The AL-serialized kernel vector (Ch. 10.2: a VP handle starts with its ops vector). */
  readonly ops: ri_ops_t = SOFTRDMA_KERNEL_OPS;
  readonly engine: Rnic;
  open = false;
  pblMode: RiPblMode = RiPblMode.PAGE_LIST_MODE;
  /** RNIC handles not yet freed. */
  readonly handles = new Set<SoftrdmaRnicHandle>();
  /** `ri_mem_pin` / `ri_mem_map` bookkeeping (same range and os_data to undo). */
  readonly pins = new PinTable();
  readonly maps = new Map<string, unknown[]>();
  /** Address handles held (IB), against `max_addr_hdls`. */
  ahCount = 0;
  /** Stops watching the GID table (set while a RoCEv2 RNIC is open). */
  unwatchGids: (() => void) | null = null;
  /** The device's MAC and node GUID (`identity.ts`): `ri_rnic_query` reports the GUID. */
  readonly identity: DeviceIdentity;
  constructor(config: RnicConfig = DEFAULT_CONFIG) {
    this.engine = new Rnic(config);
    this.identity = deviceIdentity(config.name, this.engine.isIb);
    // No callback may run before the RNIC is opened.
    this.engine.closed = true;
  }
  get name(): string {
    return this.engine.config.name;
  }
  /** The RNIC's transport type (`ri_rnic_attr_t.transport_type`): IB for a RoCEv2 RNIC. */
  get transportType(): RiTransportType {
    return this.engine.isIb ? RiTransportType.IB : RiTransportType.IWARP;
  }
}

/** A consumer RNIC handle (`ri_rnic_get_hdl`). */
export class SoftrdmaRnicHandle {
  readonly [RI_HANDLE_KIND] = 'rnic' as const;
  freed = false;
  /** Objects created through this handle and not yet destroyed. */
  readonly objects = new Set<ObjHandle>();
  constructor(
    readonly vp: SoftrdmaVp,
    /** The vector `ri_rnic_get_hdl` was called through. */
    readonly ops: ri_ops_t,
    readonly location: RiConsumerDomain,
    readonly vpData: unknown,
    readonly osData: unknown,
  ) {}
  /** P-RNICPI consumer (kernel location). */
  get privileged(): boolean {
    return this.location === RiConsumerDomain.KERNEL;
  }
  get engine(): Rnic {
    return this.vp.engine;
  }
}

abstract class ObjHandle {
  abstract readonly [RI_HANDLE_KIND]: 'pd' | 'cq' | 'qp' | 'srq' | 'mr' | 'mw' | 'ah';
  dead = false;
  constructor(
    readonly owner: SoftrdmaRnicHandle,
    readonly vpData: unknown,
    readonly osData: unknown,
  ) {
    owner.objects.add(this);
  }
  kill(): void {
    this.dead = true;
    this.owner.objects.delete(this);
  }
}

class PdHandle extends ObjHandle {
  readonly [RI_HANDLE_KIND] = 'pd' as const;
  constructor(owner: SoftrdmaRnicHandle, readonly pd: Pd, vpData: unknown, osData: unknown) {
    super(owner, vpData, osData);
    pdHandles.set(pd, this);
  }
}
class CqHandle extends ObjHandle {
  readonly [RI_HANDLE_KIND] = 'cq' as const;
  constructor(owner: SoftrdmaRnicHandle, readonly cq: Cq, vpData: unknown, osData: unknown) {
    super(owner, vpData, osData);
  }
}
class SrqHandle extends ObjHandle {
  readonly [RI_HANDLE_KIND] = 'srq' as const;
  constructor(owner: SoftrdmaRnicHandle, readonly srq: Srq, readonly pdH: PdHandle, vpData: unknown, osData: unknown) {
    super(owner, vpData, osData);
  }
}
class QpHandle extends ObjHandle {
  readonly [RI_HANDLE_KIND] = 'qp' as const;
  constructor(owner: SoftrdmaRnicHandle, readonly qp: Qp, readonly pdH: PdHandle, vpData: unknown, osData: unknown) {
    super(owner, vpData, osData);
  }
}
class MrHandle extends ObjHandle {
  readonly [RI_HANDLE_KIND] = 'mr' as const;
  constructor(owner: SoftrdmaRnicHandle, readonly mem: MemObject, vpData: unknown, osData: unknown) {
    super(owner, vpData, osData);
  }
}
class MwHandle extends ObjHandle {
  readonly [RI_HANDLE_KIND] = 'mw' as const;
  constructor(owner: SoftrdmaRnicHandle, readonly mem: MemObject, vpData: unknown, osData: unknown) {
    super(owner, vpData, osData);
  }
}

/**
 * An IB address handle (`ri_ah_create`): a validated address vector in a PD. It holds a PD
 * reference (the PD cannot be deallocated under it) and nothing else: a UD Send copies its AV.
 */
class AhHandle extends ObjHandle {
  readonly [RI_HANDLE_KIND] = 'ah' as const;
  constructor(owner: SoftrdmaRnicHandle, readonly pdH: PdHandle, public av: IbAv, vpData: unknown, osData: unknown) {
    super(owner, vpData, osData);
  }
}

/** Engine PD → its handle (for queries that report a PD: MR, MW, SRQ, QP). */
const pdHandles = new WeakMap<Pd, PdHandle>();

type ObjClass<T> = abstract new (...args: never[]) => T;

function rnicOf(h: unknown): SoftrdmaRnicHandle | null {
  return h instanceof SoftrdmaRnicHandle && !h.freed && h.vp.open ? h : null;
}

/** `h` if it is a live object of class `cls` created through `rnic`, else null. */
function own<T extends ObjHandle>(rnic: SoftrdmaRnicHandle, h: unknown, cls: ObjClass<T>): T | null {
  return h instanceof cls && !h.dead && h.owner === rnic ? h : null;
}

/**
 * The RNICPI state of a QP (RNICPI §6.7 `ri_qp_state_t`): the one state read the faces make per
 * posted work request (RDMA Protocol Verbs: PostSQ and PostRQ accept work requests only in
 * certain QP states). For a QP of a live softrdma RNIC handle it reads the
 * engine's state without building the attribute set and allocates nothing; for any other
 * provider it asks `ri_qp_query`. Answers what `ri_qp_query` reports in `attrs.state`, and null
 * where `ri_qp_query` fails.
 */
export function riQpState(ops: ri_ops_t, rnic: unknown, qp: unknown): RiQpState | null {
  const r = rnicOf(rnic);
  if (r) {
    const h = own(r, qp, QpHandle);
    if (h) return h.qp.state;
  }
  const q = ops.ri_qp_query(rnic as ri_rnic_handle_t, qp as ri_qp_handle_t);
  return q.status === RiRet.SUCCESS ? q.attrs.state : null;
}

function vpOf(h: unknown): SoftrdmaVp | null {
  return h instanceof SoftrdmaVp ? h : null;
}

// =============================================================================================
// Pinning (shared with the access layer's ri_svc_mem_pin)
// =============================================================================================

/**
 * Reference-counted pins of exact ranges, each remembered with the `os_data` it was pinned with:
 * an unpin must name the same range and the same `os_data` (RNICPI Ch. 3.6, `ri_mem_pin`).
 */
export class PinTable {
  private readonly m = new Map<string, unknown[]>();
  pin(vaddr: bigint, len: number, osData: unknown): RiRet {
    if (typeof vaddr !== 'bigint' || !Number.isInteger(len) || len <= 0) return RiRet.INVALID_PARAMETER;
    if (!hostMemory.pin(vaddr, len)) return RiRet.INVALID_PARAMETER;
    const k = `${vaddr}:${len}`;
    const l = this.m.get(k);
    if (l) l.push(osData);
    else this.m.set(k, [osData]);
    return RiRet.SUCCESS;
  }
  unpin(vaddr: bigint, len: number, osData: unknown): RiRet {
    if (typeof vaddr !== 'bigint' || !Number.isInteger(len) || len <= 0) return RiRet.INVALID_PARAMETER;
    const k = `${vaddr}:${len}`;
    const l = this.m.get(k);
    const i = l ? l.indexOf(osData) : -1;
    if (!l || i < 0) return RiRet.INVALID_PARAMETER;
    l.splice(i, 1);
    if (l.length === 0) this.m.delete(k);
    hostMemory.unpin(vaddr, len);
    return RiRet.SUCCESS;
  }
}

// =============================================================================================
// ri_rnic_query
// =============================================================================================

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

function rnicAttrs(vp: SoftrdmaVp, portInfo: boolean): ri_rnic_attr_t {
  const l = vp.engine.limits;
  const common = {
    mem_page_sizes_bit_mask: l.pageSizesMask,
    // Block-list mode is not offered (RI_RNIC_EXT_BLOCK_MODE clear), so no block sizes.
    block_size_low: 0n,
    block_size_hi: 0n,
    vendor_id: 0,
    vendor_part_id: 0,
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
    softrdma_atomics: rnicAtomicCaps(vp.engine.config.transport),
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

/** CQs in use by special QPs (QP1): RNICPI forbids sharing them with ordinary QPs (Ch. 7 ri_special_qp_get). */
const specialCqUsers = new WeakMap<Cq, number>();

/** A destroyed special QP no longer holds its CQs. */
function releaseSpecialCqs(qp: Qp): void {
  if (!qp.special) return;
  for (const c of new Set([qp.scq, qp.rcq])) {
    const n = (specialCqUsers.get(c) ?? 0) - (qp.scq === qp.rcq ? 2 : 1);
    if (n > 0) specialCqUsers.set(c, n);
    else specialCqUsers.delete(c);
  }
}

/**
 * `ri_qp_create` and `ri_special_qp_get`: the attributes "valid in create", checked and given
 * to the core. A special QP (`special`) is QP1 of the port.
 */
function createQp(r: SoftrdmaRnicHandle, attrs: ri_qp_attr_in_t, vp_data: unknown, os_data: unknown, special: 'GSI' | undefined): RiResult<{ qp: ri_qp_handle_t; attrs: ri_qp_attr_t }> {
  if (!attrs || typeof attrs !== 'object') return riFail(RiRet.INVALID_PARAMETER);
  const isIb = r.engine.isIb;
  // The transport struct must be the RNIC's: IB attributes on an iWARP RNIC and the reverse
  // name a service the RNIC does not have.
  if (attrs.qp_xport && ('qp_ib' in attrs.qp_xport) !== isIb) return riFail(RiRet.QP_INVALID_SERVICE_TYPE);
  let service: 'RC' | 'UC' | 'UD' | undefined;
  if (isIb) {
    const t = attrs.qp_xport && 'qp_ib' in attrs.qp_xport ? attrs.qp_xport.qp_ib?.trans_type : undefined;
    const sv = t === undefined ? 'RC' : serviceOfRi(t);
    if (!sv) return riFail(RiRet.QP_INVALID_SERVICE_TYPE);
    service = sv;
  }
  const iw: Partial<ri_iwarp_qp_attr_t> =
    attrs.qp_xport && 'qp_iwarp' in attrs.qp_xport ? (attrs.qp_xport.qp_iwarp ?? {}) : {};
  const useSrq = attrs.srq_valid === true;
  // Attributes required at create (Ch. 8 ri_qp_attr_t, "valid in create" for iWARP).
  const num = (x: unknown): x is number => typeof x === 'number';
  if (!attrs.scq || !attrs.rcq || !attrs.pd || !num(attrs.sq_size) || !num(attrs.sq_max_sges)) {
    return riFail(RiRet.INVALID_PARAMETER);
  }
  if (!useSrq && (!num(attrs.rq_size) || !num(attrs.rq_max_sges))) return riFail(RiRet.INVALID_PARAMETER);
  const scq = own(r, attrs.scq.scq_handle, CqHandle);
  const rcq = own(r, attrs.rcq.rcq_handle, CqHandle);
  if (!scq || !rcq) return riFail(RiRet.CQ_INVALID_HANDLE);
  // Special QPs may not share a CQ with ordinary QPs (RNICPI Ch. 7 ri_special_qp_get).
  for (const c of [scq.cq, rcq.cq]) {
  const sp = specialCqUsers.get(c) ?? 0;
  if (special ? c.users > sp : sp > 0) return riFail(RiRet.CQ_INVALID_HANDLE);
  }
  const pd = own(r, attrs.pd, PdHandle);
  if (!pd) return riFail(RiRet.PD_INVALID_HANDLE);
  let srq: SrqHandle | null = null;
  if (useSrq) {
    const s = attrs.srq;
    srq = s && 'srq_handle' in s ? own(r, s.srq_handle, SrqHandle) : null;
    if (!srq) return riFail(RiRet.SRQ_INVALID_HANDLE);
  }
  const stag0 = attrs.enable_stag0_fastreg === true;
  // STag0 / Fast-Register QPs are for privileged consumers only (Ch. 5.3.4).
  if (stag0 && !r.privileged) return riFail(RiRet.NO_PERMISSION);
  const m = iw.mpa_attributes;
  const mpa: MpaAttrs = {
    recvMarkers: false,
    xmitMarkers: false,
    crc: m?.crc_enabled ?? true,
    ddpRdmapVersion: m?.ddp_rdma_version ?? 1,
  };
  const qp = r.engine.qpCreate({
    pd: pd.pd,
    scq: scq.cq,
    rcq: rcq.cq,
    srq: srq ? srq.srq : null,
    sqSize: attrs.sq_size,
    rqSize: useSrq ? 0 : (attrs.rq_size as number),
    sqMaxSges: attrs.sq_max_sges,
    sqMaxSgesRdmaw: attrs.sq_max_sges_rdmaw ?? attrs.sq_max_sges,
    rqMaxSges: useSrq ? 0 : (attrs.rq_max_sges as number),
    enableRdmaRead: attrs.enable_rdma_read === true,
    enableRdmaWrite: attrs.enable_rdma_write === true,
    ord: attrs.max_rdma_read_outgoing ?? 0,
    ird: attrs.max_rdma_read_incoming ?? 0,
    stag0Enabled: stag0,
    enableBind: iw.enable_bind === true,
    rqHiwat: useSrq ? (iw.rq_hiwat ?? 0) : 0,
    mpa,
    osData: os_data,
    ...(service && { service }),
    ...(special && { special }),
  });
  if (typeof qp === 'number') return riFail(qp as Exclude<RiRet, RiRet.SUCCESS>);
  if (special) for (const c of new Set([qp.scq, qp.rcq])) specialCqUsers.set(c, (specialCqUsers.get(c) ?? 0) + (qp.scq === qp.rcq ? 2 : 1));
  const h = new QpHandle(r, qp, pd, vp_data, os_data);
  return riOk({ qp: h, attrs: qpAttrs(h) });
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

// =============================================================================================
// Queries
// =============================================================================================

function qpAttrs(h: QpHandle): ri_qp_attr_t {
  const qp = h.qp;
  const term = new Uint8Array(RI_TERMINATE_BUFFER_LEN);
  let termLen = 0;
  if (qp.terminate) {
    // A transport without Terminate messages (the loopback) records the core's fault: the
    // buffer then holds the Terminate iWARP would have sent for it (RNICPI §6.7).
    const bytes =
      qp.terminate.bytes.length === 0 && qp.terminate.fault !== undefined
        ? encodeTerminate(buildTerminate(terminateOfFault(qp.terminate.fault)))
        : qp.terminate.bytes;
    termLen = Math.min(bytes.length, RI_TERMINATE_BUFFER_LEN);
    term.set(bytes.subarray(0, termLen));
  }
  const iwarp: ri_iwarp_qp_attr_t = {
    enable_bind: qp.enableBind,
    terminate_buffer: term,
    terminate_msg_length: termLen,
    is_terminate_local: qp.terminate?.local ?? false,
    llp_stream_handle: qp.llpHandle ?? null,
    mpa_attributes: {
      recv_marker_enabled: qp.mpa.recvMarkers,
      xmit_marker_enabled: qp.mpa.xmitMarkers,
      crc_enabled: qp.mpa.crc,
      ddp_rdma_version: qp.mpa.ddpRdmapVersion,
    },
    stream_msg_buf: null,
    stream_msg_buf_length: 0,
    rq_hiwat: qp.rqHiwat,
    rq_armed: qp.rqArmed,
  };
  const srq = qp.srq;
  return {
    qp_id: qp.id,
    scq: { scq_os_data: qp.scq.osData },
    rcq: { rcq_os_data: qp.rcq.osData },
    srq: srq ? { srq_os_data: srq.osData } : null,
    pd: h.pdH,
    sq_size: qp.sqSize,
    // With an S-RQ the RQ depth and SGE limit do not exist (Verbs §10 Q4).
    rq_size: srq ? 0 : qp.rqSize,
    srq_valid: srq !== null,
    sq_max_sges: qp.sqMaxSges,
    sq_max_sges_rdmaw: qp.sqMaxSgesRdmaw,
    rq_max_sges: srq ? 0 : qp.rqMaxSges,
    state: qp.state,
    enable_rdma_read: qp.enableRdmaRead,
    enable_rdma_write: qp.enableRdmaWrite,
    max_rdma_read_outgoing: qp.ord,
    max_rdma_read_incoming: qp.ird,
    enable_stag0_fastreg: qp.stag0Enabled,
    qp_xport: qp.isIb ? { qp_ib: ibQpAttr(qp) } : { qp_iwarp: iwarp },
  };
}

function srqAttrs(h: SrqHandle): ri_srq_attr_t {
  const s = h.srq;
  return { max_wrs: s.capacity, max_sgl: s.maxSgl, lowat: s.lowat, pd: h.pdH, srq_armed: s.armed };
}

function mrInfo(h: MrHandle): ri_mr_info_t {
  const m = h.mem;
  const remote = (m.rights & MEM_REMOTE) !== 0;
  const len = BigInt(m.length);
  const pdH = m.pd ? pdHandles.get(m.pd) : undefined;
  return {
    attr: { va: m.regVa, length: m.length, mem_attr: m.regFlags, pd: pdH! },
    ltag: m.stag,
    rtag: remote ? m.stag : 0,
    is_shared_region: m.shared,
    local_lb: m.regVa,
    local_ub: m.length > 0 ? m.regVa + len - 1n : m.regVa,
    remote_lb: remote ? m.base : 0n,
    remote_ub: remote && m.length > 0 ? m.base + len - 1n : 0n,
    stag_state: m.valid ? RiStagState.VALID : RiStagState.INVALID,
  };
}

// =============================================================================================
// Work requests
// =============================================================================================

function sgl(list: readonly ri_data_seg_t[] | undefined, num: number | undefined): SgeIn[] | RiRet {
  const l = list ?? [];
  if (!Array.isArray(l)) return RiRet.WR_SG_INVALID_FORMAT;
  const n = num ?? l.length;
  if (!Number.isInteger(n) || n < 0 || n > l.length) return RiRet.WR_SG_INVALID_FORMAT;
  const out: SgeIn[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const s = l[i];
    if (!s || typeof s !== 'object') return RiRet.WR_SG_INVALID_FORMAT;
    out[i] = { stag: s.tag, to: s.addr, len: s.len };
  }
  return out;
}

/** Decodes one `ri_wr_t` into the engine's WR form. */
function toSqWr(rnic: SoftrdmaRnicHandle, wr: ri_wr_t): SqWrIn | RiRet {
  if (!wr || typeof wr !== 'object') return RiRet.INVALID_PARAMETER;
  // The data-path types build their WR in one literal of one shape (the hot path: no spread).
  switch (wr.type) {
    case RiWrType.SEND:
    case RiWrType.SEND_INVALIDATE:
    case RiWrType.SEND_IMMEDIATE: {
      const s = sgl(wr.sg_list, wr.num_sgls);
      if (typeof s === 'number') return s;
      if ('remote_node_address' in wr) {
        // A datagram (UD Send): the destination is the address handle's AV, copied now.
        const ah = own(rnic, wr.remote_node_address, AhHandle);
        if (!ah) return RiRet.ADDRESS_HANDLE_INVALID;
        const dimm = wr.type === RiWrType.SEND_IMMEDIATE ? (wr.imm_data ?? 0) : 0;
        return { type: wr.type, flags: wr.flags, id: wr.id, sgl: s, rtag: 0, remoteTo: 0n, imm: dimm, ud: { av: ah.av, remoteQpn: wr.dest_qp, remoteQkey: wr.dest_qkey } };
      }
      const rtag = wr.type === RiWrType.SEND_INVALIDATE && 'rtag' in wr ? wr.rtag : 0;
      const imm = wr.type === RiWrType.SEND_IMMEDIATE && 'imm_data' in wr ? (wr.imm_data ?? 0) : 0;
      return { type: wr.type, flags: wr.flags, id: wr.id, sgl: s, rtag, remoteTo: 0n, imm };
    }
    case RiWrType.RDMA_WRITE:
    case RiWrType.RDMA_WRITE_IMMEDIATE:
    case RiWrType.RDMA_READ:
    case RiWrType.RDMA_READ_LOCAL_INVALIDATE: {
      const s = sgl(wr.sg_list, wr.num_sgls);
      if (typeof s === 'number') return s;
      const imm = wr.type === RiWrType.RDMA_WRITE_IMMEDIATE && 'imm_data' in wr ? (wr.imm_data ?? 0) : 0;
      return { type: wr.type, flags: wr.flags, id: wr.id, sgl: s, rtag: wr.rtag, remoteTo: wr.rdma_addr, imm };
    }
  }
  const base = { type: wr.type, flags: wr.flags, id: wr.id };
  switch (wr.type) {
    case RiWrType.COMPARE_AND_SWAP:
    case RiWrType.FETCH_AND_ADD: {
      // One executor for plain, masked and extended atomics (src/rnic/atomics.ts).
      const size = wr.atomic_size ?? 8;
      const ops = [wr.atomic_operand1, wr.type === RiWrType.FETCH_AND_ADD ? 0n : wr.atomic_operand2];
      const masks = [wr.atomic_mask1, wr.atomic_mask2];
      if (!ATOMIC_SIZES.includes(size)) return RiRet.INVALID_PARAMETER;
      const lim = 1n << BigInt(size * 8);
      for (const v of [...ops, ...masks]) if (v !== undefined && (typeof v !== 'bigint' || v < 0n || v >= lim)) return RiRet.INVALID_PARAMETER;
      const kind = wr.type === RiWrType.FETCH_AND_ADD ? AtomicKind.FETCH_ADD : AtomicKind.COMPARE_SWAP;
      const r = wr.atomic_result;
      const s = r ? sgl([r], 1) : [];
      if (typeof s === 'number') return s;
      return { ...base, sgl: s, rtag: wr.rtag, remoteTo: wr.rdma_addr, atomic: atomicArgs(kind, size, ops[0]!, ops[1]!, masks[0], masks[1]) };
    }
    case RiWrType.BIND: {
      const mw = own(rnic, wr.mw_handle, MwHandle);
      if (!mw) return RiRet.MW_INVALID_HANDLE;
      const mr = own(rnic, wr.mr_handle, MrHandle);
      if (!mr) return RiRet.MR_INVALID_HANDLE;
      return {
        ...base,
        mw: mw.mem,
        mr: mr.mem,
        mrStag: wr.ltag,
        bindVa: wr.vaddr,
        bindLength: wr.length,
        bindFlags: wr.mem_attr,
        rtag: wr.rtag,
      };
    }
    case RiWrType.FAST_REGISTER: {
      const mr = own(rnic, wr.mr_handle, MrHandle);
      if (!mr) return RiRet.MR_INVALID_HANDLE;
      const a = wr.attr;
      if (!a?.common || !Array.isArray(a.phys_buf_list)) return RiRet.INVALID_PARAMETER;
      const n = a.nbufs ?? a.phys_buf_list.length;
      if (!Number.isInteger(n) || n < 0 || n > a.phys_buf_list.length) return RiRet.INVALID_PARAMETER;
      // A Fast-Register takes a page list (pble_size ≠ 0); see the spec-notes.
      if (!Number.isInteger(a.pble_size) || a.pble_size <= 0) return RiRet.INVALID_PARAMETER;
      const pbl = a.phys_buf_list.slice(0, n) as bigint[];
      if (pbl.some((x) => typeof x !== 'bigint')) return RiRet.INVALID_PARAMETER;
      return {
        ...base,
        target: mr.mem,
        targetStag: wr.ltag,
        fmr: {
          va: a.common.va,
          length: a.common.length,
          memFlags: a.common.mem_attr,
          pbl,
          pbeSize: a.pble_size,
          fbo: a.address_offset,
        },
      };
    }
    case RiWrType.LOCAL_INVALIDATE_MR:
    case RiWrType.LOCAL_INVALIDATE_MW: {
      const isMw = wr.type === RiWrType.LOCAL_INVALIDATE_MW;
      const h = isMw ? own(rnic, wr.mrw_handle, MwHandle) : own(rnic, wr.mrw_handle, MrHandle);
      if (!h) return isMw ? RiRet.MW_INVALID_HANDLE : RiRet.MR_INVALID_HANDLE;
      // The STag checked is the region's LTag, or the window's RTag (windows have no LTag).
      return { ...base, target: h.mem, targetStag: isMw ? wr.rtag : wr.ltag };
    }
    default:
      // Unknown types (WR_INVALID_TYPE): the engine decides.
      return base;
  }
}

function postSqOne(rnic: SoftrdmaRnicHandle, q: QpHandle, wr: ri_wr_t): RiRet {
  const w = toSqWr(rnic, wr);
  if (typeof w === 'number') return w;
  return postSq(q.qp, w, rnic.privileged);
}

function postRecvOne(_rnic: SoftrdmaRnicHandle, target: QpHandle | SrqHandle, wr: ri_wr_recv_t): RiRet {
  if (!wr || typeof wr !== 'object') return RiRet.INVALID_PARAMETER;
  const s = sgl(wr.sg_list, wr.num_sgls);
  if (typeof s === 'number') return s;
  return target instanceof QpHandle ? postRq(target.qp, wr.flags, wr.id, s) : postSrq(target.srq, wr.flags, wr.id, s);
}

function postList<W>(list: readonly W[], num: number | undefined, one: (w: W) => RiRet): RiPostListResult {
  if (!Array.isArray(list)) return { status: RiRet.INVALID_PARAMETER, num_wrs: 0 };
  const n = num ?? list.length;
  if (!Number.isInteger(n) || n < 0 || n > list.length) return { status: RiRet.INVALID_PARAMETER, num_wrs: 0 };
  for (let i = 0; i < n; i++) {
    const st = one(list[i]!);
    if (st !== RiRet.SUCCESS) return { status: st, num_wrs: i };
  }
  return { status: RiRet.SUCCESS, num_wrs: n };
}

// =============================================================================================
// Memory helpers
// =============================================================================================

function physList(a: ri_mr_reg_phys_attr_t): PhysList | RiRet {
  if (!a || !Array.isArray(a.phys_buf_list)) return RiRet.INVALID_PARAMETER;
  const n = a.nbufs ?? a.phys_buf_list.length;
  if (!Number.isInteger(n) || n < 0 || n > a.phys_buf_list.length) return RiRet.INVALID_PARAMETER;
  if (!Number.isInteger(a.pble_size) || a.pble_size < 0) return RiRet.INVALID_PARAMETER;
  if (!Number.isInteger(a.address_offset) || a.address_offset < 0) return RiRet.MEM_INVALID_OFFSET;
  const list = a.phys_buf_list.slice(0, n);
  if (a.pble_size > 0) {
    if (list.some((x) => typeof x !== 'bigint')) return RiRet.MEM_INVALID_PBLE;
    return { bufs: list as bigint[], pbeSize: a.pble_size, fbo: a.address_offset };
  }
  const bufs: { addr: bigint; len: number }[] = [];
  for (const e of list as ri_phys_buf_t[]) {
    if (!e || typeof e !== 'object' || typeof e.phys_address !== 'bigint' || typeof e.phys_len !== 'bigint') {
      return RiRet.MEM_INVALID_PBLE;
    }
    bufs.push({ addr: e.phys_address, len: Number(e.phys_len) });
  }
  return { bufs, pbeSize: 0, fbo: a.address_offset };
}

function validMemAttr(flags: unknown): flags is number {
  return Number.isInteger(flags) && ((flags as number) & ~MEM_FLAGS_ALL) === 0;
}

function tagsOf(m: MemObject): { ltag: number; rtag?: number } {
  return (m.rights & MEM_REMOTE) !== 0 ? { ltag: m.stag, rtag: m.stag } : { ltag: m.stag };
}

/** After an engine re-registration: a failure other than the no-change ones deallocated the MR. */
function afterRereg(h: MrHandle, st: RiRet): void {
  if (st !== RiRet.SUCCESS && h.mem.destroyed) h.kill();
}

// =============================================================================================
// Diagnostics
// =============================================================================================

function jsonText(v: unknown): Uint8Array {
  return new TextEncoder().encode(
    JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `0x${x.toString(16)}` : x), 2),
  );
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
    mpa: qp.mpa,
    connected: qp.transport !== null,
    // RoCEv2: this QP's counters, rxe's names (roce/counters.ts; `rdma statistic qp`).
    ...(qp.transport instanceof RoceQp && { hw_counters: countersByName(qp.transport.counters.v) }),
    bound_windows: qp.boundWindows,
    terminate: qp.terminate
      ? { layer: qp.terminate.layer, etype: qp.terminate.etype, ecode: qp.terminate.ecode, local: qp.terminate.local }
      : null,
  };
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
    config: { markers: e.config.markers, max_ulpdu: e.config.maxUlpdu },
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

// =============================================================================================
// The operation vectors
// =============================================================================================

const KERNEL_ONLY: readonly RiOpName[] = [
  'ri_rnic_open',
  'ri_rnic_close',
  'ri_async_set_event_handler',
  'ri_cq_set_event_handler',
];

/** Result of the post-list calls on a bad RNIC/QP/SRQ handle. */
function listFail(code: RiRet): RiPostListResult {
  return { status: code as Exclude<RiRet, RiRet.SUCCESS>, num_wrs: 0 };
}

const XPORT = riFail(RiRet.XPORT_UNSUPPORTED);

/**
 * Builds one vector. `user` vectors are the uVP's: the kernel-only calls are NO_PERMISSION stubs
 * and `ri_rnic_get_hdl` ignores `location` (always USER). The AL- and VP-serialized vectors
 * behave alike (one thread), but they are distinct objects, so `rnic.ops` tells which was used.
 */
function makeOps(user: boolean, self: () => ri_ops_t): ri_ops_t {
  const ops: ri_ops_t = {
    // ------------------------------------------------------------------ RNIC management
    ri_rnic_open(vp_hdl, pbl_mode, os_data) {
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
    },
    ri_rnic_close(vp_hdl) {
      const vp = vpOf(vp_hdl);
      if (!vp?.open) return riFail(RiRet.VP_INVALID_HANDLE);
      if (vp.handles.size > 0) return riFail(RiRet.RNIC_INUSE);
      vp.open = false;
      vp.unwatchGids?.();
      vp.unwatchGids = null;
      // No upcall runs from now on (the engine checks `closed` before every callback).
      vp.engine.closed = true;
      return RI_OK;
    },
    ri_async_set_event_handler(vp_hdl, cb) {
      const vp = vpOf(vp_hdl);
      if (!vp) return riFail(RiRet.VP_INVALID_HANDLE);
      if (cb !== null && typeof cb !== 'function') return riFail(RiRet.INVALID_PARAMETER);
      vp.engine.asyncHandler = cb as AsyncHandler | null;
      return RI_OK;
    },
    ri_rnic_get_hdl(vp_hdl, location, vp_data, os_data) {
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
    },
    ri_rnic_query(rnic, flags, attr_size) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!Number.isInteger(flags) || (flags & ~RiRnicQueryFlags.PORT_INFO) !== 0) return riFail(RiRet.INVALID_PARAMETER);
      if (!Number.isInteger(attr_size) || attr_size < 0) return riFail(RiRet.INVALID_PARAMETER);
      const attrs = rnicAttrs(r.vp, (flags & RiRnicQueryFlags.PORT_INFO) !== 0);
      const need = rnicAttrSize(attrs);
      if (attr_size < need) return { status: RiRet.BUFFER_TOO_SMALL, attr_size: need };
      return riOk({ attrs, attr_size: need });
    },
    ri_rnic_modify(rnic, _attr_mask, _attrs) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!r.privileged) return riFail(RiRet.NO_PERMISSION);
      return XPORT;
    },
    ri_rnic_free_hdl(vp_hdl, rnic) {
      const vp = vpOf(vp_hdl);
      if (!vp) return riFail(RiRet.VP_INVALID_HANDLE);
      if (!(rnic instanceof SoftrdmaRnicHandle) || rnic.freed || rnic.vp !== vp) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (rnic.objects.size > 0) return riFail(RiRet.RNIC_INUSE);
      rnic.freed = true;
      vp.handles.delete(rnic);
      return RI_OK;
    },
    ri_rnic_diag(rnic, op, arg, opval) {
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
    },

    // ------------------------------------------------------------------ PD
    ri_pd_alloc(rnic, vp_data, os_data) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const pd = r.engine.pdAlloc(os_data);
      if (typeof pd === 'number') return riFail(pd as Exclude<RiRet, RiRet.SUCCESS>);
      return riOk({ pd: new PdHandle(r, pd, vp_data, os_data) });
    },
    ri_pd_dealloc(rnic, pd) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, pd, PdHandle);
      if (!h) return riFail(RiRet.PD_INVALID_HANDLE);
      const st = r.engine.pdDealloc(h.pd);
      if (st === RiRet.SUCCESS) h.kill();
      return riStatusOf(st);
    },

    // ------------------------------------------------------------------ CQ
    ri_cq_create(rnic, cq_attr, vp_data, os_data) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!cq_attr || typeof cq_attr !== 'object') return riFail(RiRet.INVALID_PARAMETER);
      // Non-privileged consumers cannot name a CEH; the uVP ignores the field (Ch. 7 ri_cq_create).
      const hid = r.privileged ? cq_attr.handler_id ?? 0 : 0;
      if (!Number.isInteger(hid) || hid < 0) return riFail(RiRet.CQ_INVALID_EVENT_HANDLER);
      const cq = r.engine.cqCreate(cq_attr.num_cqe, hid, os_data);
      if (typeof cq === 'number') return riFail(cq as Exclude<RiRet, RiRet.SUCCESS>);
      return riOk({ cq: new CqHandle(r, cq, vp_data, os_data), cq_attr: { num_cqe: cq.capacity, handler_id: cq.handlerId } });
    },
    ri_cq_query(rnic, cq) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, cq, CqHandle);
      if (!h) return riFail(RiRet.CQ_INVALID_HANDLE);
      if (h.cq.error) return riFail(RiRet.CQ_ERROR);
      return riOk({ cq_attr: { num_cqe: h.cq.capacity, handler_id: h.cq.handlerId } });
    },
    ri_cq_modify(rnic, cq, mask, cq_attr) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, cq, CqHandle);
      if (!h) return riFail(RiRet.CQ_INVALID_HANDLE);
      if (mask !== RiCqModifyMask.NUM_CQE || !cq_attr || typeof cq_attr.num_cqe !== 'number') {
        return riFail(RiRet.INVALID_PARAMETER);
      }
      const st = r.engine.cqResize(h.cq, cq_attr.num_cqe);
      if (st !== RiRet.SUCCESS) return riFail(st as Exclude<RiRet, RiRet.SUCCESS>);
      return riOk({ cq_attr: { num_cqe: h.cq.capacity, handler_id: h.cq.handlerId } });
    },
    ri_cq_destroy(rnic, cq) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, cq, CqHandle);
      if (!h) return riFail(RiRet.CQ_INVALID_HANDLE);
      const st = r.engine.cqDestroy(h.cq);
      if (st === RiRet.SUCCESS) h.kill();
      return riStatusOf(st);
    },
    ri_special_qp_get(rnic, port, qp_type, attrs, vp_data, os_data) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!r.engine.isIb) return XPORT;
      if (port !== 1) return riFail(RiRet.RNIC_INVALID_PORT);
      // RoCE has no subnet manager and so no QP0 (IBTA Annex A17.4.7: "QP0 … not used"); QP1
      // is the GSI. Its service type is UD (IBTA Vol. 1 §13.5.1), as the caller must say.
      if (qp_type !== RiSqpType.GSI) return riFail(RiRet.QP_INVALID_SPECIAL_TYPE);
      if (!attrs || typeof attrs !== 'object') return riFail(RiRet.INVALID_PARAMETER);
      const x = attrs.qp_xport;
      if (!x || !('qp_ib' in x) || x.qp_ib?.trans_type !== RiSvcType.UNRELIABLE_DATAGRAM) return riFail(RiRet.INVALID_PARAMETER);
      return createQp(r, attrs, vp_data, os_data, 'GSI');
    },
    ri_cq_set_event_handler(vp_hdl, handler_id, cq_callback) {
      const vp = vpOf(vp_hdl);
      if (!vp) return riFail(RiRet.VP_INVALID_HANDLE);
      if (handler_id === null || !Number.isInteger(handler_id) || handler_id < 0) return riFail(RiRet.INVALID_PARAMETER);
      if (cq_callback !== null && typeof cq_callback !== 'function') return riFail(RiRet.INVALID_PARAMETER);
      const r = vp.engine.setCqHandler(handler_id, cq_callback);
      if (r.status !== RiRet.SUCCESS) return riFail(r.status as Exclude<RiRet, RiRet.SUCCESS>);
      return riOk({ handler_id: r.id });
    },
    ri_cq_req_notification(rnic, cq, type) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, cq, CqHandle);
      if (!h) return riFail(RiRet.CQ_INVALID_HANDLE);
      if (type !== RiCmpltNotifyType.SOLICITED && type !== RiCmpltNotifyType.ANY) return riFail(RiRet.INVALID_PARAMETER);
      if (h.cq.handlerId === 0) return riFail(RiRet.CQ_NO_EVENT_HANDLER);
      h.cq.arm(type as number);
      return RI_OK;
    },
    ri_cq_poll(rnic, cq, num_wcs) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, cq, CqHandle);
      if (!h) return riFail(RiRet.CQ_INVALID_HANDLE);
      if (!Number.isInteger(num_wcs) || num_wcs < 1) return riFail(RiRet.INVALID_PARAMETER);
      const out: WorkCompletion[] = [];
      const n = h.cq.poll(out, num_wcs);
      if (n === 0) return riFail(RiRet.CQ_EMPTY);
      return riOk({ wcs: out as ri_wc_t[] });
    },

    // ------------------------------------------------------------------ QP
    ri_qp_create(rnic, attrs, vp_data, os_data) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      return createQp(r, attrs, vp_data, os_data, undefined);
    },
    ri_qp_query(rnic, qp) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, qp, QpHandle);
      if (!h) return riFail(RiRet.QP_INVALID_HANDLE);
      return riOk({ attrs: qpAttrs(h) });
    },
    ri_qp_modify(rnic, qp, qp_mask, attrs) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, qp, QpHandle);
      if (!h) return riFail(RiRet.QP_INVALID_HANDLE);
      const m = h.qp.isIb ? decodeModifyIb(h.qp, qp_mask, attrs) : decodeModify(qp_mask, attrs);
      if (typeof m === 'number') return riFail(m as Exclude<RiRet, RiRet.SUCCESS>);
      const st = h.qp.modify(m);
      if (st !== RiRet.SUCCESS) return riFail(st as Exclude<RiRet, RiRet.SUCCESS>);
      return riOk({ attrs: qpAttrs(h) });
    },
    ri_qp_destroy(rnic, qp) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, qp, QpHandle);
      if (!h) return riFail(RiRet.QP_INVALID_HANDLE);
      const st = r.engine.qpDestroy(h.qp);
      if (st === RiRet.SUCCESS) {
        releaseSpecialCqs(h.qp);
        h.kill();
      }
      return riStatusOf(st);
    },

    // ------------------------------------------------------------------ posting (SQ)
    ri_qp_postsq(rnic, qp, wr, num_wrs) {
      const r = rnicOf(rnic);
      if (!r) return listFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, qp, QpHandle);
      if (!h) return listFail(RiRet.QP_INVALID_HANDLE);
      return postList(wr, num_wrs, (w) => postSqOne(r, h, w));
    },
    ri_qp_post_send(rnic, qp, type, flags, id, sg_list, rtag, num_sgls, imm_data) {
      return single(rnic, qp, { type, flags, id, sg_list, rtag, num_sgls, imm_data } as ri_wr_t);
    },
    ri_qp_post_rdma_read(rnic, qp, type, flags, id, sg_list, rdma_addr, num_sgls, rtag) {
      return single(rnic, qp, { type, flags, id, sg_list, rdma_addr, num_sgls, rtag } as ri_wr_t);
    },
    ri_qp_post_rdma_write(rnic, qp, type, flags, id, sg_list, rdma_addr, rtag, num_sgls, imm_data) {
      return single(rnic, qp, { type, flags, id, sg_list, rdma_addr, rtag, num_sgls, imm_data } as ri_wr_t);
    },
    ri_qp_post_bind(rnic, qp, type, flags, id, mw_handle, rtag, mr_handle, ltag, vaddr, length, mem_attr) {
      return single(rnic, qp, { type, flags, id, mw_handle, rtag, mr_handle, ltag, vaddr, length, mem_attr } as ri_wr_t);
    },
    ri_qp_post_fmr(rnic, qp, type, flags, id, attr, ltag, rtag, mr_handle) {
      return single(rnic, qp, { type, flags, id, attr, ltag, rtag, mr_handle } as ri_wr_t);
    },
    ri_qp_post_local_invalidate(rnic, qp, type, flags, id, ltag, rtag, mrw_handle) {
      return single(rnic, qp, { type, flags, id, ltag, rtag, mrw_handle } as ri_wr_t);
    },
    ri_qp_post_atomic(rnic, qp, type, flags, id, rtag, atomic_operand1, atomic_operand2, atomic_result, rdma_addr) {
      return single(rnic, qp, { type, flags, id, rtag, atomic_operand1, atomic_operand2, atomic_result, rdma_addr } as ri_wr_t);
    },
    ri_qp_post_datagram(rnic, qp) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!own(r, qp, QpHandle)) return riFail(RiRet.QP_INVALID_HANDLE);
      return XPORT;
    },

    // ------------------------------------------------------------------ posting (RQ / SRQ)
    ri_qp_postrq(rnic, qp_handle, wr, num_wrs) {
      const r = rnicOf(rnic);
      if (!r) return listFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, qp_handle, QpHandle);
      if (!h) return listFail(RiRet.QP_INVALID_HANDLE);
      return postList(wr, num_wrs, (w) => postRecvOne(r, h, w));
    },
    ri_qp_post_recv(rnic, qp_handle, flags, id, sg_list, num_sgls) {
      const res = ops.ri_qp_postrq(rnic, qp_handle, [{ flags, id, sg_list, num_sgls }]);
      return riStatusOf(res.status);
    },
    ri_srq_create(rnic, srq_attrs, vp_data, os_data) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!srq_attrs || typeof srq_attrs !== 'object') return riFail(RiRet.INVALID_PARAMETER);
      const pd = own(r, srq_attrs.pd, PdHandle);
      if (!pd) return riFail(RiRet.PD_INVALID_HANDLE);
      const s = r.engine.srqCreate(pd.pd, srq_attrs.max_wrs, srq_attrs.max_sgl, srq_attrs.lowat ?? 0, os_data);
      if (typeof s === 'number') return riFail(s as Exclude<RiRet, RiRet.SUCCESS>);
      const h = new SrqHandle(r, s, pd, vp_data, os_data);
      return riOk({ srq: h, srq_attrs: srqAttrs(h) });
    },
    ri_srq_query(rnic, srq) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, srq, SrqHandle);
      if (!h) return riFail(RiRet.SRQ_INVALID_HANDLE);
      if (h.srq.error) return riFail(RiRet.SRQ_IN_ERROR);
      return riOk({ srq_attrs: srqAttrs(h) });
    },
    ri_srq_modify(rnic, srq, srqmask, attrs) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, srq, SrqHandle);
      if (!h) return riFail(RiRet.SRQ_INVALID_HANDLE);
      const known = RiSrqAttrMask.MAX_WRS | RiSrqAttrMask.LOWAT;
      if (!Number.isInteger(srqmask) || srqmask === 0 || (srqmask & ~known) !== 0 || !attrs) {
        return riFail(RiRet.INVALID_PARAMETER);
      }
      let maxWrs: number | undefined;
      let lowat: number | undefined;
      if (srqmask & RiSrqAttrMask.MAX_WRS) {
        if (!Number.isInteger(attrs.max_wrs)) return riFail(RiRet.INVALID_PARAMETER);
        maxWrs = attrs.max_wrs;
      }
      if (srqmask & RiSrqAttrMask.LOWAT) {
        if (!Number.isInteger(attrs.lowat)) return riFail(RiRet.INVALID_PARAMETER);
        lowat = attrs.lowat;
      }
      const st = r.engine.srqModify(h.srq, maxWrs, lowat);
      if (st !== RiRet.SUCCESS) return riFail(st as Exclude<RiRet, RiRet.SUCCESS>);
      return riOk({ attrs: srqAttrs(h) });
    },
    ri_srq_destroy(rnic, srq) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, srq, SrqHandle);
      if (!h) return riFail(RiRet.SRQ_INVALID_HANDLE);
      const st = r.engine.srqDestroy(h.srq);
      if (st === RiRet.SUCCESS) h.kill();
      return riStatusOf(st);
    },
    ri_srq_post(rnic, srq_handle, wr, num_wrs) {
      const r = rnicOf(rnic);
      if (!r) return listFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, srq_handle, SrqHandle);
      if (!h) return listFail(RiRet.SRQ_INVALID_HANDLE);
      return postList(wr, num_wrs, (w) => postRecvOne(r, h, w));
    },
    ri_srq_post_recv(rnic, srq_handle, flags, id, sg_list, num_sgls) {
      const res = ops.ri_srq_post(rnic, srq_handle, [{ flags, id, sg_list, num_sgls }]);
      return riStatusOf(res.status);
    },

    // ------------------------------------------------------------------ memory regions
    ri_ltag_alloc(rnic, address_list_length, pd, attr, ltag, vp_data, os_data) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!r.privileged) return riFail(RiRet.NO_PERMISSION);
      const p = own(r, pd, PdHandle);
      if (!p) return riFail(RiRet.PD_INVALID_HANDLE);
      if (!validMemAttr(attr) || !Number.isInteger(ltag)) return riFail(RiRet.INVALID_PARAMETER);
      const m = ltagAlloc(r.engine, p.pd, address_list_length, attr, ltag & 0xff, os_data);
      if (typeof m === 'number') return riFail(m as Exclude<RiRet, RiRet.SUCCESS>);
      const h = new MrHandle(r, m, vp_data, os_data);
      const out = { address_list_length: m.maxPbl, mr: h, ltag: m.stag };
      return riOk(m.remoteAllowed ? { ...out, rtag: m.stag } : out);
    },
    ri_mr_reg(rnic, a, ltag, vp_data, os_data) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!a || typeof a !== 'object' || typeof a.va !== 'bigint' || !Number.isInteger(ltag)) {
        return riFail(RiRet.INVALID_PARAMETER);
      }
      const p = own(r, a.pd, PdHandle);
      if (!p) return riFail(RiRet.PD_INVALID_HANDLE);
      if (!validMemAttr(a.mem_attr)) return riFail(RiRet.INVALID_PARAMETER);
      const m = mrReg(r.engine, { va: a.va, length: a.length, flags: a.mem_attr, pd: p.pd, key: ltag & 0xff }, os_data);
      if (typeof m === 'number') return riFail(m as Exclude<RiRet, RiRet.SUCCESS>);
      return riOk({ mr: new MrHandle(r, m, vp_data, os_data), ...tagsOf(m) });
    },
    ri_mr_query(rnic, mr) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, mr, MrHandle);
      if (!h) return riFail(RiRet.MR_INVALID_HANDLE);
      return riOk({ mr_info: mrInfo(h) });
    },
    ri_mr_rereg(rnic, in_mr, change_mask, mr_attr, ltag, _vp_data, _os_data) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, in_mr, MrHandle);
      if (!h) return riFail(RiRet.MR_INVALID_HANDLE);
      const ch = decodeRereg(r, change_mask, mr_attr, ltag);
      if (typeof ch === 'number') return riFail(ch as Exclude<RiRet, RiRet.SUCCESS>);
      const st = mrRereg(r.engine, h.mem, ch, false);
      afterRereg(h, st);
      if (st !== RiRet.SUCCESS) return riFail(st as Exclude<RiRet, RiRet.SUCCESS>);
      return riOk({ out_mr: h, ...tagsOf(h.mem) });
    },
    ri_mr_dereg(rnic, mr) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, mr, MrHandle);
      if (!h) return riFail(RiRet.MR_INVALID_HANDLE);
      const st = mrDereg(r.engine, h.mem);
      if (st === RiRet.SUCCESS) h.kill();
      return riStatusOf(st);
    },
    ri_mr_reg_phys(rnic, a, ltag, vp_data, os_data) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!r.privileged) return riFail(RiRet.NO_PERMISSION);
      if (!a?.common || typeof a.common.va !== 'bigint' || !Number.isInteger(ltag)) {
        return riFail(RiRet.INVALID_PARAMETER);
      }
      const p = own(r, a.common.pd, PdHandle);
      if (!p) return riFail(RiRet.PD_INVALID_HANDLE);
      if (!validMemAttr(a.common.mem_attr)) return riFail(RiRet.INVALID_PARAMETER);
      const pl = physList(a);
      if (typeof pl === 'number') return riFail(pl as Exclude<RiRet, RiRet.SUCCESS>);
      const c = a.common;
      const m = mrRegPhys(r.engine, r.vp.pblMode, { va: c.va, length: c.length, flags: c.mem_attr, pd: p.pd, key: ltag & 0xff }, pl, os_data);
      if (typeof m === 'number') return riFail(m as Exclude<RiRet, RiRet.SUCCESS>);
      return riOk({ mr: new MrHandle(r, m, vp_data, os_data), mr_phys_attr: a, ...tagsOf(m) });
    },
    ri_mr_rereg_phys(rnic, in_mr, change_mask, a, ltag, _rtag, _vp_data, _os_data) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!r.privileged) return riFail(RiRet.NO_PERMISSION);
      const h = own(r, in_mr, MrHandle);
      if (!h) return riFail(RiRet.MR_INVALID_HANDLE);
      if (!a?.common) return riFail(RiRet.INVALID_PARAMETER);
      const ch = decodeRereg(r, change_mask, a.common, ltag);
      if (typeof ch === 'number') return riFail(ch as Exclude<RiRet, RiRet.SUCCESS>);
      if (ch.translate) {
        if (typeof a.common.va !== 'bigint') return riFail(RiRet.INVALID_PARAMETER);
        const pl = physList(a);
        if (typeof pl === 'number') {
          // A malformed list is INVALID_PARAMETER (no change); other list errors deallocate.
          if (pl === RiRet.INVALID_PARAMETER) return riFail(pl);
          ch.fail = pl;
        } else {
          ch.translate = { va: a.common.va, length: a.common.length, phys: pl, mode: r.vp.pblMode };
        }
      }
      const st = mrRereg(r.engine, h.mem, ch, true);
      afterRereg(h, st);
      if (st !== RiRet.SUCCESS) return riFail(st as Exclude<RiRet, RiRet.SUCCESS>);
      return riOk({ out_mr: h, mr_phys_attr: a, ...tagsOf(h.mem) });
    },
    ri_mr_reg_shared(rnic, in_mr, a, ltag, vp_data, os_data) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const src = own(r, in_mr, MrHandle);
      if (!src) return riFail(RiRet.MR_INVALID_HANDLE);
      if (!a || typeof a.va !== 'bigint' || !Number.isInteger(ltag)) return riFail(RiRet.INVALID_PARAMETER);
      const p = own(r, a.pd, PdHandle);
      if (!p) return riFail(RiRet.PD_INVALID_HANDLE);
      if (!validMemAttr(a.mem_attr)) return riFail(RiRet.INVALID_PARAMETER);
      // The input length is ignored: a shared MR has the original's length.
      const m = mrRegShared(r.engine, src.mem, { va: a.va, length: 0, flags: a.mem_attr, pd: p.pd, key: ltag & 0xff }, os_data);
      if (typeof m === 'number') return riFail(m as Exclude<RiRet, RiRet.SUCCESS>);
      const out: ri_mr_reg_attr_t = { va: m.regVa, length: m.length, mem_attr: m.regFlags, pd: p };
      return riOk({ out_mr: new MrHandle(r, m, vp_data, os_data), mr_reg_attr: out, ...tagsOf(m) });
    },

    // ------------------------------------------------------------------ memory windows
    ri_mw_alloc(rnic, pd, mw_type, vp_data, os_data) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const p = own(r, pd, PdHandle);
      if (!p) return riFail(RiRet.PD_INVALID_HANDLE);
      const m = mwAlloc(r.engine, p.pd, mw_type, os_data);
      if (typeof m === 'number') return riFail(m as Exclude<RiRet, RiRet.SUCCESS>);
      return riOk({ mw: new MwHandle(r, m, vp_data, os_data), rtag: m.stag });
    },
    ri_mw_dealloc(rnic, mw) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, mw, MwHandle);
      if (!h) return riFail(RiRet.MW_INVALID_HANDLE);
      const st = mwDealloc(r.engine, h.mem);
      if (st === RiRet.SUCCESS) h.kill();
      return riStatusOf(st);
    },
    ri_mw_query(rnic, mw) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      const h = own(r, mw, MwHandle);
      if (!h) return riFail(RiRet.MW_INVALID_HANDLE);
      const m = h.mem;
      const pd = (m.pd ? pdHandles.get(m.pd) : undefined)!;
      return riOk({
        mw_type: m.mwType,
        stag_state: m.valid ? RiStagState.VALID : RiStagState.INVALID,
        pd,
        // An unbound window has no permissions.
        attr: m.valid ? m.rights : 0,
        rtag: m.stag,
      });
    },

    // ------------------------------------------------------------------ pin / map / sync
    ri_mem_pin(rnic, vaddr, len, os_data) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!r.privileged) return riFail(RiRet.NO_PERMISSION);
      return riStatusOf(r.vp.pins.pin(vaddr, len, os_data));
    },
    ri_mem_unpin(rnic, vaddr, len, os_data) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!r.privileged) return riFail(RiRet.NO_PERMISSION);
      return riStatusOf(r.vp.pins.unpin(vaddr, len, os_data));
    },
    ri_mem_map(rnic, vaddr, len, os_data) {
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
    },
    ri_mem_unmap(rnic, io, os_data) {
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
    },
    ri_mem_sync_rread(rnic, list, num_seg) {
      return memSync(rnic, list, num_seg);
    },
    ri_mem_sync_rwrite(rnic, list, num_seg) {
      return memSync(rnic, list, num_seg);
    },

    // ------------------------------------------------------------------ InfiniBand only
    ri_ah_create(rnic, pd, av, vp_data, os_data) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!r.engine.isIb) return XPORT;
      const p = own(r, pd, PdHandle);
      if (!p) return riFail(RiRet.PD_INVALID_HANDLE);
      const a = ahAv(r, av);
      if (typeof a === 'number') return riFail(a as Exclude<RiRet, RiRet.SUCCESS>);
      if (r.vp.ahCount >= MAX_AHS) return riFail(RiRet.RESOURCE_SHORTAGE);
      r.vp.ahCount++;
      p.pd.users++;
      return riOk({ ah: new AhHandle(r, p, a, vp_data, os_data) as unknown as ri_address_handle_t });
    },
    ri_ah_query(rnic, ah) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!r.engine.isIb) return XPORT;
      const h = own(r, ah, AhHandle);
      if (!h) return riFail(RiRet.ADDRESS_HANDLE_INVALID);
      return riOk({ av: { av_common: riOfAv(h.av), physical_port: h.av.port }, pd: h.pdH });
    },
    ri_ah_modify(rnic, ah, av) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!r.engine.isIb) return XPORT;
      const h = own(r, ah, AhHandle);
      if (!h) return riFail(RiRet.ADDRESS_HANDLE_INVALID);
      const a = ahAv(r, av);
      if (typeof a === 'number') return riFail(a as Exclude<RiRet, RiRet.SUCCESS>);
      h.av = a;
      return RI_OK;
    },
    ri_ah_destroy(rnic, ah) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!r.engine.isIb) return XPORT;
      const h = own(r, ah, AhHandle);
      if (!h) return riFail(RiRet.ADDRESS_HANDLE_INVALID);
      destroyAh(h);
      return RI_OK;
    },
    ri_mcast_attach(rnic, mlid, mgid, qp) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!r.engine.isIb) return XPORT;
      const h = own(r, qp, QpHandle);
      if (!h) return riFail(RiRet.QP_INVALID_HANDLE);
      const g = gidOfRi(mgid);
      if (!g) return riFail(RiRet.MGID_INVALID);
      return riStatusOf(r.engine.mcastAttach(h.qp, g, mlid));
    },
    ri_mcast_detach(rnic, mlid, mgid, qp) {
      const r = rnicOf(rnic);
      if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
      if (!r.engine.isIb) return XPORT;
      const h = own(r, qp, QpHandle);
      if (!h) return riFail(RiRet.QP_INVALID_HANDLE);
      const g = gidOfRi(mgid);
      if (!g) return riFail(RiRet.MGID_INVALID);
      return riStatusOf(r.engine.mcastDetach(h.qp, g, mlid));
    },
    ri_process_sma_mad() {
      return XPORT;
    },
  };
  if (user) {
    const stub = riFail(RiRet.NO_PERMISSION);
    for (const name of KERNEL_ONLY) (ops as unknown as Record<string, () => unknown>)[name] = () => stub;
  }
  return Object.freeze(ops);
}

function riStatusOf(st: RiRet): RiStatus {
  return st === RiRet.SUCCESS ? RI_OK : riFail(st as Exclude<RiRet, RiRet.SUCCESS>);
}

function single(rnic: unknown, qp: unknown, wr: ri_wr_t): RiStatus {
  const r = rnicOf(rnic);
  if (!r) return riFail(RiRet.RNIC_INVALID_HANDLE);
  const h = own(r, qp, QpHandle);
  if (!h) return riFail(RiRet.QP_INVALID_HANDLE);
  return riStatusOf(postSqOne(r, h, wr));
}

/** Validates an `ri_ud_address_vector_t` with the core's AV rule. */
function ahAv(r: SoftrdmaRnicHandle, av: ri_ud_address_vector_t | null): IbAv | RiRet {
  if (!av || typeof av !== 'object') return RiRet.INVALID_PARAMETER;
  const a = avOfRi(av.av_common, av.physical_port);
  if (!a) return RiRet.INVALID_PARAMETER;
  return resolveAv(r.engine, a);
}

function destroyAh(h: AhHandle): void {
  h.pdH.pd.users--;
  h.owner.vp.ahCount--;
  h.kill();
}

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

/** Decodes `ri_qp_modify`'s mask (iWARP meanings of bits 5–9) into the engine's request. */
function decodeModify(mask: number, a: ri_qp_attr_in_t): QpModify | RiRet {
  if (!Number.isInteger(mask) || (mask & ~RI_QP_ATTR_IWARP_VALID_MASK) !== 0) return RiRet.INVALID_PARAMETER;
  if (!a || typeof a !== 'object') return RiRet.INVALID_PARAMETER;
  if (a.qp_xport && 'qp_ib' in a.qp_xport) return RiRet.QP_INVALID_SERVICE_TYPE;
  const iw: Partial<ri_iwarp_qp_attr_t> = a.qp_xport && 'qp_iwarp' in a.qp_xport ? (a.qp_xport.qp_iwarp ?? {}) : {};
  const m: QpModify = {};
  const int = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0;
  if (mask & RiQpAttrMask.NEXT_STATE) {
    if (!int(a.state)) return RiRet.INVALID_PARAMETER;
    m.nextState = a.state;
  }
  if (mask & RiQpAttrMask.SQ_SIZE) {
    if (!int(a.sq_size)) return RiRet.INVALID_PARAMETER;
    m.sqSize = a.sq_size;
  }
  if (mask & RiQpAttrMask.RQ_SIZE) {
    if (!int(a.rq_size)) return RiRet.INVALID_PARAMETER;
    m.rqSize = a.rq_size;
  }
  if (mask & RiQpAttrMask.MAX_RDMA_READ_OUTGOING) {
    if (!int(a.max_rdma_read_outgoing)) return RiRet.INVALID_PARAMETER;
    m.ord = a.max_rdma_read_outgoing;
  }
  if (mask & RiQpAttrMask.MAX_RDMA_READ_INCOMING) {
    if (!int(a.max_rdma_read_incoming)) return RiRet.INVALID_PARAMETER;
    m.ird = a.max_rdma_read_incoming;
  }
  if (mask & RiQpAttrMask.RQ_HIWAT) {
    if (!int(iw.rq_hiwat)) return RiRet.INVALID_PARAMETER;
    m.rqHiwat = iw.rq_hiwat;
  }
  if (mask & RiQpAttrMask.RQ_ARMED) {
    if (typeof iw.rq_armed !== 'boolean') return RiRet.INVALID_PARAMETER;
    m.rqArmed = iw.rq_armed;
  }
  if (mask & RiQpAttrMask.LLQ_STREAM_HANDLE) {
    m.llp = llpHandle(iw.llp_stream_handle);
  }
  if (mask & RiQpAttrMask.STREAM_MSG_BUFFER) {
    const b = iw.stream_msg_buf;
    if (!(b instanceof Uint8Array)) return RiRet.INVALID_PARAMETER;
    const n = iw.stream_msg_buf_length ?? b.length;
    if (!Number.isInteger(n) || n < 0 || n > b.length) return RiRet.INVALID_PARAMETER;
    // Copied: the buffer is the caller's again when the call returns.
    m.streamMsg = b.slice(0, n);
  }
  if (mask & RiQpAttrMask.MPA_ATTR) {
    const p = iw.mpa_attributes;
    if (
      !p ||
      typeof p.recv_marker_enabled !== 'boolean' ||
      typeof p.xmit_marker_enabled !== 'boolean' ||
      typeof p.crc_enabled !== 'boolean' ||
      !Number.isInteger(p.ddp_rdma_version)
    ) {
      return RiRet.INVALID_PARAMETER;
    }
    m.mpa = {
      recvMarkers: p.recv_marker_enabled,
      xmitMarkers: p.xmit_marker_enabled,
      crc: p.crc_enabled,
      ddpRdmapVersion: p.ddp_rdma_version,
    };
  }
  return m;
}

/** Plain connected sockets are accepted as LLP handles too (wrapped once, types.ts). */
const socketStreams = new WeakMap<Socket, LlpStream>();
function llpHandle(h: unknown): unknown {
  if (h instanceof Socket) {
    let s = socketStreams.get(h);
    if (!s) {
      s = new LlpStream(h);
      socketStreams.set(h, s);
    }
    return s;
  }
  return h ?? null;
}

/** Decodes `ri_mr_rereg(_phys)` inputs; the PD is resolved here, its failure deallocates (spec). */
function decodeRereg(
  r: SoftrdmaRnicHandle,
  mask: number,
  a: ri_mr_reg_attr_t | null | undefined,
  ltag: number,
): ReregChange | RiRet {
  if (!Number.isInteger(mask) || mask === 0 || (mask & ~REREG_ALL) !== 0) return RiRet.INVALID_PARAMETER;
  if (!a || typeof a !== 'object' || !Number.isInteger(ltag)) return RiRet.INVALID_PARAMETER;
  const ch: ReregChange = { key: ltag & 0xff };
  if (mask & RiMrRereg.TRANSLATE) {
    if (typeof a.va !== 'bigint') return RiRet.INVALID_PARAMETER;
    ch.translate = { va: a.va, length: a.length };
  }
  if (mask & RiMrRereg.ACCESS) {
    if (!validMemAttr(a.mem_attr)) return RiRet.INVALID_PARAMETER;
    ch.flags = a.mem_attr;
  }
  if (mask & RiMrRereg.PD) {
    const p = own(r, a.pd, PdHandle);
    // PD_INVALID_HANDLE is not one of the four no-change errors: the engine deallocates.
    if (!p) ch.fail = RiRet.PD_INVALID_HANDLE;
    else ch.pd = p.pd;
  }
  return ch;
}

// =============================================================================================
// The four vectors and the lifecycle helpers
// =============================================================================================

/** Kernel (P-RNICPI), AL-serialized: the vector given to `ri_svc_attach` as `al_locking_ops`. */
export const SOFTRDMA_KERNEL_OPS: ri_ops_t = makeOps(false, () => SOFTRDMA_KERNEL_OPS);
/** Kernel, VP-serialized (`vp_locking_ops`). */
export const SOFTRDMA_KERNEL_VP_OPS: ri_ops_t = makeOps(false, () => SOFTRDMA_KERNEL_VP_OPS);
/** User-level (NP-RNICPI, the uVP), AL-serialized: kernel-only calls answer NO_PERMISSION. */
export const SOFTRDMA_USER_OPS: ri_ops_t = makeOps(true, () => SOFTRDMA_USER_OPS);
/** User-level, VP-serialized. */
export const SOFTRDMA_USER_VP_OPS: ri_ops_t = makeOps(true, () => SOFTRDMA_USER_VP_OPS);

/** Sanity check at load: every vector implements the 63 calls. */
for (const v of [SOFTRDMA_KERNEL_OPS, SOFTRDMA_KERNEL_VP_OPS, SOFTRDMA_USER_OPS, SOFTRDMA_USER_VP_OPS]) {
  for (const name of RI_OPS_ORDER) {
    if (typeof v[name] !== 'function') throw new RiError(RiRet.FAIL, `softrdma provider lacks ${name}`);
  }
}

/**
 * The configuration of the `i`th RoCEv2 RNIC: the InfiniBand transport (its binder is the
 * RoCEv2 transport's, `registerIbBinder('rocev2', …)`), its own GID table (`gid-table.ts`: the
 * host's addresses, followed while the RNIC is open, or `SOFTRDMA_ROCE_ADDRS`), the UDP
 * port of `SOFTRDMA_ROCE_PORT` (default 4791), and an active MTU of 1024, as Linux rxe derives
 * it from a 1500-octet Ethernet MTU.
 */
export function roceConfig(base: Partial<RnicConfig> | undefined, i: number): Partial<RnicConfig> {
  const port = roceUdpPortFromEnv();
  const table = new RoceGidTable();
  const gids = () => table.gids();
  roceTables.set(gids, table);
  return {
    ...base,
    name: `softroce${i}`,
    transport: 'rocev2',
    gids,
    watchGids: (fn) => table.watch(fn),
    activeMtu: 3,
    ...(port !== undefined && { roceUdpPort: port }),
  };
}

/** The GID table of each RoCEv2 RNIC made by {@link roceConfig}, by its `gids` accessor. */
const roceTables = new WeakMap<object, RoceGidTable>();

/** The GID table owner of a RoCEv2 RNIC (null: another RNIC, or one whose table is fixed). */
export function roceGidTableOf(vp: SoftrdmaVpInfo): RoceGidTable | null {
  if (!(vp instanceof SoftrdmaVp)) return null;
  const g = vp.engine.config.gids;
  return (g && roceTables.get(g)) ?? null;
}

/** Creates one softrdma RNIC (a VP handle), not yet attached or opened. */
export function createSoftrdmaVp(config: Partial<RnicConfig> = {}): SoftrdmaVp {
  return new SoftrdmaVp({ ...DEFAULT_CONFIG, ...config, limits: { ...DEFAULT_CONFIG.limits, ...config.limits } });
}

/** The `ri_svcs_dev_arg_t` softrdma announces for `vp`. */
export function softrdmaDevArg(vp: SoftrdmaVp): ri_svcs_dev_arg_t {
  return {
    rnicpi_major_version: RNICPI_MAJOR_VERSION,
    rnicpi_minor_version: RNICPI_MINOR_VERSION,
    fw_major_version: 0,
    fw_minor_version: 1,
    fw_sub_minor_version: 0,
    // Room for a full answer with port info (addresses may change; the hint is generous).
    query_size: rnicAttrSize(rnicAttrs(vp, true)) + 256,
    lib_path: SOFTRDMA_LIB_PATH,
    hw_path: `softrdma:${vp.name}`,
  };
}

/**
 * Releases everything an address domain still holds through `rnic` and frees the handle, in
 * the order the destroy guards require (windows, QPs, regions, S-RQs, CQs, PDs). This is what
 * an access layer does when a user domain terminates (RNICPI Ch. 3.2.6): afterwards no
 * registration of the domain remains, so its memory may be reused.
 */
export function softrdmaTerminateDomain(vp_hdl: ri_vp_handle_t, rnic: unknown): RiStatus {
  const vp = vpOf(vp_hdl);
  if (!vp) return riFail(RiRet.VP_INVALID_HANDLE);
  if (!(rnic instanceof SoftrdmaRnicHandle) || rnic.freed || rnic.vp !== vp) return riFail(RiRet.RNIC_INVALID_HANDLE);
  const e = vp.engine;
  const all = [...rnic.objects];
  const step = <T extends ObjHandle>(cls: ObjClass<T>, destroy: (h: T) => RiRet): RiRet => {
    for (const h of all) {
      if (!(h instanceof cls) || h.dead) continue;
      const st = destroy(h);
      if (st !== RiRet.SUCCESS) return st;
      h.kill();
    }
    return RiRet.SUCCESS;
  };
  const steps: (() => RiRet)[] = [
    () => step(MwHandle, (h) => mwDealloc(e, h.mem)),
    () =>
      step(QpHandle, (h) => {
        // A terminated domain leaves its multicast groups too (Destroy QP refuses an attached QP).
        if (h.qp.mcastAttached) for (const m of [...h.qp.mcast.values()]) e.mcastDetach(h.qp, m, 0);
        const st = e.qpDestroy(h.qp);
        if (st === RiRet.SUCCESS) releaseSpecialCqs(h.qp);
        return st;
      }),
    () => step(MrHandle, (h) => mrDereg(e, h.mem)),
    () => step(SrqHandle, (h) => e.srqDestroy(h.srq)),
    () => step(CqHandle, (h) => e.cqDestroy(h.cq)),
    () =>
      step(AhHandle, (h) => {
        destroyAh(h);
        return RiRet.SUCCESS;
      }),
    () => step(PdHandle, (h) => e.pdDealloc(h.pd)),
  ];
  for (const s of steps) {
    const st = s();
    if (st !== RiRet.SUCCESS) return riFail(st as Exclude<RiRet, RiRet.SUCCESS>);
  }
  return SOFTRDMA_KERNEL_OPS.ri_rnic_free_hdl(vp, rnic);
}

// =============================================================================================
// Registry entry
// =============================================================================================

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
export function softrdmaProviderFactory(env: RiProviderEnv): SoftrdmaProviderInstance {
  const o = env.options as SoftrdmaProviderOptions;
  const count = o.rnics ?? 1;
  const vps: SoftrdmaVp[] = [];
  const baseName = o.config?.name ?? 'softrdma';
  const configs: Partial<RnicConfig>[] = [];
  for (let i = 0; i < count; i++) configs.push({ ...o.config, name: `${baseName}${i}` });
  for (let i = 0; i < (o.roce ?? 0); i++) configs.push(roceConfig(o.config, i));
  for (const cfg of configs) {
    const vp = createSoftrdmaVp(cfg);
    const st = env.svc.ri_svc_attach(vp, o.devInfo ?? vp.name, softrdmaDevArg(vp), SOFTRDMA_KERNEL_OPS, SOFTRDMA_KERNEL_VP_OPS);
    if (st.status !== RiRet.SUCCESS) {
      for (const v of vps) env.svc.ri_svc_detach(v);
      throw new RiError(st.status, `ri_svc_attach(${vp.name})`);
    }
    vps.push(vp);
  }
  return {
    name: SOFTRDMA_PROVIDER_NAME,
    vps,
    unload() {
      for (const vp of vps) {
        if (vp.open && vp.handles.size === 0) SOFTRDMA_KERNEL_OPS.ri_rnic_close(vp);
        env.svc.ri_svc_detach(vp);
      }
    },
  };
}

if (!getProvider(SOFTRDMA_PROVIDER_NAME)) registerProvider(SOFTRDMA_PROVIDER_NAME, softrdmaProviderFactory);

/** The RoCEv2 counters' names, meanings and published values, for `softrdma stat` (roce/counters.ts). */
export { countersDir, runtimeDir, type PublishedCounters, readPublishedCounters, ROCE_COUNTERS } from '../roce/counters.js';

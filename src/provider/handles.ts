/**
 * The softrdma provider's handles: the opaque objects RNICPI hands out (VP, RNIC, PD, CQ, QP,
 * S-RQ, MR, MW, AH), their kind, liveness and owner, and how a call finds them. An object is
 * valid only with the RNIC handle it was created through (RNICPI Ch. 4.5); an RNIC handle only
 * while its VP is open. Every `ri_*` function of the `ops-*.ts` modules starts here.
 *
 * @module
 */
import { type DeviceIdentity, deviceIdentity } from './identity.js';
import { installTransports } from './transports.js';
import type { Cq } from '../rnic/cq.js';
import { hostMemory } from '../rnic/hostmem.js';
import type { MemObject } from '../rnic/memory.js';
import type { Pd } from '../rnic/pd.js';
import type { Qp } from '../rnic/qp.js';
import type { IbAv } from '../rnic/transport.js';
import { DEFAULT_CONFIG, Rnic, type RnicConfig } from '../rnic/rnic.js';
import type { Srq } from '../rnic/srq.js';
import type { RiOpName, RiPostListResult, ri_ops_t } from '../rnicpi/ops.js';
import { type RiErrorCode, RiRet, riFail } from '../rnicpi/status.js';
import { RI_HANDLE_KIND, RiConsumerDomain, RiPblMode, RiTransportType, type ri_vp_handle_t } from '../rnicpi/types.js';

/** The type of one `ri_ops_t` entry: each `ops-*.ts` module defines its calls with it. */
export type RiOp<K extends RiOpName> = ri_ops_t[K];

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
  constructor(
    /** The AL-serialized kernel vector (Ch. 10.2: a VP handle starts with its ops vector). */
    readonly ops: ri_ops_t,
    config: RnicConfig = DEFAULT_CONFIG,
  ) {
    installTransports();
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

export abstract class ObjHandle {
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

export class PdHandle extends ObjHandle {
  readonly [RI_HANDLE_KIND] = 'pd' as const;
  constructor(
    owner: SoftrdmaRnicHandle,
    readonly pd: Pd,
    vpData: unknown,
    osData: unknown,
  ) {
    super(owner, vpData, osData);
    pdHandles.set(pd, this);
  }
}
export class CqHandle extends ObjHandle {
  readonly [RI_HANDLE_KIND] = 'cq' as const;
  constructor(
    owner: SoftrdmaRnicHandle,
    readonly cq: Cq,
    vpData: unknown,
    osData: unknown,
  ) {
    super(owner, vpData, osData);
  }
}
export class SrqHandle extends ObjHandle {
  readonly [RI_HANDLE_KIND] = 'srq' as const;
  constructor(
    owner: SoftrdmaRnicHandle,
    readonly srq: Srq,
    readonly pdH: PdHandle,
    vpData: unknown,
    osData: unknown,
  ) {
    super(owner, vpData, osData);
  }
}
export class QpHandle extends ObjHandle {
  readonly [RI_HANDLE_KIND] = 'qp' as const;
  constructor(
    owner: SoftrdmaRnicHandle,
    readonly qp: Qp,
    readonly pdH: PdHandle,
    vpData: unknown,
    osData: unknown,
  ) {
    super(owner, vpData, osData);
  }
}
export class MrHandle extends ObjHandle {
  readonly [RI_HANDLE_KIND] = 'mr' as const;
  constructor(
    owner: SoftrdmaRnicHandle,
    readonly mem: MemObject,
    vpData: unknown,
    osData: unknown,
  ) {
    super(owner, vpData, osData);
  }
}
export class MwHandle extends ObjHandle {
  readonly [RI_HANDLE_KIND] = 'mw' as const;
  constructor(
    owner: SoftrdmaRnicHandle,
    readonly mem: MemObject,
    vpData: unknown,
    osData: unknown,
  ) {
    super(owner, vpData, osData);
  }
}

/**
 * An IB address handle (`ri_ah_create`): a validated address vector in a PD. It holds a PD
 * reference (the PD cannot be deallocated under it) and nothing else: a UD Send copies its AV.
 */
export class AhHandle extends ObjHandle {
  readonly [RI_HANDLE_KIND] = 'ah' as const;
  constructor(
    owner: SoftrdmaRnicHandle,
    readonly pdH: PdHandle,
    public av: IbAv,
    vpData: unknown,
    osData: unknown,
  ) {
    super(owner, vpData, osData);
  }
}

/** Engine PD → its handle (for queries that report a PD: MR, MW, SRQ, QP). */
export const pdHandles = new WeakMap<Pd, PdHandle>();

export type ObjClass<T> = abstract new (...args: never[]) => T;

export function rnicOf(h: unknown): SoftrdmaRnicHandle | null {
  return h instanceof SoftrdmaRnicHandle && !h.freed && h.vp.open ? h : null;
}

/** `h` if it is a live object of class `cls` created through `rnic`, else null. */
export function own<T extends ObjHandle>(rnic: SoftrdmaRnicHandle, h: unknown, cls: ObjClass<T>): T | null {
  return h instanceof cls && !h.dead && h.owner === rnic ? h : null;
}

export function vpOf(h: unknown): SoftrdmaVp | null {
  return h instanceof SoftrdmaVp ? h : null;
}

/**
 * Reference-counted pins of exact ranges, each remembered with the `os_data` it was pinned with:
 * an unpin must name the same range and the same `os_data` (RNICPI Ch. 3.6, `ri_mem_pin`). The
 * access layer's `ri_svc_mem_pin` keeps one too.
 */
export class PinTable {
  readonly #m = new Map<string, unknown[]>();
  pin(vaddr: bigint, len: number, osData: unknown): RiRet {
    if (typeof vaddr !== 'bigint' || !Number.isInteger(len) || len <= 0) return RiRet.INVALID_PARAMETER;
    if (!hostMemory.pin(vaddr, len)) return RiRet.INVALID_PARAMETER;
    const k = `${vaddr}:${len}`;
    const l = this.#m.get(k);
    if (l) l.push(osData);
    else this.#m.set(k, [osData]);
    return RiRet.SUCCESS;
  }
  unpin(vaddr: bigint, len: number, osData: unknown): RiRet {
    if (typeof vaddr !== 'bigint' || !Number.isInteger(len) || len <= 0) return RiRet.INVALID_PARAMETER;
    const k = `${vaddr}:${len}`;
    const l = this.#m.get(k);
    const i = l ? l.indexOf(osData) : -1;
    if (!l || i < 0) return RiRet.INVALID_PARAMETER;
    l.splice(i, 1);
    if (l.length === 0) this.#m.delete(k);
    hostMemory.unpin(vaddr, len);
    return RiRet.SUCCESS;
  }
}

/**
 * What a call on an object starts with: the live RNIC handle `rnic`, then (`ibOnly`: on an
 * InfiniBand RNIC) the live object `h` of class `cls` created through it. Answers the object, or
 * the failure: RNIC_INVALID_HANDLE, XPORT_UNSUPPORTED, then `bad`.
 */
export function objOf<T extends ObjHandle>(rnic: unknown, h: unknown, cls: ObjClass<T>, bad: RiErrorCode, ibOnly = false): T | RiErrorCode {
  const r = rnicOf(rnic);
  if (!r) return RiRet.RNIC_INVALID_HANDLE;
  if (ibOnly && !r.engine.isIb) return RiRet.XPORT_UNSUPPORTED;
  return own(r, h, cls) ?? bad;
}

/** Result of the post-list calls on a bad RNIC/QP/SRQ handle. */
export function listFail(code: RiRet): RiPostListResult {
  return { status: code as Exclude<RiRet, RiRet.SUCCESS>, num_wrs: 0 };
}

/** The answer of a call the RNIC's transport does not have. */
export const XPORT = riFail(RiRet.XPORT_UNSUPPORTED);

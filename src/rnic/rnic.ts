/**
 * The software RNIC: one instance per opened device. It owns every resource (PDs, CQs,
 * S-RQs, QPs, STags), states its limits truthfully ({@link RnicLimits}, reported by
 * `ri_rnic_query`), and delivers asynchronous events (RDMA Protocol Verbs §9.1, RNICPI §5.1).
 *
 * Asynchrony reaches the Consumer only through completion handlers and the async event
 * handler, both invoked from microtasks, never re-entrantly inside a verb, and never for an
 * object after its destroy has returned (RNICPI §2.7).
 */
import { RiRet } from '../rnicpi/status.js';
import { RiAsyncEventType, RiIbPortState, RiWrType, type ri_event_record_t } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import { GSI_QPN } from '../wire/ib/mad.js';
import { Cq, type WorkCompletion } from './cq.js';
import { hostMemory } from './hostmem.js';
import { StagTable } from './memory.js';
import { Pd } from './pd.js';
import { Qp, type QpInit } from './qp.js';
import { randomQpn } from './random.js';
import { Srq } from './srq.js';
import { type TransportFamily, wrRow } from './wr-table.js';
import { QPN_MASK } from '../wire/ib/constants.js';

const log = logger('rnic');

/** The RNIC's limits; every figure is enforced, and `ri_rnic_query` reports them. */
export interface RnicLimits {
  maxPds: number;
  maxQps: number;
  maxWrsQp: number;
  maxSrqs: number;
  maxWrsSrq: number;
  /** SGEs per Send / Receive WR (Verbs: ≥ 4). */
  maxSglSendRecv: number;
  maxSglSrq: number;
  maxSglRdmaWrite: number;
  /** SGEs of an RDMA Read sink (siw allows 1; softrdma allows several). */
  maxSglRdmaRead: number;
  maxCqs: number;
  maxCqesPerCq: number;
  maxCqEventHandlers: number;
  maxMrs: number;
  maxMws: number;
  /** Maximum PBL entries of one registration. */
  maxPblSize: number;
  maxIrd: number;
  maxIrdPerQp: number;
  maxOrd: number;
  maxOrdPerQp: number;
  /** Bit i set ⇒ page size 2^i supported (page mode). */
  pageSizesMask: bigint;
  blockSizeLow: bigint;
  blockSizeHigh: bigint;
}

export const DEFAULT_LIMITS: RnicLimits = {
  maxPds: 1 << 16,
  maxQps: 1 << 16,
  maxWrsQp: 1 << 14,
  maxSrqs: 1 << 12,
  maxWrsSrq: 1 << 14,
  maxSglSendRecv: 8,
  maxSglSrq: 8,
  maxSglRdmaWrite: 8,
  maxSglRdmaRead: 8,
  maxCqs: 1 << 16,
  maxCqesPerCq: 1 << 18,
  maxCqEventHandlers: 64,
  maxMrs: 1 << 20,
  maxMws: 1 << 16,
  maxPblSize: 1 << 20,
  maxIrd: 1 << 20,
  maxIrdPerQp: 128,
  maxOrd: 1 << 20,
  maxOrdPerQp: 128,
  // 4 KiB … 2 MiB pages.
  pageSizesMask: ((1n << 22n) - 1n) & ~((1n << 12n) - 1n),
  blockSizeLow: 512n,
  blockSizeHigh: 1n << 30n,
};

/** Behaviour switches of one RNIC. */
export interface RnicConfig {
  /** Device name (`softrdma0`). */
  name: string;
  /**
   * The RNIC's family, fixed at creation: its WR types (the work-request table's `families`
   * column), QP states and attributes. The transports that carry its QPs are chosen per QP: an
   * iWARP QP by the LLP handle it is given, an IB QP by {@link RnicConfig.ibLink}.
   */
  family: TransportFamily;
  limits: RnicLimits;
  /**
   * Octets allowed to wait in a transport's socket toward one peer before the QP's transmission
   * pauses (explicit backpressure; every transport honours it, each on its own socket).
   */
  txWindow: number;
  /**
   * InfiniBand RNICs: the name of the registered IB binder that carries the QPs (transport.ts
   * `registerIbBinder`; the provider's RoCEv2 RNICs name RoCEv2's). Tests name the in-process
   * loopback's to run IB QPs in process. Without one, an IB QP cannot leave INIT.
   */
  ibLink?: string;
  /** InfiniBand RNICs: the port's GID table (16-octet GIDs; index = sgid_index; all-zero: an empty slot). */
  gids?: () => readonly Uint8Array[];
  /**
   * InfiniBand RNICs whose GID table changes (RoCEv2: it follows the host's addresses): calls
   * `onChange` after each change until the returned function is called. The provider watches
   * while the RNIC is open and reports changes through {@link Rnic.gidTableChanged}.
   */
  watchGids?: (onChange: () => void) => () => void;
  /** InfiniBand RNICs: the port's active MTU as `enum ibv_mtu` (the UD message limit). */
  activeMtu?: number;
  /** RoCEv2 RNICs: the UDP port of their endpoints (default 4791; tests use an ephemeral one). */
  roceUdpPort?: number;
  /**
   * Tell a peer "STag not associated" (RFC 5040/5041 §7.2) for a valid STag of another PD
   * instead of "Invalid STag". Off by default: an unauthenticated peer must not be able to map
   * other PDs' regions. RDMA Protocol Verbs
   * §10 I3 expects it on.
   */
  discloseNotAssociated?: boolean;
  /**
   * Let an inbound Send with Invalidate invalidate a Memory Region made by a registration
   * (`ri_mr_reg`, `ri_mr_reg_phys`), not only one allocated for Fast-Register
   * (`ri_ltag_alloc`) or a Memory Window. Off by default, as in Linux rxe (only fast-register
   * regions and windows are remotely invalidatable there): a peer given
   * one STag of a PD must not be able to revoke every other region of it
   * (`remoteInvalidatable` in memops.ts; see the spec-notes on remote invalidation). RDMA
   * Protocol Verbs §7.8 read literally, and Linux siw, allow it.
   */
  remoteInvalidateRegistered?: boolean;
}

export const DEFAULT_CONFIG: RnicConfig = {
  name: 'softrdma0',
  family: 'iwarp',
  limits: DEFAULT_LIMITS,
  txWindow: 4 << 20,
};

/** An asynchronous event record (RNICPI `ri_event_record_t` for non-port events). */
export interface AsyncEventRecord {
  event_type: RiAsyncEventType;
  event_data: { resource_os_data: unknown };
  err_data: bigint;
}

export type AsyncHandler = (rnicOsData: unknown, ev: AsyncEventRecord) => void;
export type CqHandler = (rnicOsData: unknown, cqOsData: unknown) => void;

let rnicSeq = 0;

/** Multicast groups per port and QPs per group (Linux rxe: `RXE_MAX_MCAST_GRP`, `RXE_MAX_MCAST_QP_ATTACH`). */
export const MCAST_GROUPS = 8192;
export const MCAST_QPS_PER_GROUP = 56;

/**
 * The MGID of a RoCEv2 multicast group: the IPv4-mapped GID of an IPv4 group
 * (`::ffff:224.0.0.0/4`), or an IPv6 multicast address (`ff00::/8`, RFC 4291 §2.7) itself, as
 * Linux rdma_cm makes them (`cma_iboe_set_mgid`).
 */
export function isRoceMcastGid(g: unknown): g is Uint8Array {
  if (!(g instanceof Uint8Array) || g.length !== 16) return false;
  if (g[0] === 0xff) return true;
  for (let i = 0; i < 10; i++) if (g[i] !== 0) return false;
  return g[10] === 0xff && g[11] === 0xff && g[12]! >= 224 && g[12]! <= 239;
}
const ibQpns = new Set<number>();

export class Rnic {
  readonly id = rnicSeq++;
  readonly stags: StagTable;
  readonly pds = new Set<Pd>();
  readonly cqs = new Set<Cq>();
  readonly qps = new Map<number, Qp>();
  readonly srqs = new Set<Srq>();
  /** Multicast groups of the port: MGID (hex) → the UD QPs attached (see {@link mcastAttach}). */
  readonly mcastGroups = new Map<string, Set<Qp>>();
  /** Completion Event Handlers by identifier (RNICPI `ri_cq_set_event_handler`). */
  readonly cqHandlers = new Map<number, CqHandler | null>();
  asyncHandler: AsyncHandler | null = null;
  /** `os_data` of `ri_rnic_open`, passed to every callback. */
  osData: unknown = null;
  /** MRs (including `ri_ltag_alloc` STags) counted against `maxMrs`; MWs against `maxMws`. */
  mrCount = 0;
  mwCount = 0;
  closed = false;
  #nextId = 1;
  #nextQpId = 1;
  #nextHandlerId = 1;
  /** Counters reported by `ri_rnic_diag`. */
  readonly counters = {
    terminatesSent: 0,
    terminatesReceived: 0,
    crcErrors: 0,
    asyncEvents: 0,
    overflows: 0,
    /** IB: datagrams dropped for a Q_Key that is not the receiving QP's (PortInfo Q_KeyViolations). */
    qkeyViolations: 0,
    /**
     * IB: UD datagrams dropped because they do not fit the receive at the head of the queue
     * (GRH and payload longer than it); the receive stays posted (`Responder.rxDatagram`).
     */
    udLengthDrops: 0,
    /** Inbound atomics executed (atomics.ts). */
    atomicsExecuted: 0,
  };

  constructor(readonly config: RnicConfig = DEFAULT_CONFIG) {
    this.stags = new StagTable(config.limits.maxMrs + config.limits.maxMws);
  }

  get limits(): RnicLimits {
    return this.config.limits;
  }

  /** The RNIC's QPs use the InfiniBand state set and attributes (RoCEv2). */
  get isIb(): boolean {
    return this.config.family === 'ib';
  }

  /** The GID table of the (one) port; empty on iWARP. */
  gidTable(): readonly Uint8Array[] {
    return this.config.gids?.() ?? [];
  }

  /**
   * The GID table changed (an address came or went): the UD transports follow it (their
   * endpoints on the port's addresses) and the consumer gets the unaffiliated port event with
   * the softrdma `sr_gid_change` flag (ibverbs `IBV_EVENT_GID_CHANGE`, IBTA Vol. 1 §11.6.3.3).
   */
  gidTableChanged(): void {
    log('RNIC[%d] GID table changed: %d entries', this.id, this.gidTable().length);
    for (const qp of this.qps.values()) qp.transport?.gidsChanged?.();
    this.portEvent(RiIbPortState.ACTIVE, true);
  }

  /** Queues the unaffiliated `RI_EVENT_PORT_EVENT` of port 1 (RNICPI Ch. 7, `ri_ib_port_event_t`). */
  portEvent(state: RiIbPortState, gidChange: boolean): void {
    this.counters.asyncEvents++;
    const handler = this.asyncHandler;
    if (!handler) return;
    const rec: ri_event_record_t = {
      event_type: RiAsyncEventType.PORT_EVENT,
      event_data: { port_event: { port_number: 1, port_state: state, ...(gidChange && { sr_gid_change: true }) } },
      err_data: 0n,
    };
    queueMicrotask(() => {
      if (this.closed) return;
      (handler as (os: unknown, ev: ri_event_record_t) => void)(this.osData, rec);
    });
  }

  /** Atomic operations can be posted: the work-request table's atomic rows name this RNIC's family. */
  get atomicsSupported(): boolean {
    return wrRow(RiWrType.COMPARE_AND_SWAP)?.families.includes(this.config.family) ?? false;
  }

  #newId(): number {
    return this.#nextId++;
  }

  // ------------------------------------------------------------------ events

  /** Queues an asynchronous event for the handler (lost if none is registered, RNICPI §5.1). */
  asyncEvent(type: RiAsyncEventType, obj: Qp | Cq | Srq | null): void {
    this.counters.asyncEvents++;
    const osData = obj ? obj.osData : this.osData;
    log('RNIC[%d] async event %s on %s', this.id, RiAsyncEventType[type], objName(obj));
    const handler = this.asyncHandler;
    if (!handler) return;
    const rec: AsyncEventRecord = { event_type: type, event_data: { resource_os_data: osData }, err_data: 0n };
    queueMicrotask(() => {
      if (this.closed || obj?.destroyed) return;
      handler(this.osData, rec);
    });
  }

  makeWc(qp: Qp): WorkCompletion {
    const wc: WorkCompletion = {
      op_type: 0,
      cq_os_data: null,
      flags: 0,
      invalidated_rtag: 0,
      qp_os_data: qp.osData,
      id: 0n,
      op_status: 0,
      bytes_transferred: 0,
      immediate_data: 0,
      err_data: 0n,
      qp_num: qp.id,
    };
    if (qp.service === 'UD') {
      // RNICPI `ri_gen_wc_t`: the completion of a UD (general) QP.
      wc.qpn = qp.id;
      wc.remote_lid = 0;
      wc.remote_qpn = 0;
      wc.remote_sl = 0;
      wc.local_lid_pathbits = 0;
      wc.ether_type = 0;
      wc.grh_present = 0;
      wc.pkey_index = 0;
      wc.freed_resource_count = 0;
    }
    return wc;
  }

  // ------------------------------------------------------------------ handlers

  /** Allocates (id 0) or replaces a Completion Event Handler; null clears it. */
  setCqHandler(id: number, cb: CqHandler | null): { status: RiRet; id: number } {
    if (id === 0) {
      if (this.cqHandlers.size >= this.limits.maxCqEventHandlers) return { status: RiRet.RESOURCE_SHORTAGE, id: 0 };
      const nid = this.#nextHandlerId++;
      this.cqHandlers.set(nid, cb);
      return { status: RiRet.SUCCESS, id: nid };
    }
    if (!this.cqHandlers.has(id)) return { status: RiRet.INVALID_HANDLER_ID, id };
    this.cqHandlers.set(id, cb);
    return { status: RiRet.SUCCESS, id };
  }

  // ------------------------------------------------------------------ PD

  pdAlloc(osData: unknown): Pd | RiRet {
    if (this.pds.size >= this.limits.maxPds) return RiRet.RESOURCE_SHORTAGE;
    const pd = new Pd(this.#newId(), osData);
    this.pds.add(pd);
    return pd;
  }

  pdDealloc(pd: Pd): RiRet {
    if (pd.users > 0) return RiRet.PD_INUSE;
    pd.destroyed = true;
    this.pds.delete(pd);
    return RiRet.SUCCESS;
  }

  // ------------------------------------------------------------------ CQ

  cqCreate(numCqe: number, handlerId: number, osData: unknown): Cq | RiRet {
    if (!Number.isInteger(numCqe) || numCqe < 1) return RiRet.INVALID_PARAMETER;
    if (numCqe > this.limits.maxCqesPerCq) return RiRet.CQ_CAPACITY_EXCEEDED;
    if (handlerId !== 0 && !this.cqHandlers.has(handlerId)) return RiRet.CQ_INVALID_EVENT_HANDLER;
    if (this.cqs.size >= this.limits.maxCqs) return RiRet.RESOURCE_SHORTAGE;
    const cq = new Cq(
      this.#newId(),
      numCqe,
      handlerId,
      osData,
      (c) => {
        const h = this.cqHandlers.get(c.handlerId);
        if (h && !this.closed) h(this.osData, c.osData);
      },
      (c) => {
        this.counters.overflows++;
        this.asyncEvent(RiAsyncEventType.CQ_OVERFLOW_DETECTED, c);
      },
    );
    this.cqs.add(cq);
    return cq;
  }

  cqDestroy(cq: Cq): RiRet {
    if (cq.users > 0) return RiRet.CQ_INUSE;
    cq.destroy();
    this.cqs.delete(cq);
    return RiRet.SUCCESS;
  }

  cqResize(cq: Cq, numCqe: number): RiRet {
    if (!Number.isInteger(numCqe) || numCqe < 1) return RiRet.INVALID_PARAMETER;
    if (numCqe > this.limits.maxCqesPerCq) return RiRet.CQ_CAPACITY_EXCEEDED;
    if (cq.error) return RiRet.CQ_ERROR;
    return cq.resize(numCqe) ? RiRet.SUCCESS : RiRet.CQ_WOULD_OVERFLOW;
  }

  // ------------------------------------------------------------------ S-RQ

  srqCreate(pd: Pd, maxWrs: number, maxSgl: number, lowat: number, osData: unknown): Srq | RiRet {
    if (!Number.isInteger(maxWrs) || maxWrs < 1 || !Number.isInteger(maxSgl) || maxSgl < 1) {
      return RiRet.INVALID_PARAMETER;
    }
    if (maxWrs > this.limits.maxWrsSrq) return RiRet.RNIC_WR_LIMIT_EXCEEDED;
    if (maxSgl > this.limits.maxSglSrq) return RiRet.RNIC_SG_LIMIT_EXCEEDED;
    if (lowat < 0 || lowat > maxWrs) return RiRet.SRQ_LIMIT_OUT_OF_RANGE;
    if (this.srqs.size >= this.limits.maxSrqs) return RiRet.RESOURCE_SHORTAGE;
    const srq = new Srq(this.#newId(), maxWrs, maxSgl, lowat, pd, osData, (s) => this.asyncEvent(RiAsyncEventType.SRQ_LIMIT_REACHED, s));
    pd.users++;
    this.srqs.add(srq);
    return srq;
  }

  srqModify(srq: Srq, maxWrs: number | undefined, lowat: number | undefined): RiRet {
    if (srq.error) return RiRet.SRQ_IN_ERROR;
    const cap = maxWrs ?? srq.capacity;
    if (maxWrs !== undefined) {
      if (!Number.isInteger(maxWrs) || maxWrs < 1) return RiRet.INVALID_PARAMETER;
      if (maxWrs > this.limits.maxWrsSrq) return RiRet.RNIC_WR_LIMIT_EXCEEDED;
      if (maxWrs < srq.occupied) return RiRet.SRQ_CANNOT_SHRINK;
    }
    // The limit must stay within the queue, also when only the size changes (Verbs §10 Q-S10).
    const lo = lowat ?? srq.lowat;
    if (!Number.isInteger(lo) || lo < 0 || lo > cap) return RiRet.SRQ_LIMIT_OUT_OF_RANGE;
    if (maxWrs !== undefined) srq.resize(maxWrs);
    if (lowat !== undefined) {
      srq.lowat = lowat;
      // Setting a value > 0 arms the limit on return (RNICPI ri_srq_modify).
      if (lowat > 0) srq.armed = true;
    }
    return RiRet.SUCCESS;
  }

  srqDestroy(srq: Srq): RiRet {
    if (srq.users > 0) return RiRet.SRQ_INUSE;
    srq.destroyed = true;
    srq.pd.users--;
    this.srqs.delete(srq);
    return RiRet.SUCCESS;
  }

  // ------------------------------------------------------------------ QP

  qpCreate(init: QpInit): Qp | RiRet {
    const l = this.limits;
    for (const n of [init.sqSize, init.rqSize, init.sqMaxSges, init.sqMaxSgesRdmaw, init.rqMaxSges, init.ord, init.ird]) {
      if (!Number.isInteger(n) || n < 0) return RiRet.INVALID_PARAMETER;
    }
    // No zero-sized SQ (Linux siw refuses it too); an RQ may be 0 only with an S-RQ.
    if (init.sqSize === 0 || (init.rqSize === 0 && !init.srq)) return RiRet.INVALID_PARAMETER;
    if (init.sqSize > l.maxWrsQp || init.rqSize > l.maxWrsQp) return RiRet.RNIC_WR_LIMIT_EXCEEDED;
    if (init.sqMaxSges > l.maxSglSendRecv || init.sqMaxSgesRdmaw > l.maxSglRdmaWrite) {
      return RiRet.RNIC_SG_LIMIT_EXCEEDED;
    }
    if (init.rqMaxSges > (init.srq ? l.maxSglSrq : l.maxSglSendRecv)) return RiRet.RNIC_SG_LIMIT_EXCEEDED;
    if (init.ord > l.maxOrdPerQp || init.ird > l.maxIrdPerQp) return RiRet.RNIC_IRD_ORD_EXCEEDED;
    if (init.srq && init.rqHiwat > init.srq.capacity) return RiRet.SRQ_LIMIT_OUT_OF_RANGE;
    if (this.qps.size >= l.maxQps) return RiRet.RESOURCE_SHORTAGE;
    // UC and UD exist on InfiniBand only (RNICPI §6.7; iWARP is RC).
    if (init.service !== undefined && init.service !== 'RC' && !this.isIb) return RiRet.QP_INVALID_SERVICE_TYPE;
    let id: number;
    if (init.special !== undefined) {
      // QP1 is per port, not drawn from the process-wide QPN counter (IBTA Vol. 1 §3.5.2); a
      // special QP is UD, and there is one of each per port (RNICPI ri_special_qp_get: QP_INUSE).
      if (!this.isIb) return RiRet.XPORT_UNSUPPORTED;
      if (init.service !== 'UD') return RiRet.QP_INVALID_SERVICE_TYPE;
      id = GSI_QPN;
      if (this.qps.has(id)) return RiRet.QP_INUSE;
    } else if (this.isIb) {
      // QPNs are drawn at random (`randomQpn`: 24 bits, not 0, 1 or 0xFFFFFF), unique in the
      // process (the in-process IB loopback joins QPs by dest QPN): a spoofer cannot guess the
      // QPN of a connection from the order QPs were made in, as it could from a counter
      // starting at 17 (Linux rxe's), and so cannot name it in a forged REQ or packet.
      do id = randomQpn();
      while (ibQpns.has(id));
      ibQpns.add(id);
    } else {
      id = this.#nextQpId;
      while (this.qps.has(id)) id = (id % QPN_MASK) + 1;
      this.#nextQpId = (id % QPN_MASK) + 1;
    }
    // Report at least what was asked for: one SGE minimum and the RNIC's floor of 4 Send SGEs.
    const qp = new Qp(this, id, {
      ...init,
      sqMaxSges: Math.max(init.sqMaxSges, 1),
      sqMaxSgesRdmaw: Math.max(init.sqMaxSgesRdmaw, 1),
      rqMaxSges: Math.max(init.rqMaxSges, 1),
    });
    this.qps.set(id, qp);
    init.pd.users++;
    init.scq.users++;
    init.rcq.users++;
    if (init.srq) init.srq.users++;
    log('QP[%d] created (sq %d, rq %d, ord %d, ird %d)', id, init.sqSize, init.rqSize, init.ord, init.ird);
    return qp;
  }

  qpDestroy(qp: Qp): RiRet {
    if (qp.boundWindows > 0) return RiRet.WINDOWS_BOUND;
    if (qp.mcastAttached) return RiRet.MULTICAST_ATTACHED;
    qp.destroy();
    this.qps.delete(qp.id);
    if (this.isIb && qp.special === undefined) ibQpns.delete(qp.id);
    qp.pd.users--;
    qp.scq.users--;
    qp.rcq.users--;
    if (qp.srq) {
      qp.srq.users--;
    }
    log('QP[%d] destroyed', qp.id);
    return RiRet.SUCCESS;
  }

  // ------------------------------------------------------------------ multicast (IB UD)

  /**
   * Attaches a UD QP to the multicast group `mgid` (IBTA Vol. 1 §10.5; RNICPI `ri_mcast_attach`):
   * thereafter it gets a copy of every datagram to the group that arrives on the port. On RoCEv2
   * the MGID is the IPv4-mapped one of an address in 224.0.0.0/4, or an IPv6 multicast address
   * (as rdma_cm makes them, `cma_iboe_set_mgid`). At most {@link MCAST_QPS_PER_GROUP} QPs per group and
   * {@link MCAST_GROUPS} groups (Linux rxe's limits); attaching twice is a success (rxe).
   */
  mcastAttach(qp: Qp, mgid: Uint8Array, mlid: number): RiRet {
    if (!this.isIb) return RiRet.XPORT_UNSUPPORTED;
    if (qp.service !== 'UD') return RiRet.QP_INVALID_SERVICE_TYPE;
    if (!Number.isInteger(mlid) || mlid < 0 || mlid > 0xffff) return RiRet.MLID_INVALID;
    if (!isRoceMcastGid(mgid)) return RiRet.MGID_INVALID;
    const key = Buffer.from(mgid).toString('hex');
    if (qp.mcast.has(key)) return RiRet.SUCCESS;
    let g = this.mcastGroups.get(key);
    if (!g) {
      if (this.mcastGroups.size >= MCAST_GROUPS) return RiRet.RESOURCE_SHORTAGE;
      g = new Set();
      this.mcastGroups.set(key, g);
    }
    if (g.size >= MCAST_QPS_PER_GROUP) return RiRet.RNIC_QPS_PER_MCAST_PORT_EXCEEDED;
    g.add(qp);
    const m = Uint8Array.from(mgid);
    qp.mcast.set(key, m);
    log('QP[%d] attached to multicast group %s', qp.id, key);
    qp.transport?.mcastChanged?.(m, true);
    return RiRet.SUCCESS;
  }

  /** Detaches a QP from a group it is attached to (else MGID_INVALID; RNICPI `ri_mcast_detach`). */
  mcastDetach(qp: Qp, mgid: Uint8Array, mlid: number): RiRet {
    if (!this.isIb) return RiRet.XPORT_UNSUPPORTED;
    if (!Number.isInteger(mlid) || mlid < 0 || mlid > 0xffff) return RiRet.MLID_INVALID;
    const key = mgid instanceof Uint8Array && mgid.length === 16 ? Buffer.from(mgid).toString('hex') : '';
    const m = qp.mcast.get(key);
    if (!m) return RiRet.MGID_INVALID;
    qp.mcast.delete(key);
    const g = this.mcastGroups.get(key);
    g?.delete(qp);
    if (g && g.size === 0) this.mcastGroups.delete(key);
    log('QP[%d] detached from multicast group %s', qp.id, key);
    qp.transport?.mcastChanged?.(m, false);
    return RiRet.SUCCESS;
  }

  /** Close RNIC: frees everything (Verbs §9.1.2: "never refused"). */
  close(): void {
    this.mcastGroups.clear();
    for (const qp of [...this.qps.values()]) {
      qp.mcast.clear();
      qp.destroy();
      if (this.isIb && qp.special === undefined) ibQpns.delete(qp.id);
    }
    this.qps.clear();
    for (const cq of this.cqs) cq.destroy();
    this.cqs.clear();
    this.srqs.clear();
    // Every registration gives back what it took: its pin on host memory (hostmem.ts).
    for (const o of this.stags.values()) {
      o.destroyed = true;
      o.valid = false;
      if (o.pinned) hostMemory.unpin(o.pinned.va, o.pinned.length);
      o.pinned = null;
      o.target = null;
    }
    this.stags.clear();
    this.mrCount = 0;
    this.mwCount = 0;
    this.pds.clear();
    this.closed = true;
  }
}

function objName(obj: Qp | Cq | Srq | null): string {
  if (!obj) return 'RNIC';
  if (obj instanceof Qp) return `QP[${obj.id}]`;
  if (obj instanceof Cq) return `CQ[${obj.id}]`;
  return `SRQ[${obj.id}]`;
}

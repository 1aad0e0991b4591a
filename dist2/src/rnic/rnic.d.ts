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
import { RiAsyncEventType } from '../rnicpi/types.js';
import { Cq, type WorkCompletion } from './cq.js';
import { StagTable } from './memory.js';
import { Pd } from './pd.js';
import { Qp, type QpInit } from './qp.js';
import { Srq } from './srq.js';
import { type TransportKind } from './wr-table.js';
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
export declare const DEFAULT_LIMITS: RnicLimits;
/** Behaviour switches of one RNIC. */
export interface RnicConfig {
    /** Device name (`softrdma0`). */
    name: string;
    /**
     * The transport family whose work requests this RNIC accepts (the work-request table's
     * `transports` column). The in-process loopback transport carries an iWARP RNIC's QPs.
     */
    transport: TransportKind;
    limits: RnicLimits;
    /** MPA markers supported (RFC 5044 §5; Linux siw supports none). */
    markers: boolean;
    /** Maximum ULPDU this RNIC sends in one FPDU (payload + DDP/RDMAP header). */
    maxUlpdu: number;
    /** Octets allowed to wait in a socket before transmission pauses (explicit backpressure). */
    txWindow: number;
    /**
     * InfiniBand RNICs: the kind of the registered IB binder that carries the QPs (transport.ts
     * `registerIbBinder`); default: `transport`. Tests set `'loopback'` to run IB QPs in process.
     */
    ibLink?: string;
    /** InfiniBand RNICs: the port's GID table (16-octet GIDs; index = sgid_index). */
    gids?: () => readonly Uint8Array[];
    /** InfiniBand RNICs: the port's active MTU as `enum ibv_mtu` (the UD message limit). */
    activeMtu?: number;
    /** RoCEv2 RNICs: the UDP port of their endpoints (default 4791; tests use an ephemeral one). */
    roceUdpPort?: number;
    /**
     * Tell a peer "STag not associated" (RFC 5040/5041 §7.2) for a valid STag of another PD
     * instead of "Invalid STag". Off by default: an unauthenticated peer must not be able to map
     * other PDs' regions (issue 17, finding 4; faults.ts `UNDISCLOSED_FAULT`). RDMA Protocol Verbs
     * §10 I3 expects it on.
     */
    discloseNotAssociated?: boolean;
}
export declare const DEFAULT_CONFIG: RnicConfig;
/** An asynchronous event record (RNICPI `ri_event_record_t` for non-port events). */
export interface AsyncEventRecord {
    event_type: RiAsyncEventType;
    event_data: {
        resource_os_data: unknown;
    };
    err_data: bigint;
}
export type AsyncHandler = (rnicOsData: unknown, ev: AsyncEventRecord) => void;
export type CqHandler = (rnicOsData: unknown, cqOsData: unknown) => void;
/** Multicast groups per port and QPs per group (Linux rxe: `RXE_MAX_MCAST_GRP`, `RXE_MAX_MCAST_QP_ATTACH`). */
export declare const MCAST_GROUPS = 8192;
export declare const MCAST_QPS_PER_GROUP = 56;
/** An IPv4-mapped GID of a multicast address (`::ffff:224.0.0.0/4`): an IPv4 group on RoCEv2. */
export declare function isIpv4McastGid(g: unknown): g is Uint8Array;
export declare class Rnic {
    readonly config: RnicConfig;
    readonly id: number;
    readonly stags: StagTable;
    readonly pds: Set<Pd>;
    readonly cqs: Set<Cq>;
    readonly qps: Map<number, Qp>;
    readonly srqs: Set<Srq>;
    /** Multicast groups of the port: MGID (hex) → the UD QPs attached (see {@link mcastAttach}). */
    readonly mcastGroups: Map<string, Set<Qp>>;
    /** Completion Event Handlers by identifier (RNICPI `ri_cq_set_event_handler`). */
    readonly cqHandlers: Map<number, CqHandler | null>;
    asyncHandler: AsyncHandler | null;
    /** `os_data` of `ri_rnic_open`, passed to every callback. */
    osData: unknown;
    /** MRs (including `ri_ltag_alloc` STags) counted against `maxMrs`; MWs against `maxMws`. */
    mrCount: number;
    mwCount: number;
    closed: boolean;
    private nextId;
    private nextQpId;
    private nextHandlerId;
    /** Counters reported by `ri_rnic_diag`. */
    readonly counters: {
        terminatesSent: number;
        terminatesReceived: number;
        crcErrors: number;
        asyncEvents: number;
        overflows: number;
        /** IB: datagrams dropped for a Q_Key that is not the receiving QP's (PortInfo Q_KeyViolations). */
        qkeyViolations: number;
        /** Inbound atomics executed (atomics.ts). */
        atomicsExecuted: number;
    };
    constructor(config?: RnicConfig);
    get limits(): RnicLimits;
    /** The RNIC's QPs use the InfiniBand state set and attributes (RoCEv2). */
    get isIb(): boolean;
    /** The GID table of the (one) port; empty on iWARP. */
    gidTable(): readonly Uint8Array[];
    /** Atomic operations can be posted: the work-request table's atomic rows carry this RNIC's transport. */
    get atomicsSupported(): boolean;
    private newId;
    /** Queues an asynchronous event for the handler (lost if none is registered, RNICPI §5.1). */
    asyncEvent(type: RiAsyncEventType, obj: Qp | Cq | Srq | null): void;
    makeWc(qp: Qp): WorkCompletion;
    /** Allocates (id 0) or replaces a Completion Event Handler; null clears it. */
    setCqHandler(id: number, cb: CqHandler | null): {
        status: RiRet;
        id: number;
    };
    pdAlloc(osData: unknown): Pd | RiRet;
    pdDealloc(pd: Pd): RiRet;
    cqCreate(numCqe: number, handlerId: number, osData: unknown): Cq | RiRet;
    cqDestroy(cq: Cq): RiRet;
    cqResize(cq: Cq, numCqe: number): RiRet;
    srqCreate(pd: Pd, maxWrs: number, maxSgl: number, lowat: number, osData: unknown): Srq | RiRet;
    srqModify(srq: Srq, maxWrs: number | undefined, lowat: number | undefined): RiRet;
    srqDestroy(srq: Srq): RiRet;
    qpCreate(init: QpInit): Qp | RiRet;
    qpDestroy(qp: Qp): RiRet;
    /**
     * Attaches a UD QP to the multicast group `mgid` (IBTA Vol. 1 §10.5; RNICPI `ri_mcast_attach`):
     * thereafter it gets a copy of every datagram to the group that arrives on the port. RoCEv2
     * carries IPv4 groups only: the MGID is the IPv4-mapped one of an address in 224.0.0.0/4 (as
     * rdma_cm makes it, `cma_iboe_set_mgid`). At most {@link MCAST_QPS_PER_GROUP} QPs per group and
     * {@link MCAST_GROUPS} groups (Linux rxe's limits); attaching twice is a success (rxe).
     */
    mcastAttach(qp: Qp, mgid: Uint8Array, mlid: number): RiRet;
    /** Detaches a QP from a group it is attached to (else MGID_INVALID; RNICPI `ri_mcast_detach`). */
    mcastDetach(qp: Qp, mgid: Uint8Array, mlid: number): RiRet;
    /** Close RNIC: frees everything (Verbs §9.1.2: "never refused"). */
    close(): void;
}

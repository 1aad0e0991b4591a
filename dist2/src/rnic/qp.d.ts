/**
 * Queue Pairs: the iWARP and InfiniBand QP state machines, the Send and Receive Queues,
 * posting, flushing and in-order completion (RDMA Protocol Verbs §6.2, §8; RNICPI §5.4–5.6;
 * IBTA Vol. 1 §10.3, §11.2.4).
 *
 * iWARP states are Idle, RTS, Closing, Terminate and Error (Verbs §6.2). The QPs of an
 * InfiniBand (RoCEv2) RNIC have the IB states Reset, INIT, RTR, RTS, SQD, SQE and Error, held as
 * RNICPI's IB members of `ri_qp_state_t`, and the IB attributes ({@link IbQpAttrs}). The Consumer
 * moves a QP only through {@link Qp.modify}, which reads the transition tables of qp-states.ts;
 * the LLP (the attached {@link QpTransport}) and error detection move it through the automatic
 * transitions. Every transition is logged `QP[n] A→B`.
 *
 * The QP owns its {@link Requester} (the SQ side) and {@link Responder} (the receive side);
 * a transport attached at Idle→RTS carries their work on a wire.
 *
 * Send Queue completions are generated strictly in post order (Verbs §8.2.2 rule 2): a WQE
 * that finishes early (a Send behind an outstanding RDMA Read) waits for its predecessors.
 * A queue slot is released only when the Consumer polls the completion that covers it
 * (Verbs §8.1.3.1): a signaled WR's own WC, or for unsignaled WRs the WC of a later
 * signaled WR on the same queue.
 */
import { RiRet } from '../rnicpi/status.js';
import { RiQpState, RiWcType } from '../rnicpi/types.js';
import type { Cq } from './cq.js';
import { Fault } from './faults.js';
import type { Pd } from './pd.js';
import { type IbService } from './qp-states.js';
import { Requester } from './requester.js';
import { Responder } from './responder.js';
import type { Rnic } from './rnic.js';
import type { Srq } from './srq.js';
import { type IbAv, type IbQpAttrs, type QpTransport } from './transport.js';
import { type InboundRead, type OrqEntry, RqWqe, type SqWqe } from './wqe.js';
export declare const QP_STATE_NAMES: Record<number, string>;
/** MPA attributes of a QP (RNICPI `ri_mpa_attr_t`). */
export interface MpaAttrs {
    recvMarkers: boolean;
    xmitMarkers: boolean;
    crc: boolean;
    /** DDP/RDMAP version: 1 = IETF (RFC 5040/5041), 0 = RDMAC. */
    ddpRdmapVersion: number;
}
/** A decoded Terminate message kept for Query QP (Verbs §6.4; RNICPI `terminate_buffer`). */
export interface TerminateInfo {
    layer: number;
    etype: number;
    ecode: number;
    /** The Terminate message as sent or received (at most 52 bytes, RNICPI §6.7). */
    bytes: Uint8Array;
    local: boolean;
    /** The neutral fault behind it, when the transport has no wire code of its own (loopback). */
    fault?: number;
}
/** The attributes a QP is created with, after validation by the provider. */
export interface QpInit {
    pd: Pd;
    scq: Cq;
    rcq: Cq;
    srq: Srq | null;
    sqSize: number;
    rqSize: number;
    sqMaxSges: number;
    sqMaxSgesRdmaw: number;
    rqMaxSges: number;
    enableRdmaRead: boolean;
    enableRdmaWrite: boolean;
    ord: number;
    ird: number;
    stag0Enabled: boolean;
    enableBind: boolean;
    rqHiwat: number;
    mpa: MpaAttrs;
    osData: unknown;
    /** InfiniBand RNICs: the service type (IBTA Vol. 1 §9.8.1); iWARP QPs are RC and omit it. */
    service?: IbService;
    /**
     * InfiniBand RNICs: a special QP (RNICPI `ri_special_qp_get`). `'GSI'` is QP1 of the port, a
     * UD QP whose Q_Key is fixed at 0x80010000 (IBTA Vol. 1 §3.5.2, §10.2.5, §13.5.1).
     */
    special?: 'GSI';
}
/** An address vector as a Modify gives it: the source GID is named by its index. */
export type IbAvIn = Omit<IbAv, 'sgid'>;
/**
 * The IB attributes of one Modify. Each field present is one component of the IBTA Modify QP
 * attribute mask (IBTA Vol. 1 §11.2.4.2): the mask is what is present.
 */
export interface IbModify {
    pathMtu?: number;
    destQpn?: number;
    rqPsn?: number;
    sqPsn?: number;
    timeout?: number;
    retryCnt?: number;
    rnrRetry?: number;
    minRnrTimer?: number;
    qkey?: number;
    pkeyIndex?: number;
    port?: number;
    av?: IbAvIn;
    sqdNotify?: boolean;
    /** The access flags (remote Read, Write, Atomic enables). */
    access?: {
        read: boolean;
        write: boolean;
        atomic: boolean;
    };
    /** The state the Consumer believes the QP is in (IBV_QP_CUR_STATE). */
    curState?: RiQpState;
    /** Alternate path / path migration: not supported (no APM), refused when present. */
    altPath?: boolean;
}
/** One Modify QP request (RNICPI `ri_qp_modify` after mask decoding). */
export interface QpModify {
    nextState?: RiQpState;
    sqSize?: number;
    rqSize?: number;
    ord?: number;
    ird?: number;
    rqHiwat?: number;
    rqArmed?: boolean;
    /** LLP stream handle: the connection to attach at Idle→RTS. */
    llp?: unknown;
    /** Last streaming-mode message to send before RDMA mode (active side). */
    streamMsg?: Uint8Array;
    mpa?: Partial<MpaAttrs>;
    /** InfiniBand QPs only: the IB attributes (`ord` is max_rd_atomic, `ird` max_dest_rd_atomic). */
    ib?: IbModify;
}
/**
 * Validates an address vector against the RNIC (IBTA Vol. 1 §11.2.2.1; the one port, the GID
 * table) and returns a private copy with the source GID resolved: the one rule for a QP's AV
 * (Modify QP) and an address handle's (Create AH).
 */
export declare function resolveAv(rnic: Rnic, av: IbAvIn): IbAv | RiRet;
/** How long Terminate and Closing may last before the LLP is reset (Verbs §6.2.3). */
export declare const CLOSE_TIMEOUT_MS = 5000;
export declare class Qp {
    readonly rnic: Rnic;
    readonly id: number;
    state: RiQpState;
    destroyed: boolean;
    readonly pd: Pd;
    readonly scq: Cq;
    readonly rcq: Cq;
    readonly srq: Srq | null;
    sqSize: number;
    rqSize: number;
    readonly sqMaxSges: number;
    readonly sqMaxSgesRdmaw: number;
    readonly rqMaxSges: number;
    /** Remote Read/Write enables: fixed at create on iWARP, the access flags of a Modify on IB. */
    enableRdmaRead: boolean;
    enableRdmaWrite: boolean;
    ord: number;
    ird: number;
    readonly stag0Enabled: boolean;
    /**
     * Inbound atomics enabled (IB `IBV_ACCESS_REMOTE_ATOMIC` in `qp_access_flags`, set by the
     * access flags of Reset→INIT and later Modifies; IBTA Vol. 1 §10.2.5). iWARP Verbs have no
     * such QP attribute, so it stays on there and the MR's right decides.
     */
    enableAtomic: boolean;
    /** Request Identifier of the next outbound atomic (RFC 7306 §5.1). */
    nextAtomicId: number;
    readonly enableBind: boolean;
    rqHiwat: number;
    rqArmed: boolean;
    mpa: MpaAttrs;
    readonly osData: unknown;
    /** The stream handle given at Idle→RTS (returned by Query QP). */
    llpHandle: unknown;
    /** The attached transport while in RTS/Closing/Terminate. */
    transport: QpTransport | null;
    /** The Send Queue side: what goes out next (requester.ts). */
    readonly requester: Requester;
    /** The receive side: placement, matching, Read Requests (responder.ts). */
    readonly responder: Responder;
    terminate: TerminateInfo | null;
    /** MWs bound to this QP: Destroy QP is refused while any is (`WINDOWS_BOUND`). */
    boundWindows: number;
    /**
     * UD QPs: the multicast groups the QP is attached to, by MGID (hex) (IBTA Vol. 1 §10.5;
     * Destroy QP is refused while any is: RNICPI `MULTICAST_ATTACHED`).
     */
    readonly mcast: Map<string, Uint8Array<ArrayBufferLike>>;
    /** The QP uses the InfiniBand state set (an RNIC whose transport is RoCEv2). */
    readonly isIb: boolean;
    /** The IB service type (iWARP QPs: RC). */
    readonly service: IbService;
    /** IB: Communication Established was raised since the last RTR (once per connection). */
    private commEstablished;
    /** IB attributes (IBTA Vol. 1 §11.2.4.2), read by the transport; defaults on iWARP QPs. */
    ib: IbQpAttrs;
    /** A special QP (QP1, the GSI), or undefined for an ordinary one. */
    readonly special: 'GSI' | undefined;
    /** Occupied SQ slots, oldest first (released on poll). */
    readonly sq: SqWqe[];
    private sqBase;
    /** Next SQ seq to assign. */
    private sqNextSeq;
    /** Seq of the next WQE to start processing (tx). */
    sqProc: number;
    /**
     * Sequence number of the last local memory operation (Bind, Fast-Register, Invalidate)
     * posted; while it is not processed yet (`>= sqProc`), later WRs' SGEs are checked at
     * execution only (post.ts).
     */
    lastLocalOpSeq: number;
    /** Seq of the next WQE whose completion has not been generated. */
    private sqCompl;
    readonly rq: RqWqe[];
    private rqBase;
    private rqNextSeq;
    /** Seq of the next RQ WQE to consume for an inbound Send. */
    rqProc: number;
    private rqCompl;
    /** S-RQ WQEs taken by this QP and not yet completed (flushed on Error). */
    readonly srqTaken: RqWqe[];
    /** S-RQ WQEs taken and whose completion is not yet polled (for `rq_hiwat`). */
    srqOutstanding: number;
    /** Outbound RDMA Read Requests in flight, oldest first (at most ORD): the ORQ (Verbs §6.5). */
    readonly orq: OrqEntry[];
    /** Inbound RDMA Read Requests not yet fully answered, oldest first (at most IRD). */
    readonly irq: InboundRead[];
    /** A modify to Error/Idle is refused while flushing is in progress. */
    private flushing;
    private closeTimer;
    constructor(rnic: Rnic, id: number, init: QpInit);
    /** Changes state, logging old→new with the QP id. */
    setState(next: RiQpState, why: string): void;
    get sqOccupied(): number;
    get rqOccupied(): number;
    /** Seq of the oldest SQ WQE that has not finished (its completion not generated). */
    get firstIncompleteSeq(): number;
    /** WQEs posted to the SQ and not yet finished. */
    get sqOutstanding(): number;
    sqAt(seq: number): SqWqe | undefined;
    rqAt(seq: number): RqWqe | undefined;
    /** True while a Remote RDMA Read Operation is in progress (Verbs §6.2 T6/T10). */
    get remoteReadInProgress(): boolean;
    /**
     * Modify QP (Verbs §9.2.2, RNICPI `ri_qp_modify`): validates the whole request first and
     * changes nothing unless every part is acceptable (all-or-nothing).
     */
    modify(m: QpModify): RiRet;
    /**
     * Modify QP of an InfiniBand QP (IBTA Vol. 1 §10.3.1, §11.2.4.2; the manual §4.5.1
     * `ibv_modify_qp`): the transition must exist for the service type, every required attribute
     * must be present and nothing beyond required ∪ optional (qp-states.ts `ibModifyOk`), every
     * value in range; then everything is applied at once, or nothing. INIT→RTR attaches the
     * transport from the binder of the RNIC's IB link (transport.ts `bindIb`).
     */
    private modifyIb;
    /**
     * A packet reached the responder. In RTR that is the Communication Established event
     * (IBTA Vol. 1 §11.6.3.1: the first packet a QP receives in RTR); the QP stays in RTR.
     */
    received(): void;
    /** SQD: once every WQE that had started is complete, Draining becomes Drained (IBTA Vol. 1 §10.3.1.5). */
    private checkDrained;
    /**
     * The transport may transmit: iWARP in RTS; IB in RTR (responses only), RTS and SQD (responses
     * and the WQEs that had started: IBTA Vol. 1 §10.3.1.5).
     */
    get canTransmit(): boolean;
    /** The QP is connected and processing (iWARP RTS; IB RTR, RTS, SQD, SQE). */
    get live(): boolean;
    /** May the SQ WQE `w` at the head be processed now? New WQEs start only in RTS. */
    sqMayRun(w: SqWqe): boolean;
    /**
     * An unreliable (UC, UD) QP's send side failed locally: the Send Queue Error state, where the
     * failed WQE has its status, every later SQ WQE is flushed, and receiving goes on (IBTA Vol. 1
     * §10.3.1.7). RC QPs go to Error instead.
     */
    toSqe(why: string): void;
    private toRts;
    /** Asks the transmit path to make progress (called after posts and state changes). */
    kick(): void;
    /** Detaches and returns the transport (the QP no longer hears from its LLP). */
    private takeTransport;
    /**
     * Graceful close requested by the Consumer (RTS→Closing, Verbs §6.2 T6): flush the RQ and
     * send a FIN. With SQ work or a remote Read in progress this is a bad close.
     */
    private startGracefulClose;
    /** The peer sent a FIN (Verbs §6.2 T7 / T10). */
    onLlpFin(): void;
    /** The LLP finished closing (both FINs, socket closed) without error. */
    onLlpClosed(): void;
    /** The LLP was reset or lost (Verbs §6.2 T13/T15/T16). */
    onLlpReset(lost: boolean): void;
    /** Bad Close while Closing (Verbs §6.2 T15): reset, then Error, then the AE. */
    badClose(): void;
    armCloseTimer(): void;
    private clearCloseTimer;
    /**
     * Enters Error: the LLP (if any) is reset, then every incomplete WQE on the SQ and RQ is
     * flushed in order, except the one that caused the error, which has already been given
     * its status (Verbs §6.2 Error state).
     */
    toError(why: string, _cause: SqWqe | null): void;
    /** Allocates the next SQ WQE sequence number. Caller has checked capacity. */
    nextSqSeq(): number;
    nextRqSeq(): number;
    /** Queues a validated SQ WQE and makes progress according to the state. */
    enqueueSq(w: SqWqe): void;
    enqueueRq(w: RqWqe): void;
    /**
     * Generates SQ completions in post order for every finished WQE at the completion head.
     * Unsignaled successes produce no WC (Verbs §8.1.3.1).
     */
    completeSqInOrder(): void;
    private pushSqWc;
    /**
     * Completes an RQ (or S-RQ) WQE with a WC on the receive CQ. `opType` is DATA_RECEIVED, or
     * RDMA_IMMEDIATE_RECEIVED for the receive an RDMA Write with Immediate consumed; `imm` is
     * reported when `wcFlags` has IMMEDIATE_DATA.
     */
    pushRqWc(w: RqWqe, status: number, bytes: number, wcFlags: number, invalidated: number, opType?: RiWcType, imm?: number, srcQpn?: number): void;
    /** Called by the CQ when the Consumer polls a WC of this QP: releases queue slots. */
    onCompletionPolled(sq: boolean, seq: number): void;
    /** A completion could not be queued: the CQ overflowed (Verbs §7.3 CQ/SQ, CQ/RQ error). */
    private cqOverflow;
    /** Marks a WQE finished with `status` and generates completions in order. */
    finishSq(w: SqWqe, status: number): void;
    /** Flushes every incomplete SQ and RQ WQE (status WR_FLUSHED_ERROR), in order. */
    flushAll(): void;
    /** Flushes every incomplete SQ WQE (status WR_FLUSHED_ERROR), in order, and the ORQ. */
    flushSq(): void;
    /** Flushes the RQ (or the S-RQ WQEs this QP had taken). */
    flushRq(): void;
    /**
     * Is a receive WQE there to take (RQ or S-RQ)? IB transports ask before executing a packet
     * that will need one (an RDMA Write with Immediate's last packet), so that an RNR NAK leaves
     * nothing half done (IBTA Vol. 1 §9.7.5.2.8).
     */
    recvReady(): boolean;
    /** Takes the next receive WQE for an inbound untagged Send (RQ or S-RQ). */
    takeRecv(): RqWqe | undefined;
    /** Completes the receive WQE consumed first and not yet completed (RQ order). */
    completeRecv(w: RqWqe, status: number, bytes: number, wcFlags: number, invalidated: number, opType?: RiWcType, imm?: number, srcQpn?: number): void;
    /**
     * Stops the QP for a protocol or local error and has the transport send its wire error
     * (iWARP: the Terminate message): the single place where that is decided (RDMA Protocol
     * Verbs §6.4, RFC 5040 §7). Only the first error is recorded; later ones while already
     * terminating are ignored.
     *
     * `err` is a neutral {@link Fault} or the transport's own error object; `copied` carries
     * the offending segment's headers for errors found on inbound segments (Verbs §6.4 rule 8),
     * in the transport's form.
     */
    terminateWith(err: Fault | object, copied: unknown): void;
    /**
     * An inbound operation broke a rule the core checks (responder.ts): the affiliated event of
     * the fault (Verbs §7.3), then the transport's wire error.
     */
    remoteFault(f: Fault, copied: unknown): void;
    /** A Terminate message arrived (Verbs §6.2 T11): no Terminate goes back. */
    onTerminateReceived(info: TerminateInfo): void;
    /** Destroy QP (Verbs §9.2.4): stops everything; no more completions or events after. */
    destroy(): void;
}
export { RqWqe };

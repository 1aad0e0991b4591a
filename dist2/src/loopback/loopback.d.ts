/**
 * The in-process loopback transport: two QPs of the same process (or of two RNICs in it)
 * joined by a pair of {@link LoopbackEndpoint} LLP handles, with no socket and no framing.
 * It exists so the core's semantics can be tested quickly and deterministically on a second
 * transport, and so loss and reordering can be injected ({@link FaultHook}).
 *
 * Each direction is an ordered queue of units: copies of the requester's {@link TxSeg}s (the
 * payload is copied when sent, so a Send or Write completes at once: "local delivery"), plus
 * the control units FIN, RST and TERMINATE. The receiving side checks its own sequencing, as a
 * wire would: a per-queue message number and, when faults are injected, a CRC32C of each
 * payload, and reports a violation as its own {@link LoopbackWireError}. Everything else — the
 * access check, receive matching, ORD/IRD — is the core's responder.
 *
 * Backpressure: at most {@link LOOPBACK_WINDOW} units may wait unconsumed at the peer; the
 * sender stops pulling from its requester until the peer drains them.
 *
 * It also carries InfiniBand QPs (an RNIC whose `ibLink` is `'loopback'`, registered with
 * `registerIbBinder`): RC and UC QPs joined by their dest QPNs, messages cut at the path MTU, UD
 * datagrams to the QP each Send names with a synthesised GRH, and a responder fault returned to
 * the requester as the status an IB NAK would give. It has no ACKs, PSNs or retransmission: that
 * is the RoCEv2 transport's (src/roce/).
 */
import { RiRet } from '../rnicpi/status.js';
import { Fault } from '../rnic/faults.js';
import type { MpaAttrs, Qp, TerminateInfo } from '../rnic/qp.js';
import { type IbQpAttrs, type QpTransport, type TransportCaps, TxOp, type TxSeg } from '../rnic/transport.js';
import { FaultHook, type FaultPlan } from './faults.js';
/** Units that may wait unconsumed at the peer before the sender pauses. */
export declare const LOOPBACK_WINDOW = 256;
/** Payload per unit: the segment size the requester cuts messages into. */
export declare const LOOPBACK_MTU = 65536;
/** Both ends are this process's core: every operation, atomics and immediate data included. */
export declare const LOOPBACK_CAPS: TransportCaps;
/** The loopback carrying InfiniBand (RC, UC) QPs: IB states, segments cut at the path MTU. */
export declare const LOOPBACK_IB_CAPS: TransportCaps;
/** Kinds of unit on the loopback wire. */
export declare const enum K {
    DATA = 0,
    FIN = 1,
    RST = 2,
    TERMINATE = 3
}
/** A segment as it crosses the loopback wire: the requester's fields, with the payload copied. */
export interface Unit extends TxSeg {
    k: K;
    /** Message number within its queue (Send, Read Request), as DDP's MSN. */
    msn: number;
    payload: Uint8Array;
    crc: number;
    /** TERMINATE: the sender's fault. */
    fault: number;
    /** TERMINATE for a violation of the loopback wire itself (no core fault): its kind. */
    wire?: LoopbackWireError['kind'];
    /** The sending connection, whose window slot frees when the unit is processed. */
    from?: LoopbackConn;
    /** IB UD: the datagram's GRH as the receiver's buffer gets it, its Q_Key and source QP. */
    grh?: Uint8Array;
    qkey?: number;
    srcQpn?: number;
}
/** What sits at one end of a loopback link and takes the units sent to it. */
interface UnitSink {
    readonly detached: boolean;
    receive(u: Unit, from: LoopbackConn | undefined): void;
    /** Abortive close of this end (RST toward the other). */
    reset(): void;
}
/** A sequencing or integrity violation the loopback wire itself detects. */
export declare class LoopbackWireError {
    readonly kind: 'sequence' | 'corrupt';
    readonly message: string;
    constructor(kind: 'sequence' | 'corrupt', message: string);
}
/** One end of a loopback link: the LLP handle a QP is given at Idle→RTS (RNICPI §4.4). */
export declare class LoopbackEndpoint {
    readonly name: string;
    peer: LoopbackEndpoint;
    inUse: boolean;
    conn: UnitSink | null;
    /** Units that arrived before a QP attached (bounded by the sender's window). */
    readonly early: Unit[];
    /** Faults applied to units this end sends. */
    hook: FaultHook | null;
    closed: boolean;
    /** IB: the QPN this end's QP sends to (the pair is joined when both name each other). */
    ibDest: number;
    /** IB: units sent before the peer QP reached RTR and was joined. */
    readonly unlinked: Unit[];
    constructor(name: string);
}
/**
 * Makes a connected pair of loopback LLP handles. `faults` (one plan per direction, a→b and
 * b→a) turns the fault hook on.
 */
export declare function loopbackPair(faults?: {
    ab?: FaultPlan;
    ba?: FaultPlan;
}): [LoopbackEndpoint, LoopbackEndpoint];
/** Binds loopback handles (registered with the core's transport registry on load). */
export declare function attachLoopback(qp: Qp, handle: unknown, _mpa: MpaAttrs): LoopbackConn | RiRet | null;
/**
 * The IB binder of the loopback (`registerIbBinder('loopback', …)`): an RC or UC QP reaching
 * RTR is joined to the QP its dest QPN names, in this process, once that one names it back;
 * until then what it sends waits. A UD QP's datagrams go to the QP each Send names, with a GRH
 * synthesised from the address vector. An RNIC whose `ibLink` is `'loopback'` uses it.
 */
export declare function attachLoopbackIb(qp: Qp, attrs: Readonly<IbQpAttrs>): LoopbackConn | RiRet;
/**
 * The 40 octets a UD receive buffer starts with, as a RoCEv2 receiver writes them: between IPv4
 * GIDs, 20 zero octets and the IPv4 header the datagram would have had (Linux rxe); otherwise the
 * IB GRH (IBTA Vol. 1 §8.3: IPVer 6, TClass, FlowLabel, PayLen, NxtHdr 0x1B, HopLmt, SGID, DGID).
 * `len` is the payload; BTH (12), DETH (8) and ICRC (4) are counted as the wire would carry them.
 */
export declare function synthGrh(sgid: Uint8Array, dgid: Uint8Array, tclass: number, flow: number, hopLimit: number, len: number): Uint8Array;
export declare class LoopbackConn implements QpTransport {
    readonly qp: Qp;
    readonly ep: LoopbackEndpoint;
    /** Carries an InfiniBand QP (joined by QPN; no FIN/Terminate handshake). */
    readonly ib: boolean;
    readonly caps: TransportCaps;
    private active;
    detached: boolean;
    private rxStopped;
    private scheduled;
    private running;
    private finSent;
    private finReceived;
    private closedReported;
    /** Units sent and not yet consumed by the peer. */
    inFlight: number;
    /** Units received and not yet processed. */
    private readonly inbox;
    private draining;
    /** Received units are held unprocessed, as by a reader that stopped reading. */
    private paused;
    private held;
    private sendMsn;
    private readMsn;
    private recvMsn;
    private recvReadMsn;
    constructor(qp: Qp, ep: LoopbackEndpoint, 
    /** Carries an InfiniBand QP (joined by QPN; no FIN/Terminate handshake). */
    ib?: boolean);
    maxPayload(_op: TxOp): number;
    /** IB: the peer was joined; deliver what waited for it. */
    flushUnlinked(): void;
    start(_streamMsg: Uint8Array | null): void;
    kick(): void;
    /** The transmit loop: pulls segments until the peer's window is full. */
    private run;
    private sendSeg;
    /** Puts a unit on the wire toward the peer, through the fault hook if any. */
    private transmit;
    private flushHeld;
    private toPeer;
    receive(u: Unit, from: LoopbackConn | undefined): void;
    private scheduleDrain;
    /** Stops processing received units (they queue up), as a paused socket's reader. */
    pauseRx(): void;
    resumeRx(): void;
    private drain;
    private process;
    /** A violation of the loopback wire itself: its event, then the QP's error path. */
    private wireError;
    sendFatal(err: Fault | object, _copied: unknown): TerminateInfo;
    closeGraceful(): void;
    /** Both FINs are through: the LLP is closed (as TCP's close after a FIN each way). */
    private maybeClosed;
    reset(): void;
    private deliverControl;
    detach(): void;
    private control;
}
/**
 * A raw end of a loopback link: it puts units on the wire exactly as given and records what
 * arrives, with none of the core's checks. It is the loopback counterpart of a raw TCP peer
 * speaking MPA/DDP/RDMAP bytes, so a hostile peer can be tested on this transport too.
 * The victim's window slots are freed as units arrive (a peer that keeps reading).
 */
export declare class LoopbackRawEnd implements UnitSink {
    readonly ep: LoopbackEndpoint;
    detached: boolean;
    readonly received: Unit[];
    private waiters;
    private sendMsn;
    private readMsn;
    constructor(ep: LoopbackEndpoint);
    receive(u: Unit, from: LoopbackConn | undefined): void;
    /** Waits for a unit matching `pred` (or throws after `ms`). */
    waitFor(pred: (u: Unit) => boolean, ms?: number): Promise<Unit>;
    /** The TERMINATE the victim sent: the core's fault, or the kind of wire violation. */
    terminate(ms?: number): Promise<{
        fault: Fault;
        wire?: LoopbackWireError['kind'];
    }>;
    /** Puts one unit on the wire. Unset fields take a blank segment's values; `msn` defaults to the next of its queue. */
    inject(fields: Partial<Omit<Unit, 'payload'>> & {
        op: TxOp;
        payload?: Uint8Array;
    }): void;
    /** Sends a FIN (as a graceful LLP close) or a RST. */
    control(k: K.FIN | K.RST): void;
    reset(): void;
}
export {};

import { type AtomicArgs } from './atomics.js';
import { Fault } from './faults.js';
import { Access } from './memory.js';
import type { Qp } from './qp.js';
import { type QpTransport, type TxSeg } from './transport.js';
/** Octets of the Global Route Header a UD receive buffer starts with (IBTA Vol. 1 §8.3). */
export declare const GRH_LEN = 40;
/** Received payload: the bytes of one segment, possibly spread over several chunks. */
export interface RxPayload {
    readonly segments: readonly Uint8Array[];
}
export declare class Responder {
    readonly qp: Qp;
    private readonly access;
    /** The receive WQE of the Send message being placed, if any. */
    private recvWqe;
    private recvPieces;
    /** Tagged placement context: the STag and next TO of the message in progress. */
    private tagStag;
    private tagNextTo;
    private tagObj;
    private tagTarget;
    private tagOffset;
    private tagEnd;
    /** Octets of the RDMA Write message in progress, and of the last one completed. */
    private writeLen;
    private lastWriteLen;
    constructor(qp: Qp);
    /** Forgets the per-connection receive state (a new LLP was attached). */
    reset(): void;
    /**
     * InfiniBand UC: a packet of the message in progress was lost, so the message is abandoned
     * (IBTA Vol. 1 §9.8.3.2). Its receive WQE, if it had taken one, stays for the next message,
     * placed from offset 0 again; a Write's sink is forgotten.
     */
    abortMessage(): void;
    /** Copies `len` octets of `p` after `skip` header octets into a target at `off`. */
    private place;
    /**
     * Inbound RDMA Write segment (RFC 5040 §4.3; IBTA Vol. 1 §9.4.3): `len` octets at `to` of
     * `stag`. The full access check runs on the first segment of a message (or when the message
     * does not continue in order); later segments only need to stay inside the checked object.
     */
    rxWrite(stag: number, to: bigint, len: number, last: boolean, p: RxPayload, skip: number): Fault;
    /**
     * The immediate data of an RDMA Write with Immediate (IBTA Vol. 1 §9.4.3; on iWARP the RFC
     * 7306 Immediate Data message that follows the Write): consumes the next receive WQE, which
     * completes as RDMA_IMMEDIATE_RECEIVED with the immediate and the Write's length, after the
     * Write's data is placed (the transport calls this after the Write's last segment).
     */
    rxWriteImm(imm: number, se: boolean): Fault;
    /**
     * Inbound Read Response segment: must match the head of the ORQ (RFC 5040 §4.5, Verbs §6.5).
     * The local sink is checked when the first segment arrives (Verbs §7.6.3) for `sinkAccess`:
     * on iWARP the Read Response is a tagged message into the Data Sink STag, which takes Remote
     * Write (RFC 5040 §4.5, as siw checks it); on InfiniBand the sink is a local data segment,
     * which takes Local Write only (IBTA Vol. 1 §10.6.3.1, as rxe copies the response).
     */
    rxReadResponse(stag: number, to: bigint, len: number, last: boolean, p: RxPayload, skip: number, t: QpTransport, sinkAccess?: Access): Fault;
    /**
     * InfiniBand Read Response packet (IBTA Vol. 1 §9.4.4): IB responses carry no sink address,
     * they answer the oldest outstanding Read in PSN order, so the sink is the ORQ head's.
     */
    rxReadResponseIb(len: number, last: boolean, p: RxPayload, skip: number, t: QpTransport): Fault;
    /**
     * Inbound Send-family segment (RFC 5040 §4.6–4.7; IBTA Vol. 1 §9.4.1): `len` octets at
     * message offset `offset`. The first segment takes a receive WQE (RQ or S-RQ) and checks its
     * SGL; the last one completes it, after invalidating `invStag` if `invalidate`.
     */
    rxSend(offset: number, len: number, last: boolean, se: boolean, invalidate: boolean, invStag: number, p: RxPayload, skip: number, imm?: number): Fault;
    private placeUntagged;
    /**
     * An inbound UD datagram (IBTA Vol. 1 §9.8.3.1, §11.4.2.1), after the transport's own checks.
     * A Q_Key other than the QP's drops it, counted as a Q_Key violation (IBTA Vol. 1 §10.2.5
     * C10-15; the transport has already replaced a WR's high-bit Q_Key by the sender QP's own).
     * Otherwise it takes the next receive WQE, whose buffer gets the 40-octet
     * GRH `grh` first and then the `len` octets of payload; the WC carries the source QP and says
     * a GRH is present. No receive posted: {@link Fault.NO_RECV_BUFFER} and nothing changed (UD
     * drops the datagram silently). A datagram longer than the buffer completes the WQE with
     * Local Length Error and the QP goes on (returned as {@link Fault.HANDLED}).
     */
    rxDatagram(grh: Uint8Array, len: number, se: boolean, p: RxPayload, skip: number, srcQpn: number, qkey: number, imm?: number): Fault;
    /**
     * Inbound RDMA Read Request (RFC 5040 §4.4; IBTA Vol. 1 §9.4.4): checked against IRD and
     * the source's access rights, then queued for Read Responses.
     */
    rxReadRequest(sinkStag: number, sinkTo: bigint, size: number, srcStag: number, srcTo: bigint, t: QpTransport): Fault;
    /**
     * Restarts the Read Response being sent (the IRQ head) at `delta` octets from where it began,
     * for `length` octets: a duplicate Read Request asked again for part of the same Read
     * (IBTA Vol. 1 §9.7.5.1.2; the range was checked to lie inside the original, already
     * access-checked Read). False when the head is not a Read.
     */
    restartHeadRead(delta: number, length: number): boolean;
    /**
     * Inbound atomic request (IBTA Vol. 1 §9.4.5; RFC 7306 §5.1): checked, in this order, against
     * IRD (atomics and Reads share it), the operation, the 8-octet alignment of the target and
     * the one access check for Remote Atomic; then executed at once by the atomic executor
     * (atomics.ts), and its response queued behind earlier Read Responses. A refused request
     * changes no memory.
     */
    rxAtomicRequest(requestId: number, args: AtomicArgs, stag: number, to: bigint, t: QpTransport): Fault;
    /**
     * Inbound atomic response: must answer the atomic at the ORQ head, with its Request
     * Identifier (RFC 7306 §5.2); the requester writes the original value into the WR's result
     * buffer and completes it.
     */
    rxAtomicResponse(requestId: number, orig: readonly bigint[], t: QpTransport): Fault;
    /**
     * The next Read Response segment of the head inbound Read (RFC 5040 §4.5), or the response of
     * the head inbound atomic, or null if a Read's source went away meanwhile (then the QP is
     * terminating: Verbs §7.10.4).
     */
    nextReadResponse(s: TxSeg, maxPayload: number): TxSeg | null;
}

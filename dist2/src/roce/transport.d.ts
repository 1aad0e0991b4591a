/**
 * The RoCEv2 transport: InfiniBand RC, UC and UD QPs (IBTA Vol. 1 chapter 9) carried in UDP
 * datagrams (Annex A17) through `net.ts`. It implements the core's {@link QpTransport} for
 * IB QPs, bound on INIT→RTR by `registerIbBinder('rocev2', attachRoce)`.
 *
 * The core keeps the semantics (queues, access checks, placement, completions, flushes); this
 * file owns what the InfiniBand wire adds, as Linux rxe's requester/responder/completer do:
 *
 * **Requester (RC)** — §9.7.6. Each packet takes the next PSN; a Read Request reserves
 * `max(1, ceil(len / MTU))` PSNs, one per response packet. Messages are cut at exactly the path
 * MTU (`maxPayload`). AckReq is set on the last packet of every message and on every 64th packet
 * (rxe ACKs only packets that ask). At most {@link WINDOW} PSNs are unacknowledged. The encoded
 * packets of unacknowledged PSNs are kept, so go-back-N resends them as they were; a Read is
 * retried from its first missing response as a *partial* Read Request (VA advanced, length
 * reduced, PSN of the missing response: rxe's `retry_first_write_send`/read rewind). The
 * retransmit timer is the QP's Local ACK Timeout, 4.096 µs × 2^timeout (§9.7.6.1.3); a
 * timeout, or a PSN-sequence NAK that makes no progress, uses one of `retry_cnt` retries
 * (a plain count: 7 means 7); an RNR NAK waits the peer's RNR timer and uses one of `rnr_retry`
 * (7 = infinite, §9.7.5.2.8). Exhaustion completes the WQE with
 * `TRANSPORT_RETRY_EXCEEDED` / `RNR_RETRY_EXCEEDED` and the QP enters Error.
 *
 * **Completer (RC)** — §9.7.6.1. ACKs are cumulative; an ACK never completes a Read (only its
 * responses do, in PSN order), and what it acknowledges past an unfinished Read is applied once
 * the Read completes. NAK codes 1–3 complete the WQE with the remote error status (`nak-map.ts`).
 * A gap in a Read's responses triggers one partial-Read retry at once (not waiting for the
 * timer), and another only after progress or a timeout.
 *
 * **Responder (RC)** — §9.7.5. Requests execute in PSN order: the expected PSN (ePSN) only.
 * Ahead of ePSN: one PSN-sequence NAK per gap, then silence until the gap closes. Behind it
 * (a duplicate): a Send or Write is re-ACKed (ePSN − 1); a Read is replayed from a ring of
 * `max_dest_rd_atomic` resources if it lies inside one. No receive posted: an RNR NAK with the
 * QP's `min_rnr_timer`, ePSN unchanged. ACKs are coalesced per event-loop turn and never
 * overtake pending Read Responses. Opcode sequence and length rules (FIRST/MIDDLE exactly one
 * MTU, the Write's DMA length) are checked here; a violation or a core fault is a NAK
 * (0x61/0x62/0x63) and the QP enters Error.
 *
 * **UC** — the same packets, no ACKs: a PSN gap abandons the message in progress (its receive
 * WQE is reused) and packets are dropped until the next FIRST/ONLY; errors drop silently.
 * **UD** — one packet per message (≤ MTU) with a DETH; the receiver checks the Q_Key and puts
 * the 40-octet GRH, synthesised from the datagram's addresses and the IPv4 ID recovered from
 * the ICRC, in front of the payload.
 *
 * **Atomics** (RC) — 8-octet COMPARE SWAP and FETCH ADD (§9.4.5), one PSN each, executed by the
 * core's atomic executor; the original value returns in an ATOMIC ACKNOWLEDGE. The responder
 * keeps each atomic's result in its resource ring, so a retried atomic is answered again and
 * never executed twice. A response that overtakes an earlier one that was lost (an implied NAK,
 * §9.7.6.1.1) triggers one immediate re-request of the earlier Read/atomic, and an ATOMIC
 * ACKNOWLEDGE received ahead of its turn is kept until the earlier ones complete.
 * **Immediate data** (§9.4.1, §9.4.3) — the ImmDt header on the last packet of a Send or RDMA
 * Write with Immediate (UD too). A Write with Immediate needs a receive WQE: when none is posted
 * its last packet is RNR-NAKed before anything of it is placed.
 */
import { RiRet } from '../rnicpi/status.js';
import { type RiQpState } from '../rnicpi/types.js';
import { Fault } from '../rnic/faults.js';
import type { Qp, TerminateInfo } from '../rnic/qp.js';
import { type IbQpAttrs, type QpTransport, type TransportCaps, TxOp } from '../rnic/transport.js';
import { NakCode } from '../wire/ib/index.js';
import { RoceNet, type RoceNetClient, type RoceRx } from './net.js';
/** Unacknowledged PSNs a requester may have outstanding (rxe: `RXE_MAX_UNACKED_PSNS`). */
export declare const WINDOW = 128;
/** AckReq at least every this many packets within a message (rxe: `noack_pkts > 64`). */
export declare const ACK_EVERY = 64;
/** Octets of the GRH in front of a UD receive (IBTA Vol. 1 §8.3; Annex A17.4.5.1 for IPv4). */
export declare const GRH_LEN = 40;
/** The error object for faults only this transport sees (handed to `qp.terminateWith`). */
export declare class RoceWireError {
    readonly nak: NakCode;
    readonly message: string;
    constructor(nak: NakCode, message: string);
}
/**
 * The IB binder (`registerIbBinder('rocev2', …)`): checks that the path is IPv4 RoCEv2 and
 * attaches the QP to the UDP endpoint of its source address.
 */
export declare function attachRoce(qp: Qp, attrs: Readonly<IbQpAttrs>): RoceQp | RiRet;
/** The RoCEv2 half of one IB QP. */
export declare class RoceQp implements QpTransport, RoceNetClient {
    #private;
    readonly qp: Qp;
    readonly port: number;
    readonly caps: TransportCaps;
    readonly service: 'RC' | 'UC' | 'UD';
    readonly nets: RoceNet[];
    readonly remote: string | null;
    /** Counters for tests and diagnosis (as rxe's hw_counters). */
    readonly stats: {
        retransmitTimeouts: number;
        seqNaksSent: number;
        seqNaksReceived: number;
        rnrNaksSent: number;
        rnrNaksReceived: number;
        duplicateRequests: number;
        outOfSequence: number;
        packetsResent: number;
    };
    constructor(qp: Qp, locals: string[], remote: string | null, port: number);
    maxPayload(_op: TxOp): number;
    start(_streamMsg: Uint8Array | null): void;
    mcastChanged(mgid: Uint8Array, attached: boolean): void;
    ibModified(attrs: Readonly<IbQpAttrs>, changed: number, _from: RiQpState, _to: RiQpState): void;
    kick(): void;
    closeGraceful(): void;
    reset(): void;
    detach(): void;
    netError(err: Error): void;
    /**
     * The NAK for a fatal fault of an inbound request (the core's or {@link RoceWireError}), with
     * the PSN of that request; nothing for faults found on responses (a requester has no NAK).
     */
    sendFatal(err: Fault | object, _copied: unknown): TerminateInfo;
    /** Octets queued in the UDP socket toward the peer (see {@link #queued}). */
    get queuedOctets(): number;
    rx(r: RoceRx): void;
}

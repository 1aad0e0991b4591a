/**
 * A {@link GsiPort} over RNICPI: QP1 of an InfiniBand (RoCE) RNIC obtained as any consumer
 * obtains it, with `ri_special_qp_get(GSI)` (RNICPI Ch. 7), and MADs sent and received as UD
 * datagrams through `ri_qp_postsq`/`ri_qp_postrq` and a CQ (IBTA Vol. 1 §13.5.1, "General
 * Services Interface"). The IB CM (`cm.ts`) runs on top; the core is never reached.
 *
 * - **Receive**: a ring of `recvDepth` buffers of 40 + 256 octets (the GRH area, then the MAD),
 *   re-posted as they complete. The source of a MAD is the GRH's source address (RoCEv2 over
 *   IPv4: the IPv4 header after 20 zero octets, Annex A17.4.5.1; an IB GRH otherwise) and the
 *   completion's source QP; the local GID it was addressed to is the GRH's destination. A
 *   datagram that is not 256 octets is handed up as is: the CM drops it as malformed.
 * - **Send**: `sendDepth` buffers of 256 octets; a MAD finding none free is dropped (UD is
 *   unreliable and the CM retransmits), never queued without bound. The destination is an
 *   address handle per (destination GID, source GID index), kept in a bounded cache.
 * - **Completions** arrive through the RNIC's completion event handler given as `cqHandlerId`:
 *   the CQ's `os_data` is an object whose `onCompletionEvent()` the handler calls (the verbs
 *   face's convention for every CQ it creates).
 *
 * @packageDocumentation
 */
import type { ri_ops_t } from '../rnicpi/ops.js';
import { RiRet } from '../rnicpi/status.js';
import { type ri_rnic_handle_t } from '../rnicpi/types.js';
import type { GsiAddress, GsiPort } from './gsi.js';
/** Options of {@link RiGsiPort.open}. */
export interface RiGsiPortOptions {
    ops: ri_ops_t;
    rnic: ri_rnic_handle_t;
    /** The completion event handler ID the CQ is created with (RNICPI `ri_cq_set_event_handler`). */
    cqHandlerId: number;
    /** The address `ri_mr_reg` takes for a buffer (the consumer's address space). */
    addressOf: (bytes: Uint8Array) => bigint;
    /** Physical port (default 1). */
    port?: number;
    /** Receive buffers posted at once (default 64). */
    recvDepth?: number;
    /** MADs in flight at once (default 64). */
    sendDepth?: number;
}
/** Counters of one port. */
export interface RiGsiStats {
    sent: number;
    received: number;
    /** Sends dropped: no free send buffer, or the post failed. */
    sendDrops: number;
    /** Receives completed in error (a datagram longer than 256 octets, a flush). */
    recvErrors: number;
}
/**
 * The source and destination GIDs of a received GRH. RoCEv2 over IPv4 (Annex A17.4.5.1): 20
 * zero octets then the IPv4 header, whose addresses become IPv4-mapped GIDs; otherwise the IB
 * GRH (SGID at 8, DGID at 24).
 */
export declare function grhGids(g: Uint8Array): {
    sgid: Uint8Array;
    dgid: Uint8Array;
} | null;
/** QP1 of one port of an RNIC, as a {@link GsiPort}. */
export declare class RiGsiPort implements GsiPort {
    #private;
    readonly stats: RiGsiStats;
    /** The QP number (1 once open). */
    qpn: number;
    private constructor();
    /**
     * Opens QP1 of the port: PD, CQ, one registered buffer, `ri_special_qp_get(GSI)`, INIT (P_Key
     * index 0, Q_Key 0x80010000) → RTR → RTS, and the receives posted. Returns the RNICPI status
     * of the first call that failed (everything made so far is freed again).
     */
    static open(o: RiGsiPortOptions): RiGsiPort | RiRet;
    /** The port's GID table (RNICPI `ri_rnic_query` with the port information). */
    gids(): Uint8Array[];
    get closed(): boolean;
    send(mad: Uint8Array, to: GsiAddress): void;
    onReceive(handler: (mad: Uint8Array, from: GsiAddress) => void): void;
    /** Stops receiving and frees QP1, its address handles, buffer, CQ and PD. Idempotent. */
    close(): void;
}

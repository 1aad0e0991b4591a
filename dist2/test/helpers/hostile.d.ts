import type { Rnic } from '../../src/rnic/rnic.js';
import { type ibv_comp_channel, type ibv_context, type ibv_cq, type ibv_mr, type ibv_pd, type ibv_qp, type ibv_wc, type rdma_cm_id, type rdma_event_channel } from '../../src/verbs/index.js';
export declare const sha: (b: Uint8Array) => string;
/** A buffer with random guard octets on both sides of the part that is exposed. */
export interface Guarded {
    readonly name: string;
    readonly whole: Uint8Array;
    /** The exposed part (registered, or for `unreg` only watched). */
    readonly inner: Uint8Array;
    readonly guard: number;
    /** Digest of the guards as made. */
    readonly guards: string;
}
export declare const GUARD = 256;
export declare function guarded(name: string, size: number, guard?: number): Guarded;
export declare function guardDigest(g: Pick<Guarded, 'whole' | 'guard' | 'inner'>): string;
/** What the engine holds: every count must come back to its idle value after a connection. */
export interface EngineCounters {
    qps: number;
    cqs: number;
    pds: number;
    srqs: number;
    mrs: number;
    mws: number;
    pins: number;
}
export declare function engineCounters(rnic: Rnic): EngineCounters;
export declare function engineOf(ctx: ibv_context): Rnic;
/** The message of the rping-like protocol. */
export declare function advert(addr: bigint, rkey: number, len: number): Uint8Array;
/** One connection of the server. */
interface Conn {
    qp: ibv_qp;
    cq: ibv_cq;
    ch: ibv_comp_channel;
    id: rdma_cm_id | null;
    dead: boolean;
    /** The application does not post receives again (it is slow, or has not got to it yet). */
    hold?: boolean;
}
/** The regions, the application and the bookkeeping both front ends share. */
export declare abstract class VerbsServer {
    readonly ctx: ibv_context;
    readonly engine: Rnic;
    readonly pd: ibv_pd;
    /** Another PD, whose region no connection may reach. */
    readonly pd2: ibv_pd;
    /** Remote Read and Write. */
    readonly rw: Guarded;
    /** Remote Read only. */
    readonly ro: Guarded;
    /** A large Remote Read source (Read Request floods, zero window). */
    readonly big: Guarded;
    /** Receive buffers (local only). */
    readonly recv: Guarded;
    /** The sink of the server's own Reads (finding 5). */
    readonly sink: Guarded;
    /** Remote Read and Write, but in `pd2`. */
    readonly other: Guarded;
    /** Never registered; its address is known to the attacker. */
    readonly unreg: Guarded;
    readonly mrs: Record<'rw' | 'ro' | 'big' | 'recv' | 'sink' | 'other', ibv_mr>;
    readonly conns: Set<Conn>;
    /** Messages received, Reads completed, and failed completions by status. */
    readonly served: {
        messages: number;
        reads: number;
    };
    readonly errors: Map<number, number>;
    private slot;
    protected constructor(ctx: ibv_context);
    /** Every watched buffer: the guards of all, and the whole of `other` and `unreg`. */
    watched(): Map<string, string>;
    /** The address of `g`'s exposed part. */
    va(g: Guarded): bigint;
    /** Receives and the application loop of a new connection's QP (its CQ has `ch`). */
    protected serve(c: Conn): void;
    protected postRecv(c: Conn): void;
    private pump;
    private onWc;
    /** A connection failed: tear it down (the front end finishes it). */
    protected fail(c: Conn): void;
    protected abstract teardown(c: Conn): void;
    /** A legitimate client's round (Write, Read back, a Send the server answers with a Read). */
    abstract legit(offset: number): Promise<void>;
    /** Tears every connection down and frees everything; the counters must then be idle. */
    close(): Promise<void>;
    protected newConnResources(): {
        cq: ibv_cq;
        ch: ibv_comp_channel;
    };
    /**
     * Destroys the CQ and its channel once every completion event is acknowledged (ibverbs refuses
     * to destroy a CQ with events outstanding): events still queued on the channel are taken and
     * acknowledged first.
     */
    protected freeConnResources(c: Conn): Promise<void>;
}
export declare const CAP: {
    max_send_wr: number;
    max_recv_wr: number;
    max_send_sge: number;
    max_recv_sge: number;
    max_inline_data: number;
};
/** IRD and ORD the server grants (the attacker's Read Requests beyond IRD are refused). */
export declare const SERVER_IRD = 4;
/** The iWARP front end: rdma_cm on 127.0.0.1, accepting everyone. */
export declare class IwarpServer extends VerbsServer {
    readonly ch: rdma_event_channel;
    readonly listen: rdma_cm_id;
    readonly port: number;
    private stopped;
    private constructor();
    static start(): Promise<IwarpServer>;
    private loop;
    private accept;
    private destroyId;
    protected teardown(c: Conn): void;
    close(): Promise<void>;
    /**
     * A legitimate client: connects with rdma_cm, RDMA Writes 64 octets into `rw` at `offset`,
     * Reads them back, sends an advertisement of its own 32-octet buffer (the server Reads it),
     * and disconnects.
     */
    legit(offset: number): Promise<void>;
}
/** Polls `cq` until `n` completions (bounded by the test's own timeout). */
export declare function pollN(cq: ibv_cq, n: number, ms?: number): Promise<ibv_wc[]>;
export declare function until(pred: () => boolean, what: string, ms?: number): Promise<void>;
export declare const ROCE_SERVER_ADDR = "127.0.0.1";
export declare const ROCE_CLIENT_ADDR = "127.0.0.2";
export declare const ROCE_ATTACKER_ADDR = "127.0.0.3";
/**
 * The RoCEv2 front end on `softroce0`: the device's endpoints are moved to an ephemeral UDP port
 * and given three IPv4-mapped GIDs (server, legitimate client, attacker), a test hook on the
 * RNIC's configuration as in the RoCE verbs tests.
 */
export declare class RoceServer extends VerbsServer {
    readonly udpPort: number;
    private readonly restore;
    private constructor();
    static start(udpPort: number): Promise<RoceServer>;
    /**
     * A connection toward the peer QP `peerQpn` at `peerAddr`, whose first PSN is `peerPsn`;
     * the server's own first PSN is `psn`. Returns the server's QPN.
     */
    connect(peerQpn: number, peerAddr: string, peerPsn: number, psn: number, o?: {
        timeout?: number;
        retryCnt?: number;
    }): number;
    protected teardown(c: Conn): void;
    /** A QP of the server that failed (its connection was torn down) or is live, by QPN. */
    conn(qpn: number): Conn | undefined;
    /** The application stops posting receives on a connection (`false`: posts them again). */
    hold(qpn: number, on: boolean): void;
    /** Tears a live connection down (the application's own timeout, for a peer that vanished). */
    drop(qpn: number): void;
    close(): Promise<void>;
    /** A legitimate RoCEv2 client on 127.0.0.2 of the same device (see {@link IwarpServer.legit}). */
    legit(offset: number): Promise<void>;
}
export {};

import { rdma_cm_event_type as E } from '../verbs/constants.js';
import type { ibv_comp_channel, ibv_cq, ibv_wc, rdma_cm_id, rdma_conn_param, rdma_event_channel } from '../verbs/types.js';
/** The version string we claim: Debian 12's perftest 4.5-0.17 (below 6.28: no negotiation). */
export declare const PERFTEST_VERSION = "6.06";
/** `sizeof(struct pingpong_dest)` up to perftest 6.28, and from 6.29 on. */
export declare const DEST_LEN = 56;
export declare const DEST_LEN_WIDE = 64;
/**
 * What we put in the four padding octets of `pingpong_dest` (offset 20, "garbage" in perftest,
 * which copies the fields one by one and never reads them): lets a softrdma peer recognise
 * another one.
 */
export declare const SOFTRDMA_MAGIC = 1936680564;
export declare class PerfError extends Error {
}
/** `struct pingpong_dest` (host values). */
export interface PingpongDest {
    lid: number;
    outReads: number;
    qpn: number;
    psn: number;
    rkey: number;
    vaddr: bigint;
    gid: Uint8Array;
    srqn: number;
    gidIndex: number;
    /** Whether the padding carried {@link SOFTRDMA_MAGIC} (decode only). */
    softrdma?: boolean;
}
export declare function zeroDest(): PingpongDest;
/**
 * `rdma_write_keys`: every integer big-endian. 56 octets (4.5 … 6.28), or 64 with 6.29's
 * `tail_markers_vaddr` at 32 (then gid at 40, srqn 56, gid_index 60; we send 0 there).
 */
export declare function encodeDest(d: PingpongDest, wide: boolean): Uint8Array;
/** `rdma_read_keys` (gid_index is not read: perftest keeps its own). */
export declare function decodeDest(b: Uint8Array, wide: boolean): PingpongDest;
/** C's `atof` on a version string: the leading decimal number, 0 if none. */
export declare function versionNumber(s: string): number;
/** `float` comparison as perftest does it (`atof` result stored in a float). */
export declare function versionAtLeast(v: number, min: number): boolean;
/** The fields of an rdma_cm event we keep (the event itself is acked at once). */
export interface CmEv {
    event: E;
    status: number;
    id: rdma_cm_id;
    listenId: rdma_cm_id | null;
    conn: rdma_conn_param;
}
/**
 * Reads one event channel for its whole life and hands each event to whoever waits for its id
 * (CONNECT_REQUEST: for the listening id). Events are acked on arrival, so ids can always be
 * destroyed. DISCONNECTED is also remembered per id, so that loops can stop waiting on a
 * connection the peer has closed.
 */
export declare class CmPump {
    readonly ch: rdma_event_channel;
    private readonly queues;
    private readonly waiters;
    readonly disconnected: Set<rdma_cm_id>;
    closed: boolean;
    constructor(ch: rdma_event_channel);
    private loop;
    /** The next event of `id`; null when the channel closed or after `timeoutMs`. */
    next(id: rdma_cm_id, timeoutMs?: number): Promise<CmEv | null>;
    /** Waits for an event of `id` that must be `want`. */
    expect(id: rdma_cm_id, want: E, what: string, timeoutMs?: number): Promise<CmEv>;
}
/** How the test loops wait for completions: sleep on the CQ's channel, or poll and yield. */
export interface Waiter {
    busyPoll: boolean;
    /** Throws when the run must stop (the peer went away). */
    check(): void;
}
/**
 * Polls `cq` for up to `wc.length` completions and returns how many (≥ 1). When the CQ is
 * empty: with a channel (blocking mode) arms the CQ and sleeps until its completion event;
 * without one (busy polling) yields to the event loop and polls again.
 */
export declare function waitCq(cq: ibv_cq, ch: ibv_comp_channel | null, wc: ibv_wc[], w: Waiter): Promise<number>;
export declare function wcError(wc: ibv_wc, what: string): PerfError;
/** `-d DEV`: the id uses that device (rdmaUseDevice); without it rdma_cm chooses (SOFTRDMA_DEVICE, else softrdma0). */
export declare function useDevice(id: rdma_cm_id, dev: string | undefined): void;
/**
 * What the test flows need of the out-of-band channel, whichever carries it: the rdma_cm
 * control connection ({@link Control}, `-R`) or perftest's TCP socket (`EthControl`).
 */
export interface CtlChannel {
    readonly client: boolean;
    /** Set once the run is over: a closing peer is then expected. */
    finished: boolean;
    /** Throws if the peer has gone. */
    check(): void;
    /** `ctx_xchg_data`: the client sends then receives; the server receives then sends. */
    xchg(msg: Uint8Array, n?: number): Promise<Uint8Array>;
    /** `ctx_hand_shake`: one `pingpong_dest` exchange. */
    handshake(my: PingpongDest): Promise<PingpongDest>;
}
/**
 * The control connection (`create_comm_struct`, `rdma_client_connect`, `rdma_server_connect`):
 * an RC QP with one receive always posted (before connect/accept, and re-posted right after a
 * message is consumed, before any reply), IRD/ORD 0. Messages are single signaled Sends; the
 * client sends first in every exchange, the server receives first.
 */
export declare class Control implements CtlChannel {
    readonly id: rdma_cm_id;
    readonly client: boolean;
    readonly pump: CmPump;
    private readonly waiter;
    private readonly buf;
    private mr;
    private qp;
    private scq;
    private rcq;
    private sch;
    private rch;
    private readonly wc;
    /** Message length of `pingpong_dest` towards the peer (64 for a 6.29+ peer). */
    destLen: number;
    /** Set once the run is over: a closing peer is then expected. */
    finished: boolean;
    private constructor();
    private setup;
    private postRecv;
    /** Client: resolve, create resources, post the receive, connect (IRD/ORD 0), wait for ESTABLISHED. */
    static connect(pump: CmPump, addr: string, port: number, waiter: Waiter, dev?: string): Promise<Control>;
    /** Server: binds and listens; the listener stays up for the data connections too. Resolves with the port. */
    static listen(pump: CmPump, bind: string, port: number, backlog: number, dev?: string): Promise<{
        listenId: rdma_cm_id;
        port: number;
    }>;
    /**
     * Server: waits for the first CONNECT_REQUEST on the listener, creates the resources, posts
     * the receive and accepts with IRD/ORD 0. Like perftest, does not wait for ESTABLISHED.
     */
    static accept(pump: CmPump, listenId: rdma_cm_id, waiter: Waiter): Promise<Control>;
    /** Throws if the control connection is gone (the peer closed it). */
    check(): void;
    /** `rdma_write_data`: one signaled Send of `msg` from the send page; waits for its completion. */
    send(msg: Uint8Array): Promise<void>;
    /** `rdma_read_data`: waits for the next message, copies `n` octets (whatever its length), re-posts. */
    recv(n: number): Promise<Uint8Array>;
    private waiterFor;
    /** `ctx_xchg_data`: the client sends then receives; the server receives then sends. */
    xchg(msg: Uint8Array, n?: number): Promise<Uint8Array>;
    /** `ctx_hand_shake`: one `pingpong_dest` exchange. */
    handshake(my: PingpongDest): Promise<PingpongDest>;
}
/** The version message: the string NUL-padded to 16 octets (`char version[16]`). */
export declare function versionMsg(v: string): Uint8Array;
export declare function cstring(b: Uint8Array): string;
export declare function be32(v: number): Uint8Array;
export declare function readBe32(b: Uint8Array): number;
/** The MTU message: `sprintf("%d", mtu_enum)` in `len` octets (2 for a peer ≥ 5.31, else 4). */
export declare function mtuMsg(mtuEnum: number, len: number): Uint8Array;
/** `strtol(rem, NULL, 10)`. */
export declare function parseMtuMsg(b: Uint8Array): number;
/** Big-endian unsigned 64-bit (perftest's `hton_long` / `hton_64`). */
export declare function be64(v: number | bigint): Uint8Array;
export declare function beDouble(v: number): Uint8Array;
export declare function readBe64(b: Uint8Array): number;
export declare function readBeDouble(b: Uint8Array): number;

import net from 'node:net';
import type { ri_ops_t } from '../../src/rnicpi/ops.js';
import { type SoftrdmaVp } from '../../src/provider/softrdma.js';
import { RiRet, riRetName } from '../../src/rnicpi/status.js';
import { type ri_cq_handle_t, type ri_data_seg_t, type ri_event_record_t, type ri_mpa_attr_t, type ri_mr_handle_t, type ri_pd_handle_t, type ri_qp_attr_in_t, type ri_qp_attr_t, type ri_qp_handle_t, type ri_rnic_handle_t, type ri_srq_handle_t, type ri_rc_wc_t, RiConsumerDomain, RiQpState } from '../../src/rnicpi/types.js';
import { LlpStream } from '../../src/iwarp/llp.js';
import type { MpaAttrs } from '../../src/rnic/qp.js';
import type { RnicConfig } from '../../src/rnic/rnic.js';
import { type TransportName } from '../helpers/engine.js';
export declare const ALL_ACCESS: number;
/** Unwraps a successful result; fails the test with the code name otherwise. */
export declare function ok<R extends {
    readonly status: RiRet;
}>(r: R, what?: string): Extract<R, {
    readonly status: RiRet.SUCCESS;
}>;
/** Asserts a status by name (clearer failure messages than numbers). */
export declare function code(r: {
    readonly status: RiRet;
}): string;
export declare const name: typeof riRetName;
/** One opened softrdma RNIC with a consumer handle and event recorders. */
export interface Env {
    vp: SoftrdmaVp;
    ops: ri_ops_t;
    rnic: ri_rnic_handle_t;
    /** `ri_rnic_open` os_data. */
    osData: object;
    events: ri_event_record_t[];
    /** Every CEH call: [vp_hdl_os_data, cq_os_data]. */
    cqCalls: [unknown, unknown][];
    /** A CEH id bound to the recorder. */
    handlerId: number;
    /** Frees every object of every handle and closes the RNIC. */
    close(): void;
}
export declare function openRnic(opts?: {
    location?: RiConsumerDomain;
    asyncHandler?: boolean;
    config?: Partial<RnicConfig>;
}): Env;
/** A second consumer handle on the same RNIC. */
export declare function userHandle(env: Env): ri_rnic_handle_t;
export declare function allocPd(env: Env, rnic?: ri_rnic_handle_t, osData?: unknown): ri_pd_handle_t;
export declare function createCq(env: Env, n?: number, handlerId?: number, osData?: unknown, rnic?: ri_rnic_handle_t): ri_cq_handle_t;
export declare function qpAttrsIn(pd: ri_pd_handle_t, scq: ri_cq_handle_t, rcq?: ri_cq_handle_t, over?: Partial<ri_qp_attr_in_t>): ri_qp_attr_in_t;
/** A QP with its PD and CQ, the unit most tests work with. */
export interface Side {
    env: Env;
    rnic: ri_rnic_handle_t;
    pd: ri_pd_handle_t;
    cq: ri_cq_handle_t;
    qp: ri_qp_handle_t;
    qpOsData: object;
    cqOsData: unknown;
    attrs: ri_qp_attr_t;
}
export declare function makeSide(env: Env, over?: Partial<ri_qp_attr_in_t>, opts?: {
    pd?: ri_pd_handle_t;
    cq?: ri_cq_handle_t;
    cqOsData?: unknown;
    cqSize?: number;
    handlerId?: number;
    rnic?: ri_rnic_handle_t;
}): Side;
export declare function query(s: Side): ri_qp_attr_t;
export declare function state(s: Side): RiQpState;
export declare function modifyState(s: Side, to: RiQpState): import("../../src/rnicpi/status.js").RiResult<{
    attrs: ri_qp_attr_t;
}>;
/** A host buffer and its virtual address. */
export interface Buf {
    bytes: Uint8Array;
    va: bigint;
}
export declare function buf(n: number, fill?: number): Buf;
export declare function bufOf(bytes: Uint8Array): Buf;
export interface Mr {
    mr: ri_mr_handle_t;
    ltag: number;
    rtag?: number;
    b: Buf;
}
export declare function regMr(s: {
    env: Env;
    rnic: ri_rnic_handle_t;
    pd: ri_pd_handle_t;
}, b: Buf, flags?: number, key?: number): Mr;
export declare function seg(m: Mr, off?: number, len?: number): ri_data_seg_t;
export declare function postRecv(s: Side, m: Mr, id: bigint, off?: number, len?: number): import("../../src/rnicpi/status.js").RiStatus;
export declare function postSend(s: Side, m: Mr | null, id: bigint, flags?: number, len?: number): import("../../src/rnicpi/status.js").RiStatus;
/** Polls `cq` through `ri_cq_poll` until `n` WCs arrived (fails after `ms`). */
export declare function pollWcs(env: Env, rnic: ri_rnic_handle_t, cq: ri_cq_handle_t, n: number, ms?: number): Promise<ri_rc_wc_t[]>;
/** Polls everything currently on `cq`. */
export declare function drain(env: Env, rnic: ri_rnic_handle_t, cq: ri_cq_handle_t): ri_rc_wc_t[];
export declare function tick(): Promise<void>;
/** Lets queued microtasks and I/O callbacks run for a few loop turns. */
export declare function settle(turns?: number): Promise<void>;
export declare function until(pred: () => boolean, what?: string, ms?: number): Promise<void>;
export declare function riMpa(m: MpaAttrs): ri_mpa_attr_t;
/** Converts `s` to RDMA mode over `stream` (Idle→RTS). */
export declare function toRts(s: Side, stream: LlpStream, mpa: MpaAttrs, streamMsg?: Uint8Array): import("../../src/rnicpi/status.js").RiResult<{
    attrs: ri_qp_attr_t;
}>;
export interface Pair {
    server: net.Server;
    sockets: net.Socket[];
    /** The passive side's stream (for LLP-handle assertions). */
    streamB: LlpStream;
    streamA: LlpStream;
    close(): void;
}
/**
 * Connects `a` (MPA Initiator) to `b` (Responder) over 127.0.0.1 and moves both QPs to RTS
 * through `ri_qp_modify`. `beforeRts` runs on each side before its conversion. With
 * `replyAsStreamMsg`, the Responder does not write its MPA Reply itself: it hands it to
 * `ri_qp_modify` as the last streaming-mode message (STREAM_MSG_BUFFER).
 */
export declare function connect(a: Side, b: Side, opts?: {
    crc?: boolean;
    beforeRts?: (s: Side) => void;
    replyAsStreamMsg?: boolean;
    transport?: TransportName;
}): Promise<Pair>;
export declare function setConformanceTransport(t: TransportName): void;
/**
 * Registers a connected-pair test once per transport in {@link TRANSPORTS} (the transport named
 * in its title): `fn` runs with `connect`/`twoSides` on that transport. `only` keeps a test to
 * the transports whose wire it is about (an iWARP streaming-mode message, say).
 */
export declare function transportTest(name: string, fn: (transport: TransportName) => Promise<void>, only?: readonly TransportName[]): void;
/**
 * A zero-length Send from `from` to `to`, both completions reaped: everything `from` posted
 * earlier has reached `to` (Verbs §8.2.2 rule 12: an RDMA Write's sink is defined once a later
 * Send completed at the peer).
 */
export declare function deliver(from: Side, to: Side): Promise<void>;
export declare const DELIVER_ID = 18446744073709551600n;
/** Two RNICs, one QP each, connected. */
export declare function twoSides(overA?: Partial<ri_qp_attr_in_t>, overB?: Partial<ri_qp_attr_in_t>, opts?: {
    beforeRts?: (s: Side) => void;
    handlerId?: boolean;
    cqSize?: number;
    warm?: boolean;
    configB?: Partial<RnicConfig>;
}): Promise<{
    a: Side;
    b: Side;
    pair: Pair;
    envA: Env;
    envB: Env;
    done(): void;
}>;
/** Closes whatever a failed test left open (call from `after`/`afterEach`). */
export declare function cleanupAll(): void;
export type { ri_srq_handle_t };

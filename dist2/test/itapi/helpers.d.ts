import { type it_status_t, type it_ep_attributes_t, type it_ep_handle_t, type it_evd_handle_t, type it_event_t, type it_ia_handle_t, type it_listen_handle_t, type it_lmr_handle_t, type it_path_t, type it_pz_handle_t, type it_rmr_context_t, type it_srq_handle_t, type it_dto_flags_t, type it_lmr_flag_t } from '../../src/itapi/index.js';
/** No DTO flags (`it_dto_flags_t` has no zero member). */
export declare const NO_FLAGS: it_dto_flags_t;
/** No LMR flags (`0` means "none", like IT_LMR_FLAG_NONE). */
export declare const NO_LMR_FLAGS: it_lmr_flag_t;
/** The name of the first IT-API Interface. */
export declare function ifName(): string;
export declare function openIa(privileged?: boolean): it_ia_handle_t;
export declare function freeIa(ia: it_ia_handle_t): void;
/** Frees every IA the test opened, then checks that nothing is left on the RNIC. */
export declare function freeAll(): void;
/** Asserts that `fn` throws `ItError` with `status`. */
export declare function throwsIt(fn: () => unknown, status: it_status_t, msg?: string): void;
/** Asserts that the Promise rejects with `ItError` `status`. */
export declare function rejectsIt(p: Promise<unknown>, status: it_status_t): Promise<void>;
export declare function sevd(ia: it_ia_handle_t, stream: number, size?: number, threshold?: number, flags?: number, aevd?: it_evd_handle_t | null): it_evd_handle_t;
/** Waits (bounded) for the next Event of `evd`; fails the test on timeout. */
export declare function next(evd: it_evd_handle_t, ms?: number): Promise<it_event_t>;
/** Waits for the next Event of `evd` with event number `n`, skipping others it may deliver first. */
export declare function nextOf(evd: it_evd_handle_t, n: number, ms?: number): Promise<it_event_t>;
/** Dequeues everything queued right now. */
export declare function drain(evd: it_evd_handle_t): it_event_t[];
/** Lets pending I/O and microtasks run (bounded waits only; never a timing assertion). */
export declare function tick(ms?: number): Promise<void>;
/** Polls `pred` until it holds (bounded). */
export declare function until(pred: () => boolean, ms?: number, what?: string): Promise<void>;
export declare function rcAttrs(over?: Partial<it_ep_attributes_t>, rc?: Record<string, unknown>): it_ep_attributes_t;
/**
 * One side: an IA with a PZ, DTO SEVDs (`req` for the Send Queue, `dto` for Receives; the same
 * SEVD unless a request threshold is asked for), a CM_MSG SEVD and an Endpoint.
 */
export interface Side {
    ia: it_ia_handle_t;
    pz: it_pz_handle_t;
    req: it_evd_handle_t;
    dto: it_evd_handle_t;
    cm: it_evd_handle_t;
    ep: it_ep_handle_t;
}
export interface SideOpts {
    attrs?: it_ep_attributes_t;
    flags?: number;
    /** Threshold of the Receive (and shared) DTO SEVD. */
    threshold?: number;
    /** A separate request SEVD with this threshold. */
    reqThreshold?: number;
    cmSize?: number;
}
export declare function makeSide(ia?: it_ia_handle_t, o?: SideOpts): Side;
/** A registered buffer. */
export interface Buf {
    bytes: Uint8Array;
    lmr: it_lmr_handle_t;
    ctx: it_rmr_context_t | null;
    addr: bigint;
}
export declare function reg(pz: it_pz_handle_t, size: number, privs?: import("../../src/itapi/types.js").it_mem_priv_t, fill?: string): Buf;
export declare function seg(b: Buf, off?: number, len?: number): {
    lmr: it_lmr_handle_t;
    addr: bigint;
    length: number;
};
export declare const te: (s: string) => Uint8Array;
export declare const td: (b: Uint8Array) => string;
/** A loopback iWARP path with a bounded connection timeout (µs). */
export declare function loopPath(timeoutUs?: bigint): it_path_t;
/** A Listen Point on a free port with its CM_REQ SEVD. */
export interface Listener {
    ia: it_ia_handle_t;
    evd: it_evd_handle_t;
    listen: it_listen_handle_t;
    port: number;
}
export declare function listen(ia: it_ia_handle_t, size?: number): Listener;
export declare function connectTo(ep: it_ep_handle_t, port: number, pdata?: Uint8Array | null, timeoutUs?: bigint): void;
/** A connected pair: `a` connected actively to `b`'s Listen; both CONNECTED, all Events consumed. */
export interface Pair {
    a: Side;
    b: Side;
    l: Listener;
    /** The passive side's first Receive buffer (got the "hello" that made it CONNECTED). */
    hello: Buf;
}
export declare function connectPair(o?: {
    a?: SideOpts;
    b?: SideOpts;
    aIa?: it_ia_handle_t;
    bIa?: it_ia_handle_t;
    pdata?: Uint8Array;
    /** Where b's first Receive goes (an S-RQ and a PZ of it); default b's Endpoint. */
    bRecv?: {
        handle: it_srq_handle_t;
        pz: it_pz_handle_t;
    };
}): Promise<Pair>;
/** A port nobody listens on (bound, then closed). */
export declare function closedPort(): Promise<number>;

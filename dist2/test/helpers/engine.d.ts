import net from 'node:net';
import { RiRet } from '../../src/rnicpi/status.js';
import { type RiWrType } from '../../src/rnicpi/types.js';
import { type Cq, type WorkCompletion } from '../../src/rnic/cq.js';
import type { MemObject } from '../../src/rnic/memory.js';
import { type MpaParams } from '../../src/iwarp/mpa-startup.js';
import type { Pd } from '../../src/rnic/pd.js';
import { type SqWrIn } from '../../src/rnic/post.js';
import type { MpaAttrs, Qp, QpInit } from '../../src/rnic/qp.js';
import { Rnic, type RnicConfig } from '../../src/rnic/rnic.js';
import type { IbService } from '../../src/rnic/qp-states.js';
import { type CmQp } from '../../src/iwarp/cm.js';
import type { FaultPlan } from '../../src/loopback/faults.js';
import '../../src/roce/transport.js';
export declare const ALL_ACCESS: number;
export interface Side {
    rnic: Rnic;
    pd: Pd;
    cq: Cq;
    qp: Qp;
}
export declare const DEFAULT_MPA: MpaAttrs;
export declare function must<T>(v: T | RiRet): T;
/**
 * An engine RNIC reached through the softrdma provider (`ri_rnic_open`, `ri_rnic_get_hdl`), for
 * tests of RNICPI consumers such as the connection manager: {@link cmSide} makes QPs on it
 * through `ri_qp_create`, and the engine objects stay at hand for posting and polling.
 */
export declare function riRnic(config?: Partial<RnicConfig>): Rnic;
/** A {@link Side} whose QP was made through RNICPI, with the CM's view of it. */
export interface CmSide extends Side {
    /** The QP as the connection manager takes it ({@link riCmQp} over the provider). */
    cm: CmQp;
}
/**
 * A QP made with `ri_qp_create` on an RNIC from {@link riRnic} (default: a new one), with the
 * attributes of {@link makeSide}: its own PD and one CQ for both queues.
 */
export declare function cmSide(rnic?: Rnic, over?: Partial<QpInit>): CmSide;
/**
 * One PD and one CQ of `cqSize` entries made through RNICPI on an RNIC from {@link riRnic}, and a
 * maker of QPs on them (`ri_qp_create`, attributes of {@link makeSide} with `over`): each QP as
 * the engine object and as the CM's {@link CmQp}.
 */
export declare function cmQps(rnic: Rnic, cqSize: number, over?: Partial<QpInit>): {
    pd: Pd;
    cq: Cq;
    make(): {
        qp: Qp;
        cm: CmQp;
    };
};
/** A QP's creation attributes: one PD, one CQ for both queues, small queues, Read/Write on. */
export declare function qpInit(pd: Pd, cq: Cq, over?: Partial<QpInit>): QpInit;
export declare function makeSide(rnic?: Rnic, over?: Partial<QpInit>): Side;
export declare function reg(side: Side, bytes: Uint8Array, flags?: number): MemObject;
export declare function sge(mr: MemObject, bytes: Uint8Array, off?: number, len?: number): {
    stag: number;
    to: bigint;
    len: number;
};
export interface Pair {
    a: Side;
    b: Side;
    transport: TransportName | IbTransportName;
    /** The TCP listener of an iWARP pair (null on loopback). */
    server: net.Server | null;
    close(): Promise<void>;
}
/** The transports a semantic suite runs on. */
export type TransportName = 'iwarp' | 'loopback';
/** The transports the InfiniBand suites run on ('loopback-ib': IB-state QPs over the loopback). */
export type IbTransportName = 'loopback-ib' | 'rocev2';
/**
 * Every transport the suites run on; `SOFTRDMA_TEST_TRANSPORTS=loopback` (comma-separated)
 * narrows a run to some of them.
 */
export declare const TRANSPORTS: readonly TransportName[];
/**
 * The transports the InfiniBand (IB state set) suites run on; `SOFTRDMA_TEST_TRANSPORTS` narrows
 * them too. The RoCEv2 transport adds its name here.
 */
export declare const IB_TRANSPORTS: readonly IbTransportName[];
/** The one GID of the test IB RNICs: ::ffff:127.0.0.1 (IPv4-mapped, RoCE v2). */
export declare const TEST_GID: Uint8Array<ArrayBuffer>;
/** An InfiniBand (RoCEv2-family) RNIC whose QPs are carried by the IB binder `link`. */
export declare function ibRnic(link?: string, over?: Partial<RnicConfig>): Rnic;
/** A side on a new IB RNIC (or `rnic`) with a QP of `service`, still in Reset. */
export declare function makeIbSide(service?: IbService, rnic?: Rnic, over?: Partial<QpInit>): Side;
/** IB connection parameters of {@link ibToRts}. */
export interface IbPath {
    pathMtu?: number;
    /** The peer's GID (default {@link TEST_GID}). */
    dgid?: Uint8Array;
    /** RC: the Local ACK Timeout, retry counts and RNR timer (defaults 14, 7, 7, 12). */
    timeout?: number;
    retryCnt?: number;
    rnrRetry?: number;
    minRnrTimer?: number;
    psn?: number;
    peerPsn?: number;
    access?: {
        read: boolean;
        write: boolean;
        atomic: boolean;
    };
}
/** Moves an IB QP Reset→INIT→RTR→RTS with the attributes the manual's §4.5.1 table requires. */
export declare function ibToRts(qp: Qp, destQpn: number, path?: IbPath): RiRet;
/** The IPv4-mapped GID of `a.b.c.d`. */
export declare function gidOf(ipv4: string): Uint8Array;
/**
 * Connects side `a` (MPA Initiator) to side `b` (Responder) over 127.0.0.1, and moves both
 * QPs to RTS. `beforeRts` runs on each side before its Modify (post receives there).
 */
export declare function connectPair(a: Side, b: Side, opts?: {
    transport?: TransportName | IbTransportName;
    mpaA?: Partial<MpaParams>;
    mpaB?: Partial<MpaParams>;
    beforeRts?: (s: Side) => void;
    /** Loopback only: the fault hook's plan per direction. */
    faults?: {
        ab?: FaultPlan;
        ba?: FaultPlan;
    };
    /** IB transports: the path MTU (`enum ibv_mtu`, default 3 = 1024). */
    pathMtu?: number;
    /** IB transports: timeouts and retry counts of the RC QPs. */
    ib?: IbPath;
}): Promise<Pair>;
/**
 * The LLP of a connected side, for tests that act on it directly: stop reading, send a FIN
 * (graceful close), or reset. iWARP acts on the TCP socket; loopback on its endpoint.
 */
export declare function llp(s: Side): {
    pause(): void;
    end(): void;
    reset(): void;
};
/**
 * The Terminate code a QP recorded, as iWARP puts it on the wire: a loopback QP records the
 * core's neutral fault, which is shown through the iWARP mapping so one assertion covers both.
 */
export declare function termCode(q: Qp): [number, number, number];
/**
 * Waits for the next completion on `cq` without spinning: arms the CQ (any completion) and
 * resolves from its completion handler. Callers poll again afterwards (poll, arm, poll).
 */
export declare function waitCq(cq: Cq): Promise<void>;
/** Polls `cq` until `n` completions arrived or `ms` passed. */
export declare function pollN(cq: Cq, n: number, ms?: number): Promise<WorkCompletion[]>;
/** Waits until `pred` holds (checked every tick) or throws after `ms`. */
export declare function until(pred: () => boolean, ms?: number, what?: string): Promise<void>;
export declare function send(qp: Qp, wr: Partial<SqWrIn> & {
    type: RiWrType;
}): RiRet;
export declare function recv(qp: Qp, id: bigint, sgl: {
    stag: number;
    to: bigint;
    len: number;
}[]): RiRet;

/** Two IB CMs over an in-memory GSI fabric on a virtual clock, with a record of every MAD. */
import { ManualClock, MemoryGsiFabric } from '../../src/ibcm/gsi.js';
import { IbCm, type IbCmEvent, type IbCmListener, type IbCmListenEvent, type IbCmListenLimits } from '../../src/ibcm/cm.js';
import { type CmMessage } from '../../src/wire/ib/cm.js';
import type { GsiFaultSource } from '../../src/ibcm/gsi.js';
export declare const GID_A: Uint8Array<ArrayBufferLike>;
export declare const GID_B: Uint8Array<ArrayBufferLike>;
export interface Wire {
    from: 'A' | 'B';
    tid: bigint;
    msg: CmMessage;
}
/** A seeded PRNG for comm IDs and TIDs (mulberry32). */
export declare function seeded(seed: number): () => number;
export interface Pair {
    clock: ManualClock;
    fabric: MemoryGsiFabric;
    a: IbCm;
    b: IbCm;
    /** Every MAD offered to the fabric (before faults), decoded. */
    wire: Wire[];
    /** Replace to inject targeted faults: return 'drop' / 'duplicate' for a MAD. */
    fault: (w: Wire, nth: number) => 'pass' | 'drop' | 'duplicate';
    kinds(from?: 'A' | 'B'): string[];
}
/**
 * `listenLimits` default to no accept timeout: these tests model consumers that decide late on
 * purpose (after an MRA); the limits have their own tests.
 */
export declare function pair(opts?: {
    faults?: GsiFaultSource;
    seed?: number;
    timewaitMs?: number;
    listenLimits?: Partial<IbCmListenLimits>;
}): Pair;
/** Collects a connection's events. */
export declare function recorder(): {
    events: IbCmEvent[];
    on: (e: IbCmEvent) => void;
    types: () => string[];
};
/** A listener that accepts every REQ (with QPN `qpn`, or 0x200, 0x201, …) and records what it saw. */
export declare function acceptingListener(cm: IbCm, sid: bigint, opts?: {
    qpn?: number;
    psn?: number;
    reject?: Uint8Array;
    mra?: number;
    manual?: boolean;
}): {
    reqs: Extract<IbCmListenEvent, {
        type: 'req';
    }>[];
    events: IbCmEvent[];
    listener: IbCmListener;
};

/**
 * A deterministic fault hook for transports under test: drop, duplicate, reorder, delay and
 * corrupt units, decided by a seeded generator so that a failing run can be replayed from its
 * seed. The loopback transport applies it to every unit it carries; a datagram transport
 * (RoCEv2, `src/roce/net.ts`) applies the same hook to its datagrams.
 */
/** Probabilities (0…1) of each fault per unit, and the seed. */
export interface FaultPlan {
    seed: number;
    drop?: number;
    duplicate?: number;
    /** Hold a unit back and send it after the next one. */
    reorder?: number;
    /** Deliver a unit (and everything after it, to keep order) this many ms late. */
    delay?: number;
    delayMs?: number;
    /** Flip one payload bit. */
    corrupt?: number;
}
/** What to do with one unit. */
export interface FaultDecision {
    drop: boolean;
    duplicate: boolean;
    reorder: boolean;
    delayMs: number;
    corrupt: boolean;
}
export declare class FaultHook {
    readonly plan: FaultPlan;
    private readonly rnd;
    /** Counts of each fault applied, for tests and logs. */
    readonly applied: {
        drop: number;
        duplicate: number;
        reorder: number;
        delay: number;
        corrupt: number;
    };
    constructor(plan: FaultPlan);
    /** Decides the fate of the next unit (every probability is drawn, so the stream is stable). */
    decide(): FaultDecision;
    /** A uniform integer in [0, n). */
    pick(n: number): number;
}

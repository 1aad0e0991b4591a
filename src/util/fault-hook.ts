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

/** mulberry32: a small, fast, seedable PRNG (public domain); enough for test schedules. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultHook {
  readonly #rnd: () => number;
  /** Counts of each fault applied, for tests and logs. */
  readonly applied = { drop: 0, duplicate: 0, reorder: 0, delay: 0, corrupt: 0 };
  constructor(readonly plan: FaultPlan) {
    this.#rnd = mulberry32(plan.seed);
  }

  /** Decides the fate of the next unit (every probability is drawn, so the stream is stable). */
  decide(): FaultDecision {
    const p = this.plan;
    const d: FaultDecision = {
      drop: this.#rnd() < (p.drop ?? 0),
      duplicate: this.#rnd() < (p.duplicate ?? 0),
      reorder: this.#rnd() < (p.reorder ?? 0),
      delayMs: this.#rnd() < (p.delay ?? 0) ? (p.delayMs ?? 5) : 0,
      corrupt: this.#rnd() < (p.corrupt ?? 0),
    };
    if (d.drop) this.applied.drop++;
    if (d.duplicate) this.applied.duplicate++;
    if (d.reorder) this.applied.reorder++;
    if (d.delayMs) this.applied.delay++;
    if (d.corrupt) this.applied.corrupt++;
    return d;
  }

  /** A uniform integer in [0, n). */
  pick(n: number): number {
    return Math.floor(this.#rnd() * n);
  }
}

/**
 * Shared Receive Queues (RDMA Protocol Verbs §5.x S-RQ, RNICPI §5.7 `ri_srq_*`).
 *
 * An S-RQ holds receive WQEs that any associated QP may consume, in FIFO order. Its limit
 * event fires once per arming when the number of available WQEs drops to or below the
 * low-water mark (`lowat`), and must be re-armed explicitly (RNICPI §6.8).
 */
import type { Pd } from './pd.js';
import type { RqWqe } from './wqe.js';

export class Srq {
  #ring: (RqWqe | undefined)[];
  #head = 0;
  #count = 0;
  /** QPs associated with this S-RQ: SRQ_INUSE guard. */
  users = 0;
  /**
   * WQEs taken by a QP whose completion has not been polled yet: their slots are not free
   * (a WQ slot is released when the Consumer reaps the WC, Verbs §8.1.3.1, §10 Q-S5).
   */
  inFlight = 0;
  destroyed = false;
  error = false;
  lowat: number;
  armed: boolean;
  readonly #onLimit: (srq: Srq) => void;
  constructor(
    readonly id: number,
    capacity: number,
    readonly maxSgl: number,
    lowat: number,
    readonly pd: Pd,
    readonly osData: unknown,
    /** Raises `RI_EVENT_SRQ_LIMIT_REACHED`. */
    onLimit: (srq: Srq) => void,
  ) {
    this.#onLimit = onLimit;
    this.#ring = new Array(capacity);
    this.lowat = lowat;
    // "Non-zero lowat arms the limit automatically" at create (RNICPI ri_srq_create).
    this.armed = lowat > 0;
  }

  get capacity(): number {
    return this.#ring.length;
  }
  /** WQEs posted and not yet consumed. */
  get available(): number {
    return this.#count;
  }

  /** Slots in use: posted WQEs plus consumed ones whose WC is not yet polled. */
  get occupied(): number {
    return this.#count + this.inFlight;
  }

  /** Appends a WQE; false if every slot is in use. */
  push(w: RqWqe): boolean {
    if (this.occupied >= this.#ring.length) return false;
    this.#ring[(this.#head + this.#count) % this.#ring.length] = w;
    this.#count++;
    return true;
  }

  /** The oldest WQE, left in place. */
  peek(): RqWqe | undefined {
    return this.#count === 0 ? undefined : this.#ring[this.#head];
  }

  /** Takes the oldest WQE, checking the limit event afterwards. */
  shift(): RqWqe | undefined {
    if (this.#count === 0) return undefined;
    const w = this.#ring[this.#head];
    this.#ring[this.#head] = undefined;
    this.#head = (this.#head + 1) % this.#ring.length;
    this.#count--;
    if (this.armed && this.#count <= this.lowat) {
      this.armed = false;
      this.#onLimit(this);
    }
    return w;
  }

  /** Resizes keeping queued WQEs; false if `capacity` is below the queued count. */
  resize(capacity: number): boolean {
    if (capacity < this.#count) return false;
    const ring: (RqWqe | undefined)[] = new Array(capacity);
    for (let i = 0; i < this.#count; i++) ring[i] = this.#ring[(this.#head + i) % this.#ring.length];
    this.#ring = ring;
    this.#head = 0;
    return true;
  }
}

/**
 * The calls of a connection waiting for a send slot: a FIFO that a signal can leave early. A
 * slot freed by a completion goes to the oldest waiter still waiting, so calls keep their order
 * on the send queue; an aborted waiter leaves a hole that is skipped, and the queue compacts
 * itself once more than half of it is behind the head.
 *
 * @module
 */
import type { AbortHub } from './connection-parts.js';
import type { Waiter } from './connection-types.js';

export class SlotWaiters {
  readonly #aborts: AbortHub;
  readonly #waiters: (Waiter | null)[] = [];
  #head = 0;
  #count = 0;

  constructor(aborts: AbortHub) {
    this.#aborts = aborts;
  }

  /** Waiters still waiting. */
  get count(): number {
    return this.#count;
  }

  /** Waits for a slot; rejects with the signal's reason when it aborts first. */
  wait(signal: AbortSignal | undefined): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.#push({ resolve, reject, signal, onAbort: null });
      this.#count++;
    });
  }

  /** The oldest waiter still waiting, removed from the queue (or null). */
  next(): Waiter | null {
    while (this.#head < this.#waiters.length) {
      const w = this.#waiters[this.#head];
      this.#waiters[this.#head++] = null;
      if (w) {
        this.#count--;
        if (w.onAbort) this.#aborts.remove(w.signal!, w.onAbort);
        this.#compact();
        return w;
      }
    }
    this.#compact();
    return null;
  }

  /** Rejects every waiter with `err`. */
  rejectAll(err: Error): void {
    for (let w = this.next(); w; w = this.next()) w.reject(err);
  }

  /** Queues `w` at the tail; its abort handler names its index there. */
  #push(w: Waiter): void {
    const at = this.#waiters.length;
    const signal = w.signal;
    if (signal) {
      if (w.onAbort) this.#aborts.remove(signal, w.onAbort);
      w.onAbort = () => {
        if (this.#waiters[at] !== w) return;
        this.#waiters[at] = null;
        this.#count--;
        w.reject(signal.reason);
      };
      this.#aborts.add(signal, w.onAbort);
    }
    this.#waiters.push(w);
  }

  #compact(): void {
    if (this.#head === this.#waiters.length) {
      this.#waiters.length = 0;
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#waiters.length) {
      // Waiters remember their index for abort: queue them again with fresh indices.
      const rest = this.#waiters.slice(this.#head).filter((w): w is Waiter => w !== null);
      this.#waiters.length = 0;
      this.#head = 0;
      for (const w of rest) this.#push(w);
    }
  }
}

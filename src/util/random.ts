/**
 * Unpredictable numbers from the operating system's CSPRNG, drawn in batches so that a caller
 * costs no system call: for the values a peer must not be able to guess (STags, RFC 5040 §8;
 * QP numbers, starting PSNs and CM comm IDs, which an off-path spoofer would otherwise predict).
 * `Math.random` is not used for them: its state can be recovered from a few of its outputs.
 */
import { getRandomValues } from 'node:crypto';

const pool = new Uint32Array(256);
let next = pool.length;

/** A random 32-bit unsigned integer. */
export function random32(): number {
  if (next === pool.length) {
    getRandomValues(pool);
    next = 0;
  }
  return pool[next++]!;
}

/** A random number in [0, 1) with 53 random bits (a drop-in for `Math.random`). */
export function randomUnit(): number {
  return ((random32() >>> 5) * 67_108_864 + (random32() >>> 6)) / 9_007_199_254_740_992;
}

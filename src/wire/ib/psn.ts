/**
 * Packet Sequence Numbers: 24-bit counters that wrap (IBTA Vol. 1 §9.7.1 "Packet sequence
 * numbers"). Two PSNs are compared by their distance modulo 2^24, taken as a signed 24-bit
 * number: a PSN up to 2^23 − 1 ahead is "later", up to 2^23 behind is "earlier"
 * (§9.7.5.1.1: the responder's valid and duplicate regions each span half the PSN space).
 * Linux rxe writes this `psn_compare(a, b) = (s32)((a − b) << 8)`.
 *
 * @packageDocumentation
 */
import { PSN_MASK, PSN_MODULUS } from './constants.js';

/** `(a + n) mod 2^24`; `n` may be negative. */
export function psnAdd(a: number, n: number): number {
  return (((a + n) % PSN_MODULUS) + PSN_MODULUS) & PSN_MASK;
}

/** The signed distance `a − b` in [−2^23, 2^23). */
export function psnDiff(a: number, b: number): number {
  return ((a - b) << 8) >> 8;
}

/** Negative, zero or positive as `a` is before, equal to or after `b`. */
export function psnCompare(a: number, b: number): number {
  return psnDiff(a, b);
}

/** True if `psn` lies in the half-open range `[first, first + count)` modulo 2^24. */
export function psnInRange(psn: number, first: number, count: number): boolean {
  const d = (psn - first) & PSN_MASK;
  return d < count;
}

/** True if `v` is a valid PSN (an integer in [0, 2^24)). */
export function isPsn(v: number): boolean {
  return Number.isInteger(v) && v >= 0 && v <= PSN_MASK;
}

/** Test helpers shared by the wire tests. */
import assert from 'node:assert/strict';
import { TerminateError } from '../../src/wire/errors.js';

/** Hex string (spaces and newlines ignored) → bytes. */
export function hex(s: string): Uint8Array {
  const clean = s.replace(/\s+/g, '');
  if (clean.length % 2) throw new Error('odd hex length');
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Bytes → lowercase hex without separators. */
export function toHex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * A small, fast, seeded PRNG (mulberry32): deterministic fuzzing that a failure message can
 * reproduce from its seed.
 */
export class Prng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  /** Uniform uint32. */
  u32(): number {
    this.#s = (this.#s + 0x6d2b79f5) >>> 0;
    let t = this.#s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor((this.u32() / 0x100000000) * n);
  }
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.u32() & 0xff;
    return out;
  }
}

/** Asserts that `fn` throws a TerminateError with exactly this layer/etype/ecode. */
export function assertTerminate(fn: () => unknown, layer: number, etype: number, ecode: number): TerminateError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof TerminateError, `expected a TerminateError, got ${String(caught)}`);
  assert.deepEqual({ layer: caught.layer, etype: caught.etype, ecode: caught.ecode }, { layer, etype, ecode }, caught.message);
  return caught;
}

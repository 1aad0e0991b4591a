/**
 * CRC32C (Castagnoli), the FPDU checksum of MPA.
 *
 * RFC 5044 §4.4: the MPA CRC is CRC32c as used by iSCSI (RFC 3385 / RFC 3720 §12.1):
 * polynomial 0x1EDC6F41 (reflected 0x82F63B78), initial value 0xFFFFFFFF, final XOR 0xFFFFFFFF,
 * bits processed LSB first. The check value of ASCII "123456789" is 0xE3069283.
 *
 * Three implementations, the first that is available is used: the package's own addon with the
 * CPU's CRC32C instruction (`native/crc32c.c`: SSE4.2 `crc32` in three streams, or ARMv8
 * CRC32; loaded by `src/util/native-udp.ts`), then `@node-rs/crc32`, then a pure-JS
 * slicing-by-8 one, which is always exported so tests can check one against the other.
 * `SOFTRDMA_CRC32C=native` starts the list at `@node-rs/crc32`, `=js` forces the JS one.
 *
 * @packageDocumentation
 */

import { createRequire } from 'node:module';
import { crc32cFromEnv } from '../util/env.js';
import { hardwareCrc32c } from '../util/native-udp.js';

/** Signature shared by both implementations. `initial` is a previous result, for chaining. */
export type Crc32cFn = (data: Uint8Array, initial?: number) => number;

/** Reflected CRC32C polynomial (RFC 3720 §12.1 / RFC 5044 §4.4). */
export const CRC32C_POLY_REFLECTED = 0x82f63b78;

// Slicing-by-8 tables: T[0] is the classic byte table; T[k][i] is the CRC of byte i followed by
// k zero bytes, which lets the loop fold 8 input bytes with 8 independent lookups.
const TABLES: Int32Array[] = (() => {
  const t: Int32Array[] = [];
  const t0 = new Int32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ CRC32C_POLY_REFLECTED : c >>> 1;
    t0[i] = c;
  }
  t.push(t0);
  for (let k = 1; k < 8; k++) {
    const prev = t[k - 1]!;
    const cur = new Int32Array(256);
    for (let i = 0; i < 256; i++) cur[i] = (prev[i]! >>> 8) ^ t0[prev[i]! & 0xff]!;
    t.push(cur);
  }
  return t;
})();
const T0 = TABLES[0]!;
const T1 = TABLES[1]!;
const T2 = TABLES[2]!;
const T3 = TABLES[3]!;
const T4 = TABLES[4]!;
const T5 = TABLES[5]!;
const T6 = TABLES[6]!;
const T7 = TABLES[7]!;

/**
 * Pure-JS CRC32C, slicing-by-8. `crc32cJs(b, crc32cJs(a)) === crc32cJs(a ‖ b)`.
 * @param initial the CRC of the preceding data (0 for none).
 */
export function crc32cJs(data: Uint8Array, initial = 0): number {
  let crc = ~initial;
  let i = 0;
  const n = data.length;
  const end8 = n - (n & 7);
  while (i < end8) {
    crc ^= data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    crc =
      T7[crc & 0xff]! ^
      T6[(crc >>> 8) & 0xff]! ^
      T5[(crc >>> 16) & 0xff]! ^
      T4[crc >>> 24]! ^
      T3[data[i + 4]!]! ^
      T2[data[i + 5]!]! ^
      T1[data[i + 6]!]! ^
      T0[data[i + 7]!]!;
    i += 8;
  }
  while (i < n) crc = (crc >>> 8) ^ T0[(crc ^ data[i++]!) & 0xff]!;
  return ~crc >>> 0;
}

function loadNodeRs(): Crc32cFn | undefined {
  try {
    const require = createRequire(import.meta.url);
    const mod = require('@node-rs/crc32') as { crc32c?: (b: Uint8Array, init?: number) => number };
    const fn = mod.crc32c;
    if (typeof fn !== 'function' || !selfTest(fn)) return undefined;
    return (data, initial = 0) => fn(data, initial);
  } catch {
    return undefined;
  }
}

// A broken or mismatched binary must not silently corrupt every CRC on the wire.
function selfTest(fn: (b: Uint8Array, init: number) => number): boolean {
  return fn(new TextEncoder().encode('123456789'), 0) === 0xe3069283 && fn(new Uint8Array(32), 0) === 0x8a9136aa;
}

function loadHardware(): { fn?: Crc32cFn; text: string } {
  const h = hardwareCrc32c();
  if (!h.fn) return { text: h.why };
  const fn = h.fn;
  try {
    if (!selfTest(fn)) return { text: 'the addon failed its self-test' };
  } catch (e) {
    return { text: `the addon failed its self-test: ${(e as Error).message}` };
  }
  return { fn: (data, initial = 0) => fn(data, initial), text: h.hw };
}

const choice = crc32cFromEnv();
const hw = choice === 'hw' ? loadHardware() : { text: `not chosen (SOFTRDMA_CRC32C=${choice})` };
const nodeRs = choice === 'js' ? undefined : loadNodeRs();

/**
 * The addon's hardware CRC32C (SSE4.2 `crc32` or the ARMv8 CRC32 extension), or `undefined`
 * when it is not built, the CPU lacks the instruction, or `SOFTRDMA_CRC32C` is not `hw`.
 */
export const crc32cHardware: Crc32cFn | undefined = hw.fn;

/** The native `@node-rs/crc32` implementation, or `undefined` when it did not load. */
export const crc32cNative: Crc32cFn | undefined = nodeRs;

/** Which implementation {@link crc32c} uses: hardware (addon), native (`@node-rs/crc32`) or js. */
export const crc32cImpl: 'hw' | 'native' | 'js' = hw.fn ? 'hw' : nodeRs ? 'native' : 'js';

/** {@link crc32cImpl} in words, with why a preferred one is not used (for `softrdma devinfo -v`). */
export const crc32cImplText: string = hw.fn
  ? `hw (${hw.text}, package addon)`
  : `${nodeRs ? 'native (@node-rs/crc32)' : 'js (slicing-by-8)'}; hw: ${hw.text}`;

/**
 * CRC32C of `data`, continuing from `initial` (the CRC of the data before it, default 0).
 * Incremental: `crc32c(b, crc32c(a)) === crc32c(a ‖ b)`.
 */
export const crc32c: Crc32cFn = hw.fn ?? nodeRs ?? crc32cJs;

/** CRC32C over several buffers as if they were one. */
export function crc32cParts(parts: readonly Uint8Array[], initial = 0): number {
  let crc = initial;
  for (const p of parts) crc = crc32c(p, crc);
  return crc;
}

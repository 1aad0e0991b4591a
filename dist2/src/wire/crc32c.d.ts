/** Signature shared by both implementations. `initial` is a previous result, for chaining. */
export type Crc32cFn = (data: Uint8Array, initial?: number) => number;
/** Reflected CRC32C polynomial (RFC 3720 §12.1 / RFC 5044 §4.4). */
export declare const CRC32C_POLY_REFLECTED = 2197175160;
/**
 * Pure-JS CRC32C, slicing-by-8. `crc32cJs(b, crc32cJs(a)) === crc32cJs(a ‖ b)`.
 * @param initial the CRC of the preceding data (0 for none).
 */
export declare function crc32cJs(data: Uint8Array, initial?: number): number;
/** The native `@node-rs/crc32` implementation, or `undefined` when it did not load. */
export declare const crc32cNative: Crc32cFn | undefined;
/** Which implementation {@link crc32c} uses. */
export declare const crc32cImpl: 'native' | 'js';
/**
 * CRC32C of `data`, continuing from `initial` (the CRC of the data before it, default 0).
 * Incremental: `crc32c(b, crc32c(a)) === crc32c(a ‖ b)`.
 */
export declare const crc32c: Crc32cFn;
/** CRC32C over several buffers as if they were one. */
export declare function crc32cParts(parts: readonly Uint8Array[], initial?: number): number;

/**
 * A naive reference decoder for CM MAD bodies, written from the IBTA Vol. 1 chapter 12 field
 * tables (byte offset, bit offset from the most significant bit, width) and one generic
 * bit reader, sharing nothing with `src/wire/ib/cm.ts`. The codec is checked against it.
 */
/** Bits [bit, bit+width) of `buf` starting at octet `byte`, most significant first. */
export declare function bits(buf: Uint8Array, byte: number, bit: number, width: number): bigint;
/** A field: name, octet offset in the body, bit offset, width in bits ('bytes' for octet strings). */
type F = [string, number, number, number | 'bytes', number?];
/** The field tables, transcribed (Table 106 REQ … Table 120 SIDR_REP). */
export declare const TABLES: Record<string, F[]>;
/** Reads every table field of a body into a flat record (dotted names for the paths). */
export declare function referenceFields(kind: string, body: Uint8Array): Record<string, unknown>;
/** Flattens a decoded message the same way (paths as `primary.x`), without `kind`. */
export declare function flatten(m: object): Record<string, unknown>;
export {};

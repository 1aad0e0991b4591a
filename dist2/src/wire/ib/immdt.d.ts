/** Octets of the ImmDt header. */
export declare const IMMDT_LEN = 4;
/** Octets of the IETH. */
export declare const IETH_LEN = 4;
/** Encodes the immediate data `imm` (uint32, big-endian). */
export declare function encodeImmDt(imm: number, out?: Uint8Array, offset?: number): Uint8Array;
export declare function decodeImmDt(buf: Uint8Array, offset?: number): number;
/** Encodes the R_Key to invalidate. */
export declare function encodeIeth(rkey: number, out?: Uint8Array, offset?: number): Uint8Array;
export declare function decodeIeth(buf: Uint8Array, offset?: number): number;
export declare function stringifyImmDt(imm: number): string;
export declare function stringifyIeth(rkey: number): string;

import { TerminateError } from './errors.js';
/** One complete FPDU as delivered to `onFpdu`. Reused: valid only during the callback. */
export interface Fpdu {
    /** ULPDU_LENGTH: octets of ULPDU. */
    length: number;
    /** The ULPDU as zero-copy views into the pushed chunks, in order (empty for length 0). */
    segments: Uint8Array[];
    /** Stream offset of the FPDU's first octet (its leading Marker, if it has one). */
    streamOffset: number;
}
/** Options of {@link FpduDeframer}. */
export interface DeframerOptions {
    /** Largest acceptable ULPDU_LENGTH (the negotiated MULPDU, at most 65535). */
    maxUlpdu: number;
    /** CRCs negotiated: check them (when off, the CRC field is skipped unchecked). */
    crc: boolean;
    /** The peer inserts Markers in this direction. */
    markers: boolean;
    /**
     * Stream offset of the first octet pushed, in the Marker grid's coordinates: 0 for the first
     * octet after the peer's MPA Request/Reply frame (RFC 5044 §4.3). Multiple of 4. Default 0.
     */
    streamOffset?: number;
    /** Called once per complete FPDU. */
    onFpdu: (fpdu: Fpdu) => void;
    /** Called once on the first error; without it `push` throws the error. */
    onError?: (err: TerminateError) => void;
}
/** Streaming FPDU deframer; see the module documentation. */
export declare class FpduDeframer {
    #private;
    constructor(opts: DeframerOptions);
    /** Stream offset of the next octet expected. */
    get streamOffset(): number;
    /** The error that stopped the deframer, if any. */
    get error(): TerminateError | undefined;
    /** True between FPDUs (no partial FPDU is held). */
    get idle(): boolean;
    /** Feeds the next piece of the TCP stream. */
    push(chunk: Uint8Array): void;
}
/**
 * Returns a buffer whose first `n` octets are the ULPDU's first `n` octets (capped at its
 * length), for parsing headers that may straddle chunk boundaries: the first segment itself
 * when it already holds them (no copy), else `scratch` after copying into it.
 */
export declare function copyUlpduPrefix(f: Fpdu, n: number, scratch: Uint8Array): Uint8Array;
/**
 * Copies ULPDU octets `[srcOffset, srcOffset+length)` into `dst` at `dstOffset` (e.g. tagged
 * payload straight into a registered region). Returns the number of octets copied.
 */
export declare function copyUlpdu(f: Fpdu, dst: Uint8Array, dstOffset?: number, srcOffset?: number, length?: number): number;
/** e.g. `FPDU len=1518 at=4096 segs=2`, for logs. */
export declare function stringifyFpdu(f: Fpdu): string;
/** The whole ULPDU as one new buffer (tests and tools; the data path uses the segments). */
export declare function concatUlpdu(f: Fpdu): Uint8Array;

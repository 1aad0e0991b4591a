/** Octets of the RETH. */
export declare const RETH_LEN = 16;
/** RETH (§9.3.3). */
export interface Reth {
    /** Virtual address at the responder. */
    va: bigint;
    /** The responder's R_Key. */
    rkey: number;
    /** DMA length: octets of the whole message (read or write). */
    dmaLen: number;
}
export declare function encodeReth(h: Reth, out?: Uint8Array, offset?: number): Uint8Array;
export declare function decodeReth(buf: Uint8Array, offset?: number): Reth;
export declare function stringifyReth(h: Reth): string;

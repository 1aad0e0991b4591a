/** Octets of the AtomicETH. */
export declare const ATOMIC_ETH_LEN = 28;
/** Octets of the AtomicAckETH. */
export declare const ATOMIC_ACK_ETH_LEN = 8;
/** AtomicETH (§9.3.4). */
export interface AtomicEth {
    va: bigint;
    rkey: number;
    /** Swap Data (Compare & Swap) or Add Data (Fetch & Add). */
    swapAdd: bigint;
    /** Compare Data (Compare & Swap). */
    compare: bigint;
}
/** AtomicAckETH (§9.3.6). */
export interface AtomicAckEth {
    /** The value at the target before the operation. */
    origData: bigint;
}
export declare function encodeAtomicEth(h: AtomicEth, out?: Uint8Array, offset?: number): Uint8Array;
export declare function decodeAtomicEth(buf: Uint8Array, offset?: number): AtomicEth;
export declare function stringifyAtomicEth(h: AtomicEth): string;
export declare function encodeAtomicAckEth(h: AtomicAckEth, out?: Uint8Array, offset?: number): Uint8Array;
export declare function decodeAtomicAckEth(buf: Uint8Array, offset?: number): AtomicAckEth;
export declare function stringifyAtomicAckEth(h: AtomicAckEth): string;

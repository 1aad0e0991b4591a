/** Octets of the DETH. */
export declare const DETH_LEN = 8;
/** The Q_Key of QP1 (GSI, §13.5: 0x80010000). */
export declare const QKEY_GSI = 2147549184;
/** The high-order bit that makes a Q_Key controlled (§10.2.5). */
export declare const QKEY_CONTROLLED = 2147483648;
/** DETH (§9.3.2). */
export interface Deth {
    qkey: number;
    /** The reserved octet, as received (sent as zero). */
    resv8: number;
    srcQp: number;
}
export declare function encodeDeth(h: Deth, out?: Uint8Array, offset?: number): Uint8Array;
export declare function decodeDeth(buf: Uint8Array, offset?: number): Deth;
export declare function stringifyDeth(h: Deth): string;

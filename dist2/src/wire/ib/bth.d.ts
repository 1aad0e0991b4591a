/** Octets of the BTH. */
export declare const BTH_LEN = 12;
/** Transport header version this codec implements (§9.2: TVer = 0). */
export declare const BTH_TVER = 0;
/** The default partition key, full membership (§10.9.1.2); Linux rxe sends it. */
export declare const PKEY_DEFAULT = 65535;
/** The default partition key, limited membership. */
export declare const PKEY_DEFAULT_LIMITED = 32767;
/** DestQP of the General Services Interface QP (§3.5.1: QP1). */
export declare const QPN_GSI = 1;
/** DestQP of multicast packets (§10.5.2.2: 0xFFFFFF). */
export declare const QPN_MULTICAST = 16777215;
/** The Base Transport Header as a plain object (§9.2). */
export interface Bth {
    /** OpCode (8 bits), see `opcodes.ts`. */
    opcode: number;
    /** SE: Solicited Event. */
    se: boolean;
    /** M: MigReq (automatic path migration; always false here). */
    migReq: boolean;
    /** PadCnt: pad octets (0–3) after the payload. */
    padCnt: number;
    /** TVer: transport header version, 0. */
    tver: number;
    /** P_Key: partition key. */
    pkey: number;
    /** FECN (RoCEv2: congestion experienced forward). */
    fecn: boolean;
    /** BECN (RoCEv2: congestion notification backward). */
    becn: boolean;
    /** The 6 reserved bits of octet 4, as received (sent as zero). */
    resv6: number;
    /** DestQP (24 bits). */
    destQp: number;
    /** A: AckReq, the requester asks for an acknowledgement (§9.7.2). */
    ackReq: boolean;
    /** The 7 reserved bits of octet 8, as received (sent as zero). */
    resv7: number;
    /** PSN (24 bits). */
    psn: number;
}
/** A BTH with every field at its usual value; `opcode`, `destQp` and `psn` to be filled in. */
export declare function newBth(opcode: number, destQp: number, psn: number): Bth;
/** Encodes `h` at `out[offset]` (default: a new 12-octet buffer). RangeError for bad values. */
export declare function encodeBth(h: Bth, out?: Uint8Array, offset?: number): Uint8Array;
/**
 * Decodes the BTH at `buf[offset]`. Drops (IbWireError) a buffer shorter than 12 octets and a
 * TVer other than 0 (§9.6.1.1); the opcode is checked against the opcode table by the packet
 * decoder, the P_Key and DestQP by the receiving QP.
 */
export declare function decodeBth(buf: Uint8Array, offset?: number): Bth;
/** e.g. `BTH op=0x04 QP=0x000011 PSN=5 A SE pad=2 P_Key=0xffff`. */
export declare function stringifyBth(h: Bth): string;

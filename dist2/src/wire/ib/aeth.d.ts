/** Octets of the AETH. */
export declare const AETH_LEN = 4;
/** AETH syndrome types (bits 6-5). */
export declare enum AethType {
    Ack = 0,
    RnrNak = 1,
    Reserved = 2,
    Nak = 3
}
/** NAK codes (§9.7.5.2.x; wire syndromes 0x60–0x64). */
export declare enum NakCode {
    /** PSN Sequence Error (syndrome 0x60): the requester retransmits from the NAK's PSN. */
    PsnSequenceError = 0,
    /** Invalid Request (0x61): unsupported or malformed request; the QP goes to Error. */
    InvalidRequest = 1,
    /** Remote Access Error (0x62): R_Key, range or rights. */
    RemoteAccessError = 2,
    /** Remote Operational Error (0x63): the responder could not complete the request. */
    RemoteOperationalError = 3,
    /** Invalid RD Request (0x64): Reliable Datagram only. */
    InvalidRdRequest = 4
}
/** The credit count of an ACK that advertises no credits (§9.7.7.2: "invalid credit count"). */
export declare const AETH_CREDITS_INVALID = 31;
/** AETH (§9.3.5). */
export interface Aeth {
    /** The Syndrome octet as on the wire. */
    syndrome: number;
    /** MSN (24 bits). */
    msn: number;
}
/** The syndrome of an ACK with `credits` (default: no credits advertised, 0x1F as rxe sends). */
export declare function ackSyndrome(credits?: number): number;
/** The syndrome of an RNR NAK with timer code `timer` (0–31). */
export declare function rnrSyndrome(timer: number): number;
/** The syndrome of a NAK with `code`. */
export declare function nakSyndrome(code: NakCode): number;
/** The type of a syndrome (bits 6-5). */
export declare function aethType(syndrome: number): AethType;
/** The 5-bit value of a syndrome (credits, timer or NAK code). */
export declare function aethValue(syndrome: number): number;
/**
 * The RNR NAK timer field (5 bits) → microseconds: the "RNR NAK timer field encodings" table of
 * §9.7.5.2.8 (0 is the longest, 655.36 ms; 1 is 0.01 ms … 31 is 491.52 ms).
 */
export declare const RNR_TIMER_USEC: readonly number[];
export declare function encodeAeth(h: Aeth, out?: Uint8Array, offset?: number): Uint8Array;
/** Decodes an AETH; a reserved syndrome drops the packet (§9.3.5). */
export declare function decodeAeth(buf: Uint8Array, offset?: number): Aeth;
/** e.g. `ACK credits=31`, `RNR NAK timer=12 (640 µs)`, `NAK remote access error`. */
export declare function describeSyndrome(syndrome: number): string;
export declare function stringifyAeth(h: Aeth): string;

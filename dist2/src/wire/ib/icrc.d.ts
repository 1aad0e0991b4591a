/** Octets of the ICRC. */
export declare const ICRC_LEN = 4;
/** IPv4 flags/fragment field with only DF set (§A17: RoCEv2 packets are never fragmented). */
export declare const IPV4_FLAGS_DF = 16384;
/** CRC-32 of `data`, continuing from `initial` (a previous result): `f(b, f(a)) === f(a‖b)`. */
export type Crc32Fn = (data: Uint8Array, initial?: number) => number;
/** Pure-JS CRC-32/IEEE (byte-wise table): the fallback when the native addon does not load. */
export declare function crc32Js(data: Uint8Array, initial?: number): number;
/** CRC-32/IEEE: the native `@node-rs/crc32` one when it loads, else {@link crc32Js}. */
export declare const crc32: Crc32Fn;
/** The IP and UDP header fields the ICRC covers (everything else is masked or implied). */
export interface RoceIpHeader {
    /** 4 octets (IPv4) or 16 octets (IPv6). */
    src: Uint8Array;
    dst: Uint8Array;
    srcPort: number;
    dstPort: number;
    /** IPv4 Identification (default 0, what the RoCEv2 transport sends). */
    ipId?: number;
    /** IPv4 flags and fragment offset (default DF only). */
    flagsFrag?: number;
}
/**
 * The ICRC of the RoCEv2 packet `pkt` (its UDP payload: BTH … pad, then the 4 ICRC octets,
 * which are not covered) sent with the IP/UDP header `ip`.
 */
export declare function computeIcrc(ip: RoceIpHeader, pkt: Uint8Array): number;
/** The ICRC as found in the last 4 octets of `pkt` (little-endian). */
export declare function readIcrc(pkt: Uint8Array): number;
/** Computes the ICRC of `pkt` and writes it into its last 4 octets. */
export declare function writeIcrc(ip: RoceIpHeader, pkt: Uint8Array): void;
/** True if the ICRC in `pkt` matches `ip` (IPv4: with `ip.ipId`/`ip.flagsFrag` as given). */
export declare function checkIcrc(ip: RoceIpHeader, pkt: Uint8Array): boolean;
/**
 * For an IPv4 RoCEv2 packet whose IP header the receiver cannot see (a UDP socket shows only
 * addresses and ports): the IPv4 Identification that makes its ICRC valid, trying the flags
 * "DF" then "none", or null when no ID does — the packet is corrupt. Exactly one ID can match,
 * so a corrupted packet passes with probability 2^-16 per flags value tried (the ICRC keeps
 * 16 of its 32 bits of protection; the Ethernet FCS and the UDP checksum, when sent, cover the
 * rest of the path). `ip.ipId` and `ip.flagsFrag` are ignored.
 */
export declare function solveIpv4Id(ip: RoceIpHeader, pkt: Uint8Array): {
    ipId: number;
    flagsFrag: number;
} | null;

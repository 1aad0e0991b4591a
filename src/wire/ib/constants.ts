/**
 * The numbers of the InfiniBand wire family that more than one layer needs, each defined once:
 * the GRH in front of a UD receive, the RoCEv2 UDP port, and the widths of the 24-bit fields
 * (PSN, QPN, MSN). Pure data.
 *
 * @packageDocumentation
 */

/**
 * Octets of the Global Route Header (IBTA Vol. 1 §8.3), which a UD receive buffer starts with
 * whether or not the datagram carried one (§11.4.2.1); RoCEv2 puts the IPv4 header in its last
 * 20 octets (Annex A17.4.5.1) or the IPv6 header in all 40 (Annex A17.4.5.2).
 */
export const GRH_LEN = 40;

/** The UDP destination port of RoCEv2 (IBTA Vol. 1 Annex A17.2.4). */
export const ROCEV2_PORT = 4791;

/** The PSN space: 2^24 (IBTA Vol. 1 §9.7.1). */
export const PSN_MODULUS = 0x1000000;
/** Mask of a 24-bit Packet Sequence Number (IBTA Vol. 1 §9.7.1). */
export const PSN_MASK = 0xffffff;
/** Mask of a 24-bit QP number (IBTA Vol. 1 §9.2: DestQP; §9.3.3: the DETH's SrcQP). */
export const QPN_MASK = 0xffffff;
/** Mask of the AETH's 24-bit Message Sequence Number (IBTA Vol. 1 §9.3.5, §9.7.5.1.4). */
export const MSN_MASK = 0xffffff;

/**
 * The 40 octets a UD receive buffer starts with (IBTA Vol. 1 §11.4.2.1), as a RoCEv2 receiver
 * writes them: the IP header the datagram came in, which a UDP socket does not show and which is
 * rebuilt here. Over IPv4 (Annex A17.4.5.1) 20 zero octets, then the IPv4 header; over IPv6
 * (Annex A17.4.5.2) the IPv6 header in all 40 (the GRH's own layout, IBTA Vol. 1 §8.3, with the
 * next header UDP). Pure: the one builder for the RoCEv2 transport and the in-process loopback.
 *
 * @packageDocumentation
 */
import { GRH_LEN } from './constants.js';

/** What a UD receive's GRH is rebuilt from. */
export interface GrhFields {
  /** The source and destination: 4-octet IPv4 addresses (the IPv4 form), or 16-octet GIDs / IPv6 addresses. */
  src: Uint8Array;
  dst: Uint8Array;
  /** IPv4 TOS / IPv6 traffic class. */
  trafficClass: number;
  /** IPv6 only: the 20-bit flow label. */
  flowLabel: number;
  /** IPv4 TTL / IPv6 hop limit. */
  hopLimit: number;
  /** IPv4 only: the header's Identification. */
  ipId: number;
  /** The octets after the IP header: the UDP header, BTH, DETH, payload and ICRC. */
  udpLength: number;
}

/** IPv4 header octets from the start of the GRH (Annex A17.4.5.1: the last 20 of 40). */
const IPV4_AT = 20;
const IPV4_HDR_LEN = 20;
const IP_PROTO_UDP = 17;

/** The GRH of a received UD datagram: the IPv4 form when `src` is an IPv4 address, else the IPv6 form. */
export function udGrh(f: GrhFields): Uint8Array {
  const g = new Uint8Array(GRH_LEN);
  const v = new DataView(g.buffer);
  if (f.src.length === 4) {
    const ip = IPV4_AT;
    g[ip] = 0x45;
    g[ip + 1] = f.trafficClass;
    v.setUint16(ip + 2, IPV4_HDR_LEN + f.udpLength);
    v.setUint16(ip + 4, f.ipId);
    v.setUint16(ip + 6, 0x4000); // DF, as RoCEv2 senders set it
    g[ip + 8] = f.hopLimit;
    g[ip + 9] = IP_PROTO_UDP;
    g.set(f.src, ip + 12);
    g.set(f.dst, ip + 16);
    let sum = 0;
    for (let i = 0; i < IPV4_HDR_LEN; i += 2) sum += v.getUint16(ip + i);
    while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
    v.setUint16(ip + 10, ~sum & 0xffff);
    return g;
  }
  v.setUint32(0, ((6 << 28) | ((f.trafficClass & 0xff) << 20) | (f.flowLabel & 0xf_ffff)) >>> 0);
  v.setUint16(4, f.udpLength);
  g[6] = IP_PROTO_UDP;
  g[7] = f.hopLimit;
  g.set(f.src, 8);
  g.set(f.dst, 24);
  return g;
}

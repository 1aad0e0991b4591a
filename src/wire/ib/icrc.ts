/**
 * The Invariant CRC of RoCEv2 packets (IBTA Vol. 1 §7.8.1 "Invariant CRC"; RoCEv2: Annex A17
 * §A17.4.x, "ICRC"), the end-to-end check of the parts of a packet no router may change.
 *
 * It is CRC-32 as Ethernet and zlib compute it (polynomial 0x04C11DB7, reflected, init and
 * final XOR all ones; §7.8.1 uses the Ethernet CRC), over a pseudo-packet:
 *
 * 1. 8 octets of all ones in place of the LRH (which RoCEv2 does not have);
 * 2. the IP header with its variant fields set to all ones — IPv4: Type of Service, Time to
 *    Live, Header Checksum; IPv6: Traffic Class, Flow Label, Hop Limit;
 * 3. the UDP header with the checksum set to all ones;
 * 4. the BTH with octet 4 (FECN, BECN, Resv6) set to all ones;
 * 5. the rest of the packet: extension headers, payload and pad.
 *
 * The 32-bit result goes on the wire after the pad in little-endian octet order (the CRC's
 * natural bit order, as Ethernet's FCS; Linux rxe stores `~crc` as a host u32 on x86). Checked
 * against a ConnectX-4 Lx capture: {@link computeIcrc} of it gives the bytes `82 fd 00 2a`.
 *
 * The IPv4 Identification, flags and fragment offset are *not* masked, so a sender must know
 * the ID its kernel emits (the RoCEv2 transport makes it 0; see `src/roce/net.ts`) and a
 * receiver that cannot see the IP header must recover it: {@link solveIpv4Id} does that with
 * the linearity of the CRC.
 *
 * @packageDocumentation
 */
import { createRequire } from 'node:module';
import { BTH_LEN } from './bth.js';
import { checkUint } from './errors.js';

/** Octets of the ICRC. */
export const ICRC_LEN = 4;
/** IPv4 header without options, and the UDP header. */
const IPV4_LEN = 20;
const IPV6_LEN = 40;
const UDP_LEN = 8;
/** IPv4 flags/fragment field with only DF set (§A17: RoCEv2 packets are never fragmented). */
export const IPV4_FLAGS_DF = 0x4000;

/** CRC-32 of `data`, continuing from `initial` (a previous result): `f(b, f(a)) === f(a‖b)`. */
export type Crc32Fn = (data: Uint8Array, initial?: number) => number;

const TABLE = (() => {
  const t = new Int32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    t[i] = c;
  }
  return t;
})();

/** Pure-JS CRC-32/IEEE (byte-wise table): the fallback when the native addon does not load. */
export function crc32Js(data: Uint8Array, initial = 0): number {
  let crc = ~initial;
  for (let i = 0; i < data.length; i++) crc = (crc >>> 8) ^ TABLE[(crc ^ data[i]!) & 0xff]!;
  return ~crc >>> 0;
}

function loadNative(): Crc32Fn | undefined {
  try {
    const require = createRequire(import.meta.url);
    const mod = require('@node-rs/crc32') as { crc32?: (b: Uint8Array, init?: number) => number };
    const fn = mod.crc32;
    if (typeof fn !== 'function') return undefined;
    // The check value of CRC-32/ISO-HDLC: a mismatched binary must not corrupt every ICRC.
    if (fn(new TextEncoder().encode('123456789'), 0) !== 0xcbf43926) return undefined;
    return (data, initial = 0) => fn(data, initial);
  } catch {
    return undefined;
  }
}

/** CRC-32/IEEE: the native `@node-rs/crc32` one when it loads, else {@link crc32Js}. */
export const crc32: Crc32Fn = loadNative() ?? crc32Js;

/** CRC of the 8 all-ones octets that stand for the LRH (its register state is 0xDEBB20E3). */
const LRH_CRC = crc32(new Uint8Array(8).fill(0xff));

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
 * Writes the masked IP and UDP headers (and returns the octets written) for a RoCEv2 packet
 * whose UDP payload (BTH … ICRC) is `udpPayload` octets.
 */
function maskedIpUdp(ip: RoceIpHeader, udpPayload: number, out: Uint8Array): number {
  const udpLen = UDP_LEN + udpPayload;
  let o: number;
  if (ip.src.length === 4 && ip.dst.length === 4) {
    const id = ip.ipId ?? 0;
    const ff = ip.flagsFrag ?? IPV4_FLAGS_DF;
    const total = IPV4_LEN + udpLen;
    out[0] = 0x45;
    out[1] = 0xff; // TOS
    out[2] = total >>> 8;
    out[3] = total & 0xff;
    out[4] = id >>> 8;
    out[5] = id & 0xff;
    out[6] = ff >>> 8;
    out[7] = ff & 0xff;
    out[8] = 0xff; // TTL
    out[9] = 17;
    out[10] = 0xff; // header checksum
    out[11] = 0xff;
    out.set(ip.src, 12);
    out.set(ip.dst, 16);
    o = IPV4_LEN;
  } else if (ip.src.length === 16 && ip.dst.length === 16) {
    out[0] = 0x6f; // version 6, traffic class and flow label all ones
    out[1] = 0xff;
    out[2] = 0xff;
    out[3] = 0xff;
    out[4] = udpLen >>> 8;
    out[5] = udpLen & 0xff;
    out[6] = 17;
    out[7] = 0xff; // hop limit
    out.set(ip.src, 8);
    out.set(ip.dst, 24);
    o = IPV6_LEN;
  } else {
    throw new RangeError('ICRC: src and dst must both be IPv4 (4 octets) or IPv6 (16 octets)');
  }
  out[o] = ip.srcPort >>> 8;
  out[o + 1] = ip.srcPort & 0xff;
  out[o + 2] = ip.dstPort >>> 8;
  out[o + 3] = ip.dstPort & 0xff;
  out[o + 4] = udpLen >>> 8;
  out[o + 5] = udpLen & 0xff;
  out[o + 6] = 0xff; // UDP checksum
  out[o + 7] = 0xff;
  return o + UDP_LEN;
}

const scratch = new Uint8Array(IPV6_LEN + UDP_LEN + BTH_LEN);

/**
 * The ICRC of the RoCEv2 packet `pkt` (its UDP payload: BTH … pad, then the 4 ICRC octets,
 * which are not covered) sent with the IP/UDP header `ip`.
 */
export function computeIcrc(ip: RoceIpHeader, pkt: Uint8Array): number {
  checkUint('UDP source port', ip.srcPort, 16);
  checkUint('UDP destination port', ip.dstPort, 16);
  if (ip.ipId !== undefined) checkUint('IPv4 Identification', ip.ipId, 16);
  if (ip.flagsFrag !== undefined) checkUint('IPv4 flags/fragment offset', ip.flagsFrag, 16);
  if (pkt.length < BTH_LEN + ICRC_LEN) throw new RangeError('ICRC: packet shorter than BTH + ICRC');
  const n = maskedIpUdp(ip, pkt.length, scratch);
  scratch.set(pkt.subarray(0, BTH_LEN), n);
  scratch[n + 4] = 0xff; // FECN, BECN, Resv6
  let crc = crc32(scratch.subarray(0, n + BTH_LEN), LRH_CRC);
  crc = crc32(pkt.subarray(BTH_LEN, pkt.length - ICRC_LEN), crc);
  return crc;
}

/** The ICRC as found in the last 4 octets of `pkt` (little-endian). */
export function readIcrc(pkt: Uint8Array): number {
  const e = pkt.length - ICRC_LEN;
  return (pkt[e]! | (pkt[e + 1]! << 8) | (pkt[e + 2]! << 16) | (pkt[e + 3]! << 24)) >>> 0;
}

/** Computes the ICRC of `pkt` and writes it into its last 4 octets. */
export function writeIcrc(ip: RoceIpHeader, pkt: Uint8Array): void {
  const c = computeIcrc(ip, pkt);
  const e = pkt.length - ICRC_LEN;
  pkt[e] = c & 0xff;
  pkt[e + 1] = (c >>> 8) & 0xff;
  pkt[e + 2] = (c >>> 16) & 0xff;
  pkt[e + 3] = c >>> 24;
}

/** True if the ICRC in `pkt` matches `ip` (IPv4: with `ip.ipId`/`ip.flagsFrag` as given). */
export function checkIcrc(ip: RoceIpHeader, pkt: Uint8Array): boolean {
  return computeIcrc(ip, pkt) === readIcrc(pkt);
}

// --- Receive side: recovering the IPv4 Identification ------------------------------------

/** Reduced basis of the 16 ID-bit contributions for one packet length. */
interface IdBasis {
  /** Rows in descending pivot order: [vector, combination of ID bits]. */
  vec: Uint32Array;
  combo: Uint16Array;
  pivot: Uint32Array;
}

const bases = new Map<number, IdBasis>();
/** The flags/fragment values tried on receive: DF (what RoCEv2 senders set), then none. */
const FLAGS_TRIED = [IPV4_FLAGS_DF, 0] as const;
const BASES_MAX = 256;

function highBit(v: number): number {
  return 31 - Math.clz32(v);
}

/**
 * The CRC is affine in its input: for messages of equal length,
 * `crc(m ⊕ d) = crc(m) ⊕ crc(d) ⊕ crc(0…0)`. Flipping bit `i` of the IPv4 ID therefore XORs
 * a fixed vector `D_i` (which depends only on how many octets follow the ID) into the ICRC.
 * The 16 `D_i` are linearly independent (a nonzero polynomial of degree < 32 is never a
 * multiple of the CRC polynomial), so an ICRC difference has at most one ID explaining it.
 */
function basisFor(tail: number): IdBasis {
  let b = bases.get(tail);
  if (b) return b;
  const zeros = new Uint8Array(tail);
  const z = crc32(zeros);
  const rows: { v: number; c: number }[] = [];
  for (let bit = 0; bit < 16; bit++) {
    const m = new Uint8Array(tail);
    // ID octet 0 holds bits 15..8, octet 1 bits 7..0.
    if (bit >= 8) m[0] = 1 << (bit - 8);
    else m[1] = 1 << bit;
    let v = (crc32(m) ^ z) >>> 0;
    let c = 1 << bit;
    for (;;) {
      if (v === 0) break;
      const r = rows.find((x) => highBit(x.v) === highBit(v));
      if (!r) {
        rows.push({ v, c });
        break;
      }
      v = (v ^ r.v) >>> 0;
      c ^= r.c;
    }
  }
  rows.sort((a, b2) => highBit(b2.v) - highBit(a.v));
  b = {
    vec: Uint32Array.from(rows, (r) => r.v),
    combo: Uint16Array.from(rows, (r) => r.c),
    pivot: Uint32Array.from(rows, (r) => highBit(r.v)),
  };
  if (bases.size >= BASES_MAX) bases.clear();
  bases.set(tail, b);
  return b;
}

const idVectors = new Map<number, Uint32Array>();

/**
 * What sending `pkt` with IPv4 Identification `ipId` instead of 0 XORs into its ICRC (the
 * `D_i` of {@link basisFor} for the bits set in `ipId`). A sender that knows the ID the kernel
 * will give a datagram (UDP segmentation offload numbers the segments of one send 0, 1, 2, …)
 * turns the ICRC computed for ID 0 into that datagram's with one XOR: {@link adjustIcrcIpId}.
 */
export function icrcIpIdDelta(pktLength: number, ipId: number): number {
  checkUint('IPv4 Identification', ipId, 16);
  const tail = 2 + (IPV4_LEN - 6) + UDP_LEN + pktLength - ICRC_LEN;
  let v = idVectors.get(tail);
  if (!v) {
    v = new Uint32Array(16);
    const z = crc32(new Uint8Array(tail));
    const m = new Uint8Array(tail);
    for (let bit = 0; bit < 16; bit++) {
      m.fill(0, 0, 2);
      if (bit >= 8) m[0] = 1 << (bit - 8);
      else m[1] = 1 << bit;
      v[bit] = (crc32(m) ^ z) >>> 0;
    }
    if (idVectors.size >= BASES_MAX) idVectors.clear();
    idVectors.set(tail, v);
  }
  let d = 0;
  for (let bit = 0; ipId >>> bit; bit++) if ((ipId >>> bit) & 1) d ^= v[bit]!;
  return d >>> 0;
}

/** XORs `delta` (from {@link icrcIpIdDelta}) into the ICRC octets of `pkt`: applying it twice restores them. */
export function adjustIcrcIpId(pkt: Uint8Array, delta: number): void {
  const e = pkt.length - ICRC_LEN;
  pkt[e]! ^= delta & 0xff;
  pkt[e + 1]! ^= (delta >>> 8) & 0xff;
  pkt[e + 2]! ^= (delta >>> 16) & 0xff;
  pkt[e + 3]! ^= delta >>> 24;
}

function solve(b: IdBasis, delta: number): number | null {
  let t = delta >>> 0;
  let x = 0;
  for (let i = 0; i < b.vec.length; i++) {
    if ((t >>> b.pivot[i]!) & 1) {
      t = (t ^ b.vec[i]!) >>> 0;
      x ^= b.combo[i]!;
    }
  }
  return t === 0 ? x : null;
}

/**
 * For an IPv4 RoCEv2 packet whose IP header the receiver cannot see (a UDP socket shows only
 * addresses and ports): the IPv4 Identification that makes its ICRC valid, trying the flags
 * "DF" then "none", or null when no ID does — the packet is corrupt. Exactly one ID can match,
 * so a corrupted packet passes with probability 2^-16 per flags value tried (the ICRC keeps
 * 16 of its 32 bits of protection; the Ethernet FCS and the UDP checksum, when sent, cover the
 * rest of the path). `ip.ipId` and `ip.flagsFrag` are ignored.
 *
 * `accept`, when given, is asked about each solution (the receiver's knowledge of which IDs
 * its peer sends, `src/roce/ipid-window.ts`): only a solution it accepts is returned, which
 * takes the residual false-accept rate from 2^-16 per flags value to about 2^-32 times the
 * number of IDs it would accept.
 *
 * `icrcDf`, when given, is {@link computeIcrc} of `pkt` for ID 0 and DF, already known (the
 * native datagram layer computes it as it receives): the common case then makes no pass over
 * the packet.
 */
export function solveIpv4Id(
  ip: RoceIpHeader,
  pkt: Uint8Array,
  accept?: (ipId: number, flagsFrag: number) => boolean,
  icrcDf?: number,
): { ipId: number; flagsFrag: number } | null {
  if (ip.src.length !== 4 || ip.dst.length !== 4) throw new RangeError('solveIpv4Id: IPv4 addresses only');
  // Too short to be a packet: no ID makes it valid (found by `npm run fuzz`: it threw).
  if (pkt.length < BTH_LEN + ICRC_LEN) return null;
  const received = readIcrc(pkt);
  // Octets of the pseudo-packet from the ID to the end, ICRC excluded: the ID (2), the rest of
  // the IPv4 header (14), UDP (8) and the packet without its ICRC.
  const tail = 2 + (IPV4_LEN - 6) + UDP_LEN + pkt.length - ICRC_LEN;
  const b = basisFor(tail);
  const probe: RoceIpHeader = { src: ip.src, dst: ip.dst, srcPort: ip.srcPort, dstPort: ip.dstPort, ipId: 0, flagsFrag: 0 };
  for (const flagsFrag of FLAGS_TRIED) {
    probe.flagsFrag = flagsFrag;
    const c0 = flagsFrag === IPV4_FLAGS_DF && icrcDf !== undefined ? icrcDf : computeIcrc(probe, pkt);
    const id = solve(b, (received ^ c0) >>> 0);
    if (id !== null && (!accept || accept(id, flagsFrag))) return { ipId: id, flagsFrag };
  }
  return null;
}

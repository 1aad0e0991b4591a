/**
 * RoCEv2 GIDs and the IP addresses they stand for (IBTA Vol. 1 Annex A17.8 "GID usage"): an
 * IPv4 address is the IPv4-mapped GID `::ffff:a.b.c.d` (RFC 4291 §2.5.5.2), an IPv6 address is
 * its own 16 octets; and IPv6 text both ways (RFC 4291 §2.2, RFC 5952 §4). Pure functions: the
 * one owner of "which address a GID names" for the RoCE transport, the GID table and rdma_cm.
 *
 * @packageDocumentation
 */
import { isIPv6 } from 'node:net';
import { ipv4FromGid } from './cm.js';

/** The 4 octets of a dotted quad (RangeError for anything else). */
function ipv4Octets(a: string): Uint8Array {
  const p = a.split('.');
  if (p.length !== 4 || p.some((x) => !/^\d{1,3}$/.test(x) || Number(x) > 255)) throw new RangeError(`not an IPv4 address: ${a}`);
  return Uint8Array.from(p.map(Number));
}

/** The IPv4-mapped GID of a dotted quad, or null. */
function ipv4MappedGid(a: string): Uint8Array | null {
  let o: Uint8Array;
  try {
    o = ipv4Octets(a);
  } catch {
    return null;
  }
  const g = new Uint8Array(16);
  g[10] = 0xff;
  g[11] = 0xff;
  g.set(o, 12);
  return g;
}

const v6cache = new Map<string, Uint8Array>();

/**
 * IPv6 text (RFC 4291 §2.2, with an optional `%scope`, which is ignored) → 16 octets (RangeError
 * for anything else); cached, do not modify.
 */
export function ipv6Bytes(a: string): Uint8Array {
  const c = v6cache.get(a);
  if (c) return c;
  const bare = a.split('%')[0]!;
  if (!isIPv6(bare)) throw new RangeError(`not an IPv6 address: ${a}`);
  const b = new Uint8Array(16);
  const [head, tail] = bare.includes('::') ? bare.split('::') : [bare, null];
  const words = (t: string | null | undefined): number[] => {
    if (!t) return [];
    const out: number[] = [];
    for (const part of t.split(':')) {
      if (part.includes('.')) {
        const v4 = ipv4Octets(part);
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else out.push(Number.parseInt(part, 16));
    }
    return out;
  };
  const h = words(head);
  const t = tail === null ? [] : words(tail);
  const all = tail === null ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  all.forEach((w, i) => {
    b[2 * i] = w >>> 8;
    b[2 * i + 1] = w & 0xff;
  });
  if (v6cache.size < 4096) v6cache.set(a, b);
  return b;
}

/** 16 octets → IPv6 text as RFC 5952 §4 writes it (lower case, the longest run of zero words as `::`). */
export function ipv6Text(b: Uint8Array): string {
  const w: number[] = [];
  for (let i = 0; i < 16; i += 2) w.push((b[i]! << 8) | b[i + 1]!);
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (w[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && w[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (x: number[]) => x.map((v) => v.toString(16)).join(':');
  return best < 0 ? hex(w) : `${hex(w.slice(0, best))}::${hex(w.slice(best + bestLen))}`;
}

/** True for IPv6 text (with or without a `%scope`). */
export function isIpv6Address(a: string): boolean {
  return isIPv6(a.split('%')[0]!);
}

/** True for a link-local IPv6 address (fe80::/10, RFC 4291 §2.5.6), whose use needs an interface. */
export function isIpv6LinkLocal(a: Uint8Array): boolean {
  return a.length === 16 && a[0] === 0xfe && (a[1]! & 0xc0) === 0x80;
}

/**
 * The address a RoCEv2 GID stands for (IBTA Vol. 1 Annex A17.8): the IPv4 address of an
 * IPv4-mapped GID, else the GID as an IPv6 address (RFC 5952 text, no scope). null for the
 * unspecified GID (an empty slot of a GID table).
 */
export function gidToAddress(gid: Uint8Array): string | null {
  if (gid.length !== 16) return null;
  const v4 = ipv4FromGid(gid);
  if (v4) return v4;
  if (gid.every((x) => x === 0)) return null;
  return ipv6Text(gid);
}

/** The RoCEv2 GID of an IPv4 address (IPv4-mapped) or an IPv6 address (its 16 octets); null for other text. */
export function addressToGid(address: string): Uint8Array | null {
  const a = address.trim();
  try {
    if (isIpv6Address(a)) {
      const b = ipv6Bytes(a);
      return Uint8Array.from(b);
    }
    return ipv4MappedGid(a);
  } catch {
    return null;
  }
}

/** An address's canonical text: IPv4 as is, IPv6 as {@link ipv6Text} without its scope (an IPv4-mapped IPv6 address as IPv4). */
export function canonicalAddress(a: string): string {
  return isIpv6Address(a) ? (gidToAddress(ipv6Bytes(a)) ?? '::') : a;
}

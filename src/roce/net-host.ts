/**
 * The host side of the RoCEv2 UDP layer (`src/roce/net.ts`): addresses (IPv4 text and numbers,
 * IPv4-mapped GIDs, multicast groups), the interface and link MTU of a local address, the socket
 * buffer a RoCEv2 socket gets and how many datagrams it holds, and the socket options that make
 * the `dgram` fallback's socket send IPv4 ID 0 with DF (IPv6: no fragmentation, zero-checksum
 * datagrams accepted, flow label 0) through the addon's setsockopt.
 */
import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { type NativeUdpSocket, nativeUdp } from '../util/native-udp.js';
import { QPN_MULTICAST } from '../wire/ib/bth.js';
import { ipv4FromGid } from '../wire/ib/cm.js';
import { canonicalAddress, isIpv6Address } from '../wire/ib/gid-address.js';

/** IPv4 + UDP header octets in front of every packet. */
export const IPV4_UDP_OVERHEAD = 28;
/** IPv6 + UDP header octets in front of every packet. */
export const IPV6_UDP_OVERHEAD = 48;
/** Socket buffers asked for (the kernel may clamp): rxe bursts 64 packets / 128 PSNs. */
export const SOCKET_BUFFER = 4 << 20;
/**
 * The receive buffer a RoCEv2 socket gets: {@link SOCKET_BUFFER} clamped to the host's
 * `net.core.rmem_max` (Linux clamps SO_RCVBUF to it silently), doubled as Linux doubles it
 * for its bookkeeping (socket(7)). Read once; 212992 (the usual default) when unreadable.
 */
let rcvBufCache = 0;
export function socketRecvBuffer(): number {
  if (rcvBufCache) return rcvBufCache;
  let max = 212992;
  try {
    const v = Number(readFileSync('/proc/sys/net/core/rmem_max', 'utf8').trim());
    if (Number.isInteger(v) && v > 0) max = v;
  } catch {
    // not Linux, or no /proc: keep the usual default
  }
  rcvBufCache = 2 * Math.min(SOCKET_BUFFER, max);
  return rcvBufCache;
}

/**
 * How many datagrams carrying `payload` octets (BTH … ICRC) the receive buffer holds. The
 * kernel charges each queued datagram its `truesize`: the sk_buff (about 256 octets) plus its
 * data area, which is allocated in power-of-two sizes from the Ethernet + IPv4 + UDP headers
 * and `skb_shared_info` (about 320 octets) on; a 4112-octet datagram costs 8448, not 4140.
 */
export function datagramsPerRecvBuffer(payload: number): number {
  const data = 2 ** Math.ceil(Math.log2(payload + 14 + IPV4_UDP_OVERHEAD + 320));
  return Math.floor(socketRecvBuffer() / (data + 256));
}

/** `a.b.c.d` as a 32-bit number (a << 24 | …). */
export function ipv4Number(a: string): number {
  const b = ipv4Bytes(a);
  return ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
}

const addrText = new Map<number, string>();
/** 32-bit IPv4 address → dotted quad, cached (bounded). */
export function ipv4Text(n: number): string {
  let t = addrText.get(n);
  if (t === undefined) {
    t = `${n >>> 24}.${(n >>> 16) & 0xff}.${(n >>> 8) & 0xff}.${n & 0xff}`;
    if (addrText.size < 4096) addrText.set(n, t);
  }
  return t;
}

/** Linux `<netinet/in.h>`: IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_DO. */
const IPPROTO_IP = 0;
const IP_MTU_DISCOVER = 10;
const IP_PMTUDISC_DO = 2;
/** Linux `<netinet/in.h>`, `<linux/in6.h>`, `<linux/udp.h>`: IPPROTO_IPV6, IPV6_MTU_DISCOVER, IPV6_DONTFRAG, IPV6_AUTOFLOWLABEL, UDP_NO_CHECK6_RX. */
const IPPROTO_IPV6 = 41;
const IPV6_MTU_DISCOVER = 23;
const IPV6_PMTUDISC_DO = 2;
const IPV6_DONTFRAG = 62;
const IPV6_AUTOFLOWLABEL = 70;
const SOL_UDP = 17;
const UDP_NO_CHECK6_RX = 102;

/** The descriptor of a bound dgram socket (Node keeps its handle behind a private symbol). */
export function socketFd(sock: dgram.Socket): number | null {
  const o = sock as unknown as Record<symbol, { handle?: { fd?: number } } | undefined>;
  for (const s of Object.getOwnPropertySymbols(sock)) {
    const fd = o[s]?.handle?.fd;
    if (typeof fd === 'number' && fd >= 0) return fd;
  }
  return null;
}

const v4cache = new Map<string, Uint8Array>();

/** IPv4 dotted quad → 4 octets (RangeError for anything else); cached, do not modify. */
export function ipv4Bytes(a: string): Uint8Array {
  const c = v4cache.get(a);
  if (c) return c;
  const p = a.split('.').map(Number);
  if (p.length !== 4 || p.some((x) => !Number.isInteger(x) || x < 0 || x > 255)) throw new RangeError(`not an IPv4 address: ${a}`);
  const b = Uint8Array.from(p);
  // Bounded: peers of one process are few; a flood of sources only costs re-parsing.
  if (v4cache.size < 4096) v4cache.set(a, b);
  return b;
}

/** The DestQP of a multicast datagram (IBTA Vol. 1 §10.5: QPN 0xFFFFFF). */
export const MULTICAST_QPN = QPN_MULTICAST;

/** True for an IPv4 address in 224.0.0.0/4. */
export function isIpv4Multicast(a: string): boolean {
  const first = Number(a.split('.')[0]);
  return first >= 224 && first <= 239;
}

/**
 * The interface (name and index) that holds the IPv6 address `a`, or null. Node gives the index
 * (`scopeid`) of link-local addresses only; for the others it is read from sysfs.
 */
export function ipv6InterfaceOf(a: string): { name: string; index: number } | null {
  const bare = canonicalAddress(a);
  for (const [name, list] of Object.entries(networkInterfaces())) {
    for (const n of list ?? []) {
      if (n.family !== 'IPv6' || canonicalAddress(n.address) !== bare) continue;
      let index = n.scopeid ?? 0;
      if (!index) {
        try {
          index = Number(readFileSync(`/sys/class/net/${name}/ifindex`, 'utf8').trim()) || 0;
        } catch {
          index = 0;
        }
      }
      return { name, index };
    }
  }
  return null;
}

/** The IPv4 address of an IPv4-mapped GID (`::ffff:a.b.c.d`), or null (the rule of `src/wire/ib/cm.ts`). */
export const gidToIpv4: (gid: Uint8Array) => string | null = ipv4FromGid;

/** The IPv4-mapped GID of `a.b.c.d` (RoCE v2 GID type, IBTA Annex A17.8). */
export function ipv4ToGid(address: string): Uint8Array {
  const g = new Uint8Array(16);
  g[10] = 0xff;
  g[11] = 0xff;
  g.set(ipv4Bytes(address), 12);
  return g;
}

/**
 * The MTU of the network interface that holds `address` (Linux: `/sys/class/net/<if>/mtu`), or
 * null when it cannot be told (another OS, an address of no interface).
 */
export function linkMtuOf(address: string): number | null {
  for (const [name, list] of Object.entries(networkInterfaces())) {
    if (
      !list?.some(
        (a) =>
          a.address === address ||
          (a.family === 'IPv6' && isIpv6Address(address) && canonicalAddress(a.address) === canonicalAddress(address)),
      )
    )
      continue;
    try {
      const mtu = Number(readFileSync(`/sys/class/net/${name}/mtu`, 'utf8').trim());
      return Number.isInteger(mtu) && mtu > 0 ? mtu : null;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * True when endpoints can make the kernel send IPv4 ID 0: the native addon loaded (it sets
 * `IP_MTU_DISCOVER` on its own socket, or on the `dgram` socket's descriptor).
 */
export function ipIdZeroSupported(): boolean {
  return nativeUdp() !== null || fallbackSetsockopt() !== null;
}

/** The addon's setsockopt for the `dgram` path (it loads even with `SOFTRDMA_NATIVE=0`, which only picks the path). */
let fbSetsockopt: ((fd: number, level: number, name: number, value: number) => void) | null | undefined;
function fallbackSetsockopt(): ((fd: number, level: number, name: number, value: number) => void) | null {
  if (fbSetsockopt !== undefined) return fbSetsockopt;
  const n = nativeUdp() ?? nativeUdp(true);
  fbSetsockopt = n ? n.setsockoptInt : null;
  return fbSetsockopt;
}

/**
 * Makes the `dgram` socket `fd` send as the native layer's does: IPv4 ID 0 with DF
 * (`IP_MTU_DISCOVER = IP_PMTUDISC_DO`), or over IPv6 no fragmentation, zero-checksum datagrams
 * accepted and flow label 0. True when the datagrams will carry the ID the ICRC is computed
 * for; false without the addon. Throws what the setsockopt throws.
 */
export function setDgramSocketOptions(fd: number, ipv6: boolean): boolean {
  const set = fallbackSetsockopt();
  if (!set) return false;
  if (ipv6) {
    set(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, IPV6_PMTUDISC_DO);
    set(fd, IPPROTO_IPV6, IPV6_DONTFRAG, 1);
    set(fd, SOL_UDP, UDP_NO_CHECK6_RX, 1);
    // Flow label 0, as rxe writes its IPv6 header (the kernel would pick one per flow).
    try {
      set(fd, IPPROTO_IPV6, IPV6_AUTOFLOWLABEL, 0);
    } catch {
      // an older kernel: the flow label is the kernel's
    }
    return true;
  }
  set(fd, IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_DO);
  return true;
}

/**
 * Joins or leaves the multicast group `group` (`groupBytes`, its octets) on the interface of our
 * address `iface`: IP_ADD_MEMBERSHIP with the interface's address for IPv4 (IGMP),
 * IPV6_ADD_MEMBERSHIP with its index for IPv6 (MLD, RFC 3810), on either datagram layer's
 * socket. Throws when the interface refuses it or (IPv6) the address is on no interface.
 */
export function udpMembership(
  sock: NativeUdpSocket | dgram.Socket,
  group: string,
  groupBytes: Uint8Array,
  iface: string,
  join: boolean,
): void {
  const native = !(sock instanceof dgram.Socket);
  if (!isIpv6Address(group)) {
    if (native) sock.membership(ipv4Number(group), ipv4Number(iface), join);
    else if (join) sock.addMembership(group, iface);
    else sock.dropMembership(group, iface);
    return;
  }
  const itf = ipv6InterfaceOf(iface);
  if (!itf?.index) throw new Error(`no interface holds ${iface}`);
  if (native) sock.membership(groupBytes, itf.index, join);
  else if (join) sock.addMembership(group, `::%${itf.name}`);
  else sock.dropMembership(group, `::%${itf.name}`);
}

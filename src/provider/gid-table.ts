/**
 * The GID table of the RoCEv2 port: one owner for what `ibv_query_gid`, `softrdma link`,
 * `devinfo -v`, the RNICPI port attributes and the RoCE transport's UD endpoints see.
 *
 * The table follows the host's addresses, as Linux's RoCE GID cache follows a netdev's
 * (`roce_gid_mgmt.c`): a GID is added when an address appears and removed when it goes. While a
 * device is open the table is re-read about once a second (an unreferenced timer: it never keeps
 * a process alive) and a change is reported to the RNIC, which raises the port's GID-change event
 * (`RI_EVENT_PORT_EVENT` with the softrdma `sr_gid_change` flag; ibverbs'
 * `IBV_EVENT_GID_CHANGE`, IBTA Vol. 1 §11.6.3.3 "GID table changed").
 *
 * Each address keeps its index while it exists, so a QP's `sgid_index` never moves under it: a
 * removed address leaves its slot empty (an all-zero GID, as the kernel's table shows a free
 * entry), and a new address takes the first empty slot, else a new one at the end. Trailing
 * empty slots are dropped.
 *
 * Which addresses: every IPv4 address of the host, in `os.networkInterfaces()` order, **and**
 * the addresses of interfaces that are up but have no carrier (Node's list omits them; on Linux
 * they are the `host LOCAL` /32 entries of `/proc/net/fib_trie`), since the kernel's GID cache
 * keys on the address, not on carrier (docs/spec-notes.md "A GID table that follows the host");
 * then every IPv6 address (RoCE v2 GIDs that are the address itself, IBTA Vol. 1 Annex A17.8),
 * link-local ones included, as Linux's `roce_gid_mgmt.c` adds each inet6 address of the netdev
 * (Linux: `/proc/net/if_inet6`, which lists them whatever the carrier, less those still in
 * duplicate address detection, which cannot be bound yet; elsewhere Node's list).
 *
 * `SOFTRDMA_ROCE_ADDRS` pins the table: exactly its addresses, in its order, index i = entry i.
 * An entry that is not an address of this host makes the device refuse to open, with a message
 * naming the variable and the entry ({@link RoceGidTable.problems}).
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { addressToGid, canonicalAddress, ipv6Bytes, ipv6Text, isIpv6Address } from '../wire/ib/gid-address.js';
import { ENV_ROCE_ADDRS } from '../util/env.js';
import { logger } from '../util/log.js';

const log = logger('gid');

/** The environment variable that pins the RoCE device's addresses. */
export const ROCE_ADDRS_ENV = ENV_ROCE_ADDRS;

/** How often an open device re-reads the host's addresses (milliseconds). */
export const GID_POLL_MS = 1000;

/** One entry of the table: the GID, the address it maps, and its netdev (null: not known). */
export interface GidEntry {
  readonly gid: Uint8Array;
  readonly address: string;
  readonly netdev: string | null;
}

/** An address of this host and its interface. */
export interface HostAddress {
  readonly address: string;
  readonly netdev: string | null;
}

/** The octets of a dotted quad, or null when it is not one. */
export function ipv4Octets(a: string): number[] | null {
  const p = a.split('.');
  if (p.length !== 4 || p.some((x) => !/^\d{1,3}$/.test(x) || Number(x) > 255)) return null;
  return p.map(Number);
}

/** The IPv4-mapped GID of a dotted quad (`::ffff:a.b.c.d`, IBTA Annex A17.8; RFC 4291 §2.5.5.2), or null. */
export function ipv4MappedGid(address: string): Uint8Array | null {
  const o = ipv4Octets(address.trim());
  if (!o) return null;
  const g = new Uint8Array(16);
  g[10] = 0xff;
  g[11] = 0xff;
  g.set(o, 12);
  return g;
}

const u32 = (o: readonly number[]): number => ((o[0]! << 24) | (o[1]! << 16) | (o[2]! << 8) | o[3]!) >>> 0;

/** One `host LOCAL` entry of the kernel's routing trie: a prefix whose addresses are this host's. */
interface LocalPrefix {
  readonly net: number;
  readonly len: number;
}

/**
 * The local prefixes of Linux's routing trie (`/proc/net/fib_trie`: an address line `|-- a.b.c.d`
 * followed by `/len host LOCAL`): what the kernel delivers locally (127.0.0.0/8 and each
 * address as a /32). null on another OS or when the file cannot be read.
 */
function localPrefixes(): LocalPrefix[] | null {
  let text: string;
  try {
    text = readFileSync('/proc/net/fib_trie', 'utf8');
  } catch {
    return null;
  }
  const out: LocalPrefix[] = [];
  const seen = new Set<string>();
  let addr: number[] | null = null;
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t.startsWith('|-- ')) {
      addr = ipv4Octets(t.slice(4));
      continue;
    }
    const m = /^\/(\d{1,2}) host LOCAL$/.exec(t);
    if (!m || !addr) continue;
    const len = Number(m[1]);
    const key = `${addr.join('.')}/${len}`;
    if (len > 32 || seen.has(key)) continue;
    seen.add(key);
    out.push({ net: u32(addr), len });
  }
  return out;
}

const inPrefix = (a: number, p: LocalPrefix): boolean => p.len === 0 || a >>> (32 - p.len) === p.net >>> (32 - p.len);

/** The interface of the connected route that holds `a` (Linux `/proc/net/route`), or null. */
function routeNetdev(a: number): string | null {
  let text: string;
  try {
    text = readFileSync('/proc/net/route', 'utf8');
  } catch {
    return null;
  }
  let best: { dev: string; mask: number } | null = null;
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 8) continue;
    // Destination and Mask are little-endian hex words.
    const le = (h: string) => {
      const n = Number.parseInt(h, 16);
      return (((n & 0xff) << 24) | (((n >>> 8) & 0xff) << 16) | (((n >>> 16) & 0xff) << 8) | ((n >>> 24) & 0xff)) >>> 0;
    };
    const dst = le(f[1]!);
    const mask = le(f[7]!);
    if (mask === 0 || (a & mask) >>> 0 !== dst) continue;
    if (!best || mask > best.mask) best = { dev: f[0]!, mask };
  }
  return best?.dev ?? null;
}

/** `/proc/net/if_inet6` flags: IFA_F_DADFAILED, IFA_F_TENTATIVE (`<linux/if_addr.h>`). */
const IFA_F_DADFAILED = 0x08;
const IFA_F_TENTATIVE = 0x40;

/**
 * The host's usable IPv6 addresses and their interfaces (canonical text): Linux's
 * `/proc/net/if_inet6` (every configured address, with or without carrier, less tentative and
 * failed ones), else Node's list.
 */
export function hostIpv6Addresses(): HostAddress[] {
  const out: HostAddress[] = [];
  const seen = new Set<string>();
  let text: string | null = null;
  try {
    text = readFileSync('/proc/net/if_inet6', 'utf8');
  } catch {
    // not Linux, or IPv6 disabled
  }
  if (text !== null) {
    for (const line of text.split('\n')) {
      const f = line.trim().split(/\s+/);
      if (f.length < 6 || !/^[0-9a-f]{32}$/.test(f[0]!)) continue;
      const flags = Number.parseInt(f[4]!, 16);
      if (flags & (IFA_F_TENTATIVE | IFA_F_DADFAILED)) continue;
      const b = new Uint8Array(16);
      for (let i = 0; i < 16; i++) b[i] = Number.parseInt(f[0]!.slice(2 * i, 2 * i + 2), 16);
      const address = ipv6Text(b);
      if (seen.has(address)) continue;
      seen.add(address);
      out.push({ address, netdev: f[5]! });
    }
    return out;
  }
  for (const [netdev, list] of Object.entries(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family !== 'IPv6') continue;
      const address = canonicalAddress(a.address);
      if (seen.has(address)) continue;
      seen.add(address);
      out.push({ address, netdev });
    }
  }
  return out;
}

/**
 * The interface of an address: the one that has it, else the one whose subnet holds it (127.0.0.2
 * on `lo`), else the connected route's; null when none does.
 */
export function netdevOf(address: string): string | null {
  if (isIpv6Address(address)) {
    const a = canonicalAddress(address);
    return hostIpv6Addresses().find((h) => h.address === a)?.netdev ?? null;
  }
  const o = ipv4Octets(address);
  if (!o) return null;
  const a = u32(o);
  let subnet: string | null = null;
  for (const [netdev, list] of Object.entries(networkInterfaces())) {
    for (const n of list ?? []) {
      if (n.family !== 'IPv4') continue;
      if (n.address === address) return netdev;
      const m = ipv4Octets(n.netmask);
      const base = ipv4Octets(n.address);
      if (!subnet && m && base && (a & u32(m)) >>> 0 === (u32(base) & u32(m)) >>> 0) subnet = netdev;
    }
  }
  return subnet ?? routeNetdev(a);
}

/**
 * True when some interface is administratively up without carrier (Linux: its `flags` has
 * IFF_UP and its `carrier` reads 0): only then does Node's list miss addresses, and only then is
 * the routing trie read (it can be large on a router).
 */
function someUpWithoutCarrier(): boolean {
  let names: string[];
  try {
    names = readdirSync('/sys/class/net');
  } catch {
    return false;
  }
  for (const n of names) {
    try {
      const flags = Number.parseInt(readFileSync(`/sys/class/net/${n}/flags`, 'utf8'), 16);
      if (flags & 1 && readFileSync(`/sys/class/net/${n}/carrier`, 'utf8').trim() === '0') return true;
    } catch {
      // down (carrier unreadable), or gone meanwhile
    }
  }
  return false;
}

/**
 * The host's IPv4 addresses: those of the running interfaces, in `os.networkInterfaces()` order,
 * then (Linux) the local addresses Node does not list, those of interfaces up without carrier.
 */
export function hostAddresses(): HostAddress[] {
  const out: HostAddress[] = [];
  const seen = new Set<string>();
  for (const [netdev, list] of Object.entries(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family !== 'IPv4' || seen.has(a.address) || !ipv4Octets(a.address)) continue;
      seen.add(a.address);
      out.push({ address: a.address, netdev });
    }
  }
  for (const p of someUpWithoutCarrier() ? (localPrefixes() ?? []) : []) {
    if (p.len !== 32) continue;
    const address = [p.net >>> 24, (p.net >>> 16) & 0xff, (p.net >>> 8) & 0xff, p.net & 0xff].join('.');
    if (seen.has(address)) continue;
    seen.add(address);
    out.push({ address, netdev: routeNetdev(p.net) });
  }
  for (const h of hostIpv6Addresses()) out.push(h);
  return out;
}

/**
 * True when `address` is one of this host's: a local prefix of the kernel's routing trie holds it
 * (so 127.0.0.2 is, as Linux delivers all of 127.0.0.0/8 locally), or, where that cannot be read,
 * an interface has it or a loopback interface's subnet holds it.
 */
export function isHostAddress(address: string): boolean {
  if (isIpv6Address(address)) {
    const a = canonicalAddress(address);
    return hostIpv6Addresses().some((h) => h.address === a);
  }
  const o = ipv4Octets(address);
  if (!o) return false;
  const a = u32(o);
  const prefixes = localPrefixes();
  if (prefixes) return prefixes.some((p) => inPrefix(a, p));
  for (const list of Object.values(networkInterfaces())) {
    for (const n of list ?? []) {
      if (n.family !== 'IPv4') continue;
      if (n.address === address) return true;
      const m = ipv4Octets(n.netmask);
      const base = ipv4Octets(n.address);
      if (n.internal && m && base && (a & u32(m)) >>> 0 === (u32(base) & u32(m)) >>> 0) return true;
    }
  }
  return false;
}

const ZERO_GID = new Uint8Array(16);

/** The GID of an IPv4 (IPv4-mapped) or IPv6 address; null for anything else (text with a `%scope` included). */
function gidOfAddress(address: string): Uint8Array | null {
  if (isIpv6Address(address)) {
    try {
      ipv6Bytes(address);
    } catch {
      return null;
    }
    return addressToGid(address);
  }
  return ipv4MappedGid(address);
}

/** The GID table of one RoCEv2 port; see the module documentation. */
export class RoceGidTable {
  #slots: (GidEntry | null)[] = [];
  #pin: string | undefined = undefined;
  #problems: string[] = [];
  #timer: NodeJS.Timeout | null = null;
  readonly #watchers = new Set<() => void>();

  /**
   * @param env - the pinning variable's value, read at each refresh (default: the process's).
   * @param host - the host's addresses (default {@link hostAddresses}).
   * @param isLocal - whether an address is this host's (default {@link isHostAddress}).
   */
  constructor(
    readonly env: () => string | undefined = () => process.env[ROCE_ADDRS_ENV],
    readonly host: () => HostAddress[] = hostAddresses,
    readonly isLocal: (address: string) => boolean = isHostAddress,
  ) {
    this.refresh();
  }

  /** The GIDs by index (an empty slot is the all-zero GID). Copies. */
  gids(): Uint8Array[] {
    if (!this.#timer) this.refresh();
    return this.#slots.map((s) => Uint8Array.from(s?.gid ?? ZERO_GID));
  }

  /** The entries by index (null: an empty slot). */
  entries(): readonly (GidEntry | null)[] {
    if (!this.#timer) this.refresh();
    return this.#slots;
  }

  /**
   * Why the device must not open: one message per `SOFTRDMA_ROCE_ADDRS` entry that is not an IPv4
   * or IPv6 address or not an address of this host. Empty when all is well.
   */
  problems(): readonly string[] {
    if (!this.#timer) this.refresh();
    return this.#problems;
  }

  /**
   * Re-reads the addresses. Returns true when the table changed (a GID added or removed).
   */
  refresh(): boolean {
    const pin = this.env()?.trim() || undefined;
    if (pin !== this.#pin) {
      // A different pin is a different table: start over.
      this.#pin = pin;
      this.#slots = [];
      this.#problems = [];
    }
    let want: HostAddress[];
    if (pin) {
      // A pin is checked against the host once (it names addresses; the table does not follow).
      if (this.#slots.length > 0 || this.#problems.length > 0) return false;
      want = [];
      for (const raw of pin.split(',').map((x) => x.trim())) {
        if (!gidOfAddress(raw)) {
          this.#problems.push(`${ROCE_ADDRS_ENV}: '${raw}' is not an IPv4 or IPv6 address`);
          continue;
        }
        const entry = isIpv6Address(raw) ? canonicalAddress(raw) : raw;
        if (!this.isLocal(entry)) {
          this.#problems.push(`${ROCE_ADDRS_ENV}: ${raw} is not an address of this host`);
          continue;
        }
        want.push({ address: entry, netdev: netdevOf(entry) });
      }
      // Pinned: index i is entry i, always.
      this.#slots = want.map((w) => ({ gid: gidOfAddress(w.address)!, address: w.address, netdev: w.netdev }));
      return true;
    }
    this.#problems = [];
    want = this.host();
    const wanted = new Set(want.map((w) => w.address));
    let changed = false;
    for (let i = 0; i < this.#slots.length; i++) {
      const s = this.#slots[i];
      if (s && !wanted.has(s.address)) {
        log('GID[%d] %s removed', i, s.address);
        this.#slots[i] = null;
        changed = true;
      }
    }
    const have = new Set(this.#slots.filter((s): s is GidEntry => s !== null).map((s) => s.address));
    for (const w of want) {
      if (have.has(w.address)) continue;
      const gid = gidOfAddress(w.address);
      if (!gid) continue;
      let i = this.#slots.indexOf(null);
      if (i < 0) i = this.#slots.length;
      this.#slots[i] = { gid, address: w.address, netdev: w.netdev };
      log('GID[%d] %s added (%s)', i, w.address, w.netdev ?? 'netdev unknown');
      changed = true;
    }
    while (this.#slots.length > 0 && this.#slots[this.#slots.length - 1] === null) this.#slots.pop();
    return changed;
  }

  /**
   * Calls `onChange` after each change of the table until the returned function is called; the
   * table is re-read every {@link GID_POLL_MS} while anyone watches.
   */
  watch(onChange: () => void): () => void {
    this.#watchers.add(onChange);
    if (!this.#timer) {
      this.refresh();
      this.#timer = setInterval(() => this.#poll(), GID_POLL_MS);
      this.#timer.unref();
    }
    return () => {
      this.#watchers.delete(onChange);
      if (this.#watchers.size === 0 && this.#timer) {
        clearInterval(this.#timer);
        this.#timer = null;
      }
    };
  }

  #poll(): void {
    let changed: boolean;
    try {
      changed = this.refresh();
    } catch (e) {
      log('re-reading the host addresses failed: %s', (e as Error).message);
      return;
    }
    if (!changed) return;
    for (const w of [...this.#watchers]) w();
  }
}

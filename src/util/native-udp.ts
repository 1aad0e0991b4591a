/**
 * Loads the package's native datagram layer (`native/udp.c`, built at install by
 * `scripts/build-native.mjs` into `build/Release/softrdma_net.node`): batched UDP for the RoCEv2
 * transport (recvmmsg with UDP_GRO, sendmmsg with UDP_SEGMENT), a setsockopt on a descriptor,
 * and the hardware CRC32C of MPA (`native/crc32c.c`, see {@link hardwareCrc32c}).
 * It is Linux only and optional: when it was not built, does not load, or `SOFTRDMA_NATIVE=0`,
 * {@link nativeUdp} is null and `src/roce/net.ts` uses Node's `dgram`.
 *
 * @packageDocumentation
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ENV_GRO, ENV_GSO, ENV_NATIVE, switchFromEnv } from './env.js';
import { logger } from './log.js';

const log = logger('native');

/** Result of {@link NativeUdpSocket.bind}. */
export interface NativeBindResult {
  port: number;
  /** UDP_GRO is on: a received datagram may hold several segments (split by the addon). */
  gro: boolean;
  /** The kernel takes UDP_SEGMENT on this socket. */
  gso: boolean;
  /** SO_RCVBUF as the kernel set it. */
  rcvbuf: number;
  /**
   * {@link metaWords} words per received datagram of a batch: offset, length, source address
   * (IPv4; an IPv6 socket: the source's scope id), source port, then (IPv6) the 16 octets of the
   * source address.
   */
  meta: Uint32Array;
  /** Words per datagram in {@link meta} (4 from an addon built before IPv6 sockets). */
  metaWords?: number;
  fd: number;
}

/**
 * A UDP socket of the addon. IPv4 addresses are 32-bit numbers (a << 24 | …); an IPv6 socket is
 * bound to 16 octets (and a scope id for a link-local address).
 */
export interface NativeUdpSocket {
  bind(
    address: number | Uint8Array,
    port: number,
    rcvbuf: number,
    sndbuf: number,
    reuseAddr: boolean,
    gro: boolean,
    slotSize: number,
    slots: number,
    scopeId?: number,
  ): NativeBindResult;
  /**
   * Sends messages `first` … `end - 1` of `msgs` (5 words each: address, port, first packet,
   * packet count, segment size); a message of several packets goes with UDP_SEGMENT. An IPv6
   * socket takes `addrs6`, 16 octets per message (message i at i·16), and the address word is the
   * destination's scope id. Returns how many messages were sent, or −errno when the first could not be.
   */
  send(packets: Uint8Array[], msgs: Uint32Array, first: number, end: number, addrs6?: Uint8Array): number;
  /** Calls the socket's onWritable once it can take more. */
  pollWritable(): void;
  membership(group: number, iface: number, join: boolean): void;
  close(): void;
}

export interface NativeUdp {
  UdpSocket: new (onBatch: (buf: Buffer, count: number) => void, onWritable: () => void) => NativeUdpSocket;
  setsockoptInt(fd: number, level: number, name: number, value: number): void;
  features(): { gso: boolean; gro: boolean };
  /** Messages per send call, and packets per send call, at most. */
  MAX_TX_MSGS: number;
  MAX_TX_IOV: number;
  /**
   * CRC32C (RFC 3385) of `buf` continuing from `initial`, by the CPU's CRC instruction; only
   * when {@link crc32cHw} is not "". Absent from an addon built before it was added.
   */
  crc32c?(buf: Uint8Array, initial: number): number;
  /** The CPU feature {@link crc32c} uses ("sse4.2", "armv8-crc32"), or "" when there is none. */
  crc32cHw?(): string;
}

let cached: NativeUdp | null | undefined;
let why = '';

/**
 * The addon for the RoCEv2 datagram path, or null (see the module documentation;
 * {@link datagramLayer} tells why). With `anyway`, the addon even under `SOFTRDMA_NATIVE=0`,
 * which only chooses the `dgram` path: that path still uses the addon's setsockopt.
 */
export function nativeUdp(anyway = false): NativeUdp | null {
  if (switchFromEnv(ENV_NATIVE) === false && !anyway) {
    why = 'off: SOFTRDMA_NATIVE=0';
    return null;
  }
  return loadAddon();
}

function loadAddon(): NativeUdp | null {
  if (cached !== undefined) return cached;
  cached = null;
  if (process.platform !== 'linux') {
    why = `not built for ${process.platform}`;
    return null;
  }
  const require = createRequire(import.meta.url);
  // dist/src/util/ (compiled) or src/util/ (run from source): the package root is above.
  for (const rel of ['../../../build/Release/softrdma_net.node', '../../build/Release/softrdma_net.node']) {
    const p = new URL(rel, import.meta.url);
    if (!existsSync(p)) continue;
    try {
      cached = require(p.pathname) as NativeUdp;
      return cached;
    } catch (e) {
      why = `did not load: ${(e as Error).message}`;
      log('%s', why);
      return null;
    }
  }
  why = 'not built (no C compiler at install?)';
  return null;
}

/**
 * The addon's hardware CRC32C and the CPU feature it uses, or null with the reason (not built,
 * or no CRC instruction on this CPU). Loaded whatever `SOFTRDMA_NATIVE` says: that variable
 * chooses the datagram path only; `SOFTRDMA_CRC32C` chooses the CRC (src/wire/crc32c.ts).
 */
export function hardwareCrc32c(): { fn: (buf: Uint8Array, initial: number) => number; hw: string } | { fn: null; why: string } {
  const n = loadAddon();
  if (!n) return { fn: null, why: `native layer ${why}` };
  const hw = typeof n.crc32cHw === 'function' ? n.crc32cHw() : '';
  if (!hw || typeof n.crc32c !== 'function') return { fn: null, why: 'no hardware CRC32C on this CPU' };
  return { fn: n.crc32c, hw };
}

/** Which datagram layer the RoCEv2 transport uses, for `softrdma devinfo -v`. */
export function datagramLayer(): { native: boolean; gso: boolean; gro: boolean; text: string } {
  const n = nativeUdp();
  if (!n) return { native: false, gso: false, gro: false, text: `dgram fallback (native layer ${why})` };
  const f = n.features();
  const gso = f.gso && switchFromEnv(ENV_GSO) !== false;
  const gro = f.gro && switchFromEnv(ENV_GRO) !== false;
  const extra = [gso ? 'GSO' : 'no GSO', gro ? 'GRO' : 'no GRO'].join(', ');
  return { native: true, gso, gro, text: `native (recvmmsg/sendmmsg, ${extra})` };
}

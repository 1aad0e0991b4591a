/**
 * The RDMA IP CM service of a RoCE port (IBTA Vol. 1 Annex A11, as Linux `cma.c` applies it to
 * RoCE), shared by every consumer face of the process: the IB CM on QP1 of the port, and the
 * services (service IDs `ps << 16 | port`) listened on, each dispatched to the listener of the
 * REQ's `cma_hdr` destination address.
 *
 * Linux has one `ib_cm` per device, shared by rdma_cm and every kernel consumer. softrdma's
 * faces (ibverbs/rdma_cm in `src/verbs`, IT-API in `src/itapi`) each load their own provider
 * instance and so have their own RoCE RNIC, but the RoCEv2 endpoint (UDP 4791 on an address) is
 * one per process and dispatches by QPN — and QP1 is one per port. So the faces share one
 * {@link RdmaIpCm} per RoCE port, keyed by the port's name: the first face that needs it opens
 * QP1 on its RNIC; the others use that CM (a CM message names QPNs, which are process-wide on
 * RoCE RNICs, and the CA GUID, which is the first face's). It lives while any face holds it and
 * closes a moment after the last let go, once nothing is being retransmitted.
 *
 * @module
 */
import dgram from 'node:dgram';
import { RiRet } from '../rnicpi/status.js';
import { logger } from '../util/log.js';
import { random32 } from '../util/random.js';
import {
  CM_PRIVATE_DATA_SIZE,
  CMA_HDR_LEN,
  CMA_VERSION,
  cmaAddrFromIpv4,
  decodeCmaHdr,
  encodeCmaHdr,
  ipv4FromCmaAddr,
} from '../wire/ib/cm.js';
import { canonicalAddress, ipv6Bytes, ipv6Text, isIpv6Address } from '../wire/ib/gid-address.js';
import { IbCm, type IbCmEnvParams, type IbCmListener, type IbCmListenEvent, type IbCmListenLimits, ibCmParamsFromEnv } from './cm.js';
import type { RiGsiPort } from './ri-gsi.js';
import { PSN_MASK } from '../wire/ib/constants.js';

const log = logger('ibcm:rdma-ip');

/**
 * The local address a datagram to `dst` would leave from (the kernel's route lookup: a UDP
 * socket of its family connected to it), or null when there is no route.
 */
function routeSource(dst: string): Promise<string | null> {
  return new Promise((resolve) => {
    const v6 = isIpv6Address(dst);
    const s = dgram.createSocket(v6 ? 'udp6' : 'udp4');
    const done = (a: string | null) => {
      try {
        s.close();
      } catch {
        // already closed
      }
      resolve(a);
    };
    s.on('error', () => done(null));
    s.connect(9, dst, () => {
      try {
        const a = s.address().address;
        done(v6 ? canonicalAddress(a) : a);
      } catch {
        done(null);
      }
    });
  });
}

const isLoopback = (a: string) => a.startsWith('127.') || a === '::1';

/**
 * The source address of a RoCE path to `dst` from a port owning the addresses `own`: the
 * route's source when the port owns it; otherwise one of its addresses of `dst`'s family — a
 * loopback one for a loopback destination, else the first that is not loopback. A port
 * restricted to other addresses than the route's (`SOFTRDMA_ROCE_ADDRS`, two processes on one
 * host) thus still resolves. null when the port has no address of that family.
 */
export async function roceSourceFor(all: readonly string[], dst: string): Promise<string | null> {
  const v6 = isIpv6Address(dst);
  const own = all.filter((a) => isIpv6Address(a) === v6);
  if (own.length === 0) return null;
  const r = await routeSource(dst);
  if (r && own.includes(r)) return r;
  if (isLoopback(dst)) return own.find(isLoopback) ?? own[0]!;
  return own.find((a) => !isLoopback(a)) ?? own[0]!;
}

/** rdma_cm's source port for an active id (the port space's ephemeral range). */
export function ephemeralPort(): number {
  return 32768 + Math.floor(Math.random() * (60999 - 32768));
}

/**
 * A random 24-bit starting PSN for each connection (IBTA Vol. 1 §9.7.1; Linux rdma_cm
 * `get_random_u32() & 0xffffff`), from the CSPRNG: a spoofer who cannot observe the connection
 * cannot guess the PSN it would need to inject into it.
 */
export function randomPsn(): number {
  return random32() & PSN_MASK;
}

/**
 * The consumer's private data in each CM message of an RDMA IP connection (IBTA Vol. 1 Annex
 * A11.6, as rdma_cm's limits): a REQ's and a SIDR_REQ's less the `cma_hdr` at their head
 * (92 − 36 = 56, 216 − 36 = 180); the others' whole (IBTA Vol. 1 Tables 99 and 113: REP 196,
 * REJ 148, SIDR_REP 136).
 */
export const CMA_USER_PDATA = {
  REQ: CM_PRIVATE_DATA_SIZE.REQ - CMA_HDR_LEN,
  SIDR_REQ: CM_PRIVATE_DATA_SIZE.SIDR_REQ - CMA_HDR_LEN,
  REP: CM_PRIVATE_DATA_SIZE.REP,
  REJ: CM_PRIVATE_DATA_SIZE.REJ,
  SIDR_REP: CM_PRIVATE_DATA_SIZE.SIDR_REP,
} as const;

/** The addresses a REQ's or SIDR_REQ's `cma_hdr` carries. */
export interface CmaAddresses {
  src: string;
  dst: string;
  srcPort: number;
}

/**
 * REQ / SIDR_REQ private data: the `cma_hdr` (36 octets; IP version 4 with the addresses in the
 * last 4 octets of each field, or 6 with the 16 octets of each), then `user`.
 */
export function cmaPrivateDataOf(src: { address: string; port: number }, dst: string, user: Uint8Array | null): Uint8Array {
  const u = user ?? new Uint8Array(0);
  const out = new Uint8Array(CMA_HDR_LEN + u.length);
  const v6 = isIpv6Address(dst);
  const addr = (a: string) => (v6 ? Uint8Array.from(ipv6Bytes(a)) : cmaAddrFromIpv4(a));
  encodeCmaHdr({ cmaVersion: CMA_VERSION, ipVersion: v6 ? 6 : 4, srcPort: src.port, srcAddr: addr(src.address), dstAddr: addr(dst) }, out);
  out.set(u, CMA_HDR_LEN);
  return out;
}

/**
 * The addresses of a REQ's or SIDR_REQ's `cma_hdr` (IPv4, or IPv6 as canonical text; an
 * IPv4-mapped IPv6 address as IPv4), or null when it is not a valid one.
 */
export function cmaAddresses(pd: Uint8Array): CmaAddresses | null {
  try {
    const h = decodeCmaHdr(pd);
    if (h.ipVersion === 6)
      return { src: canonicalAddress(ipv6Text(h.srcAddr)), dst: canonicalAddress(ipv6Text(h.dstAddr)), srcPort: h.srcPort };
    return { src: ipv4FromCmaAddr(h.srcAddr), dst: ipv4FromCmaAddr(h.dstAddr), srcPort: h.srcPort };
  } catch {
    return null;
  }
}

/** A REQ or SIDR_REQ for one listener, with its `cma_hdr` addresses. */
export type RdmaIpListenHandler = (ev: IbCmListenEvent, addrs: CmaAddresses) => void;

/** How a face opens the CM of a port when it is the first to need it. */
export interface RdmaIpCmOpener {
  /** The port's name (the RoCE device's, `softroce0`): the key faces share the CM by. */
  name: string;
  /** Opens QP1 on the face's RNIC. */
  openGsi(): RiGsiPort | RiRet;
  /** The face's RNIC node GUID (the CM's CA GUID). */
  caGuid: bigint;
  /** The port's GID table, read on each REQ. */
  gids(): readonly Uint8Array[];
}

interface Service {
  listener: IbCmListener;
  /** Listeners on this service ID by bound address ('0.0.0.0' = every address). */
  byAddress: Map<string, RdmaIpListenHandler>;
}

/** How long an unused CM stays up: its last DREQ/DREP exchanges finish (ref'd: a process waits that long at most). */
const LINGER_MS = 1000;

/** The IB CM of one RoCE port with its RDMA IP services, shared by the faces of the process. */
export class RdmaIpCm {
  static readonly #all = new Map<string, RdmaIpCm>();
  readonly cm: IbCm;
  readonly services = new Map<bigint, Service>();
  #users = 0;
  #linger: NodeJS.Timeout | null = null;
  #closed = false;

  private constructor(
    readonly name: string,
    readonly gsi: RiGsiPort,
    opener: RdmaIpCmOpener,
  ) {
    // SOFTRDMA_IBCM's per-CM settings (the listeners' are applied per listen by the faces);
    // a malformed value is refused by rdma_listen/rdma_connect, here it is logged and ignored.
    let env: IbCmEnvParams = { listenLimits: {} };
    try {
      env = ibCmParamsFromEnv();
    } catch (e) {
      log('%s: %s (ignored)', name, (e as Error).message);
    }
    this.cm = new IbCm({
      port: gsi,
      caGuid: opener.caGuid,
      gids: () => opener.gids(),
      listenLimits: env.listenLimits,
      ...(env.maxResponseTimeout !== undefined ? { maxResponseTimeout: env.maxResponseTimeout } : {}),
    });
  }

  /** The CM of the port `o.name` (opened through `o` on first use), or the RNICPI status of a failure to open QP1. */
  static of(o: RdmaIpCmOpener): RdmaIpCm | RiRet {
    const have = RdmaIpCm.#all.get(o.name);
    if (have && !have.#closed && !have.gsi.closed) return have;
    have?.close();
    const gsi = o.openGsi();
    if (typeof gsi === 'number') {
      log('%s: QP1 could not be opened: %s', o.name, RiRet[gsi]);
      return gsi;
    }
    const c = new RdmaIpCm(o.name, gsi, o);
    RdmaIpCm.#all.set(o.name, c);
    log('%s: IB CM on QP%d (CA GUID %s)', o.name, gsi.qpn, o.caGuid.toString(16));
    return c;
  }

  get closed(): boolean {
    return this.#closed || this.gsi.closed;
  }

  /** A user (an id, an endpoint, a listener) starts using the CM. */
  hold(): void {
    this.#users++;
    if (this.#linger) clearTimeout(this.#linger);
    this.#linger = null;
  }

  /** A user stops using it; the last one lets it close once idle. */
  release(): void {
    if (this.#users > 0) this.#users--;
    if (this.#users > 0 || this.#closed || this.#linger) return;
    const deadline = Date.now() + LINGER_MS;
    const check = () => {
      this.#linger = null;
      if (this.#users > 0 || this.#closed) return;
      if (this.cm.busy && Date.now() < deadline) {
        this.#linger = setTimeout(check, 50);
        return;
      }
      this.close();
    };
    this.#linger = setTimeout(check, 50);
  }

  /**
   * Listens on `sid` for the listener bound to `address` ('0.0.0.0' for all). False when that
   * address (or the wildcard, or any address against a wildcard) is taken on it.
   */
  listen(sid: bigint, address: string, handler: RdmaIpListenHandler, limits?: Partial<IbCmListenLimits>): boolean {
    let s = this.services.get(sid);
    if (s) {
      const wild = address === '0.0.0.0';
      if (s.byAddress.has(address) || s.byAddress.has('0.0.0.0') || (wild && s.byAddress.size > 0)) return false;
      s.byAddress.set(address, handler);
      return true;
    }
    const byAddress = new Map<string, RdmaIpListenHandler>([[address, handler]]);
    // The first listener of a service sets its limits (one IB CM listener per service ID).
    const listener = this.cm.listen(sid, (ev) => this.#dispatch(sid, ev), limits ? { limits } : {});
    s = { listener, byAddress };
    this.services.set(sid, s);
    return true;
  }

  /** Stops the listener of `address` on `sid`; the CM listener goes with the last one. */
  unlisten(sid: bigint, address: string): void {
    const s = this.services.get(sid);
    if (!s) return;
    s.byAddress.delete(address);
    if (s.byAddress.size === 0) {
      s.listener.close();
      this.services.delete(sid);
    }
  }

  /**
   * A REQ or SIDR_REQ to one of our services: the listener of its `cma_hdr` destination (or the
   * wildcard one). A missing or malformed `cma_hdr`, or no listener on that address, is refused
   * as Linux refuses it: REJ 28 (Consumer Defined), or SIDR_REP Reject.
   */
  #dispatch(sid: bigint, ev: IbCmListenEvent): void {
    const s = this.services.get(sid);
    const pd = ev.type === 'req' ? ev.req.privateData : ev.request.req.privateData;
    const a = cmaAddresses(pd);
    const h = a && s ? (s.byAddress.get(a.dst) ?? s.byAddress.get('0.0.0.0')) : undefined;
    if (!a || !h) {
      log('service %s: %s', sid.toString(16), a ? `no listener on ${a.dst}` : 'no valid cma_hdr');
      if (ev.type === 'req') ev.conn.reject();
      else ev.request.reject();
      return;
    }
    h(ev, a);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#linger) clearTimeout(this.#linger);
    this.#linger = null;
    this.cm.close();
    this.services.clear();
    if (RdmaIpCm.#all.get(this.name) === this) RdmaIpCm.#all.delete(this.name);
    log('%s: IB CM closed', this.name);
  }
}

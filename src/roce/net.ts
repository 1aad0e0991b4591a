/**
 * The UDP layer of RoCEv2 (IBTA Vol. 1 Annex A17: InfiniBand transport packets in UDP
 * datagrams to port 4791), and the only UDP code of the transport, like Linux rxe's
 * `rxe_net.c`:
 *
 * - **one socket per local address** (and port), shared by every QP that sends from that
 *   address; received datagrams are dispatched by the BTH's DestQP (QPNs are unique in the
 *   process);
 * - **two datagram layers behind one surface**: the package's native addon
 *   (`src/util/native-udp.ts`: its own socket polled by the event loop, `recvmmsg` with UDP_GRO
 *   delivering a whole batch in one callback, `sendmmsg` with UDP_SEGMENT for runs of
 *   equal-sized packets to one peer), or Node's `dgram` (one datagram per call and per
 *   `message` event) when the addon was not built, on another OS, or with `SOFTRDMA_NATIVE=0`.
 *   On the native layer, sends are queued and flushed in one `sendmmsg` at the end of the
 *   turn — after the received batch (or timer, or consumer code) and the microtasks it queued
 *   ({@link RoceNet.atTurnEnd}) — so a batch's ACKs, and the requests its consumers posted on
 *   seeing its completions, leave together;
 * - **the ICRC both ways** (`src/wire/ib/icrc.ts`). On transmit it is computed for IPv4 ID 0, and
 *   the socket is made to send ID 0 with `IP_MTU_DISCOVER = IP_PMTUDISC_DO` (Linux then sets DF
 *   and leaves the ID 0 for unfragmentable datagrams of an unconnected socket). Node cannot set
 *   that option: the native layer sets it on its own socket, and the `dgram` path has the addon
 *   set it on the socket's descriptor; without the addon the kernel picks the ID and peers that
 *   check the ICRC (rxe, hardware) drop our packets, while softrdma peers still accept them
 *   (below). {@link RoceNet.ipIdZero} tells which. UDP segmentation numbers the segments of one
 *   send 0, 1, 2, … (Linux `inet_gso_segment`). On the native layer the addon computes each
 *   datagram's ICRC in C as it hands it to `sendmmsg`, for the ID it leaves with
 *   (`native/icrc.c`), so JavaScript makes no pass over the octets for it; on the `dgram`
 *   layer {@link RoceNet.send} computes it.
 *   On receive, a UDP socket does not show the IP header, so the one unknown covered field,
 *   the IPv4 ID, is solved for from the ICRC by CRC linearity (`solveIpv4Id`): a packet no ID
 *   explains is corrupt and is dropped silently, as rxe does (docs/spec-notes.md, "RoCEv2:
 *   ICRC on receive"). The native layer hands each datagram's ICRC for ID 0 with the batch,
 *   so only the solve is left to JavaScript;
 * - **no IP fragmentation**: DF is set, and a datagram larger than the endpoint's
 *   `maxDatagram` is refused (the transport segments at the path MTU, so this is a bug guard);
 * - **bounded receive**: each datagram (or batch) is handled synchronously in its callback —
 *   nothing is queued in user space, so the kernel's socket buffer is the only queue and
 *   overflows drop there, which the RC transport recovers from like any loss. Every datagram
 *   goes through one function, `#onDatagram`, whatever the layer;
 * - **bounded transmit**: the native layer's queue holds at most `MAX_TX_QUEUE` (net-tx.ts) datagrams;
 *   on EAGAIN it waits for the socket to be writable, and senders see the queue in
 *   {@link RoceNet.sendQueueCount} and through each datagram's `onDone`;
 * - **IPv4 and IPv6**: an endpoint's family is its address's. An IPv6 endpoint (RoCEv2 over
 *   IPv6, Annex A17) sets IPV6_DONTFRAG and IPV6_MTU_DISCOVER = IPV6_PMTUDISC_DO (no
 *   fragmentation) and UDP_NO_CHECK6_RX (Linux rxe sends IPv6 datagrams with a zero UDP
 *   checksum, which an IPv6 socket otherwise drops, RFC 6936) and IPV6_AUTOFLOWLABEL = 0 (flow
 *   label 0, traffic class 0, as rxe sends them). IPv6 has no Identification, so
 *   its ICRC check is exact and UDP segmentation needs no per-segment ICRC. A link-local address
 *   (fe80::/10) is used on the interface that holds it: addresses travel without a scope, and the
 *   endpoint adds its own interface when it binds and sends;
 * - the seeded fault hook of the tests (drop, duplicate, reorder, delay, corrupt) on transmit,
 *   and the pcap tap (`SOFTRDMA_PCAP`).
 *
 * Binding is asynchronous: {@link RoceNet.acquire} returns at once, sends are held (bounded)
 * until the socket listens, and a bind error is reported to every attached QP.
 */
import dgram from 'node:dgram';
import { deliverCqNotifications } from '../rnic/cq.js';
import { FaultHook, type FaultPlan } from '../util/fault-hook.js';
import { logger } from '../util/log.js';
import { datagramLayer, ICRC_META_WORD, type NativeUdpSocket, nativeUdp } from '../util/native-udp.js';
import { ROCEV2_PORT } from '../wire/ib/constants.js';
import { canonicalAddress, ipv6Bytes, ipv6Text, isIpv6Address, isIpv6LinkLocal } from '../wire/ib/gid-address.js';
import {
  BTH_LEN,
  checkIcrc,
  decodeIbPacket,
  type IbPacket,
  ICRC_LEN,
  ibPacketPartsLength,
  isIbWireError,
  readIcrc,
  solveIpv4Id,
  writeIcrc,
} from '../wire/ib/index.js';
import { IpIdWindow } from './ipid-window.js';
import {
  IPV4_UDP_OVERHEAD,
  IPV6_UDP_OVERHEAD,
  ipv4Bytes,
  ipv4Number,
  ipv4Text,
  ipv6InterfaceOf,
  isIpv4Multicast,
  linkMtuOf,
  MULTICAST_QPN,
  SOCKET_BUFFER,
  setDgramSocketOptions,
  socketFd,
  udpMembership,
} from './net-host.js';
import { flattenPacket, NativeTxQueue, type RocePacket } from './net-tx.js';
import { RocePcap } from './trace.js';

const log = logger('roce:net');

/** Sends held while the socket binds, at most. */
const MAX_PENDING = 1024;
/** How long an unused endpoint stays open (its last datagrams leave; a new QP may reuse it). */
const CLOSE_DELAY_MS = 50;

/** One received packet, decoded, with where it came from. */
export interface RoceRx {
  pkt: IbPacket;
  /** The whole UDP payload (BTH … ICRC). */
  raw: Uint8Array;
  srcAddress: string;
  srcPort: number;
  /** The local address it was received on (the endpoint's). */
  dstAddress: string;
  /** The IPv4 Identification recovered from the ICRC. */
  ipId: number;
}

/** A targeted fault of the tests (see {@link RoceNet.setTap}). */
export type RoceTap = (pkt: Uint8Array, address: string, port: number) => 'pass' | 'drop' | 'duplicate';

/** What a QP attached to a {@link RoceNet} hears. */
export interface RoceNetClient {
  /** A packet for this QP (DestQP matched, ICRC valid, headers well-formed). */
  rx(r: RoceRx): void;
  /** The socket of `net` failed (bind error, closed under it). */
  netError(err: Error, net: RoceNet): void;
}

/** Counters of one endpoint. */
export interface RoceNetStats {
  txPackets: number;
  txBytes: number;
  txErrors: number;
  /** Calls that handed datagrams to the kernel: `sendmmsg` (native layer), one `send` per datagram (`dgram`). */
  txCalls: number;
  rxPackets: number;
  rxBytes: number;
  /** Dropped: no IPv4 ID makes the ICRC valid. */
  rxIcrcErrors: number;
  /** Dropped: failed the packet checks of `decodeIbPacket` (IBTA §9.6). */
  rxMalformed: number;
  /** Dropped: no QP with that DestQP here. */
  rxNoQp: number;
  /** A client threw while handling a packet (a bug; logged). */
  rxClientErrors: number;
}

/** Receive slots per recvmmsg (each 64 KiB: a GRO datagram, or one datagram up to the IPv4 maximum). */
const RX_SLOTS_GRO = 16;
const RX_SLOTS = 64;

const endpoints = new Map<string, RoceNet>();

/** A UDP endpoint of the RoCEv2 transport; see the module documentation. */
export class RoceNet {
  readonly address: string;
  #port: number;
  /**
   * Largest UDP payload sent: the link MTU of the address's interface less the IPv4 and UDP
   * headers (65507, the IPv4 maximum, when the link MTU is unknown). DF is set, so a larger
   * datagram would not leave; a QP whose path MTU does not fit is refused at INIT→RTR.
   */
  readonly maxDatagram: number;
  readonly stats: RoceNetStats = {
    txPackets: 0,
    txBytes: 0,
    txErrors: 0,
    txCalls: 0,
    rxPackets: 0,
    rxBytes: 0,
    rxIcrcErrors: 0,
    rxMalformed: 0,
    rxNoQp: 0,
    rxClientErrors: 0,
  };
  /** Resolves when the socket listens; rejects with the bind error. */
  readonly ready: Promise<void>;
  readonly #addrBytes: Uint8Array;
  /** True for an IPv6 endpoint. */
  readonly ipv6: boolean;
  /** IPv6 link-local: the interface the endpoint binds and sends on (name for `dgram`, index for the native layer). */
  readonly #scope: { name: string; index: number } | null = null;
  #metaWords = 4;
  /** The `dgram` layer's socket, or null on the native layer. */
  readonly #sock: dgram.Socket | null = null;
  /** The native layer's socket, or null on the `dgram` layer. */
  readonly #nsock: NativeUdpSocket | null = null;
  /** Native: the batch metadata the addon fills (4 words per datagram). */
  #meta: Uint32Array | null = null;
  #gso = false;
  #gro = false;
  /** Native: the transmit queue, flushed at the end of the turn. */
  #tx: NativeTxQueue | null = null;
  /** The end of the turn is scheduled (see {@link RoceNet.atTurnEnd}). */
  #turnEndScheduled = false;
  /** What runs at the end of the turn, before the flush (see {@link RoceNet.atTurnEnd}). */
  #atTurnEnd: (() => void)[] = [];
  readonly #clients = new Map<number, RoceNetClient>();
  #refs = 0;
  #listening = false;
  #closed = false;
  #error: Error | null = null;
  #ipIdZero = false;
  /** The IPv4 IDs accepted from each peer (the receive ICRC check, `ipid-window.ts`). */
  readonly ipIds = new IpIdWindow();
  #pending: [Uint8Array, string, number][] = [];
  #hook: FaultHook | null = null;
  #tap: RoceTap | null = null;
  #held: [Uint8Array, string, number, boolean] | null = null;
  #heldTimer: NodeJS.Timeout | null = null;
  #closeTimer: NodeJS.Timeout | null = null;
  readonly #pcap: RocePcap | null;
  /**
   * A multicast group's endpoint (its address is the group's, 224.0.0.0/4 or ff00::/8): it
   * receives the group's datagrams (DestQP 0xFFFFFF) for every QP attached to it, on the
   * interfaces it joined (a real IGMP or MLD membership through the socket), and sends nothing.
   */
  readonly multicast: boolean;
  /** Multicast: memberships by interface address, counted (the last leave drops it). */
  readonly #joined = new Map<string, number>();

  private constructor(address: string, port: number) {
    this.address = address;
    this.#port = port;
    this.ipv6 = isIpv6Address(address);
    this.#addrBytes = this.ipv6 ? ipv6Bytes(address) : ipv4Bytes(address);
    this.multicast = this.ipv6 ? this.#addrBytes[0] === 0xff : isIpv4Multicast(address);
    if (this.ipv6 && isIpv6LinkLocal(this.#addrBytes)) this.#scope = ipv6InterfaceOf(address);
    const link = linkMtuOf(address);
    const overhead = this.ipv6 ? IPV6_UDP_OVERHEAD : IPV4_UDP_OVERHEAD;
    this.maxDatagram = link ? Math.min(65507, link - overhead) : 65507;
    this.#pcap = RocePcap.open(address, port);
    const native = nativeUdp();
    if (native) {
      this.#nsock = new native.UdpSocket(
        (buf, n) => this.#onBatch(buf, n),
        () => this.#tx?.onWritable(),
      );
      this.#tx = new NativeTxQueue(native, this.#nsock, this.ipv6, this, this.#pcap);
      const layer = datagramLayer();
      let err: Error | null = null;
      try {
        const bindTo = this.ipv6 ? this.#addrBytes : ipv4Number(address);
        const r = this.#nsock.bind(
          bindTo,
          port,
          SOCKET_BUFFER,
          SOCKET_BUFFER,
          this.multicast,
          layer.gro,
          65536,
          layer.gro ? RX_SLOTS_GRO : RX_SLOTS,
          this.#scope?.index ?? 0,
        );
        this.#meta = r.meta;
        this.#metaWords = r.metaWords ?? 4;
        if (this.#metaWords <= ICRC_META_WORD) throw new Error('the native layer predates the ICRC in C (rebuild it)');
        this.#gso = r.gso && layer.gso;
        this.#tx.gso = this.#gso;
        this.#gro = r.gro;
        this.#ipIdZero = true;
        this.#listening = true;
        if (this.#port === 0) this.#port = r.port;
        const mif = this.#multicastIf6();
        if (mif) this.#nsock.multicastIf6(mif.index);
      } catch (e) {
        err = e as Error;
      }
      // The endpoint map is keyed by the real port (port 0 binds a fresh one each time).
      if (port === 0 && !err) endpoints.set(`${address}:${this.#port}`, this);
      log('%s:%d native (GSO %s, GRO %s)%s', address, this.#port, this.#gso, this.#gro, err ? `: ${err.message}` : '');
      if (err) {
        // As a dgram bind error: reported to every client (attach), sends held and dropped.
        this.#error = err;
        this.#nsock.close();
        this.ready = Promise.reject(err);
      } else this.ready = Promise.resolve();
      this.ready.catch(() => {});
      return;
    }
    // Several sockets of a host (processes, RNICs) may receive one group: SO_REUSEADDR, as
    // every multicast receiver sets it; unicast endpoints keep their address exclusive.
    const sock = dgram.createSocket({
      type: this.ipv6 ? 'udp6' : 'udp4',
      ipv6Only: this.ipv6,
      recvBufferSize: SOCKET_BUFFER,
      sendBufferSize: SOCKET_BUFFER,
      reuseAddr: this.multicast,
    });
    this.#sock = sock;
    sock.on('message', (msg, rinfo) => this.#onMessage(msg, rinfo));
    this.ready = new Promise<void>((resolve, reject) => {
      sock.once('listening', () => {
        this.#listening = true;
        if (this.#port === 0) {
          this.#port = sock.address().port;
          endpoints.delete(`${address}:0`);
          endpoints.set(`${address}:${this.#port}`, this);
        }
        this.#setIpIdZero();
        const mif = this.#multicastIf6();
        if (mif) {
          try {
            sock.setMulticastInterface(`::%${mif.name}`);
          } catch (e) {
            log('%s: IPV6_MULTICAST_IF %s: %s', address, mif.name, (e as Error).message);
          }
        }
        log('%s:%d listening (IPv4 ID 0: %s)', address, port, this.#ipIdZero);
        for (const iface of this.#joined.keys()) this.#addMembership(iface);
        const q = this.#pending;
        this.#pending = [];
        for (const [b, a, p] of q) this.#sendNow(b, a, p);
        resolve();
      });
      sock.on('error', (err) => {
        log('%s:%d socket error: %s', address, port, err.message);
        if (!this.#listening) {
          this.#fail(err);
          reject(err);
        } else {
          this.stats.txErrors++;
        }
      });
    });
    // Nobody may be awaiting it: a bind error is reported to the clients instead.
    this.ready.catch(() => {});
    sock.bind(port, this.#withScope(address));
  }

  /** `address` as the `dgram` layer takes it: a link-local IPv6 address with this endpoint's interface. */
  #withScope(address: string): string {
    return this.#scope && isIpv6LinkLocal(ipv6Bytes(address)) ? `${canonicalAddress(address)}%${this.#scope.name}` : address;
  }

  /**
   * The endpoint for `address:port`, created (and bound in the background) on first use;
   * every acquire is matched by a {@link release}. Port 0 (tests) binds a fresh ephemeral
   * port every time.
   */
  static acquire(address: string, port = ROCEV2_PORT): RoceNet {
    const key = `${address}:${port}`;
    let n = port === 0 ? undefined : endpoints.get(key);
    if (!n || n.#closed) {
      n = new RoceNet(address, port);
      if (port !== 0 || !n.#nsock) endpoints.set(key, n);
    }
    n.#refs++;
    if (n.#closeTimer) {
      clearTimeout(n.#closeTimer);
      n.#closeTimer = null;
    }
    return n;
  }

  /** The endpoint for `address:port` if one is open. */
  static find(address: string, port = ROCEV2_PORT): RoceNet | undefined {
    return endpoints.get(`${address}:${port}`);
  }

  /**
   * Drops one reference; the last closes the socket a little later, so that what was just
   * sent (a QP's last NAK before it entered Error) leaves first, and so that a QP bound right
   * after reuses the socket.
   */
  release(): void {
    if (this.#refs > 0) this.#refs--;
    if (this.#refs > 0 || this.#closeTimer) return;
    this.#closeTimer = setTimeout(() => {
      this.#closeTimer = null;
      if (this.#refs === 0) this.close();
    }, CLOSE_DELAY_MS);
  }

  /** Closes the socket now (attached clients hear `netError`). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#closeTimer) clearTimeout(this.#closeTimer);
    this.#closeTimer = null;
    if (endpoints.get(`${this.address}:${this.port}`) === this) endpoints.delete(`${this.address}:${this.port}`);
    if (this.#heldTimer) clearTimeout(this.#heldTimer);
    this.#held = null;
    this.#pending = [];
    // Datagrams still queued for the native socket are dropped with it; their senders hear onDone.
    this.#tx?.clear();
    try {
      this.#sock?.close();
      this.#nsock?.close();
    } catch {
      // already closed
    }
    this.#pcap?.close();
  }

  /**
   * True when a packet given as parts leaves as parts (the native layer, with no capture, tap or
   * fault hook); otherwise {@link send} copies it into one buffer, so a sender should encode it
   * whole.
   */
  get gathers(): boolean {
    return this.#tx !== null && !this.#tap && !this.#hook && !this.#pcap;
  }

  /** True once the socket is closed. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * A unicast IPv6 endpoint sends its group datagrams out of the interface that holds its
   * address (IPV6_MULTICAST_IF), as an IPv4 one does from its bound address: else the kernel
   * picks an interface by route, and a UD QP's datagram to an IPv6 group could leave elsewhere.
   */
  #multicastIf6(): { name: string; index: number } | null {
    if (!this.ipv6 || this.multicast) return null;
    const itf = this.#scope ?? ipv6InterfaceOf(this.address);
    return itf && itf.index > 0 ? itf : null;
  }

  /** The UDP port (for port 0, the one the kernel chose, once {@link ready}). */
  get port(): number {
    return this.#port;
  }

  /** The datagram layer in use: `'native'` (with `gso`/`gro` as enabled on its socket) or `'dgram'`. */
  get layer(): { kind: 'native' | 'dgram'; gso: boolean; gro: boolean } {
    return { kind: this.#nsock ? 'native' : 'dgram', gso: this.#gso, gro: this.#gro };
  }

  /** True once `IP_MTU_DISCOVER = IP_PMTUDISC_DO` is set: datagrams leave with IPv4 ID 0. */
  get ipIdZero(): boolean {
    return this.#ipIdZero;
  }

  /** Directs packets for `qpn` to `client` (RangeError if the QPN is taken here). */
  attach(qpn: number, client: RoceNetClient): void {
    if (this.#clients.has(qpn)) throw new RangeError(`QPN ${qpn} already attached to ${this.address}:${this.port}`);
    this.#clients.set(qpn, client);
    if (this.#error) queueMicrotask(() => client.netError(this.#error!, this));
  }

  /**
   * Multicast endpoints: joins the group on the interface of `iface` (an address of ours), or
   * counts one more user of that membership. An interface without multicast (Linux `lo` unless
   * `ip link set lo multicast on`) refuses it: logged, the other interfaces still receive.
   */
  join(iface: string): void {
    if (!this.multicast || isIpv6Address(iface) !== this.ipv6) return;
    const n = this.#joined.get(iface) ?? 0;
    this.#joined.set(iface, n + 1);
    if (n === 0 && this.#listening) this.#addMembership(iface);
  }

  /** Multicast endpoints: one user less of the membership on `iface`; the last one leaves the group (IGMP leave). */
  leave(iface: string): void {
    const n = this.#joined.get(iface) ?? 0;
    if (n <= 1) {
      this.#joined.delete(iface);
      if (n === 1 && this.#listening && !this.#closed) {
        try {
          udpMembership(this.#nsock ?? this.#sock!, this.address, this.#addrBytes, iface, false);
        } catch (e) {
          log('%s: leaving on %s: %s', this.address, iface, (e as Error).message);
        }
      }
    } else this.#joined.set(iface, n - 1);
  }

  #addMembership(iface: string): void {
    try {
      udpMembership(this.#nsock ?? this.#sock!, this.address, this.#addrBytes, iface, true);
      log('%s:%d joined on %s', this.address, this.port, iface);
    } catch (e) {
      log('%s:%d cannot join on %s: %s', this.address, this.port, iface, (e as Error).message);
    }
  }

  /** True when a QP with this number is attached here (QP1 of another RNIC on this address). */
  has(qpn: number): boolean {
    return this.#clients.has(qpn);
  }

  detach(qpn: number, client?: RoceNetClient): void {
    if (client && this.#clients.get(qpn) !== client) return;
    this.#clients.delete(qpn);
  }

  /**
   * Installs (or removes, with null) a targeted fault for tests: called with every packet
   * before the seeded fault hook; `'drop'` loses it, `'duplicate'` sends it twice.
   */
  setTap(tap: RoceTap | null): void {
    this.#tap = tap;
  }

  /** Installs (or removes, with null) the seeded fault hook applied to every datagram sent. */
  setFaults(plan: FaultPlan | null): FaultHook | null {
    this.#hook = plan ? new FaultHook(plan) : null;
    return this.#hook;
  }

  /** Datagrams the socket has not handed to the kernel yet (backpressure for senders). */
  get sendQueueCount(): number {
    if (this.#tx) return this.#tx.count;
    return this.#pending.length + (this.#listening && !this.#closed ? this.#sock!.getSendQueueCount() : 0);
  }

  /**
   * Sends one packet (BTH … ICRC; the ICRC octets are overwritten with its ICRC: for IPv4 ID 0
   * and DF, or on the native layer for the ID it leaves with) to `address:port`. The buffer must
   * not be changed afterwards. `onDone`, if given, is called once the datagram has left the
   * socket's queue (sent, dropped by the fault hook, or failed), so a sender can bound what it
   * has queued.
   */
  send(packet: RocePacket, address: string, port = this.port, onDone?: () => void): void {
    if (this.#closed) {
      onDone?.();
      return;
    }
    const len = ibPacketPartsLength(packet);
    if (len > this.maxDatagram) throw new RangeError(`datagram of ${len} octets exceeds ${this.maxDatagram} (no IP fragmentation)`);
    let dst: Uint8Array;
    try {
      dst = this.ipv6 ? ipv6Bytes(address) : ipv4Bytes(address);
    } catch {
      // A destination of the other family cannot be reached from this endpoint.
      this.stats.txErrors++;
      log('%s:%d cannot send to %s (another address family)', this.address, this.port, address);
      onDone?.();
      return;
    }
    // The native layer gathers a packet's parts and computes the ICRC as it sends them (for
    // the IPv4 ID each datagram gets); only its plain path takes them as they are.
    if (Array.isArray(packet) && this.#nsock && !this.#tap && !this.#hook && !this.#pcap) {
      this.#enqueue(packet, len, address, port, onDone, true);
      return;
    }
    const pkt = Array.isArray(packet) ? flattenPacket(packet, len) : (packet as Uint8Array);
    const ip = { src: this.#addrBytes, dst, srcPort: this.port, dstPort: port, ipId: 0 };
    if (!this.#nsock) writeIcrc(ip, pkt);
    const t = this.#tap?.(pkt, address, port) ?? 'pass';
    if (t === 'drop') return;
    // A copy: the native layer may give the two sends different IPv4 IDs (and ICRCs).
    if (t === 'duplicate') this.#sendNow(pkt.slice(), address, port);
    const h = this.#hook;
    if (!h) {
      this.#sendNow(pkt, address, port, onDone);
      return;
    }
    // The fault hook's delays and reordering keep their own (bounded) copies.
    onDone?.();
    const d = h.decide();
    if (d.drop) return;
    let b = pkt;
    let asIs = false;
    if (d.corrupt && b.length > BTH_LEN + ICRC_LEN) {
      b = b.slice();
      if (this.#nsock) writeIcrc(ip, b);
      asIs = true;
      // Any bit the ICRC covers except octet 4 of the BTH (masked): the receiver must drop it.
      let bit = h.pick((b.length - ICRC_LEN) * 8 - 8);
      if (bit >= 32) bit += 8;
      b[bit >> 3]! ^= 1 << (bit & 7);
    }
    const out = (x: Uint8Array) => {
      if (d.delayMs) setTimeout(() => this.#sendNow(x, address, port, undefined, asIs), d.delayMs).unref();
      else this.#sendNow(x, address, port, undefined, asIs);
    };
    if (d.reorder && !this.#held) {
      // Hold it back until the next datagram has gone (or 2 ms, whichever is first).
      this.#held = [b, address, port, asIs];
      this.#heldTimer = setTimeout(() => this.#flushHeld(), 2);
      this.#heldTimer.unref();
      if (d.duplicate) out(b.slice());
      return;
    }
    out(b);
    if (d.duplicate) out(b.slice());
    this.#flushHeld();
  }

  #flushHeld(): void {
    if (this.#heldTimer) clearTimeout(this.#heldTimer);
    this.#heldTimer = null;
    const h = this.#held;
    this.#held = null;
    if (h) this.#sendNow(h[0], h[1], h[2], undefined, h[3]);
  }

  /** `asIs`: the native layer sends the octets as they are (the ICRC is not computed again). */
  #sendNow(pkt: Uint8Array, address: string, port: number, onDone?: () => void, asIs = false): void {
    if (this.#closed) {
      onDone?.();
      return;
    }
    if (!this.#listening) {
      if (this.#pending.length < MAX_PENDING) this.#pending.push([pkt, address, port]);
      onDone?.();
      return;
    }
    if (this.#nsock) {
      this.#enqueue(pkt, pkt.length, address, port, onDone, !asIs);
      return;
    }
    this.stats.txPackets++;
    this.stats.txBytes += pkt.length;
    this.stats.txCalls++;
    this.#pcap?.datagram(this.address, this.port, address, port, pkt, 0);
    this.#sock!.send(pkt, port, this.#withScope(address), (err) => {
      onDone?.();
      if (err) {
        this.stats.txErrors++;
        log('%s:%d send to %s:%d failed: %s', this.address, this.port, address, port, err.message);
      }
    });
  }

  // ----------------------------------------------------------------- native transmit

  #enqueue(pkt: RocePacket, len: number, address: string, port: number, onDone: (() => void) | undefined, icrc: boolean): void {
    const tx = this.#tx!;
    if (!tx.push(pkt, len, this.ipv6 ? (this.#scope?.index ?? 0) : ipv4Number(address), address, port, onDone, icrc) || tx.waiting) return;
    if (tx.full) tx.flush();
    else this.#scheduleTurnEnd();
  }

  /**
   * Runs `fn` once at the end of the current turn: after the callback that is running (a
   * received batch, a timer, a consumer's code) and after every microtask it queued — so after
   * a consumer that polls its CQ from a microtask has seen the turn's completions and posted
   * its next work requests — and right before the datagrams the turn queued are handed to the
   * kernel. A QP coalesces its ACKs with it: the ACKs of a batch leave in the same `sendmmsg`
   * as the requests and responses the same turn produced. On the `dgram` layer it runs at the
   * same point (each datagram is its own turn there, and each send its own call).
   */
  atTurnEnd(fn: () => void): void {
    this.#atTurnEnd.push(fn);
    this.#scheduleTurnEnd();
  }

  /**
   * The end of a turn is the first `process.nextTick` queued from a microtask: Node runs a
   * callback's microtasks to the end (including those they queue) before its next-tick queue,
   * and a next tick queued meanwhile runs after them, before the event loop goes on. A next
   * tick queued directly from the callback would run before its microtasks.
   */
  #scheduleTurnEnd(): void {
    if (this.#turnEndScheduled) return;
    this.#turnEndScheduled = true;
    queueMicrotask(this.#toNextTick);
  }

  readonly #toNextTick = (): void => process.nextTick(this.#turnEnd);

  readonly #turnEnd = (): void => {
    const fns = this.#atTurnEnd;
    if (fns.length > 0) {
      this.#atTurnEnd = [];
      for (const fn of fns) {
        try {
          fn();
        } catch (e) {
          log('%s:%d end-of-turn work failed: %s', this.address, this.port, (e as Error).stack ?? String(e));
        }
      }
    }
    // Cleared after the hooks: what they queue leaves in this flush.
    this.#turnEndScheduled = false;
    if (this.#tx && this.#tx.count > 0) this.#tx.flush();
  };

  #setIpIdZero(): void {
    const fd = this.#sock ? socketFd(this.#sock) : null;
    if (fd === null) return;
    try {
      this.#ipIdZero = setDgramSocketOptions(fd, this.ipv6);
    } catch (e) {
      log('IP_MTU_DISCOVER failed: %s', (e as Error).message);
    }
  }

  #fail(err: Error): void {
    this.#error = err;
    for (const c of [...this.#clients.values()]) c.netError(err, this);
  }

  /** The `dgram` layer: one datagram per `message` event. */
  #onMessage(msg: Buffer, rinfo: dgram.RemoteInfo): void {
    const raw = new Uint8Array(msg.buffer, msg.byteOffset, msg.length);
    if (rinfo.family !== (this.ipv6 ? 'IPv6' : 'IPv4')) {
      this.stats.rxBytes += raw.length;
      this.stats.rxMalformed++;
      return;
    }
    this.#onDatagram(raw, this.ipv6 ? canonicalAddress(rinfo.address) : rinfo.address, rinfo.port);
    // The completions this datagram made reach their consumers now, from the wire's callback.
    deliverCqNotifications();
  }

  /**
   * The native layer: a batch of datagrams in one buffer (offset, length, source address and
   * port of each in the metadata words), handled in one turn; what the batch made the QPs send,
   * and what their consumers posted on seeing its completions, leaves in one flush at the end
   * of the turn ({@link RoceNet.atTurnEnd}).
   */
  #onBatch(buf: Buffer, count: number): void {
    const meta = this.#meta;
    if (!meta || this.#closed) return;
    const stride = this.#metaWords;
    const metaOctets = this.ipv6 ? new Uint8Array(meta.buffer, meta.byteOffset, meta.byteLength) : null;
    for (let i = 0, w = 0; i < count && !this.#closed; i++, w += stride) {
      const off = meta[w]!;
      const len = meta[w + 1]!;
      if (off + len > buf.length) break;
      const src = metaOctets ? canonicalAddress(ipv6Text(metaOctets.subarray((w + 4) * 4, (w + 8) * 4))) : ipv4Text(meta[w + 2]!);
      this.#onDatagram(new Uint8Array(buf.buffer, buf.byteOffset + off, len), src, meta[w + 3]!, meta[w + ICRC_META_WORD]!);
    }
    // The batch's completions reach their consumers now, once, from the wire's callback; what
    // they post leaves with the batch's ACKs at the end of the turn.
    deliverCqNotifications();
  }

  /**
   * Every received datagram, whatever the layer: the ICRC (solving for the IPv4 ID), the
   * packet checks, then the QP(s) its DestQP names. `icrc`: the ICRC the native layer computed
   * from the datagram and its addresses (IPv4: for ID 0 and DF), so none is computed here.
   */
  #onDatagram(raw: Uint8Array, srcAddress: string, srcPort: number, icrc?: number): void {
    this.stats.rxBytes += raw.length;
    if (raw.length < BTH_LEN + ICRC_LEN) {
      this.stats.rxMalformed++;
      return;
    }
    let srcBytes: Uint8Array;
    try {
      srcBytes = this.ipv6 ? ipv6Bytes(srcAddress) : ipv4Bytes(srcAddress);
    } catch {
      this.stats.rxMalformed++;
      return;
    }
    // IPv6: no Identification, so the check is exact (IBTA Vol. 1 Annex A17.4.3 masks the rest).
    const ip = { src: srcBytes, dst: this.#addrBytes, srcPort, dstPort: this.port };
    const id = this.ipv6
      ? (icrc !== undefined ? icrc === readIcrc(raw) : checkIcrc(ip, raw))
        ? { ipId: 0 }
        : null
      : solveIpv4Id(ip, raw, this.ipIds.acceptFrom(srcAddress), icrc);
    if (!id) {
      this.stats.rxIcrcErrors++;
      if (log.enabled) log('%s:%d drop from %s:%d: bad ICRC', this.address, this.port, srcAddress, srcPort);
      return;
    }
    this.#pcap?.datagram(srcAddress, srcPort, this.address, this.port, raw, id.ipId);
    let pkt: IbPacket;
    try {
      pkt = decodeIbPacket(raw);
    } catch (e) {
      if (!isIbWireError(e)) throw e;
      this.stats.rxMalformed++;
      if (log.enabled) log('%s:%d drop: %s', this.address, this.port, e.message);
      return;
    }
    // A group's datagram (DestQP 0xFFFFFF, IBTA Vol. 1 §10.5) goes to every QP attached to it.
    const targets = this.multicast
      ? pkt.bth.destQp === MULTICAST_QPN
        ? [...this.#clients.values()]
        : []
      : [this.#clients.get(pkt.bth.destQp)].filter((c) => c !== undefined);
    if (targets.length === 0) {
      this.stats.rxNoQp++;
      return;
    }
    this.stats.rxPackets++;
    const r: RoceRx = { pkt, raw, srcAddress, srcPort, dstAddress: this.address, ipId: id.ipId };
    for (const c of targets) {
      try {
        c.rx(r);
      } catch (e) {
        // A bug in a client must not take the socket (and every other QP) down with it.
        this.stats.rxClientErrors++;
        log('QP %d: error handling a packet: %s', pkt.bth.destQp, (e as Error).stack ?? String(e));
      }
    }
  }
}

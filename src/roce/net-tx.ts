/**
 * The native datagram layer's transmit queue of one RoCEv2 endpoint (`src/roce/net.ts`): the
 * datagrams a turn queued, handed to the kernel in as few `sendmmsg` calls as they fit —
 * runs of equal-sized datagrams to one peer as UDP_SEGMENT messages, packets given in parts
 * gathered by the kernel, the ICRC of each computed by the addon as it sends it (`TX_ICRC`,
 * `native/icrc.c`) — with the queue bounded ({@link MAX_TX_QUEUE}) and EAGAIN waited out on
 * the socket's writability. The endpoint decides when to flush (the end of the turn).
 */
import { logger } from '../util/log.js';
import type { NativeUdp, NativeUdpSocket } from '../util/native-udp.js';
import { ipv6Bytes } from '../wire/ib/index.js';
import { SEGMENT_RUN_IDS as MAX_GSO_SEGS } from './ipid-window.js';
import type { RocePcap } from './trace.js';

const log = logger('roce:net');

/** Datagrams the native layer's transmit queue holds at most (beyond: dropped, counted in txErrors). */
export const MAX_TX_QUEUE = 8192;
/** Iovecs of one message (Linux UIO_MAXIOV). */
const MAX_MSG_IOV = 1024;
/** Octets per UDP_SEGMENT send (the IPv4 datagram limit less headers); segments: {@link MAX_GSO_SEGS}. */
const MAX_GSO_BYTES = 65507;
const EAGAIN = 11;

/**
 * A packet to send (BTH … ICRC): one buffer, or its parts in order — the headers (the BTH
 * within the first), payload views, and last the pad and the 4 ICRC octets (`encodeIbPacketGather`).
 */
export type RocePacket = Uint8Array | readonly Uint8Array[];

/** The parts of a packet in one buffer of `len` octets (the `dgram` path, the capture, the fault hook). */
export function flattenPacket(parts: readonly Uint8Array[], len: number): Uint8Array {
  const b = new Uint8Array(len);
  let o = 0;
  for (const x of parts) {
    b.set(x, o);
    o += x.length;
  }
  return b;
}

/** Iovecs a packet takes in a send call. */
const iovCount = (p: RocePacket): number => (Array.isArray(p) ? p.length : 1);

/** A datagram waiting in the queue. */
interface TxItem {
  pkt: RocePacket;
  /** Its octets. */
  len: number;
  /** The destination as the addon takes it: an IPv4 address as a number, or an IPv6 scope id. */
  addr: number;
  address: string;
  port: number;
  onDone: (() => void) | undefined;
  /** The addon computes its ICRC as it sends it (false: sent as it is, e.g. corrupted by the fault hook). */
  icrc: boolean;
}

/** What the queue reads of its endpoint. */
export interface TxOwner {
  readonly address: string;
  readonly port: number;
  readonly closed: boolean;
  readonly stats: { txPackets: number; txBytes: number; txErrors: number; txCalls: number };
}

/** The transmit queue; see the module documentation. */
export class NativeTxQueue {
  /** UDP_SEGMENT is on (set once the socket is bound). */
  gso = false;
  readonly #ns: NativeUdpSocket;
  readonly #owner: TxOwner;
  readonly #pcap: RocePcap | null;
  /** The queue, from {@link #head} on. */
  #q: TxItem[] = [];
  #head = 0;
  #waiting = false;
  readonly #msgs: Uint32Array;
  /** IPv6: the destination of each message of a send call, 16 octets each. */
  readonly #addrs6: Uint8Array | null;
  readonly #pkts: RocePacket[] = [];
  /** The ICRC octets of one send call's packets (one found twice goes from a copy). */
  readonly #seen = new Set<Uint8Array>();
  /** The addon's TX_ICRC flag of a message's port word, and its iovecs per call. */
  readonly #icrcFlag: number;
  readonly #maxIov: number;

  constructor(native: NativeUdp, ns: NativeUdpSocket, ipv6: boolean, owner: TxOwner, pcap: RocePcap | null) {
    this.#ns = ns;
    this.#owner = owner;
    this.#pcap = pcap;
    this.#msgs = new Uint32Array(native.MAX_TX_MSGS * 5);
    this.#addrs6 = ipv6 ? new Uint8Array(native.MAX_TX_MSGS * 16) : null;
    this.#icrcFlag = native.TX_ICRC;
    this.#maxIov = native.MAX_TX_IOV;
  }

  /** Datagrams not handed to the kernel yet. */
  get count(): number {
    return this.#q.length - this.#head;
  }

  /** True while a flush waits for the socket to be writable (EAGAIN). */
  get waiting(): boolean {
    return this.#waiting;
  }

  /** True when enough is queued to flush before the end of the turn. */
  get full(): boolean {
    return this.count >= MAX_GSO_SEGS * 4;
  }

  /** Queues a datagram; false when the queue is full (the datagram is dropped, counted, `onDone` called). */
  push(
    pkt: RocePacket,
    len: number,
    addr: number,
    address: string,
    port: number,
    onDone: (() => void) | undefined,
    icrc: boolean,
  ): boolean {
    if (this.count >= MAX_TX_QUEUE) {
      this.#owner.stats.txErrors++;
      onDone?.();
      return false;
    }
    this.#q.push({ pkt, len, addr, address, port, onDone, icrc });
    return true;
  }

  /** Drops what is queued (the socket is closing): each sender hears `onDone`. */
  clear(): void {
    const q = this.#q;
    const h = this.#head;
    this.#q = [];
    this.#head = 0;
    for (let i = h; i < q.length; i++) q[i]!.onDone?.();
  }

  /** The socket can take more: the flush that met EAGAIN goes on. */
  onWritable(): void {
    this.#waiting = false;
    this.flush();
  }

  /**
   * Hands the queue to the kernel, {@link NativeUdpSocket.send} at a time: each run of
   * equal-sized datagrams to one peer (the last may be shorter) is one UDP_SEGMENT message
   * when the kernel has it. The addon computes each datagram's ICRC as it sends it, for the
   * IPv4 ID it leaves with (segment k of a run: ID k), and writes it into the datagram's last
   * octets; a datagram found twice in one call is sent from a copy, so each copy keeps its
   * own. Stops on EAGAIN until the socket is writable.
   */
  flush(): void {
    const ns = this.#ns;
    const o = this.#owner;
    if (o.closed || this.#waiting) return;
    const q = this.#q;
    const msgs = this.#msgs;
    const pkts = this.#pkts;
    const seen = this.#seen;
    const maxMsgs = msgs.length / 5;
    const flag = this.#icrcFlag;
    while (this.#head < q.length) {
      pkts.length = 0;
      seen.clear();
      let m = 0;
      let i = this.#head;
      // Iovecs of the call (the addon's MAX_TX_IOV), and of one message (the kernel's UIO_MAXIOV).
      let iovs = 0;
      while (i < q.length && m < maxMsgs && (m === 0 || iovs < this.#maxIov - MAX_MSG_IOV)) {
        const first = q[i]!;
        const len = first.len;
        let n = 1;
        let run = iovCount(first.pkt);
        if (this.gso) {
          while (n < MAX_GSO_SEGS && i + n < q.length && (n + 1) * len <= MAX_GSO_BYTES) {
            const x = q[i + n]!;
            if (
              x.addr !== first.addr ||
              x.address !== first.address ||
              x.port !== first.port ||
              x.icrc !== first.icrc ||
              x.len > len ||
              q[i + n - 1]!.len !== len
            )
              break;
            const c = iovCount(x.pkt);
            if (run + c > MAX_MSG_IOV) break;
            run += c;
            n++;
          }
        }
        iovs += run;
        const w = m * 5;
        msgs[w] = first.addr;
        msgs[w + 1] = first.icrc ? (first.port | flag) >>> 0 : first.port;
        msgs[w + 2] = pkts.length;
        msgs[w + 3] = n;
        msgs[w + 4] = n > 1 ? len : 0;
        if (this.#addrs6) this.#addrs6.set(ipv6Bytes(first.address), m * 16);
        for (let k = 0; k < n; k++) {
          const p = q[i + k]!.pkt;
          // The addon writes the ICRC into the last part: one written twice goes as a copy.
          const icrcAt = Array.isArray(p) ? p[p.length - 1]! : (p as Uint8Array);
          if (!seen.has(icrcAt)) {
            seen.add(icrcAt);
            pkts.push(p);
          } else pkts.push(Array.isArray(p) ? [...p.slice(0, -1), icrcAt.slice()] : icrcAt.slice());
        }
        i += n;
        m++;
      }
      o.stats.txCalls++;
      const r = this.#addrs6 ? ns.send(pkts, msgs, 0, m, this.#addrs6) : ns.send(pkts, msgs, 0, m);
      if (r === -EAGAIN) {
        this.#waiting = true;
        ns.pollWritable();
        break;
      }
      // Sent: messages 0 … r−1. A hard error (r < 0) costs the first message only.
      const done = r > 0 ? r : 1;
      for (let j = 0; j < done; j++) {
        const w = j * 5;
        const p0 = msgs[w + 2]!;
        const n = msgs[w + 3]!;
        for (let k = 0; k < n; k++) {
          const it = q[this.#head + k]!;
          if (r > 0) {
            o.stats.txPackets++;
            o.stats.txBytes += it.len;
            // With a capture on, packets are sent whole (see send).
            this.#pcap?.datagram(o.address, o.port, it.address, it.port, pkts[p0 + k] as Uint8Array, n > 1 ? k : 0);
          } else o.stats.txErrors++;
          it.onDone?.();
        }
        if (r < 0) log('%s:%d send to %s:%d failed: errno %d', o.address, o.port, q[this.#head]!.address, q[this.#head]!.port, -r);
        this.#head += n;
      }
      if (o.closed) return;
    }
    if (this.#head === q.length) {
      this.#q = [];
      this.#head = 0;
    } else if (this.#head > 4096) {
      this.#q = q.slice(this.#head);
      this.#head = 0;
    }
    pkts.length = 0;
    seen.clear();
  }
}

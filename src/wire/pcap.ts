/**
 * A classic libpcap writer with synthesized Ethernet/IPv4/TCP framing, so the stack's own
 * traffic can be saved and opened in Wireshark/tshark (whose `iwarp_mpa` heuristic needs the
 * MPA Request/Reply exchange, so write connections from their start).
 *
 * File format: the libpcap "classic" format (magic 0xa1b2c3d4, version 2.4, microsecond
 * timestamps), link type 1 (Ethernet), all fields written little-endian (readers detect byte
 * order from the magic). Each `send` becomes one or more TCP segments with PSH|ACK, with
 * correct IPv4 header and TCP checksums; a connection starts with SYN, SYN-ACK, ACK and ends
 * with FIN/ACK from both sides. {@link PcapWriter.udpDatagram} writes single UDP datagrams
 * (RoCEv2: port 4791).
 *
 * @packageDocumentation
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { ROCEV2_PORT } from './ib/constants.js';
import { ipv6Bytes } from './ib/gid-address.js';

/** One end of a TCP connection. */
export interface PcapEndpoint {
  /** Dotted-quad IPv4 address (TCP and UDP), or IPv6 text (UDP only). */
  ip: string;
  port: number;
  /** 6-octet MAC; derived from the IP address when absent. */
  mac?: Uint8Array;
}

/** Options of {@link PcapWriter}. */
export interface PcapWriterOptions {
  /** Snapshot length recorded in the header (default 262144); frames are never truncated. */
  snaplen?: number;
  /** Timestamp source in microseconds since the epoch (default: wall clock, kept increasing). */
  clockMicros?: () => number;
}

/** Options of {@link PcapWriter.tcpConnection}. */
export interface PcapConnectionOptions {
  /** Initial sequence numbers (default: derived from the endpoints). */
  isnA?: number;
  isnB?: number;
  /** Largest TCP payload per segment; default 65495, the IPv4 maximum (65535 − 40). */
  maxSegment?: number;
  /** Write the SYN/SYN-ACK/ACK handshake (default true). */
  handshake?: boolean;
}

/** libpcap magic for microsecond timestamps. */
export const PCAP_MAGIC = 0xa1b2c3d4;
/** LINKTYPE_ETHERNET. */
export const PCAP_LINKTYPE_ETHERNET = 1;
/** The largest TCP payload an IPv4 packet without options can carry. */
export const PCAP_MAX_TCP_PAYLOAD = 0xffff - 20 - 20;

const ETH_LEN = 14;
const IP_LEN = 20;
const IP6_LEN = 40;
const TCP_LEN = 20;
const UDP_LEN = 8;
const TCP_FIN = 0x01;
const TCP_SYN = 0x02;
const TCP_PSH = 0x08;
const TCP_ACK = 0x10;

function parseIpv4(ip: string): Uint8Array {
  const parts = ip.split('.').map((p) => Number(p));
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) {
    throw new RangeError(`not an IPv4 address: ${ip}`);
  }
  return Uint8Array.from(parts);
}

/** One's-complement sum of 16-bit big-endian words (RFC 1071), not yet folded. */
function sum16(buf: Uint8Array, start: number, end: number, acc = 0): number {
  let s = acc;
  let i = start;
  for (; i + 1 < end; i += 2) s += (buf[i]! << 8) | buf[i + 1]!;
  if (i < end) s += buf[i]! << 8;
  return s;
}

function fold(s: number): number {
  let x = s;
  while (x > 0xffff) x = (x & 0xffff) + Math.floor(x / 0x10000);
  return ~x & 0xffff;
}

/** One UDP datagram for {@link PcapWriter.udpDatagram}. */
export interface PcapUdpDatagram {
  src: PcapEndpoint;
  dst: PcapEndpoint;
  payload: Uint8Array;
  /** IPv4 Identification (default: the writer's counter). RoCEv2 sends 0 (its ICRC covers it). */
  ipId?: number;
  /** Time to live (default 64). */
  ttl?: number;
}

/** The UDP port of RoCEv2 (IBTA Vol. 1 Annex A17.2), which Wireshark decodes as RRoCE. */
export const ROCEV2_UDP_PORT = ROCEV2_PORT;

/** Writes libpcap records; see the module documentation. */
export class PcapWriter {
  readonly #write: (b: Uint8Array) => void;
  readonly #fd: number | undefined;
  readonly #clock: () => number;
  #lastTs = 0;
  #ipId = 1;
  #closed = false;

  /** @param sink a function receiving the file's bytes in order, or a path to create. */
  constructor(sink: ((b: Uint8Array) => void) | string, opts: PcapWriterOptions = {}) {
    if (typeof sink === 'string') {
      const fd = openSync(sink, 'w');
      this.#fd = fd;
      this.#write = (b) => {
        writeSync(fd, b);
      };
    } else {
      this.#fd = undefined;
      this.#write = sink;
    }
    this.#clock = opts.clockMicros ?? (() => Date.now() * 1000);
    const h = new Uint8Array(24);
    const dv = new DataView(h.buffer);
    dv.setUint32(0, PCAP_MAGIC, true);
    dv.setUint16(4, 2, true);
    dv.setUint16(6, 4, true);
    dv.setInt32(8, 0, true); // thiszone
    dv.setUint32(12, 0, true); // sigfigs
    dv.setUint32(16, opts.snaplen ?? 262144, true);
    dv.setUint32(20, PCAP_LINKTYPE_ETHERNET, true);
    this.#write(h);
  }

  /** Writes one raw link-layer frame. */
  writeFrame(frame: Uint8Array): void {
    if (this.#closed) throw new Error('PcapWriter is closed');
    // Strictly increasing timestamps keep Wireshark's ordering and TCP analysis sane.
    const ts = Math.max(Math.floor(this.#clock()), this.#lastTs + 1);
    this.#lastTs = ts;
    const rec = new Uint8Array(16);
    const dv = new DataView(rec.buffer);
    dv.setUint32(0, Math.floor(ts / 1e6), true);
    dv.setUint32(4, ts % 1e6, true);
    dv.setUint32(8, frame.length, true);
    dv.setUint32(12, frame.length, true);
    this.#write(rec);
    this.#write(frame);
  }

  /** Starts a synthetic TCP connection from `a` (the active opener) to `b`. */
  tcpConnection(a: PcapEndpoint, b: PcapEndpoint, opts: PcapConnectionOptions = {}): PcapTcpConnection {
    return new PcapTcpConnection(this, a, b, opts);
  }

  /**
   * Writes one UDP datagram in an Ethernet/IPv4 frame (DF set, IPv4 header checksum and UDP
   * checksum computed). RoCEv2 traffic to port 4791 decodes in tshark as RRoCE.
   */
  udpDatagram(d: PcapUdpDatagram): void {
    if (d.src.ip.includes(':') || d.dst.ip.includes(':')) {
      this.#udp6Datagram(d);
      return;
    }
    const src = side(d.src, 0);
    const dst = side(d.dst, 0);
    const plen = d.payload.length;
    if (plen > 0xffff - IP_LEN - UDP_LEN) throw new RangeError('UDP payload too large for IPv4');
    const frame = new Uint8Array(ETH_LEN + IP_LEN + UDP_LEN + plen);
    const dv = new DataView(frame.buffer);
    frame.set(dst.mac, 0);
    frame.set(src.mac, 6);
    dv.setUint16(12, 0x0800);
    const ip = ETH_LEN;
    dv.setUint8(ip, 0x45);
    dv.setUint16(ip + 2, IP_LEN + UDP_LEN + plen);
    dv.setUint16(ip + 4, d.ipId ?? this.nextIpId());
    dv.setUint16(ip + 6, 0x4000);
    dv.setUint8(ip + 8, d.ttl ?? 64);
    dv.setUint8(ip + 9, 17);
    frame.set(src.ip, ip + 12);
    frame.set(dst.ip, ip + 16);
    dv.setUint16(ip + 10, fold(sum16(frame, ip, ip + IP_LEN)));
    const u = ip + IP_LEN;
    dv.setUint16(u, src.port);
    dv.setUint16(u + 2, dst.port);
    dv.setUint16(u + 4, UDP_LEN + plen);
    frame.set(d.payload, u + UDP_LEN);
    let s = sum16(frame, ip + 12, ip + 20);
    s += 17 + UDP_LEN + plen;
    s = sum16(frame, u, u + UDP_LEN + plen, s);
    // RFC 768: a computed checksum of zero is sent as all ones (zero means "none").
    dv.setUint16(u + 6, fold(s) || 0xffff);
    this.writeFrame(frame);
  }

  /**
   * The IPv6 form (RFC 8200 §3): Ethernet type 0x86DD, Next Header 17, the hop limit from
   * `ttl`; the UDP checksum, which IPv6 makes mandatory (RFC 8200 §8.1), over the IPv6
   * pseudo-header. Both endpoints must be IPv6 (an IPv4 one is taken in its IPv4-mapped form).
   */
  #udp6Datagram(d: PcapUdpDatagram): void {
    const v6 = (ip: string): Uint8Array => ipv6Bytes(ip.includes(':') ? ip : `::ffff:${ip}`);
    const sIp = v6(d.src.ip);
    const dIp = v6(d.dst.ip);
    for (const p of [d.src.port, d.dst.port]) if (!Number.isInteger(p) || p < 1 || p > 0xffff) throw new RangeError(`bad port ${p}`);
    const plen = d.payload.length;
    if (UDP_LEN + plen > 0xffff) throw new RangeError('UDP payload too large for an IPv6 packet without a jumbogram');
    const frame = new Uint8Array(ETH_LEN + IP6_LEN + UDP_LEN + plen);
    const dv = new DataView(frame.buffer);
    // A locally administered unicast MAC from the low 32 bits of the address, as the IPv4 form does.
    frame.set(d.dst.mac ?? Uint8Array.from([0x02, 0x00, ...dIp.subarray(12)]), 0);
    frame.set(d.src.mac ?? Uint8Array.from([0x02, 0x00, ...sIp.subarray(12)]), 6);
    dv.setUint16(12, 0x86dd);
    const ip = ETH_LEN;
    dv.setUint32(ip, 0x60000000);
    dv.setUint16(ip + 4, UDP_LEN + plen);
    dv.setUint8(ip + 6, 17);
    dv.setUint8(ip + 7, d.ttl ?? 64);
    frame.set(sIp, ip + 8);
    frame.set(dIp, ip + 24);
    const u = ip + IP6_LEN;
    dv.setUint16(u, d.src.port);
    dv.setUint16(u + 2, d.dst.port);
    dv.setUint16(u + 4, UDP_LEN + plen);
    frame.set(d.payload, u + UDP_LEN);
    let s = sum16(frame, ip + 8, ip + 40);
    s += 17 + UDP_LEN + plen;
    s = sum16(frame, u, u + UDP_LEN + plen, s);
    dv.setUint16(u + 6, fold(s) || 0xffff);
    this.writeFrame(frame);
  }

  /** @internal next IPv4 identification value. */
  nextIpId(): number {
    const id = this.#ipId;
    this.#ipId = (this.#ipId + 1) & 0xffff;
    return id;
  }

  /** Closes the file (when writing to a path). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#fd !== undefined) closeSync(this.#fd);
  }
}

interface Side {
  ip: Uint8Array;
  mac: Uint8Array;
  port: number;
  seq: number;
}

function side(e: PcapEndpoint, isn: number): Side {
  if (!Number.isInteger(e.port) || e.port < 1 || e.port > 0xffff) throw new RangeError(`bad port ${e.port}`);
  const ip = parseIpv4(e.ip);
  // A locally administered unicast MAC derived from the address keeps each host distinct.
  const mac = e.mac ?? Uint8Array.from([0x02, 0x00, ip[0]!, ip[1]!, ip[2]!, ip[3]!]);
  return { ip, mac, port: e.port, seq: isn >>> 0 };
}

/** A TCP connection inside a {@link PcapWriter}: tracks sequence numbers per direction. */
export class PcapTcpConnection {
  readonly #w: PcapWriter;
  readonly #a: Side;
  readonly #b: Side;
  readonly #maxSeg: number;
  #closed = false;

  constructor(w: PcapWriter, a: PcapEndpoint, b: PcapEndpoint, opts: PcapConnectionOptions = {}) {
    this.#w = w;
    this.#a = side(a, opts.isnA ?? 0x10000000 + a.port * 7919);
    this.#b = side(b, opts.isnB ?? 0x20000000 + b.port * 7919);
    this.#maxSeg = Math.min(opts.maxSegment ?? PCAP_MAX_TCP_PAYLOAD, PCAP_MAX_TCP_PAYLOAD);
    if (this.#maxSeg < 1) throw new RangeError('maxSegment must be positive');
    if (opts.handshake ?? true) {
      this.#segment(this.#a, this.#b, TCP_SYN, undefined, false);
      this.#a.seq = (this.#a.seq + 1) >>> 0;
      this.#segment(this.#b, this.#a, TCP_SYN | TCP_ACK, undefined, true);
      this.#b.seq = (this.#b.seq + 1) >>> 0;
      this.#segment(this.#a, this.#b, TCP_ACK, undefined, true);
    }
  }

  /** Records `bytes` sent from A to B (`fromA`) or from B to A, split into TCP segments as needed. */
  send(fromA: boolean, bytes: Uint8Array): void {
    if (this.#closed) throw new Error('connection is closed');
    const src = fromA ? this.#a : this.#b;
    const dst = fromA ? this.#b : this.#a;
    for (let i = 0; i < bytes.length; i += this.#maxSeg) {
      const part = bytes.subarray(i, Math.min(bytes.length, i + this.#maxSeg));
      this.#segment(src, dst, TCP_PSH | TCP_ACK, part, true);
      src.seq = (src.seq + part.length) >>> 0;
    }
  }

  /** Records the FIN/ACK exchange (A closes first). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#segment(this.#a, this.#b, TCP_FIN | TCP_ACK, undefined, true);
    this.#a.seq = (this.#a.seq + 1) >>> 0;
    this.#segment(this.#b, this.#a, TCP_FIN | TCP_ACK, undefined, true);
    this.#b.seq = (this.#b.seq + 1) >>> 0;
    this.#segment(this.#a, this.#b, TCP_ACK, undefined, true);
  }

  #segment(src: Side, dst: Side, flags: number, payload: Uint8Array | undefined, ack: boolean): void {
    const plen = payload?.length ?? 0;
    const frame = new Uint8Array(ETH_LEN + IP_LEN + TCP_LEN + plen);
    const dv = new DataView(frame.buffer);
    // Ethernet II
    frame.set(dst.mac, 0);
    frame.set(src.mac, 6);
    dv.setUint16(12, 0x0800);
    // IPv4 (RFC 791), no options, DF set
    const ip = ETH_LEN;
    dv.setUint8(ip, 0x45);
    dv.setUint8(ip + 1, 0);
    dv.setUint16(ip + 2, IP_LEN + TCP_LEN + plen);
    dv.setUint16(ip + 4, this.#w.nextIpId());
    dv.setUint16(ip + 6, 0x4000);
    dv.setUint8(ip + 8, 64);
    dv.setUint8(ip + 9, 6);
    frame.set(src.ip, ip + 12);
    frame.set(dst.ip, ip + 16);
    dv.setUint16(ip + 10, fold(sum16(frame, ip, ip + IP_LEN)));
    // TCP (RFC 793), no options
    const t = ip + IP_LEN;
    dv.setUint16(t, src.port);
    dv.setUint16(t + 2, dst.port);
    dv.setUint32(t + 4, src.seq);
    dv.setUint32(t + 8, ack ? dst.seq : 0);
    dv.setUint8(t + 12, (TCP_LEN / 4) << 4);
    dv.setUint8(t + 13, flags);
    dv.setUint16(t + 14, 0xffff);
    if (payload) frame.set(payload, t + TCP_LEN);
    // Checksum over the pseudo-header (src, dst, zero, protocol, TCP length) and the segment.
    let s = sum16(frame, ip + 12, ip + 20);
    s += 6 + TCP_LEN + plen;
    s = sum16(frame, t, t + TCP_LEN + plen, s);
    dv.setUint16(t + 16, fold(s));
    this.#w.writeFrame(frame);
  }
}

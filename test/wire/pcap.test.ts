import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PCAP_MAX_TCP_PAYLOAD, PcapWriter } from '../../src/wire/pcap.js';
import { concat, Prng, toHex } from './helpers.js';

interface Packet {
  tsSec: number;
  tsUsec: number;
  frame: Uint8Array;
}

function parsePcap(file: Uint8Array): { header: Uint8Array; packets: Packet[] } {
  const dv = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const packets: Packet[] = [];
  let o = 24;
  while (o < file.length) {
    const incl = dv.getUint32(o + 8, true);
    assert.equal(dv.getUint32(o + 12, true), incl, 'orig_len == incl_len');
    packets.push({ tsSec: dv.getUint32(o, true), tsUsec: dv.getUint32(o + 4, true), frame: file.subarray(o + 16, o + 16 + incl) });
    o += 16 + incl;
  }
  assert.equal(o, file.length);
  return { header: file.subarray(0, 24), packets };
}

/** RFC 1071 one's-complement sum check: a correct header sums to 0xffff. */
function onesSum(parts: Uint8Array[]): number {
  let s = 0;
  const b = concat(parts);
  for (let i = 0; i < b.length; i += 2) s += (b[i]! << 8) | (b[i + 1] ?? 0);
  while (s > 0xffff) s = (s & 0xffff) + (s >>> 16);
  return s;
}

interface Tcp {
  src: string;
  sport: number;
  dport: number;
  seq: number;
  ack: number;
  flags: number;
  payload: Uint8Array;
}

function parseTcp(frame: Uint8Array): Tcp {
  const dv = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  assert.equal(dv.getUint16(12), 0x0800, 'IPv4 ethertype');
  const ip = frame.subarray(14, 34);
  assert.equal(ip[0], 0x45);
  assert.equal(onesSum([ip]), 0xffff, 'IPv4 header checksum');
  const totalLen = dv.getUint16(16);
  assert.equal(totalLen, frame.length - 14);
  assert.equal(ip[9], 6);
  const tcp = frame.subarray(34);
  const pseudo = concat([ip.subarray(12, 20), Uint8Array.from([0, 6, tcp.length >>> 8, tcp.length & 0xff])]);
  assert.equal(onesSum([pseudo, tcp]), 0xffff, 'TCP checksum');
  return {
    src: Array.from(ip.subarray(12, 16)).join('.'),
    sport: dv.getUint16(34),
    dport: dv.getUint16(36),
    seq: dv.getUint32(38),
    ack: dv.getUint32(42),
    flags: frame[47]!,
    payload: frame.subarray(54),
  };
}

describe('PcapWriter', () => {
  it('writes the classic libpcap header (magic a1b2c3d4, v2.4, Ethernet)', () => {
    const out: Uint8Array[] = [];
    new PcapWriter((b) => out.push(b.slice()));
    assert.equal(toHex(concat(out)), 'd4c3b2a1' + '0200' + '0400' + '00000000' + '00000000' + '00000400' + '01000000');
  });

  it('synthesizes a handshake, data with tracked seq/ack, FIN exchange, valid checksums', () => {
    const out: Uint8Array[] = [];
    let t = 1_700_000_000_000_000;
    const w = new PcapWriter((b) => out.push(b.slice()), { clockMicros: () => t++ });
    const c = w.tcpConnection({ ip: '192.0.2.1', port: 40000 }, { ip: '192.0.2.2', port: 50000 }, { isnA: 1000, isnB: 0xfffffff0 });
    c.send(true, Uint8Array.from([1, 2, 3]));
    c.send(false, new Uint8Array(20));
    c.send(true, new Uint8Array(0));
    c.close();
    const { packets } = parsePcap(concat(out));
    const tcp = packets.map((p) => parseTcp(p.frame));
    const SYN = 0x02;
    const ACK = 0x10;
    const PSH = 0x08;
    const FIN = 0x01;
    assert.deepEqual(
      tcp.map((x) => [x.src, x.flags, x.seq, x.ack, x.payload.length]),
      [
        ['192.0.2.1', SYN, 1000, 0, 0],
        ['192.0.2.2', SYN | ACK, 0xfffffff0, 1001, 0],
        ['192.0.2.1', ACK, 1001, 0xfffffff1, 0],
        ['192.0.2.1', PSH | ACK, 1001, 0xfffffff1, 3],
        ['192.0.2.2', PSH | ACK, 0xfffffff1, 1004, 20],
        ['192.0.2.1', FIN | ACK, 1004, 0x05, 0],
        ['192.0.2.2', FIN | ACK, 0x05, 1005, 0],
        ['192.0.2.1', ACK, 1005, 0x06, 0],
      ],
    );
    assert.equal(packets[0]!.tsSec, 1_700_000_000);
    for (let i = 1; i < packets.length; i++) {
      const a = packets[i - 1]!;
      const b = packets[i]!;
      assert.ok(b.tsSec * 1e6 + b.tsUsec > a.tsSec * 1e6 + a.tsUsec, 'timestamps increase');
    }
  });

  it('splits payloads larger than one IPv4 packet into consecutive segments', () => {
    const out: Uint8Array[] = [];
    const w = new PcapWriter((b) => out.push(b.slice()));
    const c = w.tcpConnection({ ip: '10.0.0.1', port: 1 }, { ip: '10.0.0.2', port: 2 }, { handshake: false, isnA: 0 });
    const data = new Prng(7).bytes(150_000);
    c.send(true, data);
    const segs = parsePcap(concat(out)).packets.map((p) => parseTcp(p.frame));
    assert.deepEqual(
      segs.map((s) => s.payload.length),
      [PCAP_MAX_TCP_PAYLOAD, PCAP_MAX_TCP_PAYLOAD, 150_000 - 2 * PCAP_MAX_TCP_PAYLOAD],
    );
    assert.deepEqual(
      segs.map((s) => s.seq),
      [0, PCAP_MAX_TCP_PAYLOAD, 2 * PCAP_MAX_TCP_PAYLOAD],
    );
    assert.deepEqual(concat(segs.map((s) => s.payload)), data);
  });

  it('writes to a file path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'softrdma-pcap-'));
    try {
      const path = join(dir, 'x.pcap');
      const w = new PcapWriter(path);
      w.tcpConnection({ ip: '10.0.0.1', port: 1 }, { ip: '10.0.0.2', port: 2 }).send(true, Uint8Array.from([9]));
      w.close();
      const { packets } = parsePcap(new Uint8Array(readFileSync(path)));
      assert.equal(packets.length, 4);
      assert.deepEqual(parseTcp(packets[3]!.frame).payload, Uint8Array.from([9]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects bad addresses and ports', () => {
    const w = new PcapWriter(() => {});
    assert.throws(() => w.tcpConnection({ ip: '10.0.0.300', port: 1 }, { ip: '10.0.0.2', port: 2 }), RangeError);
    assert.throws(() => w.tcpConnection({ ip: '10.0.0.1', port: 0 }, { ip: '10.0.0.2', port: 2 }), RangeError);
  });
});

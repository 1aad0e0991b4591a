/**
 * The InfiniBand transport codecs of RoCEv2 (src/wire/ib): golden vectors (two ICRCs from
 * real/scapy frames), the opcode table against the research notes' list, PSN arithmetic,
 * round trips against a naive reference codec, decoder validation, and the recovery of the
 * IPv4 ID from a received ICRC.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  AethType,
  ackSyndrome,
  aethType,
  aethValue,
  checkIcrc,
  computeIcrc,
  crc32,
  crc32Js,
  decodeAeth,
  decodeBth,
  decodeDeth,
  decodeIbPacket,
  decodeReth,
  describeSyndrome,
  encodeAeth,
  encodeAtomicEth,
  encodeBth,
  encodeDeth,
  encodeIbPacket,
  encodeIbPacketGather,
  IB_GATHER_MIN,
  ibPacketPartsLength,
  encodeReth,
  type IbPacket,
  IbDropReason,
  IB_OPCODES,
  IbOpcode,
  IbWireError,
  ibPadCount,
  NakCode,
  nakSyndrome,
  newBth,
  newIbPacket,
  psnAdd,
  psnCompare,
  psnDiff,
  psnInRange,
  readIcrc,
  RNR_TIMER_USEC,
  rnrSyndrome,
  type RoceIpHeader,
  solveIpv4Id,
  stringifyIbPacket,
  writeIcrc,
} from '../../src/wire/ib/index.js';
import { hex, toHex } from './helpers.js';
import { REF_OPCODES, type RefPacket, refDecode, refEncode } from './ib-reference.js';

function assertDrop(fn: () => unknown, reason: IbDropReason): void {
  assert.throws(fn, (e: unknown) => e instanceof IbWireError && e.reason === reason);
}

const ip4 = (s: string) => Uint8Array.from(s.split('.').map(Number));
/** The 16 octets of an IPv6 address in text form (RFC 4291 §2.2, with at most one `::`). */
const ip6 = (s: string): Uint8Array => {
  const [head, tail] = s.split('::');
  const words = (x?: string) => (x ? x.split(':').map((w) => Number.parseInt(w, 16)) : []);
  const h = words(head);
  const t = words(tail);
  const all = tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  const out = new Uint8Array(16);
  all.forEach((w, i) => {
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
};

describe('ICRC (IBTA Vol. 1 §7.8.1, RoCEv2 Annex A17)', () => {
  it('golden: a ConnectX-4 Lx CNP capture (scapy roce.uts): wire bytes 82 fd 00 2a', () => {
    const frame = hex(`e41d 2dab 2bc2 7cfe 9064 3b32 0800 45c2
      003c 718c 4000 4011 9161 0a00 1101 0a00
      1201 0000 12b7 0028 0000 8100 ffff 4000
      0118 0000 0000 0000 0000 0000 0000 0000
      0000 0000 0000 82fd 002a`);
    const ipHdr = frame.subarray(14, 34);
    const pkt = frame.subarray(42);
    const ip: RoceIpHeader = {
      src: ipHdr.subarray(12, 16),
      dst: ipHdr.subarray(16, 20),
      srcPort: 0,
      dstPort: 4791,
      ipId: 0x718c,
      flagsFrag: 0x4000,
    };
    assert.equal(computeIcrc(ip, pkt), 0x2a00fd82);
    assert.equal(readIcrc(pkt), 0x2a00fd82);
    assert.ok(checkIcrc(ip, pkt));
    // TOS, TTL, the IP and UDP checksums and FECN/BECN are masked: changing them changes nothing.
    const copy = pkt.slice();
    copy[4] = 0x80;
    assert.ok(checkIcrc(ip, copy));
    // The IP ID is not masked.
    assert.ok(!checkIcrc({ ...ip, ipId: 0x718d }, pkt));
    // And the receiver recovers it from the ICRC alone.
    assert.deepEqual(solveIpv4Id({ ...ip, ipId: undefined }, pkt), { ipId: 0x718c, flagsFrag: 0x4000 });
  });

  it('golden: scapy UC SEND ONLY with MigReq, pad 2 (ICRC 78 f3 53 f3)', () => {
    const payload = hex('4630818be28935d90e9a95505401be885e50');
    const bth = { ...newBth(IbOpcode.UC_SEND_ONLY, 211, 13571856), migReq: true, padCnt: 2 };
    const ip: RoceIpHeader = { src: ip4('192.168.0.7'), dst: ip4('192.168.0.7'), srcPort: 49152, dstPort: 4791, ipId: 1144 };
    const pkt = encodeIbPacket({ bth, payload }, ip);
    assert.equal(toHex(pkt), '2460ffff000000d300cf17104630818be28935d90e9a95505401be885e50000078f353f3');
    assert.equal(stringifyIbPacket(decodeIbPacket(pkt)), 'UC_SEND_ONLY BTH op=0x24 QP=0x0000d3 PSN=13571856 M pad=2 P_Key=0xffff | 18 B');
  });

  it('CRC-32/IEEE: native and JS agree, check value 0xCBF43926, chaining', () => {
    assert.equal(crc32Js(new TextEncoder().encode('123456789')), 0xcbf43926);
    assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
        const ab = new Uint8Array([...a, ...b]);
        assert.equal(crc32(ab), crc32Js(ab));
        assert.equal(crc32(b, crc32(a)), crc32(ab));
      }),
    );
  });

  it('golden: IPv6 RC SEND ONLY, AckReq, pad 2, fe80::1 → 2001:db8::2, UDP 49152 → 4791 (ICRC 6b f6 98 70)', () => {
    // The vector was computed apart from this codec, with Python's zlib.crc32 over the pseudo-packet
    // of IBTA Vol. 1 Annex A17 written out by hand: 8 × 0xFF, the IPv6 header with traffic class,
    // flow label and hop limit all ones (payload length 34, next header 17), the UDP header with
    // checksum 0xFFFF, the BTH with octet 4 all ones, then payload and pad.
    const ip: RoceIpHeader = { src: ip6('fe80::1'), dst: ip6('2001:db8::2'), srcPort: 49152, dstPort: 4791 };
    const bth = { ...newBth(IbOpcode.RC_SEND_ONLY, 0x11, 42), ackReq: true, padCnt: 2 };
    const pkt = encodeIbPacket({ bth, payload: hex('4142434445464748494a') }, ip);
    assert.equal(toHex(pkt), '0420ffff000000118000002a4142434445464748494a00006bf69870');
    assert.equal(readIcrc(pkt), 0x7098f66b);
    assert.ok(checkIcrc(ip, pkt));
    // Traffic class, flow label and hop limit are masked (not inputs); the addresses are covered.
    assert.ok(!checkIcrc({ ...ip, src: ip6('fe80::2') }, pkt));
    assert.ok(!checkIcrc({ ...ip, dstPort: 4792 }, pkt));
  });

  it('the IPv6 pseudo-header masks traffic class, flow label and hop limit, and covers the addresses', () => {
    const src = new Uint8Array(16).fill(1);
    const dst = new Uint8Array(16).fill(2);
    const pkt = encodeIbPacket(
      { bth: newBth(IbOpcode.RC_SEND_ONLY, 17, 1), payload: new Uint8Array(8) },
      { src, dst, srcPort: 4791, dstPort: 4791 },
    );
    assert.ok(checkIcrc({ src, dst, srcPort: 4791, dstPort: 4791 }, pkt));
    assert.ok(!checkIcrc({ src: dst, dst: src, srcPort: 4791, dstPort: 4791 }, pkt));
  });

  it('solveIpv4Id finds every ID and flags value, and rejects corrupted packets', () => {
    let rejected = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffff }),
        fc.boolean(),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 1 << 20 }),
        (ipId, df, len, flip) => {
          const ip: RoceIpHeader = {
            src: ip4('10.0.0.1'),
            dst: ip4('10.0.0.2'),
            srcPort: 50000,
            dstPort: 4791,
            ipId,
            flagsFrag: df ? 0x4000 : 0,
          };
          const pay = new Uint8Array(len).map((_, i) => (i * 7 + len) & 0xff);
          const bth = { ...newBth(IbOpcode.RC_SEND_ONLY, 0x11, 5), padCnt: ibPadCount(len) };
          const pkt = encodeIbPacket({ bth, payload: pay }, ip);
          assert.deepEqual(solveIpv4Id(ip, pkt), { ipId, flagsFrag: df ? 0x4000 : 0 });
          // One flipped bit anywhere the ICRC covers: never taken for the packet with its real
          // ID (a CRC catches every single-bit error); some other ID explains it with
          // probability about 2^-15, so nearly all are rejected outright.
          const bad = pkt.slice();
          const bitIx = flip % ((bad.length - 4) * 8);
          if (bitIx >> 3 === 4) return; // FECN/BECN/Resv6: masked
          bad[bitIx >> 3]! ^= 1 << (bitIx & 7);
          const r = solveIpv4Id(ip, bad);
          runs++;
          if (r === null) rejected++;
          else assert.ok(r.ipId !== ipId || r.flagsFrag !== (df ? 0x4000 : 0));
        },
      ),
      { numRuns: 300, seed: 0x1ce },
    );
    assert.ok(rejected >= runs - 1, `${rejected}/${runs} corrupted packets rejected`);
  });
});

describe('BTH and extension headers (IBTA Vol. 1 §9.2, §9.3)', () => {
  it('golden: BTH with every field set', () => {
    const h = {
      opcode: 0x0a,
      se: true,
      migReq: false,
      padCnt: 3,
      tver: 0,
      pkey: 0xffff,
      fecn: false,
      becn: true,
      resv6: 0,
      destQp: 0x123456,
      ackReq: true,
      resv7: 0,
      psn: 0xabcdef,
    };
    const b = hex('0a b0 ffff 40 123456 80 abcdef');
    assert.deepEqual(encodeBth(h), b);
    assert.deepEqual(decodeBth(b), h);
  });

  it('BTH: TVer ≠ 0 and short buffers are dropped; out-of-range fields refused', () => {
    assertDrop(() => decodeBth(hex('04 01 ffff 00 000011 00 000000')), IbDropReason.TransportVersion);
    assertDrop(() => decodeBth(hex('04 00 ffff 00 000011 00 0000')), IbDropReason.Truncated);
    assert.throws(() => encodeBth(newBth(0x04, 1 << 24, 0)), RangeError);
    assert.throws(() => encodeBth(newBth(0x04, 1, 1 << 24)), RangeError);
    assert.throws(() => encodeBth({ ...newBth(0x04, 1, 0), padCnt: 4 }), RangeError);
  });

  it('golden: RETH, DETH, AtomicETH', () => {
    assert.equal(toHex(encodeReth({ va: 0x0102030405060708n, rkey: 0xdeadbeef, dmaLen: 65536 })), '0102030405060708deadbeef00010000');
    assert.deepEqual(decodeReth(hex('0102030405060708deadbeef00010000')), { va: 0x0102030405060708n, rkey: 0xdeadbeef, dmaLen: 65536 });
    assert.equal(toHex(encodeDeth({ qkey: 0x11111111, resv8: 0, srcQp: 0x000011 })), '1111111100000011');
    assert.deepEqual(decodeDeth(hex('80010000 00 000001')), { qkey: 0x80010000, resv8: 0, srcQp: 1 });
    assert.equal(
      toHex(encodeAtomicEth({ va: 0x1000n, rkey: 7, swapAdd: 0xffffffffffffffffn, compare: 2n })),
      '0000000000001000 00000007 ffffffffffffffff 0000000000000002'.replace(/ /g, ''),
    );
  });

  it('AETH syndromes: ACK/RNR/NAK encodings, the RNR timer table, reserved syndromes dropped', () => {
    assert.equal(ackSyndrome(), 0x1f);
    assert.equal(rnrSyndrome(12), 0x2c);
    assert.equal(nakSyndrome(NakCode.PsnSequenceError), 0x60);
    assert.equal(nakSyndrome(NakCode.InvalidRequest), 0x61);
    assert.equal(nakSyndrome(NakCode.RemoteAccessError), 0x62);
    assert.equal(nakSyndrome(NakCode.RemoteOperationalError), 0x63);
    assert.equal(aethType(0x2c), AethType.RnrNak);
    assert.equal(aethValue(0x2c), 12);
    assert.equal(RNR_TIMER_USEC[12], 640); // ibv_rc_pingpong's min_rnr_timer 12 = 0.64 ms
    assert.equal(RNR_TIMER_USEC[0], 655360);
    assert.equal(RNR_TIMER_USEC.length, 32);
    assert.equal(toHex(encodeAeth({ syndrome: 0x1f, msn: 5 })), '1f000005');
    assert.deepEqual(decodeAeth(hex('62 abcdef')), { syndrome: 0x62, msn: 0xabcdef });
    assert.equal(describeSyndrome(0x62), 'NAK remote access error');
    for (const s of [0x40, 0x5f, 0x65, 0x7f, 0x80, 0x9f]) assertDrop(() => decodeAeth(Uint8Array.of(s, 0, 0, 0)), IbDropReason.Syndrome);
  });
});

describe('opcode table (IBTA Vol. 1 §9.2)', () => {
  it('has exactly the RC, UC and UD opcodes of the research notes, with their headers in order', () => {
    const ours = IB_OPCODES.flatMap((i, op) => (i ? [op] : []));
    assert.deepEqual(
      ours,
      Object.keys(REF_OPCODES)
        .map(Number)
        .sort((a, b) => a - b),
    );
    const names: Record<string, string> = {
      reth: 'rethOffset',
      aeth: 'aethOffset',
      atomicEth: 'atomicEthOffset',
      atomicAckEth: 'atomicAckEthOffset',
      deth: 'dethOffset',
      immDt: 'immDtOffset',
      ieth: 'iethOffset',
    };
    const sizes: Record<string, number> = { reth: 16, aeth: 4, atomicEth: 28, atomicAckEth: 8, deth: 8, immDt: 4, ieth: 4 };
    for (const op of ours) {
      const i = IB_OPCODES[op]!;
      const r = REF_OPCODES[op]!;
      assert.equal(i.name, r.name);
      assert.equal(i.payload, r.payload, r.name);
      let at = 12;
      for (const h of r.headers) {
        assert.equal((i as unknown as Record<string, number>)[names[h]!], at, `${r.name} ${h}`);
        at += sizes[h]!;
      }
      assert.equal(i.headerLength, at, r.name);
    }
  });

  it('positions, requests and receive consumption', () => {
    const o = (x: number) => IB_OPCODES[x]!;
    assert.ok(o(IbOpcode.RC_SEND_FIRST).first && !o(IbOpcode.RC_SEND_FIRST).last);
    assert.ok(!o(IbOpcode.RC_SEND_MIDDLE).first && !o(IbOpcode.RC_SEND_MIDDLE).last);
    assert.ok(o(IbOpcode.RC_SEND_ONLY).first && o(IbOpcode.RC_SEND_ONLY).last);
    assert.ok(o(IbOpcode.RC_RDMA_READ_REQUEST).request && !o(IbOpcode.RC_RDMA_READ_RESPONSE_ONLY).request);
    assert.ok(o(IbOpcode.RC_RDMA_WRITE_LAST_WITH_IMMEDIATE).consumesRecv && !o(IbOpcode.RC_RDMA_WRITE_LAST).consumesRecv);
    assert.ok(o(IbOpcode.UD_SEND_ONLY).consumesRecv);
    assert.ok(o(IbOpcode.RC_SEND_ONLY_WITH_INVALIDATE).invalidate);
    assert.equal(IB_OPCODES[0x15], undefined);
    assert.equal(IB_OPCODES[0x2c], undefined); // no UC read
    assert.equal(IB_OPCODES[0x81], undefined); // CNP: not a transport opcode here
  });
});

describe('PSN arithmetic (IBTA Vol. 1 §9.7.1)', () => {
  it('wraps at 2^24 and compares by signed distance', () => {
    assert.equal(psnAdd(0xffffff, 1), 0);
    assert.equal(psnAdd(0, -1), 0xffffff);
    assert.equal(psnDiff(0, 0xffffff), 1);
    assert.equal(psnDiff(0xffffff, 0), -1);
    assert.ok(psnCompare(5, 0xfffff0) > 0);
    assert.ok(psnInRange(2, 0xfffffe, 5));
    assert.ok(!psnInRange(3, 0xfffffe, 5));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffff }), fc.integer({ min: -(1 << 23), max: (1 << 23) - 1 }), (a, n) => {
        assert.equal(psnDiff(psnAdd(a, n), a), n);
      }),
    );
  });
});

// ----- round trips against the reference ------------------------------------------------

const u32 = fc.integer({ min: 0, max: 0xffffffff });
const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const NN = { noNullPrototype: true } as const;
const validSyndrome = fc.oneof(fc.integer({ min: 0, max: 0x3f }), fc.integer({ min: 0x60, max: 0x64 }));

export const arbIbPacket: fc.Arbitrary<IbPacket> = fc
  .record(
    {
      opcode: fc.constantFrom(...Object.keys(REF_OPCODES).map(Number)),
      se: fc.boolean(),
      migReq: fc.boolean(),
      pkey: fc.integer({ min: 0, max: 0xffff }),
      fecn: fc.boolean(),
      becn: fc.boolean(),
      resv6: fc.integer({ min: 0, max: 63 }),
      destQp: fc.integer({ min: 0, max: 0xffffff }),
      ackReq: fc.boolean(),
      resv7: fc.integer({ min: 0, max: 127 }),
      psn: fc.integer({ min: 0, max: 0xffffff }),
      payload: fc.uint8Array({ maxLength: 70 }),
      reth: fc.record({ va: u64, rkey: u32, dmaLen: u32 }, NN),
      aeth: fc.record({ syndrome: validSyndrome, msn: fc.integer({ min: 0, max: 0xffffff }) }, NN),
      atomicEth: fc.record({ va: u64, rkey: u32, swapAdd: u64, compare: u64 }, NN),
      atomicAckEth: fc.record({ origData: u64 }, NN),
      deth: fc.record({ qkey: u32, resv8: fc.integer({ min: 0, max: 255 }), srcQp: fc.integer({ min: 0, max: 0xffffff }) }, NN),
      immDt: u32,
      ieth: u32,
    },
    NN,
  )
  .map((r) => {
    const info = IB_OPCODES[r.opcode]!;
    let payload = info.payload ? r.payload : new Uint8Array(0);
    // Only the last packet of a message may be short (pad ≠ 0).
    if (!info.last) payload = payload.subarray(0, payload.length & ~3);
    const p: IbPacket = {
      bth: {
        opcode: r.opcode,
        se: r.se,
        migReq: r.migReq,
        padCnt: ibPadCount(payload.length),
        tver: 0,
        pkey: r.pkey,
        fecn: r.fecn,
        becn: r.becn,
        resv6: r.resv6,
        destQp: r.destQp,
        ackReq: r.ackReq,
        resv7: r.resv7,
        psn: r.psn,
      },
      payload,
    };
    if (info.rethOffset >= 0) p.reth = r.reth;
    if (info.aethOffset >= 0) p.aeth = r.aeth;
    if (info.atomicEthOffset >= 0) p.atomicEth = r.atomicEth;
    if (info.atomicAckEthOffset >= 0) p.atomicAckEth = r.atomicAckEth;
    if (info.dethOffset >= 0) p.deth = r.deth;
    if (info.immDtOffset >= 0) p.immDt = r.immDt;
    if (info.iethOffset >= 0) p.ieth = r.ieth;
    return p;
  });

/** The fields that are set (a decoded packet has every field, the absent headers undefined). */
const plain = (p: IbPacket | RefPacket) => {
  const { icrc: _icrc, payload, ...rest } = p as IbPacket;
  const set = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  return { ...set, payload: Array.from(payload) };
};

describe('whole packets', () => {
  it('encode = reference encode; decode(encode) = p; reference decode agrees', () => {
    fc.assert(
      fc.property(arbIbPacket, (p) => {
        const enc = encodeIbPacket(p);
        assert.equal(toHex(enc), toHex(refEncode(p as unknown as RefPacket)));
        assert.equal(enc.length % 4, 0);
        const dec = decodeIbPacket(enc);
        assert.deepEqual(plain(dec), plain(p));
        // One shape for every opcode, the same as a packet built by newIbPacket.
        assert.deepEqual(Object.keys(dec), Object.keys(newIbPacket(p.bth)));
        assert.deepEqual(plain(refDecode(enc)), plain(p));
        assert.match(stringifyIbPacket(dec), new RegExp(`^${IB_OPCODES[p.bth.opcode]!.name} `));
      }),
      { numRuns: 2000 },
    );
  });

  it('packets built in recycled pool memory carry no stale octets (every header, pad and ICRC octet written)', () => {
    // Packets are built in Node's buffer pool (Buffer.allocUnsafe), which hands out memory that
    // held earlier buffers. Poison the whole pool slab with 0xff first: an octet an encoder
    // skips would then differ from the reference encoding (built into zeroed memory).
    const poisoned = (build: () => Uint8Array | Uint8Array[]): Uint8Array[] => {
      for (let attempt = 0; attempt < 4; attempt++) {
        const probe = Buffer.allocUnsafe(1);
        new Uint8Array(probe.buffer).fill(0xff);
        const out = build();
        const parts = Array.isArray(out) ? out : [out];
        // Retry only if the pool was exhausted and a fresh (unpoisoned) slab was taken.
        if (parts.every((x) => x.buffer === probe.buffer || x.byteLength >= IB_GATHER_MIN)) return parts;
      }
      throw new Error('the buffer pool kept rolling over');
    };
    const concat = (parts: Uint8Array[]) => Buffer.concat(parts);
    fc.assert(
      fc.property(arbIbPacket, fc.uint8Array({ minLength: IB_GATHER_MIN, maxLength: 700 }), (p, big) => {
        const ref = refEncode(p as unknown as RefPacket);
        assert.equal(toHex(concat(poisoned(() => encodeIbPacket(p)))), toHex(ref));
        const info = IB_OPCODES[p.bth.opcode]!;
        if (!info.payload) return;
        // A payload long enough for the gathering encoder: headers and tail come from the pool.
        const body = info.last ? big : big.subarray(0, big.length & ~3);
        const q: IbPacket = { ...p, bth: { ...p.bth, padCnt: ibPadCount(body.length) }, payload: new Uint8Array(0) };
        const whole = refEncode({ ...q, payload: body } as unknown as RefPacket);
        const parts = poisoned(() => encodeIbPacketGather(q, [body]));
        assert.ok(parts.length >= 3, 'gathered as headers, payload, tail');
        assert.equal(toHex(concat(parts)), toHex(whole));
        assert.equal(ibPacketPartsLength(parts), whole.length);
      }),
      { numRuns: 1000 },
    );
  });

  it('encode with an IP header writes a valid ICRC; payload parts are gathered', () => {
    const ip: RoceIpHeader = { src: ip4('127.0.0.1'), dst: ip4('127.0.0.2'), srcPort: 4791, dstPort: 4791 };
    const bth = { ...newBth(IbOpcode.RC_RDMA_WRITE_ONLY, 0x12, 7), padCnt: 1 };
    const reth = { va: 0x1000n, rkey: 0x55, dmaLen: 7 };
    const a = encodeIbPacket({ bth, reth, payload: new Uint8Array(0) }, ip, [Uint8Array.of(1, 2, 3), Uint8Array.of(4, 5, 6, 7)]);
    const b = encodeIbPacket({ bth, reth, payload: Uint8Array.of(1, 2, 3, 4, 5, 6, 7) }, ip);
    assert.deepEqual(a, b);
    assert.ok(checkIcrc(ip, a));
    const c = a.slice();
    writeIcrc({ ...ip, ipId: 1 }, c);
    assert.ok(!checkIcrc(ip, c));
  });

  it('encode refuses headers the opcode has not, missing ones, payload on ACKs, a wrong PadCnt', () => {
    const bth = newBth(IbOpcode.RC_SEND_ONLY, 1, 0);
    assert.throws(() => encodeIbPacket({ bth, payload: new Uint8Array(0), reth: { va: 0n, rkey: 0, dmaLen: 0 } }), /has no RETH/);
    assert.throws(() => encodeIbPacket({ bth: newBth(IbOpcode.RC_RDMA_WRITE_ONLY, 1, 0), payload: new Uint8Array(0) }), /needs RETH/);
    assert.throws(
      () => encodeIbPacket({ bth: newBth(IbOpcode.RC_ACKNOWLEDGE, 1, 0), aeth: { syndrome: 0x1f, msn: 0 }, payload: new Uint8Array(4) }),
      /no payload/,
    );
    assert.throws(() => encodeIbPacket({ bth, payload: new Uint8Array(3) }), /PadCnt/);
    assert.throws(() => encodeIbPacket({ bth: newBth(0x15, 1, 0), payload: new Uint8Array(0) }), /unsupported opcode/);
  });

  it('decode drops: unknown opcode, truncation, odd lengths, payload or pad where none may be', () => {
    const ack = encodeIbPacket({
      bth: newBth(IbOpcode.RC_ACKNOWLEDGE, 1, 0),
      aeth: { syndrome: 0x1f, msn: 0 },
      payload: new Uint8Array(0),
    });
    assertDrop(() => decodeIbPacket(Uint8Array.from([0x15, ...ack.subarray(1)])), IbDropReason.Opcode);
    assertDrop(() => decodeIbPacket(ack.subarray(0, 16)), IbDropReason.Truncated);
    assertDrop(() => decodeIbPacket(new Uint8Array([...ack, 0, 0, 0, 0])), IbDropReason.Length);
    const padded = ack.slice();
    padded[1] = 0x10;
    assertDrop(() => decodeIbPacket(padded), IbDropReason.Length);
    const first = encodeIbPacket({ bth: newBth(IbOpcode.RC_SEND_FIRST, 1, 0), payload: new Uint8Array(8) });
    assertDrop(() => decodeIbPacket(first.subarray(0, first.length - 1)), IbDropReason.Pad);
    const fp = first.slice();
    fp[1] = 0x20;
    assertDrop(() => decodeIbPacket(fp), IbDropReason.Pad);
    const only = encodeIbPacket({ bth: { ...newBth(IbOpcode.RC_SEND_ONLY, 1, 0), padCnt: 0 }, payload: new Uint8Array(0) });
    only[1] = 0x30; // pad 3 with no payload octets at all
    assertDrop(() => decodeIbPacket(only), IbDropReason.Pad);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type DdpHeader, decodeDdpHeader, ddpHeaderLength, encodeDdpHeader, stringifyDdpHeader } from '../../src/wire/ddp.js';
import { DdpEtype, DdpTaggedEcode, DdpUntaggedEcode, TermLayer } from '../../src/wire/errors.js';
import { assertTerminate, hex, toHex } from './helpers.js';

const u32 = fc.integer({ min: 0, max: 0xffffffff });

export const arbDdpHeader: fc.Arbitrary<DdpHeader> = fc.oneof(
  fc.record(
    {
      tagged: fc.constant(true as const),
      last: fc.boolean(),
      rsvd: fc.integer({ min: 0, max: 15 }),
      version: fc.constant(1),
      rsvdUlp: fc.integer({ min: 0, max: 255 }),
      stag: u32,
      to: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
    },
    { noNullPrototype: true },
  ),
  fc.record(
    {
      tagged: fc.constant(false as const),
      last: fc.boolean(),
      rsvd: fc.integer({ min: 0, max: 15 }),
      version: fc.constant(1),
      rsvdUlp: fc.integer({ min: 0, max: 255 }),
      rsvdUlp32: u32,
      qn: u32,
      msn: u32,
      mo: u32,
    },
    { noNullPrototype: true },
  ),
);

describe('DDP headers (RFC 5041 §4)', () => {
  it('golden: tagged header (RFC 5041 §4.2): T=1 L=1 DV=1, RsvdULP 0x40, STag, 64-bit TO', () => {
    const h: DdpHeader = { tagged: true, last: true, rsvd: 0, version: 1, rsvdUlp: 0x40, stag: 0x12345678, to: 0x0102030405060708n };
    const bytes = hex('c1 40 12345678 0102030405060708');
    assert.deepEqual(encodeDdpHeader(h), bytes);
    assert.deepEqual(decodeDdpHeader(bytes), h);
    assert.equal(stringifyDdpHeader(h), 'DDP T L ulp=0x40 STag=0x12345678 TO=0x102030405060708');
  });

  it('golden: untagged header (RFC 5041 §4.3): T=0 L=0, RsvdULP, QN, MSN, MO', () => {
    const h: DdpHeader = {
      tagged: false,
      last: false,
      rsvd: 0,
      version: 1,
      rsvdUlp: 0x43,
      rsvdUlp32: 0,
      qn: 0,
      msn: 0x0a0b0c0d,
      mo: 0x1000,
    };
    const bytes = hex('01 43 00000000 00000000 0a0b0c0d 00001000');
    assert.deepEqual(encodeDdpHeader(h), bytes);
    assert.deepEqual(decodeDdpHeader(bytes), h);
    assert.equal(stringifyDdpHeader(h), 'DDP U ulp=0x43 QN=0 MSN=168496141 MO=4096');
  });

  it('reserved control bits are carried, not checked', () => {
    const h = decodeDdpHeader(hex('bd 00 00000001 0000000000000002'));
    assert.equal(h.tagged, true);
    assert.equal(h.rsvd, 0xf);
    assert.equal(h.last, false);
  });

  it('round-trips; header length follows the T flag; trailing payload is ignored', () => {
    fc.assert(
      fc.property(arbDdpHeader, fc.uint8Array({ maxLength: 16 }), (h, payload) => {
        const enc = encodeDdpHeader(h);
        assert.equal(enc.length, ddpHeaderLength(enc[0]!));
        const withPayload = new Uint8Array(enc.length + payload.length);
        withPayload.set(enc);
        withPayload.set(payload, enc.length);
        assert.deepEqual(decodeDdpHeader(withPayload), h);
      }),
    );
  });

  it('encodes at an offset into a caller buffer', () => {
    const out = new Uint8Array(20).fill(0xaa);
    encodeDdpHeader({ tagged: true, last: false, rsvd: 0, version: 1, rsvdUlp: 0, stag: 1, to: 2n }, out, 3);
    assert.equal(toHex(out), `aaaaaa 81 00 00000001 0000000000000002 aaaaaa`.replace(/ /g, ''));
  });

  it('a DDP version other than 1 is DDP/Tagged/Invalid DDP version (0x04) or DDP/Untagged/… (0x06)', () => {
    for (const dv of [0, 2, 3]) {
      assertTerminate(
        () => decodeDdpHeader(hex(`${(0xc0 | dv).toString(16)} 40 00000000 0000000000000000`)),
        TermLayer.DDP,
        DdpEtype.TaggedBuffer,
        DdpTaggedEcode.InvalidVersion,
      );
      assertTerminate(
        () => decodeDdpHeader(hex(`${(0x40 | dv).toString(16).padStart(2, '0')} 43`)),
        TermLayer.DDP,
        DdpEtype.UntaggedBuffer,
        DdpUntaggedEcode.InvalidVersion,
      );
    }
  });

  it('a segment shorter than its header is a DDP local catastrophic error', () => {
    assertTerminate(() => decodeDdpHeader(new Uint8Array(0)), TermLayer.DDP, DdpEtype.LocalCatastrophic, 0);
    assertTerminate(() => decodeDdpHeader(hex('c140 12345678 01020304050607')), TermLayer.DDP, DdpEtype.LocalCatastrophic, 0);
    assertTerminate(() => decodeDdpHeader(hex('4143 00000000 00000000 00000001 000000')), TermLayer.DDP, DdpEtype.LocalCatastrophic, 0);
  });

  it('encode refuses out-of-range fields', () => {
    assert.throws(() => encodeDdpHeader({ tagged: true, last: false, rsvd: 0, version: 1, rsvdUlp: 0, stag: 2 ** 32, to: 0n }), RangeError);
    assert.throws(
      () => encodeDdpHeader({ tagged: true, last: false, rsvd: 0, version: 1, rsvdUlp: 0, stag: 0, to: 1n << 64n }),
      RangeError,
    );
    assert.throws(
      () => encodeDdpHeader({ tagged: false, last: false, rsvd: 0, version: 1, rsvdUlp: 0, rsvdUlp32: 0, qn: -1, msn: 0, mo: 0 }),
      RangeError,
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { crc32c } from '../../src/wire/crc32c.js';
import { MpaEcode, TermLayer } from '../../src/wire/errors.js';
import {
  countMarkers,
  decodeFpdu,
  decodeMpaIrdOrd,
  decodeMpaMarker,
  encodeMpaMarker,
  decodeMpaReqRep,
  encodeFpdu,
  encodeMpaIrdOrd,
  encodeMpaReqRep,
  MarkerInserter,
  MPA_KEY_REP,
  MPA_KEY_REQ,
  MPA_MAX_PRIVATE_DATA,
  type MpaIrdOrd,
  type MpaReqRep,
  mpaFpduLength,
  mpaFramePrefix,
  mpaPadLength,
  mpaTrailer,
  readMpaCrc,
  removeMarkers,
  stringifyMpaIrdOrd,
  stringifyMpaMarker,
  stringifyMpaReqRep,
} from '../../src/wire/mpa.js';
import { assertTerminate, concat, hex, toHex } from './helpers.js';

const LLP = TermLayer.LLP;
const MPA = 0;

// The MPA Request Linux siw sends by default (MPA revision 2, enhanced, IRD=ORD=1, no Markers,
// no CRC): key, flags 0x10 (S), revision 2, PD_Length 4, IRD/ORD word 0x0001 0x0001.
const SIW_REQUEST = hex('4d 50 41 20 49 44 20 52 65 71 20 46 72 61 6d 65 10 02 00 04 00 01 00 01');

const arbIrdOrd: fc.Arbitrary<MpaIrdOrd> = fc.record(
  {
    ird: fc.integer({ min: 0, max: 0x3fff }),
    ord: fc.integer({ min: 0, max: 0x3fff }),
    peerToPeer: fc.boolean(),
    zeroLengthSendRtr: fc.boolean(),
    zeroLengthWriteRtr: fc.boolean(),
    zeroLengthReadRtr: fc.boolean(),
  },
  { noNullPrototype: true },
);

const arbReqRep: fc.Arbitrary<MpaReqRep> = fc.record(
  {
    type: fc.constantFrom('request' as const, 'reply' as const),
    markers: fc.boolean(),
    crc: fc.boolean(),
    reject: fc.boolean(),
    enhanced: fc.boolean(),
    res: fc.integer({ min: 0, max: 15 }),
    revision: fc.constantFrom(1, 2),
    privateData: fc.uint8Array({ minLength: 4, maxLength: MPA_MAX_PRIVATE_DATA }),
  },
  { noNullPrototype: true },
);

describe('MPA Request/Reply frames (RFC 5044 §7.1.1, RFC 6581)', () => {
  it('keys are the ASCII strings of RFC 5044', () => {
    assert.equal(new TextDecoder().decode(MPA_KEY_REQ), 'MPA ID Req Frame');
    assert.equal(new TextDecoder().decode(MPA_KEY_REP), 'MPA ID Rep Frame');
  });

  it('golden: the Request Linux siw sends decodes to rev 2, enhanced, IRD=1, ORD=1, no Markers, no CRC', () => {
    const r = decodeMpaReqRep(SIW_REQUEST, 'request');
    assert.equal(r.status, 'frame');
    if (r.status !== 'frame') return;
    assert.equal(r.consumed, 24);
    const f = r.frame;
    assert.deepEqual(
      { type: f.type, revision: f.revision, enhanced: f.enhanced, markers: f.markers, crc: f.crc, reject: f.reject, res: f.res },
      { type: 'request', revision: 2, enhanced: true, markers: false, crc: false, reject: false, res: 0 },
    );
    assert.deepEqual(decodeMpaIrdOrd(f.privateData), {
      ird: 1,
      ord: 1,
      peerToPeer: false,
      zeroLengthSendRtr: false,
      zeroLengthWriteRtr: false,
      zeroLengthReadRtr: false,
    });
    assert.deepEqual(encodeMpaReqRep(f), SIW_REQUEST);
    assert.equal(stringifyMpaReqRep(f), 'MPA Req rev=2 M=0 C=0 R=0 S=1 pd=4 [IRD=1 ORD=1]');
  });

  it('golden: a hand-built rejecting Reply with Markers and CRC and 3 octets of private data', () => {
    const bytes = hex('4d50412049442052657020467261 6d65 e0 01 0003 616263');
    const r = decodeMpaReqRep(bytes);
    assert.equal(r.status, 'frame');
    if (r.status !== 'frame') return;
    assert.equal(r.frame.type, 'reply');
    assert.ok(r.frame.markers && r.frame.crc && r.frame.reject && !r.frame.enhanced);
    assert.equal(r.frame.revision, 1);
    assert.deepEqual(r.frame.privateData, hex('616263'));
    assert.deepEqual(
      encodeMpaReqRep({
        type: 'reply',
        markers: true,
        crc: true,
        reject: true,
        enhanced: false,
        res: 0,
        revision: 1,
        privateData: hex('616263'),
      }),
      bytes,
    );
  });

  it('round-trips any frame', () => {
    fc.assert(
      fc.property(arbReqRep, (f) => {
        const bytes = encodeMpaReqRep(f);
        const r = decodeMpaReqRep(bytes);
        assert.equal(r.status, 'frame');
        if (r.status === 'frame') {
          assert.deepEqual(r.frame, f);
          assert.equal(r.consumed, bytes.length);
        }
      }),
    );
  });

  it('decodes incrementally: every proper prefix needs more, trailing octets are left alone', () => {
    fc.assert(
      fc.property(arbReqRep, fc.uint8Array({ maxLength: 8 }), (f, tail) => {
        const bytes = encodeMpaReqRep(f);
        for (let n = 0; n < bytes.length; n++) {
          const r = decodeMpaReqRep(bytes.subarray(0, n), f.type);
          assert.equal(r.status, 'need-more', `prefix ${n}`);
          if (r.status === 'need-more') assert.equal(r.needed, n < 20 ? 20 : bytes.length);
        }
        const r = decodeMpaReqRep(concat([bytes, tail]), f.type);
        assert.equal(r.status, 'frame');
        if (r.status === 'frame') assert.equal(r.consumed, bytes.length);
      }),
      { numRuns: 30 },
    );
  });

  it('a wrong key is rejected from its first wrong octet: LLP/MPA/Invalid Request-Reply (0x04)', () => {
    assertTerminate(() => decodeMpaReqRep(hex('47')), LLP, MPA, MpaEcode.InvalidRequestReply);
    // "GET / HTTP/1.1": not MPA at all.
    assertTerminate(() => decodeMpaReqRep(new TextEncoder().encode('GET / HTTP/1.1\r\n')), LLP, MPA, MpaEcode.InvalidRequestReply);
    // A valid prefix common to both keys is just incomplete.
    assert.equal(decodeMpaReqRep(hex('4d50412049442052')).status, 'need-more');
    // The 10th octet tells Req ('q') from Rep ('p'); anything else is wrong.
    assertTerminate(() => decodeMpaReqRep(hex('4d5041204944205265 78')), LLP, MPA, MpaEcode.InvalidRequestReply);
  });

  it('a frame of the wrong type for this side is invalid (0x04)', () => {
    assertTerminate(() => decodeMpaReqRep(SIW_REQUEST, 'reply'), LLP, MPA, MpaEcode.InvalidRequestReply);
    const rep = encodeMpaReqRep({
      type: 'reply',
      markers: false,
      crc: false,
      reject: false,
      enhanced: false,
      res: 0,
      revision: 1,
      privateData: new Uint8Array(0),
    });
    assertTerminate(() => decodeMpaReqRep(rep.subarray(0, 12), 'request'), LLP, MPA, MpaEcode.InvalidRequestReply);
  });

  it('unknown revisions (0, 3, 255) are invalid (0x04)', () => {
    for (const rev of [0, 3, 255]) {
      const b = SIW_REQUEST.slice();
      b[17] = rev;
      assertTerminate(() => decodeMpaReqRep(b), LLP, MPA, MpaEcode.InvalidRequestReply);
    }
  });

  it('PD_Length above 512 is invalid (0x04) even before the private data arrives', () => {
    const b = SIW_REQUEST.slice(0, 20);
    b[18] = 0x02;
    b[19] = 0x01; // 513
    assertTerminate(() => decodeMpaReqRep(b), LLP, MPA, MpaEcode.InvalidRequestReply);
    b[19] = 0x00; // 512: fine, just incomplete
    assert.deepEqual(decodeMpaReqRep(b), { status: 'need-more', needed: 532 });
  });

  it('an enhanced revision-2 frame without room for the IRD/ORD word is invalid (0x04)', () => {
    const b = hex('4d 50 41 20 49 44 20 52 65 71 20 46 72 61 6d 65 10 02 00 02 00 01');
    assertTerminate(() => decodeMpaReqRep(b), LLP, MPA, MpaEcode.InvalidRequestReply);
  });

  it('encode refuses private data over 512 octets', () => {
    assert.throws(
      () =>
        encodeMpaReqRep({
          type: 'request',
          markers: false,
          crc: false,
          reject: false,
          enhanced: false,
          res: 0,
          revision: 1,
          privateData: new Uint8Array(513),
        }),
      RangeError,
    );
  });
});

describe('RFC 6581 IRD/ORD word', () => {
  it('golden bit positions: A=IRD bit 15, B=IRD bit 14, C=ORD bit 15, D=ORD bit 14, 14-bit depths', () => {
    const base = { ird: 0, ord: 0, peerToPeer: false, zeroLengthSendRtr: false, zeroLengthWriteRtr: false, zeroLengthReadRtr: false };
    assert.equal(toHex(encodeMpaIrdOrd({ ...base, peerToPeer: true })), '80000000');
    assert.equal(toHex(encodeMpaIrdOrd({ ...base, zeroLengthSendRtr: true })), '40000000');
    assert.equal(toHex(encodeMpaIrdOrd({ ...base, zeroLengthWriteRtr: true })), '00008000');
    assert.equal(toHex(encodeMpaIrdOrd({ ...base, zeroLengthReadRtr: true })), '00004000');
    assert.equal(toHex(encodeMpaIrdOrd({ ...base, ird: 0x3fff, ord: 0x1234 })), '3fff1234');
    assert.deepEqual(decodeMpaIrdOrd(hex('c0104005')), {
      ird: 0x10,
      ord: 5,
      peerToPeer: true,
      zeroLengthSendRtr: true,
      zeroLengthWriteRtr: false,
      zeroLengthReadRtr: true,
    });
    assert.equal(stringifyMpaIrdOrd(decodeMpaIrdOrd(hex('c0104005'))), 'IRD=16 ORD=5 P2P RTR=send,read');
  });

  it('round-trips', () => {
    fc.assert(fc.property(arbIrdOrd, (p) => assert.deepEqual(decodeMpaIrdOrd(encodeMpaIrdOrd(p)), p)));
  });

  it('rejects 15-bit depths on encode and short private data on decode', () => {
    assert.throws(
      () =>
        encodeMpaIrdOrd({
          ird: 0x4000,
          ord: 0,
          peerToPeer: false,
          zeroLengthSendRtr: false,
          zeroLengthWriteRtr: false,
          zeroLengthReadRtr: false,
        }),
      RangeError,
    );
    assertTerminate(() => decodeMpaIrdOrd(hex('000100')), LLP, MPA, MpaEcode.InvalidRequestReply);
  });
});

describe('FPDU framing (RFC 5044 §4.1, §4.4)', () => {
  it('PAD makes ULPDU_LENGTH + ULPDU + PAD a multiple of 4', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 65535].map(mpaPadLength), [2, 1, 0, 3, 2, 1, 0, 3]);
    for (let n = 0; n < 64; n++) assert.equal((2 + n + mpaPadLength(n)) % 4, 0);
    assert.equal(mpaFpduLength(42), 48);
  });

  // A Terminate FPDU built by hand: DDP untagged L=1 DV=1 (0x41), RDMAP RV=1 Terminate (0x47),
  // QN 2, MSN 1, MO 0; Terminate Control DDP/Untagged/Invalid QN (0x12 0x01), M and D (0xc0);
  // DDP Segment Length 18 and the copied 18-octet untagged Send header (QN 7, MSN 5).
  // ULPDU_LENGTH 42 = 0x002a, no PAD; CRC32C over the 44 octets is 0x837ad5e0, sent least
  // significant octet first (e0 d5 7a 83) like the RFC 3720 §B.4 examples. Wireshark 4.0 shows
  // the field read big-endian as "CRC check: 0xe0d57a83 (Good CRC32)".
  const TERMINATE_ULPDU = hex(`
    4147 00000000 00000002 00000001 00000000
    1201c000 0012
    4143 00000000 00000007 00000005 00000000`);
  const TERMINATE_FPDU = hex(`002a ${toHex(TERMINATE_ULPDU)} e0d57a83`);

  it('golden: a Terminate FPDU with CRC', () => {
    assert.equal(TERMINATE_ULPDU.length, 42);
    assert.deepEqual(encodeFpdu(TERMINATE_ULPDU, { crc: true }), TERMINATE_FPDU);
    assert.equal(crc32c(TERMINATE_FPDU.subarray(0, 44)), 0x837ad5e0);
    assert.equal(readMpaCrc(TERMINATE_FPDU, 44), 0x837ad5e0);
    const r = decodeFpdu(TERMINATE_FPDU, { crc: true });
    assert.equal(r.status, 'fpdu');
    if (r.status === 'fpdu') {
      assert.deepEqual(r.ulpdu, TERMINATE_ULPDU);
      assert.equal(r.consumed, 48);
    }
  });

  it('golden: PAD octets are zero and covered by the CRC; CRC off sends four zero octets', () => {
    const ulpdu = new TextEncoder().encode('123456789');
    const on = encodeFpdu(ulpdu, { crc: true });
    assert.equal(toHex(on.subarray(0, 12)), '0009313233343536373839' + '00');
    assert.equal(readMpaCrc(on, 12), crc32c(on.subarray(0, 12)));
    const off = encodeFpdu(ulpdu, { crc: false });
    assert.equal(toHex(off), '0009313233343536373839' + '00' + '00000000');
  });

  it('the gather API (prefix + parts + trailer) produces exactly encodeFpdu', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 100 }), { maxLength: 5 }), fc.boolean(), (parts, crc) => {
        const len = parts.reduce((n, p) => n + p.length, 0);
        const prefix = mpaFramePrefix(len);
        const trailer = mpaTrailer(parts, prefix, crc);
        assert.deepEqual(concat([prefix, ...parts, trailer]), encodeFpdu(concat(parts), { crc }));
      }),
    );
  });

  it('decodeFpdu round-trips and reports need-more for partial input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.boolean(), (ulpdu, crc) => {
        const f = encodeFpdu(ulpdu, { crc });
        for (const n of [0, 1, f.length - 1]) assert.equal(decodeFpdu(f.subarray(0, n), { crc }).status, 'need-more');
        const r = decodeFpdu(f, { crc });
        assert.equal(r.status, 'fpdu');
        if (r.status === 'fpdu') assert.deepEqual(r.ulpdu, ulpdu);
      }),
    );
  });

  it('a corrupted FPDU fails the CRC: LLP/MPA/CRC error (0x02); without CRCs it is not checked', () => {
    const bad = TERMINATE_FPDU.slice();
    bad[10] ^= 0x01;
    assertTerminate(() => decodeFpdu(bad, { crc: true }), LLP, MPA, MpaEcode.CrcError);
    assert.equal(decodeFpdu(bad, { crc: false }).status, 'fpdu');
  });

  it('an oversized ULPDU_LENGTH loses framing: LLP/MPA/Marker-ULPDU Length mismatch (0x03)', () => {
    assertTerminate(() => decodeFpdu(hex('0401'), { crc: false, maxUlpdu: 1024 }), LLP, MPA, MpaEcode.MarkerMismatch);
  });

  it('prefix encode refuses lengths that do not fit 16 bits', () => {
    assert.throws(() => mpaFramePrefix(65536), RangeError);
    assert.throws(() => mpaFramePrefix(-1), RangeError);
  });
});

/**
 * Independent check of a Marker-carrying stream: walks it octet by octet, treating every
 * offset ≡ 0 (mod 512) as a Marker, and returns the ULPDUs and every Marker's FPDUPTR together
 * with the FPDUPTR RFC 5044 §4.3 requires there.
 */
function walkMarkedStream(wire: Uint8Array, start: number) {
  const markers: { at: number; ptr: number; want: number; rsvd: number }[] = [];
  const ulpdus: Uint8Array[] = [];
  let pos = start;
  let i = 0;
  let fpdu: number[] = [];
  let hdrPos = -1;
  let need = -1;
  while (i < wire.length) {
    if (pos % 512 === 0) {
      const ptr = (wire[i + 2]! << 8) | wire[i + 3]!;
      markers.push({ at: pos, ptr, want: fpdu.length === 0 ? 0 : pos - hdrPos, rsvd: (wire[i]! << 8) | wire[i + 1]! });
      i += 4;
      pos += 4;
      continue;
    }
    if (fpdu.length === 0) hdrPos = pos;
    fpdu.push(wire[i]!);
    i++;
    pos++;
    if (fpdu.length === 2) {
      const len = (fpdu[0]! << 8) | fpdu[1]!;
      need = 2 + len + mpaPadLength(len) + 4;
    }
    if (fpdu.length === need) {
      ulpdus.push(Uint8Array.from(fpdu.slice(2, 2 + ((fpdu[0]! << 8) | fpdu[1]!))));
      fpdu = [];
      need = -1;
    }
  }
  return { markers, ulpdus, rest: fpdu.length };
}

describe('Markers (RFC 5044 §4.2, §4.3)', () => {
  it('golden: the first FPDU of the stream is preceded by a Marker with FPDUPTR 0', () => {
    const ins = new MarkerInserter(0);
    const wire = concat(ins.frame([hex('0102030405 06')], false));
    assert.equal(toHex(wire), '00000000' + '0006' + '010203040506' + '00000000');
    assert.equal(ins.streamOffset, 16);
    // The next FPDU starts at offset 16: no Marker until 512.
    assert.equal(toHex(concat(ins.frame([hex('aa')], false))), '0001aa00' + '00000000');
  });

  it('golden: a Marker inside an FPDU points back to its ULPDU_LENGTH', () => {
    const ins = new MarkerInserter(504); // 8 octets before the Marker at 512
    const wire = concat(ins.frame([new Uint8Array(10).fill(0xee)], false));
    // 504: ULPDU_LENGTH 000a, 6 octets of ULPDU; 512: Marker, FPDUPTR 8; then 4 more octets,
    // PAD 0 (2+10 = 12), CRC field.
    assert.equal(toHex(wire), `000a${'ee'.repeat(6)}00000008${'ee'.repeat(4)}00000000`);
  });

  it('golden: a Marker between PAD and CRC belongs to the FPDU and is covered by its CRC', () => {
    const ins = new MarkerInserter(512 - 8); // header+ULPDU+PAD = 8 octets end exactly at 512
    const wire = concat(ins.frame([hex('010203 040506')], true));
    assert.equal(toHex(wire.subarray(0, 12)), '0006010203040506' + '00000008');
    assert.equal(readMpaCrc(wire, 12), crc32c(wire.subarray(0, 12)));
    assert.equal(wire.length, 16);
  });

  it('inserts Markers exactly every 512 octets with the FPDUPTR RFC 5044 §4.3 requires, at any start offset', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.uint8Array({ maxLength: 700 }), { maxLength: 3 }), { minLength: 1, maxLength: 6 }),
        fc.nat(2000).map((n) => n * 4),
        fc.boolean(),
        (fpdus, start, crc) => {
          const ins = new MarkerInserter(start);
          const wire = concat(fpdus.flatMap((parts) => ins.frame(parts, crc)));
          assert.equal(ins.streamOffset, start + wire.length);
          const walked = walkMarkedStream(wire, start);
          assert.equal(walked.rest, 0);
          assert.deepEqual(walked.ulpdus, fpdus.map(concat));
          for (const m of walked.markers) {
            assert.equal(m.ptr, m.want, `Marker at ${m.at}`);
            assert.equal(m.rsvd, 0);
          }
          // Every 512-octet grid position inside the stream holds a Marker, except one at the
          // very end (it would precede the next FPDU).
          assert.equal(walked.markers.length, countMarkers(start, wire.length));
          assert.deepEqual(removeMarkers(wire, start).length, wire.length - 4 * walked.markers.length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('frame() passes ULPDU parts through as zero-copy views', () => {
    const big = new Uint8Array(2000).fill(7);
    const segs = new MarkerInserter(0).frame([big], false);
    const views = segs.filter((s) => s.buffer === big.buffer);
    assert.equal(
      views.reduce((n, s) => n + s.length, 0),
      2000,
    );
  });

  it('Marker codec: 16 reserved bits then the big-endian FPDUPTR', () => {
    assert.equal(toHex(encodeMpaMarker(0x1fc)), '000001fc');
    assert.deepEqual(decodeMpaMarker(hex('ffff01fc')), { rsvd: 0xffff, fpduPtr: 508 });
    assert.equal(stringifyMpaMarker({ rsvd: 0, fpduPtr: 508 }), 'Marker FPDUPTR=508');
    assert.throws(() => encodeMpaMarker(0x10000), RangeError);
    assertTerminate(() => decodeMpaMarker(hex('000001')), LLP, MPA, MpaEcode.MarkerMismatch);
  });

  it('stream offsets must be multiples of 4', () => {
    assert.throws(() => new MarkerInserter(2), RangeError);
    assert.throws(() => removeMarkers(new Uint8Array(4), 6), RangeError);
  });

  it('countMarkers', () => {
    assert.equal(countMarkers(0, 0), 0);
    assert.equal(countMarkers(0, 1), 1);
    assert.equal(countMarkers(4, 508), 0);
    assert.equal(countMarkers(4, 509), 1);
    assert.equal(countMarkers(512, 1025), 3);
  });
});

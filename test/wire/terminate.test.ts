import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  DdpEtype,
  DdpTaggedEcode,
  DdpUntaggedEcode,
  isTerminateError,
  LlpEtype,
  MpaEcode,
  RdmapEcode,
  RdmapEtype,
  stringifyTermCode,
  TerminateError,
  TermLayer,
} from '../../src/wire/errors.js';
import { encodeRdmapHeader, RdmapOpcode } from '../../src/wire/rdmap.js';
import {
  buildTerminate,
  decodeTerminate,
  decodeTerminatedReadRequest,
  decodeTerminateMessage,
  encodeTerminate,
  encodeTerminateMessage,
  stringifyTerminate,
  TERM_MAX_LEN,
  type TerminateHeader,
} from '../../src/wire/terminate.js';
import { assertTerminate, hex, toHex } from './helpers.js';

// An RDMA Read Request (QN 1, MSN 3) whose Data Source STag the responder rejected.
const READ_REQUEST = hex(`
  41 41 00000000 00000001 00000003 00000000
  11223344 0000000000002000 00001000 55667788 000000000000a000`);

const arbTerminate: fc.Arbitrary<TerminateHeader> = fc
  .record(
    {
      layer: fc.integer({ min: 0, max: 15 }),
      etype: fc.integer({ min: 0, max: 15 }),
      ecode: fc.integer({ min: 0, max: 255 }),
      m: fc.boolean(),
      d: fc.boolean(),
      r: fc.boolean(),
      rsvd: fc.integer({ min: 0, max: 0x1fff }),
      len: fc.integer({ min: 0, max: 0xffff }),
      tagged: fc.boolean(),
      hdr: fc.uint8Array({ minLength: 18, maxLength: 18 }),
      rr: fc.uint8Array({ minLength: 28, maxLength: 28 }),
    },
    { noNullPrototype: true },
  )
  .map((x) => {
    const t: TerminateHeader = { layer: x.layer, etype: x.etype, ecode: x.ecode, m: x.m, d: x.d, r: x.r, rsvd: x.rsvd };
    if (x.m || x.d) t.ddpSegmentLength = x.len;
    if (x.d) {
      const h = x.hdr.slice(0, x.tagged ? 14 : 18);
      h[0] = x.tagged ? h[0]! | 0x80 : h[0]! & 0x7f;
      t.ddpHeader = h;
    }
    if (x.r) t.rdmaHeader = x.rr;
    return t;
  });

describe('Terminate (RFC 5040 §4.8)', () => {
  it('golden: Remote Protection/Invalid STag for a Read Request, with M, D, R and both copied headers', () => {
    const err = TerminateError.rdmap(RdmapEtype.RemoteProtection, RdmapEcode.InvalidStag);
    const t = buildTerminate(err, READ_REQUEST);
    assert.deepEqual(t, {
      layer: 0,
      etype: 1,
      ecode: 0,
      m: true,
      d: true,
      r: true,
      rsvd: 0,
      ddpSegmentLength: 46,
      ddpHeader: READ_REQUEST.slice(0, 18),
      rdmaHeader: READ_REQUEST.slice(18),
    });
    const msg = encodeTerminateMessage(t, 1);
    // DDP untagged L=1 (0x41), RDMAP Terminate (0x47), QN 2, MSN 1, MO 0; Terminate Control:
    // Layer 0 EType 1 (0x01), Error Code 0x00, HdrCt M|D|R (0xe0), reserved 0; length 46 (0x002e).
    assert.equal(
      toHex(msg),
      `4147 00000000 00000002 00000001 00000000 0100e000 002e ${toHex(READ_REQUEST)}`.replace(/ /g, '').replace(/\n/g, ''),
    );
    assert.equal(msg.length, 18 + TERM_MAX_LEN);
    const back = decodeTerminateMessage(msg);
    assert.deepEqual(back.terminate, t);
    assert.deepEqual([back.ddp.qn, back.ddp.msn, back.ddp.mo, back.ddp.last], [2, 1, 0, true]);
    assert.deepEqual(decodeTerminatedReadRequest(t.rdmaHeader!), {
      sinkStag: 0x11223344,
      sinkTo: 0x2000n,
      size: 4096,
      srcStag: 0x55667788,
      srcTo: 0xa000n,
    });
    assert.match(
      stringifyTerminate(t),
      /^Terminate RDMAP\/Remote Protection Error\/Invalid STag \(0x00\/0x01\/0x00\) M D R len=46 \[DDP U L ulp=0x41 QN=1 MSN=3 MO=0\] \[RR sink=0x11223344@0x2000 size=4096 src=0x55667788@0xa000\]$/,
    );
  });

  it('golden: an LLP CRC error has no segment to copy: Terminate Control only', () => {
    const t = buildTerminate(TerminateError.mpa(MpaEcode.CrcError));
    assert.equal(toHex(encodeTerminate(t)), '20020000');
    assert.deepEqual(decodeTerminate(hex('20020000')), { layer: 2, etype: 0, ecode: 2, m: false, d: false, r: false, rsvd: 0 });
  });

  it('golden: a tagged segment copies the 14-octet tagged header', () => {
    const write = encodeRdmapHeader({
      ddp: { tagged: true, last: true, rsvd: 0, version: 1, rsvdUlp: 0, stag: 0xdead, to: 0x10n },
      version: 1,
      rsvd: 0,
      opcode: RdmapOpcode.Write,
    });
    const seg = new Uint8Array(100);
    seg.set(write);
    const t = buildTerminate(TerminateError.ddpTagged(DdpTaggedEcode.BaseOrBounds), seg);
    const enc = encodeTerminate(t);
    assert.equal(toHex(enc), `1101c000 0064 ${toHex(write)}`.replace(/ /g, ''));
    assert.deepEqual(decodeTerminate(enc), t);
  });

  it('round-trips any Terminate header', () => {
    fc.assert(fc.property(arbTerminate, (t) => assert.deepEqual(decodeTerminate(encodeTerminate(t)), t)));
  });

  it('a header shorter than its HdrCt bits announce is RDMAP/Remote Operation/Unspecified', () => {
    fc.assert(
      fc.property(arbTerminate, fc.nat(), (t, cut) => {
        const enc = encodeTerminate(t);
        if (enc.length === 0) return;
        const n = cut % enc.length;
        assertTerminate(() => decodeTerminate(enc.subarray(0, n)), TermLayer.RDMAP, RdmapEtype.RemoteOperation, RdmapEcode.Unspecified);
      }),
    );
  });

  it('decodeTerminateMessage rejects other messages', () => {
    const send = encodeRdmapHeader({
      ddp: { tagged: false, last: true, rsvd: 0, version: 1, rsvdUlp: 0, rsvdUlp32: 0, qn: 0, msn: 1, mo: 0 },
      version: 1,
      rsvd: 0,
      opcode: RdmapOpcode.Send,
    });
    assertTerminate(() => decodeTerminateMessage(send), TermLayer.RDMAP, RdmapEtype.RemoteOperation, RdmapEcode.UnexpectedOpcode);
  });

  it('encode refuses inconsistent headers', () => {
    const base: TerminateHeader = { layer: 1, etype: 2, ecode: 1, m: false, d: true, r: false, rsvd: 0 };
    assert.throws(() => encodeTerminate(base), RangeError);
    assert.throws(() => encodeTerminate({ ...base, d: false, r: true, rdmaHeader: new Uint8Array(10) }), RangeError);
    assert.throws(() => encodeTerminate({ ...base, d: false, layer: 16 }), RangeError);
  });
});

describe('TerminateError and the code tables', () => {
  it('has a stable name and code and a readable message naming layer, type and code', () => {
    const e = TerminateError.mpa(MpaEcode.CrcError, 'FPDU at 1234');
    assert.equal(e.name, 'TerminateError');
    assert.equal(e.code, 'ERR_IWARP_TERMINATE');
    assert.ok(e instanceof Error && isTerminateError(e));
    assert.equal(e.message, 'LLP/MPA/CRC error (0x02/0x00/0x02): FPDU at 1234');
    assert.match(String(e), /^TerminateError: LLP\/MPA\/CRC error/);
    assert.equal(isTerminateError(new Error('x')), false);
  });

  it('numbers match the IANA RDDP registry (RFC 5040, 5041, 5044, 6581)', () => {
    assert.deepEqual([TermLayer.RDMAP, TermLayer.DDP, TermLayer.LLP], [0, 1, 2]);
    assert.deepEqual([RdmapEtype.LocalCatastrophic, RdmapEtype.RemoteProtection, RdmapEtype.RemoteOperation], [0, 1, 2]);
    assert.deepEqual(
      [
        RdmapEcode.InvalidStag,
        RdmapEcode.BaseOrBounds,
        RdmapEcode.AccessRights,
        RdmapEcode.StagNotAssociated,
        RdmapEcode.ToWrap,
        RdmapEcode.InvalidVersion,
        RdmapEcode.UnexpectedOpcode,
        RdmapEcode.CatastrophicStream,
        RdmapEcode.CatastrophicGlobal,
        RdmapEcode.CannotInvalidate,
        RdmapEcode.Unspecified,
      ],
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xff],
    );
    assert.deepEqual([DdpEtype.LocalCatastrophic, DdpEtype.TaggedBuffer, DdpEtype.UntaggedBuffer, DdpEtype.ReservedForLlp], [0, 1, 2, 3]);
    assert.deepEqual(
      [
        DdpTaggedEcode.InvalidStag,
        DdpTaggedEcode.BaseOrBounds,
        DdpTaggedEcode.StagNotAssociated,
        DdpTaggedEcode.ToWrap,
        DdpTaggedEcode.InvalidVersion,
      ],
      [0, 1, 2, 3, 4],
    );
    assert.deepEqual(
      [
        DdpUntaggedEcode.InvalidQn,
        DdpUntaggedEcode.InvalidMsnNoBuffer,
        DdpUntaggedEcode.InvalidMsnRange,
        DdpUntaggedEcode.InvalidMo,
        DdpUntaggedEcode.MessageTooLong,
        DdpUntaggedEcode.InvalidVersion,
      ],
      [1, 2, 3, 4, 5, 6],
    );
    assert.equal(LlpEtype.Mpa, 0);
    assert.deepEqual(
      [
        MpaEcode.TcpConnectionLost,
        MpaEcode.CrcError,
        MpaEcode.MarkerMismatch,
        MpaEcode.InvalidRequestReply,
        MpaEcode.LocalCatastrophic,
        MpaEcode.InsufficientIrd,
        MpaEcode.NoMatchingRtr,
      ],
      [1, 2, 3, 4, 5, 6, 7],
    );
  });

  it('names every defined triple and falls back to numbers', () => {
    assert.equal(stringifyTermCode(1, 2, 6), 'DDP/Untagged Buffer Error/Invalid DDP version (0x01/0x02/0x06)');
    assert.equal(stringifyTermCode(0, 2, 5), 'RDMAP/Remote Operation Error/Invalid RDMAP version (0x00/0x02/0x05)');
    assert.equal(stringifyTermCode(0, 0, 0x33), 'RDMAP/Local Catastrophic Error/Local Catastrophic Error (0x00/0x00/0x33)');
    assert.equal(stringifyTermCode(2, 0, 7), 'LLP/MPA/No Matching RTR Option (0x02/0x00/0x07)');
    assert.equal(stringifyTermCode(9, 9, 9), 'Layer(0x09)/EType(0x09)/ECode(0x09) (0x09/0x09/0x09)');
  });
});

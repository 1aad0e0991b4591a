import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DdpQueue, DDP_TAGGED_HDR_LEN, DDP_UNTAGGED_HDR_LEN } from '../../src/wire/ddp.js';
import { DdpEtype, DdpUntaggedEcode, RdmapEcode, RdmapEtype, TerminateError, TermLayer } from '../../src/wire/errors.js';
import {
  AtomicOpcode,
  decodeRdmapHeader,
  decodeRdmapHeaderInto,
  encodeRdmapHeader,
  RDMAP_OPCODES,
  type RdmapHeader,
  RdmapHeaderStruct,
  RdmapOpcode,
  rdmapControl,
  rdmapOpcodeName,
  stringifyRdmapHeader,
} from '../../src/wire/rdmap.js';
import { assertTerminate, concat, hex, Prng, toHex } from './helpers.js';
import { referenceDecode } from './rdmap-reference.js';

const u32 = fc.integer({ min: 0, max: 0xffffffff });
const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const rec = <T>(m: { [K in keyof T]: fc.Arbitrary<T[K]> }) => fc.record(m, { noNullPrototype: true }) as fc.Arbitrary<T>;

/** Any well-formed header of any of the 12 opcodes. */
const arbRdmap: fc.Arbitrary<RdmapHeader> = fc
  .record(
    {
      opcode: fc.integer({ min: 0, max: 11 }),
      rsvd: fc.integer({ min: 0, max: 3 }),
      ddpRsvd: fc.integer({ min: 0, max: 15 }),
      last: fc.boolean(),
      a: u32,
      b: u32,
      c: u32,
      d: u32,
      to: u64,
      rr: rec({ sinkStag: u32, sinkTo: u64, size: u32, srcStag: u32, srcTo: u64 }),
      imm: u64,
      ar: rec({
        rsvd: fc.integer({ min: 0, max: 0x0fffffff }),
        atomicOpcode: fc.integer({ min: 0, max: 15 }),
        requestId: u32,
        remoteStag: u32,
        remoteTo: u64,
        addSwapData: u64,
        addSwapMask: u64,
        compareData: u64,
        compareMask: u64,
      }),
      ap: rec({ originalRequestId: u32, originalValue: u64 }),
    },
    { noNullPrototype: true },
  )
  .map((r) => {
    const info = RDMAP_OPCODES[r.opcode]!;
    const rsvdUlp = rdmapControl(1, r.rsvd, r.opcode);
    const h: RdmapHeader = {
      ddp: info.tagged
        ? { tagged: true, last: r.last, rsvd: r.ddpRsvd, version: 1, rsvdUlp, stag: r.a, to: r.to }
        : { tagged: false, last: r.last, rsvd: r.ddpRsvd, version: 1, rsvdUlp, rsvdUlp32: r.a, qn: info.qn!, msn: r.c, mo: r.d },
      version: 1,
      rsvd: r.rsvd,
      opcode: r.opcode,
    };
    if (r.opcode === RdmapOpcode.ReadRequest) h.readRequest = r.rr;
    if (r.opcode === RdmapOpcode.ImmediateData || r.opcode === RdmapOpcode.ImmediateDataSE) h.immediateData = r.imm;
    if (r.opcode === RdmapOpcode.AtomicRequest) h.atomicRequest = r.ar;
    if (r.opcode === RdmapOpcode.AtomicResponse) h.atomicResponse = r.ap;
    return h;
  });

type Outcome = { ok: { header: RdmapHeader; headerLength: number } } | { err: [number, number, number] };
function outcome(fn: () => { header: RdmapHeader; headerLength: number }): Outcome {
  try {
    return { ok: fn() };
  } catch (e) {
    if (!(e instanceof TerminateError)) throw e;
    return { err: [e.layer, e.etype, e.ecode] };
  }
}

const ut = (qn: number, msn: number, opts: { last?: boolean; inv?: number; mo?: number } = {}) => ({
  tagged: false as const,
  last: opts.last ?? true,
  rsvd: 0,
  version: 1,
  rsvdUlp: 0,
  rsvdUlp32: opts.inv ?? 0,
  qn,
  msn,
  mo: opts.mo ?? 0,
});

describe('RDMAP opcode table (RFC 5040 §4.2, RFC 7306 §3)', () => {
  it('buffer model, queue and header length of every opcode', () => {
    const rows = RDMAP_OPCODES.map((i) => i && [i.opcode, i.tagged ? 'T' : `QN${i.qn}`, i.headerLength, i.rfc]);
    assert.deepEqual(rows, [
      [0, 'T', 14, 5040],
      [1, 'QN1', 46, 5040],
      [2, 'T', 14, 5040],
      [3, 'QN0', 18, 5040],
      [4, 'QN0', 18, 5040],
      [5, 'QN0', 18, 5040],
      [6, 'QN0', 18, 5040],
      [7, 'QN2', 18, 5040],
      [8, 'QN0', 26, 7306],
      [9, 'QN0', 26, 7306],
      [10, 'QN1', 70, 7306],
      [11, 'QN3', 30, 7306],
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    assert.deepEqual(
      RDMAP_OPCODES.filter((i) => i?.invalidate).map((i) => i!.opcode),
      [RdmapOpcode.SendInvalidate, RdmapOpcode.SendSEInvalidate],
    );
    assert.deepEqual(
      RDMAP_OPCODES.filter((i) => i?.solicited).map((i) => i!.opcode),
      [RdmapOpcode.SendSE, RdmapOpcode.SendSEInvalidate, RdmapOpcode.ImmediateDataSE],
    );
    assert.equal(rdmapOpcodeName(13), 'OpCode(13)');
  });
});

describe('RDMAP headers: golden vectors worked out from RFC 5040/5041/7306', () => {
  it('RDMA Write: tagged, T=1 L=1 DV=1 (0xc1), RV=1 OpCode 0 (0x40), STag, TO', () => {
    const h: RdmapHeader = {
      ddp: { tagged: true, last: true, rsvd: 0, version: 1, rsvdUlp: 0x40, stag: 0x00abcdef, to: 0x7f00_0000_1000n },
      version: 1,
      rsvd: 0,
      opcode: RdmapOpcode.Write,
    };
    const bytes = hex('c1 40 00abcdef 00007f0000001000');
    assert.deepEqual(encodeRdmapHeader(h), bytes);
    assert.deepEqual(decodeRdmapHeader(concat([bytes, hex('deadbeef')])), { header: h, headerLength: 14 });
    assert.equal(stringifyRdmapHeader(h), 'RDMAP Write [DDP T L ulp=0x40 STag=0x00abcdef TO=0x7f0000001000]');
  });

  it('Send: untagged, T=0 L=1 DV=1 (0x41), RV=1 OpCode 3 (0x43), QN 0, MSN 1, MO 0', () => {
    const h: RdmapHeader = { ddp: { ...ut(0, 1), rsvdUlp: 0x43 }, version: 1, rsvd: 0, opcode: RdmapOpcode.Send };
    const bytes = hex('41 43 00000000 00000000 00000001 00000000');
    assert.deepEqual(encodeRdmapHeader(h), bytes);
    assert.deepEqual(decodeRdmapHeader(bytes).header, h);
  });

  it('Send with SE and Invalidate, middle segment: L=0, Invalidate STag in RsvdULP, MO 256', () => {
    const bytes = hex('01 46 cafebabe 00000000 00000007 00000100');
    const { header } = decodeRdmapHeader(bytes);
    assert.equal(header.opcode, RdmapOpcode.SendSEInvalidate);
    assert.equal(header.ddp.last, false);
    assert.ok(!header.ddp.tagged && header.ddp.rsvdUlp32 === 0xcafebabe && header.ddp.msn === 7 && header.ddp.mo === 256);
    assert.equal(
      stringifyRdmapHeader(header),
      'RDMAP Send with SE and Invalidate [DDP U ulp=0x46 ulp32=0xcafebabe QN=0 MSN=7 MO=256] InvSTag=0xcafebabe',
    );
    const s = new RdmapHeaderStruct();
    decodeRdmapHeaderInto(bytes, 0, bytes.length, s);
    assert.equal(s.invalidateStag, 0xcafebabe);
    assert.equal(s.info.name, 'Send with SE and Invalidate');
  });

  it('RDMA Read Request (RFC 5040 §4.4): QN 1, then Sink STag/TO, size, Source STag/TO', () => {
    const bytes = hex(`
      41 41 00000000 00000001 00000003 00000000
      11223344 0000000000002000 00001000 55667788 000000010000a000`);
    const h: RdmapHeader = {
      ddp: { ...ut(1, 3), rsvdUlp: 0x41 },
      version: 1,
      rsvd: 0,
      opcode: RdmapOpcode.ReadRequest,
      readRequest: { sinkStag: 0x11223344, sinkTo: 0x2000n, size: 4096, srcStag: 0x55667788, srcTo: 0x1_0000_a000n },
    };
    assert.deepEqual(encodeRdmapHeader(h), bytes);
    assert.deepEqual(decodeRdmapHeader(bytes), { header: h, headerLength: 46 });
    const s = new RdmapHeaderStruct();
    assert.equal(decodeRdmapHeaderInto(bytes, 0, bytes.length, s), 46);
    assert.deepEqual([s.sinkTo, s.srcTo, s.readSize], [0x2000n, 0x1_0000_a000n, 4096]);
    assert.equal(
      stringifyRdmapHeader(h),
      'RDMAP Read Request [DDP U L ulp=0x41 QN=1 MSN=3 MO=0] sink=0x11223344@0x2000 size=4096 src=0x55667788@0x10000a000',
    );
  });

  it('RDMA Read Response: tagged, OpCode 2 (0x42)', () => {
    const { header } = decodeRdmapHeader(hex('c1 42 11223344 0000000000002000'));
    assert.equal(header.opcode, RdmapOpcode.ReadResponse);
    assert.ok(header.ddp.tagged && header.ddp.stag === 0x11223344 && header.ddp.to === 0x2000n);
  });

  it('RFC 7306 Immediate Data (OpCode 8, QN 0, 8 octets of data)', () => {
    const bytes = hex('41 48 00000000 00000000 00000002 00000000 0123456789abcdef');
    const { header, headerLength } = decodeRdmapHeader(bytes);
    assert.equal(headerLength, 26);
    assert.equal(header.immediateData, 0x0123456789abcdefn);
    assert.deepEqual(encodeRdmapHeader(header), bytes);
  });

  it('RFC 7306 Atomic Request (OpCode 10, QN 1) and Atomic Response (OpCode 11, QN 3)', () => {
    const req = hex(`
      41 4a 00000000 00000001 00000004 00000000
      00000002 00000009 0000abcd 0000000000001000
      1111111111111111 ffffffffffffffff 2222222222222222 ffffffffffffffff`);
    const r = decodeRdmapHeader(req);
    assert.equal(r.headerLength, 70);
    assert.deepEqual(r.header.atomicRequest, {
      rsvd: 0,
      atomicOpcode: AtomicOpcode.CompareSwap,
      requestId: 9,
      remoteStag: 0xabcd,
      remoteTo: 0x1000n,
      addSwapData: 0x1111111111111111n,
      addSwapMask: 0xffffffffffffffffn,
      compareData: 0x2222222222222222n,
      compareMask: 0xffffffffffffffffn,
    });
    assert.deepEqual(encodeRdmapHeader(r.header), req);
    const resp = hex('41 4b 00000000 00000003 00000001 00000000 00000009 0000000000000005');
    const p = decodeRdmapHeader(resp);
    assert.deepEqual(p.header.atomicResponse, { originalRequestId: 9, originalValue: 5n });
    assert.equal(p.headerLength, 30);
    assert.deepEqual(encodeRdmapHeader(p.header), resp);
  });
});

describe('RDMAP decode errors (RFC 5040 §7.3, RFC 5041 §7)', () => {
  const SEND = hex('41 43 00000000 00000000 00000001 00000000');

  it('wrong DDP version → DDP Tagged 0x04 / Untagged 0x06', () => {
    assertTerminate(() => decodeRdmapHeader(hex('c2 40 00000000 0000000000000000')), TermLayer.DDP, DdpEtype.TaggedBuffer, 0x04);
    assertTerminate(() => decodeRdmapHeader(hex('40 43')), TermLayer.DDP, DdpEtype.UntaggedBuffer, DdpUntaggedEcode.InvalidVersion);
  });

  it('wrong RDMAP version → RDMAP/Remote Operation/Invalid RDMAP version', () => {
    for (const rv of [0, 2, 3]) {
      const b = SEND.slice();
      b[1] = (rv << 6) | 3;
      assertTerminate(() => decodeRdmapHeader(b), TermLayer.RDMAP, RdmapEtype.RemoteOperation, RdmapEcode.InvalidVersion);
    }
  });

  it('reserved opcodes 12–15 → RDMAP/Remote Operation/Unexpected OpCode', () => {
    for (const opc of [12, 13, 14, 15]) {
      const b = SEND.slice();
      b[1] = 0x40 | opc;
      assertTerminate(() => decodeRdmapHeader(b), TermLayer.RDMAP, RdmapEtype.RemoteOperation, RdmapEcode.UnexpectedOpcode);
    }
  });

  it('an opcode in the wrong buffer model → Unexpected OpCode', () => {
    assertTerminate(
      () => decodeRdmapHeader(hex('c1 43 00000000 0000000000000000')),
      TermLayer.RDMAP,
      RdmapEtype.RemoteOperation,
      RdmapEcode.UnexpectedOpcode,
    );
    assertTerminate(
      () => decodeRdmapHeader(hex('41 40 00000000 00000000 00000001 00000000')),
      TermLayer.RDMAP,
      RdmapEtype.RemoteOperation,
      RdmapEcode.UnexpectedOpcode,
    );
  });

  it('an untagged message on another queue → DDP/Untagged/Invalid QN', () => {
    assertTerminate(
      () => decodeRdmapHeader(hex('41 43 00000000 00000001 00000001 00000000')),
      TermLayer.DDP,
      DdpEtype.UntaggedBuffer,
      DdpUntaggedEcode.InvalidQn,
    );
    assertTerminate(
      () => decodeRdmapHeader(hex('41 47 00000000 00000000 00000001 00000000')),
      TermLayer.DDP,
      DdpEtype.UntaggedBuffer,
      DdpUntaggedEcode.InvalidQn,
    );
  });

  it('truncated: shorter than the DDP header → DDP catastrophic; than the RDMAP header → RDMAP Unspecified', () => {
    assertTerminate(() => decodeRdmapHeader(SEND.subarray(0, 17)), TermLayer.DDP, DdpEtype.LocalCatastrophic, 0);
    assertTerminate(() => decodeRdmapHeader(new Uint8Array(0)), TermLayer.DDP, DdpEtype.LocalCatastrophic, 0);
    const rr = encodeRdmapHeader({
      ddp: ut(1, 1),
      version: 1,
      rsvd: 0,
      opcode: RdmapOpcode.ReadRequest,
      readRequest: { sinkStag: 1, sinkTo: 2n, size: 3, srcStag: 4, srcTo: 5n },
    });
    assertTerminate(() => decodeRdmapHeader(rr.subarray(0, 45)), TermLayer.RDMAP, RdmapEtype.RemoteOperation, RdmapEcode.Unspecified);
  });

  it('the length argument bounds the segment, not the buffer', () => {
    const buf = concat([hex('ffff'), SEND, hex('ffff')]);
    assert.equal(decodeRdmapHeader(buf, 2, 18).header.opcode, RdmapOpcode.Send);
    assertTerminate(() => decodeRdmapHeader(buf, 2, 17), TermLayer.DDP, DdpEtype.LocalCatastrophic, 0);
  });
});

describe('fast decoder vs the naive reference decoder', () => {
  it('round-trips every well-formed header through encode and both decoders', () => {
    fc.assert(
      fc.property(arbRdmap, fc.uint8Array({ maxLength: 8 }), (h, payload) => {
        const bytes = concat([encodeRdmapHeader(h), payload]);
        const want = { header: h, headerLength: RDMAP_OPCODES[h.opcode]!.headerLength };
        assert.deepEqual(decodeRdmapHeader(bytes), want);
        assert.deepEqual(referenceDecode(bytes), want);
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with the reference on mutated and truncated headers (same result or same error triple)', () => {
    fc.assert(
      fc.property(arbRdmap, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }), fc.nat(), (h, muts, cut) => {
        const bytes = encodeRdmapHeader(h);
        for (const [at, v] of muts) bytes[at % bytes.length] = v;
        const seg = bytes.subarray(0, cut % (bytes.length + 1));
        assert.deepEqual(
          outcome(() => decodeRdmapHeader(seg)),
          outcome(() => referenceDecode(seg)),
          toHex(seg),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with the reference on random bytes', () => {
    const rng = new Prng(42);
    for (let i = 0; i < 20000; i++) {
      const b = rng.bytes(rng.int(80));
      // Bias towards the valid versions so the deeper checks are reached too.
      if (b.length > 1 && rng.int(2)) {
        b[0] = (b[0]! & 0xfc) | 1;
        b[1] = (b[1]! & 0x3f) | 0x40;
      }
      assert.deepEqual(
        outcome(() => decodeRdmapHeader(b)),
        outcome(() => referenceDecode(b)),
        toHex(b),
      );
    }
  });

  it('decodeRdmapHeaderInto reuses the struct and reads at an offset', () => {
    const s = new RdmapHeaderStruct();
    const a = concat([hex('00'), hex('c1 40 00000001 0000000200000003')]);
    assert.equal(decodeRdmapHeaderInto(a, 1, 14, s), DDP_TAGGED_HDR_LEN);
    assert.equal(s.to, 0x0000000200000003n);
    const b = hex('41 43 00000000 00000000 00000009 00000000');
    assert.equal(decodeRdmapHeaderInto(b, 0, b.length, s), DDP_UNTAGGED_HDR_LEN);
    assert.deepEqual([s.tagged, s.opcode, s.qn, s.msn], [false, RdmapOpcode.Send, DdpQueue.Send, 9]);
  });
});

describe('encodeRdmapHeader', () => {
  it('requires the extra header of the opcode and uint ranges', () => {
    assert.throws(() => encodeRdmapHeader({ ddp: ut(1, 1), version: 1, rsvd: 0, opcode: RdmapOpcode.ReadRequest }), RangeError);
    assert.throws(() => encodeRdmapHeader({ ddp: ut(0, 1), version: 1, rsvd: 0, opcode: RdmapOpcode.ImmediateData }), RangeError);
    assert.throws(
      () =>
        encodeRdmapHeader({
          ddp: ut(1, 1),
          version: 1,
          rsvd: 0,
          opcode: RdmapOpcode.ReadRequest,
          readRequest: { sinkStag: -1, sinkTo: 0n, size: 0, srcStag: 0, srcTo: 0n },
        }),
      RangeError,
    );
  });
});

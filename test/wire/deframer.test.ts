import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  concatUlpdu,
  copyUlpdu,
  copyUlpduPrefix,
  type DeframerOptions,
  type Fpdu,
  FpduDeframer,
  stringifyFpdu,
} from '../../src/wire/deframer.js';
import { MpaEcode, TerminateError, TermLayer } from '../../src/wire/errors.js';
import { encodeFpdu, MarkerInserter } from '../../src/wire/mpa.js';
import { concat, hex, Prng } from './helpers.js';

interface Got {
  ulpdu: Uint8Array;
  length: number;
  streamOffset: number;
}

interface Mode {
  crc: boolean;
  markers: boolean;
}
const MODES: Mode[] = [
  { crc: false, markers: false },
  { crc: true, markers: false },
  { crc: false, markers: true },
  { crc: true, markers: true },
];
const modeName = (m: Mode) => `CRC ${m.crc ? 'on' : 'off'}, Markers ${m.markers ? 'on' : 'off'}`;

/** Builds the wire form of `ulpdus` and the FPDU start offsets a correct deframer reports. */
function buildStream(ulpdus: Uint8Array[], mode: Mode, start = 0): { wire: Uint8Array; starts: number[] } {
  const parts: Uint8Array[] = [];
  const starts: number[] = [];
  if (mode.markers) {
    const ins = new MarkerInserter(start);
    for (const u of ulpdus) {
      starts.push(ins.streamOffset);
      parts.push(...ins.frame([u], mode.crc));
    }
  } else {
    let pos = start;
    for (const u of ulpdus) {
      starts.push(pos);
      const f = encodeFpdu(u, { crc: mode.crc });
      parts.push(f);
      pos += f.length;
    }
  }
  return { wire: concat(parts), starts };
}

/** Runs a deframer over `chunks`, copying out every FPDU (segments are only valid in the callback). */
function run(chunks: Uint8Array[], mode: Mode, extra: Partial<DeframerOptions> = {}): { got: Got[]; err?: TerminateError } {
  const got: Got[] = [];
  let err: TerminateError | undefined;
  const d = new FpduDeframer({
    maxUlpdu: 0xffff,
    ...mode,
    onFpdu: (f) => got.push({ ulpdu: concatUlpdu(f), length: f.length, streamOffset: f.streamOffset }),
    onError: (e) => {
      assert.equal(err, undefined, 'onError called twice');
      err = e;
    },
    ...extra,
  });
  for (const c of chunks) d.push(c);
  return err ? { got, err } : { got };
}

function expected(ulpdus: Uint8Array[], starts: number[]): Got[] {
  return ulpdus.map((u, i) => ({ ulpdu: u, length: u.length, streamOffset: starts[i]! }));
}

function splitAt(wire: Uint8Array, cuts: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    out.push(wire.subarray(prev, c));
    prev = c;
  }
  out.push(wire.subarray(prev));
  return out;
}

// A fixed stream whose FPDUs cross several Marker positions, include an empty ULPDU and every
// PAD length; ~1.6 kB, so splitting it at every boundary stays fast.
const FIXED: Uint8Array[] = [
  hex('41430000000000000000000000010000000068656c6c6f'),
  new Uint8Array(0),
  Uint8Array.from({ length: 700 }, (_, i) => i & 0xff),
  hex('01'),
  hex('0102'),
  hex('010203'),
  Uint8Array.from({ length: 509 }, (_, i) => (i * 7) & 0xff),
  Uint8Array.from({ length: 300 }, (_, i) => (i * 13) & 0xff),
];

describe('FpduDeframer', () => {
  for (const mode of MODES) {
    describe(modeName(mode), () => {
      const { wire, starts } = buildStream(FIXED, mode);
      const want = expected(FIXED, starts);

      it('delivers the same FPDUs for the stream split in two at every byte boundary', () => {
        for (let k = 0; k <= wire.length; k++) {
          const r = run([wire.subarray(0, k), wire.subarray(k)], mode);
          assert.equal(r.err, undefined, `split at ${k}: ${r.err?.message}`);
          assert.deepEqual(r.got, want, `split at ${k}`);
        }
      });

      it('delivers the same FPDUs for 1-octet chunks and for one chunk', () => {
        const ones: Uint8Array[] = [];
        for (let i = 0; i < wire.length; i++) ones.push(wire.subarray(i, i + 1));
        assert.deepEqual(run(ones, mode).got, want);
        assert.deepEqual(run([wire], mode).got, want);
      });

      it('delivers the same FPDUs for random ULPDUs, start offsets and random splits', () => {
        fc.assert(
          fc.property(
            fc.array(fc.uint8Array({ maxLength: 1500 }), { minLength: 1, maxLength: 8 }),
            fc.nat(5000).map((n) => n * 4),
            fc.array(fc.nat(), { maxLength: 20 }),
            (ulpdus, start, cutSeeds) => {
              const s = buildStream(ulpdus, mode, start);
              const cuts = cutSeeds.map((c) => c % (s.wire.length + 1));
              const r = run(splitAt(s.wire, cuts), mode, { streamOffset: start });
              assert.equal(r.err, undefined, r.err?.message);
              assert.deepEqual(r.got, expected(ulpdus, s.starts));
            },
          ),
          { numRuns: 150 },
        );
      });
    });
  }

  it('hands out the ULPDU as zero-copy views into the pushed chunks', () => {
    const ulpdu = Uint8Array.from({ length: 3000 }, (_, i) => i & 0xff);
    for (const mode of MODES) {
      const { wire } = buildStream([ulpdu], mode);
      const a = wire.slice(0, 1000);
      const b = wire.slice(1000);
      let calls = 0;
      const d = new FpduDeframer({
        maxUlpdu: 4096,
        ...mode,
        onFpdu: (f) => {
          calls++;
          assert.ok(f.segments.length >= 2);
          assert.match(stringifyFpdu(f), /^FPDU len=3000 at=0 segs=\d+$/);
          for (const s of f.segments) assert.ok(s.buffer === a.buffer || s.buffer === b.buffer, 'segment is a copy');
          assert.deepEqual(concatUlpdu(f), ulpdu);
        },
      });
      d.push(a);
      assert.equal(calls, 0);
      assert.equal(d.idle, false);
      d.push(b);
      assert.equal(calls, 1, modeName(mode));
      assert.equal(d.idle, true);
      assert.equal(d.streamOffset, wire.length);
    }
  });

  it('copyUlpduPrefix returns the first segment when it suffices, else copies into scratch', () => {
    const ulpdu = Uint8Array.from({ length: 100 }, (_, i) => i);
    const { wire } = buildStream([ulpdu], { crc: true, markers: false });
    for (const cut of [5, 10, 30, 60]) {
      const scratch = new Uint8Array(64);
      let seen = 0;
      const d = new FpduDeframer({
        maxUlpdu: 200,
        crc: true,
        markers: false,
        onFpdu: (f) => {
          seen++;
          const head = copyUlpduPrefix(f, 46, scratch);
          assert.deepEqual(head.subarray(0, 46), ulpdu.subarray(0, 46));
          // The first segment holds cut-2 octets of ULPDU.
          assert.equal(head === scratch, cut - 2 < 46, `cut ${cut}`);
        },
      });
      d.push(wire.subarray(0, cut));
      d.push(wire.subarray(cut));
      assert.equal(seen, 1);
    }
  });

  it('copyUlpdu copies any range across segments', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 400 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.nat(),
        fc.nat(),
        (u, cutSeeds, a, b) => {
          const { wire } = buildStream([u], { crc: false, markers: false });
          const lo = a % (u.length + 1);
          const len = b % (u.length - lo + 1);
          let done = false;
          const d = new FpduDeframer({
            maxUlpdu: 1000,
            crc: false,
            markers: false,
            onFpdu: (f: Fpdu) => {
              const dst = new Uint8Array(len + 3);
              assert.equal(copyUlpdu(f, dst, 3, lo, len), len);
              assert.deepEqual(dst.subarray(3), u.subarray(lo, lo + len));
              done = true;
            },
          });
          for (const c of splitAt(
            wire,
            cutSeeds.map((c) => c % (wire.length + 1)),
          ))
            d.push(c);
          assert.ok(done);
        },
      ),
    );
  });

  describe('errors', () => {
    const mode = { crc: true, markers: false };

    it('a corrupted FPDU is LLP/MPA/CRC error (0x02), reported once; later input is ignored', () => {
      for (const markers of [false, true]) {
        const { wire } = buildStream(FIXED, { crc: true, markers });
        const bad = wire.slice();
        bad[100] ^= 0x20;
        for (const chunks of [[bad], Array.from(bad, (_, i) => bad.subarray(i, i + 1))]) {
          const r = run(chunks, { crc: true, markers });
          assert.ok(r.err, 'no error');
          assert.deepEqual([r.err.layer, r.err.etype, r.err.ecode], [TermLayer.LLP, 0, MpaEcode.CrcError]);
          assert.ok(r.got.length < FIXED.length);
        }
        // With CRCs off the same corruption passes the deframer (the CRC is not checked).
        const { wire: w2 } = buildStream(FIXED, { crc: false, markers });
        const bad2 = w2.slice();
        bad2[w2.length - 1] ^= 0xff; // inside the last CRC field
        assert.equal(run([bad2], { crc: false, markers }).got.length, FIXED.length);
      }
    });

    it('an ULPDU_LENGTH above maxUlpdu is LLP/MPA 0x03 as soon as the 2 length octets arrive', () => {
      const r = run([hex('10'), hex('01')], mode, { maxUlpdu: 4096 });
      assert.ok(r.err);
      assert.deepEqual([r.err.layer, r.err.etype, r.err.ecode], [TermLayer.LLP, 0, MpaEcode.MarkerMismatch]);
      const r2 = run([hex('1001ffff')], mode, { maxUlpdu: 4096 });
      assert.equal(r2.err?.ecode, MpaEcode.MarkerMismatch);
      // maxUlpdu itself is accepted.
      assert.equal(run([encodeFpdu(new Uint8Array(4096), { crc: true })], mode, { maxUlpdu: 4096 }).got.length, 1);
    });

    it('a Marker whose FPDUPTR does not point at the FPDU is LLP/MPA 0x03', () => {
      const { wire } = buildStream([new Uint8Array(1000)], { crc: false, markers: true });
      const bad = wire.slice();
      bad[512 + 3] ^= 0x04; // the Marker at 512 (FPDUPTR 508)
      const r = run([bad], { crc: false, markers: true });
      assert.equal(r.err?.ecode, MpaEcode.MarkerMismatch);
      assert.equal(r.err?.layer, TermLayer.LLP);
      // A leading Marker must have FPDUPTR 0.
      const bad0 = wire.slice();
      bad0[3] = 4;
      assert.equal(run([bad0], { crc: false, markers: true }).err?.ecode, MpaEcode.MarkerMismatch);
    });

    it('reading a Marker stream with the wrong start offset fails instead of delivering garbage', () => {
      const { wire } = buildStream([new Uint8Array(2000).fill(1)], { crc: true, markers: true }, 0);
      const r = run([wire], { crc: true, markers: true }, { streamOffset: 8 });
      assert.ok(r.err instanceof TerminateError);
      assert.equal(r.got.length, 0);
    });

    it('without onError, push throws the TerminateError', () => {
      const d = new FpduDeframer({ maxUlpdu: 10, crc: false, markers: false, onFpdu: () => {} });
      assert.throws(() => d.push(hex('0100')), TerminateError);
      assert.ok(d.error);
      d.push(hex('00'));
    });

    it('rejects bad options', () => {
      const onFpdu = () => {};
      assert.throws(() => new FpduDeframer({ maxUlpdu: 65536, crc: false, markers: false, onFpdu }), RangeError);
      assert.throws(() => new FpduDeframer({ maxUlpdu: 100, crc: false, markers: true, streamOffset: 2, onFpdu }), RangeError);
    });
  });

  it('survives a long random stream pushed in random chunk sizes (seeded)', () => {
    const rng = new Prng(0x5eed);
    for (const mode of MODES) {
      const ulpdus = Array.from({ length: 200 }, () => rng.bytes(rng.int(3000)));
      const { wire, starts } = buildStream(ulpdus, mode);
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < wire.length; ) {
        const n = 1 + rng.int(rng.int(2) ? 8 : 9000);
        chunks.push(wire.subarray(i, i + n));
        i += n;
      }
      const r = run(chunks, mode);
      assert.equal(r.err, undefined);
      assert.deepEqual(r.got, expected(ulpdus, starts));
    }
  });
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { hardwareCrc32c } from '../../src/util/native-udp.js';
import { crc32c, crc32cHardware, crc32cImpl, crc32cImplText, crc32cJs, crc32cNative, crc32cParts } from '../../src/wire/crc32c.js';

const ascii = (s: string) => new TextEncoder().encode(s);

// RFC 3720 §B.4 (iSCSI) CRC32C examples: 32-octet inputs and the CRC as sent on the wire
// (least significant octet first). MPA uses the same CRC (RFC 5044 §4.4).
const RFC3720_VECTORS: [string, Uint8Array, number][] = [
  ['32 zero octets', new Uint8Array(32), 0x8a9136aa],
  ['32 0xff octets', new Uint8Array(32).fill(0xff), 0x62a8ab43],
  ['32 incrementing octets', Uint8Array.from({ length: 32 }, (_, i) => i), 0x46dd794e],
  ['32 decrementing octets', Uint8Array.from({ length: 32 }, (_, i) => 31 - i), 0x113fdb5c],
];

const impls: [string, (d: Uint8Array, i?: number) => number][] = [
  ['crc32c (active)', crc32c],
  ['crc32cJs', crc32cJs],
];
if (crc32cNative) impls.push(['crc32cNative', crc32cNative]);
if (crc32cHardware) impls.push(['crc32cHardware', crc32cHardware]);

// The hardware CRC needs the package addon built at install and a CPU with a CRC32C instruction.
const hw = hardwareCrc32c();
const noHw = hw.fn ? false : `no hardware CRC32C: ${hw.why}`;

describe('crc32c', () => {
  it('@node-rs/crc32 loads (a dependency of this package)', () => {
    assert.ok(crc32cNative);
  });

  it('uses the hardware CRC when the addon has one, @node-rs/crc32 otherwise', () => {
    assert.equal(crc32cImpl, hw.fn ? 'hw' : 'native');
    assert.equal(crc32c, hw.fn ? crc32cHardware : crc32cNative);
    assert.match(crc32cImplText, hw.fn ? /^hw \(/ : /^native .*; hw: /);
  });

  it('hardware CRC equals the JS one on random lengths 0..70000, initial values and unaligned offsets', { skip: noHw }, () => {
    const fn = crc32cHardware!;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 70000 }),
        fc.nat(15),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 0, max: 0xffffffff }),
        (len, skip, init, seed) => {
          const buf = new Uint8Array(len + skip);
          let x = seed | 1;
          for (let i = 0; i < buf.length; i++) {
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            buf[i] = x & 0xff;
          }
          const view = buf.subarray(skip);
          assert.equal(fn(view, init), crc32cJs(view, init));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('hardware CRC of a view reads only the view, not its whole ArrayBuffer', { skip: noHw }, () => {
    const buf = new Uint8Array(64).fill(0xaa);
    buf.set(
      Uint8Array.from({ length: 32 }, (_, i) => i),
      5,
    );
    assert.equal(crc32cHardware!(buf.subarray(5, 37)), 0x46dd794e);
  });

  for (const [name, fn] of impls) {
    it(`${name}: check value of "123456789" is 0xe3069283`, () => {
      assert.equal(fn(ascii('123456789')), 0xe3069283);
    });
    it(`${name}: empty input`, () => {
      assert.equal(fn(new Uint8Array(0)), 0);
      assert.equal(fn(new Uint8Array(0), 0xdeadbeef), 0xdeadbeef);
    });
    for (const [what, data, want] of RFC3720_VECTORS) {
      it(`${name}: RFC 3720 B.4 ${what} → 0x${want.toString(16)}`, () => {
        assert.equal(fn(data), want);
      });
    }
    it(`${name}: is incremental: crc(b, crc(a)) === crc(a‖b)`, () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
          const ab = new Uint8Array(a.length + b.length);
          ab.set(a);
          ab.set(b, a.length);
          assert.equal(fn(b, fn(a)), fn(ab));
        }),
      );
    });
  }

  it('JS slicing-by-8 equals the native implementation on random data, lengths and alignments', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.nat(16), fc.integer({ min: 0, max: 0xffffffff }), (data, skip, init) => {
        const view = data.subarray(Math.min(skip, data.length));
        assert.equal(crc32cJs(view, init), crc32c(view, init));
      }),
      { numRuns: 500 },
    );
  });

  it('crc32cParts equals the CRC of the concatenation', () => {
    const parts = [ascii('1234'), ascii(''), ascii('5'), ascii('6789')];
    assert.equal(crc32cParts(parts), 0xe3069283);
  });

  it('SOFTRDMA_CRC32C=js selects the JS fallback', () => {
    const mod = fileURLToPath(new URL('../../src/wire/crc32c.js', import.meta.url));
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import(${JSON.stringify(mod)}).then(m => console.log(m.crc32cImpl, m.crc32c(new TextEncoder().encode('123456789')).toString(16)))`,
      ],
      { env: { ...process.env, SOFTRDMA_CRC32C: 'js' }, encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'js e3069283');
  });

  it('SOFTRDMA_CRC32C=native selects @node-rs/crc32 even when the hardware CRC is there', () => {
    const mod = fileURLToPath(new URL('../../src/wire/crc32c.js', import.meta.url));
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import(${JSON.stringify(mod)}).then(m => console.log(m.crc32cImpl, m.crc32cHardware === undefined, m.crc32c(new TextEncoder().encode('123456789')).toString(16)))`,
      ],
      { env: { ...process.env, SOFTRDMA_CRC32C: 'native' }, encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'native true e3069283');
  });
});

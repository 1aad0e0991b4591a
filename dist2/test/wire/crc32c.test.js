import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { crc32c, crc32cImpl, crc32cJs, crc32cNative, crc32cParts } from '../../src/wire/crc32c.js';
const ascii = (s) => new TextEncoder().encode(s);
// RFC 3720 §B.4 (iSCSI) CRC32C examples: 32-octet inputs and the CRC as sent on the wire
// (least significant octet first). MPA uses the same CRC (RFC 5044 §4.4).
const RFC3720_VECTORS = [
    ['32 zero octets', new Uint8Array(32), 0x8a9136aa],
    ['32 0xff octets', new Uint8Array(32).fill(0xff), 0x62a8ab43],
    ['32 incrementing octets', Uint8Array.from({ length: 32 }, (_, i) => i), 0x46dd794e],
    ['32 decrementing octets', Uint8Array.from({ length: 32 }, (_, i) => 31 - i), 0x113fdb5c],
];
const impls = [
    ['crc32c (active)', crc32c],
    ['crc32cJs', crc32cJs],
];
if (crc32cNative)
    impls.push(['crc32cNative', crc32cNative]);
describe('crc32c', () => {
    it('uses the native addon when it is installed', () => {
        // @node-rs/crc32 is a dependency of this package, so on supported platforms it must load.
        assert.equal(crc32cImpl, 'native');
        assert.equal(crc32c, crc32cNative);
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
            fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
                const ab = new Uint8Array(a.length + b.length);
                ab.set(a);
                ab.set(b, a.length);
                assert.equal(fn(b, fn(a)), fn(ab));
            }));
        });
    }
    it('JS slicing-by-8 equals the native implementation on random data, lengths and alignments', () => {
        fc.assert(fc.property(fc.uint8Array({ maxLength: 2000 }), fc.nat(16), fc.integer({ min: 0, max: 0xffffffff }), (data, skip, init) => {
            const view = data.subarray(Math.min(skip, data.length));
            assert.equal(crc32cJs(view, init), crc32c(view, init));
        }), { numRuns: 500 });
    });
    it('crc32cParts equals the CRC of the concatenation', () => {
        const parts = [ascii('1234'), ascii(''), ascii('5'), ascii('6789')];
        assert.equal(crc32cParts(parts), 0xe3069283);
    });
    it('SOFTRDMA_CRC32C=js selects the JS fallback', () => {
        const mod = fileURLToPath(new URL('../../src/wire/crc32c.js', import.meta.url));
        const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import(${JSON.stringify(mod)}).then(m => console.log(m.crc32cImpl, m.crc32c(new TextEncoder().encode('123456789')).toString(16)))`], { env: { ...process.env, SOFTRDMA_CRC32C: 'js' }, encoding: 'utf8' });
        assert.equal(r.status, 0, r.stderr);
        assert.equal(r.stdout.trim(), 'js e3069283');
    });
});
//# sourceMappingURL=crc32c.test.js.map
/**
 * `ri_gid_t` ↔ GID octets: the prefix is the first 8 octets and the interface ID the last 8, both
 * in network byte order (IBTA Vol. 1 §4.1.1), and the conversion is its own inverse.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { bytesOfRiGid, riGidOfBytes } from '../../src/rnicpi/gid.js';

test('an IPv4-mapped GID: prefix 0, interface ID 0000:ffff:a.b.c.d', () => {
  const raw = Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 1, 2, 3]);
  const g = riGidOfBytes(raw);
  assert.equal(g.gid_prefix, 0n);
  assert.equal(g.gid_guid, 0x0000ffff0a010203n);
  assert.deepEqual(bytesOfRiGid(g), raw);
});

test('a link-local GID: prefix fe80::, read from an offset inside a larger buffer', () => {
  const buf = new Uint8Array(20);
  buf.set([0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55], 4);
  const g = riGidOfBytes(buf.subarray(4));
  assert.equal(g.gid_prefix, 0xfe80000000000000n);
  assert.equal(g.gid_guid, 0x021122fffe334455n);
});

test('bytesOfRiGid writes into the given array and reduces values modulo 2^64', () => {
  const into = new Uint8Array(16).fill(0xaa);
  const out = bytesOfRiGid({ gid_prefix: -1n, gid_guid: (1n << 64n) + 5n }, into);
  assert.equal(out, into);
  assert.deepEqual([...out.subarray(0, 8)], [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
  assert.deepEqual([...out.subarray(8)], [0, 0, 0, 0, 0, 0, 0, 5]);
});

test('octets → ri_gid_t → octets is the identity', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (raw) => {
      assert.deepEqual(bytesOfRiGid(riGidOfBytes(raw)), raw);
    }),
  );
});

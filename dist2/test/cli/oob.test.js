/**
 * The CM-less side channel of rdma-core's pingpong examples and perftest: golden texts written
 * out by hand from the C format strings, round trips, hostile input, and the exchange itself.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decodePerftestKeys, decodePpDest, encodePerftestKeys, encodePpDest, OobChannel, OobError, PERFTEST_KEYS_LEN, PP_DONE, PP_MSG_LEN, } from '../../src/cli/oob.js';
const text = (b) => Buffer.from(b).toString('latin1');
/** ::ffff:192.168.77.1 */
const GID = new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xc0, 0xa8, 0x4d, 0x01]);
test('oob: the pingpong address is "%04x:%06x:%06x:%s" with the GID octets in order, NUL-padded to 52', () => {
    const b = encodePpDest({ lid: 0, qpn: 0x11, psn: 0xabcdef, gid: GID });
    assert.equal(b.length, PP_MSG_LEN);
    assert.equal(text(b), `0000:000011:abcdef:00000000000000000000ffffc0a84d01${'\0'}`);
    assert.deepEqual(decodePpDest(b), { lid: 0, qpn: 0x11, psn: 0xabcdef, gid: GID });
    assert.equal(text(PP_DONE), 'done\0');
});
test("oob: perftest's KEY_PRINT_FMT_GID keys are 107 characters and a NUL", () => {
    const k = { lid: 0, outReads: 1, qpn: 0x11, psn: 0xabcdef, rkey: 0x1234, vaddr: 0x7f0000001000n, gid: GID, srqn: 0 };
    const b = encodePerftestKeys(k);
    assert.equal(b.length, PERFTEST_KEYS_LEN);
    const want = '0000:0001:000011:abcdef:00001234:00007f0000001000:00:00:00:00:00:00:00:00:00:00:ff:ff:c0:a8:4d:01:00000000:';
    assert.equal(want.length, 107);
    assert.equal(text(b), `${want}\0`);
    assert.deepEqual(decodePerftestKeys(b), k);
});
test('oob: encode/decode round trips (fast-check)', () => {
    const gid = fc.uint8Array({ minLength: 16, maxLength: 16 });
    fc.assert(fc.property(fc.nat(0xffff), fc.nat(0xffffff), fc.nat(0xffffff), gid, (lid, qpn, psn, g) => {
        const d = { lid, qpn, psn, gid: g };
        assert.deepEqual(decodePpDest(encodePpDest(d)), d);
    }));
    fc.assert(fc.property(fc.record({
        lid: fc.nat(0xffff),
        outReads: fc.nat(0xffff),
        qpn: fc.nat(0xffffff),
        psn: fc.nat(0xffffff),
        rkey: fc.nat(0xffffffff),
        vaddr: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        gid,
        srqn: fc.nat(0xffffffff),
    }), (k) => assert.deepEqual(decodePerftestKeys(encodePerftestKeys(k)), { ...k })));
});
test('oob: a malformed or hostile message is an OobError, never another exception', () => {
    const bad = [
        new Uint8Array(51),
        new Uint8Array(PP_MSG_LEN), // empty text
        Buffer.concat([Buffer.from('0000:1000000:000000:00000000000000000000ffffc0a84d01'), Buffer.alloc(1)]).subarray(0, 52), // QPN 7 digits
        Buffer.concat([Buffer.from('zzzz:000011:abcdef:00000000000000000000ffffc0a84d01'), Buffer.alloc(1)]),
        Buffer.concat([Buffer.from('0000:000011:abcdef:00000000000000000000ffffc0a84d0'), Buffer.alloc(2)]), // short GID
    ];
    for (const b of bad)
        assert.throws(() => decodePpDest(new Uint8Array(b)), OobError);
    assert.throws(() => encodePpDest({ lid: 0, qpn: 1 << 24, psn: 0, gid: GID }), OobError);
    fc.assert(fc.property(fc.uint8Array({ minLength: 0, maxLength: 120 }), (b) => {
        for (const f of [decodePpDest, decodePerftestKeys]) {
            try {
                f(b);
            }
            catch (e) {
                assert.ok(e instanceof OobError, String(e));
            }
        }
    }), { numRuns: 2000 });
});
test('oob: the exchange — client writes first, server answers, client says "done"; a silent peer times out', async () => {
    let port = 0;
    const server = OobChannel.accept('127.0.0.1', 0, 2000, (p) => {
        port = p;
    });
    while (port === 0)
        await new Promise((r) => setTimeout(r, 5));
    const client = await OobChannel.connect('127.0.0.1', port);
    const s = await server;
    const a = encodePpDest({ lid: 0, qpn: 0x20, psn: 1, gid: GID });
    const b = encodePpDest({ lid: 0, qpn: 0x30, psn: 2, gid: GID });
    const [fromServer, fromClient] = await Promise.all([client.xchg(true, a, PP_MSG_LEN), s.xchg(false, b, PP_MSG_LEN)]);
    assert.equal(decodePpDest(fromServer).qpn, 0x30);
    assert.equal(decodePpDest(fromClient).qpn, 0x20);
    client.write(PP_DONE);
    assert.deepEqual(await s.read(PP_DONE.length), PP_DONE);
    // Nothing more comes: the read gives up after the channel's timeout.
    await assert.rejects(s.read(1), OobError);
    client.close();
    s.close();
});
//# sourceMappingURL=oob.test.js.map
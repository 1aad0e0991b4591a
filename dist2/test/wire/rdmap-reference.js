import { TerminateError } from '../../src/wire/errors.js';
/** Big-endian unsigned integer of `n` octets at `at`, as a bigint. */
function be(buf, at, n) {
    let v = 0n;
    for (let i = 0; i < n; i++)
        v = v * 256n + BigInt(buf[at + i]);
    return v;
}
const be32 = (buf, at) => Number(be(buf, at, 4));
/** bit `i` (0 = most significant) of octet `b`. */
const bit = (b, i) => (b >> (7 - i)) & 1;
// RFC 5040 §4.2 and RFC 7306 §3, transcribed.
const OPS = {
    0: { tagged: true, qn: -1, extra: 0 }, // RDMA Write
    1: { tagged: false, qn: 1, extra: 28 }, // RDMA Read Request
    2: { tagged: true, qn: -1, extra: 0 }, // RDMA Read Response
    3: { tagged: false, qn: 0, extra: 0 }, // Send
    4: { tagged: false, qn: 0, extra: 0 }, // Send with Invalidate
    5: { tagged: false, qn: 0, extra: 0 }, // Send with SE
    6: { tagged: false, qn: 0, extra: 0 }, // Send with SE and Invalidate
    7: { tagged: false, qn: 2, extra: 0 }, // Terminate
    8: { tagged: false, qn: 0, extra: 8 }, // Immediate Data
    9: { tagged: false, qn: 0, extra: 8 }, // Immediate Data with SE
    10: { tagged: false, qn: 1, extra: 52 }, // Atomic Request
    11: { tagged: false, qn: 3, extra: 12 }, // Atomic Response
};
export function referenceDecode(buf) {
    const len = buf.length;
    if (len === 0)
        throw new TerminateError(1, 0, 0, 'ref: empty');
    const c0 = buf[0];
    const T = bit(c0, 0) === 1;
    const L = bit(c0, 1) === 1;
    const rsvd = (bit(c0, 2) << 3) | (bit(c0, 3) << 2) | (bit(c0, 4) << 1) | bit(c0, 5);
    const dv = (bit(c0, 6) << 1) | bit(c0, 7);
    if (dv !== 1)
        throw new TerminateError(1, T ? 1 : 2, T ? 0x04 : 0x06, 'ref: DDP version');
    const ddpLen = T ? 14 : 18;
    if (len < ddpLen)
        throw new TerminateError(1, 0, 0, 'ref: short DDP');
    const c1 = buf[1];
    const rv = (bit(c1, 0) << 1) | bit(c1, 1);
    const rrsvd = (bit(c1, 2) << 1) | bit(c1, 3);
    const opcode = (bit(c1, 4) << 3) | (bit(c1, 5) << 2) | (bit(c1, 6) << 1) | bit(c1, 7);
    if (rv !== 1)
        throw new TerminateError(0, 2, 0x05, 'ref: RDMAP version');
    const op = OPS[opcode];
    if (!op)
        throw new TerminateError(0, 2, 0x06, 'ref: opcode');
    if (op.tagged !== T)
        throw new TerminateError(0, 2, 0x06, 'ref: buffer model');
    let ddp;
    if (T) {
        ddp = { tagged: true, last: L, rsvd, version: dv, rsvdUlp: c1, stag: be32(buf, 2), to: be(buf, 6, 8) };
    }
    else {
        const qn = be32(buf, 6);
        if (qn !== op.qn)
            throw new TerminateError(1, 2, 0x01, 'ref: QN');
        ddp = { tagged: false, last: L, rsvd, version: dv, rsvdUlp: c1, rsvdUlp32: be32(buf, 2), qn, msn: be32(buf, 10), mo: be32(buf, 14) };
    }
    const headerLength = ddpLen + op.extra;
    if (len < headerLength)
        throw new TerminateError(0, 2, 0xff, 'ref: short RDMAP');
    const h = { ddp, version: rv, rsvd: rrsvd, opcode };
    const x = ddpLen;
    if (opcode === 1) {
        h.readRequest = {
            sinkStag: be32(buf, x),
            sinkTo: be(buf, x + 4, 8),
            size: be32(buf, x + 12),
            srcStag: be32(buf, x + 16),
            srcTo: be(buf, x + 20, 8),
        };
    }
    else if (opcode === 8 || opcode === 9) {
        h.immediateData = be(buf, x, 8);
    }
    else if (opcode === 10) {
        const w = be32(buf, x);
        h.atomicRequest = {
            rsvd: Math.floor(w / 16),
            atomicOpcode: w % 16,
            requestId: be32(buf, x + 4),
            remoteStag: be32(buf, x + 8),
            remoteTo: be(buf, x + 12, 8),
            addSwapData: be(buf, x + 20, 8),
            addSwapMask: be(buf, x + 28, 8),
            compareData: be(buf, x + 36, 8),
            compareMask: be(buf, x + 44, 8),
        };
    }
    else if (opcode === 11) {
        h.atomicResponse = { originalRequestId: be32(buf, x), originalValue: be(buf, x + 4, 8) };
    }
    return { header: h, headerLength };
}
//# sourceMappingURL=rdmap-reference.js.map
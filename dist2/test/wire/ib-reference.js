/**
 * A naive reference codec for InfiniBand transport packets, written straight from the header
 * layouts (IBTA Vol. 1 §9.2–§9.3, transcribed as field lists in bits) and the opcode list of
 * the RoCEv2 research notes, sharing no code with `src/wire/ib`. Each header is a list of
 * `[name, bits]`; encode packs the fields MSB first into a bit string, decode unpacks it. The
 * fast codec is tested against it.
 */
/** §9.2 BTH. */
const BTH = [
    ['opcode', 8],
    ['se', 1],
    ['migReq', 1],
    ['padCnt', 2],
    ['tver', 4],
    ['pkey', 16],
    ['fecn', 1],
    ['becn', 1],
    ['resv6', 6],
    ['destQp', 24],
    ['ackReq', 1],
    ['resv7', 7],
    ['psn', 24],
];
const RETH = [
    ['va', 64],
    ['rkey', 32],
    ['dmaLen', 32],
];
const AETH = [
    ['syndrome', 8],
    ['msn', 24],
];
const ATOMIC_ETH = [
    ['va', 64],
    ['rkey', 32],
    ['swapAdd', 64],
    ['compare', 64],
];
const ATOMIC_ACK_ETH = [['origData', 64]];
const DETH = [
    ['qkey', 32],
    ['resv8', 8],
    ['srcQp', 24],
];
/** The opcode list of the research notes (§1.4), header names in wire order; payload flag. */
export const REF_OPCODES = {};
function add(op, name, headers, payload, uc = true) {
    REF_OPCODES[op] = { name: `RC_${name}`, headers, payload };
    if (uc)
        REF_OPCODES[op + 0x20] = { name: `UC_${name}`, headers, payload };
}
add(0x00, 'SEND_FIRST', [], true);
add(0x01, 'SEND_MIDDLE', [], true);
add(0x02, 'SEND_LAST', [], true);
add(0x03, 'SEND_LAST_WITH_IMMEDIATE', ['immDt'], true);
add(0x04, 'SEND_ONLY', [], true);
add(0x05, 'SEND_ONLY_WITH_IMMEDIATE', ['immDt'], true);
add(0x06, 'RDMA_WRITE_FIRST', ['reth'], true);
add(0x07, 'RDMA_WRITE_MIDDLE', [], true);
add(0x08, 'RDMA_WRITE_LAST', [], true);
add(0x09, 'RDMA_WRITE_LAST_WITH_IMMEDIATE', ['immDt'], true);
add(0x0a, 'RDMA_WRITE_ONLY', ['reth'], true);
add(0x0b, 'RDMA_WRITE_ONLY_WITH_IMMEDIATE', ['reth', 'immDt'], true);
add(0x0c, 'RDMA_READ_REQUEST', ['reth'], false, false);
add(0x0d, 'RDMA_READ_RESPONSE_FIRST', ['aeth'], true, false);
add(0x0e, 'RDMA_READ_RESPONSE_MIDDLE', [], true, false);
add(0x0f, 'RDMA_READ_RESPONSE_LAST', ['aeth'], true, false);
add(0x10, 'RDMA_READ_RESPONSE_ONLY', ['aeth'], true, false);
add(0x11, 'ACKNOWLEDGE', ['aeth'], false, false);
add(0x12, 'ATOMIC_ACKNOWLEDGE', ['aeth', 'atomicAckEth'], false, false);
add(0x13, 'COMPARE_SWAP', ['atomicEth'], false, false);
add(0x14, 'FETCH_ADD', ['atomicEth'], false, false);
add(0x16, 'SEND_LAST_WITH_INVALIDATE', ['ieth'], true, false);
add(0x17, 'SEND_ONLY_WITH_INVALIDATE', ['ieth'], true, false);
REF_OPCODES[0x64] = { name: 'UD_SEND_ONLY', headers: ['deth'], payload: true };
REF_OPCODES[0x65] = { name: 'UD_SEND_ONLY_WITH_IMMEDIATE', headers: ['deth', 'immDt'], payload: true };
const LAYOUTS = {
    reth: RETH,
    aeth: AETH,
    atomicEth: ATOMIC_ETH,
    atomicAckEth: ATOMIC_ACK_ETH,
    deth: DETH,
    immDt: [['v', 32]],
    ieth: [['v', 32]],
};
function pack(fields, obj) {
    let bits = '';
    for (const [name, n] of fields) {
        const v = obj[name];
        const big = typeof v === 'boolean' ? (v ? 1n : 0n) : BigInt(v);
        bits += big.toString(2).padStart(n, '0');
    }
    return bits;
}
function unpack(fields, bits, at, asBool, asBig) {
    const o = {};
    let p = at;
    for (const [name, n] of fields) {
        const v = BigInt(`0b${bits.slice(p, p + n)}`);
        o[name] = asBool.has(name) ? v === 1n : asBig.has(name) ? v : Number(v);
        p += n;
    }
    return [o, p];
}
function bitsToBytes(bits) {
    const out = new Uint8Array(bits.length / 8);
    for (let i = 0; i < out.length; i++)
        out[i] = Number.parseInt(bits.slice(i * 8, i * 8 + 8), 2);
    return out;
}
function bytesToBits(b) {
    return Array.from(b, (x) => x.toString(2).padStart(8, '0')).join('');
}
const BOOLS = new Set(['se', 'migReq', 'fecn', 'becn', 'ackReq']);
const BIGS = new Set(['va', 'swapAdd', 'compare', 'origData']);
/** Encodes BTH, headers, payload, pad and a zero ICRC. */
export function refEncode(p) {
    const op = REF_OPCODES[p.bth.opcode];
    if (!op)
        throw new Error('ref: opcode');
    let bits = pack(BTH, p.bth);
    for (const h of op.headers) {
        const v = p[h];
        bits += pack(LAYOUTS[h], h === 'immDt' || h === 'ieth' ? { v } : v);
    }
    const head = bitsToBytes(bits);
    const pad = (4 - (p.payload.length % 4)) % 4;
    const out = new Uint8Array(head.length + p.payload.length + pad + 4);
    out.set(head);
    out.set(p.payload, head.length);
    return out;
}
/** Decodes what {@link refEncode} writes (no validation beyond the opcode). */
export function refDecode(b) {
    const bits = bytesToBits(b);
    const [bth, after] = unpack(BTH, bits, 0, BOOLS, BIGS);
    const op = REF_OPCODES[bth.opcode];
    if (!op)
        throw new Error('ref: opcode');
    const p = { bth, payload: new Uint8Array(0) };
    let at = after;
    for (const h of op.headers) {
        const [o, next] = unpack(LAYOUTS[h], bits, at, BOOLS, BIGS);
        p[h] = h === 'immDt' || h === 'ieth' ? o.v : o;
        at = next;
    }
    const hdr = at / 8;
    p.payload = b.slice(hdr, b.length - 4 - bth.padCnt);
    return p;
}
//# sourceMappingURL=ib-reference.js.map
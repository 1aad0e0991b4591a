/**
 * A naive reference decoder for CM MAD bodies, written from the IBTA Vol. 1 chapter 12 field
 * tables (byte offset, bit offset from the most significant bit, width) and one generic
 * bit reader, sharing nothing with `src/wire/ib/cm.ts`. The codec is checked against it.
 */
/** Bits [bit, bit+width) of `buf` starting at octet `byte`, most significant first. */
export function bits(buf, byte, bit, width) {
    let v = 0n;
    for (let i = 0; i < width; i++) {
        const pos = byte * 8 + bit + i;
        const b = (buf[pos >> 3] >> (7 - (pos & 7))) & 1;
        v = (v << 1n) | BigInt(b);
    }
    return v;
}
const PATH = (p, at, last) => [
    [`${p}.localLid`, at, 0, 16],
    [`${p}.remoteLid`, at + 2, 0, 16],
    [`${p}.localGid`, at + 4, 0, 'bytes', 16],
    [`${p}.remoteGid`, at + 20, 0, 'bytes', 16],
    [`${p}.flowLabel`, at + 36, 0, 20],
    [`${p}.packetRate`, at + 39, 2, 6],
    [`${p}.trafficClass`, at + 40, 0, 8],
    [`${p}.hopLimit`, at + 41, 0, 8],
    [`${p}.sl`, at + 42, 0, 4],
    [`${p}.subnetLocal`, at + 42, 4, 1],
    [`${p}.localAckTimeout`, at + 43, 0, 5],
    ...last,
];
/** The field tables, transcribed (Table 106 REQ … Table 120 SIDR_REP). */
export const TABLES = {
    REQ: [
        ['localCommId', 0, 0, 32],
        ['vendorId', 5, 0, 24],
        ['serviceId', 8, 0, 64],
        ['localCaGuid', 16, 0, 64],
        ['localQkey', 28, 0, 32],
        ['localQpn', 32, 0, 24],
        ['responderResources', 35, 0, 8],
        ['localEecn', 36, 0, 24],
        ['initiatorDepth', 39, 0, 8],
        ['remoteEecn', 40, 0, 24],
        ['remoteCmResponseTimeout', 43, 0, 5],
        ['transport', 43, 5, 2],
        ['e2eFlowControl', 43, 7, 1],
        ['startingPsn', 44, 0, 24],
        ['localCmResponseTimeout', 47, 0, 5],
        ['retryCount', 47, 5, 3],
        ['pkey', 48, 0, 16],
        ['pathMtu', 50, 0, 4],
        ['rdcExists', 50, 4, 1],
        ['rnrRetryCount', 50, 5, 3],
        ['maxCmRetries', 51, 0, 4],
        ['srq', 51, 4, 1],
        ['extendedTransport', 51, 5, 3],
        ...PATH('primary', 52, []),
        ...PATH('alternate', 96, []),
        ['sapSupported', 139, 5, 1],
        ['privateData', 140, 0, 'bytes', 92],
    ],
    MRA: [
        ['localCommId', 0, 0, 32],
        ['remoteCommId', 4, 0, 32],
        ['msgMraed', 8, 0, 2],
        ['serviceTimeout', 9, 0, 5],
        ['privateData', 10, 0, 'bytes', 222],
    ],
    REJ: [
        ['localCommId', 0, 0, 32],
        ['remoteCommId', 4, 0, 32],
        ['msgRejected', 8, 0, 2],
        ['reason', 10, 0, 16],
        ['privateData', 84, 0, 'bytes', 148],
    ],
    REP: [
        ['localCommId', 0, 0, 32],
        ['remoteCommId', 4, 0, 32],
        ['localQkey', 8, 0, 32],
        ['localQpn', 12, 0, 24],
        ['localEecn', 16, 0, 24],
        ['startingPsn', 20, 0, 24],
        ['responderResources', 24, 0, 8],
        ['initiatorDepth', 25, 0, 8],
        ['targetAckDelay', 26, 0, 5],
        ['failoverAccepted', 26, 5, 2],
        ['e2eFlowControl', 26, 7, 1],
        ['rnrRetryCount', 27, 0, 3],
        ['srq', 27, 3, 1],
        ['localCaGuid', 28, 0, 64],
        ['privateData', 36, 0, 'bytes', 196],
    ],
    RTU: [
        ['localCommId', 0, 0, 32],
        ['remoteCommId', 4, 0, 32],
        ['privateData', 8, 0, 'bytes', 224],
    ],
    DREQ: [
        ['localCommId', 0, 0, 32],
        ['remoteCommId', 4, 0, 32],
        ['remoteQpn', 8, 0, 24],
        ['privateData', 12, 0, 'bytes', 220],
    ],
    DREP: [
        ['localCommId', 0, 0, 32],
        ['remoteCommId', 4, 0, 32],
        ['privateData', 8, 0, 'bytes', 224],
    ],
    SIDR_REQ: [
        ['requestId', 0, 0, 32],
        ['pkey', 4, 0, 16],
        ['serviceId', 8, 0, 64],
        ['privateData', 16, 0, 'bytes', 216],
    ],
    SIDR_REP: [
        ['requestId', 0, 0, 32],
        ['status', 4, 0, 8],
        ['qpn', 8, 0, 24],
        ['serviceId', 12, 0, 64],
        ['qkey', 20, 0, 32],
        ['privateData', 96, 0, 'bytes', 136],
    ],
};
/** Reads every table field of a body into a flat record (dotted names for the paths). */
export function referenceFields(kind, body) {
    const out = {};
    for (const [name, byte, bit, width, n] of TABLES[kind]) {
        if (width === 'bytes')
            out[name] = body.slice(byte, byte + n);
        else if (width === 1)
            out[name] = bits(body, byte, bit, 1) === 1n;
        else if (width === 64)
            out[name] = bits(body, byte, bit, 64);
        else
            out[name] = Number(bits(body, byte, bit, width));
    }
    // Variable-length fields: the ARI and the Additional Information, by their length fields.
    if (kind === 'REJ')
        out.ari = body.slice(12, 12 + Number(bits(body, 9, 0, 7)));
    if (kind === 'SIDR_REP')
        out.info = body.slice(24, 24 + Number(bits(body, 5, 0, 8)));
    return out;
}
/** Flattens a decoded message the same way (paths as `primary.x`), without `kind`. */
export function flatten(m) {
    const out = {};
    for (const [k, v] of Object.entries(m)) {
        if (k === 'kind')
            continue;
        if (v && typeof v === 'object' && !(v instanceof Uint8Array)) {
            for (const [k2, v2] of Object.entries(v))
                out[`${k}.${k2}`] = v2;
        }
        else
            out[k] = v;
    }
    return out;
}
//# sourceMappingURL=cm-reference.js.map
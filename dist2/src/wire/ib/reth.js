/**
 * The RDMA Extended Transport Header (IBTA Vol. 1 §9.3.3), 16 octets, big-endian: the
 * responder's virtual address, its R_Key and the DMA length of the whole message. It follows
 * the BTH in RDMA WRITE FIRST/ONLY and RDMA READ REQUEST packets.
 *
 * ```
 *  0-7   Virtual Address (64)
 *  8-11  R_Key (32)
 *  12-15 DMA Length (32)
 * ```
 *
 * @packageDocumentation
 */
import { checkU64, checkUint, hx, IbDropReason, IbWireError } from './errors.js';
/** Octets of the RETH. */
export const RETH_LEN = 16;
export function encodeReth(h, out, offset = 0) {
    checkU64('VA', h.va);
    checkUint('R_Key', h.rkey, 32);
    checkUint('DMA Length', h.dmaLen, 32);
    const buf = out ?? new Uint8Array(RETH_LEN);
    if (buf.length - offset < RETH_LEN)
        throw new RangeError('buffer too small for the RETH');
    const dv = new DataView(buf.buffer, buf.byteOffset + offset, RETH_LEN);
    dv.setBigUint64(0, h.va);
    dv.setUint32(8, h.rkey);
    dv.setUint32(12, h.dmaLen);
    return buf;
}
export function decodeReth(buf, offset = 0) {
    if (buf.length - offset < RETH_LEN)
        throw new IbWireError(IbDropReason.Truncated, 'RETH');
    const dv = new DataView(buf.buffer, buf.byteOffset + offset, RETH_LEN);
    return { va: dv.getBigUint64(0), rkey: dv.getUint32(8), dmaLen: dv.getUint32(12) };
}
export function stringifyReth(h) {
    return `RETH VA=0x${h.va.toString(16)} R_Key=${hx(h.rkey, 8)} len=${h.dmaLen}`;
}
//# sourceMappingURL=reth.js.map
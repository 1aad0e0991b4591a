/**
 * The atomic extended transport headers (IBTA Vol. 1 §9.3.4 AtomicETH, §9.3.6 AtomicAckETH),
 * big-endian.
 *
 * AtomicETH, 28 octets, after the BTH of COMPARE SWAP and FETCH ADD requests:
 * ```
 *  0-7   Virtual Address (64, 8-octet aligned: §9.4.5)
 *  8-11  R_Key
 *  12-19 Swap (CmpSwap) or Add (FetchAdd) Data
 *  20-27 Compare Data (CmpSwap; ignored by FetchAdd)
 * ```
 * AtomicAckETH, 8 octets, after the AETH of ATOMIC ACKNOWLEDGE: the original remote data.
 *
 * @packageDocumentation
 */
import { checkU64, checkUint, hx, IbDropReason, IbWireError } from './errors.js';
/** Octets of the AtomicETH. */
export const ATOMIC_ETH_LEN = 28;
/** Octets of the AtomicAckETH. */
export const ATOMIC_ACK_ETH_LEN = 8;
export function encodeAtomicEth(h, out, offset = 0) {
    checkU64('VA', h.va);
    checkUint('R_Key', h.rkey, 32);
    checkU64('Swap/Add Data', h.swapAdd);
    checkU64('Compare Data', h.compare);
    const buf = out ?? new Uint8Array(ATOMIC_ETH_LEN);
    if (buf.length - offset < ATOMIC_ETH_LEN)
        throw new RangeError('buffer too small for the AtomicETH');
    const dv = new DataView(buf.buffer, buf.byteOffset + offset, ATOMIC_ETH_LEN);
    dv.setBigUint64(0, h.va);
    dv.setUint32(8, h.rkey);
    dv.setBigUint64(12, h.swapAdd);
    dv.setBigUint64(20, h.compare);
    return buf;
}
export function decodeAtomicEth(buf, offset = 0) {
    if (buf.length - offset < ATOMIC_ETH_LEN)
        throw new IbWireError(IbDropReason.Truncated, 'AtomicETH');
    const dv = new DataView(buf.buffer, buf.byteOffset + offset, ATOMIC_ETH_LEN);
    return { va: dv.getBigUint64(0), rkey: dv.getUint32(8), swapAdd: dv.getBigUint64(12), compare: dv.getBigUint64(20) };
}
export function stringifyAtomicEth(h) {
    return `AtomicETH VA=0x${h.va.toString(16)} R_Key=${hx(h.rkey, 8)} swap/add=0x${h.swapAdd.toString(16)} compare=0x${h.compare.toString(16)}`;
}
export function encodeAtomicAckEth(h, out, offset = 0) {
    checkU64('Original Remote Data', h.origData);
    const buf = out ?? new Uint8Array(ATOMIC_ACK_ETH_LEN);
    if (buf.length - offset < ATOMIC_ACK_ETH_LEN)
        throw new RangeError('buffer too small for the AtomicAckETH');
    new DataView(buf.buffer, buf.byteOffset + offset, ATOMIC_ACK_ETH_LEN).setBigUint64(0, h.origData);
    return buf;
}
export function decodeAtomicAckEth(buf, offset = 0) {
    if (buf.length - offset < ATOMIC_ACK_ETH_LEN)
        throw new IbWireError(IbDropReason.Truncated, 'AtomicAckETH');
    return { origData: new DataView(buf.buffer, buf.byteOffset + offset, ATOMIC_ACK_ETH_LEN).getBigUint64(0) };
}
export function stringifyAtomicAckEth(h) {
    return `AtomicAckETH orig=0x${h.origData.toString(16)}`;
}
//# sourceMappingURL=atomic-eth.js.map
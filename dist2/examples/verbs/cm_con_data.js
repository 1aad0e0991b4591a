/**
 * `struct cm_con_data_t` of the manual's RC example (§8.2): the record each side sends the other
 * over TCP to connect the QPs. Packed, 34 bytes, every integer big-endian (the C program converts
 * with `htonll`, `htonl`, `htons`):
 *
 *   offset 0  u64 addr    buffer address
 *   offset 8  u32 rkey    remote key
 *   offset 12 u32 qp_num  QP number
 *   offset 16 u16 lid     LID of the port
 *   offset 18 u8 gid[16]  GID (zeros when no GID index is used)
 */
/** `sizeof(struct cm_con_data_t)`. */
export const CM_CON_DATA_SIZE = 34;
/** The record as the C program puts it on the wire. */
export function packConData(d) {
    const b = Buffer.alloc(CM_CON_DATA_SIZE);
    b.writeBigUInt64BE(d.addr, 0);
    b.writeUInt32BE(d.rkey >>> 0, 8);
    b.writeUInt32BE(d.qp_num >>> 0, 12);
    b.writeUInt16BE(d.lid, 16);
    b.set(d.gid.subarray(0, 16), 18);
    return b;
}
/** Reads a record received from the peer. */
export function unpackConData(b) {
    if (b.length !== CM_CON_DATA_SIZE)
        throw new RangeError(`cm_con_data_t is ${CM_CON_DATA_SIZE} bytes, got ${b.length}`);
    const v = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    return {
        addr: v.readBigUInt64BE(0),
        rkey: v.readUInt32BE(8),
        qp_num: v.readUInt32BE(12),
        lid: v.readUInt16BE(16),
        gid: Uint8Array.from(v.subarray(18, 34)),
    };
}
//# sourceMappingURL=cm_con_data.js.map
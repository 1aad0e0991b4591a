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
export declare const CM_CON_DATA_SIZE = 34;
export interface CmConData {
    addr: bigint;
    rkey: number;
    qp_num: number;
    lid: number;
    gid: Uint8Array;
}
/** The record as the C program puts it on the wire. */
export declare function packConData(d: CmConData): Buffer;
/** Reads a record received from the peer. */
export declare function unpackConData(b: Uint8Array): CmConData;

/**
 * `ri_gid_t` and the 16 raw octets of a GID, both ways: the one place that converts them.
 *
 * A GID is a 128-bit identifier in network byte order (IBTA Vol. 1 §4.1.1); RNICPI 1.0 §3 carries
 * it as `ri_gid_t`, the subnet prefix (the first 8 octets) and the interface ID (the last 8), each a
 * 64-bit value. The faces (`ibv_gid.raw`, IT-API's `it_ib_gid_t`), the IB CM's path records and the
 * provider all hold GIDs as octets and pass them through RNICPI as `ri_gid_t`.
 *
 * @packageDocumentation
 */
import type { ri_gid_t } from './types.js';

/** 16 GID octets (big-endian) as `ri_gid_t`. `b` must hold at least 16 octets from its offset. */
export function riGidOfBytes(b: Uint8Array): ri_gid_t {
  const v = new DataView(b.buffer, b.byteOffset, 16);
  return { gid_prefix: v.getBigUint64(0), gid_guid: v.getBigUint64(8) };
}

/**
 * `ri_gid_t` as 16 GID octets (big-endian), written into `into` when given (its first 16 octets)
 * or into a new array. Values outside 64 bits are reduced modulo 2^64.
 */
export function bytesOfRiGid(g: ri_gid_t, into: Uint8Array = new Uint8Array(16)): Uint8Array {
  const v = new DataView(into.buffer, into.byteOffset, 16);
  v.setBigUint64(0, BigInt.asUintN(64, g.gid_prefix));
  v.setBigUint64(8, BigInt.asUintN(64, g.gid_guid));
  return into;
}

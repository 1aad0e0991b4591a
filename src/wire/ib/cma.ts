/**
 * The conventions rdma_cm puts on the InfiniBand CM (IBTA Vol. 1 Annex A11, "RDMA IP CM
 * Service"): the service IDs of its port spaces, the Q_Key of its UD QPs, and the `cma_hdr` at
 * the head of REQ and SIDR_REQ private data (Annex A11.3.2, as Linux `cma_format_hdr` writes
 * it), with the IPv4-mapped GIDs of RoCEv2 addresses (Annex A17.4.5.1). A codec with no I/O.
 *
 * @packageDocumentation
 */
import { checkUint, MadDropReason, MadWireError } from './mad.js';

/** A GID field must be 16 octets (IBTA Vol. 1 §4.1.1). */
export function checkGid(name: string, g: Uint8Array): void {
  if (!(g instanceof Uint8Array) || g.length !== 16) throw new RangeError(`${name} must be 16 octets`);
}

function field(detail: string): MadWireError {
  return new MadWireError(MadDropReason.Field, detail);
}

/** rdma_cm port spaces (`enum rdma_ucm_port_space`; the IBTA Annex A11 "RDMA IP CM Service"). */
export enum RdmaPs {
  IPOIB = 0x0002,
  IB = 0x013f,
  TCP = 0x0106,
  UDP = 0x0111,
}

/** The rdma_cm service-ID prefix and mask (`IB_CMA_SERVICE_ID`, `IB_CMA_SERVICE_ID_MASK`). */
export const IB_CMA_SERVICE_ID = 0x0000000001000000n;
export const IB_CMA_SERVICE_ID_MASK = 0xffffffffff000000n;

/** The service ID of `port` in port space `ps`: `ps << 16 | port` (Annex A11.3.1; `cma.c:rdma_get_service_id`). */
export function rdmaServiceId(ps: RdmaPs | number, port: number): bigint {
  checkUint('port space', ps, 16);
  checkUint('port', port, 16);
  return (BigInt(ps) << 16n) | BigInt(port);
}

/** The port space and port of an rdma_cm service ID, or null when it is not one. */
export function parseRdmaServiceId(sid: bigint): { ps: number; port: number } | null {
  if ((sid & IB_CMA_SERVICE_ID_MASK) !== IB_CMA_SERVICE_ID) return null;
  return { ps: Number((sid >> 16n) & 0xffffn), port: Number(sid & 0xffffn) };
}

/** The Q_Key rdma_cm uses for RDMA_PS_UDP / RDMA_PS_IPOIB UD QPs (`RDMA_UDP_QKEY`). */
export const RDMA_UDP_QKEY = 0x01234567;
/** Octets of the `cma_hdr` (Annex A11.3.2, "IP Addressing Header"; `cma.c:struct cma_hdr`). */
export const CMA_HDR_LEN = 36;
/** The only `cma_version` (`CMA_VERSION`). */
export const CMA_VERSION = 0x00;

/**
 * The rdma_cm header at the head of REQ and SIDR_REQ private data (Annex A11.3.2; Linux
 * `cma_format_hdr`): version, IP version (high nibble), the source port and both addresses.
 * The destination port is the low 16 bits of the service ID. An IPv4 address sits in the
 * last 4 octets of its 16-octet field, after 12 zero octets.
 */
export interface CmaHdr {
  cmaVersion: number;
  /** 4 or 6. */
  ipVersion: number;
  srcPort: number;
  /** 16 octets. */
  srcAddr: Uint8Array;
  /** 16 octets. */
  dstAddr: Uint8Array;
}

/** Writes a `cma_hdr` into `out[offset..offset+36)` (or a new buffer). */
export function encodeCmaHdr(h: CmaHdr, out?: Uint8Array, offset = 0): Uint8Array {
  checkUint('cma_version', h.cmaVersion, 8);
  checkUint('ip_version', h.ipVersion, 4);
  checkUint('port', h.srcPort, 16);
  checkGid('src_addr', h.srcAddr);
  checkGid('dst_addr', h.dstAddr);
  const buf = out ?? new Uint8Array(CMA_HDR_LEN);
  if (buf.length - offset < CMA_HDR_LEN) throw new RangeError('buffer too small for a cma_hdr');
  buf[offset] = h.cmaVersion;
  buf[offset + 1] = h.ipVersion << 4;
  buf[offset + 2] = h.srcPort >>> 8;
  buf[offset + 3] = h.srcPort & 0xff;
  buf.set(h.srcAddr, offset + 4);
  buf.set(h.dstAddr, offset + 20);
  return buf;
}

/**
 * Reads the `cma_hdr` of REQ/SIDR_REQ private data. Linux rejects a version other than 0 and
 * an IP version other than 4 or 6 (`cma.c:cma_get_net_info` → `cma_save_ip_info`); so does
 * this decoder, with a {@link MadWireError} of reason Field.
 */
export function decodeCmaHdr(pd: Uint8Array, offset = 0): CmaHdr {
  if (pd.length - offset < CMA_HDR_LEN) throw field(`cma_hdr needs ${CMA_HDR_LEN} octets, got ${pd.length - offset}`);
  const h: CmaHdr = {
    cmaVersion: pd[offset]!,
    ipVersion: pd[offset + 1]! >>> 4,
    srcPort: (pd[offset + 2]! << 8) | pd[offset + 3]!,
    srcAddr: pd.slice(offset + 4, offset + 20),
    dstAddr: pd.slice(offset + 20, offset + 36),
  };
  if (h.cmaVersion !== CMA_VERSION) throw field(`cma_version ${h.cmaVersion}`);
  if (h.ipVersion !== 4 && h.ipVersion !== 6) throw field(`cma_hdr IP version ${h.ipVersion}`);
  return h;
}

function parseV4(ip: string): number[] {
  const parts = ip.split('.').map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN));
  if (parts.length !== 4 || parts.some((p) => !(p >= 0 && p <= 255))) throw new RangeError(`not an IPv4 address: ${ip}`);
  return parts;
}

/** The IPv4-mapped GID `::ffff:a.b.c.d` of a RoCE v2 IPv4 address (Annex A17.4.5.1; `ipv6_addr_set_v4mapped`). */
export function gidFromIpv4(ip: string): Uint8Array {
  const g = new Uint8Array(16);
  g[10] = 0xff;
  g[11] = 0xff;
  g.set(parseV4(ip), 12);
  return g;
}

/** The IPv4 address of an IPv4-mapped GID, or null for any other GID. */
export function ipv4FromGid(gid: Uint8Array): string | null {
  if (gid.length !== 16) return null;
  for (let i = 0; i < 10; i++) if (gid[i] !== 0) return null;
  if (gid[10] !== 0xff || gid[11] !== 0xff) return null;
  return `${gid[12]}.${gid[13]}.${gid[14]}.${gid[15]}`;
}

/** The 16-octet `cma_hdr` form of an IPv4 address: 12 zero octets, then the address. */
export function cmaAddrFromIpv4(ip: string): Uint8Array {
  const a = new Uint8Array(16);
  a.set(parseV4(ip), 12);
  return a;
}

/** The IPv4 address in a `cma_hdr` address field (its last 4 octets). */
export function ipv4FromCmaAddr(a: Uint8Array): string {
  return `${a[12]}.${a[13]}.${a[14]}.${a[15]}`;
}

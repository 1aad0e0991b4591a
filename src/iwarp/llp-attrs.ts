/**
 * The iWARP settings the core does not know: an RNIC's Marker support and the largest ULPDU it
 * sends, and a QP's MPA attributes (RNICPI 1.0 §8
 * `ri_mpa_attr_t`). The core keeps a QP's MPA attributes as opaque LLP attributes
 * (`Qp.llpAttrs`) for Query QP and the Idle→RTS binding; this file is where they are validated
 * and read.
 *
 * @module
 */
import type { LlpAttrs, Qp } from '../rnic/qp.js';
import type { Rnic } from '../rnic/rnic.js';
import { RiRet } from '../rnicpi/status.js';
import type { ri_mpa_attr_t } from '../rnicpi/types.js';

/**
 * The MPA attributes of a QP (RNICPI 1.0 §8 `ri_mpa_attr_t`): Marker use per direction (RFC 5044
 * §5), CRC (RFC 5044 §6), and the DDP/RDMAP version (1 = IETF, RFC 5040/5041; 0 = RDMAC).
 */
export type MpaAttrs = {
  recvMarkers: boolean;
  xmitMarkers: boolean;
  crc: boolean;
  ddpRdmapVersion: number;
};

/** A QP's MPA attributes before any are given: no Markers, CRC on, IETF. */
export const DEFAULT_MPA_ATTRS: Readonly<MpaAttrs> = Object.freeze({
  recvMarkers: false,
  xmitMarkers: false,
  crc: true,
  ddpRdmapVersion: 1,
});

/** The iWARP settings of one RNIC. */
export interface IwarpRnicConfig {
  /** MPA Markers supported (RFC 5044 §5; Linux siw supports none). */
  readonly markers: boolean;
  /** Maximum ULPDU this RNIC sends in one FPDU (payload + DDP/RDMAP header; RFC 5044 §4.1). */
  readonly maxUlpdu: number;
}

export const DEFAULT_IWARP_CONFIG: IwarpRnicConfig = Object.freeze({ markers: true, maxUlpdu: 65_535 });

const configs = new WeakMap<Rnic, IwarpRnicConfig>();

/** The iWARP settings of `rnic` (the defaults unless {@link configureIwarp} set others). */
export function iwarpConfig(rnic: Rnic): IwarpRnicConfig {
  return configs.get(rnic) ?? DEFAULT_IWARP_CONFIG;
}

/** Sets the iWARP settings of `rnic` (before its QPs connect). */
export function configureIwarp(rnic: Rnic, c: Partial<IwarpRnicConfig>): void {
  configs.set(rnic, { ...iwarpConfig(rnic), ...c });
}

/**
 * Checks MPA attributes given to `ri_qp_create` or `ri_qp_modify` (RNICPI 1.0 §6.1.1, §6.1.4):
 * an IETF RNIC speaks DDP/RDMAP version 1 only (`INVALID_DDP_RDMAP_VERSION`), and Markers need an
 * RNIC that supports them (`MPA_ATTR_UNSUPPORTED`).
 */
export function checkMpaAttrs(rnic: Rnic, m: Partial<MpaAttrs>): RiRet {
  if (m.ddpRdmapVersion !== undefined && m.ddpRdmapVersion !== 1) return RiRet.INVALID_DDP_RDMAP_VERSION;
  if ((m.recvMarkers || m.xmitMarkers) && !iwarpConfig(rnic).markers) return RiRet.MPA_ATTR_UNSUPPORTED;
  return RiRet.SUCCESS;
}

/** MPA attributes read from a QP's LLP attributes (each missing or mistyped one: its default). */
export function mpaAttrsOf(a: LlpAttrs): MpaAttrs {
  const flag = (k: keyof MpaAttrs, d: boolean): boolean => (typeof a[k] === 'boolean' ? (a[k] as boolean) : d);
  return {
    recvMarkers: flag('recvMarkers', DEFAULT_MPA_ATTRS.recvMarkers),
    xmitMarkers: flag('xmitMarkers', DEFAULT_MPA_ATTRS.xmitMarkers),
    crc: flag('crc', DEFAULT_MPA_ATTRS.crc),
    ddpRdmapVersion: typeof a.ddpRdmapVersion === 'number' ? a.ddpRdmapVersion : DEFAULT_MPA_ATTRS.ddpRdmapVersion,
  };
}

/** The MPA attributes of `qp`. */
export function qpMpaAttrs(qp: Qp): MpaAttrs {
  return mpaAttrsOf(qp.llpAttrs);
}

/** MPA attributes in RNICPI's spelling (`ri_mpa_attr_t`, RNICPI 1.0 §8). */
export function riMpa(m: MpaAttrs): ri_mpa_attr_t {
  return {
    recv_marker_enabled: m.recvMarkers,
    xmit_marker_enabled: m.xmitMarkers,
    crc_enabled: m.crc,
    ddp_rdma_version: m.ddpRdmapVersion,
  };
}

import type { IbAvIn, Qp, QpModify } from '../rnic/qp.js';
import { type IbService } from '../rnic/qp-states.js';
import { type Rnic } from '../rnic/rnic.js';
import type { IbAv } from '../rnic/transport.js';
import { RiRet } from '../rnicpi/status.js';
import { type ri_gen_address_vector_t, type ri_gid_t, type ri_ib_qp_attr_t, type ri_ib_rnic_attr_t, type ri_qp_attr_in_t } from '../rnicpi/types.js';
/** Address handles one RoCE RNIC may hold (`max_addr_hdls`, `ibv_device_attr.max_ah`). */
export declare const MAX_AHS: number;
/** The service type of an `ri_svc_type_t` (UC: the softrdma extension). */
export declare function serviceOfRi(t: unknown): IbService | null;
/**
 * The GID table of a RoCEv2 port: the IPv4-mapped GID of each IPv4 address of the host, in
 * `os.networkInterfaces()` order, all of type RoCE v2 (IBTA Annex A17 §A17.4.5.2; as Linux rxe
 * lists them).
 */
export declare function hostIpv4Gids(): Uint8Array[];
/** The environment variable that sets the RoCE device's addresses (see {@link roceGids}). */
export declare const ROCE_ADDRS_ENV = "SOFTRDMA_ROCE_ADDRS";
/** The environment variable that sets the RoCE device's UDP port (see {@link roceUdpPortFromEnv}). */
export declare const ROCE_PORT_ENV = "SOFTRDMA_ROCE_PORT";
/**
 * The GID table of the RoCE device: the host's IPv4 addresses ({@link hostIpv4Gids}), or, when
 * `SOFTRDMA_ROCE_ADDRS` lists IPv4 addresses (comma-separated), exactly those. Two softrdma
 * processes on one host need this: each binds UDP port 4791 on the addresses of its GID table,
 * so they must own different addresses (127.0.0.1 and 127.0.0.2 on loopback), as two Linux hosts
 * would. Entries that are not IPv4 addresses are ignored. Read at each query.
 */
export declare function roceGids(): Uint8Array[];
/** `SOFTRDMA_ROCE_PORT`: the UDP port of the RoCE device (default 4791, IBTA Annex A17.2.4); tests use an ephemeral one. */
export declare function roceUdpPortFromEnv(): number | undefined;
/** 16 raw GID octets as RNICPI's `ri_gid_t` (prefix = the first 8 octets, big-endian). */
export declare function riOfGid(g: Uint8Array): ri_gid_t;
/** RNICPI's `ri_gid_t` as 16 raw octets, or null if it is not one. */
export declare function gidOfRi(g: ri_gid_t | undefined): Uint8Array | null;
/** An RNICPI address vector in the core's form (null: malformed). */
export declare function avOfRi(av: ri_gen_address_vector_t | undefined, port: unknown): IbAvIn | null;
/** The core's address vector as RNICPI's (RoCE: always with a GRH). */
export declare function riOfAv(av: IbAv): ri_gen_address_vector_t;
/** The IB attributes of a RoCEv2 RNIC (`ri_rnic_query`), with its one port when asked. */
export declare function ibRnicAttrs(e: Rnic, portInfo: boolean): ri_ib_rnic_attr_t;
/** Notional C size of the IB part of a query answer (struct, ports, GIDs, P_Keys). */
export declare function ibAttrSize(a: ri_ib_rnic_attr_t): number;
/** The IB attributes of a QP as `ri_qp_query` returns them. */
export declare function ibQpAttr(qp: Qp): ri_ib_qp_attr_t;
/**
 * Decodes `ri_qp_modify` for an IB QP into the core's request. With
 * {@link RiQpAttrMask.SR_IBTA_ATTRS} the IBTA components come one by one from `sr_ibta_mask`;
 * otherwise the RNICPI 1.0 bits, where `PRIMARY_PATH` carries the members of the primary path
 * the transition takes (INIT→RTR: AV and path MTU; RTR→RTS: timeout and retry counts; SQD→SQD:
 * all of them), as IBTA Vol. 1 §11.2.4.2 lists them.
 */
export declare function decodeModifyIb(qp: Qp, mask: number, a: ri_qp_attr_in_t): QpModify | RiRet;

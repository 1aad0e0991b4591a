/**
 * rdma_cm over the InfiniBand CM, for the RoCE device: the device-level half. `rdma_cm.ts` keeps
 * the ids and their events; this module holds, per RoCE device, the IB CM on QP1
 * ({@link RoceCm}: `src/ibcm` over a {@link RiGsiPort}), the rdma_cm services listened on, and
 * the pure translations between rdma_cm and the CM (IBTA Vol. 1 Annex A11 "RDMA IP CM Service",
 * as Linux `drivers/infiniband/core/cma.c` applies it to RoCE):
 *
 * - the **service ID** `ps << 16 | port` and the **`cma_hdr`** (36 octets: version 0, IP version
 *   4, source port, source and destination address) at the head of REQ and SIDR_REQ private
 *   data; the user's private data follows (at most 92 − 36 = 56 octets in a REQ, 216 − 36 = 180
 *   in a SIDR_REQ); REP, REJ, RTU and SIDR_REP carry the user's data alone;
 * - the **path**: IPv4-mapped GIDs (Annex A17.4.5.1) of the source and destination addresses,
 *   hop limit 64, path MTU 1024 (the port's active MTU), packet life time 18, as
 *   `cma_resolve_iboe_route`;
 * - the **QP attributes** a connection gives its QP (Linux `cm_init_qp_*_attr`): RTR with the
 *   peer's QPN, starting PSN and the path, RTS with the Local ACK Timeout and the retry counts.
 *
 * @module
 */
import type { IbCm, IbCmListenLimits } from '../ibcm/cm.js';
import { cmaAddresses, cmaPrivateDataOf, RdmaIpCm, type RdmaIpListenHandler, ephemeralPort, randomPsn, roceSourceFor } from '../ibcm/rdma-ip.js';
import { RiGsiPort } from '../ibcm/ri-gsi.js';
import { hostMemory } from '../rnic/hostmem.js';
import { RiRet } from '../rnicpi/status.js';
import { CMA_HDR_LEN, gidFromIpv4, stringifyGid } from '../wire/ib/cm.js';
import { gidToAddress } from '../wire/ib/gid-address.js';
import { ibv_access_flags, ibv_qp_attr_mask, ibv_qp_state, ibv_transport_type } from './constants.js';
import { type Context, type Device, queryGid } from './device.js';
import { EADDRINUSE, EINVAL, ENODEV } from './errno.js';
import { ibv_modify_qp, type Qp } from './ibverbs.js';
import type { ibv_ah_attr } from './types.js';


/** Hop limit of rdma_cm's RoCE paths (Linux `cma_resolve_iboe_route`: 64 when routed). */
export const IBOE_HOP_LIMIT = 64;
/** Packet life time of rdma_cm's RoCE paths (`CMA_IBOE_PACKET_LIFETIME`). */
export const IBOE_PACKET_LIFETIME = 18;
/** Path MTU of the RoCE device's paths: its active MTU, 1024 (`enum ibv_mtu` 3), as rxe on 1500-octet Ethernet. */
export const IBOE_PATH_MTU = 3;
/** The RNR timer a connected QP advertises: 12 (0.64 ms), as ibv_rc_pingpong; Linux rdma_cm leaves 0 (655 ms). */
export const CM_MIN_RNR_TIMER = 12;
/** The MRA service timeout rdma_cm sends while its consumer decides (`CMA_CM_MRA_SETTING`: 24, about 67 s). */
export const CMA_MRA_TIMEOUT = 24;
/** User private data in a REQ and a SIDR_REQ after the `cma_hdr` (`rdma_cm` limits). */
export const REQ_USER_PD = 92 - CMA_HDR_LEN;
export const SIDR_REQ_USER_PD = 216 - CMA_HDR_LEN;

/** True when `ctx` is the RoCE (InfiniBand transport) device. */
export function isIbContext(ctx: Context | null): boolean {
  return !!ctx && ctx.device.transport_type === ibv_transport_type.IBV_TRANSPORT_IB;
}

/** True when `dev` is the RoCE device. */
export function isIbDevice(dev: Device): boolean {
  return dev.transport_type === ibv_transport_type.IBV_TRANSPORT_IB;
}

/** The RoCE device's GID table (`ibv_query_gid` of each index until it fails). */
export function gidTable(ctx: Context): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < 256; i++) {
    const g = { raw: new Uint8Array(16) };
    if (queryGid(ctx, 1, i, g) !== 0) break;
    out.push(g.raw);
  }
  return out;
}

/** The IPv4 and IPv6 addresses of the RoCE device (those of its GIDs, Annex A17.8). */
export function ibAddresses(ctx: Context): string[] {
  return gidTable(ctx)
    .map((g) => gidToAddress(g))
    .filter((a): a is string => a !== null);
}

const sameGid = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The GID table index of `gid`, or -1. */
export function gidIndex(ctx: Context, gid: Uint8Array): number {
  return gidTable(ctx).findIndex((g) => sameGid(g, gid));
}

/**
 * The source address of a RoCE path to `dst` (rdma_resolve_addr with no source): see
 * {@link roceSourceFor}. null when the device has no IPv4 address.
 */
export function ibSourceFor(ctx: Context, dst: string): Promise<string | null> {
  return roceSourceFor(ibAddresses(ctx), dst);
}

export { ephemeralPort, randomPsn };

/**
 * REQ / SIDR_REQ private data: the `cma_hdr` then the user's data, or EINVAL when the user's
 * data does not fit (`limit` octets).
 */
export function cmaPrivateData(src: { address: string; port: number }, dst: string, user: Uint8Array | null, limit: number): Uint8Array | number {
  if ((user?.length ?? 0) > limit) return EINVAL;
  return cmaPrivateDataOf(src, dst, user);
}

export { cmaAddresses };

/** The address handle attributes of a RoCE path (a GRH always: Annex A17). */
export function ibAhAttr(dgid: Uint8Array, sgidIndex: number, hopLimit = IBOE_HOP_LIMIT): ibv_ah_attr {
  return {
    grh: { dgid: { raw: Uint8Array.from(dgid) }, flow_label: 0, sgid_index: sgidIndex, hop_limit: hopLimit, traffic_class: 0 },
    dlid: 0,
    sl: 0,
    src_path_bits: 0,
    static_rate: 0,
    is_global: 1,
    port_num: 1,
  };
}

/** The access flags rdma_cm gives a RoCE RC QP at INIT: local write, remote read, write and atomics. */
export const IB_CM_ACCESS =
  ibv_access_flags.IBV_ACCESS_LOCAL_WRITE | ibv_access_flags.IBV_ACCESS_REMOTE_READ | ibv_access_flags.IBV_ACCESS_REMOTE_WRITE | ibv_access_flags.IBV_ACCESS_REMOTE_ATOMIC;

/** What a connection gives its QP on the way to RTS (Linux `cm_init_qp_rtr_attr` / `cm_init_qp_rts_attr`). */
export interface IbQpPath {
  dgid: Uint8Array;
  sgidIndex: number;
  pathMtu: number;
  destQpn: number;
  rqPsn: number;
  sqPsn: number;
  /** max_dest_rd_atomic (our responder resources). */
  responderResources: number;
  /** max_rd_atomic (our initiator depth). */
  initiatorDepth: number;
  timeout: number;
  retryCnt: number;
  rnrRetry: number;
}

/** Moves an RC QP INIT→RTR→RTS with `p` (0, or the errno of the modify that failed). */
export function ibQpToRts(qp: Qp, p: IbQpPath): number {
  const M = ibv_qp_attr_mask;
  let r = ibv_modify_qp(
    qp,
    {
      qp_state: ibv_qp_state.IBV_QPS_RTR,
      ah_attr: ibAhAttr(p.dgid, p.sgidIndex),
      path_mtu: p.pathMtu,
      dest_qp_num: p.destQpn,
      rq_psn: p.rqPsn,
      max_dest_rd_atomic: p.responderResources,
      min_rnr_timer: CM_MIN_RNR_TIMER,
    },
    M.IBV_QP_STATE | M.IBV_QP_AV | M.IBV_QP_PATH_MTU | M.IBV_QP_DEST_QPN | M.IBV_QP_RQ_PSN | M.IBV_QP_MAX_DEST_RD_ATOMIC | M.IBV_QP_MIN_RNR_TIMER,
  );
  if (r !== 0) return r;
  r = ibv_modify_qp(
    qp,
    { qp_state: ibv_qp_state.IBV_QPS_RTS, timeout: p.timeout, retry_cnt: p.retryCnt, rnr_retry: p.rnrRetry, sq_psn: p.sqPsn, max_rd_atomic: p.initiatorDepth },
    M.IBV_QP_STATE | M.IBV_QP_TIMEOUT | M.IBV_QP_RETRY_CNT | M.IBV_QP_RNR_RETRY | M.IBV_QP_SQ_PSN | M.IBV_QP_MAX_QP_RD_ATOMIC,
  );
  return r;
}

/** A UD QP of rdma_cm straight to RTS (Linux `cma_init_ud_qp`): INIT with `qkey`, RTR, RTS. */
export function ibUdQpToRts(qp: Qp, qkey: number): number {
  const M = ibv_qp_attr_mask;
  let r = ibv_modify_qp(qp, { qp_state: ibv_qp_state.IBV_QPS_INIT, pkey_index: 0, port_num: 1, qkey }, M.IBV_QP_STATE | M.IBV_QP_PKEY_INDEX | M.IBV_QP_PORT | M.IBV_QP_QKEY);
  if (r !== 0) return r;
  r = ibv_modify_qp(qp, { qp_state: ibv_qp_state.IBV_QPS_RTR }, M.IBV_QP_STATE);
  if (r !== 0) return r;
  return ibv_modify_qp(qp, { qp_state: ibv_qp_state.IBV_QPS_RTS, sq_psn: 0 }, M.IBV_QP_STATE | M.IBV_QP_SQ_PSN);
}

// ------------------------------------------------------------------------------ the CM of a device

/** A REQ or SIDR_REQ for one rdma_cm listener, with its `cma_hdr` addresses. */
export type IbListenHandler = RdmaIpListenHandler;

/**
 * rdma_cm's view of the IB CM of one RoCE device: the process's {@link RdmaIpCm} of the port
 * (`src/ibcm/rdma-ip.ts`: QP1, the {@link IbCm} over it, the services by service ID dispatched
 * on the `cma_hdr`'s destination, as Linux `cma_ib_id_from_event`), opened on this context's
 * RNIC when rdma_cm is the first face to need it, and the context the ids it serves are on.
 */
export class RoceCm {
  private constructor(
    readonly ctx: Context,
    readonly shared: RdmaIpCm,
  ) {}

  /** The CM of `ctx`'s device (QP1 opened on first use), or the errno of a failure to open QP1. */
  static of(ctx: Context): RoceCm | number {
    if (ctx.closed) return ENODEV;
    const c = RdmaIpCm.of({
      name: ctx.device.name,
      openGsi: () => RiGsiPort.open({ ops: ctx.ops, rnic: ctx.rnic, cqHandlerId: ctx.device.cqHandlerId, addressOf: (b) => hostMemory.addressOf(b) }),
      caGuid: ctx.device.guid,
      gids: () => gidTable(ctx),
    });
    if (typeof c === 'number') return c === RiRet.QP_INUSE ? EADDRINUSE : ENODEV;
    return new RoceCm(ctx, c);
  }

  get cm(): IbCm {
    return this.shared.cm;
  }

  /** An id starts using the CM. */
  hold(): void {
    this.shared.hold();
  }

  /** An id stops using it; the last user lets it close once idle. */
  release(): void {
    this.shared.release();
  }

  /**
   * Listens on `sid` for the rdma_cm listener bound to `address` ('0.0.0.0' for all). EADDRINUSE
   * when that address (or the wildcard, or any address against a wildcard) is taken on it.
   */
  listen(sid: bigint, address: string, handler: IbListenHandler, limits?: Partial<IbCmListenLimits>): number {
    return this.shared.listen(sid, address, handler, limits) ? 0 : EADDRINUSE;
  }

  /** Stops the listener of `address` on `sid`. */
  unlisten(sid: bigint, address: string): void {
    this.shared.unlisten(sid, address);
  }
}

/** `::ffff:a.b.c.d` text of an IPv4 address's GID (for logs). */
export function gidText(address: string): string {
  return stringifyGid(gidFromIpv4(address));
}

/**
 * rdma_cm over the InfiniBand CM, for the RoCE device: the device-level half. `rdma_cm.ts` keeps
 * the ids and their events; this module holds, per RoCE device, the IB CM on QP1
 * ({@link RoceCm}: `src/ibcm` over a {@link RiGsiPort}), the rdma_cm services listened on, and
 * the pure translations between rdma_cm and the CM (IBTA Vol. 1 Annex A11 "RDMA IP CM Service",
 * as Linux `drivers/infiniband/core/cma.c` applies it to RoCE):
 *
 * - the **service ID** `ps << 16 | port` and the **`cma_hdr`** (36 octets: version 0, IP version
 *   4, source port, source and destination address) at the head of REQ and SIDR_REQ private
 *   data; the user's private data follows (`CMA_USER_PDATA` of `src/ibcm/rdma-ip.ts`); REP,
 *   REJ, RTU and SIDR_REP carry the user's data alone;
 * - the **path**: IPv4-mapped GIDs (Annex A17.4.5.1) of the source and destination addresses,
 *   with the RoCE path's hop limit, MTU and packet life time (`src/ibcm/qp-plan.ts`), as
 *   `cma_resolve_iboe_route`;
 * - the **QP attributes** a connection gives its QP: the plans of `src/ibcm/qp-plan.ts` (Linux
 *   `cm_init_qp_*_attr`), applied by its executor ({@link ibQpRun}, {@link ibCmQpInit}).
 *
 * @module
 */
import { CMA_CM_MRA_SETTING, type IbCm, type IbCmListenLimits } from '../ibcm/cm.js';
import { gidIndexIn } from '../ibcm/gsi.js';
import { IBOE_HOP_LIMIT, IBOE_PACKET_LIFETIME, IBOE_PATH_MTU, type QpPlan, rcInitPlan, runQpPlan } from '../ibcm/qp-plan.js';
import {
  CMA_USER_PDATA,
  cmaAddresses,
  cmaPrivateDataOf,
  RdmaIpCm,
  type RdmaIpListenHandler,
  ephemeralPort,
  randomPsn,
  roceSourceFor,
} from '../ibcm/rdma-ip.js';
import { RiGsiPort } from '../ibcm/ri-gsi.js';
import { hostMemory } from '../rnic/hostmem.js';
import { RiRet } from '../rnicpi/status.js';
import { gidFromIpv4, stringifyGid } from '../wire/ib/cm.js';
import { gidToAddress } from '../wire/ib/gid-address.js';
import { ibv_access_flags, ibv_transport_type } from './constants.js';
import { type Context, type Device, errnoOf, fail, queryGid } from './device.js';
import { EADDRINUSE, EINVAL, ENODEV } from './errno.js';
import type { Qp } from './ibverbs.js';
import type { ibv_ah_attr } from './types.js';

export { IBOE_HOP_LIMIT, IBOE_PACKET_LIFETIME, IBOE_PATH_MTU };
/** The MRA service timeout rdma_cm sends while its consumer decides (`CMA_CM_MRA_SETTING`). */
export const CMA_MRA_TIMEOUT = CMA_CM_MRA_SETTING;
/** User private data in a REQ and a SIDR_REQ after the `cma_hdr` (`rdma_cm` limits). */
export const REQ_USER_PD = CMA_USER_PDATA.REQ;
export const SIDR_REQ_USER_PD = CMA_USER_PDATA.SIDR_REQ;

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

/** The GID table index of `gid`, or -1. */
export function gidIndex(ctx: Context, gid: Uint8Array): number {
  return gidIndexIn(gidTable(ctx), gid);
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
export function cmaPrivateData(
  src: { address: string; port: number },
  dst: string,
  user: Uint8Array | null,
  limit: number,
): Uint8Array | number {
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
  ibv_access_flags.IBV_ACCESS_LOCAL_WRITE |
  ibv_access_flags.IBV_ACCESS_REMOTE_READ |
  ibv_access_flags.IBV_ACCESS_REMOTE_WRITE |
  ibv_access_flags.IBV_ACCESS_REMOTE_ATOMIC;

/**
 * Moves `qp` through a connection plan (`src/ibcm/qp-plan.ts`: its one executor over RNICPI):
 * 0, or the errno of the step that failed (a read/atomic depth beyond the device is EINVAL, as
 * `ibv_modify_qp` answers it).
 */
export function ibQpRun(qp: Qp, plan: QpPlan): number {
  if (qp.dead) return fail(EINVAL);
  const st = runQpPlan(qp.context.ops, qp.context.rnic, qp.ri, plan);
  if (st === RiRet.SUCCESS) return 0;
  return fail(st === RiRet.RNIC_IRD_ORD_EXCEEDED ? EINVAL : errnoOf(st));
}

/**
 * rdma_cm's INIT of a RoCE RC QP (Linux `rdma_init_qp_attr`): remote read, write and atomics;
 * the access flags, local write among them, kept for `ibv_query_qp`.
 */
export function ibCmQpInit(qp: Qp): number {
  const r = ibQpRun(qp, rcInitPlan({ read: true, write: true, atomic: true }));
  if (r === 0) qp.accessFlags = IB_CM_ACCESS;
  return r;
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
      openGsi: () =>
        RiGsiPort.open({ ops: ctx.ops, rnic: ctx.rnic, cqHandlerId: ctx.device.cqHandlerId, addressOf: (b) => hostMemory.addressOf(b) }),
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

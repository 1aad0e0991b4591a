/**
 * The InfiniBand half of the softrdma provider: how a RoCEv2 RNIC speaks RNICPI.
 *
 * RNICPI 1.0 defines the IB structures (`ri_ib_rnic_attr_t`, `ri_ib_qp_attr_t`, the address
 * vectors) but bundles the primary path's members behind one mask bit and has no UC service
 * type. softrdma carries the IBTA Modify QP components one by one through a small extension
 * (`RI_QP_ATTR_SR_IBTA_ATTRS` with `qp_ib.sr_ibta_mask`; `RI_SERVICE_SR_UNRELIABLE_CONNECTION`;
 * the `sr_*` port attributes), documented in docs/spec-notes.md "RNICPI IB extension". This
 * module only decodes and encodes; every rule is the core's (qp.ts `modifyIb`, `resolveAv`).
 *
 * @module
 */
import { ENV_ROCE_PORT, rocePortFromEnv } from '../util/env.js';
import type { IbAvIn, Qp, QpModify } from '../rnic/qp.js';
import { IbQpAttr, type IbService } from '../rnic/qp-states.js';
import { MCAST_GROUPS, MCAST_QPS_PER_GROUP, type Rnic } from '../rnic/rnic.js';
import type { IbAv } from '../rnic/transport.js';
import { RiRet } from '../rnicpi/status.js';
import { bytesOfRiGid, riGidOfBytes } from '../rnicpi/gid.js';
import {
  RI_QP_ATTR_IB_VALID_MASK,
  RiIbMtu,
  RiIbPortState,
  RiIbRnicFlags,
  RiMigState,
  RiQpAttrMask,
  RiQpState,
  RiSrGidType,
  RiSvcType,
  type ri_gen_address_vector_t,
  type ri_gid_t,
  type ri_ib_port_attr_t,
  type ri_ib_qp_attr_t,
  type ri_ib_rnic_attr_t,
  type ri_path_address_info_t,
  type ri_qp_attr_in_t,
} from '../rnicpi/types.js';
import { addressToGid } from '../wire/ib/gid-address.js';
import { hostAddresses, ROCE_ADDRS_ENV } from './gid-table.js';
import { decodeModifyCommon, isUint } from './qp-modify.js';

/** Address handles one RoCE RNIC may hold (`max_addr_hdls`, `ibv_device_attr.max_ah`). */
export const MAX_AHS = 1 << 16;

const SERVICE_OF_RI: Readonly<Partial<Record<RiSvcType, IbService>>> = {
  [RiSvcType.RELIABLE_CONNECTION]: 'RC',
  [RiSvcType.SR_UNRELIABLE_CONNECTION]: 'UC',
  [RiSvcType.UNRELIABLE_DATAGRAM]: 'UD',
};

/** The service type of an `ri_svc_type_t` (UC: the softrdma extension). */
export function serviceOfRi(t: unknown): IbService | null {
  return typeof t === 'number' ? (SERVICE_OF_RI[t as RiSvcType] ?? null) : null;
}

const RI_OF_SERVICE: Readonly<Record<IbService, RiSvcType>> = {
  RC: RiSvcType.RELIABLE_CONNECTION,
  UC: RiSvcType.SR_UNRELIABLE_CONNECTION,
  UD: RiSvcType.UNRELIABLE_DATAGRAM,
};

// ------------------------------------------------------------------------------ GIDs

/**
 * The GIDs of the host's addresses ({@link hostAddresses}: the IPv4 addresses of the running
 * interfaces in `os.networkInterfaces()` order, then those up without carrier, then the IPv6
 * addresses), all of type RoCE v2 (IBTA Annex A17.8; IPv4-mapped for IPv4, the address itself for
 * IPv6, as Linux rxe lists them). A snapshot; the port's table is a `RoceGidTable` (gid-table.ts).
 */
export function hostGids(): Uint8Array[] {
  return hostAddresses()
    .map((h) => addressToGid(h.address))
    .filter((g): g is Uint8Array => g !== null);
}

export { ROCE_ADDRS_ENV };
/** The environment variable that sets the RoCE device's UDP port (see {@link roceUdpPortFromEnv}). */
export const ROCE_PORT_ENV = ENV_ROCE_PORT;

/** `SOFTRDMA_ROCE_PORT`: the UDP port of the RoCE device (default 4791, IBTA Annex A17.2.4); tests use an ephemeral one. */
export function roceUdpPortFromEnv(): number | undefined {
  return rocePortFromEnv();
}

/** RNICPI's `ri_gid_t` as 16 raw octets, or null if it is not one. */
export function gidOfRi(g: ri_gid_t | undefined): Uint8Array | null {
  if (!g || typeof g.gid_prefix !== 'bigint' || typeof g.gid_guid !== 'bigint') return null;
  return bytesOfRiGid(g);
}

/** An RNICPI address vector in the core's form (null: malformed). */
export function avOfRi(av: ri_gen_address_vector_t | undefined, port: unknown): IbAvIn | null {
  if (!av || typeof av !== 'object') return null;
  const dgid = gidOfRi(av.dgid);
  if (!dgid) return null;
  return {
    dgid,
    sgidIndex: av.source_gid_index,
    hopLimit: av.hop_limit,
    trafficClass: av.traffic_class,
    flowLabel: av.flow_label,
    sl: av.sl,
    port: (port as number) ?? 1,
  };
}

/** The core's address vector as RNICPI's (RoCE: always with a GRH). */
export function riOfAv(av: IbAv): ri_gen_address_vector_t {
  return {
    sl: av.sl,
    send_global_routing_hdr_flg: 1,
    hop_limit: av.hopLimit,
    source_gid_index: av.sgidIndex,
    flow_label: av.flowLabel,
    dgid: riGidOfBytes(av.dgid),
    dlid: 0,
    traffic_class: av.trafficClass,
    max_static_rate: 0,
    source_path_bits: 0,
  };
}

// ------------------------------------------------------------------------------ ri_rnic_query

/** The IB attributes of a RoCEv2 RNIC (`ri_rnic_query`), with its one port when asked. */
export function ibRnicAttrs(e: Rnic, portInfo: boolean, nodeGuid: bigint): ri_ib_rnic_attr_t {
  const gids = e.gidTable();
  const port: ri_ib_port_attr_t = {
    src_gid_table: gids.map((g) => riGidOfBytes(g)),
    pkey_table: [0xffff],
    max_msg_size: 0xffff_ffff,
    max_mtu: RiIbMtu.MTU_4K,
    port_state: RiIbPortState.ACTIVE,
    ib_port_flags: 0,
    base_lid: 0,
    sm_lid: 0,
    bad_pkey_count: 0,
    bad_qkey_count: e.counters.qkeyViolations,
    src_gid_table_size: gids.length,
    lmc: 0,
    max_vls: 1,
    sm_sl: 0,
    subnet_timeout: 0,
    init_type_reply: 0,
    sr_active_mtu: e.config.activeMtu ?? RiIbMtu.MTU_1K,
    sr_link_layer: 'ethernet',
    sr_gid_types: gids.map(() => RiSrGidType.ROCE_V2),
  };
  return {
    max_mr_size: 0xffff_ffffn,
    node_guid: nodeGuid,
    system_image_guid: nodeGuid,
    port_attrs: portInfo ? [port] : null,
    // Only what the core can do: atomics when the work-request table carries them.
    // UD multicast (ri_mcast_attach): the RoCEv2 transport joins IPv4 groups (IGMP) for it.
    ib_rnic_flags: (e.atomicsSupported ? RiIbRnicFlags.ATOMICS : 0) | RiIbRnicFlags.UD_MULTICAST,
    max_addr_hdls: MAX_AHS,
    max_mcgs: MCAST_GROUPS,
    max_multicast_qps: MCAST_GROUPS * MCAST_QPS_PER_GROUP,
    max_qps_per_mcg: MCAST_QPS_PER_GROUP,
    partition_table_size: 1,
    num_ports: 1,
    local_ack_delay: 0,
  };
}

/** Notional C size of the IB part of a query answer (struct, ports, GIDs, P_Keys). */
export function ibAttrSize(a: ri_ib_rnic_attr_t): number {
  let n = 64;
  for (const p of a.port_attrs ?? []) n += 64 + 16 * p.src_gid_table_size + 2 * (p.pkey_table?.length ?? 0);
  return n;
}

// ------------------------------------------------------------------------------ QP attributes

function zeroPath(): ri_path_address_info_t {
  return {
    pkey_index: 0,
    physical_port: 0,
    path_mtu: 0,
    local_ack_timeout: 0,
    retry_count: 0,
    rnr_retry_count: 0,
    av: {
      sl: 0,
      send_global_routing_hdr_flg: 0,
      hop_limit: 0,
      source_gid_index: 0,
      flow_label: 0,
      dgid: { gid_prefix: 0n, gid_guid: 0n },
      dlid: 0,
      traffic_class: 0,
      max_static_rate: 0,
      source_path_bits: 0,
    },
  };
}

/** The IB attributes of a QP as `ri_qp_query` returns them. */
export function ibQpAttr(qp: Qp): ri_ib_qp_attr_t {
  const ib = qp.ib;
  return {
    send_psn: ib.sqPsn,
    signal_completions: true,
    trans_type: RI_OF_SERVICE[qp.service],
    enable_async_notify_for_sqd: ib.sqdNotify ? 1 : 0,
    primary_av: {
      pkey_index: ib.pkeyIndex,
      physical_port: ib.port,
      path_mtu: ib.pathMtu,
      local_ack_timeout: ib.timeout,
      retry_count: ib.retryCnt,
      rnr_retry_count: ib.rnrRetry,
      av: riOfAv(ib.av),
    },
    recv_psn: ib.rqPsn,
    dest_qpn: ib.destQpn,
    min_rnrnak_timer: ib.minRnrTimer,
    alternate_av: zeroPath(),
    mig_state: RiMigState.MIGRATED,
    enable_atomic: qp.enableAtomic,
    current_state: qp.state,
    recv_qkey: ib.qkey,
  };
}

/** RNICPI IB mask bits 5–18 (the ones {@link RiQpAttrMask.SR_IBTA_ATTRS} replaces). */
const RI_IB_BITS = RI_QP_ATTR_IB_VALID_MASK & ~((1 << 5) - 1);

/**
 * Decodes `ri_qp_modify` for an IB QP into the core's request. With
 * {@link RiQpAttrMask.SR_IBTA_ATTRS} the IBTA components come one by one from `sr_ibta_mask`;
 * otherwise the RNICPI 1.0 bits, where `PRIMARY_PATH` carries the members of the primary path
 * the transition takes (INIT→RTR: AV and path MTU; RTR→RTS: timeout and retry counts; SQD→SQD:
 * all of them), as IBTA Vol. 1 §11.2.4.2 lists them.
 */
export function decodeModifyIb(qp: Qp, mask: number, a: ri_qp_attr_in_t): QpModify | RiRet {
  const m = decodeModifyCommon(mask, RI_QP_ATTR_IB_VALID_MASK | RiQpAttrMask.SR_IBTA_ATTRS, a, 'qp_iwarp');
  if (typeof m === 'number') return m;
  const x: Partial<ri_ib_qp_attr_t> = a.qp_xport && 'qp_ib' in a.qp_xport ? (a.qp_xport.qp_ib ?? {}) : {};
  const ib: NonNullable<QpModify['ib']> = {};
  m.ib = ib;
  // The IBTA components: any integer here, their ranges are the core's (qp.ts `modifyIb`).
  const int = (v: unknown): v is number => Number.isInteger(v);
  let comps: number;
  if (mask & RiQpAttrMask.SR_IBTA_ATTRS) {
    if (mask & RI_IB_BITS) return RiRet.INVALID_PARAMETER;
    if (!int(x.sr_ibta_mask)) return RiRet.INVALID_PARAMETER;
    comps = x.sr_ibta_mask & ~IbQpAttr.STATE;
  } else {
    comps = 0;
    const M = RiQpAttrMask;
    if (mask & (M.ENABLE_RDMA_READ | M.ENABLE_RDMA_WRITE | M.ENABLE_ATOMICS)) comps |= IbQpAttr.ACCESS_FLAGS;
    if (mask & M.DEST_QPID) comps |= IbQpAttr.DEST_QPN;
    if (mask & M.ENABLE_ASYNC_NOTIFY_FOR_SQD) comps |= IbQpAttr.EN_SQD_ASYNC_NOTIFY;
    if (mask & M.QKEY) comps |= IbQpAttr.QKEY;
    if (mask & M.SEND_PSN) comps |= IbQpAttr.SQ_PSN;
    if (mask & M.RECV_PSN) comps |= IbQpAttr.RQ_PSN;
    if (mask & M.MIN_RNR_TIMER) comps |= IbQpAttr.MIN_RNR_TIMER;
    if (mask & M.PRIMARY_PKEY) comps |= IbQpAttr.PKEY_INDEX;
    if (mask & M.PORT_NUM) comps |= IbQpAttr.PORT;
    if (mask & (M.ALTERNATE_PATH | M.MIGSTATE)) comps |= IbQpAttr.ALT_PATH;
    if (mask & M.PRIMARY_PATH) {
      const to = m.nextState ?? qp.state;
      if (to === RiQpState.READY_TO_RECEIVE) comps |= IbQpAttr.AV | IbQpAttr.PATH_MTU;
      else if (to === RiQpState.READY_TO_SEND && qp.state === RiQpState.READY_TO_RECEIVE)
        comps |= IbQpAttr.TIMEOUT | IbQpAttr.RETRY_CNT | IbQpAttr.RNR_RETRY;
      else comps |= IbQpAttr.AV | IbQpAttr.PATH_MTU | IbQpAttr.TIMEOUT | IbQpAttr.RETRY_CNT | IbQpAttr.RNR_RETRY;
    }
  }
  const A = IbQpAttr;
  const path = x.primary_av;
  const needPath = A.PKEY_INDEX | A.PORT | A.AV | A.PATH_MTU | A.TIMEOUT | A.RETRY_CNT | A.RNR_RETRY;
  if (comps & needPath && (!path || typeof path !== 'object')) return RiRet.INVALID_PARAMETER;
  const set = (bit: number, v: unknown, put: (n: number) => void, valid: (v: unknown) => v is number = int): RiRet => {
    if (!(comps & bit)) return RiRet.SUCCESS;
    if (!valid(v)) return RiRet.INVALID_PARAMETER;
    put(v);
    return RiRet.SUCCESS;
  };
  const steps: RiRet[] = [
    set(A.CUR_STATE, x.current_state, (n) => {
      ib.curState = n;
    }),
    set(A.PKEY_INDEX, path?.pkey_index, (n) => {
      ib.pkeyIndex = n;
    }),
    set(A.PORT, path?.physical_port, (n) => {
      ib.port = n;
    }),
    set(A.QKEY, x.recv_qkey, (n) => {
      ib.qkey = n;
    }),
    set(A.PATH_MTU, path?.path_mtu, (n) => {
      ib.pathMtu = n;
    }),
    set(A.TIMEOUT, path?.local_ack_timeout, (n) => {
      ib.timeout = n;
    }),
    set(A.RETRY_CNT, path?.retry_count, (n) => {
      ib.retryCnt = n;
    }),
    set(A.RNR_RETRY, path?.rnr_retry_count, (n) => {
      ib.rnrRetry = n;
    }),
    set(A.RQ_PSN, x.recv_psn, (n) => {
      ib.rqPsn = n;
    }),
    set(A.SQ_PSN, x.send_psn, (n) => {
      ib.sqPsn = n;
    }),
    set(A.MIN_RNR_TIMER, x.min_rnrnak_timer, (n) => {
      ib.minRnrTimer = n;
    }),
    set(A.DEST_QPN, x.dest_qpn, (n) => {
      ib.destQpn = n;
    }),
    // ORD and IRD are members of the shared prelude: non-negative there and here.
    set(
      A.MAX_QP_RD_ATOMIC,
      a.max_rdma_read_outgoing,
      (n) => {
        m.ord = n;
      },
      isUint,
    ),
    set(
      A.MAX_DEST_RD_ATOMIC,
      a.max_rdma_read_incoming,
      (n) => {
        m.ird = n;
      },
      isUint,
    ),
    set(A.EN_SQD_ASYNC_NOTIFY, x.enable_async_notify_for_sqd ?? 0, (n) => {
      ib.sqdNotify = n !== 0;
    }),
  ];
  const bad = steps.find((s) => s !== RiRet.SUCCESS);
  if (bad !== undefined) return bad;
  if (comps & A.ACCESS_FLAGS) {
    ib.access = {
      read: a.enable_rdma_read ?? qp.enableRdmaRead,
      write: a.enable_rdma_write ?? qp.enableRdmaWrite,
      atomic: x.enable_atomic ?? qp.enableAtomic,
    };
    if (typeof ib.access.read !== 'boolean' || typeof ib.access.write !== 'boolean' || typeof ib.access.atomic !== 'boolean')
      return RiRet.INVALID_PARAMETER;
  }
  if (comps & A.AV) {
    const av = avOfRi(path?.av, path?.physical_port || 1);
    if (!av) return RiRet.INVALID_PARAMETER;
    ib.av = av;
  }
  if (comps & (A.ALT_PATH | A.PATH_MIG_STATE)) ib.altPath = true;
  if (comps & A.CAP) {
    if (m.sqSize === undefined && m.rqSize === undefined) {
      if (!isUint(a.sq_size) && !isUint(a.rq_size)) return RiRet.INVALID_PARAMETER;
      if (isUint(a.sq_size)) m.sqSize = a.sq_size;
      if (isUint(a.rq_size)) m.rqSize = a.rq_size;
    }
  }
  return m;
}

/**
 * The ibverbs + rdma_cm face of softrdma as one object: `verbs` implements every function of
 * {@link VerbsApi} (the functions the "RDMA Aware Networks Programming User Manual" documents),
 * each also exported on its own, plus the constants, types and errno helpers.
 *
 * - Device calls (`ibv_get_device_list` ... `ibv_query_pkey`) wrap `device.ts`.
 * - PD/MR/CQ/QP/SRQ/posting/events are `ibverbs.ts` (one file per resource, `ibv_*.ts`); `rdma_*` are `rdma_cm.ts` (`rdma_cm_*.ts`).
 * - What an iWARP RNIC cannot do (address handles, multicast attach, legacy XRC, the MLNX_OFED
 *   experimental verbs) answers with the errno recorded in `IWARP_UNSUPPORTED` (`errno.ts`), in
 *   the C convention of the call: `ibv_*` int calls return that (positive) errno, pointer calls
 *   return `null`, `rdma_*` calls return -1; `errno` is set in every case.
 *
 * ```ts
 * import { verbs, getErrno } from 'softrdma/dist/src/verbs/index.js';
 * const list = verbs.ibv_get_device_list()!;
 * const ctx = verbs.ibv_open_device(list[0]!)!;
 * verbs.ibv_free_device_list(list);
 * ```
 *
 * @module
 */
import type { VerbsApi } from './api.js';
import {
  ibv_event_type_str,
  ibv_node_type_str,
  ibv_port_state_str,
  ibv_transport_type,
  ibv_wc_status_str,
  rdma_event_str,
} from './constants.js';
import { Context, Device, devices, hwCounters, openDevice, queryDevice, queryGid, queryPkey, queryPort } from './device.js';
import { EINVAL, getErrno, IWARP_UNSUPPORTED, setErrno } from './errno.js';
import {
  Ah,
  createAh,
  destroyAh,
  initAhFromWc,
  mcastAttach,
  Pd as VerbsPd,
  ibv_ack_async_event,
  ibv_ack_cq_events,
  ibv_alloc_pd,
  ibv_close_device,
  ibv_create_comp_channel,
  ibv_create_cq,
  ibv_create_qp,
  ibv_create_srq,
  ibv_dealloc_pd,
  ibv_dereg_mr,
  ibv_destroy_comp_channel,
  ibv_exp_create_qp,
  ibv_exp_post_send,
  ibv_exp_query_device,
  ibv_destroy_cq,
  ibv_destroy_qp,
  ibv_destroy_srq,
  ibv_get_async_event,
  ibv_get_cq_event,
  ibv_modify_qp,
  ibv_modify_srq,
  ibv_poll_cq,
  ibv_post_recv,
  ibv_post_send,
  ibv_post_srq_recv,
  ibv_query_qp,
  ibv_query_srq,
  ibv_reg_mr,
  ibv_req_notify_cq,
  ibv_resize_cq,
} from './ibverbs.js';
import { zeroAh } from './ibv_qp_state.js';
import {
  rdma_accept,
  rdma_ack_cm_event,
  rdma_bind_addr,
  rdma_connect,
  rdma_create_ep,
  rdma_create_event_channel,
  rdma_create_id,
  rdma_create_qp,
  rdma_create_srq,
  rdma_dereg_mr,
  rdma_destroy_ep,
  rdma_destroy_event_channel,
  rdma_destroy_id,
  rdma_destroy_qp,
  rdma_destroy_srq,
  rdma_disconnect,
  rdma_free_devices,
  rdma_freeaddrinfo,
  rdma_get_cm_event,
  rdma_get_devices,
  rdma_get_dst_port,
  rdma_get_local_addr,
  rdma_get_peer_addr,
  rdma_get_recv_comp,
  rdma_get_request,
  rdma_get_send_comp,
  rdma_get_src_port,
  rdma_getaddrinfo,
  rdma_join_multicast,
  rdma_join_multicast_ex,
  rdma_leave_multicast,
  rdma_listen,
  rdma_migrate_id,
  rdma_notify,
  rdma_post_read,
  rdma_post_readv,
  rdma_post_recv,
  rdma_post_recvv,
  rdma_post_send,
  rdma_post_sendv,
  rdma_post_ud_send,
  rdma_post_write,
  rdma_post_writev,
  rdma_reg_msgs,
  rdma_reg_read,
  rdma_reg_write,
  rdma_reject,
  rdma_resolve_addr,
  rdma_resolve_route,
  rdma_set_option,
} from './rdma_cm.js';
import type {
  In,
  ibv_ah,
  ibv_context,
  ibv_gid,
  ibv_device,
  ibv_exp_dct,
  ibv_exp_mkey_list_container,
  ibv_mr,
  ibv_qp,
  ibv_srq,
  ibv_xrc_domain,
} from './types.js';

export type { BufferRef, PostResult, VerbsApi, WrList } from './api.js';
export { VERBS_API_FUNCTIONS } from './api.js';
export * from './constants.js';
export * from './errno.js';
export type * from './types.js';
export { VERBS_HANDLE } from './types.js';

// ------------------------------------------------------------------------------ unsupported

/** The errno `IWARP_UNSUPPORTED` records for `name` (a function name or `function:qualifier`). */
function unsupportedErrno(name: string): number {
  const e = IWARP_UNSUPPORTED[name];
  if (e === undefined) throw new Error(`no IWARP_UNSUPPORTED entry for ${name}`);
  return e;
}

/** `ibv_*` int call the device cannot do: the errno, also stored in `errno`. */
function intUnsupported(name: string): number {
  const e = unsupportedErrno(name);
  setErrno(e);
  return e;
}

/** Pointer call the device cannot do: `null`, `errno` set. */
function nullUnsupported(name: string): null {
  setErrno(unsupportedErrno(name));
  return null;
}

// ------------------------------------------------------------------------------ §4.1-4.3 devices

/** §4.1.1 Nothing to do in Node (no page pinning, no fork of the verbs state): 0. */
export function ibv_fork_init(): number {
  return 0;
}

/** §4.2.1 The devices, as a new array each call (C: NULL-terminated; `num_devices` = its length). */
export function ibv_get_device_list(): ibv_device[] | null {
  try {
    return [...devices()];
  } catch {
    setErrno(19); // ENODEV: the provider could not be loaded
    return null;
  }
}

/**
 * §4.2.2 Frees a device list. The `ibv_device` objects are shared by all lists (there is one per
 * RNIC), so nothing is released; contexts opened from the list stay valid.
 */
export function ibv_free_device_list(list: readonly ibv_device[]): void {
  void list;
}

/** §4.2.3 The device's kernel-style name ("softrdma0"), or null + EINVAL for a non-device. */
export function ibv_get_device_name(device: ibv_device): string | null {
  if (!(device instanceof Device)) {
    setErrno(EINVAL);
    return null;
  }
  return device.name;
}

/** §4.2.4 The node GUID (natural value; serialise big-endian for C's network order). 0n + EINVAL for a non-device. */
export function ibv_get_device_guid(device: ibv_device): bigint {
  if (!(device instanceof Device)) {
    setErrno(EINVAL);
    return 0n;
  }
  return device.guid;
}

/** §4.2.5 Opens the device: a new context (RNIC handle). */
export function ibv_open_device(device: ibv_device): ibv_context | null {
  if (!(device instanceof Device)) {
    setErrno(EINVAL);
    return null;
  }
  return openDevice(device);
}

function ctxOf(context: ibv_context): Context | null {
  return context instanceof Context && !context.closed ? context : null;
}

/** §4.3.1 Fills `device_attr`. */
export function ibv_query_device(context: ibv_context, device_attr: Parameters<VerbsApi['ibv_query_device']>[1]): number {
  const c = ctxOf(context);
  if (!c) {
    setErrno(EINVAL);
    return EINVAL;
  }
  return queryDevice(c, device_attr);
}

/** §4.3.2 Fills `port_attr` (port 1 only). */
export function ibv_query_port(context: ibv_context, port_num: number, port_attr: Parameters<VerbsApi['ibv_query_port']>[2]): number {
  const c = ctxOf(context);
  if (!c) {
    setErrno(EINVAL);
    return EINVAL;
  }
  return queryPort(c, port_num, port_attr);
}

/** §4.3.3 GID `index` of the port (one entry). */
export function ibv_query_gid(
  context: ibv_context,
  port_num: number,
  index: number,
  gid: Parameters<VerbsApi['ibv_query_gid']>[3],
): number {
  const c = ctxOf(context);
  if (!c) {
    setErrno(EINVAL);
    return EINVAL;
  }
  return queryGid(c, port_num, index, gid);
}

/** §4.3.4 P_Key `index` of the port (one entry, 0xffff). */
export function ibv_query_pkey(context: ibv_context, port_num: number, index: number): { ret: number; pkey: number } {
  const c = ctxOf(context);
  if (!c) {
    setErrno(EINVAL);
    return { ret: EINVAL, pkey: 0 };
  }
  return queryPkey(c, port_num, index);
}

// ------------------------------------------------------------------------------ §4.4 legacy XRC (ENOSYS)

export function ibv_open_xrc_domain(_context: ibv_context, _fd: number, _oflag: number): ibv_xrc_domain | null {
  return nullUnsupported('ibv_open_xrc_domain');
}
export function ibv_create_xrc_srq(..._args: Parameters<VerbsApi['ibv_create_xrc_srq']>): ibv_srq | null {
  return nullUnsupported('ibv_create_xrc_srq');
}
export function ibv_close_xrc_domain(_d: ibv_xrc_domain): number {
  return intUnsupported('ibv_close_xrc_domain');
}
export function ibv_create_xrc_rcv_qp(..._args: Parameters<VerbsApi['ibv_create_xrc_rcv_qp']>): { ret: number; xrc_rcv_qpn: number } {
  return { ret: intUnsupported('ibv_create_xrc_rcv_qp'), xrc_rcv_qpn: 0 };
}
export function ibv_modify_xrc_rcv_qp(..._args: Parameters<VerbsApi['ibv_modify_xrc_rcv_qp']>): number {
  return intUnsupported('ibv_modify_xrc_rcv_qp');
}
export function ibv_reg_xrc_rcv_qp(..._args: Parameters<VerbsApi['ibv_reg_xrc_rcv_qp']>): number {
  return intUnsupported('ibv_reg_xrc_rcv_qp');
}
export function ibv_unreg_xrc_rcv_qp(..._args: Parameters<VerbsApi['ibv_unreg_xrc_rcv_qp']>): number {
  return intUnsupported('ibv_unreg_xrc_rcv_qp');
}
export function ibv_query_xrc_rcv_qp(..._args: Parameters<VerbsApi['ibv_query_xrc_rcv_qp']>): number {
  return intUnsupported('ibv_query_xrc_rcv_qp');
}

// ------------------------------------------------------------------------------ address handles, multicast (EOPNOTSUPP)

/** True for a live context/PD of a RoCEv2 device (the InfiniBand transport). */
function onIb(x: { context?: unknown } | Context | null | undefined): boolean {
  const c = x instanceof Context ? x : (x?.context as Context | undefined);
  return c instanceof Context && c.device.transport_type === ibv_transport_type.IBV_TRANSPORT_IB;
}

/** §4.4.15 RoCEv2: an address handle of the RNIC. iWARP: null, EOPNOTSUPP. */
export function ibv_create_ah(...args: Parameters<VerbsApi['ibv_create_ah']>): ibv_ah | null {
  const [pd, attr] = args;
  if (!(pd instanceof VerbsPd) || !onIb(pd)) return nullUnsupported('ibv_create_ah');
  return createAh(pd, attr);
}
/** §4.4.16 RoCEv2: destroys it. iWARP: EOPNOTSUPP (no AH can exist). */
export function ibv_destroy_ah(ah: ibv_ah): number {
  if (!(ah instanceof Ah)) return intUnsupported('ibv_destroy_ah');
  return destroyAh(ah);
}
/** §4.6.11 RoCEv2: the reply AH of a received datagram. iWARP: EOPNOTSUPP. */
export function ibv_init_ah_from_wc(...args: Parameters<VerbsApi['ibv_init_ah_from_wc']>): number {
  const [context, port_num, wc, grh, ah_attr] = args;
  const c = ctxOf(context);
  if (!c || !onIb(c)) return intUnsupported('ibv_init_ah_from_wc');
  return initAhFromWc(c, port_num, wc, grh, ah_attr);
}
/** §4.6.12 `ibv_init_ah_from_wc` + `ibv_create_ah`. iWARP: null, EOPNOTSUPP. */
export function ibv_create_ah_from_wc(...args: Parameters<VerbsApi['ibv_create_ah_from_wc']>): ibv_ah | null {
  const [pd, wc, grh, port_num] = args;
  if (!(pd instanceof VerbsPd) || !onIb(pd)) return nullUnsupported('ibv_create_ah_from_wc');
  const attr = zeroAh();
  if (initAhFromWc(pd.context, port_num, wc, grh, attr) !== 0) return null;
  return createAh(pd, attr);
}
/** §4.6.13 RoCEv2: a UD QP joins a multicast group (IPv4-mapped MGID). iWARP: EOPNOTSUPP. */
export function ibv_attach_mcast(qp: ibv_qp, gid: In<ibv_gid>, lid: number): number {
  if (!onIb(qp as unknown as { context?: unknown })) return intUnsupported('ibv_attach_mcast');
  return mcastAttach(qp, gid, lid, false);
}
/** §4.6.14 RoCEv2: leaves it. iWARP: EOPNOTSUPP. */
export function ibv_detach_mcast(qp: ibv_qp, gid: In<ibv_gid>, lid: number): number {
  if (!onIb(qp as unknown as { context?: unknown })) return intUnsupported('ibv_detach_mcast');
  return mcastAttach(qp, gid, lid, true);
}

// ------------------------------------------------------------------------------ §4.8, ch. 8 experimental verbs

// ibv_exp_query_device, ibv_exp_create_qp and ibv_exp_post_send (the §8.7 extended atomics)
// are implemented in ibverbs.ts; the rest of the experimental verbs are ENOSYS.
export { ibv_exp_create_qp, ibv_exp_post_send, ibv_exp_query_device };
export function ibv_exp_create_dct(..._args: Parameters<VerbsApi['ibv_exp_create_dct']>): ibv_exp_dct | null {
  return nullUnsupported('ibv_exp_create_dct');
}
export function ibv_exp_destroy_dct(_dct: ibv_exp_dct): number {
  return intUnsupported('ibv_exp_destroy_dct');
}
export function ibv_exp_query_dct(..._args: Parameters<VerbsApi['ibv_exp_query_dct']>): number {
  return intUnsupported('ibv_exp_query_dct');
}
export function ibv_exp_arm_dct(..._args: Parameters<VerbsApi['ibv_exp_arm_dct']>): number {
  return intUnsupported('ibv_exp_arm_dct');
}
export function ibv_exp_reg_mr(..._args: Parameters<VerbsApi['ibv_exp_reg_mr']>): ibv_mr | null {
  return nullUnsupported('ibv_exp_reg_mr');
}
export function ibv_exp_create_mr(..._args: Parameters<VerbsApi['ibv_exp_create_mr']>): ibv_mr | null {
  return nullUnsupported('ibv_exp_create_mr');
}
export function ibv_exp_query_mkey(..._args: Parameters<VerbsApi['ibv_exp_query_mkey']>): number {
  return intUnsupported('ibv_exp_query_mkey');
}
export function ibv_exp_alloc_mkey_list_memory(
  ..._args: Parameters<VerbsApi['ibv_exp_alloc_mkey_list_memory']>
): ibv_exp_mkey_list_container | null {
  return nullUnsupported('ibv_exp_alloc_mkey_list_memory');
}
export function ibv_exp_dealloc_mkey_list_memory(_mem: ibv_exp_mkey_list_container): number {
  return intUnsupported('ibv_exp_dealloc_mkey_list_memory');
}

// ------------------------------------------------------------------------------ the object

/** Every function of the manual, wired to softrdma's iWARP device. */
export const verbs: VerbsApi = {
  getErrno,

  ibv_fork_init,
  ibv_get_device_list,
  ibv_free_device_list,
  ibv_get_device_name,
  ibv_get_device_guid,
  ibv_open_device,
  ibv_close_device,
  ibv_node_type_str,
  ibv_port_state_str,
  ibv_query_device,
  ibv_query_port,
  ibv_query_gid,
  ibv_query_pkey,
  ibv_alloc_pd,
  ibv_dealloc_pd,
  ibv_create_cq,
  ibv_resize_cq,
  ibv_destroy_cq,
  ibv_create_comp_channel,
  ibv_destroy_comp_channel,
  ibv_reg_mr,
  ibv_dereg_mr,
  ibv_create_qp,
  ibv_destroy_qp,
  ibv_create_srq,
  ibv_modify_srq,
  ibv_destroy_srq,
  ibv_open_xrc_domain,
  ibv_create_xrc_srq,
  ibv_close_xrc_domain,
  ibv_create_xrc_rcv_qp,
  ibv_modify_xrc_rcv_qp,
  ibv_reg_xrc_rcv_qp,
  ibv_unreg_xrc_rcv_qp,
  ibv_create_ah,
  ibv_destroy_ah,
  ibv_modify_qp,
  ibv_query_qp,
  ibv_query_srq,
  ibv_query_xrc_rcv_qp,
  ibv_post_recv,
  ibv_post_send,
  ibv_post_srq_recv,
  ibv_req_notify_cq,
  ibv_get_cq_event,
  ibv_ack_cq_events,
  ibv_poll_cq,
  ibv_init_ah_from_wc,
  ibv_create_ah_from_wc,
  ibv_attach_mcast,
  ibv_detach_mcast,
  ibv_get_async_event,
  ibv_ack_async_event,
  ibv_event_type_str,
  ibv_wc_status_str,

  ibv_exp_query_device,
  ibv_exp_create_qp,
  ibv_exp_post_send,
  ibv_exp_create_dct,
  ibv_exp_destroy_dct,
  ibv_exp_query_dct,
  ibv_exp_arm_dct,
  ibv_exp_reg_mr,
  ibv_exp_create_mr,
  ibv_exp_query_mkey,
  ibv_exp_alloc_mkey_list_memory,
  ibv_exp_dealloc_mkey_list_memory,

  rdma_create_event_channel,
  rdma_destroy_event_channel,
  rdma_create_id,
  rdma_destroy_id,
  rdma_migrate_id,
  rdma_set_option,
  rdma_create_ep,
  rdma_destroy_ep,
  rdma_resolve_addr,
  rdma_bind_addr,
  rdma_resolve_route,
  rdma_listen,
  rdma_connect,
  rdma_get_request,
  rdma_accept,
  rdma_reject,
  rdma_notify,
  rdma_disconnect,
  rdma_get_src_port,
  rdma_get_dst_port,
  rdma_get_local_addr,
  rdma_get_peer_addr,
  rdma_get_devices,
  rdma_free_devices,
  rdma_getaddrinfo,
  rdma_freeaddrinfo,
  rdma_create_qp,
  rdma_destroy_qp,
  rdma_join_multicast,
  rdma_join_multicast_ex,
  rdma_leave_multicast,
  rdma_get_cm_event,
  rdma_ack_cm_event,
  rdma_event_str,

  rdma_reg_msgs,
  rdma_reg_read,
  rdma_reg_write,
  rdma_dereg_mr,
  rdma_create_srq,
  rdma_destroy_srq,
  rdma_post_recvv,
  rdma_post_sendv,
  rdma_post_readv,
  rdma_post_writev,
  rdma_post_recv,
  rdma_post_send,
  rdma_post_read,
  rdma_post_write,
  rdma_post_ud_send,
  rdma_get_send_comp,
  rdma_get_recv_comp,
};

// The implemented calls, each on its own (the string helpers and getErrno come with the
// constants/errno re-exports above).
export * from './ibverbs.js';
export * from './rdma_cm.js';

/** softrdma extension: a completion channel's events handed synchronously to a consumer (see ibv_cq.ts). */
export { softrdmaOnCqEvent } from './ibv_cq.js';

/** softrdma extensions: a listener's TCP bind (rdmaListenReady) and the device an id uses (rdmaUseDevice; see rdma_cm.ts). */
export { rdmaListenReady, rdmaUseDevice, RDMA_CM_DEVICE_ENV } from './rdma_cm.js';

/**
 * softrdma extension: the RoCEv2 device's counters by rxe's `hw_counters` names
 * (`rdma statistic show link`; meanings in `softrdma stat --help`); null on iWARP or for
 * something that is not an open context.
 */
export function softrdmaHwCounters(context: unknown): Record<string, number> | null {
  return context instanceof Context ? hwCounters(context) : null;
}

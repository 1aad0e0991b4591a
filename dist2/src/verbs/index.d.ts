/**
 * The ibverbs + rdma_cm face of softrdma as one object: `verbs` implements every function of
 * {@link VerbsApi} (the functions the "RDMA Aware Networks Programming User Manual" documents),
 * each also exported on its own, plus the constants, types and errno helpers.
 *
 * - Device calls (`ibv_get_device_list` ... `ibv_query_pkey`) wrap `device.ts`.
 * - PD/MR/CQ/QP/SRQ/posting/events are `ibverbs.ts`; `rdma_*` are `rdma_cm.ts`.
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
import { ibv_exp_create_qp, ibv_exp_post_send, ibv_exp_query_device } from './ibverbs.js';
import type { In, ibv_ah, ibv_context, ibv_gid, ibv_device, ibv_exp_dct, ibv_exp_mkey_list_container, ibv_mr, ibv_qp, ibv_srq, ibv_xrc_domain } from './types.js';
export type { BufferRef, PostResult, VerbsApi, WrList } from './api.js';
export { VERBS_API_FUNCTIONS } from './api.js';
export * from './constants.js';
export * from './errno.js';
export type * from './types.js';
export { VERBS_HANDLE } from './types.js';
/** §4.1.1 Nothing to do in Node (no page pinning, no fork of the verbs state): 0. */
export declare function ibv_fork_init(): number;
/** §4.2.1 The devices, as a new array each call (C: NULL-terminated; `num_devices` = its length). */
export declare function ibv_get_device_list(): ibv_device[] | null;
/**
 * §4.2.2 Frees a device list. The `ibv_device` objects are shared by all lists (there is one per
 * RNIC), so nothing is released; contexts opened from the list stay valid.
 */
export declare function ibv_free_device_list(list: readonly ibv_device[]): void;
/** §4.2.3 The device's kernel-style name ("softrdma0"), or null + EINVAL for a non-device. */
export declare function ibv_get_device_name(device: ibv_device): string | null;
/** §4.2.4 The node GUID (natural value; serialise big-endian for C's network order). 0n + EINVAL for a non-device. */
export declare function ibv_get_device_guid(device: ibv_device): bigint;
/** §4.2.5 Opens the device: a new context (RNIC handle). */
export declare function ibv_open_device(device: ibv_device): ibv_context | null;
/** §4.3.1 Fills `device_attr`. */
export declare function ibv_query_device(context: ibv_context, device_attr: Parameters<VerbsApi['ibv_query_device']>[1]): number;
/** §4.3.2 Fills `port_attr` (port 1 only). */
export declare function ibv_query_port(context: ibv_context, port_num: number, port_attr: Parameters<VerbsApi['ibv_query_port']>[2]): number;
/** §4.3.3 GID `index` of the port (one entry). */
export declare function ibv_query_gid(context: ibv_context, port_num: number, index: number, gid: Parameters<VerbsApi['ibv_query_gid']>[3]): number;
/** §4.3.4 P_Key `index` of the port (one entry, 0xffff). */
export declare function ibv_query_pkey(context: ibv_context, port_num: number, index: number): {
    ret: number;
    pkey: number;
};
export declare function ibv_open_xrc_domain(_context: ibv_context, _fd: number, _oflag: number): ibv_xrc_domain | null;
export declare function ibv_create_xrc_srq(..._args: Parameters<VerbsApi['ibv_create_xrc_srq']>): ibv_srq | null;
export declare function ibv_close_xrc_domain(_d: ibv_xrc_domain): number;
export declare function ibv_create_xrc_rcv_qp(..._args: Parameters<VerbsApi['ibv_create_xrc_rcv_qp']>): {
    ret: number;
    xrc_rcv_qpn: number;
};
export declare function ibv_modify_xrc_rcv_qp(..._args: Parameters<VerbsApi['ibv_modify_xrc_rcv_qp']>): number;
export declare function ibv_reg_xrc_rcv_qp(..._args: Parameters<VerbsApi['ibv_reg_xrc_rcv_qp']>): number;
export declare function ibv_unreg_xrc_rcv_qp(..._args: Parameters<VerbsApi['ibv_unreg_xrc_rcv_qp']>): number;
export declare function ibv_query_xrc_rcv_qp(..._args: Parameters<VerbsApi['ibv_query_xrc_rcv_qp']>): number;
/** §4.4.15 RoCEv2: an address handle of the RNIC. iWARP: null, EOPNOTSUPP. */
export declare function ibv_create_ah(...args: Parameters<VerbsApi['ibv_create_ah']>): ibv_ah | null;
/** §4.4.16 RoCEv2: destroys it. iWARP: EOPNOTSUPP (no AH can exist). */
export declare function ibv_destroy_ah(ah: ibv_ah): number;
/** §4.6.11 RoCEv2: the reply AH of a received datagram. iWARP: EOPNOTSUPP. */
export declare function ibv_init_ah_from_wc(...args: Parameters<VerbsApi['ibv_init_ah_from_wc']>): number;
/** §4.6.12 `ibv_init_ah_from_wc` + `ibv_create_ah`. iWARP: null, EOPNOTSUPP. */
export declare function ibv_create_ah_from_wc(...args: Parameters<VerbsApi['ibv_create_ah_from_wc']>): ibv_ah | null;
/** §4.6.13 RoCEv2: a UD QP joins a multicast group (IPv4-mapped MGID). iWARP: EOPNOTSUPP. */
export declare function ibv_attach_mcast(qp: ibv_qp, gid: In<ibv_gid>, lid: number): number;
/** §4.6.14 RoCEv2: leaves it. iWARP: EOPNOTSUPP. */
export declare function ibv_detach_mcast(qp: ibv_qp, gid: In<ibv_gid>, lid: number): number;
export { ibv_exp_create_qp, ibv_exp_post_send, ibv_exp_query_device };
export declare function ibv_exp_create_dct(..._args: Parameters<VerbsApi['ibv_exp_create_dct']>): ibv_exp_dct | null;
export declare function ibv_exp_destroy_dct(_dct: ibv_exp_dct): number;
export declare function ibv_exp_query_dct(..._args: Parameters<VerbsApi['ibv_exp_query_dct']>): number;
export declare function ibv_exp_arm_dct(..._args: Parameters<VerbsApi['ibv_exp_arm_dct']>): number;
export declare function ibv_exp_reg_mr(..._args: Parameters<VerbsApi['ibv_exp_reg_mr']>): ibv_mr | null;
export declare function ibv_exp_create_mr(..._args: Parameters<VerbsApi['ibv_exp_create_mr']>): ibv_mr | null;
export declare function ibv_exp_query_mkey(..._args: Parameters<VerbsApi['ibv_exp_query_mkey']>): number;
export declare function ibv_exp_alloc_mkey_list_memory(..._args: Parameters<VerbsApi['ibv_exp_alloc_mkey_list_memory']>): ibv_exp_mkey_list_container | null;
export declare function ibv_exp_dealloc_mkey_list_memory(_mem: ibv_exp_mkey_list_container): number;
/** Every function of the manual, wired to softrdma's iWARP device. */
export declare const verbs: VerbsApi;
export * from './ibverbs.js';
export * from './rdma_cm.js';
/** softrdma extensions: a listener's TCP bind (rdmaListenReady) and the device an id uses (rdmaUseDevice; see rdma_cm.ts). */
export { rdmaListenReady, rdmaUseDevice, RDMA_CM_DEVICE_ENV } from './rdma_cm.js';

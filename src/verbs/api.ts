/**
 * The ibverbs + rdma_cm API of softrdma as a TypeScript interface: every `ibv_*` and `rdma_*`
 * function the "RDMA Aware Networks Programming User Manual" documents (chapters 4, 5, 6, plus
 * the experimental verbs of chapter 8 and `ibv_wc_status_str` used by §8.5.3), with the signature
 * the implementation follows. Declarations only; the implementation lives elsewhere.
 *
 * ## Conventions
 *
 * **Return values** (C semantics kept; see also `errno.ts`):
 * - `ibv_*` functions returning `int` return `0` on success or a **positive errno** on failure,
 *   and also store it in `errno` (`getErrno()`). This is rdma-core's documented contract ("returns
 *   0 on success, or the value of errno on failure"); the manual's "-1 and errno" wording is met by
 *   any caller that tests the result for non-zero, which every example in the manual does.
 *   The experimental `ibv_exp_*` calls follow the same rule (the manual says so explicitly).
 * - `rdma_*` functions returning `int` return `0` or `-1` with `errno` set (librdmacm and the
 *   manual). Exceptions: `rdma_get_send_comp`/`rdma_get_recv_comp` (count or -1),
 *   `rdma_get_src_port`/`rdma_get_dst_port` (a port).
 * - Functions returning a pointer in C return the object or `null` with `errno` set.
 * - `ibv_poll_cq` returns the number of completions (0..num_entries) or a negative errno.
 * - C out-parameters that are pointers to pointers or scalars (`struct rdma_cm_id **id`,
 *   `uint16_t *pkey`, `struct ibv_recv_wr **bad_wr`, `void **cq_context`) become fields of a
 *   result object next to `ret`; out-structs the caller allocates in C (`struct ibv_port_attr *`,
 *   `struct ibv_wc *`) stay parameters that the call fills in place.
 * - Calls on a destroyed handle (or one whose context was closed) fail with EINVAL.
 *
 * **Blocking calls become Promises.** Everything else is synchronous and completes before it
 * returns. Always blocking in C, hence always `Promise`: `ibv_get_cq_event`,
 * `ibv_get_async_event`, `rdma_get_cm_event`, `rdma_get_send_comp`, `rdma_get_recv_comp`,
 * `rdma_get_request` (synchronous listening ids only) and `rdma_getaddrinfo` (name resolution).
 * Blocking in C only on a *synchronous* rdma_cm id (created with a null channel or by
 * `rdma_create_ep`, or migrated to null), also `Promise`: `rdma_resolve_addr`,
 * `rdma_resolve_route`, `rdma_connect`, `rdma_accept`, `rdma_disconnect`, `rdma_join_multicast`,
 * `rdma_create_ep`. On an asynchronous id these do all their work before returning and their
 * Promise is already settled; the outcome arrives as a CM event as in C.
 * Several pending waits on one channel are served in call order, one event each (the manual:
 * exactly one waiter receives each event). A wait pending when its channel/context is destroyed
 * settles with EBADF. Non-blocking mode (`nonblocking` / `async_nonblocking` on the channel or
 * context, C's `O_NONBLOCK` on the fd) settles an empty wait at once with EAGAIN.
 *
 * **Calls that wait for acknowledgements in C** (`ibv_destroy_cq`, `ibv_destroy_qp`,
 * `ibv_destroy_srq` wait for unacked events; `rdma_destroy_id`, `rdma_destroy_ep`,
 * `rdma_migrate_id`, `rdma_leave_multicast` wait for unacked CM events) would deadlock a
 * single-threaded runtime, so they stay synchronous and fail with **EBUSY**, changing nothing,
 * while such events are outstanding; call again after acking.
 *
 * **Lists.** The post calls accept either one WR whose `next` chain is followed, or an array of
 * WRs (the array order is the list; each element's `next` is ignored). Processing stops at the
 * first WR that fails, which is returned as `bad_wr` (the object passed in); the WRs before it
 * stay posted. Device lists are arrays (`num_devices` = length, no NULL terminator).
 *
 * **Memory.** `ibv_reg_mr` registers a `Uint8Array`; the MR's `addr` is the synthetic 64-bit
 * address of its first byte and SGEs/remote addresses are such addresses. The rdma_verbs helpers
 * (§6.2) also take the buffer as a `Uint8Array` view of the registered memory (same
 * `ArrayBuffer`); an inline send (`IBV_SEND_INLINE`) may use any view, registered or not.
 *
 * **iWARP.** softrdma's device is an iWARP RNIC (`IBV_NODE_RNIC`, `IBV_TRANSPORT_IWARP`): RC QPs
 * only, connected through rdma_cm; no UD/UC, address handles, multicast, atomics, immediate data,
 * APM, XRC, DC or experimental verbs. Those calls fail with the errno of `IWARP_UNSUPPORTED`
 * (`errno.ts`), which records what Linux siw answers where that is known. The function notes
 * below say "iWARP:" where the behaviour is specific.
 *
 * Section numbers (§) are the manual's.
 *
 * @module
 */

import type { ibv_event_type, rdma_port_space } from './constants.js';
import type {
  ibv_ah,
  ibv_ah_attr,
  ibv_async_event,
  ibv_comp_channel,
  ibv_context,
  ibv_cq,
  ibv_device,
  ibv_device_attr,
  ibv_exp_arm_attr,
  ibv_exp_create_mr_in,
  ibv_exp_dct,
  ibv_exp_dct_attr,
  ibv_exp_dct_init_attr,
  ibv_exp_device_attr,
  ibv_exp_mkey_attr,
  ibv_exp_mkey_list_container,
  ibv_exp_mkey_list_container_attr,
  ibv_exp_qp_init_attr,
  ibv_exp_reg_mr_in,
  ibv_exp_send_wr,
  ibv_gid,
  ibv_grh,
  ibv_mr,
  ibv_pd,
  ibv_port_attr,
  ibv_qp,
  ibv_qp_attr,
  ibv_qp_init_attr,
  ibv_recv_wr,
  ibv_send_wr,
  ibv_sge,
  ibv_srq,
  ibv_srq_attr,
  ibv_srq_init_attr,
  ibv_wc,
  ibv_xrc_domain,
  In,
  rdma_addrinfo,
  rdma_cm_event,
  rdma_cm_id,
  rdma_cm_join_mc_attr_ex,
  rdma_conn_param,
  rdma_event_channel,
  sockaddr,
} from './types.js';

/** A work-request list: one WR followed through `next`, or an array (each `next` ignored). */
export type WrList<W> = In<W> | readonly In<W>[];

/** Result of the post calls: `ret` 0 or a positive errno; `bad_wr` the first WR not posted (null on success). */
export interface PostResult<W> {
  ret: number;
  bad_wr: In<W> | null;
}

/** `addr` argument of the §6.2 helpers: a view of registered memory, or a registered address. */
export type BufferRef = Uint8Array | bigint;

/** The ibverbs + rdma_cm entry points. */
export interface VerbsApi {
  // -------------------------------------------------------------------------------------------
  // errno
  // -------------------------------------------------------------------------------------------

  /** C's `errno`: the reason of the last failure (not cleared by successful calls). */
  getErrno(): number;

  // -------------------------------------------------------------------------------------------
  // Chapter 4 — VPI Verbs API
  // -------------------------------------------------------------------------------------------

  /**
   * §4.1.1 Make the library fork-safe. A no-op in Node (no page pinning); returns 0.
   * `RDMAV_FORK_SAFE` / `IBV_FORK_SAFE` / `RDMAV_HUGEPAGES_SAFE` are accepted and have no effect.
   */
  ibv_fork_init(): number;

  /**
   * §4.2.1 The RDMA devices (softrdma's iWARP RNICs): an array (C: NULL-terminated, count in
   * `*num_devices` = the array length); `[]` when there are none; null + errno on failure.
   */
  ibv_get_device_list(): ibv_device[] | null;

  /** §4.2.2 Frees the list: its `ibv_device` entries become invalid; opened contexts stay valid. */
  ibv_free_device_list(list: readonly ibv_device[]): void;

  /** §4.2.3 The device's name (e.g. "softrdma0"), or null + errno. */
  ibv_get_device_name(device: ibv_device): string | null;

  /** §4.2.4 The device GUID; C returns it in network byte order, here its natural value. iWARP: EUI-64 of the MAC. */
  ibv_get_device_guid(device: ibv_device): bigint;

  /** §4.2.5 Opens a device; the context is the handle for all further verbs. null + errno on failure. */
  ibv_open_device(device: ibv_device): ibv_context | null;

  /**
   * §4.2.6 Closes the context. Does not free the objects created on it (the manual: free them
   * first); calls on them fail with EINVAL afterwards. 0 or errno.
   */
  ibv_close_device(context: ibv_context): number;

  /** §4.2.7 "InfiniBand channel adapter", ..., "iWARP NIC", or "unknown" (rdma-core strings). */
  ibv_node_type_str(node_type: number): string;

  /** §4.2.8 "down", "init", "armed", "active", ..., or "unknown" (rdma-core strings). */
  ibv_port_state_str(port_state: number): string;

  /**
   * §4.3.1 Fills `device_attr`. 0 or errno. iWARP: `atomic_cap = IBV_ATOMIC_NONE`, no
   * multicast/AH/XRC limits (0), no `IBV_DEVICE_AUTO_PATH_MIG`; `IBV_DEVICE_SRQ_RESIZE` and
   * `IBV_DEVICE_MEM_MGT_EXTENSIONS` set.
   */
  ibv_query_device(context: ibv_context, device_attr: ibv_device_attr): number;

  /**
   * §4.3.2 Fills `port_attr`; ports are numbered from 1 (0 or > `phys_port_cnt` → EINVAL).
   * iWARP: `lid = sm_lid = lmc = 0`, `link_layer = IBV_LINK_LAYER_ETHERNET`,
   * `port_cap_flags = IBV_PORT_CM_SUP | IBV_PORT_DEVICE_MGMT_SUP` (as siw).
   */
  ibv_query_port(context: ibv_context, port_num: number, port_attr: ibv_port_attr): number;

  /**
   * §4.3.3 Writes GID `index` of the port into `gid.raw`. iWARP (as siw): one entry, the MAC in
   * bytes 0-5 and zeros after; `index >= gid_tbl_len` → EINVAL.
   */
  ibv_query_gid(context: ibv_context, port_num: number, index: number, gid: ibv_gid): number;

  /** §4.3.4 P_Key `index` of the port (C: `uint16_t *pkey`). iWARP: one entry, 0xffff. */
  ibv_query_pkey(context: ibv_context, port_num: number, index: number): { ret: number; pkey: number };

  /** §4.3.5 Allocates a protection domain, or null + errno. */
  ibv_alloc_pd(context: ibv_context): ibv_pd | null;

  /** §4.3.6 0, or EBUSY while a QP, MR, MW, AH or SRQ still uses the PD. */
  ibv_dealloc_pd(pd: ibv_pd): number;

  /**
   * §4.3.7 Creates a CQ of at least `cqe` entries (`cq.cqe` = actual size). `cq_context` is
   * returned by `ibv_get_cq_event`; `channel` is optional (needed only for events).
   * EINVAL when `cqe` < 1 or > `max_cqe`, or `comp_vector` outside `[0, num_comp_vectors)`.
   */
  ibv_create_cq(
    context: ibv_context,
    cqe: number,
    cq_context: unknown,
    channel: ibv_comp_channel | null,
    comp_vector: number,
  ): ibv_cq | null;

  /**
   * §4.3.8 Resizes the CQ (to at least `cqe`), keeping queued completions in order; EINVAL if
   * `cqe` is below the number queued. softrdma supports it (siw answers EOPNOTSUPP).
   */
  ibv_resize_cq(cq: ibv_cq, cqe: number): number;

  /** §4.3.9 0; EBUSY while a QP uses the CQ or while events of it are unacked (C blocks there). */
  ibv_destroy_cq(cq: ibv_cq): number;

  /** §4.3.10 Creates a completion event channel, or null + errno. */
  ibv_create_comp_channel(context: ibv_context): ibv_comp_channel | null;

  /** §4.3.11 0; EBUSY while a CQ is attached to the channel. */
  ibv_destroy_comp_channel(channel: ibv_comp_channel): number;

  /**
   * §4.4.1 Registers the first `length` bytes of `addr` (C: `void *addr`) with `access`
   * (`ibv_access_flags` bits; local read is implied). EINVAL if REMOTE_WRITE or REMOTE_ATOMIC is
   * given without LOCAL_WRITE, or `length` > `addr.byteLength`. REMOTE_ATOMIC is accepted (like
   * Linux for iWARP) though no atomic can arrive; `IBV_ACCESS_ON_DEMAND` → EOPNOTSUPP; optional
   * flags (`IBV_ACCESS_RELAXED_ORDERING`) are ignored. Each registration gets new keys.
   */
  ibv_reg_mr(pd: ibv_pd, addr: Uint8Array, length: number, access: number): ibv_mr | null;

  /** §4.4.2 0; EBUSY while a memory window is bound to the MR. */
  ibv_dereg_mr(mr: ibv_mr): number;

  /**
   * §4.4.3 Creates a QP in `IBV_QPS_RESET`; `qp_init_attr.cap` is written back with the granted
   * values. iWARP: `IBV_QPT_RC` only — UC, UD, RAW_PACKET, XRC types → null, errno EOPNOTSUPP
   * (siw). A QP created here reaches a peer only through rdma_cm (see `ibv_modify_qp`). RoCEv2
   * (`softroce0`): `IBV_QPT_RC`, `IBV_QPT_UC` and `IBV_QPT_UD`, connected by `ibv_modify_qp`.
   */
  ibv_create_qp(pd: ibv_pd, qp_init_attr: In<ibv_qp_init_attr>): ibv_qp | null;

  /** §4.4.4 0; EBUSY while affiliated async events of the QP are unacked (C blocks there). */
  ibv_destroy_qp(qp: ibv_qp): number;

  /** §4.4.5 Creates an SRQ; `srq_init_attr.attr.max_wr`/`max_sge` are written back (≥ requested). */
  ibv_create_srq(pd: ibv_pd, srq_init_attr: In<ibv_srq_init_attr>): ibv_srq | null;

  /**
   * §4.4.6 `srq_attr_mask`: `IBV_SRQ_MAX_WR` (resize; the device sets `IBV_DEVICE_SRQ_RESIZE`)
   * and/or `IBV_SRQ_LIMIT` (arms the one-shot `IBV_EVENT_SRQ_LIMIT_REACHED`). All or nothing.
   */
  ibv_modify_srq(srq: ibv_srq, srq_attr: In<ibv_srq_attr>, srq_attr_mask: number): number;

  /** §4.4.7 0; EBUSY while a QP uses the SRQ or affiliated events are unacked. */
  ibv_destroy_srq(srq: ibv_srq): number;

  /** §4.4.8 Legacy MLNX_OFED XRC domain. iWARP/softrdma: null, errno ENOSYS. */
  ibv_open_xrc_domain(context: ibv_context, fd: number, oflag: number): ibv_xrc_domain | null;

  /** §4.4.9 Legacy XRC SRQ. iWARP/softrdma: null, errno ENOSYS. */
  ibv_create_xrc_srq(pd: ibv_pd, xrc_domain: ibv_xrc_domain, xrc_cq: ibv_cq, srq_init_attr: In<ibv_srq_init_attr>): ibv_srq | null;

  /** §4.4.10 Legacy XRC. iWARP/softrdma: ENOSYS. */
  ibv_close_xrc_domain(d: ibv_xrc_domain): number;

  /** §4.4.11 Legacy XRC receive QP (C: `uint32_t *xrc_rcv_qpn`). iWARP/softrdma: ENOSYS. */
  ibv_create_xrc_rcv_qp(init_attr: In<ibv_qp_init_attr>): { ret: number; xrc_rcv_qpn: number };

  /** §4.4.12 Legacy XRC. iWARP/softrdma: ENOSYS. */
  ibv_modify_xrc_rcv_qp(xrc_domain: ibv_xrc_domain, xrc_qp_num: number, attr: In<ibv_qp_attr>, attr_mask: number): number;

  /** §4.4.13 Legacy XRC. iWARP/softrdma: ENOSYS. */
  ibv_reg_xrc_rcv_qp(xrc_domain: ibv_xrc_domain, xrc_qp_num: number): number;

  /** §4.4.14 Legacy XRC. iWARP/softrdma: ENOSYS. */
  ibv_unreg_xrc_rcv_qp(xrc_domain: ibv_xrc_domain, xrc_qp_num: number): number;

  /**
   * §4.4.15 Address handle for UD. RoCEv2: `is_global` must be 1 and `grh.sgid_index` an entry
   * of the GID table (else EINVAL); the PD is in use while the AH lives. iWARP: null, errno
   * EOPNOTSUPP (rdma-core's answer for siw).
   */
  ibv_create_ah(pd: ibv_pd, attr: In<ibv_ah_attr>): ibv_ah | null;

  /** §4.4.16 RoCEv2: 0, then the AH is refused in UD WRs (EINVAL). iWARP: EOPNOTSUPP (no AH can exist). */
  ibv_destroy_ah(ah: ibv_ah): number;

  /**
   * §4.5.1 Moves the QP through RESET → INIT → RTR → RTS (and to SQD/SQE/ERR/RESET) with the
   * attributes selected by `attr_mask` (`ibv_qp_attr_mask` bits); the per-transition masks are
   * those of the manual's table for RC (UC/UD per the kernel). All or nothing: a missing required
   * or disallowed bit → EINVAL, nothing changed. `IBV_QP_ALT_PATH` / `IBV_QP_PATH_MIG_STATE` →
   * EOPNOTSUPP (no APM). iWARP: RTS on a QP that rdma_cm did not connect → EINVAL (siw: no
   * socket); QPs created through rdma_cm are moved by rdma_cm. RoCEv2: the RNIC's IB state
   * machine with every IB attribute (RC, UC, UD; out-of-range values and an AV without GRH are
   * EINVAL); INIT→RTR attaches the RoCEv2 transport (EOPNOTSUPP while none is loaded).
   */
  ibv_modify_qp(qp: ibv_qp, attr: In<ibv_qp_attr>, attr_mask: number): number;

  /** §4.6.1 Fills `attr` (at least the `attr_mask` fields) and `init_attr` with the current values. */
  ibv_query_qp(qp: ibv_qp, attr: ibv_qp_attr, attr_mask: number, init_attr: ibv_qp_init_attr): number;

  /** §4.6.2 Fills `srq_attr`; `srq_limit` 0 = limit event not armed. softrdma supports it (siw: EOPNOTSUPP). */
  ibv_query_srq(srq: ibv_srq, srq_attr: ibv_srq_attr): number;

  /** §4.6.3 Legacy XRC. iWARP/softrdma: ENOSYS. */
  ibv_query_xrc_rcv_qp(
    xrc_domain: ibv_xrc_domain,
    xrc_qp_num: number,
    attr: ibv_qp_attr,
    attr_mask: number,
    init_attr: ibv_qp_init_attr,
  ): number;

  /**
   * §4.6.4 Posts receive WRs (consumed by incoming Sends; on iWARP never by RDMA Writes).
   * Allowed from INIT on (RESET → EINVAL); in ERR they are flushed. Stops at the first bad WR.
   */
  ibv_post_recv(qp: ibv_qp, wr: WrList<ibv_recv_wr>): PostResult<ibv_recv_wr>;

  /**
   * §4.6.5 Posts send WRs (RTS and later; earlier → EINVAL). `IBV_SEND_INLINE` copies the data at
   * post time (lkey not checked, ≤ `cap.max_inline_data`). Stops at the first bad WR.
   * iWARP: `IBV_WR_SEND`, `IBV_WR_SEND_WITH_INV`, `IBV_WR_RDMA_WRITE`, `IBV_WR_RDMA_READ`,
   * `IBV_WR_LOCAL_INV`, `IBV_WR_BIND_MW`; the `*_WITH_IMM` and atomic opcodes → EINVAL with
   * `bad_wr` (siw), as do TSO/DRIVER1/FLUSH/ATOMIC_WRITE.
   */
  ibv_post_send(qp: ibv_qp, wr: WrList<ibv_send_wr>): PostResult<ibv_send_wr>;

  /** §4.6.6 Posts receive WRs to an SRQ; same list semantics as `ibv_post_recv`. */
  ibv_post_srq_recv(srq: ibv_srq, recv_wr: WrList<ibv_recv_wr>): PostResult<ibv_recv_wr>;

  /**
   * §4.6.7 Arms one notification: the next completion added to the CQ (only solicited ones, and
   * error completions, when `solicited_only` is non-zero) raises an event on its channel.
   * Completions already queued do not; re-arm after each event.
   */
  ibv_req_notify_cq(cq: ibv_cq, solicited_only: number): number;

  /**
   * §4.6.8 Waits for the next completion event on the channel (C blocks). Resolves with `ret` 0,
   * the CQ and its `cq_context` (C: `struct ibv_cq **cq`, `void **cq_context`), or `ret` = errno
   * (EAGAIN in non-blocking mode, EBADF if the channel is destroyed) with `cq` null. Each event
   * must be acked with `ibv_ack_cq_events`.
   */
  ibv_get_cq_event(channel: ibv_comp_channel): Promise<{ ret: number; cq: ibv_cq | null; cq_context: unknown }>;

  /** §4.6.9 Acknowledges `nevents` events obtained from `ibv_get_cq_event` for this CQ. */
  ibv_ack_cq_events(cq: ibv_cq, nevents: number): void;

  /**
   * §4.6.10 Removes up to `num_entries` completions, oldest first, into `wc[0..n-1]` (an existing
   * object at `wc[i]` is overwritten field by field, so arrays can be reused; otherwise a new
   * `ibv_wc` is stored there). Returns n, or a negative errno.
   */
  ibv_poll_cq(cq: ibv_cq, num_entries: number, wc: ibv_wc[]): number;

  /**
   * §4.6.11 Builds `ah_attr` to reply to a received UD datagram (`grh`: the first 40 bytes of the
   * receive buffer, or a decoded `ibv_grh`; RoCEv2 over IPv4 puts the IPv4 header in its last 20
   * octets, which is read as rdma-core does). RoCEv2: `IBV_WC_GRH` is required; the reply goes from
   * the GID the datagram was sent to. iWARP: EOPNOTSUPP (there are no UD completions).
   */
  ibv_init_ah_from_wc(
    context: ibv_context,
    port_num: number,
    wc: ibv_wc,
    grh: Uint8Array | In<ibv_grh> | null,
    ah_attr: ibv_ah_attr,
  ): number;

  /** §4.6.12 `ibv_init_ah_from_wc` + `ibv_create_ah` (RoCEv2). iWARP: null, errno EOPNOTSUPP. */
  ibv_create_ah_from_wc(pd: ibv_pd, wc: ibv_wc, grh: Uint8Array | In<ibv_grh> | null, port_num: number): ibv_ah | null;

  /** §4.6.13 Attaches a UD QP to a multicast group (`lid` in host order). iWARP: EOPNOTSUPP (rdma-core/siw). */
  ibv_attach_mcast(qp: ibv_qp, gid: In<ibv_gid>, lid: number): number;

  /** §4.6.14 iWARP: EOPNOTSUPP (rdma-core/siw). */
  ibv_detach_mcast(qp: ibv_qp, gid: In<ibv_gid>, lid: number): number;

  /**
   * §4.7.1 Waits for the next async event of the context (C blocks) and fills `event`. Resolves
   * with 0, or errno (EAGAIN when `context.async_nonblocking` and none is queued). Each event must
   * be acked with `ibv_ack_async_event`. iWARP never raises the IB subnet events (LID/P_Key/SM
   * change, client reregister), `PATH_MIG*` or `SQ_DRAINED`.
   */
  ibv_get_async_event(context: ibv_context, event: ibv_async_event): Promise<number>;

  /** §4.7.2 Acknowledges an event returned by `ibv_get_async_event`. */
  ibv_ack_async_event(event: ibv_async_event): void;

  /** §4.7.3 "CQ error", "local work queue catastrophic error", ..., or "unknown" (rdma-core strings). */
  ibv_event_type_str(event_type: number): string;

  /** (§8.5.3, rdma-core) "success", "local length error", ..., "Work Request Flushed Error", or "unknown". */
  ibv_wc_status_str(status: number): string;

  // --- §4.8 and chapter 8: Mellanox OFED experimental verbs (softrdma: the §8.7 extended atomics; the rest ENOSYS) ---

  /**
   * §4.8.1, §8.7.2.1 Experimental device query: the device attributes plus the extended atomics
   * (`IBV_EXP_DEVICE_EXT_ATOMICS`, `ext_atom`: sizes 8/16/32, `max_fa_bit_boundary` 3). 0 or errno.
   */
  ibv_exp_query_device(context: ibv_context, attr: ibv_exp_device_attr): number;

  /**
   * §4.8.2, §8.7.2.3 Experimental QP creation: an RC QP (`IBV_EXP_QP_INIT_ATTR_PD`, optionally
   * `_ATOMICS_ARG` ≤ 32). DC, UMR, cross-channel, QP groups: null, errno ENOSYS.
   */
  ibv_exp_create_qp(context: ibv_context, qp_init_attr: In<ibv_exp_qp_init_attr>): ibv_qp | null;

  /**
   * §4.8.3, §8.7.2.4 Experimental post send: the base opcodes and the masked atomics
   * (`IBV_EXP_WR_EXT_MASKED_ATOMIC_*`, 8/16/32 octets, between softrdma peers). 0 or errno + `bad_wr`.
   */
  ibv_exp_post_send(qp: ibv_qp, wr: WrList<ibv_exp_send_wr>): PostResult<ibv_exp_send_wr>;

  /** §8.6.1.3 Creates a DC target. null, errno ENOSYS. */
  ibv_exp_create_dct(context: ibv_context, attr: In<ibv_exp_dct_init_attr>): ibv_exp_dct | null;

  /** §8.6.1.4 ENOSYS. */
  ibv_exp_destroy_dct(dct: ibv_exp_dct): number;

  /** §8.6.1.5 ENOSYS. */
  ibv_exp_query_dct(dct: ibv_exp_dct, attr: ibv_exp_dct_attr): number;

  /** §8.6.1.6 Arms a DCT for `IBV_EXP_EVENT_DCT_KEY_VIOLATION`. ENOSYS. */
  ibv_exp_arm_dct(dct: ibv_exp_dct, attr: In<ibv_exp_arm_attr>): number;

  /** §8.8.1.1 (named only) Experimental registration. null, errno ENOSYS. */
  ibv_exp_reg_mr(reg_mr_in: In<ibv_exp_reg_mr_in>): ibv_mr | null;

  /** §8.8.1.3 Uninitialised UMR memory key. null, errno ENOSYS. */
  ibv_exp_create_mr(create_mr_in: In<ibv_exp_create_mr_in>): ibv_mr | null;

  /** §8.8.1.3 ENOSYS. */
  ibv_exp_query_mkey(mr: ibv_mr, query_mkey_in: ibv_exp_mkey_attr): number;

  /** §8.8.1.4 (call text lost in the manual) Non-inline UMR key list. null, errno ENOSYS. */
  ibv_exp_alloc_mkey_list_memory(attr: In<ibv_exp_mkey_list_container_attr>): ibv_exp_mkey_list_container | null;

  /** §8.8.1.4 ENOSYS. */
  ibv_exp_dealloc_mkey_list_memory(mem: ibv_exp_mkey_list_container): number;

  // -------------------------------------------------------------------------------------------
  // Chapter 5 — RDMA_CM API
  // -------------------------------------------------------------------------------------------

  /** §5.1.1 Opens an event channel, or null + errno. */
  rdma_create_event_channel(): rdma_event_channel | null;

  /**
   * §5.1.2 Closes the channel. Precondition: all its ids destroyed and all events acked;
   * otherwise nothing happens and errno = EBUSY (C: undefined / blocks).
   */
  rdma_destroy_event_channel(channel: rdma_event_channel): void;

  /**
   * §5.2.1 Creates an id (C: `struct rdma_cm_id **id`). `channel` null → synchronous id.
   * `RDMA_PS_TCP` → RC. iWARP: `RDMA_PS_UDP`/`RDMA_PS_IPOIB` ids can be created (as on Linux)
   * but no UD QP can be, so they are useless; `RDMA_PS_IB` ids cannot bind (no `AF_IB`).
   */
  rdma_create_id(channel: rdma_event_channel | null, context: unknown, ps: rdma_port_space): { ret: number; id: rdma_cm_id | null };

  /**
   * §5.2.2 Destroys the id, cancelling its pending operations. -1/EBUSY while its QP exists or
   * events of it are unacked (C blocks on the latter).
   */
  rdma_destroy_id(id: rdma_cm_id): number;

  /**
   * §5.2.3 Moves the id and its pending (not yet retrieved) events to `channel`; null makes the id
   * synchronous. -1/EBUSY while events of the id are unacked on the old channel (C blocks);
   * -1/EINVAL for a synchronous id and a null channel.
   */
  rdma_migrate_id(id: rdma_cm_id, channel: rdma_event_channel | null): number;

  /**
   * §5.2.4 Sets an option (`RDMA_OPTION_ID` + `RDMA_OPTION_ID_TOS` / `_REUSEADDR` / `_AFONLY` /
   * `_ACK_TIMEOUT`, or `RDMA_OPTION_IB` + `RDMA_OPTION_IB_PATH`). `optval` is the option's integer
   * value or its raw bytes (C: `void *optval, size_t optlen`; `optlen` defaults to the size).
   * iWARP: `RDMA_OPTION_IB_PATH` → -1/EINVAL.
   */
  rdma_set_option(id: rdma_cm_id, level: number, optname: number, optval: number | Uint8Array, optlen?: number): number;

  /**
   * §5.2.5 Creates a synchronous id from `rdma_getaddrinfo` results, and a QP if `qp_init_attr`
   * is given (on `pd`, or on the device's default PD). For an active-side `res` the address and
   * route are resolved before it returns (hence a Promise). `{ ret: 0 | -1, id }`.
   * iWARP: a UD `ai_qp_type` → -1/EOPNOTSUPP.
   */
  rdma_create_ep(
    res: rdma_addrinfo,
    pd: ibv_pd | null,
    qp_init_attr: In<ibv_qp_init_attr> | null,
  ): Promise<{ ret: number; id: rdma_cm_id | null }>;

  /** §5.2.6 Destroys the id and everything rdma_cm created for it (QP, CQs, SRQ). 0 or -1 (EBUSY as `rdma_destroy_id`). */
  rdma_destroy_ep(id: rdma_cm_id): number;

  /**
   * §5.2.7 Resolves `dst_addr` (and binds to `src_addr` or a routed local address) to a local RDMA
   * device: `RDMA_CM_EVENT_ADDR_RESOLVED` or `RDMA_CM_EVENT_ADDR_ERROR`. Synchronous id: settles
   * after the event (-1 with its errno on error).
   */
  rdma_resolve_addr(id: rdma_cm_id, src_addr: sockaddr | null, dst_addr: sockaddr, timeout_ms: number): Promise<number>;

  /**
   * §5.2.8 Binds to a local address (wildcards allowed; port 0 picks a free port). Synchronous,
   * no event. -1/EADDRINUSE, -1/EADDRNOTAVAIL (no RDMA device has the address).
   */
  rdma_bind_addr(id: rdma_cm_id, addr: sockaddr): number;

  /**
   * §5.2.9 Resolves the route after `rdma_resolve_addr` (before it → -1/EINVAL):
   * `RDMA_CM_EVENT_ROUTE_RESOLVED` / `_ROUTE_ERROR`. iWARP: no path record, resolves at once.
   */
  rdma_resolve_route(id: rdma_cm_id, timeout_ms: number): Promise<number>;

  /** §5.2.10 Listens on the bound address (unbound → -1/EINVAL); wildcard address = all devices. */
  rdma_listen(id: rdma_cm_id, backlog: number): number;

  /**
   * §5.2.11 Connects (route must be resolved). Active side events: ESTABLISHED, REJECTED,
   * UNREACHABLE, CONNECT_ERROR (CONNECT_RESPONSE only for ids without a QP on IB; iWARP always
   * reports ESTABLISHED). Synchronous id: settles when established (-1/ECONNREFUSED if rejected).
   * iWARP: `responder_resources`/`initiator_depth` travel as MPA IRD/ORD; the active side must
   * send first (the manual); an `RDMA_PS_UDP` id → -1/EOPNOTSUPP (no SIDR).
   */
  rdma_connect(id: rdma_cm_id, conn_param: In<rdma_conn_param> | null): Promise<number>;

  /**
   * §5.2.12 Synchronous listening ids only (else -1/EINVAL): waits for the next connection request
   * and returns its new id (C: `struct rdma_cm_id **id`), which holds the request in `id.event`
   * and already has a QP if the listener was created with QP attributes.
   */
  rdma_get_request(listen: rdma_cm_id): Promise<{ ret: number; id: rdma_cm_id | null }>;

  /**
   * §5.2.13 Accepts a request on the new id of CONNECT_REQUEST (never the listener). Passive
   * side then gets ESTABLISHED; a synchronous id settles when established.
   */
  rdma_accept(id: rdma_cm_id, conn_param: In<rdma_conn_param> | null): Promise<number>;

  /**
   * §5.2.14 Rejects a connection request; the peer gets REJECTED with the private data
   * (`private_data_len` defaults to `private_data.length`; iWARP carries it in the MPA reply).
   */
  rdma_reject(id: rdma_cm_id, private_data: Uint8Array | null, private_data_len?: number): number;

  /** §5.2.15 Reports a QP async event (`IBV_EVENT_COMM_EST`) to rdma_cm. iWARP: accepted, no effect (as Linux). */
  rdma_notify(id: rdma_cm_id, event: ibv_event_type): number;

  /**
   * §5.2.16 Disconnects: the QP goes to ERR (posted WRs flush) and both sides get
   * `RDMA_CM_EVENT_DISCONNECTED`. Synchronous id: settles after the event.
   */
  rdma_disconnect(id: rdma_cm_id): Promise<number>;

  /** §5.2.17 Local port, 0 if unbound. C returns it in network order (`__be16`); here the natural value. */
  rdma_get_src_port(id: rdma_cm_id): number;

  /** §5.2.18 Peer port, 0 if not connected (natural value, C: `__be16`). */
  rdma_get_dst_port(id: rdma_cm_id): number;

  /** §5.2.19 Local address (all-zero IPv4 if unbound). */
  rdma_get_local_addr(id: rdma_cm_id): sockaddr;

  /** §5.2.20 Peer address (all-zero IPv4 if not connected). */
  rdma_get_peer_addr(id: rdma_cm_id): sockaddr;

  /**
   * §5.2.21 The opened contexts of all RDMA devices (C: NULL-terminated `struct ibv_context **`,
   * count in `*num_devices` = the array length). They stay open for the life of the process.
   */
  rdma_get_devices(): ibv_context[] | null;

  /** §5.2.22 Frees the list returned by `rdma_get_devices` (the contexts stay open). */
  rdma_free_devices(list: readonly ibv_context[]): void;

  /**
   * §5.2.23 Resolves `node`/`service` (at least one non-null, else -1/EINVAL) into an
   * `ai_next`-linked list (C: `struct rdma_addrinfo **res`). `RAI_PASSIVE` → results for a
   * listener (`ai_src_addr`). A Promise because name resolution may block in C.
   */
  rdma_getaddrinfo(
    node: string | null,
    service: string | null,
    hints: In<rdma_addrinfo> | null,
  ): Promise<{ ret: number; res: rdma_addrinfo | null }>;

  /** §5.2.24 Frees the whole `ai_next` list. */
  rdma_freeaddrinfo(res: rdma_addrinfo): void;

  /**
   * §5.2.25 Creates the id's QP (on `pd` or the device's default PD; the id must be bound to a
   * device); rdma_cm drives its states (connected QPs reach RTS during connect/accept).
   * Actual caps are written back. iWARP: UD (an `RDMA_PS_UDP` id) → -1/EOPNOTSUPP.
   */
  rdma_create_qp(id: rdma_cm_id, pd: ibv_pd | null, qp_init_attr: In<ibv_qp_init_attr>): number;

  /** §5.2.26 Destroys the id's QP (required before `rdma_destroy_id`). */
  rdma_destroy_qp(id: rdma_cm_id): void;

  /** §5.2.27 Joins a multicast group (UD). iWARP: -1, errno ENOSYS (Linux rdma_cm for iWARP). */
  rdma_join_multicast(id: rdma_cm_id, addr: sockaddr, context: unknown): Promise<number>;
  /** librdmacm's `rdma_join_multicast_ex`: with join flags (a send-only full member receives nothing from the group). */
  rdma_join_multicast_ex(id: rdma_cm_id, mc_join_attr: In<rdma_cm_join_mc_attr_ex>, context: unknown): Promise<number>;

  /** §5.2.28 Leaves a group. iWARP: no group can be joined → -1, errno EADDRNOTAVAIL (librdmacm). */
  rdma_leave_multicast(id: rdma_cm_id, addr: sockaddr): number;

  /**
   * §5.3.1 Waits for the next CM event on the channel (C blocks; C: `struct rdma_cm_event **`).
   * `{ ret: 0, event }`, or `{ ret: -1, event: null }` with errno (EAGAIN in non-blocking mode).
   * Every event must be acked with `rdma_ack_cm_event`.
   */
  rdma_get_cm_event(channel: rdma_event_channel): Promise<{ ret: number; event: rdma_cm_event | null }>;

  /** §5.3.2 Releases an event (and its private data); once per event, a second ack → -1/EINVAL. */
  rdma_ack_cm_event(event: rdma_cm_event): number;

  /** §5.3.3 "RDMA_CM_EVENT_ADDR_RESOLVED", ..., or "UNKNOWN EVENT" (librdmacm strings). */
  rdma_event_str(event: number): string;

  // -------------------------------------------------------------------------------------------
  // Chapter 6 — RDMA verbs helpers (<rdma/rdma_verbs.h>); `context` becomes `wc.wr_id` (null → 0n)
  // -------------------------------------------------------------------------------------------

  /** §6.1.1 Registers for sends/receives on the id's PD (`IBV_ACCESS_LOCAL_WRITE`). null + errno. */
  rdma_reg_msgs(id: rdma_cm_id, addr: Uint8Array, length: number): ibv_mr | null;

  /** §6.1.2 Registers as a remote RDMA Read source (`LOCAL_WRITE | REMOTE_READ`). null + errno. */
  rdma_reg_read(id: rdma_cm_id, addr: Uint8Array, length: number): ibv_mr | null;

  /** §6.1.3 Registers as a remote RDMA Write target (`LOCAL_WRITE | REMOTE_WRITE`). null + errno. */
  rdma_reg_write(id: rdma_cm_id, addr: Uint8Array, length: number): ibv_mr | null;

  /** §6.1.4 `ibv_dereg_mr` with the rdma convention: 0 or -1 + errno. */
  rdma_dereg_mr(mr: ibv_mr): number;

  /**
   * §6.1.5 Creates the id's SRQ (`id.srq`; on `pd` or the default PD; CQs and channels created if
   * not given). One SRQ per id (a second → -1/EINVAL).
   */
  rdma_create_srq(id: rdma_cm_id, pd: ibv_pd | null, attr: In<ibv_srq_init_attr>): number;

  /** §6.1.6 Destroys the id's SRQ (required before `rdma_destroy_id`). */
  rdma_destroy_srq(id: rdma_cm_id): void;

  /** §6.2.1 Posts one receive with an SGE list (to `id.srq` if set, else the QP). 0 or -1 + errno. */
  rdma_post_recvv(id: rdma_cm_id, context: bigint | null, sgl: readonly In<ibv_sge>[], nsge: number): number;

  /** §6.2.2 Posts one Send with an SGE list (`flags`: `ibv_send_flags`); not before ESTABLISHED. */
  rdma_post_sendv(id: rdma_cm_id, context: bigint | null, sgl: readonly In<ibv_sge>[], nsge: number, flags: number): number;

  /** §6.2.3 Posts one RDMA Read into the SGE list. */
  rdma_post_readv(
    id: rdma_cm_id,
    context: bigint | null,
    sgl: readonly In<ibv_sge>[],
    nsge: number,
    flags: number,
    remote_addr: bigint,
    rkey: number,
  ): number;

  /** §6.2.4 Posts one RDMA Write from the SGE list. */
  rdma_post_writev(
    id: rdma_cm_id,
    context: bigint | null,
    sgl: readonly In<ibv_sge>[],
    nsge: number,
    flags: number,
    remote_addr: bigint,
    rkey: number,
  ): number;

  /** §6.2.5 Posts one receive of `length` bytes at `addr` (inside `mr`). */
  rdma_post_recv(id: rdma_cm_id, context: bigint | null, addr: BufferRef, length: number, mr: ibv_mr): number;

  /** §6.2.6 Posts one Send; `mr` may be null with `IBV_SEND_INLINE`. */
  rdma_post_send(id: rdma_cm_id, context: bigint | null, addr: BufferRef, length: number, mr: ibv_mr | null, flags: number): number;

  /** §6.2.7 Posts one RDMA Read of `length` bytes into `addr`. */
  rdma_post_read(
    id: rdma_cm_id,
    context: bigint | null,
    addr: BufferRef,
    length: number,
    mr: ibv_mr,
    flags: number,
    remote_addr: bigint,
    rkey: number,
  ): number;

  /** §6.2.8 Posts one RDMA Write of `length` bytes from `addr` (`mr` may be null when inline). */
  rdma_post_write(
    id: rdma_cm_id,
    context: bigint | null,
    addr: BufferRef,
    length: number,
    mr: ibv_mr | null,
    flags: number,
    remote_addr: bigint,
    rkey: number,
  ): number;

  /** §6.2.9 UD Send to `remote_qpn` through `ah` with `RDMA_UDP_QKEY`. iWARP: -1, errno EOPNOTSUPP. */
  rdma_post_ud_send(
    id: rdma_cm_id,
    context: bigint | null,
    addr: BufferRef,
    length: number,
    mr: ibv_mr | null,
    flags: number,
    ah: ibv_ah,
    remote_qpn: number,
  ): number;

  /**
   * §6.2.10 Polls the id's send CQ for one completion into `wc`; if none, arms notification and
   * waits on `id.send_cq_channel` (C blocks). Resolves with 1, or -1 + errno (EAGAIN when the
   * channel is non-blocking and nothing is queued; the manual's "0 or 1" never yields 0 in librdmacm).
   */
  rdma_get_send_comp(id: rdma_cm_id, wc: ibv_wc): Promise<number>;

  /**
   * §6.2.11 As `rdma_get_send_comp` for the receive CQ. The manual says "errno on failure";
   * librdmacm (and softrdma) return -1 with errno set.
   */
  rdma_get_recv_comp(id: rdma_cm_id, wc: ibv_wc): Promise<number>;
}

/** Names of every function of {@link VerbsApi}, grouped by the manual's chapters (for coverage checks). */
export const VERBS_API_FUNCTIONS = {
  errno: ['getErrno'],
  ch4_ibv: [
    'ibv_fork_init',
    'ibv_get_device_list',
    'ibv_free_device_list',
    'ibv_get_device_name',
    'ibv_get_device_guid',
    'ibv_open_device',
    'ibv_close_device',
    'ibv_node_type_str',
    'ibv_port_state_str',
    'ibv_query_device',
    'ibv_query_port',
    'ibv_query_gid',
    'ibv_query_pkey',
    'ibv_alloc_pd',
    'ibv_dealloc_pd',
    'ibv_create_cq',
    'ibv_resize_cq',
    'ibv_destroy_cq',
    'ibv_create_comp_channel',
    'ibv_destroy_comp_channel',
    'ibv_reg_mr',
    'ibv_dereg_mr',
    'ibv_create_qp',
    'ibv_destroy_qp',
    'ibv_create_srq',
    'ibv_modify_srq',
    'ibv_destroy_srq',
    'ibv_open_xrc_domain',
    'ibv_create_xrc_srq',
    'ibv_close_xrc_domain',
    'ibv_create_xrc_rcv_qp',
    'ibv_modify_xrc_rcv_qp',
    'ibv_reg_xrc_rcv_qp',
    'ibv_unreg_xrc_rcv_qp',
    'ibv_create_ah',
    'ibv_destroy_ah',
    'ibv_modify_qp',
    'ibv_query_qp',
    'ibv_query_srq',
    'ibv_query_xrc_rcv_qp',
    'ibv_post_recv',
    'ibv_post_send',
    'ibv_post_srq_recv',
    'ibv_req_notify_cq',
    'ibv_get_cq_event',
    'ibv_ack_cq_events',
    'ibv_poll_cq',
    'ibv_init_ah_from_wc',
    'ibv_create_ah_from_wc',
    'ibv_attach_mcast',
    'ibv_detach_mcast',
    'ibv_get_async_event',
    'ibv_ack_async_event',
    'ibv_event_type_str',
    'ibv_wc_status_str',
  ],
  ch4_8_exp: [
    'ibv_exp_query_device',
    'ibv_exp_create_qp',
    'ibv_exp_post_send',
    'ibv_exp_create_dct',
    'ibv_exp_destroy_dct',
    'ibv_exp_query_dct',
    'ibv_exp_arm_dct',
    'ibv_exp_reg_mr',
    'ibv_exp_create_mr',
    'ibv_exp_query_mkey',
    'ibv_exp_alloc_mkey_list_memory',
    'ibv_exp_dealloc_mkey_list_memory',
  ],
  ch5_rdma_cm: [
    'rdma_create_event_channel',
    'rdma_destroy_event_channel',
    'rdma_create_id',
    'rdma_destroy_id',
    'rdma_migrate_id',
    'rdma_set_option',
    'rdma_create_ep',
    'rdma_destroy_ep',
    'rdma_resolve_addr',
    'rdma_bind_addr',
    'rdma_resolve_route',
    'rdma_listen',
    'rdma_connect',
    'rdma_get_request',
    'rdma_accept',
    'rdma_reject',
    'rdma_notify',
    'rdma_disconnect',
    'rdma_get_src_port',
    'rdma_get_dst_port',
    'rdma_get_local_addr',
    'rdma_get_peer_addr',
    'rdma_get_devices',
    'rdma_free_devices',
    'rdma_getaddrinfo',
    'rdma_freeaddrinfo',
    'rdma_create_qp',
    'rdma_destroy_qp',
    'rdma_join_multicast',
    'rdma_join_multicast_ex',
    'rdma_leave_multicast',
    'rdma_get_cm_event',
    'rdma_ack_cm_event',
    'rdma_event_str',
  ],
  ch6_rdma_verbs: [
    'rdma_reg_msgs',
    'rdma_reg_read',
    'rdma_reg_write',
    'rdma_dereg_mr',
    'rdma_create_srq',
    'rdma_destroy_srq',
    'rdma_post_recvv',
    'rdma_post_sendv',
    'rdma_post_readv',
    'rdma_post_writev',
    'rdma_post_recv',
    'rdma_post_send',
    'rdma_post_read',
    'rdma_post_write',
    'rdma_post_ud_send',
    'rdma_get_send_comp',
    'rdma_get_recv_comp',
  ],
} as const satisfies Record<string, readonly (keyof VerbsApi)[]>;

// Compile-time check that VERBS_API_FUNCTIONS lists every member of VerbsApi exactly.
type ListedName = (typeof VERBS_API_FUNCTIONS)[keyof typeof VERBS_API_FUNCTIONS][number];
type MissingFromList = Exclude<keyof VerbsApi, ListedName>;
const verbsApiListComplete: [MissingFromList] extends [never] ? true : MissingFromList = true;
void verbsApiListComplete;

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
};
const verbsApiListComplete = true;
void verbsApiListComplete;
//# sourceMappingURL=api.js.map
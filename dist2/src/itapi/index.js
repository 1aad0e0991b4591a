/**
 * softrdma's IT-API 2.1 face: the implementation object {@link itapi} (all 79 functions of
 * {@link ItApi}), every function under its spec name, and the binding's types and constants.
 *
 * ```ts
 * import { it_ia_create, it_pz_create, IT_DTO_EVENT_STREAM } from 'softrdma/itapi';
 * ```
 *
 * @module
 */
import { itapi } from './impl.js';
export { itapi };
export * from './status.js';
export * from './types.js';
export * from './api.js';
export { softrdmaItapiPrivileged, softrdmaItapiSetPrivileged } from './objects.js';
export { itDevices as softrdmaItapiDevices } from './access.js';
export const { it_address_handle_create, it_address_handle_free, it_address_handle_modify, it_address_handle_query, it_convert_net_addr, it_ep_accept, it_ep_connect, it_ep_disconnect, it_ep_free, it_ep_modify, it_ep_query, it_ep_rc_create, it_ep_reset, it_ep_ud_create, it_evd_callback_attach, it_evd_callback_detach, it_evd_create, it_evd_dequeue, it_evd_free, it_evd_modify, it_evd_post_se, it_evd_query, it_evd_wait, it_get_consumer_context, it_get_handle_type, it_get_pathinfo, it_handoff, it_hton64, it_ntoh64, it_ia_create, it_ia_free, it_ia_info_free, it_ia_query, it_interface_list, it_listen_create, it_listen_free, it_listen_query, it_lmr_create, it_lmr_create_unlinked, it_lmr_flush_to_mem, it_lmr_free, it_lmr_link, it_lmr_modify, it_lmr_query, it_lmr_refresh_from_mem, it_lmr_unlink, it_make_rdma_addr_absolute, it_make_rdma_addr_relative, it_mem_map, it_mem_unmap, it_post_atomic, it_post_rdma_read, it_post_rdma_read_to_rmr, it_post_rdma_write, it_post_recv, it_post_recvfrom, it_post_send, it_post_send_and_unlink, it_post_sendto, it_pz_create, it_pz_free, it_pz_query, it_reject, it_rmr_create, it_rmr_free, it_rmr_link, it_rmr_query, it_rmr_unlink, it_set_consumer_context, it_socket_convert, it_srq_create, it_srq_free, it_srq_modify, it_srq_query, it_ud_service_reply, it_ud_service_request, it_ud_service_request_handle_create, it_ud_service_request_handle_free, it_ud_service_request_handle_query, } = itapi;
//# sourceMappingURL=index.js.map
/**
 * librdmacm in TypeScript (manual chapter 5): `rdma_cm_id`s and event channels over the iWARP
 * connection manager (`src/iwarp/cm.ts`) for softrdma0 and the InfiniBand CM on QP1
 * (`src/ibcm`, `rdma_cm_ib.ts`) for the RoCE device softroce0, with the QPs of `ibverbs.ts`.
 *
 * **Which device an id uses**, as Linux rdma_cm chooses (docs/spec-notes.md "rdma_cm over
 * RoCE"): a listener listens on every device that owns its address (iWARP requests arrive over
 * TCP, RoCE ones on QP1), and each request's new id is on the device it arrived on. An active
 * id takes, in order: the device the program named (`rdmaUseDevice`, as perftest's `-d`); the
 * one device that owns its source address and supports its port space (RDMA_PS_UDP and
 * RDMA_PS_IB: RoCE only); the device named by `SOFTRDMA_DEVICE` (for programs without such a
 * flag, e.g. rping); else softrdma0.
 *
 * Event sequences are the manual's: active ADDR_RESOLVED → ROUTE_RESOLVED
 * → ESTABLISHED | REJECTED | UNREACHABLE | CONNECT_ERROR → DISCONNECTED; passive
 * CONNECT_REQUEST (a new id) → ESTABLISHED → DISCONNECTED. As with Linux rdma_cm, a
 * disconnected QP is moved to Error so that every posted WR is flushed.
 *
 * iWARP specifics, as Linux's iw_cm reports them: the CONNECT_REQUEST's `initiator_depth` and
 * `responder_resources` are the peer's IRD and ORD (RFC 6581 word); a refused or rejected
 * connect is REJECTED with status -ECONNREFUSED; a timeout is UNREACHABLE (-ETIMEDOUT).
 *
 * This module is the face's one entry; the calls live in one file per group:
 *
 * - `rdma_cm_id.ts`: the event channel, the id, the choice of device;
 * - `rdma_cm_channel.ts`: creating and destroying channels and ids, events, addresses;
 * - `rdma_cm_addr.ts`: bind, listen, address and route resolution;
 * - `rdma_cm_conn.ts`: QPs of ids (made, or attached: `rdmaAttachQp`), connect, accept, reject, disconnect (iWARP);
 * - `rdma_cm_roce.ts`: the IB CM path of the same calls on a RoCE device;
 * - `rdma_cm_mcast.ts`: multicast on UD ids;
 * - `rdma_cm_sync.ts`: synchronous ids, `rdma_getaddrinfo`, `rdma_create_ep`;
 * - `rdma_cm_verbs.ts`: the `rdma_verbs.h` helpers.
 */
export { EventChannel, RDMA_CM_DEVICE_ENV, rdmaUseDevice, CmId } from './rdma_cm_id.js';
export type { IbIdState } from './rdma_cm_id.js';
export {
  rdma_create_event_channel,
  rdma_destroy_event_channel,
  rdma_create_id,
  rdma_destroy_id,
  rdma_migrate_id,
  rdma_set_option,
  rdma_get_src_port,
  rdma_get_dst_port,
  rdma_get_local_addr,
  rdma_get_peer_addr,
  rdma_get_devices,
  rdma_free_devices,
  rdma_get_cm_event,
  rdma_ack_cm_event,
} from './rdma_cm_channel.js';
export { rdma_bind_addr, rdma_listen, rdmaListenReady, rdma_resolve_addr, rdma_resolve_route } from './rdma_cm_addr.js';
export {
  rdma_create_qp,
  rdmaAttachQp,
  rdmaDetachQp,
  rdma_destroy_qp,
  rdma_connect,
  rdma_accept,
  rdma_reject,
  rdma_notify,
  rdma_disconnect,
} from './rdma_cm_conn.js';
export { rdma_join_multicast, rdma_join_multicast_ex, rdma_leave_multicast } from './rdma_cm_mcast.js';
export { rdma_get_request, rdma_getaddrinfo, rdma_freeaddrinfo, rdma_create_ep, rdma_destroy_ep } from './rdma_cm_sync.js';
export {
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
} from './rdma_cm_verbs.js';

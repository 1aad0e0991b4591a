/**
 * The IT-API 2.1 function surface for TypeScript: the {@link ItApi} interface (all 79 functions of
 * the Ch. 6 reference pages) and {@link IT_API_FUNCTIONS}, a machine-readable table of every
 * function's reference page, statuses, normal outcomes and iWARP applicability. Types only; the
 * implementation (over softrdma's RNICPI provider) is a separate module.
 *
 * Conventions (see also the mapping rules in `types.ts`):
 * - **Names** are the C names. `it_lmr_create` has the v2.1 signature (`it_lmr_create21`),
 *   `it_rmr_create` the v2.0 one (`it_rmr_create20`); the v1.0/v2.0 back-compat variants
 *   (`it_lmr_create10/20`, `it_rmr_create10`, `it_rmr_bind10`) and the v1.0 name macros
 *   (`it_make_rdma_addr`, `it_lmr_sync_rdma_read/write`, `it_rmr_unbind`) are not part of the
 *   binding.
 * - **Immediate errors throw** {@link ItError} (Promise-returning calls reject with it). A call that
 *   throws changed nothing, except as its page says (`it_lmr_modify` destroys the LMR on most
 *   errors).
 * - **Normal outcomes are returned**: a few statuses describe the state of the world rather than a
 *   misuse, and the C call has meaningful OUT values with them. Those calls return
 *   `{ status, ...outs }` (narrow on `status`); the complete list:
 *   `it_evd_dequeue` → `IT_ERR_QUEUE_EMPTY`; `it_evd_wait` → `IT_ERR_TIMEOUT_EXPIRED`,
 *   `IT_ERR_INTERRUPT`, `IT_ERR_ABORT`; `it_evd_post_se` → `IT_ERR_EVD_QUEUE_FULL`;
 *   `it_get_consumer_context` → `IT_ERR_NO_CONTEXT`; `it_ep_accept` → `IT_ERR_EP_TIMEWAIT`;
 *   `it_get_pathinfo`, `it_convert_net_addr` → `IT_ERR_INTERRUPT`.
 * - **OUT parameters become the return value**: one OUT → returned as is (`it_pz_create(ia)`
 *   returns the PZ handle); several → an object with the C parameter names
 *   (`it_evd_create` → `{ evd_handle, fd }`). IN OUT parameters are inputs *and* outputs.
 * - **Arrays and buffers**: `const it_lmr_triplet_t *local_segments, size_t num_segments` is one
 *   `readonly it_lmr_triplet_t[]`; `const unsigned char *private_data, size_t length` is one
 *   `Uint8Array | null` (`null` ≡ `IT_NO_ADDR` with length 0).
 * - **Blocking**: only `it_evd_wait`, `it_get_pathinfo` and `it_convert_net_addr` may wait for
 *   remote events (Ch. 4.1); they return Promises and take `{ signal }`: aborting the signal is the
 *   binding's stand-in for a POSIX signal and yields `IT_ERR_INTERRUPT`. Everything else is
 *   synchronous; asynchronous *outcomes* (completions, connection events) arrive as Events.
 * - **IA catastrophe**: once an IA is disabled every call on it except `it_ia_free` throws
 *   `IT_ERR_IA_CATASTROPHE` (listed on every page that has it).
 * - **iWARP**: softrdma's IA is `IT_IWARP_TCP_TRANSPORT`. Calls that only exist for other
 *   transports (UD, Address Handles, UD service resolution, Atomics) throw the code in
 *   `IT_API_FUNCTIONS[name].iwarpStatus`: the page's own code where one fits (no UD object can
 *   exist, so e.g. `it_post_sendto` on an RC EP is `IT_ERR_INVALID_EP_TYPE`), otherwise
 *   `IT_ERR_OP_NOT_SUPPORTED` — "The operation failed as it is not supported on the IA"
 *   (it_post_rdma_read_to_rmr L6093, it_socket_convert L8045–L8047), the only code the spec uses
 *   for an operation the IA lacks. There is no `IT_ERR_NOT_SUPPORTED`.
 *
 * Spec references: "p. N" = printed page of the reference page (TOC), "L" = the spec's printed
 * line number of the page's NAME entry.
 *
 * @module
 */
import type { ItNormalOutcome, ItSuccess } from './status.js';
import { it_status_t as S } from './status.js';
import type {
  it_addr_handle_t,
  it_addr_mode_t,
  it_addr_param_mask_t,
  it_addr_param_t,
  it_ah_flags_t,
  it_atomic_op_t,
  it_cn_est_flags_t,
  it_cn_est_identifier_t,
  it_conn_attributes_t,
  it_conn_qual_t,
  it_context_t,
  it_dg_remote_ep_addr_t,
  it_dto_cookie_t,
  it_dto_flags_t,
  it_ep_attributes_partial_t,
  it_ep_attributes_t,
  it_ep_handle_t,
  it_ep_param_mask_t,
  it_ep_param_partial_t,
  it_ep_rc_creation_flags_t,
  it_event_t,
  it_event_type_t,
  it_evd_callback_rtn_t,
  it_evd_flags_t,
  it_evd_handle_t,
  it_evd_param_mask_t,
  it_evd_param_t,
  it_handle_t,
  it_handle_type_enum_t,
  it_ia_handle_t,
  it_ia_info_t,
  it_interface_t,
  it_io_addr_t,
  it_iobl_t,
  it_length_t,
  it_listen_flags_t,
  it_listen_handle_t,
  it_listen_param_mask_t,
  it_listen_param_t,
  it_lmr_flag_t,
  it_lmr_handle_t,
  it_lmr_param_mask_t,
  it_lmr_param_t,
  it_lmr_triplet_t,
  it_mem_priv_t,
  it_net_addr_t,
  it_net_addr_type_t,
  it_path_t,
  it_pz_handle_t,
  it_pz_param_mask_t,
  it_pz_param_t,
  it_rdma_addr_t,
  it_remote_ep_info_t,
  it_rmr_context_t,
  it_rmr_handle_t,
  it_rmr_param_mask_t,
  it_rmr_param_t,
  it_rmr_triplet_t,
  it_rmr_type_t,
  it_sc_flags_t,
  it_socket_t,
  it_srq_handle_t,
  it_srq_param_mask_t,
  it_srq_param_t,
  it_ud_svc_req_handle_t,
  it_ud_svc_req_identifier_t,
  it_ud_svc_req_param_mask_t,
  it_ud_svc_req_param_t,
  it_ud_svc_req_status_t,
  it_vaddr_t,
  ItParamsPartial,
} from './types.js';

// =============================================================================================
// Result types of the calls with normal outcomes
// =============================================================================================

/** Options of the blocking calls. Aborting `signal` ends the wait with `IT_ERR_INTERRUPT`. */
export interface ItWaitOptions {
  readonly signal?: AbortSignal;
}

/** `it_evd_dequeue`: an event, or `IT_ERR_QUEUE_EMPTY`. */
export type ItDequeueResult = ItSuccess<{ event: it_event_t }> | ItNormalOutcome<S.IT_ERR_QUEUE_EMPTY>;

/**
 * `it_evd_wait`: an event with `nmore` (events left; SEVD only, `null` on an AEVD), or
 * `IT_ERR_TIMEOUT_EXPIRED` (with `nmore`), `IT_ERR_INTERRUPT` (signal aborted), `IT_ERR_ABORT`
 * (the EVD or its IA was freed while waiting).
 */
export type ItWaitResult =
  | ItSuccess<{ event: it_event_t; nmore: number | null }>
  | ItNormalOutcome<S.IT_ERR_TIMEOUT_EXPIRED, { nmore: number | null }>
  | ItNormalOutcome<S.IT_ERR_INTERRUPT>
  | ItNormalOutcome<S.IT_ERR_ABORT>;

/** `it_evd_post_se`: queued, or `IT_ERR_EVD_QUEUE_FULL` (nothing queued). */
export type ItPostSeResult = ItSuccess | ItNormalOutcome<S.IT_ERR_EVD_QUEUE_FULL>;

/** `it_get_consumer_context`: the context, or `IT_ERR_NO_CONTEXT` with the zero context `0n`. */
export type ItGetContextResult = ItSuccess<{ context: it_context_t }> | ItNormalOutcome<S.IT_ERR_NO_CONTEXT, { context: 0n }>;

/** `it_ep_accept`: accepted, or `IT_ERR_EP_TIMEWAIT` (retry later or with another Endpoint). */
export type ItAcceptResult = ItSuccess | ItNormalOutcome<S.IT_ERR_EP_TIMEWAIT>;

/** `it_get_pathinfo`: up to `num_paths` paths (possibly none) and the total, or `IT_ERR_INTERRUPT`. */
export type ItPathInfoResult = ItSuccess<{ paths: readonly it_path_t[]; total_paths: number }> | ItNormalOutcome<S.IT_ERR_INTERRUPT>;

/** `it_convert_net_addr`: the converted address, or `IT_ERR_INTERRUPT`. */
export type ItConvertNetAddrResult = ItSuccess<{ destination_addr: it_net_addr_t }> | ItNormalOutcome<S.IT_ERR_INTERRUPT>;

// =============================================================================================
// The API
// =============================================================================================

/**
 * IT-API 2.1 (The Open Group C055) as a TypeScript interface: every function of the Ch. 6
 * reference pages, in reference-page order (`it_ntoh64` shares the `it_hton64` page).
 *
 * Each method's JSDoc gives a one-line summary, the reference page, the statuses the page lists
 * ("Throws" = immediate errors thrown as {@link ItError}; "Returns" = normal outcomes), and iWARP
 * applicability. `IT_ERR_IA_CATASTROPHE` appears wherever the page lists it.
 */
export interface ItApi {
  // ---- UD Address Handles (IB only) --------------------------------------------------------

  /**
   * Create a UD Address Handle for `destination_path` (complete if `IT_AH_PATH_COMPLETE`).
   * Spec: Ch. 6 it_address_handle_create() p. 49, L1553.
   * Throws: RESOURCES, INVALID_PZ, INVALID_FLAGS, NO_PERMISSION, INVALID_SOURCE_PATH,
   * INVALID_SPIGOT, IA_CATASTROPHE.
   * iWARP: not applicable (UD only) → throws `IT_ERR_OP_NOT_SUPPORTED` (binding choice; the page
   * names no transport code).
   */
  it_address_handle_create(pz_handle: it_pz_handle_t, destination_path: it_path_t, ah_flags: it_ah_flags_t): it_addr_handle_t;

  /**
   * Free a UD Address Handle (let Sends using it complete first).
   * Spec: Ch. 6 it_address_handle_free() p. 52, L1634.
   * Throws: INVALID_AH, IA_CATASTROPHE.
   * iWARP: not applicable → `IT_ERR_INVALID_AH` (no Address Handle can exist).
   */
  it_address_handle_free(addr_handle: it_addr_handle_t): void;

  /**
   * Replace an Address Handle's path (`IT_ADDR_PARAM_PATH` is the only modifiable field).
   * Spec: Ch. 6 it_address_handle_modify() p. 53, L1661.
   * Throws: INVALID_AH, INVALID_MASK, NO_PERMISSION, INVALID_SOURCE_PATH, INVALID_SPIGOT,
   * IA_CATASTROPHE.
   * iWARP: not applicable → `IT_ERR_INVALID_AH`.
   */
  it_address_handle_modify(addr_handle: it_addr_handle_t, mask: it_addr_param_mask_t, params: ItParamsPartial<it_addr_param_t>): void;

  /**
   * Query an Address Handle's IA, PZ and path (mask-selected fields).
   * Spec: Ch. 6 it_address_handle_query() p. 55, L1715.
   * Throws: INVALID_AH, INVALID_MASK, IA_CATASTROPHE.
   * iWARP: not applicable → `IT_ERR_INVALID_AH`.
   */
  it_address_handle_query(addr_handle: it_addr_handle_t, mask: it_addr_param_mask_t): ItParamsPartial<it_addr_param_t>;

  // ---- Utilities ---------------------------------------------------------------------------

  /**
   * Convert a network address to another form (e.g. GID ↔ IPv4); may wait on the network.
   * Spec: Ch. 6 it_convert_net_addr() p. 57, L1760.
   * Throws (rejects): INVALID_ADDRESS, INVALID_NETADDR, INVALID_CONVERSION (unsupported or
   * impossible for this input), IA_CATASTROPHE. Returns: SUCCESS, INTERRUPT.
   * iWARP: applicable; which conversions exist is implementation-defined (others →
   * INVALID_CONVERSION).
   */
  it_convert_net_addr(source_addr: it_net_addr_t, addr_type: it_net_addr_type_t, options?: ItWaitOptions): Promise<ItConvertNetAddrResult>;

  // ---- Endpoints and connection management -------------------------------------------------

  /**
   * Accept a connection request (`cn_est_id` from `IT_CM_REQ_CONN_REQUEST_EVENT`) with an
   * UNCONNECTED Endpoint, or (3-way, active side) an `IT_CM_MSG_CONN_ACCEPT_ARRIVAL_EVENT` with the
   * ACTIVE2 Endpoint. Consumes `cn_est_id`. Passive EP → PASSIVE_CONNECTION_PENDING → CONNECTED.
   * Spec: Ch. 6 it_ep_accept() p. 59, L1814.
   * Throws: PDATA_NOT_SUPPORTED, INVALID_PDATA_LENGTH, INVALID_EP, INVALID_EP_STATE,
   * INVALID_EP_TYPE, INVALID_CN_EST_ID, INVALID_EP_ATTR, IA_CATASTROPHE.
   * Returns: SUCCESS, EP_TIMEWAIT (EP created with `IT_EP_REUSEADDR` still in TimeWait).
   * iWARP: applicable (2-way only; post ≥ 1 Receive before accepting).
   */
  it_ep_accept(ep_handle: it_ep_handle_t, cn_est_id: it_cn_est_identifier_t, private_data: Uint8Array | null): ItAcceptResult;

  /**
   * Start active connection establishment of an UNCONNECTED RC Endpoint to `connect_qual` over
   * `path` (EP → ACTIVE1_CONNECTION_PENDING; outcome arrives on the connect SEVD).
   * Spec: Ch. 6 it_ep_connect() p. 62, L1919.
   * Throws: NO_PERMISSION, RESOURCES, INVALID_CONN_QUAL, PDATA_NOT_SUPPORTED,
   * INVALID_PDATA_LENGTH, INVALID_SOURCE_PATH, INVALID_SPIGOT, INVALID_EP, INVALID_EP_STATE,
   * INVALID_EP_TYPE, INVALID_CN_EST_FLAGS, INVALID_RTIMEOUT, INVALID_LTIMEOUT, INVALID_RETRY,
   * INVALID_RNR_RETRY, INVALID_CM_RETRY, INVALID_ETIMEOUT, INVALID_IANA_LR_PORT (softrdma code
   * 107), IA_CATASTROPHE.
   * iWARP: applicable; the six IB CM timeout/retry codes cannot occur (no iWARP knobs);
   * `IT_CONNECT_FLAG_THREE_WAY` → INVALID_CN_EST_FLAGS.
   */
  it_ep_connect(
    ep_handle: it_ep_handle_t,
    path: it_path_t,
    conn_attr: it_conn_attributes_t | null,
    connect_qual: it_conn_qual_t,
    cn_est_flags: it_cn_est_flags_t,
    private_data: Uint8Array | null,
  ): void;

  /**
   * Abortively disconnect an RC Endpoint (any state but UNCONNECTED): both sides →
   * NONOPERATIONAL, local DISCONNECT event, pending WRs flushed; aborts a pending connect or
   * Conversion.
   * Spec: Ch. 6 it_ep_disconnect() p. 68, L2142.
   * Throws: INVALID_EP_STATE, INVALID_EP, INVALID_EP_TYPE, PDATA_NOT_SUPPORTED,
   * INVALID_PDATA_LENGTH, IA_CATASTROPHE.
   * iWARP: applicable (TII and TDI); `disconnect_private_data_len` is 0.
   */
  it_ep_disconnect(ep_handle: it_ep_handle_t, private_data: Uint8Array | null): void;

  /**
   * Free an Endpoint in any state (stops its events; a connected peer leaves CONNECTED).
   * Spec: Ch. 6 it_ep_free() p. 70, L2217.
   * Throws: INVALID_EP, EP_BUSY (a Narrow RMR is linked through it), IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_ep_free(ep_handle: it_ep_handle_t): void;

  /**
   * Modify Endpoint attributes selected by `mask` (atomic: all or nothing; state rules per
   * attribute, see `it_ep_attributes_t`).
   * Spec: Ch. 6 it_ep_modify() p. 72, L2296.
   * Throws: INVALID_EP, INVALID_MASK, INVALID_EP_STATE, INVALID_EP_TYPE, PAYLOAD_SIZE,
   * RESOURCE_REQ_DTO, RESOURCE_RECV_DTO, RESOURCE_IRD, RESOURCE_ORD, INVALID_EP_KEY,
   * SOFT_HI_WATERMARK, INVALID_WATERMARK, HARD_HI_WATERMARK, INVALID_RECV_DTO, IA_CATASTROPHE.
   * iWARP: applicable (`EP_KEY` is UD-only).
   */
  it_ep_modify(ep_handle: it_ep_handle_t, mask: it_ep_param_mask_t, ep_attr: it_ep_attributes_partial_t): void;

  /**
   * Query Endpoint parameters selected by `mask`.
   * Spec: Ch. 6 it_ep_query() p. 74, L2374.
   * Throws: INVALID_EP, INVALID_MASK, INVALID_EP_TYPE, IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_ep_query(ep_handle: it_ep_handle_t, mask: it_ep_param_mask_t): it_ep_param_partial_t;

  /**
   * Create an RC Endpoint (UNCONNECTED) with DTO request/receive SEVDs and a CM_MSG connect SEVD.
   * Spec: Ch. 6 it_ep_rc_create() p. 76, L2447.
   * Throws: INVALID_PZ, INVALID_REQ_EVD, INVALID_RECV_EVD, INVALID_CONN_EVD, INVALID_EVD_TYPE,
   * INVALID_REQ_EVD_STATE, INVALID_RECV_EVD_STATE, INVALID_FLAGS, RESOURCES, PAYLOAD_SIZE,
   * RESOURCE_REQ_DTO, RESOURCE_RECV_DTO, RESOURCE_SSEG, RESOURCE_RSEG, RESOURCE_RRSEG,
   * RESOURCE_RWSEG, RESOURCE_IRD, RESOURCE_ORD, INVALID_SRQ, SOFT_HI_WATERMARK, INVALID_WATERMARK,
   * HARD_HI_WATERMARK, PRIV_OPS_UNAVAILABLE, NO_PERMISSION, IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_ep_rc_create(
    pz_handle: it_pz_handle_t,
    request_sevd_handle: it_evd_handle_t,
    recv_sevd_handle: it_evd_handle_t,
    connect_sevd_handle: it_evd_handle_t,
    flags: it_ep_rc_creation_flags_t,
    ep_attr: it_ep_attributes_t,
  ): it_ep_handle_t;

  /**
   * Return a NONOPERATIONAL RC Endpoint to UNCONNECTED, keeping its attributes.
   * Spec: Ch. 6 it_ep_reset() p. 81, L2622.
   * Throws: INVALID_EP, INVALID_EP_STATE, INVALID_EP_TYPE, CANNOT_RESET (broken by DTO-SEVD
   * overflow), IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_ep_reset(ep_handle: it_ep_handle_t): void;

  /**
   * Create a UD Endpoint (UD_OPERATIONAL) on `spigot_id`.
   * Spec: Ch. 6 it_ep_ud_create() p. 82, L2660.
   * Throws: INVALID_PZ, INVALID_REQ_EVD, INVALID_RECV_EVD, INVALID_EVD_TYPE,
   * INVALID_REQ_EVD_STATE, INVALID_RECV_EVD_STATE, INVALID_SPIGOT, RESOURCES, PAYLOAD_SIZE,
   * RESOURCE_REQ_DTO, RESOURCE_RECV_DTO, RESOURCE_SSEG, RESOURCE_RSEG, INVALID_EP_KEY,
   * PRIV_OPS_UNAVAILABLE, NO_PERMISSION, IA_CATASTROPHE.
   * iWARP: not applicable (no UD service) → `IT_ERR_OP_NOT_SUPPORTED` (binding choice).
   */
  it_ep_ud_create(
    pz_handle: it_pz_handle_t,
    request_sevd_handle: it_evd_handle_t,
    recv_sevd_handle: it_evd_handle_t,
    ep_attr: it_ep_attributes_t,
    spigot_id: number,
  ): it_ep_handle_t;

  // ---- Event Dispatchers -------------------------------------------------------------------

  /**
   * Attach the EVD's callback (Privileged Consumers): invoked, one invocation at a time, when the
   * drained EVD enters Notification criteria.
   * Spec: Ch. 6 it_evd_callback_attach() p. 85, L2754.
   * Throws: INVALID_EVD, CALLBACK_EXISTS, EVD_WAIT (a wait is in progress), NO_PERMISSION,
   * INVALID_EVD_STATE (EVD has an fd or feeds an AEVD), IA_CATASTROPHE.
   * iWARP: applicable (privileged Consumers only).
   */
  it_evd_callback_attach(evd_handle: it_evd_handle_t, callback: it_evd_callback_rtn_t, arg: unknown): void;

  /**
   * Detach the EVD's callback (may be called from inside the callback).
   * Spec: Ch. 6 it_evd_callback_detach() p. 88, L2857.
   * Throws: INVALID_EVD, INVALID_EVD_STATE (no callback), NO_PERMISSION, IA_CATASTROPHE.
   * iWARP: applicable (privileged Consumers only).
   */
  it_evd_callback_detach(evd_handle: it_evd_handle_t): void;

  /**
   * Create an SEVD for one stream (`event_number` = a stream value) or an AEVD
   * (`IT_AEVD_NOTIFICATION_EVENT_STREAM`); optionally feeding `aevd_handle` or with an fd.
   * Spec: Ch. 6 it_evd_create() p. 89, L2894.
   * Throws: INVALID_IA, INVALID_EVD_TYPE, INVALID_FLAGS, RESOURCE_QUEUE_SIZE, INVALID_THRESHOLD,
   * INVALID_AEVD, RESOURCES, MISMATCH_FD, AEVD_NOT_ALLOWED, ASYNC_AFF_EVD_EXISTS,
   * ASYNC_UNAFF_EVD_EXISTS, IA_CATASTROPHE.
   * iWARP: applicable. `fd` is −1 unless `IT_EVD_CREATE_FD`.
   */
  it_evd_create(
    ia_handle: it_ia_handle_t,
    event_number: it_event_type_t,
    evd_flag: it_evd_flags_t,
    sevd_queue_size: number,
    sevd_threshold: number,
    aevd_handle: it_evd_handle_t | null,
  ): { readonly evd_handle: it_evd_handle_t; readonly fd: number };

  /**
   * Dequeue the head event without blocking (threshold irrelevant).
   * Spec: Ch. 6 it_evd_dequeue() p. 100, L3278.
   * Throws: INVALID_EVD, INVALID_EVD_STATE (SEVD feeding an AEVD without DEQUEUE_NOTIFICATIONS),
   * IA_CATASTROPHE. Returns: SUCCESS `{ event }`, QUEUE_EMPTY.
   * iWARP: applicable.
   */
  it_evd_dequeue(evd_handle: it_evd_handle_t): ItDequeueResult;

  /**
   * Free an EVD and its queued events.
   * Spec: Ch. 6 it_evd_free() p. 102, L3345.
   * Throws: INVALID_EVD, EVD_BUSY (still fed by a stream), INVALID_EVD_STATE (callback running),
   * IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_evd_free(evd_handle: it_evd_handle_t): void;

  /**
   * Modify queue size, threshold, AEVD association, enabled state, or clear overflow (atomic).
   * Spec: Ch. 6 it_evd_modify() p. 104, L3398.
   * Throws: INVALID_EVD, INVALID_MASK, INVALID_EVD_STATE, RESOURCE_QUEUE_SIZE,
   * INVALID_QUEUE_SIZE, INVALID_THRESHOLD, INVALID_AEVD, RESOURCES, CALLBACK_EXISTS,
   * IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_evd_modify(evd_handle: it_evd_handle_t, mask: it_evd_param_mask_t, params: ItParamsPartial<it_evd_param_t>): void;

  /**
   * Post a Software Event (`IT_SOFTWARE_EVENT`, `data` = `event`, by identity) on a SOFTWARE SEVD;
   * always a Notification event.
   * Spec: Ch. 6 it_evd_post_se() p. 107, L3520.
   * Throws: INVALID_EVD, INVALID_SOFT_EVD, IA_CATASTROPHE. Returns: SUCCESS, EVD_QUEUE_FULL
   * (nothing queued; this stream never overflows).
   * iWARP: applicable.
   */
  it_evd_post_se(evd_handle: it_evd_handle_t, event: unknown): ItPostSeResult;

  /**
   * Query EVD parameters selected by `mask`.
   * Spec: Ch. 6 it_evd_query() p. 109, L3560.
   * Throws: INVALID_EVD, INVALID_MASK, IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_evd_query(evd_handle: it_evd_handle_t, mask: it_evd_param_mask_t): ItParamsPartial<it_evd_param_t>;

  /**
   * Wait up to `timeout` µs (`IT_TIMEOUT_INFINITE` = forever) until the EVD is in Notification
   * criteria, then dequeue its head event.
   * Spec: Ch. 6 it_evd_wait() p. 111, L3641.
   * Rejects: WAITER_LIMIT (second waiter, threshold > 1), INVALID_EVD, INVALID_EVD_STATE (enabled
   * EVD feeding an AEVD or an fd; SEVD under a non-DEQUEUE_NOTIFICATIONS AEVD), CALLBACK_EXISTS,
   * IA_CATASTROPHE. Returns: SUCCESS `{ event, nmore }`, TIMEOUT_EXPIRED `{ nmore }`, INTERRUPT
   * (`options.signal` aborted), ABORT (EVD or IA freed during the wait).
   * iWARP: applicable.
   */
  it_evd_wait(evd_handle: it_evd_handle_t, timeout: bigint, options?: ItWaitOptions): Promise<ItWaitResult>;

  // ---- Handles, contexts, paths ------------------------------------------------------------

  /**
   * Get the Consumer Context of a handle.
   * Spec: Ch. 6 it_get_consumer_context() p. 115, L3792.
   * Throws: INVALID_HANDLE, IA_CATASTROPHE. Returns: SUCCESS `{ context }`, NO_CONTEXT
   * `{ context: 0n }` (never set, or set to `null`/`0n`).
   * iWARP: applicable.
   */
  it_get_consumer_context(handle: it_handle_t): ItGetContextResult;

  /**
   * Report the class of a handle (`IT_HANDLE_TYPE_*`).
   * Spec: Ch. 6 it_get_handle_type() p. 116 — the page text (L3825–L3848) is missing from the
   * source; prototype from the header. Inferred: throws INVALID_HANDLE, IA_CATASTROPHE.
   * iWARP: applicable (ADDR and UD_SVC_REQ handles cannot exist).
   */
  it_get_handle_type(handle: it_handle_t): it_handle_type_enum_t;

  /**
   * Resolve up to `num_paths` paths from `spigot_id` to `net_addr` (zero paths is success with
   * `total_paths` 0); may wait on the network.
   * Spec: Ch. 6 it_get_pathinfo() p. 117, L3851.
   * Rejects: INVALID_IA, INVALID_SPIGOT, INVALID_ADDRESS, INVALID_NETADDR, IA_CATASTROPHE.
   * Returns: SUCCESS `{ paths, total_paths }`, INTERRUPT.
   * iWARP: applicable (paths carry `remote.iwarp` local/remote IP).
   */
  it_get_pathinfo(
    ia_handle: it_ia_handle_t,
    spigot_id: number,
    net_addr: it_net_addr_t,
    num_paths: number,
    options?: ItWaitOptions,
  ): Promise<ItPathInfoResult>;

  /**
   * Re-deliver a pending connection request to another Listen (qualifier + Spigot) of the same
   * IA; consumes `cn_est_id`.
   * Spec: Ch. 6 it_handoff() p. 120, L3937.
   * Throws: INVALID_CN_EST_ID, INVALID_CONN_QUAL, INVALID_SPIGOT, IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_handoff(conn_qual: it_conn_qual_t, spigot_id: number, cn_est_id: it_cn_est_identifier_t): void;

  /**
   * 64-bit host → network byte order (a byte swap on little-endian hosts). Always succeeds.
   * Spec: Ch. 6 it_hton64() p. 122, L3982 (shared page with `it_ntoh64`).
   * iWARP: applicable.
   */
  it_hton64(hostint: bigint): bigint;

  /**
   * 64-bit network → host byte order. Always succeeds.
   * Spec: Ch. 6 it_hton64() p. 122, L3982 (`it_ntoh64` is documented on the `it_hton64` page).
   * iWARP: applicable.
   */
  it_ntoh64(netint: bigint): bigint;

  // ---- Interface Adapter -------------------------------------------------------------------

  /**
   * Open an Interface Adapter by name, asking for API version `major.minor` (2.1 = 2, 1; every
   * minor ≤ the listed one must be accepted). The IA starts enabled.
   * Spec: Ch. 6 it_ia_create() p. 123, L4017.
   * Throws: RESOURCES, INVALID_NAME, INVALID_MAJOR_VERSION, INVALID_MINOR_VERSION.
   * iWARP: applicable.
   */
  it_ia_create(name: string, major_version: number, minor_version: number): it_ia_handle_t;

  /**
   * Free an IA and everything created on it; terminates connections and DTOs and unblocks every
   * `it_evd_wait` on it. Works on a disabled IA.
   * Spec: Ch. 6 it_ia_free() p. 125, L4071.
   * Throws: INVALID_IA, INVALID_EVD_STATE (an EVD callback is running).
   * iWARP: applicable.
   */
  it_ia_free(ia_handle: it_ia_handle_t): void;

  /**
   * Release an `it_ia_info_t` returned by `it_ia_query` (not the EVDs it names). No status.
   * Spec: Ch. 6 it_ia_info_free() p. 126, L4109.
   * iWARP: applicable.
   */
  it_ia_info_free(ia_info: it_ia_info_t): void;

  /**
   * Return the IA's attributes (release with `it_ia_info_free` or `it_ia_free`).
   * Spec: Ch. 6 it_ia_query() p. 127, L4138.
   * Throws: INVALID_IA, RESOURCES, IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_ia_query(ia_handle: it_ia_handle_t): it_ia_info_t;

  /**
   * Enumerate up to `num_interfaces` interfaces (an arbitrary subset if more exist) and the total
   * count; a snapshot. No status.
   * Spec: Ch. 6 it_interface_list() p. 128, L4170.
   * iWARP: applicable.
   */
  it_interface_list(num_interfaces: number): {
    readonly interfaces: readonly it_interface_t[];
    readonly total_interfaces: number;
  };

  // ---- Listen Points -----------------------------------------------------------------------

  /**
   * Create a Listen Point on `spigot_id` feeding the CM_REQ SEVD `connect_evd`. Without
   * `IT_LISTEN_CONN_QUAL_INPUT` the implementation picks a free qualifier of `conn_qual.type` and
   * returns it.
   * Spec: Ch. 6 it_listen_create() p. 131, L4283.
   * Throws: INVALID_CONN_QUAL, CONN_QUAL_BUSY, NO_PERMISSION, RESOURCES, INVALID_CONN_EVD,
   * INVALID_IA, INVALID_SPIGOT, INVALID_FLAGS, INVALID_EVD_TYPE, IA_CATASTROPHE.
   * iWARP: applicable (TCP listen; qualifier `IT_IANA_PORT`).
   */
  it_listen_create(
    ia_handle: it_ia_handle_t,
    spigot_id: number,
    connect_evd: it_evd_handle_t,
    flags: it_listen_flags_t,
    conn_qual: it_conn_qual_t,
  ): { readonly listen_handle: it_listen_handle_t; readonly conn_qual: it_conn_qual_t };

  /**
   * Free a Listen Point; already-queued requests stay acceptable.
   * Spec: Ch. 6 it_listen_free() p. 133, L4359.
   * Throws: INVALID_LISTEN, IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_listen_free(listen_handle: it_listen_handle_t): void;

  /**
   * Query Listen Point parameters selected by `mask`.
   * Spec: Ch. 6 it_listen_query() p. 134, L4384.
   * Throws: INVALID_LISTEN, INVALID_MASK, IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_listen_query(listen_handle: it_listen_handle_t, mask: it_listen_param_mask_t): ItParamsPartial<it_listen_param_t>;

  // ---- Local Memory Regions ----------------------------------------------------------------

  /**
   * Register `[addr, addr+length)` (or an IOBL, privileged) as an LMR; with remote privileges also
   * returns its RMR Context (v2.1 signature, `it_lmr_create21`). `addr` may be the buffer itself.
   * Spec: Ch. 6 it_lmr_create() p. 136, L4434.
   * Throws: ACCESS, FAULT, INVALID_ADDR_MODE, INVALID_FLAGS, INVALID_IOBL, INVALID_LENGTH,
   * INVALID_PRIVS, INVALID_PZ, RESOURCES, RESOURCE_LMR_LENGTH, PRIV_OPS_UNAVAILABLE,
   * NO_PERMISSION, IA_CATASTROPHE.
   * iWARP: applicable (byte-granular; `actual_*` equal the request).
   */
  it_lmr_create(
    pz_handle: it_pz_handle_t,
    addr: Uint8Array | it_vaddr_t | null,
    iobl: it_iobl_t | null,
    length: it_length_t,
    addr_mode: it_addr_mode_t,
    privs: it_mem_priv_t,
    flags: it_lmr_flag_t,
    shared_id: number,
  ): { readonly lmr_handle: it_lmr_handle_t; readonly rmr_context: it_rmr_context_t | null };

  /**
   * Allocate an unlinked LMR with room for `iobl_num_elts` IOBL elements (privileged; linked later
   * with `it_lmr_link`).
   * Spec: Ch. 6 it_lmr_create_unlinked() p. 142, L4655.
   * Throws: INVALID_FLAGS, INVALID_PZ, OP_NOT_SUPPORTED (no `lmr_link_support`), NO_PERMISSION,
   * RESOURCE_IOBL_LENGTH (softrdma code 108), RESOURCES, IA_CATASTROPHE.
   * iWARP: optional (`lmr_link_support`; Allocate Non-Shared MR STag).
   */
  it_lmr_create_unlinked(pz_handle: it_pz_handle_t, iobl_num_elts: number, flags: it_lmr_flag_t, shared_id: number): it_lmr_handle_t;

  /**
   * Make local CPU writes to non-coherent LMR segments visible to incoming RDMA Reads/Atomics
   * (no-op success for coherent memory).
   * Spec: Ch. 6 it_lmr_flush_to_mem() p. 145, L4744.
   * Throws: RANGE, IA_CATASTROPHE.
   * iWARP: applicable (softrdma memory is coherent: always a no-op).
   */
  it_lmr_flush_to_mem(local_segments: readonly it_lmr_triplet_t[]): void;

  /**
   * Free an LMR and its RMR Context.
   * Spec: Ch. 6 it_lmr_free() p. 147, L4796.
   * Throws: INVALID_LMR, LMR_BUSY (an RMR is linked to it), IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_lmr_free(lmr_handle: it_lmr_handle_t): void;

  /**
   * Post an LMR Link WR (privileged EP, CONNECTED): link an unlinked LMR to `addr`/`iobl`; the new
   * RMR Context is returned at once but usable remotely only after the completion
   * (`IT_LMR_LINK_CMPL_EVENT`). Fences later SQ WRs.
   * Spec: Ch. 6 it_lmr_link() p. 148, L4833.
   * Throws: INVALID_EP_STATE, INVALID_ADDR_MODE, INVALID_EP, INVALID_EP_TYPE, INVALID_DTO_FLAGS,
   * INVALID_IOBL, INVALID_LMR, INVALID_PRIVS, OP_NOT_SUPPORTED, RESOURCES, TOO_MANY_POSTS,
   * IA_CATASTROPHE.
   * iWARP: optional (`lmr_link_support`; Fast-Register WR).
   */
  it_lmr_link(
    lmr_handle: it_lmr_handle_t,
    addr: Uint8Array | it_vaddr_t | null,
    iobl: it_iobl_t | null,
    length: it_length_t,
    addr_mode: it_addr_mode_t,
    privs: it_mem_priv_t,
    ep_handle: it_ep_handle_t,
    cookie: it_dto_cookie_t,
    dto_flags: it_dto_flags_t,
  ): it_rmr_context_t;

  /**
   * Change an LMR's PZ and/or privileges (new RMR Context if remote privileges). Errors other
   * than invalid handle/mask and LMR_BUSY destroy the LMR.
   * Spec: Ch. 6 it_lmr_modify() p. 154, L5048.
   * Throws: ACCESS, INVALID_LMR, INVALID_MASK, INVALID_PRIVS, INVALID_PZ, LMR_BUSY, RESOURCES,
   * IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_lmr_modify(lmr_handle: it_lmr_handle_t, mask: it_lmr_param_mask_t, params: ItParamsPartial<it_lmr_param_t>): void;

  /**
   * Query LMR parameters selected by `mask`.
   * Spec: Ch. 6 it_lmr_query() p. 156, L5115.
   * Throws: INVALID_LMR, INVALID_MASK, IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_lmr_query(lmr_handle: it_lmr_handle_t, mask: it_lmr_param_mask_t): ItParamsPartial<it_lmr_param_t>;

  /**
   * Make incoming RDMA Writes/Atomics to non-coherent LMR segments visible to local reads (no-op
   * success for coherent memory).
   * Spec: Ch. 6 it_lmr_refresh_from_mem() p. 159, L5213.
   * Throws: RANGE, IA_CATASTROPHE.
   * iWARP: applicable (always a no-op in softrdma).
   */
  it_lmr_refresh_from_mem(local_segments: readonly it_lmr_triplet_t[]): void;

  /**
   * Post an LMR Unlink WR (CONNECTED RC EP); completion `IT_LMR_LINK_CMPL_EVENT`. Later SQ WRs may
   * start before it completes (use `IT_UNLINK_FENCE_FLAG`).
   * Spec: Ch. 6 it_lmr_unlink() p. 161, L5270.
   * Throws: INVALID_EP_STATE, INVALID_DTO_FLAGS, INVALID_EP, INVALID_EP_TYPE, INVALID_LMR,
   * OP_NOT_SUPPORTED, TOO_MANY_POSTS, IA_CATASTROPHE.
   * iWARP: optional (`lmr_link_support`; Invalidate Local STag).
   */
  it_lmr_unlink(lmr_handle: it_lmr_handle_t, ep_handle: it_ep_handle_t, cookie: it_dto_cookie_t, dto_flags: it_dto_flags_t): void;

  /**
   * RDMA address for Absolute Addressing of a local address (no validation). Always succeeds.
   * Spec: Ch. 6 it_make_rdma_addr_absolute() p. 164, L5388.
   * iWARP: applicable. Returns the host value (see `types.ts` on byte order).
   */
  it_make_rdma_addr_absolute(addr: Uint8Array | it_vaddr_t): it_rdma_addr_t;

  /**
   * RDMA address for Relative Addressing of byte `offset`. Always succeeds.
   * Spec: Ch. 6 it_make_rdma_addr_relative() p. 165 — page text (L5418–L5447) missing from the
   * source; prototype from the header.
   * iWARP: applicable when `addr_mode_relative_support`.
   */
  it_make_rdma_addr_relative(offset: it_length_t): it_rdma_addr_t;

  /**
   * Map (part of) a virtual buffer to one I/O-contiguous chunk (privileged); iterate to build an
   * IOBL.
   * Spec: Ch. 6 it_mem_map() p. 166, L5450.
   * Throws: NO_PERMISSION, FAULT, INVALID_IA, IA_CATASTROPHE.
   * iWARP: applicable (privileged Consumers only).
   */
  it_mem_map(
    ia_handle: it_ia_handle_t,
    vaddr: Uint8Array | it_vaddr_t,
    aspace_id: bigint,
    len: number,
  ): { readonly io_addr: it_io_addr_t; readonly mapped_len: number };

  /**
   * Undo an `it_mem_map` (values must match the map).
   * Spec: Ch. 6 it_mem_unmap() p. 168, L5501.
   * Throws: NO_PERMISSION, FAULT, INVALID_IA, IA_CATASTROPHE.
   * iWARP: applicable (privileged Consumers only).
   */
  it_mem_unmap(ia_handle: it_ia_handle_t, io_addr: it_io_addr_t, mapped_len: number): void;

  // ---- Data Transfer Operations ------------------------------------------------------------

  /**
   * Post an Atomic (Compare-and-Swap / Fetch-and-Add) on a remote 8-byte target; the prior value
   * lands in `result`.
   * Spec: Ch. 6 it_post_atomic() p. 169, L5536.
   * Throws: INVALID_EP_STATE, INVALID_DTO_FLAGS, INVALID_ATOMIC_OP, INVALID_EP, INVALID_EP_TYPE,
   * TOO_MANY_POSTS, IA_CATASTROPHE.
   * iWARP: the page says "Atomics are not supported on the iWARP Transport" (L5697); softrdma
   * carries them with RFC 7306 towards peers that negotiated it (`atomic_support` = true); towards
   * another peer the WR completes with `IT_DTO_ERR_LOCAL_EP` and nothing goes on the wire.
   */
  it_post_atomic(
    ep_handle: it_ep_handle_t,
    op: it_atomic_op_t,
    swap_or_add: bigint,
    compare: bigint,
    result: it_lmr_triplet_t,
    cookie: it_dto_cookie_t,
    dto_flags: it_dto_flags_t,
    rdma_addr: it_rdma_addr_t,
    rmr_context: it_rmr_context_t,
  ): void;

  /**
   * Post an RDMA Read from `(rdma_addr, rmr_context)` into local LMR segments.
   * Spec: Ch. 6 it_post_rdma_read() p. 175, L5755.
   * Throws: INVALID_EP_STATE, INVALID_DTO_FLAGS, INVALID_EP, INVALID_EP_TYPE,
   * INVALID_NUM_SEGMENTS, TOO_MANY_POSTS, IA_CATASTROPHE.
   * iWARP: applicable (sink needs REMOTE_WRITE and an EP with `rdma_write_enable`).
   */
  it_post_rdma_read(
    ep_handle: it_ep_handle_t,
    local_segments: readonly it_lmr_triplet_t[],
    cookie: it_dto_cookie_t,
    dto_flags: it_dto_flags_t,
    rdma_addr: it_rdma_addr_t,
    rmr_context: it_rmr_context_t,
  ): void;

  /**
   * Post an RDMA Read whose sink is local RMR segments (iWARP extension).
   * Spec: Ch. 6 it_post_rdma_read_to_rmr() p. 181, L5981.
   * Throws: INVALID_EP_STATE, INVALID_DTO_FLAGS, INVALID_EP, INVALID_EP_TYPE,
   * INVALID_NUM_SEGMENTS, OP_NOT_SUPPORTED, TOO_MANY_POSTS, IA_CATASTROPHE.
   * iWARP: optional, iWARP-only (`rdma_read_local_extensions`).
   */
  it_post_rdma_read_to_rmr(
    ep_handle: it_ep_handle_t,
    local_segments: readonly it_rmr_triplet_t[],
    cookie: it_dto_cookie_t,
    dto_flags: it_dto_flags_t,
    rdma_addr: it_rdma_addr_t,
    rmr_context: it_rmr_context_t,
  ): void;

  /**
   * Post an RDMA Write of local LMR segments to `(rdma_addr, rmr_context)`.
   * Spec: Ch. 6 it_post_rdma_write() p. 187, L6202.
   * Throws: INVALID_EP_STATE, INVALID_DTO_FLAGS, INVALID_EP, INVALID_EP_TYPE,
   * INVALID_NUM_SEGMENTS, TOO_MANY_POSTS, IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_post_rdma_write(
    ep_handle: it_ep_handle_t,
    local_segments: readonly it_lmr_triplet_t[],
    cookie: it_dto_cookie_t,
    dto_flags: it_dto_flags_t,
    rdma_addr: it_rdma_addr_t,
    rmr_context: it_rmr_context_t,
  ): void;

  /**
   * Post a Receive to an RC Endpoint (any state; flushed in NONOPERATIONAL) or to an S-RQ.
   * `IT_COMPLETION_FLAG` is mandatory.
   * Spec: Ch. 6 it_post_recv() p. 192, L6404.
   * Throws: INVALID_DTO_FLAGS, INVALID_EP, INVALID_EP_TYPE, INVALID_NUM_SEGMENTS, INVALID_SRQ (EP
   * uses an S-RQ), TOO_MANY_POSTS, IA_CATASTROPHE (never INVALID_EP_STATE).
   * iWARP: applicable.
   */
  it_post_recv(
    handle: it_ep_handle_t | it_srq_handle_t,
    local_segments: readonly it_lmr_triplet_t[],
    cookie: it_dto_cookie_t,
    dto_flags: it_dto_flags_t,
  ): void;

  /**
   * Post a Receive to a UD Endpoint (first 40 bytes reserved for an IB GRH).
   * Spec: Ch. 6 it_post_recvfrom() p. 197, L6598.
   * Throws: INVALID_DTO_FLAGS, INVALID_EP, INVALID_EP_TYPE, INVALID_NUM_SEGMENTS, TOO_MANY_POSTS,
   * IA_CATASTROPHE.
   * iWARP: not applicable → `IT_ERR_INVALID_EP_TYPE` (every iWARP EP is RC).
   */
  it_post_recvfrom(
    ep_handle: it_ep_handle_t,
    local_segments: readonly it_lmr_triplet_t[],
    cookie: it_dto_cookie_t,
    dto_flags: it_dto_flags_t,
  ): void;

  /**
   * Post a Send of local LMR segments (zero segments allowed: consumes a remote Receive).
   * Spec: Ch. 6 it_post_send() p. 201, L6731.
   * Throws: INVALID_EP_STATE, INVALID_DTO_FLAGS, INVALID_EP, INVALID_EP_TYPE,
   * INVALID_NUM_SEGMENTS, TOO_MANY_POSTS, INVALID_LMR (Direct LMR without support),
   * IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_post_send(
    ep_handle: it_ep_handle_t,
    local_segments: readonly it_lmr_triplet_t[],
    cookie: it_dto_cookie_t,
    dto_flags: it_dto_flags_t,
  ): void;

  /**
   * Post a Send that, once its data is placed, unlinks the remote LMR/RMR named by `rmr_context`
   * (iWARP Send with Invalidate).
   * Spec: Ch. 6 it_post_send_and_unlink() p. 206, L6926.
   * Throws: INVALID_EP_STATE, INVALID_DTO_FLAGS, INVALID_EP, INVALID_EP_TYPE,
   * INVALID_NUM_SEGMENTS, TOO_MANY_POSTS, INVALID_LMR, IA_CATASTROPHE; binding adds
   * OP_NOT_SUPPORTED when `post_send_unlink_remote_support` is false.
   * iWARP: optional (`post_send_unlink_remote_support`).
   */
  it_post_send_and_unlink(
    ep_handle: it_ep_handle_t,
    local_segments: readonly it_lmr_triplet_t[],
    cookie: it_dto_cookie_t,
    dto_flags: it_dto_flags_t,
    rmr_context: it_rmr_context_t,
  ): void;

  /**
   * Post a datagram Send to `remote_ep_addr` (Address Handle + remote UD EP id/key).
   * Spec: Ch. 6 it_post_sendto() p. 212, L7147.
   * Throws: INVALID_AH, INVALID_DTO_FLAGS, INVALID_EP, INVALID_EP_TYPE, INVALID_NUM_SEGMENTS,
   * TOO_MANY_POSTS, INVALID_LMR, IA_CATASTROPHE.
   * iWARP: not applicable → `IT_ERR_INVALID_EP_TYPE` (every iWARP EP is RC).
   */
  it_post_sendto(
    ep_handle: it_ep_handle_t,
    local_segments: readonly it_lmr_triplet_t[],
    cookie: it_dto_cookie_t,
    dto_flags: it_dto_flags_t,
    remote_ep_addr: it_dg_remote_ep_addr_t,
  ): void;

  // ---- Protection Zones --------------------------------------------------------------------

  /**
   * Create a Protection Zone.
   * Spec: Ch. 6 it_pz_create() p. 216, L7288.
   * Throws: RESOURCES, INVALID_IA, IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_pz_create(ia_handle: it_ia_handle_t): it_pz_handle_t;

  /**
   * Free a Protection Zone.
   * Spec: Ch. 6 it_pz_free() p. 217, L7322.
   * Throws: INVALID_PZ, PZ_BUSY (an EP, LMR, RMR, AH — and, softrdma, an S-RQ — uses it),
   * IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_pz_free(pz_handle: it_pz_handle_t): void;

  /**
   * Query Protection Zone parameters (its IA).
   * Spec: Ch. 6 it_pz_query() p. 218, L7346.
   * Throws: INVALID_PZ, INVALID_MASK, IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_pz_query(pz_handle: it_pz_handle_t, mask: it_pz_param_mask_t): ItParamsPartial<it_pz_param_t>;

  // ---- Connection rejection ----------------------------------------------------------------

  /**
   * Reject a connection request (passive) or, 3-way, an ACCEPT_ARRIVAL (active); the peer gets
   * `IT_CM_MSG_CONN_PEER_REJECT_EVENT` with `private_data`. Consumes `cn_est_id`.
   * Spec: Ch. 6 it_reject() p. 219, L7385.
   * Throws: INVALID_CN_EST_ID, PDATA_NOT_SUPPORTED, INVALID_PDATA_LENGTH, IA_CATASTROPHE.
   * iWARP: applicable (MPA Reply with the Reject bit).
   */
  it_reject(cn_est_id: it_cn_est_identifier_t, private_data: Uint8Array | null): void;

  // ---- Remote Memory Regions ---------------------------------------------------------------

  /**
   * Create an unlinked RMR (memory window) of type Narrow, Wide or implementation default.
   * Spec: Ch. 6 it_rmr_create() p. 221, L7453 (v2.0 signature, `it_rmr_create20`).
   * Throws: INVALID_PZ, INVALID_RMR_TYPE, RESOURCES, IA_CATASTROPHE.
   * iWARP: applicable (Narrow at least).
   */
  it_rmr_create(pz_handle: it_pz_handle_t, rmr_type: it_rmr_type_t): it_rmr_handle_t;

  /**
   * Free an RMR (never busy); destroys any linking and its context.
   * Spec: Ch. 6 it_rmr_free() p. 223, L7522.
   * Throws: INVALID_RMR, IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_rmr_free(rmr_handle: it_rmr_handle_t): void;

  /**
   * Post an RMR Link WR binding the window `[addr, addr+length)` of an Absolute LMR; returns the
   * new RMR Context at once (usable remotely after `IT_RMR_LINK_CMPL_EVENT`). Fences later SQ WRs.
   * Spec: Ch. 6 it_rmr_link() p. 224, L7557.
   * Throws: INVALID_EP_STATE, ADDRESS, INVALID_ADDR_MODE, INVALID_DTO_FLAGS, INVALID_EP,
   * INVALID_EP_TYPE, INVALID_LENGTH, INVALID_LMR, INVALID_PRIVS, INVALID_RMR, TOO_MANY_POSTS,
   * IA_CATASTROPHE.
   * iWARP: applicable (Bind MW WR).
   */
  it_rmr_link(
    rmr_handle: it_rmr_handle_t,
    lmr_handle: it_lmr_handle_t,
    addr: Uint8Array | it_vaddr_t,
    length: it_length_t,
    addr_mode: it_addr_mode_t,
    privs: it_mem_priv_t,
    ep_handle: it_ep_handle_t,
    cookie: it_dto_cookie_t,
    dto_flags: it_dto_flags_t,
  ): it_rmr_context_t;

  /**
   * Query RMR parameters selected by `mask`.
   * Spec: Ch. 6 it_rmr_query() p. 230, L7772.
   * Throws: INVALID_MASK, INVALID_RMR, IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_rmr_query(rmr_handle: it_rmr_handle_t, mask: it_rmr_param_mask_t): ItParamsPartial<it_rmr_param_t>;

  /**
   * Post an RMR Unlink WR (CONNECTED RC EP); all later SQ WRs wait for it.
   * Spec: Ch. 6 it_rmr_unlink() p. 232, L7855.
   * Throws: INVALID_EP_STATE, INVALID_DTO_FLAGS, INVALID_EP, INVALID_EP_TYPE, INVALID_RMR,
   * TOO_MANY_POSTS, IA_CATASTROPHE.
   * iWARP: applicable (Invalidate MW).
   */
  it_rmr_unlink(rmr_handle: it_rmr_handle_t, ep_handle: it_ep_handle_t, cookie: it_dto_cookie_t, dto_flags: it_dto_flags_t): void;

  // ---- Contexts and socket conversion ------------------------------------------------------

  /**
   * Set (replace) a handle's Consumer Context; `null` or `0n` disassociates.
   * Spec: Ch. 6 it_set_consumer_context() p. 236, L7979.
   * Throws: INVALID_HANDLE, IA_CATASTROPHE.
   * iWARP: applicable.
   */
  it_set_consumer_context(handle: it_handle_t, context: it_context_t): void;

  /**
   * Convert a connected, quiesced TCP socket into a connected RC Endpoint (TDI). `msg` non-empty
   * = Conversion Initiator (sends `msg` as the last streaming-mode message; passive EP states);
   * `msg` null = Conversion Responder (active EP states). Outcome: ESTABLISHED with IRD = ORD = 0.
   * Spec: Ch. 6 it_socket_convert() p. 237, L8013.
   * Throws: OP_NOT_SUPPORTED (non-TCP socket or no `socket_conversion_support`), RESOURCES,
   * INVALID_SD, INVALID_SD_STATE (softrdma codes 109, 110), INVALID_EP, INVALID_EP_STATE,
   * INVALID_EP_TYPE, INVALID_FLAGS, IA_CATASTROPHE.
   * iWARP: iWARP-only.
   */
  it_socket_convert(sd: it_socket_t, ep_handle: it_ep_handle_t, flags: it_sc_flags_t, msg: Uint8Array | null): void;

  // ---- Shared Receive Queues ---------------------------------------------------------------

  /**
   * Create an S-RQ (RC only) with at least the requested capacities.
   * Spec: Ch. 6 it_srq_create() p. 245, L8201.
   * Throws: INVALID_PZ, SRQ_NOT_SUPPORTED, RESOURCES, RESOURCE_RECV_DTO, RESOURCE_RSEG,
   * IA_CATASTROPHE.
   * iWARP: optional (`srq_support`).
   */
  it_srq_create(pz_handle: it_pz_handle_t, max_recv_segments: number, max_recv_dtos: number): it_srq_handle_t;

  /**
   * Free an S-RQ (outstanding Receives have completed or never will).
   * Spec: Ch. 6 it_srq_free() p. 248, L8300.
   * Throws: INVALID_SRQ, SRQ_BUSY, IA_CATASTROPHE.
   * iWARP: optional (`srq_support`).
   */
  it_srq_free(srq_handle: it_srq_handle_t): void;

  /**
   * Resize an S-RQ (`srq_resizable`) and/or (re-)arm its low watermark (atomic).
   * Spec: Ch. 6 it_srq_modify() p. 249, L8335.
   * Throws: INVALID_SRQ, INVALID_MASK, RESOURCES, INVALID_SRQ_SIZE, SRQ_LOW_WATERMARK,
   * IA_CATASTROPHE.
   * iWARP: optional (`srq_support`).
   */
  it_srq_modify(srq_handle: it_srq_handle_t, mask: it_srq_param_mask_t, params: ItParamsPartial<it_srq_param_t>): void;

  /**
   * Query S-RQ parameters selected by `mask`.
   * Spec: Ch. 6 it_srq_query() p. 251, L8417.
   * Throws: INVALID_SRQ, INVALID_MASK, IA_CATASTROPHE.
   * iWARP: optional (`srq_support`).
   */
  it_srq_query(srq_handle: it_srq_handle_t, mask: it_srq_param_mask_t): ItParamsPartial<it_srq_param_t>;

  // ---- UD service resolution (IB only) -----------------------------------------------------

  /**
   * Answer an `IT_CM_REQ_UD_SERVICE_REQUEST_EVENT` (consumes `ud_svc_req_id`).
   * Spec: Ch. 6 it_ud_service_reply() p. 253, L8476.
   * Throws: PDATA_NOT_SUPPORTED, INVALID_PDATA_LENGTH, INVALID_UD_SVC_REQ_ID, INVALID_UD_STATUS,
   * IA_CATASTROPHE.
   * iWARP: not applicable → `IT_ERR_INVALID_UD_SVC_REQ_ID` (no request id can exist).
   */
  it_ud_service_reply(
    ud_svc_req_id: it_ud_svc_req_identifier_t,
    status: it_ud_svc_req_status_t,
    ep_info: it_remote_ep_info_t,
    private_data: Uint8Array | null,
  ): void;

  /**
   * Send (or resend) a UD service resolution request; the reply arrives as
   * `IT_CM_MSG_UD_SERVICE_REPLY_EVENT`.
   * Spec: Ch. 6 it_ud_service_request() p. 256, L8562.
   * Throws: INVALID_UD_SVC, IA_CATASTROPHE.
   * iWARP: not applicable → `IT_ERR_INVALID_UD_SVC` (no handle can exist).
   */
  it_ud_service_request(ud_svc_handle: it_ud_svc_req_handle_t): void;

  /**
   * Create a UD Service Request Handle (qualifier, CM_MSG reply SEVD, path, private data).
   * Spec: Ch. 6 it_ud_service_request_handle_create() p. 259, L8624.
   * Throws: INVALID_CONN_EVD, INVALID_EVD_TYPE, PDATA_NOT_SUPPORTED, INVALID_PDATA_LENGTH,
   * INVALID_CONN_QUAL, INVALID_SOURCE_PATH, INVALID_SPIGOT, RESOURCES, IA_CATASTROPHE.
   * iWARP: not applicable → `IT_ERR_OP_NOT_SUPPORTED` (binding choice).
   */
  it_ud_service_request_handle_create(
    conn_qual: it_conn_qual_t,
    reply_evd: it_evd_handle_t,
    destination_path: it_path_t,
    private_data: Uint8Array | null,
  ): it_ud_svc_req_handle_t;

  /**
   * Free a UD Service Request Handle (later replies are dropped).
   * Spec: Ch. 6 it_ud_service_request_handle_free() p. 262, L8715.
   * Throws: INVALID_UD_SVC, IA_CATASTROPHE.
   * iWARP: not applicable → `IT_ERR_INVALID_UD_SVC`.
   */
  it_ud_service_request_handle_free(ud_svc_handle: it_ud_svc_req_handle_t): void;

  /**
   * Query UD Service Request Handle parameters selected by `mask`.
   * Spec: Ch. 6 it_ud_service_request_handle_query() p. 263, L8748.
   * Throws: INVALID_UD_SVC, INVALID_MASK, IA_CATASTROPHE.
   * iWARP: not applicable → `IT_ERR_INVALID_UD_SVC`.
   */
  it_ud_service_request_handle_query(
    ud_svc_handle: it_ud_svc_req_handle_t,
    mask: it_ud_svc_req_param_mask_t,
  ): ItParamsPartial<it_ud_svc_req_param_t>;
}

/** The name of an IT-API function (a key of {@link ItApi}). */
export type ItFunctionName = keyof ItApi;

// =============================================================================================
// Machine-readable function table
// =============================================================================================

/**
 * How a function applies to softrdma's iWARP IA:
 * - `core`: always available on iWARP.
 * - `optional`: gated by an `it_ia_info_t` attribute or by Consumer privilege (see `gate`).
 * - `iwarp-only`: exists only for iWARP (still possibly gated).
 * - `not-applicable`: IB/VIA-only; the iWARP IA throws `iwarpStatus`.
 */
export type ItIwarpApplicability = 'core' | 'optional' | 'iwarp-only' | 'not-applicable';

/** Functional group of a function (for documentation). */
export type ItFunctionGroup = 'IA' | 'PZ' | 'EVD' | 'EP' | 'CM' | 'TDI' | 'UD' | 'LMR' | 'RMR' | 'SRQ' | 'DTO';

/** Reference-page facts about one IT-API function. */
export interface ItFunctionInfo {
  readonly group: ItFunctionGroup;
  /** Printed page of the reference page (spec TOC). */
  readonly page: number;
  /** Spec printed line of the page's NAME entry; `null` where the page text is missing. */
  readonly line: number | null;
  /** Statuses the page's RETURN VALUE section lists, in page order (`IT_SUCCESS` implied). */
  readonly returns: readonly S[];
  /** Subset of `returns` that is a normal outcome (returned in `{ status }`, not thrown). */
  readonly normal: readonly S[];
  /** Statuses the binding may throw beyond the page list (feature gates; see `iwarpStatus`). */
  readonly added: readonly S[];
  readonly iwarp: ItIwarpApplicability;
  /** Attribute or privilege that gates the call. */
  readonly gate?: string;
  /** What softrdma's iWARP IA throws when the call does not apply or its gate is closed. */
  readonly iwarpStatus?: S;
  /** Returns a Promise (may wait on remote events). */
  readonly async: boolean;
  /** No `it_status_t` at all in C (`void` / value-returning). */
  readonly noStatus?: true;
  /** One-line semantics. */
  readonly summary: string;
}

const CAT = S.IT_ERR_IA_CATASTROPHE;
const POST_COMMON = [S.IT_ERR_INVALID_EP_STATE, S.IT_ERR_INVALID_DTO_FLAGS, S.IT_ERR_INVALID_EP, S.IT_ERR_INVALID_EP_TYPE] as const;

/**
 * Every IT-API 2.1 function (78 reference pages, 79 functions: `it_ntoh64` shares `it_hton64`'s
 * page), in reference-page order. Status lists are the pages' RETURN VALUE sections (checked
 * against the spec text); `it_get_handle_type` is inferred (page missing).
 */
export const IT_API_FUNCTIONS: { readonly [K in ItFunctionName]: ItFunctionInfo } = {
  it_address_handle_create: {
    group: 'UD',
    page: 49,
    line: 1553,
    returns: [
      S.IT_ERR_RESOURCES,
      S.IT_ERR_INVALID_PZ,
      S.IT_ERR_INVALID_FLAGS,
      S.IT_ERR_NO_PERMISSION,
      S.IT_ERR_INVALID_SOURCE_PATH,
      S.IT_ERR_INVALID_SPIGOT,
      CAT,
    ],
    normal: [],
    added: [S.IT_ERR_OP_NOT_SUPPORTED],
    iwarp: 'not-applicable',
    gate: 'supported_service_types & IT_UD_SERVICE',
    iwarpStatus: S.IT_ERR_OP_NOT_SUPPORTED,
    async: false,
    summary: 'Create a UD Address Handle for a destination path.',
  },
  it_address_handle_free: {
    group: 'UD',
    page: 52,
    line: 1634,
    returns: [S.IT_ERR_INVALID_AH, CAT],
    normal: [],
    added: [],
    iwarp: 'not-applicable',
    iwarpStatus: S.IT_ERR_INVALID_AH,
    async: false,
    summary: 'Free a UD Address Handle.',
  },
  it_address_handle_modify: {
    group: 'UD',
    page: 53,
    line: 1661,
    returns: [
      S.IT_ERR_INVALID_AH,
      S.IT_ERR_INVALID_MASK,
      S.IT_ERR_NO_PERMISSION,
      S.IT_ERR_INVALID_SOURCE_PATH,
      S.IT_ERR_INVALID_SPIGOT,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'not-applicable',
    iwarpStatus: S.IT_ERR_INVALID_AH,
    async: false,
    summary: "Replace an Address Handle's path.",
  },
  it_address_handle_query: {
    group: 'UD',
    page: 55,
    line: 1715,
    returns: [S.IT_ERR_INVALID_AH, S.IT_ERR_INVALID_MASK, CAT],
    normal: [],
    added: [],
    iwarp: 'not-applicable',
    iwarpStatus: S.IT_ERR_INVALID_AH,
    async: false,
    summary: 'Query an Address Handle (IA, PZ, path).',
  },
  it_convert_net_addr: {
    group: 'IA',
    page: 57,
    line: 1760,
    returns: [S.IT_ERR_INVALID_ADDRESS, S.IT_ERR_INVALID_NETADDR, S.IT_ERR_INVALID_CONVERSION, S.IT_ERR_INTERRUPT, CAT],
    normal: [S.IT_ERR_INTERRUPT],
    added: [],
    iwarp: 'core',
    async: true,
    summary: 'Convert a network address to another type (may block).',
  },
  it_ep_accept: {
    group: 'CM',
    page: 59,
    line: 1814,
    returns: [
      S.IT_ERR_PDATA_NOT_SUPPORTED,
      S.IT_ERR_INVALID_PDATA_LENGTH,
      S.IT_ERR_INVALID_EP,
      S.IT_ERR_INVALID_EP_STATE,
      S.IT_ERR_INVALID_EP_TYPE,
      S.IT_ERR_INVALID_CN_EST_ID,
      S.IT_ERR_INVALID_EP_ATTR,
      S.IT_ERR_EP_TIMEWAIT,
      CAT,
    ],
    normal: [S.IT_ERR_EP_TIMEWAIT],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Accept a connection request (or, 3-way, an ACCEPT_ARRIVAL); consumes cn_est_id.',
  },
  it_ep_connect: {
    group: 'CM',
    page: 62,
    line: 1919,
    returns: [
      S.IT_ERR_NO_PERMISSION,
      S.IT_ERR_RESOURCES,
      S.IT_ERR_INVALID_CONN_QUAL,
      S.IT_ERR_PDATA_NOT_SUPPORTED,
      S.IT_ERR_INVALID_PDATA_LENGTH,
      S.IT_ERR_INVALID_SOURCE_PATH,
      S.IT_ERR_INVALID_SPIGOT,
      S.IT_ERR_INVALID_EP,
      S.IT_ERR_INVALID_EP_STATE,
      S.IT_ERR_INVALID_EP_TYPE,
      S.IT_ERR_INVALID_CN_EST_FLAGS,
      S.IT_ERR_INVALID_RTIMEOUT,
      S.IT_ERR_INVALID_LTIMEOUT,
      S.IT_ERR_INVALID_RETRY,
      S.IT_ERR_INVALID_RNR_RETRY,
      S.IT_ERR_INVALID_CM_RETRY,
      S.IT_ERR_INVALID_ETIMEOUT,
      S.IT_ERR_INVALID_IANA_LR_PORT,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Start active connection establishment (UNCONNECTED → ACTIVE1).',
  },
  it_ep_disconnect: {
    group: 'CM',
    page: 68,
    line: 2142,
    returns: [
      S.IT_ERR_INVALID_EP_STATE,
      S.IT_ERR_INVALID_EP,
      S.IT_ERR_INVALID_EP_TYPE,
      S.IT_ERR_PDATA_NOT_SUPPORTED,
      S.IT_ERR_INVALID_PDATA_LENGTH,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Abortive disconnect: EP → NONOPERATIONAL, DISCONNECT event, pending WRs flushed.',
  },
  it_ep_free: {
    group: 'EP',
    page: 70,
    line: 2217,
    returns: [S.IT_ERR_INVALID_EP, S.IT_ERR_EP_BUSY, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Free an Endpoint in any state (EP_BUSY while a Narrow RMR is linked through it).',
  },
  it_ep_modify: {
    group: 'EP',
    page: 72,
    line: 2296,
    returns: [
      S.IT_ERR_INVALID_EP,
      S.IT_ERR_INVALID_MASK,
      S.IT_ERR_INVALID_EP_STATE,
      S.IT_ERR_INVALID_EP_TYPE,
      S.IT_ERR_PAYLOAD_SIZE,
      S.IT_ERR_RESOURCE_REQ_DTO,
      S.IT_ERR_RESOURCE_RECV_DTO,
      S.IT_ERR_RESOURCE_IRD,
      S.IT_ERR_RESOURCE_ORD,
      S.IT_ERR_INVALID_EP_KEY,
      S.IT_ERR_SOFT_HI_WATERMARK,
      S.IT_ERR_INVALID_WATERMARK,
      S.IT_ERR_HARD_HI_WATERMARK,
      S.IT_ERR_INVALID_RECV_DTO,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Modify mask-selected Endpoint attributes atomically (per-attribute state rules).',
  },
  it_ep_query: {
    group: 'EP',
    page: 74,
    line: 2374,
    returns: [S.IT_ERR_INVALID_EP, S.IT_ERR_INVALID_MASK, S.IT_ERR_INVALID_EP_TYPE, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Query mask-selected Endpoint parameters and attributes.',
  },
  it_ep_rc_create: {
    group: 'EP',
    page: 76,
    line: 2447,
    returns: [
      S.IT_ERR_INVALID_PZ,
      S.IT_ERR_INVALID_REQ_EVD,
      S.IT_ERR_INVALID_RECV_EVD,
      S.IT_ERR_INVALID_CONN_EVD,
      S.IT_ERR_INVALID_EVD_TYPE,
      S.IT_ERR_INVALID_REQ_EVD_STATE,
      S.IT_ERR_INVALID_RECV_EVD_STATE,
      S.IT_ERR_INVALID_FLAGS,
      S.IT_ERR_RESOURCES,
      S.IT_ERR_PAYLOAD_SIZE,
      S.IT_ERR_RESOURCE_REQ_DTO,
      S.IT_ERR_RESOURCE_RECV_DTO,
      S.IT_ERR_RESOURCE_SSEG,
      S.IT_ERR_RESOURCE_RSEG,
      S.IT_ERR_RESOURCE_RRSEG,
      S.IT_ERR_RESOURCE_RWSEG,
      S.IT_ERR_RESOURCE_IRD,
      S.IT_ERR_RESOURCE_ORD,
      S.IT_ERR_INVALID_SRQ,
      S.IT_ERR_SOFT_HI_WATERMARK,
      S.IT_ERR_INVALID_WATERMARK,
      S.IT_ERR_HARD_HI_WATERMARK,
      S.IT_ERR_PRIV_OPS_UNAVAILABLE,
      S.IT_ERR_NO_PERMISSION,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Create an RC Endpoint (UNCONNECTED) with request/recv DTO SEVDs and a CM_MSG SEVD.',
  },
  it_ep_reset: {
    group: 'EP',
    page: 81,
    line: 2622,
    returns: [S.IT_ERR_INVALID_EP, S.IT_ERR_INVALID_EP_STATE, S.IT_ERR_INVALID_EP_TYPE, S.IT_ERR_CANNOT_RESET, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'NONOPERATIONAL → UNCONNECTED, attributes kept (not after DTO-SEVD overflow).',
  },
  it_ep_ud_create: {
    group: 'UD',
    page: 82,
    line: 2660,
    returns: [
      S.IT_ERR_INVALID_PZ,
      S.IT_ERR_INVALID_REQ_EVD,
      S.IT_ERR_INVALID_RECV_EVD,
      S.IT_ERR_INVALID_EVD_TYPE,
      S.IT_ERR_INVALID_REQ_EVD_STATE,
      S.IT_ERR_INVALID_RECV_EVD_STATE,
      S.IT_ERR_INVALID_SPIGOT,
      S.IT_ERR_RESOURCES,
      S.IT_ERR_PAYLOAD_SIZE,
      S.IT_ERR_RESOURCE_REQ_DTO,
      S.IT_ERR_RESOURCE_RECV_DTO,
      S.IT_ERR_RESOURCE_SSEG,
      S.IT_ERR_RESOURCE_RSEG,
      S.IT_ERR_INVALID_EP_KEY,
      S.IT_ERR_PRIV_OPS_UNAVAILABLE,
      S.IT_ERR_NO_PERMISSION,
      CAT,
    ],
    normal: [],
    added: [S.IT_ERR_OP_NOT_SUPPORTED],
    iwarp: 'not-applicable',
    gate: 'supported_service_types & IT_UD_SERVICE',
    iwarpStatus: S.IT_ERR_OP_NOT_SUPPORTED,
    async: false,
    summary: 'Create a UD Endpoint (UD_OPERATIONAL) on a Spigot.',
  },
  it_evd_callback_attach: {
    group: 'EVD',
    page: 85,
    line: 2754,
    returns: [S.IT_ERR_INVALID_EVD, S.IT_ERR_CALLBACK_EXISTS, S.IT_ERR_EVD_WAIT, S.IT_ERR_NO_PERMISSION, S.IT_ERR_INVALID_EVD_STATE, CAT],
    normal: [],
    added: [],
    iwarp: 'optional',
    gate: 'Privileged Consumer',
    iwarpStatus: S.IT_ERR_NO_PERMISSION,
    async: false,
    summary: 'Attach an edge-triggered EVD callback (privileged).',
  },
  it_evd_callback_detach: {
    group: 'EVD',
    page: 88,
    line: 2857,
    returns: [S.IT_ERR_INVALID_EVD, S.IT_ERR_INVALID_EVD_STATE, S.IT_ERR_NO_PERMISSION, CAT],
    normal: [],
    added: [],
    iwarp: 'optional',
    gate: 'Privileged Consumer',
    iwarpStatus: S.IT_ERR_NO_PERMISSION,
    async: false,
    summary: "Detach the EVD's callback (privileged).",
  },
  it_evd_create: {
    group: 'EVD',
    page: 89,
    line: 2894,
    returns: [
      S.IT_ERR_INVALID_IA,
      S.IT_ERR_INVALID_EVD_TYPE,
      S.IT_ERR_INVALID_FLAGS,
      S.IT_ERR_RESOURCE_QUEUE_SIZE,
      S.IT_ERR_INVALID_THRESHOLD,
      S.IT_ERR_INVALID_AEVD,
      S.IT_ERR_RESOURCES,
      S.IT_ERR_MISMATCH_FD,
      S.IT_ERR_AEVD_NOT_ALLOWED,
      S.IT_ERR_ASYNC_AFF_EVD_EXISTS,
      S.IT_ERR_ASYNC_UNAFF_EVD_EXISTS,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Create an SEVD for one event stream, or an AEVD; optional AEVD link or fd.',
  },
  it_evd_dequeue: {
    group: 'EVD',
    page: 100,
    line: 3278,
    returns: [S.IT_ERR_QUEUE_EMPTY, S.IT_ERR_INVALID_EVD, S.IT_ERR_INVALID_EVD_STATE, CAT],
    normal: [S.IT_ERR_QUEUE_EMPTY],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Dequeue the head event without blocking.',
  },
  it_evd_free: {
    group: 'EVD',
    page: 102,
    line: 3345,
    returns: [S.IT_ERR_INVALID_EVD, S.IT_ERR_EVD_BUSY, S.IT_ERR_INVALID_EVD_STATE, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Free an EVD and drop its events (EVD_BUSY while a stream feeds it).',
  },
  it_evd_modify: {
    group: 'EVD',
    page: 104,
    line: 3398,
    returns: [
      S.IT_ERR_INVALID_EVD,
      S.IT_ERR_INVALID_MASK,
      S.IT_ERR_INVALID_EVD_STATE,
      S.IT_ERR_RESOURCE_QUEUE_SIZE,
      S.IT_ERR_INVALID_QUEUE_SIZE,
      S.IT_ERR_INVALID_THRESHOLD,
      S.IT_ERR_INVALID_AEVD,
      S.IT_ERR_RESOURCES,
      S.IT_ERR_CALLBACK_EXISTS,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Modify queue size, threshold, AEVD link, enable state; clear overflow.',
  },
  it_evd_post_se: {
    group: 'EVD',
    page: 107,
    line: 3520,
    returns: [S.IT_ERR_EVD_QUEUE_FULL, S.IT_ERR_INVALID_EVD, S.IT_ERR_INVALID_SOFT_EVD, CAT],
    normal: [S.IT_ERR_EVD_QUEUE_FULL],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Post a Software Event (always a Notification) on a SOFTWARE SEVD.',
  },
  it_evd_query: {
    group: 'EVD',
    page: 109,
    line: 3560,
    returns: [S.IT_ERR_INVALID_EVD, S.IT_ERR_INVALID_MASK, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Query mask-selected EVD parameters.',
  },
  it_evd_wait: {
    group: 'EVD',
    page: 111,
    line: 3641,
    returns: [
      S.IT_ERR_WAITER_LIMIT,
      S.IT_ERR_INVALID_EVD,
      S.IT_ERR_INVALID_EVD_STATE,
      S.IT_ERR_ABORT,
      S.IT_ERR_INTERRUPT,
      S.IT_ERR_TIMEOUT_EXPIRED,
      S.IT_ERR_CALLBACK_EXISTS,
      CAT,
    ],
    normal: [S.IT_ERR_TIMEOUT_EXPIRED, S.IT_ERR_INTERRUPT, S.IT_ERR_ABORT],
    added: [],
    iwarp: 'core',
    async: true,
    summary: 'Block (µs timeout) until Notification criteria, then dequeue one event.',
  },
  it_get_consumer_context: {
    group: 'IA',
    page: 115,
    line: 3792,
    returns: [S.IT_ERR_INVALID_HANDLE, S.IT_ERR_NO_CONTEXT, CAT],
    normal: [S.IT_ERR_NO_CONTEXT],
    added: [],
    iwarp: 'core',
    async: false,
    summary: "Get a handle's Consumer Context (NO_CONTEXT with context 0 if unset).",
  },
  it_get_handle_type: {
    group: 'IA',
    page: 116,
    line: null,
    returns: [S.IT_ERR_INVALID_HANDLE, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Report the class (IT_HANDLE_TYPE_*) of a handle. Page missing; statuses inferred.',
  },
  it_get_pathinfo: {
    group: 'IA',
    page: 117,
    line: 3851,
    returns: [S.IT_ERR_INVALID_IA, S.IT_ERR_INVALID_SPIGOT, S.IT_ERR_INVALID_ADDRESS, S.IT_ERR_INVALID_NETADDR, S.IT_ERR_INTERRUPT, CAT],
    normal: [S.IT_ERR_INTERRUPT],
    added: [],
    iwarp: 'core',
    async: true,
    summary: 'Resolve paths from a Spigot to a network address (may block).',
  },
  it_handoff: {
    group: 'CM',
    page: 120,
    line: 3937,
    returns: [S.IT_ERR_INVALID_CN_EST_ID, S.IT_ERR_INVALID_CONN_QUAL, S.IT_ERR_INVALID_SPIGOT, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Forward a pending connection request to another Listen of the same IA.',
  },
  it_hton64: {
    group: 'IA',
    page: 122,
    line: 3982,
    returns: [],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    noStatus: true,
    summary: '64-bit host → network byte order.',
  },
  it_ntoh64: {
    group: 'IA',
    page: 122,
    line: 3982,
    returns: [],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    noStatus: true,
    summary: '64-bit network → host byte order (it_hton64 page).',
  },
  it_ia_create: {
    group: 'IA',
    page: 123,
    line: 4017,
    returns: [S.IT_ERR_RESOURCES, S.IT_ERR_INVALID_NAME, S.IT_ERR_INVALID_MAJOR_VERSION, S.IT_ERR_INVALID_MINOR_VERSION],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Open an Interface Adapter by name and API version.',
  },
  it_ia_free: {
    group: 'IA',
    page: 125,
    line: 4071,
    returns: [S.IT_ERR_INVALID_IA, S.IT_ERR_INVALID_EVD_STATE],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Free an IA and all its objects; unblock its waiters.',
  },
  it_ia_info_free: {
    group: 'IA',
    page: 126,
    line: 4109,
    returns: [],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    noStatus: true,
    summary: 'Release an it_ia_info_t.',
  },
  it_ia_query: {
    group: 'IA',
    page: 127,
    line: 4138,
    returns: [S.IT_ERR_INVALID_IA, S.IT_ERR_RESOURCES, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: "Return the IA's attributes (it_ia_info_t).",
  },
  it_interface_list: {
    group: 'IA',
    page: 128,
    line: 4170,
    returns: [],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    noStatus: true,
    summary: 'Enumerate interfaces (bounded list plus total).',
  },
  it_listen_create: {
    group: 'CM',
    page: 131,
    line: 4283,
    returns: [
      S.IT_ERR_INVALID_CONN_QUAL,
      S.IT_ERR_CONN_QUAL_BUSY,
      S.IT_ERR_NO_PERMISSION,
      S.IT_ERR_RESOURCES,
      S.IT_ERR_INVALID_CONN_EVD,
      S.IT_ERR_INVALID_IA,
      S.IT_ERR_INVALID_SPIGOT,
      S.IT_ERR_INVALID_FLAGS,
      S.IT_ERR_INVALID_EVD_TYPE,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Create a Listen Point feeding a CM_REQ SEVD (backlog = its queue size).',
  },
  it_listen_free: {
    group: 'CM',
    page: 133,
    line: 4359,
    returns: [S.IT_ERR_INVALID_LISTEN, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Free a Listen Point (queued requests stay valid).',
  },
  it_listen_query: {
    group: 'CM',
    page: 134,
    line: 4384,
    returns: [S.IT_ERR_INVALID_LISTEN, S.IT_ERR_INVALID_MASK, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Query mask-selected Listen Point parameters.',
  },
  it_lmr_create: {
    group: 'LMR',
    page: 136,
    line: 4434,
    returns: [
      S.IT_ERR_ACCESS,
      S.IT_ERR_FAULT,
      S.IT_ERR_INVALID_ADDR_MODE,
      S.IT_ERR_INVALID_FLAGS,
      S.IT_ERR_INVALID_IOBL,
      S.IT_ERR_INVALID_LENGTH,
      S.IT_ERR_INVALID_PRIVS,
      S.IT_ERR_INVALID_PZ,
      S.IT_ERR_RESOURCES,
      S.IT_ERR_RESOURCE_LMR_LENGTH,
      S.IT_ERR_PRIV_OPS_UNAVAILABLE,
      S.IT_ERR_NO_PERMISSION,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Register memory (or an IOBL) as an LMR; RMR Context if remote privileges.',
  },
  it_lmr_create_unlinked: {
    group: 'LMR',
    page: 142,
    line: 4655,
    returns: [
      S.IT_ERR_INVALID_FLAGS,
      S.IT_ERR_INVALID_PZ,
      S.IT_ERR_OP_NOT_SUPPORTED,
      S.IT_ERR_NO_PERMISSION,
      S.IT_ERR_RESOURCE_IOBL_LENGTH,
      S.IT_ERR_RESOURCES,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'optional',
    gate: 'lmr_link_support; Privileged Consumer',
    iwarpStatus: S.IT_ERR_OP_NOT_SUPPORTED,
    async: false,
    summary: 'Allocate an unlinked LMR with room for N IOBL elements (privileged).',
  },
  it_lmr_flush_to_mem: {
    group: 'LMR',
    page: 145,
    line: 4744,
    returns: [S.IT_ERR_RANGE, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Flush CPU writes of non-coherent LMR segments (no-op if coherent).',
  },
  it_lmr_free: {
    group: 'LMR',
    page: 147,
    line: 4796,
    returns: [S.IT_ERR_INVALID_LMR, S.IT_ERR_LMR_BUSY, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Free an LMR and its RMR Context (LMR_BUSY while an RMR is linked).',
  },
  it_lmr_link: {
    group: 'LMR',
    page: 148,
    line: 4833,
    returns: [
      S.IT_ERR_INVALID_EP_STATE,
      S.IT_ERR_INVALID_ADDR_MODE,
      S.IT_ERR_INVALID_EP,
      S.IT_ERR_INVALID_EP_TYPE,
      S.IT_ERR_INVALID_DTO_FLAGS,
      S.IT_ERR_INVALID_IOBL,
      S.IT_ERR_INVALID_LMR,
      S.IT_ERR_INVALID_PRIVS,
      S.IT_ERR_OP_NOT_SUPPORTED,
      S.IT_ERR_RESOURCES,
      S.IT_ERR_TOO_MANY_POSTS,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'optional',
    gate: 'lmr_link_support; privileged EP',
    iwarpStatus: S.IT_ERR_OP_NOT_SUPPORTED,
    async: false,
    summary: 'Post an LMR Link WR (fast-register); context returned at once.',
  },
  it_lmr_modify: {
    group: 'LMR',
    page: 154,
    line: 5048,
    returns: [
      S.IT_ERR_ACCESS,
      S.IT_ERR_INVALID_LMR,
      S.IT_ERR_INVALID_MASK,
      S.IT_ERR_INVALID_PRIVS,
      S.IT_ERR_INVALID_PZ,
      S.IT_ERR_LMR_BUSY,
      S.IT_ERR_RESOURCES,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: "Change an LMR's PZ/privileges (most errors destroy the LMR).",
  },
  it_lmr_query: {
    group: 'LMR',
    page: 156,
    line: 5115,
    returns: [S.IT_ERR_INVALID_LMR, S.IT_ERR_INVALID_MASK, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Query mask-selected LMR parameters.',
  },
  it_lmr_refresh_from_mem: {
    group: 'LMR',
    page: 159,
    line: 5213,
    returns: [S.IT_ERR_RANGE, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Make remote writes to non-coherent LMR segments visible (no-op if coherent).',
  },
  it_lmr_unlink: {
    group: 'LMR',
    page: 161,
    line: 5270,
    returns: [
      S.IT_ERR_INVALID_EP_STATE,
      S.IT_ERR_INVALID_DTO_FLAGS,
      S.IT_ERR_INVALID_EP,
      S.IT_ERR_INVALID_EP_TYPE,
      S.IT_ERR_INVALID_LMR,
      S.IT_ERR_OP_NOT_SUPPORTED,
      S.IT_ERR_TOO_MANY_POSTS,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'optional',
    gate: 'lmr_link_support',
    iwarpStatus: S.IT_ERR_OP_NOT_SUPPORTED,
    async: false,
    summary: 'Post an LMR Unlink WR (local invalidate; not auto-fenced).',
  },
  it_make_rdma_addr_absolute: {
    group: 'LMR',
    page: 164,
    line: 5388,
    returns: [],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    noStatus: true,
    summary: 'RDMA address of a local address (Absolute Addressing).',
  },
  it_make_rdma_addr_relative: {
    group: 'LMR',
    page: 165,
    line: null,
    returns: [],
    normal: [],
    added: [],
    iwarp: 'optional',
    gate: 'addr_mode_relative_support',
    async: false,
    noStatus: true,
    summary: 'RDMA address of a byte offset (Relative Addressing). Page missing.',
  },
  it_mem_map: {
    group: 'LMR',
    page: 166,
    line: 5450,
    returns: [S.IT_ERR_NO_PERMISSION, S.IT_ERR_FAULT, S.IT_ERR_INVALID_IA, CAT],
    normal: [],
    added: [],
    iwarp: 'optional',
    gate: 'Privileged Consumer',
    iwarpStatus: S.IT_ERR_NO_PERMISSION,
    async: false,
    summary: 'Map a virtual buffer to one I/O-contiguous chunk (privileged).',
  },
  it_mem_unmap: {
    group: 'LMR',
    page: 168,
    line: 5501,
    returns: [S.IT_ERR_NO_PERMISSION, S.IT_ERR_FAULT, S.IT_ERR_INVALID_IA, CAT],
    normal: [],
    added: [],
    iwarp: 'optional',
    gate: 'Privileged Consumer',
    iwarpStatus: S.IT_ERR_NO_PERMISSION,
    async: false,
    summary: 'Undo an it_mem_map (privileged).',
  },
  it_post_atomic: {
    group: 'DTO',
    page: 169,
    line: 5536,
    returns: [
      S.IT_ERR_INVALID_EP_STATE,
      S.IT_ERR_INVALID_DTO_FLAGS,
      S.IT_ERR_INVALID_ATOMIC_OP,
      S.IT_ERR_INVALID_EP,
      S.IT_ERR_INVALID_EP_TYPE,
      S.IT_ERR_TOO_MANY_POSTS,
      CAT,
    ],
    normal: [],
    added: [S.IT_ERR_INVALID_NUM_SEGMENTS],
    iwarp: 'optional',
    gate: 'atomic_support',
    async: false,
    summary: 'Post a remote Compare-and-Swap / Fetch-and-Add (RFC 7306 on iWARP).',
  },
  it_post_rdma_read: {
    group: 'DTO',
    page: 175,
    line: 5755,
    returns: [...POST_COMMON, S.IT_ERR_INVALID_NUM_SEGMENTS, S.IT_ERR_TOO_MANY_POSTS, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Post an RDMA Read into local LMR segments.',
  },
  it_post_rdma_read_to_rmr: {
    group: 'DTO',
    page: 181,
    line: 5981,
    returns: [...POST_COMMON, S.IT_ERR_INVALID_NUM_SEGMENTS, S.IT_ERR_OP_NOT_SUPPORTED, S.IT_ERR_TOO_MANY_POSTS, CAT],
    normal: [],
    added: [],
    iwarp: 'iwarp-only',
    gate: 'rdma_read_local_extensions',
    iwarpStatus: S.IT_ERR_OP_NOT_SUPPORTED,
    async: false,
    summary: 'Post an RDMA Read into local RMR segments (iWARP extension).',
  },
  it_post_rdma_write: {
    group: 'DTO',
    page: 187,
    line: 6202,
    returns: [...POST_COMMON, S.IT_ERR_INVALID_NUM_SEGMENTS, S.IT_ERR_TOO_MANY_POSTS, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Post an RDMA Write of local LMR segments.',
  },
  it_post_recv: {
    group: 'DTO',
    page: 192,
    line: 6404,
    returns: [
      S.IT_ERR_INVALID_DTO_FLAGS,
      S.IT_ERR_INVALID_EP,
      S.IT_ERR_INVALID_EP_TYPE,
      S.IT_ERR_INVALID_NUM_SEGMENTS,
      S.IT_ERR_INVALID_SRQ,
      S.IT_ERR_TOO_MANY_POSTS,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Post a Receive to an RC EP (any state) or an S-RQ.',
  },
  it_post_recvfrom: {
    group: 'UD',
    page: 197,
    line: 6598,
    returns: [
      S.IT_ERR_INVALID_DTO_FLAGS,
      S.IT_ERR_INVALID_EP,
      S.IT_ERR_INVALID_EP_TYPE,
      S.IT_ERR_INVALID_NUM_SEGMENTS,
      S.IT_ERR_TOO_MANY_POSTS,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'not-applicable',
    iwarpStatus: S.IT_ERR_INVALID_EP_TYPE,
    async: false,
    summary: 'Post a Receive to a UD EP (40-byte GRH area).',
  },
  it_post_send: {
    group: 'DTO',
    page: 201,
    line: 6731,
    returns: [...POST_COMMON, S.IT_ERR_INVALID_NUM_SEGMENTS, S.IT_ERR_TOO_MANY_POSTS, S.IT_ERR_INVALID_LMR, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Post a Send of local LMR segments.',
  },
  it_post_send_and_unlink: {
    group: 'DTO',
    page: 206,
    line: 6926,
    returns: [...POST_COMMON, S.IT_ERR_INVALID_NUM_SEGMENTS, S.IT_ERR_TOO_MANY_POSTS, S.IT_ERR_INVALID_LMR, CAT],
    normal: [],
    added: [S.IT_ERR_OP_NOT_SUPPORTED],
    iwarp: 'optional',
    gate: 'post_send_unlink_remote_support',
    iwarpStatus: S.IT_ERR_OP_NOT_SUPPORTED,
    async: false,
    summary: 'Post a Send that unlinks a remote LMR/RMR after placement (Send with Invalidate).',
  },
  it_post_sendto: {
    group: 'UD',
    page: 212,
    line: 7147,
    returns: [
      S.IT_ERR_INVALID_AH,
      S.IT_ERR_INVALID_DTO_FLAGS,
      S.IT_ERR_INVALID_EP,
      S.IT_ERR_INVALID_EP_TYPE,
      S.IT_ERR_INVALID_NUM_SEGMENTS,
      S.IT_ERR_TOO_MANY_POSTS,
      S.IT_ERR_INVALID_LMR,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'not-applicable',
    iwarpStatus: S.IT_ERR_INVALID_EP_TYPE,
    async: false,
    summary: 'Post a datagram Send to an AH + remote UD EP.',
  },
  it_pz_create: {
    group: 'PZ',
    page: 216,
    line: 7288,
    returns: [S.IT_ERR_RESOURCES, S.IT_ERR_INVALID_IA, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Create a Protection Zone.',
  },
  it_pz_free: {
    group: 'PZ',
    page: 217,
    line: 7322,
    returns: [S.IT_ERR_INVALID_PZ, S.IT_ERR_PZ_BUSY, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Free a Protection Zone (PZ_BUSY while referenced).',
  },
  it_pz_query: {
    group: 'PZ',
    page: 218,
    line: 7346,
    returns: [S.IT_ERR_INVALID_PZ, S.IT_ERR_INVALID_MASK, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: "Query a Protection Zone's IA.",
  },
  it_reject: {
    group: 'CM',
    page: 219,
    line: 7385,
    returns: [S.IT_ERR_INVALID_CN_EST_ID, S.IT_ERR_PDATA_NOT_SUPPORTED, S.IT_ERR_INVALID_PDATA_LENGTH, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Reject a connection request (peer gets PEER_REJECT); consumes cn_est_id.',
  },
  it_rmr_create: {
    group: 'RMR',
    page: 221,
    line: 7453,
    returns: [S.IT_ERR_INVALID_PZ, S.IT_ERR_INVALID_RMR_TYPE, S.IT_ERR_RESOURCES, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Create an unlinked Narrow/Wide RMR.',
  },
  it_rmr_free: {
    group: 'RMR',
    page: 223,
    line: 7522,
    returns: [S.IT_ERR_INVALID_RMR, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Free an RMR (never busy).',
  },
  it_rmr_link: {
    group: 'RMR',
    page: 224,
    line: 7557,
    returns: [
      S.IT_ERR_INVALID_EP_STATE,
      S.IT_ERR_ADDRESS,
      S.IT_ERR_INVALID_ADDR_MODE,
      S.IT_ERR_INVALID_DTO_FLAGS,
      S.IT_ERR_INVALID_EP,
      S.IT_ERR_INVALID_EP_TYPE,
      S.IT_ERR_INVALID_LENGTH,
      S.IT_ERR_INVALID_LMR,
      S.IT_ERR_INVALID_PRIVS,
      S.IT_ERR_INVALID_RMR,
      S.IT_ERR_TOO_MANY_POSTS,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Post an RMR Link WR (bind window); context returned at once.',
  },
  it_rmr_query: {
    group: 'RMR',
    page: 230,
    line: 7772,
    returns: [S.IT_ERR_INVALID_MASK, S.IT_ERR_INVALID_RMR, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Query mask-selected RMR parameters.',
  },
  it_rmr_unlink: {
    group: 'RMR',
    page: 232,
    line: 7855,
    returns: [...POST_COMMON, S.IT_ERR_INVALID_RMR, S.IT_ERR_TOO_MANY_POSTS, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: 'Post an RMR Unlink WR (fences later SQ WRs).',
  },
  it_set_consumer_context: {
    group: 'IA',
    page: 236,
    line: 7979,
    returns: [S.IT_ERR_INVALID_HANDLE, CAT],
    normal: [],
    added: [],
    iwarp: 'core',
    async: false,
    summary: "Set or clear a handle's Consumer Context.",
  },
  it_socket_convert: {
    group: 'TDI',
    page: 237,
    line: 8013,
    returns: [
      S.IT_ERR_OP_NOT_SUPPORTED,
      S.IT_ERR_RESOURCES,
      S.IT_ERR_INVALID_SD,
      S.IT_ERR_INVALID_SD_STATE,
      S.IT_ERR_INVALID_EP,
      S.IT_ERR_INVALID_EP_STATE,
      S.IT_ERR_INVALID_EP_TYPE,
      S.IT_ERR_INVALID_FLAGS,
      CAT,
    ],
    normal: [],
    added: [],
    iwarp: 'iwarp-only',
    gate: 'socket_conversion_support',
    async: false,
    summary: 'Convert a connected TCP socket into a connected RC EP (MPA start-up optional).',
  },
  it_srq_create: {
    group: 'SRQ',
    page: 245,
    line: 8201,
    returns: [S.IT_ERR_INVALID_PZ, S.IT_ERR_SRQ_NOT_SUPPORTED, S.IT_ERR_RESOURCES, S.IT_ERR_RESOURCE_RECV_DTO, S.IT_ERR_RESOURCE_RSEG, CAT],
    normal: [],
    added: [],
    iwarp: 'optional',
    gate: 'srq_support',
    iwarpStatus: S.IT_ERR_SRQ_NOT_SUPPORTED,
    async: false,
    summary: 'Create a Shared Receive Queue.',
  },
  it_srq_free: {
    group: 'SRQ',
    page: 248,
    line: 8300,
    returns: [S.IT_ERR_INVALID_SRQ, S.IT_ERR_SRQ_BUSY, CAT],
    normal: [],
    added: [],
    iwarp: 'optional',
    gate: 'srq_support',
    iwarpStatus: S.IT_ERR_INVALID_SRQ,
    async: false,
    summary: 'Free an S-RQ (SRQ_BUSY while an EP uses it).',
  },
  it_srq_modify: {
    group: 'SRQ',
    page: 249,
    line: 8335,
    returns: [S.IT_ERR_INVALID_SRQ, S.IT_ERR_INVALID_MASK, S.IT_ERR_RESOURCES, S.IT_ERR_INVALID_SRQ_SIZE, S.IT_ERR_SRQ_LOW_WATERMARK, CAT],
    normal: [],
    added: [],
    iwarp: 'optional',
    gate: 'srq_support (resize: srq_resizable)',
    iwarpStatus: S.IT_ERR_INVALID_SRQ,
    async: false,
    summary: 'Resize an S-RQ and/or (re-)arm its low watermark.',
  },
  it_srq_query: {
    group: 'SRQ',
    page: 251,
    line: 8417,
    returns: [S.IT_ERR_INVALID_SRQ, S.IT_ERR_INVALID_MASK, CAT],
    normal: [],
    added: [],
    iwarp: 'optional',
    gate: 'srq_support',
    iwarpStatus: S.IT_ERR_INVALID_SRQ,
    async: false,
    summary: 'Query mask-selected S-RQ parameters.',
  },
  it_ud_service_reply: {
    group: 'UD',
    page: 253,
    line: 8476,
    returns: [S.IT_ERR_PDATA_NOT_SUPPORTED, S.IT_ERR_INVALID_PDATA_LENGTH, S.IT_ERR_INVALID_UD_SVC_REQ_ID, S.IT_ERR_INVALID_UD_STATUS, CAT],
    normal: [],
    added: [],
    iwarp: 'not-applicable',
    iwarpStatus: S.IT_ERR_INVALID_UD_SVC_REQ_ID,
    async: false,
    summary: 'Answer a UD service request.',
  },
  it_ud_service_request: {
    group: 'UD',
    page: 256,
    line: 8562,
    returns: [S.IT_ERR_INVALID_UD_SVC, CAT],
    normal: [],
    added: [],
    iwarp: 'not-applicable',
    iwarpStatus: S.IT_ERR_INVALID_UD_SVC,
    async: false,
    summary: 'Send a UD service resolution request (reply arrives as an event).',
  },
  it_ud_service_request_handle_create: {
    group: 'UD',
    page: 259,
    line: 8624,
    returns: [
      S.IT_ERR_INVALID_CONN_EVD,
      S.IT_ERR_INVALID_EVD_TYPE,
      S.IT_ERR_PDATA_NOT_SUPPORTED,
      S.IT_ERR_INVALID_PDATA_LENGTH,
      S.IT_ERR_INVALID_CONN_QUAL,
      S.IT_ERR_INVALID_SOURCE_PATH,
      S.IT_ERR_INVALID_SPIGOT,
      S.IT_ERR_RESOURCES,
      CAT,
    ],
    normal: [],
    added: [S.IT_ERR_OP_NOT_SUPPORTED],
    iwarp: 'not-applicable',
    gate: 'supported_service_types & IT_UD_SERVICE',
    iwarpStatus: S.IT_ERR_OP_NOT_SUPPORTED,
    async: false,
    summary: 'Create a UD Service Request Handle.',
  },
  it_ud_service_request_handle_free: {
    group: 'UD',
    page: 262,
    line: 8715,
    returns: [S.IT_ERR_INVALID_UD_SVC, CAT],
    normal: [],
    added: [],
    iwarp: 'not-applicable',
    iwarpStatus: S.IT_ERR_INVALID_UD_SVC,
    async: false,
    summary: 'Free a UD Service Request Handle.',
  },
  it_ud_service_request_handle_query: {
    group: 'UD',
    page: 263,
    line: 8748,
    returns: [S.IT_ERR_INVALID_UD_SVC, S.IT_ERR_INVALID_MASK, CAT],
    normal: [],
    added: [],
    iwarp: 'not-applicable',
    iwarpStatus: S.IT_ERR_INVALID_UD_SVC,
    async: false,
    summary: 'Query mask-selected UD Service Request Handle parameters.',
  },
};

/** The 79 function names in reference-page order. */
export const IT_API_FUNCTION_NAMES: readonly ItFunctionName[] = Object.freeze(Object.keys(IT_API_FUNCTIONS) as ItFunctionName[]);

/** Every status that some function returns as a normal outcome, with the functions. */
export const IT_NORMAL_OUTCOMES: ReadonlyMap<S, readonly ItFunctionName[]> = (() => {
  const m = new Map<S, ItFunctionName[]>();
  for (const name of IT_API_FUNCTION_NAMES) {
    for (const s of IT_API_FUNCTIONS[name].normal) m.set(s, [...(m.get(s) ?? []), name]);
  }
  return m;
})();

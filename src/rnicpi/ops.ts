/**
 * `ri_ops_t` — the verbs provider's function table (P-RNICPI / NP-RNICPI), the SVC-RNICPI
 * services offered to providers (`ri_svc_ops_t`), and the SYS-RNICPI proxy shape (`ri_sys_ops_t`).
 *
 * Conventions for every `ri_*` operation:
 * - Synchronous: the call returns its status immediately; asynchrony exists only through posted
 *   WRs (reaped with `ri_cq_poll`), CQ event handlers (IDs fixed at CQ creation) and the
 *   per-RNIC async event handler. Operations never throw for spec-defined failures and never
 *   return Promises; they must be callable from inside CQ/async callbacks without blocking
 *   (the spec's "interrupt safe" calls are the fast path: post, poll, arm, map/unmap, sync).
 * - C `OUT` parameters (and the OUT half of `IN OUT`) become fields of the result object, present
 *   only on success unless stated otherwise (see {@link RiResult}). `IN OUT` structs are passed in
 *   as read-only inputs and returned, with the actual values, under the same name.
 * - Every C call ends with `OUT ri_err_data_t *err_data`: here the optional `err_data` field of
 *   the result.
 * - Parameters keep the spec order and names (minus `err_data` and pure OUT pointers).
 * - `RI_RET_FAIL` (unknown/fatal error) may be returned by every call; it is not repeated in the
 *   lists below.
 * - `vp_data`/`os_data` follow Ch. 4.6: forwarded unchanged, returned by identity; `vp_data` is
 *   `null` when the uAL calls the uVP and non-null at the kVP iff the call was proxied.
 *
 * Callers: "P" = privileged (kernel) consumers through the P-RNICPI, "NP" = non-privileged
 * consumers through the NP-RNICPI, "SYS" = the call also exists in the SYS-RNICPI (the uVP proxies
 * it to the kVP through the AL). KERNEL-only calls exist in user space only as stubs returning
 * `NO_PERMISSION`. Privilege checks belong to the AL (Ch. 3.2.1).
 *
 * @module
 */
import { type RiErrorCode, RiRet, type RiResult, type RiSizedResult, type RiStatus, riFail } from './status.js';
import type {
  ri_address_handle_t,
  ri_addr_t,
  ri_async_event_callback_t,
  ri_cmplt_notify_type_t,
  ri_consumer_domain_t,
  ri_cq_attr_t,
  ri_cq_event_callback_t,
  ri_cq_event_handler_id_t,
  ri_cq_handle_t,
  ri_cq_modify_mask_t,
  ri_data_seg_t,
  ri_dev_info_t,
  ri_diag_op_type_t,
  ri_gid_t,
  ri_length_t,
  ri_lid_t,
  ri_ltag_t,
  ri_mem_attr_t,
  ri_mr_handle_t,
  ri_mr_info_t,
  ri_mr_reg_attr_t,
  ri_mr_reg_phys_attr_t,
  ri_mr_rereg_t,
  ri_mr_w_handle_t,
  ri_mw_handle_t,
  ri_mw_type_t,
  ri_os_data_t,
  ri_pbl_mode_t,
  ri_pd_handle_t,
  ri_phys_buf_t,
  ri_qp_attr_in_t,
  ri_qp_attr_mask_t,
  ri_qp_attr_t,
  ri_qp_handle_t,
  ri_rnic_attr_mask_t,
  ri_rnic_attr_t,
  ri_rnic_handle_t,
  ri_rnic_modify_req_t,
  ri_rnic_query_flags_t,
  ri_rtag_t,
  ri_sqp_type_t,
  ri_srq_attr_mask_t,
  ri_srq_attr_t,
  ri_srq_create_attr_t,
  ri_srq_handle_t,
  ri_srq_modify_attr_t,
  ri_stag_state_t,
  ri_svcs_dev_arg_t,
  ri_ud_address_vector_t,
  ri_vaddr_t,
  ri_vp_data_t,
  ri_vp_handle_t,
  ri_wc_t,
  ri_wr_flags_t,
  ri_wr_id_t,
  ri_wr_recv_t,
  ri_wr_t,
  ri_wr_type_t,
} from './types.js';

/**
 * Outcome of the post-list calls (`ri_qp_postsq`, `ri_qp_postrq`, `ri_srq_post`): `num_wrs` is
 * the number of WRs posted, on success (all of them) *and* on failure, where the error refers to
 * the WR at index `num_wrs` (0-based; the spec's 1-based "num_wrs + 1").
 */
export type RiPostListResult = RiResult<{ num_wrs: number }, { num_wrs: number }>;

/**
 * `ri_ops_t`: one method per reference-page call, in the header's `struct ri_ops` order (63
 * entries). The header names the members `ri_op_<name>`; here the members carry the reference
 * page names (`ri_pd_alloc`), and `ri_op_<name>_t` aliases give the per-op function types.
 *
 * One vector type serves kVP and uVP. A provider supplies a mandatory AL-serialized vector and
 * optionally a VP-serialized one (`ri_svc_attach`); the vector through which `ri_rnic_get_hdl`
 * is called is stored in the RNIC handle (`rnic.ops`) and fixes its thread-safety model.
 */
export interface ri_ops_t {
  // --- RNIC management -----------------------------------------------------------

  /**
   * Opens the RNIC named by `vp_hdl` in page- or block-list PBL mode; the mode is fixed until
   * close. Must be accepted any time after `ri_svc_attach` is invoked, including from inside it.
   * `os_data` is kept and returned as `vp_hdl_os_data` in every callback and as
   * `resource_os_data` of RNIC-level catastrophic events.
   *
   * Spec: Ch. 7 `ri_rnic_open()` (p. 40) Callers: P only (KERNEL).
   * Returns: SUCCESS, RESOURCE_SHORTAGE, VP_INVALID_HANDLE, INVALID_PARAMETER (undefined
   * `pbl_mode`), NO_PERMISSION, INVALID_PBL_MODE (mode unsupported), RNIC_INUSE (already open).
   */
  readonly ri_rnic_open: (vp_hdl: ri_vp_handle_t, pbl_mode: ri_pbl_mode_t, os_data: ri_os_data_t) => RiStatus;

  /**
   * Closes the RNIC: releases everything `ri_rnic_open` allocated; on return no upcall for the
   * RNIC is in progress. All RNIC handles must have been freed first (`RNIC_INUSE`). Must
   * precede `ri_svc_detach`.
   *
   * Spec: Ch. 7 `ri_rnic_close()` (p. 42) Callers: P only (KERNEL).
   * Returns: SUCCESS, VP_INVALID_HANDLE (unknown or already closed), RNIC_INUSE, NO_PERMISSION.
   */
  readonly ri_rnic_close: (vp_hdl: ri_vp_handle_t) => RiStatus;

  /**
   * Registers the RNIC's single Asynchronous Event Handler (replaces the previous one; `null` =
   * none). Events raised while no handler is registered are lost. `resource_os_data` is chosen by
   * event class (see `riEventResource`).
   *
   * Spec: Ch. 7 `ri_async_set_event_handler()` (p. 44) Callers: P only (KERNEL).
   * Returns: SUCCESS, VP_INVALID_HANDLE, NO_PERMISSION.
   */
  readonly ri_async_set_event_handler: (vp_hdl: ri_vp_handle_t, async_event_callback: ri_async_event_callback_t | null) => RiStatus;

  /**
   * Creates a consumer RNIC handle, used by almost every later call. May be called many times
   * (one handle per consumer/address space). The vector this is called through becomes
   * `rnic.ops` and fixes the handle's thread-safety model. `location` is ignored by the user-level
   * version. The RNIC must be open.
   *
   * Spec: Ch. 7 `ri_rnic_get_hdl()` (p. 48) Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, VP_INVALID_HANDLE, INVALID_PARAMETER (bad `location`),
   * RNIC_NOT_OPEN.
   */
  readonly ri_rnic_get_hdl: (
    vp_hdl: ri_vp_handle_t,
    location: ri_consumer_domain_t,
    vp_data: ri_vp_data_t,
    os_data: ri_os_data_t,
  ) => RiResult<{ rnic: ri_rnic_handle_t }>;

  /**
   * Returns the RNIC attributes (and, with `RI_QUERY_RNIC_PORT_INFO`, the port attributes and
   * address lists). `attr_size` is the caller's (notional) buffer size: if the provider's notional
   * size of the answer exceeds it the call fails with `BUFFER_TOO_SMALL` and reports the needed
   * size in `attr_size`; on success `attr_size` is the size of the data returned. A later query
   * may return different address lists.
   *
   * Spec: Ch. 7 `ri_rnic_query()` (p. 50), Ch. 8 `ri_rnic_attr_t`–6.5.
   * Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE, INVALID_PARAMETER (undefined flag
   * bits), BUFFER_TOO_SMALL.
   */
  readonly ri_rnic_query: (
    rnic: ri_rnic_handle_t,
    flags: ri_rnic_query_flags_t,
    attr_size: number,
  ) => RiSizedResult<{ attrs: ri_rnic_attr_t; attr_size: number }, 'attr_size'>;

  /**
   * Modifies RNIC/port attributes (system image GUID, port shutdown, InitType, Q_Key counter
   * reset, capability flags). IB only; other transports answer `XPORT_UNSUPPORTED`. Privileged
   * callers only. Each feature is optional (`OP_UNSUPPORTED`).
   *
   * Spec: Ch. 7 `ri_rnic_modify()` (p. 52) Callers: P, NP, SYS (synopsis "KERNEL";
   * unprivileged → NO_PERMISSION).
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, INVALID_PARAMETER, NO_PERMISSION, OP_UNSUPPORTED,
   * XPORT_UNSUPPORTED.
   */
  readonly ri_rnic_modify: (rnic: ri_rnic_handle_t, attr_mask: ri_rnic_attr_mask_t, attrs: ri_rnic_modify_req_t | null) => RiStatus;

  /**
   * Frees an RNIC handle. Every PD/CQ/QP/SRQ/MR/MW/AH created through it must have been freed
   * first (`RNIC_INUSE`); afterwards no upcall for its objects is in progress.
   *
   * Spec: Ch. 7 `ri_rnic_free_hdl()` (p. 55) Callers: P, NP, SYS.
   * Returns: SUCCESS, VP_INVALID_HANDLE, RNIC_INVALID_HANDLE, RNIC_INUSE.
   */
  readonly ri_rnic_free_hdl: (vp_hdl: ri_vp_handle_t, rnic: ri_rnic_handle_t) => RiStatus;

  /**
   * Diagnostics: printable RNIC details, QP details (`arg` = QP handle), an internal dump, or a
   * reset of the RDMA interface. The text is written into `opval`; its capacity is the spec's IN
   * `oplen`. With `opval` null or too small → `BUFFER_TOO_SMALL` with the needed size in `oplen`
   * (two-call idiom); on success `oplen` is the number of bytes written. Every op is optional.
   * Privileged callers only.
   *
   * Spec: Ch. 7 `ri_rnic_diag()` (p. 57) Callers: P, NP, SYS (synopsis "KERNEL";
   * unprivileged → NO_PERMISSION).
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, INVALID_PARAMETER (bad `arg`), BUFFER_TOO_SMALL,
   * OP_UNSUPPORTED, NO_PERMISSION.
   */
  readonly ri_rnic_diag: (
    rnic: ri_rnic_handle_t,
    op: ri_diag_op_type_t,
    arg: unknown,
    opval: Uint8Array | null,
  ) => RiSizedResult<{ oplen: number }, 'oplen'>;

  // --- Protection domains ---------------------------------------------------------

  /**
   * Allocates a Protection Domain in the RNIC handle's context.
   *
   * Spec: Ch. 7 `ri_pd_alloc()` (p. 60) Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE.
   */
  readonly ri_pd_alloc: (rnic: ri_rnic_handle_t, vp_data: ri_vp_data_t, os_data: ri_os_data_t) => RiResult<{ pd: ri_pd_handle_t }>;

  /**
   * Frees a PD. A PD still used by a QP, SRQ, MR, MW or AH → `PD_INUSE` (nothing freed).
   *
   * Spec: Ch. 7 `ri_pd_dealloc()` (p. 60) Callers: P, NP, SYS.
   * Returns: SUCCESS, PD_INUSE, RNIC_INVALID_HANDLE, PD_INVALID_HANDLE.
   */
  readonly ri_pd_dealloc: (rnic: ri_rnic_handle_t, pd: ri_pd_handle_t) => RiStatus;

  // --- Completion queues ----------------------------------------------------------

  /**
   * Creates a CQ of at least `num_cqe` entries (actual size returned). `handler_id` names a CEH
   * from `ri_cq_set_event_handler` (0 = none: the CQ can never be armed); it is fixed for the
   * CQ's life. Non-privileged consumers pass 0 (the uVP ignores it). `os_data` is the CQ's
   * identity in CEH callbacks and WCs (`cq_os_data`).
   *
   * Spec: Ch. 7 `ri_cq_create()` (p. 62) Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE, INVALID_PARAMETER,
   * CQ_CAPACITY_EXCEEDED (> `max_cqes_per_cq`; no CQ), CQ_INVALID_EVENT_HANDLER.
   */
  readonly ri_cq_create: (
    rnic: ri_rnic_handle_t,
    cq_attr: ri_cq_attr_t,
    vp_data: ri_vp_data_t,
    os_data: ri_os_data_t,
  ) => RiResult<{ cq: ri_cq_handle_t; cq_attr: ri_cq_attr_t }>;

  /**
   * Returns the CQ's size and handler ID (0 for non-privileged consumers / no handler). An
   * internal error or overrun → `CQ_ERROR`: the associated QPs are then unusable.
   *
   * Spec: Ch. 7 `ri_cq_query()` (p. 64) Callers: P, NP, SYS.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, CQ_INVALID_HANDLE, INVALID_PARAMETER, CQ_ERROR.
   */
  readonly ri_cq_query: (rnic: ri_rnic_handle_t, cq: ri_cq_handle_t) => RiResult<{ cq_attr: ri_cq_attr_t }>;

  /**
   * Resizes a CQ (`RI_CQ_MODIFY_MASK_NUM_CQE`; `handler_id` is not modifiable). Allowed with
   * outstanding WCs; no completion is lost; never itself raises completion or async errors.
   * Shrinking below the outstanding entries → `CQ_WOULD_OVERFLOW`; `num_cqe` 0 or an unknown mask
   * → `INVALID_PARAMETER`.
   *
   * Spec: Ch. 7 `ri_cq_modify()` (p. 66) Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE, CQ_INVALID_HANDLE,
   * INVALID_PARAMETER, CQ_CAPACITY_EXCEEDED, CQ_WOULD_OVERFLOW, CQ_ERROR.
   */
  readonly ri_cq_modify: (
    rnic: ri_rnic_handle_t,
    cq: ri_cq_handle_t,
    mask: ri_cq_modify_mask_t,
    cq_attr: Partial<ri_cq_attr_t>,
  ) => RiResult<{ cq_attr: ri_cq_attr_t }>;

  /**
   * Destroys a CQ. A CQ still associated with a QP → `CQ_INUSE`. After success the handler is
   * never invoked again for it, no event for it is in progress, unreaped WCs are discarded.
   *
   * Spec: Ch. 7 `ri_cq_destroy()` (p. 68) Callers: P, NP, SYS.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, CQ_INVALID_HANDLE, CQ_INUSE.
   */
  readonly ri_cq_destroy: (rnic: ri_rnic_handle_t, cq: ri_cq_handle_t) => RiStatus;

  /**
   * IB only: returns a handle to QP0 (SMI) or QP1 (GSI) of `port`, once per port until destroyed
   * (`QP_INUSE`). Special QPs may not share CQs with ordinary QPs. Actual queue sizes returned.
   *
   * Spec: Ch. 7 `ri_special_qp_get()` (p. 90) Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, INVALID_PARAMETER, RNIC_INVALID_HANDLE,
   * QP_INVALID_SPECIAL_TYPE, QP_INUSE, RNIC_INVALID_PORT, CQ_INVALID_HANDLE,
   * RNIC_WR_LIMIT_EXCEEDED, RNIC_SG_LIMIT_EXCEEDED, PD_INVALID_HANDLE, XPORT_UNSUPPORTED (non-IB).
   */
  readonly ri_special_qp_get: (
    rnic: ri_rnic_handle_t,
    port: number,
    qp_type: ri_sqp_type_t,
    attrs: ri_qp_attr_in_t,
    vp_data: ri_vp_data_t,
    os_data: ri_os_data_t,
  ) => RiResult<{ qp: ri_qp_handle_t; attrs: ri_qp_attr_t }>;

  /**
   * Binds a CQ callback to a handler ID: `handler_id` 0 allocates a new ID (returned); an
   * existing ID has its callback replaced; a `null` callback silences the ID's CQs even if
   * armed. Does not arm anything. `handler_id` null (the C NULL pointer) → `INVALID_PARAMETER`.
   *
   * Spec: Ch. 7 `ri_cq_set_event_handler()` (p. 69) Callers: P only (KERNEL).
   * Returns: SUCCESS, RESOURCE_SHORTAGE (out of IDs), VP_INVALID_HANDLE, INVALID_PARAMETER,
   * INVALID_HANDLER_ID, NO_PERMISSION.
   */
  readonly ri_cq_set_event_handler: (
    vp_hdl: ri_vp_handle_t,
    handler_id: ri_cq_event_handler_id_t | null,
    cq_callback: ri_cq_event_callback_t | null,
  ) => RiResult<{ handler_id: ri_cq_event_handler_id_t }>;

  /**
   * Arms the CQ: its CEH is called at most once, when the next completion of `type` is added
   * (SOLICITED: SE-flagged receive, local-solicited signalled WR, or any unsuccessful WC; ANY:
   * anything). Entries already present never trigger; ANY dominates SOLICITED; re-arm after each
   * callback. A CQ created with `handler_id` 0 → `CQ_NO_EVENT_HANDLER`. Interrupt-safe.
   *
   * Spec: Ch. 7 `ri_cq_req_notification()` (p. 71) Callers: P, NP.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, CQ_INVALID_HANDLE, INVALID_PARAMETER (bad `type`),
   * CQ_NO_EVENT_HANDLER.
   */
  readonly ri_cq_req_notification: (rnic: ri_rnic_handle_t, cq: ri_cq_handle_t, type: ri_cmplt_notify_type_t) => RiStatus;

  /**
   * Reaps up to `num_wcs` WCs (the returned array's length is the spec's OUT `num_wcs`). None
   * available → `CQ_EMPTY`; fewer than available may be returned, so only `CQ_EMPTY` proves the
   * CQ drained. Interrupt-safe.
   *
   * Spec: Ch. 7 `ri_cq_poll()` (p. 73) Callers: P, NP.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, CQ_INVALID_HANDLE, CQ_EMPTY.
   */
  readonly ri_cq_poll: (rnic: ri_rnic_handle_t, cq: ri_cq_handle_t, num_wcs: number) => RiResult<{ wcs: ri_wc_t[] }>;

  // --- Queue pairs ----------------------------------------------------------------

  /**
   * Creates a QP in state IDLE from the attributes "valid in create" for the transport. Returns
   * the handle and the attributes with `qp_id` and the actual `sq_size`, `rq_size`,
   * `sq_max_sges`, `sq_max_sges_rdmaw`, `rq_max_sges`, ORD and IRD (each ≥ requested). `os_data`
   * is the QP's identity in WCs (`qp_os_data`) and QP events. `rq_hiwat` 0 leaves it disarmed.
   *
   * Spec: Ch. 7 `ri_qp_create()` (p. 79), Ch. 8 `ri_qp_attr_t`
   * Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, INVALID_PARAMETER, RNIC_INVALID_HANDLE,
   * CQ_INVALID_HANDLE, RNIC_WR_LIMIT_EXCEEDED, RNIC_SG_LIMIT_EXCEEDED, PD_INVALID_HANDLE,
   * SRQ_INVALID_HANDLE, QP_INVALID_SERVICE_TYPE, SRQ_LIMIT_OUT_OF_RANGE, SRQ_UNSUPPORTED,
   * EXT_BMM_UNSUPPORTED, MPA_ATTR_UNSUPPORTED, INVALID_DDP_RDMAP_VERSION, NO_PERMISSION.
   */
  readonly ri_qp_create: (
    rnic: ri_rnic_handle_t,
    attrs: ri_qp_attr_in_t,
    vp_data: ri_vp_data_t,
    os_data: ri_os_data_t,
  ) => RiResult<{ qp: ri_qp_handle_t; attrs: ri_qp_attr_t }>;

  /**
   * Returns all current QP attributes (all-or-nothing). `scq`/`rcq`/`srq` come back as the
   * CQ/SRQ *os_data*, not handles; `llp_stream_handle` is the current handle or null if never
   * set; `stream_msg_buf` is null; MPA marker fields report preferences.
   *
   * Spec: Ch. 7 `ri_qp_query()` (p. 82) Callers: P, NP, SYS.
   * Returns: SUCCESS, INVALID_PARAMETER, RNIC_INVALID_HANDLE, QP_INVALID_HANDLE.
   */
  readonly ri_qp_query: (rnic: ri_rnic_handle_t, qp: ri_qp_handle_t) => RiResult<{ attrs: ri_qp_attr_t }>;

  /**
   * Changes the attributes selected by `qp_mask` and, with `RI_QP_ATTR_NEXT_STATE`, moves the QP
   * to `attrs.state`. Atomic: any invalid attribute or illegal transition changes nothing. iWARP
   * conversion: `LLQ_STREAM_HANDLE` (+ optional `STREAM_MSG_BUFFER`, Idle→RTS only) with
   * `MPA_ATTR` before or with it; MPA attributes after RDMA mode → `LL_BAD_STATE`. Error→Idle while
   * still flushing → `STILL_FLUSHING_WQES`. May block (not interrupt-safe). The result is the QP's
   * attributes after the call, as `ri_qp_query` would return them.
   *
   * Spec: Ch. 7 `ri_qp_modify()` (p. 83), Ch. 6.1.4–4.6, §5.4. Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE, QP_INVALID_HANDLE,
   * INVALID_PARAMETER, RNIC_INVALID_PKEY_INDEX, RNIC_INVALID_PKEY_ENTRY, QP_INVALID_STATE,
   * RNIC_INVALID_MTU, RNIC_INVALID_PORT, MIGRATION_STATE_INVALID, RNIC_INVALID_RNR_VALUE,
   * QP_INVALID_SERVICE_TYPE, INVALID_LL_HANDLE, QP_ATTRIBUTE_CANT_CHANGE, QP_RESIZE_UNSUPPORTED,
   * RNIC_ATOMICS_UNSUPPORTED, RNIC_WR_LIMIT_EXCEEDED, RNIC_IRD_ORD_EXCEEDED, QP_CANNOT_SHRINK,
   * WINDOWS_BOUND, STILL_FLUSHING_WQES, SRQ_LIMIT_OUT_OF_RANGE, NO_PERMISSION,
   * MPA_ATTR_UNSUPPORTED, INVALID_DDP_RDMAP_VERSION, LL_BAD_STATE.
   */
  readonly ri_qp_modify: (
    rnic: ri_rnic_handle_t,
    qp: ri_qp_handle_t,
    qp_mask: ri_qp_attr_mask_t,
    attrs: ri_qp_attr_in_t,
  ) => RiResult<{ attrs: ri_qp_attr_t }>;

  /**
   * Destroys a QP. Type 2A windows bound → `WINDOWS_BOUND`; still attached to an IB multicast
   * group → `MULTICAST_ATTACHED`. Outstanding WRs are cancelled silently (never completed after
   * return); incoming traffic is discarded; no async event for it afterwards.
   *
   * Spec: Ch. 7 `ri_qp_destroy()` (p. 88) Callers: P, NP, SYS.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, QP_INVALID_HANDLE, WINDOWS_BOUND, MULTICAST_ATTACHED.
   */
  readonly ri_qp_destroy: (rnic: ri_rnic_handle_t, qp: ri_qp_handle_t) => RiStatus;

  // --- Posting to the Send Queue --------------------------------------------------

  /**
   * Posts `wr[0 .. num_wrs-1]` (default: all) to the SQ in order. The WRs are copied: the array
   * is the caller's again on return. On failure `num_wrs` says how many were posted and the error
   * is about `wr[num_wrs]`. Each error condition is reported either here or as a completion
   * error (provider's choice per condition). Posting in Error never fails: the WRs complete with
   * `WR_FLUSHED_ERROR`. iWARP may answer `QP_INVALID_STATE` outside RTS when it cannot
   * flush-complete (softrdma: SQ posts in Idle). Fast-register from a non-privileged caller →
   * `NO_PERMISSION`. Interrupt-safe.
   *
   * Spec: Ch. 7 `ri_qp_postsq()` (p. 93), Ch. 8 `ri_wr_t` Callers: P, NP.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, QP_INVALID_HANDLE, QP_CAPACITY_EXCEEDED,
   * WR_INVALID_TYPE, QP_INVALID_STATE, WR_INVALID_FLAGS, WR_SG_INVALID_FORMAT,
   * ADDRESS_HANDLE_INVALID, INVALID_WINDOW_TYPE, MW_INVALID_HANDLE, MR_INVALID_HANDLE,
   * MEM_INVALID_RTAG, MEM_INVALID_LTAG, MEM_INVALID_ADDRESS, MEM_INVALID_LENGTH,
   * MEM_INVALID_ACCESS, RNIC_SG_LIMIT_EXCEEDED, RNIC_ATOMICS_UNSUPPORTED, EXT_BMM_UNSUPPORTED,
   * EXT_LIF_UNSUPPORTED, RNIC_NOT_IN_BLOCK_MODE, RNIC_NOT_IN_PAGE_MODE, EXT_ZBVA_UNSUPPORTED,
   * NO_PERMISSION.
   */
  readonly ri_qp_postsq: (rnic: ri_rnic_handle_t, qp: ri_qp_handle_t, wr: readonly ri_wr_t[], num_wrs?: number) => RiPostListResult;

  /**
   * Posts one Send / Send-with-Invalidate (`rtag` = remote STag to invalidate) / IB
   * Send-with-Immediate. Same semantics as `ri_qp_postsq` with one `ri_wr_send_t`.
   *
   * Spec: Ch. 7 `ri_qp_post_send()` (p. 93) Callers: P, NP.
   * Returns: as `ri_qp_postsq`.
   */
  readonly ri_qp_post_send: (
    rnic: ri_rnic_handle_t,
    qp: ri_qp_handle_t,
    type: ri_wr_type_t,
    flags: ri_wr_flags_t,
    id: ri_wr_id_t,
    sg_list: readonly ri_data_seg_t[],
    rtag: ri_rtag_t,
    num_sgls: number,
    imm_data: number,
  ) => RiStatus;

  /**
   * Posts one RDMA Read (or iWARP RDMA Read with Local Invalidate, ≤ 1 SGE) from remote
   * `(rtag, rdma_addr)` into `sg_list`. Same semantics as `ri_qp_postsq` with one
   * `ri_wr_rdma_read_t`.
   *
   * Spec: Ch. 7 `ri_qp_post_rdma_read()` (p. 93) Callers: P, NP.
   * Returns: as `ri_qp_postsq`.
   */
  readonly ri_qp_post_rdma_read: (
    rnic: ri_rnic_handle_t,
    qp: ri_qp_handle_t,
    type: ri_wr_type_t,
    flags: ri_wr_flags_t,
    id: ri_wr_id_t,
    sg_list: readonly ri_data_seg_t[],
    rdma_addr: bigint,
    num_sgls: number,
    rtag: ri_rtag_t,
  ) => RiStatus;

  /**
   * Posts one RDMA Write (or IB RDMA Write with Immediate) of `sg_list` to remote
   * `(rtag, rdma_addr)`. Same semantics as `ri_qp_postsq` with one `ri_wr_rdma_write_t`.
   *
   * Spec: Ch. 7 `ri_qp_post_rdma_write()` (p. 93) Callers: P, NP.
   * Returns: as `ri_qp_postsq`.
   */
  readonly ri_qp_post_rdma_write: (
    rnic: ri_rnic_handle_t,
    qp: ri_qp_handle_t,
    type: ri_wr_type_t,
    flags: ri_wr_flags_t,
    id: ri_wr_id_t,
    sg_list: readonly ri_data_seg_t[],
    rdma_addr: bigint,
    rtag: ri_rtag_t,
    num_sgls: number,
    imm_data: number,
  ) => RiStatus;

  /**
   * Posts one Memory Window Bind of `mw_handle` to `[vaddr, vaddr+length)` of the MR
   * (`mr_handle`, `ltag`, which needs `RI_MEM_FLAGS_BINDING`) with rights `mem_attr`; `rtag` is
   * the window's new RTag when the consumer owns the key. Zero-length bind on a Type 2 window →
   * `INVALID_WINDOW_TYPE`. Same semantics as `ri_qp_postsq` with one `ri_wr_bind_t`.
   *
   * Spec: Ch. 7 `ri_qp_post_bind()` (p. 93) Callers: P, NP.
   * Returns: as `ri_qp_postsq`.
   */
  readonly ri_qp_post_bind: (
    rnic: ri_rnic_handle_t,
    qp: ri_qp_handle_t,
    type: ri_wr_type_t,
    flags: ri_wr_flags_t,
    id: ri_wr_id_t,
    mw_handle: ri_mw_handle_t,
    rtag: ri_rtag_t,
    mr_handle: ri_mr_handle_t,
    ltag: ri_ltag_t,
    vaddr: ri_addr_t,
    length: ri_length_t,
    mem_attr: ri_mem_attr_t,
  ) => RiStatus;

  /**
   * Posts one Fast-Register of the physical buffer list `attr` onto the (invalid) STag of
   * `mr_handle` (from `ri_ltag_alloc` or an invalidated region); `ltag`'s key byte is the new
   * key. Privileged consumers only (`NO_PERMISSION`, or WC status FMR_QP_NOT_PRIVILEGED_ERROR).
   * Same semantics as `ri_qp_postsq` with one `ri_wr_fmr_t`.
   *
   * Spec: Ch. 7 `ri_qp_post_fmr()` (p. 93) Callers: P, NP.
   * Returns: as `ri_qp_postsq`.
   */
  readonly ri_qp_post_fmr: (
    rnic: ri_rnic_handle_t,
    qp: ri_qp_handle_t,
    type: ri_wr_type_t,
    flags: ri_wr_flags_t,
    id: ri_wr_id_t,
    attr: ri_mr_reg_phys_attr_t,
    ltag: ri_ltag_t,
    rtag: ri_rtag_t,
    mr_handle: ri_mr_handle_t,
  ) => RiStatus;

  /**
   * Posts one Local Invalidate of an MR (`LOCAL_INVALIDATE_MR`) or MW (`LOCAL_INVALIDATE_MW`).
   * Parameter order is the Ch. 7 page's (`ltag, rtag, mrw_handle`); the informative header typedef
   * swaps `rtag`/`ltag`. Invalidate of a Type 1 window → `INVALID_WINDOW_TYPE`. Same semantics as
   * `ri_qp_postsq` with one `ri_wr_local_invalidate_t`.
   *
   * Spec: Ch. 7 `ri_qp_post_local_invalidate()` (p. 93) Callers: P, NP.
   * Returns: as `ri_qp_postsq`.
   */
  readonly ri_qp_post_local_invalidate: (
    rnic: ri_rnic_handle_t,
    qp: ri_qp_handle_t,
    type: ri_wr_type_t,
    flags: ri_wr_flags_t,
    id: ri_wr_id_t,
    ltag: ri_ltag_t,
    rtag: ri_rtag_t,
    mrw_handle: ri_mr_w_handle_t,
  ) => RiStatus;

  /**
   * Posts one IB atomic (Compare-and-Swap / Fetch-and-Add) on remote `(rtag, rdma_addr)`; the
   * original remote value lands in `atomic_result`. `rdma_addr` is a softrdma addition (the spec
   * signature has no target address; see spec-notes). Without atomics support →
   * `RNIC_ATOMICS_UNSUPPORTED` (always on iWARP). Same semantics as `ri_qp_postsq` with one
   * `ri_wr_atomic_t`.
   *
   * Spec: Ch. 7 `ri_qp_post_atomic()` (p. 93) Callers: P, NP.
   * Returns: as `ri_qp_postsq`.
   */
  readonly ri_qp_post_atomic: (
    rnic: ri_rnic_handle_t,
    qp: ri_qp_handle_t,
    type: ri_wr_type_t,
    flags: ri_wr_flags_t,
    id: ri_wr_id_t,
    rtag: ri_rtag_t,
    atomic_operand1: bigint,
    atomic_operand2: bigint,
    atomic_result: ri_data_seg_t,
    rdma_addr: bigint,
  ) => RiStatus;

  /**
   * Posts one IB UD datagram to `remote_node_address`/`dest_qp`/`dest_qkey`. On a non-IB RNIC
   * softrdma answers `XPORT_UNSUPPORTED` (not in the page's list; see spec-notes). Same semantics
   * as `ri_qp_postsq` with one `ri_wr_datagram_t`.
   *
   * Spec: Ch. 7 `ri_qp_post_datagram()` (p. 93) Callers: P, NP.
   * Returns: as `ri_qp_postsq`, plus XPORT_UNSUPPORTED (non-IB).
   */
  readonly ri_qp_post_datagram: (
    rnic: ri_rnic_handle_t,
    qp: ri_qp_handle_t,
    type: ri_wr_type_t,
    flags: ri_wr_flags_t,
    id: ri_wr_id_t,
    sg_list: readonly ri_data_seg_t[],
    num_sgls: number,
    imm_data: number,
    remote_node_address: ri_address_handle_t,
    dest_qp: number,
    dest_qkey: number,
    max_static_rate: number,
  ) => RiStatus;

  // --- Posting to the Receive Queue -----------------------------------------------

  /**
   * Posts receive WRs to the QP's RQ in order (partial-success `num_wrs` as for `ri_qp_postsq`;
   * WRs copied). Only LOCAL_SOLICITED and COALESCE flags are valid. A QP tied to an SRQ →
   * `QP_TIED_TO_SRQ`. In Error the WRs flush-complete (never `QP_INVALID_STATE`); the page allows
   * `QP_INVALID_STATE` only in Idle/Init (IB wording) — an iWARP QP accepts receives in Idle so
   * they can be pre-posted before RTS. Every posted receive WR completes. Interrupt-safe.
   *
   * Spec: Ch. 7 `ri_qp_postrq()` (p. 100) Callers: P, NP.
   * Returns: SUCCESS, QP_INVALID_HANDLE, RNIC_INVALID_HANDLE, WR_SG_INVALID_FORMAT,
   * SRQ_INVALID_HANDLE, WR_INVALID_FLAGS, QP_INVALID_STATE, QP_CAPACITY_EXCEEDED,
   * RNIC_SG_LIMIT_EXCEEDED, QP_TIED_TO_SRQ, SRQ_UNSUPPORTED.
   */
  readonly ri_qp_postrq: (
    rnic: ri_rnic_handle_t,
    qp_handle: ri_qp_handle_t,
    wr: readonly ri_wr_recv_t[],
    num_wrs?: number,
  ) => RiPostListResult;

  /**
   * Posts one receive WR to the QP's RQ; same semantics as `ri_qp_postrq` with one WR.
   *
   * Spec: Ch. 7 `ri_qp_post_recv()` (p. 100) Callers: P, NP.
   * Returns: as `ri_qp_postrq`.
   */
  readonly ri_qp_post_recv: (
    rnic: ri_rnic_handle_t,
    qp_handle: ri_qp_handle_t,
    flags: ri_wr_flags_t,
    id: ri_wr_id_t,
    sg_list: readonly ri_data_seg_t[],
    num_sgls: number,
  ) => RiStatus;

  // --- Shared receive queues ------------------------------------------------------

  /**
   * Creates an SRQ (`max_wrs`, `max_sgl`, `lowat`, `pd` required; actual values ≥ requested
   * returned). A non-zero `lowat` arms the limit. `os_data` is the SRQ's identity in SRQ events.
   *
   * Spec: Ch. 7 `ri_srq_create()` (p. 104), Ch. 8 `ri_srq_attr_t`
   * Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE, INVALID_PARAMETER,
   * RNIC_WR_LIMIT_EXCEEDED, RNIC_SG_LIMIT_EXCEEDED, PD_INVALID_HANDLE, SRQ_LIMIT_OUT_OF_RANGE,
   * SRQ_UNSUPPORTED.
   */
  readonly ri_srq_create: (
    rnic: ri_rnic_handle_t,
    srq_attrs: ri_srq_create_attr_t,
    vp_data: ri_vp_data_t,
    os_data: ri_os_data_t,
  ) => RiResult<{ srq: ri_srq_handle_t; srq_attrs: ri_srq_attr_t }>;

  /**
   * Returns the SRQ's attributes (incl. `srq_armed`).
   *
   * Spec: Ch. 7 `ri_srq_query()` (p. 106) Callers: P, NP, SYS.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, SRQ_INVALID_HANDLE, INVALID_PARAMETER,
   * SRQ_UNSUPPORTED, SRQ_IN_ERROR.
   */
  readonly ri_srq_query: (rnic: ri_rnic_handle_t, srq: ri_srq_handle_t) => RiResult<{ srq_attrs: ri_srq_attr_t }>;

  /**
   * Resizes (`RI_SRQ_ATTR_MAX_WRS`, needs `RI_RNIC_CAN_RESIZE_SRQ`) and/or sets and arms the limit
   * (`RI_SRQ_ATTR_LOWAT`, > 0 arms). All-or-nothing; no way to disarm. `attrs` is IN OUT (the
   * spec declares it OUT by mistake); the result carries the actual attributes.
   *
   * Spec: Ch. 7 `ri_srq_modify()` (p. 107) Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE, SRQ_INVALID_HANDLE,
   * INVALID_PARAMETER, RNIC_WR_LIMIT_EXCEEDED, SRQ_IN_ERROR, SRQ_RESIZE_UNSUPPORTED,
   * SRQ_LIMIT_OUT_OF_RANGE, SRQ_CANNOT_SHRINK, SRQ_UNSUPPORTED.
   */
  readonly ri_srq_modify: (
    rnic: ri_rnic_handle_t,
    srq: ri_srq_handle_t,
    srqmask: ri_srq_attr_mask_t,
    attrs: ri_srq_modify_attr_t,
  ) => RiResult<{ attrs: ri_srq_attr_t }>;

  /**
   * Destroys an SRQ; only after every QP using it is destroyed (`SRQ_INUSE`). WRs left in it are
   * *not* flushed to any CQ. No async event for it afterwards.
   *
   * Spec: Ch. 7 `ri_srq_destroy()` (p. 109) Callers: P, NP, SYS.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, SRQ_INVALID_HANDLE, SRQ_INUSE, SRQ_UNSUPPORTED.
   */
  readonly ri_srq_destroy: (rnic: ri_rnic_handle_t, srq: ri_srq_handle_t) => RiStatus;

  /**
   * Posts receive WRs to an SRQ; semantics as `ri_qp_postrq`. Interrupt-safe.
   *
   * Spec: Ch. 7 `ri_srq_post()` (p. 100) Callers: P, NP.
   * Returns: as `ri_qp_postrq`.
   */
  readonly ri_srq_post: (
    rnic: ri_rnic_handle_t,
    srq_handle: ri_srq_handle_t,
    wr: readonly ri_wr_recv_t[],
    num_wrs?: number,
  ) => RiPostListResult;

  /**
   * Posts one receive WR to an SRQ; semantics as `ri_qp_postrq` with one WR.
   *
   * Spec: Ch. 7 `ri_srq_post_recv()` (p. 100) Callers: P, NP.
   * Returns: as `ri_qp_postrq`.
   */
  readonly ri_srq_post_recv: (
    rnic: ri_rnic_handle_t,
    srq_handle: ri_srq_handle_t,
    flags: ri_wr_flags_t,
    id: ri_wr_id_t,
    sg_list: readonly ri_data_seg_t[],
    num_sgls: number,
  ) => RiStatus;

  // --- Memory regions -------------------------------------------------------------

  /**
   * Allocates an MR STag with no memory (invalid state) for fast-register, reserving PBL room
   * for ≥ `address_list_length` entries (actual returned). `attr` = every right that may ever be
   * enabled; the LTag's key comes from `ltag`; an RTag is returned iff remote rights are in
   * `attr`. All-or-nothing. Freed with `ri_mr_dereg`. The AL answers `NO_PERMISSION` to user
   * callers unless they may register physical memory (not the default).
   *
   * Spec: Ch. 7 `ri_ltag_alloc()` (p. 111) Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE, PD_INVALID_HANDLE,
   * INVALID_PARAMETER, EXT_BMM_UNSUPPORTED, NO_PERMISSION.
   */
  readonly ri_ltag_alloc: (
    rnic: ri_rnic_handle_t,
    address_list_length: number,
    pd: ri_pd_handle_t,
    attr: ri_mem_attr_t,
    ltag: ri_ltag_t,
    vp_data: ri_vp_data_t,
    os_data: ri_os_data_t,
  ) => RiResult<{ address_list_length: number; mr: ri_mr_handle_t; ltag: ri_ltag_t; rtag?: ri_rtag_t }>;

  /**
   * Registers a virtual address range (`va`, `length`, `mem_attr`, `pd`); the VP pins (through
   * `ri_svc_mem_pin`) and translates. `RI_MEM_FLAGS_USER_VA` selects the user address space. The
   * input `ltag` key is used only with `CONSUMER_OWNS_KEY` and `RI_RNIC_EXT_INDEX_KEY_SPLIT`. An
   * RTag is returned iff remote rights were requested (iWARP: RTag == LTag).
   *
   * Spec: Ch. 7 `ri_mr_reg()` (p. 113) Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE, INVALID_PARAMETER,
   * MEM_INVALID_ADDRESS, MEM_INVALID_LENGTH, PD_INVALID_HANDLE, MEM_INVALID_ACCESS,
   * EXT_ZBVA_UNSUPPORTED.
   */
  readonly ri_mr_reg: (
    rnic: ri_rnic_handle_t,
    mr_reg_attr: ri_mr_reg_attr_t,
    ltag: ri_ltag_t,
    vp_data: ri_vp_data_t,
    os_data: ri_os_data_t,
  ) => RiResult<{ mr: ri_mr_handle_t; ltag: ri_ltag_t; rtag?: ri_rtag_t }>;

  /**
   * Returns the registration, tags, sharing, enforced bounds (in the caller's domain) and STag
   * state of an MR.
   *
   * Spec: Ch. 7 `ri_mr_query()` (p. 115) Callers: P, NP, SYS.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, MR_INVALID_HANDLE, INVALID_PARAMETER.
   */
  readonly ri_mr_query: (rnic: ri_rnic_handle_t, mr: ri_mr_handle_t) => RiResult<{ mr_info: ri_mr_info_t }>;

  /**
   * Re-registers a virtually registered region (conceptually dereg + reg), changing translation,
   * PD and/or access per `change_mask`. A new LTag is always returned (an RTag if remote access is
   * newly requested); `out_mr` may differ from `in_mr`. Bound windows → `WINDOWS_BOUND`.
   * Failures WINDOWS_BOUND, RNIC_INVALID_HANDLE, MR_INVALID_HANDLE, INVALID_PARAMETER leave the old
   * registration intact; **any other failure destroys the old registration** too.
   *
   * Spec: Ch. 7 `ri_mr_rereg()` (p. 117) Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE, MR_INVALID_HANDLE,
   * INVALID_PARAMETER, MEM_INVALID_ADDRESS, MEM_INVALID_LENGTH, PD_INVALID_HANDLE,
   * MEM_INVALID_ACCESS, WINDOWS_BOUND, EXT_BMM_UNSUPPORTED, EXT_ZBVA_UNSUPPORTED.
   */
  readonly ri_mr_rereg: (
    rnic: ri_rnic_handle_t,
    in_mr: ri_mr_handle_t,
    change_mask: ri_mr_rereg_t,
    mr_attr: ri_mr_reg_attr_t,
    ltag: ri_ltag_t,
    vp_data: ri_vp_data_t,
    os_data: ri_os_data_t,
  ) => RiResult<{ out_mr: ri_mr_handle_t; ltag: ri_ltag_t; rtag?: ri_rtag_t }>;

  /**
   * Deregisters an MR (from `ri_ltag_alloc`, `ri_mr_reg`, `ri_mr_reg_phys` or
   * `ri_mr_reg_shared`) and unpins what its registration pinned. Bound windows → `WINDOWS_BOUND`
   * (MR stays usable). On success all local access through it has completed or been terminated.
   *
   * Spec: Ch. 7 `ri_mr_dereg()` (p. 120) Callers: P, NP, SYS.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, MR_INVALID_HANDLE, WINDOWS_BOUND.
   */
  readonly ri_mr_dereg: (rnic: ri_rnic_handle_t, mr: ri_mr_handle_t) => RiStatus;

  /**
   * Registers a physical buffer list (page/block list per `pble_size`, or variable-length
   * `ri_phys_buf_t` list). Returns the actual attributes (IB may assign another VA). User callers
   * get `NO_PERMISSION` from the AL unless permitted (not the default).
   *
   * Spec: Ch. 7 `ri_mr_reg_phys()` (p. 122) Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE, INVALID_PARAMETER,
   * MEM_INVALID_ADDRESS, MEM_INVALID_LENGTH, MEM_INVALID_PBLE_LENGTH, MEM_INVALID_PBLE,
   * MEM_INVALID_OFFSET, PD_INVALID_HANDLE, MEM_INVALID_ACCESS, EXT_ZBVA_UNSUPPORTED, NO_PERMISSION.
   */
  readonly ri_mr_reg_phys: (
    rnic: ri_rnic_handle_t,
    mr_phys_attr: ri_mr_reg_phys_attr_t,
    ltag: ri_ltag_t,
    vp_data: ri_vp_data_t,
    os_data: ri_os_data_t,
  ) => RiResult<{
    mr: ri_mr_handle_t;
    mr_phys_attr: ri_mr_reg_phys_attr_t;
    ltag: ri_ltag_t;
    rtag?: ri_rtag_t;
  }>;

  /**
   * Like `ri_mr_rereg` with a physical translation; only for non-shared regions (shared →
   * `MR_INVALID_HANDLE`). Same failure rule: the four "no change" codes keep the old
   * registration, any other failure destroys it. Permission rule as `ri_mr_reg_phys`.
   *
   * Spec: Ch. 7 `ri_mr_rereg_phys()` (p. 124) Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE, MR_INVALID_HANDLE,
   * INVALID_PARAMETER, MEM_INVALID_ADDRESS, MEM_INVALID_LENGTH, MEM_INVALID_PBLE_LENGTH,
   * MEM_INVALID_OFFSET, PD_INVALID_HANDLE, MEM_INVALID_ACCESS, WINDOWS_BOUND,
   * EXT_ZBVA_UNSUPPORTED, EXT_BMM_UNSUPPORTED, NO_PERMISSION.
   */
  readonly ri_mr_rereg_phys: (
    rnic: ri_rnic_handle_t,
    in_mr: ri_mr_handle_t,
    change_mask: ri_mr_rereg_t,
    mr_phys_attr: ri_mr_reg_phys_attr_t,
    ltag: ri_ltag_t,
    rtag: ri_rtag_t,
    vp_data: ri_vp_data_t,
    os_data: ri_os_data_t,
  ) => RiResult<{
    out_mr: ri_mr_handle_t;
    mr_phys_attr: ri_mr_reg_phys_attr_t;
    ltag: ri_ltag_t;
    rtag?: ri_rtag_t;
  }>;

  /**
   * Registers a new MR over the same memory as `in_mr` (sharing translations), possibly with
   * another PD, rights and VA; the length is the original's (input `length` ignored);
   * `NONCOHERENT` is inherited. `SHARED_REG_IOVA`: `va` is an I/O VA. Actual attributes returned.
   *
   * Spec: Ch. 7 `ri_mr_reg_shared()` (p. 127) Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE, MR_INVALID_HANDLE,
   * INVALID_PARAMETER, PD_INVALID_HANDLE, MEM_INVALID_ACCESS, EXT_ZBVA_UNSUPPORTED.
   */
  readonly ri_mr_reg_shared: (
    rnic: ri_rnic_handle_t,
    in_mr: ri_mr_handle_t,
    mr_reg_attr: ri_mr_reg_attr_t,
    ltag: ri_ltag_t,
    vp_data: ri_vp_data_t,
    os_data: ri_os_data_t,
  ) => RiResult<{ out_mr: ri_mr_handle_t; mr_reg_attr: ri_mr_reg_attr_t; ltag: ri_ltag_t; rtag?: ri_rtag_t }>;

  // --- Memory windows -------------------------------------------------------------

  /**
   * Allocates a window of `mw_type` in `pd`; its RTag is invalid until a Bind WR succeeds.
   *
   * Spec: Ch. 7 `ri_mw_alloc()` (p. 129) Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE, INVALID_PARAMETER,
   * PD_INVALID_HANDLE, WINDOW_TYPE_UNSUPPORTED.
   */
  readonly ri_mw_alloc: (
    rnic: ri_rnic_handle_t,
    pd: ri_pd_handle_t,
    mw_type: ri_mw_type_t,
    vp_data: ri_vp_data_t,
    os_data: ri_os_data_t,
  ) => RiResult<{ mw: ri_mw_handle_t; rtag: ri_rtag_t }>;

  /**
   * Deallocates a window; remote requests using it during/after fail. Later calls naming it →
   * `MW_INVALID_HANDLE`.
   *
   * Spec: Ch. 7 `ri_mw_dealloc()` (p. 133) Callers: P, NP, SYS.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, MW_INVALID_HANDLE.
   */
  readonly ri_mw_dealloc: (rnic: ri_rnic_handle_t, mw: ri_mw_handle_t) => RiStatus;

  /**
   * Returns a window's type, STag state, PD, rights (none while unbound) and RTag. (Every C OUT
   * pointer may be NULL; here all are always returned.)
   *
   * Spec: Ch. 7 `ri_mw_query()` (p. 131) Callers: P, NP, SYS.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, MW_INVALID_HANDLE.
   */
  readonly ri_mw_query: (
    rnic: ri_rnic_handle_t,
    mw: ri_mw_handle_t,
  ) => RiResult<{
    mw_type: ri_mw_type_t;
    stag_state: ri_stag_state_t;
    pd: ri_pd_handle_t;
    attr: ri_mem_attr_t;
    rtag: ri_rtag_t;
  }>;

  // --- Pinning, mapping, synchronisation -----------------------------------------

  /**
   * Pins `[vaddr, vaddr+len)` through the RNIC (device-dependent pinning; may simply forward to
   * `ri_svc_mem_pin`). Reference-counted; unpin needs the same range and the same `os_data`.
   * Privileged callers only.
   *
   * Spec: Ch. 7 `ri_mem_pin()` (p. 134) Callers: P, NP, SYS (unprivileged →
   * NO_PERMISSION).
   * Returns: SUCCESS, RESOURCE_SHORTAGE, NO_PERMISSION, RNIC_INVALID_HANDLE, INVALID_PARAMETER.
   */
  readonly ri_mem_pin: (rnic: ri_rnic_handle_t, vaddr: ri_vaddr_t, len: ri_length_t, os_data: ri_os_data_t) => RiStatus;

  /**
   * Unpins a range pinned with `ri_mem_pin` (exactly the same range and `os_data`). Privileged
   * callers only.
   *
   * Spec: Ch. 7 `ri_mem_unpin()` (p. 134) Callers: P, NP, SYS (unprivileged →
   * NO_PERMISSION).
   * Returns: SUCCESS, RESOURCE_SHORTAGE, NO_PERMISSION, RNIC_INVALID_HANDLE, INVALID_PARAMETER.
   */
  readonly ri_mem_unpin: (rnic: ri_rnic_handle_t, vaddr: ri_vaddr_t, len: ri_length_t, os_data: ri_os_data_t) => RiStatus;

  /**
   * Maps a pinned VA range to one adapter-addressable contiguous range `io`; may map only a
   * prefix (`io.phys_len`) — the caller loops, advancing `vaddr` and reducing `len`.
   * Interrupt-safe. Privileged callers only.
   *
   * Spec: Ch. 7 `ri_mem_map()` (p. 137) Callers: P, NP, SYS (unprivileged →
   * NO_PERMISSION).
   * Returns: SUCCESS, RESOURCE_SHORTAGE, NO_PERMISSION, RNIC_INVALID_HANDLE, INVALID_PARAMETER.
   */
  readonly ri_mem_map: (
    rnic: ri_rnic_handle_t,
    vaddr: ri_vaddr_t,
    len: ri_length_t,
    os_data: ri_os_data_t,
  ) => RiResult<{ io: ri_phys_buf_t }>;

  /**
   * Undoes one `ri_mem_map` (same `io`, same `os_data`). Interrupt-safe. Privileged callers only.
   *
   * Spec: Ch. 7 `ri_mem_unmap()` (p. 137) Callers: P, NP, SYS (unprivileged →
   * NO_PERMISSION).
   * Returns: SUCCESS, RESOURCE_SHORTAGE, NO_PERMISSION, RNIC_INVALID_HANDLE, INVALID_PARAMETER.
   */
  readonly ri_mem_unmap: (rnic: ri_rnic_handle_t, io: ri_phys_buf_t, os_data: ri_os_data_t) => RiStatus;

  /**
   * Makes local updates of non-coherent MRs visible before incoming RDMA Reads. Only segments of
   * `NONCOHERENT` MRs are synced; no-op success if unsupported or none is non-coherent. `null`
   * list with `num_seg` > 0 → `INVALID_PARAMETER`. `num_seg` defaults to the list length.
   *
   * Spec: Ch. 7 `ri_mem_sync_rread()` (p. 139) Callers: P, NP, SYS.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, INVALID_PARAMETER, MEM_INVALID_LTAG,
   * MEM_INVALID_ADDRESS, MEM_INVALID_LENGTH.
   */
  readonly ri_mem_sync_rread: (rnic: ri_rnic_handle_t, local_seg_list: readonly ri_data_seg_t[] | null, num_seg?: number) => RiStatus;

  /**
   * Makes completed incoming RDMA Writes to non-coherent MRs visible to local reads. Rules as
   * `ri_mem_sync_rread`.
   *
   * Spec: Ch. 7 `ri_mem_sync_rwrite()` (p. 141) Callers: P, NP, SYS.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, INVALID_PARAMETER, MEM_INVALID_LTAG,
   * MEM_INVALID_ADDRESS, MEM_INVALID_LENGTH.
   */
  readonly ri_mem_sync_rwrite: (rnic: ri_rnic_handle_t, local_seg_list: readonly ri_data_seg_t[] | null, num_seg?: number) => RiStatus;

  // --- InfiniBand-only calls: non-IB RNICs answer XPORT_UNSUPPORTED --------------

  /**
   * IB only: creates a UD address handle from `av` in `pd`.
   *
   * Spec: Ch. 7 `ri_ah_create()` (p. 143) Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE, PD_INVALID_HANDLE,
   * INVALID_PARAMETER, XPORT_UNSUPPORTED.
   */
  readonly ri_ah_create: (
    rnic: ri_rnic_handle_t,
    pd: ri_pd_handle_t,
    av: ri_ud_address_vector_t | null,
    vp_data: ri_vp_data_t,
    os_data: ri_os_data_t,
  ) => RiResult<{ ah: ri_address_handle_t }>;

  /**
   * IB only: returns an address handle's address vector and PD.
   *
   * Spec: Ch. 7 `ri_ah_query()` (p. 145) Callers: P, NP, SYS.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, ADDRESS_HANDLE_INVALID, INVALID_PARAMETER,
   * XPORT_UNSUPPORTED.
   */
  readonly ri_ah_query: (rnic: ri_rnic_handle_t, ah: ri_address_handle_t) => RiResult<{ av: ri_ud_address_vector_t; pd: ri_pd_handle_t }>;

  /**
   * IB only: replaces an address handle's address vector.
   *
   * Spec: Ch. 7 `ri_ah_modify()` (p. 147) Callers: P, NP, SYS.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, ADDRESS_HANDLE_INVALID, INVALID_PARAMETER,
   * XPORT_UNSUPPORTED.
   */
  readonly ri_ah_modify: (rnic: ri_rnic_handle_t, ah: ri_address_handle_t, av: ri_ud_address_vector_t | null) => RiStatus;

  /**
   * IB only: destroys an address handle.
   *
   * Spec: Ch. 7 `ri_ah_destroy()` (p. 148) Callers: P, NP, SYS.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, ADDRESS_HANDLE_INVALID, XPORT_UNSUPPORTED.
   */
  readonly ri_ah_destroy: (rnic: ri_rnic_handle_t, ah: ri_address_handle_t) => RiStatus;

  /**
   * IB only: attaches a UD QP's RQ to multicast group (`mlid`, `mgid`). Non-UD QP →
   * `QP_INVALID_SERVICE_TYPE`; optional feature (`RI_IB_UD_MULTICAST`) → `OP_UNSUPPORTED`.
   *
   * Spec: Ch. 7 `ri_mcast_attach()` (p. 149) Callers: P, NP, SYS.
   * Returns: SUCCESS, RESOURCE_SHORTAGE, RNIC_INVALID_HANDLE, MGID_INVALID, MLID_INVALID,
   * QP_INVALID_HANDLE, QP_INVALID_SERVICE_TYPE, RNIC_QPS_PER_MCAST_PORT_EXCEEDED, OP_UNSUPPORTED,
   * XPORT_UNSUPPORTED.
   */
  readonly ri_mcast_attach: (
    rnic: ri_rnic_handle_t,
    mlid: ri_lid_t,
    mgid: ri_gid_t,
    qp: ri_qp_handle_t,
    vp_data: ri_vp_data_t,
    os_data: ri_os_data_t,
  ) => RiStatus;

  /**
   * IB only: detaches a QP from a multicast group (all inputs must match the attach).
   *
   * Spec: Ch. 7 `ri_mcast_detach()` (p. 151) Callers: P, NP, SYS.
   * Returns: SUCCESS, RNIC_INVALID_HANDLE, MLID_INVALID, MGID_INVALID, QP_INVALID_HANDLE,
   * XPORT_UNSUPPORTED, OP_UNSUPPORTED.
   */
  readonly ri_mcast_detach: (rnic: ri_rnic_handle_t, mlid: ri_lid_t, mgid: ri_gid_t, qp: ri_qp_handle_t) => RiStatus;

  /**
   * IB only: hands an SMA SubnGet/SubnSet MAD (`in_mad`, 256 bytes) to the IHV code, which writes
   * the SubnGetResp into `out_mad`. Interrupt-safe.
   *
   * Spec: Ch. 7 `ri_process_sma_mad()` (p. 153) Callers: P, NP, SYS.
   * Returns: SUCCESS, XPORT_UNSUPPORTED (FAIL = could not process).
   */
  readonly ri_process_sma_mad: (rnic: ri_rnic_handle_t, port_num: number, in_mad: Uint8Array, out_mad: Uint8Array) => RiStatus;
}

/** Name of an `ri_ops_t` entry (reference-page name). */
export type RiOpName = keyof ri_ops_t;

// Per-op function types under the header's `ri_op_<name>_t` names.
export type ri_op_rnic_open_t = ri_ops_t['ri_rnic_open'];
export type ri_op_rnic_close_t = ri_ops_t['ri_rnic_close'];
export type ri_op_async_set_event_handler_t = ri_ops_t['ri_async_set_event_handler'];
export type ri_op_rnic_get_hdl_t = ri_ops_t['ri_rnic_get_hdl'];
export type ri_op_rnic_query_t = ri_ops_t['ri_rnic_query'];
export type ri_op_rnic_modify_t = ri_ops_t['ri_rnic_modify'];
export type ri_op_rnic_free_hdl_t = ri_ops_t['ri_rnic_free_hdl'];
export type ri_op_rnic_diag_t = ri_ops_t['ri_rnic_diag'];
export type ri_op_pd_alloc_t = ri_ops_t['ri_pd_alloc'];
export type ri_op_pd_dealloc_t = ri_ops_t['ri_pd_dealloc'];
export type ri_op_cq_create_t = ri_ops_t['ri_cq_create'];
export type ri_op_cq_query_t = ri_ops_t['ri_cq_query'];
export type ri_op_cq_modify_t = ri_ops_t['ri_cq_modify'];
export type ri_op_cq_destroy_t = ri_ops_t['ri_cq_destroy'];
export type ri_op_special_qp_get_t = ri_ops_t['ri_special_qp_get'];
export type ri_op_cq_set_event_handler_t = ri_ops_t['ri_cq_set_event_handler'];
export type ri_op_cq_req_notification_t = ri_ops_t['ri_cq_req_notification'];
export type ri_op_cq_poll_t = ri_ops_t['ri_cq_poll'];
export type ri_op_qp_create_t = ri_ops_t['ri_qp_create'];
export type ri_op_qp_query_t = ri_ops_t['ri_qp_query'];
export type ri_op_qp_modify_t = ri_ops_t['ri_qp_modify'];
export type ri_op_qp_destroy_t = ri_ops_t['ri_qp_destroy'];
export type ri_op_qp_postsq_t = ri_ops_t['ri_qp_postsq'];
export type ri_op_qp_post_send_t = ri_ops_t['ri_qp_post_send'];
export type ri_op_qp_post_rdma_read_t = ri_ops_t['ri_qp_post_rdma_read'];
export type ri_op_qp_post_rdma_write_t = ri_ops_t['ri_qp_post_rdma_write'];
export type ri_op_qp_post_bind_t = ri_ops_t['ri_qp_post_bind'];
export type ri_op_qp_post_fmr_t = ri_ops_t['ri_qp_post_fmr'];
export type ri_op_qp_post_local_invalidate_t = ri_ops_t['ri_qp_post_local_invalidate'];
export type ri_op_qp_post_atomic_t = ri_ops_t['ri_qp_post_atomic'];
export type ri_op_qp_post_datagram_t = ri_ops_t['ri_qp_post_datagram'];
export type ri_op_qp_postrq_t = ri_ops_t['ri_qp_postrq'];
export type ri_op_qp_post_recv_t = ri_ops_t['ri_qp_post_recv'];
export type ri_op_srq_create_t = ri_ops_t['ri_srq_create'];
export type ri_op_srq_query_t = ri_ops_t['ri_srq_query'];
export type ri_op_srq_modify_t = ri_ops_t['ri_srq_modify'];
export type ri_op_srq_destroy_t = ri_ops_t['ri_srq_destroy'];
export type ri_op_srq_post_t = ri_ops_t['ri_srq_post'];
export type ri_op_srq_post_recv_t = ri_ops_t['ri_srq_post_recv'];
export type ri_op_ltag_alloc_t = ri_ops_t['ri_ltag_alloc'];
export type ri_op_mr_reg_t = ri_ops_t['ri_mr_reg'];
export type ri_op_mr_query_t = ri_ops_t['ri_mr_query'];
export type ri_op_mr_rereg_t = ri_ops_t['ri_mr_rereg'];
export type ri_op_mr_dereg_t = ri_ops_t['ri_mr_dereg'];
export type ri_op_mr_reg_phys_t = ri_ops_t['ri_mr_reg_phys'];
export type ri_op_mr_rereg_phys_t = ri_ops_t['ri_mr_rereg_phys'];
export type ri_op_mr_reg_shared_t = ri_ops_t['ri_mr_reg_shared'];
export type ri_op_mw_alloc_t = ri_ops_t['ri_mw_alloc'];
export type ri_op_mw_dealloc_t = ri_ops_t['ri_mw_dealloc'];
export type ri_op_mw_query_t = ri_ops_t['ri_mw_query'];
export type ri_op_mem_pin_t = ri_ops_t['ri_mem_pin'];
export type ri_op_mem_unpin_t = ri_ops_t['ri_mem_unpin'];
export type ri_op_mem_map_t = ri_ops_t['ri_mem_map'];
export type ri_op_mem_unmap_t = ri_ops_t['ri_mem_unmap'];
export type ri_op_mem_sync_rread_t = ri_ops_t['ri_mem_sync_rread'];
export type ri_op_mem_sync_rwrite_t = ri_ops_t['ri_mem_sync_rwrite'];
export type ri_op_ah_create_t = ri_ops_t['ri_ah_create'];
export type ri_op_ah_query_t = ri_ops_t['ri_ah_query'];
export type ri_op_ah_modify_t = ri_ops_t['ri_ah_modify'];
export type ri_op_ah_destroy_t = ri_ops_t['ri_ah_destroy'];
export type ri_op_mcast_attach_t = ri_ops_t['ri_mcast_attach'];
export type ri_op_mcast_detach_t = ri_ops_t['ri_mcast_detach'];
export type ri_op_process_sma_mad_t = ri_ops_t['ri_process_sma_mad'];

// =============================================================================================
// Machine-readable call table (for the AL's privilege gate, stubs, docs and tests)
// =============================================================================================

/** Who may call an op. */
export type RiPrivilege =
  /** Exists only in the P-RNICPI; user-level entry point is a stub returning `NO_PERMISSION`. */
  | 'kernel-only'
  /** Listed for NP/SYS but the page says privileged callers only: unprivileged → `NO_PERMISSION`. */
  | 'privileged-only'
  /** The AL MUST answer `NO_PERMISSION` to user callers unless they hold a (non-default) credential. */
  | 'privileged-by-default'
  /** Any caller (specific WR types or attributes may still need privilege: fast-register, STag0). */
  | 'any';

/** Static facts about one `ri_*` call. */
export interface RiOpInfo {
  /** Header `struct ri_ops` member name. */
  readonly member: `ri_op_${string}`;
  /** Position in `struct ri_ops` (0-based). */
  readonly index: number;
  /** Reference page and printed page number in the spec. */
  readonly spec: string;
  /** Section of the RNICPI 1.0 overview this call belongs to (chapter 5 numbering: §5.1 RNIC management … §5.13 SYS-RNICPI). */
  readonly digest: string;
  /** Interfaces listing the call (Table 1). */
  readonly interfaces: readonly ('P' | 'NP' | 'SYS')[];
  readonly privilege: RiPrivilege;
  /** `true`: non-IB RNICs answer `XPORT_UNSUPPORTED` (the code listed in `unsupported`). */
  readonly ibOnly: boolean;
  /** Code for "not supported here" (transport, optional feature), if the page defines one. */
  readonly unsupported?: RiErrorCode;
  /** The page says the (kernel) call may be used in interrupt context: the fast path. */
  readonly interruptSafe: boolean;
  /** Codes the page lists (SUCCESS first; FAIL is implied for every call and not listed). */
  readonly returns: readonly RiRet[];
  /** One-line semantic summary. */
  readonly summary: string;
}

const R = RiRet;
const PNS: readonly ('P' | 'NP' | 'SYS')[] = Object.freeze(['P', 'NP', 'SYS']);
const PN: readonly ('P' | 'NP' | 'SYS')[] = Object.freeze(['P', 'NP']);
const P: readonly ('P' | 'NP' | 'SYS')[] = Object.freeze(['P']);

const POSTSQ_RETURNS: readonly RiRet[] = Object.freeze([
  R.SUCCESS,
  R.RNIC_INVALID_HANDLE,
  R.QP_INVALID_HANDLE,
  R.QP_CAPACITY_EXCEEDED,
  R.WR_INVALID_TYPE,
  R.QP_INVALID_STATE,
  R.WR_INVALID_FLAGS,
  R.WR_SG_INVALID_FORMAT,
  R.ADDRESS_HANDLE_INVALID,
  R.INVALID_WINDOW_TYPE,
  R.MW_INVALID_HANDLE,
  R.MR_INVALID_HANDLE,
  R.MEM_INVALID_RTAG,
  R.MEM_INVALID_LTAG,
  R.MEM_INVALID_ADDRESS,
  R.MEM_INVALID_LENGTH,
  R.MEM_INVALID_ACCESS,
  R.RNIC_SG_LIMIT_EXCEEDED,
  R.RNIC_ATOMICS_UNSUPPORTED,
  R.EXT_BMM_UNSUPPORTED,
  R.EXT_LIF_UNSUPPORTED,
  R.RNIC_NOT_IN_BLOCK_MODE,
  R.RNIC_NOT_IN_PAGE_MODE,
  R.EXT_ZBVA_UNSUPPORTED,
  R.NO_PERMISSION,
]);
const POSTRQ_RETURNS: readonly RiRet[] = Object.freeze([
  R.SUCCESS,
  R.QP_INVALID_HANDLE,
  R.RNIC_INVALID_HANDLE,
  R.WR_SG_INVALID_FORMAT,
  R.SRQ_INVALID_HANDLE,
  R.WR_INVALID_FLAGS,
  R.QP_INVALID_STATE,
  R.QP_CAPACITY_EXCEEDED,
  R.RNIC_SG_LIMIT_EXCEEDED,
  R.QP_TIED_TO_SRQ,
  R.SRQ_UNSUPPORTED,
]);

type OpRow = Omit<RiOpInfo, 'index' | 'member'>;

function op(
  spec: string,
  digest: string,
  interfaces: readonly ('P' | 'NP' | 'SYS')[],
  privilege: RiPrivilege,
  returns: readonly RiRet[],
  summary: string,
  extra: { ibOnly?: boolean; unsupported?: RiErrorCode; interruptSafe?: boolean } = {},
): OpRow {
  return {
    spec,
    digest,
    interfaces,
    privilege,
    ibOnly: extra.ibOnly ?? false,
    ...(extra.unsupported === undefined ? {} : { unsupported: extra.unsupported }),
    interruptSafe: extra.interruptSafe ?? false,
    returns: Object.freeze([...returns]),
    summary,
  };
}

const FAST = { interruptSafe: true } as const;
const IB = { ibOnly: true, unsupported: R.XPORT_UNSUPPORTED } as const;

/** The rows, in `struct ri_ops` order. */
const OP_ROWS: { readonly [K in RiOpName]: OpRow } = {
  ri_rnic_open: op(
    'Ch. 7 ri_rnic_open() p. 40',
    '§5.1',
    P,
    'kernel-only',
    [R.SUCCESS, R.RESOURCE_SHORTAGE, R.VP_INVALID_HANDLE, R.INVALID_PARAMETER, R.NO_PERMISSION, R.INVALID_PBL_MODE, R.RNIC_INUSE],
    'Open the RNIC in page or block PBL mode (fixed until close); keeps os_data as vp_hdl_os_data; callable from inside ri_svc_attach.',
  ),
  ri_rnic_close: op(
    'Ch. 7 ri_rnic_close() p. 42',
    '§5.1',
    P,
    'kernel-only',
    [R.SUCCESS, R.VP_INVALID_HANDLE, R.RNIC_INUSE, R.NO_PERMISSION],
    'Close the RNIC; all RNIC handles must be freed first; no upcall in progress after return.',
  ),
  ri_async_set_event_handler: op(
    'Ch. 7 ri_async_set_event_handler() p. 44',
    '§5.1',
    P,
    'kernel-only',
    [R.SUCCESS, R.VP_INVALID_HANDLE, R.NO_PERMISSION],
    'Set/replace/clear (null) the single async event handler; earlier events are lost.',
  ),
  ri_rnic_get_hdl: op(
    'Ch. 7 ri_rnic_get_hdl() p. 48',
    '§5.1',
    PNS,
    'any',
    [R.SUCCESS, R.RESOURCE_SHORTAGE, R.VP_INVALID_HANDLE, R.INVALID_PARAMETER, R.RNIC_NOT_OPEN],
    'Create a consumer RNIC handle; the ops vector used fixes its locking model; RNIC must be open.',
  ),
  ri_rnic_query: op(
    'Ch. 7 ri_rnic_query() p. 50',
    '§5.1, §6.3',
    PNS,
    'any',
    [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.BUFFER_TOO_SMALL],
    'RNIC (+ port) attributes; BUFFER_TOO_SMALL reports the needed attr_size.',
  ),
  ri_rnic_modify: op(
    'Ch. 7 ri_rnic_modify() p. 52',
    '§5.1',
    PNS,
    'privileged-only',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.NO_PERMISSION, R.OP_UNSUPPORTED, R.XPORT_UNSUPPORTED],
    'IB only: modify SI GUID / port attributes; non-IB → XPORT_UNSUPPORTED.',
    IB,
  ),
  ri_rnic_free_hdl: op(
    'Ch. 7 ri_rnic_free_hdl() p. 55',
    '§5.1',
    PNS,
    'any',
    [R.SUCCESS, R.VP_INVALID_HANDLE, R.RNIC_INVALID_HANDLE, R.RNIC_INUSE],
    'Free an RNIC handle; any object still allocated through it → RNIC_INUSE.',
  ),
  ri_rnic_diag: op(
    'Ch. 7 ri_rnic_diag() p. 57',
    '§5.1',
    PNS,
    'privileged-only',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.BUFFER_TOO_SMALL, R.OP_UNSUPPORTED, R.NO_PERMISSION],
    'Diagnostics text/dump/reset; two-call BUFFER_TOO_SMALL idiom; every op optional (OP_UNSUPPORTED).',
    { unsupported: R.OP_UNSUPPORTED },
  ),
  ri_pd_alloc: op(
    'Ch. 7 ri_pd_alloc() p. 60',
    '§5.2',
    PNS,
    'any',
    [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE],
    'Allocate a protection domain.',
  ),
  ri_pd_dealloc: op(
    'Ch. 7 ri_pd_dealloc() p. 60',
    '§5.2',
    PNS,
    'any',
    [R.SUCCESS, R.PD_INUSE, R.RNIC_INVALID_HANDLE, R.PD_INVALID_HANDLE],
    'Free a PD; still referenced by QP/SRQ/MR/MW/AH → PD_INUSE.',
  ),
  ri_cq_create: op(
    'Ch. 7 ri_cq_create() p. 62',
    '§5.3',
    PNS,
    'any',
    [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.CQ_CAPACITY_EXCEEDED, R.CQ_INVALID_EVENT_HANDLER],
    'Create a CQ (≥ num_cqe); handler_id fixed for life (0 = never armable); os_data = CQ identity.',
  ),
  ri_cq_query: op(
    'Ch. 7 ri_cq_query() p. 64',
    '§5.3',
    PNS,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.CQ_INVALID_HANDLE, R.INVALID_PARAMETER, R.CQ_ERROR],
    'CQ size and handler ID; CQ_ERROR after overrun.',
  ),
  ri_cq_modify: op(
    'Ch. 7 ri_cq_modify() p. 66',
    '§5.3',
    PNS,
    'any',
    [
      R.SUCCESS,
      R.RESOURCE_SHORTAGE,
      R.RNIC_INVALID_HANDLE,
      R.CQ_INVALID_HANDLE,
      R.INVALID_PARAMETER,
      R.CQ_CAPACITY_EXCEEDED,
      R.CQ_WOULD_OVERFLOW,
      R.CQ_ERROR,
    ],
    'Resize a CQ without losing completions; below outstanding → CQ_WOULD_OVERFLOW.',
  ),
  ri_cq_destroy: op(
    'Ch. 7 ri_cq_destroy() p. 68',
    '§5.3',
    PNS,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.CQ_INVALID_HANDLE, R.CQ_INUSE],
    'Destroy a CQ; used by a QP → CQ_INUSE; unreaped WCs discarded; no callback afterwards.',
  ),
  ri_special_qp_get: op(
    'Ch. 7 ri_special_qp_get() p. 90',
    '§5.4, §5.11',
    PNS,
    'any',
    [
      R.SUCCESS,
      R.RESOURCE_SHORTAGE,
      R.INVALID_PARAMETER,
      R.RNIC_INVALID_HANDLE,
      R.QP_INVALID_SPECIAL_TYPE,
      R.QP_INUSE,
      R.RNIC_INVALID_PORT,
      R.CQ_INVALID_HANDLE,
      R.RNIC_WR_LIMIT_EXCEEDED,
      R.RNIC_SG_LIMIT_EXCEEDED,
      R.PD_INVALID_HANDLE,
      R.XPORT_UNSUPPORTED,
    ],
    'IB only: get QP0/QP1 of a port (once per port until destroyed).',
    IB,
  ),
  ri_cq_set_event_handler: op(
    'Ch. 7 ri_cq_set_event_handler() p. 69',
    '§5.3',
    P,
    'kernel-only',
    [R.SUCCESS, R.RESOURCE_SHORTAGE, R.VP_INVALID_HANDLE, R.INVALID_PARAMETER, R.INVALID_HANDLER_ID, R.NO_PERMISSION],
    'Allocate (id 0) or rebind a CEH ID; null callback silences it; does not arm.',
  ),
  ri_cq_req_notification: op(
    'Ch. 7 ri_cq_req_notification() p. 71',
    '§5.3',
    PN,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.CQ_INVALID_HANDLE, R.INVALID_PARAMETER, R.CQ_NO_EVENT_HANDLER],
    'Arm once for the next SOLICITED/ANY completion; existing entries never fire; errors are solicited.',
    FAST,
  ),
  ri_cq_poll: op(
    'Ch. 7 ri_cq_poll() p. 73',
    '§5.3, §6.10',
    PN,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.CQ_INVALID_HANDLE, R.CQ_EMPTY],
    'Reap up to num_wcs WCs; only CQ_EMPTY proves the CQ drained.',
    FAST,
  ),
  ri_qp_create: op(
    'Ch. 7 ri_qp_create() p. 79',
    '§5.4, §6.7',
    PNS,
    'any',
    [
      R.SUCCESS,
      R.RESOURCE_SHORTAGE,
      R.INVALID_PARAMETER,
      R.RNIC_INVALID_HANDLE,
      R.CQ_INVALID_HANDLE,
      R.RNIC_WR_LIMIT_EXCEEDED,
      R.RNIC_SG_LIMIT_EXCEEDED,
      R.PD_INVALID_HANDLE,
      R.SRQ_INVALID_HANDLE,
      R.QP_INVALID_SERVICE_TYPE,
      R.SRQ_LIMIT_OUT_OF_RANGE,
      R.SRQ_UNSUPPORTED,
      R.EXT_BMM_UNSUPPORTED,
      R.MPA_ATTR_UNSUPPORTED,
      R.INVALID_DDP_RDMAP_VERSION,
      R.NO_PERMISSION,
    ],
    'Create a QP in IDLE; returns qp_id and actual sizes (≥ requested); os_data = QP identity.',
  ),
  ri_qp_query: op(
    'Ch. 7 ri_qp_query() p. 82',
    '§5.4',
    PNS,
    'any',
    [R.SUCCESS, R.INVALID_PARAMETER, R.RNIC_INVALID_HANDLE, R.QP_INVALID_HANDLE],
    'All QP attributes; scq/rcq/srq as os_data; LLP handle current or null.',
  ),
  ri_qp_modify: op(
    'Ch. 7 ri_qp_modify() p. 83',
    '§4.4–4.6, §5.4',
    PNS,
    'any',
    [
      R.SUCCESS,
      R.RESOURCE_SHORTAGE,
      R.RNIC_INVALID_HANDLE,
      R.QP_INVALID_HANDLE,
      R.INVALID_PARAMETER,
      R.RNIC_INVALID_PKEY_INDEX,
      R.RNIC_INVALID_PKEY_ENTRY,
      R.QP_INVALID_STATE,
      R.RNIC_INVALID_MTU,
      R.RNIC_INVALID_PORT,
      R.MIGRATION_STATE_INVALID,
      R.RNIC_INVALID_RNR_VALUE,
      R.QP_INVALID_SERVICE_TYPE,
      R.INVALID_LL_HANDLE,
      R.QP_ATTRIBUTE_CANT_CHANGE,
      R.QP_RESIZE_UNSUPPORTED,
      R.RNIC_ATOMICS_UNSUPPORTED,
      R.RNIC_WR_LIMIT_EXCEEDED,
      R.RNIC_IRD_ORD_EXCEEDED,
      R.QP_CANNOT_SHRINK,
      R.WINDOWS_BOUND,
      R.STILL_FLUSHING_WQES,
      R.SRQ_LIMIT_OUT_OF_RANGE,
      R.NO_PERMISSION,
      R.MPA_ATTR_UNSUPPORTED,
      R.INVALID_DDP_RDMAP_VERSION,
      R.LL_BAD_STATE,
    ],
    'All-or-nothing attribute change / state transition; iWARP conversion (LLP handle, last streaming msg, MPA attrs).',
  ),
  ri_qp_destroy: op(
    'Ch. 7 ri_qp_destroy() p. 88',
    '§5.4',
    PNS,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.QP_INVALID_HANDLE, R.WINDOWS_BOUND, R.MULTICAST_ATTACHED],
    'Destroy a QP; Type 2A windows bound → WINDOWS_BOUND; outstanding WRs cancelled silently.',
  ),
  ri_qp_postsq: op(
    'Ch. 7 ri_qp_postsq() p. 93',
    '§5.5, §6.9',
    PN,
    'any',
    POSTSQ_RETURNS,
    'Post a WR list in order; partial success via num_wrs; WRs copied; Error state flushes.',
    FAST,
  ),
  ri_qp_post_send: op(
    'Ch. 7 ri_qp_post_send() p. 93',
    '§5.5',
    PN,
    'any',
    POSTSQ_RETURNS,
    'Post one Send / Send-with-Invalidate / IB Send-with-Immediate.',
    FAST,
  ),
  ri_qp_post_rdma_read: op(
    'Ch. 7 ri_qp_post_rdma_read() p. 93',
    '§5.5',
    PN,
    'any',
    POSTSQ_RETURNS,
    'Post one RDMA Read (or iWARP Read with Local Invalidate, ≤ 1 SGE).',
    FAST,
  ),
  ri_qp_post_rdma_write: op(
    'Ch. 7 ri_qp_post_rdma_write() p. 93',
    '§5.5',
    PN,
    'any',
    POSTSQ_RETURNS,
    'Post one RDMA Write (or IB Write with Immediate).',
    FAST,
  ),
  ri_qp_post_bind: op('Ch. 7 ri_qp_post_bind() p. 93', '§3.8, §5.5', PN, 'any', POSTSQ_RETURNS, 'Post one Memory Window Bind.', FAST),
  ri_qp_post_fmr: op(
    'Ch. 7 ri_qp_post_fmr() p. 93',
    '§3.3, §5.5',
    PN,
    'any',
    POSTSQ_RETURNS,
    'Post one Fast-Register (privileged consumers only).',
    FAST,
  ),
  ri_qp_post_local_invalidate: op(
    'Ch. 7 ri_qp_post_local_invalidate() p. 93',
    '§5.5',
    PN,
    'any',
    POSTSQ_RETURNS,
    'Post one Local Invalidate of an MR or MW (Type 1 window → INVALID_WINDOW_TYPE).',
    FAST,
  ),
  ri_qp_post_atomic: op(
    'Ch. 7 ri_qp_post_atomic() p. 93',
    '§5.5',
    PN,
    'any',
    POSTSQ_RETURNS,
    'Post one IB atomic (CAS/FAA); no atomics (iWARP) → RNIC_ATOMICS_UNSUPPORTED.',
    { interruptSafe: true, unsupported: R.RNIC_ATOMICS_UNSUPPORTED },
  ),
  ri_qp_post_datagram: op(
    'Ch. 7 ri_qp_post_datagram() p. 93',
    '§5.5',
    PN,
    'any',
    [...POSTSQ_RETURNS, R.XPORT_UNSUPPORTED],
    'Post one IB UD datagram; non-IB → XPORT_UNSUPPORTED (softrdma decision).',
    { ...IB, interruptSafe: true },
  ),
  ri_qp_postrq: op(
    'Ch. 7 ri_qp_postrq() p. 100',
    '§5.6',
    PN,
    'any',
    POSTRQ_RETURNS,
    'Post receive WRs to the RQ; QP on an SRQ → QP_TIED_TO_SRQ; Error state flushes.',
    FAST,
  ),
  ri_qp_post_recv: op('Ch. 7 ri_qp_post_recv() p. 100', '§5.6', PN, 'any', POSTRQ_RETURNS, 'Post one receive WR to the RQ.', FAST),
  ri_srq_create: op(
    'Ch. 7 ri_srq_create() p. 104',
    '§5.7, §6.8',
    PNS,
    'any',
    [
      R.SUCCESS,
      R.RESOURCE_SHORTAGE,
      R.RNIC_INVALID_HANDLE,
      R.INVALID_PARAMETER,
      R.RNIC_WR_LIMIT_EXCEEDED,
      R.RNIC_SG_LIMIT_EXCEEDED,
      R.PD_INVALID_HANDLE,
      R.SRQ_LIMIT_OUT_OF_RANGE,
      R.SRQ_UNSUPPORTED,
    ],
    'Create an SRQ (actual sizes ≥ requested); non-zero lowat arms the limit.',
    { unsupported: R.SRQ_UNSUPPORTED },
  ),
  ri_srq_query: op(
    'Ch. 7 ri_srq_query() p. 106',
    '§5.7',
    PNS,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.SRQ_INVALID_HANDLE, R.INVALID_PARAMETER, R.SRQ_UNSUPPORTED, R.SRQ_IN_ERROR],
    'SRQ attributes incl. srq_armed.',
    { unsupported: R.SRQ_UNSUPPORTED },
  ),
  ri_srq_modify: op(
    'Ch. 7 ri_srq_modify() p. 107',
    '§5.7',
    PNS,
    'any',
    [
      R.SUCCESS,
      R.RESOURCE_SHORTAGE,
      R.RNIC_INVALID_HANDLE,
      R.SRQ_INVALID_HANDLE,
      R.INVALID_PARAMETER,
      R.RNIC_WR_LIMIT_EXCEEDED,
      R.SRQ_IN_ERROR,
      R.SRQ_RESIZE_UNSUPPORTED,
      R.SRQ_LIMIT_OUT_OF_RANGE,
      R.SRQ_CANNOT_SHRINK,
      R.SRQ_UNSUPPORTED,
    ],
    'All-or-nothing resize and/or set+arm the limit (no disarm).',
    { unsupported: R.SRQ_UNSUPPORTED },
  ),
  ri_srq_destroy: op(
    'Ch. 7 ri_srq_destroy() p. 109',
    '§5.7',
    PNS,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.SRQ_INVALID_HANDLE, R.SRQ_INUSE, R.SRQ_UNSUPPORTED],
    'Destroy an SRQ after its QPs (SRQ_INUSE); remaining WRs are NOT flushed.',
    { unsupported: R.SRQ_UNSUPPORTED },
  ),
  ri_srq_post: op('Ch. 7 ri_srq_post() p. 100', '§5.6', PN, 'any', POSTRQ_RETURNS, 'Post receive WRs to an SRQ.', {
    interruptSafe: true,
    unsupported: R.SRQ_UNSUPPORTED,
  }),
  ri_srq_post_recv: op('Ch. 7 ri_srq_post_recv() p. 100', '§5.6', PN, 'any', POSTRQ_RETURNS, 'Post one receive WR to an SRQ.', {
    interruptSafe: true,
    unsupported: R.SRQ_UNSUPPORTED,
  }),
  ri_ltag_alloc: op(
    'Ch. 7 ri_ltag_alloc() p. 111',
    '§5.8',
    PNS,
    'privileged-by-default',
    [
      R.SUCCESS,
      R.RESOURCE_SHORTAGE,
      R.RNIC_INVALID_HANDLE,
      R.PD_INVALID_HANDLE,
      R.INVALID_PARAMETER,
      R.EXT_BMM_UNSUPPORTED,
      R.NO_PERMISSION,
    ],
    'Allocate an invalid MR STag with PBL room for fast-register (needs BMM).',
    { unsupported: R.EXT_BMM_UNSUPPORTED },
  ),
  ri_mr_reg: op(
    'Ch. 7 ri_mr_reg() p. 113',
    '§3, §5.8',
    PNS,
    'any',
    [
      R.SUCCESS,
      R.RESOURCE_SHORTAGE,
      R.RNIC_INVALID_HANDLE,
      R.INVALID_PARAMETER,
      R.MEM_INVALID_ADDRESS,
      R.MEM_INVALID_LENGTH,
      R.PD_INVALID_HANDLE,
      R.MEM_INVALID_ACCESS,
      R.EXT_ZBVA_UNSUPPORTED,
    ],
    'Register a virtual range (VP pins + translates); RTag iff remote rights.',
  ),
  ri_mr_query: op(
    'Ch. 7 ri_mr_query() p. 115',
    '§5.8',
    PNS,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.MR_INVALID_HANDLE, R.INVALID_PARAMETER],
    'MR registration, tags, sharing, enforced bounds, STag state.',
  ),
  ri_mr_rereg: op(
    'Ch. 7 ri_mr_rereg() p. 117',
    '§5.8',
    PNS,
    'any',
    [
      R.SUCCESS,
      R.RESOURCE_SHORTAGE,
      R.RNIC_INVALID_HANDLE,
      R.MR_INVALID_HANDLE,
      R.INVALID_PARAMETER,
      R.MEM_INVALID_ADDRESS,
      R.MEM_INVALID_LENGTH,
      R.PD_INVALID_HANDLE,
      R.MEM_INVALID_ACCESS,
      R.WINDOWS_BOUND,
      R.EXT_BMM_UNSUPPORTED,
      R.EXT_ZBVA_UNSUPPORTED,
    ],
    'Virtual re-registration; failures other than 4 "no change" codes destroy the old MR.',
  ),
  ri_mr_dereg: op(
    'Ch. 7 ri_mr_dereg() p. 120',
    '§5.8',
    PNS,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.MR_INVALID_HANDLE, R.WINDOWS_BOUND],
    'Deregister an MR and unpin; bound windows → WINDOWS_BOUND (MR unchanged).',
  ),
  ri_mr_reg_phys: op(
    'Ch. 7 ri_mr_reg_phys() p. 122',
    '§5.8',
    PNS,
    'privileged-by-default',
    [
      R.SUCCESS,
      R.RESOURCE_SHORTAGE,
      R.RNIC_INVALID_HANDLE,
      R.INVALID_PARAMETER,
      R.MEM_INVALID_ADDRESS,
      R.MEM_INVALID_LENGTH,
      R.MEM_INVALID_PBLE_LENGTH,
      R.MEM_INVALID_PBLE,
      R.MEM_INVALID_OFFSET,
      R.PD_INVALID_HANDLE,
      R.MEM_INVALID_ACCESS,
      R.EXT_ZBVA_UNSUPPORTED,
      R.NO_PERMISSION,
    ],
    'Register a physical buffer/page/block list.',
  ),
  ri_mr_rereg_phys: op(
    'Ch. 7 ri_mr_rereg_phys() p. 124',
    '§5.8',
    PNS,
    'privileged-by-default',
    [
      R.SUCCESS,
      R.RESOURCE_SHORTAGE,
      R.RNIC_INVALID_HANDLE,
      R.MR_INVALID_HANDLE,
      R.INVALID_PARAMETER,
      R.MEM_INVALID_ADDRESS,
      R.MEM_INVALID_LENGTH,
      R.MEM_INVALID_PBLE_LENGTH,
      R.MEM_INVALID_OFFSET,
      R.PD_INVALID_HANDLE,
      R.MEM_INVALID_ACCESS,
      R.WINDOWS_BOUND,
      R.EXT_ZBVA_UNSUPPORTED,
      R.EXT_BMM_UNSUPPORTED,
      R.NO_PERMISSION,
    ],
    'Physical re-registration of a non-shared MR; same destroy-on-failure rule as ri_mr_rereg.',
  ),
  ri_mr_reg_shared: op(
    'Ch. 7 ri_mr_reg_shared() p. 127',
    '§5.8',
    PNS,
    'any',
    [
      R.SUCCESS,
      R.RESOURCE_SHORTAGE,
      R.RNIC_INVALID_HANDLE,
      R.MR_INVALID_HANDLE,
      R.INVALID_PARAMETER,
      R.PD_INVALID_HANDLE,
      R.MEM_INVALID_ACCESS,
      R.EXT_ZBVA_UNSUPPORTED,
    ],
    "New MR sharing an MR's memory (original length; other PD/rights/VA allowed).",
  ),
  ri_mw_alloc: op(
    'Ch. 7 ri_mw_alloc() p. 129',
    '§3.8, §5.9',
    PNS,
    'any',
    [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.PD_INVALID_HANDLE, R.WINDOW_TYPE_UNSUPPORTED],
    'Allocate an unbound window (invalid RTag) of a given type.',
    { unsupported: R.WINDOW_TYPE_UNSUPPORTED },
  ),
  ri_mw_dealloc: op(
    'Ch. 7 ri_mw_dealloc() p. 133',
    '§5.9',
    PNS,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.MW_INVALID_HANDLE],
    'Deallocate a window; later use → MW_INVALID_HANDLE.',
  ),
  ri_mw_query: op(
    'Ch. 7 ri_mw_query() p. 131',
    '§5.9',
    PNS,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.MW_INVALID_HANDLE],
    'Window type, STag state, PD, rights, RTag (by handle, not RTag).',
  ),
  ri_mem_pin: op(
    'Ch. 7 ri_mem_pin() p. 134',
    '§3.6, §5.10',
    PNS,
    'privileged-only',
    [R.SUCCESS, R.RESOURCE_SHORTAGE, R.NO_PERMISSION, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER],
    'Reference-counted pin through the RNIC.',
  ),
  ri_mem_unpin: op(
    'Ch. 7 ri_mem_unpin() p. 134',
    '§3.6, §5.10',
    PNS,
    'privileged-only',
    [R.SUCCESS, R.RESOURCE_SHORTAGE, R.NO_PERMISSION, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER],
    'Unpin exactly a pinned range with the same os_data.',
  ),
  ri_mem_map: op(
    'Ch. 7 ri_mem_map() p. 137',
    '§3.6, §5.10',
    PNS,
    'privileged-only',
    [R.SUCCESS, R.RESOURCE_SHORTAGE, R.NO_PERMISSION, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER],
    'Map a pinned VA prefix to one contiguous adapter range (caller loops).',
    FAST,
  ),
  ri_mem_unmap: op(
    'Ch. 7 ri_mem_unmap() p. 137',
    '§5.10',
    PNS,
    'privileged-only',
    [R.SUCCESS, R.RESOURCE_SHORTAGE, R.NO_PERMISSION, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER],
    'Unmap one ri_mem_map result (same os_data).',
    FAST,
  ),
  ri_mem_sync_rread: op(
    'Ch. 7 ri_mem_sync_rread() p. 139',
    '§3.7, §5.10',
    PNS,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.MEM_INVALID_LTAG, R.MEM_INVALID_ADDRESS, R.MEM_INVALID_LENGTH],
    'Sync non-coherent MRs before incoming RDMA Reads; no-op success otherwise.',
    FAST,
  ),
  ri_mem_sync_rwrite: op(
    'Ch. 7 ri_mem_sync_rwrite() p. 141',
    '§3.7, §5.10',
    PNS,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.MEM_INVALID_LTAG, R.MEM_INVALID_ADDRESS, R.MEM_INVALID_LENGTH],
    'Sync non-coherent MRs after incoming RDMA Writes; no-op success otherwise.',
    FAST,
  ),
  ri_ah_create: op(
    'Ch. 7 ri_ah_create() p. 143',
    '§5.11',
    PNS,
    'any',
    [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.PD_INVALID_HANDLE, R.INVALID_PARAMETER, R.XPORT_UNSUPPORTED],
    'IB only: create a UD address handle.',
    IB,
  ),
  ri_ah_query: op(
    'Ch. 7 ri_ah_query() p. 145',
    '§5.11',
    PNS,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.ADDRESS_HANDLE_INVALID, R.INVALID_PARAMETER, R.XPORT_UNSUPPORTED],
    'IB only: address vector and PD of an AH.',
    IB,
  ),
  ri_ah_modify: op(
    'Ch. 7 ri_ah_modify() p. 147',
    '§5.11',
    PNS,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.ADDRESS_HANDLE_INVALID, R.INVALID_PARAMETER, R.XPORT_UNSUPPORTED],
    "IB only: replace an AH's address vector.",
    IB,
  ),
  ri_ah_destroy: op(
    'Ch. 7 ri_ah_destroy() p. 148',
    '§5.11',
    PNS,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.ADDRESS_HANDLE_INVALID, R.XPORT_UNSUPPORTED],
    'IB only: destroy an AH.',
    IB,
  ),
  ri_mcast_attach: op(
    'Ch. 7 ri_mcast_attach() p. 149',
    '§5.11',
    PNS,
    'any',
    [
      R.SUCCESS,
      R.RESOURCE_SHORTAGE,
      R.RNIC_INVALID_HANDLE,
      R.MGID_INVALID,
      R.MLID_INVALID,
      R.QP_INVALID_HANDLE,
      R.QP_INVALID_SERVICE_TYPE,
      R.RNIC_QPS_PER_MCAST_PORT_EXCEEDED,
      R.OP_UNSUPPORTED,
      R.XPORT_UNSUPPORTED,
    ],
    'IB only: attach a UD QP to a multicast group.',
    IB,
  ),
  ri_mcast_detach: op(
    'Ch. 7 ri_mcast_detach() p. 151',
    '§5.11',
    PNS,
    'any',
    [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.MLID_INVALID, R.MGID_INVALID, R.QP_INVALID_HANDLE, R.XPORT_UNSUPPORTED, R.OP_UNSUPPORTED],
    'IB only: detach a QP from a multicast group.',
    IB,
  ),
  ri_process_sma_mad: op(
    'Ch. 7 ri_process_sma_mad() p. 153',
    '§5.11',
    PNS,
    'any',
    [R.SUCCESS, R.XPORT_UNSUPPORTED],
    'IB only: process an SMA SubnGet/SubnSet MAD into a SubnGetResp.',
    { ...IB, interruptSafe: true },
  ),
};

/** Every `ri_ops_t` entry, in `struct ri_ops` order (63 entries). */
export const RI_OPS_ORDER: readonly RiOpName[] = Object.freeze(Object.keys(OP_ROWS) as RiOpName[]);

/** Static facts (interfaces, privilege, transport, return codes, summary) for every `ri_*` call. */
export const RI_OP_INFO: { readonly [K in RiOpName]: RiOpInfo } = Object.freeze(
  Object.fromEntries(
    RI_OPS_ORDER.map((name, index) => [name, Object.freeze({ member: `ri_op_${name.slice(3)}` as const, index, ...OP_ROWS[name] })]),
  ) as { [K in RiOpName]: RiOpInfo },
);

/** Names of the InfiniBand-only calls (non-IB RNICs answer `XPORT_UNSUPPORTED`). */
export const RI_IB_ONLY_OPS: readonly RiOpName[] = Object.freeze(RI_OPS_ORDER.filter((n) => RI_OP_INFO[n].ibOnly));

/** Names of the calls whose failures carry `num_wrs` (the post-list calls). */
export const RI_POST_LIST_OPS: readonly RiOpName[] = Object.freeze(['ri_qp_postsq', 'ri_qp_postrq', 'ri_srq_post']);

/**
 * An ops vector in which every entry returns `code` (post-list entries also report
 * `num_wrs: 0`). Use it as the base of partial providers and for the user-level stubs of the
 * KERNEL-only calls: `{ ...riStubOps(RiRet.XPORT_UNSUPPORTED), ...implemented }`.
 */
export function riStubOps(code: RiErrorCode): ri_ops_t {
  const plain = riFail(code);
  const list = Object.freeze({ status: code, num_wrs: 0 });
  const ops: Record<string, () => unknown> = {};
  for (const name of RI_OPS_ORDER) {
    const result = RI_POST_LIST_OPS.includes(name) ? list : plain;
    ops[name] = () => result;
  }
  return Object.freeze(ops) as unknown as ri_ops_t;
}

// =============================================================================================
// SVC-RNICPI: services the OS (kAL/uAL) offers to verbs providers
// =============================================================================================

/**
 * SVC-RNICPI: functions the access layer (the "OS") exports to verbs providers. In softrdma a
 * provider factory receives this object (see `registry.ts`) instead of linking C symbols.
 */
export interface ri_svc_ops_t {
  /**
   * Registers ("attaches") an RNIC with the AL: the VP handle (unique per RNIC), OS device id,
   * version/firmware/query-size/library-path/hardware-path info, the mandatory AL-serialized ops
   * vector and the optional VP-serialized one (`null`). The AL may call `ri_rnic_open` from
   * within this call. Attaching the same RNIC twice without detach → `RNIC_INUSE`; an
   * unsupported `rnicpi_major_version` → `INVALID_VP_VERSION`. KERNEL only (kVP → kAL).
   *
   * Spec: Ch. 7 `ri_svc_attach()` (p. 155) Callers: SVC (kVP).
   * Returns: SUCCESS, RESOURCE_SHORTAGE, VP_INVALID_HANDLE, INVALID_DEV_INFO, INVALID_PARAMETER
   * (null `svcs`/`al_locking_ops`), INVALID_HW_PATH, INVALID_LIB_PATH, INVALID_VP_VERSION,
   * RNIC_INUSE.
   */
  readonly ri_svc_attach: (
    vp_hdl: ri_vp_handle_t,
    dev_info: ri_dev_info_t,
    svcs: ri_svcs_dev_arg_t | null,
    al_locking_ops: ri_ops_t | null,
    vp_locking_ops: ri_ops_t | null,
  ) => RiStatus;

  /**
   * Deregisters an RNIC; only after a successful `ri_rnic_close` (else `RNIC_INUSE`). `vp_hdl`
   * must not be used afterwards. KERNEL only.
   *
   * Spec: Ch. 7 `ri_svc_detach()` (p. 158) Callers: SVC (kVP).
   * Returns: SUCCESS, VP_INVALID_HANDLE, RNIC_INUSE.
   */
  readonly ri_svc_detach: (vp_hdl: ri_vp_handle_t) => RiStatus;

  /**
   * Registers a uVP library (once per library, from its initializer). `lib_path` must match the
   * `lib_path` of at least one currently open RNIC (else `INVALID_LIB_PATH`); afterwards the uAL
   * may call `ri_rnic_get_hdl` on RNICs using it. USER only (uVP → uAL).
   *
   * Spec: Ch. 7 `ri_svc_lib_reg()` (p. 159) Callers: SVC (uVP).
   * Returns: SUCCESS, RESOURCE_SHORTAGE, INVALID_LIB_PATH, INVALID_PARAMETER (null
   * `al_locking_ops`).
   */
  readonly ri_svc_lib_reg: (
    lib_path: string,
    al_locking_ops: ri_ops_t | null,
    vp_locking_ops: ri_ops_t | null,
    os_data: ri_os_data_t,
  ) => RiStatus;

  /**
   * Pins a VA range for the kVP (reference-counted; same range and same `os_data` to unpin; the OS
   * may require the `os_data` of the causing downcall, e.g. `ri_mr_reg`). Must not let pinning
   * bypass OS access control. KERNEL only.
   *
   * Spec: Ch. 7 `ri_svc_mem_pin()` (p. 161) Callers: SVC (kVP).
   * Returns: SUCCESS, RESOURCE_SHORTAGE, NO_PERMISSION, INVALID_PARAMETER.
   */
  readonly ri_svc_mem_pin: (vaddr: ri_vaddr_t, len: ri_length_t, os_data: ri_os_data_t) => RiStatus;

  /**
   * Unpins a range pinned with `ri_svc_mem_pin` (same range, same `os_data`). KERNEL only.
   *
   * Spec: Ch. 7 `ri_svc_mem_unpin()` (p. 161) Callers: SVC (kVP).
   * Returns: SUCCESS, RESOURCE_SHORTAGE, NO_PERMISSION, INVALID_PARAMETER.
   */
  readonly ri_svc_mem_unpin: (vaddr: ri_vaddr_t, len: ri_length_t, os_data: ri_os_data_t) => RiStatus;
}

/** Name of an SVC-RNICPI call. */
export type RiSvcOpName = keyof ri_svc_ops_t;

/** SVC-RNICPI calls in reference-page order. */
export const RI_SVC_OPS_ORDER: readonly RiSvcOpName[] = Object.freeze([
  'ri_svc_attach',
  'ri_svc_detach',
  'ri_svc_lib_reg',
  'ri_svc_mem_pin',
  'ri_svc_mem_unpin',
]);

// =============================================================================================
// SYS-RNICPI (never specified by RNICPI 1.0)
// =============================================================================================

/** Names of the calls with a SYS-RNICPI variant (Table 1's SYS column; 44 calls). */
export type RiSysOpName =
  | 'ri_rnic_get_hdl'
  | 'ri_rnic_query'
  | 'ri_rnic_modify'
  | 'ri_rnic_free_hdl'
  | 'ri_rnic_diag'
  | 'ri_pd_alloc'
  | 'ri_pd_dealloc'
  | 'ri_cq_create'
  | 'ri_cq_query'
  | 'ri_cq_modify'
  | 'ri_cq_destroy'
  | 'ri_special_qp_get'
  | 'ri_qp_create'
  | 'ri_qp_query'
  | 'ri_qp_modify'
  | 'ri_qp_destroy'
  | 'ri_srq_create'
  | 'ri_srq_query'
  | 'ri_srq_modify'
  | 'ri_srq_destroy'
  | 'ri_ltag_alloc'
  | 'ri_mr_reg'
  | 'ri_mr_query'
  | 'ri_mr_rereg'
  | 'ri_mr_dereg'
  | 'ri_mr_reg_phys'
  | 'ri_mr_rereg_phys'
  | 'ri_mr_reg_shared'
  | 'ri_mw_alloc'
  | 'ri_mw_dealloc'
  | 'ri_mw_query'
  | 'ri_mem_pin'
  | 'ri_mem_unpin'
  | 'ri_mem_map'
  | 'ri_mem_unmap'
  | 'ri_mem_sync_rread'
  | 'ri_mem_sync_rwrite'
  | 'ri_ah_create'
  | 'ri_ah_query'
  | 'ri_ah_modify'
  | 'ri_ah_destroy'
  | 'ri_mcast_attach'
  | 'ri_mcast_detach'
  | 'ri_process_sma_mad';

/** The SYS-RNICPI calls, in `ri_ops_t` order. */
export const RI_SYS_OPS: readonly RiSysOpName[] = Object.freeze(
  RI_OPS_ORDER.filter((n) => RI_OP_INFO[n].interfaces.includes('SYS')) as RiSysOpName[],
);

/**
 * SYS-RNICPI as softrdma defines it: for every call in Table 1's SYS column, `ri_sys_<name>` with
 * exactly the P-RNICPI signature. The uVP calls it, the AL validates the handles against the
 * calling domain, enforces privilege, and forwards to the kVP's P-RNICPI method with a non-null
 * `vp_data` (Ch. 9.1.4 names only `ri_sys_rnic_get_hdl`; the rest is this project's design).
 */
export type ri_sys_ops_t = {
  readonly [K in RiSysOpName as K extends `ri_${infer Rest}` ? `ri_sys_${Rest}` : never]: ri_ops_t[K];
};

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
import { RiRet, riFail, } from './status.js';
const R = RiRet;
const PNS = Object.freeze(['P', 'NP', 'SYS']);
const PN = Object.freeze(['P', 'NP']);
const P = Object.freeze(['P']);
const POSTSQ_RETURNS = Object.freeze([
    R.SUCCESS, R.RNIC_INVALID_HANDLE, R.QP_INVALID_HANDLE, R.QP_CAPACITY_EXCEEDED, R.WR_INVALID_TYPE,
    R.QP_INVALID_STATE, R.WR_INVALID_FLAGS, R.WR_SG_INVALID_FORMAT, R.ADDRESS_HANDLE_INVALID,
    R.INVALID_WINDOW_TYPE, R.MW_INVALID_HANDLE, R.MR_INVALID_HANDLE, R.MEM_INVALID_RTAG, R.MEM_INVALID_LTAG,
    R.MEM_INVALID_ADDRESS, R.MEM_INVALID_LENGTH, R.MEM_INVALID_ACCESS, R.RNIC_SG_LIMIT_EXCEEDED,
    R.RNIC_ATOMICS_UNSUPPORTED, R.EXT_BMM_UNSUPPORTED, R.EXT_LIF_UNSUPPORTED, R.RNIC_NOT_IN_BLOCK_MODE,
    R.RNIC_NOT_IN_PAGE_MODE, R.EXT_ZBVA_UNSUPPORTED, R.NO_PERMISSION,
]);
const POSTRQ_RETURNS = Object.freeze([
    R.SUCCESS, R.QP_INVALID_HANDLE, R.RNIC_INVALID_HANDLE, R.WR_SG_INVALID_FORMAT, R.SRQ_INVALID_HANDLE,
    R.WR_INVALID_FLAGS, R.QP_INVALID_STATE, R.QP_CAPACITY_EXCEEDED, R.RNIC_SG_LIMIT_EXCEEDED,
    R.QP_TIED_TO_SRQ, R.SRQ_UNSUPPORTED,
]);
function op(spec, digest, interfaces, privilege, returns, summary, extra = {}) {
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
const FAST = { interruptSafe: true };
const IB = { ibOnly: true, unsupported: R.XPORT_UNSUPPORTED };
/** The rows, in `struct ri_ops` order. */
const OP_ROWS = {
    ri_rnic_open: op('Ch. 7 ri_rnic_open() p. 40', '§5.1', P, 'kernel-only', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.VP_INVALID_HANDLE, R.INVALID_PARAMETER, R.NO_PERMISSION, R.INVALID_PBL_MODE, R.RNIC_INUSE], 'Open the RNIC in page or block PBL mode (fixed until close); keeps os_data as vp_hdl_os_data; callable from inside ri_svc_attach.'),
    ri_rnic_close: op('Ch. 7 ri_rnic_close() p. 42', '§5.1', P, 'kernel-only', [R.SUCCESS, R.VP_INVALID_HANDLE, R.RNIC_INUSE, R.NO_PERMISSION], 'Close the RNIC; all RNIC handles must be freed first; no upcall in progress after return.'),
    ri_async_set_event_handler: op('Ch. 7 ri_async_set_event_handler() p. 44', '§5.1', P, 'kernel-only', [R.SUCCESS, R.VP_INVALID_HANDLE, R.NO_PERMISSION], 'Set/replace/clear (null) the single async event handler; earlier events are lost.'),
    ri_rnic_get_hdl: op('Ch. 7 ri_rnic_get_hdl() p. 48', '§5.1', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.VP_INVALID_HANDLE, R.INVALID_PARAMETER, R.RNIC_NOT_OPEN], 'Create a consumer RNIC handle; the ops vector used fixes its locking model; RNIC must be open.'),
    ri_rnic_query: op('Ch. 7 ri_rnic_query() p. 50', '§5.1, §6.3', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.BUFFER_TOO_SMALL], 'RNIC (+ port) attributes; BUFFER_TOO_SMALL reports the needed attr_size.'),
    ri_rnic_modify: op('Ch. 7 ri_rnic_modify() p. 52', '§5.1', PNS, 'privileged-only', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.NO_PERMISSION, R.OP_UNSUPPORTED, R.XPORT_UNSUPPORTED], 'IB only: modify SI GUID / port attributes; non-IB → XPORT_UNSUPPORTED.', IB),
    ri_rnic_free_hdl: op('Ch. 7 ri_rnic_free_hdl() p. 55', '§5.1', PNS, 'any', [R.SUCCESS, R.VP_INVALID_HANDLE, R.RNIC_INVALID_HANDLE, R.RNIC_INUSE], 'Free an RNIC handle; any object still allocated through it → RNIC_INUSE.'),
    ri_rnic_diag: op('Ch. 7 ri_rnic_diag() p. 57', '§5.1', PNS, 'privileged-only', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.BUFFER_TOO_SMALL, R.OP_UNSUPPORTED, R.NO_PERMISSION], 'Diagnostics text/dump/reset; two-call BUFFER_TOO_SMALL idiom; every op optional (OP_UNSUPPORTED).', { unsupported: R.OP_UNSUPPORTED }),
    ri_pd_alloc: op('Ch. 7 ri_pd_alloc() p. 60', '§5.2', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE], 'Allocate a protection domain.'),
    ri_pd_dealloc: op('Ch. 7 ri_pd_dealloc() p. 60', '§5.2', PNS, 'any', [R.SUCCESS, R.PD_INUSE, R.RNIC_INVALID_HANDLE, R.PD_INVALID_HANDLE], 'Free a PD; still referenced by QP/SRQ/MR/MW/AH → PD_INUSE.'),
    ri_cq_create: op('Ch. 7 ri_cq_create() p. 62', '§5.3', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.CQ_CAPACITY_EXCEEDED, R.CQ_INVALID_EVENT_HANDLER], 'Create a CQ (≥ num_cqe); handler_id fixed for life (0 = never armable); os_data = CQ identity.'),
    ri_cq_query: op('Ch. 7 ri_cq_query() p. 64', '§5.3', PNS, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.CQ_INVALID_HANDLE, R.INVALID_PARAMETER, R.CQ_ERROR], 'CQ size and handler ID; CQ_ERROR after overrun.'),
    ri_cq_modify: op('Ch. 7 ri_cq_modify() p. 66', '§5.3', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.CQ_INVALID_HANDLE, R.INVALID_PARAMETER, R.CQ_CAPACITY_EXCEEDED, R.CQ_WOULD_OVERFLOW, R.CQ_ERROR], 'Resize a CQ without losing completions; below outstanding → CQ_WOULD_OVERFLOW.'),
    ri_cq_destroy: op('Ch. 7 ri_cq_destroy() p. 68', '§5.3', PNS, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.CQ_INVALID_HANDLE, R.CQ_INUSE], 'Destroy a CQ; used by a QP → CQ_INUSE; unreaped WCs discarded; no callback afterwards.'),
    ri_special_qp_get: op('Ch. 7 ri_special_qp_get() p. 90', '§5.4, §5.11', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.INVALID_PARAMETER, R.RNIC_INVALID_HANDLE, R.QP_INVALID_SPECIAL_TYPE, R.QP_INUSE, R.RNIC_INVALID_PORT, R.CQ_INVALID_HANDLE, R.RNIC_WR_LIMIT_EXCEEDED, R.RNIC_SG_LIMIT_EXCEEDED, R.PD_INVALID_HANDLE, R.XPORT_UNSUPPORTED], 'IB only: get QP0/QP1 of a port (once per port until destroyed).', IB),
    ri_cq_set_event_handler: op('Ch. 7 ri_cq_set_event_handler() p. 69', '§5.3', P, 'kernel-only', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.VP_INVALID_HANDLE, R.INVALID_PARAMETER, R.INVALID_HANDLER_ID, R.NO_PERMISSION], 'Allocate (id 0) or rebind a CEH ID; null callback silences it; does not arm.'),
    ri_cq_req_notification: op('Ch. 7 ri_cq_req_notification() p. 71', '§5.3', PN, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.CQ_INVALID_HANDLE, R.INVALID_PARAMETER, R.CQ_NO_EVENT_HANDLER], 'Arm once for the next SOLICITED/ANY completion; existing entries never fire; errors are solicited.', FAST),
    ri_cq_poll: op('Ch. 7 ri_cq_poll() p. 73', '§5.3, §6.10', PN, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.CQ_INVALID_HANDLE, R.CQ_EMPTY], 'Reap up to num_wcs WCs; only CQ_EMPTY proves the CQ drained.', FAST),
    ri_qp_create: op('Ch. 7 ri_qp_create() p. 79', '§5.4, §6.7', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.INVALID_PARAMETER, R.RNIC_INVALID_HANDLE, R.CQ_INVALID_HANDLE, R.RNIC_WR_LIMIT_EXCEEDED, R.RNIC_SG_LIMIT_EXCEEDED, R.PD_INVALID_HANDLE, R.SRQ_INVALID_HANDLE, R.QP_INVALID_SERVICE_TYPE, R.SRQ_LIMIT_OUT_OF_RANGE, R.SRQ_UNSUPPORTED, R.EXT_BMM_UNSUPPORTED, R.MPA_ATTR_UNSUPPORTED, R.INVALID_DDP_RDMAP_VERSION, R.NO_PERMISSION], 'Create a QP in IDLE; returns qp_id and actual sizes (≥ requested); os_data = QP identity.'),
    ri_qp_query: op('Ch. 7 ri_qp_query() p. 82', '§5.4', PNS, 'any', [R.SUCCESS, R.INVALID_PARAMETER, R.RNIC_INVALID_HANDLE, R.QP_INVALID_HANDLE], 'All QP attributes; scq/rcq/srq as os_data; LLP handle current or null.'),
    ri_qp_modify: op('Ch. 7 ri_qp_modify() p. 83', '§4.4–4.6, §5.4', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.QP_INVALID_HANDLE, R.INVALID_PARAMETER, R.RNIC_INVALID_PKEY_INDEX, R.RNIC_INVALID_PKEY_ENTRY, R.QP_INVALID_STATE, R.RNIC_INVALID_MTU, R.RNIC_INVALID_PORT, R.MIGRATION_STATE_INVALID, R.RNIC_INVALID_RNR_VALUE, R.QP_INVALID_SERVICE_TYPE, R.INVALID_LL_HANDLE, R.QP_ATTRIBUTE_CANT_CHANGE, R.QP_RESIZE_UNSUPPORTED, R.RNIC_ATOMICS_UNSUPPORTED, R.RNIC_WR_LIMIT_EXCEEDED, R.RNIC_IRD_ORD_EXCEEDED, R.QP_CANNOT_SHRINK, R.WINDOWS_BOUND, R.STILL_FLUSHING_WQES, R.SRQ_LIMIT_OUT_OF_RANGE, R.NO_PERMISSION, R.MPA_ATTR_UNSUPPORTED, R.INVALID_DDP_RDMAP_VERSION, R.LL_BAD_STATE], 'All-or-nothing attribute change / state transition; iWARP conversion (LLP handle, last streaming msg, MPA attrs).'),
    ri_qp_destroy: op('Ch. 7 ri_qp_destroy() p. 88', '§5.4', PNS, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.QP_INVALID_HANDLE, R.WINDOWS_BOUND, R.MULTICAST_ATTACHED], 'Destroy a QP; Type 2A windows bound → WINDOWS_BOUND; outstanding WRs cancelled silently.'),
    ri_qp_postsq: op('Ch. 7 ri_qp_postsq() p. 93', '§5.5, §6.9', PN, 'any', POSTSQ_RETURNS, 'Post a WR list in order; partial success via num_wrs; WRs copied; Error state flushes.', FAST),
    ri_qp_post_send: op('Ch. 7 ri_qp_post_send() p. 93', '§5.5', PN, 'any', POSTSQ_RETURNS, 'Post one Send / Send-with-Invalidate / IB Send-with-Immediate.', FAST),
    ri_qp_post_rdma_read: op('Ch. 7 ri_qp_post_rdma_read() p. 93', '§5.5', PN, 'any', POSTSQ_RETURNS, 'Post one RDMA Read (or iWARP Read with Local Invalidate, ≤ 1 SGE).', FAST),
    ri_qp_post_rdma_write: op('Ch. 7 ri_qp_post_rdma_write() p. 93', '§5.5', PN, 'any', POSTSQ_RETURNS, 'Post one RDMA Write (or IB Write with Immediate).', FAST),
    ri_qp_post_bind: op('Ch. 7 ri_qp_post_bind() p. 93', '§3.8, §5.5', PN, 'any', POSTSQ_RETURNS, 'Post one Memory Window Bind.', FAST),
    ri_qp_post_fmr: op('Ch. 7 ri_qp_post_fmr() p. 93', '§3.3, §5.5', PN, 'any', POSTSQ_RETURNS, 'Post one Fast-Register (privileged consumers only).', FAST),
    ri_qp_post_local_invalidate: op('Ch. 7 ri_qp_post_local_invalidate() p. 93', '§5.5', PN, 'any', POSTSQ_RETURNS, 'Post one Local Invalidate of an MR or MW (Type 1 window → INVALID_WINDOW_TYPE).', FAST),
    ri_qp_post_atomic: op('Ch. 7 ri_qp_post_atomic() p. 93', '§5.5', PN, 'any', POSTSQ_RETURNS, 'Post one IB atomic (CAS/FAA); no atomics (iWARP) → RNIC_ATOMICS_UNSUPPORTED.', { interruptSafe: true, unsupported: R.RNIC_ATOMICS_UNSUPPORTED }),
    ri_qp_post_datagram: op('Ch. 7 ri_qp_post_datagram() p. 93', '§5.5', PN, 'any', [...POSTSQ_RETURNS, R.XPORT_UNSUPPORTED], 'Post one IB UD datagram; non-IB → XPORT_UNSUPPORTED (softrdma decision).', { ...IB, interruptSafe: true }),
    ri_qp_postrq: op('Ch. 7 ri_qp_postrq() p. 100', '§5.6', PN, 'any', POSTRQ_RETURNS, 'Post receive WRs to the RQ; QP on an SRQ → QP_TIED_TO_SRQ; Error state flushes.', FAST),
    ri_qp_post_recv: op('Ch. 7 ri_qp_post_recv() p. 100', '§5.6', PN, 'any', POSTRQ_RETURNS, 'Post one receive WR to the RQ.', FAST),
    ri_srq_create: op('Ch. 7 ri_srq_create() p. 104', '§5.7, §6.8', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.RNIC_WR_LIMIT_EXCEEDED, R.RNIC_SG_LIMIT_EXCEEDED, R.PD_INVALID_HANDLE, R.SRQ_LIMIT_OUT_OF_RANGE, R.SRQ_UNSUPPORTED], 'Create an SRQ (actual sizes ≥ requested); non-zero lowat arms the limit.', { unsupported: R.SRQ_UNSUPPORTED }),
    ri_srq_query: op('Ch. 7 ri_srq_query() p. 106', '§5.7', PNS, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.SRQ_INVALID_HANDLE, R.INVALID_PARAMETER, R.SRQ_UNSUPPORTED, R.SRQ_IN_ERROR], 'SRQ attributes incl. srq_armed.', { unsupported: R.SRQ_UNSUPPORTED }),
    ri_srq_modify: op('Ch. 7 ri_srq_modify() p. 107', '§5.7', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.SRQ_INVALID_HANDLE, R.INVALID_PARAMETER, R.RNIC_WR_LIMIT_EXCEEDED, R.SRQ_IN_ERROR, R.SRQ_RESIZE_UNSUPPORTED, R.SRQ_LIMIT_OUT_OF_RANGE, R.SRQ_CANNOT_SHRINK, R.SRQ_UNSUPPORTED], 'All-or-nothing resize and/or set+arm the limit (no disarm).', { unsupported: R.SRQ_UNSUPPORTED }),
    ri_srq_destroy: op('Ch. 7 ri_srq_destroy() p. 109', '§5.7', PNS, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.SRQ_INVALID_HANDLE, R.SRQ_INUSE, R.SRQ_UNSUPPORTED], 'Destroy an SRQ after its QPs (SRQ_INUSE); remaining WRs are NOT flushed.', { unsupported: R.SRQ_UNSUPPORTED }),
    ri_srq_post: op('Ch. 7 ri_srq_post() p. 100', '§5.6', PN, 'any', POSTRQ_RETURNS, 'Post receive WRs to an SRQ.', { interruptSafe: true, unsupported: R.SRQ_UNSUPPORTED }),
    ri_srq_post_recv: op('Ch. 7 ri_srq_post_recv() p. 100', '§5.6', PN, 'any', POSTRQ_RETURNS, 'Post one receive WR to an SRQ.', { interruptSafe: true, unsupported: R.SRQ_UNSUPPORTED }),
    ri_ltag_alloc: op('Ch. 7 ri_ltag_alloc() p. 111', '§5.8', PNS, 'privileged-by-default', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.PD_INVALID_HANDLE, R.INVALID_PARAMETER, R.EXT_BMM_UNSUPPORTED, R.NO_PERMISSION], 'Allocate an invalid MR STag with PBL room for fast-register (needs BMM).', { unsupported: R.EXT_BMM_UNSUPPORTED }),
    ri_mr_reg: op('Ch. 7 ri_mr_reg() p. 113', '§3, §5.8', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.MEM_INVALID_ADDRESS, R.MEM_INVALID_LENGTH, R.PD_INVALID_HANDLE, R.MEM_INVALID_ACCESS, R.EXT_ZBVA_UNSUPPORTED], 'Register a virtual range (VP pins + translates); RTag iff remote rights.'),
    ri_mr_query: op('Ch. 7 ri_mr_query() p. 115', '§5.8', PNS, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.MR_INVALID_HANDLE, R.INVALID_PARAMETER], 'MR registration, tags, sharing, enforced bounds, STag state.'),
    ri_mr_rereg: op('Ch. 7 ri_mr_rereg() p. 117', '§5.8', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.MR_INVALID_HANDLE, R.INVALID_PARAMETER, R.MEM_INVALID_ADDRESS, R.MEM_INVALID_LENGTH, R.PD_INVALID_HANDLE, R.MEM_INVALID_ACCESS, R.WINDOWS_BOUND, R.EXT_BMM_UNSUPPORTED, R.EXT_ZBVA_UNSUPPORTED], 'Virtual re-registration; failures other than 4 "no change" codes destroy the old MR.'),
    ri_mr_dereg: op('Ch. 7 ri_mr_dereg() p. 120', '§5.8', PNS, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.MR_INVALID_HANDLE, R.WINDOWS_BOUND], 'Deregister an MR and unpin; bound windows → WINDOWS_BOUND (MR unchanged).'),
    ri_mr_reg_phys: op('Ch. 7 ri_mr_reg_phys() p. 122', '§5.8', PNS, 'privileged-by-default', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.MEM_INVALID_ADDRESS, R.MEM_INVALID_LENGTH, R.MEM_INVALID_PBLE_LENGTH, R.MEM_INVALID_PBLE, R.MEM_INVALID_OFFSET, R.PD_INVALID_HANDLE, R.MEM_INVALID_ACCESS, R.EXT_ZBVA_UNSUPPORTED, R.NO_PERMISSION], 'Register a physical buffer/page/block list.'),
    ri_mr_rereg_phys: op('Ch. 7 ri_mr_rereg_phys() p. 124', '§5.8', PNS, 'privileged-by-default', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.MR_INVALID_HANDLE, R.INVALID_PARAMETER, R.MEM_INVALID_ADDRESS, R.MEM_INVALID_LENGTH, R.MEM_INVALID_PBLE_LENGTH, R.MEM_INVALID_OFFSET, R.PD_INVALID_HANDLE, R.MEM_INVALID_ACCESS, R.WINDOWS_BOUND, R.EXT_ZBVA_UNSUPPORTED, R.EXT_BMM_UNSUPPORTED, R.NO_PERMISSION], 'Physical re-registration of a non-shared MR; same destroy-on-failure rule as ri_mr_rereg.'),
    ri_mr_reg_shared: op('Ch. 7 ri_mr_reg_shared() p. 127', '§5.8', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.MR_INVALID_HANDLE, R.INVALID_PARAMETER, R.PD_INVALID_HANDLE, R.MEM_INVALID_ACCESS, R.EXT_ZBVA_UNSUPPORTED], 'New MR sharing an MR\'s memory (original length; other PD/rights/VA allowed).'),
    ri_mw_alloc: op('Ch. 7 ri_mw_alloc() p. 129', '§3.8, §5.9', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.PD_INVALID_HANDLE, R.WINDOW_TYPE_UNSUPPORTED], 'Allocate an unbound window (invalid RTag) of a given type.', { unsupported: R.WINDOW_TYPE_UNSUPPORTED }),
    ri_mw_dealloc: op('Ch. 7 ri_mw_dealloc() p. 133', '§5.9', PNS, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.MW_INVALID_HANDLE], 'Deallocate a window; later use → MW_INVALID_HANDLE.'),
    ri_mw_query: op('Ch. 7 ri_mw_query() p. 131', '§5.9', PNS, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.MW_INVALID_HANDLE], 'Window type, STag state, PD, rights, RTag (by handle, not RTag).'),
    ri_mem_pin: op('Ch. 7 ri_mem_pin() p. 134', '§3.6, §5.10', PNS, 'privileged-only', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.NO_PERMISSION, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER], 'Reference-counted pin through the RNIC.'),
    ri_mem_unpin: op('Ch. 7 ri_mem_unpin() p. 134', '§3.6, §5.10', PNS, 'privileged-only', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.NO_PERMISSION, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER], 'Unpin exactly a pinned range with the same os_data.'),
    ri_mem_map: op('Ch. 7 ri_mem_map() p. 137', '§3.6, §5.10', PNS, 'privileged-only', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.NO_PERMISSION, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER], 'Map a pinned VA prefix to one contiguous adapter range (caller loops).', FAST),
    ri_mem_unmap: op('Ch. 7 ri_mem_unmap() p. 137', '§5.10', PNS, 'privileged-only', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.NO_PERMISSION, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER], 'Unmap one ri_mem_map result (same os_data).', FAST),
    ri_mem_sync_rread: op('Ch. 7 ri_mem_sync_rread() p. 139', '§3.7, §5.10', PNS, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.MEM_INVALID_LTAG, R.MEM_INVALID_ADDRESS, R.MEM_INVALID_LENGTH], 'Sync non-coherent MRs before incoming RDMA Reads; no-op success otherwise.', FAST),
    ri_mem_sync_rwrite: op('Ch. 7 ri_mem_sync_rwrite() p. 141', '§3.7, §5.10', PNS, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.INVALID_PARAMETER, R.MEM_INVALID_LTAG, R.MEM_INVALID_ADDRESS, R.MEM_INVALID_LENGTH], 'Sync non-coherent MRs after incoming RDMA Writes; no-op success otherwise.', FAST),
    ri_ah_create: op('Ch. 7 ri_ah_create() p. 143', '§5.11', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.PD_INVALID_HANDLE, R.INVALID_PARAMETER, R.XPORT_UNSUPPORTED], 'IB only: create a UD address handle.', IB),
    ri_ah_query: op('Ch. 7 ri_ah_query() p. 145', '§5.11', PNS, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.ADDRESS_HANDLE_INVALID, R.INVALID_PARAMETER, R.XPORT_UNSUPPORTED], 'IB only: address vector and PD of an AH.', IB),
    ri_ah_modify: op('Ch. 7 ri_ah_modify() p. 147', '§5.11', PNS, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.ADDRESS_HANDLE_INVALID, R.INVALID_PARAMETER, R.XPORT_UNSUPPORTED], 'IB only: replace an AH\'s address vector.', IB),
    ri_ah_destroy: op('Ch. 7 ri_ah_destroy() p. 148', '§5.11', PNS, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.ADDRESS_HANDLE_INVALID, R.XPORT_UNSUPPORTED], 'IB only: destroy an AH.', IB),
    ri_mcast_attach: op('Ch. 7 ri_mcast_attach() p. 149', '§5.11', PNS, 'any', [R.SUCCESS, R.RESOURCE_SHORTAGE, R.RNIC_INVALID_HANDLE, R.MGID_INVALID, R.MLID_INVALID, R.QP_INVALID_HANDLE, R.QP_INVALID_SERVICE_TYPE, R.RNIC_QPS_PER_MCAST_PORT_EXCEEDED, R.OP_UNSUPPORTED, R.XPORT_UNSUPPORTED], 'IB only: attach a UD QP to a multicast group.', IB),
    ri_mcast_detach: op('Ch. 7 ri_mcast_detach() p. 151', '§5.11', PNS, 'any', [R.SUCCESS, R.RNIC_INVALID_HANDLE, R.MLID_INVALID, R.MGID_INVALID, R.QP_INVALID_HANDLE, R.XPORT_UNSUPPORTED, R.OP_UNSUPPORTED], 'IB only: detach a QP from a multicast group.', IB),
    ri_process_sma_mad: op('Ch. 7 ri_process_sma_mad() p. 153', '§5.11', PNS, 'any', [R.SUCCESS, R.XPORT_UNSUPPORTED], 'IB only: process an SMA SubnGet/SubnSet MAD into a SubnGetResp.', { ...IB, interruptSafe: true }),
};
/** Every `ri_ops_t` entry, in `struct ri_ops` order (63 entries). */
export const RI_OPS_ORDER = Object.freeze(Object.keys(OP_ROWS));
/** Static facts (interfaces, privilege, transport, return codes, summary) for every `ri_*` call. */
export const RI_OP_INFO = Object.freeze(Object.fromEntries(RI_OPS_ORDER.map((name, index) => [
    name,
    Object.freeze({ member: `ri_op_${name.slice(3)}`, index, ...OP_ROWS[name] }),
])));
/** Names of the InfiniBand-only calls (non-IB RNICs answer `XPORT_UNSUPPORTED`). */
export const RI_IB_ONLY_OPS = Object.freeze(RI_OPS_ORDER.filter((n) => RI_OP_INFO[n].ibOnly));
/** Names of the calls whose failures carry `num_wrs` (the post-list calls). */
export const RI_POST_LIST_OPS = Object.freeze(['ri_qp_postsq', 'ri_qp_postrq', 'ri_srq_post']);
/**
 * An ops vector in which every entry returns `code` (post-list entries also report
 * `num_wrs: 0`). Use it as the base of partial providers and for the user-level stubs of the
 * KERNEL-only calls: `{ ...riStubOps(RiRet.XPORT_UNSUPPORTED), ...implemented }`.
 */
export function riStubOps(code) {
    const plain = riFail(code);
    const list = Object.freeze({ status: code, num_wrs: 0 });
    const ops = {};
    for (const name of RI_OPS_ORDER) {
        const result = RI_POST_LIST_OPS.includes(name) ? list : plain;
        ops[name] = () => result;
    }
    return Object.freeze(ops);
}
/** SVC-RNICPI calls in reference-page order. */
export const RI_SVC_OPS_ORDER = Object.freeze([
    'ri_svc_attach',
    'ri_svc_detach',
    'ri_svc_lib_reg',
    'ri_svc_mem_pin',
    'ri_svc_mem_unpin',
]);
/** The SYS-RNICPI calls, in `ri_ops_t` order. */
export const RI_SYS_OPS = Object.freeze(RI_OPS_ORDER.filter((n) => RI_OP_INFO[n].interfaces.includes('SYS')));
//# sourceMappingURL=ops.js.map
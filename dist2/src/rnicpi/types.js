/** `RI_MAX_LIB_PATH_LEN`: size of `lib_path`, including the terminating NUL. */
export const RI_MAX_LIB_PATH_LEN = 64;
/** `RI_MAX_HW_PATH_LEN`: size of `hw_path`, including the terminating NUL. */
export const RI_MAX_HW_PATH_LEN = 64;
/** `RI_MAX_VENDOR_STRING_LEN`: size of `addl_vendor_info`, including the terminating NUL. */
export const RI_MAX_VENDOR_STRING_LEN = 64;
/** Size of `ri_iwarp_qp_attr_t.terminate_buffer` (`char[52]`). */
export const RI_TERMINATE_BUFFER_LEN = 52;
// =============================================================================================
// Object handles (Ch. 4.5, Ch. 10.2 `struct ri_handle_struct`)
// =============================================================================================
/**
 * Property key under which every handle carries its kind at run time. Lets the AL validate
 * handle kinds (`*_INVALID_HANDLE`) and lets provider classes implement handle types directly:
 * `class Qp implements ri_qp_handle_t { readonly [RI_HANDLE_KIND] = 'qp' as const; ... }`.
 */
export const RI_HANDLE_KIND = Symbol.for('softrdma.rnicpi.handle_kind');
/** Kind of a handle, or `undefined` if `x` is not an RNICPI handle. */
export function riHandleKind(x) {
    if (typeof x !== 'object' || x === null)
        return undefined;
    const k = x[RI_HANDLE_KIND];
    return typeof k === 'string' ? k : undefined;
}
/** Type guard: `x` is a handle of kind `kind` (the AL's first validation step). */
export function isRiHandle(x, kind) {
    return riHandleKind(x) === kind;
}
/**
 * `ri_svc_make_handle()` (Ch. 10.2 helper): tags `fields` as a handle of `kind` and returns it
 * (the same object). Providers that use classes can set the tag themselves instead.
 */
export function ri_svc_make_handle(kind, fields) {
    Object.defineProperty(fields, RI_HANDLE_KIND, { value: kind, enumerable: false, writable: false });
    return fields;
}
/** `ri_svc_ops()` (Ch. 10.2 helper): the ops vector of a VP or RNIC handle. */
export function ri_svc_ops(handle) {
    return handle.ops;
}
// =============================================================================================
// RNIC management types
// =============================================================================================
/** `ri_consumer_domain_t` (`RI_CONSUMER_LOCATION_` prefix): where the consumer of an RNIC handle lives. */
export var RiConsumerDomain;
(function (RiConsumerDomain) {
    RiConsumerDomain[RiConsumerDomain["KERNEL"] = 0] = "KERNEL";
    RiConsumerDomain[RiConsumerDomain["USER"] = 1] = "USER";
})(RiConsumerDomain || (RiConsumerDomain = {}));
/** `ri_pbl_mode_t` (`RI_PHYS_` prefix): PBL mode fixed at `ri_rnic_open` until close. */
export var RiPblMode;
(function (RiPblMode) {
    /** Power-of-two aligned pages of a power-of-two size. Hardware MUST support it. */
    RiPblMode[RiPblMode["PAGE_LIST_MODE"] = 0] = "PAGE_LIST_MODE";
    /** Equal-length blocks of any supported size at byte-granular addresses. */
    RiPblMode[RiPblMode["BLOCK_LIST_MODE"] = 1] = "BLOCK_LIST_MODE";
})(RiPblMode || (RiPblMode = {}));
/** `ri_rdma_transport_type_t` (`RI_RDMA_TRANSPORT_TYPE_` prefix). */
export var RiTransportType;
(function (RiTransportType) {
    RiTransportType[RiTransportType["IB"] = 0] = "IB";
    RiTransportType[RiTransportType["IWARP"] = 1] = "IWARP";
})(RiTransportType || (RiTransportType = {}));
/** `ri_rnic_flags_t` (`RI_RNIC_` prefix): capability bits of `ri_rnic_attr_t.rnic_flags`. */
export var RiRnicFlags;
(function (RiRnicFlags) {
    /** Shared Receive Queues. */
    RiRnicFlags[RiRnicFlags["EXT_SRQ"] = 1] = "EXT_SRQ";
    /** Base memory management extensions: `ri_ltag_alloc`, fast-register, local/remote invalidate, STag0, narrow windows. iWARP: always. */
    RiRnicFlags[RiRnicFlags["EXT_BMM"] = 2] = "EXT_BMM";
    /** Zero-based virtual addressing (requires BMM). iWARP: always. */
    RiRnicFlags[RiRnicFlags["EXT_ZBVA"] = 4] = "EXT_ZBVA";
    /** Local invalidate fencing (requires BMM). iWARP: always. */
    RiRnicFlags[RiRnicFlags["EXT_LIF"] = 8] = "EXT_LIF";
    /** Block-list PBL mode supported (requires BMM); otherwise page mode only. */
    RiRnicFlags[RiRnicFlags["EXT_BLOCK_MODE"] = 16] = "EXT_BLOCK_MODE";
    RiRnicFlags[RiRnicFlags["RQ_OVERFLOW_CHECKING"] = 32] = "RQ_OVERFLOW_CHECKING";
    RiRnicFlags[RiRnicFlags["CQ_OVERFLOW_CHECKING"] = 64] = "CQ_OVERFLOW_CHECKING";
    RiRnicFlags[RiRnicFlags["CAN_RESIZE_QP"] = 128] = "CAN_RESIZE_QP";
    RiRnicFlags[RiRnicFlags["CAN_RESIZE_SRQ"] = 256] = "CAN_RESIZE_SRQ";
    /** iWARP: an out-of-order receive also dequeues SRQ WQEs for the sequence gap. */
    RiRnicFlags[RiRnicFlags["SRQ_SEQ_DEQUEUE"] = 512] = "SRQ_SEQ_DEQUEUE";
    /** `RI_EVENT_QP_LAST_WQE_REACHED` is raised for QPs on an SRQ. */
    RiRnicFlags[RiRnicFlags["SRQ_LAST_WQE_ASYNC"] = 1024] = "SRQ_LAST_WQE_ASYNC";
    /** Safe to post to the SQ right after a successful modify to RTS (else wait for a receive). */
    RiRnicFlags[RiRnicFlags["SAFE_POST_ON_RTS"] = 2048] = "SAFE_POST_ON_RTS";
    RiRnicFlags[RiRnicFlags["WIDE_WINDOWS_SUPPORTED"] = 4096] = "WIDE_WINDOWS_SUPPORTED";
    /** Index/key split also for virtual MRs (CONSUMER_OWNS_KEY) and wide windows. Header spells it `RI_RNIC_KEY_INDEX_KEY_SPLIT`. */
    RiRnicFlags[RiRnicFlags["EXT_INDEX_KEY_SPLIT"] = 8192] = "EXT_INDEX_KEY_SPLIT";
    RiRnicFlags[RiRnicFlags["CONSUMER0_OPAQUE"] = 16384] = "CONSUMER0_OPAQUE";
    RiRnicFlags[RiRnicFlags["CONSUMER1_OPAQUE"] = 32768] = "CONSUMER1_OPAQUE";
    RiRnicFlags[RiRnicFlags["CONSUMER2_OPAQUE"] = 65536] = "CONSUMER2_OPAQUE";
    /** Same bit as CONSUMER2_OPAQUE: local-solicited is only passed through (AL emulates the event). */
    RiRnicFlags[RiRnicFlags["LOCAL_SOLICITED_OPAQUE"] = 65536] = "LOCAL_SOLICITED_OPAQUE";
    /** The RNIC really raises the local-solicited completion event. */
    RiRnicFlags[RiRnicFlags["LOCAL_SOLICITED_EVENT"] = 131072] = "LOCAL_SOLICITED_EVENT";
    RiRnicFlags[RiRnicFlags["NON_COHERENT_MEMORY"] = 262144] = "NON_COHERENT_MEMORY";
})(RiRnicFlags || (RiRnicFlags = {}));
/** Header spelling of {@link RiRnicFlags.EXT_INDEX_KEY_SPLIT}. */
export const RI_RNIC_KEY_INDEX_KEY_SPLIT = RiRnicFlags.EXT_INDEX_KEY_SPLIT;
/** `ri_iwarp_rnic_flags_t` (`RI_IWARP_` prefix). */
export var RiIwarpRnicFlags;
(function (RiIwarpRnicFlags) {
    RiIwarpRnicFlags[RiIwarpRnicFlags["CAN_MODIFY_IRD"] = 1] = "CAN_MODIFY_IRD";
    RiIwarpRnicFlags[RiIwarpRnicFlags["CAN_INCREASE_ORD"] = 2] = "CAN_INCREASE_ORD";
    RiIwarpRnicFlags[RiIwarpRnicFlags["TCP_SUPPORTED"] = 4] = "TCP_SUPPORTED";
    RiIwarpRnicFlags[RiIwarpRnicFlags["SCTP_SUPPORTED"] = 8] = "SCTP_SUPPORTED";
    /** IETF RNIC that can fall back to RDMAC (version 0) per QP. IETF without it = non-permissive. */
    RiIwarpRnicFlags[RiIwarpRnicFlags["IETF_PERMISSIVE"] = 16] = "IETF_PERMISSIVE";
    /** MPA negotiation preference: markers. */
    RiIwarpRnicFlags[RiIwarpRnicFlags["PREFER_MARKERS"] = 32] = "PREFER_MARKERS";
    /** MPA negotiation preference: CRC. */
    RiIwarpRnicFlags[RiIwarpRnicFlags["PREFER_CRC"] = 64] = "PREFER_CRC";
    /** Keepalive control offered (no mechanism is defined by RNICPI 1.0; see spec-notes). */
    RiIwarpRnicFlags[RiIwarpRnicFlags["KEEPALIVE_SUPPORTED"] = 128] = "KEEPALIVE_SUPPORTED";
})(RiIwarpRnicFlags || (RiIwarpRnicFlags = {}));
/** iWARP `protocol_version` values. */
export var RiIwarpProtocolVersion;
(function (RiIwarpProtocolVersion) {
    RiIwarpProtocolVersion[RiIwarpProtocolVersion["RDMAC"] = 0] = "RDMAC";
    RiIwarpProtocolVersion[RiIwarpProtocolVersion["IETF"] = 1] = "IETF";
})(RiIwarpProtocolVersion || (RiIwarpProtocolVersion = {}));
/** `ri_ib_port_state_t` (`RI_IB_LINK_` prefix; bit values). */
export var RiIbPortState;
(function (RiIbPortState) {
    RiIbPortState[RiIbPortState["DOWN"] = 2] = "DOWN";
    RiIbPortState[RiIbPortState["INITIALIZE"] = 4] = "INITIALIZE";
    RiIbPortState[RiIbPortState["ARM"] = 8] = "ARM";
    /** Transient. */
    RiIbPortState[RiIbPortState["ACT_DEFER"] = 16] = "ACT_DEFER";
    /** "Up". */
    RiIbPortState[RiIbPortState["ACTIVE"] = 32] = "ACTIVE";
})(RiIbPortState || (RiIbPortState = {}));
/** `RI_IB_PORT_DOWN`: how IB verbs define "port down". */
export const RI_IB_PORT_DOWN = RiIbPortState.DOWN | RiIbPortState.INITIALIZE | RiIbPortState.ARM;
/** `RI_IB_PORT_UP`. */
export const RI_IB_PORT_UP = RiIbPortState.ACT_DEFER | RiIbPortState.ACTIVE;
/** `ri_ib_mtu_t` (`RI_IB_MTU_` prefix). */
export var RiIbMtu;
(function (RiIbMtu) {
    RiIbMtu[RiIbMtu["MTU_256"] = 1] = "MTU_256";
    RiIbMtu[RiIbMtu["MTU_512"] = 2] = "MTU_512";
    RiIbMtu[RiIbMtu["MTU_1K"] = 3] = "MTU_1K";
    RiIbMtu[RiIbMtu["MTU_2K"] = 4] = "MTU_2K";
    RiIbMtu[RiIbMtu["MTU_4K"] = 5] = "MTU_4K";
})(RiIbMtu || (RiIbMtu = {}));
/** `ri_ib_port_flags_t` (`RI_IB_PORT_` prefix; PortInfo capability-mask bit positions). */
export var RiIbPortFlags;
(function (RiIbPortFlags) {
    RiIbPortFlags[RiIbPortFlags["SM"] = 1] = "SM";
    RiIbPortFlags[RiIbPortFlags["SM_DISABLED"] = 1024] = "SM_DISABLED";
    RiIbPortFlags[RiIbPortFlags["SNMP_TUNNEL"] = 131072] = "SNMP_TUNNEL";
    RiIbPortFlags[RiIbPortFlags["DEV_MGT"] = 524288] = "DEV_MGT";
    RiIbPortFlags[RiIbPortFlags["VENDOR_CLASS"] = 1048576] = "VENDOR_CLASS";
    RiIbPortFlags[RiIbPortFlags["CLIENT_REREG"] = 33554432] = "CLIENT_REREG";
})(RiIbPortFlags || (RiIbPortFlags = {}));
/** softrdma extension: GID types (values as `enum ibv_gid_type`; RoCE v2 is IBTA Annex A17). */
export var RiSrGidType;
(function (RiSrGidType) {
    RiSrGidType[RiSrGidType["IB"] = 0] = "IB";
    RiSrGidType[RiSrGidType["ROCE_V1"] = 1] = "ROCE_V1";
    RiSrGidType[RiSrGidType["ROCE_V2"] = 2] = "ROCE_V2";
})(RiSrGidType || (RiSrGidType = {}));
/** `ri_ib_rnic_flags_t` (`RI_IB_` prefix). */
export var RiIbRnicFlags;
(function (RiIbRnicFlags) {
    RiIbRnicFlags[RiIbRnicFlags["APM"] = 1] = "APM";
    RiIbRnicFlags[RiIbRnicFlags["RNR_NAK"] = 2] = "RNR_NAK";
    RiIbRnicFlags[RiIbRnicFlags["AH_PORT_CHECK"] = 4] = "AH_PORT_CHECK";
    RiIbRnicFlags[RiIbRnicFlags["CAN_CHANGE_PRIMARY_PORT"] = 8] = "CAN_CHANGE_PRIMARY_PORT";
    RiIbRnicFlags[RiIbRnicFlags["CAN_CURRENT_QP_STATE"] = 16] = "CAN_CURRENT_QP_STATE";
    RiIbRnicFlags[RiIbRnicFlags["ATOMICS"] = 32] = "ATOMICS";
    RiIbRnicFlags[RiIbRnicFlags["ATOMICS_ALL_COMPONENTS"] = 64] = "ATOMICS_ALL_COMPONENTS";
    RiIbRnicFlags[RiIbRnicFlags["TYPE_2B_WINDOWS"] = 128] = "TYPE_2B_WINDOWS";
    RiIbRnicFlags[RiIbRnicFlags["MULTIPLE_BLOCK_SIZES_PER_REGION"] = 256] = "MULTIPLE_BLOCK_SIZES_PER_REGION";
    RiIbRnicFlags[RiIbRnicFlags["UD_MULTICAST"] = 512] = "UD_MULTICAST";
    RiIbRnicFlags[RiIbRnicFlags["PORT_ACTIVE_EVENT"] = 1024] = "PORT_ACTIVE_EVENT";
    RiIbRnicFlags[RiIbRnicFlags["SHUTDOWN_PORT"] = 2048] = "SHUTDOWN_PORT";
    RiIbRnicFlags[RiIbRnicFlags["PKEY_CNTR"] = 4096] = "PKEY_CNTR";
    RiIbRnicFlags[RiIbRnicFlags["QKEY_CNTR"] = 8192] = "QKEY_CNTR";
    RiIbRnicFlags[RiIbRnicFlags["SI_GUID"] = 16384] = "SI_GUID";
    RiIbRnicFlags[RiIbRnicFlags["INIT_TYPE"] = 32768] = "INIT_TYPE";
})(RiIbRnicFlags || (RiIbRnicFlags = {}));
/** `ri_rnic_query_flags_t`. */
export var RiRnicQueryFlags;
(function (RiRnicQueryFlags) {
    /** `RI_QUERY_RNIC_PORT_INFO`: also return per-port attributes and address lists. */
    RiRnicQueryFlags[RiRnicQueryFlags["PORT_INFO"] = 1] = "PORT_INFO";
})(RiRnicQueryFlags || (RiRnicQueryFlags = {}));
export const RI_QUERY_RNIC_PORT_INFO = RiRnicQueryFlags.PORT_INFO;
/** `ri_rnic_attr_mask_t` (`RI_IB_RNIC_ATTR_` prefix), for `ri_rnic_modify` (IB only). */
export var RiRnicAttrMask;
(function (RiRnicAttrMask) {
    RiRnicAttrMask[RiRnicAttrMask["SI_GUID"] = 1] = "SI_GUID";
})(RiRnicAttrMask || (RiRnicAttrMask = {}));
/** `ri_port_attr_mask_t` (`RI_IB_PORT_ATTR_` prefix). */
export var RiPortAttrMask;
(function (RiPortAttrMask) {
    RiPortAttrMask[RiPortAttrMask["SHUTDOWN"] = 1] = "SHUTDOWN";
    RiPortAttrMask[RiPortAttrMask["INIT_TYPE"] = 2] = "INIT_TYPE";
    RiPortAttrMask[RiPortAttrMask["QKEY_RESET"] = 4] = "QKEY_RESET";
    RiPortAttrMask[RiPortAttrMask["CAP_SET"] = 8] = "CAP_SET";
    RiPortAttrMask[RiPortAttrMask["CAP_FLAG_SM"] = 16] = "CAP_FLAG_SM";
    RiPortAttrMask[RiPortAttrMask["CAP_FLAG_SNMP"] = 32] = "CAP_FLAG_SNMP";
    RiPortAttrMask[RiPortAttrMask["CAP_FLAG_DEVMGT"] = 64] = "CAP_FLAG_DEVMGT";
    RiPortAttrMask[RiPortAttrMask["CAP_FLAG_VENDOR"] = 128] = "CAP_FLAG_VENDOR";
})(RiPortAttrMask || (RiPortAttrMask = {}));
/** `RI_IB_ALL_PORTS`: `port_number` 0 in `ri_port_modify_req_t` means every port. */
export const RI_IB_ALL_PORTS = 0;
/** `ri_diag_op_type_t` (`RI_DIAG_` prefix), for `ri_rnic_diag`. Every op is optional (`OP_UNSUPPORTED`). */
export var RiDiagOpType;
(function (RiDiagOpType) {
    /** Printable ASCII RNIC state, counters, prior-call error detail. `arg` ignored. */
    RiDiagOpType[RiDiagOpType["RNIC_DETAILS"] = 0] = "RNIC_DETAILS";
    /** Printable ASCII state/counters of the QP whose handle is `arg`. */
    RiDiagOpType[RiDiagOpType["QP_DETAILS"] = 1] = "QP_DETAILS";
    /** Dump of internal memory, contexts, traces. `arg` ignored. */
    RiDiagOpType[RiDiagOpType["RNIC_DUMP"] = 2] = "RNIC_DUMP";
    /** Reset the RDMA interface (consumers may be shut down); `arg`/`opval`/`oplen` ignored. */
    RiDiagOpType[RiDiagOpType["RDMA_RESET"] = 3] = "RDMA_RESET";
})(RiDiagOpType || (RiDiagOpType = {}));
/** RNICPI version this surface implements (reported in `ri_svcs_dev_arg_t`). */
export const RNICPI_MAJOR_VERSION = 1;
export const RNICPI_MINOR_VERSION = 0;
// =============================================================================================
// Events (`ri_async_set_event_handler`, `ri_cq_set_event_handler`, `ri_cq_req_notification`)
// =============================================================================================
/**
 * `ri_async_event_type_t` (`RI_EVENT_` prefix). Values from the header enum order. Canonical
 * names are the Ch. 7 page spellings (they keep the `RI_EVENT_QP_*` / `CQ_*` / `SRQ_*` prefix
 * rule that selects `resource_os_data`); header spellings are exported as aliases.
 */
export var RiAsyncEventType;
(function (RiAsyncEventType) {
    // iWARP-only events
    RiAsyncEventType[RiAsyncEventType["QP_LLQ_CLOSE_COMPLETE"] = 0] = "QP_LLQ_CLOSE_COMPLETE";
    RiAsyncEventType[RiAsyncEventType["QP_TERMINATE_MESSAGE_RECEIVED"] = 1] = "QP_TERMINATE_MESSAGE_RECEIVED";
    RiAsyncEventType[RiAsyncEventType["QP_LLQ_CONNECTION_RESET"] = 2] = "QP_LLQ_CONNECTION_RESET";
    RiAsyncEventType[RiAsyncEventType["QP_LLQ_CONNECTION_LOST"] = 3] = "QP_LLQ_CONNECTION_LOST";
    RiAsyncEventType[RiAsyncEventType["QP_LLQ_INTEGRITY_ERROR_SIZE"] = 4] = "QP_LLQ_INTEGRITY_ERROR_SIZE";
    RiAsyncEventType[RiAsyncEventType["QP_LLQ_INTEGRITY_ERROR_CRC"] = 5] = "QP_LLQ_INTEGRITY_ERROR_CRC";
    RiAsyncEventType[RiAsyncEventType["QP_LLQ_INTEGRITY_ERROR_BAD_FPDU"] = 6] = "QP_LLQ_INTEGRITY_ERROR_BAD_FPDU";
    RiAsyncEventType[RiAsyncEventType["QP_REMOTE_OP_ERROR_DDP_VERSION"] = 7] = "QP_REMOTE_OP_ERROR_DDP_VERSION";
    RiAsyncEventType[RiAsyncEventType["QP_REMOTE_OP_ERROR_RDMA_VERSION"] = 8] = "QP_REMOTE_OP_ERROR_RDMA_VERSION";
    RiAsyncEventType[RiAsyncEventType["QP_REMOTE_OP_ERROR_OPCODE"] = 9] = "QP_REMOTE_OP_ERROR_OPCODE";
    RiAsyncEventType[RiAsyncEventType["QP_REMOTE_OP_ERROR_DDP_QN"] = 10] = "QP_REMOTE_OP_ERROR_DDP_QN";
    RiAsyncEventType[RiAsyncEventType["QP_REMOTE_OP_ERROR_RDMA_RD_DISABLED"] = 11] = "QP_REMOTE_OP_ERROR_RDMA_RD_DISABLED";
    RiAsyncEventType[RiAsyncEventType["QP_REMOTE_OP_ERROR_RDMA_WR_RD_RESP_DISABLED"] = 12] = "QP_REMOTE_OP_ERROR_RDMA_WR_RD_RESP_DISABLED";
    RiAsyncEventType[RiAsyncEventType["QP_REMOTE_OP_ERROR_RDMA_RD_INVALID"] = 13] = "QP_REMOTE_OP_ERROR_RDMA_RD_INVALID";
    RiAsyncEventType[RiAsyncEventType["QP_REMOTE_OP_ERROR_NO_L_BIT"] = 14] = "QP_REMOTE_OP_ERROR_NO_L_BIT";
    RiAsyncEventType[RiAsyncEventType["QP_PROTECTION_ERROR_STAG_QP_MISMATCH"] = 15] = "QP_PROTECTION_ERROR_STAG_QP_MISMATCH";
    RiAsyncEventType[RiAsyncEventType["QP_PROTECTION_ERROR_BOUNDS_VIOLATION"] = 16] = "QP_PROTECTION_ERROR_BOUNDS_VIOLATION";
    RiAsyncEventType[RiAsyncEventType["QP_PROTECTION_ERROR_ACCESS_VIOLATION"] = 17] = "QP_PROTECTION_ERROR_ACCESS_VIOLATION";
    RiAsyncEventType[RiAsyncEventType["QP_PROTECTION_ERROR_INVALID_PD"] = 18] = "QP_PROTECTION_ERROR_INVALID_PD";
    RiAsyncEventType[RiAsyncEventType["QP_PROTECTION_ERROR_WRAP_ERROR"] = 19] = "QP_PROTECTION_ERROR_WRAP_ERROR";
    /** Header: `RI_EVENT_TYPE_BAD_CLOSE`. */
    RiAsyncEventType[RiAsyncEventType["QP_BAD_CLOSE"] = 20] = "QP_BAD_CLOSE";
    RiAsyncEventType[RiAsyncEventType["QP_BAD_LLQ_CLOSE"] = 21] = "QP_BAD_LLQ_CLOSE";
    RiAsyncEventType[RiAsyncEventType["QP_RQ_PROTECTION_ERROR_INVALID_MSN"] = 22] = "QP_RQ_PROTECTION_ERROR_INVALID_MSN";
    RiAsyncEventType[RiAsyncEventType["QP_RQ_PROTECTION_ERROR_MSN_GAP"] = 23] = "QP_RQ_PROTECTION_ERROR_MSN_GAP";
    /** Spelled exactly as on the Ch. 7 page; header: `..._TOO_MANY_RDMA_READS`. */
    RiAsyncEventType[RiAsyncEventType["QP_IRRQ_PROTECTION_ERROR_TOO_MANY_RDMA_RDs"] = 24] = "QP_IRRQ_PROTECTION_ERROR_TOO_MANY_RDMA_RDs";
    RiAsyncEventType[RiAsyncEventType["QP_IRRQ_PROTECTION_ERROR_MSN_GAP"] = 25] = "QP_IRRQ_PROTECTION_ERROR_MSN_GAP";
    RiAsyncEventType[RiAsyncEventType["QP_IRRQ_PROTECTION_ERROR_INVALID_MSN"] = 26] = "QP_IRRQ_PROTECTION_ERROR_INVALID_MSN";
    RiAsyncEventType[RiAsyncEventType["QP_IRRQ_PROTECTION_ERROR_INVALID_STAG"] = 27] = "QP_IRRQ_PROTECTION_ERROR_INVALID_STAG";
    RiAsyncEventType[RiAsyncEventType["QP_IRRQ_PROTECTION_ERROR_BOUNDS_VIOLATION"] = 28] = "QP_IRRQ_PROTECTION_ERROR_BOUNDS_VIOLATION";
    RiAsyncEventType[RiAsyncEventType["QP_IRRQ_PROTECTION_ERROR_ACCESS_VIOLATION"] = 29] = "QP_IRRQ_PROTECTION_ERROR_ACCESS_VIOLATION";
    RiAsyncEventType[RiAsyncEventType["QP_IRRQ_PROTECTION_ERROR_INVALID_PD"] = 30] = "QP_IRRQ_PROTECTION_ERROR_INVALID_PD";
    RiAsyncEventType[RiAsyncEventType["QP_IRRQ_PROTECTION_ERROR_WRAP_ERROR"] = 31] = "QP_IRRQ_PROTECTION_ERROR_WRAP_ERROR";
    RiAsyncEventType[RiAsyncEventType["QP_CQ_SQ_ERROR"] = 32] = "QP_CQ_SQ_ERROR";
    RiAsyncEventType[RiAsyncEventType["QP_CQ_RQ_ERROR"] = 33] = "QP_CQ_RQ_ERROR";
    /** Optional for iWARP. */
    RiAsyncEventType[RiAsyncEventType["CQ_OVERFLOW_DETECTED"] = 34] = "CQ_OVERFLOW_DETECTED";
    RiAsyncEventType[RiAsyncEventType["CQ_OP_ERROR"] = 35] = "CQ_OP_ERROR";
    RiAsyncEventType[RiAsyncEventType["QP_SRQ_ERROR"] = 36] = "QP_SRQ_ERROR";
    RiAsyncEventType[RiAsyncEventType["QP_LOCAL_CATASTROPHIC_ERROR"] = 37] = "QP_LOCAL_CATASTROPHIC_ERROR";
    RiAsyncEventType[RiAsyncEventType["QP_RQ_LIMIT_REACHED"] = 38] = "QP_RQ_LIMIT_REACHED";
    // common events
    RiAsyncEventType[RiAsyncEventType["SRQ_LIMIT_REACHED"] = 39] = "SRQ_LIMIT_REACHED";
    RiAsyncEventType[RiAsyncEventType["SRQ_CATASTROPHIC_ERROR"] = 40] = "SRQ_CATASTROPHIC_ERROR";
    /** RNIC-level fatal error not tied to a QP/CQ/SRQ/port; `resource_os_data` = `ri_rnic_open` os_data. */
    RiAsyncEventType[RiAsyncEventType["LOCAL_CATASTROPHIC_ERROR"] = 41] = "LOCAL_CATASTROPHIC_ERROR";
    /** Header enum alias of LOCAL_CATASTROPHIC_ERROR (same value, 41). */
    // biome-ignore lint/suspicious/noDuplicateEnumValues: spec enum alias (header defines it equal to LOCAL_CATASTROPHIC_ERROR)
    RiAsyncEventType[RiAsyncEventType["RNIC_LOCAL_CATASTROPHIC_ERROR"] = 41] = "RNIC_LOCAL_CATASTROPHIC_ERROR";
    /** Optional for iWARP (see `RI_RNIC_SRQ_LAST_WQE_ASYNC`). Value 42, not 43 (the alias above reuses 41). */
    RiAsyncEventType[RiAsyncEventType["QP_LAST_WQE_REACHED"] = 42] = "QP_LAST_WQE_REACHED";
    // IB-specific events
    /** Header: `RI_EVENT_TYPE_QP_PATH_MIGRATED`. */
    RiAsyncEventType[RiAsyncEventType["QP_PATH_MIGRATED"] = 43] = "QP_PATH_MIGRATED";
    /** Header: `RI_EVENT_TYPE_QP_COMMUNICATION_ESTABLISHED`. */
    RiAsyncEventType[RiAsyncEventType["QP_COMMUNICATION_ESTABLISHED"] = 44] = "QP_COMMUNICATION_ESTABLISHED";
    /** Header: `RI_EVENT_TYPE_QP_SEND_QUEUE_DRAINED`. */
    RiAsyncEventType[RiAsyncEventType["QP_SEND_QUEUE_DRAINED"] = 45] = "QP_SEND_QUEUE_DRAINED";
    RiAsyncEventType[RiAsyncEventType["CQ_ERROR"] = 46] = "CQ_ERROR";
    RiAsyncEventType[RiAsyncEventType["QP_LOCAL_WQ_CATASTROPHIC_ERROR"] = 47] = "QP_LOCAL_WQ_CATASTROPHIC_ERROR";
    RiAsyncEventType[RiAsyncEventType["QP_INVALID_REQ_LOCAL_WQ_ERROR"] = 48] = "QP_INVALID_REQ_LOCAL_WQ_ERROR";
    RiAsyncEventType[RiAsyncEventType["QP_LOCAL_ACCESS_VIOLATION_WQ_ERROR"] = 49] = "QP_LOCAL_ACCESS_VIOLATION_WQ_ERROR";
    RiAsyncEventType[RiAsyncEventType["QP_PATH_MIG_REQ_ERROR"] = 50] = "QP_PATH_MIG_REQ_ERROR";
    /** Unaffiliated IB port state change; `event_data.port_event`. */
    RiAsyncEventType[RiAsyncEventType["PORT_EVENT"] = 51] = "PORT_EVENT";
    RiAsyncEventType[RiAsyncEventType["CLIENT_REG_EVENT"] = 52] = "CLIENT_REG_EVENT";
})(RiAsyncEventType || (RiAsyncEventType = {}));
/** Header spelling of {@link RiAsyncEventType.QP_BAD_CLOSE}. */
export const RI_EVENT_TYPE_BAD_CLOSE = RiAsyncEventType.QP_BAD_CLOSE;
/** Header spelling of {@link RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_TOO_MANY_RDMA_RDs}. */
export const RI_EVENT_QP_IRRQ_PROTECTION_ERROR_TOO_MANY_RDMA_READS = RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_TOO_MANY_RDMA_RDs;
/** Header spelling of {@link RiAsyncEventType.QP_PATH_MIGRATED}. */
export const RI_EVENT_TYPE_QP_PATH_MIGRATED = RiAsyncEventType.QP_PATH_MIGRATED;
/** Header spelling of {@link RiAsyncEventType.QP_COMMUNICATION_ESTABLISHED}. */
export const RI_EVENT_TYPE_QP_COMMUNICATION_ESTABLISHED = RiAsyncEventType.QP_COMMUNICATION_ESTABLISHED;
/** Header spelling of {@link RiAsyncEventType.QP_SEND_QUEUE_DRAINED}. */
export const RI_EVENT_TYPE_QP_SEND_QUEUE_DRAINED = RiAsyncEventType.QP_SEND_QUEUE_DRAINED;
/**
 * The event-class rule of `ri_async_set_event_handler` (Ch. 7): `QP_*` → the QP's
 * `ri_qp_create` os_data; `CQ_*` → the CQ's `ri_cq_create` os_data; `SRQ_*` → the SRQ's
 * `ri_srq_create` os_data; `PORT_EVENT` → `port_event` (no os_data); anything else
 * (`LOCAL_CATASTROPHIC_ERROR`, `CLIENT_REG_EVENT`) → the `ri_rnic_open` os_data.
 */
export function riEventResource(type) {
    if (type === RiAsyncEventType.PORT_EVENT)
        return 'port';
    const name = RiAsyncEventType[type] ?? '';
    if (name.startsWith('QP_'))
        return 'qp';
    if (name.startsWith('CQ_'))
        return 'cq';
    if (name.startsWith('SRQ_'))
        return 'srq';
    return 'rnic';
}
/** `ri_cmplt_notify_type_t` (`RI_CMPLT_NOTIFY_` prefix). */
export var RiCmpltNotifyType;
(function (RiCmpltNotifyType) {
    /** Next solicited completion: SE-flagged receive, local-solicited WR, or *any unsuccessful* WC. */
    RiCmpltNotifyType[RiCmpltNotifyType["SOLICITED"] = 0] = "SOLICITED";
    /** Next completion of any kind (takes precedence over SOLICITED). */
    RiCmpltNotifyType[RiCmpltNotifyType["ANY"] = 1] = "ANY";
})(RiCmpltNotifyType || (RiCmpltNotifyType = {}));
/** `ri_cq_modify_mask_t`. */
export var RiCqModifyMask;
(function (RiCqModifyMask) {
    /** `RI_CQ_MODIFY_MASK_NUM_CQE`: resize. */
    RiCqModifyMask[RiCqModifyMask["NUM_CQE"] = 1] = "NUM_CQE";
})(RiCqModifyMask || (RiCqModifyMask = {}));
// =============================================================================================
// Memory
// =============================================================================================
/** `ri_stag_state_t` (`RI_STAG_STATE_` prefix). */
export var RiStagState;
(function (RiStagState) {
    RiStagState[RiStagState["INVALID"] = 0] = "INVALID";
    RiStagState[RiStagState["VALID"] = 1] = "VALID";
})(RiStagState || (RiStagState = {}));
/**
 * `ri_mem_attr_t` (`RI_MEM_FLAGS_` prefix): access rights and registration modifiers, OR-ed.
 * Ch. 7 also spells `RI_MEM_ACCESS_REMOTE_WRITE/READ`, `RI_MEM_CONSUMER_OWNS_KEY`,
 * `RI_MEM_FLAGS_ATOMIC` (aliases below).
 */
export var RiMemFlags;
(function (RiMemFlags) {
    /** Always implied; cosmetic. */
    RiMemFlags[RiMemFlags["LOCAL_READ"] = 1] = "LOCAL_READ";
    RiMemFlags[RiMemFlags["LOCAL_WRITE"] = 2] = "LOCAL_WRITE";
    RiMemFlags[RiMemFlags["LOCAL"] = 3] = "LOCAL";
    RiMemFlags[RiMemFlags["REMOTE_WRITE"] = 4] = "REMOTE_WRITE";
    RiMemFlags[RiMemFlags["REMOTE_READ"] = 8] = "REMOTE_READ";
    RiMemFlags[RiMemFlags["REMOTE"] = 12] = "REMOTE";
    /** Remote atomics (irrelevant without atomics support). */
    RiMemFlags[RiMemFlags["ATOMICS"] = 16] = "ATOMICS";
    /** The MR may host window binds. */
    RiMemFlags[RiMemFlags["BINDING"] = 32] = "BINDING";
    /** Index/key split: the consumer sets the 8-bit key (LSB) of the tag. */
    RiMemFlags[RiMemFlags["CONSUMER_OWNS_KEY"] = 64] = "CONSUMER_OWNS_KEY";
    /** Zero-based virtual addressing: TOs are offsets from the region start. */
    RiMemFlags[RiMemFlags["ZBVA"] = 128] = "ZBVA";
    /** Waive coherency; use `ri_mem_sync_rread/rwrite` (needs `RI_RNIC_NON_COHERENT_MEMORY`). */
    RiMemFlags[RiMemFlags["NONCOHERENT"] = 256] = "NONCOHERENT";
    /** `va` is in the user address space tied to the RNIC handle (else kernel). */
    RiMemFlags[RiMemFlags["USER_VA"] = 512] = "USER_VA";
    /** `ri_mr_reg_shared` only: `va` is an I/O virtual address. */
    RiMemFlags[RiMemFlags["SHARED_REG_IOVA"] = 1024] = "SHARED_REG_IOVA";
})(RiMemFlags || (RiMemFlags = {}));
/** Ch. 7 spelling of {@link RiMemFlags.REMOTE_WRITE}. */
export const RI_MEM_ACCESS_REMOTE_WRITE = RiMemFlags.REMOTE_WRITE;
/** Ch. 7 spelling of {@link RiMemFlags.REMOTE_READ}. */
export const RI_MEM_ACCESS_REMOTE_READ = RiMemFlags.REMOTE_READ;
/** Ch. 7 spelling of {@link RiMemFlags.CONSUMER_OWNS_KEY}. */
export const RI_MEM_CONSUMER_OWNS_KEY = RiMemFlags.CONSUMER_OWNS_KEY;
/** Ch. 8 prose spelling of {@link RiMemFlags.ATOMICS}. */
export const RI_MEM_FLAGS_ATOMIC = RiMemFlags.ATOMICS;
/**
 * Addressing type of a region/window (softrdma helper; RNICPI encodes it as
 * `RI_MEM_FLAGS_ZBVA`): VA-based TOs are virtual addresses, zero-based TOs are offsets.
 */
export var RiAddrType;
(function (RiAddrType) {
    RiAddrType[RiAddrType["VA_BASED"] = 0] = "VA_BASED";
    RiAddrType[RiAddrType["ZERO_BASED"] = 1] = "ZERO_BASED";
})(RiAddrType || (RiAddrType = {}));
/** Addressing type implied by a `ri_mem_attr_t`. */
export function riAddrType(mem_attr) {
    return (mem_attr & RiMemFlags.ZBVA) !== 0 ? RiAddrType.ZERO_BASED : RiAddrType.VA_BASED;
}
/** Splits a 32-bit STag (LTag/RTag) into its 24-bit index and 8-bit key. */
export function riStagSplit(stag) {
    return { index: (stag >>> 8) & 0xff_ffff, key: stag & 0xff };
}
/** Builds a 32-bit STag from a 24-bit index and an 8-bit key. */
export function riStagMake(index, key) {
    return (((index & 0xff_ffff) << 8) | (key & 0xff)) >>> 0;
}
/** `ri_mr_rereg_t` (`RI_MR_REREG_` prefix): what `ri_mr_rereg(_phys)` changes. */
export var RiMrRereg;
(function (RiMrRereg) {
    RiMrRereg[RiMrRereg["TRANSLATE"] = 1] = "TRANSLATE";
    RiMrRereg[RiMrRereg["PD"] = 2] = "PD";
    RiMrRereg[RiMrRereg["ACCESS"] = 4] = "ACCESS";
})(RiMrRereg || (RiMrRereg = {}));
/** `ri_mw_type_t` (`RI_MW_` prefix). */
export var RiMwType;
(function (RiMwType) {
    /** Wide: valid on all QPs of the PD. IB MUST, iWARP MAY (`RI_RNIC_WIDE_WINDOWS_SUPPORTED`). */
    RiMwType[RiMwType["TYPE_1"] = 0] = "TYPE_1";
    // biome-ignore lint/suspicious/noDuplicateEnumValues: spec enum alias of TYPE_1
    RiMwType[RiMwType["TYPE_WIDE"] = 0] = "TYPE_WIDE";
    /** Narrow: valid only on the QP that bound it. iWARP MUST. */
    RiMwType[RiMwType["TYPE_2"] = 1] = "TYPE_2";
    RiMwType[RiMwType["TYPE_NARROW"] = 1] = "TYPE_NARROW";
})(RiMwType || (RiMwType = {}));
/** `ri_srq_attr_mask_t` (`RI_SRQ_ATTR_` prefix). */
export var RiSrqAttrMask;
(function (RiSrqAttrMask) {
    /** Only with `RI_RNIC_CAN_RESIZE_SRQ`. */
    RiSrqAttrMask[RiSrqAttrMask["MAX_WRS"] = 1] = "MAX_WRS";
    /** Setting a value > 0 arms the limit. */
    RiSrqAttrMask[RiSrqAttrMask["LOWAT"] = 2] = "LOWAT";
})(RiSrqAttrMask || (RiSrqAttrMask = {}));
// =============================================================================================
// Queue pairs
// =============================================================================================
/** `ri_svc_type_t` (`RI_SERVICE_` prefix). */
export var RiSvcType;
(function (RiSvcType) {
    RiSvcType[RiSvcType["RELIABLE_CONNECTION"] = 0] = "RELIABLE_CONNECTION";
    RiSvcType[RiSvcType["UNRELIABLE_DATAGRAM"] = 1] = "UNRELIABLE_DATAGRAM";
    /**
     * softrdma extension: IB Unreliable Connection (IBTA Vol. 1 §9.8.1). RNICPI 1.0 names RC and
     * UD only; a softrdma RoCEv2 RNIC also creates UC QPs (see docs/spec-notes.md).
     */
    RiSvcType[RiSvcType["SR_UNRELIABLE_CONNECTION"] = 2] = "SR_UNRELIABLE_CONNECTION";
})(RiSvcType || (RiSvcType = {}));
/** `ri_qp_state_t` (`RI_QP_STATE_` prefix). A state not valid for the transport fails the modify. */
export var RiQpState;
(function (RiQpState) {
    RiQpState[RiQpState["IDLE"] = 0] = "IDLE";
    RiQpState[RiQpState["READY_TO_SEND"] = 1] = "READY_TO_SEND";
    RiQpState[RiQpState["ERROR"] = 2] = "ERROR";
    /** iWARP only. */
    RiQpState[RiQpState["TERMINATE"] = 3] = "TERMINATE";
    /** iWARP only. */
    RiQpState[RiQpState["CLOSING"] = 4] = "CLOSING";
    /** IB only. */
    RiQpState[RiQpState["SEND_QUEUE_ERROR"] = 5] = "SEND_QUEUE_ERROR";
    /** IB only. */
    RiQpState[RiQpState["INITIALIZED"] = 6] = "INITIALIZED";
    /** IB only. */
    RiQpState[RiQpState["READY_TO_RECEIVE"] = 7] = "READY_TO_RECEIVE";
    /** IB only. */
    RiQpState[RiQpState["SEND_QUEUE_DRAINING"] = 8] = "SEND_QUEUE_DRAINING";
    /** IB only. */
    RiQpState[RiQpState["SEND_QUEUE_DRAINED"] = 9] = "SEND_QUEUE_DRAINED";
    /** IB only. */
    RiQpState[RiQpState["TIMEWAIT"] = 10] = "TIMEWAIT";
})(RiQpState || (RiQpState = {}));
/** `ri_path_migration_state_t` (`RI_MIG_STATE_` prefix). */
export var RiMigState;
(function (RiMigState) {
    RiMigState[RiMigState["MIGRATED"] = 0] = "MIGRATED";
    RiMigState[RiMigState["REARM"] = 1] = "REARM";
    RiMigState[RiMigState["ARMED"] = 2] = "ARMED";
})(RiMigState || (RiMigState = {}));
/** MPA `ddp_rdma_version` values (DDP and RDMAP header version). */
export var RiDdpRdmaVersion;
(function (RiDdpRdmaVersion) {
    RiDdpRdmaVersion[RiDdpRdmaVersion["RDMAC"] = 0] = "RDMAC";
    RiDdpRdmaVersion[RiDdpRdmaVersion["IETF"] = 1] = "IETF";
})(RiDdpRdmaVersion || (RiDdpRdmaVersion = {}));
/**
 * `ri_qp_attr_mask_t` (`RI_QP_ATTR_` prefix). Bits 5–9 mean different things for iWARP and IB:
 * the provider interprets them by the RNIC's transport. Both meanings are members here.
 */
export var RiQpAttrMask;
(function (RiQpAttrMask) {
    RiQpAttrMask[RiQpAttrMask["NEXT_STATE"] = 1] = "NEXT_STATE";
    RiQpAttrMask[RiQpAttrMask["SQ_SIZE"] = 2] = "SQ_SIZE";
    RiQpAttrMask[RiQpAttrMask["RQ_SIZE"] = 4] = "RQ_SIZE";
    RiQpAttrMask[RiQpAttrMask["MAX_RDMA_READ_OUTGOING"] = 8] = "MAX_RDMA_READ_OUTGOING";
    RiQpAttrMask[RiQpAttrMask["MAX_RDMA_READ_INCOMING"] = 16] = "MAX_RDMA_READ_INCOMING";
    // iWARP-specific
    RiQpAttrMask[RiQpAttrMask["RQ_HIWAT"] = 32] = "RQ_HIWAT";
    RiQpAttrMask[RiQpAttrMask["RQ_ARMED"] = 64] = "RQ_ARMED";
    /** Spelled "LLQ" by the spec; sets `llp_stream_handle` (conversion to RDMA mode). */
    RiQpAttrMask[RiQpAttrMask["LLQ_STREAM_HANDLE"] = 128] = "LLQ_STREAM_HANDLE";
    RiQpAttrMask[RiQpAttrMask["STREAM_MSG_BUFFER"] = 256] = "STREAM_MSG_BUFFER";
    RiQpAttrMask[RiQpAttrMask["MPA_ATTR"] = 512] = "MPA_ATTR";
    // IB-specific (same bit positions as the iWARP ones for 5–9)
    RiQpAttrMask[RiQpAttrMask["ENABLE_RDMA_READ"] = 32] = "ENABLE_RDMA_READ";
    RiQpAttrMask[RiQpAttrMask["ENABLE_RDMA_WRITE"] = 64] = "ENABLE_RDMA_WRITE";
    RiQpAttrMask[RiQpAttrMask["ENABLE_ATOMICS"] = 128] = "ENABLE_ATOMICS";
    RiQpAttrMask[RiQpAttrMask["DEST_QPID"] = 256] = "DEST_QPID";
    /** Header spelling: `RI_QP_ATTR_ENABLE_SQD`. */
    RiQpAttrMask[RiQpAttrMask["ENABLE_ASYNC_NOTIFY_FOR_SQD"] = 512] = "ENABLE_ASYNC_NOTIFY_FOR_SQD";
    RiQpAttrMask[RiQpAttrMask["QKEY"] = 1024] = "QKEY";
    RiQpAttrMask[RiQpAttrMask["SEND_PSN"] = 2048] = "SEND_PSN";
    RiQpAttrMask[RiQpAttrMask["RECV_PSN"] = 4096] = "RECV_PSN";
    RiQpAttrMask[RiQpAttrMask["MIN_RNR_TIMER"] = 8192] = "MIN_RNR_TIMER";
    RiQpAttrMask[RiQpAttrMask["PRIMARY_PATH"] = 16384] = "PRIMARY_PATH";
    RiQpAttrMask[RiQpAttrMask["ALTERNATE_PATH"] = 32768] = "ALTERNATE_PATH";
    RiQpAttrMask[RiQpAttrMask["MIGSTATE"] = 65536] = "MIGSTATE";
    RiQpAttrMask[RiQpAttrMask["PRIMARY_PKEY"] = 131072] = "PRIMARY_PKEY";
    RiQpAttrMask[RiQpAttrMask["PORT_NUM"] = 262144] = "PORT_NUM";
    /**
     * softrdma extension (IB RNICs): `qp_ib.sr_ibta_mask` gives the IBTA components of the modify;
     * the RNICPI IB bits 5–18 must then be clear (see docs/spec-notes.md).
     */
    RiQpAttrMask[RiQpAttrMask["SR_IBTA_ATTRS"] = 524288] = "SR_IBTA_ATTRS";
})(RiQpAttrMask || (RiQpAttrMask = {}));
/** Header spelling of {@link RiQpAttrMask.ENABLE_ASYNC_NOTIFY_FOR_SQD}. */
export const RI_QP_ATTR_ENABLE_SQD = RiQpAttrMask.ENABLE_ASYNC_NOTIFY_FOR_SQD;
/** Mask bits valid for an iWARP QP. */
export const RI_QP_ATTR_IWARP_VALID_MASK = (1 << 10) - 1;
/** Mask bits valid for an IB QP. */
export const RI_QP_ATTR_IB_VALID_MASK = (1 << 19) - 1;
/** `ri_sqp_type_t` (`RI_SQP_TYPE_` prefix), for `ri_special_qp_get` (IB). */
export var RiSqpType;
(function (RiSqpType) {
    /** QP0. */
    RiSqpType[RiSqpType["SMI"] = 0] = "SMI";
    /** QP1. */
    RiSqpType[RiSqpType["GSI"] = 1] = "GSI";
})(RiSqpType || (RiSqpType = {}));
// =============================================================================================
// Work requests
// =============================================================================================
/** `ri_wr_type_t` (`RI_WR_TYPE_` prefix). */
export var RiWrType;
(function (RiWrType) {
    /** Send (with or without Solicited Event). */
    RiWrType[RiWrType["SEND"] = 0] = "SEND";
    /** Send with Invalidate of remote `rtag`. */
    RiWrType[RiWrType["SEND_INVALIDATE"] = 1] = "SEND_INVALIDATE";
    RiWrType[RiWrType["RDMA_WRITE"] = 2] = "RDMA_WRITE";
    RiWrType[RiWrType["RDMA_READ"] = 3] = "RDMA_READ";
    /** Memory Window bind (both window types). */
    RiWrType[RiWrType["BIND"] = 4] = "BIND";
    /** Fast-register a physical MR (privileged consumers only). */
    RiWrType[RiWrType["FAST_REGISTER"] = 5] = "FAST_REGISTER";
    RiWrType[RiWrType["LOCAL_INVALIDATE_MR"] = 6] = "LOCAL_INVALIDATE_MR";
    RiWrType[RiWrType["LOCAL_INVALIDATE_MW"] = 7] = "LOCAL_INVALIDATE_MW";
    /** iWARP only: RDMA Read, then invalidate the local sink (at most 1 SGE). */
    RiWrType[RiWrType["RDMA_READ_LOCAL_INVALIDATE"] = 8] = "RDMA_READ_LOCAL_INVALIDATE";
    /** IB only. */
    RiWrType[RiWrType["COMPARE_AND_SWAP"] = 9] = "COMPARE_AND_SWAP";
    /** IB only. */
    RiWrType[RiWrType["FETCH_AND_ADD"] = 10] = "FETCH_AND_ADD";
    /** IB only. */
    RiWrType[RiWrType["SEND_IMMEDIATE"] = 11] = "SEND_IMMEDIATE";
    /** IB only. */
    RiWrType[RiWrType["RDMA_WRITE_IMMEDIATE"] = 12] = "RDMA_WRITE_IMMEDIATE";
})(RiWrType || (RiWrType = {}));
/** `ri_wr_flags_t` (`RI_WR_` prefix). */
export var RiWrFlags;
(function (RiWrFlags) {
    /** Request a WC on success (selectable signalling). Ch. 8 typo: `RI_WR_SINGALED_FLAG`. */
    RiWrFlags[RiWrFlags["SIGNALED_FLAG"] = 1] = "SIGNALED_FLAG";
    /** Raise the local CQ event on this WR's completion; ignored unless SIGNALED is set. */
    RiWrFlags[RiWrFlags["LOCAL_SOLICITED_FLAG"] = 2] = "LOCAL_SOLICITED_FLAG";
    /** Set SE toward the remote (Send types; IB RDMA Write with immediate). */
    RiWrFlags[RiWrFlags["SOLICITED_EVENT_FLAG"] = 4] = "SOLICITED_EVENT_FLAG";
    /** Wait for prior RDMA Reads (iWARP: Send and RDMA Write only; IB also Read/atomic/Bind). */
    RiWrFlags[RiWrFlags["READ_FENCE_FLAG"] = 8] = "READ_FENCE_FLAG";
    /** Wait for all prior WRs (local-invalidate WRs only; needs `RI_RNIC_EXT_LIF`). */
    RiWrFlags[RiWrFlags["LOCAL_FENCE_FLAG"] = 16] = "LOCAL_FENCE_FLAG";
    /** May delay the doorbell; a post with the flag clear pushes everything pending. */
    RiWrFlags[RiWrFlags["COALESCE_FLAG"] = 32] = "COALESCE_FLAG";
    /** SGE addresses may be used as plain local pointers (up to `max_unregistered_inline`). */
    RiWrFlags[RiWrFlags["INLINE_OK_FLAG"] = 64] = "INLINE_OK_FLAG";
    /** Consumer pass-through flag 2 (same bit as LOCAL_SOLICITED_FLAG). */
    // biome-ignore lint/suspicious/noDuplicateEnumValues: spec enum alias of LOCAL_SOLICITED_FLAG
    RiWrFlags[RiWrFlags["CONSUMER_FLAG2"] = 2] = "CONSUMER_FLAG2";
    /** Consumer pass-through flag 1. */
    RiWrFlags[RiWrFlags["CONSUMER_FLAG1"] = 536870912] = "CONSUMER_FLAG1";
    /** Consumer pass-through flag 0. */
    RiWrFlags[RiWrFlags["CONSUMER_FLAG0"] = 1073741824] = "CONSUMER_FLAG0";
})(RiWrFlags || (RiWrFlags = {}));
/** Ch. 8 typo spelling of {@link RiWrFlags.SIGNALED_FLAG}. */
export const RI_WR_SINGALED_FLAG = RiWrFlags.SIGNALED_FLAG;
/** `ri_cq_req_notification` prose spelling; means {@link RiWrFlags.LOCAL_SOLICITED_FLAG}. */
export const RI_WR_NOTIFY_FLAG = RiWrFlags.LOCAL_SOLICITED_FLAG;
/** Flags valid on receive WRs (`ri_qp_postrq`, `ri_srq_post`); others → `WR_INVALID_FLAGS`. */
export const RI_WR_RECV_VALID_FLAGS = RiWrFlags.LOCAL_SOLICITED_FLAG | RiWrFlags.COALESCE_FLAG;
/** Every defined SQ WR flag bit. */
export const RI_WR_ALL_FLAGS = 0x7f | RiWrFlags.CONSUMER_FLAG1 | RiWrFlags.CONSUMER_FLAG0;
// =============================================================================================
// Work completions
// =============================================================================================
/** `ri_wc_type_t` (`RI_WC_TYPE_` prefix). Value 3 is unused; 1–6 align with IT-API event types. */
export var RiWcType;
(function (RiWcType) {
    /** Send and Send-with-Invalidate (± SE), details in flags. */
    RiWcType[RiWcType["SEND"] = 1] = "SEND";
    RiWcType[RiWcType["DATA_RECEIVED"] = 2] = "DATA_RECEIVED";
    RiWcType[RiWcType["RDMA_WRITE"] = 4] = "RDMA_WRITE";
    RiWcType[RiWcType["RDMA_READ"] = 5] = "RDMA_READ";
    RiWcType[RiWcType["BIND"] = 6] = "BIND";
    RiWcType[RiWcType["FAST_REGISTER"] = 7] = "FAST_REGISTER";
    /** LOCAL_INVALIDATE_MR and _MW. */
    RiWcType[RiWcType["LOCAL_INVALIDATE"] = 8] = "LOCAL_INVALIDATE";
    RiWcType[RiWcType["RDMA_READ_LOCAL_INVALIDATE"] = 9] = "RDMA_READ_LOCAL_INVALIDATE";
    RiWcType[RiWcType["COMPARE_AND_SWAP"] = 10] = "COMPARE_AND_SWAP";
    RiWcType[RiWcType["FETCH_AND_ADD"] = 11] = "FETCH_AND_ADD";
    /** IB: receive of an RDMA Write with immediate. Ch. 7 synopsis: `RDMA_WRITE_IMMEDIATE_RECEIVED`. */
    RiWcType[RiWcType["RDMA_IMMEDIATE_RECEIVED"] = 12] = "RDMA_IMMEDIATE_RECEIVED";
})(RiWcType || (RiWcType = {}));
/** Ch. 7 synopsis spelling of {@link RiWcType.RDMA_IMMEDIATE_RECEIVED}. */
export const RI_WC_TYPE_RDMA_WRITE_IMMEDIATE_RECEIVED = RiWcType.RDMA_IMMEDIATE_RECEIVED;
/** `ri_wc_flags_t` (`RI_WC_FLAG_` prefix). */
export var RiWcFlags;
(function (RiWcFlags) {
    RiWcFlags[RiWcFlags["SOLICITED_EVENT"] = 1] = "SOLICITED_EVENT";
    RiWcFlags[RiWcFlags["LOCAL_SOLICITED"] = 2] = "LOCAL_SOLICITED";
    /** `invalidated_rtag` is valid (Ch. 7 prose: `RI_WC_FLAG_RTAG_INVALIDATED`). */
    RiWcFlags[RiWcFlags["RTAG_INVALIDATE"] = 4] = "RTAG_INVALIDATE";
    /** `immediate_data` is valid (IB). */
    RiWcFlags[RiWcFlags["IMMEDIATE_DATA"] = 8] = "IMMEDIATE_DATA";
    /** Pass-through flag 2 (same bit as LOCAL_SOLICITED). */
    RiWcFlags[RiWcFlags["CONSUMER2"] = 2] = "CONSUMER2";
    RiWcFlags[RiWcFlags["CONSUMER1"] = 536870912] = "CONSUMER1";
    RiWcFlags[RiWcFlags["CONSUMER0"] = 1073741824] = "CONSUMER0";
})(RiWcFlags || (RiWcFlags = {}));
/** Ch. 7 prose spelling of {@link RiWcFlags.RTAG_INVALIDATE}. */
export const RI_WC_FLAG_RTAG_INVALIDATED = RiWcFlags.RTAG_INVALIDATE;
/** `ri_wc_status_t` (`RI_WC_STATUS_` prefix). 0–2 align with IT-API `dto_status_t`. */
export var RiWcStatus;
(function (RiWcStatus) {
    RiWcStatus[RiWcStatus["SUCCESS"] = 0] = "SUCCESS";
    RiWcStatus[RiWcStatus["WR_FLUSHED_ERROR"] = 1] = "WR_FLUSHED_ERROR";
    RiWcStatus[RiWcStatus["LOCAL_QP_CATASTROPHIC"] = 2] = "LOCAL_QP_CATASTROPHIC";
    /** Same value as LOCAL_QP_CATASTROPHIC. */
    // biome-ignore lint/suspicious/noDuplicateEnumValues: spec enum alias of LOCAL_QP_CATASTROPHIC
    RiWcStatus[RiWcStatus["LOCAL_QP_OP_ERROR"] = 2] = "LOCAL_QP_OP_ERROR";
    // iWARP-specific
    RiWcStatus[RiWcStatus["WQE_FORMAT_ERROR"] = 3] = "WQE_FORMAT_ERROR";
    RiWcStatus[RiWcStatus["REMOTE_TERMINATION_ERROR"] = 4] = "REMOTE_TERMINATION_ERROR";
    RiWcStatus[RiWcStatus["INVALID_STAG_ERROR"] = 5] = "INVALID_STAG_ERROR";
    RiWcStatus[RiWcStatus["BASE_BOUNDS_VIOLATION_ERROR"] = 6] = "BASE_BOUNDS_VIOLATION_ERROR";
    RiWcStatus[RiWcStatus["ACCESS_VIOLATION_ERROR"] = 7] = "ACCESS_VIOLATION_ERROR";
    RiWcStatus[RiWcStatus["INVALID_PD_ERROR"] = 8] = "INVALID_PD_ERROR";
    RiWcStatus[RiWcStatus["ADDRESS_WRAP_ERROR"] = 9] = "ADDRESS_WRAP_ERROR";
    RiWcStatus[RiWcStatus["STAG_INVALIDATE_ERROR"] = 10] = "STAG_INVALIDATE_ERROR";
    RiWcStatus[RiWcStatus["ZERO_ORD_ERROR"] = 11] = "ZERO_ORD_ERROR";
    RiWcStatus[RiWcStatus["FMR_QP_NOT_PRIVILEGED_ERROR"] = 12] = "FMR_QP_NOT_PRIVILEGED_ERROR";
    RiWcStatus[RiWcStatus["STAG_NOT_IN_INVALID_STATE_ERROR"] = 13] = "STAG_NOT_IN_INVALID_STATE_ERROR";
    RiWcStatus[RiWcStatus["INVALID_FMR_PAGE_SIZE_ERROR"] = 14] = "INVALID_FMR_PAGE_SIZE_ERROR";
    RiWcStatus[RiWcStatus["INVALID_FMR_BLOCK_SIZE_ERROR"] = 15] = "INVALID_FMR_BLOCK_SIZE_ERROR";
    RiWcStatus[RiWcStatus["INVALID_FMR_PBL_ENTRY_ERROR"] = 16] = "INVALID_FMR_PBL_ENTRY_ERROR";
    RiWcStatus[RiWcStatus["INVALID_FMR_FBO_ERROR"] = 17] = "INVALID_FMR_FBO_ERROR";
    RiWcStatus[RiWcStatus["INVALID_FMR_LENGTH_ERROR"] = 18] = "INVALID_FMR_LENGTH_ERROR";
    RiWcStatus[RiWcStatus["INVALID_FMR_PERMS_ERROR"] = 19] = "INVALID_FMR_PERMS_ERROR";
    RiWcStatus[RiWcStatus["FMR_PBL_TOO_LONG_ERROR"] = 20] = "FMR_PBL_TOO_LONG_ERROR";
    RiWcStatus[RiWcStatus["INVALID_FMR_VA_ERROR"] = 21] = "INVALID_FMR_VA_ERROR";
    RiWcStatus[RiWcStatus["INVALID_BIND_MR_ERROR"] = 22] = "INVALID_BIND_MR_ERROR";
    RiWcStatus[RiWcStatus["INVALID_BIND_MW_ERROR"] = 23] = "INVALID_BIND_MW_ERROR";
    RiWcStatus[RiWcStatus["HUGE_PAYLOAD_ERROR"] = 24] = "HUGE_PAYLOAD_ERROR";
    // IB-specific
    RiWcStatus[RiWcStatus["LOCAL_LENGTH_ERROR"] = 25] = "LOCAL_LENGTH_ERROR";
    RiWcStatus[RiWcStatus["LOCAL_PROTECTION_ERROR"] = 26] = "LOCAL_PROTECTION_ERROR";
    RiWcStatus[RiWcStatus["MEMORY_MGMT_ERROR"] = 27] = "MEMORY_MGMT_ERROR";
    RiWcStatus[RiWcStatus["BAD_RESPONSE_ERROR"] = 28] = "BAD_RESPONSE_ERROR";
    RiWcStatus[RiWcStatus["LOCAL_ACCESS_ERROR"] = 29] = "LOCAL_ACCESS_ERROR";
    RiWcStatus[RiWcStatus["REMOTE_INVALID_REQ_ERROR"] = 30] = "REMOTE_INVALID_REQ_ERROR";
    RiWcStatus[RiWcStatus["REMOTE_ACCESS_ERROR"] = 31] = "REMOTE_ACCESS_ERROR";
    RiWcStatus[RiWcStatus["REMOTE_OP_ERROR"] = 32] = "REMOTE_OP_ERROR";
    RiWcStatus[RiWcStatus["TRANSPORT_RETRY_EXCEEDED"] = 33] = "TRANSPORT_RETRY_EXCEEDED";
    RiWcStatus[RiWcStatus["RNR_RETRY_EXCEEDED"] = 34] = "RNR_RETRY_EXCEEDED";
    RiWcStatus[RiWcStatus["REMOTE_ABORTED_ERROR"] = 35] = "REMOTE_ABORTED_ERROR";
})(RiWcStatus || (RiWcStatus = {}));
/** True for a UD/general WC (`ud_wc` member of the C union). */
export function riWcIsGen(wc) {
    return 'qpn' in wc;
}
//# sourceMappingURL=types.js.map
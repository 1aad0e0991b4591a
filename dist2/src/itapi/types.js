/** `IT_FALSE` (C value 0). */
export const IT_FALSE = false;
/** `IT_TRUE` (C value 1). */
export const IT_TRUE = true;
// =============================================================================================
// Constants
// =============================================================================================
/** `IT_NO_ADDR` (`NULL`, it_api_os_specific.h L15539): "no pointer" for optional inputs. */
export const IT_NO_ADDR = null;
/** `IT_NULL_HANDLE` (`((it_handle_t) NULL)`, L13352). */
export const IT_NULL_HANDLE = null;
/** `IT_INTERFACE_NAME_SIZE` (L15540): size of `it_interface_t.name` including the NUL. */
export const IT_INTERFACE_NAME_SIZE = 128;
/** `IT_MAX_PRIV_DATA` (L14299): size of every private-data buffer. */
export const IT_MAX_PRIV_DATA = 256;
/** `IT_MAX_VIA_DISC_LEN` (L13382). */
export const IT_MAX_VIA_DISC_LEN = 64;
/** `IT_MAX_VIA_ADDR_LEN` (L13499). */
export const IT_MAX_VIA_ADDR_LEN = 64;
/** `IT_THRESHOLD_DISABLE` (L14685): `sevd_threshold` value that disables thresholding. */
export const IT_THRESHOLD_DISABLE = 0;
/** `IT_TIMEOUT_INFINITE` (`((uint64_t)(-1))`, L14203): `it_evd_wait` waits forever. */
export const IT_TIMEOUT_INFINITE = 0xffffffffffffffffn;
/** `IT_EVENT_STREAM_MASK` (L14201): `event_number & IT_EVENT_STREAM_MASK` is the event's stream. */
export const IT_EVENT_STREAM_MASK = 0xff000;
/**
 * `IT_HARD_HI_WATERMARK_DISABLE` (`((size_t) -1)`, L14169). In the binding `size_t` is a `number`,
 * so "the largest `size_t`" is `Infinity`: no count ever exceeds it.
 */
export const IT_HARD_HI_WATERMARK_DISABLE = Number.POSITIVE_INFINITY;
// =============================================================================================
// Enums, flag sets and masks (values from it_api.h)
// =============================================================================================
/** `it_handle_type_enum_t` (L13336–L13348): sequential from 0. */
export var it_handle_type_enum_t;
(function (it_handle_type_enum_t) {
    it_handle_type_enum_t[it_handle_type_enum_t["IT_HANDLE_TYPE_ADDR"] = 0] = "IT_HANDLE_TYPE_ADDR";
    it_handle_type_enum_t[it_handle_type_enum_t["IT_HANDLE_TYPE_EP"] = 1] = "IT_HANDLE_TYPE_EP";
    it_handle_type_enum_t[it_handle_type_enum_t["IT_HANDLE_TYPE_EVD"] = 2] = "IT_HANDLE_TYPE_EVD";
    it_handle_type_enum_t[it_handle_type_enum_t["IT_HANDLE_TYPE_IA"] = 3] = "IT_HANDLE_TYPE_IA";
    it_handle_type_enum_t[it_handle_type_enum_t["IT_HANDLE_TYPE_LISTEN"] = 4] = "IT_HANDLE_TYPE_LISTEN";
    it_handle_type_enum_t[it_handle_type_enum_t["IT_HANDLE_TYPE_LMR"] = 5] = "IT_HANDLE_TYPE_LMR";
    it_handle_type_enum_t[it_handle_type_enum_t["IT_HANDLE_TYPE_PZ"] = 6] = "IT_HANDLE_TYPE_PZ";
    it_handle_type_enum_t[it_handle_type_enum_t["IT_HANDLE_TYPE_RMR"] = 7] = "IT_HANDLE_TYPE_RMR";
    it_handle_type_enum_t[it_handle_type_enum_t["IT_HANDLE_TYPE_UD_SVC_REQ"] = 8] = "IT_HANDLE_TYPE_UD_SVC_REQ";
    it_handle_type_enum_t[it_handle_type_enum_t["IT_HANDLE_TYPE_SRQ"] = 9] = "IT_HANDLE_TYPE_SRQ";
})(it_handle_type_enum_t || (it_handle_type_enum_t = {}));
export const IT_HANDLE_TYPE_ADDR = it_handle_type_enum_t.IT_HANDLE_TYPE_ADDR;
export const IT_HANDLE_TYPE_EP = it_handle_type_enum_t.IT_HANDLE_TYPE_EP;
export const IT_HANDLE_TYPE_EVD = it_handle_type_enum_t.IT_HANDLE_TYPE_EVD;
export const IT_HANDLE_TYPE_IA = it_handle_type_enum_t.IT_HANDLE_TYPE_IA;
export const IT_HANDLE_TYPE_LISTEN = it_handle_type_enum_t.IT_HANDLE_TYPE_LISTEN;
export const IT_HANDLE_TYPE_LMR = it_handle_type_enum_t.IT_HANDLE_TYPE_LMR;
export const IT_HANDLE_TYPE_PZ = it_handle_type_enum_t.IT_HANDLE_TYPE_PZ;
export const IT_HANDLE_TYPE_RMR = it_handle_type_enum_t.IT_HANDLE_TYPE_RMR;
export const IT_HANDLE_TYPE_UD_SVC_REQ = it_handle_type_enum_t.IT_HANDLE_TYPE_UD_SVC_REQ;
export const IT_HANDLE_TYPE_SRQ = it_handle_type_enum_t.IT_HANDLE_TYPE_SRQ;
/** `it_transport_type_t` (L13540–L13559). Values ≥ 1000 are reserved for vendor prototypes. */
export var it_transport_type_t;
(function (it_transport_type_t) {
    /** InfiniBand (softrdma's RoCEv2 faces would report this transport). */
    it_transport_type_t[it_transport_type_t["IT_IB_TRANSPORT"] = 1] = "IT_IB_TRANSPORT";
    /** VIA over IP (Reliable Delivery only). */
    it_transport_type_t[it_transport_type_t["IT_VIA_IP_TRANSPORT"] = 2] = "IT_VIA_IP_TRANSPORT";
    /** VIA over Fibre Channel (Reliable Delivery only). */
    it_transport_type_t[it_transport_type_t["IT_VIA_FC_TRANSPORT"] = 3] = "IT_VIA_FC_TRANSPORT";
    /** iWARP over TCP — softrdma's IT-API IA. */
    it_transport_type_t[it_transport_type_t["IT_IWARP_TCP_TRANSPORT"] = 4] = "IT_IWARP_TCP_TRANSPORT";
    it_transport_type_t[it_transport_type_t["IT_VENDOR_TRANSPORT"] = 1000] = "IT_VENDOR_TRANSPORT";
})(it_transport_type_t || (it_transport_type_t = {}));
export const IT_IB_TRANSPORT = it_transport_type_t.IT_IB_TRANSPORT;
export const IT_VIA_IP_TRANSPORT = it_transport_type_t.IT_VIA_IP_TRANSPORT;
export const IT_VIA_FC_TRANSPORT = it_transport_type_t.IT_VIA_FC_TRANSPORT;
export const IT_IWARP_TCP_TRANSPORT = it_transport_type_t.IT_IWARP_TCP_TRANSPORT;
export const IT_VENDOR_TRANSPORT = it_transport_type_t.IT_VENDOR_TRANSPORT;
/** `it_transport_service_type_t` (L13561–L13570): bits, OR-ed in `supported_service_types`. */
export var it_transport_service_type_t;
(function (it_transport_service_type_t) {
    it_transport_service_type_t[it_transport_service_type_t["IT_RC_SERVICE"] = 1] = "IT_RC_SERVICE";
    it_transport_service_type_t[it_transport_service_type_t["IT_UD_SERVICE"] = 2] = "IT_UD_SERVICE";
})(it_transport_service_type_t || (it_transport_service_type_t = {}));
export const IT_RC_SERVICE = it_transport_service_type_t.IT_RC_SERVICE;
export const IT_UD_SERVICE = it_transport_service_type_t.IT_UD_SERVICE;
/**
 * `it_mem_priv_t` (L13291–L13303): memory access privileges (bits). `IT_PRIV_NONE` (v1.0 compat)
 * and `IT_PRIV_DEFAULT` (deprecated by `IT_PRIV_LOCAL`) exist only in the header.
 */
export var it_mem_priv_t;
(function (it_mem_priv_t) {
    it_mem_priv_t[it_mem_priv_t["IT_PRIV_NONE"] = 0] = "IT_PRIV_NONE";
    it_mem_priv_t[it_mem_priv_t["IT_PRIV_LOCAL_READ"] = 1] = "IT_PRIV_LOCAL_READ";
    it_mem_priv_t[it_mem_priv_t["IT_PRIV_LOCAL_WRITE"] = 2] = "IT_PRIV_LOCAL_WRITE";
    /** Deprecated by `IT_PRIV_LOCAL` (declared first here so reverse lookup yields `IT_PRIV_LOCAL`). */
    it_mem_priv_t[it_mem_priv_t["IT_PRIV_DEFAULT"] = 3] = "IT_PRIV_DEFAULT";
    // biome-ignore lint/suspicious/noDuplicateEnumValues: header defines IT_PRIV_DEFAULT = IT_PRIV_LOCAL
    it_mem_priv_t[it_mem_priv_t["IT_PRIV_LOCAL"] = 3] = "IT_PRIV_LOCAL";
    it_mem_priv_t[it_mem_priv_t["IT_PRIV_REMOTE_READ"] = 4] = "IT_PRIV_REMOTE_READ";
    it_mem_priv_t[it_mem_priv_t["IT_PRIV_REMOTE_WRITE"] = 8] = "IT_PRIV_REMOTE_WRITE";
    it_mem_priv_t[it_mem_priv_t["IT_PRIV_REMOTE"] = 12] = "IT_PRIV_REMOTE";
    it_mem_priv_t[it_mem_priv_t["IT_PRIV_ATOMIC"] = 16] = "IT_PRIV_ATOMIC";
    it_mem_priv_t[it_mem_priv_t["IT_PRIV_ALL"] = 31] = "IT_PRIV_ALL";
})(it_mem_priv_t || (it_mem_priv_t = {}));
export const IT_PRIV_NONE = it_mem_priv_t.IT_PRIV_NONE;
export const IT_PRIV_LOCAL_READ = it_mem_priv_t.IT_PRIV_LOCAL_READ;
export const IT_PRIV_LOCAL_WRITE = it_mem_priv_t.IT_PRIV_LOCAL_WRITE;
export const IT_PRIV_DEFAULT = it_mem_priv_t.IT_PRIV_DEFAULT;
export const IT_PRIV_LOCAL = it_mem_priv_t.IT_PRIV_LOCAL;
export const IT_PRIV_REMOTE_READ = it_mem_priv_t.IT_PRIV_REMOTE_READ;
export const IT_PRIV_REMOTE_WRITE = it_mem_priv_t.IT_PRIV_REMOTE_WRITE;
export const IT_PRIV_REMOTE = it_mem_priv_t.IT_PRIV_REMOTE;
export const IT_PRIV_ATOMIC = it_mem_priv_t.IT_PRIV_ATOMIC;
export const IT_PRIV_ALL = it_mem_priv_t.IT_PRIV_ALL;
/**
 * `it_lmr_flag_t` (L13305–L13311). Note `IT_LMR_FLAG_NONE` is 0x1 in the header, while the text
 * says "NONE or 0 means no options": implementations accept both 0 and 0x1 as "no flags".
 */
export var it_lmr_flag_t;
(function (it_lmr_flag_t) {
    it_lmr_flag_t[it_lmr_flag_t["IT_LMR_FLAG_NONE"] = 1] = "IT_LMR_FLAG_NONE";
    it_lmr_flag_t[it_lmr_flag_t["IT_LMR_FLAG_SHARED"] = 2] = "IT_LMR_FLAG_SHARED";
    it_lmr_flag_t[it_lmr_flag_t["IT_LMR_FLAG_NONCOHERENT"] = 4] = "IT_LMR_FLAG_NONCOHERENT";
    it_lmr_flag_t[it_lmr_flag_t["IT_LMR_FLAG_NON_SHAREABLE"] = 8] = "IT_LMR_FLAG_NON_SHAREABLE";
})(it_lmr_flag_t || (it_lmr_flag_t = {}));
export const { IT_LMR_FLAG_NONE, IT_LMR_FLAG_SHARED, IT_LMR_FLAG_NONCOHERENT, IT_LMR_FLAG_NON_SHAREABLE } = it_lmr_flag_t;
/** `it_rmr_type_t` (L13313–L13318). `rmr_types_supported` is a bit set of NARROW|WIDE. */
export var it_rmr_type_t;
(function (it_rmr_type_t) {
    /** Implementation chooses Narrow or Wide. */
    it_rmr_type_t[it_rmr_type_t["IT_RMR_TYPE_DEFAULT"] = 0] = "IT_RMR_TYPE_DEFAULT";
    /** Bound to the linking Endpoint (iWARP guarantees Narrow). */
    it_rmr_type_t[it_rmr_type_t["IT_RMR_TYPE_NARROW"] = 1] = "IT_RMR_TYPE_NARROW";
    /** Usable by any Endpoint of the PZ. */
    it_rmr_type_t[it_rmr_type_t["IT_RMR_TYPE_WIDE"] = 2] = "IT_RMR_TYPE_WIDE";
})(it_rmr_type_t || (it_rmr_type_t = {}));
export const IT_RMR_TYPE_DEFAULT = it_rmr_type_t.IT_RMR_TYPE_DEFAULT;
export const IT_RMR_TYPE_NARROW = it_rmr_type_t.IT_RMR_TYPE_NARROW;
export const IT_RMR_TYPE_WIDE = it_rmr_type_t.IT_RMR_TYPE_WIDE;
/** `it_addr_mode_t` (L13320–L13324). */
export var it_addr_mode_t;
(function (it_addr_mode_t) {
    /** DTO address = region base address + offset (virtual address space). */
    it_addr_mode_t[it_addr_mode_t["IT_ADDR_MODE_ABSOLUTE"] = 0] = "IT_ADDR_MODE_ABSOLUTE";
    /** DTO address = byte offset from the region's first byte (needs `addr_mode_relative_support`). */
    it_addr_mode_t[it_addr_mode_t["IT_ADDR_MODE_RELATIVE"] = 1] = "IT_ADDR_MODE_RELATIVE";
})(it_addr_mode_t || (it_addr_mode_t = {}));
export const IT_ADDR_MODE_ABSOLUTE = it_addr_mode_t.IT_ADDR_MODE_ABSOLUTE;
export const IT_ADDR_MODE_RELATIVE = it_addr_mode_t.IT_ADDR_MODE_RELATIVE;
/** `it_iobl_type_t` (L13658–L13663): bits, OR-ed in `iobl_types_supported`. */
export var it_iobl_type_t;
(function (it_iobl_type_t) {
    it_iobl_type_t[it_iobl_type_t["IT_IOBL_PAGE_LIST"] = 1] = "IT_IOBL_PAGE_LIST";
    it_iobl_type_t[it_iobl_type_t["IT_IOBL_BLOCK_LIST"] = 2] = "IT_IOBL_BLOCK_LIST";
    it_iobl_type_t[it_iobl_type_t["IT_IOBL_VE_PAGE_LIST"] = 4] = "IT_IOBL_VE_PAGE_LIST";
})(it_iobl_type_t || (it_iobl_type_t = {}));
export const IT_IOBL_PAGE_LIST = it_iobl_type_t.IT_IOBL_PAGE_LIST;
export const IT_IOBL_BLOCK_LIST = it_iobl_type_t.IT_IOBL_BLOCK_LIST;
export const IT_IOBL_VE_PAGE_LIST = it_iobl_type_t.IT_IOBL_VE_PAGE_LIST;
/**
 * `it_conn_qual_type_t` (L13365–L13380). Bit values (so spigot capability masks can OR them), as
 * in the 2.1 header, although App. E says 2.0 dropped explicit values.
 */
export var it_conn_qual_type_t;
(function (it_conn_qual_type_t) {
    /** IANA (TCP/UDP) port — every Spigot supports it; the iWARP listen/connect qualifier. */
    it_conn_qual_type_t[it_conn_qual_type_t["IT_IANA_PORT"] = 1] = "IT_IANA_PORT";
    /** InfiniBand Service ID. */
    it_conn_qual_type_t[it_conn_qual_type_t["IT_IB_SERVICEID"] = 2] = "IT_IB_SERVICEID";
    /** VIA connection discriminator. */
    it_conn_qual_type_t[it_conn_qual_type_t["IT_VIA_DISCRIMINATOR"] = 4] = "IT_VIA_DISCRIMINATOR";
    /** iWARP local and remote port pair (connect side chooses its local port). */
    it_conn_qual_type_t[it_conn_qual_type_t["IT_IANA_LR_PORT"] = 8] = "IT_IANA_LR_PORT";
})(it_conn_qual_type_t || (it_conn_qual_type_t = {}));
export const IT_IANA_PORT = it_conn_qual_type_t.IT_IANA_PORT;
export const IT_IB_SERVICEID = it_conn_qual_type_t.IT_IB_SERVICEID;
export const IT_VIA_DISCRIMINATOR = it_conn_qual_type_t.IT_VIA_DISCRIMINATOR;
export const IT_IANA_LR_PORT = it_conn_qual_type_t.IT_IANA_LR_PORT;
/** `it_net_addr_type_t` (L13483–L13497). */
export var it_net_addr_type_t;
(function (it_net_addr_type_t) {
    it_net_addr_type_t[it_net_addr_type_t["IT_IPV4"] = 1] = "IT_IPV4";
    it_net_addr_type_t[it_net_addr_type_t["IT_IPV6"] = 2] = "IT_IPV6";
    it_net_addr_type_t[it_net_addr_type_t["IT_IB_GID"] = 3] = "IT_IB_GID";
    it_net_addr_type_t[it_net_addr_type_t["IT_VIA_HOSTADDR"] = 4] = "IT_VIA_HOSTADDR";
})(it_net_addr_type_t || (it_net_addr_type_t = {}));
export const IT_IPV4 = it_net_addr_type_t.IT_IPV4;
export const IT_IPV6 = it_net_addr_type_t.IT_IPV6;
export const IT_IB_GID = it_net_addr_type_t.IT_IB_GID;
export const IT_VIA_HOSTADDR = it_net_addr_type_t.IT_VIA_HOSTADDR;
/** `it_ip_vers_t` (L14048–L14052): discriminant of `it_iwarp_net_endpoint_t`. */
export var it_ip_vers_t;
(function (it_ip_vers_t) {
    it_ip_vers_t[it_ip_vers_t["IT_IP_VERS_IPV4"] = 1] = "IT_IP_VERS_IPV4";
    it_ip_vers_t[it_ip_vers_t["IT_IP_VERS_IPV6"] = 2] = "IT_IP_VERS_IPV6";
})(it_ip_vers_t || (it_ip_vers_t = {}));
export const IT_IP_VERS_IPV4 = it_ip_vers_t.IT_IP_VERS_IPV4;
export const IT_IP_VERS_IPV6 = it_ip_vers_t.IT_IP_VERS_IPV6;
/** `it_dto_status_t` (L13436–L13451): completion status in DTO completion events. */
export var it_dto_status_t;
(function (it_dto_status_t) {
    it_dto_status_t[it_dto_status_t["IT_DTO_SUCCESS"] = 0] = "IT_DTO_SUCCESS";
    /** Receive too small / payload above `max_dto_payload_size`. */
    it_dto_status_t[it_dto_status_t["IT_DTO_ERR_LOCAL_LENGTH"] = 1] = "IT_DTO_ERR_LOCAL_LENGTH";
    /** Internal Endpoint inconsistency; UD Address Handle/Spigot mismatch. */
    it_dto_status_t[it_dto_status_t["IT_DTO_ERR_LOCAL_EP"] = 2] = "IT_DTO_ERR_LOCAL_EP";
    /** Local protection failure (bad/unlinked region, bounds, PZ, rights, Direct LMR misuse, …). */
    it_dto_status_t[it_dto_status_t["IT_DTO_ERR_LOCAL_PROTECTION"] = 3] = "IT_DTO_ERR_LOCAL_PROTECTION";
    /** The Endpoint went NONOPERATIONAL before the WR began. */
    it_dto_status_t[it_dto_status_t["IT_DTO_ERR_FLUSHED"] = 4] = "IT_DTO_ERR_FLUSHED";
    /** RMR Link/Unlink protection failure. */
    it_dto_status_t[it_dto_status_t["IT_RMR_OPERATION_FAILED"] = 5] = "IT_RMR_OPERATION_FAILED";
    /** Unexpected transport opcode in a response (IB). */
    it_dto_status_t[it_dto_status_t["IT_DTO_ERR_BAD_RESPONSE"] = 6] = "IT_DTO_ERR_BAD_RESPONSE";
    /** Remote protection violation reported end-to-end (iWARP: only for RDMA Read). */
    it_dto_status_t[it_dto_status_t["IT_DTO_ERR_REMOTE_ACCESS"] = 7] = "IT_DTO_ERR_REMOTE_ACCESS";
    /** The remote could not complete the operation (IB). */
    it_dto_status_t[it_dto_status_t["IT_DTO_ERR_REMOTE_RESPONDER"] = 8] = "IT_DTO_ERR_REMOTE_RESPONDER";
    /** Retries exceeded, data corruption, LLP error. */
    it_dto_status_t[it_dto_status_t["IT_DTO_ERR_TRANSPORT"] = 9] = "IT_DTO_ERR_TRANSPORT";
    /** RNR retries exhausted (IB). */
    it_dto_status_t[it_dto_status_t["IT_DTO_ERR_RECEIVER_NOT_READY"] = 10] = "IT_DTO_ERR_RECEIVER_NOT_READY";
    /** Truncated Receive (VIA). */
    it_dto_status_t[it_dto_status_t["IT_DTO_ERR_PARTIAL_PACKET"] = 11] = "IT_DTO_ERR_PARTIAL_PACKET";
    /** LMR Link/Unlink failure; RMR link to a Relative-mode LMR. */
    it_dto_status_t[it_dto_status_t["IT_DTO_ERR_LOCAL_MM_OPERATION"] = 12] = "IT_DTO_ERR_LOCAL_MM_OPERATION";
})(it_dto_status_t || (it_dto_status_t = {}));
export const IT_DTO_SUCCESS = it_dto_status_t.IT_DTO_SUCCESS;
export const IT_DTO_ERR_LOCAL_LENGTH = it_dto_status_t.IT_DTO_ERR_LOCAL_LENGTH;
export const IT_DTO_ERR_LOCAL_EP = it_dto_status_t.IT_DTO_ERR_LOCAL_EP;
export const IT_DTO_ERR_LOCAL_PROTECTION = it_dto_status_t.IT_DTO_ERR_LOCAL_PROTECTION;
export const IT_DTO_ERR_FLUSHED = it_dto_status_t.IT_DTO_ERR_FLUSHED;
export const IT_RMR_OPERATION_FAILED = it_dto_status_t.IT_RMR_OPERATION_FAILED;
export const IT_DTO_ERR_BAD_RESPONSE = it_dto_status_t.IT_DTO_ERR_BAD_RESPONSE;
export const IT_DTO_ERR_REMOTE_ACCESS = it_dto_status_t.IT_DTO_ERR_REMOTE_ACCESS;
export const IT_DTO_ERR_REMOTE_RESPONDER = it_dto_status_t.IT_DTO_ERR_REMOTE_RESPONDER;
export const IT_DTO_ERR_TRANSPORT = it_dto_status_t.IT_DTO_ERR_TRANSPORT;
export const IT_DTO_ERR_RECEIVER_NOT_READY = it_dto_status_t.IT_DTO_ERR_RECEIVER_NOT_READY;
export const IT_DTO_ERR_PARTIAL_PACKET = it_dto_status_t.IT_DTO_ERR_PARTIAL_PACKET;
export const IT_DTO_ERR_LOCAL_MM_OPERATION = it_dto_status_t.IT_DTO_ERR_LOCAL_MM_OPERATION;
/**
 * `IT_DTO_ERR_MM_OPERATION_ERROR`: named by the it_lmr_link page (iWARP length errors) but not a
 * member of `it_dto_status_t`; it means {@link it_dto_status_t.IT_DTO_ERR_LOCAL_MM_OPERATION}.
 */
export const IT_DTO_ERR_MM_OPERATION_ERROR = it_dto_status_t.IT_DTO_ERR_LOCAL_MM_OPERATION;
/** `it_dto_flags_t` (L13453–L13481): per-WR flags (bits). Legal combinations: `it_dto_flags_t` page. */
export var it_dto_flags_t;
(function (it_dto_flags_t) {
    /** Generate a completion event on success (errors always generate one); mandatory on Receives. */
    it_dto_flags_t[it_dto_flags_t["IT_COMPLETION_FLAG"] = 1] = "IT_COMPLETION_FLAG";
    /** The completion is a Notification event; illegal without `IT_COMPLETION_FLAG`. */
    it_dto_flags_t[it_dto_flags_t["IT_NOTIFY_FLAG"] = 2] = "IT_NOTIFY_FLAG";
    /** The matching remote Receive's completion becomes a Notification (Send, Send-and-Unlink, Sendto). */
    it_dto_flags_t[it_dto_flags_t["IT_SOLICITED_WAIT_FLAG"] = 4] = "IT_SOLICITED_WAIT_FLAG";
    /** An SQ WR does not start before earlier RDMA Reads (and Atomics) completed. */
    it_dto_flags_t[it_dto_flags_t["IT_BARRIER_FENCE_FLAG"] = 8] = "IT_BARRIER_FENCE_FLAG";
    /** An LMR/RMR Unlink does not start before all earlier SQ WRs completed (`unlink_fence_support`). */
    it_dto_flags_t[it_dto_flags_t["IT_UNLINK_FENCE_FLAG"] = 16] = "IT_UNLINK_FENCE_FLAG";
    /** Unlink the local sink region when an RDMA Read completes (`rdma_read_local_extensions`). */
    it_dto_flags_t[it_dto_flags_t["IT_UNLINK_LOCAL_SINK"] = 32] = "IT_UNLINK_LOCAL_SINK";
    /** Validate now, defer execution until the next post without this flag. */
    it_dto_flags_t[it_dto_flags_t["IT_COALESCE_WR_FLAG"] = 64] = "IT_COALESCE_WR_FLAG";
})(it_dto_flags_t || (it_dto_flags_t = {}));
export const IT_COMPLETION_FLAG = it_dto_flags_t.IT_COMPLETION_FLAG;
export const IT_NOTIFY_FLAG = it_dto_flags_t.IT_NOTIFY_FLAG;
export const IT_SOLICITED_WAIT_FLAG = it_dto_flags_t.IT_SOLICITED_WAIT_FLAG;
export const IT_BARRIER_FENCE_FLAG = it_dto_flags_t.IT_BARRIER_FENCE_FLAG;
export const IT_UNLINK_FENCE_FLAG = it_dto_flags_t.IT_UNLINK_FENCE_FLAG;
export const IT_UNLINK_LOCAL_SINK = it_dto_flags_t.IT_UNLINK_LOCAL_SINK;
export const IT_COALESCE_WR_FLAG = it_dto_flags_t.IT_COALESCE_WR_FLAG;
/** `it_dto_ud_flags_t` (L14374–L14377): flags of a UD Receive completion. */
export var it_dto_ud_flags_t;
(function (it_dto_ud_flags_t) {
    /** The first 40 bytes of the Receive buffer hold an IB GRH. */
    it_dto_ud_flags_t[it_dto_ud_flags_t["IT_UD_IB_GRH_PRESENT"] = 1] = "IT_UD_IB_GRH_PRESENT";
})(it_dto_ud_flags_t || (it_dto_ud_flags_t = {}));
export const IT_UD_IB_GRH_PRESENT = it_dto_ud_flags_t.IT_UD_IB_GRH_PRESENT;
/**
 * `it_event_type_t` (L14205–L14277): event numbers, grouped in streams. The stream of an event is
 * `event_number & IT_EVENT_STREAM_MASK`; the stream values are themselves members and are the
 * `event_number` given to `it_evd_create`.
 */
export var it_event_type_t;
(function (it_event_type_t) {
    // ---- Event Stream for WR/DTO completions ---------------------------------------------------
    it_event_type_t[it_event_type_t["IT_DTO_EVENT_STREAM"] = 0] = "IT_DTO_EVENT_STREAM";
    it_event_type_t[it_event_type_t["IT_DTO_SEND_CMPL_EVENT"] = 1] = "IT_DTO_SEND_CMPL_EVENT";
    it_event_type_t[it_event_type_t["IT_DTO_RC_RECV_CMPL_EVENT"] = 2] = "IT_DTO_RC_RECV_CMPL_EVENT";
    it_event_type_t[it_event_type_t["IT_DTO_UD_RECV_CMPL_EVENT"] = 3] = "IT_DTO_UD_RECV_CMPL_EVENT";
    it_event_type_t[it_event_type_t["IT_DTO_RDMA_WRITE_CMPL_EVENT"] = 4] = "IT_DTO_RDMA_WRITE_CMPL_EVENT";
    it_event_type_t[it_event_type_t["IT_DTO_RDMA_READ_CMPL_EVENT"] = 5] = "IT_DTO_RDMA_READ_CMPL_EVENT";
    /** v1.0 name of `IT_RMR_LINK_CMPL_EVENT` (declared first so reverse lookup yields LINK). */
    it_event_type_t[it_event_type_t["IT_RMR_BIND_CMPL_EVENT"] = 6] = "IT_RMR_BIND_CMPL_EVENT";
    /** RMR Link *and* RMR Unlink completions (there is no separate unlink number). */
    // biome-ignore lint/suspicious/noDuplicateEnumValues: header aliases (BIND = LINK; EP_LOCAL_ACCESS_VIOLATION = EP_L_ACCESS_VIOLATION)
    it_event_type_t[it_event_type_t["IT_RMR_LINK_CMPL_EVENT"] = 6] = "IT_RMR_LINK_CMPL_EVENT";
    it_event_type_t[it_event_type_t["IT_DTO_FETCH_ADD_CMPL_EVENT"] = 7] = "IT_DTO_FETCH_ADD_CMPL_EVENT";
    it_event_type_t[it_event_type_t["IT_DTO_CMP_SWAP_CMPL_EVENT"] = 8] = "IT_DTO_CMP_SWAP_CMPL_EVENT";
    /** LMR Link *and* LMR Unlink completions. */
    it_event_type_t[it_event_type_t["IT_LMR_LINK_CMPL_EVENT"] = 9] = "IT_LMR_LINK_CMPL_EVENT";
    // ---- Event Stream for Communication Management Request Events -----------------------------
    it_event_type_t[it_event_type_t["IT_CM_REQ_EVENT_STREAM"] = 4096] = "IT_CM_REQ_EVENT_STREAM";
    it_event_type_t[it_event_type_t["IT_CM_REQ_CONN_REQUEST_EVENT"] = 4097] = "IT_CM_REQ_CONN_REQUEST_EVENT";
    it_event_type_t[it_event_type_t["IT_CM_REQ_UD_SERVICE_REQUEST_EVENT"] = 4098] = "IT_CM_REQ_UD_SERVICE_REQUEST_EVENT";
    // ---- Event Stream for Communication Management Message Events -----------------------------
    it_event_type_t[it_event_type_t["IT_CM_MSG_EVENT_STREAM"] = 8192] = "IT_CM_MSG_EVENT_STREAM";
    it_event_type_t[it_event_type_t["IT_CM_MSG_CONN_ACCEPT_ARRIVAL_EVENT"] = 8193] = "IT_CM_MSG_CONN_ACCEPT_ARRIVAL_EVENT";
    it_event_type_t[it_event_type_t["IT_CM_MSG_CONN_ESTABLISHED_EVENT"] = 8194] = "IT_CM_MSG_CONN_ESTABLISHED_EVENT";
    it_event_type_t[it_event_type_t["IT_CM_MSG_CONN_DISCONNECT_EVENT"] = 8195] = "IT_CM_MSG_CONN_DISCONNECT_EVENT";
    it_event_type_t[it_event_type_t["IT_CM_MSG_CONN_PEER_REJECT_EVENT"] = 8196] = "IT_CM_MSG_CONN_PEER_REJECT_EVENT";
    it_event_type_t[it_event_type_t["IT_CM_MSG_CONN_NONPEER_REJECT_EVENT"] = 8197] = "IT_CM_MSG_CONN_NONPEER_REJECT_EVENT";
    it_event_type_t[it_event_type_t["IT_CM_MSG_CONN_BROKEN_EVENT"] = 8198] = "IT_CM_MSG_CONN_BROKEN_EVENT";
    it_event_type_t[it_event_type_t["IT_CM_MSG_UD_SERVICE_REPLY_EVENT"] = 8199] = "IT_CM_MSG_UD_SERVICE_REPLY_EVENT";
    // ---- Event Stream for Affiliated Asynchronous Events (0x04004 unused) ----------------------
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EVENT_STREAM"] = 16384] = "IT_ASYNC_AFF_EVENT_STREAM";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_SEVD_ENQUEUE_FAILURE"] = 16385] = "IT_ASYNC_AFF_SEVD_ENQUEUE_FAILURE";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_FAILURE"] = 16386] = "IT_ASYNC_AFF_EP_FAILURE";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_BAD_TRANSPORT_OPCODE"] = 16387] = "IT_ASYNC_AFF_EP_BAD_TRANSPORT_OPCODE";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_REQ_DROPPED"] = 16389] = "IT_ASYNC_AFF_EP_REQ_DROPPED";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_RDMAW_ACCESS_VIOLATION"] = 16390] = "IT_ASYNC_AFF_EP_RDMAW_ACCESS_VIOLATION";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_RDMAW_CORRUPT_DATA"] = 16391] = "IT_ASYNC_AFF_EP_RDMAW_CORRUPT_DATA";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_RDMAR_ACCESS_VIOLATION"] = 16392] = "IT_ASYNC_AFF_EP_RDMAR_ACCESS_VIOLATION";
    /** Older name of `IT_ASYNC_AFF_EP_L_ACCESS_VIOLATION` (declared first: reverse lookup yields L_). */
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_LOCAL_ACCESS_VIOLATION"] = 16416] = "IT_ASYNC_AFF_EP_LOCAL_ACCESS_VIOLATION";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_L_ACCESS_VIOLATION"] = 16416] = "IT_ASYNC_AFF_EP_L_ACCESS_VIOLATION";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_L_RECV_ACCESS_VIOLATION"] = 16417] = "IT_ASYNC_AFF_EP_L_RECV_ACCESS_VIOLATION";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_L_IRRQ_ACCESS_VIOLATION"] = 16418] = "IT_ASYNC_AFF_EP_L_IRRQ_ACCESS_VIOLATION";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_L_TRANSPORT_ERROR"] = 16419] = "IT_ASYNC_AFF_EP_L_TRANSPORT_ERROR";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_L_LLP_ERROR"] = 16420] = "IT_ASYNC_AFF_EP_L_LLP_ERROR";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_R_ERROR"] = 16448] = "IT_ASYNC_AFF_EP_R_ERROR";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_R_ACCESS_VIOLATION"] = 16449] = "IT_ASYNC_AFF_EP_R_ACCESS_VIOLATION";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_R_RECV_ACCESS_VIOLATION"] = 16450] = "IT_ASYNC_AFF_EP_R_RECV_ACCESS_VIOLATION";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_R_RECV_LENGTH_ERROR"] = 16451] = "IT_ASYNC_AFF_EP_R_RECV_LENGTH_ERROR";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_EP_SOFT_HI_WATERMARK"] = 16480] = "IT_ASYNC_AFF_EP_SOFT_HI_WATERMARK";
    it_event_type_t[it_event_type_t["IT_ASYNC_AFF_SRQ_LOW_WATERMARK"] = 16640] = "IT_ASYNC_AFF_SRQ_LOW_WATERMARK";
    // ---- Event Stream for Unaffiliated Asynchronous Events (0x08001 deprecated: was ----------
    // ---- IT_ASYNC_UNAFF_IA_CATASTROPHIC_ERROR, removed in 2.0) -------------------------------
    it_event_type_t[it_event_type_t["IT_ASYNC_UNAFF_EVENT_STREAM"] = 32768] = "IT_ASYNC_UNAFF_EVENT_STREAM";
    it_event_type_t[it_event_type_t["IT_ASYNC_UNAFF_SPIGOT_ONLINE"] = 32770] = "IT_ASYNC_UNAFF_SPIGOT_ONLINE";
    it_event_type_t[it_event_type_t["IT_ASYNC_UNAFF_SPIGOT_OFFLINE"] = 32771] = "IT_ASYNC_UNAFF_SPIGOT_OFFLINE";
    it_event_type_t[it_event_type_t["IT_ASYNC_UNAFF_SEVD_ENQUEUE_FAILURE"] = 32772] = "IT_ASYNC_UNAFF_SEVD_ENQUEUE_FAILURE";
    // ---- Event Stream for Software Events -----------------------------------------------------
    it_event_type_t[it_event_type_t["IT_SOFTWARE_EVENT_STREAM"] = 65536] = "IT_SOFTWARE_EVENT_STREAM";
    it_event_type_t[it_event_type_t["IT_SOFTWARE_EVENT"] = 65537] = "IT_SOFTWARE_EVENT";
    // ---- Event Stream for AEVD Notifications ---------------------------------------------------
    it_event_type_t[it_event_type_t["IT_AEVD_NOTIFICATION_EVENT_STREAM"] = 131072] = "IT_AEVD_NOTIFICATION_EVENT_STREAM";
    it_event_type_t[it_event_type_t["IT_AEVD_NOTIFICATION_EVENT"] = 131073] = "IT_AEVD_NOTIFICATION_EVENT";
})(it_event_type_t || (it_event_type_t = {}));
export const IT_DTO_EVENT_STREAM = it_event_type_t.IT_DTO_EVENT_STREAM;
export const IT_DTO_SEND_CMPL_EVENT = it_event_type_t.IT_DTO_SEND_CMPL_EVENT;
export const IT_DTO_RC_RECV_CMPL_EVENT = it_event_type_t.IT_DTO_RC_RECV_CMPL_EVENT;
export const IT_DTO_UD_RECV_CMPL_EVENT = it_event_type_t.IT_DTO_UD_RECV_CMPL_EVENT;
export const IT_DTO_RDMA_WRITE_CMPL_EVENT = it_event_type_t.IT_DTO_RDMA_WRITE_CMPL_EVENT;
export const IT_DTO_RDMA_READ_CMPL_EVENT = it_event_type_t.IT_DTO_RDMA_READ_CMPL_EVENT;
export const IT_RMR_BIND_CMPL_EVENT = it_event_type_t.IT_RMR_BIND_CMPL_EVENT;
export const IT_RMR_LINK_CMPL_EVENT = it_event_type_t.IT_RMR_LINK_CMPL_EVENT;
export const IT_DTO_FETCH_ADD_CMPL_EVENT = it_event_type_t.IT_DTO_FETCH_ADD_CMPL_EVENT;
export const IT_DTO_CMP_SWAP_CMPL_EVENT = it_event_type_t.IT_DTO_CMP_SWAP_CMPL_EVENT;
export const IT_LMR_LINK_CMPL_EVENT = it_event_type_t.IT_LMR_LINK_CMPL_EVENT;
export const IT_CM_REQ_EVENT_STREAM = it_event_type_t.IT_CM_REQ_EVENT_STREAM;
export const IT_CM_REQ_CONN_REQUEST_EVENT = it_event_type_t.IT_CM_REQ_CONN_REQUEST_EVENT;
export const IT_CM_REQ_UD_SERVICE_REQUEST_EVENT = it_event_type_t.IT_CM_REQ_UD_SERVICE_REQUEST_EVENT;
export const IT_CM_MSG_EVENT_STREAM = it_event_type_t.IT_CM_MSG_EVENT_STREAM;
export const IT_CM_MSG_CONN_ACCEPT_ARRIVAL_EVENT = it_event_type_t.IT_CM_MSG_CONN_ACCEPT_ARRIVAL_EVENT;
export const IT_CM_MSG_CONN_ESTABLISHED_EVENT = it_event_type_t.IT_CM_MSG_CONN_ESTABLISHED_EVENT;
export const IT_CM_MSG_CONN_DISCONNECT_EVENT = it_event_type_t.IT_CM_MSG_CONN_DISCONNECT_EVENT;
export const IT_CM_MSG_CONN_PEER_REJECT_EVENT = it_event_type_t.IT_CM_MSG_CONN_PEER_REJECT_EVENT;
export const IT_CM_MSG_CONN_NONPEER_REJECT_EVENT = it_event_type_t.IT_CM_MSG_CONN_NONPEER_REJECT_EVENT;
export const IT_CM_MSG_CONN_BROKEN_EVENT = it_event_type_t.IT_CM_MSG_CONN_BROKEN_EVENT;
export const IT_CM_MSG_UD_SERVICE_REPLY_EVENT = it_event_type_t.IT_CM_MSG_UD_SERVICE_REPLY_EVENT;
export const IT_ASYNC_AFF_EVENT_STREAM = it_event_type_t.IT_ASYNC_AFF_EVENT_STREAM;
export const IT_ASYNC_AFF_SEVD_ENQUEUE_FAILURE = it_event_type_t.IT_ASYNC_AFF_SEVD_ENQUEUE_FAILURE;
export const IT_ASYNC_AFF_EP_FAILURE = it_event_type_t.IT_ASYNC_AFF_EP_FAILURE;
export const IT_ASYNC_AFF_EP_BAD_TRANSPORT_OPCODE = it_event_type_t.IT_ASYNC_AFF_EP_BAD_TRANSPORT_OPCODE;
export const IT_ASYNC_AFF_EP_REQ_DROPPED = it_event_type_t.IT_ASYNC_AFF_EP_REQ_DROPPED;
export const IT_ASYNC_AFF_EP_RDMAW_ACCESS_VIOLATION = it_event_type_t.IT_ASYNC_AFF_EP_RDMAW_ACCESS_VIOLATION;
export const IT_ASYNC_AFF_EP_RDMAW_CORRUPT_DATA = it_event_type_t.IT_ASYNC_AFF_EP_RDMAW_CORRUPT_DATA;
export const IT_ASYNC_AFF_EP_RDMAR_ACCESS_VIOLATION = it_event_type_t.IT_ASYNC_AFF_EP_RDMAR_ACCESS_VIOLATION;
export const IT_ASYNC_AFF_EP_LOCAL_ACCESS_VIOLATION = it_event_type_t.IT_ASYNC_AFF_EP_LOCAL_ACCESS_VIOLATION;
export const IT_ASYNC_AFF_EP_L_ACCESS_VIOLATION = it_event_type_t.IT_ASYNC_AFF_EP_L_ACCESS_VIOLATION;
export const IT_ASYNC_AFF_EP_L_RECV_ACCESS_VIOLATION = it_event_type_t.IT_ASYNC_AFF_EP_L_RECV_ACCESS_VIOLATION;
export const IT_ASYNC_AFF_EP_L_IRRQ_ACCESS_VIOLATION = it_event_type_t.IT_ASYNC_AFF_EP_L_IRRQ_ACCESS_VIOLATION;
export const IT_ASYNC_AFF_EP_L_TRANSPORT_ERROR = it_event_type_t.IT_ASYNC_AFF_EP_L_TRANSPORT_ERROR;
export const IT_ASYNC_AFF_EP_L_LLP_ERROR = it_event_type_t.IT_ASYNC_AFF_EP_L_LLP_ERROR;
export const IT_ASYNC_AFF_EP_R_ERROR = it_event_type_t.IT_ASYNC_AFF_EP_R_ERROR;
export const IT_ASYNC_AFF_EP_R_ACCESS_VIOLATION = it_event_type_t.IT_ASYNC_AFF_EP_R_ACCESS_VIOLATION;
export const IT_ASYNC_AFF_EP_R_RECV_ACCESS_VIOLATION = it_event_type_t.IT_ASYNC_AFF_EP_R_RECV_ACCESS_VIOLATION;
export const IT_ASYNC_AFF_EP_R_RECV_LENGTH_ERROR = it_event_type_t.IT_ASYNC_AFF_EP_R_RECV_LENGTH_ERROR;
export const IT_ASYNC_AFF_EP_SOFT_HI_WATERMARK = it_event_type_t.IT_ASYNC_AFF_EP_SOFT_HI_WATERMARK;
export const IT_ASYNC_AFF_SRQ_LOW_WATERMARK = it_event_type_t.IT_ASYNC_AFF_SRQ_LOW_WATERMARK;
export const IT_ASYNC_UNAFF_EVENT_STREAM = it_event_type_t.IT_ASYNC_UNAFF_EVENT_STREAM;
export const IT_ASYNC_UNAFF_SPIGOT_ONLINE = it_event_type_t.IT_ASYNC_UNAFF_SPIGOT_ONLINE;
export const IT_ASYNC_UNAFF_SPIGOT_OFFLINE = it_event_type_t.IT_ASYNC_UNAFF_SPIGOT_OFFLINE;
export const IT_ASYNC_UNAFF_SEVD_ENQUEUE_FAILURE = it_event_type_t.IT_ASYNC_UNAFF_SEVD_ENQUEUE_FAILURE;
export const IT_SOFTWARE_EVENT_STREAM = it_event_type_t.IT_SOFTWARE_EVENT_STREAM;
export const IT_SOFTWARE_EVENT = it_event_type_t.IT_SOFTWARE_EVENT;
export const IT_AEVD_NOTIFICATION_EVENT_STREAM = it_event_type_t.IT_AEVD_NOTIFICATION_EVENT_STREAM;
export const IT_AEVD_NOTIFICATION_EVENT = it_event_type_t.IT_AEVD_NOTIFICATION_EVENT;
/** The seven stream values (the `event_number`s accepted by `it_evd_create`), in header order. */
export const IT_EVENT_STREAMS = Object.freeze([
    it_event_type_t.IT_DTO_EVENT_STREAM,
    it_event_type_t.IT_CM_REQ_EVENT_STREAM,
    it_event_type_t.IT_CM_MSG_EVENT_STREAM,
    it_event_type_t.IT_ASYNC_AFF_EVENT_STREAM,
    it_event_type_t.IT_ASYNC_UNAFF_EVENT_STREAM,
    it_event_type_t.IT_SOFTWARE_EVENT_STREAM,
    it_event_type_t.IT_AEVD_NOTIFICATION_EVENT_STREAM,
]);
/** Stream of an event number: `event_number & IT_EVENT_STREAM_MASK` (header L14201). */
export function itEventStream(event_number) {
    return (event_number & IT_EVENT_STREAM_MASK);
}
/** True when `value` is one of the seven stream values (what `it_evd_create` accepts). */
export function isItEventStream(value) {
    return IT_EVENT_STREAMS.includes(value);
}
/** `it_conn_reject_code_t` (L14301–L14310): `reject_reason_code` of a NONPEER_REJECT event. */
export var it_conn_reject_code_t;
(function (it_conn_reject_code_t) {
    it_conn_reject_code_t[it_conn_reject_code_t["IT_CN_REJ_OTHER"] = 0] = "IT_CN_REJ_OTHER";
    it_conn_reject_code_t[it_conn_reject_code_t["IT_CN_REJ_TIMEOUT"] = 1] = "IT_CN_REJ_TIMEOUT";
    it_conn_reject_code_t[it_conn_reject_code_t["IT_CN_REJ_BAD_PATH"] = 2] = "IT_CN_REJ_BAD_PATH";
    it_conn_reject_code_t[it_conn_reject_code_t["IT_CN_REJ_STALE_CONN"] = 3] = "IT_CN_REJ_STALE_CONN";
    it_conn_reject_code_t[it_conn_reject_code_t["IT_CN_REJ_BAD_ORD"] = 4] = "IT_CN_REJ_BAD_ORD";
    it_conn_reject_code_t[it_conn_reject_code_t["IT_CN_REJ_RESOURCES"] = 5] = "IT_CN_REJ_RESOURCES";
    /** The peer's connection-parameter header (IOH / MPA) version or format was not recognised. */
    it_conn_reject_code_t[it_conn_reject_code_t["IT_CN_REJ_BAD_CONN_PARMS"] = 6] = "IT_CN_REJ_BAD_CONN_PARMS";
})(it_conn_reject_code_t || (it_conn_reject_code_t = {}));
export const IT_CN_REJ_OTHER = it_conn_reject_code_t.IT_CN_REJ_OTHER;
export const IT_CN_REJ_TIMEOUT = it_conn_reject_code_t.IT_CN_REJ_TIMEOUT;
export const IT_CN_REJ_BAD_PATH = it_conn_reject_code_t.IT_CN_REJ_BAD_PATH;
export const IT_CN_REJ_STALE_CONN = it_conn_reject_code_t.IT_CN_REJ_STALE_CONN;
export const IT_CN_REJ_BAD_ORD = it_conn_reject_code_t.IT_CN_REJ_BAD_ORD;
export const IT_CN_REJ_RESOURCES = it_conn_reject_code_t.IT_CN_REJ_RESOURCES;
export const IT_CN_REJ_BAD_CONN_PARMS = it_conn_reject_code_t.IT_CN_REJ_BAD_CONN_PARMS;
/** `it_ud_svc_req_status_t` (L14326–L14333). `IT_UD_REQ_REDIRECTED` is implementation-only. */
export var it_ud_svc_req_status_t;
(function (it_ud_svc_req_status_t) {
    it_ud_svc_req_status_t[it_ud_svc_req_status_t["IT_UD_SVC_EP_INFO_VALID"] = 0] = "IT_UD_SVC_EP_INFO_VALID";
    it_ud_svc_req_status_t[it_ud_svc_req_status_t["IT_UD_SVC_ID_NOT_SUPPORTED"] = 1] = "IT_UD_SVC_ID_NOT_SUPPORTED";
    it_ud_svc_req_status_t[it_ud_svc_req_status_t["IT_UD_SVC_REQ_REJECTED"] = 2] = "IT_UD_SVC_REQ_REJECTED";
    it_ud_svc_req_status_t[it_ud_svc_req_status_t["IT_UD_NO_EP_AVAILABLE"] = 3] = "IT_UD_NO_EP_AVAILABLE";
    it_ud_svc_req_status_t[it_ud_svc_req_status_t["IT_UD_REQ_REDIRECTED"] = 4] = "IT_UD_REQ_REDIRECTED";
})(it_ud_svc_req_status_t || (it_ud_svc_req_status_t = {}));
export const IT_UD_SVC_EP_INFO_VALID = it_ud_svc_req_status_t.IT_UD_SVC_EP_INFO_VALID;
export const IT_UD_SVC_ID_NOT_SUPPORTED = it_ud_svc_req_status_t.IT_UD_SVC_ID_NOT_SUPPORTED;
export const IT_UD_SVC_REQ_REJECTED = it_ud_svc_req_status_t.IT_UD_SVC_REQ_REJECTED;
export const IT_UD_NO_EP_AVAILABLE = it_ud_svc_req_status_t.IT_UD_NO_EP_AVAILABLE;
export const IT_UD_REQ_REDIRECTED = it_ud_svc_req_status_t.IT_UD_REQ_REDIRECTED;
/** `it_ep_state_rc_t` (L14536–L14545): RC Endpoint states (transition table: it_ep_state_t page). */
export var it_ep_state_rc_t;
(function (it_ep_state_rc_t) {
    it_ep_state_rc_t[it_ep_state_rc_t["IT_EP_STATE_UNCONNECTED"] = 0] = "IT_EP_STATE_UNCONNECTED";
    it_ep_state_rc_t[it_ep_state_rc_t["IT_EP_STATE_ACTIVE1_CONNECTION_PENDING"] = 1] = "IT_EP_STATE_ACTIVE1_CONNECTION_PENDING";
    /** Three-way handshake only (never on iWARP). */
    it_ep_state_rc_t[it_ep_state_rc_t["IT_EP_STATE_ACTIVE2_CONNECTION_PENDING"] = 2] = "IT_EP_STATE_ACTIVE2_CONNECTION_PENDING";
    it_ep_state_rc_t[it_ep_state_rc_t["IT_EP_STATE_PASSIVE_CONNECTION_PENDING"] = 3] = "IT_EP_STATE_PASSIVE_CONNECTION_PENDING";
    it_ep_state_rc_t[it_ep_state_rc_t["IT_EP_STATE_CONNECTED"] = 4] = "IT_EP_STATE_CONNECTED";
    it_ep_state_rc_t[it_ep_state_rc_t["IT_EP_STATE_NONOPERATIONAL"] = 5] = "IT_EP_STATE_NONOPERATIONAL";
    /** iWARP only: Conversion Initiator waiting for the MPA Request (`it_socket_convert`). */
    it_ep_state_rc_t[it_ep_state_rc_t["IT_EP_STATE_PASSIVE_WAIT_RDMA_TRANS_REQ"] = 6] = "IT_EP_STATE_PASSIVE_WAIT_RDMA_TRANS_REQ";
})(it_ep_state_rc_t || (it_ep_state_rc_t = {}));
export const IT_EP_STATE_UNCONNECTED = it_ep_state_rc_t.IT_EP_STATE_UNCONNECTED;
export const IT_EP_STATE_ACTIVE1_CONNECTION_PENDING = it_ep_state_rc_t.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING;
export const IT_EP_STATE_ACTIVE2_CONNECTION_PENDING = it_ep_state_rc_t.IT_EP_STATE_ACTIVE2_CONNECTION_PENDING;
export const IT_EP_STATE_PASSIVE_CONNECTION_PENDING = it_ep_state_rc_t.IT_EP_STATE_PASSIVE_CONNECTION_PENDING;
export const IT_EP_STATE_CONNECTED = it_ep_state_rc_t.IT_EP_STATE_CONNECTED;
export const IT_EP_STATE_NONOPERATIONAL = it_ep_state_rc_t.IT_EP_STATE_NONOPERATIONAL;
export const IT_EP_STATE_PASSIVE_WAIT_RDMA_TRANS_REQ = it_ep_state_rc_t.IT_EP_STATE_PASSIVE_WAIT_RDMA_TRANS_REQ;
/** `it_ep_state_ud_t` (L14547–L14551): UD Endpoint states. */
export var it_ep_state_ud_t;
(function (it_ep_state_ud_t) {
    it_ep_state_ud_t[it_ep_state_ud_t["IT_EP_STATE_UD_NONOPERATIONAL"] = 0] = "IT_EP_STATE_UD_NONOPERATIONAL";
    it_ep_state_ud_t[it_ep_state_ud_t["IT_EP_STATE_UD_OPERATIONAL"] = 1] = "IT_EP_STATE_UD_OPERATIONAL";
})(it_ep_state_ud_t || (it_ep_state_ud_t = {}));
export const IT_EP_STATE_UD_NONOPERATIONAL = it_ep_state_ud_t.IT_EP_STATE_UD_NONOPERATIONAL;
export const IT_EP_STATE_UD_OPERATIONAL = it_ep_state_ud_t.IT_EP_STATE_UD_OPERATIONAL;
/** `it_ep_param_mask_t` (L14112–L14142): field selector for `it_ep_query` / `it_ep_modify`. */
export var it_ep_param_mask_t;
(function (it_ep_param_mask_t) {
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_ALL"] = 1] = "IT_EP_PARAM_ALL";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_IA"] = 2] = "IT_EP_PARAM_IA";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_SPIGOT"] = 4] = "IT_EP_PARAM_SPIGOT";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_STATE"] = 8] = "IT_EP_PARAM_STATE";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_SERV_TYPE"] = 16] = "IT_EP_PARAM_SERV_TYPE";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_PATH"] = 32] = "IT_EP_PARAM_PATH";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_PZ"] = 64] = "IT_EP_PARAM_PZ";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_REQ_SEVD"] = 128] = "IT_EP_PARAM_REQ_SEVD";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_RECV_SEVD"] = 256] = "IT_EP_PARAM_RECV_SEVD";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_CONN_SEVD"] = 512] = "IT_EP_PARAM_CONN_SEVD";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_RDMA_RD_ENABLE"] = 1024] = "IT_EP_PARAM_RDMA_RD_ENABLE";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_RDMA_WR_ENABLE"] = 2048] = "IT_EP_PARAM_RDMA_WR_ENABLE";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_MAX_RDMA_READ_SEG"] = 4096] = "IT_EP_PARAM_MAX_RDMA_READ_SEG";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_MAX_RDMA_WRITE_SEG"] = 8192] = "IT_EP_PARAM_MAX_RDMA_WRITE_SEG";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_MAX_IRD"] = 16384] = "IT_EP_PARAM_MAX_IRD";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_MAX_ORD"] = 32768] = "IT_EP_PARAM_MAX_ORD";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_EP_ID"] = 65536] = "IT_EP_PARAM_EP_ID";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_EP_KEY"] = 131072] = "IT_EP_PARAM_EP_KEY";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_MAX_PAYLOAD"] = 262144] = "IT_EP_PARAM_MAX_PAYLOAD";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_MAX_REQ_DTO"] = 524288] = "IT_EP_PARAM_MAX_REQ_DTO";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_MAX_RECV_DTO"] = 1048576] = "IT_EP_PARAM_MAX_RECV_DTO";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_MAX_SEND_SEG"] = 2097152] = "IT_EP_PARAM_MAX_SEND_SEG";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_MAX_RECV_SEG"] = 4194304] = "IT_EP_PARAM_MAX_RECV_SEG";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_SRQ"] = 8388608] = "IT_EP_PARAM_SRQ";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_SOFT_HI_WATERMARK"] = 16777216] = "IT_EP_PARAM_SOFT_HI_WATERMARK";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_HARD_HI_WATERMARK"] = 33554432] = "IT_EP_PARAM_HARD_HI_WATERMARK";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_ATOMICS_ENABLE"] = 67108864] = "IT_EP_PARAM_ATOMICS_ENABLE";
    it_ep_param_mask_t[it_ep_param_mask_t["IT_EP_PARAM_PRIV_OPS_ENABLE"] = 134217728] = "IT_EP_PARAM_PRIV_OPS_ENABLE";
})(it_ep_param_mask_t || (it_ep_param_mask_t = {}));
export const IT_EP_PARAM_ALL = it_ep_param_mask_t.IT_EP_PARAM_ALL;
export const IT_EP_PARAM_IA = it_ep_param_mask_t.IT_EP_PARAM_IA;
export const IT_EP_PARAM_SPIGOT = it_ep_param_mask_t.IT_EP_PARAM_SPIGOT;
export const IT_EP_PARAM_STATE = it_ep_param_mask_t.IT_EP_PARAM_STATE;
export const IT_EP_PARAM_SERV_TYPE = it_ep_param_mask_t.IT_EP_PARAM_SERV_TYPE;
export const IT_EP_PARAM_PATH = it_ep_param_mask_t.IT_EP_PARAM_PATH;
export const IT_EP_PARAM_PZ = it_ep_param_mask_t.IT_EP_PARAM_PZ;
export const IT_EP_PARAM_REQ_SEVD = it_ep_param_mask_t.IT_EP_PARAM_REQ_SEVD;
export const IT_EP_PARAM_RECV_SEVD = it_ep_param_mask_t.IT_EP_PARAM_RECV_SEVD;
export const IT_EP_PARAM_CONN_SEVD = it_ep_param_mask_t.IT_EP_PARAM_CONN_SEVD;
export const IT_EP_PARAM_RDMA_RD_ENABLE = it_ep_param_mask_t.IT_EP_PARAM_RDMA_RD_ENABLE;
export const IT_EP_PARAM_RDMA_WR_ENABLE = it_ep_param_mask_t.IT_EP_PARAM_RDMA_WR_ENABLE;
export const IT_EP_PARAM_MAX_RDMA_READ_SEG = it_ep_param_mask_t.IT_EP_PARAM_MAX_RDMA_READ_SEG;
export const IT_EP_PARAM_MAX_RDMA_WRITE_SEG = it_ep_param_mask_t.IT_EP_PARAM_MAX_RDMA_WRITE_SEG;
export const IT_EP_PARAM_MAX_IRD = it_ep_param_mask_t.IT_EP_PARAM_MAX_IRD;
export const IT_EP_PARAM_MAX_ORD = it_ep_param_mask_t.IT_EP_PARAM_MAX_ORD;
export const IT_EP_PARAM_EP_ID = it_ep_param_mask_t.IT_EP_PARAM_EP_ID;
export const IT_EP_PARAM_EP_KEY = it_ep_param_mask_t.IT_EP_PARAM_EP_KEY;
export const IT_EP_PARAM_MAX_PAYLOAD = it_ep_param_mask_t.IT_EP_PARAM_MAX_PAYLOAD;
export const IT_EP_PARAM_MAX_REQ_DTO = it_ep_param_mask_t.IT_EP_PARAM_MAX_REQ_DTO;
export const IT_EP_PARAM_MAX_RECV_DTO = it_ep_param_mask_t.IT_EP_PARAM_MAX_RECV_DTO;
export const IT_EP_PARAM_MAX_SEND_SEG = it_ep_param_mask_t.IT_EP_PARAM_MAX_SEND_SEG;
export const IT_EP_PARAM_MAX_RECV_SEG = it_ep_param_mask_t.IT_EP_PARAM_MAX_RECV_SEG;
export const IT_EP_PARAM_SRQ = it_ep_param_mask_t.IT_EP_PARAM_SRQ;
export const IT_EP_PARAM_SOFT_HI_WATERMARK = it_ep_param_mask_t.IT_EP_PARAM_SOFT_HI_WATERMARK;
export const IT_EP_PARAM_HARD_HI_WATERMARK = it_ep_param_mask_t.IT_EP_PARAM_HARD_HI_WATERMARK;
export const IT_EP_PARAM_ATOMICS_ENABLE = it_ep_param_mask_t.IT_EP_PARAM_ATOMICS_ENABLE;
export const IT_EP_PARAM_PRIV_OPS_ENABLE = it_ep_param_mask_t.IT_EP_PARAM_PRIV_OPS_ENABLE;
/** `it_ep_rc_creation_flags_t` (L14678–L14683). */
export var it_ep_rc_creation_flags_t;
(function (it_ep_rc_creation_flags_t) {
    it_ep_rc_creation_flags_t[it_ep_rc_creation_flags_t["IT_EP_NO_FLAG"] = 0] = "IT_EP_NO_FLAG";
    /** May return an Endpoint still in TimeWait (only then can `IT_ERR_EP_TIMEWAIT` occur). */
    it_ep_rc_creation_flags_t[it_ep_rc_creation_flags_t["IT_EP_REUSEADDR"] = 1] = "IT_EP_REUSEADDR";
    /** Use the S-RQ in `ep_attr.srv.rc.srq` (and its watermarks). */
    it_ep_rc_creation_flags_t[it_ep_rc_creation_flags_t["IT_EP_SRQ"] = 2] = "IT_EP_SRQ";
})(it_ep_rc_creation_flags_t || (it_ep_rc_creation_flags_t = {}));
export const IT_EP_NO_FLAG = it_ep_rc_creation_flags_t.IT_EP_NO_FLAG;
export const IT_EP_REUSEADDR = it_ep_rc_creation_flags_t.IT_EP_REUSEADDR;
export const IT_EP_SRQ = it_ep_rc_creation_flags_t.IT_EP_SRQ;
/** `it_cn_est_flags_t` (L14655–L14660). TWO_WAY and THREE_WAY are mutually exclusive. */
export var it_cn_est_flags_t;
(function (it_cn_est_flags_t) {
    it_cn_est_flags_t[it_cn_est_flags_t["IT_CONNECT_FLAG_TWO_WAY"] = 1] = "IT_CONNECT_FLAG_TWO_WAY";
    /** Only with `three_way_handshake_support` (never on iWARP). */
    it_cn_est_flags_t[it_cn_est_flags_t["IT_CONNECT_FLAG_THREE_WAY"] = 2] = "IT_CONNECT_FLAG_THREE_WAY";
    it_cn_est_flags_t[it_cn_est_flags_t["IT_CONNECT_SUPPRESS_IRD_ORD"] = 4] = "IT_CONNECT_SUPPRESS_IRD_ORD";
})(it_cn_est_flags_t || (it_cn_est_flags_t = {}));
export const { IT_CONNECT_FLAG_TWO_WAY, IT_CONNECT_FLAG_THREE_WAY, IT_CONNECT_SUPPRESS_IRD_ORD } = it_cn_est_flags_t;
/** `it_evd_flags_t` (L14687–L14694). Validity rules: `it_evd_create` page. */
export var it_evd_flags_t;
(function (it_evd_flags_t) {
    /** AEVD only: the AEVD hands out `IT_AEVD_NOTIFICATION_EVENT`s instead of the underlying events. */
    it_evd_flags_t[it_evd_flags_t["IT_EVD_DEQUEUE_NOTIFICATIONS"] = 1] = "IT_EVD_DEQUEUE_NOTIFICATIONS";
    /** Any EVD: also return a pollable fd, readable on Notification. */
    it_evd_flags_t[it_evd_flags_t["IT_EVD_CREATE_FD"] = 2] = "IT_EVD_CREATE_FD";
    /** SEVD only: the stream's default overflow behaviour; exclusive with NOTIFY/AUTO_RESET. */
    it_evd_flags_t[it_evd_flags_t["IT_EVD_OVERFLOW_DEFAULT"] = 4] = "IT_EVD_OVERFLOW_DEFAULT";
    /** SEVD only (not UNAFF): report overflow as `IT_ASYNC_AFF_SEVD_ENQUEUE_FAILURE`. */
    it_evd_flags_t[it_evd_flags_t["IT_EVD_OVERFLOW_NOTIFY"] = 8] = "IT_EVD_OVERFLOW_NOTIFY";
    /** Requires NOTIFY; invalid for the DTO stream: re-arm overflow reporting when space appears. */
    it_evd_flags_t[it_evd_flags_t["IT_EVD_OVERFLOW_AUTO_RESET"] = 16] = "IT_EVD_OVERFLOW_AUTO_RESET";
})(it_evd_flags_t || (it_evd_flags_t = {}));
export const IT_EVD_DEQUEUE_NOTIFICATIONS = it_evd_flags_t.IT_EVD_DEQUEUE_NOTIFICATIONS;
export const IT_EVD_CREATE_FD = it_evd_flags_t.IT_EVD_CREATE_FD;
export const IT_EVD_OVERFLOW_DEFAULT = it_evd_flags_t.IT_EVD_OVERFLOW_DEFAULT;
export const IT_EVD_OVERFLOW_NOTIFY = it_evd_flags_t.IT_EVD_OVERFLOW_NOTIFY;
export const IT_EVD_OVERFLOW_AUTO_RESET = it_evd_flags_t.IT_EVD_OVERFLOW_AUTO_RESET;
/** `it_evd_param_mask_t` (L14696–L14710). */
export var it_evd_param_mask_t;
(function (it_evd_param_mask_t) {
    it_evd_param_mask_t[it_evd_param_mask_t["IT_EVD_PARAM_ALL"] = 1] = "IT_EVD_PARAM_ALL";
    it_evd_param_mask_t[it_evd_param_mask_t["IT_EVD_PARAM_IA"] = 2] = "IT_EVD_PARAM_IA";
    it_evd_param_mask_t[it_evd_param_mask_t["IT_EVD_PARAM_EVENT_NUMBER"] = 4] = "IT_EVD_PARAM_EVENT_NUMBER";
    it_evd_param_mask_t[it_evd_param_mask_t["IT_EVD_PARAM_FLAG"] = 8] = "IT_EVD_PARAM_FLAG";
    it_evd_param_mask_t[it_evd_param_mask_t["IT_EVD_PARAM_QUEUE_SIZE"] = 16] = "IT_EVD_PARAM_QUEUE_SIZE";
    it_evd_param_mask_t[it_evd_param_mask_t["IT_EVD_PARAM_THRESHOLD"] = 32] = "IT_EVD_PARAM_THRESHOLD";
    it_evd_param_mask_t[it_evd_param_mask_t["IT_EVD_PARAM_AEVD_HANDLE"] = 64] = "IT_EVD_PARAM_AEVD_HANDLE";
    it_evd_param_mask_t[it_evd_param_mask_t["IT_EVD_PARAM_FD"] = 128] = "IT_EVD_PARAM_FD";
    it_evd_param_mask_t[it_evd_param_mask_t["IT_EVD_PARAM_BOUND"] = 256] = "IT_EVD_PARAM_BOUND";
    it_evd_param_mask_t[it_evd_param_mask_t["IT_EVD_PARAM_ENABLED"] = 512] = "IT_EVD_PARAM_ENABLED";
    it_evd_param_mask_t[it_evd_param_mask_t["IT_EVD_PARAM_OVERFLOWED"] = 1024] = "IT_EVD_PARAM_OVERFLOWED";
    it_evd_param_mask_t[it_evd_param_mask_t["IT_EVD_PARAM_CALLBACK"] = 2048] = "IT_EVD_PARAM_CALLBACK";
})(it_evd_param_mask_t || (it_evd_param_mask_t = {}));
export const IT_EVD_PARAM_ALL = it_evd_param_mask_t.IT_EVD_PARAM_ALL;
export const IT_EVD_PARAM_IA = it_evd_param_mask_t.IT_EVD_PARAM_IA;
export const IT_EVD_PARAM_EVENT_NUMBER = it_evd_param_mask_t.IT_EVD_PARAM_EVENT_NUMBER;
export const IT_EVD_PARAM_FLAG = it_evd_param_mask_t.IT_EVD_PARAM_FLAG;
export const IT_EVD_PARAM_QUEUE_SIZE = it_evd_param_mask_t.IT_EVD_PARAM_QUEUE_SIZE;
export const IT_EVD_PARAM_THRESHOLD = it_evd_param_mask_t.IT_EVD_PARAM_THRESHOLD;
export const IT_EVD_PARAM_AEVD_HANDLE = it_evd_param_mask_t.IT_EVD_PARAM_AEVD_HANDLE;
export const IT_EVD_PARAM_FD = it_evd_param_mask_t.IT_EVD_PARAM_FD;
export const IT_EVD_PARAM_BOUND = it_evd_param_mask_t.IT_EVD_PARAM_BOUND;
export const IT_EVD_PARAM_ENABLED = it_evd_param_mask_t.IT_EVD_PARAM_ENABLED;
export const IT_EVD_PARAM_OVERFLOWED = it_evd_param_mask_t.IT_EVD_PARAM_OVERFLOWED;
export const IT_EVD_PARAM_CALLBACK = it_evd_param_mask_t.IT_EVD_PARAM_CALLBACK;
/** `it_listen_flags_t` (L14747–L14752). */
export var it_listen_flags_t;
(function (it_listen_flags_t) {
    it_listen_flags_t[it_listen_flags_t["IT_LISTEN_NO_FLAG"] = 0] = "IT_LISTEN_NO_FLAG";
    /** `conn_qual` is an input; clear = the implementation picks a free qualifier and returns it. */
    it_listen_flags_t[it_listen_flags_t["IT_LISTEN_CONN_QUAL_INPUT"] = 1] = "IT_LISTEN_CONN_QUAL_INPUT";
    it_listen_flags_t[it_listen_flags_t["IT_LISTEN_SUPPRESS_IRD_ORD"] = 2] = "IT_LISTEN_SUPPRESS_IRD_ORD";
})(it_listen_flags_t || (it_listen_flags_t = {}));
export const IT_LISTEN_NO_FLAG = it_listen_flags_t.IT_LISTEN_NO_FLAG;
export const IT_LISTEN_CONN_QUAL_INPUT = it_listen_flags_t.IT_LISTEN_CONN_QUAL_INPUT;
export const IT_LISTEN_SUPPRESS_IRD_ORD = it_listen_flags_t.IT_LISTEN_SUPPRESS_IRD_ORD;
/** `it_listen_param_mask_t` (L14754–L14762). */
export var it_listen_param_mask_t;
(function (it_listen_param_mask_t) {
    it_listen_param_mask_t[it_listen_param_mask_t["IT_LISTEN_PARAM_ALL"] = 1] = "IT_LISTEN_PARAM_ALL";
    it_listen_param_mask_t[it_listen_param_mask_t["IT_LISTEN_PARAM_IA_HANDLE"] = 2] = "IT_LISTEN_PARAM_IA_HANDLE";
    it_listen_param_mask_t[it_listen_param_mask_t["IT_LISTEN_PARAM_SPIGOT_ID"] = 4] = "IT_LISTEN_PARAM_SPIGOT_ID";
    it_listen_param_mask_t[it_listen_param_mask_t["IT_LISTEN_PARAM_CONNECT_EVD"] = 8] = "IT_LISTEN_PARAM_CONNECT_EVD";
    it_listen_param_mask_t[it_listen_param_mask_t["IT_LISTEN_PARAM_CONN_QUAL"] = 16] = "IT_LISTEN_PARAM_CONN_QUAL";
})(it_listen_param_mask_t || (it_listen_param_mask_t = {}));
export const IT_LISTEN_PARAM_ALL = it_listen_param_mask_t.IT_LISTEN_PARAM_ALL;
export const IT_LISTEN_PARAM_IA_HANDLE = it_listen_param_mask_t.IT_LISTEN_PARAM_IA_HANDLE;
export const IT_LISTEN_PARAM_SPIGOT_ID = it_listen_param_mask_t.IT_LISTEN_PARAM_SPIGOT_ID;
export const IT_LISTEN_PARAM_CONNECT_EVD = it_listen_param_mask_t.IT_LISTEN_PARAM_CONNECT_EVD;
export const IT_LISTEN_PARAM_CONN_QUAL = it_listen_param_mask_t.IT_LISTEN_PARAM_CONN_QUAL;
/** `it_lmr_param_mask_t` (L14772–L14789). */
export var it_lmr_param_mask_t;
(function (it_lmr_param_mask_t) {
    it_lmr_param_mask_t[it_lmr_param_mask_t["IT_LMR_PARAM_ALL"] = 1] = "IT_LMR_PARAM_ALL";
    it_lmr_param_mask_t[it_lmr_param_mask_t["IT_LMR_PARAM_IA"] = 2] = "IT_LMR_PARAM_IA";
    it_lmr_param_mask_t[it_lmr_param_mask_t["IT_LMR_PARAM_PZ"] = 4] = "IT_LMR_PARAM_PZ";
    it_lmr_param_mask_t[it_lmr_param_mask_t["IT_LMR_PARAM_ADDR"] = 8] = "IT_LMR_PARAM_ADDR";
    it_lmr_param_mask_t[it_lmr_param_mask_t["IT_LMR_PARAM_LENGTH"] = 16] = "IT_LMR_PARAM_LENGTH";
    it_lmr_param_mask_t[it_lmr_param_mask_t["IT_LMR_PARAM_MEM_PRIV"] = 32] = "IT_LMR_PARAM_MEM_PRIV";
    it_lmr_param_mask_t[it_lmr_param_mask_t["IT_LMR_PARAM_FLAG"] = 64] = "IT_LMR_PARAM_FLAG";
    it_lmr_param_mask_t[it_lmr_param_mask_t["IT_LMR_PARAM_SHARED_ID"] = 128] = "IT_LMR_PARAM_SHARED_ID";
    it_lmr_param_mask_t[it_lmr_param_mask_t["IT_LMR_PARAM_RMR_CONTEXT"] = 256] = "IT_LMR_PARAM_RMR_CONTEXT";
    it_lmr_param_mask_t[it_lmr_param_mask_t["IT_LMR_PARAM_ACTUAL_ADDR"] = 512] = "IT_LMR_PARAM_ACTUAL_ADDR";
    it_lmr_param_mask_t[it_lmr_param_mask_t["IT_LMR_PARAM_ACTUAL_LENGTH"] = 1024] = "IT_LMR_PARAM_ACTUAL_LENGTH";
    it_lmr_param_mask_t[it_lmr_param_mask_t["IT_LMR_PARAM_ADDR_MODE"] = 2048] = "IT_LMR_PARAM_ADDR_MODE";
    it_lmr_param_mask_t[it_lmr_param_mask_t["IT_LMR_PARAM_LINKED"] = 4096] = "IT_LMR_PARAM_LINKED";
    it_lmr_param_mask_t[it_lmr_param_mask_t["IT_LMR_PARAM_IOBL_NUM_ELTS"] = 8192] = "IT_LMR_PARAM_IOBL_NUM_ELTS";
    it_lmr_param_mask_t[it_lmr_param_mask_t["IT_LMR_PARAM_IOBL_TYPE"] = 16384] = "IT_LMR_PARAM_IOBL_TYPE";
})(it_lmr_param_mask_t || (it_lmr_param_mask_t = {}));
export const IT_LMR_PARAM_ALL = it_lmr_param_mask_t.IT_LMR_PARAM_ALL;
export const IT_LMR_PARAM_IA = it_lmr_param_mask_t.IT_LMR_PARAM_IA;
export const IT_LMR_PARAM_PZ = it_lmr_param_mask_t.IT_LMR_PARAM_PZ;
export const IT_LMR_PARAM_ADDR = it_lmr_param_mask_t.IT_LMR_PARAM_ADDR;
export const IT_LMR_PARAM_LENGTH = it_lmr_param_mask_t.IT_LMR_PARAM_LENGTH;
export const IT_LMR_PARAM_MEM_PRIV = it_lmr_param_mask_t.IT_LMR_PARAM_MEM_PRIV;
export const IT_LMR_PARAM_FLAG = it_lmr_param_mask_t.IT_LMR_PARAM_FLAG;
export const IT_LMR_PARAM_SHARED_ID = it_lmr_param_mask_t.IT_LMR_PARAM_SHARED_ID;
export const IT_LMR_PARAM_RMR_CONTEXT = it_lmr_param_mask_t.IT_LMR_PARAM_RMR_CONTEXT;
export const IT_LMR_PARAM_ACTUAL_ADDR = it_lmr_param_mask_t.IT_LMR_PARAM_ACTUAL_ADDR;
export const IT_LMR_PARAM_ACTUAL_LENGTH = it_lmr_param_mask_t.IT_LMR_PARAM_ACTUAL_LENGTH;
export const IT_LMR_PARAM_ADDR_MODE = it_lmr_param_mask_t.IT_LMR_PARAM_ADDR_MODE;
export const IT_LMR_PARAM_LINKED = it_lmr_param_mask_t.IT_LMR_PARAM_LINKED;
export const IT_LMR_PARAM_IOBL_NUM_ELTS = it_lmr_param_mask_t.IT_LMR_PARAM_IOBL_NUM_ELTS;
export const IT_LMR_PARAM_IOBL_TYPE = it_lmr_param_mask_t.IT_LMR_PARAM_IOBL_TYPE;
/** `it_pz_param_mask_t` (L14811–L14815). */
export var it_pz_param_mask_t;
(function (it_pz_param_mask_t) {
    it_pz_param_mask_t[it_pz_param_mask_t["IT_PZ_PARAM_ALL"] = 1] = "IT_PZ_PARAM_ALL";
    it_pz_param_mask_t[it_pz_param_mask_t["IT_PZ_PARAM_IA"] = 2] = "IT_PZ_PARAM_IA";
})(it_pz_param_mask_t || (it_pz_param_mask_t = {}));
export const IT_PZ_PARAM_ALL = it_pz_param_mask_t.IT_PZ_PARAM_ALL;
export const IT_PZ_PARAM_IA = it_pz_param_mask_t.IT_PZ_PARAM_IA;
/** `it_rmr_param_mask_t` (L14822–L14837). */
export var it_rmr_param_mask_t;
(function (it_rmr_param_mask_t) {
    it_rmr_param_mask_t[it_rmr_param_mask_t["IT_RMR_PARAM_ALL"] = 1] = "IT_RMR_PARAM_ALL";
    it_rmr_param_mask_t[it_rmr_param_mask_t["IT_RMR_PARAM_IA"] = 2] = "IT_RMR_PARAM_IA";
    it_rmr_param_mask_t[it_rmr_param_mask_t["IT_RMR_PARAM_PZ"] = 4] = "IT_RMR_PARAM_PZ";
    /** Deprecated by `IT_RMR_PARAM_LINKED` (declared first so reverse lookup yields LINKED). */
    it_rmr_param_mask_t[it_rmr_param_mask_t["IT_RMR_PARAM_BOUND"] = 8] = "IT_RMR_PARAM_BOUND";
    // biome-ignore lint/suspicious/noDuplicateEnumValues: header defines IT_RMR_PARAM_BOUND = IT_RMR_PARAM_LINKED
    it_rmr_param_mask_t[it_rmr_param_mask_t["IT_RMR_PARAM_LINKED"] = 8] = "IT_RMR_PARAM_LINKED";
    it_rmr_param_mask_t[it_rmr_param_mask_t["IT_RMR_PARAM_LMR"] = 16] = "IT_RMR_PARAM_LMR";
    it_rmr_param_mask_t[it_rmr_param_mask_t["IT_RMR_PARAM_ADDR"] = 32] = "IT_RMR_PARAM_ADDR";
    it_rmr_param_mask_t[it_rmr_param_mask_t["IT_RMR_PARAM_LENGTH"] = 64] = "IT_RMR_PARAM_LENGTH";
    it_rmr_param_mask_t[it_rmr_param_mask_t["IT_RMR_PARAM_MEM_PRIV"] = 128] = "IT_RMR_PARAM_MEM_PRIV";
    it_rmr_param_mask_t[it_rmr_param_mask_t["IT_RMR_PARAM_RMR_CONTEXT"] = 256] = "IT_RMR_PARAM_RMR_CONTEXT";
    it_rmr_param_mask_t[it_rmr_param_mask_t["IT_RMR_PARAM_TYPE"] = 512] = "IT_RMR_PARAM_TYPE";
    it_rmr_param_mask_t[it_rmr_param_mask_t["IT_RMR_PARAM_ADDR_MODE"] = 1024] = "IT_RMR_PARAM_ADDR_MODE";
})(it_rmr_param_mask_t || (it_rmr_param_mask_t = {}));
export const IT_RMR_PARAM_ALL = it_rmr_param_mask_t.IT_RMR_PARAM_ALL;
export const IT_RMR_PARAM_IA = it_rmr_param_mask_t.IT_RMR_PARAM_IA;
export const IT_RMR_PARAM_PZ = it_rmr_param_mask_t.IT_RMR_PARAM_PZ;
export const IT_RMR_PARAM_BOUND = it_rmr_param_mask_t.IT_RMR_PARAM_BOUND;
export const IT_RMR_PARAM_LINKED = it_rmr_param_mask_t.IT_RMR_PARAM_LINKED;
export const IT_RMR_PARAM_LMR = it_rmr_param_mask_t.IT_RMR_PARAM_LMR;
export const IT_RMR_PARAM_ADDR = it_rmr_param_mask_t.IT_RMR_PARAM_ADDR;
export const IT_RMR_PARAM_LENGTH = it_rmr_param_mask_t.IT_RMR_PARAM_LENGTH;
export const IT_RMR_PARAM_MEM_PRIV = it_rmr_param_mask_t.IT_RMR_PARAM_MEM_PRIV;
export const IT_RMR_PARAM_RMR_CONTEXT = it_rmr_param_mask_t.IT_RMR_PARAM_RMR_CONTEXT;
export const IT_RMR_PARAM_TYPE = it_rmr_param_mask_t.IT_RMR_PARAM_TYPE;
export const IT_RMR_PARAM_ADDR_MODE = it_rmr_param_mask_t.IT_RMR_PARAM_ADDR_MODE;
/** `it_sc_flags_t` (L14874–L14878): `it_socket_convert` flags. */
export var it_sc_flags_t;
(function (it_sc_flags_t) {
    /** Perform MPA start-up (MPA Request/Reply) after the last streaming-mode message. */
    it_sc_flags_t[it_sc_flags_t["IT_SC_DEFAULT"] = 0] = "IT_SC_DEFAULT";
    /** Suppress the MPA Request/Reply exchange (RDMAC peers without MPA start-up). */
    it_sc_flags_t[it_sc_flags_t["IT_SC_NO_REQ_REP"] = 1] = "IT_SC_NO_REQ_REP";
})(it_sc_flags_t || (it_sc_flags_t = {}));
export const IT_SC_DEFAULT = it_sc_flags_t.IT_SC_DEFAULT;
export const IT_SC_NO_REQ_REP = it_sc_flags_t.IT_SC_NO_REQ_REP;
/** `it_srq_param_mask_t` (L14880–L14888). */
export var it_srq_param_mask_t;
(function (it_srq_param_mask_t) {
    it_srq_param_mask_t[it_srq_param_mask_t["IT_SRQ_PARAM_ALL"] = 1] = "IT_SRQ_PARAM_ALL";
    it_srq_param_mask_t[it_srq_param_mask_t["IT_SRQ_PARAM_IA"] = 2] = "IT_SRQ_PARAM_IA";
    it_srq_param_mask_t[it_srq_param_mask_t["IT_SRQ_PARAM_PZ"] = 4] = "IT_SRQ_PARAM_PZ";
    it_srq_param_mask_t[it_srq_param_mask_t["IT_SRQ_PARAM_MAX_RECV_DTO"] = 8] = "IT_SRQ_PARAM_MAX_RECV_DTO";
    it_srq_param_mask_t[it_srq_param_mask_t["IT_SRQ_PARAM_MAX_RECV_SEG"] = 16] = "IT_SRQ_PARAM_MAX_RECV_SEG";
    it_srq_param_mask_t[it_srq_param_mask_t["IT_SRQ_PARAM_LOW_WATERMARK"] = 32] = "IT_SRQ_PARAM_LOW_WATERMARK";
})(it_srq_param_mask_t || (it_srq_param_mask_t = {}));
export const IT_SRQ_PARAM_ALL = it_srq_param_mask_t.IT_SRQ_PARAM_ALL;
export const IT_SRQ_PARAM_IA = it_srq_param_mask_t.IT_SRQ_PARAM_IA;
export const IT_SRQ_PARAM_PZ = it_srq_param_mask_t.IT_SRQ_PARAM_PZ;
export const IT_SRQ_PARAM_MAX_RECV_DTO = it_srq_param_mask_t.IT_SRQ_PARAM_MAX_RECV_DTO;
export const IT_SRQ_PARAM_MAX_RECV_SEG = it_srq_param_mask_t.IT_SRQ_PARAM_MAX_RECV_SEG;
export const IT_SRQ_PARAM_LOW_WATERMARK = it_srq_param_mask_t.IT_SRQ_PARAM_LOW_WATERMARK;
/** `it_ud_svc_req_param_mask_t` (L14899–L14909). */
export var it_ud_svc_req_param_mask_t;
(function (it_ud_svc_req_param_mask_t) {
    it_ud_svc_req_param_mask_t[it_ud_svc_req_param_mask_t["IT_UD_PARAM_ALL"] = 1] = "IT_UD_PARAM_ALL";
    it_ud_svc_req_param_mask_t[it_ud_svc_req_param_mask_t["IT_UD_PARAM_IA_HANDLE"] = 2] = "IT_UD_PARAM_IA_HANDLE";
    it_ud_svc_req_param_mask_t[it_ud_svc_req_param_mask_t["IT_UD_PARAM_REQ_ID"] = 4] = "IT_UD_PARAM_REQ_ID";
    it_ud_svc_req_param_mask_t[it_ud_svc_req_param_mask_t["IT_UD_PARAM_REPLY_EVD"] = 8] = "IT_UD_PARAM_REPLY_EVD";
    it_ud_svc_req_param_mask_t[it_ud_svc_req_param_mask_t["IT_UD_PARAM_CONN_QUAL"] = 16] = "IT_UD_PARAM_CONN_QUAL";
    it_ud_svc_req_param_mask_t[it_ud_svc_req_param_mask_t["IT_UD_PARAM_DEST_PATH"] = 32] = "IT_UD_PARAM_DEST_PATH";
    it_ud_svc_req_param_mask_t[it_ud_svc_req_param_mask_t["IT_UD_PARAM_PRIV_DATA"] = 64] = "IT_UD_PARAM_PRIV_DATA";
    it_ud_svc_req_param_mask_t[it_ud_svc_req_param_mask_t["IT_UD_PARAM_PRIV_DATA_LENGTH"] = 128] = "IT_UD_PARAM_PRIV_DATA_LENGTH";
})(it_ud_svc_req_param_mask_t || (it_ud_svc_req_param_mask_t = {}));
export const IT_UD_PARAM_ALL = it_ud_svc_req_param_mask_t.IT_UD_PARAM_ALL;
export const IT_UD_PARAM_IA_HANDLE = it_ud_svc_req_param_mask_t.IT_UD_PARAM_IA_HANDLE;
export const IT_UD_PARAM_REQ_ID = it_ud_svc_req_param_mask_t.IT_UD_PARAM_REQ_ID;
export const IT_UD_PARAM_REPLY_EVD = it_ud_svc_req_param_mask_t.IT_UD_PARAM_REPLY_EVD;
export const IT_UD_PARAM_CONN_QUAL = it_ud_svc_req_param_mask_t.IT_UD_PARAM_CONN_QUAL;
export const IT_UD_PARAM_DEST_PATH = it_ud_svc_req_param_mask_t.IT_UD_PARAM_DEST_PATH;
export const IT_UD_PARAM_PRIV_DATA = it_ud_svc_req_param_mask_t.IT_UD_PARAM_PRIV_DATA;
export const IT_UD_PARAM_PRIV_DATA_LENGTH = it_ud_svc_req_param_mask_t.IT_UD_PARAM_PRIV_DATA_LENGTH;
/** `it_addr_param_mask_t` (L14584–L14590): Address Handle query/modify mask. */
export var it_addr_param_mask_t;
(function (it_addr_param_mask_t) {
    it_addr_param_mask_t[it_addr_param_mask_t["IT_ADDR_PARAM_ALL"] = 1] = "IT_ADDR_PARAM_ALL";
    it_addr_param_mask_t[it_addr_param_mask_t["IT_ADDR_PARAM_IA"] = 2] = "IT_ADDR_PARAM_IA";
    it_addr_param_mask_t[it_addr_param_mask_t["IT_ADDR_PARAM_PZ"] = 4] = "IT_ADDR_PARAM_PZ";
    it_addr_param_mask_t[it_addr_param_mask_t["IT_ADDR_PARAM_PATH"] = 8] = "IT_ADDR_PARAM_PATH";
})(it_addr_param_mask_t || (it_addr_param_mask_t = {}));
export const IT_ADDR_PARAM_ALL = it_addr_param_mask_t.IT_ADDR_PARAM_ALL;
export const IT_ADDR_PARAM_IA = it_addr_param_mask_t.IT_ADDR_PARAM_IA;
export const IT_ADDR_PARAM_PZ = it_addr_param_mask_t.IT_ADDR_PARAM_PZ;
export const IT_ADDR_PARAM_PATH = it_addr_param_mask_t.IT_ADDR_PARAM_PATH;
/** `it_ah_flags_t` (L14579–L14582). */
export var it_ah_flags_t;
(function (it_ah_flags_t) {
    /** The path is complete (e.g. from `it_get_pathinfo`); clear = the implementation completes it. */
    it_ah_flags_t[it_ah_flags_t["IT_AH_PATH_COMPLETE"] = 1] = "IT_AH_PATH_COMPLETE";
})(it_ah_flags_t || (it_ah_flags_t = {}));
export const IT_AH_PATH_COMPLETE = it_ah_flags_t.IT_AH_PATH_COMPLETE;
/** `it_dg_type_t` (L14565–L14568). */
export var it_dg_type_t;
(function (it_dg_type_t) {
    it_dg_type_t[it_dg_type_t["IT_DG_TYPE_IB_UD"] = 0] = "IT_DG_TYPE_IB_UD";
})(it_dg_type_t || (it_dg_type_t = {}));
export const IT_DG_TYPE_IB_UD = it_dg_type_t.IT_DG_TYPE_IB_UD;
/** `it_atomic_op_t` (L14928–L14932). */
export var it_atomic_op_t;
(function (it_atomic_op_t) {
    it_atomic_op_t[it_atomic_op_t["IT_COMPARE_AND_SWAP"] = 0] = "IT_COMPARE_AND_SWAP";
    it_atomic_op_t[it_atomic_op_t["IT_FETCH_AND_ADD"] = 1] = "IT_FETCH_AND_ADD";
})(it_atomic_op_t || (it_atomic_op_t = {}));
export const IT_COMPARE_AND_SWAP = it_atomic_op_t.IT_COMPARE_AND_SWAP;
export const IT_FETCH_AND_ADD = it_atomic_op_t.IT_FETCH_AND_ADD;
// =============================================================================================
// Handles (it_handle_t page; header L13336–L13363)
// =============================================================================================
/**
 * Property key under which every handle carries its class at run time (what `it_get_handle_type`
 * reports). Implementation classes implement handle types directly:
 * `class Ep implements it_ep_handle_t { readonly [IT_HANDLE_KIND] = IT_HANDLE_TYPE_EP; ... }`.
 */
export const IT_HANDLE_KIND = Symbol.for('softrdma.itapi.handle_kind');
/**
 * Property key under which the two identifier tokens carry their kind. They are `uint64_t` in C
 * and *not* IT handles: `it_get_handle_type` and the context calls do not accept them.
 */
export const IT_ID_KIND = Symbol.for('softrdma.itapi.id_kind');
//# sourceMappingURL=types.js.map
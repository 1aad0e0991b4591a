/**
 * IT-API 2.1 data types: every constant, enum, flag set, mask, handle and struct of `it_api.h`
 * (App. G.1, printed lines L13097–L15491) and of the Ch. 7 data-type reference pages, for the
 * TypeScript binding in `api.ts`. No behaviour lives here (only two pure helpers on event numbers).
 *
 * Mapping rules (C → TypeScript), applied uniformly:
 * - **Names.** C type names are kept (`it_ep_attributes_t`); struct fields keep the C names. Where
 *   the pages and the header disagree, the majority spelling wins and ties go to the normative page
 *   (`max_recv_dtos`, not the header's `max_rcv_dtos`; `sevd_queue_size`, not `sev_d_queue_size`;
 *   `aevd`, not `aevid`; `iobl_types_supported`, not `ioibl_types_supported`). See
 *   `docs/spec-notes.md`, section "IT-API".
 * - **Enums** are numeric TS `enum`s named by the C type, whose members are the full C names with
 *   the header's values (`it_event_type_t.IT_DTO_SEND_CMPL_EVENT === 0x00001`); every member is
 *   also a top-level constant (`IT_DTO_SEND_CMPL_EVENT`). Flag sets and masks are the same enums;
 *   an OR of members is a `number`, which TypeScript accepts where the enum type is expected.
 * - **Integers.** `uint64_t` (`it_rdma_addr_t`, `it_dto_cookie_t`, IB Service IDs, timeouts,
 *   `aspace_id`) → `bigint`. `uint32_t`/`uint16_t`/`uint8_t`, `size_t` (counts, sizes, spigot ids)
 *   and `it_length_t` → `number` (JS buffers are far below 2^53; a length is a safe integer).
 *   `it_boolean_t` → `boolean`.
 * - **Byte order.** Fields the header calls "network byte order" (ports, Service IDs,
 *   `it_rmr_context_t`, `it_rdma_addr_t`) carry their *value* in the binding: port 4791 is
 *   `4791`, an RDMA address is the address. The C rule becomes a serialisation rule: a Consumer
 *   that ships a context or address to its peer writes it big-endian. `it_hton64`/`it_ntoh64`
 *   remain plain 64-bit byte swaps (identity on big-endian hosts) for code ported from C.
 * - **Addresses.** `void *` memory addresses are `it_vaddr_t` (`bigint`) in softrdma's synthetic
 *   host address space (`src/rnic/hostmem.ts`); calls that register or name memory also accept the
 *   `Uint8Array` itself. `it_io_addr_t` (bus/physical address) is a `bigint` in the synthetic
 *   physical space. IPv4/IPv6 addresses and IB GIDs (`struct in_addr`/`in6_addr`) are strings in
 *   textual form (`'192.0.2.1'`, `'fe80::1'`), as Node's `net` module uses them.
 * - **Buffers.** `unsigned char[]` / `const unsigned char *` + length → `Uint8Array` (the length is
 *   `byteLength`). Received private data is a 256-byte (`IT_MAX_PRIV_DATA`) buffer plus
 *   `private_data_present`: the spec conveys no length.
 * - **Unions.** A union of values is flattened (`it_lmr_triplet_t.addr` is one `bigint` for
 *   `abs`/`rel`/`io`). A union of alternatives becomes a discriminated union on the C
 *   discriminant (`it_conn_qual_t` on `type`, `it_net_addr_t` on `addr_type`) or, where C has no
 *   discriminant, one-key wrapper objects that keep the C member names
 *   (`it_path_t.remote: { ib } | { via } | { iwarp }`, `it_ep_state_t: { rc } | { ud }`).
 * - **Handles** are opaque objects tagged with `[IT_HANDLE_KIND]` = their `it_handle_type_enum_t`;
 *   `IT_NULL_HANDLE` / `IT_NO_ADDR` are `null`. The connection-establishment and UD-service-request
 *   identifiers (plain `uint64_t` in C, *not* handles) are opaque tokens tagged with `[IT_ID_KIND]`.
 * - **Query/modify masks.** `*_query(h, mask)` returns the param struct with only the masked
 *   fields present (`Partial`); `*_modify(h, mask, params)` reads only the masked fields.
 *
 * @module
 */
import type { Socket } from 'node:net';

// =============================================================================================
// Scalars (it_api.h L13283–L13434, L13809, L14109–L14110; it_api_os_specific.h L15534–L15541)
// =============================================================================================

/**
 * `it_length_t` (`uint64_t`, or `uint32_t` with `IT_32BIT`): a byte count or byte offset. A safe
 * integer in the binding.
 */
export type it_length_t = number;
/**
 * `it_rdma_addr_t` (`uint64_t`): a remote buffer address for RDMA and Atomics — an absolute
 * address or a byte offset, according to the *remote* region's `it_addr_mode_t`. Host value
 * (see the module comment on byte order); build it with `it_make_rdma_addr_absolute/relative`.
 */
export type it_rdma_addr_t = bigint;
/** `it_rmr_context_t` (`uint32_t`): the STag a remote peer uses to reach an LMR/RMR. Host value. */
export type it_rmr_context_t = number;
/** `it_dto_cookie_t` (`uint64_t`): Consumer-chosen WR identifier, returned unchanged in the completion. */
export type it_dto_cookie_t = bigint;
/** `it_ib_serviceid_t` (`uint64_t`). */
export type it_ib_serviceid_t = bigint;
/** `it_ud_ep_id_t` (`uint32_t`): UD Endpoint identifier (IB: QP number). */
export type it_ud_ep_id_t = number;
/** `it_ud_ep_key_t` (`uint32_t`): UD Endpoint key (IB: Q_Key). */
export type it_ud_ep_key_t = number;
/**
 * Binding type for a C `void *` memory address: a 64-bit address in softrdma's synthetic host
 * address space. `it_make_rdma_addr_absolute(buf)` gives the address of `buf[0]`.
 */
export type it_vaddr_t = bigint;
/**
 * `it_io_addr_t` (opaque `struct it_io_addr_s *`, OS-dependent): an I/O (bus/physical) address,
 * as produced by `it_mem_map` and used in IOBLs and Direct-LMR triplets.
 */
export type it_io_addr_t = bigint;
/** `it_boolean_t` (`IT_FALSE = 0`, `IT_TRUE = 1` in C). */
export type it_boolean_t = boolean;
/** `IT_FALSE` (C value 0). */
export const IT_FALSE = false;
/** `IT_TRUE` (C value 1). */
export const IT_TRUE = true;

/** A textual IPv4 address (`struct in_addr`), e.g. `'192.0.2.7'`. */
export type it_in_addr_t = string;
/** A textual IPv6 address (`struct in6_addr`), e.g. `'2001:db8::7'`. */
export type it_in6_addr_t = string;
/** `it_ib_gid_t` (`struct in6_addr`): an InfiniBand GID in IPv6 text form. */
export type it_ib_gid_t = string;

/**
 * The `int sd` of `it_socket_convert`: a connected TCP `net.Socket` (the ULP's streaming-mode
 * connection). After a successful call the implementation owns the socket's byte stream.
 */
export type it_socket_t = Socket;

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
export const IT_TIMEOUT_INFINITE = 0xffff_ffff_ffff_ffffn;
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
export enum it_handle_type_enum_t {
  IT_HANDLE_TYPE_ADDR = 0,
  IT_HANDLE_TYPE_EP = 1,
  IT_HANDLE_TYPE_EVD = 2,
  IT_HANDLE_TYPE_IA = 3,
  IT_HANDLE_TYPE_LISTEN = 4,
  IT_HANDLE_TYPE_LMR = 5,
  IT_HANDLE_TYPE_PZ = 6,
  IT_HANDLE_TYPE_RMR = 7,
  IT_HANDLE_TYPE_UD_SVC_REQ = 8,
  IT_HANDLE_TYPE_SRQ = 9,
}
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
export enum it_transport_type_t {
  /** InfiniBand (softrdma's RoCEv2 faces would report this transport). */
  IT_IB_TRANSPORT = 1,
  /** VIA over IP (Reliable Delivery only). */
  IT_VIA_IP_TRANSPORT = 2,
  /** VIA over Fibre Channel (Reliable Delivery only). */
  IT_VIA_FC_TRANSPORT = 3,
  /** iWARP over TCP — softrdma's IT-API IA. */
  IT_IWARP_TCP_TRANSPORT = 4,
  IT_VENDOR_TRANSPORT = 1000,
}
export const IT_IB_TRANSPORT = it_transport_type_t.IT_IB_TRANSPORT;
export const IT_VIA_IP_TRANSPORT = it_transport_type_t.IT_VIA_IP_TRANSPORT;
export const IT_VIA_FC_TRANSPORT = it_transport_type_t.IT_VIA_FC_TRANSPORT;
export const IT_IWARP_TCP_TRANSPORT = it_transport_type_t.IT_IWARP_TCP_TRANSPORT;
export const IT_VENDOR_TRANSPORT = it_transport_type_t.IT_VENDOR_TRANSPORT;

/** `it_transport_service_type_t` (L13561–L13570): bits, OR-ed in `supported_service_types`. */
export enum it_transport_service_type_t {
  IT_RC_SERVICE = 0x1,
  IT_UD_SERVICE = 0x2,
}
export const IT_RC_SERVICE = it_transport_service_type_t.IT_RC_SERVICE;
export const IT_UD_SERVICE = it_transport_service_type_t.IT_UD_SERVICE;

/**
 * `it_mem_priv_t` (L13291–L13303): memory access privileges (bits). `IT_PRIV_NONE` (v1.0 compat)
 * and `IT_PRIV_DEFAULT` (deprecated by `IT_PRIV_LOCAL`) exist only in the header.
 */
export enum it_mem_priv_t {
  IT_PRIV_NONE = 0x0000,
  IT_PRIV_LOCAL_READ = 0x0001,
  IT_PRIV_LOCAL_WRITE = 0x0002,
  /** Deprecated by `IT_PRIV_LOCAL` (declared first here so reverse lookup yields `IT_PRIV_LOCAL`). */
  IT_PRIV_DEFAULT = 0x0003,
  // biome-ignore lint/suspicious/noDuplicateEnumValues: header defines IT_PRIV_DEFAULT = IT_PRIV_LOCAL
  IT_PRIV_LOCAL = 0x0003,
  IT_PRIV_REMOTE_READ = 0x0004,
  IT_PRIV_REMOTE_WRITE = 0x0008,
  IT_PRIV_REMOTE = 0x000c,
  IT_PRIV_ATOMIC = 0x0010,
  IT_PRIV_ALL = 0x001f,
}
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
export enum it_lmr_flag_t {
  IT_LMR_FLAG_NONE = 0x0001,
  IT_LMR_FLAG_SHARED = 0x0002,
  IT_LMR_FLAG_NONCOHERENT = 0x0004,
  IT_LMR_FLAG_NON_SHAREABLE = 0x0008,
}
export const { IT_LMR_FLAG_NONE, IT_LMR_FLAG_SHARED, IT_LMR_FLAG_NONCOHERENT, IT_LMR_FLAG_NON_SHAREABLE } = it_lmr_flag_t;

/** `it_rmr_type_t` (L13313–L13318). `rmr_types_supported` is a bit set of NARROW|WIDE. */
export enum it_rmr_type_t {
  /** Implementation chooses Narrow or Wide. */
  IT_RMR_TYPE_DEFAULT = 0,
  /** Bound to the linking Endpoint (iWARP guarantees Narrow). */
  IT_RMR_TYPE_NARROW = 1,
  /** Usable by any Endpoint of the PZ. */
  IT_RMR_TYPE_WIDE = 2,
}
export const IT_RMR_TYPE_DEFAULT = it_rmr_type_t.IT_RMR_TYPE_DEFAULT;
export const IT_RMR_TYPE_NARROW = it_rmr_type_t.IT_RMR_TYPE_NARROW;
export const IT_RMR_TYPE_WIDE = it_rmr_type_t.IT_RMR_TYPE_WIDE;

/** `it_addr_mode_t` (L13320–L13324). */
export enum it_addr_mode_t {
  /** DTO address = region base address + offset (virtual address space). */
  IT_ADDR_MODE_ABSOLUTE = 0,
  /** DTO address = byte offset from the region's first byte (needs `addr_mode_relative_support`). */
  IT_ADDR_MODE_RELATIVE = 1,
}
export const IT_ADDR_MODE_ABSOLUTE = it_addr_mode_t.IT_ADDR_MODE_ABSOLUTE;
export const IT_ADDR_MODE_RELATIVE = it_addr_mode_t.IT_ADDR_MODE_RELATIVE;

/** `it_iobl_type_t` (L13658–L13663): bits, OR-ed in `iobl_types_supported`. */
export enum it_iobl_type_t {
  IT_IOBL_PAGE_LIST = 0x0001,
  IT_IOBL_BLOCK_LIST = 0x0002,
  IT_IOBL_VE_PAGE_LIST = 0x0004,
}
export const IT_IOBL_PAGE_LIST = it_iobl_type_t.IT_IOBL_PAGE_LIST;
export const IT_IOBL_BLOCK_LIST = it_iobl_type_t.IT_IOBL_BLOCK_LIST;
export const IT_IOBL_VE_PAGE_LIST = it_iobl_type_t.IT_IOBL_VE_PAGE_LIST;

/**
 * `it_conn_qual_type_t` (L13365–L13380). Bit values (so spigot capability masks can OR them), as
 * in the 2.1 header, although App. E says 2.0 dropped explicit values.
 */
export enum it_conn_qual_type_t {
  /** IANA (TCP/UDP) port — every Spigot supports it; the iWARP listen/connect qualifier. */
  IT_IANA_PORT = 0x01,
  /** InfiniBand Service ID. */
  IT_IB_SERVICEID = 0x02,
  /** VIA connection discriminator. */
  IT_VIA_DISCRIMINATOR = 0x04,
  /** iWARP local and remote port pair (connect side chooses its local port). */
  IT_IANA_LR_PORT = 0x08,
}
export const IT_IANA_PORT = it_conn_qual_type_t.IT_IANA_PORT;
export const IT_IB_SERVICEID = it_conn_qual_type_t.IT_IB_SERVICEID;
export const IT_VIA_DISCRIMINATOR = it_conn_qual_type_t.IT_VIA_DISCRIMINATOR;
export const IT_IANA_LR_PORT = it_conn_qual_type_t.IT_IANA_LR_PORT;

/** `it_net_addr_type_t` (L13483–L13497). */
export enum it_net_addr_type_t {
  IT_IPV4 = 0x1,
  IT_IPV6 = 0x2,
  IT_IB_GID = 0x3,
  IT_VIA_HOSTADDR = 0x4,
}
export const IT_IPV4 = it_net_addr_type_t.IT_IPV4;
export const IT_IPV6 = it_net_addr_type_t.IT_IPV6;
export const IT_IB_GID = it_net_addr_type_t.IT_IB_GID;
export const IT_VIA_HOSTADDR = it_net_addr_type_t.IT_VIA_HOSTADDR;

/** `it_ip_vers_t` (L14048–L14052): discriminant of `it_iwarp_net_endpoint_t`. */
export enum it_ip_vers_t {
  IT_IP_VERS_IPV4 = 0x1,
  IT_IP_VERS_IPV6 = 0x2,
}
export const IT_IP_VERS_IPV4 = it_ip_vers_t.IT_IP_VERS_IPV4;
export const IT_IP_VERS_IPV6 = it_ip_vers_t.IT_IP_VERS_IPV6;

/** `it_dto_status_t` (L13436–L13451): completion status in DTO completion events. */
export enum it_dto_status_t {
  IT_DTO_SUCCESS = 0,
  /** Receive too small / payload above `max_dto_payload_size`. */
  IT_DTO_ERR_LOCAL_LENGTH = 1,
  /** Internal Endpoint inconsistency; UD Address Handle/Spigot mismatch. */
  IT_DTO_ERR_LOCAL_EP = 2,
  /** Local protection failure (bad/unlinked region, bounds, PZ, rights, Direct LMR misuse, …). */
  IT_DTO_ERR_LOCAL_PROTECTION = 3,
  /** The Endpoint went NONOPERATIONAL before the WR began. */
  IT_DTO_ERR_FLUSHED = 4,
  /** RMR Link/Unlink protection failure. */
  IT_RMR_OPERATION_FAILED = 5,
  /** Unexpected transport opcode in a response (IB). */
  IT_DTO_ERR_BAD_RESPONSE = 6,
  /** Remote protection violation reported end-to-end (iWARP: only for RDMA Read). */
  IT_DTO_ERR_REMOTE_ACCESS = 7,
  /** The remote could not complete the operation (IB). */
  IT_DTO_ERR_REMOTE_RESPONDER = 8,
  /** Retries exceeded, data corruption, LLP error. */
  IT_DTO_ERR_TRANSPORT = 9,
  /** RNR retries exhausted (IB). */
  IT_DTO_ERR_RECEIVER_NOT_READY = 10,
  /** Truncated Receive (VIA). */
  IT_DTO_ERR_PARTIAL_PACKET = 11,
  /** LMR Link/Unlink failure; RMR link to a Relative-mode LMR. */
  IT_DTO_ERR_LOCAL_MM_OPERATION = 12,
}
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
export enum it_dto_flags_t {
  /** Generate a completion event on success (errors always generate one); mandatory on Receives. */
  IT_COMPLETION_FLAG = 0x01,
  /** The completion is a Notification event; illegal without `IT_COMPLETION_FLAG`. */
  IT_NOTIFY_FLAG = 0x02,
  /** The matching remote Receive's completion becomes a Notification (Send, Send-and-Unlink, Sendto). */
  IT_SOLICITED_WAIT_FLAG = 0x04,
  /** An SQ WR does not start before earlier RDMA Reads (and Atomics) completed. */
  IT_BARRIER_FENCE_FLAG = 0x08,
  /** An LMR/RMR Unlink does not start before all earlier SQ WRs completed (`unlink_fence_support`). */
  IT_UNLINK_FENCE_FLAG = 0x10,
  /** Unlink the local sink region when an RDMA Read completes (`rdma_read_local_extensions`). */
  IT_UNLINK_LOCAL_SINK = 0x20,
  /** Validate now, defer execution until the next post without this flag. */
  IT_COALESCE_WR_FLAG = 0x40,
}
export const IT_COMPLETION_FLAG = it_dto_flags_t.IT_COMPLETION_FLAG;
export const IT_NOTIFY_FLAG = it_dto_flags_t.IT_NOTIFY_FLAG;
export const IT_SOLICITED_WAIT_FLAG = it_dto_flags_t.IT_SOLICITED_WAIT_FLAG;
export const IT_BARRIER_FENCE_FLAG = it_dto_flags_t.IT_BARRIER_FENCE_FLAG;
export const IT_UNLINK_FENCE_FLAG = it_dto_flags_t.IT_UNLINK_FENCE_FLAG;
export const IT_UNLINK_LOCAL_SINK = it_dto_flags_t.IT_UNLINK_LOCAL_SINK;
export const IT_COALESCE_WR_FLAG = it_dto_flags_t.IT_COALESCE_WR_FLAG;

/** `it_dto_ud_flags_t` (L14374–L14377): flags of a UD Receive completion. */
export enum it_dto_ud_flags_t {
  /** The first 40 bytes of the Receive buffer hold an IB GRH. */
  IT_UD_IB_GRH_PRESENT = 0x01,
}
export const IT_UD_IB_GRH_PRESENT = it_dto_ud_flags_t.IT_UD_IB_GRH_PRESENT;

/**
 * `it_event_type_t` (L14205–L14277): event numbers, grouped in streams. The stream of an event is
 * `event_number & IT_EVENT_STREAM_MASK`; the stream values are themselves members and are the
 * `event_number` given to `it_evd_create`.
 */
export enum it_event_type_t {
  // ---- Event Stream for WR/DTO completions ---------------------------------------------------
  IT_DTO_EVENT_STREAM = 0x00000,
  IT_DTO_SEND_CMPL_EVENT = 0x00001,
  IT_DTO_RC_RECV_CMPL_EVENT = 0x00002,
  IT_DTO_UD_RECV_CMPL_EVENT = 0x00003,
  IT_DTO_RDMA_WRITE_CMPL_EVENT = 0x00004,
  IT_DTO_RDMA_READ_CMPL_EVENT = 0x00005,
  /** v1.0 name of `IT_RMR_LINK_CMPL_EVENT` (declared first so reverse lookup yields LINK). */
  IT_RMR_BIND_CMPL_EVENT = 0x00006,
  /** RMR Link *and* RMR Unlink completions (there is no separate unlink number). */
  // biome-ignore lint/suspicious/noDuplicateEnumValues: header aliases (BIND = LINK; EP_LOCAL_ACCESS_VIOLATION = EP_L_ACCESS_VIOLATION)
  IT_RMR_LINK_CMPL_EVENT = 0x00006,
  IT_DTO_FETCH_ADD_CMPL_EVENT = 0x00007,
  IT_DTO_CMP_SWAP_CMPL_EVENT = 0x00008,
  /** LMR Link *and* LMR Unlink completions. */
  IT_LMR_LINK_CMPL_EVENT = 0x00009,

  // ---- Event Stream for Communication Management Request Events -----------------------------
  IT_CM_REQ_EVENT_STREAM = 0x01000,
  IT_CM_REQ_CONN_REQUEST_EVENT = 0x01001,
  IT_CM_REQ_UD_SERVICE_REQUEST_EVENT = 0x01002,

  // ---- Event Stream for Communication Management Message Events -----------------------------
  IT_CM_MSG_EVENT_STREAM = 0x02000,
  IT_CM_MSG_CONN_ACCEPT_ARRIVAL_EVENT = 0x02001,
  IT_CM_MSG_CONN_ESTABLISHED_EVENT = 0x02002,
  IT_CM_MSG_CONN_DISCONNECT_EVENT = 0x02003,
  IT_CM_MSG_CONN_PEER_REJECT_EVENT = 0x02004,
  IT_CM_MSG_CONN_NONPEER_REJECT_EVENT = 0x02005,
  IT_CM_MSG_CONN_BROKEN_EVENT = 0x02006,
  IT_CM_MSG_UD_SERVICE_REPLY_EVENT = 0x02007,

  // ---- Event Stream for Affiliated Asynchronous Events (0x04004 unused) ----------------------
  IT_ASYNC_AFF_EVENT_STREAM = 0x04000,
  IT_ASYNC_AFF_SEVD_ENQUEUE_FAILURE = 0x04001,
  IT_ASYNC_AFF_EP_FAILURE = 0x04002,
  IT_ASYNC_AFF_EP_BAD_TRANSPORT_OPCODE = 0x04003,
  IT_ASYNC_AFF_EP_REQ_DROPPED = 0x04005,
  IT_ASYNC_AFF_EP_RDMAW_ACCESS_VIOLATION = 0x04006,
  IT_ASYNC_AFF_EP_RDMAW_CORRUPT_DATA = 0x04007,
  IT_ASYNC_AFF_EP_RDMAR_ACCESS_VIOLATION = 0x04008,
  /** Older name of `IT_ASYNC_AFF_EP_L_ACCESS_VIOLATION` (declared first: reverse lookup yields L_). */
  IT_ASYNC_AFF_EP_LOCAL_ACCESS_VIOLATION = 0x04020,
  IT_ASYNC_AFF_EP_L_ACCESS_VIOLATION = 0x04020,
  IT_ASYNC_AFF_EP_L_RECV_ACCESS_VIOLATION = 0x04021,
  IT_ASYNC_AFF_EP_L_IRRQ_ACCESS_VIOLATION = 0x04022,
  IT_ASYNC_AFF_EP_L_TRANSPORT_ERROR = 0x04023,
  IT_ASYNC_AFF_EP_L_LLP_ERROR = 0x04024,
  IT_ASYNC_AFF_EP_R_ERROR = 0x04040,
  IT_ASYNC_AFF_EP_R_ACCESS_VIOLATION = 0x04041,
  IT_ASYNC_AFF_EP_R_RECV_ACCESS_VIOLATION = 0x04042,
  IT_ASYNC_AFF_EP_R_RECV_LENGTH_ERROR = 0x04043,
  IT_ASYNC_AFF_EP_SOFT_HI_WATERMARK = 0x04060,
  IT_ASYNC_AFF_SRQ_LOW_WATERMARK = 0x04100,

  // ---- Event Stream for Unaffiliated Asynchronous Events (0x08001 deprecated: was ----------
  // ---- IT_ASYNC_UNAFF_IA_CATASTROPHIC_ERROR, removed in 2.0) -------------------------------
  IT_ASYNC_UNAFF_EVENT_STREAM = 0x08000,
  IT_ASYNC_UNAFF_SPIGOT_ONLINE = 0x08002,
  IT_ASYNC_UNAFF_SPIGOT_OFFLINE = 0x08003,
  IT_ASYNC_UNAFF_SEVD_ENQUEUE_FAILURE = 0x08004,

  // ---- Event Stream for Software Events -----------------------------------------------------
  IT_SOFTWARE_EVENT_STREAM = 0x10000,
  IT_SOFTWARE_EVENT = 0x10001,

  // ---- Event Stream for AEVD Notifications ---------------------------------------------------
  IT_AEVD_NOTIFICATION_EVENT_STREAM = 0x20000,
  IT_AEVD_NOTIFICATION_EVENT = 0x20001,
}
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
export const IT_EVENT_STREAMS: readonly it_event_type_t[] = Object.freeze([
  it_event_type_t.IT_DTO_EVENT_STREAM,
  it_event_type_t.IT_CM_REQ_EVENT_STREAM,
  it_event_type_t.IT_CM_MSG_EVENT_STREAM,
  it_event_type_t.IT_ASYNC_AFF_EVENT_STREAM,
  it_event_type_t.IT_ASYNC_UNAFF_EVENT_STREAM,
  it_event_type_t.IT_SOFTWARE_EVENT_STREAM,
  it_event_type_t.IT_AEVD_NOTIFICATION_EVENT_STREAM,
]);

/** Stream of an event number: `event_number & IT_EVENT_STREAM_MASK` (header L14201). */
export function itEventStream(event_number: it_event_type_t | number): it_event_type_t {
  return (event_number & IT_EVENT_STREAM_MASK) as it_event_type_t;
}

/** True when `value` is one of the seven stream values (what `it_evd_create` accepts). */
export function isItEventStream(value: number): boolean {
  return IT_EVENT_STREAMS.includes(value as it_event_type_t);
}

/** DTO-stream event numbers (the events carried by `it_dto_cmpl_event_t` / `it_all_dto_cmpl_event_t`). */
export type it_dto_event_number_t =
  | it_event_type_t.IT_DTO_SEND_CMPL_EVENT
  | it_event_type_t.IT_DTO_RC_RECV_CMPL_EVENT
  | it_event_type_t.IT_DTO_UD_RECV_CMPL_EVENT
  | it_event_type_t.IT_DTO_RDMA_WRITE_CMPL_EVENT
  | it_event_type_t.IT_DTO_RDMA_READ_CMPL_EVENT
  | it_event_type_t.IT_RMR_LINK_CMPL_EVENT
  | it_event_type_t.IT_DTO_FETCH_ADD_CMPL_EVENT
  | it_event_type_t.IT_DTO_CMP_SWAP_CMPL_EVENT
  | it_event_type_t.IT_LMR_LINK_CMPL_EVENT;
/** Connection events carried by `it_connection_event_t`. */
export type it_connection_event_number_t =
  | it_event_type_t.IT_CM_MSG_CONN_ACCEPT_ARRIVAL_EVENT
  | it_event_type_t.IT_CM_MSG_CONN_ESTABLISHED_EVENT
  | it_event_type_t.IT_CM_MSG_CONN_DISCONNECT_EVENT
  | it_event_type_t.IT_CM_MSG_CONN_PEER_REJECT_EVENT
  | it_event_type_t.IT_CM_MSG_CONN_NONPEER_REJECT_EVENT
  | it_event_type_t.IT_CM_MSG_CONN_BROKEN_EVENT;
/** Affiliated asynchronous events whose `cause` is an Endpoint. */
export type it_affiliated_ep_event_number_t =
  | it_event_type_t.IT_ASYNC_AFF_EP_FAILURE
  | it_event_type_t.IT_ASYNC_AFF_EP_BAD_TRANSPORT_OPCODE
  | it_event_type_t.IT_ASYNC_AFF_EP_REQ_DROPPED
  | it_event_type_t.IT_ASYNC_AFF_EP_RDMAW_ACCESS_VIOLATION
  | it_event_type_t.IT_ASYNC_AFF_EP_RDMAW_CORRUPT_DATA
  | it_event_type_t.IT_ASYNC_AFF_EP_RDMAR_ACCESS_VIOLATION
  | it_event_type_t.IT_ASYNC_AFF_EP_L_ACCESS_VIOLATION
  | it_event_type_t.IT_ASYNC_AFF_EP_L_RECV_ACCESS_VIOLATION
  | it_event_type_t.IT_ASYNC_AFF_EP_L_IRRQ_ACCESS_VIOLATION
  | it_event_type_t.IT_ASYNC_AFF_EP_L_TRANSPORT_ERROR
  | it_event_type_t.IT_ASYNC_AFF_EP_L_LLP_ERROR
  | it_event_type_t.IT_ASYNC_AFF_EP_R_ERROR
  | it_event_type_t.IT_ASYNC_AFF_EP_R_ACCESS_VIOLATION
  | it_event_type_t.IT_ASYNC_AFF_EP_R_RECV_ACCESS_VIOLATION
  | it_event_type_t.IT_ASYNC_AFF_EP_R_RECV_LENGTH_ERROR
  | it_event_type_t.IT_ASYNC_AFF_EP_SOFT_HI_WATERMARK;
/** Unaffiliated asynchronous events. */
export type it_unaffiliated_event_number_t =
  | it_event_type_t.IT_ASYNC_UNAFF_SPIGOT_ONLINE
  | it_event_type_t.IT_ASYNC_UNAFF_SPIGOT_OFFLINE
  | it_event_type_t.IT_ASYNC_UNAFF_SEVD_ENQUEUE_FAILURE;

/** `it_conn_reject_code_t` (L14301–L14310): `reject_reason_code` of a NONPEER_REJECT event. */
export enum it_conn_reject_code_t {
  IT_CN_REJ_OTHER = 0,
  IT_CN_REJ_TIMEOUT = 1,
  IT_CN_REJ_BAD_PATH = 2,
  IT_CN_REJ_STALE_CONN = 3,
  IT_CN_REJ_BAD_ORD = 4,
  IT_CN_REJ_RESOURCES = 5,
  /** The peer's connection-parameter header (IOH / MPA) version or format was not recognised. */
  IT_CN_REJ_BAD_CONN_PARMS = 6,
}
export const IT_CN_REJ_OTHER = it_conn_reject_code_t.IT_CN_REJ_OTHER;
export const IT_CN_REJ_TIMEOUT = it_conn_reject_code_t.IT_CN_REJ_TIMEOUT;
export const IT_CN_REJ_BAD_PATH = it_conn_reject_code_t.IT_CN_REJ_BAD_PATH;
export const IT_CN_REJ_STALE_CONN = it_conn_reject_code_t.IT_CN_REJ_STALE_CONN;
export const IT_CN_REJ_BAD_ORD = it_conn_reject_code_t.IT_CN_REJ_BAD_ORD;
export const IT_CN_REJ_RESOURCES = it_conn_reject_code_t.IT_CN_REJ_RESOURCES;
export const IT_CN_REJ_BAD_CONN_PARMS = it_conn_reject_code_t.IT_CN_REJ_BAD_CONN_PARMS;
/** An alias of `it_conn_reject_code_t` (the name other IT-API texts use for the reject reason). */
export type it_reject_reason_t = it_conn_reject_code_t;

/** `it_ud_svc_req_status_t` (L14326–L14333). `IT_UD_REQ_REDIRECTED` is implementation-only. */
export enum it_ud_svc_req_status_t {
  IT_UD_SVC_EP_INFO_VALID = 0,
  IT_UD_SVC_ID_NOT_SUPPORTED = 1,
  IT_UD_SVC_REQ_REJECTED = 2,
  IT_UD_NO_EP_AVAILABLE = 3,
  IT_UD_REQ_REDIRECTED = 4,
}
export const IT_UD_SVC_EP_INFO_VALID = it_ud_svc_req_status_t.IT_UD_SVC_EP_INFO_VALID;
export const IT_UD_SVC_ID_NOT_SUPPORTED = it_ud_svc_req_status_t.IT_UD_SVC_ID_NOT_SUPPORTED;
export const IT_UD_SVC_REQ_REJECTED = it_ud_svc_req_status_t.IT_UD_SVC_REQ_REJECTED;
export const IT_UD_NO_EP_AVAILABLE = it_ud_svc_req_status_t.IT_UD_NO_EP_AVAILABLE;
export const IT_UD_REQ_REDIRECTED = it_ud_svc_req_status_t.IT_UD_REQ_REDIRECTED;

/** `it_ep_state_rc_t` (L14536–L14545): RC Endpoint states (transition table: it_ep_state_t page). */
export enum it_ep_state_rc_t {
  IT_EP_STATE_UNCONNECTED = 0,
  IT_EP_STATE_ACTIVE1_CONNECTION_PENDING = 1,
  /** Three-way handshake only (never on iWARP). */
  IT_EP_STATE_ACTIVE2_CONNECTION_PENDING = 2,
  IT_EP_STATE_PASSIVE_CONNECTION_PENDING = 3,
  IT_EP_STATE_CONNECTED = 4,
  IT_EP_STATE_NONOPERATIONAL = 5,
  /** iWARP only: Conversion Initiator waiting for the MPA Request (`it_socket_convert`). */
  IT_EP_STATE_PASSIVE_WAIT_RDMA_TRANS_REQ = 6,
}
export const IT_EP_STATE_UNCONNECTED = it_ep_state_rc_t.IT_EP_STATE_UNCONNECTED;
export const IT_EP_STATE_ACTIVE1_CONNECTION_PENDING = it_ep_state_rc_t.IT_EP_STATE_ACTIVE1_CONNECTION_PENDING;
export const IT_EP_STATE_ACTIVE2_CONNECTION_PENDING = it_ep_state_rc_t.IT_EP_STATE_ACTIVE2_CONNECTION_PENDING;
export const IT_EP_STATE_PASSIVE_CONNECTION_PENDING = it_ep_state_rc_t.IT_EP_STATE_PASSIVE_CONNECTION_PENDING;
export const IT_EP_STATE_CONNECTED = it_ep_state_rc_t.IT_EP_STATE_CONNECTED;
export const IT_EP_STATE_NONOPERATIONAL = it_ep_state_rc_t.IT_EP_STATE_NONOPERATIONAL;
export const IT_EP_STATE_PASSIVE_WAIT_RDMA_TRANS_REQ = it_ep_state_rc_t.IT_EP_STATE_PASSIVE_WAIT_RDMA_TRANS_REQ;

/** `it_ep_state_ud_t` (L14547–L14551): UD Endpoint states. */
export enum it_ep_state_ud_t {
  IT_EP_STATE_UD_NONOPERATIONAL = 0,
  IT_EP_STATE_UD_OPERATIONAL = 1,
}
export const IT_EP_STATE_UD_NONOPERATIONAL = it_ep_state_ud_t.IT_EP_STATE_UD_NONOPERATIONAL;
export const IT_EP_STATE_UD_OPERATIONAL = it_ep_state_ud_t.IT_EP_STATE_UD_OPERATIONAL;

/**
 * `it_ep_state_t` (L14553–L14557): `union { rc; ud; }`. RC and UD values overlap (0, 1), so the
 * binding keeps the union as one-key wrappers: `{ rc: IT_EP_STATE_CONNECTED }`.
 */
export type it_ep_state_t = { readonly rc: it_ep_state_rc_t } | { readonly ud: it_ep_state_ud_t };

/** `it_ep_param_mask_t` (L14112–L14142): field selector for `it_ep_query` / `it_ep_modify`. */
export enum it_ep_param_mask_t {
  IT_EP_PARAM_ALL = 0x00000001,
  IT_EP_PARAM_IA = 0x00000002,
  IT_EP_PARAM_SPIGOT = 0x00000004,
  IT_EP_PARAM_STATE = 0x00000008,
  IT_EP_PARAM_SERV_TYPE = 0x00000010,
  IT_EP_PARAM_PATH = 0x00000020,
  IT_EP_PARAM_PZ = 0x00000040,
  IT_EP_PARAM_REQ_SEVD = 0x00000080,
  IT_EP_PARAM_RECV_SEVD = 0x00000100,
  IT_EP_PARAM_CONN_SEVD = 0x00000200,
  IT_EP_PARAM_RDMA_RD_ENABLE = 0x00000400,
  IT_EP_PARAM_RDMA_WR_ENABLE = 0x00000800,
  IT_EP_PARAM_MAX_RDMA_READ_SEG = 0x00001000,
  IT_EP_PARAM_MAX_RDMA_WRITE_SEG = 0x00002000,
  IT_EP_PARAM_MAX_IRD = 0x00004000,
  IT_EP_PARAM_MAX_ORD = 0x00008000,
  IT_EP_PARAM_EP_ID = 0x00010000,
  IT_EP_PARAM_EP_KEY = 0x00020000,
  IT_EP_PARAM_MAX_PAYLOAD = 0x00040000,
  IT_EP_PARAM_MAX_REQ_DTO = 0x00080000,
  IT_EP_PARAM_MAX_RECV_DTO = 0x00100000,
  IT_EP_PARAM_MAX_SEND_SEG = 0x00200000,
  IT_EP_PARAM_MAX_RECV_SEG = 0x00400000,
  IT_EP_PARAM_SRQ = 0x00800000,
  IT_EP_PARAM_SOFT_HI_WATERMARK = 0x01000000,
  IT_EP_PARAM_HARD_HI_WATERMARK = 0x02000000,
  IT_EP_PARAM_ATOMICS_ENABLE = 0x04000000,
  IT_EP_PARAM_PRIV_OPS_ENABLE = 0x08000000,
}
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
export enum it_ep_rc_creation_flags_t {
  IT_EP_NO_FLAG = 0x00,
  /** May return an Endpoint still in TimeWait (only then can `IT_ERR_EP_TIMEWAIT` occur). */
  IT_EP_REUSEADDR = 0x01,
  /** Use the S-RQ in `ep_attr.srv.rc.srq` (and its watermarks). */
  IT_EP_SRQ = 0x02,
}
export const IT_EP_NO_FLAG = it_ep_rc_creation_flags_t.IT_EP_NO_FLAG;
export const IT_EP_REUSEADDR = it_ep_rc_creation_flags_t.IT_EP_REUSEADDR;
export const IT_EP_SRQ = it_ep_rc_creation_flags_t.IT_EP_SRQ;

/** `it_cn_est_flags_t` (L14655–L14660). TWO_WAY and THREE_WAY are mutually exclusive. */
export enum it_cn_est_flags_t {
  IT_CONNECT_FLAG_TWO_WAY = 0x0001,
  /** Only with `three_way_handshake_support` (never on iWARP). */
  IT_CONNECT_FLAG_THREE_WAY = 0x0002,
  IT_CONNECT_SUPPRESS_IRD_ORD = 0x0004,
}
export const { IT_CONNECT_FLAG_TWO_WAY, IT_CONNECT_FLAG_THREE_WAY, IT_CONNECT_SUPPRESS_IRD_ORD } = it_cn_est_flags_t;

/** `it_evd_flags_t` (L14687–L14694). Validity rules: `it_evd_create` page. */
export enum it_evd_flags_t {
  /** AEVD only: the AEVD hands out `IT_AEVD_NOTIFICATION_EVENT`s instead of the underlying events. */
  IT_EVD_DEQUEUE_NOTIFICATIONS = 0x01,
  /** Any EVD: also return a pollable fd, readable on Notification. */
  IT_EVD_CREATE_FD = 0x02,
  /** SEVD only: the stream's default overflow behaviour; exclusive with NOTIFY/AUTO_RESET. */
  IT_EVD_OVERFLOW_DEFAULT = 0x04,
  /** SEVD only (not UNAFF): report overflow as `IT_ASYNC_AFF_SEVD_ENQUEUE_FAILURE`. */
  IT_EVD_OVERFLOW_NOTIFY = 0x08,
  /** Requires NOTIFY; invalid for the DTO stream: re-arm overflow reporting when space appears. */
  IT_EVD_OVERFLOW_AUTO_RESET = 0x10,
}
export const IT_EVD_DEQUEUE_NOTIFICATIONS = it_evd_flags_t.IT_EVD_DEQUEUE_NOTIFICATIONS;
export const IT_EVD_CREATE_FD = it_evd_flags_t.IT_EVD_CREATE_FD;
export const IT_EVD_OVERFLOW_DEFAULT = it_evd_flags_t.IT_EVD_OVERFLOW_DEFAULT;
export const IT_EVD_OVERFLOW_NOTIFY = it_evd_flags_t.IT_EVD_OVERFLOW_NOTIFY;
export const IT_EVD_OVERFLOW_AUTO_RESET = it_evd_flags_t.IT_EVD_OVERFLOW_AUTO_RESET;

/** `it_evd_param_mask_t` (L14696–L14710). */
export enum it_evd_param_mask_t {
  IT_EVD_PARAM_ALL = 0x000001,
  IT_EVD_PARAM_IA = 0x000002,
  IT_EVD_PARAM_EVENT_NUMBER = 0x000004,
  IT_EVD_PARAM_FLAG = 0x000008,
  IT_EVD_PARAM_QUEUE_SIZE = 0x000010,
  IT_EVD_PARAM_THRESHOLD = 0x000020,
  IT_EVD_PARAM_AEVD_HANDLE = 0x000040,
  IT_EVD_PARAM_FD = 0x000080,
  IT_EVD_PARAM_BOUND = 0x000100,
  IT_EVD_PARAM_ENABLED = 0x000200,
  IT_EVD_PARAM_OVERFLOWED = 0x000400,
  IT_EVD_PARAM_CALLBACK = 0x000800,
}
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
export enum it_listen_flags_t {
  IT_LISTEN_NO_FLAG = 0x0000,
  /** `conn_qual` is an input; clear = the implementation picks a free qualifier and returns it. */
  IT_LISTEN_CONN_QUAL_INPUT = 0x0001,
  IT_LISTEN_SUPPRESS_IRD_ORD = 0x0002,
}
export const IT_LISTEN_NO_FLAG = it_listen_flags_t.IT_LISTEN_NO_FLAG;
export const IT_LISTEN_CONN_QUAL_INPUT = it_listen_flags_t.IT_LISTEN_CONN_QUAL_INPUT;
export const IT_LISTEN_SUPPRESS_IRD_ORD = it_listen_flags_t.IT_LISTEN_SUPPRESS_IRD_ORD;

/** `it_listen_param_mask_t` (L14754–L14762). */
export enum it_listen_param_mask_t {
  IT_LISTEN_PARAM_ALL = 0x0001,
  IT_LISTEN_PARAM_IA_HANDLE = 0x0002,
  IT_LISTEN_PARAM_SPIGOT_ID = 0x0004,
  IT_LISTEN_PARAM_CONNECT_EVD = 0x0008,
  IT_LISTEN_PARAM_CONN_QUAL = 0x0010,
}
export const IT_LISTEN_PARAM_ALL = it_listen_param_mask_t.IT_LISTEN_PARAM_ALL;
export const IT_LISTEN_PARAM_IA_HANDLE = it_listen_param_mask_t.IT_LISTEN_PARAM_IA_HANDLE;
export const IT_LISTEN_PARAM_SPIGOT_ID = it_listen_param_mask_t.IT_LISTEN_PARAM_SPIGOT_ID;
export const IT_LISTEN_PARAM_CONNECT_EVD = it_listen_param_mask_t.IT_LISTEN_PARAM_CONNECT_EVD;
export const IT_LISTEN_PARAM_CONN_QUAL = it_listen_param_mask_t.IT_LISTEN_PARAM_CONN_QUAL;

/** `it_lmr_param_mask_t` (L14772–L14789). */
export enum it_lmr_param_mask_t {
  IT_LMR_PARAM_ALL = 0x000001,
  IT_LMR_PARAM_IA = 0x000002,
  IT_LMR_PARAM_PZ = 0x000004,
  IT_LMR_PARAM_ADDR = 0x000008,
  IT_LMR_PARAM_LENGTH = 0x000010,
  IT_LMR_PARAM_MEM_PRIV = 0x000020,
  IT_LMR_PARAM_FLAG = 0x000040,
  IT_LMR_PARAM_SHARED_ID = 0x000080,
  IT_LMR_PARAM_RMR_CONTEXT = 0x000100,
  IT_LMR_PARAM_ACTUAL_ADDR = 0x000200,
  IT_LMR_PARAM_ACTUAL_LENGTH = 0x000400,
  IT_LMR_PARAM_ADDR_MODE = 0x000800,
  IT_LMR_PARAM_LINKED = 0x001000,
  IT_LMR_PARAM_IOBL_NUM_ELTS = 0x002000,
  IT_LMR_PARAM_IOBL_TYPE = 0x004000,
}
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
export enum it_pz_param_mask_t {
  IT_PZ_PARAM_ALL = 0x01,
  IT_PZ_PARAM_IA = 0x02,
}
export const IT_PZ_PARAM_ALL = it_pz_param_mask_t.IT_PZ_PARAM_ALL;
export const IT_PZ_PARAM_IA = it_pz_param_mask_t.IT_PZ_PARAM_IA;

/** `it_rmr_param_mask_t` (L14822–L14837). */
export enum it_rmr_param_mask_t {
  IT_RMR_PARAM_ALL = 0x000001,
  IT_RMR_PARAM_IA = 0x000002,
  IT_RMR_PARAM_PZ = 0x000004,
  /** Deprecated by `IT_RMR_PARAM_LINKED` (declared first so reverse lookup yields LINKED). */
  IT_RMR_PARAM_BOUND = 0x000008,
  // biome-ignore lint/suspicious/noDuplicateEnumValues: header defines IT_RMR_PARAM_BOUND = IT_RMR_PARAM_LINKED
  IT_RMR_PARAM_LINKED = 0x000008,
  IT_RMR_PARAM_LMR = 0x000010,
  IT_RMR_PARAM_ADDR = 0x000020,
  IT_RMR_PARAM_LENGTH = 0x000040,
  IT_RMR_PARAM_MEM_PRIV = 0x000080,
  IT_RMR_PARAM_RMR_CONTEXT = 0x000100,
  IT_RMR_PARAM_TYPE = 0x000200,
  IT_RMR_PARAM_ADDR_MODE = 0x000400,
}
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
export enum it_sc_flags_t {
  /** Perform MPA start-up (MPA Request/Reply) after the last streaming-mode message. */
  IT_SC_DEFAULT = 0x0000,
  /** Suppress the MPA Request/Reply exchange (RDMAC peers without MPA start-up). */
  IT_SC_NO_REQ_REP = 0x0001,
}
export const IT_SC_DEFAULT = it_sc_flags_t.IT_SC_DEFAULT;
export const IT_SC_NO_REQ_REP = it_sc_flags_t.IT_SC_NO_REQ_REP;

/** `it_srq_param_mask_t` (L14880–L14888). */
export enum it_srq_param_mask_t {
  IT_SRQ_PARAM_ALL = 0x000001,
  IT_SRQ_PARAM_IA = 0x000002,
  IT_SRQ_PARAM_PZ = 0x000004,
  IT_SRQ_PARAM_MAX_RECV_DTO = 0x000008,
  IT_SRQ_PARAM_MAX_RECV_SEG = 0x000010,
  IT_SRQ_PARAM_LOW_WATERMARK = 0x000020,
}
export const IT_SRQ_PARAM_ALL = it_srq_param_mask_t.IT_SRQ_PARAM_ALL;
export const IT_SRQ_PARAM_IA = it_srq_param_mask_t.IT_SRQ_PARAM_IA;
export const IT_SRQ_PARAM_PZ = it_srq_param_mask_t.IT_SRQ_PARAM_PZ;
export const IT_SRQ_PARAM_MAX_RECV_DTO = it_srq_param_mask_t.IT_SRQ_PARAM_MAX_RECV_DTO;
export const IT_SRQ_PARAM_MAX_RECV_SEG = it_srq_param_mask_t.IT_SRQ_PARAM_MAX_RECV_SEG;
export const IT_SRQ_PARAM_LOW_WATERMARK = it_srq_param_mask_t.IT_SRQ_PARAM_LOW_WATERMARK;

/** `it_ud_svc_req_param_mask_t` (L14899–L14909). */
export enum it_ud_svc_req_param_mask_t {
  IT_UD_PARAM_ALL = 0x00000001,
  IT_UD_PARAM_IA_HANDLE = 0x00000002,
  IT_UD_PARAM_REQ_ID = 0x00000004,
  IT_UD_PARAM_REPLY_EVD = 0x00000008,
  IT_UD_PARAM_CONN_QUAL = 0x00000010,
  IT_UD_PARAM_DEST_PATH = 0x00000020,
  IT_UD_PARAM_PRIV_DATA = 0x00000040,
  IT_UD_PARAM_PRIV_DATA_LENGTH = 0x00000080,
}
export const IT_UD_PARAM_ALL = it_ud_svc_req_param_mask_t.IT_UD_PARAM_ALL;
export const IT_UD_PARAM_IA_HANDLE = it_ud_svc_req_param_mask_t.IT_UD_PARAM_IA_HANDLE;
export const IT_UD_PARAM_REQ_ID = it_ud_svc_req_param_mask_t.IT_UD_PARAM_REQ_ID;
export const IT_UD_PARAM_REPLY_EVD = it_ud_svc_req_param_mask_t.IT_UD_PARAM_REPLY_EVD;
export const IT_UD_PARAM_CONN_QUAL = it_ud_svc_req_param_mask_t.IT_UD_PARAM_CONN_QUAL;
export const IT_UD_PARAM_DEST_PATH = it_ud_svc_req_param_mask_t.IT_UD_PARAM_DEST_PATH;
export const IT_UD_PARAM_PRIV_DATA = it_ud_svc_req_param_mask_t.IT_UD_PARAM_PRIV_DATA;
export const IT_UD_PARAM_PRIV_DATA_LENGTH = it_ud_svc_req_param_mask_t.IT_UD_PARAM_PRIV_DATA_LENGTH;

/** `it_addr_param_mask_t` (L14584–L14590): Address Handle query/modify mask. */
export enum it_addr_param_mask_t {
  IT_ADDR_PARAM_ALL = 0x0001,
  IT_ADDR_PARAM_IA = 0x0002,
  IT_ADDR_PARAM_PZ = 0x0004,
  IT_ADDR_PARAM_PATH = 0x0008,
}
export const IT_ADDR_PARAM_ALL = it_addr_param_mask_t.IT_ADDR_PARAM_ALL;
export const IT_ADDR_PARAM_IA = it_addr_param_mask_t.IT_ADDR_PARAM_IA;
export const IT_ADDR_PARAM_PZ = it_addr_param_mask_t.IT_ADDR_PARAM_PZ;
export const IT_ADDR_PARAM_PATH = it_addr_param_mask_t.IT_ADDR_PARAM_PATH;

/** `it_ah_flags_t` (L14579–L14582). */
export enum it_ah_flags_t {
  /** The path is complete (e.g. from `it_get_pathinfo`); clear = the implementation completes it. */
  IT_AH_PATH_COMPLETE = 0x1,
}
export const IT_AH_PATH_COMPLETE = it_ah_flags_t.IT_AH_PATH_COMPLETE;

/** `it_dg_type_t` (L14565–L14568). */
export enum it_dg_type_t {
  IT_DG_TYPE_IB_UD = 0,
}
export const IT_DG_TYPE_IB_UD = it_dg_type_t.IT_DG_TYPE_IB_UD;

/** `it_atomic_op_t` (L14928–L14932). */
export enum it_atomic_op_t {
  IT_COMPARE_AND_SWAP = 0,
  IT_FETCH_AND_ADD = 1,
}
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
export const IT_HANDLE_KIND: unique symbol = Symbol.for('softrdma.itapi.handle_kind');

/** `struct it_<x>_handle_s`: an opaque IT Object of class `K`. Consumers must not look inside. */
export interface it_handle_s<K extends it_handle_type_enum_t = it_handle_type_enum_t> {
  readonly [IT_HANDLE_KIND]: K;
}
/** `it_handle_t` (`void *`): any handle; what the context and handle-type calls take. */
export type it_handle_t = it_handle_s;
/** `it_addr_handle_t`: UD Address Handle (`it_address_handle_*`). */
export type it_addr_handle_t = it_handle_s<it_handle_type_enum_t.IT_HANDLE_TYPE_ADDR>;
/** `it_ep_handle_t`: RC or UD Endpoint. */
export type it_ep_handle_t = it_handle_s<it_handle_type_enum_t.IT_HANDLE_TYPE_EP>;
/** `it_evd_handle_t`: Simple or Aggregate Event Dispatcher. */
export type it_evd_handle_t = it_handle_s<it_handle_type_enum_t.IT_HANDLE_TYPE_EVD>;
/** `it_ia_handle_t`: Interface Adapter. */
export type it_ia_handle_t = it_handle_s<it_handle_type_enum_t.IT_HANDLE_TYPE_IA>;
/** `it_listen_handle_t`: Listen Point. */
export type it_listen_handle_t = it_handle_s<it_handle_type_enum_t.IT_HANDLE_TYPE_LISTEN>;
/** `it_lmr_handle_t`: Local Memory Region (also the Direct LMR Handle). */
export type it_lmr_handle_t = it_handle_s<it_handle_type_enum_t.IT_HANDLE_TYPE_LMR>;
/** `it_pz_handle_t`: Protection Zone. */
export type it_pz_handle_t = it_handle_s<it_handle_type_enum_t.IT_HANDLE_TYPE_PZ>;
/** `it_rmr_handle_t`: Remote Memory Region (Narrow or Wide). */
export type it_rmr_handle_t = it_handle_s<it_handle_type_enum_t.IT_HANDLE_TYPE_RMR>;
/** `it_ud_svc_req_handle_t`: UD Service Request Handle. */
export type it_ud_svc_req_handle_t = it_handle_s<it_handle_type_enum_t.IT_HANDLE_TYPE_UD_SVC_REQ>;
/** `it_srq_handle_t`: Shared Receive Queue. */
export type it_srq_handle_t = it_handle_s<it_handle_type_enum_t.IT_HANDLE_TYPE_SRQ>;
/** An alias of `it_addr_handle_t`, spelled out. */
export type it_address_handle_t = it_addr_handle_t;

/**
 * Property key under which the two identifier tokens carry their kind. They are `uint64_t` in C
 * and *not* IT handles: `it_get_handle_type` and the context calls do not accept them.
 */
export const IT_ID_KIND: unique symbol = Symbol.for('softrdma.itapi.id_kind');

/**
 * `it_cn_est_identifier_t` (`uint64_t` in C; header L13328, typo `it_cn_est_identifrier_t` in the
 * it_ep_accept prototype): identifies one pending connection establishment. Delivered in
 * `IT_CM_REQ_CONN_REQUEST_EVENT` / `IT_CM_MSG_CONN_ACCEPT_ARRIVAL_EVENT`; consumed (destroyed) by
 * `it_ep_accept`, `it_reject` or `it_handoff`. An opaque token in the binding (the 64-bit value,
 * if an implementation wants one, lives inside).
 */
export interface it_cn_est_identifier_t {
  readonly [IT_ID_KIND]: 'cn_est_id';
}
/**
 * `it_ud_svc_req_identifier_t` (`uint64_t` in C, L13326): identifies one received UD service
 * request; consumed by `it_ud_service_reply`. Opaque token in the binding.
 */
export interface it_ud_svc_req_identifier_t {
  readonly [IT_ID_KIND]: 'ud_svc_req_id';
}

/**
 * `it_context_t` (L13428–L13432, `union { void *ptr; uint64_t index; }`): the Consumer Context of
 * a handle. A `bigint` stands for the `index` member, an object or function for `ptr` (returned by
 * identity). `null` and `0n` are the same C bits: both mean "no context".
 */
export type it_context_t = bigint | object | null;

/** `it_evd_callback_rtn_t` (L14923–L14926): EVD callback (Privileged Consumers). */
export type it_evd_callback_rtn_t = (evd: it_evd_handle_t, arg: unknown) => void;

// =============================================================================================
// Addressing: connection qualifiers, network addresses, paths
// =============================================================================================

/** `it_via_discriminator_t` (L13384–L13394). `len` = significant bytes of `discriminator`. */
export interface it_via_discriminator_t {
  readonly len: number;
  readonly discriminator: Uint8Array;
}
/** `it_iana_lr_port_t` (L13398–L13402): iWARP local and remote TCP ports. */
export interface it_iana_lr_port_t {
  readonly local: number;
  readonly remote: number;
}
/**
 * `it_conn_qual_t` (L13404–L13426): Connection Qualifier, discriminated by `type`. iWARP accepts
 * `IT_IANA_PORT` (the TCP port) and `IT_IANA_LR_PORT`; IB uses `IT_IB_SERVICEID` (an IANA port maps
 * to Service ID `0x1000_0CE1_0000_0000n | port`: 0x10, OUI 0x000CE1, two zero bytes, the port).
 */
export type it_conn_qual_t =
  | { readonly type: it_conn_qual_type_t.IT_IANA_PORT; readonly conn_qual: { readonly port: number } }
  | { readonly type: it_conn_qual_type_t.IT_IB_SERVICEID; readonly conn_qual: { readonly serviceid: it_ib_serviceid_t } }
  | {
      readonly type: it_conn_qual_type_t.IT_VIA_DISCRIMINATOR;
      readonly conn_qual: { readonly discriminator: it_via_discriminator_t };
    }
  | { readonly type: it_conn_qual_type_t.IT_IANA_LR_PORT; readonly conn_qual: { readonly lr_port: it_iana_lr_port_t } };

/** `it_via_net_addr_t` (L13501–L13511). */
export interface it_via_net_addr_t {
  readonly len: number;
  readonly hostaddr: Uint8Array;
}
/** `it_net_addr_t` (L13515–L13538): a network address, discriminated by `addr_type`. */
export type it_net_addr_t =
  | { readonly addr_type: it_net_addr_type_t.IT_IPV4; readonly addr: { readonly ipv4: it_in_addr_t } }
  | { readonly addr_type: it_net_addr_type_t.IT_IPV6; readonly addr: { readonly ipv6: it_in6_addr_t } }
  | { readonly addr_type: it_net_addr_type_t.IT_IB_GID; readonly addr: { readonly gid: it_ib_gid_t } }
  | { readonly addr_type: it_net_addr_type_t.IT_VIA_HOSTADDR; readonly addr: { readonly via: it_via_net_addr_t } };

/**
 * `it_ib_net_endpoint_t` (L13970–L14044): IB remote path component (CM REQ fields). Bit-field
 * widths are given per field; GIDs are textual.
 */
export interface it_ib_net_endpoint_t {
  readonly partition_key: number;
  /** 4 bits. */
  readonly path_mtu: number;
  /** 6 bits. */
  readonly packet_lifetime: number;
  readonly local_port_lid: number;
  readonly remote_port_lid: number;
  readonly local_port_gid: it_ib_gid_t;
  readonly remote_port_gid: it_ib_gid_t;
  /** 6 bits. */
  readonly packet_rate: number;
  /** 4 bits. */
  readonly sl: number;
  /** 1 bit. */
  readonly subnet_local: number;
  /** 20 bits. */
  readonly flow_label: number;
  readonly traffic_class: number;
  readonly hop_limit: number;
}
/** `it_via_net_endpoint_t` (= `it_via_net_addr_t`, L14046). */
export type it_via_net_endpoint_t = it_via_net_addr_t;
/**
 * `it_iwarp_net_endpoint_t` (L14054–L14073): local and remote IP address of an iWARP path,
 * discriminated by `ip_vers`. Ports are not part of a path: they come from the `it_conn_qual_t`.
 */
export type it_iwarp_net_endpoint_t =
  | {
      readonly ip_vers: it_ip_vers_t.IT_IP_VERS_IPV4;
      readonly laddr: { readonly ipv4: it_in_addr_t };
      readonly raddr: { readonly ipv4: it_in_addr_t };
    }
  | {
      readonly ip_vers: it_ip_vers_t.IT_IP_VERS_IPV6;
      readonly laddr: { readonly ipv6: it_in6_addr_t };
      readonly raddr: { readonly ipv6: it_in6_addr_t };
    };
/** The `remote` union of `it_path_t`: which member is meaningful follows from the IA's transport. */
export type it_path_remote_t =
  | { readonly ib: it_ib_net_endpoint_t }
  | { readonly via: it_via_net_endpoint_t }
  | { readonly iwarp: it_iwarp_net_endpoint_t };
/** `it_path_t` (L14075–L14107): a path between two Spigots. */
export interface it_path_t {
  /** Local Spigot. */
  readonly spigot_id: number;
  /** Connection-establishment timeout in µs (active side only). */
  readonly timeout: bigint;
  readonly remote: it_path_remote_t;
}

/** `it_ib_conn_attributes_t` (L14599–L14626): IB CM knobs of `it_ep_connect` (bit widths noted). */
export interface it_ib_conn_attributes_t {
  /** 5 bits. */
  readonly remote_cm_timeout: number;
  /** 5 bits. */
  readonly local_cm_timeout: number;
  /** 3 bits. */
  readonly retry_count: number;
  /** 3 bits. */
  readonly rnr_retry_count: number;
  /** 4 bits. */
  readonly max_cm_retries: number;
  /** 5 bits. */
  readonly local_ack_timeout: number;
}
/** `it_via_conn_attributes_t` (L14628–L14636): no knobs (dummy member). */
export interface it_via_conn_attributes_t {
  readonly unused?: unknown;
}
/** `it_iwarp_conn_attributes_t` (L14638–L14646): no knobs (dummy member). */
export interface it_iwarp_conn_attributes_t {
  readonly unused?: unknown;
}
/** `it_conn_attributes_t` (L14648–L14653). */
export type it_conn_attributes_t =
  | { readonly ib: it_ib_conn_attributes_t }
  | { readonly via: it_via_conn_attributes_t }
  | { readonly iwarp: it_iwarp_conn_attributes_t };

/** `it_remote_ep_info_t` (L14171–L14175): a UD Endpoint's id and key. */
export interface it_remote_ep_info_t {
  readonly ud_ep_id: it_ud_ep_id_t;
  readonly ud_ep_key: it_ud_ep_key_t;
}
/** `it_ib_ud_addr_t` (L14559–L14563). */
export interface it_ib_ud_addr_t {
  readonly addr: it_addr_handle_t;
  readonly ep_info: it_remote_ep_info_t;
}
/** `it_dg_remote_ep_addr_t` (L14570–L14577): destination of `it_post_sendto`. */
export interface it_dg_remote_ep_addr_t {
  readonly type: it_dg_type_t.IT_DG_TYPE_IB_UD;
  readonly addr: { readonly ud: it_ib_ud_addr_t };
}
/** `it_addr_param_t` (L14592–L14597): Address Handle parameters. */
export interface it_addr_param_t {
  readonly ia: it_ia_handle_t;
  readonly pz: it_pz_handle_t;
  readonly path: it_path_t;
}

// =============================================================================================
// Interface Adapter (it_interface_t, it_ia_info_t)
// =============================================================================================

/** `it_interface_t` (L14727–L14745): one entry of `it_interface_list`. */
export interface it_interface_t {
  /** Most recent IT-API major version supported (2 for 2.1). */
  readonly major_version: number;
  readonly minor_version: number;
  readonly transport_type: it_transport_type_t;
  /** Input for `it_ia_create`; at most `IT_INTERFACE_NAME_SIZE - 1` characters. */
  readonly name: string;
}

/** `it_spigot_info_t` (L13572–L13612). */
export interface it_spigot_info_t {
  readonly spigot_id: number;
  readonly max_rc_send_len: number;
  readonly max_rc_rdma_len: number;
  readonly max_ud_send_len: number;
  readonly spigot_online: it_boolean_t;
  /** OR of `it_conn_qual_type_t` accepted by `it_ep_connect` / UD service requests. */
  readonly active_side_conn_qual: it_conn_qual_type_t;
  /** OR of `it_conn_qual_type_t` accepted by `it_listen_create`. */
  readonly passive_side_conn_qual: it_conn_qual_type_t;
  readonly num_net_addr: number;
  readonly net_addr: readonly it_net_addr_t[];
}

/** `it_vendor_ib_t` (L13614–L13629). */
export interface it_vendor_ib_t {
  /** 24 bits. */
  readonly vendor: number;
  readonly device: number;
  readonly revision: number;
}
/** `it_vendor_via_t` (L13631–L13644). */
export interface it_vendor_via_t {
  readonly name: string;
  /** `unsigned long`. */
  readonly hardware: bigint;
  /** `unsigned long`. */
  readonly provider: bigint;
}
/** `it_vendor_iwarp_tcp_t` (L13646–L13654). */
export interface it_vendor_iwarp_tcp_t {
  readonly valid_vid: it_boolean_t;
  /** 64 bytes, vendor-specific, valid iff `valid_vid`. */
  readonly vid: Uint8Array;
}
/** The `vendor` union of `it_ia_info_t`, discriminated (in C) by `transport_type`. */
export type it_ia_vendor_t =
  | { readonly ib: it_vendor_ib_t }
  | { readonly via: it_vendor_via_t }
  | { readonly iwarp: it_vendor_iwarp_tcp_t };

/** `it_ia_info_t` (L13694–L13945; page L10372–L10746): every IA attribute, in header order. */
export interface it_ia_info_t {
  readonly ia_name: string;
  /** Latest IT-API version the IA supports (2.1 → 2, 1). */
  readonly api_major_version: number;
  readonly api_minor_version: number;
  readonly sw_major_version: number;
  readonly sw_minor_version: number;
  /** `null` for transports without vendor identification. */
  readonly vendor: it_ia_vendor_t | null;
  /** Preferred buffer alignment in bytes. */
  readonly dto_alignment_hint: number;
  readonly transport_type: it_transport_type_t;
  /** OR of `it_transport_service_type_t` (iWARP: `IT_RC_SERVICE` only). */
  readonly supported_service_types: it_transport_service_type_t;
  readonly ep_work_queues_resizable: it_boolean_t;
  /** Never true on iWARP. */
  readonly three_way_handshake_support: it_boolean_t;
  readonly private_data_support: it_boolean_t;
  readonly max_message_size_support: it_boolean_t;
  /** v1.0 `ird_support` / `ord_support`. */
  readonly ird_ord_ia_support: it_boolean_t;
  readonly ird_ord_suppressible: it_boolean_t;
  readonly spigot_online_support: it_boolean_t;
  readonly spigot_offline_support: it_boolean_t;
  /** iWARP: 256 (IOH excluded). */
  readonly connect_private_data_len: number;
  /** iWARP: 256. */
  readonly accept_private_data_len: number;
  /** iWARP: 256. */
  readonly reject_private_data_len: number;
  /** iWARP: 0. */
  readonly disconnect_private_data_len: number;
  /** iWARP: 0 (no UD). */
  readonly ud_req_private_data_len: number;
  /** iWARP: 0 (no UD). */
  readonly ud_rep_private_data_len: number;
  readonly num_spigots: number;
  readonly spigot_info: readonly it_spigot_info_t[];
  /** `IT_NULL_HANDLE` until an `IT_ASYNC_AFF_EVENT_STREAM` SEVD exists. */
  readonly affiliated_err_evd: it_evd_handle_t | null;
  /** `IT_NULL_HANDLE` until an `IT_ASYNC_UNAFF_EVENT_STREAM` SEVD exists. */
  readonly unaffiliated_err_evd: it_evd_handle_t | null;
  readonly srq_support: it_boolean_t;
  readonly hard_hi_watermark_support: it_boolean_t;
  readonly soft_hi_watermark_support: it_boolean_t;
  readonly srq_resizable: it_boolean_t;
  /** The RNIC has an RTR state (not RDMAC verbs). */
  readonly extended_iwarp_qp_states: it_boolean_t;
  /** True iff `transport_type === IT_IWARP_TCP_TRANSPORT`. */
  readonly socket_conversion_support: it_boolean_t;
  readonly rdma_read_ord_increasable: it_boolean_t;
  readonly rdma_read_ird_modifiable: it_boolean_t;
  /** Bit set: `IT_RMR_TYPE_NARROW | IT_RMR_TYPE_WIDE`. */
  readonly rmr_types_supported: it_rmr_type_t;
  readonly addr_mode_relative_support: it_boolean_t;
  /** iWARP: true (RDMA Read sink needs REMOTE_WRITE and an EP with `rdma_write_enable`). */
  readonly rdma_read_requires_remote_write: it_boolean_t;
  readonly ep_rdma_enables_modifiable: it_boolean_t;
  /** `it_post_rdma_read_to_rmr` and `IT_UNLINK_LOCAL_SINK` available. */
  readonly rdma_read_local_extensions: it_boolean_t;
  readonly dto_evd_overflow_detection: it_boolean_t;
  /** iWARP: false. */
  readonly atomic_support: it_boolean_t;
  readonly lmr_link_support: it_boolean_t;
  readonly direct_lmr_handle_support: it_boolean_t;
  /** `IT_NULL_HANDLE` unless `direct_lmr_handle_support`. */
  readonly direct_lmr_handle: it_lmr_handle_t | null;
  readonly post_send_unlink_remote_support: it_boolean_t;
  readonly narrow_rmr_unlink_support: it_boolean_t;
  readonly wide_rmr_unlink_support: it_boolean_t;
  readonly unlink_fence_support: it_boolean_t;
  /** Bit set of `it_iobl_type_t` (header typo: `ioibl_types_supported`). */
  readonly iobl_types_supported: it_iobl_type_t;
}

// =============================================================================================
// Memory (LMR, RMR, IOBL, triplets)
// =============================================================================================

/** `it_iobl_ve_elt_t` (L13665–L13673): one element of a variable-element-length list. */
export interface it_iobl_ve_elt_t {
  readonly io_addr: it_io_addr_t;
  readonly elt_len: it_length_t;
}
/** `it_iobl_t` (L13675–L13692): an I/O Buffer List (Privileged Consumers). */
export interface it_iobl_t {
  /** Union discriminator: PAGE_LIST/BLOCK_LIST use `ce_list`, VE_PAGE_LIST uses `ve_list`. */
  readonly iobl_type: it_iobl_type_t;
  readonly list:
    | { readonly ce_list: { readonly list_elt: readonly it_io_addr_t[]; readonly elt_len: it_length_t } }
    | { readonly ve_list: { readonly list_elt: readonly it_iobl_ve_elt_t[] } };
  readonly num_elts: number;
  /** First-byte offset, 0 ≤ fbo < first element length. */
  readonly fbo: it_length_t;
}

/**
 * `it_lmr_triplet_t` (L13947–L13957): one local buffer segment. The C `addr` union
 * (`void *abs` | `it_length_t rel` | `it_io_addr_t io`) is one `bigint`: an absolute address in the
 * host address space (Absolute LMR), a byte offset (Relative LMR) or an I/O address (Direct LMR).
 */
export interface it_lmr_triplet_t {
  readonly lmr: it_lmr_handle_t;
  readonly addr: bigint;
  readonly length: it_length_t;
}
/** `it_rmr_triplet_t` (L13959–L13968): one local RMR sink segment (`it_post_rdma_read_to_rmr`). */
export interface it_rmr_triplet_t {
  readonly rmr: it_rmr_handle_t;
  readonly addr: bigint;
  readonly length: it_length_t;
}

/** `it_lmr_param_t` (L14791–L14807). */
export interface it_lmr_param_t {
  readonly ia: it_ia_handle_t;
  readonly pz: it_pz_handle_t;
  /** Always absolute, whatever the addressing mode. */
  readonly addr: it_vaddr_t;
  readonly length: it_length_t;
  readonly privs: it_mem_priv_t;
  /** `IT_LMR_FLAG_SHARED` reports actual sharing now. */
  readonly flags: it_lmr_flag_t;
  readonly shared_id: number;
  /** Undefined (here `null`) without remote privileges. */
  readonly rmr_context: it_rmr_context_t | null;
  readonly actual_addr: it_vaddr_t;
  readonly actual_length: it_length_t;
  readonly addr_mode: it_addr_mode_t;
  readonly linked: it_boolean_t;
  readonly iobl_num_elts: number;
  readonly iobl_type: it_iobl_type_t;
}
/** `it_pz_param_t` (L14817–L14820). */
export interface it_pz_param_t {
  readonly ia: it_ia_handle_t;
}
/** `it_rmr_param_t` (v2.x layout, L14858–L14870; v1.0 bindings call `linked` `bound`). */
export interface it_rmr_param_t {
  readonly ia: it_ia_handle_t;
  readonly pz: it_pz_handle_t;
  readonly linked: it_boolean_t;
  /** Link-dependent fields are undefined (`null`/stale) while unlinked. */
  readonly lmr: it_lmr_handle_t | null;
  /** Always absolute. */
  readonly addr: it_vaddr_t;
  readonly length: it_length_t;
  readonly privs: it_mem_priv_t;
  readonly rmr_context: it_rmr_context_t;
  /** NARROW or WIDE (never DEFAULT). */
  readonly type: it_rmr_type_t;
  readonly addr_mode: it_addr_mode_t;
}

// =============================================================================================
// Endpoints, S-RQ, EVD, Listen, UD service request
// =============================================================================================

/** `it_rc_only_attributes_t` (L14144–L14167). */
export interface it_rc_only_attributes_t {
  readonly rdma_read_enable: it_boolean_t;
  readonly rdma_write_enable: it_boolean_t;
  readonly max_rdma_read_segments: number;
  readonly max_rdma_write_segments: number;
  /** IRD (incoming RDMA Reads/Atomics in flight); v1.0 `rdma_read_inflight_incoming`. */
  readonly rdma_read_ird: number;
  /** ORD (outgoing); v1.0 `rdma_read_inflight_outgoing`. Allocated exactly as requested. */
  readonly rdma_read_ord: number;
  /** Used only with `IT_EP_SRQ`; `null` = none. */
  readonly srq: it_srq_handle_t | null;
  readonly soft_hi_watermark: number;
  /** `IT_HARD_HI_WATERMARK_DISABLE` disables. */
  readonly hard_hi_watermark: number;
  readonly atomics_enable: it_boolean_t;
}
/** `it_ud_only_attributes_t` (L14177–L14180). */
export interface it_ud_only_attributes_t {
  readonly ep_info: it_remote_ep_info_t;
}
/** `it_service_attributes_t` (L14182–L14186): `union { rc; ud; }`. */
export type it_service_attributes_t = { readonly rc: it_rc_only_attributes_t } | { readonly ud: it_ud_only_attributes_t };
/**
 * `it_ep_attributes_t` (L14188–L14199; page L9928ff). The header spells two fields
 * `max_rcv_dtos` / `max_rcv_segments`; the data-type page and the majority of the text use
 * `max_recv_*` (kept here).
 */
export interface it_ep_attributes_t {
  /** Allocated exactly as requested. */
  readonly max_dto_payload_size: number;
  readonly max_request_dtos: number;
  /** Reads 0 when the Endpoint uses an S-RQ. */
  readonly max_recv_dtos: number;
  readonly max_send_segments: number;
  /** Reads 0 when the Endpoint uses an S-RQ. */
  readonly max_recv_segments: number;
  readonly srv: it_service_attributes_t;
  readonly priv_ops_enable: it_boolean_t;
}
/** Partial `it_ep_attributes_t` for `it_ep_modify` inputs and `it_ep_query` outputs (mask-selected). */
export type it_ep_attributes_partial_t = {
  readonly [K in Exclude<keyof it_ep_attributes_t, 'srv'>]?: it_ep_attributes_t[K];
} & {
  readonly srv?: { readonly rc: Partial<it_rc_only_attributes_t> } | { readonly ud: { readonly ep_info?: Partial<it_remote_ep_info_t> } };
};

/** `it_ep_param_t` (L14662–L14676). */
export interface it_ep_param_t {
  readonly ia: it_ia_handle_t;
  /** Undefined for RC in UNCONNECTED. */
  readonly spigot_id: number;
  readonly ep_state: it_ep_state_t;
  readonly service_type: it_transport_service_type_t;
  /** Undefined for RC in UNCONNECTED and always for UD. */
  readonly dst_path: it_path_t;
  readonly pz: it_pz_handle_t;
  readonly request_sevd: it_evd_handle_t;
  readonly recv_sevd: it_evd_handle_t;
  /** RC only. */
  readonly connect_sevd: it_evd_handle_t | null;
  readonly attr: it_ep_attributes_t;
}
/** Result of `it_ep_query`: only masked fields are present (`attr` masked per attribute bit). */
export type it_ep_param_partial_t = {
  readonly [K in Exclude<keyof it_ep_param_t, 'attr'>]?: it_ep_param_t[K];
} & { readonly attr?: it_ep_attributes_partial_t };

/** `it_evd_param_t` (L14712–L14725; header typos `sev_d_queue_size`/`sev_d_threshold`). */
export interface it_evd_param_t {
  readonly ia: it_ia_handle_t;
  /** The stream (SEVD) or `IT_AEVD_NOTIFICATION_EVENT_STREAM` (AEVD). */
  readonly event_number: it_event_type_t;
  readonly evd_flag: it_evd_flags_t;
  /** Actual queue size (≥ requested); 0 for an AEVD. */
  readonly sevd_queue_size: number;
  readonly sevd_threshold: number;
  /** The AEVD this SEVD feeds, or `null` (the modify/query pages spell it `aevid`). */
  readonly aevd: it_evd_handle_t | null;
  /** −1 when the EVD has no fd. */
  readonly fd: number;
  readonly evd_bound: it_boolean_t;
  readonly evd_enabled: it_boolean_t;
  readonly evd_overflowed: it_boolean_t;
  readonly evd_callback: it_boolean_t;
}

/** `it_listen_param_t` (L14764–L14770). */
export interface it_listen_param_t {
  readonly ia_handle: it_ia_handle_t;
  readonly spigot_id: number;
  readonly connect_evd: it_evd_handle_t;
  readonly connect_qual: it_conn_qual_t;
}

/** `it_srq_param_t` (L14890–L14897). */
export interface it_srq_param_t {
  readonly ia: it_ia_handle_t;
  readonly pz: it_pz_handle_t;
  readonly max_recv_dtos: number;
  readonly max_recv_segs: number;
  /** 0 = unsupported or not armed. */
  readonly low_watermark: number;
}

/** `it_ud_svc_req_param_t` (L14911–L14921). */
export interface it_ud_svc_req_param_t {
  readonly ia: it_ia_handle_t;
  /** `uint32_t` although `it_ud_svc_req_identifier_t` is 64-bit. */
  readonly request_id: number;
  readonly reply_evd: it_evd_handle_t;
  readonly conn_qual: it_conn_qual_t;
  readonly destination_path: it_path_t;
  /** `IT_MAX_PRIV_DATA` bytes. */
  readonly private_data: Uint8Array;
  readonly private_data_length: number;
}

/** Mask-selected view of a param struct (what `*_query` returns, what `*_modify` reads). */
export type ItParamsPartial<T> = { readonly [K in keyof T]?: T[K] };

// =============================================================================================
// Events (it_event_t page L10113ff; header L14279–L14534)
// =============================================================================================

/** `it_any_event_t` (L14420–L14424): the two fields every event except the AEVD notification starts with. */
export interface it_any_event_t {
  readonly event_number: it_event_type_t;
  readonly evd: it_evd_handle_t;
}

/**
 * `it_dto_cmpl_event_t` (L14379–L14388): RC completion (and every DTO-stream event except UD
 * Receive). `ep` = the posting EP, or for a Receive the EP the Send targeted (matters with S-RQ).
 */
export interface it_dto_cmpl_event_t {
  readonly event_number: Exclude<it_dto_event_number_t, it_event_type_t.IT_DTO_UD_RECV_CMPL_EVENT>;
  readonly evd: it_evd_handle_t;
  readonly ep: it_ep_handle_t;
  readonly cookie: it_dto_cookie_t;
  readonly dto_status: it_dto_status_t;
  /** Valid only for successful Receives. */
  readonly transferred_length: number;
  /** Non-null only when an incoming Send-and-Unlink unlinked a local LMR/RMR. */
  readonly unlinked_mr_handle: it_lmr_handle_t | it_rmr_handle_t | null;
}
/**
 * `it_all_dto_cmpl_event_t` (L14390–L14402): the DTO event with the UD fields; required for UD
 * Receive completions (`IT_DTO_UD_RECV_CMPL_EVENT`).
 */
export interface it_all_dto_cmpl_event_t {
  readonly event_number: it_dto_event_number_t;
  readonly evd: it_evd_handle_t;
  readonly ep: it_ep_handle_t;
  readonly cookie: it_dto_cookie_t;
  readonly dto_status: it_dto_status_t;
  /** UD Receive: payload + 40 (GRH area). */
  readonly transferred_length: number;
  readonly unlinked_mr_handle: it_lmr_handle_t | it_rmr_handle_t | null;
  readonly flags: it_dto_ud_flags_t;
  /** The sender's UD Endpoint id. */
  readonly ud_ep_id: it_ud_ep_id_t;
  /** Partial path (only `ib.sl` and `ib.remote_port_lid` valid). */
  readonly src_path: it_path_t;
}

/** `it_conn_request_event_t` (L14347–L14360): `IT_CM_REQ_CONN_REQUEST_EVENT`. */
export interface it_conn_request_event_t {
  readonly event_number: it_event_type_t.IT_CM_REQ_CONN_REQUEST_EVENT;
  readonly evd: it_evd_handle_t;
  readonly cn_est_id: it_cn_est_identifier_t;
  readonly conn_qual: it_conn_qual_t;
  readonly source_addr: it_net_addr_t;
  readonly spigot_id: number;
  /** Valid iff `max_message_size_support`. */
  readonly max_message_size: number;
  /** Initiator's IRD; valid iff `ird_ord_ia_support` and not suppressed. */
  readonly rdma_read_ird: number;
  /** Initiator's ORD; same validity. */
  readonly rdma_read_ord: number;
  /** `IT_MAX_PRIV_DATA` bytes; the length sent is not conveyed. */
  readonly private_data: Uint8Array;
  readonly private_data_present: it_boolean_t;
}
/** `it_ud_svc_request_event_t` (L14362–L14372): `IT_CM_REQ_UD_SERVICE_REQUEST_EVENT`. */
export interface it_ud_svc_request_event_t {
  readonly event_number: it_event_type_t.IT_CM_REQ_UD_SERVICE_REQUEST_EVENT;
  readonly evd: it_evd_handle_t;
  readonly ud_svc_req_id: it_ud_svc_req_identifier_t;
  readonly conn_qual: it_conn_qual_t;
  readonly source_addr: it_net_addr_t;
  readonly spigot_id: number;
  readonly private_data: Uint8Array;
  readonly private_data_present: it_boolean_t;
}
/**
 * `it_connection_event_t` (L14312–L14324): the six RC connection events. Valid fields per event:
 * ACCEPT_ARRIVAL: cn_est_id, ep, ird, ord, private data; ESTABLISHED: ep, ird, ord, private data;
 * DISCONNECT and PEER_REJECT: ep, private data; NONPEER_REJECT: ep, reject_reason_code
 * (+ dst_path with BAD_PATH); BROKEN: ep. Invalid handle-typed fields are `null`.
 */
export interface it_connection_event_t {
  readonly event_number: it_connection_event_number_t;
  readonly evd: it_evd_handle_t;
  readonly cn_est_id: it_cn_est_identifier_t | null;
  readonly ep: it_ep_handle_t;
  readonly rdma_read_ird: number;
  readonly rdma_read_ord: number;
  readonly dst_path: it_path_t | null;
  readonly reject_reason_code: it_conn_reject_code_t;
  readonly private_data: Uint8Array;
  readonly private_data_present: it_boolean_t;
}
/** `it_ud_svc_reply_event_t` (L14335–L14345): `IT_CM_MSG_UD_SERVICE_REPLY_EVENT`. */
export interface it_ud_svc_reply_event_t {
  readonly event_number: it_event_type_t.IT_CM_MSG_UD_SERVICE_REPLY_EVENT;
  readonly evd: it_evd_handle_t;
  readonly ud_svc: it_ud_svc_req_handle_t;
  readonly status: it_ud_svc_req_status_t;
  /** Valid iff `status === IT_UD_SVC_EP_INFO_VALID`. */
  readonly ep_info: it_remote_ep_info_t;
  /** Valid iff `status === IT_UD_REQ_REDIRECTED` (then private data is invalid). */
  readonly dst_path: it_path_t | null;
  readonly private_data: Uint8Array;
  readonly private_data_present: it_boolean_t;
}
/**
 * `it_affiliated_event_t` (L14286–L14297). The C `cause` union is discriminated here by
 * `event_number`: `sevd` for SEVD_ENQUEUE_FAILURE, `srq` for SRQ_LOW_WATERMARK, `ep` otherwise.
 */
export type it_affiliated_event_t =
  | {
      readonly event_number: it_event_type_t.IT_ASYNC_AFF_SEVD_ENQUEUE_FAILURE;
      readonly evd: it_evd_handle_t;
      readonly cause: { readonly sevd: it_evd_handle_t };
    }
  | {
      readonly event_number: it_affiliated_ep_event_number_t;
      readonly evd: it_evd_handle_t;
      readonly cause: { readonly ep: it_ep_handle_t };
    }
  | {
      readonly event_number: it_event_type_t.IT_ASYNC_AFF_SRQ_LOW_WATERMARK;
      readonly evd: it_evd_handle_t;
      readonly cause: { readonly srq: it_srq_handle_t };
    };
/** `it_unaffiliated_event_t` (L14411–L14418). */
export interface it_unaffiliated_event_t {
  readonly event_number: it_unaffiliated_event_number_t;
  readonly evd: it_evd_handle_t;
  readonly ia: it_ia_handle_t;
  /** Valid for SPIGOT_ONLINE / SPIGOT_OFFLINE only. */
  readonly spigot_id: number;
}
/** `it_software_event_t` (L14404–L14409): `data` is the value given to `it_evd_post_se`, by identity. */
export interface it_software_event_t {
  readonly event_number: it_event_type_t.IT_SOFTWARE_EVENT;
  readonly evd: it_evd_handle_t;
  readonly data: unknown;
}
/**
 * `it_aevd_notification_event_t` (L14279–L14284): no `evd` member — `aevd` (the EVD it was queued
 * on) sits in its place; `sevd` is the SEVD that reached Notification criteria.
 */
export interface it_aevd_notification_event_t {
  readonly event_number: it_event_type_t.IT_AEVD_NOTIFICATION_EVENT;
  readonly aevd: it_evd_handle_t;
  readonly sevd: it_evd_handle_t;
}

/** Events of the DTO stream (page `it_dto_events`). */
export type it_dto_event_t = it_dto_cmpl_event_t | it_all_dto_cmpl_event_t;
/** Events of the CM request stream (page `it_cm_req_events`). */
export type it_cm_req_event_t = it_conn_request_event_t | it_ud_svc_request_event_t;
/** Events of the CM message stream (page `it_cm_msg_events`). */
export type it_cm_msg_event_t = it_connection_event_t | it_ud_svc_reply_event_t;

/**
 * `it_event_t` (L14426–L14534): what `it_evd_dequeue` / `it_evd_wait` deliver. Discriminated by
 * `event_number` (narrow with a `switch`); the stream is `itEventStream(event.event_number)`.
 */
export type it_event_t =
  | it_dto_cmpl_event_t
  | it_all_dto_cmpl_event_t
  | it_conn_request_event_t
  | it_ud_svc_request_event_t
  | it_connection_event_t
  | it_ud_svc_reply_event_t
  | it_affiliated_event_t
  | it_unaffiliated_event_t
  | it_software_event_t
  | it_aevd_notification_event_t;

/**
 * RNICPI 1.0 data types: every type the `ri_*` calls take or return.
 *
 * Mapping rules (C → TypeScript), applied uniformly:
 * - Spec type names are kept (`ri_qp_attr_t`, `ri_wr_t`, ...); struct fields keep the spec's
 *   snake_case names. Where the Ch. 7 pages, the Ch. 8 pages and the Ch. 10 header disagree on a
 *   name, the majority spelling is used (ties: the normative Ch. 7/8 page); the others are
 *   exported as aliases. See `docs/spec-notes.md`, section "RNICPI".
 * - Spec enums become numeric `enum`s named `Ri<Name>` whose members are the C names minus the
 *   common prefix (`RI_WR_TYPE_SEND` → `RiWrType.SEND`, `RI_MEM_FLAGS_ZBVA` → `RiMemFlags.ZBVA`),
 *   with the header's numeric values; the C type name is a type alias (`ri_wr_type_t`).
 *   Bit-flag sets (`ri_wr_flags_t`, `ri_mem_attr_t`, masks) are plain `number`s (OR of members).
 * - `uint64_t` (and `ri_addr_t`, `ri_wr_id_t`, `ri_phys_addr_t`, GUIDs, atomic operands) → `bigint`;
 *   32-bit and narrower integers (STags, lengths, counts) → `number`; `ri_boolean_t` → `boolean`;
 *   byte buffers (`char *`, `char[]`) → `Uint8Array` (strings for NUL-terminated paths/text).
 * - C unions: a union of *values* (`ri_data_seg_t.addr`, `.tag`) is flattened to one field; a union
 *   of *alternatives* becomes a TS union of one-key wrapper objects that keep the C member names
 *   (`qp_xport: { qp_iwarp } | { qp_ib }`), or a discriminated union on the C discriminant
 *   (`ri_wr_t` on `type`, `ri_event_record_t` on `event_type`).
 * - Opaque `ri_os_data_t` / `ri_vp_data_t` are `unknown`: passed through *by identity*, never
 *   copied or inspected by the provider.
 * - NULL pointers are `null`.
 *
 * @module
 */
import type { ri_ops_t } from './ops.js';
import type { ri_err_data_t } from './status.js';

export type { ri_err_data_t } from './status.js';

// =============================================================================================
// OS-dependent basics (<rnicpi_osd.h>, Ch. 10.2)
// =============================================================================================

/** `uint_t` (`unsigned int`). */
export type uint_t = number;
/** `ri_boolean_t`. */
export type ri_boolean_t = boolean;
/** `ri_length_t` (`unsigned int` in the prototype OSD header): a byte count below 2^32. */
export type ri_length_t = number;
/** `ri_addr_t` (`uint64_t`): a virtual address or Tagged Offset. */
export type ri_addr_t = bigint;
/**
 * `ri_vaddr_t` (`void *` in the prototype): a virtual address in the caller's address space. In
 * softrdma a 64-bit address in the synthetic host address space (see `src/rnic/hostmem.ts`).
 */
export type ri_vaddr_t = bigint;
/** `ri_phys_addr_t` (`uint64_t`): an adapter-accessible ("physical"/bus) address. */
export type ri_phys_addr_t = bigint;
/** `ri_phys_buf_len_t` (`uint64_t`). */
export type ri_phys_buf_len_t = bigint;
/** `ri_os_data_t`: opaque OS-side data; created by the uAL/kAL, forwarded unchanged, returned verbatim. */
export type ri_os_data_t = unknown;
/** `ri_vp_data_t`: opaque IHV-side data; `null` when the uAL calls the uVP; non-null at the kVP iff proxied. */
export type ri_vp_data_t = unknown;
/** `ri_dev_info_t` (`char *`): OS device / network-interface identifier given to `ri_svc_attach`. */
export type ri_dev_info_t = string;
/** `ri_wr_id_t` (`uint64_t`): consumer's Work Request ID, returned in the WC. */
export type ri_wr_id_t = bigint;
/** `ri_ltag_t` (`uint32_t`): local STag / L_Key. 24-bit index (MSBs) + 8-bit consumer key (LSB). */
export type ri_ltag_t = number;
/** `ri_rtag_t` (`uint32_t`): remote STag / R_Key. Same layout as {@link ri_ltag_t}. */
export type ri_rtag_t = number;
/**
 * `ri_llp_stream_handle_t` (`int` in the prototype): the LLP connection handed over at
 * conversion. Opaque to RNICPI; a softrdma provider accepts a connected `node:net` `Socket`
 * (TCP, MPA in streaming mode) and owns it after a successful Idle→RTS. `null` = never set.
 */
export type ri_llp_stream_handle_t = unknown;

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
export const RI_HANDLE_KIND: unique symbol = Symbol.for('softrdma.rnicpi.handle_kind');

/** Kinds of RNICPI object handles. */
export type RiHandleKind = 'vp' | 'rnic' | 'pd' | 'cq' | 'qp' | 'srq' | 'mr' | 'mw' | 'ah';

/**
 * `struct ri_handle_struct` / `ri_handle_t`: an opaque object created by the resource creator
 * (the provider). Consumers must not look inside; implementation fields follow the kind tag.
 */
export interface ri_handle_struct<K extends RiHandleKind = RiHandleKind> {
  readonly [RI_HANDLE_KIND]: K;
}
/** `ri_handle_t`: any handle. */
export type ri_handle_t = ri_handle_struct;

/**
 * `ri_vp_handle_t`: names one RNIC of a verbs provider (unique per RNIC, chosen by the VP and
 * given to `ri_svc_attach`). Per Ch. 10.2 it MUST start with the ops vector pointer: here `ops`
 * is the provider's AL-serialized vector, used to dispatch the vp-handle calls.
 */
export interface ri_vp_handle_t extends ri_handle_struct<'vp'> {
  readonly ops: ri_ops_t;
}
/**
 * `ri_rnic_handle_t`: a consumer's handle from `ri_rnic_get_hdl`. Per Ch. 10.2 it MUST carry
 * the ops vector; here `ops` is the vector the handle was obtained through (AL- or
 * VP-serialized), which fixes the handle's thread-safety model (Ch. 9.1.3).
 */
export interface ri_rnic_handle_t extends ri_handle_struct<'rnic'> {
  readonly ops: ri_ops_t;
}
/** `ri_pd_handle_t`. */
export type ri_pd_handle_t = ri_handle_struct<'pd'>;
/** `ri_cq_handle_t`. */
export type ri_cq_handle_t = ri_handle_struct<'cq'>;
/** `ri_qp_handle_t`. */
export type ri_qp_handle_t = ri_handle_struct<'qp'>;
/** `ri_srq_handle_t`. */
export type ri_srq_handle_t = ri_handle_struct<'srq'>;
/** `ri_mr_handle_t`. */
export type ri_mr_handle_t = ri_handle_struct<'mr'>;
/** `ri_mw_handle_t`. */
export type ri_mw_handle_t = ri_handle_struct<'mw'>;
/** `ri_address_handle_t` (IB UD address handle). */
export type ri_address_handle_t = ri_handle_struct<'ah'>;
/**
 * `ri_mr_w_handle_t` (header `union ri_mr_w_handle`; the local-invalidate struct types it
 * `ri_mrw_handle_t`, Ch. 8 names the union `ri_mr_handle_t`): an MR or an MW handle. The run-time
 * kind tag tells which.
 */
export type ri_mr_w_handle_t = ri_mr_handle_t | ri_mw_handle_t;
/** Alias spelling used by the header's `ri_wr_local_invalidate` struct. */
export type ri_mrw_handle_t = ri_mr_w_handle_t;

/** Maps a handle kind to its handle type. */
export interface RiHandleByKind {
  vp: ri_vp_handle_t;
  rnic: ri_rnic_handle_t;
  pd: ri_pd_handle_t;
  cq: ri_cq_handle_t;
  qp: ri_qp_handle_t;
  srq: ri_srq_handle_t;
  mr: ri_mr_handle_t;
  mw: ri_mw_handle_t;
  ah: ri_address_handle_t;
}

/** Kind of a handle, or `undefined` if `x` is not an RNICPI handle. */
export function riHandleKind(x: unknown): RiHandleKind | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const k = (x as { [RI_HANDLE_KIND]?: unknown })[RI_HANDLE_KIND];
  return typeof k === 'string' ? (k as RiHandleKind) : undefined;
}

/** Type guard: `x` is a handle of kind `kind` (the AL's first validation step). */
export function isRiHandle<K extends RiHandleKind>(x: unknown, kind: K): x is RiHandleByKind[K] {
  return riHandleKind(x) === kind;
}

/**
 * `ri_svc_make_handle()` (Ch. 10.2 helper): tags `fields` as a handle of `kind` and returns it
 * (the same object). Providers that use classes can set the tag themselves instead.
 */
export function ri_svc_make_handle<K extends RiHandleKind, T extends object>(kind: K, fields: T): T & ri_handle_struct<K> {
  Object.defineProperty(fields, RI_HANDLE_KIND, { value: kind, enumerable: false, writable: false });
  return fields as T & ri_handle_struct<K>;
}

/** `ri_svc_ops()` (Ch. 10.2 helper): the ops vector of a VP or RNIC handle. */
export function ri_svc_ops(handle: ri_vp_handle_t | ri_rnic_handle_t): ri_ops_t {
  return handle.ops;
}

// =============================================================================================
// RNIC management types
// =============================================================================================

/** `ri_consumer_domain_t` (`RI_CONSUMER_LOCATION_` prefix): where the consumer of an RNIC handle lives. */
export enum RiConsumerDomain {
  KERNEL = 0,
  USER = 1,
}
export type ri_consumer_domain_t = RiConsumerDomain;

/** `ri_pbl_mode_t` (`RI_PHYS_` prefix): PBL mode fixed at `ri_rnic_open` until close. */
export enum RiPblMode {
  /** Power-of-two aligned pages of a power-of-two size. Hardware MUST support it. */
  PAGE_LIST_MODE = 0,
  /** Equal-length blocks of any supported size at byte-granular addresses. */
  BLOCK_LIST_MODE = 1,
}
export type ri_pbl_mode_t = RiPblMode;

/** `ri_rdma_transport_type_t` (`RI_RDMA_TRANSPORT_TYPE_` prefix). */
export enum RiTransportType {
  IB = 0,
  IWARP = 1,
}
export type ri_rdma_transport_type_t = RiTransportType;

/** `ri_rnic_flags_t` (`RI_RNIC_` prefix): capability bits of `ri_rnic_attr_t.rnic_flags`. */
export enum RiRnicFlags {
  /** Shared Receive Queues. */
  EXT_SRQ = 1 << 0,
  /** Base memory management extensions: `ri_ltag_alloc`, fast-register, local/remote invalidate, STag0, narrow windows. iWARP: always. */
  EXT_BMM = 1 << 1,
  /** Zero-based virtual addressing (requires BMM). iWARP: always. */
  EXT_ZBVA = 1 << 2,
  /** Local invalidate fencing (requires BMM). iWARP: always. */
  EXT_LIF = 1 << 3,
  /** Block-list PBL mode supported (requires BMM); otherwise page mode only. */
  EXT_BLOCK_MODE = 1 << 4,
  RQ_OVERFLOW_CHECKING = 1 << 5,
  CQ_OVERFLOW_CHECKING = 1 << 6,
  CAN_RESIZE_QP = 1 << 7,
  CAN_RESIZE_SRQ = 1 << 8,
  /** iWARP: an out-of-order receive also dequeues SRQ WQEs for the sequence gap. */
  SRQ_SEQ_DEQUEUE = 1 << 9,
  /** `RI_EVENT_QP_LAST_WQE_REACHED` is raised for QPs on an SRQ. */
  SRQ_LAST_WQE_ASYNC = 1 << 10,
  /** Safe to post to the SQ right after a successful modify to RTS (else wait for a receive). */
  SAFE_POST_ON_RTS = 1 << 11,
  WIDE_WINDOWS_SUPPORTED = 1 << 12,
  /** Index/key split also for virtual MRs (CONSUMER_OWNS_KEY) and wide windows. Header spells it `RI_RNIC_KEY_INDEX_KEY_SPLIT`. */
  EXT_INDEX_KEY_SPLIT = 1 << 13,
  CONSUMER0_OPAQUE = 1 << 14,
  CONSUMER1_OPAQUE = 1 << 15,
  CONSUMER2_OPAQUE = 1 << 16,
  /** Same bit as CONSUMER2_OPAQUE: local-solicited is only passed through (AL emulates the event). */
  LOCAL_SOLICITED_OPAQUE = 1 << 16,
  /** The RNIC really raises the local-solicited completion event. */
  LOCAL_SOLICITED_EVENT = 1 << 17,
  NON_COHERENT_MEMORY = 1 << 18,
}
/** Bitwise OR of {@link RiRnicFlags}. */
export type ri_rnic_flags_t = number;
/** Header spelling of {@link RiRnicFlags.EXT_INDEX_KEY_SPLIT}. */
export const RI_RNIC_KEY_INDEX_KEY_SPLIT = RiRnicFlags.EXT_INDEX_KEY_SPLIT;

/** `ri_iwarp_rnic_flags_t` (`RI_IWARP_` prefix). */
export enum RiIwarpRnicFlags {
  CAN_MODIFY_IRD = 1 << 0,
  CAN_INCREASE_ORD = 1 << 1,
  TCP_SUPPORTED = 1 << 2,
  SCTP_SUPPORTED = 1 << 3,
  /** IETF RNIC that can fall back to RDMAC (version 0) per QP. IETF without it = non-permissive. */
  IETF_PERMISSIVE = 1 << 4,
  /** MPA negotiation preference: markers. */
  PREFER_MARKERS = 1 << 5,
  /** MPA negotiation preference: CRC. */
  PREFER_CRC = 1 << 6,
  /** Keepalive control offered (no mechanism is defined by RNICPI 1.0; see spec-notes). */
  KEEPALIVE_SUPPORTED = 1 << 7,
}
/** Bitwise OR of {@link RiIwarpRnicFlags}. */
export type ri_iwarp_rnic_flags_t = number;

/** `ri_iwarp_port_attr_t`. Addresses are in Node's textual form (`'192.0.2.1'`, `'fe80::1'`). */
export interface ri_iwarp_port_attr_t {
  /** `struct in6_addr *`; `null` (and count 0) when the port has no IPv6 address. */
  readonly ipv6_addrs: readonly string[] | null;
  /** `struct in_addr *`; `null` (and count 0) when the port has no IPv4 address. */
  readonly ipv4_addrs: readonly string[] | null;
  readonly port_num: uint_t;
  readonly num_ipv4_addrs: uint_t;
  readonly num_ipv6_addrs: uint_t;
}

/** iWARP `protocol_version` values. */
export enum RiIwarpProtocolVersion {
  RDMAC = 0,
  IETF = 1,
}

/** `ri_iwarp_rnic_attr_t`. */
export interface ri_iwarp_rnic_attr_t {
  /** Array of `num_ports` entries; `null` unless `RI_QUERY_RNIC_PORT_INFO` was requested. */
  readonly port_attrs: readonly ri_iwarp_port_attr_t[] | null;
  /** {@link RiIwarpProtocolVersion}: RDMAC = 0, IETF = 1. */
  readonly protocol_version: uint_t;
  /** Always valid, even without port info. */
  readonly num_ports: uint_t;
  readonly iwarp_rnic_flags: ri_iwarp_rnic_flags_t;
}

// --- InfiniBand basics ------------------------------------------------------------------------

/** `ri_sl_t` (4 bits). */
export type ri_sl_t = number;
/** `ri_lmc_t`. */
export type ri_lmc_t = number;
/** `ri_lid_t` (`uint16_t`). */
export type ri_lid_t = number;
/** `ri_pkey_t` (`uint16_t`). */
export type ri_pkey_t = number;

/** `ri_gid_t`. */
export interface ri_gid_t {
  readonly gid_prefix: bigint;
  readonly gid_guid: bigint;
}

/** `ri_ib_port_state_t` (`RI_IB_LINK_` prefix; bit values). */
export enum RiIbPortState {
  DOWN = 1 << 1,
  INITIALIZE = 1 << 2,
  ARM = 1 << 3,
  /** Transient. */
  ACT_DEFER = 1 << 4,
  /** "Up". */
  ACTIVE = 1 << 5,
}
export type ri_ib_port_state_t = RiIbPortState;
/** `RI_IB_PORT_DOWN`: how IB verbs define "port down". */
export const RI_IB_PORT_DOWN = RiIbPortState.DOWN | RiIbPortState.INITIALIZE | RiIbPortState.ARM;
/** `RI_IB_PORT_UP`. */
export const RI_IB_PORT_UP = RiIbPortState.ACT_DEFER | RiIbPortState.ACTIVE;

/** `ri_ib_mtu_t` (`RI_IB_MTU_` prefix). */
export enum RiIbMtu {
  MTU_256 = 1,
  MTU_512 = 2,
  MTU_1K = 3,
  MTU_2K = 4,
  MTU_4K = 5,
}
export type ri_ib_mtu_t = RiIbMtu;

/** `ri_ib_port_flags_t` (`RI_IB_PORT_` prefix; PortInfo capability-mask bit positions). */
export enum RiIbPortFlags {
  SM = 1 << 0,
  SM_DISABLED = 1 << 10,
  SNMP_TUNNEL = 1 << 17,
  DEV_MGT = 1 << 19,
  VENDOR_CLASS = 1 << 20,
  CLIENT_REREG = 1 << 25,
}
/** Bitwise OR of {@link RiIbPortFlags}. */
export type ri_ib_port_flags_t = number;

/** `ri_ib_port_attr_t`. */
export interface ri_ib_port_attr_t {
  /** Valid in armed/active. */
  readonly src_gid_table: readonly ri_gid_t[] | null;
  /** Valid in armed/active. */
  readonly pkey_table: readonly ri_pkey_t[] | null;
  readonly max_msg_size: number;
  readonly max_mtu: ri_ib_mtu_t;
  /** Header spelling: `ib_port_state`. */
  readonly port_state: ri_ib_port_state_t;
  readonly ib_port_flags: ri_ib_port_flags_t;
  readonly base_lid: ri_lid_t;
  /** 0xFFFF unless armed/active. */
  readonly sm_lid: ri_lid_t;
  /** 0 if unsupported. */
  readonly bad_pkey_count: number;
  /** 0 if unsupported. */
  readonly bad_qkey_count: number;
  readonly src_gid_table_size: number;
  readonly lmc: ri_lmc_t;
  readonly max_vls: number;
  readonly sm_sl: ri_sl_t;
  readonly subnet_timeout: number;
  /** 0 if unsupported. */
  readonly init_type_reply: number;
  /** softrdma extension: the port's active MTU (RNICPI 1.0 reports only `max_mtu`). */
  readonly sr_active_mtu?: ri_ib_mtu_t;
  /** softrdma extension: the link layer under the IB transport (RoCE: Ethernet). */
  readonly sr_link_layer?: 'infiniband' | 'ethernet';
  /** softrdma extension: the type of each entry of `src_gid_table`. */
  readonly sr_gid_types?: readonly RiSrGidType[];
}

/** softrdma extension: GID types (values as `enum ibv_gid_type`; RoCE v2 is IBTA Annex A17). */
export enum RiSrGidType {
  IB = 0,
  ROCE_V1 = 1,
  ROCE_V2 = 2,
}

/** `ri_ib_rnic_flags_t` (`RI_IB_` prefix). */
export enum RiIbRnicFlags {
  APM = 1 << 0,
  RNR_NAK = 1 << 1,
  AH_PORT_CHECK = 1 << 2,
  CAN_CHANGE_PRIMARY_PORT = 1 << 3,
  CAN_CURRENT_QP_STATE = 1 << 4,
  ATOMICS = 1 << 5,
  ATOMICS_ALL_COMPONENTS = 1 << 6,
  TYPE_2B_WINDOWS = 1 << 7,
  MULTIPLE_BLOCK_SIZES_PER_REGION = 1 << 8,
  UD_MULTICAST = 1 << 9,
  PORT_ACTIVE_EVENT = 1 << 10,
  SHUTDOWN_PORT = 1 << 11,
  PKEY_CNTR = 1 << 12,
  QKEY_CNTR = 1 << 13,
  SI_GUID = 1 << 14,
  INIT_TYPE = 1 << 15,
}
/** Bitwise OR of {@link RiIbRnicFlags}. */
export type ri_ib_rnic_flags_t = number;

/** `ri_ib_rnic_attr_t`. */
export interface ri_ib_rnic_attr_t {
  readonly max_mr_size: bigint;
  readonly node_guid: bigint;
  /** 0 if unsupported. */
  readonly system_image_guid: bigint;
  /** Array of `num_ports` entries; `null` without `RI_QUERY_RNIC_PORT_INFO`. */
  readonly port_attrs: readonly ri_ib_port_attr_t[] | null;
  readonly ib_rnic_flags: ri_ib_rnic_flags_t;
  readonly max_addr_hdls: uint_t;
  readonly max_mcgs: uint_t;
  readonly max_multicast_qps: number;
  readonly max_qps_per_mcg: number;
  /** ≥ 1; the same for every port. */
  readonly partition_table_size: number;
  readonly num_ports: number;
  /** 5 bits. */
  readonly local_ack_delay: number;
}

/** `ri_transport_attr_ptr_t`: union `{ ib | iwarp }`, selected by `transport_type`. */
export type ri_transport_attr_ptr_t = { readonly ib: ri_ib_rnic_attr_t } | { readonly iwarp: ri_iwarp_rnic_attr_t };

/** Fields of `ri_rnic_attr_t` other than the transport discriminant and the transport struct. */
export interface ri_rnic_attr_common_t {
  /** Bit i set ⇒ page size 2^i supported (page mode only). */
  readonly mem_page_sizes_bit_mask: bigint;
  /** Block mode only. */
  readonly block_size_low: bigint;
  /** Block mode only. */
  readonly block_size_hi: bigint;
  readonly vendor_id: number;
  readonly vendor_part_id: number;
  readonly hw_version: number;
  /** Reserved L_Key / STag0 value (`#define stag0_value res_ltag_value`); iWARP: 0. */
  readonly res_ltag_value: ri_ltag_t;
  readonly max_pds: uint_t;
  readonly max_qps: number;
  readonly max_wrs_qp: uint_t;
  /** 0 if SRQs unsupported. */
  readonly max_srq: uint_t;
  /** 0 if SRQs unsupported. */
  readonly max_wrs_srq: uint_t;
  /** iWARP: == `max_sgl_srq` and ≥ 4. */
  readonly max_sgl_send_recvqp: uint_t;
  readonly max_sgl_srq: uint_t;
  readonly max_sgl_rdma_write: uint_t;
  /** RDMAC-only iWARP RNIC: 1. */
  readonly max_sgl_rdma_read: uint_t;
  /** 0 = no inline support. */
  readonly max_unregistered_inline: number;
  readonly max_cqs: uint_t;
  readonly max_cqes_per_cq: uint_t;
  readonly max_cq_event_handlers: uint_t;
  readonly max_mrs: uint_t;
  readonly max_mws: uint_t;
  readonly max_pbl_size: uint_t;
  readonly max_ird: uint_t;
  readonly max_ird_per_qp: uint_t;
  readonly max_ord: uint_t;
  readonly max_ord_per_qp: uint_t;
  readonly rnic_flags: ri_rnic_flags_t;
  /** `char addl_vendor_info[RI_MAX_VENDOR_STRING_LEN]` (at most 63 characters). */
  readonly addl_vendor_info: string;
  /**
   * softrdma extension (RNICPI 1.0 has no atomic capability for iWARP): what the RNIC's atomic
   * executor offers. `atomic_cap`: 0 none, 1 atomic with respect to this RNIC (ibverbs
   * `IBV_ATOMIC_HCA`); `ext_atomic_arg_sizes`: the extended-atomic operand sizes (bit mask of
   * octet counts, the manual's §8.7); `max_fa_bit_boundary`: log2 of the largest Fetch-and-Add
   * field in octets. On iWARP they reach only peers that negotiated RFC 7306.
   */
  readonly softrdma_atomics?: { readonly atomic_cap: number; readonly ext_atomic_arg_sizes: number; readonly max_fa_bit_boundary: number };
}

/**
 * `ri_rnic_attr_t` as returned by `ri_rnic_query`: `trans_attr` holds the member selected by
 * `transport_type`. `stag0_value` is the spec's `#define` alias of `res_ltag_value`.
 */
export type ri_rnic_attr_t = ri_rnic_attr_common_t &
  (
    | {
        readonly transport_type: RiTransportType.IWARP;
        readonly trans_attr: { readonly iwarp: ri_iwarp_rnic_attr_t };
      }
    | {
        readonly transport_type: RiTransportType.IB;
        readonly trans_attr: { readonly ib: ri_ib_rnic_attr_t };
      }
  );

/** `ri_rnic_query_flags_t`. */
export enum RiRnicQueryFlags {
  /** `RI_QUERY_RNIC_PORT_INFO`: also return per-port attributes and address lists. */
  PORT_INFO = 1 << 0,
}
/** Bitwise OR of {@link RiRnicQueryFlags}. */
export type ri_rnic_query_flags_t = number;
export const RI_QUERY_RNIC_PORT_INFO = RiRnicQueryFlags.PORT_INFO;

/** `ri_rnic_attr_mask_t` (`RI_IB_RNIC_ATTR_` prefix), for `ri_rnic_modify` (IB only). */
export enum RiRnicAttrMask {
  SI_GUID = 1 << 0,
}
export type ri_rnic_attr_mask_t = number;

/** `ri_port_attr_mask_t` (`RI_IB_PORT_ATTR_` prefix). */
export enum RiPortAttrMask {
  SHUTDOWN = 1 << 0,
  INIT_TYPE = 1 << 1,
  QKEY_RESET = 1 << 2,
  CAP_SET = 1 << 3,
  CAP_FLAG_SM = 1 << 4,
  CAP_FLAG_SNMP = 1 << 5,
  CAP_FLAG_DEVMGT = 1 << 6,
  CAP_FLAG_VENDOR = 1 << 7,
}
export type ri_port_attr_mask_t = number;

/** `RI_IB_ALL_PORTS`: `port_number` 0 in `ri_port_modify_req_t` means every port. */
export const RI_IB_ALL_PORTS = 0;

/** `ri_port_modify_req_t`. */
export interface ri_port_modify_req_t {
  readonly port_attr_mask: ri_port_attr_mask_t;
  readonly port_number: number;
  /** 4 bits. */
  readonly port_init_type: number;
}

/** `ri_rnic_modify_req_t`. `port_list_size` defaults to `port_attrs.length`. */
export interface ri_rnic_modify_req_t {
  readonly si_guid: bigint;
  readonly port_attrs: readonly ri_port_modify_req_t[] | null;
  readonly port_list_size?: number;
}

/** `ri_diag_op_type_t` (`RI_DIAG_` prefix), for `ri_rnic_diag`. Every op is optional (`OP_UNSUPPORTED`). */
export enum RiDiagOpType {
  /** Printable ASCII RNIC state, counters, prior-call error detail. `arg` ignored. */
  RNIC_DETAILS = 0,
  /** Printable ASCII state/counters of the QP whose handle is `arg`. */
  QP_DETAILS = 1,
  /** Dump of internal memory, contexts, traces. `arg` ignored. */
  RNIC_DUMP = 2,
  /** Reset the RDMA interface (consumers may be shut down); `arg`/`opval`/`oplen` ignored. */
  RDMA_RESET = 3,
}
export type ri_diag_op_type_t = RiDiagOpType;

// =============================================================================================
// SVC-RNICPI types
// =============================================================================================

/**
 * `ri_svcs_dev_arg_t` (header: `ri_services_dev_arg_t`): what a kVP tells the AL in
 * `ri_svc_attach`.
 */
export interface ri_svcs_dev_arg_t {
  readonly rnicpi_major_version: number;
  readonly rnicpi_minor_version: number;
  readonly fw_major_version: number;
  readonly fw_minor_version: number;
  readonly fw_sub_minor_version: number;
  /** A notional buffer size big enough for a full `ri_rnic_query` incl. port info (see `ri_rnic_query`). */
  readonly query_size: uint_t;
  /** uVP library; in softrdma an ES module specifier for `import()`. < RI_MAX_LIB_PATH_LEN chars. */
  readonly lib_path: string;
  /** Hardware path (diagnostics / persistent id). < RI_MAX_HW_PATH_LEN chars. */
  readonly hw_path: string;
}
/** Header spelling of {@link ri_svcs_dev_arg_t}. */
export type ri_services_dev_arg_t = ri_svcs_dev_arg_t;

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
export enum RiAsyncEventType {
  // iWARP-only events
  QP_LLQ_CLOSE_COMPLETE = 0,
  QP_TERMINATE_MESSAGE_RECEIVED = 1,
  QP_LLQ_CONNECTION_RESET = 2,
  QP_LLQ_CONNECTION_LOST = 3,
  QP_LLQ_INTEGRITY_ERROR_SIZE = 4,
  QP_LLQ_INTEGRITY_ERROR_CRC = 5,
  QP_LLQ_INTEGRITY_ERROR_BAD_FPDU = 6,
  QP_REMOTE_OP_ERROR_DDP_VERSION = 7,
  QP_REMOTE_OP_ERROR_RDMA_VERSION = 8,
  QP_REMOTE_OP_ERROR_OPCODE = 9,
  QP_REMOTE_OP_ERROR_DDP_QN = 10,
  QP_REMOTE_OP_ERROR_RDMA_RD_DISABLED = 11,
  QP_REMOTE_OP_ERROR_RDMA_WR_RD_RESP_DISABLED = 12,
  QP_REMOTE_OP_ERROR_RDMA_RD_INVALID = 13,
  QP_REMOTE_OP_ERROR_NO_L_BIT = 14,
  QP_PROTECTION_ERROR_STAG_QP_MISMATCH = 15,
  QP_PROTECTION_ERROR_BOUNDS_VIOLATION = 16,
  QP_PROTECTION_ERROR_ACCESS_VIOLATION = 17,
  QP_PROTECTION_ERROR_INVALID_PD = 18,
  QP_PROTECTION_ERROR_WRAP_ERROR = 19,
  /** Header: `RI_EVENT_TYPE_BAD_CLOSE`. */
  QP_BAD_CLOSE = 20,
  QP_BAD_LLQ_CLOSE = 21,
  QP_RQ_PROTECTION_ERROR_INVALID_MSN = 22,
  QP_RQ_PROTECTION_ERROR_MSN_GAP = 23,
  /** Spelled exactly as on the Ch. 7 page; header: `..._TOO_MANY_RDMA_READS`. */
  QP_IRRQ_PROTECTION_ERROR_TOO_MANY_RDMA_RDs = 24,
  QP_IRRQ_PROTECTION_ERROR_MSN_GAP = 25,
  QP_IRRQ_PROTECTION_ERROR_INVALID_MSN = 26,
  QP_IRRQ_PROTECTION_ERROR_INVALID_STAG = 27,
  QP_IRRQ_PROTECTION_ERROR_BOUNDS_VIOLATION = 28,
  QP_IRRQ_PROTECTION_ERROR_ACCESS_VIOLATION = 29,
  QP_IRRQ_PROTECTION_ERROR_INVALID_PD = 30,
  QP_IRRQ_PROTECTION_ERROR_WRAP_ERROR = 31,
  QP_CQ_SQ_ERROR = 32,
  QP_CQ_RQ_ERROR = 33,
  /** Optional for iWARP. */
  CQ_OVERFLOW_DETECTED = 34,
  CQ_OP_ERROR = 35,
  QP_SRQ_ERROR = 36,
  QP_LOCAL_CATASTROPHIC_ERROR = 37,
  QP_RQ_LIMIT_REACHED = 38,

  // common events
  SRQ_LIMIT_REACHED = 39,
  SRQ_CATASTROPHIC_ERROR = 40,
  /** RNIC-level fatal error not tied to a QP/CQ/SRQ/port; `resource_os_data` = `ri_rnic_open` os_data. */
  LOCAL_CATASTROPHIC_ERROR = 41,
  /** Header enum alias of LOCAL_CATASTROPHIC_ERROR (same value, 41). */
  // biome-ignore lint/suspicious/noDuplicateEnumValues: spec enum alias (header defines it equal to LOCAL_CATASTROPHIC_ERROR)
  RNIC_LOCAL_CATASTROPHIC_ERROR = 41,
  /** Optional for iWARP (see `RI_RNIC_SRQ_LAST_WQE_ASYNC`). Value 42, not 43 (the alias above reuses 41). */
  QP_LAST_WQE_REACHED = 42,

  // IB-specific events
  /** Header: `RI_EVENT_TYPE_QP_PATH_MIGRATED`. */
  QP_PATH_MIGRATED = 43,
  /** Header: `RI_EVENT_TYPE_QP_COMMUNICATION_ESTABLISHED`. */
  QP_COMMUNICATION_ESTABLISHED = 44,
  /** Header: `RI_EVENT_TYPE_QP_SEND_QUEUE_DRAINED`. */
  QP_SEND_QUEUE_DRAINED = 45,
  CQ_ERROR = 46,
  QP_LOCAL_WQ_CATASTROPHIC_ERROR = 47,
  QP_INVALID_REQ_LOCAL_WQ_ERROR = 48,
  QP_LOCAL_ACCESS_VIOLATION_WQ_ERROR = 49,
  QP_PATH_MIG_REQ_ERROR = 50,
  /** Unaffiliated IB port state change; `event_data.port_event`. */
  PORT_EVENT = 51,
  CLIENT_REG_EVENT = 52,
}
export type ri_async_event_type_t = RiAsyncEventType;

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

/** Which object an async event is affiliated with, which fixes what `resource_os_data` is. */
export type RiEventResource = 'qp' | 'cq' | 'srq' | 'rnic' | 'port';

/**
 * The event-class rule of `ri_async_set_event_handler` (Ch. 7): `QP_*` → the QP's
 * `ri_qp_create` os_data; `CQ_*` → the CQ's `ri_cq_create` os_data; `SRQ_*` → the SRQ's
 * `ri_srq_create` os_data; `PORT_EVENT` → `port_event` (no os_data); anything else
 * (`LOCAL_CATASTROPHIC_ERROR`, `CLIENT_REG_EVENT`) → the `ri_rnic_open` os_data.
 */
export function riEventResource(type: RiAsyncEventType): RiEventResource {
  if (type === RiAsyncEventType.PORT_EVENT) return 'port';
  const name = RiAsyncEventType[type] ?? '';
  if (name.startsWith('QP_')) return 'qp';
  if (name.startsWith('CQ_')) return 'cq';
  if (name.startsWith('SRQ_')) return 'srq';
  return 'rnic';
}

/** `ri_ib_port_event_t`. */
export interface ri_ib_port_event_t {
  /** 0 = unknown port. */
  readonly port_number: number;
  readonly port_state: ri_ib_port_state_t;
  /**
   * softrdma extension: the event reports a change of the port's GID table (an address came or
   * went on a RoCEv2 port), not of its link state; `port_state` is the current state. RNICPI 1.0
   * has no GID-change event; ibverbs reports this one as `IBV_EVENT_GID_CHANGE`.
   */
  readonly sr_gid_change?: boolean;
}

/** `ri_event_data_t`: union `{ port_event | resource_os_data }`. */
export type ri_event_data_t = { readonly port_event: ri_ib_port_event_t } | { readonly resource_os_data: ri_os_data_t };

/** `ri_event_record_t`, discriminated on `event_type`. */
export type ri_event_record_t =
  | {
      readonly event_type: RiAsyncEventType.PORT_EVENT;
      readonly event_data: { readonly port_event: ri_ib_port_event_t };
      readonly err_data: ri_err_data_t;
    }
  | {
      readonly event_type: Exclude<RiAsyncEventType, RiAsyncEventType.PORT_EVENT>;
      readonly event_data: { readonly resource_os_data: ri_os_data_t };
      readonly err_data: ri_err_data_t;
    };

/**
 * `ri_async_event_callback_t`: the single Asynchronous Event Handler of an RNIC.
 * `vp_hdl_os_data` is the `os_data` given to `ri_rnic_open`.
 */
export type ri_async_event_callback_t = (vp_hdl_os_data: ri_os_data_t, event: ri_event_record_t) => void;

/**
 * `ri_cq_event_callback_t`: a Completion Event Handler. `vp_hdl_os_data` from `ri_rnic_open`,
 * `cq_os_data` from the CQ's `ri_cq_create`. The handler must poll to get the WCs.
 */
export type ri_cq_event_callback_t = (vp_hdl_os_data: ri_os_data_t, cq_os_data: ri_os_data_t) => void;

/** `ri_cq_event_handler_id_t` (`uint_t`): 0 means "no handler" / "allocate a new ID". */
export type ri_cq_event_handler_id_t = number;

/** `ri_cmplt_notify_type_t` (`RI_CMPLT_NOTIFY_` prefix). */
export enum RiCmpltNotifyType {
  /** Next solicited completion: SE-flagged receive, local-solicited WR, or *any unsuccessful* WC. */
  SOLICITED = 0,
  /** Next completion of any kind (takes precedence over SOLICITED). */
  ANY = 1,
}
export type ri_cmplt_notify_type_t = RiCmpltNotifyType;

// =============================================================================================
// Completion queues
// =============================================================================================

/** `ri_cq_attr_t`. */
export interface ri_cq_attr_t {
  /** In: requested entries; out: actual (≥ requested). */
  readonly num_cqe: number;
  /** CEH ID from `ri_cq_set_event_handler`; 0 = none (always 0 for non-privileged consumers). */
  readonly handler_id: ri_cq_event_handler_id_t;
}

/** `ri_cq_modify_mask_t`. */
export enum RiCqModifyMask {
  /** `RI_CQ_MODIFY_MASK_NUM_CQE`: resize. */
  NUM_CQE = 0x1,
}
export type ri_cq_modify_mask_t = number;

// =============================================================================================
// Memory
// =============================================================================================

/** `ri_stag_state_t` (`RI_STAG_STATE_` prefix). */
export enum RiStagState {
  INVALID = 0,
  VALID = 1,
}
export type ri_stag_state_t = RiStagState;

/**
 * `ri_mem_attr_t` (`RI_MEM_FLAGS_` prefix): access rights and registration modifiers, OR-ed.
 * Ch. 7 also spells `RI_MEM_ACCESS_REMOTE_WRITE/READ`, `RI_MEM_CONSUMER_OWNS_KEY`,
 * `RI_MEM_FLAGS_ATOMIC` (aliases below).
 */
export enum RiMemFlags {
  /** Always implied; cosmetic. */
  LOCAL_READ = 1 << 0,
  LOCAL_WRITE = 1 << 1,
  LOCAL = (1 << 0) | (1 << 1),
  REMOTE_WRITE = 1 << 2,
  REMOTE_READ = 1 << 3,
  REMOTE = (1 << 2) | (1 << 3),
  /** Remote atomics (irrelevant without atomics support). */
  ATOMICS = 1 << 4,
  /** The MR may host window binds. */
  BINDING = 1 << 5,
  /** Index/key split: the consumer sets the 8-bit key (LSB) of the tag. */
  CONSUMER_OWNS_KEY = 1 << 6,
  /** Zero-based virtual addressing: TOs are offsets from the region start. */
  ZBVA = 1 << 7,
  /** Waive coherency; use `ri_mem_sync_rread/rwrite` (needs `RI_RNIC_NON_COHERENT_MEMORY`). */
  NONCOHERENT = 1 << 8,
  /** `va` is in the user address space tied to the RNIC handle (else kernel). */
  USER_VA = 1 << 9,
  /** `ri_mr_reg_shared` only: `va` is an I/O virtual address. */
  SHARED_REG_IOVA = 1 << 10,
}
/** Bitwise OR of {@link RiMemFlags}. */
export type ri_mem_attr_t = number;
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
export enum RiAddrType {
  VA_BASED = 0,
  ZERO_BASED = 1,
}
/** Addressing type implied by a `ri_mem_attr_t`. */
export function riAddrType(mem_attr: ri_mem_attr_t): RiAddrType {
  return (mem_attr & RiMemFlags.ZBVA) !== 0 ? RiAddrType.ZERO_BASED : RiAddrType.VA_BASED;
}

/** Splits a 32-bit STag (LTag/RTag) into its 24-bit index and 8-bit key. */
export function riStagSplit(stag: number): { index: number; key: number } {
  return { index: (stag >>> 8) & 0xff_ffff, key: stag & 0xff };
}
/** Builds a 32-bit STag from a 24-bit index and an 8-bit key. */
export function riStagMake(index: number, key: number): number {
  return (((index & 0xff_ffff) << 8) | (key & 0xff)) >>> 0;
}

/** `ri_phys_buf_t`: one variable-length PBL entry (also the output of `ri_mem_map`). */
export interface ri_phys_buf_t {
  readonly phys_address: ri_phys_addr_t;
  readonly phys_len: ri_phys_buf_len_t;
}

/** `ri_mr_rereg_t` (`RI_MR_REREG_` prefix): what `ri_mr_rereg(_phys)` changes. */
export enum RiMrRereg {
  TRANSLATE = 1 << 0,
  PD = 1 << 1,
  ACCESS = 1 << 2,
}
/** Bitwise OR of {@link RiMrRereg}. */
export type ri_mr_rereg_t = number;

/** `ri_mr_reg_attr_t`. */
export interface ri_mr_reg_attr_t {
  /** Start: a VA (user or kernel per `RI_MEM_FLAGS_USER_VA`; an IOVA with `SHARED_REG_IOVA`). */
  readonly va: ri_addr_t;
  readonly length: ri_length_t;
  readonly mem_attr: ri_mem_attr_t;
  readonly pd: ri_pd_handle_t;
}

/**
 * `ri_mr_reg_phys_attr_t`. With `pble_size` ≠ 0, `phys_buf_list` is a page/block list: `nbufs`
 * addresses of equal-size (`pble_size`) pages (page mode) or blocks (block mode). With
 * `pble_size` = 0, it is a list of variable-length {@link ri_phys_buf_t}. `address_offset` is the
 * First Byte Offset into the first buffer. `nbufs` defaults to `phys_buf_list.length`; it must
 * not exceed it. Queries never return `phys_buf_list`.
 */
export interface ri_mr_reg_phys_attr_t {
  readonly common: ri_mr_reg_attr_t;
  readonly phys_buf_list: readonly ri_phys_addr_t[] | readonly ri_phys_buf_t[];
  readonly nbufs?: uint_t;
  readonly pble_size: uint_t;
  readonly address_offset: uint_t;
}

/** `ri_mr_info_t`, the output of `ri_mr_query`. */
export interface ri_mr_info_t {
  readonly attr: ri_mr_reg_attr_t;
  readonly ltag: ri_ltag_t;
  readonly rtag: ri_rtag_t;
  /** False ⇒ no page-table sharing; only non-shared regions can be invalidated / fast-registered. */
  readonly is_shared_region: boolean;
  /** Bounds actually enforced, in the caller's address domain. */
  readonly local_lb: ri_addr_t;
  readonly local_ub: ri_addr_t;
  /** Valid only with remote access. */
  readonly remote_lb: ri_addr_t;
  readonly remote_ub: ri_addr_t;
  readonly stag_state: ri_stag_state_t;
}

/** `ri_mw_type_t` (`RI_MW_` prefix). */
export enum RiMwType {
  /** Wide: valid on all QPs of the PD. IB MUST, iWARP MAY (`RI_RNIC_WIDE_WINDOWS_SUPPORTED`). */
  TYPE_1 = 0,
  // biome-ignore lint/suspicious/noDuplicateEnumValues: spec enum alias of TYPE_1
  TYPE_WIDE = 0,
  /** Narrow: valid only on the QP that bound it. iWARP MUST. */
  TYPE_2 = 1,
  TYPE_NARROW = 1,
}
export type ri_mw_type_t = RiMwType;

/**
 * `ri_data_seg_t` (an SGE). The C unions are flattened:
 * - `addr` is `addr.vaddr` (VA-based region/window), `addr.paddr` (STag0: physical address) or
 *   `addr.offset` (ZBVA region/window), depending on what `tag` names;
 * - `tag` is `tag.ltag` (an MR's LTag; `stag0_value` for STag0) or `tag.rtag` (an MW used as the
 *   data sink of an iWARP RDMA Read — windows have no LTag).
 */
export interface ri_data_seg_t {
  readonly addr: ri_addr_t;
  readonly tag: ri_ltag_t | ri_rtag_t;
  readonly len: number;
}
/** Common name for {@link ri_data_seg_t}. */
export type ri_sge_t = ri_data_seg_t;

// =============================================================================================
// Shared receive queues
// =============================================================================================

/** `ri_srq_attr_t`. */
export interface ri_srq_attr_t {
  /** In: expected; out: allowed (≥ requested). */
  readonly max_wrs: number;
  /** In: expected; out: allowed (≥ requested). Not modifiable. */
  readonly max_sgl: number;
  /** Limit: when available WQEs ≤ lowat → `RI_EVENT_SRQ_LIMIT_REACHED` (once per arming). Non-zero arms. */
  readonly lowat: number;
  /** Not modifiable. */
  readonly pd: ri_pd_handle_t;
  /** Output only. */
  readonly srq_armed: boolean;
}
/** Input of `ri_srq_create`: every field but the output-only `srq_armed`. */
export type ri_srq_create_attr_t = Omit<ri_srq_attr_t, 'srq_armed'>;
/** Input of `ri_srq_modify`: only the masked fields are read (`max_wrs`, `lowat`). */
export type ri_srq_modify_attr_t = Partial<Pick<ri_srq_attr_t, 'max_wrs' | 'lowat'>>;

/** `ri_srq_attr_mask_t` (`RI_SRQ_ATTR_` prefix). */
export enum RiSrqAttrMask {
  /** Only with `RI_RNIC_CAN_RESIZE_SRQ`. */
  MAX_WRS = 1 << 0,
  /** Setting a value > 0 arms the limit. */
  LOWAT = 1 << 1,
}
export type ri_srq_attr_mask_t = number;

// =============================================================================================
// Queue pairs
// =============================================================================================

/** `ri_svc_type_t` (`RI_SERVICE_` prefix). */
export enum RiSvcType {
  RELIABLE_CONNECTION = 0,
  UNRELIABLE_DATAGRAM = 1,
  /**
   * softrdma extension: IB Unreliable Connection (IBTA Vol. 1 §9.8.1). RNICPI 1.0 names RC and
   * UD only; a softrdma RoCEv2 RNIC also creates UC QPs (see docs/spec-notes.md).
   */
  SR_UNRELIABLE_CONNECTION = 2,
}
export type ri_svc_type_t = RiSvcType;

/** `ri_qp_state_t` (`RI_QP_STATE_` prefix). A state not valid for the transport fails the modify. */
export enum RiQpState {
  IDLE = 0,
  READY_TO_SEND = 1,
  ERROR = 2,
  /** iWARP only. */
  TERMINATE = 3,
  /** iWARP only. */
  CLOSING = 4,
  /** IB only. */
  SEND_QUEUE_ERROR = 5,
  /** IB only. */
  INITIALIZED = 6,
  /** IB only. */
  READY_TO_RECEIVE = 7,
  /** IB only. */
  SEND_QUEUE_DRAINING = 8,
  /** IB only. */
  SEND_QUEUE_DRAINED = 9,
  /** IB only. */
  TIMEWAIT = 10,
}
export type ri_qp_state_t = RiQpState;

/** `ri_path_migration_state_t` (`RI_MIG_STATE_` prefix). */
export enum RiMigState {
  MIGRATED = 0,
  REARM = 1,
  ARMED = 2,
}
export type ri_path_migration_state_t = RiMigState;

/** MPA `ddp_rdma_version` values (DDP and RDMAP header version). */
export enum RiDdpRdmaVersion {
  RDMAC = 0,
  IETF = 1,
}

/**
 * `ri_mpa_attr_t`: per-QP MPA/DDP/RDMAP settings for the conversion to RDMA mode. All four
 * fields must be given when `RI_QP_ATTR_MPA_ATTR` is set; only before RDMA mode.
 */
export interface ri_mpa_attr_t {
  /** Expect/accept markers in received FPDUs (Ch. 8 spelling: `rcv_marker_enabled`). */
  readonly recv_marker_enabled: boolean;
  /** Insert markers in transmitted FPDUs. */
  readonly xmit_marker_enabled: boolean;
  /** Generate and check CRCs (false: must not check, need not generate). */
  readonly crc_enabled: boolean;
  /** {@link RiDdpRdmaVersion}: 0 (RDMAC) or 1 (IETF). */
  readonly ddp_rdma_version: number;
}

/** `ri_iwarp_qp_attr_t`. */
export interface ri_iwarp_qp_attr_t {
  /** Create only. */
  readonly enable_bind: boolean;
  /** `char[52]`: the Terminate message (valid in Terminate/Error); query only. */
  readonly terminate_buffer: Uint8Array;
  readonly terminate_msg_length: number;
  /** True if the Terminate message was generated locally. */
  readonly is_terminate_local: boolean;
  /** Modify only (`RI_QP_ATTR_LLQ_STREAM_HANDLE`); query returns the current (possibly new) handle, `null` if never set. */
  readonly llp_stream_handle: ri_llp_stream_handle_t;
  /** Header spelling: `mpa_attrs`. */
  readonly mpa_attributes: ri_mpa_attr_t;
  /** Last streaming-mode message (e.g. the MPA reply), Idle→RTS only; query returns `null`. */
  readonly stream_msg_buf: Uint8Array | null;
  /** Defaults to `stream_msg_buf.length` on input. */
  readonly stream_msg_buf_length: number;
  /** QP RQ limit on an SRQ: create 0 ⇒ disarmed; modify 0 ⇒ fire on first SRQ WR consumed since arming. */
  readonly rq_hiwat: number;
  readonly rq_armed: boolean;
}

/** `ri_gen_address_vector_t` (IB). */
export interface ri_gen_address_vector_t {
  readonly sl: ri_sl_t;
  readonly send_global_routing_hdr_flg: number;
  readonly hop_limit: number;
  readonly source_gid_index: number;
  readonly flow_label: number;
  readonly dgid: ri_gid_t;
  readonly dlid: ri_lid_t;
  readonly traffic_class: number;
  readonly max_static_rate: number;
  readonly source_path_bits: number;
}

/** `ri_path_address_info_t` (IB). For UD only `pkey_index` and `physical_port` matter. */
export interface ri_path_address_info_t {
  readonly pkey_index: number;
  readonly physical_port: number;
  readonly path_mtu: number;
  readonly local_ack_timeout: number;
  readonly retry_count: number;
  readonly rnr_retry_count: number;
  readonly av: ri_gen_address_vector_t;
}

/** `ri_ib_qp_attr_t`. Header spells `rcv_psn`, `rcv_qkey`. */
export interface ri_ib_qp_attr_t {
  readonly send_psn: number;
  /** Selectable signalling (create only). */
  readonly signal_completions: boolean;
  /** Create only. */
  readonly trans_type: ri_svc_type_t;
  readonly enable_async_notify_for_sqd: number;
  readonly primary_av: ri_path_address_info_t;
  readonly recv_psn: number;
  readonly dest_qpn: number;
  readonly min_rnrnak_timer: number;
  readonly alternate_av: ri_path_address_info_t;
  readonly mig_state: ri_path_migration_state_t;
  readonly enable_atomic: boolean;
  readonly current_state: ri_qp_state_t;
  readonly recv_qkey: number;
  /**
   * softrdma extension (input of `ri_qp_modify` with {@link RiQpAttrMask.SR_IBTA_ATTRS}): the IBTA
   * Modify QP components the call carries (IBTA Vol. 1 §11.2.4.2; bit values as
   * `enum ibv_qp_attr_mask`), each read from its field of this struct or of `ri_qp_attr_in_t`.
   * RNICPI 1.0's mask bundles the primary path's members into one bit; this names them one by one.
   */
  readonly sr_ibta_mask?: number;
}

/**
 * `ri_qp_attr_t` — the full attribute set, as `ri_qp_query` returns it. `scq`/`rcq`/`srq` are the
 * C unions: at create the caller gives the *handle* member; query returns the *os_data* member
 * (the `os_data` of the CQ/SRQ's create call), never the handle.
 */
export interface ri_qp_attr_t {
  /** Output: the QP number. */
  readonly qp_id: number;
  readonly scq: { readonly scq_handle: ri_cq_handle_t } | { readonly scq_os_data: ri_os_data_t };
  readonly rcq: { readonly rcq_handle: ri_cq_handle_t } | { readonly rcq_os_data: ri_os_data_t };
  /** Meaningful only when `srq_valid`. */
  readonly srq: { readonly srq_handle: ri_srq_handle_t } | { readonly srq_os_data: ri_os_data_t } | null;
  readonly pd: ri_pd_handle_t;
  readonly sq_size: number;
  readonly rq_size: number;
  readonly srq_valid: boolean;
  readonly sq_max_sges: number;
  readonly sq_max_sges_rdmaw: number;
  readonly rq_max_sges: number;
  readonly state: ri_qp_state_t;
  readonly enable_rdma_read: boolean;
  readonly enable_rdma_write: boolean;
  /** ORD. */
  readonly max_rdma_read_outgoing: number;
  /** IRD. */
  readonly max_rdma_read_incoming: number;
  readonly enable_stag0_fastreg: boolean;
  readonly qp_xport: { readonly qp_iwarp: ri_iwarp_qp_attr_t } | { readonly qp_ib: ri_ib_qp_attr_t };
}

/**
 * Input attributes of `ri_qp_create` / `ri_qp_modify` / `ri_special_qp_get`: the C struct with
 * every field optional. Create reads the fields "valid in create" for the transport (a missing
 * required one → `INVALID_PARAMETER`); modify reads only the fields selected by the mask.
 */
export interface ri_qp_attr_in_t {
  readonly scq?: { readonly scq_handle: ri_cq_handle_t };
  readonly rcq?: { readonly rcq_handle: ri_cq_handle_t };
  readonly srq?: { readonly srq_handle: ri_srq_handle_t } | null;
  readonly pd?: ri_pd_handle_t;
  readonly sq_size?: number;
  readonly rq_size?: number;
  readonly srq_valid?: boolean;
  readonly sq_max_sges?: number;
  readonly sq_max_sges_rdmaw?: number;
  readonly rq_max_sges?: number;
  /** The *next* state (modify with `RI_QP_ATTR_NEXT_STATE`). */
  readonly state?: ri_qp_state_t;
  readonly enable_rdma_read?: boolean;
  readonly enable_rdma_write?: boolean;
  readonly max_rdma_read_outgoing?: number;
  readonly max_rdma_read_incoming?: number;
  readonly enable_stag0_fastreg?: boolean;
  readonly qp_xport?: { readonly qp_iwarp: Partial<ri_iwarp_qp_attr_t> } | { readonly qp_ib: Partial<ri_ib_qp_attr_t> };
}

/**
 * `ri_qp_attr_mask_t` (`RI_QP_ATTR_` prefix). Bits 5–9 mean different things for iWARP and IB:
 * the provider interprets them by the RNIC's transport. Both meanings are members here.
 */
export enum RiQpAttrMask {
  NEXT_STATE = 1 << 0,
  SQ_SIZE = 1 << 1,
  RQ_SIZE = 1 << 2,
  MAX_RDMA_READ_OUTGOING = 1 << 3,
  MAX_RDMA_READ_INCOMING = 1 << 4,

  // iWARP-specific
  RQ_HIWAT = 1 << 5,
  RQ_ARMED = 1 << 6,
  /** Spelled "LLQ" by the spec; sets `llp_stream_handle` (conversion to RDMA mode). */
  LLQ_STREAM_HANDLE = 1 << 7,
  STREAM_MSG_BUFFER = 1 << 8,
  MPA_ATTR = 1 << 9,

  // IB-specific (same bit positions as the iWARP ones for 5–9)
  ENABLE_RDMA_READ = 1 << 5,
  ENABLE_RDMA_WRITE = 1 << 6,
  ENABLE_ATOMICS = 1 << 7,
  DEST_QPID = 1 << 8,
  /** Header spelling: `RI_QP_ATTR_ENABLE_SQD`. */
  ENABLE_ASYNC_NOTIFY_FOR_SQD = 1 << 9,
  QKEY = 1 << 10,
  SEND_PSN = 1 << 11,
  RECV_PSN = 1 << 12,
  MIN_RNR_TIMER = 1 << 13,
  PRIMARY_PATH = 1 << 14,
  ALTERNATE_PATH = 1 << 15,
  MIGSTATE = 1 << 16,
  PRIMARY_PKEY = 1 << 17,
  PORT_NUM = 1 << 18,
  /**
   * softrdma extension (IB RNICs): `qp_ib.sr_ibta_mask` gives the IBTA components of the modify;
   * the RNICPI IB bits 5–18 must then be clear (see docs/spec-notes.md).
   */
  SR_IBTA_ATTRS = 1 << 19,
}
/** Bitwise OR of {@link RiQpAttrMask}. */
export type ri_qp_attr_mask_t = number;
/** Header spelling of {@link RiQpAttrMask.ENABLE_ASYNC_NOTIFY_FOR_SQD}. */
export const RI_QP_ATTR_ENABLE_SQD = RiQpAttrMask.ENABLE_ASYNC_NOTIFY_FOR_SQD;
/** Mask bits valid for an iWARP QP. */
export const RI_QP_ATTR_IWARP_VALID_MASK = (1 << 10) - 1;
/** Mask bits valid for an IB QP. */
export const RI_QP_ATTR_IB_VALID_MASK = (1 << 19) - 1;

/** `ri_sqp_type_t` (`RI_SQP_TYPE_` prefix), for `ri_special_qp_get` (IB). */
export enum RiSqpType {
  /** QP0. */
  SMI = 0,
  /** QP1. */
  GSI = 1,
}
export type ri_sqp_type_t = RiSqpType;

/** `ri_ud_address_vector_t` (IB). */
export interface ri_ud_address_vector_t {
  readonly av_common: ri_gen_address_vector_t;
  /** Local physical port number. */
  readonly physical_port: number;
}

// =============================================================================================
// Work requests
// =============================================================================================

/** `ri_wr_type_t` (`RI_WR_TYPE_` prefix). */
export enum RiWrType {
  /** Send (with or without Solicited Event). */
  SEND = 0,
  /** Send with Invalidate of remote `rtag`. */
  SEND_INVALIDATE = 1,
  RDMA_WRITE = 2,
  RDMA_READ = 3,
  /** Memory Window bind (both window types). */
  BIND = 4,
  /** Fast-register a physical MR (privileged consumers only). */
  FAST_REGISTER = 5,
  LOCAL_INVALIDATE_MR = 6,
  LOCAL_INVALIDATE_MW = 7,
  /** iWARP only: RDMA Read, then invalidate the local sink (at most 1 SGE). */
  RDMA_READ_LOCAL_INVALIDATE = 8,
  /** IB only. */
  COMPARE_AND_SWAP = 9,
  /** IB only. */
  FETCH_AND_ADD = 10,
  /** IB only. */
  SEND_IMMEDIATE = 11,
  /** IB only. */
  RDMA_WRITE_IMMEDIATE = 12,
}
export type ri_wr_type_t = RiWrType;

/** `ri_wr_flags_t` (`RI_WR_` prefix). */
export enum RiWrFlags {
  /** Request a WC on success (selectable signalling). Ch. 8 typo: `RI_WR_SINGALED_FLAG`. */
  SIGNALED_FLAG = 0x01,
  /** Raise the local CQ event on this WR's completion; ignored unless SIGNALED is set. */
  LOCAL_SOLICITED_FLAG = 0x02,
  /** Set SE toward the remote (Send types; IB RDMA Write with immediate). */
  SOLICITED_EVENT_FLAG = 0x04,
  /** Wait for prior RDMA Reads (iWARP: Send and RDMA Write only; IB also Read/atomic/Bind). */
  READ_FENCE_FLAG = 0x08,
  /** Wait for all prior WRs (local-invalidate WRs only; needs `RI_RNIC_EXT_LIF`). */
  LOCAL_FENCE_FLAG = 0x10,
  /** May delay the doorbell; a post with the flag clear pushes everything pending. */
  COALESCE_FLAG = 0x20,
  /** SGE addresses may be used as plain local pointers (up to `max_unregistered_inline`). */
  INLINE_OK_FLAG = 0x40,
  /** Consumer pass-through flag 2 (same bit as LOCAL_SOLICITED_FLAG). */
  // biome-ignore lint/suspicious/noDuplicateEnumValues: spec enum alias of LOCAL_SOLICITED_FLAG
  CONSUMER_FLAG2 = 0x02,
  /** Consumer pass-through flag 1. */
  CONSUMER_FLAG1 = 1 << 29,
  /** Consumer pass-through flag 0. */
  CONSUMER_FLAG0 = 1 << 30,
}
/** Bitwise OR of {@link RiWrFlags}. */
export type ri_wr_flags_t = number;
/** Ch. 8 typo spelling of {@link RiWrFlags.SIGNALED_FLAG}. */
export const RI_WR_SINGALED_FLAG = RiWrFlags.SIGNALED_FLAG;
/** `ri_cq_req_notification` prose spelling; means {@link RiWrFlags.LOCAL_SOLICITED_FLAG}. */
export const RI_WR_NOTIFY_FLAG = RiWrFlags.LOCAL_SOLICITED_FLAG;
/** Flags valid on receive WRs (`ri_qp_postrq`, `ri_srq_post`); others → `WR_INVALID_FLAGS`. */
export const RI_WR_RECV_VALID_FLAGS = RiWrFlags.LOCAL_SOLICITED_FLAG | RiWrFlags.COALESCE_FLAG;
/** Every defined SQ WR flag bit. */
export const RI_WR_ALL_FLAGS = 0x7f | RiWrFlags.CONSUMER_FLAG1 | RiWrFlags.CONSUMER_FLAG0;

/** `ri_wr_common_t`: the members every WR starts with. */
export interface ri_wr_common_t {
  readonly type: ri_wr_type_t;
  readonly flags: ri_wr_flags_t;
  readonly id: ri_wr_id_t;
}

/** `ri_wr_send_t`: SEND, SEND_INVALIDATE, SEND_IMMEDIATE (IB). */
export interface ri_wr_send_t extends ri_wr_common_t {
  readonly type: RiWrType.SEND | RiWrType.SEND_INVALIDATE | RiWrType.SEND_IMMEDIATE;
  readonly sg_list: readonly ri_data_seg_t[];
  /** SEND_INVALIDATE: the remote STag to invalidate after delivery. Ignored otherwise. */
  readonly rtag?: ri_rtag_t;
  /** Number of valid SGEs; defaults to `sg_list.length` (must not exceed it). */
  readonly num_sgls?: uint_t;
  /** IB only (SEND_IMMEDIATE). */
  readonly imm_data?: number;
}

/** `ri_wr_rdma_write_t`: RDMA_WRITE, RDMA_WRITE_IMMEDIATE (IB). */
export interface ri_wr_rdma_write_t extends ri_wr_common_t {
  readonly type: RiWrType.RDMA_WRITE | RiWrType.RDMA_WRITE_IMMEDIATE;
  readonly sg_list: readonly ri_data_seg_t[];
  /** Remote target TO (VA, or offset for a ZBVA sink). */
  readonly rdma_addr: bigint;
  /** Remote sink STag. */
  readonly rtag: ri_rtag_t;
  readonly num_sgls?: uint_t;
  /** IB only. */
  readonly imm_data?: number;
}

/** `ri_wr_rdma_read_t`: RDMA_READ, RDMA_READ_LOCAL_INVALIDATE (iWARP; ≤ 1 SGE). */
export interface ri_wr_rdma_read_t extends ri_wr_common_t {
  readonly type: RiWrType.RDMA_READ | RiWrType.RDMA_READ_LOCAL_INVALIDATE;
  /** Local sink(s); an SGE may name an MW by RTag (iWARP). */
  readonly sg_list: readonly ri_data_seg_t[];
  /** Remote source TO. */
  readonly rdma_addr: bigint;
  readonly num_sgls?: uint_t;
  /** Remote source STag. */
  readonly rtag: ri_rtag_t;
}

/** `ri_wr_bind_t`: BIND. */
export interface ri_wr_bind_t extends ri_wr_common_t {
  readonly type: RiWrType.BIND;
  readonly mw_handle: ri_mw_handle_t;
  /**
   * The window's *new* RTag when the consumer owns the key (always for narrow windows; wide
   * windows iff `RI_RNIC_EXT_INDEX_KEY_SPLIT`), else its current RTag. The WR is not written back
   * (see spec-notes): after a successful bind `ri_mw_query` reports the window's RTag.
   */
  readonly rtag: ri_rtag_t;
  readonly mr_handle: ri_mr_handle_t;
  /** LTag of the MR bound to. */
  readonly ltag: ri_ltag_t;
  /** Window start (VA, or offset into a ZBVA MR). */
  readonly vaddr: ri_addr_t;
  /** Window length; 0 on a Type 2 window → `INVALID_WINDOW_TYPE`. */
  readonly length: ri_length_t;
  /** Remote rights of the window. */
  readonly mem_attr: ri_mem_attr_t;
}

/** `ri_wr_fmr_t`: FAST_REGISTER (privileged only). */
export interface ri_wr_fmr_t extends ri_wr_common_t {
  readonly type: RiWrType.FAST_REGISTER;
  readonly attr: ri_mr_reg_phys_attr_t;
  /** Index = the region's (or `ri_ltag_alloc`'s) LTag index; key = the new key. */
  readonly ltag: ri_ltag_t;
  /** The region's RTag; ignored without remote access. */
  readonly rtag: ri_rtag_t;
  readonly mr_handle: ri_mr_handle_t;
}

/** `ri_wr_local_invalidate_t`: LOCAL_INVALIDATE_MR, LOCAL_INVALIDATE_MW. */
export interface ri_wr_local_invalidate_t extends ri_wr_common_t {
  readonly type: RiWrType.LOCAL_INVALIDATE_MR | RiWrType.LOCAL_INVALIDATE_MW;
  /** LTag of the region; undefined (ignored) for a window. */
  readonly ltag: ri_ltag_t;
  /** RTag of the region/window; ignored without remote access. */
  readonly rtag: ri_rtag_t;
  /** The MR (for `_MR`) or MW (for `_MW`) handle. */
  readonly mrw_handle: ri_mr_w_handle_t;
}

/** `ri_wr_atomic_t`: COMPARE_AND_SWAP, FETCH_AND_ADD (IB only). */
export interface ri_wr_atomic_t extends ri_wr_common_t {
  readonly type: RiWrType.COMPARE_AND_SWAP | RiWrType.FETCH_AND_ADD;
  readonly rtag: ri_rtag_t;
  /**
   * Remote target address. Not a member of the C struct (spec gap, see spec-notes): the WR field
   * table says atomics use `rdma_addr`.
   */
  readonly rdma_addr: bigint;
  /** Compare value (CAS) / addend (FAA). */
  readonly atomic_operand1: bigint;
  /** Swap value (CAS); ignored for FAA. */
  readonly atomic_operand2: bigint;
  /** Where the original remote value lands (8 bytes). */
  readonly atomic_result: ri_data_seg_t;
  /**
   * softrdma extension (the RDMA Aware Networks Programming manual §8.7 extended atomics):
   * operand size in octets, 8 (default), 16 or 32; larger operands are `bigint`s of that width.
   */
  readonly atomic_size?: number;
  /** softrdma extension: compare mask (CAS, default all ones) or field boundaries (FAA, default 0). */
  readonly atomic_mask1?: bigint;
  /** softrdma extension: swap mask (CAS, default all ones). */
  readonly atomic_mask2?: bigint;
}

/** `ri_wr_datagram_t`: UD send (type SEND or SEND_IMMEDIATE) on an IB UD QP. */
export interface ri_wr_datagram_t extends ri_wr_common_t {
  readonly type: RiWrType.SEND | RiWrType.SEND_IMMEDIATE;
  readonly sg_list: readonly ri_data_seg_t[];
  readonly num_sgls?: uint_t;
  readonly imm_data?: number;
  readonly remote_node_address: ri_address_handle_t;
  readonly dest_qp: number;
  readonly dest_qkey: number;
  readonly max_static_rate: number;
}

/**
 * `ri_wr_t`: a Send Queue WR, discriminated on `type`. (The C union's member names —
 * `wr_send`, `wr_rdma_read`, `wr_rdma_write`, `wr_bind`, `wr_fmr`, `wr_li`, `wr_atomic`,
 * `wr_datagram` — correspond to the variants.) A `SEND`/`SEND_IMMEDIATE` WR is a datagram WR on a
 * UD QP (`'remote_node_address' in wr`) and a plain send otherwise.
 */
export type ri_wr_t =
  | ri_wr_send_t
  | ri_wr_rdma_write_t
  | ri_wr_rdma_read_t
  | ri_wr_bind_t
  | ri_wr_fmr_t
  | ri_wr_local_invalidate_t
  | ri_wr_atomic_t
  | ri_wr_datagram_t;

/** `ri_wr_recv_t` (header typedefs: `ri_wr_rcv_t`): a receive WR for an RQ or SRQ. */
export interface ri_wr_recv_t {
  /** Only `LOCAL_SOLICITED_FLAG` and `COALESCE_FLAG` are valid. */
  readonly flags: ri_wr_flags_t;
  readonly id: ri_wr_id_t;
  readonly sg_list: readonly ri_data_seg_t[];
  readonly num_sgls?: uint_t;
}
/** Header typedef spelling of {@link ri_wr_recv_t}. */
export type ri_wr_rcv_t = ri_wr_recv_t;

// =============================================================================================
// Work completions
// =============================================================================================

/** `ri_wc_type_t` (`RI_WC_TYPE_` prefix). Value 3 is unused; 1–6 align with IT-API event types. */
export enum RiWcType {
  /** Send and Send-with-Invalidate (± SE), details in flags. */
  SEND = 0x1,
  DATA_RECEIVED = 0x2,
  RDMA_WRITE = 0x4,
  RDMA_READ = 0x5,
  BIND = 0x6,
  FAST_REGISTER = 7,
  /** LOCAL_INVALIDATE_MR and _MW. */
  LOCAL_INVALIDATE = 8,
  RDMA_READ_LOCAL_INVALIDATE = 9,
  COMPARE_AND_SWAP = 10,
  FETCH_AND_ADD = 11,
  /** IB: receive of an RDMA Write with immediate. Ch. 7 synopsis: `RDMA_WRITE_IMMEDIATE_RECEIVED`. */
  RDMA_IMMEDIATE_RECEIVED = 12,
}
export type ri_wc_type_t = RiWcType;
/** Ch. 7 synopsis spelling of {@link RiWcType.RDMA_IMMEDIATE_RECEIVED}. */
export const RI_WC_TYPE_RDMA_WRITE_IMMEDIATE_RECEIVED = RiWcType.RDMA_IMMEDIATE_RECEIVED;

/** `ri_wc_flags_t` (`RI_WC_FLAG_` prefix). */
export enum RiWcFlags {
  SOLICITED_EVENT = 1 << 0,
  LOCAL_SOLICITED = 1 << 1,
  /** `invalidated_rtag` is valid (Ch. 7 prose: `RI_WC_FLAG_RTAG_INVALIDATED`). */
  RTAG_INVALIDATE = 1 << 2,
  /** `immediate_data` is valid (IB). */
  IMMEDIATE_DATA = 1 << 3,
  /** Pass-through flag 2 (same bit as LOCAL_SOLICITED). */
  CONSUMER2 = 1 << 1,
  CONSUMER1 = 1 << 29,
  CONSUMER0 = 1 << 30,
}
/** Bitwise OR of {@link RiWcFlags}. */
export type ri_wc_flags_t = number;
/** Ch. 7 prose spelling of {@link RiWcFlags.RTAG_INVALIDATE}. */
export const RI_WC_FLAG_RTAG_INVALIDATED = RiWcFlags.RTAG_INVALIDATE;

/** `ri_wc_status_t` (`RI_WC_STATUS_` prefix). 0–2 align with IT-API `dto_status_t`. */
export enum RiWcStatus {
  SUCCESS = 0,
  WR_FLUSHED_ERROR = 1,
  LOCAL_QP_CATASTROPHIC = 2,
  /** Same value as LOCAL_QP_CATASTROPHIC. */
  // biome-ignore lint/suspicious/noDuplicateEnumValues: spec enum alias of LOCAL_QP_CATASTROPHIC
  LOCAL_QP_OP_ERROR = 2,

  // iWARP-specific
  WQE_FORMAT_ERROR = 3,
  REMOTE_TERMINATION_ERROR = 4,
  INVALID_STAG_ERROR = 5,
  BASE_BOUNDS_VIOLATION_ERROR = 6,
  ACCESS_VIOLATION_ERROR = 7,
  INVALID_PD_ERROR = 8,
  ADDRESS_WRAP_ERROR = 9,
  STAG_INVALIDATE_ERROR = 10,
  ZERO_ORD_ERROR = 11,
  FMR_QP_NOT_PRIVILEGED_ERROR = 12,
  STAG_NOT_IN_INVALID_STATE_ERROR = 13,
  INVALID_FMR_PAGE_SIZE_ERROR = 14,
  INVALID_FMR_BLOCK_SIZE_ERROR = 15,
  INVALID_FMR_PBL_ENTRY_ERROR = 16,
  INVALID_FMR_FBO_ERROR = 17,
  INVALID_FMR_LENGTH_ERROR = 18,
  INVALID_FMR_PERMS_ERROR = 19,
  FMR_PBL_TOO_LONG_ERROR = 20,
  INVALID_FMR_VA_ERROR = 21,
  INVALID_BIND_MR_ERROR = 22,
  INVALID_BIND_MW_ERROR = 23,
  HUGE_PAYLOAD_ERROR = 24,

  // IB-specific
  LOCAL_LENGTH_ERROR = 25,
  LOCAL_PROTECTION_ERROR = 26,
  MEMORY_MGMT_ERROR = 27,
  BAD_RESPONSE_ERROR = 28,
  LOCAL_ACCESS_ERROR = 29,
  REMOTE_INVALID_REQ_ERROR = 30,
  REMOTE_ACCESS_ERROR = 31,
  REMOTE_OP_ERROR = 32,
  TRANSPORT_RETRY_EXCEEDED = 33,
  RNR_RETRY_EXCEEDED = 34,
  REMOTE_ABORTED_ERROR = 35,
}
export type ri_wc_status_t = RiWcStatus;

/**
 * `ri_rc_wc_t`: WC of an RC (and every iWARP) QP. Layout mirrors IT-API `dto_cmpl_event_t`.
 * `id` and `op_status` are valid on every WC, errors included.
 */
export interface ri_rc_wc_t {
  readonly op_type: ri_wc_type_t;
  /** `os_data` of the CQ's `ri_cq_create`. */
  readonly cq_os_data: ri_os_data_t;
  readonly flags: ri_wc_flags_t;
  /** Valid iff `RTAG_INVALIDATE` is set (incoming Send with Invalidate). */
  readonly invalidated_rtag: ri_rtag_t;
  /** `os_data` of the QP's `ri_qp_create` (also for WCs of its SRQ receives). */
  readonly qp_os_data: ri_os_data_t;
  readonly id: ri_wr_id_t;
  readonly op_status: ri_wc_status_t;
  /** Send, RDMA Read/Write, atomic and receive; excludes immediate data. */
  readonly bytes_transferred: number;
  /** Valid iff `IMMEDIATE_DATA` is set (IB). */
  readonly immediate_data: number;
  readonly err_data: ri_err_data_t;
}

/** `ri_gen_wc_t`: WC of an IB UD (general) QP. */
export interface ri_gen_wc_t {
  readonly op_type: ri_wc_type_t;
  readonly cq_os_data: ri_os_data_t;
  readonly flags: ri_wc_flags_t;
  /** Local QP number. */
  readonly qpn: number;
  readonly qp_os_data: ri_os_data_t;
  readonly id: ri_wr_id_t;
  readonly op_status: ri_wc_status_t;
  /** Includes the 40 GRH bytes for UD, whether or not a GRH was present. */
  readonly bytes_transferred: number;
  readonly immediate_data: number;
  readonly remote_lid: ri_lid_t;
  readonly remote_qpn: number;
  readonly remote_sl: number;
  readonly local_lid_pathbits: number;
  readonly ether_type: number;
  /** Non-zero ⇒ the first 40 bytes of the receive buffer hold the GRH. */
  readonly grh_present: number;
  /** GSI only. */
  readonly pkey_index: number;
  readonly freed_resource_count: number;
  readonly err_data: ri_err_data_t;
}

/** `ri_wc_t`: union `{ type_wc | rc_wc | ud_wc }`. Use {@link riWcIsGen} to tell them apart. */
export type ri_wc_t = ri_rc_wc_t | ri_gen_wc_t;

/** True for a UD/general WC (`ud_wc` member of the C union). */
export function riWcIsGen(wc: ri_wc_t): wc is ri_gen_wc_t {
  return 'qpn' in wc;
}

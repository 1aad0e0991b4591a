/**
 * libibverbs / librdmacm data structures for the ibverbs + rdma_cm face of softrdma, as the
 * "RDMA Aware Networks Programming User Manual" uses them (chapters 4-6, 8). Where the manual's
 * listing is missing or garbled (`ibv_qp_attr`, `ibv_wc`, `ibv_port_attr`, `ibv_sge`, ...) the
 * fields are those of rdma-core `libibverbs/verbs.h` / `librdmacm/rdma_cma.h` (commit 691953d8).
 *
 * C → TypeScript mapping (also in `docs/spec-notes.md`, section "ibverbs / rdma_cm"):
 * - Field names are the C names (snake_case). Struct = interface; C union = an object holding
 *   every member (only the member selected by the opcode/type/port space is meaningful; the
 *   others read as zero/null on output and are ignored on input).
 * - `uint64_t`/`__be64` → `bigint`; every other integer → `number`. Values that C keeps in network
 *   byte order (`imm_data`, GUIDs, `ibv_grh.version_tclass_flow`, GID halves, `rdma_get_src_port`)
 *   hold their natural numeric value here: the binding does the byte swapping, callers never
 *   `htonl()`. Example: a GUID whose wire bytes are `00 02 c9 03 ...` is `0x0002c903...n`.
 * - `void *` user contexts (`qp_context`, `cq_context`, `rdma_cm_id.context`) → `unknown`;
 *   `wr_id` and the `context` of the rdma_verbs helpers → `bigint` (C's `uintptr_t` round trip).
 * - Buffers: registration takes a `Uint8Array` (the memory itself); softrdma gives it a synthetic
 *   64-bit virtual address (`ibv_mr.addr`, `bigint`). SGEs, remote addresses and `ibv_mr.addr`
 *   are such addresses (`mr.addr + BigInt(offset)`), so they can be exchanged with peers exactly
 *   like C pointers. Pure data blobs (private data, GIDs, routes) are `Uint8Array`.
 * - Object pointers → opaque handle interfaces (below) carrying the public C fields read-only and a
 *   `[VERBS_HANDLE]` tag so that handles of different kinds are not interchangeable.
 * - Strings (`char[]`, `char *`) → `string`.
 * - Linked lists through `next`: kept as in C (`next: T | null`) in the structs; the post calls
 *   accept **either** a single WR whose `next` chain is followed **or** an array (then each
 *   element's `next` is ignored and the array order is the list order). Output lists
 *   (`rdma_addrinfo.ai_next`) are `next`-linked as in C; device lists are arrays.
 * - Input structs are passed as {@link In}`<T>`: every field optional, a missing field reads as 0 /
 *   null / empty, exactly like a C struct after `memset(0)`. Output structs are caller-supplied
 *   objects that the call fills completely on success (pass `{} as T` or reuse an object).
 *
 * @module
 */

import type {
  ibv_atomic_cap,
  ibv_event_type,
  ibv_exp_atomic_cap,
  ibv_exp_calc_data_size,
  ibv_exp_calc_data_type,
  ibv_exp_calc_op,
  ibv_exp_wr_opcode,
  ibv_mig_state,
  ibv_mtu,
  ibv_mw_type,
  ibv_node_type,
  ibv_port_state,
  ibv_qp_state,
  ibv_qp_type,
  ibv_transport_type,
  ibv_wc_opcode,
  ibv_wc_status,
  ibv_wr_opcode,
  rdma_cm_event_type,
  rdma_port_space,
} from './constants.js';

// ---------------------------------------------------------------------------------------------
// Handles and helper types
// ---------------------------------------------------------------------------------------------

/** Tag carried by every handle object; its value is the C struct name (`'ibv_pd'`, `'rdma_cm_id'`). */
export const VERBS_HANDLE: unique symbol = Symbol.for('softrdma.verbs.handle');

/** Kind names of the handle objects (the C struct names). */
export type VerbsHandleKind =
  | 'ibv_device'
  | 'ibv_context'
  | 'ibv_pd'
  | 'ibv_mr'
  | 'ibv_mw'
  | 'ibv_cq'
  | 'ibv_comp_channel'
  | 'ibv_srq'
  | 'ibv_qp'
  | 'ibv_ah'
  | 'ibv_xrc_domain'
  | 'ibv_exp_dct'
  | 'ibv_exp_mkey_list_container'
  | 'rdma_event_channel'
  | 'rdma_cm_id';

/** Common shape of all handles (opaque objects the library allocates and frees). */
export interface VerbsHandle<K extends VerbsHandleKind = VerbsHandleKind> {
  readonly [VERBS_HANDLE]: K;
}

type Leaf = Uint8Array | bigint | number | string | boolean | symbol | null | undefined | VerbsHandle;

/**
 * Input form of a C struct: every field optional (recursively, down to handles, numbers, bigints
 * and byte arrays); a missing field is read as 0 / 0n / null / empty, i.e. like a zeroed C struct.
 */
export type In<T> = unknown extends T
  ? T
  : T extends Leaf
    ? T
    : T extends readonly (infer E)[]
      ? readonly In<E>[]
      : { [K in keyof T]?: In<T[K]> };

/**
 * Socket address (`struct sockaddr_in` / `sockaddr_in6`). `address` is the textual IP
 * ("192.0.2.1", "fe80::1"); `port` is in host order (C keeps `sin_port` big-endian). An unbound /
 * unconnected address reads as `{ family: 'ipv4', address: '0.0.0.0', port: 0 }` (C: all zeros).
 * `AF_IB` addresses do not exist on iWARP.
 */
export interface sockaddr {
  family: 'ipv4' | 'ipv6';
  address: string;
  port: number;
}

/** `struct rdma_cm_join_mc_attr_ex` (rdma_cma.h): the arguments of `rdma_join_multicast_ex`. */
export interface rdma_cm_join_mc_attr_ex {
  /** `rdma_cm_join_mc_attr_mask` bits: ADDRESS and JOIN_FLAGS are both required. */
  comp_mask: number;
  /** `rdma_cm_mc_join_flags`. */
  join_flags: number;
  addr: sockaddr;
}

// ---------------------------------------------------------------------------------------------
// Devices and contexts (manual §4.2, §4.3)
// ---------------------------------------------------------------------------------------------

/** `struct ibv_device` (verbs.h:2016-2028): an entry of `ibv_get_device_list()`. */
export interface ibv_device extends VerbsHandle<'ibv_device'> {
  readonly node_type: ibv_node_type;
  readonly transport_type: ibv_transport_type;
  /** Kernel-style device name, e.g. "siw0"; at most `IBV_SYSFS_NAME_MAX - 1` characters. */
  readonly name: string;
  /** uverbs-style name, e.g. "uverbs0". */
  readonly dev_name: string;
  /** Path of the infiniband_verbs class device (sysfs in C; informational here). */
  readonly dev_path: string;
  /** Path of the infiniband class device (sysfs in C; informational here). */
  readonly ibdev_path: string;
}

/**
 * `struct ibv_context` (verbs.h:2074-2082): an opened device. `async_fd` is a synthetic
 * descriptor number (not an OS fd); `async_nonblocking` stands for `fcntl(async_fd, F_SETFL,
 * O_NONBLOCK)`: when true, `ibv_get_async_event` resolves at once with EAGAIN if no event is queued.
 */
export interface ibv_context extends VerbsHandle<'ibv_context'> {
  readonly device: ibv_device;
  readonly async_fd: number;
  readonly num_comp_vectors: number;
  async_nonblocking: boolean;
}

/** `struct ibv_device_attr` (verbs.h:183-224; manual §4.3.1 describes every field). */
export interface ibv_device_attr {
  /** Firmware version string (`char[64]`). */
  fw_ver: string;
  /** Node GUID (C: `__be64`; here the natural value). */
  node_guid: bigint;
  /** System image GUID (C: `__be64`; here the natural value). */
  sys_image_guid: bigint;
  max_mr_size: bigint;
  page_size_cap: bigint;
  vendor_id: number;
  vendor_part_id: number;
  hw_ver: number;
  max_qp: number;
  max_qp_wr: number;
  /** Bits of `ibv_device_cap_flags`. */
  device_cap_flags: number;
  max_sge: number;
  max_sge_rd: number;
  max_cq: number;
  max_cqe: number;
  max_mr: number;
  max_pd: number;
  max_qp_rd_atom: number;
  max_ee_rd_atom: number;
  max_res_rd_atom: number;
  max_qp_init_rd_atom: number;
  max_ee_init_rd_atom: number;
  atomic_cap: ibv_atomic_cap;
  max_ee: number;
  max_rdd: number;
  max_mw: number;
  max_raw_ipv6_qp: number;
  max_raw_ethy_qp: number;
  max_mcast_grp: number;
  max_mcast_qp_attach: number;
  max_total_mcast_qp_attach: number;
  max_ah: number;
  max_fmr: number;
  max_map_per_fmr: number;
  max_srq: number;
  max_srq_wr: number;
  max_srq_sge: number;
  max_pkeys: number;
  local_ca_ack_delay: number;
  phys_port_cnt: number;
}

/**
 * `struct ibv_port_attr` (verbs.h:428-452; the manual's listing §4.3.2 is garbled). iWARP ports
 * report `lid = sm_lid = lmc = 0`, `link_layer = IBV_LINK_LAYER_ETHERNET`.
 */
export interface ibv_port_attr {
  state: ibv_port_state;
  max_mtu: ibv_mtu;
  active_mtu: ibv_mtu;
  gid_tbl_len: number;
  /** Bits of `ibv_port_cap_flags`. */
  port_cap_flags: number;
  max_msg_sz: number;
  bad_pkey_cntr: number;
  qkey_viol_cntr: number;
  pkey_tbl_len: number;
  lid: number;
  sm_lid: number;
  lmc: number;
  max_vl_num: number;
  sm_sl: number;
  subnet_timeout: number;
  init_type_reply: number;
  active_width: number;
  active_speed: number;
  phys_state: number;
  /** `IBV_LINK_LAYER_*`. */
  link_layer: number;
  flags: number;
  /** Bits of `ibv_port_cap_flags2` (not in the manual). */
  port_cap_flags2: number;
  active_speed_ex: number;
}

/**
 * `union ibv_gid` (verbs.h:65-71): 16 bytes. C's `global.subnet_prefix` / `global.interface_id`
 * are bytes 0-7 / 8-15 read big-endian. The query calls write into `raw` (which they allocate if
 * it is not a 16-byte array).
 */
export interface ibv_gid {
  raw: Uint8Array;
}

// ---------------------------------------------------------------------------------------------
// PD, MR, MW, CQ, channels (manual §4.3, §4.4)
// ---------------------------------------------------------------------------------------------

/** `struct ibv_pd` (verbs.h:642-645). */
export interface ibv_pd extends VerbsHandle<'ibv_pd'> {
  readonly context: ibv_context;
  readonly handle: number;
}

/**
 * `struct ibv_mr` (verbs.h:678-686). `addr` is the synthetic virtual address softrdma assigned to
 * the first byte of the registered `Uint8Array`; `length` its byte length.
 */
export interface ibv_mr extends VerbsHandle<'ibv_mr'> {
  readonly context: ibv_context;
  readonly pd: ibv_pd;
  readonly addr: bigint;
  readonly length: number;
  readonly handle: number;
  readonly lkey: number;
  readonly rkey: number;
}

/**
 * `struct ibv_mw` (verbs.h:714-720). The manual names memory windows but documents no MW verbs
 * (`ibv_alloc_mw`, `ibv_bind_mw`, `ibv_dealloc_mw` are rdma-core only); kept for `bind_mw` WRs.
 */
export interface ibv_mw extends VerbsHandle<'ibv_mw'> {
  readonly context: ibv_context;
  readonly pd: ibv_pd;
  readonly rkey: number;
  readonly handle: number;
  readonly type: ibv_mw_type;
}

/**
 * `struct ibv_mw_bind_info` (verbs.h:629-634). Not in the manual, whose only bind struct is the
 * experimental `ibv_exp_mw_bind_info` with the same fields; used by `ibv_send_wr.bind_mw`.
 */
export interface ibv_mw_bind_info {
  mr: ibv_mr | null;
  addr: bigint;
  length: bigint;
  /** `ibv_access_flags` bits. */
  mw_access_flags: number;
}

/**
 * `struct ibv_comp_channel` (verbs.h:1539-1543). `fd` is a synthetic descriptor number;
 * `nonblocking` stands for `O_NONBLOCK` on it: when true `ibv_get_cq_event` resolves at once with
 * EAGAIN if no event is pending.
 */
export interface ibv_comp_channel extends VerbsHandle<'ibv_comp_channel'> {
  readonly context: ibv_context;
  readonly fd: number;
  /** Number of CQs attached to the channel. */
  readonly refcnt: number;
  nonblocking: boolean;
}

/** `struct ibv_cq` (verbs.h:1545-1556). `cqe` is the actual capacity (≥ the requested one). */
export interface ibv_cq extends VerbsHandle<'ibv_cq'> {
  readonly context: ibv_context;
  readonly channel: ibv_comp_channel | null;
  readonly cq_context: unknown;
  readonly handle: number;
  readonly cqe: number;
  /** Completion events acknowledged so far (`ibv_ack_cq_events`). */
  readonly comp_events_completed: number;
  /** Affiliated async events acknowledged so far (`ibv_ack_async_event`). */
  readonly async_events_completed: number;
}

// ---------------------------------------------------------------------------------------------
// Address handles (manual §4.4.15-4.4.16, §4.6.11-4.6.12) — UD only, unsupported on iWARP
// ---------------------------------------------------------------------------------------------

/** `struct ibv_ah` (verbs.h:1732-1736). */
export interface ibv_ah extends VerbsHandle<'ibv_ah'> {
  readonly context: ibv_context;
  readonly pd: ibv_pd;
  readonly handle: number;
}

/** `struct ibv_global_route` (verbs.h:722-728). */
export interface ibv_global_route {
  dgid: ibv_gid;
  flow_label: number;
  sgid_index: number;
  hop_limit: number;
  traffic_class: number;
}

/**
 * `struct ibv_grh` (verbs.h:730-737): the 40-byte Global Route Header at the start of UD receive
 * buffers. `version_tclass_flow` and `paylen` hold natural values (C: big-endian).
 */
export interface ibv_grh {
  version_tclass_flow: number;
  paylen: number;
  next_hdr: number;
  hop_limit: number;
  sgid: ibv_gid;
  dgid: ibv_gid;
}

/** `struct ibv_ah_attr` (verbs.h:793-801). Also the path of a connected QP (`ibv_qp_attr.ah_attr`). */
export interface ibv_ah_attr {
  grh: ibv_global_route;
  dlid: number;
  sl: number;
  src_path_bits: number;
  /** `ibv_rate`. */
  static_rate: number;
  /** 1: `grh` is valid. */
  is_global: number;
  port_num: number;
}

// ---------------------------------------------------------------------------------------------
// SRQ (manual §4.4.5-4.4.7, §4.6.2, §4.6.6)
// ---------------------------------------------------------------------------------------------

/** `struct ibv_srq` (verbs.h:1280-1289). */
export interface ibv_srq extends VerbsHandle<'ibv_srq'> {
  readonly context: ibv_context;
  readonly srq_context: unknown;
  readonly pd: ibv_pd;
  readonly handle: number;
  /** Affiliated async events acknowledged so far. */
  readonly events_completed: number;
}

/** `struct ibv_srq_attr` (verbs.h:808-812). `srq_limit` 0 = limit event not armed. */
export interface ibv_srq_attr {
  max_wr: number;
  max_sge: number;
  srq_limit: number;
}

/** `struct ibv_srq_init_attr` (verbs.h:814-817). `attr.max_wr`/`max_sge` are written back. */
export interface ibv_srq_init_attr {
  srq_context: unknown;
  attr: ibv_srq_attr;
}

// ---------------------------------------------------------------------------------------------
// QPs (manual §4.4.3-4.4.4, §4.5, §4.6.1)
// ---------------------------------------------------------------------------------------------

/** `struct ibv_qp` (verbs.h:1320-1335). `state` is the last state set by a modify. */
export interface ibv_qp extends VerbsHandle<'ibv_qp'> {
  readonly context: ibv_context;
  readonly qp_context: unknown;
  readonly pd: ibv_pd;
  readonly send_cq: ibv_cq;
  readonly recv_cq: ibv_cq;
  readonly srq: ibv_srq | null;
  readonly handle: number;
  readonly qp_num: number;
  readonly state: ibv_qp_state;
  readonly qp_type: ibv_qp_type;
  /** Affiliated async events acknowledged so far. */
  readonly events_completed: number;
}

/** `struct ibv_qp_cap` (verbs.h:942-948). */
export interface ibv_qp_cap {
  max_send_wr: number;
  max_recv_wr: number;
  max_send_sge: number;
  max_recv_sge: number;
  max_inline_data: number;
}

/**
 * `struct ibv_qp_init_attr` (verbs.h:950-958), plus the legacy Mellanox OFED `xrc_domain` the
 * manual shows (§4.4.3). `cap` is written back with the granted capacities.
 */
export interface ibv_qp_init_attr {
  qp_context: unknown;
  send_cq: ibv_cq | null;
  recv_cq: ibv_cq | null;
  srq: ibv_srq | null;
  cap: ibv_qp_cap;
  /** `ibv_qp_type`, or the legacy `IBV_QPT_XRC` (5). */
  qp_type: ibv_qp_type | number;
  /** Non-zero: every send WR generates a completion. */
  sq_sig_all: number;
  /** Legacy OFED XRC domain (XRC QPs only; unsupported). */
  xrc_domain: ibv_xrc_domain | null;
}

/** `struct ibv_qp_attr` (verbs.h:1099-1126); which fields are read is chosen by `ibv_qp_attr_mask`. */
export interface ibv_qp_attr {
  qp_state: ibv_qp_state;
  cur_qp_state: ibv_qp_state;
  path_mtu: ibv_mtu;
  path_mig_state: ibv_mig_state;
  qkey: number;
  rq_psn: number;
  sq_psn: number;
  dest_qp_num: number;
  /** `ibv_access_flags` bits (remote access the QP allows). */
  qp_access_flags: number;
  cap: ibv_qp_cap;
  ah_attr: ibv_ah_attr;
  alt_ah_attr: ibv_ah_attr;
  pkey_index: number;
  alt_pkey_index: number;
  en_sqd_async_notify: number;
  sq_draining: number;
  max_rd_atomic: number;
  max_dest_rd_atomic: number;
  min_rnr_timer: number;
  port_num: number;
  timeout: number;
  retry_cnt: number;
  rnr_retry: number;
  alt_port_num: number;
  alt_timeout: number;
  /** Not in the manual (`IBV_QP_RATE_LIMIT`). */
  rate_limit: number;
}

// ---------------------------------------------------------------------------------------------
// Work requests and completions (manual §4.6.4-4.6.10)
// ---------------------------------------------------------------------------------------------

/** `struct ibv_sge` (verbs.h:1177-1181). `addr` is a registered virtual address. */
export interface ibv_sge {
  addr: bigint;
  length: number;
  lkey: number;
}

/**
 * `struct ibv_send_wr` (verbs.h:1188-1236) plus the manual's legacy `xrc_remote_srq_num`.
 * `num_sge` may be omitted (defaults to `sg_list.length`; larger than the list → EINVAL).
 * `imm_data` / `invalidate_rkey` are one C union: `imm_data` is read for the `*_WITH_IMM`
 * opcodes (natural value, no `htonl`), `invalidate_rkey` for `IBV_WR_SEND_WITH_INV` /
 * `IBV_WR_LOCAL_INV`.
 */
export interface ibv_send_wr {
  wr_id: bigint;
  next: ibv_send_wr | null;
  sg_list: ibv_sge[];
  num_sge: number;
  opcode: ibv_wr_opcode;
  /** `ibv_send_flags` bits. */
  send_flags: number;
  imm_data: number;
  invalidate_rkey: number;
  /** C union, selected by `opcode`. */
  wr: {
    rdma: { remote_addr: bigint; rkey: number };
    atomic: { remote_addr: bigint; compare_add: bigint; swap: bigint; rkey: number };
    ud: { ah: ibv_ah | null; remote_qpn: number; remote_qkey: number };
  };
  /** C union `qp_type` (XRC send QPs only). */
  qp_type: { xrc: { remote_srqn: number } };
  /** Legacy Mellanox OFED name of the XRC target SRQ number (manual §4.6.5). */
  xrc_remote_srq_num: number;
  /** For `IBV_WR_BIND_MW` (rdma-core; the manual has no MW verbs). */
  bind_mw: { mw: ibv_mw | null; rkey: number; bind_info: ibv_mw_bind_info };
}

/** `struct ibv_recv_wr` (verbs.h:1238-1243). `num_sge` may be omitted (defaults to `sg_list.length`). */
export interface ibv_recv_wr {
  wr_id: bigint;
  next: ibv_recv_wr | null;
  sg_list: ibv_sge[];
  num_sge: number;
}

/**
 * `struct ibv_wc` (verbs.h:593-613). On an error completion only `wr_id`, `status`, `qp_num` and
 * `vendor_err` are valid. `imm_data` / `invalidated_rkey` are one C union: both fields carry the
 * same 32-bit value, meaningful when `wc_flags` has `IBV_WC_WITH_IMM` (natural value, no `ntohl`)
 * or `IBV_WC_WITH_INV` respectively.
 */
export interface ibv_wc {
  wr_id: bigint;
  status: ibv_wc_status;
  opcode: ibv_wc_opcode;
  vendor_err: number;
  byte_len: number;
  imm_data: number;
  invalidated_rkey: number;
  qp_num: number;
  src_qp: number;
  /** `ibv_wc_flags` bits. */
  wc_flags: number;
  pkey_index: number;
  slid: number;
  sl: number;
  dlid_path_bits: number;
}

// ---------------------------------------------------------------------------------------------
// Async events (manual §4.7, §7.1)
// ---------------------------------------------------------------------------------------------

/**
 * `struct ibv_async_event` (verbs.h:478-487). `element` is a C union: the member matching
 * `event_type` is set (QP events → `qp`, CQ events → `cq`, SRQ events → `srq`, port events →
 * `port_num`, `IBV_EVENT_DEVICE_FATAL` → none), the others are null / 0.
 */
export interface ibv_async_event {
  element: { cq: ibv_cq | null; qp: ibv_qp | null; srq: ibv_srq | null; port_num: number };
  event_type: ibv_event_type;
}

// ---------------------------------------------------------------------------------------------
// Legacy Mellanox OFED XRC (manual §4.4.8-4.4.14) — unsupported (ENOSYS)
// ---------------------------------------------------------------------------------------------

/** `struct ibv_xrc_domain` (manual §4.4.8; MLNX_OFED). */
export interface ibv_xrc_domain extends VerbsHandle<'ibv_xrc_domain'> {
  readonly context: ibv_context;
  readonly handle: bigint;
}

// ---------------------------------------------------------------------------------------------
// rdma_cm (manual chapter 5)
// ---------------------------------------------------------------------------------------------

/**
 * `struct rdma_event_channel` (rdma_cma.h:122-124). `fd` is a synthetic descriptor number;
 * `nonblocking` stands for `O_NONBLOCK` on it (manual §5.1.1: "users may make the fd
 * non-blocking"): `rdma_get_cm_event` then resolves at once with -1 / EAGAIN when empty.
 */
export interface rdma_event_channel extends VerbsHandle<'rdma_event_channel'> {
  readonly fd: number;
  nonblocking: boolean;
}

/** `struct rdma_ib_addr` (rdma_cma.h:92-96). iWARP: GIDs derived from the MAC, `pkey` 0xffff. */
export interface rdma_ib_addr {
  sgid: ibv_gid;
  dgid: ibv_gid;
  pkey: number;
}

/** `struct rdma_addr` (rdma_cma.h:98-114). */
export interface rdma_addr {
  src_addr: sockaddr;
  dst_addr: sockaddr;
  addr: { ibaddr: rdma_ib_addr };
}

/** `struct rdma_route` (rdma_cma.h:116-120). IB path records do not exist on iWARP (`path_rec` null). */
export interface rdma_route {
  addr: rdma_addr;
  path_rec: readonly object[] | null;
  num_paths: number;
}

/**
 * `struct rdma_cm_id` (rdma_cma.h:126-142). Fields are maintained by the library; like C code
 * (the manual's SRQ example, §8.5.3), a consumer may set `srq` on an id to make
 * `rdma_post_recv`/`rdma_post_recvv` post to that SRQ, and may change `context`.
 */
export interface rdma_cm_id extends VerbsHandle<'rdma_cm_id'> {
  /** Device context once bound/resolved; null before. */
  readonly verbs: ibv_context | null;
  /** null for a synchronous id (created with a null channel, by `rdma_create_ep`, or migrated to null). */
  readonly channel: rdma_event_channel | null;
  context: unknown;
  readonly qp: ibv_qp | null;
  readonly route: rdma_route;
  readonly ps: rdma_port_space;
  readonly port_num: number;
  /** Synchronous ids: the event of the last completed operation (e.g. the CONNECT_REQUEST of `rdma_get_request`). */
  readonly event: rdma_cm_event | null;
  readonly send_cq_channel: ibv_comp_channel | null;
  readonly send_cq: ibv_cq | null;
  readonly recv_cq_channel: ibv_comp_channel | null;
  readonly recv_cq: ibv_cq | null;
  srq: ibv_srq | null;
  readonly pd: ibv_pd | null;
  readonly qp_type: ibv_qp_type;
}

/**
 * `struct rdma_conn_param` (rdma_cma.h:149-160; manual §5.2.11). On input `private_data_len`
 * may be omitted (defaults to `private_data.length`; more than 255 or more than the array →
 * EINVAL). In events the received private data may be longer than what the peer sent (zero padded).
 */
export interface rdma_conn_param {
  private_data: Uint8Array | null;
  private_data_len: number;
  responder_resources: number;
  initiator_depth: number;
  flow_control: number;
  /** Ignored when accepting. */
  retry_count: number;
  rnr_retry_count: number;
  /** Ignored if a QP is created on the id. */
  srq: number;
  /** Ignored if a QP is created on the id. */
  qp_num: number;
}

/** `struct rdma_ud_param` (rdma_cma.h:162-168; manual §5.3.1.2). UD only — never produced on iWARP. */
export interface rdma_ud_param {
  private_data: Uint8Array | null;
  private_data_len: number;
  ah_attr: ibv_ah_attr;
  qp_num: number;
  qkey: number;
}

/**
 * `struct rdma_cm_event` (rdma_cma.h:170-180; manual §5.3.1). `param` is a C union chosen by the
 * id's port space: `conn` for `RDMA_PS_TCP`, `ud` for `RDMA_PS_UDP`/`RDMA_PS_IPOIB`. Owned by the
 * library until `rdma_ack_cm_event` (after which its private data must not be used).
 */
export interface rdma_cm_event {
  /** For `RDMA_CM_EVENT_CONNECT_REQUEST`: the new id of the request. */
  id: rdma_cm_id;
  /** For `RDMA_CM_EVENT_CONNECT_REQUEST`: the listening id; otherwise null. */
  listen_id: rdma_cm_id | null;
  event: rdma_cm_event_type;
  /** 0, or the failure reason (negative errno, or the transport's reject reason for REJECTED). */
  status: number;
  param: { conn: rdma_conn_param; ud: rdma_ud_param };
}

/**
 * `struct rdma_addrinfo` (rdma_cma.h:189-205; manual §5.2.5). Results of `rdma_getaddrinfo` form a
 * `ai_next` list as in C. `ai_family` is `AF_INET`/`AF_INET6`/`AF_IB`, `ai_qp_type` an
 * `ibv_qp_type`, `ai_port_space` an `rdma_port_space`, `ai_flags` `RAI_*` bits. The `*_len` fields
 * are the C sizes (16 for an IPv4 sockaddr, 28 for IPv6; byte lengths of `ai_route`/`ai_connect`).
 */
export interface rdma_addrinfo {
  ai_flags: number;
  ai_family: number;
  ai_qp_type: number;
  ai_port_space: number;
  ai_src_len: number;
  ai_dst_len: number;
  ai_src_addr: sockaddr | null;
  ai_dst_addr: sockaddr | null;
  ai_src_canonname: string | null;
  ai_dst_canonname: string | null;
  ai_route_len: number;
  ai_route: Uint8Array | null;
  ai_connect_len: number;
  ai_connect: Uint8Array | null;
  ai_next: rdma_addrinfo | null;
}

// ---------------------------------------------------------------------------------------------
// Mellanox OFED experimental verbs (manual §4.8, §8.6-8.9) — unsupported (ENOSYS)
// Field lists follow the manual; where it is garbled, MLNX_OFED 4.6 `verbs_exp.h`.
// ---------------------------------------------------------------------------------------------

/** `struct ibv_exp_device_calc_cap` (manual §8.9.2.1). */
export interface ibv_exp_device_calc_cap {
  data_types: bigint;
  data_sizes: bigint;
  int_ops: bigint;
  uint_ops: bigint;
  fp_ops: bigint;
}

/**
 * `struct ibv_exp_ext_atomics_params` (manual §8.7.2.1). MLNX_OFED 4.6 renamed `atomic_arg_sizes`
 * to `log_atomic_arg_sizes`; the manual's name is kept.
 */
export interface ibv_exp_ext_atomics_params {
  atomic_arg_sizes: bigint;
  max_fa_bit_boundary: number;
  log_max_atomic_inline: number;
}

/** `struct ibv_exp_umr_caps` (manual §8.8.1.1). */
export interface ibv_exp_umr_caps {
  max_klm_list_size: number;
  max_send_wqe_inline_klms: number;
  max_umr_recursion_depth: number;
  max_umr_stride_dimension: number;
}

/**
 * `struct ibv_exp_device_attr` (manual §4.8.1, §8.6.1.2, §8.7.2.1, §8.8.1.1): `ibv_device_attr`
 * with `reserved` instead of `device_cap_flags` and `exp_atomic_cap` instead of `atomic_cap`, plus
 * the experimental fields. The manual lists the UMR limits both directly and inside `umr_caps`.
 */
export interface ibv_exp_device_attr extends Omit<ibv_device_attr, 'device_cap_flags' | 'atomic_cap'> {
  reserved: number;
  exp_atomic_cap: ibv_exp_atomic_cap;
  comp_mask: number;
  calc_cap: ibv_exp_device_calc_cap;
  /** `IBV_EXP_DEVICE_*` bits (uint64_t). */
  exp_device_cap_flags: bigint;
  max_dc_req_rd_atom: number;
  max_dc_res_rd_atom: number;
  inline_recv_sz: number;
  max_rss_tbl_sz: number;
  ext_atom: ibv_exp_ext_atomics_params;
  umr_caps: ibv_exp_umr_caps;
  max_mkey_klm_list_size: number;
  max_send_wqe_inline_klms: number;
  max_umr_recursion_depth: number;
  max_umr_stride_dimension: number;
}

/** `struct ibv_exp_qpg` (QP groups; the manual only names it). */
export interface ibv_exp_qpg {
  qpg_type: number;
  qpg_parent: ibv_qp | null;
}

/** `struct ibv_exp_qp_init_attr` (manual §4.8.2, §8.6.1.7, §8.7.2.3, §8.8.1.2, §8.9.2.3). */
export interface ibv_exp_qp_init_attr {
  qp_context: unknown;
  send_cq: ibv_cq | null;
  recv_cq: ibv_cq | null;
  srq: ibv_srq | null;
  cap: ibv_qp_cap;
  /** `ibv_qp_type` or `IBV_EXP_QPT_DC_INI`. */
  qp_type: number;
  sq_sig_all: number;
  /** `IBV_EXP_QP_INIT_ATTR_*` bits. */
  comp_mask: number;
  pd: ibv_pd | null;
  /** `IBV_EXP_QP_CREATE_*` bits. */
  exp_create_flags: number;
  max_inl_recv: number;
  qpg: ibv_exp_qpg;
  max_atomic_arg: number;
  max_inl_send_klms: number;
}

/** `struct ibv_exp_mw_bind_info` (manual §4.8.3). */
export interface ibv_exp_mw_bind_info {
  mr: ibv_mr | null;
  addr: bigint;
  length: bigint;
  exp_mw_access_flags: bigint;
}

/** `struct ibv_exp_cmp_swap` (manual §8.7.2.4; the manual's `swap----_mask` is `swap_mask`). */
export interface ibv_exp_cmp_swap {
  compare_mask: bigint;
  compare_val: bigint;
  swap_val: bigint;
  swap_mask: bigint;
}

/** `struct ibv_exp_fetch_add` (manual §8.7.2.4). */
export interface ibv_exp_fetch_add {
  add_val: bigint;
  field_boundary: bigint;
}

/** `struct ibv_exp_mem_region` (UMR KLM entry). */
export interface ibv_exp_mem_region {
  base_addr: bigint;
  mr: ibv_mr | null;
  length: number;
}

/** `struct ibv_exp_mem_repeat_block` (UMR repeat block; arrays sized by the stride dimension). */
export interface ibv_exp_mem_repeat_block {
  base_addr: bigint;
  mr: ibv_mr | null;
  byte_count: number[];
  stride: number[];
}

/** `struct ibv_exp_mkey_list_container` (manual §8.8.1.4). */
export interface ibv_exp_mkey_list_container extends VerbsHandle<'ibv_exp_mkey_list_container'> {
  readonly max_klm_list_size: number;
  readonly context: ibv_context;
}

/** `struct ibv_exp_mkey_list_container_attr` (argument of `ibv_exp_alloc_mkey_list_memory`; text lost in the manual). */
export interface ibv_exp_mkey_list_container_attr {
  pd: ibv_pd | null;
  mkey_list_type: number;
  max_klm_list_size: number;
  comp_mask: number;
}

/** `struct ibv_exp_send_wr` (manual §4.8.3, §8.7.2.4, §8.8.1.5, §8.9.3; garbled there, completed from MLNX_OFED 4.6). */
export interface ibv_exp_send_wr {
  wr_id: bigint;
  next: ibv_exp_send_wr | null;
  sg_list: ibv_sge[];
  num_sge: number;
  exp_opcode: ibv_exp_wr_opcode;
  reserved: number;
  ex: { imm_data: number; invalidate_rkey: number };
  wr: ibv_send_wr['wr'];
  qp_type: { xrc: { remote_srqn: number } };
  xrc_remote_srq_num: number;
  task: {
    rdma: { remote_addr: bigint; rkey: number };
    atomic: { remote_addr: bigint; compare_add: bigint; swap: bigint; rkey: number };
    cqe_wait: { cq: ibv_cq | null; cq_count: number };
    wqe_enable: { qp: ibv_qp | null; wqe_count: number };
  };
  op: { calc: { calc_op: ibv_exp_calc_op; data_type: ibv_exp_calc_data_type; data_size: ibv_exp_calc_data_size } };
  dc: { ah: ibv_ah | null; dct_access_key: bigint; dct_number: number };
  bind_mw: { mw: ibv_mw | null; rkey: number; bind_info: ibv_exp_mw_bind_info };
  /** `IBV_EXP_SEND_*` bits (uint64_t). */
  exp_send_flags: bigint;
  comp_mask: number;
  ext_op: {
    umr: {
      umr_type: number;
      memory_objects: ibv_exp_mkey_list_container | null;
      exp_access: bigint;
      modified_mr: ibv_mr | null;
      base_addr: bigint;
      num_mrs: number;
      mem_list: {
        mem_reg_list: ibv_exp_mem_region[];
        rb: { mem_repeat_block_list: ibv_exp_mem_repeat_block[]; repeat_count: number[]; stride_dim: number };
      };
    };
    masked_atomics: {
      log_arg_sz: number;
      remote_addr: bigint;
      rkey: number;
      wr_data: { inline_data: { op: { cmp_swap: ibv_exp_cmp_swap; fetch_add: ibv_exp_fetch_add } } };
    };
  };
}

/** `struct ibv_exp_dct` (manual §8.6.1; `ibv_exp_create_dct` is declared as returning `struct ibv_dct *`). */
export interface ibv_exp_dct extends VerbsHandle<'ibv_exp_dct'> {
  readonly context: ibv_context;
  readonly handle: number;
  readonly dct_num: number;
  readonly pd: ibv_pd;
  readonly srq: ibv_srq;
  readonly cq: ibv_cq;
}

/** `struct ibv_exp_dct_init_attr` (manual §8.6.1.3). */
export interface ibv_exp_dct_init_attr {
  pd: ibv_pd | null;
  cq: ibv_cq | null;
  srq: ibv_srq | null;
  dc_key: bigint;
  port: number;
  access_flags: number;
  min_rnr_timer: number;
  tclass: number;
  flow_label: number;
  mtu: ibv_mtu;
  pkey_index: number;
  gid_index: number;
  hop_limit: number;
  create_flags: number;
}

/** `struct ibv_exp_dct_attr` (manual §8.6.1.5; "min_rnr_flags" there is `min_rnr_timer`). */
export interface ibv_exp_dct_attr {
  state: number;
  cq: ibv_cq | null;
  access_flags: number;
  min_rnr_timer: number;
  pd: ibv_pd | null;
  tclass: number;
  flow_label: number;
  dc_key: bigint;
  mtu: ibv_mtu;
  port: number;
  pkey_index: number;
  gid_index: number;
  hop_limit: number;
  key_violations: number;
  srq: ibv_srq | null;
}

/** `struct ibv_exp_arm_attr` (manual §8.6.1.6); `comp_mask` must be 0. */
export interface ibv_exp_arm_attr {
  comp_mask: number;
}

/** `struct ibv_exp_mr_init_attr` (manual §8.8.1.3). */
export interface ibv_exp_mr_init_attr {
  max_reg_descriptors: bigint;
  create_flags: number;
  access_flags: bigint;
  comp_mask: number;
}

/** `struct ibv_exp_create_mr_in` (manual §8.8.1.3 shows only `attr`; `pd`, `comp_mask` from MLNX_OFED 4.6). */
export interface ibv_exp_create_mr_in {
  pd: ibv_pd | null;
  attr: ibv_exp_mr_init_attr;
  comp_mask: number;
}

/** `struct ibv_exp_mkey_attr` (manual §8.8.1.3). */
export interface ibv_exp_mkey_attr {
  n_mkey_entries: number;
  comp_mask: number;
}

/** `struct ibv_exp_reg_mr_in` (named by manual §8.8.1.1; fields from MLNX_OFED 4.6). */
export interface ibv_exp_reg_mr_in {
  pd: ibv_pd | null;
  addr: Uint8Array | null;
  length: number;
  exp_access: bigint;
  comp_mask: number;
  create_flags: number;
}

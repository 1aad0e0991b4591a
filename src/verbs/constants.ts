/**
 * libibverbs / librdmacm constants for the ibverbs + rdma_cm face of softrdma.
 *
 * Scope: every enum and constant used by the functions of the "RDMA Aware Networks Programming
 * User Manual" (Mellanox/NVIDIA). The manual prints names but almost no numbers,
 * so **every numeric value comes from rdma-core** (github.com/linux-rdma/rdma-core, commit
 * 691953d8d502f54088f776c5ba2aeed0a5ac945d; `libibverbs/verbs.h`, `librdmacm/rdma_cma.h`). Each
 * enum below cites the header lines it mirrors. The `*_str()` helpers return the exact strings of
 * rdma-core (`libibverbs/enum_strs.c`, `librdmacm/cma.c`).
 *
 * Enums keep the full C type and member names (`ibv_wc_status.IBV_WC_SUCCESS`) and contain every
 * member of the rdma-core enum, including ones the manual does not mention (so values coming from
 * real peers or traces always have a name). Every member is also exported as a top-level
 * constant (`IBV_WC_SUCCESS`), so code ported from C reads the same.
 *
 * The last section holds the names the manual uses from the legacy Mellanox OFED APIs
 * (legacy XRC, `ibv_exp_*`), which upstream rdma-core never had; their values come from
 * MLNX_OFED 4.6 libibverbs (`include/infiniband/verbs_exp.h`, `verbs.h`; mirror
 * github.com/gpudirect/libibverbs @ bf7ecd90). softrdma answers every such call with ENOSYS.
 *
 * @module
 */

// ---------------------------------------------------------------------------------------------
// Devices (verbs.h:95-113, 2011-2014)
// ---------------------------------------------------------------------------------------------

/** `enum ibv_node_type` (verbs.h:95-104). softrdma reports `IBV_NODE_RNIC`. */
export enum ibv_node_type {
  IBV_NODE_UNKNOWN = -1,
  IBV_NODE_CA = 1,
  IBV_NODE_SWITCH = 2,
  IBV_NODE_ROUTER = 3,
  IBV_NODE_RNIC = 4,
  IBV_NODE_USNIC = 5,
  IBV_NODE_USNIC_UDP = 6,
  IBV_NODE_UNSPECIFIED = 7,
}

/** `enum ibv_transport_type` (verbs.h:106-113). softrdma reports `IBV_TRANSPORT_IWARP`. */
export enum ibv_transport_type {
  IBV_TRANSPORT_UNKNOWN = -1,
  IBV_TRANSPORT_IB = 0,
  IBV_TRANSPORT_IWARP = 1,
  IBV_TRANSPORT_USNIC = 2,
  IBV_TRANSPORT_USNIC_UDP = 3,
  IBV_TRANSPORT_UNSPECIFIED = 4,
}

/** Anonymous enum (verbs.h:2011-2014): sizes of the `ibv_device` name/path strings (C arrays). */
export const IBV_SYSFS_NAME_MAX = 64;
export const IBV_SYSFS_PATH_MAX = 256;

// ---------------------------------------------------------------------------------------------
// Device / port attributes (verbs.h:115-160, 367-452)
// ---------------------------------------------------------------------------------------------

/**
 * `enum ibv_device_cap_flags` (verbs.h:115-140), bits of `ibv_device_attr.device_cap_flags`.
 * The 64-bit-only flags of `device_cap_flags_ex` (verbs.h:152-154) are not part of the manual.
 */
export enum ibv_device_cap_flags {
  IBV_DEVICE_RESIZE_MAX_WR = 1,
  IBV_DEVICE_BAD_PKEY_CNTR = 1 << 1,
  IBV_DEVICE_BAD_QKEY_CNTR = 1 << 2,
  IBV_DEVICE_RAW_MULTI = 1 << 3,
  IBV_DEVICE_AUTO_PATH_MIG = 1 << 4,
  IBV_DEVICE_CHANGE_PHY_PORT = 1 << 5,
  IBV_DEVICE_UD_AV_PORT_ENFORCE = 1 << 6,
  IBV_DEVICE_CURR_QP_STATE_MOD = 1 << 7,
  IBV_DEVICE_SHUTDOWN_PORT = 1 << 8,
  IBV_DEVICE_INIT_TYPE = 1 << 9,
  IBV_DEVICE_PORT_ACTIVE_EVENT = 1 << 10,
  IBV_DEVICE_SYS_IMAGE_GUID = 1 << 11,
  IBV_DEVICE_RC_RNR_NAK_GEN = 1 << 12,
  IBV_DEVICE_SRQ_RESIZE = 1 << 13,
  IBV_DEVICE_N_NOTIFY_CQ = 1 << 14,
  IBV_DEVICE_MEM_WINDOW = 1 << 17,
  IBV_DEVICE_UD_IP_CSUM = 1 << 18,
  IBV_DEVICE_XRC = 1 << 20,
  IBV_DEVICE_MEM_MGT_EXTENSIONS = 1 << 21,
  IBV_DEVICE_MEM_WINDOW_TYPE_2A = 1 << 23,
  IBV_DEVICE_MEM_WINDOW_TYPE_2B = 1 << 24,
  IBV_DEVICE_RC_IP_CSUM = 1 << 25,
  IBV_DEVICE_RAW_IP_CSUM = 1 << 26,
  IBV_DEVICE_MANAGED_FLOW_STEERING = 1 << 29,
}

/** `enum ibv_atomic_cap` (verbs.h:156-160). iWARP without RFC 7306 (siw, softrdma): `IBV_ATOMIC_NONE`. */
export enum ibv_atomic_cap {
  IBV_ATOMIC_NONE = 0,
  IBV_ATOMIC_HCA = 1,
  IBV_ATOMIC_GLOB = 2,
}

/** `enum ibv_mtu` (verbs.h:367-373). Bytes = `1 << (mtu + 7)` (the manual's mckey check). */
export enum ibv_mtu {
  IBV_MTU_256 = 1,
  IBV_MTU_512 = 2,
  IBV_MTU_1024 = 3,
  IBV_MTU_2048 = 4,
  IBV_MTU_4096 = 5,
}

/** `enum ibv_port_state` (verbs.h:375-382). */
export enum ibv_port_state {
  IBV_PORT_NOP = 0,
  IBV_PORT_DOWN = 1,
  IBV_PORT_INIT = 2,
  IBV_PORT_ARMED = 3,
  IBV_PORT_ACTIVE = 4,
  IBV_PORT_ACTIVE_DEFER = 5,
}

/**
 * Anonymous enum (verbs.h:384-388) for `ibv_port_attr.link_layer`. The C enum has no type name,
 * so there is no TS enum; iWARP ports (siw, softrdma) report `IBV_LINK_LAYER_ETHERNET`.
 */
export const IBV_LINK_LAYER_UNSPECIFIED = 0;
export const IBV_LINK_LAYER_INFINIBAND = 1;
export const IBV_LINK_LAYER_ETHERNET = 2;

/** `enum ibv_port_cap_flags` (verbs.h:390-415), bits of `ibv_port_attr.port_cap_flags`. */
export enum ibv_port_cap_flags {
  IBV_PORT_SM = 1 << 1,
  IBV_PORT_NOTICE_SUP = 1 << 2,
  IBV_PORT_TRAP_SUP = 1 << 3,
  IBV_PORT_OPT_IPD_SUP = 1 << 4,
  IBV_PORT_AUTO_MIGR_SUP = 1 << 5,
  IBV_PORT_SL_MAP_SUP = 1 << 6,
  IBV_PORT_MKEY_NVRAM = 1 << 7,
  IBV_PORT_PKEY_NVRAM = 1 << 8,
  IBV_PORT_LED_INFO_SUP = 1 << 9,
  IBV_PORT_SYS_IMAGE_GUID_SUP = 1 << 11,
  IBV_PORT_PKEY_SW_EXT_PORT_TRAP_SUP = 1 << 12,
  IBV_PORT_EXTENDED_SPEEDS_SUP = 1 << 14,
  IBV_PORT_CAP_MASK2_SUP = 1 << 15,
  IBV_PORT_CM_SUP = 1 << 16,
  IBV_PORT_SNMP_TUNNEL_SUP = 1 << 17,
  IBV_PORT_REINIT_SUP = 1 << 18,
  IBV_PORT_DEVICE_MGMT_SUP = 1 << 19,
  IBV_PORT_VENDOR_CLASS_SUP = 1 << 20,
  IBV_PORT_DR_NOTICE_SUP = 1 << 21,
  IBV_PORT_CAP_MASK_NOTICE_SUP = 1 << 22,
  IBV_PORT_BOOT_MGMT_SUP = 1 << 23,
  IBV_PORT_LINK_LATENCY_SUP = 1 << 24,
  IBV_PORT_CLIENT_REG_SUP = 1 << 25,
  IBV_PORT_IP_BASED_GIDS = 1 << 26,
}

// ---------------------------------------------------------------------------------------------
// Async events and work completions (verbs.h:454-591)
// ---------------------------------------------------------------------------------------------

/** `enum ibv_event_type` (verbs.h:454-476). The manual lists the first 19 (0..18). */
export enum ibv_event_type {
  IBV_EVENT_CQ_ERR = 0,
  IBV_EVENT_QP_FATAL = 1,
  IBV_EVENT_QP_REQ_ERR = 2,
  IBV_EVENT_QP_ACCESS_ERR = 3,
  IBV_EVENT_COMM_EST = 4,
  IBV_EVENT_SQ_DRAINED = 5,
  IBV_EVENT_PATH_MIG = 6,
  IBV_EVENT_PATH_MIG_ERR = 7,
  IBV_EVENT_DEVICE_FATAL = 8,
  IBV_EVENT_PORT_ACTIVE = 9,
  IBV_EVENT_PORT_ERR = 10,
  IBV_EVENT_LID_CHANGE = 11,
  IBV_EVENT_PKEY_CHANGE = 12,
  IBV_EVENT_SM_CHANGE = 13,
  IBV_EVENT_SRQ_ERR = 14,
  IBV_EVENT_SRQ_LIMIT_REACHED = 15,
  IBV_EVENT_QP_LAST_WQE_REACHED = 16,
  IBV_EVENT_CLIENT_REREGISTER = 17,
  IBV_EVENT_GID_CHANGE = 18,
  IBV_EVENT_WQ_FATAL = 19,
  IBV_EVENT_DEVICE_SPEED_CHANGE = 20,
}

/** `enum ibv_wc_status` (verbs.h:489-514). The manual documents 0..21 (§7.2). */
export enum ibv_wc_status {
  IBV_WC_SUCCESS = 0,
  IBV_WC_LOC_LEN_ERR = 1,
  IBV_WC_LOC_QP_OP_ERR = 2,
  IBV_WC_LOC_EEC_OP_ERR = 3,
  IBV_WC_LOC_PROT_ERR = 4,
  IBV_WC_WR_FLUSH_ERR = 5,
  IBV_WC_MW_BIND_ERR = 6,
  IBV_WC_BAD_RESP_ERR = 7,
  IBV_WC_LOC_ACCESS_ERR = 8,
  IBV_WC_REM_INV_REQ_ERR = 9,
  IBV_WC_REM_ACCESS_ERR = 10,
  IBV_WC_REM_OP_ERR = 11,
  IBV_WC_RETRY_EXC_ERR = 12,
  IBV_WC_RNR_RETRY_EXC_ERR = 13,
  IBV_WC_LOC_RDD_VIOL_ERR = 14,
  IBV_WC_REM_INV_RD_REQ_ERR = 15,
  IBV_WC_REM_ABORT_ERR = 16,
  IBV_WC_INV_EECN_ERR = 17,
  IBV_WC_INV_EEC_STATE_ERR = 18,
  IBV_WC_FATAL_ERR = 19,
  IBV_WC_RESP_TIMEOUT_ERR = 20,
  IBV_WC_GENERAL_ERR = 21,
  IBV_WC_TM_ERR = 22,
  IBV_WC_TM_RNDV_INCOMPLETE = 23,
}

/**
 * `enum ibv_wc_opcode` (verbs.h:517-543). `IBV_WC_RECV` is `1 << 7` so that
 * `(opcode & IBV_WC_RECV) !== 0` tests for any receive completion (verbs.h:528-532).
 */
export enum ibv_wc_opcode {
  IBV_WC_SEND = 0,
  IBV_WC_RDMA_WRITE = 1,
  IBV_WC_RDMA_READ = 2,
  IBV_WC_COMP_SWAP = 3,
  IBV_WC_FETCH_ADD = 4,
  IBV_WC_BIND_MW = 5,
  IBV_WC_LOCAL_INV = 6,
  IBV_WC_TSO = 7,
  IBV_WC_FLUSH = 8,
  IBV_WC_ATOMIC_WRITE = 9,
  IBV_WC_RECV = 1 << 7,
  IBV_WC_RECV_RDMA_WITH_IMM = 129,
  IBV_WC_TM_ADD = 130,
  IBV_WC_TM_DEL = 131,
  IBV_WC_TM_SYNC = 132,
  IBV_WC_TM_RECV = 133,
  IBV_WC_TM_NO_TAG = 134,
  IBV_WC_DRIVER1 = 135,
  IBV_WC_DRIVER2 = 136,
  IBV_WC_DRIVER3 = 137,
}

/** Anonymous enum (verbs.h:545-547): shift of `IBV_WC_IP_CSUM_OK`. */
export const IBV_WC_IP_CSUM_OK_SHIFT = 2;

/** `enum ibv_wc_flags` (verbs.h:583-591), bits of `ibv_wc.wc_flags`. */
export enum ibv_wc_flags {
  IBV_WC_GRH = 1 << 0,
  IBV_WC_WITH_IMM = 1 << 1,
  IBV_WC_IP_CSUM_OK = 1 << 2,
  IBV_WC_WITH_INV = 1 << 3,
  IBV_WC_TM_SYNC_REQ = 1 << 4,
  IBV_WC_TM_MATCH = 1 << 5,
  IBV_WC_TM_DATA_VALID = 1 << 6,
}

// ---------------------------------------------------------------------------------------------
// Memory (verbs.h:615-627, 709-712)
// ---------------------------------------------------------------------------------------------

/**
 * `enum ibv_access_flags` (verbs.h:615-627). `IBV_ACCESS_RELAXED_ORDERING` =
 * `IBV_ACCESS_OPTIONAL_FIRST` (libibverbs/verbs_api.h:98) = `IB_UVERBS_ACCESS_OPTIONAL_FIRST`
 * = `1 << 20` (kernel-headers/rdma/ib_user_ioctl_verbs.h:44).
 */
export enum ibv_access_flags {
  IBV_ACCESS_LOCAL_WRITE = 1,
  IBV_ACCESS_REMOTE_WRITE = 1 << 1,
  IBV_ACCESS_REMOTE_READ = 1 << 2,
  IBV_ACCESS_REMOTE_ATOMIC = 1 << 3,
  IBV_ACCESS_MW_BIND = 1 << 4,
  IBV_ACCESS_ZERO_BASED = 1 << 5,
  IBV_ACCESS_ON_DEMAND = 1 << 6,
  IBV_ACCESS_HUGETLB = 1 << 7,
  IBV_ACCESS_FLUSH_GLOBAL = 1 << 8,
  IBV_ACCESS_FLUSH_PERSISTENT = 1 << 9,
  IBV_ACCESS_RELAXED_ORDERING = 1 << 20,
}

/** `IBV_ACCESS_OPTIONAL_FIRST` (verbs_api.h:98 → ib_user_ioctl_verbs.h:44). */
export const IBV_ACCESS_OPTIONAL_FIRST = 1 << 20;

/** `enum ibv_mw_type` (verbs.h:709-712), `ibv_mw.type`. */
export enum ibv_mw_type {
  IBV_MW_TYPE_1 = 1,
  IBV_MW_TYPE_2 = 2,
}

// ---------------------------------------------------------------------------------------------
// Address handles (verbs.h:739-764)
// ---------------------------------------------------------------------------------------------

/** `enum ibv_rate` (verbs.h:739-764), `ibv_ah_attr.static_rate`. Not monotonic in value. */
export enum ibv_rate {
  IBV_RATE_MAX = 0,
  IBV_RATE_2_5_GBPS = 2,
  IBV_RATE_5_GBPS = 5,
  IBV_RATE_10_GBPS = 3,
  IBV_RATE_20_GBPS = 6,
  IBV_RATE_30_GBPS = 4,
  IBV_RATE_40_GBPS = 7,
  IBV_RATE_60_GBPS = 8,
  IBV_RATE_80_GBPS = 9,
  IBV_RATE_120_GBPS = 10,
  IBV_RATE_14_GBPS = 11,
  IBV_RATE_56_GBPS = 12,
  IBV_RATE_112_GBPS = 13,
  IBV_RATE_168_GBPS = 14,
  IBV_RATE_25_GBPS = 15,
  IBV_RATE_100_GBPS = 16,
  IBV_RATE_200_GBPS = 17,
  IBV_RATE_300_GBPS = 18,
  IBV_RATE_28_GBPS = 19,
  IBV_RATE_50_GBPS = 20,
  IBV_RATE_400_GBPS = 21,
  IBV_RATE_600_GBPS = 22,
  IBV_RATE_800_GBPS = 23,
  IBV_RATE_1200_GBPS = 24,
}

// ---------------------------------------------------------------------------------------------
// SRQ (verbs.h:803-806)
// ---------------------------------------------------------------------------------------------

/** `enum ibv_srq_attr_mask` (verbs.h:803-806), the `srq_attr_mask` of `ibv_modify_srq`. */
export enum ibv_srq_attr_mask {
  IBV_SRQ_MAX_WR = 1 << 0,
  IBV_SRQ_LIMIT = 1 << 1,
}

// ---------------------------------------------------------------------------------------------
// QPs (verbs.h:932-1097)
// ---------------------------------------------------------------------------------------------

/**
 * `enum ibv_qp_type` (verbs.h:932-940). iWARP supports `IBV_QPT_RC` only (siw_create_qp:
 * "only RC QP's supported" → EOPNOTSUPP). Legacy `IBV_QPT_XRC` (5) and `IBV_EXP_QPT_DC_INI` (32)
 * of MLNX_OFED are at the end of this file.
 */
export enum ibv_qp_type {
  IBV_QPT_RC = 2,
  IBV_QPT_UC = 3,
  IBV_QPT_UD = 4,
  IBV_QPT_RAW_PACKET = 8,
  IBV_QPT_XRC_SEND = 9,
  IBV_QPT_XRC_RECV = 10,
  IBV_QPT_DRIVER = 0xff,
}

/** `enum ibv_qp_attr_mask` (verbs.h:1040-1070). Bits 21-24 were never exposed by libibverbs. */
export enum ibv_qp_attr_mask {
  IBV_QP_STATE = 1 << 0,
  IBV_QP_CUR_STATE = 1 << 1,
  IBV_QP_EN_SQD_ASYNC_NOTIFY = 1 << 2,
  IBV_QP_ACCESS_FLAGS = 1 << 3,
  IBV_QP_PKEY_INDEX = 1 << 4,
  IBV_QP_PORT = 1 << 5,
  IBV_QP_QKEY = 1 << 6,
  IBV_QP_AV = 1 << 7,
  IBV_QP_PATH_MTU = 1 << 8,
  IBV_QP_TIMEOUT = 1 << 9,
  IBV_QP_RETRY_CNT = 1 << 10,
  IBV_QP_RNR_RETRY = 1 << 11,
  IBV_QP_RQ_PSN = 1 << 12,
  IBV_QP_MAX_QP_RD_ATOMIC = 1 << 13,
  IBV_QP_ALT_PATH = 1 << 14,
  IBV_QP_MIN_RNR_TIMER = 1 << 15,
  IBV_QP_SQ_PSN = 1 << 16,
  IBV_QP_MAX_DEST_RD_ATOMIC = 1 << 17,
  IBV_QP_PATH_MIG_STATE = 1 << 18,
  IBV_QP_CAP = 1 << 19,
  IBV_QP_DEST_QPN = 1 << 20,
  IBV_QP_RATE_LIMIT = 1 << 25,
}

/** `enum ibv_qp_state` (verbs.h:1082-1091). */
export enum ibv_qp_state {
  IBV_QPS_RESET = 0,
  IBV_QPS_INIT = 1,
  IBV_QPS_RTR = 2,
  IBV_QPS_RTS = 3,
  IBV_QPS_SQD = 4,
  IBV_QPS_SQE = 5,
  IBV_QPS_ERR = 6,
  IBV_QPS_UNKNOWN = 7,
}

/** `enum ibv_mig_state` (verbs.h:1093-1097), `ibv_qp_attr.path_mig_state` (APM, IB/RoCE only). */
export enum ibv_mig_state {
  IBV_MIG_MIGRATED = 0,
  IBV_MIG_REARM = 1,
  IBV_MIG_ARMED = 2,
}

// ---------------------------------------------------------------------------------------------
// Work requests (verbs.h:1135-1160)
// ---------------------------------------------------------------------------------------------

/**
 * `enum ibv_wr_opcode` (verbs.h:1135-1150). The manual lists 0..6. iWARP (siw) rejects the
 * `*_WITH_IMM` and atomic opcodes at post time (see `IWARP_UNSUPPORTED` in `errno.ts`).
 */
export enum ibv_wr_opcode {
  IBV_WR_RDMA_WRITE = 0,
  IBV_WR_RDMA_WRITE_WITH_IMM = 1,
  IBV_WR_SEND = 2,
  IBV_WR_SEND_WITH_IMM = 3,
  IBV_WR_RDMA_READ = 4,
  IBV_WR_ATOMIC_CMP_AND_SWP = 5,
  IBV_WR_ATOMIC_FETCH_AND_ADD = 6,
  IBV_WR_LOCAL_INV = 7,
  IBV_WR_BIND_MW = 8,
  IBV_WR_SEND_WITH_INV = 9,
  IBV_WR_TSO = 10,
  IBV_WR_DRIVER1 = 11,
  IBV_WR_FLUSH = 14,
  IBV_WR_ATOMIC_WRITE = 15,
}

/** `enum ibv_send_flags` (verbs.h:1154-1160), `ibv_send_wr.send_flags`. */
export enum ibv_send_flags {
  IBV_SEND_FENCE = 1 << 0,
  IBV_SEND_SIGNALED = 1 << 1,
  IBV_SEND_SOLICITED = 1 << 2,
  IBV_SEND_INLINE = 1 << 3,
  IBV_SEND_IP_CSUM = 1 << 4,
}

// ---------------------------------------------------------------------------------------------
// rdma_cm (rdma_cma.h)
// ---------------------------------------------------------------------------------------------

/**
 * `enum rdma_cm_event_type` (rdma_cma.h:50-71). The manual documents 0..15 (§5.3.1.4, §7.3);
 * 16..19 are newer rdma-core additions (`USER`/`INTERNAL` are never returned to consumers).
 */
export enum rdma_cm_event_type {
  RDMA_CM_EVENT_ADDR_RESOLVED = 0,
  RDMA_CM_EVENT_ADDR_ERROR = 1,
  RDMA_CM_EVENT_ROUTE_RESOLVED = 2,
  RDMA_CM_EVENT_ROUTE_ERROR = 3,
  RDMA_CM_EVENT_CONNECT_REQUEST = 4,
  RDMA_CM_EVENT_CONNECT_RESPONSE = 5,
  RDMA_CM_EVENT_CONNECT_ERROR = 6,
  RDMA_CM_EVENT_UNREACHABLE = 7,
  RDMA_CM_EVENT_REJECTED = 8,
  RDMA_CM_EVENT_ESTABLISHED = 9,
  RDMA_CM_EVENT_DISCONNECTED = 10,
  RDMA_CM_EVENT_DEVICE_REMOVAL = 11,
  RDMA_CM_EVENT_MULTICAST_JOIN = 12,
  RDMA_CM_EVENT_MULTICAST_ERROR = 13,
  RDMA_CM_EVENT_ADDR_CHANGE = 14,
  RDMA_CM_EVENT_TIMEWAIT_EXIT = 15,
  RDMA_CM_EVENT_ADDRINFO_RESOLVED = 16,
  RDMA_CM_EVENT_ADDRINFO_ERROR = 17,
  RDMA_CM_EVENT_USER = 18,
  RDMA_CM_EVENT_INTERNAL = 19,
}

/** `enum rdma_cm_join_mc_attr_mask` (rdma_cma.h): which members of `rdma_cm_join_mc_attr_ex` are set. */
export enum rdma_cm_join_mc_attr_mask {
  RDMA_CM_JOIN_MC_ATTR_ADDRESS = 1 << 0,
  RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS = 1 << 1,
  RDMA_CM_JOIN_MC_ATTR_RESERVED = 1 << 2,
}
export const RDMA_CM_JOIN_MC_ATTR_ADDRESS = rdma_cm_join_mc_attr_mask.RDMA_CM_JOIN_MC_ATTR_ADDRESS;
export const RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS = rdma_cm_join_mc_attr_mask.RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS;
export const RDMA_CM_JOIN_MC_ATTR_RESERVED = rdma_cm_join_mc_attr_mask.RDMA_CM_JOIN_MC_ATTR_RESERVED;

/**
 * `enum rdma_cm_mc_join_flags` (rdma_cma.h): a full member sends and receives; a send-only full
 * member sends to the group and receives nothing from it (IBTA Vol. 1 §15.2.5.17 JoinState).
 */
export enum rdma_cm_mc_join_flags {
  RDMA_MC_JOIN_FLAG_FULLMEMBER = 0,
  RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER = 1,
  RDMA_MC_JOIN_FLAG_RESERVED = 2,
}
export const RDMA_MC_JOIN_FLAG_FULLMEMBER = rdma_cm_mc_join_flags.RDMA_MC_JOIN_FLAG_FULLMEMBER;
export const RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER = rdma_cm_mc_join_flags.RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER;
export const RDMA_MC_JOIN_FLAG_RESERVED = rdma_cm_mc_join_flags.RDMA_MC_JOIN_FLAG_RESERVED;

/** `enum rdma_port_space` (rdma_cma.h:73-78). iWARP supports `RDMA_PS_TCP` connections only. */
export enum rdma_port_space {
  RDMA_PS_IPOIB = 0x0002,
  RDMA_PS_TCP = 0x0106,
  RDMA_PS_UDP = 0x0111,
  RDMA_PS_IB = 0x013f,
}

/** Q_Key librdmacm uses for RDMA_PS_UDP ids and `rdma_post_ud_send` (rdma_cma.h:90). */
export const RDMA_UDP_QKEY = 0x01234567;

/** Anonymous enum (rdma_cma.h:144-147): limits of `rdma_conn_param.responder_resources`/`initiator_depth`. */
export const RDMA_MAX_RESP_RES = 0xff;
export const RDMA_MAX_INIT_DEPTH = 0xff;

/** `rdma_addrinfo.ai_flags` bits (rdma_cma.h:182-187). The manual names the first three. */
export const RAI_PASSIVE = 0x00000001;
export const RAI_NUMERICHOST = 0x00000002;
export const RAI_NOROUTE = 0x00000004;
export const RAI_FAMILY = 0x00000008;
export const RAI_SA = 0x00000010;
export const RAI_DNS = 0x00000020;

/** `rdma_set_option` levels (anonymous enum, rdma_cma.h:716-720). */
export const RDMA_OPTION_ID = 0;
export const RDMA_OPTION_IB = 1;
/** `RDMA_OPTION_ID` option names (rdma_cma.h:722-728). */
export const RDMA_OPTION_ID_TOS = 0;
export const RDMA_OPTION_ID_REUSEADDR = 1;
export const RDMA_OPTION_ID_AFONLY = 2;
export const RDMA_OPTION_ID_ACK_TIMEOUT = 3;
/** `RDMA_OPTION_IB` option names (rdma_cma.h:730-732). IB only. */
export const RDMA_OPTION_IB_PATH = 1;

/**
 * Linux address families used in `rdma_addrinfo.ai_family` (`<sys/socket.h>`, `<rdma/rdma_cma.h>`
 * for AF_IB). softrdma's sockaddr objects use `family: 'ipv4' | 'ipv6'` instead.
 */
export const AF_INET = 2;
export const AF_INET6 = 10;
export const AF_IB = 27;

// ---------------------------------------------------------------------------------------------
// String helpers (rdma-core libibverbs/enum_strs.c, librdmacm/cma.c)
// ---------------------------------------------------------------------------------------------

const NODE_TYPE_STR: readonly string[] = [
  '',
  'InfiniBand channel adapter',
  'InfiniBand switch',
  'InfiniBand router',
  'iWARP NIC',
  'usNIC',
  'usNIC UDP',
  'unspecified',
];

/** `ibv_node_type_str()` (manual §4.2.7; enum_strs.c:35-51): "unknown" outside CA..UNSPECIFIED. */
export function ibv_node_type_str(node_type: number): string {
  if (!Number.isInteger(node_type) || node_type < ibv_node_type.IBV_NODE_CA || node_type > ibv_node_type.IBV_NODE_UNSPECIFIED) {
    return 'unknown';
  }
  return NODE_TYPE_STR[node_type]!;
}

const PORT_STATE_STR: readonly string[] = ['no state change (NOP)', 'down', 'init', 'armed', 'active', 'active defer'];

/** `ibv_port_state_str()` (manual §4.2.8; enum_strs.c:53-68): "unknown" outside NOP..ACTIVE_DEFER. */
export function ibv_port_state_str(port_state: number): string {
  if (!Number.isInteger(port_state) || port_state < ibv_port_state.IBV_PORT_NOP || port_state > ibv_port_state.IBV_PORT_ACTIVE_DEFER) {
    return 'unknown';
  }
  return PORT_STATE_STR[port_state]!;
}

const EVENT_TYPE_STR: readonly string[] = [
  'CQ error',
  'local work queue catastrophic error',
  'invalid request local work queue error',
  'local access violation work queue error',
  'communication established',
  'send queue drained',
  'path migrated',
  'path migration request error',
  'local catastrophic error',
  'port active',
  'port error',
  'LID change',
  'P_Key change',
  'SM change',
  'SRQ catastrophic error',
  'SRQ limit reached',
  'last WQE reached',
  'client reregistration',
  'GID table change',
  'WQ fatal',
  'Device link speed change',
];

/** `ibv_event_type_str()` (manual §4.7.3; enum_strs.c:70-100): "unknown" outside CQ_ERR..DEVICE_SPEED_CHANGE. */
export function ibv_event_type_str(event_type: number): string {
  if (
    !Number.isInteger(event_type) ||
    event_type < ibv_event_type.IBV_EVENT_CQ_ERR ||
    event_type > ibv_event_type.IBV_EVENT_DEVICE_SPEED_CHANGE
  ) {
    return 'unknown';
  }
  return EVENT_TYPE_STR[event_type]!;
}

const WC_STATUS_STR: readonly string[] = [
  'success',
  'local length error',
  'local QP operation error',
  'local EE context operation error',
  'local protection error',
  'Work Request Flushed Error',
  'memory management operation error',
  'bad response error',
  'local access error',
  'remote invalid request error',
  'remote access error',
  'remote operation error',
  'transport retry counter exceeded',
  'RNR retry counter exceeded',
  'local RDD violation error',
  'remote invalid RD request',
  'aborted error',
  'invalid EE context number',
  'invalid EE context state',
  'fatal error',
  'response timeout error',
  'general error',
  'TM error',
  'TM software rendezvous',
];

/** `ibv_wc_status_str()` (used by the manual's SRQ example §8.5.3; enum_strs.c:102-135). */
export function ibv_wc_status_str(status: number): string {
  if (!Number.isInteger(status) || status < ibv_wc_status.IBV_WC_SUCCESS || status > ibv_wc_status.IBV_WC_TM_RNDV_INCOMPLETE) {
    return 'unknown';
  }
  return WC_STATUS_STR[status]!;
}

const WR_OPCODE_STR: ReadonlyMap<number, string> = new Map([
  [ibv_wr_opcode.IBV_WR_RDMA_WRITE, 'rdma-write'],
  [ibv_wr_opcode.IBV_WR_RDMA_WRITE_WITH_IMM, 'rdma-write-with-imm'],
  [ibv_wr_opcode.IBV_WR_SEND, 'send'],
  [ibv_wr_opcode.IBV_WR_SEND_WITH_IMM, 'send-with-imm'],
  [ibv_wr_opcode.IBV_WR_RDMA_READ, 'rdma-read'],
  [ibv_wr_opcode.IBV_WR_ATOMIC_CMP_AND_SWP, 'atomic-cmp-and-swp'],
  [ibv_wr_opcode.IBV_WR_ATOMIC_FETCH_AND_ADD, 'atomic-fetch-and-add'],
  [ibv_wr_opcode.IBV_WR_LOCAL_INV, 'local-inv'],
  [ibv_wr_opcode.IBV_WR_BIND_MW, 'bind-mw'],
  [ibv_wr_opcode.IBV_WR_SEND_WITH_INV, 'send-with-inv'],
  [ibv_wr_opcode.IBV_WR_TSO, 'tso'],
  [ibv_wr_opcode.IBV_WR_DRIVER1, 'driver1'],
  [ibv_wr_opcode.IBV_WR_FLUSH, 'flush'],
  [ibv_wr_opcode.IBV_WR_ATOMIC_WRITE, 'atomic-write'],
]);

/**
 * `ibv_wr_opcode_str()` (rdma-core only, not in the manual; enum_strs.c:137-160). Values 12 and
 * 13 lie inside the C range check but have no entry (C would return NULL); this returns "unknown".
 */
export function ibv_wr_opcode_str(opcode: number): string {
  return WR_OPCODE_STR.get(opcode) ?? 'unknown';
}

/**
 * `rdma_event_str()` (manual §5.3.3; librdmacm/cma.c:2790-2832): the C enum member name for
 * 0..17, "UNKNOWN EVENT" otherwise (including `RDMA_CM_EVENT_USER`/`RDMA_CM_EVENT_INTERNAL`).
 */
export function rdma_event_str(event: number): string {
  if (
    !Number.isInteger(event) ||
    event < rdma_cm_event_type.RDMA_CM_EVENT_ADDR_RESOLVED ||
    event > rdma_cm_event_type.RDMA_CM_EVENT_ADDRINFO_ERROR
  ) {
    return 'UNKNOWN EVENT';
  }
  return rdma_cm_event_type[event]!;
}

// ---------------------------------------------------------------------------------------------
// Legacy Mellanox OFED names used by the manual (not in upstream rdma-core)
// ---------------------------------------------------------------------------------------------
// Values: MLNX_OFED 4.6 libibverbs (gpudirect/libibverbs @ bf7ecd90), include/infiniband/verbs.h
// and verbs_exp.h. softrdma implements none of these APIs (ENOSYS); the names exist so that code
// ported from the manual's chapters 4.4 (legacy XRC), 4.8 and 8.6-8.9 type-checks. Flags that are
// 64-bit in C (`IBV_EXP_START_FLAG << n`, `IBV_EXP_START_FLAG` = 1 << 32) are `bigint`.

/** Legacy XRC QP type of MLNX_OFED (`IBV_QPT_XRC`, OFED verbs.h:591); rdma-core has no value 5. */
export const IBV_QPT_XRC = 5;
/** `O_CREAT` / `O_EXCL` (Linux `<fcntl.h>`) for `ibv_open_xrc_domain` (manual §4.4.8). */
export const O_CREAT = 0o100;
export const O_EXCL = 0o200;

/** `IBV_EXP_START_ENUM` (verbs_exp.h:92) and `IBV_EXP_START_FLAG` = 1 << 32 (verbs_exp.h:94). */
export const IBV_EXP_START_ENUM = 0x40;
export const IBV_EXP_START_FLAG = 1n << 32n;

/** `enum ibv_exp_atomic_cap` (verbs_exp.h:100-106). */
export enum ibv_exp_atomic_cap {
  IBV_EXP_ATOMIC_NONE = 0,
  IBV_EXP_ATOMIC_HCA = 1,
  IBV_EXP_ATOMIC_GLOB = 2,
  IBV_EXP_ATOMIC_HCA_REPLY_BE = 0x40,
}

/** `exp_device_cap_flags` bits the manual names (verbs_exp.h:129-155, uint64_t). */
export const IBV_EXP_DEVICE_DC_TRANSPORT = IBV_EXP_START_FLAG << 0n;
export const IBV_EXP_DEVICE_EXT_ATOMICS = IBV_EXP_START_FLAG << 4n;
export const IBV_EXP_DEVICE_UMR = IBV_EXP_START_FLAG << 6n;
export const IBV_EXP_DEVICE_CROSS_CHANNEL = IBV_EXP_START_FLAG << 28n;

/** `enum ibv_exp_device_attr_comp_mask` members the manual names (verbs_exp.h:173-174). */
export const IBV_EXP_DEVICE_ATTR_EXT_ATOMIC_ARGS = 1 << 8;
/** The manual (§8.8.1.1) names this comp-mask bit as the UMR capability flag. */
export const IBV_EXP_DEVICE_ATTR_UMR = 1 << 9;

/** Experimental QP type for DC initiators (OFED verbs.h:600-601). */
export const IBV_EXP_QPT_DC_INI = 32;

/** Experimental async event of an armed DCT (OFED verbs.h:317). */
export const IBV_EXP_EVENT_DCT_KEY_VIOLATION = 32;

/** `IBV_EXP_QP_DC_KEY` attr-mask bit (verbs_exp.h:952; uint64_t) of the manual's DCI table (`IBV_QP_DC_KEY`). */
export const IBV_EXP_QP_DC_KEY = IBV_EXP_START_FLAG << 22n;

/** `enum ibv_exp_qp_init_attr_comp_mask` members the manual names (verbs_exp.h:1011-1017). */
export const IBV_EXP_QP_INIT_ATTR_PD = 1 << 0;
export const IBV_EXP_QP_INIT_ATTR_CREATE_FLAGS = 1 << 2;
export const IBV_EXP_QP_INIT_ATTR_ATOMICS_ARG = 1 << 5;
export const IBV_EXP_QP_INIT_ATTR_MAX_INL_KLMS = 1 << 6;

/** `enum ibv_exp_qp_create_flags` members the manual names (verbs_exp.h:1103-1109). */
export const IBV_EXP_QP_CREATE_CROSS_CHANNEL = 1 << 2;
export const IBV_EXP_QP_CREATE_MANAGED_SEND = 1 << 3;
export const IBV_EXP_QP_CREATE_MANAGED_RECV = 1 << 4;
export const IBV_EXP_QP_CREATE_ATOMIC_BE_REPLY = 1 << 8;
export const IBV_EXP_QP_CREATE_UMR = 1 << 9;

/** `enum ibv_exp_wr_opcode` (verbs_exp.h:607-628): base opcodes, then experimental ones from 0x40. */
export enum ibv_exp_wr_opcode {
  IBV_EXP_WR_RDMA_WRITE = 0,
  IBV_EXP_WR_RDMA_WRITE_WITH_IMM = 1,
  IBV_EXP_WR_SEND = 2,
  IBV_EXP_WR_SEND_WITH_IMM = 3,
  IBV_EXP_WR_RDMA_READ = 4,
  IBV_EXP_WR_ATOMIC_CMP_AND_SWP = 5,
  IBV_EXP_WR_ATOMIC_FETCH_AND_ADD = 6,
  IBV_EXP_WR_LOCAL_INV = 7,
  IBV_EXP_WR_BIND_MW = 8,
  IBV_EXP_WR_SEND_WITH_INV = 9,
  IBV_EXP_WR_TSO = 0x40 + 15,
  IBV_EXP_WR_SEND_ENABLE = 0x40 + 0x20,
  IBV_EXP_WR_RECV_ENABLE = 0x40 + 0x21,
  IBV_EXP_WR_CQE_WAIT = 0x40 + 0x22,
  IBV_EXP_WR_EXT_MASKED_ATOMIC_CMP_AND_SWP = 0x40 + 0x23,
  IBV_EXP_WR_EXT_MASKED_ATOMIC_FETCH_AND_ADD = 0x40 + 0x24,
  IBV_EXP_WR_NOP = 0x40 + 0x25,
  IBV_EXP_WR_UMR_FILL = 0x40 + 0x26,
  IBV_EXP_WR_UMR_INVALIDATE = 0x40 + 0x27,
}

/** `enum ibv_exp_send_flags` (verbs_exp.h:630-640), `ibv_exp_send_wr.exp_send_flags` (uint64_t). */
export const IBV_EXP_SEND_FENCE = 1n << 0n;
export const IBV_EXP_SEND_SIGNALED = 1n << 1n;
export const IBV_EXP_SEND_SOLICITED = 1n << 2n;
export const IBV_EXP_SEND_INLINE = 1n << 3n;
export const IBV_EXP_SEND_IP_CSUM = IBV_EXP_START_FLAG << 0n;
export const IBV_EXP_SEND_WITH_CALC = IBV_EXP_START_FLAG << 1n;
export const IBV_EXP_SEND_WAIT_EN_LAST = IBV_EXP_START_FLAG << 2n;
export const IBV_EXP_SEND_EXT_ATOMIC_INLINE = IBV_EXP_START_FLAG << 3n;

/** `enum ibv_exp_calc_op` (verbs_exp.h:586-593). The manual's "BROR" is `BXOR`. */
export enum ibv_exp_calc_op {
  IBV_EXP_CALC_OP_ADD = 0,
  IBV_EXP_CALC_OP_MAXLOC = 1,
  IBV_EXP_CALC_OP_BAND = 2,
  IBV_EXP_CALC_OP_BXOR = 3,
  IBV_EXP_CALC_OP_BOR = 4,
}

/** `enum ibv_exp_calc_data_type` (verbs_exp.h:595-600). */
export enum ibv_exp_calc_data_type {
  IBV_EXP_CALC_DATA_TYPE_INT = 0,
  IBV_EXP_CALC_DATA_TYPE_UINT = 1,
  IBV_EXP_CALC_DATA_TYPE_FLOAT = 2,
}

/** `enum ibv_exp_calc_data_size` (verbs_exp.h:602-605). */
export enum ibv_exp_calc_data_size {
  IBV_EXP_CALC_DATA_SIZE_64_BIT = 0,
}

/** `enum ibv_exp_umr_wr_type` (verbs_exp.h:674-678), `ibv_exp_send_wr.ext_op.umr.umr_type`. */
export enum ibv_exp_umr_wr_type {
  IBV_EXP_UMR_MR_LIST = 0,
  IBV_EXP_UMR_REPEAT = 1,
  IBV_EXP_UMR_MR_LIST_FIXED_SIZE = 2,
}

/** `IBV_EXP_CQ_CREATE_CROSS_CHANNEL` / `IBV_EXP_CQ_IGNORE_OVERRUN` (verbs_exp.h:844, 1285); the manual's CQ text is lost. */
export const IBV_EXP_CQ_CREATE_CROSS_CHANNEL = 1 << 0;
export const IBV_EXP_CQ_IGNORE_OVERRUN = 1 << 0;

// ---------------------------------------------------------------------------------------------
// Top-level constants for every enum member (C spelling), e.g. `IBV_WC_SUCCESS`.
// (Kept at the end of the module: the enum objects must exist first.) One declaration each, so
// that the emitted .d.ts keeps each constant's enum-member type, which narrowing needs.
// ---------------------------------------------------------------------------------------------

export const IBV_NODE_UNKNOWN = ibv_node_type.IBV_NODE_UNKNOWN;
export const IBV_NODE_CA = ibv_node_type.IBV_NODE_CA;
export const IBV_NODE_SWITCH = ibv_node_type.IBV_NODE_SWITCH;
export const IBV_NODE_ROUTER = ibv_node_type.IBV_NODE_ROUTER;
export const IBV_NODE_RNIC = ibv_node_type.IBV_NODE_RNIC;
export const IBV_NODE_USNIC = ibv_node_type.IBV_NODE_USNIC;
export const IBV_NODE_USNIC_UDP = ibv_node_type.IBV_NODE_USNIC_UDP;
export const IBV_NODE_UNSPECIFIED = ibv_node_type.IBV_NODE_UNSPECIFIED;
export const IBV_TRANSPORT_UNKNOWN = ibv_transport_type.IBV_TRANSPORT_UNKNOWN;
export const IBV_TRANSPORT_IB = ibv_transport_type.IBV_TRANSPORT_IB;
export const IBV_TRANSPORT_IWARP = ibv_transport_type.IBV_TRANSPORT_IWARP;
export const IBV_TRANSPORT_USNIC = ibv_transport_type.IBV_TRANSPORT_USNIC;
export const IBV_TRANSPORT_USNIC_UDP = ibv_transport_type.IBV_TRANSPORT_USNIC_UDP;
export const IBV_TRANSPORT_UNSPECIFIED = ibv_transport_type.IBV_TRANSPORT_UNSPECIFIED;
export const IBV_DEVICE_RESIZE_MAX_WR = ibv_device_cap_flags.IBV_DEVICE_RESIZE_MAX_WR;
export const IBV_DEVICE_BAD_PKEY_CNTR = ibv_device_cap_flags.IBV_DEVICE_BAD_PKEY_CNTR;
export const IBV_DEVICE_BAD_QKEY_CNTR = ibv_device_cap_flags.IBV_DEVICE_BAD_QKEY_CNTR;
export const IBV_DEVICE_RAW_MULTI = ibv_device_cap_flags.IBV_DEVICE_RAW_MULTI;
export const IBV_DEVICE_AUTO_PATH_MIG = ibv_device_cap_flags.IBV_DEVICE_AUTO_PATH_MIG;
export const IBV_DEVICE_CHANGE_PHY_PORT = ibv_device_cap_flags.IBV_DEVICE_CHANGE_PHY_PORT;
export const IBV_DEVICE_UD_AV_PORT_ENFORCE = ibv_device_cap_flags.IBV_DEVICE_UD_AV_PORT_ENFORCE;
export const IBV_DEVICE_CURR_QP_STATE_MOD = ibv_device_cap_flags.IBV_DEVICE_CURR_QP_STATE_MOD;
export const IBV_DEVICE_SHUTDOWN_PORT = ibv_device_cap_flags.IBV_DEVICE_SHUTDOWN_PORT;
export const IBV_DEVICE_INIT_TYPE = ibv_device_cap_flags.IBV_DEVICE_INIT_TYPE;
export const IBV_DEVICE_PORT_ACTIVE_EVENT = ibv_device_cap_flags.IBV_DEVICE_PORT_ACTIVE_EVENT;
export const IBV_DEVICE_SYS_IMAGE_GUID = ibv_device_cap_flags.IBV_DEVICE_SYS_IMAGE_GUID;
export const IBV_DEVICE_RC_RNR_NAK_GEN = ibv_device_cap_flags.IBV_DEVICE_RC_RNR_NAK_GEN;
export const IBV_DEVICE_SRQ_RESIZE = ibv_device_cap_flags.IBV_DEVICE_SRQ_RESIZE;
export const IBV_DEVICE_N_NOTIFY_CQ = ibv_device_cap_flags.IBV_DEVICE_N_NOTIFY_CQ;
export const IBV_DEVICE_MEM_WINDOW = ibv_device_cap_flags.IBV_DEVICE_MEM_WINDOW;
export const IBV_DEVICE_UD_IP_CSUM = ibv_device_cap_flags.IBV_DEVICE_UD_IP_CSUM;
export const IBV_DEVICE_XRC = ibv_device_cap_flags.IBV_DEVICE_XRC;
export const IBV_DEVICE_MEM_MGT_EXTENSIONS = ibv_device_cap_flags.IBV_DEVICE_MEM_MGT_EXTENSIONS;
export const IBV_DEVICE_MEM_WINDOW_TYPE_2A = ibv_device_cap_flags.IBV_DEVICE_MEM_WINDOW_TYPE_2A;
export const IBV_DEVICE_MEM_WINDOW_TYPE_2B = ibv_device_cap_flags.IBV_DEVICE_MEM_WINDOW_TYPE_2B;
export const IBV_DEVICE_RC_IP_CSUM = ibv_device_cap_flags.IBV_DEVICE_RC_IP_CSUM;
export const IBV_DEVICE_RAW_IP_CSUM = ibv_device_cap_flags.IBV_DEVICE_RAW_IP_CSUM;
export const IBV_DEVICE_MANAGED_FLOW_STEERING = ibv_device_cap_flags.IBV_DEVICE_MANAGED_FLOW_STEERING;
export const IBV_ATOMIC_NONE = ibv_atomic_cap.IBV_ATOMIC_NONE;
export const IBV_ATOMIC_HCA = ibv_atomic_cap.IBV_ATOMIC_HCA;
export const IBV_ATOMIC_GLOB = ibv_atomic_cap.IBV_ATOMIC_GLOB;
export const IBV_MTU_256 = ibv_mtu.IBV_MTU_256;
export const IBV_MTU_512 = ibv_mtu.IBV_MTU_512;
export const IBV_MTU_1024 = ibv_mtu.IBV_MTU_1024;
export const IBV_MTU_2048 = ibv_mtu.IBV_MTU_2048;
export const IBV_MTU_4096 = ibv_mtu.IBV_MTU_4096;
export const IBV_PORT_NOP = ibv_port_state.IBV_PORT_NOP;
export const IBV_PORT_DOWN = ibv_port_state.IBV_PORT_DOWN;
export const IBV_PORT_INIT = ibv_port_state.IBV_PORT_INIT;
export const IBV_PORT_ARMED = ibv_port_state.IBV_PORT_ARMED;
export const IBV_PORT_ACTIVE = ibv_port_state.IBV_PORT_ACTIVE;
export const IBV_PORT_ACTIVE_DEFER = ibv_port_state.IBV_PORT_ACTIVE_DEFER;
export const IBV_PORT_SM = ibv_port_cap_flags.IBV_PORT_SM;
export const IBV_PORT_NOTICE_SUP = ibv_port_cap_flags.IBV_PORT_NOTICE_SUP;
export const IBV_PORT_TRAP_SUP = ibv_port_cap_flags.IBV_PORT_TRAP_SUP;
export const IBV_PORT_OPT_IPD_SUP = ibv_port_cap_flags.IBV_PORT_OPT_IPD_SUP;
export const IBV_PORT_AUTO_MIGR_SUP = ibv_port_cap_flags.IBV_PORT_AUTO_MIGR_SUP;
export const IBV_PORT_SL_MAP_SUP = ibv_port_cap_flags.IBV_PORT_SL_MAP_SUP;
export const IBV_PORT_MKEY_NVRAM = ibv_port_cap_flags.IBV_PORT_MKEY_NVRAM;
export const IBV_PORT_PKEY_NVRAM = ibv_port_cap_flags.IBV_PORT_PKEY_NVRAM;
export const IBV_PORT_LED_INFO_SUP = ibv_port_cap_flags.IBV_PORT_LED_INFO_SUP;
export const IBV_PORT_SYS_IMAGE_GUID_SUP = ibv_port_cap_flags.IBV_PORT_SYS_IMAGE_GUID_SUP;
export const IBV_PORT_PKEY_SW_EXT_PORT_TRAP_SUP = ibv_port_cap_flags.IBV_PORT_PKEY_SW_EXT_PORT_TRAP_SUP;
export const IBV_PORT_EXTENDED_SPEEDS_SUP = ibv_port_cap_flags.IBV_PORT_EXTENDED_SPEEDS_SUP;
export const IBV_PORT_CAP_MASK2_SUP = ibv_port_cap_flags.IBV_PORT_CAP_MASK2_SUP;
export const IBV_PORT_CM_SUP = ibv_port_cap_flags.IBV_PORT_CM_SUP;
export const IBV_PORT_SNMP_TUNNEL_SUP = ibv_port_cap_flags.IBV_PORT_SNMP_TUNNEL_SUP;
export const IBV_PORT_REINIT_SUP = ibv_port_cap_flags.IBV_PORT_REINIT_SUP;
export const IBV_PORT_DEVICE_MGMT_SUP = ibv_port_cap_flags.IBV_PORT_DEVICE_MGMT_SUP;
export const IBV_PORT_VENDOR_CLASS_SUP = ibv_port_cap_flags.IBV_PORT_VENDOR_CLASS_SUP;
export const IBV_PORT_DR_NOTICE_SUP = ibv_port_cap_flags.IBV_PORT_DR_NOTICE_SUP;
export const IBV_PORT_CAP_MASK_NOTICE_SUP = ibv_port_cap_flags.IBV_PORT_CAP_MASK_NOTICE_SUP;
export const IBV_PORT_BOOT_MGMT_SUP = ibv_port_cap_flags.IBV_PORT_BOOT_MGMT_SUP;
export const IBV_PORT_LINK_LATENCY_SUP = ibv_port_cap_flags.IBV_PORT_LINK_LATENCY_SUP;
export const IBV_PORT_CLIENT_REG_SUP = ibv_port_cap_flags.IBV_PORT_CLIENT_REG_SUP;
export const IBV_PORT_IP_BASED_GIDS = ibv_port_cap_flags.IBV_PORT_IP_BASED_GIDS;
export const IBV_EVENT_CQ_ERR = ibv_event_type.IBV_EVENT_CQ_ERR;
export const IBV_EVENT_QP_FATAL = ibv_event_type.IBV_EVENT_QP_FATAL;
export const IBV_EVENT_QP_REQ_ERR = ibv_event_type.IBV_EVENT_QP_REQ_ERR;
export const IBV_EVENT_QP_ACCESS_ERR = ibv_event_type.IBV_EVENT_QP_ACCESS_ERR;
export const IBV_EVENT_COMM_EST = ibv_event_type.IBV_EVENT_COMM_EST;
export const IBV_EVENT_SQ_DRAINED = ibv_event_type.IBV_EVENT_SQ_DRAINED;
export const IBV_EVENT_PATH_MIG = ibv_event_type.IBV_EVENT_PATH_MIG;
export const IBV_EVENT_PATH_MIG_ERR = ibv_event_type.IBV_EVENT_PATH_MIG_ERR;
export const IBV_EVENT_DEVICE_FATAL = ibv_event_type.IBV_EVENT_DEVICE_FATAL;
export const IBV_EVENT_PORT_ACTIVE = ibv_event_type.IBV_EVENT_PORT_ACTIVE;
export const IBV_EVENT_PORT_ERR = ibv_event_type.IBV_EVENT_PORT_ERR;
export const IBV_EVENT_LID_CHANGE = ibv_event_type.IBV_EVENT_LID_CHANGE;
export const IBV_EVENT_PKEY_CHANGE = ibv_event_type.IBV_EVENT_PKEY_CHANGE;
export const IBV_EVENT_SM_CHANGE = ibv_event_type.IBV_EVENT_SM_CHANGE;
export const IBV_EVENT_SRQ_ERR = ibv_event_type.IBV_EVENT_SRQ_ERR;
export const IBV_EVENT_SRQ_LIMIT_REACHED = ibv_event_type.IBV_EVENT_SRQ_LIMIT_REACHED;
export const IBV_EVENT_QP_LAST_WQE_REACHED = ibv_event_type.IBV_EVENT_QP_LAST_WQE_REACHED;
export const IBV_EVENT_CLIENT_REREGISTER = ibv_event_type.IBV_EVENT_CLIENT_REREGISTER;
export const IBV_EVENT_GID_CHANGE = ibv_event_type.IBV_EVENT_GID_CHANGE;
export const IBV_EVENT_WQ_FATAL = ibv_event_type.IBV_EVENT_WQ_FATAL;
export const IBV_EVENT_DEVICE_SPEED_CHANGE = ibv_event_type.IBV_EVENT_DEVICE_SPEED_CHANGE;
export const IBV_WC_SUCCESS = ibv_wc_status.IBV_WC_SUCCESS;
export const IBV_WC_LOC_LEN_ERR = ibv_wc_status.IBV_WC_LOC_LEN_ERR;
export const IBV_WC_LOC_QP_OP_ERR = ibv_wc_status.IBV_WC_LOC_QP_OP_ERR;
export const IBV_WC_LOC_EEC_OP_ERR = ibv_wc_status.IBV_WC_LOC_EEC_OP_ERR;
export const IBV_WC_LOC_PROT_ERR = ibv_wc_status.IBV_WC_LOC_PROT_ERR;
export const IBV_WC_WR_FLUSH_ERR = ibv_wc_status.IBV_WC_WR_FLUSH_ERR;
export const IBV_WC_MW_BIND_ERR = ibv_wc_status.IBV_WC_MW_BIND_ERR;
export const IBV_WC_BAD_RESP_ERR = ibv_wc_status.IBV_WC_BAD_RESP_ERR;
export const IBV_WC_LOC_ACCESS_ERR = ibv_wc_status.IBV_WC_LOC_ACCESS_ERR;
export const IBV_WC_REM_INV_REQ_ERR = ibv_wc_status.IBV_WC_REM_INV_REQ_ERR;
export const IBV_WC_REM_ACCESS_ERR = ibv_wc_status.IBV_WC_REM_ACCESS_ERR;
export const IBV_WC_REM_OP_ERR = ibv_wc_status.IBV_WC_REM_OP_ERR;
export const IBV_WC_RETRY_EXC_ERR = ibv_wc_status.IBV_WC_RETRY_EXC_ERR;
export const IBV_WC_RNR_RETRY_EXC_ERR = ibv_wc_status.IBV_WC_RNR_RETRY_EXC_ERR;
export const IBV_WC_LOC_RDD_VIOL_ERR = ibv_wc_status.IBV_WC_LOC_RDD_VIOL_ERR;
export const IBV_WC_REM_INV_RD_REQ_ERR = ibv_wc_status.IBV_WC_REM_INV_RD_REQ_ERR;
export const IBV_WC_REM_ABORT_ERR = ibv_wc_status.IBV_WC_REM_ABORT_ERR;
export const IBV_WC_INV_EECN_ERR = ibv_wc_status.IBV_WC_INV_EECN_ERR;
export const IBV_WC_INV_EEC_STATE_ERR = ibv_wc_status.IBV_WC_INV_EEC_STATE_ERR;
export const IBV_WC_FATAL_ERR = ibv_wc_status.IBV_WC_FATAL_ERR;
export const IBV_WC_RESP_TIMEOUT_ERR = ibv_wc_status.IBV_WC_RESP_TIMEOUT_ERR;
export const IBV_WC_GENERAL_ERR = ibv_wc_status.IBV_WC_GENERAL_ERR;
export const IBV_WC_TM_ERR = ibv_wc_status.IBV_WC_TM_ERR;
export const IBV_WC_TM_RNDV_INCOMPLETE = ibv_wc_status.IBV_WC_TM_RNDV_INCOMPLETE;
export const IBV_WC_SEND = ibv_wc_opcode.IBV_WC_SEND;
export const IBV_WC_RDMA_WRITE = ibv_wc_opcode.IBV_WC_RDMA_WRITE;
export const IBV_WC_RDMA_READ = ibv_wc_opcode.IBV_WC_RDMA_READ;
export const IBV_WC_COMP_SWAP = ibv_wc_opcode.IBV_WC_COMP_SWAP;
export const IBV_WC_FETCH_ADD = ibv_wc_opcode.IBV_WC_FETCH_ADD;
export const IBV_WC_BIND_MW = ibv_wc_opcode.IBV_WC_BIND_MW;
export const IBV_WC_LOCAL_INV = ibv_wc_opcode.IBV_WC_LOCAL_INV;
export const IBV_WC_TSO = ibv_wc_opcode.IBV_WC_TSO;
export const IBV_WC_FLUSH = ibv_wc_opcode.IBV_WC_FLUSH;
export const IBV_WC_ATOMIC_WRITE = ibv_wc_opcode.IBV_WC_ATOMIC_WRITE;
export const IBV_WC_RECV = ibv_wc_opcode.IBV_WC_RECV;
export const IBV_WC_RECV_RDMA_WITH_IMM = ibv_wc_opcode.IBV_WC_RECV_RDMA_WITH_IMM;
export const IBV_WC_TM_ADD = ibv_wc_opcode.IBV_WC_TM_ADD;
export const IBV_WC_TM_DEL = ibv_wc_opcode.IBV_WC_TM_DEL;
export const IBV_WC_TM_SYNC = ibv_wc_opcode.IBV_WC_TM_SYNC;
export const IBV_WC_TM_RECV = ibv_wc_opcode.IBV_WC_TM_RECV;
export const IBV_WC_TM_NO_TAG = ibv_wc_opcode.IBV_WC_TM_NO_TAG;
export const IBV_WC_DRIVER1 = ibv_wc_opcode.IBV_WC_DRIVER1;
export const IBV_WC_DRIVER2 = ibv_wc_opcode.IBV_WC_DRIVER2;
export const IBV_WC_DRIVER3 = ibv_wc_opcode.IBV_WC_DRIVER3;
export const IBV_WC_GRH = ibv_wc_flags.IBV_WC_GRH;
export const IBV_WC_WITH_IMM = ibv_wc_flags.IBV_WC_WITH_IMM;
export const IBV_WC_IP_CSUM_OK = ibv_wc_flags.IBV_WC_IP_CSUM_OK;
export const IBV_WC_WITH_INV = ibv_wc_flags.IBV_WC_WITH_INV;
export const IBV_WC_TM_SYNC_REQ = ibv_wc_flags.IBV_WC_TM_SYNC_REQ;
export const IBV_WC_TM_MATCH = ibv_wc_flags.IBV_WC_TM_MATCH;
export const IBV_WC_TM_DATA_VALID = ibv_wc_flags.IBV_WC_TM_DATA_VALID;
export const IBV_ACCESS_LOCAL_WRITE = ibv_access_flags.IBV_ACCESS_LOCAL_WRITE;
export const IBV_ACCESS_REMOTE_WRITE = ibv_access_flags.IBV_ACCESS_REMOTE_WRITE;
export const IBV_ACCESS_REMOTE_READ = ibv_access_flags.IBV_ACCESS_REMOTE_READ;
export const IBV_ACCESS_REMOTE_ATOMIC = ibv_access_flags.IBV_ACCESS_REMOTE_ATOMIC;
export const IBV_ACCESS_MW_BIND = ibv_access_flags.IBV_ACCESS_MW_BIND;
export const IBV_ACCESS_ZERO_BASED = ibv_access_flags.IBV_ACCESS_ZERO_BASED;
export const IBV_ACCESS_ON_DEMAND = ibv_access_flags.IBV_ACCESS_ON_DEMAND;
export const IBV_ACCESS_HUGETLB = ibv_access_flags.IBV_ACCESS_HUGETLB;
export const IBV_ACCESS_FLUSH_GLOBAL = ibv_access_flags.IBV_ACCESS_FLUSH_GLOBAL;
export const IBV_ACCESS_FLUSH_PERSISTENT = ibv_access_flags.IBV_ACCESS_FLUSH_PERSISTENT;
export const IBV_ACCESS_RELAXED_ORDERING = ibv_access_flags.IBV_ACCESS_RELAXED_ORDERING;
export const IBV_MW_TYPE_1 = ibv_mw_type.IBV_MW_TYPE_1;
export const IBV_MW_TYPE_2 = ibv_mw_type.IBV_MW_TYPE_2;
export const IBV_RATE_MAX = ibv_rate.IBV_RATE_MAX;
export const IBV_RATE_2_5_GBPS = ibv_rate.IBV_RATE_2_5_GBPS;
export const IBV_RATE_5_GBPS = ibv_rate.IBV_RATE_5_GBPS;
export const IBV_RATE_10_GBPS = ibv_rate.IBV_RATE_10_GBPS;
export const IBV_RATE_20_GBPS = ibv_rate.IBV_RATE_20_GBPS;
export const IBV_RATE_30_GBPS = ibv_rate.IBV_RATE_30_GBPS;
export const IBV_RATE_40_GBPS = ibv_rate.IBV_RATE_40_GBPS;
export const IBV_RATE_60_GBPS = ibv_rate.IBV_RATE_60_GBPS;
export const IBV_RATE_80_GBPS = ibv_rate.IBV_RATE_80_GBPS;
export const IBV_RATE_120_GBPS = ibv_rate.IBV_RATE_120_GBPS;
export const IBV_RATE_14_GBPS = ibv_rate.IBV_RATE_14_GBPS;
export const IBV_RATE_56_GBPS = ibv_rate.IBV_RATE_56_GBPS;
export const IBV_RATE_112_GBPS = ibv_rate.IBV_RATE_112_GBPS;
export const IBV_RATE_168_GBPS = ibv_rate.IBV_RATE_168_GBPS;
export const IBV_RATE_25_GBPS = ibv_rate.IBV_RATE_25_GBPS;
export const IBV_RATE_100_GBPS = ibv_rate.IBV_RATE_100_GBPS;
export const IBV_RATE_200_GBPS = ibv_rate.IBV_RATE_200_GBPS;
export const IBV_RATE_300_GBPS = ibv_rate.IBV_RATE_300_GBPS;
export const IBV_RATE_28_GBPS = ibv_rate.IBV_RATE_28_GBPS;
export const IBV_RATE_50_GBPS = ibv_rate.IBV_RATE_50_GBPS;
export const IBV_RATE_400_GBPS = ibv_rate.IBV_RATE_400_GBPS;
export const IBV_RATE_600_GBPS = ibv_rate.IBV_RATE_600_GBPS;
export const IBV_RATE_800_GBPS = ibv_rate.IBV_RATE_800_GBPS;
export const IBV_RATE_1200_GBPS = ibv_rate.IBV_RATE_1200_GBPS;
export const IBV_SRQ_MAX_WR = ibv_srq_attr_mask.IBV_SRQ_MAX_WR;
export const IBV_SRQ_LIMIT = ibv_srq_attr_mask.IBV_SRQ_LIMIT;
export const IBV_QPT_RC = ibv_qp_type.IBV_QPT_RC;
export const IBV_QPT_UC = ibv_qp_type.IBV_QPT_UC;
export const IBV_QPT_UD = ibv_qp_type.IBV_QPT_UD;
export const IBV_QPT_RAW_PACKET = ibv_qp_type.IBV_QPT_RAW_PACKET;
export const IBV_QPT_XRC_SEND = ibv_qp_type.IBV_QPT_XRC_SEND;
export const IBV_QPT_XRC_RECV = ibv_qp_type.IBV_QPT_XRC_RECV;
export const IBV_QPT_DRIVER = ibv_qp_type.IBV_QPT_DRIVER;
export const IBV_QP_STATE = ibv_qp_attr_mask.IBV_QP_STATE;
export const IBV_QP_CUR_STATE = ibv_qp_attr_mask.IBV_QP_CUR_STATE;
export const IBV_QP_EN_SQD_ASYNC_NOTIFY = ibv_qp_attr_mask.IBV_QP_EN_SQD_ASYNC_NOTIFY;
export const IBV_QP_ACCESS_FLAGS = ibv_qp_attr_mask.IBV_QP_ACCESS_FLAGS;
export const IBV_QP_PKEY_INDEX = ibv_qp_attr_mask.IBV_QP_PKEY_INDEX;
export const IBV_QP_PORT = ibv_qp_attr_mask.IBV_QP_PORT;
export const IBV_QP_QKEY = ibv_qp_attr_mask.IBV_QP_QKEY;
export const IBV_QP_AV = ibv_qp_attr_mask.IBV_QP_AV;
export const IBV_QP_PATH_MTU = ibv_qp_attr_mask.IBV_QP_PATH_MTU;
export const IBV_QP_TIMEOUT = ibv_qp_attr_mask.IBV_QP_TIMEOUT;
export const IBV_QP_RETRY_CNT = ibv_qp_attr_mask.IBV_QP_RETRY_CNT;
export const IBV_QP_RNR_RETRY = ibv_qp_attr_mask.IBV_QP_RNR_RETRY;
export const IBV_QP_RQ_PSN = ibv_qp_attr_mask.IBV_QP_RQ_PSN;
export const IBV_QP_MAX_QP_RD_ATOMIC = ibv_qp_attr_mask.IBV_QP_MAX_QP_RD_ATOMIC;
export const IBV_QP_ALT_PATH = ibv_qp_attr_mask.IBV_QP_ALT_PATH;
export const IBV_QP_MIN_RNR_TIMER = ibv_qp_attr_mask.IBV_QP_MIN_RNR_TIMER;
export const IBV_QP_SQ_PSN = ibv_qp_attr_mask.IBV_QP_SQ_PSN;
export const IBV_QP_MAX_DEST_RD_ATOMIC = ibv_qp_attr_mask.IBV_QP_MAX_DEST_RD_ATOMIC;
export const IBV_QP_PATH_MIG_STATE = ibv_qp_attr_mask.IBV_QP_PATH_MIG_STATE;
export const IBV_QP_CAP = ibv_qp_attr_mask.IBV_QP_CAP;
export const IBV_QP_DEST_QPN = ibv_qp_attr_mask.IBV_QP_DEST_QPN;
export const IBV_QP_RATE_LIMIT = ibv_qp_attr_mask.IBV_QP_RATE_LIMIT;
export const IBV_QPS_RESET = ibv_qp_state.IBV_QPS_RESET;
export const IBV_QPS_INIT = ibv_qp_state.IBV_QPS_INIT;
export const IBV_QPS_RTR = ibv_qp_state.IBV_QPS_RTR;
export const IBV_QPS_RTS = ibv_qp_state.IBV_QPS_RTS;
export const IBV_QPS_SQD = ibv_qp_state.IBV_QPS_SQD;
export const IBV_QPS_SQE = ibv_qp_state.IBV_QPS_SQE;
export const IBV_QPS_ERR = ibv_qp_state.IBV_QPS_ERR;
export const IBV_QPS_UNKNOWN = ibv_qp_state.IBV_QPS_UNKNOWN;
export const IBV_MIG_MIGRATED = ibv_mig_state.IBV_MIG_MIGRATED;
export const IBV_MIG_REARM = ibv_mig_state.IBV_MIG_REARM;
export const IBV_MIG_ARMED = ibv_mig_state.IBV_MIG_ARMED;
export const IBV_WR_RDMA_WRITE = ibv_wr_opcode.IBV_WR_RDMA_WRITE;
export const IBV_WR_RDMA_WRITE_WITH_IMM = ibv_wr_opcode.IBV_WR_RDMA_WRITE_WITH_IMM;
export const IBV_WR_SEND = ibv_wr_opcode.IBV_WR_SEND;
export const IBV_WR_SEND_WITH_IMM = ibv_wr_opcode.IBV_WR_SEND_WITH_IMM;
export const IBV_WR_RDMA_READ = ibv_wr_opcode.IBV_WR_RDMA_READ;
export const IBV_WR_ATOMIC_CMP_AND_SWP = ibv_wr_opcode.IBV_WR_ATOMIC_CMP_AND_SWP;
export const IBV_WR_ATOMIC_FETCH_AND_ADD = ibv_wr_opcode.IBV_WR_ATOMIC_FETCH_AND_ADD;
export const IBV_WR_LOCAL_INV = ibv_wr_opcode.IBV_WR_LOCAL_INV;
export const IBV_WR_BIND_MW = ibv_wr_opcode.IBV_WR_BIND_MW;
export const IBV_WR_SEND_WITH_INV = ibv_wr_opcode.IBV_WR_SEND_WITH_INV;
export const IBV_WR_TSO = ibv_wr_opcode.IBV_WR_TSO;
export const IBV_WR_DRIVER1 = ibv_wr_opcode.IBV_WR_DRIVER1;
export const IBV_WR_FLUSH = ibv_wr_opcode.IBV_WR_FLUSH;
export const IBV_WR_ATOMIC_WRITE = ibv_wr_opcode.IBV_WR_ATOMIC_WRITE;
export const IBV_SEND_FENCE = ibv_send_flags.IBV_SEND_FENCE;
export const IBV_SEND_SIGNALED = ibv_send_flags.IBV_SEND_SIGNALED;
export const IBV_SEND_SOLICITED = ibv_send_flags.IBV_SEND_SOLICITED;
export const IBV_SEND_INLINE = ibv_send_flags.IBV_SEND_INLINE;
export const IBV_SEND_IP_CSUM = ibv_send_flags.IBV_SEND_IP_CSUM;
export const RDMA_CM_EVENT_ADDR_RESOLVED = rdma_cm_event_type.RDMA_CM_EVENT_ADDR_RESOLVED;
export const RDMA_CM_EVENT_ADDR_ERROR = rdma_cm_event_type.RDMA_CM_EVENT_ADDR_ERROR;
export const RDMA_CM_EVENT_ROUTE_RESOLVED = rdma_cm_event_type.RDMA_CM_EVENT_ROUTE_RESOLVED;
export const RDMA_CM_EVENT_ROUTE_ERROR = rdma_cm_event_type.RDMA_CM_EVENT_ROUTE_ERROR;
export const RDMA_CM_EVENT_CONNECT_REQUEST = rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_REQUEST;
export const RDMA_CM_EVENT_CONNECT_RESPONSE = rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_RESPONSE;
export const RDMA_CM_EVENT_CONNECT_ERROR = rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_ERROR;
export const RDMA_CM_EVENT_UNREACHABLE = rdma_cm_event_type.RDMA_CM_EVENT_UNREACHABLE;
export const RDMA_CM_EVENT_REJECTED = rdma_cm_event_type.RDMA_CM_EVENT_REJECTED;
export const RDMA_CM_EVENT_ESTABLISHED = rdma_cm_event_type.RDMA_CM_EVENT_ESTABLISHED;
export const RDMA_CM_EVENT_DISCONNECTED = rdma_cm_event_type.RDMA_CM_EVENT_DISCONNECTED;
export const RDMA_CM_EVENT_DEVICE_REMOVAL = rdma_cm_event_type.RDMA_CM_EVENT_DEVICE_REMOVAL;
export const RDMA_CM_EVENT_MULTICAST_JOIN = rdma_cm_event_type.RDMA_CM_EVENT_MULTICAST_JOIN;
export const RDMA_CM_EVENT_MULTICAST_ERROR = rdma_cm_event_type.RDMA_CM_EVENT_MULTICAST_ERROR;
export const RDMA_CM_EVENT_ADDR_CHANGE = rdma_cm_event_type.RDMA_CM_EVENT_ADDR_CHANGE;
export const RDMA_CM_EVENT_TIMEWAIT_EXIT = rdma_cm_event_type.RDMA_CM_EVENT_TIMEWAIT_EXIT;
export const RDMA_CM_EVENT_ADDRINFO_RESOLVED = rdma_cm_event_type.RDMA_CM_EVENT_ADDRINFO_RESOLVED;
export const RDMA_CM_EVENT_ADDRINFO_ERROR = rdma_cm_event_type.RDMA_CM_EVENT_ADDRINFO_ERROR;
export const RDMA_CM_EVENT_USER = rdma_cm_event_type.RDMA_CM_EVENT_USER;
export const RDMA_CM_EVENT_INTERNAL = rdma_cm_event_type.RDMA_CM_EVENT_INTERNAL;
export const RDMA_PS_IPOIB = rdma_port_space.RDMA_PS_IPOIB;
export const RDMA_PS_TCP = rdma_port_space.RDMA_PS_TCP;
export const RDMA_PS_UDP = rdma_port_space.RDMA_PS_UDP;
export const RDMA_PS_IB = rdma_port_space.RDMA_PS_IB;
export const IBV_EXP_ATOMIC_NONE = ibv_exp_atomic_cap.IBV_EXP_ATOMIC_NONE;
export const IBV_EXP_ATOMIC_HCA = ibv_exp_atomic_cap.IBV_EXP_ATOMIC_HCA;
export const IBV_EXP_ATOMIC_GLOB = ibv_exp_atomic_cap.IBV_EXP_ATOMIC_GLOB;
export const IBV_EXP_ATOMIC_HCA_REPLY_BE = ibv_exp_atomic_cap.IBV_EXP_ATOMIC_HCA_REPLY_BE;
export const IBV_EXP_WR_RDMA_WRITE = ibv_exp_wr_opcode.IBV_EXP_WR_RDMA_WRITE;
export const IBV_EXP_WR_RDMA_WRITE_WITH_IMM = ibv_exp_wr_opcode.IBV_EXP_WR_RDMA_WRITE_WITH_IMM;
export const IBV_EXP_WR_SEND = ibv_exp_wr_opcode.IBV_EXP_WR_SEND;
export const IBV_EXP_WR_SEND_WITH_IMM = ibv_exp_wr_opcode.IBV_EXP_WR_SEND_WITH_IMM;
export const IBV_EXP_WR_RDMA_READ = ibv_exp_wr_opcode.IBV_EXP_WR_RDMA_READ;
export const IBV_EXP_WR_ATOMIC_CMP_AND_SWP = ibv_exp_wr_opcode.IBV_EXP_WR_ATOMIC_CMP_AND_SWP;
export const IBV_EXP_WR_ATOMIC_FETCH_AND_ADD = ibv_exp_wr_opcode.IBV_EXP_WR_ATOMIC_FETCH_AND_ADD;
export const IBV_EXP_WR_LOCAL_INV = ibv_exp_wr_opcode.IBV_EXP_WR_LOCAL_INV;
export const IBV_EXP_WR_BIND_MW = ibv_exp_wr_opcode.IBV_EXP_WR_BIND_MW;
export const IBV_EXP_WR_SEND_WITH_INV = ibv_exp_wr_opcode.IBV_EXP_WR_SEND_WITH_INV;
export const IBV_EXP_WR_TSO = ibv_exp_wr_opcode.IBV_EXP_WR_TSO;
export const IBV_EXP_WR_SEND_ENABLE = ibv_exp_wr_opcode.IBV_EXP_WR_SEND_ENABLE;
export const IBV_EXP_WR_RECV_ENABLE = ibv_exp_wr_opcode.IBV_EXP_WR_RECV_ENABLE;
export const IBV_EXP_WR_CQE_WAIT = ibv_exp_wr_opcode.IBV_EXP_WR_CQE_WAIT;
export const IBV_EXP_WR_EXT_MASKED_ATOMIC_CMP_AND_SWP = ibv_exp_wr_opcode.IBV_EXP_WR_EXT_MASKED_ATOMIC_CMP_AND_SWP;
export const IBV_EXP_WR_EXT_MASKED_ATOMIC_FETCH_AND_ADD = ibv_exp_wr_opcode.IBV_EXP_WR_EXT_MASKED_ATOMIC_FETCH_AND_ADD;
export const IBV_EXP_WR_NOP = ibv_exp_wr_opcode.IBV_EXP_WR_NOP;
export const IBV_EXP_WR_UMR_FILL = ibv_exp_wr_opcode.IBV_EXP_WR_UMR_FILL;
export const IBV_EXP_WR_UMR_INVALIDATE = ibv_exp_wr_opcode.IBV_EXP_WR_UMR_INVALIDATE;
export const IBV_EXP_CALC_OP_ADD = ibv_exp_calc_op.IBV_EXP_CALC_OP_ADD;
export const IBV_EXP_CALC_OP_MAXLOC = ibv_exp_calc_op.IBV_EXP_CALC_OP_MAXLOC;
export const IBV_EXP_CALC_OP_BAND = ibv_exp_calc_op.IBV_EXP_CALC_OP_BAND;
export const IBV_EXP_CALC_OP_BXOR = ibv_exp_calc_op.IBV_EXP_CALC_OP_BXOR;
export const IBV_EXP_CALC_OP_BOR = ibv_exp_calc_op.IBV_EXP_CALC_OP_BOR;
export const IBV_EXP_CALC_DATA_TYPE_INT = ibv_exp_calc_data_type.IBV_EXP_CALC_DATA_TYPE_INT;
export const IBV_EXP_CALC_DATA_TYPE_UINT = ibv_exp_calc_data_type.IBV_EXP_CALC_DATA_TYPE_UINT;
export const IBV_EXP_CALC_DATA_TYPE_FLOAT = ibv_exp_calc_data_type.IBV_EXP_CALC_DATA_TYPE_FLOAT;
export const IBV_EXP_CALC_DATA_SIZE_64_BIT = ibv_exp_calc_data_size.IBV_EXP_CALC_DATA_SIZE_64_BIT;
export const IBV_EXP_UMR_MR_LIST = ibv_exp_umr_wr_type.IBV_EXP_UMR_MR_LIST;
export const IBV_EXP_UMR_REPEAT = ibv_exp_umr_wr_type.IBV_EXP_UMR_REPEAT;
export const IBV_EXP_UMR_MR_LIST_FIXED_SIZE = ibv_exp_umr_wr_type.IBV_EXP_UMR_MR_LIST_FIXED_SIZE;

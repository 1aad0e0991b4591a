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
/** `enum ibv_node_type` (verbs.h:95-104). softrdma reports `IBV_NODE_RNIC`. */
export declare enum ibv_node_type {
    IBV_NODE_UNKNOWN = -1,
    IBV_NODE_CA = 1,
    IBV_NODE_SWITCH = 2,
    IBV_NODE_ROUTER = 3,
    IBV_NODE_RNIC = 4,
    IBV_NODE_USNIC = 5,
    IBV_NODE_USNIC_UDP = 6,
    IBV_NODE_UNSPECIFIED = 7
}
/** `enum ibv_transport_type` (verbs.h:106-113). softrdma reports `IBV_TRANSPORT_IWARP`. */
export declare enum ibv_transport_type {
    IBV_TRANSPORT_UNKNOWN = -1,
    IBV_TRANSPORT_IB = 0,
    IBV_TRANSPORT_IWARP = 1,
    IBV_TRANSPORT_USNIC = 2,
    IBV_TRANSPORT_USNIC_UDP = 3,
    IBV_TRANSPORT_UNSPECIFIED = 4
}
/** Anonymous enum (verbs.h:2011-2014): sizes of the `ibv_device` name/path strings (C arrays). */
export declare const IBV_SYSFS_NAME_MAX = 64;
export declare const IBV_SYSFS_PATH_MAX = 256;
/**
 * `enum ibv_device_cap_flags` (verbs.h:115-140), bits of `ibv_device_attr.device_cap_flags`.
 * The 64-bit-only flags of `device_cap_flags_ex` (verbs.h:152-154) are not part of the manual.
 */
export declare enum ibv_device_cap_flags {
    IBV_DEVICE_RESIZE_MAX_WR = 1,
    IBV_DEVICE_BAD_PKEY_CNTR = 2,
    IBV_DEVICE_BAD_QKEY_CNTR = 4,
    IBV_DEVICE_RAW_MULTI = 8,
    IBV_DEVICE_AUTO_PATH_MIG = 16,
    IBV_DEVICE_CHANGE_PHY_PORT = 32,
    IBV_DEVICE_UD_AV_PORT_ENFORCE = 64,
    IBV_DEVICE_CURR_QP_STATE_MOD = 128,
    IBV_DEVICE_SHUTDOWN_PORT = 256,
    IBV_DEVICE_INIT_TYPE = 512,
    IBV_DEVICE_PORT_ACTIVE_EVENT = 1024,
    IBV_DEVICE_SYS_IMAGE_GUID = 2048,
    IBV_DEVICE_RC_RNR_NAK_GEN = 4096,
    IBV_DEVICE_SRQ_RESIZE = 8192,
    IBV_DEVICE_N_NOTIFY_CQ = 16384,
    IBV_DEVICE_MEM_WINDOW = 131072,
    IBV_DEVICE_UD_IP_CSUM = 262144,
    IBV_DEVICE_XRC = 1048576,
    IBV_DEVICE_MEM_MGT_EXTENSIONS = 2097152,
    IBV_DEVICE_MEM_WINDOW_TYPE_2A = 8388608,
    IBV_DEVICE_MEM_WINDOW_TYPE_2B = 16777216,
    IBV_DEVICE_RC_IP_CSUM = 33554432,
    IBV_DEVICE_RAW_IP_CSUM = 67108864,
    IBV_DEVICE_MANAGED_FLOW_STEERING = 536870912
}
/** `enum ibv_atomic_cap` (verbs.h:156-160). iWARP without RFC 7306 (siw, softrdma): `IBV_ATOMIC_NONE`. */
export declare enum ibv_atomic_cap {
    IBV_ATOMIC_NONE = 0,
    IBV_ATOMIC_HCA = 1,
    IBV_ATOMIC_GLOB = 2
}
/** `enum ibv_mtu` (verbs.h:367-373). Bytes = `1 << (mtu + 7)` (the manual's mckey check). */
export declare enum ibv_mtu {
    IBV_MTU_256 = 1,
    IBV_MTU_512 = 2,
    IBV_MTU_1024 = 3,
    IBV_MTU_2048 = 4,
    IBV_MTU_4096 = 5
}
/** `enum ibv_port_state` (verbs.h:375-382). */
export declare enum ibv_port_state {
    IBV_PORT_NOP = 0,
    IBV_PORT_DOWN = 1,
    IBV_PORT_INIT = 2,
    IBV_PORT_ARMED = 3,
    IBV_PORT_ACTIVE = 4,
    IBV_PORT_ACTIVE_DEFER = 5
}
/**
 * Anonymous enum (verbs.h:384-388) for `ibv_port_attr.link_layer`. The C enum has no type name,
 * so there is no TS enum; iWARP ports (siw, softrdma) report `IBV_LINK_LAYER_ETHERNET`.
 */
export declare const IBV_LINK_LAYER_UNSPECIFIED = 0;
export declare const IBV_LINK_LAYER_INFINIBAND = 1;
export declare const IBV_LINK_LAYER_ETHERNET = 2;
/** `enum ibv_port_cap_flags` (verbs.h:390-415), bits of `ibv_port_attr.port_cap_flags`. */
export declare enum ibv_port_cap_flags {
    IBV_PORT_SM = 2,
    IBV_PORT_NOTICE_SUP = 4,
    IBV_PORT_TRAP_SUP = 8,
    IBV_PORT_OPT_IPD_SUP = 16,
    IBV_PORT_AUTO_MIGR_SUP = 32,
    IBV_PORT_SL_MAP_SUP = 64,
    IBV_PORT_MKEY_NVRAM = 128,
    IBV_PORT_PKEY_NVRAM = 256,
    IBV_PORT_LED_INFO_SUP = 512,
    IBV_PORT_SYS_IMAGE_GUID_SUP = 2048,
    IBV_PORT_PKEY_SW_EXT_PORT_TRAP_SUP = 4096,
    IBV_PORT_EXTENDED_SPEEDS_SUP = 16384,
    IBV_PORT_CAP_MASK2_SUP = 32768,
    IBV_PORT_CM_SUP = 65536,
    IBV_PORT_SNMP_TUNNEL_SUP = 131072,
    IBV_PORT_REINIT_SUP = 262144,
    IBV_PORT_DEVICE_MGMT_SUP = 524288,
    IBV_PORT_VENDOR_CLASS_SUP = 1048576,
    IBV_PORT_DR_NOTICE_SUP = 2097152,
    IBV_PORT_CAP_MASK_NOTICE_SUP = 4194304,
    IBV_PORT_BOOT_MGMT_SUP = 8388608,
    IBV_PORT_LINK_LATENCY_SUP = 16777216,
    IBV_PORT_CLIENT_REG_SUP = 33554432,
    IBV_PORT_IP_BASED_GIDS = 67108864
}
/** `enum ibv_event_type` (verbs.h:454-476). The manual lists the first 19 (0..18). */
export declare enum ibv_event_type {
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
    IBV_EVENT_DEVICE_SPEED_CHANGE = 20
}
/** `enum ibv_wc_status` (verbs.h:489-514). The manual documents 0..21 (§7.2). */
export declare enum ibv_wc_status {
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
    IBV_WC_TM_RNDV_INCOMPLETE = 23
}
/**
 * `enum ibv_wc_opcode` (verbs.h:517-543). `IBV_WC_RECV` is `1 << 7` so that
 * `(opcode & IBV_WC_RECV) !== 0` tests for any receive completion (verbs.h:528-532).
 */
export declare enum ibv_wc_opcode {
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
    IBV_WC_RECV = 128,
    IBV_WC_RECV_RDMA_WITH_IMM = 129,
    IBV_WC_TM_ADD = 130,
    IBV_WC_TM_DEL = 131,
    IBV_WC_TM_SYNC = 132,
    IBV_WC_TM_RECV = 133,
    IBV_WC_TM_NO_TAG = 134,
    IBV_WC_DRIVER1 = 135,
    IBV_WC_DRIVER2 = 136,
    IBV_WC_DRIVER3 = 137
}
/** Anonymous enum (verbs.h:545-547): shift of `IBV_WC_IP_CSUM_OK`. */
export declare const IBV_WC_IP_CSUM_OK_SHIFT = 2;
/** `enum ibv_wc_flags` (verbs.h:583-591), bits of `ibv_wc.wc_flags`. */
export declare enum ibv_wc_flags {
    IBV_WC_GRH = 1,
    IBV_WC_WITH_IMM = 2,
    IBV_WC_IP_CSUM_OK = 4,
    IBV_WC_WITH_INV = 8,
    IBV_WC_TM_SYNC_REQ = 16,
    IBV_WC_TM_MATCH = 32,
    IBV_WC_TM_DATA_VALID = 64
}
/**
 * `enum ibv_access_flags` (verbs.h:615-627). `IBV_ACCESS_RELAXED_ORDERING` =
 * `IBV_ACCESS_OPTIONAL_FIRST` (libibverbs/verbs_api.h:98) = `IB_UVERBS_ACCESS_OPTIONAL_FIRST`
 * = `1 << 20` (kernel-headers/rdma/ib_user_ioctl_verbs.h:44).
 */
export declare enum ibv_access_flags {
    IBV_ACCESS_LOCAL_WRITE = 1,
    IBV_ACCESS_REMOTE_WRITE = 2,
    IBV_ACCESS_REMOTE_READ = 4,
    IBV_ACCESS_REMOTE_ATOMIC = 8,
    IBV_ACCESS_MW_BIND = 16,
    IBV_ACCESS_ZERO_BASED = 32,
    IBV_ACCESS_ON_DEMAND = 64,
    IBV_ACCESS_HUGETLB = 128,
    IBV_ACCESS_FLUSH_GLOBAL = 256,
    IBV_ACCESS_FLUSH_PERSISTENT = 512,
    IBV_ACCESS_RELAXED_ORDERING = 1048576
}
/** `IBV_ACCESS_OPTIONAL_FIRST` (verbs_api.h:98 → ib_user_ioctl_verbs.h:44). */
export declare const IBV_ACCESS_OPTIONAL_FIRST: number;
/** `enum ibv_mw_type` (verbs.h:709-712), `ibv_mw.type`. */
export declare enum ibv_mw_type {
    IBV_MW_TYPE_1 = 1,
    IBV_MW_TYPE_2 = 2
}
/** `enum ibv_rate` (verbs.h:739-764), `ibv_ah_attr.static_rate`. Not monotonic in value. */
export declare enum ibv_rate {
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
    IBV_RATE_1200_GBPS = 24
}
/** `enum ibv_srq_attr_mask` (verbs.h:803-806), the `srq_attr_mask` of `ibv_modify_srq`. */
export declare enum ibv_srq_attr_mask {
    IBV_SRQ_MAX_WR = 1,
    IBV_SRQ_LIMIT = 2
}
/**
 * `enum ibv_qp_type` (verbs.h:932-940). iWARP supports `IBV_QPT_RC` only (siw_create_qp:
 * "only RC QP's supported" → EOPNOTSUPP). Legacy `IBV_QPT_XRC` (5) and `IBV_EXP_QPT_DC_INI` (32)
 * of MLNX_OFED are at the end of this file.
 */
export declare enum ibv_qp_type {
    IBV_QPT_RC = 2,
    IBV_QPT_UC = 3,
    IBV_QPT_UD = 4,
    IBV_QPT_RAW_PACKET = 8,
    IBV_QPT_XRC_SEND = 9,
    IBV_QPT_XRC_RECV = 10,
    IBV_QPT_DRIVER = 255
}
/** `enum ibv_qp_attr_mask` (verbs.h:1040-1070). Bits 21-24 were never exposed by libibverbs. */
export declare enum ibv_qp_attr_mask {
    IBV_QP_STATE = 1,
    IBV_QP_CUR_STATE = 2,
    IBV_QP_EN_SQD_ASYNC_NOTIFY = 4,
    IBV_QP_ACCESS_FLAGS = 8,
    IBV_QP_PKEY_INDEX = 16,
    IBV_QP_PORT = 32,
    IBV_QP_QKEY = 64,
    IBV_QP_AV = 128,
    IBV_QP_PATH_MTU = 256,
    IBV_QP_TIMEOUT = 512,
    IBV_QP_RETRY_CNT = 1024,
    IBV_QP_RNR_RETRY = 2048,
    IBV_QP_RQ_PSN = 4096,
    IBV_QP_MAX_QP_RD_ATOMIC = 8192,
    IBV_QP_ALT_PATH = 16384,
    IBV_QP_MIN_RNR_TIMER = 32768,
    IBV_QP_SQ_PSN = 65536,
    IBV_QP_MAX_DEST_RD_ATOMIC = 131072,
    IBV_QP_PATH_MIG_STATE = 262144,
    IBV_QP_CAP = 524288,
    IBV_QP_DEST_QPN = 1048576,
    IBV_QP_RATE_LIMIT = 33554432
}
/** `enum ibv_qp_state` (verbs.h:1082-1091). */
export declare enum ibv_qp_state {
    IBV_QPS_RESET = 0,
    IBV_QPS_INIT = 1,
    IBV_QPS_RTR = 2,
    IBV_QPS_RTS = 3,
    IBV_QPS_SQD = 4,
    IBV_QPS_SQE = 5,
    IBV_QPS_ERR = 6,
    IBV_QPS_UNKNOWN = 7
}
/** `enum ibv_mig_state` (verbs.h:1093-1097), `ibv_qp_attr.path_mig_state` (APM, IB/RoCE only). */
export declare enum ibv_mig_state {
    IBV_MIG_MIGRATED = 0,
    IBV_MIG_REARM = 1,
    IBV_MIG_ARMED = 2
}
/**
 * `enum ibv_wr_opcode` (verbs.h:1135-1150). The manual lists 0..6. iWARP (siw) rejects the
 * `*_WITH_IMM` and atomic opcodes at post time (see `IWARP_UNSUPPORTED` in `errno.ts`).
 */
export declare enum ibv_wr_opcode {
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
    IBV_WR_ATOMIC_WRITE = 15
}
/** `enum ibv_send_flags` (verbs.h:1154-1160), `ibv_send_wr.send_flags`. */
export declare enum ibv_send_flags {
    IBV_SEND_FENCE = 1,
    IBV_SEND_SIGNALED = 2,
    IBV_SEND_SOLICITED = 4,
    IBV_SEND_INLINE = 8,
    IBV_SEND_IP_CSUM = 16
}
/**
 * `enum rdma_cm_event_type` (rdma_cma.h:50-71). The manual documents 0..15 (§5.3.1.4, §7.3);
 * 16..19 are newer rdma-core additions (`USER`/`INTERNAL` are never returned to consumers).
 */
export declare enum rdma_cm_event_type {
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
    RDMA_CM_EVENT_INTERNAL = 19
}
/** `enum rdma_port_space` (rdma_cma.h:73-78). iWARP supports `RDMA_PS_TCP` connections only. */
export declare enum rdma_port_space {
    RDMA_PS_IPOIB = 2,
    RDMA_PS_TCP = 262,
    RDMA_PS_UDP = 273,
    RDMA_PS_IB = 319
}
/** Q_Key librdmacm uses for RDMA_PS_UDP ids and `rdma_post_ud_send` (rdma_cma.h:90). */
export declare const RDMA_UDP_QKEY = 19088743;
/** Anonymous enum (rdma_cma.h:144-147): limits of `rdma_conn_param.responder_resources`/`initiator_depth`. */
export declare const RDMA_MAX_RESP_RES = 255;
export declare const RDMA_MAX_INIT_DEPTH = 255;
/** `rdma_addrinfo.ai_flags` bits (rdma_cma.h:182-187). The manual names the first three. */
export declare const RAI_PASSIVE = 1;
export declare const RAI_NUMERICHOST = 2;
export declare const RAI_NOROUTE = 4;
export declare const RAI_FAMILY = 8;
export declare const RAI_SA = 16;
export declare const RAI_DNS = 32;
/** `rdma_set_option` levels (anonymous enum, rdma_cma.h:716-720). */
export declare const RDMA_OPTION_ID = 0;
export declare const RDMA_OPTION_IB = 1;
/** `RDMA_OPTION_ID` option names (rdma_cma.h:722-728). */
export declare const RDMA_OPTION_ID_TOS = 0;
export declare const RDMA_OPTION_ID_REUSEADDR = 1;
export declare const RDMA_OPTION_ID_AFONLY = 2;
export declare const RDMA_OPTION_ID_ACK_TIMEOUT = 3;
/** `RDMA_OPTION_IB` option names (rdma_cma.h:730-732). IB only. */
export declare const RDMA_OPTION_IB_PATH = 1;
/**
 * Linux address families used in `rdma_addrinfo.ai_family` (`<sys/socket.h>`, `<rdma/rdma_cma.h>`
 * for AF_IB). softrdma's sockaddr objects use `family: 'ipv4' | 'ipv6'` instead.
 */
export declare const AF_INET = 2;
export declare const AF_INET6 = 10;
export declare const AF_IB = 27;
/** `ibv_node_type_str()` (manual §4.2.7; enum_strs.c:35-51): "unknown" outside CA..UNSPECIFIED. */
export declare function ibv_node_type_str(node_type: number): string;
/** `ibv_port_state_str()` (manual §4.2.8; enum_strs.c:53-68): "unknown" outside NOP..ACTIVE_DEFER. */
export declare function ibv_port_state_str(port_state: number): string;
/** `ibv_event_type_str()` (manual §4.7.3; enum_strs.c:70-100): "unknown" outside CQ_ERR..DEVICE_SPEED_CHANGE. */
export declare function ibv_event_type_str(event_type: number): string;
/** `ibv_wc_status_str()` (used by the manual's SRQ example §8.5.3; enum_strs.c:102-135). */
export declare function ibv_wc_status_str(status: number): string;
/**
 * `ibv_wr_opcode_str()` (rdma-core only, not in the manual; enum_strs.c:137-160). Values 12 and
 * 13 lie inside the C range check but have no entry (C would return NULL); this returns "unknown".
 */
export declare function ibv_wr_opcode_str(opcode: number): string;
/**
 * `rdma_event_str()` (manual §5.3.3; librdmacm/cma.c:2790-2832): the C enum member name for
 * 0..17, "UNKNOWN EVENT" otherwise (including `RDMA_CM_EVENT_USER`/`RDMA_CM_EVENT_INTERNAL`).
 */
export declare function rdma_event_str(event: number): string;
/** Legacy XRC QP type of MLNX_OFED (`IBV_QPT_XRC`, OFED verbs.h:591); rdma-core has no value 5. */
export declare const IBV_QPT_XRC = 5;
/** `O_CREAT` / `O_EXCL` (Linux `<fcntl.h>`) for `ibv_open_xrc_domain` (manual §4.4.8). */
export declare const O_CREAT = 64;
export declare const O_EXCL = 128;
/** `IBV_EXP_START_ENUM` (verbs_exp.h:92) and `IBV_EXP_START_FLAG` = 1 << 32 (verbs_exp.h:94). */
export declare const IBV_EXP_START_ENUM = 64;
export declare const IBV_EXP_START_FLAG: bigint;
/** `enum ibv_exp_atomic_cap` (verbs_exp.h:100-106). */
export declare enum ibv_exp_atomic_cap {
    IBV_EXP_ATOMIC_NONE = 0,
    IBV_EXP_ATOMIC_HCA = 1,
    IBV_EXP_ATOMIC_GLOB = 2,
    IBV_EXP_ATOMIC_HCA_REPLY_BE = 64
}
/** `exp_device_cap_flags` bits the manual names (verbs_exp.h:129-155, uint64_t). */
export declare const IBV_EXP_DEVICE_DC_TRANSPORT: bigint;
export declare const IBV_EXP_DEVICE_EXT_ATOMICS: bigint;
export declare const IBV_EXP_DEVICE_UMR: bigint;
export declare const IBV_EXP_DEVICE_CROSS_CHANNEL: bigint;
/** `enum ibv_exp_device_attr_comp_mask` members the manual names (verbs_exp.h:173-174). */
export declare const IBV_EXP_DEVICE_ATTR_EXT_ATOMIC_ARGS: number;
/** The manual (§8.8.1.1) names this comp-mask bit as the UMR capability flag. */
export declare const IBV_EXP_DEVICE_ATTR_UMR: number;
/** Experimental QP type for DC initiators (OFED verbs.h:600-601). */
export declare const IBV_EXP_QPT_DC_INI = 32;
/** Experimental async event of an armed DCT (OFED verbs.h:317). */
export declare const IBV_EXP_EVENT_DCT_KEY_VIOLATION = 32;
/** `IBV_EXP_QP_DC_KEY` attr-mask bit (verbs_exp.h:952; uint64_t) of the manual's DCI table (`IBV_QP_DC_KEY`). */
export declare const IBV_EXP_QP_DC_KEY: bigint;
/** `enum ibv_exp_qp_init_attr_comp_mask` members the manual names (verbs_exp.h:1011-1017). */
export declare const IBV_EXP_QP_INIT_ATTR_PD: number;
export declare const IBV_EXP_QP_INIT_ATTR_CREATE_FLAGS: number;
export declare const IBV_EXP_QP_INIT_ATTR_ATOMICS_ARG: number;
export declare const IBV_EXP_QP_INIT_ATTR_MAX_INL_KLMS: number;
/** `enum ibv_exp_qp_create_flags` members the manual names (verbs_exp.h:1103-1109). */
export declare const IBV_EXP_QP_CREATE_CROSS_CHANNEL: number;
export declare const IBV_EXP_QP_CREATE_MANAGED_SEND: number;
export declare const IBV_EXP_QP_CREATE_MANAGED_RECV: number;
export declare const IBV_EXP_QP_CREATE_ATOMIC_BE_REPLY: number;
export declare const IBV_EXP_QP_CREATE_UMR: number;
/** `enum ibv_exp_wr_opcode` (verbs_exp.h:607-628): base opcodes, then experimental ones from 0x40. */
export declare enum ibv_exp_wr_opcode {
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
    IBV_EXP_WR_TSO = 79,
    IBV_EXP_WR_SEND_ENABLE = 96,
    IBV_EXP_WR_RECV_ENABLE = 97,
    IBV_EXP_WR_CQE_WAIT = 98,
    IBV_EXP_WR_EXT_MASKED_ATOMIC_CMP_AND_SWP = 99,
    IBV_EXP_WR_EXT_MASKED_ATOMIC_FETCH_AND_ADD = 100,
    IBV_EXP_WR_NOP = 101,
    IBV_EXP_WR_UMR_FILL = 102,
    IBV_EXP_WR_UMR_INVALIDATE = 103
}
/** `enum ibv_exp_send_flags` (verbs_exp.h:630-640), `ibv_exp_send_wr.exp_send_flags` (uint64_t). */
export declare const IBV_EXP_SEND_FENCE: bigint;
export declare const IBV_EXP_SEND_SIGNALED: bigint;
export declare const IBV_EXP_SEND_SOLICITED: bigint;
export declare const IBV_EXP_SEND_INLINE: bigint;
export declare const IBV_EXP_SEND_IP_CSUM: bigint;
export declare const IBV_EXP_SEND_WITH_CALC: bigint;
export declare const IBV_EXP_SEND_WAIT_EN_LAST: bigint;
export declare const IBV_EXP_SEND_EXT_ATOMIC_INLINE: bigint;
/** `enum ibv_exp_calc_op` (verbs_exp.h:586-593). The manual's "BROR" is `BXOR`. */
export declare enum ibv_exp_calc_op {
    IBV_EXP_CALC_OP_ADD = 0,
    IBV_EXP_CALC_OP_MAXLOC = 1,
    IBV_EXP_CALC_OP_BAND = 2,
    IBV_EXP_CALC_OP_BXOR = 3,
    IBV_EXP_CALC_OP_BOR = 4
}
/** `enum ibv_exp_calc_data_type` (verbs_exp.h:595-600). */
export declare enum ibv_exp_calc_data_type {
    IBV_EXP_CALC_DATA_TYPE_INT = 0,
    IBV_EXP_CALC_DATA_TYPE_UINT = 1,
    IBV_EXP_CALC_DATA_TYPE_FLOAT = 2
}
/** `enum ibv_exp_calc_data_size` (verbs_exp.h:602-605). */
export declare enum ibv_exp_calc_data_size {
    IBV_EXP_CALC_DATA_SIZE_64_BIT = 0
}
/** `enum ibv_exp_umr_wr_type` (verbs_exp.h:674-678), `ibv_exp_send_wr.ext_op.umr.umr_type`. */
export declare enum ibv_exp_umr_wr_type {
    IBV_EXP_UMR_MR_LIST = 0,
    IBV_EXP_UMR_REPEAT = 1,
    IBV_EXP_UMR_MR_LIST_FIXED_SIZE = 2
}
/** `IBV_EXP_CQ_CREATE_CROSS_CHANNEL` / `IBV_EXP_CQ_IGNORE_OVERRUN` (verbs_exp.h:844, 1285); the manual's CQ text is lost. */
export declare const IBV_EXP_CQ_CREATE_CROSS_CHANNEL: number;
export declare const IBV_EXP_CQ_IGNORE_OVERRUN: number;
export declare const IBV_NODE_UNKNOWN = ibv_node_type.IBV_NODE_UNKNOWN;
export declare const IBV_NODE_CA = ibv_node_type.IBV_NODE_CA;
export declare const IBV_NODE_SWITCH = ibv_node_type.IBV_NODE_SWITCH;
export declare const IBV_NODE_ROUTER = ibv_node_type.IBV_NODE_ROUTER;
export declare const IBV_NODE_RNIC = ibv_node_type.IBV_NODE_RNIC;
export declare const IBV_NODE_USNIC = ibv_node_type.IBV_NODE_USNIC;
export declare const IBV_NODE_USNIC_UDP = ibv_node_type.IBV_NODE_USNIC_UDP;
export declare const IBV_NODE_UNSPECIFIED = ibv_node_type.IBV_NODE_UNSPECIFIED;
export declare const IBV_TRANSPORT_UNKNOWN = ibv_transport_type.IBV_TRANSPORT_UNKNOWN;
export declare const IBV_TRANSPORT_IB = ibv_transport_type.IBV_TRANSPORT_IB;
export declare const IBV_TRANSPORT_IWARP = ibv_transport_type.IBV_TRANSPORT_IWARP;
export declare const IBV_TRANSPORT_USNIC = ibv_transport_type.IBV_TRANSPORT_USNIC;
export declare const IBV_TRANSPORT_USNIC_UDP = ibv_transport_type.IBV_TRANSPORT_USNIC_UDP;
export declare const IBV_TRANSPORT_UNSPECIFIED = ibv_transport_type.IBV_TRANSPORT_UNSPECIFIED;
export declare const IBV_DEVICE_RESIZE_MAX_WR = ibv_device_cap_flags.IBV_DEVICE_RESIZE_MAX_WR;
export declare const IBV_DEVICE_BAD_PKEY_CNTR = ibv_device_cap_flags.IBV_DEVICE_BAD_PKEY_CNTR;
export declare const IBV_DEVICE_BAD_QKEY_CNTR = ibv_device_cap_flags.IBV_DEVICE_BAD_QKEY_CNTR;
export declare const IBV_DEVICE_RAW_MULTI = ibv_device_cap_flags.IBV_DEVICE_RAW_MULTI;
export declare const IBV_DEVICE_AUTO_PATH_MIG = ibv_device_cap_flags.IBV_DEVICE_AUTO_PATH_MIG;
export declare const IBV_DEVICE_CHANGE_PHY_PORT = ibv_device_cap_flags.IBV_DEVICE_CHANGE_PHY_PORT;
export declare const IBV_DEVICE_UD_AV_PORT_ENFORCE = ibv_device_cap_flags.IBV_DEVICE_UD_AV_PORT_ENFORCE;
export declare const IBV_DEVICE_CURR_QP_STATE_MOD = ibv_device_cap_flags.IBV_DEVICE_CURR_QP_STATE_MOD;
export declare const IBV_DEVICE_SHUTDOWN_PORT = ibv_device_cap_flags.IBV_DEVICE_SHUTDOWN_PORT;
export declare const IBV_DEVICE_INIT_TYPE = ibv_device_cap_flags.IBV_DEVICE_INIT_TYPE;
export declare const IBV_DEVICE_PORT_ACTIVE_EVENT = ibv_device_cap_flags.IBV_DEVICE_PORT_ACTIVE_EVENT;
export declare const IBV_DEVICE_SYS_IMAGE_GUID = ibv_device_cap_flags.IBV_DEVICE_SYS_IMAGE_GUID;
export declare const IBV_DEVICE_RC_RNR_NAK_GEN = ibv_device_cap_flags.IBV_DEVICE_RC_RNR_NAK_GEN;
export declare const IBV_DEVICE_SRQ_RESIZE = ibv_device_cap_flags.IBV_DEVICE_SRQ_RESIZE;
export declare const IBV_DEVICE_N_NOTIFY_CQ = ibv_device_cap_flags.IBV_DEVICE_N_NOTIFY_CQ;
export declare const IBV_DEVICE_MEM_WINDOW = ibv_device_cap_flags.IBV_DEVICE_MEM_WINDOW;
export declare const IBV_DEVICE_UD_IP_CSUM = ibv_device_cap_flags.IBV_DEVICE_UD_IP_CSUM;
export declare const IBV_DEVICE_XRC = ibv_device_cap_flags.IBV_DEVICE_XRC;
export declare const IBV_DEVICE_MEM_MGT_EXTENSIONS = ibv_device_cap_flags.IBV_DEVICE_MEM_MGT_EXTENSIONS;
export declare const IBV_DEVICE_MEM_WINDOW_TYPE_2A = ibv_device_cap_flags.IBV_DEVICE_MEM_WINDOW_TYPE_2A;
export declare const IBV_DEVICE_MEM_WINDOW_TYPE_2B = ibv_device_cap_flags.IBV_DEVICE_MEM_WINDOW_TYPE_2B;
export declare const IBV_DEVICE_RC_IP_CSUM = ibv_device_cap_flags.IBV_DEVICE_RC_IP_CSUM;
export declare const IBV_DEVICE_RAW_IP_CSUM = ibv_device_cap_flags.IBV_DEVICE_RAW_IP_CSUM;
export declare const IBV_DEVICE_MANAGED_FLOW_STEERING = ibv_device_cap_flags.IBV_DEVICE_MANAGED_FLOW_STEERING;
export declare const IBV_ATOMIC_NONE = ibv_atomic_cap.IBV_ATOMIC_NONE;
export declare const IBV_ATOMIC_HCA = ibv_atomic_cap.IBV_ATOMIC_HCA;
export declare const IBV_ATOMIC_GLOB = ibv_atomic_cap.IBV_ATOMIC_GLOB;
export declare const IBV_MTU_256 = ibv_mtu.IBV_MTU_256;
export declare const IBV_MTU_512 = ibv_mtu.IBV_MTU_512;
export declare const IBV_MTU_1024 = ibv_mtu.IBV_MTU_1024;
export declare const IBV_MTU_2048 = ibv_mtu.IBV_MTU_2048;
export declare const IBV_MTU_4096 = ibv_mtu.IBV_MTU_4096;
export declare const IBV_PORT_NOP = ibv_port_state.IBV_PORT_NOP;
export declare const IBV_PORT_DOWN = ibv_port_state.IBV_PORT_DOWN;
export declare const IBV_PORT_INIT = ibv_port_state.IBV_PORT_INIT;
export declare const IBV_PORT_ARMED = ibv_port_state.IBV_PORT_ARMED;
export declare const IBV_PORT_ACTIVE = ibv_port_state.IBV_PORT_ACTIVE;
export declare const IBV_PORT_ACTIVE_DEFER = ibv_port_state.IBV_PORT_ACTIVE_DEFER;
export declare const IBV_PORT_SM = ibv_port_cap_flags.IBV_PORT_SM;
export declare const IBV_PORT_NOTICE_SUP = ibv_port_cap_flags.IBV_PORT_NOTICE_SUP;
export declare const IBV_PORT_TRAP_SUP = ibv_port_cap_flags.IBV_PORT_TRAP_SUP;
export declare const IBV_PORT_OPT_IPD_SUP = ibv_port_cap_flags.IBV_PORT_OPT_IPD_SUP;
export declare const IBV_PORT_AUTO_MIGR_SUP = ibv_port_cap_flags.IBV_PORT_AUTO_MIGR_SUP;
export declare const IBV_PORT_SL_MAP_SUP = ibv_port_cap_flags.IBV_PORT_SL_MAP_SUP;
export declare const IBV_PORT_MKEY_NVRAM = ibv_port_cap_flags.IBV_PORT_MKEY_NVRAM;
export declare const IBV_PORT_PKEY_NVRAM = ibv_port_cap_flags.IBV_PORT_PKEY_NVRAM;
export declare const IBV_PORT_LED_INFO_SUP = ibv_port_cap_flags.IBV_PORT_LED_INFO_SUP;
export declare const IBV_PORT_SYS_IMAGE_GUID_SUP = ibv_port_cap_flags.IBV_PORT_SYS_IMAGE_GUID_SUP;
export declare const IBV_PORT_PKEY_SW_EXT_PORT_TRAP_SUP = ibv_port_cap_flags.IBV_PORT_PKEY_SW_EXT_PORT_TRAP_SUP;
export declare const IBV_PORT_EXTENDED_SPEEDS_SUP = ibv_port_cap_flags.IBV_PORT_EXTENDED_SPEEDS_SUP;
export declare const IBV_PORT_CAP_MASK2_SUP = ibv_port_cap_flags.IBV_PORT_CAP_MASK2_SUP;
export declare const IBV_PORT_CM_SUP = ibv_port_cap_flags.IBV_PORT_CM_SUP;
export declare const IBV_PORT_SNMP_TUNNEL_SUP = ibv_port_cap_flags.IBV_PORT_SNMP_TUNNEL_SUP;
export declare const IBV_PORT_REINIT_SUP = ibv_port_cap_flags.IBV_PORT_REINIT_SUP;
export declare const IBV_PORT_DEVICE_MGMT_SUP = ibv_port_cap_flags.IBV_PORT_DEVICE_MGMT_SUP;
export declare const IBV_PORT_VENDOR_CLASS_SUP = ibv_port_cap_flags.IBV_PORT_VENDOR_CLASS_SUP;
export declare const IBV_PORT_DR_NOTICE_SUP = ibv_port_cap_flags.IBV_PORT_DR_NOTICE_SUP;
export declare const IBV_PORT_CAP_MASK_NOTICE_SUP = ibv_port_cap_flags.IBV_PORT_CAP_MASK_NOTICE_SUP;
export declare const IBV_PORT_BOOT_MGMT_SUP = ibv_port_cap_flags.IBV_PORT_BOOT_MGMT_SUP;
export declare const IBV_PORT_LINK_LATENCY_SUP = ibv_port_cap_flags.IBV_PORT_LINK_LATENCY_SUP;
export declare const IBV_PORT_CLIENT_REG_SUP = ibv_port_cap_flags.IBV_PORT_CLIENT_REG_SUP;
export declare const IBV_PORT_IP_BASED_GIDS = ibv_port_cap_flags.IBV_PORT_IP_BASED_GIDS;
export declare const IBV_EVENT_CQ_ERR = ibv_event_type.IBV_EVENT_CQ_ERR;
export declare const IBV_EVENT_QP_FATAL = ibv_event_type.IBV_EVENT_QP_FATAL;
export declare const IBV_EVENT_QP_REQ_ERR = ibv_event_type.IBV_EVENT_QP_REQ_ERR;
export declare const IBV_EVENT_QP_ACCESS_ERR = ibv_event_type.IBV_EVENT_QP_ACCESS_ERR;
export declare const IBV_EVENT_COMM_EST = ibv_event_type.IBV_EVENT_COMM_EST;
export declare const IBV_EVENT_SQ_DRAINED = ibv_event_type.IBV_EVENT_SQ_DRAINED;
export declare const IBV_EVENT_PATH_MIG = ibv_event_type.IBV_EVENT_PATH_MIG;
export declare const IBV_EVENT_PATH_MIG_ERR = ibv_event_type.IBV_EVENT_PATH_MIG_ERR;
export declare const IBV_EVENT_DEVICE_FATAL = ibv_event_type.IBV_EVENT_DEVICE_FATAL;
export declare const IBV_EVENT_PORT_ACTIVE = ibv_event_type.IBV_EVENT_PORT_ACTIVE;
export declare const IBV_EVENT_PORT_ERR = ibv_event_type.IBV_EVENT_PORT_ERR;
export declare const IBV_EVENT_LID_CHANGE = ibv_event_type.IBV_EVENT_LID_CHANGE;
export declare const IBV_EVENT_PKEY_CHANGE = ibv_event_type.IBV_EVENT_PKEY_CHANGE;
export declare const IBV_EVENT_SM_CHANGE = ibv_event_type.IBV_EVENT_SM_CHANGE;
export declare const IBV_EVENT_SRQ_ERR = ibv_event_type.IBV_EVENT_SRQ_ERR;
export declare const IBV_EVENT_SRQ_LIMIT_REACHED = ibv_event_type.IBV_EVENT_SRQ_LIMIT_REACHED;
export declare const IBV_EVENT_QP_LAST_WQE_REACHED = ibv_event_type.IBV_EVENT_QP_LAST_WQE_REACHED;
export declare const IBV_EVENT_CLIENT_REREGISTER = ibv_event_type.IBV_EVENT_CLIENT_REREGISTER;
export declare const IBV_EVENT_GID_CHANGE = ibv_event_type.IBV_EVENT_GID_CHANGE;
export declare const IBV_EVENT_WQ_FATAL = ibv_event_type.IBV_EVENT_WQ_FATAL;
export declare const IBV_EVENT_DEVICE_SPEED_CHANGE = ibv_event_type.IBV_EVENT_DEVICE_SPEED_CHANGE;
export declare const IBV_WC_SUCCESS = ibv_wc_status.IBV_WC_SUCCESS;
export declare const IBV_WC_LOC_LEN_ERR = ibv_wc_status.IBV_WC_LOC_LEN_ERR;
export declare const IBV_WC_LOC_QP_OP_ERR = ibv_wc_status.IBV_WC_LOC_QP_OP_ERR;
export declare const IBV_WC_LOC_EEC_OP_ERR = ibv_wc_status.IBV_WC_LOC_EEC_OP_ERR;
export declare const IBV_WC_LOC_PROT_ERR = ibv_wc_status.IBV_WC_LOC_PROT_ERR;
export declare const IBV_WC_WR_FLUSH_ERR = ibv_wc_status.IBV_WC_WR_FLUSH_ERR;
export declare const IBV_WC_MW_BIND_ERR = ibv_wc_status.IBV_WC_MW_BIND_ERR;
export declare const IBV_WC_BAD_RESP_ERR = ibv_wc_status.IBV_WC_BAD_RESP_ERR;
export declare const IBV_WC_LOC_ACCESS_ERR = ibv_wc_status.IBV_WC_LOC_ACCESS_ERR;
export declare const IBV_WC_REM_INV_REQ_ERR = ibv_wc_status.IBV_WC_REM_INV_REQ_ERR;
export declare const IBV_WC_REM_ACCESS_ERR = ibv_wc_status.IBV_WC_REM_ACCESS_ERR;
export declare const IBV_WC_REM_OP_ERR = ibv_wc_status.IBV_WC_REM_OP_ERR;
export declare const IBV_WC_RETRY_EXC_ERR = ibv_wc_status.IBV_WC_RETRY_EXC_ERR;
export declare const IBV_WC_RNR_RETRY_EXC_ERR = ibv_wc_status.IBV_WC_RNR_RETRY_EXC_ERR;
export declare const IBV_WC_LOC_RDD_VIOL_ERR = ibv_wc_status.IBV_WC_LOC_RDD_VIOL_ERR;
export declare const IBV_WC_REM_INV_RD_REQ_ERR = ibv_wc_status.IBV_WC_REM_INV_RD_REQ_ERR;
export declare const IBV_WC_REM_ABORT_ERR = ibv_wc_status.IBV_WC_REM_ABORT_ERR;
export declare const IBV_WC_INV_EECN_ERR = ibv_wc_status.IBV_WC_INV_EECN_ERR;
export declare const IBV_WC_INV_EEC_STATE_ERR = ibv_wc_status.IBV_WC_INV_EEC_STATE_ERR;
export declare const IBV_WC_FATAL_ERR = ibv_wc_status.IBV_WC_FATAL_ERR;
export declare const IBV_WC_RESP_TIMEOUT_ERR = ibv_wc_status.IBV_WC_RESP_TIMEOUT_ERR;
export declare const IBV_WC_GENERAL_ERR = ibv_wc_status.IBV_WC_GENERAL_ERR;
export declare const IBV_WC_TM_ERR = ibv_wc_status.IBV_WC_TM_ERR;
export declare const IBV_WC_TM_RNDV_INCOMPLETE = ibv_wc_status.IBV_WC_TM_RNDV_INCOMPLETE;
export declare const IBV_WC_SEND = ibv_wc_opcode.IBV_WC_SEND;
export declare const IBV_WC_RDMA_WRITE = ibv_wc_opcode.IBV_WC_RDMA_WRITE;
export declare const IBV_WC_RDMA_READ = ibv_wc_opcode.IBV_WC_RDMA_READ;
export declare const IBV_WC_COMP_SWAP = ibv_wc_opcode.IBV_WC_COMP_SWAP;
export declare const IBV_WC_FETCH_ADD = ibv_wc_opcode.IBV_WC_FETCH_ADD;
export declare const IBV_WC_BIND_MW = ibv_wc_opcode.IBV_WC_BIND_MW;
export declare const IBV_WC_LOCAL_INV = ibv_wc_opcode.IBV_WC_LOCAL_INV;
export declare const IBV_WC_TSO = ibv_wc_opcode.IBV_WC_TSO;
export declare const IBV_WC_FLUSH = ibv_wc_opcode.IBV_WC_FLUSH;
export declare const IBV_WC_ATOMIC_WRITE = ibv_wc_opcode.IBV_WC_ATOMIC_WRITE;
export declare const IBV_WC_RECV = ibv_wc_opcode.IBV_WC_RECV;
export declare const IBV_WC_RECV_RDMA_WITH_IMM = ibv_wc_opcode.IBV_WC_RECV_RDMA_WITH_IMM;
export declare const IBV_WC_TM_ADD = ibv_wc_opcode.IBV_WC_TM_ADD;
export declare const IBV_WC_TM_DEL = ibv_wc_opcode.IBV_WC_TM_DEL;
export declare const IBV_WC_TM_SYNC = ibv_wc_opcode.IBV_WC_TM_SYNC;
export declare const IBV_WC_TM_RECV = ibv_wc_opcode.IBV_WC_TM_RECV;
export declare const IBV_WC_TM_NO_TAG = ibv_wc_opcode.IBV_WC_TM_NO_TAG;
export declare const IBV_WC_DRIVER1 = ibv_wc_opcode.IBV_WC_DRIVER1;
export declare const IBV_WC_DRIVER2 = ibv_wc_opcode.IBV_WC_DRIVER2;
export declare const IBV_WC_DRIVER3 = ibv_wc_opcode.IBV_WC_DRIVER3;
export declare const IBV_WC_GRH = ibv_wc_flags.IBV_WC_GRH;
export declare const IBV_WC_WITH_IMM = ibv_wc_flags.IBV_WC_WITH_IMM;
export declare const IBV_WC_IP_CSUM_OK = ibv_wc_flags.IBV_WC_IP_CSUM_OK;
export declare const IBV_WC_WITH_INV = ibv_wc_flags.IBV_WC_WITH_INV;
export declare const IBV_WC_TM_SYNC_REQ = ibv_wc_flags.IBV_WC_TM_SYNC_REQ;
export declare const IBV_WC_TM_MATCH = ibv_wc_flags.IBV_WC_TM_MATCH;
export declare const IBV_WC_TM_DATA_VALID = ibv_wc_flags.IBV_WC_TM_DATA_VALID;
export declare const IBV_ACCESS_LOCAL_WRITE = ibv_access_flags.IBV_ACCESS_LOCAL_WRITE;
export declare const IBV_ACCESS_REMOTE_WRITE = ibv_access_flags.IBV_ACCESS_REMOTE_WRITE;
export declare const IBV_ACCESS_REMOTE_READ = ibv_access_flags.IBV_ACCESS_REMOTE_READ;
export declare const IBV_ACCESS_REMOTE_ATOMIC = ibv_access_flags.IBV_ACCESS_REMOTE_ATOMIC;
export declare const IBV_ACCESS_MW_BIND = ibv_access_flags.IBV_ACCESS_MW_BIND;
export declare const IBV_ACCESS_ZERO_BASED = ibv_access_flags.IBV_ACCESS_ZERO_BASED;
export declare const IBV_ACCESS_ON_DEMAND = ibv_access_flags.IBV_ACCESS_ON_DEMAND;
export declare const IBV_ACCESS_HUGETLB = ibv_access_flags.IBV_ACCESS_HUGETLB;
export declare const IBV_ACCESS_FLUSH_GLOBAL = ibv_access_flags.IBV_ACCESS_FLUSH_GLOBAL;
export declare const IBV_ACCESS_FLUSH_PERSISTENT = ibv_access_flags.IBV_ACCESS_FLUSH_PERSISTENT;
export declare const IBV_ACCESS_RELAXED_ORDERING = ibv_access_flags.IBV_ACCESS_RELAXED_ORDERING;
export declare const IBV_MW_TYPE_1 = ibv_mw_type.IBV_MW_TYPE_1;
export declare const IBV_MW_TYPE_2 = ibv_mw_type.IBV_MW_TYPE_2;
export declare const IBV_RATE_MAX = ibv_rate.IBV_RATE_MAX;
export declare const IBV_RATE_2_5_GBPS = ibv_rate.IBV_RATE_2_5_GBPS;
export declare const IBV_RATE_5_GBPS = ibv_rate.IBV_RATE_5_GBPS;
export declare const IBV_RATE_10_GBPS = ibv_rate.IBV_RATE_10_GBPS;
export declare const IBV_RATE_20_GBPS = ibv_rate.IBV_RATE_20_GBPS;
export declare const IBV_RATE_30_GBPS = ibv_rate.IBV_RATE_30_GBPS;
export declare const IBV_RATE_40_GBPS = ibv_rate.IBV_RATE_40_GBPS;
export declare const IBV_RATE_60_GBPS = ibv_rate.IBV_RATE_60_GBPS;
export declare const IBV_RATE_80_GBPS = ibv_rate.IBV_RATE_80_GBPS;
export declare const IBV_RATE_120_GBPS = ibv_rate.IBV_RATE_120_GBPS;
export declare const IBV_RATE_14_GBPS = ibv_rate.IBV_RATE_14_GBPS;
export declare const IBV_RATE_56_GBPS = ibv_rate.IBV_RATE_56_GBPS;
export declare const IBV_RATE_112_GBPS = ibv_rate.IBV_RATE_112_GBPS;
export declare const IBV_RATE_168_GBPS = ibv_rate.IBV_RATE_168_GBPS;
export declare const IBV_RATE_25_GBPS = ibv_rate.IBV_RATE_25_GBPS;
export declare const IBV_RATE_100_GBPS = ibv_rate.IBV_RATE_100_GBPS;
export declare const IBV_RATE_200_GBPS = ibv_rate.IBV_RATE_200_GBPS;
export declare const IBV_RATE_300_GBPS = ibv_rate.IBV_RATE_300_GBPS;
export declare const IBV_RATE_28_GBPS = ibv_rate.IBV_RATE_28_GBPS;
export declare const IBV_RATE_50_GBPS = ibv_rate.IBV_RATE_50_GBPS;
export declare const IBV_RATE_400_GBPS = ibv_rate.IBV_RATE_400_GBPS;
export declare const IBV_RATE_600_GBPS = ibv_rate.IBV_RATE_600_GBPS;
export declare const IBV_RATE_800_GBPS = ibv_rate.IBV_RATE_800_GBPS;
export declare const IBV_RATE_1200_GBPS = ibv_rate.IBV_RATE_1200_GBPS;
export declare const IBV_SRQ_MAX_WR = ibv_srq_attr_mask.IBV_SRQ_MAX_WR;
export declare const IBV_SRQ_LIMIT = ibv_srq_attr_mask.IBV_SRQ_LIMIT;
export declare const IBV_QPT_RC = ibv_qp_type.IBV_QPT_RC;
export declare const IBV_QPT_UC = ibv_qp_type.IBV_QPT_UC;
export declare const IBV_QPT_UD = ibv_qp_type.IBV_QPT_UD;
export declare const IBV_QPT_RAW_PACKET = ibv_qp_type.IBV_QPT_RAW_PACKET;
export declare const IBV_QPT_XRC_SEND = ibv_qp_type.IBV_QPT_XRC_SEND;
export declare const IBV_QPT_XRC_RECV = ibv_qp_type.IBV_QPT_XRC_RECV;
export declare const IBV_QPT_DRIVER = ibv_qp_type.IBV_QPT_DRIVER;
export declare const IBV_QP_STATE = ibv_qp_attr_mask.IBV_QP_STATE;
export declare const IBV_QP_CUR_STATE = ibv_qp_attr_mask.IBV_QP_CUR_STATE;
export declare const IBV_QP_EN_SQD_ASYNC_NOTIFY = ibv_qp_attr_mask.IBV_QP_EN_SQD_ASYNC_NOTIFY;
export declare const IBV_QP_ACCESS_FLAGS = ibv_qp_attr_mask.IBV_QP_ACCESS_FLAGS;
export declare const IBV_QP_PKEY_INDEX = ibv_qp_attr_mask.IBV_QP_PKEY_INDEX;
export declare const IBV_QP_PORT = ibv_qp_attr_mask.IBV_QP_PORT;
export declare const IBV_QP_QKEY = ibv_qp_attr_mask.IBV_QP_QKEY;
export declare const IBV_QP_AV = ibv_qp_attr_mask.IBV_QP_AV;
export declare const IBV_QP_PATH_MTU = ibv_qp_attr_mask.IBV_QP_PATH_MTU;
export declare const IBV_QP_TIMEOUT = ibv_qp_attr_mask.IBV_QP_TIMEOUT;
export declare const IBV_QP_RETRY_CNT = ibv_qp_attr_mask.IBV_QP_RETRY_CNT;
export declare const IBV_QP_RNR_RETRY = ibv_qp_attr_mask.IBV_QP_RNR_RETRY;
export declare const IBV_QP_RQ_PSN = ibv_qp_attr_mask.IBV_QP_RQ_PSN;
export declare const IBV_QP_MAX_QP_RD_ATOMIC = ibv_qp_attr_mask.IBV_QP_MAX_QP_RD_ATOMIC;
export declare const IBV_QP_ALT_PATH = ibv_qp_attr_mask.IBV_QP_ALT_PATH;
export declare const IBV_QP_MIN_RNR_TIMER = ibv_qp_attr_mask.IBV_QP_MIN_RNR_TIMER;
export declare const IBV_QP_SQ_PSN = ibv_qp_attr_mask.IBV_QP_SQ_PSN;
export declare const IBV_QP_MAX_DEST_RD_ATOMIC = ibv_qp_attr_mask.IBV_QP_MAX_DEST_RD_ATOMIC;
export declare const IBV_QP_PATH_MIG_STATE = ibv_qp_attr_mask.IBV_QP_PATH_MIG_STATE;
export declare const IBV_QP_CAP = ibv_qp_attr_mask.IBV_QP_CAP;
export declare const IBV_QP_DEST_QPN = ibv_qp_attr_mask.IBV_QP_DEST_QPN;
export declare const IBV_QP_RATE_LIMIT = ibv_qp_attr_mask.IBV_QP_RATE_LIMIT;
export declare const IBV_QPS_RESET = ibv_qp_state.IBV_QPS_RESET;
export declare const IBV_QPS_INIT = ibv_qp_state.IBV_QPS_INIT;
export declare const IBV_QPS_RTR = ibv_qp_state.IBV_QPS_RTR;
export declare const IBV_QPS_RTS = ibv_qp_state.IBV_QPS_RTS;
export declare const IBV_QPS_SQD = ibv_qp_state.IBV_QPS_SQD;
export declare const IBV_QPS_SQE = ibv_qp_state.IBV_QPS_SQE;
export declare const IBV_QPS_ERR = ibv_qp_state.IBV_QPS_ERR;
export declare const IBV_QPS_UNKNOWN = ibv_qp_state.IBV_QPS_UNKNOWN;
export declare const IBV_MIG_MIGRATED = ibv_mig_state.IBV_MIG_MIGRATED;
export declare const IBV_MIG_REARM = ibv_mig_state.IBV_MIG_REARM;
export declare const IBV_MIG_ARMED = ibv_mig_state.IBV_MIG_ARMED;
export declare const IBV_WR_RDMA_WRITE = ibv_wr_opcode.IBV_WR_RDMA_WRITE;
export declare const IBV_WR_RDMA_WRITE_WITH_IMM = ibv_wr_opcode.IBV_WR_RDMA_WRITE_WITH_IMM;
export declare const IBV_WR_SEND = ibv_wr_opcode.IBV_WR_SEND;
export declare const IBV_WR_SEND_WITH_IMM = ibv_wr_opcode.IBV_WR_SEND_WITH_IMM;
export declare const IBV_WR_RDMA_READ = ibv_wr_opcode.IBV_WR_RDMA_READ;
export declare const IBV_WR_ATOMIC_CMP_AND_SWP = ibv_wr_opcode.IBV_WR_ATOMIC_CMP_AND_SWP;
export declare const IBV_WR_ATOMIC_FETCH_AND_ADD = ibv_wr_opcode.IBV_WR_ATOMIC_FETCH_AND_ADD;
export declare const IBV_WR_LOCAL_INV = ibv_wr_opcode.IBV_WR_LOCAL_INV;
export declare const IBV_WR_BIND_MW = ibv_wr_opcode.IBV_WR_BIND_MW;
export declare const IBV_WR_SEND_WITH_INV = ibv_wr_opcode.IBV_WR_SEND_WITH_INV;
export declare const IBV_WR_TSO = ibv_wr_opcode.IBV_WR_TSO;
export declare const IBV_WR_DRIVER1 = ibv_wr_opcode.IBV_WR_DRIVER1;
export declare const IBV_WR_FLUSH = ibv_wr_opcode.IBV_WR_FLUSH;
export declare const IBV_WR_ATOMIC_WRITE = ibv_wr_opcode.IBV_WR_ATOMIC_WRITE;
export declare const IBV_SEND_FENCE = ibv_send_flags.IBV_SEND_FENCE;
export declare const IBV_SEND_SIGNALED = ibv_send_flags.IBV_SEND_SIGNALED;
export declare const IBV_SEND_SOLICITED = ibv_send_flags.IBV_SEND_SOLICITED;
export declare const IBV_SEND_INLINE = ibv_send_flags.IBV_SEND_INLINE;
export declare const IBV_SEND_IP_CSUM = ibv_send_flags.IBV_SEND_IP_CSUM;
export declare const RDMA_CM_EVENT_ADDR_RESOLVED = rdma_cm_event_type.RDMA_CM_EVENT_ADDR_RESOLVED;
export declare const RDMA_CM_EVENT_ADDR_ERROR = rdma_cm_event_type.RDMA_CM_EVENT_ADDR_ERROR;
export declare const RDMA_CM_EVENT_ROUTE_RESOLVED = rdma_cm_event_type.RDMA_CM_EVENT_ROUTE_RESOLVED;
export declare const RDMA_CM_EVENT_ROUTE_ERROR = rdma_cm_event_type.RDMA_CM_EVENT_ROUTE_ERROR;
export declare const RDMA_CM_EVENT_CONNECT_REQUEST = rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_REQUEST;
export declare const RDMA_CM_EVENT_CONNECT_RESPONSE = rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_RESPONSE;
export declare const RDMA_CM_EVENT_CONNECT_ERROR = rdma_cm_event_type.RDMA_CM_EVENT_CONNECT_ERROR;
export declare const RDMA_CM_EVENT_UNREACHABLE = rdma_cm_event_type.RDMA_CM_EVENT_UNREACHABLE;
export declare const RDMA_CM_EVENT_REJECTED = rdma_cm_event_type.RDMA_CM_EVENT_REJECTED;
export declare const RDMA_CM_EVENT_ESTABLISHED = rdma_cm_event_type.RDMA_CM_EVENT_ESTABLISHED;
export declare const RDMA_CM_EVENT_DISCONNECTED = rdma_cm_event_type.RDMA_CM_EVENT_DISCONNECTED;
export declare const RDMA_CM_EVENT_DEVICE_REMOVAL = rdma_cm_event_type.RDMA_CM_EVENT_DEVICE_REMOVAL;
export declare const RDMA_CM_EVENT_MULTICAST_JOIN = rdma_cm_event_type.RDMA_CM_EVENT_MULTICAST_JOIN;
export declare const RDMA_CM_EVENT_MULTICAST_ERROR = rdma_cm_event_type.RDMA_CM_EVENT_MULTICAST_ERROR;
export declare const RDMA_CM_EVENT_ADDR_CHANGE = rdma_cm_event_type.RDMA_CM_EVENT_ADDR_CHANGE;
export declare const RDMA_CM_EVENT_TIMEWAIT_EXIT = rdma_cm_event_type.RDMA_CM_EVENT_TIMEWAIT_EXIT;
export declare const RDMA_CM_EVENT_ADDRINFO_RESOLVED = rdma_cm_event_type.RDMA_CM_EVENT_ADDRINFO_RESOLVED;
export declare const RDMA_CM_EVENT_ADDRINFO_ERROR = rdma_cm_event_type.RDMA_CM_EVENT_ADDRINFO_ERROR;
export declare const RDMA_CM_EVENT_USER = rdma_cm_event_type.RDMA_CM_EVENT_USER;
export declare const RDMA_CM_EVENT_INTERNAL = rdma_cm_event_type.RDMA_CM_EVENT_INTERNAL;
export declare const RDMA_PS_IPOIB = rdma_port_space.RDMA_PS_IPOIB;
export declare const RDMA_PS_TCP = rdma_port_space.RDMA_PS_TCP;
export declare const RDMA_PS_UDP = rdma_port_space.RDMA_PS_UDP;
export declare const RDMA_PS_IB = rdma_port_space.RDMA_PS_IB;
export declare const IBV_EXP_ATOMIC_NONE = ibv_exp_atomic_cap.IBV_EXP_ATOMIC_NONE;
export declare const IBV_EXP_ATOMIC_HCA = ibv_exp_atomic_cap.IBV_EXP_ATOMIC_HCA;
export declare const IBV_EXP_ATOMIC_GLOB = ibv_exp_atomic_cap.IBV_EXP_ATOMIC_GLOB;
export declare const IBV_EXP_ATOMIC_HCA_REPLY_BE = ibv_exp_atomic_cap.IBV_EXP_ATOMIC_HCA_REPLY_BE;
export declare const IBV_EXP_WR_RDMA_WRITE = ibv_exp_wr_opcode.IBV_EXP_WR_RDMA_WRITE;
export declare const IBV_EXP_WR_RDMA_WRITE_WITH_IMM = ibv_exp_wr_opcode.IBV_EXP_WR_RDMA_WRITE_WITH_IMM;
export declare const IBV_EXP_WR_SEND = ibv_exp_wr_opcode.IBV_EXP_WR_SEND;
export declare const IBV_EXP_WR_SEND_WITH_IMM = ibv_exp_wr_opcode.IBV_EXP_WR_SEND_WITH_IMM;
export declare const IBV_EXP_WR_RDMA_READ = ibv_exp_wr_opcode.IBV_EXP_WR_RDMA_READ;
export declare const IBV_EXP_WR_ATOMIC_CMP_AND_SWP = ibv_exp_wr_opcode.IBV_EXP_WR_ATOMIC_CMP_AND_SWP;
export declare const IBV_EXP_WR_ATOMIC_FETCH_AND_ADD = ibv_exp_wr_opcode.IBV_EXP_WR_ATOMIC_FETCH_AND_ADD;
export declare const IBV_EXP_WR_LOCAL_INV = ibv_exp_wr_opcode.IBV_EXP_WR_LOCAL_INV;
export declare const IBV_EXP_WR_BIND_MW = ibv_exp_wr_opcode.IBV_EXP_WR_BIND_MW;
export declare const IBV_EXP_WR_SEND_WITH_INV = ibv_exp_wr_opcode.IBV_EXP_WR_SEND_WITH_INV;
export declare const IBV_EXP_WR_TSO = ibv_exp_wr_opcode.IBV_EXP_WR_TSO;
export declare const IBV_EXP_WR_SEND_ENABLE = ibv_exp_wr_opcode.IBV_EXP_WR_SEND_ENABLE;
export declare const IBV_EXP_WR_RECV_ENABLE = ibv_exp_wr_opcode.IBV_EXP_WR_RECV_ENABLE;
export declare const IBV_EXP_WR_CQE_WAIT = ibv_exp_wr_opcode.IBV_EXP_WR_CQE_WAIT;
export declare const IBV_EXP_WR_EXT_MASKED_ATOMIC_CMP_AND_SWP = ibv_exp_wr_opcode.IBV_EXP_WR_EXT_MASKED_ATOMIC_CMP_AND_SWP;
export declare const IBV_EXP_WR_EXT_MASKED_ATOMIC_FETCH_AND_ADD = ibv_exp_wr_opcode.IBV_EXP_WR_EXT_MASKED_ATOMIC_FETCH_AND_ADD;
export declare const IBV_EXP_WR_NOP = ibv_exp_wr_opcode.IBV_EXP_WR_NOP;
export declare const IBV_EXP_WR_UMR_FILL = ibv_exp_wr_opcode.IBV_EXP_WR_UMR_FILL;
export declare const IBV_EXP_WR_UMR_INVALIDATE = ibv_exp_wr_opcode.IBV_EXP_WR_UMR_INVALIDATE;
export declare const IBV_EXP_CALC_OP_ADD = ibv_exp_calc_op.IBV_EXP_CALC_OP_ADD;
export declare const IBV_EXP_CALC_OP_MAXLOC = ibv_exp_calc_op.IBV_EXP_CALC_OP_MAXLOC;
export declare const IBV_EXP_CALC_OP_BAND = ibv_exp_calc_op.IBV_EXP_CALC_OP_BAND;
export declare const IBV_EXP_CALC_OP_BXOR = ibv_exp_calc_op.IBV_EXP_CALC_OP_BXOR;
export declare const IBV_EXP_CALC_OP_BOR = ibv_exp_calc_op.IBV_EXP_CALC_OP_BOR;
export declare const IBV_EXP_CALC_DATA_TYPE_INT = ibv_exp_calc_data_type.IBV_EXP_CALC_DATA_TYPE_INT;
export declare const IBV_EXP_CALC_DATA_TYPE_UINT = ibv_exp_calc_data_type.IBV_EXP_CALC_DATA_TYPE_UINT;
export declare const IBV_EXP_CALC_DATA_TYPE_FLOAT = ibv_exp_calc_data_type.IBV_EXP_CALC_DATA_TYPE_FLOAT;
export declare const IBV_EXP_CALC_DATA_SIZE_64_BIT = ibv_exp_calc_data_size.IBV_EXP_CALC_DATA_SIZE_64_BIT;
export declare const IBV_EXP_UMR_MR_LIST = ibv_exp_umr_wr_type.IBV_EXP_UMR_MR_LIST;
export declare const IBV_EXP_UMR_REPEAT = ibv_exp_umr_wr_type.IBV_EXP_UMR_REPEAT;
export declare const IBV_EXP_UMR_MR_LIST_FIXED_SIZE = ibv_exp_umr_wr_type.IBV_EXP_UMR_MR_LIST_FIXED_SIZE;

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VERBS_API_FUNCTIONS } from '../../src/verbs/api.js';
import * as C from '../../src/verbs/constants.js';
import {
  ibv_access_flags,
  ibv_event_type,
  ibv_event_type_str,
  ibv_mtu,
  ibv_node_type,
  ibv_node_type_str,
  ibv_port_state_str,
  ibv_qp_attr_mask,
  ibv_qp_state,
  ibv_qp_type,
  ibv_send_flags,
  ibv_transport_type,
  ibv_wc_flags,
  ibv_wc_opcode,
  ibv_wc_status,
  ibv_wc_status_str,
  ibv_wr_opcode,
  rdma_cm_event_type,
  rdma_event_str,
  rdma_port_space,
} from '../../src/verbs/constants.js';
import {
  EADDRNOTAVAIL,
  EINVAL,
  ENOSYS,
  EOPNOTSUPP,
  ERRNO_NAMES,
  getErrno,
  IWARP_UNSUPPORTED,
  IWARP_UNSUPPORTED_SOURCE,
  setErrno,
} from '../../src/verbs/errno.js';
import type { ibv_send_wr, In } from '../../src/verbs/types.js';

// Reference: rdma-core (github.com/linux-rdma/rdma-core) at commit
// 691953d8d502f54088f776c5ba2aeed0a5ac945d. File:line citations below are at that commit.

/** Numeric members of a TS numeric enum, in declaration order. */
function members(e: Record<string, string | number>): [string, number][] {
  return Object.entries(e).filter((kv): kv is [string, number] => typeof kv[1] === 'number');
}

describe('verbs constants pinned to rdma-core', () => {
  it('ibv_wc_status numbering (libibverbs/verbs.h:489-514)', () => {
    const order = [
      'IBV_WC_SUCCESS',
      'IBV_WC_LOC_LEN_ERR',
      'IBV_WC_LOC_QP_OP_ERR',
      'IBV_WC_LOC_EEC_OP_ERR',
      'IBV_WC_LOC_PROT_ERR',
      'IBV_WC_WR_FLUSH_ERR',
      'IBV_WC_MW_BIND_ERR',
      'IBV_WC_BAD_RESP_ERR',
      'IBV_WC_LOC_ACCESS_ERR',
      'IBV_WC_REM_INV_REQ_ERR',
      'IBV_WC_REM_ACCESS_ERR',
      'IBV_WC_REM_OP_ERR',
      'IBV_WC_RETRY_EXC_ERR',
      'IBV_WC_RNR_RETRY_EXC_ERR',
      'IBV_WC_LOC_RDD_VIOL_ERR',
      'IBV_WC_REM_INV_RD_REQ_ERR',
      'IBV_WC_REM_ABORT_ERR',
      'IBV_WC_INV_EECN_ERR',
      'IBV_WC_INV_EEC_STATE_ERR',
      'IBV_WC_FATAL_ERR',
      'IBV_WC_RESP_TIMEOUT_ERR',
      'IBV_WC_GENERAL_ERR',
      'IBV_WC_TM_ERR',
      'IBV_WC_TM_RNDV_INCOMPLETE',
    ];
    assert.deepEqual(
      members(ibv_wc_status),
      order.map((n, i) => [n, i]),
    );
    assert.equal(C.IBV_WC_WR_FLUSH_ERR, 5);
    assert.equal(C.IBV_WC_GENERAL_ERR, 21);
  });

  it('ibv_wc_opcode: IBV_WC_RECV = 1 << 7 (verbs.h:517-543, line 532)', () => {
    assert.equal(ibv_wc_opcode.IBV_WC_SEND, 0);
    assert.equal(ibv_wc_opcode.IBV_WC_RDMA_WRITE, 1);
    assert.equal(ibv_wc_opcode.IBV_WC_RDMA_READ, 2);
    assert.equal(ibv_wc_opcode.IBV_WC_COMP_SWAP, 3);
    assert.equal(ibv_wc_opcode.IBV_WC_FETCH_ADD, 4);
    assert.equal(ibv_wc_opcode.IBV_WC_BIND_MW, 5);
    assert.equal(ibv_wc_opcode.IBV_WC_LOCAL_INV, 6);
    assert.equal(ibv_wc_opcode.IBV_WC_RECV, 128);
    assert.equal(ibv_wc_opcode.IBV_WC_RECV_RDMA_WITH_IMM, 129);
    assert.equal(C.IBV_WC_RECV, 1 << 7);
    // Every receive opcode has the IBV_WC_RECV bit; no send-side opcode has it.
    for (const [name, v] of members(ibv_wc_opcode)) {
      const isRecv =
        name === 'IBV_WC_RECV' || name === 'IBV_WC_RECV_RDMA_WITH_IMM' || name.startsWith('IBV_WC_TM_') || name.startsWith('IBV_WC_DRIVER');
      assert.equal((v & C.IBV_WC_RECV) !== 0, isRecv, name);
    }
  });

  it('ibv_wc_flags (verbs.h:583-591)', () => {
    assert.equal(ibv_wc_flags.IBV_WC_GRH, 1);
    assert.equal(ibv_wc_flags.IBV_WC_WITH_IMM, 2);
    assert.equal(ibv_wc_flags.IBV_WC_IP_CSUM_OK, 1 << C.IBV_WC_IP_CSUM_OK_SHIFT);
    assert.equal(ibv_wc_flags.IBV_WC_WITH_INV, 8);
  });

  it('ibv_wr_opcode and ibv_send_flags (verbs.h:1135-1160)', () => {
    assert.deepEqual(members(ibv_wr_opcode).slice(0, 7), [
      ['IBV_WR_RDMA_WRITE', 0],
      ['IBV_WR_RDMA_WRITE_WITH_IMM', 1],
      ['IBV_WR_SEND', 2],
      ['IBV_WR_SEND_WITH_IMM', 3],
      ['IBV_WR_RDMA_READ', 4],
      ['IBV_WR_ATOMIC_CMP_AND_SWP', 5],
      ['IBV_WR_ATOMIC_FETCH_AND_ADD', 6],
    ]);
    assert.equal(ibv_wr_opcode.IBV_WR_LOCAL_INV, 7);
    assert.equal(ibv_wr_opcode.IBV_WR_SEND_WITH_INV, 9);
    assert.equal(ibv_wr_opcode.IBV_WR_FLUSH, 14);
    assert.deepEqual(
      [ibv_send_flags.IBV_SEND_FENCE, ibv_send_flags.IBV_SEND_SIGNALED, ibv_send_flags.IBV_SEND_SOLICITED, ibv_send_flags.IBV_SEND_INLINE],
      [1, 2, 4, 8],
    );
  });

  it('IBV_ACCESS_* bits (verbs.h:615-627; verbs_api.h:98 → ib_user_ioctl_verbs.h:44)', () => {
    assert.equal(C.IBV_ACCESS_LOCAL_WRITE, 1);
    assert.equal(C.IBV_ACCESS_REMOTE_WRITE, 2);
    assert.equal(C.IBV_ACCESS_REMOTE_READ, 4);
    assert.equal(C.IBV_ACCESS_REMOTE_ATOMIC, 8);
    assert.equal(C.IBV_ACCESS_MW_BIND, 16);
    assert.equal(ibv_access_flags.IBV_ACCESS_ZERO_BASED, 32);
    assert.equal(ibv_access_flags.IBV_ACCESS_ON_DEMAND, 64);
    assert.equal(ibv_access_flags.IBV_ACCESS_RELAXED_ORDERING, C.IBV_ACCESS_OPTIONAL_FIRST);
    assert.equal(C.IBV_ACCESS_OPTIONAL_FIRST, 0x100000);
    // The manual's RC example registers with LOCAL_WRITE | REMOTE_READ | REMOTE_WRITE and prints 0x7.
    assert.equal(C.IBV_ACCESS_LOCAL_WRITE | C.IBV_ACCESS_REMOTE_READ | C.IBV_ACCESS_REMOTE_WRITE, 0x7);
  });

  it('IBV_QP_* attribute mask bits (verbs.h:1040-1070)', () => {
    const order = [
      'IBV_QP_STATE',
      'IBV_QP_CUR_STATE',
      'IBV_QP_EN_SQD_ASYNC_NOTIFY',
      'IBV_QP_ACCESS_FLAGS',
      'IBV_QP_PKEY_INDEX',
      'IBV_QP_PORT',
      'IBV_QP_QKEY',
      'IBV_QP_AV',
      'IBV_QP_PATH_MTU',
      'IBV_QP_TIMEOUT',
      'IBV_QP_RETRY_CNT',
      'IBV_QP_RNR_RETRY',
      'IBV_QP_RQ_PSN',
      'IBV_QP_MAX_QP_RD_ATOMIC',
      'IBV_QP_ALT_PATH',
      'IBV_QP_MIN_RNR_TIMER',
      'IBV_QP_SQ_PSN',
      'IBV_QP_MAX_DEST_RD_ATOMIC',
      'IBV_QP_PATH_MIG_STATE',
      'IBV_QP_CAP',
      'IBV_QP_DEST_QPN',
    ];
    assert.deepEqual(
      members(ibv_qp_attr_mask).slice(0, order.length),
      order.map((n, i) => [n, 1 << i]),
    );
    assert.equal(ibv_qp_attr_mask.IBV_QP_RATE_LIMIT, 1 << 25);
    // The manual's RESET→INIT mask for RC.
    assert.equal(C.IBV_QP_STATE | C.IBV_QP_PKEY_INDEX | C.IBV_QP_PORT | C.IBV_QP_ACCESS_FLAGS, 0x39);
  });

  it('QP states and types (verbs.h:932-940, 1082-1091)', () => {
    assert.deepEqual(
      [C.IBV_QPS_RESET, C.IBV_QPS_INIT, C.IBV_QPS_RTR, C.IBV_QPS_RTS, C.IBV_QPS_SQD, C.IBV_QPS_SQE, C.IBV_QPS_ERR],
      [0, 1, 2, 3, 4, 5, 6],
    );
    assert.equal(ibv_qp_state.IBV_QPS_UNKNOWN, 7);
    assert.deepEqual([ibv_qp_type.IBV_QPT_RC, ibv_qp_type.IBV_QPT_UC, ibv_qp_type.IBV_QPT_UD], [2, 3, 4]);
    assert.deepEqual([C.IBV_QPT_RAW_PACKET, C.IBV_QPT_XRC_SEND, C.IBV_QPT_XRC_RECV, C.IBV_QPT_DRIVER], [8, 9, 10, 0xff]);
  });

  it('device identity: IBV_NODE_RNIC = 4, IBV_TRANSPORT_IWARP = 1 (verbs.h:95-113); MTU enum (367-373)', () => {
    assert.equal(ibv_node_type.IBV_NODE_UNKNOWN, -1);
    assert.equal(ibv_node_type.IBV_NODE_CA, 1);
    assert.equal(C.IBV_NODE_RNIC, 4);
    assert.equal(ibv_transport_type.IBV_TRANSPORT_IB, 0);
    assert.equal(C.IBV_TRANSPORT_IWARP, 1);
    for (const [, v] of members(ibv_mtu)) assert.equal(1 << (v + 7), 256 << (v - 1));
    assert.equal(C.IBV_MTU_4096, 5);
  });

  it('ibv_event_type order (verbs.h:454-476)', () => {
    assert.equal(ibv_event_type.IBV_EVENT_CQ_ERR, 0);
    assert.equal(ibv_event_type.IBV_EVENT_COMM_EST, 4);
    assert.equal(ibv_event_type.IBV_EVENT_SRQ_LIMIT_REACHED, 15);
    assert.equal(ibv_event_type.IBV_EVENT_QP_LAST_WQE_REACHED, 16);
    assert.equal(C.IBV_EVENT_GID_CHANGE, 18);
    assert.equal(members(ibv_event_type).length, 21);
  });

  it('rdma_cm_event_type order 0..15 (librdmacm/rdma_cma.h:50-71)', () => {
    const order = [
      'RDMA_CM_EVENT_ADDR_RESOLVED',
      'RDMA_CM_EVENT_ADDR_ERROR',
      'RDMA_CM_EVENT_ROUTE_RESOLVED',
      'RDMA_CM_EVENT_ROUTE_ERROR',
      'RDMA_CM_EVENT_CONNECT_REQUEST',
      'RDMA_CM_EVENT_CONNECT_RESPONSE',
      'RDMA_CM_EVENT_CONNECT_ERROR',
      'RDMA_CM_EVENT_UNREACHABLE',
      'RDMA_CM_EVENT_REJECTED',
      'RDMA_CM_EVENT_ESTABLISHED',
      'RDMA_CM_EVENT_DISCONNECTED',
      'RDMA_CM_EVENT_DEVICE_REMOVAL',
      'RDMA_CM_EVENT_MULTICAST_JOIN',
      'RDMA_CM_EVENT_MULTICAST_ERROR',
      'RDMA_CM_EVENT_ADDR_CHANGE',
      'RDMA_CM_EVENT_TIMEWAIT_EXIT',
    ];
    assert.deepEqual(
      members(rdma_cm_event_type).slice(0, 16),
      order.map((n, i) => [n, i]),
    );
    assert.equal(rdma_cm_event_type.RDMA_CM_EVENT_ADDRINFO_RESOLVED, 16);
    assert.equal(rdma_cm_event_type.RDMA_CM_EVENT_INTERNAL, 19);
  });

  it('rdma_event_str returns the enum name, "UNKNOWN EVENT" otherwise (librdmacm/cma.c:2790-2832)', () => {
    for (let e = 0; e <= 17; e++) assert.equal(rdma_event_str(e), rdma_cm_event_type[e]);
    assert.equal(rdma_event_str(C.RDMA_CM_EVENT_ESTABLISHED), 'RDMA_CM_EVENT_ESTABLISHED');
    assert.equal(rdma_event_str(C.RDMA_CM_EVENT_USER), 'UNKNOWN EVENT');
    assert.equal(rdma_event_str(C.RDMA_CM_EVENT_INTERNAL), 'UNKNOWN EVENT');
    assert.equal(rdma_event_str(-1), 'UNKNOWN EVENT');
    assert.equal(rdma_event_str(1.5), 'UNKNOWN EVENT');
  });

  it('port spaces and librdmacm constants (rdma_cma.h:73-78, 90, 144-147, 182-187, 716-732)', () => {
    assert.equal(rdma_port_space.RDMA_PS_TCP, 0x0106);
    assert.equal(rdma_port_space.RDMA_PS_UDP, 0x0111);
    assert.equal(rdma_port_space.RDMA_PS_IB, 0x013f);
    assert.equal(C.RDMA_PS_IPOIB, 0x0002);
    assert.equal(C.RDMA_UDP_QKEY, 0x01234567);
    assert.equal(C.RDMA_MAX_RESP_RES, 0xff);
    assert.deepEqual([C.RAI_PASSIVE, C.RAI_NUMERICHOST, C.RAI_NOROUTE, C.RAI_FAMILY], [1, 2, 4, 8]);
    assert.deepEqual([C.RDMA_OPTION_ID, C.RDMA_OPTION_IB, C.RDMA_OPTION_ID_TOS, C.RDMA_OPTION_ID_REUSEADDR], [0, 1, 0, 1]);
  });
});

describe('verbs string helpers match rdma-core (libibverbs/enum_strs.c)', () => {
  it('ibv_wc_status_str (enum_strs.c:102-135)', () => {
    assert.equal(ibv_wc_status_str(C.IBV_WC_SUCCESS), 'success');
    assert.equal(ibv_wc_status_str(C.IBV_WC_LOC_LEN_ERR), 'local length error');
    assert.equal(ibv_wc_status_str(C.IBV_WC_WR_FLUSH_ERR), 'Work Request Flushed Error');
    assert.equal(ibv_wc_status_str(C.IBV_WC_MW_BIND_ERR), 'memory management operation error');
    assert.equal(ibv_wc_status_str(C.IBV_WC_RETRY_EXC_ERR), 'transport retry counter exceeded');
    assert.equal(ibv_wc_status_str(C.IBV_WC_REM_ABORT_ERR), 'aborted error');
    assert.equal(ibv_wc_status_str(C.IBV_WC_TM_RNDV_INCOMPLETE), 'TM software rendezvous');
    assert.equal(ibv_wc_status_str(24), 'unknown');
    assert.equal(ibv_wc_status_str(-1), 'unknown');
    for (const [, v] of members(ibv_wc_status)) assert.notEqual(ibv_wc_status_str(v), 'unknown');
  });

  it('ibv_event_type_str (enum_strs.c:70-100)', () => {
    assert.equal(ibv_event_type_str(C.IBV_EVENT_CQ_ERR), 'CQ error');
    assert.equal(ibv_event_type_str(C.IBV_EVENT_QP_FATAL), 'local work queue catastrophic error');
    assert.equal(ibv_event_type_str(C.IBV_EVENT_QP_LAST_WQE_REACHED), 'last WQE reached');
    assert.equal(ibv_event_type_str(C.IBV_EVENT_GID_CHANGE), 'GID table change');
    assert.equal(ibv_event_type_str(C.IBV_EVENT_DEVICE_SPEED_CHANGE), 'Device link speed change');
    assert.equal(ibv_event_type_str(21), 'unknown');
  });

  it('ibv_node_type_str / ibv_port_state_str (enum_strs.c:35-68)', () => {
    assert.equal(ibv_node_type_str(C.IBV_NODE_RNIC), 'iWARP NIC');
    assert.equal(ibv_node_type_str(C.IBV_NODE_CA), 'InfiniBand channel adapter');
    assert.equal(ibv_node_type_str(C.IBV_NODE_UNKNOWN), 'unknown');
    assert.equal(ibv_node_type_str(0), 'unknown');
    assert.equal(ibv_node_type_str(8), 'unknown');
    assert.equal(ibv_port_state_str(C.IBV_PORT_NOP), 'no state change (NOP)');
    assert.equal(ibv_port_state_str(C.IBV_PORT_ACTIVE), 'active');
    assert.equal(ibv_port_state_str(C.IBV_PORT_ACTIVE_DEFER), 'active defer');
    assert.equal(ibv_port_state_str(6), 'unknown');
  });

  it('ibv_wr_opcode_str (enum_strs.c:137-160)', () => {
    assert.equal(C.ibv_wr_opcode_str(C.IBV_WR_RDMA_READ), 'rdma-read');
    assert.equal(C.ibv_wr_opcode_str(C.IBV_WR_SEND_WITH_INV), 'send-with-inv');
    assert.equal(C.ibv_wr_opcode_str(12), 'unknown');
  });
});

describe('verbs module surface', () => {
  it('exports every enum member as a top-level constant with the same value', () => {
    const mod = C as unknown as Record<string, unknown>;
    const enums = Object.entries(mod).filter(
      ([name, v]) => /^(ibv|rdma)_/.test(name) && typeof v === 'object' && v !== null && !Array.isArray(v),
    );
    assert.ok(enums.length >= 25, `found ${enums.length} enums`);
    for (const [enumName, e] of enums) {
      for (const [member, value] of members(e as Record<string, string | number>)) {
        assert.equal(mod[member], value, `${enumName}.${member}`);
      }
    }
  });

  it('IWARP_UNSUPPORTED: every entry has a provenance, known errnos, and a VerbsApi function', () => {
    const all = new Set<string>(Object.values(VERBS_API_FUNCTIONS).flat());
    assert.deepEqual(Object.keys(IWARP_UNSUPPORTED).sort(), Object.keys(IWARP_UNSUPPORTED_SOURCE).sort());
    for (const [key, errno] of Object.entries(IWARP_UNSUPPORTED)) {
      assert.ok(all.has(key.split(':')[0]!), key);
      assert.ok(ERRNO_NAMES[errno], `${key}: errno ${errno}`);
    }
    assert.equal(IWARP_UNSUPPORTED['ibv_create_qp:IBV_QPT_UD'], EOPNOTSUPP);
    assert.equal(IWARP_UNSUPPORTED.ibv_attach_mcast, EOPNOTSUPP);
    assert.equal(IWARP_UNSUPPORTED.rdma_join_multicast, ENOSYS);
    assert.equal(IWARP_UNSUPPORTED.rdma_leave_multicast, EADDRNOTAVAIL);
    assert.equal(IWARP_UNSUPPORTED['ibv_post_send:IBV_WR_ATOMIC_FETCH_AND_ADD'], EINVAL);
    assert.equal(IWARP_UNSUPPORTED.ibv_exp_create_dct, ENOSYS);
  });

  it('errno numbers are Linux values and errno is settable', () => {
    assert.deepEqual([EINVAL, ENOSYS, EOPNOTSUPP, EADDRNOTAVAIL], [22, 38, 95, 99]);
    const before = getErrno();
    setErrno(EOPNOTSUPP);
    assert.equal(getErrno(), 95);
    setErrno(before);
  });

  it('In<> accepts zero-filled-style partial structs (compile-time check)', () => {
    const wr: In<ibv_send_wr> = {
      wr_id: 7n,
      sg_list: [{ addr: 0x1000n, length: 16, lkey: 1 }],
      opcode: C.IBV_WR_RDMA_WRITE,
      send_flags: C.IBV_SEND_SIGNALED,
      wr: { rdma: { remote_addr: 0x2000n, rkey: 2 } },
    };
    assert.equal(wr.wr?.rdma?.rkey, 2);
  });
});

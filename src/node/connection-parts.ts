/**
 * The pieces a connection is built from, outside its state: option checks, the error of a
 * failed verbs call, one abort listener per signal, what a local buffer is, and the CQ, QP,
 * registered buffers and WR templates a connection is created with (undone on failure).
 *
 * @module
 */
import {
  IBV_QPT_RC,
  IBV_WR_ATOMIC_CMP_AND_SWP,
  IBV_WR_ATOMIC_FETCH_AND_ADD,
  IBV_WR_RDMA_WRITE_WITH_IMM,
  IBV_WR_SEND,
  IWARP_UNSUPPORTED_SOURCE,
  errnoName,
  ibv_access_flags,
  ibv_create_comp_channel,
  ibv_create_cq,
  ibv_dereg_mr,
  ibv_destroy_comp_channel,
  ibv_destroy_cq,
  ibv_post_recv,
  ibv_reg_mr,
  ibv_req_notify_cq,
  ibv_wr_opcode,
  rdma_create_qp,
  rdma_destroy_qp,
  softrdmaLastError,
  type ibv_comp_channel,
  type ibv_cq,
  type ibv_mr,
  type ibv_qp,
  type ibv_recv_wr,
  type ibv_send_wr,
  type ibv_sge,
  type rdma_cm_id,
} from '../verbs/index.js';
import type { RdmaDevice } from './device.js';
import { RdmaError, UnsupportedError } from './errors.js';
import { MemoryRegion } from './memory.js';
import { type LocalBuffer, type Op, RECV_BASE, type Staging } from './connection-types.js';

/**
 * One 'abort' listener per signal however many operations share it: a signal given to 10,000
 * calls adds one listener (no MaxListenersExceeded warning) and each call costs a Set entry.
 */
export class AbortHub {
  readonly #sets = new Map<AbortSignal, { fns: Set<() => void>; listener: () => void }>();
  add(signal: AbortSignal, fn: () => void): void {
    let e = this.#sets.get(signal);
    if (!e) {
      const fns = new Set<() => void>();
      const listener = (): void => {
        this.#sets.delete(signal);
        for (const f of fns) f();
      };
      e = { fns, listener };
      this.#sets.set(signal, e);
      signal.addEventListener('abort', listener, { once: true });
    }
    e.fns.add(fn);
  }
  remove(signal: AbortSignal, fn: () => void): void {
    const e = this.#sets.get(signal);
    if (!e) return;
    e.fns.delete(fn);
    if (e.fns.size === 0) {
      this.#sets.delete(signal);
      signal.removeEventListener('abort', e.listener);
    }
  }
}

export function posInt(v: number | undefined, dflt: number, what: string, min = 1): number {
  if (v === undefined) return dflt;
  if (!Number.isSafeInteger(v) || v < min) throw new RangeError(`${what} must be an integer ≥ ${min}; got ${String(v)}`);
  return v;
}

export function lastError(what: string): RdmaError {
  const e = softrdmaLastError();
  return RdmaError.fromErrno(what, e.errno, e.message);
}

export function isOptional(op: ibv_wr_opcode): boolean {
  return op === IBV_WR_ATOMIC_FETCH_AND_ADD || op === IBV_WR_ATOMIC_CMP_AND_SWP || op === IBV_WR_RDMA_WRITE_WITH_IMM;
}

export function localLength(l: LocalBuffer): number {
  if (l instanceof MemoryRegion) {
    if (l.closed) throw new RdmaError('the memory region is deregistered', 'EINVAL', 22);
    return l.length;
  }
  if (l instanceof Uint8Array) return l.byteLength;
  if (l && l.region instanceof MemoryRegion) {
    if (l.region.closed) throw new RdmaError('the memory region is deregistered', 'EINVAL', 22);
    return l.length;
  }
  throw new TypeError('the local buffer must be a Uint8Array, a MemoryRegion or region.slice(offset, length)');
}

/** The verbs objects and buffers a connection is created with. */
export interface ConnectionQueues {
  channel: ibv_comp_channel;
  cq: ibv_cq;
  qp: ibv_qp;
  /** Staging slots (`stagingSize` octets per send slot) and their registration. */
  staging: Uint8Array;
  stagingMr: ibv_mr;
  /** Receive buffers (`recvSize` octets each) and their registration (none without receives). */
  recvBuf: Uint8Array;
  recvMr: ibv_mr | null;
  /** One send WR per slot (`wr_id` the slot) and one receive WR per buffer, reused. */
  sendWrs: ibv_send_wr[];
  recvWrs: ibv_recv_wr[];
}

/**
 * Creates the completion channel, the CQ of both queues (its context `cqContext`), the staging
 * and receive buffers, the QP on `id` (`rdma_create_qp`, RC, `n` send entries), posts every
 * receive and arms the CQ. Throws RdmaError; frees what it made.
 */
export function createQueues(
  device: RdmaDevice,
  id: rdma_cm_id,
  cqContext: unknown,
  o: { n: number; recvCount: number; recvSize: number; stagingSize: number; sinkAccess: number },
): ConnectionQueues {
  const N = o.n;
  const sendWrs: ibv_send_wr[] = [];
  const recvWrs: ibv_recv_wr[] = [];
  const undo: (() => void)[] = [];
  try {
    const ctx = device.context;
    const ch = ibv_create_comp_channel(ctx);
    if (!ch) throw lastError('ibv_create_comp_channel');
    undo.push(() => ibv_destroy_comp_channel(ch));
    const cq = ibv_create_cq(ctx, N + o.recvCount, cqContext, ch, 0);
    if (!cq) throw lastError('ibv_create_cq');
    undo.push(() => ibv_destroy_cq(cq));
    const staging = new Uint8Array(N * o.stagingSize);
    const smr = ibv_reg_mr(device.pd, staging, staging.length, o.sinkAccess);
    if (!smr) throw lastError('ibv_reg_mr');
    undo.push(() => ibv_dereg_mr(smr));
    const recvBuf = new Uint8Array(o.recvCount * o.recvSize);
    let rmr: ibv_mr | null = null;
    if (o.recvCount > 0) {
      rmr = ibv_reg_mr(device.pd, recvBuf, recvBuf.length, ibv_access_flags.IBV_ACCESS_LOCAL_WRITE);
      if (!rmr) throw lastError('ibv_reg_mr');
      const m = rmr;
      undo.push(() => ibv_dereg_mr(m));
    }
    const cap = { max_send_wr: N, max_recv_wr: Math.max(o.recvCount, 1), max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 };
    if (rdma_create_qp(id, device.pd, { qp_type: IBV_QPT_RC, send_cq: cq, recv_cq: cq, cap, sq_sig_all: 0 }) !== 0)
      throw lastError('rdma_create_qp');
    undo.push(() => rdma_destroy_qp(id));
    const qp = id.qp!;
    for (let i = 0; i < N; i++) {
      sendWrs.push({
        wr_id: BigInt(i),
        next: null,
        sg_list: [{ addr: 0n, length: 0, lkey: 0 }],
        num_sge: 1,
        opcode: IBV_WR_SEND,
        send_flags: 0,
        imm_data: 0,
        invalidate_rkey: 0,
        wr: {
          rdma: { remote_addr: 0n, rkey: 0 },
          atomic: { remote_addr: 0n, compare_add: 0n, swap: 0n, rkey: 0 },
          ud: { ah: null, remote_qpn: 0, remote_qkey: 0 },
        },
        qp_type: { xrc: { remote_srqn: 0 } },
        xrc_remote_srq_num: 0,
        bind_mw: { mw: null, rkey: 0, bind_info: { mr: null, addr: 0n, length: 0n, mw_access_flags: 0 } },
      });
    }
    for (let i = 0; i < o.recvCount; i++) {
      recvWrs.push({
        wr_id: BigInt(RECV_BASE + i),
        next: null,
        sg_list: [{ addr: rmr!.addr + BigInt(i * o.recvSize), length: o.recvSize, lkey: rmr!.lkey }],
        num_sge: 1,
      });
    }
    if (o.recvCount > 0) {
      const r = ibv_post_recv(qp, recvWrs);
      if (r.ret !== 0) throw RdmaError.fromErrno('ibv_post_recv', r.ret, softrdmaLastError().message);
    }
    if (ibv_req_notify_cq(cq, 0) !== 0) throw lastError('ibv_req_notify_cq');
    return { channel: ch, cq, qp, staging, stagingMr: smr, recvBuf, recvMr: rmr, sendWrs, recvWrs };
  } catch (e) {
    for (const u of undo.reverse()) u();
    throw e;
  }
}

/**
 * The rights of memory an RDMA Read lands in. On iWARP the Read Response is a tagged message
 * placed through the sink's STag, which needs remote write (RFC 5040 §4.5, Verbs §7.2.3; as
 * Linux siw); InfiniBand/RoCE needs local write only (IBTA §10.6.3.3).
 */
export function sinkAccess(device: RdmaDevice): number {
  const F = ibv_access_flags;
  return device.transport === 'iwarp' ? F.IBV_ACCESS_LOCAL_WRITE | F.IBV_ACCESS_REMOTE_WRITE : F.IBV_ACCESS_LOCAL_WRITE;
}

/** The error of an operation the device does not carry (`ibv_post_send` refused its opcode). */
export function unsupportedError(device: RdmaDevice, kind: string, opcode: ibv_wr_opcode, errno: number): UnsupportedError {
  const name = ibv_wr_opcode[opcode] ?? String(opcode);
  const why = IWARP_UNSUPPORTED_SOURCE[`ibv_post_send:${name}`];
  const atomics = opcode === IBV_WR_ATOMIC_FETCH_AND_ADD || opcode === IBV_WR_ATOMIC_CMP_AND_SWP;
  const cap = atomics && !device.capabilities.atomics ? ', atomic_cap IBV_ATOMIC_NONE' : '';
  return new UnsupportedError(
    `${kind} is not supported by ${device.name} (${device.transport}${cap}): ibv_post_send(${name}) returned ${errnoName(errno)}${why ? ` (${why})` : ''}`,
    errno,
  );
}

/**
 * Points a WR's one SGE at an operation's local bytes: an atomic's 8-byte result and small
 * buffers go through the slot's staging area (a read is copied out at its completion), a
 * registered region is used in place, and a large plain buffer is registered for this operation
 * only (`op.tmpMr`, deregistered at its completion). False when that registration failed.
 */
export function bindLocal(
  sge: ibv_sge,
  op: Op,
  local: LocalBuffer | null,
  len: number,
  slot: number,
  st: Staging,
  device: RdmaDevice,
): boolean {
  const inbound = op.kind === 'read';
  if (local === null) {
    // Atomics: the 8-byte result lands in the slot's staging area.
    sge.addr = st.mr.addr + BigInt(slot * st.size);
    sge.length = 8;
    sge.lkey = st.mr.lkey;
    op.result = 'u64';
    op.buffer = st.buf.subarray(slot * st.size, slot * st.size + 8);
  } else if (local instanceof MemoryRegion) {
    sge.addr = local.mr.addr;
    sge.length = len;
    sge.lkey = local.mr.lkey;
    op.buffer = local.buffer;
  } else if (!(local instanceof Uint8Array)) {
    sge.addr = local.region.mr.addr + BigInt(local.offset);
    sge.length = len;
    sge.lkey = local.region.mr.lkey;
    op.buffer = local.region.buffer.subarray(local.offset, local.offset + len);
  } else if (len <= st.size) {
    const at = slot * st.size;
    if (inbound) {
      op.copyTo = local;
      op.stageAt = at;
    } else st.buf.set(local, at);
    sge.addr = st.mr.addr + BigInt(at);
    sge.length = len;
    sge.lkey = st.mr.lkey;
    op.buffer = local;
  } else {
    const mr = ibv_reg_mr(device.pd, local, len, inbound ? sinkAccess(device) : ibv_access_flags.IBV_ACCESS_LOCAL_WRITE);
    if (!mr) return false;
    op.tmpMr = mr;
    sge.addr = mr.addr;
    sge.length = len;
    sge.lkey = mr.lkey;
    op.buffer = local;
  }
  return true;
}

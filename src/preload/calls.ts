/**
 * The daemon's answers to the object calls of libsoftrdma.so: memory regions, completion
 * channels, CQs, QPs and the work request path (docs/preload.md). Each is the verbs face's own
 * call on the client's objects, named by handles. A program's memory region is registered at
 * the program's own addresses (see `ClientMr`), so SGEs and remote addresses pass unchanged.
 */
import { logger } from '../util/log.js';
import { ibv_atomic_cap, ibv_qp_attr_mask, ibv_qp_state, ibv_qp_type, ibv_wr_opcode } from '../verbs/constants.js';
import { type Context, errnoOf, queryDevice } from '../verbs/device.js';
import { softrdmaLastError } from '../verbs/errno.js';
import {
  createAh,
  destroyAh,
  ibv_ack_cq_events,
  ibv_create_srq,
  ibv_destroy_srq,
  ibv_modify_srq,
  ibv_post_srq_recv,
  ibv_query_srq,
  initAhFromWc,
  mcastAttach,
  memFlagsOf,
  type Pd,
  ibv_create_comp_channel,
  ibv_create_cq,
  ibv_create_qp,
  ibv_dereg_mr,
  ibv_destroy_comp_channel,
  ibv_destroy_qp,
  ibv_get_cq_event,
  ibv_modify_qp,
  ibv_poll_cq,
  ibv_post_recv,
  ibv_post_send,
  ibv_query_qp,
  ibv_reg_mr,
  ibv_req_notify_cq,
  ibv_resize_cq,
  newWc,
} from '../verbs/ibverbs.js';
import { isIbContext } from '../verbs/rdma_cm_ib.js';
import type {
  ibv_ah_attr,
  ibv_device_attr,
  ibv_qp_attr,
  ibv_qp_init_attr,
  ibv_recv_wr,
  ibv_send_wr,
  ibv_sge,
  ibv_srq,
  ibv_srq_attr,
  ibv_wc,
  In,
} from '../verbs/types.js';
import { type Client, type ClientCq, type ClientQp, deregClientMr, destroyClientCq } from './client.js';
import { CQ_RING_MAX_ENTRIES, CqRing, cqRingBytes, validRingEntries } from './cq-ring.js';
import { QP_RING_MAX_ENTRIES, QP_RING_MAX_INLINE, QpRing, qpRingBytes, type RingSend, validQpRing } from './qp-ring.js';
import { preloadAddon } from './native.js';
import { PreloadOp, uintField } from './protocol.js';

const log = logger('daemon');

const EINVAL = 22;
const EBADF = 9;
const ENOMEM = 12;
const EOPNOTSUPP = 95;

type Fields = [string, string | number | bigint][];
/**
 * An answer; `passFd` goes to the client with it (SCM_RIGHTS) and is then closed here. A
 * `silent` one is not sent (the doorbell has none).
 */
export type Answer = { errno: number; fields?: Fields; passFd?: number; silent?: boolean };

/** The largest inline send the program may pass (the verbs face's bound is lower). */
const INLINE_BYTES = 1024;
/** Work requests in one post request. */
const MAX_WRS = 1024;
/**
 * Completion-ring memory one client may have the daemon map (each ring is at most 4 MiB): a
 * program cannot fill the daemon's address space, or its count of mappings, with rings.
 */
export const MAX_CLIENT_RING_BYTES = 64 << 20;

/** An unsigned 64-bit decimal field; null when missing or out of range. */
export function u64Field(m: Map<string, string>, key: string): bigint | null {
  const v = m.get(key);
  if (v === undefined || !/^[0-9]{1,20}$/.test(v)) return null;
  const n = BigInt(v);
  return n < 1n << 64n ? n : null;
}

/** `key` as 2n hex digits; null when missing or malformed. */
export function hexField(m: Map<string, string>, key: string, maxBytes: number): Uint8Array | null {
  const v = m.get(key);
  if (v === undefined || v.length % 2 !== 0 || v.length > 2 * maxBytes || !/^[0-9a-f]*$/.test(v)) return null;
  return Uint8Array.from(Buffer.from(v, 'hex'));
}

/** The members of a C struct the program sent under `prefix` (nested members dotted), as an object of numbers. */
function unflatten(m: Map<string, string>, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of m) {
    if (!k.startsWith(prefix) || !/^[0-9]{1,20}$/.test(v)) continue;
    const path = k.slice(prefix.length).split('.');
    let o = out;
    for (const p of path.slice(0, -1)) o = (o[p] ??= {}) as Record<string, unknown>;
    o[path.at(-1)!] = Number(v);
  }
  return out;
}

/** An answer's members: numbers and bigints by dotted path, 16-byte GIDs (`{ raw }`) as hex. */
export function flatten(o: object, prefix: string, out: Fields): Fields {
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'number' || typeof v === 'bigint') out.push([`${prefix}${k}`, v]);
    else if (v && typeof v === 'object' && 'raw' in v && (v as { raw: unknown }).raw instanceof Uint8Array)
      out.push([`${prefix}${k}`, Buffer.from((v as { raw: Uint8Array }).raw).toString('hex')]);
    else if (v && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype)
      flatten(v, `${prefix}${k}.`, out);
  }
  return out;
}

/** `struct ibv_ah_attr` sent under `prefix` (its GID as hex). */
function ahAttrOf(m: Map<string, string>, prefix: string): In<ibv_ah_attr> {
  const ah = unflatten(m, prefix);
  const grh = (ah.grh ??= {}) as Record<string, unknown>;
  grh.dgid = { raw: hexField(m, `${prefix}grh.dgid`, 16) ?? new Uint8Array(16) };
  return ah as In<ibv_ah_attr>;
}

/** A receive WR list of a post request (QP or SRQ), posted one by one through `post`. */
function postRecvs(m: Map<string, string>, post: (wr: In<ibv_recv_wr>) => number): Answer {
  const count = uintField(m, 'count', MAX_WRS);
  if (!count) return { errno: EINVAL, fields: [['bad', 0]] };
  for (let i = 0; i < count; i++) {
    const wr_id = u64Field(m, `wr.${i}.wr_id`);
    const sg_list = sgesOf(m, i);
    const ret = wr_id !== null && sg_list ? post({ wr_id, next: null, sg_list, num_sge: sg_list.length } as In<ibv_recv_wr>) : EINVAL;
    if (ret !== 0) return { errno: ret, fields: [['bad', i]] };
  }
  return { errno: 0 };
}

/** The SGEs of WR `i`: the program's addresses, which its regions' keys name as they are. */
function sgesOf(m: Map<string, string>, i: number): ibv_sge[] | null {
  const n = uintField(m, `wr.${i}.num_sge`, 64);
  if (n === null) return null;
  const out: ibv_sge[] = [];
  for (let j = 0; j < n; j++) {
    const addr = u64Field(m, `wr.${i}.sge.${j}.addr`);
    const length = uintField(m, `wr.${i}.sge.${j}.length`);
    const lkey = uintField(m, `wr.${i}.sge.${j}.lkey`);
    if (addr === null || length === null || lkey === null) return null;
    out.push({ addr, length, lkey });
  }
  return out;
}

/** The engine's address of the PD's inline bounce bytes (a region of their own, registered once per PD). */
function inlineAt(c: Client, pdHandle: number, bytes: Uint8Array): bigint | null {
  let b = c.inline.get(pdHandle);
  if (!b) {
    const p = c.pds.get(pdHandle);
    const buf = new Uint8Array(INLINE_BYTES);
    const mr = p ? ibv_reg_mr(p.pd, buf, INLINE_BYTES, 0) : null;
    if (!mr) return null;
    b = { mr, buf };
    c.inline.set(pdHandle, b);
  }
  b.buf.set(bytes);
  return b.mr.addr;
}

/** The fields of send WR `i` of a post request, as a ring slot gives them; null when one is malformed. */
function sendFieldsOf(m: Map<string, string>, i: number): RingSend | null {
  const w = `wr.${i}.`;
  const wr_id = u64Field(m, `${w}wr_id`);
  const opcode = uintField(m, `${w}opcode`, 255);
  const send_flags = uintField(m, `${w}send_flags`);
  if (wr_id === null || opcode === null || send_flags === null) return null;
  const inline = m.has(`${w}inline`) ? hexField(m, `${w}inline`, INLINE_BYTES) : null;
  const sg_list = inline ? [] : sgesOf(m, i);
  if (!sg_list) return null;
  // `wr.rdma` and `wr.atomic` share their first members in `struct ibv_send_wr` (a union).
  return {
    wr_id,
    opcode,
    send_flags,
    imm_data: uintField(m, `${w}imm_data`) ?? 0,
    invalidate_rkey: uintField(m, `${w}invalidate_rkey`) ?? 0,
    sg_list,
    inline,
    remote_addr: u64Field(m, `${w}atomic.remote_addr`) ?? u64Field(m, `${w}rdma.remote_addr`) ?? 0n,
    rkey: uintField(m, `${w}atomic.rkey`) ?? uintField(m, `${w}rdma.rkey`) ?? 0,
    compare_add: u64Field(m, `${w}atomic.compare_add`) ?? 0n,
    swap: u64Field(m, `${w}atomic.swap`) ?? 0n,
    ah: uintField(m, `${w}ud.ah`) ?? 0,
    remote_qpn: uintField(m, `${w}ud.remote_qpn`) ?? 0,
    remote_qkey: uintField(m, `${w}ud.remote_qkey`) ?? 0,
  };
}

/** The verbs face's `ibv_send_wr` of a send WR from a request or a ring; null when its inline bytes have nowhere to go. */
function sendWrOf(c: Client, pdHandle: number, f: RingSend): In<ibv_send_wr> | null {
  let sg_list = f.sg_list;
  if (f.inline) {
    const at = f.inline.length ? inlineAt(c, pdHandle, f.inline) : 0n;
    if (at === null) return null;
    sg_list = f.inline.length ? [{ addr: at, length: f.inline.length, lkey: 0 }] : [];
  }
  return {
    wr_id: f.wr_id,
    next: null,
    sg_list,
    num_sge: sg_list.length,
    opcode: f.opcode,
    send_flags: f.send_flags,
    imm_data: f.imm_data,
    invalidate_rkey: f.invalidate_rkey,
    wr: {
      rdma: { remote_addr: f.remote_addr, rkey: f.rkey },
      atomic: { remote_addr: f.remote_addr, compare_add: f.compare_add, swap: f.swap, rkey: f.rkey },
      ud: { ah: c.ahs.get(f.ah)?.ah ?? null, remote_qpn: f.remote_qpn, remote_qkey: f.remote_qkey },
    },
  } as In<ibv_send_wr>;
}

/**
 * Posts one send WR of a ringed QP: the verbs face gets the queue's next sequence number as the
 * WR ID (qp-ring.ts). ENOMEM when the queue is full.
 */
function postRingedSend(c: Client, q: ClientQp, f: RingSend): number {
  const ring = q.ring!;
  const id = ring.send.next();
  if (id === null) return ENOMEM;
  const programId = f.wr_id;
  f.wr_id = id;
  const wr = sendWrOf(c, q.pd, f);
  const ret = wr ? ibv_post_send(q.qp, wr).ret : EINVAL;
  if (ret === 0) ring.send.posted(programId);
  return ret;
}

/**
 * Takes the WRs the program wrote into a QP's rings since the last take, in order. The program
 * wrote only WRs the verbs face takes in the state it last saw; if the QP has left that state
 * since (an iWARP QP in Terminate refuses), the WR is not lost: the QP goes to Error, where the
 * WR is taken and flushed, as a WR the requester cannot execute completes in error and the QP
 * with it (RDMA Protocol Verbs §8.3).
 */
export function takeQpRings(c: Client, q: ClientQp): void {
  const ring = q.ring;
  if (!ring) return;
  ring.takeSends((w) => {
    const wr = sendWrOf(c, q.pd, w);
    let ret = wr ? ibv_post_send(q.qp, wr).ret : EINVAL;
    if (ret !== 0 && wr) {
      log('client %d: QP %d: a ring WR was refused (errno %d); the QP goes to Error', c.id, q.qp.qp_num, ret);
      if (ibv_modify_qp(q.qp, { qp_state: ibv_qp_state.IBV_QPS_ERR } as In<ibv_qp_attr>, ibv_qp_attr_mask.IBV_QP_STATE) === 0)
        ring.setState(ibv_qp_state.IBV_QPS_ERR);
      ret = ibv_post_send(q.qp, wr).ret;
    }
    if (ret !== 0) log('client %d: QP %d: ring WR opcode %d not taken (errno %d)', c.id, q.qp.qp_num, w.opcode, ret);
    return ret;
  });
  ring.takeRecvs((wr_id, sg_list) => {
    const ret = ibv_post_recv(q.qp, { wr_id, next: null, sg_list, num_sge: sg_list.length } as In<ibv_recv_wr>).ret;
    if (ret !== 0) log('client %d: QP %d: ring receive WR not taken (errno %d)', c.id, q.qp.qp_num, ret);
    return ret;
  });
}

/** Posts a receive WR of a request on a ringed queue under the queue's next sequence number; ENOMEM when it is full. */
function postRingedRecv(ring: QpRing, wr: In<ibv_recv_wr>, post: (w: In<ibv_recv_wr>) => number): number {
  const rq = ring.recv!;
  const id = rq.next();
  if (id === null) return ENOMEM;
  const ret = post({ ...wr, wr_id: id });
  if (ret === 0) rq.posted(wr.wr_id ?? 0n);
  return ret;
}

/** Takes the receive WRs the program wrote into an S-RQ's ring since the last take, in order. */
export function takeSrqRing(c: Client, srq: ibv_srq, ring: QpRing): void {
  ring.takeRecvs((wr_id, sg_list) => {
    const ret = ibv_post_srq_recv(srq, { wr_id, next: null, sg_list, num_sge: sg_list.length } as In<ibv_recv_wr>).ret;
    if (ret !== 0) log('client %d: S-RQ receive WR not taken (errno %d)', c.id, ret);
    return ret;
  });
}

/** Publishes each ringed QP's state as the verbs face reports it (after a call that may have moved it). */
export function refreshQpStates(c: Client): void {
  for (const q of c.qps.values()) {
    if (!q.ring) continue;
    const attr = {} as ibv_qp_attr;
    q.ring.setState(ibv_query_qp(q.qp, attr, ibv_qp_attr_mask.IBV_QP_STATE, {} as ibv_qp_init_attr) === 0 ? attr.qp_state : null);
  }
}

/**
 * The send opcodes a QP's ring takes: the ones its service carries on every connection
 * (IBTA Vol. 1 §9.2–9.8 for RC, UC and UD; an iWARP QP is RC, and carries immediate data and
 * atomics only where the connection negotiated RFC 7306, so those go by request). Others
 * go by request, and the verbs face answers them.
 */
function ringOpcodes(ctx: Context, qpType: number): number {
  const O = ibv_wr_opcode;
  const bits = (...ops: number[]) => ops.reduce((m, o) => m | (1 << o), 0);
  if (!isIbContext(ctx)) return qpType === ibv_qp_type.IBV_QPT_RC ? bits(O.IBV_WR_RDMA_WRITE, O.IBV_WR_SEND, O.IBV_WR_RDMA_READ) : 0;
  switch (qpType) {
    case ibv_qp_type.IBV_QPT_RC: {
      const dev = {} as ibv_device_attr;
      const atomics = queryDevice(ctx, dev) === 0 && dev.atomic_cap !== ibv_atomic_cap.IBV_ATOMIC_NONE;
      return (
        bits(O.IBV_WR_RDMA_WRITE, O.IBV_WR_RDMA_WRITE_WITH_IMM, O.IBV_WR_SEND, O.IBV_WR_SEND_WITH_IMM, O.IBV_WR_RDMA_READ) |
        (atomics ? bits(O.IBV_WR_ATOMIC_CMP_AND_SWP, O.IBV_WR_ATOMIC_FETCH_AND_ADD) : 0)
      );
    }
    case ibv_qp_type.IBV_QPT_UC:
      return bits(O.IBV_WR_RDMA_WRITE, O.IBV_WR_RDMA_WRITE_WITH_IMM, O.IBV_WR_SEND, O.IBV_WR_SEND_WITH_IMM);
    case ibv_qp_type.IBV_QPT_UD:
      return bits(O.IBV_WR_SEND, O.IBV_WR_SEND_WITH_IMM);
    default:
      return 0;
  }
}

/** Forwards each completion event of a channel to the program: its `struct ibv_cq *`, 8 bytes. */
async function forwardEvents(c: Client, h: number): Promise<void> {
  const addon = preloadAddon()!;
  for (;;) {
    const ch = c.channels.get(h);
    if (!ch) return;
    const r = await ibv_get_cq_event(ch.ch);
    if (r.ret !== 0 || !r.cq) return;
    ibv_ack_cq_events(r.cq, 1);
    const cq = [...c.cqs.values()].find((x) => x.cq === r.cq);
    const live = c.channels.get(h);
    if (!cq || !live) continue;
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(cq.user);
    const n = addon.write(live.fd, b);
    if (n !== 8) log('client %d: channel %d: event not delivered (%d)', c.id, h, n);
  }
}

/**
 * Keeps a ring's CQ armed and moves its completions into the ring as each event comes (arm,
 * then drain, so that none added in between is missed), until the CQ's channel goes.
 */
async function fillRing(q: ClientCq): Promise<void> {
  const { ring, ch } = q.ring!;
  for (;;) {
    if (ibv_req_notify_cq(q.cq, 0) !== 0) return;
    ring.drain(q.cq);
    const r = await ibv_get_cq_event(ch);
    if (r.ret !== 0 || !r.cq) return;
    ibv_ack_cq_events(r.cq, 1);
  }
}

const lastErr = (): number => softrdmaLastError().errno || EINVAL;

/** Answers ops REG_MR .. POST_RECV; null for other ops. */
export function objectCall(c: Client, op: number, m: Map<string, string>): Answer | null {
  const addon = preloadAddon();
  switch (op) {
    case PreloadOp.REG_MR: {
      const ph = uintField(m, 'pd') ?? 0;
      const p = c.pds.get(ph);
      const ctx = p ? c.contexts.get(p.ctx) : undefined;
      const addr = u64Field(m, 'addr');
      const length = uintField(m, 'length');
      const access = uintField(m, 'access');
      const offset = uintField(m, 'offset');
      const mapLength = u64Field(m, 'map_length');
      if (!addon || c.fdChannel < 0) return { errno: EOPNOTSUPP };
      // The fd travels on the fd channel ahead of this request; take it whatever else is wrong.
      const fd = addon.recvFd(c.fdChannel);
      if (fd < 0) return { errno: EBADF };
      const bad =
        !p ||
        !ctx ||
        addr === null ||
        !length ||
        access === null ||
        offset === null ||
        mapLength === null ||
        BigInt(offset + length) > mapLength ||
        mapLength > 1n << 40n;
      const ab = bad ? null : addon.mapShared(fd, Number(mapLength));
      addon.close(fd);
      if (!ab || !p || !ctx || addr === null || !length || access === null || offset === null) return { errno: EINVAL };
      const flags = memFlagsOf(access);
      if (flags === null) return { errno: EINVAL };
      const host = ibv_reg_mr(p.pd, new Uint8Array(ab, offset, length), length, access);
      if (!host) return { errno: lastErr() };
      // The same pages again at the program's address: pinned, mapped, registered by their
      // physical address (RNICPI Ch. 7 ri_mem_pin, ri_mem_map, ri_mr_reg_phys).
      const { ops, rnic } = ctx;
      const token = {};
      const undo = (errno: number, pinned: boolean): Answer => {
        if (pinned) ops.ri_mem_unpin(rnic, host.addr, length, token);
        ibv_dereg_mr(host);
        return { errno };
      };
      if (ops.ri_mem_pin(rnic, host.addr, length, token).status !== 0) return undo(EINVAL, false);
      const mapped = ops.ri_mem_map(rnic, host.addr, length, token);
      if (mapped.status !== 0 || !('io' in mapped)) return undo(EINVAL, true);
      const reg = ops.ri_mr_reg_phys(
        rnic,
        { common: { va: addr, length, mem_attr: flags, pd: (p.pd as Pd).ri }, phys_buf_list: [mapped.io], pble_size: 0, address_offset: 0 },
        0,
        null,
        null,
      );
      if (reg.status !== 0 || !('mr' in reg)) {
        ops.ri_mem_unmap(rnic, mapped.io, token);
        return undo(errnoOf(reg.status), true);
      }
      const h = c.handle();
      const rkey = reg.rtag ?? reg.ltag;
      c.mrs.set(h, { host, pd: ph, ctx, ri: reg.mr, io: mapped.io, token, lkey: reg.ltag, rkey });
      return {
        errno: 0,
        fields: [
          ['mr', h],
          ['lkey', reg.ltag],
          ['rkey', rkey],
        ],
      };
    }
    case PreloadOp.DEREG_MR: {
      const h = uintField(m, 'mr') ?? 0;
      const r = c.mrs.get(h);
      if (!r) return { errno: EINVAL };
      if (deregClientMr(r) !== 0) return { errno: lastErr() };
      c.mrs.delete(h);
      return { errno: 0 };
    }
    case PreloadOp.CREATE_COMP_CHANNEL: {
      const ch = uintField(m, 'ctx') ?? 0;
      const ctx = c.contexts.get(ch);
      if (!ctx) return { errno: EINVAL };
      if (!addon) return { errno: EOPNOTSUPP };
      const channel = ibv_create_comp_channel(ctx);
      if (!channel) return { errno: lastErr() };
      const [mine, theirs] = addon.socketPair();
      const h = c.handle();
      c.channels.set(h, { ch: channel, ctx: ch, fd: mine });
      void forwardEvents(c, h);
      return { errno: 0, fields: [['channel', h]], passFd: theirs };
    }
    case PreloadOp.DESTROY_COMP_CHANNEL: {
      const h = uintField(m, 'channel') ?? 0;
      const ch = c.channels.get(h);
      if (!ch) return { errno: EINVAL };
      if (ibv_destroy_comp_channel(ch.ch) !== 0) return { errno: lastErr() };
      c.channels.delete(h);
      addon?.close(ch.fd);
      return { errno: 0 };
    }
    case PreloadOp.CREATE_CQ: {
      const ch = uintField(m, 'ctx') ?? 0;
      const ctx = c.contexts.get(ch);
      const cqe = uintField(m, 'cqe', 0x7fff_ffff);
      const chh = uintField(m, 'channel') ?? 0;
      const channel = chh ? c.channels.get(chh) : undefined;
      const user = u64Field(m, 'user');
      const ringEntries = uintField(m, 'ring_entries', CQ_RING_MAX_ENTRIES);
      // A ring's memfd travels on the fd channel ahead of this request: take it whatever else is wrong.
      let ringAb: ArrayBuffer | null = null;
      if (m.has('ring_entries')) {
        const fd = addon && c.fdChannel >= 0 ? addon.recvFd(c.fdChannel) : -1;
        if (fd < 0) return { errno: EBADF };
        if (ringEntries === null || !validRingEntries(ringEntries) || chh) {
          addon!.close(fd);
          return { errno: EINVAL };
        }
        // Past the client's bound on ring memory the CQ is made without a ring (polled by request).
        if (c.ringBytes() + cqRingBytes(ringEntries) <= MAX_CLIENT_RING_BYTES) ringAb = addon!.mapShared(fd, cqRingBytes(ringEntries));
        addon!.close(fd);
      }
      if (!ctx || cqe === null || user === null || (chh && !channel)) return { errno: EINVAL };
      // A ring's CQ has the daemon's own channel, armed by the daemon (cq-ring.ts).
      const ringCh = ringAb ? ibv_create_comp_channel(ctx) : null;
      if (ringAb && !ringCh) return { errno: lastErr() };
      const cq = ibv_create_cq(ctx, cqe, null, ringCh ?? channel?.ch ?? null, uintField(m, 'comp_vector') ?? 0);
      if (!cq) {
        if (ringCh) ibv_destroy_comp_channel(ringCh);
        return { errno: lastErr() };
      }
      const h = c.handle();
      const q: ClientCq = { cq, ctx: ch, channel: chh, user };
      if (ringAb && ringCh) {
        q.ring = { ring: new CqRing(ringAb, ringEntries!, (wc) => c.completed(ch, wc)), ch: ringCh };
        void fillRing(q);
      }
      c.cqs.set(h, q);
      return {
        errno: 0,
        fields: [['cq', h], ['cqe', cq.cqe], ...(q.ring ? ([['ring', 1]] as Fields) : [])],
      };
    }
    case PreloadOp.DESTROY_CQ: {
      const h = uintField(m, 'cq') ?? 0;
      const cq = c.cqs.get(h);
      if (!cq) return { errno: EINVAL };
      if (destroyClientCq(cq) !== 0) return { errno: lastErr() };
      c.cqs.delete(h);
      return { errno: 0 };
    }
    case PreloadOp.RESIZE_CQ: {
      const cq = c.cqs.get(uintField(m, 'cq') ?? 0);
      const cqe = uintField(m, 'cqe', 0x7fff_ffff);
      if (!cq || !cqe) return { errno: EINVAL };
      return ibv_resize_cq(cq.cq, cqe) === 0 ? { errno: 0, fields: [['cqe', cq.cq.cqe]] } : { errno: lastErr() };
    }
    case PreloadOp.REQ_NOTIFY_CQ: {
      const cq = c.cqs.get(uintField(m, 'cq') ?? 0);
      if (!cq) return { errno: EINVAL };
      // A ring's CQ has no channel of the program's: an arm has nothing to raise (the daemon's
      // own arm keeps the ring filled).
      if (cq.ring) return { errno: 0 };
      return ibv_req_notify_cq(cq.cq, uintField(m, 'solicited_only', 1) ?? 0) === 0 ? { errno: 0 } : { errno: lastErr() };
    }
    case PreloadOp.POLL_CQ: {
      const cq = c.cqs.get(uintField(m, 'cq') ?? 0);
      if (cq?.ring) {
        // The program found its ring empty with completions left in the CQ: move more.
        const r = cq.ring.ring.drain(cq.cq);
        return r < 0 ? { errno: -r } : { errno: 0, fields: [['count', 0]] };
      }
      const n = uintField(m, 'n', 128);
      if (!cq || !n) return { errno: EINVAL };
      const wc = Array.from({ length: n }, newWc);
      const got = ibv_poll_cq(cq.cq, n, wc);
      if (got < 0) return { errno: lastErr() };
      const fields: Fields = [['count', got]];
      for (let i = 0; i < got; i++) {
        c.completed(cq.ctx, wc[i]!);
        flatten(wc[i]!, `wc.${i}.`, fields);
      }
      return { errno: 0, fields };
    }
    case PreloadOp.CREATE_QP: {
      const ph = uintField(m, 'pd') ?? 0;
      const p = c.pds.get(ph);
      const scq = c.cqs.get(uintField(m, 'send_cq') ?? 0);
      const rcq = c.cqs.get(uintField(m, 'recv_cq') ?? 0);
      const qpType = uintField(m, 'qp_type', 255);
      const srqh = uintField(m, 'srq') ?? 0;
      const srq = srqh ? c.srqs.get(srqh)?.srq : null;
      // The rings' memfd travels on the fd channel ahead of this request: take it whatever else is wrong.
      let ringAb: ArrayBuffer | null = null;
      const sqEntries = uintField(m, 'ring_sq', QP_RING_MAX_ENTRIES) ?? 0;
      const rqEntries = uintField(m, 'ring_rq', QP_RING_MAX_ENTRIES) ?? 0;
      const ringInline = uintField(m, 'ring_inline', QP_RING_MAX_INLINE) ?? 0;
      if (m.has('ring_sq')) {
        const fd = addon && c.fdChannel >= 0 ? addon.recvFd(c.fdChannel) : -1;
        if (fd < 0) return { errno: EBADF };
        if (!validQpRing(sqEntries, rqEntries, ringInline) || !sqEntries || (srqh && rqEntries)) {
          addon!.close(fd);
          return { errno: EINVAL };
        }
        // Past the client's bound on ring memory the QP is made without rings (posts by request).
        const bytes = qpRingBytes(sqEntries, rqEntries, ringInline);
        if (c.ringBytes() + bytes <= MAX_CLIENT_RING_BYTES) ringAb = addon!.mapShared(fd, bytes);
        addon!.close(fd);
      }
      if (!p || !scq || !rcq || qpType === null || srq === undefined) return { errno: EINVAL };
      const cap = unflatten(m, 'cap.');
      const init = {
        qp_context: null,
        send_cq: scq.cq,
        recv_cq: rcq.cq,
        srq,
        cap,
        qp_type: qpType,
        sq_sig_all: uintField(m, 'sq_sig_all', 1) ?? 0,
      } as In<ibv_qp_init_attr>;
      const qp = ibv_create_qp(p.pd, init);
      if (!qp) return { errno: lastErr() };
      const h = c.handle();
      const q: ClientQp = { qp, pd: ph, user: u64Field(m, 'user') ?? 0n };
      const got = init.cap as { max_send_wr: number; max_recv_wr: number };
      // Rings smaller than the queues they serve are not taken: the QP posts by request.
      if (ringAb && got.max_send_wr <= sqEntries && (srq || got.max_recv_wr <= rqEntries)) {
        const ctx = c.contexts.get(p.ctx)!;
        q.ring = new QpRing(ringAb, sqEntries, srq ? 0 : rqEntries, ringInline, got.max_send_wr, got.max_recv_wr, ringOpcodes(ctx, qpType));
        q.ring.setState(ibv_qp_state.IBV_QPS_RESET);
        c.qpRings.set(p.ctx * 0x100_0000 + qp.qp_num, q.ring);
      }
      const srqRing = srqh ? c.srqs.get(srqh)?.ring : undefined;
      if (srqRing) c.srqRingOfQp.set(p.ctx * 0x100_0000 + qp.qp_num, srqRing);
      else c.srqRingOfQp.delete(p.ctx * 0x100_0000 + qp.qp_num);
      c.qps.set(h, q);
      return {
        errno: 0,
        fields: flatten(init.cap as object, 'cap.', [['qp', h], ['qp_num', qp.qp_num], ...(q.ring ? ([['ring', 1]] as Fields) : [])]),
      };
    }
    case PreloadOp.MODIFY_QP: {
      const q = c.qps.get(uintField(m, 'qp') ?? 0);
      const mask = uintField(m, 'mask');
      if (!q || mask === null) return { errno: EINVAL };
      const attr = unflatten(m, '');
      delete attr.qp;
      delete attr.mask;
      attr.ah_attr = ahAttrOf(m, 'ah_attr.');
      attr.alt_ah_attr = ahAttrOf(m, 'alt_ah_attr.');
      if (ibv_modify_qp(q.qp, attr as In<ibv_qp_attr>, mask) !== 0) return { errno: lastErr() };
      if (q.ring && mask & ibv_qp_attr_mask.IBV_QP_STATE) q.ring.setState(attr.qp_state as number);
      return { errno: 0 };
    }
    case PreloadOp.QUERY_QP: {
      const q = c.qps.get(uintField(m, 'qp') ?? 0);
      const mask = uintField(m, 'mask');
      if (!q || mask === null) return { errno: EINVAL };
      const attr = {} as ibv_qp_attr;
      const init = {} as ibv_qp_init_attr;
      if (ibv_query_qp(q.qp, attr, mask, init) !== 0) return { errno: lastErr() };
      const fields = flatten(attr, '', []);
      flatten({ cap: init.cap, sq_sig_all: init.sq_sig_all }, 'init.', fields);
      return { errno: 0, fields };
    }
    case PreloadOp.DESTROY_QP: {
      const h = uintField(m, 'qp') ?? 0;
      const q = c.qps.get(h);
      if (!q) return { errno: EINVAL };
      if (ibv_destroy_qp(q.qp) !== 0) return { errno: lastErr() };
      q.ring?.detach();
      c.qps.delete(h);
      return { errno: 0 };
    }
    case PreloadOp.POST_SEND: {
      const q = c.qps.get(uintField(m, 'qp') ?? 0);
      const count = uintField(m, 'count', MAX_WRS);
      if (!q || !count) return { errno: EINVAL, fields: [['bad', 0]] };
      // A ringed QP's earlier WRs go first (the doorbell is ahead of this request).
      takeQpRings(c, q);
      // One WR at a time: the inline bytes of each are copied at its post.
      for (let i = 0; i < count; i++) {
        const f = sendFieldsOf(m, i);
        let ret = EINVAL;
        if (f && q.ring) ret = postRingedSend(c, q, f);
        else if (f) {
          const wr = sendWrOf(c, q.pd, f);
          if (wr) ret = ibv_post_send(q.qp, wr).ret;
        }
        if (ret !== 0) return { errno: ret, fields: [['bad', i]] };
      }
      return { errno: 0 };
    }
    case PreloadOp.POST_RECV: {
      const q = c.qps.get(uintField(m, 'qp') ?? 0);
      if (!q) return { errno: EINVAL, fields: [['bad', 0]] };
      takeQpRings(c, q);
      const ring = q.ring?.recv ? q.ring : null;
      if (!ring) return postRecvs(m, (wr) => ibv_post_recv(q.qp, wr).ret);
      return postRecvs(m, (wr) => postRingedRecv(ring, wr, (w) => ibv_post_recv(q.qp, w).ret));
    }
    case PreloadOp.DOORBELL: {
      // No answer: the program does not wait. An unknown QP (destroyed meanwhile) has nothing to take.
      const q = c.qps.get(uintField(m, 'qp') ?? 0);
      if (q?.ring) {
        q.ring.answerDoorbell();
        takeQpRings(c, q);
      }
      const s = c.srqs.get(uintField(m, 'srq') ?? 0);
      if (s?.ring) {
        s.ring.answerDoorbell();
        takeSrqRing(c, s.srq, s.ring);
      }
      return { errno: 0, silent: true };
    }
    case PreloadOp.POST_SRQ_RECV: {
      const s = c.srqs.get(uintField(m, 'srq') ?? 0);
      if (!s) return { errno: EINVAL, fields: [['bad', 0]] };
      if (!s.ring) return postRecvs(m, (wr) => ibv_post_srq_recv(s.srq, wr).ret);
      takeSrqRing(c, s.srq, s.ring);
      return postRecvs(m, (wr) => postRingedRecv(s.ring!, wr, (w) => ibv_post_srq_recv(s.srq, w).ret));
    }
    case PreloadOp.CREATE_AH: {
      const ph = uintField(m, 'pd') ?? 0;
      const p = c.pds.get(ph);
      if (!p) return { errno: EINVAL };
      const ah = createAh(p.pd, ahAttrOf(m, 'ah_attr.'));
      if (!ah) return { errno: lastErr() };
      const h = c.handle();
      c.ahs.set(h, { ah, pd: ph });
      return { errno: 0, fields: [['ah', h]] };
    }
    case PreloadOp.DESTROY_AH: {
      const h = uintField(m, 'ah') ?? 0;
      const ah = c.ahs.get(h);
      if (!ah) return { errno: EINVAL };
      if (destroyAh(ah.ah) !== 0) return { errno: lastErr() };
      c.ahs.delete(h);
      return { errno: 0 };
    }
    case PreloadOp.INIT_AH_FROM_WC: {
      const ctx = c.contexts.get(uintField(m, 'ctx') ?? 0);
      const port = uintField(m, 'port', 255);
      const grh = hexField(m, 'grh', 40);
      if (!ctx || port === null) return { errno: EINVAL };
      const wc = unflatten(m, 'wc.') as In<ibv_wc>;
      const ah = {} as ibv_ah_attr;
      if (initAhFromWc(ctx, port, wc, grh && grh.length === 40 ? grh : null, ah) !== 0) return { errno: lastErr() };
      return { errno: 0, fields: flatten(ah, 'ah_attr.', []) };
    }
    case PreloadOp.CREATE_SRQ: {
      const ph = uintField(m, 'pd') ?? 0;
      const p = c.pds.get(ph);
      // The ring's memfd travels on the fd channel ahead of this request: take it whatever else is wrong.
      let ringAb: ArrayBuffer | null = null;
      const entries = uintField(m, 'ring_rq', QP_RING_MAX_ENTRIES) ?? 0;
      if (m.has('ring_rq')) {
        const fd = addon && c.fdChannel >= 0 ? addon.recvFd(c.fdChannel) : -1;
        if (fd < 0) return { errno: EBADF };
        if (!validQpRing(0, entries, 0) || !entries) {
          addon!.close(fd);
          return { errno: EINVAL };
        }
        const bytes = qpRingBytes(0, entries, 0);
        if (c.ringBytes() + bytes <= MAX_CLIENT_RING_BYTES) ringAb = addon!.mapShared(fd, bytes);
        addon!.close(fd);
      }
      if (!p) return { errno: EINVAL };
      const attr = unflatten(m, 'attr.') as unknown as ibv_srq_attr;
      const srq = ibv_create_srq(p.pd, { srq_context: null, attr });
      if (!srq) return { errno: lastErr() };
      const h = c.handle();
      // A ring smaller than the S-RQ is not taken: it posts by request.
      const ring = ringAb && attr.max_wr <= entries ? new QpRing(ringAb, 0, entries, 0, 0, attr.max_wr, 0, true) : undefined;
      c.srqs.set(h, { srq, pd: ph, user: u64Field(m, 'user') ?? 0n, ...(ring && { ring }) });
      return { errno: 0, fields: flatten(attr, 'attr.', [['srq', h], ...(ring ? ([['ring', 1]] as Fields) : [])]) };
    }
    case PreloadOp.MODIFY_SRQ: {
      const srq = c.srqs.get(uintField(m, 'srq') ?? 0)?.srq;
      const mask = uintField(m, 'mask');
      if (!srq || mask === null) return { errno: EINVAL };
      return ibv_modify_srq(srq, unflatten(m, 'attr.') as In<ibv_srq_attr>, mask) === 0 ? { errno: 0 } : { errno: lastErr() };
    }
    case PreloadOp.QUERY_SRQ: {
      const srq = c.srqs.get(uintField(m, 'srq') ?? 0)?.srq;
      if (!srq) return { errno: EINVAL };
      const attr = {} as ibv_srq_attr;
      return ibv_query_srq(srq, attr) === 0 ? { errno: 0, fields: flatten(attr, 'attr.', []) } : { errno: lastErr() };
    }
    case PreloadOp.DESTROY_SRQ: {
      const h = uintField(m, 'srq') ?? 0;
      const srq = c.srqs.get(h);
      if (!srq) return { errno: EINVAL };
      if (ibv_destroy_srq(srq.srq) !== 0) return { errno: lastErr() };
      srq.ring?.detach();
      c.srqs.delete(h);
      return { errno: 0 };
    }
    case PreloadOp.ATTACH_MCAST: {
      const q = c.qps.get(uintField(m, 'qp') ?? 0);
      const gid = hexField(m, 'gid', 16);
      const lid = uintField(m, 'lid', 0xffff);
      if (!q || !gid || gid.length !== 16 || lid === null) return { errno: EINVAL };
      return mcastAttach(q.qp, { raw: gid }, lid, (uintField(m, 'detach', 1) ?? 0) === 1) === 0 ? { errno: 0 } : { errno: lastErr() };
    }
    default:
      return null;
  }
}

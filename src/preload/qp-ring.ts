/**
 * The work-request rings of a C program's QP under `softrdma exec` (docs/preload.md, "Work
 * request rings"): `ibv_post_send` and `ibv_post_recv` in the program write their WRs into a
 * memfd the program mapped and passed at `ibv_create_qp`, and ring a doorbell (a frame on its
 * socket, which the daemon does not answer) only when the daemon has not yet been told. The
 * daemon takes the WRs out in order and posts each through the verbs face, as a request would.
 *
 * The program answers a post without the daemon only when it knows the answer the verbs face
 * would give: the QP's last known state takes the WR, its opcode is one the QP's service carries,
 * it has at most one SGE (or inline bytes that fit a slot), and the queue has room. Anything else
 * goes as a post request, which the daemon answers after the ring's earlier WRs (the doorbell
 * travels ahead of it on the same socket), so the call's own errors stay the call's.
 *
 * Room is exact: a WQE's slot is free once its completion, or a later one of the same queue, has
 * been polled (RDMA Protocol Verbs §8.1.3: completions are returned in order; the WQE is consumed
 * when its completion is retrieved). The daemon gives the verbs face each WR with its sequence
 * number as the WR ID, keeps the program's ID by that number, and when it polls the completion it
 * restores the ID and publishes the number as retired, before the completion becomes visible to
 * the program. Posted minus retired is then what the engine holds.
 *
 * Layout (little-endian, the program's own memory): a 128-octet header, then the send ring
 * (`sq_entries` slots of 128 octets plus the inline bytes a slot holds), then the receive ring
 * (`rq_entries` slots of 32 octets; none for a QP with an S-RQ). An S-RQ has rings of the same
 * layout with no send ring: its header and receive ring, read by `ibv_post_srq_recv`.
 *
 * | word (×4 octets) | header field | written by |
 * |---|---|---|
 * | 0 | `sq_prod`: send WRs written, modulo 2^32 | program |
 * | 1 | `rq_prod`: receive WRs written | program |
 * | 2 | `doorbell`: 1 from the program's doorbell until the daemon takes the rings | both |
 * | 16, 17 | `sq_taken`, `sq_retired` | daemon |
 * | 18, 19 | `rq_taken`, `rq_retired` | daemon |
 * | 20 | `state`: the QP's state (`enum ibv_qp_state`) + 1, as last seen; 0 unknown | daemon |
 * | 21 | `sq_opcodes`: a bit per `enum ibv_wr_opcode` the ring takes | daemon |
 * | 22, 23 | `sq_cap`, `rq_cap`: WRs each queue holds | daemon |
 *
 * | octet | send slot field |
 * |---|---|
 * | 0 | `wr_id` (u64) |
 * | 8, 12, 16, 20 | `opcode`, `send_flags`, `imm_data` (the value), `num_sge` (0 or 1) (u32) |
 * | 24, 32, 36 | `sg_list[0]`: `addr` (u64), `length`, `lkey` (u32) |
 * | 40, 48 | `wr.rdma` / `wr.atomic`: `remote_addr` (u64), `rkey` (u32) |
 * | 52, 72, 76 | `wr.ud`: the AH's handle, `remote_qpn`, `remote_qkey` (u32) |
 * | 56, 64 | `wr.atomic`: `compare_add`, `swap` (u64) |
 * | 80 | inline length (u32), the bytes from octet 128, with `IBV_SEND_INLINE` |
 *
 * | octet | receive slot field |
 * |---|---|
 * | 0 | `wr_id` (u64) |
 * | 8, 12 | `num_sge` (0 or 1), `sg_list[0].lkey` (u32) |
 * | 16, 24 | `sg_list[0]`: `addr` (u64), `length` (u32) |
 */
import { ibv_send_flags, ibv_wc_opcode } from '../verbs/constants.js';
import type { ibv_sge, ibv_wc } from '../verbs/types.js';

export const QP_RING_HEADER = 128;
/** A send slot's fields; the inline bytes follow. */
export const SQ_SLOT_FIELDS = 128;
export const RQ_SLOT = 32;
/** The most slots either ring has. */
export const QP_RING_MAX_ENTRIES = 1 << 14;
/** The most inline bytes a send slot holds (a multiple of 64). */
export const QP_RING_MAX_INLINE = 1024;

const SQ_PROD = 0;
const RQ_PROD = 1;
const DOORBELL = 2;
const SQ_TAKEN = 16;
const SQ_RETIRED = 17;
const RQ_TAKEN = 18;
const RQ_RETIRED = 19;
const STATE = 20;
const SQ_OPCODES = 21;
const SQ_CAP = 22;
const RQ_CAP = 23;

/** The octets of a send slot holding `inline` inline bytes. */
export function sqSlotBytes(inline: number): number {
  return SQ_SLOT_FIELDS + inline;
}

/** The octets of a QP's rings. */
export function qpRingBytes(sqEntries: number, rqEntries: number, inline: number): number {
  return QP_RING_HEADER + sqEntries * sqSlotBytes(inline) + rqEntries * RQ_SLOT;
}

/**
 * Whether the sizes are ones the daemon takes: powers of two, whole 64-octet inline areas. A
 * QP's receive ring may be absent (an S-RQ's QP); an S-RQ's rings are a receive ring alone.
 */
export function validQpRing(sqEntries: number, rqEntries: number, inline: number): boolean {
  const pow2 = (n: number) => Number.isInteger(n) && n >= 1 && n <= QP_RING_MAX_ENTRIES && (n & (n - 1)) === 0;
  const sizes = (sqEntries === 0 || pow2(sqEntries)) && (rqEntries === 0 || pow2(rqEntries)) && sqEntries + rqEntries > 0;
  return sizes && Number.isInteger(inline) && inline >= 0 && inline <= QP_RING_MAX_INLINE && inline % 64 === 0;
}

/** A send WR as its slot gives it; `wr_id` is already the sequence number the verbs face sees. */
export interface RingSend {
  wr_id: bigint;
  opcode: number;
  send_flags: number;
  imm_data: number;
  invalidate_rkey: number;
  sg_list: ibv_sge[];
  /** With `IBV_SEND_INLINE`: the bytes (a view of the slot; copy before the next take). */
  inline: Uint8Array | null;
  remote_addr: bigint;
  rkey: number;
  compare_add: bigint;
  swap: bigint;
  ah: number;
  remote_qpn: number;
  remote_qkey: number;
}

/**
 * One queue's daemon-side count: ring slots taken, WRs given to the verbs face, and retired. A
 * QP's queues retire in order (a completion retires every earlier WR); an S-RQ's WQEs are
 * consumed by whichever QP receives first, so each completion retires its own WR only (Verbs
 * §8.1.3.1). Either way, fewer than `cap` WRs are outstanding, so a sequence number's ID slot is
 * free again by the time the number `entries` later is posted.
 */
class Queue {
  taken = 0;
  seq = 0;
  retired = 0;
  readonly ids: BigUint64Array;
  constructor(
    readonly entries: number,
    readonly cap: number,
    readonly inOrder = true,
  ) {
    this.ids = new BigUint64Array(Math.max(entries, 1));
  }
  /** The ID the verbs face is given for the next WR (its sequence number), or null when the queue is full. */
  next(): bigint | null {
    return this.seq - this.retired < this.cap ? BigInt(this.seq) : null;
  }
  /** The WR given {@link next}'s ID was taken: remember the program's ID. */
  posted(programId: bigint): void {
    this.ids[this.seq % this.ids.length] = programId;
    this.seq++;
  }
  /** The program's ID of a completion's WR; the WR and every earlier one are retired. */
  complete(id: bigint): bigint {
    const seq = Number(id);
    if (!this.inOrder) this.retired++;
    else if (seq + 1 > this.retired) this.retired = seq + 1;
    return this.ids[seq % this.ids.length]!;
  }
}

export class QpRing {
  #hdr: Uint32Array;
  #sq: DataView | null;
  #rq: DataView | null;
  readonly #ab: ArrayBuffer;
  readonly #slot: number;
  readonly send: Queue;
  readonly recv: Queue | null;
  readonly bytes: number;

  /**
   * `ab`: the program's memfd, mapped, of at least {@link qpRingBytes}. `sqCap`/`rqCap`: the WRs
   * each queue may hold (at most its ring's slots); `opcodes`: the send opcodes the ring takes;
   * `srq`: the rings are an S-RQ's (a receive ring alone, retired out of order).
   */
  constructor(
    ab: ArrayBuffer,
    readonly sqEntries: number,
    readonly rqEntries: number,
    readonly inline: number,
    sqCap: number,
    rqCap: number,
    opcodes: number,
    srq = false,
  ) {
    this.bytes = qpRingBytes(sqEntries, rqEntries, inline);
    if (!validQpRing(sqEntries, rqEntries, inline) || ab.byteLength < this.bytes) throw new RangeError('QpRing: bad size');
    this.#ab = ab;
    this.#slot = sqSlotBytes(inline);
    this.#hdr = new Uint32Array(ab, 0, QP_RING_HEADER / 4);
    this.#sq = sqEntries ? new DataView(ab, QP_RING_HEADER, sqEntries * this.#slot) : null;
    this.#rq = rqEntries ? new DataView(ab, QP_RING_HEADER + sqEntries * this.#slot, rqEntries * RQ_SLOT) : null;
    this.send = new Queue(sqEntries, Math.min(sqCap, sqEntries));
    this.recv = rqEntries ? new Queue(rqEntries, Math.min(rqCap, rqEntries), !srq) : null;
    for (const w of [SQ_PROD, RQ_PROD, DOORBELL, SQ_TAKEN, SQ_RETIRED, RQ_TAKEN, RQ_RETIRED, STATE]) Atomics.store(this.#hdr, w, 0);
    Atomics.store(this.#hdr, SQ_OPCODES, opcodes >>> 0);
    Atomics.store(this.#hdr, SQ_CAP, this.send.cap);
    Atomics.store(this.#hdr, RQ_CAP, this.recv?.cap ?? 0);
  }

  /** Publishes the QP's state as last seen (`enum ibv_qp_state`), or unknown (null). */
  setState(state: number | null): void {
    Atomics.store(this.#hdr, STATE, state === null ? 0 : state + 1);
  }

  /** Clears the doorbell, before the rings are taken: a WR written after this rings again. */
  answerDoorbell(): void {
    Atomics.store(this.#hdr, DOORBELL, 0);
  }

  /**
   * Gives each send WR written since the last take to `post`, in order, its ID replaced by its
   * sequence number; `post` returns 0 when the verbs face took it. Stops at the first WR that
   * finds the queue full (a program that wrote past the room it was shown) and leaves it, and
   * after one ring's worth of slots (a `sq_prod` further ahead is a broken program's, and
   * costs the daemon no more than a full ring).
   */
  takeSends(post: (w: RingSend) => number): void {
    const v = this.#sq;
    if (!v) return;
    const q = this.send;
    const prod = Atomics.load(this.#hdr, SQ_PROD);
    for (let budget = this.sqEntries; q.taken !== prod && budget > 0; budget--) {
      const id = q.next();
      if (id === null) break;
      const o = (q.taken % this.sqEntries) * this.#slot;
      const flags = v.getUint32(o + 12, true);
      const nsge = v.getUint32(o + 20, true);
      const inl = flags & ibv_send_flags.IBV_SEND_INLINE ? Math.min(v.getUint32(o + 80, true), this.inline) : -1;
      const w: RingSend = {
        wr_id: id,
        opcode: v.getUint32(o + 8, true),
        send_flags: flags,
        imm_data: v.getUint32(o + 16, true),
        invalidate_rkey: 0,
        sg_list:
          inl < 0 && nsge > 0
            ? [{ addr: v.getBigUint64(o + 24, true), length: v.getUint32(o + 32, true), lkey: v.getUint32(o + 36, true) }]
            : [],
        inline: inl >= 0 ? new Uint8Array(this.#ab, QP_RING_HEADER + o + SQ_SLOT_FIELDS, inl) : null,
        remote_addr: v.getBigUint64(o + 40, true),
        rkey: v.getUint32(o + 48, true),
        ah: v.getUint32(o + 52, true),
        compare_add: v.getBigUint64(o + 56, true),
        swap: v.getBigUint64(o + 64, true),
        remote_qpn: v.getUint32(o + 72, true),
        remote_qkey: v.getUint32(o + 76, true),
      };
      const programId = v.getBigUint64(o, true);
      q.taken = (q.taken + 1) >>> 0;
      if (post(w) === 0) q.posted(programId);
    }
    Atomics.store(this.#hdr, SQ_TAKEN, q.taken);
  }

  /** As {@link takeSends}, for the receive ring. */
  takeRecvs(post: (wr_id: bigint, sg_list: ibv_sge[]) => number): void {
    const v = this.#rq;
    const q = this.recv;
    if (!v || !q) return;
    const prod = Atomics.load(this.#hdr, RQ_PROD);
    for (let budget = this.rqEntries; q.taken !== prod && budget > 0; budget--) {
      const id = q.next();
      if (id === null) break;
      const o = (q.taken % this.rqEntries) * RQ_SLOT;
      const programId = v.getBigUint64(o, true);
      const sg =
        v.getUint32(o + 8, true) > 0
          ? [{ addr: v.getBigUint64(o + 16, true), length: v.getUint32(o + 24, true), lkey: v.getUint32(o + 12, true) }]
          : [];
      q.taken = (q.taken + 1) >>> 0;
      if (post(id, sg) === 0) q.posted(programId);
    }
    Atomics.store(this.#hdr, RQ_TAKEN, q.taken);
  }

  /**
   * A completion of this QP, polled from the verbs face: restores the program's WR ID and
   * publishes the queue's retired count (before the caller makes the completion visible).
   */
  complete(wc: ibv_wc): void {
    if (wc.opcode & ibv_wc_opcode.IBV_WC_RECV) {
      if (!this.recv) return;
      wc.wr_id = this.recv.complete(wc.wr_id);
      Atomics.store(this.#hdr, RQ_RETIRED, this.recv.retired >>> 0);
    } else {
      wc.wr_id = this.send.complete(wc.wr_id);
      Atomics.store(this.#hdr, SQ_RETIRED, this.send.retired >>> 0);
    }
  }

  /**
   * The QP is gone: the rings are no longer read or written (the program unmaps them), but the
   * IDs stay, for completions of it still in a CQ.
   */
  detach(): void {
    this.#hdr = new Uint32Array(QP_RING_HEADER / 4);
    this.#sq = null;
    this.#rq = null;
  }
}

/**
 * The completion ring of a C program's CQ under `softrdma exec` (docs/preload.md, "Completion
 * rings"): the daemon moves each completion, as the engine reports it, into a ring in a memfd
 * that the program mapped and passed at `ibv_create_cq`, and `ibv_poll_cq` reads the ring in the
 * program without a request. Only a CQ without a completion channel has one: the daemon keeps
 * such a CQ armed for itself, which a channel's program would see as events it did not ask for.
 *
 * Layout (little-endian, as the program's own memory): a 128-octet header, then `entries`
 * (a power of two) entries of 64 octets.
 *
 * | octet | header field | written by |
 * |---|---|---|
 * | 0 | `prod`: entries written, modulo 2^32 | daemon |
 * | 4 | `backlog`: 1 when the ring filled with completions still in the CQ | daemon |
 * | 8 | `entries` | daemon, once |
 * | 64 | `cons`: entries read, modulo 2^32 | program |
 *
 * | octet | entry field (`struct ibv_wc`) |
 * |---|---|
 * | 0 | `wr_id` (u64) |
 * | 8, 12, 16, 20 | `status`, `opcode`, `vendor_err`, `byte_len` (u32) |
 * | 24 | the immediate data as a value, or `invalidated_rkey` when `wc_flags` has `IBV_WC_WITH_INV` |
 * | 28, 32, 36 | `qp_num`, `src_qp`, `wc_flags` (u32) |
 * | 40, 42 | `pkey_index`, `slid` (u16) |
 * | 44, 45 | `sl`, `dlid_path_bits` (u8) |
 *
 * The daemon writes entries before it publishes `prod`; the program reads them before it
 * publishes `cons`. A ring that fills leaves the rest in the CQ with `backlog` set; the program,
 * finding the ring empty and `backlog` set, asks the daemon (`POLL_CQ`) to move more.
 */
import { ibv_wc_flags } from '../verbs/constants.js';
import { ibv_poll_cq, newWc } from '../verbs/ibverbs.js';
import type { ibv_cq, ibv_wc } from '../verbs/types.js';

export const CQ_RING_HEADER = 128;
export const CQ_RING_ENTRY = 64;
/** The largest ring: 4 MiB of entries; a larger CQ keeps the rest until the program asks. */
export const CQ_RING_MAX_ENTRIES = 1 << 16;
/** Completions moved per poll of the CQ. */
const BATCH = 64;

const PROD = 0;
const BACKLOG = 1;
const ENTRIES = 2;
const CONS = 16;

/** The octets of a ring of `entries` entries. */
export function cqRingBytes(entries: number): number {
  return CQ_RING_HEADER + CQ_RING_ENTRY * entries;
}

/** Whether `entries` is a ring size the daemon takes: a power of two up to {@link CQ_RING_MAX_ENTRIES}. */
export function validRingEntries(entries: number): boolean {
  return Number.isInteger(entries) && entries >= 1 && entries <= CQ_RING_MAX_ENTRIES && (entries & (entries - 1)) === 0;
}

export class CqRing {
  readonly #hdr: Uint32Array;
  readonly #view: DataView;
  readonly #mask: number;
  readonly #wc: ibv_wc[] = Array.from({ length: BATCH }, newWc);

  /**
   * `ab`: the program's memfd, mapped; at least {@link cqRingBytes}(`entries`) octets.
   * `onWc` sees each completion before it is written (a QP's work-request ring restores its WR ID there).
   */
  constructor(
    ab: ArrayBuffer,
    readonly entries: number,
    readonly onWc: ((wc: ibv_wc) => void) | null = null,
  ) {
    if (!validRingEntries(entries) || ab.byteLength < cqRingBytes(entries)) throw new RangeError('CqRing: bad size');
    this.#hdr = new Uint32Array(ab, 0, CQ_RING_HEADER / 4);
    this.#view = new DataView(ab, CQ_RING_HEADER, CQ_RING_ENTRY * entries);
    this.#mask = entries - 1;
    Atomics.store(this.#hdr, PROD, 0);
    Atomics.store(this.#hdr, BACKLOG, 0);
    Atomics.store(this.#hdr, ENTRIES, entries);
  }

  /**
   * Moves what `cq` holds into the ring, as far as it has room; `backlog` says whether the ring
   * filled first. Returns the completions moved, or a negative errno from `ibv_poll_cq`.
   */
  drain(cq: ibv_cq): number {
    const h = this.#hdr;
    const v = this.#view;
    let moved = 0;
    for (;;) {
      const prod = h[PROD]!;
      // `cons` is the program's, and never ahead of `prod`; anything else is a broken program,
      // and the ring is then taken as full.
      const used = (prod - Atomics.load(h, CONS)) >>> 0;
      const room = used > this.entries ? 0 : this.entries - used;
      if (room === 0) {
        Atomics.store(h, BACKLOG, 1);
        return moved;
      }
      const want = Math.min(room, BATCH);
      const got = ibv_poll_cq(cq, want, this.#wc);
      if (got < 0) {
        // A CQ in error: the program's next poll that finds the ring empty asks, and gets the errno.
        Atomics.store(h, BACKLOG, 1);
        return got;
      }
      for (let i = 0; i < got; i++) {
        const w = this.#wc[i]!;
        this.onWc?.(w);
        const o = ((prod + i) & this.#mask) * CQ_RING_ENTRY;
        v.setBigUint64(o, w.wr_id, true);
        v.setUint32(o + 8, w.status, true);
        v.setUint32(o + 12, w.opcode, true);
        v.setUint32(o + 16, w.vendor_err, true);
        v.setUint32(o + 20, w.byte_len, true);
        v.setUint32(o + 24, w.wc_flags & ibv_wc_flags.IBV_WC_WITH_INV ? w.invalidated_rkey : w.imm_data, true);
        v.setUint32(o + 28, w.qp_num, true);
        v.setUint32(o + 32, w.src_qp, true);
        v.setUint32(o + 36, w.wc_flags, true);
        v.setUint16(o + 40, w.pkey_index, true);
        v.setUint16(o + 42, w.slid, true);
        v.setUint8(o + 44, w.sl);
        v.setUint8(o + 45, w.dlid_path_bits);
      }
      if (got > 0) Atomics.store(h, PROD, (prod + got) >>> 0);
      moved += got;
      if (got < want) {
        Atomics.store(h, BACKLOG, 0);
        return moved;
      }
    }
  }
}

/**
 * A {@link GsiPort} over RNICPI: QP1 of an InfiniBand (RoCE) RNIC obtained as any consumer
 * obtains it, with `ri_special_qp_get(GSI)` (RNICPI Ch. 7), and MADs sent and received as UD
 * datagrams through `ri_qp_postsq`/`ri_qp_postrq` and a CQ (IBTA Vol. 1 §13.5.1, "General
 * Services Interface"). The IB CM (`cm.ts`) runs on top; the core is never reached.
 *
 * - **Receive**: a ring of `recvDepth` buffers of 40 + 256 octets (the GRH area, then the MAD),
 *   re-posted as they complete. The source of a MAD is the GRH's source address (RoCEv2 over
 *   IPv4: the IPv4 header after 20 zero octets, Annex A17.4.5.1; an IB GRH otherwise) and the
 *   completion's source QP; the local GID it was addressed to is the GRH's destination. A
 *   datagram that is not 256 octets is handed up as is: the CM drops it as malformed.
 * - **Send**: `sendDepth` buffers of 256 octets; a MAD finding none free is dropped (UD is
 *   unreliable and the CM retransmits), never queued without bound. The destination is an
 *   address handle per (destination GID, source GID index), kept in a bounded cache.
 * - **Completions** arrive through the RNIC's completion event handler given as `cqHandlerId`:
 *   the CQ's `os_data` is an object whose `onCompletionEvent()` the handler calls (the verbs
 *   face's convention for every CQ it creates).
 *
 * @packageDocumentation
 */
import type { ri_ops_t } from '../rnicpi/ops.js';
import { RiRet } from '../rnicpi/status.js';
import { bytesOfRiGid, riGidOfBytes } from '../rnicpi/gid.js';
import {
  RiCmpltNotifyType,
  RiMemFlags,
  RiRnicQueryFlags,
  RiSqpType,
  RiSvcType,
  RiWcStatus,
  RiWrFlags,
  RiWrType,
  type ri_address_handle_t,
  type ri_cq_handle_t,
  type ri_ltag_t,
  type ri_mr_handle_t,
  type ri_pd_handle_t,
  type ri_qp_handle_t,
  type ri_rnic_handle_t,
  type ri_wc_t,
} from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import { stringifyGid } from '../wire/ib/cm.js';
import { DEFAULT_PKEY, GSI_QKEY, MAD_SIZE } from '../wire/ib/mad.js';
import { GRH_LEN } from '../wire/ib/constants.js';
import { type GsiAddress, type GsiPort, gidIndexIn } from './gsi.js';
import { IBOE_HOP_LIMIT, runQpPlan, udPlan } from './qp-plan.js';

const log = logger('ibcm:gsi');

/** Address handles kept at once (one per peer and local GID); the oldest is destroyed first. */
const MAX_AHS = 256;
/** Send WR ids carry this bit; receive WR ids are the slot number. */
const SEND_ID = 1n << 32n;

/** Options of {@link RiGsiPort.open}. */
export interface RiGsiPortOptions {
  ops: ri_ops_t;
  rnic: ri_rnic_handle_t;
  /** The completion event handler ID the CQ is created with (RNICPI `ri_cq_set_event_handler`). */
  cqHandlerId: number;
  /** The address `ri_mr_reg` takes for a buffer (the consumer's address space). */
  addressOf: (bytes: Uint8Array) => bigint;
  /** Physical port (default 1). */
  port?: number;
  /** Receive buffers posted at once (default 64). */
  recvDepth?: number;
  /** MADs in flight at once (default 64). */
  sendDepth?: number;
}

/** Counters of one port. */
export interface RiGsiStats {
  sent: number;
  received: number;
  /** Sends dropped: no free send buffer, or the post failed. */
  sendDrops: number;
  /** Receives completed in error (a datagram longer than 256 octets, a flush). */
  recvErrors: number;
}

/**
 * The source and destination GIDs of a received GRH. RoCEv2 over IPv4 (Annex A17.4.5.1): 20
 * zero octets then the IPv4 header, whose addresses become IPv4-mapped GIDs; otherwise the IB
 * GRH (SGID at 8, DGID at 24).
 */
export function grhGids(g: Uint8Array): { sgid: Uint8Array; dgid: Uint8Array } | null {
  if (g.length < GRH_LEN) return null;
  const v4 = g.subarray(0, 20).every((x) => x === 0) && g[20]! >> 4 === 4;
  if (v4) {
    const mapped = (off: number) => {
      const x = new Uint8Array(16);
      x[10] = 0xff;
      x[11] = 0xff;
      x.set(g.subarray(off, off + 4), 12);
      return x;
    };
    return { sgid: mapped(20 + 12), dgid: mapped(20 + 16) };
  }
  return { sgid: g.slice(8, 24), dgid: g.slice(24, 40) };
}

/** QP1 of one port of an RNIC, as a {@link GsiPort}. */
export class RiGsiPort implements GsiPort {
  readonly stats: RiGsiStats = { sent: 0, received: 0, sendDrops: 0, recvErrors: 0 };
  readonly #o: Required<RiGsiPortOptions>;
  #pd: ri_pd_handle_t | null = null;
  #cq: ri_cq_handle_t | null = null;
  #mr: ri_mr_handle_t | null = null;
  #qp: ri_qp_handle_t | null = null;
  #ltag: ri_ltag_t = 0;
  /** Receive slots, then send slots, in one registered buffer. */
  #buf = new Uint8Array(0);
  #va = 0n;
  readonly #freeSend: number[] = [];
  readonly #ahs = new Map<string, ri_address_handle_t>();
  #handler: ((mad: Uint8Array, from: GsiAddress) => void) | null = null;
  #closed = false;
  /** QP1's receives are being flushed: the port is dying (told once). */
  #failing = false;
  #onFail: ((reason: string) => void) | null = null;
  /** The QP number (1 once open). */
  qpn = 0;

  private constructor(o: RiGsiPortOptions) {
    this.#o = { port: 1, recvDepth: 64, sendDepth: 64, ...o };
  }

  /**
   * Opens QP1 of the port: PD, CQ, one registered buffer, `ri_special_qp_get(GSI)`, INIT (P_Key
   * index 0, Q_Key 0x80010000) → RTR → RTS, and the receives posted. Returns the RNICPI status
   * of the first call that failed (everything made so far is freed again).
   */
  static open(o: RiGsiPortOptions): RiGsiPort | RiRet {
    const p = new RiGsiPort(o);
    const st = p.#open();
    if (st !== RiRet.SUCCESS) {
      p.close();
      return st;
    }
    return p;
  }

  #open(): RiRet {
    const { ops, rnic, recvDepth, sendDepth, port } = this.#o;
    const pd = ops.ri_pd_alloc(rnic, null, null);
    if (pd.status !== RiRet.SUCCESS) return pd.status;
    this.#pd = pd.pd;
    const cq = ops.ri_cq_create(rnic, { num_cqe: recvDepth + sendDepth, handler_id: this.#o.cqHandlerId }, null, {
      onCompletionEvent: () => this.#drain(),
    });
    if (cq.status !== RiRet.SUCCESS) return cq.status;
    this.#cq = cq.cq;
    this.#buf = new Uint8Array(recvDepth * (GRH_LEN + MAD_SIZE) + sendDepth * MAD_SIZE);
    this.#va = this.#o.addressOf(this.#buf);
    const mr = ops.ri_mr_reg(
      rnic,
      { va: this.#va, length: this.#buf.length, mem_attr: RiMemFlags.LOCAL_WRITE | RiMemFlags.USER_VA, pd: this.#pd },
      0,
      null,
      null,
    );
    if (mr.status !== RiRet.SUCCESS) return mr.status;
    this.#mr = mr.mr;
    this.#ltag = mr.ltag;
    const qp = ops.ri_special_qp_get(
      rnic,
      port,
      RiSqpType.GSI,
      {
        scq: { scq_handle: this.#cq },
        rcq: { rcq_handle: this.#cq },
        pd: this.#pd,
        sq_size: sendDepth,
        rq_size: recvDepth,
        sq_max_sges: 1,
        rq_max_sges: 1,
        qp_xport: { qp_ib: { trans_type: RiSvcType.UNRELIABLE_DATAGRAM } },
      },
      null,
      { gsi: true },
    );
    if (qp.status !== RiRet.SUCCESS) return qp.status;
    this.#qp = qp.qp;
    this.qpn = qp.attrs.qp_id;
    // Receives are posted in INIT, before the port can receive anything.
    const st = runQpPlan(ops, rnic, this.#qp, udPlan(GSI_QKEY, port), (step) => {
      if (step.state === 'INIT') for (let s = 0; s < recvDepth; s++) if (!this.#postRecv(s)) return RiRet.FAIL;
      return RiRet.SUCCESS;
    });
    if (st !== RiRet.SUCCESS) return st;
    for (let s = 0; s < sendDepth; s++) this.#freeSend.push(s);
    const arm = ops.ri_cq_req_notification(rnic, this.#cq, RiCmpltNotifyType.ANY);
    if (arm.status !== RiRet.SUCCESS) return arm.status;
    log('GSI QP%d open (%d receives, %d sends)', this.qpn, recvDepth, sendDepth);
    return RiRet.SUCCESS;
  }

  /** The port's GID table (RNICPI `ri_rnic_query` with the port information). */
  gids(): Uint8Array[] {
    const r = this.#o.ops.ri_rnic_query(this.#o.rnic, RiRnicQueryFlags.PORT_INFO, 1 << 20);
    if (r.status !== RiRet.SUCCESS || !('ib' in r.attrs.trans_attr)) return [];
    const p = r.attrs.trans_attr.ib.port_attrs?.[this.#o.port - 1];
    return (p?.src_gid_table ?? []).map((g) => bytesOfRiGid(g));
  }

  get closed(): boolean {
    return this.#closed;
  }

  #postRecv(slot: number): boolean {
    const len = GRH_LEN + MAD_SIZE;
    const r = this.#o.ops.ri_qp_postrq(this.#o.rnic, this.#qp!, [
      { flags: 0, id: BigInt(slot), sg_list: [{ addr: this.#va + BigInt(slot * len), tag: this.#ltag, len }] },
    ]);
    return r.status === RiRet.SUCCESS;
  }

  #sendOffset(slot: number): number {
    return this.#o.recvDepth * (GRH_LEN + MAD_SIZE) + slot * MAD_SIZE;
  }

  /** An address handle to `dgid` from the local GID at `sgidIndex`, made on first use. */
  #ah(dgid: Uint8Array, sgidIndex: number): ri_address_handle_t | null {
    const key = `${Buffer.from(dgid).toString('hex')}/${sgidIndex}`;
    const have = this.#ahs.get(key);
    if (have) {
      // Most recently used last: the oldest is the first evicted.
      this.#ahs.delete(key);
      this.#ahs.set(key, have);
      return have;
    }
    const { ops, rnic, port } = this.#o;
    const av = {
      sl: 0,
      send_global_routing_hdr_flg: 1,
      // Linux sends CM MADs on RoCE with the path's hop limit; TTL is masked in the ICRC anyway.
      hop_limit: IBOE_HOP_LIMIT,
      source_gid_index: sgidIndex,
      flow_label: 0,
      dgid: riGidOfBytes(dgid),
      dlid: 0,
      traffic_class: 0,
      max_static_rate: 0,
      source_path_bits: 0,
    };
    const r = ops.ri_ah_create(rnic, this.#pd!, { av_common: av, physical_port: port }, null, null);
    if (r.status !== RiRet.SUCCESS) {
      log('ri_ah_create(%s): %s', stringifyGid(dgid), RiRet[r.status]);
      return null;
    }
    if (this.#ahs.size >= MAX_AHS) {
      const [k, old] = this.#ahs.entries().next().value!;
      this.#ahs.delete(k);
      // A posted UD WR holds a copy of its address vector: destroying the AH now is safe.
      ops.ri_ah_destroy(rnic, old);
    }
    this.#ahs.set(key, r.ah);
    return r.ah;
  }

  send(mad: Uint8Array, to: GsiAddress): void {
    if (this.#closed || !this.#qp) return;
    if (mad.length !== MAD_SIZE) throw new RangeError(`a MAD is ${MAD_SIZE} octets, not ${mad.length}`);
    const gids = this.gids();
    let sgidIndex = to.localGid ? gidIndexIn(gids, to.localGid) : 0;
    if (sgidIndex < 0) {
      log('send to %s: %s is not a GID of the port; from GID index 0', stringifyGid(to.gid), stringifyGid(to.localGid!));
      sgidIndex = 0;
    }
    const ah = this.#ah(to.gid, sgidIndex);
    const slot = this.#freeSend.pop();
    if (!ah || slot === undefined) {
      this.stats.sendDrops++;
      log('send to %s dropped (%s)', stringifyGid(to.gid), ah ? 'no free send buffer' : 'no address handle');
      return;
    }
    const off = this.#sendOffset(slot);
    this.#buf.set(mad, off);
    const { ops, rnic } = this.#o;
    const r = ops.ri_qp_postsq(rnic, this.#qp, [
      {
        type: RiWrType.SEND,
        flags: RiWrFlags.SIGNALED_FLAG,
        id: SEND_ID | BigInt(slot),
        sg_list: [{ addr: this.#va + BigInt(off), tag: this.#ltag, len: MAD_SIZE }],
        num_sgls: 1,
        remote_node_address: ah,
        dest_qp: to.qpn,
        dest_qkey: to.qkey >>> 0,
        max_static_rate: 0,
      },
    ]);
    if (r.status !== RiRet.SUCCESS) {
      this.#freeSend.push(slot);
      this.stats.sendDrops++;
      log('ri_qp_postsq: %s', RiRet[r.status]);
      return;
    }
    this.stats.sent++;
  }

  onReceive(handler: (mad: Uint8Array, from: GsiAddress) => void): void {
    this.#handler = handler;
  }

  onFail(handler: (reason: string) => void): void {
    this.#onFail = handler;
  }

  /** Reaps every completion, hands up the MADs, re-posts their buffers, re-arms the CQ. */
  #drain(): void {
    if (this.#closed || !this.#cq) return;
    const { ops, rnic } = this.#o;
    for (let pass = 0; pass < 2; pass++) {
      for (;;) {
        const r = ops.ri_cq_poll(rnic, this.#cq, 16);
        if (r.status !== RiRet.SUCCESS) break;
        for (const wc of r.wcs) this.#complete(wc);
        if (this.#closed) return;
      }
      // Re-arm, then poll once more: a completion between the last poll and the arm is not lost.
      if (pass === 0) ops.ri_cq_req_notification(rnic, this.#cq, RiCmpltNotifyType.ANY);
    }
  }

  #complete(wc: ri_wc_t): void {
    const id = wc.id;
    if (id & SEND_ID) {
      this.#freeSend.push(Number(id & 0xffff_ffffn));
      return;
    }
    const slot = Number(id);
    if (wc.op_status !== RiWcStatus.SUCCESS) {
      this.stats.recvErrors++;
      // A flush means QP1 left RTS under us (its UDP socket failed: the port is taken, the
      // address went away): the port is dead; close it so that its user opens a new one.
      if (wc.op_status === RiWcStatus.WR_FLUSHED_ERROR) {
        if (this.#failing) return;
        this.#failing = true;
        const reason = `QP${this.qpn} of the port entered the Error state (its UDP endpoint failed)`;
        log('GSI %s; closing the port', reason);
        queueMicrotask(() => {
          this.close();
          this.#onFail?.(reason);
        });
        return;
      }
      this.#postRecv(slot);
      return;
    }
    const len = GRH_LEN + MAD_SIZE;
    const base = slot * len;
    const n = Math.min(wc.bytes_transferred, len);
    const g = 'grh_present' in wc && wc.grh_present ? grhGids(this.#buf.subarray(base, base + GRH_LEN)) : null;
    const mad = this.#buf.slice(base + GRH_LEN, base + Math.max(GRH_LEN, n));
    const remoteQpn = 'remote_qpn' in wc ? wc.remote_qpn : 0;
    this.#postRecv(slot);
    if (!g) {
      log('MAD without a GRH dropped');
      return;
    }
    this.stats.received++;
    // The datagram arrived with the GSI Q_Key (the core checks it against QP1's).
    this.#handler?.(mad, { gid: g.sgid, qpn: remoteQpn, qkey: GSI_QKEY, pkey: DEFAULT_PKEY, localGid: g.dgid });
  }

  /** Stops receiving and frees QP1, its address handles, buffer, CQ and PD. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const { ops, rnic } = this.#o;
    if (this.#qp) ops.ri_qp_destroy(rnic, this.#qp);
    for (const ah of this.#ahs.values()) ops.ri_ah_destroy(rnic, ah);
    this.#ahs.clear();
    if (this.#mr) ops.ri_mr_dereg(rnic, this.#mr);
    if (this.#cq) ops.ri_cq_destroy(rnic, this.#cq);
    if (this.#pd) ops.ri_pd_dealloc(rnic, this.#pd);
    this.#qp = this.#mr = this.#cq = this.#pd = null;
    log('GSI QP%d closed', this.qpn);
  }
}

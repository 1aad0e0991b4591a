/**
 * The QP the iWARP connection manager connects, as an RNICPI consumer sees it (RNICPI 1.0
 * §6.1.4, Ch. 7 `ri_qp_query`/`ri_qp_modify`): the {@link CmQp} interface the CM works through and
 * {@link riCmQp}, its adapter over an RNICPI ops vector. The CM itself is `cm.ts`.
 *
 * @module
 */
import type { ri_ops_t } from '../rnicpi/ops.js';
import { RiRet } from '../rnicpi/status.js';
import { type MpaAttrs, riMpa } from './llp-attrs.js';
import {
  RiQpAttrMask,
  RiQpState,
  type ri_iwarp_qp_attr_t,
  type ri_llp_stream_handle_t,
  type ri_qp_attr_in_t,
  type ri_qp_handle_t,
  type ri_rnic_handle_t,
} from '../rnicpi/types.js';

// ---------------------------------------------------------------------------------------------
// The QP the CM connects: an RNICPI consumer's view
// ---------------------------------------------------------------------------------------------

/** What the CM reads of its QP (RNICPI 1.0 Ch. 7 `ri_qp_query`). */
export interface CmQpInfo {
  state: RiQpState;
  /** `max_rdma_read_incoming`. */
  ird: number;
  /** `max_rdma_read_outgoing`. */
  ord: number;
  /** `enable_rdma_read`: a Read RTR (RFC 6581) needs it on the Responder. */
  enableRdmaRead: boolean;
  /**
   * `llp_stream_handle` is set: the QP holds a stream. Only a QP in Idle without one can be
   * connected (RNICPI 1.0 §6.1.4: the handle is given on the Idle→RTS modify).
   */
  llpAttached: boolean;
}

/** What the CM asks of its QP on Idle→RTS or at teardown (RNICPI 1.0 Ch. 7 `ri_qp_modify`). */
export interface CmQpModify {
  nextState: RiQpState;
  /** `RI_QP_ATTR_LLQ_STREAM_HANDLE`: the stream the QP takes over (RNICPI 1.0 §6.1.4). */
  llp?: unknown;
  /** `RI_QP_ATTR_MPA_ATTR`: the negotiated MPA attributes, set with the handle (§6.1.4). */
  mpa?: MpaAttrs;
  /** `RI_QP_ATTR_MAX_RDMA_READ_INCOMING`. */
  ird?: number;
  /** `RI_QP_ATTR_MAX_RDMA_READ_OUTGOING`. */
  ord?: number;
  /** `RI_QP_ATTR_STREAM_MSG_BUFFER`: the last streaming-mode message (the MPA Reply), Idle→RTS only. */
  streamMsg?: Uint8Array;
}

/** The RNIC's limits the CM negotiates within (RNICPI 1.0 §8 `ri_rnic_attr_t`). */
export interface CmQpCaps {
  maxIrdPerQp: number;
  maxOrdPerQp: number;
}

/**
 * The QP a connection is made for, as the CM sees it. The CM is a consumer of RNICPI (RNICPI 1.0
 * §6.1.3–6.1.5: everything before RDMA mode belongs to the host stack): it only queries the QP,
 * moves it Idle→RTS with the stream and the negotiated attributes, and later to Closing,
 * Terminate or Error — all through `ri_qp_modify`. {@link riCmQp} implements it over an RNICPI
 * ops vector; any other object with these calls (a test double, another transport) will do.
 */
export interface CmQp {
  /** The QP number, for log lines (`QP[17] ...`). */
  readonly id: number;
  /** The QP's current attributes, or null once the QP is gone (destroyed, handle invalid). */
  query(): CmQpInfo | null;
  /** One `ri_qp_modify`; all-or-nothing (a failure changes nothing). */
  modify(m: CmQpModify): RiRet;
  /** The RNIC's IRD/ORD limits. */
  caps(): CmQpCaps;
  /** Whether the RNIC can send and accept MPA Markers (RFC 5044 §5). */
  markersSupported(): boolean;
}

export const adapters = new WeakMap<object, CmQp>();
/** Marker support per RNIC handle, once learnt. */
export const markerSupport = new WeakMap<object, boolean>();

/**
 * The {@link CmQp} of an RNICPI QP: `ri_qp_query` / `ri_qp_modify` on `qp` through `ops`, the
 * limits from `ri_rnic_query`. One object per QP handle, so "already connecting" is seen
 * whichever face asks.
 *
 * RNICPI 1.0 has no RNIC attribute for Marker support (`RI_IWARP_PREFER_MARKERS` is a
 * preference, §8 `ri_iwarp_rnic_attr_t`); an RNIC that cannot use them answers
 * `MPA_ATTR_UNSUPPORTED` to `ri_qp_modify` with `RI_QP_ATTR_MPA_ATTR` (§6.1.4). So the adapter asks
 * an Idle QP once per RNIC handle: Markers on, then the QP's own attributes back.
 */
export function riCmQp(ops: ri_ops_t, rnic: ri_rnic_handle_t, qp: ri_qp_handle_t): CmQp {
  const known = adapters.get(qp as object);
  if (known) return known;
  const first = ops.ri_qp_query(rnic, qp);
  const a = new RiCmQp(ops, rnic, qp, first.status === RiRet.SUCCESS ? first.attrs.qp_id : -1);
  adapters.set(qp as object, a);
  return a;
}

/** The adapter {@link riCmQp} makes: methods on the prototype, so an idle QP holds no closures. */
class RiCmQp implements CmQp {
  #caps: CmQpCaps | null = null;
  readonly #ops: ri_ops_t;
  readonly #rnic: ri_rnic_handle_t;
  readonly #qp: ri_qp_handle_t;

  constructor(
    ops: ri_ops_t,
    rnic: ri_rnic_handle_t,
    qp: ri_qp_handle_t,
    readonly id: number,
  ) {
    this.#ops = ops;
    this.#rnic = rnic;
    this.#qp = qp;
  }

  query(): CmQpInfo | null {
    const r = this.#ops.ri_qp_query(this.#rnic, this.#qp);
    if (r.status !== RiRet.SUCCESS) return null;
    const x = r.attrs;
    const iw = 'qp_iwarp' in x.qp_xport ? x.qp_xport.qp_iwarp : null;
    return {
      state: x.state,
      ird: x.max_rdma_read_incoming,
      ord: x.max_rdma_read_outgoing,
      enableRdmaRead: x.enable_rdma_read,
      llpAttached: iw !== null && iw.llp_stream_handle !== null && iw.llp_stream_handle !== undefined,
    };
  }

  modify(m: CmQpModify): RiRet {
    let mask = RiQpAttrMask.NEXT_STATE;
    const iw: { -readonly [K in keyof ri_iwarp_qp_attr_t]?: ri_iwarp_qp_attr_t[K] } = {};
    const attrs: { -readonly [K in keyof ri_qp_attr_in_t]: ri_qp_attr_in_t[K] } = { state: m.nextState };
    if (m.llp !== undefined) {
      mask |= RiQpAttrMask.LLQ_STREAM_HANDLE;
      iw.llp_stream_handle = m.llp as ri_llp_stream_handle_t;
    }
    if (m.mpa !== undefined) {
      mask |= RiQpAttrMask.MPA_ATTR;
      iw.mpa_attributes = riMpa(m.mpa);
    }
    if (m.streamMsg !== undefined) {
      mask |= RiQpAttrMask.STREAM_MSG_BUFFER;
      iw.stream_msg_buf = m.streamMsg;
      iw.stream_msg_buf_length = m.streamMsg.length;
    }
    if (m.ird !== undefined) {
      mask |= RiQpAttrMask.MAX_RDMA_READ_INCOMING;
      attrs.max_rdma_read_incoming = m.ird;
    }
    if (m.ord !== undefined) {
      mask |= RiQpAttrMask.MAX_RDMA_READ_OUTGOING;
      attrs.max_rdma_read_outgoing = m.ord;
    }
    if (Object.keys(iw).length > 0) attrs.qp_xport = { qp_iwarp: iw };
    return this.#ops.ri_qp_modify(this.#rnic, this.#qp, mask, attrs).status;
  }

  caps(): CmQpCaps {
    if (this.#caps) return this.#caps;
    const r = this.#ops.ri_rnic_query(this.#rnic, 0, 1 << 20);
    // Without an answer nothing can be negotiated: limits of 0 make every IRD/ORD invalid.
    if (r.status !== RiRet.SUCCESS) return { maxIrdPerQp: 0, maxOrdPerQp: 0 };
    this.#caps = { maxIrdPerQp: r.attrs.max_ird_per_qp, maxOrdPerQp: r.attrs.max_ord_per_qp };
    return this.#caps;
  }

  markersSupported(): boolean {
    const ops = this.#ops;
    const rnic = this.#rnic;
    const qp = this.#qp;
    const known = markerSupport.get(rnic as object);
    if (known !== undefined) return known;
    const q = ops.ri_qp_query(rnic, qp);
    if (q.status !== RiRet.SUCCESS || q.attrs.state !== RiQpState.IDLE || !('qp_iwarp' in q.attrs.qp_xport)) return false;
    const own = q.attrs.qp_xport.qp_iwarp.mpa_attributes;
    const probe = {
      recv_marker_enabled: true,
      xmit_marker_enabled: true,
      crc_enabled: own.crc_enabled,
      ddp_rdma_version: own.ddp_rdma_version,
    };
    const st = ops.ri_qp_modify(rnic, qp, RiQpAttrMask.MPA_ATTR, { qp_xport: { qp_iwarp: { mpa_attributes: probe } } }).status;
    if (st === RiRet.SUCCESS) ops.ri_qp_modify(rnic, qp, RiQpAttrMask.MPA_ATTR, { qp_xport: { qp_iwarp: { mpa_attributes: own } } });
    else if (st !== RiRet.MPA_ATTR_UNSUPPORTED) return false;
    markerSupport.set(rnic as object, st === RiRet.SUCCESS);
    return st === RiRet.SUCCESS;
  }
}

/** State names of the log lines. */
export const STATE_NAMES: Record<number, string> = {
  [RiQpState.IDLE]: 'IDLE',
  [RiQpState.READY_TO_SEND]: 'RTS',
  [RiQpState.ERROR]: 'ERROR',
  [RiQpState.TERMINATE]: 'TERMINATE',
  [RiQpState.CLOSING]: 'CLOSING',
};

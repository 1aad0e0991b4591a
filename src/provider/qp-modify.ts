/**
 * Decoding `ri_qp_modify`'s mask and attributes into the core's request: the prelude both
 * transports share ({@link decodeModifyCommon}), the iWARP members ({@link decodeModify}; the
 * InfiniBand ones are `ib.ts`'s `decodeModifyIb`), and the LLP handles a consumer may pass.
 *
 * @module
 */
import { Socket } from 'node:net';
import { LlpStream } from '../iwarp/llp.js';
import type { QpModify } from '../rnic/qp.js';
import { RiRet } from '../rnicpi/status.js';
import { RI_QP_ATTR_IWARP_VALID_MASK, RiQpAttrMask, type ri_iwarp_qp_attr_t, type ri_qp_attr_in_t } from '../rnicpi/types.js';

/** A non-negative integer, as every count, size and state `ri_qp_modify` takes is. */
export function isUint(x: unknown): x is number {
  return Number.isInteger(x) && (x as number) >= 0;
}

/**
 * The prelude of `ri_qp_modify` both transports share: the mask holds only bits of `validMask`,
 * the attributes are an object that does not carry the other transport's member
 * (`otherXport`), and the transport-neutral members the mask names (next state, queue sizes,
 * ORD, IRD) are non-negative integers. Answers the request with those members, or the status.
 */
export function decodeModifyCommon(
  mask: number,
  validMask: number,
  a: ri_qp_attr_in_t,
  otherXport: 'qp_iwarp' | 'qp_ib',
): QpModify | RiRet {
  if (!Number.isInteger(mask) || (mask & ~validMask) !== 0) return RiRet.INVALID_PARAMETER;
  if (!a || typeof a !== 'object') return RiRet.INVALID_PARAMETER;
  if (a.qp_xport && otherXport in a.qp_xport) return RiRet.QP_INVALID_SERVICE_TYPE;
  const m: QpModify = {};
  if (mask & RiQpAttrMask.NEXT_STATE) {
    if (!isUint(a.state)) return RiRet.INVALID_PARAMETER;
    m.nextState = a.state;
  }
  if (mask & RiQpAttrMask.SQ_SIZE) {
    if (!isUint(a.sq_size)) return RiRet.INVALID_PARAMETER;
    m.sqSize = a.sq_size;
  }
  if (mask & RiQpAttrMask.RQ_SIZE) {
    if (!isUint(a.rq_size)) return RiRet.INVALID_PARAMETER;
    m.rqSize = a.rq_size;
  }
  if (mask & RiQpAttrMask.MAX_RDMA_READ_OUTGOING) {
    if (!isUint(a.max_rdma_read_outgoing)) return RiRet.INVALID_PARAMETER;
    m.ord = a.max_rdma_read_outgoing;
  }
  if (mask & RiQpAttrMask.MAX_RDMA_READ_INCOMING) {
    if (!isUint(a.max_rdma_read_incoming)) return RiRet.INVALID_PARAMETER;
    m.ird = a.max_rdma_read_incoming;
  }
  return m;
}

/** Decodes `ri_qp_modify`'s mask (iWARP meanings of bits 5–9) into the engine's request. */
export function decodeModify(mask: number, a: ri_qp_attr_in_t): QpModify | RiRet {
  const m = decodeModifyCommon(mask, RI_QP_ATTR_IWARP_VALID_MASK, a, 'qp_ib');
  if (typeof m === 'number') return m;
  const iw: Partial<ri_iwarp_qp_attr_t> = a.qp_xport && 'qp_iwarp' in a.qp_xport ? (a.qp_xport.qp_iwarp ?? {}) : {};
  const int = isUint;
  if (mask & RiQpAttrMask.RQ_HIWAT) {
    if (!int(iw.rq_hiwat)) return RiRet.INVALID_PARAMETER;
    m.rqHiwat = iw.rq_hiwat;
  }
  if (mask & RiQpAttrMask.RQ_ARMED) {
    if (typeof iw.rq_armed !== 'boolean') return RiRet.INVALID_PARAMETER;
    m.rqArmed = iw.rq_armed;
  }
  if (mask & RiQpAttrMask.LLQ_STREAM_HANDLE) {
    m.llp = llpHandle(iw.llp_stream_handle);
  }
  if (mask & RiQpAttrMask.STREAM_MSG_BUFFER) {
    const b = iw.stream_msg_buf;
    if (!(b instanceof Uint8Array)) return RiRet.INVALID_PARAMETER;
    const n = iw.stream_msg_buf_length ?? b.length;
    if (!Number.isInteger(n) || n < 0 || n > b.length) return RiRet.INVALID_PARAMETER;
    // Copied: the buffer is the caller's again when the call returns.
    m.streamMsg = b.slice(0, n);
  }
  if (mask & RiQpAttrMask.MPA_ATTR) {
    const p = iw.mpa_attributes;
    if (
      !p ||
      typeof p.recv_marker_enabled !== 'boolean' ||
      typeof p.xmit_marker_enabled !== 'boolean' ||
      typeof p.crc_enabled !== 'boolean' ||
      !Number.isInteger(p.ddp_rdma_version)
    ) {
      return RiRet.INVALID_PARAMETER;
    }
    m.llpAttrs = {
      recvMarkers: p.recv_marker_enabled,
      xmitMarkers: p.xmit_marker_enabled,
      crc: p.crc_enabled,
      ddpRdmapVersion: p.ddp_rdma_version,
    };
  }
  return m;
}

/** Plain connected sockets are accepted as LLP handles too (wrapped once, types.ts). */
const socketStreams = new WeakMap<Socket, LlpStream>();
function llpHandle(h: unknown): unknown {
  if (h instanceof Socket) {
    let s = socketStreams.get(h);
    if (!s) {
      s = new LlpStream(h);
      socketStreams.set(h, s);
    }
    return s;
  }
  return h ?? null;
}

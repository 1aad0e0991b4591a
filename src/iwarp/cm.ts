/**
 * iWARP connection management: listen, connect, accept, reject and socket conversion, with the
 * MPA start-up exchange (RFC 5044 §7.1, RFC 6581) between TCP establishment and RDMA mode.
 *
 * This is the connection manager the IT-API (TII `it_listen_create`, `it_ep_connect`,
 * `it_ep_accept`, `it_reject`; TDI `it_socket_convert`, IT-API §6) and the rdma_cm face both sit
 * on. RNICPI leaves everything before RDMA mode to the host stack (RNICPI 1.0 §6.1.3–6.1.4): this
 * module *is* that host stack, and a consumer of RNICPI like any other. It owns the TCP socket
 * while the stream is in streaming mode, runs the Request/Reply exchange and its negotiation (the
 * rules live in `mpa-startup.ts`), then hands the stream to the QP with `ri_qp_modify` (Idle→RTS
 * with the LLP handle, the MPA attributes, IRD, ORD and the last streaming message). It sees the
 * QP only as a {@link CmQp}: `ri_qp_query`, `ri_qp_modify` and the RNIC's attributes, never the
 * engine's objects ({@link riCmQp} builds one over an RNICPI ops vector).
 *
 * Guarantees:
 * - every attempt ends in exactly one outcome: `cmConnect` settles once; a connection request
 *   is accepted, rejected or aborted once; a listener reports a failed handshake once;
 * - every failure before RTS destroys the socket and clears its timers, and leaves the QP in
 *   Idle (Modify QP is all-or-nothing, so a failed Idle→RTS changes nothing);
 * - slow or hostile peers are bounded in time (the MPA Request timer at the Responder, 5 s, 1 s
 *   under pressure; the Reply timer at the Initiator, 10 s — siw's `MPAREQ_TIMEOUT`/
 *   `MPAREP_TIMEOUT`; a request the ULP leaves unanswered is rejected after 8 s) and in number,
 *   fairly (per source address and per listener, see {@link CM_LISTEN_LIMITS}): a listener that
 *   is full evicts its oldest half-open connection rather than refuse the newest, so a peer that
 *   opens connections and sends nothing cannot lock others out.
 *
 * {@link cmStats} counts what the CM holds (listeners, sockets, timers, connects in progress)
 * so tests can prove that nothing leaks.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import type { ri_ops_t } from '../rnicpi/ops.js';
import { RiRet } from '../rnicpi/status.js';
import { RiQpAttrMask, RiQpState, type ri_iwarp_qp_attr_t, type ri_llp_stream_handle_t, type ri_mpa_attr_t, type ri_qp_attr_in_t, type ri_qp_handle_t, type ri_rnic_handle_t } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import { type MpaEnv, mpaFromEnv } from '../util/env.js';
import { MpaEcode, TerminateError } from '../wire/errors.js';
import {
  decodeMpaReqRep,
  encodeFpdu,
  MarkerInserter,
  MPA_KEY_LEN,
  MPA_KEY_REP,
  MPA_KEY_REQ,
  MPA_RR_HEADER_LEN,
  type MpaReqRep,
  stringifyMpaReqRep,
} from '../wire/mpa.js';
import { buildTerminate, encodeTerminateMessage } from '../wire/terminate.js';
import { LlpStream, type RtrType } from './llp.js';
import {
  DEFAULT_MPA_POLICY,
  DEFAULT_RTR_PREFERENCE,
  encodeRequest,
  examineRequest,
  type IrdOrdMode,
  initiatorAgree,
  MPA_ACCEPT_TIMEOUT_MS,
  MPA_REPLY_TIMEOUT_MS,
  MPA_REQUEST_TIMEOUT_MS,
  type MpaAgreement,
  type MpaFailure,
  type MpaOffer,
  type MpaPolicy,
  type MpaRequestInfo,
  maxUserPrivateData,
  type ResponderConfig,
  rejectReply,
  responderAgree,
} from './mpa-startup.js';
import { tapSocket } from './trace.js';

const log = logger('cm');

// ---------------------------------------------------------------------------------------------
// The QP the CM connects: an RNICPI consumer's view
// ---------------------------------------------------------------------------------------------

/**
 * The MPA attributes the CM programs into a QP (RNICPI 1.0 §8 `ri_mpa_attr_t`, in the CM's
 * spelling): Marker use per direction, CRC, and the DDP/RDMAP version (1 = IETF).
 */
export interface MpaAttrs {
  recvMarkers: boolean;
  xmitMarkers: boolean;
  crc: boolean;
  ddpRdmapVersion: number;
}

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

const adapters = new WeakMap<object, CmQp>();
/** Marker support per RNIC handle, once learnt. */
const markerSupport = new WeakMap<object, boolean>();

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
  const id = first.status === RiRet.SUCCESS ? first.attrs.qp_id : -1;
  let caps: CmQpCaps | null = null;
  const a: CmQp = {
    id,
    query() {
      const r = ops.ri_qp_query(rnic, qp);
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
    },
    modify(m) {
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
      return ops.ri_qp_modify(rnic, qp, mask, attrs).status;
    },
    caps() {
      if (caps) return caps;
      const r = ops.ri_rnic_query(rnic, 0, 1 << 20);
      // Without an answer nothing can be negotiated: limits of 0 make every IRD/ORD invalid.
      if (r.status !== RiRet.SUCCESS) return { maxIrdPerQp: 0, maxOrdPerQp: 0 };
      caps = { maxIrdPerQp: r.attrs.max_ird_per_qp, maxOrdPerQp: r.attrs.max_ord_per_qp };
      return caps;
    },
    markersSupported() {
      const known = markerSupport.get(rnic as object);
      if (known !== undefined) return known;
      const q = ops.ri_qp_query(rnic, qp);
      if (q.status !== RiRet.SUCCESS || q.attrs.state !== RiQpState.IDLE || !('qp_iwarp' in q.attrs.qp_xport)) return false;
      const own = q.attrs.qp_xport.qp_iwarp.mpa_attributes;
      const probe = { recv_marker_enabled: true, xmit_marker_enabled: true, crc_enabled: own.crc_enabled, ddp_rdma_version: own.ddp_rdma_version };
      const st = ops.ri_qp_modify(rnic, qp, RiQpAttrMask.MPA_ATTR, { qp_xport: { qp_iwarp: { mpa_attributes: probe } } }).status;
      if (st === RiRet.SUCCESS) ops.ri_qp_modify(rnic, qp, RiQpAttrMask.MPA_ATTR, { qp_xport: { qp_iwarp: { mpa_attributes: own } } });
      else if (st !== RiRet.MPA_ATTR_UNSUPPORTED) return false;
      markerSupport.set(rnic as object, st === RiRet.SUCCESS);
      return st === RiRet.SUCCESS;
    },
  };
  adapters.set(qp as object, a);
  return a;
}

function riMpa(m: MpaAttrs): ri_mpa_attr_t {
  return { recv_marker_enabled: m.recvMarkers, xmit_marker_enabled: m.xmitMarkers, crc_enabled: m.crc, ddp_rdma_version: m.ddpRdmapVersion };
}

/** State names of the log lines. */
const STATE_NAMES: Record<number, string> = {
  [RiQpState.IDLE]: 'IDLE',
  [RiQpState.READY_TO_SEND]: 'RTS',
  [RiQpState.ERROR]: 'ERROR',
  [RiQpState.TERMINATE]: 'TERMINATE',
  [RiQpState.CLOSING]: 'CLOSING',
};

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/** Why a connection attempt or request ended without a connection. */
export type CmErrorKind =
  /** The peer's MPA Reply had R set (IT-API `IT_CM_MSG_CONN_PEER_REJECT_EVENT`); see `privateData`. */
  | 'rejected'
  /** The MPA Reply (Initiator) or Request (Responder) did not arrive in time. */
  | 'timeout'
  /** TCP connect refused (ECONNREFUSED). */
  | 'refused'
  /** No route, unknown host, address not available or in use: {@link CmError.socketCode} says which. */
  | 'unreachable'
  /** The peer reset the TCP connection. */
  | 'reset'
  /** The peer closed the TCP connection (FIN) during the exchange. */
  | 'closed'
  /** The peer's frame breaks RFC 5044/6581; `terminate` holds the MPA error. */
  | 'protocol'
  /** CRC or Marker negotiation refused by a policy (ours or, for a rejected conversion, theirs). */
  | 'policy'
  /** The peer speaks an MPA revision we do not (IT-API `IT_CN_REJ_BAD_CONN_PARMS`). */
  | 'bad-revision'
  /** RFC 6581 P2P: no RTR type both sides accept. */
  | 'no-matching-rtr'
  /** IRD/ORD could not be reconciled (RFC 6581 "Insufficient IRD", or strict mode). */
  | 'ird-ord'
  /** Bad arguments or a QP in the wrong state (nothing was sent). */
  | 'invalid'
  /** Cancelled through the AbortSignal (IT-API: `it_ep_disconnect` on a pending connect). */
  | 'aborted'
  /** Modify QP refused the transition; `ret` holds its status. */
  | 'qp'
  /**
   * Ended by a listener limit ({@link CM_LISTEN_LIMITS}): a half-open connection evicted for a
   * newer one, or a Request beyond the request caps (answered with an R Reply).
   */
  | 'overload';

export class CmError extends Error {
  readonly code = 'ERR_SOFTRDMA_CM';
  /** The peer's private data of a rejecting Reply. */
  readonly privateData: Uint8Array | null;
  /** The MPA error found in the peer's frame (or sent in a Terminate). */
  readonly terminate: TerminateError | null;
  /** Modify QP's status for kind `qp`. */
  readonly ret: RiRet | null;
  /** The revision the peer spoke, for kind `bad-revision`. */
  readonly revision: number | null;
  /**
   * The socket's error code when the TCP layer ended the attempt (`ENETUNREACH`,
   * `EHOSTUNREACH`, `EADDRNOTAVAIL`, `ENOTFOUND`, `EAI_AGAIN`, `EADDRINUSE`, …), kept so that the
   * faces report the real cause, as librdmacm's events carry the kernel's errno.
   */
  readonly socketCode: string | null;
  constructor(
    readonly kind: CmErrorKind,
    message: string,
    extra: { privateData?: Uint8Array; terminate?: TerminateError; ret?: RiRet; revision?: number; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'CmError';
    this.privateData = extra.privateData ?? null;
    this.terminate = extra.terminate ?? null;
    this.ret = extra.ret ?? null;
    this.revision = extra.revision ?? null;
    this.socketCode = (extra.cause as NodeJS.ErrnoException | undefined)?.code ?? null;
  }
}

function fromFailure(f: MpaFailure): CmError {
  return new CmError(f.kind, f.message, f.terminate !== null ? { terminate: TerminateError.mpa(f.terminate, f.message) } : {});
}

/** Maps a socket error to a kind (IT-API §6.6 maps these errnos to reject reasons). */
function fromSocketError(e: NodeJS.ErrnoException): CmError {
  const code = e.code ?? '';
  let kind: CmErrorKind = 'reset';
  if (code === 'ECONNREFUSED') kind = 'refused';
  else if (['EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN', 'EADDRINUSE'].includes(code)) kind = 'unreachable';
  else if (code === 'ETIMEDOUT') kind = 'timeout';
  return new CmError(kind, `TCP: ${e.message}`, { cause: e });
}

// ---------------------------------------------------------------------------------------------
// Inspection: what the CM holds right now
// ---------------------------------------------------------------------------------------------

const live = {
  listeners: new Set<CmListener>(),
  sockets: new Set<net.Socket>(),
  timers: new Set<NodeJS.Timeout>(),
  connecting: 0,
};

/** Counts of everything the CM currently holds; all zero once every connection is gone. */
export interface CmStats {
  /** Open listeners. */
  listeners: number;
  /** Sockets created or accepted by the CM (or handed to it) that are not closed yet. */
  sockets: number;
  /** CM timers armed (MPA timeouts, close grace). */
  timers: number;
  /** `cmConnect`/`cmConvertSocket` calls not settled yet. */
  connecting: number;
  /** Connection requests delivered and not yet accepted, rejected or aborted. */
  requests: number;
  /** Accepted TCP connections still waiting for their MPA Request. */
  handshakes: number;
}

export function cmStats(): CmStats {
  let requests = 0;
  let handshakes = 0;
  for (const l of live.listeners) {
    requests += l.pendingRequests;
    handshakes += l.pendingHandshakes;
  }
  for (const r of orphanRequests) if (r.state === 'pending') requests++;
  return { listeners: live.listeners.size, sockets: live.sockets.size, timers: live.timers.size, connecting: live.connecting, requests, handshakes };
}

/** Requests of listeners already closed (they stay valid, IT-API `it_listen_free`). */
const orphanRequests = new Set<CmConnectRequest>();

function track(s: net.Socket): void {
  if (live.sockets.has(s)) return;
  live.sockets.add(s);
  // A socket error must never become an uncaught exception, whoever listens at the time.
  s.on('error', (e: NodeJS.ErrnoException) => log('socket %s: %s', peerName(s), e.code ?? e.message));
  s.once('close', () => live.sockets.delete(s));
}

function startTimer(ms: number, fn: () => void): NodeJS.Timeout {
  const t = setTimeout(() => {
    live.timers.delete(t);
    fn();
  }, ms);
  t.unref?.();
  live.timers.add(t);
  return t;
}

function stopTimer(t: NodeJS.Timeout | null): void {
  if (!t) return;
  clearTimeout(t);
  live.timers.delete(t);
}

/** Abortive close (RST where Node can send one). */
function resetSocket(s: net.Socket): void {
  if (s.destroyed) return;
  if (typeof s.resetAndDestroy === 'function' && !s.connecting) s.resetAndDestroy();
  else s.destroy();
}

/** How long a socket we closed gracefully may wait for the peer's FIN before it is reset. */
export const CLOSE_GRACE_MS = 1_000;

/**
 * Writes `last` (if any), sends a FIN, and discards whatever arrives until the peer closes too;
 * after {@link CLOSE_GRACE_MS} the socket is reset, so a peer that never closes cannot hold it.
 */
function closeGracefully(s: net.Socket, last: Uint8Array | null): void {
  if (s.destroyed) return;
  if (last) {
    tapSocket(s)?.tx(last);
    s.write(last);
  }
  s.end();
  const t = startTimer(CLOSE_GRACE_MS, () => resetSocket(s));
  s.once('close', () => stopTimer(t));
  s.on('data', noop);
  s.resume();
}

function noop(): void {}

function peerName(s: net.Socket): string {
  return `${s.remoteAddress ?? '?'}:${s.remotePort ?? '?'}`;
}

// ---------------------------------------------------------------------------------------------
// Tracing
// ---------------------------------------------------------------------------------------------

/** A streaming-mode message on the wire, as a trace hook sees it (exact bytes). */
export interface CmTraceEvent {
  dir: 'tx' | 'rx';
  what: 'request' | 'reply' | 'stream-msg' | 'terminate';
  bytes: Uint8Array;
}
export type CmTrace = (ev: CmTraceEvent) => void;

// ---------------------------------------------------------------------------------------------
// Reading one Request/Reply frame
// ---------------------------------------------------------------------------------------------

interface FrameRead {
  frame: MpaReqRep;
  /** The frame's exact bytes. */
  raw: Uint8Array;
  /** Octets that followed the frame (the MPA rules allow none). */
  rest: Uint8Array;
}

function keyIs(buf: Uint8Array, key: Uint8Array): boolean {
  for (let i = 0; i < MPA_KEY_LEN; i++) if (buf[i] !== key[i]) return false;
  return true;
}

/**
 * Reads one MPA Request or Reply from a socket (RFC 5044 §7.1.1), then stops listening and
 * pauses it. Buffering is bounded by the frame format (20 + 512 octets); a wrong key or a
 * PD_Length above 512 fails as soon as the octets that show it arrive. The reader owns no
 * timer: its users bound the wait.
 */
class FrameReader {
  private buf = new Uint8Array(0);
  private done = false;
  constructor(
    private readonly socket: net.Socket,
    private readonly expect: 'request' | 'reply',
    initial: Uint8Array | null,
    private readonly cb: (r: FrameRead | CmError) => void,
  ) {
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('close', this.onClose);
    socket.on('error', this.onError);
    if (initial && initial.length > 0) queueMicrotask(() => this.onData(initial));
    socket.resume();
  }

  cancel(): void {
    if (this.done) return;
    this.done = true;
    const s = this.socket;
    s.off('data', this.onData);
    s.off('end', this.onEnd);
    s.off('close', this.onClose);
    s.off('error', this.onError);
    s.pause();
  }

  private finish(r: FrameRead | CmError): void {
    if (this.done) return;
    this.cancel();
    this.cb(r);
  }

  private readonly onData = (chunk: Uint8Array): void => {
    if (this.done) return;
    tapSocket(this.socket)?.rx(chunk);
    const joined = new Uint8Array(this.buf.length + chunk.length);
    joined.set(this.buf, 0);
    joined.set(chunk, this.buf.length);
    this.buf = joined;
    const b = this.buf;
    // An unsupported revision is told apart from garbage: it gets a Reply (RFC 5044 §7.1.1).
    if (b.length >= MPA_RR_HEADER_LEN && keyIs(b, this.expect === 'request' ? MPA_KEY_REQ : MPA_KEY_REP)) {
      const rev = b[17]!;
      if (rev !== 1 && rev !== 2) {
        this.finish(
          new CmError('bad-revision', `MPA revision ${rev} is not supported`, {
            terminate: TerminateError.mpa(MpaEcode.InvalidRequestReply, `revision ${rev}`),
            revision: rev,
          }),
        );
        return;
      }
    }
    let r: ReturnType<typeof decodeMpaReqRep>;
    try {
      r = decodeMpaReqRep(b, this.expect);
    } catch (e) {
      const t = e instanceof TerminateError ? e : TerminateError.mpa(MpaEcode.InvalidRequestReply, String(e));
      this.finish(new CmError('protocol', `invalid MPA ${this.expect}: ${t.message}`, { terminate: t }));
      return;
    }
    if (r.status === 'frame') this.finish({ frame: r.frame, raw: b.slice(0, r.consumed), rest: b.slice(r.consumed) });
  };
  private readonly onEnd = (): void => this.finish(new CmError('closed', `peer closed before the MPA ${this.expect}`));
  private readonly onClose = (): void => this.finish(new CmError('closed', `connection closed before the MPA ${this.expect}`));
  private readonly onError = (e: NodeJS.ErrnoException): void => this.finish(fromSocketError(e));
}

// ---------------------------------------------------------------------------------------------
// Parameters
// ---------------------------------------------------------------------------------------------

/** MPA parameters of one side of a start-up exchange. */
export interface CmMpaParams {
  /** Revision of the Request, or the highest accepted by a Responder: 1 or 2 (default 2). */
  revision?: 1 | 2;
  /** CRC and Marker policy (default {@link DEFAULT_MPA_POLICY}). */
  policy?: Partial<MpaPolicy>;
  /** IRD/ORD resolution (default `relaxed`). */
  irdOrd?: IrdOrdMode;
  /** IRD/ORD to advertise and negotiate from (default: the QP's). */
  ird?: number;
  ord?: number;
  /**
   * Initiator, RFC 6581 peer-to-peer mode: the RTR types offered; `true` offers Write and Read
   * (as siw does). Revision 2 only.
   */
  p2p?: boolean | readonly RtrType[];
  /** Responder: the RTR type preference (default Write, Read, Send). */
  rtrPreference?: readonly RtrType[];
  /** ULP private data: ≤ 512 octets at revision 1, ≤ 508 at revision 2. */
  privateData?: Uint8Array;
  /** Sees every streaming-mode message sent or received, with its exact bytes. */
  trace?: CmTrace;
  /**
   * Offer (Initiator) or accept (Responder) softrdma's RDMAP extensions: RFC 7306 atomics and
   * Immediate Data, agreed through a reserved MPA bit that other peers ignore (default true).
   */
  rdmapExt?: boolean;
}

/**
 * How long an active connection is held back from its ULP after the MPA Reply, for consumer faces
 * that talk to Linux: siw's Responder sends its Reply before it hands the socket to the QP, and an
 * FPDU arriving in between (≈12 ms under emulation) is left unread (docs/spec-notes.md, "Interop
 * with Linux siw"). Kernel rdma_cm clients are slow enough never to hit it; a ULP told at once is
 * not. rdma_cm and IT-API pass this as {@link CmConnectParams.settleMs}.
 */
export const ACTIVE_SETTLE_MS = 50;

export interface CmConnectParams extends CmMpaParams {
  /**
   * Resolve this many ms after the QP reached RTS (default 0: at once, as RFC 5044 allows). The
   * QP already receives meanwhile; only the ULP's first post waits. See {@link ACTIVE_SETTLE_MS}.
   */
  settleMs?: number;
  /** Bounds the whole attempt, TCP connect through MPA Reply (default 10 s, siw's `MPAREP_TIMEOUT`). */
  timeoutMs?: number;
  localAddress?: string;
  localPort?: number;
  /** Aborts the attempt (IT-API: `it_ep_disconnect` on an EP in a connection-pending state). */
  signal?: AbortSignal;
}

const EMPTY = new Uint8Array(0);

/** What `SOFTRDMA_MPA` can set. */
export type CmEnvParams = Pick<CmConnectParams, 'revision' | 'policy' | 'p2p' | 'rtrPreference' | 'settleMs'> & Pick<Partial<CmListenLimits>, 'acceptTimeoutMs'>;

/**
 * MPA start-up settings from the environment, `SOFTRDMA_MPA="crc=require p2p=write,read rev=2"`:
 * the host-wide switches Linux siw has as module parameters (`mpa_crc_required`,
 * `peer_to_peer`, `mpa_version`), for consumers that cannot pass {@link CmMpaParams} themselves
 * (rdma_cm programs such as `softrdma rping` and `softrdma perf`). Keys, separated by spaces or
 * semicolons:
 * - `crc=never|allow|require` and `markers=refuse|allow|require` ({@link MpaPolicy});
 * - `rev=1|2`: the Request's revision, or the highest a Responder accepts;
 * - `p2p=none|write,read,send`: the RTR types an Initiator offers (RFC 6581 §4) and, in that
 *   order, a Responder's preference;
 * - `settle=MS`: {@link CmConnectParams.settleMs} (rdma_cm's default: {@link ACTIVE_SETTLE_MS});
 * - `accept=MS`: a listener's {@link CmListenLimits.acceptTimeoutMs}, how long a connection
 *   request may wait for `rdma_accept`/`rdma_reject` before the CM rejects it (0: no limit).
 * Parsed by the environment module (`mpaFromEnv`); throws a {@link CmError} (`invalid`) naming
 * the bad key, so a typo never goes unnoticed.
 */
export function cmParamsFromEnv(value?: string): CmEnvParams {
  let e: MpaEnv;
  try {
    e = mpaFromEnv(value?.trim());
  } catch (err) {
    throw new CmError('invalid', (err as Error).message);
  }
  const out: CmEnvParams = {};
  const policy: Partial<MpaPolicy> = {};
  if (e.crc !== undefined) policy.crc = e.crc;
  if (e.markers !== undefined) policy.markers = e.markers;
  if (e.revision !== undefined) out.revision = e.revision;
  if (e.settleMs !== undefined) out.settleMs = e.settleMs;
  if (e.acceptTimeoutMs !== undefined) out.acceptTimeoutMs = e.acceptTimeoutMs;
  if (e.p2p === false) out.p2p = false;
  else if (e.p2p !== undefined) {
    out.p2p = e.p2p as RtrType[];
    out.rtrPreference = e.p2p as RtrType[];
  }
  if (Object.keys(policy).length > 0) out.policy = policy;
  return out;
}

function policyOf(p: Partial<MpaPolicy> | undefined): MpaPolicy {
  return { ...DEFAULT_MPA_POLICY, ...p };
}

/**
 * A connection needs an Idle QP without a stream (RNICPI 1.0 §6.1.4: the LLP handle is given on
 * the Idle→RTS modify); returns what `ri_qp_query` told.
 */
function checkQpIdle(qp: CmQp): CmQpInfo {
  const q = qp.query();
  if (!q) throw new CmError('invalid', `QP[${qp.id}] is destroyed`);
  if (q.state !== RiQpState.IDLE || q.llpAttached) {
    throw new CmError('invalid', `QP[${qp.id}] is ${STATE_NAMES[q.state]}; connection needs Idle`);
  }
  if (busy.has(qp)) throw new CmError('invalid', `QP[${qp.id}] is already connecting`);
  return q;
}

/** QPs with a connect or conversion in progress. */
const busy = new WeakSet<CmQp>();

/**
 * The Initiator's Request, from parameters and the QP (validated: nothing is sent on error);
 * `markers` tells whether the RNIC can use Markers, asked while the QP is known to be Idle.
 */
function makeOffer(qp: CmQp, p: CmMpaParams): { offer: MpaOffer; policy: MpaPolicy; markers: boolean } {
  const policy = policyOf(p.policy);
  const revision = p.revision ?? 2;
  if (revision !== 1 && revision !== 2) throw new CmError('invalid', `MPA revision ${revision}; 1 or 2`);
  let p2p: RtrType[] | null = null;
  if (p.p2p) {
    p2p = p.p2p === true ? ['write', 'read'] : [...new Set(p.p2p)];
    if (p2p.length === 0) throw new CmError('invalid', 'P2P needs at least one RTR type');
    if (revision !== 2) throw new CmError('invalid', 'P2P (RFC 6581) needs MPA revision 2');
  }
  const privateData = p.privateData ?? EMPTY;
  if (privateData.length > maxUserPrivateData(revision === 2)) {
    throw new CmError('invalid', `private data of ${privateData.length} octets; at most ${maxUserPrivateData(revision === 2)} at revision ${revision}`);
  }
  const lim = qp.caps();
  const q = qp.query();
  const ird = p.ird ?? q?.ird ?? 0;
  let ord = p.ord ?? q?.ord ?? 0;
  if (!Number.isInteger(ird) || ird < 0 || ird > lim.maxIrdPerQp) throw new CmError('invalid', `IRD ${ird} outside 0..${lim.maxIrdPerQp}`);
  if (!Number.isInteger(ord) || ord < 0 || ord > lim.maxOrdPerQp) throw new CmError('invalid', `ORD ${ord} outside 0..${lim.maxOrdPerQp}`);
  // A zero-length Read RTR needs an outbound Read slot; siw bumps ORD to 1 in P2P mode too.
  if (p2p?.includes('read') && ord === 0) ord = 1;
  const markers = policy.markers !== 'refuse' && qp.markersSupported();
  if (policy.markers === 'require' && !markers) throw new CmError('invalid', 'this RNIC has no Marker support');
  return {
    offer: { revision, crc: policy.crc === 'require', markers: policy.markers === 'require', ird, ord, p2p, privateData, rdmapExt: p.rdmapExt ?? true },
    policy,
    markers,
  };
}

// ---------------------------------------------------------------------------------------------
// Established connections
// ---------------------------------------------------------------------------------------------

/** How the connection was made. */
export type CmRole = 'active' | 'passive';

/**
 * One connection in RDMA mode. The QP owns the stream from here on (RNICPI Ch. 6.1.5); this
 * object reports when the TCP connection is finally closed (event `close`, exactly once) and
 * offers the three ways to end it, all of which are QP state changes (Verbs §6.2).
 */
export class CmConnection extends EventEmitter {
  /** True once the TCP connection is closed. */
  closed = false;
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly localAddress: string;
  readonly localPort: number;
  constructor(
    readonly qp: CmQp,
    readonly socket: net.Socket,
    readonly role: CmRole,
    /** What was negotiated (null for a conversion without MPA start-up). */
    readonly agreement: MpaAgreement | null,
    /** The peer's ULP private data (without the RFC 6581 word). */
    readonly peerPrivateData: Uint8Array,
  ) {
    super();
    this.remoteAddress = socket.remoteAddress ?? '';
    this.remotePort = socket.remotePort ?? 0;
    this.localAddress = socket.localAddress ?? '';
    this.localPort = socket.localPort ?? 0;
    if (socket.destroyed) queueMicrotask(() => this.onClose());
    else socket.once('close', () => this.onClose());
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    const q = this.qp.query();
    log('QP[%d] %s connection %s:%d closed (QP %s)', this.qp.id, this.role, this.remoteAddress, this.remotePort, q ? STATE_NAMES[q.state] : 'destroyed');
    this.emit('close');
  }

  /**
   * Ends the connection through the QP: `graceful` (RTS→Closing: FIN once the queues are empty,
   * Verbs §6.2 T6), `terminate` (RTS→Terminate: a Terminate message, then close, T8) or
   * `abortive` (→Error: RST and flush, T12). Returns Modify QP's status.
   */
  disconnect(how: 'graceful' | 'terminate' | 'abortive' = 'graceful'): RiRet {
    const next = how === 'graceful' ? RiQpState.CLOSING : how === 'terminate' ? RiQpState.TERMINATE : RiQpState.ERROR;
    return this.qp.modify({ nextState: next });
  }
}

/** Idle→RTS with the agreed attributes; returns Modify QP's status. */
function toRts(qp: CmQp, stream: LlpStream, mpa: MpaAttrs, ird: number | null, ord: number | null, streamMsg?: Uint8Array): RiRet {
  const m: CmQpModify = { nextState: RiQpState.READY_TO_SEND, llp: stream, mpa };
  if (ird !== null) m.ird = ird;
  if (ord !== null) m.ord = ord;
  if (streamMsg) m.streamMsg = streamMsg;
  return qp.modify(m);
}

/**
 * Sends a Terminate message carrying an MPA error in FPDU form (RFC 6581 §9.2: the Initiator
 * reports "Insufficient IRD" or "No Matching RTR" this way once it has a Reply), honouring the
 * CRC and Marker settings the Reply established.
 */
function sendRawTerminate(s: net.Socket, ecode: MpaEcode, mpa: MpaAttrs, trace?: CmTrace): void {
  const ulpdu = encodeTerminateMessage(buildTerminate(TerminateError.mpa(ecode)), 1);
  let bytes: Uint8Array;
  if (mpa.xmitMarkers) {
    const parts = new MarkerInserter(0).frame([ulpdu], mpa.crc);
    bytes = Buffer.concat(parts);
  } else {
    bytes = encodeFpdu(ulpdu, { crc: mpa.crc });
  }
  trace?.({ dir: 'tx', what: 'terminate', bytes });
  tapSocket(s)?.tx(bytes);
  s.write(bytes);
}

// ---------------------------------------------------------------------------------------------
// Initiator
// ---------------------------------------------------------------------------------------------

interface InitiatorRun {
  cancel(): void;
}

/**
 * The Initiator's half on a connected socket: Request out, Reply in, negotiation, Idle→RTS
 * (RFC 5044 §7.1.2, RFC 6581 §9). `done` is called exactly once, unless cancelled. On failure
 * the caller disposes of the socket (`graceful` asks for a FIN after a Terminate).
 */
function runInitiator(
  qp: CmQp,
  socket: net.Socket,
  offer: MpaOffer,
  policy: MpaPolicy,
  markers: boolean,
  irdOrd: IrdOrdMode,
  initial: Uint8Array | null,
  trace: CmTrace | undefined,
  role: CmRole,
  done: (err: CmError | null, conn: CmConnection | null, graceful?: boolean) => void,
): InitiatorRun {
  socket.setNoDelay(true);
  const req = encodeRequest(offer);
  trace?.({ dir: 'tx', what: 'request', bytes: req });
  tapSocket(socket, 'active')?.tx(req);
  socket.write(req);
  if (log.enabled) log('QP[%d] → %s: %s', qp.id, peerName(socket), stringifyMpaReqRep(decodeFrame(req)));
  const reader = new FrameReader(socket, 'reply', initial, (r) => {
    if (r instanceof CmError) {
      done(r, null);
      return;
    }
    trace?.({ dir: 'rx', what: 'reply', bytes: r.raw });
    if (log.enabled) log('QP[%d] ← %s: %s', qp.id, peerName(socket), stringifyMpaReqRep(r.frame));
    if (r.frame.reject) {
      const pd = r.frame.revision === 2 && r.frame.enhanced ? r.frame.privateData.subarray(4) : r.frame.privateData;
      done(new CmError('rejected', 'the peer rejected the connection', { privateData: pd.slice() }), null);
      return;
    }
    const a = initiatorAgree(offer, r.frame, { policy, irdOrd, maxIrd: qp.caps().maxIrdPerQp });
    if (!a.ok) {
      if (a.failure.terminate !== null) {
        // The Reply was valid, so the stream is in FPDU mode: report the error in a Terminate.
        const mpa: MpaAttrs = { crc: offer.crc || r.frame.crc, recvMarkers: offer.markers, xmitMarkers: r.frame.markers, ddpRdmapVersion: 1 };
        sendRawTerminate(socket, a.failure.terminate, mpa, trace);
        done(fromFailure(a.failure), null, true);
      } else {
        done(fromFailure(a.failure), null);
      }
      return;
    }
    const ag = a.agreement;
    // RFC 5044 §7.1.2 wants the Responder silent until our first FPDU. Linux siw does not wait
    // when no RTR was agreed (perftest's ib_write_lat server writes first), so octets after the
    // Reply are taken as FPDUs; in P2P mode they are an error, the Responder must await our RTR.
    if (r.rest.length > 0 && ag.rtr) {
      done(
        new CmError('protocol', 'FPDU octets after the MPA Reply, before our RTR', {
          terminate: TerminateError.mpa(MpaEcode.InvalidRequestReply, 'data after the Reply'),
        }),
        null,
      );
      return;
    }
    if ((ag.mpa.recvMarkers || ag.mpa.xmitMarkers) && !markers) {
      done(new CmError('policy', 'the peer requires Markers; this RNIC has none'), null);
      return;
    }
    const now = qp.query();
    if (now === null || now.state !== RiQpState.IDLE) {
      done(new CmError('invalid', `QP[${qp.id}] left Idle during the MPA exchange`), null);
      return;
    }
    const stream = new LlpStream(socket, { sendRtr: ag.rtr, pending: r.rest.length > 0 ? r.rest : null, rdmapExt: ag.rdmapExt });
    const ret = toRts(qp, stream, ag.mpa, ag.ird, ag.ord);
    if (ret !== RiRet.SUCCESS) {
      done(new CmError('qp', `Modify QP to RTS failed: ${RiRet[ret]}`, { ret }), null);
      return;
    }
    if (log.enabled) {
      const q = qp.query();
      log('QP[%d] RTS (active) crc=%d markers rx=%d tx=%d ird=%d ord=%d rtr=%s', qp.id, +ag.mpa.crc, +ag.mpa.recvMarkers, +ag.mpa.xmitMarkers, q?.ird, q?.ord, ag.rtr ?? '-');
    }
    done(null, new CmConnection(qp, socket, role, ag, a.privateData.slice()));
  });
  return { cancel: () => reader.cancel() };
}

function decodeFrame(b: Uint8Array): MpaReqRep {
  const r = decodeMpaReqRep(b);
  if (r.status !== 'frame') throw new Error('incomplete frame');
  return r.frame;
}

/**
 * Active connection establishment (IT-API `it_ep_connect`, RFC 5044 §7.1.2 Initiator): TCP
 * connect to `host:port`, MPA Request with the parameters, wait for the Reply, negotiate, and
 * move `qp` (which must be Idle) to RTS. Resolves with the connection once the QP is in RTS (in
 * P2P mode the RTR has been queued as its first FPDU); rejects with a {@link CmError} — kind
 * `rejected` carries the peer's private data. The QP stays Idle on every failure.
 */
export async function cmConnect(qp: CmQp, host: string, port: number, params: CmConnectParams = {}): Promise<CmConnection> {
  const conn = await establish(qp, host, port, params);
  if (params.settleMs && params.settleMs > 0) await new Promise((r) => setTimeout(r, params.settleMs));
  return conn;
}

async function establish(qp: CmQp, host: string, port: number, params: CmConnectParams): Promise<CmConnection> {
  checkQpIdle(qp);
  const { offer, policy, markers } = makeOffer(qp, params);
  const irdOrd = params.irdOrd ?? 'relaxed';
  const timeoutMs = params.timeoutMs ?? MPA_REPLY_TIMEOUT_MS;
  const signal = params.signal;
  if (signal?.aborted) throw new CmError('aborted', 'aborted before the connect');
  return new Promise<CmConnection>((resolve, reject) => {
    busy.add(qp);
    live.connecting++;
    const opts: net.NetConnectOpts = { host, port, allowHalfOpen: true };
    if (params.localAddress) opts.localAddress = params.localAddress;
    if (params.localPort) opts.localPort = params.localPort;
    const socket = net.connect(opts);
    track(socket);
    let settled = false;
    let run: InitiatorRun | null = null;
    const finish = (err: CmError | null, conn: CmConnection | null, graceful = false): void => {
      if (settled) return;
      settled = true;
      stopTimer(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.off('connect', onConnect);
      socket.off('error', onConnectError);
      run?.cancel();
      busy.delete(qp);
      live.connecting--;
      if (err) {
        log('QP[%d] connect to %s:%d failed: %s (%s)', qp.id, host, port, err.kind, err.message);
        if (graceful) closeGracefully(socket, null);
        else resetSocket(socket);
        reject(err);
      } else {
        resolve(conn!);
      }
    };
    const onConnectError = (e: NodeJS.ErrnoException): void => finish(fromSocketError(e), null);
    const onAbort = (): void => finish(new CmError('aborted', 'connect aborted'), null);
    const onConnect = (): void => {
      socket.off('error', onConnectError);
      run = runInitiator(qp, socket, offer, policy, markers, irdOrd, null, params.trace, 'active', finish);
    };
    const timer = startTimer(timeoutMs, () => finish(new CmError('timeout', `no MPA Reply from ${host}:${port} within ${timeoutMs} ms`), null));
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', onConnect);
    socket.on('error', onConnectError);
  });
}

// ---------------------------------------------------------------------------------------------
// Responder: listener and connection requests
// ---------------------------------------------------------------------------------------------

export interface CmListenOptions extends Omit<CmMpaParams, 'p2p' | 'privateData' | 'ird' | 'ord'>, Partial<CmListenLimits> {
  /** Address to bind (default all). */
  host?: string;
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
}

/**
 * A listener's bounds on what peers can make it hold before the ULP has a connection: time,
 * number per listener and number per source address. One row per limit; the defaults are
 * {@link cmListenDefaults} (changeable process-wide with {@link setCmListenDefaults}), each
 * overridable per listener in {@link CmListenOptions}.
 *
 * A *half-open* connection is a TCP connection whose MPA Request is not complete yet (RFC 5044
 * §7.1.2: the Responder waits for it); a *request* is a valid Request delivered to the ULP and
 * not yet accepted or rejected.
 */
export interface CmListenLimits {
  /** TCP accept queue (`listen(2)` backlog; Linux caps it at `net.core.somaxconn`). */
  backlog: number;
  /** How long a half-open connection may take to complete its Request (siw's `MPAREQ_TIMEOUT`). */
  requestTimeoutMs: number;
  /**
   * How long a delivered request may wait for accept/reject before the CM rejects it (an MPA
   * Reply with R, then a FIN); 0 = no limit.
   */
  acceptTimeoutMs: number;
  /**
   * Half-open connections per listener. Newcomers are always admitted; above the cap the oldest
   * are evicted once older than `evictGraceMs` (a newcomer's Request has been read by then).
   */
  maxHalfOpen: number;
  /** Half-open connections per source address (IPv4 address, IPv6 /64); above it that source's oldest are evicted. */
  maxHalfOpenPerSource: number;
  /**
   * How old a half-open connection must be before it can be evicted for a newer one: a real
   * Initiator's Request has arrived by then. Twice the caps, the oldest go at once.
   */
  evictGraceMs: number;
  /**
   * Under pressure (half-open connections at half of `maxHalfOpen` or more), the Request timeout
   * of new half-open connections, and the age beyond which older ones are dropped.
   */
  pressureTimeoutMs: number;
  /** Delivered requests per listener; one more is refused with an R Reply. */
  maxRequests: number;
  /** Delivered requests per source address; one more is refused with an R Reply. */
  maxRequestsPerSource: number;
}

/**
 * The listener limits, their defaults and why (docs/spec-notes.md, "Timers and hostile peers").
 * A rule table: the listener reads the values from here; the docs list the same rows.
 */
export const CM_LISTEN_LIMITS: Readonly<Record<keyof CmListenLimits, { readonly default: number; readonly why: string }>> = Object.freeze({
  backlog: { default: 511, why: "a server's TCP accept queue (Node's and nginx's default), not rping's 3: bursts of legitimate clients must fit" },
  requestTimeoutMs: { default: MPA_REQUEST_TIMEOUT_MS, why: "siw's MPAREQ_TIMEOUT" },
  acceptTimeoutMs: { default: MPA_ACCEPT_TIMEOUT_MS, why: 'below the Initiator\'s 10 s Reply timer (siw MPAREP_TIMEOUT), so the peer learns of the refusal' },
  maxHalfOpen: { default: 1024, why: 'idle sockets are cheap; eviction by age makes room, so the cap only bounds memory' },
  maxHalfOpenPerSource: { default: 32, why: 'one address cannot fill the listener (it holds at most 64 of 1024 for a moment), and a host opening a few dozen connections at once is served' },
  evictGraceMs: { default: 250, why: 'a Request trails its TCP handshake by one flight and an event-loop turn, far less than this' },
  pressureTimeoutMs: { default: 1_000, why: 'a real Initiator sends its Request right after TCP connect' },
  maxRequests: { default: 1024, why: 'what a ULP that answers at once never reaches' },
  maxRequestsPerSource: { default: 128, why: 'one address cannot fill the ULP\'s queue; above perf\'s 64 QPs + 1' },
});

const listenDefaults: CmListenLimits = Object.fromEntries(Object.entries(CM_LISTEN_LIMITS).map(([k, v]) => [k, v.default])) as unknown as CmListenLimits;

/** The listener limits a new listener starts from (see {@link CM_LISTEN_LIMITS}). */
export function cmListenDefaults(): Readonly<CmListenLimits> {
  return { ...listenDefaults };
}

/**
 * Changes the process-wide defaults of later listeners (existing ones keep theirs); returns
 * the previous defaults. Values must be non-negative integers; the caps and `backlog` at least 1.
 */
export function setCmListenDefaults(limits: Partial<CmListenLimits>): CmListenLimits {
  const prev = { ...listenDefaults };
  const next = checkLimits({ ...listenDefaults, ...limits });
  Object.assign(listenDefaults, next);
  return prev;
}

/** Validates limits (throws `invalid`): non-negative integers, caps and backlog ≥ 1. */
function checkLimits(l: CmListenLimits): CmListenLimits {
  for (const k of Object.keys(CM_LISTEN_LIMITS) as (keyof CmListenLimits)[]) {
    const v = l[k];
    const min = k.endsWith('Ms') ? 0 : 1;
    if (!Number.isSafeInteger(v) || v < min) throw new CmError('invalid', `listener limit ${k} = ${String(v)}; an integer ≥ ${min}`);
  }
  if (l.requestTimeoutMs === 0 || l.pressureTimeoutMs === 0) throw new CmError('invalid', 'the Request timeouts must be above 0');
  return l;
}

/**
 * The address a per-source cap counts by: an IPv4 address (IPv4-mapped IPv6 included) as is,
 * an IPv6 address by its /64 prefix, since one host commonly owns a whole /64 (RFC 4291 §2.5.1
 * interface identifiers are 64 bits).
 */
export function sourceKey(address: string): string {
  const a = address.toLowerCase();
  if (a.startsWith('::ffff:') && a.includes('.')) return a.slice(7);
  if (!a.includes(':')) return a;
  const [head = '', tail] = a.split('%')[0]!.split('::');
  const hs = head ? head.split(':') : [];
  const ts = tail ? tail.split(':') : [];
  const groups = tail === undefined ? hs : [...hs, ...Array<string>(Math.max(0, 8 - hs.length - ts.length)).fill('0'), ...ts];
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g || '0', 16) || 0).toString(16))
    .join(':')}::/64`;
}

/** A handshake that failed before (or instead of) a connection request. */
export interface CmFailure {
  kind: CmErrorKind;
  error: CmError;
  remoteAddress: string;
  remotePort: number;
}

const peers = new WeakMap<net.Socket, { remoteAddress: string; remotePort: number }>();

interface Handshake {
  socket: net.Socket;
  reader: FrameReader | null;
  timer: NodeJS.Timeout | null;
  /** {@link sourceKey} of the peer. */
  source: string;
  /** `performance.now()` at TCP accept: the age the pressure timeout and eviction go by. */
  born: number;
}

/** What one source address holds at a listener (the entry is dropped when it holds nothing). */
interface SourceUse {
  /** Its half-open connections, oldest first. */
  halfOpen: Set<Handshake>;
  /** Its delivered, unanswered requests. */
  requests: number;
}

/**
 * A passive endpoint (IT-API `it_listen_create`; RFC 5044 §7.1.2 Responder): accepts TCP
 * connections, reads and validates each MPA Request, and emits one `request` event
 * ({@link CmConnectRequest}) per valid Request for the ULP to accept or reject. Handshakes that
 * fail are answered as RFC 5044 asks (a Reply with R for an unsupported revision or a refused
 * policy; a reset for anything that is not MPA) and reported once as a `failure` event.
 *
 * What peers can make it hold is bounded fairly ({@link CM_LISTEN_LIMITS}): per source address
 * and per listener, in time, with the oldest half-open connection evicted rather than the newest
 * refused, so that legitimate Initiators, which send their Request at once, keep being served.
 */
export class CmListener extends EventEmitter {
  readonly server: net.Server;
  readonly cfg: ResponderConfig;
  /** The limits this listener runs with. */
  readonly limits: Readonly<CmListenLimits>;
  readonly trace: CmTrace | undefined;
  private closed = false;
  /** Half-open connections, oldest first (a Set keeps insertion order). */
  private readonly handshakes = new Set<Handshake>();
  private readonly sources = new Map<string, SourceUse>();
  /** Sources above `maxHalfOpenPerSource`, for the next trim. */
  private readonly crowded = new Set<string>();
  private trimTimer: NodeJS.Timeout | null = null;
  /** @internal delivered, unanswered requests */
  readonly requests = new Set<CmConnectRequest>();
  /**
   * `evicted`: half-open connections dropped for newer ones (per source or per listener) or by
   * the pressure timeout; `expired`: requests the ULP left unanswered past `acceptTimeoutMs`;
   * `refused`: Requests beyond the request caps; `dropped`: connections arriving while closing.
   */
  readonly stats = { connections: 0, requests: 0, accepted: 0, rejected: 0, aborted: 0, failed: 0, dropped: 0, evicted: 0, expired: 0, refused: 0 };

  private constructor(opts: CmListenOptions) {
    super();
    this.cfg = {
      revision: opts.revision ?? 2,
      policy: policyOf(opts.policy),
      rtrPreference: opts.rtrPreference ?? DEFAULT_RTR_PREFERENCE,
      irdOrd: opts.irdOrd ?? 'relaxed',
      rdmapExt: opts.rdmapExt ?? true,
    };
    const limits = { ...listenDefaults };
    for (const k of Object.keys(CM_LISTEN_LIMITS) as (keyof CmListenLimits)[]) {
      const v = opts[k];
      if (v !== undefined) limits[k] = v;
    }
    this.limits = Object.freeze(checkLimits(limits));
    this.trace = opts.trace;
    // Half-open must stay possible for the QP (a Terminate may follow the peer's FIN), and the
    // socket must not be read by anyone before the MPA reader is in place.
    this.server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }, (s) => this.onConnection(s));
  }

  /** How long a half-open connection may take to complete its Request (outside pressure). */
  get requestTimeoutMs(): number {
    return this.limits.requestTimeoutMs;
  }
  /** How long a delivered request may wait for the ULP (0: no limit). */
  get acceptTimeoutMs(): number {
    return this.limits.acceptTimeoutMs;
  }

  /** Opens a listener; resolves once it is bound. */
  static listen(opts: CmListenOptions = {}): Promise<CmListener> {
    const l = new CmListener(opts);
    return new Promise((resolve, reject) => {
      const onErr = (e: Error): void => reject(new CmError('invalid', `listen: ${e.message}`, { cause: e }));
      l.server.once('error', onErr);
      l.server.listen({ host: opts.host, port: opts.port ?? 0, backlog: l.limits.backlog }, () => {
        l.server.off('error', onErr);
        l.server.on('error', (e) => log('listener error: %s', e.message));
        live.listeners.add(l);
        log('listening on %s:%d', opts.host ?? '*', l.port);
        resolve(l);
      });
    });
  }

  /**
   * Opens a listener synchronously on all local addresses, for callers that must answer at once
   * (IT-API `it_listen_create` reports `IT_ERR_CONN_QUAL_BUSY` or the chosen port on return).
   * Without a host Node binds without a name lookup, so the outcome is known on return: the
   * listener, or null when the port cannot be bound (in use or not permitted).
   */
  static listenSync(opts: Omit<CmListenOptions, 'host'> = {}): CmListener | null {
    const l = new CmListener(opts);
    // A failed bind is also emitted as an 'error' on the next tick: keep it from being uncaught.
    l.server.on('error', (e) => log('listener error: %s', e.message));
    l.server.listen({ port: opts.port ?? 0, backlog: l.limits.backlog });
    if (l.server.address() === null) return null;
    live.listeners.add(l);
    log('listening on *:%d', l.port);
    return l;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo | null)?.port ?? 0;
  }
  get pendingHandshakes(): number {
    return this.handshakes.size;
  }
  get pendingRequests(): number {
    return this.requests.size;
  }
  /** Half-open connections and delivered requests of one source address ({@link sourceKey}). */
  heldBy(address: string): { halfOpen: number; requests: number } {
    const u = this.sources.get(sourceKey(address));
    return { halfOpen: u?.halfOpen.size ?? 0, requests: u?.requests ?? 0 };
  }
  /** Source addresses holding anything right now. */
  get sourceCount(): number {
    return this.sources.size;
  }

  /**
   * Stops listening (IT-API `it_listen_free`): handshakes still waiting for their Request are
   * reset; requests already delivered stay valid for accept/reject.
   */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    live.listeners.delete(this);
    for (const r of this.requests) orphanRequests.add(r);
    for (const h of [...this.handshakes]) this.endHandshake(h, null);
    stopTimer(this.trimTimer);
    this.trimTimer = null;
    return new Promise((resolve) => {
      // The listening handle closes now; 'close' waits for accepted sockets, which QPs own.
      this.server.close();
      setImmediate(resolve);
    });
  }

  private fail(s: net.Socket, err: CmError): void {
    this.stats.failed++;
    // Addresses are read before the socket is destroyed (Node forgets them afterwards).
    const who = peers.get(s) ?? { remoteAddress: s.remoteAddress ?? '', remotePort: s.remotePort ?? 0 };
    log('handshake from %s:%d failed: %s (%s)', who.remoteAddress, who.remotePort, err.kind, err.message);
    const f: CmFailure = { kind: err.kind, error: err, ...who };
    this.emit('failure', f);
  }

  private use(source: string): SourceUse {
    let u = this.sources.get(source);
    if (!u) {
      u = { halfOpen: new Set(), requests: 0 };
      this.sources.set(source, u);
    }
    return u;
  }

  private release(source: string): void {
    const u = this.sources.get(source);
    if (u && u.halfOpen.size === 0 && u.requests === 0) this.sources.delete(source);
  }

  /** @internal a delivered request of `source` was answered, expired or aborted */
  requestSettled(r: CmConnectRequest): void {
    if (!this.requests.delete(r)) return;
    const u = this.sources.get(r.source);
    if (u) {
      u.requests--;
      this.release(r.source);
    }
  }

  private endHandshake(h: Handshake, next: 'keep' | null): void {
    if (!this.handshakes.delete(h)) return;
    this.sources.get(h.source)?.halfOpen.delete(h);
    this.release(h.source);
    stopTimer(h.timer);
    h.reader?.cancel();
    if (next === null) resetSocket(h.socket);
  }

  /** Drops a half-open connection to make room (reset, reported as `overload` or `timeout`). */
  private evict(h: Handshake, err: CmError): void {
    this.stats.evicted++;
    this.endHandshake(h, null);
    this.fail(h.socket, err);
  }

  private onConnection(s: net.Socket): void {
    track(s);
    const remoteAddress = s.remoteAddress ?? '';
    peers.set(s, { remoteAddress, remotePort: s.remotePort ?? 0 });
    this.stats.connections++;
    if (this.closed) {
      this.stats.dropped++;
      this.fail(s, new CmError('overload', 'the listener is closing'));
      resetSocket(s);
      return;
    }
    const lim = this.limits;
    const source = sourceKey(remoteAddress);
    const use = this.use(source);
    const now = performance.now();
    // Under pressure a new half-open connection gets the short Request timeout.
    const pressure = this.handshakes.size >= Math.ceil(lim.maxHalfOpen / 2);
    s.setNoDelay(true);
    const h: Handshake = { socket: s, reader: null, timer: null, source, born: now };
    this.handshakes.add(h);
    use.halfOpen.add(h);
    const ms = pressure ? lim.pressureTimeoutMs : lim.requestTimeoutMs;
    h.timer = startTimer(ms, () => {
      h.timer = null;
      this.endHandshake(h, null);
      this.fail(s, new CmError('timeout', `no MPA Request within ${ms} ms`));
    });
    h.reader = new FrameReader(s, 'request', null, (r) => this.onRequest(h, r));
    // Hard ceilings (twice the caps): beyond them the oldest go at once, whatever their age.
    while (use.halfOpen.size > 2 * lim.maxHalfOpenPerSource) {
      this.evict(use.halfOpen.values().next().value as Handshake, new CmError('overload', `evicted: ${source} holds ${2 * lim.maxHalfOpenPerSource} half-open connections`));
    }
    while (this.handshakes.size > 2 * lim.maxHalfOpen) {
      this.evict(this.handshakes.values().next().value as Handshake, new CmError('overload', `evicted: the listener holds ${2 * lim.maxHalfOpen} half-open connections`));
    }
    if (use.halfOpen.size > lim.maxHalfOpenPerSource) this.crowded.add(source);
    if (pressure || this.crowded.size > 0 || this.handshakes.size > lim.maxHalfOpen) this.scheduleTrim();
  }

  /**
   * Evictions wait `evictGraceMs`: Node accepts a whole accept queue before it reads any of the
   * new sockets, and a peer's Request may trail its TCP handshake a little, so evicting at accept
   * time could drop a connection whose Request is on its way. A legitimate Initiator sends its
   * Request right after TCP connect and leaves the half-open set within the grace; only peers
   * that sent nothing (or half a Request) grow older than it. Meanwhile the hard ceilings (twice
   * the caps) bound what is admitted.
   */
  private scheduleTrim(): void {
    if (this.trimTimer || this.closed) return;
    this.trimTimer = startTimer(Math.max(1, this.limits.evictGraceMs), () => {
      this.trimTimer = null;
      this.trim();
    });
  }

  /**
   * The fair half-open limit, on connections older than the grace: a source above its cap loses
   * its own oldest; under pressure, connections older than the pressure timeout go; a listener
   * above its cap loses its oldest. The newest connection is never refused.
   */
  private trim(): void {
    if (this.closed) return;
    const lim = this.limits;
    const now = performance.now();
    const ripe = (h: Handshake): boolean => now - h.born >= lim.evictGraceMs;
    for (const source of [...this.crowded]) {
      this.crowded.delete(source);
      const use = this.sources.get(source);
      if (!use) continue;
      for (const h of [...use.halfOpen]) {
        if (use.halfOpen.size <= lim.maxHalfOpenPerSource || !ripe(h)) break;
        this.evict(h, new CmError('overload', `evicted: ${source} holds more than ${lim.maxHalfOpenPerSource} half-open connections`));
      }
      if (use.halfOpen.size > lim.maxHalfOpenPerSource) this.crowded.add(source);
    }
    const pressure = this.handshakes.size >= Math.ceil(lim.maxHalfOpen / 2);
    if (pressure) {
      for (const h of this.handshakes) {
        if (now - h.born < lim.pressureTimeoutMs) break;
        this.evict(h, new CmError('timeout', `no MPA Request within ${lim.pressureTimeoutMs} ms (listener under pressure)`));
      }
    }
    for (const h of this.handshakes) {
      if (this.handshakes.size <= lim.maxHalfOpen || !ripe(h)) break;
      this.evict(h, new CmError('overload', `evicted: the listener holds more than ${lim.maxHalfOpen} half-open connections`));
    }
    if (this.crowded.size > 0 || this.handshakes.size > lim.maxHalfOpen) this.scheduleTrim();
  }

  private onRequest(h: Handshake, r: FrameRead | CmError): void {
    const s = h.socket;
    if (r instanceof CmError) {
      if (r.kind === 'bad-revision') {
        // RFC 5044 §7.1.1: tell the Initiator with a Reply carrying our revision and R.
        const rev = r.revision ?? 0;
        const fake: MpaReqRep = { type: 'request', markers: false, crc: false, reject: false, enhanced: false, res: 0, revision: rev, privateData: EMPTY };
        const ex = examineRequest(fake, this.cfg);
        this.endHandshake(h, 'keep');
        if (!ex.ok) {
          this.trace?.({ dir: 'tx', what: 'reply', bytes: ex.reply });
          closeGracefully(s, ex.reply);
        } else resetSocket(s);
      } else {
        this.endHandshake(h, null);
      }
      this.fail(s, r);
      return;
    }
    this.trace?.({ dir: 'rx', what: 'request', bytes: r.raw });
    if (log.enabled) log('← %s: %s', peerName(s), stringifyMpaReqRep(r.frame));
    if (r.rest.length > 0) {
      // The Initiator must wait for the Reply before its first FPDU (siw: "peer sent extra data").
      this.endHandshake(h, null);
      this.fail(s, new CmError('protocol', 'data after the MPA Request, before the Reply', {
        terminate: TerminateError.mpa(MpaEcode.InvalidRequestReply, 'data after the Request'),
      }));
      return;
    }
    const ex = examineRequest(r.frame, this.cfg);
    this.endHandshake(h, 'keep');
    if (!ex.ok) {
      this.trace?.({ dir: 'tx', what: 'reply', bytes: ex.reply });
      closeGracefully(s, ex.reply);
      this.fail(s, fromFailure(ex.failure));
      return;
    }
    if (this.closed) {
      resetSocket(s);
      return;
    }
    // The ULP's queue is bounded too, per source and in all: a complete Request beyond it is
    // refused the way the ULP would refuse it (RFC 5044 §7.1.1: a Reply with R set).
    const use = this.use(h.source);
    const full =
      use.requests >= this.limits.maxRequestsPerSource
        ? `${h.source} has ${this.limits.maxRequestsPerSource} requests waiting for the ULP`
        : this.requests.size >= this.limits.maxRequests
          ? `the listener has ${this.limits.maxRequests} requests waiting for the ULP`
          : null;
    if (full) {
      this.release(h.source);
      this.stats.refused++;
      const reply = rejectReply(ex.info, EMPTY);
      this.trace?.({ dir: 'tx', what: 'reply', bytes: reply });
      closeGracefully(s, reply);
      this.fail(s, new CmError('overload', `refused: ${full}`));
      return;
    }
    const req = new CmConnectRequest(this, s, ex.info, h.source);
    this.requests.add(req);
    use.requests++;
    this.stats.requests++;
    this.emit('request', req);
  }
}

/** Parameters of an accept (IT-API `it_ep_accept`). */
export interface CmAcceptParams {
  /** Local IRD/ORD to negotiate from (default: the QP's). */
  ird?: number;
  ord?: number;
  /** Private data of the Reply: ≤ 512 octets, ≤ 508 with the RFC 6581 word. */
  privateData?: Uint8Array;
  /**
   * Without an agreed RTR, hold our FPDUs until the Initiator's first one (RFC 5044 §7.1.2;
   * default true). Linux siw does not hold, and tools written for it rely on that
   * (perftest's ib_write_lat server writes first), so rdma_cm passes false.
   */
  awaitFirstRx?: boolean;
}

/**
 * One valid MPA Request awaiting the ULP's decision (IT-API `IT_CM_REQ_CONN_REQUEST_EVENT`): it
 * carries the peer's private data, IRD and ORD. It ends exactly once: `accept`, `reject`, or
 * `aborted` (event) when the peer goes away or sends data early (the socket is reset), or when
 * the ULP leaves it unanswered past the listener's `acceptTimeoutMs` (error kind `timeout`: the
 * CM rejects it as the ULP would, with an R Reply and a FIN, so the Initiator is told at once).
 */
export class CmConnectRequest extends EventEmitter {
  state: 'pending' | 'accepted' | 'rejected' | 'aborted' = 'pending';
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly localAddress: string;
  readonly localPort: number;
  private timer: NodeJS.Timeout | null = null;
  private watching = false;

  constructor(
    readonly listener: CmListener,
    readonly socket: net.Socket,
    readonly info: MpaRequestInfo,
    /** The peer's {@link sourceKey}, which the listener's per-source caps count by. */
    readonly source: string = sourceKey(socket.remoteAddress ?? ''),
  ) {
    super();
    this.remoteAddress = socket.remoteAddress ?? '';
    this.remotePort = socket.remotePort ?? 0;
    this.localAddress = socket.localAddress ?? '';
    this.localPort = socket.localPort ?? 0;
    this.watch();
  }

  /** The Request's MPA revision. */
  get revision(): number {
    return this.info.frame.revision;
  }
  /** RFC 6581 enhanced establishment in use (the peer's IRD/ORD are known). */
  get enhanced(): boolean {
    return this.info.replyEnhanced;
  }
  /** The Initiator's IRD (RFC 6581 word), or null without one. */
  get peerIrd(): number | null {
    return this.info.peerIrdOrd?.ird ?? null;
  }
  /** The Initiator's ORD (RFC 6581 word), or null without one. */
  get peerOrd(): number | null {
    return this.info.peerIrdOrd?.ord ?? null;
  }
  /** RTR types offered in RFC 6581 P2P mode, or null when not P2P. */
  get p2p(): readonly RtrType[] | null {
    return this.info.p2p;
  }
  /** The Initiator's ULP private data. */
  get privateData(): Uint8Array {
    return this.info.privateData;
  }

  /**
   * While the ULP decides, the socket is read: any octet now is a protocol error (the Initiator
   * must wait for the Reply), and a FIN or reset ends the request.
   */
  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    const s = this.socket;
    s.on('data', this.onData);
    s.on('end', this.onEnd);
    s.on('close', this.onEnd);
    s.resume();
    if (this.listener.acceptTimeoutMs > 0 && !this.timer) {
      this.timer = startTimer(this.listener.acceptTimeoutMs, () => {
        this.timer = null;
        this.expire();
      });
    }
  }

  private unwatch(): void {
    if (!this.watching) return;
    this.watching = false;
    const s = this.socket;
    s.off('data', this.onData);
    s.off('end', this.onEnd);
    s.off('close', this.onEnd);
    s.pause();
  }

  private readonly onData = (): void => {
    this.abort(new CmError('protocol', 'data before the MPA Reply', { terminate: TerminateError.mpa(MpaEcode.InvalidRequestReply, 'data before the Reply') }));
  };
  private readonly onEnd = (): void => {
    this.abort(new CmError('closed', 'the Initiator closed the connection before accept/reject'));
  };

  private settle(state: 'accepted' | 'rejected' | 'aborted'): void {
    this.state = state;
    this.unwatch();
    stopTimer(this.timer);
    this.timer = null;
    this.listener.requestSettled(this);
    orphanRequests.delete(this);
  }

  /**
   * The ULP did not answer in time: rejected for it (an R Reply without private data, then a
   * FIN), so the Initiator is refused rather than left waiting for its own timer, and the
   * listener's slot is free again. The ULP sees `aborted` with kind `timeout`.
   */
  private expire(): void {
    if (this.state !== 'pending') return;
    const ms = this.listener.acceptTimeoutMs;
    this.settle('aborted');
    this.listener.stats.aborted++;
    this.listener.stats.expired++;
    const reply = rejectReply(this.info, EMPTY);
    this.listener.trace?.({ dir: 'tx', what: 'reply', bytes: reply });
    closeGracefully(this.socket, reply);
    log('request from %s:%d not answered within %d ms: rejected', this.remoteAddress, this.remotePort, ms);
    this.emit('aborted', new CmError('timeout', `not accepted or rejected within ${ms} ms; the CM rejected it`));
  }

  private abort(err: CmError): void {
    if (this.state !== 'pending') return;
    this.settle('aborted');
    this.listener.stats.aborted++;
    resetSocket(this.socket);
    log('request from %s:%d aborted: %s', this.remoteAddress, this.remotePort, err.message);
    this.emit('aborted', err);
  }

  /**
   * Accepts with `qp` (Idle): negotiates (see `responderAgree`), then Idle→RTS with the Reply as
   * the last streaming-mode message, so the QP's receive path is in place before the Initiator
   * can answer it (siw installs its callbacks before sending the Reply for the same reason). The
   * QP waits for the Initiator's first FPDU — in P2P mode, the RTR — before it sends anything
   * (RFC 5044 §7.1.2, RFC 6581).
   *
   * Throws a {@link CmError} when the request is no longer pending, or when the parameters or
   * the QP do not fit (kinds `invalid`, `ird-ord`, `no-matching-rtr`, `policy`, `qp`); in those
   * cases nothing was sent and the request stays pending, so the ULP may fix and retry, or reject.
   */
  accept(qp: CmQp, params: CmAcceptParams = {}): CmConnection {
    if (this.state !== 'pending') throw new CmError('invalid', `the request is ${this.state}`);
    const q = checkQpIdle(qp);
    const pd = params.privateData ?? EMPTY;
    if (pd.length > maxUserPrivateData(this.enhanced)) {
      throw new CmError('invalid', `private data of ${pd.length} octets; at most ${maxUserPrivateData(this.enhanced)}`);
    }
    const lim = qp.caps();
    const ird = params.ird ?? q.ird;
    const ord = params.ord ?? q.ord;
    if (ird > lim.maxIrdPerQp || ord > lim.maxOrdPerQp) throw new CmError('invalid', `IRD ${ird}/ORD ${ord} above the RNIC's limits`);
    const a = responderAgree(this.info, { ird, ord, maxIrd: lim.maxIrdPerQp, readRtrOk: q.enableRdmaRead, privateData: pd }, this.listener.cfg);
    if (!a.ok) throw fromFailure(a.failure);
    const ag = a.agreement;
    if ((ag.mpa.recvMarkers || ag.mpa.xmitMarkers) && !qp.markersSupported()) {
      throw new CmError('policy', 'Markers negotiated but this RNIC has none');
    }
    // The QP's receive path takes over the socket: stop watching it first.
    this.unwatch();
    const stream = new LlpStream(this.socket, { awaitFirstRx: ag.rtr !== null || (params.awaitFirstRx ?? true), expectRtr: ag.rtr, rdmapExt: ag.rdmapExt });
    const ret = toRts(qp, stream, ag.mpa, ag.ird, ag.ord, a.reply);
    if (ret !== RiRet.SUCCESS) {
      this.watch();
      throw new CmError('qp', `Modify QP to RTS failed: ${RiRet[ret]}`, { ret });
    }
    this.settle('accepted');
    this.listener.stats.accepted++;
    this.listener.trace?.({ dir: 'tx', what: 'reply', bytes: a.reply });
    if (log.enabled) {
      const now = qp.query();
      log('QP[%d] RTS (passive) for %s:%d crc=%d markers rx=%d tx=%d ird=%d ord=%d rtr=%s', qp.id, this.remoteAddress, this.remotePort, +ag.mpa.crc, +ag.mpa.recvMarkers, +ag.mpa.xmitMarkers, now?.ird, now?.ord, ag.rtr ?? '-');
    }
    return new CmConnection(qp, this.socket, 'passive', ag, this.info.privateData);
  }

  /**
   * Rejects (IT-API `it_reject`): a Reply with R set carrying `privateData` (RFC 5044 §7.1.1),
   * then a graceful close. The Initiator reports a peer reject with exactly this private data.
   */
  reject(privateData: Uint8Array = EMPTY): void {
    if (this.state !== 'pending') throw new CmError('invalid', `the request is ${this.state}`);
    if (privateData.length > maxUserPrivateData(this.enhanced)) {
      throw new CmError('invalid', `private data of ${privateData.length} octets; at most ${maxUserPrivateData(this.enhanced)}`);
    }
    this.settle('rejected');
    this.listener.stats.rejected++;
    const reply = rejectReply(this.info, privateData);
    this.listener.trace?.({ dir: 'tx', what: 'reply', bytes: reply });
    closeGracefully(this.socket, reply);
  }
}

// ---------------------------------------------------------------------------------------------
// Socket conversion
// ---------------------------------------------------------------------------------------------

export interface CmConvertMpa extends CmMpaParams {
  /**
   * MPA role: by default the side that sends the last streaming-mode message is the MPA
   * Responder and the other the Initiator (IT-API §6.4: the Conversion Initiator waits for the
   * MPA Request).
   */
  role?: 'initiator' | 'responder';
  /** Bounds the MPA exchange; 0 = no limit (IT-API: conversion never times out). Default 10 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface CmConvertOptions {
  /** MPA start-up parameters, or `false` to go straight to RDMA mode (IT-API `IT_SC_NO_REQ_REP`). */
  mpa?: CmConvertMpa | false;
  /** The ULP's last streaming-mode message, sent just before the MPA exchange / RDMA mode. */
  lastStreamingMessage?: Uint8Array;
  /** Octets the ULP already read from the socket past its own last message (FPDUs or the Request). */
  pending?: Uint8Array;
  /** With `mpa: false`: the MPA attributes agreed by the ULP (default no CRC, no Markers). */
  mpaAttrs?: Partial<MpaAttrs>;
}

/**
 * Converts a connected streaming-mode socket into an RDMA-mode QP (IT-API `it_socket_convert`,
 * RNICPI Ch. 6.1.4 conversion). The ULP must have stopped reading the socket (its own `data`
 * listeners removed); from here the CM and then the QP own it.
 *
 * - With MPA start-up (default): optionally the last streaming message, then the Initiator or
 *   Responder half of RFC 5044 §7.1.2. The Responder accepts by itself (there is no ULP
 *   decision in a conversion) unless the policies clash, which rejects with R.
 * - With `mpa: false`: the last streaming message (if any) goes out as Modify QP's stream
 *   message and the QP enters RTS at once with `mpaAttrs`; the side that sent the message waits
 *   for the peer's first FPDU, mirroring the MPA roles.
 */
export async function cmConvertSocket(qp: CmQp, socket: net.Socket, opts: CmConvertOptions = {}): Promise<CmConnection> {
  // A fresh `new net.Socket()` reports readyState 'open' too; only a connected one has a peer.
  if (!(socket instanceof net.Socket) || socket.destroyed || socket.connecting || socket.readyState !== 'open' || !socket.remoteAddress) {
    throw new CmError('invalid', 'the socket is not a connected TCP socket');
  }
  checkQpIdle(qp);
  const last = opts.lastStreamingMessage && opts.lastStreamingMessage.length > 0 ? opts.lastStreamingMessage : null;
  if (opts.mpa === false) {
    track(socket);
    socket.pause();
    const mpa: MpaAttrs = { crc: false, recvMarkers: false, xmitMarkers: false, ddpRdmapVersion: 1, ...opts.mpaAttrs };
    const stream = new LlpStream(socket, { pending: opts.pending ?? null, awaitFirstRx: last !== null });
    const ret = toRts(qp, stream, mpa, null, null, last ?? undefined);
    if (ret !== RiRet.SUCCESS) throw new CmError('qp', `Modify QP to RTS failed: ${RiRet[ret]}`, { ret });
    return new CmConnection(qp, socket, last ? 'passive' : 'active', null, EMPTY);
  }
  const p: CmConvertMpa = opts.mpa ?? {};
  const role = p.role ?? (last ? 'responder' : 'initiator');
  // Validate everything before a single octet goes out.
  const { offer, policy, markers } = makeOffer(qp, p);
  const timeoutMs = p.timeoutMs ?? MPA_REPLY_TIMEOUT_MS;
  if (p.signal?.aborted) throw new CmError('aborted', 'aborted before the conversion');
  track(socket);
  socket.pause();
  return new Promise<CmConnection>((resolve, reject) => {
    busy.add(qp);
    live.connecting++;
    let settled = false;
    let cancel: (() => void) | null = null;
    const finish = (err: CmError | null, conn: CmConnection | null, graceful = false): void => {
      if (settled) return;
      settled = true;
      stopTimer(timer);
      p.signal?.removeEventListener('abort', onAbort);
      cancel?.();
      busy.delete(qp);
      live.connecting--;
      if (err) {
        log('QP[%d] conversion failed: %s (%s)', qp.id, err.kind, err.message);
        if (graceful) closeGracefully(socket, null);
        else resetSocket(socket);
        reject(err);
      } else resolve(conn!);
    };
    const onAbort = (): void => finish(new CmError('aborted', 'conversion aborted'), null);
    const timer = timeoutMs > 0 ? startTimer(timeoutMs, () => finish(new CmError('timeout', `MPA exchange not done within ${timeoutMs} ms`), null)) : null;
    p.signal?.addEventListener('abort', onAbort, { once: true });
    socket.setNoDelay(true);
    if (last) {
      p.trace?.({ dir: 'tx', what: 'stream-msg', bytes: last });
      tapSocket(socket)?.tx(last);
      socket.write(last);
    }
    if (role === 'initiator') {
      const run = runInitiator(qp, socket, offer, policy, markers, p.irdOrd ?? 'relaxed', opts.pending ?? null, p.trace, 'active', finish);
      cancel = () => run.cancel();
      return;
    }
    const cfg: ResponderConfig = {
      revision: offer.revision,
      policy,
      rtrPreference: p.rtrPreference ?? DEFAULT_RTR_PREFERENCE,
      irdOrd: p.irdOrd ?? 'relaxed',
      rdmapExt: p.rdmapExt ?? true,
    };
    const reader = new FrameReader(socket, 'request', opts.pending ?? null, (r) => {
      if (r instanceof CmError) {
        finish(r, null);
        return;
      }
      p.trace?.({ dir: 'rx', what: 'request', bytes: r.raw });
      if (r.rest.length > 0) {
        finish(new CmError('protocol', 'data after the MPA Request, before the Reply', { terminate: TerminateError.mpa(MpaEcode.InvalidRequestReply) }), null);
        return;
      }
      const ex = examineRequest(r.frame, cfg);
      if (!ex.ok) {
        p.trace?.({ dir: 'tx', what: 'reply', bytes: ex.reply });
        tapSocket(socket)?.tx(ex.reply);
        socket.write(ex.reply);
        finish(fromFailure(ex.failure), null, true);
        return;
      }
      const lim = qp.caps();
      const a = responderAgree(
        ex.info,
        { ird: offer.ird, ord: offer.ord, maxIrd: lim.maxIrdPerQp, readRtrOk: qp.query()?.enableRdmaRead ?? false, privateData: offer.privateData },
        cfg,
      );
      if (!a.ok) {
        const reply = rejectReply(ex.info, EMPTY);
        p.trace?.({ dir: 'tx', what: 'reply', bytes: reply });
        tapSocket(socket)?.tx(reply);
        socket.write(reply);
        finish(fromFailure(a.failure), null, true);
        return;
      }
      const ag = a.agreement;
      if ((ag.mpa.recvMarkers || ag.mpa.xmitMarkers) && !markers) {
        finish(new CmError('policy', 'Markers negotiated but this RNIC has none'), null);
        return;
      }
      cancel = null;
      const stream = new LlpStream(socket, { awaitFirstRx: true, expectRtr: ag.rtr, rdmapExt: ag.rdmapExt });
      const ret = toRts(qp, stream, ag.mpa, ag.ird, ag.ord, a.reply);
      if (ret !== RiRet.SUCCESS) {
        finish(new CmError('qp', `Modify QP to RTS failed: ${RiRet[ret]}`, { ret }), null);
        return;
      }
      p.trace?.({ dir: 'tx', what: 'reply', bytes: a.reply });
      finish(null, new CmConnection(qp, socket, 'passive', ag, ex.info.privateData));
    });
    cancel = () => reader.cancel();
  });
}

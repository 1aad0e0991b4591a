/**
 * What the iWARP connection manager's initiator (`cm.ts`), responder (`cm-listen.ts`) and socket
 * conversion share: its errors, the count of what it holds ({@link cmStats}), socket and timer
 * bookkeeping, the trace hook, the reader of one MPA Request/Reply frame (RFC 5044 §7.1), the
 * MPA parameters and `SOFTRDMA_MPA`, the established {@link CmConnection}, and the Idle→RTS
 * modify that hands the stream to the QP (RNICPI 1.0 §6.1.4).
 *
 * @module
 */
import { EventEmitter } from 'node:events';
import type net from 'node:net';
import type { RiRet } from '../rnicpi/status.js';
import { RiQpState } from '../rnicpi/types.js';
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
} from '../wire/mpa.js';
import { buildTerminate, encodeTerminateMessage } from '../wire/terminate.js';
import type { LlpStream, RtrType } from './llp.js';
import {
  DEFAULT_MPA_POLICY,
  type IrdOrdMode,
  type MpaAgreement,
  type MpaFailure,
  type MpaOffer,
  type MpaPolicy,
  maxUserPrivateData,
} from './mpa-startup.js';
import { tapSocket } from './trace.js';
import { type CmQp, type CmQpInfo, type CmQpModify, STATE_NAMES } from './cm-qp.js';
import type { MpaAttrs } from './llp-attrs.js';
import type { CmConnectRequest, CmListenLimits, CmListener } from './cm-listen.js';

const log = logger('cm');
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

export function fromFailure(f: MpaFailure): CmError {
  return new CmError(f.kind, f.message, f.terminate !== null ? { terminate: TerminateError.mpa(f.terminate, f.message) } : {});
}

/** Maps a socket error to a kind (IT-API §6.6 maps these errnos to reject reasons). */
export function fromSocketError(e: NodeJS.ErrnoException): CmError {
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

export const live = {
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
  return {
    listeners: live.listeners.size,
    sockets: live.sockets.size,
    timers: live.timers.size,
    connecting: live.connecting,
    requests,
    handshakes,
  };
}

/** Requests of listeners already closed (they stay valid, IT-API `it_listen_free`). */
export const orphanRequests = new Set<CmConnectRequest>();

export function track(s: net.Socket): void {
  if (live.sockets.has(s)) return;
  live.sockets.add(s);
  // A socket error must never become an uncaught exception, whoever listens at the time.
  s.on('error', (e: NodeJS.ErrnoException) => log('socket %s: %s', peerName(s), e.code ?? e.message));
  s.once('close', () => live.sockets.delete(s));
}

export function startTimer(ms: number, fn: () => void): NodeJS.Timeout {
  const t = setTimeout(() => {
    live.timers.delete(t);
    fn();
  }, ms);
  t.unref?.();
  live.timers.add(t);
  return t;
}

export function stopTimer(t: NodeJS.Timeout | null): void {
  if (!t) return;
  clearTimeout(t);
  live.timers.delete(t);
}

/** Abortive close (RST where Node can send one). */
export function resetSocket(s: net.Socket): void {
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
export function closeGracefully(s: net.Socket, last: Uint8Array | null): void {
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

export function noop(): void {}

export function peerName(s: net.Socket): string {
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

export interface FrameRead {
  frame: MpaReqRep;
  /** The frame's exact bytes. */
  raw: Uint8Array;
  /** Octets that followed the frame (the MPA rules allow none). */
  rest: Uint8Array;
}

export function keyIs(buf: Uint8Array, key: Uint8Array): boolean {
  for (let i = 0; i < MPA_KEY_LEN; i++) if (buf[i] !== key[i]) return false;
  return true;
}

/**
 * Reads one MPA Request or Reply from a socket (RFC 5044 §7.1.1), then stops listening and
 * pauses it. Buffering is bounded by the frame format (20 + 512 octets); a wrong key or a
 * PD_Length above 512 fails as soon as the octets that show it arrive. The reader owns no
 * timer: its users bound the wait.
 */
export class FrameReader {
  #buf = new Uint8Array(0);
  #done = false;
  readonly #socket: net.Socket;
  readonly #expect: 'request' | 'reply';
  readonly #cb: (r: FrameRead | CmError) => void;
  constructor(socket: net.Socket, expect: 'request' | 'reply', initial: Uint8Array | null, cb: (r: FrameRead | CmError) => void) {
    this.#socket = socket;
    this.#expect = expect;
    this.#cb = cb;
    socket.on('data', this.#onData);
    socket.on('end', this.#onEnd);
    socket.on('close', this.#onClose);
    socket.on('error', this.#onError);
    if (initial && initial.length > 0) queueMicrotask(() => this.#onData(initial));
    socket.resume();
  }

  cancel(): void {
    if (this.#done) return;
    this.#done = true;
    const s = this.#socket;
    s.off('data', this.#onData);
    s.off('end', this.#onEnd);
    s.off('close', this.#onClose);
    s.off('error', this.#onError);
    s.pause();
  }

  #finish(r: FrameRead | CmError): void {
    if (this.#done) return;
    this.cancel();
    this.#cb(r);
  }

  readonly #onData = (chunk: Uint8Array): void => {
    if (this.#done) return;
    tapSocket(this.#socket)?.rx(chunk);
    const joined = new Uint8Array(this.#buf.length + chunk.length);
    joined.set(this.#buf, 0);
    joined.set(chunk, this.#buf.length);
    this.#buf = joined;
    const b = this.#buf;
    // An unsupported revision is told apart from garbage: it gets a Reply (RFC 5044 §7.1.1).
    if (b.length >= MPA_RR_HEADER_LEN && keyIs(b, this.#expect === 'request' ? MPA_KEY_REQ : MPA_KEY_REP)) {
      const rev = b[17]!;
      if (rev !== 1 && rev !== 2) {
        this.#finish(
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
      r = decodeMpaReqRep(b, this.#expect);
    } catch (e) {
      const t = e instanceof TerminateError ? e : TerminateError.mpa(MpaEcode.InvalidRequestReply, String(e));
      this.#finish(new CmError('protocol', `invalid MPA ${this.#expect}: ${t.message}`, { terminate: t }));
      return;
    }
    if (r.status === 'frame') this.#finish({ frame: r.frame, raw: b.slice(0, r.consumed), rest: b.slice(r.consumed) });
  };
  readonly #onEnd = (): void => this.#finish(new CmError('closed', `peer closed before the MPA ${this.#expect}`));
  readonly #onClose = (): void => this.#finish(new CmError('closed', `connection closed before the MPA ${this.#expect}`));
  readonly #onError = (e: NodeJS.ErrnoException): void => this.#finish(fromSocketError(e));
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

/**
 * How long a Responder that may transmit first (no RTR agreed, {@link CmAcceptParams.awaitFirstRx}
 * false) still holds its first FPDU after the MPA Reply, unless the Initiator's first FPDU comes
 * sooner. Linux siw's Initiator reads the Reply's private data with four octets more than it
 * expects and resets the connection when it gets them (`siw_recv_mpa_rr`: "peer sent extra data"
 * when there is no private data), so an FPDU queued behind the Reply before siw has read it ends
 * the connection; under emulation that window is a few ms. RFC 5044 §7.1.2 has the Responder wait
 * for the Initiator's first FPDU, which tools written for siw do not allow (a server that sends
 * first); this is the shortest wait that keeps both.
 */
export const PASSIVE_SETTLE_MS = 50;

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

export const EMPTY = new Uint8Array(0);

/** What `SOFTRDMA_MPA` can set. */
export type CmEnvParams = Pick<CmConnectParams, 'revision' | 'policy' | 'p2p' | 'rtrPreference' | 'settleMs'> &
  Pick<Partial<CmListenLimits>, 'acceptTimeoutMs'>;

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

export function policyOf(p: Partial<MpaPolicy> | undefined): MpaPolicy {
  return { ...DEFAULT_MPA_POLICY, ...p };
}

/**
 * A connection needs an Idle QP without a stream (RNICPI 1.0 §6.1.4: the LLP handle is given on
 * the Idle→RTS modify); returns what `ri_qp_query` told.
 */
export function checkQpIdle(qp: CmQp): CmQpInfo {
  const q = qp.query();
  if (!q) throw new CmError('invalid', `QP[${qp.id}] is destroyed`);
  if (q.state !== RiQpState.IDLE || q.llpAttached) {
    throw new CmError('invalid', `QP[${qp.id}] is ${STATE_NAMES[q.state]}; connection needs Idle`);
  }
  if (busy.has(qp)) throw new CmError('invalid', `QP[${qp.id}] is already connecting`);
  return q;
}

/** QPs with a connect or conversion in progress. */
export const busy = new WeakSet<CmQp>();

/**
 * The Initiator's Request, from parameters and the QP (validated: nothing is sent on error);
 * `markers` tells whether the RNIC can use Markers, asked while the QP is known to be Idle.
 */
export function makeOffer(qp: CmQp, p: CmMpaParams): { offer: MpaOffer; policy: MpaPolicy; markers: boolean } {
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
    throw new CmError(
      'invalid',
      `private data of ${privateData.length} octets; at most ${maxUserPrivateData(revision === 2)} at revision ${revision}`,
    );
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
    offer: {
      revision,
      crc: policy.crc === 'require',
      markers: policy.markers === 'require',
      ird,
      ord,
      p2p,
      privateData,
      rdmapExt: p.rdmapExt ?? true,
    },
    policy,
    markers,
  };
}

// ---------------------------------------------------------------------------------------------
// Established connections
// ---------------------------------------------------------------------------------------------

/** How the connection was made. */
export type CmRole = 'active' | 'passive';

/** An object of one TCP connection, with the addresses and ports of its two ends as it began. */
export class CmSocketEnds extends EventEmitter {
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly localAddress: string;
  readonly localPort: number;
  constructor(socket: net.Socket) {
    super();
    this.remoteAddress = socket.remoteAddress ?? '';
    this.remotePort = socket.remotePort ?? 0;
    this.localAddress = socket.localAddress ?? '';
    this.localPort = socket.localPort ?? 0;
  }
}

/**
 * One connection in RDMA mode. The QP owns the stream from here on (RNICPI Ch. 6.1.5); this
 * object reports when the TCP connection is finally closed (event `close`, exactly once) and
 * offers the three ways to end it, all of which are QP state changes (Verbs §6.2).
 */
export class CmConnection extends CmSocketEnds {
  /** True once the TCP connection is closed. */
  closed = false;
  constructor(
    readonly qp: CmQp,
    readonly socket: net.Socket,
    readonly role: CmRole,
    /** What was negotiated (null for a conversion without MPA start-up). */
    readonly agreement: MpaAgreement | null,
    /** The peer's ULP private data (without the RFC 6581 word). */
    readonly peerPrivateData: Uint8Array,
  ) {
    super(socket);
    if (socket.destroyed) queueMicrotask(() => this.#onClose());
    else socket.once('close', () => this.#onClose());
  }

  #onClose(): void {
    if (this.closed) return;
    this.closed = true;
    const q = this.qp.query();
    log(
      'QP[%d] %s connection %s:%d closed (QP %s)',
      this.qp.id,
      this.role,
      this.remoteAddress,
      this.remotePort,
      q ? STATE_NAMES[q.state] : 'destroyed',
    );
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
export function toRts(qp: CmQp, stream: LlpStream, mpa: MpaAttrs, ird: number | null, ord: number | null, streamMsg?: Uint8Array): RiRet {
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
export function sendRawTerminate(s: net.Socket, ecode: MpaEcode, mpa: MpaAttrs, trace?: CmTrace): void {
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

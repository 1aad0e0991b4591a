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
 * This module holds the initiator ({@link cmConnect}) and socket conversion
 * ({@link cmConvertSocket}); the responder is `cm-listen.ts`, what they share (errors, counts,
 * parameters, the established connection) `cm-common.ts`, the QP as the CM sees it `cm-qp.ts`.
 * This module re-exports them: consumers import the CM from here.
 *
 * {@link cmStats} counts what the CM holds (listeners, sockets, timers, connects in progress)
 * so tests can prove that nothing leaks.
 */
import net from 'node:net';
import { RiRet } from '../rnicpi/status.js';
import { RiQpState } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import { MpaEcode, TerminateError } from '../wire/errors.js';
import { decodeMpaReqRep, type MpaReqRep, stringifyMpaReqRep } from '../wire/mpa.js';
import { LlpStream } from './llp.js';
import {
  DEFAULT_RTR_PREFERENCE,
  encodeRequest,
  examineRequest,
  type IrdOrdMode,
  initiatorAgree,
  MPA_REPLY_TIMEOUT_MS,
  type MpaOffer,
  type MpaPolicy,
  type ResponderConfig,
  rejectReply,
  responderAgree,
} from './mpa-startup.js';
import { tapSocket } from './trace.js';
import type { CmQp } from './cm-qp.js';
import type { MpaAttrs } from './llp-attrs.js';
import {
  type CmConnectParams,
  CmConnection,
  CmError,
  type CmMpaParams,
  type CmRole,
  type CmTrace,
  EMPTY,
  FrameReader,
  busy,
  checkQpIdle,
  closeGracefully,
  fromFailure,
  fromSocketError,
  live,
  makeOffer,
  peerName,
  resetSocket,
  sendRawTerminate,
  startTimer,
  stopTimer,
  toRts,
  track,
} from './cm-common.js';

const log = logger('cm');

export { type CmQp, type CmQpCaps, type CmQpInfo, type CmQpModify, riCmQp } from './cm-qp.js';
export type { MpaAttrs } from './llp-attrs.js';
export {
  ACTIVE_SETTLE_MS,
  CLOSE_GRACE_MS,
  PASSIVE_SETTLE_MS,
  type CmConnectParams,
  CmConnection,
  type CmEnvParams,
  CmError,
  type CmErrorKind,
  type CmMpaParams,
  type CmRole,
  type CmStats,
  type CmTrace,
  type CmTraceEvent,
  cmParamsFromEnv,
  cmStats,
} from './cm-common.js';
export {
  CM_LISTEN_LIMITS,
  type CmAcceptParams,
  CmConnectRequest,
  type CmFailure,
  type CmListenLimits,
  type CmListenOptions,
  CmListener,
  cmListenDefaults,
  setCmListenDefaults,
  sourceKey,
} from './cm-listen.js';

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
        const mpa: MpaAttrs = {
          crc: offer.crc || r.frame.crc,
          recvMarkers: offer.markers,
          xmitMarkers: r.frame.markers,
          ddpRdmapVersion: 1,
        };
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
      log(
        'QP[%d] RTS (active) crc=%d markers rx=%d tx=%d ird=%d ord=%d rtr=%s',
        qp.id,
        +ag.mpa.crc,
        +ag.mpa.recvMarkers,
        +ag.mpa.xmitMarkers,
        q?.ird,
        q?.ord,
        ag.rtr ?? '-',
      );
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
    const timer = startTimer(timeoutMs, () =>
      finish(new CmError('timeout', `no MPA Reply from ${host}:${port} within ${timeoutMs} ms`), null),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', onConnect);
    socket.on('error', onConnectError);
  });
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
    const timer =
      timeoutMs > 0
        ? startTimer(timeoutMs, () => finish(new CmError('timeout', `MPA exchange not done within ${timeoutMs} ms`), null))
        : null;
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
        finish(
          new CmError('protocol', 'data after the MPA Request, before the Reply', {
            terminate: TerminateError.mpa(MpaEcode.InvalidRequestReply),
          }),
          null,
        );
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
        {
          ird: offer.ird,
          ord: offer.ord,
          maxIrd: lim.maxIrdPerQp,
          readRtrOk: qp.query()?.enableRdmaRead ?? false,
          privateData: offer.privateData,
        },
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

/**
 * MPA connection start-up (RFC 5044 §7.1, RFC 6581): the streaming-mode exchange of the MPA
 * Request and Reply frames that turns a connected TCP socket into an LLP stream handle for a
 * QP. The connection manager (listen/connect/accept/reject, events, policies) is built on
 * these two halves.
 *
 * Negotiation (RFC 5044 §7.1.2): CRCs are used in both directions if either side asks;
 * Markers are per direction, each side asking for the Markers it wants to *receive*. At
 * revision 2 with the Enhanced flag the private data begins with the RFC 6581 IRD/ORD word.
 * The Responder must not send an FPDU before it has received one from the Initiator
 * (RFC 5044 §7.1.2), which the resulting stream enforces.
 */
import type { Socket } from 'node:net';
import { MpaEcode, TerminateError } from '../wire/errors.js';
import {
  decodeMpaIrdOrd,
  decodeMpaReqRep,
  encodeMpaIrdOrd,
  encodeMpaReqRep,
  MPA_MAX_PRIVATE_DATA,
  MPA_RES_SOFTRDMA_EXT,
  MPA_V2_IRD_ORD_LEN,
  type MpaIrdOrd,
  type MpaReqRep,
} from '../wire/mpa.js';
import { LlpStream, type RtrType } from './llp.js';
import type { MpaAttrs } from './llp-attrs.js';
import { tapSocket } from './trace.js';

/** What this side asks for in its Request or Reply. */
export interface MpaParams {
  /** MPA revision: 1 (RFC 5044) or 2 (RFC 6581, Linux siw's default). */
  revision: 1 | 2;
  /** Ask for CRCs. */
  crc: boolean;
  /** Ask for Markers on the stream this side receives. */
  markers: boolean;
  /** IRD and ORD advertised in the RFC 6581 word (revision 2 only). */
  ird: number;
  ord: number;
  /** ULP private data (after the IRD/ORD word at revision 2). */
  privateData?: Uint8Array;
  /** Offer (Request) or accept (Reply) softrdma's RDMAP extensions; default true. */
  rdmapExt?: boolean;
}

/** The outcome of a successful exchange. */
export interface MpaOutcome {
  stream: LlpStream;
  /** Per-QP MPA attributes to give Modify QP. */
  mpa: MpaAttrs;
  /** The peer's frame. */
  peer: MpaReqRep;
  /** The peer's IRD/ORD word, when it sent one. */
  peerIrdOrd: MpaIrdOrd | null;
  /** The peer's ULP private data (without the IRD/ORD word). */
  peerPrivateData: Uint8Array;
  /** Both sides agreed softrdma's RDMAP extensions (RFC 7306). */
  rdmapExt: boolean;
}

/** Default MPA start-up timeouts, as Linux siw: 10 s for the Reply, 5 s for the Request. */
export const MPA_REPLY_TIMEOUT_MS = 10_000;
export const MPA_REQUEST_TIMEOUT_MS = 5_000;
/**
 * How long a delivered Request may wait for the ULP's accept or reject before the Responder
 * rejects it: below the Initiator's 10 s, so the Initiator gets an R Reply rather than its own
 * timeout (siw and IT-API set no such bound; a ULP that never answers would hold it forever).
 */
export const MPA_ACCEPT_TIMEOUT_MS = 8_000;

/** The frame this side sends. */
export function buildFrame(type: 'request' | 'reply', p: MpaParams, reject = false, extra: Partial<MpaIrdOrd> = {}, res = 0): Uint8Array {
  const user = p.privateData ?? new Uint8Array(0);
  const enhanced = p.revision === 2;
  const max = MPA_MAX_PRIVATE_DATA - (enhanced ? MPA_V2_IRD_ORD_LEN : 0);
  if (user.length > max) throw new RangeError(`private data of ${user.length} octets; at most ${max} fit`);
  let pd = user;
  if (enhanced) {
    pd = new Uint8Array(MPA_V2_IRD_ORD_LEN + user.length);
    encodeMpaIrdOrd(
      {
        ird: Math.min(p.ird, 0x3fff),
        ord: Math.min(p.ord, 0x3fff),
        peerToPeer: false,
        zeroLengthSendRtr: false,
        zeroLengthWriteRtr: false,
        zeroLengthReadRtr: false,
        ...extra,
      },
      pd,
    );
    pd.set(user, MPA_V2_IRD_ORD_LEN);
  }
  return encodeMpaReqRep({
    type,
    markers: p.markers,
    crc: p.crc,
    reject,
    enhanced,
    res,
    revision: p.revision,
    privateData: pd,
  });
}

/**
 * Reads one Request or Reply frame from `socket`, then pauses it. Resolves with the frame and
 * any octets that followed it in the same chunk; rejects with a {@link TerminateError} for a
 * malformed frame, or an Error on timeout, close or socket error.
 */
export function readFrame(socket: Socket, expect: 'request' | 'reply', timeoutMs: number): Promise<{ frame: MpaReqRep; rest: Uint8Array }> {
  const tap = tapSocket(socket, expect === 'request' ? 'passive' : 'active');
  return new Promise((resolve, reject) => {
    let buf = new Uint8Array(0);
    const done = (): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onErr);
      socket.off('close', onClose);
      socket.off('end', onEnd);
      socket.pause();
    };
    const onData = (chunk: Buffer): void => {
      tap?.rx(chunk);
      const joined = new Uint8Array(buf.length + chunk.length);
      joined.set(buf, 0);
      joined.set(chunk, buf.length);
      buf = joined;
      let r: ReturnType<typeof decodeMpaReqRep>;
      try {
        r = decodeMpaReqRep(buf, expect);
      } catch (e) {
        done();
        reject(e);
        return;
      }
      if (r.status === 'frame') {
        done();
        resolve({ frame: r.frame, rest: buf.slice(r.consumed) });
      }
    };
    const onErr = (e: Error): void => {
      done();
      reject(e);
    };
    const onClose = (): void => {
      done();
      reject(new Error(`connection closed before the MPA ${expect}`));
    };
    const onEnd = (): void => {
      done();
      reject(new Error(`peer closed before the MPA ${expect}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(Object.assign(new Error(`timed out waiting for the MPA ${expect}`), { code: 'ETIMEDOUT' }));
    }, timeoutMs);
    timer.unref?.();
    socket.on('data', onData);
    socket.on('error', onErr);
    socket.on('close', onClose);
    socket.on('end', onEnd);
    socket.resume();
  });
}

function splitPrivate(f: MpaReqRep): { irdOrd: MpaIrdOrd | null; user: Uint8Array } {
  if (f.revision === 2 && f.enhanced) {
    return { irdOrd: decodeMpaIrdOrd(f.privateData), user: f.privateData.subarray(MPA_V2_IRD_ORD_LEN) };
  }
  return { irdOrd: null, user: f.privateData };
}

/** Writes a streaming-mode frame (and traces it). */
function sendFrame(socket: Socket, b: Uint8Array): void {
  tapSocket(socket)?.tx(b);
  socket.write(b);
}

/**
 * Initiator half: sends the Request and waits for the Reply. Rejects with an Error whose
 * `code` is `ECONNREFUSED` (and `privateData` holds the peer's) when the Reply has R set.
 */
export async function mpaConnect(socket: Socket, p: MpaParams, timeoutMs = MPA_REPLY_TIMEOUT_MS): Promise<MpaOutcome> {
  socket.setNoDelay(true);
  const ext = p.rdmapExt ?? true;
  sendFrame(socket, buildFrame('request', p, false, {}, ext ? MPA_RES_SOFTRDMA_EXT : 0));
  const { frame, rest } = await readFrame(socket, 'reply', timeoutMs);
  const { irdOrd, user } = splitPrivate(frame);
  if (frame.reject) {
    throw Object.assign(new Error('MPA connection rejected by the peer'), { code: 'ECONNREFUSED', privateData: user });
  }
  // The Responder sends nothing before our first FPDU (RFC 5044 §7.1.2).
  if (rest.length > 0) throw TerminateError.mpa(MpaEcode.InvalidRequestReply, 'FPDU data before the first FPDU of the Initiator');
  const crc = p.crc || frame.crc;
  return {
    stream: new LlpStream(socket, { pending: null, rdmapExt: ext && (frame.res & MPA_RES_SOFTRDMA_EXT) !== 0 }),
    mpa: { crc, recvMarkers: p.markers, xmitMarkers: frame.markers, ddpRdmapVersion: 1 },
    peer: frame,
    peerIrdOrd: irdOrd,
    peerPrivateData: user,
    rdmapExt: ext && (frame.res & MPA_RES_SOFTRDMA_EXT) !== 0,
  };
}

/** Responder half, first step: reads and validates the Request. */
export async function mpaReadRequest(
  socket: Socket,
  timeoutMs = MPA_REQUEST_TIMEOUT_MS,
): Promise<{ frame: MpaReqRep; irdOrd: MpaIrdOrd | null; privateData: Uint8Array; rest: Uint8Array }> {
  const { frame, rest } = await readFrame(socket, 'request', timeoutMs);
  if (rest.length > 0) {
    // The Initiator must wait for the Reply before sending FPDUs (siw: "peer sent extra data").
    throw TerminateError.mpa(MpaEcode.InvalidRequestReply, 'data after the MPA Request before the Reply');
  }
  const { irdOrd, user } = splitPrivate(frame);
  return { frame, irdOrd, privateData: user, rest };
}

/**
 * Responder half, second step: sends the Reply accepting the Request and returns the stream.
 * The Reply's revision is the lower of the two; CRCs are on if either side asked.
 */
export function mpaAccept(socket: Socket, req: MpaReqRep, p: MpaParams): MpaOutcome {
  const revision = Math.min(p.revision, req.revision) as 1 | 2;
  const mine: MpaParams = { ...p, revision, crc: p.crc || req.crc };
  const ext = (p.rdmapExt ?? true) && (req.res & MPA_RES_SOFTRDMA_EXT) !== 0;
  sendFrame(socket, buildFrame('reply', mine, false, {}, ext ? MPA_RES_SOFTRDMA_EXT : 0));
  const { irdOrd, user } = splitPrivate(req);
  return {
    stream: new LlpStream(socket, { awaitFirstRx: true, rdmapExt: ext }),
    mpa: { crc: mine.crc, recvMarkers: p.markers, xmitMarkers: req.markers, ddpRdmapVersion: 1 },
    peer: req,
    peerIrdOrd: irdOrd,
    peerPrivateData: user,
    rdmapExt: ext,
  };
}

/** Responder: sends a Reply with the R bit and the given private data, then closes. */
export function mpaReject(socket: Socket, req: MpaReqRep, p: MpaParams): void {
  const revision = Math.min(p.revision, req.revision) as 1 | 2;
  sendFrame(socket, buildFrame('reply', { ...p, revision }, true));
  socket.end();
}

// =============================================================================================
// Negotiation rules (pure functions; the connection manager in cm.ts drives them over sockets)
// =============================================================================================

/**
 * CRC policy of one side (RFC 5044 §7.1.1 "C" flag):
 * - `never`: do not ask for CRCs and refuse a peer that asks (Linux siw's `mpa_crc_strict`
 *   without `mpa_crc_required`);
 * - `allow`: do not ask, but honour a peer that asks (RFC 5044 §7.1.2: CRCs are used in both
 *   directions if either side asks);
 * - `require`: ask for CRCs (so they are always on).
 */
export type CrcPolicy = 'never' | 'allow' | 'require';

/**
 * Marker policy of one side (RFC 5044 §7.1.1 "M" flag; Markers are per direction, each side
 * asks for the Markers it wants to *receive*):
 * - `refuse`: do not ask for Markers and refuse a peer that asks us to send them (siw);
 * - `allow`: do not ask, but send Markers to a peer that asks;
 * - `require`: ask for Markers on what we receive, and send them to a peer that asks.
 */
export type MarkerPolicy = 'refuse' | 'allow' | 'require';

export interface MpaPolicy {
  crc: CrcPolicy;
  markers: MarkerPolicy;
}

/** RFC-conformant and interoperable with siw's defaults: ask for nothing, honour requests. */
export const DEFAULT_MPA_POLICY: Readonly<MpaPolicy> = Object.freeze({ crc: 'allow', markers: 'allow' });

/**
 * How IRD/ORD mismatches are resolved (RFC 6581 §9.1, IT-API §6.2):
 * - `relaxed` (siw's `relaxed_ird_negotiation`, the default): lower ORD to the peer's IRD and
 *   raise IRD to the peer's ORD (within the RNIC's per-QP limit) instead of failing;
 * - `strict`: any local ORD above the peer's IRD, or IRD below the peer's ORD, fails.
 */
export type IrdOrdMode = 'relaxed' | 'strict';

/** RFC 6581 RTR types in the order Linux siw prefers them as Responder (WRITE, then READ). */
export const DEFAULT_RTR_PREFERENCE: readonly RtrType[] = Object.freeze(['write', 'read', 'send']);

/** Largest ULP private data a frame can carry: 512, less the RFC 6581 IRD/ORD word when enhanced. */
export function maxUserPrivateData(enhanced: boolean): number {
  return MPA_MAX_PRIVATE_DATA - (enhanced ? MPA_V2_IRD_ORD_LEN : 0);
}

/** What the Initiator puts in its MPA Request. */
export interface MpaOffer {
  /** 1 = RFC 5044; 2 = RFC 6581 (sets the Enhanced flag and carries the IRD/ORD word). */
  revision: 1 | 2;
  /** Ask for CRCs (C). */
  crc: boolean;
  /** Ask for Markers on the stream we receive (M). */
  markers: boolean;
  /** IRD and ORD advertised in the RFC 6581 word (revision 2 only). */
  ird: number;
  ord: number;
  /** RFC 6581 peer-to-peer mode: the RTR types offered (flag A plus B/C/D); null = not P2P. */
  p2p: readonly RtrType[] | null;
  /** ULP private data (after the IRD/ORD word at revision 2). */
  privateData: Uint8Array;
  /** Offer softrdma's RDMAP extensions (the reserved bit {@link MPA_RES_SOFTRDMA_EXT}). */
  rdmapExt?: boolean;
}

/** The fields of a Reply this side sends. */
export interface MpaReplySpec {
  revision: 1 | 2;
  /** Carry the RFC 6581 word (only if the Request was enhanced and `revision` is 2). */
  enhanced: boolean;
  crc: boolean;
  markers: boolean;
  reject: boolean;
  ird: number;
  ord: number;
  /** Echo flag A (RFC 6581: a Reply to a P2P Request must). */
  p2p: boolean;
  /** The single RTR type selected (RFC 6581), or null. */
  rtr: RtrType | null;
  privateData: Uint8Array;
  /** Accept softrdma's RDMAP extensions (only in reply to a Request that offered them). */
  rdmapExt?: boolean;
}

function irdOrdWord(ird: number, ord: number, p2p: boolean, rtr: readonly RtrType[]): Uint8Array {
  return encodeMpaIrdOrd({
    ird: Math.min(ird, 0x3fff),
    ord: Math.min(ord, 0x3fff),
    peerToPeer: p2p,
    zeroLengthSendRtr: rtr.includes('send'),
    zeroLengthWriteRtr: rtr.includes('write'),
    zeroLengthReadRtr: rtr.includes('read'),
  });
}

function withWord(word: Uint8Array | null, user: Uint8Array): Uint8Array {
  if (!word) return user;
  const pd = new Uint8Array(word.length + user.length);
  pd.set(word, 0);
  pd.set(user, word.length);
  return pd;
}

/** Encodes the Initiator's MPA Request (RFC 5044 §7.1.1; RFC 6581 §9 at revision 2). */
export function encodeRequest(o: MpaOffer): Uint8Array {
  const enhanced = o.revision === 2;
  if (o.privateData.length > maxUserPrivateData(enhanced)) {
    throw new RangeError(`private data of ${o.privateData.length} octets; at most ${maxUserPrivateData(enhanced)} fit`);
  }
  const word = enhanced ? irdOrdWord(o.ird, o.ord, o.p2p !== null, o.p2p ?? []) : null;
  return encodeMpaReqRep({
    type: 'request',
    markers: o.markers,
    crc: o.crc,
    reject: false,
    enhanced,
    res: o.rdmapExt ? MPA_RES_SOFTRDMA_EXT : 0,
    revision: o.revision,
    privateData: withWord(word, o.privateData),
  });
}

/** Encodes a Reply (accepting or, with `reject`, refusing). */
export function encodeReply(r: MpaReplySpec): Uint8Array {
  const enhanced = r.enhanced && r.revision === 2;
  if (r.privateData.length > maxUserPrivateData(enhanced)) {
    throw new RangeError(`private data of ${r.privateData.length} octets; at most ${maxUserPrivateData(enhanced)} fit`);
  }
  const word = enhanced ? irdOrdWord(r.ird, r.ord, r.p2p, r.rtr ? [r.rtr] : []) : null;
  return encodeMpaReqRep({
    type: 'reply',
    markers: r.markers,
    crc: r.crc,
    reject: r.reject,
    enhanced,
    res: r.rdmapExt && !r.reject ? MPA_RES_SOFTRDMA_EXT : 0,
    revision: r.revision,
    privateData: withWord(word, r.privateData),
  });
}

/**
 * Splits a frame's private data into the RFC 6581 word and the ULP's part. The word is present
 * only in a revision-2 frame with the Enhanced flag (RFC 6581 §9).
 */
export function splitPrivateData(f: MpaReqRep): { irdOrd: MpaIrdOrd | null; user: Uint8Array } {
  return splitPrivate(f);
}

/** RTR types offered by an RFC 6581 word (flags B, C, D), in the RFC's order. */
export function offeredRtr(w: MpaIrdOrd): RtrType[] {
  const out: RtrType[] = [];
  if (w.zeroLengthWriteRtr) out.push('write');
  if (w.zeroLengthReadRtr) out.push('read');
  if (w.zeroLengthSendRtr) out.push('send');
  return out;
}

/** Why a negotiation failed. */
export type MpaFailureKind =
  /** The peer's frame breaks RFC 5044/6581 (the MPA error code says how). */
  | 'protocol'
  /** The peer asks for CRCs or Markers that the local policy refuses. */
  | 'policy'
  /** The peer speaks an MPA revision we do not (0 = RDMAC, or above 2). */
  | 'bad-revision'
  /** No RTR type both sides accept (RFC 6581). */
  | 'no-matching-rtr'
  /** IRD/ORD cannot be reconciled (strict mode, or beyond the RNIC's limit). */
  | 'ird-ord';

export interface MpaFailure {
  kind: MpaFailureKind;
  message: string;
  /**
   * The LLP/MPA error code to put in a Terminate message when the failure is detected by the
   * Initiator after a well-formed Reply (RFC 6581 §9.2: 0x06 Insufficient IRD, 0x07 No Matching
   * RTR). Null when no Terminate is sent (the stream never left streaming mode).
   */
  terminate: MpaEcode | null;
}

/** Responder-side configuration (a listener's, or a socket conversion's). */
export interface ResponderConfig {
  /** Highest revision we speak (the Reply's revision is the lower of this and the Request's). */
  revision: 1 | 2;
  policy: MpaPolicy;
  rtrPreference: readonly RtrType[];
  irdOrd: IrdOrdMode;
  /** Accept softrdma's RDMAP extensions when a Request offers them (default true). */
  rdmapExt?: boolean;
}

/** A validated MPA Request, as the connection-request event reports it. */
export interface MpaRequestInfo {
  frame: MpaReqRep;
  /** Revision and Enhanced flag the Reply will carry. */
  replyRevision: 1 | 2;
  replyEnhanced: boolean;
  /** The peer's RFC 6581 word, when it sent one we will answer. */
  peerIrdOrd: MpaIrdOrd | null;
  /** RTR types the Initiator offered in P2P mode (null: not P2P). */
  p2p: RtrType[] | null;
  /** CRCs will be used (either side asked). */
  crc: boolean;
  /** The Initiator asked for Markers (we must send them). */
  peerMarkers: boolean;
  /** We ask for Markers (policy `require`). */
  localMarkers: boolean;
  /** ULP private data (without the IRD/ORD word). */
  privateData: Uint8Array;
  /** The Initiator offered softrdma's RDMAP extensions (and we accept them). */
  rdmapExt: boolean;
}

const fail = (kind: MpaFailureKind, message: string, terminate: MpaEcode | null = null): { ok: false; failure: MpaFailure } => ({
  ok: false,
  failure: { kind, message, terminate },
});

/**
 * The Reply revision for a Request of revision `rev`: RFC 5044 §7.1.1 has the Responder answer
 * an unsupported revision with a Reply carrying its own revision and the R bit; revision 0 (RDMAC)
 * is answered with revision 1, anything above with our highest.
 */
export function replyRevisionFor(rev: number, ours: 1 | 2): 1 | 2 {
  if (rev <= 1) return 1;
  return Math.min(rev, ours) as 1 | 2;
}

/**
 * Responder, step 1 (RFC 5044 §7.1.2, RFC 6581 §9): checks a well-formed Request against the
 * local policy. On failure, `reply` is the Reply with R set that refuses it.
 */
export function examineRequest(
  req: MpaReqRep,
  cfg: ResponderConfig,
): { ok: true; info: MpaRequestInfo } | { ok: false; failure: MpaFailure; reply: Uint8Array } {
  const replyRevision = replyRevisionFor(req.revision, cfg.revision);
  const replyEnhanced = replyRevision === 2 && req.revision === 2 && req.enhanced;
  const refuse = (f: { ok: false; failure: MpaFailure }) => ({
    ...f,
    reply: encodeReply({
      revision: replyRevision,
      enhanced: replyEnhanced,
      crc: false,
      markers: false,
      reject: true,
      ird: 0,
      ord: 0,
      p2p: false,
      rtr: null,
      privateData: new Uint8Array(0),
    }),
  });
  if (req.revision !== 1 && req.revision !== 2) {
    return refuse(fail('bad-revision', `MPA revision ${req.revision} is not supported (1 and 2 are)`));
  }
  // Markers: the Initiator's M asks *us* to insert Markers (RFC 5044 §7.1.1).
  if (req.markers && cfg.policy.markers === 'refuse') return refuse(fail('policy', 'peer requires Markers; policy refuses them'));
  // CRC: RFC 5044 §7.1.2 makes CRCs mandatory once either side asks; `never` refuses instead.
  if (req.crc && cfg.policy.crc === 'never') return refuse(fail('policy', 'peer requires CRCs; policy refuses them'));
  const { irdOrd, user } = splitPrivate(req);
  let p2p: RtrType[] | null = null;
  if (replyEnhanced && irdOrd?.peerToPeer) {
    p2p = offeredRtr(irdOrd);
    // The Request must leave us a type we can pick; an empty offer is treated as siw does
    // (it proposes a zero-length Write), so only a non-empty offer can be unsatisfiable.
    if (p2p.length > 0 && !p2p.some((t) => cfg.rtrPreference.includes(t))) {
      return refuse(fail('no-matching-rtr', `offered RTR types ${p2p.join(',')} are not acceptable`));
    }
  }
  return {
    ok: true,
    info: {
      frame: req,
      replyRevision,
      replyEnhanced,
      peerIrdOrd: replyEnhanced ? irdOrd : null,
      p2p,
      crc: req.crc || cfg.policy.crc === 'require',
      peerMarkers: req.markers,
      localMarkers: cfg.policy.markers === 'require',
      privateData: user,
      rdmapExt: (cfg.rdmapExt ?? true) && (req.res & MPA_RES_SOFTRDMA_EXT) !== 0,
    },
  };
}

/** Local resources the Responder brings to an accept. */
export interface ResponderLocal {
  ird: number;
  ord: number;
  /** The RNIC's per-QP IRD limit (relaxed negotiation may raise IRD up to it). */
  maxIrd: number;
  /** The QP can answer an RDMA Read (needed for a Read RTR). */
  readRtrOk: boolean;
  privateData: Uint8Array;
}

/** The outcome of a negotiation: what the QP is given at Idle→RTS. */
export interface MpaAgreement {
  mpa: MpaAttrs;
  ird: number;
  ord: number;
  /** RFC 6581 RTR type in use (Initiator sends it, Responder expects it), or null. */
  rtr: RtrType | null;
  revision: 1 | 2;
  enhanced: boolean;
  /** The peer's advertised IRD/ORD (null when no RFC 6581 word was exchanged). */
  peerIrd: number | null;
  peerOrd: number | null;
  /** Both sides agreed softrdma's RDMAP extensions (RFC 7306 atomics and Immediate Data). */
  rdmapExt: boolean;
}

/**
 * Responder, step 2: builds the accepting Reply (RFC 5044 §7.1.2, RFC 6581 §9.1).
 *
 * IRD/ORD (RFC 6581 §9.1, IT-API §6.2 step 2): ORD = min(ORD, peer IRD), since we must never
 * have more Reads outstanding than the peer can take; IRD must cover the peer's ORD: relaxed
 * mode raises it (capped at the RNIC limit, as siw caps the peer's ORD), strict mode fails.
 * Without the RFC 6581 word nothing is exchanged and both stay as given (IRD/ORD are then the
 * ULP's business, IT-API §6.2 "suppression").
 *
 * P2P (RFC 6581 §9.1): the Reply echoes A and selects exactly one offered RTR type, by
 * `rtrPreference`; a Read RTR needs Reads enabled and IRD ≥ 1.
 */
export function responderAgree(
  info: MpaRequestInfo,
  local: ResponderLocal,
  cfg: ResponderConfig,
): { ok: true; reply: Uint8Array; agreement: MpaAgreement } | { ok: false; failure: MpaFailure } {
  const enhanced = info.replyEnhanced;
  if (local.privateData.length > maxUserPrivateData(enhanced)) {
    return fail('protocol', `private data of ${local.privateData.length} octets; at most ${maxUserPrivateData(enhanced)} fit`);
  }
  let { ird, ord } = local;
  let rtr: RtrType | null = null;
  const w = info.peerIrdOrd;
  if (w) {
    if (cfg.irdOrd === 'strict') {
      if (ord > w.ird) return fail('ird-ord', `ORD ${ord} exceeds the peer's IRD ${w.ird}`);
      if (ird < w.ord) return fail('ird-ord', `IRD ${ird} is below the peer's ORD ${w.ord}`);
    } else {
      ord = Math.min(ord, w.ird);
      ird = Math.max(ird, Math.min(w.ord, local.maxIrd));
    }
    if (info.p2p) {
      const offered = info.p2p.length > 0 ? info.p2p : (['write'] as RtrType[]);
      for (const t of cfg.rtrPreference) {
        if (!offered.includes(t)) continue;
        if (t === 'read' && !local.readRtrOk) continue;
        rtr = t;
        break;
      }
      if (!rtr) return fail('no-matching-rtr', `no acceptable RTR type among ${offered.join(',')}`);
      // A zero-length Read RTR occupies one inbound Read slot.
      if (rtr === 'read' && ird < 1) ird = 1;
    }
  }
  const reply = encodeReply({
    revision: info.replyRevision,
    enhanced,
    crc: info.crc,
    markers: info.localMarkers,
    reject: false,
    ird,
    ord,
    p2p: info.p2p !== null,
    rtr,
    privateData: local.privateData,
    rdmapExt: info.rdmapExt,
  });
  return {
    ok: true,
    reply,
    agreement: {
      mpa: { crc: info.crc, recvMarkers: info.localMarkers, xmitMarkers: info.peerMarkers, ddpRdmapVersion: 1 },
      ird,
      ord,
      rtr,
      revision: info.replyRevision,
      enhanced,
      peerIrd: w ? w.ird : null,
      peerOrd: w ? w.ord : null,
      rdmapExt: info.rdmapExt,
    },
  };
}

/** The Reply that refuses a Request (R set), with the ULP's private data. */
export function rejectReply(info: MpaRequestInfo, privateData: Uint8Array): Uint8Array {
  return encodeReply({
    revision: info.replyRevision,
    enhanced: info.replyEnhanced,
    crc: info.crc,
    markers: info.localMarkers,
    reject: true,
    ird: 0,
    ord: 0,
    p2p: false,
    rtr: null,
    privateData,
  });
}

/** Initiator-side configuration. */
export interface InitiatorConfig {
  policy: MpaPolicy;
  irdOrd: IrdOrdMode;
  /** The RNIC's per-QP IRD limit. */
  maxIrd: number;
}

/**
 * Initiator: checks the Reply against what the Request offered (RFC 5044 §7.1.2, RFC 6581 §9)
 * and derives the QP's attributes. A Reply with R set is reported by the caller before this.
 *
 * - Revision: never above the Request's. A revision-1 Reply (or one without the Enhanced flag)
 *   to an enhanced Request is accepted as RFC 5044 negotiation, with no IRD/ORD exchanged, unless
 *   we asked for P2P: then nothing would make the Responder wait for our RTR (0x07).
 * - CRC: on if either side asked; a Reply that clears C although we set it is refused, as siw
 *   does with `mpa_crc_required`; a Reply asking for CRCs under `never` is a policy failure.
 * - Markers: the Reply's M asks us to send Markers; `refuse` fails.
 * - P2P: the Reply must echo A and set exactly one of the offered RTR types (siw issue #18/#20:
 *   the type used is the one negotiated in the Reply); else "No Matching RTR" (0x07).
 * - IRD/ORD: ORD = min(ORD, peer IRD) (strict: fail 0x06); IRD must cover the peer's ORD:
 *   relaxed raises it up to the RNIC limit, beyond it (or strict) "Insufficient IRD" (0x06).
 */
export function initiatorAgree(
  offer: MpaOffer,
  reply: MpaReqRep,
  cfg: InitiatorConfig,
): { ok: true; agreement: MpaAgreement; privateData: Uint8Array } | { ok: false; failure: MpaFailure } {
  if (reply.revision > offer.revision) {
    return fail('protocol', `Reply revision ${reply.revision} above the Request's ${offer.revision}`);
  }
  if (reply.markers && cfg.policy.markers === 'refuse') return fail('policy', 'peer requires Markers; policy refuses them');
  if (offer.crc && !reply.crc) return fail('policy', 'peer declines the CRCs we require');
  if (reply.crc && !offer.crc && cfg.policy.crc === 'never') return fail('policy', 'peer requires CRCs; policy refuses them');
  const revision = reply.revision as 1 | 2;
  const enhanced = offer.revision === 2 && reply.revision === 2 && reply.enhanced;
  const { irdOrd, user } = splitPrivate(reply);
  let ird = offer.ird;
  let ord = offer.ord;
  let rtr: RtrType | null = null;
  if (!enhanced) {
    if (offer.p2p) return fail('no-matching-rtr', 'P2P requested but the Reply is not enhanced', MpaEcode.NoMatchingRtr);
  } else {
    const w = irdOrd!;
    if (w.peerToPeer !== (offer.p2p !== null)) {
      return fail(
        'no-matching-rtr',
        w.peerToPeer ? 'Reply sets P2P that was not requested' : 'Reply does not echo P2P',
        MpaEcode.NoMatchingRtr,
      );
    }
    if (offer.p2p) {
      const chosen = offeredRtr(w);
      if (chosen.length !== 1 || !offer.p2p.includes(chosen[0]!)) {
        return fail(
          'no-matching-rtr',
          `Reply selects RTR [${chosen.join(',')}] of offered [${offer.p2p.join(',')}]`,
          MpaEcode.NoMatchingRtr,
        );
      }
      rtr = chosen[0]!;
    }
    if (ord > w.ird) {
      if (cfg.irdOrd === 'strict') return fail('ird-ord', `ORD ${ord} exceeds the peer's IRD ${w.ird}`, MpaEcode.InsufficientIrd);
      ord = w.ird;
    }
    if (ird < w.ord) {
      if (cfg.irdOrd === 'strict' || w.ord > cfg.maxIrd) {
        return fail('ird-ord', `IRD ${ird} cannot cover the peer's ORD ${w.ord}`, MpaEcode.InsufficientIrd);
      }
      ird = w.ord;
    }
  }
  return {
    ok: true,
    privateData: user,
    agreement: {
      mpa: { crc: offer.crc || reply.crc, recvMarkers: offer.markers, xmitMarkers: reply.markers, ddpRdmapVersion: 1 },
      ird,
      ord,
      rtr,
      revision,
      enhanced,
      peerIrd: enhanced ? irdOrd!.ird : null,
      peerOrd: enhanced ? irdOrd!.ord : null,
      rdmapExt: offer.rdmapExt === true && (reply.res & MPA_RES_SOFTRDMA_EXT) !== 0,
    },
  };
}

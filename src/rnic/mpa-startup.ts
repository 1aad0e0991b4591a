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
  MPA_V2_IRD_ORD_LEN,
  type MpaIrdOrd,
  type MpaReqRep,
} from '../wire/mpa.js';
import { LlpStream } from './llp.js';
import type { MpaAttrs } from './qp.js';
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
}

/** Default MPA start-up timeouts, as Linux siw: 10 s for the Reply, 5 s for the Request. */
export const MPA_REPLY_TIMEOUT_MS = 10_000;
export const MPA_REQUEST_TIMEOUT_MS = 5_000;

/** The frame this side sends. */
export function buildFrame(type: 'request' | 'reply', p: MpaParams, reject = false, extra: Partial<MpaIrdOrd> = {}): Uint8Array {
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
    res: 0,
    revision: p.revision,
    privateData: pd,
  });
}

/**
 * Reads one Request or Reply frame from `socket`, then pauses it. Resolves with the frame and
 * any octets that followed it in the same chunk; rejects with a {@link TerminateError} for a
 * malformed frame, or an Error on timeout, close or socket error.
 */
export function readFrame(
  socket: Socket,
  expect: 'request' | 'reply',
  timeoutMs: number,
): Promise<{ frame: MpaReqRep; rest: Uint8Array }> {
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
  sendFrame(socket, buildFrame('request', p));
  const { frame, rest } = await readFrame(socket, 'reply', timeoutMs);
  const { irdOrd, user } = splitPrivate(frame);
  if (frame.reject) {
    throw Object.assign(new Error('MPA connection rejected by the peer'), { code: 'ECONNREFUSED', privateData: user });
  }
  // The Responder sends nothing before our first FPDU (RFC 5044 §7.1.2).
  if (rest.length > 0) throw TerminateError.mpa(MpaEcode.InvalidRequestReply, 'FPDU data before the first FPDU of the Initiator');
  const crc = p.crc || frame.crc;
  return {
    stream: new LlpStream(socket, { pending: null }),
    mpa: { crc, recvMarkers: p.markers, xmitMarkers: frame.markers, ddpRdmapVersion: 1 },
    peer: frame,
    peerIrdOrd: irdOrd,
    peerPrivateData: user,
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
  sendFrame(socket, buildFrame('reply', mine));
  const { irdOrd, user } = splitPrivate(req);
  return {
    stream: new LlpStream(socket, { awaitFirstRx: true }),
    mpa: { crc: mine.crc, recvMarkers: p.markers, xmitMarkers: req.markers, ddpRdmapVersion: 1 },
    peer: req,
    peerIrdOrd: irdOrd,
    peerPrivateData: user,
  };
}

/** Responder: sends a Reply with the R bit and the given private data, then closes. */
export function mpaReject(socket: Socket, req: MpaReqRep, p: MpaParams): void {
  const revision = Math.min(p.revision, req.revision) as 1 | 2;
  sendFrame(socket, buildFrame('reply', { ...p, revision }, true));
  socket.end();
}


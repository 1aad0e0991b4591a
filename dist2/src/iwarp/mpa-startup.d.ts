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
import { MpaEcode } from '../wire/errors.js';
import { type MpaIrdOrd, type MpaReqRep } from '../wire/mpa.js';
import { LlpStream, type RtrType } from './llp.js';
import type { MpaAttrs } from '../rnic/qp.js';
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
export declare const MPA_REPLY_TIMEOUT_MS = 10000;
export declare const MPA_REQUEST_TIMEOUT_MS = 5000;
/**
 * How long a delivered Request may wait for the ULP's accept or reject before the Responder
 * rejects it: below the Initiator's 10 s, so the Initiator gets an R Reply rather than its own
 * timeout (siw and IT-API set no such bound; a ULP that never answers would hold it forever).
 */
export declare const MPA_ACCEPT_TIMEOUT_MS = 8000;
/** The frame this side sends. */
export declare function buildFrame(type: 'request' | 'reply', p: MpaParams, reject?: boolean, extra?: Partial<MpaIrdOrd>, res?: number): Uint8Array;
/**
 * Reads one Request or Reply frame from `socket`, then pauses it. Resolves with the frame and
 * any octets that followed it in the same chunk; rejects with a {@link TerminateError} for a
 * malformed frame, or an Error on timeout, close or socket error.
 */
export declare function readFrame(socket: Socket, expect: 'request' | 'reply', timeoutMs: number): Promise<{
    frame: MpaReqRep;
    rest: Uint8Array;
}>;
/**
 * Initiator half: sends the Request and waits for the Reply. Rejects with an Error whose
 * `code` is `ECONNREFUSED` (and `privateData` holds the peer's) when the Reply has R set.
 */
export declare function mpaConnect(socket: Socket, p: MpaParams, timeoutMs?: number): Promise<MpaOutcome>;
/** Responder half, first step: reads and validates the Request. */
export declare function mpaReadRequest(socket: Socket, timeoutMs?: number): Promise<{
    frame: MpaReqRep;
    irdOrd: MpaIrdOrd | null;
    privateData: Uint8Array;
    rest: Uint8Array;
}>;
/**
 * Responder half, second step: sends the Reply accepting the Request and returns the stream.
 * The Reply's revision is the lower of the two; CRCs are on if either side asked.
 */
export declare function mpaAccept(socket: Socket, req: MpaReqRep, p: MpaParams): MpaOutcome;
/** Responder: sends a Reply with the R bit and the given private data, then closes. */
export declare function mpaReject(socket: Socket, req: MpaReqRep, p: MpaParams): void;
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
export declare const DEFAULT_MPA_POLICY: Readonly<MpaPolicy>;
/**
 * How IRD/ORD mismatches are resolved (RFC 6581 §9.1, IT-API §6.2):
 * - `relaxed` (siw's `relaxed_ird_negotiation`, the default): lower ORD to the peer's IRD and
 *   raise IRD to the peer's ORD (within the RNIC's per-QP limit) instead of failing;
 * - `strict`: any local ORD above the peer's IRD, or IRD below the peer's ORD, fails.
 */
export type IrdOrdMode = 'relaxed' | 'strict';
/** RFC 6581 RTR types in the order Linux siw prefers them as Responder (WRITE, then READ). */
export declare const DEFAULT_RTR_PREFERENCE: readonly RtrType[];
/** Largest ULP private data a frame can carry: 512, less the RFC 6581 IRD/ORD word when enhanced. */
export declare function maxUserPrivateData(enhanced: boolean): number;
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
/** Encodes the Initiator's MPA Request (RFC 5044 §7.1.1; RFC 6581 §9 at revision 2). */
export declare function encodeRequest(o: MpaOffer): Uint8Array;
/** Encodes a Reply (accepting or, with `reject`, refusing). */
export declare function encodeReply(r: MpaReplySpec): Uint8Array;
/**
 * Splits a frame's private data into the RFC 6581 word and the ULP's part. The word is present
 * only in a revision-2 frame with the Enhanced flag (RFC 6581 §9).
 */
export declare function splitPrivateData(f: MpaReqRep): {
    irdOrd: MpaIrdOrd | null;
    user: Uint8Array;
};
/** RTR types offered by an RFC 6581 word (flags B, C, D), in the RFC's order. */
export declare function offeredRtr(w: MpaIrdOrd): RtrType[];
/** Why a negotiation failed. */
export type MpaFailureKind = 
/** The peer's frame breaks RFC 5044/6581 (the MPA error code says how). */
'protocol'
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
/**
 * The Reply revision for a Request of revision `rev`: RFC 5044 §7.1.1 has the Responder answer
 * an unsupported revision with a Reply carrying its own revision and the R bit; revision 0 (RDMAC)
 * is answered with revision 1, anything above with our highest.
 */
export declare function replyRevisionFor(rev: number, ours: 1 | 2): 1 | 2;
/**
 * Responder, step 1 (RFC 5044 §7.1.2, RFC 6581 §9): checks a well-formed Request against the
 * local policy. On failure, `reply` is the Reply with R set that refuses it.
 */
export declare function examineRequest(req: MpaReqRep, cfg: ResponderConfig): {
    ok: true;
    info: MpaRequestInfo;
} | {
    ok: false;
    failure: MpaFailure;
    reply: Uint8Array;
};
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
export declare function responderAgree(info: MpaRequestInfo, local: ResponderLocal, cfg: ResponderConfig): {
    ok: true;
    reply: Uint8Array;
    agreement: MpaAgreement;
} | {
    ok: false;
    failure: MpaFailure;
};
/** The Reply that refuses a Request (R set), with the ULP's private data. */
export declare function rejectReply(info: MpaRequestInfo, privateData: Uint8Array): Uint8Array;
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
export declare function initiatorAgree(offer: MpaOffer, reply: MpaReqRep, cfg: InitiatorConfig): {
    ok: true;
    agreement: MpaAgreement;
    privateData: Uint8Array;
} | {
    ok: false;
    failure: MpaFailure;
};

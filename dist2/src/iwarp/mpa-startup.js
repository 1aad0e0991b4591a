import { MpaEcode, TerminateError } from '../wire/errors.js';
import { decodeMpaIrdOrd, decodeMpaReqRep, encodeMpaIrdOrd, encodeMpaReqRep, MPA_MAX_PRIVATE_DATA, MPA_RES_SOFTRDMA_EXT, MPA_V2_IRD_ORD_LEN, } from '../wire/mpa.js';
import { LlpStream } from './llp.js';
import { tapSocket } from './trace.js';
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
export function buildFrame(type, p, reject = false, extra = {}, res = 0) {
    const user = p.privateData ?? new Uint8Array(0);
    const enhanced = p.revision === 2;
    const max = MPA_MAX_PRIVATE_DATA - (enhanced ? MPA_V2_IRD_ORD_LEN : 0);
    if (user.length > max)
        throw new RangeError(`private data of ${user.length} octets; at most ${max} fit`);
    let pd = user;
    if (enhanced) {
        pd = new Uint8Array(MPA_V2_IRD_ORD_LEN + user.length);
        encodeMpaIrdOrd({
            ird: Math.min(p.ird, 0x3fff),
            ord: Math.min(p.ord, 0x3fff),
            peerToPeer: false,
            zeroLengthSendRtr: false,
            zeroLengthWriteRtr: false,
            zeroLengthReadRtr: false,
            ...extra,
        }, pd);
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
export function readFrame(socket, expect, timeoutMs) {
    const tap = tapSocket(socket, expect === 'request' ? 'passive' : 'active');
    return new Promise((resolve, reject) => {
        let buf = new Uint8Array(0);
        const done = () => {
            clearTimeout(timer);
            socket.off('data', onData);
            socket.off('error', onErr);
            socket.off('close', onClose);
            socket.off('end', onEnd);
            socket.pause();
        };
        const onData = (chunk) => {
            tap?.rx(chunk);
            const joined = new Uint8Array(buf.length + chunk.length);
            joined.set(buf, 0);
            joined.set(chunk, buf.length);
            buf = joined;
            let r;
            try {
                r = decodeMpaReqRep(buf, expect);
            }
            catch (e) {
                done();
                reject(e);
                return;
            }
            if (r.status === 'frame') {
                done();
                resolve({ frame: r.frame, rest: buf.slice(r.consumed) });
            }
        };
        const onErr = (e) => {
            done();
            reject(e);
        };
        const onClose = () => {
            done();
            reject(new Error(`connection closed before the MPA ${expect}`));
        };
        const onEnd = () => {
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
function splitPrivate(f) {
    if (f.revision === 2 && f.enhanced) {
        return { irdOrd: decodeMpaIrdOrd(f.privateData), user: f.privateData.subarray(MPA_V2_IRD_ORD_LEN) };
    }
    return { irdOrd: null, user: f.privateData };
}
/** Writes a streaming-mode frame (and traces it). */
function sendFrame(socket, b) {
    tapSocket(socket)?.tx(b);
    socket.write(b);
}
/**
 * Initiator half: sends the Request and waits for the Reply. Rejects with an Error whose
 * `code` is `ECONNREFUSED` (and `privateData` holds the peer's) when the Reply has R set.
 */
export async function mpaConnect(socket, p, timeoutMs = MPA_REPLY_TIMEOUT_MS) {
    socket.setNoDelay(true);
    const ext = p.rdmapExt ?? true;
    sendFrame(socket, buildFrame('request', p, false, {}, ext ? MPA_RES_SOFTRDMA_EXT : 0));
    const { frame, rest } = await readFrame(socket, 'reply', timeoutMs);
    const { irdOrd, user } = splitPrivate(frame);
    if (frame.reject) {
        throw Object.assign(new Error('MPA connection rejected by the peer'), { code: 'ECONNREFUSED', privateData: user });
    }
    // The Responder sends nothing before our first FPDU (RFC 5044 §7.1.2).
    if (rest.length > 0)
        throw TerminateError.mpa(MpaEcode.InvalidRequestReply, 'FPDU data before the first FPDU of the Initiator');
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
export async function mpaReadRequest(socket, timeoutMs = MPA_REQUEST_TIMEOUT_MS) {
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
export function mpaAccept(socket, req, p) {
    const revision = Math.min(p.revision, req.revision);
    const mine = { ...p, revision, crc: p.crc || req.crc };
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
export function mpaReject(socket, req, p) {
    const revision = Math.min(p.revision, req.revision);
    sendFrame(socket, buildFrame('reply', { ...p, revision }, true));
    socket.end();
}
/** RFC-conformant and interoperable with siw's defaults: ask for nothing, honour requests. */
export const DEFAULT_MPA_POLICY = Object.freeze({ crc: 'allow', markers: 'allow' });
/** RFC 6581 RTR types in the order Linux siw prefers them as Responder (WRITE, then READ). */
export const DEFAULT_RTR_PREFERENCE = Object.freeze(['write', 'read', 'send']);
/** Largest ULP private data a frame can carry: 512, less the RFC 6581 IRD/ORD word when enhanced. */
export function maxUserPrivateData(enhanced) {
    return MPA_MAX_PRIVATE_DATA - (enhanced ? MPA_V2_IRD_ORD_LEN : 0);
}
function irdOrdWord(ird, ord, p2p, rtr) {
    return encodeMpaIrdOrd({
        ird: Math.min(ird, 0x3fff),
        ord: Math.min(ord, 0x3fff),
        peerToPeer: p2p,
        zeroLengthSendRtr: rtr.includes('send'),
        zeroLengthWriteRtr: rtr.includes('write'),
        zeroLengthReadRtr: rtr.includes('read'),
    });
}
function withWord(word, user) {
    if (!word)
        return user;
    const pd = new Uint8Array(word.length + user.length);
    pd.set(word, 0);
    pd.set(user, word.length);
    return pd;
}
/** Encodes the Initiator's MPA Request (RFC 5044 §7.1.1; RFC 6581 §9 at revision 2). */
export function encodeRequest(o) {
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
export function encodeReply(r) {
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
export function splitPrivateData(f) {
    return splitPrivate(f);
}
/** RTR types offered by an RFC 6581 word (flags B, C, D), in the RFC's order. */
export function offeredRtr(w) {
    const out = [];
    if (w.zeroLengthWriteRtr)
        out.push('write');
    if (w.zeroLengthReadRtr)
        out.push('read');
    if (w.zeroLengthSendRtr)
        out.push('send');
    return out;
}
const fail = (kind, message, terminate = null) => ({
    ok: false,
    failure: { kind, message, terminate },
});
/**
 * The Reply revision for a Request of revision `rev`: RFC 5044 §7.1.1 has the Responder answer
 * an unsupported revision with a Reply carrying its own revision and the R bit; revision 0 (RDMAC)
 * is answered with revision 1, anything above with our highest.
 */
export function replyRevisionFor(rev, ours) {
    if (rev <= 1)
        return 1;
    return Math.min(rev, ours);
}
/**
 * Responder, step 1 (RFC 5044 §7.1.2, RFC 6581 §9): checks a well-formed Request against the
 * local policy. On failure, `reply` is the Reply with R set that refuses it.
 */
export function examineRequest(req, cfg) {
    const replyRevision = replyRevisionFor(req.revision, cfg.revision);
    const replyEnhanced = replyRevision === 2 && req.revision === 2 && req.enhanced;
    const refuse = (f) => ({
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
    if (req.markers && cfg.policy.markers === 'refuse')
        return refuse(fail('policy', 'peer requires Markers; policy refuses them'));
    // CRC: RFC 5044 §7.1.2 makes CRCs mandatory once either side asks; `never` refuses instead.
    if (req.crc && cfg.policy.crc === 'never')
        return refuse(fail('policy', 'peer requires CRCs; policy refuses them'));
    const { irdOrd, user } = splitPrivate(req);
    let p2p = null;
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
export function responderAgree(info, local, cfg) {
    const enhanced = info.replyEnhanced;
    if (local.privateData.length > maxUserPrivateData(enhanced)) {
        return fail('protocol', `private data of ${local.privateData.length} octets; at most ${maxUserPrivateData(enhanced)} fit`);
    }
    let { ird, ord } = local;
    let rtr = null;
    const w = info.peerIrdOrd;
    if (w) {
        if (cfg.irdOrd === 'strict') {
            if (ord > w.ird)
                return fail('ird-ord', `ORD ${ord} exceeds the peer's IRD ${w.ird}`);
            if (ird < w.ord)
                return fail('ird-ord', `IRD ${ird} is below the peer's ORD ${w.ord}`);
        }
        else {
            ord = Math.min(ord, w.ird);
            ird = Math.max(ird, Math.min(w.ord, local.maxIrd));
        }
        if (info.p2p) {
            const offered = info.p2p.length > 0 ? info.p2p : ['write'];
            for (const t of cfg.rtrPreference) {
                if (!offered.includes(t))
                    continue;
                if (t === 'read' && !local.readRtrOk)
                    continue;
                rtr = t;
                break;
            }
            if (!rtr)
                return fail('no-matching-rtr', `no acceptable RTR type among ${offered.join(',')}`);
            // A zero-length Read RTR occupies one inbound Read slot.
            if (rtr === 'read' && ird < 1)
                ird = 1;
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
export function rejectReply(info, privateData) {
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
export function initiatorAgree(offer, reply, cfg) {
    if (reply.revision > offer.revision) {
        return fail('protocol', `Reply revision ${reply.revision} above the Request's ${offer.revision}`);
    }
    if (reply.markers && cfg.policy.markers === 'refuse')
        return fail('policy', 'peer requires Markers; policy refuses them');
    if (offer.crc && !reply.crc)
        return fail('policy', 'peer declines the CRCs we require');
    if (reply.crc && !offer.crc && cfg.policy.crc === 'never')
        return fail('policy', 'peer requires CRCs; policy refuses them');
    const revision = reply.revision;
    const enhanced = offer.revision === 2 && reply.revision === 2 && reply.enhanced;
    const { irdOrd, user } = splitPrivate(reply);
    let ird = offer.ird;
    let ord = offer.ord;
    let rtr = null;
    if (!enhanced) {
        if (offer.p2p)
            return fail('no-matching-rtr', 'P2P requested but the Reply is not enhanced', MpaEcode.NoMatchingRtr);
    }
    else {
        const w = irdOrd;
        if (w.peerToPeer !== (offer.p2p !== null)) {
            return fail('no-matching-rtr', w.peerToPeer ? 'Reply sets P2P that was not requested' : 'Reply does not echo P2P', MpaEcode.NoMatchingRtr);
        }
        if (offer.p2p) {
            const chosen = offeredRtr(w);
            if (chosen.length !== 1 || !offer.p2p.includes(chosen[0])) {
                return fail('no-matching-rtr', `Reply selects RTR [${chosen.join(',')}] of offered [${offer.p2p.join(',')}]`, MpaEcode.NoMatchingRtr);
            }
            rtr = chosen[0];
        }
        if (ord > w.ird) {
            if (cfg.irdOrd === 'strict')
                return fail('ird-ord', `ORD ${ord} exceeds the peer's IRD ${w.ird}`, MpaEcode.InsufficientIrd);
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
            peerIrd: enhanced ? irdOrd.ird : null,
            peerOrd: enhanced ? irdOrd.ord : null,
            rdmapExt: offer.rdmapExt === true && (reply.res & MPA_RES_SOFTRDMA_EXT) !== 0,
        },
    };
}
//# sourceMappingURL=mpa-startup.js.map
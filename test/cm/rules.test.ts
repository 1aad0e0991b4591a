/**
 * The negotiation rules of `mpa-startup.ts` as pure functions: edge cases the socket tests do
 * not reach (an empty P2P offer, revision answers, encoder limits).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEFAULT_MPA_POLICY,
  DEFAULT_RTR_PREFERENCE,
  encodeRequest,
  examineRequest,
  initiatorAgree,
  type MpaOffer,
  type ResponderConfig,
  replyRevisionFor,
  responderAgree,
} from '../../src/iwarp/mpa-startup.js';
import { decodeMpaReqRep, encodeMpaIrdOrd, encodeMpaReqRep, type MpaReqRep } from '../../src/wire/mpa.js';

const T = { timeout: 60_000 };

const cfg: ResponderConfig = { revision: 2, policy: { ...DEFAULT_MPA_POLICY }, rtrPreference: DEFAULT_RTR_PREFERENCE, irdOrd: 'relaxed' };
const frame = (b: Uint8Array): MpaReqRep => {
  const r = decodeMpaReqRep(b);
  if (r.status !== 'frame') throw new Error('frame');
  return r.frame;
};
const offer = (o: Partial<MpaOffer> = {}): MpaOffer => ({
  revision: 2,
  crc: false,
  markers: false,
  ird: 4,
  ord: 4,
  p2p: null,
  privateData: new Uint8Array(0),
  ...o,
});
const local = { ird: 4, ord: 4, maxIrd: 128, readRtrOk: true, privateData: new Uint8Array(0) };

test('the Reply revision: revision 0 is answered with 1, higher ones with ours', T, () => {
  assert.deepEqual(
    [0, 1, 2, 3, 255].map((r) => replyRevisionFor(r, 2)),
    [1, 1, 2, 2, 2],
  );
  assert.deepEqual(
    [0, 1, 2, 3].map((r) => replyRevisionFor(r, 1)),
    [1, 1, 1, 1],
  );
});

test('P2P with A set but no RTR type offered: the Responder picks a zero-length Write, as siw does', T, () => {
  const pd = encodeMpaIrdOrd({
    ird: 4,
    ord: 4,
    peerToPeer: true,
    zeroLengthSendRtr: false,
    zeroLengthWriteRtr: false,
    zeroLengthReadRtr: false,
  });
  const req = frame(
    encodeMpaReqRep({ type: 'request', markers: false, crc: false, reject: false, enhanced: true, res: 0, revision: 2, privateData: pd }),
  );
  const ex = examineRequest(req, cfg);
  assert.ok(ex.ok);
  if (!ex.ok) return;
  assert.deepEqual(ex.info.p2p, []);
  const a = responderAgree(ex.info, local, cfg);
  assert.ok(a.ok);
  if (a.ok) assert.equal(a.agreement.rtr, 'write');
});

test('an offer the Responder cannot satisfy is refused with R at request time', T, () => {
  const req = frame(encodeRequest(offer({ p2p: ['send'] })));
  const ex = examineRequest(req, { ...cfg, rtrPreference: ['write', 'read'] });
  assert.equal(ex.ok, false);
  if (ex.ok) return;
  assert.equal(ex.failure.kind, 'no-matching-rtr');
  const rep = frame(ex.reply);
  assert.equal(rep.reject, true);
  assert.equal(rep.enhanced, true, 'the R Reply to an enhanced Request carries the RFC 6581 word');
});

test('a revision-2 Request without the Enhanced flag is answered at revision 2 without the word', T, () => {
  const req = frame(
    encodeMpaReqRep({
      type: 'request',
      markers: false,
      crc: false,
      reject: false,
      enhanced: false,
      res: 0,
      revision: 2,
      privateData: new Uint8Array([1, 2, 3]),
    }),
  );
  const ex = examineRequest(req, cfg);
  assert.ok(ex.ok);
  if (!ex.ok) return;
  assert.equal(ex.info.replyRevision, 2);
  assert.equal(ex.info.replyEnhanced, false);
  assert.deepEqual([...ex.info.privateData], [1, 2, 3]);
  const a = responderAgree(ex.info, local, cfg);
  assert.ok(a.ok);
  if (!a.ok) return;
  const rep = frame(a.reply);
  assert.deepEqual([rep.revision, rep.enhanced, rep.privateData.length], [2, false, 0]);
  // The Initiator accepts it as plain RFC 5044 negotiation (no IRD/ORD exchanged).
  const i = initiatorAgree(offer(), rep, { policy: DEFAULT_MPA_POLICY, irdOrd: 'relaxed', maxIrd: 128 });
  assert.ok(i.ok);
  if (i.ok) assert.deepEqual([i.agreement.enhanced, i.agreement.peerIrd], [false, null]);
});

test('encoders refuse private data beyond 512 (508 with the word)', T, () => {
  assert.throws(() => encodeRequest(offer({ privateData: new Uint8Array(509) })), RangeError);
  assert.doesNotThrow(() => encodeRequest(offer({ revision: 1, privateData: new Uint8Array(512) })));
  assert.throws(() => encodeRequest(offer({ revision: 1, privateData: new Uint8Array(513) })), RangeError);
});

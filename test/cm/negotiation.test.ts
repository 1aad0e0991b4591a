/**
 * The MPA negotiation matrix: revision 1/2 × who asks for CRC × who asks for Markers × RFC 6581
 * P2P with each RTR type (or none) × IRD/ORD pairs. Every case runs through a recording proxy
 * and checks (1) the exact Request and Reply octets, built here from the RFC layout, (2) the
 * RTR and data FPDUs on the wire, decoded with the codecs (CRC checked, Markers removed), (3) the
 * QPs' resulting MPA attributes, IRD and ORD, and (4) a Send in each direction.
 */
import { qpMpaAttrs } from '../../src/iwarp/llp-attrs.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CmListener, type CmConnection, cmConnect } from '../../src/iwarp/cm.js';
import type { RtrType } from '../../src/iwarp/llp.js';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiQpState, RiWcStatus, RiWrType } from '../../src/rnicpi/types.js';
import { RdmapOpcode } from '../../src/wire/rdmap.js';
import { cmSide, riRnic, pollN, recv, reg, send, sge, until } from '../helpers/engine.js';
import { assertNoLeaks, decodeFpdus, destroyAll, frameBytes, hex, splitFrame, te, WireTap, type WireFpdu } from './helpers.js';

const T = { timeout: 60_000 };

type Who = 'none' | 'initiator' | 'responder' | 'both';
interface Case {
  rev: 1 | 2;
  crc: Exclude<Who, 'both'>;
  markers: Who;
  p2p: RtrType | null;
  pair: { name: string; i: [number, number]; r: [number, number] };
}

/** IRD/ORD pairs `[ird, ord]` of the Initiator (i) and Responder (r). */
const PAIRS: Case['pair'][] = [
  { name: 'equal', i: [8, 8], r: [8, 8] },
  // Initiator ORD above Responder IRD and Responder ORD above Initiator IRD: relaxed rules apply.
  { name: 'mismatch', i: [2, 16], r: [4, 64] },
  { name: 'zero', i: [0, 0], r: [0, 0] },
];

const cases: Case[] = [];
for (const rev of [1, 2] as const)
  for (const crc of ['none', 'initiator', 'responder'] as const)
    for (const markers of ['none', 'initiator', 'responder', 'both'] as const)
      for (const p2p of rev === 2 ? ([null, 'write', 'read', 'send'] as const) : ([null] as const))
        for (const pair of PAIRS) cases.push({ rev, crc, markers, p2p, pair });

const caseName = (c: Case): string => `rev${c.rev} crc:${c.crc} markers:${c.markers} p2p:${c.p2p ?? 'no'} ird/ord:${c.pair.name}`;

/** What the RFCs say the outcome must be (RFC 5044 §7.1.2, RFC 6581 §9.1, our relaxed rules). */
function expected(c: Case) {
  const iAsk = c.markers === 'initiator' || c.markers === 'both';
  const rAsk = c.markers === 'responder' || c.markers === 'both';
  const crc = c.crc !== 'none';
  const [iIrd, iOrd] = c.pair.i;
  const [rIrd, rOrd] = c.pair.r;
  if (c.rev === 1) {
    return { iAsk, rAsk, crc, iOrdAdv: iOrd, a: { ird: iIrd, ord: iOrd }, b: { ird: rIrd, ord: rOrd }, rep: null };
  }
  // A Read RTR needs an outbound Read slot at the Initiator and an inbound one at the Responder.
  const iOrdAdv = c.p2p === 'read' && iOrd === 0 ? 1 : iOrd;
  const ordR = Math.min(rOrd, iIrd);
  let irdR = Math.max(rIrd, Math.min(iOrdAdv, 128));
  if (c.p2p === 'read') irdR = Math.max(irdR, 1);
  return {
    iAsk,
    rAsk,
    crc,
    iOrdAdv,
    a: { ird: Math.max(iIrd, ordR), ord: Math.min(iOrdAdv, irdR) },
    b: { ird: irdR, ord: ordR },
    rep: { ird: irdR, ord: ordR },
  };
}

function checkRtr(f: WireFpdu | undefined, t: RtrType): void {
  assert.ok(f, 'an RTR FPDU');
  const h = f.header;
  assert.equal(h.ddp.last, true);
  assert.equal(f.payload.length, 0, 'the RTR is zero-length');
  if (t === 'write') {
    assert.equal(h.opcode, RdmapOpcode.Write);
    assert.ok(h.ddp.tagged);
    if (h.ddp.tagged) {
      assert.equal(h.ddp.stag, 1, 'RTR STag 1 (siw; Chelsio refuses 0)');
      assert.equal(h.ddp.to, 0n);
    }
  } else if (t === 'read') {
    assert.equal(h.opcode, RdmapOpcode.ReadRequest);
    assert.ok(!h.ddp.tagged);
    if (!h.ddp.tagged) {
      assert.equal(h.ddp.qn, 1);
      assert.equal(h.ddp.msn, 1);
    }
    assert.equal(h.readRequest?.size, 0);
    assert.equal(h.readRequest?.sinkStag, 1);
    assert.equal(h.readRequest?.srcStag, 1);
  } else {
    assert.equal(h.opcode, RdmapOpcode.Send);
    assert.ok(!h.ddp.tagged);
    if (!h.ddp.tagged) {
      assert.equal(h.ddp.qn, 0);
      assert.equal(h.ddp.msn, 1);
    }
  }
}

function checkSend(f: WireFpdu | undefined, msn: number, payload: Uint8Array): void {
  assert.ok(f, 'a Send FPDU');
  assert.equal(f.header.opcode, RdmapOpcode.Send);
  assert.ok(!f.header.ddp.tagged);
  if (!f.header.ddp.tagged) assert.equal(f.header.ddp.msn, msn);
  assert.equal(hex(f.payload), hex(payload));
}

async function runCase(c: Case): Promise<void> {
  const x = expected(c);
  const a = cmSide(riRnic(), { ird: c.pair.i[0], ord: c.pair.i[1] });
  const b = cmSide(riRnic(), { ird: c.pair.r[0], ord: c.pair.r[1] });
  const listener = await CmListener.listen({
    host: '127.0.0.1',
    policy: { crc: c.crc === 'responder' ? 'require' : 'allow', markers: x.rAsk ? 'require' : 'allow' },
  });
  const tap = await WireTap.start(listener.port);
  const reqPd = te(`request pd: ${caseName(c)}`);
  const repPd = te(`reply pd ${c.rev}`);
  const msgA = te('from the initiator');
  const msgB = te('and back from the responder!');
  const rbufA = new Uint8Array(64);
  const rbufB = new Uint8Array(64);
  let passive: CmConnection | null = null;
  listener.once('request', (r) => {
    assert.equal(r.revision, c.rev);
    assert.equal(r.enhanced, c.rev === 2);
    assert.equal(r.peerIrd, c.rev === 2 ? c.pair.i[0] : null);
    assert.equal(r.peerOrd, c.rev === 2 ? x.iOrdAdv : null);
    assert.deepEqual(r.p2p, c.p2p ? [c.p2p] : null);
    assert.equal(hex(r.privateData), hex(reqPd));
    // Posted before accept: the Initiator may Send as soon as it has the Reply.
    assert.equal(recv(b.qp, 2n, [sge(reg(b, rbufB), rbufB)]), RiRet.SUCCESS);
    passive = r.accept(b.cm, { privateData: repPd });
  });
  try {
    const active = await cmConnect(a.cm, '127.0.0.1', tap.port, {
      revision: c.rev,
      policy: { crc: c.crc === 'initiator' ? 'require' : 'allow', markers: x.iAsk ? 'require' : 'allow' },
      p2p: c.p2p ? [c.p2p] : false,
      privateData: reqPd,
    });
    assert.ok(passive, 'accepted');
    const pc = passive as CmConnection;
    assert.equal(hex(active.peerPrivateData), hex(repPd));
    assert.equal(active.agreement?.rtr ?? null, c.p2p);
    assert.equal(pc.agreement?.rtr ?? null, c.p2p);
    // QP attributes from the negotiation.
    assert.equal(a.qp.state, RiQpState.READY_TO_SEND);
    assert.equal(b.qp.state, RiQpState.READY_TO_SEND);
    assert.deepEqual(qpMpaAttrs(a.qp), { crc: x.crc, recvMarkers: x.iAsk, xmitMarkers: x.rAsk, ddpRdmapVersion: 1 });
    assert.deepEqual(qpMpaAttrs(b.qp), { crc: x.crc, recvMarkers: x.rAsk, xmitMarkers: x.iAsk, ddpRdmapVersion: 1 });
    assert.deepEqual({ ird: a.qp.ird, ord: a.qp.ord }, x.a, 'initiator IRD/ORD');
    assert.deepEqual({ ird: b.qp.ird, ord: b.qp.ord }, x.b, 'responder IRD/ORD');
    // A Send each way.
    assert.equal(recv(a.qp, 3n, [sge(reg(a, rbufA), rbufA)]), RiRet.SUCCESS);
    assert.equal(send(a.qp, { type: RiWrType.SEND, id: 10n, sgl: [sge(reg(a, msgA), msgA)] }), RiRet.SUCCESS);
    assert.equal(send(b.qp, { type: RiWrType.SEND, id: 20n, sgl: [sge(reg(b, msgB), msgB)] }), RiRet.SUCCESS);
    const wa = await pollN(a.cq, 2);
    const wb = await pollN(b.cq, 2);
    for (const w of [...wa, ...wb]) assert.equal(w.op_status, RiWcStatus.SUCCESS);
    assert.equal(Buffer.from(rbufB.subarray(0, msgA.length)).toString(), 'from the initiator');
    assert.equal(Buffer.from(rbufA.subarray(0, msgB.length)).toString(), 'and back from the responder!');
    // Graceful close from the Initiator; both QPs end in Idle.
    const closed = Promise.all([new Promise((r) => active.once('close', r)), new Promise((r) => pc.once('close', r))]);
    assert.equal(active.disconnect('graceful'), RiRet.SUCCESS);
    await closed;
    await until(() => a.qp.state === RiQpState.IDLE && b.qp.state === RiQpState.IDLE, 3000, 'both QPs Idle');

    // ---- the bytes on the wire ----
    const up = splitFrame(tap.upBytes());
    const down = splitFrame(tap.downBytes());
    const word = (ird: number, ord: number) =>
      c.rev === 2 ? { ird, ord, a: c.p2p !== null, b: c.p2p === 'send', cw: c.p2p === 'write', d: c.p2p === 'read' } : null;
    assert.equal(
      hex(up.raw),
      hex(
        frameBytes({
          reply: false,
          m: x.iAsk,
          c: c.crc === 'initiator',
          s: c.rev === 2,
          rev: c.rev,
          word: word(c.pair.i[0], x.iOrdAdv),
          pd: reqPd,
          x: true,
        }),
      ),
      'MPA Request octets',
    );
    assert.equal(
      hex(down.raw),
      hex(
        frameBytes({
          reply: true,
          m: x.rAsk,
          c: x.crc,
          s: c.rev === 2,
          rev: c.rev,
          word: x.rep ? word(x.rep.ird, x.rep.ord) : null,
          pd: repPd,
          x: true,
        }),
      ),
      'MPA Reply octets',
    );
    // Initiator → Responder: [RTR], Send. The Responder asked for the Markers in this direction.
    const upF = decodeFpdus(up.rest, x.crc, x.rAsk);
    let k = 0;
    if (c.p2p) checkRtr(upF[k++], c.p2p);
    checkSend(upF[k++], c.p2p === 'send' ? 2 : 1, msgA);
    assert.equal(upF.length, k, 'no other FPDU from the Initiator');
    // Responder → Initiator: [zero-length Read Response to a Read RTR], Send.
    const downF = decodeFpdus(down.rest, x.crc, x.iAsk);
    k = 0;
    if (c.p2p === 'read') {
      const rr = downF[k++]!;
      assert.equal(rr.header.opcode, RdmapOpcode.ReadResponse);
      assert.ok(rr.header.ddp.tagged && rr.header.ddp.stag === 1);
      assert.equal(rr.payload.length, 0);
    }
    checkSend(downF[k++], 1, msgB);
    assert.equal(downF.length, k, 'no other FPDU from the Responder');
  } finally {
    await listener.close();
    await tap.close();
    destroyAll(a.rnic, b.rnic);
  }
  await assertNoLeaks([a.rnic, b.rnic]);
}

test(`MPA negotiation matrix (${cases.length} generated cases)`, T, async (t) => {
  for (const c of cases) await t.test(caseName(c), () => runCase(c));
});

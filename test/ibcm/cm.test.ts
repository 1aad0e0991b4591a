/**
 * The IB CM engine between two CMs over the in-memory GSI on a virtual clock: connect, accept,
 * reject, disconnect, the exact rejects, retransmission of a lost REQ/REP/RTU/DREQ, retry
 * exhaustion, MRA, TIMEWAIT, duplicates, SIDR, and a seeded random-fault soak.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FaultHook } from '../../src/loopback/faults.js';
import { cmAckTimeout, IbCm, ibTimeoutMs, type IbCmConnection } from '../../src/ibcm/cm.js';
import { ManualClock, MemoryGsiFabric } from '../../src/ibcm/gsi.js';
import {
  CmMsgResponse,
  CmRejReason,
  CmTransport,
  cmaAddrFromIpv4,
  decodeCmaHdr,
  encodeCmaHdr,
  encodeCmMad,
  ipv4FromCmaAddr,
  RdmaPs,
  rdmaServiceId,
  SidrStatus,
} from '../../src/wire/ib/cm.js';
import { GSI_QKEY } from '../../src/wire/ib/mad.js';
import { acceptingListener, GID_A, GID_B, pair, recorder } from './helpers.js';

const SID = rdmaServiceId(RdmaPs.TCP, 7174);
const REQ_TIMEOUT = 2 * ibTimeoutMs(18) + ibTimeoutMs(20);

function cmaPd(user: number[] = []): Uint8Array {
  const pd = new Uint8Array(36 + user.length);
  encodeCmaHdr(
    { cmaVersion: 0, ipVersion: 4, srcPort: 40000, srcAddr: cmaAddrFromIpv4('192.168.77.1'), dstAddr: cmaAddrFromIpv4('192.168.77.2') },
    pd,
  );
  pd.set(user, 36);
  return pd;
}

function connectAB(p: ReturnType<typeof pair>, extra: { qpn?: number; autoReady?: boolean } = {}) {
  const r = recorder();
  let conn: IbCmConnection;
  const on = (e: Parameters<typeof r.on>[0]) => {
    r.on(e);
    if (e.type === 'rep' && extra.autoReady !== false) conn.ready();
  };
  conn = p.a.connect(
    { destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: extra.qpn ?? 0x11, startingPsn: 0x123456, privateData: cmaPd([1, 2, 3]) },
    on,
  );
  return { conn, r };
}

describe('IB CM: connection establishment and release (IBTA Vol. 1 §12.9)', () => {
  it('REQ → REP → RTU, then DREQ → DREP and TIMEWAIT on both sides, with the TIDs and comm IDs of the IBTA', () => {
    const p = pair();
    const srv = acceptingListener(p.b, SID, { qpn: 0x22, psn: 0x654321 });
    const { conn, r } = connectAB(p);
    assert.equal(conn.state, 'REQ_SENT');
    p.clock.run({ until: () => srv.events.some((e) => e.type === 'established') });
    assert.deepEqual(r.types(), ['rep']);
    assert.equal(conn.state, 'ESTABLISHED');
    const passive = srv.reqs[0]!.conn;
    assert.equal(passive.state, 'ESTABLISHED');
    // What each side learnt of the other.
    const req = srv.reqs[0]!.req;
    assert.equal(req.serviceId, 0x0000000001061c06n);
    assert.equal(req.localQpn, 0x11);
    assert.equal(req.startingPsn, 0x123456);
    assert.equal(req.transport, CmTransport.RC);
    assert.deepEqual(req.primary.localGid, GID_A);
    assert.deepEqual(req.primary.remoteGid, GID_B);
    assert.equal(req.primary.localLid, 0xffff); // routed RoCE path: permissive LIDs
    assert.equal(req.primary.hopLimit, 64);
    assert.equal(req.primary.localAckTimeout, 19); // cm_ack_timeout(15, 18)
    assert.equal(req.maxCmRetries, 15);
    assert.equal(req.remoteCmResponseTimeout, 20);
    assert.equal(req.pathMtu, 3);
    const cma = decodeCmaHdr(req.privateData);
    assert.equal(ipv4FromCmaAddr(cma.dstAddr), '192.168.77.2');
    assert.deepEqual([...req.privateData.subarray(36, 39)], [1, 2, 3]);
    const rep = (r.events[0] as { rep: { localQpn: number; startingPsn: number; remoteCommId: number } }).rep;
    assert.equal(rep.localQpn, 0x22);
    assert.equal(rep.startingPsn, 0x654321);
    assert.equal(rep.remoteCommId, conn.localCommId);
    assert.equal(conn.remoteCommId, passive.localCommId);
    assert.equal(passive.remoteCommId, conn.localCommId);
    // TIDs: REP and RTU reuse the REQ's (IBTA §13.4.6.4; Linux cm_format_rep/rtu).
    assert.deepEqual(p.kinds(), ['A:REQ', 'B:REP', 'A:RTU']);
    assert.equal(p.wire[1]!.tid, p.wire[0]!.tid);
    assert.equal(p.wire[2]!.tid, p.wire[0]!.tid);

    // Release: the active side disconnects; the passive side answers when its consumer does.
    passive.onEvent = (e) => {
      srv.events.push(e);
      if (e.type === 'dreq') passive.disconnect();
    };
    conn.disconnect(Uint8Array.of(9));
    assert.equal(conn.state, 'DREQ_SENT');
    p.clock.run({ until: () => r.types().includes('disconnected') });
    assert.equal(conn.state, 'TIMEWAIT');
    assert.equal(passive.state, 'TIMEWAIT');
    assert.deepEqual(p.kinds().slice(3), ['A:DREQ', 'B:DREP']);
    assert.equal(p.wire[4]!.tid, p.wire[3]!.tid);
    assert.notEqual(p.wire[3]!.tid, p.wire[0]!.tid);
    assert.equal((p.wire[3]!.msg as { remoteQpn: number }).remoteQpn, 0x22);
    const dreqEv = srv.events.find((e) => e.type === 'dreq') as { privateData: Uint8Array };
    assert.equal(dreqEv.privateData[0], 9);
    // TIMEWAIT ends on both sides after one ACK timeout (4.096 µs × 2^19 ≈ 2.1 s).
    const t0 = p.clock.now;
    p.clock.run();
    assert.ok(p.clock.now - t0 >= ibTimeoutMs(19) - 1);
    assert.equal(conn.state, 'IDLE');
    assert.equal(passive.state, 'IDLE');
    assert.deepEqual(r.types(), ['rep', 'disconnected', 'timewait-exit']);
    assert.deepEqual(
      srv.events.map((e) => e.type),
      ['established', 'dreq', 'timewait-exit'],
    );
    assert.equal(p.a.stats.retransmits + p.b.stats.retransmits, 0);
  });

  it('a consumer reject: REJ reason 28 with the consumer private data; both sides IDLE', () => {
    const p = pair();
    const srv = acceptingListener(p.b, SID, { reject: Uint8Array.from([0xde, 0xad]) });
    const { conn, r } = connectAB(p);
    p.clock.run();
    const ev = r.events[0];
    assert.ok(ev?.type === 'rejected');
    assert.equal(ev.reason, CmRejReason.CONSUMER_DEFINED);
    assert.equal(ev.msgRejected, CmMsgResponse.REQ);
    assert.deepEqual([...ev.privateData.subarray(0, 3)], [0xde, 0xad, 0]);
    assert.equal(ev.privateData.length, 148);
    assert.equal(conn.state, 'IDLE');
    assert.equal(srv.reqs[0]!.conn.state, 'IDLE');
    const rej = p.wire[1]!;
    assert.equal(rej.tid, p.wire[0]!.tid);
    assert.equal((rej.msg as { localCommId: number }).localCommId, 0); // Linux: REQ_RCVD rejects with comm ID 0
  });

  it('the active side may reject the REP (REJ for REP) and the passive side sees it', () => {
    const p = pair();
    const srv = acceptingListener(p.b, SID);
    const r = recorder();
    const conn = p.a.connect({ destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: 0x11, startingPsn: 1 }, (e) => {
      r.on(e);
      if (e.type === 'rep') conn.reject(Uint8Array.of(7));
    });
    p.clock.run();
    const ev = srv.events[0];
    assert.ok(ev?.type === 'rejected');
    assert.equal(ev.msgRejected, CmMsgResponse.REP);
    assert.equal(ev.reason, CmRejReason.CONSUMER_DEFINED);
    assert.equal(conn.state, 'IDLE');
  });
});

describe('IB CM: exact rejects', () => {
  it('no listener on the service ID: REJ 8 (invalid service ID), as Linux cm_match_req', () => {
    const p = pair();
    acceptingListener(p.b, rdmaServiceId(RdmaPs.TCP, 1));
    const { conn, r } = connectAB(p);
    p.clock.run();
    const ev = r.events[0];
    assert.ok(ev?.type === 'rejected');
    assert.equal(ev.reason, CmRejReason.INVALID_SERVICE_ID);
    assert.equal(conn.state, 'IDLE');
    const rej = p.wire[1]!.msg as { remoteCommId: number; localCommId: number };
    assert.equal(rej.remoteCommId, conn.localCommId);
    assert.equal(rej.localCommId, 0);
  });

  it('a REQ naming a GID that is not ours: REJ 12 (invalid GID), ARI = our GID', () => {
    const p = pair();
    acceptingListener(p.b, SID);
    const r = recorder();
    // The REQ goes to B's port but names another GID as the passive side's.
    const mad = encodeCmMad(5n, {
      kind: 'REQ',
      localCommId: 0x1234,
      vendorId: 0,
      serviceId: SID,
      localCaGuid: 0x99n,
      localQkey: 0,
      localQpn: 0x33,
      responderResources: 1,
      localEecn: 0,
      initiatorDepth: 1,
      remoteEecn: 0,
      remoteCmResponseTimeout: 20,
      transport: CmTransport.RC,
      e2eFlowControl: false,
      startingPsn: 1,
      localCmResponseTimeout: 20,
      retryCount: 7,
      pkey: 0xffff,
      pathMtu: 3,
      rdcExists: false,
      rnrRetryCount: 7,
      maxCmRetries: 15,
      srq: false,
      extendedTransport: 0,
      primary: {
        localLid: 0xffff,
        remoteLid: 0xffff,
        localGid: GID_A,
        remoteGid: Uint8Array.from(GID_B.map((x, i) => (i === 15 ? 99 : x))),
        flowLabel: 0,
        packetRate: 0,
        trafficClass: 0,
        hopLimit: 64,
        sl: 0,
        subnetLocal: false,
        localAckTimeout: 19,
      },
      alternate: {
        localLid: 0,
        remoteLid: 0,
        localGid: new Uint8Array(16),
        remoteGid: new Uint8Array(16),
        flowLabel: 0,
        packetRate: 0,
        trafficClass: 0,
        hopLimit: 0,
        sl: 0,
        subnetLocal: false,
        localAckTimeout: 0,
      },
      sapSupported: false,
      privateData: new Uint8Array(0),
    });
    void r;
    const raw = p.fabric.port(Uint8Array.from(GID_A.map((x, i) => (i === 15 ? 50 : x))));
    const got: Uint8Array[] = [];
    raw.onReceive((m) => got.push(m));
    raw.send(mad, { gid: GID_B, qpn: 1, qkey: GSI_QKEY, pkey: 0xffff });
    p.clock.run();
    const rej = p.wire.find((w) => w.msg.kind === 'REJ')!.msg as { reason: number; ari: Uint8Array; remoteCommId: number };
    assert.equal(rej.reason, CmRejReason.INVALID_GID);
    assert.deepEqual(rej.ari, GID_B);
    assert.equal(rej.remoteCommId, 0x1234);
    assert.equal(got.length, 1);
  });

  it('a stale connection: a second REQ from an established (CA GUID, QPN) gets REJ 10 and the old connection a DREQ', () => {
    const p = pair();
    acceptingListener(p.b, SID);
    const first = connectAB(p, { qpn: 0x11 });
    p.clock.run({ until: () => first.conn.state === 'ESTABLISHED' });
    p.clock.advance(10);
    const second = connectAB(p, { qpn: 0x11 });
    p.clock.run({ until: () => second.r.events.length > 0 && first.r.types().includes('dreq') });
    const ev = second.r.events[0];
    assert.ok(ev?.type === 'rejected');
    assert.equal(ev.reason, CmRejReason.STALE_CONN);
    assert.equal(second.conn.state, 'TIMEWAIT'); // Linux: REJ STALE_CONN → TIMEWAIT
    assert.ok(first.r.types().includes('dreq'));
  });
});

describe('IB CM: loss recovered by retransmission', () => {
  for (const lost of ['A:REQ', 'B:REP', 'A:RTU'] as const) {
    it(`a dropped ${lost.slice(2)} is recovered`, () => {
      const p = pair();
      p.fault = (w, n) => (`${w.from}:${w.msg.kind}` === lost && n === 1 ? 'drop' : 'pass');
      const srv = acceptingListener(p.b, SID);
      const { conn } = connectAB(p);
      p.clock.run({ until: () => conn.state === 'ESTABLISHED' && srv.reqs[0]?.conn.state === 'ESTABLISHED', limitMs: 60_000 });
      assert.equal(conn.state, 'ESTABLISHED');
      assert.equal(srv.reqs.length, 1, 'one connection on the passive side');
      assert.equal(srv.reqs[0]!.conn.state, 'ESTABLISHED');
      assert.equal(p.fabric.lost, 1);
      const kinds = p.kinds();
      if (lost === 'A:REQ') {
        assert.deepEqual(kinds, ['A:REQ', 'A:REQ', 'B:REP', 'A:RTU']);
        assert.equal(p.a.stats.retransmits, 1);
      } else if (lost === 'B:REP') {
        // The REQ is retransmitted; the passive side sends its REP again for the duplicate.
        assert.deepEqual(kinds.slice(0, 4), ['A:REQ', 'B:REP', 'A:REQ', 'B:REP']);
        assert.equal(p.b.stats.duplicates, 1);
      } else {
        // The REP is retransmitted; the active side answers the duplicate REP with the RTU again.
        assert.deepEqual(kinds, ['A:REQ', 'B:REP', 'A:RTU', 'B:REP', 'A:RTU']);
        assert.equal(p.b.stats.retransmits, 1);
        assert.equal(p.a.stats.duplicates, 1);
      }
    });
  }

  it('a dropped DREQ is retransmitted and the DREP arrives', () => {
    const p = pair();
    const srv = acceptingListener(p.b, SID);
    const { conn, r } = connectAB(p);
    p.clock.run({ until: () => srv.reqs[0]?.conn.state === 'ESTABLISHED' });
    const passive = srv.reqs[0]!.conn;
    passive.onEvent = (e) => e.type === 'dreq' && passive.disconnect();
    p.fault = (w, n) => (w.msg.kind === 'DREQ' && n === 1 ? 'drop' : 'pass');
    conn.disconnect();
    p.clock.run({ until: () => r.types().includes('disconnected') });
    const ev = r.events.at(-1);
    assert.ok(ev?.type === 'disconnected');
    assert.equal(ev.timedOut, false);
    assert.deepEqual(p.kinds().slice(3), ['A:DREQ', 'A:DREQ', 'B:DREP']);
    assert.equal(passive.state, 'TIMEWAIT');
  });

  it('a dropped DREP: the retransmitted DREQ reaches the side in TIMEWAIT, which sends the DREP again', () => {
    const p = pair();
    const srv = acceptingListener(p.b, SID);
    const { conn, r } = connectAB(p);
    p.clock.run({ until: () => srv.reqs[0]?.conn.state === 'ESTABLISHED' });
    const passive = srv.reqs[0]!.conn;
    passive.onEvent = (e) => e.type === 'dreq' && passive.disconnect();
    p.fault = (w, n) => (w.msg.kind === 'DREP' && n === 1 ? 'drop' : 'pass');
    conn.disconnect();
    p.clock.run({ until: () => r.types().includes('disconnected') });
    assert.deepEqual(p.kinds().slice(3), ['A:DREQ', 'B:DREP', 'A:DREQ', 'B:DREP']);
    assert.equal(p.b.stats.duplicates, 1);
  });
});

describe('IB CM: retry exhaustion and timeouts', () => {
  it('an unanswered REQ is sent 1 + MaxCMRetries times, then REJ Timeout and a timeout event', () => {
    const p = pair();
    p.fault = (w) => (w.msg.kind === 'REQ' ? 'drop' : 'pass');
    const r = recorder();
    const conn = p.a.connect({ destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: 0x11, startingPsn: 1, maxCmRetries: 3 }, r.on);
    p.clock.run();
    assert.deepEqual(r.types(), ['timeout']);
    assert.equal(conn.state, 'IDLE');
    assert.deepEqual(p.kinds(), ['A:REQ', 'A:REQ', 'A:REQ', 'A:REQ', 'A:REJ']);
    const rej = p.wire[4]!.msg as { reason: number; ari: Uint8Array };
    assert.equal(rej.reason, CmRejReason.TIMEOUT);
    assert.equal(new DataView(rej.ari.buffer, rej.ari.byteOffset).getBigUint64(0), p.a.caGuid);
    // Four waits of 2 × PacketLifeTime + RemoteCMResponseTimeout, in virtual time.
    assert.ok(Math.abs(p.clock.now - 4 * REQ_TIMEOUT) < 10, `${p.clock.now} vs ${4 * REQ_TIMEOUT}`);
  });

  it('an unanswered REP times out on the passive side; its REJ Timeout reaches the active side', () => {
    const p = pair();
    const srv = acceptingListener(p.b, SID);
    // The active consumer never gets to ready(): no RTU.
    const { conn, r } = connectAB(p, { autoReady: false });
    p.clock.run();
    assert.deepEqual(
      srv.events.map((e) => e.type),
      ['timeout'],
    );
    assert.equal(srv.reqs[0]!.conn.state, 'IDLE');
    // Linux cm_rej_handler: a REJ in REP_RCVD → TIMEWAIT.
    assert.deepEqual(r.types(), ['rep', 'rejected', 'timewait-exit']);
    const ev = r.events[1];
    assert.ok(ev?.type === 'rejected');
    assert.equal(ev.reason, CmRejReason.TIMEOUT);
    assert.equal(conn.state, 'IDLE');
    // 1 + MaxCMRetries (15, from the REQ) REPs.
    assert.equal(p.kinds('B').filter((k) => k === 'B:REP').length, 16);
  });

  it('an unanswered DREQ ends in TIMEWAIT with a timed-out disconnect', () => {
    const p = pair();
    const srv = acceptingListener(p.b, SID);
    const { conn, r } = connectAB(p);
    p.clock.run({ until: () => srv.reqs[0]?.conn.state === 'ESTABLISHED' });
    p.fault = (w) => (w.msg.kind === 'DREQ' ? 'drop' : 'pass');
    conn.disconnect();
    p.clock.run({ until: () => r.types().includes('disconnected') });
    const ev = r.events.at(-1);
    assert.ok(ev?.type === 'disconnected');
    assert.equal(ev.timedOut, true);
    assert.equal(conn.state, 'TIMEWAIT');
    assert.equal(p.kinds().filter((k) => k === 'A:DREQ').length, 16);
  });
});

describe('IB CM: MRA', () => {
  it('an MRA stretches the wait: no REQ retransmission until ServiceTimeout, then the REP is taken', () => {
    const p = pair();
    const srv = acceptingListener(p.b, SID, { mra: 24 }); // ≈ 68.7 s, as rdma_cm before accept
    const { conn, r } = connectAB(p);
    p.clock.run({ until: () => r.types().includes('mra') });
    assert.equal(conn.state, 'MRA_REQ_RCVD');
    assert.equal(srv.reqs[0]!.conn.state, 'MRA_REQ_SENT');
    // Well past the normal REQ timeout, but inside the service timeout: nothing retransmitted.
    p.clock.advance(3 * REQ_TIMEOUT);
    assert.equal(p.a.stats.retransmits, 0);
    srv.reqs[0]!.conn.accept({ qpn: 0x22, startingPsn: 5 });
    p.clock.run({ until: () => conn.state === 'ESTABLISHED' && srv.reqs[0]!.conn.state === 'ESTABLISHED' });
    assert.deepEqual(p.kinds(), ['A:REQ', 'B:MRA', 'B:REP', 'A:RTU']);
    assert.equal(p.wire[1]!.tid, p.wire[0]!.tid);
  });

  it('a lost MRA: the retransmitted REQ re-elicits it', () => {
    const p = pair();
    p.fault = (w, n) => (w.msg.kind === 'MRA' && n === 1 ? 'drop' : 'pass');
    const srv = acceptingListener(p.b, SID, { mra: 24 });
    const { conn, r } = connectAB(p);
    p.clock.run({ until: () => r.types().includes('mra') });
    assert.deepEqual(p.kinds(), ['A:REQ', 'B:MRA', 'A:REQ', 'B:MRA']);
    assert.equal(conn.state, 'MRA_REQ_RCVD');
    assert.equal(srv.reqs.length, 1);
  });

  it('when the MRA service time runs out the REQ is retransmitted again', () => {
    const p = pair();
    acceptingListener(p.b, SID, { mra: 10, manual: false });
    const { r } = connectAB(p);
    p.clock.run({ until: () => r.types().includes('mra') });
    p.clock.advance(ibTimeoutMs(10) + 2 * ibTimeoutMs(18) + 1);
    assert.equal(p.a.stats.retransmits, 1);
  });
});

describe('IB CM: TIMEWAIT and duplicates', () => {
  it('a duplicated REQ during TIMEWAIT gets REJ 10; after TIMEWAIT the same QPN connects again', () => {
    const p = pair({ timewaitMs: 1000 });
    const srv = acceptingListener(p.b, SID);
    const { conn } = connectAB(p);
    p.clock.run({ until: () => srv.reqs[0]?.conn.state === 'ESTABLISHED' });
    const passive = srv.reqs[0]!.conn;
    passive.onEvent = (e) => e.type === 'dreq' && passive.disconnect();
    conn.disconnect();
    p.clock.run({ until: () => passive.state === 'TIMEWAIT' && conn.state === 'TIMEWAIT' });
    // Replay the first REQ (same comm ID and CA GUID) into B.
    const req = p.wire[0]!;
    const replay = p.fabric.port(Uint8Array.from(GID_A.map((x, i) => (i === 15 ? 60 : x))));
    replay.send(encodeCmMad(req.tid, req.msg), { gid: GID_B, qpn: 1, qkey: GSI_QKEY, pkey: 0xffff });
    p.clock.advance(5);
    const rej = p.wire.at(-1)!;
    assert.equal(rej.msg.kind, 'REJ');
    assert.equal((rej.msg as { reason: number }).reason, CmRejReason.STALE_CONN);
    p.clock.run({ until: () => conn.state === 'IDLE' && passive.state === 'IDLE' });
    const again = connectAB(p, { qpn: 0x11 });
    p.clock.run({ until: () => again.conn.state === 'ESTABLISHED' });
    assert.equal(again.conn.state, 'ESTABLISHED');
  });

  it('duplicated MADs everywhere change nothing: one connection, one established event each side', () => {
    const p = pair();
    p.fault = () => 'duplicate';
    const srv = acceptingListener(p.b, SID);
    const { conn, r } = connectAB(p);
    p.clock.run({ until: () => conn.state === 'ESTABLISHED' && srv.reqs[0]?.conn.state === 'ESTABLISHED' });
    p.clock.advance(100);
    assert.equal(srv.reqs.length, 1);
    assert.deepEqual(r.types(), ['rep']);
    assert.deepEqual(
      srv.events.map((e) => e.type),
      ['established'],
    );
    assert.ok(p.b.stats.duplicates >= 1 && p.a.stats.duplicates >= 1);
  });

  it('malformed MADs and MADs under another Q_Key are dropped and counted', () => {
    const p = pair();
    const raw = p.fabric.port(Uint8Array.from(GID_A.map((x, i) => (i === 15 ? 70 : x))));
    p.fault = () => 'pass';
    const tapOff = p.fabric;
    tapOff.tap = undefined;
    raw.send(new Uint8Array(256), { gid: GID_B, qpn: 1, qkey: GSI_QKEY, pkey: 0xffff });
    raw.send(new Uint8Array(10), { gid: GID_B, qpn: 1, qkey: GSI_QKEY, pkey: 0xffff });
    p.clock.run();
    assert.equal(p.b.stats.malformed, 2);
  });
});

describe('IB CM: SIDR (IBTA §12.11)', () => {
  const UDP_SID = rdmaServiceId(RdmaPs.UDP, 7174);

  it('SIDR_REQ → SIDR_REP with the QPN and Q_Key 0x01234567; a duplicate gets the same answer', () => {
    const p = pair();
    const seen: number[] = [];
    p.b.listen(UDP_SID, (ev) => {
      if (ev.type !== 'sidr-req') return;
      seen.push(ev.request.req.requestId);
      assert.equal(decodeCmaHdr(ev.request.req.privateData).srcPort, 40000);
      ev.request.accept({ qpn: 0x44, qkey: 0x01234567 });
    });
    p.fault = (w, n) => (w.msg.kind === 'SIDR_REP' && n === 1 ? 'drop' : 'pass');
    const evs: unknown[] = [];
    const s = p.a.sidrRequest({ destGid: GID_B, serviceId: UDP_SID, privateData: cmaPd() }, (e) => evs.push(e));
    p.clock.run({ until: () => evs.length > 0 });
    const ev = evs[0] as { type: string; rep: { status: number; qpn: number; qkey: number; requestId: number; serviceId: bigint } };
    assert.equal(ev.type, 'sidr-rep');
    assert.equal(ev.rep.status, SidrStatus.SUCCESS);
    assert.equal(ev.rep.qpn, 0x44);
    assert.equal(ev.rep.qkey, 0x01234567);
    assert.equal(ev.rep.requestId, s.requestId);
    assert.equal(ev.rep.serviceId, UDP_SID);
    assert.deepEqual(seen, [s.requestId], 'the consumer saw the request once');
    assert.deepEqual(p.kinds(), ['A:SIDR_REQ', 'B:SIDR_REP', 'A:SIDR_REQ', 'B:SIDR_REP']);
    assert.equal(p.wire[1]!.tid, p.wire[0]!.tid);
  });

  it('SIDR_REQ to a service nobody listens on: SIDR_REP status Unsupported', () => {
    const p = pair();
    const evs: { type: string; rep?: { status: number } }[] = [];
    p.a.sidrRequest({ destGid: GID_B, serviceId: UDP_SID }, (e) => evs.push(e as never));
    p.clock.run();
    assert.equal(evs[0]?.rep?.status, SidrStatus.UNSUPPORTED);
  });

  it('an unanswered SIDR_REQ times out after its retries', () => {
    const p = pair();
    p.fault = () => 'drop';
    const evs: { type: string }[] = [];
    p.a.sidrRequest({ destGid: GID_B, serviceId: UDP_SID, timeoutMs: 100, maxRetries: 2 }, (e) => evs.push(e));
    p.clock.run();
    assert.deepEqual(evs, [{ type: 'timeout' }]);
    assert.equal(p.kinds().length, 3);
  });
});

describe('IB CM: the port dies under it (QP1 entered Error)', () => {
  it('a REQ awaiting its REP and an unanswered SIDR_REQ end at once with timeout (port), not after MaxCMRetries; the CM closes', () => {
    const clock = new ManualClock();
    const fabric = new MemoryGsiFabric({ timers: clock });
    const port = fabric.port(GID_A);
    const cm = new IbCm({ port, caGuid: 0x0002c90300aaaa01n, gids: () => [GID_A], timers: clock });
    const r = recorder();
    // Nobody at GID_B: the REQ and the SIDR_REQ would be retransmitted for minutes.
    const conn = cm.connect({ destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: 0x11, startingPsn: 1, privateData: cmaPd() }, r.on);
    const sidr: { type: string }[] = [];
    cm.sidrRequest({ destGid: GID_B, serviceId: rdmaServiceId(RdmaPs.UDP, 7174) }, (e) => sidr.push(e));
    assert.equal(conn.state, 'REQ_SENT');
    port.fail('QP1 entered the Error state');
    assert.deepEqual(r.events, [{ type: 'timeout', message: 'port' }]);
    assert.equal(conn.state, 'IDLE');
    assert.deepEqual(sidr, [{ type: 'timeout' }]);
    assert.equal(cm.busy, false);
    assert.throws(() => cm.connect({ destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: 0x12, startingPsn: 1 }, () => {}), /closed/);
    // No timer left to fire a second event.
    clock.run();
    assert.equal(r.events.length, 1);
    assert.equal(sidr.length, 1);
  });
});

describe('IB CM: seeded random loss, duplication and reordering', () => {
  it('20 connections connect, exchange, disconnect and leave TIMEWAIT under 20 % drop, 10 % dup, 10 % reorder', () => {
    for (const seed of [1, 2, 3]) {
      const p = pair({ faults: new FaultHook({ seed, drop: 0.2, duplicate: 0.1, reorder: 0.1 }), seed });
      const srv = acceptingListener(p.b, SID);
      const conns = Array.from({ length: 20 }, (_, i) => connectAB(p, { qpn: 0x100 + i }));
      p.clock.run({
        until: () => conns.every((c) => c.conn.state === 'ESTABLISHED') && srv.reqs.every((r) => r.conn.state === 'ESTABLISHED'),
      });
      assert.ok(
        conns.every((c) => c.conn.state === 'ESTABLISHED'),
        `seed ${seed}: ${conns.map((c) => c.conn.state)}`,
      );
      assert.equal(srv.reqs.length, 20, `seed ${seed}: one passive connection per REQ`);
      for (const r of srv.reqs) r.conn.onEvent = (e) => e.type === 'dreq' && r.conn.disconnect();
      for (const c of conns) c.conn.disconnect();
      p.clock.run();
      assert.ok(
        conns.every((c) => c.conn.state === 'IDLE' && c.r.types().includes('timewait-exit')),
        `seed ${seed}`,
      );
      assert.ok(srv.reqs.every((r) => r.conn.state === 'IDLE'));
      assert.equal(p.clock.pending, 0);
    }
  });

  it('cmAckTimeout follows the log2 sum: (15, 18) → 19 as rdma_cm on rxe, (0, 0) → 2', () => {
    assert.equal(cmAckTimeout(15, 18), 19);
    assert.equal(cmAckTimeout(0, 0), 2);
    assert.equal(cmAckTimeout(20, 5), 20);
    assert.equal(cmAckTimeout(31, 31), 31);
  });
});

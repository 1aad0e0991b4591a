/**
 * Issue 17 on RoCE's CM: REQ floods, half-finished handshakes and spoofed source GIDs. A
 * listener's half-open passive connections (undecided REQs, REPs awaiting their RTU) are bounded
 * per source GID and per listener, the oldest evicted rather than the newest refused; a REQ the
 * consumer leaves undecided is rejected after a bound; under pressure a REP waits for its RTU
 * briefly; waits a REQ or an MRA asks for are capped. Attackers are raw GSI ports that send REQs
 * and never answer (a spoofed source cannot). All on the in-memory fabric's virtual clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IbCmConnection, IbCmEvent } from '../../src/ibcm/cm.js';
import { IBCM_LISTEN_LIMITS, ibTimeoutMs } from '../../src/ibcm/cm.js';
import {
  type CmDrep,
  type CmDreq,
  CmMsgResponse,
  type CmMra,
  type CmRej,
  CmRejReason,
  CmTransport,
  type CmReq,
  type CmRtu,
  decodeCmMad,
  emptyCmPath,
  encodeCmMad,
  RdmaPs,
  rdmaServiceId,
} from '../../src/wire/ib/cm.js';
import { GSI_QKEY } from '../../src/wire/ib/mad.js';
import { acceptingListener, GID_A, GID_B, pair, type Pair, seeded } from './helpers.js';

const SID = rdmaServiceId(RdmaPs.TCP, 7174);
const B_ADDR = { gid: GID_B, qpn: 1, qkey: GSI_QKEY, pkey: 0xffff };
/** 10.201.x.y as an IPv4-mapped GID: the attackers' (spoofed) sources. */
const spoofGid = (n: number) => Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 201, (n >> 8) & 255, n & 255]);

/** A REQ as a raw peer builds it (the fields `IbCm.connect` would send), to `GID_B`. */
function rawReq(from: Uint8Array, rnd: () => number, over: Partial<CmReq> = {}): CmReq {
  return {
    kind: 'REQ',
    localCommId: (Math.floor(rnd() * 0xfffffffe) + 1) >>> 0,
    vendorId: 0,
    serviceId: SID,
    localCaGuid: BigInt(Math.floor(rnd() * 2 ** 48)) + 1n,
    localQkey: 0,
    localQpn: Math.floor(rnd() * 0xfffff0) + 2,
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
    primary: { ...emptyCmPath(), localLid: 0xffff, remoteLid: 0xffff, localGid: from, remoteGid: GID_B, hopLimit: 64, localAckTimeout: 19 },
    alternate: emptyCmPath(),
    sapSupported: false,
    privateData: new Uint8Array(0),
    ...over,
  };
}

/** Active connects from A that complete (RTU on the REP); returns the established count. */
function legitimate(p: Pair, n: number, between: (i: number) => void): { established: () => number; conns: IbCmConnection[] } {
  const conns: IbCmConnection[] = [];
  let ok = 0;
  for (let i = 0; i < n; i++) {
    between(i);
    const c: IbCmConnection = p.a.connect(
      { destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: 0x100 + i, startingPsn: 1 },
      (e: IbCmEvent) => {
        if (e.type === 'rep') {
          c.ready();
          ok++;
        }
      },
    );
    conns.push(c);
    p.clock.advance(5);
  }
  return { established: () => ok, conns };
}

describe('IB CM listener fairness', () => {
  it('a flood of REQs from 2,000 spoofed source GIDs (never answering) against a consumer that accepts each: half-open stays at the cap, oldest evicted, legitimate connects all established', () => {
    const p = pair({ listenLimits: { maxHalfOpen: 64 } });
    const srv = acceptingListener(p.b, SID);
    const rnd = seeded(17);
    const attackers = Array.from({ length: 2000 }, (_, i) => p.fabric.port(spoofGid(i + 1)));
    let peak = 0;
    let next = 0;
    const l = legitimate(p, 100, () => {
      // 20 spoofed REQs between two legitimate connects.
      for (let k = 0; k < 20; k++) {
        const port = attackers[next++ % attackers.length]!;
        const req = rawReq(port.gid, rnd);
        port.send(encodeCmMad(BigInt(next), req), B_ADDR);
      }
      p.clock.advance(1);
      peak = Math.max(peak, srv.listener.halfOpen.size);
    });
    p.clock.run({ limitMs: 60_000 });
    const served = srv.reqs.filter(
      (r) => r.conn.state === 'ESTABLISHED' || r.conn.state === 'TIMEWAIT' || r.conn.state === 'DREQ_RCVD',
    ).length;
    console.log(
      `# ibcm flood: legitimate ${l.established()}/100 established, listener evicted ${p.b.stats.evicted}, peak half-open ${peak} (cap 64), REQs received ${p.b.stats.received.REQ}`,
    );
    assert.equal(l.established(), 100, 'every legitimate connect got its REP and sent the RTU');
    assert.ok(l.conns.every((c) => c.state === 'ESTABLISHED'));
    assert.ok(served >= 100);
    assert.ok(peak <= 64, `peak half-open ${peak}`);
    assert.ok(p.b.stats.evicted > 0);
  });

  it('one source GID sending 200 REQs holds at most maxHalfOpenPerSource; its own oldest are evicted (REJ Timeout to it), nobody else', () => {
    const p = pair({ listenLimits: { maxHalfOpenPerSource: 8 } });
    const srv = acceptingListener(p.b, SID);
    const rnd = seeded(3);
    const flooder = p.fabric.port(spoofGid(7));
    const toFlooder: string[] = [];
    flooder.onReceive((mad) => toFlooder.push(decodeCmMad(mad).msg.kind));
    let max = 0;
    const l = legitimate(p, 10, () => {
      for (let k = 0; k < 20; k++) flooder.send(encodeCmMad(BigInt(k + 1), rawReq(flooder.gid, rnd)), B_ADDR);
      p.clock.advance(1);
      max = Math.max(max, srv.listener.heldBy(flooder.gid));
    });
    p.clock.run({ limitMs: 60_000 });
    assert.equal(l.established(), 10);
    assert.ok(max <= 8, `the flooder held ${max}`);
    assert.ok(p.b.stats.evicted >= 200 - 8 - 8, `evicted ${p.b.stats.evicted}`);
    // Its evicted REQs had been accepted: each REP ends as an unanswered one would, REJ Timeout.
    assert.ok(toFlooder.filter((k) => k === 'REJ').length >= p.b.stats.evicted);
    // Every connection that was evicted came from the flooder.
    const evictedLegit = srv.reqs.filter((r) => r.from.gid[15] === GID_A[15] && r.conn.state === 'IDLE');
    assert.equal(evictedLegit.length, 0);
  });

  it('a REQ the consumer leaves undecided is rejected after acceptTimeoutMs: REJ 3 to the active side, `timeout` (decision) to the consumer', () => {
    const p = pair({ listenLimits: { acceptTimeoutMs: 8_000 } });
    const srv = acceptingListener(p.b, SID, { manual: true });
    const ev: IbCmEvent[] = [];
    p.a.connect({ destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: 0x11, startingPsn: 1 }, (e) => ev.push(e));
    p.clock.advance(10);
    assert.equal(srv.reqs.length, 1);
    // The consumer asks for time (MRA), as rdma_cm does, and then never answers.
    srv.reqs[0]!.conn.mra(24);
    p.clock.run({ limitMs: 9_000 });
    assert.equal(p.b.stats.expired, 1);
    assert.deepEqual(
      srv.events.map((e) => (e.type === 'timeout' ? `timeout:${e.message}` : e.type)),
      ['timeout:decision'],
    );
    const rej = ev.find((e) => e.type === 'rejected');
    assert.ok(rej && rej.type === 'rejected' && rej.reason === CmRejReason.NO_RESOURCES, JSON.stringify(ev.map((e) => e.type)));
    assert.equal(srv.reqs[0]!.conn.state, 'IDLE');
  });

  it('a REQ asking for 2.4-hour waits (Local CM Response and ACK Timeouts 31, 15 retries) holds its REP at most 16 × the capped interval', () => {
    const p = pair();
    const srv = acceptingListener(p.b, SID);
    const raw = p.fabric.port(spoofGid(99));
    raw.onReceive(() => {});
    const req = rawReq(raw.gid, seeded(5), {
      localCmResponseTimeout: 31,
      maxCmRetries: 15,
      primary: { ...rawReq(raw.gid, seeded(5)).primary, localAckTimeout: 31 },
    });
    raw.send(encodeCmMad(1n, req), B_ADDR);
    p.clock.advance(5);
    assert.equal(srv.reqs.length, 1);
    const c = srv.reqs[0]!.conn;
    assert.equal(c.state, 'REP_SENT');
    const cap = p.b.maxResponseTimeout;
    const bound = 16 * (ibTimeoutMs(cap) + 2 * ibTimeoutMs(cap)) + 1;
    assert.ok(bound < 15 * 60_000, `the bound itself is minutes, not hours (${Math.round(bound / 1000)} s)`);
    p.clock.run({ limitMs: bound, until: () => c.state !== 'REP_SENT' });
    assert.equal(c.state, 'IDLE', 'the REP gave up');
    assert.ok(p.clock.now <= bound);
    assert.ok(srv.events.some((e) => e.type === 'timeout' && e.message === 'REP'));
  });

  it('a connection whose REQ asked for an ACK timeout of 31 (2.4 hours) stays in TIMEWAIT at most 4.096 µs × 2^maxResponseTimeout after the disconnect', () => {
    const p = pair();
    const srv = acceptingListener(p.b, SID);
    // Packet life time 30: the REQ's Local ACK Timeout becomes 31.
    const c: IbCmConnection = p.a.connect(
      { destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: 0x21, startingPsn: 1, packetLifeTime: 30 },
      (e) => {
        if (e.type === 'rep') c.ready();
        if (e.type === 'dreq') c.disconnect();
      },
    );
    p.clock.advance(10);
    const b = srv.reqs[0]!.conn;
    assert.equal(srv.reqs[0]!.req.primary.localAckTimeout, 31);
    assert.equal(b.state, 'ESTABLISHED');
    b.disconnect();
    p.clock.advance(10);
    assert.equal(b.state, 'TIMEWAIT');
    const start = p.clock.now;
    p.clock.run({ until: () => b.state !== 'TIMEWAIT', limitMs: 3_600_000 });
    assert.equal(b.state, 'IDLE');
    assert.ok(p.clock.now - start <= ibTimeoutMs(p.b.maxResponseTimeout) + 1, `TIMEWAIT lasted ${p.clock.now - start} ms`);
  });

  it('under pressure (half-open at half the cap) a new REP awaits its RTU about pressureTimeoutMs, with one retransmission', () => {
    const p = pair({ listenLimits: { maxHalfOpen: 8, pressureTimeoutMs: 1_000 } });
    const srv = acceptingListener(p.b, SID);
    const rnd = seeded(9);
    const ports = Array.from({ length: 5 }, (_, i) => p.fabric.port(spoofGid(500 + i)));
    for (const port of ports) {
      port.onReceive(() => {});
      port.send(encodeCmMad(1n, rawReq(port.gid, rnd)), B_ADDR);
    }
    p.clock.advance(5);
    assert.equal(srv.reqs.length, 5);
    const last = srv.reqs[4]!.conn;
    // The fifth REP went out with 4 half-open already (≥ 8 / 2): one retransmission, 500 ms apart.
    assert.equal(last.maxRetries, 1);
    assert.ok(last.timeoutMs <= 500);
    p.clock.run({ limitMs: 1_100, until: () => last.state !== 'REP_SENT' });
    assert.equal(last.state, 'IDLE');
    // The first ones (before pressure) keep the REQ's own, longer wait.
    assert.equal(srv.reqs[0]!.conn.state, 'REP_SENT');
  });

  it('limits are a table with defaults, overridable per CM and per listener; bad values are refused', () => {
    assert.equal(IBCM_LISTEN_LIMITS.maxHalfOpen.default, 1024);
    const p = pair({ listenLimits: { maxHalfOpen: 10 } });
    assert.throws(() => p.b.listen(SID, () => {}, { limits: { maxHalfOpenPerSource: 0 } }), RangeError);
    const l = p.b.listen(SID, () => {}, { limits: { acceptTimeoutMs: 5 } });
    assert.equal(l.limits.maxHalfOpen, 10);
    assert.equal(l.limits.acceptTimeoutMs, 5);
    assert.equal(l.limits.maxHalfOpenPerSource, IBCM_LISTEN_LIMITS.maxHalfOpenPerSource.default);
  });
});

describe('IB CM: forged messages that know only one comm ID (matching as the Linux CM does)', () => {
  /** An established connection A→B and a spoofer's port; `ids` are both sides' comm IDs. */
  function established() {
    const p = pair();
    const srv = acceptingListener(p.b, SID);
    const aEvents: IbCmEvent[] = [];
    const a: IbCmConnection = p.a.connect({ destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: 0x31, startingPsn: 1 }, (e) => {
      aEvents.push(e);
      if (e.type === 'rep') a.ready();
    });
    p.clock.advance(10);
    const b = srv.reqs[0]!.conn;
    assert.equal(a.state, 'ESTABLISHED');
    assert.equal(b.state, 'ESTABLISHED');
    const spoofer = p.fabric.port(spoofGid(4242));
    spoofer.onReceive(() => {});
    const A_ADDR = { gid: GID_A, qpn: 1, qkey: GSI_QKEY, pkey: 0xffff };
    return { p, a, b, aEvents, srvEvents: srv.events, spoofer, A_ADDR };
  }
  const rej = (localCommId: number, remoteCommId: number, msgRejected: CmMsgResponse): CmRej => ({
    kind: 'REJ',
    localCommId,
    remoteCommId,
    msgRejected,
    reason: CmRejReason.CONSUMER_DEFINED,
    ari: new Uint8Array(0),
    privateData: new Uint8Array(0),
  });

  it("a REJ of a REQ naming only the victim's comm ID does not tear down an established connection (either side)", () => {
    const t = established();
    t.spoofer.send(encodeCmMad(7n, rej(0x1234_5678, t.b.localCommId, CmMsgResponse.REQ)), B_ADDR);
    t.spoofer.send(encodeCmMad(8n, rej(0x1234_5678, t.a.localCommId, CmMsgResponse.REQ)), t.A_ADDR);
    t.p.clock.advance(10);
    assert.equal(t.b.state, 'ESTABLISHED');
    assert.equal(t.a.state, 'ESTABLISHED');
    assert.ok(!t.srvEvents.some((e) => e.type === 'rejected' || e.type === 'disconnected'));
    assert.ok(!t.aEvents.some((e) => e.type === 'rejected' || e.type === 'disconnected'));
  });

  it('REJ (of a REP or other), MRA, RTU, DREQ and DREP with a wrong peer comm ID are ignored; with both IDs the REJ is acted on', () => {
    const t = established();
    const wrong = (t.a.localCommId + 1) >>> 0;
    const none = new Uint8Array(0);
    for (const m of [
      rej(wrong, t.b.localCommId, CmMsgResponse.REP),
      rej(wrong, t.b.localCommId, CmMsgResponse.OTHER),
      {
        kind: 'MRA',
        localCommId: wrong,
        remoteCommId: t.b.localCommId,
        msgMraed: CmMsgResponse.REQ,
        serviceTimeout: 31,
        privateData: none,
      } satisfies CmMra,
      { kind: 'RTU', localCommId: wrong, remoteCommId: t.b.localCommId, privateData: none } satisfies CmRtu,
      { kind: 'DREQ', localCommId: wrong, remoteCommId: t.b.localCommId, remoteQpn: t.b.localQpn, privateData: none } satisfies CmDreq,
      { kind: 'DREP', localCommId: wrong, remoteCommId: t.b.localCommId, privateData: none } satisfies CmDrep,
    ] as const) {
      t.spoofer.send(encodeCmMad(9n, m), B_ADDR);
    }
    t.p.clock.advance(10);
    assert.equal(t.b.state, 'ESTABLISHED');
    assert.equal(t.a.state, 'ESTABLISHED');
    // The matching itself works: a REJ naming both IDs is acted on (Linux: TIMEWAIT).
    t.spoofer.send(encodeCmMad(10n, rej(t.a.localCommId, t.b.localCommId, CmMsgResponse.OTHER)), B_ADDR);
    t.p.clock.advance(1);
    assert.equal(t.b.state, 'TIMEWAIT');
  });
});

/**
 * The IB CM's consumer API and its limits: bad calls change nothing, the listener backlog and
 * the connection cap answer REJ 3, establish() (COMM_EST before the RTU), destroy() as Linux
 * cm_destroy_id, and a hostile peer: unmatched and random MADs injected into live exchanges.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IbCm } from '../../src/ibcm/cm.js';
import { MemoryGsiFabric, realTimers } from '../../src/ibcm/gsi.js';
import { CmRejReason, type CmMessage, decodeCmMad, encodeCmMad, RdmaPs, rdmaServiceId } from '../../src/wire/ib/cm.js';
import { GSI_QKEY } from '../../src/wire/ib/mad.js';
import { Prng } from '../wire/helpers.js';
import { acceptingListener, GID_A, GID_B, pair, recorder } from './helpers.js';

const SID = rdmaServiceId(RdmaPs.TCP, 7174);
const otherGid = (last: number) => Uint8Array.from(GID_A.map((x, i) => (i === 15 ? last : x)));
const to = { gid: GID_B, qpn: 1, qkey: GSI_QKEY, pkey: 0xffff };
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code ?? (e as Error).name;
  }
  return 'ok';
};

describe('IB CM API: bad calls get an error and change nothing', () => {
  it('listen twice on a service ID → EADDRINUSE; after close() it can listen again', () => {
    const p = pair();
    const l = p.b.listen(SID, () => {});
    assert.equal(
      code(() => p.b.listen(SID, () => {})),
      'EADDRINUSE',
    );
    l.close();
    assert.equal(
      code(() => p.b.listen(SID, () => {}).close()),
      'ok',
    );
  });

  it('connect from a GID that is not ours, or with a path MTU outside 1..5 → RangeError, nothing sent', () => {
    const p = pair();
    assert.equal(
      code(() => p.a.connect({ destGid: GID_B, localGid: GID_B, serviceId: SID, qpn: 1, startingPsn: 1 }, () => {})),
      'RangeError',
    );
    assert.equal(
      code(() => p.a.connect({ destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: 1, startingPsn: 1, pathMtu: 6 }, () => {})),
      'RangeError',
    );
    assert.equal(
      code(() => p.a.connect({ destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: 1 << 24, startingPsn: 1 }, () => {})),
      'RangeError',
    );
    p.clock.run();
    assert.equal(p.wire.length, 0);
    assert.equal(p.clock.pending, 0);
  });

  it('calls in the wrong state → EINVAL and the state stays', () => {
    const p = pair();
    const srv = acceptingListener(p.b, SID, { manual: true });
    const { events, on } = recorder();
    const c = p.a.connect({ destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: 0x11, startingPsn: 1 }, on);
    assert.equal(
      code(() => c.ready()),
      'EINVAL',
    );
    assert.equal(
      code(() => c.accept({ qpn: 1, startingPsn: 1 })),
      'EINVAL',
    );
    assert.equal(
      code(() => c.mra(5)),
      'EINVAL',
    );
    assert.equal(c.state, 'REQ_SENT');
    p.clock.run({ until: () => srv.reqs.length === 1 });
    const s = srv.reqs[0]!.conn;
    assert.equal(
      code(() => s.disconnect()),
      'EINVAL',
    );
    assert.equal(
      code(() => s.establish()),
      'EINVAL',
    );
    assert.equal(s.state, 'REQ_RCVD');
    s.accept({ qpn: 0x22, startingPsn: 2 });
    assert.equal(
      code(() => s.accept({ qpn: 0x22, startingPsn: 2 })),
      'EINVAL',
    );
    assert.equal(events.length, 0);
  });
});

describe('IB CM limits', () => {
  it('a listener holds at most `backlog` undecided REQs; the next gets REJ 3 (No Resources)', () => {
    const p = pair();
    const srv = acceptingListener(p.b, SID, { manual: true });
    p.b.listen(rdmaServiceId(RdmaPs.TCP, 2), () => {}, { backlog: 2 }).close();
    const l2 = rdmaServiceId(RdmaPs.TCP, 3);
    const seen: unknown[] = [];
    p.b.listen(l2, (ev) => seen.push(ev), { backlog: 2 });
    const rs = [0, 1, 2].map((i) => {
      const r = recorder();
      p.a.connect({ destGid: GID_B, localGid: GID_A, serviceId: l2, qpn: 0x30 + i, startingPsn: 1 }, r.on);
      return r;
    });
    p.clock.run({ limitMs: 100 });
    assert.equal(seen.length, 2);
    const third = rs[2]!.events[0];
    assert.ok(third?.type === 'rejected');
    assert.equal(third.reason, CmRejReason.NO_RESOURCES);
    assert.equal(srv.reqs.length, 0);
  });

  it('a CM holds at most maxConnections; connect() beyond it throws ENOMEM', () => {
    const p = pair();
    const small = new IbCm({
      port: p.fabric.port(otherGid(80)),
      caGuid: 5n,
      gids: () => [otherGid(80)],
      timers: p.clock,
      maxConnections: 1,
    });
    small.connect({ destGid: GID_B, localGid: otherGid(80), serviceId: SID, qpn: 1, startingPsn: 1 }, () => {});
    assert.equal(
      code(() => small.connect({ destGid: GID_B, localGid: otherGid(80), serviceId: SID, qpn: 2, startingPsn: 1 }, () => {})),
      'ENOMEM',
    );
  });
});

describe('IB CM: establish() and destroy()', () => {
  it('establish(): data before the RTU makes the passive side ESTABLISHED and stops the REP retransmission', () => {
    const p = pair();
    p.fault = (w) => (w.msg.kind === 'RTU' ? 'drop' : 'pass');
    const srv = acceptingListener(p.b, SID);
    const { conn } = (() => {
      let c: ReturnType<typeof p.a.connect>;
      c = p.a.connect({ destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: 0x11, startingPsn: 1 }, (e) => e.type === 'rep' && c.ready());
      return { conn: c };
    })();
    p.clock.run({ until: () => conn.state === 'ESTABLISHED' });
    const s = srv.reqs[0]!.conn;
    assert.equal(s.state, 'REP_SENT');
    s.establish();
    assert.equal(s.state, 'ESTABLISHED');
    p.clock.run({ limitMs: 60_000 });
    assert.equal(p.b.stats.retransmits, 0);
    assert.deepEqual(
      srv.events.map((e) => e.type),
      ['established'],
    );
  });

  it('destroy() sends what Linux cm_destroy_id sends: REJ Timeout for a pending REQ, REJ 28 for an undecided one, DREQ when established', () => {
    const p = pair();
    const srv = acceptingListener(p.b, SID, { manual: true });
    const r = recorder();
    const c1 = p.a.connect({ destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: 0x11, startingPsn: 1 }, r.on);
    c1.destroy();
    p.clock.run({ until: () => srv.reqs.length === 1 });
    const rej1 = p.wire.find((w) => w.msg.kind === 'REJ')!.msg as { reason: number };
    assert.equal(rej1.reason, CmRejReason.TIMEOUT);
    assert.equal(c1.state, 'IDLE');
    p.clock.run();
    // The REJ Timeout found the passive half by (ARI CA GUID, comm ID) and freed it.
    assert.equal(srv.reqs[0]!.conn.state, 'IDLE');
    assert.equal(r.events.length, 0, 'no event after destroy');

    const c2 = p.a.connect({ destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: 0x12, startingPsn: 1 }, r.on);
    p.clock.run({ until: () => srv.reqs.length === 2 });
    srv.reqs[1]!.conn.destroy();
    p.clock.run({ until: () => c2.state === 'IDLE' });
    const ev = r.events[0];
    assert.ok(ev?.type === 'rejected');
    assert.equal(ev.reason, CmRejReason.CONSUMER_DEFINED);
  });
});

describe('IB CM: a hostile peer', () => {
  it('REP, RTU, DREP, MRA, REJ and SIDR_REP for nothing are counted as unmatched; a DREQ for nothing still gets a DREP', () => {
    const p = pair();
    const raw = p.fabric.port(otherGid(90));
    const ids = { localCommId: 77, remoteCommId: 12345 };
    const msgs: CmMessage[] = [
      { kind: 'RTU', ...ids, privateData: new Uint8Array(0) },
      { kind: 'DREP', ...ids, privateData: new Uint8Array(0) },
      { kind: 'MRA', ...ids, msgMraed: 1, serviceTimeout: 3, privateData: new Uint8Array(0) },
      { kind: 'REJ', ...ids, msgRejected: 2, reason: 28, ari: new Uint8Array(0), privateData: new Uint8Array(0) },
      {
        kind: 'SIDR_REP',
        requestId: 5,
        status: 0,
        qpn: 1,
        serviceId: 1n,
        qkey: 1,
        info: new Uint8Array(0),
        privateData: new Uint8Array(0),
      },
      {
        kind: 'REP',
        ...ids,
        localQkey: 0,
        localQpn: 1,
        localEecn: 0,
        startingPsn: 0,
        responderResources: 0,
        initiatorDepth: 0,
        targetAckDelay: 0,
        failoverAccepted: 0,
        e2eFlowControl: false,
        rnrRetryCount: 0,
        srq: false,
        localCaGuid: 1n,
        privateData: new Uint8Array(0),
      },
    ];
    for (const m of msgs) raw.send(encodeCmMad(1n, m), to);
    const got: CmMessage[] = [];
    raw.onReceive((m) => got.push(decodeCmMad(m).msg));
    raw.send(encodeCmMad(9n, { kind: 'DREQ', ...ids, remoteQpn: 3, privateData: new Uint8Array(0) }), to);
    p.clock.run();
    assert.equal(p.b.stats.unmatched, 6);
    assert.equal(got.length, 1);
    assert.equal(got[0]!.kind, 'DREP');
    assert.deepEqual(
      { l: (got[0] as { localCommId: number }).localCommId, r: (got[0] as { remoteCommId: number }).remoteCommId },
      { l: 12345, r: 77 },
    );
  });

  it('2,000 random and mutated MADs injected into live connections: no throw, and every connection still completes', () => {
    const rng = new Prng(0x1bc3);
    for (let round = 0; round < 4; round++) {
      const p = pair({ seed: round + 11 });
      const srv = acceptingListener(p.b, SID);
      const raw = p.fabric.port(otherGid(100));
      const conns = Array.from({ length: 5 }, (_, i) => {
        let c: ReturnType<typeof p.a.connect>;
        c = p.a.connect({ destGid: GID_B, localGid: GID_A, serviceId: SID, qpn: 0x40 + i, startingPsn: 1 }, (e) => {
          // A consumer answers a DREQ (a forged stale REQ makes the passive side send one).
          if (e.type === 'rep') c.ready();
          if (e.type === 'dreq') c.disconnect();
        });
        return c;
      });
      for (let i = 0; i < 500; i++) {
        // Mutations of the MADs seen so far (so comm IDs and TIDs are often right), or noise.
        const seen = p.wire;
        let mad: Uint8Array;
        if (seen.length && rng.int(3)) {
          const w = seen[rng.int(seen.length)]!;
          mad = encodeCmMad(w.tid, w.msg);
          const n = rng.int(4);
          for (let k = 0; k < n; k++) mad[24 + rng.int(40)] = rng.u32() & 0xff;
        } else {
          mad = rng.bytes(256);
          mad.set([1, 7, 2, 3], 0);
          mad[17] = 0x10 + rng.int(9);
        }
        raw.send(mad, { ...to, gid: rng.int(2) ? GID_B : GID_A });
        p.clock.advance(rng.int(50));
      }
      p.clock.run({ until: () => conns.every((c) => c.state === 'ESTABLISHED' || c.state === 'IDLE' || c.state === 'TIMEWAIT') });
      // Forged REJ/DREQ may legitimately tear a connection down; none may be left half-open.
      for (const c of conns) assert.ok(['ESTABLISHED', 'IDLE', 'TIMEWAIT'].includes(c.state), `round ${round}: ${c.state}`);
      for (const r of srv.reqs) r.conn.onEvent = (e) => e.type === 'dreq' && r.conn.disconnect();
      for (const c of conns) if (c.state === 'ESTABLISHED') c.disconnect();
      const hostile = p.a.stats.unmatched + p.a.stats.malformed + p.b.stats.unmatched + p.b.stats.malformed + p.b.stats.duplicates;
      assert.ok(hostile > 100, `round ${round}: the injected MADs reached the CMs (${hostile})`);
      p.fabric.tap = undefined;
      p.clock.run();
      assert.ok(
        conns.every((c) => c.state === 'IDLE'),
        `round ${round}: ${conns.map((c) => c.state)}`,
      );
      assert.equal(p.clock.pending, 0, 'no timer left behind');
    }
  });
});

describe('IB CM over real timers', () => {
  it('connects (first REQ lost, retransmitted after ≈17 ms), disconnects and leaves TIMEWAIT on Node timers', {
    timeout: 20_000,
  }, async () => {
    // The CM's timers are unref'd (a pending CM timer never keeps a process alive): hold the loop.
    const keep = setInterval(() => {}, 1000);
    try {
      let reqs = 0;
      const fabric = new MemoryGsiFabric({
        timers: realTimers,
        latencyMs: 0,
        tap: (mad) => (mad[17] === 0x10 && ++reqs === 1 ? 'drop' : 'pass'),
      });
      const a = new IbCm({ port: fabric.port(GID_A), caGuid: 1n, gids: () => [GID_A], timewaitMs: 5 });
      const b = new IbCm({ port: fabric.port(GID_B), caGuid: 2n, gids: () => [GID_B], timewaitMs: 5 });
      b.listen(SID, (ev) => {
        if (ev.type !== 'req') return;
        ev.conn.onEvent = (e) => e.type === 'dreq' && ev.conn.disconnect();
        ev.conn.accept({ qpn: 0x22, startingPsn: 1 });
      });
      const done = new Promise<string[]>((resolve) => {
        const seen: string[] = [];
        const c = a.connect(
          {
            destGid: GID_B,
            localGid: GID_A,
            serviceId: SID,
            qpn: 0x11,
            startingPsn: 1,
            packetLifeTime: 4,
            remoteCmResponseTimeout: 12,
            localCmResponseTimeout: 12,
          },
          (e) => {
            seen.push(e.type);
            if (e.type === 'rep') {
              c.ready();
              setTimeout(() => c.disconnect(), 1);
            }
            if (e.type === 'timewait-exit') resolve(seen);
          },
        );
      });
      assert.deepEqual(await done, ['rep', 'disconnected', 'timewait-exit']);
      // At least the one retransmission the tap forces; a loaded machine can delay the REP past
      // the ≈17 ms response timeout once more, which is a further retransmission, not an error.
      assert.ok(reqs >= 2, `REQs sent: ${reqs}`);
      assert.equal(a.stats.retransmits, reqs - 1);
      a.close();
      b.close();
    } finally {
      clearInterval(keep);
    }
  });
});

/**
 * Listen/connect/accept/reject through the connection manager: rejection with private data,
 * accept-time validation (the request stays pending), policies on both sides, revision
 * fallback, P2P RTR selection, strict IRD/ORD, TCP errors and aborts.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { CmError, type CmConnectRequest, type CmFailure, CmListener, cmConnect, type CmTraceEvent } from '../../src/iwarp/cm.js';
import { DEFAULT_CONFIG, DEFAULT_LIMITS } from '../../src/rnic/rnic.js';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiQpState, RiWcStatus, RiWrType } from '../../src/rnicpi/types.js';
import { decodeMpaReqRep } from '../../src/wire/mpa.js';
import { cmSide, riRnic, pollN, recv, reg, send, sge, until } from '../helpers/engine.js';
import { assertNoLeaks, destroyAll, frameBytes, hex, te } from './helpers.js';

const T = { timeout: 60_000 };

async function withListener(
  opts: Parameters<typeof CmListener.listen>[0],
  body: (l: CmListener, failures: CmFailure[]) => Promise<void>,
): Promise<void> {
  const l = await CmListener.listen({ host: '127.0.0.1', ...opts });
  const failures: CmFailure[] = [];
  l.on('failure', (f: CmFailure) => failures.push(f));
  try {
    await body(l, failures);
  } finally {
    await l.close();
  }
}

async function expectCmError(p: Promise<unknown>, kind: string): Promise<CmError> {
  const e = await p.then(
    () => assert.fail(`expected a CmError of kind ${kind}`),
    (err: unknown) => err,
  );
  assert.ok(e instanceof CmError, `a CmError, got ${e}`);
  assert.equal(e.kind, kind, e.message);
  return e;
}

for (const revision of [1, 2] as const) {
  test(`reject with private data reaches the Initiator as a peer reject (revision ${revision})`, async () => {
    const a = cmSide(riRnic());
    const pd = te(`sorry, revision ${revision} is busy`);
    const traced: CmTraceEvent[] = [];
    await withListener({ trace: (e) => traced.push(e) }, async (l) => {
      l.once('request', (r: CmConnectRequest) => {
        assert.equal(hex(r.privateData), hex(te('may I?')));
        r.reject(pd);
        assert.equal(r.state, 'rejected');
        assert.throws(
          () => r.reject(),
          (e: unknown) => e instanceof CmError && e.kind === 'invalid',
          'only once',
        );
      });
      const err = await expectCmError(cmConnect(a.cm, '127.0.0.1', l.port, { revision, privateData: te('may I?') }), 'rejected');
      assert.equal(hex(err.privateData!), hex(pd));
      assert.equal(a.qp.state, RiQpState.IDLE, 'the QP stays Idle');
      assert.equal(l.stats.rejected, 1);
      // The Reply on the wire: R set, our revision, the RFC 6581 word only at revision 2.
      const rep = traced.find((e) => e.dir === 'tx' && e.what === 'reply')!;
      assert.equal(
        hex(rep.bytes),
        hex(
          frameBytes({
            reply: true,
            m: false,
            c: false,
            r: true,
            s: revision === 2,
            rev: revision,
            word: revision === 2 ? { ird: 0, ord: 0 } : null,
            pd,
          }),
        ),
      );
    });
    destroyAll(a.rnic);
    await assertNoLeaks([a.rnic]);
  });
}

test('private data limits: 512 octets at revision 1, 508 with the RFC 6581 word', T, async () => {
  const a = cmSide(riRnic());
  await expectCmError(cmConnect(a.cm, '127.0.0.1', 1, { revision: 2, privateData: new Uint8Array(509) }), 'invalid');
  await expectCmError(cmConnect(a.cm, '127.0.0.1', 1, { revision: 1, privateData: new Uint8Array(513) }), 'invalid');
  const b = cmSide(riRnic());
  await withListener({}, async (l) => {
    let req: CmConnectRequest | null = null;
    l.once('request', (r: CmConnectRequest) => {
      req = r;
      // Too long for a revision-2 Reply: refused, and the request stays pending.
      assert.throws(
        () => r.accept(b.cm, { privateData: new Uint8Array(509) }),
        (e: unknown) => e instanceof CmError && e.kind === 'invalid',
      );
      assert.equal(r.state, 'pending');
      r.accept(b.cm, { privateData: new Uint8Array(508).fill(0x5a) });
    });
    const c = await cmConnect(a.cm, '127.0.0.1', l.port, { revision: 2, privateData: new Uint8Array(508).fill(0xa5) });
    assert.equal(c.peerPrivateData.length, 508);
    assert.ok(c.peerPrivateData.every((x) => x === 0x5a));
    assert.equal((req as CmConnectRequest | null)?.privateData.length, 508);
    // Revision 1 carries a full 512.
    c.disconnect('abortive');
  });
  destroyAll(a.rnic, b.rnic);
  const a1 = cmSide(riRnic());
  const b1 = cmSide(riRnic());
  await withListener({}, async (l) => {
    l.once('request', (r: CmConnectRequest) => r.accept(b1.cm, { privateData: new Uint8Array(512).fill(1) }));
    const c = await cmConnect(a1.cm, '127.0.0.1', l.port, { revision: 1, privateData: new Uint8Array(512).fill(2) });
    assert.equal(c.peerPrivateData.length, 512);
    c.disconnect('abortive');
  });
  destroyAll(a1.rnic, b1.rnic);
  await assertNoLeaks([a.rnic, b.rnic, a1.rnic, b1.rnic]);
});

test('one listener serves many concurrent connections, each with its own private data', T, async () => {
  const N = 20;
  const ra = riRnic();
  const rb = riRnic();
  await withListener({}, async (l) => {
    const passive: ReturnType<CmConnectRequest['accept']>[] = [];
    l.on('request', (r: CmConnectRequest) => {
      const s = cmSide(rb);
      passive.push(r.accept(s.cm, { privateData: r.privateData }));
    });
    const sides = Array.from({ length: N }, () => cmSide(ra));
    const conns = await Promise.all(sides.map((s, i) => cmConnect(s.cm, '127.0.0.1', l.port, { privateData: te(`#${i}`) })));
    for (const [i, c] of conns.entries()) assert.equal(Buffer.from(c.peerPrivateData).toString(), `#${i}`, 'each gets its own echo');
    assert.equal(l.stats.accepted, N);
    const closed = [...conns, ...passive].map((c) => new Promise((r) => c.once('close', r)));
    for (const c of conns) c.disconnect('graceful');
    await Promise.all(closed);
  });
  destroyAll(ra, rb);
  await assertNoLeaks([ra, rb]);
});

test('policy clash at the Responder: a Reply with R set, the listener reports the policy failure', T, async () => {
  for (const [listenPolicy, connectPolicy] of [
    [{ markers: 'refuse' }, { markers: 'require' }],
    [{ crc: 'never' }, { crc: 'require' }],
  ] as const) {
    const a = cmSide(riRnic());
    await withListener({ policy: listenPolicy }, async (l, failures) => {
      l.on('request', () => assert.fail('no request event for a refused policy'));
      const e = await expectCmError(cmConnect(a.cm, '127.0.0.1', l.port, { policy: connectPolicy }), 'rejected');
      assert.equal(e.privateData?.length, 0);
      await until(() => failures.length === 1, 2000, 'the failure event');
      assert.equal(failures[0]!.kind, 'policy');
    });
    destroyAll(a.rnic);
    await assertNoLeaks([a.rnic]);
  }
});

test('policy clash at the Initiator: a connection error, the Responder sees the stream close', T, async () => {
  for (const [listenPolicy, connectPolicy] of [
    [{ markers: 'require' }, { markers: 'refuse' }],
    [{ crc: 'require' }, { crc: 'never' }],
  ] as const) {
    const a = cmSide(riRnic());
    const b = cmSide(riRnic());
    await withListener({ policy: listenPolicy }, async (l) => {
      l.once('request', (r: CmConnectRequest) => r.accept(b.cm));
      await expectCmError(cmConnect(a.cm, '127.0.0.1', l.port, { policy: connectPolicy }), 'policy');
      assert.equal(a.qp.state, RiQpState.IDLE);
      // The Responder had accepted: its QP sees the LLP go away before any FPDU.
      await until(() => b.qp.state === RiQpState.ERROR, 3000, 'the Responder QP in Error');
    });
    destroyAll(a.rnic, b.rnic);
    await assertNoLeaks([a.rnic, b.rnic]);
  }
});

test('a revision-1 listener answers a revision-2 Request with revision 1: no IRD/ORD exchange', T, async () => {
  const a = cmSide(riRnic(), { ird: 3, ord: 5 });
  const b = cmSide(riRnic(), { ird: 7, ord: 2 });
  const replies: Uint8Array[] = [];
  await withListener({ revision: 1 }, async (l) => {
    l.once('request', (r: CmConnectRequest) => {
      assert.equal(r.revision, 2);
      assert.equal(r.enhanced, false, 'not answered with RFC 6581');
      assert.equal(r.peerIrd, null);
      r.accept(b.cm);
    });
    const c = await cmConnect(a.cm, '127.0.0.1', l.port, { revision: 2, trace: (e) => e.what === 'reply' && replies.push(e.bytes) });
    assert.equal(c.agreement?.revision, 1);
    assert.equal(c.agreement?.enhanced, false);
    assert.deepEqual([a.qp.ird, a.qp.ord, b.qp.ird, b.qp.ord], [3, 5, 7, 2], 'IRD/ORD are the ULP’s business');
    const f = decodeMpaReqRep(replies[0]!);
    assert.ok(f.status === 'frame' && f.frame.revision === 1 && !f.frame.enhanced);
    c.disconnect('abortive');
  });
  destroyAll(a.rnic, b.rnic);
  await assertNoLeaks([a.rnic, b.rnic]);
});

test('P2P towards a revision-1 Responder: the Initiator terminates with "No Matching RTR" (0x07)', T, async () => {
  const a = cmSide(riRnic());
  const b = cmSide(riRnic());
  const events: number[] = [];
  b.rnic.asyncHandler = (_o, ev) => events.push(ev.event_type);
  await withListener({ revision: 1 }, async (l) => {
    l.once('request', (r: CmConnectRequest) => r.accept(b.cm));
    const e = await expectCmError(cmConnect(a.cm, '127.0.0.1', l.port, { p2p: true }), 'no-matching-rtr');
    assert.equal(e.terminate?.ecode, 0x07);
    assert.equal(a.qp.state, RiQpState.IDLE);
    // The Responder's QP receives the Terminate message and ends in Error.
    await until(() => b.qp.state === RiQpState.ERROR, 3000, 'Responder QP in Error');
    assert.equal(b.qp.terminate?.codes?.layer, 2);
    assert.equal(b.qp.terminate?.codes?.ecode, 0x07);
  });
  destroyAll(a.rnic, b.rnic);
  await assertNoLeaks([a.rnic, b.rnic]);
});

test('P2P RTR selection: Write first (as siw), then Read, then Send; the preference is configurable', T, async () => {
  const run = async (offer: ('write' | 'read' | 'send')[], pref: ('write' | 'read' | 'send')[] | undefined, reads = true) => {
    const a = cmSide(riRnic());
    const b = cmSide(riRnic(), { enableRdmaRead: reads });
    let chosen: string | null = null;
    await withListener(pref ? { rtrPreference: pref } : {}, async (l) => {
      l.once('request', (r: CmConnectRequest) => {
        chosen = r.accept(b.cm).agreement?.rtr ?? null;
      });
      const c = await cmConnect(a.cm, '127.0.0.1', l.port, { p2p: offer });
      assert.equal(c.agreement?.rtr, chosen);
      // Data flows after the RTR.
      const m = te('x');
      const rb = new Uint8Array(4);
      assert.equal(recv(b.qp, 1n, [sge(reg(b, rb), rb)]), RiRet.SUCCESS);
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(reg(a, m), m)] }), RiRet.SUCCESS);
      const [w] = await pollN(b.cq, 1);
      assert.equal(w!.op_status, RiWcStatus.SUCCESS);
      c.disconnect('abortive');
    });
    destroyAll(a.rnic, b.rnic);
    await assertNoLeaks([a.rnic, b.rnic]);
    return chosen;
  };
  assert.equal(await run(['send', 'read', 'write'], undefined), 'write');
  assert.equal(await run(['send', 'read'], undefined), 'read');
  assert.equal(await run(['send', 'read'], undefined, false), 'send', 'no Read RTR without inbound Reads');
  assert.equal(await run(['send', 'read', 'write'], ['send', 'write']), 'send');
});

test('accept-time failures leave the request pending: no acceptable RTR, QP not Idle', T, async () => {
  const a = cmSide(riRnic());
  const noReads = cmSide(riRnic(), { enableRdmaRead: false });
  const busy = cmSide(noReads.rnic);
  assert.equal(busy.qp.modify({ nextState: RiQpState.ERROR }), RiRet.SUCCESS);
  await withListener({}, async (l) => {
    l.once('request', (r: CmConnectRequest) => {
      // Only a Read RTR offered, and the QP takes no inbound Reads.
      assert.throws(
        () => r.accept(noReads.cm),
        (e: unknown) => e instanceof CmError && e.kind === 'no-matching-rtr',
      );
      assert.throws(
        () => r.accept(busy.cm),
        (e: unknown) => e instanceof CmError && e.kind === 'invalid',
      );
      assert.equal(r.state, 'pending');
      assert.equal(noReads.qp.state, RiQpState.IDLE);
      r.reject(te('no'));
    });
    const e = await expectCmError(cmConnect(a.cm, '127.0.0.1', l.port, { p2p: ['read'] }), 'rejected');
    assert.equal(Buffer.from(e.privateData!).toString(), 'no');
  });
  destroyAll(a.rnic, noReads.rnic);
  await assertNoLeaks([a.rnic, noReads.rnic]);
});

test('strict Responder: IRD/ORD that do not fit fail the accept, which may be retried', T, async () => {
  const a = cmSide(riRnic(), { ird: 2, ord: 8 });
  const b = cmSide(riRnic(), { ird: 8, ord: 8 });
  await withListener({ irdOrd: 'strict' }, async (l) => {
    l.once('request', (r: CmConnectRequest) => {
      assert.throws(
        () => r.accept(b.cm),
        (e: unknown) => e instanceof CmError && e.kind === 'ird-ord',
        'ORD 8 > peer IRD 2',
      );
      assert.throws(
        () => r.accept(b.cm, { ord: 2, ird: 7 }),
        (e: unknown) => e instanceof CmError && e.kind === 'ird-ord',
        'IRD 7 < peer ORD 8',
      );
      assert.equal(r.state, 'pending');
      assert.equal(r.accept(b.cm, { ord: 2 }).agreement?.ord, 2);
    });
    const c = await cmConnect(a.cm, '127.0.0.1', l.port);
    assert.deepEqual([a.qp.ird, a.qp.ord, b.qp.ird, b.qp.ord], [2, 8, 8, 2]);
    c.disconnect('abortive');
  });
  destroyAll(a.rnic, b.rnic);
  await assertNoLeaks([a.rnic, b.rnic]);
});

test('Initiator ORD above what the Responder can take: relaxed lowers ORD, strict sends "Insufficient IRD" (0x06)', T, async () => {
  // The Responder's RNIC allows IRD 4 per QP, so its relaxed negotiation stops there.
  const small = riRnic({ ...DEFAULT_CONFIG, limits: { ...DEFAULT_LIMITS, maxIrdPerQp: 4 } });
  const a = cmSide(riRnic(), { ird: 8, ord: 16 });
  const b = cmSide(small, { ird: 2, ord: 2 });
  await withListener({}, async (l) => {
    l.once('request', (r: CmConnectRequest) => r.accept(b.cm));
    const c = await cmConnect(a.cm, '127.0.0.1', l.port);
    assert.deepEqual([a.qp.ord, b.qp.ird], [4, 4], 'ORD lowered to the peer IRD');
    c.disconnect('abortive');
  });
  destroyAll(a.rnic, small);
  const a2 = cmSide(riRnic(), { ird: 8, ord: 16 });
  const b2 = cmSide(small, { ird: 2, ord: 2 });
  await withListener({}, async (l) => {
    l.once('request', (r: CmConnectRequest) => r.accept(b2.cm));
    const e = await expectCmError(cmConnect(a2.cm, '127.0.0.1', l.port, { irdOrd: 'strict' }), 'ird-ord');
    assert.equal(e.terminate?.ecode, 0x06);
    assert.equal(a2.qp.state, RiQpState.IDLE);
    await until(() => b2.qp.state === RiQpState.ERROR, 3000, 'the Responder QP in Error');
    assert.deepEqual([b2.qp.terminate?.codes?.layer, b2.qp.terminate?.codes?.etype, b2.qp.terminate?.codes?.ecode], [2, 0, 0x06]);
  });
  destroyAll(a2.rnic, small);
  await assertNoLeaks([a.rnic, a2.rnic, small]);
});

test('TCP errors: refused, and an abort while connecting', T, async () => {
  const a = cmSide(riRnic());
  // A port with nothing listening.
  const srv = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => srv.once('listening', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  await expectCmError(cmConnect(a.cm, '127.0.0.1', port), 'refused');
  assert.equal(a.qp.state, RiQpState.IDLE);
  // Abort while waiting for the Reply (the listener never answers within the test).
  await withListener({}, async (l) => {
    const ac = new AbortController();
    l.once('request', (r: CmConnectRequest) => {
      ac.abort();
      // The Initiator is gone: the request is aborted when the reset arrives.
      r.once('aborted', () => {});
    });
    await expectCmError(cmConnect(a.cm, '127.0.0.1', l.port, { signal: ac.signal }), 'aborted');
    await expectCmError(cmConnect(a.cm, '127.0.0.1', l.port, { signal: AbortSignal.abort() }), 'aborted');
  });
  // A second connect on a QP already connecting is refused without side effects.
  await withListener({}, async (l) => {
    l.once('request', (r: CmConnectRequest) => r.reject());
    const first = cmConnect(a.cm, '127.0.0.1', l.port);
    await expectCmError(cmConnect(a.cm, '127.0.0.1', l.port), 'invalid');
    await expectCmError(first, 'rejected');
  });
  destroyAll(a.rnic);
  await assertNoLeaks([a.rnic]);
});

test('accept from a later tick: the request waits (socket watched), then the connection comes up', T, async () => {
  const a = cmSide(riRnic());
  const b = cmSide(riRnic());
  await withListener({}, async (l) => {
    l.once('request', (r: CmConnectRequest) => {
      setTimeout(() => {
        assert.equal(r.state, 'pending');
        r.accept(b.cm, { privateData: te('late') });
      }, 30);
    });
    const c = await cmConnect(a.cm, '127.0.0.1', l.port);
    assert.equal(Buffer.from(c.peerPrivateData).toString(), 'late');
    const m = te('ping');
    const rb = new Uint8Array(8);
    assert.equal(recv(b.qp, 1n, [sge(reg(b, rb), rb)]), RiRet.SUCCESS);
    assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(reg(a, m), m)] }), RiRet.SUCCESS);
    const [w] = await pollN(b.cq, 1);
    assert.equal(w!.op_status, RiWcStatus.SUCCESS);
    assert.equal(Buffer.from(rb.subarray(0, 4)).toString(), 'ping');
    c.disconnect('abortive');
  });
  destroyAll(a.rnic, b.rnic);
  await assertNoLeaks([a.rnic, b.rnic]);
});

test('settleMs: the QP is in RTS and receives at once, but the connect resolves only after the settle time', T, async () => {
  const ra = riRnic();
  const rb = riRnic();
  await withListener({}, async (l) => {
    let passive: ReturnType<CmConnectRequest['accept']> | null = null;
    const b = cmSide(rb);
    l.on('request', (r: CmConnectRequest) => {
      passive = r.accept(b.cm, { awaitFirstRx: false });
    });
    const a = cmSide(ra);
    const buf = new Uint8Array(8);
    const mr = reg(a, buf);
    assert.equal(recv(a.qp, 1n, [sge(mr, buf)]), RiRet.SUCCESS);
    let resolved = false;
    const p = cmConnect(a.cm, '127.0.0.1', l.port, { settleMs: 2000 }).then((c) => {
      resolved = true;
      return c;
    });
    await until(() => a.qp.state === RiQpState.READY_TO_SEND && passive !== null, 10_000, 'RTS on both ends');
    // The Responder sends first; the Initiator's QP takes it in while its ULP is still held.
    const src = new Uint8Array(8).fill(5);
    const smr = reg(b, src);
    assert.equal(send(b.qp, { type: RiWrType.SEND, id: 2n, sgl: [sge(smr, src)] }), RiRet.SUCCESS);
    const [wc] = await pollN(a.cq, 1, 10_000);
    assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
    assert.deepEqual([...buf], [...src]);
    assert.equal(resolved, false, 'still held');
    const c = await p;
    assert.equal(resolved, true);
    const closed = [c, passive!].map((x) => new Promise((r) => x.once('close', r)));
    c.disconnect('graceful');
    await Promise.all(closed);
  });
  destroyAll(ra, rb);
  await assertNoLeaks([ra, rb]);
});

/**
 * A Responder allowed to send first (`awaitFirstRx: false`) with `firstTxHoldMs`: its first FPDU
 * waits for the Initiator's first FPDU, or for the hold to end, whichever comes first (Linux siw's
 * Initiator resets a connection whose first FPDU is queued behind the Reply before it read it).
 */
async function heldResponder(holdMs: number, initiatorSendsFirst: boolean): Promise<void> {
  const ra = riRnic();
  const rb = riRnic();
  try {
    await withListener({}, async (l) => {
      const b = cmSide(rb);
      let passive: ReturnType<CmConnectRequest['accept']> | null = null;
      l.on('request', (r: CmConnectRequest) => {
        passive = r.accept(b.cm, { awaitFirstRx: false, firstTxHoldMs: holdMs });
      });
      const a = cmSide(ra);
      const inA = new Uint8Array(8);
      assert.equal(recv(a.qp, 1n, [sge(reg(a, inA), inA)]), RiRet.SUCCESS);
      const inB = new Uint8Array(8);
      assert.equal(recv(b.qp, 1n, [sge(reg(b, inB), inB)]), RiRet.SUCCESS);
      const c = await cmConnect(a.cm, '127.0.0.1', l.port);
      try {
        await until(() => passive !== null && b.qp.state === RiQpState.READY_TO_SEND, 10_000, 'the Responder in RTS');
        // The Responder posts at once, as a server that sends first does at ESTABLISHED.
        const fromB = new Uint8Array(8).fill(7);
        assert.equal(send(b.qp, { type: RiWrType.SEND, id: 2n, sgl: [sge(reg(b, fromB), fromB)] }), RiRet.SUCCESS);
        if (initiatorSendsFirst) {
          await new Promise((r) => setTimeout(r, 200));
          assert.equal(a.cq.poll([], 1), 0, 'the Responder sent before the Initiator and before its hold ended');
          const fromA = new Uint8Array(8).fill(9);
          assert.equal(send(a.qp, { type: RiWrType.SEND, id: 3n, sgl: [sge(reg(a, fromA), fromA)] }), RiRet.SUCCESS);
          const wb = (await pollN(b.cq, 2, 10_000)).find((x) => x.id === 1n);
          assert.equal(wb?.op_status, RiWcStatus.SUCCESS);
          assert.deepEqual([...inB], [...fromA]);
        }
        const w = (await pollN(a.cq, initiatorSendsFirst ? 2 : 1, 10_000)).find((x) => x.id === 1n);
        assert.equal(w?.op_status, RiWcStatus.SUCCESS, 'the Responder’s Send arrived');
        assert.deepEqual([...inA], [...fromB]);
        const closed = [c, passive!].map((x) => new Promise((r) => x.once('close', r)));
        c.disconnect('graceful');
        await Promise.all(closed);
      } finally {
        c.disconnect('abortive');
      }
    });
  } finally {
    destroyAll(ra, rb);
  }
  await assertNoLeaks([ra, rb]);
}

test('firstTxHoldMs: the Responder that may send first holds its first FPDU until the Initiator’s', T, () => heldResponder(60_000, true));

test('firstTxHoldMs: the Responder that may send first sends once its hold ends, the Initiator silent', T, () => heldResponder(20, false));

/**
 * Scripted hostile and slow peers, speaking raw octets over TCP (not through our stack). Each
 * case ends in the documented event, without a crash, and with nothing left behind: the
 * listener's pending counts, the CM's sockets and timers, and the QPs are checked after each.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CmError, type CmConnectRequest, type CmFailure, CmListener, cmConnect } from '../../src/iwarp/cm.js';
import { RiQpState } from '../../src/rnicpi/types.js';
import { decodeFpdu, decodeMpaReqRep, encodeFpdu, encodeMpaReqRep } from '../../src/wire/mpa.js';
import { decodeTerminateMessage } from '../../src/wire/terminate.js';
import { cmSide, riRnic, pollN, recv, reg, sge, until } from '../helpers/engine.js';
import { RiRet } from '../../src/rnicpi/status.js';
import { assertNoLeaks, destroyAll, frameBytes, hex, RawSock, rawServer, te } from './helpers.js';

const T = { timeout: 60_000 };

const LONG = 60_000;

/** A listener whose timers are long unless a test shortens them: detection must not rely on them. */
async function listen(opts: Parameters<typeof CmListener.listen>[0] = {}) {
  const l = await CmListener.listen({ host: '127.0.0.1', requestTimeoutMs: LONG, ...opts });
  const failures: CmFailure[] = [];
  const requests: CmConnectRequest[] = [];
  l.on('failure', (f: CmFailure) => failures.push(f));
  l.on('request', (r: CmConnectRequest) => requests.push(r));
  return { l, failures, requests };
}

async function oneFailure(failures: CmFailure[], kind: string): Promise<void> {
  await until(() => failures.length > 0, 5000, `a ${kind} failure`);
  assert.equal(failures.length, 1, 'reported exactly once');
  assert.equal(failures[0]!.kind, kind, failures[0]!.error.message);
}

const req = (over: Partial<Parameters<typeof encodeMpaReqRep>[0]> = {}) =>
  encodeMpaReqRep({
    type: 'request',
    markers: false,
    crc: false,
    reject: false,
    enhanced: true,
    res: 0,
    revision: 2,
    privateData: new Uint8Array([0, 8, 0, 8]),
    ...over,
  });

// ------------------------------------------------------------------ passive side

test('hostile Initiator: a wrong key is refused at once with a reset, no request event', T, async () => {
  const { l, failures, requests } = await listen();
  const raw = await RawSock.connect(l.port);
  raw.write(te('GET / HTTP/1.1\r\n'));
  await oneFailure(failures, 'protocol');
  await raw.waitClosed();
  assert.equal(raw.bytes().length, 0, 'nothing sent back');
  assert.equal(requests.length, 0);
  assert.equal(l.pendingHandshakes, 0);
  await l.close();
  await assertNoLeaks();
});

test('hostile Initiator: an unsupported revision gets a Reply with R and our revision, then a close', T, async () => {
  for (const [rev, replyRev] of [
    [0, 1],
    [3, 2],
    [255, 2],
  ] as const) {
    const { l, failures, requests } = await listen();
    const raw = await RawSock.connect(l.port);
    raw.write(req({ revision: rev, enhanced: false, privateData: new Uint8Array(0) }));
    await oneFailure(failures, 'bad-revision');
    await until(() => raw.ended || raw.closed, 3000, 'the FIN');
    raw.destroy();
    assert.equal(
      hex(raw.bytes()),
      hex(frameBytes({ reply: true, m: false, c: false, r: true, s: false, rev: replyRev, pd: new Uint8Array(0) })),
    );
    assert.equal(requests.length, 0);
    await l.close();
    await assertNoLeaks();
  }
});

test('hostile Initiator: PD_Length above 512 is refused as soon as the header arrives', T, async () => {
  const { l, failures } = await listen();
  const raw = await RawSock.connect(l.port);
  const h = req({ enhanced: false, privateData: new Uint8Array(0) });
  h[18] = 0x02; // PD_Length 0x0201 = 513; no private data follows
  h[19] = 0x01;
  raw.write(h);
  await oneFailure(failures, 'protocol');
  assert.match(failures[0]!.error.message, /PD_Length 513/);
  await raw.waitClosed();
  await l.close();
  await assertNoLeaks();
});

test('hostile Initiator: FPDU octets right behind the Request (before any Reply) are a protocol error', T, async () => {
  const { l, failures, requests } = await listen();
  const raw = await RawSock.connect(l.port);
  const fpdu = encodeFpdu(new Uint8Array(20), { crc: false });
  raw.write(Buffer.concat([req(), fpdu]));
  await oneFailure(failures, 'protocol');
  await raw.waitClosed();
  assert.equal(requests.length, 0);
  await l.close();
  await assertNoLeaks();
});

test('hostile Initiator: FPDU octets while the request waits for the ULP abort the request', T, async () => {
  const { l, requests } = await listen();
  const b = cmSide(riRnic());
  const raw = await RawSock.connect(l.port);
  raw.write(req());
  await until(() => requests.length === 1, 3000, 'the request');
  const r = requests[0]!;
  const aborted: CmError[] = [];
  r.on('aborted', (e: CmError) => aborted.push(e));
  raw.write(encodeFpdu(new Uint8Array(20), { crc: false }));
  await until(() => r.state === 'aborted', 3000, 'the abort');
  assert.equal(aborted.length, 1);
  assert.equal(aborted[0]!.kind, 'protocol');
  assert.throws(
    () => r.accept(b.cm),
    (e: unknown) => e instanceof CmError && e.kind === 'invalid',
  );
  assert.equal(b.qp.state, RiQpState.IDLE);
  await raw.waitClosed();
  assert.equal(l.pendingRequests, 0);
  await l.close();
  destroyAll(b.rnic);
  await assertNoLeaks([b.rnic]);
});

test('slow Initiator: nothing at all, or half a Request, until the Request timer fires', T, async () => {
  for (const partial of [new Uint8Array(0), req().subarray(0, 10)]) {
    const { l, failures } = await listen({ requestTimeoutMs: 50 });
    const raw = await RawSock.connect(l.port);
    if (partial.length) raw.write(partial);
    await oneFailure(failures, 'timeout');
    await raw.waitClosed();
    assert.equal(l.pendingHandshakes, 0);
    await l.close();
    await assertNoLeaks();
  }
});

test(
  'slow ULP: a request not answered within acceptTimeoutMs is rejected by the CM (R Reply), the ULP told `aborted` (timeout)',
  T,
  async () => {
    const { l, requests } = await listen({ acceptTimeoutMs: 50 });
    const a = cmSide(riRnic());
    const aborted: CmError[] = [];
    l.on('request', (r: CmConnectRequest) => r.on('aborted', (e: CmError) => aborted.push(e)));
    const err = await cmConnect(a.cm, '127.0.0.1', l.port).then(
      () => assert.fail('no connection expected'),
      (e: unknown) => e as CmError,
    );
    // The Initiator is told at once, as by a ULP's reject, rather than left to its own timer.
    assert.ok(err instanceof CmError && err.kind === 'rejected', String(err));
    assert.equal(requests[0]!.state, 'aborted');
    assert.equal(aborted.length, 1);
    assert.equal(aborted[0]!.kind, 'timeout');
    assert.equal(l.stats.expired, 1);
    assert.equal(l.pendingRequests, 0);
    assert.equal(a.qp.state, RiQpState.IDLE);
    await l.close();
    destroyAll(a.rnic);
    await assertNoLeaks([a.rnic]);
  },
);

test('a request nobody answers is rejected by default: the listener has a finite acceptTimeoutMs unless told 0', T, async () => {
  const l = await CmListener.listen({ host: '127.0.0.1' });
  assert.ok(l.acceptTimeoutMs > 0 && l.acceptTimeoutMs < 10_000, `default ${l.acceptTimeoutMs} ms, below the Initiator's 10 s`);
  await l.close();
  const unbounded = await CmListener.listen({ host: '127.0.0.1', acceptTimeoutMs: 0 });
  assert.equal(unbounded.acceptTimeoutMs, 0);
  await unbounded.close();
  await assertNoLeaks();
});

test('a half-open peer closing before its Request is reported once as closed', T, async () => {
  const { l, failures } = await listen();
  const raw = await RawSock.connect(l.port);
  raw.write(req().subarray(0, 5));
  raw.sock.end();
  await oneFailure(failures, 'closed');
  await raw.waitClosed();
  await l.close();
  await assertNoLeaks();
});

test('a full listener evicts its oldest half-open connection, not the newest: a real Initiator gets through at once', T, async () => {
  // A long grace: the in-process Initiator's Request must be read first even on a loaded machine.
  const { l, failures, requests } = await listen({
    maxHalfOpen: 3,
    maxHalfOpenPerSource: 100,
    evictGraceMs: 1500,
    pressureTimeoutMs: LONG,
  });
  const slow: RawSock[] = [];
  for (let i = 0; i < 3; i++) {
    slow.push(await RawSock.connect(l.port));
    await until(() => l.pendingHandshakes === i + 1, 3000, `half-open ${i + 1}`);
  }
  // Full with three peers that send nothing (each could hold its slot for the 60 s Request timer).
  const a = cmSide(riRnic());
  const b = cmSide(riRnic());
  l.on('request', (r: CmConnectRequest) => r.accept(b.cm));
  const c = await cmConnect(a.cm, '127.0.0.1', l.port);
  assert.equal(requests.length, 1);
  // Its Request was read before any eviction, so it never counted against the idle ones.
  assert.equal(l.stats.evicted, 0);
  assert.equal(l.pendingHandshakes, 3);
  // A fourth idle peer is admitted, and the oldest idle one makes room for it.
  const fourth = await RawSock.connect(l.port);
  await slow[0]!.waitClosed();
  assert.equal(slow[1]!.closed || slow[2]!.closed || fourth.closed, false);
  await until(() => l.pendingHandshakes === 3, 3000, 'three half-open');
  assert.equal(l.stats.evicted, 1);
  assert.deepEqual(
    failures.map((f) => f.kind),
    ['overload'],
  );
  // And a fifth the next oldest: the listener never holds more than three for long.
  const fifth = await RawSock.connect(l.port);
  await slow[1]!.waitClosed();
  assert.equal(slow[2]!.closed || fourth.closed || fifth.closed, false);
  slow.push(fourth);
  c.disconnect('abortive');
  await l.close();
  for (const s of [...slow, fifth]) await s.waitClosed();
  destroyAll(a.rnic, b.rnic);
  await assertNoLeaks([a.rnic, b.rnic]);
});

// ------------------------------------------------------------------ active side

/** A fake Responder: answers the first Request with `reply(request)`. */
async function fakeResponder(reply: (request: Uint8Array, s: RawSock) => void) {
  return rawServer((s) => {
    const onData = (): void => {
      const b = s.bytes();
      const r = decodeMpaReqRep(b, 'request');
      if (r.status === 'frame') {
        s.sock.off('data', onData);
        reply(b.subarray(0, r.consumed), s);
      }
    };
    s.sock.on('data', onData);
    // Close when the Initiator closes, as a real peer would.
    s.sock.on('end', () => s.sock.end());
  });
}

const rep = (over: Partial<Parameters<typeof encodeMpaReqRep>[0]> = {}) =>
  encodeMpaReqRep({
    type: 'reply',
    markers: false,
    crc: false,
    reject: false,
    enhanced: true,
    res: 0,
    revision: 2,
    privateData: new Uint8Array([0, 8, 0, 8]),
    ...over,
  });

async function activeCase(
  reply: (request: Uint8Array, s: RawSock) => void,
  kind: string,
  params: Parameters<typeof cmConnect>[3] = {},
): Promise<{ err: CmError; peer: RawSock }> {
  const srv = await fakeResponder(reply);
  const a = cmSide(riRnic());
  const err = await cmConnect(a.cm, '127.0.0.1', srv.port, { timeoutMs: LONG, ...params }).then(
    () => assert.fail(`expected ${kind}`),
    (e: unknown) => e as CmError,
  );
  assert.ok(err instanceof CmError, String(err));
  assert.equal(err.kind, kind, err.message);
  assert.equal(a.qp.state, RiQpState.IDLE, 'the QP stays Idle');
  const peer = srv.socks[0]!;
  await peer.waitClosed();
  await srv.close();
  destroyAll(a.rnic);
  await assertNoLeaks([a.rnic]);
  return { err, peer };
}

test('fake Responder: a Reply with R set is a peer reject carrying its private data', T, async () => {
  const { err } = await activeCase((_q, s) => {
    s.write(rep({ reject: true, privateData: new Uint8Array([0, 0, 0, 0, ...te('go away')]) }));
    s.sock.end();
  }, 'rejected');
  assert.equal(Buffer.from(err.privateData!).toString(), 'go away');
  // Revision 1: no RFC 6581 word to strip.
  const r1 = await activeCase(
    (_q, s) => s.write(rep({ reject: true, revision: 1, enhanced: false, privateData: te('rev1 no') })),
    'rejected',
    { revision: 1 },
  );
  assert.equal(Buffer.from(r1.err.privateData!).toString(), 'rev1 no');
});

test('fake Responder: silence until the Reply timer fires', T, async () => {
  await activeCase(() => {}, 'timeout', { timeoutMs: 50 });
});

test('fake Responder: a wrong key, a revision above the Request, revision 0', T, async () => {
  await activeCase((_q, s) => s.write(te('MPA ID Req Frame....')), 'protocol');
  await activeCase((_q, s) => s.write(rep({ revision: 2 })), 'protocol', { revision: 1 });
  await activeCase((_q, s) => s.write(rep({ revision: 0, enhanced: false, privateData: new Uint8Array(0) })), 'bad-revision');
});

test('fake Responder: FPDU octets behind a P2P Reply (before our RTR) are a protocol error', T, async () => {
  // P2P Reply choosing the Write RTR (A set in IRD, C set in ORD), then an FPDU at once.
  const p2p = rep({ privateData: new Uint8Array([0x80, 8, 0x80, 8]) });
  await activeCase((_q, s) => s.write(Buffer.concat([p2p, encodeFpdu(new Uint8Array(18), { crc: false })])), 'protocol', {
    p2p: ['write'],
  });
});

test('fake Responder without P2P sending an FPDU right behind its Reply (as siw does): the FPDU is received', T, async () => {
  // An untagged Send (QN 0, MSN 1, MO 0, L) carrying "hi", behind a plain revision-2 Reply.
  const send = new Uint8Array(20);
  send[0] = 0x41; // DDP: untagged, L, DV 1
  send[1] = 0x43; // RDMAP: RV 1, Send
  send[13] = 1; // MSN 1 (bytes 10–13)
  send.set([0x68, 0x69], 18);
  const srv = await fakeResponder((_q, s) => s.write(Buffer.concat([rep(), encodeFpdu(send, { crc: false })])));
  const a = cmSide(riRnic());
  const buf = new Uint8Array(8);
  const mr = reg(a, buf);
  assert.equal(recv(a.qp, 1n, [sge(mr, buf)]), RiRet.SUCCESS);
  const conn = await cmConnect(a.cm, '127.0.0.1', srv.port, { timeoutMs: LONG });
  const [wc] = await pollN(a.cq, 1);
  assert.equal(wc!.op_status, 0);
  assert.equal(Buffer.from(buf.subarray(0, 2)).toString(), 'hi');
  conn.disconnect('abortive');
  await srv.close();
  destroyAll(a.rnic);
  await assertNoLeaks([a.rnic]);
});

test('fake Responder: closing or resetting instead of replying', T, async () => {
  await activeCase((_q, s) => s.sock.end(), 'closed');
  await activeCase((_q, s) => s.sock.resetAndDestroy(), 'reset');
});

test('fake Responder: Markers demanded against a refusing policy, CRCs declined that we require', T, async () => {
  await activeCase((_q, s) => s.write(rep({ markers: true })), 'policy', { policy: { markers: 'refuse' } });
  await activeCase((_q, s) => s.write(rep({ crc: false })), 'policy', { policy: { crc: 'require' } });
  await activeCase((_q, s) => s.write(rep({ crc: true })), 'policy', { policy: { crc: 'never' } });
});

/** Reads the Terminate the Initiator sent after a well-formed Reply (RFC 6581 §9.2). */
function terminateFrom(peer: RawSock, request: number): { layer: number; etype: number; ecode: number } {
  const after = peer.bytes().subarray(request);
  const f = decodeFpdu(after, { crc: false });
  assert.equal(f.status, 'fpdu');
  if (f.status !== 'fpdu') throw new Error('unreachable');
  return decodeTerminateMessage(f.ulpdu.slice()).terminate;
}

test('fake Responder: P2P Reply without A, with two RTR types, or with one not offered → Terminate 0x07', T, async () => {
  const word = (ird: number, ord: number) => new Uint8Array([ird >> 8, ird & 0xff, ord >> 8, ord & 0xff]);
  for (const w of [word(8, 8), word(0x8008, 0xc008), word(0x8008, 0x4008), word(0xc008, 0x0008)]) {
    let reqLen = 0;
    const { err, peer } = await activeCase(
      (q, s) => {
        reqLen = q.length;
        s.write(rep({ privateData: w }));
      },
      'no-matching-rtr',
      { p2p: ['write'] },
    );
    assert.equal(err.terminate?.ecode, 0x07);
    const t = terminateFrom(peer, reqLen);
    assert.deepEqual([t.layer, t.etype, t.ecode], [2, 0, 0x07], 'LLP / MPA / No Matching RTR');
  }
});

test('fake Responder: a Reply ORD our IRD cannot cover (beyond the RNIC limit) → Terminate "Insufficient IRD" (0x06)', T, async () => {
  let reqLen = 0;
  const { err, peer } = await activeCase((q, s) => {
    reqLen = q.length;
    s.write(rep({ privateData: new Uint8Array([0, 8, 0, 200]) }));
  }, 'ird-ord');
  assert.equal(err.terminate?.ecode, 0x06);
  const t = terminateFrom(peer, reqLen);
  assert.deepEqual([t.layer, t.etype, t.ecode], [2, 0, 0x06], 'LLP / MPA / Insufficient IRD');
});

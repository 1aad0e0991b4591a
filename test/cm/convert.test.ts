/**
 * Socket conversion (IT-API `it_socket_convert`, RNICPI LLP conversion): a connected TCP socket
 * that carried streaming-mode traffic becomes an RDMA-mode QP, with or without the MPA start-up
 * exchange, with a last streaming-mode message, and with octets the ULP read ahead.
 */
import { qpMpaAttrs } from '../../src/iwarp/llp-attrs.js';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { test } from 'node:test';
import { CmError, type CmConnection, cmConvertSocket } from '../../src/iwarp/cm.js';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiQpState, RiWcStatus, RiWrType } from '../../src/rnicpi/types.js';
import { cmSide, riRnic, pollN, recv, reg, type Side, send, sge } from '../helpers/engine.js';
import { assertNoLeaks, destroyAll, te } from './helpers.js';

const T = { timeout: 30_000 };

/** A connected socket pair over loopback (server side, client side). */
async function socketPair(): Promise<{ s: net.Socket; c: net.Socket; close(): Promise<void> }> {
  const srv = net.createServer({ allowHalfOpen: true });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const c = net.connect({ port: (srv.address() as net.AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true });
  const [[s]] = await Promise.all([once(srv, 'connection') as Promise<[net.Socket]>, once(c, 'connect')]);
  return { s, c, close: () => new Promise<void>((r) => srv.close(() => r())) };
}

/** Reads from `sock` until `want` has arrived; returns whatever came after it. */
async function readUntil(sock: net.Socket, want: string): Promise<Uint8Array> {
  let got = Buffer.alloc(0);
  for (;;) {
    const [d] = (await once(sock, 'data')) as [Buffer];
    got = Buffer.concat([got, d]);
    const i = got.indexOf(want);
    if (i >= 0) {
      sock.pause();
      return new Uint8Array(got.subarray(i + want.length));
    }
  }
}

async function sendBothWays(x: Side, y: Side): Promise<void> {
  const bx = new Uint8Array(16);
  const by = new Uint8Array(16);
  assert.equal(recv(x.qp, 1n, [sge(reg(x, bx), bx)]), RiRet.SUCCESS);
  assert.equal(recv(y.qp, 1n, [sge(reg(y, by), by)]), RiRet.SUCCESS);
  const mx = te('from x');
  const my = te('from y');
  assert.equal(send(x.qp, { type: RiWrType.SEND, id: 2n, sgl: [sge(reg(x, mx), mx)] }), RiRet.SUCCESS);
  assert.equal(send(y.qp, { type: RiWrType.SEND, id: 2n, sgl: [sge(reg(y, my), my)] }), RiRet.SUCCESS);
  for (const w of [...(await pollN(x.cq, 2)), ...(await pollN(y.cq, 2))]) assert.equal(w.op_status, RiWcStatus.SUCCESS);
  assert.equal(Buffer.from(by.subarray(0, 6)).toString(), 'from x');
  assert.equal(Buffer.from(bx.subarray(0, 6)).toString(), 'from y');
}

async function closeBoth(x: CmConnection, y: CmConnection): Promise<void> {
  const done = Promise.all([once(x, 'close'), once(y, 'close')]);
  assert.equal(x.disconnect('graceful'), RiRet.SUCCESS);
  await done;
}

test('conversion with MPA start-up: the side with the last streaming message is the MPA Responder', T, async () => {
  const { s, c, close } = await socketPair();
  const x = cmSide(riRnic()); // server: Conversion Initiator (sends "READY")
  const y = cmSide(riRnic()); // client: Conversion Responder
  // Streaming-mode ULP traffic first.
  c.write('HELLO\n');
  const extra = await readUntil(s, 'HELLO\n');
  assert.equal(extra.length, 0);
  const px = cmConvertSocket(x.cm, s, { lastStreamingMessage: te('READY\n') });
  const afterReady = await readUntil(c, 'READY\n');
  c.removeAllListeners('data');
  const py = cmConvertSocket(y.cm, c, { mpa: { privateData: te('ignored by IT-API, kept here') }, pending: afterReady });
  const [cx, cy] = await Promise.all([px, py]);
  assert.equal(cx.role, 'passive');
  assert.equal(cy.role, 'active');
  assert.equal(Buffer.from(cx.peerPrivateData).toString(), 'ignored by IT-API, kept here');
  assert.equal(x.qp.state, RiQpState.READY_TO_SEND);
  assert.equal(y.qp.state, RiQpState.READY_TO_SEND);
  await sendBothWays(x, y);
  await closeBoth(cy, cx);
  await close();
  destroyAll(x.rnic, y.rnic);
  await assertNoLeaks([x.rnic, y.rnic]);
});

test('conversion without MPA start-up (IT_SC_NO_REQ_REP): straight to RDMA mode with the agreed attributes', T, async () => {
  const { s, c, close } = await socketPair();
  const x = cmSide(riRnic());
  const y = cmSide(riRnic());
  const attrs = { crc: true };
  const cx = await cmConvertSocket(x.cm, s, { mpa: false, lastStreamingMessage: te('GO\n'), mpaAttrs: attrs });
  const rest = await readUntil(c, 'GO\n');
  c.removeAllListeners('data');
  const cy = await cmConvertSocket(y.cm, c, { mpa: false, mpaAttrs: attrs, pending: rest });
  assert.equal(cx.agreement, null);
  assert.deepEqual(qpMpaAttrs(x.qp), { crc: true, recvMarkers: false, xmitMarkers: false, ddpRdmapVersion: 1 });
  await sendBothWays(x, y);
  await closeBoth(cx, cy);
  await close();
  destroyAll(x.rnic, y.rnic);
  await assertNoLeaks([x.rnic, y.rnic]);
});

test('conversion: octets the ULP read past its message (the start of the MPA Request) are handed over', T, async () => {
  const { s, c, close } = await socketPair();
  const x = cmSide(riRnic());
  const y = cmSide(riRnic());
  // y converts at once as MPA Initiator; x's ULP reads its socket and gets the Request early.
  const py = cmConvertSocket(y.cm, c, { mpa: {} });
  const [chunk] = (await once(s, 'data')) as [Buffer];
  s.pause();
  s.removeAllListeners('data');
  assert.ok(chunk.length >= 20, 'the Request arrived in the ULP’s read');
  const cx = await cmConvertSocket(x.cm, s, { mpa: { role: 'responder' }, pending: new Uint8Array(chunk) });
  const cy = await py;
  await sendBothWays(x, y);
  await closeBoth(cx, cy);
  await close();
  destroyAll(x.rnic, y.rnic);
  await assertNoLeaks([x.rnic, y.rnic]);
});

test('conversion failures: junk instead of a Request, and a refused policy', T, async () => {
  {
    const { s, c, close } = await socketPair();
    const x = cmSide(riRnic());
    const px = cmConvertSocket(x.cm, s, { mpa: { role: 'responder' } });
    c.on('error', () => {});
    c.write('this is not MPA at all');
    const e = await px.then(
      () => assert.fail('expected a protocol error'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof CmError && e.kind === 'protocol', String(e));
    assert.equal(x.qp.state, RiQpState.IDLE);
    await new Promise((r) => (c.destroyed ? r(null) : c.once('close', r)));
    await close();
    destroyAll(x.rnic);
    await assertNoLeaks([x.rnic]);
  }
  {
    const { s, c, close } = await socketPair();
    const x = cmSide(riRnic());
    const y = cmSide(riRnic());
    const px = cmConvertSocket(x.cm, s, { mpa: { role: 'responder', policy: { crc: 'never' } } });
    const py = cmConvertSocket(y.cm, c, { mpa: { policy: { crc: 'require' } } });
    const [ex, ey] = await Promise.all([px.catch((e: unknown) => e), py.catch((e: unknown) => e)]);
    assert.ok(ex instanceof CmError && ex.kind === 'policy', String(ex));
    assert.ok(ey instanceof CmError && ey.kind === 'rejected', String(ey));
    assert.equal(x.qp.state, RiQpState.IDLE);
    assert.equal(y.qp.state, RiQpState.IDLE);
    await close();
    destroyAll(x.rnic, y.rnic);
    await assertNoLeaks([x.rnic, y.rnic]);
  }
  // Not a usable socket: refused before anything is sent.
  const z = cmSide(riRnic());
  await assert.rejects(cmConvertSocket(z.cm, new net.Socket()), (e: unknown) => e instanceof CmError && e.kind === 'invalid');
  destroyAll(z.rnic);
  await assertNoLeaks([z.rnic]);
});

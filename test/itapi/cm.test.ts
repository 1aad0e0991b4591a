/**
 * IT-API conformance, digest §10 "Connection management" (assertions 59–82).
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { afterEach, test } from 'node:test';
import { decodeMpaIrdOrd } from '../../src/wire/mpa.js';
import {
  IT_AEVD_NOTIFICATION_EVENT_STREAM,
  IT_CM_MSG_CONN_BROKEN_EVENT,
  IT_CM_MSG_CONN_DISCONNECT_EVENT,
  IT_CM_MSG_CONN_ESTABLISHED_EVENT,
  IT_CM_MSG_CONN_NONPEER_REJECT_EVENT,
  IT_CM_MSG_CONN_PEER_REJECT_EVENT,
  IT_CM_REQ_CONN_REQUEST_EVENT,
  IT_CM_REQ_EVENT_STREAM,
  IT_CN_REJ_BAD_PATH,
  IT_CN_REJ_TIMEOUT,
  IT_COMPLETION_FLAG,
  IT_CONNECT_FLAG_THREE_WAY,
  IT_CONNECT_FLAG_TWO_WAY,
  IT_DTO_ERR_FLUSHED,
  IT_DTO_ERR_LOCAL_PROTECTION,
  IT_DTO_EVENT_STREAM,
  IT_EVD_DEQUEUE_NOTIFICATIONS,
  IT_EP_PARAM_STATE,
  IT_EP_STATE_ACTIVE1_CONNECTION_PENDING,
  IT_EP_STATE_CONNECTED,
  IT_EP_STATE_NONOPERATIONAL,
  IT_EP_STATE_PASSIVE_CONNECTION_PENDING,
  IT_EP_STATE_PASSIVE_WAIT_RDMA_TRANS_REQ,
  IT_IANA_PORT,
  IT_LISTEN_CONN_QUAL_INPUT,
  IT_MAX_PRIV_DATA,
  IT_NOTIFY_FLAG,
  IT_SC_DEFAULT,
  IT_SC_NO_REQ_REP,
  IT_SUCCESS,
  it_ep_accept,
  it_ep_connect,
  it_ep_disconnect,
  it_ep_free,
  it_ep_query,
  it_handoff,
  it_ia_query,
  it_listen_create,
  it_listen_free,
  it_lmr_free,
  it_post_recv,
  it_post_send,
  it_reject,
  it_socket_convert,
  it_status_t as S,
  type it_aevd_notification_event_t,
  type it_conn_request_event_t,
  type it_connection_event_t,
  type it_dto_cmpl_event_t,
  type it_ep_handle_t,
} from '../../src/itapi/index.js';
import { splitFrame, WireTap } from '../cm/helpers.js';
import {
  closedPort,
  connectPair,
  connectTo,
  drain,
  freeAll,
  listen,
  loopPath,
  makeSide,
  next,
  nextOf,
  NO_FLAGS,
  openIa,
  rcAttrs,
  reg,
  seg,
  sevd,
  te,
  throwsIt,
  tick,
} from './helpers.js';

afterEach(freeAll);

const stateOf = (ep: it_ep_handle_t): number => (it_ep_query(ep, IT_EP_PARAM_STATE).ep_state as { rc: number }).rc;
const qual = (port: number) => ({ type: IT_IANA_PORT, conn_qual: { port } }) as const;

test('ITAPI-CM-59 it_ep_connect on a non-UNCONNECTED Endpoint is IT_ERR_INVALID_EP_STATE (UD part needs RoCEv2)', async () => {
  const s = makeSide();
  const l = listen(openIa());
  connectTo(s.ep, l.port);
  throwsIt(() => connectTo(s.ep, l.port), S.IT_ERR_INVALID_EP_STATE);
  await nextOf(l.evd, IT_CM_REQ_CONN_REQUEST_EVENT);
});

test('ITAPI-CM-60 it_ep_connect with TWO_WAY|THREE_WAY, or THREE_WAY on iWARP, is IT_ERR_INVALID_CN_EST_FLAGS', () => {
  const s = makeSide();
  for (const f of [IT_CONNECT_FLAG_TWO_WAY | IT_CONNECT_FLAG_THREE_WAY, IT_CONNECT_FLAG_THREE_WAY]) {
    throwsIt(() => it_ep_connect(s.ep, loopPath(), null, qual(1), f, null), S.IT_ERR_INVALID_CN_EST_FLAGS);
  }
  assert.equal(stateOf(s.ep), 0);
});

test('ITAPI-CM-61 after a successful it_ep_connect the Endpoint is ACTIVE1_CONNECTION_PENDING', async () => {
  const s = makeSide();
  const l = listen(openIa());
  connectTo(s.ep, l.port);
  assert.equal(stateOf(s.ep), IT_EP_STATE_ACTIVE1_CONNECTION_PENDING);
  await nextOf(l.evd, IT_CM_REQ_CONN_REQUEST_EVENT);
  assert.equal(stateOf(s.ep), IT_EP_STATE_ACTIVE1_CONNECTION_PENDING);
});

test('ITAPI-CM-62 the listener gets IT_CM_REQ_CONN_REQUEST_EVENT with the private data byte for byte and the initiator IRD/ORD', async () => {
  const s = makeSide(openIa(), { attrs: rcAttrs({}, { rdma_read_ird: 5, rdma_read_ord: 3 }) });
  const l = listen(openIa());
  const pd = new Uint8Array(IT_MAX_PRIV_DATA).map((_, i) => (i * 7 + 1) & 0xff);
  connectTo(s.ep, l.port, pd);
  const ev = (await nextOf(l.evd, IT_CM_REQ_CONN_REQUEST_EVENT)) as it_conn_request_event_t;
  assert.equal(ev.private_data_present, true);
  assert.deepEqual(ev.private_data, pd);
  assert.equal(ev.rdma_read_ird, 5);
  assert.equal(ev.rdma_read_ord, 3);
  assert.equal(ev.conn_qual.type, IT_IANA_PORT);
  assert.equal(ev.spigot_id, 0);
});

test('ITAPI-CM-63 private data longer than connect_private_data_len is IT_ERR_INVALID_PDATA_LENGTH', () => {
  const s = makeSide();
  const max = it_ia_query(s.ia).connect_private_data_len;
  throwsIt(() => connectTo(s.ep, 1, new Uint8Array(max + 1)), S.IT_ERR_INVALID_PDATA_LENGTH);
  assert.equal(stateOf(s.ep), 0);
});

test('ITAPI-CM-64 after a 2-way accept each side gets exactly one ESTABLISHED, and the Endpoint already queries CONNECTED', async () => {
  const b = makeSide();
  const a = makeSide();
  const l = listen(b.ia);
  const rb = reg(b.pz, 64);
  it_post_recv(b.ep, [seg(rb)], 1n, IT_COMPLETION_FLAG | IT_NOTIFY_FLAG);
  connectTo(a.ep, l.port);
  const req = (await nextOf(l.evd, IT_CM_REQ_CONN_REQUEST_EVENT)) as it_conn_request_event_t;
  it_ep_accept(b.ep, req.cn_est_id, null);
  assert.equal(stateOf(b.ep), IT_EP_STATE_PASSIVE_CONNECTION_PENDING);
  const ea = await next(a.cm);
  assert.equal(ea.event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
  assert.equal(stateOf(a.ep), IT_EP_STATE_CONNECTED);
  // iWARP without RTR: the active side's first Send makes the passive side CONNECTED.
  const sa = reg(a.pz, 16);
  it_post_send(a.ep, [seg(sa, 0, 4)], 2n, NO_FLAGS);
  const eb = await next(b.cm);
  assert.equal(eb.event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
  assert.equal(stateOf(b.ep), IT_EP_STATE_CONNECTED);
  // A round trip later there is still no second ESTABLISHED.
  it_post_recv(a.ep, [seg(sa)], 3n, IT_COMPLETION_FLAG);
  const rb2 = reg(b.pz, 8);
  it_post_send(b.ep, [seg(rb2, 0, 2)], 4n, IT_COMPLETION_FLAG);
  await next(a.dto);
  assert.equal(drain(a.cm).length, 0);
  assert.equal(drain(b.cm).length, 0);
});

test("ITAPI-CM-65 the active side's ESTABLISHED carries the accept private data and the passive IRD/ORD", async () => {
  const b = makeSide(openIa(), { attrs: rcAttrs({}, { rdma_read_ird: 6, rdma_read_ord: 2 }) });
  const a = makeSide(openIa(), { attrs: rcAttrs({}, { rdma_read_ird: 2, rdma_read_ord: 2 }) });
  const l = listen(b.ia);
  const rb = reg(b.pz, 16);
  it_post_recv(b.ep, [seg(rb)], 1n, IT_COMPLETION_FLAG);
  connectTo(a.ep, l.port);
  const req = (await nextOf(l.evd, IT_CM_REQ_CONN_REQUEST_EVENT)) as it_conn_request_event_t;
  it_ep_accept(b.ep, req.cn_est_id, te('accepted by b'));
  const ea = (await next(a.cm)) as it_connection_event_t;
  assert.equal(ea.event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
  assert.equal(ea.private_data_present, true);
  assert.deepEqual(ea.private_data.subarray(0, 13), te('accepted by b'));
  assert.ok(ea.private_data.subarray(13).every((x) => x === 0));
  assert.equal(ea.rdma_read_ird, 6);
  assert.equal(ea.rdma_read_ord, 2);
  assert.equal(ea.ep, a.ep);
});

test('ITAPI-CM-66 it_reject: PEER_REJECT with the exact private data, Endpoint NONOPERATIONAL, pre-posted Receives flushed', async () => {
  const a = makeSide();
  const ra = reg(a.pz, 16);
  it_post_recv(a.ep, [seg(ra)], 11n, IT_COMPLETION_FLAG);
  it_post_recv(a.ep, [seg(ra)], 12n, IT_COMPLETION_FLAG);
  const l = listen(openIa());
  connectTo(a.ep, l.port);
  const req = (await nextOf(l.evd, IT_CM_REQ_CONN_REQUEST_EVENT)) as it_conn_request_event_t;
  const why = te('go away, please');
  it_reject(req.cn_est_id, why);
  const ev = (await next(a.cm)) as it_connection_event_t;
  assert.equal(ev.event_number, IT_CM_MSG_CONN_PEER_REJECT_EVENT);
  assert.equal(ev.private_data_present, true);
  assert.deepEqual(ev.private_data.subarray(0, why.length), why);
  assert.equal(stateOf(a.ep), IT_EP_STATE_NONOPERATIONAL);
  for (const c of [11n, 12n]) {
    const d = (await next(a.dto)) as it_dto_cmpl_event_t;
    assert.equal(d.cookie, c);
    assert.equal(d.dto_status, IT_DTO_ERR_FLUSHED);
  }
});

test('ITAPI-CM-67 a cn_est_id used after it_ep_accept / it_reject / it_handoff is IT_ERR_INVALID_CN_EST_ID', async () => {
  const bia = openIa();
  const l = listen(bia);
  const l2 = listen(bia);
  const ids: it_conn_request_event_t[] = [];
  for (let i = 0; i < 3; i++) {
    const a = makeSide();
    connectTo(a.ep, l.port);
    ids.push((await nextOf(l.evd, IT_CM_REQ_CONN_REQUEST_EVENT)) as it_conn_request_event_t);
  }
  const b = makeSide(bia);
  it_ep_accept(b.ep, ids[0]!.cn_est_id, null);
  it_reject(ids[1]!.cn_est_id, null);
  it_handoff(qual(l2.port), 0, ids[2]!.cn_est_id);
  const b2 = makeSide(bia);
  for (const r of ids) {
    throwsIt(() => it_ep_accept(b2.ep, r.cn_est_id, null), S.IT_ERR_INVALID_CN_EST_ID);
    throwsIt(() => it_reject(r.cn_est_id, null), S.IT_ERR_INVALID_CN_EST_ID);
    throwsIt(() => it_handoff(qual(l2.port), 0, r.cn_est_id), S.IT_ERR_INVALID_CN_EST_ID);
  }
});

test('ITAPI-CM-68 listening with CONN_QUAL_INPUT on a qualifier in use is IT_ERR_CONN_QUAL_BUSY; without the flag a free qualifier is returned', () => {
  const ia = openIa();
  const l = listen(ia);
  assert.ok(l.port > 0);
  const e = sevd(ia, IT_CM_REQ_EVENT_STREAM, 4);
  throwsIt(() => it_listen_create(ia, 0, e, IT_LISTEN_CONN_QUAL_INPUT, qual(l.port)), S.IT_ERR_CONN_QUAL_BUSY);
  const ia2 = openIa();
  throwsIt(() => it_listen_create(ia2, 0, sevd(ia, IT_CM_REQ_EVENT_STREAM, 4), 0, qual(0)), S.IT_ERR_INVALID_CONN_EVD);
  const other = it_listen_create(ia2, 0, sevd(ia2, IT_CM_REQ_EVENT_STREAM, 4), 0, qual(0));
  const p2 = (other.conn_qual.conn_qual as { port: number }).port;
  assert.ok(p2 > 0 && p2 !== l.port);
  // The freed qualifier can be listened on again with CONN_QUAL_INPUT.
  it_listen_free(l.listen);
  it_listen_create(ia, 0, e, IT_LISTEN_CONN_QUAL_INPUT, qual(l.port));
});

test('ITAPI-CM-69 it_listen_create with a non-CM_REQ SEVD is IT_ERR_INVALID_EVD_TYPE', () => {
  const ia = openIa();
  throwsIt(() => it_listen_create(ia, 0, sevd(ia, IT_DTO_EVENT_STREAM, 4), 0, qual(0)), S.IT_ERR_INVALID_EVD_TYPE);
});

test('ITAPI-CM-70 when the CM_REQ SEVD is full a new connect ends with NONPEER_REJECT / IT_CN_REJ_TIMEOUT', async () => {
  const ia = openIa();
  // A one-entry CM_REQ SEVD under an AEVD that reports Notifications: the AEVD tells when the
  // SEVD holds the first request without taking it out.
  const ae = sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 0, 0, IT_EVD_DEQUEUE_NOTIFICATIONS);
  const creq = sevd(ia, IT_CM_REQ_EVENT_STREAM, 1, 1, 0, ae);
  const port = (it_listen_create(ia, 0, creq, 0, qual(0)).conn_qual.conn_qual as { port: number }).port;
  const first = makeSide();
  connectTo(first.ep, port);
  const n = (await next(ae)) as it_aevd_notification_event_t;
  assert.equal(n.sevd, creq);
  const late = makeSide();
  it_ep_connect(late.ep, loopPath(400_000n), null, qual(port), IT_CONNECT_FLAG_TWO_WAY, null);
  const ev = (await nextOf(late.cm, IT_CM_MSG_CONN_NONPEER_REJECT_EVENT)) as it_connection_event_t;
  assert.equal(ev.reject_reason_code, IT_CN_REJ_TIMEOUT);
  assert.equal(stateOf(late.ep), IT_EP_STATE_NONOPERATIONAL);
  // The first request is still there, the late one was never delivered.
  assert.equal(drain(creq).length, 1);
});

test('ITAPI-CM-71 it_listen_free leaves already-queued CONN_REQUEST Events acceptable', async () => {
  const b = makeSide();
  const a = makeSide();
  const l = listen(b.ia);
  connectTo(a.ep, l.port);
  const req = (await nextOf(l.evd, IT_CM_REQ_CONN_REQUEST_EVENT)) as it_conn_request_event_t;
  it_listen_free(l.listen);
  const rb = reg(b.pz, 16);
  it_post_recv(b.ep, [seg(rb)], 1n, IT_COMPLETION_FLAG | IT_NOTIFY_FLAG);
  assert.equal(it_ep_accept(b.ep, req.cn_est_id, null).status, IT_SUCCESS);
  assert.equal((await next(a.cm)).event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
  it_post_send(a.ep, [seg(reg(a.pz, 4), 0, 1)], 2n, NO_FLAGS);
  assert.equal((await next(b.cm)).event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
});

test('ITAPI-CM-72 it_handoff re-delivers an identical CONN_REQUEST to another Listen of the IA; the original id dies', async () => {
  const bia = openIa();
  const l1 = listen(bia);
  const l2 = listen(bia);
  const a = makeSide();
  connectTo(a.ep, l1.port, te('handoff me'));
  const r1 = (await nextOf(l1.evd, IT_CM_REQ_CONN_REQUEST_EVENT)) as it_conn_request_event_t;
  it_handoff(qual(l2.port), 0, r1.cn_est_id);
  const r2 = (await next(l2.evd)) as it_conn_request_event_t;
  assert.equal(r2.event_number, IT_CM_REQ_CONN_REQUEST_EVENT);
  assert.equal(r2.evd, l2.evd);
  assert.notEqual(r2.cn_est_id, r1.cn_est_id);
  for (const k of [
    'conn_qual',
    'source_addr',
    'spigot_id',
    'rdma_read_ird',
    'rdma_read_ord',
    'private_data',
    'private_data_present',
  ] as const) {
    assert.deepEqual(r2[k], r1[k], k);
  }
  const b = makeSide(bia);
  throwsIt(() => it_ep_accept(b.ep, r1.cn_est_id, null), S.IT_ERR_INVALID_CN_EST_ID);
  it_post_recv(b.ep, [seg(reg(b.pz, 16))], 1n, IT_COMPLETION_FLAG);
  it_ep_accept(b.ep, r2.cn_est_id, null);
  assert.equal((await next(a.cm)).event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
});

test('ITAPI-CM-73 no listener → NONPEER_REJECT / BAD_PATH; an unanswered attempt → IT_CN_REJ_TIMEOUT after path.timeout', async () => {
  const a = makeSide();
  connectTo(a.ep, await closedPort());
  const e1 = (await next(a.cm)) as it_connection_event_t;
  assert.equal(e1.event_number, IT_CM_MSG_CONN_NONPEER_REJECT_EVENT);
  assert.equal(e1.reject_reason_code, IT_CN_REJ_BAD_PATH);
  assert.ok(e1.dst_path);
  // A TCP listener that never answers the MPA Request.
  const mute = net.createServer((s) => s.on('error', () => {}));
  mute.listen(0, '127.0.0.1');
  await once(mute, 'listening');
  try {
    const b = makeSide();
    it_ep_connect(b.ep, loopPath(300_000n), null, qual((mute.address() as net.AddressInfo).port), IT_CONNECT_FLAG_TWO_WAY, null);
    const e2 = (await next(b.cm)) as it_connection_event_t;
    assert.equal(e2.event_number, IT_CM_MSG_CONN_NONPEER_REJECT_EVENT);
    assert.equal(e2.reject_reason_code, IT_CN_REJ_TIMEOUT);
  } finally {
    mute.close();
  }
});

test('ITAPI-CM-74 it_ep_disconnect: UNCONNECTED → INVALID_EP_STATE; CONNECTED → local DISCONNECT, NONOPERATIONAL, WRs flushed; the peer sees one of DISCONNECT/BROKEN', async () => {
  throwsIt(() => it_ep_disconnect(makeSide().ep, null), S.IT_ERR_INVALID_EP_STATE);
  const { a, b } = await connectPair();
  const ra = reg(a.pz, 16);
  it_post_recv(a.ep, [seg(ra)], 21n, IT_COMPLETION_FLAG);
  it_ep_disconnect(a.ep, null);
  assert.equal(stateOf(a.ep), IT_EP_STATE_NONOPERATIONAL);
  assert.equal((await next(a.cm)).event_number, IT_CM_MSG_CONN_DISCONNECT_EVENT);
  const d = (await next(a.dto)) as it_dto_cmpl_event_t;
  assert.equal(d.cookie, 21n);
  assert.equal(d.dto_status, IT_DTO_ERR_FLUSHED);
  const pe = await next(b.cm);
  assert.ok(pe.event_number === IT_CM_MSG_CONN_DISCONNECT_EVENT || pe.event_number === IT_CM_MSG_CONN_BROKEN_EVENT);
  assert.equal(stateOf(b.ep), IT_EP_STATE_NONOPERATIONAL);
  await tick(50);
  assert.equal(drain(b.cm).length, 0, 'never both');
});

test('ITAPI-CM-75 it_ep_disconnect on a NONOPERATIONAL Endpoint succeeds and queues no Event', async () => {
  const a = makeSide();
  connectTo(a.ep, await closedPort());
  await next(a.cm);
  it_ep_disconnect(a.ep, null);
  await tick(20);
  assert.equal(drain(a.cm).length, 0);
});

test('ITAPI-CM-76 a completion error on a CONNECTED Endpoint gives exactly one CONN_BROKEN and NONOPERATIONAL', async () => {
  const { a } = await connectPair();
  const bad = reg(a.pz, 16);
  it_lmr_free(bad.lmr);
  it_post_send(a.ep, [seg(bad)], 31n, IT_COMPLETION_FLAG);
  const d = (await next(a.dto)) as it_dto_cmpl_event_t;
  assert.equal(d.dto_status, IT_DTO_ERR_LOCAL_PROTECTION);
  assert.equal((await next(a.cm)).event_number, IT_CM_MSG_CONN_BROKEN_EVENT);
  assert.equal(stateOf(a.ep), IT_EP_STATE_NONOPERATIONAL);
  await tick(50);
  assert.equal(drain(a.cm).length, 0);
});

test("ITAPI-CM-77 it_ep_free of a connected Endpoint ends the peer's connection; no further local Events for the freed Endpoint", async () => {
  const { a, b } = await connectPair();
  it_post_recv(a.ep, [seg(reg(a.pz, 16))], 1n, IT_COMPLETION_FLAG);
  it_ep_free(a.ep);
  const pe = await next(b.cm);
  assert.ok(pe.event_number === IT_CM_MSG_CONN_DISCONNECT_EVENT || pe.event_number === IT_CM_MSG_CONN_BROKEN_EVENT);
  assert.equal(stateOf(b.ep), IT_EP_STATE_NONOPERATIONAL);
  await tick(50);
  assert.equal(drain(a.cm).length, 0);
  assert.equal(drain(a.dto).length, 0);
});

test('ITAPI-CM-78 on iWARP three_way_handshake_support is FALSE and disconnect_private_data_len is 0', () => {
  const info = it_ia_query(openIa());
  assert.equal(info.three_way_handshake_support, false);
  assert.equal(info.disconnect_private_data_len, 0);
  assert.equal(info.socket_conversion_support, true);
});

/** A connected TCP socket pair (the ULP's streaming-mode connection), optionally through a tap. */
async function socketPair(tap = false): Promise<{ c: net.Socket; s: net.Socket; close(): Promise<void>; wire: WireTap | null }> {
  const srv = net.createServer({ allowHalfOpen: true });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const port = (srv.address() as net.AddressInfo).port;
  const wire = tap ? await WireTap.start(port) : null;
  const accepted = once(srv, 'connection');
  const c = net.connect({ port: wire ? wire.port : port, host: '127.0.0.1', allowHalfOpen: true });
  await once(c, 'connect');
  const [s] = (await accepted) as [net.Socket];
  return {
    c,
    s,
    wire,
    close: async () => {
      c.destroy();
      s.destroy();
      await wire?.close();
      srv.close();
    },
  };
}

test('ITAPI-CM-79 it_socket_convert with a non-TCP socket is IT_ERR_OP_NOT_SUPPORTED; on a non-UNCONNECTED Endpoint IT_ERR_INVALID_EP_STATE (non-iWARP IA part needs RoCEv2)', async () => {
  const s = makeSide();
  throwsIt(() => it_socket_convert({} as net.Socket, s.ep, IT_SC_DEFAULT, null), S.IT_ERR_OP_NOT_SUPPORTED);
  const p = await socketPair();
  try {
    connectTo(s.ep, await closedPort());
    throwsIt(() => it_socket_convert(p.c, s.ep, IT_SC_DEFAULT, null), S.IT_ERR_INVALID_EP_STATE);
    await next(s.cm);
  } finally {
    await p.close();
  }
});

async function convertPair(flags: number, tap = false) {
  const p = await socketPair(tap);
  const ini = makeSide();
  const rsp = makeSide();
  // The Conversion Initiator sends the last streaming-mode message; the Responder reads it
  // completely first, then converts.
  const msg = te('last ULP message');
  const got = new Promise<Buffer>((resolve) => {
    let buf = Buffer.alloc(0);
    const onData = (d: Buffer): void => {
      buf = Buffer.concat([buf, d]);
      if (buf.length >= msg.length) {
        p.s.off('data', onData);
        p.s.pause();
        resolve(buf);
      }
    };
    p.s.on('data', onData);
  });
  it_post_recv(ini.ep, [seg(reg(ini.pz, 64))], 1n, IT_COMPLETION_FLAG);
  it_socket_convert(p.c, ini.ep, flags, msg);
  const stateAfterCall = stateOf(ini.ep);
  const first = await got;
  assert.deepEqual(new Uint8Array(first.subarray(0, msg.length)), msg);
  it_socket_convert(p.s, rsp.ep, flags, null);
  return { p, ini, rsp, stateAfterCall };
}

test('ITAPI-CM-80 after a Conversion both sides get ESTABLISHED with IRD = ORD = 0 and no private data; the initiator passed PASSIVE_WAIT_RDMA_TRANS_REQ', async () => {
  const { p, ini, rsp, stateAfterCall } = await convertPair(IT_SC_DEFAULT);
  try {
    assert.equal(stateAfterCall, IT_EP_STATE_PASSIVE_WAIT_RDMA_TRANS_REQ);
    const er = (await next(rsp.cm)) as it_connection_event_t;
    assert.equal(er.event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
    it_post_send(rsp.ep, [seg(reg(rsp.pz, 8), 0, 2)], 2n, NO_FLAGS);
    const ei = (await next(ini.cm)) as it_connection_event_t;
    assert.equal(ei.event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
    for (const e of [er, ei]) {
      assert.equal(e.rdma_read_ird, 0);
      assert.equal(e.rdma_read_ord, 0);
      assert.equal(e.private_data_present, false);
    }
    assert.equal(stateOf(ini.ep), IT_EP_STATE_CONNECTED);
    assert.equal(stateOf(rsp.ep), IT_EP_STATE_CONNECTED);
  } finally {
    await p.close();
  }
});

test('ITAPI-CM-81 with IT_SC_NO_REQ_REP on both sides no MPA Request/Reply is on the wire and both Endpoints become CONNECTED', async () => {
  const { p, ini, rsp } = await convertPair(IT_SC_NO_REQ_REP, true);
  try {
    assert.equal((await next(rsp.cm)).event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
    it_post_send(rsp.ep, [seg(reg(rsp.pz, 8), 0, 2)], 2n, NO_FLAGS);
    assert.equal((await next(ini.cm)).event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
    await nextOf(ini.dto, 0x2);
    const wire = Buffer.concat([Buffer.from(p.wire!.upBytes()), Buffer.from(p.wire!.downBytes())]).toString('latin1');
    assert.ok(!wire.includes('MPA ID Req Frame'));
    assert.ok(!wire.includes('MPA ID Rep Frame'));
    assert.ok(wire.includes('last ULP message'));
  } finally {
    await p.close();
  }
});

test('ITAPI-CM-82 iWARP TII: the IRD/ORD header (softrdma: the RFC 6581 word in place of the unspecified IOH layout) leads the MPA private data and is never visible to the Consumer', async () => {
  const b = makeSide(openIa(), { attrs: rcAttrs({}, { rdma_read_ird: 4, rdma_read_ord: 4 }) });
  const a = makeSide(openIa(), { attrs: rcAttrs({}, { rdma_read_ird: 3, rdma_read_ord: 2 }) });
  const l = listen(b.ia);
  const tap = await WireTap.start(l.port);
  try {
    it_post_recv(b.ep, [seg(reg(b.pz, 16))], 1n, IT_COMPLETION_FLAG);
    const mine = te('consumer request data');
    connectTo(a.ep, tap.port, mine);
    const req = (await nextOf(l.evd, IT_CM_REQ_CONN_REQUEST_EVENT)) as it_conn_request_event_t;
    assert.deepEqual(req.private_data.subarray(0, mine.length), mine);
    const reply = te('consumer reply data');
    it_ep_accept(b.ep, req.cn_est_id, reply);
    const est = (await next(a.cm)) as it_connection_event_t;
    assert.deepEqual(est.private_data.subarray(0, reply.length), reply);
    const up = splitFrame(tap.upBytes()).frame;
    const down = splitFrame(tap.downBytes()).frame;
    // On the wire: header, then exactly the Consumer's bytes.
    assert.deepEqual(up.privateData.subarray(4), mine);
    assert.deepEqual(down.privateData.subarray(4), reply);
    assert.deepEqual([decodeMpaIrdOrd(up.privateData).ird, decodeMpaIrdOrd(up.privateData).ord], [3, 2]);
    // The Responder's ORD is capped by the Initiator's IRD (IT-API §6.2 step 2): min(4, 3).
    assert.deepEqual([decodeMpaIrdOrd(down.privateData).ird, decodeMpaIrdOrd(down.privateData).ord], [4, 3]);
    assert.deepEqual([est.rdma_read_ird, est.rdma_read_ord], [4, 3]);
    // The header bytes never reach the Consumer's buffers.
    assert.notDeepEqual(req.private_data.subarray(0, 4), up.privateData.subarray(0, 4));
  } finally {
    await tap.close();
  }
});

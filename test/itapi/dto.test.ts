/**
 * IT-API conformance, digest §10 "Posting / completions (RC)" (assertions 83–100).
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import {
  IT_ASYNC_AFF_EP_L_ACCESS_VIOLATION,
  IT_ASYNC_AFF_EP_L_RECV_ACCESS_VIOLATION,
  IT_ASYNC_AFF_EP_R_ACCESS_VIOLATION,
  IT_ASYNC_AFF_EVENT_STREAM,
  IT_ASYNC_AFF_SRQ_LOW_WATERMARK,
  IT_BARRIER_FENCE_FLAG,
  IT_CM_MSG_CONN_BROKEN_EVENT,
  IT_CM_MSG_CONN_NONPEER_REJECT_EVENT,
  IT_CM_REQ_CONN_REQUEST_EVENT,
  IT_COMPARE_AND_SWAP,
  IT_COMPLETION_FLAG,
  IT_DTO_ERR_FLUSHED,
  IT_DTO_ERR_LOCAL_LENGTH,
  IT_DTO_ERR_LOCAL_PROTECTION,
  IT_DTO_RC_RECV_CMPL_EVENT,
  IT_DTO_RDMA_READ_CMPL_EVENT,
  IT_DTO_RDMA_WRITE_CMPL_EVENT,
  IT_DTO_SEND_CMPL_EVENT,
  IT_DTO_SUCCESS,
  IT_EP_PARAM_ALL,
  IT_EP_PARAM_STATE,
  IT_EP_SRQ,
  IT_EP_STATE_CONNECTED,
  IT_EP_STATE_NONOPERATIONAL,
  IT_FETCH_AND_ADD,
  IT_NOTIFY_FLAG,
  IT_PRIV_LOCAL,
  IT_PRIV_REMOTE_READ,
  IT_SOLICITED_WAIT_FLAG,
  IT_SRQ_PARAM_LOW_WATERMARK,
  IT_UNLINK_FENCE_FLAG,
  it_ep_accept,
  it_ep_query,
  it_ia_query,
  it_post_atomic,
  IT_DTO_CMP_SWAP_CMPL_EVENT,
  IT_DTO_FETCH_ADD_CMPL_EVENT,
  it_post_rdma_read,
  it_post_rdma_write,
  it_post_recv,
  it_post_send,
  it_pz_create,
  it_srq_create,
  it_srq_modify,
  it_srq_query,
  it_status_t as S,
  type it_affiliated_event_t,
  type it_conn_request_event_t,
  type it_dto_cmpl_event_t,
  type it_ep_handle_t,
  type it_event_t,
} from '../../src/itapi/index.js';
import {
  closedPort,
  connectPair,
  connectTo,
  drain,
  freeAll,
  listen,
  makeSide,
  next,
  nextOf,
  NO_FLAGS,
  rcAttrs,
  reg,
  seg,
  sevd,
  td,
  throwsIt,
} from './helpers.js';

afterEach(freeAll);

const stateOf = (ep: it_ep_handle_t): number => (it_ep_query(ep, IT_EP_PARAM_STATE).ep_state as { rc: number }).rc;
const dto = async (evd: Parameters<typeof next>[0]): Promise<it_dto_cmpl_event_t> => (await next(evd)) as it_dto_cmpl_event_t;

test('ITAPI-DTO-83 a Send on UNCONNECTED / ACTIVE1 / PASSIVE_* is IT_ERR_INVALID_EP_STATE; on NONOPERATIONAL it completes flushed', async () => {
  const s = makeSide();
  const b = reg(s.pz, 16);
  throwsIt(() => it_post_send(s.ep, [seg(b)], 1n, IT_COMPLETION_FLAG), S.IT_ERR_INVALID_EP_STATE);
  const srv = makeSide();
  const l = listen(srv.ia);
  it_post_recv(srv.ep, [seg(reg(srv.pz, 16))], 1n, IT_COMPLETION_FLAG);
  connectTo(s.ep, l.port);
  throwsIt(() => it_post_send(s.ep, [seg(b)], 1n, IT_COMPLETION_FLAG), S.IT_ERR_INVALID_EP_STATE); // ACTIVE1
  const req = (await nextOf(l.evd, IT_CM_REQ_CONN_REQUEST_EVENT)) as it_conn_request_event_t;
  it_ep_accept(srv.ep, req.cn_est_id, null);
  const sb = reg(srv.pz, 16);
  throwsIt(() => it_post_send(srv.ep, [seg(sb)], 1n, IT_COMPLETION_FLAG), S.IT_ERR_INVALID_EP_STATE); // PASSIVE_CONNECTION_PENDING
  const n = makeSide();
  connectTo(n.ep, await closedPort());
  assert.equal((await next(n.cm)).event_number, IT_CM_MSG_CONN_NONPEER_REJECT_EVENT);
  const nb = reg(n.pz, 16);
  it_post_send(n.ep, [seg(nb)], 5n, IT_COMPLETION_FLAG);
  const ev = await dto(n.dto);
  assert.equal(ev.cookie, 5n);
  assert.equal(ev.dto_status, IT_DTO_ERR_FLUSHED);
  assert.equal(ev.event_number, IT_DTO_SEND_CMPL_EVENT);
});

test('ITAPI-DTO-84 it_post_recv on an UNCONNECTED Endpoint succeeds (pre-posting)', () => {
  const s = makeSide();
  it_post_recv(s.ep, [seg(reg(s.pz, 16))], 1n, IT_COMPLETION_FLAG);
  it_post_recv(s.ep, [], 2n, IT_COMPLETION_FLAG | IT_NOTIFY_FLAG);
  assert.equal(drain(s.dto).length, 0);
});

test('ITAPI-DTO-85 it_post_recv without COMPLETION, or with BARRIER_FENCE / SOLICITED_WAIT, is IT_ERR_INVALID_DTO_FLAGS', () => {
  const s = makeSide();
  const b = reg(s.pz, 16);
  for (const f of [NO_FLAGS, IT_NOTIFY_FLAG, IT_COMPLETION_FLAG | IT_BARRIER_FENCE_FLAG, IT_COMPLETION_FLAG | IT_SOLICITED_WAIT_FLAG]) {
    throwsIt(() => it_post_recv(s.ep, [seg(b)], 1n, f), S.IT_ERR_INVALID_DTO_FLAGS, `flags 0x${f.toString(16)}`);
  }
});

test('ITAPI-DTO-86 NOTIFY without COMPLETION on a Send, and UNLINK_FENCE on a Send, are IT_ERR_INVALID_DTO_FLAGS', async () => {
  const { a } = await connectPair();
  const b = reg(a.pz, 16);
  throwsIt(() => it_post_send(a.ep, [seg(b)], 1n, IT_NOTIFY_FLAG), S.IT_ERR_INVALID_DTO_FLAGS);
  throwsIt(() => it_post_send(a.ep, [seg(b)], 1n, IT_COMPLETION_FLAG | IT_UNLINK_FENCE_FLAG), S.IT_ERR_INVALID_DTO_FLAGS);
});

test('ITAPI-DTO-87 more segments than max_send_segments is IT_ERR_INVALID_NUM_SEGMENTS; beyond max_request_dtos outstanding IT_ERR_TOO_MANY_POSTS', async () => {
  const { a, b } = await connectPair({ a: { attrs: rcAttrs({ max_request_dtos: 3, max_send_segments: 2 }) } });
  const buf = reg(a.pz, 64);
  throwsIt(() => it_post_send(a.ep, [seg(buf, 0, 1), seg(buf, 1, 1), seg(buf, 2, 1)], 1n, NO_FLAGS), S.IT_ERR_INVALID_NUM_SEGMENTS);
  const n = it_ep_query(a.ep, IT_EP_PARAM_ALL).attr!.max_request_dtos!;
  const rb = reg(b.pz, 64);
  for (let i = 0; i <= n; i++) it_post_recv(b.ep, [seg(rb)], BigInt(i), IT_COMPLETION_FLAG);
  // Unsignalled WRs stay outstanding until a later signalled completion is dequeued.
  for (let i = 0; i < n - 1; i++) it_post_send(a.ep, [seg(buf, 0, 1)], BigInt(i), NO_FLAGS);
  it_post_send(a.ep, [seg(buf, 0, 1)], 99n, IT_COMPLETION_FLAG);
  throwsIt(() => it_post_send(a.ep, [seg(buf, 0, 1)], 100n, NO_FLAGS), S.IT_ERR_TOO_MANY_POSTS);
  const done = await dto(a.dto);
  assert.equal(done.cookie, 99n);
  it_post_send(a.ep, [seg(buf, 0, 1)], 101n, NO_FLAGS);
});

test('ITAPI-DTO-88 a Receive completion carries RC_RECV_CMPL, the cookie, the bytes sent (0 for an empty Send) and the target Endpoint', async () => {
  const { a, b } = await connectPair();
  const rb = reg(b.pz, 64);
  it_post_recv(b.ep, [seg(rb, 0, 32)], 0x1234_5678_9abc_def0n, IT_COMPLETION_FLAG);
  it_post_recv(b.ep, [seg(rb, 32, 32)], 2n, IT_COMPLETION_FLAG);
  const sa = reg(a.pz, 64, undefined, 'twenty-three bytes long');
  it_post_send(a.ep, [seg(sa, 0, 23)], 1n, NO_FLAGS);
  it_post_send(a.ep, [], 2n, NO_FLAGS);
  const r1 = await dto(b.dto);
  assert.equal(r1.event_number, IT_DTO_RC_RECV_CMPL_EVENT);
  assert.equal(r1.cookie, 0x1234_5678_9abc_def0n);
  assert.equal(r1.dto_status, IT_DTO_SUCCESS);
  assert.equal(r1.transferred_length, 23);
  assert.equal(r1.ep, b.ep);
  assert.equal(r1.evd, b.dto);
  assert.equal(td(rb.bytes.subarray(0, 23)), 'twenty-three bytes long');
  const r2 = await dto(b.dto);
  assert.equal(r2.cookie, 2n);
  assert.equal(r2.transferred_length, 0);
});

test('ITAPI-DTO-89 Sends complete locally in post order and their Receives complete in the same order', async () => {
  const { a, b } = await connectPair();
  const rb = reg(b.pz, 8 * 16);
  for (let i = 0; i < 8; i++) it_post_recv(b.ep, [seg(rb, i * 16, 16)], BigInt(100 + i), IT_COMPLETION_FLAG);
  const sa = reg(a.pz, 8 * 16);
  for (let i = 0; i < 8; i++) {
    sa.bytes[i * 16] = i;
    it_post_send(a.ep, [seg(sa, i * 16, 1 + i)], BigInt(i), IT_COMPLETION_FLAG);
  }
  for (let i = 0; i < 8; i++) assert.equal((await dto(a.dto)).cookie, BigInt(i));
  for (let i = 0; i < 8; i++) {
    const r = await dto(b.dto);
    assert.equal(r.cookie, BigInt(100 + i));
    assert.equal(r.transferred_length, 1 + i);
    assert.equal(rb.bytes[i * 16], i);
  }
});

test('ITAPI-DTO-90 unsignalled successful Sends produce no Event; a later signalled one implies the earlier completed', async () => {
  const { a, b } = await connectPair({ a: { attrs: rcAttrs({ max_request_dtos: 4 }) } });
  const rb = reg(b.pz, 64);
  for (let i = 0; i < 8; i++) it_post_recv(b.ep, [seg(rb)], BigInt(i), IT_COMPLETION_FLAG);
  const sa = reg(a.pz, 16);
  const n = it_ep_query(a.ep, IT_EP_PARAM_ALL).attr!.max_request_dtos!;
  for (let i = 0; i < n - 1; i++) it_post_send(a.ep, [seg(sa, 0, 2)], BigInt(i), NO_FLAGS);
  it_post_send(a.ep, [seg(sa, 0, 2)], 50n, IT_COMPLETION_FLAG);
  const ev = await dto(a.dto);
  assert.equal(ev.cookie, 50n);
  assert.equal(drain(a.dto).length, 0);
  // Dequeuing it retired every earlier WR: a full Send Queue's worth can be posted again.
  for (let i = 0; i < n; i++) it_post_send(a.ep, [seg(sa, 0, 2)], BigInt(60 + i), i === n - 1 ? IT_COMPLETION_FLAG : NO_FLAGS);
  assert.equal((await dto(a.dto)).cookie, BigInt(60 + n - 1));
});

test('ITAPI-DTO-91 a Receive too short for the incoming Send completes IT_DTO_ERR_LOCAL_LENGTH and breaks the connection', async () => {
  const { a, b } = await connectPair();
  it_post_recv(b.ep, [seg(reg(b.pz, 4))], 7n, IT_COMPLETION_FLAG);
  it_post_send(a.ep, [seg(reg(a.pz, 16), 0, 16)], 1n, NO_FLAGS);
  const r = await dto(b.dto);
  assert.equal(r.cookie, 7n);
  assert.equal(r.dto_status, IT_DTO_ERR_LOCAL_LENGTH);
  assert.equal((await next(b.cm)).event_number, IT_CM_MSG_CONN_BROKEN_EVENT);
  assert.equal(stateOf(b.ep), IT_EP_STATE_NONOPERATIONAL);
  assert.equal((await next(a.cm)).event_number, IT_CM_MSG_CONN_BROKEN_EVENT);
});

test('ITAPI-DTO-92 a Send with no Receive posted gives IT_ASYNC_AFF_EP_L_RECV_ACCESS_VIOLATION at the peer and breaks the connection', async () => {
  const { a, b } = await connectPair();
  const aff = sevd(b.ia, IT_ASYNC_AFF_EVENT_STREAM, 8);
  it_post_send(a.ep, [seg(reg(a.pz, 8), 0, 8)], 1n, NO_FLAGS);
  const ev = (await next(aff)) as it_affiliated_event_t;
  assert.equal(ev.event_number, IT_ASYNC_AFF_EP_L_RECV_ACCESS_VIOLATION);
  assert.equal((ev.cause as { ep: it_ep_handle_t }).ep, b.ep);
  assert.equal((await next(b.cm)).event_number, IT_CM_MSG_CONN_BROKEN_EVENT);
  assert.equal((await next(a.cm)).event_number, IT_CM_MSG_CONN_BROKEN_EVENT);
});

test('ITAPI-DTO-93 an RDMA Write into a REMOTE_WRITE region lands, visible once a later Send is received', async () => {
  const { a, b } = await connectPair();
  const target = reg(b.pz, 64);
  it_post_recv(b.ep, [seg(reg(b.pz, 8))], 1n, IT_COMPLETION_FLAG);
  const src = reg(a.pz, 64, undefined, 'written by a');
  it_post_rdma_write(a.ep, [seg(src, 0, 12)], 2n, IT_COMPLETION_FLAG, target.addr + 8n, target.ctx!);
  it_post_send(a.ep, [], 3n, NO_FLAGS);
  const w = await dto(a.dto);
  assert.equal(w.event_number, IT_DTO_RDMA_WRITE_CMPL_EVENT);
  assert.equal(w.dto_status, IT_DTO_SUCCESS);
  const r = await dto(b.dto);
  assert.equal(r.event_number, IT_DTO_RC_RECV_CMPL_EVENT);
  assert.equal(td(target.bytes.subarray(8, 20)), 'written by a');
});

test('ITAPI-DTO-94 an RDMA Write to a context without REMOTE_WRITE: EP_L_ACCESS_VIOLATION at the target and both ends broken', async () => {
  const { a, b } = await connectPair();
  const affB = sevd(b.ia, IT_ASYNC_AFF_EVENT_STREAM, 8);
  const affA = sevd(a.ia, IT_ASYNC_AFF_EVENT_STREAM, 8);
  const ro = reg(b.pz, 64, IT_PRIV_LOCAL | IT_PRIV_REMOTE_READ);
  it_post_rdma_write(a.ep, [seg(reg(a.pz, 8), 0, 8)], 1n, IT_COMPLETION_FLAG, ro.addr, ro.ctx!);
  const ev = (await next(affB)) as it_affiliated_event_t;
  assert.equal(ev.event_number, IT_ASYNC_AFF_EP_L_ACCESS_VIOLATION);
  assert.equal((await next(b.cm)).event_number, IT_CM_MSG_CONN_BROKEN_EVENT);
  // iWARP: the local Write may complete successfully first; the break follows.
  assert.equal((await next(a.cm)).event_number, IT_CM_MSG_CONN_BROKEN_EVENT);
  const la = (await next(affA)) as it_affiliated_event_t;
  assert.equal(la.event_number, IT_ASYNC_AFF_EP_R_ACCESS_VIOLATION);
});

test('ITAPI-DTO-95 an RDMA Read returns the remote bytes (RDMA_READ_CMPL); a zero-length Read with a garbage context succeeds', async () => {
  const { a, b } = await connectPair();
  const src = reg(b.pz, 64, undefined, 'remote data for a read');
  const sink = reg(a.pz, 64);
  it_post_rdma_read(a.ep, [seg(sink, 4, 22)], 1n, IT_COMPLETION_FLAG, src.addr, src.ctx!);
  const ev = await dto(a.dto);
  assert.equal(ev.event_number, IT_DTO_RDMA_READ_CMPL_EVENT);
  assert.equal(ev.dto_status, IT_DTO_SUCCESS);
  assert.equal(td(sink.bytes.subarray(4, 26)), 'remote data for a read');
  it_post_rdma_read(a.ep, [seg(sink, 0, 0)], 2n, IT_COMPLETION_FLAG, 0xdead_beefn, 0x1234_5678);
  const z = await dto(a.dto);
  assert.equal(z.cookie, 2n);
  assert.equal(z.dto_status, IT_DTO_SUCCESS);
  assert.equal(stateOf(a.ep), IT_EP_STATE_CONNECTED);
});

test('ITAPI-DTO-96 iWARP: an RDMA Read into an LMR without REMOTE_WRITE fails locally', async () => {
  const { a, b } = await connectPair();
  const src = reg(b.pz, 64, undefined, 'x');
  const sink = reg(a.pz, 64, IT_PRIV_LOCAL);
  it_post_rdma_read(a.ep, [seg(sink, 0, 8)], 1n, IT_COMPLETION_FLAG, src.addr, src.ctx!);
  const ev = await dto(a.dto);
  assert.equal(ev.dto_status, IT_DTO_ERR_LOCAL_PROTECTION);
  assert.equal((await next(a.cm)).event_number, IT_CM_MSG_CONN_BROKEN_EVENT);
  // The Endpoint attribute is also required: rdma_write_enable FALSE fails the same way.
  const p = await connectPair({ a: { attrs: rcAttrs({}, { rdma_write_enable: false }) } });
  const src2 = reg(p.b.pz, 64, undefined, 'y');
  const sink2 = reg(p.a.pz, 64);
  it_post_rdma_read(p.a.ep, [seg(sink2, 0, 8)], 2n, IT_COMPLETION_FLAG, src2.addr, src2.ctx!);
  assert.equal((await dto(p.a.dto)).dto_status, IT_DTO_ERR_LOCAL_PROTECTION);
});

test('ITAPI-DTO-97 with IT_BARRIER_FENCE_FLAG a Send posted after an RDMA Read starts only when the Read completed', async () => {
  const { a, b } = await connectPair();
  const remote = reg(b.pz, 64, undefined, 'fresh remote bytes');
  const local = reg(a.pz, 64); // zeros until the Read lands
  const rb = reg(b.pz, 64);
  it_post_recv(b.ep, [seg(rb)], 1n, IT_COMPLETION_FLAG);
  it_post_rdma_read(a.ep, [seg(local, 0, 18)], 2n, NO_FLAGS, remote.addr, remote.ctx!);
  // The fenced Send transmits the Read's sink: it must carry the bytes the Read brought.
  it_post_send(a.ep, [seg(local, 0, 18)], 3n, IT_COMPLETION_FLAG | IT_BARRIER_FENCE_FLAG);
  const r = await dto(b.dto);
  assert.equal(r.transferred_length, 18);
  assert.equal(td(rb.bytes.subarray(0, 18)), 'fresh remote bytes');
  assert.equal((await dto(a.dto)).cookie, 3n);
});

test('ITAPI-DTO-98 it_post_atomic: Fetch-and-Add and Compare-and-Swap between softrdma IAs (RFC 7306), with their completion events; a bad op is IT_ERR_INVALID_ATOMIC_OP', async () => {
  const { a, b } = await connectPair();
  assert.equal(it_ia_query(a.ia).atomic_support, true);
  const target = reg(b.pz, 8);
  const dv = new DataView(target.bytes.buffer);
  dv.setBigUint64(0, 100n, true);
  const r = reg(a.pz, 8);
  throwsIt(
    () => it_post_atomic(a.ep, 7 as never, 1n, 0n, seg(r), 1n, IT_COMPLETION_FLAG, target.addr, target.ctx!),
    S.IT_ERR_INVALID_ATOMIC_OP,
  );
  throwsIt(
    () => it_post_atomic(a.ep, IT_FETCH_AND_ADD, 1n, 0n, seg(r, 0, 4), 1n, IT_COMPLETION_FLAG, target.addr, target.ctx!),
    S.IT_ERR_INVALID_NUM_SEGMENTS,
  );
  it_post_atomic(a.ep, IT_FETCH_AND_ADD, 5n, 0n, seg(r), 11n, IT_COMPLETION_FLAG, target.addr, target.ctx!);
  let e = await dto(a.dto);
  assert.equal(e.event_number, IT_DTO_FETCH_ADD_CMPL_EVENT);
  assert.equal(e.dto_status, IT_DTO_SUCCESS);
  assert.equal(e.cookie, 11n);
  assert.equal(new DataView(r.bytes.buffer).getBigUint64(0, true), 100n);
  assert.equal(dv.getBigUint64(0, true), 105n);
  // Compare-and-Swap: swap_or_add is the new value, compare the expected one.
  it_post_atomic(a.ep, IT_COMPARE_AND_SWAP, 9n, 105n, seg(r), 12n, IT_COMPLETION_FLAG, target.addr, target.ctx!);
  e = await dto(a.dto);
  assert.equal(e.event_number, IT_DTO_CMP_SWAP_CMPL_EVENT);
  assert.equal(e.dto_status, IT_DTO_SUCCESS);
  assert.equal(new DataView(r.bytes.buffer).getBigUint64(0, true), 105n);
  assert.equal(dv.getBigUint64(0, true), 9n);
});

test('ITAPI-DTO-99 it_post_recv on an Endpoint that uses an S-RQ is IT_ERR_INVALID_SRQ', () => {
  const s0 = makeSide();
  const srq = it_srq_create(s0.pz, 2, 8);
  const s = makeSide(s0.ia, { flags: IT_EP_SRQ, attrs: rcAttrs({}, { srq }) });
  throwsIt(() => it_post_recv(s.ep, [seg(reg(s.pz, 8))], 1n, IT_COMPLETION_FLAG), S.IT_ERR_INVALID_SRQ);
  it_post_recv(srq, [seg(reg(s0.pz, 8))], 1n, IT_COMPLETION_FLAG);
});

test('ITAPI-DTO-100 the S-RQ low watermark fires IT_ASYNC_AFF_SRQ_LOW_WATERMARK once, then stays disarmed until it_srq_modify', async () => {
  const s0 = makeSide();
  const srqPz = it_pz_create(s0.ia);
  const srq = it_srq_create(srqPz, 1, 16);
  const aff = sevd(s0.ia, IT_ASYNC_AFF_EVENT_STREAM, 8);
  const p = await connectPair({ bIa: s0.ia, b: { flags: IT_EP_SRQ, attrs: rcAttrs({}, { srq }) }, bRecv: { handle: srq, pz: srqPz } });
  const rb = reg(srqPz, 16 * 16);
  for (let i = 0; i < 8; i++) it_post_recv(srq, [seg(rb, i * 16, 16)], BigInt(i), IT_COMPLETION_FLAG);
  it_srq_modify(srq, IT_SRQ_PARAM_LOW_WATERMARK, { low_watermark: 4 });
  assert.equal(it_srq_query(srq, IT_SRQ_PARAM_LOW_WATERMARK).low_watermark, 4);
  const sa = reg(p.a.pz, 8);
  const sendAndReceive = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i++) it_post_send(p.a.ep, [seg(sa, 0, 1)], BigInt(i), NO_FLAGS);
    for (let i = 0; i < n; i++) assert.equal((await dto(p.b.dto)).dto_status, IT_DTO_SUCCESS);
  };
  await sendAndReceive(4); // 8 → 4 idle: not yet below 4
  assert.equal(drain(aff).length, 0);
  await sendAndReceive(1); // 3 < 4
  const ev = (await next(aff)) as it_affiliated_event_t;
  assert.equal(ev.event_number, IT_ASYNC_AFF_SRQ_LOW_WATERMARK);
  assert.equal((ev.cause as { srq: unknown }).srq, srq);
  assert.equal(it_srq_query(srq, IT_SRQ_PARAM_LOW_WATERMARK).low_watermark, 0);
  await sendAndReceive(2); // 1 idle: disarmed, nothing
  assert.equal(drain(aff).length, 0);
  for (let i = 0; i < 4; i++) it_post_recv(srq, [seg(rb, 128 + i * 16, 16)], BigInt(20 + i), IT_COMPLETION_FLAG);
  it_srq_modify(srq, IT_SRQ_PARAM_LOW_WATERMARK, { low_watermark: 5 }); // 5 idle: armed again
  await sendAndReceive(1);
  assert.equal(((await next(aff)) as it_event_t).event_number, IT_ASYNC_AFF_SRQ_LOW_WATERMARK);
  assert.equal(stateOf(p.b.ep), IT_EP_STATE_CONNECTED);
});

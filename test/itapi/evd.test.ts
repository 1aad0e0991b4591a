/**
 * IT-API conformance, digest §10 "EVD creation / config" and "EVD dequeue / wait / notification"
 * (assertions 18–47).
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import {
  IT_AEVD_NOTIFICATION_EVENT,
  IT_AEVD_NOTIFICATION_EVENT_STREAM,
  IT_ASYNC_AFF_EVENT_STREAM,
  IT_ASYNC_AFF_SEVD_ENQUEUE_FAILURE,
  IT_ASYNC_UNAFF_EVENT_STREAM,
  IT_ASYNC_UNAFF_SEVD_ENQUEUE_FAILURE,
  IT_CM_MSG_CONN_NONPEER_REJECT_EVENT,
  IT_CM_MSG_EVENT_STREAM,
  IT_CM_REQ_EVENT_STREAM,
  IT_COMPLETION_FLAG,
  IT_DTO_ERR_FLUSHED,
  IT_DTO_EVENT_STREAM,
  IT_DTO_RC_RECV_CMPL_EVENT,
  IT_DTO_SEND_CMPL_EVENT,
  IT_EVD_CREATE_FD,
  IT_EVD_DEQUEUE_NOTIFICATIONS,
  IT_EVD_OVERFLOW_AUTO_RESET,
  IT_EVD_OVERFLOW_DEFAULT,
  IT_EVD_OVERFLOW_NOTIFY,
  IT_EVD_PARAM_AEVD_HANDLE,
  IT_EVD_PARAM_ALL,
  IT_EVD_PARAM_ENABLED,
  IT_EVD_PARAM_OVERFLOWED,
  IT_EVD_PARAM_QUEUE_SIZE,
  IT_EVD_PARAM_THRESHOLD,
  IT_EVENT_STREAM_MASK,
  IT_NOTIFY_FLAG,
  IT_SOFTWARE_EVENT,
  IT_SOFTWARE_EVENT_STREAM,
  IT_SOLICITED_WAIT_FLAG,
  IT_SUCCESS,
  IT_THRESHOLD_DISABLE,
  IT_TIMEOUT_INFINITE,
  it_evd_callback_attach,
  it_evd_callback_detach,
  it_evd_create,
  it_evd_dequeue,
  it_evd_free,
  it_evd_modify,
  it_evd_post_se,
  it_evd_query,
  it_evd_wait,
  it_ep_accept,
  it_ep_rc_create,
  it_post_rdma_read,
  it_post_recv,
  it_post_send,
  it_status_t as S,
  itEventStream,
  type it_affiliated_event_t,
  type it_conn_request_event_t,
  type it_aevd_notification_event_t,
  type it_dto_cmpl_event_t,
  type it_evd_handle_t,
  type it_event_t,
  type it_ia_handle_t,
  type it_software_event_t,
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
  NO_FLAGS,
  openIa,
  rcAttrs,
  reg,
  rejectsIt,
  seg,
  sevd,
  throwsIt,
  tick,
  until,
} from './helpers.js';

afterEach(freeAll);

const SW = IT_SOFTWARE_EVENT_STREAM;
const post = (e: it_evd_handle_t, data: unknown = null): void => {
  assert.equal(it_evd_post_se(e, data).status, IT_SUCCESS);
};
/** Events queued now, without dequeuing (a wait with timeout 0 never blocks). */
async function queued(e: it_evd_handle_t): Promise<number> {
  const r = await it_evd_wait(e, 0n);
  assert.equal(r.status, S.IT_ERR_TIMEOUT_EXPIRED, 'not in Notification criteria');
  return (r as { nmore: number }).nmore;
}

// ---------------------------------------------------------------------------- creation / config

test('ITAPI-EVD-18 one affiliated and one unaffiliated SEVD per IA; creation succeeds again after free', () => {
  const ia = openIa();
  const aff = sevd(ia, IT_ASYNC_AFF_EVENT_STREAM, 4);
  throwsIt(() => sevd(ia, IT_ASYNC_AFF_EVENT_STREAM, 4), S.IT_ERR_ASYNC_AFF_EVD_EXISTS);
  const unaff = sevd(ia, IT_ASYNC_UNAFF_EVENT_STREAM, 4);
  throwsIt(() => sevd(ia, IT_ASYNC_UNAFF_EVENT_STREAM, 4), S.IT_ERR_ASYNC_UNAFF_EVD_EXISTS);
  it_evd_free(aff);
  it_evd_free(unaff);
  sevd(ia, IT_ASYNC_AFF_EVENT_STREAM, 4);
  sevd(ia, IT_ASYNC_UNAFF_EVENT_STREAM, 4);
});

test('ITAPI-EVD-19 creating an AEVD with a non-NULL aevd_handle is IT_ERR_AEVD_NOT_ALLOWED', () => {
  const ia = openIa();
  const a = sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 0, 0);
  throwsIt(() => it_evd_create(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, NO_FLAGS as never, 0, 0, a), S.IT_ERR_AEVD_NOT_ALLOWED);
});

test('ITAPI-EVD-20 an SEVD with both IT_EVD_CREATE_FD and an AEVD is IT_ERR_MISMATCH_FD', () => {
  const ia = openIa();
  const a = sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 0, 0);
  throwsIt(() => it_evd_create(ia, SW, IT_EVD_CREATE_FD, 4, 1, a), S.IT_ERR_MISMATCH_FD);
  const withFd = it_evd_create(ia, SW, IT_EVD_CREATE_FD, 4, 1, null);
  assert.ok(withFd.fd >= 0);
});

test('ITAPI-EVD-21 sevd_threshold above the actual queue size is IT_ERR_INVALID_THRESHOLD; 0 and 1 are accepted', () => {
  const ia = openIa();
  const e = it_evd_create(ia, SW, NO_FLAGS as never, 4, 4, null).evd_handle;
  const size = it_evd_query(e, IT_EVD_PARAM_QUEUE_SIZE).sevd_queue_size!;
  throwsIt(() => sevd(ia, SW, 4, size + 1), S.IT_ERR_INVALID_THRESHOLD);
  sevd(ia, SW, 4, 0);
  sevd(ia, SW, 4, 1);
});

test('ITAPI-EVD-22 invalid overflow flag combinations are IT_ERR_INVALID_FLAGS', () => {
  const ia = openIa();
  const bad: [number, number][] = [
    [IT_DTO_EVENT_STREAM, IT_EVD_OVERFLOW_DEFAULT | IT_EVD_OVERFLOW_NOTIFY],
    [IT_CM_MSG_EVENT_STREAM, IT_EVD_OVERFLOW_AUTO_RESET],
    [IT_DTO_EVENT_STREAM, IT_EVD_OVERFLOW_NOTIFY | IT_EVD_OVERFLOW_AUTO_RESET],
    [IT_ASYNC_UNAFF_EVENT_STREAM, IT_EVD_OVERFLOW_NOTIFY],
    [SW, IT_EVD_DEQUEUE_NOTIFICATIONS],
  ];
  for (const [stream, flags] of bad)
    throwsIt(() => sevd(ia, stream, 4, 1, flags), S.IT_ERR_INVALID_FLAGS, `stream 0x${stream.toString(16)} flags 0x${flags.toString(16)}`);
  // The legal ones.
  sevd(ia, IT_CM_MSG_EVENT_STREAM, 4, 1, IT_EVD_OVERFLOW_NOTIFY | IT_EVD_OVERFLOW_AUTO_RESET);
  sevd(ia, IT_DTO_EVENT_STREAM, 4, 1, IT_EVD_OVERFLOW_NOTIFY);
});

test('ITAPI-EVD-23 an unknown event_number is IT_ERR_INVALID_EVD_TYPE', () => {
  const ia = openIa();
  for (const n of [0x40000, 0x3000, IT_SOFTWARE_EVENT, 0x1001]) {
    throwsIt(() => it_evd_create(ia, n, NO_FLAGS as never, 4, 1, null), S.IT_ERR_INVALID_EVD_TYPE, `0x${n.toString(16)}`);
  }
});

test('ITAPI-EVD-24 queried queue size ≥ requested, AEVD 0, fd −1 without fd, enabled and not overflowed', () => {
  const ia = openIa();
  const s = sevd(ia, IT_DTO_EVENT_STREAM, 10, 1);
  const q = it_evd_query(s, IT_EVD_PARAM_ALL);
  assert.ok(q.sevd_queue_size! >= 10);
  assert.equal(q.fd, -1);
  assert.equal(q.evd_enabled, true);
  assert.equal(q.evd_overflowed, false);
  assert.equal(q.event_number, IT_DTO_EVENT_STREAM);
  const a = sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 10, 0);
  const qa = it_evd_query(a, IT_EVD_PARAM_ALL);
  assert.equal(qa.sevd_queue_size, 0);
  assert.equal(qa.fd, -1);
  assert.equal(qa.evd_enabled, true);
  assert.equal(qa.evd_overflowed, false);
});

test('ITAPI-EVD-25 it_evd_modify to a queue size below the queued count is IT_ERR_INVALID_QUEUE_SIZE, size unchanged', () => {
  const ia = openIa();
  const e = sevd(ia, SW, 8, 1);
  post(e);
  post(e);
  post(e);
  throwsIt(() => it_evd_modify(e, IT_EVD_PARAM_QUEUE_SIZE, { sevd_queue_size: 2 }), S.IT_ERR_INVALID_QUEUE_SIZE);
  assert.equal(it_evd_query(e, IT_EVD_PARAM_QUEUE_SIZE).sevd_queue_size, 8);
  it_evd_modify(e, IT_EVD_PARAM_QUEUE_SIZE, { sevd_queue_size: 3 });
  assert.equal(it_evd_query(e, IT_EVD_PARAM_QUEUE_SIZE).sevd_queue_size, 3);
});

test('ITAPI-EVD-26 modifying the queue size or threshold of an AEVD is IT_ERR_INVALID_MASK', () => {
  const ia = openIa();
  const a = sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 0, 0);
  throwsIt(() => it_evd_modify(a, IT_EVD_PARAM_QUEUE_SIZE, { sevd_queue_size: 8 }), S.IT_ERR_INVALID_MASK);
  throwsIt(() => it_evd_modify(a, IT_EVD_PARAM_THRESHOLD, { sevd_threshold: 1 }), S.IT_ERR_INVALID_MASK);
});

test('ITAPI-EVD-27 associating an AEVD with an SEVD that has a callback is IT_ERR_CALLBACK_EXISTS', () => {
  const ia = openIa(true);
  const a = sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 0, 0, IT_EVD_DEQUEUE_NOTIFICATIONS);
  const s = sevd(ia, SW, 4, 1);
  it_evd_callback_attach(s, () => {}, null);
  it_evd_modify(s, IT_EVD_PARAM_ENABLED, { evd_enabled: false });
  throwsIt(() => it_evd_modify(s, IT_EVD_PARAM_AEVD_HANDLE, { aevd: a }), S.IT_ERR_CALLBACK_EXISTS);
  assert.equal(it_evd_query(s, IT_EVD_PARAM_AEVD_HANDLE).aevd, null);
});

test('ITAPI-EVD-28 detaching (aevd = NULL) an enabled SEVD is IT_ERR_INVALID_EVD_STATE', () => {
  const ia = openIa();
  const a = sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 0, 0, IT_EVD_DEQUEUE_NOTIFICATIONS);
  const s = sevd(ia, SW, 4, 1, 0, a);
  throwsIt(() => it_evd_modify(s, IT_EVD_PARAM_AEVD_HANDLE, { aevd: null }), S.IT_ERR_INVALID_EVD_STATE);
  assert.equal(it_evd_query(s, IT_EVD_PARAM_AEVD_HANDLE).aevd, a);
  it_evd_modify(s, IT_EVD_PARAM_ENABLED | IT_EVD_PARAM_AEVD_HANDLE, { evd_enabled: false, aevd: null });
  assert.equal(it_evd_query(s, IT_EVD_PARAM_AEVD_HANDLE).aevd, null);
});

// ---------------------------------------------------------------------------- dequeue / wait

test('ITAPI-EVD-29 it_evd_dequeue on an empty EVD returns IT_ERR_QUEUE_EMPTY without blocking', () => {
  const ia = openIa();
  for (const e of [sevd(ia, SW, 4, 1), sevd(ia, IT_DTO_EVENT_STREAM, 4, 1), sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 0, 0)]) {
    const r = it_evd_dequeue(e);
    assert.ok(!(r instanceof Promise));
    assert.equal(r.status, S.IT_ERR_QUEUE_EMPTY);
  }
});

test('ITAPI-EVD-30 dequeue/wait on an SEVD feeding an AEVD without DEQUEUE_NOTIFICATIONS is IT_ERR_INVALID_EVD_STATE', async () => {
  const ia = openIa();
  const a = sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 0, 0);
  const s = sevd(ia, SW, 4, 1, 0, a);
  post(s, 'x');
  throwsIt(() => it_evd_dequeue(s), S.IT_ERR_INVALID_EVD_STATE);
  it_evd_modify(s, IT_EVD_PARAM_ENABLED, { evd_enabled: false });
  await rejectsIt(it_evd_wait(s, 0n), S.IT_ERR_INVALID_EVD_STATE);
  // The AEVD hands the Event out.
  const r = it_evd_dequeue(a);
  assert.equal(r.status, IT_SUCCESS);
});

test('ITAPI-EVD-31 waiting on an enabled SEVD that feeds an AEVD (or has an fd) is refused; allowed once disabled', async () => {
  const ia = openIa();
  const a = sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 0, 0, IT_EVD_DEQUEUE_NOTIFICATIONS);
  const s = sevd(ia, SW, 4, 1, 0, a);
  await rejectsIt(it_evd_wait(s, 0n), S.IT_ERR_INVALID_EVD_STATE);
  it_evd_modify(s, IT_EVD_PARAM_ENABLED, { evd_enabled: false });
  assert.equal((await it_evd_wait(s, 0n)).status, S.IT_ERR_TIMEOUT_EXPIRED);
  const f = it_evd_create(ia, SW, IT_EVD_CREATE_FD, 4, 1, null).evd_handle;
  await rejectsIt(it_evd_wait(f, 0n), S.IT_ERR_INVALID_EVD_STATE);
  it_evd_modify(f, IT_EVD_PARAM_ENABLED, { evd_enabled: false });
  assert.equal((await it_evd_wait(f, 0n)).status, S.IT_ERR_TIMEOUT_EXPIRED);
});

test('ITAPI-EVD-32 it_evd_wait with timeout 0 on an empty SEVD: IT_ERR_TIMEOUT_EXPIRED and nmore 0', async () => {
  const ia = openIa();
  const r = await it_evd_wait(sevd(ia, SW, 4, 1), 0n);
  assert.equal(r.status, S.IT_ERR_TIMEOUT_EXPIRED);
  assert.equal((r as { nmore: number }).nmore, 0);
});

test('ITAPI-EVD-33 a second concurrent waiter on an SEVD with threshold > 1 is IT_ERR_WAITER_LIMIT', async () => {
  const ia = openIa();
  const e = sevd(ia, SW, 8, 2);
  const w1 = it_evd_wait(e, IT_TIMEOUT_INFINITE);
  await rejectsIt(it_evd_wait(e, IT_TIMEOUT_INFINITE), S.IT_ERR_WAITER_LIMIT);
  // Threshold 1 allows many waiters.
  const one = sevd(ia, SW, 8, 1);
  const x = it_evd_wait(one, IT_TIMEOUT_INFINITE);
  const y = it_evd_wait(one, IT_TIMEOUT_INFINITE);
  post(one, 1);
  post(one, 2);
  assert.equal((await x).status, IT_SUCCESS);
  assert.equal((await y).status, IT_SUCCESS);
  post(e, 'a'); // a Software Event is a Notification: it ends the first wait
  assert.equal((await w1).status, IT_SUCCESS);
});

test('ITAPI-EVD-34 with threshold N, N non-notification completions wake a waiter and N−1 do not', async () => {
  const N = 3;
  const { a, b } = await connectPair({ a: { reqThreshold: N } });
  const rb = reg(b.pz, 64);
  for (let i = 0; i < N; i++) it_post_recv(b.ep, [seg(rb)], BigInt(i), IT_COMPLETION_FLAG);
  const buf = reg(a.pz, 16);
  for (let i = 0; i < N - 1; i++) it_post_send(a.ep, [seg(buf, 0, 4)], BigInt(i), IT_COMPLETION_FLAG);
  // A Send completes locally before its Receive completes at the peer: once b has both
  // Receives, a's two completions are queued.
  for (let i = 0; i < N - 1; i++) await next(b.dto);
  assert.equal(await queued(a.req), N - 1);
  const w = it_evd_wait(a.req, 5_000_000n);
  it_post_send(a.ep, [seg(buf, 0, 4)], 9n, IT_COMPLETION_FLAG);
  const r = await w;
  assert.equal(r.status, IT_SUCCESS);
  const ev = (r as { event: it_dto_cmpl_event_t }).event;
  assert.equal(ev.event_number, IT_DTO_SEND_CMPL_EVENT);
  assert.equal(ev.cookie, 0n);
});

test('ITAPI-EVD-35 a completion with an error status wakes a waiter regardless of NOTIFY and threshold', async () => {
  const s = makeSide(openIa(), { threshold: IT_THRESHOLD_DISABLE });
  connectTo(s.ep, await closedPort());
  assert.equal((await next(s.cm)).event_number, IT_CM_MSG_CONN_NONPEER_REJECT_EVENT);
  const buf = reg(s.pz, 16);
  const w = it_evd_wait(s.dto, 5_000_000n);
  // Posted without COMPLETION or NOTIFY on a NONOPERATIONAL Endpoint: completes flushed.
  it_post_send(s.ep, [seg(buf)], 77n, NO_FLAGS);
  const r = await w;
  assert.equal(r.status, IT_SUCCESS);
  const ev = (r as { event: it_dto_cmpl_event_t }).event;
  assert.equal(ev.dto_status, IT_DTO_ERR_FLUSHED);
  assert.equal(ev.cookie, 77n);
});

test('ITAPI-EVD-36 with IT_THRESHOLD_DISABLE only Notification Events wake the waiter', async () => {
  const { a, b } = await connectPair({ a: { reqThreshold: IT_THRESHOLD_DISABLE } });
  const rb = reg(b.pz, 64);
  for (let i = 0; i < 4; i++) it_post_recv(b.ep, [seg(rb)], BigInt(i), IT_COMPLETION_FLAG);
  const buf = reg(a.pz, 16);
  for (let i = 0; i < 3; i++) it_post_send(a.ep, [seg(buf, 0, 4)], BigInt(i), IT_COMPLETION_FLAG);
  for (let i = 0; i < 3; i++) await next(b.dto);
  assert.equal(await queued(a.req), 3);
  const w = it_evd_wait(a.req, 5_000_000n);
  it_post_send(a.ep, [seg(buf, 0, 4)], 3n, IT_COMPLETION_FLAG | IT_NOTIFY_FLAG);
  const r = await w;
  assert.equal(r.status, IT_SUCCESS);
  assert.equal((r as { nmore: number }).nmore, 3);
});

test('ITAPI-EVD-37 a Receive matched by a Send with IT_SOLICITED_WAIT_FLAG wakes the receiver even with NOTIFY clear', async () => {
  const { a, b } = await connectPair({ b: { threshold: IT_THRESHOLD_DISABLE } });
  const rb = reg(b.pz, 64);
  it_post_recv(b.ep, [seg(rb, 0, 32)], 1n, IT_COMPLETION_FLAG);
  it_post_recv(b.ep, [seg(rb, 32, 32)], 2n, IT_COMPLETION_FLAG);
  const sa = reg(a.pz, 64, undefined, 'abcdefgh');
  it_post_send(a.ep, [seg(sa, 0, 4)], 10n, NO_FLAGS);
  // An RDMA Read behind the Send completes only after the Send was delivered (in-order stream).
  it_post_rdma_read(a.ep, [seg(sa, 8, 0)], 11n, IT_COMPLETION_FLAG, 0n, 0);
  assert.equal((await next(a.req)).event_number, 0x5);
  assert.equal(await queued(b.dto), 1);
  const w = it_evd_wait(b.dto, 5_000_000n);
  it_post_send(a.ep, [seg(sa, 0, 4)], 12n, IT_SOLICITED_WAIT_FLAG);
  const r = await w;
  assert.equal(r.status, IT_SUCCESS);
  assert.equal((r as { event: it_dto_cmpl_event_t }).event.event_number, IT_DTO_RC_RECV_CMPL_EVENT);
});

test('ITAPI-EVD-38 an AEVD with DEQUEUE_NOTIFICATIONS returns IT_AEVD_NOTIFICATION_EVENT naming the SEVD; the Event is then dequeued from it', async () => {
  const ia = openIa();
  const a = sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 0, 0, IT_EVD_DEQUEUE_NOTIFICATIONS);
  const s1 = sevd(ia, SW, 4, 1, 0, a);
  const s2 = sevd(ia, SW, 4, 1, 0, a);
  post(s2, 'payload');
  const n = (await next(a)) as it_aevd_notification_event_t;
  assert.equal(n.event_number, IT_AEVD_NOTIFICATION_EVENT);
  assert.equal(n.aevd, a);
  assert.equal(n.sevd, s2);
  const r = it_evd_dequeue(s2);
  assert.equal(r.status, IT_SUCCESS);
  assert.equal((r as { event: it_software_event_t }).event.data, 'payload');
  assert.equal(it_evd_dequeue(s1).status, S.IT_ERR_QUEUE_EMPTY);
});

test('ITAPI-EVD-39 an AEVD without DEQUEUE_NOTIFICATIONS returns the underlying Event; its evd names the SEVD', async () => {
  const ia = openIa();
  const a = sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 0, 0);
  const s1 = sevd(ia, SW, 4, 1, 0, a);
  const s2 = sevd(ia, SW, 4, 1, 0, a);
  post(s1, 'one');
  const e1 = (await next(a)) as it_software_event_t;
  assert.equal(e1.evd, s1);
  assert.equal(e1.data, 'one');
  post(s2, 'two');
  const e2 = it_evd_dequeue(a) as { status: number; event: it_software_event_t };
  assert.equal(e2.status, IT_SUCCESS);
  assert.equal(e2.event.evd, s2);
});

test('ITAPI-EVD-40 it_evd_post_se: non-SOFTWARE SEVD refused, full queue answers EVD_QUEUE_FULL without queueing, data by identity', () => {
  const ia = openIa();
  throwsIt(() => it_evd_post_se(sevd(ia, IT_CM_REQ_EVENT_STREAM, 4, 1), 1), S.IT_ERR_INVALID_SOFT_EVD);
  const e = sevd(ia, SW, 2, 1);
  const obj = { x: 1 };
  post(e, obj);
  post(e, 2);
  assert.equal(it_evd_post_se(e, 3).status, S.IT_ERR_EVD_QUEUE_FULL);
  const got = drain(e) as it_software_event_t[];
  assert.equal(got.length, 2);
  assert.equal(got[0]!.data, obj);
  assert.equal(got[0]!.event_number, IT_SOFTWARE_EVENT);
  assert.equal(got[1]!.data, 2);
  assert.equal(it_evd_query(e, IT_EVD_PARAM_OVERFLOWED).evd_overflowed, false);
});

test('ITAPI-EVD-41 callbacks: non-privileged → NO_PERMISSION; second attach → CALLBACK_EXISTS; during a wait → EVD_WAIT; wait with one → CALLBACK_EXISTS', async () => {
  const user = openIa();
  throwsIt(() => it_evd_callback_attach(sevd(user, SW, 4, 1), () => {}, null), S.IT_ERR_NO_PERMISSION);
  const ia = openIa(true);
  const e = sevd(ia, SW, 4, 1);
  it_evd_callback_attach(e, () => {}, null);
  throwsIt(() => it_evd_callback_attach(e, () => {}, null), S.IT_ERR_CALLBACK_EXISTS);
  await rejectsIt(it_evd_wait(e, 0n), S.IT_ERR_CALLBACK_EXISTS);
  const w = sevd(ia, SW, 4, 1);
  const waiting = it_evd_wait(w, IT_TIMEOUT_INFINITE);
  throwsIt(() => it_evd_callback_attach(w, () => {}, null), S.IT_ERR_EVD_WAIT);
  post(w);
  assert.equal((await waiting).status, IT_SUCCESS);
});

test('ITAPI-EVD-42 a callback fires only after the EVD was drained, once per transition into criteria, never re-entrantly', async () => {
  const ia = openIa(true);
  const e = sevd(ia, SW, 8, 1);
  post(e, 'before');
  let calls = 0;
  let inside = false;
  let nested = false;
  it_evd_callback_attach(
    e,
    (evd, arg) => {
      assert.equal(evd, e);
      assert.equal(arg, 'arg');
      if (inside) nested = true;
      inside = true;
      calls++;
      it_evd_post_se(e, 'from inside'); // must not re-enter
      inside = false;
    },
    'arg',
  );
  post(e, 'not drained yet');
  await tick();
  assert.equal(calls, 0, 'no callback before the EVD was drained');
  drain(e);
  post(e, 'first');
  assert.equal(calls, 0, 'never synchronously inside it_evd_post_se');
  await until(() => calls === 1);
  post(e, 'still in criteria');
  await tick();
  assert.equal(calls, 1, 'once per transition');
  drain(e);
  post(e, 'again');
  await until(() => calls === 2);
  await tick();
  assert.equal(calls, 2);
  assert.equal(nested, false);
});

test('ITAPI-EVD-43 it_evd_callback_detach without a callback is IT_ERR_INVALID_EVD_STATE', () => {
  const ia = openIa(true);
  const e = sevd(ia, SW, 4, 1);
  throwsIt(() => it_evd_callback_detach(e), S.IT_ERR_INVALID_EVD_STATE);
  it_evd_callback_attach(e, () => {}, null);
  it_evd_callback_detach(e);
  throwsIt(() => it_evd_callback_detach(e), S.IT_ERR_INVALID_EVD_STATE);
});

test('ITAPI-EVD-44 it_evd_free during a running callback is IT_ERR_INVALID_EVD_STATE', async () => {
  const ia = openIa(true);
  const e = sevd(ia, SW, 4, 1);
  let status: number | null = null;
  it_evd_callback_attach(
    e,
    () => {
      try {
        it_evd_free(e);
        status = IT_SUCCESS;
      } catch (err) {
        status = (err as { status: number }).status;
      }
    },
    null,
  );
  post(e);
  await until(() => status !== null);
  assert.equal(status, S.IT_ERR_INVALID_EVD_STATE);
  it_evd_free(e); // outside the callback it succeeds
});

/** `n` Endpoints of `ia` reporting on the connect SEVD `cm` fail to connect (NONPEER_REJECT each). */
async function rejectsOn(cm: it_evd_handle_t, ia: it_ia_handle_t, n = 2): Promise<void> {
  const port = await closedPort();
  const s = makeSide(ia);
  for (let i = 0; i < n; i++) connectTo(it_ep_rc_create(s.pz, s.dto, s.dto, cm, 0, rcAttrs()), port);
}

test('ITAPI-EVD-45 overflowing a CM_MSG SEVD (DEFAULT or NOTIFY|AUTO_RESET) queues IT_ASYNC_AFF_SEVD_ENQUEUE_FAILURE and sets evd_overflowed', async () => {
  for (const flags of [IT_EVD_OVERFLOW_DEFAULT, IT_EVD_OVERFLOW_NOTIFY | IT_EVD_OVERFLOW_AUTO_RESET]) {
    const ia = openIa();
    const aff = sevd(ia, IT_ASYNC_AFF_EVENT_STREAM, 8, 1);
    const cm = sevd(ia, IT_CM_MSG_EVENT_STREAM, 1, 1, flags);
    await rejectsOn(cm, ia);
    const ev = (await next(aff)) as it_affiliated_event_t;
    assert.equal(ev.event_number, IT_ASYNC_AFF_SEVD_ENQUEUE_FAILURE);
    assert.equal((ev.cause as { sevd: it_evd_handle_t }).sevd, cm);
    assert.equal(it_evd_query(cm, IT_EVD_PARAM_OVERFLOWED).evd_overflowed, true);
    assert.equal(drain(cm).length, 1);
  }
});

test('ITAPI-EVD-46 overflowing the affiliated SEVD queues IT_ASYNC_UNAFF_SEVD_ENQUEUE_FAILURE on the unaffiliated SEVD', async () => {
  const ia = openIa();
  const unaff = sevd(ia, IT_ASYNC_UNAFF_EVENT_STREAM, 8, 1);
  const aff = sevd(ia, IT_ASYNC_AFF_EVENT_STREAM, 1, 1, IT_EVD_OVERFLOW_DEFAULT);
  // A CM_MSG SEVD of one entry reporting every overflow (AUTO_RESET): two overflows → two
  // affiliated Events → the affiliated SEVD (one entry) overflows.
  const cm = sevd(ia, IT_CM_MSG_EVENT_STREAM, 1, 1, IT_EVD_OVERFLOW_NOTIFY | IT_EVD_OVERFLOW_AUTO_RESET);
  await rejectsOn(cm, ia);
  await until(() => it_evd_query(cm, IT_EVD_PARAM_OVERFLOWED).evd_overflowed === true);
  drain(cm); // room again: reporting re-armed
  await rejectsOn(cm, ia);
  const ev = (await next(unaff)) as { event_number: number; ia: unknown };
  assert.equal(ev.event_number, IT_ASYNC_UNAFF_SEVD_ENQUEUE_FAILURE);
  assert.equal(ev.ia, ia);
  assert.equal(it_evd_query(aff, IT_EVD_PARAM_OVERFLOWED).evd_overflowed, true);
});

test('ITAPI-EVD-47 event_number & IT_EVENT_STREAM_MASK equals the SEVD stream of every delivered Event', async () => {
  const seen: [number, it_event_t][] = [];
  const take = async (evd: it_evd_handle_t, stream: number): Promise<it_event_t> => {
    const ev = await next(evd);
    seen.push([stream, ev]);
    return ev;
  };
  const ia = openIa();
  const aff = sevd(ia, IT_ASYNC_AFF_EVENT_STREAM, 8, 1);
  const sw = sevd(ia, SW, 8, 1);
  const b = makeSide(ia);
  const a = makeSide(openIa());
  const l = listen(ia);
  const hello = reg(b.pz, 64);
  it_post_recv(b.ep, [seg(hello)], 1n, IT_COMPLETION_FLAG | IT_NOTIFY_FLAG);
  connectTo(a.ep, l.port);
  const req = (await take(l.evd, IT_CM_REQ_EVENT_STREAM)) as it_conn_request_event_t;
  it_ep_accept(b.ep, req.cn_est_id, null);
  await take(a.cm, IT_CM_MSG_EVENT_STREAM);
  const buf = reg(a.pz, 8);
  it_post_send(a.ep, [seg(buf)], 2n, IT_COMPLETION_FLAG);
  await take(a.dto, IT_DTO_EVENT_STREAM);
  await take(b.cm, IT_CM_MSG_EVENT_STREAM);
  await take(b.dto, IT_DTO_EVENT_STREAM);
  post(sw, 'x');
  await take(sw, SW);
  const ae = sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 0, 0, IT_EVD_DEQUEUE_NOTIFICATIONS);
  const sw2 = sevd(ia, SW, 4, 1, 0, ae);
  post(sw2, 'y');
  await take(ae, IT_AEVD_NOTIFICATION_EVENT_STREAM);
  // An affiliated Event: a CM_MSG SEVD of one entry overflows.
  const cm1 = sevd(ia, IT_CM_MSG_EVENT_STREAM, 1, 1, IT_EVD_OVERFLOW_DEFAULT);
  await rejectsOn(cm1, ia);
  await take(aff, IT_ASYNC_AFF_EVENT_STREAM);
  await take(cm1, IT_CM_MSG_EVENT_STREAM);
  assert.equal(seen.length, 9);
  for (const [stream, ev] of seen) {
    assert.equal(ev.event_number & IT_EVENT_STREAM_MASK, stream, `0x${ev.event_number.toString(16)}`);
    assert.equal(itEventStream(ev.event_number), stream);
  }
});

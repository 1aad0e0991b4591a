/**
 * Conformance: protection domains, completion queues and completion notification
 * (RNICPI-026…041; RDMA Verbs §10 R5, R7–R13, N1–N7, §4.7).
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { SOFTRDMA_KERNEL_OPS as K } from '../../src/provider/softrdma.js';
import { RiRet } from '../../src/rnicpi/status.js';
import {
  RiAsyncEventType,
  RiCmpltNotifyType,
  RiCqModifyMask,
  RiMwType,
  RiQpState,
  RiWcStatus,
  RiWrFlags,
  RiWrType,
} from '../../src/rnicpi/types.js';
import {
  allocPd,
  buf,
  cleanupAll,
  code,
  createCq,
  drain,
  type Env,
  makeSide,
  modifyState,
  name,
  ok,
  openRnic,
  pollWcs,
  postRecv,
  postSend,
  regMr,
  settle,
  type Side,
  twoSides,
  until,
  transportTest,
} from './helpers.js';

after(cleanupAll);

/** Posts `n` receives to an Idle QP and moves it to Error: `n` flushed WCs on its CQ. */
function flushInto(s: Side, n: number, firstId = 1n): void {
  const m = regMr(s, buf(16));
  for (let i = 0; i < n; i++) ok(postRecv(s, m, firstId + BigInt(i)), 'post recv');
  ok(modifyState(s, RiQpState.ERROR), 'modify → Error');
}

function armed(env: Env, s: Side, type: RiCmpltNotifyType): void {
  ok(env.ops.ri_cq_req_notification(s.rnic, s.cq, type), 'ri_cq_req_notification');
}

test('RNICPI-026 ri_pd_dealloc of a PD referenced by a QP/MR/MW/SRQ returns PD_INUSE (VERBS-10.R5: and the PD still works)', () => {
  const env = openRnic();
  const cq = createCq(env);
  // QP
  const pd1 = allocPd(env);
  const s = makeSide(env, {}, { pd: pd1, cq });
  assert.equal(code(K.ri_pd_dealloc(env.rnic, pd1)), name(RiRet.PD_INUSE));
  regMr({ env, rnic: env.rnic, pd: pd1 }, buf(8)); // the PD still works
  // MR
  const pd2 = allocPd(env);
  const m = regMr({ env, rnic: env.rnic, pd: pd2 }, buf(8));
  assert.equal(code(K.ri_pd_dealloc(env.rnic, pd2)), name(RiRet.PD_INUSE));
  ok(K.ri_mr_dereg(env.rnic, m.mr));
  ok(K.ri_pd_dealloc(env.rnic, pd2));
  // MW (an Invalid window counts too)
  const pd3 = allocPd(env);
  const mw = ok(K.ri_mw_alloc(env.rnic, pd3, RiMwType.TYPE_2, null, null)).mw;
  assert.equal(code(K.ri_pd_dealloc(env.rnic, pd3)), name(RiRet.PD_INUSE));
  ok(K.ri_mw_dealloc(env.rnic, mw));
  ok(K.ri_pd_dealloc(env.rnic, pd3));
  // SRQ
  const pd4 = allocPd(env);
  const srq = ok(K.ri_srq_create(env.rnic, { max_wrs: 4, max_sgl: 1, lowat: 0, pd: pd4 }, null, null)).srq;
  assert.equal(code(K.ri_pd_dealloc(env.rnic, pd4)), name(RiRet.PD_INUSE));
  ok(K.ri_srq_destroy(env.rnic, srq));
  ok(K.ri_pd_dealloc(env.rnic, pd4));
  // and the QP's PD once the QP is gone
  ok(K.ri_qp_destroy(env.rnic, s.qp));
  assert.equal(code(K.ri_pd_dealloc(env.rnic, pd1)), name(RiRet.PD_INUSE), 'the MR registered above still uses it');
  env.close();
});

test('RNICPI-027 ri_cq_create returns num_cqe ≥ the requested value (VERBS-10.R9: ri_cq_query reports it and the handler ID)', () => {
  const env = openRnic();
  for (const n of [1, 3, 100]) {
    const r = ok(K.ri_cq_create(env.rnic, { num_cqe: n, handler_id: env.handlerId }, null, null));
    assert.ok(r.cq_attr.num_cqe >= n);
    const q = ok(K.ri_cq_query(env.rnic, r.cq)).cq_attr;
    assert.equal(q.num_cqe, r.cq_attr.num_cqe);
    assert.equal(q.handler_id, env.handlerId);
  }
  env.close();
});

test('RNICPI-028 ri_cq_create with num_cqe > max_cqes_per_cq returns CQ_CAPACITY_EXCEEDED and creates nothing', () => {
  const env = openRnic();
  const max = ok(K.ri_rnic_query(env.rnic, 0, 1 << 20)).attrs.max_cqes_per_cq;
  assert.equal(code(K.ri_cq_create(env.rnic, { num_cqe: max + 1, handler_id: 0 }, null, null)), name(RiRet.CQ_CAPACITY_EXCEEDED));
  // Nothing was created through the handle: it can be freed at once.
  assert.equal(code(K.ri_rnic_free_hdl(env.vp, env.rnic)), name(RiRet.SUCCESS));
  env.close();
});

test('RNICPI-029 ri_cq_create with an unknown non-zero handler_id returns CQ_INVALID_EVENT_HANDLER (VERBS-10.R8)', () => {
  const env = openRnic();
  assert.equal(code(K.ri_cq_create(env.rnic, { num_cqe: 4, handler_id: 4242 }, null, null)), name(RiRet.CQ_INVALID_EVENT_HANDLER));
  assert.equal(code(K.ri_cq_create(env.rnic, { num_cqe: 4, handler_id: env.handlerId }, null, null)), name(RiRet.SUCCESS));
  env.close();
});

test('RNICPI-030 ri_cq_req_notification on a CQ created with handler_id 0 returns CQ_NO_EVENT_HANDLER', () => {
  const env = openRnic();
  const cq = createCq(env, 4, 0);
  assert.equal(code(K.ri_cq_req_notification(env.rnic, cq, RiCmpltNotifyType.ANY)), name(RiRet.CQ_NO_EVENT_HANDLER));
  const cq2 = createCq(env, 4, env.handlerId);
  assert.equal(code(K.ri_cq_req_notification(env.rnic, cq2, RiCmpltNotifyType.ANY)), name(RiRet.SUCCESS));
  assert.equal(code(K.ri_cq_req_notification(env.rnic, cq2, 9 as RiCmpltNotifyType)), name(RiRet.INVALID_PARAMETER));
  env.close();
});

test('RNICPI-031 ri_cq_set_event_handler with handler_id 0 allocates a new non-zero ID; exhausting IDs returns RESOURCE_SHORTAGE (VERBS-10.N6)', () => {
  const env = openRnic();
  const max = ok(K.ri_rnic_query(env.rnic, 0, 1 << 20)).attrs.max_cq_event_handlers;
  const ids = new Set<number>([env.handlerId]);
  for (;;) {
    const r = K.ri_cq_set_event_handler(env.vp, 0, () => {});
    if (r.status !== RiRet.SUCCESS) {
      assert.equal(code(r), name(RiRet.RESOURCE_SHORTAGE));
      break;
    }
    assert.ok(r.handler_id !== 0);
    assert.ok(!ids.has(r.handler_id), 'a new ID each time');
    ids.add(r.handler_id);
    assert.ok(ids.size <= max, 'never more than max_cq_event_handlers');
  }
  assert.equal(ids.size, max, 'exactly max_cq_event_handlers IDs can be allocated');
  // An existing ID can still be rebound; an unknown one is INVALID_HANDLER_ID.
  assert.equal(code(K.ri_cq_set_event_handler(env.vp, env.handlerId, null)), name(RiRet.SUCCESS));
  assert.equal(code(K.ri_cq_set_event_handler(env.vp, 999_999, () => {})), name(RiRet.INVALID_HANDLER_ID));
  env.close();
});

test('RNICPI-032 ri_cq_set_event_handler with a NULL handler_id returns INVALID_PARAMETER', () => {
  const env = openRnic();
  assert.equal(code(K.ri_cq_set_event_handler(env.vp, null, () => {})), name(RiRet.INVALID_PARAMETER));
  env.close();
});

transportTest(
  'RNICPI-033 after arming with ANY exactly one callback occurs for the next completion, with the ri_rnic_open and ri_cq_create os_data (VERBS-10.N2)',
  async () => {
    const t = await twoSides({}, {}, { handlerId: true });
    try {
      const { a, b, envA } = t;
      const mb = regMr(b, buf(32));
      ok(postRecv(b, mb, 1n));
      ok(postRecv(b, mb, 2n));
      const ma = regMr(a, buf(32));
      armed(envA, a, RiCmpltNotifyType.ANY);
      ok(postSend(a, ma, 10n));
      await until(() => envA.cqCalls.length === 1, 'CQ callback');
      assert.equal(envA.cqCalls[0]![0], envA.osData, 'vp_hdl_os_data is the ri_rnic_open os_data');
      assert.equal(envA.cqCalls[0]![1], a.cqOsData, 'cq_os_data is the ri_cq_create os_data');
      await pollWcs(envA, a.rnic, a.cq, 1);
      ok(postSend(a, ma, 11n));
      await pollWcs(envA, a.rnic, a.cq, 1);
      await settle();
      assert.equal(envA.cqCalls.length, 1, 'one callback per arm');
    } finally {
      t.done();
    }
  },
);

test('RNICPI-034 completions already in the CQ when arming do not trigger the callback (VERBS-10.N3)', async () => {
  const env = openRnic();
  const s = makeSide(env, {}, { handlerId: env.handlerId });
  flushInto(s, 2);
  armed(env, s, RiCmpltNotifyType.ANY);
  await settle();
  assert.equal(env.cqCalls.length, 0);
  // The arm is still pending: the next completion fires it.
  const s2 = makeSide(env, {}, { cq: s.cq, cqOsData: s.cqOsData, pd: s.pd });
  flushInto(s2, 1, 9n);
  await until(() => env.cqCalls.length === 1, 'callback for the new completion');
  assert.equal(drain(env, s.rnic, s.cq).length, 3);
  env.close();
});

transportTest(
  'RNICPI-035 arming with SOLICITED does not fire on a successful unsolicited send completion but does on an error completion',
  async () => {
    const t = await twoSides({}, {}, { handlerId: true });
    try {
      const { a, b, envA } = t;
      const mb = regMr(b, buf(32));
      ok(postRecv(b, mb, 1n));
      const ma = regMr(a, buf(32));
      ok(postRecv(a, ma, 50n)); // will be flushed
      armed(envA, a, RiCmpltNotifyType.SOLICITED);
      ok(postSend(a, ma, 10n));
      const [wc] = await pollWcs(envA, a.rnic, a.cq, 1);
      assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
      await settle();
      assert.equal(envA.cqCalls.length, 0, 'a successful send is unsolicited');
      ok(modifyState(a, RiQpState.ERROR));
      await until(() => envA.cqCalls.length === 1, 'callback for the error completion');
      const [f] = await pollWcs(envA, a.rnic, a.cq, 1);
      assert.equal(f!.op_status, RiWcStatus.WR_FLUSHED_ERROR);
    } finally {
      t.done();
    }
  },
);

transportTest('VERBS-10.N1 arm "solicited": a plain Send arriving does not call the handler, a Send with SE does', async () => {
  const t = await twoSides({}, {}, { handlerId: true });
  try {
    const { a, b, envB } = t;
    const mb = regMr(b, buf(32));
    ok(postRecv(b, mb, 1n));
    ok(postRecv(b, mb, 2n));
    const ma = regMr(a, buf(32));
    armed(envB, b, RiCmpltNotifyType.SOLICITED);
    ok(postSend(a, ma, 10n, RiWrFlags.SIGNALED_FLAG));
    await pollWcs(envB, b.rnic, b.cq, 1);
    await settle();
    assert.equal(envB.cqCalls.length, 0);
    ok(postSend(a, ma, 11n, RiWrFlags.SIGNALED_FLAG | RiWrFlags.SOLICITED_EVENT_FLAG));
    await until(() => envB.cqCalls.length === 1, 'callback for the solicited receive');
    const [wc] = await pollWcs(envB, b.rnic, b.cq, 1);
    assert.equal(wc!.id, 2n);
  } finally {
    t.done();
  }
});

transportTest(
  'RNICPI-036 SOLICITED then ANY before the next completion: the callback fires on the next completion of any kind, once (VERBS-10.N4)',
  async () => {
    const t = await twoSides({}, {}, { handlerId: true });
    try {
      const { a, b, envA } = t;
      const mb = regMr(b, buf(32));
      ok(postRecv(b, mb, 1n));
      ok(postRecv(b, mb, 2n));
      const ma = regMr(a, buf(32));
      armed(envA, a, RiCmpltNotifyType.SOLICITED);
      armed(envA, a, RiCmpltNotifyType.ANY);
      ok(postSend(a, ma, 10n));
      await until(() => envA.cqCalls.length === 1, 'callback');
      ok(postSend(a, ma, 11n));
      await pollWcs(envA, a.rnic, a.cq, 2);
      await settle();
      assert.equal(envA.cqCalls.length, 1);
    } finally {
      t.done();
    }
  },
);

test('RNICPI-037 no callback fires a second time without re-arming', async () => {
  const env = openRnic();
  const s = makeSide(env, {}, { handlerId: env.handlerId });
  armed(env, s, RiCmpltNotifyType.ANY);
  const s2 = makeSide(env, {}, { cq: s.cq, cqOsData: s.cqOsData, pd: s.pd });
  flushInto(s2, 1, 1n);
  await until(() => env.cqCalls.length === 1, 'first callback');
  const s3 = makeSide(env, {}, { cq: s.cq, cqOsData: s.cqOsData, pd: s.pd });
  flushInto(s3, 2, 10n);
  await settle();
  assert.equal(env.cqCalls.length, 1, 'not re-armed: no callback');
  armed(env, s, RiCmpltNotifyType.ANY);
  const s4 = makeSide(env, {}, { cq: s.cq, cqOsData: s.cqOsData, pd: s.pd });
  flushInto(s4, 1, 20n);
  await until(() => env.cqCalls.length === 2, 'callback after re-arming');
  env.close();
});

test('VERBS-4.7 no notification is lost in the sequence "poll until empty, arm, poll again"', async () => {
  const env = openRnic();
  const s = makeSide(env, {}, { handlerId: env.handlerId });
  assert.equal(code(K.ri_cq_poll(env.rnic, s.cq, 4)), name(RiRet.CQ_EMPTY));
  // A completion lands between the last poll and the arm: it does not fire...
  flushInto(s, 1, 1n);
  armed(env, s, RiCmpltNotifyType.ANY);
  await settle();
  assert.equal(env.cqCalls.length, 0);
  // ...but the poll after the arm finds it.
  const r = ok(K.ri_cq_poll(env.rnic, s.cq, 4));
  assert.deepEqual(
    r.wcs.map((w) => w.id),
    [1n],
  );
  // And the arm still catches the next one.
  const s2 = makeSide(env, {}, { cq: s.cq, cqOsData: s.cqOsData, pd: s.pd });
  flushInto(s2, 1, 2n);
  await until(() => env.cqCalls.length === 1, 'callback');
  env.close();
});

test('VERBS-10.N5 the handler receives the CQ identity and the CQE is still on the CQ (the RI did not poll it)', async () => {
  const env = openRnic();
  const s = makeSide(env, {}, { handlerId: env.handlerId });
  const polled: bigint[] = [];
  ok(
    K.ri_cq_set_event_handler(env.vp, env.handlerId, (_vp, cqOs) => {
      assert.equal(cqOs, s.cqOsData);
      const r = K.ri_cq_poll(env.rnic, s.cq, 8);
      if (r.status === RiRet.SUCCESS) polled.push(...r.wcs.map((w) => w.id));
    }),
  );
  armed(env, s, RiCmpltNotifyType.ANY);
  flushInto(s, 2, 5n);
  await until(() => polled.length === 2, 'poll from inside the handler');
  assert.deepEqual(polled, [5n, 6n]);
  env.close();
});

test('RNICPI-038 ri_cq_poll on an empty CQ returns CQ_EMPTY; otherwise num_wcs ≤ the requested count (VERBS-10.R13)', () => {
  const env = openRnic();
  const s = makeSide(env);
  assert.equal(code(K.ri_cq_poll(env.rnic, s.cq, 4)), name(RiRet.CQ_EMPTY));
  flushInto(s, 3);
  const r1 = ok(K.ri_cq_poll(env.rnic, s.cq, 2));
  assert.ok(r1.wcs.length >= 1 && r1.wcs.length <= 2);
  const rest = drain(env, s.rnic, s.cq);
  assert.equal(r1.wcs.length + rest.length, 3);
  assert.equal(code(K.ri_cq_poll(env.rnic, s.cq, 4)), name(RiRet.CQ_EMPTY));
  env.close();
});

test('RNICPI-039 ri_cq_modify with num_cqe 0 or an unknown mask returns INVALID_PARAMETER', () => {
  const env = openRnic();
  const cq = createCq(env, 8);
  assert.equal(code(K.ri_cq_modify(env.rnic, cq, RiCqModifyMask.NUM_CQE, { num_cqe: 0 })), name(RiRet.INVALID_PARAMETER));
  assert.equal(code(K.ri_cq_modify(env.rnic, cq, 2, { num_cqe: 16 })), name(RiRet.INVALID_PARAMETER));
  assert.equal(code(K.ri_cq_modify(env.rnic, cq, 0, { num_cqe: 16 })), name(RiRet.INVALID_PARAMETER));
  assert.equal(ok(K.ri_cq_query(env.rnic, cq)).cq_attr.num_cqe, 8, 'unchanged');
  env.close();
});

test('RNICPI-040 shrinking a CQ below its outstanding entries returns CQ_WOULD_OVERFLOW; resizing with outstanding entries loses no completion (VERBS-10.R10, R11)', () => {
  const env = openRnic();
  const s = makeSide(env, {}, { cqSize: 8 });
  flushInto(s, 3, 1n);
  assert.equal(code(K.ri_cq_modify(env.rnic, s.cq, RiCqModifyMask.NUM_CQE, { num_cqe: 2 })), name(RiRet.CQ_WOULD_OVERFLOW));
  assert.equal(ok(K.ri_cq_query(env.rnic, s.cq)).cq_attr.num_cqe, 8, 'size unchanged');
  const big = ok(K.ri_cq_modify(env.rnic, s.cq, RiCqModifyMask.NUM_CQE, { num_cqe: 32 }));
  assert.ok(big.cq_attr.num_cqe >= 32);
  const small = ok(K.ri_cq_modify(env.rnic, s.cq, RiCqModifyMask.NUM_CQE, { num_cqe: 3 }));
  assert.ok(small.cq_attr.num_cqe >= 3);
  assert.deepEqual(
    drain(env, s.rnic, s.cq).map((w) => w.id),
    [1n, 2n, 3n],
  );
  env.close();
});

test('RNICPI-041 ri_cq_destroy with an associated QP returns CQ_INUSE; after a successful destroy no callback for it runs (VERBS-10.R12)', async () => {
  const env = openRnic();
  const s = makeSide(env, {}, { handlerId: env.handlerId });
  assert.equal(code(K.ri_cq_destroy(env.rnic, s.cq)), name(RiRet.CQ_INUSE));
  armed(env, s, RiCmpltNotifyType.ANY);
  flushInto(s, 1); // a completion whose callback is pending
  ok(K.ri_qp_destroy(env.rnic, s.qp));
  assert.equal(code(K.ri_cq_destroy(env.rnic, s.cq)), name(RiRet.SUCCESS));
  await settle();
  assert.equal(env.cqCalls.length, 0, 'no callback after ri_cq_destroy returned');
  assert.equal(code(K.ri_cq_poll(env.rnic, s.cq, 1)), name(RiRet.CQ_INVALID_HANDLE));
  env.close();
});

test('RNICPI ri_cq_query: a CQ overrun is detected (CQ_OVERFLOW_CHECKING), raises CQ_OVERFLOW_DETECTED with the CQ os_data and answers CQ_ERROR', async () => {
  const env = openRnic();
  const s = makeSide(env, { rq_size: 8 }, { cqSize: 2 });
  flushInto(s, 4);
  assert.equal(code(K.ri_cq_query(env.rnic, s.cq)), name(RiRet.CQ_ERROR));
  assert.equal(code(K.ri_cq_modify(env.rnic, s.cq, RiCqModifyMask.NUM_CQE, { num_cqe: 8 })), name(RiRet.CQ_ERROR));
  await until(() => env.events.some((e) => e.event_type === RiAsyncEventType.CQ_OVERFLOW_DETECTED), 'overflow event');
  for (const e of env.events.filter((x) => x.event_type === RiAsyncEventType.CQ_OVERFLOW_DETECTED)) {
    assert.ok('resource_os_data' in e.event_data);
    assert.equal(e.event_data.resource_os_data, s.cqOsData);
  }
  // The completions that fit are still there, in order; none was overwritten.
  assert.deepEqual(
    drain(env, s.rnic, s.cq).map((w) => w.id),
    [1n, 2n],
  );
  env.close();
});

test('RNICPI ri_cq_poll returns WCs of every kind with op_type valid even after a WR type mix (flush of SQ then RQ, in order)', () => {
  const env = openRnic();
  const s = makeSide(env);
  const m = regMr(s, buf(16));
  ok(K.ri_qp_post_send(env.rnic, s.qp, RiWrType.SEND, RiWrFlags.SIGNALED_FLAG, 1n, [], 0, 0, 0));
  ok(K.ri_qp_post_send(env.rnic, s.qp, RiWrType.SEND, 0, 2n, [], 0, 0, 0));
  ok(postRecv(s, m, 3n));
  ok(modifyState(s, RiQpState.ERROR));
  const wcs = drain(env, s.rnic, s.cq);
  // Every incomplete WQE flushes, unsignaled ones included (Verbs §4.3), SQ then RQ in post order.
  assert.deepEqual(
    wcs.map((w) => [w.id, w.op_status]),
    [
      [1n, RiWcStatus.WR_FLUSHED_ERROR],
      [2n, RiWcStatus.WR_FLUSHED_ERROR],
      [3n, RiWcStatus.WR_FLUSHED_ERROR],
    ],
  );
  env.close();
});

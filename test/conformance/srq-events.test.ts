/**
 * Conformance: shared receive queues, asynchronous events, IB-only calls and address
 * domains (RNICPI-057…061, 097…101; RDMA Verbs §10 Q-S2…Q-S10, N7, N8).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SOFTRDMA_KERNEL_OPS as K, SOFTRDMA_USER_OPS as U, softrdmaTerminateDomain } from '../../src/provider/softrdma.js';
import { RiRet } from '../../src/rnicpi/status.js';
import {
  RiAsyncEventType,
  RiConsumerDomain,
  RiDiagOpType,
  RiQpState,
  RiSrqAttrMask,
  RiWcStatus,
  RiWrFlags,
  RiWrType,
  type ri_event_record_t,
  type ri_srq_handle_t,
} from '../../src/rnicpi/types.js';
import {
  allocPd,
  buf,
  cleanupAll,
  code,
  connect,
  createCq,
  drain,
  type Env,
  makeSide,
  modifyState,
  type Mr,
  name,
  ok,
  openRnic,
  pollWcs,
  postSend,
  qpAttrsIn,
  regMr,
  seg,
  settle,
  type Side,
  state,
  until,
  userHandle,
  setConformanceTransport,
} from './helpers.js';
import { TRANSPORTS } from '../helpers/engine.js';

after(cleanupAll);

function srqCreate(env: Env, pd: Side['pd'], max_wrs: number, lowat: number, osData: unknown = { srq: 1 }, rnic = env.rnic) {
  return ok(K.ri_srq_create(rnic, { max_wrs, max_sgl: 2, lowat, pd }, null, osData), 'ri_srq_create');
}

function srqPost(env: Env, srq: ri_srq_handle_t, m: Mr, id: bigint, off = 0, len = 16) {
  return K.ri_srq_post_recv(env.rnic, srq, 0, id, [seg(m, off, len)], 1);
}

function eventsOf(env: Env, type: RiAsyncEventType): ri_event_record_t[] {
  return env.events.filter((e) => e.event_type === type);
}

function osDataOf(e: ri_event_record_t): unknown {
  return 'resource_os_data' in e.event_data ? e.event_data.resource_os_data : undefined;
}

/** a (own RNIC) connected to b, whose QP takes its receives from a new S-RQ. */
async function srqPair(max_wrs: number, lowat: number, overB = {}) {
  const envA = openRnic();
  const envB = openRnic();
  const a = makeSide(envA);
  const pdB = allocPd(envB);
  const srqOs = { the: 'srq' };
  const srq = srqCreate(envB, pdB, max_wrs, lowat, srqOs);
  const b = makeSide(envB, { srq_valid: true, srq: { srq_handle: srq.srq }, ...overB }, { pd: pdB });
  const pair = await connect(a, b);
  const sink = regMr(b, buf(4096));
  return {
    envA,
    envB,
    a,
    b,
    srq: srq.srq,
    srqAttrs: srq.srq_attrs,
    srqOs,
    sink,
    pair,
    done() {
      envA.close();
      envB.close();
      pair.close();
    },
  };
}

for (const transport of TRANSPORTS) {
  describe(`RNICPI conformance: S-RQ and events [${transport}]`, () => {
    before(() => setConformanceTransport(transport));

    test('RNICPI-057 ri_srq_create with non-zero lowat reports srq_armed; falling to ≤ lowat available WQEs raises exactly one SRQ_LIMIT_REACHED per arming (VERBS-10.Q-S4)', async () => {
      const t = await srqPair(8, 2);
      try {
        assert.equal(t.srqAttrs.srq_armed, true);
        assert.ok(t.srqAttrs.max_wrs >= 8);
        for (let i = 0; i < 5; i++) ok(srqPost(t.envB, t.srq, t.sink, BigInt(i), i * 16));
        for (let i = 0; i < 4; i++) ok(postSend(t.a, null, BigInt(10 + i)));
        await pollWcs(t.envB, t.b.rnic, t.b.cq, 4);
        await until(() => eventsOf(t.envB, RiAsyncEventType.SRQ_LIMIT_REACHED).length === 1, 'limit event');
        await settle();
        assert.equal(eventsOf(t.envB, RiAsyncEventType.SRQ_LIMIT_REACHED).length, 1, 'once per arming');
        assert.equal(osDataOf(eventsOf(t.envB, RiAsyncEventType.SRQ_LIMIT_REACHED)[0]!), t.srqOs);
        assert.equal(ok(K.ri_srq_query(t.b.rnic, t.srq)).srq_attrs.srq_armed, false);
        // Re-arm with a new limit: the next consumption at or below it fires again.
        const m = ok(K.ri_srq_modify(t.b.rnic, t.srq, RiSrqAttrMask.LOWAT, { lowat: 1 }));
        assert.equal(m.attrs.srq_armed, true);
        assert.equal(m.attrs.lowat, 1);
        ok(postSend(t.a, null, 20n));
        await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
        await until(() => eventsOf(t.envB, RiAsyncEventType.SRQ_LIMIT_REACHED).length === 2, 'second limit event');
      } finally {
        t.done();
      }
    });

    test('RNICPI-058 ri_srq_modify with an unknown mask bit returns INVALID_PARAMETER and changes nothing', () => {
      const env = openRnic();
      const pd = allocPd(env);
      const { srq } = srqCreate(env, pd, 8, 0);
      const before = ok(K.ri_srq_query(env.rnic, srq)).srq_attrs;
      assert.equal(code(K.ri_srq_modify(env.rnic, srq, RiSrqAttrMask.LOWAT | (1 << 5), { lowat: 3 })), name(RiRet.INVALID_PARAMETER));
      assert.equal(code(K.ri_srq_modify(env.rnic, srq, 0, { lowat: 3 })), name(RiRet.INVALID_PARAMETER));
      assert.deepEqual(ok(K.ri_srq_query(env.rnic, srq)).srq_attrs, before);
      env.close();
    });

    test('RNICPI-059 ri_srq_destroy while a QP uses the SRQ returns SRQ_INUSE; after destroy the WRs left in it produce no WCs (VERBS-10.Q-S7)', async () => {
      const env = openRnic();
      const pd = allocPd(env);
      const { srq } = srqCreate(env, pd, 8, 0);
      const cq = createCq(env);
      const qp = ok(K.ri_qp_create(env.rnic, qpAttrsIn(pd, cq, cq, { srq_valid: true, srq: { srq_handle: srq } }), null, null)).qp;
      const m = regMr({ env, rnic: env.rnic, pd }, buf(64));
      ok(srqPost(env, srq, m, 1n));
      ok(srqPost(env, srq, m, 2n, 16));
      assert.equal(code(K.ri_srq_destroy(env.rnic, srq)), name(RiRet.SRQ_INUSE));
      ok(K.ri_qp_destroy(env.rnic, qp));
      ok(K.ri_srq_destroy(env.rnic, srq));
      await settle();
      assert.equal(drain(env, env.rnic, cq).length, 0, 'no flush of S-RQ WRs');
      assert.equal(code(K.ri_srq_query(env.rnic, srq)), name(RiRet.SRQ_INVALID_HANDLE));
      env.close();
    });

    test('RNICPI-060 posting to the RQ of a QP tied to an SRQ returns QP_TIED_TO_SRQ (VERBS-10.W9)', () => {
      const env = openRnic();
      const pd = allocPd(env);
      const { srq } = srqCreate(env, pd, 8, 0);
      const cq = createCq(env);
      const qp = ok(K.ri_qp_create(env.rnic, qpAttrsIn(pd, cq, cq, { srq_valid: true, srq: { srq_handle: srq } }), null, null)).qp;
      const m = regMr({ env, rnic: env.rnic, pd }, buf(16));
      assert.equal(code(K.ri_qp_post_recv(env.rnic, qp, 0, 1n, [seg(m)], 1)), name(RiRet.QP_TIED_TO_SRQ));
      const r = K.ri_qp_postrq(env.rnic, qp, [{ flags: 0, id: 1n, sg_list: [seg(m)] }]);
      assert.deepEqual([code(r), r.num_wrs], [name(RiRet.QP_TIED_TO_SRQ), 0]);
      env.close();
    });

    test('RNICPI-061 ri_srq_* on an RNIC without RI_RNIC_EXT_SRQ returns SRQ_UNSUPPORTED (VERBS-10.Q-S1)', {
      skip: 'softrdma supports S-RQs (RI_RNIC_EXT_SRQ set, max_srq > 0): there is no RNIC without them to test',
    }, () => {});

    test('VERBS-10.Q-S2 Create S-RQ with a limit greater than max WRs → SRQ_LIMIT_OUT_OF_RANGE', () => {
      const env = openRnic();
      const pd = allocPd(env);
      assert.equal(
        code(K.ri_srq_create(env.rnic, { max_wrs: 4, max_sgl: 1, lowat: 5, pd }, null, null)),
        name(RiRet.SRQ_LIMIT_OUT_OF_RANGE),
      );
      const a = ok(K.ri_rnic_query(env.rnic, 0, 1 << 20)).attrs;
      assert.equal(
        code(K.ri_srq_create(env.rnic, { max_wrs: a.max_wrs_srq + 1, max_sgl: 1, lowat: 0, pd }, null, null)),
        name(RiRet.RNIC_WR_LIMIT_EXCEEDED),
      );
      assert.equal(
        code(K.ri_srq_create(env.rnic, { max_wrs: 4, max_sgl: a.max_sgl_srq + 1, lowat: 0, pd }, null, null)),
        name(RiRet.RNIC_SG_LIMIT_EXCEEDED),
      );
      env.close();
    });

    test("VERBS-10.Q-S3 receives of two QPs sharing one S-RQ land in S-RQ buffers and complete on each QP's own CQ with that QP's identity", async () => {
      const envA = openRnic();
      const envB = openRnic();
      const pdB = allocPd(envB);
      const { srq } = srqCreate(envB, pdB, 8, 0);
      const a1 = makeSide(envA);
      const a2 = makeSide(envA);
      const b1 = makeSide(envB, { srq_valid: true, srq: { srq_handle: srq } }, { pd: pdB });
      const b2 = makeSide(envB, { srq_valid: true, srq: { srq_handle: srq } }, { pd: pdB });
      const p1 = await connect(a1, b1);
      const p2 = await connect(a2, b2);
      try {
        const sink = regMr(b1, buf(64));
        ok(srqPost(envB, srq, sink, 1n, 0));
        ok(srqPost(envB, srq, sink, 2n, 16));
        ok(postSend(a1, regMr(a1, buf(5, 0xa1)), 11n));
        const [w1] = await pollWcs(envB, b1.rnic, b1.cq, 1);
        ok(postSend(a2, regMr(a2, buf(7, 0xa2)), 12n));
        const [w2] = await pollWcs(envB, b2.rnic, b2.cq, 1);
        assert.equal(w1!.qp_os_data, b1.qpOsData);
        assert.equal(w2!.qp_os_data, b2.qpOsData);
        assert.deepEqual([w1!.bytes_transferred, w2!.bytes_transferred], [5, 7]);
        assert.deepEqual(new Set([w1!.id, w2!.id]), new Set([1n, 2n]));
        assert.equal(drain(envB, b1.rnic, b1.cq).length + drain(envB, b2.rnic, b2.cq).length, 0);
      } finally {
        envA.close();
        envB.close();
        p1.close();
        p2.close();
      }
    });

    test('VERBS-10.Q-S5 an S-RQ WQE slot becomes free only when its WC is polled', async () => {
      const t = await srqPair(2, 0);
      try {
        ok(srqPost(t.envB, t.srq, t.sink, 1n, 0));
        ok(srqPost(t.envB, t.srq, t.sink, 2n, 16));
        assert.equal(code(srqPost(t.envB, t.srq, t.sink, 3n, 32)), name(RiRet.QP_CAPACITY_EXCEEDED));
        ok(postSend(t.a, null, 10n));
        await until(() => srqAvailable(t.envB) === 1, 'one WQE consumed');
        assert.equal(code(srqPost(t.envB, t.srq, t.sink, 3n, 32)), name(RiRet.QP_CAPACITY_EXCEEDED), 'consumed but not polled');
        await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
        ok(srqPost(t.envB, t.srq, t.sink, 3n, 32));
      } finally {
        t.done();
      }
    });

    test('VERBS-10.Q-S6 one QP on the S-RQ going to Error does not flush S-RQ WQEs it has not consumed; other QPs keep working', async () => {
      const envA = openRnic();
      const envB = openRnic();
      const pdB = allocPd(envB);
      const { srq } = srqCreate(envB, pdB, 8, 0);
      const a1 = makeSide(envA);
      const a2 = makeSide(envA);
      const b1 = makeSide(envB, { srq_valid: true, srq: { srq_handle: srq } }, { pd: pdB });
      const b2 = makeSide(envB, { srq_valid: true, srq: { srq_handle: srq } }, { pd: pdB });
      const p1 = await connect(a1, b1);
      const p2 = await connect(a2, b2);
      try {
        const sink = regMr(b1, buf(64));
        ok(srqPost(envB, srq, sink, 1n, 0));
        ok(srqPost(envB, srq, sink, 2n, 16));
        ok(modifyState(b1, RiQpState.ERROR));
        await settle();
        assert.equal(drain(envB, b1.rnic, b1.cq).length, 0, 'b1 took nothing, so nothing is flushed');
        ok(postSend(a2, null, 5n));
        const [w] = await pollWcs(envB, b2.rnic, b2.cq, 1);
        assert.equal(w!.op_status, RiWcStatus.SUCCESS);
        assert.equal(w!.id, 1n, 'the S-RQ still holds both WQEs for the others');
      } finally {
        envA.close();
        envB.close();
        p1.close();
        p2.close();
      }
    });

    test('VERBS-10.Q-S8 RQ SGE PD checks use the S-RQ PD: a receive SGE in the S-RQ PD succeeds even when the QP PD differs', async () => {
      const envA = openRnic();
      const envB = openRnic();
      const qpPd = allocPd(envB);
      const srqPd = allocPd(envB);
      const { srq } = srqCreate(envB, srqPd, 8, 0);
      const a = makeSide(envA);
      const b = makeSide(envB, { srq_valid: true, srq: { srq_handle: srq } }, { pd: qpPd });
      const pair = await connect(a, b);
      try {
        const sink = regMr({ env: envB, rnic: b.rnic, pd: srqPd }, buf(16));
        ok(srqPost(envB, srq, sink, 1n));
        ok(postSend(a, regMr(a, buf(16, 0x5f)), 2n));
        const [w] = await pollWcs(envB, b.rnic, b.cq, 1);
        assert.equal(w!.op_status, RiWcStatus.SUCCESS);
        assert.ok(sink.b.bytes.every((x) => x === 0x5f));
      } finally {
        envA.close();
        envB.close();
        pair.close();
      }
    });

    test('VERBS-10.Q-S9 messages consuming S-RQ WQEs up to the QP RQ limit (rq_hiwat) → one AE "QP RQ Limit Reached" with the QP', async () => {
      const t = await srqPair(8, 0, { qp_xport: { qp_iwarp: { enable_bind: true, rq_hiwat: 2 } } });
      try {
        assert.ok('qp_iwarp' in t.b.attrs.qp_xport && t.b.attrs.qp_xport.qp_iwarp.rq_armed);
        for (let i = 0; i < 4; i++) ok(srqPost(t.envB, t.srq, t.sink, BigInt(i), i * 16));
        ok(postSend(t.a, null, 1n));
        await until(() => srqAvailable(t.envB) === 3, 'first consumed');
        await settle();
        assert.equal(eventsOf(t.envB, RiAsyncEventType.QP_RQ_LIMIT_REACHED).length, 0, 'one outstanding WQE: below the mark');
        ok(postSend(t.a, null, 2n));
        await until(() => eventsOf(t.envB, RiAsyncEventType.QP_RQ_LIMIT_REACHED).length === 1, 'QP RQ limit at 2 outstanding');
        ok(postSend(t.a, null, 3n));
        await until(() => srqAvailable(t.envB) === 1, 'third consumed');
        assert.equal(osDataOf(eventsOf(t.envB, RiAsyncEventType.QP_RQ_LIMIT_REACHED)[0]!), t.b.qpOsData);
        await settle();
        assert.equal(eventsOf(t.envB, RiAsyncEventType.QP_RQ_LIMIT_REACHED).length, 1);
      } finally {
        t.done();
      }
    });

    test('VERBS-10.Q-S10 Modify S-RQ max WRs below an armed limit → SRQ_LIMIT_OUT_OF_RANGE; shrinking below the posted WQEs → SRQ_CANNOT_SHRINK', () => {
      const env = openRnic();
      const pd = allocPd(env);
      const { srq } = srqCreate(env, pd, 8, 6);
      assert.equal(code(K.ri_srq_modify(env.rnic, srq, RiSrqAttrMask.MAX_WRS, { max_wrs: 4 })), name(RiRet.SRQ_LIMIT_OUT_OF_RANGE));
      const m = regMr({ env, rnic: env.rnic, pd }, buf(256));
      for (let i = 0; i < 5; i++) ok(srqPost(env, srq, m, BigInt(i), i * 16));
      assert.equal(
        code(K.ri_srq_modify(env.rnic, srq, RiSrqAttrMask.MAX_WRS | RiSrqAttrMask.LOWAT, { max_wrs: 4, lowat: 1 })),
        name(RiRet.SRQ_CANNOT_SHRINK),
      );
      const q = ok(K.ri_srq_query(env.rnic, srq)).srq_attrs;
      assert.deepEqual([q.max_wrs, q.lowat], [8, 6], 'all-or-nothing');
      const r = ok(K.ri_srq_modify(env.rnic, srq, RiSrqAttrMask.MAX_WRS | RiSrqAttrMask.LOWAT, { max_wrs: 16, lowat: 2 }));
      assert.ok(r.attrs.max_wrs >= 16);
      env.close();
    });

    /** Available WQEs of the RNIC's (only) S-RQ, read through ri_rnic_diag(RNIC_DUMP). */
    function srqAvailable(env: Env): number {
      const out = new Uint8Array(1 << 20);
      const r = ok(K.ri_rnic_diag(env.rnic, RiDiagOpType.RNIC_DUMP, null, out));
      return JSON.parse(new TextDecoder().decode(out.subarray(0, r.oplen))).srqs[0].available;
    }

    /** Overflows a CQ through flushes (no connection needed): raises CQ_OVERFLOW_DETECTED. */
    function overflowCq(env: Env): Side {
      const s = makeSide(env, { rq_size: 4 }, { cqSize: 1 });
      const m = regMr(s, buf(8));
      for (let i = 0; i < 3; i++) ok(K.ri_qp_post_recv(env.rnic, s.qp, 0, BigInt(i), [seg(m)], 1));
      ok(modifyState(s, RiQpState.ERROR));
      return s;
    }

    test('RNICPI-097 async events raised before ri_async_set_event_handler are not delivered later (VERBS-10.N7: a new handler replaces the old; null turns events off)', async () => {
      const env = openRnic({ asyncHandler: false });
      overflowCq(env);
      await settle();
      const got1: ri_event_record_t[] = [];
      ok(K.ri_async_set_event_handler(env.vp, (_o, e) => got1.push(e)));
      await settle();
      assert.equal(got1.length, 0, 'the earlier events were lost');
      overflowCq(env);
      await until(() => got1.length > 0, 'events after registration');
      const n1 = got1.length;
      const got2: ri_event_record_t[] = [];
      ok(K.ri_async_set_event_handler(env.vp, (_o, e) => got2.push(e)));
      overflowCq(env);
      await until(() => got2.length > 0, 'the replacement handler');
      assert.equal(got1.length, n1, 'the replaced handler gets nothing more');
      ok(K.ri_async_set_event_handler(env.vp, null));
      overflowCq(env);
      await settle();
      assert.equal(got1.length, n1);
      const n2 = got2.length;
      assert.equal(got2.length, n2);
      env.close();
    });

    test("RNICPI-098 a QP event carries the QP create os_data, a CQ event the CQ's, an SRQ event the SRQ's; callbacks get the ri_rnic_open os_data (VERBS-10.N8)", async () => {
      const env = openRnic();
      const vpOs: unknown[] = [];
      ok(
        K.ri_async_set_event_handler(env.vp, (o, e) => {
          vpOs.push(o);
          env.events.push(e);
        }),
      );
      const s = overflowCq(env);
      await until(() => eventsOf(env, RiAsyncEventType.CQ_OVERFLOW_DETECTED).length > 0, 'CQ event');
      assert.equal(osDataOf(eventsOf(env, RiAsyncEventType.CQ_OVERFLOW_DETECTED)[0]!), s.cqOsData);
      assert.ok(vpOs.every((o) => o === env.osData));
      env.close();
      const t = await srqPair(4, 1);
      try {
        for (let i = 0; i < 2; i++) ok(srqPost(t.envB, t.srq, t.sink, BigInt(i), i * 16));
        ok(postSend(t.a, null, 1n));
        await until(() => eventsOf(t.envB, RiAsyncEventType.SRQ_LIMIT_REACHED).length === 1, 'SRQ event');
        assert.equal(osDataOf(eventsOf(t.envB, RiAsyncEventType.SRQ_LIMIT_REACHED)[0]!), t.srqOs);
        ok(modifyState(t.a, RiQpState.ERROR));
        await until(() => eventsOf(t.envB, RiAsyncEventType.QP_LLQ_CONNECTION_RESET).length === 1, 'QP event');
        assert.equal(osDataOf(eventsOf(t.envB, RiAsyncEventType.QP_LLQ_CONNECTION_RESET)[0]!), t.b.qpOsData);
      } finally {
        t.done();
      }
    });

    test('RNICPI-099 on an iWARP RNIC every IB-only call (ri_ah_*, ri_mcast_*, ri_special_qp_get, ri_process_sma_mad, ri_qp_post_datagram) returns XPORT_UNSUPPORTED', () => {
      const env = openRnic();
      const s = makeSide(env);
      const r = env.rnic;
      const gid = { gid_prefix: 0n, gid_guid: 0n };
      const X = name(RiRet.XPORT_UNSUPPORTED);
      assert.equal(code(K.ri_ah_create(r, s.pd, null, null, null)), X);
      assert.equal(code(K.ri_ah_query(r, {} as never)), X);
      assert.equal(code(K.ri_ah_modify(r, {} as never, null)), X);
      assert.equal(code(K.ri_ah_destroy(r, {} as never)), X);
      assert.equal(code(K.ri_mcast_attach(r, 0xc001, gid, s.qp, null, null)), X);
      assert.equal(code(K.ri_mcast_detach(r, 0xc001, gid, s.qp)), X);
      assert.equal(code(K.ri_special_qp_get(r, 1, 0, {}, null, null)), X);
      assert.equal(code(K.ri_process_sma_mad(r, 1, new Uint8Array(256), new Uint8Array(256))), X);
      assert.equal(code(K.ri_qp_post_datagram(r, s.qp, RiWrType.SEND, RiWrFlags.SIGNALED_FLAG, 1n, [], 0, 0, {} as never, 1, 1, 0)), X);
      assert.equal(code(K.ri_rnic_modify(r, 0, null)), X);
      env.close();
    });

    test('RNICPI-100 a handle of one domain presented by another domain is rejected as invalid and does not disturb its owner', async () => {
      const env = openRnic();
      const u1 = userHandle(env);
      const u2 = ok(U.ri_rnic_get_hdl(env.vp, RiConsumerDomain.USER, null, { other: 'domain' })).rnic;
      const s = makeSide(env, {}, { rnic: u1 });
      const m = regMr(s, buf(32));
      const { srq } = srqCreate(env, s.pd, 4, 0, {}, u1);
      assert.equal(code(K.ri_pd_dealloc(u2, s.pd)), name(RiRet.PD_INVALID_HANDLE));
      assert.equal(code(K.ri_cq_poll(u2, s.cq, 1)), name(RiRet.CQ_INVALID_HANDLE));
      assert.equal(code(K.ri_cq_destroy(u2, s.cq)), name(RiRet.CQ_INVALID_HANDLE));
      assert.equal(code(K.ri_qp_query(u2, s.qp)), name(RiRet.QP_INVALID_HANDLE));
      assert.equal(code(K.ri_qp_modify(u2, s.qp, 1, { state: RiQpState.ERROR })), name(RiRet.QP_INVALID_HANDLE));
      assert.equal(code(K.ri_qp_post_send(u2, s.qp, RiWrType.SEND, 1, 1n, [], 0, 0, 0)), name(RiRet.QP_INVALID_HANDLE));
      assert.equal(code(K.ri_mr_dereg(u2, m.mr)), name(RiRet.MR_INVALID_HANDLE));
      assert.equal(code(K.ri_srq_destroy(u2, srq)), name(RiRet.SRQ_INVALID_HANDLE));
      assert.equal(code(K.ri_qp_create(u2, qpAttrsIn(s.pd, s.cq), null, null)), name(RiRet.CQ_INVALID_HANDLE));
      // The kernel domain is another domain too.
      assert.equal(code(K.ri_qp_destroy(env.rnic, s.qp)), name(RiRet.QP_INVALID_HANDLE));
      // The owner is undisturbed.
      assert.equal(state(s), RiQpState.IDLE);
      assert.equal(ok(K.ri_mr_query(u1, m.mr)).mr_info.stag_state, 1);
      ok(postSend(s, m, 1n));
      ok(modifyState(s, RiQpState.ERROR));
      assert.deepEqual(
        drain(env, u1, s.cq).map((w) => w.id),
        [1n],
      );
      env.close();
    });

    test('RNICPI-101 terminating a user domain frees all its RNIC resources (all its MRs deregistered, their pins released) before its memory could be reused', async () => {
      const env = openRnic();
      const u = userHandle(env);
      const s = makeSide(env, {}, { rnic: u });
      const b = buf(8192);
      regMr(s, b);
      srqCreate(env, s.pd, 4, 0, {}, u);
      ok(K.ri_mw_alloc(u, s.pd, 1, null, null));
      const details = () => {
        const out = new Uint8Array(1 << 16);
        const r = ok(K.ri_rnic_diag(env.rnic, RiDiagOpType.RNIC_DETAILS, null, out));
        return JSON.parse(new TextDecoder().decode(out.subarray(0, r.oplen))).resources;
      };
      assert.deepEqual(details(), { pds: 1, cqs: 1, qps: 1, srqs: 1, mrs: 1, mws: 1 });
      // The registration pinned the buffer: the kernel can map it.
      const io = ok(K.ri_mem_map(env.rnic, b.va, 8192, 'probe')).io;
      ok(K.ri_mem_unmap(env.rnic, io, 'probe'));
      assert.equal(code(K.ri_rnic_free_hdl(env.vp, u)), name(RiRet.RNIC_INUSE));
      ok(softrdmaTerminateDomain(env.vp, u));
      assert.deepEqual(details(), { pds: 0, cqs: 0, qps: 0, srqs: 0, mrs: 0, mws: 0 });
      assert.equal(code(K.ri_mem_map(env.rnic, b.va, 8192, 'probe')), name(RiRet.INVALID_PARAMETER), 'no longer pinned');
      assert.equal(code(K.ri_pd_alloc(u, null, null)), name(RiRet.RNIC_INVALID_HANDLE), 'the handle is gone');
      env.close();
    });
  });
}

/**
 * Conformance: memory windows and remote invalidation (RNICPI-056, 083, 089…092; RDMA Verbs
 * §10 MW1–MW17, Q6, I2–I4). Windows are bound on the MPA Initiator's QP (a) and accessed by
 * its peer (b).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SOFTRDMA_KERNEL_OPS as K } from '../../src/provider/softrdma.js';
import { RiRet } from '../../src/rnicpi/status.js';
import {
  RiAsyncEventType,
  RiMemFlags,
  RiMwType,
  RiQpState,
  RiRnicFlags,
  RiStagState,
  RiWcStatus,
  RiWcType,
  RiWrFlags,
  RiWrType,
  type ri_mw_handle_t,
  type ri_pd_handle_t,
} from '../../src/rnicpi/types.js';
import {
  ALL_ACCESS,
  allocPd,
  buf,
  cleanupAll,
  code,
  connect,
  deliver,
  type Env,
  makeSide,
  type Mr,
  name,
  ok,
  openRnic,
  pollWcs,
  postRecv,
  postSend,
  regMr,
  seg,
  type Side,
  state,
  twoSides,
  until,
  setConformanceTransport,
} from './helpers.js';
import { TRANSPORTS } from '../helpers/engine.js';

after(cleanupAll);

const SIG = RiWrFlags.SIGNALED_FLAG;
const RR = RiMemFlags.REMOTE_READ;
const RW = RiMemFlags.REMOTE_WRITE;
const BINDABLE = ALL_ACCESS | RiMemFlags.BINDING;

interface Mw {
  mw: ri_mw_handle_t;
  rtag: number;
}

function allocMw(s: { rnic: Side['rnic'] }, pd: ri_pd_handle_t, type: RiMwType = RiMwType.TYPE_2): Mw {
  const r = ok(K.ri_mw_alloc(s.rnic, pd, type, null, { mw: true }), 'ri_mw_alloc');
  return { mw: r.mw, rtag: r.rtag };
}

/** Posts a Bind of `w` to `[off, off+len)` of `m` with a new key; returns the window's new RTag. */
function bind(s: Side, w: Mw, m: Mr, key: number, off: number, len: number, rights: number, id = 1n): { st: RiRet; rtag: number } {
  const rtag = ((w.rtag & ~0xff) | key) >>> 0;
  const r = K.ri_qp_post_bind(s.rnic, s.qp, RiWrType.BIND, SIG, id, w.mw, rtag, m.mr, m.ltag, m.b.va + BigInt(off), len, rights);
  return { st: r.status, rtag };
}

async function bound(s: Side, w: Mw, m: Mr, key: number, off: number, len: number, rights: number): Promise<number> {
  const b = bind(s, w, m, key, off, len, rights);
  assert.equal(b.st, RiRet.SUCCESS);
  const [wc] = await pollWcs(s.env, s.rnic, s.cq, 1);
  assert.deepEqual([wc!.op_type, wc!.op_status], [RiWcType.BIND, RiWcStatus.SUCCESS], `bind completion ${wc!.op_status}`);
  return b.rtag;
}

async function bindFails(s: Side, w: Mw, m: Mr, off: number, len: number, rights: number): Promise<number> {
  assert.equal(bind(s, w, m, 0x42, off, len, rights).st, RiRet.SUCCESS);
  const [wc] = await pollWcs(s.env, s.rnic, s.cq, 1);
  assert.equal(wc!.op_type, RiWcType.BIND);
  return wc!.op_status;
}

function mwInfo(s: { rnic: Side['rnic'] }, w: Mw) {
  return ok(K.ri_mw_query(s.rnic, w.mw), 'ri_mw_query');
}

function invalidateMw(s: Side, w: Mw, rtag: number, id = 9n) {
  return K.ri_qp_post_local_invalidate(s.rnic, s.qp, RiWrType.LOCAL_INVALIDATE_MW, SIG, id, 0, rtag, w.mw);
}

function remoteWrite(s: Side, src: Mr, rtag: number, to: bigint, id = 50n) {
  return K.ri_qp_post_rdma_write(s.rnic, s.qp, RiWrType.RDMA_WRITE, SIG, id, [seg(src)], to, rtag, 1, 0);
}

function protectionEvent(env: Env): boolean {
  return env.events.some(
    (e) =>
      e.event_type === RiAsyncEventType.QP_PROTECTION_ERROR_STAG_QP_MISMATCH ||
      e.event_type === RiAsyncEventType.QP_PROTECTION_ERROR_ACCESS_VIOLATION ||
      e.event_type === RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_ACCESS_VIOLATION ||
      e.event_type === RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_INVALID_STAG ||
      e.event_type === RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_INVALID_PD,
  );
}

/** Two QPs on each side, a1/a2 sharing one PD, connected a1–b1 and a2–b2. */
async function twoPairs() {
  const envA = openRnic();
  const envB = openRnic();
  const a1 = makeSide(envA);
  const a2 = makeSide(envA, {}, { pd: a1.pd });
  const b1 = makeSide(envB);
  const b2 = makeSide(envB);
  const p1 = await connect(a1, b1);
  const p2 = await connect(a2, b2);
  await deliver(a1, b1);
  await deliver(a2, b2);
  return {
    envA,
    envB,
    a1,
    a2,
    b1,
    b2,
    p1,
    done() {
      envA.close();
      envB.close();
      p1.close();
      p2.close();
    },
  };
}

for (const transport of TRANSPORTS) {
  describe(`RNICPI conformance: memory windows [${transport}]`, () => {
    before(() => setConformanceTransport(transport));

    test('RNICPI-089 ri_mw_alloc returns an RTag in the INVALID state; after a successful Bind ri_mw_query reports VALID (VERBS-10.MW1, MW2)', async () => {
      const t = await twoSides();
      try {
        const w = allocMw(t.a, t.a.pd);
        const q0 = mwInfo(t.a, w);
        assert.equal(q0.stag_state, RiStagState.INVALID);
        assert.equal(q0.pd, t.a.pd);
        assert.equal(q0.rtag, w.rtag);
        assert.equal(q0.attr, 0, 'an unbound window has no permissions');
        const m = regMr(t.a, buf(64), BINDABLE);
        const rtag = await bound(t.a, w, m, 0x5e, 8, 32, RR);
        const q1 = mwInfo(t.a, w);
        assert.equal(q1.stag_state, RiStagState.VALID);
        assert.equal(q1.rtag, rtag, 'the key as supplied');
        assert.equal(q1.rtag & 0xff, 0x5e);
        assert.equal(q1.attr & (RR | RW), RR);
        // The peer reads through it.
        m.b.bytes.fill(0x7a, 8, 40);
        const sink = regMr(t.b, buf(32));
        ok(K.ri_qp_post_rdma_read(t.b.rnic, t.b.qp, RiWrType.RDMA_READ, SIG, 1n, [seg(sink)], m.b.va + 8n, 1, rtag));
        assert.equal((await pollWcs(t.envB, t.b.rnic, t.b.cq, 1))[0]!.op_status, RiWcStatus.SUCCESS);
        assert.ok(sink.b.bytes.every((x) => x === 0x7a));
      } finally {
        t.done();
      }
    });

    test('RNICPI-090 a Local Invalidate of a Type 1 window returns INVALID_WINDOW_TYPE; a zero-length Bind of a Type 2 window does too', () => {
      const env = openRnic();
      const s = makeSide(env);
      const m = regMr(s, buf(64), BINDABLE);
      const wide = allocMw(s, s.pd, RiMwType.TYPE_1);
      const narrow = allocMw(s, s.pd, RiMwType.TYPE_2);
      assert.equal(code(invalidateMw(s, wide, wide.rtag)), name(RiRet.INVALID_WINDOW_TYPE));
      assert.equal(bind(s, narrow, m, 1, 0, 0, RR).st, RiRet.INVALID_WINDOW_TYPE);
      // A Local Invalidate "MR" naming a window, or "MW" naming a region, is a handle error.
      assert.equal(
        code(K.ri_qp_post_local_invalidate(env.rnic, s.qp, RiWrType.LOCAL_INVALIDATE_MR, SIG, 1n, 0, 0, narrow.mw)),
        name(RiRet.MR_INVALID_HANDLE),
      );
      assert.equal(
        code(K.ri_qp_post_local_invalidate(env.rnic, s.qp, RiWrType.LOCAL_INVALIDATE_MW, SIG, 1n, 0, 0, m.mr)),
        name(RiRet.MW_INVALID_HANDLE),
      );
      env.close();
    });

    test('RNICPI-091 ri_mw_query returns every output (type, state, PD, rights, RTag)', () => {
      const env = openRnic();
      const pd = allocPd(env);
      for (const type of [RiMwType.TYPE_1, RiMwType.TYPE_2]) {
        const w = allocMw({ rnic: env.rnic }, pd, type);
        const q = mwInfo({ rnic: env.rnic }, w);
        assert.deepEqual(Object.keys(q).sort(), ['attr', 'mw_type', 'pd', 'rtag', 'stag_state', 'status']);
        assert.equal(q.mw_type, type);
        assert.equal(q.pd, pd);
        assert.equal(typeof q.rtag, 'number');
      }
      env.close();
    });

    test('RNICPI-092 after ri_mw_dealloc any call naming that window returns MW_INVALID_HANDLE', () => {
      const env = openRnic();
      const s = makeSide(env);
      const m = regMr(s, buf(64), BINDABLE);
      const w = allocMw(s, s.pd);
      ok(K.ri_mw_dealloc(env.rnic, w.mw));
      assert.equal(code(K.ri_mw_query(env.rnic, w.mw)), name(RiRet.MW_INVALID_HANDLE));
      assert.equal(code(K.ri_mw_dealloc(env.rnic, w.mw)), name(RiRet.MW_INVALID_HANDLE));
      assert.equal(bind(s, w, m, 1, 0, 8, RR).st, RiRet.MW_INVALID_HANDLE);
      assert.equal(code(invalidateMw(s, w, w.rtag)), name(RiRet.MW_INVALID_HANDLE));
      env.close();
    });

    test('RNICPI-083 ri_mr_dereg with a bound window returns WINDOWS_BOUND and leaves the MR usable (VERBS-10.M13)', async () => {
      const t = await twoSides();
      try {
        const m = regMr(t.a, buf(64, 0x21), BINDABLE);
        const w = allocMw(t.a, t.a.pd);
        await bound(t.a, w, m, 1, 0, 64, RR);
        assert.equal(code(K.ri_mr_dereg(t.a.rnic, m.mr)), name(RiRet.WINDOWS_BOUND));
        assert.equal(ok(K.ri_mr_query(t.a.rnic, m.mr)).mr_info.stag_state, RiStagState.VALID);
        const r = regMr(t.b, buf(64));
        ok(postRecv(t.b, r, 1n));
        ok(postSend(t.a, m, 2n));
        assert.equal((await pollWcs(t.envA, t.a.rnic, t.a.cq, 1))[0]!.op_status, 0);
        await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
        assert.ok(r.b.bytes.every((x) => x === 0x21));
        // Once the window is gone the MR deregisters.
        ok(K.ri_mw_dealloc(t.a.rnic, w.mw));
        ok(K.ri_mr_dereg(t.a.rnic, m.mr));
      } finally {
        t.done();
      }
    });

    test('RNICPI-056 ri_qp_destroy with a narrow (Type 2) window bound returns WINDOWS_BOUND; once it is deallocated the destroy succeeds (VERBS-10.Q6)', async () => {
      const t = await twoSides();
      try {
        const m = regMr(t.a, buf(64), BINDABLE);
        const w = allocMw(t.a, t.a.pd);
        await bound(t.a, w, m, 1, 0, 64, RR);
        assert.equal(code(K.ri_qp_destroy(t.a.rnic, t.a.qp)), name(RiRet.WINDOWS_BOUND));
        assert.equal(state(t.a), RiQpState.READY_TO_SEND, 'the refused destroy changed nothing');
        ok(K.ri_mw_dealloc(t.a.rnic, w.mw));
        ok(K.ri_qp_destroy(t.a.rnic, t.a.qp));
      } finally {
        t.done();
      }
    });

    test('VERBS-10.MW3 Bind to a zero-based MR → CE Invalid Region', async () => {
      const t = await twoSides();
      try {
        const m = regMr(t.a, buf(64), BINDABLE | RiMemFlags.ZBVA);
        assert.equal(await bindFails(t.a, allocMw(t.a, t.a.pd), m, 0, 8, RR), RiWcStatus.INVALID_BIND_MR_ERROR);
      } finally {
        t.done();
      }
    });

    test('VERBS-10.MW4 Bind to an MR without Window Binding enabled → CE Invalid Region', async () => {
      const t = await twoSides();
      try {
        const m = regMr(t.a, buf(64), ALL_ACCESS);
        assert.equal(await bindFails(t.a, allocMw(t.a, t.a.pd), m, 0, 8, RR), RiWcStatus.INVALID_BIND_MR_ERROR);
      } finally {
        t.done();
      }
    });

    test('VERBS-10.MW5 Bind with Remote Write on an MR with Local Read only → CE Access Violation', async () => {
      const t = await twoSides();
      try {
        const m = regMr(t.a, buf(64), RiMemFlags.LOCAL_READ | RiMemFlags.BINDING);
        assert.equal(await bindFails(t.a, allocMw(t.a, t.a.pd), m, 0, 8, RW), RiWcStatus.ACCESS_VIOLATION_ERROR);
      } finally {
        t.done();
      }
    });

    test('VERBS-10.MW6 Bind with a range one byte beyond the MR → CE Base & Bounds Violation', async () => {
      const t = await twoSides();
      try {
        const m = regMr(t.a, buf(64), BINDABLE);
        assert.equal(await bindFails(t.a, allocMw(t.a, t.a.pd), m, 1, 64, RR), RiWcStatus.BASE_BOUNDS_VIOLATION_ERROR);
      } finally {
        t.done();
      }
    });

    test('VERBS-10.MW7 Bind on a QP without Bind enabled → CE', async () => {
      const t = await twoSides({ qp_xport: { qp_iwarp: { enable_bind: false } } });
      try {
        const m = regMr(t.a, buf(64), BINDABLE);
        assert.notEqual(await bindFails(t.a, allocMw(t.a, t.a.pd), m, 0, 8, RR), RiWcStatus.SUCCESS);
      } finally {
        t.done();
      }
    });

    test('VERBS-10.MW8 Bind where MW, MR and QP are not all in one PD → CE Invalid PD', async () => {
      const t = await twoSides();
      try {
        const m = regMr(t.a, buf(64), BINDABLE);
        const otherPd = allocPd(t.envA);
        assert.equal(await bindFails(t.a, allocMw(t.a, otherPd), m, 0, 8, RR), RiWcStatus.INVALID_PD_ERROR);
      } finally {
        t.done();
      }
    });

    test('VERBS-10.MW9 binding an MW that is already Valid → CE "STag not in Invalid state"', async () => {
      const t = await twoSides();
      try {
        const m = regMr(t.a, buf(64), BINDABLE);
        const w = allocMw(t.a, t.a.pd);
        await bound(t.a, w, m, 1, 0, 8, RR);
        assert.equal(await bindFails(t.a, w, m, 0, 8, RR), RiWcStatus.STAG_NOT_IN_INVALID_STATE_ERROR);
      } finally {
        t.done();
      }
    });

    test('VERBS-10.MW10 a remote access through a narrow MW arriving on a different QP of the same PD → protection error', async () => {
      const t = await twoPairs();
      try {
        const m = regMr(t.a1, buf(64, 0x13), BINDABLE);
        const w = allocMw(t.a1, t.a1.pd);
        const rtag = await bound(t.a1, w, m, 2, 0, 64, RR | RW);
        ok(remoteWrite(t.b2, regMr(t.b2, buf(8, 0xee)), rtag, m.b.va));
        await until(() => protectionEvent(t.envA), 'protection AE on a2');
        assert.ok(m.b.bytes.every((x) => x === 0x13));
      } finally {
        t.done();
      }
    });

    test('RNICPI wide (Type 1) windows are supported (WIDE_WINDOWS_SUPPORTED): valid on every QP of the PD', async () => {
      const t = await twoPairs();
      try {
        assert.ok(ok(K.ri_rnic_query(t.a1.rnic, 0, 1 << 20)).attrs.rnic_flags & RiRnicFlags.WIDE_WINDOWS_SUPPORTED);
        const m = regMr(t.a1, buf(64), BINDABLE);
        const w = allocMw(t.a1, t.a1.pd, RiMwType.TYPE_1);
        const rtag = await bound(t.a1, w, m, 3, 0, 64, RW);
        // Through the other connection (QP a2, same PD): allowed for a wide window.
        ok(remoteWrite(t.b2, regMr(t.b2, buf(8, 0x6b)), rtag, m.b.va));
        await pollWcs(t.envB, t.b2.rnic, t.b2.cq, 1);
        await deliver(t.b2, t.a2);
        assert.ok(m.b.bytes.subarray(0, 8).every((x) => x === 0x6b));
        // Wide windows do not pin the QP: the binding QP may be destroyed.
        ok(K.ri_qp_destroy(t.a1.rnic, t.a1.qp));
      } finally {
        t.done();
      }
    });

    test('VERBS-10.MW11 a remote write through an MW with Remote Write bound to an MR with no remote rights succeeds', async () => {
      const t = await twoSides();
      try {
        const m = regMr(t.a, buf(64), RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE | RiMemFlags.BINDING);
        const w = allocMw(t.a, t.a.pd);
        const rtag = await bound(t.a, w, m, 4, 16, 16, RW);
        ok(remoteWrite(t.b, regMr(t.b, buf(16, 0x99)), rtag, m.b.va + 16n));
        assert.equal((await pollWcs(t.envB, t.b.rnic, t.b.cq, 1))[0]!.op_status, 0);
        await deliver(t.b, t.a);
        assert.ok(m.b.bytes.subarray(16, 32).every((x) => x === 0x99));
        assert.ok(m.b.bytes.subarray(0, 16).every((x) => x === 0));
      } finally {
        t.done();
      }
    });

    test('VERBS-10.MW12 a remote read through an MW that has only Remote Write → protection error', async () => {
      const t = await twoSides();
      try {
        const m = regMr(t.a, buf(64), BINDABLE);
        const w = allocMw(t.a, t.a.pd);
        const rtag = await bound(t.a, w, m, 5, 0, 64, RW);
        ok(K.ri_qp_post_rdma_read(t.b.rnic, t.b.qp, RiWrType.RDMA_READ, SIG, 1n, [seg(regMr(t.b, buf(8)))], m.b.va, 1, rtag));
        await until(() => protectionEvent(t.envA), 'IRRQ access violation on a');
      } finally {
        t.done();
      }
    });

    test('VERBS-10.MW13 an MW access after a successful Invalidate Local STag on it → protection error', async () => {
      const t = await twoSides();
      try {
        const m = regMr(t.a, buf(64, 0x31), BINDABLE);
        const w = allocMw(t.a, t.a.pd);
        const rtag = await bound(t.a, w, m, 6, 0, 64, RR | RW);
        ok(invalidateMw(t.a, w, rtag));
        assert.equal((await pollWcs(t.envA, t.a.rnic, t.a.cq, 1))[0]!.op_status, 0);
        assert.equal(mwInfo(t.a, w).stag_state, RiStagState.INVALID);
        ok(remoteWrite(t.b, regMr(t.b, buf(8, 0xee)), rtag, m.b.va));
        await until(() => protectionEvent(t.envA), 'protection AE');
        assert.ok(m.b.bytes.every((x) => x === 0x31));
      } finally {
        t.done();
      }
    });

    test('VERBS-10.MW14 an Invalidate Local STag of a Valid MW from a QP other than the one it is bound to → CE', async () => {
      const t = await twoPairs();
      try {
        const m = regMr(t.a1, buf(64), BINDABLE);
        const w = allocMw(t.a1, t.a1.pd);
        const rtag = await bound(t.a1, w, m, 7, 0, 64, RR);
        ok(invalidateMw(t.a2, w, rtag));
        const [wc] = await pollWcs(t.envA, t.a2.rnic, t.a2.cq, 1);
        assert.notEqual(wc!.op_status, RiWcStatus.SUCCESS);
        assert.equal(mwInfo(t.a1, w).stag_state, RiStagState.VALID, 'still bound');
      } finally {
        t.done();
      }
    });

    test("VERBS-10.MW15 after invalidation the MW can be re-bound from any QP of the invalidating QP's PD", async () => {
      const t = await twoPairs();
      try {
        const m = regMr(t.a1, buf(64), BINDABLE);
        const w = allocMw(t.a1, t.a1.pd);
        const rtag = await bound(t.a1, w, m, 8, 0, 64, RR);
        ok(invalidateMw(t.a1, w, rtag));
        assert.equal((await pollWcs(t.envA, t.a1.rnic, t.a1.cq, 1))[0]!.op_status, 0);
        const rtag2 = await bound(t.a2, w, m, 9, 0, 32, RR);
        assert.equal(mwInfo(t.a1, w).rtag, rtag2);
        // The new binding belongs to a2: b2 reads through it.
        const sink = regMr(t.b2, buf(32));
        ok(K.ri_qp_post_rdma_read(t.b2.rnic, t.b2.qp, RiWrType.RDMA_READ, SIG, 1n, [seg(sink)], m.b.va, 1, rtag2));
        assert.equal((await pollWcs(t.envB, t.b2.rnic, t.b2.cq, 1))[0]!.op_status, 0);
      } finally {
        t.done();
      }
    });

    test('VERBS-10.MW16 a Bind produces no traffic on the wire', {
      skip: transport !== 'iwarp' && 'counts the octets written to the TCP socket',
    }, async () => {
      const t = await twoSides();
      try {
        const m = regMr(t.a, buf(64), BINDABLE);
        const sock = t.pair.streamA.socket;
        const before = sock.bytesWritten;
        await bound(t.a, allocMw(t.a, t.a.pd), m, 10, 0, 64, RR);
        assert.equal(sock.bytesWritten, before);
      } finally {
        t.done();
      }
    });

    test('VERBS-10.MW17 after a rebind with a new key, an access with the old key fails', async () => {
      const t = await twoSides();
      try {
        const m = regMr(t.a, buf(64, 0x41), BINDABLE);
        const w = allocMw(t.a, t.a.pd);
        const old = await bound(t.a, w, m, 0x20, 0, 64, RR | RW);
        ok(invalidateMw(t.a, w, old));
        await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
        const fresh = await bound(t.a, w, m, 0x21, 0, 64, RR | RW);
        assert.notEqual(fresh, old);
        ok(remoteWrite(t.b, regMr(t.b, buf(8, 0xee)), old, m.b.va));
        await until(() => protectionEvent(t.envA), 'old key refused');
        assert.ok(m.b.bytes.every((x) => x === 0x41));
      } finally {
        t.done();
      }
    });

    /** a sends a Send with Invalidate naming `rtag` to b; returns b's receive WC and b's Terminate bytes. */
    async function sendInvalidate(t: Awaited<ReturnType<typeof twoSides>>, rtag: number) {
      ok(postRecv(t.b, regMr(t.b, buf(8)), 1n));
      ok(K.ri_qp_post_send(t.a.rnic, t.a.qp, RiWrType.SEND_INVALIDATE, SIG, 2n, [], rtag, 0, 0));
      const [wc] = await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
      await until(() => state(t.b) !== RiQpState.READY_TO_SEND, 'receiver terminated');
      const iw = ok(K.ri_qp_query(t.b.rnic, t.b.qp)).attrs.qp_xport;
      assert.ok('qp_iwarp' in iw);
      return { wc: wc!, term: iw.qp_iwarp.terminate_buffer };
    }

    test('VERBS-10.I2 a Send with Invalidate naming an MR with only local rights → receiver WC "STag to invalidate" error and Terminate 0x0102', async () => {
      const t = await twoSides();
      try {
        const target = regMr(t.b, buf(8), RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE);
        const { wc, term } = await sendInvalidate(t, target.ltag);
        assert.equal(wc.op_status, RiWcStatus.STAG_INVALIDATE_ERROR);
        assert.deepEqual([term[0], term[1]], [0x01, 0x02]);
        assert.equal(ok(K.ri_mr_query(t.b.rnic, target.mr)).mr_info.stag_state, RiStagState.VALID);
      } finally {
        t.done();
      }
    });

    test('VERBS-10.I3 a Send with Invalidate naming an MR in another PD → the receiver terminates with 0x0103 (RNIC with discloseNotAssociated)', async () => {
      const t = await twoSides({}, {}, { configB: { discloseNotAssociated: true } });
      try {
        const pd2 = allocPd(t.envB);
        const target = regMr({ env: t.envB, rnic: t.b.rnic, pd: pd2 }, buf(8));
        const { term } = await sendInvalidate(t, target.rtag!);
        assert.deepEqual([term[0], term[1]], [0x01, 0x03]);
      } finally {
        t.done();
      }
    });

    test('VERBS-10.I3 by default the peer is told 0x0100 "Invalid STag", as for an STag that does not exist (no STag oracle); the local event still says STag/QP mismatch', async () => {
      const t = await twoSides();
      try {
        const pd2 = allocPd(t.envB);
        const target = regMr({ env: t.envB, rnic: t.b.rnic, pd: pd2 }, buf(8));
        const { term } = await sendInvalidate(t, target.rtag!);
        assert.deepEqual([term[0], term[1]], [0x01, 0x00]);
        assert.ok(t.envB.events.some((e) => e.event_type === RiAsyncEventType.QP_PROTECTION_ERROR_STAG_QP_MISMATCH));
      } finally {
        t.done();
      }
    });

    test('VERBS-10.I4 a Send with Invalidate naming an MR with a bound MW → the receiver terminates with 0x0109', async () => {
      const t = await twoSides();
      try {
        // The window is bound on b's QP: b runs SQ work once a's first FPDU arrived (done by twoSides).
        const target = regMr(t.b, buf(64), BINDABLE);
        const w = allocMw(t.b, t.b.pd);
        await bound(t.b, w, target, 1, 0, 8, RR);
        const { term } = await sendInvalidate(t, target.rtag!);
        assert.deepEqual([term[0], term[1]], [0x01, 0x09]);
      } finally {
        t.done();
      }
    });
  });
}

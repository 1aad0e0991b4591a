/**
 * Conformance: posting, completions and the data path (RNICPI-062…078; RDMA Verbs §10 W*,
 * S21, S22, D*).
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { SOFTRDMA_KERNEL_OPS as K } from '../../src/provider/softrdma.js';
import { RiRet } from '../../src/rnicpi/status.js';
import {
  RiAsyncEventType,
  RiCmpltNotifyType,
  RiMemFlags,
  RiMwType,
  RiQpState,
  RiRnicFlags,
  RiWcFlags,
  RiWcStatus,
  RiWcType,
  RiWrFlags,
  RiWrType,
  type ri_data_seg_t,
  type ri_wr_t,
} from '../../src/rnicpi/types.js';
import {
  ALL_ACCESS,
  allocPd,
  buf,
  bufOf,
  cleanupAll,
  code,
  createCq,
  drain,
  makeSide,
  modifyState,
  name,
  ok,
  openRnic,
  pollWcs,
  postRecv,
  postSend,
  regMr,
  seg,
  settle,
  state,
  twoSides,
  until,
  userHandle,
  transportTest,
} from './helpers.js';

after(cleanupAll);

const SIG = RiWrFlags.SIGNALED_FLAG;

function sendWr(id: bigint, sg: ri_data_seg_t[] = [], flags: number = SIG): ri_wr_t {
  return { type: RiWrType.SEND, flags, id, sg_list: sg };
}

test('RNICPI-062 a post list whose 3rd WR is invalid returns the error with num_wrs 2, and exactly WRs 1-2 are queued (VERBS-10.W1)', () => {
  const env = openRnic();
  const s = makeSide(env);
  const list: ri_wr_t[] = [sendWr(1n), sendWr(2n), { type: 99 as RiWrType, flags: SIG, id: 3n } as never, sendWr(4n), sendWr(5n)];
  const r = K.ri_qp_postsq(env.rnic, s.qp, list);
  assert.equal(code(r), name(RiRet.WR_INVALID_TYPE));
  assert.equal(r.num_wrs, 2);
  ok(modifyState(s, RiQpState.ERROR));
  assert.deepEqual(
    drain(env, s.rnic, s.cq).map((w) => w.id),
    [1n, 2n],
  );
  // The receive list behaves alike.
  const s2 = makeSide(env);
  const m = regMr(s2, buf(8));
  const rr = K.ri_qp_postrq(env.rnic, s2.qp, [
    { flags: 0, id: 1n, sg_list: [seg(m)] },
    { flags: 0, id: 2n, sg_list: [seg(m)] },
    { flags: RiWrFlags.SOLICITED_EVENT_FLAG, id: 3n, sg_list: [seg(m)] },
  ]);
  assert.deepEqual([code(rr), rr.num_wrs], [name(RiRet.WR_INVALID_FLAGS), 2]);
  env.close();
});

transportTest('RNICPI-063 WRs are executed and completed in array order (VERBS-10.W6)', async () => {
  const t = await twoSides();
  try {
    const mb = regMr(t.b, buf(64));
    ok(
      K.ri_qp_postrq(
        t.b.rnic,
        t.b.qp,
        [1, 2, 3, 4].map((i) => ({ flags: 0, id: BigInt(i), sg_list: [seg(mb, (i - 1) * 16, 16)] })),
      ),
    );
    const ma = regMr(t.a, bufOf(new Uint8Array(64).map((_, i) => i)));
    const list = [0, 1, 2, 3].map((i) => sendWr(BigInt(10 + i), [seg(ma, i * 16, i + 1)]));
    ok(K.ri_qp_postsq(t.a.rnic, t.a.qp, list));
    assert.deepEqual(
      (await pollWcs(t.envA, t.a.rnic, t.a.cq, 4)).map((w) => w.id),
      [10n, 11n, 12n, 13n],
    );
    const rq = await pollWcs(t.envB, t.b.rnic, t.b.cq, 4);
    assert.deepEqual(
      rq.map((w) => [w.id, w.bytes_transferred]),
      [
        [1n, 1],
        [2n, 2],
        [3n, 3],
        [4n, 4],
      ],
    );
  } finally {
    t.done();
  }
});

transportTest('RNICPI-064 changing a WR array after ri_qp_postsq returns does not affect the posted WRs', async () => {
  const t = await twoSides();
  try {
    const mb = regMr(t.b, buf(64));
    ok(postRecv(t.b, mb, 1n));
    const ma = regMr(t.a, buf(64, 0x44));
    const sg = [seg(ma, 0, 20)];
    const wr = { type: RiWrType.SEND, flags: SIG, id: 7n, sg_list: sg } as { -readonly [k in keyof ri_wr_t]: unknown };
    ok(K.ri_qp_postsq(t.a.rnic, t.a.qp, [wr as ri_wr_t]));
    wr.id = 99n;
    (sg as { len: number }[])[0]!.len = 64;
    sg.push(seg(ma, 0, 8));
    const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    assert.equal(wc!.id, 7n);
    const [rwc] = await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
    assert.equal(rwc!.bytes_transferred, 20);
  } finally {
    t.done();
  }
});

transportTest(
  'RNICPI-065 RI_WR_LOCAL_SOLICITED_FLAG without RI_WR_SIGNALED_FLAG is ignored (with it, the RNIC raises the event: LOCAL_SOLICITED_EVENT)',
  async () => {
    const t = await twoSides({}, {}, { handlerId: true });
    try {
      const attrs = ok(K.ri_rnic_query(t.a.rnic, 0, 1 << 20)).attrs;
      assert.ok(attrs.rnic_flags & RiRnicFlags.LOCAL_SOLICITED_EVENT);
      const mb = regMr(t.b, buf(64));
      for (let i = 1n; i <= 3n; i++) ok(postRecv(t.b, mb, i));
      const ma = regMr(t.a, buf(8));
      ok(K.ri_cq_req_notification(t.a.rnic, t.a.cq, RiCmpltNotifyType.SOLICITED));
      ok(postSend(t.a, ma, 1n, RiWrFlags.LOCAL_SOLICITED_FLAG)); // unsignaled: flag ignored
      ok(postSend(t.a, ma, 2n, SIG));
      const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
      assert.equal(wc!.id, 2n, 'the unsignaled WR produced no WC');
      await settle();
      assert.equal(t.envA.cqCalls.length, 0);
      ok(postSend(t.a, ma, 3n, SIG | RiWrFlags.LOCAL_SOLICITED_FLAG));
      await until(() => t.envA.cqCalls.length === 1, 'local solicited event');
      const [wc3] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
      assert.ok(wc3!.flags & RiWcFlags.LOCAL_SOLICITED);
    } finally {
      t.done();
    }
  },
);

test('RNICPI-066 receive posts with flags other than LOCAL_SOLICITED/COALESCE return WR_INVALID_FLAGS', () => {
  const env = openRnic();
  const s = makeSide(env);
  const m = regMr(s, buf(8));
  const srq = ok(K.ri_srq_create(env.rnic, { max_wrs: 4, max_sgl: 1, lowat: 0, pd: s.pd }, null, null)).srq;
  for (const f of [SIG, RiWrFlags.SOLICITED_EVENT_FLAG, RiWrFlags.READ_FENCE_FLAG, RiWrFlags.CONSUMER_FLAG0]) {
    assert.equal(code(K.ri_qp_post_recv(env.rnic, s.qp, f, 1n, [seg(m)], 1)), name(RiRet.WR_INVALID_FLAGS));
    assert.equal(code(K.ri_srq_post_recv(env.rnic, srq, f, 1n, [seg(m)], 1)), name(RiRet.WR_INVALID_FLAGS));
  }
  const okFlags = RiWrFlags.LOCAL_SOLICITED_FLAG | RiWrFlags.COALESCE_FLAG;
  ok(K.ri_qp_post_recv(env.rnic, s.qp, okFlags, 1n, [seg(m)], 1));
  ok(K.ri_srq_post_recv(env.rnic, srq, okFlags, 1n, [seg(m)], 1));
  env.close();
});

test('RNICPI-067 an RDMA_READ_LOCAL_INVALIDATE WR with 2 SGEs returns WR_SG_INVALID_FORMAT', () => {
  const env = openRnic();
  const s = makeSide(env);
  const m = regMr(s, buf(64));
  const r = K.ri_qp_post_rdma_read(
    env.rnic,
    s.qp,
    RiWrType.RDMA_READ_LOCAL_INVALIDATE,
    SIG,
    1n,
    [seg(m, 0, 8), seg(m, 8, 8)],
    0x1000n,
    2,
    0x1234,
  );
  assert.equal(code(r), name(RiRet.WR_SG_INVALID_FORMAT));
  ok(K.ri_qp_post_rdma_read(env.rnic, s.qp, RiWrType.RDMA_READ_LOCAL_INVALIDATE, SIG, 2n, [seg(m, 0, 8)], 0x1000n, 1, 0x1234));
  env.close();
});

transportTest(
  'RNICPI-068 SQ posts: Idle queues them (softrdma decision, spec-notes), Terminate refuses with QP_INVALID_STATE, Error accepts and flush-completes',
  async () => {
    const env = openRnic();
    const s = makeSide(env);
    ok(postSend(s, null, 1n), 'Idle: accepted and queued (RDMA Verbs §6.2 Idle, §13.1)');
    await settle();
    assert.equal(code(K.ri_cq_poll(env.rnic, s.cq, 4)), name(RiRet.CQ_EMPTY), 'never processed in Idle');
    ok(modifyState(s, RiQpState.ERROR));
    ok(postSend(s, null, 2n), 'Error never refuses');
    ok(K.ri_qp_post_recv(env.rnic, s.qp, 0, 3n, [], 0));
    assert.deepEqual(
      drain(env, s.rnic, s.cq).map((w) => [w.id, w.op_status]),
      [
        [1n, RiWcStatus.WR_FLUSHED_ERROR],
        [2n, RiWcStatus.WR_FLUSHED_ERROR],
        [3n, RiWcStatus.WR_FLUSHED_ERROR],
      ],
    );
    env.close();
    const t = await twoSides();
    try {
      ok(modifyState(t.a, RiQpState.TERMINATE));
      assert.equal(code(postSend(t.a, null, 4n)), name(RiRet.QP_INVALID_STATE));
      assert.equal(code(K.ri_qp_post_recv(t.a.rnic, t.a.qp, 0, 5n, [], 0)), name(RiRet.QP_INVALID_STATE));
    } finally {
      t.done();
    }
  },
);

transportTest('RNICPI-069 a post with RI_WR_COALESCE_FLAG clear makes all earlier coalesced WRs visible to the engine', async () => {
  const t = await twoSides();
  try {
    const mb = regMr(t.b, buf(64));
    for (let i = 1n; i <= 3n; i++) ok(postRecv(t.b, mb, i));
    const ma = regMr(t.a, buf(8));
    ok(postSend(t.a, ma, 1n, SIG | RiWrFlags.COALESCE_FLAG));
    ok(postSend(t.a, ma, 2n, SIG | RiWrFlags.COALESCE_FLAG));
    ok(postSend(t.a, ma, 3n, SIG));
    assert.deepEqual(
      (await pollWcs(t.envA, t.a.rnic, t.a.cq, 3)).map((w) => w.id),
      [1n, 2n, 3n],
    );
    assert.equal((await pollWcs(t.envB, t.b.rnic, t.b.cq, 3)).length, 3);
  } finally {
    t.done();
  }
});

transportTest('RNICPI-070 an unsignaled successful WR produces no WC; an unsignaled failing WR does (VERBS-10.W4)', async () => {
  const t = await twoSides();
  try {
    const mb = regMr(t.b, buf(64));
    for (let i = 1n; i <= 3n; i++) ok(postRecv(t.b, mb, i));
    const ma = regMr(t.a, buf(8));
    ok(postSend(t.a, ma, 1n, 0));
    ok(postSend(t.a, ma, 2n, SIG));
    assert.deepEqual(
      (await pollWcs(t.envA, t.a.rnic, t.a.cq, 1)).map((w) => w.id),
      [2n],
    );
    // Unsignaled, with an SGE naming a bogus STag: a completion error WC appears anyway.
    ok(K.ri_qp_post_send(t.a.rnic, t.a.qp, RiWrType.SEND, 0, 3n, [{ addr: ma.b.va, tag: (ma.ltag ^ 0x55) >>> 0, len: 8 }], 0, 1, 0));
    const [e] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    assert.equal(e!.id, 3n);
    assert.equal(e!.op_status, RiWcStatus.INVALID_STAG_ERROR);
    await settle();
    assert.equal(drain(t.envA, t.a.rnic, t.a.cq).length, 0, 'no WC for the unsignaled success');
  } finally {
    t.done();
  }
});

transportTest(
  'RNICPI-071 every WC carries the WR 64-bit id and a valid op_status, error completions included (VERBS-10.S21, S22: one error WC, every later WR Flushed)',
  async () => {
    const t = await twoSides();
    try {
      const ma = regMr(t.a, buf(8));
      const big = 0xfedc_ba98_7654_3210n;
      ok(
        K.ri_qp_postsq(t.a.rnic, t.a.qp, [
          sendWr(big, [{ addr: ma.b.va, tag: ma.ltag, len: 9 }], 0), // one byte past the MR: fails
          sendWr(big + 1n, [seg(ma)], 0), // unsignaled, flushed
          sendWr(big + 2n, [seg(ma)], SIG),
        ]),
      );
      const wcs = await pollWcs(t.envA, t.a.rnic, t.a.cq, 3);
      assert.deepEqual(
        wcs.map((w) => [w.id, w.op_status]),
        [
          [big, RiWcStatus.BASE_BOUNDS_VIOLATION_ERROR],
          [big + 1n, RiWcStatus.WR_FLUSHED_ERROR],
          [big + 2n, RiWcStatus.WR_FLUSHED_ERROR],
        ],
      );
      assert.ok(wcs.every((w) => w.op_type === RiWcType.SEND));
      await until(() => state(t.a) === RiQpState.ERROR, 'Error');
      assert.equal(
        wcs.filter((w) => w.op_status !== RiWcStatus.SUCCESS && w.op_status !== RiWcStatus.WR_FLUSHED_ERROR).length,
        1,
        'at most one WC other than Success/Flushed',
      );
    } finally {
      t.done();
    }
  },
);

transportTest(
  'RNICPI-072 Send and Send-with-Invalidate complete with op_type SEND; receives with DATA_RECEIVED (VERBS-10.W18)',
  async () => {
    const t = await twoSides({}, {}, { configB: { remoteInvalidateRegistered: true } });
    try {
      const mb = regMr(t.b, buf(16));
      const target = regMr(t.b, buf(16));
      ok(postRecv(t.b, mb, 1n));
      ok(postRecv(t.b, mb, 2n));
      const ma = regMr(t.a, buf(8));
      ok(K.ri_qp_post_send(t.a.rnic, t.a.qp, RiWrType.SEND, SIG, 10n, [seg(ma)], 0, 1, 0));
      ok(K.ri_qp_post_send(t.a.rnic, t.a.qp, RiWrType.SEND_INVALIDATE, SIG, 11n, [seg(ma)], target.rtag!, 1, 0));
      assert.deepEqual(
        (await pollWcs(t.envA, t.a.rnic, t.a.cq, 2)).map((w) => [w.id, w.op_type]),
        [
          [10n, RiWcType.SEND],
          [11n, RiWcType.SEND],
        ],
      );
      assert.deepEqual(
        (await pollWcs(t.envB, t.b.rnic, t.b.cq, 2)).map((w) => w.op_type),
        [RiWcType.DATA_RECEIVED, RiWcType.DATA_RECEIVED],
      );
    } finally {
      t.done();
    }
  },
);

transportTest(
  'RNICPI-073 a received Send-with-Invalidate sets RTAG_INVALIDATE and invalidated_rtag, and that STag is invalid when the WC is polled (VERBS-10.I1, I5; RNIC with remoteInvalidateRegistered)',
  async () => {
    const t = await twoSides({}, {}, { configB: { remoteInvalidateRegistered: true } });
    try {
      const mb = regMr(t.b, buf(16));
      const target = regMr(t.b, buf(16));
      ok(postRecv(t.b, mb, 1n));
      ok(K.ri_qp_post_send(t.a.rnic, t.a.qp, RiWrType.SEND_INVALIDATE, SIG, 1n, [], target.rtag!, 0, 0));
      const [wc] = await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
      assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
      assert.ok(wc!.flags & RiWcFlags.RTAG_INVALIDATE);
      assert.equal(wc!.invalidated_rtag, target.rtag);
      assert.equal(ok(K.ri_mr_query(t.b.rnic, target.mr)).mr_info.stag_state, 0, 'INVALID');
    } finally {
      t.done();
    }
  },
);

transportTest('RNICPI-074 bytes_transferred of a receive WC equals the payload length (VERBS-10.W12)', async () => {
  const t = await twoSides();
  try {
    const mb = regMr(t.b, buf(300_000));
    const sizes = [1, 100, 4096, 70_000, 200_000];
    for (let i = 0; i < sizes.length; i++) ok(postRecv(t.b, mb, BigInt(i)));
    const ma = regMr(t.a, buf(200_000, 9));
    for (const n of sizes) {
      // Two SGEs per Send: the count is the sum.
      const h = n >> 1;
      ok(K.ri_qp_post_send(t.a.rnic, t.a.qp, RiWrType.SEND, SIG, 1n, [seg(ma, 0, h), seg(ma, h, n - h)], 0, 2, 0));
    }
    const wcs = await pollWcs(t.envB, t.b.rnic, t.b.cq, sizes.length);
    assert.deepEqual(
      wcs.map((w) => w.bytes_transferred),
      sizes,
    );
  } finally {
    t.done();
  }
});

transportTest('RNICPI-075 consumer flags 0/1 set on a WR appear in the WC flags when RI_RNIC_CONSUMERx_OPAQUE is reported', async () => {
  const t = await twoSides();
  try {
    const f = ok(K.ri_rnic_query(t.a.rnic, 0, 1 << 20)).attrs.rnic_flags;
    assert.ok(f & RiRnicFlags.CONSUMER0_OPAQUE && f & RiRnicFlags.CONSUMER1_OPAQUE);
    const mb = regMr(t.b, buf(8));
    for (let i = 0; i < 3; i++) ok(postRecv(t.b, mb, BigInt(i)));
    ok(postSend(t.a, null, 1n, SIG | RiWrFlags.CONSUMER_FLAG0));
    ok(postSend(t.a, null, 2n, SIG | RiWrFlags.CONSUMER_FLAG1));
    ok(postSend(t.a, null, 3n, SIG));
    const wcs = await pollWcs(t.envA, t.a.rnic, t.a.cq, 3);
    const pass = RiWcFlags.CONSUMER0 | RiWcFlags.CONSUMER1;
    assert.deepEqual(
      wcs.map((w) => w.flags & pass),
      [RiWcFlags.CONSUMER0, RiWcFlags.CONSUMER1, 0],
    );
  } finally {
    t.done();
  }
});

transportTest('RNICPI-076 qp_os_data in a WC equals the os_data given to ri_qp_create (sender and receiver)', async () => {
  const t = await twoSides();
  try {
    ok(postRecv(t.b, regMr(t.b, buf(8)), 1n));
    ok(postSend(t.a, null, 2n));
    const [s] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    const [r] = await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
    assert.equal(s!.qp_os_data, t.a.qpOsData);
    assert.equal(r!.qp_os_data, t.b.qpOsData);
    assert.equal(s!.cq_os_data, t.a.cqOsData);
    assert.equal(r!.cq_os_data, t.b.cqOsData);
  } finally {
    t.done();
  }
});

test('RNICPI-077 Fast-Register from a non-privileged consumer returns NO_PERMISSION', () => {
  const env = openRnic();
  const u = userHandle(env);
  const pd = allocPd(env, u);
  const cq = createCq(env, 8, 0, null, u);
  const s = makeSide(env, {}, { rnic: u, pd, cq });
  const m = regMr(s, buf(4096));
  const r = K.ri_qp_post_fmr(
    u,
    s.qp,
    RiWrType.FAST_REGISTER,
    SIG,
    1n,
    {
      common: { va: 0n, length: 4096, mem_attr: RiMemFlags.LOCAL_WRITE, pd },
      phys_buf_list: [0x1000_0000n],
      pble_size: 4096,
      address_offset: 0,
    },
    m.ltag,
    m.ltag,
    m.mr,
  );
  assert.equal(code(r), name(RiRet.NO_PERMISSION));
  ok(modifyState(s, RiQpState.ERROR));
  assert.equal(drain(env, u, cq).length, 0, 'nothing was queued');
  env.close();
});

test('VERBS-10.W2 posting into a full SQ or RQ → QP_CAPACITY_EXCEEDED', () => {
  const env = openRnic();
  const s = makeSide(env, { sq_size: 2, rq_size: 3 });
  const m = regMr(s, buf(8));
  ok(postSend(s, null, 1n));
  ok(postSend(s, null, 2n));
  assert.equal(code(postSend(s, null, 3n)), name(RiRet.QP_CAPACITY_EXCEEDED));
  for (let i = 0n; i < 3n; i++) ok(postRecv(s, m, i));
  assert.equal(code(postRecv(s, m, 9n)), name(RiRet.QP_CAPACITY_EXCEEDED));
  env.close();
});

transportTest(
  'VERBS-10.W3 a Signaled WR slot is not reusable until its WC is polled: with depth D, D posts succeed and post D+1 fails',
  async () => {
    const t = await twoSides({ sq_size: 2 });
    try {
      const mb = regMr(t.b, buf(8));
      for (let i = 0n; i < 3n; i++) ok(postRecv(t.b, mb, i));
      ok(postSend(t.a, null, 1n));
      ok(postSend(t.a, null, 2n));
      await pollWcs(t.envB, t.b.rnic, t.b.cq, 2); // both executed
      assert.equal(code(postSend(t.a, null, 3n)), name(RiRet.QP_CAPACITY_EXCEEDED), 'completed but not polled');
      await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
      ok(postSend(t.a, null, 3n));
    } finally {
      t.done();
    }
  },
);

transportTest('VERBS-10.W5 an Unsignaled WR slot is freed once a later Signaled WR on the same SQ has been polled', async () => {
  const t = await twoSides({ sq_size: 2 });
  try {
    const mb = regMr(t.b, buf(8));
    for (let i = 0n; i < 4n; i++) ok(postRecv(t.b, mb, i));
    ok(postSend(t.a, null, 1n, 0));
    ok(postSend(t.a, null, 2n, SIG));
    await pollWcs(t.envB, t.b.rnic, t.b.cq, 2);
    assert.equal(code(postSend(t.a, null, 3n)), name(RiRet.QP_CAPACITY_EXCEEDED));
    await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    ok(postSend(t.a, null, 3n));
    ok(postSend(t.a, null, 4n), 'both slots are free again');
  } finally {
    t.done();
  }
});

test('VERBS-10.W7 PostSQ with more SGEs than the QP limit → RNIC_SG_LIMIT_EXCEEDED', () => {
  const env = openRnic();
  const s = makeSide(env, { sq_max_sges: 2, sq_max_sges_rdmaw: 1, rq_max_sges: 1 });
  const m = regMr(s, buf(64));
  const three = [seg(m, 0, 1), seg(m, 1, 1), seg(m, 2, 1)];
  assert.equal(code(K.ri_qp_post_send(env.rnic, s.qp, RiWrType.SEND, SIG, 1n, three, 0, 3, 0)), name(RiRet.RNIC_SG_LIMIT_EXCEEDED));
  assert.equal(
    code(K.ri_qp_post_rdma_write(env.rnic, s.qp, RiWrType.RDMA_WRITE, SIG, 1n, three.slice(0, 2), 0x1000n, 0x100, 2, 0)),
    name(RiRet.RNIC_SG_LIMIT_EXCEEDED),
  );
  assert.equal(code(K.ri_qp_post_recv(env.rnic, s.qp, 0, 1n, three.slice(0, 2), 2)), name(RiRet.RNIC_SG_LIMIT_EXCEEDED));
  assert.equal(
    code(K.ri_qp_post_send(env.rnic, s.qp, RiWrType.SEND, SIG, 1n, three, 0, 4, 0)),
    name(RiRet.WR_SG_INVALID_FORMAT),
    'num_sgls beyond the list',
  );
  ok(K.ri_qp_post_send(env.rnic, s.qp, RiWrType.SEND, SIG, 1n, three, 0, 2, 0));
  env.close();
});

test('VERBS-10.W8 PostSQ with an unknown op type → WR_INVALID_TYPE; datagrams → XPORT_UNSUPPORTED; atomics and immediate data wait for the connection (RFC 7306 is agreed per connection)', () => {
  const env = openRnic();
  const s = makeSide(env);
  assert.equal(code(K.ri_qp_postsq(env.rnic, s.qp, [{ type: 77, flags: 0, id: 1n } as never])), name(RiRet.WR_INVALID_TYPE));
  // Before a connection exists nothing says whether the peer takes RFC 7306: the WRs are queued
  // (a connection without the agreement fails them locally, test/rnic/rfc7306-negotiation).
  ok(K.ri_qp_post_send(env.rnic, s.qp, RiWrType.SEND_IMMEDIATE, SIG, 1n, [], 0, 0, 5));
  ok(K.ri_qp_post_rdma_write(env.rnic, s.qp, RiWrType.RDMA_WRITE_IMMEDIATE, SIG, 1n, [], 0x1000n, 0x100, 0, 5));
  const res = { addr: 0n, tag: 0, len: 8 };
  ok(
    K.ri_qp_postsq(env.rnic, s.qp, [
      {
        type: RiWrType.COMPARE_AND_SWAP,
        flags: SIG,
        id: 1n,
        rtag: 1,
        rdma_addr: 0n,
        atomic_operand1: 0n,
        atomic_operand2: 0n,
        atomic_result: res,
      },
    ]),
  );
  ok(K.ri_qp_post_atomic(env.rnic, s.qp, RiWrType.FETCH_AND_ADD, SIG, 1n, 1, 1n, 0n, res, 0n));
  // A result buffer shorter than the operand, or an operand wider than it, is refused at once.
  assert.equal(
    code(K.ri_qp_post_atomic(env.rnic, s.qp, RiWrType.FETCH_AND_ADD, SIG, 1n, 1, 1n, 0n, { ...res, len: 4 }, 0n)),
    name(RiRet.WR_SG_INVALID_FORMAT),
  );
  assert.equal(
    code(K.ri_qp_post_atomic(env.rnic, s.qp, RiWrType.FETCH_AND_ADD, SIG, 1n, 1, 1n << 64n, 0n, res, 0n)),
    name(RiRet.INVALID_PARAMETER),
  );
  assert.equal(
    code(K.ri_qp_post_datagram(env.rnic, s.qp, RiWrType.SEND, SIG, 1n, [], 0, 0, {} as never, 1, 1, 0)),
    name(RiRet.XPORT_UNSUPPORTED),
  );
  ok(modifyState(s, RiQpState.ERROR));
  assert.equal(drain(env, s.rnic, s.cq).length, 4, 'the four queued WRs are flushed');
  env.close();
});

transportTest(
  'VERBS-10.W10 an SGE of length 0 with a garbage STag → no error; VERBS-10.W11 a zero-length Send succeeds and the receive WC shows 0 bytes',
  async () => {
    const t = await twoSides();
    try {
      const mb = regMr(t.b, buf(8));
      ok(postRecv(t.b, mb, 1n));
      ok(postRecv(t.b, mb, 2n));
      ok(K.ri_qp_post_send(t.a.rnic, t.a.qp, RiWrType.SEND, SIG, 1n, [{ addr: 0xdeadn, tag: 0x1234_5678, len: 0 }], 0, 1, 0));
      ok(K.ri_qp_post_send(t.a.rnic, t.a.qp, RiWrType.SEND, SIG, 2n, [], 0, 0, 0));
      const wcs = await pollWcs(t.envA, t.a.rnic, t.a.cq, 2);
      assert.ok(wcs.every((w) => w.op_status === RiWcStatus.SUCCESS));
      const r = await pollWcs(t.envB, t.b.rnic, t.b.cq, 2);
      assert.deepEqual(
        r.map((w) => [w.op_status, w.bytes_transferred]),
        [
          [0, 0],
          [0, 0],
        ],
      );
    } finally {
      t.done();
    }
  },
);

transportTest(
  'VERBS-10.W13 a receive buffer smaller than the incoming Send → CE on the receive and the receiver QP terminates',
  async () => {
    const t = await twoSides();
    try {
      ok(postRecv(t.b, regMr(t.b, buf(8)), 1n));
      ok(postSend(t.a, regMr(t.a, buf(16)), 2n));
      const [wc] = await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
      assert.equal(wc!.id, 1n);
      assert.notEqual(wc!.op_status, RiWcStatus.SUCCESS);
      await until(() => state(t.b) === RiQpState.ERROR, 'receiver terminated');
    } finally {
      t.done();
    }
  },
);

transportTest('VERBS-10.W14 an MW STag in a Send SGE → CE Invalid STag', async () => {
  const t = await twoSides();
  try {
    const mw = ok(K.ri_mw_alloc(t.a.rnic, t.a.pd, RiMwType.TYPE_2, null, null));
    ok(K.ri_qp_post_send(t.a.rnic, t.a.qp, RiWrType.SEND, SIG, 1n, [{ addr: 0n, tag: mw.rtag, len: 8 }], 0, 1, 0));
    const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    assert.equal(wc!.op_status, RiWcStatus.INVALID_STAG_ERROR);
  } finally {
    t.done();
  }
});

transportTest('VERBS-10.W15 a Receive SGE whose MR lacks Local Write → CE Access Violation', async () => {
  const t = await twoSides();
  try {
    const ro = regMr(t.b, buf(8), RiMemFlags.LOCAL_READ);
    ok(postRecv(t.b, ro, 1n));
    ok(postSend(t.a, regMr(t.a, buf(8)), 2n));
    const [wc] = await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
    assert.equal(wc!.op_status, RiWcStatus.ACCESS_VIOLATION_ERROR);
    assert.ok(ro.b.bytes.every((x) => x === 0));
  } finally {
    t.done();
  }
});

transportTest('VERBS-10.W16 a Send SGE whose MR is in another PD → CE Invalid PD', async () => {
  const t = await twoSides();
  try {
    const otherPd = allocPd(t.envA);
    const m = regMr({ env: t.envA, rnic: t.a.rnic, pd: otherPd }, buf(8));
    ok(postSend(t.a, m, 1n));
    const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    assert.equal(wc!.op_status, RiWcStatus.INVALID_PD_ERROR);
  } finally {
    t.done();
  }
});

transportTest('VERBS-10.W17 a Send SGE one byte past the MR bounds → CE Base & Bounds Violation', async () => {
  const t = await twoSides();
  try {
    const m = regMr(t.a, buf(8));
    ok(K.ri_qp_post_send(t.a.rnic, t.a.qp, RiWrType.SEND, SIG, 1n, [seg(m, 1, 8)], 0, 1, 0));
    const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    assert.equal(wc!.op_status, RiWcStatus.BASE_BOUNDS_VIOLATION_ERROR);
  } finally {
    t.done();
  }
});

transportTest(
  'VERBS-10.W19 STag 0 in an SGE on a QP without the STag0 privilege → CE; on a privileged QP the TO is a physical address',
  async () => {
    const t1 = await twoSides();
    try {
      ok(K.ri_qp_post_send(t1.a.rnic, t1.a.qp, RiWrType.SEND, SIG, 1n, [{ addr: 0x1000n, tag: 0, len: 8 }], 0, 1, 0));
      const [wc] = await pollWcs(t1.envA, t1.a.rnic, t1.a.cq, 1);
      assert.equal(wc!.op_status, RiWcStatus.INVALID_STAG_ERROR);
    } finally {
      t1.done();
    }
    const t2 = await twoSides({ enable_stag0_fastreg: true });
    try {
      const mb = regMr(t2.b, buf(16));
      ok(postRecv(t2.b, mb, 1n));
      const src = buf(16, 0x77);
      ok(K.ri_mem_pin(t2.a.rnic, src.va, 16, 'pin'));
      const io = ok(K.ri_mem_map(t2.a.rnic, src.va, 16, 'map')).io;
      ok(K.ri_qp_post_send(t2.a.rnic, t2.a.qp, RiWrType.SEND, SIG, 2n, [{ addr: io.phys_address, tag: 0, len: 16 }], 0, 1, 0));
      const [wc] = await pollWcs(t2.envA, t2.a.rnic, t2.a.cq, 1);
      assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
      await pollWcs(t2.envB, t2.b.rnic, t2.b.cq, 1);
      assert.ok(mb.b.bytes.every((x) => x === 0x77));
      ok(K.ri_mem_unmap(t2.a.rnic, io, 'map'));
      ok(K.ri_mem_unpin(t2.a.rnic, src.va, 16, 'pin'));
    } finally {
      t2.done();
    }
  },
);

transportTest(
  'VERBS-10.D1 an RDMA Write consumes no receive WQE at the peer; VERBS-10.D8 Write then Read of the same remote buffer returns the written data',
  async () => {
    const t = await twoSides();
    try {
      const remote = regMr(t.b, buf(4096));
      const rb = regMr(t.b, buf(8));
      ok(postRecv(t.b, rb, 1n));
      const src = regMr(t.a, bufOf(new Uint8Array(4096).map((_, i) => (i * 7) & 0xff)));
      const back = regMr(t.a, buf(4096));
      ok(K.ri_qp_post_rdma_write(t.a.rnic, t.a.qp, RiWrType.RDMA_WRITE, SIG, 1n, [seg(src)], remote.b.va, remote.rtag!, 1, 0));
      ok(K.ri_qp_post_rdma_read(t.a.rnic, t.a.qp, RiWrType.RDMA_READ, SIG, 2n, [seg(back)], remote.b.va, 1, remote.rtag!));
      ok(postSend(t.a, null, 3n));
      assert.deepEqual(
        (await pollWcs(t.envA, t.a.rnic, t.a.cq, 3)).map((w) => [w.id, w.op_type, w.op_status]),
        [
          [1n, RiWcType.RDMA_WRITE, 0],
          [2n, RiWcType.RDMA_READ, 0],
          [3n, RiWcType.SEND, 0],
        ],
      );
      assert.deepEqual(back.b.bytes, src.b.bytes);
      const [rwc] = await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
      assert.equal(rwc!.id, 1n, 'the Send, not the Write, consumed the receive');
      assert.equal(rwc!.bytes_transferred, 0);
    } finally {
      t.done();
    }
  },
);

transportTest(
  'VERBS-10.D2 an RDMA Write to a remote MR without Remote Write → target AE access violation and →Term; the initiator gets "Terminate Message Received"',
  async () => {
    const t = await twoSides();
    try {
      const ro = regMr(t.b, buf(64, 1), RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_READ);
      ok(K.ri_qp_post_rdma_write(t.a.rnic, t.a.qp, RiWrType.RDMA_WRITE, SIG, 1n, [seg(regMr(t.a, buf(8)))], ro.b.va, ro.rtag!, 1, 0));
      await until(() => t.envB.events.some((e) => e.event_type === RiAsyncEventType.QP_PROTECTION_ERROR_ACCESS_VIOLATION), 'target AE');
      await until(() => t.envA.events.some((e) => e.event_type === RiAsyncEventType.QP_TERMINATE_MESSAGE_RECEIVED), 'initiator AE');
      assert.ok(ro.b.bytes.every((x) => x === 1));
      await until(() => state(t.b) === RiQpState.ERROR, 'target Error');
    } finally {
      t.done();
    }
  },
);

transportTest(
  'VERBS-10.D3 an RDMA Read from a remote MR without Remote Read → target AE "IRRQ access violation", Terminate 0x0102',
  async () => {
    const t = await twoSides();
    try {
      const wo = regMr(t.b, buf(64), RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_WRITE);
      ok(K.ri_qp_post_rdma_read(t.a.rnic, t.a.qp, RiWrType.RDMA_READ, SIG, 1n, [seg(regMr(t.a, buf(64)))], wo.b.va, 1, wo.rtag!));
      await until(
        () => t.envB.events.some((e) => e.event_type === RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_ACCESS_VIOLATION),
        'target AE',
      );
      await until(() => state(t.a) === RiQpState.ERROR, 'initiator Error');
      const iw = ok(K.ri_qp_query(t.b.rnic, t.b.qp)).attrs.qp_xport;
      assert.ok('qp_iwarp' in iw);
      // Terminate control: layer RDMAP (0) / Remote Protection (1) / access rights (2).
      assert.equal(iw.qp_iwarp.terminate_buffer[0], 0x01);
      assert.equal(iw.qp_iwarp.terminate_buffer[1], 0x02);
    } finally {
      t.done();
    }
  },
);

transportTest('VERBS-10.D4 a Read Response landing in a local MR without Remote Write → the local QP goes →Term', async () => {
  const t = await twoSides();
  try {
    const src = regMr(t.b, buf(64, 5));
    const sink = regMr(t.a, buf(64), RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE);
    ok(K.ri_qp_post_rdma_read(t.a.rnic, t.a.qp, RiWrType.RDMA_READ, SIG, 1n, [seg(sink)], src.b.va, 1, src.rtag!));
    await until(() => state(t.a) === RiQpState.ERROR, 'local QP terminated');
    assert.ok(
      sink.b.bytes.every((x) => x === 0),
      'nothing placed',
    );
    const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    assert.notEqual(wc!.op_status, RiWcStatus.SUCCESS);
  } finally {
    t.done();
  }
});

transportTest('VERBS-10.D5 an RDMA Read with ORD = 0 → CE "Zero RDMA Read Resources"', async () => {
  const t = await twoSides({ max_rdma_read_outgoing: 0 });
  try {
    const src = regMr(t.b, buf(8));
    ok(K.ri_qp_post_rdma_read(t.a.rnic, t.a.qp, RiWrType.RDMA_READ, SIG, 1n, [seg(regMr(t.a, buf(8)))], src.b.va, 1, src.rtag!));
    const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    assert.equal(wc!.op_status, RiWcStatus.ZERO_ORD_ERROR);
  } finally {
    t.done();
  }
});

transportTest('VERBS-10.D6 posting ORD+1 RDMA Reads is not an error: they all complete', async () => {
  const t = await twoSides({ max_rdma_read_outgoing: 1 }, { max_rdma_read_incoming: 1 });
  try {
    const src = regMr(t.b, buf(4096, 3));
    const sink = regMr(t.a, buf(4096 * 3));
    for (let i = 0; i < 3; i++) {
      ok(K.ri_qp_post_rdma_read(t.a.rnic, t.a.qp, RiWrType.RDMA_READ, SIG, BigInt(i), [seg(sink, i * 4096, 4096)], src.b.va, 1, src.rtag!));
    }
    const wcs = await pollWcs(t.envA, t.a.rnic, t.a.cq, 3);
    assert.deepEqual(
      wcs.map((w) => [w.id, w.op_status]),
      [
        [0n, 0],
        [1n, 0],
        [2n, 0],
      ],
    );
    assert.ok(sink.b.bytes.every((x) => x === 3));
  } finally {
    t.done();
  }
});

transportTest('VERBS-10.D11 a zero-length RDMA Read with an invalid remote STag succeeds', async () => {
  const t = await twoSides();
  try {
    ok(K.ri_qp_post_rdma_read(t.a.rnic, t.a.qp, RiWrType.RDMA_READ, SIG, 1n, [], 0x1234n, 0, 0x0bad_0bad));
    const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
    assert.equal(state(t.a), RiQpState.READY_TO_SEND);
  } finally {
    t.done();
  }
});

transportTest(
  'VERBS-6.6.2.4 an RDMA Read the peer refuses (bad remote STag, then a region without Remote Read) completes with Remote Access Error, the Read behind it flushed',
  async () => {
    for (const rights of ['stag', 'rights'] as const) {
      const t = await twoSides();
      try {
        const sink = regMr(t.a, buf(64));
        const src = regMr(t.b, buf(64), rights === 'rights' ? RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_WRITE : ALL_ACCESS);
        const rtag = rights === 'stag' ? (src.rtag! ^ 0x100) >>> 0 : src.rtag!;
        ok(K.ri_qp_post_rdma_read(t.a.rnic, t.a.qp, RiWrType.RDMA_READ, SIG, 1n, [seg(sink)], src.b.va, 1, rtag));
        // A good Read behind it: the peer has stopped, so it never gets its Response.
        const good = regMr(t.b, buf(64));
        const sink2 = regMr(t.a, buf(64));
        ok(K.ri_qp_post_rdma_read(t.a.rnic, t.a.qp, RiWrType.RDMA_READ, SIG, 2n, [seg(sink2)], good.b.va, 1, good.rtag!));
        const wcs = await pollWcs(t.envA, t.a.rnic, t.a.cq, 2);
        assert.deepEqual(
          wcs.map((w) => [w.id, w.op_status]),
          [
            [1n, RiWcStatus.REMOTE_ACCESS_ERROR],
            [2n, RiWcStatus.WR_FLUSHED_ERROR],
          ],
          rights,
        );
        assert.ok(
          sink.b.bytes.every((x) => x === 0),
          'nothing placed in the sink',
        );
      } finally {
        t.done();
      }
    }
  },
);

test('VERBS-10.D13 an RDMA Write or Read naming STag 0 as the remote STag is refused (softrdma reports it at post: MEM_INVALID_RTAG)', () => {
  const env = openRnic();
  const s = makeSide(env);
  const m = regMr(s, buf(8));
  assert.equal(
    code(K.ri_qp_post_rdma_write(env.rnic, s.qp, RiWrType.RDMA_WRITE, SIG, 1n, [seg(m)], 0x1000n, 0, 1, 0)),
    name(RiRet.MEM_INVALID_RTAG),
  );
  assert.equal(
    code(K.ri_qp_post_rdma_read(env.rnic, s.qp, RiWrType.RDMA_READ, SIG, 1n, [seg(m)], 0x1000n, 1, 0)),
    name(RiRet.MEM_INVALID_RTAG),
  );
  env.close();
});

transportTest('VERBS-10.M12 an access whose TO + length wraps past 2^64-1 → CE Wrap error', async () => {
  const t = await twoSides();
  try {
    const m = regMr(t.a, buf(8), ALL_ACCESS | RiMemFlags.ZBVA);
    ok(K.ri_qp_post_send(t.a.rnic, t.a.qp, RiWrType.SEND, SIG, 1n, [{ addr: (1n << 64n) - 4n, tag: m.ltag, len: 8 }], 0, 1, 0));
    const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    assert.equal(wc!.op_status, RiWcStatus.ADDRESS_WRAP_ERROR);
  } finally {
    t.done();
  }
});

/**
 * Conformance: memory regions, STags, re-registration, physical registration, Fast-Register
 * and invalidation, pinning and mapping (RNICPI-078…088, 093…096; RDMA Verbs §10 M*, I6).
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { SOFTRDMA_KERNEL_OPS as K } from '../../src/provider/softrdma.js';
import { RiRet } from '../../src/rnicpi/status.js';
import {
  RiAsyncEventType,
  RiMemFlags,
  RiMrRereg,
  RiQpState,
  RiStagState,
  RiWcStatus,
  RiWcType,
  RiWrFlags,
  RiWrType,
  riStagSplit,
  type ri_mr_handle_t,
  type ri_mr_reg_phys_attr_t,
  type ri_pd_handle_t,
} from '../../src/rnicpi/types.js';
import {
  ALL_ACCESS,
  allocPd,
  type Buf,
  buf,
  cleanupAll,
  code,
  deliver,
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
  userHandle,
  transportTest,
} from './helpers.js';

after(cleanupAll);

const SIG = RiWrFlags.SIGNALED_FLAG;
const PAGE = 4096;

/** Pins and maps a fresh page-aligned buffer of `n` pages through the RNIC: its page list. */
function physPages(s: { rnic: Side['rnic'] }, n: number): { b: Buf; pages: bigint[] } {
  const b = buf(n * PAGE);
  ok(K.ri_mem_pin(s.rnic, b.va, b.bytes.length, 'pages'), 'ri_mem_pin');
  const io = ok(K.ri_mem_map(s.rnic, b.va, b.bytes.length, 'pages'), 'ri_mem_map').io;
  assert.equal(io.phys_len, BigInt(n * PAGE));
  return { b, pages: Array.from({ length: n }, (_, i) => io.phys_address + BigInt(i * PAGE)) };
}

function physAttr(pd: ri_pd_handle_t, pages: bigint[], va: bigint, length: number, mem_attr = ALL_ACCESS, fbo = 0): ri_mr_reg_phys_attr_t {
  return { common: { va, length, mem_attr, pd }, phys_buf_list: pages, pble_size: PAGE, address_offset: fbo };
}

function info(s: { rnic: Side['rnic'] }, mr: ri_mr_handle_t) {
  return ok(K.ri_mr_query(s.rnic, mr), 'ri_mr_query').mr_info;
}

function fmr(s: Side, id: bigint, mr: ri_mr_handle_t, stag: number, attr: ri_mr_reg_phys_attr_t) {
  return K.ri_qp_post_fmr(s.rnic, s.qp, RiWrType.FAST_REGISTER, SIG, id, attr, stag, stag, mr);
}

function invalidateMr(s: Side, id: bigint, mr: ri_mr_handle_t, ltag: number, flags = SIG) {
  return K.ri_qp_post_local_invalidate(s.rnic, s.qp, RiWrType.LOCAL_INVALIDATE_MR, flags, id, ltag, ltag, mr);
}

function writeTo(s: Side, src: Mr, stag: number, to: bigint, id = 100n, len = src.b.bytes.length) {
  return K.ri_qp_post_rdma_write(s.rnic, s.qp, RiWrType.RDMA_WRITE, SIG, id, [seg(src, 0, len)], to, stag, 1, 0);
}

test('RNICPI-079 ri_mr_reg with REMOTE_READ returns an RTag; without remote flags no RTag', () => {
  const env = openRnic();
  const s = makeSide(env);
  const r1 = ok(
    K.ri_mr_reg(
      env.rnic,
      { va: buf(16).va, length: 16, mem_attr: RiMemFlags.LOCAL_READ | RiMemFlags.REMOTE_READ, pd: s.pd },
      0,
      null,
      null,
    ),
  );
  assert.equal(typeof r1.rtag, 'number');
  const r2 = ok(K.ri_mr_reg(env.rnic, { va: buf(16).va, length: 16, mem_attr: RiMemFlags.LOCAL_WRITE, pd: s.pd }, 0, null, null));
  assert.equal(r2.rtag, undefined);
  assert.equal(info(s, r2.mr).rtag, 0);
  env.close();
});

test('RNICPI-080 with CONSUMER_OWNS_KEY (key split supported) the returned LTag key equals the input key (VERBS-10.M1: the index is never 0)', () => {
  const env = openRnic();
  const s = makeSide(env);
  for (const key of [0x00, 0x5a, 0xff]) {
    const r = ok(
      K.ri_mr_reg(
        env.rnic,
        { va: buf(16).va, length: 16, mem_attr: ALL_ACCESS | RiMemFlags.CONSUMER_OWNS_KEY, pd: s.pd },
        0xabcd_ef00 | key,
        null,
        null,
      ),
    );
    assert.equal(riStagSplit(r.ltag).key, key);
    assert.notEqual(riStagSplit(r.ltag).index, 0);
    assert.equal(riStagSplit(r.ltag).index === 0xabcdef, false, "the index is the RNIC's, not the input's");
  }
  const a = ok(K.ri_ltag_alloc(env.rnic, 4, s.pd, ALL_ACCESS, 0x33, null, null));
  assert.equal(riStagSplit(a.ltag).key, 0x33);
  assert.notEqual(riStagSplit(a.ltag).index, 0);
  env.close();
});

test('RNICPI-081 for iWARP the LTag and RTag of a remotely accessible MR are equal', () => {
  const env = openRnic();
  const s = makeSide(env);
  const m = regMr(s, buf(64));
  assert.equal(m.rtag, m.ltag);
  const i = info(s, m.mr);
  assert.equal(i.ltag, i.rtag);
  env.close();
});

transportTest(
  'RNICPI-082 ri_mr_query reports VALID after ri_mr_reg and bounds covering the registered range (VERBS-10.M3, M11: VA-based TO = VA, zero-based TO 0 = first byte)',
  async () => {
    const t = await twoSides();
    try {
      const va = regMr(t.b, buf(100));
      const zb = regMr(t.b, buf(100), ALL_ACCESS | RiMemFlags.ZBVA);
      for (const m of [va, zb]) {
        const i = info(t.b, m.mr);
        assert.equal(i.stag_state, RiStagState.VALID);
        assert.equal(i.is_shared_region, false);
        assert.ok(i.local_lb <= m.b.va && i.local_ub >= m.b.va + 99n);
        assert.equal(i.attr.length, 100);
        assert.equal(i.attr.pd, t.b.pd);
      }
      assert.equal(info(t.b, zb.mr).remote_lb, 0n, 'zero-based: remote TOs start at 0');
      assert.equal(info(t.b, va.mr).remote_lb, va.b.va);
      const src = regMr(t.a, buf(4, 0xaa));
      ok(writeTo(t.a, src, va.rtag!, va.b.va, 1n));
      ok(writeTo(t.a, src, zb.rtag!, 0n, 2n));
      await pollWcs(t.envA, t.a.rnic, t.a.cq, 2);
      await deliver(t.a, t.b);
      assert.deepEqual([...va.b.bytes.subarray(0, 5)], [0xaa, 0xaa, 0xaa, 0xaa, 0]);
      assert.deepEqual([...zb.b.bytes.subarray(0, 5)], [0xaa, 0xaa, 0xaa, 0xaa, 0]);
    } finally {
      t.done();
    }
  },
);

test('VERBS-10.M4 ri_mr_reg with Remote Write but not Local Write → MEM_INVALID_ACCESS (Local Read is always implied in RNICPI)', () => {
  const env = openRnic();
  const s = makeSide(env);
  const b = buf(16);
  assert.equal(
    code(K.ri_mr_reg(env.rnic, { va: b.va, length: 16, mem_attr: RiMemFlags.REMOTE_WRITE, pd: s.pd }, 0, null, null)),
    name(RiRet.MEM_INVALID_ACCESS),
  );
  assert.equal(
    code(
      K.ri_mr_reg(env.rnic, { va: b.va, length: 16, mem_attr: RiMemFlags.LOCAL_READ | RiMemFlags.REMOTE_WRITE, pd: s.pd }, 0, null, null),
    ),
    name(RiRet.MEM_INVALID_ACCESS),
  );
  ok(K.ri_mr_reg(env.rnic, { va: b.va, length: 16, mem_attr: RiMemFlags.REMOTE_READ, pd: s.pd }, 0, null, null));
  assert.equal(
    code(K.ri_mr_reg(env.rnic, { va: b.va, length: 0, mem_attr: RiMemFlags.LOCAL_WRITE, pd: s.pd }, 0, null, null)),
    name(RiRet.MEM_INVALID_LENGTH),
  );
  assert.equal(
    code(K.ri_mr_reg(env.rnic, { va: 0x10n, length: 16, mem_attr: RiMemFlags.LOCAL_WRITE, pd: s.pd }, 0, null, null)),
    name(RiRet.MEM_INVALID_ADDRESS),
  );
  env.close();
});

test('RNICPI-088 ri_mr_reg_phys / ri_ltag_alloc (and ri_mr_rereg_phys) from an unprivileged user domain return NO_PERMISSION', () => {
  const env = openRnic();
  const u = userHandle(env);
  const pd = allocPd(env, u);
  const m = regMr({ env, rnic: u, pd }, buf(64));
  assert.equal(code(K.ri_mr_reg_phys(u, physAttr(pd, [0x1000_0000n], 0n, 16), 0, null, null)), name(RiRet.NO_PERMISSION));
  assert.equal(code(K.ri_ltag_alloc(u, 4, pd, ALL_ACCESS, 0, null, null)), name(RiRet.NO_PERMISSION));
  assert.equal(code(K.ri_mr_rereg_phys(u, m.mr, RiMrRereg.ACCESS, physAttr(pd, [], 0n, 16), 0, 0, null, null)), name(RiRet.NO_PERMISSION));
  assert.equal(info({ rnic: u }, m.mr).stag_state, RiStagState.VALID, 'the refused rereg changed nothing');
  env.close();
});

test('VERBS-10.M6, M7, M8 physical registration checks: VA mod page ≠ FBO → MEM_INVALID_ADDRESS; unaligned or bad page → MEM_INVALID_PBLE; FBO ≥ size → MEM_INVALID_OFFSET', () => {
  const env = openRnic();
  const s = makeSide(env);
  const { pages } = physPages(s, 2);
  const reg = (a: ri_mr_reg_phys_attr_t) => code(K.ri_mr_reg_phys(env.rnic, a, 0, null, null));
  assert.equal(reg(physAttr(s.pd, pages, 0x10_0000n + 8n, 100, ALL_ACCESS, 16)), name(RiRet.MEM_INVALID_ADDRESS));
  assert.equal(reg(physAttr(s.pd, [pages[0]! + 8n], 0x10_0000n, 100)), name(RiRet.MEM_INVALID_PBLE));
  assert.equal(
    reg({ ...physAttr(s.pd, pages, 0x10_0000n, 100), pble_size: 3000 }),
    name(RiRet.MEM_INVALID_PBLE),
    'page size not a power of two',
  );
  assert.equal(reg(physAttr(s.pd, pages, 0x10_0000n + 4096n, 100, ALL_ACCESS, 4096)), name(RiRet.MEM_INVALID_OFFSET));
  assert.equal(reg(physAttr(s.pd, pages, 0x10_0000n, 3 * PAGE)), name(RiRet.MEM_INVALID_LENGTH), 'longer than the list covers');
  assert.equal(reg(physAttr(s.pd, [0x42n * 4096n], 0x10_0000n, 100)), name(RiRet.MEM_INVALID_PBLE), 'not host memory');
  const r = ok(K.ri_mr_reg_phys(env.rnic, physAttr(s.pd, pages, 0x10_0000n + 16n, 100, ALL_ACCESS, 16), 0, null, null));
  assert.equal(info(s, r.mr).stag_state, RiStagState.VALID);
  env.close();
});

transportTest(
  'VERBS-10.M9 two registrations of overlapping memory get distinct indexes; deregistering one leaves the other working',
  async () => {
    const t = await twoSides();
    try {
      const b = buf(64);
      const m1 = regMr(t.b, b);
      const m2 = regMr(t.b, b);
      assert.notEqual(riStagSplit(m1.ltag).index, riStagSplit(m2.ltag).index);
      ok(K.ri_mr_dereg(t.b.rnic, m1.mr));
      assert.equal(info(t.b, m2.mr).stag_state, RiStagState.VALID);
      ok(writeTo(t.a, regMr(t.a, buf(8, 0x66)), m2.rtag!, b.va));
      await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
      await deliver(t.a, t.b);
      assert.equal(b.bytes[0], 0x66);
    } finally {
      t.done();
    }
  },
);

transportTest('VERBS-10.M10 an access with the wrong key (right index) → protection error, memory untouched', async () => {
  const t = await twoSides();
  try {
    const m = regMr(t.b, buf(64, 1));
    const wrong = ((m.rtag! & ~0xff) | ((m.rtag! + 1) & 0xff)) >>> 0;
    ok(writeTo(t.a, regMr(t.a, buf(8, 0x66)), wrong, m.b.va));
    await until(() => t.envB.events.some((e) => e.event_type === RiAsyncEventType.QP_PROTECTION_ERROR_STAG_QP_MISMATCH), 'protection AE');
    assert.ok(m.b.bytes.every((x) => x === 1));
  } finally {
    t.done();
  }
});

transportTest(
  'RNICPI-084 ri_mr_rereg failing with WINDOWS_BOUND / MR_INVALID_HANDLE / INVALID_PARAMETER / RNIC_INVALID_HANDLE leaves the old registration valid (VERBS-10.M15)',
  async () => {
    const t = await twoSides();
    try {
      const m = regMr(t.a, buf(64), ALL_ACCESS | RiMemFlags.BINDING);
      const mw = ok(K.ri_mw_alloc(t.a.rnic, t.a.pd, 1, null, null));
      ok(K.ri_qp_post_bind(t.a.rnic, t.a.qp, RiWrType.BIND, SIG, 1n, mw.mw, mw.rtag, m.mr, m.ltag, m.b.va, 32, RiMemFlags.REMOTE_READ));
      await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
      const before = info(t.a, m.mr);
      const attr = { va: m.b.va, length: 8, mem_attr: RiMemFlags.LOCAL_WRITE, pd: t.a.pd };
      assert.equal(code(K.ri_mr_rereg(t.a.rnic, m.mr, RiMrRereg.TRANSLATE, attr, 0, null, null)), name(RiRet.WINDOWS_BOUND));
      assert.equal(
        code(K.ri_mr_rereg(t.a.rnic, { not: 'an mr' } as never, RiMrRereg.TRANSLATE, attr, 0, null, null)),
        name(RiRet.MR_INVALID_HANDLE),
      );
      assert.equal(code(K.ri_mr_rereg(t.a.rnic, m.mr, 1 << 7, attr, 0, null, null)), name(RiRet.INVALID_PARAMETER));
      assert.equal(code(K.ri_mr_rereg({} as never, m.mr, RiMrRereg.TRANSLATE, attr, 0, null, null)), name(RiRet.RNIC_INVALID_HANDLE));
      assert.deepEqual(info(t.a, m.mr), before);
      // Still usable: the window bound to it still works for the peer.
      const sink = regMr(t.b, buf(32));
      ok(K.ri_qp_post_rdma_read(t.b.rnic, t.b.qp, RiWrType.RDMA_READ, SIG, 2n, [seg(sink)], m.b.va, 1, mw.rtag));
      const [wc] = await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
      assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
    } finally {
      t.done();
    }
  },
);

test('VERBS-10.M16 ri_mr_rereg failing with any other error (MEM_INVALID_LENGTH, MEM_INVALID_ACCESS, MEM_INVALID_ADDRESS, PD_INVALID_HANDLE) destroys the old registration', () => {
  const env = openRnic();
  const s = makeSide(env);
  const b = buf(64);
  const cases: [number, object, RiRet][] = [
    [RiMrRereg.TRANSLATE, { va: b.va, length: 0, mem_attr: 0, pd: s.pd }, RiRet.MEM_INVALID_LENGTH],
    [RiMrRereg.ACCESS, { va: b.va, length: 64, mem_attr: RiMemFlags.REMOTE_WRITE, pd: s.pd }, RiRet.MEM_INVALID_ACCESS],
    [RiMrRereg.TRANSLATE, { va: 0x10n, length: 64, mem_attr: 0, pd: s.pd }, RiRet.MEM_INVALID_ADDRESS],
    [RiMrRereg.PD, { va: b.va, length: 64, mem_attr: 0, pd: { bogus: true } }, RiRet.PD_INVALID_HANDLE],
  ];
  for (const [mask, attr, want] of cases) {
    const m = regMr(s, b);
    assert.equal(code(K.ri_mr_rereg(env.rnic, m.mr, mask, attr as never, 0, null, null)), name(want));
    assert.equal(code(K.ri_mr_query(env.rnic, m.mr)), name(RiRet.MR_INVALID_HANDLE), `${name(want)} deallocated the MR`);
    assert.equal(code(K.ri_mr_dereg(env.rnic, m.mr)), name(RiRet.MR_INVALID_HANDLE));
  }
  // A successful rereg keeps the handle and may change rights and key.
  const m = regMr(s, b);
  const r = ok(
    K.ri_mr_rereg(
      env.rnic,
      m.mr,
      RiMrRereg.ACCESS,
      { va: b.va, length: 64, mem_attr: RiMemFlags.LOCAL_WRITE | RiMemFlags.CONSUMER_OWNS_KEY, pd: s.pd },
      0x77,
      null,
      null,
    ),
  );
  assert.equal(r.out_mr, m.mr);
  assert.equal(r.rtag, undefined, 'no remote rights any more');
  assert.equal(riStagSplit(r.ltag).key, 0x77);
  env.close();
});

transportTest('VERBS-10.M17 ri_mr_rereg can change the PD; afterwards a QP of the old PD using it gets CE Invalid PD', async () => {
  const t = await twoSides();
  try {
    const m = regMr(t.a, buf(16, 3));
    const pd2 = allocPd(t.envA);
    const r = ok(K.ri_mr_rereg(t.a.rnic, m.mr, RiMrRereg.PD, { va: 0n, length: 0, mem_attr: 0, pd: pd2 }, 0, null, null));
    assert.equal(info(t.a, r.out_mr).attr.pd, pd2);
    ok(K.ri_qp_post_send(t.a.rnic, t.a.qp, RiWrType.SEND, SIG, 1n, [{ addr: m.b.va, tag: r.ltag, len: 16 }], 0, 1, 0));
    const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    assert.equal(wc!.op_status, RiWcStatus.INVALID_PD_ERROR);
  } finally {
    t.done();
  }
});

test('RNICPI-085 ri_mr_rereg_phys on a shared region returns MR_INVALID_HANDLE', () => {
  const env = openRnic();
  const s = makeSide(env);
  const m = regMr(s, buf(64));
  const sh = ok(K.ri_mr_reg_shared(env.rnic, m.mr, { va: m.b.va, length: 0, mem_attr: ALL_ACCESS, pd: s.pd }, 0, null, null));
  const { pages } = physPages(s, 1);
  for (const mr of [sh.out_mr, m.mr]) {
    assert.equal(
      code(K.ri_mr_rereg_phys(env.rnic, mr, RiMrRereg.TRANSLATE, physAttr(s.pd, pages, 0n, 64), 0, 0, null, null)),
      name(RiRet.MR_INVALID_HANDLE),
    );
    assert.equal(info(s, mr).stag_state, RiStagState.VALID, 'unchanged');
  }
  env.close();
});

test('RNICPI-086 ri_mr_reg_shared returns an MR of the original length whatever the input length; ri_mr_query shows is_shared_region (VERBS-10.M18)', () => {
  const env = openRnic();
  const s = makeSide(env);
  const m = regMr(s, buf(300));
  const pd2 = allocPd(env);
  const r = ok(
    K.ri_mr_reg_shared(
      env.rnic,
      m.mr,
      { va: m.b.va, length: 7, mem_attr: RiMemFlags.LOCAL_READ | RiMemFlags.REMOTE_READ, pd: pd2 },
      0,
      null,
      null,
    ),
  );
  assert.equal(r.mr_reg_attr.length, 300);
  assert.notEqual(riStagSplit(r.ltag).index, riStagSplit(m.ltag).index);
  const i = info(s, r.out_mr);
  assert.equal(i.attr.length, 300);
  assert.equal(i.is_shared_region, true);
  assert.equal(i.attr.pd, pd2);
  assert.equal(info(s, m.mr).is_shared_region, true, 'the source became shared');
  // Register Shared on an Invalid region is refused.
  const inv = ok(K.ri_ltag_alloc(env.rnic, 2, s.pd, ALL_ACCESS, 0, null, null));
  assert.equal(
    code(K.ri_mr_reg_shared(env.rnic, inv.mr, { va: 0n, length: 0, mem_attr: ALL_ACCESS, pd: s.pd }, 0, null, null)),
    name(RiRet.MR_INVALID_HANDLE),
  );
  env.close();
});

transportTest(
  'RNICPI-087 ri_ltag_alloc returns address_list_length ≥ requested and an MR in the invalid STag state (VERBS-10.M2)',
  async () => {
    const t = await twoSides();
    try {
      const r = ok(K.ri_ltag_alloc(t.b.rnic, 5, t.b.pd, ALL_ACCESS, 0x21, null, null));
      assert.ok(r.address_list_length >= 5);
      const i = info(t.b, r.mr);
      assert.equal(i.stag_state, RiStagState.INVALID);
      assert.equal(i.is_shared_region, false);
      // An access through it is a protection error.
      ok(writeTo(t.a, regMr(t.a, buf(8)), r.ltag, 0n));
      await until(() => t.envB.events.some((e) => e.event_type === RiAsyncEventType.QP_PROTECTION_ERROR_STAG_QP_MISMATCH), 'protection AE');
    } finally {
      t.done();
    }
  },
);

transportTest(
  'RNICPI-078 Fast-Register on a valid (not invalidated) STag completes with STAG_NOT_IN_INVALID_STATE_ERROR (VERBS-10.M21)',
  async () => {
    const t = await twoSides({ enable_stag0_fastreg: true });
    try {
      const m = regMr(t.a, buf(PAGE), ALL_ACCESS | RiMemFlags.CONSUMER_OWNS_KEY);
      const { pages } = physPages(t.a, 1);
      ok(fmr(t.a, 1n, m.mr, m.ltag, physAttr(t.a.pd, pages, 0x20_0000n, PAGE)));
      const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
      assert.deepEqual([wc!.op_type, wc!.op_status], [RiWcType.FAST_REGISTER, RiWcStatus.STAG_NOT_IN_INVALID_STATE_ERROR]);
    } finally {
      t.done();
    }
  },
);

transportTest(
  'Fast-register, use, invalidate, fast-register again: the cycle with fresh keys (VERBS-10.M25 a Send right after the Fast-Register uses the new STag)',
  async () => {
    const t = await twoSides({ enable_stag0_fastreg: true });
    try {
      const a = t.a;
      const { b: phys, pages } = physPages(a, 2);
      const al = ok(K.ri_ltag_alloc(a.rnic, 2, a.pd, ALL_ACCESS, 0x10, null, null));
      const va = 0x30_0000n;
      const k1 = ((al.ltag & ~0xff) | 0x11) >>> 0;
      phys.bytes.fill(0x5c, 0, 32);
      const mb = regMr(t.b, buf(32));
      ok(postRecv(t.b, mb, 1n));
      // Fast-Register and, without waiting, a Send from the newly registered memory.
      ok(fmr(a, 1n, al.mr, k1, physAttr(a.pd, pages, va, 2 * PAGE)));
      ok(K.ri_qp_post_send(a.rnic, a.qp, RiWrType.SEND, SIG, 2n, [{ addr: va, tag: k1, len: 32 }], 0, 1, 0));
      assert.deepEqual(
        (await pollWcs(t.envA, a.rnic, a.cq, 2)).map((w) => [w.id, w.op_status]),
        [
          [1n, 0],
          [2n, 0],
        ],
      );
      await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
      assert.ok(mb.b.bytes.every((x) => x === 0x5c));
      assert.equal(info(a, al.mr).stag_state, RiStagState.VALID);
      assert.equal(info(a, al.mr).ltag, k1);
      // The peer writes through it, across the page boundary.
      const src = regMr(t.b, buf(16, 0xe1));
      ok(writeTo(t.b, src, k1, va + BigInt(PAGE - 8), 3n));
      await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
      await deliver(t.b, t.a);
      assert.ok(phys.bytes.subarray(PAGE - 8, PAGE + 8).every((x) => x === 0xe1));
      // Invalidate (fenced), then register again with a new key.
      ok(invalidateMr(a, 4n, al.mr, k1, SIG | RiWrFlags.LOCAL_FENCE_FLAG));
      const [iwc] = await pollWcs(t.envA, a.rnic, a.cq, 1);
      assert.deepEqual([iwc!.op_type, iwc!.op_status], [RiWcType.LOCAL_INVALIDATE, 0]);
      assert.equal(info(a, al.mr).stag_state, RiStagState.INVALID);
      const k2 = ((al.ltag & ~0xff) | 0x12) >>> 0;
      ok(fmr(a, 5n, al.mr, k2, physAttr(a.pd, pages, va, PAGE, RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_WRITE)));
      assert.equal((await pollWcs(t.envA, a.rnic, a.cq, 1))[0]!.op_status, 0);
      ok(writeTo(t.b, src, k2, va, 6n, 4));
      await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
      // The Write's completion is local delivery: a later Send makes sure it was placed.
      await deliver(t.b, t.a);
      // The old key is dead: the stale access is a protection error and changes nothing.
      phys.bytes.fill(0, 0, 64);
      ok(writeTo(t.b, src, k1, va, 7n, 4));
      await until(
        () => t.envA.events.some((e) => e.event_type === RiAsyncEventType.QP_PROTECTION_ERROR_STAG_QP_MISMATCH),
        'stale key refused',
      );
      assert.ok(phys.bytes.subarray(0, 64).every((x) => x === 0));
    } finally {
      t.done();
    }
  },
);

transportTest('VERBS-10.M20 Fast-Register on a QP without the STag0/Fast-Register privilege → CE "QP not privileged"', async () => {
  const t = await twoSides();
  try {
    const al = ok(K.ri_ltag_alloc(t.a.rnic, 1, t.a.pd, ALL_ACCESS, 0, null, null));
    const { pages } = physPages(t.a, 1);
    ok(fmr(t.a, 1n, al.mr, al.ltag, physAttr(t.a.pd, pages, 0n, PAGE)));
    const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    assert.equal(wc!.op_status, RiWcStatus.FMR_QP_NOT_PRIVILEGED_ERROR);
  } finally {
    t.done();
  }
});

transportTest(
  'VERBS-10.M22 Fast-Register with a PBL longer than allocated → CE "PBL too long"; M23 remote rights without the Remote Access Flag → CE "invalid access rights"',
  async () => {
    for (const [len, rights, pagesN, want] of [
      [1, ALL_ACCESS, 3, RiWcStatus.FMR_PBL_TOO_LONG_ERROR],
      [2, RiMemFlags.LOCAL_WRITE, 1, RiWcStatus.INVALID_FMR_PERMS_ERROR],
    ] as const) {
      const t = await twoSides({ enable_stag0_fastreg: true });
      try {
        const al = ok(K.ri_ltag_alloc(t.a.rnic, len, t.a.pd, rights, 0, null, null));
        assert.ok(al.address_list_length < 3 || pagesN === 1);
        const { pages } = physPages(t.a, pagesN);
        ok(fmr(t.a, 1n, al.mr, al.ltag, physAttr(t.a.pd, pages, 0n, pagesN * PAGE, ALL_ACCESS)));
        const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
        assert.equal(wc!.op_status, want);
      } finally {
        t.done();
      }
    }
  },
);

transportTest('VERBS-10.M24 Fast-Register of an STag from another PD → CE "Invalid PD"', async () => {
  const t = await twoSides({ enable_stag0_fastreg: true });
  try {
    const pd2 = allocPd(t.envA);
    const al = ok(K.ri_ltag_alloc(t.a.rnic, 1, pd2, ALL_ACCESS, 0, null, null));
    const { pages } = physPages(t.a, 1);
    ok(fmr(t.a, 1n, al.mr, al.ltag, physAttr(t.a.pd, pages, 0n, PAGE)));
    assert.equal((await pollWcs(t.envA, t.a.rnic, t.a.cq, 1))[0]!.op_status, RiWcStatus.INVALID_PD_ERROR);
  } finally {
    t.done();
  }
});

transportTest(
  'VERBS-10.M26 Invalidate Local STag of an MR that is already Invalid → success; M14 deregistration works Valid or Invalid and ignores the key',
  async () => {
    const t = await twoSides();
    try {
      const al = ok(K.ri_ltag_alloc(t.a.rnic, 1, t.a.pd, ALL_ACCESS, 0x40, null, null));
      ok(invalidateMr(t.a, 1n, al.mr, al.ltag));
      const m = regMr(t.a, buf(16));
      ok(invalidateMr(t.a, 2n, m.mr, m.ltag));
      assert.deepEqual(
        (await pollWcs(t.envA, t.a.rnic, t.a.cq, 2)).map((w) => w.op_status),
        [0, 0],
      );
      assert.equal(info(t.a, m.mr).stag_state, RiStagState.INVALID);
      ok(K.ri_mr_dereg(t.a.rnic, al.mr));
      ok(K.ri_mr_dereg(t.a.rnic, m.mr));
      ok(K.ri_mr_dereg(t.a.rnic, regMr(t.a, buf(8)).mr), 'Valid');
    } finally {
      t.done();
    }
  },
);

transportTest('VERBS-10.M27 Invalidate Local STag with the wrong key → CE and the QP terminates', async () => {
  const t = await twoSides();
  try {
    const m = regMr(t.a, buf(16));
    ok(invalidateMr(t.a, 1n, m.mr, ((m.ltag & ~0xff) | ((m.ltag + 3) & 0xff)) >>> 0));
    const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    assert.equal(wc!.op_status, RiWcStatus.INVALID_STAG_ERROR);
    await until(() => state(t.a) === RiQpState.ERROR, 'terminated');
    assert.equal(info(t.a, m.mr).stag_state, RiStagState.VALID, 'the MR was not invalidated');
  } finally {
    t.done();
  }
});

transportTest('VERBS-10.M19 Invalidate Local STag on a shared MR → CE', async () => {
  const t = await twoSides();
  try {
    const m = regMr(t.a, buf(16));
    const sh = ok(K.ri_mr_reg_shared(t.a.rnic, m.mr, { va: m.b.va, length: 0, mem_attr: ALL_ACCESS, pd: t.a.pd }, 0, null, null));
    ok(invalidateMr(t.a, 1n, sh.out_mr, sh.ltag));
    const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    assert.notEqual(wc!.op_status, RiWcStatus.SUCCESS);
    assert.equal(info(t.a, sh.out_mr).stag_state, RiStagState.VALID, 'a shared MR is always valid');
  } finally {
    t.done();
  }
});

transportTest('VERBS-10.M30 a deallocated STag used in an SGE → CE Invalid STag; a remote access to it → protection AE', async () => {
  const t = await twoSides();
  try {
    const m = regMr(t.a, buf(16));
    const r = regMr(t.b, buf(16));
    ok(K.ri_mr_dereg(t.a.rnic, m.mr));
    ok(K.ri_mr_dereg(t.b.rnic, r.mr));
    ok(postSend(t.a, m, 1n));
    assert.equal((await pollWcs(t.envA, t.a.rnic, t.a.cq, 1))[0]!.op_status, RiWcStatus.INVALID_STAG_ERROR);
  } finally {
    t.done();
  }
  const t2 = await twoSides();
  try {
    const r = regMr(t2.b, buf(16, 9));
    ok(K.ri_mr_dereg(t2.b.rnic, r.mr));
    ok(writeTo(t2.a, regMr(t2.a, buf(8)), r.rtag!, r.b.va));
    await until(() => t2.envB.events.some((e) => e.event_type === RiAsyncEventType.QP_PROTECTION_ERROR_STAG_QP_MISMATCH), 'protection AE');
    assert.ok(r.b.bytes.every((x) => x === 9));
  } finally {
    t2.done();
  }
});

transportTest(
  'VERBS-10.I6 RDMA Read with Invalidate Local STag: when its WC is polled the local sink STag is invalid and the data is present',
  async () => {
    const t = await twoSides();
    try {
      const src = regMr(t.b, buf(64, 0x3c));
      const sink = regMr(t.a, buf(64));
      ok(K.ri_qp_post_rdma_read(t.a.rnic, t.a.qp, RiWrType.RDMA_READ_LOCAL_INVALIDATE, SIG, 1n, [seg(sink)], src.b.va, 1, src.rtag!));
      const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
      assert.deepEqual([wc!.op_type, wc!.op_status], [RiWcType.RDMA_READ_LOCAL_INVALIDATE, 0]);
      assert.ok(sink.b.bytes.every((x) => x === 0x3c));
      assert.equal(info(t.a, sink.mr).stag_state, RiStagState.INVALID);
    } finally {
      t.done();
    }
  },
);

transportTest(
  "RNICPI-093 an incoming RDMA Write outside an MR's bounds fails the QP (bounds-violation AE with the QP os_data, Terminate) and memory outside the bounds is untouched",
  async (transport) => {
    const t = await twoSides();
    try {
      const whole = buf(256, 0x01);
      const inner = bufRegion(whole, 64, 64);
      const m = regMr(t.b, inner);
      ok(writeTo(t.a, regMr(t.a, buf(16, 0xee)), m.rtag!, inner.va + 56n));
      await until(() => t.envB.events.some((e) => e.event_type === RiAsyncEventType.QP_PROTECTION_ERROR_BOUNDS_VIOLATION), 'bounds AE');
      const ev = t.envB.events.find((e) => e.event_type === RiAsyncEventType.QP_PROTECTION_ERROR_BOUNDS_VIOLATION)!;
      assert.ok('resource_os_data' in ev.event_data && ev.event_data.resource_os_data === t.b.qpOsData);
      await until(() => state(t.b) === RiQpState.ERROR, 'target QP failed');
      assert.ok(
        whole.bytes.every((x) => x === 0x01),
        'nothing written, inside or outside',
      );
      const iw = ok(K.ri_qp_query(t.b.rnic, t.b.qp)).attrs.qp_xport;
      // The Terminate iWARP sends copies the offending DDP/RDMAP headers (RFC 5040 §7.2); the loopback
      // wire has no headers to copy, only the Terminate code of the fault.
      if (transport === 'iwarp')
        assert.ok('qp_iwarp' in iw && iw.qp_iwarp.terminate_msg_length > 4, 'the Terminate copies the offending headers');
      else assert.ok('qp_iwarp' in iw && iw.qp_iwarp.terminate_msg_length >= 4, 'the Terminate code is reported');
    } finally {
      t.done();
    }
  },
);

function bufRegion(whole: Buf, off: number, len: number): Buf {
  return { bytes: whole.bytes.subarray(off, off + len), va: whole.va + BigInt(off) };
}

test('RNICPI-094 ri_mem_pin twice then ri_mem_unpin once leaves the range pinned; an unpin with a different range (or os_data) is rejected', () => {
  const env = openRnic();
  const b = buf(8192);
  const pinned = () => K.ri_mem_map(env.rnic, b.va, 8192, 'probe').status === RiRet.SUCCESS;
  assert.equal(pinned(), false, 'mapping needs pinned memory');
  ok(K.ri_mem_pin(env.rnic, b.va, 8192, 'o1'));
  ok(K.ri_mem_pin(env.rnic, b.va, 8192, 'o2'));
  ok(K.ri_mem_unpin(env.rnic, b.va, 8192, 'o1'));
  assert.equal(pinned(), true);
  assert.equal(code(K.ri_mem_unpin(env.rnic, b.va, 4096, 'o2')), name(RiRet.INVALID_PARAMETER), 'another range');
  assert.equal(code(K.ri_mem_unpin(env.rnic, b.va, 8192, 'o3')), name(RiRet.INVALID_PARAMETER), 'another os_data');
  ok(K.ri_mem_unpin(env.rnic, b.va, 8192, 'o2'));
  assert.equal(code(K.ri_mem_map(env.rnic, b.va, 8192, 'late')), name(RiRet.INVALID_PARAMETER), 'no longer pinned');
  assert.equal(code(K.ri_mem_unpin(env.rnic, b.va, 8192, 'o2')), name(RiRet.INVALID_PARAMETER));
  // Privileged only.
  assert.equal(code(K.ri_mem_pin(userHandle(env), b.va, 8192, 'u')), name(RiRet.NO_PERMISSION));
  env.close();
});

test('RNICPI-095 ri_mem_sync_rread/rwrite with a NULL list and num_seg > 0 return INVALID_PARAMETER; with only coherent segments they succeed', () => {
  const env = openRnic();
  const s = makeSide(env);
  const m = regMr(s, buf(64));
  for (const f of [K.ri_mem_sync_rread, K.ri_mem_sync_rwrite]) {
    assert.equal(code(f(env.rnic, null, 1)), name(RiRet.INVALID_PARAMETER));
    assert.equal(code(f(env.rnic, null, 0)), name(RiRet.SUCCESS));
    assert.equal(code(f(env.rnic, [seg(m, 0, 32), seg(m, 32, 32)], 2)), name(RiRet.SUCCESS));
    assert.equal(code(f(env.rnic, [{ addr: m.b.va, tag: (m.ltag ^ 0x100) >>> 0, len: 8 }], 1)), name(RiRet.MEM_INVALID_LTAG));
    assert.equal(code(f(env.rnic, [{ addr: m.b.va + 60n, tag: m.ltag, len: 8 }], 1)), name(RiRet.MEM_INVALID_LENGTH));
    assert.equal(code(f(env.rnic, [{ addr: m.b.va - 8n, tag: m.ltag, len: 8 }], 1)), name(RiRet.MEM_INVALID_ADDRESS));
  }
  env.close();
});

test('RNICPI-096 ri_mem_map repeated with advanced vaddr until len is consumed covers the range contiguously per returned chunk', () => {
  const env = openRnic();
  const b = buf(3 * PAGE + 100);
  const len = b.bytes.length;
  ok(K.ri_mem_pin(env.rnic, b.va, len, 'p'));
  const chunks: { va: bigint; pa: bigint; n: bigint }[] = [];
  let va = b.va;
  let left = BigInt(len);
  while (left > 0n) {
    const io = ok(K.ri_mem_map(env.rnic, va, Number(left), 'm')).io;
    assert.ok(io.phys_len > 0n && io.phys_len <= left);
    chunks.push({ va, pa: io.phys_address, n: io.phys_len });
    va += io.phys_len;
    left -= io.phys_len;
  }
  assert.equal(
    chunks.reduce((n, c) => n + c.n, 0n),
    BigInt(len),
  );
  // The physical view really is the same memory: a physical registration over the chunks
  // reads back what the virtual buffer holds.
  b.bytes.fill(0x4d);
  const s = makeSide(env);
  const r = ok(
    K.ri_mr_reg_phys(
      env.rnic,
      {
        common: { va: 0n, length: len, mem_attr: ALL_ACCESS | RiMemFlags.ZBVA, pd: s.pd },
        phys_buf_list: chunks.map((c) => ({ phys_address: c.pa, phys_len: c.n })),
        pble_size: 0,
        address_offset: 0,
      },
      0,
      null,
      null,
    ),
  );
  assert.equal(info(s, r.mr).attr.length, len);
  for (const c of chunks) ok(K.ri_mem_unmap(env.rnic, { phys_address: c.pa, phys_len: c.n }, 'm'));
  assert.equal(
    code(K.ri_mem_unmap(env.rnic, { phys_address: chunks[0]!.pa, phys_len: chunks[0]!.n }, 'm')),
    name(RiRet.INVALID_PARAMETER),
    'unmapped twice',
  );
  ok(K.ri_mem_unpin(env.rnic, b.va, len, 'p'));
  env.close();
});

transportTest(
  'an inbound Send with Invalidate invalidates a Fast-Register MR; one naming an MR made by ri_mr_reg fails the receive (STag invalidate error) and that MR stays Valid',
  async () => {
    const t = await twoSides({}, { enable_stag0_fastreg: true });
    try {
      const b = t.b;
      const { pages } = physPages(b, 1);
      const al = ok(K.ri_ltag_alloc(b.rnic, 1, b.pd, ALL_ACCESS, 0x10, null, null));
      const k1 = ((al.ltag & ~0xff) | 0x11) >>> 0;
      ok(fmr(b, 1n, al.mr, k1, physAttr(b.pd, pages, 0x40_0000n, PAGE)));
      assert.equal((await pollWcs(t.envB, b.rnic, b.cq, 1))[0]!.op_status, RiWcStatus.SUCCESS);
      assert.equal(info(b, al.mr).stag_state, RiStagState.VALID);
      const rb = regMr(b, buf(16));
      ok(postRecv(b, rb, 2n));
      ok(K.ri_qp_post_send(t.a.rnic, t.a.qp, RiWrType.SEND_INVALIDATE, SIG, 3n, [], k1, 0, 0));
      const [wc] = await pollWcs(t.envB, b.rnic, b.cq, 1);
      assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
      assert.equal(wc!.invalidated_rtag, k1);
      assert.equal(info(b, al.mr).stag_state, RiStagState.INVALID);
      // A region made by a registration is not the peer's to revoke.
      const target = regMr(b, buf(16));
      ok(postRecv(b, rb, 4n));
      ok(K.ri_qp_post_send(t.a.rnic, t.a.qp, RiWrType.SEND_INVALIDATE, SIG, 5n, [], target.rtag!, 0, 0));
      const [wc2] = await pollWcs(t.envB, b.rnic, b.cq, 1);
      assert.equal(wc2!.op_status, RiWcStatus.STAG_INVALIDATE_ERROR);
      assert.equal(info(b, target.mr).stag_state, RiStagState.VALID);
    } finally {
      t.done();
    }
  },
);

/**
 * Conformance: registration and RNIC lifecycle (RNICPI-001…016, digest §10; RDMA Verbs §10 R*).
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createAccessLayer, riLoadProvider } from '../../src/provider/access-layer.js';
import {
  createSoftrdmaVp,
  SOFTRDMA_KERNEL_OPS as K,
  SOFTRDMA_KERNEL_VP_OPS,
  SOFTRDMA_LIB_PATH,
  SOFTRDMA_USER_OPS as U,
  type SoftrdmaProviderInstance,
  softrdmaDevArg,
} from '../../src/provider/softrdma.js';
import { getProvider } from '../../src/rnicpi/registry.js';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiConsumerDomain, RiMemFlags, RiPblMode, RiRnicFlags } from '../../src/rnicpi/types.js';
import { allocPd, buf, cleanupAll, code, createCq, makeSide, name, ok, openRnic, regMr } from './helpers.js';

after(cleanupAll);

test('RNICPI-001 ri_svc_attach with NULL svcs or NULL al_locking_ops returns INVALID_PARAMETER; NULL vp_locking_ops is accepted', () => {
  const al = createAccessLayer();
  const vp = createSoftrdmaVp();
  assert.equal(code(al.svc.ri_svc_attach(vp, 'eth0', null, K, SOFTRDMA_KERNEL_VP_OPS)), name(RiRet.INVALID_PARAMETER));
  assert.equal(code(al.svc.ri_svc_attach(vp, 'eth0', softrdmaDevArg(vp), null, SOFTRDMA_KERNEL_VP_OPS)), name(RiRet.INVALID_PARAMETER));
  assert.equal(al.attachments().length, 0, 'a refused attach records nothing');
  assert.equal(code(al.svc.ri_svc_attach(vp, 'eth0', softrdmaDevArg(vp), K, null)), name(RiRet.SUCCESS));
  ok(al.svc.ri_svc_detach(vp));
});

test('RNICPI-002 a second ri_svc_attach for the same VP handle without ri_svc_detach returns RNIC_INUSE', () => {
  const al = createAccessLayer();
  const vp = createSoftrdmaVp();
  ok(al.svc.ri_svc_attach(vp, 'eth0', softrdmaDevArg(vp), K, null));
  assert.equal(code(al.svc.ri_svc_attach(vp, 'eth0', softrdmaDevArg(vp), K, null)), name(RiRet.RNIC_INUSE));
  ok(al.svc.ri_svc_detach(vp));
  // After the detach the same VP handle may attach again.
  ok(al.svc.ri_svc_attach(vp, 'eth0', softrdmaDevArg(vp), K, null));
  ok(al.svc.ri_svc_detach(vp));
});

test('RNICPI-003 an incompatible rnicpi_major_version in svcs yields INVALID_VP_VERSION', () => {
  const al = createAccessLayer();
  const vp = createSoftrdmaVp();
  const svcs = { ...softrdmaDevArg(vp), rnicpi_major_version: 2 };
  assert.equal(code(al.svc.ri_svc_attach(vp, 'eth0', svcs, K, null)), name(RiRet.INVALID_VP_VERSION));
  assert.equal(softrdmaDevArg(vp).rnicpi_major_version, 1, 'softrdma announces RNICPI 1.x');
});

test('RNICPI-004 ri_rnic_open invoked from inside ri_svc_attach succeeds (provider loaded from the registry as "softrdma")', () => {
  const seen: RiRet[] = [];
  const al = createAccessLayer({
    onAttach: (att) => seen.push(att.ops.ri_rnic_open(att.vp_hdl, RiPblMode.PAGE_LIST_MODE, { os: 1 }).status),
  });
  assert.equal(typeof getProvider('softrdma'), 'function');
  const inst = riLoadProvider<SoftrdmaProviderInstance>(al, 'softrdma', { rnics: 2 });
  try {
    assert.deepEqual(seen, [RiRet.SUCCESS, RiRet.SUCCESS]);
    assert.equal(al.attachments().length, 2);
    for (const att of al.attachments()) {
      assert.equal(att.open, true);
      assert.equal(att.al_locking_ops, K, 'the AL-serialized kernel vector is given as al_locking_ops');
      const h = ok(att.ops.ri_rnic_get_hdl(att.vp_hdl, RiConsumerDomain.KERNEL, null, null)).rnic;
      ok(att.ops.ri_rnic_free_hdl(att.vp_hdl, h));
    }
  } finally {
    for (const att of al.attachments()) ok(att.ops.ri_rnic_close(att.vp_hdl));
    inst.unload();
  }
  assert.equal(al.attachments().length, 0, 'unload detached every RNIC');
});

test('RNICPI-005 ri_rnic_open with a pbl_mode outside {0,1} returns INVALID_PARAMETER; block mode on a page-only RNIC returns INVALID_PBL_MODE', () => {
  const vp = createSoftrdmaVp();
  assert.equal(code(K.ri_rnic_open(vp, 7 as RiPblMode, null)), name(RiRet.INVALID_PARAMETER));
  assert.equal(code(K.ri_rnic_open(vp, RiPblMode.BLOCK_LIST_MODE, null)), name(RiRet.INVALID_PBL_MODE));
  // The refusal is consistent with the capability the RNIC reports.
  ok(K.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, null));
  const h = ok(K.ri_rnic_get_hdl(vp, RiConsumerDomain.KERNEL, null, null)).rnic;
  const q = ok(K.ri_rnic_query(h, 0, 1 << 16));
  assert.equal(q.attrs.rnic_flags & RiRnicFlags.EXT_BLOCK_MODE, 0);
  ok(K.ri_rnic_free_hdl(vp, h));
  ok(K.ri_rnic_close(vp));
});

test('RNICPI-006 page-list mode open always succeeds on a fresh attached RNIC', () => {
  const al = createAccessLayer();
  const vp = createSoftrdmaVp();
  ok(al.svc.ri_svc_attach(vp, 'eth0', softrdmaDevArg(vp), K, SOFTRDMA_KERNEL_VP_OPS));
  const ops = al.opsFor(vp)!;
  assert.equal(code(ops.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, null)), name(RiRet.SUCCESS));
  ok(ops.ri_rnic_close(vp));
  ok(al.svc.ri_svc_detach(vp));
});

test('RNICPI-007 a second ri_rnic_open without close returns RNIC_INUSE (VERBS-10.R1)', () => {
  const vp = createSoftrdmaVp();
  ok(K.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, null));
  assert.equal(code(K.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, null)), name(RiRet.RNIC_INUSE));
  ok(K.ri_rnic_close(vp));
  // Closed: it opens again.
  ok(K.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, null));
  ok(K.ri_rnic_close(vp));
});

test('RNICPI-008 ri_rnic_get_hdl before ri_rnic_open returns RNIC_NOT_OPEN', () => {
  const vp = createSoftrdmaVp();
  assert.equal(code(K.ri_rnic_get_hdl(vp, RiConsumerDomain.KERNEL, null, null)), name(RiRet.RNIC_NOT_OPEN));
  assert.equal(code(U.ri_rnic_get_hdl(vp, RiConsumerDomain.USER, null, null)), name(RiRet.RNIC_NOT_OPEN));
  assert.equal(vp.handles.size, 0);
});

test('RNICPI-009 ri_rnic_get_hdl with an undefined location returns INVALID_PARAMETER', () => {
  const vp = createSoftrdmaVp();
  ok(K.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, null));
  assert.equal(code(K.ri_rnic_get_hdl(vp, 2 as RiConsumerDomain, null, null)), name(RiRet.INVALID_PARAMETER));
  assert.equal(code(K.ri_rnic_get_hdl({} as never, RiConsumerDomain.KERNEL, null, null)), name(RiRet.VP_INVALID_HANDLE));
  // The user-level version ignores location.
  const h = ok(U.ri_rnic_get_hdl(vp, 2 as RiConsumerDomain, null, null)).rnic;
  ok(K.ri_rnic_free_hdl(vp, h));
  ok(K.ri_rnic_close(vp));
});

test('RNICPI-010 ri_rnic_get_hdl may be called repeatedly and each returned handle works independently', () => {
  const env = openRnic();
  const h2 = ok(K.ri_rnic_get_hdl(env.vp, RiConsumerDomain.KERNEL, null, null)).rnic;
  const h3 = ok(SOFTRDMA_KERNEL_VP_OPS.ri_rnic_get_hdl(env.vp, RiConsumerDomain.KERNEL, null, null)).rnic;
  assert.notEqual(h2, env.rnic);
  assert.notEqual(h3, h2);
  assert.equal(h2.ops, K, 'rnic.ops is the vector ri_rnic_get_hdl was called through');
  assert.equal(h3.ops, SOFTRDMA_KERNEL_VP_OPS);
  const pd2 = allocPd(env, h2);
  const pd3 = allocPd(env, h3);
  ok(K.ri_pd_dealloc(h2, pd2));
  ok(K.ri_rnic_free_hdl(env.vp, h2));
  // h3 is unaffected by h2's end.
  createCq(env, 8, 0, 'cq3', h3);
  assert.equal(code(K.ri_pd_dealloc(h2, pd3)), name(RiRet.RNIC_INVALID_HANDLE));
  assert.equal(code(K.ri_pd_alloc(h2, null, null)), name(RiRet.RNIC_INVALID_HANDLE));
  env.close();
});

test('RNICPI-011 ri_rnic_close while an RNIC handle is outstanding returns RNIC_INUSE', () => {
  const vp = createSoftrdmaVp();
  ok(K.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, null));
  const h = ok(K.ri_rnic_get_hdl(vp, RiConsumerDomain.KERNEL, null, null)).rnic;
  assert.equal(code(K.ri_rnic_close(vp)), name(RiRet.RNIC_INUSE));
  // The refused close changed nothing: the handle still works.
  const pd = ok(K.ri_pd_alloc(h, null, null)).pd;
  ok(K.ri_pd_dealloc(h, pd));
  ok(K.ri_rnic_free_hdl(vp, h));
  ok(K.ri_rnic_close(vp));
});

test('VERBS-10.R3 Close RNIC with live resources succeeds and invalidates every handle', {
  skip: 'RNICPI ri_rnic_close refuses with RNIC_INUSE while RNIC handles remain (RNICPI-011); softrdma follows RNICPI, see spec-notes',
}, () => {});

test('RNICPI-012 ri_rnic_close on an already-closed or unknown VP handle returns VP_INVALID_HANDLE', () => {
  const vp = createSoftrdmaVp();
  assert.equal(code(K.ri_rnic_close(vp)), name(RiRet.VP_INVALID_HANDLE), 'never opened');
  ok(K.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, null));
  ok(K.ri_rnic_close(vp));
  assert.equal(code(K.ri_rnic_close(vp)), name(RiRet.VP_INVALID_HANDLE), 'already closed');
  assert.equal(code(K.ri_rnic_close({ what: 'not a vp' } as never)), name(RiRet.VP_INVALID_HANDLE));
});

test('RNICPI-013 ri_svc_detach while the RNIC is open returns RNIC_INUSE; after close it succeeds', () => {
  const al = createAccessLayer();
  const vp = createSoftrdmaVp();
  ok(al.svc.ri_svc_attach(vp, 'eth0', softrdmaDevArg(vp), K, null));
  const ops = al.opsFor(vp)!;
  ok(ops.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, null));
  assert.equal(code(al.svc.ri_svc_detach(vp)), name(RiRet.RNIC_INUSE));
  ok(ops.ri_rnic_close(vp));
  assert.equal(code(al.svc.ri_svc_detach(vp)), name(RiRet.SUCCESS));
  assert.equal(code(al.svc.ri_svc_detach(vp)), name(RiRet.VP_INVALID_HANDLE), 'the vp handle is dead for the AL');
});

test('RNICPI-014 ri_rnic_free_hdl with any PD/CQ/QP/MR still allocated returns RNIC_INUSE', () => {
  const env = openRnic();
  const s = makeSide(env);
  const m = regMr(s, buf(64));
  const inuse = () => code(K.ri_rnic_free_hdl(env.vp, env.rnic));
  assert.equal(inuse(), name(RiRet.RNIC_INUSE), 'PD+CQ+QP+MR');
  ok(K.ri_mr_dereg(env.rnic, m.mr));
  assert.equal(inuse(), name(RiRet.RNIC_INUSE), 'PD+CQ+QP');
  ok(K.ri_qp_destroy(env.rnic, s.qp));
  assert.equal(inuse(), name(RiRet.RNIC_INUSE), 'PD+CQ');
  ok(K.ri_cq_destroy(env.rnic, s.cq));
  assert.equal(inuse(), name(RiRet.RNIC_INUSE), 'PD');
  ok(K.ri_pd_dealloc(env.rnic, s.pd));
  assert.equal(inuse(), name(RiRet.SUCCESS));
  assert.equal(code(K.ri_rnic_free_hdl(env.vp, env.rnic)), name(RiRet.RNIC_INVALID_HANDLE), 'freed twice');
  env.close();
});

test('RNICPI-015 user-level ri_rnic_open, ri_rnic_close, ri_async_set_event_handler, ri_cq_set_event_handler return NO_PERMISSION', () => {
  const vp = createSoftrdmaVp();
  assert.equal(code(U.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, null)), name(RiRet.NO_PERMISSION));
  assert.equal(vp.open, false, 'the stub changed nothing');
  ok(K.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, null));
  assert.equal(code(U.ri_rnic_close(vp)), name(RiRet.NO_PERMISSION));
  assert.equal(code(U.ri_async_set_event_handler(vp, () => {})), name(RiRet.NO_PERMISSION));
  assert.equal(code(U.ri_cq_set_event_handler(vp, 0, () => {})), name(RiRet.NO_PERMISSION));
  ok(K.ri_rnic_close(vp));
});

test('RNICPI-016 ri_svc_lib_reg with a lib_path not announced by any open RNIC returns INVALID_LIB_PATH', () => {
  const al = createAccessLayer();
  const vp = createSoftrdmaVp();
  ok(al.svc.ri_svc_attach(vp, 'eth0', softrdmaDevArg(vp), K, null));
  assert.equal(code(al.svc.ri_svc_lib_reg('/opt/other/libvp.so', U, null, null)), name(RiRet.INVALID_LIB_PATH));
  // Announced but not open yet: still refused.
  assert.equal(code(al.svc.ri_svc_lib_reg(SOFTRDMA_LIB_PATH, U, null, null)), name(RiRet.INVALID_LIB_PATH));
  const ops = al.opsFor(vp)!;
  ok(ops.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, null));
  assert.equal(code(al.svc.ri_svc_lib_reg(SOFTRDMA_LIB_PATH, U, null, null)), name(RiRet.SUCCESS));
  assert.equal(code(al.svc.ri_svc_lib_reg(SOFTRDMA_LIB_PATH, null, null, null)), name(RiRet.INVALID_PARAMETER));
  assert.deepEqual(al.libraries(), [SOFTRDMA_LIB_PATH]);
  ok(ops.ri_rnic_close(vp));
  ok(al.svc.ri_svc_detach(vp));
});

test('VERBS-10.R6 Deallocate PD with an unknown PD handle returns PD_INVALID_HANDLE', () => {
  const env = openRnic();
  const pd = allocPd(env);
  ok(K.ri_pd_dealloc(env.rnic, pd));
  assert.equal(code(K.ri_pd_dealloc(env.rnic, pd)), name(RiRet.PD_INVALID_HANDLE), 'already deallocated');
  assert.equal(code(K.ri_pd_dealloc(env.rnic, { nope: 1 } as never)), name(RiRet.PD_INVALID_HANDLE));
  // A PD used after deallocation is invalid everywhere.
  const b = buf(16);
  assert.equal(
    code(K.ri_mr_reg(env.rnic, { va: b.va, length: 16, mem_attr: RiMemFlags.LOCAL_WRITE, pd }, 0, null, null)),
    name(RiRet.PD_INVALID_HANDLE),
  );
  env.close();
});

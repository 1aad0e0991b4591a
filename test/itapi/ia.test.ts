/**
 * IT-API conformance, digest §10 "IA / discovery / handles" (assertions 1–12).
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { RiAsyncEventType } from '../../src/rnicpi/types.js';
import {
  IT_ASYNC_AFF_EVENT_STREAM,
  IT_ASYNC_UNAFF_EVENT_STREAM,
  IT_CM_REQ_EVENT_STREAM,
  IT_DTO_EVENT_STREAM,
  IT_EP_PARAM_ALL,
  IT_EVD_PARAM_ALL,
  IT_HANDLE_TYPE_EP,
  IT_HANDLE_TYPE_EVD,
  IT_HANDLE_TYPE_IA,
  IT_HANDLE_TYPE_LISTEN,
  IT_HANDLE_TYPE_LMR,
  IT_HANDLE_TYPE_PZ,
  IT_HANDLE_TYPE_RMR,
  IT_HANDLE_TYPE_SRQ,
  IT_IWARP_TCP_TRANSPORT,
  IT_LISTEN_PARAM_ALL,
  IT_LMR_PARAM_ALL,
  IT_PZ_PARAM_ALL,
  IT_RMR_PARAM_ALL,
  IT_RMR_TYPE_NARROW,
  IT_SRQ_PARAM_ALL,
  IT_SUCCESS,
  IT_TIMEOUT_INFINITE,
  it_ep_query,
  it_ep_rc_create,
  it_evd_create,
  it_evd_dequeue,
  it_evd_query,
  it_evd_wait,
  it_get_consumer_context,
  it_get_handle_type,
  it_hton64,
  it_ia_create,
  it_ia_free,
  it_ia_query,
  it_interface_list,
  it_listen_query,
  it_lmr_query,
  it_ntoh64,
  it_pz_create,
  it_pz_free,
  it_pz_query,
  it_rmr_create,
  it_rmr_query,
  it_set_consumer_context,
  it_srq_create,
  it_srq_query,
  it_status_t as S,
  softrdmaItapiDevices,
} from '../../src/itapi/index.js';
import { freeAll, freeIa, ifName, listen, makeSide, openIa, rcAttrs, reg, rejectsIt, sevd, throwsIt } from './helpers.js';
import type { SoftrdmaVp } from '../../src/provider/softrdma.js';

afterEach(freeAll);

test('ITAPI-IA-01 it_interface_list with capacity 1 writes at most 1 entry and reports the full total', () => {
  const one = it_interface_list(1);
  assert.ok(one.interfaces.length <= 1);
  const all = it_interface_list(64);
  assert.equal(one.total_interfaces, all.total_interfaces);
  assert.equal(all.interfaces.length, all.total_interfaces);
  assert.ok(all.total_interfaces >= 1);
  const none = it_interface_list(0);
  assert.equal(none.interfaces.length, 0);
  assert.equal(none.total_interfaces, all.total_interfaces);
  const i = one.interfaces[0]!;
  assert.equal(i.major_version, 2);
  assert.equal(i.minor_version, 1);
  assert.equal(i.transport_type, IT_IWARP_TCP_TRANSPORT);
});

test('ITAPI-IA-02 it_ia_create: unknown name, unsupported major and too-high minor are refused', () => {
  throwsIt(() => it_ia_create('no-such-interface', 2, 1), S.IT_ERR_INVALID_NAME);
  throwsIt(() => it_ia_create(ifName(), 3, 0), S.IT_ERR_INVALID_MAJOR_VERSION);
  throwsIt(() => it_ia_create(ifName(), 2, 2), S.IT_ERR_INVALID_MINOR_VERSION);
});

test('ITAPI-IA-03 it_ia_create(name, 2, 0) and (name, 2, 1) both succeed', () => {
  const a = it_ia_create(ifName(), 2, 0);
  const b = it_ia_create(ifName(), 2, 1);
  assert.notEqual(a, b);
  it_ia_free(a);
  it_ia_free(b);
});

test('ITAPI-IA-04 it_ia_query: API 2.1, async error EVDs NULL until created', () => {
  const ia = openIa();
  const i0 = it_ia_query(ia);
  assert.equal(i0.api_major_version, 2);
  assert.equal(i0.api_minor_version, 1);
  assert.equal(i0.affiliated_err_evd, null);
  assert.equal(i0.unaffiliated_err_evd, null);
  const aff = sevd(ia, IT_ASYNC_AFF_EVENT_STREAM, 8, 1);
  const unaff = sevd(ia, IT_ASYNC_UNAFF_EVENT_STREAM, 8, 1);
  const i1 = it_ia_query(ia);
  assert.equal(i1.affiliated_err_evd, aff);
  assert.equal(i1.unaffiliated_err_evd, unaff);
});

test('ITAPI-IA-05 after the IA is disabled every call but it_ia_free answers IT_ERR_IA_CATASTROPHE', async () => {
  const s = makeSide();
  const ia = s.ia;
  const b = reg(s.pz, 64);
  // Inject an RNIC-level catastrophic error (the engine's asynchronous event; no API makes one).
  const dev = softrdmaItapiDevices()[0]!;
  (dev.vp as SoftrdmaVp).engine.asyncEvent(RiAsyncEventType.LOCAL_CATASTROPHIC_ERROR, null);
  await new Promise((r) => setImmediate(r));
  const cat = S.IT_ERR_IA_CATASTROPHE;
  throwsIt(() => it_ia_query(ia), cat);
  throwsIt(() => it_pz_create(ia), cat);
  throwsIt(() => it_pz_free(s.pz), cat);
  throwsIt(() => it_pz_query(s.pz, IT_PZ_PARAM_ALL), cat);
  throwsIt(() => it_evd_create(ia, IT_DTO_EVENT_STREAM, 0 as never, 4, 1, null), cat);
  throwsIt(() => it_evd_dequeue(s.dto), cat);
  throwsIt(() => it_ep_query(s.ep, IT_EP_PARAM_ALL), cat);
  throwsIt(() => it_lmr_query(b.lmr, IT_LMR_PARAM_ALL), cat);
  throwsIt(() => it_get_consumer_context(s.ep), cat);
  throwsIt(() => it_set_consumer_context(s.ep, 7n), cat);
  throwsIt(() => it_rmr_create(s.pz, IT_RMR_TYPE_NARROW), cat);
  await rejectsIt(it_evd_wait(s.dto, 0n), cat);
  // Nothing changed: the PZ was not freed (it_ia_free still frees it with everything else).
  freeIa(ia);
  throwsIt(() => it_pz_query(s.pz, IT_PZ_PARAM_ALL), S.IT_ERR_INVALID_PZ);
  // A new IA on the same Interface is enabled.
  const ia2 = openIa();
  assert.equal(it_ia_query(ia2).api_major_version, 2);
});

test('ITAPI-IA-06 it_ia_free frees every child; their handles then fail', () => {
  const s = makeSide();
  const b = reg(s.pz, 64);
  const rmr = it_rmr_create(s.pz, IT_RMR_TYPE_NARROW);
  const l = listen(s.ia);
  freeIa(s.ia);
  throwsIt(() => it_pz_query(s.pz, IT_PZ_PARAM_ALL), S.IT_ERR_INVALID_PZ);
  throwsIt(() => it_evd_query(s.dto, IT_EVD_PARAM_ALL), S.IT_ERR_INVALID_EVD);
  throwsIt(() => it_ep_query(s.ep, IT_EP_PARAM_ALL), S.IT_ERR_INVALID_EP);
  throwsIt(() => it_lmr_query(b.lmr, IT_LMR_PARAM_ALL), S.IT_ERR_INVALID_LMR);
  throwsIt(() => it_rmr_query(rmr, IT_RMR_PARAM_ALL), S.IT_ERR_INVALID_RMR);
  throwsIt(() => it_listen_query(l.listen, IT_LISTEN_PARAM_ALL), S.IT_ERR_INVALID_LISTEN);
  throwsIt(() => it_ia_free(s.ia), S.IT_ERR_INVALID_IA);
});

test('ITAPI-IA-07 it_ia_free unblocks it_evd_wait on that IA (IT_ERR_ABORT)', async () => {
  const ia = openIa();
  const e = sevd(ia, IT_CM_REQ_EVENT_STREAM, 4, 1);
  const w = it_evd_wait(e, IT_TIMEOUT_INFINITE);
  freeIa(ia);
  const r = await w;
  assert.equal(r.status, S.IT_ERR_ABORT);
});

test('ITAPI-IA-08 it_get_consumer_context on a never-set handle: IT_ERR_NO_CONTEXT and context 0', () => {
  const ia = openIa();
  const pz = it_pz_create(ia);
  for (const h of [ia, pz]) {
    const r = it_get_consumer_context(h);
    assert.equal(r.status, S.IT_ERR_NO_CONTEXT);
    assert.equal(r.context, 0n);
  }
});

test('ITAPI-IA-09 set then get returns the same 64-bit context; setting again replaces it', () => {
  const s = makeSide();
  const big = 0xfedc_ba98_7654_3210n;
  it_set_consumer_context(s.ep, big);
  assert.deepEqual(it_get_consumer_context(s.ep), { status: IT_SUCCESS, context: big });
  const obj = { mine: true };
  it_set_consumer_context(s.ep, obj);
  const r = it_get_consumer_context(s.ep);
  assert.equal(r.status, IT_SUCCESS);
  assert.equal(r.context, obj);
  it_set_consumer_context(s.ep, null);
  assert.equal(it_get_consumer_context(s.ep).status, S.IT_ERR_NO_CONTEXT);
});

test('ITAPI-IA-10 it_get_handle_type reports each object type (ADDR and UD_SVC_REQ handles need RoCEv2 and cannot exist on iWARP)', () => {
  const s = makeSide();
  const b = reg(s.pz, 64);
  const rmr = it_rmr_create(s.pz, IT_RMR_TYPE_NARROW);
  const l = listen(s.ia);
  const srq = it_srq_create(s.pz, 1, 4);
  assert.equal(it_get_handle_type(s.ia), IT_HANDLE_TYPE_IA);
  assert.equal(it_get_handle_type(s.pz), IT_HANDLE_TYPE_PZ);
  assert.equal(it_get_handle_type(s.dto), IT_HANDLE_TYPE_EVD);
  assert.equal(it_get_handle_type(s.ep), IT_HANDLE_TYPE_EP);
  assert.equal(it_get_handle_type(b.lmr), IT_HANDLE_TYPE_LMR);
  assert.equal(it_get_handle_type(rmr), IT_HANDLE_TYPE_RMR);
  assert.equal(it_get_handle_type(l.listen), IT_HANDLE_TYPE_LISTEN);
  assert.equal(it_get_handle_type(srq), IT_HANDLE_TYPE_SRQ);
  throwsIt(() => it_get_handle_type({} as never), S.IT_ERR_INVALID_HANDLE);
});

test('ITAPI-IA-11 it_hton64(it_ntoh64(x)) == x and a little-endian host byte-swaps', () => {
  for (const x of [0n, 1n, 0x0102030405060708n, 0xffff_ffff_ffff_ffffn, 0x8000_0000_0000_0001n]) {
    assert.equal(it_hton64(it_ntoh64(x)), x);
    assert.equal(it_ntoh64(it_hton64(x)), x);
  }
  const le = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  assert.equal(it_hton64(0x0102030405060708n), le ? 0x0807060504030201n : 0x0102030405060708n);
});

test('ITAPI-IA-12 every *_query: an undefined mask bit is IT_ERR_INVALID_MASK; ..._PARAM_ALL fills every field', () => {
  const s = makeSide();
  const b = reg(s.pz, 64);
  const rmr = it_rmr_create(s.pz, IT_RMR_TYPE_NARROW);
  const l = listen(s.ia);
  const srq = it_srq_create(s.pz, 1, 4);
  const bad = 1 << 30;
  throwsIt(() => it_pz_query(s.pz, bad as never), S.IT_ERR_INVALID_MASK);
  throwsIt(() => it_evd_query(s.dto, bad as never), S.IT_ERR_INVALID_MASK);
  throwsIt(() => it_ep_query(s.ep, bad as never), S.IT_ERR_INVALID_MASK);
  throwsIt(() => it_lmr_query(b.lmr, bad as never), S.IT_ERR_INVALID_MASK);
  throwsIt(() => it_rmr_query(rmr, bad as never), S.IT_ERR_INVALID_MASK);
  throwsIt(() => it_listen_query(l.listen, bad as never), S.IT_ERR_INVALID_MASK);
  throwsIt(() => it_srq_query(srq, bad as never), S.IT_ERR_INVALID_MASK);
  assert.deepEqual(Object.keys(it_pz_query(s.pz, IT_PZ_PARAM_ALL)), ['ia']);
  assert.deepEqual(Object.keys(it_evd_query(s.dto, IT_EVD_PARAM_ALL)).sort(), [
    'aevd',
    'evd_bound',
    'evd_callback',
    'evd_enabled',
    'evd_flag',
    'evd_overflowed',
    'event_number',
    'fd',
    'ia',
    'sevd_queue_size',
    'sevd_threshold',
  ]);
  assert.deepEqual(Object.keys(it_lmr_query(b.lmr, IT_LMR_PARAM_ALL)).sort(), [
    'actual_addr',
    'actual_length',
    'addr',
    'addr_mode',
    'flags',
    'ia',
    'iobl_num_elts',
    'iobl_type',
    'length',
    'linked',
    'privs',
    'pz',
    'rmr_context',
    'shared_id',
  ]);
  assert.deepEqual(Object.keys(it_rmr_query(rmr, IT_RMR_PARAM_ALL)).sort(), [
    'addr',
    'addr_mode',
    'ia',
    'length',
    'linked',
    'lmr',
    'privs',
    'pz',
    'rmr_context',
    'type',
  ]);
  assert.deepEqual(Object.keys(it_listen_query(l.listen, IT_LISTEN_PARAM_ALL)).sort(), [
    'connect_evd',
    'connect_qual',
    'ia_handle',
    'spigot_id',
  ]);
  assert.deepEqual(Object.keys(it_srq_query(srq, IT_SRQ_PARAM_ALL)).sort(), [
    'ia',
    'low_watermark',
    'max_recv_dtos',
    'max_recv_segs',
    'pz',
  ]);
  const ep = it_ep_query(s.ep, IT_EP_PARAM_ALL);
  // dst_path and spigot are undefined for an UNCONNECTED RC Endpoint; everything else is there.
  for (const k of ['ia', 'ep_state', 'service_type', 'pz', 'request_sevd', 'recv_sevd', 'connect_sevd', 'attr']) assert.ok(k in ep, k);
  assert.deepEqual(Object.keys(ep.attr!).sort(), [
    'max_dto_payload_size',
    'max_recv_dtos',
    'max_recv_segments',
    'max_request_dtos',
    'max_send_segments',
    'priv_ops_enable',
    'srv',
  ]);
  const rc = (ep.attr!.srv as { rc: object }).rc;
  assert.deepEqual(Object.keys(rc).sort(), [
    'atomics_enable',
    'hard_hi_watermark',
    'max_rdma_read_segments',
    'max_rdma_write_segments',
    'rdma_read_enable',
    'rdma_read_ird',
    'rdma_read_ord',
    'rdma_write_enable',
    'soft_hi_watermark',
    'srq',
  ]);
  // A second Endpoint proves the query is per object (not a shared snapshot).
  const ep2 = it_ep_rc_create(s.pz, s.dto, s.dto, s.cm, 0, rcAttrs({ max_request_dtos: 3 }));
  assert.equal(it_ep_query(ep2, IT_EP_PARAM_ALL).attr!.max_request_dtos, 3);
});

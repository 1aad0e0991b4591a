/**
 * IT-API conformance, digest §10 "PZ / busy rules" (13–17) and "Endpoint creation / attributes"
 * (48–58).
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import {
  IT_ADDR_MODE_ABSOLUTE,
  IT_ASYNC_AFF_EVENT_STREAM,
  IT_ASYNC_UNAFF_EVENT_STREAM,
  IT_CM_MSG_CONN_ESTABLISHED_EVENT,
  IT_CM_MSG_CONN_NONPEER_REJECT_EVENT,
  IT_CM_MSG_EVENT_STREAM,
  IT_CM_REQ_CONN_REQUEST_EVENT,
  IT_COMPLETION_FLAG,
  IT_DTO_EVENT_STREAM,
  IT_DTO_SUCCESS,
  IT_EP_PARAM_ALL,
  IT_EP_PARAM_MAX_IRD,
  IT_EP_PARAM_MAX_ORD,
  IT_EP_PARAM_MAX_PAYLOAD,
  IT_EP_PARAM_MAX_RECV_DTO,
  IT_EP_PARAM_SOFT_HI_WATERMARK,
  IT_EP_PARAM_HARD_HI_WATERMARK,
  IT_EP_PARAM_STATE,
  IT_EP_SRQ,
  IT_EP_STATE_NONOPERATIONAL,
  IT_EP_STATE_UNCONNECTED,
  IT_EVD_PARAM_OVERFLOWED,
  IT_NOTIFY_FLAG,
  IT_PRIV_ALL,
  IT_RMR_LINK_CMPL_EVENT,
  IT_RMR_TYPE_NARROW,
  IT_SOFTWARE_EVENT_STREAM,
  IT_SUCCESS,
  it_ep_accept,
  it_ep_free,
  it_ep_modify,
  it_ep_query,
  it_ep_rc_create,
  it_ep_reset,
  it_ep_ud_create,
  it_evd_free,
  it_evd_query,
  it_lmr_free,
  it_post_rdma_read,
  it_post_recv,
  it_post_send,
  it_pz_create,
  it_pz_free,
  it_rmr_create,
  it_rmr_free,
  it_rmr_link,
  it_rmr_unlink,
  it_srq_create,
  it_srq_free,
  it_status_t as S,
  type it_conn_request_event_t,
  type it_dto_cmpl_event_t,
  type it_ep_handle_t,
  type it_rc_only_attributes_t,
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
  openIa,
  rcAttrs,
  reg,
  seg,
  sevd,
  throwsIt,
  until,
} from './helpers.js';

afterEach(freeAll);

const rcOf = (ep: it_ep_handle_t): Partial<it_rc_only_attributes_t> =>
  (it_ep_query(ep, IT_EP_PARAM_ALL).attr!.srv as { rc: Partial<it_rc_only_attributes_t> }).rc;
const stateOf = (ep: it_ep_handle_t): number => (it_ep_query(ep, IT_EP_PARAM_STATE).ep_state as { rc: number }).rc;

// ---------------------------------------------------------------------------- busy rules

test('ITAPI-PZ-13 it_pz_free with a live EP, LMR, RMR or S-RQ is IT_ERR_PZ_BUSY and the PZ stays usable (AH part needs RoCEv2)', () => {
  const ia = openIa();
  const pz = it_pz_create(ia);
  const dto = sevd(ia, IT_DTO_EVENT_STREAM);
  const cm = sevd(ia, IT_CM_MSG_EVENT_STREAM);
  const ep = it_ep_rc_create(pz, dto, dto, cm, 0, rcAttrs());
  throwsIt(() => it_pz_free(pz), S.IT_ERR_PZ_BUSY);
  it_ep_free(ep);
  const b = reg(pz, 64);
  throwsIt(() => it_pz_free(pz), S.IT_ERR_PZ_BUSY);
  it_lmr_free(b.lmr);
  const rmr = it_rmr_create(pz, IT_RMR_TYPE_NARROW);
  throwsIt(() => it_pz_free(pz), S.IT_ERR_PZ_BUSY);
  it_rmr_free(rmr);
  const srq = it_srq_create(pz, 1, 4);
  throwsIt(() => it_pz_free(pz), S.IT_ERR_PZ_BUSY);
  it_srq_free(srq);
  // Still usable after every refusal, and free once empty.
  it_lmr_free(reg(pz, 16).lmr);
  it_pz_free(pz);
});

test('ITAPI-PZ-14 it_lmr_free with a linked RMR is IT_ERR_LMR_BUSY; the LMR, the RMR and both contexts still work', async () => {
  const { a, b } = await connectPair();
  const mem = reg(b.pz, 64, IT_PRIV_ALL, 'remote bytes');
  const rmr = it_rmr_create(b.pz, IT_RMR_TYPE_NARROW);
  const rctx = it_rmr_link(rmr, mem.lmr, mem.addr, 32, IT_ADDR_MODE_ABSOLUTE, IT_PRIV_ALL, b.ep, 1n, IT_COMPLETION_FLAG);
  assert.equal((await next(b.dto)).event_number, IT_RMR_LINK_CMPL_EVENT);
  throwsIt(() => it_lmr_free(mem.lmr), S.IT_ERR_LMR_BUSY);
  const sink = reg(a.pz, 64);
  it_post_rdma_read(a.ep, [seg(sink, 0, 12)], 2n, IT_COMPLETION_FLAG, mem.addr, rctx);
  it_post_rdma_read(a.ep, [seg(sink, 32, 12)], 3n, IT_COMPLETION_FLAG, mem.addr, mem.ctx!);
  for (const c of [2n, 3n]) {
    const ev = (await next(a.dto)) as it_dto_cmpl_event_t;
    assert.equal(ev.cookie, c);
    assert.equal(ev.dto_status, IT_DTO_SUCCESS);
  }
  assert.equal(new TextDecoder().decode(sink.bytes.subarray(0, 12)), 'remote bytes');
  assert.equal(new TextDecoder().decode(sink.bytes.subarray(32, 44)), 'remote bytes');
  it_rmr_unlink(rmr, b.ep, 4n, IT_COMPLETION_FLAG);
  await next(b.dto);
  it_lmr_free(mem.lmr);
});

test('ITAPI-PZ-15 it_srq_free while an Endpoint uses the S-RQ is IT_ERR_SRQ_BUSY', () => {
  const ia = openIa();
  const pz = it_pz_create(ia);
  const srq = it_srq_create(pz, 2, 8);
  const dto = sevd(ia, IT_DTO_EVENT_STREAM);
  const cm = sevd(ia, IT_CM_MSG_EVENT_STREAM);
  const ep = it_ep_rc_create(pz, dto, dto, cm, IT_EP_SRQ, rcAttrs({}, { srq }));
  throwsIt(() => it_srq_free(srq), S.IT_ERR_SRQ_BUSY);
  it_ep_free(ep);
  it_srq_free(srq);
});

test('ITAPI-PZ-16 it_ep_free with a linked Narrow RMR bound to it is IT_ERR_EP_BUSY', async () => {
  const { b } = await connectPair();
  const mem = reg(b.pz, 64);
  const rmr = it_rmr_create(b.pz, IT_RMR_TYPE_NARROW);
  it_rmr_link(rmr, mem.lmr, mem.addr, 64, IT_ADDR_MODE_ABSOLUTE, IT_PRIV_ALL, b.ep, 1n, IT_COMPLETION_FLAG);
  assert.equal((await next(b.dto)).event_number, IT_RMR_LINK_CMPL_EVENT);
  throwsIt(() => it_ep_free(b.ep), S.IT_ERR_EP_BUSY);
  it_rmr_unlink(rmr, b.ep, 2n, IT_COMPLETION_FLAG);
  await next(b.dto);
  it_ep_free(b.ep);
});

test('ITAPI-PZ-17 it_evd_free of a DTO SEVD attached to an EP is IT_ERR_EVD_BUSY; AFF/UNAFF/SOFTWARE SEVDs free at once', () => {
  const s = makeSide();
  throwsIt(() => it_evd_free(s.dto), S.IT_ERR_EVD_BUSY);
  throwsIt(() => it_evd_free(s.cm), S.IT_ERR_EVD_BUSY);
  for (const stream of [IT_ASYNC_AFF_EVENT_STREAM, IT_ASYNC_UNAFF_EVENT_STREAM, IT_SOFTWARE_EVENT_STREAM])
    it_evd_free(sevd(s.ia, stream, 4));
  it_ep_free(s.ep);
  it_evd_free(s.dto);
  it_evd_free(s.cm);
});

// ---------------------------------------------------------------------------- creation / attributes

/** A DTO SEVD of one entry overflowed by two flushed Receives of a rejected connect. */
async function overflowedDto(ia = openIa()) {
  const pz = it_pz_create(ia);
  const small = sevd(ia, IT_DTO_EVENT_STREAM, 1, 1);
  const cm = sevd(ia, IT_CM_MSG_EVENT_STREAM);
  const ep = it_ep_rc_create(pz, small, small, cm, 0, rcAttrs());
  const b = reg(pz, 64);
  it_post_recv(ep, [seg(b)], 1n, IT_COMPLETION_FLAG);
  it_post_recv(ep, [seg(b)], 2n, IT_COMPLETION_FLAG);
  connectTo(ep, await closedPort());
  assert.equal((await next(cm)).event_number, IT_CM_MSG_CONN_NONPEER_REJECT_EVENT);
  await until(() => it_evd_query(small, IT_EVD_PARAM_OVERFLOWED).evd_overflowed === true, 5000, 'the DTO overflow');
  return { ia, pz, small, cm, ep };
}

test('ITAPI-EP-48 it_ep_rc_create: a CM_MSG SEVD as request SEVD is IT_ERR_INVALID_EVD_TYPE; an overflowed DTO SEVD is refused', async () => {
  const o = await overflowedDto();
  const good = sevd(o.ia, IT_DTO_EVENT_STREAM);
  throwsIt(() => it_ep_rc_create(o.pz, o.cm, good, o.cm, 0, rcAttrs()), S.IT_ERR_INVALID_EVD_TYPE);
  throwsIt(() => it_ep_rc_create(o.pz, good, good, good, 0, rcAttrs()), S.IT_ERR_INVALID_EVD_TYPE);
  throwsIt(() => it_ep_rc_create(o.pz, o.small, good, o.cm, 0, rcAttrs()), S.IT_ERR_INVALID_REQ_EVD_STATE);
  throwsIt(() => it_ep_rc_create(o.pz, good, o.small, o.cm, 0, rcAttrs()), S.IT_ERR_INVALID_RECV_EVD_STATE);
  // An overflowed connect SEVD is accepted.
  it_ep_rc_create(o.pz, good, good, o.cm, 0, rcAttrs());
});

test('ITAPI-EP-49 a new RC Endpoint queries IT_EP_STATE_UNCONNECTED (UD part needs RoCEv2: it_ep_ud_create is IT_ERR_OP_NOT_SUPPORTED)', () => {
  const s = makeSide();
  assert.equal(stateOf(s.ep), IT_EP_STATE_UNCONNECTED);
  throwsIt(() => it_ep_ud_create(s.pz, s.dto, s.dto, rcAttrs(), 0), S.IT_ERR_OP_NOT_SUPPORTED);
});

test('ITAPI-EP-50 queried max_request_dtos/max_recv_dtos ≥ requested; rdma_read_ord and max_dto_payload_size exactly as requested', () => {
  const s = makeSide(openIa(), {
    attrs: rcAttrs({ max_request_dtos: 7, max_recv_dtos: 5, max_dto_payload_size: 12345 }, { rdma_read_ord: 3 }),
  });
  const q = it_ep_query(s.ep, IT_EP_PARAM_ALL).attr!;
  assert.ok(q.max_request_dtos! >= 7);
  assert.ok(q.max_recv_dtos! >= 5);
  assert.equal(q.max_dto_payload_size, 12345);
  assert.equal(rcOf(s.ep).rdma_read_ord, 3);
});

test('ITAPI-EP-51 with IT_EP_SRQ max_recv_dtos and max_recv_segments read 0; modifying max_recv_dtos is IT_ERR_INVALID_RECV_DTO', () => {
  const ia = openIa();
  const pz = it_pz_create(ia);
  const srq = it_srq_create(pz, 2, 8);
  const dto = sevd(ia, IT_DTO_EVENT_STREAM);
  const cm = sevd(ia, IT_CM_MSG_EVENT_STREAM);
  const ep = it_ep_rc_create(pz, dto, dto, cm, IT_EP_SRQ, rcAttrs({}, { srq }));
  const q = it_ep_query(ep, IT_EP_PARAM_ALL).attr!;
  assert.equal(q.max_recv_dtos, 0);
  assert.equal(q.max_recv_segments, 0);
  assert.equal(rcOf(ep).srq, srq);
  throwsIt(() => it_ep_modify(ep, IT_EP_PARAM_MAX_RECV_DTO, { max_recv_dtos: 4 }), S.IT_ERR_INVALID_RECV_DTO);
});

test('ITAPI-EP-52 a non-zero soft or hard watermark on an IA without support is refused', () => {
  const ia = openIa();
  const pz = it_pz_create(ia);
  const srq = it_srq_create(pz, 2, 8);
  const dto = sevd(ia, IT_DTO_EVENT_STREAM);
  const cm = sevd(ia, IT_CM_MSG_EVENT_STREAM);
  throwsIt(() => it_ep_rc_create(pz, dto, dto, cm, IT_EP_SRQ, rcAttrs({}, { srq, soft_hi_watermark: 2 })), S.IT_ERR_SOFT_HI_WATERMARK);
  throwsIt(() => it_ep_rc_create(pz, dto, dto, cm, IT_EP_SRQ, rcAttrs({}, { srq, hard_hi_watermark: 2 })), S.IT_ERR_HARD_HI_WATERMARK);
  const ep = it_ep_rc_create(pz, dto, dto, cm, IT_EP_SRQ, rcAttrs({}, { srq }));
  throwsIt(() => it_ep_modify(ep, IT_EP_PARAM_SOFT_HI_WATERMARK, { srv: { rc: { soft_hi_watermark: 1 } } }), S.IT_ERR_SOFT_HI_WATERMARK);
  throwsIt(() => it_ep_modify(ep, IT_EP_PARAM_HARD_HI_WATERMARK, { srv: { rc: { hard_hi_watermark: 1 } } }), S.IT_ERR_HARD_HI_WATERMARK);
  const info = (it_ep_query(ep, IT_EP_PARAM_ALL).attr!.srv as { rc: it_rc_only_attributes_t }).rc;
  assert.equal(info.soft_hi_watermark, 0);
  assert.equal(info.hard_hi_watermark, 0);
});

test('ITAPI-EP-53 priv_ops_enable by a non-privileged Consumer is IT_ERR_NO_PERMISSION', () => {
  const ia = openIa();
  const pz = it_pz_create(ia);
  const dto = sevd(ia, IT_DTO_EVENT_STREAM);
  const cm = sevd(ia, IT_CM_MSG_EVENT_STREAM);
  throwsIt(() => it_ep_rc_create(pz, dto, dto, cm, 0, rcAttrs({ priv_ops_enable: true })), S.IT_ERR_NO_PERMISSION);
  const priv = makeSide(openIa(true), { attrs: rcAttrs({ priv_ops_enable: true }) });
  assert.equal(it_ep_query(priv.ep, IT_EP_PARAM_ALL).attr!.priv_ops_enable, true);
});

test('ITAPI-EP-54 it_ep_modify of max_dto_payload_size: IT_ERR_INVALID_EP_STATE when CONNECTED, success when UNCONNECTED', async () => {
  const s = makeSide();
  it_ep_modify(s.ep, IT_EP_PARAM_MAX_PAYLOAD, { max_dto_payload_size: 4096 });
  assert.equal(it_ep_query(s.ep, IT_EP_PARAM_MAX_PAYLOAD).attr!.max_dto_payload_size, 4096);
  const { a } = await connectPair();
  throwsIt(() => it_ep_modify(a.ep, IT_EP_PARAM_MAX_PAYLOAD, { max_dto_payload_size: 4096 }), S.IT_ERR_INVALID_EP_STATE);
});

test('ITAPI-EP-55 it_ep_modify in CONNECTED: rdma_read_ird is IT_ERR_INVALID_EP_STATE, decreasing rdma_read_ord succeeds', async () => {
  const { a } = await connectPair();
  throwsIt(() => it_ep_modify(a.ep, IT_EP_PARAM_MAX_IRD, { srv: { rc: { rdma_read_ird: 2 } } }), S.IT_ERR_INVALID_EP_STATE);
  const before = rcOf(a.ep).rdma_read_ord!;
  assert.ok(before >= 1);
  it_ep_modify(a.ep, IT_EP_PARAM_MAX_ORD, { srv: { rc: { rdma_read_ord: before - 1 } } });
  assert.equal(rcOf(a.ep).rdma_read_ord, before - 1);
});

test('ITAPI-EP-56 it_ep_modify failing on one attribute leaves every other requested attribute unchanged', async () => {
  const s = makeSide();
  const ord0 = rcOf(s.ep).rdma_read_ord;
  throwsIt(
    () => it_ep_modify(s.ep, IT_EP_PARAM_MAX_ORD | IT_EP_PARAM_MAX_IRD, { srv: { rc: { rdma_read_ord: 1, rdma_read_ird: 1 << 20 } } }),
    S.IT_ERR_RESOURCE_IRD,
  );
  assert.equal(rcOf(s.ep).rdma_read_ord, ord0);
  const { a } = await connectPair();
  const ord1 = rcOf(a.ep).rdma_read_ord;
  throwsIt(
    () =>
      it_ep_modify(a.ep, IT_EP_PARAM_MAX_ORD | IT_EP_PARAM_MAX_PAYLOAD, { max_dto_payload_size: 100, srv: { rc: { rdma_read_ord: 1 } } }),
    S.IT_ERR_INVALID_EP_STATE,
  );
  assert.equal(rcOf(a.ep).rdma_read_ord, ord1);
  assert.notEqual(it_ep_query(a.ep, IT_EP_PARAM_MAX_PAYLOAD).attr!.max_dto_payload_size, 100);
});

test('ITAPI-EP-57 it_ep_reset: non-NONOPERATIONAL → INVALID_EP_STATE; DTO-overflow-broken → CANNOT_RESET (UD part needs RoCEv2)', async () => {
  const s = makeSide();
  throwsIt(() => it_ep_reset(s.ep), S.IT_ERR_INVALID_EP_STATE);
  const o = await overflowedDto();
  assert.equal(stateOf(o.ep), IT_EP_STATE_NONOPERATIONAL);
  throwsIt(() => it_ep_reset(o.ep), S.IT_ERR_CANNOT_RESET);
});

test('ITAPI-EP-58 after it_ep_reset the Endpoint is UNCONNECTED with its attributes and connects again', async () => {
  const a = makeSide(openIa(), { attrs: rcAttrs({ max_request_dtos: 9 }, { rdma_read_ord: 2 }) });
  connectTo(a.ep, await closedPort());
  assert.equal((await next(a.cm)).event_number, IT_CM_MSG_CONN_NONPEER_REJECT_EVENT);
  it_ep_reset(a.ep);
  assert.equal(stateOf(a.ep), IT_EP_STATE_UNCONNECTED);
  assert.equal(it_ep_query(a.ep, IT_EP_PARAM_ALL).attr!.max_request_dtos, 9);
  assert.equal(rcOf(a.ep).rdma_read_ord, 2);
  const b = makeSide();
  const l = listen(b.ia);
  const rb = reg(b.pz, 16);
  it_post_recv(b.ep, [seg(rb)], 1n, IT_COMPLETION_FLAG | IT_NOTIFY_FLAG);
  connectTo(a.ep, l.port);
  const req = (await nextOf(l.evd, IT_CM_REQ_CONN_REQUEST_EVENT)) as it_conn_request_event_t;
  assert.equal(it_ep_accept(b.ep, req.cn_est_id, null).status, IT_SUCCESS);
  assert.equal((await next(a.cm)).event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
  const sb = reg(a.pz, 16);
  it_post_send(a.ep, [seg(sb, 0, 3)], 2n, NO_FLAGS);
  assert.equal((await next(b.cm)).event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
  drain(b.dto);
});

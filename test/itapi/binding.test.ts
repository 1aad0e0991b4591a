/**
 * Behaviour of the binding beyond the §10 checklist: optional features softrdma's iWARP IA
 * offers (Direct LMR Handle, shared LMRs, RDMA Read into an RMR, unlinking the Read sink), the
 * payload limit, the AbortSignal of `it_evd_wait`, AEVD re-association and socket-descriptor
 * checks of `it_socket_convert`.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { afterEach, test } from 'node:test';
import {
  IT_ADDR_MODE_ABSOLUTE,
  IT_AEVD_NOTIFICATION_EVENT_STREAM,
  IT_CM_MSG_CONN_BROKEN_EVENT,
  IT_COMPLETION_FLAG,
  IT_DTO_ERR_LOCAL_LENGTH,
  IT_DTO_ERR_FLUSHED,
  IT_DTO_ERR_LOCAL_PROTECTION,
  IT_DTO_RC_RECV_CMPL_EVENT,
  IT_DTO_RDMA_READ_CMPL_EVENT,
  IT_DTO_SUCCESS,
  IT_EP_PARAM_MAX_RECV_DTO,
  IT_EP_PARAM_MAX_REQ_DTO,
  IT_EVD_DEQUEUE_NOTIFICATIONS,
  IT_EVD_PARAM_AEVD_HANDLE,
  IT_EVD_PARAM_ENABLED,
  IT_LMR_FLAG_NON_SHAREABLE,
  IT_LMR_FLAG_SHARED,
  IT_LMR_PARAM_ALL,
  IT_PRIV_ALL,
  IT_RMR_LINK_CMPL_EVENT,
  IT_RMR_PARAM_ALL,
  IT_RMR_TYPE_NARROW,
  IT_SC_DEFAULT,
  IT_SOFTWARE_EVENT_STREAM,
  IT_TIMEOUT_INFINITE,
  IT_UNLINK_LOCAL_SINK,
  it_ep_modify,
  it_ep_query,
  it_evd_modify,
  it_evd_query,
  it_evd_wait,
  it_ia_query,
  it_lmr_create,
  it_lmr_query,
  it_mem_map,
  it_post_rdma_read,
  it_post_rdma_read_to_rmr,
  it_post_recv,
  it_post_send,
  it_rmr_create,
  it_rmr_link,
  it_rmr_query,
  it_socket_convert,
  it_status_t as S,
  type it_dto_cmpl_event_t,
  type it_lmr_flag_t,
} from '../../src/itapi/index.js';
import { connectPair, freeAll, makeSide, next, nextOf, NO_FLAGS, openIa, rcAttrs, reg, seg, sevd, td, te, throwsIt } from './helpers.js';

afterEach(freeAll);

test('binding: the Direct LMR Handle (privileged) sends from an I/O address; a non-privileged Endpoint gets LOCAL_PROTECTION', async () => {
  const user = it_ia_query(openIa());
  assert.equal(user.direct_lmr_handle_support, false);
  assert.equal(user.direct_lmr_handle, null);
  const root = openIa(true);
  const info = it_ia_query(root);
  assert.equal(info.direct_lmr_handle_support, true);
  const direct = info.direct_lmr_handle!;
  const bytes = new Uint8Array(4096);
  bytes.set(te('from an io address'));
  const m = it_mem_map(root, bytes, 0n, 4096);
  const p = await connectPair({ aIa: root, a: { attrs: rcAttrs({ priv_ops_enable: true }) } });
  const rb = reg(p.b.pz, 64);
  it_post_recv(p.b.ep, [seg(rb)], 1n, IT_COMPLETION_FLAG);
  it_post_send(p.a.ep, [{ lmr: direct, addr: m.io_addr, length: 18 }], 2n, IT_COMPLETION_FLAG);
  assert.equal(((await next(p.a.dto)) as it_dto_cmpl_event_t).dto_status, IT_DTO_SUCCESS);
  await nextOf(p.b.dto, IT_DTO_RC_RECV_CMPL_EVENT);
  assert.equal(td(rb.bytes.subarray(0, 18)), 'from an io address');
  // The same IA, an Endpoint without Privileged Mode: the RNIC refuses STag 0.
  const q = await connectPair({ aIa: root });
  it_post_recv(q.b.ep, [seg(reg(q.b.pz, 64))], 1n, IT_COMPLETION_FLAG);
  it_post_send(q.a.ep, [{ lmr: direct, addr: m.io_addr, length: 4 }], 3n, IT_COMPLETION_FLAG);
  assert.equal(((await next(q.a.dto)) as it_dto_cmpl_event_t).dto_status, IT_DTO_ERR_LOCAL_PROTECTION);
});

test('binding: IT_LMR_FLAG_SHARED shares a matching LMR (reported by it_lmr_query); NON_SHAREABLE is never shared', () => {
  const s = makeSide();
  const bytes = new Uint8Array(256);
  const mk = (flags: number) =>
    it_lmr_create(s.pz, bytes, null, 256, IT_ADDR_MODE_ABSOLUTE, IT_PRIV_ALL, flags as it_lmr_flag_t, 7).lmr_handle;
  const solo = mk(IT_LMR_FLAG_NON_SHAREABLE);
  const first = mk(IT_LMR_FLAG_SHARED);
  assert.equal(it_lmr_query(first, IT_LMR_PARAM_ALL).flags! & IT_LMR_FLAG_SHARED, 0, 'nothing to share with yet');
  const second = mk(IT_LMR_FLAG_SHARED);
  assert.equal(it_lmr_query(second, IT_LMR_PARAM_ALL).flags! & IT_LMR_FLAG_SHARED, IT_LMR_FLAG_SHARED);
  assert.equal(it_lmr_query(first, IT_LMR_PARAM_ALL).flags! & IT_LMR_FLAG_SHARED, IT_LMR_FLAG_SHARED);
  assert.equal(it_lmr_query(solo, IT_LMR_PARAM_ALL).flags! & IT_LMR_FLAG_SHARED, 0);
  throwsIt(() => mk(IT_LMR_FLAG_SHARED | IT_LMR_FLAG_NON_SHAREABLE), S.IT_ERR_INVALID_FLAGS);
});

test('binding: it_post_rdma_read_to_rmr reads into a local Narrow RMR; IT_UNLINK_LOCAL_SINK unlinks the sink', async () => {
  const p = await connectPair();
  assert.equal(it_ia_query(p.a.ia).rdma_read_local_extensions, true);
  const src = reg(p.b.pz, 64, IT_PRIV_ALL, 'source bytes');
  const mem = reg(p.a.pz, 64);
  const rmr = it_rmr_create(p.a.pz, IT_RMR_TYPE_NARROW);
  it_rmr_link(rmr, mem.lmr, mem.addr + 16n, 32, IT_ADDR_MODE_ABSOLUTE, IT_PRIV_ALL, p.a.ep, 1n, IT_COMPLETION_FLAG);
  await nextOf(p.a.dto, IT_RMR_LINK_CMPL_EVENT);
  it_post_rdma_read_to_rmr(
    p.a.ep,
    [{ rmr, addr: mem.addr + 16n, length: 12 }],
    2n,
    IT_COMPLETION_FLAG | IT_UNLINK_LOCAL_SINK,
    src.addr,
    src.ctx!,
  );
  const ev = (await next(p.a.dto)) as it_dto_cmpl_event_t;
  assert.equal(ev.event_number, IT_DTO_RDMA_READ_CMPL_EVENT);
  assert.equal(ev.dto_status, IT_DTO_SUCCESS);
  assert.equal(td(mem.bytes.subarray(16, 28)), 'source bytes');
  assert.equal(it_rmr_query(rmr, IT_RMR_PARAM_ALL).linked, false);
  // An LMR sink is unlinked the same way.
  const sink = reg(p.a.pz, 64);
  it_post_rdma_read(p.a.ep, [seg(sink, 0, 6)], 3n, IT_COMPLETION_FLAG | IT_UNLINK_LOCAL_SINK, src.addr, src.ctx!);
  assert.equal(((await next(p.a.dto)) as it_dto_cmpl_event_t).dto_status, IT_DTO_SUCCESS);
  assert.equal(it_lmr_query(sink.lmr, IT_LMR_PARAM_ALL).linked, false);
  throwsIt(
    () => it_post_rdma_read(p.a.ep, [seg(sink, 0, 1), seg(sink, 1, 1)], 4n, IT_COMPLETION_FLAG | IT_UNLINK_LOCAL_SINK, src.addr, src.ctx!),
    S.IT_ERR_INVALID_DTO_FLAGS,
  );
});

test('binding: a Send above max_dto_payload_size completes IT_DTO_ERR_LOCAL_LENGTH in post order and breaks the connection', async () => {
  const p = await connectPair({ a: { attrs: rcAttrs({ max_dto_payload_size: 16 }) } });
  it_post_recv(p.b.ep, [seg(reg(p.b.pz, 64))], 1n, IT_COMPLETION_FLAG);
  const sa = reg(p.a.pz, 64);
  it_post_send(p.a.ep, [seg(sa, 0, 32)], 10n, NO_FLAGS);
  it_post_send(p.a.ep, [seg(sa, 0, 8)], 11n, IT_COMPLETION_FLAG);
  const e1 = (await next(p.a.dto)) as it_dto_cmpl_event_t;
  assert.equal(e1.cookie, 10n);
  assert.equal(e1.dto_status, IT_DTO_ERR_LOCAL_LENGTH);
  const e2 = (await next(p.a.dto)) as it_dto_cmpl_event_t;
  assert.equal(e2.cookie, 11n);
  assert.equal(e2.dto_status, IT_DTO_ERR_FLUSHED);
  assert.equal((await next(p.a.cm)).event_number, IT_CM_MSG_CONN_BROKEN_EVENT);
});

test('binding: aborting the AbortSignal ends it_evd_wait with IT_ERR_INTERRUPT', async () => {
  const ia = openIa();
  const e = sevd(ia, IT_SOFTWARE_EVENT_STREAM, 4, 1);
  const ac = new AbortController();
  const w = it_evd_wait(e, IT_TIMEOUT_INFINITE, { signal: ac.signal });
  ac.abort();
  assert.equal((await w).status, S.IT_ERR_INTERRUPT);
  // A bounded wait that expires reports nmore.
  const t = await it_evd_wait(e, 1000n);
  assert.equal(t.status, S.IT_ERR_TIMEOUT_EXPIRED);
});

test('binding: an SEVD moves between AEVDs that hand out Notifications only while disabled; a plain AEVD link is permanent', () => {
  const ia = openIa();
  const dn1 = sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 0, 0, IT_EVD_DEQUEUE_NOTIFICATIONS);
  const dn2 = sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 0, 0, IT_EVD_DEQUEUE_NOTIFICATIONS);
  const plain = sevd(ia, IT_AEVD_NOTIFICATION_EVENT_STREAM, 0, 0);
  const s = sevd(ia, IT_SOFTWARE_EVENT_STREAM, 4, 1, 0, dn1);
  throwsIt(() => it_evd_modify(s, IT_EVD_PARAM_AEVD_HANDLE, { aevd: dn2 }), S.IT_ERR_INVALID_EVD_STATE);
  it_evd_modify(s, IT_EVD_PARAM_ENABLED, { evd_enabled: false });
  it_evd_modify(s, IT_EVD_PARAM_AEVD_HANDLE, { aevd: dn2 });
  assert.equal(it_evd_query(s, IT_EVD_PARAM_AEVD_HANDLE).aevd, dn2);
  it_evd_modify(s, IT_EVD_PARAM_AEVD_HANDLE, { aevd: plain });
  throwsIt(() => it_evd_modify(s, IT_EVD_PARAM_AEVD_HANDLE, { aevd: null }), S.IT_ERR_INVALID_EVD_STATE);
  assert.equal(it_evd_query(s, IT_EVD_PARAM_AEVD_HANDLE).aevd, plain);
});

test('binding: it_socket_convert checks the socket: closed → IT_ERR_INVALID_SD, not connected → IT_ERR_INVALID_SD_STATE', async () => {
  const s = makeSide();
  const srv = net.createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  try {
    const c = net.connect({ port: (srv.address() as net.AddressInfo).port, host: '127.0.0.1' });
    throwsIt(() => it_socket_convert(c, s.ep, IT_SC_DEFAULT, null), S.IT_ERR_INVALID_SD_STATE);
    await once(c, 'connect');
    c.destroy();
    throwsIt(() => it_socket_convert(c, s.ep, IT_SC_DEFAULT, null), S.IT_ERR_INVALID_SD);
    throwsIt(() => it_socket_convert(c, s.ep, 0x80 as never, null), S.IT_ERR_INVALID_FLAGS);
  } finally {
    srv.close();
  }
});

test('binding: it_ep_modify resizes the work queues (ep_work_queues_resizable) and refuses shrinking below the outstanding WRs', async () => {
  const p = await connectPair({
    a: { attrs: rcAttrs({ max_request_dtos: 4, max_recv_dtos: 4 }) },
    b: { attrs: rcAttrs({ max_recv_dtos: 64 }) },
  });
  assert.equal(it_ia_query(p.a.ia).ep_work_queues_resizable, true);
  it_ep_modify(p.a.ep, IT_EP_PARAM_MAX_REQ_DTO | IT_EP_PARAM_MAX_RECV_DTO, { max_request_dtos: 32, max_recv_dtos: 16 });
  const q = it_ep_query(p.a.ep, IT_EP_PARAM_MAX_REQ_DTO | IT_EP_PARAM_MAX_RECV_DTO).attr!;
  assert.equal(q.max_request_dtos, 32);
  assert.equal(q.max_recv_dtos, 16);
  // 32 outstanding unsignalled Sends now fit (the peer has Receives for them).
  const rb = reg(p.b.pz, 8);
  for (let i = 0; i < 33; i++) it_post_recv(p.b.ep, [seg(rb)], BigInt(i), IT_COMPLETION_FLAG);
  const sa = reg(p.a.pz, 8);
  for (let i = 0; i < 32; i++) it_post_send(p.a.ep, [seg(sa, 0, 1)], BigInt(i), NO_FLAGS);
  throwsIt(() => it_ep_modify(p.a.ep, IT_EP_PARAM_MAX_REQ_DTO, { max_request_dtos: 8 }), S.IT_ERR_RESOURCE_REQ_DTO);
  assert.equal(it_ep_query(p.a.ep, IT_EP_PARAM_MAX_REQ_DTO).attr!.max_request_dtos, 32);
});

/**
 * IT-API on the RoCE Interface (`softroce0`, IT_IB_TRANSPORT): RC Endpoints connected through
 * the InfiniBand CM on QP1 (rdma_cm's service IDs and `cma_hdr`, so rdma_cm peers interoperate),
 * in one process over loopback UDP (an ephemeral RoCEv2 port). The IA's attributes, paths with
 * IPv4-mapped GIDs, connect/accept with private data, Send/Write/Read, disconnect from either
 * side, a consumer reject with private data (PEER_REJECT), no listener (REJ 8 → NONPEER_REJECT
 * BAD_PATH), a lost REP recovered by the CM's retransmission. The UD service: UD Endpoints,
 * Address Handles, datagrams with the GRH area (digest §10, assertions 116–118) and UD service
 * resolution over SIDR (IANA port = RDMA_PS_UDP service ID). The same server against softrdma's
 * rping client in another process is test/itapi/rping-server.test.ts; against Linux rxe,
 * test/interop/roce-cm.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  IT_ADDR_MODE_ABSOLUTE,
  IT_CM_REQ_UD_SERVICE_REQUEST_EVENT,
  IT_CM_MSG_UD_SERVICE_REPLY_EVENT,
  IT_DG_TYPE_IB_UD,
  IT_DTO_UD_RECV_CMPL_EVENT,
  IT_EP_PARAM_ALL,
  IT_EP_STATE_UD_OPERATIONAL,
  IT_ERR_INVALID_AH,
  IT_ERR_INVALID_EP_TYPE,
  IT_ERR_INVALID_EP_KEY,
  IT_ERR_INVALID_UD_STATUS,
  IT_ERR_INVALID_UD_SVC_REQ_ID,
  IT_ERR_PAYLOAD_SIZE,
  IT_UD_IB_GRH_PRESENT,
  IT_UD_REQ_REDIRECTED,
  IT_UD_SERVICE,
  IT_UD_SVC_EP_INFO_VALID,
  IT_UD_SVC_REQ_REJECTED,
  it_address_handle_create,
  it_address_handle_free,
  it_address_handle_query,
  it_ep_query,
  it_ep_ud_create,
  it_post_recvfrom,
  it_post_sendto,
  it_ud_service_reply,
  it_ud_service_request,
  it_ud_service_request_handle_create,
  it_ud_service_request_handle_free,
  type it_all_dto_cmpl_event_t,
  type it_ud_svc_reply_event_t,
  type it_ud_svc_request_event_t,
  type it_addr_handle_t,
  IT_CM_MSG_CONN_DISCONNECT_EVENT,
  IT_CM_MSG_CONN_ESTABLISHED_EVENT,
  IT_CM_MSG_CONN_NONPEER_REJECT_EVENT,
  IT_CM_MSG_CONN_PEER_REJECT_EVENT,
  IT_CM_MSG_EVENT_STREAM,
  IT_CM_REQ_CONN_REQUEST_EVENT,
  IT_CM_REQ_EVENT_STREAM,
  IT_CN_REJ_BAD_PATH,
  IT_COMPLETION_FLAG,
  IT_CONNECT_FLAG_TWO_WAY,
  IT_DTO_EVENT_STREAM,
  IT_DTO_RC_RECV_CMPL_EVENT,
  IT_DTO_RDMA_READ_CMPL_EVENT,
  IT_DTO_FETCH_ADD_CMPL_EVENT,
  IT_DTO_ERR_REMOTE_ACCESS,
  IT_DTO_CMP_SWAP_CMPL_EVENT,
  IT_FETCH_AND_ADD,
  IT_COMPARE_AND_SWAP,
  it_post_atomic,
  IT_DTO_RDMA_WRITE_CMPL_EVENT,
  IT_DTO_SEND_CMPL_EVENT,
  IT_DTO_SUCCESS,
  IT_ERR_INVALID_CONN_QUAL,
  IT_ERR_INVALID_PDATA_LENGTH,
  IT_ERR_INVALID_SOURCE_PATH,
  IT_ERR_OP_NOT_SUPPORTED,
  IT_EVD_OVERFLOW_DEFAULT,
  IT_IANA_PORT,
  IT_IB_SERVICEID,
  IT_IB_TRANSPORT,
  IT_IPV4,
  IT_IWARP_TCP_TRANSPORT,
  IT_LISTEN_NO_FLAG,
  IT_NOTIFY_FLAG,
  IT_PRIV_ALL,
  IT_RC_SERVICE,
  IT_SUCCESS,
  isItError,
  it_ep_accept,
  it_ep_connect,
  it_ep_disconnect,
  it_ep_rc_create,
  it_evd_create,
  it_evd_wait,
  it_get_pathinfo,
  it_ia_create,
  it_ia_free,
  it_ia_query,
  it_interface_list,
  it_listen_create,
  it_lmr_create,
  it_make_rdma_addr_absolute,
  it_post_rdma_read,
  it_post_rdma_write,
  it_post_recv,
  it_post_send,
  it_pz_create,
  it_reject,
  it_socket_convert,
  itStatusName,
  type it_conn_request_event_t,
  type it_connection_event_t,
  type it_dto_cmpl_event_t,
  type it_ep_handle_t,
  type it_evd_handle_t,
  type it_event_t,
  type it_ia_handle_t,
  type it_lmr_handle_t,
  type it_path_t,
  type it_pz_handle_t,
  type it_rmr_context_t,
  type it_status_t,
} from '../../src/itapi/index.js';
import { SOFTRDMA_VENDOR_ID, SOFTRDMA_VENDOR_PART_ID } from '../../src/provider/identity.js';
import { RoceNet } from '../../src/roce/net.js';
import { rdma_cm_event_type as E, ibv_wc_status, rdma_port_space } from '../../src/verbs/constants.js';
import { ibv_dereg_mr, ibv_reg_mr, newWc } from '../../src/verbs/ibverbs.js';
import {
  rdma_accept,
  rdma_ack_cm_event,
  rdma_bind_addr,
  rdma_create_event_channel,
  rdma_create_id,
  rdma_create_qp,
  rdma_destroy_event_channel,
  rdma_destroy_id,
  rdma_destroy_qp,
  rdma_get_cm_event,
  rdma_get_recv_comp,
  rdma_get_src_port,
  rdma_listen,
  rdma_post_recv,
  rdmaListenReady,
} from '../../src/verbs/rdma_cm.js';
import type { rdma_cm_event, rdma_event_channel } from '../../src/verbs/types.js';
import { decodeCmMad } from '../../src/wire/ib/cm.js';
import { useEphemeralRocePort } from '../helpers/roce-port.js';
import { rcAttrs } from './helpers.js';

const IF = 'softroce0';
let rocePort = 0;
const open = new Set<it_ia_handle_t>();

before(async () => {
  rocePort = await useEphemeralRocePort('127.0.0.1');
});
after(() => {
  for (const ia of open) it_ia_free(ia);
});

/** The CM message of a RoCEv2 datagram to QP1 (BTH 12 + DETH 8, then the MAD), or null. */
function madKind(pkt: Uint8Array): string | null {
  const destQp = (pkt[5]! << 16) | (pkt[6]! << 8) | pkt[7]!;
  if (destQp !== 1 || pkt.length < 12 + 8 + 256) return null;
  try {
    return decodeCmMad(pkt.subarray(20, 20 + 256)).msg.kind;
  } catch {
    return null;
  }
}

function ia(): it_ia_handle_t {
  const h = it_ia_create(IF, 2, 1);
  open.add(h);
  return h;
}
function free(h: it_ia_handle_t): void {
  if (open.delete(h)) it_ia_free(h);
}

function throwsIt(fn: () => unknown, status: it_status_t): void {
  try {
    fn();
  } catch (e) {
    if (!isItError(e)) throw e;
    assert.equal(itStatusName(e.status), itStatusName(status), e.message);
    return;
  }
  assert.fail(`expected ${itStatusName(status)}`);
}

async function next(evd: it_evd_handle_t, ms = 10_000): Promise<it_event_t> {
  const r = await it_evd_wait(evd, BigInt(ms) * 1000n);
  assert.equal(r.status, IT_SUCCESS, `no event within ${ms} ms`);
  return r.event!;
}

async function nextOf(evd: it_evd_handle_t, n: number): Promise<it_event_t> {
  for (;;) {
    const ev = await next(evd);
    if (ev.event_number === n) return ev;
  }
}

interface Side {
  ia: it_ia_handle_t;
  pz: it_pz_handle_t;
  dto: it_evd_handle_t;
  cm: it_evd_handle_t;
  ep: it_ep_handle_t;
}

function side(h = ia(), rc: Record<string, unknown> = {}): Side {
  const pz = it_pz_create(h);
  const dto = it_evd_create(h, IT_DTO_EVENT_STREAM, 0 as never, 64, 1, null).evd_handle;
  const cm = it_evd_create(h, IT_CM_MSG_EVENT_STREAM, IT_EVD_OVERFLOW_DEFAULT, 16, 1, null).evd_handle;
  const ep = it_ep_rc_create(pz, dto, dto, cm, 0, rcAttrs({}, rc));
  return { ia: h, pz, dto, cm, ep };
}

interface Buf {
  bytes: Uint8Array;
  lmr: it_lmr_handle_t;
  ctx: it_rmr_context_t | null;
  addr: bigint;
}
function reg(pz: it_pz_handle_t, n: number, fill = ''): Buf {
  const bytes = new Uint8Array(n);
  bytes.set(new TextEncoder().encode(fill).subarray(0, n));
  const r = it_lmr_create(pz, bytes, null, n, IT_ADDR_MODE_ABSOLUTE, IT_PRIV_ALL, 0 as never, 0);
  return { bytes, lmr: r.lmr_handle, ctx: r.rmr_context, addr: it_make_rdma_addr_absolute(bytes) };
}
const seg = (b: Buf, len = b.bytes.length) => [{ lmr: b.lmr, addr: b.addr, length: len }];
const F = IT_COMPLETION_FLAG | IT_NOTIFY_FLAG;
const te = (s: string) => new TextEncoder().encode(s);
const td = (b: Uint8Array) => new TextDecoder().decode(b);

function listen(h: it_ia_handle_t): { evd: it_evd_handle_t; port: number } {
  const evd = it_evd_create(h, IT_CM_REQ_EVENT_STREAM, 0 as never, 8, 1, null).evd_handle;
  const r = it_listen_create(h, 0, evd, IT_LISTEN_NO_FLAG, { type: IT_IANA_PORT, conn_qual: { port: 0 } });
  return { evd, port: 'port' in r.conn_qual.conn_qual ? r.conn_qual.conn_qual.port : 0 };
}

async function pathTo(h: it_ia_handle_t, ip: string): Promise<it_path_t> {
  const r = await it_get_pathinfo(h, 0, { addr_type: IT_IPV4, addr: { ipv4: ip } }, 1);
  assert.equal(r.status, IT_SUCCESS);
  return r.paths![0]!;
}

function connect(ep: it_ep_handle_t, path: it_path_t, port: number, pdata: Uint8Array | null): void {
  it_ep_connect(ep, path, null, { type: IT_IANA_PORT, conn_qual: { port } }, IT_CONNECT_FLAG_TWO_WAY, pdata);
}

/** A connected pair on softroce0: `a` active, `b` passive (its ESTABLISHED on the RTU). */
async function pair(rc: Record<string, unknown> = {}): Promise<{ a: Side; b: Side }> {
  const b = side(undefined, rc);
  const a = side(undefined, rc);
  const l = listen(b.ia);
  connect(a.ep, await pathTo(a.ia, '127.0.0.1'), l.port, te('hello from a'));
  const req = (await nextOf(l.evd, IT_CM_REQ_CONN_REQUEST_EVENT)) as it_conn_request_event_t;
  assert.equal(td(req.private_data.subarray(0, 12)), 'hello from a', 'the cma_hdr is not shown to the consumer');
  assert.deepEqual(req.source_addr, { addr_type: IT_IPV4, addr: { ipv4: '127.0.0.1' } });
  assert.equal(req.rdma_read_ird, 4);
  assert.equal(req.rdma_read_ord, 4);
  it_ep_accept(b.ep, req.cn_est_id, te('welcome'));
  const ea = (await next(a.cm)) as it_connection_event_t;
  assert.equal(ea.event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
  assert.equal(td(ea.private_data.subarray(0, 7)), 'welcome');
  const eb = (await next(b.cm)) as it_connection_event_t;
  assert.equal(eb.event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT, 'the RTU establishes the passive side');
  return { a, b };
}

describe('IT-API on the RoCE Interface (IB CM on QP1, RoCEv2 over loopback UDP)', () => {
  test('softroce0 is an InfiniBand-transport Interface; its IA says what differs from iWARP', () => {
    const list = it_interface_list(8).interfaces;
    assert.deepEqual(
      list.map((i) => [i.name, i.transport_type]),
      [
        ['softrdma0', IT_IWARP_TCP_TRANSPORT],
        [IF, IT_IB_TRANSPORT],
      ],
    );
    const h = ia();
    const info = it_ia_query(h);
    assert.equal(info.transport_type, IT_IB_TRANSPORT);
    // The vendor the provider reports in ri_rnic_query (`it_vendor_ib_t`: vendor, device, revision).
    assert.deepEqual(info.vendor, { ib: { vendor: SOFTRDMA_VENDOR_ID, device: SOFTRDMA_VENDOR_PART_ID, revision: 1 } });
    assert.equal(info.supported_service_types & IT_RC_SERVICE, IT_RC_SERVICE);
    assert.equal(info.connect_private_data_len, 56, 'REQ 92 octets less the cma_hdr');
    assert.equal(info.accept_private_data_len, 196);
    assert.equal(info.reject_private_data_len, 148);
    assert.equal(info.socket_conversion_support, false);
    assert.equal(info.rdma_read_requires_remote_write, false);
    assert.deepEqual(info.spigot_info[0]!.net_addr, [{ addr_type: IT_IPV4, addr: { ipv4: '127.0.0.1' } }]);
    free(h);
  });

  test('it_get_pathinfo: an IB path between IPv4-mapped GIDs; it_ep_connect checks path, qualifier and private data', async () => {
    const s = side();
    const p = await pathTo(s.ia, '127.0.0.1');
    assert.ok('ib' in p.remote);
    assert.equal(p.remote.ib.local_port_gid, '::ffff:127.0.0.1');
    assert.equal(p.remote.ib.remote_port_gid, '::ffff:127.0.0.1');
    assert.equal(p.remote.ib.hop_limit, 64);
    const iw: it_path_t = {
      spigot_id: 0,
      timeout: 0n,
      remote: { iwarp: { ip_vers: 4 as never, laddr: { ipv4: '127.0.0.1' }, raddr: { ipv4: '127.0.0.1' } } },
    };
    throwsIt(() => connect(s.ep, iw, 1, null), IT_ERR_INVALID_SOURCE_PATH);
    const v6: it_path_t = { ...p, remote: { ib: { ...p.remote.ib, remote_port_gid: 'fe80::1' } } };
    throwsIt(() => connect(s.ep, v6, 1, null), IT_ERR_INVALID_SOURCE_PATH);
    throwsIt(
      () => it_ep_connect(s.ep, p, null, { type: IT_IB_SERVICEID, conn_qual: { serviceid: 1n } }, IT_CONNECT_FLAG_TWO_WAY, null),
      IT_ERR_INVALID_CONN_QUAL,
    );
    throwsIt(() => connect(s.ep, p, 1, new Uint8Array(57)), IT_ERR_INVALID_PDATA_LENGTH);
    throwsIt(() => it_socket_convert({} as never, s.ep, 0, null), IT_ERR_OP_NOT_SUPPORTED);
    free(s.ia);
  });

  test('connect/accept with private data, Send, RDMA Write and Read, disconnect from the active side', async () => {
    const { a, b } = await pair();
    // Send a → b.
    const rb = reg(b.pz, 64);
    it_post_recv(b.ep, seg(rb), 1n, F);
    const sa = reg(a.pz, 64, 'send over RoCE');
    it_post_send(a.ep, seg(sa, 14), 2n, F);
    const rc = (await nextOf(b.dto, IT_DTO_RC_RECV_CMPL_EVENT)) as it_dto_cmpl_event_t;
    assert.equal(rc.dto_status, IT_DTO_SUCCESS);
    assert.equal(rc.transferred_length, 14);
    assert.equal(td(rb.bytes.subarray(0, 14)), 'send over RoCE');
    await nextOf(a.dto, IT_DTO_SEND_CMPL_EVENT);
    // RDMA Write a → b's buffer, then Read it back.
    const target = reg(b.pz, 4096);
    const src = reg(a.pz, 4096, 'written by a'.repeat(300));
    it_post_rdma_write(a.ep, seg(src), 3n, F, target.addr, target.ctx!);
    const w = (await nextOf(a.dto, IT_DTO_RDMA_WRITE_CMPL_EVENT)) as it_dto_cmpl_event_t;
    assert.equal(w.dto_status, IT_DTO_SUCCESS);
    assert.deepEqual(target.bytes, src.bytes);
    const sink = reg(a.pz, 4096);
    it_post_rdma_read(a.ep, seg(sink), 4n, F, target.addr, target.ctx!);
    const r = (await nextOf(a.dto, IT_DTO_RDMA_READ_CMPL_EVENT)) as it_dto_cmpl_event_t;
    assert.equal(r.dto_status, IT_DTO_SUCCESS);
    assert.deepEqual(sink.bytes, target.bytes);
    it_ep_disconnect(a.ep, null);
    assert.equal((await next(a.cm)).event_number, IT_CM_MSG_CONN_DISCONNECT_EVENT);
    assert.equal((await next(b.cm)).event_number, IT_CM_MSG_CONN_DISCONNECT_EVENT, 'the DREQ reached the passive side');
    free(a.ia);
    free(b.ia);
  });

  test('it_post_atomic over RoCE (IB AtomicETH): Fetch-and-Add and Compare-and-Swap with their completion events and original values', async () => {
    const { a, b } = await pair({ atomics_enable: true });
    assert.equal(it_ia_query(a.ia).atomic_support, true);
    const target = reg(b.pz, 8);
    const dv = new DataView(target.bytes.buffer);
    dv.setBigUint64(0, 100n, true);
    const r = reg(a.pz, 8);
    it_post_atomic(a.ep, IT_FETCH_AND_ADD, 5n, 0n, seg(r)[0]!, 11n, F, target.addr, target.ctx!);
    let e = (await nextOf(a.dto, IT_DTO_FETCH_ADD_CMPL_EVENT)) as it_dto_cmpl_event_t;
    assert.equal(e.dto_status, IT_DTO_SUCCESS);
    assert.equal(e.cookie, 11n);
    assert.equal(new DataView(r.bytes.buffer).getBigUint64(0, true), 100n);
    assert.equal(dv.getBigUint64(0, true), 105n);
    it_post_atomic(a.ep, IT_COMPARE_AND_SWAP, 9n, 105n, seg(r)[0]!, 12n, F, target.addr, target.ctx!);
    e = (await nextOf(a.dto, IT_DTO_CMP_SWAP_CMPL_EVENT)) as it_dto_cmpl_event_t;
    assert.equal(e.dto_status, IT_DTO_SUCCESS);
    assert.equal(new DataView(r.bytes.buffer).getBigUint64(0, true), 105n);
    assert.equal(dv.getBigUint64(0, true), 9n);
    it_ep_disconnect(a.ep, null);
    assert.equal((await next(a.cm)).event_number, IT_CM_MSG_CONN_DISCONNECT_EVENT);
    assert.equal((await next(b.cm)).event_number, IT_CM_MSG_CONN_DISCONNECT_EVENT);
    free(a.ia);
    free(b.ia);
  });

  test('it_post_atomic to an Endpoint without atomics_enable: the responder refuses (IB NAK Remote Access Error) → IT_DTO_ERR_REMOTE_ACCESS, target unchanged', async () => {
    const { a, b } = await pair();
    const target = reg(b.pz, 8);
    const dv = new DataView(target.bytes.buffer);
    dv.setBigUint64(0, 100n, true);
    const r = reg(a.pz, 8);
    it_post_atomic(a.ep, IT_FETCH_AND_ADD, 5n, 0n, seg(r)[0]!, 13n, F, target.addr, target.ctx!);
    const e = (await nextOf(a.dto, IT_DTO_FETCH_ADD_CMPL_EVENT)) as it_dto_cmpl_event_t;
    assert.equal(e.dto_status, IT_DTO_ERR_REMOTE_ACCESS);
    assert.equal(dv.getBigUint64(0, true), 100n);
    free(a.ia);
    free(b.ia);
  });

  test('disconnect from the passive side', async () => {
    const { a, b } = await pair();
    it_ep_disconnect(b.ep, null);
    assert.equal((await next(b.cm)).event_number, IT_CM_MSG_CONN_DISCONNECT_EVENT);
    assert.equal((await next(a.cm)).event_number, IT_CM_MSG_CONN_DISCONNECT_EVENT);
    free(a.ia);
    free(b.ia);
  });

  test('it_reject with private data: PEER_REJECT carrying it (REJ 28)', async () => {
    const b = ia();
    const a = side();
    const l = listen(b);
    connect(a.ep, await pathTo(a.ia, '127.0.0.1'), l.port, null);
    const req = (await nextOf(l.evd, IT_CM_REQ_CONN_REQUEST_EVENT)) as it_conn_request_event_t;
    throwsIt(() => it_reject(req.cn_est_id, new Uint8Array(149)), IT_ERR_INVALID_PDATA_LENGTH);
    it_reject(req.cn_est_id, te('go away'));
    const ev = (await next(a.cm)) as it_connection_event_t;
    assert.equal(ev.event_number, IT_CM_MSG_CONN_PEER_REJECT_EVENT);
    assert.equal(td(ev.private_data.subarray(0, 7)), 'go away');
    free(a.ia);
    free(b);
  });

  test('no Listen Point on the port: NONPEER_REJECT BAD_PATH (REJ 8, Invalid Service ID)', async () => {
    const a = side();
    const b = ia();
    const l = listen(b); // the CM runs; nothing listens on l.port + 1
    connect(a.ep, await pathTo(a.ia, '127.0.0.1'), l.port === 65535 ? 1 : l.port + 1, null);
    const ev = (await next(a.cm)) as it_connection_event_t;
    assert.equal(ev.event_number, IT_CM_MSG_CONN_NONPEER_REJECT_EVENT);
    assert.equal(ev.reject_reason_code, IT_CN_REJ_BAD_PATH);
    free(a.ia);
    free(b);
  });

  test('a lost REP is retransmitted by the passive CM: both sides still establish', async () => {
    const b = side();
    const a = side();
    const l = listen(b.ia);
    let dropped = 0;
    const net = RoceNet.acquire('127.0.0.1', rocePort);
    net.setTap((pkt) => {
      if (madKind(pkt) === 'REP' && dropped === 0) {
        dropped++;
        return 'drop';
      }
      return 'pass';
    });
    try {
      connect(a.ep, await pathTo(a.ia, '127.0.0.1'), l.port, null);
      const req = (await nextOf(l.evd, IT_CM_REQ_CONN_REQUEST_EVENT)) as it_conn_request_event_t;
      it_ep_accept(b.ep, req.cn_est_id, null);
      assert.equal((await next(a.cm, 20_000)).event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
      assert.equal((await next(b.cm, 20_000)).event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
      assert.equal(dropped, 1);
    } finally {
      net.setTap(null);
      net.release();
    }
    free(a.ia);
    free(b.ia);
  });

  // ------------------------------------------------------------------------------------ UD

  const UD_KEY = 0x11223344;
  function udSide(h = ia(), key = UD_KEY): { ia: it_ia_handle_t; pz: it_pz_handle_t; dto: it_evd_handle_t; ep: it_ep_handle_t } {
    const pz = it_pz_create(h);
    const dto = it_evd_create(h, IT_DTO_EVENT_STREAM, 0 as never, 64, 1, null).evd_handle;
    const ep = it_ep_ud_create(
      pz,
      dto,
      dto,
      {
        max_dto_payload_size: 1024,
        max_request_dtos: 8,
        max_recv_dtos: 8,
        max_send_segments: 2,
        max_recv_segments: 2,
        priv_ops_enable: false,
        srv: { ud: { ep_info: { ud_ep_id: 0, ud_ep_key: key } } },
      },
      0,
    );
    return { ia: h, pz, dto, ep };
  }
  const qpnOf = (ep: it_ep_handle_t): number => {
    const q = it_ep_query(ep, IT_EP_PARAM_ALL);
    const srv = q.attr?.srv;
    assert.ok(srv && 'ud' in srv);
    return srv.ud.ep_info!.ud_ep_id!;
  };

  test('UD Endpoints: born UD_OPERATIONAL with their key; RC calls are the wrong type; attributes checked', () => {
    const u = udSide();
    const q = it_ep_query(u.ep, IT_EP_PARAM_ALL);
    assert.deepEqual(q.ep_state, { ud: IT_EP_STATE_UD_OPERATIONAL });
    assert.equal(q.service_type, IT_UD_SERVICE);
    assert.ok(qpnOf(u.ep) >= 17);
    assert.equal(it_ia_query(u.ia).supported_service_types & IT_UD_SERVICE, IT_UD_SERVICE);
    throwsIt(() => it_post_send(u.ep, [], 1n, 0 as never), IT_ERR_INVALID_EP_TYPE);
    throwsIt(() => it_ep_disconnect(u.ep, null), IT_ERR_INVALID_EP_TYPE);
    const attrs = (over: object) => ({
      max_dto_payload_size: 1024,
      max_request_dtos: 8,
      max_recv_dtos: 8,
      max_send_segments: 1,
      max_recv_segments: 1,
      priv_ops_enable: false,
      srv: { ud: { ep_info: { ud_ep_id: 0, ud_ep_key: 1 } } },
      ...over,
    });
    throwsIt(() => it_ep_ud_create(u.pz, u.dto, u.dto, attrs({ max_dto_payload_size: 1025 }), 0), IT_ERR_PAYLOAD_SIZE);
    throwsIt(
      () => it_ep_ud_create(u.pz, u.dto, u.dto, attrs({ srv: { ud: { ep_info: { ud_ep_id: 0, ud_ep_key: 0x80000000 } } } }), 0),
      IT_ERR_INVALID_EP_KEY,
    );
    const rc = side(u.ia);
    throwsIt(() => it_post_recvfrom(rc.ep, [], 1n, IT_COMPLETION_FLAG), IT_ERR_INVALID_EP_TYPE);
    free(u.ia);
  });

  test('ITAPI-UD-116 a UD Receive completion reports payload + 40 bytes and IT_DTO_UD_RECV_CMPL_EVENT', async () => {
    const a = udSide();
    const b = udSide();
    const path = await pathTo(a.ia, '127.0.0.1');
    const ah = it_address_handle_create(a.pz, path, 0 as never);
    const q = it_address_handle_query(ah, 0x1 as never);
    assert.equal(q.pz, a.pz);
    assert.deepEqual(q.path, path);
    const rbuf = reg(b.pz, 40 + 256);
    it_post_recvfrom(b.ep, seg(rbuf), 7n, F);
    const sbuf = reg(a.pz, 64, 'a datagram over RoCE');
    it_post_sendto(a.ep, seg(sbuf, 20), 8n, F, {
      type: IT_DG_TYPE_IB_UD,
      addr: { ud: { addr: ah, ep_info: { ud_ep_id: qpnOf(b.ep), ud_ep_key: UD_KEY } } },
    });
    const rc = (await nextOf(b.dto, IT_DTO_UD_RECV_CMPL_EVENT)) as it_all_dto_cmpl_event_t;
    assert.equal(rc.dto_status, IT_DTO_SUCCESS);
    assert.equal(rc.transferred_length, 20 + 40, 'payload + the 40-octet GRH area');
    assert.equal(rc.cookie, 7n);
    assert.equal(rc.flags & IT_UD_IB_GRH_PRESENT, IT_UD_IB_GRH_PRESENT);
    assert.equal(rc.ud_ep_id, qpnOf(a.ep), 'the sender is named by its UD Endpoint id');
    assert.equal(td(rbuf.bytes.subarray(40, 60)), 'a datagram over RoCE');
    const sc = (await nextOf(a.dto, IT_DTO_SEND_CMPL_EVENT)) as it_dto_cmpl_event_t;
    assert.equal(sc.dto_status, IT_DTO_SUCCESS);
    // A datagram with the wrong key is dropped by the receiver (IBTA §10.2.4): nothing completes.
    it_post_recvfrom(b.ep, seg(rbuf), 9n, F);
    it_post_sendto(a.ep, seg(sbuf, 4), 10n, F, {
      type: IT_DG_TYPE_IB_UD,
      addr: { ud: { addr: ah, ep_info: { ud_ep_id: qpnOf(b.ep), ud_ep_key: UD_KEY + 1 } } },
    });
    await nextOf(a.dto, IT_DTO_SEND_CMPL_EVENT);
    const r = await it_evd_wait(b.dto, 300_000n);
    assert.notEqual(r.status, IT_SUCCESS, 'no Receive completed');
    it_address_handle_free(ah);
    free(a.ia);
    free(b.ia);
  });

  test('ITAPI-UD-117 it_post_sendto with an Address Handle of another PZ/spigot is IT_ERR_INVALID_AH', async () => {
    const a = udSide();
    const otherPz = it_pz_create(a.ia);
    const path = await pathTo(a.ia, '127.0.0.1');
    const foreign: it_addr_handle_t = it_address_handle_create(otherPz, path, 0 as never);
    const buf = reg(a.pz, 16);
    const to = (ah: it_addr_handle_t) =>
      ({ type: IT_DG_TYPE_IB_UD, addr: { ud: { addr: ah, ep_info: { ud_ep_id: 1, ud_ep_key: 1 } } } }) as const;
    throwsIt(() => it_post_sendto(a.ep, seg(buf), 1n, F, to(foreign)), IT_ERR_INVALID_AH);
    const mine = it_address_handle_create(a.pz, path, 0 as never);
    it_address_handle_free(mine);
    throwsIt(() => it_post_sendto(a.ep, seg(buf), 1n, F, to(mine)), IT_ERR_INVALID_AH);
    free(a.ia);
  });

  test('UD service resolution over SIDR: request → UD_SERVICE_REQUEST at the Listen Point → reply with ep_info → datagrams to it', async () => {
    const srv = udSide();
    const l = listen(srv.ia);
    const cli = udSide();
    const replies = it_evd_create(cli.ia, IT_CM_MSG_EVENT_STREAM, IT_EVD_OVERFLOW_DEFAULT, 8, 1, null).evd_handle;
    const path = await pathTo(cli.ia, '127.0.0.1');
    const h = it_ud_service_request_handle_create({ type: IT_IANA_PORT, conn_qual: { port: l.port } }, replies, path, te('who serves?'));
    it_ud_service_request(h);
    const req = (await nextOf(l.evd, IT_CM_REQ_UD_SERVICE_REQUEST_EVENT)) as it_ud_svc_request_event_t;
    assert.equal(td(req.private_data.subarray(0, 11)), 'who serves?', 'the cma_hdr is not shown');
    assert.deepEqual(req.source_addr, { addr_type: IT_IPV4, addr: { ipv4: '127.0.0.1' } });
    throwsIt(
      () => it_ud_service_reply(req.ud_svc_req_id, IT_UD_REQ_REDIRECTED, { ud_ep_id: 0, ud_ep_key: 0 }, null),
      IT_ERR_INVALID_UD_STATUS,
    );
    it_ud_service_reply(req.ud_svc_req_id, IT_UD_SVC_EP_INFO_VALID, { ud_ep_id: qpnOf(srv.ep), ud_ep_key: UD_KEY }, te('here'));
    const rep = (await nextOf(replies, IT_CM_MSG_UD_SERVICE_REPLY_EVENT)) as it_ud_svc_reply_event_t;
    assert.equal(rep.status, IT_UD_SVC_EP_INFO_VALID);
    assert.deepEqual(rep.ep_info, { ud_ep_id: qpnOf(srv.ep), ud_ep_key: UD_KEY });
    assert.equal(td(rep.private_data.subarray(0, 4)), 'here');
    assert.equal(rep.ud_svc, h);
    // The resolved Endpoint receives.
    const ah = it_address_handle_create(cli.pz, path, 0 as never);
    const rbuf = reg(srv.pz, 40 + 64);
    it_post_recvfrom(srv.ep, seg(rbuf), 1n, F);
    const sbuf = reg(cli.pz, 8, 'resolved');
    it_post_sendto(cli.ep, seg(sbuf), 2n, F, { type: IT_DG_TYPE_IB_UD, addr: { ud: { addr: ah, ep_info: rep.ep_info } } });
    const rc = (await nextOf(srv.dto, IT_DTO_UD_RECV_CMPL_EVENT)) as it_all_dto_cmpl_event_t;
    assert.equal(td(rbuf.bytes.subarray(40, 48)), 'resolved');
    assert.equal(rc.ud_ep_id, qpnOf(cli.ep));
    // A second request, rejected.
    it_ud_service_request(h);
    const req2 = (await nextOf(l.evd, IT_CM_REQ_UD_SERVICE_REQUEST_EVENT)) as it_ud_svc_request_event_t;
    it_ud_service_reply(req2.ud_svc_req_id, IT_UD_SVC_REQ_REJECTED, { ud_ep_id: 0, ud_ep_key: 0 }, null);
    const rep2 = (await nextOf(replies, IT_CM_MSG_UD_SERVICE_REPLY_EVENT)) as it_ud_svc_reply_event_t;
    assert.equal(rep2.status, IT_UD_SVC_REQ_REJECTED);
    it_ud_service_request_handle_free(h);
    free(cli.ia);
    free(srv.ia);
  });

  test('ITAPI-UD-118 it_ud_service_reply with IT_UD_REQ_REDIRECTED is IT_ERR_INVALID_UD_STATUS; a replied id is IT_ERR_INVALID_UD_SVC_REQ_ID', async () => {
    const srv = ia();
    const l = listen(srv);
    const cli = ia();
    const replies = it_evd_create(cli, IT_CM_MSG_EVENT_STREAM, IT_EVD_OVERFLOW_DEFAULT, 8, 1, null).evd_handle;
    const h = it_ud_service_request_handle_create(
      { type: IT_IANA_PORT, conn_qual: { port: l.port } },
      replies,
      await pathTo(cli, '127.0.0.1'),
      null,
    );
    it_ud_service_request(h);
    const req = (await nextOf(l.evd, IT_CM_REQ_UD_SERVICE_REQUEST_EVENT)) as it_ud_svc_request_event_t;
    throwsIt(
      () => it_ud_service_reply(req.ud_svc_req_id, IT_UD_REQ_REDIRECTED, { ud_ep_id: 1, ud_ep_key: 1 }, null),
      IT_ERR_INVALID_UD_STATUS,
    );
    it_ud_service_reply(req.ud_svc_req_id, IT_UD_SVC_REQ_REJECTED, { ud_ep_id: 0, ud_ep_key: 0 }, null);
    throwsIt(
      () => it_ud_service_reply(req.ud_svc_req_id, IT_UD_SVC_REQ_REJECTED, { ud_ep_id: 0, ud_ep_key: 0 }, null),
      IT_ERR_INVALID_UD_SVC_REQ_ID,
    );
    await nextOf(replies, IT_CM_MSG_UD_SERVICE_REPLY_EVENT);
    free(cli);
    free(srv);
  });

  // ------------------------------------------------------------------------------- with rdma_cm

  async function cmNext(ch: rdma_event_channel, want: E): Promise<rdma_cm_event> {
    const r = await rdma_get_cm_event(ch);
    assert.equal(r.ret, 0);
    assert.equal(E[r.event!.event], E[want], `event ${E[r.event!.event]} status ${r.event!.status}`);
    return r.event!;
  }

  test("IT-API and rdma_cm in one process share the port's CM: an IT-API Endpoint connects to an rdma_cm listener and sends to it; an IT-API UD service request reaches an RDMA_PS_UDP listener", async () => {
    // rdma_cm server (verbs face) on 127.0.0.1: it listens on QP1 of softroce0 too.
    const ch = rdma_create_event_channel()!;
    const { id: lid } = rdma_create_id(ch, 'srv', rdma_port_space.RDMA_PS_TCP);
    assert.equal(rdma_bind_addr(lid!, { family: 'ipv4', address: '127.0.0.1', port: 0 }), 0);
    assert.equal(rdma_listen(lid!, 4), 0);
    await rdmaListenReady(lid!);
    const port = rdma_get_src_port(lid!);
    const a = side();
    connect(a.ep, await pathTo(a.ia, '127.0.0.1'), port, te('from IT-API'));
    const req = await cmNext(ch, E.RDMA_CM_EVENT_CONNECT_REQUEST);
    assert.equal(req.id.verbs!.device.name, 'softroce0');
    assert.equal(Buffer.from(req.param.conn.private_data!.subarray(0, 11)).toString(), 'from IT-API');
    assert.equal(
      rdma_create_qp(req.id, null, { cap: { max_send_wr: 4, max_recv_wr: 4, max_send_sge: 1, max_recv_sge: 1 }, qp_type: 2 }),
      0,
    );
    const rbuf = new Uint8Array(64);
    const mr = ibv_reg_mr(req.id.pd!, rbuf, 64, 1)!;
    assert.equal(rdma_post_recv(req.id, 5n, rbuf, 64, mr), 0);
    assert.equal(await rdma_accept(req.id, { private_data: Buffer.from('from rdma_cm'), responder_resources: 1, initiator_depth: 1 }), 0);
    rdma_ack_cm_event(req);
    const est = (await next(a.cm)) as it_connection_event_t;
    assert.equal(est.event_number, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
    assert.equal(td(est.private_data.subarray(0, 12)), 'from rdma_cm');
    rdma_ack_cm_event(await cmNext(ch, E.RDMA_CM_EVENT_ESTABLISHED));
    const sb = reg(a.pz, 16, 'it_post_send');
    it_post_send(a.ep, seg(sb, 12), 1n, F);
    const wc = newWc();
    assert.equal(await rdma_get_recv_comp(req.id, wc), 1);
    assert.equal(wc.status, ibv_wc_status.IBV_WC_SUCCESS);
    assert.equal(wc.wr_id, 5n);
    assert.equal(Buffer.from(rbuf.subarray(0, 12)).toString(), 'it_post_send');
    it_ep_disconnect(a.ep, null);
    rdma_ack_cm_event(await cmNext(ch, E.RDMA_CM_EVENT_DISCONNECTED));
    assert.equal(ibv_dereg_mr(mr), 0);
    rdma_destroy_qp(req.id);
    assert.equal(rdma_destroy_id(req.id), 0);

    // UD: an rdma_cm RDMA_PS_UDP listener answers an IT-API UD service request (SIDR).
    const { id: uid } = rdma_create_id(ch, 'ud', rdma_port_space.RDMA_PS_UDP);
    assert.equal(rdma_bind_addr(uid!, { family: 'ipv4', address: '127.0.0.1', port: 0 }), 0);
    assert.equal(rdma_listen(uid!, 4), 0);
    await rdmaListenReady(uid!);
    const replies = it_evd_create(a.ia, IT_CM_MSG_EVENT_STREAM, IT_EVD_OVERFLOW_DEFAULT, 8, 1, null).evd_handle;
    const h = it_ud_service_request_handle_create(
      { type: IT_IANA_PORT, conn_qual: { port: rdma_get_src_port(uid!) } },
      replies,
      await pathTo(a.ia, '127.0.0.1'),
      te('ud?'),
    );
    it_ud_service_request(h);
    const ureq = await cmNext(ch, E.RDMA_CM_EVENT_CONNECT_REQUEST);
    assert.equal(Buffer.from(ureq.param.ud.private_data!.subarray(0, 3)).toString(), 'ud?');
    assert.equal(
      rdma_create_qp(ureq.id, null, { cap: { max_send_wr: 4, max_recv_wr: 4, max_send_sge: 1, max_recv_sge: 1 }, qp_type: 4 }),
      0,
    );
    assert.equal(await rdma_accept(ureq.id, null), 0);
    rdma_ack_cm_event(ureq);
    const rep = (await nextOf(replies, IT_CM_MSG_UD_SERVICE_REPLY_EVENT)) as it_ud_svc_reply_event_t;
    assert.equal(rep.status, IT_UD_SVC_EP_INFO_VALID);
    assert.equal(rep.ep_info.ud_ep_id, ureq.id.qp!.qp_num);
    assert.equal(rep.ep_info.ud_ep_key, 0x01234567, 'RDMA_UDP_QKEY');
    it_ud_service_request_handle_free(h);
    rdma_destroy_qp(ureq.id);
    for (const x of [ureq.id, uid!, lid!]) assert.equal(rdma_destroy_id(x), 0);
    rdma_destroy_event_channel(ch);
    free(a.ia);
  });
});

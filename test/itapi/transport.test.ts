/**
 * The binding's answers on the iWARP IA for every transport-dependent function
 * (`IT_API_FUNCTIONS[name].iwarpStatus`), plus the utility calls that need no connection. Digest
 * §10 "UD" (assertions 116–118) runs on the RoCE Interface: test/itapi/roce.test.ts.
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import {
  IT_API_FUNCTIONS,
  IT_CM_MSG_EVENT_STREAM,
  IT_DG_TYPE_IB_UD,
  IT_IANA_PORT,
  IT_IB_GID,
  IT_IPV4,
  IT_IPV6,
  IT_IWARP_TCP_TRANSPORT,
  IT_RC_SERVICE,
  IT_SUCCESS,
  IT_UD_SERVICE,
  IT_UD_SVC_EP_INFO_VALID,
  it_address_handle_create,
  it_address_handle_free,
  it_address_handle_modify,
  it_address_handle_query,
  it_convert_net_addr,
  it_ep_ud_create,
  it_get_pathinfo,
  it_ia_query,
  it_post_recvfrom,
  it_post_sendto,
  it_ud_service_reply,
  it_ud_service_request,
  it_ud_service_request_handle_create,
  it_ud_service_request_handle_free,
  it_ud_service_request_handle_query,
  it_status_t as S,
  type ItFunctionName,
} from '../../src/itapi/index.js';
import { freeAll, loopPath, makeSide, openIa, rcAttrs, reg, rejectsIt, seg, sevd, throwsIt } from './helpers.js';

afterEach(freeAll);

// ITAPI-UD-116..118 need the InfiniBand-transport IA: they run on the RoCE Interface in
// test/itapi/roce.test.ts (its process sets the RoCEv2 port before the IT-API face boots).

test('binding: every transport-dependent call answers its iWARP status and it_ia_info_t reports the features absent', () => {
  const s = makeSide();
  const info = it_ia_query(s.ia);
  assert.equal(info.transport_type, IT_IWARP_TCP_TRANSPORT);
  assert.equal(info.supported_service_types & IT_UD_SERVICE, 0);
  assert.equal(info.supported_service_types & IT_RC_SERVICE, IT_RC_SERVICE);
  // Atomics: RFC 7306 towards peers that negotiated it (test/itapi/dto.test.ts ITAPI-DTO-98).
  assert.equal(info.atomic_support, true);
  assert.equal(info.three_way_handshake_support, false);
  assert.equal(info.ud_req_private_data_len, 0);
  assert.equal(info.ud_rep_private_data_len, 0);
  const calls: [ItFunctionName, () => unknown][] = [
    ['it_address_handle_create', () => it_address_handle_create(s.pz, loopPath(), 0 as never)],
    ['it_address_handle_free', () => it_address_handle_free({} as never)],
    ['it_address_handle_modify', () => it_address_handle_modify({} as never, 0x8 as never, {})],
    ['it_address_handle_query', () => it_address_handle_query({} as never, 0x1 as never)],
    ['it_ep_ud_create', () => it_ep_ud_create(s.pz, s.dto, s.dto, rcAttrs(), 0)],
    ['it_post_recvfrom', () => it_post_recvfrom(s.ep, [seg(reg(s.pz, 64))], 1n, 1 as never)],
    [
      'it_post_sendto',
      () =>
        it_post_sendto(s.ep, [], 1n, 1 as never, {
          type: IT_DG_TYPE_IB_UD,
          addr: { ud: { addr: {} as never, ep_info: { ud_ep_id: 1, ud_ep_key: 1 } } },
        }),
    ],
    ['it_ud_service_reply', () => it_ud_service_reply({} as never, IT_UD_SVC_EP_INFO_VALID, { ud_ep_id: 1, ud_ep_key: 1 }, null)],
    ['it_ud_service_request', () => it_ud_service_request({} as never)],
    [
      'it_ud_service_request_handle_create',
      () =>
        it_ud_service_request_handle_create(
          { type: IT_IANA_PORT, conn_qual: { port: 1 } },
          sevd(s.ia, IT_CM_MSG_EVENT_STREAM, 4),
          loopPath(),
          null,
        ),
    ],
    ['it_ud_service_request_handle_free', () => it_ud_service_request_handle_free({} as never)],
    ['it_ud_service_request_handle_query', () => it_ud_service_request_handle_query({} as never, 0x1 as never)],
  ];
  for (const [name, call] of calls) {
    const want = IT_API_FUNCTIONS[name].iwarpStatus;
    assert.ok(want !== undefined, name);
    throwsIt(call, want, name);
  }
});

test('binding: it_get_pathinfo resolves an iWARP path to an IP address; bad inputs are refused', async () => {
  const ia = openIa();
  const r = await it_get_pathinfo(ia, 0, { addr_type: IT_IPV4, addr: { ipv4: '127.0.0.1' } }, 4);
  assert.equal(r.status, IT_SUCCESS);
  if (r.status !== IT_SUCCESS) return;
  assert.equal(r.total_paths, 1);
  assert.equal(r.paths.length, 1);
  const p = r.paths[0]!;
  assert.ok('iwarp' in p.remote);
  assert.ok(p.timeout > 0n);
  const none = await it_get_pathinfo(ia, 0, { addr_type: IT_IPV6, addr: { ipv6: '::1' } }, 0);
  assert.equal(none.status, IT_SUCCESS);
  await rejectsIt(it_get_pathinfo(ia, 1, { addr_type: IT_IPV4, addr: { ipv4: '127.0.0.1' } }, 1), S.IT_ERR_INVALID_SPIGOT);
  await rejectsIt(it_get_pathinfo(ia, 0, { addr_type: IT_IPV4, addr: { ipv4: 'not-an-ip' } }, 1), S.IT_ERR_INVALID_ADDRESS);
  await rejectsIt(it_get_pathinfo(ia, 0, { addr_type: IT_IB_GID, addr: { gid: 'fe80::1' } }, 1), S.IT_ERR_INVALID_NETADDR);
  const ac = new AbortController();
  ac.abort();
  const intr = await it_get_pathinfo(ia, 0, { addr_type: IT_IPV4, addr: { ipv4: '127.0.0.1' } }, 1, { signal: ac.signal });
  assert.equal(intr.status, S.IT_ERR_INTERRUPT);
});

test('binding: it_convert_net_addr converts IPv4 ⇄ IPv4-mapped IPv6 and refuses the impossible', async () => {
  const v6 = await it_convert_net_addr({ addr_type: IT_IPV4, addr: { ipv4: '192.0.2.7' } }, IT_IPV6);
  assert.deepEqual(v6, { status: IT_SUCCESS, destination_addr: { addr_type: IT_IPV6, addr: { ipv6: '::ffff:192.0.2.7' } } });
  const v4 = await it_convert_net_addr({ addr_type: IT_IPV6, addr: { ipv6: '::ffff:192.0.2.7' } }, IT_IPV4);
  assert.deepEqual(v4, { status: IT_SUCCESS, destination_addr: { addr_type: IT_IPV4, addr: { ipv4: '192.0.2.7' } } });
  await rejectsIt(it_convert_net_addr({ addr_type: IT_IPV6, addr: { ipv6: '2001:db8::1' } }, IT_IPV4), S.IT_ERR_INVALID_CONVERSION);
  await rejectsIt(it_convert_net_addr({ addr_type: IT_IPV4, addr: { ipv4: '192.0.2.7' } }, IT_IB_GID), S.IT_ERR_INVALID_CONVERSION);
  await rejectsIt(it_convert_net_addr({ addr_type: IT_IPV4, addr: { ipv4: '1.2.3' } }, IT_IPV6), S.IT_ERR_INVALID_ADDRESS);
  await rejectsIt(it_convert_net_addr({ addr_type: 99 as never, addr: { ipv4: '1.2.3.4' } } as never, IT_IPV6), S.IT_ERR_INVALID_NETADDR);
});

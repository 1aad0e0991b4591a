/**
 * Conformance: ri_rnic_query / ri_rnic_modify / ri_rnic_diag (RNICPI-017…025), and the
 * truthfulness of what the RNIC reports.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { SOFTRDMA_KERNEL_OPS as K, softrdmaDevArg } from '../../src/provider/softrdma.js';
import { RiRet } from '../../src/rnicpi/status.js';
import {
  RiConsumerDomain,
  RiDiagOpType,
  RiIwarpProtocolVersion,
  RiRnicFlags,
  RiRnicQueryFlags,
  RiTransportType,
  type ri_rnic_attr_t,
} from '../../src/rnicpi/types.js';
import { allocPd, cleanupAll, code, makeSide, name, ok, openRnic, qpAttrsIn, createCq, userHandle } from './helpers.js';

after(cleanupAll);

function attrs(env: ReturnType<typeof openRnic>, flags = 0): ri_rnic_attr_t {
  return ok(K.ri_rnic_query(env.rnic, flags, 1 << 20)).attrs;
}

test('RNICPI-017 ri_rnic_query with undefined flag bits returns INVALID_PARAMETER', () => {
  const env = openRnic();
  assert.equal(code(K.ri_rnic_query(env.rnic, 1 << 5, 1 << 20)), name(RiRet.INVALID_PARAMETER));
  assert.equal(code(K.ri_rnic_query(env.rnic, RiRnicQueryFlags.PORT_INFO | 2, 1 << 20)), name(RiRet.INVALID_PARAMETER));
  assert.equal(code(K.ri_rnic_query(env.rnic, RiRnicQueryFlags.PORT_INFO, 1 << 20)), name(RiRet.SUCCESS));
  env.close();
});

test('RNICPI-018 ri_rnic_query with a too-small attr_size returns BUFFER_TOO_SMALL and the required size', () => {
  const env = openRnic();
  for (const flags of [0, RiRnicQueryFlags.PORT_INFO]) {
    const r = K.ri_rnic_query(env.rnic, flags, 16);
    assert.equal(code(r), name(RiRet.BUFFER_TOO_SMALL));
    assert.ok(r.status === RiRet.BUFFER_TOO_SMALL);
    const need = r.attr_size;
    assert.ok(need > 16);
    assert.equal(code(K.ri_rnic_query(env.rnic, flags, need - 1)), name(RiRet.BUFFER_TOO_SMALL));
    const again = ok(K.ri_rnic_query(env.rnic, flags, need));
    assert.equal(again.attr_size, need, 'on success attr_size is the size returned');
  }
  // The hint given at attach covers a full answer.
  const full = ok(K.ri_rnic_query(env.rnic, RiRnicQueryFlags.PORT_INFO, 1 << 20)).attr_size;
  assert.ok(softrdmaDevArg(env.vp).query_size >= full);
  env.close();
});

test('RNICPI-019 without RI_QUERY_RNIC_PORT_INFO the transport struct has port_attrs NULL but a correct num_ports', () => {
  const env = openRnic();
  const a = attrs(env, 0);
  assert.equal(a.transport_type, RiTransportType.IWARP);
  assert.ok('iwarp' in a.trans_attr);
  const iw = a.trans_attr.iwarp;
  assert.equal(iw.port_attrs, null);
  assert.equal(iw.num_ports, 1);
  const b = attrs(env, RiRnicQueryFlags.PORT_INFO);
  assert.ok('iwarp' in b.trans_attr);
  const ports = b.trans_attr.iwarp.port_attrs!;
  assert.equal(ports.length, b.trans_attr.iwarp.num_ports);
  for (const p of ports) {
    assert.equal(p.num_ipv4_addrs, p.ipv4_addrs?.length ?? 0);
    assert.equal(p.num_ipv6_addrs, p.ipv6_addrs?.length ?? 0);
  }
  env.close();
});

test('RNICPI-020 an iWARP RNIC reports RI_RNIC_EXT_BMM, RI_RNIC_EXT_ZBVA and RI_RNIC_EXT_LIF set', () => {
  const env = openRnic();
  const f = attrs(env).rnic_flags;
  assert.ok(f & RiRnicFlags.EXT_BMM);
  assert.ok(f & RiRnicFlags.EXT_ZBVA);
  assert.ok(f & RiRnicFlags.EXT_LIF);
  assert.equal(attrs(env).res_ltag_value, 0, 'iWARP STag0 is 0');
  env.close();
});

test('RNICPI-021 an iWARP RNIC reports max_sgl_send_recvqp == max_sgl_srq and both ≥ 4', () => {
  const env = openRnic();
  const a = attrs(env);
  assert.equal(a.max_sgl_send_recvqp, a.max_sgl_srq);
  assert.ok(a.max_sgl_send_recvqp >= 4);
  // The reported maximum is really available, and one more is refused.
  const pd = allocPd(env);
  const cq = createCq(env);
  ok(
    K.ri_qp_create(env.rnic, qpAttrsIn(pd, cq, cq, { sq_max_sges: a.max_sgl_send_recvqp, rq_max_sges: a.max_sgl_send_recvqp }), null, null),
  );
  assert.equal(
    code(K.ri_qp_create(env.rnic, qpAttrsIn(pd, cq, cq, { rq_max_sges: a.max_sgl_send_recvqp + 1 }), null, null)),
    name(RiRet.RNIC_SG_LIMIT_EXCEEDED),
  );
  const srq = ok(K.ri_srq_create(env.rnic, { max_wrs: 4, max_sgl: a.max_sgl_srq, lowat: 0, pd }, null, null));
  assert.ok(srq.srq_attrs.max_sgl >= a.max_sgl_srq);
  env.close();
});

test('RNICPI-022 ri_rnic_modify on an iWARP RNIC returns XPORT_UNSUPPORTED (privileged caller)', () => {
  const env = openRnic();
  assert.equal(code(K.ri_rnic_modify(env.rnic, 1, { si_guid: 1n, port_attrs: null })), name(RiRet.XPORT_UNSUPPORTED));
  env.close();
});

test('RNICPI-023 ri_rnic_modify from a non-privileged caller returns NO_PERMISSION', () => {
  const env = openRnic();
  const u = userHandle(env);
  assert.equal(code(K.ri_rnic_modify(u, 1, { si_guid: 1n, port_attrs: null })), name(RiRet.NO_PERMISSION));
  // Also a USER location asked for through the kernel vector is unprivileged.
  const u2 = ok(K.ri_rnic_get_hdl(env.vp, RiConsumerDomain.USER, null, null)).rnic;
  assert.equal(code(K.ri_rnic_modify(u2, 1, null)), name(RiRet.NO_PERMISSION));
  env.close();
});

test('RNICPI-024 ri_rnic_diag(RNIC_DETAILS) with NULL opval returns BUFFER_TOO_SMALL and the needed oplen; a retry with that size succeeds', () => {
  const env = openRnic();
  const s = makeSide(env);
  const r = K.ri_rnic_diag(env.rnic, RiDiagOpType.RNIC_DETAILS, null, null);
  assert.equal(code(r), name(RiRet.BUFFER_TOO_SMALL));
  assert.ok(r.status === RiRet.BUFFER_TOO_SMALL);
  const small = K.ri_rnic_diag(env.rnic, RiDiagOpType.RNIC_DETAILS, null, new Uint8Array(r.oplen - 1));
  assert.equal(code(small), name(RiRet.BUFFER_TOO_SMALL));
  const out = new Uint8Array(r.oplen);
  const done = ok(K.ri_rnic_diag(env.rnic, RiDiagOpType.RNIC_DETAILS, null, out));
  assert.equal(done.oplen, r.oplen);
  const text = new TextDecoder().decode(out.subarray(0, done.oplen));
  assert.match(text, /^[\x20-\x7e\n]*$/, 'printable ASCII');
  const details = JSON.parse(text);
  assert.equal(details.transport, 'iWARP');
  assert.equal(details.resources.qps, 1);
  // QP details take the QP handle as arg; anything else is INVALID_PARAMETER.
  const qbuf = new Uint8Array(1 << 16);
  const q = ok(K.ri_rnic_diag(env.rnic, RiDiagOpType.QP_DETAILS, s.qp, qbuf));
  const qd = JSON.parse(new TextDecoder().decode(qbuf.subarray(0, q.oplen)));
  assert.equal(qd.qp_id, s.attrs.qp_id);
  assert.equal(qd.state, 'IDLE');
  assert.equal(code(K.ri_rnic_diag(env.rnic, RiDiagOpType.QP_DETAILS, {}, new Uint8Array(1 << 16))), name(RiRet.INVALID_PARAMETER));
  // Unprivileged callers may not use diag.
  assert.equal(code(K.ri_rnic_diag(userHandle(env), RiDiagOpType.RNIC_DETAILS, null, null)), name(RiRet.NO_PERMISSION));
  env.close();
});

test('RNICPI-025 an unsupported diag op returns OP_UNSUPPORTED', () => {
  const env = openRnic();
  assert.equal(code(K.ri_rnic_diag(env.rnic, RiDiagOpType.RDMA_RESET, null, null)), name(RiRet.OP_UNSUPPORTED));
  // The dump is supported and contains every object.
  const s = makeSide(env);
  const buf = new Uint8Array(1 << 20);
  const r = ok(K.ri_rnic_diag(env.rnic, RiDiagOpType.RNIC_DUMP, null, buf));
  const dump = JSON.parse(new TextDecoder().decode(buf.subarray(0, r.oplen)));
  assert.equal(dump.qps.length, 1);
  assert.equal(dump.qps[0].qp_id, s.attrs.qp_id);
  env.close();
});

test('RNIC attributes are truthful: the iWARP protocol, page sizes, no block mode and a limit that really holds', () => {
  const env = openRnic();
  const a = attrs(env);
  assert.ok('iwarp' in a.trans_attr);
  assert.equal(a.trans_attr.iwarp.protocol_version, RiIwarpProtocolVersion.IETF);
  assert.ok(a.mem_page_sizes_bit_mask & (1n << 12n), '4 KiB pages');
  assert.equal(a.rnic_flags & RiRnicFlags.EXT_BLOCK_MODE, 0);
  assert.equal(a.rnic_flags & RiRnicFlags.NON_COHERENT_MEMORY, 0);
  assert.equal(a.block_size_low, 0n);
  // max_cqes_per_cq is exact: that many is fine, one more is refused.
  ok(K.ri_cq_create(env.rnic, { num_cqe: a.max_cqes_per_cq, handler_id: 0 }, null, null));
  assert.equal(
    code(K.ri_cq_create(env.rnic, { num_cqe: a.max_cqes_per_cq + 1, handler_id: 0 }, null, null)),
    name(RiRet.CQ_CAPACITY_EXCEEDED),
  );
  env.close();
});

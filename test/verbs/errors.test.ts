/**
 * Failures a user can cause, as the library reports them: C's return conventions (errno, -1,
 * null) kept, and the reason retrievable by name and in words (softrdmaLastError, strerror).
 * Issue 18's "What was seen" cases, each as rdma-core would behave or better.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { test } from 'node:test';
import * as v from '../../src/verbs/index.js';
import { rdmaListenReady } from '../../src/verbs/rdma_cm.js';
import { openCtx } from './pair.js';

function holdPort(host?: string): Promise<{ port: number; close: () => void }> {
  const s = net.createServer();
  return new Promise((resolve) =>
    s.listen({ port: 0, host }, () => resolve({ port: (s.address() as net.AddressInfo).port, close: () => s.close() })),
  );
}

function listenOn(address: string, port: number): { ret: number; id: v.rdma_cm_id; ch: v.rdma_event_channel } {
  const ch = v.rdma_create_event_channel()!;
  const id = v.rdma_create_id(ch, null, v.RDMA_PS_TCP).id!;
  assert.equal(v.rdma_bind_addr(id, { family: 'ipv4', address, port }), 0);
  return { ret: v.rdma_listen(id, 1), id, ch };
}

function cleanup(x: { id: v.rdma_cm_id; ch: v.rdma_event_channel }): void {
  v.rdma_destroy_id(x.id);
  v.rdma_destroy_event_channel(x.ch);
}

test('errno helpers: name and glibc text', () => {
  assert.equal(v.errnoName(v.EADDRINUSE), 'EADDRINUSE');
  assert.equal(v.strerror(v.ECONNREFUSED), 'Connection refused');
  assert.equal(v.errnoString(-v.ETIMEDOUT), 'ETIMEDOUT (Connection timed out)');
  v.setErrno(v.EADDRNOTAVAIL);
  assert.deepEqual(v.softrdmaLastError(), { errno: 99, name: 'EADDRNOTAVAIL', message: 'EADDRNOTAVAIL (Cannot assign requested address)' });
});

test('rdma_listen on a port another socket listens on returns -1 with errno EADDRINUSE (rdma-core), at the address and at the wildcard', async () => {
  const held = await holdPort('127.0.0.1');
  try {
    for (const address of ['127.0.0.1', '0.0.0.0']) {
      const x = listenOn(address, held.port);
      assert.equal(x.ret, -1, address);
      assert.equal(v.getErrno(), v.EADDRINUSE);
      assert.equal(v.softrdmaLastError().name, 'EADDRINUSE');
      assert.match(
        v.softrdmaLastError().message,
        new RegExp(`rdma_listen: ${address.replace(/\./g, '\\.')} port ${held.port} is already in use \\(EADDRINUSE\\)`),
      );
      cleanup(x);
    }
  } finally {
    held.close();
  }
});

test('rdma_listen twice on one port in one process: the second fails with EADDRINUSE; the first keeps listening', async () => {
  const a = listenOn('127.0.0.1', 0);
  assert.equal(a.ret, 0);
  await rdmaListenReady(a.id);
  const port = v.rdma_get_src_port(a.id);
  const b = listenOn('127.0.0.1', port);
  assert.equal(b.ret, -1);
  assert.equal(v.getErrno(), v.EADDRINUSE);
  cleanup(b);
  cleanup(a);
});

test('a bad SOFTRDMA_MPA: rdma_listen returns -1/EINVAL and the message is the parse error', () => {
  const saved = process.env.SOFTRDMA_MPA;
  process.env.SOFTRDMA_MPA = 'crc=maybe';
  try {
    const x = listenOn('127.0.0.1', 0);
    assert.equal(x.ret, -1);
    assert.equal(v.getErrno(), v.EINVAL);
    assert.match(v.softrdmaLastError().message, /^rdma_listen: SOFTRDMA_MPA: bad value "crc=maybe" \(allowed: crc=never\|allow\|require/);
    cleanup(x);
  } finally {
    if (saved === undefined) delete process.env.SOFTRDMA_MPA;
    else process.env.SOFTRDMA_MPA = saved;
  }
});

test('rdma_bind_addr on an address that is not on a running interface: EADDRNOTAVAIL with the reason', () => {
  const ch = v.rdma_create_event_channel()!;
  const id = v.rdma_create_id(ch, null, v.RDMA_PS_TCP).id!;
  // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never assigned to a host.
  assert.equal(v.rdma_bind_addr(id, { family: 'ipv4', address: '192.0.2.254', port: 0 }), -1);
  assert.equal(v.getErrno(), v.EADDRNOTAVAIL);
  assert.match(v.softrdmaLastError().message, /192\.0\.2\.254 is not an address of a running interface/);
  v.rdma_destroy_id(id);
  v.rdma_destroy_event_channel(ch);
});

test('ibv_reg_mr with a string, null or too long a length: null, errno EINVAL, and a message naming the argument', () => {
  const ctx = openCtx();
  const pd = v.ibv_alloc_pd(ctx)!;
  const cases: [unknown, number, RegExp][] = [
    ['hello', 5, /addr is a string; expected a Uint8Array/],
    [null, 5, /addr is null/],
    [new Uint8Array(4), 8, /length 8 is beyond the end of addr \(4 bytes\)/],
    [new Uint8Array(4), 0, /length 0 is not a positive integer/],
  ];
  for (const [addr, len, msg] of cases) {
    assert.equal(v.ibv_reg_mr(pd, addr as Uint8Array, len, v.IBV_ACCESS_LOCAL_WRITE), null);
    assert.equal(v.getErrno(), v.EINVAL);
    assert.match(v.softrdmaLastError().message, msg);
  }
  v.ibv_dealloc_pd(pd);
  v.ibv_close_device(ctx);
});

test('a number where the bigint wr_id belongs: EINVAL and a message that says to write a bigint', () => {
  const ctx = openCtx();
  const pd = v.ibv_alloc_pd(ctx)!;
  const srq = v.ibv_create_srq(pd, { attr: { max_wr: 4, max_sge: 1 } })!;
  const buf = new Uint8Array(64);
  const mr = v.ibv_reg_mr(pd, buf, 64, v.IBV_ACCESS_LOCAL_WRITE)!;
  const wr = { wr_id: 7 as unknown as bigint, sg_list: [{ addr: mr.addr, length: 64, lkey: mr.lkey }] };
  const r = v.ibv_post_srq_recv(srq, wr);
  assert.equal(r.ret, v.EINVAL);
  assert.equal(r.bad_wr, wr);
  assert.match(v.softrdmaLastError().message, /ibv_post_srq_recv: wr_id must be a bigint .*write 7n or BigInt\(7\)/);
  assert.equal(v.ibv_post_srq_recv(srq, { ...wr, wr_id: 7n }).ret, 0);
  v.ibv_destroy_srq(srq);
  v.ibv_dereg_mr(mr);
  v.ibv_dealloc_pd(pd);
  v.ibv_close_device(ctx);
});

test('ibv_get_async_event(ctx) without a caller-allocated struct resolves EINVAL with a message (no TypeError)', async () => {
  const ctx = openCtx();
  const r = await (v.ibv_get_async_event as (c: v.ibv_context) => Promise<number>)(ctx);
  assert.equal(r, v.EINVAL);
  assert.match(v.softrdmaLastError().message, /event must be an ibv_async_event object/);
  v.ibv_close_device(ctx);
});

test("the emitted declarations keep each constant's enum-member type, so users narrow on them", () => {
  const status = readFileSync(new URL('../../src/itapi/status.d.ts', import.meta.url), 'utf8');
  assert.match(status, /export declare const IT_SUCCESS = it_status_t\.IT_SUCCESS;/);
  assert.doesNotMatch(status, /IT_SUCCESS: it_status_t/);
  const consts = readFileSync(new URL('../../src/verbs/constants.d.ts', import.meta.url), 'utf8');
  assert.match(consts, /export declare const IBV_WC_SUCCESS = ibv_wc_status\.IBV_WC_SUCCESS;/);
});

/**
 * Multicast over RoCEv2 between processes: examples/rdmacm/mckey (rdma_join_multicast, the UD QP
 * attached to `::ffff:G`, a real IGMP join through the group's socket, datagrams to QPN 0xFFFFFF)
 * with one sender and two receivers, each its own process with its own address. Linux `lo` does
 * not carry multicast, so the test runs in a network namespace of its own whose `lo` does
 * (`ip link set lo multicast on`, a route for 224.0.0.0/4): root and iproute2 are needed, else
 * it skips with the reason. Also ibv_attach_mcast's errors, which need no network.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EINVAL, IBV_QPT_RC, IBV_QPT_UD, verbs as v } from '../../src/verbs/index.js';
import { useEphemeralRocePort } from '../helpers/roce-port.js';

await useEphemeralRocePort();
const mckey = fileURLToPath(new URL('../../examples/rdmacm/mckey.js', import.meta.url));
const multicast = fileURLToPath(new URL('../../examples/verbs/multicast.js', import.meta.url));
const NS = `sr-mckey-${process.pid}`;

function nsReady(): string | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'needs root (a network namespace whose lo carries multicast)';
  const sh = (args: string[]) => spawnSync('ip', args, { encoding: 'utf8' });
  if (sh(['-V']).status !== 0) return 'iproute2 (ip) is not installed';
  for (const a of [['netns', 'add', NS], ['-n', NS, 'link', 'set', 'lo', 'up'], ['-n', NS, 'link', 'set', 'lo', 'multicast', 'on'], ['-n', NS, 'route', 'add', '224.0.0.0/4', 'dev', 'lo']]) {
    const r = sh(a);
    if (r.status !== 0) return `cannot set up network namespace ${NS}: ip ${a.join(' ')}: ${r.stderr.trim()}`;
  }
  return null;
}

const why = nsReady();
after(() => {
  if (!why) spawnSync('ip', ['netns', 'del', NS]);
});

function inNs(args: string[], addr: string, program = mckey, onOut?: (out: string) => void): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn('ip', ['netns', 'exec', NS, process.execPath, program, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SOFTRDMA_ROCE_ADDRS: addr, SOFTRDMA_ROCE_PORT: '4791' } });
    let out = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d;
      onOut?.(out);
    });
    p.stderr.on('data', (d: Buffer) => (out += d));
    const t = setTimeout(() => p.kill(), 60_000);
    p.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, out });
    });
  });
}

test('mckey: one sender and two receivers in separate processes, each receiver gets all 10 datagrams of the group 239.255.1.1', { timeout: 120_000, skip: why ?? false }, async () => {
  const r1 = inNs(['-m', '239.255.1.1', '-b', '127.0.0.2'], '127.0.0.2');
  const r2 = inNs(['-m', '239.255.1.1', '-b', '127.0.0.3'], '127.0.0.3');
  // The receivers join, then pause 3 s; the sender joins and pauses 3 s too before it sends.
  await new Promise((x) => setTimeout(x, 1500));
  const s = await inNs(['-m', '239.255.1.1', '-s', '-b', '127.0.0.1'], '127.0.0.1');
  assert.equal(s.code, 0, s.out);
  assert.match(s.out, /mckey: joined dgid: ::ffff:239\.255\.1\.1 mlid 0x0 sl 0\ninitiating data transfers\ndata transfers complete/);
  for (const r of [await r1, await r2]) {
    assert.equal(r.code, 0, r.out);
    assert.equal(r.out, 'mckey: starting server\nmckey: joining\nmckey: joined dgid: ::ffff:239.255.1.1 mlid 0x0 sl 0\nreceiving data transfers\ndata transfers complete\ntest complete\nreturn status 0\n');
  }
});

test('the manual\'s multicast example with the rdma_cm (§8.5.2, examples/verbs/multicast): two receivers and a sender in separate processes, 20 messages of 512 bytes each', { timeout: 120_000, skip: why ?? false }, async () => {
  const waiting: Promise<void>[] = [];
  const recv = ['127.0.0.2', '127.0.0.3'].map((a) => {
    let ready: () => void = () => {};
    waiting.push(new Promise<void>((r) => (ready = r)));
    return inNs(['-m', '239.255.1.2', '-b', a, '-c', '20', '-l', '512'], a, multicast, (o) => {
      if (o.includes('waiting for messages...')) ready();
    });
  });
  // A datagram sent before a member joined is not delivered: the sender starts once both wait.
  await Promise.race([Promise.all(waiting), new Promise((x) => setTimeout(x, 30_000))]);
  const s = await inNs(['-m', '239.255.1.2', '-s', '-b', '127.0.0.1', '-c', '20', '-l', '512'], '127.0.0.1', multicast);
  assert.equal(s.code, 0, s.out);
  assert.equal(s.out, Array.from({ length: 20 }, (_, i) => `sent message ${i + 1}\n`).join(''));
  for (const r of await Promise.all(recv)) {
    assert.equal(r.code, 0, r.out);
    assert.equal(r.out, `waiting for messages...\n${Array.from({ length: 20 }, (_, i) => `received message ${i + 1}\n`).join('')}`);
  }
});

test('the manual\'s multicast example: without -m it says so; a length above the active MTU is refused', { timeout: 60_000, skip: why ?? false }, async () => {
  const a = await inNs([], '127.0.0.1', multicast);
  assert.equal(a.code, 1);
  assert.equal(a.out, 'multicast address must be specified with -m\n');
  const b = await inNs(['-m', '239.255.1.3', '-b', '127.0.0.1', '-l', '100000'], '127.0.0.1', multicast);
  assert.equal(b.code, 1, b.out);
  assert.match(b.out, /msg_length 100000 is larger than the active MTU \d+/);
});

test('ibv_attach_mcast on softroce0: an RC QP or a non-multicast GID is EINVAL; attach twice is fine; detach of a group not joined is EINVAL; a QP still attached cannot be destroyed (EBUSY)', () => {
  const ctx = v.rdma_get_devices()!.find((c) => c.device.name === 'softroce0')!;
  const pd = v.ibv_alloc_pd(ctx)!;
  const cq = v.ibv_create_cq(ctx, 4, null, null, 0)!;
  const cap = { max_send_wr: 1, max_recv_wr: 1, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 };
  const ud = v.ibv_create_qp(pd, { qp_type: IBV_QPT_UD, send_cq: cq, recv_cq: cq, cap })!;
  const rc = v.ibv_create_qp(pd, { qp_type: IBV_QPT_RC, send_cq: cq, recv_cq: cq, cap })!;
  const group = { raw: Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 239, 1, 2, 3]) };
  const unicast = { raw: Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 1, 2, 3]) };
  assert.equal(v.ibv_attach_mcast(rc, group, 0), EINVAL);
  assert.equal(v.ibv_attach_mcast(ud, unicast, 0), EINVAL);
  assert.equal(v.ibv_attach_mcast(ud, group, 0), 0);
  assert.equal(v.ibv_attach_mcast(ud, group, 0), 0);
  assert.equal(v.ibv_destroy_qp(ud), 16, 'EBUSY while attached');
  assert.equal(v.ibv_detach_mcast(ud, unicast, 0), EINVAL);
  assert.equal(v.ibv_detach_mcast(ud, group, 0), 0);
  assert.equal(v.ibv_detach_mcast(ud, group, 0), EINVAL);
  for (const q of [ud, rc]) assert.equal(v.ibv_destroy_qp(q), 0);
  assert.equal(v.ibv_destroy_cq(cq), 0);
  assert.equal(v.ibv_dealloc_pd(pd), 0);
  const attr = {} as Parameters<typeof v.ibv_query_device>[1];
  assert.equal(v.ibv_query_device(ctx, attr), 0);
  assert.equal(attr.max_mcast_grp, 8192);
  assert.equal(attr.max_mcast_qp_attach, 56);
});

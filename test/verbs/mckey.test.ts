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
import {
  EINVAL,
  IBV_QPT_RC,
  IBV_QPT_UD,
  RDMA_CM_EVENT_MULTICAST_JOIN,
  RDMA_CM_JOIN_MC_ATTR_ADDRESS,
  RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS,
  RDMA_MC_JOIN_FLAG_FULLMEMBER,
  RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER,
  RDMA_PS_UDP,
  type ibv_context,
  verbs as v,
} from '../../src/verbs/index.js';
import { useEphemeralRocePort } from '../helpers/roce-port.js';

await useEphemeralRocePort();
const mckey = fileURLToPath(new URL('../../examples/rdmacm/mckey.js', import.meta.url));
const multicast = fileURLToPath(new URL('../../examples/verbs/multicast.js', import.meta.url));
const NS = `sr-mckey-${process.pid}`;

function nsReady(): string | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'needs root (a network namespace whose lo carries multicast)';
  const sh = (args: string[]) => spawnSync('ip', args, { encoding: 'utf8' });
  if (sh(['-V']).status !== 0) return 'iproute2 (ip) is not installed';
  for (const a of [
    ['netns', 'add', NS],
    ['-n', NS, 'link', 'set', 'lo', 'up'],
    ['-n', NS, 'link', 'set', 'lo', 'multicast', 'on'],
    ['-n', NS, 'route', 'add', '224.0.0.0/4', 'dev', 'lo'],
  ]) {
    const r = sh(a);
    if (r.status !== 0) return `cannot set up network namespace ${NS}: ip ${a.join(' ')}: ${r.stderr.trim()}`;
  }
  return null;
}

const why = nsReady();

/** An IPv4 address in softroce0's GID table (an IPv4-mapped GID). */
async function firstRoceAddr(ctx: ibv_context): Promise<string> {
  for (let i = 0; i < 16; i++) {
    const g = { raw: new Uint8Array(16) };
    if (v.ibv_query_gid(ctx, 1, i, g) !== 0) break;
    if (g.raw[10] === 0xff && g.raw[11] === 0xff) return [...g.raw.subarray(12)].join('.');
  }
  return '127.0.0.1';
}
after(() => {
  if (!why) spawnSync('ip', ['netns', 'del', NS]);
});

function inNs(args: string[], addr: string, program = mckey, onOut?: (out: string) => void): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn('ip', ['netns', 'exec', NS, process.execPath, program, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SOFTRDMA_ROCE_ADDRS: addr, SOFTRDMA_ROCE_PORT: '4791' },
    });
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

test('mckey: one sender and two receivers in separate processes, each receiver gets all 10 datagrams of the group 239.255.1.1', {
  timeout: 120_000,
  skip: why ?? false,
}, async () => {
  const r1 = inNs(['-m', '239.255.1.1', '-b', '127.0.0.2'], '127.0.0.2');
  const r2 = inNs(['-m', '239.255.1.1', '-b', '127.0.0.3'], '127.0.0.3');
  // The receivers join, then pause 3 s; the sender joins and pauses 3 s too before it sends.
  await new Promise((x) => setTimeout(x, 1500));
  const s = await inNs(['-m', '239.255.1.1', '-s', '-b', '127.0.0.1'], '127.0.0.1');
  assert.equal(s.code, 0, s.out);
  assert.match(s.out, /mckey: joined dgid: ::ffff:239\.255\.1\.1 mlid 0x0 sl 0\ninitiating data transfers\ndata transfers complete/);
  for (const r of [await r1, await r2]) {
    assert.equal(r.code, 0, r.out);
    assert.equal(
      r.out,
      'mckey: starting server\nmckey: joining\nmckey: joined dgid: ::ffff:239.255.1.1 mlid 0x0 sl 0\nreceiving data transfers\ndata transfers complete\ntest complete\nreturn status 0\n',
    );
  }
});

test('mckey -o: a send-only full member (rdma_join_multicast_ex) sends to two full-member receivers, each gets all 10 datagrams', {
  timeout: 120_000,
  skip: why ?? false,
}, async () => {
  const r1 = inNs(['-m', '239.255.1.4', '-b', '127.0.0.2'], '127.0.0.2');
  const r2 = inNs(['-m', '239.255.1.4', '-b', '127.0.0.3'], '127.0.0.3');
  await new Promise((x) => setTimeout(x, 1500));
  const s = await inNs(['-m', '239.255.1.4', '-s', '-o', '-b', '127.0.0.1'], '127.0.0.1');
  assert.equal(s.code, 0, s.out);
  assert.match(s.out, /mckey: joined dgid: ::ffff:239\.255\.1\.4 mlid 0x0 sl 0\ninitiating data transfers\ndata transfers complete/);
  for (const r of [await r1, await r2]) {
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /receiving data transfers\ndata transfers complete\n/);
  }
});

test('rdma_join_multicast_ex: flags are checked (EINVAL), and a send-only join leaves the QP unattached while a full join attaches it', {
  timeout: 60_000,
}, async () => {
  const ch = v.rdma_create_event_channel()!;
  const ctx = v.rdma_get_devices()!.find((c) => c.device.name === 'softroce0')!;
  const addr = await firstRoceAddr(ctx);
  const join = async (sendOnly: boolean, group: string) => {
    const id = v.rdma_create_id(ch, null, RDMA_PS_UDP).id!;
    assert.equal(v.rdma_bind_addr(id, { family: 'ipv4', address: addr, port: 0 }), 0);
    const cq = v.ibv_create_cq(id.verbs!, 4, null, null, 0)!;
    assert.equal(
      v.rdma_create_qp(id, null, {
        qp_type: IBV_QPT_UD,
        send_cq: cq,
        recv_cq: cq,
        cap: { max_send_wr: 1, max_recv_wr: 1, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 },
      }),
      0,
    );
    const g = { family: 'ipv4' as const, address: group, port: 0 };
    const flags = sendOnly ? RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER : RDMA_MC_JOIN_FLAG_FULLMEMBER;
    assert.equal(await v.rdma_join_multicast_ex(id, { comp_mask: RDMA_CM_JOIN_MC_ATTR_ADDRESS, join_flags: flags, addr: g }, null), -1);
    assert.equal(v.getErrno(), EINVAL, 'JOIN_FLAGS missing from comp_mask');
    assert.equal(
      await v.rdma_join_multicast_ex(
        id,
        { comp_mask: RDMA_CM_JOIN_MC_ATTR_ADDRESS | RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS, join_flags: 2, addr: g },
        null,
      ),
      -1,
    );
    assert.equal(v.getErrno(), EINVAL, 'a reserved join flag');
    assert.equal(
      await v.rdma_join_multicast_ex(
        id,
        { comp_mask: RDMA_CM_JOIN_MC_ATTR_ADDRESS | RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS, join_flags: flags, addr: g },
        null,
      ),
      0,
    );
    const ev = (await v.rdma_get_cm_event(ch)).event!;
    assert.equal(ev.event, RDMA_CM_EVENT_MULTICAST_JOIN);
    assert.equal(ev.param.ud.qp_num, 0xffffff);
    v.rdma_ack_cm_event(ev);
    const mgid = { raw: Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...group.split('.').map(Number)]) };
    // Detaching succeeds only for an attached QP (EINVAL otherwise); attach again so the leave below finds it as rdma_cm left it.
    const detached = v.ibv_detach_mcast(id.qp!, mgid, 0);
    if (detached === 0) assert.equal(v.ibv_attach_mcast(id.qp!, mgid, 0), 0);
    assert.equal(v.rdma_leave_multicast(id, g), 0);
    v.rdma_destroy_qp(id);
    assert.equal(v.ibv_destroy_cq(cq), 0);
    assert.equal(v.rdma_destroy_id(id), 0);
    return detached;
  };
  assert.equal(await join(true, '239.255.2.1'), EINVAL, "the send-only member's QP is not attached");
  assert.equal(await join(false, '239.255.2.2'), 0, "the full member's QP is attached");
  v.rdma_destroy_event_channel(ch);
});

test("the manual's multicast example with the rdma_cm (§8.5.2, examples/verbs/multicast): two receivers and a sender in separate processes, 20 messages of 512 bytes each", {
  timeout: 120_000,
  skip: why ?? false,
}, async () => {
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

test("the manual's multicast example: without -m it says so; a length above the active MTU is refused", {
  timeout: 60_000,
  skip: why ?? false,
}, async () => {
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

/** A network namespace with a veth pair for IPv6 groups (Linux `lo` does not carry IPv6 multicast). */
const NS6 = `sr-mckey6-${process.pid}`;
function ns6Ready(): string | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'needs root (a network namespace with a veth pair)';
  const sh = (args: string[]) => spawnSync('ip', args, { encoding: 'utf8' });
  if (sh(['-V']).status !== 0) return 'iproute2 (ip) is not installed';
  const steps = [
    ['netns', 'add', NS6],
    ['-n', NS6, 'link', 'set', 'lo', 'up'],
    ['-n', NS6, 'link', 'add', 'mk0', 'type', 'veth', 'peer', 'name', 'mk1'],
    ['-n', NS6, 'link', 'set', 'mk0', 'up'],
    ['-n', NS6, 'link', 'set', 'mk1', 'up'],
    ['-n', NS6, 'addr', 'add', 'fd53:6d63::1/64', 'dev', 'mk0', 'nodad'],
    ['-n', NS6, 'addr', 'add', 'fd53:6d63::2/64', 'dev', 'mk1', 'nodad'],
    ['-n', NS6, 'addr', 'add', 'fd53:6d63::3/64', 'dev', 'mk1', 'nodad'],
  ];
  for (const a of steps) {
    const r = sh(a);
    if (r.status !== 0) return `cannot set up network namespace ${NS6}: ip ${a.join(' ')}: ${r.stderr.trim()}`;
  }
  return null;
}
const why6 = why ?? ns6Ready();
after(() => {
  if (!why6) spawnSync('ip', ['netns', 'del', NS6]);
});

function inNs6(args: string[], addr: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn('ip', ['netns', 'exec', NS6, process.execPath, mckey, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SOFTRDMA_ROCE_ADDRS: addr, SOFTRDMA_ROCE_PORT: '4791' },
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d));
    p.stderr.on('data', (d: Buffer) => (out += d));
    const t = setTimeout(() => p.kill(), 60_000);
    p.on('close', (code) => {
      clearTimeout(t);
      resolve({ code, out });
    });
  });
}

test('mckey over IPv6: group ff0e::1:7 (MLD joins), a sender on one end of a veth pair and two receivers on the other, each gets all 10 datagrams', {
  timeout: 120_000,
  skip: why6 ?? false,
}, async () => {
  const r1 = inNs6(['-m', 'ff0e::1:7', '-b', 'fd53:6d63::2'], 'fd53:6d63::2');
  const r2 = inNs6(['-m', 'ff0e::1:7', '-b', 'fd53:6d63::3'], 'fd53:6d63::3');
  await new Promise((x) => setTimeout(x, 1500));
  const s = await inNs6(['-m', 'ff0e::1:7', '-s', '-b', 'fd53:6d63::1'], 'fd53:6d63::1');
  assert.equal(s.code, 0, s.out);
  assert.match(s.out, /mckey: joined dgid: ff0e::1:7 mlid 0x0 sl 0\ninitiating data transfers\ndata transfers complete/);
  for (const r of [await r1, await r2]) {
    assert.equal(r.code, 0, r.out);
    assert.equal(
      r.out,
      'mckey: starting server\nmckey: joining\nmckey: joined dgid: ff0e::1:7 mlid 0x0 sl 0\nreceiving data transfers\ndata transfers complete\ntest complete\nreturn status 0\n',
    );
  }
});

/**
 * The RoCEv2 UDP layer (src/roce/net.ts) on real loopback sockets: dispatch by DestQP, IPv4 ID
 * 0 on the wire, the receive-side ICRC check that recovers the kernel's IPv4 ID, drops
 * (bad ICRC, malformed, unknown QP), the fault hook, bind errors, and the pcap tap.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Cq, NotifyType } from '../../src/rnic/cq.js';
import { RoceNet, type RoceRx } from '../../src/roce/net.js';
import { gidToIpv4, ipIdZeroSupported, ipv4Bytes, ipv4ToGid } from '../../src/roce/net-host.js';
import { nativeUdp } from '../../src/util/native-udp.js';
import { encodeIbPacket, IbOpcode, ibPadCount, newBth, writeIcrc } from '../../src/wire/ib/index.js';

const A = '127.0.0.1';
const B = '127.0.0.2';

function sendOnly(qpn: number, psn: number, len = 10): Uint8Array {
  return encodeIbPacket({
    bth: { ...newBth(IbOpcode.RC_SEND_ONLY, qpn, psn), padCnt: ibPadCount(len) },
    payload: new Uint8Array(len).fill(psn & 0xff),
  });
}

async function pair(): Promise<[RoceNet, RoceNet]> {
  const a = RoceNet.acquire(A, 0);
  await a.ready;
  const b = RoceNet.acquire(B, a.port);
  await b.ready;
  return [a, b];
}

function collector(): { got: RoceRx[]; errors: Error[]; client: { rx(r: RoceRx): void; netError(e: Error): void } } {
  const got: RoceRx[] = [];
  const errors: Error[] = [];
  return { got, errors, client: { rx: (r) => got.push(r), netError: (e) => errors.push(e) } };
}

const tick = (ms = 50) => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await tick(5);
  }
}

describe('RoCEv2 UDP layer', () => {
  it('GID ↔ IPv4 helpers', () => {
    assert.deepEqual(Array.from(ipv4ToGid('192.168.77.1')), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 168, 77, 1]);
    assert.equal(gidToIpv4(ipv4ToGid('10.1.2.3')), '10.1.2.3');
    assert.equal(gidToIpv4(new Uint8Array(16)), null);
    assert.throws(() => ipv4Bytes('1.2.3'), RangeError);
  });

  it('delivers by DestQP with IPv4 ID 0; unknown QPs, bad ICRCs and malformed packets are dropped and counted', async () => {
    const [a, b] = await pair();
    try {
      // With the addon the kernel sends ID 0; without it, it picks IDs, and since the ICRC was
      // computed for 0 the receiver's solver finds 0 either way (softrdma peers interoperate).
      assert.equal(a.ipIdZero, ipIdZeroSupported(), 'IP_PMTUDISC_DO set through the native addon when it is built');
      const q1 = collector();
      const q2 = collector();
      b.attach(0x11, q1.client);
      b.attach(0x12, q2.client);
      assert.throws(() => b.attach(0x11, q2.client), RangeError);
      a.send(sendOnly(0x11, 1), B);
      a.send(sendOnly(0x12, 2), B);
      a.send(sendOnly(0x13, 3), B); // nobody
      await until(() => q1.got.length === 1 && q2.got.length === 1 && b.stats.rxNoQp === 1);
      assert.equal(q1.got[0]!.ipId, 0);
      assert.equal(q1.got[0]!.pkt.bth.psn, 1);
      assert.equal(q1.got[0]!.srcAddress, A);
      assert.deepEqual(Array.from(q2.got[0]!.pkt.payload), new Array(10).fill(2));
      // A bad ICRC (one flipped payload bit after the ICRC was computed).
      const bad = sendOnly(0x11, 4);
      writeIcrc({ src: ipv4Bytes(A), dst: ipv4Bytes(B), srcPort: a.port, dstPort: b.port }, bad);
      bad[14]! ^= 0x10;
      const raw = dgram.createSocket('udp4');
      raw.bind(0, A);
      await once(raw, 'listening');
      raw.send(bad, b.port, B);
      // TVer 1 with a valid ICRC: malformed.
      const tver = sendOnly(0x11, 5);
      tver[1] = 0x01;
      a.send(tver, B);
      await until(() => b.stats.rxIcrcErrors === 1 && b.stats.rxMalformed === 1);
      // A plain socket (the kernel picks the IPv4 ID) with an ICRC computed for ID 0: the
      // receiver cannot see the ID, solves for the one that makes the ICRC valid (0) and
      // accepts the packet — as a real peer that sees the kernel's ID would not.
      const plain = sendOnly(0x11, 6);
      writeIcrc(
        { src: ipv4Bytes(A), dst: ipv4Bytes(B), srcPort: (raw.address() as { port: number }).port, dstPort: b.port, ipId: 0 },
        plain,
      );
      raw.send(plain, b.port, B);
      await until(() => q1.got.length === 2);
      assert.equal(q1.got[1]!.ipId, 0);
      assert.equal(b.stats.rxIcrcErrors, 1);
      raw.close();
      b.detach(0x11);
      b.detach(0x12);
    } finally {
      a.release();
      b.release();
    }
  });

  it('native layer: what a turn queues, its end-of-turn work and sends made microtasks later included, leaves in one sendmmsg', {
    skip: nativeUdp() ? false : 'the native datagram layer is not built or is off (SOFTRDMA_NATIVE=0)',
  }, async () => {
    const [a, b] = await pair();
    try {
      const ping = collector();
      const back = collector();
      a.attach(0x62, back.client);
      a.attach(0x63, back.client);
      // b answers each ping as a transport and its consumer do: an ACK coalesced to the end of
      // the turn, and a reply posted by a consumer that saw a completion a few promise hops on.
      b.attach(0x61, {
        rx: (r) => {
          ping.client.rx(r);
          const psn = r.pkt.bth.psn;
          b.atTurnEnd(() => b.send(sendOnly(0x63, psn, 4), A, a.port));
          void Promise.resolve()
            .then(() => Promise.resolve())
            .then(() => b.send(sendOnly(0x62, psn, 8), A, a.port));
        },
        netError: ping.client.netError,
      });
      const rounds = 5;
      const calls0 = b.stats.txCalls;
      for (let i = 1; i <= rounds; i++) {
        a.send(sendOnly(0x61, i), B);
        await until(() => back.got.length === 2 * i);
      }
      assert.equal(ping.got.length, rounds);
      assert.equal(b.stats.txPackets, 2 * rounds);
      assert.equal(b.stats.txCalls - calls0, rounds, 'one sendmmsg per turn: the reply and the end-of-turn ACK together');
      // Each round's two datagrams, reply first (it was queued first).
      for (let i = 0; i < rounds; i++) {
        assert.deepEqual(
          back.got.slice(2 * i, 2 * i + 2).map((r) => [r.pkt.bth.destQp, r.pkt.bth.psn]),
          [
            [0x62, i + 1],
            [0x63, i + 1],
          ],
        );
      }
    } finally {
      a.release();
      b.release();
    }
  });

  it('a completion made by a received datagram is notified from the socket callback, before the microtasks it queued', async () => {
    const [a, b] = await pair();
    try {
      const order: string[] = [];
      const c = new Cq(
        1,
        8,
        0,
        null,
        () => order.push('notified'),
        () => {},
      );
      c.arm(NotifyType.ANY);
      b.attach(0x21, {
        rx: (r) => {
          // A microtask queued before the completion: with the notification deferred to a
          // microtask of its own, it would run first.
          queueMicrotask(() => order.push('microtask'));
          c.push(
            {
              op_type: 0,
              cq_os_data: null,
              flags: 0,
              invalidated_rtag: 0,
              qp_os_data: null,
              id: BigInt(r.pkt.bth.psn),
              op_status: 0,
              bytes_transferred: 0,
              immediate_data: 0,
              err_data: 0n,
              qp_num: 0x21,
            },
            null,
            false,
            0,
            false,
          );
        },
        netError: () => {},
      });
      a.send(sendOnly(0x21, 7), B);
      await until(() => order.length === 2);
      assert.deepEqual(order, ['notified', 'microtask']);
      b.detach(0x21);
    } finally {
      a.release();
      b.release();
    }
  });

  it('the fault hook drops, duplicates and corrupts datagrams on transmit (corrupted ones fail the ICRC)', async () => {
    const [a, b] = await pair();
    try {
      const q = collector();
      b.attach(0x31, q.client);
      a.setFaults({ seed: 1, drop: 1 });
      for (let i = 0; i < 20; i++) a.send(sendOnly(0x31, i), B);
      a.setFaults({ seed: 2, duplicate: 1 });
      a.send(sendOnly(0x31, 100), B);
      await until(() => q.got.length === 2);
      assert.deepEqual(
        q.got.map((r) => r.pkt.bth.psn),
        [100, 100],
      );
      a.setFaults({ seed: 3, corrupt: 1 });
      for (let i = 0; i < 50; i++) a.send(sendOnly(0x31, 200 + i, 64), B);
      await until(() => b.stats.rxIcrcErrors === 50);
      a.setFaults({ seed: 4, reorder: 0.5 });
      for (let i = 0; i < 50; i++) a.send(sendOnly(0x31, 300 + i), B);
      await until(() => q.got.length === 52);
      const psns = q.got.slice(2).map((r) => r.pkt.bth.psn);
      assert.deepEqual(
        [...psns].sort((x, y) => x - y),
        Array.from({ length: 50 }, (_, i) => 300 + i),
      );
      assert.notDeepEqual(
        psns,
        [...psns].sort((x, y) => x - y),
        'some reordering happened',
      );
    } finally {
      a.release();
      b.release();
    }
  });

  it('a bind error reaches the attached QPs', async () => {
    const n = RoceNet.acquire('192.0.2.77', 0); // TEST-NET-1: not a local address
    const q = collector();
    n.attach(0x41, q.client);
    await assert.rejects(n.ready, /EADDRNOTAVAIL/);
    await until(() => q.errors.length === 1);
    n.release();
  });

  it('SOFTRDMA_PCAP: both directions captured, tshark decodes them as RRoCE', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'softrdma-roce-pcap-'));
    const old = process.env.SOFTRDMA_PCAP;
    process.env.SOFTRDMA_PCAP = dir;
    try {
      const [a, b] = await pair();
      const q = collector();
      b.attach(0x51, q.client);
      for (let i = 0; i < 5; i++) a.send(sendOnly(0x51, i, 33), B);
      await until(() => q.got.length === 5);
      const port = a.port;
      const gso = a.layer.gso;
      a.release();
      b.release();
      const files = readdirSync(dir).filter((f) => f.endsWith('.pcap'));
      assert.equal(files.length, 2);
      if (spawnSync('tshark', ['--version']).status !== 0) return t.skip('tshark not installed');
      for (const f of files) {
        const r = spawnSync(
          'tshark',
          [
            '-r',
            join(dir, f),
            '-o',
            `infiniband.rroce.port:${port}`,
            '-T',
            'fields',
            '-e',
            'infiniband.bth.opcode',
            '-e',
            'infiniband.bth.psn',
            '-e',
            'ip.id',
          ],
          { encoding: 'utf8' },
        );
        assert.equal(r.status, 0, r.stderr);
        // The five equal packets sent in one turn: one UDP_SEGMENT run on the native layer with
        // GSO, whose segments the kernel numbers 0…4 (and the receiver's solver recovers); ID 0 each otherwise.
        const ids = gso ? [0, 1, 2, 3, 4] : [0, 0, 0, 0, 0];
        assert.deepEqual(
          r.stdout.trim().split('\n'),
          ids.map((id, i) => `4\t${i}\t0x000${id}`),
          f,
        );
      }
    } finally {
      if (old === undefined) delete process.env.SOFTRDMA_PCAP;
      else process.env.SOFTRDMA_PCAP = old;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

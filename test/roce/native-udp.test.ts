/**
 * The native datagram layer (native/udp.c through src/util/native-udp.ts) on loopback sockets:
 * batched receive (one callback per recvmmsg batch), batched send (sendmmsg), UDP_SEGMENT runs
 * split again by UDP_GRO, the IPv4 IDs the kernel gives GSO segments (which the per-segment ICRC
 * of src/roce/net.ts relies on), truncation, bad input, and EAGAIN on a full send buffer.
 * Skipped when the addon is not built.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { RoceNet } from '../../src/roce/net.js';
import { ICRC_META_WORD, type NativeUdpSocket, nativeUdp } from '../../src/util/native-udp.js';
import { computeIcrc, crc32Js, IPV4_FLAGS_DF, readIcrc, solveIpv4Id } from '../../src/wire/ib/index.js';

const native = nativeUdp();
const skip = native ? false : 'the native datagram layer is not built or is off (SOFTRDMA_NATIVE=0)';
const LO = 0x7f000001;
const LO_TEXT = '127.0.0.1';

interface Rx {
  sock: NativeUdpSocket;
  port: number;
  gro: boolean;
  gso: boolean;
  /** One entry per callback: the datagrams of that batch. */
  batches: { data: Buffer; addr: number; port: number }[][];
}

function receiver(gro: boolean, slotSize = 65536, slots = 16): Rx {
  let meta: Uint32Array;
  let w = 4;
  const batches: Rx['batches'] = [];
  const sock = new native!.UdpSocket(
    (buf, n) => {
      const b: Rx['batches'][number] = [];
      for (let i = 0; i < n; i++)
        b.push({
          data: Buffer.from(buf.subarray(meta[i * w]!, meta[i * w]! + meta[i * w + 1]!)),
          addr: meta[i * w + 2]!,
          port: meta[i * w + 3]!,
        });
      batches.push(b);
    },
    () => {},
  );
  const r = sock.bind(LO, 0, 1 << 20, 1 << 20, false, gro, slotSize, slots);
  meta = r.meta;
  w = r.metaWords ?? 4;
  return { sock, port: r.port, gro: r.gro, gso: r.gso, batches };
}

function sender(): { sock: NativeUdpSocket; port: number; gso: boolean } {
  const sock = new native!.UdpSocket(
    () => {},
    () => {},
  );
  const r = sock.bind(LO, 0, 1 << 20, 1 << 20, false, false, 2048, 1);
  return { sock, port: r.port, gso: r.gso };
}

const flat = (rx: Rx) => rx.batches.flat();

async function until(cond: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('native datagram layer', { skip }, () => {
  it('sends many datagrams in one call and delivers them in order, each with its source address and port', async () => {
    const rx = receiver(false);
    const tx = sender();
    try {
      const pkts = Array.from({ length: 20 }, (_, i) => new Uint8Array(100 + i).fill(i));
      const msgs = new Uint32Array(20 * 5);
      for (let i = 0; i < 20; i++) msgs.set([LO, rx.port, i, 1, 0], i * 5);
      assert.equal(tx.sock.send(pkts, msgs, 0, 20), 20);
      await until(() => flat(rx).length === 20);
      const got = flat(rx);
      got.forEach((d, i) => {
        assert.deepEqual(d.data, Buffer.from(pkts[i]!));
        assert.equal(d.addr, LO);
        assert.equal(d.port, tx.port);
      });
      // Batches: all 20 were queued before the receiver's poll, so fewer callbacks than datagrams.
      assert.ok(rx.batches.length < 20, `${rx.batches.length} callbacks for 20 datagrams`);
    } finally {
      rx.sock.close();
      tx.sock.close();
    }
  });

  for (const gro of [true, false]) {
    it(`a UDP_SEGMENT run arrives as its datagrams (receiver ${gro ? 'with UDP_GRO: split by gso_size' : 'without GRO'})`, async (t) => {
      const rx = receiver(gro);
      const tx = sender();
      try {
        if (!tx.gso) return t.skip('this kernel has no UDP_SEGMENT');
        if (gro && !rx.gro) return t.skip('this kernel has no UDP_GRO');
        // 6 × 1000 octets then a shorter last one, to one peer, in one message; then a lone one.
        const pkts = [
          ...Array.from({ length: 6 }, (_, i) => new Uint8Array(1000).fill(i + 1)),
          new Uint8Array(300).fill(9),
          new Uint8Array(40).fill(10),
        ];
        const msgs = Uint32Array.from([LO, rx.port, 0, 7, 1000, LO, rx.port, 7, 1, 0]);
        assert.equal(tx.sock.send(pkts, msgs, 0, 2), 2);
        await until(() => flat(rx).length === 8);
        assert.deepEqual(
          flat(rx).map((d) => d.data),
          pkts.map((p) => Buffer.from(p)),
        );
      } finally {
        rx.sock.close();
        tx.sock.close();
      }
    });
  }

  it('GSO segments leave with IPv4 IDs 0, 1, 2, … and DF: RoceNet gives each its ICRC for that ID', async (t) => {
    // The receiver has no GRO, so the kernel segments the run (inet_gso_segment) and the ID of
    // each datagram is the one it set; solving the ICRC for it shows which.
    const rx = receiver(false);
    const net = RoceNet.acquire(LO_TEXT, 0);
    try {
      await net.ready;
      if (!net.layer.gso) return t.skip('UDP_SEGMENT is off (kernel, or SOFTRDMA_GSO=0)');
      const pkts = Array.from({ length: 8 }, (_, i) => {
        const p = new Uint8Array(1040).fill(i);
        p[0] = 4; // any BTH-sized header: only the ICRC matters here
        return p;
      });
      // One turn: queued, then flushed together as one run to one peer.
      for (const p of pkts) net.send(p, LO_TEXT, rx.port);
      await until(() => flat(rx).length === 8);
      const ids = flat(rx).map((d) => {
        const id = solveIpv4Id(
          { src: Uint8Array.of(127, 0, 0, 1), dst: Uint8Array.of(127, 0, 0, 1), srcPort: net.port, dstPort: rx.port },
          d.data,
        );
        assert.ok(id, 'the ICRC is valid for some IPv4 ID');
        assert.equal(id.flagsFrag, IPV4_FLAGS_DF);
        return id.ipId;
      });
      assert.deepEqual(ids, [0, 1, 2, 3, 4, 5, 6, 7]);
      assert.equal(net.stats.txPackets, 8);
      // A go-back-N resend of one of them, alone, leaves with ID 0 and the ICRC for it (not k's).
      net.send(pkts[5]!, LO_TEXT, rx.port);
      await until(() => flat(rx).length === 9);
      const again = solveIpv4Id(
        { src: Uint8Array.of(127, 0, 0, 1), dst: Uint8Array.of(127, 0, 0, 1), srcPort: net.port, dstPort: rx.port },
        flat(rx)[8]!.data,
      );
      assert.equal(again?.ipId, 0);
      assert.equal(again?.flagsFrag, IPV4_FLAGS_DF);
    } finally {
      net.close();
      rx.sock.close();
    }
  });

  it("the addon's CRC-32 and ICRC agree with src/wire/ib/icrc.ts: on send (TX_ICRC) and in the receive metadata", async () => {
    // Every length across the folding code's 16- and 64-octet steps, from every alignment.
    const data = Uint8Array.from({ length: 4200 }, (_, i) => (i * 131 + 7) & 0xff);
    for (let len = 0; len < 300; len++)
      for (const off of [0, 1, 7])
        assert.equal(native!.crc32(data.subarray(off, off + len), 0x1234), crc32Js(data.subarray(off, off + len), 0x1234));
    assert.equal(native!.crc32(data, 0), crc32Js(data));
    let meta: Uint32Array;
    let w = 0;
    const got: { data: Buffer; icrc: number }[] = [];
    const rx = new native!.UdpSocket(
      (buf, n) => {
        for (let i = 0; i < n; i++)
          got.push({ data: Buffer.from(buf.subarray(meta[i * w]!, meta[i * w]! + meta[i * w + 1]!)), icrc: meta[i * w + ICRC_META_WORD]! });
      },
      () => {},
    );
    const r = rx.bind(LO, 0, 1 << 20, 1 << 20, false, false, 65536, 16);
    meta = r.meta;
    w = r.metaWords!;
    const tx = sender();
    try {
      const sizes = [16, 20, 80, 1040, 4112, 4100, 1040];
      const pkts: (Uint8Array | Uint8Array[])[] = sizes.map((n, k) => data.slice(k, k + n));
      // The last one in parts, as a gathering sender gives it: headers, payload views, pad + ICRC.
      const whole = pkts[6] as Uint8Array;
      pkts[6] = [whole.slice(0, 28), data.subarray(6 + 28, 6 + 500), data.subarray(6 + 500, 6 + 1036), whole.slice(1036)];
      // One message each (IPv4 ID 0), the ICRC computed by the addon as it sends.
      const msgs = Uint32Array.from(pkts.flatMap((_, k) => [LO, (r.port | native!.TX_ICRC) >>> 0, k, 1, 0]));
      assert.equal(tx.sock.send(pkts, msgs, 0, pkts.length), pkts.length);
      await until(() => got.length === pkts.length);
      const ip = { src: Uint8Array.of(127, 0, 0, 1), dst: Uint8Array.of(127, 0, 0, 1), srcPort: tx.port, dstPort: r.port };
      for (const [k, g] of got.entries()) {
        assert.deepEqual(
          g.data.subarray(0, sizes[k]! - 4),
          Buffer.from(data.subarray(k, k + sizes[k]! - 4)),
          'the octets before the ICRC are sent as they were',
        );
        assert.equal(readIcrc(g.data), computeIcrc(ip, g.data), 'send: the ICRC for ID 0 and DF');
        assert.equal(g.icrc, computeIcrc(ip, g.data), 'receive: the metadata holds the ICRC for ID 0 and DF');
      }
    } finally {
      rx.close();
      tx.sock.close();
    }
  });

  it('a datagram larger than the receive slot is reported with length 0, not cut', async () => {
    const rx = receiver(false, 64, 4);
    const tx = sender();
    try {
      const msgs = Uint32Array.from([LO, rx.port, 0, 1, 0, LO, rx.port, 1, 1, 0]);
      assert.equal(tx.sock.send([new Uint8Array(100).fill(1), new Uint8Array(30).fill(2)], msgs, 0, 2), 2);
      await until(() => flat(rx).length === 2);
      assert.deepEqual(
        flat(rx).map((d) => d.data.length),
        [0, 30],
      );
    } finally {
      rx.sock.close();
      tx.sock.close();
    }
  });

  it('a send that fails returns −errno and costs only that message', () => {
    const tx = sender();
    try {
      // 0.0.0.0 port 9 is fine; a limited-broadcast destination without SO_BROADCAST is EACCES.
      const msgs = Uint32Array.from([0xffffffff, 9, 0, 1, 0, LO, 9, 1, 1, 0]);
      const r = tx.sock.send([new Uint8Array(10), new Uint8Array(10)], msgs, 0, 2);
      assert.equal(r, -13);
      assert.equal(tx.sock.send([new Uint8Array(10), new Uint8Array(10)], msgs, 1, 2), 1);
    } finally {
      tx.sock.close();
    }
  });

  it('refuses bad arguments with TypeError/RangeError and never touches the socket', () => {
    const tx = sender();
    try {
      const ok = Uint32Array.from([LO, 9, 0, 1, 0]);
      assert.throws(() => tx.sock.send('x' as unknown as Uint8Array[], ok, 0, 1), TypeError);
      assert.throws(() => tx.sock.send([new Uint8Array(4)], new Uint16Array(5) as unknown as Uint32Array, 0, 1), RangeError);
      assert.throws(() => tx.sock.send([new Uint8Array(4)], ok, 0, 2), RangeError, 'more messages than words');
      assert.throws(
        () => tx.sock.send([new Uint8Array(4)], Uint32Array.from([LO, 9, 0, 2, 4]), 0, 1),
        RangeError,
        'packets past the array',
      );
      assert.throws(() => tx.sock.send([new Uint8Array(4)], Uint32Array.from([LO, 70000, 0, 1, 0]), 0, 1), RangeError, 'port > 65535');
      assert.throws(() => tx.sock.send([{} as Uint8Array], ok, 0, 1), TypeError);
      assert.throws(
        () => tx.sock.send([new Uint8Array(4), new Uint8Array(4)], Uint32Array.from([LO, 9, 0, 2, 0]), 0, 1),
        RangeError,
        'a run without a segment size',
      );
      assert.throws(() => tx.sock.bind(LO, 0, 0, 0, false, false, 2048, 1), /already bound/);
      assert.throws(() => tx.sock.bind(LO, 70000, 0, 0, false, false, 2048, 1), RangeError);
      assert.throws(
        () => tx.sock.membership(0x7f000001, LO, true),
        (e: NodeJS.ErrnoException) => typeof e.code === 'string',
      );
      assert.throws(() => new native!.UdpSocket(1 as unknown as () => void, () => {}), TypeError);
      assert.throws(() => native!.setsockoptInt(-1, 0, 10, 2), /EBADF/);
      const other = new native!.UdpSocket(
        () => {},
        () => {},
      );
      assert.throws(
        () => other.bind(0x0aff_ff01, 0, 0, 0, false, false, 2048, 1),
        (e: NodeJS.ErrnoException) => e.code === 'EADDRNOTAVAIL',
      );
      other.close();
    } finally {
      tx.sock.close();
    }
    assert.throws(() => tx.sock.send([new Uint8Array(4)], Uint32Array.from([LO, 9, 0, 1, 0]), 0, 1), /EBADF/, 'send after close');
  });
});

/**
 * EAGAIN: a socket whose send buffer is full. Loopback frees a datagram's memory at transmit, so
 * the test needs a link that holds datagrams: a veth device behind a slow tbf qdisc, in a network
 * namespace of its own (root and iproute2 needed; skipped otherwise).
 */
describe('native datagram layer: a full send buffer', { skip }, () => {
  const ns = `softrdma-eagain-${process.pid}`;
  const ip = (...a: string[]) => spawnSync('ip', a, { encoding: 'utf8' });
  const why =
    process.getuid?.() !== 0
      ? 'needs root (a network namespace with a tbf qdisc)'
      : ip('netns', 'add', ns).status !== 0
        ? 'cannot create a network namespace'
        : null;

  it('EAGAIN, then the writable callback; RoceNet queues, reports sendQueueCount, and delivers every datagram once the link drains', {
    skip: why ?? false,
  }, () => {
    try {
      // A veth pair: the datagrams leave d0 (through the qdisc) to a static neighbour; d1 drops them.
      const setup = [
        ['link', 'set', 'lo', 'up'],
        ['link', 'add', 'd0', 'type', 'veth', 'peer', 'name', 'd1'],
        ['addr', 'add', '10.99.0.1/24', 'dev', 'd0'],
        ['link', 'set', 'd0', 'up'],
        ['link', 'set', 'd1', 'up'],
        ['neigh', 'add', '10.99.0.2', 'lladdr', '02:00:00:00:00:02', 'dev', 'd0'],
      ];
      for (const a of setup) assert.equal(ip('netns', 'exec', ns, 'ip', ...a).status, 0, `ip ${a.join(' ')}`);
      // 16 Mbit/s with a 32 MB queue: the qdisc holds what the socket sends, charged to it.
      const tc = spawnSync('ip', [
        'netns',
        'exec',
        ns,
        'tc',
        'qdisc',
        'add',
        'dev',
        'd0',
        'root',
        'tbf',
        'rate',
        '16mbit',
        'burst',
        '32kb',
        'limit',
        '32mb',
      ]);
      assert.equal(tc.status, 0, 'tc qdisc add tbf');
      const child = `
        const { nativeUdp } = await import(${JSON.stringify(new URL('../../src/util/native-udp.js', import.meta.url).href)});
        const { RoceNet } = await import(${JSON.stringify(new URL('../../src/roce/net.js', import.meta.url).href)});
        const n = nativeUdp();
        const out = {};
        let writable = 0;
        const s = new n.UdpSocket(() => {}, () => { writable++; });
        s.bind(0x0a630001, 0, 65536, 4096, false, false, 2048, 1);
        const pkts = Array(64).fill(new Uint8Array(1000));
        const msgs = new Uint32Array(64 * 5);
        for (let i = 0; i < 64; i++) msgs.set([0x0a630002, 4791, i, 1, 0], i * 5);
        let r = 0;
        for (let k = 0; k < 1000 && (r = s.send(pkts, msgs, 0, 64)) > 0; k++);
        out.eagain = r;
        s.pollWritable();
        const t0 = Date.now();
        while (writable === 0 && Date.now() - t0 < 10000) await new Promise((res) => setTimeout(res, 5));
        out.writable = writable;
        out.after = s.send(pkts, msgs, 0, 1);
        s.close();
        // RoceNet: 8,000 datagrams of 1,400 octets (11 MB) into a socket buffer of at most 8 MiB.
        const net = RoceNet.acquire('10.99.0.1', 0);
        await net.ready;
        let done = 0;
        for (let i = 0; i < 8000; i++) net.send(new Uint8Array(1400), '10.99.0.2', 4791, () => done++);
        await null;
        out.queued = net.sendQueueCount;
        const t1 = Date.now();
        while (done < 8000 && Date.now() - t1 < 30000) await new Promise((res) => setTimeout(res, 10));
        out.done = done;
        out.left = net.sendQueueCount;
        out.tx = net.stats.txPackets;
        out.errors = net.stats.txErrors;
        net.close();
        console.log(JSON.stringify(out));
      `;
      const r = spawnSync('ip', ['netns', 'exec', ns, process.execPath, '--input-type=module', '-e', child], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number>;
      assert.equal(out.eagain, -11, 'EAGAIN once the send buffer is full');
      assert.equal(out.writable, 1, 'one writable callback');
      assert.equal(out.after, 1, 'the socket takes datagrams again');
      assert.ok(out.queued! > 0, `datagrams wait in the queue (${out.queued})`);
      assert.deepEqual([out.done, out.left, out.tx, out.errors], [8000, 0, 8000, 0]);
    } finally {
      ip('netns', 'del', ns);
    }
  });
});

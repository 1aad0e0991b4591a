/**
 * softrdma daemon, spoken to as libsoftrdma.so speaks to it: device discovery and queries with
 * the values the verbs face gives, per-client handles, and a client that disconnects has all its
 * objects freed (the resource counters back at rest).
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { PreloadDaemon } from '../../src/preload/daemon.js';
import { encodeRequest, FrameReader, formatPayload, parsePayload, PreloadOp } from '../../src/preload/protocol.js';
import { devices } from '../../src/verbs/device.js';

class Conn {
  #seq = 0;
  readonly #reader = new FrameReader(8);
  readonly #waiting: ((f: Buffer) => void)[] = [];
  constructor(readonly s: net.Socket) {
    s.on('data', (c) => {
      for (const f of this.#reader.push(c)) this.#waiting.shift()?.(f);
    });
  }
  static open(path: string): Promise<Conn> {
    return new Promise((resolve, reject) => {
      const s = net.connect(path, () => resolve(new Conn(s)));
      s.once('error', reject);
    });
  }
  call(op: PreloadOp, fields: [string, string | number][] = []): Promise<{ errno: number; m: Map<string, string> }> {
    const seq = ++this.#seq;
    return new Promise((resolve) => {
      this.#waiting.push((f) => {
        assert.equal(f.readUInt32LE(0), seq);
        resolve({ errno: f.readInt32LE(4), m: parsePayload(f.subarray(8))! });
      });
      this.s.write(encodeRequest(op, seq, formatPayload(fields)));
    });
  }
}

async function atRest(d: PreloadDaemon): Promise<void> {
  // The daemon sees the close on its next turn of the event loop.
  while (d.resources().clients !== 0) await new Promise((r) => setImmediate(r));
}

test('devices, queries, PDs; a client that disconnects has its objects freed', async () => {
  const d = await PreloadDaemon.listen(join(mkdtempSync(join(tmpdir(), 'softrdma-daemon-')), 'd.sock'));
  try {
    const c = await Conn.open(d.path);
    assert.equal((await c.call(PreloadOp.HELLO, [['pid', process.pid]])).m.get('version'), '1');
    const list = await c.call(PreloadOp.GET_DEVICES);
    assert.equal(list.errno, 0);
    const names = devices().map((x) => x.name);
    assert.equal(Number(list.m.get('count')), names.length);
    assert.deepEqual(
      names.map((_, i) => list.m.get(`name.${i}`)),
      names,
    );
    const open = await c.call(PreloadOp.OPEN_DEVICE, [['name', names[0]!]]);
    assert.equal(open.errno, 0);
    const ctx = open.m.get('ctx')!;
    const q = await c.call(PreloadOp.QUERY_DEVICE, [['ctx', ctx]]);
    assert.equal(q.errno, 0);
    assert.equal(BigInt(q.m.get('node_guid')!), devices()[0]!.guid);
    assert.ok(Number(q.m.get('phys_port_cnt')) >= 1);
    assert.equal(
      (
        await c.call(PreloadOp.QUERY_PORT, [
          ['ctx', ctx],
          ['port', 1],
        ])
      ).errno,
      0,
    );
    assert.equal(
      (
        await c.call(PreloadOp.QUERY_GID, [
          ['ctx', ctx],
          ['port', 1],
          ['index', 0],
        ])
      ).m.get('gid')?.length,
      32,
    );
    assert.equal(
      (
        await c.call(PreloadOp.QUERY_PORT, [
          ['ctx', 999],
          ['port', 1],
        ])
      ).errno,
      22,
    );
    const pd = await c.call(PreloadOp.ALLOC_PD, [['ctx', ctx]]);
    assert.equal(pd.errno, 0);
    await c.call(PreloadOp.ALLOC_PD, [['ctx', ctx]]);
    assert.equal((await c.call(99 as PreloadOp)).errno, 95);
    // Another client cannot name this one's handles.
    const other = await Conn.open(d.path);
    assert.equal((await other.call(PreloadOp.DEALLOC_PD, [['pd', pd.m.get('pd')!]])).errno, 22);
    other.s.destroy();
    assert.deepEqual(d.resources(), {
      clients: 2,
      contexts: 1,
      pds: 2,
      mrs: 0,
      channels: 0,
      cqs: 0,
      qps: 0,
      ahs: 0,
      srqs: 0,
      cmChannels: 0,
      cmIds: 0,
    });
    c.s.destroy();
    await atRest(d);
    assert.deepEqual(d.resources(), {
      clients: 0,
      contexts: 0,
      pds: 0,
      mrs: 0,
      channels: 0,
      cqs: 0,
      qps: 0,
      ahs: 0,
      srqs: 0,
      cmChannels: 0,
      cmIds: 0,
    });
    // The device can be opened again by a new client: nothing of the old one is left behind.
    const c2 = await Conn.open(d.path);
    assert.equal((await c2.call(PreloadOp.OPEN_DEVICE, [['name', names[0]!]])).errno, 0);
    c2.s.destroy();
    await atRest(d);
  } finally {
    await d.close();
  }
});

test('a frame longer than the limit ends the connection, and the daemon keeps serving', async () => {
  const d = await PreloadDaemon.listen(join(mkdtempSync(join(tmpdir(), 'softrdma-daemon-')), 'd.sock'));
  try {
    const c = await Conn.open(d.path);
    const closed = new Promise((r) => c.s.once('close', r));
    const bad = Buffer.alloc(12);
    bad.writeUInt32LE(0x7fff_ffff, 0);
    c.s.write(bad);
    await closed;
    await atRest(d);
    const c2 = await Conn.open(d.path);
    assert.equal((await c2.call(PreloadOp.GET_DEVICES)).errno, 0);
    c2.s.destroy();
    await atRest(d);
  } finally {
    await d.close();
  }
});

test('RESIZE_CQ (ibv_resize_cq): the CQ takes at least the new size, and a bad handle or size is EINVAL', async () => {
  const d = await PreloadDaemon.listen(join(mkdtempSync(join(tmpdir(), 'softrdma-daemon-')), 'd.sock'));
  try {
    const c = await Conn.open(d.path);
    const open = await c.call(PreloadOp.OPEN_DEVICE, [['name', devices()[0]!.name]]);
    const cq = await c.call(PreloadOp.CREATE_CQ, [
      ['ctx', open.m.get('ctx')!],
      ['cqe', 16],
      ['user', 1],
    ]);
    assert.equal(cq.errno, 0);
    const h = cq.m.get('cq')!;
    const r = await c.call(PreloadOp.RESIZE_CQ, [
      ['cq', h],
      ['cqe', 100],
    ]);
    assert.equal(r.errno, 0);
    assert.ok(Number(r.m.get('cqe')) >= 100, `cqe ${r.m.get('cqe')}`);
    for (const bad of [
      [
        ['cq', 999],
        ['cqe', 100],
      ],
      [
        ['cq', h],
        ['cqe', 0],
      ],
    ] as [string, string | number][][]) {
      assert.equal((await c.call(PreloadOp.RESIZE_CQ, bad)).errno, 22);
    }
    c.s.destroy();
    await atRest(d);
    assert.equal(d.resources().cqs, 0);
  } finally {
    await d.close();
  }
});

/**
 * Remote-access attacks: a raw peer (not a QP) sends forged segments; the victim must answer
 * with the RFC's Terminate code, leave its memory untouched, and flush what was posted.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import net from 'node:net';
import { test } from 'node:test';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiMemFlags, RiQpState, RiWcStatus } from '../../src/rnicpi/types.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import { invalidateStag } from '../../src/rnic/memops.js';
import { mpaAccept, mpaReadRequest } from '../../src/iwarp/mpa-startup.js';
import type { IwarpConn } from '../../src/iwarp/datapath.js';
import { makeSide, pollN, recv, reg, type Side, sge, until } from '../helpers/engine.js';
import { RawPeer } from '../helpers/rawpeer.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

interface Victim {
  side: Side;
  mem: Uint8Array;
  stag: number;
  base: bigint;
  ro: { stag: number; base: bigint; mem: Uint8Array };
  peer: RawPeer;
  server: net.Server;
}

async function setup(ird = 2): Promise<Victim> {
  const side = makeSide(undefined, { ird });
  const mem = randomBytes(4096);
  const mr = reg(side, mem);
  const roMem = randomBytes(1024);
  const ro = reg(side, roMem, RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_READ);
  const rbuf = new Uint8Array(64);
  const rmr = reg(side, rbuf);
  // Something outstanding on the victim, to be flushed.
  assert.equal(recv(side.qp, 100n, [sge(rmr, rbuf)]), RiRet.SUCCESS);
  const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as net.AddressInfo).port;
  const accepted = (async () => {
    const [sock] = (await once(server, 'connection')) as [net.Socket];
    const req = await mpaReadRequest(sock);
    const out = mpaAccept(sock, req.frame, { revision: 2, crc: false, markers: false, ird, ord: 2 });
    assert.equal(side.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp: out.stream, mpa: out.mpa }), RiRet.SUCCESS);
  })();
  const peer = await RawPeer.connect(port);
  await accepted;
  return {
    side,
    mem,
    stag: mr.stag,
    base: hostMemory.addressOf(mem),
    ro: { stag: ro.stag, base: hostMemory.addressOf(roMem), mem: roMem },
    peer,
    server,
  };
}

async function expectTerminated(v: Victim, code: [number, number, number], hashes: [Uint8Array, string][]) {
  const t = await v.peer.terminate();
  assert.deepEqual([t.layer, t.etype, t.ecode], code, `Terminate ${t.layer}/${t.etype}/${t.ecode}`);
  assert.equal(v.side.qp.state === RiQpState.TERMINATE || v.side.qp.state === RiQpState.ERROR, true);
  await v.peer.waitClosed();
  await until(() => v.side.qp.state === RiQpState.ERROR, 3000, 'victim in Error');
  for (const [b, h] of hashes) assert.equal(sha(b), h, 'victim memory changed');
  const [wc] = await pollN(v.side.cq, 1);
  assert.equal(wc!.id, 100n);
  assert.equal(wc!.op_status, RiWcStatus.WR_FLUSHED_ERROR);
  v.server.close();
}

test('attack: RDMA Write with a wrong key gets DDP tagged "Invalid STag" (0x1100)', async () => {
  const v = await setup();
  const h = sha(v.mem);
  v.peer.write((v.stag & ~0xff) | ((v.stag + 1) & 0xff), v.base, new Uint8Array(16).fill(0xee));
  await expectTerminated(v, [1, 1, 0], [[v.mem, h]]);
});

test('attack: RDMA Write past the bounds gets DDP tagged "Base or bounds violation" (0x1101)', async () => {
  const v = await setup();
  const h = sha(v.mem);
  v.peer.write(v.stag, v.base + 4090n, new Uint8Array(16).fill(0xee));
  await expectTerminated(v, [1, 1, 1], [[v.mem, h]]);
});

test('attack: RDMA Write to a region without Remote Write gets RDMAP "Access rights violation" (0x0102)', async () => {
  const v = await setup();
  const h = sha(v.ro.mem);
  v.peer.write(v.ro.stag, v.ro.base, new Uint8Array(16).fill(0xee));
  await expectTerminated(v, [0, 1, 2], [[v.ro.mem, h]]);
});

test('attack: RDMA Write after the region was invalidated gets "Invalid STag" (0x1100)', async () => {
  const v = await setup();
  // A permitted write lands first; then the region is invalidated locally.
  v.peer.write(v.stag, v.base, new Uint8Array(8).fill(0x11));
  await until(() => v.mem[0] === 0x11, 2000, 'first write');
  const mrObj = v.side.rnic.stags.byStagIndex(v.stag)!;
  assert.equal(invalidateStag(v.side.qp, v.stag, false), 0);
  assert.equal(mrObj.valid, false);
  const h = sha(v.mem);
  v.peer.write(v.stag, v.base + 100n, new Uint8Array(8).fill(0xee));
  await expectTerminated(v, [1, 1, 0], [[v.mem, h]]);
});

test('attack: a Send with a bad MSN gets DDP untagged "Invalid MSN - range not valid" (0x1203)', async () => {
  const v = await setup();
  const h = sha(v.mem);
  v.peer.send(5, new Uint8Array(8));
  await expectTerminated(v, [1, 2, 3], [[v.mem, h]]);
});

test('attack: RDMA Read Requests beyond IRD get DDP untagged "Invalid MSN - range not valid" (0x1203)', async () => {
  const v = await setup(1);
  const h = sha(v.mem);
  // Pause the victim's transmit side so responses cannot drain the IRRQ between requests.
  (v.side.qp.transport as IwarpConn).socket.cork();
  const rr = { sinkStag: 0x1234, sinkTo: 0n, size: 4000, srcStag: v.stag, srcTo: v.base };
  v.peer.readRequest(1, rr);
  v.peer.readRequest(2, rr);
  v.peer.readRequest(3, rr);
  await expectTerminated(v, [1, 2, 3], [[v.mem, h]]);
});

test('attack: a Read Request for more than the source region gets RDMAP "Base or bounds" (0x0101)', async () => {
  const v = await setup();
  v.peer.readRequest(1, { sinkStag: 0x1234, sinkTo: 0n, size: 5000, srcStag: v.stag, srcTo: v.base });
  await expectTerminated(v, [0, 1, 1], [[v.mem, sha(v.mem)]]);
});

/**
 * RFC 7306 is used only between peers that agreed it in the MPA exchange (softrdma's reserved
 * MPA bit, see the spec-notes). Against a peer that speaks MPA as Linux siw does — it neither
 * sets nor echoes the bit — softrdma sends exactly what it sent before (the Reply's flags are
 * unchanged), never puts an RFC 7306 opcode on the wire, refuses atomics and immediate data at
 * post time (as rdma-core's siw provider does), and answers an RFC 7306 opcode with the
 * Terminate "Unexpected OpCode" siw would send.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { test } from 'node:test';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiMemFlags, RiQpState, RiWcStatus, RiWrType } from '../../src/rnicpi/types.js';
import { AtomicKind, atomicArgs } from '../../src/rnic/atomics.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import { Rnic } from '../../src/rnic/rnic.js';
import { mpaAccept, mpaConnect, mpaReadRequest } from '../../src/iwarp/mpa-startup.js';
import { concatUlpdu, FpduDeframer } from '../../src/wire/deframer.js';
import { DdpQueue } from '../../src/wire/ddp.js';
import { decodeMpaReqRep, encodeMpaIrdOrd, encodeMpaReqRep, MPA_RES_SOFTRDMA_EXT } from '../../src/wire/mpa.js';
import { encodeRdmapHeader, RdmapOpcode } from '../../src/wire/rdmap.js';
import { ALL_ACCESS, makeSide, pollN, reg, send, sge, until } from '../helpers/engine.js';
import { RawPeer } from '../helpers/rawpeer.js';

const ATOMIC = ALL_ACCESS | RiMemFlags.ATOMICS;
const va = (b: Uint8Array) => hostMemory.addressOf(b);
const faa = atomicArgs(AtomicKind.FETCH_ADD, 8, 1n, 0n);

test('a siw-like Initiator: the Reply carries no extension bit, atomics and immediates are refused at post, nothing RFC 7306 goes out, and an Atomic Request is answered with Unexpected OpCode', async () => {
  const side = makeSide(new Rnic());
  const mem = new Uint8Array(64);
  const mr = reg(side, mem, ATOMIC);
  const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as net.AddressInfo).port;
  const accepted = (async () => {
    const [sock] = (await once(server, 'connection')) as [net.Socket];
    const req = await mpaReadRequest(sock);
    const out = mpaAccept(sock, req.frame, { revision: 2, crc: false, markers: false, ird: 2, ord: 2 });
    assert.equal(out.rdmapExt, false);
    assert.equal(side.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp: out.stream, llpAttrs: out.mpa }), RiRet.SUCCESS);
  })();
  const peer = await RawPeer.connect(port);
  await accepted;
  try {
    // The Reply is what it always was: flags M/C/R/S and the reserved bits as before (S only).
    assert.equal(peer.reply[16], 0x10);
    assert.equal(side.qp.transport!.caps.atomics, false);
    const res = new Uint8Array(8);
    const rmr = reg(side, res);
    assert.equal(
      send(side.qp, { type: RiWrType.FETCH_AND_ADD, sgl: [sge(rmr, res)], rtag: 0x1234, remoteTo: 0n, atomic: faa }),
      RiRet.RNIC_ATOMICS_UNSUPPORTED,
    );
    assert.equal(
      send(side.qp, {
        type: RiWrType.COMPARE_AND_SWAP,
        sgl: [sge(rmr, res)],
        rtag: 0x1234,
        remoteTo: 0n,
        atomic: atomicArgs(AtomicKind.COMPARE_SWAP, 8, 0n, 1n),
      }),
      RiRet.RNIC_ATOMICS_UNSUPPORTED,
    );
    assert.equal(
      send(side.qp, { type: RiWrType.RDMA_WRITE_IMMEDIATE, sgl: [sge(rmr, res)], rtag: 0x1234, remoteTo: 0n, imm: 1 }),
      RiRet.WR_INVALID_TYPE,
    );
    assert.equal(send(side.qp, { type: RiWrType.SEND_IMMEDIATE, sgl: [sge(rmr, res)], imm: 1 }), RiRet.WR_INVALID_TYPE);
    // A plain Write still goes (once the Initiator's first FPDU arrived), and is the only thing on the wire.
    assert.equal(send(side.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(rmr, res)], rtag: 0x1234, remoteTo: 0n }), RiRet.SUCCESS);
    peer.write(0x99, 0n, new Uint8Array(0));
    await pollN(side.cq, 1);
    await until(() => peer.fpdus.length >= 1, 3000, 'the Write');
    assert.ok(
      peer.fpdus.every((u) => (u[1]! & 0x0f) < RdmapOpcode.ImmediateData),
      'no RFC 7306 opcode was sent',
    );
    // The siw-like peer sends an Atomic Request anyway: Unexpected OpCode, memory untouched.
    peer.sendUlpdu(
      encodeRdmapHeader({
        ddp: { tagged: false, last: true, rsvd: 0, version: 1, rsvdUlp: 0, rsvdUlp32: 0, qn: DdpQueue.ReadRequest, msn: 1, mo: 0 },
        version: 1,
        rsvd: 0,
        opcode: RdmapOpcode.AtomicRequest,
        atomicRequest: {
          rsvd: 0,
          atomicOpcode: 0,
          requestId: 1,
          remoteStag: mr.stag,
          remoteTo: va(mem),
          addSwapData: 5n,
          addSwapMask: 0n,
          compareData: 0n,
          compareMask: 0n,
        },
      }),
    );
    const t = await peer.terminate();
    assert.deepEqual([t.layer, t.etype, t.ecode], [0, 2, 6]);
    assert.ok(mem.every((x) => x === 0));
  } finally {
    peer.sock.destroy();
    server.close();
    side.qp.transport?.reset();
  }
});

test('softrdma Initiator towards a siw-like Responder: the offer is ignored, no agreement, an atomic posted before the connection fails locally and nothing RFC 7306 goes out', async () => {
  const side = makeSide(new Rnic());
  const server = net.createServer({ allowHalfOpen: true }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as net.AddressInfo).port;
  const opcodes: number[] = [];
  let reqRes = -1;
  server.on('connection', (sock: net.Socket) => {
    let pre = new Uint8Array(0);
    let deframer: FpduDeframer | null = null;
    sock.on('error', () => {});
    sock.on('data', (c: Buffer) => {
      if (deframer) {
        deframer.push(c);
        return;
      }
      const j = new Uint8Array(pre.length + c.length);
      j.set(pre);
      j.set(c, pre.length);
      pre = j;
      const r = decodeMpaReqRep(pre, 'request');
      if (r.status !== 'frame') return;
      reqRes = r.frame.res;
      // siw's Reply: revision 2, Enhanced, IRD/ORD word, reserved bits zero.
      const pd = encodeMpaIrdOrd({
        ird: 8,
        ord: 8,
        peerToPeer: false,
        zeroLengthSendRtr: false,
        zeroLengthWriteRtr: false,
        zeroLengthReadRtr: false,
      });
      sock.write(
        encodeMpaReqRep({ type: 'reply', markers: false, crc: false, reject: false, enhanced: true, res: 0, revision: 2, privateData: pd }),
      );
      deframer = new FpduDeframer({ maxUlpdu: 65535, crc: false, markers: false, onFpdu: (f) => opcodes.push(concatUlpdu(f)[1]! & 0x0f) });
    });
  });
  const res = new Uint8Array(8);
  const rmr = reg(side, res);
  // Posted in Idle, before the connection (and its agreement) exists.
  assert.equal(
    send(side.qp, { type: RiWrType.FETCH_AND_ADD, id: 5n, sgl: [sge(rmr, res)], rtag: 0x1234, remoteTo: 0n, atomic: faa }),
    RiRet.SUCCESS,
  );
  const sock = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  await once(sock, 'connect');
  const out = await mpaConnect(sock, { revision: 2, crc: false, markers: false, ird: 8, ord: 8 });
  try {
    assert.equal(reqRes & MPA_RES_SOFTRDMA_EXT, MPA_RES_SOFTRDMA_EXT, 'softrdma offers the extension');
    assert.equal(out.rdmapExt, false);
    assert.equal(side.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp: out.stream, llpAttrs: out.mpa }), RiRet.SUCCESS);
    const [wc] = await pollN(side.cq, 1);
    assert.equal(wc!.id, 5n);
    assert.equal(wc!.op_status, RiWcStatus.LOCAL_QP_OP_ERROR);
    assert.equal(
      send(side.qp, { type: RiWrType.FETCH_AND_ADD, sgl: [sge(rmr, res)], rtag: 1, remoteTo: 0n, atomic: faa }),
      RiRet.QP_INVALID_STATE,
    );
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(
      opcodes.every((o) => o === RdmapOpcode.Terminate),
      `only a Terminate went out: ${opcodes}`,
    );
  } finally {
    sock.destroy();
    server.close();
    side.qp.transport?.reset();
  }
});

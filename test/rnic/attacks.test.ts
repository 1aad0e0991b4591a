/**
 * Remote-access attacks, on every transport: a raw peer (not a QP) puts forged operations on
 * the wire; the victim must answer with the transport's error for the rule that failed (iWARP:
 * the RFC's Terminate code; loopback: the core's neutral fault in its TERMINATE unit), leave
 * its memory untouched, and flush what was posted.
 *
 * The cases are one table; each transport gives a raw attacker ({@link Attacker}): on iWARP a
 * TCP socket speaking MPA/DDP/RDMAP bytes (test/helpers/rawpeer.ts), on the loopback transport
 * a raw end of the link that injects units (`LoopbackRawEnd`).
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import net from 'node:net';
import { describe, test } from 'node:test';
import type { IwarpConn } from '../../src/iwarp/datapath.js';
import { mpaAccept, mpaReadRequest } from '../../src/iwarp/mpa-startup.js';
import { terminateOfFault } from '../../src/iwarp/terminate-map.js';
import { LoopbackRawEnd, loopbackPair } from '../../src/loopback/loopback.js';
import { Fault } from '../../src/rnic/faults.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import { invalidateStag } from '../../src/rnic/memops.js';
import { TxOp } from '../../src/rnic/transport.js';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiMemFlags, RiQpState, RiWcStatus } from '../../src/rnicpi/types.js';
import { makeSide, pollN, recv, reg, type Side, sge, TRANSPORTS, type TransportName, until } from '../helpers/engine.js';
import { RawPeer } from '../helpers/rawpeer.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

interface ReadReq {
  sinkStag: number;
  sinkTo: bigint;
  size: number;
  srcStag: number;
  srcTo: bigint;
}

/**
 * What the victim answered: on iWARP the Terminate code; on loopback the core's neutral fault,
 * or the kind of violation of the loopback wire itself.
 */
interface Answer {
  code?: [number, number, number];
  fault?: Fault;
  wire?: string;
}

/** A hostile peer on one transport. Message numbers are explicit so a case can forge them. */
interface Attacker {
  write(stag: number, to: bigint, payload: Uint8Array): void;
  send(msn: number, payload: Uint8Array): void;
  readRequest(msn: number, rr: ReadReq): void;
  /** Keeps the victim from sending (so its Read Responses cannot drain the IRRQ). */
  holdVictimTx(): void;
  answer(): Promise<Answer>;
  close(): Promise<void>;
}

interface Victim {
  side: Side;
  mem: Uint8Array;
  stag: number;
  base: bigint;
  ro: { stag: number; base: bigint; mem: Uint8Array };
  /** A region without Remote Read. */
  nr: { stag: number; base: bigint; mem: Uint8Array };
  peer: Attacker;
}

/** The victim's QP and memory: a writable region, a read-only one, a posted receive to be flushed. */
function victimSide(ird: number) {
  const side = makeSide(undefined, { ird });
  const mem = randomBytes(4096);
  const mr = reg(side, mem);
  const roMem = randomBytes(1024);
  const ro = reg(side, roMem, RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_READ);
  const nrMem = randomBytes(256);
  const nr = reg(side, nrMem, RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_WRITE);
  const rbuf = new Uint8Array(64);
  const rmr = reg(side, rbuf);
  assert.equal(recv(side.qp, 100n, [sge(rmr, rbuf)]), RiRet.SUCCESS);
  return {
    side,
    mem,
    stag: mr.stag,
    base: hostMemory.addressOf(mem),
    ro: { stag: ro.stag, base: hostMemory.addressOf(roMem), mem: roMem },
    nr: { stag: nr.stag, base: hostMemory.addressOf(nrMem), mem: nrMem },
  };
}

/** iWARP: the victim accepts an MPA connection from a raw TCP peer. */
async function iwarpVictim(ird: number): Promise<Victim> {
  const v = victimSide(ird);
  const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as net.AddressInfo).port;
  const accepted = (async () => {
    const [sock] = (await once(server, 'connection')) as [net.Socket];
    const req = await mpaReadRequest(sock);
    const out = mpaAccept(sock, req.frame, { revision: 2, crc: false, markers: false, ird, ord: 2 });
    assert.equal(v.side.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp: out.stream, mpa: out.mpa }), RiRet.SUCCESS);
  })();
  const raw = await RawPeer.connect(port);
  await accepted;
  const peer: Attacker = {
    write: (stag, to, p) => raw.write(stag, to, p),
    send: (msn, p) => raw.send(msn, p),
    readRequest: (msn, rr) => raw.readRequest(msn, rr),
    holdVictimTx: () => (v.side.qp.transport as IwarpConn).socket.cork(),
    async answer() {
      const t = await raw.terminate();
      return { code: [t.layer, t.etype, t.ecode] };
    },
    async close() {
      await raw.waitClosed();
      server.close();
    },
  };
  return { ...v, peer };
}

/** Loopback: the victim's QP is given one end of a link whose other end is raw. */
async function loopbackVictim(ird: number): Promise<Victim> {
  const v = victimSide(ird);
  const [ev, er] = loopbackPair();
  const raw = new LoopbackRawEnd(er);
  assert.equal(v.side.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp: ev }), RiRet.SUCCESS);
  const peer: Attacker = {
    write: (stag, to, payload) => raw.inject({ op: TxOp.RDMA_WRITE, stag, to, payload }),
    send: (msn, payload) => raw.inject({ op: TxOp.SEND, msn, payload }),
    readRequest: (msn, rr) => raw.inject({ op: TxOp.READ_REQUEST, msn, ...rr }),
    // Inbound units are processed in one batch before the victim's transmit loop runs.
    holdVictimTx: () => {},
    answer: () => raw.terminate(),
    async close() {
      // The victim closes its side after the Terminate; the raw end's FIN completes the close.
      await raw.waitFor((u) => u.k === 1 /* FIN */ || u.k === 2 /* RST */);
      raw.control(1);
    },
  };
  return { ...v, peer };
}

const VICTIM: Partial<Record<TransportName, (ird: number) => Promise<Victim>>> = {
  iwarp: iwarpVictim,
  loopback: loopbackVictim,
};

/**
 * The cases. `fault` is the rule the core reports (checked where the transport carries it);
 * `iwarp` is the Terminate code RFC 5040/5041 give for it. `null` fault: the transport's own
 * sequencing check finds it, not the core (iWARP: DDP MSN; loopback: its message numbers).
 */
interface Case {
  name: string;
  ird?: number;
  fault: Fault | null;
  iwarp: [number, number, number];
  /** Which buffer must stay unchanged (from after `before` on). */
  watch: (v: Victim) => Uint8Array;
  before?: (v: Victim) => Promise<void>;
  act: (v: Victim) => Promise<void> | void;
}

const CASES: Case[] = [
  {
    name: 'RDMA Write with a wrong key gets DDP tagged "Invalid STag" (0x1100)',
    fault: Fault.INVALID_STAG,
    iwarp: [1, 1, 0],
    watch: (v) => v.mem,
    act: (v) => v.peer.write(((v.stag & ~0xff) | ((v.stag + 1) & 0xff)) >>> 0, v.base, new Uint8Array(16).fill(0xee)),
  },
  {
    name: 'RDMA Write past the bounds gets DDP tagged "Base or bounds violation" (0x1101)',
    fault: Fault.BOUNDS,
    iwarp: [1, 1, 1],
    watch: (v) => v.mem,
    act: (v) => v.peer.write(v.stag, v.base + 4090n, new Uint8Array(16).fill(0xee)),
  },
  {
    name: 'RDMA Write to a region without Remote Write gets RDMAP "Access rights violation" (0x0102)',
    fault: Fault.RIGHTS,
    iwarp: [0, 1, 2],
    watch: (v) => v.ro.mem,
    act: (v) => v.peer.write(v.ro.stag, v.ro.base, new Uint8Array(16).fill(0xee)),
  },
  {
    name: 'RDMA Write after the region was invalidated gets "Invalid STag" (0x1100)',
    fault: Fault.INVALID_STAG,
    iwarp: [1, 1, 0],
    watch: (v) => v.mem,
    async before(v) {
      // A permitted write lands first; then the region is invalidated locally.
      v.peer.write(v.stag, v.base, new Uint8Array(8).fill(0x11));
      await until(() => v.mem[0] === 0x11, 2000, 'first write');
      const mrObj = v.side.rnic.stags.byStagIndex(v.stag)!;
      assert.equal(invalidateStag(v.side.qp, v.stag, false), 0);
      assert.equal(mrObj.valid, false);
    },
    act: (v) => v.peer.write(v.stag, v.base + 100n, new Uint8Array(8).fill(0xee)),
  },
  {
    name: 'a Send with a bad message number gets DDP untagged "Invalid MSN - range not valid" (0x1203)',
    fault: null,
    iwarp: [1, 2, 3],
    watch: (v) => v.mem,
    act: (v) => v.peer.send(5, new Uint8Array(8)),
  },
  {
    name: 'RDMA Read Requests beyond IRD get DDP untagged "Invalid MSN - range not valid" (0x1203)',
    ird: 1,
    fault: Fault.IRD_EXCEEDED,
    iwarp: [1, 2, 3],
    watch: (v) => v.mem,
    act(v) {
      v.peer.holdVictimTx();
      const rr = { sinkStag: 0x1234, sinkTo: 0n, size: 4000, srcStag: v.stag, srcTo: v.base };
      v.peer.readRequest(1, rr);
      v.peer.readRequest(2, rr);
      v.peer.readRequest(3, rr);
    },
  },
  {
    name: 'a Read Request for more than the source region gets RDMAP "Base or bounds" (0x0101)',
    fault: Fault.READ_SRC_BOUNDS,
    iwarp: [0, 1, 1],
    watch: (v) => v.mem,
    act: (v) => v.peer.readRequest(1, { sinkStag: 0x1234, sinkTo: 0n, size: 5000, srcStag: v.stag, srcTo: v.base }),
  },
  {
    name: 'a Read Request from a region without Remote Read gets RDMAP "Access rights violation" (0x0102)',
    fault: Fault.READ_SRC_RIGHTS,
    iwarp: [0, 1, 2],
    watch: (v) => v.nr.mem,
    act: (v) => v.peer.readRequest(1, { sinkStag: 0x1234, sinkTo: 0n, size: 16, srcStag: v.nr.stag, srcTo: v.nr.base }),
  },
];

for (const transport of TRANSPORTS) {
  const victim = VICTIM[transport];
  describe(`attacks [${transport}]`, { skip: victim ? false : 'no raw attacker for this transport in this table' }, () => {
    for (const c of CASES) {
      test(`attack: ${c.name}`, async () => {
        const v = await victim!(c.ird ?? 2);
        await c.before?.(v);
        const watched = c.watch(v);
        const before = sha(watched);
        await c.act(v);
        const a = await v.peer.answer();
        if (a.code) assert.deepEqual(a.code, c.iwarp, `Terminate ${a.code.join('/')}`);
        else if (c.fault === null) assert.equal(a.wire, 'sequence');
        else {
          assert.equal(Fault[a.fault!], Fault[c.fault]);
          // The iWARP transport maps this fault to the code the case names.
          const e = terminateOfFault(c.fault);
          assert.deepEqual([e.layer, e.etype, e.ecode], c.iwarp);
        }
        assert.equal(v.side.qp.state === RiQpState.TERMINATE || v.side.qp.state === RiQpState.ERROR, true);
        await v.peer.close();
        await until(() => v.side.qp.state === RiQpState.ERROR, 3000, 'victim in Error');
        assert.equal(sha(watched), before, 'victim memory changed');
        const [wc] = await pollN(v.side.cq, 1);
        assert.equal(wc!.id, 100n);
        assert.equal(wc!.op_status, RiWcStatus.WR_FLUSHED_ERROR);
      });
    }
  });
}

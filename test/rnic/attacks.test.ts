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
import dgram from 'node:dgram';
import { once } from 'node:events';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { IwarpConn } from '../../src/iwarp/datapath.js';
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
import {
  advert,
  type EngineCounters,
  engineCounters,
  guardDigest,
  IwarpServer,
  ROCE_ATTACKER_ADDR,
  ROCE_SERVER_ADDR,
  RoceServer,
  SERVER_IRD,
  until as untilTrue,
  type VerbsServer,
} from '../helpers/hostile.js';
import { IBV_WC_LOC_PROT_ERR, IBV_WC_RETRY_EXC_ERR, IBV_WC_SUCCESS, verbs } from '../../src/verbs/index.js';
import { pollN as pollWc } from '../helpers/hostile.js';
import { gidOf } from '../helpers/engine.js';
import {
  type CmMessage,
  CmMsgResponse,
  CmRejReason,
  type CmReq,
  CmTransport,
  emptyCmPath,
  encodeCmMad,
  RdmaPs,
  rdmaServiceId,
} from '../../src/wire/ib/cm.js';
import { GSI_QKEY } from '../../src/wire/ib/mad.js';
import type { IbCm } from '../../src/ibcm/cm.js';
import { RoceNet, type RoceRx } from '../../src/roce/net.js';
import { ipv4Bytes } from '../../src/roce/net-host.js';
import { RoceQp } from '../../src/roce/transport.js';
import {
  AethType,
  aethType,
  aethValue,
  encodeIbPacket,
  IbOpcode,
  ibPadCount,
  ICRC_LEN,
  IPV4_FLAGS_DF,
  NakCode,
  newBth,
  solveIpv4Id,
  writeIcrc,
} from '../../src/wire/ib/index.js';
import { SEGMENT_RUN_IDS } from '../../src/roce/ipid-window.js';
import { RdmapOpcode } from '../../src/wire/rdmap.js';

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
    assert.equal(v.side.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp: out.stream, llpAttrs: out.mpa }), RiRet.SUCCESS);
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

// =============================================================================================
// A raw peer against a long-running server built on the verbs API. The server's
// regions sit between guard bytes; a region in another PD and an unregistered buffer are
// watched. After every case: the guards and watched buffers unchanged, the server still serving
// a legitimate client, and the engine's resource counters back to their idle values.
// =============================================================================================

/** What one case expects from the server on the wire. */
type Expect = { terminate: [number, number, number] } | { gone: true };

interface ServerCase<S, A> {
  name: string;
  expect: Expect;
  act: (s: S, a: A) => Promise<void> | void;
  /** Extra checks after the connection is gone (before the legitimate client). */
  after?: (s: S, a: A) => void;
}

/** Runs `cases` one after the other against one server, checking the invariants after each. */
function serverSuite<S extends VerbsServer, A>(
  label: string,
  start: () => Promise<S>,
  attacker: (s: S) => Promise<A>,
  answer: (a: A, e: Expect) => Promise<void>,
  finish: (s: S, a: A) => Promise<void>,
  cases: readonly ServerCase<S, A>[],
  skip: string | false = false,
): void {
  describe(`hostile peer vs a long-running verbs server [${label}]`, { skip }, () => {
    let s: S;
    let idle: EngineCounters;
    before(async () => {
      s = await start();
      // The server serves before any attack. Its counters at rest are taken after that first
      // client: on RoCE the first rdma_cm connection brings up the device's QP1 (the GSI QP,
      // its CQs and receive ring), which stays for the device's life, as Linux's does.
      await s.legit(0);
      await untilTrue(() => s.conns.size === 0, 'legit connection gone');
      // Settled: unchanged across 100 ms.
      for (let i = 0; ; i++) {
        const before = engineCounters(s.engine);
        await new Promise((r) => setTimeout(r, 100));
        idle = engineCounters(s.engine);
        if (deepEq(before, idle)) break;
        if (i === 100) throw new Error('engine counters never settled after the first legit client');
      }
      // A second client leaves them exactly as they were.
      await s.legit(0);
      await untilTrue(() => s.conns.size === 0, 'legit connection gone');
      await untilTrue(() => deepEq(engineCounters(s.engine), idle), 'engine counters idle after the second legit client');
    });
    after(async () => {
      await s.close();
    });
    let n = 0;
    for (const c of cases) {
      test(`attack: ${c.name}`, async () => {
        const watched = s.watched();
        const rwBefore = sha(s.rw.inner);
        const a = await attacker(s);
        await c.act(s, a);
        await answer(a, c.expect);
        await finish(s, a);
        // The attacker's connection is torn down and everything it took is given back.
        await untilTrue(() => s.conns.size === 0, 'the attacker connection torn down');
        await untilTrue(
          () => deepEq(engineCounters(s.engine), idle),
          `engine counters back to idle ${JSON.stringify(engineCounters(s.engine))} vs ${JSON.stringify(idle)}`,
        );
        assert.deepEqual(s.watched(), watched, 'guards or watched buffers changed');
        if (!c.name.includes('(writes rw)')) assert.equal(sha(s.rw.inner), rwBefore, 'rw changed by a refused access');
        c.after?.(s, a);
        // Still serving.
        await s.legit(64 * (++n % 60));
        await untilTrue(() => s.conns.size === 0, 'legit connection gone');
        await untilTrue(() => deepEq(engineCounters(s.engine), idle), 'engine counters idle after the legit client');
      });
    }
  });
}

const deepEq = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A random STag whose index no object of `rnic` has. */
function freeStag(s: VerbsServer): number {
  for (;;) {
    const st = randomBytes(4).readUInt32BE(0);
    if (st >>> 8 !== 0 && !s.engine.stags.byStagIndex(st)) return st;
  }
}
const otherKey = (stag: number): number => ((stag & ~0xff) | ((stag + 1) & 0xff)) >>> 0;

/** The iWARP attacker: a raw MPA/DDP/RDMAP peer connected to the server's rdma_cm listener. */
interface IwarpAttacker {
  raw: RawPeer;
  /** Read Requests the server sent (it must never send one for finding 5). */
  readRequests(): number;
}

const iwarpSend = (raw: RawPeer, msn: number, payload: Uint8Array, mo = 0) => raw.send(msn, payload, RdmapOpcode.Send, 0, mo);
const iwarpServerConn = (s: VerbsServer): IwarpConn | undefined => {
  for (const q of s.engine.qps.values()) if (q.transport instanceof IwarpConn) return q.transport;
  return undefined;
};

/** After a refused Send with Invalidate: the region it named is still valid. */
const stillValid = (s: VerbsServer, rkey: number) =>
  assert.equal(s.engine.stags.byStagIndex(rkey)?.valid, true, 'the peer invalidated a registered region');

const IWARP_CASES: ServerCase<IwarpServer, IwarpAttacker>[] = [
  {
    name: 'a Send with Invalidate naming a registered (not fast-register) region gets RDMAP "STag cannot be invalidated" (0x0109); the region stays valid',
    expect: { terminate: [0, 1, 9] },
    act: (s, a) => a.raw.send(1, advert(0n, 0, 0), RdmapOpcode.SendInvalidate, s.mrs.ro.rkey),
    after: (s) => stillValid(s, s.mrs.ro.rkey),
  },
  {
    name: "finding 1: a Send with Invalidate naming the ibv_reg_mr region the server's own Reads land in gets 0x0109; the region stays valid and the server's next Read into it (the legitimate client's round) succeeds",
    expect: { terminate: [0, 1, 9] },
    act: (s, a) => a.raw.send(1, advert(0n, 0, 0), RdmapOpcode.SendInvalidate, s.mrs.sink.rkey),
    after: (s) => stillValid(s, s.mrs.sink.rkey),
  },
  {
    name: 'a sweep of STags (finding 4): a free STag, a wrong key and a live region of another PD all get DDP "Invalid STag" (0x1100)',
    expect: { terminate: [1, 1, 0] },
    async act(s, a) {
      // Three probes, each costing the attacker a connection: the answers must not differ.
      for (const stag of [freeStag(s), otherKey(s.mrs.rw.rkey)]) {
        const p = await RawPeer.connect(s.port);
        p.write(stag, s.va(s.rw), new Uint8Array(16).fill(0xee));
        const t = await p.terminate();
        assert.deepEqual([t.layer, t.etype, t.ecode], [1, 1, 0]);
        await p.waitClosed();
      }
      a.raw.write(s.mrs.other.rkey, s.va(s.other), new Uint8Array(16).fill(0xee));
    },
  },
  {
    name: 'a Read Request from a live region of another PD gets RDMAP "Invalid STag" (0x0100), not "not associated"',
    expect: { terminate: [0, 1, 0] },
    act: (s, a) => a.raw.readRequest(1, { sinkStag: 0x1234, sinkTo: 0n, size: 64, srcStag: s.mrs.other.rkey, srcTo: s.va(s.other) }),
  },
  {
    name: 'an RDMA Write past the end of a region gets DDP "Base or bounds" (0x1101); the guard after it is untouched',
    expect: { terminate: [1, 1, 1] },
    act: (s, a) => a.raw.write(s.mrs.rw.rkey, s.va(s.rw) + 4090n, new Uint8Array(16).fill(0xee)),
  },
  {
    name: 'an RDMA Write before the start of a region gets 0x1101; the guard before it is untouched',
    expect: { terminate: [1, 1, 1] },
    act: (s, a) => a.raw.write(s.mrs.rw.rkey, s.va(s.rw) - 8n, new Uint8Array(16).fill(0xee)),
  },
  {
    name: 'an RDMA Write aimed at the unregistered buffer through a valid STag gets 0x1101',
    expect: { terminate: [1, 1, 1] },
    act: (s, a) => a.raw.write(s.mrs.rw.rkey, s.va(s.unreg), new Uint8Array(16).fill(0xee)),
  },
  {
    name: 'an RDMA Write whose TO wraps past 2^64 gets DDP "TO wrap" (0x1103)',
    expect: { terminate: [1, 1, 3] },
    act: (s, a) => a.raw.write(s.mrs.rw.rkey, (1n << 64n) - 8n, new Uint8Array(16).fill(0xee)),
  },
  {
    name: 'an RDMA Write to a read-only region gets RDMAP "Access rights" (0x0102)',
    expect: { terminate: [0, 1, 2] },
    act: (s, a) => a.raw.write(s.mrs.ro.rkey, s.va(s.ro), new Uint8Array(16).fill(0xee)),
  },
  {
    name: 'a Read Request from a region without Remote Read (the receive buffers) gets 0x0102',
    expect: { terminate: [0, 1, 2] },
    act: (s, a) => a.raw.readRequest(1, { sinkStag: 0x1234, sinkTo: 0n, size: 64, srcStag: s.mrs.recv.lkey, srcTo: s.va(s.recv) }),
  },
  {
    name: 'a Read Request for more than its source gets RDMAP "Base or bounds" (0x0101)',
    expect: { terminate: [0, 1, 1] },
    act: (s, a) => a.raw.readRequest(1, { sinkStag: 0x1234, sinkTo: 0n, size: 2 << 20, srcStag: s.mrs.big.rkey, srcTo: s.va(s.big) }),
  },
  {
    name: 'a Send with a message number out of sequence gets DDP "Invalid MSN - range" (0x1203)',
    expect: { terminate: [1, 2, 3] },
    act: (_s, a) => iwarpSend(a.raw, 7, advert(0n, 0, 0)),
  },
  {
    name: 'a first Send segment at message offset 100 gets DDP "Invalid MO" (0x1204)',
    expect: { terminate: [1, 2, 4] },
    act: (_s, a) => iwarpSend(a.raw, 1, advert(0n, 0, 0), 100),
  },
  {
    name: 'a replayed Send (the same FPDU twice) is a duplicate MSN: 0x1203, and it is received once',
    expect: { terminate: [1, 2, 3] },
    async act(s, a) {
      const before = s.served.messages;
      a.raw.sock.cork();
      iwarpSend(a.raw, 1, advert(0n, 0, 0));
      iwarpSend(a.raw, 1, advert(0n, 0, 0));
      a.raw.sock.uncork();
      await untilTrue(() => s.served.messages === before + 1, 'the first Send received');
    },
    after: () => {},
  },
  {
    name: `Read Requests beyond IRD (${SERVER_IRD}) in one burst get 0x1203`,
    expect: { terminate: [1, 2, 3] },
    act(s, a) {
      a.raw.sock.cork();
      for (let i = 1; i <= 3 * SERVER_IRD; i++)
        a.raw.readRequest(i, { sinkStag: 0x1234, sinkTo: 0n, size: 1 << 20, srcStag: s.mrs.big.rkey, srcTo: s.va(s.big) });
      a.raw.sock.uncork();
    },
  },
  {
    name: 'Sends beyond the posted receives in one burst get DDP "no buffer" (0x1202)',
    expect: { terminate: [1, 2, 2] },
    act(_s, a) {
      a.raw.sock.cork();
      for (let i = 1; i <= 5; i++) iwarpSend(a.raw, i, advert(0n, 0, 0));
      a.raw.sock.uncork();
    },
  },
  {
    name: 'a Send longer than the receive buffer gets DDP "message too long" (0x1205); the next receive buffer is untouched',
    expect: { terminate: [1, 2, 5] },
    act: (_s, a) => iwarpSend(a.raw, 1, new Uint8Array(100).fill(0xee)),
  },
  {
    name: "finding 5: a peer advertising a 4 GiB buffer: the server's Read into its 64-octet sink fails locally (IBV_WC_LOC_PROT_ERR) and no Read Request goes on the wire",
    expect: { terminate: [0, 0, 0] },
    act: (s, a) => iwarpSend(a.raw, 1, advert(s.va(s.unreg), 0x1234_5600, 0xffff_ffff)),
    after(s, a) {
      assert.equal(a.readRequests(), 0, 'a Read Request reached the wire');
      assert.ok((s.errors.get(IBV_WC_LOC_PROT_ERR) ?? 0) > 0, 'the server saw IBV_WC_LOC_PROT_ERR');
    },
  },
  {
    name: `zero window: a peer that stops reading while it asks for ${SERVER_IRD} MiB; the server queues at most its window (txWindow) toward it and serves others meanwhile (writes rw)`,
    expect: { gone: true },
    async act(s, a) {
      a.raw.sock.pause();
      for (let i = 1; i <= SERVER_IRD; i++)
        a.raw.readRequest(i, { sinkStag: 0x1234, sinkTo: 0n, size: 1 << 20, srcStag: s.mrs.big.rkey, srcTo: s.va(s.big) });
      await untilTrue(() => (iwarpServerConn(s)?.socket.writableLength ?? 0) > 0, 'the server queued Read Responses');
      // Legitimate clients are served while the stalled peer holds its connection.
      await s.legit(1024);
      const conn = iwarpServerConn(s);
      const queued = conn?.socket.writableLength ?? 0;
      const win = s.engine.config.txWindow;
      assert.ok(queued <= win + 65_535 + 64, `queued ${queued} octets toward the stalled peer (window ${win})`);
      // Then the peer is killed.
      a.raw.sock.destroy();
    },
  },
  {
    name: 'a peer killed in the middle of a multi-segment RDMA Write: the server tears the connection down (writes rw)',
    expect: { gone: true },
    act(s, a) {
      a.raw.write(s.mrs.rw.rkey, s.va(s.rw), new Uint8Array(512).fill(0x42), false);
      a.raw.sock.destroy();
    },
  },
  {
    name: 'a peer reset (RST) in the middle of an FPDU',
    expect: { gone: true },
    act(_s, a) {
      // Half of an FPDU: its length says 100 octets, 10 follow.
      a.raw.sock.write(Uint8Array.from([0, 100, 0x41, 0x43, 1, 2, 3, 4, 5, 6]));
      a.raw.sock.resetAndDestroy();
    },
  },
];

serverSuite<IwarpServer, IwarpAttacker>(
  'iwarp',
  () => IwarpServer.start(),
  async (s) => {
    const raw = await RawPeer.connect(s.port, { ird: 8, ord: 8 });
    return {
      raw,
      readRequests: () => raw.fpdus.filter((u) => (u[1]! & 0x0f) === RdmapOpcode.ReadRequest).length,
    };
  },
  async (a, e) => {
    if ('terminate' in e) {
      const t = await a.raw.terminate();
      assert.deepEqual([t.layer, t.etype, t.ecode], e.terminate, `Terminate ${t.layer}/${t.etype}/${t.ecode}`);
    }
  },
  async (_s, a) => {
    if (!a.raw.sock.destroyed) await a.raw.waitClosed();
  },
  IWARP_CASES,
);

// ------------------------------------------------------------------------------ RoCEv2

/** The RoCEv2 attacker: raw packets from 127.0.0.3 to the server's QP, which it was connected to. */
interface RoceAttacker {
  net: RoceNet;
  qpn: number;
  /** The server's QPN. */
  sqpn: number;
  /** The next PSN the attacker sends. */
  psn: number;
  got: RoceRx[];
  /** Sends one packet with the next PSN (or `psn`). */
  pkt(op: number, extra?: object, payload?: Uint8Array, psn?: number): void;
  naks(): [number, number][];
  readRequests(): number;
}

const ATTACKER_QPN = 0xabcde;
const ATTACKER_PSN = 0x100;

function roceCase(
  name: string,
  expect: Expect | { nak: NakCode },
  act: ServerCase<RoceServer, RoceAttacker>['act'],
  after?: ServerCase<RoceServer, RoceAttacker>['after'],
): ServerCase<RoceServer, RoceAttacker> {
  return { name, expect: expect as Expect, act, ...(after ? { after } : {}) };
}
const wr = (_s: RoceServer, a: RoceAttacker, rkey: number, va: bigint, len = 16) =>
  a.pkt(IbOpcode.RC_RDMA_WRITE_ONLY, { reth: { va, rkey, dmaLen: len } }, new Uint8Array(len).fill(0xee));
/** A READ request takes one PSN per response packet (path MTU 1024): the next request's PSN is after them. */
const rr = (a: RoceAttacker, rkey: number, va: bigint, len: number) => {
  a.pkt(IbOpcode.RC_RDMA_READ_REQUEST, { reth: { va, rkey, dmaLen: len } });
  a.psn += Math.max(1, Math.ceil(len / 1024)) - 1;
};
const hello = (a: RoceAttacker, psn?: number) => a.pkt(IbOpcode.RC_SEND_ONLY, {}, advert(0n, 0, 0), psn);
const RAE = { nak: NakCode.RemoteAccessError };

/** A source address no case has sent from before the ICRC sample. */
const ROCE_FRESH_ADDR = '127.0.0.4';
/** Corrupted packets in the ICRC sample (`npm run icrc:false-accept` measures 10^6). */
const ICRC_SAMPLE = 256;
/** QPNs a spoofer tries from 17 on. */
const QPN_GUESSES = 1024;
/** softroce0 is the second device of the list. */
const DEVICE_INDEX_SOFTROCE0 = 1;
/** The LAP's AttributeID (IBTA Vol. 1 §12.6.1, Table 100). */
const CM_ATTR_LAP = 0x0019;

/** A small seeded PRNG (mulberry32): the sample is the same in every run. */
function seeded(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (x + 0x6d2b79f5) >>> 0;
    let t = x;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Another raw peer at `address`, connected to a QP of the server of its own. */
async function freshPeer(s: RoceServer, address: string) {
  const net = RoceNet.acquire(address, s.udpPort);
  await net.ready;
  const got: RoceRx[] = [];
  const qpn = ATTACKER_QPN + 1;
  net.attach(qpn, { rx: (r) => got.push(r), netError: () => {} });
  const sqpn = s.connect(qpn, address, ATTACKER_PSN, 0x700);
  return {
    sqpn,
    got,
    naks: () => got.filter((r) => r.pkt.aeth && aethType(r.pkt.aeth.syndrome) === AethType.Nak).length,
    close() {
      s.drop(sqpn);
      net.detach(qpn);
      net.release();
    },
  };
}

/**
 * A MAD to QP1 of the server's address from the attacker's (a UD datagram with the GSI Q_Key),
 * at the UDP port QP1 is bound to (rdma_cm's context of the device has its own).
 */
const gsiMad = (s: RoceServer, a: RoceAttacker, mad: Uint8Array) =>
  a.net.send(
    encodeIbPacket({ bth: newBth(IbOpcode.UD_SEND_ONLY, 1, 0), deth: { qkey: GSI_QKEY, resv8: 0, srcQp: 1 }, payload: mad }),
    ROCE_SERVER_ADDR,
    gsiPort(s),
  );

function gsiPort(s: RoceServer): number {
  const gsi = s.engine.qps.get(1)?.transport;
  assert.ok(gsi instanceof RoceQp, 'QP1 is up');
  return gsi.port;
}

/** CM messages the CM took in (decoded or dropped as malformed). */
const cmSeen = (cm: IbCm): number => Object.values(cm.stats.received).reduce((x, y) => x + (y ?? 0), 0) + cm.stats.malformed;

/**
 * The node GUID of device `index` as an old formula made it: the EUI-64 of a MAC that is a fixed
 * prefix, the index and the process ID, which anyone who knows the host's processes can compute.
 */
function pidGuid(index: number): bigint {
  const pid = process.pid;
  return (0x53n << 48n) | (BigInt(index & 0xff) << 40n) | (0xfffen << 24n) | BigInt(pid & 0xff_ffff);
}

/** A REQ from the attacker's address naming (`guid`, `qpn`) as its sender, for a service nobody listens on. */
function spoofedReq(guid: bigint, qpn: number): CmReq {
  return {
    kind: 'REQ',
    localCommId: (randomBytes(4).readUInt32BE(0) | 1) >>> 0,
    vendorId: 0,
    serviceId: rdmaServiceId(RdmaPs.TCP, 1),
    localCaGuid: guid,
    localQkey: 0,
    localQpn: qpn,
    responderResources: 1,
    localEecn: 0,
    initiatorDepth: 1,
    remoteEecn: 0,
    remoteCmResponseTimeout: 20,
    transport: CmTransport.RC,
    e2eFlowControl: false,
    startingPsn: 1,
    localCmResponseTimeout: 20,
    // 6: a count that runs out, so the server gives up on a peer that died (7 retries for ever).
    retryCount: 6,
    pkey: 0xffff,
    pathMtu: 3,
    rdcExists: false,
    rnrRetryCount: 7,
    maxCmRetries: 15,
    srq: false,
    extendedTransport: 0,
    primary: {
      ...emptyCmPath(),
      localLid: 0xffff,
      remoteLid: 0xffff,
      localGid: gidOf(ROCE_ATTACKER_ADDR),
      remoteGid: gidOf(ROCE_SERVER_ADDR),
      hopLimit: 64,
      localAckTimeout: 19,
    },
    alternate: emptyCmPath(),
    sapSupported: false,
    privateData: new Uint8Array(0),
  };
}

const ROCE_CASES: ServerCase<RoceServer, RoceAttacker>[] = [
  roceCase(
    'a WRITE whose ICRC fits only an IPv4 ID its sender never uses (a corrupted packet) is dropped: not placed, not acknowledged, its PSN still expected',
    { gone: true },
    async (s, a) => {
      const before = s.served.messages;
      hello(a);
      await untilTrue(() => s.served.messages === before + 1, 'the first Send received');
      const payload = new Uint8Array(16).fill(0xee);
      const pkt = encodeIbPacket({
        bth: { ...newBth(IbOpcode.RC_RDMA_WRITE_ONLY, a.sqpn, a.psn), padCnt: ibPadCount(payload.length), ackReq: true },
        reth: { va: s.va(s.rw), rkey: s.mrs.rw.rkey, dmaLen: payload.length },
        payload,
      });
      const sock = dgram.createSocket('udp4');
      await new Promise<void>((r) => sock.bind(0, ROCE_ATTACKER_ADDR, r));
      try {
        // The IPv4 header on the wire says ID 0 (or the kernel's); the ICRC fits ID 0x5a5a: what a
        // corruption of the ICRC octets that some ID explains looks like to the receiver.
        writeIcrc(
          {
            src: ipv4Bytes(ROCE_ATTACKER_ADDR),
            dst: ipv4Bytes(ROCE_SERVER_ADDR),
            srcPort: sock.address().port,
            dstPort: s.udpPort,
            ipId: 0x5a5a,
            flagsFrag: IPV4_FLAGS_DF,
          },
          pkt,
        );
        await new Promise<void>((r, j) => sock.send(pkt, s.udpPort, ROCE_SERVER_ADDR, (e) => (e ? j(e) : r())));
      } finally {
        sock.close();
      }
      // The same PSN again, as a Send: taken as new, so the WRITE was never executed.
      hello(a);
      await untilTrue(() => s.served.messages === before + 2, "the Send with the dropped WRITE's PSN received");
      assert.equal(
        a.got.filter((r) => r.pkt.bth.opcode === IbOpcode.RC_ACKNOWLEDGE && aethType(r.pkt.aeth!.syndrome) === AethType.Nak).length,
        0,
      );
    },
  ),
  roceCase(
    'a SEND WITH INVALIDATE naming a registered (not fast-register) region gets NAK Invalid Request; the region stays valid',
    { nak: NakCode.InvalidRequest },
    (s, a) => {
      a.pkt(IbOpcode.RC_SEND_ONLY_WITH_INVALIDATE, { ieth: s.mrs.ro.rkey }, advert(0n, 0, 0));
    },
    (s) => stillValid(s, s.mrs.ro.rkey),
  ),
  roceCase(
    "finding 1: a SEND WITH INVALIDATE naming the ibv_reg_mr region the server's own Reads land in gets NAK Invalid Request; the region stays valid and the server's next Read into it (the legitimate client's round) succeeds",
    { nak: NakCode.InvalidRequest },
    (s, a) => {
      a.pkt(IbOpcode.RC_SEND_ONLY_WITH_INVALIDATE, { ieth: s.mrs.sink.rkey }, advert(0n, 0, 0));
    },
    (s) => stillValid(s, s.mrs.sink.rkey),
  ),
  roceCase(
    "finding 3: from a fresh source, a sample of corrupted WRITEs whose ICRC only an IPv4 ID outside the source's window explains is dropped as a bad ICRC: none placed or answered, the source still served",
    { gone: true },
    async (s) => {
      const fresh = await freshPeer(s, ROCE_FRESH_ADDR);
      const sock = dgram.createSocket('udp4');
      await new Promise<void>((r) => sock.bind(0, ROCE_FRESH_ADDR, r));
      const srv = RoceNet.find(ROCE_SERVER_ADDR, s.udpPort)!;
      try {
        assert.equal(srv.ipIds.knows(ROCE_FRESH_ADDR), false, 'the source is fresh');
        const ip = {
          src: ipv4Bytes(ROCE_FRESH_ADDR),
          dst: ipv4Bytes(ROCE_SERVER_ADDR),
          srcPort: sock.address().port,
          dstPort: s.udpPort,
          ipId: 0,
          flagsFrag: IPV4_FLAGS_DF,
        };
        const sendRaw = (pkt: Uint8Array) =>
          new Promise<void>((r, j) => sock.send(pkt, s.udpPort, ROCE_SERVER_ADDR, (e) => (e ? j(e) : r())));
        // The first packet teaches the window the source: DF and ID 0, as softrdma sends.
        const hello0 = encodeIbPacket({
          bth: { ...newBth(IbOpcode.RC_SEND_ONLY, fresh.sqpn, ATTACKER_PSN), ackReq: true },
          payload: advert(0n, 0, 0),
        });
        writeIcrc(ip, hello0);
        const before = s.served.messages;
        await sendRaw(hello0);
        await untilTrue(() => s.served.messages === before + 1, "the fresh source's first Send received");
        const icrcErrors = srv.stats.rxIcrcErrors;
        const rnd = seeded(7);
        let sent = 0;
        for (let batch = 0; batch < ICRC_SAMPLE / 16; batch++) {
          for (let k = 0; k < 16; k++) {
            const payload = new Uint8Array(64).fill(0xee);
            const pkt = encodeIbPacket({
              bth: {
                ...newBth(IbOpcode.RC_RDMA_WRITE_ONLY, fresh.sqpn, ATTACKER_PSN + 1),
                padCnt: ibPadCount(payload.length),
                ackReq: true,
              },
              reth: { va: s.va(s.rw), rkey: s.mrs.rw.rkey, dmaLen: payload.length },
              payload,
            });
            // 1–4 octets changed anywhere the ICRC covers but the BTH's masked fifth octet, and an
            // ICRC that an IPv4 ID outside the window (ID 0 … 63 of a DF sender) makes valid: a
            // random corruption some ID explains, which is what the window must refuse.
            for (let j = 1 + Math.floor(rnd() * 4); j > 0; j--) {
              let at = Math.floor(rnd() * (pkt.length - ICRC_LEN - 1));
              if (at >= 4) at++;
              pkt[at]! ^= 1 + Math.floor(rnd() * 255);
            }
            const id = SEGMENT_RUN_IDS + Math.floor(rnd() * (0x10000 - SEGMENT_RUN_IDS));
            writeIcrc({ ...ip, ipId: id }, pkt);
            assert.equal(solveIpv4Id(ip, pkt)?.ipId, id, "some IPv4 ID makes the corrupted packet's ICRC valid");
            await sendRaw(pkt);
            sent++;
            // A legitimate packet between two corrupted ones (a duplicate of the first Send, which
            // the server acknowledges again): the window's candidate is never two refused IDs in a row.
            await sendRaw(hello0);
          }
          await untilTrue(
            () => srv.stats.rxIcrcErrors === icrcErrors + sent,
            `batch ${batch}: ${srv.stats.rxIcrcErrors - icrcErrors} of ${sent} dropped as a bad ICRC`,
          );
        }
        assert.equal(srv.stats.rxIcrcErrors, icrcErrors + ICRC_SAMPLE, 'every corrupted packet dropped');
        assert.equal(fresh.naks(), 0, 'a corrupted packet was answered');
        assert.equal(s.served.messages, before + 1, 'a duplicate was received again');
        // The source is still served at the PSN the dropped WRITEs carried.
        const hello1 = encodeIbPacket({
          bth: { ...newBth(IbOpcode.RC_SEND_ONLY, fresh.sqpn, ATTACKER_PSN + 1), ackReq: true },
          payload: advert(0n, 0, 0),
        });
        writeIcrc(ip, hello1);
        await sendRaw(hello1);
        await untilTrue(() => s.served.messages === before + 2, 'the Send after the sample received');
      } finally {
        sock.close();
        fresh.close();
      }
    },
  ),
  roceCase(
    'finding 4: UD datagrams longer than the posted receive are dropped and counted (udLengthDrops); the receive stays posted and takes the next datagram that fits',
    { gone: true },
    async (s, a) => {
      const QK = 0x1111_2222;
      const ud = s.udQp(QK, 40 + 32);
      try {
        ud.postRecv();
        const drops = s.engine.counters.udLengthDrops;
        const datagram = (len: number, fill: number) =>
          a.net.send(
            encodeIbPacket({
              bth: { ...newBth(IbOpcode.UD_SEND_ONLY, ud.qp.qp_num, 0), padCnt: ibPadCount(len) },
              deth: { qkey: QK, resv8: 0, srcQp: a.qpn },
              payload: new Uint8Array(len).fill(fill),
            }),
            ROCE_SERVER_ADDR,
          );
        datagram(1000, 0xee);
        datagram(33, 0xee);
        await untilTrue(() => s.engine.counters.udLengthDrops === drops + 2, 'the datagrams that do not fit dropped and counted');
        assert.equal(verbs.ibv_poll_cq(ud.cq, 1, []), 0, 'a datagram that does not fit completed the receive');
        datagram(32, 0x5a);
        const [wc] = await pollWc(ud.cq, 1);
        assert.equal(wc!.status, IBV_WC_SUCCESS);
        assert.equal(wc!.byte_len, 40 + 32);
        assert.deepEqual(ud.buf.inner.subarray(40), new Uint8Array(32).fill(0x5a));
        assert.equal(guardDigest(ud.buf), ud.buf.guards, "the UD receive buffer's guards changed");
      } finally {
        ud.close();
      }
    },
  ),
  roceCase(
    'finding 2: CM messages forged from another address that name an established connection only by its local comm ID (a REJ of a REQ, then REJ, MRA, DREQ, DREP, RTU and LAP) leave it established on both ends, and it carries Sends',
    { gone: true },
    async (s, a) => {
      const p = await s.cmConnection();
      try {
        const seen = cmSeen(p.cm);
        let sent = 0;
        const forge = (m: CmMessage, attrId?: number) => {
          const mad = encodeCmMad(BigInt(randomBytes(4).readUInt32BE(0)), m);
          if (attrId !== undefined) new DataView(mad.buffer, mad.byteOffset).setUint16(16, attrId);
          gsiMad(s, a, mad);
          sent++;
        };
        for (const [victim, qpn] of [
          [p.serverConn(), p.server.qp!.qp_num],
          [p.clientConn(), p.client.qp!.qp_num],
        ] as const) {
          const local = victim.localCommId;
          const guess = (randomBytes(4).readUInt32BE(0) | 1) >>> 0;
          const none = new Uint8Array(0);
          forge({
            kind: 'REJ',
            localCommId: guess,
            remoteCommId: local,
            msgRejected: CmMsgResponse.REQ,
            reason: CmRejReason.CONSUMER_DEFINED,
            ari: none,
            privateData: none,
          });
          forge({
            kind: 'REJ',
            localCommId: guess,
            remoteCommId: local,
            msgRejected: CmMsgResponse.REP,
            reason: CmRejReason.CONSUMER_DEFINED,
            ari: none,
            privateData: none,
          });
          forge({
            kind: 'REJ',
            localCommId: 0,
            remoteCommId: local,
            msgRejected: CmMsgResponse.OTHER,
            reason: CmRejReason.TIMEOUT,
            ari: none,
            privateData: none,
          });
          forge({
            kind: 'MRA',
            localCommId: guess,
            remoteCommId: local,
            msgMraed: CmMsgResponse.REQ,
            serviceTimeout: 31,
            privateData: none,
          });
          forge({
            kind: 'MRA',
            localCommId: guess,
            remoteCommId: local,
            msgMraed: CmMsgResponse.REP,
            serviceTimeout: 31,
            privateData: none,
          });
          forge({ kind: 'DREQ', localCommId: guess, remoteCommId: local, remoteQpn: qpn, privateData: none });
          forge({ kind: 'DREQ', localCommId: 0, remoteCommId: local, remoteQpn: qpn, privateData: none });
          forge({ kind: 'DREP', localCommId: guess, remoteCommId: local, privateData: none });
          forge({ kind: 'RTU', localCommId: guess, remoteCommId: local, privateData: none });
          // LAP (IBTA Vol. 1 §12.8.1) begins with the same two comm IDs as an RTU.
          forge({ kind: 'RTU', localCommId: guess, remoteCommId: local, privateData: none }, CM_ATTR_LAP);
        }
        await untilTrue(() => cmSeen(p.cm) >= seen + sent, `the forged messages reached the CM (${cmSeen(p.cm) - seen} of ${sent})`);
        assert.equal(p.serverConn().state, 'ESTABLISHED', "the server's end");
        assert.equal(p.clientConn().state, 'ESTABLISHED', "the client's end");
        await p.exchange();
      } finally {
        await p.close();
      }
    },
  ),
  roceCase(
    'finding 5: spoofed REQs naming the CA GUID an old-style formula gives (a fixed prefix and the process ID) and QPNs counted from 17 tear no connection down',
    { gone: true },
    async (s, a) => {
      const p = await s.cmConnection();
      try {
        const guid = pidGuid(DEVICE_INDEX_SOFTROCE0);
        const reqs = p.cm.stats.received.REQ ?? 0;
        for (let q = 17; q < 17 + QPN_GUESSES; q += 32) {
          for (let k = q; k < q + 32; k++) gsiMad(s, a, encodeCmMad(BigInt(k), spoofedReq(guid, k)));
          await untilTrue(() => (p.cm.stats.received.REQ ?? 0) >= reqs + (q + 32 - 17), 'the spoofed REQs reached the CM');
        }
        assert.equal(p.serverConn().state, 'ESTABLISHED', "the server's end");
        assert.equal(p.clientConn().state, 'ESTABLISHED', "the client's end");
        await p.exchange();
      } finally {
        await p.close();
      }
    },
  ),
  roceCase('an RDMA WRITE with a free R_Key gets NAK Remote Access Error', RAE, (s, a) => wr(s, a, freeStag(s), s.va(s.rw))),
  roceCase('an RDMA WRITE with the right index and a wrong key gets NAK Remote Access Error', RAE, (s, a) =>
    wr(s, a, otherKey(s.mrs.rw.rkey), s.va(s.rw)),
  ),
  roceCase('an RDMA WRITE to a live region of another PD gets the same NAK (no STag oracle on IB)', RAE, (s, a) =>
    wr(s, a, s.mrs.other.rkey, s.va(s.other)),
  ),
  roceCase('an RDMA WRITE past the end of a region: NAK, the guard untouched', RAE, (s, a) => wr(s, a, s.mrs.rw.rkey, s.va(s.rw) + 4090n)),
  roceCase('an RDMA WRITE before the start of a region: NAK, the guard untouched', RAE, (s, a) => wr(s, a, s.mrs.rw.rkey, s.va(s.rw) - 8n)),
  roceCase('an RDMA WRITE aimed at the unregistered buffer through a valid R_Key: NAK', RAE, (s, a) =>
    wr(s, a, s.mrs.rw.rkey, s.va(s.unreg)),
  ),
  roceCase('an RDMA WRITE whose VA wraps past 2^64: NAK', RAE, (s, a) => wr(s, a, s.mrs.rw.rkey, (1n << 64n) - 8n)),
  roceCase('an RDMA WRITE to a read-only region: NAK', RAE, (s, a) => wr(s, a, s.mrs.ro.rkey, s.va(s.ro))),
  roceCase('an RDMA READ from a region without Remote Read: NAK', RAE, (s, a) => rr(a, s.mrs.recv.lkey, s.va(s.recv), 64)),
  roceCase('an RDMA READ of more than its source: NAK', RAE, (s, a) => rr(a, s.mrs.big.rkey, s.va(s.big), 2 << 20)),
  roceCase("an RDMA READ from another PD's region: NAK", RAE, (s, a) => rr(a, s.mrs.other.rkey, s.va(s.other), 64)),
  roceCase('a SEND MIDDLE with no FIRST (opcode sequence) gets NAK Invalid Request', { nak: NakCode.InvalidRequest }, (_s, a) =>
    a.pkt(IbOpcode.RC_SEND_MIDDLE, {}, new Uint8Array(1024)),
  ),
  roceCase('a SEND longer than the receive buffer gets NAK Invalid Request', { nak: NakCode.InvalidRequest }, (_s, a) =>
    a.pkt(IbOpcode.RC_SEND_ONLY, {}, new Uint8Array(100).fill(0xee)),
  ),
  roceCase(
    `RDMA READ requests beyond max_dest_rd_atomic (${SERVER_IRD}) in one burst: NAK Invalid Request`,
    { nak: NakCode.InvalidRequest },
    (s, a) => {
      for (let i = 0; i < 3 * SERVER_IRD; i++) rr(a, s.mrs.big.rkey, s.va(s.big), 1 << 20);
    },
  ),
  roceCase(
    'a packet ahead of the expected PSN gets one PSN Sequence Error NAK and is not executed; the connection goes on',
    { nak: NakCode.PsnSequenceError },
    async (s, a) => {
      const before = s.served.messages;
      hello(a, a.psn + 5);
      await untilTrue(() => a.naks().length > 0, 'sequence NAK');
      hello(a);
      await untilTrue(() => s.served.messages === before + 1, 'the in-sequence Send received');
    },
  ),
  roceCase('a duplicate (replayed) SEND is acknowledged again and not received twice', { gone: true }, async (s, a) => {
    const before = s.served.messages;
    const p = a.psn;
    hello(a, p);
    a.psn = p + 1;
    await untilTrue(() => s.served.messages === before + 1, 'first Send received');
    hello(a, p);
    hello(a, p);
    await untilTrue(() => a.got.filter((r) => r.pkt.bth.opcode === IbOpcode.RC_ACKNOWLEDGE).length >= 2, 're-ACK');
    assert.equal(s.served.messages, before + 1, 'the replayed Send was received again');
    assert.deepEqual(a.naks(), []);
  }),
  roceCase(
    'SENDs beyond the posted receives get an RNR NAK and are not executed; the connection goes on once receives are posted again',
    { gone: true },
    async (s, a) => {
      const before = s.served.messages;
      s.hold(a.sqpn, true);
      for (let i = 0; i < 4; i++) hello(a);
      await untilTrue(() => s.served.messages === before + 4, 'the posted receives consumed');
      const p = a.psn;
      hello(a);
      await untilTrue(
        () => a.got.some((r) => r.pkt.aeth && aethType(r.pkt.aeth.syndrome) === AethType.RnrNak && r.pkt.bth.psn === p),
        'RNR NAK',
      );
      assert.equal(s.served.messages, before + 4);
      s.hold(a.sqpn, false);
      // The raw peer retries the RNR-NAKed PSN itself.
      hello(a, p);
      await untilTrue(() => s.served.messages === before + 5, 'the retried Send received');
    },
  ),
  roceCase(
    "finding 5: a peer advertising a 4 GiB buffer: the server's Read into its 64-octet sink fails locally and no READ request goes on the wire",
    { gone: true },
    async (s, a) => {
      const errs = s.errors.get(IBV_WC_LOC_PROT_ERR) ?? 0;
      a.pkt(IbOpcode.RC_SEND_ONLY, {}, advert(s.va(s.unreg), 0x1234_5600, 0xffff_ffff));
      await untilTrue(() => (s.errors.get(IBV_WC_LOC_PROT_ERR) ?? 0) > errs, 'IBV_WC_LOC_PROT_ERR at the server');
    },
    (_s, a) => assert.equal(a.readRequests(), 0, 'a READ request reached the wire'),
  ),
  roceCase(
    'a peer that dies while the server Reads from it: the server retries, gives up (IBV_WC_RETRY_EXC_ERR) and tears down',
    { gone: true },
    async (s, a) => {
      const errs = s.errors.get(IBV_WC_RETRY_EXC_ERR) ?? 0;
      a.pkt(IbOpcode.RC_SEND_ONLY, {}, advert(0x1000n, 0x1234_5600, 32));
      await untilTrue(() => a.readRequests() > 0, 'the server asked');
      a.net.detach(a.qpn);
      await untilTrue(() => (s.errors.get(IBV_WC_RETRY_EXC_ERR) ?? 0) > errs, 'retry exceeded at the server', 20_000);
    },
  ),
  roceCase(
    `a Read flood (${SERVER_IRD} × 1 MiB) from a peer that does not take the responses: the server queues at most its window toward it (writes rw)`,
    { gone: true },
    async (s, a) => {
      for (let i = 0; i < SERVER_IRD; i++) rr(a, s.mrs.big.rkey, s.va(s.big), 1 << 20);
      let maxQueued = 0;
      const t = setInterval(() => {
        for (const q of s.engine.qps.values()) if (q.transport instanceof RoceQp) maxQueued = Math.max(maxQueued, q.transport.queuedOctets);
      }, 1);
      await s.legit(2048);
      await untilTrue(
        () =>
          a.got.filter(
            (r) => r.pkt.bth.opcode >= IbOpcode.RC_RDMA_READ_RESPONSE_FIRST && r.pkt.bth.opcode <= IbOpcode.RC_RDMA_READ_RESPONSE_ONLY,
          ).length >=
          SERVER_IRD * 1024,
        'all Read Responses sent',
        30_000,
      );
      clearInterval(t);
      assert.ok(maxQueued <= s.engine.config.txWindow + 4096, `queued ${maxQueued} octets`);
    },
  ),
];

serverSuite<RoceServer, RoceAttacker>(
  'rocev2',
  async () => {
    const probe = RoceNet.acquire('127.0.0.1', 0);
    await probe.ready;
    const s = await RoceServer.start(probe.port);
    // The IB CM (QP1) comes up with the listener and stays: it is part of the server at rest.
    await s.listenCm();
    // rdma_cm keeps a PD of its own per device from the first connection on (as librdmacm):
    // one connection before the counters at rest are taken.
    const first = await s.cmConnection();
    await first.exchange();
    await first.close();
    // The server's QPs take their own references on the endpoint.
    const close = s.close.bind(s);
    s.close = async () => {
      await close();
      probe.release();
    };
    return s;
  },
  async (s) => {
    const net = RoceNet.acquire(ROCE_ATTACKER_ADDR, s.udpPort);
    await net.ready;
    const got: RoceRx[] = [];
    const qpn = ATTACKER_QPN;
    net.detach(qpn);
    net.attach(qpn, { rx: (r) => got.push(r), netError: () => {} });
    const sqpn = s.connect(qpn, ROCE_ATTACKER_ADDR, ATTACKER_PSN, 0x500, { timeout: 8, retryCnt: 2 });
    const a: RoceAttacker = {
      net,
      qpn,
      sqpn,
      psn: ATTACKER_PSN,
      got,
      pkt(op, extra = {}, payload = new Uint8Array(0), psn) {
        const p = psn ?? a.psn++;
        const pk = encodeIbPacket({
          bth: { ...newBth(op, sqpn, p & 0xff_ffff), padCnt: ibPadCount(payload.length), ackReq: true },
          payload,
          ...extra,
        });
        net.send(pk, ROCE_SERVER_ADDR);
      },
      naks: () =>
        got
          .filter((r) => r.pkt.aeth && aethType(r.pkt.aeth.syndrome) === AethType.Nak)
          .map((r) => [r.pkt.bth.psn, aethValue(r.pkt.aeth!.syndrome)]),
      readRequests: () => got.filter((r) => r.pkt.bth.opcode === IbOpcode.RC_RDMA_READ_REQUEST).length,
    };
    return a;
  },
  async (a, e) => {
    const want = (e as { nak?: NakCode }).nak;
    if (want === undefined) return;
    await untilTrue(() => a.naks().some(([, c]) => c === want), `NAK ${NakCode[want]} (got ${JSON.stringify(a.naks())})`);
  },
  async (s, a) => {
    // IB has no connection to close: a peer that caused no fatal error is dropped by the
    // application (its own timeout); a fatal one was torn down on its flush completions.
    await new Promise((r) => setTimeout(r, 5));
    s.drop(a.sqpn);
    a.net.detach(a.qpn);
    a.net.release();
  },
  ROCE_CASES,
);

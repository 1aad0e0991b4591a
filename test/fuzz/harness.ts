/**
 * The fuzzing harness of `npm run fuzz` and of the seeded slice in `npm test`.
 *
 * - **Decoders**: fast-check generates inputs (raw bytes, and valid encodings with byte edits,
 *   insertions, deletions, bit flips, truncation and splicing) for every decoder of
 *   `decoders.ts`; a decoder may return or throw its own protocol error, nothing else. The first
 *   failing input is shrunk by fast-check and written to `test/fuzz/regressions/`.
 * - **Live engine, iWARP**: each stream is a fresh QP whose LLP is an in-memory socket; valid
 *   FPDUs (Sends, tagged Writes into a guarded region, Read Requests, Terminates), mutated and
 *   cut into random chunks, are pushed into it. Nothing may throw out of the data path, the
 *   octets around the registered region and a region of another PD must not change, and every
 *   posted receive must complete (flush included) once the QP is moved to Error.
 * - **Live engine, RoCEv2**: each stream is a burst of mutated IB packets sent over UDP to a QP
 *   in RTS (a fresh one whenever the previous one left RTS); the UDP layer counts exceptions out
 *   of the transport (`rxClientErrors`), which must stay 0, with the same memory checks.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { LlpStream } from '../../src/iwarp/llp.js';
import { RoceNet } from '../../src/roce/net.js';
import { installTransports } from '../../src/provider/transports.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import type { MemObject } from '../../src/rnic/memory.js';
import { mrReg } from '../../src/rnic/memops.js';
import { postRq } from '../../src/rnic/post.js';
import { DEFAULT_CONFIG, Rnic } from '../../src/rnic/rnic.js';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiMemFlags, RiQpState } from '../../src/rnicpi/types.js';
import { encodeIbPacket, IbOpcode, ibPadCount, newBth } from '../../src/wire/ib/index.js';
import { encodeFpdu } from '../../src/wire/mpa.js';
import { encodeRdmapHeader, RdmapOpcode } from '../../src/wire/rdmap.js';
import { DEFAULT_MPA, gidOf, ibToRts, makeIbSide, makeSide, must, qpInit, type Side } from '../helpers/engine.js';
import { DECODERS, type DecoderTarget, IB_SEEDS } from './decoders.js';

// Engines made here bind through the provider's transports, as the provider's own RNICs do.
installTransports();

/** Where inputs that found a bug are kept (source tree: `test/fuzz/regressions`). */
export const REGRESSIONS = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fuzz/regressions');

const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Inputs: raw bytes half of the time, otherwise a seed edited, cut or spliced. */
export function inputArb(seeds: readonly Uint8Array[]): fc.Arbitrary<Uint8Array> {
  const edit = fc.record({ op: fc.integer({ min: 0, max: 3 }), at: fc.nat(), v: fc.integer({ min: 0, max: 255 }) });
  const mutated = fc
    .record({
      seed: fc.constantFrom(...seeds),
      other: fc.constantFrom(...seeds),
      edits: fc.array(edit, { maxLength: 6 }),
      cut: fc.option(fc.nat(), { freq: 3 }),
      splice: fc.option(fc.nat(), { freq: 6 }),
    })
    .map(({ seed, other, edits, cut, splice }) => {
      let b = Array.from(seed);
      if (splice !== null) b = b.slice(0, splice % (b.length + 1)).concat(Array.from(other).slice(splice % (other.length + 1)));
      for (const e of edits) {
        const i = b.length ? e.at % b.length : 0;
        if (e.op === 0 && b.length) b[i] = e.v;
        else if (e.op === 1) b.splice(i, 0, e.v);
        else if (e.op === 2 && b.length) b.splice(i, 1);
        else if (b.length) b[i] = b[i]! ^ (1 << (e.v & 7));
      }
      if (cut !== null) b = b.slice(0, cut % (b.length + 1));
      return Uint8Array.from(b);
    });
  return fc.oneof(fc.uint8Array({ maxLength: 300 }), mutated, mutated);
}

export interface DecoderReport {
  name: string;
  runs: number;
  accepted: number;
  rejected: number;
  crashes: number;
  /** The shrunk input that crashed, if any (also written to the regressions folder). */
  counterexample: string | null;
  error: string | null;
  ms: number;
}

/** Runs one decoder on one input: 'ok', 'rejected' (its own error) or throws the foreign error. */
export function runDecoder(t: DecoderTarget, b: Uint8Array, bit: number): 'ok' | 'rejected' {
  try {
    t.run(b, bit);
    return 'ok';
  } catch (e) {
    if (e instanceof t.allowed) return 'rejected';
    throw e;
  }
}

/** Fuzzes one decoder with `runs` inputs from `seed`; a failure is kept as a regression case. */
export function fuzzDecoder(t: DecoderTarget, runs: number, seed: number, keep = true): DecoderReport {
  const t0 = Date.now();
  let accepted = 0;
  let rejected = 0;
  const details = fc.check(
    fc.property(inputArb(t.seeds), fc.nat(7), (b, bit) => {
      if (runDecoder(t, b, bit) === 'ok') accepted++;
      else rejected++;
    }),
    { numRuns: runs, seed, endOnFailure: true },
  );
  let counterexample: string | null = null;
  let error: string | null = null;
  if (details.failed && details.counterexample) {
    const [b, bit] = details.counterexample as [Uint8Array, number];
    counterexample = hexOf(b);
    error = String(details.errorInstance);
    if (keep) keepRegression(t.name, b, bit, error);
  }
  return {
    name: t.name,
    runs: details.numRuns,
    accepted,
    rejected,
    crashes: details.failed ? 1 : 0,
    counterexample,
    error,
    ms: Date.now() - t0,
  };
}

/** A regression case: the decoder, the input and what it threw when found. */
export interface Regression {
  target: string;
  input: string;
  bit: number;
  found: string;
}

export function keepRegression(target: string, b: Uint8Array, bit: number, found: string): string {
  mkdirSync(REGRESSIONS, { recursive: true });
  const id = createHash('sha256').update(target).update(b).digest('hex').slice(0, 12);
  const file = join(REGRESSIONS, `${target}-${id}.json`);
  const r: Regression = { target, input: hexOf(b), bit, found };
  writeFileSync(file, `${JSON.stringify(r, null, 2)}\n`);
  return file;
}

export function loadRegressions(): Regression[] {
  let names: string[];
  try {
    names = readdirSync(REGRESSIONS).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.sort().map((n) => JSON.parse(readFileSync(join(REGRESSIONS, n), 'utf8')) as Regression);
}

export { DECODERS };

// ------------------------------------------------------------------------------ live engine

/** A tiny seeded PRNG (mulberry32) for the stream fuzzers. */
export class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  u32(): number {
    this.#s = (this.#s + 0x6d2b79f5) >>> 0;
    let t = this.#s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  int(n: number): number {
    return n <= 0 ? 0 : this.u32() % n;
  }
  bytes(n: number): Uint8Array {
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) b[i] = this.u32() & 0xff;
    return b;
  }
}

/** Applies 0–3 random byte edits (the first `keep` octets untouched with probability 1/2). */
function mutate(rng: Rng, b: Uint8Array): Uint8Array {
  const out = b.slice();
  const n = rng.int(4);
  for (let i = 0; i < n && out.length; i++) out[rng.int(out.length)] = rng.u32() & 0xff;
  if (rng.int(8) === 0) return out.subarray(0, rng.int(out.length + 1));
  return out;
}

/** A Socket stand-in the iWARP data path can own: records what it writes, is fed by `emit('data')`. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  writableEnded = false;
  writable = true;
  writableLength = 0;
  pending = false;
  readyState = 'open';
  written = 0;
  cork(): void {}
  uncork(): void {}
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  write(b: Uint8Array, cb?: (err?: Error | null) => void): boolean {
    this.written += b.length;
    if (cb) queueMicrotask(() => cb(null));
    return true;
  }
  end(): this {
    this.writableEnded = true;
    queueMicrotask(() => this.destroy());
    return this;
  }
  destroy(): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.readyState = 'closed';
    queueMicrotask(() => this.emit('close', false));
    return this;
  }
  resetAndDestroy(): this {
    return this.destroy();
  }
}

/** Guarded memory of a victim: a registered region with guards around it and another PD's region. */
interface VictimMem {
  whole: Uint8Array;
  region: Uint8Array;
  mr: MemObject;
  other: Uint8Array;
  otherMr: MemObject;
  recv: Uint8Array;
  recvMr: MemObject;
  digest(): string;
}

function victimMem(side: Pick<Side, 'rnic' | 'pd'>): VictimMem {
  const whole = new Uint8Array(4096 + 512).fill(0x5a);
  const region = whole.subarray(256, 256 + 4096);
  const ALL = RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_READ | RiMemFlags.REMOTE_WRITE;
  const mr = must(mrReg(side.rnic, { va: hostMemory.addressOf(region), length: region.length, flags: ALL, pd: side.pd, key: 0 }, null));
  const pd2 = must(side.rnic.pdAlloc('other'));
  const other = new Uint8Array(1024).fill(0x3c);
  const otherMr = must(mrReg(side.rnic, { va: hostMemory.addressOf(other), length: other.length, flags: ALL, pd: pd2, key: 0 }, null));
  const recv = new Uint8Array(4 * 256);
  const recvMr = must(
    mrReg(side.rnic, { va: hostMemory.addressOf(recv), length: recv.length, flags: RiMemFlags.LOCAL_WRITE, pd: side.pd, key: 0 }, null),
  );
  const digest = () =>
    createHash('sha256')
      .update(whole.subarray(0, 256))
      .update(whole.subarray(256 + 4096))
      .update(other)
      .digest('hex');
  return { whole, region, mr, other, otherMr, recv, recvMr, digest };
}

export interface StreamReport {
  transport: 'iwarp' | 'rocev2';
  streams: number;
  units: number;
  /** Exceptions out of the data path, memory changed outside the region, receives not completed. */
  crashes: number;
  failures: string[];
  /** QPs the streams went through (a new one after each that left RTS). */
  qps: number;
  ms: number;
}

/** The FPDU templates of an iWARP stream (ULPDUs, before framing). */
function iwarpTemplates(rng: Rng, m: VictimMem, msn: { send: number; read: number }): Uint8Array {
  const base = hostMemory.addressOf(m.region);
  const payload = rng.bytes(rng.int(300));
  const ut = (qn: number, n: number) => ({
    tagged: false as const,
    last: true,
    rsvd: 0,
    version: 1,
    rsvdUlp: 0,
    rsvdUlp32: 0,
    qn,
    msn: n,
    mo: 0,
  });
  let h: Uint8Array;
  switch (rng.int(6)) {
    case 0:
      h = encodeRdmapHeader({ ddp: ut(0, msn.send++), version: 1, rsvd: 0, opcode: RdmapOpcode.Send });
      break;
    case 1:
    case 2: {
      const stag = [m.mr.stag, m.otherMr.stag, m.recvMr.stag, rng.u32()][rng.int(4)]!;
      const to = base + BigInt(rng.int(4200)) - 50n;
      h = encodeRdmapHeader({
        ddp: { tagged: true, last: rng.int(4) !== 0, rsvd: 0, version: 1, rsvdUlp: 0, stag, to },
        version: 1,
        rsvd: 0,
        opcode: RdmapOpcode.Write,
      });
      break;
    }
    case 3:
      h = encodeRdmapHeader({
        ddp: ut(1, msn.read++),
        version: 1,
        rsvd: 0,
        opcode: RdmapOpcode.ReadRequest,
        readRequest: {
          sinkStag: rng.u32(),
          sinkTo: 0n,
          size: rng.int(5000),
          srcStag: [m.mr.stag, m.otherMr.stag][rng.int(2)]!,
          srcTo: base + BigInt(rng.int(4200)),
        },
      });
      return h;
    case 4:
      h = encodeRdmapHeader({ ddp: ut(2, 1), version: 1, rsvd: 0, opcode: RdmapOpcode.Terminate });
      break;
    default:
      return rng.bytes(rng.int(80));
  }
  const u = new Uint8Array(h.length + payload.length);
  u.set(h);
  u.set(payload, h.length);
  return u;
}

/** `streams` mutated FPDU streams into fresh iWARP QPs. */
export async function fuzzIwarpStreams(streams: number, seed: number): Promise<StreamReport> {
  const t0 = Date.now();
  const rng = new Rng(seed);
  const rnic = new Rnic({ ...DEFAULT_CONFIG, name: 'fuzz-iwarp' });
  const failures: string[] = [];
  let units = 0;
  let qps = 0;
  // One PD, CQ and set of regions for all streams; a fresh QP for each.
  const proto = makeSide(rnic, { rqSize: 8 });
  rnic.qpDestroy(proto.qp);
  const mem = victimMem(proto);
  const before = mem.digest();
  try {
    for (let s = 0; s < streams; s++) {
      const side: Side = { ...proto, qp: must(rnic.qpCreate(qpInit(proto.pd, proto.cq, { rqSize: 8, rqMaxSges: 1, sqMaxSges: 1 }))) };
      qps++;
      for (let i = 0; i < 4; i++)
        postRq(side.qp, 0, BigInt(i), [{ stag: mem.recvMr.stag, to: hostMemory.addressOf(mem.recv) + BigInt(i * 256), len: 256 }]);
      const crc = rng.int(2) === 1;
      const sock = new FakeSocket();
      const llp = new LlpStream(sock as never, {});
      const st = side.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp, llpAttrs: { ...DEFAULT_MPA, crc } });
      if (st !== RiRet.SUCCESS) throw new Error(`RTS: ${RiRet[st]}`);
      const msn = { send: 1, read: 1 };
      const parts: Uint8Array[] = [];
      const n = 1 + rng.int(6);
      for (let i = 0; i < n; i++) {
        const ulpdu = iwarpTemplates(rng, mem, msn);
        const fpdu = encodeFpdu(ulpdu, { crc });
        parts.push(rng.int(3) === 0 ? mutate(rng, fpdu) : fpdu);
      }
      const stream = Buffer.concat(parts);
      units += n;
      try {
        // Random chunking: the deframer must resynchronise nothing and accept any split.
        let at = 0;
        while (at < stream.length && !sock.destroyed) {
          const k = 1 + rng.int(stream.length - at);
          sock.emit('data', stream.subarray(at, at + k));
          at += k;
        }
        await new Promise((r) => setImmediate(r));
      } catch (e) {
        failures.push(`stream ${s} (seed ${seed}): ${String(e)} :: ${stream.toString('hex').slice(0, 400)}`);
      }
      if (mem.digest() !== before)
        failures.push(`stream ${s} (seed ${seed}): memory outside the region changed :: ${stream.toString('hex').slice(0, 400)}`);
      // Every posted receive completes (success, error or flush) once the QP is in Error: the
      // stream posted no SQ work, so exactly the four receives complete.
      if (side.qp.state !== RiQpState.ERROR) side.qp.modify({ nextState: RiQpState.ERROR });
      await new Promise((r) => setImmediate(r));
      let wcs = 0;
      const buf: never[] = [];
      for (let k = side.cq.poll(buf, 64); k > 0; k = side.cq.poll(buf, 64)) wcs += k;
      if (wcs !== 4) failures.push(`stream ${s} (seed ${seed}): ${wcs} of 4 receives completed :: ${stream.toString('hex').slice(0, 400)}`);
      if (rnic.qpDestroy(side.qp) !== RiRet.SUCCESS) failures.push(`stream ${s}: QP not destroyed`);
      sock.destroy();
    }
  } finally {
    rnic.close();
  }
  return { transport: 'iwarp', streams, units, crashes: failures.length, failures: failures.slice(0, 10), qps, ms: Date.now() - t0 };
}

/** `streams` bursts of mutated IB packets over UDP into RoCEv2 QPs. */
export async function fuzzRoceStreams(streams: number, seed: number): Promise<StreamReport> {
  const t0 = Date.now();
  const rng = new Rng(seed);
  const probe = RoceNet.acquire('127.0.0.1', 0);
  await probe.ready;
  const port = probe.port;
  const rnic = new Rnic({
    ...DEFAULT_CONFIG,
    name: 'fuzz-roce',
    family: 'ib',
    ibLink: 'rocev2',
    roceUdpPort: port,
    gids: () => [gidOf('127.0.0.1')],
  });
  const attacker = RoceNet.acquire('127.0.0.2', port);
  await attacker.ready;
  const ATT_QPN = 0x77777;
  attacker.attach(ATT_QPN, { rx: () => {}, netError: () => {} });
  const failures: string[] = [];
  let units = 0;
  let qps = 0;
  let side: Side | null = null;
  const proto = makeIbSide('RC', rnic, { rqSize: 64 });
  rnic.qpDestroy(proto.qp);
  const mem: VictimMem | null = victimMem(proto);
  const digest = mem.digest();
  let psn = 0;
  const fresh = () => {
    if (side) {
      if (side.qp.state !== RiQpState.ERROR) side.qp.modify({ nextState: RiQpState.ERROR });
      const wcs: never[] = [];
      while (side.cq.poll(wcs, 64) > 0) {}
      rnic.qpDestroy(side.qp);
    }
    side = { ...proto, qp: must(rnic.qpCreate(qpInit(proto.pd, proto.cq, { service: 'RC', rqSize: 64 }))) };
    qps++;
    const st = ibToRts(side.qp, ATT_QPN, { pathMtu: 1, dgid: gidOf('127.0.0.2'), psn: 0, peerPsn: 0, timeout: 8, retryCnt: 1 });
    if (st !== RiRet.SUCCESS) throw new Error(`IB RTS ${RiRet[st]}`);
    for (let i = 0; i < 8; i++)
      postRq(side.qp, 0, BigInt(i), [{ stag: mem.recvMr.stag, to: hostMemory.addressOf(mem.recv) + BigInt((i % 4) * 256), len: 256 }]);
    psn = 0;
  };
  const net = (): RoceNet => (side!.qp.transport as unknown as { nets: RoceNet[] }).nets[0]!;
  try {
    fresh();
    const errors0 = net().stats.rxClientErrors;
    for (let s = 0; s < streams; s++) {
      // A QP that left RTS, or that a gap in PSNs has made deaf (it drops everything until the
      // missing PSN comes), is replaced: a fresh one every 16 streams keeps the coverage up.
      if (side!.qp.state !== RiQpState.READY_TO_SEND || s % 16 === 0) {
        if (mem!.digest() !== digest) failures.push(`before stream ${s}: memory outside the region changed`);
        fresh();
      }
      const v = net();
      const n = 1 + rng.int(4);
      const before = v.stats.rxPackets + v.stats.rxMalformed + v.stats.rxIcrcErrors + v.stats.rxNoQp;
      const base = hostMemory.addressOf(mem!.region);
      for (let i = 0; i < n; i++) {
        let pkt: Uint8Array;
        if (rng.int(3) === 0) {
          // A template aimed at the QP's memory, in or near sequence.
          const op = [
            IbOpcode.RC_SEND_ONLY,
            IbOpcode.RC_RDMA_WRITE_ONLY,
            IbOpcode.RC_RDMA_READ_REQUEST,
            IbOpcode.RC_SEND_FIRST,
            IbOpcode.RC_RDMA_WRITE_FIRST,
          ][rng.int(5)]!;
          const len =
            op === IbOpcode.RC_RDMA_READ_REQUEST
              ? 0
              : op === IbOpcode.RC_SEND_FIRST || op === IbOpcode.RC_RDMA_WRITE_FIRST
                ? 256
                : rng.int(300);
          const stag = [mem!.mr.stag, mem!.otherMr.stag, rng.u32()][rng.int(3)]!;
          const reth = {
            va: base + BigInt(rng.int(4200)) - 50n,
            rkey: stag,
            dmaLen: op === IbOpcode.RC_RDMA_READ_REQUEST ? rng.int(5000) : rng.int(600),
          };
          const hasReth = op === IbOpcode.RC_RDMA_WRITE_ONLY || op === IbOpcode.RC_RDMA_READ_REQUEST || op === IbOpcode.RC_RDMA_WRITE_FIRST;
          pkt = encodeIbPacket({
            bth: { ...newBth(op, side!.qp.id, (psn + rng.int(3) - 1) & 0xffffff), padCnt: ibPadCount(len), ackReq: true },
            payload: rng.bytes(len),
            ...(hasReth ? { reth } : {}),
          });
          psn = (psn + 1) & 0xffffff;
        } else {
          pkt = IB_SEEDS[rng.int(IB_SEEDS.length)]!.slice();
          // Aim it at the QP, near its expected PSN.
          pkt[5] = (side!.qp.id >> 16) & 0xff;
          pkt[6] = (side!.qp.id >> 8) & 0xff;
          pkt[7] = side!.qp.id & 0xff;
          const p = (psn + rng.int(3)) & 0xffffff;
          pkt[9] = p >> 16;
          pkt[10] = (p >> 8) & 0xff;
          pkt[11] = p & 0xff;
        }
        pkt = mutate(rng, pkt);
        if (pkt.length < 16) pkt = Uint8Array.from([...pkt, ...new Uint8Array(16 - pkt.length)]);
        attacker.send(pkt, '127.0.0.1');
      }
      units += n;
      // Wait until the victim's endpoint has seen the burst (UDP on loopback does not lose it
      // unless the receive buffer overflows; then give up after a few turns).
      for (let k = 0; k < 200; k++) {
        const seen = v.stats.rxPackets + v.stats.rxMalformed + v.stats.rxIcrcErrors + v.stats.rxNoQp;
        if (seen - before >= n) break;
        await new Promise((r) => setImmediate(r));
      }
      if (v.stats.rxClientErrors !== errors0 && failures.length < 10)
        failures.push(`stream ${s} (seed ${seed}): an exception escaped the RoCEv2 transport`);
    }
    await new Promise((r) => setTimeout(r, 10));
    if (mem!.digest() !== digest) failures.push('memory outside the region changed');
  } finally {
    const s = side as Side | null;
    if (s) {
      if (s.qp.state !== RiQpState.ERROR) s.qp.modify({ nextState: RiQpState.ERROR });
      rnic.qpDestroy(s.qp);
    }
    attacker.detach(ATT_QPN);
    attacker.release();
    probe.release();
  }
  return { transport: 'rocev2', streams, units, crashes: failures.length, failures: failures.slice(0, 10), qps, ms: Date.now() - t0 };
}

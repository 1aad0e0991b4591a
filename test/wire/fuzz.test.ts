/**
 * Fuzzing every wire decoder with 100,000 seeded random inputs each: nothing but a
 * TerminateError may escape, and nothing may hang (the suite has a timeout). Half the inputs
 * are mutated or truncated valid encodings so the deeper checks are reached, half are raw
 * random bytes. A failure prints the seed and the input.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FpduDeframer } from '../../src/wire/deframer.js';
import { TerminateError } from '../../src/wire/errors.js';
import { decodeFpdu, decodeMpaIrdOrd, decodeMpaReqRep, encodeFpdu, encodeMpaReqRep, MarkerInserter } from '../../src/wire/mpa.js';
import { decodeDdpHeader } from '../../src/wire/ddp.js';
import { decodeRdmapHeaderInto, encodeRdmapHeader, RdmapHeaderStruct, RdmapOpcode } from '../../src/wire/rdmap.js';
import { buildTerminate, decodeTerminate, decodeTerminateMessage, encodeTerminateMessage } from '../../src/wire/terminate.js';
import { concat, Prng, toHex } from './helpers.js';

const RUNS = 100_000;
const SEED = 0x1ce8a3;

const ut = (qn: number) => ({ tagged: false as const, last: true, rsvd: 0, version: 1, rsvdUlp: 0, rsvdUlp32: 0, qn, msn: 1, mo: 0 });
const READ_REQUEST = encodeRdmapHeader({
  ddp: ut(1),
  version: 1,
  rsvd: 0,
  opcode: RdmapOpcode.ReadRequest,
  readRequest: { sinkStag: 1, sinkTo: 2n, size: 3, srcStag: 4, srcTo: 5n },
});
const SEEDS: Uint8Array[] = [
  encodeMpaReqRep({
    type: 'request',
    markers: false,
    crc: true,
    reject: false,
    enhanced: true,
    res: 0,
    revision: 2,
    privateData: Uint8Array.from([0, 1, 0, 1, 9, 9]),
  }),
  encodeMpaReqRep({
    type: 'reply',
    markers: true,
    crc: false,
    reject: false,
    enhanced: false,
    res: 0,
    revision: 1,
    privateData: new Uint8Array(0),
  }),
  encodeRdmapHeader({
    ddp: { tagged: true, last: true, rsvd: 0, version: 1, rsvdUlp: 0, stag: 7, to: 8n },
    version: 1,
    rsvd: 0,
    opcode: RdmapOpcode.Write,
  }),
  encodeRdmapHeader({ ddp: ut(0), version: 1, rsvd: 0, opcode: RdmapOpcode.Send }),
  READ_REQUEST,
  encodeRdmapHeader({ ddp: ut(0), version: 1, rsvd: 0, opcode: RdmapOpcode.ImmediateData, immediateData: 1n }),
  encodeRdmapHeader({
    ddp: ut(3),
    version: 1,
    rsvd: 0,
    opcode: RdmapOpcode.AtomicResponse,
    atomicResponse: { originalRequestId: 1, originalValue: 2n },
  }),
  encodeTerminateMessage(buildTerminate(TerminateError.mpa(2), READ_REQUEST)),
  encodeTerminateMessage(buildTerminate(TerminateError.mpa(2))).subarray(18),
  buildTerminateBody(),
  encodeFpdu(READ_REQUEST, { crc: true }),
  encodeFpdu(new Uint8Array(3), { crc: false }),
];

function buildTerminateBody(): Uint8Array {
  return encodeTerminateMessage(buildTerminate(TerminateError.ddpCatastrophic(), READ_REQUEST)).subarray(18);
}

function input(rng: Prng): Uint8Array {
  if (rng.int(2)) return rng.bytes(rng.int(100));
  const b = SEEDS[rng.int(SEEDS.length)]!.slice();
  const muts = rng.int(4);
  for (let i = 0; i < muts && b.length; i++) b[rng.int(b.length)] = rng.u32() & 0xff;
  return rng.int(3) === 0 ? b.subarray(0, rng.int(b.length + 1)) : b;
}

function fuzz(name: string, decode: (b: Uint8Array, rng: Prng) => unknown): void {
  it(`${name}: ${RUNS} random inputs, only TerminateError escapes`, () => {
    const rng = new Prng(SEED ^ name.length);
    let ok = 0;
    let terminated = 0;
    for (let i = 0; i < RUNS; i++) {
      const b = input(rng);
      try {
        decode(b, rng);
        ok++;
      } catch (e) {
        if (!(e instanceof TerminateError)) {
          assert.fail(`${name}: input #${i} (seed ${SEED}) ${toHex(b)} threw ${String(e)}`);
        }
        terminated++;
      }
    }
    // Both outcomes must have been exercised, or the fuzzing proves nothing.
    assert.ok(ok > 0 && terminated > 0, `ok=${ok} terminated=${terminated}`);
  });
}

describe('fuzz', { timeout: 60_000 }, () => {
  fuzz('decodeMpaReqRep', (b, rng) => decodeMpaReqRep(b, rng.int(2) ? 'request' : undefined));
  fuzz('decodeMpaIrdOrd', (b) => decodeMpaIrdOrd(b));
  fuzz('decodeFpdu', (b, rng) => decodeFpdu(b, { crc: rng.int(2) === 1, maxUlpdu: rng.int(2) ? 64 : 0xffff }));
  fuzz('decodeDdpHeader', (b) => decodeDdpHeader(b));
  const s = new RdmapHeaderStruct();
  fuzz('decodeRdmapHeaderInto', (b) => decodeRdmapHeaderInto(b, 0, b.length, s));
  fuzz('decodeTerminate', (b) => decodeTerminate(b));
  fuzz('decodeTerminateMessage', (b) => decodeTerminateMessage(b));

  it(`FpduDeframer: ${RUNS} random chunks, with and without CRC and Markers`, () => {
    const rng = new Prng(SEED);
    let delivered = 0;
    let errors = 0;
    const make = () =>
      new FpduDeframer({
        maxUlpdu: rng.int(2) ? 256 : 0xffff,
        crc: rng.int(2) === 1,
        markers: rng.int(2) === 1,
        onFpdu: () => {
          delivered++;
        },
      });
    let d = make();
    let ins = new MarkerInserter(0);
    for (let i = 0; i < RUNS; i++) {
      // Mostly garbage, sometimes valid FPDUs (Markers framed from 0) so state carries over.
      const valid = rng.int(4) === 0 ? concat(ins.frame([rng.bytes(rng.int(600))], rng.int(2) === 1)) : undefined;
      const chunk = valid ?? input(rng);
      try {
        d.push(chunk);
      } catch (e) {
        if (!(e instanceof TerminateError)) assert.fail(`deframer chunk #${i}: ${toHex(chunk)} threw ${String(e)}`);
        errors++;
        d = make();
        ins = new MarkerInserter(0);
      }
    }
    assert.ok(errors > 0 && delivered > 0, `errors=${errors} delivered=${delivered}`);
  });
});

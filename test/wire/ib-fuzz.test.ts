/**
 * Fuzzing the InfiniBand packet decoder with 100,000 seeded inputs each: nothing but an
 * IbWireError may escape and nothing may hang. Half the inputs are mutated or truncated valid
 * packets (one of every opcode) so the deeper checks are reached, half raw random bytes. The
 * ID solver is fuzzed too: it must answer an ID or null, never throw, for any packet.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decodeAeth,
  decodeBth,
  decodeIbPacket,
  encodeIbPacket,
  IB_OPCODES,
  type IbPacket,
  IbWireError,
  ibPadCount,
  newBth,
  solveIpv4Id,
} from '../../src/wire/ib/index.js';
import { Prng, toHex } from './helpers.js';

const RUNS = 100_000;
const SEED = 0x4b17;

const SEEDS: Uint8Array[] = IB_OPCODES.flatMap((info, opcode) => {
  if (!info) return [];
  const len = info.payload ? (info.last ? 5 : 8) : 0;
  const p: IbPacket = {
    bth: { ...newBth(opcode, 0x11, 0xfffffe), padCnt: ibPadCount(len), ackReq: true },
    payload: new Uint8Array(len).fill(0xa5),
  };
  if (info.rethOffset >= 0) p.reth = { va: 0x1000n, rkey: 0x1234, dmaLen: 4096 };
  if (info.aethOffset >= 0) p.aeth = { syndrome: 0x1f, msn: 3 };
  if (info.atomicEthOffset >= 0) p.atomicEth = { va: 0x2000n, rkey: 1, swapAdd: 2n, compare: 3n };
  if (info.atomicAckEthOffset >= 0) p.atomicAckEth = { origData: 9n };
  if (info.dethOffset >= 0) p.deth = { qkey: 0x11111111, resv8: 0, srcQp: 0x22 };
  if (info.immDtOffset >= 0) p.immDt = 0xcafe;
  if (info.iethOffset >= 0) p.ieth = 0x77;
  return [encodeIbPacket(p)];
});

function input(rng: Prng): Uint8Array {
  if (rng.int(2)) return rng.bytes(rng.int(100));
  const b = SEEDS[rng.int(SEEDS.length)]!.slice();
  const muts = rng.int(4);
  for (let i = 0; i < muts && b.length; i++) b[rng.int(b.length)] = rng.u32() & 0xff;
  return rng.int(3) === 0 ? b.subarray(0, rng.int(b.length + 1)) : b;
}

function fuzz(name: string, decode: (b: Uint8Array) => unknown, expectBoth = true): void {
  it(`${name}: ${RUNS} random inputs, only IbWireError escapes`, () => {
    const rng = new Prng(SEED ^ name.length);
    let ok = 0;
    let dropped = 0;
    for (let i = 0; i < RUNS; i++) {
      const b = input(rng);
      try {
        decode(b);
        ok++;
      } catch (e) {
        if (!(e instanceof IbWireError)) assert.fail(`${name}: input #${i} (seed ${SEED}) ${toHex(b)} threw ${String(e)}`);
        dropped++;
      }
    }
    if (expectBoth) assert.ok(ok > 0 && dropped > 0, `ok=${ok} dropped=${dropped}`);
  });
}

describe('IB fuzz', { timeout: 120_000 }, () => {
  fuzz('decodeIbPacket', (b) => decodeIbPacket(b));
  fuzz('decodeBth', (b) => decodeBth(b));
  fuzz('decodeAeth', (b) => decodeAeth(b));
  const ip = { src: Uint8Array.of(10, 0, 0, 1), dst: Uint8Array.of(10, 0, 0, 2), srcPort: 4791, dstPort: 4791 };
  fuzz('decodeIbPacket + solveIpv4Id', (b) => {
    const p = decodeIbPacket(b);
    const r = solveIpv4Id(ip, b);
    assert.ok(r === null || (r.ipId >= 0 && r.ipId <= 0xffff), String(p.bth.opcode));
  });
});

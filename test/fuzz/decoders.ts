/**
 * Every wire decoder as a fuzz target: valid encodings to mutate from, the decoder
 * run on one input, and the one error class it may throw (a protocol error that becomes a
 * Terminate, an IB drop, a MAD drop). Anything else escaping, or a decoder that does not return,
 * is a bug.
 */
import { FpduDeframer } from '../../src/wire/deframer.js';
import { decodeDdpHeader } from '../../src/wire/ddp.js';
import { TerminateError } from '../../src/wire/errors.js';
import {
  decodeAeth,
  decodeAtomicAckEth,
  decodeAtomicEth,
  decodeBth,
  decodeDeth,
  decodeIbPacket,
  decodeIeth,
  decodeImmDt,
  decodeReth,
  encodeIbPacket,
  IB_OPCODES,
  type IbPacket,
  IbWireError,
  ibPadCount,
  newBth,
  solveIpv4Id,
} from '../../src/wire/ib/index.js';
import { decodeCmaHdr, decodeCmMad } from '../../src/wire/ib/cm.js';
import { decodeMadHeader, MadWireError } from '../../src/wire/ib/mad.js';
import {
  decodeFpdu,
  decodeMpaIrdOrd,
  decodeMpaMarker,
  decodeMpaReqRep,
  encodeFpdu,
  encodeMpaIrdOrd,
  encodeMpaReqRep,
} from '../../src/wire/mpa.js';
import { decodeRdmapHeader, decodeRdmapHeaderInto, encodeRdmapHeader, RdmapHeaderStruct, RdmapOpcode } from '../../src/wire/rdmap.js';
import {
  buildTerminate,
  decodeTerminate,
  decodeTerminatedReadRequest,
  decodeTerminateMessage,
  encodeTerminateMessage,
} from '../../src/wire/terminate.js';

export interface DecoderTarget {
  readonly name: string;
  /** Valid encodings the mutator starts from. */
  readonly seeds: readonly Uint8Array[];
  /** Runs the decoder on `b` (`bit` chooses between its options). */
  run(b: Uint8Array, bit: number): unknown;
  /** The error class the decoder may throw on bad input. */
  readonly allowed: new (
    ...args: never[]
  ) => Error;
}

const ut = (qn: number, msn = 1) => ({ tagged: false as const, last: true, rsvd: 0, version: 1, rsvdUlp: 0, rsvdUlp32: 0, qn, msn, mo: 0 });
const READ_REQUEST = encodeRdmapHeader({
  ddp: ut(1),
  version: 1,
  rsvd: 0,
  opcode: RdmapOpcode.ReadRequest,
  readRequest: { sinkStag: 1, sinkTo: 2n, size: 3, srcStag: 4, srcTo: 5n },
});
const WRITE = encodeRdmapHeader({
  ddp: { tagged: true, last: true, rsvd: 0, version: 1, rsvdUlp: 0, stag: 7, to: 8n },
  version: 1,
  rsvd: 0,
  opcode: RdmapOpcode.Write,
});
const SEND = encodeRdmapHeader({ ddp: ut(0), version: 1, rsvd: 0, opcode: RdmapOpcode.Send });
const TERMINATE = encodeTerminateMessage(buildTerminate(TerminateError.mpa(2), READ_REQUEST));

/** iWARP seeds: MPA frames, DDP/RDMAP headers of several opcodes, Terminates, FPDUs. */
export const IWARP_SEEDS: readonly Uint8Array[] = [
  encodeMpaReqRep({
    type: 'request',
    markers: false,
    crc: true,
    reject: false,
    enhanced: true,
    res: 0,
    revision: 2,
    privateData: encodeMpaIrdOrd({
      ird: 8,
      ord: 8,
      peerToPeer: true,
      zeroLengthSendRtr: false,
      zeroLengthWriteRtr: true,
      zeroLengthReadRtr: false,
    }),
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
  WRITE,
  SEND,
  READ_REQUEST,
  encodeRdmapHeader({ ddp: ut(0), version: 1, rsvd: 0, opcode: RdmapOpcode.ImmediateData, immediateData: 1n }),
  encodeRdmapHeader({
    ddp: ut(3),
    version: 1,
    rsvd: 0,
    opcode: RdmapOpcode.AtomicResponse,
    atomicResponse: { originalRequestId: 1, originalValue: 2n },
  }),
  TERMINATE,
  TERMINATE.subarray(18),
  READ_REQUEST.subarray(18),
  encodeFpdu(READ_REQUEST, { crc: true }),
  encodeFpdu(SEND, { crc: false }),
  Uint8Array.of(0, 0, 0, 4),
];

/** IB seeds: one packet of every opcode, with each extension header it has. */
export const IB_SEEDS: readonly Uint8Array[] = IB_OPCODES.flatMap((info, opcode) => {
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

/** A CM MAD seed: a valid MAD header of class CM (the body is zeros, which some messages accept). */
function cmMadSeed(attrId: number): Uint8Array {
  const b = new Uint8Array(256);
  b[0] = 1; // BaseVersion
  b[1] = 0x07; // MgmtClass CM
  b[2] = 2; // ClassVersion
  b[3] = 0x03; // Method Send
  b[16] = attrId >> 8;
  b[17] = attrId & 0xff;
  return b;
}
const MAD_SEEDS: readonly Uint8Array[] = [0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19].map(cmMadSeed);
const CMA_SEED = Uint8Array.from([0, 0x40, 0x12, 0x34, ...new Array(32).fill(0)]);

const rdmapStruct = new RdmapHeaderStruct();
const IP = { src: Uint8Array.of(10, 0, 0, 1), dst: Uint8Array.of(10, 0, 0, 2), srcPort: 4791, dstPort: 4791 };

export const DECODERS: readonly DecoderTarget[] = [
  {
    name: 'decodeMpaReqRep',
    seeds: IWARP_SEEDS,
    allowed: TerminateError,
    run: (b, bit) => decodeMpaReqRep(b, bit ? 'request' : undefined),
  },
  { name: 'decodeMpaIrdOrd', seeds: IWARP_SEEDS, allowed: TerminateError, run: (b) => decodeMpaIrdOrd(b) },
  {
    name: 'decodeFpdu',
    seeds: IWARP_SEEDS,
    allowed: TerminateError,
    run: (b, bit) => decodeFpdu(b, { crc: (bit & 1) === 1, maxUlpdu: bit & 2 ? 64 : 0xffff }),
  },
  { name: 'decodeMpaMarker', seeds: IWARP_SEEDS, allowed: TerminateError, run: (b) => decodeMpaMarker(b) },
  { name: 'decodeDdpHeader', seeds: IWARP_SEEDS, allowed: TerminateError, run: (b) => decodeDdpHeader(b) },
  {
    name: 'decodeRdmapHeaderInto',
    seeds: IWARP_SEEDS,
    allowed: TerminateError,
    run: (b) => decodeRdmapHeaderInto(b, 0, b.length, rdmapStruct),
  },
  { name: 'decodeRdmapHeader', seeds: IWARP_SEEDS, allowed: TerminateError, run: (b) => decodeRdmapHeader(b) },
  { name: 'decodeTerminate', seeds: IWARP_SEEDS, allowed: TerminateError, run: (b) => decodeTerminate(b) },
  { name: 'decodeTerminateMessage', seeds: IWARP_SEEDS, allowed: TerminateError, run: (b) => decodeTerminateMessage(b) },
  { name: 'decodeTerminatedReadRequest', seeds: IWARP_SEEDS, allowed: TerminateError, run: (b) => decodeTerminatedReadRequest(b) },
  {
    name: 'FpduDeframer',
    seeds: IWARP_SEEDS,
    allowed: TerminateError,
    run(b, bit) {
      // One deframer per input, fed in two chunks split at a point the input chooses.
      const d = new FpduDeframer({ maxUlpdu: bit & 1 ? 256 : 0xffff, crc: (bit & 2) !== 0, markers: (bit & 4) !== 0, onFpdu: () => {} });
      const cut = b.length ? b[0]! % (b.length + 1) : 0;
      d.push(b.subarray(0, cut));
      d.push(b.subarray(cut));
    },
  },
  { name: 'decodeIbPacket', seeds: IB_SEEDS, allowed: IbWireError, run: (b) => decodeIbPacket(b) },
  { name: 'decodeBth', seeds: IB_SEEDS, allowed: IbWireError, run: (b) => decodeBth(b) },
  { name: 'decodeReth', seeds: IB_SEEDS, allowed: IbWireError, run: (b) => decodeReth(b, 12) },
  { name: 'decodeAeth', seeds: IB_SEEDS, allowed: IbWireError, run: (b) => decodeAeth(b, 12) },
  { name: 'decodeAtomicEth', seeds: IB_SEEDS, allowed: IbWireError, run: (b) => decodeAtomicEth(b, 12) },
  { name: 'decodeAtomicAckEth', seeds: IB_SEEDS, allowed: IbWireError, run: (b) => decodeAtomicAckEth(b, 16) },
  { name: 'decodeDeth', seeds: IB_SEEDS, allowed: IbWireError, run: (b) => decodeDeth(b, 12) },
  { name: 'decodeImmDt', seeds: IB_SEEDS, allowed: IbWireError, run: (b) => decodeImmDt(b, 12) },
  { name: 'decodeIeth', seeds: IB_SEEDS, allowed: IbWireError, run: (b) => decodeIeth(b, 12) },
  {
    name: 'solveIpv4Id',
    seeds: IB_SEEDS,
    allowed: IbWireError,
    run(b) {
      const r = solveIpv4Id(IP, b);
      if (r !== null && (r.ipId < 0 || r.ipId > 0xffff)) throw new Error(`IPv4 ID ${r.ipId}`);
    },
  },
  { name: 'decodeMadHeader', seeds: MAD_SEEDS, allowed: MadWireError, run: (b) => decodeMadHeader(b) },
  { name: 'decodeCmMad', seeds: MAD_SEEDS, allowed: MadWireError, run: (b) => decodeCmMad(b) },
  { name: 'decodeCmaHdr', seeds: [CMA_SEED], allowed: MadWireError, run: (b) => decodeCmaHdr(b) },
];

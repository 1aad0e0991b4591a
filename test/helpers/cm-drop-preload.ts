/**
 * A preload (`node --import …/cm-drop-preload.js PROGRAM`) that loses IB CM messages on the
 * wire of an unmodified program: every RoCEv2 endpoint the process opens gets the fault tap of
 * the tests (RoceNet.setTap), which drops the FIRST datagram of each CM message kind named in
 * `SOFTRDMA_TEST_CM_DROP` (e.g. `REQ,REP,RTU,DREQ,SIDR_REQ`) that this process sends to QP1.
 * Each loss is reported on stderr as `cm-drop: dropped KIND`, so a test can check that it
 * happened and that the program still completed: the CM's retransmission recovered it (IBTA
 * Communication Management, "Retries and Timeouts").
 */
import { RoceNet, type RoceTap } from '../../src/roce/net.js';
import { decodeCmMad } from '../../src/wire/ib/cm.js';

const want = new Set(
  (process.env.SOFTRDMA_TEST_CM_DROP ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const dropped = new Set<string>();

/** The CM message kind of a RoCEv2 packet (BTH at 0) to QP1, or null. */
function madKind(pkt: Uint8Array): string | null {
  const destQp = (pkt[5]! << 16) | (pkt[6]! << 8) | pkt[7]!;
  // BTH (12) + DETH (8) + the 256-octet MAD.
  if (destQp !== 1 || pkt.length < 12 + 8 + 256) return null;
  try {
    return decodeCmMad(pkt.subarray(20, 276)).msg.kind;
  } catch {
    return null;
  }
}

const tap: RoceTap = (pkt) => {
  const k = madKind(pkt);
  if (k === null || !want.has(k) || dropped.has(k)) return 'pass';
  dropped.add(k);
  process.stderr.write(`cm-drop: dropped ${k}\n`);
  return 'drop';
};

const acquire = RoceNet.acquire.bind(RoceNet);
RoceNet.acquire = (address: string, port?: number): RoceNet => {
  const n = acquire(address, port);
  n.setTap(tap);
  return n;
};

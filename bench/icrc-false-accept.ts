/**
 * How often a corrupted RoCEv2 packet passes the receive ICRC check, measured: random 1–4-octet
 * corruptions (of the octets the ICRC covers) of an RDMA WRITE ONLY (RETH, 64 octets of payload), checked as `net.ts` checks them
 * (the IPv4 ID solved for from the ICRC), once with any ID accepted and once with the peer's
 * IPv4 ID window (`src/roce/ipid-window.ts`). Two senders: one that sends DF and ID 0 (softrdma
 * with `IP_PMTUDISC_DO`), one whose IDs count up by one (Linux rxe's kernel counter).
 *
 *     npm run icrc:false-accept [-- N [seed]]      (default N = 1,000,000)
 */
import { IpIdWindow } from '../src/roce/ipid-window.js';
import {
  encodeIbPacket,
  IbOpcode,
  ibPadCount,
  IPV4_FLAGS_DF,
  newBth,
  type RoceIpHeader,
  solveIpv4Id,
  writeIcrc,
} from '../src/wire/ib/index.js';

/** The outcome for one sender. */
export interface FalseAccepts {
  sender: 'zero' | 'counter';
  packets: number;
  /** Corrupted packets some IPv4 ID makes valid: accepted without the window. */
  withoutWindow: number;
  /** Those the peer's window also accepts. */
  withWindow: number;
}

/** A small seeded PRNG (mulberry32), so that a run can be repeated. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SRC = Uint8Array.from([10, 0, 0, 1]);
const DST = Uint8Array.from([10, 0, 0, 2]);
const PEER = '10.0.0.1';
/** The BTH octet the ICRC does not cover (its variant bits are masked to ones). */
const MASKED_OCTET = 4;

/** Corrupts `n` packets from one sender; see the module header. */
export function measureFalseAccepts(sender: 'zero' | 'counter', n: number, seed = 1): FalseAccepts {
  const rnd = prng(seed);
  const payload = Uint8Array.from({ length: 64 }, (_, i) => (i * 7) & 0xff);
  const pkt = encodeIbPacket({
    bth: { ...newBth(IbOpcode.RC_RDMA_WRITE_ONLY, 0x1234, 0x100), padCnt: ibPadCount(payload.length), ackReq: true },
    reth: { va: 0x7f00_0000_1000n, rkey: 0x1234_5678, dmaLen: payload.length },
    payload,
  });
  const ip: RoceIpHeader = { src: SRC, dst: DST, srcPort: 49152, dstPort: 4791, ipId: 0, flagsFrag: IPV4_FLAGS_DF };
  const win = new IpIdWindow();
  const copy = new Uint8Array(pkt.length);
  let id = sender === 'zero' ? 0 : Math.floor(rnd() * 0x10000);
  const out: FalseAccepts = { sender, packets: n, withoutWindow: 0, withWindow: 0 };
  for (let i = 0; i < n; i++) {
    // The legitimate packet the corrupted one was made from, accepted first (the window knows
    // the peer), then the next one corrupted on its way.
    if (sender === 'counter') id = (id + 1) & 0xffff;
    win.accept(PEER, id, IPV4_FLAGS_DF);
    if (sender === 'counter') id = (id + 1) & 0xffff;
    ip.ipId = id;
    writeIcrc(ip, pkt);
    copy.set(pkt);
    const k = 1 + Math.floor(rnd() * 4);
    for (let j = 0; j < k; j++) {
      // Any octet but the BTH's fifth (FECN, BECN and reserved bits): the ICRC masks it (IBTA
      // Vol. 1 §7.8.1), the network may change it, and no receiver can see it changed.
      let at = Math.floor(rnd() * (copy.length - 1));
      if (at >= MASKED_OCTET) at++;
      copy[at]! ^= 1 + Math.floor(rnd() * 255);
    }
    if (copy.every((x, m) => x === pkt[m])) continue;
    if (solveIpv4Id(ip, copy) === null) continue;
    out.withoutWindow++;
    if (solveIpv4Id(ip, copy, (ipId, flags) => win.accept(PEER, ipId, flags)) !== null) out.withWindow++;
  }
  return out;
}

const rate = (k: number, n: number) => (k === 0 ? `0 in ${n.toLocaleString('en')}` : `1 in ${Math.round(n / k).toLocaleString('en')}`);

if (process.argv[1]?.endsWith('icrc-false-accept.js')) {
  const n = Number(process.argv[2] ?? 1_000_000);
  const seed = Number(process.argv[3] ?? 1);
  for (const sender of ['zero', 'counter'] as const) {
    const r = measureFalseAccepts(sender, n, seed);
    process.stdout.write(
      `${sender.padEnd(8)} ${n.toLocaleString('en')} corrupted WRITEs: accepted without the window ${r.withoutWindow} (${rate(r.withoutWindow, n)}), with it ${r.withWindow} (${rate(r.withWindow, n)})\n`,
    );
  }
}

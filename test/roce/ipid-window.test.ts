/**
 * The receive ICRC check with the peer's IPv4 ID window (`src/roce/ipid-window.ts`): a packet
 * whose ICRC fits only an ID its sender would not have used is refused, a counter's jump is
 * re-learned from two agreeing packets, memory stays bounded under spoofed sources, and a
 * sample of random corruptions of a WRITE gets none through (the 10^6 run is
 * `npm run icrc:false-accept`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { measureFalseAccepts } from '../../bench/icrc-false-accept.js';
import { AHEAD, BEHIND, IpIdWindow, MAX_PEERS, SEGMENT_RUN_IDS } from '../../src/roce/ipid-window.js';
import {
  encodeIbPacket,
  IbOpcode,
  ibPadCount,
  IPV4_FLAGS_DF,
  newBth,
  type RoceIpHeader,
  solveIpv4Id,
  writeIcrc,
} from '../../src/wire/ib/index.js';

const ip = (ipId: number): RoceIpHeader => ({
  src: Uint8Array.from([10, 0, 0, 1]),
  dst: Uint8Array.from([10, 0, 0, 2]),
  srcPort: 49152,
  dstPort: 4791,
  ipId,
  flagsFrag: IPV4_FLAGS_DF,
});

/** An RDMA WRITE ONLY whose ICRC is valid for `ipId` (a 4-octet corruption of the ICRC of one valid for another ID). */
function write(ipId: number): Uint8Array {
  const payload = new Uint8Array(64).fill(0xee);
  const p = encodeIbPacket({
    bth: { ...newBth(IbOpcode.RC_RDMA_WRITE_ONLY, 0x1234, 0x100), padCnt: ibPadCount(payload.length), ackReq: true },
    reth: { va: 0x1000n, rkey: 0x1234_5678, dmaLen: payload.length },
    payload,
  });
  writeIcrc(ip(ipId), p);
  return p;
}

const check = (w: IpIdWindow, id: number, peer = '10.0.0.1') =>
  solveIpv4Id(ip(0), write(id), (ipId, f) => w.accept(peer, ipId, f)) !== null;

describe('RoCEv2 receive: the IPv4 ID window', () => {
  it('a sender of ID 0 (softrdma, DF): a packet whose ICRC fits an ID beyond a segment run is refused, though the ID alone would make it valid', () => {
    const w = new IpIdWindow();
    assert.ok(check(w, 0), 'learned from its first packet');
    for (let i = 0; i < 500; i++) {
      const id = SEGMENT_RUN_IDS + (((i * 2_654_435_761) >>> 16) % (0x10000 - SEGMENT_RUN_IDS));
      assert.ok(solveIpv4Id(ip(0), write(id)) !== null, 'without the window any ID is accepted');
      assert.equal(check(w, id), false, `ID ${id} accepted from a zero sender`);
      assert.ok(check(w, 0), "the sender's next packet (ID 0) is accepted");
    }
  });

  it("a zero sender's UDP_SEGMENT runs (IDs 0, 1, … per run, as Linux numbers the segments) are accepted run after run", () => {
    const w = new IpIdWindow();
    for (let run = 0; run < 3; run++) for (let k = 0; k < SEGMENT_RUN_IDS; k++) assert.ok(check(w, k), `run ${run} segment ${k}`);
    assert.equal(check(w, SEGMENT_RUN_IDS), false, 'an ID one past the longest run');
    assert.equal(w.refused, 1);
  });

  it('a counter sender (Linux rxe): IDs a little behind or ahead are accepted, far ones refused; a jump is re-learned from the next packet', () => {
    const w = new IpIdWindow(MAX_PEERS, () => 1000);
    const L = 0xfff0;
    assert.ok(check(w, L));
    assert.ok(check(w, (L + 1) & 0xffff), 'the next ID (wrapping past 0xFFFF)');
    assert.ok(check(w, (L + 5) & 0xffff), 'a few skipped');
    assert.ok(check(w, (L + 2) & 0xffff), 'reordered');
    const last = (L + 5) & 0xffff;
    assert.equal(check(w, (last + AHEAD + 1) & 0xffff), false, 'past the window');
    assert.equal(check(w, (last - BEHIND - 1) & 0xffff), false, 'before the window');
    assert.equal(check(w, (last + 0x8000) & 0xffff), false, 'half the space away');
    // An idle counter jumped: the first packet is refused, the next one (agreeing) re-learns it.
    const j = (last + 5000) & 0xffff;
    assert.equal(check(w, j), false);
    assert.ok(check(w, (j + 1) & 0xffff));
    assert.ok(check(w, (j + 2) & 0xffff));
    assert.equal(check(w, last), false, 'the old place is behind the window now');
    assert.equal(w.relearned, 1);
  });

  it("a counter sender after a pause (Linux's idle jump, below the jiffies elapsed): the window's ahead side grows by the milliseconds since its last packet", () => {
    let now = 5000;
    const w = new IpIdWindow(MAX_PEERS, () => now);
    const L = 0xff00;
    assert.ok(check(w, L));
    // 2 s of silence: a jump of up to 2,000 IDs (HZ ≤ 1000) plus the usual steps is the counter's.
    now += 2000;
    const j = (L + AHEAD + 1900) & 0xffff;
    assert.ok(check(w, j), 'the first packet after the pause, the only one a UD ping sends');
    assert.equal(w.relearned, 0);
    // The window is back to its width right after: the same jump again, with no pause, is refused.
    assert.equal(check(w, (j + AHEAD + 1900) & 0xffff), false, 'a jump with no pause');
    assert.ok(check(w, (j + 1) & 0xffff), "the counter's next ID");
    // A jump larger than the pause allows is still refused (and learned as a candidate).
    now += 100;
    assert.equal(check(w, (j + 1 + AHEAD + 200) & 0xffff), false, 'a jump larger than 100 ms explains');
    // After 65.5 s of silence, any ID fits: the ICRC alone checks the first packet.
    now += 70_000;
    assert.ok(check(w, (j + 0x7000) & 0xffff));
  });

  it('memory stays bounded under 10,000 spoofed sources; an active peer among them is still accepted', () => {
    const w = new IpIdWindow();
    assert.ok(w.accept('10.9.9.9', 0, IPV4_FLAGS_DF));
    for (let i = 0; i < 10_000; i++) {
      w.accept(`10.1.${i >> 8}.${i & 255}`, i & 0xffff, IPV4_FLAGS_DF);
      if (i % 500 === 0) assert.ok(w.accept('10.9.9.9', 0, IPV4_FLAGS_DF));
      assert.ok(w.size <= MAX_PEERS);
    }
    assert.equal(w.size, MAX_PEERS);
    assert.ok(w.knows('10.9.9.9'), 'the active peer was evicted by the flood');
    assert.ok(!w.knows('10.1.0.0'), 'the oldest spoofed source is still held');
  });

  it('random 1–4-octet corruptions of a WRITE (20,000 per sender): the window lets none through', () => {
    for (const sender of ['zero', 'counter'] as const) {
      const r = measureFalseAccepts(sender, 20_000, 7);
      assert.equal(r.withWindow, 0, `${sender}: ${JSON.stringify(r)}`);
    }
  });
});

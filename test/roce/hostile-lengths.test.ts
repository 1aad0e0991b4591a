/**
 * Issue 17, RoCEv2 hostile peer, lengths and PSNs: a raw peer takes one side's place on the wire
 * and sends oversize Sends (one packet and multi-packet, past the posted receive), Writes past
 * their DMA Length or their region, Read Requests past their region (up to 2^32 − 1 octets), and
 * a message whose PSNs or opcodes change mid-way. Each gets the NAK Linux rxe sends (IBTA
 * "Responder Error Behavior": NAK-Invalid Request for a length or opcode-sequence violation,
 * NAK-Remote Access Error for a range outside the region, a PSN Sequence Error NAK for a gap),
 * and no octet outside the targeted region changes: every region sits between guard bytes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostMemory } from '../../src/rnic/hostmem.js';
import type { RoceRx } from '../../src/roce/net.js';
import type { RoceQp } from '../../src/roce/transport.js';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiQpState, RiWcStatus } from '../../src/rnicpi/types.js';
import { AethType, aethType, encodeIbPacket, IbOpcode, ibPadCount, NakCode, newBth } from '../../src/wire/ib/index.js';
import { connectPair, makeIbSide, pollN, recv, reg, sge, until } from '../helpers/engine.js';

const va = (b: Uint8Array) => hostMemory.addressOf(b);
const GUARD = 64;
const G = 0xa5;

/** A region of `n` octets between guard bytes; `intact()` checks the guards. */
function guarded(n: number): { all: Uint8Array; region: Uint8Array; intact(): boolean } {
  const all = new Uint8Array(GUARD + n + GUARD).fill(G);
  const region = all.subarray(GUARD, GUARD + n);
  region.fill(0);
  return { all, region, intact: () => all.subarray(0, GUARD).every((x) => x === G) && all.subarray(GUARD + n).every((x) => x === G) };
}

/** An RC pair at path MTU 256 whose B side is replaced by the test on the wire. */
async function rawPeer() {
  const a = makeIbSide('RC');
  const b = makeIbSide('RC');
  const p = await connectPair(a, b, { transport: 'rocev2', pathMtu: 1 });
  const bq = b.qp.transport as unknown as RoceQp;
  const net = bq.nets[0]!;
  net.detach(b.qp.id, bq);
  const got: RoceRx[] = [];
  net.attach(b.qp.id, { rx: (r) => got.push(r), netError: () => {} });
  return {
    a,
    got,
    inject(op: number, psn: number, extra: object = {}, len = 0) {
      const payload = new Uint8Array(len).fill(0xee);
      net.send(
        encodeIbPacket({ bth: { ...newBth(op, a.qp.id, psn), padCnt: ibPadCount(payload.length), ackReq: true }, payload, ...extra }),
        '127.0.0.1',
      );
    },
    async close() {
      net.detach(b.qp.id);
      await p.close();
    },
  };
}

const acks = (got: RoceRx[]) =>
  got.filter((r) => r.pkt.bth.opcode === IbOpcode.RC_ACKNOWLEDGE).map((r) => [r.pkt.bth.psn, r.pkt.aeth!.syndrome] as const);
const naks = (got: RoceRx[]) => acks(got).filter(([, s]) => aethType(s) === AethType.Nak);

async function expectNak(r: Awaited<ReturnType<typeof rawPeer>>, psn: number, code: NakCode, toError = true): Promise<void> {
  await until(() => naks(r.got).length > 0, 3000, 'NAK');
  await new Promise((res) => setTimeout(res, 30));
  const n = naks(r.got);
  assert.deepEqual(n[0]!.slice(0), [psn, 0x60 | code], `first NAK (all: ${JSON.stringify(n)})`);
  if (toError) await until(() => r.a.qp.state === RiQpState.ERROR, 3000, 'the responder in Error');
  else assert.equal(r.a.qp.state, RiQpState.READY_TO_SEND);
}

function noReadResponse(got: RoceRx[]): void {
  const resp = got.filter(
    (x) => x.pkt.bth.opcode >= IbOpcode.RC_RDMA_READ_RESPONSE_FIRST && x.pkt.bth.opcode <= IbOpcode.RC_RDMA_READ_RESPONSE_ONLY,
  );
  assert.equal(resp.length, 0, 'no Read Response octet on the wire');
}

describe('RoCEv2 RC responder against oversize lengths and mid-message PSN games (the NAK rxe sends, no memory touched)', () => {
  it('a SEND ONLY of 200 octets into a 64-octet receive: NAK-Invalid Request, the receive completes in error, the guards unchanged', async () => {
    const r = await rawPeer();
    try {
      const g = guarded(64);
      const m = reg(r.a, g.all);
      assert.equal(recv(r.a.qp, 1n, [sge(m, g.all, GUARD, 64)]), RiRet.SUCCESS);
      r.inject(IbOpcode.RC_SEND_ONLY, 0, {}, 200);
      await expectNak(r, 0, NakCode.InvalidRequest);
      const [w] = await pollN(r.a.cq, 1, 3000);
      assert.notEqual(w!.op_status, RiWcStatus.SUCCESS);
      assert.ok(g.intact(), 'guards unchanged');
    } finally {
      await r.close();
    }
  });

  it('a multi-packet Send (FIRST, MIDDLE, LAST of 256 each) into a 300-octet receive: NAK-Invalid Request at the MIDDLE that overflows, the guards unchanged', async () => {
    const r = await rawPeer();
    try {
      const g = guarded(300);
      const m = reg(r.a, g.all);
      assert.equal(recv(r.a.qp, 1n, [sge(m, g.all, GUARD, 300)]), RiRet.SUCCESS);
      r.inject(IbOpcode.RC_SEND_FIRST, 0, {}, 256);
      r.inject(IbOpcode.RC_SEND_MIDDLE, 1, {}, 256);
      r.inject(IbOpcode.RC_SEND_LAST, 2, {}, 256);
      await expectNak(r, 1, NakCode.InvalidRequest);
      const [w] = await pollN(r.a.cq, 1, 3000);
      assert.notEqual(w!.op_status, RiWcStatus.SUCCESS);
      assert.ok(g.intact(), 'guards unchanged');
    } finally {
      await r.close();
    }
  });

  it('an RDMA WRITE ONLY inside its DMA Length but past the end of its region: NAK-Remote Access Error, nothing written', async () => {
    const r = await rawPeer();
    try {
      const g = guarded(128);
      const m = reg(r.a, g.region);
      r.inject(IbOpcode.RC_RDMA_WRITE_ONLY, 0, { reth: { va: va(g.region) + 120n, rkey: m.stag, dmaLen: 16 } }, 16);
      await expectNak(r, 0, NakCode.RemoteAccessError);
      assert.ok(
        g.region.every((x) => x === 0),
        'nothing written in the region',
      );
      assert.ok(g.intact(), 'guards unchanged');
    } finally {
      await r.close();
    }
  });

  it('an RDMA WRITE FIRST + LAST carrying 512 octets against a DMA Length of 300: NAK-Invalid Request at the LAST, nothing past the region', async () => {
    const r = await rawPeer();
    try {
      const g = guarded(300);
      const m = reg(r.a, g.region);
      r.inject(IbOpcode.RC_RDMA_WRITE_FIRST, 0, { reth: { va: va(g.region), rkey: m.stag, dmaLen: 300 } }, 256);
      r.inject(IbOpcode.RC_RDMA_WRITE_LAST, 1, {}, 256);
      await expectNak(r, 1, NakCode.InvalidRequest);
      assert.ok(g.intact(), 'guards unchanged');
    } finally {
      await r.close();
    }
  });

  for (const dmaLen of [200, 0xffff_ffff]) {
    it(`an RDMA READ Request of ${dmaLen} octets from a 128-octet region: NAK-Remote Access Error, no Read Response`, async () => {
      const r = await rawPeer();
      try {
        const g = guarded(128);
        const m = reg(r.a, g.region);
        r.inject(IbOpcode.RC_RDMA_READ_REQUEST, 0, { reth: { va: va(g.region), rkey: m.stag, dmaLen } });
        await expectNak(r, 0, NakCode.RemoteAccessError);
        noReadResponse(r.got);
        assert.ok(g.intact(), 'guards unchanged');
      } finally {
        await r.close();
      }
    });
  }

  it('a PSN gap mid-message (WRITE FIRST at 0, LAST at 2): one PSN Sequence Error NAK for 1, the QP stays up; the LAST at 1 then completes the Write in its region', async () => {
    const r = await rawPeer();
    try {
      const g = guarded(512);
      const m = reg(r.a, g.region);
      r.inject(IbOpcode.RC_RDMA_WRITE_FIRST, 0, { reth: { va: va(g.region), rkey: m.stag, dmaLen: 512 } }, 256);
      r.inject(IbOpcode.RC_RDMA_WRITE_LAST, 2, {}, 256);
      await expectNak(r, 1, NakCode.PsnSequenceError, false);
      r.inject(IbOpcode.RC_RDMA_WRITE_LAST, 1, {}, 256);
      await until(() => acks(r.got).some(([p, s]) => p === 1 && aethType(s) === AethType.Ack), 3000, 'ACK of the LAST');
      assert.ok(
        g.region.every((x) => x === 0xee),
        'the Write landed in full',
      );
      assert.ok(g.intact(), 'guards unchanged');
    } finally {
      await r.close();
    }
  });

  it('a SEND ONLY in the middle of an RDMA WRITE message (FIRST at 0, SEND at 1): NAK-Invalid Request at 1, nothing past the region', async () => {
    const r = await rawPeer();
    try {
      const g = guarded(512);
      const m = reg(r.a, g.region);
      const rb = guarded(64);
      const mr = reg(r.a, rb.all);
      assert.equal(recv(r.a.qp, 1n, [sge(mr, rb.all, GUARD, 64)]), RiRet.SUCCESS);
      r.inject(IbOpcode.RC_RDMA_WRITE_FIRST, 0, { reth: { va: va(g.region), rkey: m.stag, dmaLen: 512 } }, 256);
      r.inject(IbOpcode.RC_SEND_ONLY, 1, {}, 8);
      await expectNak(r, 1, NakCode.InvalidRequest);
      assert.ok(g.intact() && rb.intact(), 'guards unchanged');
      assert.ok(
        rb.region.every((x) => x === 0),
        'the Send was not placed',
      );
    } finally {
      await r.close();
    }
  });
});

/**
 * InfiniBand QPs in the RNIC core (IBTA Vol. 1 §10.3.1, §11.2.4.2): the IB state set from the
 * qp-states.ts table, all-or-nothing Modify with the IB attributes, the transport seam
 * (`registerIbBinder`) tried with an in-test fake transport, SQD and SQE, and the data path of
 * IB-state QPs over every IB transport (`IB_TRANSPORTS`: the in-process loopback).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hostMemory } from '../../src/rnic/hostmem.js';
import type { Qp } from '../../src/rnic/qp.js';
import { IbQpAttr } from '../../src/rnic/qp-states.js';
import type { AsyncEventRecord } from '../../src/rnic/rnic.js';
import { type IbQpAttrs, type QpTransport, registerIbBinder, type TxOp, type TxSeg } from '../../src/rnic/transport.js';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiAsyncEventType, RiMemFlags, RiQpState, RiWcStatus, RiWrType } from '../../src/rnicpi/types.js';
import {
  connectPair,
  IB_TRANSPORTS,
  ibRnic,
  ibToRts,
  makeIbSide,
  makeSide,
  pollN,
  recv,
  reg,
  send,
  sge,
  TEST_GID,
  until,
} from '../helpers/engine.js';

const va = (b: Uint8Array) => hostMemory.addressOf(b);
const LOCAL = RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE;
const AV = { dgid: TEST_GID, sgidIndex: 0, hopLimit: 64, trafficClass: 0, flowLabel: 0, sl: 0, port: 1 };
const ACCESS = { read: true, write: true, atomic: false };

/** A fake IB transport: records what the core tells it and pulls segments on kick. */
class FakeIb implements QpTransport {
  readonly caps = { immediateData: false, atomics: false, rnr: true, sendCompletion: 'ack', states: 'ib' } as const;
  started = 0;
  kicks = 0;
  resets = 0;
  readonly modified: { changed: number; from: RiQpState; to: RiQpState; sqPsn: number }[] = [];
  readonly segs: { op: TxOp; len: number; last: boolean }[] = [];
  constructor(
    readonly qp: Qp,
    readonly attrs: IbQpAttrs,
  ) {}
  start(): void {
    this.started++;
  }
  kick(): void {
    this.kicks++;
    for (;;) {
      const s: TxSeg | null = this.qp.requester.next(this);
      if (!s) return;
      this.segs.push({ op: s.op, len: s.len, last: s.last });
    }
  }
  maxPayload(): number {
    return 256;
  }
  closeGraceful(): void {}
  reset(): void {
    this.resets++;
  }
  detach(): void {}
  sendFatal() {
    return { layer: 0, etype: 0, ecode: 0x62, bytes: new Uint8Array(0), local: true };
  }
  ibModified(attrs: Readonly<IbQpAttrs>, changed: number, from: RiQpState, to: RiQpState): void {
    this.modified.push({ changed, from, to, sqPsn: attrs.sqPsn });
  }
}

const fakes: FakeIb[] = [];
registerIbBinder('fake-test', (qp, attrs) => {
  const f = new FakeIb(qp, { ...attrs });
  fakes.push(f);
  return f;
});
registerIbBinder('refusing-test', () => RiRet.RESOURCE_SHORTAGE);

function fakeSide(service: 'RC' | 'UC' | 'UD' = 'RC') {
  return makeIbSide(service, ibRnic('fake-test'));
}

function toInit(qp: Qp): RiRet {
  return qp.modify({ nextState: RiQpState.INITIALIZED, ib: { pkeyIndex: 0, port: 1, access: ACCESS } });
}

function toRtr(qp: Qp, over: Record<string, unknown> = {}): RiRet {
  return qp.modify({
    nextState: RiQpState.READY_TO_RECEIVE,
    ird: 4,
    ib: { av: AV, pathMtu: 3, destQpn: 0x99, rqPsn: 0x123, minRnrTimer: 12, ...over },
  });
}

function events(rnic: { asyncHandler: unknown }): AsyncEventRecord[] {
  const out: AsyncEventRecord[] = [];
  (rnic as { asyncHandler: (o: unknown, e: AsyncEventRecord) => void }).asyncHandler = (_o, e) => out.push(e);
  return out;
}

describe('InfiniBand QP state machine in the core', () => {
  test('a QP of an IB RNIC starts in Reset (RNICPI Idle) and uses the IB table; an iWARP RNIC refuses UC/UD', () => {
    const s = fakeSide();
    assert.equal(s.qp.isIb, true);
    assert.equal(s.qp.state, RiQpState.IDLE);
    const iw = makeSide();
    assert.equal(iw.qp.isIb, false);
    assert.equal(
      iw.rnic.qpCreate({
        ...{
          pd: iw.pd,
          scq: iw.cq,
          rcq: iw.cq,
          srq: null,
          sqSize: 4,
          rqSize: 4,
          sqMaxSges: 1,
          sqMaxSgesRdmaw: 1,
          rqMaxSges: 1,
          enableRdmaRead: true,
          enableRdmaWrite: true,
          ord: 1,
          ird: 1,
          stag0Enabled: false,
          enableBind: false,
          rqHiwat: 0,
          llpAttrs: { crc: false, recvMarkers: false, xmitMarkers: false, ddpRdmapVersion: 1 },
          osData: null,
        },
        service: 'UD',
      }),
      RiRet.QP_INVALID_SERVICE_TYPE,
    );
    // The IB attributes do not exist on an iWARP QP.
    assert.equal(iw.qp.modify({ ib: { qkey: 1 } }), RiRet.QP_INVALID_SERVICE_TYPE);
  });

  test('Reset→INIT: each required attribute missing, an attribute not allowed, or a skipped state fails and changes nothing', () => {
    const { qp } = fakeSide();
    const base = { pkeyIndex: 0, port: 1, access: ACCESS };
    for (const drop of ['pkeyIndex', 'port', 'access'] as const) {
      const ib: Record<string, unknown> = { ...base };
      delete ib[drop];
      assert.equal(qp.modify({ nextState: RiQpState.INITIALIZED, ib }), RiRet.INVALID_PARAMETER, `without ${drop}`);
      assert.equal(qp.state, RiQpState.IDLE);
    }
    // QKEY is a UD attribute: not allowed on RC.
    assert.equal(qp.modify({ nextState: RiQpState.INITIALIZED, ib: { ...base, qkey: 5 } }), RiRet.INVALID_PARAMETER);
    assert.equal(qp.ib.qkey, 0);
    assert.equal(qp.modify({ nextState: RiQpState.READY_TO_RECEIVE, ib: {} }), RiRet.QP_INVALID_STATE);
    assert.equal(qp.modify({ nextState: RiQpState.CLOSING }), RiRet.QP_INVALID_STATE, 'an iWARP-only state');
    // Out-of-range values: nothing applied.
    assert.equal(qp.modify({ nextState: RiQpState.INITIALIZED, ib: { ...base, port: 2 } }), RiRet.RNIC_INVALID_PORT);
    assert.equal(qp.modify({ nextState: RiQpState.INITIALIZED, ib: { ...base, pkeyIndex: 1 } }), RiRet.RNIC_INVALID_PKEY_INDEX);
    assert.equal(qp.enableRdmaRead, false);
    assert.equal(qp.state, RiQpState.IDLE);
    assert.equal(toInit(qp), RiRet.SUCCESS);
    assert.equal(qp.state, RiQpState.INITIALIZED);
    assert.equal(qp.enableRdmaRead, true);
  });

  test('INIT→RTR binds the transport once, after every check; a failing binder or a missing one changes nothing', () => {
    const s = fakeSide();
    const { qp } = s;
    assert.equal(toInit(qp), RiRet.SUCCESS);
    const before = fakes.length;
    for (const drop of ['av', 'pathMtu', 'destQpn', 'rqPsn', 'minRnrTimer']) {
      const ib: Record<string, unknown> = { av: AV, pathMtu: 3, destQpn: 0x99, rqPsn: 0x123, minRnrTimer: 12 };
      delete ib[drop];
      assert.equal(qp.modify({ nextState: RiQpState.READY_TO_RECEIVE, ird: 4, ib }), RiRet.INVALID_PARAMETER, `without ${drop}`);
    }
    assert.equal(
      qp.modify({ nextState: RiQpState.READY_TO_RECEIVE, ib: { av: AV, pathMtu: 3, destQpn: 0x99, rqPsn: 0x123, minRnrTimer: 12 } }),
      RiRet.INVALID_PARAMETER,
      'without max_dest_rd_atomic',
    );
    assert.equal(toRtr(qp, { pathMtu: 6 }), RiRet.RNIC_INVALID_MTU);
    assert.equal(toRtr(qp, { destQpn: 1 << 24 }), RiRet.INVALID_PARAMETER);
    assert.equal(toRtr(qp, { av: { ...AV, sgidIndex: 1 } }), RiRet.INVALID_PARAMETER, 'sgid index beyond the GID table');
    assert.equal(toRtr(qp, { sqPsn: 1 }), RiRet.INVALID_PARAMETER, 'SQ PSN belongs to RTR→RTS');
    assert.equal(fakes.length, before, 'no transport made for a refused modify');
    assert.equal(qp.state, RiQpState.INITIALIZED);
    assert.equal(qp.ib.destQpn, 0);
    assert.equal(toRtr(qp), RiRet.SUCCESS);
    assert.equal(fakes.length, before + 1);
    const f = fakes.at(-1)!;
    assert.equal(f.started, 1);
    assert.equal(f.attrs.destQpn, 0x99);
    assert.equal(f.attrs.rqPsn, 0x123);
    assert.deepEqual([...f.attrs.av.sgid], [...TEST_GID], 'the source GID resolved from the table');
    assert.equal(qp.state, RiQpState.READY_TO_RECEIVE);
    assert.equal(qp.ird, 4);

    const r = makeIbSide('RC', ibRnic('refusing-test'));
    assert.equal(toInit(r.qp), RiRet.SUCCESS);
    assert.equal(toRtr(r.qp), RiRet.RESOURCE_SHORTAGE);
    assert.equal(r.qp.state, RiQpState.INITIALIZED);
    assert.equal(r.qp.ib.pathMtu, 0);
    const n = makeIbSide('RC', ibRnic('no-such-link'));
    assert.equal(toInit(n.qp), RiRet.SUCCESS);
    assert.equal(toRtr(n.qp), RiRet.XPORT_UNSUPPORTED);
    assert.equal(n.qp.transport, null);
  });

  test('RTR→RTS requires timeout, retry counts, SQ PSN and max_rd_atomic; the transport hears of the change and is kicked', () => {
    const { qp } = fakeSide();
    assert.equal(toInit(qp), RiRet.SUCCESS);
    assert.equal(toRtr(qp), RiRet.SUCCESS);
    const f = fakes.at(-1)!;
    const full = { timeout: 14, retryCnt: 7, rnrRetry: 7, sqPsn: 0x456 };
    for (const drop of Object.keys(full)) {
      const ib: Record<string, unknown> = { ...full };
      delete ib[drop];
      assert.equal(qp.modify({ nextState: RiQpState.READY_TO_SEND, ord: 4, ib }), RiRet.INVALID_PARAMETER, `without ${drop}`);
    }
    assert.equal(qp.modify({ nextState: RiQpState.READY_TO_SEND, ib: full }), RiRet.INVALID_PARAMETER, 'without max_rd_atomic');
    assert.equal(qp.modify({ nextState: RiQpState.READY_TO_SEND, ord: 4, ib: { ...full, retryCnt: 8 } }), RiRet.INVALID_PARAMETER);
    assert.equal(
      qp.modify({ nextState: RiQpState.READY_TO_SEND, ord: 4, ib: { ...full, curState: RiQpState.INITIALIZED } }),
      RiRet.INVALID_PARAMETER,
      'a wrong current state',
    );
    assert.equal(f.modified.length, 0);
    assert.equal(
      qp.modify({ nextState: RiQpState.READY_TO_SEND, ord: 4, ib: { ...full, curState: RiQpState.READY_TO_RECEIVE } }),
      RiRet.SUCCESS,
    );
    assert.equal(qp.state, RiQpState.READY_TO_SEND);
    assert.deepEqual(f.modified.at(-1), {
      changed:
        IbQpAttr.CUR_STATE | IbQpAttr.TIMEOUT | IbQpAttr.RETRY_CNT | IbQpAttr.RNR_RETRY | IbQpAttr.SQ_PSN | IbQpAttr.MAX_QP_RD_ATOMIC,
      from: RiQpState.READY_TO_RECEIVE,
      to: RiQpState.READY_TO_SEND,
      sqPsn: 0x456,
    });
    assert.ok(f.kicks >= 1);
    assert.equal(qp.ord, 4);
    assert.equal(qp.ib.timeout, 14);
    // RTS→RTS: MIN_RNR_TIMER is optional for RC; PATH_MTU is not allowed.
    assert.equal(qp.modify({ ib: { pathMtu: 2 } }), RiRet.INVALID_PARAMETER);
    assert.equal(qp.ib.pathMtu, 3);
    assert.equal(qp.modify({ ib: { minRnrTimer: 3 } }), RiRet.SUCCESS);
    assert.equal(qp.ib.minRnrTimer, 3);
  });

  test('the transport pulls segments cut at its payload size; posting before RTS is refused', () => {
    const s = fakeSide();
    const { qp } = s;
    const buf = new Uint8Array(600);
    const mr = reg(s, buf);
    assert.equal(send(qp, { type: RiWrType.SEND, sgl: [sge(mr, buf)] }), RiRet.QP_INVALID_STATE, 'Reset');
    assert.equal(recv(qp, 1n, [sge(mr, buf)]), RiRet.QP_INVALID_STATE, 'no receive in Reset');
    assert.equal(toInit(qp), RiRet.SUCCESS);
    assert.equal(recv(qp, 1n, [sge(mr, buf)]), RiRet.SUCCESS, 'receives may be posted from INIT on');
    assert.equal(toRtr(qp), RiRet.SUCCESS);
    assert.equal(send(qp, { type: RiWrType.SEND, sgl: [sge(mr, buf)] }), RiRet.QP_INVALID_STATE, 'RTR');
    assert.equal(
      qp.modify({ nextState: RiQpState.READY_TO_SEND, ord: 4, ib: { timeout: 14, retryCnt: 7, rnrRetry: 7, sqPsn: 0 } }),
      RiRet.SUCCESS,
    );
    const f = fakes.at(-1)!;
    assert.equal(send(qp, { type: RiWrType.SEND, sgl: [sge(mr, buf)] }), RiRet.SUCCESS);
    assert.deepEqual(
      f.segs.map((x) => [x.len, x.last]),
      [
        [256, false],
        [256, false],
        [88, true],
      ],
    );
  });

  test('RTS→SQD: draining until the started WQE is acknowledged, then drained with the event; SQD→SQD takes the AV only when drained; SQD→RTS resumes', async () => {
    const s = fakeSide();
    const { qp } = s;
    const ev = events(s.rnic);
    assert.equal(toInit(qp), RiRet.SUCCESS);
    assert.equal(toRtr(qp), RiRet.SUCCESS);
    assert.equal(
      qp.modify({ nextState: RiQpState.READY_TO_SEND, ord: 4, ib: { timeout: 14, retryCnt: 7, rnrRetry: 7, sqPsn: 0 } }),
      RiRet.SUCCESS,
    );
    const f = fakes.at(-1)!;
    const buf = new Uint8Array(100);
    const mr = reg(s, buf);
    assert.equal(send(qp, { type: RiWrType.SEND, sgl: [sge(mr, buf)], id: 1n }), RiRet.SUCCESS);
    const w = qp.sqAt(0)!;
    assert.equal(qp.modify({ nextState: RiQpState.SEND_QUEUE_DRAINED, ib: { sqdNotify: true } }), RiRet.SUCCESS);
    assert.equal(qp.state, RiQpState.SEND_QUEUE_DRAINING, 'the Send is not acknowledged yet');
    assert.equal(qp.modify({ ib: { av: AV } }), RiRet.QP_INVALID_STATE, 'no attribute change while draining');
    // Posted in SQD: queued, not started.
    assert.equal(send(qp, { type: RiWrType.SEND, sgl: [sge(mr, buf)], id: 2n }), RiRet.SUCCESS);
    const before = f.segs.length;
    qp.kick();
    assert.equal(f.segs.length, before);
    qp.requester.delivered(w);
    assert.equal(qp.state, RiQpState.SEND_QUEUE_DRAINED);
    await until(() => ev.some((e) => e.event_type === RiAsyncEventType.QP_SEND_QUEUE_DRAINED), 2000, 'SQ drained event');
    assert.equal(qp.modify({ ib: { av: { ...AV, hopLimit: 9 }, timeout: 10 } }), RiRet.SUCCESS);
    assert.equal(qp.ib.av.hopLimit, 9);
    assert.equal(qp.modify({ nextState: RiQpState.READY_TO_SEND }), RiRet.SUCCESS);
    assert.equal(f.segs.length, before + 1, 'the queued Send starts on SQD→RTS');
  });

  test('Error and Reset: flushed with WR_FLUSHED_ERROR, the transport reset; Reset clears the IB attributes', async () => {
    const s = fakeSide();
    const { qp } = s;
    assert.equal(toInit(qp), RiRet.SUCCESS);
    const buf = new Uint8Array(8);
    const mr = reg(s, buf);
    assert.equal(recv(qp, 7n, [sge(mr, buf)]), RiRet.SUCCESS);
    assert.equal(toRtr(qp), RiRet.SUCCESS);
    const f = fakes.at(-1)!;
    assert.equal(qp.modify({ nextState: RiQpState.ERROR, ib: { qkey: 1 } }), RiRet.INVALID_PARAMETER, 'Error takes no attribute');
    assert.equal(qp.modify({ nextState: RiQpState.ERROR }), RiRet.SUCCESS);
    assert.equal(f.resets, 1);
    const [wc] = await pollN(s.cq, 1);
    assert.equal(wc!.op_status, RiWcStatus.WR_FLUSHED_ERROR);
    assert.equal(
      qp.modify({ nextState: RiQpState.INITIALIZED, ib: { pkeyIndex: 0, port: 1, access: ACCESS } }),
      RiRet.QP_INVALID_STATE,
      'Error→INIT does not exist',
    );
    assert.equal(qp.modify({ nextState: RiQpState.IDLE }), RiRet.SUCCESS);
    assert.equal(qp.ib.destQpn, 0);
    assert.equal(qp.enableRdmaRead, false);
    assert.equal(toInit(qp), RiRet.SUCCESS, 'a Reset QP can be used again');
  });

  test('UC: a local send error is SQE (later WQEs flushed, receiving goes on); SQE→RTS resumes; UC refuses Read, UD carries only Send', async () => {
    const a = makeIbSide('UC');
    const b = makeIbSide('UC', a.rnic);
    const p = await connectPair(a, b, { transport: 'loopback-ib' });
    try {
      const src = new Uint8Array(32).fill(4);
      const mrs = reg(a, src);
      assert.equal(send(a.qp, { type: RiWrType.RDMA_READ, sgl: [sge(mrs, src)], rtag: 1, remoteTo: 0n }), RiRet.WR_INVALID_TYPE);
      // A bad local key: the Send fails locally.
      assert.equal(
        send(a.qp, { type: RiWrType.SEND, sgl: [{ stag: (mrs.stag ^ 0x55) >>> 0, to: va(src), len: 32 }], id: 1n }),
        RiRet.SUCCESS,
      );
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(mrs, src)], id: 2n }), RiRet.SUCCESS);
      const wcs = await pollN(a.cq, 2);
      assert.equal(wcs[0]!.op_status, RiWcStatus.INVALID_STAG_ERROR);
      assert.equal(wcs[1]!.op_status, RiWcStatus.WR_FLUSHED_ERROR);
      assert.equal(a.qp.state, RiQpState.SEND_QUEUE_ERROR);
      // Receiving goes on in SQE.
      const rb = new Uint8Array(32);
      const rmr = reg(a, rb);
      assert.equal(recv(a.qp, 9n, [sge(rmr, rb)]), RiRet.SUCCESS);
      const bs = new Uint8Array(32).fill(6);
      const bmr = reg(b, bs);
      assert.equal(send(b.qp, { type: RiWrType.SEND, sgl: [sge(bmr, bs)], id: 3n }), RiRet.SUCCESS);
      await pollN(b.cq, 1);
      const [rw] = await pollN(a.cq, 1);
      assert.equal(rw!.op_status, RiWcStatus.SUCCESS);
      assert.equal(rb[31], 6);
      assert.equal(a.qp.modify({ nextState: RiQpState.READY_TO_SEND }), RiRet.SUCCESS);
      assert.equal(a.qp.state, RiQpState.READY_TO_SEND);
    } finally {
      await p.close();
    }
    const ud = fakeSide('UD');
    assert.equal(ud.qp.modify({ nextState: RiQpState.INITIALIZED, ib: { pkeyIndex: 0, port: 1, qkey: 0x1234 } }), RiRet.SUCCESS);
    assert.equal(ud.qp.modify({ nextState: RiQpState.READY_TO_RECEIVE }), RiRet.SUCCESS);
    assert.equal(ud.qp.modify({ nextState: RiQpState.READY_TO_SEND, ib: { sqPsn: 0 } }), RiRet.SUCCESS);
    assert.equal(ud.qp.ib.qkey, 0x1234);
    const ub = new Uint8Array(2048);
    const umr = reg(ud, ub);
    assert.equal(send(ud.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(umr, ub, 0, 8)], rtag: 1, remoteTo: 0n }), RiRet.WR_INVALID_TYPE);
    assert.equal(
      send(ud.qp, { type: RiWrType.SEND, sgl: [sge(umr, ub, 0, 8)] }),
      RiRet.ADDRESS_HANDLE_INVALID,
      'a UD Send needs its destination',
    );
    const dest = { av: { ...AV, sgid: TEST_GID }, remoteQpn: 0x42, remoteQkey: 0x1234 };
    assert.equal(
      send(ud.qp, { type: RiWrType.SEND, sgl: [sge(umr, ub, 0, 1025)], ud: dest }),
      RiRet.MEM_INVALID_LENGTH,
      'beyond the active MTU',
    );
    const f = fakes.at(-1)!;
    assert.equal(send(ud.qp, { type: RiWrType.SEND, sgl: [sge(umr, ub, 0, 1024)], ud: dest }), RiRet.SUCCESS);
    assert.equal(f.segs.at(-1)!.last, true);
  });

  test('QPNs of IB RNICs are unique in the process', () => {
    const x = makeIbSide('RC');
    const y = makeIbSide('RC');
    assert.notEqual(x.qp.id, y.qp.id);
    assert.ok(x.qp.id >= 17 && y.qp.id >= 17);
  });
});

for (const transport of IB_TRANSPORTS) {
  describe(`InfiniBand RC/UC data path [${transport}]`, () => {
    async function rcPair(pathMtu = 3) {
      const a = makeIbSide('RC');
      const b = makeIbSide('RC');
      return connectPair(a, b, { transport, pathMtu });
    }

    test('Send, RDMA Write and RDMA Read of several MTUs between two RC QPs, every byte verified', async () => {
      const p = await rcPair(1);
      try {
        const { a, b } = p;
        const n = 5000;
        const src = Uint8Array.from({ length: n }, (_, i) => (i * 7) & 0xff);
        const mrs = reg(a, src);
        const rbuf = new Uint8Array(n);
        const rmr = reg(b, rbuf);
        assert.equal(recv(b.qp, 1n, [sge(rmr, rbuf)]), RiRet.SUCCESS);
        assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(mrs, src)], id: 10n }), RiRet.SUCCESS);
        const [rw] = await pollN(b.cq, 1);
        assert.equal(rw!.op_status, RiWcStatus.SUCCESS);
        assert.equal(rw!.bytes_transferred, n);
        assert.deepEqual(rbuf, src);
        const wbuf = new Uint8Array(n);
        const wmr = reg(b, wbuf);
        assert.equal(
          send(a.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(mrs, src)], rtag: wmr.stag, remoteTo: va(wbuf), id: 11n }),
          RiRet.SUCCESS,
        );
        const sink = new Uint8Array(n);
        const smr = reg(a, sink);
        assert.equal(
          send(a.qp, { type: RiWrType.RDMA_READ, sgl: [sge(smr, sink)], rtag: wmr.stag, remoteTo: va(wbuf), id: 12n }),
          RiRet.SUCCESS,
        );
        const wcs = await pollN(a.cq, 3);
        assert.deepEqual(
          wcs.map((w) => [w.id, w.op_status]),
          [
            [10n, RiWcStatus.SUCCESS],
            [11n, RiWcStatus.SUCCESS],
            [12n, RiWcStatus.SUCCESS],
          ],
        );
        assert.deepEqual(wbuf, src);
        assert.deepEqual(sink, src);
      } finally {
        await p.close();
      }
    });

    test('an RDMA Write to an MR without Remote Write: the requester gets REMOTE_ACCESS_ERROR, both QPs in Error, the rest flushed', async () => {
      const p = await rcPair();
      try {
        const { a, b } = p;
        const evB = events(b.rnic);
        const dst = new Uint8Array(64);
        const mrd = reg(b, dst, LOCAL);
        const src = new Uint8Array(64).fill(3);
        const mrs = reg(a, src);
        assert.equal(
          send(a.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(mrs, src)], rtag: mrd.stag, remoteTo: va(dst), id: 1n }),
          RiRet.SUCCESS,
        );
        await until(() => a.qp.state === RiQpState.ERROR && b.qp.state === RiQpState.ERROR, 5000, 'both in Error');
        assert.ok(evB.some((e) => e.event_type === RiAsyncEventType.QP_PROTECTION_ERROR_ACCESS_VIOLATION));
        assert.equal(
          dst.every((x) => x === 0),
          true,
        );
        assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(mrs, src)], id: 2n }), RiRet.SUCCESS);
        const wcs = await pollN(a.cq, 2);
        // The Write completed (local delivery on the loopback) or failed with the NAK's status; the later Send is flushed.
        assert.ok([RiWcStatus.SUCCESS, RiWcStatus.REMOTE_ACCESS_ERROR].includes(wcs[0]!.op_status));
        assert.equal(wcs[1]!.op_status, RiWcStatus.WR_FLUSHED_ERROR);
      } finally {
        await p.close();
      }
    });

    test('a Read of a source without Remote Read completes with REMOTE_ACCESS_ERROR', async () => {
      const p = await rcPair();
      try {
        const { a, b } = p;
        const srcB = new Uint8Array(64);
        const mrB = reg(b, srcB, LOCAL | RiMemFlags.REMOTE_WRITE);
        const sink = new Uint8Array(64);
        const mrA = reg(a, sink);
        assert.equal(
          send(a.qp, { type: RiWrType.RDMA_READ, sgl: [sge(mrA, sink)], rtag: mrB.stag, remoteTo: va(srcB), id: 5n }),
          RiRet.SUCCESS,
        );
        const [wc] = await pollN(a.cq, 1);
        assert.equal(wc!.id, 5n);
        assert.equal(wc!.op_status, RiWcStatus.REMOTE_ACCESS_ERROR);
        assert.equal(a.qp.state, RiQpState.ERROR);
      } finally {
        await p.close();
      }
    });

    test('UC: Send and RDMA Write arrive', async () => {
      const a = makeIbSide('UC');
      const b = makeIbSide('UC');
      const p = await connectPair(a, b, { transport, pathMtu: 2 });
      try {
        const src = Uint8Array.from({ length: 3000 }, (_, i) => i & 0xff);
        const mrs = reg(a, src);
        const rbuf = new Uint8Array(3000);
        const rmr = reg(b, rbuf);
        assert.equal(recv(b.qp, 1n, [sge(rmr, rbuf)]), RiRet.SUCCESS);
        assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(mrs, src)] }), RiRet.SUCCESS);
        await pollN(b.cq, 1);
        assert.deepEqual(rbuf, src);
        const wbuf = new Uint8Array(3000);
        const wmr = reg(b, wbuf);
        assert.equal(send(a.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(mrs, src)], rtag: wmr.stag, remoteTo: va(wbuf) }), RiRet.SUCCESS);
        await pollN(a.cq, 2);
        await until(() => wbuf[2999] === src[2999], 2000, 'placement');
        assert.deepEqual(wbuf, src);
      } finally {
        await p.close();
      }
    });

    test('a QP whose peer reaches RTR later: what it sent waits and arrives', async () => {
      const a = makeIbSide('RC');
      const b = makeIbSide('RC');
      assert.equal(ibToRts(a.qp, b.qp.id), RiRet.SUCCESS);
      const src = new Uint8Array(10).fill(8);
      const mrs = reg(a, src);
      assert.equal(send(a.qp, { type: RiWrType.SEND, sgl: [sge(mrs, src)] }), RiRet.SUCCESS);
      const rbuf = new Uint8Array(10);
      const rmr = reg(b, rbuf);
      assert.equal(b.qp.modify({ nextState: RiQpState.INITIALIZED, ib: { pkeyIndex: 0, port: 1, access: ACCESS } }), RiRet.SUCCESS);
      assert.equal(recv(b.qp, 1n, [sge(rmr, rbuf)]), RiRet.SUCCESS);
      assert.equal(
        b.qp.modify({
          nextState: RiQpState.READY_TO_RECEIVE,
          ird: 8,
          ib: { av: AV, pathMtu: 3, destQpn: a.qp.id, rqPsn: 0, minRnrTimer: 1 },
        }),
        RiRet.SUCCESS,
      );
      const [wc] = await pollN(b.cq, 1);
      assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
      assert.equal(rbuf[9], 8);
      for (const s of [a, b]) s.qp.modify({ nextState: RiQpState.ERROR });
    });
  });
}

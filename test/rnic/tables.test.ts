/**
 * The core's rule tables: the work-request table (wr-table.ts) and the QP state tables
 * (qp-states.ts). A WR type or a transition is one row; these tests read the rows the way
 * posting and Modify QP do.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiQpState, RiWcType, RiWrFlags, RiWrType } from '../../src/rnicpi/types.js';
import { IbQpAttr as A, IbQpState as S, ibModifyOk, iwarpTransition } from '../../src/rnic/qp-states.js';
import { allowedFlags, isRequestWr, isWireWr, SglRole, WrExec, wrRow } from '../../src/rnic/wr-table.js';
import { makeSide, send } from '../helpers/engine.js';

test('WR table: immediate data and atomics are rows every transport carries once the connection agreed them', () => {
  const wi = wrRow(RiWrType.RDMA_WRITE_IMMEDIATE)!;
  assert.equal(wi.exec, WrExec.MESSAGE);
  assert.equal(wi.sgl, SglRole.SOURCE);
  assert.equal(wi.remote, 'address');
  assert.equal(wi.wcType, RiWcType.RDMA_WRITE);
  assert.deepEqual(wi.families, ['iwarp', 'ib']);
  assert.equal(wi.needs, 'immediateData');
  const si = wrRow(RiWrType.SEND_IMMEDIATE)!;
  assert.equal(si.remote, 'none');
  assert.ok(allowedFlags(si) & RiWrFlags.SOLICITED_EVENT_FLAG);
  for (const t of [RiWrType.COMPARE_AND_SWAP, RiWrType.FETCH_AND_ADD]) {
    const r = wrRow(t)!;
    assert.equal(r.exec, WrExec.REQUEST);
    assert.equal(r.sgl, SglRole.RESULT);
    assert.equal(r.needs, 'atomics');
    assert.equal(r.unsupported, RiRet.RNIC_ATOMICS_UNSUPPORTED);
  }
  // An atomic without its operation is malformed, and nothing is queued.
  const side = makeSide();
  for (const t of [RiWrType.COMPARE_AND_SWAP, RiWrType.FETCH_AND_ADD]) {
    assert.equal(send(side.qp, { type: t, sgl: [], rtag: 1, remoteTo: 0n }), RiRet.INVALID_PARAMETER);
  }
  assert.equal(send(side.qp, { type: RiWrType.SEND_IMMEDIATE, sgl: [], imm: -1 }), RiRet.INVALID_PARAMETER);
  assert.equal(side.qp.sq.length, 0);
});

test('WR table: wire and request classification drives the requester', () => {
  assert.equal(isWireWr(RiWrType.SEND), true);
  assert.equal(isWireWr(RiWrType.BIND), false);
  assert.equal(isRequestWr(RiWrType.RDMA_READ), true);
  assert.equal(isRequestWr(RiWrType.RDMA_WRITE), false);
  assert.equal(wrRow(99), undefined);
  assert.equal(wrRow(RiWrType.LOCAL_INVALIDATE_MR)!.wcType, RiWcType.LOCAL_INVALIDATE);
  // Only Send-type WRs may ask for a Solicited Event; Local Invalidate alone takes a Local Fence.
  assert.equal(allowedFlags(wrRow(RiWrType.RDMA_WRITE)!) & RiWrFlags.SOLICITED_EVENT_FLAG, 0);
  assert.ok(allowedFlags(wrRow(RiWrType.LOCAL_INVALIDATE_MW)!) & RiWrFlags.LOCAL_FENCE_FLAG);
});

test('iWARP state table: the Consumer transitions of Verbs §6.2, attributes only where allowed', () => {
  const I = RiQpState;
  assert.deepEqual(iwarpTransition(I.IDLE, I.READY_TO_SEND, true), { attrs: true, llp: true, implicitOnly: false });
  assert.equal(iwarpTransition(I.READY_TO_SEND, I.CLOSING, true)!.attrs, false);
  assert.equal(iwarpTransition(I.IDLE, I.TERMINATE, true), undefined);
  assert.equal(iwarpTransition(I.CLOSING, I.CLOSING, false), undefined, 'Closing refuses every Modify');
  assert.equal(iwarpTransition(I.TERMINATE, I.ERROR, true), undefined);
  assert.equal(iwarpTransition(I.ERROR, I.ERROR, true), undefined, 'Error→Error may not be named');
  assert.ok(iwarpTransition(I.ERROR, I.ERROR, false), 'an attribute-only modify in Error is checked as Error→Error');
  // The engine reads the same rows: Idle→Terminate is refused and changes nothing.
  const side = makeSide();
  assert.equal(side.qp.modify({ nextState: I.TERMINATE }), RiRet.QP_INVALID_STATE);
  assert.equal(side.qp.state, I.IDLE);
});

test('IB state table: required and optional attributes per service, as ib_modify_qp_is_ok', () => {
  const rtr = A.STATE | A.AV | A.PATH_MTU | A.DEST_QPN | A.RQ_PSN | A.MAX_DEST_RD_ATOMIC | A.MIN_RNR_TIMER;
  assert.equal(ibModifyOk(S.INIT, S.RTR, 'RC', rtr), true);
  assert.equal(ibModifyOk(S.INIT, S.RTR, 'RC', rtr & ~A.MIN_RNR_TIMER), false, 'RC needs MIN_RNR_TIMER');
  assert.equal(ibModifyOk(S.INIT, S.RTR, 'UC', A.STATE | A.AV | A.PATH_MTU | A.DEST_QPN | A.RQ_PSN), true);
  assert.equal(ibModifyOk(S.INIT, S.RTR, 'UD', A.STATE), true);
  assert.equal(ibModifyOk(S.INIT, S.RTR, 'UD', A.STATE | A.AV), false, 'UD takes no AV on the QP');
  assert.equal(ibModifyOk(S.RESET, S.INIT, 'UD', A.STATE | A.PKEY_INDEX | A.PORT | A.QKEY), true);
  assert.equal(ibModifyOk(S.RTR, S.RTS, 'RC', A.STATE | A.SQ_PSN), false, 'RC RTS needs timeout/retry/rnr/rd_atomic');
  assert.equal(ibModifyOk(S.SQE, S.RTS, 'RC', A.STATE), false, 'no SQE for RC');
  assert.equal(ibModifyOk(S.SQE, S.RTS, 'UC', A.STATE), true);
  assert.equal(ibModifyOk(S.RTS, S.ERR, 'RC', A.STATE), true);
  assert.equal(ibModifyOk(S.RTS, S.RESET, 'RC', A.STATE | A.QKEY), false, 'to Reset takes no attribute');
  assert.equal(ibModifyOk(S.RESET, S.RTS, 'RC', A.STATE), false, 'no skipping states');
  assert.equal(ibModifyOk(S.INIT, S.INIT, 'RC', A.STATE | A.CAP, A.CAP), true, 'device extras');
});

/**
 * The one map between RNICPI, InfiniBand and ibverbs QP states (`src/rnicpi/qp-state-map.ts`):
 * RNICPI 1.0 §6.7 `ri_qp_state_t`, IBTA Vol. 1 §10.3.1 (SQD's draining and drained
 * sub-states), the manual §4.5.1 `enum ibv_qp_state`, and Linux siw's iWARP mapping.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IB_OF_IWARP, IB_OF_RI, IbQpState, ibStateOf, IWARP_OF_IB, RI_OF_IB } from '../../src/rnicpi/qp-state-map.js';
import { RiQpState } from '../../src/rnicpi/types.js';
import { ibv_qp_state } from '../../src/verbs/constants.js';

const IB_STATES = [IbQpState.RESET, IbQpState.INIT, IbQpState.RTR, IbQpState.RTS, IbQpState.SQD, IbQpState.SQE, IbQpState.ERR];
const RI_STATES = Object.values(RiQpState).filter((v): v is RiQpState => typeof v === 'number');

test('an ibv_qp_state is the IB state of the same name and value', () => {
  for (const s of IB_STATES) {
    const name = `IBV_QPS_${IbQpState[s]}` as keyof typeof ibv_qp_state;
    assert.equal(ibv_qp_state[name], s, name);
  }
});

test('IB QP: every IB state maps to an RNICPI state and back', () => {
  for (const s of IB_STATES) {
    const ri = RI_OF_IB[s];
    assert.notEqual(ri, undefined, IbQpState[s]);
    assert.equal(IB_OF_RI[ri], s, IbQpState[s]);
    assert.equal(ibStateOf(ri), s, IbQpState[s]);
  }
});

test('IB QP: a Modify into SQD requests Draining; Draining and Drained both read as SQD', () => {
  assert.equal(RI_OF_IB[IbQpState.SQD], RiQpState.SEND_QUEUE_DRAINING);
  assert.equal(ibStateOf(RiQpState.SEND_QUEUE_DRAINING), IbQpState.SQD);
  assert.equal(ibStateOf(RiQpState.SEND_QUEUE_DRAINED), IbQpState.SQD);
});

test('IB QP: the iWARP-only states and Timewait have no IB state', () => {
  for (const s of [RiQpState.CLOSING, RiQpState.TERMINATE, RiQpState.TIMEWAIT]) assert.equal(ibStateOf(s), undefined, RiQpState[s]);
});

test('iWARP QP (siw): RESET, INIT and RTR are Idle; RTS only with an LLP stream; SQD Closing; SQE Terminate; ERR Error', () => {
  assert.deepEqual(
    IB_STATES.map((s) => IWARP_OF_IB[s]),
    [RiQpState.IDLE, RiQpState.IDLE, RiQpState.IDLE, null, RiQpState.CLOSING, RiQpState.TERMINATE, RiQpState.ERROR],
  );
  // Reading back: each iWARP state is the IB state that requests it (Idle reads as RESET unless
  // the face knows better), and no IB-only RNICPI state is an iWARP one.
  for (const s of [IbQpState.RESET, IbQpState.SQD, IbQpState.SQE, IbQpState.ERR])
    assert.equal(IB_OF_IWARP[IWARP_OF_IB[s]!], s, IbQpState[s]);
  assert.equal(IB_OF_IWARP[RiQpState.READY_TO_SEND], IbQpState.RTS);
  for (const s of [
    RiQpState.INITIALIZED,
    RiQpState.READY_TO_RECEIVE,
    RiQpState.SEND_QUEUE_DRAINING,
    RiQpState.SEND_QUEUE_DRAINED,
    RiQpState.SEND_QUEUE_ERROR,
  ]) {
    assert.equal(IB_OF_IWARP[s], undefined, RiQpState[s]);
  }
});

test('every RNICPI state but Timewait has an IB reading on one technology or the other', () => {
  for (const s of RI_STATES) {
    if (s === RiQpState.TIMEWAIT) continue;
    assert.ok(IB_OF_RI[s] !== undefined || IB_OF_IWARP[s] !== undefined, RiQpState[s]);
  }
});

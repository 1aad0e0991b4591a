/**
 * Completion notification delivery (src/rnic/cq.ts): a due notification is delivered once,
 * either by `deliverCqNotifications` (the receive paths call it at the end of a socket
 * callback, so the consumer hears of the completion synchronously) or by its microtask.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Cq, deliverCqNotifications, NotifyType, type WorkCompletion } from '../../src/rnic/cq.js';

function wc(id: bigint, status = 0): WorkCompletion {
  return {
    op_type: 0,
    cq_os_data: null,
    flags: 0,
    invalidated_rtag: 0,
    qp_os_data: null,
    id,
    op_status: status,
    bytes_transferred: 0,
    immediate_data: 0,
    err_data: 0n,
    qp_num: 1,
  };
}

function cq(fired: Cq[]): Cq {
  return new Cq(
    1,
    8,
    0,
    null,
    (c) => fired.push(c),
    () => {},
  );
}

describe('CQ notification delivery', () => {
  it('deliverCqNotifications runs the armed handler synchronously, and its microtask does not run it again', async () => {
    const fired: Cq[] = [];
    const c = cq(fired);
    c.arm(NotifyType.ANY);
    c.push(wc(1n), null, false, 0, false);
    assert.equal(fired.length, 0, 'not from inside push');
    deliverCqNotifications();
    assert.deepEqual(fired, [c]);
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    assert.equal(fired.length, 1, 'one arm, one notification');
  });

  it('without deliverCqNotifications the microtask delivers it, once', async () => {
    const fired: Cq[] = [];
    const c = cq(fired);
    c.arm(NotifyType.SOLICITED);
    c.push(wc(1n), null, false, 0, false);
    c.push(wc(2n), null, false, 1, true);
    c.push(wc(3n), null, false, 2, true);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(fired, [c]);
    deliverCqNotifications();
    assert.equal(fired.length, 1);
  });

  it('a CQ destroyed before delivery is not notified', async () => {
    const fired: Cq[] = [];
    const c = cq(fired);
    c.arm(NotifyType.ANY);
    c.push(wc(1n), null, false, 0, false);
    c.destroy();
    deliverCqNotifications();
    await new Promise((r) => setImmediate(r));
    assert.equal(fired.length, 0);
  });
});

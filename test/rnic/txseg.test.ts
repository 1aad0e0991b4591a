import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newTxSeg, resetTxSeg, TxOp, type TxSeg } from '../../src/rnic/transport.js';

test('resetTxSeg: a reused segment keeps no field of the segment before it', () => {
  const s = newTxSeg();
  // Fill every field with a value no blank segment has (a Send with Immediate and more).
  const dirty: Record<string, unknown> = s as unknown as Record<string, unknown>;
  for (const k of Object.keys(s)) {
    const v = dirty[k];
    dirty[k] = typeof v === 'bigint' ? 7n : typeof v === 'boolean' ? !v : typeof v === 'number' ? 77 : [new Uint8Array(1)];
  }
  s.op = TxOp.SEND_IMM;
  assert.notDeepEqual(s, newTxSeg());
  const r: TxSeg = resetTxSeg(s);
  assert.equal(r, s);
  assert.deepEqual(s, newTxSeg());
});

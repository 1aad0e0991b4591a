/** SOFTRDMA_MPA: the host-wide MPA switches for rdma_cm programs (siw's module parameters). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CmError, cmParamsFromEnv } from '../../src/iwarp/cm.js';

test('SOFTRDMA_MPA parses crc, markers, rev and p2p; unset or empty means the defaults', () => {
  assert.deepEqual(cmParamsFromEnv(undefined), {});
  assert.deepEqual(cmParamsFromEnv(''), {});
  assert.deepEqual(cmParamsFromEnv('crc=require'), { policy: { crc: 'require' } });
  assert.deepEqual(cmParamsFromEnv('crc=never; markers=refuse rev=1'), { policy: { crc: 'never', markers: 'refuse' }, revision: 1 });
  assert.deepEqual(cmParamsFromEnv('p2p=read,write'), { p2p: ['read', 'write'], rtrPreference: ['read', 'write'] });
  assert.deepEqual(cmParamsFromEnv('p2p=none'), { p2p: false });
  assert.deepEqual(cmParamsFromEnv('settle=0 crc=allow'), { settleMs: 0, policy: { crc: 'allow' } });
  assert.deepEqual(cmParamsFromEnv('accept=250'), { acceptTimeoutMs: 250 });
  assert.deepEqual(cmParamsFromEnv('accept=0'), { acceptTimeoutMs: 0 });
});

test('SOFTRDMA_MPA with a bad key or value throws CmError(invalid) naming the setting', () => {
  for (const bad of [
    'crc=maybe',
    'markers=yes',
    'rev=3',
    'p2p=atomic',
    'p2p=',
    'gso=1',
    'crc',
    'settle=-1',
    'settle=soon',
    'accept=',
    'accept=-5',
    'accept=1s',
  ]) {
    assert.throws(
      () => cmParamsFromEnv(bad),
      (e: unknown) => e instanceof CmError && e.kind === 'invalid' && e.message.includes(bad),
      bad,
    );
  }
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });

test('softrdma --help lists the commands', () => {
  const r = run('--help');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /devinfo/);
});

test('softrdma with an unknown command exits 2 with the help on stderr', () => {
  const r = run('frobnicate');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown command 'frobnicate'/);
});

test('softrdma devinfo prints the iWARP device like ibv_devinfo', () => {
  const r = run('devinfo');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^hca_id:\tsoftrdma0$/m);
  assert.match(r.stdout, /transport:\t+iWARP \(1\)/);
  assert.match(r.stdout, /state:\t+PORT_ACTIVE \(4\)/);
  assert.match(r.stdout, /link_layer:\t+Ethernet/);
  assert.doesNotMatch(r.stdout, /max_qp:/);
});

test('softrdma devinfo -v adds the device limits, which match what the RNIC enforces', () => {
  const r = run('devinfo', '-v');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /max_qp_rd_atom:\s+128/);
  assert.match(r.stdout, /atomic_cap:\s+ATOMIC_NONE \(0\)/);
  assert.match(r.stdout, /GID\[ {2}0\]:/);
});

test('softrdma devinfo --help and a bad option', () => {
  assert.match(run('devinfo', '--help').stdout, /Usage: softrdma devinfo/);
  const r = run('devinfo', '--bogus');
  assert.equal(r.status, 2);
});

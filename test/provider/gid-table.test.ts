/**
 * The RoCE GID table's rules (src/provider/gid-table.ts), with the host's addresses and the
 * pinning variable given: indices stay while an address exists, a gone address leaves an empty
 * slot that the next new address takes, trailing empty slots go, and SOFTRDMA_ROCE_ADDRS pins
 * the table and names each entry it cannot use.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type HostAddress, isHostAddress, RoceGidTable } from '../../src/provider/gid-table.js';
import { gidToAddress, ipv6Bytes } from '../../src/wire/ib/gid-address.js';

const ip = (g: Uint8Array): string => gidToAddress(g) ?? '-';

test('addresses keep their index; a removed one leaves an empty slot the next new one takes; trailing empty slots go', () => {
  let host: HostAddress[] = ['127.0.0.1', '10.0.0.1', '10.0.0.2'].map((address) => ({ address, netdev: 'eth0' }));
  const t = new RoceGidTable(
    () => undefined,
    () => host,
    () => true,
  );
  assert.deepEqual(t.gids().map(ip), ['127.0.0.1', '10.0.0.1', '10.0.0.2']);
  host = host.filter((h) => h.address !== '10.0.0.1');
  assert.equal(t.refresh(), true);
  assert.deepEqual(t.gids().map(ip), ['127.0.0.1', '-', '10.0.0.2'], 'index 2 does not move');
  assert.equal(t.refresh(), false, 'nothing changed');
  host = [...host, { address: '10.0.0.3', netdev: 'eth1' }, { address: '10.0.0.4', netdev: null }];
  assert.equal(t.refresh(), true);
  assert.deepEqual(t.gids().map(ip), ['127.0.0.1', '10.0.0.3', '10.0.0.2', '10.0.0.4']);
  assert.deepEqual(
    t.entries().map((e) => e?.netdev),
    ['eth0', 'eth1', 'eth0', null],
  );
  host = host.filter((h) => h.address !== '10.0.0.4');
  t.refresh();
  assert.deepEqual(t.gids().map(ip), ['127.0.0.1', '10.0.0.3', '10.0.0.2'], 'a trailing empty slot is dropped');
  assert.deepEqual([...t.gids()[0]!], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1], 'IPv4-mapped');
});

test('SOFTRDMA_ROCE_ADDRS pins the table in its order; an entry that is no address or not this host is named', () => {
  let env: string | undefined = '10.0.0.2, 127.0.0.2';
  const local = new Set(['10.0.0.2', '127.0.0.2']);
  const t = new RoceGidTable(
    () => env,
    () => [{ address: '10.0.0.9', netdev: 'eth0' }],
    (a) => local.has(a),
  );
  assert.deepEqual(t.gids().map(ip), ['10.0.0.2', '127.0.0.2'], 'exactly the pinned addresses, not those of the host');
  assert.deepEqual(t.problems(), []);
  env = '10.0.0.2,10.1.2.3,bogus';
  t.refresh();
  assert.deepEqual(t.problems(), [
    'SOFTRDMA_ROCE_ADDRS: 10.1.2.3 is not an address of this host',
    "SOFTRDMA_ROCE_ADDRS: 'bogus' is not an IPv4 or IPv6 address",
  ]);
  env = undefined;
  t.refresh();
  assert.deepEqual(t.gids().map(ip), ['10.0.0.9'], 'unpinned: the host again');
});

test('IPv6 addresses are GIDs of their own (link-local included) in the same stable slots; SOFTRDMA_ROCE_ADDRS takes IPv6 entries', () => {
  let host: HostAddress[] = [
    { address: '127.0.0.1', netdev: 'lo' },
    { address: '::1', netdev: 'lo' },
    { address: 'fe80::1', netdev: 'eth0' },
    { address: 'fd00:1::5', netdev: 'eth0' },
  ];
  const t = new RoceGidTable(
    () => undefined,
    () => host,
    () => true,
  );
  assert.deepEqual(t.gids().map(ip), ['127.0.0.1', '::1', 'fe80::1', 'fd00:1::5']);
  assert.deepEqual([...t.gids()[3]!], [...ipv6Bytes('fd00:1::5')], 'the address itself, not IPv4-mapped');
  host = host.filter((h) => h.address !== 'fe80::1');
  t.refresh();
  host = [...host, { address: '10.0.0.7', netdev: 'eth0' }];
  t.refresh();
  assert.deepEqual(t.gids().map(ip), ['127.0.0.1', '::1', '10.0.0.7', 'fd00:1::5'], 'the freed slot goes to the next new address');

  let env: string | undefined = 'fd00:1:0::5,127.0.0.1';
  const local = new Set(['fd00:1::5', '127.0.0.1']);
  const p = new RoceGidTable(
    () => env,
    () => [],
    (a) => local.has(a),
  );
  assert.deepEqual(p.gids().map(ip), ['fd00:1::5', '127.0.0.1'], 'pinned, in canonical text');
  assert.deepEqual(p.problems(), []);
  env = 'fd00:1::5,fd00:9::9,fe80::1%eth0x,12345::';
  p.refresh();
  assert.deepEqual(p.problems(), [
    'SOFTRDMA_ROCE_ADDRS: fd00:9::9 is not an address of this host',
    'SOFTRDMA_ROCE_ADDRS: fe80::1%eth0x is not an address of this host',
    "SOFTRDMA_ROCE_ADDRS: '12345::' is not an IPv4 or IPv6 address",
  ]);
});

test('this host: loopback is local (all of 127/8 on Linux), a documentation address is not', () => {
  assert.equal(isHostAddress('127.0.0.1'), true);
  if (process.platform === 'linux') assert.equal(isHostAddress('127.0.0.2'), true);
  assert.equal(isHostAddress('203.0.113.77'), false);
  assert.equal(isHostAddress('not-an-address'), false);
});

test('softrdma link refuses a RoCE device pinned to an address this host does not have, naming the variable and the entry', () => {
  const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
  const r = spawnSync(process.execPath, [bin, 'link', 'softroce0'], {
    encoding: 'utf8',
    env: { ...process.env, SOFTRDMA_ROCE_ADDRS: '127.0.0.1,203.0.113.77' },
  });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /softroce0: SOFTRDMA_ROCE_ADDRS: 203\.0\.113\.77 is not an address of this host/);
  const ok = spawnSync(process.execPath, [bin, 'link', 'softroce0'], {
    encoding: 'utf8',
    env: { ...process.env, SOFTRDMA_ROCE_ADDRS: '127.0.0.2,127.0.0.1' },
  });
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /^link softroce0\/1 state ACTIVE .* netdev lo 127\.0\.0\.2 127\.0\.0\.1$/m, 'the pinned table, in its order');
});

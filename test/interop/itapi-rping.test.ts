/**
 * Interop: IT-API against a real peer. The IT-API rping server
 * (examples/itapi/rping-server.ts) runs on the host inside the kernel-peer harness's network
 * namespace (192.168.77.1) and answers `rping -c -C 10 -V -v` of a Linux guest (siw, rdma-core
 * 44.0) booted by `run-guest.sh`.
 *
 * Needs root and the kernel-peer harness (test/interop/kernel-peer; see harness.ts for the skip
 * rules). Run with `npm run test:interop`, which builds the guest first.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HOST_IP, harness, type Proc, repo, run } from './harness.js';

const server = join(repo, 'dist/examples/itapi/rping-server.js');
const PORT = 7174;
const COUNT = 10;

const h = harness();

test('interop: the IT-API rping server answers the kernel-peer guest’s rping -c -C 10 -V (Linux siw)', {
  skip: 'skip' in h ? h.skip : false,
  timeout: 300_000,
}, async () => {
  if ('skip' in h) return;
  assert.ok(existsSync(server), `${server} missing: npm run build`);
  const srv = run(
    join(h.dir, 'host-exec.sh'),
    ['node', server, '--addr', HOST_IP, '--port', String(PORT), '--count', String(COUNT), '-v'],
    h.dir,
  );
  let guest: Proc | null = null;
  let guestRc = -1;
  let serverRc = -1;
  try {
    const listening = await srv.wait(new RegExp(`^rping server listening on ${HOST_IP.replace(/\./g, '\\.')}:${PORT}$`), 20_000);
    assert.ok(listening, `the server did not start listening:\n${srv.lines.join('\n')}`);
    guest = run(join(h.dir, 'run-guest.sh'), ['-t', '240', `rping -c -a ${HOST_IP} -p ${PORT} -C ${COUNT} -V -v`], h.dir);
    guestRc = await guest.done;
    const t = setTimeout(() => srv.child.kill('SIGTERM'), 30_000);
    serverRc = await srv.done;
    clearTimeout(t);
  } finally {
    if (srv.child.exitCode === null && srv.child.signalCode === null) srv.child.kill('SIGTERM');
    if (guest && guest.child.exitCode === null) guest.child.kill('SIGTERM');
    console.log(`---- guest: rping -c -a ${HOST_IP} -p ${PORT} -C ${COUNT} -V -v (run-guest.sh rc ${guestRc}) ----`);
    for (const l of guest?.lines ?? []) console.log(`[guest] ${l}`);
    console.log(`---- host (netns rdmapeer): IT-API rping-server.js (rc ${serverRc}) ----`);
    for (const l of srv.lines) console.log(`[itapi-server] ${l}`);
  }
  const gl = guest?.lines ?? [];
  const pings = gl.filter((l) => /^ping data: rdma-ping-\d+: /.test(l));
  assert.equal(pings.length, COUNT, `guest printed ${pings.length} ping lines`);
  for (const [i, l] of pings.entries()) assert.match(l, new RegExp(`^ping data: rdma-ping-${i}: `));
  assert.ok(!gl.some((l) => /data mismatch|failed|error/i.test(l)), 'guest reported an error');
  assert.equal(guestRc, 0, 'guest rping exit status');
  const served = srv.lines.filter((l) => /^server ping data: rdma-ping-\d+: /.test(l));
  assert.equal(served.length, COUNT, `server printed ${served.length} ping lines`);
  // What the server read is what the guest validated and printed.
  for (const [i, l] of served.entries()) assert.equal(l.slice('server '.length), pings[i]);
  assert.ok(srv.lines.includes('server DISCONNECT EVENT...'), 'server saw the disconnect');
  assert.equal(serverRc, 0, 'server exit status');
});

/**
 * A peer that cannot be reached is reported with the socket's own errno, as librdmacm's
 * UNREACHABLE event carries the kernel's: the Node API's ConnectError and `softrdma rping` say
 * ENETUNREACH (or whatever a plain TCP connect to the address says), not ETIMEDOUT; a host
 * name that does not resolve is a ConnectError too.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConnectError, openDevice } from '../../src/index.js';

const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
/** TEST-NET-1 (RFC 5737): never a real host. */
const NOWHERE = '192.0.2.1';

/** What a plain TCP connect to NOWHERE fails with at once (ENETUNREACH without a default route), or null if it does not fail within 1 s. */
async function tcpErrno(): Promise<string | null> {
  return new Promise((resolve) => {
    const s = net.connect({ host: NOWHERE, port: 7 });
    const t = setTimeout(() => {
      s.destroy();
      resolve(null);
    }, 1000);
    s.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(t);
      resolve(e.code ?? null);
    });
    s.on('connect', () => {
      clearTimeout(t);
      s.destroy();
      resolve(null);
    });
  });
}

test("connect to an address without a route: ConnectError with the socket's errno; rping says it too", async (t) => {
  const code = await tcpErrno();
  if (code === null || code === 'ETIMEDOUT')
    return t.skip(`${NOWHERE} does not fail at once here (there is a default route): run in a network namespace with only lo`);
  const dev = openDevice();
  try {
    await assert.rejects(dev.connect({ host: NOWHERE, port: 7174, timeout: 5000 }), (e: unknown) => {
      assert.ok(e instanceof ConnectError, String(e));
      assert.equal(e.code, code);
      return true;
    });
  } finally {
    await dev.close();
  }
  const r = spawnSync(process.execPath, [bin, 'rping', '-c', '-a', NOWHERE, '-C', '1'], { encoding: 'utf8', timeout: 30_000 });
  assert.notEqual(r.status, 0);
  // A closed network that answers with a TCP reset is a refusal (librdmacm's REJECTED with
  // -ECONNREFUSED), not an unreachable peer; either way the socket's errno is what rping prints.
  const word = code === 'ECONNREFUSED' ? 'refused' : 'unreachable';
  assert.match(r.stderr, new RegExp(`${word}: ${code}`));
});

test('connect to a host name that does not resolve: ConnectError ENOTFOUND (or EAI_AGAIN without a resolver)', async () => {
  const dev = openDevice();
  try {
    await assert.rejects(dev.connect({ host: 'no-such-host.invalid', port: 7174, timeout: 5000 }), (e: unknown) => {
      assert.ok(e instanceof ConnectError, String(e));
      assert.match(e.code, /^(ENOTFOUND|EAI_AGAIN)$/);
      return true;
    });
  } finally {
    await dev.close();
  }
});

test('listen on a busy port: EADDRINUSE, the failing call named once', async () => {
  const dev = openDevice();
  try {
    const first = await dev.listen({ host: '127.0.0.1' });
    try {
      await assert.rejects(dev.listen({ host: '127.0.0.1', port: first.port }), (e: Error & { code?: string }) => {
        assert.equal(e.code, 'EADDRINUSE');
        assert.doesNotMatch(e.message, /rdma_listen: rdma_listen/);
        assert.match(e.message, /rdma_listen/);
        return true;
      });
    } finally {
      await first.close();
    }
  } finally {
    await dev.close();
  }
});

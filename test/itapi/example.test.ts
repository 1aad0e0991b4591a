/**
 * Runs the IT-API example (`node dist/examples/itapi/run.js`: server and client as two
 * processes on 127.0.0.1) and checks what both sides print.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const run = join(dirname(fileURLToPath(import.meta.url)), '../../examples/itapi/run.js');

test('examples/itapi: the client and the server exchange RDMA Read, RDMA Write and Send, then both disconnect', () => {
  const r = spawnSync(process.execPath, [run], { encoding: 'utf8', timeout: 40_000 });
  const out = r.stdout;
  assert.equal(r.status, 0, `run.js failed:\n${out}\n${r.stderr}`);
  const lines = out.split('\n');
  const has = (re: RegExp): void =>
    assert.ok(
      lines.some((l) => re.test(l)),
      `no line matching ${re}:\n${out}`,
    );
  has(/^\[server\] listening on port \d+$/);
  has(/^\[server\] event: IT_CM_REQ_CONN_REQUEST_EVENT from=127\.0\.0\.1 /);
  has(/^\[server\] client offers 128 bytes at 0x[0-9a-f]+ \(context 0x[0-9a-f]+\): "hello from the client"$/);
  has(/^\[client\] event: IT_CM_MSG_CONN_ESTABLISHED_EVENT .*private_data="welcome"$/);
  has(/^\[server\] event: IT_CM_MSG_CONN_ESTABLISHED_EVENT/);
  has(/^\[server\] event: IT_DTO_RDMA_READ_CMPL_EVENT cookie=2 status=0 length=64$/);
  has(/^\[server\] read from the client: "client buffer: read me"$/);
  has(/^\[server\] event: IT_DTO_RDMA_WRITE_CMPL_EVENT cookie=3 status=0/);
  has(/^\[server\] event: IT_DTO_SEND_CMPL_EVENT cookie=4 status=0 length=4$/);
  has(/^\[client\] event: IT_DTO_RC_RECV_CMPL_EVENT cookie=1 status=0 length=4$/);
  has(/^\[client\] received: "done"$/);
  has(/^\[client\] the server wrote: "reply to \\"client buffer: read me\\""$/);
  has(/^\[client\] event: IT_CM_MSG_CONN_DISCONNECT_EVENT/);
  has(/^\[server\] event: IT_CM_MSG_CONN_DISCONNECT_EVENT/);
  has(/^\[client\] client done$/);
  has(/^\[server\] server done$/);
  has(/^\[run\] client exit 0, server exit 0$/);
  // The server's read precedes its write, which precedes "done" at the client.
  const at = (re: RegExp): number => lines.findIndex((l) => re.test(l));
  assert.ok(at(/RDMA_READ_CMPL/) < at(/RDMA_WRITE_CMPL/));
  assert.ok(at(/RDMA_WRITE_CMPL/) < at(/client\] received: "done"/));
});

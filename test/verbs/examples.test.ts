/**
 * The ports of the manual's example programs (examples/verbs/, compiled to dist/examples/verbs/)
 * run as a user runs them — `node dist/examples/verbs/<name>.js`, both sides on loopback in two
 * processes — and print what the C programs print.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { freePort } from '../helpers/net.js';
import { freeUdpPort } from '../helpers/roce-port.js';

const T = { timeout: 30_000 };

function run(name: string, args: string[] = []): { status: number | null; stdout: string; stderr: string } {
  const script = fileURLToPath(new URL(`../../examples/verbs/${name}.js`, import.meta.url));
  const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', timeout: 25_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The lines one role printed (the loopback runner prefixes them with "[server] " / "[client] "). */
function linesOf(out: string, role: 'server' | 'client'): string[] {
  const tag = `[${role}] `;
  return out
    .split('\n')
    .filter((l) => l.startsWith(tag))
    .map((l) => l.slice(tag.length));
}

/** Matches `lines` against `want` (strings exact, RegExps anchored) in order; returns the captures. */
function expectLines(lines: string[], want: (string | RegExp)[]): RegExpMatchArray[] {
  assert.equal(lines.length, want.length, `got:\n${lines.join('\n')}`);
  const caps: RegExpMatchArray[] = [];
  want.forEach((w, i) => {
    if (typeof w === 'string') assert.equal(lines[i], w, `line ${i + 1}`);
    else {
      const m = lines[i]!.match(new RegExp(`^${w.source}$`));
      assert.ok(m, `line ${i + 1}: ${JSON.stringify(lines[i])} !~ ${w}`);
      caps.push(m);
    }
  });
  return caps;
}

const HEX = '0x([0-9a-f]+)';

test('rdma_rc_example: both sides print the C program’s lines, exchange consistent records, and end with "test result is 0"', T, () => {
  const r = run('rdma_rc_example');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(r.stderr, '');
  const dash = ' ------------------------------------------------';
  const common = (role: 'server' | 'client') => [
    'TCP connection was established',
    'searching for IB devices in host',
    'found 2 device(s)',
    /device not specified, using first one found: softrdma\d+/,
    ...(role === 'server' ? ["going to send the message: 'SEND operation '"] : []),
    new RegExp(`MR was registered with addr=${HEX}, lkey=${HEX}, rkey=${HEX}, flags=0x7`),
    new RegExp(`QP was created, QP number=${HEX}`),
    '',
    'Local LID = 0x0',
    new RegExp(`Remote address = ${HEX}`),
    new RegExp(`Remote rkey = ${HEX}`),
    new RegExp(`Remote QP number = ${HEX}`),
    'Remote LID = 0x0',
  ];
  const srv = expectLines(linesOf(r.stdout, 'server'), [
    dash,
    ' Device name : "(null)"',
    ' IB port : 1',
    / TCP port : \d+/,
    dash,
    '',
    /waiting on port \d+ for TCP connection/,
    ...common('server'),
    'QP state was change to RTS',
    'Send Request was posted',
    'completion was found in CQ with status 0x0',
    "Contents of server buffer: 'RDMA write operation'",
    '',
    'test result is 0',
  ]);
  const cli = expectLines(linesOf(r.stdout, 'client'), [
    dash,
    ' Device name : "(null)"',
    ' IB port : 1',
    ' IP : 127.0.0.1',
    / TCP port : \d+/,
    dash,
    '',
    ...common('client'),
    'Receive Request was posted',
    'QP state was change to RTS',
    'completion was found in CQ with status 0x0',
    "Message is: 'SEND operation '",
    'RDMA Read Request was posted',
    'completion was found in CQ with status 0x0',
    "Contents of server's buffer: 'RDMA read operation '",
    "Now replacing it with: 'RDMA write operation'",
    'RDMA Write Request was posted',
    'completion was found in CQ with status 0x0',
    '',
    'test result is 0',
  ]);
  // The 34-byte record crossed intact: each side's "Remote ..." is the other's MR and QP.
  const pick = (caps: RegExpMatchArray[], prefix: string) => caps.find((m) => m[0].startsWith(prefix))!;
  for (const [me, peer] of [
    [srv, cli],
    [cli, srv],
  ] as const) {
    const mr = pick(peer, 'MR was registered');
    assert.equal(pick(me, 'Remote address')[1], mr[1]);
    assert.equal(pick(me, 'Remote rkey')[1], mr[3]);
    assert.equal(pick(me, 'Remote QP number')[1], pick(peer, 'QP was created')[1]);
  }
});

test('rdma_rc_example -g 0: the GID goes in the record and the remote GID is printed', T, () => {
  const r = run('rdma_rc_example', ['-g', '0']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  for (const role of ['server', 'client'] as const) {
    const lines = linesOf(r.stdout, role);
    assert.ok(lines.includes(' GID index : 0'));
    const gid = lines.find((l) => l.startsWith('Remote GID ='));
    assert.match(gid ?? '', /^Remote GID =([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    assert.notEqual(gid, 'Remote GID =00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00');
  }
});

/** Runs one role of an example as its own process, with `env` added. */
function runRole(name: string, args: string[], env: Record<string, string>): Promise<{ status: number | null; out: string }> {
  const script = fileURLToPath(new URL(`../../examples/verbs/${name}.js`, import.meta.url));
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d));
    c.stderr.on('data', (d: Buffer) => (out += d));
    const t = setTimeout(() => c.kill(), 25_000);
    c.on('exit', (status) => {
      clearTimeout(t);
      resolve({ status, out });
    });
  });
}

/**
 * The RC example on softroce0 between two processes that own different addresses (server
 * 127.0.0.2, client 127.0.0.1) on one ephemeral RoCEv2 UDP port, as two hosts would.
 */
async function rcOnRoce(
  extra: string[],
): Promise<{ srv: { status: number | null; out: string }; cli: { status: number | null; out: string } }> {
  const udp = String(await freeUdpPort());
  const port = String(await freePort());
  const srv = runRole('rdma_rc_example', ['-s', '-p', port, '-d', 'softroce0', ...extra], {
    SOFTRDMA_ROCE_ADDRS: '127.0.0.2',
    SOFTRDMA_ROCE_PORT: udp,
  });
  let cli = await runRole('rdma_rc_example', ['-p', port, '-d', 'softroce0', ...extra, '127.0.0.2'], {
    SOFTRDMA_ROCE_ADDRS: '127.0.0.1',
    SOFTRDMA_ROCE_PORT: udp,
  });
  // The server may not listen yet (the example's "failed to establish TCP connection").
  for (let i = 0; i < 20 && /TCP connection/.test(cli.out) && !/TCP connection was established/.test(cli.out); i++) {
    await new Promise((r) => setTimeout(r, 250));
    cli = await runRole('rdma_rc_example', ['-p', port, '-d', 'softroce0', ...extra, '127.0.0.2'], {
      SOFTRDMA_ROCE_ADDRS: '127.0.0.1',
      SOFTRDMA_ROCE_PORT: udp,
    });
  }
  return { srv: await srv, cli };
}

test(
  'rdma_rc_example -d softroce0 -g 0 (RoCEv2), two processes: the GIDs in the records, RTR with the GRH, RTS by ibv_modify_qp alone; Send, RDMA Read and RDMA Write, "test result is 0"',
  T,
  async () => {
    const { srv, cli } = await rcOnRoce(['-g', '0']);
    assert.equal(cli.status, 0, cli.out);
    assert.equal(srv.status, 0, srv.out);
    assert.match(cli.out, /Remote GID =00:00:00:00:00:00:00:00:00:00:ff:ff:7f:00:00:02\n/, "the server's IPv4-mapped GID");
    assert.match(srv.out, /Remote GID =00:00:00:00:00:00:00:00:00:00:ff:ff:7f:00:00:01\n/, "the client's IPv4-mapped GID");
    assert.match(cli.out, /Message is: 'SEND operation '\n/);
    assert.match(cli.out, /Contents of server's buffer: 'RDMA read operation '\n/);
    assert.match(srv.out, /Contents of server buffer: 'RDMA write operation'\n/);
    for (const r of [srv, cli]) assert.match(r.out, /QP state was change to RTS\n[\s\S]*test result is 0\n$/);
  },
);

test(
  'rdma_rc_example -d softroce0 without -g: RoCE needs a GRH, so RTR without one is EINVAL (as on Linux), "test result is 1"',
  T,
  async () => {
    const { srv, cli } = await rcOnRoce([]);
    for (const r of [srv, cli]) {
      assert.equal(r.status, 1, r.out);
      assert.match(r.out, /failed to modify QP state to RTR/);
      assert.match(r.out, /test result is 1/);
    }
  },
);

test('rdma_rc_example: usage on a bad option, exit status 1', () => {
  const r = run('rdma_rc_example', ['-x']);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^Usage:/);
});

test('srq: every message is received through the SRQ, from every QP; the client gets one reply per max_wr', T, () => {
  const r = run('srq', ['-c', '20', '-q', '4', '-w', '6', '-l', '4096']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const srv = linesOf(r.stdout, 'server');
  const cli = linesOf(r.stdout, 'client');
  assert.equal(srv[0], 'waiting for connection from client...');
  const recv = srv.filter((l) => l.startsWith('recv count:'));
  assert.deepEqual(
    recv.map((l) => Number(/recv count: (\d+)/.exec(l)![1])),
    Array.from({ length: 20 }, (_, i) => i + 1),
  );
  assert.equal(new Set(recv.map((l) => /qp_num: (\d+)/.exec(l)![1])).size, 4, 'all QPs received');
  assert.deepEqual(
    srv.filter((l) => l.startsWith('send count:')),
    ['send count: 1', 'send count: 2', 'send count: 3', 'send count: 4'],
  );
  const sends = cli.filter((l) => l.startsWith('send count:'));
  assert.equal(sends.length, 20);
  assert.equal(new Set(sends.map((l) => /qp_num: (\d+)/.exec(l)![1])).size, 4, 'round-robin over the QPs');
  assert.deepEqual(
    cli.filter((l) => l.startsWith('recv count:')),
    ['recv count: 1', 'recv count: 2', 'recv count: 3', 'recv count: 4'],
  );
});

test('srq: with the defaults (100 messages of 100000 bytes, 4 QPs, max_wr 64)', T, () => {
  const r = run('srq');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const srv = linesOf(r.stdout, 'server');
  assert.equal(srv.filter((l) => /^recv count: \d+, qp_num: \d+$/.test(l)).length, 100);
  assert.match(srv.filter((l) => l.startsWith('recv count:')).at(-1)!, /^recv count: 100, /);
  assert.deepEqual(
    srv.filter((l) => l.startsWith('send count:')),
    ['send count: 1', 'send count: 2'],
  );
});

test('srq: a server without -a says "server address required (use -a)!"', () => {
  const r = run('srq', ['-s']);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, 'server address required (use -a)!\n');
});

test('iwarp_unsupported: the multicast and APM examples’ calls fail as IWARP_UNSUPPORTED documents', T, () => {
  const r = run('iwarp_unsupported');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const want = [
    /rdma_create_id\(channel, &id, node, RDMA_PS_UDP\) -> 0 \(the id exists on every device\)/,
    /rdmaUseDevice\(id, softrdma0\) -> 0/,
    /rdma_create_qp\(id, pd, \{ qp_type: IBV_QPT_UD \}\) -> -1, errno EOPNOTSUPP/,
    /ibv_create_qp\(pd, \{ qp_type: IBV_QPT_UD \}\) -> null, errno EOPNOTSUPP/,
    /rdma_connect\(id, &conn_param\) \[RDMA_PS_UDP\] -> -1, errno EOPNOTSUPP/,
    /rdma_join_multicast\(id, 239\.1\.1\.1, node\) -> -1, errno ENOSYS/,
    /ibv_create_ah\(pd, &param\.ud\.ah_attr\) -> null, errno EOPNOTSUPP/,
    /rdma_leave_multicast\(id, 239\.1\.1\.1\) -> -1, errno EADDRNOTAVAIL/,
    /rdma_post_ud_send\(.*\) -> -1, errno EOPNOTSUPP/,
    /device does not support auto path migration!/,
    /ibv_modify_qp\(qp, alt path, IBV_QP_ALT_PATH \| IBV_QP_PATH_MIG_STATE\) -> 95, errno EOPNOTSUPP/,
    /ibv_modify_qp\(qp, \{ path_mig_state: IBV_MIG_MIGRATED \}, IBV_QP_PATH_MIG_STATE\) -> 95, errno EOPNOTSUPP/,
  ];
  for (const w of want) assert.match(r.stdout, w);
  assert.doesNotMatch(r.stdout, /\[expected/);
  assert.match(r.stdout, /every call failed as documented \(IWARP_UNSUPPORTED\)\n$/);
});

test(
  'ext_atomics (manual §8.7): the device reports the extended atomics; masked Fetch&Add keeps its 16-bit fields apart, the 16-byte masked Compare&Swap swaps one word, the 32-byte Fetch&Add wraps each word',
  T,
  () => {
    const r = run('ext_atomics');
    assert.equal(r.status, 0, r.stderr);
    expectLines(linesOf(r.stdout, 'client'), [
      'exp_atomic_cap 1, extended atomics supported, sizes 8/16/32 bytes, max_fa_bit_boundary 3, log_max_atomic_inline 7',
      'masked fetch&add 8 bytes, 16-bit fields: original 0xffff0003fffe0001',
      'masked compare&swap 16 bytes: original 0x0000000000001111 0x0000000000002222',
      'fetch&add 32 bytes, 64-bit fields: original 0xffffffffffffffff 0xfffffffffffffffe 0xfffffffffffffffd 0xfffffffffffffffc',
    ]);
    expectLines(linesOf(r.stdout, 'server'), [
      'waiting for connection from client...',
      // 0xffff+1 wraps to 0 inside its field, 0x0003+1, 0xfffe+2 wraps, 0x0001+1: no carry crosses a field end.
      'target after: 0x0000000400000002 | 0x0000000000001111 0x000000000000abcd | 0x0000000000000000 0x0000000000000000 0x0000000000000000 0x0000000000000000',
    ]);
  },
);

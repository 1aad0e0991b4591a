/**
 * rdma-core's own programs, unmodified, under `softrdma exec` against a daemon: `ibv_devices`
 * and `ibv_devinfo -v` (Debian's ibverbs-utils) list and describe softrdma's devices with the
 * values the verbs face's queries give; the `ibv_*_pingpong`s (RC, UC, UD, SRQ) and perftest's
 * RDMA Write, Read, atomic and inline-send tests run between two `softrdma exec` processes over
 * softroce0 (the pingpongs checking their data), and the daemon's objects are all freed after.
 * rdmacm-utils' `rping` (over softrdma0 and softroce0), `ucmatose` and `udaddy`, and perftest's
 * `ib_write_bw -R` connect through the library's rdma_cm calls. Skips, saying why, when
 * libsoftrdma.so is not built (or built without librdmacm's calls) or the programs are not
 * installed.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { preloadLibraryPath } from '../../src/cli/daemon.js';
import { gidText } from '../../src/cli/pingpong.js';
import { PreloadDaemon } from '../../src/preload/daemon.js';
import { preloadAddon } from '../../src/preload/native.js';
import { MAX_CLIENT_RING_BYTES } from '../../src/preload/calls.js';
import { CQ_RING_MAX_ENTRIES, cqRingBytes } from '../../src/preload/cq-ring.js';
import { PreloadOp } from '../../src/preload/protocol.js';
import { ibv_transport_type } from '../../src/verbs/constants.js';
import { ip, nsSkipReason } from '../helpers/netns.js';
import { closeDevice, devices, gidTypes, openDevice, queryDevice, queryGid, queryPort } from '../../src/verbs/device.js';
import type { ibv_device_attr, ibv_port_attr } from '../../src/verbs/types.js';

const main = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** Why the programs cannot run here, or null. */
function missing(...progs: string[]): string | null {
  if (!existsSync(preloadLibraryPath())) return 'libsoftrdma.so is not built (needs a C compiler and libibverbs-dev at install)';
  for (const p of progs)
    if (spawnSync('sh', ['-c', `command -v ${p}`]).status !== 0) return `${p} is not installed (Debian: ibverbs-utils, perftest)`;
  return null;
}

/** Why programs that register memory cannot run here (the daemon's addon maps it), or null. */
function missingMem(...progs: string[]): string | null {
  return (
    missing(...progs) ??
    (preloadAddon() ? null : 'softrdma_preload.node is not built (no node_api.h at install): the daemon cannot map program memory')
  );
}

/** Runs `softrdma exec -- ARGS` (asynchronously: the daemon answers from this process). */
export function execUnder(
  socket: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main, 'exec', '--socket', socket, '--', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('close', (code) => resolve({ code, out, err }));
  });
}

async function withDaemon(fn: (d: PreloadDaemon) => Promise<void>): Promise<void> {
  const d = await PreloadDaemon.listen(join(mkdtempSync(join(tmpdir(), 'softrdma-preload-')), 'd.sock'));
  try {
    await fn(d);
    while (d.resources().clients !== 0) await new Promise((r) => setImmediate(r));
    assert.deepEqual(d.resources(), {
      clients: 0,
      contexts: 0,
      pds: 0,
      mrs: 0,
      channels: 0,
      cqs: 0,
      qps: 0,
      ahs: 0,
      srqs: 0,
      cmChannels: 0,
      cmIds: 0,
    });
  } finally {
    await d.close();
  }
}

test('ibv_devices lists the verbs face devices and node GUIDs', { skip: missing('ibv_devices') ?? false }, () =>
  withDaemon(async (d) => {
    const r = await execUnder(d.path, ['ibv_devices']);
    assert.equal(r.code, 0, r.err);
    const rows = r.out
      .split('\n')
      .slice(2)
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f.length === 2);
    assert.deepEqual(
      rows,
      devices().map((x) => [x.name, x.guid.toString(16).padStart(16, '0')]),
    );
  }),
);

// A program that takes the first device (perftest without -d decides iWARP's credit mode from
// it) must get the one its rdma_cm ids are on: SOFTRDMA_DEVICE's device comes first.
test(
  'ibv_devices under SOFTRDMA_DEVICE lists that device first, the others in their order',
  { skip: missing('ibv_devices') ?? false },
  () =>
    withDaemon(async (d) => {
      const names = (out: string) =>
        out
          .split('\n')
          .slice(2)
          .map((l) => l.trim().split(/\s+/))
          .filter((f) => f.length === 2)
          .map((f) => f[0]);
      const all = devices().map((x) => x.name);
      const last = all[all.length - 1]!;
      assert.ok(all.length >= 2 && all[0] !== last, `two devices at least: ${all.join(', ')}`);
      const r = await execUnder(d.path, ['ibv_devices'], { SOFTRDMA_DEVICE: last });
      assert.equal(r.code, 0, r.err);
      assert.deepEqual(names(r.out), [last, ...all.filter((n) => n !== last)]);
      // A name that is no device is refused before the program starts, naming the devices.
      const u = await execUnder(d.path, ['ibv_devices'], { SOFTRDMA_DEVICE: 'nosuchdevice' });
      assert.equal(u.code, 2);
      assert.match(u.err, /SOFTRDMA_DEVICE: bad value "nosuchdevice"/);
    }),
);

/** `key: value` lines of one `hca_id` block (the first occurrence of each key), values as printed. */
function blocks(text: string): Map<string, { dev: Map<string, string>; port: Map<string, string>; gids: string[] }> {
  const out = new Map<string, { dev: Map<string, string>; port: Map<string, string>; gids: string[] }>();
  let cur: { dev: Map<string, string>; port: Map<string, string>; gids: string[] } | null = null;
  let inPort = false;
  for (const line of text.split('\n')) {
    const hca = /^hca_id:\t(\S+)$/.exec(line);
    if (hca) {
      cur = { dev: new Map(), port: new Map(), gids: [] };
      out.set(hca[1]!, cur);
      inPort = false;
      continue;
    }
    if (!cur) continue;
    if (/^\t\tport:\t/.test(line)) inPort = true;
    const gid = /^\t\t\tGID\[\s*(\d+)\]:\t+(.*)$/.exec(line);
    if (gid) {
      cur.gids.push(`${gid[1]} ${gid[2]}`);
      continue;
    }
    const kv = /^\t+([a-z_0-9]+):\t+(.+)$/.exec(line);
    if (!kv) continue;
    const m = inPort ? cur.port : cur.dev;
    if (!m.has(kv[1]!)) m.set(kv[1]!, kv[2]!);
  }
  return out;
}

/** A printed value's number: `0x..`, decimal, or the `(N)` after a name. */
function num(v: string | undefined): bigint {
  assert.ok(v !== undefined);
  const paren = /\((\d+)\)$/.exec(v);
  if (paren) return BigInt(paren[1]!);
  return BigInt(v);
}

const guidText = (g: bigint) =>
  g
    .toString(16)
    .padStart(16, '0')
    .replace(/(....)(?!$)/g, '$1:');

test('ibv_devinfo -v describes each device as the verbs face queries it', { skip: missing('ibv_devinfo') ?? false }, () =>
  withDaemon(async (d) => {
    const r = await execUnder(d.path, ['ibv_devinfo', '-v']);
    assert.equal(r.code, 0, r.err);
    const got = blocks(r.out);
    assert.deepEqual(
      [...got.keys()],
      devices().map((x) => x.name),
    );
    for (const dev of devices()) {
      const b = got.get(dev.name)!;
      const ctx = openDevice(dev)!;
      try {
        const a = {} as ibv_device_attr;
        assert.equal(queryDevice(ctx, a), 0);
        assert.equal(num(b.dev.get('transport')), BigInt(dev.transport_type));
        assert.equal(b.dev.get('fw_ver'), a.fw_ver);
        assert.equal(b.dev.get('node_guid'), guidText(a.node_guid));
        assert.equal(b.dev.get('sys_image_guid'), guidText(a.sys_image_guid));
        // Every other attribute ibv_devinfo prints under the struct member's own name.
        let compared = 0;
        for (const [k, v] of Object.entries(a)) {
          const printed = b.dev.get(k);
          if (printed === undefined || typeof v === 'string' || k.endsWith('_guid')) continue;
          assert.equal(num(printed), BigInt(v), `${dev.name} ${k}`);
          compared++;
        }
        assert.ok(compared >= 35, `${dev.name}: ${compared} device attributes compared`);
        const p = {} as ibv_port_attr;
        assert.equal(queryPort(ctx, 1, p), 0);
        const portName: Record<string, string> = { lid: 'port_lid', lmc: 'port_lmc' };
        compared = 0;
        for (const [k, v] of Object.entries(p)) {
          const printed = b.port.get(portName[k] ?? k);
          if (printed === undefined || k === 'link_layer') continue;
          assert.equal(num(printed), BigInt(v), `${dev.name} port ${k}`);
          compared++;
        }
        assert.ok(compared >= 18, `${dev.name}: ${compared} port attributes compared`);
        assert.equal(b.port.get('link_layer'), ['Unspecified', 'InfiniBand', 'Ethernet'][p.link_layer]);
        // ibv_devinfo prints the entries whose interface half is not zero (its `null_gid`).
        const want: string[] = [];
        const types = gidTypes(ctx);
        for (let i = 0; i < p.gid_tbl_len; i++) {
          const g = { raw: new Uint8Array(16) };
          assert.equal(queryGid(ctx, 1, i, g), 0);
          if (g.raw.subarray(8).every((x) => x === 0)) continue;
          assert.equal(dev.transport_type, ibv_transport_type.IBV_TRANSPORT_IB);
          assert.equal(types[i], 2);
          want.push(`${i} ${gidText(g.raw)}, RoCE v2`);
        }
        assert.deepEqual(b.gids, want);
      } finally {
        closeDevice(ctx);
      }
    }
  }),
);

/** Starts `softrdma exec -- ARGS` and gives its running output and end. */
function startUnder(
  socket: string,
  args: string[],
): { out: () => string; done: Promise<{ code: number | null; out: string; err: string }> } {
  const child = spawn(process.execPath, [main, 'exec', '--socket', socket, '--', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return { out: () => out, done: new Promise((resolve) => child.once('close', (code) => resolve({ code, out, err }))) };
}

/** Whether a TCP socket listens on `port` (this network namespace's /proc/net/tcp, state 0A). */
function listening(port: number): boolean {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${hex}`) && cols[3] === '0A') return true;
    }
  }
  return false;
}

/**
 * A server and a client of one program under `softrdma exec` (the client given 127.0.0.1); both
 * must exit 0, and `check` passes on the client's output (and the server's, with `both`).
 */
async function pair(
  args: string[],
  port: number,
  both: boolean,
  check: (out: string) => void,
  daemonCheck?: (d: PreloadDaemon) => void,
): Promise<void> {
  await withDaemon(async (d) => {
    const server = startUnder(d.path, args);
    // The server listens once it has its QP; the client must not connect before.
    while (!listening(port)) {
      if (await Promise.race([server.done.then(() => true), new Promise((r) => setTimeout(() => r(false), 20))])) break;
    }
    const client = await execUnder(d.path, [...args, '127.0.0.1']);
    const s = await server.done;
    assert.equal(client.code, 0, `client: ${client.err}${client.out}`);
    assert.equal(s.code, 0, `server: ${s.err}${s.out}`);
    for (const r of both ? [client, s] : [client]) check(r.out);
    daemonCheck?.(d);
  });
}

async function pingpong(prog: string, extra: string[], port: number, daemonCheck?: (d: PreloadDaemon) => void): Promise<void> {
  await pair(
    [prog, '-d', 'softroce0', '-g', '0', '-p', String(port), '-n', '50', '-c', ...extra],
    port,
    true,
    (out) => {
      assert.match(out, /remote address: .*GID ::ffff:127\.0\.0\.1/);
      // -c: the server checks what it received (the client's pattern over its own 0x7b fill) and
      // prints a line per page that differs, without failing.
      assert.doesNotMatch(out, /invalid data/);
      assert.match(out, /^\d+ bytes in [\d.]+ seconds/m);
      assert.match(out, /^50 iters in/m);
    },
    daemonCheck,
  );
}

/** perftest's result row, on the client (a read test's server prints none): message size, iterations, then figures. */
async function perftest(prog: string, port: number): Promise<void> {
  await pair([prog, '-d', 'softroce0', '-x', '0', '-p', String(port), '-n', '50'], port, false, (out) => {
    assert.match(out, /^\s*\d+\s+50\s+[\d.]+\s+[\d.]+/m, out);
  });
}

// RDMA Write, Read and atomics reach the peer's buffer at the address the program sent it (its
// own): the region is registered at the program's address. ib_send_lat sends inline.
for (const [prog, port] of [
  ['ib_write_bw', 18611],
  ['ib_read_lat', 18612],
  ['ib_atomic_bw', 18613],
  ['ib_send_lat', 18614],
  ['ib_read_bw', 18615],
  ['ib_send_bw', 18616],
  ['ib_write_lat', 18617],
] as const) {
  test(`perftest ${prog} between two softrdma exec processes`, { skip: missingMem(prog) ?? false }, () => perftest(prog, port));
}

// Without a channel each CQ has a completion ring: every poll of the 100 completions of each side
// read the ring, and none was a request. Every post went through the QP's work-request rings
// (the receives posted in Init, the sends in RTS), each side ringing at least one doorbell and
// never asking the daemon to post. With a channel (-e), polls are requests.
test(
  'ibv_rc_pingpong between two softrdma exec processes (checked data), through the work-request and completion rings',
  { skip: missingMem('ibv_rc_pingpong') ?? false },
  () =>
    pingpong('ibv_rc_pingpong', [], 18601, (d) => {
      assert.equal(d.served(PreloadOp.POLL_CQ), 0, 'a poll of a ring CQ was a request');
      assert.equal(d.served(PreloadOp.POST_SEND), 0, 'a send was posted by request');
      assert.equal(d.served(PreloadOp.POST_RECV), 0, 'a receive was posted by request');
      assert.ok(d.served(PreloadOp.DOORBELL) >= 2, `${d.served(PreloadOp.DOORBELL)} doorbells`);
    }),
);

test('ibv_rc_pingpong with a completion channel (-e)', { skip: missingMem('ibv_rc_pingpong') ?? false }, () =>
  pingpong('ibv_rc_pingpong', ['-e'], 18602, (d) => assert.ok(d.served(PreloadOp.POLL_CQ) >= 100, `${d.served(PreloadOp.POLL_CQ)} polls`)),
);

test('ibv_uc_pingpong between two softrdma exec processes', { skip: missingMem('ibv_uc_pingpong') ?? false }, () =>
  pingpong('ibv_uc_pingpong', [], 18603),
);

// Its receives go through the S-RQ's ring: no post request, across its 16 QPs sharing the S-RQ.
test(
  'ibv_srq_pingpong between two softrdma exec processes (SRQ), receives through the S-RQ ring',
  { skip: missingMem('ibv_srq_pingpong') ?? false },
  () =>
    pingpong('ibv_srq_pingpong', [], 18604, (d) => {
      assert.equal(d.served(PreloadOp.POST_SRQ_RECV), 0, 'an S-RQ receive was posted by request');
      assert.ok(d.served(PreloadOp.DOORBELL) >= 2, `${d.served(PreloadOp.DOORBELL)} doorbells`);
    }),
);

test('ibv_ud_pingpong between two softrdma exec processes (UD, address handles)', { skip: missingMem('ibv_ud_pingpong') ?? false }, () =>
  pingpong('ibv_ud_pingpong', [], 18605),
);

test(
  'a program killed with SIGKILL mid-transfer: its objects are freed and the daemon serves on',
  { skip: missingMem('ibv_rc_pingpong', 'ibv_devices') ?? false },
  () =>
    withDaemon(async (d) => {
      // The programs themselves (not through softrdma exec), so that the signal reaches them.
      const env = { ...process.env, LD_PRELOAD: preloadLibraryPath(), SOFTRDMA_SOCKET: d.path };
      const args = ['-d', 'softroce0', '-g', '0', '-p', '18621', '-n', '1000000'];
      const run = (extra: string[]) => {
        const child = spawn('ibv_rc_pingpong', [...args, ...extra], { env, stdio: 'ignore' });
        return { child, done: new Promise<number | null>((r) => child.once('close', (_c, sig) => r(sig === 'SIGKILL' ? 9 : null))) };
      };
      const server = run([]);
      let client: ReturnType<typeof run> | null = null;
      try {
        while (!listening(18621)) await new Promise((r) => setTimeout(r, 20));
        client = run(['127.0.0.1']);
        // Mid-transfer: messages are flowing (posted through the rings or by request).
        await flowing(d);
        assert.ok(d.resources().mrs >= 2);
        client.child.kill('SIGKILL');
        assert.equal(await client.done, 9);
        server.child.kill('SIGKILL');
        assert.equal(await server.done, 9);
      } finally {
        // Nothing left behind if an assertion failed.
        client?.child.kill('SIGKILL');
        server.child.kill('SIGKILL');
      }
      // withDaemon checks every counter is back at rest; the daemon still answers a new program.
      const r = await execUnder(d.path, ['ibv_devices']);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /softroce0/);
    }),
);

/**
 * Waits until the daemon has taken at least 20 posts (doorbells of the work-request rings, or
 * post requests); fails after 60 s.
 */
async function flowing(d: PreloadDaemon): Promise<void> {
  const posts = () => d.served(PreloadOp.DOORBELL) + d.served(PreloadOp.POST_SEND);
  for (let waited = 0; posts() < 20; waited += 20) {
    if (waited > 60_000) assert.fail(`only ${posts()} posts reached the daemon in 60 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Why the rdma_cm programs cannot run here, or null. */
function missingCm(...progs: string[]): string | null {
  const why = missingMem(...progs);
  if (why) return why;
  const features = join(dirname(preloadLibraryPath()), 'libsoftrdma.features');
  const built = existsSync(features) && readFileSync(features, 'utf8').includes('rdmacm=1');
  return built ? null : 'libsoftrdma.so is built without librdmacm calls (no <rdma/rdma_cma.h> at install: Debian librdmacm-dev)';
}

/** Starts `PROG ARGS` with the library preloaded (the program itself: signals reach it). */
function startPreloaded(socket: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(args[0]!, args.slice(1), {
    env: { ...process.env, ...env, LD_PRELOAD: preloadLibraryPath(), SOFTRDMA_SOCKET: socket },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((r) =>
    child.once('close', (code, signal) => r({ code, signal, out })),
  );
  return { child, done, output: () => out };
}

/**
 * `p` (a program's exit) within `ms`; past it, both programs are killed and the test fails with
 * what each printed, so a program that waits for ever is a failure that says where it stopped,
 * not a file killed at the runner's timeout.
 */
async function within<T>(p: Promise<T>, ms: number, what: string, progs: readonly ReturnType<typeof startPreloaded>[]): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      for (const x of progs) x.child.kill('SIGKILL');
      const said = progs.map((x) => `${x.child.spawnargs.join(' ')}:\n${x.output()}`).join('\n');
      reject(new Error(`${what} did not exit within ${ms / 1000} s; the programs printed:\n${said}`));
    }, ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long a cmPair client may run, and how long its server may take to exit after it. */
const CLIENT_DEADLINE_MS = 120_000;
const SERVER_DEADLINE_MS = 30_000;

/** A program's exit, as {@link startPreloaded} reports it. */
type Exit = { code: number | null; signal: NodeJS.Signals | null; out: string };

/**
 * perftest 4.5 -R's own race, or null: after its exchange connection the client resolves,
 * creates its QP and connects while the server makes a new id and listens on the same port; a
 * client that gets there first is refused (`RDMA_CM_EVENT_REJECTED; error: -111`, as from the
 * kernel's rdma_cm), and its retry (`rdma_cm_client_connection`) reuses the ids it has just
 * destroyed and crashes, leaving the server waiting. Nothing on softrdma's side is wrong then.
 */
function perftestListenRace(c: Exit): string | null {
  const crashed = c.signal === 'SIGSEGV' || c.code === 139;
  return crashed && /RDMA_CM_EVENT_REJECTED; error: -111/.test(c.out)
    ? "perftest 4.5 -R's client connected before its server's data listen and crashed in its own retry"
    : null;
}

/**
 * An rdma_cm server and client under the library: the client starts once the server's
 * `rdma_listen` was answered; both must exit 0 and `check` passes on each one's output. When
 * `known` recognises the client's failure as the program's own race, the pair runs again (twice at most),
 * and the retry is printed (`RETRY: …`) so that it shows in the test output.
 */
async function cmPair(
  server: string[],
  client: string[],
  env: NodeJS.ProcessEnv,
  check: (out: string, who: 'server' | 'client') => void,
  /** The server's call that must have been served before the client starts (its listen, or its join). */
  ready: PreloadOp = PreloadOp.CM_LISTEN,
  known: (c: Exit) => string | null = () => null,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    let again = false;
    await withDaemon(async (d) => {
      const s = startPreloaded(d.path, server);
      const sDone = s.done.then((r) => r);
      let ended = false;
      void sDone.then(() => (ended = true));
      const start = Date.now();
      while (d.served(ready) < 1 && !ended) {
        if (Date.now() - start > CLIENT_DEADLINE_MS) {
          s.child.kill('SIGKILL');
          assert.fail(`the server never reached its ${PreloadOp[ready]}: ${s.output()}`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      const cp = startPreloaded(d.path, client, env);
      const c = await within(cp.done, CLIENT_DEADLINE_MS, 'the client', [cp, s]);
      const why = attempt < 3 ? known(c) : null;
      if (why) {
        console.log(`RETRY: ${client.join(' ')}: ${why}; the pair runs again (attempt ${attempt + 1})`);
        s.child.kill('SIGKILL');
        await sDone;
        again = true;
        return;
      }
      const sr = await within(sDone, SERVER_DEADLINE_MS, `the server (after its client exited with ${c.code ?? c.signal}: ${c.out})`, [s]);
      assert.equal(c.code, 0, `client: ${c.out}`);
      assert.equal(sr.code, 0, `server: ${sr.out}`);
      check(c.out, 'client');
      check(sr.out, 'server');
    });
    if (!again) return;
  }
}

/** rping's verified data lines (-V -v): `ping data: rdma-ping-N: ...` for N in 0..count-1. */
function rpingChecked(count: number) {
  return (out: string, who: 'server' | 'client') => {
    const lines = out.split('\n').filter((l) => /ping data: rdma-ping-\d+: /.test(l));
    assert.equal(lines.length, count, `${who}: ${out}`);
    for (const [n, l] of lines.entries()) assert.match(l, new RegExp(`rdma-ping-${n}: `));
    assert.doesNotMatch(out, /verify failed|error/i);
  };
}

test('rping -C 100 -V over softrdma0 (iWARP) between two softrdma exec processes', { skip: missingCm('rping') ?? false }, () =>
  cmPair(
    ['rping', '-s', '-a', '127.0.0.1', '-p', '18631', '-C', '100', '-v'],
    ['rping', '-c', '-a', '127.0.0.1', '-p', '18631', '-C', '100', '-v', '-V'],
    {},
    rpingChecked(100),
  ),
);

// Both devices own every address here, so the client's SOFTRDMA_DEVICE picks softroce0; the
// server listens on both devices.
test('rping -C 100 -V over softroce0 (SOFTRDMA_DEVICE of the client)', { skip: missingCm('rping') ?? false }, () =>
  cmPair(
    ['rping', '-s', '-a', '127.0.0.1', '-p', '18632', '-C', '100', '-v'],
    ['rping', '-c', '-a', '127.0.0.1', '-p', '18632', '-C', '100', '-v', '-V'],
    { SOFTRDMA_DEVICE: 'softroce0' },
    rpingChecked(100),
  ),
);

test('ucmatose: two connections, their messages both ways', { skip: missingCm('ucmatose') ?? false }, () =>
  cmPair(
    ['ucmatose', '-b', '127.0.0.1', '-p', '18633', '-c', '2', '-C', '5'],
    ['ucmatose', '-s', '127.0.0.1', '-p', '18633', '-c', '2', '-C', '5'],
    {},
    (out) => {
      assert.match(out, /data transfers complete/);
      assert.match(out, /return status 0/);
    },
  ),
);

test('udaddy: UD messages through rdma_cm (SIDR) over softroce0', { skip: missingCm('udaddy') ?? false }, () =>
  cmPair(['udaddy', '-b', '127.0.0.1'], ['udaddy', '-s', '127.0.0.1'], {}, (out) => {
    assert.match(out, /data transfers complete/);
    assert.match(out, /return status 0/);
  }),
);

// mckey: the receiver joins the group, then the sender joins and sends; the receiver ends only
// once it has received every message (mckey polls its receive CQ for -C completions).
for (const [what, extra] of [
  ['full members', []],
  ['a send-only full member sending (-o)', ['-o']],
] as const) {
  test(`mckey: multicast through rdma_join_multicast over softroce0, ${what}`, { skip: missingCm('mckey') ?? false }, () =>
    cmPair(
      ['mckey', '-m', '239.255.1.3', '-b', '127.0.0.1', '-C', '5'],
      ['mckey', '-m', '239.255.1.3', '-b', '127.0.0.1', '-s', '-C', '5', ...extra],
      {},
      (out, who) => {
        assert.match(out, /joined dgid: ::ffff:239\.255\.1\.3/, `${who}: ${out}`);
        assert.match(out, /data transfers complete/, `${who}: ${out}`);
        assert.match(out, /return status 0/, `${who}: ${out}`);
      },
      PreloadOp.CM_JOIN_MCAST,
    ),
  );
}

// perftest -R: the connection through rdma_cm (rdma_resolve_addr picks the device by address);
// the client prints the result row (a read or latency test's server prints none, a bw server
// does). perftest 4.5's own -R race (perftestListenRace) gets up to two reported retries.
for (const [prog, port, size] of [
  ['ib_write_bw', 18634, 65536],
  ['ib_read_bw', 18641, 65536],
  ['ib_send_bw', 18642, 65536],
  ['ib_atomic_bw', 18643, 8],
  ['ib_write_lat', 18644, 2],
  ['ib_read_lat', 18645, 2],
  ['ib_send_lat', 18646, 2],
] as const) {
  test(`perftest ${prog} -R (connected through rdma_cm)`, { skip: missingCm(prog) ?? false }, () =>
    cmPair(
      [prog, '-R', '-n', '5', '-p', String(port)],
      [prog, '-R', '-n', '5', '-p', String(port), '127.0.0.1'],
      {},
      (out, who) => {
        if (who === 'client') assert.match(out, new RegExp(`^\\s*${size}\\s+5\\s+[\\d.]+\\s+[\\d.]+`, 'm'), `${who}: ${out}`);
        assert.doesNotMatch(out, /Failed|ERRNO|Couldn't/, `${who}: ${out}`);
      },
      PreloadOp.CM_LISTEN,
      perftestListenRace,
    ),
  );
}

test(
  'an rping client killed with SIGKILL mid-transfer: its cm ids and objects are freed, the daemon serves on',
  { skip: missingCm('rping', 'ibv_devices') ?? false },
  () =>
    withDaemon(async (d) => {
      const server = startPreloaded(d.path, ['rping', '-s', '-a', '127.0.0.1', '-p', '18635', '-C', '1000000']);
      let client: ReturnType<typeof startPreloaded> | null = null;
      try {
        while (d.served(PreloadOp.CM_LISTEN) < 1) await new Promise((r) => setTimeout(r, 20));
        client = startPreloaded(d.path, ['rping', '-c', '-a', '127.0.0.1', '-p', '18635', '-C', '1000000']);
        // Mid-transfer: pings are flowing over a connected id.
        await flowing(d);
        assert.ok(d.resources().cmIds >= 3, JSON.stringify(d.resources()));
        client.child.kill('SIGKILL');
        assert.equal((await client.done).signal, 'SIGKILL');
        server.child.kill('SIGKILL');
        await server.done;
      } finally {
        client?.child.kill('SIGKILL');
        server.child.kill('SIGKILL');
      }
      // withDaemon checks every counter, cm ids and channels included, is back at rest; and the
      // killed server's listening id is gone with its TCP listener (closed as the client is freed).
      for (let n = 0; n < 250 && listening(18635); n++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(listening(18635), false, 'the killed rping server still listens on 18635');
      const r = await execUnder(d.path, ['ibv_devices']);
      assert.equal(r.code, 0, r.err);
    }),
);

// Asynchronous events reach a program through its context's async_fd: ibv_asyncwatch, under the
// library, in a network namespace of its own with its own daemon, sees the port event that an
// address added to the namespace causes (softroce0's GID table follows the host's addresses).
test("ibv_asyncwatch under the library: an address added to the host gives IBV_EVENT_GID_CHANGE on port 1 (the context's async_fd)", {
  skip: missingMem('ibv_asyncwatch', 'stdbuf') ?? nsSkipReason(),
  timeout: 60_000,
}, async () => {
  const ns = `sraw${process.pid}`;
  const socket = join(mkdtempSync(join(tmpdir(), 'softrdma-preload-')), 'd.sock');
  ip('netns', 'add', ns);
  const kids: ReturnType<typeof spawn>[] = [];
  try {
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    ip('-n', ns, 'link', 'add', 'sraw0', 'type', 'veth', 'peer', 'name', 'sraw1');
    ip('-n', ns, 'link', 'set', 'sraw0', 'up');
    ip('-n', ns, 'link', 'set', 'sraw1', 'up');
    kids.push(spawn('ip', ['netns', 'exec', ns, process.execPath, main, 'daemon', '--socket', socket], { stdio: 'ignore' }));
    for (let i = 0; !existsSync(socket); i++) {
      assert.ok(i < 400, 'the daemon did not start');
      await new Promise((r) => setTimeout(r, 25));
    }
    const env = [`LD_PRELOAD=${preloadLibraryPath()}`, `SOFTRDMA_SOCKET=${socket}`];
    const w = spawn('ip', ['netns', 'exec', ns, 'env', ...env, 'stdbuf', '-oL', 'ibv_asyncwatch', '-d', 'softroce0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    kids.push(w);
    let out = '';
    w.stdout!.on('data', (d: Buffer) => (out += d));
    w.stderr!.on('data', (d: Buffer) => (out += d));
    const until = async (re: RegExp): Promise<void> => {
      for (let i = 0; !re.test(out); i++) {
        assert.ok(i < 800 && w.exitCode === null, `no ${re}; ibv_asyncwatch printed: ${out}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    await until(/async event FD \d+/);
    ip('-n', ns, 'addr', 'add', '10.9.9.1/24', 'dev', 'sraw0');
    await until(/event_type IBV_EVENT_GID_CHANGE \(18\), port 1/);
  } finally {
    for (const k of kids) k.kill('SIGKILL');
    ip('netns', 'del', ns);
  }
});

// QP, CQ and S-RQ events reach a program through its context's async_fd, each naming the
// program's own object (its pointer): a verbs program of the test's own (fixtures/async_events.c,
// built here with the system's C compiler against libibverbs' headers) provokes an S-RQ limit, an
// S-RQ QP's last WQE and a CQ overrun by flushes, and reads each event after poll() on the fd.
/** A C program of the tests' own (test/preload/fixtures/NAME.c). */
const fixture = (name: string) => fileURLToPath(new URL(`../../../test/preload/fixtures/${name}.c`, import.meta.url));

/** Builds a fixture with the system's C compiler; its path, or why it cannot be built here. */
function buildFixture(name: string): { exe: string } | { skip: string } {
  const m = missingMem();
  if (m) return { skip: m };
  if (spawnSync('sh', ['-c', 'command -v cc']).status !== 0) return { skip: 'no C compiler (cc) to build the test program' };
  const exe = join(mkdtempSync(join(tmpdir(), 'softrdma-fixture-')), name);
  const r = spawnSync('cc', ['-O1', '-Wall', '-o', exe, fixture(name), '-libverbs'], { encoding: 'utf8' });
  if (r.status !== 0) {
    // Only a missing libibverbs-dev is a reason to skip; any other build error is the test's failure.
    if (/infiniband\/verbs\.h|-libverbs|cannot find -libverbs/.test(r.stderr))
      return { skip: `libibverbs-dev is not installed: ${r.stderr.trim().split('\n')[0]}` };
    throw new Error(`cc ${fixture(name)}: ${r.stderr}`);
  }
  return { exe };
}

/** Builds fixture `name`, runs it under the library against a fresh daemon with `args`, then `check`s its output and the daemon. */
async function runFixture(
  t: { skip: (why: string) => void },
  name: string,
  args: string[],
  check: (out: string, d: PreloadDaemon) => void,
): Promise<void> {
  const built = buildFixture(name);
  if ('skip' in built) {
    t.skip(built.skip);
    return;
  }
  await withDaemon(async (d) => {
    const p = startPreloaded(d.path, [built.exe, ...args]);
    const r = await within(p.done, 60_000, name, [p]);
    assert.equal(r.code, 0, r.out);
    check(r.out, d);
  });
}

test(
  'a verbs program reads IBV_EVENT_SRQ_LIMIT_REACHED, IBV_EVENT_QP_LAST_WQE_REACHED and IBV_EVENT_CQ_ERR from async_fd, each naming its own object',
  {
    skip: missingMem() ?? false,
  },
  (t) =>
    runFixture(t, 'async_events', ['softroce0', '0'], (out) => {
      assert.match(out, /^3 messages sent and received through the S-RQ$/m);
      assert.match(out, /^event SRQ limit reached \(15\) on the S-RQ$/m);
      assert.match(out, /^event last WQE reached \(16\) on QP B$/m);
      assert.match(out, /^event CQ error \(0\) on the small CQ$/m);
      assert.match(out, /^all events seen$/m);
    }),
);

// ibv_post_send and ibv_post_recv through the work-request rings answer as the verbs face does:
// a post in RESET refused at once, a full queue ENOMEM, the room a completion frees, the program's
// WR IDs in its completions, and what the rings do not take (two SGEs) posted by request.
test(
  'work-request rings: immediate errors, queue room and WR IDs as the verbs face gives them',
  {
    skip: missingMem() ?? false,
  },
  (t) =>
    runFixture(t, 'wr_rings', ['softroce0', '0'], (out, d) => {
      assert.match(out, /^a Send in RESET: EINVAL$/m);
      assert.match(out, /^queue of four full: ENOMEM; completion WR ID 103$/m);
      assert.match(out, /^list of four taken; completions 200\.\.203 in order; bytes at the target$/m);
      assert.match(out, /^two-SGE Send and inline Send received, WR IDs 400\/300 and 401\/301$/m);
      assert.match(out, /^receive queue of eight full: ENOMEM$/m);
      assert.match(out, /^work-request rings checked$/m);
      // By request: the Send in RESET, the fifth Write, the two-SGE Send; the ninth receive.
      assert.equal(d.served(PreloadOp.POST_SEND), 3);
      assert.equal(d.served(PreloadOp.POST_RECV), 1);
      assert.ok(d.served(PreloadOp.DOORBELL) >= 1);
    }),
);

// The daemon maps at most MAX_CLIENT_RING_BYTES of completion rings per client: of 20 CQs of
// 65,535 entries (4 MiB of ring each), the first 15 get one and the rest are polled by request.
test(
  'completion rings are bounded per client: past 64 MiB of rings a CQ is polled by request',
  {
    skip: missingMem() ?? false,
  },
  (t) =>
    runFixture(t, 'many_cqs', ['softroce0', '20'], (out, d) => {
      assert.match(out, /^20 CQs polled$/m);
      const withRing = Math.floor(MAX_CLIENT_RING_BYTES / cqRingBytes(CQ_RING_MAX_ENTRIES));
      assert.equal(withRing, 15);
      assert.equal(d.served(PreloadOp.POLL_CQ), 20 - withRing, 'one request per CQ past the bound, none for the ring CQs');
    }),
);

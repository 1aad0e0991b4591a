/**
 * The RoCE GID table follows the host's addresses (docs/spec-notes.md "A GID table that follows
 * the host"): a softroce0 server started before its address exists gets the GID when the address
 * is added — on an interface without carrier, as the kernel's RoCE GID cache does —, raises
 * IBV_EVENT_GID_CHANGE, serves a client on that address, and loses the GID when the address is
 * removed; an IPv6 address added later gets a GID of its own (RoCE v2, the address itself).
 * The veth ends have IPv6 off, so that no link-local address comes and goes while the test
 * counts events; `::1` stays. Each process runs in a network namespace the test makes (a veth pair between them);
 * it needs root and iproute2.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const fixture = fileURLToPath(new URL('./fixtures/gid-peer.js', import.meta.url));
const NS_S = `srgid-s-${process.pid}`;
const NS_C = `srgid-c-${process.pid}`;
const SRV = '10.211.0.1';
const CLI = '10.211.0.2';
const SRV6 = 'fd11:211::1';
const PORT = '7471';

function ip(...args: string[]): void {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')}: ${r.stderr || r.error?.message}`);
}

function sysctl(ns: string, setting: string): void {
  const r = spawnSync('ip', ['netns', 'exec', ns, 'sysctl', '-qw', setting], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sysctl ${setting}: ${r.stderr || r.error?.message}`);
}

function skipReason(): string | undefined {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  if (process.getuid?.() !== 0) return 'needs root (ip netns add, ip link add)';
  if (spawnSync('ip', ['-V']).status !== 0) return 'needs iproute2 (ip)';
  return undefined;
}

/** A process in a namespace, its stdout lines kept, with a wait for a line that matches. */
function inNs(ns: string, args: string[]) {
  const env = { ...process.env };
  delete env.SOFTRDMA_ROCE_ADDRS;
  delete env.SOFTRDMA_ROCE_PORT;
  const p: ChildProcess = spawn('ip', ['netns', 'exec', ns, process.execPath, fixture, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const lines: string[] = [];
  let err = '';
  let exited: number | null | undefined;
  const waiters = new Set<() => void>();
  let buf = '';
  p.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
    for (const w of [...waiters]) w();
  });
  p.stderr!.on('data', (d: Buffer) => (err += d));
  p.on('exit', (code) => {
    exited = code;
    for (const w of [...waiters]) w();
  });
  /**
   * Resolves with the first line from `from` on that matches; rejects if the process exits first,
   * or (so that a failure shows what the process said instead of hanging) after `ms`.
   */
  const waitLine = (re: RegExp, from = 0, ms = 60_000): Promise<{ line: string; at: number }> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`${args[0]}: no line ${re} within ${ms} ms; it printed: ${lines.join(' | ')} ${err}`));
      }, ms);
      const check = () => {
        for (let i = from; i < lines.length; i++) {
          if (re.test(lines[i]!)) {
            clearTimeout(timer);
            waiters.delete(check);
            return resolve({ line: lines[i]!, at: i + 1 });
          }
        }
        if (exited !== undefined) {
          clearTimeout(timer);
          waiters.delete(check);
          reject(new Error(`${args[0]} exited (${exited}) before ${re}: ${lines.join(' | ')} ${err}`));
        }
      };
      waiters.add(check);
      check();
    });
  const done = new Promise<number | null>((r) => (exited !== undefined ? r(exited) : p.on('exit', r)));
  return { p, lines, waitLine, done, err: () => err };
}

test('softroce0 follows the host: an address added after start gets a GID (no carrier yet), IBV_EVENT_GID_CHANGE, a served client; removing it removes the GID', {
  skip: skipReason(),
  timeout: 120_000,
}, async () => {
  ip('netns', 'add', NS_S);
  ip('netns', 'add', NS_C);
  let srv: ReturnType<typeof inNs> | null = null;
  let cli: ReturnType<typeof inNs> | null = null;
  try {
    ip('-n', NS_S, 'link', 'set', 'lo', 'up');
    ip('-n', NS_C, 'link', 'set', 'lo', 'up');
    ip('link', 'add', 'srgid0', 'netns', NS_S, 'type', 'veth', 'peer', 'name', 'srgid1', 'netns', NS_C);
    sysctl(NS_S, 'net.ipv6.conf.srgid0.disable_ipv6=1');
    sysctl(NS_C, 'net.ipv6.conf.srgid1.disable_ipv6=1');
    ip('-n', NS_C, 'addr', 'add', `${CLI}/24`, 'dev', 'srgid1');
    // The server's side is up, the client's still down: the server's interface has no carrier.
    ip('-n', NS_S, 'link', 'set', 'srgid0', 'up');

    srv = inNs(NS_S, ['server', PORT]);
    const first = await srv.waitLine(/^GIDS /);
    assert.equal(first.line, 'GIDS 127.0.0.1,::1', 'at start the table has only the loopback addresses');

    ip('-n', NS_S, 'addr', 'add', `${SRV}/24`, 'dev', 'srgid0');
    const ev = await srv.waitLine(/^EVENT /, first.at);
    assert.equal(ev.line, 'EVENT GID_CHANGE port 1');
    const added = await srv.waitLine(/^GIDS /, ev.at);
    assert.equal(added.line, `GIDS 127.0.0.1,::1,${SRV}`, 'the new address takes index 2; indices 0 and 1 do not move');

    ip('-n', NS_C, 'link', 'set', 'srgid1', 'up');
    cli = inNs(NS_C, ['client', SRV, PORT]);
    await cli.waitLine(/^ECHO ping$/);
    assert.equal(await cli.done, 0, cli.err());
    await srv.waitLine(/^SERVED$/, added.at);

    ip('-n', NS_S, 'addr', 'del', `${SRV}/24`, 'dev', 'srgid0');
    const ev2 = await srv.waitLine(/^EVENT /, added.at);
    assert.equal(ev2.line, 'EVENT GID_CHANGE port 1');
    const removed = await srv.waitLine(/^GIDS /, ev2.at);
    assert.equal(removed.line, 'GIDS 127.0.0.1,::1', 'the GID went with the address');

    // An IPv6 address: its own GID (not IPv4-mapped), in the first free index.
    ip('-n', NS_S, 'addr', 'add', `${SRV6}/64`, 'dev', 'lo', 'nodad');
    const ev3 = await srv.waitLine(/^EVENT /, removed.at);
    assert.equal(ev3.line, 'EVENT GID_CHANGE port 1');
    const added6 = await srv.waitLine(/^GIDS /, ev3.at);
    assert.equal(added6.line, `GIDS 127.0.0.1,::1,${SRV6}`);
  } finally {
    for (const x of [srv, cli]) {
      x?.p.kill('SIGKILL');
      if (x) await x.done;
    }
    spawnSync('ip', ['netns', 'del', NS_S]);
    spawnSync('ip', ['netns', 'del', NS_C]);
  }
});

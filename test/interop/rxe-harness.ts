/**
 * The kernel-peer guest booted with rxe, as the RoCE interop suites use it: the guest script's
 * client/server helpers and prologue, a host client retried while the guest does not listen
 * yet, and the IPv4 ID 0 that rxe's ICRC needs of our datagrams.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { host, pcapDir, type Proc, repo, run } from './harness.js';

/**
 * The IPv4 ID inside the ICRC: softrdma makes the kernel send ID 0 through its native addon.
 * Where the addon did not build, the harness's fallback is an nftables rule in the netns that
 * sets the ID of outgoing RoCEv2 datagrams to 0 (docs/interop.md).
 */
async function ipIdZeroNative(): Promise<boolean> {
  const net = (await import(join(repo, 'dist/src/roce/net-host.js'))) as { ipIdZeroSupported(): boolean };
  return net.ipIdZeroSupported();
}

/** Loads an nftables ruleset into the harness's netns (through host-exec.sh); returns the error, if any. */
export function nft(dir: string, ruleset: string): string | null {
  const f = join(pcapDir('nft'), 'rules.nft');
  writeFileSync(f, ruleset);
  const r = spawnSync(join(dir, 'host-exec.sh'), ['nft', '-f', f], { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0 ? null : (r.stderr || r.error?.message || `status ${r.status}`).trim();
}

/**
 * The guest's shell helper: runs a client until it gets past "Couldn't connect" or a rejected rdma_cm connect (the host side
 * may not listen yet), at most 90 tries, then prints its output between BEGIN/END markers.
 */
export const GUEST_CLIENT = [
  'client() {',
  '  tag=$1; shift; i=0',
  '  while :; do',
  '    timeout 120 "$@" > /tmp/$tag.out 2>&1; rc=$?',
  `    if grep -qE "Couldn't connect|Unable to connect|REJECTED|rdma_connect" /tmp/$tag.out && [ $i -lt 90 ]; then i=$((i+1)); sleep 1; continue; fi`,
  '    break',
  '  done',
  '  echo "BEGIN $tag"; cat /tmp/$tag.out; echo "END $tag rc=$rc"',
  '}',
  'server() {',
  '  tag=$1; shift',
  '  echo "START $tag"; timeout 150 "$@" > /tmp/$tag.out 2>&1; rc=$?',
  '  echo "BEGIN $tag"; cat /tmp/$tag.out; echo "END $tag rc=$rc"',
  '}',
  'counters() {',
  '  for f in /sys/class/infiniband/rxe0/ports/1/hw_counters/*; do echo "CNT $1 $(basename $f) $(cat $f)"; done',
  '}',
].join('\n');

/** The guest script's prologue: tools need locked memory; then the helpers. */
export const PROLOGUE = ['ulimit -l unlimited', GUEST_CLIENT, 'echo KP_READY'].join('\n');

export function bootGuest(dir: string, script: string, limitS: number): Proc {
  return run(join(dir, 'run-guest.sh'), ['-l', 'rxe', '-t', String(limitS), script], dir);
}

/**
 * A host client run, retried while the guest's server does not listen yet (perftest `-R` says
 * so as "Unexpected CM event bl blka 8": its exchange connection was REJECTED).
 */
export async function hostClient(
  dir: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ms: number,
): Promise<{ rc: number; lines: string[]; earlier: { rc: number; lines: string[] }[] }> {
  const until = Date.now() + ms;
  const earlier: { rc: number; lines: string[] }[] = [];
  for (;;) {
    const r = await host(dir, args, Math.max(5_000, until - Date.now()), env);
    if (
      r.rc === 0 ||
      !r.lines.some((l) => /Couldn't connect|ECONNREFUSED|refused|REJECTED|Unexpected CM event bl blka 8/.test(l)) ||
      Date.now() > until - 5_000
    )
      return { ...r, earlier };
    earlier.push(r);
    await sleep(500);
  }
}

export async function idZero(dir: string): Promise<() => void> {
  if (await ipIdZeroNative()) return () => {};
  console.log('NOTE: the native addon is not built; an nftables rule sets the IPv4 ID of our RoCEv2 datagrams to 0 (docs/interop.md)');
  const err = nft(dir, 'table ip kpid { chain out { type filter hook output priority 0; udp dport 4791 ip id set 0; } }');
  assert.equal(err, null, `nft (IPv4 ID 0 fallback): ${err}`);
  return () => void nft(dir, 'delete table ip kpid');
}

/**
 * Network namespaces for tests that need addresses of their own (IPv6 ULAs on a veth pair,
 * multicast): `ip` that throws with iproute2's message, and the reason a test must skip where
 * namespaces cannot be made (not Linux, not root, no iproute2).
 */
import { spawnSync } from 'node:child_process';

/** Runs `ip ARGS…`; throws with its stderr when it fails. */
export function ip(...args: string[]): void {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')}: ${r.stderr || r.error?.message}`);
}

/** Why a test cannot make a network namespace with a veth pair here, or false when it can. */
export function nsSkipReason(): string | false {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  if (process.getuid?.() !== 0) return 'needs root (ip netns add, ip link add)';
  if (spawnSync('ip', ['-V']).status !== 0) return 'needs iproute2 (ip)';
  return false;
}

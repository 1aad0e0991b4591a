/**
 * Every command and subcommand of the command table: --help and -h answer with its usage; an
 * unknown option, a value out of range for each numeric option and a value outside each
 * choice option's list are refused with the command's usage exit code (2, or the code of the
 * rdma-core program it mirrors) and a message that names the option; every SOFTRDMA_*
 * variable set to garbage is refused with exit 2 and a message naming it. None hangs: every
 * run has a timeout.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cli } from '../../src/cli/cli.js';
import { COMMANDS, flagName, optionsOf } from '../../src/cli/spec.js';
import { ENV_VARS } from '../../src/util/env.js';

const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** Runs the CLI in this process; rejects if it has not finished in 20 s. */
async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    cli(args, { out: (s) => (out += s), err: (s) => (err += s) }),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`softrdma ${args.join(' ')} did not finish in 20 s`)), 20_000);
    }),
  ]).finally(() => clearTimeout(timer));
  return { code, out, err };
}

/** Every command, and every subcommand as [command, sub]. */
const targets = COMMANDS.flatMap((c) => [
  { c, sub: undefined as string | undefined },
  ...(c.subcommands ?? []).map((s) => ({ c, sub: s.name as string | undefined })),
]);

test('every command and subcommand answers --help and -h with its usage, exit 0', async () => {
  for (const { c, sub } of targets) {
    for (const h of ['--help', '-h']) {
      const args = c.name === 'help' ? ['help', h] : [c.name, ...(sub ? [sub] : []), h];
      const r = await run(...args);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
      assert.match(
        r.out,
        c.name === 'help' ? /Usage: softrdma <command>/ : new RegExp(`^Usage: softrdma ${c.name}${sub ? ` ${sub}` : ''}`),
        args.join(' '),
      );
      if (sub) assert.match(r.out, new RegExp(`^${sub}: `, 'm'));
    }
    if (c.name !== 'help') {
      const r = await run('help', c.name, ...(sub ? [sub] : []));
      assert.equal(r.code, 0);
      assert.match(r.out, new RegExp(`^Usage: softrdma ${c.name}`));
    }
  }
  assert.equal((await run('help', 'help')).code, 0);
  const env = await run('help', 'env');
  assert.equal(env.code, 0);
  for (const v of ENV_VARS) assert.match(env.out, new RegExp(v.name));
});

test('an unknown option is refused with exit 2, naming it', async () => {
  for (const { c, sub } of targets) {
    if (c.name === 'help') continue;
    const args = [c.name, ...(sub ? [sub] : []), '--no-such-option'];
    const r = await run(...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, /--no-such-option/, args.join(' '));
  }
});

test("each numeric option out of range, and each choice option off its list, is refused with the command's exit code, naming the option", async () => {
  let checked = 0;
  for (const { c, sub } of targets) {
    if (c.subcommands && !sub) continue;
    for (const o of optionsOf(c, sub)) {
      const bad =
        o.type === 'choice' ? ['bogus'] : o.type === 'int' || o.type === 'size' ? [String(o.max! + 1), String(o.min! - 1), 'x1'] : [];
      for (const v of bad) {
        // rping needs its role; the rest take the option alone.
        const args = [c.name, ...(sub ? [sub] : []), ...(c.name === 'rping' ? ['-c'] : []), `--${o.name}=${v}`];
        const r = await run(...args);
        assert.equal(r.code, c.usageExit, `${args.join(' ')}: ${r.err}`);
        assert.ok(r.err.includes(`${flagName(o)}: bad value '${v}'`), `${args.join(' ')}: ${r.err}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 60, `only ${checked} values checked`);
});

test('each SOFTRDMA_* variable set to garbage is refused with exit 2, naming the variable (the real binary)', () => {
  const garbage: Record<string, string> = { SOFTRDMA_PCAP: bin };
  for (const v of ENV_VARS) {
    const value = garbage[v.name] ?? 'garbage!=§';
    for (const cmd of [['devices'], ['perf', 'write', '-n', '5']]) {
      const r = spawnSync(process.execPath, [bin, ...cmd], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, [v.name]: value } });
      assert.equal(r.signal, null, `${v.name} ${cmd.join(' ')}: hung`);
      assert.equal(r.status, 2, `${v.name}=${value} softrdma ${cmd.join(' ')}: ${r.stderr}`);
      assert.ok(r.stderr.includes(`${v.name}: bad value`), `${v.name}: ${r.stderr}`);
      assert.equal(r.stdout, '');
    }
  }
  // A device name that is well formed but not a device.
  const r = spawnSync(process.execPath, [bin, 'devices'], {
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, SOFTRDMA_DEVICE: 'nosuch0' },
  });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /SOFTRDMA_DEVICE: bad value "nosuch0" \(allowed: one of the devices: softrdma0, softroce0\)/);
});

test('rping -p and -S: out of range, with the true range in the message', async () => {
  const p = await run('rping', '-c', '-p', '99999');
  assert.equal(p.code, 22);
  assert.match(p.err, /-p: bad value '99999' \(allowed: an integer 1 … 65535\)/);
  const s = await run('rping', '-c', '-S', '65536');
  assert.match(s.err, /-S: bad value '65536' \(allowed: an integer 23 … 65535\)/);
});

/** docs/cli.md and man/softrdma.1 are what scripts/gen-cli-doc.mjs makes of the command table today. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

test('docs/cli.md is current (regenerate: npm run build && node scripts/gen-cli-doc.mjs)', () => {
  const r = spawnSync(process.execPath, ['scripts/gen-cli-doc.mjs', '--stdout'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(`${root}docs/cli.md`, 'utf8'), r.stdout);
});

test('man/softrdma.1 is current (the same script)', () => {
  const r = spawnSync(process.execPath, ['scripts/gen-cli-doc.mjs', '--stdout', '--man'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(`${root}man/softrdma.1`, 'utf8'), r.stdout);
});

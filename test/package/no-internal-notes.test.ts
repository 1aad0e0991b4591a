/**
 * The README, the docs and the sources speak of the software and its specifications only: no
 * scratch paths, no work items, no notes on how the work was organised.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const PATTERN = /\/tmp\/|shared\/|helper .(roceperf|nodeapi2)|the brief|digest §|issue [0-9]+|the seeds/;

function files(p: string): string[] {
  if (!statSync(p).isDirectory()) return [p];
  return readdirSync(p).flatMap((n) => files(join(p, n)));
}

test('README.md, docs/ and src/ carry no notes on how the code was written', () => {
  const hits: string[] = [];
  for (const f of [join(root, 'README.md'), ...files(join(root, 'docs')), ...files(join(root, 'src'))]) {
    if (!/\.(md|ts|mjs|js|json)$/.test(f)) continue;
    readFileSync(f, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (PATTERN.test(line)) hits.push(`${f.slice(root.length)}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
  }
  assert.deepEqual(hits, []);
});

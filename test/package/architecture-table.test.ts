/**
 * docs/architecture.md's table "Which file owns which rule" stays true: every file it names
 * exists, and every identifier it names in the file column (`checkAccess`, `RoceCm`, …) is
 * written in one of the files of its row. A rule that moves must take its row with it.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url).href.replace(/\/dist\/?$/, '/'));
const repo = existsSync(join(root, 'docs')) ? root : join(root, '..');

/** Every file under `dir`, relative to the repository. */
function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(repo, dir))) {
    const p = join(dir, name);
    if (statSync(join(repo, p)).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

const sources = [...walk('src'), ...walk('native')];

/** A path as the table writes it: from the repository root, or a bare name unique under src/. */
function resolvePath(token: string): string | null {
  if (existsSync(join(repo, token))) return token;
  const hits = sources.filter((p) => p.endsWith(`/${token}`));
  return hits.length === 1 ? hits[0]! : null;
}

function tableRows(): { rule: string; files: string }[] {
  const md = readFileSync(join(repo, 'docs/architecture.md'), 'utf8');
  const start = md.indexOf('## Which file owns which rule');
  assert.ok(start >= 0, 'docs/architecture.md has the section "Which file owns which rule"');
  const rows: { rule: string; files: string }[] = [];
  for (const line of md.slice(start).split('\n').slice(1)) {
    if (line.startsWith('## ')) break;
    const m = /^\|(.*)\|(.*)\|\s*$/.exec(line);
    if (!m || /^\s*-+\s*$/.test(m[1]!) || m[1]!.trim() === 'rule') continue;
    rows.push({ rule: m[1]!.trim(), files: m[2]!.trim() });
  }
  return rows;
}

test('the ownership table names files that exist and identifiers found in them', () => {
  const rows = tableRows();
  assert.ok(rows.length >= 30, `the table has ${rows.length} rows`);
  const problems: string[] = [];
  for (const { rule, files } of rows) {
    const tokens = [...files.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    const paths: string[] = [];
    const names: string[] = [];
    for (const t of tokens) {
      if (/\.(ts|c|h|mjs|md|json|gyp)$/.test(t)) {
        const p = resolvePath(t);
        if (p) paths.push(p);
        else problems.push(`${rule}: no file ${t}`);
      } else {
        // `Rnic.gidTableChanged` → gidTableChanged; `COMMANDS` → COMMANDS
        names.push(
          t
            .replace(/\(.*\)$/, '')
            .split('.')
            .pop()!,
        );
      }
    }
    if (paths.length === 0) problems.push(`${rule}: names no file`);
    const text = paths.map((p) => readFileSync(join(repo, p), 'utf8')).join('\n');
    for (const n of names) {
      if (!/^[\w$]+$/.test(n)) continue;
      if (!new RegExp(`\\b${n.replace(/\$/g, '\\$')}\\b`).test(text)) problems.push(`${rule}: \`${n}\` is not in ${paths.join(', ')}`);
    }
  }
  assert.deepEqual(problems, []);
});

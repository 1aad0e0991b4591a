#!/usr/bin/env node
// Checks the layering of src/ ("one RNIC core, many transports"): which folder may
// import from which, which engine files the consumer faces may reach, that the folders form
// no cycle, that no face names a provider's concrete class (the faces speak RNICPI), and that
// no responder imports a requester (the two sides of a QP meet only through the QP), and that
// the core names no transport (FORBIDDEN_WORDS). Relative imports only (`from '…'`, `import '…'`, `import('…')`); packages and
// node: built-ins are not layering.
//
//   node scripts/check-imports.mjs            check; exit 1 with the violations
//   node scripts/check-imports.mjs --graph    also print the folder graph (edges with counts)
//
// Edit the tables below to change the rules.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const SRC = 'src';

/**
 * Folder → folders it may import from (besides itself). A folder missing here may import
 * nothing. `.` is src/ itself (src/index.ts). The layers (docs/architecture.md):
 *
 * - faces (itapi, verbs, cli) → provider (loading a provider) and rnicpi (the spec's API);
 *   they reach the engine and the transports only for the files of ALLOWED_FILES; itapi and
 *   verbs drive the connection managers (iwarp/cm, ibcm) as RNICPI consumers;
 * - provider: the softrdma RNICPI provider and access layer, over the core and the transports;
 * - transports (iwarp, loopback, roce) → the core (rnic) and the wire codecs;
 * - rnic: the transport-neutral core; it knows no transport;
 * - ibcm: the InfiniBand CM (IBTA Vol. 1 ch. 12) for the RoCE device, an RNICPI consumer like the
 *   iWARP CM: it speaks MADs over an abstract GSI port and never reaches into the core;
 * - rnicpi: the RNICPI 1.0 specification (types, codes, ops table, registry): it knows no
 *   implementation;
 * - wire: pure codecs.
 */
const ALLOWED_FOLDERS = {
  '.': ['itapi', 'provider', 'rnicpi', 'wire', 'verbs', 'util', 'node'],
  // The Node-native API: the verbs face's public index only, and util.
  node: ['verbs', 'util'],
  cli: ['verbs', 'itapi', 'provider', 'rnicpi', 'wire', 'util', 'preload'],
  // The daemon that serves C verbs programs: a client of the verbs face.
  preload: ['verbs', 'provider', 'util'],
  itapi: ['provider', 'rnicpi', 'iwarp', 'ibcm', 'rnic', 'wire', 'util'],
  verbs: ['provider', 'rnicpi', 'iwarp', 'ibcm', 'rnic', 'wire', 'util'],
  provider: ['rnic', 'iwarp', 'loopback', 'roce', 'rnicpi', 'wire', 'util'],
  iwarp: ['rnic', 'rnicpi', 'wire', 'util'],
  loopback: ['rnic', 'rnicpi', 'wire', 'util'],
  roce: ['rnic', 'rnicpi', 'wire', 'util'],
  ibcm: ['rnicpi', 'wire', 'util'],
  rnic: ['rnicpi', 'wire', 'util'],
  rnicpi: ['wire', 'util'],
  wire: ['util'],
  util: [],
};

/**
 * Folder → the only files of another folder it may import, when that folder is allowed above
 * but only in part. Paths are relative to src/, without extension.
 */
const FACE_FILES = {
  // The iWARP connection manager is driven by the faces as an RNICPI consumer (through CmQp).
  iwarp: ['iwarp/cm'],
  // Host memory: the faces turn JS buffers into the addresses RNICPI takes. The Modify QP
  // transition table (pure data): ibverbs checks IB states it maps onto an iWARP QP with it.
  rnic: ['rnic/hostmem', 'rnic/qp-states'],
  provider: ['provider/access-layer', 'provider/softrdma'],
};
const ALLOWED_FILES = {
  node: { verbs: ['verbs/index'] },
  itapi: FACE_FILES,
  verbs: FACE_FILES,
};

/**
 * Folders of the consumer faces: they may not import a class that src/provider/ exports, neither
 * as a value nor as a type. What a face needs of a provider object is an interface (for example
 * `SoftrdmaVpInfo`) or RNICPI itself.
 */
const FACES = ['.', 'node', 'cli', 'itapi', 'verbs'];

/**
 * Files (by base name, any folder) → base names they may never import: the responder side of a
 * transport or of the core does not reach into the requester side (rxe's requester, responder
 * and completer are separate machines; shared rules live in a third file both import).
 */
const FORBIDDEN_BASENAMES = [{ from: /(^|-)responder/, to: /(^|-)requester/ }];

/**
 * Words the code of a folder may not use (comments are not code): the core knows RNIC families
 * (`'iwarp'`, `'ib'`), never a transport's name or an iWARP transport's own settings (MPA,
 * Markers, the ULPDU size: src/iwarp/llp-attrs.ts), so that adding a transport touches its
 * folder, the provider's list and the test matrix only.
 */
const FORBIDDEN_WORDS = {
  rnic: [/'(?:rocev2|loopback|tcp|udp)'/, /\b(?:Roce|Loopback|Mpa|MPA_|mpa)\w*/, /\b(?:markers|maxUlpdu)\b/],
};

/**
 * Exceptions, file → files it may import although the folder rules forbid it. Each is dropped
 * from the folder graph (so it makes no cycle) and listed with `--graph`. None today.
 */
const EXCEPTIONS = {};

// ---------------------------------------------------------------------------------------------

const args = new Set(process.argv.slice(2));
const wantGraph = args.has('--graph');

/** @param {string} dir @returns {string[]} */
function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** `src/rnic/cm.ts` → `rnic/cm`. @param {string} p */
function modName(p) {
  return relative(SRC, p)
    .split(sep)
    .join('/')
    .replace(/\.(ts|js|mjs)$/, '');
}

/** `rnic/cm` → `rnic`; `index` → `.`. @param {string} m */
function folderOf(m) {
  const i = m.indexOf('/');
  return i < 0 ? '.' : m.slice(0, i);
}

const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g;
/** `import [type] { a, type b as c } from '…'` and `export { … } from '…'`: the named bindings. */
const NAMED_RE = /\b(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*(['"])(\.{1,2}\/[^'"]+)\2/g;

/** Source text without comments. @param {string} text */
function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** Relative import specifiers of a file (comments stripped first). @param {string} text */
function importsOf(text) {
  const code = stripComments(text);
  const out = [];
  for (const m of code.matchAll(IMPORT_RE)) out.push(m[2]);
  return out;
}

/** Named imports of a file: [specifier, imported name]. @param {string} text */
function namedImportsOf(text) {
  const out = [];
  for (const m of stripComments(text).matchAll(NAMED_RE)) {
    for (const part of m[1].split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name) out.push([m[3], name]);
    }
  }
  return out;
}

/** @param {string} pattern @param {string} mod */
function matches(pattern, mod) {
  return pattern.endsWith('/*') ? mod.startsWith(pattern.slice(0, -1)) : pattern === mod;
}

const violations = [];

/** Classes exported by src/provider/: module → names (also those it re-exports from a sibling). */
const providerClasses = new Map();
const providerFiles = walk(join(SRC, 'provider'));
for (const file of providerFiles) {
  const names = [...readFileSync(file, 'utf8').matchAll(/^export\s+(?:abstract\s+)?class\s+([\w$]+)/gm)].map((m) => m[1]);
  providerClasses.set(modName(file), new Set(names));
}
for (const file of providerFiles) {
  const own = providerClasses.get(modName(file));
  for (const [spec, name] of namedImportsOf(readFileSync(file, 'utf8'))) {
    if (providerClasses.get(modName(resolve(dirname(file), spec)))?.has(name)) own.add(name);
  }
}
const baseName = (m) => m.slice(m.lastIndexOf('/') + 1);

/** folder → folder → count */
const graph = new Map();
const excepted = [];

for (const file of walk(SRC)) {
  const from = modName(file);
  const fromFolder = folderOf(from);
  const text = readFileSync(file, 'utf8');
  for (const re of FORBIDDEN_WORDS[fromFolder] ?? []) {
    const code = stripComments(text).replace(/\bfrom\s*'[^']*'/g, '');
    const m = code.match(re);
    if (m) violations.push(`${from}: ${fromFolder}/ may not name "${m[0]}" (a transport's own word; see FORBIDDEN_WORDS)`);
  }
  if (FACES.includes(fromFolder)) {
    for (const [spec, name] of namedImportsOf(text)) {
      const to = modName(resolve(dirname(file), spec));
      if (providerClasses.get(to)?.has(name)) {
        violations.push(`${from} → ${to}: a face may not name the provider's class ${name} (use an interface or RNICPI)`);
      }
    }
  }
  for (const spec of importsOf(text)) {
    const to = modName(resolve(dirname(file), spec));
    const toFolder = folderOf(to);
    for (const rule of FORBIDDEN_BASENAMES) {
      if (rule.from.test(baseName(from)) && rule.to.test(baseName(to))) {
        violations.push(`${from} → ${to}: a responder may not import a requester`);
      }
    }
    if (toFolder === fromFolder) continue;
    const exc = Object.entries(EXCEPTIONS).find(([f, list]) => f === from && list.some((p) => matches(p, to)));
    if (exc) {
      excepted.push(`${from} → ${to}`);
      continue;
    }
    const allowed = ALLOWED_FOLDERS[fromFolder];
    if (!allowed) violations.push(`${from} → ${to}: folder ${fromFolder}/ has no entry in ALLOWED_FOLDERS`);
    else if (!allowed.includes(toFolder)) violations.push(`${from} → ${to}: ${fromFolder}/ may not import from ${toFolder}/`);
    else {
      const files = ALLOWED_FILES[fromFolder]?.[toFolder];
      if (files && !files.some((p) => matches(p, to))) {
        violations.push(`${from} → ${to}: ${fromFolder}/ may import from ${toFolder}/ only ${files.join(', ')}`);
      }
    }
    const row = graph.get(fromFolder) ?? new Map();
    row.set(toFolder, (row.get(toFolder) ?? 0) + 1);
    graph.set(fromFolder, row);
  }
}

/** Cycles of the folder graph (one per strongly connected component), as paths. */
function cycles() {
  const found = [];
  const state = new Map(); // 1 = on the stack, 2 = done
  const stack = [];
  const visit = (n) => {
    state.set(n, 1);
    stack.push(n);
    for (const m of [...(graph.get(n)?.keys() ?? [])].sort()) {
      if (state.get(m) === 1) found.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 2);
  };
  for (const n of [...graph.keys()].sort()) if (!state.has(n)) visit(n);
  return found;
}

for (const c of cycles()) violations.push(`folder cycle: ${c.map((f) => `${f}/`).join(' → ')}`);

if (wantGraph) {
  console.log('folder graph (importer → imported: number of imports):');
  for (const from of [...graph.keys()].sort()) {
    const row = graph.get(from);
    console.log(
      `  ${from}/ → ${[...row.keys()]
        .sort()
        .map((t) => `${t}/ (${row.get(t)})`)
        .join(', ')}`,
    );
  }
  if (excepted.length > 0) {
    console.log('allowed exceptions (not in the graph):');
    for (const e of [...new Set(excepted)].sort()) console.log(`  ${e}`);
  }
}

if (violations.length > 0) {
  console.error(`check-imports: ${violations.length} layering violation(s) (rules in scripts/check-imports.mjs):`);
  for (const v of violations) console.error(`  ${v}`);
  process.exit(1);
}
if (!wantGraph) console.log('check-imports: layering ok');

/**
 * The package as a user gets it: `npm pack`, installed into an empty project (offline, from
 * npm's cache, where `npm ci` left the dependencies), then `npx softrdma --version`, `devinfo`,
 * a short `perf write`; the examples and the getting-started programs compiled against the
 * installed types (strict; moduleResolution nodenext, bundler and node) and the getting-started
 * programs run.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
const T = { timeout: 120_000 };

/** Example files that use only the public entry points (rdma_rc_example uses engine internals). */
const EXAMPLES = [
  'itapi/common.ts',
  'itapi/client.ts',
  'itapi/server.ts',
  'itapi/rping-server.ts',
  'itapi/run.ts',
  'verbs/common.ts',
  'verbs/cm_con_data.ts',
  'verbs/srq.ts',
  'verbs/iwarp_unsupported.ts',
  'getting-started/verbs.ts',
  'getting-started/itapi.ts',
  'node-api/kv-cache.ts',
  'node-api/file-transfer.ts',
  'node-api/hello.ts',
];

let dir = '';
let installed = false;
let skipReason = '';

function sh(cmd: string, args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 90_000, env: { ...process.env, npm_config_update_notifier: 'false' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the packed package, installed into an empty project', () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'softrdma-pack-'));
    // The build is current (npm test builds first); --ignore-scripts skips `prepare`'s rebuild.
    const tgz = execFileSync(npm, ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: repo, encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop()!;
    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }));
    const r = sh(npm, ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', join(dir, tgz)], app);
    if (r.status === 0) installed = true;
    else if (/ENOTCACHED|offline/i.test(r.stderr)) {
      // The dependencies are not in npm's cache (no `npm ci` here): try the registry once.
      const online = sh(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(dir, tgz)], app);
      if (online.status === 0) installed = true;
      // Killed at the timeout with nothing said: a network namespace without a route, where the
      // registry's name never resolves.
      else if (online.status === null && !online.stderr.trim())
        skipReason = "the dependencies are not in npm's cache and the registry did not answer within 90 s";
      else if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|network/i.test(online.stderr))
        skipReason = "the dependencies are not in npm's cache and the registry is unreachable";
      else assert.fail(`npm install failed:\n${online.stderr}`);
    } else assert.fail(`npm install --offline failed:\n${r.stderr}`);
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const app = () => join(dir, 'app');
  const need = (t: { skip: (m: string) => void }) => {
    if (!installed) t.skip(skipReason);
    return installed;
  };

  test('the tarball holds the LICENSE, the sources the maps point at, and the examples', T, (t) => {
    if (!need(t)) return;
    const pkg = join(app(), 'node_modules', 'softrdma');
    for (const f of [
      'LICENSE',
      'README.md',
      'package.json',
      'dist/src/index.d.ts',
      'src/verbs/rdma_cm.ts',
      'examples/getting-started/verbs.ts',
      'dist/examples/getting-started/verbs.js',
      'docs/getting-started.md',
      'docs/cli.md',
      'man/softrdma.1',
      'examples/node-api/hello.mjs',
    ]) {
      assert.ok(existsSync(join(pkg, f)), f);
    }
    assert.ok(!existsSync(join(pkg, 'dist/test')), 'tests are not shipped');
    // Every source map's sources resolve inside the installed package.
    const mapDir = join(pkg, 'dist', 'src', 'verbs');
    for (const m of readdirSync(mapDir).filter((f) => f.endsWith('.js.map'))) {
      const map = JSON.parse(readFileSync(join(mapDir, m), 'utf8')) as { sources: string[] };
      for (const s of map.sources) assert.ok(existsSync(join(mapDir, s)), `${m}: ${s}`);
    }
  });

  test('npx softrdma --version, devinfo and a short perf write run from the install', T, (t) => {
    if (!need(t)) return;
    const v = sh('npx', ['--offline', 'softrdma', '--version'], app());
    assert.equal(v.status, 0, v.stderr);
    assert.match(v.stdout, /^softrdma \d+\.\d+\.\d+\n$/);
    const d = sh('npx', ['--offline', 'softrdma', 'devinfo'], app());
    assert.equal(d.status, 0, d.stderr);
    assert.match(d.stdout, /hca_id:\tsoftrdma0/);
    const p = sh('npx', ['--offline', 'softrdma', 'perf', 'write', '-n', '100', '-s', '65536'], app());
    assert.equal(p.status, 0, p.stderr);
    assert.match(p.stdout, /^ 65536 +100 /m);
  });

  test("the README's shell commands and its Node API example run from the install (and the chart ships)", T, (t) => {
    if (!need(t)) return;
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    assert.ok(existsSync(join(app(), 'node_modules', 'softrdma', 'docs', 'bench-bandwidth.svg')), 'the chart is in the package');
    // Each sh block of the README but the set-up (npm ci, npm test: the clone's), as one script,
    // with `npx softrdma` from the install.
    const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    assert.match(blocks[0]!, /^npm ci\b[^\n]*\nnpx softrdma perf write\b[^\n]*\nnpm test\b/, 'the README starts with the set-up');
    const scripts = blocks
      .map((b) =>
        b
          .split('\n')
          .filter((l) => /^(npx softrdma|sleep \d+; npx softrdma)/.test(l))
          .join('\n'),
      )
      .filter(Boolean);
    assert.ok(
      scripts.some((b) => b.includes('npx softrdma perf write')),
      'the main job is in the README',
    );
    for (const b of scripts) {
      const script = `set -e\n${b.replaceAll('npx softrdma', 'npx --offline softrdma')}\nwait`;
      const r = spawnSync('sh', ['-c', script], { cwd: app(), encoding: 'utf8', timeout: 90_000 });
      assert.equal(r.signal, null, `${b}: did not finish`);
      assert.equal(r.status, 0, `${b}: ${r.stderr}`);
    }
    // The Node API example, as a .mjs file of the project, and its shipped twin.
    const js = /```js\n([\s\S]*?)```/.exec(readme)![1]!;
    writeFileSync(join(app(), 'readme.mjs'), js);
    const r = spawnSync(process.execPath, ['readme.mjs'], { cwd: app(), encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'written: hello\n');
    writeFileSync(join(app(), 'hello.mjs'), readFileSync(join(app(), 'node_modules', 'softrdma', 'examples', 'node-api', 'hello.mjs')));
    const h = spawnSync(process.execPath, ['hello.mjs'], { cwd: app(), encoding: 'utf8', timeout: 30_000 });
    assert.equal(h.status, 0, h.stderr);
    assert.equal(h.stdout, 'written: hello\n');
  });

  for (const resolution of ['nodenext', 'bundler', 'node'] as const) {
    test(`the examples compile against the installed types (strict, moduleResolution ${resolution})`, T, (t) => {
      if (!need(t)) return;
      const src = join(app(), `src-${resolution}`);
      for (const f of EXAMPLES) {
        const text = readFileSync(join(repo, 'examples', f), 'utf8')
          .replaceAll('../../src/itapi/index.js', 'softrdma/itapi')
          .replaceAll('../../src/verbs/index.js', 'softrdma/verbs')
          .replaceAll('../../src/node/index.js', 'softrdma/node')
          .replaceAll('../../src/index.js', 'softrdma');
        mkdirSync(join(src, f, '..'), { recursive: true });
        writeFileSync(join(src, f), text);
      }
      // `node` (node10) is the classic resolution of CommonJS-era projects; it reaches the
      // subpaths through typesVersions. Types only there: the output would be CommonJS.
      const cfg = {
        compilerOptions: {
          strict: true,
          target: 'ES2022',
          lib: ['ES2022'],
          module: resolution === 'nodenext' ? 'nodenext' : 'esnext',
          moduleResolution: resolution === 'node' ? 'node10' : resolution,
          types: ['node'],
          typeRoots: [join(repo, 'node_modules', '@types')],
          outDir: `out-${resolution}`,
          rootDir: src,
          noEmit: resolution !== 'nodenext',
          // node10 projects import CommonJS-style defaults (the declarations say `import net from 'node:net'`).
          ...(resolution === 'node' ? { esModuleInterop: true } : {}),
        },
        include: [`${src}/**/*.ts`],
      };
      writeFileSync(join(app(), `tsconfig.${resolution}.json`), JSON.stringify(cfg, null, 2));
      const r = sh(process.execPath, [tsc, '-p', `tsconfig.${resolution}.json`], app());
      assert.equal(r.status, 0, r.stdout + r.stderr);
    });
  }

  for (const prog of ['verbs', 'itapi']) {
    test(`the getting-started ${prog} program, compiled against the install, runs`, T, (t) => {
      if (!need(t)) return;
      const js = join(app(), 'out-nodenext', 'getting-started', `${prog}.js`);
      assert.ok(existsSync(js), 'compiled by the nodenext case');
      const r = spawnSync(process.execPath, [js], { cwd: app(), encoding: 'utf8', timeout: 30_000 });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /server: received "hello"\nserver: buffer now holds "written by RDMA Write"\n(.*\n)*done\n$/);
    });
  }
});

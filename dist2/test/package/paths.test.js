/**
 * No absolute path of a development machine in the repository's sources and documents: the
 * specifications are cited by their published titles (RNICPI 1.0, The Open Group C054; IT-API
 * 2.1, The Open Group C055; the RDMA Protocol Verbs Specification; the RDMA Aware Networks
 * Programming User Manual), never by where a copy happened to live. The interop harness may name
 * the kernel-peer VM's cache directory, nothing else.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
const repo = fileURLToPath(new URL('../../..', import.meta.url));
const ROOTS = ['src', 'docs', 'scripts', 'test', 'examples', 'bench', 'README.md'];
const SKIP = new Set(['node_modules', 'dist', 'api', 'results']);
const TEXT = /\.(ts|mts|js|mjs|cjs|md|json|sh|txt|py|yml|yaml)$/;
// Built from pieces so that this file does not match itself.
const HOME = ['work', 'root', 'home', 'Users'].map((d) => `/${d}/`).join('|');
const BAD = new RegExp(`(^|[\\s\`'"(=:])(${HOME.replace(/\//g, '\\/')})|shared\\/(seeds|digests)|[A-Z]:\\\\Users\\\\`);
function walk(p, out) {
    const st = statSync(p);
    if (st.isDirectory()) {
        for (const n of readdirSync(p))
            if (!SKIP.has(n))
                walk(join(p, n), out);
    }
    else if (TEXT.test(p))
        out.push(p);
}
test('no absolute development-machine path in src, docs, scripts, test, examples, bench or the README', () => {
    const files = [];
    for (const r of ROOTS)
        walk(join(repo, r), files);
    assert.ok(files.length > 100, `only ${files.length} files found`);
    const hits = [];
    for (const f of files) {
        const rel = relative(repo, f);
        readFileSync(f, 'utf8')
            .split('\n')
            .forEach((line, i) => {
            if (!BAD.test(line))
                return;
            // The kernel-peer guest's own paths (inside the VM) are not the development machine's.
            if (rel.startsWith(join('test', 'interop')) && !/shared\/(seeds|digests)/.test(line))
                return;
            hits.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(hits, [], `cite the document's title instead:\n${hits.join('\n')}`);
});
//# sourceMappingURL=paths.test.js.map
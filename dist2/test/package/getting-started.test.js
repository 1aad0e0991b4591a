/** The getting-started programs (docs/getting-started.md) run from the build and print what the guide shows. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
for (const prog of ['verbs', 'itapi']) {
    test(`examples/getting-started/${prog} runs: connect, register, Send + RDMA Write, complete, tear down`, { timeout: 30_000 }, () => {
        const js = fileURLToPath(new URL(`../../examples/getting-started/${prog}.js`, import.meta.url));
        const r = spawnSync(process.execPath, [js], { encoding: 'utf8', timeout: 25_000 });
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stdout, /server: received "hello"\nserver: buffer now holds "written by RDMA Write"\ndone\n$/);
    });
}
//# sourceMappingURL=getting-started.test.js.map
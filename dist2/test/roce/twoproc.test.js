/**
 * RoCEv2 between two processes over loopback UDP (127.0.0.1 and 127.0.0.2, one ephemeral
 * port): 16 MiB RDMA-Written in 1 MiB messages, its SHA-256 Sent and checked by the target,
 * then read back with RDMA Reads and compared byte for byte.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { RoceNet } from '../../src/roce/net.js';
const peer = fileURLToPath(new URL('./fixtures/roce-peer.js', import.meta.url));
function start(role, addr, port) {
    const p = spawn(process.execPath, [peer, role, addr, String(port)]);
    const out = [];
    let err = '';
    const waiters = [];
    let buf = '';
    p.stdout.on('data', (d) => {
        buf += d;
        let i = buf.indexOf('\n');
        while (i >= 0) {
            const l = buf.slice(0, i);
            buf = buf.slice(i + 1);
            out.push(l);
            for (const w of [...waiters]) {
                const m = w[0].exec(l);
                if (m) {
                    waiters.splice(waiters.indexOf(w), 1);
                    w[1](m);
                }
            }
            i = buf.indexOf('\n');
        }
    });
    p.stderr.on('data', (d) => (err += d));
    const exit = new Promise((r) => p.on('exit', (code) => r({ code, err })));
    return {
        p,
        out,
        exit,
        next: (re) => new Promise((resolve, reject) => {
            const seen = out.map((l) => re.exec(l)).find((m) => m);
            if (seen)
                return resolve(seen);
            waiters.push([re, resolve]);
            void exit.then((x) => reject(new Error(`exited ${x.code} before ${re}: ${x.err}`)));
        }),
    };
}
test('two processes: 16 MiB RDMA Write, a digest Send and RDMA Read back over RoCEv2', { timeout: 180_000 }, async () => {
    // An ephemeral port free on 127.0.0.1 (the probe is closed before the children bind it).
    const probe = RoceNet.acquire('127.0.0.1', 0);
    await probe.ready;
    const port = probe.port;
    probe.close();
    const srv = start('server', '127.0.0.2', port);
    const cli = start('client', '127.0.0.1', port);
    try {
        const [, sq] = await srv.next(/^QPN (\d+)/);
        const [, cq] = await cli.next(/^QPN (\d+)/);
        srv.p.stdin.write(`QPN ${cq} 127.0.0.1\n`);
        cli.p.stdin.write(`QPN ${sq} 127.0.0.2\n`);
        const [mr] = await srv.next(/^MR \d+ \d+/);
        cli.p.stdin.write(`${mr}\n`);
        await cli.next(/^CLIENT OK/);
        await srv.next(/^SERVER OK/);
        srv.p.stdin.write('DONE\n');
        const [c, s] = await Promise.all([cli.exit, srv.exit]);
        assert.equal(c.code, 0, c.err);
        assert.equal(s.code, 0, s.err);
    }
    finally {
        srv.p.kill();
        cli.p.kill();
    }
});
//# sourceMappingURL=twoproc.test.js.map
/**
 * Ports for tests that start servers in child processes: one the kernel just handed out (bound
 * to 127.0.0.1:0, then released), so parallel test files do not collide the way fixed or
 * pid-derived ports do (those can fall in the ephemeral range other tests' clients use).
 */
import { once } from 'node:events';
import net from 'node:net';
export async function freePort() {
    const s = net.createServer().listen(0, '127.0.0.1');
    await once(s, 'listening');
    const port = s.address().port;
    await new Promise((r) => s.close(r));
    return port;
}
//# sourceMappingURL=net.js.map
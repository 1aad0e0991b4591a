/**
 * Is a TCP port free to listen on, decided synchronously? `rdma_listen` is a synchronous call
 * that rdma-core fails with EADDRINUSE when the port is taken (the kernel's iWARP listen binds a
 * TCP socket at once), but Node binds a listener with a host only after a lookup, a tick later.
 * This answers the question in the call itself; the real listen that follows still reports a
 * failure the probe could not foresee (see `rdmaListenReady`).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { endianness } from 'node:os';
/**
 * True when `port` is already listened on at `host` (or at a wildcard covering it).
 * `host` undefined = the wildcard. Port 0 is never busy.
 *
 * A listener with no host is bound synchronously by Node (dual-stack `::`, else `0.0.0.0`); it
 * fails exactly when some address of the host holds the port. For a named host that is only a
 * hint — another address may hold the port while `host` is free, which the kernel allows — so on
 * Linux /proc/net/tcp{,6} decides; elsewhere the port is taken to be busy.
 */
export function tcpPortBusy(host, port) {
    if (!Number.isInteger(port) || port <= 0 || port > 65535)
        return false;
    const probe = net.createServer();
    probe.on('error', () => { });
    probe.listen({ port });
    const bound = probe.address() !== null;
    probe.close();
    if (bound)
        return false;
    if (host === undefined || !net.isIPv4(host))
        return true;
    const holders = procListeners(port);
    return holders === null || holders.some((a) => a === host || a === '0.0.0.0' || a === '::');
}
/** Addresses listening on `port` according to /proc/net/tcp and tcp6 (IPv4 dotted, or '::' for the v6 wildcard); null without /proc. */
function procListeners(port) {
    const out = [];
    let any = false;
    for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
        let text;
        try {
            text = readFileSync(file, 'latin1');
        }
        catch {
            continue;
        }
        any = true;
        for (const line of text.split('\n').slice(1)) {
            const f = line.trim().split(/\s+/);
            // f[1] = local "ADDR:PORT" in hex, f[3] = state; 0A is TCP_LISTEN.
            if (f.length < 4 || f[3] !== '0A')
                continue;
            const [addr, p] = f[1].split(':');
            if (Number.parseInt(p, 16) !== port)
                continue;
            out.push(addr.length === 8 ? ipv4(addr) : /^0+$/.test(addr) ? '::' : v4mapped(addr));
        }
    }
    return any ? out : null;
}
/** /proc prints an IPv4 address as one 32-bit word in host byte order. */
function ipv4(hex) {
    const b = [0, 2, 4, 6].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
    return (endianness() === 'LE' ? b.reverse() : b).join('.');
}
/** The IPv4 address of a v4-mapped tcp6 entry (::ffff:a.b.c.d), else the raw hex. */
function v4mapped(hex) {
    return /^0{16}(FFFF0000|0000FFFF)/i.test(hex) ? ipv4(hex.slice(24)) : hex;
}
//# sourceMappingURL=portprobe.js.map
/**
 * The RoCE device of a test process on an ephemeral UDP port: `SOFTRDMA_ROCE_PORT` set before
 * the verbs devices boot (they read it once), so parallel test files and other programs on the
 * host never share port 4791. Await it at the top of a test file that uses softroce0 over the
 * RoCEv2 wire (rdma_cm over RoCE, the Node API on `rocev2`).
 */
import dgram from 'node:dgram';
/** A UDP port free on 127.0.0.1 now (the probe socket is closed before it returns). */
export async function freeUdpPort() {
    const s = dgram.createSocket('udp4');
    await new Promise((resolve, reject) => {
        s.once('error', reject);
        s.bind(0, '127.0.0.1', () => resolve());
    });
    const port = s.address().port;
    await new Promise((resolve) => s.close(() => resolve()));
    return port;
}
/**
 * Sets `SOFTRDMA_ROCE_PORT` to a free port (unless already set) and returns it; the device's
 * addresses are `SOFTRDMA_ROCE_ADDRS` (default here: 127.0.0.1 alone, so nothing binds beyond
 * loopback).
 */
export async function useEphemeralRocePort(addrs = '127.0.0.1') {
    process.env.SOFTRDMA_ROCE_ADDRS ??= addrs;
    const have = Number(process.env.SOFTRDMA_ROCE_PORT);
    if (Number.isInteger(have) && have > 0)
        return have;
    const port = await freeUdpPort();
    process.env.SOFTRDMA_ROCE_PORT = String(port);
    return port;
}
//# sourceMappingURL=roce-port.js.map
/**
 * A server process for the Node API tests: listens, accepts one connection with its registered
 * region's JSON as private data, prints `PORT n`, then idles (the test stops or kills it).
 *
 *   node dist/test/node/peer-fixture.js
 */
import { openDevice } from '../../src/index.js';
const dev = openDevice();
const l = await dev.listen({ host: '127.0.0.1' });
const buf = Buffer.alloc(1 << 20, 0x5a);
const mr = dev.register(buf, { remoteRead: true, remoteWrite: true });
console.log(`PORT ${l.port}`);
const req = await l.next();
if (req) {
    const conn = await req.accept({ privateData: Buffer.from(JSON.stringify(mr)) });
    console.log('ACCEPTED');
    for await (const _m of conn) {
        // keep the receives flowing; the test kills this process
    }
}
setInterval(() => { }, 1 << 30);
//# sourceMappingURL=peer-fixture.js.map
// The README's Node API program: a server and a client in one process (node dist/examples/node-api/hello.js).
import { openDevice, RemoteBuffer } from '../../src/index.js';

await using dev = openDevice(); // softrdma0 (iWARP); openDevice({ transport: 'rocev2' }) for RoCE

// Server: a buffer the client may RDMA-Write, handed over as JSON with the accept.
const inbox = dev.register(Buffer.alloc(64), { remoteWrite: true });
await using listener = await dev.listen({ host: '127.0.0.1' });
const server = (async () => {
  for await (const request of listener) {
    await using conn = await request.accept({ privateData: Buffer.from(JSON.stringify(inbox)) });
    for await (const msg of conn) {
      // The Send arrives after the Write before it: the bytes are in place.
      console.log(`${msg.data}: ${Buffer.from(inbox.buffer).toString('utf8', 0, 5)}`);
      return;
    }
  }
})();

// Client: connect, RDMA-Write into the server's buffer (one-sided), then Send a message.
await using conn = await dev.connect({ host: '127.0.0.1', port: listener.port, timeout: 5000 });
const remote = RemoteBuffer.from(JSON.parse(Buffer.from(conn.privateData).toString()));
await conn.write(Buffer.from('hello'), remote);
await conn.send(Buffer.from('written'));
await server; // prints "written: hello"

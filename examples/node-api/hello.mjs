// The README's Node API program in plain JavaScript (ESM; Node >= 20 has no `await using`, so
// the objects are closed in `finally`): a server and a client in one process.
//   node examples/node-api/hello.mjs          (in a project that installed softrdma)
import { openDevice, RemoteBuffer } from 'softrdma';

const dev = openDevice(); // softrdma0 (iWARP); openDevice({ transport: 'rocev2' }) for RoCE
try {
  // Server: a buffer the client may RDMA-Write, handed over as JSON with the accept.
  const inbox = dev.register(Buffer.alloc(64), { remoteWrite: true });
  const listener = await dev.listen({ host: '127.0.0.1' });
  const server = (async () => {
    for await (const request of listener) {
      const conn = await request.accept({ privateData: Buffer.from(JSON.stringify(inbox)) });
      try {
        for await (const msg of conn) {
          // The Send arrives after the Write before it: the bytes are in place.
          console.log(`${msg.data}: ${Buffer.from(inbox.buffer).toString('utf8', 0, 5)}`);
          return;
        }
      } finally {
        await conn.close();
      }
    }
  })();

  // Client: connect, RDMA-Write into the server's buffer (one-sided), then Send a message.
  const conn = await dev.connect({ host: '127.0.0.1', port: listener.port, timeout: 5000 });
  try {
    const remote = RemoteBuffer.from(JSON.parse(Buffer.from(conn.privateData).toString()));
    await conn.write(Buffer.from('hello'), remote);
    await conn.send(Buffer.from('written'));
    await server; // prints "written: hello"
  } finally {
    await conn.close();
    await listener.close();
  }
} finally {
  await dev.close();
}

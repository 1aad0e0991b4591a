/**
 * RDMA Write bandwidth of one RC QP pair in one process over the RoCEv2 transport (loopback
 * UDP, 127.0.0.1 ↔ 127.0.0.2) or the in-process IB loopback, for a quick comparison while
 * developing the RoCEv2 transport. Not part of `npm run bench` (one process, both ends share
 * one CPU).
 *
 *   node dist/bench/roce-loopback.js [rocev2|loopback-ib] [ibv_mtu 1..5] [messages of 1 MiB]
 *
 * `SOFTRDMA_NATIVE=0` runs RoCEv2 on the dgram fallback instead of the native datagram layer.
 */
import { RiWrType } from '../src/rnicpi/types.js';
import { datagramLayer } from '../src/util/native-udp.js';
import { hostMemory } from '../src/rnic/hostmem.js';
import { connectPair, type IbTransportName, makeIbSide, pollN, reg, send, sge } from '../test/helpers/engine.js';

const transport = (process.argv[2] ?? 'rocev2') as IbTransportName;
const mtu = Number(process.argv[3] ?? 3);
const n = Number(process.argv[4] ?? 256);
const MSG = 1 << 20;
const a = makeIbSide('RC');
const b = makeIbSide('RC');
const p = await connectPair(a, b, { transport, pathMtu: mtu, ib: { timeout: 14 } });
const src = new Uint8Array(MSG).fill(7);
const dst = new Uint8Array(MSG);
const ms = reg(a, src);
const md = reg(b, dst);
let posted = 0;
let done = 0;
const t0 = process.hrtime.bigint();
while (done < n) {
  while (posted < n && posted - done < 16) {
    send(a.qp, { type: RiWrType.RDMA_WRITE, sgl: [sge(ms, src)], rtag: md.stag, remoteTo: hostMemory.addressOf(dst), id: BigInt(posted) });
    posted++;
  }
  done += (await pollN(a.cq, 1, 60_000)).length;
}
const s = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(
  `${transport}${transport === 'rocev2' ? ` [${datagramLayer().text}]` : ''} path MTU ${128 << mtu}: RDMA Write ${n} × 1 MiB in ${s.toFixed(2)} s = ${((n * MSG) / s / 1e6).toFixed(0)} MB/s`,
);
await p.close();
setTimeout(() => process.exit(0), 200);

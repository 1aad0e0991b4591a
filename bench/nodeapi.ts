/**
 * The Node-native API beside the verbs API, in the same run: RDMA Write 64 B and
 * 64 KiB bandwidth and the 64 B Send round trip. The verbs figures are `softrdma perf` (the CLI on
 * `ibv_*`/`rdma_*`: tx depth 128, event-driven completions) in loopback mode; the Node API
 * figures are bench/nodeapi-peer.ts, two processes, same sizes and counts. Target ≥ 0.90× the
 * verbs bandwidth, RTT ≤ 1/0.9 (1.11×) of the verbs RTT.
 */
import dgram from 'node:dgram';
import { fileURLToPath } from 'node:url';
import { type BenchRow, type BenchSection, quick, ratioRow } from './harness.js';
import { perf, rounds, start } from './rdma.js';

const peer = fileURLToPath(new URL('./nodeapi-peer.js', import.meta.url));

/** A UDP port free on 127.0.0.1 now: the RoCE processes' own, away from 4791 and other runs. */
async function freeUdpPort(): Promise<number> {
  const s = dgram.createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.bind(0, '127.0.0.1', () => resolve());
  });
  const port = s.address().port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

type Dev = 'iwarp' | 'rocev2';

/**
 * One Node API measurement between two processes. On RoCE the processes own different
 * addresses (server 127.0.0.2, client 127.0.0.1) on one UDP port, as two hosts — as the loopback
 * `softrdma perf -d softroce0` it is compared with.
 */
async function nodeApi<T>(mode: string, size: number, n: number, dev: Dev = 'iwarp'): Promise<T> {
  const roce = dev === 'rocev2';
  const udp = roce ? String(await freeUdpPort()) : '';
  const env = (addr: string) => (roce ? { SOFTRDMA_ROCE_PORT: udp, SOFTRDMA_ROCE_ADDRS: addr } : undefined);
  const where = roce ? ['rocev2', '127.0.0.2'] : [];
  const srv = start(peer, ['server', ...where], env('127.0.0.2'));
  srv.result.catch(() => {}); // awaited below; an early failure shows there
  try {
    const port = await srv.port;
    const out = await start(peer, [mode, String(port), String(size), String(n), ...where], env('127.0.0.1')).result;
    await srv.result; // the server ends with the client's connection
    return JSON.parse(out.trim().split('\n').pop()!) as T;
  } catch (e) {
    srv.kill();
    throw e;
  }
}

export const nodeApiSection: BenchSection = {
  name: 'Node API (softrdma/node) vs verbs API on iWARP and RoCEv2: RDMA Write 64 B / 64 KiB bandwidth, Send 64 B round trip (two processes)',
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    const n64 = quick ? 20_000 : 100_000;
    const n64k = quick ? 2_000 : 10_000;
    const iters = quick ? 1000 : 5000;
    const m = await rounds(
      {
        verbs64: async () => (await perf(`write --bw -s 64 -n ${n64} --perform_warm_up`)).mbps,
        node64: async () => (await nodeApi<{ mbps: number }>('write', 64, n64)).mbps,
        verbs64k: async () => (await perf(`write --bw -s 65536 -n ${n64k} --perform_warm_up`)).mbps,
        node64k: async () => (await nodeApi<{ mbps: number }>('write', 65536, n64k)).mbps,
        verbsRtt: async () => 2 * (await perf(`send --lat -s 64 -n ${iters}`)).t_typical!,
        nodeRtt: async () => (await nodeApi<{ rtt_us: number }>('rtt', 64, iters)).rtt_us,
      },
      quick ? 1 : 3,
    );
    rows.push({ name: 'verbs API: RDMA Write 64 B (perf write --bw, tx depth 128)', value: m.verbs64!, unit: 'MB/s' });
    rows.push(
      ratioRow('Node API: RDMA Write 64 B (conn.write, window 128)', m.node64!, 'MB/s', m.verbs64!, 'verbs API 64 B', { min: 0.9 }),
    );
    rows.push({ name: 'verbs API: RDMA Write 64 KiB (perf write --bw, tx depth 128)', value: m.verbs64k!, unit: 'MB/s' });
    rows.push(
      ratioRow('Node API: RDMA Write 64 KiB (conn.write, window 128)', m.node64k!, 'MB/s', m.verbs64k!, 'verbs API 64 KiB', { min: 0.9 }),
    );
    rows.push({ name: 'verbs API: Send 64 B RTT (2 × perf send --lat t_typical, blocking)', value: m.verbsRtt!, unit: 'µs' });
    // A round trip is better when lower: ≤ 1/0.9 of the verbs RTT is the same goal as ≥ 0.9× its rate.
    rows.push(
      ratioRow('Node API: Send 64 B RTT (await send, await receive; median)', m.nodeRtt!, 'µs', m.verbsRtt!, 'verbs API RTT', {
        max: 1 / 0.9,
      }),
    );
    // The same rows on the RoCE device (softroce0, RoCEv2 over loopback UDP), side by side in
    // the same rounds. RoCE's software path moves fewer messages per second than iWARP's (a
    // packet per MTU, ACKs), so shorter runs give each figure about as many seconds.
    const r64 = quick ? 5_000 : 20_000;
    const r64k = quick ? 300 : 1_000;
    const rIters = quick ? 500 : 2000;
    const r = await rounds(
      {
        verbs64: async () => (await perf(`write --bw -d softroce0 -s 64 -n ${r64} --perform_warm_up`)).mbps,
        node64: async () => (await nodeApi<{ mbps: number }>('write', 64, r64, 'rocev2')).mbps,
        verbs64k: async () => (await perf(`write --bw -d softroce0 -s 65536 -n ${r64k} --perform_warm_up`)).mbps,
        node64k: async () => (await nodeApi<{ mbps: number }>('write', 65536, r64k, 'rocev2')).mbps,
        verbsRtt: async () => 2 * (await perf(`send --lat -d softroce0 -s 64 -n ${rIters}`)).t_typical!,
        nodeRtt: async () => (await nodeApi<{ rtt_us: number }>('rtt', 64, rIters, 'rocev2')).rtt_us,
      },
      quick ? 1 : 3,
    );
    rows.push({ name: 'RoCEv2 verbs API: RDMA Write 64 B (perf write --bw -d softroce0)', value: r.verbs64!, unit: 'MB/s' });
    rows.push(
      ratioRow('RoCEv2 Node API: RDMA Write 64 B (conn.write, window 128)', r.node64!, 'MB/s', r.verbs64!, 'RoCE verbs 64 B', { min: 0.9 }),
    );
    rows.push({ name: 'RoCEv2 verbs API: RDMA Write 64 KiB (perf write --bw -d softroce0)', value: r.verbs64k!, unit: 'MB/s' });
    rows.push(
      ratioRow('RoCEv2 Node API: RDMA Write 64 KiB (conn.write, window 128)', r.node64k!, 'MB/s', r.verbs64k!, 'RoCE verbs 64 KiB', {
        min: 0.9,
      }),
    );
    rows.push({ name: 'RoCEv2 verbs API: Send 64 B RTT (2 × perf send --lat -d softroce0)', value: r.verbsRtt!, unit: 'µs' });
    rows.push(
      ratioRow('RoCEv2 Node API: Send 64 B RTT (await send, await receive; median)', r.nodeRtt!, 'µs', r.verbsRtt!, 'RoCE verbs RTT', {
        max: 1 / 0.9,
      }),
    );
    return rows;
  },
};

/**
 * The Node-native API (issue 20) beside the verbs API, in the same run: RDMA Write 64 B and
 * 64 KiB bandwidth and the 64 B Send round trip. The verbs figures are `softrdma perf` (the CLI on
 * `ibv_*`/`rdma_*`: tx depth 128, event-driven completions) in loopback mode; the Node API
 * figures are bench/nodeapi-peer.ts, two processes, same sizes and counts. Target ≥ 0.90× the
 * verbs bandwidth, RTT ≤ 1/0.9 (1.11×) of the verbs RTT.
 */
import { fileURLToPath } from 'node:url';
import { quick, ratioRow } from './harness.js';
import { perf, rounds, start } from './rdma.js';
const peer = fileURLToPath(new URL('./nodeapi-peer.js', import.meta.url));
async function nodeApi(mode, size, n) {
    const srv = start(peer, ['server']);
    srv.result.catch(() => { }); // awaited below; an early failure shows there
    try {
        const port = await srv.port;
        const out = await start(peer, [mode, String(port), String(size), String(n)]).result;
        await srv.result; // the server ends with the client's connection
        return JSON.parse(out.trim().split('\n').pop());
    }
    catch (e) {
        srv.kill();
        throw e;
    }
}
export const nodeApiSection = {
    name: 'Node API vs verbs API: RDMA Write 64 B / 64 KiB bandwidth, Send 64 B round trip (two processes)',
    async run() {
        const rows = [];
        const n64 = quick ? 20_000 : 100_000;
        const n64k = quick ? 2_000 : 10_000;
        const iters = quick ? 1000 : 5000;
        const m = await rounds({
            verbs64: async () => (await perf(`write --bw -s 64 -n ${n64} --perform_warm_up`)).bw_average,
            node64: async () => (await nodeApi('write', 64, n64)).mbps,
            verbs64k: async () => (await perf(`write --bw -s 65536 -n ${n64k} --perform_warm_up`)).bw_average,
            node64k: async () => (await nodeApi('write', 65536, n64k)).mbps,
            verbsRtt: async () => 2 * (await perf(`send --lat -s 64 -n ${iters}`)).t_typical,
            nodeRtt: async () => (await nodeApi('rtt', 64, iters)).rtt_us,
        }, quick ? 1 : 3);
        rows.push({ name: 'verbs API: RDMA Write 64 B (perf write --bw, tx depth 128)', value: m.verbs64, unit: 'MB/s' });
        rows.push(ratioRow('Node API: RDMA Write 64 B (conn.write, window 128)', m.node64, 'MB/s', m.verbs64, 'verbs API 64 B', { min: 0.9 }));
        rows.push({ name: 'verbs API: RDMA Write 64 KiB (perf write --bw, tx depth 128)', value: m.verbs64k, unit: 'MB/s' });
        rows.push(ratioRow('Node API: RDMA Write 64 KiB (conn.write, window 128)', m.node64k, 'MB/s', m.verbs64k, 'verbs API 64 KiB', { min: 0.9 }));
        rows.push({ name: 'verbs API: Send 64 B RTT (2 × perf send --lat t_typical, blocking)', value: m.verbsRtt, unit: 'µs' });
        // A round trip is better when lower: ≤ 1/0.9 of the verbs RTT is the same goal as ≥ 0.9× its rate.
        rows.push(ratioRow('Node API: Send 64 B RTT (await send, await receive; median)', m.nodeRtt, 'µs', m.verbsRtt, 'verbs API RTT', { max: 1 / 0.9 }));
        return rows;
    },
};
//# sourceMappingURL=nodeapi.js.map
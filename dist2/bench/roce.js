/**
 * RoCEv2 over loopback UDP beside raw Node `dgram`, two processes each, in one run (the
 * performance issue's RoCEv2 targets):
 * - RDMA Write goodput at path MTU 1024 and 4096 (`softrdma perf write --bw -d softroce0 -m`),
 *   at least 0.7× raw `dgram` goodput with datagrams of the same size (bench/peer.ts udp-*);
 * - the small-message round trip (`perf send --lat -d softroce0`, 2 × t_typical), at most 1.2×
 *   a raw UDP ping-pong of the same payload.
 * The loopback perf puts the server on 127.0.0.2 (the next 127/8 address), both on UDP 4791,
 * so nothing else on the machine may hold that port meanwhile.
 */
import { quick, ratioRow } from './harness.js';
import { pair, perf, rounds } from './rdma.js';
/** The datagram of one full RoCEv2 packet: BTH 12 + RETH 16 (first) + payload + ICRC 4. */
const datagram = (mtu) => 12 + mtu + 4;
export const roceSection = {
    name: 'RoCEv2 loopback: RDMA Write goodput and Send round trip vs raw Node dgram (two processes)',
    async run() {
        const rows = [];
        const size = 64 * 1024;
        const n = quick ? 1000 : 4000;
        for (const mtu of [1024, 4096]) {
            const m = await rounds({
                raw: async () => (await pair('udp', [String(datagram(mtu)), String(n * size)])).mbps * (mtu / datagram(mtu)),
                write: async () => (await perf(`write --bw -d softroce0 -m ${mtu} -s ${size} -n ${n}`)).mbps,
            }, quick ? 1 : 3);
            const vs = `raw dgram ${datagram(mtu)} B`;
            rows.push({ name: `raw Node dgram goodput, ${datagram(mtu)}-octet datagrams (payload share)`, value: m.raw, unit: 'MB/s' });
            rows.push(ratioRow(`RoCEv2 RDMA Write 64 KiB, path MTU ${mtu}`, m.write, 'MB/s', m.raw, vs, { min: 0.7 }));
        }
        const iters = quick ? 2000 : 10000;
        const m = await rounds({
            raw: async () => (await pair('udp-pp', [String(iters), String(12 + 8 + 4)])).rtt_us,
            send: async () => 2 * (await perf(`send --lat -d softroce0 -s 8 -n ${iters}`)).t_typical,
        }, quick ? 1 : 3);
        rows.push({ name: 'raw Node UDP ping-pong RTT, 24-octet datagrams (median)', value: m.raw, unit: 'µs' });
        rows.push(ratioRow('RoCEv2 Send 8 B RTT (2 × perf send --lat -d softroce0 t_typical)', m.send, 'µs', m.raw, 'raw UDP ping-pong', { max: 1.2 }));
        return rows;
    },
};
//# sourceMappingURL=roce.js.map
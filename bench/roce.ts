/**
 * RoCEv2 over loopback UDP beside raw Node `dgram`, two processes each, in one run (the
 * RoCEv2 fast-path targets), on each datagram layer of `src/roce/net.ts`: the native
 * one (recvmmsg/sendmmsg with GSO/GRO) and the `dgram` fallback (`SOFTRDMA_NATIVE=0`):
 * - RDMA Write goodput at path MTU 1024 and 4096 (`softrdma perf write --bw -d softroce0 -m`),
 *   at least 1.0× raw `dgram` goodput with datagrams of the same size (bench/peer.ts udp-*);
 * - RDMA Write 64 KiB at MTU 4096 at least 0.6× the iWARP device's RDMA Write 64 KiB;
 * - the goodput rows are steady state, as the other bandwidth targets are (`--perform_warm_up`:
 *   one untimed pass first), with the first pass beside them (no target: the cold start has its
 *   own, in the loopback bandwidth section);
 * - the small-message round trip (`perf send --lat -d softroce0`, 2 × t_typical), at most 1.4×
 *   a raw UDP ping-pong of the same payload.
 * The loopback perf puts the server on 127.0.0.2 (the next 127/8 address), both on UDP 4791,
 * so nothing else on the machine may hold that port meanwhile.
 */
import { datagramLayer } from '../src/util/native-udp.js';
import { type BenchRow, type BenchSection, GOALS, type Goal, quick, ratioRow, skippedRow } from './harness.js';
import { pair, perf, rounds } from './rdma.js';

/** The datagram of one full RoCEv2 packet: BTH 12 + RETH 16 (first) + payload + ICRC 4. */
const datagram = (mtu: number): number => 12 + mtu + 4;
const FALLBACK = { SOFTRDMA_NATIVE: '0' };

export const roceSection: BenchSection = {
  name: 'RoCEv2 loopback: RDMA Write goodput and Send round trip vs raw Node dgram (two processes), native datagram layer and dgram fallback',
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    const size = 64 * 1024;
    const n = quick ? 1000 : 4000;
    const layer = datagramLayer();
    // The rows of each layer, tagged "native" or "fallback" for the fast-path table; without the
    // addon there is only the fallback, and the native rows say why.
    const layers: [string, NodeJS.ProcessEnv | undefined, string][] = layer.native
      ? [
          [`[${layer.text}]`, undefined, 'native'],
          ['[dgram fallback]', FALLBACK, 'fallback'],
        ]
      : [[`[${layer.text}]`, undefined, 'fallback']];
    if (!layer.native)
      for (const g of [GOALS.roceMtu1024, GOALS.roceMtu4096, GOALS.roceVsIwarp, GOALS.roceRtt] as Goal[])
        rows.push(skippedRow(g, layer.text, 'native'));
    for (const mtu of [1024, 4096]) {
      const runs: Record<string, () => Promise<number>> = {
        raw: async () => (await pair<{ mbps: number }>('udp', [String(datagram(mtu)), String(n * size)])).mbps * (mtu / datagram(mtu)),
      };
      for (const [i, [, env]] of layers.entries()) {
        runs[`write${i}`] = async () =>
          (await perf(`write --bw -d softroce0 -m ${mtu} -s ${size} -n ${n} --perform_warm_up`, false, env)).mbps;
        runs[`first${i}`] = async () => (await perf(`write --bw -d softroce0 -m ${mtu} -s ${size} -n ${n}`, false, env)).mbps;
      }
      if (mtu === 4096) runs.iwarp = async () => (await perf(`write --bw -d softrdma0 -s ${size} -n ${n} --perform_warm_up`)).mbps;
      const m = await rounds(runs, quick ? 1 : 3);
      const vs = `raw dgram ${datagram(mtu)} B`;
      rows.push({ name: `raw Node dgram goodput, ${datagram(mtu)}-octet datagrams (payload share)`, value: m.raw!, unit: 'MB/s' });
      const goal = mtu === 4096 ? GOALS.roceMtu4096 : GOALS.roceMtu1024;
      for (const [i, [label, , tag]] of layers.entries()) {
        rows.push(ratioRow(`RoCEv2 RDMA Write 64 KiB, path MTU ${mtu} ${label}`, m[`write${i}`]!, 'MB/s', m.raw!, vs, goal, tag));
        rows.push(ratioRow(`RoCEv2 RDMA Write 64 KiB, path MTU ${mtu} ${label}, first pass`, m[`first${i}`]!, 'MB/s', m.raw!, vs));
      }
      if (m.iwarp !== undefined) {
        rows.push({ name: 'iWARP RDMA Write 64 KiB (perf write --bw -d softrdma0 --perform_warm_up)', value: m.iwarp, unit: 'MB/s' });
        for (const [i, [label, , tag]] of layers.entries())
          rows.push(
            ratioRow(
              `RoCEv2 RDMA Write 64 KiB, path MTU 4096 ${label}`,
              m[`write${i}`]!,
              'MB/s',
              m.iwarp!,
              'iWARP RDMA Write 64 KiB',
              GOALS.roceVsIwarp,
              tag,
            ),
          );
      }
    }
    const iters = quick ? 2000 : 10000;
    const runs: Record<string, () => Promise<number>> = {
      raw: async () => (await pair<{ rtt_us: number }>('udp-pp', [String(iters), String(12 + 8 + 4)])).rtt_us,
    };
    for (const [i, [, env]] of layers.entries())
      runs[`send${i}`] = async () => 2 * (await perf(`send --lat -d softroce0 -s 8 -n ${iters}`, false, env)).t_typical!;
    const m = await rounds(runs, quick ? 1 : 3);
    rows.push({ name: 'raw Node UDP ping-pong RTT, 24-octet datagrams (median)', value: m.raw!, unit: 'µs' });
    for (const [i, [label, , tag]] of layers.entries()) {
      rows.push(
        ratioRow(
          `RoCEv2 Send 8 B RTT (2 × perf send --lat -d softroce0 t_typical) ${label}`,
          m[`send${i}`]!,
          'µs',
          m.raw!,
          'raw UDP ping-pong',
          GOALS.roceRtt,
          tag,
        ),
      );
    }
    return rows;
  },
};

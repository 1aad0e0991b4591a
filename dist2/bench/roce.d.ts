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
import { type BenchSection } from './harness.js';
export declare const roceSection: BenchSection;

/**
 * Wire tracing for RoCEv2: with `SOFTRDMA_PCAP=<directory>`, every UDP endpoint of the
 * transport (one per local address and port, `net.ts`) writes
 * `softrdma-<pid>-<n>-roce-<addr>-<port>.pcap`
 * holding each datagram it sent and each it received, framed as Ethernet/IPv4/UDP (or
 * Ethernet/IPv6/UDP for an IPv6 endpoint) so that
 * Wireshark/tshark decode the packets as RRoCE (the `infiniband` dissector on UDP 4791; for
 * another port, `-o infiniband.rroce.port:<port>`).
 * Received datagrams carry the IPv4 ID recovered from their ICRC, sent ones ID 0, so the
 * capture shows what was on the wire.
 */

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pcapDirFromEnv } from '../util/env.js';
import { PcapWriter } from '../wire/pcap.js';

let seq = 0;

/** The directory captures go to, or null when tracing is off. */
export function pcapDir(): string | null {
  return pcapDirFromEnv();
}

/** A capture of one UDP endpoint. */
export class RocePcap {
  readonly #w: PcapWriter;
  readonly file: string;
  #open = true;

  private constructor(file: string) {
    this.file = file;
    this.#w = new PcapWriter(file);
  }

  /**
   * Opens a capture for the endpoint `address:port`; null when tracing is off.
   */
  static open(address: string, port: number): RocePcap | null {
    const dir = pcapDir();
    if (!dir) return null;
    mkdirSync(dir, { recursive: true });
    return new RocePcap(join(dir, `softrdma-${process.pid}-${seq++}-roce-${address.replace(/[:%]/g, '_')}${port ? `-${port}` : ''}.pcap`));
  }

  /** Records one datagram. */
  datagram(srcIp: string, srcPort: number, dstIp: string, dstPort: number, payload: Uint8Array, ipId: number): void {
    if (!this.#open) return;
    this.#w.udpDatagram({ src: { ip: srcIp, port: srcPort || 1 }, dst: { ip: dstIp, port: dstPort || 1 }, payload, ipId });
  }

  close(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#w.close();
  }
}

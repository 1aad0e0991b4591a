/**
 * Wire tracing: each TCP stream of the stack can be written to a classic pcap file that
 * Wireshark/tshark decode as `iwarp_mpa` / `iwarp_ddp_rdmap`.
 *
 * Set `SOFTRDMA_PCAP=<directory>` to enable it; every stream then gets its own file
 * `softrdma-<pid>-<n>.pcap` holding a synthesized TCP handshake, both directions of the
 * stream as the stack saw them (streaming-mode MPA exchange included, which Wireshark's
 * MPA heuristic needs), and the FIN at close. A tap is keyed by its socket, so the
 * connection manager and the QP data path write into the same capture.
 */
import { pcapDirFromEnv } from '../util/env.js';
import { mkdirSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { type PcapTcpConnection, PcapWriter } from '../wire/pcap.js';

export interface PcapTap {
  /** Bytes this side sent. */
  tx(b: Uint8Array): void;
  /** Bytes this side received. */
  rx(b: Uint8Array): void;
  close(): void;
}

const taps = new WeakMap<Socket, PcapTap>();
let seq = 0;

/** The directory captures go to, or null when tracing is off. */
export function pcapDir(): string | null {
  return pcapDirFromEnv();
}

/** Returns the tap for `socket`, creating it (and its file) on first use; null when tracing is off. */
export function tapSocket(socket: Socket, label = 'conn'): PcapTap | null {
  const existing = taps.get(socket);
  if (existing) return existing;
  const dir = pcapDir();
  if (!dir) return null;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `softrdma-${process.pid}-${seq++}-${label}.pcap`);
  const writer = new PcapWriter(file);
  const local = { ip: v4(socket.localAddress), port: socket.localPort ?? 1 };
  const remote = { ip: v4(socket.remoteAddress), port: socket.remotePort ?? 2 };
  const conn: PcapTcpConnection = writer.tcpConnection(local, remote);
  let open = true;
  const tap: PcapTap = {
    tx: (b) => {
      if (open && b.length) conn.send(true, b);
    },
    rx: (b) => {
      if (open && b.length) conn.send(false, b);
    },
    close: () => {
      if (!open) return;
      open = false;
      conn.close();
      writer.close();
    },
  };
  taps.set(socket, tap);
  socket.once('close', () => tap.close());
  return tap;
}

/** The tap a QP's data path uses (shared with the connection manager's). */
export function openPcapForConn(socket: Socket, qpId: number): PcapTap | null {
  return tapSocket(socket, `qp${qpId}`);
}

function v4(addr: string | undefined): string {
  if (!addr) return '127.0.0.1';
  const m = /(\d+\.\d+\.\d+\.\d+)$/.exec(addr);
  return m ? m[1]! : '127.0.0.1';
}

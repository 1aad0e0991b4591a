/**
 * Helpers for the connection-manager tests: a recording TCP proxy (the bytes on the wire in
 * each direction), a raw-bytes MPA peer, FPDU decoding of a captured stream, and the leak check
 * every test ends with.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { type CmStats, cmStats } from '../../src/iwarp/cm.js';
import type { Rnic } from '../../src/rnic/rnic.js';
import { concatUlpdu, FpduDeframer } from '../../src/wire/deframer.js';
import { decodeMpaReqRep, type MpaReqRep } from '../../src/wire/mpa.js';
import { decodeRdmapHeader, type RdmapHeader } from '../../src/wire/rdmap.js';
import { until } from '../helpers/engine.js';

export const te = (s: string): Uint8Array => new Uint8Array(Buffer.from(s));
export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

const ZERO_STATS: CmStats = { listeners: 0, sockets: 0, timers: 0, connecting: 0, requests: 0, handshakes: 0 };

/**
 * Waits until the CM holds nothing (no listener, socket, timer, pending connect or request)
 * and the given RNICs have no QP left, then asserts it. Timing only bounds the wait.
 */
export async function assertNoLeaks(rnics: Rnic[] = [], ms = 5000): Promise<void> {
  const clean = (): boolean => {
    const s = cmStats();
    return (
      (Object.keys(ZERO_STATS) as (keyof CmStats)[]).every((k) => s[k] === 0) &&
      rnics.every((r) => r.qps.size === 0) &&
      tcpHandles().length === 0
    );
  };
  try {
    await until(clean, ms, 'the CM to release everything');
  } catch {
    // fall through to the assertion, which names what is left
  }
  assert.deepEqual(cmStats(), ZERO_STATS);
  for (const r of rnics) assert.equal(r.qps.size, 0, 'QPs left');
  // Node's own view: no TCP socket or server handle is still open in this process.
  assert.deepEqual(tcpHandles(), [], 'TCP handles left open');
}

function tcpHandles(): string[] {
  return process.getActiveResourcesInfo().filter((r) => r.startsWith('TCP'));
}

/** Destroys every QP of the RNICs (Destroy QP resets any LLP still attached). */
export function destroyAll(...rnics: Rnic[]): void {
  for (const r of rnics) for (const qp of [...r.qps.values()]) r.qpDestroy(qp);
}

/**
 * A TCP proxy that records every octet in both directions: `up` (client → target) and `down`
 * (target → client). Half-closes and resets are passed through.
 */
export class WireTap {
  readonly up: Buffer[] = [];
  readonly down: Buffer[] = [];
  readonly #socks = new Set<net.Socket>();
  private constructor(
    readonly server: net.Server,
    readonly targetPort: number,
  ) {}

  static async start(targetPort: number): Promise<WireTap> {
    let tap: WireTap | null = null;
    const server = net.createServer({ allowHalfOpen: true }, (c) => tap!.#onClient(c));
    tap = new WireTap(server, targetPort);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return tap;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  upBytes(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.up));
  }
  downBytes(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.down));
  }

  #onClient(c: net.Socket): void {
    const t = net.connect({ port: this.targetPort, host: '127.0.0.1', allowHalfOpen: true });
    for (const s of [c, t]) {
      this.#socks.add(s);
      s.on('error', () => {});
      s.once('close', () => this.#socks.delete(s));
    }
    const pipe = (from: net.Socket, to: net.Socket, log: Buffer[]): void => {
      from.on('data', (d: Buffer) => {
        log.push(Buffer.from(d));
        if (!to.destroyed) to.write(d);
      });
      from.on('end', () => {
        if (!to.destroyed) to.end();
      });
      from.on('close', (hadError) => {
        // A reset on one side is passed on as a reset.
        if (hadError && !to.destroyed) {
          if (to.connecting) to.destroy();
          else to.resetAndDestroy();
        }
      });
    };
    pipe(c, t, this.up);
    pipe(t, c, this.down);
  }

  async close(): Promise<void> {
    for (const s of this.#socks) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** Splits a captured stream into its streaming-mode frame and the FPDU-mode octets after it. */
export function splitFrame(stream: Uint8Array): { frame: MpaReqRep; raw: Uint8Array; rest: Uint8Array } {
  const r = decodeMpaReqRep(stream);
  assert.equal(r.status, 'frame', 'a whole Request/Reply frame at the start of the stream');
  if (r.status !== 'frame') throw new Error('unreachable');
  return { frame: r.frame, raw: stream.subarray(0, r.consumed), rest: stream.subarray(r.consumed) };
}

/** A decoded FPDU of a captured stream. */
export interface WireFpdu {
  header: RdmapHeader;
  /** Payload after the DDP/RDMAP headers. */
  payload: Uint8Array;
}

/**
 * Decodes the FPDUs of a captured direction with the wire codecs (CRC checked, Markers
 * removed), starting at Marker-grid offset 0 (RFC 5044 §4.3). Throws on any framing error.
 */
export function decodeFpdus(rest: Uint8Array, crc: boolean, markers: boolean): WireFpdu[] {
  const out: WireFpdu[] = [];
  const d = new FpduDeframer({
    maxUlpdu: 65535,
    crc,
    markers,
    onFpdu: (f) => {
      const u = concatUlpdu(f);
      const { header, headerLength } = decodeRdmapHeader(u);
      out.push({ header, payload: u.slice(headerLength) });
    },
  });
  d.push(rest);
  return out;
}

/** Builds the exact octets of an MPA Request/Reply, from the RFC's layout, for comparisons. */
export function frameBytes(f: {
  reply: boolean;
  m: boolean;
  c: boolean;
  r?: boolean;
  s: boolean;
  rev: number;
  word?: { ird: number; ord: number; a?: boolean; b?: boolean; cw?: boolean; d?: boolean } | null;
  pd: Uint8Array;
  /** softrdma's RDMAP-extension bit (the lowest reserved flag bit): set between softrdma peers. */
  x?: boolean;
}): Uint8Array {
  const key = te(f.reply ? 'MPA ID Rep Frame' : 'MPA ID Req Frame');
  const word = f.word
    ? [
        ((f.word.a ? 0x80 : 0) | (f.word.b ? 0x40 : 0) | (f.word.ird >> 8)) & 0xff,
        f.word.ird & 0xff,
        ((f.word.cw ? 0x80 : 0) | (f.word.d ? 0x40 : 0) | (f.word.ord >> 8)) & 0xff,
        f.word.ord & 0xff,
      ]
    : [];
  const len = word.length + f.pd.length;
  const flags = (f.m ? 0x80 : 0) | (f.c ? 0x40 : 0) | (f.r ? 0x20 : 0) | (f.s ? 0x10 : 0) | (f.x ? 0x01 : 0);
  return new Uint8Array([...key, flags, f.rev, len >> 8, len & 0xff, ...word, ...f.pd]);
}

/**
 * A raw TCP peer for scripted misbehaviour: it writes exactly the octets it is told and records
 * what it receives. Not our stack.
 */
export class RawSock {
  readonly received: Buffer[] = [];
  closed = false;
  ended = false;
  resetSeen = false;
  private constructor(readonly sock: net.Socket) {
    sock.on('data', (d: Buffer) => this.received.push(Buffer.from(d)));
    sock.on('end', () => (this.ended = true));
    sock.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ECONNRESET') this.resetSeen = true;
    });
    sock.on('close', () => (this.closed = true));
  }
  /** Connects to `host:port` (default loopback), from `localAddress` when given (any 127/8 address works unprivileged on Linux). */
  static async connect(port: number, localAddress?: string, host = '127.0.0.1'): Promise<RawSock> {
    const sock = net.connect({ port, host, allowHalfOpen: true, ...(localAddress ? { localAddress } : {}) });
    await once(sock, 'connect');
    return new RawSock(sock);
  }
  static wrap(sock: net.Socket): RawSock {
    return new RawSock(sock);
  }
  bytes(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.received));
  }
  write(b: Uint8Array): void {
    this.sock.write(b);
  }
  async waitClosed(ms = 5000): Promise<void> {
    await until(() => this.closed, ms, 'the raw peer socket to close');
  }
  destroy(): void {
    this.sock.destroy();
  }
}

/** A raw TCP server that hands each accepted socket to `onConn`. */
export async function rawServer(onConn: (s: RawSock) => void): Promise<{ port: number; close(): Promise<void>; socks: RawSock[] }> {
  const socks: RawSock[] = [];
  const server = net.createServer({ allowHalfOpen: true }, (s) => {
    const r = RawSock.wrap(s);
    socks.push(r);
    onConn(r);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as net.AddressInfo).port,
    socks,
    close: async () => {
      for (const s of socks) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

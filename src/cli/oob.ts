/**
 * The out-of-band TCP side channel that rdma-core's example programs and perftest use to set
 * up connections without a CM: each side sends the other its QP number, PSN and GID (and, for
 * perftest, rkey and buffer address) as fixed-size text, then each moves its own QPs through
 * INIT/RTR/RTS with what it received. softrdma's `pingpong` and `perf` without `-R` speak it so
 * that they interoperate with `ibv_*_pingpong` and `ib_*_bw/lat` over RoCEv2.
 *
 * Two formats:
 * - **pingpong** (`libibverbs/examples/pingpong.c`, `rc_pingpong.c` `pp_*_exch_dest`):
 *   `"%04x:%06x:%06x:%s"` = LID:QPN:PSN:GID, the GID as 32 hex digits of its 16 octets in
 *   order (`gid_to_wire_gid`), NUL-terminated in a 52-octet buffer. The client writes first,
 *   the server answers with its own after connecting its QP, the client then writes `"done\0"`.
 *   `ibv_srq_pingpong` sends one such message per QP.
 * - **perftest** (`perftest_communication.c` `ethernet_write_keys`, `KEY_PRINT_FMT_GID`):
 *   `"%04x:%04x:%06x:%06x:%08x:%016llx:" + 16 × "%02x:" + "%08x:"` = LID, outstanding reads, QPN,
 *   PSN, rkey, vaddr, the GID octets, SRQ number; 107 characters and a NUL in 108 octets. The
 *   client writes first in every exchange (`ctx_xchg_data_ethernet`).
 *
 * A peer's text is untrusted: decoding checks every field's syntax and range.
 */
import { once } from 'node:events';
import net from 'node:net';
import { PSN_MASK, QPN_MASK } from '../wire/ib/constants.js';

/** `sizeof "0000:000000:000000:00000000000000000000000000000000"`. */
export const PP_MSG_LEN = 52;
/** `sizeof "done"`. */
export const PP_DONE = new Uint8Array([0x64, 0x6f, 0x6e, 0x65, 0]);
/** perftest's `KEY_MSG_SIZE_GID`. */
export const PERFTEST_KEYS_LEN = 108;
/** The default TCP port of both (`-p`). */
export const OOB_DEFAULT_PORT = 18515;

export class OobError extends Error {}

/** What `ibv_*_pingpong` exchanges per QP. */
export interface PpDest {
  lid: number;
  qpn: number;
  psn: number;
  /** 16 octets. */
  gid: Uint8Array;
}

/** What perftest exchanges per QP (`struct pingpong_dest` fields it prints). */
export interface PerftestKeys extends PpDest {
  outReads: number;
  rkey: number;
  vaddr: bigint;
  srqn: number;
}

const hex = (v: number | bigint, w: number) => v.toString(16).padStart(w, '0');

function checkField(name: string, v: number | bigint, max: number | bigint): void {
  if (typeof v === 'bigint' ? v < 0n || v > BigInt(max) : !Number.isInteger(v) || v < 0 || v > Number(max)) {
    throw new OobError(`${name} ${v} out of range`);
  }
}

function checkGid(gid: Uint8Array): void {
  if (!(gid instanceof Uint8Array) || gid.length !== 16) throw new OobError('a GID is 16 octets');
}

/** The text in `b` up to its first NUL (the whole buffer must be ASCII). */
function cText(b: Uint8Array, what: string): string {
  const end = b.indexOf(0);
  const s = Buffer.from(b.subarray(0, end < 0 ? b.length : end)).toString('latin1');
  if (!/^[\x20-\x7e]*$/.test(s)) throw new OobError(`${what}: not text`);
  return s;
}

/** Parses one hexadecimal field of at most `maxDigits` digits (sscanf `%x` would take more; a peer's text must be well formed). */
function hexField(s: string | undefined, maxDigits: number, what: string): number {
  if (s === undefined || !/^[0-9a-fA-F]+$/.test(s) || s.length > maxDigits)
    throw new OobError(`${what}: bad hexadecimal field ${JSON.stringify(s)}`);
  return Number.parseInt(s, 16);
}

/** `gid_to_wire_gid`: 32 hexadecimal digits, the octets in order. */
export function gidToWire(gid: Uint8Array): string {
  checkGid(gid);
  return Buffer.from(gid).toString('hex');
}

/** `wire_gid_to_gid`. */
export function wireToGid(s: string): Uint8Array {
  if (!/^[0-9a-fA-F]{32}$/.test(s)) throw new OobError(`bad GID ${JSON.stringify(s)}`);
  return new Uint8Array(Buffer.from(s, 'hex'));
}

/** The pingpong message of one QP: 52 octets, NUL-padded. */
export function encodePpDest(d: PpDest): Uint8Array {
  checkField('LID', d.lid, 0xffff);
  checkField('QPN', d.qpn, QPN_MASK);
  checkField('PSN', d.psn, PSN_MASK);
  const s = `${hex(d.lid, 4)}:${hex(d.qpn, 6)}:${hex(d.psn, 6)}:${gidToWire(d.gid)}`;
  const b = new Uint8Array(PP_MSG_LEN);
  b.set(Buffer.from(s, 'latin1'));
  return b;
}

export function decodePpDest(b: Uint8Array): PpDest {
  if (b.length !== PP_MSG_LEN) throw new OobError(`pingpong address: ${b.length} octets, expected ${PP_MSG_LEN}`);
  const f = cText(b, 'pingpong address').split(':');
  if (f.length !== 4) throw new OobError('pingpong address: expected LID:QPN:PSN:GID');
  return { lid: hexField(f[0], 4, 'LID'), qpn: hexField(f[1], 6, 'QPN'), psn: hexField(f[2], 6, 'PSN'), gid: wireToGid(f[3]!) };
}

/** perftest's keys of one QP: 108 octets (107 characters and a NUL). */
export function encodePerftestKeys(k: PerftestKeys): Uint8Array {
  checkField('LID', k.lid, 0xffff);
  checkField('outstanding reads', k.outReads, 0xffff);
  checkField('QPN', k.qpn, QPN_MASK);
  checkField('PSN', k.psn, PSN_MASK);
  checkField('rkey', k.rkey, 0xffffffff);
  checkField('vaddr', k.vaddr, 0xffff_ffff_ffff_ffffn);
  checkField('SRQ number', k.srqn, 0xffffffff);
  checkGid(k.gid);
  const gid = Array.from(k.gid, (o) => `${hex(o, 2)}:`).join('');
  const s = `${hex(k.lid, 4)}:${hex(k.outReads, 4)}:${hex(k.qpn, 6)}:${hex(k.psn, 6)}:${hex(k.rkey, 8)}:${hex(k.vaddr, 16)}:${gid}${hex(k.srqn, 8)}:`;
  const b = new Uint8Array(PERFTEST_KEYS_LEN);
  b.set(Buffer.from(s, 'latin1'));
  return b;
}

export function decodePerftestKeys(b: Uint8Array): PerftestKeys {
  if (b.length !== PERFTEST_KEYS_LEN) throw new OobError(`perftest keys: ${b.length} octets, expected ${PERFTEST_KEYS_LEN}`);
  const f = cText(b, 'perftest keys').split(':');
  // 6 fields, 16 GID octets, the SRQ number, and the empty string after the last colon.
  if (f.length !== 24 || f[23] !== '') throw new OobError('perftest keys: wrong number of fields');
  const gid = new Uint8Array(16);
  for (let i = 0; i < 16; i++) gid[i] = hexField(f[6 + i], 2, 'GID octet');
  const v = f[5]!;
  if (!/^[0-9a-fA-F]{1,16}$/.test(v)) throw new OobError(`vaddr: bad hexadecimal field ${JSON.stringify(v)}`);
  return {
    lid: hexField(f[0], 4, 'LID'),
    outReads: hexField(f[1], 4, 'outstanding reads'),
    qpn: hexField(f[2], 6, 'QPN'),
    psn: hexField(f[3], 6, 'PSN'),
    rkey: hexField(f[4], 8, 'rkey'),
    vaddr: BigInt(`0x${v}`),
    gid,
    srqn: hexField(f[22], 8, 'SRQ number'),
  };
}

/** A listening side channel: takes the first connection, then stops listening (as the C programs do). */
export class OobListener {
  readonly #server: net.Server;
  constructor(server: net.Server) {
    this.#server = server;
  }

  get port(): number {
    return (this.#server.address() as net.AddressInfo).port;
  }

  async accept(timeoutMs = 0): Promise<OobChannel> {
    try {
      const [sock] = (await once(this.#server, 'connection')) as [net.Socket];
      return OobChannel.wrap(sock, timeoutMs);
    } finally {
      this.#server.close();
    }
  }

  close(): void {
    this.#server.close();
  }
}

/**
 * One side of the TCP side channel: exact-length reads (as the C programs' read loops), bounded
 * by a timeout so that a silent peer cannot hold a tool forever.
 */
export class OobChannel {
  #buf: Buffer = Buffer.alloc(0);
  #waiter: (() => void) | null = null;
  #ended = false;
  #error: Error | null = null;

  private constructor(
    readonly sock: net.Socket,
    /** How long one {@link read} may wait; 0: as long as the peer keeps the connection open. */
    public timeoutMs: number,
  ) {
    sock.on('data', (d: Buffer) => {
      this.#buf = this.#buf.length ? Buffer.concat([this.#buf, d]) : d;
      // A peer that sends more than any exchange needs is not following the protocol.
      if (this.#buf.length > 64 * 1024) this.#fail(new OobError('side channel: too much data from the peer'));
      this.#wake();
    });
    sock.on('end', () => {
      this.#ended = true;
      this.#wake();
    });
    sock.on('error', (e) => this.#fail(e));
    sock.on('close', () => {
      this.#ended = true;
      this.#wake();
    });
  }

  /** The peer closed the connection, or it failed. */
  get closed(): boolean {
    return this.#ended || this.#error !== null;
  }

  #fail(e: Error): void {
    this.#error ??= e;
    this.sock.destroy();
    this.#wake();
  }

  #wake(): void {
    const w = this.#waiter;
    this.#waiter = null;
    w?.();
  }

  /** Client: connects to the server's side channel. */
  static async connect(host: string, port: number, timeoutMs = 10_000): Promise<OobChannel> {
    const sock = net.connect({ host, port });
    const t = setTimeout(() => sock.destroy(new OobError(`Couldn't connect to ${host}:${port}`)), timeoutMs);
    try {
      await once(sock, 'connect');
    } catch (e) {
      throw new OobError(`Couldn't connect to ${host}:${port}: ${(e as Error).message}`);
    } finally {
      clearTimeout(t);
    }
    sock.setNoDelay(true);
    return new OobChannel(sock, timeoutMs);
  }

  /**
   * Server: listens on `port` (0: an ephemeral one). A port in use is an {@link OobError}
   * naming it, raised here, before the caller says anything about waiting.
   */
  static async listen(bind: string | undefined, port: number): Promise<OobListener> {
    const server = net.createServer({ pauseOnConnect: false });
    server.listen({ host: bind, port, exclusive: true });
    try {
      await once(server, 'listening');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'error';
      const why = code === 'EADDRINUSE' ? 'address already in use' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
      throw new OobError(`Couldn't listen to port ${port} on ${bind ?? 'all addresses'}: ${why} (${code})`);
    }
    return new OobListener(server);
  }

  /** Server: listens and takes the first connection (the listener is closed then, as the C programs do). */
  static async accept(bind: string | undefined, port: number, timeoutMs = 0, onListening?: (port: number) => void): Promise<OobChannel> {
    const l = await OobChannel.listen(bind, port);
    onListening?.(l.port);
    return l.accept(timeoutMs);
  }

  /** Wraps an accepted socket (see {@link OobListener.accept}). */
  static wrap(sock: net.Socket, timeoutMs: number): OobChannel {
    sock.setNoDelay(true);
    return new OobChannel(sock, timeoutMs > 0 ? timeoutMs : 10_000);
  }

  write(b: Uint8Array): void {
    this.sock.write(b);
  }

  /** Reads exactly `n` octets. */
  async read(n: number): Promise<Uint8Array> {
    const deadline = this.timeoutMs > 0 ? Date.now() + this.timeoutMs : Number.POSITIVE_INFINITY;
    while (this.#buf.length < n) {
      if (this.#error) throw this.#error;
      if (this.#ended) throw new OobError(`side channel closed after ${this.#buf.length}/${n} octets`);
      const left = deadline - Date.now();
      if (left <= 0) throw new OobError(`side channel: timed out waiting for ${n} octets`);
      await new Promise<void>((r) => {
        this.#waiter = r;
        if (Number.isFinite(left)) setTimeout(r, left).unref?.();
      });
    }
    const out = new Uint8Array(this.#buf.subarray(0, n));
    this.#buf = this.#buf.subarray(n);
    return out;
  }

  /** Client sends then receives; server receives then sends (`ctx_xchg_data_ethernet`). */
  async xchg(client: boolean, msg: Uint8Array, n = msg.length): Promise<Uint8Array> {
    if (client) {
      this.write(msg);
      return this.read(n);
    }
    const r = await this.read(n);
    this.write(msg);
    return r;
  }

  close(): void {
    this.sock.end();
  }

  /** Like {@link write}, but nothing is reported if the peer has already gone (a last "done"). */
  writeLast(b: Uint8Array): void {
    if (this.closed || this.sock.destroyed) return;
    this.sock.write(b, () => {});
  }
}

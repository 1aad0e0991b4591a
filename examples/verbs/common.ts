/**
 * Small helpers shared by the ports of the manual's example programs (chapter 8): C-style
 * output, a byte-exact socket reader, and the "both sides on loopback" launcher.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { createInterface } from 'node:readline';

/** `printf` to stdout (the examples print whole lines, so no buffering concerns). */
export function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** `fprintf(stderr, ...)`. */
export function err(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** C's `%x` of an unsigned 32-bit value. */
export function hex(n: number | bigint): string {
  return (typeof n === 'bigint' ? n : BigInt(n >>> 0)).toString(16);
}

/** Copies `text` and a NUL into `buf` at 0 (C's `strcpy`; the caller sized `buf`). */
export function strcpy(buf: Uint8Array, text: string): void {
  const b = Buffer.from(text, 'latin1');
  if (b.length + 1 > buf.length) throw new RangeError(`strcpy: ${b.length + 1} bytes into ${buf.length}`);
  buf.set(b, 0);
  buf[b.length] = 0;
}

/** The NUL-terminated string at the start of `buf` (C's `%s` of a char buffer). */
export function cstr(buf: Uint8Array): string {
  const end = buf.indexOf(0);
  return Buffer.from(buf.subarray(0, end < 0 ? buf.length : end)).toString('latin1');
}

/**
 * Reads exact byte counts from a TCP socket (C's blocking `read` loop), keeping what arrives
 * beyond them for the next read or for whoever takes the socket over ({@link detach}).
 */
export class SockReader {
  #buf: Buffer = Buffer.alloc(0);
  #want: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void } | null = null;
  #ended: Error | null = null;
  readonly #onData = (d: Buffer): void => {
    this.#buf = this.#buf.length === 0 ? d : Buffer.concat([this.#buf, d]);
    this.#serve();
  };
  readonly #onEnd = (): void => {
    this.#ended = new Error('connection closed by peer');
    this.#serve();
  };
  constructor(readonly socket: net.Socket) {
    socket.on('data', this.#onData);
    socket.on('end', this.#onEnd);
    socket.on('error', (e) => {
      this.#ended = e;
      this.#serve();
    });
    socket.resume();
  }
  #serve(): void {
    const w = this.#want;
    if (!w) return;
    if (this.#buf.length >= w.n) {
      this.#want = null;
      const r = this.#buf.subarray(0, w.n);
      this.#buf = this.#buf.subarray(w.n);
      w.resolve(Buffer.from(r));
    } else if (this.#ended) {
      this.#want = null;
      w.reject(this.#ended);
    }
  }
  /** Exactly `n` bytes. */
  read(n: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.#want = { n, resolve, reject };
      this.#serve();
    });
  }
  write(b: Uint8Array): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(b, (e) => (e ? reject(e) : resolve())));
  }
  /** Stops reading and hands back the bytes read ahead (the socket is then someone else's). */
  detach(): Uint8Array {
    this.socket.off('data', this.#onData);
    this.socket.off('end', this.#onEnd);
    this.socket.pause();
    const rest = new Uint8Array(this.#buf);
    this.#buf = Buffer.alloc(0);
    return rest;
  }
}

/** Accepts `count` connections on `port` (all addresses), then closes the listening socket. */
export async function acceptN(port: number, count: number): Promise<net.Socket[]> {
  const srv = net.createServer({ allowHalfOpen: true, pauseOnConnect: true });
  srv.listen({ port });
  await once(srv, 'listening');
  const socks: net.Socket[] = [];
  while (socks.length < count) {
    const [s] = (await once(srv, 'connection')) as [net.Socket];
    socks.push(s);
  }
  srv.close();
  return socks;
}

/** Connects to `host:port` (a connected, paused socket). */
export async function connectTo(host: string, port: number): Promise<net.Socket> {
  const s = net.connect({ host, port, allowHalfOpen: true });
  s.pause();
  await once(s, 'connect');
  return s;
}

/** A TCP port that was free a moment ago (for the loopback runs). */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  s.listen({ port: 0, host: '127.0.0.1' });
  await once(s, 'listening');
  const p = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return p;
}

/**
 * Runs this program twice as child processes — the server, then (once `ready` appears in the
 * server's output) the client — and prints their output line by line prefixed with the role.
 * Resolves with the exit status (0 if both exited 0).
 */
export async function runBoth(script: string, serverArgs: string[], clientArgs: string[], ready: RegExp): Promise<number> {
  const run = (role: string, args: string[], onLine?: (l: string) => void) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const tag = `[${role}] `;
    for (const [stream, write] of [
      [child.stdout, (l: string) => process.stdout.write(`${tag}${l}\n`)],
      [child.stderr, (l: string) => process.stderr.write(`${tag}${l}\n`)],
    ] as const) {
      createInterface({ input: stream }).on('line', (l) => {
        write(l);
        onLine?.(l);
      });
    }
    return new Promise<number>((resolve) =>
      child.on('close', (code, signal) => {
        if (code !== 0) process.stderr.write(`${tag}exited with ${signal ?? `status ${code}`}\n`);
        resolve(code ?? 1);
      }),
    );
  };
  let started!: () => void;
  const isReady = new Promise<void>((r) => {
    started = r;
  });
  const server = run('server', serverArgs, (l) => {
    if (ready.test(l)) started();
  });
  // Start the client once the server is ready; if the server ends before that, there is no client.
  const startClient = await Promise.race([isReady.then(() => true), server.then(() => false)]);
  const client = startClient ? run('client', clientArgs) : Promise.resolve(1);
  const [s, c] = await Promise.all([server, client]);
  return s === 0 && c === 0 ? 0 : 1;
}

/** Minimal getopt: short options with an argument listed in `withArg`, long aliases in `long`. */
export function getopt(
  argv: readonly string[],
  withArg: string,
  flags: string,
  long: Record<string, string> = {},
): { opts: Map<string, string>; rest: string[]; bad: string | null } {
  const opts = new Map<string, string>();
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i]!;
    if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
      const short = long[name];
      if (!short) return { opts, rest, bad: a };
      a = `-${short}`;
      if (inline !== undefined) {
        opts.set(short, inline);
        continue;
      }
    }
    if (a.startsWith('-') && a.length >= 2) {
      const c = a[1]!;
      if (withArg.includes(c)) {
        const v = a.length > 2 ? a.slice(2) : argv[++i];
        if (v === undefined) return { opts, rest, bad: a };
        opts.set(c, v);
      } else if (flags.includes(c) && a.length === 2) opts.set(c, '');
      else return { opts, rest, bad: a };
    } else rest.push(a);
  }
  return { opts, rest, bad: null };
}

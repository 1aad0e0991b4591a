import net from 'node:net';
/** `printf` to stdout (the examples print whole lines, so no buffering concerns). */
export declare function out(line: string): void;
/** `fprintf(stderr, ...)`. */
export declare function err(line: string): void;
/** C's `%x` of an unsigned 32-bit value. */
export declare function hex(n: number | bigint): string;
/** Copies `text` and a NUL into `buf` at 0 (C's `strcpy`; the caller sized `buf`). */
export declare function strcpy(buf: Uint8Array, text: string): void;
/** The NUL-terminated string at the start of `buf` (C's `%s` of a char buffer). */
export declare function cstr(buf: Uint8Array): string;
/**
 * Reads exact byte counts from a TCP socket (C's blocking `read` loop), keeping what arrives
 * beyond them for the next read or for whoever takes the socket over ({@link detach}).
 */
export declare class SockReader {
    readonly socket: net.Socket;
    private buf;
    private want;
    private ended;
    private readonly onData;
    private readonly onEnd;
    constructor(socket: net.Socket);
    private serve;
    /** Exactly `n` bytes. */
    read(n: number): Promise<Buffer>;
    write(b: Uint8Array): Promise<void>;
    /** Stops reading and hands back the bytes read ahead (the socket is then someone else's). */
    detach(): Uint8Array;
}
/** Accepts `count` connections on `port` (all addresses), then closes the listening socket. */
export declare function acceptN(port: number, count: number): Promise<net.Socket[]>;
/** Connects to `host:port` (a connected, paused socket). */
export declare function connectTo(host: string, port: number): Promise<net.Socket>;
/** A TCP port that was free a moment ago (for the loopback runs). */
export declare function freePort(): Promise<number>;
/**
 * Runs this program twice as child processes — the server, then (once `ready` appears in the
 * server's output) the client — and prints their output line by line prefixed with the role.
 * Resolves with the exit status (0 if both exited 0).
 */
export declare function runBoth(script: string, serverArgs: string[], clientArgs: string[], ready: RegExp): Promise<number>;
/** Minimal getopt: short options with an argument listed in `withArg`, long aliases in `long`. */
export declare function getopt(argv: readonly string[], withArg: string, flags: string, long?: Record<string, string>): {
    opts: Map<string, string>;
    rest: string[];
    bad: string | null;
};

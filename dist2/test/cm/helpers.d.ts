import net from 'node:net';
import type { Rnic } from '../../src/rnic/rnic.js';
import { type MpaReqRep } from '../../src/wire/mpa.js';
import { type RdmapHeader } from '../../src/wire/rdmap.js';
export declare const te: (s: string) => Uint8Array;
export declare const hex: (b: Uint8Array) => string;
/**
 * Waits until the CM holds nothing (no listener, socket, timer, pending connect or request)
 * and the given RNICs have no QP left, then asserts it. Timing only bounds the wait.
 */
export declare function assertNoLeaks(rnics?: Rnic[], ms?: number): Promise<void>;
/** Destroys every QP of the RNICs (Destroy QP resets any LLP still attached). */
export declare function destroyAll(...rnics: Rnic[]): void;
/**
 * A TCP proxy that records every octet in both directions: `up` (client → target) and `down`
 * (target → client). Half-closes and resets are passed through.
 */
export declare class WireTap {
    readonly server: net.Server;
    readonly targetPort: number;
    readonly up: Buffer[];
    readonly down: Buffer[];
    private readonly socks;
    private constructor();
    static start(targetPort: number): Promise<WireTap>;
    get port(): number;
    upBytes(): Uint8Array;
    downBytes(): Uint8Array;
    private onClient;
    close(): Promise<void>;
}
/** Splits a captured stream into its streaming-mode frame and the FPDU-mode octets after it. */
export declare function splitFrame(stream: Uint8Array): {
    frame: MpaReqRep;
    raw: Uint8Array;
    rest: Uint8Array;
};
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
export declare function decodeFpdus(rest: Uint8Array, crc: boolean, markers: boolean): WireFpdu[];
/** Builds the exact octets of an MPA Request/Reply, from the RFC's layout, for comparisons. */
export declare function frameBytes(f: {
    reply: boolean;
    m: boolean;
    c: boolean;
    r?: boolean;
    s: boolean;
    rev: number;
    word?: {
        ird: number;
        ord: number;
        a?: boolean;
        b?: boolean;
        cw?: boolean;
        d?: boolean;
    } | null;
    pd: Uint8Array;
    /** softrdma's RDMAP-extension bit (the lowest reserved flag bit): set between softrdma peers. */
    x?: boolean;
}): Uint8Array;
/**
 * A raw TCP peer for scripted misbehaviour: it writes exactly the octets it is told and records
 * what it receives. Not our stack.
 */
export declare class RawSock {
    readonly sock: net.Socket;
    readonly received: Buffer[];
    closed: boolean;
    ended: boolean;
    resetSeen: boolean;
    private constructor();
    /** Connects to `host:port` (default loopback), from `localAddress` when given (any 127/8 address works unprivileged on Linux). */
    static connect(port: number, localAddress?: string, host?: string): Promise<RawSock>;
    static wrap(sock: net.Socket): RawSock;
    bytes(): Uint8Array;
    write(b: Uint8Array): void;
    waitClosed(ms?: number): Promise<void>;
    destroy(): void;
}
/** A raw TCP server that hands each accepted socket to `onConn`. */
export declare function rawServer(onConn: (s: RawSock) => void): Promise<{
    port: number;
    close(): Promise<void>;
    socks: RawSock[];
}>;

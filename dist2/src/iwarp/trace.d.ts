import type { Socket } from 'node:net';
export interface PcapTap {
    /** Bytes this side sent. */
    tx(b: Uint8Array): void;
    /** Bytes this side received. */
    rx(b: Uint8Array): void;
    close(): void;
}
/** The directory captures go to, or null when tracing is off. */
export declare function pcapDir(): string | null;
/** Returns the tap for `socket`, creating it (and its file) on first use; null when tracing is off. */
export declare function tapSocket(socket: Socket, label?: string): PcapTap | null;
/** The tap a QP's data path uses (shared with the connection manager's). */
export declare function openPcapForConn(socket: Socket, qpId: number): PcapTap | null;

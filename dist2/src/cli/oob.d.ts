import net from 'node:net';
/** `sizeof "0000:000000:000000:00000000000000000000000000000000"`. */
export declare const PP_MSG_LEN = 52;
/** `sizeof "done"`. */
export declare const PP_DONE: Uint8Array<ArrayBuffer>;
/** perftest's `KEY_MSG_SIZE_GID`. */
export declare const PERFTEST_KEYS_LEN = 108;
/** The default TCP port of both (`-p`). */
export declare const OOB_DEFAULT_PORT = 18515;
export declare class OobError extends Error {
}
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
/** `gid_to_wire_gid`: 32 hexadecimal digits, the octets in order. */
export declare function gidToWire(gid: Uint8Array): string;
/** `wire_gid_to_gid`. */
export declare function wireToGid(s: string): Uint8Array;
/** The pingpong message of one QP: 52 octets, NUL-padded. */
export declare function encodePpDest(d: PpDest): Uint8Array;
export declare function decodePpDest(b: Uint8Array): PpDest;
/** perftest's keys of one QP: 108 octets (107 characters and a NUL). */
export declare function encodePerftestKeys(k: PerftestKeys): Uint8Array;
export declare function decodePerftestKeys(b: Uint8Array): PerftestKeys;
/**
 * One side of the TCP side channel: exact-length reads (as the C programs' read loops), bounded
 * by a timeout so that a silent peer cannot hold a tool forever.
 */
export declare class OobChannel {
    readonly sock: net.Socket;
    /** How long one {@link read} may wait; 0: as long as the peer keeps the connection open. */
    timeoutMs: number;
    private buf;
    private waiter;
    private ended;
    private error;
    private constructor();
    /** The peer closed the connection, or it failed. */
    get closed(): boolean;
    private fail;
    private wake;
    /** Client: connects to the server's side channel. */
    static connect(host: string, port: number, timeoutMs?: number): Promise<OobChannel>;
    /** Server: listens and takes the first connection (the listener is closed then, as the C programs do). */
    static accept(bind: string | undefined, port: number, timeoutMs?: number, onListening?: (port: number) => void): Promise<OobChannel>;
    write(b: Uint8Array): void;
    /** Reads exactly `n` octets. */
    read(n: number): Promise<Uint8Array>;
    /** Client sends then receives; server receives then sends (`ctx_xchg_data_ethernet`). */
    xchg(client: boolean, msg: Uint8Array, n?: number): Promise<Uint8Array>;
    close(): void;
    /** Like {@link write}, but nothing is reported if the peer has already gone (a last "done"). */
    writeLast(b: Uint8Array): void;
}

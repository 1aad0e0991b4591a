/**
 * Registered memory, Node style: a {@link MemoryRegion} is an `ibv_mr` over a `Uint8Array` with
 * its access given as named flags, and a {@link RemoteBuffer} is what the peer needs to reach it
 * — `{ addr, rkey, length }`, JSON-friendly.
 *
 * Addresses are 64-bit (`bigint` in the verbs layer). In JSON a `bigint` cannot travel, so
 * `toJSON()` writes `addr` as a `0x`-prefixed hexadecimal string (lossless; `BigInt('0x…')` reads
 * it back), and {@link RemoteBuffer.from} accepts that string, a decimal string, a `bigint` or a
 * safe-integer `number`.
 */
import { type ibv_mr, type ibv_pd } from '../verbs/index.js';
/** The rights of a registration, by name (`localWrite` is on unless set to false). */
export interface Access {
    /** The local RNIC may write into it (a receive or RDMA Read target). Default true. */
    localWrite?: boolean;
    /** The peer may RDMA Read it. */
    remoteRead?: boolean;
    /** The peer may RDMA Write it. */
    remoteWrite?: boolean;
    /** The peer may run atomics on it (where the device has atomics). */
    remoteAtomic?: boolean;
}
/** `Access` → `ibv_access_flags` (remote write and atomics need local write, manual §4.4.1). */
export declare function accessFlags(a?: Access): number;
/** The JSON form of a {@link RemoteBuffer}: `addr` as a `0x…` hex string. */
export interface RemoteBufferJSON {
    addr: string;
    rkey: number;
    length: number;
}
/** Anything {@link RemoteBuffer.from} takes. */
export type RemoteBufferLike = RemoteBuffer | {
    addr: bigint | string | number;
    rkey: number;
    length: number;
};
/** A peer's registered memory: where an RDMA Write/Read/atomic goes. */
export declare class RemoteBuffer {
    readonly addr: bigint;
    readonly rkey: number;
    readonly length: number;
    constructor(addr: bigint, rkey: number, length: number);
    /** Parses the JSON form (or any `{addr, rkey, length}`); throws a TypeError on a malformed one. */
    static from(x: RemoteBufferLike): RemoteBuffer;
    /** The part `[offset, offset + length)` of this buffer (RangeError outside it). */
    slice(offset: number, length?: number): RemoteBuffer;
    toJSON(): RemoteBufferJSON;
}
/** A part of a registered region used as the local side of an operation. */
export interface LocalSlice {
    region: MemoryRegion;
    offset: number;
    length: number;
}
/**
 * A registered `Uint8Array` (`ibv_reg_mr` on the device's PD). `toJSON()` / {@link remote} give
 * what the peer needs; `mr` and `pd` are the verbs handles.
 */
export declare class MemoryRegion {
    #private;
    /** The registered bytes (the RNIC reads and writes them in place). */
    readonly buffer: Uint8Array;
    /** The verbs memory region. */
    readonly mr: ibv_mr;
    /** The verbs protection domain it is registered in. */
    readonly pd: ibv_pd;
    readonly access: Readonly<Access>;
    /** @internal Called once deregistered (the device forgets it). */
    onClose: (() => void) | null;
    constructor(
    /** The registered bytes (the RNIC reads and writes them in place). */
    buffer: Uint8Array, 
    /** The verbs memory region. */
    mr: ibv_mr, 
    /** The verbs protection domain it is registered in. */
    pd: ibv_pd, access: Readonly<Access>);
    /** @internal Registers `buffer` in `pd`; throws RdmaError with the verbs errno. */
    static register(pd: ibv_pd, buffer: Uint8Array, access?: Access): MemoryRegion;
    get addr(): bigint;
    get rkey(): number;
    get lkey(): number;
    get length(): number;
    get closed(): boolean;
    /** What the peer needs to RDMA Read/Write this region (or `[offset, offset + length)` of it). */
    remote(offset?: number, length?: number): RemoteBuffer;
    /** `[offset, offset + length)` of this region as the local side of an operation. */
    slice(offset: number, length?: number): LocalSlice;
    /** `{ addr: '0x…', rkey, length }`: send it to the peer (JSON.stringify calls this). */
    toJSON(): RemoteBufferJSON;
    /** Deregisters (`ibv_dereg_mr`); idempotent. Throws RdmaError if the verbs layer refuses. */
    close(): void;
    [Symbol.dispose](): void;
}

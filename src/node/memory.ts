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
import { ibv_access_flags, ibv_dereg_mr, ibv_reg_mr, softrdmaLastError, type ibv_mr, type ibv_pd } from '../verbs/index.js';
import { RdmaError } from './errors.js';

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
export function accessFlags(a: Access = {}): number {
  const F = ibv_access_flags;
  let f = 0;
  if (a.localWrite !== false || a.remoteWrite || a.remoteAtomic) f |= F.IBV_ACCESS_LOCAL_WRITE;
  if (a.remoteRead) f |= F.IBV_ACCESS_REMOTE_READ;
  if (a.remoteWrite) f |= F.IBV_ACCESS_REMOTE_WRITE;
  if (a.remoteAtomic) f |= F.IBV_ACCESS_REMOTE_ATOMIC;
  return f;
}

/** The JSON form of a {@link RemoteBuffer}: `addr` as a `0x…` hex string. */
export interface RemoteBufferJSON {
  addr: string;
  rkey: number;
  length: number;
}

/** Anything {@link RemoteBuffer.from} takes. */
export type RemoteBufferLike = RemoteBuffer | { addr: bigint | string | number; rkey: number; length: number };

/** A peer's registered memory: where an RDMA Write/Read/atomic goes. */
export class RemoteBuffer {
  constructor(
    readonly addr: bigint,
    readonly rkey: number,
    readonly length: number,
  ) {}

  /** Parses the JSON form (or any `{addr, rkey, length}`); throws a TypeError on a malformed one. */
  static from(x: RemoteBufferLike): RemoteBuffer {
    if (x instanceof RemoteBuffer) return x;
    if (!x || typeof x !== 'object') throw new TypeError('a remote buffer is an object { addr, rkey, length }');
    let addr: bigint;
    if (typeof x.addr === 'bigint') addr = x.addr;
    else if (typeof x.addr === 'string' && /^(0x[0-9a-f]+|[0-9]+)$/i.test(x.addr)) addr = BigInt(x.addr);
    else if (typeof x.addr === 'number' && Number.isSafeInteger(x.addr) && x.addr >= 0) addr = BigInt(x.addr);
    else throw new TypeError(`remote buffer addr must be a bigint, a "0x…" or decimal string, or a safe integer; got ${String(x.addr)}`);
    if (!Number.isInteger(x.rkey) || x.rkey < 0 || x.rkey > 0xffffffff)
      throw new TypeError(`remote buffer rkey must be a 32-bit unsigned integer; got ${String(x.rkey)}`);
    if (!Number.isSafeInteger(x.length) || x.length < 0)
      throw new TypeError(`remote buffer length must be a non-negative integer; got ${String(x.length)}`);
    return new RemoteBuffer(addr, x.rkey, x.length);
  }

  /** The part `[offset, offset + length)` of this buffer (RangeError outside it). */
  slice(offset: number, length = this.length - offset): RemoteBuffer {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > this.length) {
      throw new RangeError(`slice(${offset}, ${length}) is outside the remote buffer of ${this.length} bytes`);
    }
    return new RemoteBuffer(this.addr + BigInt(offset), this.rkey, length);
  }

  toJSON(): RemoteBufferJSON {
    return { addr: `0x${this.addr.toString(16)}`, rkey: this.rkey, length: this.length };
  }
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
export class MemoryRegion {
  #closed = false;
  /** @internal Called once deregistered (the device forgets it). */
  onClose: (() => void) | null = null;
  constructor(
    /** The registered bytes (the RNIC reads and writes them in place). */
    readonly buffer: Uint8Array,
    /** The verbs memory region. */
    readonly mr: ibv_mr,
    /** The verbs protection domain it is registered in. */
    readonly pd: ibv_pd,
    readonly access: Readonly<Access>,
  ) {}

  /** @internal Registers `buffer` in `pd`; throws RdmaError with the verbs errno. */
  static register(pd: ibv_pd, buffer: Uint8Array, access: Access = {}): MemoryRegion {
    if (!(buffer instanceof Uint8Array)) throw new TypeError('register() takes a Uint8Array (or Buffer)');
    const mr = ibv_reg_mr(pd, buffer, buffer.byteLength, accessFlags(access));
    if (!mr) {
      const e = softrdmaLastError();
      throw RdmaError.fromErrno('ibv_reg_mr', e.errno, e.message);
    }
    return new MemoryRegion(buffer, mr, pd, Object.freeze({ ...access }));
  }

  get addr(): bigint {
    return this.mr.addr;
  }
  get rkey(): number {
    return this.mr.rkey;
  }
  get lkey(): number {
    return this.mr.lkey;
  }
  get length(): number {
    return this.buffer.byteLength;
  }
  get closed(): boolean {
    return this.#closed;
  }

  /** What the peer needs to RDMA Read/Write this region (or `[offset, offset + length)` of it). */
  remote(offset = 0, length = this.length - offset): RemoteBuffer {
    return new RemoteBuffer(this.addr, this.rkey, this.length).slice(offset, length);
  }

  /** `[offset, offset + length)` of this region as the local side of an operation. */
  slice(offset: number, length = this.length - offset): LocalSlice {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > this.length) {
      throw new RangeError(`slice(${offset}, ${length}) is outside the region of ${this.length} bytes`);
    }
    return { region: this, offset, length };
  }

  /** `{ addr: '0x…', rkey, length }`: send it to the peer (JSON.stringify calls this). */
  toJSON(): RemoteBufferJSON {
    return this.remote().toJSON();
  }

  /** Deregisters (`ibv_dereg_mr`); idempotent. Throws RdmaError if the verbs layer refuses. */
  close(): void {
    if (this.#closed) return;
    const r = ibv_dereg_mr(this.mr);
    if (r !== 0) throw RdmaError.fromErrno('ibv_dereg_mr', r, softrdmaLastError().message);
    this.#closed = true;
    this.onClose?.();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

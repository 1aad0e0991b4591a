/**
 * Streaming MPA FPDU deframer (receive side of RFC 5044 §4 and §6).
 *
 * TCP hands the receiver arbitrary pieces of the byte stream. {@link FpduDeframer.push} accepts
 * them one at a time (1 octet to megabytes), keeps the partial FPDU between calls and calls
 * `onFpdu` once for every complete FPDU, after checking ULPDU_LENGTH against the negotiated
 * maximum and, when CRCs are on, the CRC (RFC 5044 §4.4); with Markers on it removes them and
 * checks each FPDUPTR (RFC 5044 §4.3).
 *
 * Zero copy: the FPDU handed to `onFpdu` describes its ULPDU (the DDP segment: DDP/RDMAP headers
 * and payload, without ULPDU_LENGTH, PAD, CRC or Markers) as views into the pushed chunks. The
 * views and the `Fpdu` object are reused and only valid during the callback. Because an FPDU can
 * span several chunks, the deframer keeps references to chunks until the FPDUs using them are
 * delivered: a caller must not overwrite a chunk it has pushed until then (socket `data`
 * buffers are never reused, so the normal path needs no copy).
 *
 * Errors are {@link TerminateError}s: a bad CRC is LLP/MPA/CRC error (0x02), an ULPDU_LENGTH
 * above `maxUlpdu` or a Marker whose FPDUPTR does not point at the current FPDU is LLP/MPA/
 * "Marker and ULPDU Length field mismatch" (0x03): framing is lost and RFC 5044 §8 requires the
 * stream to be torn down. After an error the deframer ignores further input.
 *
 * @packageDocumentation
 */
import { crc32c } from './crc32c.js';
import { MpaEcode, TerminateError } from './errors.js';
import { MPA_CRC_LEN, MPA_HDR_LEN, MPA_MARKER_INTERVAL, MPA_MARKER_LEN, MPA_MAX_ULPDU } from './mpa.js';

/** One complete FPDU as delivered to `onFpdu`. Reused: valid only during the callback. */
/** An empty view: the placeholder of the one-segment list between FPDUs. */
const NO_OCTETS = new Uint8Array(0);

export interface Fpdu {
  /** ULPDU_LENGTH: octets of ULPDU. */
  length: number;
  /** The ULPDU as zero-copy views into the pushed chunks, in order (empty for length 0). */
  segments: Uint8Array[];
  /** Stream offset of the FPDU's first octet (its leading Marker, if it has one). */
  streamOffset: number;
}

/** Options of {@link FpduDeframer}. */
export interface DeframerOptions {
  /** Largest acceptable ULPDU_LENGTH (the negotiated MULPDU, at most 65535). */
  maxUlpdu: number;
  /** CRCs negotiated: check them (when off, the CRC field is skipped unchecked). */
  crc: boolean;
  /** The peer inserts Markers in this direction. */
  markers: boolean;
  /**
   * Stream offset of the first octet pushed, in the Marker grid's coordinates: 0 for the first
   * octet after the peer's MPA Request/Reply frame (RFC 5044 §4.3). Multiple of 4. Default 0.
   */
  streamOffset?: number;
  /** Called once per complete FPDU. */
  onFpdu: (fpdu: Fpdu) => void;
  /** Called once on the first error; without it `push` throws the error. */
  onError?: (err: TerminateError) => void;
}

const ST_LEN = 0;
const ST_BODY = 1;
const ST_PAD = 2;
const ST_CRC = 3;

/** Streaming FPDU deframer; see the module documentation. */
export class FpduDeframer {
  readonly #maxUlpdu: number;
  readonly #crcOn: boolean;
  readonly #markers: boolean;
  readonly #onFpdu: (fpdu: Fpdu) => void;
  readonly #onError: ((err: TerminateError) => void) | undefined;

  #state = ST_LEN;
  /** Stream offset of the next octet. */
  #pos: number;
  /** Stream offset of the next Marker (Infinity with Markers off). */
  #nextMarker: number;
  /** Octets of the current Marker consumed (0 when not inside one). */
  #markerGot = 0;
  #markerPtr = 0;
  /** Whether the current FPDU has begun (its first octet, Marker or header, was consumed). */
  #started = false;
  #fpduStart = 0;
  /** Stream offset of the current FPDU's ULPDU_LENGTH field (FPDUPTR reference). */
  #hdrPos = 0;
  #hdrGot = 0;
  #len = 0;
  /** Octets left in the current BODY, PAD or CRC field. */
  #rem = 0;
  #crc = 0;
  #crcField = 0;
  readonly #segs: Uint8Array[] = [];
  /**
   * The segment list of an FPDU that lies whole in one chunk (the fast path). Its length never
   * changes: emptying an array (`length = 0`) drops its storage, and the next push would
   * allocate sixteen slots again, once per FPDU.
   */
  readonly #one: Uint8Array[] = [NO_OCTETS];
  readonly #fpdu: Fpdu;
  #error: TerminateError | undefined;

  constructor(opts: DeframerOptions) {
    if (!Number.isInteger(opts.maxUlpdu) || opts.maxUlpdu < 0 || opts.maxUlpdu > MPA_MAX_ULPDU) {
      throw new RangeError(`maxUlpdu ${opts.maxUlpdu} must be an integer in 0..65535`);
    }
    const off = opts.streamOffset ?? 0;
    if (!Number.isSafeInteger(off) || off < 0 || (opts.markers && off % 4 !== 0)) {
      throw new RangeError(`streamOffset ${off} must be a non-negative integer (a multiple of 4 with Markers)`);
    }
    this.#maxUlpdu = opts.maxUlpdu;
    this.#crcOn = opts.crc;
    this.#markers = opts.markers;
    this.#onFpdu = opts.onFpdu;
    this.#onError = opts.onError;
    this.#pos = off;
    this.#nextMarker = opts.markers ? Math.ceil(off / MPA_MARKER_INTERVAL) * MPA_MARKER_INTERVAL : Number.POSITIVE_INFINITY;
    this.#fpdu = { length: 0, segments: this.#segs, streamOffset: 0 };
  }

  /** Stream offset of the next octet expected. */
  get streamOffset(): number {
    return this.#pos;
  }

  /** The error that stopped the deframer, if any. */
  get error(): TerminateError | undefined {
    return this.#error;
  }

  /** True between FPDUs (no partial FPDU is held). */
  get idle(): boolean {
    return !this.#started && this.#markerGot === 0;
  }

  #fail(err: TerminateError): void {
    this.#error = err;
    this.#segs.length = 0;
    if (this.#onError) this.#onError(err);
    else throw err;
  }

  #deliver(): void {
    const f = this.#fpdu;
    f.length = this.#len;
    f.streamOffset = this.#fpduStart;
    this.#state = ST_LEN;
    this.#hdrGot = 0;
    this.#started = false;
    try {
      this.#onFpdu(f);
    } finally {
      if (f.segments === this.#one) {
        this.#one[0] = NO_OCTETS;
        f.segments = this.#segs;
      } else if (this.#segs.length > 0) this.#segs.length = 0;
    }
  }

  /** Feeds the next piece of the TCP stream. */
  push(chunk: Uint8Array): void {
    if (this.#error) return;
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      // Fast path: a whole Marker-free FPDU inside this chunk, one CRC call over header+ULPDU+PAD.
      if (!this.#markers && this.#state === ST_LEN && this.#hdrGot === 0 && n - i >= MPA_HDR_LEN) {
        const len = (chunk[i]! << 8) | chunk[i + 1]!;
        if (len > this.#maxUlpdu) {
          this.#tooLong(len);
          return;
        }
        const crcAt = i + MPA_HDR_LEN + len + (-(len + MPA_HDR_LEN) & 3);
        if (crcAt + MPA_CRC_LEN <= n) {
          if (this.#crcOn) {
            const want = crc32c(chunk.subarray(i, crcAt));
            const got = (chunk[crcAt]! | (chunk[crcAt + 1]! << 8) | (chunk[crcAt + 2]! << 16) | (chunk[crcAt + 3]! << 24)) >>> 0;
            if (want !== got) {
              this.#badCrc(got, want);
              return;
            }
          }
          if (len) {
            this.#one[0] = chunk.subarray(i + MPA_HDR_LEN, i + MPA_HDR_LEN + len);
            this.#fpdu.segments = this.#one;
          }
          this.#len = len;
          this.#fpduStart = this.#pos;
          this.#hdrPos = this.#pos;
          const total = crcAt + MPA_CRC_LEN - i;
          this.#pos += total;
          i += total;
          this.#deliver();
          continue;
        }
      }
      i = this.#step(chunk, i, n);
      if (this.#error) return;
    }
  }

  #tooLong(len: number): void {
    this.#fail(TerminateError.mpa(MpaEcode.MarkerMismatch, `ULPDU_LENGTH ${len} exceeds the maximum ${this.#maxUlpdu}`));
  }

  #badCrc(got: number, want: number): void {
    this.#fail(TerminateError.mpa(MpaEcode.CrcError, `FPDU CRC 0x${got.toString(16)} != computed 0x${want.toString(16)}`));
  }

  /** General path: consumes one run of octets of the same kind; returns the new index. */
  #step(chunk: Uint8Array, i: number, n: number): number {
    // Inside a Marker, or at a Marker position.
    if (this.#markerGot > 0 || this.#pos === this.#nextMarker) {
      if (this.#markerGot === 0) {
        this.#markerPtr = 0;
        // RFC 5044 §4.3: a Marker at an FPDU boundary precedes (and belongs to) the next FPDU.
        if (!this.#started) this.#begin();
      }
      const take = Math.min(MPA_MARKER_LEN - this.#markerGot, n - i);
      for (let k = 0; k < take; k++) {
        // Octets 0–1 are reserved (not checked), 2–3 the big-endian FPDUPTR.
        if (this.#markerGot + k >= 2) this.#markerPtr = (this.#markerPtr << 8) | chunk[i + k]!;
      }
      // RFC 5044 §4.4: Markers inside an FPDU are covered by its CRC.
      if (this.#crcOn) this.#crc = crc32c(chunk.subarray(i, i + take), this.#crc);
      this.#markerGot += take;
      this.#pos += take;
      if (this.#markerGot === MPA_MARKER_LEN) {
        const markerAt = this.#pos - MPA_MARKER_LEN;
        const leading = this.#state === ST_LEN && this.#hdrGot === 0;
        const expect = leading ? 0 : (markerAt - this.#hdrPos) & 0xffff;
        this.#markerGot = 0;
        this.#nextMarker += MPA_MARKER_INTERVAL;
        if (this.#markerPtr !== expect) {
          this.#fail(
            TerminateError.mpa(
              MpaEcode.MarkerMismatch,
              `Marker at stream offset ${markerAt} has FPDUPTR ${this.#markerPtr}, expected ${expect}`,
            ),
          );
        }
      }
      return i + take;
    }
    const limit = Math.min(n - i, this.#nextMarker - this.#pos);
    let take: number;
    switch (this.#state) {
      case ST_LEN: {
        if (!this.#started) this.#begin();
        if (this.#hdrGot === 0) {
          this.#hdrPos = this.#pos;
          this.#len = 0;
        }
        take = Math.min(MPA_HDR_LEN - this.#hdrGot, limit);
        for (let k = 0; k < take; k++) this.#len = (this.#len << 8) | chunk[i + k]!;
        if (this.#crcOn) this.#crc = crc32c(chunk.subarray(i, i + take), this.#crc);
        this.#hdrGot += take;
        if (this.#hdrGot === MPA_HDR_LEN) {
          if (this.#len > this.#maxUlpdu) {
            this.#tooLong(this.#len);
            return i + take;
          }
          this.#state = ST_BODY;
          this.#rem = this.#len;
          if (this.#rem === 0) this.#endBody();
        }
        break;
      }
      case ST_BODY:
        take = Math.min(this.#rem, limit);
        this.#segs.push(chunk.subarray(i, i + take));
        if (this.#crcOn) this.#crc = crc32c(chunk.subarray(i, i + take), this.#crc);
        this.#rem -= take;
        if (this.#rem === 0) this.#endBody();
        break;
      case ST_PAD:
        take = Math.min(this.#rem, limit);
        if (this.#crcOn) this.#crc = crc32c(chunk.subarray(i, i + take), this.#crc);
        this.#rem -= take;
        if (this.#rem === 0) this.#startCrc();
        break;
      default: {
        take = Math.min(this.#rem, limit);
        for (let k = 0; k < take; k++) {
          // Little-endian on the wire (see writeMpaCrc): octet j holds bits 8j..8j+7.
          this.#crcField += chunk[i + k]! * 2 ** (8 * (MPA_CRC_LEN - this.#rem + k));
        }
        this.#rem -= take;
        this.#pos += take;
        if (this.#rem === 0) {
          if (this.#crcOn && this.#crcField !== this.#crc >>> 0) {
            this.#badCrc(this.#crcField, this.#crc >>> 0);
            return i + take;
          }
          this.#deliver();
        }
        return i + take;
      }
    }
    this.#pos += take;
    return i + take;
  }

  #begin(): void {
    this.#started = true;
    this.#fpduStart = this.#pos;
    this.#crc = 0;
  }

  #endBody(): void {
    this.#rem = -(this.#len + MPA_HDR_LEN) & 3;
    this.#state = ST_PAD;
    if (this.#rem === 0) this.#startCrc();
  }

  #startCrc(): void {
    this.#state = ST_CRC;
    this.#rem = MPA_CRC_LEN;
    this.#crcField = 0;
  }
}

/**
 * Returns a buffer whose first `n` octets are the ULPDU's first `n` octets (capped at its
 * length), for parsing headers that may straddle chunk boundaries: the first segment itself
 * when it already holds them (no copy), else `scratch` after copying into it.
 */
export function copyUlpduPrefix(f: Fpdu, n: number, scratch: Uint8Array): Uint8Array {
  const want = Math.min(n, f.length);
  const s0 = f.segments[0];
  if (s0 !== undefined && s0.length >= want) return s0;
  if (scratch.length < want) throw new RangeError(`scratch of ${scratch.length} octets cannot hold ${want}`);
  copyUlpdu(f, scratch, 0, 0, want);
  return scratch;
}

/**
 * Copies ULPDU octets `[srcOffset, srcOffset+length)` into `dst` at `dstOffset` (e.g. tagged
 * payload straight into a registered region). Returns the number of octets copied.
 */
export function copyUlpdu(f: Fpdu, dst: Uint8Array, dstOffset = 0, srcOffset = 0, length = f.length - srcOffset): number {
  if (srcOffset < 0 || length < 0 || srcOffset + length > f.length) throw new RangeError('range outside the ULPDU');
  if (dstOffset < 0 || dstOffset + length > dst.length) throw new RangeError('destination too small');
  let skip = srcOffset;
  let left = length;
  let o = dstOffset;
  for (const s of f.segments) {
    if (left === 0) break;
    if (skip >= s.length) {
      skip -= s.length;
      continue;
    }
    const take = Math.min(s.length - skip, left);
    if (take <= 32) {
      // Small runs (headers): a loop is cheaper than creating a view for set().
      for (let k = 0; k < take; k++) dst[o + k] = s[skip + k]!;
    } else {
      dst.set(skip === 0 && take === s.length ? s : s.subarray(skip, skip + take), o);
    }
    o += take;
    left -= take;
    skip = 0;
  }
  return length;
}

/** e.g. `FPDU len=1518 at=4096 segs=2`, for logs. */
export function stringifyFpdu(f: Fpdu): string {
  return `FPDU len=${f.length} at=${f.streamOffset} segs=${f.segments.length}`;
}

/** The whole ULPDU as one new buffer (tests and tools; the data path uses the segments). */
export function concatUlpdu(f: Fpdu): Uint8Array {
  const out = new Uint8Array(f.length);
  copyUlpdu(f, out);
  return out;
}

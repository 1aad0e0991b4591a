/**
 * The synthetic host address space.
 *
 * A software RNIC has no MMU to ask, so softrdma gives every host buffer that a consumer
 * exposes a place in a synthetic 64-bit virtual address space. Registration then works in
 * addresses, exactly as the verbs describe (RDMA Protocol Verbs §7.6, RNICPI §5.8
 * `ri_mr_reg` takes a `va`), and a `(TO, STag)` pair that a remote peer receives means the
 * same thing it would mean for a C peer: the TO of a VA-based region is an address.
 *
 * A second, "physical" view of the same memory serves the privileged paths: `ri_mem_map`
 * turns a pinned virtual range into physical buffer entries, and `ri_mr_reg_phys` and the
 * Fast-Register WR take page or block lists of such addresses (RDMA Protocol Verbs §7.6,
 * RNICPI §3.6/§5.10). Physical addresses are the virtual ones moved to a separate base, so a
 * buffer is physically contiguous and its pages are aligned as its virtual pages are.
 *
 * Pinning is reference counted per exact range (RNICPI §3.6: "unpin range = pin range").
 *
 * Memory is given back. The address space holds a buffer *strongly* only while some pin
 * (a registration, `ri_mem_pin`) covers part of it; otherwise it holds it weakly, as a C
 * process's page tables do not keep `malloc`ed memory alive after `free`. While the consumer
 * still holds the buffer its address stays the same (a view placed again resolves to the
 * same address); once the garbage collector has taken it, its place is removed and the
 * address range is reused for later buffers, as freed address space is in a C process.
 */

/** Page size of the synthetic address space (one of `mem_page_sizes_bit_mask`). */
export const HOST_PAGE_SIZE = 4096;
/** Base of the synthetic virtual space: looks like a user-space address on x86-64. */
export const VA_BASE = 0x7f00_0000_0000n;
/** Base of the synthetic physical space. */
export const PA_BASE = 0x0000_1000_0000n;
/** Size of each address window; above it an address is not ours. */
const SPACE_SIZE = 0x00ff_0000_0000n;

/** One consumer buffer placed in the address space. */
export class HostRegion {
  /** First virtual address of the buffer. */
  readonly va: bigint;
  /** Pin reference counts keyed by `"offset:length"`. */
  readonly pins = new Map<string, number>();
  /** The buffer while a pin holds it; null when only the consumer does. */
  #strong: ArrayBufferLike | null = null;
  readonly #weak: WeakRef<ArrayBufferLike>;
  /** Octets of address space taken, guard page included. */
  readonly span: number;
  constructor(
    /** First virtual address as a number (all synthetic addresses are below 2^53). */
    readonly vaNum: number,
    buffer: ArrayBufferLike,
    /** Length of the buffer in octets. */
    readonly length: number,
    span: number,
  ) {
    this.va = BigInt(vaNum);
    this.#weak = new WeakRef(buffer);
    this.span = span;
  }
  /** The backing buffer, or undefined once the garbage collector took it. */
  buffer(): ArrayBufferLike | undefined {
    return this.#strong ?? this.#weak.deref();
  }
  /**
   * The region's octets (the whole backing buffer). Only called on a region that {@link
   * HostMemory.resolve} just returned, which holds the buffer for the current job.
   */
  get bytes(): Uint8Array {
    const b = this.buffer();
    return b ? new Uint8Array(b, 0, this.length) : new Uint8Array(0);
  }
  /** True while a pin holds the buffer strongly. */
  get pinned(): boolean {
    return this.#strong !== null;
  }
  /** @internal Hold strongly (some pin) or weakly (no pin). */
  hold(strong: boolean): void {
    this.#strong = strong ? (this.#weak.deref() ?? null) : null;
  }
}

/** A resolved address: a view of `length` bytes starting at the address. */
export interface Resolved {
  readonly region: HostRegion;
  readonly offset: number;
}

/** What the address space holds (for tests, the soak and diagnostics). */
export interface HostMemoryStats {
  /** Buffers placed (consumer-held or pinned). */
  regions: number;
  /** Buffers held strongly because a pin covers them. */
  pinnedRegions: number;
  /** Octets of those buffers. */
  pinnedBytes: number;
  /** Pinned ranges, counted with their reference counts. */
  pins: number;
  /** Address ranges freed and available for reuse. */
  freeRanges: number;
}

const vaBaseNum = Number(VA_BASE);
const paBaseNum = Number(PA_BASE);
const vaEndNum = Number(VA_BASE + SPACE_SIZE);

/**
 * Places buffers in the synthetic address space and resolves addresses back to bytes.
 * One instance per process: addresses are meaningful across every RNIC of the process,
 * as host virtual addresses are.
 */
export class HostMemory {
  /** Regions sorted by `vaNum`. */
  readonly #regions: HostRegion[] = [];
  readonly #byBuffer = new WeakMap<ArrayBufferLike, HostRegion>();
  /** Freed address ranges `[start, start+span)`, sorted by start, never adjacent. */
  readonly #free: { start: number; span: number }[] = [];
  #next = vaBaseNum;
  /** Removes a region once the garbage collector has taken its buffer. */
  readonly #reaper = new FinalizationRegistry<HostRegion>((r) => this.#unplace(r));

  /**
   * Returns the virtual address of `bytes[0]`, placing the buffer in the address space
   * on first use. A view into an already placed buffer resolves inside that buffer's
   * region, so two views of one ArrayBuffer get consistent addresses.
   */
  addressOf(bytes: Uint8Array): bigint {
    let region = this.#byBuffer.get(bytes.buffer);
    if (!region) {
      // Place the whole backing ArrayBuffer, so that any later view of it resolves too.
      region = this.#place(bytes.buffer);
      this.#byBuffer.set(bytes.buffer, region);
    }
    return region.va + BigInt(bytes.byteOffset);
  }

  #place(buffer: ArrayBufferLike): HostRegion {
    const length = buffer.byteLength;
    // One guard page after each region, so an off-by-one never lands in a neighbour.
    const span = Math.max(HOST_PAGE_SIZE, Math.ceil(length / HOST_PAGE_SIZE) * HOST_PAGE_SIZE) + HOST_PAGE_SIZE;
    let vaNum = -1;
    for (let i = 0; i < this.#free.length; i++) {
      const f = this.#free[i]!;
      if (f.span < span) continue;
      vaNum = f.start;
      if (f.span === span) this.#free.splice(i, 1);
      else {
        f.start += span;
        f.span -= span;
      }
      break;
    }
    if (vaNum < 0) {
      if (this.#next + span > vaEndNum) throw new RangeError('synthetic address space exhausted');
      vaNum = this.#next;
      this.#next += span;
    }
    const region = new HostRegion(vaNum, buffer, length, span);
    this.#regions.splice(this.#indexAfter(vaNum), 0, region);
    this.#reaper.register(buffer, region);
    return region;
  }

  /** Index of the first region whose address is above `vaNum`. */
  #indexAfter(vaNum: number): number {
    const rs = this.#regions;
    let lo = 0;
    let hi = rs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (rs[mid]!.vaNum <= vaNum) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The buffer of `r` was collected: its place and address range are given back. */
  #unplace(r: HostRegion): void {
    const i = this.#indexAfter(r.vaNum) - 1;
    if (this.#regions[i] !== r) return;
    this.#regions.splice(i, 1);
    if (r.vaNum + r.span === this.#next) {
      this.#next = r.vaNum;
      // The range below may be free too.
      const last = this.#free[this.#free.length - 1];
      if (last && last.start + last.span === this.#next) {
        this.#next = last.start;
        this.#free.pop();
      }
      return;
    }
    const f = this.#free;
    let k = 0;
    while (k < f.length && f[k]!.start < r.vaNum) k++;
    const prev = f[k - 1];
    const nextF = f[k];
    if (prev && prev.start + prev.span === r.vaNum) {
      prev.span += r.span;
      if (nextF && prev.start + prev.span === nextF.start) {
        prev.span += nextF.span;
        f.splice(k, 1);
      }
    } else if (nextF && r.vaNum + r.span === nextF.start) {
      nextF.start = r.vaNum;
      nextF.span += r.span;
    } else f.splice(k, 0, { start: r.vaNum, span: r.span });
  }

  /** Finds the region holding `[va, va+length)`; null if the range is not wholly inside one. */
  resolve(va: bigint, length: number): Resolved | null {
    if (va < VA_BASE || va >= VA_BASE + SPACE_SIZE) return null;
    return this.#lookup(Number(va), length);
  }

  /** Like {@link resolve} for a physical address. */
  resolvePhys(pa: bigint, length: number): Resolved | null {
    if (pa < PA_BASE || pa >= PA_BASE + SPACE_SIZE) return null;
    return this.#lookup(Number(pa) - paBaseNum + vaBaseNum, length);
  }

  #lookup(vaNum: number, length: number): Resolved | null {
    if (length < 0) return null;
    const i = this.#indexAfter(vaNum) - 1;
    const r = this.#regions[i];
    if (!r || vaNum >= r.vaNum + Math.max(r.length, 1)) return null;
    const offset = vaNum - r.vaNum;
    if (offset + length > r.length) return null;
    // A buffer the collector took is no longer memory (its finalizer has not run yet).
    if (!r.buffer()) return null;
    return { region: r, offset };
  }

  /** The physical address of a virtual one (identity shift; see the module comment). */
  physOf(va: bigint): bigint {
    return va - VA_BASE + PA_BASE;
  }

  /** Pins `[va, va+length)`. Returns false if the range is not host memory. */
  pin(va: bigint, length: number): boolean {
    const r = this.resolve(va, length);
    if (!r) return false;
    const key = `${r.offset}:${length}`;
    r.region.pins.set(key, (r.region.pins.get(key) ?? 0) + 1);
    if (!r.region.pinned) r.region.hold(true);
    return true;
  }

  /**
   * Unpins a range pinned before with exactly the same bounds. When no pin is left the
   * buffer is held only weakly again: deregistration gives the memory back.
   */
  unpin(va: bigint, length: number): boolean {
    const r = this.resolve(va, length);
    if (!r) return false;
    const key = `${r.offset}:${length}`;
    const n = r.region.pins.get(key);
    if (!n) return false;
    if (n === 1) r.region.pins.delete(key);
    else r.region.pins.set(key, n - 1);
    if (r.region.pins.size === 0) r.region.hold(false);
    return true;
  }

  /** True if some pin covers every byte of `[va, va+length)`. */
  isPinned(va: bigint, length: number): boolean {
    const r = this.resolve(va, length);
    if (!r) return false;
    for (const key of r.region.pins.keys()) {
      const [o, l] = key.split(':').map(Number) as [number, number];
      if (o <= r.offset && r.offset + length <= o + l) return true;
    }
    return false;
  }

  /** What the address space holds now. */
  stats(): HostMemoryStats {
    let pinnedRegions = 0;
    let pinnedBytes = 0;
    let pins = 0;
    for (const r of this.#regions) {
      if (!r.pinned) continue;
      pinnedRegions++;
      pinnedBytes += r.length;
      for (const n of r.pins.values()) pins += n;
    }
    return { regions: this.#regions.length, pinnedRegions, pinnedBytes, pins, freeRanges: this.#free.length };
  }
}

/** The process-wide address space. */
export const hostMemory = new HostMemory();

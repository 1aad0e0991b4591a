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
export interface HostRegion {
  /** First virtual address of the buffer. */
  readonly va: bigint;
  /** First virtual address as a number (all synthetic addresses are below 2^53). */
  readonly vaNum: number;
  readonly bytes: Uint8Array;
  /** Pin reference counts keyed by `"offset:length"`. */
  readonly pins: Map<string, number>;
}

/** A resolved address: a view of `length` bytes starting at the address. */
export interface Resolved {
  readonly region: HostRegion;
  readonly offset: number;
}

const vaBaseNum = Number(VA_BASE);
const paBaseNum = Number(PA_BASE);

/**
 * Places buffers in the synthetic address space and resolves addresses back to bytes.
 * One instance per process: addresses are meaningful across every RNIC of the process,
 * as host virtual addresses are.
 */
export class HostMemory {
  /** Regions sorted by `vaNum`. */
  private readonly regions: HostRegion[] = [];
  private readonly byBuffer = new WeakMap<ArrayBufferLike, { off: number; region: HostRegion }[]>();
  private next = vaBaseNum;

  /**
   * Returns the virtual address of `bytes[0]`, placing the buffer in the address space
   * on first use. A view into an already placed buffer resolves inside that buffer's
   * region, so two views of one ArrayBuffer get consistent addresses.
   */
  addressOf(bytes: Uint8Array): bigint {
    const known = this.byBuffer.get(bytes.buffer);
    if (known) {
      for (const k of known) {
        const start = k.off;
        const end = start + k.region.bytes.length;
        if (bytes.byteOffset >= start && bytes.byteOffset + bytes.length <= end) {
          return k.region.va + BigInt(bytes.byteOffset - start);
        }
      }
    }
    // Place the whole backing ArrayBuffer, so that any later view of it resolves too.
    const whole = new Uint8Array(bytes.buffer, 0, bytes.buffer.byteLength);
    const region = this.place(whole);
    const list = known ?? [];
    list.push({ off: 0, region });
    if (!known) this.byBuffer.set(bytes.buffer, list);
    return region.va + BigInt(bytes.byteOffset);
  }

  private place(bytes: Uint8Array): HostRegion {
    const vaNum = this.next;
    const span = Math.max(HOST_PAGE_SIZE, Math.ceil(bytes.length / HOST_PAGE_SIZE) * HOST_PAGE_SIZE);
    // One guard page between regions, so an off-by-one never lands in a neighbour.
    this.next += span + HOST_PAGE_SIZE;
    if (BigInt(this.next) - VA_BASE > SPACE_SIZE) throw new RangeError('synthetic address space exhausted');
    const region: HostRegion = { va: BigInt(vaNum), vaNum, bytes, pins: new Map() };
    this.regions.push(region);
    return region;
  }

  /** Finds the region holding `[va, va+length)`; null if the range is not wholly inside one. */
  resolve(va: bigint, length: number): Resolved | null {
    if (va < VA_BASE || va >= VA_BASE + SPACE_SIZE) return null;
    return this.lookup(Number(va), length);
  }

  /** Like {@link resolve} for a physical address. */
  resolvePhys(pa: bigint, length: number): Resolved | null {
    if (pa < PA_BASE || pa >= PA_BASE + SPACE_SIZE) return null;
    return this.lookup(Number(pa) - paBaseNum + vaBaseNum, length);
  }

  private lookup(vaNum: number, length: number): Resolved | null {
    if (length < 0) return null;
    const rs = this.regions;
    let lo = 0;
    let hi = rs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const r = rs[mid]!;
      if (vaNum < r.vaNum) hi = mid - 1;
      else if (vaNum >= r.vaNum + Math.max(r.bytes.length, 1)) lo = mid + 1;
      else {
        const offset = vaNum - r.vaNum;
        if (offset + length > r.bytes.length) return null;
        return { region: r, offset };
      }
    }
    return null;
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
    return true;
  }

  /** Unpins a range pinned before with exactly the same bounds. */
  unpin(va: bigint, length: number): boolean {
    const r = this.resolve(va, length);
    if (!r) return false;
    const key = `${r.offset}:${length}`;
    const n = r.region.pins.get(key);
    if (!n) return false;
    if (n === 1) r.region.pins.delete(key);
    else r.region.pins.set(key, n - 1);
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
}

/** The process-wide address space. */
export const hostMemory = new HostMemory();

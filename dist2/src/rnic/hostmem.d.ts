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
export declare const HOST_PAGE_SIZE = 4096;
/** Base of the synthetic virtual space: looks like a user-space address on x86-64. */
export declare const VA_BASE = 139637976727552n;
/** Base of the synthetic physical space. */
export declare const PA_BASE = 268435456n;
/** One consumer buffer placed in the address space. */
export declare class HostRegion {
    /** First virtual address as a number (all synthetic addresses are below 2^53). */
    readonly vaNum: number;
    /** Length of the buffer in octets. */
    readonly length: number;
    /** First virtual address of the buffer. */
    readonly va: bigint;
    /** Pin reference counts keyed by `"offset:length"`. */
    readonly pins: Map<string, number>;
    /** The buffer while a pin holds it; null when only the consumer does. */
    private strong;
    private readonly weak;
    /** Octets of address space taken, guard page included. */
    readonly span: number;
    constructor(
    /** First virtual address as a number (all synthetic addresses are below 2^53). */
    vaNum: number, buffer: ArrayBufferLike, 
    /** Length of the buffer in octets. */
    length: number, span: number);
    /** The backing buffer, or undefined once the garbage collector took it. */
    buffer(): ArrayBufferLike | undefined;
    /**
     * The region's octets (the whole backing buffer). Only called on a region that {@link
     * HostMemory.resolve} just returned, which holds the buffer for the current job.
     */
    get bytes(): Uint8Array;
    /** True while a pin holds the buffer strongly. */
    get pinned(): boolean;
    /** @internal Hold strongly (some pin) or weakly (no pin). */
    hold(strong: boolean): void;
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
/**
 * Places buffers in the synthetic address space and resolves addresses back to bytes.
 * One instance per process: addresses are meaningful across every RNIC of the process,
 * as host virtual addresses are.
 */
export declare class HostMemory {
    /** Regions sorted by `vaNum`. */
    private readonly regions;
    private readonly byBuffer;
    /** Freed address ranges `[start, start+span)`, sorted by start, never adjacent. */
    private readonly free;
    private next;
    /** Removes a region once the garbage collector has taken its buffer. */
    private readonly reaper;
    /**
     * Returns the virtual address of `bytes[0]`, placing the buffer in the address space
     * on first use. A view into an already placed buffer resolves inside that buffer's
     * region, so two views of one ArrayBuffer get consistent addresses.
     */
    addressOf(bytes: Uint8Array): bigint;
    private place;
    /** Index of the first region whose address is above `vaNum`. */
    private indexAfter;
    /** The buffer of `r` was collected: its place and address range are given back. */
    private unplace;
    /** Finds the region holding `[va, va+length)`; null if the range is not wholly inside one. */
    resolve(va: bigint, length: number): Resolved | null;
    /** Like {@link resolve} for a physical address. */
    resolvePhys(pa: bigint, length: number): Resolved | null;
    private lookup;
    /** The physical address of a virtual one (identity shift; see the module comment). */
    physOf(va: bigint): bigint;
    /** Pins `[va, va+length)`. Returns false if the range is not host memory. */
    pin(va: bigint, length: number): boolean;
    /**
     * Unpins a range pinned before with exactly the same bounds. When no pin is left the
     * buffer is held only weakly again: deregistration gives the memory back.
     */
    unpin(va: bigint, length: number): boolean;
    /** True if some pin covers every byte of `[va, va+length)`. */
    isPinned(va: bigint, length: number): boolean;
    /** What the address space holds now. */
    stats(): HostMemoryStats;
}
/** The process-wide address space. */
export declare const hostMemory: HostMemory;

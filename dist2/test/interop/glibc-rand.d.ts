/**
 * glibc's `rand()` (the TYPE_3 additive feedback generator behind `srand`/`rand`, degree 31,
 * separation 3), so that a test can regenerate what a C program filled its buffer with:
 * perftest fills its data buffer with `(char)rand()` after `srand(time(NULL))`, and knowing the
 * seed (the guest's clock, to the second) tells every octet the peer sent or holds.
 *
 * The recurrence: r[0] = seed; r[i] = 16807·r[i−1] mod (2^31 − 1) for i < 31; r[i] = r[i−31]
 * for 31 ≤ i < 34; r[i] = r[i−31] + r[i−3] (mod 2^32) after; the k-th output is r[k+344] >> 1.
 */
/** `n` low octets of glibc's `rand()` outputs after `srand(seed)`, from output `skip` on. */
export declare function glibcRandBytes(seed: number, n: number, skip?: number): Uint8Array;
/** The first `rand()` output values after `srand(seed)` (for checking the generator). */
export declare function glibcRand(seed: number, count: number): number[];
/**
 * The seed in [from, to] whose `(char)rand()` stream, from output `skip` on, starts with the
 * first 32 octets of `data` and then matches all of it; null if none does.
 */
export declare function findGlibcSeed(data: Uint8Array, from: number, to: number, skip?: number): number | null;

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
export function glibcRandBytes(seed, n, skip = 0) {
    const r = new Int32Array(34);
    r[0] = seed === 0 ? 1 : seed | 0;
    for (let i = 1; i < 31; i++) {
        // 16807 · r[i−1] mod (2^31 − 1) by Schrage's method, as glibc computes it.
        const w = r[i - 1];
        const hi = Math.trunc(w / 127773);
        const lo = w % 127773;
        let v = 16807 * lo - 2836 * hi;
        if (v < 0)
            v += 2147483647;
        r[i] = v;
    }
    for (let i = 31; i < 34; i++)
        r[i] = r[i - 31];
    // A ring of the last 34 values; index k holds r[k] mod 34.
    const ring = new Int32Array(34);
    ring.set(r);
    const out = new Uint8Array(n);
    let k = 34;
    const first = 344 + skip;
    const end = first + n;
    for (; k < end; k++) {
        const v = (ring[(k - 31) % 34] + ring[(k - 3) % 34]) | 0;
        ring[k % 34] = v;
        if (k >= first)
            out[k - first] = (v >>> 1) & 0xff;
    }
    return out;
}
/** The first `rand()` output values after `srand(seed)` (for checking the generator). */
export function glibcRand(seed, count) {
    const r = [];
    const ring = new Int32Array(34);
    ring[0] = seed === 0 ? 1 : seed | 0;
    for (let i = 1; i < 31; i++) {
        const w = ring[i - 1];
        let v = 16807 * (w % 127773) - 2836 * Math.trunc(w / 127773);
        if (v < 0)
            v += 2147483647;
        ring[i] = v;
    }
    for (let i = 31; i < 34; i++)
        ring[i] = ring[i - 31];
    for (let k = 34; r.length < count; k++) {
        const v = (ring[(k - 31) % 34] + ring[(k - 3) % 34]) | 0;
        ring[k % 34] = v;
        if (k >= 344)
            r.push(v >>> 1);
    }
    return r;
}
/**
 * The seed in [from, to] whose `(char)rand()` stream, from output `skip` on, starts with the
 * first 32 octets of `data` and then matches all of it; null if none does.
 */
export function findGlibcSeed(data, from, to, skip = 0) {
    const probe = Math.min(32, data.length);
    for (let s = from; s <= to; s++) {
        const head = glibcRandBytes(s, probe, skip);
        let ok = true;
        for (let i = 0; i < probe && ok; i++)
            ok = head[i] === data[i];
        if (!ok)
            continue;
        const all = glibcRandBytes(s, data.length, skip);
        if (Buffer.compare(Buffer.from(all), Buffer.from(data)) === 0)
            return s;
    }
    return null;
}
//# sourceMappingURL=glibc-rand.js.map
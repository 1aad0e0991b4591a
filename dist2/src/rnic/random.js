/**
 * Unpredictable numbers for the values a peer must not be able to guess: STag indices and
 * keys (RFC 5040 §8; RDMA Protocol Verbs §7.2 "Implementation Note"). Drawn from the
 * operating system's CSPRNG in batches, so a registration costs no system call.
 */
import { getRandomValues } from 'node:crypto';
const pool = new Uint32Array(256);
let next = pool.length;
/** A random 32-bit unsigned integer. */
export function random32() {
    if (next === pool.length) {
        getRandomValues(pool);
        next = 0;
    }
    return pool[next++];
}
/** A random 24-bit STag index candidate (0 included; the caller skips it). */
export function randomIndex() {
    return random32() & 0xff_ffff;
}
/** A random 8-bit STag key. */
export function randomOctet() {
    return random32() & 0xff;
}
//# sourceMappingURL=random.js.map
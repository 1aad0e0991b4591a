/**
 * Unpredictable numbers for the values a peer must not be able to guess: STag indices and
 * keys (RFC 5040 §8; RDMA Protocol Verbs §7.2 "Implementation Note"), and InfiniBand QP
 * numbers. Drawn from the operating system's CSPRNG (`src/util/random.ts`).
 */
import { random32 } from '../util/random.js';
import { PSN_MASK, QPN_MASK } from '../wire/ib/constants.js';

/** A random 24-bit STag index candidate (0 included; the caller skips it). */
export function randomIndex(): number {
  return random32() & PSN_MASK;
}

/** A random 8-bit STag key. */
export function randomOctet(): number {
  return random32() & 0xff;
}

/**
 * A random InfiniBand QPN candidate: 24 bits, never 0 or 1 (the special QPs, IBTA Vol. 1
 * §3.5.2) nor 0xFFFFFF (the multicast QPN, §10.5.2.2).
 */
export function randomQpn(): number {
  for (;;) {
    const n = random32() & QPN_MASK;
    if (n > 1 && n !== QPN_MASK) return n;
  }
}

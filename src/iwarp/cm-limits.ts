/**
 * What peers may make an iWARP listener hold, and for how long: the listener limits with their
 * defaults and reasons as one rule table ({@link CM_LISTEN_LIMITS}), the process-wide defaults,
 * and the address a per-source cap counts by (RFC 5044 §7.1.2: a Responder waits for the MPA
 * Request; how long, and for how many, is the implementation's to bound).
 *
 * @module
 */
import { CmError } from './cm-common.js';
import { MPA_ACCEPT_TIMEOUT_MS, MPA_REQUEST_TIMEOUT_MS } from './mpa-startup.js';

/**
 * A listener's bounds on what peers can make it hold before the ULP has a connection: time,
 * number per listener and number per source address. One row per limit; the defaults are
 * {@link cmListenDefaults} (changeable process-wide with {@link setCmListenDefaults}), each
 * overridable per listener in {@link CmListenOptions}.
 *
 * A *half-open* connection is a TCP connection whose MPA Request is not complete yet (RFC 5044
 * §7.1.2: the Responder waits for it); a *request* is a valid Request delivered to the ULP and
 * not yet accepted or rejected.
 */
export interface CmListenLimits {
  /** TCP accept queue (`listen(2)` backlog; Linux caps it at `net.core.somaxconn`). */
  backlog: number;
  /** How long a half-open connection may take to complete its Request (siw's `MPAREQ_TIMEOUT`). */
  requestTimeoutMs: number;
  /**
   * How long a delivered request may wait for accept/reject before the CM rejects it (an MPA
   * Reply with R, then a FIN); 0 = no limit.
   */
  acceptTimeoutMs: number;
  /**
   * Half-open connections per listener. Newcomers are always admitted; above the cap the oldest
   * are evicted once older than `evictGraceMs` (a newcomer's Request has been read by then).
   */
  maxHalfOpen: number;
  /** Half-open connections per source address (IPv4 address, IPv6 /64); above it that source's oldest are evicted. */
  maxHalfOpenPerSource: number;
  /**
   * How old a half-open connection must be before it can be evicted for a newer one: a real
   * Initiator's Request has arrived by then. Twice the caps, the oldest go at once.
   */
  evictGraceMs: number;
  /**
   * Under pressure (half-open connections at half of `maxHalfOpen` or more), the Request timeout
   * of new half-open connections, and the age beyond which older ones are dropped.
   */
  pressureTimeoutMs: number;
  /** Delivered requests per listener; one more is refused with an R Reply. */
  maxRequests: number;
  /** Delivered requests per source address; one more is refused with an R Reply. */
  maxRequestsPerSource: number;
}

/**
 * The listener limits, their defaults and why (docs/spec-notes.md, "Timers and hostile peers").
 * A rule table: the listener reads the values from here; the docs list the same rows.
 */
export const CM_LISTEN_LIMITS: Readonly<Record<keyof CmListenLimits, { readonly default: number; readonly why: string }>> = Object.freeze({
  backlog: {
    default: 511,
    why: "a server's TCP accept queue (Node's and nginx's default), not rping's 3: bursts of legitimate clients must fit",
  },
  requestTimeoutMs: { default: MPA_REQUEST_TIMEOUT_MS, why: "siw's MPAREQ_TIMEOUT" },
  acceptTimeoutMs: {
    default: MPA_ACCEPT_TIMEOUT_MS,
    why: "below the Initiator's 10 s Reply timer (siw MPAREP_TIMEOUT), so the peer learns of the refusal",
  },
  maxHalfOpen: { default: 1024, why: 'idle sockets are cheap; eviction by age makes room, so the cap only bounds memory' },
  maxHalfOpenPerSource: {
    default: 32,
    why: 'one address cannot fill the listener (it holds at most 64 of 1024 for a moment), and a host opening a few dozen connections at once is served',
  },
  evictGraceMs: { default: 250, why: 'a Request trails its TCP handshake by one flight and an event-loop turn, far less than this' },
  pressureTimeoutMs: { default: 1_000, why: 'a real Initiator sends its Request right after TCP connect' },
  maxRequests: { default: 1024, why: 'what a ULP that answers at once never reaches' },
  maxRequestsPerSource: { default: 128, why: "one address cannot fill the ULP's queue; above perf's 64 QPs + 1" },
});

export const listenDefaults: CmListenLimits = Object.fromEntries(
  Object.entries(CM_LISTEN_LIMITS).map(([k, v]) => [k, v.default]),
) as unknown as CmListenLimits;

/** The listener limits a new listener starts from (see {@link CM_LISTEN_LIMITS}). */
export function cmListenDefaults(): Readonly<CmListenLimits> {
  return { ...listenDefaults };
}

/**
 * Changes the process-wide defaults of later listeners (existing ones keep theirs); returns
 * the previous defaults. Values must be non-negative integers; the caps and `backlog` at least 1.
 */
export function setCmListenDefaults(limits: Partial<CmListenLimits>): CmListenLimits {
  const prev = { ...listenDefaults };
  const next = checkLimits({ ...listenDefaults, ...limits });
  Object.assign(listenDefaults, next);
  return prev;
}

/** Validates limits (throws `invalid`): non-negative integers, caps and backlog ≥ 1. */
export function checkLimits(l: CmListenLimits): CmListenLimits {
  for (const k of Object.keys(CM_LISTEN_LIMITS) as (keyof CmListenLimits)[]) {
    const v = l[k];
    const min = k.endsWith('Ms') ? 0 : 1;
    if (!Number.isSafeInteger(v) || v < min) throw new CmError('invalid', `listener limit ${k} = ${String(v)}; an integer ≥ ${min}`);
  }
  if (l.requestTimeoutMs === 0 || l.pressureTimeoutMs === 0) throw new CmError('invalid', 'the Request timeouts must be above 0');
  return l;
}

/**
 * The address a per-source cap counts by: an IPv4 address (IPv4-mapped IPv6 included) as is,
 * an IPv6 address by its /64 prefix, since one host commonly owns a whole /64 (RFC 4291 §2.5.1
 * interface identifiers are 64 bits).
 */
export function sourceKey(address: string): string {
  const a = address.toLowerCase();
  if (a.startsWith('::ffff:') && a.includes('.')) return a.slice(7);
  if (!a.includes(':')) return a;
  const [head = '', tail] = a.split('%')[0]!.split('::');
  const hs = head ? head.split(':') : [];
  const ts = tail ? tail.split(':') : [];
  const groups = tail === undefined ? hs : [...hs, ...Array<string>(Math.max(0, 8 - hs.length - ts.length)).fill('0'), ...ts];
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g || '0', 16) || 0).toString(16))
    .join(':')}::/64`;
}

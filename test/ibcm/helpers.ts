/** Two IB CMs over an in-memory GSI fabric on a virtual clock, with a record of every MAD. */
import { type GsiAddress, type GsiTap, ManualClock, MemoryGsiFabric } from '../../src/ibcm/gsi.js';
import { IbCm, type IbCmEvent, type IbCmListener, type IbCmListenEvent, type IbCmListenLimits } from '../../src/ibcm/cm.js';
import { type CmMessage, decodeCmMad, gidFromIpv4 } from '../../src/wire/ib/cm.js';
import type { GsiFaultSource } from '../../src/ibcm/gsi.js';

export const GID_A = gidFromIpv4('192.168.77.1');
export const GID_B = gidFromIpv4('192.168.77.2');

export interface Wire {
  from: 'A' | 'B';
  tid: bigint;
  msg: CmMessage;
}

/** A seeded PRNG for comm IDs and TIDs (mulberry32). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Pair {
  clock: ManualClock;
  fabric: MemoryGsiFabric;
  a: IbCm;
  b: IbCm;
  /** Every MAD offered to the fabric (before faults), decoded. */
  wire: Wire[];
  /** Replace to inject targeted faults: return 'drop' / 'duplicate' for a MAD. */
  fault: (w: Wire, nth: number) => 'pass' | 'drop' | 'duplicate';
  kinds(from?: 'A' | 'B'): string[];
}

/**
 * `listenLimits` default to no accept timeout: these tests model consumers that decide late on
 * purpose (after an MRA); the limits have their own tests.
 */
export function pair(
  opts: { faults?: GsiFaultSource; seed?: number; timewaitMs?: number; listenLimits?: Partial<IbCmListenLimits> } = {},
): Pair {
  const clock = new ManualClock();
  const wire: Wire[] = [];
  const counts = new Map<string, number>();
  const p = {} as Pair;
  const tap: GsiTap = (mad: Uint8Array, from: GsiAddress) => {
    let d: ReturnType<typeof decodeCmMad>;
    try {
      d = decodeCmMad(mad);
    } catch {
      return 'pass'; // malformed on purpose (hostile tests): not recorded
    }
    const { header, msg } = d;
    const w: Wire = { from: from.gid[15] === GID_A[15] ? 'A' : 'B', tid: header.tid, msg };
    wire.push(w);
    const k = `${w.from}:${msg.kind}`;
    const n = (counts.get(k) ?? 0) + 1;
    counts.set(k, n);
    return p.fault(w, n);
  };
  const fabric = new MemoryGsiFabric({ timers: clock, tap, ...(opts.faults ? { faults: opts.faults } : {}) });
  const rnd = seeded(opts.seed ?? 7);
  const tw = {
    ...(opts.timewaitMs !== undefined ? { timewaitMs: opts.timewaitMs } : {}),
    listenLimits: { acceptTimeoutMs: 0, ...opts.listenLimits },
  };
  const a = new IbCm({ port: fabric.port(GID_A), caGuid: 0x0002c90300aaaa01n, gids: () => [GID_A], timers: clock, random: rnd, ...tw });
  const b = new IbCm({ port: fabric.port(GID_B), caGuid: 0x0002c90300bbbb02n, gids: () => [GID_B], timers: clock, random: rnd, ...tw });
  Object.assign(p, {
    clock,
    fabric,
    a,
    b,
    wire,
    fault: () => 'pass' as const,
    kinds: (from?: 'A' | 'B') => wire.filter((w) => !from || w.from === from).map((w) => `${w.from}:${w.msg.kind}`),
  });
  return p;
}

/** Collects a connection's events. */
export function recorder(): { events: IbCmEvent[]; on: (e: IbCmEvent) => void; types: () => string[] } {
  const events: IbCmEvent[] = [];
  return { events, on: (e) => events.push(e), types: () => events.map((e) => e.type) };
}

/** A listener that accepts every REQ (with QPN `qpn`, or 0x200, 0x201, …) and records what it saw. */
export function acceptingListener(
  cm: IbCm,
  sid: bigint,
  opts: { qpn?: number; psn?: number; reject?: Uint8Array; mra?: number; manual?: boolean } = {},
): { reqs: Extract<IbCmListenEvent, { type: 'req' }>[]; events: IbCmEvent[]; listener: IbCmListener } {
  const reqs: Extract<IbCmListenEvent, { type: 'req' }>[] = [];
  const events: IbCmEvent[] = [];
  const listener = cm.listen(sid, (ev) => {
    if (ev.type !== 'req') return;
    reqs.push(ev);
    ev.conn.onEvent = (e) => events.push(e);
    if (opts.manual) return;
    if (opts.reject) ev.conn.reject(opts.reject);
    else if (opts.mra !== undefined) ev.conn.mra(opts.mra);
    // A QPN per connection: a QPN used twice is a stale connection (IBTA §12.9.8.3.1).
    else ev.conn.accept({ qpn: opts.qpn ?? 0x200 + reqs.length - 1, startingPsn: opts.psn ?? 0x654321 });
  });
  return { reqs, events, listener };
}

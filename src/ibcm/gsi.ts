/**
 * What the InfiniBand CM needs below it: a General Services Interface port (QP1) that sends a
 * MAD to an address and hands up the MADs it receives with their source (IBTA Vol. 1 §13.5.1),
 * and timers. Two implementations of each live here: an in-memory GSI fabric with a seeded
 * fault hook (drop, duplicate, reorder, and a tap for targeted faults) and a virtual clock, so
 * the CM's retransmission, MRA and TIMEWAIT rules run deterministically in tests; and real
 * timers. A GSI over a RoCEv2 UD QP1 implements the same {@link GsiPort}.
 *
 * @packageDocumentation
 */
import { DEFAULT_PKEY, GSI_QKEY, GSI_QPN } from '../wire/ib/mad.js';

/** Where a MAD goes to or came from: a GID, a QPN (1 unless redirected), its Q_Key and P_Key. */
export interface GsiAddress {
  /** 16 octets; on RoCE v2 IPv4 an IPv4-mapped GID. */
  gid: Uint8Array;
  qpn: number;
  qkey: number;
  pkey: number;
  /**
   * Our side of the path: on receive, the local GID the MAD was addressed to; on send, the
   * local GID to send from (a port may hold several: one per IPv4 address on RoCE). A reply
   * leaves from the GID its request arrived on. Absent: the port's first GID.
   */
  localGid?: Uint8Array;
}

/** True when two GIDs are the same 16 octets. */
export function sameGid(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The index of `gid` in a port's GID table (the `sgid_index` of a path from it), or -1. */
export function gidIndexIn(gids: readonly Uint8Array[], gid: Uint8Array): number {
  return gids.findIndex((g) => sameGid(g, gid));
}

/** A GSI port: QP1 of one RNIC port (IBTA Vol. 1 §13.5.1). */
export interface GsiPort {
  /** Sends one 256-octet MAD as a UD datagram. Never throws for a lost datagram (UD is unreliable). */
  send(mad: Uint8Array, to: GsiAddress): void;
  /** Installs the receive handler (one per port). `from` is the sender's GID, source QPN and keys. */
  onReceive(handler: (mad: Uint8Array, from: GsiAddress) => void): void;
  /** Stops receiving. */
  close(): void;
  /**
   * Installs the handler told once when the port dies under its user (QP1 left RTS: its UDP
   * endpoint could not be bound or was lost). The port is closed by then.
   */
  onFail?(handler: (reason: string) => void): void;
}

/** A timer scheduler. The CM never reads a clock; it only arms and cancels timers. */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** Node's timers, unref'd so that a pending CM timer never keeps a process alive. */
export const realTimers: Timers = {
  set(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clear(h) {
    clearTimeout(h as ReturnType<typeof setTimeout>);
  },
};

/**
 * A virtual clock: timers fire only when the test advances time, in deadline order (ties in
 * the order they were set). `run()` advances until nothing is pending or a limit is reached.
 */
export class ManualClock implements Timers {
  #now = 0;
  #seq = 0;
  readonly #pending = new Map<number, { at: number; seq: number; fn: () => void }>();

  get now(): number {
    return this.#now;
  }

  set(fn: () => void, ms: number): unknown {
    const id = ++this.#seq;
    this.#pending.set(id, { at: this.#now + Math.max(0, ms), seq: id, fn });
    return id;
  }

  clear(handle: unknown): void {
    this.#pending.delete(handle as number);
  }

  /** Number of armed timers. */
  get pending(): number {
    return this.#pending.size;
  }

  #next(): [number, { at: number; seq: number; fn: () => void }] | undefined {
    let best: [number, { at: number; seq: number; fn: () => void }] | undefined;
    for (const e of this.#pending) {
      if (!best || e[1].at < best[1].at || (e[1].at === best[1].at && e[1].seq < best[1].seq)) best = e;
    }
    return best;
  }

  /** Fires every timer due within `ms` from now, in order, then sets the clock to now + ms. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const n = this.#next();
      if (!n || n[1].at > end) break;
      this.#pending.delete(n[0]);
      this.#now = n[1].at;
      n[1].fn();
    }
    this.#now = end;
  }

  /**
   * Fires timers in order until none is pending, `until()` is true, or the clock passed
   * `limitMs` from now. Returns the number of timers fired.
   */
  run(opts: { until?: () => boolean; limitMs?: number; maxEvents?: number } = {}): number {
    const end = this.#now + (opts.limitMs ?? Number.POSITIVE_INFINITY);
    const max = opts.maxEvents ?? 1_000_000;
    let fired = 0;
    while (!opts.until?.()) {
      const n = this.#next();
      if (!n || n[1].at > end || fired >= max) break;
      this.#pending.delete(n[0]);
      this.#now = n[1].at;
      n[1].fn();
      fired++;
    }
    return fired;
  }
}

/** The per-datagram decision of a fault source; `FaultHook` of the loopback transport fits. */
export interface GsiFaultSource {
  decide(): { drop: boolean; duplicate: boolean; reorder: boolean; delayMs: number; corrupt: boolean };
}

/** A targeted fault: called for every datagram; `'drop'` loses it, `'duplicate'` sends it twice. */
export type GsiTap = (mad: Uint8Array, from: GsiAddress, to: GsiAddress) => 'pass' | 'drop' | 'duplicate';

/** Options of {@link MemoryGsiFabric}. */
export interface MemoryGsiOptions {
  timers: Timers;
  /** One-way delivery delay in ms (default 1). */
  latencyMs?: number;
  faults?: GsiFaultSource;
  tap?: GsiTap;
}

/**
 * An in-memory fabric of GSI ports keyed by GID. Datagrams are delivered through the timers
 * (never synchronously, so a handler that sends does not re-enter the receiver), copied, and
 * subject to the fault source and the tap. A datagram to an unknown GID is lost, as on a wire.
 */
export class MemoryGsiFabric {
  readonly #ports = new Map<string, MemoryGsiPort>();
  readonly #opts: MemoryGsiOptions;
  /** Held back by a reorder decision; sent after the next datagram. */
  #held: (() => void) | null = null;
  /** Datagrams carried (after faults), for tests. */
  delivered = 0;
  lost = 0;

  constructor(opts: MemoryGsiOptions) {
    this.#opts = opts;
  }

  set tap(t: GsiTap | undefined) {
    this.#opts.tap = t;
  }

  /** A port answering at `gid` (QPN 1). */
  port(gid: Uint8Array): MemoryGsiPort {
    const key = Buffer.from(gid).toString('hex');
    if (this.#ports.has(key)) throw new Error(`GSI port ${key} exists`);
    const p = new MemoryGsiPort(this, gid.slice(), () => this.#ports.delete(key));
    this.#ports.set(key, p);
    return p;
  }

  /** @internal */
  carry(mad: Uint8Array, from: GsiAddress, to: GsiAddress): void {
    const copy = mad.slice();
    let dup = false;
    const tap = this.#opts.tap?.(copy, from, to) ?? 'pass';
    if (tap === 'drop') {
      this.lost++;
      return;
    }
    if (tap === 'duplicate') dup = true;
    let delay = this.#opts.latencyMs ?? 1;
    let reorder = false;
    if (this.#opts.faults) {
      const d = this.#opts.faults.decide();
      if (d.drop) {
        this.lost++;
        return;
      }
      dup ||= d.duplicate;
      reorder = d.reorder;
      delay += d.delayMs;
      if (d.corrupt) copy[Math.floor(copy.length / 2)]! ^= 0x10;
    }
    const deliver = () => {
      const dst = this.#ports.get(Buffer.from(to.gid).toString('hex'));
      if (!dst || to.qpn !== GSI_QPN) {
        this.lost++;
        return;
      }
      this.delivered++;
      dst.deliver(copy.slice(), from);
    };
    const send = () => {
      this.#opts.timers.set(deliver, delay);
      if (dup) this.#opts.timers.set(deliver, delay + 1);
    };
    if (reorder && !this.#held) {
      this.#held = send;
      return;
    }
    send();
    const held = this.#held;
    if (held) {
      this.#held = null;
      held();
    }
  }
}

/** One port of a {@link MemoryGsiFabric}. */
export class MemoryGsiPort implements GsiPort {
  #handler: ((mad: Uint8Array, from: GsiAddress) => void) | null = null;
  #onFail: ((reason: string) => void) | null = null;
  #closed = false;

  readonly #onClose: () => void;
  constructor(
    readonly fabric: MemoryGsiFabric,
    readonly gid: Uint8Array,
    onClose: () => void,
  ) {
    this.#onClose = onClose;
  }

  /** This port's own address (QPN 1, the GSI Q_Key, the default P_Key). */
  get address(): GsiAddress {
    return { gid: this.gid, qpn: GSI_QPN, qkey: GSI_QKEY, pkey: DEFAULT_PKEY };
  }

  send(mad: Uint8Array, to: GsiAddress): void {
    if (this.#closed) return;
    this.fabric.carry(mad, this.address, to);
  }

  onReceive(handler: (mad: Uint8Array, from: GsiAddress) => void): void {
    this.#handler = handler;
  }

  /** @internal */
  deliver(mad: Uint8Array, from: GsiAddress): void {
    if (!this.#closed) this.#handler?.(mad, from);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#onClose();
  }

  onFail(handler: (reason: string) => void): void {
    this.#onFail = handler;
  }

  /** Kills the port under its user, as QP1 entering Error does: closed, then the user told. */
  fail(reason: string): void {
    if (this.#closed) return;
    this.close();
    this.#onFail?.(reason);
  }
}

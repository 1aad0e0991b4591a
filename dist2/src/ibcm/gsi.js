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
/** Node's timers, unref'd so that a pending CM timer never keeps a process alive. */
export const realTimers = {
    set(fn, ms) {
        const t = setTimeout(fn, ms);
        t.unref?.();
        return t;
    },
    clear(h) {
        clearTimeout(h);
    },
};
/**
 * A virtual clock: timers fire only when the test advances time, in deadline order (ties in
 * the order they were set). `run()` advances until nothing is pending or a limit is reached.
 */
export class ManualClock {
    #now = 0;
    #seq = 0;
    #pending = new Map();
    get now() {
        return this.#now;
    }
    set(fn, ms) {
        const id = ++this.#seq;
        this.#pending.set(id, { at: this.#now + Math.max(0, ms), seq: id, fn });
        return id;
    }
    clear(handle) {
        this.#pending.delete(handle);
    }
    /** Number of armed timers. */
    get pending() {
        return this.#pending.size;
    }
    #next() {
        let best;
        for (const e of this.#pending) {
            if (!best || e[1].at < best[1].at || (e[1].at === best[1].at && e[1].seq < best[1].seq))
                best = e;
        }
        return best;
    }
    /** Fires every timer due within `ms` from now, in order, then sets the clock to now + ms. */
    advance(ms) {
        const end = this.#now + ms;
        for (;;) {
            const n = this.#next();
            if (!n || n[1].at > end)
                break;
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
    run(opts = {}) {
        const end = this.#now + (opts.limitMs ?? Number.POSITIVE_INFINITY);
        const max = opts.maxEvents ?? 1_000_000;
        let fired = 0;
        while (!opts.until?.()) {
            const n = this.#next();
            if (!n || n[1].at > end || fired >= max)
                break;
            this.#pending.delete(n[0]);
            this.#now = n[1].at;
            n[1].fn();
            fired++;
        }
        return fired;
    }
}
/**
 * An in-memory fabric of GSI ports keyed by GID. Datagrams are delivered through the timers
 * (never synchronously, so a handler that sends does not re-enter the receiver), copied, and
 * subject to the fault source and the tap. A datagram to an unknown GID is lost, as on a wire.
 */
export class MemoryGsiFabric {
    #ports = new Map();
    #opts;
    /** Held back by a reorder decision; sent after the next datagram. */
    #held = null;
    /** Datagrams carried (after faults), for tests. */
    delivered = 0;
    lost = 0;
    constructor(opts) {
        this.#opts = opts;
    }
    set tap(t) {
        this.#opts.tap = t;
    }
    /** A port answering at `gid` (QPN 1). */
    port(gid) {
        const key = Buffer.from(gid).toString('hex');
        if (this.#ports.has(key))
            throw new Error(`GSI port ${key} exists`);
        const p = new MemoryGsiPort(this, gid.slice(), () => this.#ports.delete(key));
        this.#ports.set(key, p);
        return p;
    }
    /** @internal */
    carry(mad, from, to) {
        const copy = mad.slice();
        let dup = false;
        const tap = this.#opts.tap?.(copy, from, to) ?? 'pass';
        if (tap === 'drop') {
            this.lost++;
            return;
        }
        if (tap === 'duplicate')
            dup = true;
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
            if (d.corrupt)
                copy[Math.floor(copy.length / 2)] ^= 0x10;
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
            if (dup)
                this.#opts.timers.set(deliver, delay + 1);
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
export class MemoryGsiPort {
    fabric;
    gid;
    onClose;
    #handler = null;
    #closed = false;
    constructor(fabric, gid, onClose) {
        this.fabric = fabric;
        this.gid = gid;
        this.onClose = onClose;
    }
    /** This port's own address (QPN 1, the GSI Q_Key, the default P_Key). */
    get address() {
        return { gid: this.gid, qpn: GSI_QPN, qkey: GSI_QKEY, pkey: DEFAULT_PKEY };
    }
    send(mad, to) {
        if (this.#closed)
            return;
        this.fabric.carry(mad, this.address, to);
    }
    onReceive(handler) {
        this.#handler = handler;
    }
    /** @internal */
    deliver(mad, from) {
        if (!this.#closed)
            this.#handler?.(mad, from);
    }
    close() {
        if (this.#closed)
            return;
        this.#closed = true;
        this.onClose();
    }
}
//# sourceMappingURL=gsi.js.map
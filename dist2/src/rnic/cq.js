/**
 * Completion Queues (RDMA Protocol Verbs §8.2.3–8.2.5, RNICPI §5.3 `ri_cq_*`).
 *
 * A CQ is a bounded ring of completions. It reports overflow instead of overwriting
 * (RNICPI `RI_RNIC_CQ_OVERFLOW_CHECKING`), and it carries the one-shot notification arm:
 * "next completion" or "next solicited completion", where every unsuccessful completion
 * counts as solicited (RNICPI `ri_cq_req_notification`).
 *
 * Completion handlers are called from a microtask after the completion was added, never
 * re-entrantly from inside a post or poll call, and never once `destroy` has returned.
 */
import { logger } from '../util/log.js';
const log = logger('cq');
/** `ri_cmplt_notify_type_t` (RNICPI §6.12). */
export var NotifyType;
(function (NotifyType) {
    NotifyType[NotifyType["SOLICITED"] = 0] = "SOLICITED";
    NotifyType[NotifyType["ANY"] = 1] = "ANY";
})(NotifyType || (NotifyType = {}));
export class Cq {
    id;
    handlerId;
    osData;
    notify;
    onOverflow;
    ring;
    head = 0;
    count = 0;
    /** 0 = disarmed, otherwise the strongest notify type requested + 1. */
    armed = 0;
    notifyPending = false;
    /** Overflow or internal error: `ri_cq_query` answers CQ_ERROR from then on. */
    error = false;
    destroyed = false;
    /** Work queues (QP SQ/RQ) that use this CQ: CQ_INUSE guard. */
    users = 0;
    constructor(id, capacity, 
    /** Completion Event Handler identifier, fixed for the CQ's life (0 = none). */
    handlerId, osData, notify, onOverflow) {
        this.id = id;
        this.handlerId = handlerId;
        this.osData = osData;
        this.notify = notify;
        this.onOverflow = onOverflow;
        this.ring = new Array(capacity);
    }
    get capacity() {
        return this.ring.length;
    }
    get depth() {
        return this.count;
    }
    /**
     * Adds a completion. Returns false, marks the CQ in error and reports overflow when the
     * ring is full: a completion is never silently overwritten.
     */
    push(wc, qp, sq, seq, solicited) {
        if (this.destroyed)
            return false;
        if (this.count === this.ring.length) {
            if (!this.error) {
                this.error = true;
                log('CQ[%d] overflow (capacity %d)', this.id, this.ring.length);
            }
            this.onOverflow(this, qp, sq);
            return false;
        }
        wc.cq_os_data = this.osData;
        const tail = (this.head + this.count) % this.ring.length;
        this.ring[tail] = { wc, qp, sq, seq, solicited: solicited || wc.op_status !== 0 };
        this.count++;
        if (this.armed !== 0) {
            const any = this.armed === NotifyType.ANY + 1;
            if (any || solicited || wc.op_status !== 0) {
                this.armed = 0;
                this.scheduleNotify();
            }
        }
        return true;
    }
    scheduleNotify() {
        if (this.notifyPending)
            return;
        this.notifyPending = true;
        queueMicrotask(() => {
            this.notifyPending = false;
            if (!this.destroyed)
                this.notify(this);
        });
    }
    /**
     * Arms the CQ. Entries already queued never trigger it; ANY takes precedence over
     * SOLICITED; one arm gives at most one callback (RNICPI `ri_cq_req_notification`).
     */
    arm(type) {
        const want = type + 1;
        if (want > this.armed)
            this.armed = want;
    }
    get armedType() {
        return this.armed === 0 ? null : (this.armed - 1);
    }
    /** Removes up to `max` completions into `out`; returns how many. */
    poll(out, max) {
        let n = 0;
        while (n < max && this.count > 0) {
            const e = this.ring[this.head];
            this.ring[this.head] = undefined;
            this.head = (this.head + 1) % this.ring.length;
            this.count--;
            out[n++] = e.wc;
            // The WC releases its queue slot (and those of earlier unsignaled WRs) only now,
            // when the consumer has retrieved it (Verbs §8.1.3.1).
            if (e.qp)
                e.qp.onCompletionPolled(e.sq, e.seq);
        }
        return n;
    }
    /** Resizes without losing completions; false if `capacity` < queued entries. */
    resize(capacity) {
        if (capacity < this.count)
            return false;
        const ring = new Array(capacity);
        for (let i = 0; i < this.count; i++)
            ring[i] = this.ring[(this.head + i) % this.ring.length];
        this.ring = ring;
        this.head = 0;
        return true;
    }
    /** Drops every queued completion that belongs to `qp` (QP destroyed). */
    purgeQp(qp) {
        const kept = [];
        for (let i = 0; i < this.count; i++) {
            const e = this.ring[(this.head + i) % this.ring.length];
            if (e.qp !== qp)
                kept.push(e);
        }
        this.ring.fill(undefined);
        this.head = 0;
        this.count = kept.length;
        for (let i = 0; i < kept.length; i++)
            this.ring[i] = kept[i];
    }
    destroy() {
        this.destroyed = true;
        this.ring.fill(undefined);
        this.count = 0;
    }
}
//# sourceMappingURL=cq.js.map
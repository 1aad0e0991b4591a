export class Srq {
    id;
    maxSgl;
    pd;
    osData;
    onLimit;
    ring;
    head = 0;
    count = 0;
    /** QPs associated with this S-RQ: SRQ_INUSE guard. */
    users = 0;
    /**
     * WQEs taken by a QP whose completion has not been polled yet: their slots are not free
     * (a WQ slot is released when the Consumer reaps the WC, Verbs §8.1.3.1, §10 Q-S5).
     */
    inFlight = 0;
    destroyed = false;
    error = false;
    lowat;
    armed;
    constructor(id, capacity, maxSgl, lowat, pd, osData, 
    /** Raises `RI_EVENT_SRQ_LIMIT_REACHED`. */
    onLimit) {
        this.id = id;
        this.maxSgl = maxSgl;
        this.pd = pd;
        this.osData = osData;
        this.onLimit = onLimit;
        this.ring = new Array(capacity);
        this.lowat = lowat;
        // "Non-zero lowat arms the limit automatically" at create (RNICPI ri_srq_create).
        this.armed = lowat > 0;
    }
    get capacity() {
        return this.ring.length;
    }
    /** WQEs posted and not yet consumed. */
    get available() {
        return this.count;
    }
    /** Slots in use: posted WQEs plus consumed ones whose WC is not yet polled. */
    get occupied() {
        return this.count + this.inFlight;
    }
    /** Appends a WQE; false if every slot is in use. */
    push(w) {
        if (this.occupied >= this.ring.length)
            return false;
        this.ring[(this.head + this.count) % this.ring.length] = w;
        this.count++;
        return true;
    }
    /** Takes the oldest WQE, checking the limit event afterwards. */
    shift() {
        if (this.count === 0)
            return undefined;
        const w = this.ring[this.head];
        this.ring[this.head] = undefined;
        this.head = (this.head + 1) % this.ring.length;
        this.count--;
        if (this.armed && this.count <= this.lowat) {
            this.armed = false;
            this.onLimit(this);
        }
        return w;
    }
    /** Resizes keeping queued WQEs; false if `capacity` is below the queued count. */
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
}
//# sourceMappingURL=srq.js.map
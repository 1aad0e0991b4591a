/**
 * STag carried by zero-length Write and Read RTR messages. Zero-length operations are not
 * validated, so any value works for RFC 5041; Linux siw uses 1 because Chelsio hardware
 * rejects STag 0 (zrlio/softiwarp#21).
 */
export const RTR_STAG = 1;
export class LlpStream {
    socket;
    /** Set while a QP owns the stream (a second attach is `LL_BAD_STATE`). */
    inUse = false;
    pending;
    txOffset;
    rxOffset;
    awaitFirstRx;
    sendRtr;
    expectRtr;
    rdmapExt;
    constructor(socket, opts = {}) {
        this.socket = socket;
        this.pending = opts.pending ?? null;
        this.txOffset = opts.txOffset ?? 0;
        this.rxOffset = opts.rxOffset ?? 0;
        this.awaitFirstRx = opts.awaitFirstRx ?? false;
        this.sendRtr = opts.sendRtr ?? null;
        this.expectRtr = opts.expectRtr ?? null;
        this.rdmapExt = opts.rdmapExt ?? false;
    }
    /** True if the socket is connected and open in both directions. */
    get usable() {
        const s = this.socket;
        return !s.destroyed && !s.pending && s.readyState === 'open';
    }
}
//# sourceMappingURL=llp.js.map
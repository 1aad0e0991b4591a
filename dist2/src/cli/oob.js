/**
 * The out-of-band TCP side channel that rdma-core's example programs and perftest use to set
 * up connections without a CM: each side sends the other its QP number, PSN and GID (and, for
 * perftest, rkey and buffer address) as fixed-size text, then each moves its own QPs through
 * INIT/RTR/RTS with what it received. softrdma's `pingpong` and `perf` without `-R` speak it so
 * that they interoperate with `ibv_*_pingpong` and `ib_*_bw/lat` over RoCEv2.
 *
 * Two formats:
 * - **pingpong** (`libibverbs/examples/pingpong.c`, `rc_pingpong.c` `pp_*_exch_dest`):
 *   `"%04x:%06x:%06x:%s"` = LID:QPN:PSN:GID, the GID as 32 hex digits of its 16 octets in
 *   order (`gid_to_wire_gid`), NUL-terminated in a 52-octet buffer. The client writes first,
 *   the server answers with its own after connecting its QP, the client then writes `"done\0"`.
 *   `ibv_srq_pingpong` sends one such message per QP.
 * - **perftest** (`perftest_communication.c` `ethernet_write_keys`, `KEY_PRINT_FMT_GID`):
 *   `"%04x:%04x:%06x:%06x:%08x:%016llx:" + 16 × "%02x:" + "%08x:"` = LID, outstanding reads, QPN,
 *   PSN, rkey, vaddr, the GID octets, SRQ number; 107 characters and a NUL in 108 octets. The
 *   client writes first in every exchange (`ctx_xchg_data_ethernet`).
 *
 * A peer's text is untrusted: decoding checks every field's syntax and range.
 */
import { once } from 'node:events';
import net from 'node:net';
/** `sizeof "0000:000000:000000:00000000000000000000000000000000"`. */
export const PP_MSG_LEN = 52;
/** `sizeof "done"`. */
export const PP_DONE = new Uint8Array([0x64, 0x6f, 0x6e, 0x65, 0]);
/** perftest's `KEY_MSG_SIZE_GID`. */
export const PERFTEST_KEYS_LEN = 108;
/** The default TCP port of both (`-p`). */
export const OOB_DEFAULT_PORT = 18515;
export class OobError extends Error {
}
const hex = (v, w) => v.toString(16).padStart(w, '0');
function checkField(name, v, max) {
    if (typeof v === 'bigint' ? v < 0n || v > BigInt(max) : !Number.isInteger(v) || v < 0 || v > Number(max)) {
        throw new OobError(`${name} ${v} out of range`);
    }
}
function checkGid(gid) {
    if (!(gid instanceof Uint8Array) || gid.length !== 16)
        throw new OobError('a GID is 16 octets');
}
/** The text in `b` up to its first NUL (the whole buffer must be ASCII). */
function cText(b, what) {
    const end = b.indexOf(0);
    const s = Buffer.from(b.subarray(0, end < 0 ? b.length : end)).toString('latin1');
    if (!/^[\x20-\x7e]*$/.test(s))
        throw new OobError(`${what}: not text`);
    return s;
}
/** Parses one hexadecimal field of at most `maxDigits` digits (sscanf `%x` would take more; a peer's text must be well formed). */
function hexField(s, maxDigits, what) {
    if (s === undefined || !/^[0-9a-fA-F]+$/.test(s) || s.length > maxDigits)
        throw new OobError(`${what}: bad hexadecimal field ${JSON.stringify(s)}`);
    return Number.parseInt(s, 16);
}
/** `gid_to_wire_gid`: 32 hexadecimal digits, the octets in order. */
export function gidToWire(gid) {
    checkGid(gid);
    return Buffer.from(gid).toString('hex');
}
/** `wire_gid_to_gid`. */
export function wireToGid(s) {
    if (!/^[0-9a-fA-F]{32}$/.test(s))
        throw new OobError(`bad GID ${JSON.stringify(s)}`);
    return new Uint8Array(Buffer.from(s, 'hex'));
}
/** The pingpong message of one QP: 52 octets, NUL-padded. */
export function encodePpDest(d) {
    checkField('LID', d.lid, 0xffff);
    checkField('QPN', d.qpn, 0xffffff);
    checkField('PSN', d.psn, 0xffffff);
    const s = `${hex(d.lid, 4)}:${hex(d.qpn, 6)}:${hex(d.psn, 6)}:${gidToWire(d.gid)}`;
    const b = new Uint8Array(PP_MSG_LEN);
    b.set(Buffer.from(s, 'latin1'));
    return b;
}
export function decodePpDest(b) {
    if (b.length !== PP_MSG_LEN)
        throw new OobError(`pingpong address: ${b.length} octets, expected ${PP_MSG_LEN}`);
    const f = cText(b, 'pingpong address').split(':');
    if (f.length !== 4)
        throw new OobError('pingpong address: expected LID:QPN:PSN:GID');
    return { lid: hexField(f[0], 4, 'LID'), qpn: hexField(f[1], 6, 'QPN'), psn: hexField(f[2], 6, 'PSN'), gid: wireToGid(f[3]) };
}
/** perftest's keys of one QP: 108 octets (107 characters and a NUL). */
export function encodePerftestKeys(k) {
    checkField('LID', k.lid, 0xffff);
    checkField('outstanding reads', k.outReads, 0xffff);
    checkField('QPN', k.qpn, 0xffffff);
    checkField('PSN', k.psn, 0xffffff);
    checkField('rkey', k.rkey, 0xffffffff);
    checkField('vaddr', k.vaddr, 0xffffffffffffffffn);
    checkField('SRQ number', k.srqn, 0xffffffff);
    checkGid(k.gid);
    const gid = Array.from(k.gid, (o) => `${hex(o, 2)}:`).join('');
    const s = `${hex(k.lid, 4)}:${hex(k.outReads, 4)}:${hex(k.qpn, 6)}:${hex(k.psn, 6)}:${hex(k.rkey, 8)}:${hex(k.vaddr, 16)}:${gid}${hex(k.srqn, 8)}:`;
    const b = new Uint8Array(PERFTEST_KEYS_LEN);
    b.set(Buffer.from(s, 'latin1'));
    return b;
}
export function decodePerftestKeys(b) {
    if (b.length !== PERFTEST_KEYS_LEN)
        throw new OobError(`perftest keys: ${b.length} octets, expected ${PERFTEST_KEYS_LEN}`);
    const f = cText(b, 'perftest keys').split(':');
    // 6 fields, 16 GID octets, the SRQ number, and the empty string after the last colon.
    if (f.length !== 24 || f[23] !== '')
        throw new OobError('perftest keys: wrong number of fields');
    const gid = new Uint8Array(16);
    for (let i = 0; i < 16; i++)
        gid[i] = hexField(f[6 + i], 2, 'GID octet');
    const v = f[5];
    if (!/^[0-9a-fA-F]{1,16}$/.test(v))
        throw new OobError(`vaddr: bad hexadecimal field ${JSON.stringify(v)}`);
    return {
        lid: hexField(f[0], 4, 'LID'),
        outReads: hexField(f[1], 4, 'outstanding reads'),
        qpn: hexField(f[2], 6, 'QPN'),
        psn: hexField(f[3], 6, 'PSN'),
        rkey: hexField(f[4], 8, 'rkey'),
        vaddr: BigInt(`0x${v}`),
        gid,
        srqn: hexField(f[22], 8, 'SRQ number'),
    };
}
/**
 * One side of the TCP side channel: exact-length reads (as the C programs' read loops), bounded
 * by a timeout so that a silent peer cannot hold a tool forever.
 */
export class OobChannel {
    sock;
    timeoutMs;
    buf = Buffer.alloc(0);
    waiter = null;
    ended = false;
    error = null;
    constructor(sock, 
    /** How long one {@link read} may wait; 0: as long as the peer keeps the connection open. */
    timeoutMs) {
        this.sock = sock;
        this.timeoutMs = timeoutMs;
        sock.on('data', (d) => {
            this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
            // A peer that sends more than any exchange needs is not following the protocol.
            if (this.buf.length > 64 * 1024)
                this.fail(new OobError('side channel: too much data from the peer'));
            this.wake();
        });
        sock.on('end', () => {
            this.ended = true;
            this.wake();
        });
        sock.on('error', (e) => this.fail(e));
        sock.on('close', () => {
            this.ended = true;
            this.wake();
        });
    }
    /** The peer closed the connection, or it failed. */
    get closed() {
        return this.ended || this.error !== null;
    }
    fail(e) {
        this.error ??= e;
        this.sock.destroy();
        this.wake();
    }
    wake() {
        const w = this.waiter;
        this.waiter = null;
        w?.();
    }
    /** Client: connects to the server's side channel. */
    static async connect(host, port, timeoutMs = 10_000) {
        const sock = net.connect({ host, port });
        const t = setTimeout(() => sock.destroy(new OobError(`Couldn't connect to ${host}:${port}`)), timeoutMs);
        try {
            await once(sock, 'connect');
        }
        catch (e) {
            throw new OobError(`Couldn't connect to ${host}:${port}: ${e.message}`);
        }
        finally {
            clearTimeout(t);
        }
        sock.setNoDelay(true);
        return new OobChannel(sock, timeoutMs);
    }
    /** Server: listens and takes the first connection (the listener is closed then, as the C programs do). */
    static async accept(bind, port, timeoutMs = 0, onListening) {
        const server = net.createServer({ pauseOnConnect: false });
        server.listen({ host: bind, port, exclusive: true });
        await once(server, 'listening');
        onListening?.(server.address().port);
        try {
            const [sock] = (await once(server, 'connection'));
            sock.setNoDelay(true);
            return new OobChannel(sock, timeoutMs > 0 ? timeoutMs : 10_000);
        }
        finally {
            server.close();
        }
    }
    write(b) {
        this.sock.write(b);
    }
    /** Reads exactly `n` octets. */
    async read(n) {
        const deadline = this.timeoutMs > 0 ? Date.now() + this.timeoutMs : Number.POSITIVE_INFINITY;
        while (this.buf.length < n) {
            if (this.error)
                throw this.error;
            if (this.ended)
                throw new OobError(`side channel closed after ${this.buf.length}/${n} octets`);
            const left = deadline - Date.now();
            if (left <= 0)
                throw new OobError(`side channel: timed out waiting for ${n} octets`);
            await new Promise((r) => {
                this.waiter = r;
                if (Number.isFinite(left))
                    setTimeout(r, left).unref?.();
            });
        }
        const out = new Uint8Array(this.buf.subarray(0, n));
        this.buf = this.buf.subarray(n);
        return out;
    }
    /** Client sends then receives; server receives then sends (`ctx_xchg_data_ethernet`). */
    async xchg(client, msg, n = msg.length) {
        if (client) {
            this.write(msg);
            return this.read(n);
        }
        const r = await this.read(n);
        this.write(msg);
        return r;
    }
    close() {
        this.sock.end();
    }
    /** Like {@link write}, but nothing is reported if the peer has already gone (a last "done"). */
    writeLast(b) {
        if (this.closed || this.sock.destroyed)
            return;
        this.sock.write(b, () => { });
    }
}
//# sourceMappingURL=oob.js.map
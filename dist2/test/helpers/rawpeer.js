/**
 * A scripted, hostile iWARP peer: speaks MPA/DDP/RDMAP with the raw wire codecs over a plain
 * TCP socket (not through a QP), so tests can send exactly the bytes they want.
 */
import { once } from 'node:events';
import net from 'node:net';
import { FpduDeframer } from '../../src/wire/deframer.js';
import { concatUlpdu } from '../../src/wire/deframer.js';
import { DdpQueue } from '../../src/wire/ddp.js';
import { decodeMpaReqRep, encodeFpdu, encodeMpaIrdOrd, encodeMpaReqRep } from '../../src/wire/mpa.js';
import { encodeRdmapHeader, RdmapOpcode } from '../../src/wire/rdmap.js';
import { decodeTerminateMessage } from '../../src/wire/terminate.js';
export class RawPeer {
    sock;
    fpdus = [];
    closed = false;
    deframer = null;
    pre = new Uint8Array(0);
    waiters = [];
    constructor(sock) {
        this.sock = sock;
        sock.on('data', (c) => {
            if (this.deframer)
                this.deframer.push(c);
            else {
                const j = new Uint8Array(this.pre.length + c.length);
                j.set(this.pre);
                j.set(c, this.pre.length);
                this.pre = j;
            }
            this.wake();
        });
        sock.on('close', () => {
            this.closed = true;
            this.wake();
        });
        sock.on('error', () => { });
    }
    wake() {
        for (const w of this.waiters.splice(0))
            w();
    }
    async waitFor(pred, ms = 3000) {
        const end = Date.now() + ms;
        while (!pred()) {
            if (Date.now() > end)
                throw new Error('raw peer: timed out');
            await new Promise((r) => {
                this.waiters.push(r);
                setTimeout(r, 20);
            });
        }
    }
    /** Connects as MPA Initiator (revision 2, IRD/ORD as given, no CRC, no markers). */
    static async connect(port, opts = {}) {
        const sock = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
        await once(sock, 'connect');
        const p = new RawPeer(sock);
        const pd = encodeMpaIrdOrd({
            ird: opts.ird ?? 8,
            ord: opts.ord ?? 8,
            peerToPeer: false,
            zeroLengthSendRtr: false,
            zeroLengthWriteRtr: false,
            zeroLengthReadRtr: false,
        });
        sock.write(encodeMpaReqRep({ type: 'request', markers: false, crc: !!opts.crc, reject: false, enhanced: true, res: 0, revision: 2, privateData: pd }));
        let consumed = 0;
        await p.waitFor(() => {
            const r = decodeMpaReqRep(p.pre, 'reply');
            if (r.status === 'frame')
                consumed = r.consumed;
            return r.status === 'frame';
        });
        p.reply = p.pre.slice(0, consumed);
        const crc = !!opts.crc || (p.pre[16] & 0x40) !== 0;
        p.crc = crc;
        p.deframer = new FpduDeframer({ maxUlpdu: 65535, crc, markers: false, onFpdu: (f) => p.fpdus.push(concatUlpdu(f)) });
        const rest = p.pre.subarray(consumed);
        if (rest.length)
            p.deframer.push(rest);
        return p;
    }
    crc = false;
    /** The MPA Reply's exact bytes. */
    reply = new Uint8Array(0);
    sendUlpdu(ulpdu) {
        this.sock.write(encodeFpdu(ulpdu, { crc: this.crc }));
    }
    write(stag, to, payload, last = true) {
        const h = encodeRdmapHeader({
            ddp: { tagged: true, last, rsvd: 0, version: 1, rsvdUlp: 0, stag, to },
            version: 1,
            rsvd: 0,
            opcode: RdmapOpcode.Write,
        });
        const u = new Uint8Array(h.length + payload.length);
        u.set(h);
        u.set(payload, h.length);
        this.sendUlpdu(u);
    }
    send(msn, payload, opcode = RdmapOpcode.Send, invStag = 0, mo = 0) {
        const h = encodeRdmapHeader({
            ddp: { tagged: false, last: true, rsvd: 0, version: 1, rsvdUlp: 0, rsvdUlp32: invStag, qn: DdpQueue.Send, msn, mo },
            version: 1,
            rsvd: 0,
            opcode,
        });
        const u = new Uint8Array(h.length + payload.length);
        u.set(h);
        u.set(payload, h.length);
        this.sendUlpdu(u);
    }
    readRequest(msn, rr) {
        this.sendUlpdu(encodeRdmapHeader({
            ddp: { tagged: false, last: true, rsvd: 0, version: 1, rsvdUlp: 0, rsvdUlp32: 0, qn: DdpQueue.ReadRequest, msn, mo: 0 },
            version: 1,
            rsvd: 0,
            opcode: RdmapOpcode.ReadRequest,
            readRequest: rr,
        }));
    }
    /** Waits for a Terminate message from the victim and decodes it. */
    async terminate(ms = 3000) {
        let t;
        await this.waitFor(() => {
            for (const u of this.fpdus) {
                if ((u[1] & 0x0f) === RdmapOpcode.Terminate) {
                    t = decodeTerminateMessage(u).terminate;
                    return true;
                }
            }
            return false;
        }, ms);
        return t;
    }
    async waitClosed(ms = 3000) {
        this.sock.end();
        await this.waitFor(() => this.closed, ms);
    }
}
//# sourceMappingURL=rawpeer.js.map
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
import { encodeRdmapHeader, RdmapOpcode, type ReadRequestHeader } from '../../src/wire/rdmap.js';
import { decodeTerminateMessage, type TerminateHeader } from '../../src/wire/terminate.js';

export class RawPeer {
  readonly fpdus: Uint8Array[] = [];
  closed = false;
  #deframer: FpduDeframer | null = null;
  #pre = new Uint8Array(0);
  #waiters: (() => void)[] = [];
  private constructor(readonly sock: net.Socket) {
    sock.on('data', (c: Buffer) => {
      if (this.#deframer) this.#deframer.push(c);
      else {
        const j = new Uint8Array(this.#pre.length + c.length);
        j.set(this.#pre);
        j.set(c, this.#pre.length);
        this.#pre = j;
      }
      this.#wake();
    });
    sock.on('close', () => {
      this.closed = true;
      this.#wake();
    });
    sock.on('error', () => {});
  }
  #wake(): void {
    for (const w of this.#waiters.splice(0)) w();
  }
  async #waitFor(pred: () => boolean, ms = 3000): Promise<void> {
    const end = Date.now() + ms;
    while (!pred()) {
      if (Date.now() > end) throw new Error('raw peer: timed out');
      await new Promise<void>((r) => {
        this.#waiters.push(r);
        setTimeout(r, 20);
      });
    }
  }

  /** Connects as MPA Initiator (revision 2, IRD/ORD as given, no CRC, no markers). */
  static async connect(port: number, opts: { crc?: boolean; ird?: number; ord?: number } = {}): Promise<RawPeer> {
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
    sock.write(
      encodeMpaReqRep({
        type: 'request',
        markers: false,
        crc: !!opts.crc,
        reject: false,
        enhanced: true,
        res: 0,
        revision: 2,
        privateData: pd,
      }),
    );
    let consumed = 0;
    await p.#waitFor(() => {
      const r = decodeMpaReqRep(p.#pre, 'reply');
      if (r.status === 'frame') consumed = r.consumed;
      return r.status === 'frame';
    });
    p.reply = p.#pre.slice(0, consumed);
    const crc = !!opts.crc || (p.#pre[16]! & 0x40) !== 0;
    p.crc = crc;
    p.#deframer = new FpduDeframer({ maxUlpdu: 65535, crc, markers: false, onFpdu: (f) => p.fpdus.push(concatUlpdu(f)) });
    const rest = p.#pre.subarray(consumed);
    if (rest.length) p.#deframer.push(rest);
    return p;
  }
  crc = false;
  /** The MPA Reply's exact bytes. */
  reply: Uint8Array = new Uint8Array(0);

  sendUlpdu(ulpdu: Uint8Array): void {
    this.sock.write(encodeFpdu(ulpdu, { crc: this.crc }));
  }

  write(stag: number, to: bigint, payload: Uint8Array, last = true): void {
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

  send(msn: number, payload: Uint8Array, opcode = RdmapOpcode.Send, invStag = 0, mo = 0): void {
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

  readRequest(msn: number, rr: ReadRequestHeader): void {
    this.sendUlpdu(
      encodeRdmapHeader({
        ddp: { tagged: false, last: true, rsvd: 0, version: 1, rsvdUlp: 0, rsvdUlp32: 0, qn: DdpQueue.ReadRequest, msn, mo: 0 },
        version: 1,
        rsvd: 0,
        opcode: RdmapOpcode.ReadRequest,
        readRequest: rr,
      }),
    );
  }

  /** Waits for a Terminate message from the victim and decodes it. */
  async terminate(ms = 3000): Promise<TerminateHeader> {
    let t: TerminateHeader | undefined;
    await this.#waitFor(() => {
      for (const u of this.fpdus) {
        if ((u[1]! & 0x0f) === RdmapOpcode.Terminate) {
          t = decodeTerminateMessage(u).terminate;
          return true;
        }
      }
      return false;
    }, ms);
    return t!;
  }

  async waitClosed(ms = 3000): Promise<void> {
    this.sock.end();
    await this.#waitFor(() => this.closed, ms);
  }
}

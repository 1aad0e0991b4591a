/**
 * `softrdma perf`: one end of a perftest `-R` run (client or server) over softrdma's rdma_cm and
 * verbs — the exchange sequence of each test, following docs/interop-protocols.md §2.6–2.9
 * (perftest 4.5-0.17's `write_bw.c` … `send_lat.c`). The parameters are perf-params.ts, the
 * connection perf-conn.ts (its data resources perf-data.ts), the test loops perf-loops.ts, and
 * what is printed perf-print.ts.
 */
import { writeFileSync } from 'node:fs';
import type { CliIo } from './cli.js';
import { PerfConn } from './perf-conn.js';
import { PerfLoops } from './perf-loops.js';
import { allSizes, isRequestVerb, MAX_SIZE, type PerfParams } from './perf-params.js';
import { Printer } from './perf-print.js';
import { RESULT_LINE } from './perf-report.js';

/** One end of a run. */
export class PerfRun {
  readonly #out: Printer;
  /** The control channel and the data connections. */
  readonly #c: PerfConn;
  readonly #loops: PerfLoops;

  readonly #p: PerfParams;
  constructor(p: PerfParams, io: CliIo) {
    this.#p = p;
    this.#out = new Printer(io, p);
    this.#c = new PerfConn(p, io, this.#out);
    this.#loops = new PerfLoops(this.#c, this.#out);
  }

  /** Runs the whole test; resolves with the exit status. */
  async run(): Promise<number> {
    const p = this.#p;
    try {
      await this.#c.establish();
      this.#out.testInfo(this.#c.info);
      if (p.lat) {
        if (p.verb === 'write') await this.#writeLat();
        else if (isRequestVerb(p.verb)) await this.#readLat();
        else await this.#sendLat();
      } else if (p.verb === 'send') await this.#sendBw();
      else await this.#rdmaBw();
      if (p.dumpFile && this.#c.data) writeFileSync(p.dumpFile, this.#c.data.buf);
      await this.#c.teardown();
      return 0;
    } finally {
      this.#out.stopProgress();
    }
  }

  /** Best-effort cleanup after a failure (the process exits next). */
  abort(): void {
    this.#c.abort();
  }

  #sizes(): number[] {
    return this.#p.all ? allSizes(this.#p.ud ? 1 << (7 + this.#c.mtu) : MAX_SIZE) : [this.#p.size];
  }

  // -------------------------------------------------------------------- the tests

  /** ib_write_bw / ib_read_bw (docs §2.7). */
  async #rdmaBw(): Promise<void> {
    const p = this.#p;
    await this.#c.handshakeAll();
    this.#c.printLocal();
    await this.#c.handshakeRemote();
    await this.#c.handshake0(); // "after RTR"
    this.#out.bwHeader();
    if (p.server) {
      // Passive: the client runs; we wait in the handshake for it to finish.
      await this.#c.handshake0();
      const rep = await this.#c.xchgBwReport({ size: 0, iters: 0, bwPeak: 0, bwAvg: 0, msgRate: 0 });
      this.#out.bwRow(rep);
      await this.#c.closeConnection();
      this.#out.text(RESULT_LINE);
      return;
    }
    this.#out.startProgress();
    if (p.warmUp) await this.#loops.runIterBw(this.#sizes()[0]!);
    for (const size of this.#sizes()) this.#out.bwRow(await this.#loops.runIterBw(size));
    this.#out.stopProgress();
    this.#out.text(RESULT_LINE);
    await this.#c.handshake0();
    await this.#c.xchgBwReport(this.#loops.lastBw!);
    await this.#c.closeConnection();
  }

  /** ib_send_bw (docs §2.7, §2.8.4: iWARP receive credits). */
  async #sendBw(): Promise<void> {
    const p = this.#p;
    const d = this.#c.data!;
    if (this.#c.credits) {
      d.allocCredit();
      for (let i = 0; i < p.qps; i++) {
        this.#c.my[i]!.rkey = d.credit!.mr.rkey;
        this.#c.my[i]!.vaddr = d.credit!.mr.addr + BigInt(4 * (p.qps + i));
      }
    }
    await this.#c.handshakeAll();
    await this.#c.handshake0();
    this.#c.printLocal();
    await this.#c.handshakeRemote();
    this.#out.bwHeader();
    this.#out.startProgress();
    const passes = this.#sizes().map((size) => ({ size, warm: false }));
    if (p.warmUp) passes.unshift({ size: passes[0]!.size, warm: true });
    for (const { size, warm } of passes) {
      if (p.server) this.#loops.postRecvs(size);
      await this.#c.handshake0();
      d.credit?.bytes.fill(0, 4 * p.qps);
      const r = p.server ? await this.#loops.runIterBwServer(size) : await this.#loops.runIterBw(size);
      if (!warm) this.#out.bwRow(r);
      if (p.all || warm) await this.#c.handshake0();
    }
    this.#out.stopProgress();
    this.#out.text(RESULT_LINE);
    await this.#c.closeConnection();
  }

  /** The exchanges that open ib_write_lat and ib_read_lat: a handshake, the keys, the keys printed, a handshake. */
  async #latExchange(): Promise<void> {
    await this.#c.handshake0();
    await this.#c.handshakeAll();
    this.#c.printLocal();
    await this.#c.handshakeRemote();
    await this.#c.handshake0();
  }

  /** ib_write_lat: the server writes first; no close handshake. */
  async #writeLat(): Promise<void> {
    await this.#latExchange();
    this.#out.latHeader();
    // Our MPA Responder holds its first FPDU until the Initiator's first one arrives, while
    // ib_write_lat's client waits for the server's first Write: a softrdma client starts with
    // one zero-length Write (no placement, no completion at the peer) so a softrdma server can
    // talk. Only towards a softrdma peer, recognised by the pingpong_dest padding.
    if (this.#c.client && this.#c.rem[0]!.softrdma) await this.#loops.zeroLengthWrite();
    this.#out.startProgress();
    for (const size of this.#sizes()) this.#out.latRow(await this.#loops.runIterLatWrite(size));
    this.#out.stopProgress();
    this.#out.text(RESULT_LINE);
    this.#c.ctl!.finished = true;
  }

  /** ib_read_lat: only the client runs; the server goes straight to the close handshake. */
  async #readLat(): Promise<void> {
    await this.#latExchange();
    if (this.#p.server) {
      await this.#c.closeConnection();
      this.#out.text(RESULT_LINE);
      return;
    }
    this.#out.latHeader();
    this.#out.startProgress();
    for (const size of this.#sizes()) this.#out.latRow(await this.#loops.runIterLatRead(size));
    this.#out.stopProgress();
    await this.#c.closeConnection();
    this.#out.text(RESULT_LINE);
  }

  /** ib_send_lat: receives posted, then a handshake, before each size. */
  async #sendLat(): Promise<void> {
    await this.#c.handshakeAll();
    await this.#c.handshake0();
    this.#c.printLocal();
    await this.#c.handshakeRemote();
    this.#out.latHeader();
    this.#out.startProgress();
    for (const size of this.#sizes()) {
      this.#loops.postRecvs(size);
      await this.#c.handshake0();
      this.#out.latRow(await this.#loops.runIterLatSend(size));
    }
    this.#out.stopProgress();
    this.#out.text(RESULT_LINE);
    await this.#c.closeConnection();
  }
}

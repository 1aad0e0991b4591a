/**
 * `softrdma daemon`: hosts the engine for C verbs programs started under `softrdma exec`
 * (docs/preload.md). It listens on a unix stream socket; each connection is one client process
 * with its own handles (contexts, protection domains) that name verbs objects of this process.
 * Handles are per client: a client cannot name another's objects. When the connection ends —
 * the program closed it, exited or was killed — every object of that client is destroyed, the
 * children before their parents (PDs, then device contexts), as the kernel does for a process
 * that exits without cleaning up (IBTA Vol. 1 §11.2.1: resources are released with the
 * consumer that owns them).
 *
 * The daemon answers from the verbs face (src/verbs), which answers from RNICPI: it owns no
 * rule of its own.
 */
import { chmodSync, mkdirSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { runtimeDir } from '../provider/softrdma.js';
import { socketFromEnv } from '../util/env.js';
import { logger } from '../util/log.js';
import { type Context, devices, gidTypes, openDevice, queryDevice, queryGid, queryPkey, queryPort } from '../verbs/device.js';
import { softrdmaLastError } from '../verbs/errno.js';
import { deviceContexts } from '../verbs/rdma_cm_id.js';
import { isIbContext, RoceCm } from '../verbs/rdma_cm_ib.js';
import { ibv_alloc_pd, ibv_dealloc_pd, ibv_dereg_mr } from '../verbs/ibverbs.js';
import { type Answer, objectCall, refreshQpStates } from './calls.js';
import { Client } from './client.js';
import { cmCall } from './cm.js';
import { asyncCall, startAsyncEvents } from './async.js';
import { preloadAddon } from './native.js';
import type { ibv_device_attr, ibv_gid, ibv_port_attr } from '../verbs/types.js';
import {
  encodeResponse,
  FrameReader,
  formatPayload,
  parsePayload,
  PRELOAD_PROTOCOL_VERSION,
  PreloadOp,
  REQ_HEADER,
  uintField,
} from './protocol.js';

const log = logger('daemon');

const EINVAL = 22;
const ENODEV = 19;
const EBADMSG = 74;
const EOPNOTSUPP = 95;

/** The calls that move no QP: the work-request path, polls and arms (no ring state refresh after them). */
const RING_NEUTRAL_OPS = new Set<number>([
  PreloadOp.POST_SEND,
  PreloadOp.POST_RECV,
  PreloadOp.POST_SRQ_RECV,
  PreloadOp.POLL_CQ,
  PreloadOp.REQ_NOTIFY_CQ,
  PreloadOp.DOORBELL,
]);

/** The daemon's socket: `SOFTRDMA_SOCKET`, else `daemon.sock` in the run-time directory. */
export function daemonSocketPath(): string {
  return socketFromEnv() ?? join(runtimeDir(), 'daemon.sock');
}

/** How many clients and objects the daemon holds (all 0 at rest). */
export interface DaemonResources {
  clients: number;
  contexts: number;
  pds: number;
  mrs: number;
  channels: number;
  cqs: number;
  qps: number;
  ahs: number;
  srqs: number;
  /** rdma_cm event channels and ids. */
  cmChannels: number;
  cmIds: number;
}

type Fields = [string, string | number | bigint][];

/** A running daemon. */
export class PreloadDaemon {
  readonly #clients = new Set<Client>();
  #nextClient = 1;
  readonly #server: net.Server;
  private constructor(
    readonly path: string,
    server: net.Server,
  ) {
    this.#server = server;
  }

  /** Listens on `path` (made private to the user); a stale socket file is replaced, a live daemon refused (EADDRINUSE). */
  static async listen(path = daemonSocketPath()): Promise<PreloadDaemon> {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (await answers(path)) throw Object.assign(new Error(`a daemon already listens on ${path}`), { code: 'EADDRINUSE' });
    try {
      unlinkSync(path);
    } catch {
      // Not there.
    }
    const server = net.createServer();
    const d = new PreloadDaemon(path, server);
    server.on('connection', (s) => d.#serve(s));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
    chmodSync(path, 0o600);
    d.#holdCms();
    log('listening on %s', path);
    return d;
  }

  /**
   * The RoCE devices' IB CMs, held open while the daemon runs. The kernel's CM of a port is
   * always there; ours opens QP1 and a UDP socket per address on first use (about 10 ms) and
   * closes them when its last user goes. A program that destroys its listening id and listens
   * again on the same port (perftest -R: its exchange listener, then its data listener) would pay
   * that again inside its second rdma_listen, while its peer, told to go ahead, is connecting.
   */
  readonly #cms: RoceCm[] = [];
  #holdCms(): void {
    for (const ctx of deviceContexts()) {
      if (!isIbContext(ctx)) continue;
      const cm = RoceCm.of(ctx);
      if (typeof cm === 'number') {
        log('%s: IB CM not opened (errno %d); rdma_cm opens it on first use', ctx.device.name, cm);
        continue;
      }
      cm.hold();
      this.#cms.push(cm);
    }
  }

  resources(): DaemonResources {
    const r: DaemonResources = {
      clients: this.#clients.size,
      contexts: 0,
      pds: 0,
      mrs: 0,
      channels: 0,
      cqs: 0,
      qps: 0,
      ahs: 0,
      srqs: 0,
      cmChannels: 0,
      cmIds: 0,
    };
    for (const c of this.#clients) {
      r.contexts += c.contexts.size;
      r.pds += c.pds.size;
      r.mrs += c.mrs.size;
      r.channels += c.channels.size;
      r.cqs += c.cqs.size;
      r.qps += c.qps.size;
      r.ahs += c.ahs.size;
      r.srqs += c.srqs.size;
      r.cmChannels += c.cm.channels.size;
      r.cmIds += c.cm.ids.size;
    }
    return r;
  }

  /** How many requests of `op` the daemon has answered, over all clients. */
  served(op: PreloadOp): number {
    return this.#opCounts.get(op) ?? 0;
  }
  readonly #opCounts = new Map<number, number>();

  /** Stops listening, ends every client (freeing its objects) and removes the socket file. */
  async close(): Promise<void> {
    for (const cm of this.#cms.splice(0)) cm.release();
    await new Promise<void>((r) => {
      this.#server.close(() => r());
      for (const c of [...this.#clients]) this.#drop(c);
    });
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone.
    }
  }

  readonly #sockets = new Map<Client, net.Socket>();

  #serve(s: net.Socket): void {
    const c = new Client(this.#nextClient++);
    this.#clients.add(c);
    this.#sockets.set(c, s);
    c.onFatal = () => this.#drop(c);
    log('client %d connected', c.id);
    const reader = new FrameReader(REQ_HEADER);
    // Answers go in request order; an rdma_cm call may answer later (address resolution).
    let chain: Promise<void> = Promise.resolve();
    s.on('data', (chunk) => {
      let frames: Buffer[];
      try {
        frames = reader.push(chunk);
      } catch (e) {
        log('client %d: %s; disconnecting', c.id, (e as Error).message);
        s.destroy();
        return;
      }
      for (const f of frames) {
        const op = f.readUInt32LE(0);
        const seq = f.readUInt32LE(4);
        const args = parsePayload(f.subarray(REQ_HEADER));
        if (!args) {
          log('client %d: malformed payload of op %d; disconnecting', c.id, op);
          s.destroy();
          return;
        }
        chain = chain.then(async () => {
          const a = await this.#call(c, op, args);
          this.#opCounts.set(op, (this.#opCounts.get(op) ?? 0) + 1);
          if (a.silent) return;
          // A call that may have moved a QP (a modify, an rdma_cm step) tells the rings the QP's state.
          if (!RING_NEUTRAL_OPS.has(op)) refreshQpStates(c);
          if (a.errno !== 0) log('client %d: op %d (seq %d): errno %d', c.id, op, seq, a.errno);
          if (!this.#clients.has(c)) {
            if (a.passFd !== undefined) preloadAddon()?.close(a.passFd);
            return;
          }
          const frame = encodeResponse(seq, a.errno, formatPayload(a.fields ?? []));
          if (a.passFd === undefined) s.write(frame);
          else this.#sendWithFd(c, s, frame, a.passFd);
        });
      }
    });
    s.on('error', (e) => log('client %d: %s', c.id, e.message));
    s.on('close', () => this.#drop(c));
  }

  /**
   * Writes an answer with an fd attached (SCM_RIGHTS), which Node's sockets cannot: straight on
   * the socket's descriptor, which is safe because the client waits for each answer before its
   * next request, so nothing of ours is queued. Closes our copy of the fd. False (and the client
   * dropped) when the answer could not go.
   */
  #sendWithFd(c: Client, s: net.Socket, frame: Buffer, fd: number): boolean {
    const addon = preloadAddon()!;
    const sock = (s as unknown as { _handle?: { fd?: number } })._handle?.fd ?? -1;
    const n = sock >= 0 && s.writableLength === 0 ? addon.sendFd(sock, frame, fd) : -1;
    addon.close(fd);
    if (n <= 0) {
      log('client %d: an answer with an fd could not be sent (%d); disconnecting', c.id, n);
      s.destroy();
      return false;
    }
    if (n < frame.length) s.write(frame.subarray(n));
    return true;
  }

  /** Frees every object of `c`, children first. */
  #drop(c: Client): void {
    if (!this.#clients.delete(c)) return;
    this.#sockets.get(c)?.destroy();
    this.#sockets.delete(c);
    c.free();
    log('client %d (pid %d) gone; its objects are freed', c.id, c.pid);
  }

  #call(c: Client, op: number, m: Map<string, string>): Answer | Promise<Answer> {
    const obj = objectCall(c, op, m) ?? cmCall(c, op, m) ?? asyncCall(c, op, m);
    if (obj) return obj;
    const ctxOf = (): Context | null => c.contexts.get(uintField(m, 'ctx') ?? 0) ?? null;
    // `ctx=H port=P index=I` of the GID and P_Key table queries.
    const tableEntry = (): { ctx: Context; port: number; index: number } | null => {
      const ctx = ctxOf();
      const port = uintField(m, 'port', 255);
      const index = uintField(m, 'index', 0xffff);
      return ctx && port !== null && index !== null ? { ctx, port, index } : null;
    };
    switch (op) {
      case PreloadOp.HELLO: {
        c.pid = uintField(m, 'pid') ?? 0;
        const fields: Fields = [['version', PRELOAD_PROTOCOL_VERSION]];
        // The fd channel: a socket pair whose other end goes with this answer; the program passes
        // the memfds of its regions on it (Node's own reads of this socket would drop them).
        const addon = preloadAddon();
        if (!addon || c.fdChannel >= 0) return { errno: 0, fields };
        const [mine, theirs] = addon.socketPair();
        c.fdChannel = mine;
        return { errno: 0, fields, passFd: theirs };
      }
      case PreloadOp.GET_DEVICES: {
        const ds = devices();
        const fields: Fields = [['count', ds.length]];
        for (const [i, d] of ds.entries())
          fields.push([`name.${i}`, d.name], [`guid.${i}`, d.guid], [`transport.${i}`, d.transport_type], [`node_type.${i}`, d.node_type]);
        return { errno: 0, fields };
      }
      case PreloadOp.OPEN_DEVICE: {
        const dev = devices().find((d) => d.name === m.get('name'));
        if (!dev) return { errno: ENODEV };
        const ctx = openDevice(dev);
        if (!ctx) return { errno: softrdmaLastError().errno || ENODEV };
        const h = c.handle();
        c.contexts.set(h, ctx);
        const passFd = startAsyncEvents(c, h, ctx);
        return passFd === undefined ? { errno: 0, fields: [['ctx', h]] } : { errno: 0, fields: [['ctx', h]], passFd };
      }
      case PreloadOp.CLOSE_DEVICE: {
        const h = uintField(m, 'ctx') ?? 0;
        if (!c.contexts.has(h)) return { errno: EINVAL };
        c.free(h);
        return c.contexts.has(h) ? { errno: softrdmaLastError().errno || EINVAL } : { errno: 0 };
      }
      case PreloadOp.QUERY_DEVICE: {
        const ctx = ctxOf();
        if (!ctx) return { errno: EINVAL };
        const a = {} as ibv_device_attr;
        const r = queryDevice(ctx, a);
        return r === 0 ? { errno: 0, fields: scalarFields(a) } : { errno: r };
      }
      case PreloadOp.QUERY_PORT: {
        const ctx = ctxOf();
        const port = uintField(m, 'port', 255);
        if (!ctx || port === null) return { errno: EINVAL };
        const a = {} as ibv_port_attr;
        const r = queryPort(ctx, port, a);
        return r === 0 ? { errno: 0, fields: scalarFields(a) } : { errno: r };
      }
      case PreloadOp.QUERY_GID: {
        const t = tableEntry();
        if (!t) return { errno: EINVAL };
        const g = { raw: new Uint8Array(16) } as ibv_gid;
        const r = queryGid(t.ctx, t.port, t.index, g);
        // `gid_type`: `enum ibv_gid_type` (RoCE: the table's; iWARP: IB, as a kernel's non-RoCE port shows).
        return r === 0
          ? {
              errno: 0,
              fields: [
                ['gid', Buffer.from(g.raw).toString('hex')],
                ['gid_type', gidTypes(t.ctx)[t.index] ?? 0],
              ],
            }
          : { errno: r };
      }
      case PreloadOp.QUERY_PKEY: {
        const t = tableEntry();
        if (!t) return { errno: EINVAL };
        const r = queryPkey(t.ctx, t.port, t.index);
        return r.ret === 0 ? { errno: 0, fields: [['pkey', r.pkey]] } : { errno: r.ret };
      }
      case PreloadOp.ALLOC_PD: {
        const h = uintField(m, 'ctx') ?? 0;
        const ctx = c.contexts.get(h);
        if (!ctx) return { errno: EINVAL };
        const pd = ibv_alloc_pd(ctx);
        if (!pd) return { errno: softrdmaLastError().errno || EINVAL };
        const ph = c.handle();
        c.pds.set(ph, { pd, ctx: h });
        return { errno: 0, fields: [['pd', ph]] };
      }
      case PreloadOp.DEALLOC_PD: {
        const h = uintField(m, 'pd') ?? 0;
        const p = c.pds.get(h);
        if (!p) return { errno: EINVAL };
        // The daemon's own region for inline sends goes first (it is made again if still needed).
        const inl = c.inline.get(h);
        if (inl && ibv_dereg_mr(inl.mr) === 0) c.inline.delete(h);
        if (ibv_dealloc_pd(p.pd) !== 0) return { errno: softrdmaLastError().errno || EINVAL };
        c.pds.delete(h);
        return { errno: 0 };
      }
      default:
        log('client %d: op %d not supported', c.id, op);
        return { errno: op === 0 ? EBADMSG : EOPNOTSUPP };
    }
  }
}

/** The numeric and string members of a verbs attribute struct, by their C names. */
function scalarFields(o: object): Fields {
  const f: Fields = [];
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'number' || typeof v === 'bigint') f.push([k, v]);
    else if (typeof v === 'string' && /^[\x20-\x7e]{0,64}$/.test(v)) f.push([k, v]);
  }
  return f;
}

/** Whether something accepts connections on `path`. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(path);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * Test helpers that drive the RNIC engine directly: make a connected QP pair over loopback
 * TCP (MPA start-up included), register buffers, post and poll.
 */
import { once } from 'node:events';
import net from 'node:net';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiMemFlags, RiQpState, RiWrFlags, type RiWrType } from '../../src/rnicpi/types.js';
import { type Cq, NotifyType, type WorkCompletion } from '../../src/rnic/cq.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import type { MemObject } from '../../src/rnic/memory.js';
import { mrReg } from '../../src/rnic/memops.js';
import { attachIwarp, IwarpConn } from '../../src/iwarp/datapath.js';
import { terminateOfFault } from '../../src/iwarp/terminate-map.js';
import { mpaAccept, mpaConnect, type MpaParams, mpaReadRequest } from '../../src/iwarp/mpa-startup.js';
import type { Pd } from '../../src/rnic/pd.js';
import { postRq, postSq, type SqWrIn } from '../../src/rnic/post.js';
import type { Qp, QpInit } from '../../src/rnic/qp.js';
import type { MpaAttrs } from '../../src/iwarp/llp-attrs.js';
import { DEFAULT_CONFIG, Rnic, type RnicConfig } from '../../src/rnic/rnic.js';
import type { IbService } from '../../src/rnic/qp-states.js';
import { type CmQp, riCmQp } from '../../src/iwarp/cm.js';
import type { ri_ops_t } from '../../src/rnicpi/ops.js';
import { createSoftrdmaVp, SOFTRDMA_KERNEL_OPS } from '../../src/provider/softrdma.js';
import { RiConsumerDomain, RiPblMode, type ri_rnic_handle_t } from '../../src/rnicpi/types.js';
import { registerLlpBinder } from '../../src/rnic/transport.js';
import type { FaultPlan } from '../../src/loopback/faults.js';
import { LoopbackConn, loopbackPair } from '../../src/loopback/loopback.js';
import { RoceNet } from '../../src/roce/net.js';
import { installTransports } from '../../src/provider/transports.js';
import { addressToGid } from '../../src/wire/ib/gid-address.js';

// Engines made here bind through the provider's transports, as the provider's own RNICs do.
installTransports();

// Engine-level tests attach iWARP streams the way the provider does.
registerLlpBinder(attachIwarp);

export const ALL_ACCESS = RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_READ | RiMemFlags.REMOTE_WRITE;

export interface Side {
  rnic: Rnic;
  pd: Pd;
  cq: Cq;
  qp: Qp;
}

export const DEFAULT_MPA: MpaAttrs = { crc: false, recvMarkers: false, xmitMarkers: false, ddpRdmapVersion: 1 };

export function must<T>(v: T | RiRet): T {
  if (typeof v === 'number') throw new Error(`engine call failed: ${RiRet[v]} (${v})`);
  return v;
}

/** Waiters for CQ notifications, by CQ os_data. */
const cqWaiters = new Map<unknown, (() => void)[]>();

/** An engine RNIC opened behind the softrdma RNICPI provider, with one consumer handle. */
interface RiBacked {
  ops: ri_ops_t;
  rnic: ri_rnic_handle_t;
  handlerId: number;
}
const backed = new WeakMap<Rnic, RiBacked>();

/**
 * An engine RNIC reached through the softrdma provider (`ri_rnic_open`, `ri_rnic_get_hdl`), for
 * tests of RNICPI consumers such as the connection manager: {@link cmSide} makes QPs on it
 * through `ri_qp_create`, and the engine objects stay at hand for posting and polling.
 */
export function riRnic(config: Partial<RnicConfig> = {}): Rnic {
  const vp = createSoftrdmaVp(config);
  const ops = SOFTRDMA_KERNEL_OPS;
  const okStatus = (st: RiRet, what: string): void => {
    if (st !== RiRet.SUCCESS) throw new Error(`${what}: ${RiRet[st]}`);
  };
  okStatus(ops.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, { rnic: vp.name }).status, 'ri_rnic_open');
  const h = ops.ri_cq_set_event_handler(vp, 0, (_os, cqOs) => {
    for (const w of cqWaiters.get(cqOs)?.splice(0) ?? []) w();
  });
  if (h.status !== RiRet.SUCCESS) throw new Error(`ri_cq_set_event_handler: ${RiRet[h.status]}`);
  const g = ops.ri_rnic_get_hdl(vp, RiConsumerDomain.KERNEL, null, { consumer: 'test' });
  if (g.status !== RiRet.SUCCESS) throw new Error(`ri_rnic_get_hdl: ${RiRet[g.status]}`);
  backed.set(vp.engine, { ops, rnic: g.rnic, handlerId: h.handler_id });
  return vp.engine;
}

/** A {@link Side} whose QP was made through RNICPI, with the CM's view of it. */
export interface CmSide extends Side {
  /** The QP as the connection manager takes it ({@link riCmQp} over the provider). */
  cm: CmQp;
}

/**
 * A QP made with `ri_qp_create` on an RNIC from {@link riRnic} (default: a new one), with the
 * attributes of {@link makeSide}: its own PD and one CQ for both queues.
 */
export function cmSide(rnic: Rnic = riRnic(), over: Partial<QpInit> = {}): CmSide {
  const f = cmQps(rnic, 1024, over);
  const { qp, cm } = f.make();
  return { rnic, pd: f.pd, cq: f.cq, qp, cm };
}

/**
 * One PD and one CQ of `cqSize` entries made through RNICPI on an RNIC from {@link riRnic}, and a
 * maker of QPs on them (`ri_qp_create`, attributes of {@link makeSide} with `over`): each QP as
 * the engine object and as the CM's {@link CmQp}.
 */
export function cmQps(rnic: Rnic, cqSize: number, over: Partial<QpInit> = {}): { pd: Pd; cq: Cq; make(): { qp: Qp; cm: CmQp } } {
  const b = backed.get(rnic);
  if (!b) throw new Error('cmSide/cmQps need an RNIC made by riRnic()');
  const { ops } = b;
  const p = ops.ri_pd_alloc(b.rnic, null, 'pd');
  if (p.status !== RiRet.SUCCESS) throw new Error(`ri_pd_alloc: ${RiRet[p.status]}`);
  const c = ops.ri_cq_create(b.rnic, { num_cqe: cqSize, handler_id: b.handlerId }, null, {});
  if (c.status !== RiRet.SUCCESS) throw new Error(`ri_cq_create: ${RiRet[c.status]}`);
  const i = {
    sqSize: 64,
    rqSize: 64,
    sqMaxSges: 4,
    sqMaxSgesRdmaw: 4,
    rqMaxSges: 4,
    enableRdmaRead: true,
    enableRdmaWrite: true,
    ord: 8,
    ird: 8,
    stag0Enabled: false,
    enableBind: true,
    ...over,
  };
  const make = (): { qp: Qp; cm: CmQp } => {
    const r = ops.ri_qp_create(
      b.rnic,
      {
        scq: { scq_handle: c.cq },
        rcq: { rcq_handle: c.cq },
        srq: null,
        srq_valid: false,
        pd: p.pd,
        sq_size: i.sqSize,
        rq_size: i.rqSize,
        sq_max_sges: i.sqMaxSges,
        sq_max_sges_rdmaw: i.sqMaxSgesRdmaw,
        rq_max_sges: i.rqMaxSges,
        enable_rdma_read: i.enableRdmaRead,
        enable_rdma_write: i.enableRdmaWrite,
        max_rdma_read_outgoing: i.ord,
        max_rdma_read_incoming: i.ird,
        enable_stag0_fastreg: i.stag0Enabled,
        qp_xport: { qp_iwarp: { enable_bind: i.enableBind } },
      },
      null,
      'qp',
    );
    if (r.status !== RiRet.SUCCESS) throw new Error(`ri_qp_create: ${RiRet[r.status]}`);
    // The engine QP behind the handle, for the engine-level post/poll helpers.
    return { qp: (r.qp as unknown as { qp: Qp }).qp, cm: riCmQp(ops, b.rnic, r.qp) };
  };
  return { pd: (p.pd as unknown as { pd: Pd }).pd, cq: (c.cq as unknown as { cq: Cq }).cq, make };
}

/** A QP's creation attributes: one PD, one CQ for both queues, small queues, Read/Write on. */
export function qpInit(pd: Pd, cq: Cq, over: Partial<QpInit> = {}): QpInit {
  return {
    pd,
    scq: cq,
    rcq: cq,
    srq: null,
    sqSize: 16,
    rqSize: 16,
    sqMaxSges: 1,
    sqMaxSgesRdmaw: 1,
    rqMaxSges: 1,
    enableRdmaRead: true,
    enableRdmaWrite: true,
    ord: 4,
    ird: 4,
    stag0Enabled: false,
    enableBind: false,
    rqHiwat: 0,
    llpAttrs: DEFAULT_MPA,
    osData: null,
    ...over,
  };
}

export function makeSide(rnic = new Rnic(), over: Partial<QpInit> = {}): Side {
  const pd = must(rnic.pdAlloc('pd'));
  const h = rnic.setCqHandler(0, (_os, cqOs) => {
    for (const w of cqWaiters.get(cqOs)?.splice(0) ?? []) w();
  });
  const cqKey = {};
  const cq = must(rnic.cqCreate(1024, h.id, cqKey));
  const qp = must(
    rnic.qpCreate({
      pd,
      scq: cq,
      rcq: cq,
      srq: null,
      sqSize: 64,
      rqSize: 64,
      sqMaxSges: 4,
      sqMaxSgesRdmaw: 4,
      rqMaxSges: 4,
      enableRdmaRead: true,
      enableRdmaWrite: true,
      ord: 8,
      ird: 8,
      stag0Enabled: false,
      enableBind: true,
      rqHiwat: 0,
      llpAttrs: DEFAULT_MPA,
      osData: 'qp',
      ...over,
    }),
  );
  return { rnic, pd, cq, qp };
}

export function reg(side: Side, bytes: Uint8Array, flags = ALL_ACCESS): MemObject {
  return must(mrReg(side.rnic, { va: hostMemory.addressOf(bytes), length: bytes.length, flags, pd: side.pd, key: 0 }, null));
}

export function sge(mr: MemObject, bytes: Uint8Array, off = 0, len = bytes.length - off) {
  return { stag: mr.stag, to: hostMemory.addressOf(bytes) + BigInt(off), len };
}

export interface Pair {
  a: Side;
  b: Side;
  transport: TransportName | IbTransportName;
  /** The TCP listener of an iWARP pair (null on loopback). */
  server: net.Server | null;
  close(): Promise<void>;
}

/** The transports a semantic suite runs on. */
export type TransportName = 'iwarp' | 'loopback';
/** The transports the InfiniBand suites run on ('loopback-ib': IB-state QPs over the loopback). */
export type IbTransportName = 'loopback-ib' | 'rocev2';
/**
 * Every transport the suites run on; `SOFTRDMA_TEST_TRANSPORTS=loopback` (comma-separated)
 * narrows a run to some of them.
 */
export const TRANSPORTS: readonly TransportName[] = (() => {
  const all: TransportName[] = ['iwarp', 'loopback'];
  const want = process.env.SOFTRDMA_TEST_TRANSPORTS?.split(',').map((s) => s.trim());
  return want ? all.filter((t) => want.includes(t)) : all;
})();

/**
 * The transports the InfiniBand (IB state set) suites run on; `SOFTRDMA_TEST_TRANSPORTS` narrows
 * them too. The RoCEv2 transport adds its name here.
 */
export const IB_TRANSPORTS: readonly IbTransportName[] = (() => {
  const all: IbTransportName[] = ['loopback-ib', 'rocev2'];
  const want = process.env.SOFTRDMA_TEST_TRANSPORTS?.split(',').map((s) => s.trim());
  return want ? all.filter((t) => want.includes(t)) : all;
})();

/** The one GID of the test IB RNICs: ::ffff:127.0.0.1 (IPv4-mapped, RoCE v2). */
export const TEST_GID = Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1]);

/** An InfiniBand (RoCEv2-family) RNIC whose QPs are carried by the IB binder `link`. */
export function ibRnic(link = 'loopback', over: Partial<RnicConfig> = {}): Rnic {
  return new Rnic({ ...DEFAULT_CONFIG, name: 'softroce-test', family: 'ib', ibLink: link, gids: () => [TEST_GID], ...over });
}

/** A side on a new IB RNIC (or `rnic`) with a QP of `service`, still in Reset. */
export function makeIbSide(service: IbService = 'RC', rnic: Rnic = ibRnic(), over: Partial<QpInit> = {}): Side {
  return makeSide(rnic, { service, ...over });
}

/** IB connection parameters of {@link ibToRts}. */
export interface IbPath {
  pathMtu?: number;
  /** The peer's GID (default {@link TEST_GID}). */
  dgid?: Uint8Array;
  /** RC: the Local ACK Timeout, retry counts and RNR timer (defaults 14, 7, 7, 12). */
  timeout?: number;
  retryCnt?: number;
  rnrRetry?: number;
  minRnrTimer?: number;
  psn?: number;
  peerPsn?: number;
  access?: { read: boolean; write: boolean; atomic: boolean };
}

/** Moves an IB QP Reset→INIT→RTR→RTS with the attributes the manual's §4.5.1 table requires. */
export function ibToRts(qp: Qp, destQpn: number, path: IbPath = {}): RiRet {
  const rc = qp.service === 'RC';
  const ud = qp.service === 'UD';
  const access = path.access ?? { read: true, write: true, atomic: false };
  let st = qp.modify({
    nextState: RiQpState.INITIALIZED,
    ib: ud ? { pkeyIndex: 0, port: 1, qkey: 0x11111111 } : { pkeyIndex: 0, port: 1, access },
  });
  if (st !== RiRet.SUCCESS) return st;
  const av = { dgid: path.dgid ?? TEST_GID, sgidIndex: 0, hopLimit: 64, trafficClass: 0, flowLabel: 0, sl: 0, port: 1 };
  st = qp.modify(
    ud
      ? { nextState: RiQpState.READY_TO_RECEIVE }
      : {
          nextState: RiQpState.READY_TO_RECEIVE,
          ...(rc && { ird: 8 }),
          ib: { av, pathMtu: path.pathMtu ?? 3, destQpn, rqPsn: path.peerPsn ?? 0, ...(rc && { minRnrTimer: path.minRnrTimer ?? 12 }) },
        },
  );
  if (st !== RiRet.SUCCESS) return st;
  return qp.modify({
    nextState: RiQpState.READY_TO_SEND,
    ...(rc && { ord: 8 }),
    ib: rc
      ? { timeout: path.timeout ?? 14, retryCnt: path.retryCnt ?? 7, rnrRetry: path.rnrRetry ?? 7, sqPsn: path.psn ?? 0 }
      : { sqPsn: path.psn ?? 0 },
  });
}

/** The RoCEv2 GID of an address: IPv4-mapped for `a.b.c.d`, the address itself for IPv6. */
export function gidOf(address: string): Uint8Array {
  const g = addressToGid(address);
  if (!g) throw new RangeError(`not an IPv4 or IPv6 address: ${address}`);
  return g;
}

/**
 * RoCEv2 over loopback UDP: switches the sides' RNICs (their QPs still in Reset) to the RoCEv2
 * link, `a` on 127.0.0.1 and `b` on 127.0.0.2, both on one ephemeral UDP port (the RoCEv2 port
 * of a real host is 4791; parallel test files must not share it). Returns the peers' GIDs.
 */
async function useRoce(a: Side, b: Side): Promise<[Uint8Array, Uint8Array, RoceNet]> {
  const probe = RoceNet.acquire('127.0.0.1', 0);
  await probe.ready;
  const port = probe.port;
  const ga = gidOf('127.0.0.1');
  const gb = gidOf('127.0.0.2');
  for (const [s, g] of [
    [a, ga],
    [b, gb],
  ] as const) {
    const c = s.rnic.config as RnicConfig;
    c.ibLink = 'rocev2';
    c.roceUdpPort = port;
    c.gids = () => [g];
  }
  // The QPs take their own references on bind; the probe's socket is the one `a` uses.
  return [ga, gb, probe];
}

/** Joins two IB QPs by QPN and moves both to RTS (b first, as a passive side). */
async function connectIb(
  a: Side,
  b: Side,
  opts: { transport?: TransportName | IbTransportName; beforeRts?: (s: Side) => void; pathMtu?: number; ib?: IbPath },
): Promise<Pair> {
  const roce = opts.transport === 'rocev2';
  const [ga, gb, probe] = roce ? await useRoce(a, b) : [TEST_GID, TEST_GID, null];
  try {
    for (const [s, peer, dgid] of [
      [b, a, ga],
      [a, b, gb],
    ] as const) {
      opts.beforeRts?.(s);
      const st = ibToRts(s.qp, peer.qp.id, { ...opts.ib, pathMtu: opts.pathMtu, psn: opts.ib?.psn ?? 0, peerPsn: opts.ib?.psn ?? 0, dgid });
      if (st !== RiRet.SUCCESS) throw new Error(`IB modify QP[${s.qp.id}]: ${RiRet[st]}`);
    }
  } finally {
    probe?.release();
  }
  return Promise.resolve({
    a,
    b,
    transport: roce ? 'rocev2' : 'loopback-ib',
    server: null,
    async close() {
      for (const s of [a, b]) if (s.qp.state !== RiQpState.ERROR) s.qp.modify({ nextState: RiQpState.ERROR });
    },
  });
}

/**
 * Connects side `a` (MPA Initiator) to side `b` (Responder) over 127.0.0.1, and moves both
 * QPs to RTS. `beforeRts` runs on each side before its Modify (post receives there).
 */
export async function connectPair(
  a: Side,
  b: Side,
  opts: {
    transport?: TransportName | IbTransportName;
    mpaA?: Partial<MpaParams>;
    mpaB?: Partial<MpaParams>;
    beforeRts?: (s: Side) => void;
    /** Loopback only: the fault hook's plan per direction. */
    faults?: { ab?: FaultPlan; ba?: FaultPlan };
    /** IB transports: the path MTU (`enum ibv_mtu`, default 3 = 1024). */
    pathMtu?: number;
    /** IB transports: timeouts and retry counts of the RC QPs. */
    ib?: IbPath;
  } = {},
): Promise<Pair> {
  if (opts.transport === 'loopback') return connectLoopback(a, b, opts);
  if (opts.transport === 'loopback-ib' || opts.transport === 'rocev2') return connectIb(a, b, opts);
  const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as net.AddressInfo).port;
  const base: MpaParams = { revision: 2, crc: false, markers: false, ird: 8, ord: 8 };
  const passive = (async () => {
    const [sock] = (await once(server, 'connection')) as [net.Socket];
    const req = await mpaReadRequest(sock);
    const out = mpaAccept(sock, req.frame, { ...base, ...opts.mpaB });
    opts.beforeRts?.(b);
    const st = b.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp: out.stream, llpAttrs: out.mpa });
    if (st !== RiRet.SUCCESS) throw new Error(`modify b: ${RiRet[st]}`);
  })();
  const sock = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  await once(sock, 'connect');
  const out = await mpaConnect(sock, { ...base, ...opts.mpaA });
  opts.beforeRts?.(a);
  const st = a.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp: out.stream, llpAttrs: out.mpa });
  if (st !== RiRet.SUCCESS) throw new Error(`modify a: ${RiRet[st]}`);
  await passive;
  return {
    a,
    b,
    transport: 'iwarp',
    server,
    async close() {
      server.close();
      for (const s of [a, b]) s.qp.transport?.reset();
    },
  };
}

/**
 * Connects `a` and `b` through the in-process loopback transport: a pair of loopback LLP
 * handles given to each QP's Idle→RTS modify, as a consumer of RNICPI would give a stream.
 */
function connectLoopback(
  a: Side,
  b: Side,
  opts: { beforeRts?: (s: Side) => void; faults?: { ab?: FaultPlan; ba?: FaultPlan } },
): Promise<Pair> {
  const [ea, eb] = loopbackPair(opts.faults);
  for (const [s, e] of [
    [b, eb],
    [a, ea],
  ] as const) {
    opts.beforeRts?.(s);
    const st = s.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp: e });
    if (st !== RiRet.SUCCESS) throw new Error(`modify: ${RiRet[st]}`);
  }
  return Promise.resolve({
    a,
    b,
    transport: 'loopback',
    server: null,
    async close() {
      for (const s of [a, b]) s.qp.transport?.reset();
    },
  });
}

/**
 * The LLP of a connected side, for tests that act on it directly: stop reading, send a FIN
 * (graceful close), or reset. iWARP acts on the TCP socket; loopback on its endpoint.
 */
export function llp(s: Side): { pause(): void; end(): void; reset(): void } {
  const t = s.qp.transport;
  if (t instanceof IwarpConn) {
    return { pause: () => t.socket.pause(), end: () => t.socket.end(), reset: () => t.socket.resetAndDestroy() };
  }
  if (t instanceof LoopbackConn) return { pause: () => t.pauseRx(), end: () => t.closeGraceful(), reset: () => t.reset() };
  throw new Error('the QP has no transport');
}

/**
 * The Terminate code a QP recorded, as iWARP puts it on the wire: a loopback QP records the
 * core's neutral fault, which is shown through the iWARP mapping so one assertion covers both.
 */
export function termCode(q: Qp): [number, number, number] {
  const t = q.terminate;
  if (!t) throw new Error(`QP[${q.id}] has no Terminate`);
  if (t.fault !== undefined) {
    const e = terminateOfFault(t.fault);
    return [e.layer, e.etype, e.ecode];
  }
  const c = t.codes ?? {};
  return [c.layer!, c.etype!, c.ecode!];
}

/**
 * Waits for the next completion on `cq` without spinning: arms the CQ (any completion) and
 * resolves from its completion handler. Callers poll again afterwards (poll, arm, poll).
 */
export function waitCq(cq: Cq): Promise<void> {
  cq.arm(NotifyType.ANY);
  // Entries already queued never fire an arm: check after arming (no lost notification).
  if (cq.depth > 0) return Promise.resolve();
  return new Promise((resolve) => {
    const list = cqWaiters.get(cq.osData) ?? [];
    list.push(resolve);
    cqWaiters.set(cq.osData, list);
  });
}

/** Polls `cq` until `n` completions arrived or `ms` passed. */
export async function pollN(cq: Cq, n: number, ms = 5000): Promise<WorkCompletion[]> {
  const out: WorkCompletion[] = [];
  const deadline = Date.now() + ms;
  const buf: WorkCompletion[] = [];
  while (out.length < n) {
    const k = cq.poll(buf, n - out.length);
    for (let i = 0; i < k; i++) out.push(buf[i]!);
    if (out.length >= n) break;
    if (Date.now() > deadline) throw new Error(`timed out: ${out.length}/${n} completions`);
    await Promise.race([waitCq(cq), new Promise((r) => setTimeout(r, 50))]);
  }
  return out;
}

/** Waits until `pred` holds (checked every tick) or throws after `ms`. */
export async function until(pred: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

export function send(qp: Qp, wr: Partial<SqWrIn> & { type: RiWrType }): RiRet {
  return postSq(qp, { flags: RiWrFlags.SIGNALED_FLAG, id: 1n, ...wr }, true);
}

export function recv(qp: Qp, id: bigint, sgl: { stag: number; to: bigint; len: number }[]): RiRet {
  return postRq(qp, 0, id, sgl);
}

/**
 * Test helpers that drive the RNIC engine directly: make a connected QP pair over loopback
 * TCP (MPA start-up included), register buffers, post and poll.
 */
import { once } from 'node:events';
import net from 'node:net';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiMemFlags, RiQpState, RiWrFlags } from '../../src/rnicpi/types.js';
import { NotifyType } from '../../src/rnic/cq.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import { mrReg } from '../../src/rnic/memops.js';
import { attachIwarp, IwarpConn } from '../../src/iwarp/datapath.js';
import { terminateOfFault } from '../../src/iwarp/terminate-map.js';
import { mpaAccept, mpaConnect, mpaReadRequest } from '../../src/iwarp/mpa-startup.js';
import { postRq, postSq } from '../../src/rnic/post.js';
import { DEFAULT_CONFIG, Rnic } from '../../src/rnic/rnic.js';
import { riCmQp } from '../../src/iwarp/cm.js';
import { createSoftrdmaVp, SOFTRDMA_KERNEL_OPS } from '../../src/provider/softrdma.js';
import { RiConsumerDomain, RiPblMode } from '../../src/rnicpi/types.js';
import { registerLlpBinder } from '../../src/rnic/transport.js';
import { LoopbackConn, loopbackPair } from '../../src/loopback/loopback.js';
import { RoceNet } from '../../src/roce/net.js';
import '../../src/roce/transport.js';
// Engine-level tests attach iWARP streams the way the provider does.
registerLlpBinder(attachIwarp);
export const ALL_ACCESS = RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_READ | RiMemFlags.REMOTE_WRITE;
export const DEFAULT_MPA = { crc: false, recvMarkers: false, xmitMarkers: false, ddpRdmapVersion: 1 };
export function must(v) {
    if (typeof v === 'number')
        throw new Error(`engine call failed: ${RiRet[v]} (${v})`);
    return v;
}
/** Waiters for CQ notifications, by CQ os_data. */
const cqWaiters = new Map();
const backed = new WeakMap();
/**
 * An engine RNIC reached through the softrdma provider (`ri_rnic_open`, `ri_rnic_get_hdl`), for
 * tests of RNICPI consumers such as the connection manager: {@link cmSide} makes QPs on it
 * through `ri_qp_create`, and the engine objects stay at hand for posting and polling.
 */
export function riRnic(config = {}) {
    const vp = createSoftrdmaVp(config);
    const ops = SOFTRDMA_KERNEL_OPS;
    const okStatus = (st, what) => {
        if (st !== RiRet.SUCCESS)
            throw new Error(`${what}: ${RiRet[st]}`);
    };
    okStatus(ops.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, { rnic: vp.name }).status, 'ri_rnic_open');
    const h = ops.ri_cq_set_event_handler(vp, 0, (_os, cqOs) => {
        for (const w of cqWaiters.get(cqOs)?.splice(0) ?? [])
            w();
    });
    if (h.status !== RiRet.SUCCESS)
        throw new Error(`ri_cq_set_event_handler: ${RiRet[h.status]}`);
    const g = ops.ri_rnic_get_hdl(vp, RiConsumerDomain.KERNEL, null, { consumer: 'test' });
    if (g.status !== RiRet.SUCCESS)
        throw new Error(`ri_rnic_get_hdl: ${RiRet[g.status]}`);
    backed.set(vp.engine, { ops, rnic: g.rnic, handlerId: h.handler_id });
    return vp.engine;
}
/**
 * A QP made with `ri_qp_create` on an RNIC from {@link riRnic} (default: a new one), with the
 * attributes of {@link makeSide}: its own PD and one CQ for both queues.
 */
export function cmSide(rnic = riRnic(), over = {}) {
    const f = cmQps(rnic, 1024, over);
    const { qp, cm } = f.make();
    return { rnic, pd: f.pd, cq: f.cq, qp, cm };
}
/**
 * One PD and one CQ of `cqSize` entries made through RNICPI on an RNIC from {@link riRnic}, and a
 * maker of QPs on them (`ri_qp_create`, attributes of {@link makeSide} with `over`): each QP as
 * the engine object and as the CM's {@link CmQp}.
 */
export function cmQps(rnic, cqSize, over = {}) {
    const b = backed.get(rnic);
    if (!b)
        throw new Error('cmSide/cmQps need an RNIC made by riRnic()');
    const { ops } = b;
    const p = ops.ri_pd_alloc(b.rnic, null, 'pd');
    if (p.status !== RiRet.SUCCESS)
        throw new Error(`ri_pd_alloc: ${RiRet[p.status]}`);
    const c = ops.ri_cq_create(b.rnic, { num_cqe: cqSize, handler_id: b.handlerId }, null, {});
    if (c.status !== RiRet.SUCCESS)
        throw new Error(`ri_cq_create: ${RiRet[c.status]}`);
    const i = { sqSize: 64, rqSize: 64, sqMaxSges: 4, sqMaxSgesRdmaw: 4, rqMaxSges: 4, enableRdmaRead: true, enableRdmaWrite: true, ord: 8, ird: 8, stag0Enabled: false, enableBind: true, ...over };
    const make = () => {
        const r = ops.ri_qp_create(b.rnic, {
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
        }, null, 'qp');
        if (r.status !== RiRet.SUCCESS)
            throw new Error(`ri_qp_create: ${RiRet[r.status]}`);
        // The engine QP behind the handle, for the engine-level post/poll helpers.
        return { qp: r.qp.qp, cm: riCmQp(ops, b.rnic, r.qp) };
    };
    return { pd: p.pd.pd, cq: c.cq.cq, make };
}
/** A QP's creation attributes: one PD, one CQ for both queues, small queues, Read/Write on. */
export function qpInit(pd, cq, over = {}) {
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
        mpa: DEFAULT_MPA,
        osData: null,
        ...over,
    };
}
export function makeSide(rnic = new Rnic(), over = {}) {
    const pd = must(rnic.pdAlloc('pd'));
    const h = rnic.setCqHandler(0, (_os, cqOs) => {
        for (const w of cqWaiters.get(cqOs)?.splice(0) ?? [])
            w();
    });
    const cqKey = {};
    const cq = must(rnic.cqCreate(1024, h.id, cqKey));
    const qp = must(rnic.qpCreate({
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
        mpa: DEFAULT_MPA,
        osData: 'qp',
        ...over,
    }));
    return { rnic, pd, cq, qp };
}
export function reg(side, bytes, flags = ALL_ACCESS) {
    return must(mrReg(side.rnic, { va: hostMemory.addressOf(bytes), length: bytes.length, flags, pd: side.pd, key: 0 }, null));
}
export function sge(mr, bytes, off = 0, len = bytes.length - off) {
    return { stag: mr.stag, to: hostMemory.addressOf(bytes) + BigInt(off), len };
}
/**
 * Every transport the suites run on; `SOFTRDMA_TEST_TRANSPORTS=loopback` (comma-separated)
 * narrows a run to some of them.
 */
export const TRANSPORTS = (() => {
    const all = ['iwarp', 'loopback'];
    const want = process.env.SOFTRDMA_TEST_TRANSPORTS?.split(',').map((s) => s.trim());
    return want ? all.filter((t) => want.includes(t)) : all;
})();
/**
 * The transports the InfiniBand (IB state set) suites run on; `SOFTRDMA_TEST_TRANSPORTS` narrows
 * them too. The RoCEv2 transport adds its name here.
 */
export const IB_TRANSPORTS = (() => {
    const all = ['loopback-ib', 'rocev2'];
    const want = process.env.SOFTRDMA_TEST_TRANSPORTS?.split(',').map((s) => s.trim());
    return want ? all.filter((t) => want.includes(t)) : all;
})();
/** The one GID of the test IB RNICs: ::ffff:127.0.0.1 (IPv4-mapped, RoCE v2). */
export const TEST_GID = Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1]);
/** An InfiniBand (RoCEv2-family) RNIC whose QPs are carried by the IB binder `link`. */
export function ibRnic(link = 'loopback', over = {}) {
    return new Rnic({ ...DEFAULT_CONFIG, name: 'softroce-test', transport: 'rocev2', ibLink: link, gids: () => [TEST_GID], ...over });
}
/** A side on a new IB RNIC (or `rnic`) with a QP of `service`, still in Reset. */
export function makeIbSide(service = 'RC', rnic = ibRnic(), over = {}) {
    return makeSide(rnic, { service, ...over });
}
/** Moves an IB QP Reset→INIT→RTR→RTS with the attributes the manual's §4.5.1 table requires. */
export function ibToRts(qp, destQpn, path = {}) {
    const rc = qp.service === 'RC';
    const ud = qp.service === 'UD';
    const access = path.access ?? { read: true, write: true, atomic: false };
    let st = qp.modify({ nextState: RiQpState.INITIALIZED, ib: ud ? { pkeyIndex: 0, port: 1, qkey: 0x11111111 } : { pkeyIndex: 0, port: 1, access } });
    if (st !== RiRet.SUCCESS)
        return st;
    const av = { dgid: path.dgid ?? TEST_GID, sgidIndex: 0, hopLimit: 64, trafficClass: 0, flowLabel: 0, sl: 0, port: 1 };
    st = qp.modify(ud
        ? { nextState: RiQpState.READY_TO_RECEIVE }
        : {
            nextState: RiQpState.READY_TO_RECEIVE,
            ...(rc && { ird: 8 }),
            ib: { av, pathMtu: path.pathMtu ?? 3, destQpn, rqPsn: path.peerPsn ?? 0, ...(rc && { minRnrTimer: path.minRnrTimer ?? 12 }) },
        });
    if (st !== RiRet.SUCCESS)
        return st;
    return qp.modify({
        nextState: RiQpState.READY_TO_SEND,
        ...(rc && { ord: 8 }),
        ib: rc
            ? { timeout: path.timeout ?? 14, retryCnt: path.retryCnt ?? 7, rnrRetry: path.rnrRetry ?? 7, sqPsn: path.psn ?? 0 }
            : { sqPsn: path.psn ?? 0 },
    });
}
/** The IPv4-mapped GID of `a.b.c.d`. */
export function gidOf(ipv4) {
    const g = new Uint8Array(16);
    g[10] = 0xff;
    g[11] = 0xff;
    g.set(ipv4.split('.').map(Number), 12);
    return g;
}
/**
 * RoCEv2 over loopback UDP: switches the sides' RNICs (their QPs still in Reset) to the RoCEv2
 * link, `a` on 127.0.0.1 and `b` on 127.0.0.2, both on one ephemeral UDP port (the RoCEv2 port
 * of a real host is 4791; parallel test files must not share it). Returns the peers' GIDs.
 */
async function useRoce(a, b) {
    const probe = RoceNet.acquire('127.0.0.1', 0);
    await probe.ready;
    const port = probe.port;
    const ga = gidOf('127.0.0.1');
    const gb = gidOf('127.0.0.2');
    for (const [s, g] of [
        [a, ga],
        [b, gb],
    ]) {
        const c = s.rnic.config;
        c.ibLink = 'rocev2';
        c.roceUdpPort = port;
        c.gids = () => [g];
    }
    // The QPs take their own references on bind; the probe's socket is the one `a` uses.
    return [ga, gb, probe];
}
/** Joins two IB QPs by QPN and moves both to RTS (b first, as a passive side). */
async function connectIb(a, b, opts) {
    const roce = opts.transport === 'rocev2';
    const [ga, gb, probe] = roce ? await useRoce(a, b) : [TEST_GID, TEST_GID, null];
    try {
        for (const [s, peer, dgid] of [
            [b, a, ga],
            [a, b, gb],
        ]) {
            opts.beforeRts?.(s);
            const st = ibToRts(s.qp, peer.qp.id, { ...opts.ib, pathMtu: opts.pathMtu, psn: opts.ib?.psn ?? 0, peerPsn: opts.ib?.psn ?? 0, dgid });
            if (st !== RiRet.SUCCESS)
                throw new Error(`IB modify QP[${s.qp.id}]: ${RiRet[st]}`);
        }
    }
    finally {
        probe?.release();
    }
    return Promise.resolve({
        a,
        b,
        transport: roce ? 'rocev2' : 'loopback-ib',
        server: null,
        async close() {
            for (const s of [a, b])
                if (s.qp.state !== RiQpState.ERROR)
                    s.qp.modify({ nextState: RiQpState.ERROR });
        },
    });
}
/**
 * Connects side `a` (MPA Initiator) to side `b` (Responder) over 127.0.0.1, and moves both
 * QPs to RTS. `beforeRts` runs on each side before its Modify (post receives there).
 */
export async function connectPair(a, b, opts = {}) {
    if (opts.transport === 'loopback')
        return connectLoopback(a, b, opts);
    if (opts.transport === 'loopback-ib' || opts.transport === 'rocev2')
        return connectIb(a, b, opts);
    const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = server.address().port;
    const base = { revision: 2, crc: false, markers: false, ird: 8, ord: 8 };
    const passive = (async () => {
        const [sock] = (await once(server, 'connection'));
        const req = await mpaReadRequest(sock);
        const out = mpaAccept(sock, req.frame, { ...base, ...opts.mpaB });
        opts.beforeRts?.(b);
        const st = b.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp: out.stream, mpa: out.mpa });
        if (st !== RiRet.SUCCESS)
            throw new Error(`modify b: ${RiRet[st]}`);
    })();
    const sock = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    await once(sock, 'connect');
    const out = await mpaConnect(sock, { ...base, ...opts.mpaA });
    opts.beforeRts?.(a);
    const st = a.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp: out.stream, mpa: out.mpa });
    if (st !== RiRet.SUCCESS)
        throw new Error(`modify a: ${RiRet[st]}`);
    await passive;
    return {
        a,
        b,
        transport: 'iwarp',
        server,
        async close() {
            server.close();
            for (const s of [a, b])
                s.qp.transport?.reset();
        },
    };
}
/**
 * Connects `a` and `b` through the in-process loopback transport: a pair of loopback LLP
 * handles given to each QP's Idle→RTS modify, as a consumer of RNICPI would give a stream.
 */
function connectLoopback(a, b, opts) {
    const [ea, eb] = loopbackPair(opts.faults);
    for (const [s, e] of [
        [b, eb],
        [a, ea],
    ]) {
        opts.beforeRts?.(s);
        const st = s.qp.modify({ nextState: RiQpState.READY_TO_SEND, llp: e });
        if (st !== RiRet.SUCCESS)
            throw new Error(`modify: ${RiRet[st]}`);
    }
    return Promise.resolve({
        a,
        b,
        transport: 'loopback',
        server: null,
        async close() {
            for (const s of [a, b])
                s.qp.transport?.reset();
        },
    });
}
/**
 * The LLP of a connected side, for tests that act on it directly: stop reading, send a FIN
 * (graceful close), or reset. iWARP acts on the TCP socket; loopback on its endpoint.
 */
export function llp(s) {
    const t = s.qp.transport;
    if (t instanceof IwarpConn) {
        return { pause: () => t.socket.pause(), end: () => t.socket.end(), reset: () => t.socket.resetAndDestroy() };
    }
    if (t instanceof LoopbackConn)
        return { pause: () => t.pauseRx(), end: () => t.closeGraceful(), reset: () => t.reset() };
    throw new Error('the QP has no transport');
}
/**
 * The Terminate code a QP recorded, as iWARP puts it on the wire: a loopback QP records the
 * core's neutral fault, which is shown through the iWARP mapping so one assertion covers both.
 */
export function termCode(q) {
    const t = q.terminate;
    if (!t)
        throw new Error(`QP[${q.id}] has no Terminate`);
    if (t.fault !== undefined) {
        const e = terminateOfFault(t.fault);
        return [e.layer, e.etype, e.ecode];
    }
    return [t.layer, t.etype, t.ecode];
}
/**
 * Waits for the next completion on `cq` without spinning: arms the CQ (any completion) and
 * resolves from its completion handler. Callers poll again afterwards (poll, arm, poll).
 */
export function waitCq(cq) {
    cq.arm(NotifyType.ANY);
    // Entries already queued never fire an arm: check after arming (no lost notification).
    if (cq.depth > 0)
        return Promise.resolve();
    return new Promise((resolve) => {
        const list = cqWaiters.get(cq.osData) ?? [];
        list.push(resolve);
        cqWaiters.set(cq.osData, list);
    });
}
/** Polls `cq` until `n` completions arrived or `ms` passed. */
export async function pollN(cq, n, ms = 5000) {
    const out = [];
    const deadline = Date.now() + ms;
    const buf = [];
    while (out.length < n) {
        const k = cq.poll(buf, n - out.length);
        for (let i = 0; i < k; i++)
            out.push(buf[i]);
        if (out.length >= n)
            break;
        if (Date.now() > deadline)
            throw new Error(`timed out: ${out.length}/${n} completions`);
        await Promise.race([waitCq(cq), new Promise((r) => setTimeout(r, 50))]);
    }
    return out;
}
/** Waits until `pred` holds (checked every tick) or throws after `ms`. */
export async function until(pred, ms = 5000, what = 'condition') {
    const deadline = Date.now() + ms;
    while (!pred()) {
        if (Date.now() > deadline)
            throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 1));
    }
}
export function send(qp, wr) {
    return postSq(qp, { flags: RiWrFlags.SIGNALED_FLAG, id: 1n, ...wr }, true);
}
export function recv(qp, id, sgl) {
    return postRq(qp, 0, id, sgl);
}
//# sourceMappingURL=engine.js.map
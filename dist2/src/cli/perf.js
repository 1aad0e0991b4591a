/**
 * `softrdma perf write|read|send|atomic [--bw|--lat] [options] [ADDR]`: perftest's
 * `ib_{write,read,send,atomic}_{bw,lat}`, compatible on the wire with the real perftest
 * (Debian 12's 4.5-0.17, version "6.06") in both roles: with `-R` (and always on the iWARP
 * device) over softrdma's rdma_cm (docs/interop-protocols.md §2, §4); without `-R` on the RoCE
 * device over perftest's TCP exchange and `ibv_modify_qp` (perf-eth.ts).
 *
 * With ADDR it is the client; with `--server` it waits for a client (ours or perftest's);
 * with neither it runs both ends on loopback: it starts itself as the server in a second
 * process on 127.0.0.1 (a free port unless -p is given) and runs the client against it.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ibv_transport_type } from '../verbs/constants.js';
import { closeDevice, devices, openDevice } from '../verbs/device.js';
import { gidIsV4Mapped, pickGid } from './perf-eth.js';
import { PERFTEST_VERSION, PerfError } from './perf-proto.js';
import { MAX_SIZE, PerfRun } from './perf-run.js';
/** Loopback `-a` runs use these iteration counts unless -n is given (perftest: 5000 / 1000). */
export const LOOPBACK_ALL_ITERS_BW = 1000;
export const LOOPBACK_ALL_ITERS_LAT = 200;
export const PERF_HELP = `Usage: softrdma perf write|read|send|atomic [--bw|--lat] [options] [ADDR]

perftest's ib_write_bw, ib_read_bw, ib_send_bw, ib_atomic_bw, ib_write_lat, ib_read_lat,
ib_send_lat and ib_atomic_lat, interoperable with the real perftest (4.5 / "6.06"):
- on the iWARP device (softrdma0, the default) with rdma_cm, as perftest -R (against siw);
  atomic needs a peer that negotiated RFC 7306 (softrdma; not siw);
- on the RoCE device (-d softroce0) without -R: perftest's own TCP exchange on the port
  (KEY_PRINT_FMT_GID keys, "Data ex. method : Ethernet") and QPs connected with
  ibv_modify_qp, as ib_*_bw -d rxe0 -x 1 (against Linux rxe).

  softrdma perf write ADDR          client: run against a server at ADDR (ours or ib_write_bw)
  softrdma perf write --server      server: wait for a client (ours or ib_write_bw ADDR)
  softrdma perf write               loopback: both ends on 127.0.0.1, in two processes
                                    (RoCE: the server's GID is the next 127/8 address)

Both ends must be given the same test, sizes and iterations (perftest does not exchange them).

Options:
      --bw                   bandwidth test (default)
      --lat                  latency test
  -s, --size=SIZE            message size, K/M suffixes allowed (default: bw 65536, lat 2)
  -a, --all                  all sizes 2 B … 8 MiB (2^1 … 2^23)
  -n, --iters=N              iterations per size, 5 … 100000000 (default: write bw 5000,
                             others 1000; loopback with -a and no -n: ${LOOPBACK_ALL_ITERS_BW} (bw) /
                             ${LOOPBACK_ALL_ITERS_LAT} (lat), to finish in well under a minute)
  -D, --duration=SECS        run for SECS seconds instead of -n (not with -a; polls busily)
  -f, --margin=SECS          duration mode: warm-up and cool-down excluded (default SECS/4)
  -p, --port=PORT            port of the control and data connections (default 18515)
  -d, --ib-dev=DEV           device: softrdma0 (iWARP) or softroce0 (RoCEv2); default: rdma_cm's
                             choice (SOFTRDMA_DEVICE, else softrdma0)
  -x, --gid-index=N          RoCE: source GID index (default: the first IPv4-mapped GID;
                             softrdma devinfo -v lists them; SOFTRDMA_ROCE_ADDRS sets them)
  -m, --mtu=MTU              RoCE: path MTU, 256|512|1024|2048|4096 (default: the port's
                             active MTU; the smaller of the two ends' is used)
  -t, --tx-depth=N           send queue depth (default: bw 128, lat 1)
  -r, --rx-depth=N           receive queue depth, send tests (default 512)
  -q, --qp=N                 number of QPs / data connections (default 1)
  -Q, --cq-mod=N             a completion every N sends (default 100; 1 above 8 KiB)
  -l, --post_list=N          bw tests: post N work requests per ibv_post_send, chained,
                             one completion per list (CQ moderation = N)
      --perform_warm_up      bw tests: run the first size once untimed before measuring
                             (steady state: JIT-compiled code, grown TCP windows); both
                             ends must be given it
  -o, --outs=N               outstanding reads (or atomics), read and atomic tests
                             (default: the device's 128)
  -A, --atomic_type=TYPE     atomic tests: CMP_AND_SWAP or FETCH_AND_ADD (default); the
                             message size is always 8
  -N, --noPeak               do not compute the peak bandwidth
      --report_gbits         report Gb/s instead of MB/s
  -R, --rdma_cm              connect with rdma_cm (the iWARP device always does; RoCE
                             without -R uses perftest's TCP exchange)
  -F, --CPU-freq             accepted and ignored
  -I, --inline_size=N        accepted; inline data is 0 on this device (as on siw)
  -e, --events               sleep on completion events (the default here; perftest polls)
      --busy-poll            poll completions in a loop (yielding between polls) instead of
                             sleeping on completion events
      --json                 one JSON object per result row, nothing else on stdout
      --dump-buffer=FILE     after the run, write the data buffer to FILE: the local
                             sources/Read sinks, then the areas the peer targets (each
                             max(size, 4096) octets per QP), to check what was placed
      --server               be the server
      --bind=ADDR            server: address to bind (default 0.0.0.0)
  -V, --version              print the perftest version we claim and exit
  -h, --help                 show this help

Latency is half a round trip for write and send, a whole Read for read. ib_write_lat waits
for inbound Writes by watching memory, so it always polls.
`;
const VERBS = ['write', 'read', 'send', 'atomic'];
const ATOMIC_TYPES = ['CMP_AND_SWAP', 'FETCH_AND_ADD'];
class UsageError extends Error {
}
/** `strtol(s, &end, 0)` that must consume the whole string. */
function cInt(s, name) {
    const t = s.trim();
    let v;
    if (/^[+-]?0x[0-9a-f]+$/i.test(t))
        v = Number.parseInt(t.replace(/0x/i, ''), 16) * (t.startsWith('-') ? -1 : 1);
    else if (/^[+-]?0[0-7]+$/.test(t))
        v = Number.parseInt(t, 8);
    else if (/^[+-]?\d+$/.test(t))
        v = Number.parseInt(t, 10);
    else
        throw new UsageError(` ${name} argument ${s} should be int`);
    return v;
}
function inRange(s, name, min, max) {
    const v = cInt(s, name);
    if (v < min || v > max)
        throw new UsageError(` ${name} should be between ${min} and ${max}`);
    return v;
}
function positive(s, name) {
    const v = cInt(s, name);
    if (v <= 0)
        throw new UsageError(` ${name} must be positive`);
    return v;
}
/** `-s` with perftest's K and M suffixes. */
function parseSize(s) {
    let t = s.trim();
    let factor = 1;
    if (t.endsWith('K')) {
        factor = 1024;
        t = t.slice(0, -1);
    }
    else if (t.endsWith('M')) {
        factor = 1024 * 1024;
        t = t.slice(0, -1);
    }
    const v = cInt(t, 'Message Size') * factor;
    // perftest allows up to UINT_MAX / 2; we keep the buffers (2 × size) within 1 GiB each.
    if (v < 1 || v > 2 ** 30)
        throw new UsageError(` Message Size should be between 1 and ${2 ** 30}`);
    return v;
}
/** Parses the command line into run parameters, with perftest's defaults and dependencies. */
export function parsePerfArgs(argv, loopbackDefaults = true) {
    const { values: v, positionals } = parseArgs({
        args: [...argv],
        options: {
            bw: { type: 'boolean' },
            lat: { type: 'boolean' },
            size: { type: 'string', short: 's' },
            all: { type: 'boolean', short: 'a' },
            iters: { type: 'string', short: 'n' },
            duration: { type: 'string', short: 'D' },
            margin: { type: 'string', short: 'f' },
            port: { type: 'string', short: 'p' },
            'ib-dev': { type: 'string', short: 'd' },
            'tx-depth': { type: 'string', short: 't' },
            'rx-depth': { type: 'string', short: 'r' },
            qp: { type: 'string', short: 'q' },
            'cq-mod': { type: 'string', short: 'Q' },
            post_list: { type: 'string', short: 'l' },
            perform_warm_up: { type: 'boolean' },
            outs: { type: 'string', short: 'o' },
            atomic_type: { type: 'string', short: 'A' },
            noPeak: { type: 'boolean', short: 'N' },
            rdma_cm: { type: 'boolean', short: 'R' },
            'gid-index': { type: 'string', short: 'x' },
            mtu: { type: 'string', short: 'm' },
            'CPU-freq': { type: 'boolean', short: 'F' },
            inline_size: { type: 'string', short: 'I' },
            report_gbits: { type: 'boolean' },
            'busy-poll': { type: 'boolean' },
            events: { type: 'boolean', short: 'e' },
            json: { type: 'boolean' },
            'dump-buffer': { type: 'string' },
            server: { type: 'boolean' },
            bind: { type: 'string' },
            'loopback-child': { type: 'boolean' },
            version: { type: 'boolean', short: 'V' },
            help: { type: 'boolean', short: 'h' },
        },
        allowPositionals: true,
        strict: true,
    });
    if (v.help)
        return 'help';
    if (v.version)
        return 'version';
    const [test, addr, ...extra] = positionals;
    if (!test)
        throw new UsageError(' missing the test: write, read, send or atomic');
    if (!VERBS.includes(test))
        throw new UsageError(` unknown test '${test}': write, read, send or atomic`);
    if (extra.length)
        throw new UsageError(` unexpected argument '${extra[0]}'`);
    if (v.bw && v.lat)
        throw new UsageError(' --bw and --lat exclude each other');
    if (v.events && v['busy-poll'])
        throw new UsageError(' --events and --busy-poll exclude each other');
    if (v.server && addr)
        throw new UsageError(' --server takes no ADDR');
    if (v.bind && !v.server)
        throw new UsageError(' --bind is for --server');
    const verb = test;
    const lat = !!v.lat;
    const mode = v.server ? 'server' : addr ? 'client' : 'loopback';
    const all = !!v.all;
    const duration = v.duration !== undefined ? positive(v.duration, 'Duration period') : 0;
    if (duration && all)
        throw new UsageError(' Duration mode currently doesn\'t support running on all sizes.');
    let iters = !lat && verb === 'write' ? 5000 : 1000;
    if (v.iters !== undefined)
        iters = inRange(v.iters, 'Iteration num', 5, 100_000_000);
    else if (all && mode === 'loopback' && loopbackDefaults)
        iters = lat ? LOOPBACK_ALL_ITERS_LAT : LOOPBACK_ALL_ITERS_BW;
    let size = lat ? 2 : 65536;
    if (v.size !== undefined)
        size = parseSize(v.size);
    if (all)
        size = MAX_SIZE;
    let atomicType;
    if (verb === 'atomic') {
        // perftest: atomics are always 8 bytes (one size, even with -a).
        atomicType = (v.atomic_type ?? 'FETCH_AND_ADD');
        if (!ATOMIC_TYPES.includes(atomicType))
            throw new UsageError(` Invalid Atomic type! please choose from {CMP_AND_SWAP,FETCH_AND_ADD}`);
        if (v.size !== undefined && size !== 8)
            throw new UsageError(' Message size for atomic operations is always 8');
        size = 8;
    }
    else if (v.atomic_type !== undefined)
        throw new UsageError(' -A is for the atomic test');
    let txDepth = lat ? 1 : 128;
    if (v['tx-depth'] !== undefined)
        txDepth = inRange(v['tx-depth'], 'Tx depth', 1, 15000);
    let rxDepth = verb === 'send' ? 512 : 1;
    if (v['rx-depth'] !== undefined) {
        rxDepth = inRange(v['rx-depth'], ' Rx depth', 1, 16384);
        if (verb !== 'send' && rxDepth > 1)
            throw new UsageError(' On RDMA verbs rx depth can be only 1');
    }
    const qps = v.qp !== undefined ? inRange(v.qp, 'Num of qp', 1, 64) : 1;
    let cqMod = 100;
    if (v['cq-mod'] !== undefined)
        cqMod = inRange(v['cq-mod'], 'CQ moderation', 1, 1024);
    let port = 18515;
    if (v.port !== undefined)
        port = inRange(v.port, 'Port', mode === 'client' ? 1 : 0, 65535);
    let margin = 0;
    if (duration) {
        margin = v.margin !== undefined ? cInt(v.margin, 'Margin') : Math.floor(duration / 4);
        if (margin < 0)
            throw new UsageError(' Margin must be non-negative');
        if (!(duration > 2 * margin))
            throw new UsageError(' please check that DURATION > 2*MARGIN');
    }
    let outReads = 1;
    if (verb === 'read' || verb === 'atomic') {
        outReads = 128;
        if (v.outs !== undefined) {
            const o = cInt(v.outs, 'Outstanding Reads');
            outReads = o <= 0 || o > 128 ? 128 : o;
        }
    }
    const dev = v['ib-dev'];
    if (dev !== undefined && !devices().some((d) => d.name === dev))
        throw new PerfError(`IB device ${dev} not found`);
    const gidIndex = v['gid-index'] !== undefined ? inRange(v['gid-index'], 'Gid index', 0, 255) : -1;
    // perftest's -m: one of the five IB MTUs, as its mtu_enum accepts them (0 = the port's).
    let mtu = 0;
    if (v.mtu !== undefined) {
        mtu = [256, 512, 1024, 2048, 4096].indexOf(Number(v.mtu)) + 1;
        if (mtu === 0)
            throw new UsageError(` Invalid MTU ${v.mtu}: 256, 512, 1024, 2048 or 4096`);
    }
    // force_dependecies: depths clamped to the iterations, CQ moderation off for big messages.
    if (!duration) {
        if (txDepth > iters)
            txDepth = iters;
        if (verb === 'send' && rxDepth > iters)
            rxDepth = iters;
    }
    if (size > 8192 && !all && v['cq-mod'] === undefined)
        cqMod = 1;
    if (cqMod > txDepth)
        cqMod = txDepth;
    // perftest: a post list implies CQ moderation of its length and whole lists per run.
    let postList = 1;
    if (v.post_list !== undefined) {
        postList = inRange(v.post_list, 'Post list size', 1, 1024);
        if (lat && postList > 1)
            throw new UsageError(' Post list is for bandwidth tests');
        if (postList > 1) {
            if (postList > txDepth)
                throw new UsageError(` Post list size (${postList}) must not exceed the tx depth (${txDepth})`);
            if (!duration && iters % postList !== 0)
                throw new UsageError(' Number of iterations must be a multiple of post list size');
            cqMod = postList;
        }
    }
    if (verb === 'send' && rxDepth % 2 === 1 && !all)
        rxDepth += 1;
    let noPeak = !!v.noPeak;
    if (duration) {
        iters = 0;
        noPeak = true;
    }
    if (!lat && iters > 20000)
        noPeak = true;
    if (!lat && verb === 'send' && mode === 'server')
        noPeak = true;
    const params = {
        verb,
        lat,
        server: mode === 'server',
        ...(dev !== undefined && { dev }),
        rdmaCm: !!v.rdma_cm,
        gidIndex,
        mtu,
        addr: addr ?? '127.0.0.1',
        bind: v.bind ?? '0.0.0.0',
        port,
        size,
        all: all && verb !== 'atomic',
        iters,
        duration,
        margin,
        txDepth,
        rxDepth,
        qps,
        cqMod,
        postList,
        outReads,
        atomicType,
        noPeak,
        gbits: !!v.report_gbits,
        json: !!v.json,
        busyPoll: !!v['busy-poll'],
        warmUp: !lat && !!v.perform_warm_up,
        ...(v['dump-buffer'] !== undefined && { dumpFile: v['dump-buffer'] }),
        progress: false,
    };
    return { params, mode, loopbackChild: !!v['loopback-child'], portGiven: v.port !== undefined, inline: v.inline_size !== undefined };
}
/** The server's command line in loopback mode: the resolved parameters, spelled out. */
function childArgs(p, port) {
    const a = ['perf', p.verb, p.lat ? '--lat' : '--bw'];
    if (p.all)
        a.push('-a');
    else if (p.verb !== 'atomic')
        a.push('-s', String(p.size));
    if (p.duration)
        a.push('-D', String(p.duration), '-f', String(p.margin));
    else
        a.push('-n', String(p.iters));
    a.push('-t', String(p.txDepth), '-q', String(p.qps), '-Q', String(p.cqMod));
    if (p.postList > 1)
        a.push('-l', String(p.postList));
    if (p.verb === 'send')
        a.push('-r', String(p.rxDepth));
    if (p.verb === 'read' || p.verb === 'atomic')
        a.push('-o', String(p.outReads));
    if (p.verb === 'atomic')
        a.push('-A', p.atomicType ?? 'FETCH_AND_ADD');
    if (p.busyPoll)
        a.push('--busy-poll');
    if (p.warmUp)
        a.push('--perform_warm_up');
    if (p.dev !== undefined)
        a.push('-d', p.dev);
    if (p.rdmaCm)
        a.push('-R');
    // The server's GID table is its own loopback address alone (below): index 0.
    if (ethMode(p))
        a.push('-x', '0');
    a.push('--server', '--bind', '127.0.0.1', '-p', String(port), '--loopback-child');
    return a;
}
async function runOne(p, io) {
    const run = new PerfRun(p, io);
    try {
        return await run.run();
    }
    catch (e) {
        run.abort();
        if (e instanceof PerfError) {
            io.err(`softrdma perf: ${e.message.trim()}\n`);
            return 1;
        }
        throw e;
    }
}
/** Whether a run uses perftest's TCP exchange (an InfiniBand device without -R) rather than rdma_cm. */
function ethMode(p) {
    const dev = p.dev === undefined ? devices()[0] : devices().find((d) => d.name === p.dev);
    return !p.rdmaCm && dev?.transport_type === ibv_transport_type.IBV_TRANSPORT_IB;
}
/**
 * The environment of the loopback server. On a RoCE device each process binds UDP 4791 on its
 * GID's address, so the server gets a loopback address of its own as its whole GID table
 * (`SOFTRDMA_ROCE_ADDRS`): the client's address plus one when that is a 127/8 address
 * (127.0.0.1 → 127.0.0.2), else 127.0.0.2.
 */
function childEnv(p) {
    if (!ethMode(p))
        return process.env;
    let child = '127.0.0.2';
    const dev = p.dev === undefined ? devices()[0] : devices().find((d) => d.name === p.dev);
    const ctx = dev ? openDevice(dev) : null;
    if (ctx) {
        const g = pickGid(ctx, p.gidIndex);
        if (g && gidIsV4Mapped(g.gid) && g.gid[12] === 127 && g.gid[15] < 254)
            child = `127.${g.gid[13]}.${g.gid[14]}.${g.gid[15] + 1}`;
        closeDevice(ctx);
    }
    return { ...process.env, SOFTRDMA_ROCE_ADDRS: child };
}
/** Loopback: the server in a child process (it reports its port over IPC), the client here. */
async function loopback(p, port, io) {
    const main = fileURLToPath(new URL('./main.js', import.meta.url));
    const child = spawn(process.execPath, [main, ...childArgs(p, port)], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: childEnv(p) });
    let childErr = '';
    child.stderr?.on('data', (d) => (childErr += d.toString()));
    child.stdout?.resume();
    const exited = new Promise((resolve) => child.on('exit', (code, sig) => resolve(code ?? (sig ? 128 : 1))));
    const ready = await Promise.race([
        new Promise((resolve) => child.on('message', (m) => typeof m?.port === 'number' && resolve(m.port))),
        exited.then(() => -1),
        new Promise((resolve) => setTimeout(() => resolve(-2), 20_000).unref()),
    ]);
    if (ready < 0) {
        if (ready === -2)
            child.kill();
        io.err(`softrdma perf: the loopback server did not start${childErr ? `:\n${childErr}` : ''}\n`);
        return 1;
    }
    let code;
    try {
        code = await runOne({ ...p, addr: '127.0.0.1', port: ready }, io);
    }
    catch (e) {
        child.kill();
        throw e;
    }
    const timer = setTimeout(() => child.kill(), code === 0 ? 15_000 : 2_000);
    const childCode = await exited;
    clearTimeout(timer);
    if (child.connected)
        child.disconnect();
    if (childCode !== 0) {
        io.err(`softrdma perf: the loopback server exited with status ${childCode}${childErr ? `:\n${childErr}` : ''}\n`);
        return code || 1;
    }
    return code;
}
/** One line naming the mode: loopback, server or client, and where. */
function modeLine(p, mode, portGiven) {
    const test = `${p.verb}_${p.lat ? 'lat' : 'bw'}`;
    const perftest = `ib_${p.verb === 'atomic' ? 'atomic' : p.verb}_${p.lat ? 'lat' : 'bw'}${ethMode(p) ? ` -d rxe0 -x 1${p.verb === 'atomic' ? ` -A ${p.atomicType}` : ''}` : ' -R'} ADDR`;
    if (mode === 'server')
        return `${test} server: waiting for a client on ${p.bind} port ${p.port} (softrdma perf ${p.verb} ADDR, or ${perftest})`;
    if (mode === 'client')
        return `${test} client: connecting to ${p.addr} port ${p.port}`;
    return `${test} loopback: server and client on 127.0.0.1${portGiven ? ` port ${p.port}` : ''}, each in its own process (give ADDR to be a client, --server to be a server)`;
}
export async function perf(argv, io) {
    let parsed;
    try {
        parsed = parsePerfArgs(argv);
    }
    catch (e) {
        if (e instanceof UsageError) {
            io.err(`softrdma perf:${e.message}\nRun 'softrdma perf --help' for the options.\n`);
            return 2;
        }
        if (e instanceof PerfError) {
            io.err(`softrdma perf: ${e.message}\n Unable to find the Infiniband/RoCE device\n`);
            return 1;
        }
        throw e;
    }
    if (parsed === 'help') {
        io.out(PERF_HELP);
        return 0;
    }
    if (parsed === 'version') {
        io.out(`Version: ${PERFTEST_VERSION}\n`);
        return 0;
    }
    const { params, mode, loopbackChild } = parsed;
    if (parsed.inline) {
        io.err(' Device not recognized to implement inline feature. Disabling it\n');
    }
    params.progress = process.stdout.isTTY === true && !params.json && !loopbackChild;
    // Which of the three roles this is, since the command line alone does not show it (perftest
    // has no loopback mode). On stderr, so stdout stays perftest's table or the JSON rows.
    if (!params.json && !loopbackChild)
        io.err(`softrdma perf: ${modeLine(params, mode, parsed.portGiven)}\n`);
    if (mode === 'loopback')
        return loopback(params, parsed.portGiven ? params.port : 0, io);
    if (!loopbackChild)
        return runOne(params, io);
    // The loopback server: report the port over IPC, and do not outlive the client's process.
    params.onListening = (port) => process.send?.({ port });
    const orphaned = () => process.exit(1);
    process.once('disconnect', orphaned);
    const code = await runOne(params, io);
    process.off('disconnect', orphaned);
    if (process.connected)
        process.disconnect();
    return code;
}
//# sourceMappingURL=perf.js.map
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
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ibv_transport_type } from '../verbs/constants.js';
import { closeDevice, devices, openDevice } from '../verbs/device.js';
import type { CliIo } from './cli.js';
import { command, helpText, parseCommand } from './spec.js';
import { gidIsV4Mapped, pickGid } from './perf-eth.js';
import { PERFTEST_VERSION, PerfError } from './perf-proto.js';
import { type AtomicType, MAX_SIZE, type PerfParams, type Verb } from './perf-params.js';
import { PerfRun } from './perf-run.js';

/** Loopback `-a` runs use these iteration counts unless -n is given (perftest: 5000 / 1000). */
export const LOOPBACK_ALL_ITERS_BW = 1000;
export const LOOPBACK_ALL_ITERS_LAT = 200;

const VERBS: readonly Verb[] = ['write', 'read', 'send', 'atomic'];
const ATOMIC_TYPES: readonly AtomicType[] = ['CMP_AND_SWAP', 'FETCH_AND_ADD'];

class UsageError extends Error {}

/** The string and boolean options of `softrdma perf` (the numbers come checked from the table). */
interface PerfValues {
  [k: string]: string | boolean | undefined;
  mtu?: string;
  atomic_type?: string;
  bind?: string;
  'ib-dev'?: string;
  'dump-buffer'?: string;
  connection?: string;
}

interface Parsed {
  params: PerfParams;
  mode: 'client' | 'server' | 'loopback';
  loopbackChild: boolean;
  portGiven: boolean;
  inline: boolean;
}

/** Parses the command line into run parameters, with perftest's defaults and dependencies. */
export function parsePerfArgs(argv: readonly string[], loopbackDefaults = true): Parsed | 'help' | 'version' {
  const sub = argv.find((x) => VERBS.includes(x as Verb));
  const { values, positionals, numbers: n } = parseCommand(command('perf')!, argv, sub);
  const v = values as PerfValues;
  if (v.help) return 'help';
  if (v.version) return 'version';
  const [test, addr, ...extra] = positionals;
  if (!test) throw new UsageError(' missing the test: write, read, send or atomic');
  if (!VERBS.includes(test as Verb)) throw new UsageError(` unknown test '${test}': write, read, send or atomic`);
  if (extra.length) throw new UsageError(` unexpected argument '${extra[0]}'`);
  if (v.bw && v.lat) throw new UsageError(' --bw and --lat exclude each other');
  if (v.events && v['busy-poll']) throw new UsageError(' --events and --busy-poll exclude each other');
  if (v.server && addr) throw new UsageError(' --server takes no ADDR');
  if (v.bind && !v.server) throw new UsageError(' --bind is for --server');
  const verb = test as Verb;
  const lat = !!v.lat;
  const mode = v.server ? 'server' : addr ? 'client' : 'loopback';
  const all = !!v.all;
  const duration = n.duration ?? 0;
  if (duration && all) throw new UsageError(" Duration mode currently doesn't support running on all sizes.");
  let iters = !lat && verb === 'write' ? 5000 : 1000;
  if (n.iters !== undefined) iters = n.iters;
  else if (all && mode === 'loopback' && loopbackDefaults) iters = lat ? LOOPBACK_ALL_ITERS_LAT : LOOPBACK_ALL_ITERS_BW;
  let size = lat ? 2 : 65536;
  if (n.size !== undefined) size = n.size;
  if (all) size = MAX_SIZE;
  let atomicType: AtomicType | undefined;
  if (verb === 'atomic') {
    // perftest: atomics are always 8 bytes (one size, even with -a).
    atomicType = (v.atomic_type ?? 'FETCH_AND_ADD') as AtomicType;
    if (!ATOMIC_TYPES.includes(atomicType)) throw new UsageError(` Invalid Atomic type! please choose from {CMP_AND_SWAP,FETCH_AND_ADD}`);
    if (v.size !== undefined && size !== 8) throw new UsageError(' Message size for atomic operations is always 8');
    size = 8;
  } else if (v.atomic_type !== undefined) throw new UsageError(' -A is for the atomic test');
  let txDepth = lat ? 1 : 128;
  if (n['tx-depth'] !== undefined) txDepth = n['tx-depth'];
  const ud = v.connection === 'UD';
  if (ud && v.rdma_cm)
    throw new UsageError(" -c UD runs over perftest's TCP exchange on the RoCE device: UD over rdma_cm (-R) is not supported");
  let rxDepth = verb === 'send' ? 512 : 1;
  if (n['rx-depth'] !== undefined) {
    rxDepth = n['rx-depth'];
    if (verb !== 'send' && rxDepth > 1) throw new UsageError(' On RDMA verbs rx depth can be only 1');
  }
  const qps = n.qp ?? 1;
  let cqMod = 100;
  if (n['cq-mod'] !== undefined) cqMod = n['cq-mod'];
  let port = 18515;
  if (n.port !== undefined) port = n.port;
  if (mode === 'client' && port === 0) throw new UsageError(" -p/--port: bad value '0' (allowed: a client needs 1 … 65535)");
  let margin = 0;
  if (duration) {
    margin = n.margin ?? Math.floor(duration / 4);
    if (!(duration > 2 * margin)) throw new UsageError(' please check that DURATION > 2*MARGIN');
  }
  let outReads = 1;
  if (verb === 'read' || verb === 'atomic') {
    outReads = 128;
    if (n.outs !== undefined) outReads = n.outs;
  }
  const dev = v['ib-dev'];
  if (dev !== undefined && !devices().some((d) => d.name === dev)) throw new PerfError(`IB device ${dev} not found`);
  const gidIndex = n['gid-index'] ?? -1;
  // perftest's -m: one of the five IB MTUs, as its mtu_enum accepts them (0 = the port's).
  let mtu = 0;
  if (v.mtu !== undefined) {
    mtu = [256, 512, 1024, 2048, 4096].indexOf(Number(v.mtu)) + 1;
  }
  // force_dependecies: depths clamped to the iterations, CQ moderation off for big messages.
  if (!duration) {
    if (txDepth > iters) txDepth = iters;
    if (verb === 'send' && rxDepth > iters) rxDepth = iters;
    // UD (perftest's UC_MAX_RX): every receive of the run posted up front when it can be, since a
    // datagram that finds none is dropped (there is no RNR NAK on UD).
    if (ud && n['rx-depth'] === undefined) rxDepth = Math.min(iters, 16000);
  }
  // perftest keeps CQ moderation for UD, whose messages are never large (at most the MTU).
  if (size > 8192 && !all && v['cq-mod'] === undefined && !ud) cqMod = 1;
  if (cqMod > txDepth) cqMod = txDepth;
  // perftest: a post list implies CQ moderation of its length and whole lists per run.
  let postList = 1;
  if (v.post_list !== undefined) {
    postList = n.post_list ?? 1;
    if (lat && postList > 1) throw new UsageError(' Post list is for bandwidth tests');
    if (postList > 1) {
      if (postList > txDepth) throw new UsageError(` Post list size (${postList}) must not exceed the tx depth (${txDepth})`);
      if (!duration && iters % postList !== 0) throw new UsageError(' Number of iterations must be a multiple of post list size');
      cqMod = postList;
    }
  }
  if (verb === 'send' && rxDepth % 2 === 1 && !all) rxDepth += 1;
  let noPeak = !!v.noPeak;
  if (duration) {
    iters = 0;
    noPeak = true;
  }
  if (!lat && iters > 20000) noPeak = true;
  if (!lat && verb === 'send' && mode === 'server') noPeak = true;
  const params: PerfParams = {
    verb,
    lat,
    server: mode === 'server',
    ...(dev !== undefined && { dev }),
    rdmaCm: !!v.rdma_cm,
    gidIndex,
    ud,
    sizeGiven: n.size !== undefined,
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
function childArgs(p: PerfParams, port: number): string[] {
  const a = ['perf', p.verb, p.lat ? '--lat' : '--bw'];
  if (p.all) a.push('-a');
  // UD without -s: each end cuts the default to the path MTU itself (an explicit -s above it is refused).
  else if (p.verb !== 'atomic' && (!p.ud || p.sizeGiven)) a.push('-s', String(p.size));
  if (p.duration) a.push('-D', String(p.duration), '-f', String(p.margin));
  else a.push('-n', String(p.iters));
  a.push('-t', String(p.txDepth), '-q', String(p.qps), '-Q', String(p.cqMod));
  if (p.postList > 1) a.push('-l', String(p.postList));
  if (p.verb === 'send') a.push('-r', String(p.rxDepth));
  if (p.ud) a.push('-c', 'UD');
  if (p.verb === 'read' || p.verb === 'atomic') a.push('-o', String(p.outReads));
  if (p.verb === 'atomic') a.push('-A', p.atomicType ?? 'FETCH_AND_ADD');
  if (p.busyPoll) a.push('--busy-poll');
  if (p.warmUp) a.push('--perform_warm_up');
  if (p.dev !== undefined) a.push('-d', p.dev);
  // -m on both ends, as perftest is run: the smaller MTU of the two wins, and a server left at
  // its port's active MTU (1024 on softroce0) would pull a `-m 4096` run down to 1024.
  if (p.mtu) a.push('-m', String(128 << p.mtu));
  if (p.rdmaCm) a.push('-R');
  // The server's GID table is its own loopback address alone (below): index 0.
  if (ethMode(p)) a.push('-x', '0');
  a.push('--server', '--bind', '127.0.0.1', '-p', String(port), '--loopback-child');
  return a;
}

async function runOne(p: PerfParams, io: CliIo): Promise<number> {
  const run = new PerfRun(p, io);
  try {
    return await run.run();
  } catch (e) {
    run.abort();
    if (e instanceof PerfError) {
      io.err(`softrdma perf: ${e.message.trim()}\n`);
      return 1;
    }
    throw e;
  }
}

/** Whether a run uses perftest's TCP exchange (an InfiniBand device without -R) rather than rdma_cm. */
function ethMode(p: PerfParams): boolean {
  const dev = p.dev === undefined ? devices()[0] : devices().find((d) => d.name === p.dev);
  return !p.rdmaCm && dev?.transport_type === ibv_transport_type.IBV_TRANSPORT_IB;
}

/**
 * The environment of the loopback server. On a RoCE device each process binds UDP 4791 on its
 * GID's address, so the server gets a loopback address of its own as its whole GID table
 * (`SOFTRDMA_ROCE_ADDRS`): the client's address plus one when that is a 127/8 address
 * (127.0.0.1 → 127.0.0.2), else 127.0.0.2.
 */
function childEnv(p: PerfParams): NodeJS.ProcessEnv {
  if (!ethMode(p)) return process.env;
  let child = '127.0.0.2';
  const dev = p.dev === undefined ? devices()[0] : devices().find((d) => d.name === p.dev);
  const ctx = dev ? openDevice(dev) : null;
  if (ctx) {
    const g = pickGid(ctx, p.gidIndex);
    if (g && gidIsV4Mapped(g.gid) && g.gid[12] === 127 && g.gid[15]! < 254) child = `127.${g.gid[13]}.${g.gid[14]}.${g.gid[15]! + 1}`;
    closeDevice(ctx);
  }
  return { ...process.env, SOFTRDMA_ROCE_ADDRS: child };
}

/** Loopback: the server in a child process (it reports its port over IPC), the client here. */
async function loopback(p: PerfParams, port: number, io: CliIo): Promise<number> {
  const main = fileURLToPath(new URL('./main.js', import.meta.url));
  const child: ChildProcess = spawn(process.execPath, [main, ...childArgs(p, port)], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: childEnv(p),
  });
  let childErr = '';
  child.stderr?.on('data', (d: Buffer) => (childErr += d.toString()));
  child.stdout?.resume();
  const exited = new Promise<number>((resolve) => child.on('exit', (code, sig) => resolve(code ?? (sig ? 128 : 1))));
  const ready = await Promise.race([
    new Promise<number>((resolve) => child.on('message', (m: { port?: number }) => typeof m?.port === 'number' && resolve(m.port))),
    exited.then(() => -1),
    new Promise<number>((resolve) => setTimeout(() => resolve(-2), 20_000).unref()),
  ]);
  if (ready < 0) {
    if (ready === -2) child.kill();
    io.err(`softrdma perf: the loopback server did not start${childErr ? `:\n${childErr}` : ''}\n`);
    return 1;
  }
  let code: number;
  try {
    code = await runOne({ ...p, addr: '127.0.0.1', port: ready }, io);
  } catch (e) {
    child.kill();
    throw e;
  }
  const timer = setTimeout(() => child.kill(), code === 0 ? 15_000 : 2_000);
  const childCode = await exited;
  clearTimeout(timer);
  if (child.connected) child.disconnect();
  if (childCode !== 0) {
    io.err(`softrdma perf: the loopback server exited with status ${childCode}${childErr ? `:\n${childErr}` : ''}\n`);
    return code || 1;
  }
  return code;
}

/** One line naming the mode: loopback, server or client, and where. */
function modeLine(p: PerfParams, mode: Parsed['mode'], portGiven: boolean): string {
  const test = `${p.verb}_${p.lat ? 'lat' : 'bw'}`;
  const perftest = `ib_${p.verb === 'atomic' ? 'atomic' : p.verb}_${p.lat ? 'lat' : 'bw'}${ethMode(p) ? ` -d rxe0 -x 1${p.verb === 'atomic' ? ` -A ${p.atomicType}` : ''}${p.ud ? ' -c UD' : ''}` : ' -R'} ADDR`;
  if (mode === 'server')
    return `${test} server: waiting for a client on ${p.bind} port ${p.port} (softrdma perf ${p.verb} ADDR, or ${perftest})`;
  if (mode === 'client') return `${test} client: connecting to ${p.addr} port ${p.port}`;
  return `${test} loopback: server and client on 127.0.0.1${portGiven ? ` port ${p.port}` : ''}, each in its own process (give ADDR to be a client, --server to be a server)`;
}

export async function perf(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parsePerfArgs>;
  try {
    parsed = parsePerfArgs(argv);
  } catch (e) {
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
    io.out(helpText(command('perf')!));
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
  if (!params.json && !loopbackChild) io.err(`softrdma perf: ${modeLine(params, mode, parsed.portGiven)}\n`);
  if (mode === 'loopback') return loopback(params, parsed.portGiven ? params.port : 0, io);
  if (!loopbackChild) return runOne(params, io);
  // The loopback server: report the port over IPC, and do not outlive the client's process.
  params.onListening = (port) => process.send?.({ port });
  const orphaned = () => process.exit(1);
  process.once('disconnect', orphaned);
  const code = await runOne(params, io);
  process.off('disconnect', orphaned);
  if (process.connected) process.disconnect();
  return code;
}

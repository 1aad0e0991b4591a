/**
 * The command table of the `softrdma` CLI: every command, subcommand and option (type, range,
 * default, help) and the examples, in one place. From it come the option parsing (`node:util`
 * `parseArgs`) with its range checks, every `--help`, `softrdma help env`, and docs/cli.md
 * (`node scripts/gen-cli-doc.mjs`). The commands' own modules take the parsed values and check
 * only what depends on several options at once.
 */
import { parseArgs } from 'node:util';
import { ROCE_COUNTERS } from '../provider/softrdma.js';
import { ENV_VARS } from '../util/env.js';

/** One option: `--name` (and `-short`), its type and, for numbers, the range it takes. */
export interface OptSpec {
  readonly name: string;
  readonly short?: string;
  /** `int`: C `strtol(…, 0)` syntax (decimal, 0x hex, 0 octal); `size`: an int with a K or M suffix; `choice`: one of `choices`. */
  readonly type: 'boolean' | 'string' | 'int' | 'size' | 'choice';
  /** The value's name in the help (`PORT`). */
  readonly arg?: string;
  readonly min?: number;
  readonly max?: number;
  readonly choices?: readonly string[];
  /** The default, as the help shows it. */
  readonly default?: string;
  readonly help: string;
  /** Only for these subcommands (default: all). */
  readonly only?: readonly string[];
  /** Internal (not in the help). */
  readonly hidden?: boolean;
}

/** One command: its usage, options, subcommands and examples. */
export interface CmdSpec {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly description: string;
  /** The first positional names one of these (perf's tests, pingpong's transports). */
  readonly subcommands?: readonly { readonly name: string; readonly summary: string }[];
  readonly options: readonly OptSpec[];
  readonly examples: readonly string[];
  readonly notes?: string;
  /** Exit code of a bad option value: 2, or the code of the rdma-core program the command mirrors. */
  readonly usageExit: number;
}

const HELP_OPT: OptSpec = { name: 'help', short: 'h', type: 'boolean', help: 'show this help' };
const I32 = 0x7fffffff;

/** The table. */
export const COMMANDS: readonly CmdSpec[] = [
  {
    name: 'devices',
    summary: 'list the RDMA devices and their node GUIDs (like ibv_devices)',
    usage: 'softrdma devices [--json]',
    description: 'Lists the softrdma RDMA devices with their node GUIDs, as ibv_devices does.',
    options: [{ name: 'json', type: 'boolean', help: 'one JSON array of { device, node_guid }' }, HELP_OPT],
    examples: ['softrdma devices', 'softrdma devices --json'],
    usageExit: 2,
  },
  {
    name: 'devinfo',
    summary: 'the devices and their attributes (like ibv_devinfo)',
    usage: 'softrdma devinfo [options]',
    description: 'Prints the softrdma RDMA devices as ibv_devinfo does.',
    options: [
      { name: 'ib-dev', short: 'd', type: 'string', arg: 'DEV', default: 'all devices', help: 'use IB device DEV' },
      {
        name: 'ib-port',
        short: 'i',
        type: 'int',
        arg: 'PORT',
        min: 1,
        max: 255,
        default: 'all ports',
        help: 'use port PORT of the device',
      },
      { name: 'list', short: 'l', type: 'boolean', help: 'print only the device names' },
      { name: 'verbose', short: 'v', type: 'boolean', help: 'print all the attributes of the device, and the GID table' },
      HELP_OPT,
    ],
    examples: ['softrdma devinfo', 'softrdma devinfo -v -d softroce0'],
    notes: 'A bad -i exits 1, as ibv_devinfo does.',
    usageExit: 1,
  },
  {
    name: 'link',
    summary: 'the ports: state, transport, addresses (like rdma link)',
    usage: 'softrdma link [show] [DEV[/PORT]] [--json]',
    description:
      "Shows each port of the softrdma devices as 'rdma link' does: state, physical state, transport, and the network devices and addresses it answers on. softrdma's device is not tied to one netdev: the iWARP device serves every running interface of the host (it runs over the host's TCP); the RoCE device answers on the addresses of its GID table, the same table 'softrdma devinfo -v' and ibv_query_gid show (the host's addresses as they come and go, or SOFTRDMA_ROCE_ADDRS).",
    options: [{ name: 'json', type: 'boolean', help: "one JSON array, like 'rdma -j link'" }, HELP_OPT],
    examples: ['softrdma link', 'softrdma link show softroce0/1 --json'],
    usageExit: 2,
  },
  {
    name: 'stat',
    summary: "the RoCE counters of running processes, rxe's names (like rdma statistic)",
    usage: 'softrdma stat [qp] [show [link]] [DEV[/PORT]] [-d DEV] [--json]',
    description:
      "Shows the RoCEv2 counters of every running softrdma process as 'rdma statistic show link' and 'rdma statistic qp show' show Linux rxe's: one line per device of each process (per QP with 'qp'), with the counter names rxe exposes in hw_counters, so a run can be set beside rxe's. Each process publishes its counters about once a second while it has RoCE QPs, in $SOFTRDMA_STATS_DIR, else $XDG_RUNTIME_DIR/softrdma, else <tmpdir>/softrdma-<uid>.",
    options: [
      { name: 'dev', short: 'd', type: 'string', arg: 'DEV', default: 'all devices', help: 'only this device (softroce0)' },
      { name: 'json', type: 'boolean', help: "one JSON array, like 'rdma -j statistic'" },
      HELP_OPT,
    ],
    examples: ['softrdma stat', 'softrdma stat show link softroce0/1 --json', 'softrdma stat qp'],
    notes: `Counters:\n${ROCE_COUNTERS.map(([n, m]) => `  ${n.padEnd(24)} ${m}`).join('\n')}`,
    usageExit: 2,
  },
  {
    name: 'daemon',
    summary: 'host the engine for C verbs programs started with softrdma exec',
    usage: 'softrdma daemon [--socket PATH]',
    description:
      'Serves C programs linked with libibverbs that run under softrdma exec: each client process gets its own device contexts and protection domains, and a client that exits or is killed has all its objects freed. Listens on a unix socket: --socket, else $SOFTRDMA_SOCKET, else daemon.sock in $XDG_RUNTIME_DIR/softrdma or <tmpdir>/softrdma-<uid>. See docs/preload.md for what is supported.',
    options: [{ name: 'socket', type: 'string', arg: 'PATH', default: '$SOFTRDMA_SOCKET', help: 'the unix socket to listen on' }, HELP_OPT],
    examples: ['softrdma daemon &'],
    usageExit: 2,
  },
  {
    name: 'exec',
    summary: 'run a C verbs program over softrdma (LD_PRELOAD of libsoftrdma.so)',
    usage: 'softrdma exec [--socket PATH] -- PROG [ARGS...]',
    description:
      "Runs PROG with libsoftrdma.so preloaded and SOFTRDMA_SOCKET set, so that its libibverbs calls reach softrdma daemon; exits with PROG's status. Needs the package's native build (a C compiler at install).",
    options: [{ name: 'socket', type: 'string', arg: 'PATH', default: '$SOFTRDMA_SOCKET', help: "the daemon's unix socket" }, HELP_OPT],
    examples: ['softrdma exec -- ibv_devinfo -v'],
    usageExit: 2,
  },
  {
    name: 'rping',
    summary: "rdma-core's rping test, interoperable with it (-s server, -c client)",
    usage: 'softrdma rping -s|-c [options]',
    description: 'The rping test of rdma-core (librdmacm/examples/rping), interoperable with it.',
    options: [
      { name: 's', short: 's', type: 'boolean', help: 'server' },
      { name: 'P', short: 'P', type: 'boolean', help: 'persistent server: serves clients concurrently, one after another, until killed' },
      { name: 'c', short: 'c', type: 'boolean', help: 'client' },
      {
        name: 'a',
        short: 'a',
        type: 'string',
        arg: 'ADDR',
        default: 'server 0.0.0.0, client 127.0.0.1',
        help: 'address (server: to bind; client: the server)',
      },
      { name: 'I', short: 'I', type: 'string', arg: 'ADDR', help: 'client source address' },
      { name: 'p', short: 'p', type: 'int', arg: 'PORT', min: 1, max: 65535, default: '7174', help: 'port' },
      { name: 'C', short: 'C', type: 'int', arg: 'COUNT', min: 0, max: I32, default: '0: forever', help: 'number of pings' },
      { name: 'S', short: 'S', type: 'int', arg: 'SIZE', min: 23, max: 65535, default: '64', help: 'ping buffer size' },
      { name: 'v', short: 'v', type: 'boolean', help: 'print the ping data' },
      { name: 'V', short: 'V', type: 'boolean', help: 'validate the ping data (client)' },
      { name: 'd', short: 'd', type: 'boolean', help: 'debug output' },
      HELP_OPT,
    ],
    examples: [
      'softrdma rping -s -a 127.0.0.1 -C 10',
      'softrdma rping -c -a 127.0.0.1 -C 10 -V -v',
      'SOFTRDMA_DEVICE=softroce0 softrdma rping -c -a 192.168.1.2 -C 3',
    ],
    notes:
      "Devices: the server listens on every device that owns its address (softrdma0 over TCP, softroce0 on QP1). rping has no device option: a client uses softrdma0 (iWARP) unless SOFTRDMA_DEVICE=softroce0 names the RoCE device or its -I address belongs to it alone. Bad option values exit 22 (EINVAL), as rdma-core's rping does.",
    usageExit: 22,
  },
  {
    name: 'perf',
    summary: "perftest's ib_{write,read,send,atomic}_{bw,lat}, interoperable with it",
    usage: 'softrdma perf write|read|send|atomic [--bw|--lat] [options] [ADDR]',
    description:
      "perftest's ib_write_bw, ib_read_bw, ib_send_bw, ib_atomic_bw, ib_write_lat, ib_read_lat, ib_send_lat and ib_atomic_lat, interoperable with the real perftest (4.5 / \"6.06\"): on the iWARP device (softrdma0, the default) with rdma_cm, as perftest -R (against siw; atomic needs a peer that negotiated RFC 7306: softrdma, not siw); on the RoCE device (-d softroce0) without -R, perftest's own TCP exchange and QPs connected with ibv_modify_qp, as ib_*_bw -d rxe0 -x 1 (against Linux rxe). With ADDR it is the client; with --server it waits for a client (ours or perftest's); with neither it runs both ends on loopback, in two processes (RoCE: the server's GID is the next 127/8 address). Both ends must be given the same test, sizes and iterations (perftest does not exchange them).",
    subcommands: [
      { name: 'write', summary: 'RDMA Write (ib_write_bw, ib_write_lat)' },
      { name: 'read', summary: 'RDMA Read (ib_read_bw, ib_read_lat)' },
      { name: 'send', summary: 'Send/Receive (ib_send_bw, ib_send_lat)' },
      { name: 'atomic', summary: 'atomics (ib_atomic_bw, ib_atomic_lat)' },
    ],
    options: [
      { name: 'bw', type: 'boolean', help: 'bandwidth test (default)' },
      { name: 'lat', type: 'boolean', help: 'latency test' },
      {
        name: 'size',
        short: 's',
        type: 'size',
        arg: 'SIZE',
        min: 1,
        max: 2 ** 30,
        default: 'bw 65536, lat 2',
        help: 'message size, K/M suffixes allowed',
      },
      { name: 'all', short: 'a', type: 'boolean', help: 'all sizes 2 B … 8 MiB (2^1 … 2^23)' },
      {
        name: 'iters',
        short: 'n',
        type: 'int',
        arg: 'N',
        min: 5,
        max: 100_000_000,
        default: 'write bw 5000, others 1000; loopback with -a and no -n: 1000 (bw) / 200 (lat)',
        help: 'iterations per size',
      },
      {
        name: 'duration',
        short: 'D',
        type: 'int',
        arg: 'SECS',
        min: 1,
        max: 86_400,
        help: 'run for SECS seconds instead of -n (not with -a; polls busily)',
      },
      {
        name: 'margin',
        short: 'f',
        type: 'int',
        arg: 'SECS',
        min: 0,
        max: 86_400,
        default: 'SECS/4',
        help: 'duration mode: warm-up and cool-down excluded',
      },
      {
        name: 'port',
        short: 'p',
        type: 'int',
        arg: 'PORT',
        min: 0,
        max: 65535,
        default: '18515',
        help: 'port of the control and data connections (a client needs 1 … 65535)',
      },
      {
        name: 'ib-dev',
        short: 'd',
        type: 'string',
        arg: 'DEV',
        default: "rdma_cm's choice (SOFTRDMA_DEVICE, else softrdma0)",
        help: 'device: softrdma0 (iWARP) or softroce0 (RoCEv2)',
      },
      {
        name: 'gid-index',
        short: 'x',
        type: 'int',
        arg: 'N',
        min: 0,
        max: 255,
        default: 'the first IPv4-mapped GID',
        help: 'RoCE: source GID index (softrdma devinfo -v lists them; SOFTRDMA_ROCE_ADDRS sets them)',
      },
      {
        name: 'mtu',
        short: 'm',
        type: 'choice',
        arg: 'MTU',
        choices: ['256', '512', '1024', '2048', '4096'],
        default: "the port's active MTU",
        help: "RoCE: path MTU (the smaller of the two ends' is used)",
      },
      { name: 'tx-depth', short: 't', type: 'int', arg: 'N', min: 1, max: 15000, default: 'bw 128, lat 1', help: 'send queue depth' },
      { name: 'rx-depth', short: 'r', type: 'int', arg: 'N', min: 1, max: 16384, default: '512', help: 'receive queue depth, send tests' },
      { name: 'qp', short: 'q', type: 'int', arg: 'N', min: 1, max: 64, default: '1', help: 'number of QPs / data connections' },
      {
        name: 'cq-mod',
        short: 'Q',
        type: 'int',
        arg: 'N',
        min: 1,
        max: 1024,
        default: '100; 1 above 8 KiB',
        help: 'a completion every N sends',
      },
      {
        name: 'post_list',
        short: 'l',
        type: 'int',
        arg: 'N',
        min: 1,
        max: 1024,
        help: 'bw tests: post N work requests per ibv_post_send, chained, one completion per list (CQ moderation = N)',
      },
      {
        name: 'perform_warm_up',
        type: 'boolean',
        help: 'bw tests: run the first size once untimed before measuring; both ends must be given it',
      },
      {
        name: 'outs',
        short: 'o',
        type: 'int',
        arg: 'N',
        min: 1,
        max: 128,
        default: "the device's 128",
        help: 'outstanding reads (or atomics), read and atomic tests',
        only: ['read', 'atomic'],
      },
      {
        name: 'atomic_type',
        short: 'A',
        type: 'choice',
        arg: 'TYPE',
        choices: ['CMP_AND_SWAP', 'FETCH_AND_ADD'],
        default: 'FETCH_AND_ADD',
        help: 'atomic tests: the operation; the message size is always 8',
        only: ['atomic'],
      },
      { name: 'noPeak', short: 'N', type: 'boolean', help: 'do not compute the peak bandwidth' },
      { name: 'report_gbits', type: 'boolean', help: 'report Gb/s instead of MB/s' },
      {
        name: 'rdma_cm',
        short: 'R',
        type: 'boolean',
        help: "connect with rdma_cm (the iWARP device always does; RoCE without -R uses perftest's TCP exchange)",
      },
      {
        name: 'connection',
        short: 'c',
        type: 'choice',
        arg: 'TYPE',
        choices: ['RC', 'UD'],
        default: 'RC',
        help: "connection type; UD: send tests on the RoCE device without -R (perftest's -c UD: Q_Key 0x11111111, a message is at most the path MTU)",
        only: ['send'],
      },
      { name: 'CPU-freq', short: 'F', type: 'boolean', help: 'accepted and ignored' },
      {
        name: 'inline_size',
        short: 'I',
        type: 'int',
        arg: 'N',
        min: 0,
        max: 1024,
        help: 'accepted; inline data is 0 on this device (as on siw)',
      },
      { name: 'events', short: 'e', type: 'boolean', help: 'sleep on completion events (the default here; perftest polls)' },
      {
        name: 'busy-poll',
        type: 'boolean',
        help: 'poll completions in a loop (yielding between polls) instead of sleeping on completion events',
      },
      { name: 'json', type: 'boolean', help: 'one JSON object per result row, nothing else on stdout' },
      {
        name: 'dump-buffer',
        type: 'string',
        arg: 'FILE',
        help: 'after the run, write the data buffer to FILE (the local sources/Read sinks, then the areas the peer targets)',
      },
      { name: 'server', type: 'boolean', help: 'be the server' },
      { name: 'bind', type: 'string', arg: 'ADDR', default: '0.0.0.0', help: 'server: address to bind' },
      { name: 'loopback-child', type: 'boolean', hidden: true, help: 'the server process of a loopback run' },
      { name: 'version', short: 'V', type: 'boolean', help: 'print the perftest version we claim and exit' },
      HELP_OPT,
    ],
    examples: [
      'softrdma perf write                    # loopback: both ends on 127.0.0.1',
      'softrdma perf write --server           # server: wait for a client (ours or ib_write_bw ADDR -R)',
      'softrdma perf write 192.168.1.2        # client: run against a server at that address',
      'softrdma perf read --lat -a',
      'softrdma perf send -d softroce0 -s 1M',
    ],
    notes:
      'Latency is half a round trip for write and send, a whole Read for read. ib_write_lat waits for inbound Writes by watching memory, so it always polls.',
    usageExit: 2,
  },
  {
    name: 'pingpong',
    summary: "rdma-core's ibv_{rc,uc,ud,srq}_pingpong over RoCEv2, interoperable with them",
    usage: 'softrdma pingpong rc|uc|ud|srq [options] [HOST]',
    description:
      "rdma-core's ibv_rc_pingpong, ibv_uc_pingpong, ibv_ud_pingpong and ibv_srq_pingpong, interoperable with them over RoCEv2 (device softroce0; the iWARP device has no CM-less connection, so it is refused). Without HOST: start a server and wait for a connection.",
    subcommands: [
      { name: 'rc', summary: 'Reliable Connection (ibv_rc_pingpong)' },
      { name: 'uc', summary: 'Unreliable Connection (ibv_uc_pingpong)' },
      { name: 'ud', summary: 'Unreliable Datagram (ibv_ud_pingpong)' },
      { name: 'srq', summary: 'RC QPs sharing a receive queue (ibv_srq_pingpong)' },
    ],
    options: [
      {
        name: 'port',
        short: 'p',
        type: 'int',
        arg: 'PORT',
        min: 0,
        max: 65535,
        default: '18515',
        help: 'listen on/connect to TCP port PORT',
      },
      { name: 'ib-dev', short: 'd', type: 'string', arg: 'DEV', default: 'the first RoCE device', help: 'use device DEV' },
      { name: 'ib-port', short: 'i', type: 'int', arg: 'PORT', min: 1, max: 255, default: '1', help: 'use port PORT of the device' },
      {
        name: 'size',
        short: 's',
        type: 'int',
        arg: 'SIZE',
        min: 1,
        max: 2 ** 30,
        default: "4096; ud: 2048, at most the port's active MTU",
        help: 'size of message to exchange',
      },
      {
        name: 'mtu',
        short: 'm',
        type: 'choice',
        arg: 'SIZE',
        choices: ['256', '512', '1024', '2048', '4096'],
        default: '1024',
        help: 'path MTU',
        only: ['rc', 'uc', 'srq'],
      },
      {
        name: 'num-qp',
        short: 'q',
        type: 'int',
        arg: 'NUM',
        min: 1,
        max: 255,
        default: '16',
        help: 'number of QPs sharing the receive queue',
        only: ['srq'],
      },
      {
        name: 'rx-depth',
        short: 'r',
        type: 'int',
        arg: 'DEPTH',
        min: 1,
        max: 65536,
        default: '500',
        help: 'number of receives to post at a time',
      },
      {
        name: 'iters',
        short: 'n',
        type: 'int',
        arg: 'ITERS',
        min: 1,
        max: I32,
        default: '1000',
        help: "number of exchanges (srq: counted over all its QPs, as ibv_srq_pingpong's loop does)",
      },
      { name: 'sl', short: 'l', type: 'int', arg: 'SL', min: 0, max: 15, default: '0', help: 'service level value' },
      { name: 'events', short: 'e', type: 'boolean', help: 'sleep on CQ events (default poll)' },
      {
        name: 'gid-idx',
        short: 'g',
        type: 'int',
        arg: 'INDEX',
        min: -1,
        max: 255,
        help: 'local port GID index (RoCE needs one: see softrdma devinfo -v; without it the GID sent is all zero and the path has no GRH, as rdma-core does)',
      },
      { name: 'chk', short: 'c', type: 'boolean', help: 'validate received buffers (client marks each page, server checks)' },
      {
        name: 'new_send',
        short: 'N',
        type: 'boolean',
        help: 'accepted (the new post-send API puts the same packets on the wire)',
        only: ['rc'],
      },
      {
        name: 'odp',
        short: 'o',
        type: 'boolean',
        help: "on-demand paging: refused with rdma-core's message (softroce0 has none, as rxe)",
        only: ['rc'],
      },
      { name: 'iodp', short: 'O', type: 'boolean', help: "implicit on-demand paging: refused with rdma-core's message", only: ['rc'] },
      { name: 'prefetch', short: 'P', type: 'boolean', help: "prefetch: refused with rdma-core's message", only: ['rc'] },
      { name: 'ts', short: 't', type: 'boolean', help: "completion timestamps: refused with rdma-core's message", only: ['rc'] },
      { name: 'dm', short: 'j', type: 'boolean', help: "device memory: refused with rdma-core's message", only: ['rc'] },
      HELP_OPT,
    ],
    examples: [
      'SOFTRDMA_ROCE_ADDRS=127.0.0.2 softrdma pingpong rc -g 0            # server',
      'SOFTRDMA_ROCE_ADDRS=127.0.0.1 softrdma pingpong rc -g 0 127.0.0.2  # client',
    ],
    usageExit: 2,
  },
  {
    name: 'help',
    summary: "show this help, a command's, or the environment variables (help env)",
    usage: 'softrdma help [COMMAND [SUBCOMMAND] | env]',
    description: "Shows the commands, a command's options, or the environment variables softrdma reads.",
    options: [HELP_OPT],
    examples: ['softrdma help perf', 'softrdma help pingpong ud', 'softrdma help env'],
    usageExit: 2,
  },
];

/** The table's entry of `name`, if any. */
export function command(name: string): CmdSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/** A command line the table refuses: the message, and the exit code of the command. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** How an option is written: `-p/--port`, `--json`, `-S`. */
export function flagName(o: OptSpec): string {
  if (o.short && o.short === o.name) return `-${o.short}`;
  return o.short ? `-${o.short}/--${o.name}` : `--${o.name}`;
}

/** What a numeric option takes, in words. */
export function allowed(o: OptSpec): string {
  if (o.type === 'choice') return (o.choices ?? []).join(', ');
  if (o.type === 'size') return `an integer ${o.min} … ${o.max}, K or M suffix allowed`;
  return `an integer ${o.min} … ${o.max}`;
}

/** C's `strtol(s, &end, 0)` that must consume the whole string, or NaN. */
export function cInt(s: string): number {
  const t = s.trim();
  if (/^[+-]?0x[0-9a-f]+$/i.test(t)) return Number.parseInt(t.replace(/0x/i, ''), 16) * (t.startsWith('-') ? -1 : 1);
  if (/^[+-]?0[0-7]+$/.test(t)) return Number.parseInt(t, 8);
  if (/^[+-]?\d+$/.test(t)) return Number.parseInt(t, 10);
  return Number.NaN;
}

/** perftest's `-s`: an int with an optional K or M suffix, or NaN. */
export function sizeInt(s: string): number {
  const t = s.trim();
  const m = /^(.*?)([KM]?)$/.exec(t)!;
  return cInt(m[1]!) * (m[2] === 'K' ? 1024 : m[2] === 'M' ? 1024 * 1024 : 1);
}

/** The value of `o` as a number, or a UsageError in the one shape every command uses. */
export function checkValue(cmd: CmdSpec, o: OptSpec, v: string): number | string {
  if (o.type === 'choice') {
    if (!o.choices?.includes(v))
      throw new UsageError(`softrdma ${cmd.name}: ${flagName(o)}: bad value '${v}' (allowed: ${allowed(o)})`, cmd.usageExit);
    return v;
  }
  const n = o.type === 'size' ? sizeInt(v) : cInt(v);
  if (!Number.isSafeInteger(n) || n < o.min! || n > o.max!)
    throw new UsageError(`softrdma ${cmd.name}: ${flagName(o)}: bad value '${v}' (allowed: ${allowed(o)})`, cmd.usageExit);
  return n;
}

/** Whether the command line asks for help (`-h` or `--help` anywhere before `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}

/** The options a subcommand (or the command, `sub` undefined) takes. */
export function optionsOf(cmd: CmdSpec, sub?: string): OptSpec[] {
  return cmd.options.filter((o) => sub === undefined || !o.only || o.only.includes(sub));
}

/**
 * Parses `argv` (after the command name, and after the subcommand when the command has them)
 * with `parseArgs`, and checks every numeric and choice option against the table. The values
 * stay strings (numbers checked, as written), so a command may also read their C syntax.
 */
export function parseCommand(
  cmd: CmdSpec,
  argv: readonly string[],
  sub?: string,
): { values: Record<string, string | boolean | undefined>; positionals: string[]; numbers: Record<string, number> } {
  const opts = optionsOf(cmd, sub);
  const config: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const o of opts) config[o.name] = { type: o.type === 'boolean' ? 'boolean' : 'string', ...(o.short && { short: o.short }) };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options: config, allowPositionals: true, strict: true });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (!err.code?.startsWith('ERR_PARSE_ARGS')) throw e;
    // An option of another subcommand: say whose it is.
    const m = /'(-{1,2}[^' ]+)'/.exec(err.message);
    const other = m && cmd.options.find((o) => m[1] === `--${o.name}` || m[1] === `-${o.short}`);
    if (other?.only && sub !== undefined)
      throw new UsageError(`softrdma ${cmd.name} ${sub}: ${flagName(other)} is for ${other.only.join(', ')} only`, 2);
    throw new UsageError(
      `softrdma ${cmd.name}${sub ? ` ${sub}` : ''}: ${err.message.replace(/\. To specify a positional argument starting with a '-'.*$/s, '')}`,
      2,
    );
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const numbers: Record<string, number> = {};
  for (const o of opts) {
    const v = values[o.name];
    if (typeof v !== 'string' || o.type === 'string') continue;
    const n = checkValue(cmd, o, v);
    if (typeof n === 'number') numbers[o.name] = n;
  }
  return { values, positionals: parsed.positionals, numbers };
}

function wrap(text: string, width: number, indent: string): string {
  const out: string[] = [];
  let line = '';
  for (const w of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + w.length > width) {
      out.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) out.push(line);
  return out.map((l, i) => (i === 0 ? l : indent + l)).join('\n');
}

/** One option's help line(s). */
function optLine(o: OptSpec): string {
  const flag = o.short && o.short !== o.name ? `-${o.short}, --${o.name}` : o.short ? `-${o.short}` : `    --${o.name}`;
  const head = `  ${flag}${o.arg ? (o.short === o.name ? ` ${o.arg}` : `=${o.arg}`) : ''}`;
  const range = o.type === 'int' || o.type === 'size' ? `${o.min} … ${o.max}` : o.type === 'choice' ? (o.choices ?? []).join('|') : '';
  const extra = [range, o.default !== undefined ? `default: ${o.default}` : ''].filter(Boolean).join('; ');
  const text = `${o.help}${extra ? ` (${extra})` : ''}${o.only ? ` [${o.only.join(', ')}]` : ''}`;
  const pad = 29;
  return head.length < pad - 1
    ? `${head.padEnd(pad)}${wrap(text, 95 - pad, ' '.repeat(pad))}`
    : `${head}\n${' '.repeat(pad)}${wrap(text, 95 - pad, ' '.repeat(pad))}`;
}

/** The `--help` of a command (or of one subcommand), from the table. */
export function helpText(cmd: CmdSpec, sub?: string): string {
  const usage = sub ? cmd.usage.replace(/ [a-z|]+\|[a-z]+/, ` ${sub}`) : cmd.usage;
  const parts = [`Usage: ${usage}`, '', wrap(cmd.description, 95, '')];
  if (cmd.subcommands && !sub)
    parts.push('', `${cmd.name === 'perf' ? 'Tests' : 'Transports'}:`, ...cmd.subcommands.map((s) => `  ${s.name.padEnd(27)}${s.summary}`));
  if (sub) parts.push('', `${sub}: ${cmd.subcommands?.find((s) => s.name === sub)?.summary ?? ''}`);
  parts.push(
    '',
    'Options:',
    ...optionsOf(cmd, sub)
      .filter((o) => !o.hidden)
      .map(optLine),
  );
  if (cmd.notes)
    parts.push(
      '',
      cmd.notes
        .split('\n')
        .map((l) => (l.startsWith('  ') ? l : wrap(l, 95, '')))
        .join('\n'),
    );
  parts.push('', 'Examples:', ...cmd.examples.map((e) => `  ${e}`));
  return `${parts.join('\n')}\n`;
}

/** `softrdma help env`: the environment variables. */
export function envHelp(): string {
  const lines = ['Environment variables (a bad value is refused with a message naming the variable):', ''];
  for (const v of ENV_VARS) lines.push(`  ${v.name}=${v.syntax}`, `      ${wrap(v.help, 89, '      ')}`);
  lines.push('', '  DEBUG=softrdma:*', '      debug logging of every layer (the debug package); e.g. DEBUG=softrdma:cm,softrdma:roce');
  return `${lines.join('\n')}\n`;
}

/** `softrdma --help`. */
export function mainHelp(): string {
  return `softrdma — a software RDMA stack in TypeScript: iWARP (over TCP) and RoCEv2 (over UDP)

Usage: softrdma <command> [options]
       softrdma <command> --help
       softrdma help <command> | env
       softrdma --version

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(20)} ${c.summary}`).join('\n')}

Every command and subcommand answers --help (-h). A bad option or value exits 2 (rping: 22,
devinfo -i: 1, as rdma-core's programs do); 'softrdma help env' lists the environment variables.
`;
}

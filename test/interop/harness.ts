/**
 * Shared plumbing of the interop suite: where the kernel-peer harness is, the skip rules, child
 * processes with line capture, host-side commands in the harness's netns, and the tshark check
 * of the pcaps softrdma writes (`SOFTRDMA_PCAP`).
 *
 * The harness is the repository's own copy, `test/interop/kernel-peer/` (setup.sh builds the
 * guest from Debian packages; `scripts/test-interop.mjs` runs it before the suite), unless
 * `KERNEL_PEER_DIR` names another. Without root, without the harness, or without a built guest
 * image the tests skip with the reason.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const cli = join(repo, 'dist/src/cli/main.js');
export const HOST_IP = '192.168.77.1';
export const GUEST_IP = '192.168.77.2';

/** The harness directory, or the reason why the tests cannot run. */
export function harness(): { dir: string } | { skip: string } {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0)
    return { skip: 'needs root (the kernel-peer harness uses a netns, a tap and qemu)' };
  const dir = process.env.KERNEL_PEER_DIR ?? join(repo, 'test/interop/kernel-peer');
  if (!existsSync(join(dir, 'run-guest.sh')) || !existsSync(join(dir, 'host-exec.sh')))
    return { skip: `no kernel-peer harness at ${dir} (set KERNEL_PEER_DIR)` };
  const image = join(process.env.KP_CACHE ?? '/var/cache/kernel-peer', 'out/vmlinux');
  if (!existsSync(image)) return { skip: `no guest image (${image}): run ${dir}/setup.sh as root (npm run test:interop does)` };
  // Root is not enough in every container: the netns, bridge and tap need CAP_NET_ADMIN and /dev/net/tun.
  const probe = spawnSync(join(dir, 'host-exec.sh'), ['--status'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.status !== 0)
    return { skip: `cannot set up the harness's network namespace: ${(probe.stderr || probe.error?.message || '').trim().split('\n')[0]}` };
  if (!existsSync('/dev/net/tun')) return { skip: 'no /dev/net/tun (the guest link is a tap device)' };
  if (spawnSync('qemu-system-x86_64', ['--version']).status !== 0)
    return { skip: 'qemu-system-x86_64 is not installed (setup.sh installs it)' };
  return { dir };
}

export type Proc = { child: ChildProcess; lines: string[]; done: Promise<number>; wait: (re: RegExp, ms: number) => Promise<boolean> };

/**
 * Where every process of the suite leaves its whole output (the transcripts): one directory per
 * test file under `SOFTRDMA_INTEROP_TRANSCRIPTS` (default: `softrdma-interop-transcripts` in the
 * OS temporary directory), one file per process, numbered in start order, named after what ran
 * (`guest` for run-guest.sh: the rdma-core side of every job of the case, with its START/END
 * markers; `host-…` for softrdma's side). The directory is printed when the test file ends.
 */
export const transcriptDir = join(
  process.env.SOFTRDMA_INTEROP_TRANSCRIPTS ?? join(tmpdir(), 'softrdma-interop-transcripts'),
  basename(process.argv[1] ?? `pid-${process.pid}`).replace(/\.test\.js$/, ''),
);
let transcriptSeq = 0;
let transcriptAnnounced = false;

/** A short file name for a process: `guest`, or `host-` and its softrdma arguments. */
function transcriptName(cmd: string, args: string[]): string {
  const n = String(++transcriptSeq).padStart(3, '0');
  if (basename(cmd) === 'run-guest.sh') return `${n}-guest.log`;
  const shown = (basename(cmd) === 'host-exec.sh' ? args.slice(1) : [cmd, ...args]).map((a) => (a.includes('/') ? basename(a) : a));
  return `${n}-host-${shown
    .join('_')
    .replace(/[^A-Za-z0-9._=-]+/g, '_')
    .slice(0, 80)}.log`;
}

function keepTranscript(name: string, cmd: string, args: string[], lines: string[], rc: number): void {
  try {
    mkdirSync(transcriptDir, { recursive: true });
    writeFileSync(join(transcriptDir, name), `$ ${[cmd, ...args].join(' ')}\n${lines.join('\n')}\n# exit status ${rc}\n`);
    if (!transcriptAnnounced) {
      transcriptAnnounced = true;
      process.once('exit', () => console.log(`# interop transcripts: ${transcriptDir}`));
    }
  } catch (e) {
    console.log(`# interop transcripts: cannot write ${name}: ${(e as Error).message}`);
  }
}

/** Starts a child and collects its stdout+stderr lines and its exit status (128+ on a signal). */
export function run(cmd: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Proc {
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: env ? { ...process.env, ...env } : process.env });
  const lines: string[] = [];
  const watchers: Array<() => void> = [];
  for (const s of [child.stdout!, child.stderr!]) {
    let rest = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      const parts = (rest + d).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts.map((l) => l.replace(/\r$/, '')));
      for (const w of [...watchers]) w();
    });
    s.on('end', () => {
      if (rest) lines.push(rest);
    });
  }
  const name = transcriptName(cmd, args);
  const done = new Promise<number>((res) =>
    child.on('close', (code, sig) => {
      const rc = code ?? (sig ? 128 : 1);
      keepTranscript(name, cmd, args, lines, rc);
      res(rc);
    }),
  );
  const wait = (re: RegExp, ms: number): Promise<boolean> =>
    new Promise((res) => {
      const check = (): void => {
        if (lines.some((l) => re.test(l))) finish(true);
      };
      const timer = setTimeout(() => finish(false), ms);
      const finish = (v: boolean): void => {
        clearTimeout(timer);
        const i = watchers.indexOf(check);
        if (i >= 0) watchers.splice(i, 1);
        res(v);
      };
      watchers.push(check);
      void done.then(() => finish(lines.some((l) => re.test(l))));
      check();
    });
  return { child, lines, done, wait };
}

export function kill(p: Proc | null, sig: NodeJS.Signals = 'SIGTERM'): void {
  if (p && p.child.exitCode === null && p.child.signalCode === null) p.child.kill(sig);
}

/** Boots a guest running `script` (dash), output streamed into the returned Proc. */
export function guest(dir: string, script: string, limitS = 300): Proc {
  return run(join(dir, 'run-guest.sh'), ['-t', String(limitS), script], dir);
}

/** Starts a host-side softrdma CLI command in the netns; `pcap` turns on SOFTRDMA_PCAP. */
export function hostStart(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): Proc {
  return run(join(dir, 'host-exec.sh'), ['node', cli, ...args], dir, env);
}

/** A host-side softrdma CLI run in the netns, with a time limit (killed with SIGTERM: rc 128+). */
export async function host(dir: string, args: string[], ms: number, env: NodeJS.ProcessEnv = {}): Promise<{ rc: number; lines: string[] }> {
  const p = hostStart(dir, args, env);
  const t = setTimeout(() => kill(p), ms);
  const rc = await p.done;
  clearTimeout(t);
  return { rc, lines: p.lines };
}

export function show(title: string, tag: string, lines: string[]): void {
  console.log(`---- ${title} ----`);
  for (const l of lines) console.log(`[${tag}] ${l}`);
}

/** The first and last `ping data:` lines (the transcript), and their number. */
export function pings(lines: string[]): { n: number; ends: string[] } {
  const p = lines.filter((l) => /ping data: /.test(l));
  return { n: p.length, ends: p.length > 1 ? [p[0]!, p[p.length - 1]!] : p };
}

/** Lines of one tagged guest job (`<tag>| …`, as `sed 's/^/<tag>| /'` prints them) and its `END rc=N`. */
export function tagged(lines: string[], tag: string): { rc: number; lines: string[] } {
  const t = lines.filter((l) => l.startsWith(`${tag}| `)).map((l) => l.slice(tag.length + 2));
  const end = t.find((l) => l.startsWith('END rc='));
  return { rc: end ? Number(end.slice('END rc='.length)) : -1, lines: t };
}

/** A fresh directory for one case's pcaps. */
export function pcapDir(name: string): string {
  const d = join(tmpdir(), `softrdma-interop-${process.pid}`, name);
  // A retried case keeps its first attempt's captures beside the second's, for the failure's report.
  if (existsSync(d)) {
    rmSync(`${d}.attempt1`, { recursive: true, force: true });
    renameSync(d, `${d}.attempt1`);
  }
  mkdirSync(d, { recursive: true });
  return d;
}

const TSHARK_OPTS = [
  '--disable-protocol',
  'rpcordma',
  '--disable-protocol',
  'smb_direct',
  '--disable-protocol',
  'nvme-rdma',
  '--disable-protocol',
  'iser',
];
export const hasTshark = spawnSync('tshark', ['--version']).status === 0;

/**
 * The wire check: tshark decodes every pcap in `dir` as MPA/DDP/RDMAP with no malformed frame,
 * no error-level expert info and no bad CRC; with `crc`, at least one good CRC32. Returns the
 * failures (empty = pass) and a summary line per file.
 */
export function wireCheck(dir: string, opts: { crc?: boolean } = {}): { failures: string[]; summary: string[] } {
  const failures: string[] = [];
  const summary: string[] = [];
  if (!hasTshark) return { failures: ['tshark is not installed (apt-get install tshark)'], summary };
  // The iWARP captures only: a process whose rdma_cm also listens on the RoCE device (every
  // device owning the address, as Linux) writes RoCEv2 pcaps beside them (wireCheckRoce's).
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.pcap') && !f.includes('-roce-')) : [];
  if (files.length === 0) failures.push(`no pcap written in ${dir}`);
  for (const f of files) {
    const path = join(dir, f);
    const bad = spawnSync('tshark', ['-r', path, ...TSHARK_OPTS, '-Y', '_ws.malformed || _ws.expert.severity >= "error"'], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    if (bad.status !== 0) failures.push(`${f}: tshark failed: ${bad.stderr.trim()}`);
    else if (bad.stdout.trim() !== '') failures.push(`${f}: malformed/error frames:\n${bad.stdout.split('\n').slice(0, 5).join('\n')}`);
    const fields = spawnSync(
      'tshark',
      ['-r', path, ...TSHARK_OPTS, '-T', 'fields', '-e', 'iwarp_rdma.opcode', '-e', 'iwarp_mpa.key.req', '-e', 'iwarp_mpa.key.rep'],
      {
        encoding: 'utf8',
        maxBuffer: 512 << 20,
      },
    );
    let frames = 0;
    let good = 0;
    let badCrc = 0;
    let mpa = 0;
    const ops = new Map<string, number>();
    for (const line of fields.stdout.split('\n')) {
      if (!line.trim()) continue;
      const [op = '', req = '', rep = ''] = line.split('\t');
      if (req || rep) mpa++;
      for (const o of op.split(',').filter(Boolean)) {
        frames++;
        ops.set(o, (ops.get(o) ?? 0) + 1);
      }
    }
    // tshark 4.0 has no CRC status field (a bad CRC is still in iwarp_mpa.crc_check, with no
    // expert info): count the verdicts of the detailed view.
    const v = spawnSync('sh', ['-c', `tshark -r '${path}' ${TSHARK_OPTS.join(' ')} -V | grep -oE '(Good|Bad) CRC32' | sort | uniq -c`], {
      encoding: 'utf8',
    });
    for (const m of v.stdout.matchAll(/(\d+) (Good|Bad) CRC32/g)) {
      if (m[2] === 'Good') good += Number(m[1]);
      else badCrc += Number(m[1]);
    }
    if (badCrc > 0) failures.push(`${f}: ${badCrc} FPDUs with a bad CRC32`);
    if (opts.crc && good === 0) failures.push(`${f}: CRC on, but no FPDU with a good CRC32`);
    if (mpa === 0) failures.push(`${f}: no MPA Request/Reply decoded`);
    if (frames === 0) failures.push(`${f}: no RDMAP message decoded`);
    const opsText = [...ops].map(([o, n]) => `${o}×${n}`).join(' ');
    summary.push(`${f}: MPA frames ${mpa}, RDMAP messages ${frames} (opcodes ${opsText}), CRC good ${good} bad ${badCrc}`);
  }
  return { failures, summary };
}

/** Opcode names of the RoCE packets the summaries show (IBTA Vol. 1 §9.2, Table 38). */
const IB_OPS: Record<string, string> = {
  '0': 'SEND_FIRST',
  '1': 'SEND_MIDDLE',
  '2': 'SEND_LAST',
  '4': 'SEND_ONLY',
  '6': 'WRITE_FIRST',
  '7': 'WRITE_MIDDLE',
  '8': 'WRITE_LAST',
  '10': 'WRITE_ONLY',
  '12': 'READ_REQUEST',
  '13': 'READ_RESP_FIRST',
  '14': 'READ_RESP_MIDDLE',
  '15': 'READ_RESP_LAST',
  '16': 'READ_RESP_ONLY',
  '17': 'ACK',
  '18': 'ATOMIC_ACK',
  '19': 'CMP_SWAP',
  '20': 'FETCH_ADD',
  '32': 'UC_SEND_FIRST',
  '33': 'UC_SEND_MIDDLE',
  '34': 'UC_SEND_LAST',
  '36': 'UC_SEND_ONLY',
  '100': 'UD_SEND_ONLY',
};

/**
 * The wire check of RoCEv2 captures (`SOFTRDMA_PCAP` on the RoCE device: Ethernet/IPv4/UDP
 * 4791 frames): tshark decodes every pcap in `dir` as RRoCE (the `infiniband` dissector) with no
 * malformed frame and no error-level expert info, and at least one BTH. Returns the failures
 * (empty = pass) and a summary line per file (packets per opcode, AETH NAKs).
 */
export function wireCheckRoce(dir: string): { failures: string[]; summary: string[]; ops: Map<string, number> } {
  const failures: string[] = [];
  const summary: string[] = [];
  const all = new Map<string, number>();
  if (!hasTshark) return { failures: ['tshark is not installed (apt-get install tshark)'], summary, ops: all };
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.pcap')) : [];
  if (files.length === 0) failures.push(`no pcap written in ${dir}`);
  let total = 0;
  const opts = ['--disable-protocol', 'rpcordma', '--disable-heuristic', 'eth_over_ib', '--disable-heuristic', 'mellanox_eoib'];
  for (const f of files) {
    const path = join(dir, f);
    const bad = spawnSync('tshark', ['-r', path, ...opts, '-Y', '_ws.malformed || _ws.expert.severity >= "error"'], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    if (bad.status !== 0) failures.push(`${f}: tshark failed: ${bad.stderr.trim()}`);
    else if (bad.stdout.trim() !== '') failures.push(`${f}: malformed/error frames:\n${bad.stdout.split('\n').slice(0, 5).join('\n')}`);
    const fields = spawnSync(
      'tshark',
      ['-r', path, ...opts, '-T', 'fields', '-e', 'infiniband.bth.opcode', '-e', 'infiniband.aeth.syndrome'],
      { encoding: 'utf8', maxBuffer: 512 << 20 },
    );
    const ops = new Map<string, number>();
    let naks = 0;
    let n = 0;
    let frames = 0;
    for (const line of fields.stdout.split('\n')) {
      if (line === '') continue;
      frames++;
      const [op = '', syn = ''] = line.split('\t');
      if (!op) continue;
      n++;
      const name = IB_OPS[op] ?? `op${op}`;
      ops.set(name, (ops.get(name) ?? 0) + 1);
      all.set(name, (all.get(name) ?? 0) + 1);
      // AETH syndrome: 0b011xxxxx is a NAK (0x60 sequence, 0x61–0x63 errors); 0b001xxxxx RNR.
      const s = Number(syn);
      if (syn && (s & 0xe0) === 0x60) naks++;
    }
    // An endpoint that carried nothing (a UD QP also binds the table's other addresses) is empty.
    if (frames > 0 && n < frames) failures.push(`${f}: ${frames - n} of ${frames} frames without an InfiniBand BTH`);
    total += n;
    summary.push(`${f}: ${n} RRoCE packets (${[...ops].map(([o, c]) => `${o}×${c}`).join(' ')}), NAKs ${naks}`);
  }
  if (files.length > 0 && total === 0) failures.push(`no InfiniBand packet in the pcaps of ${dir}`);
  return { failures, summary, ops: all };
}

/**
 * tshark's heuristic InfiniBand payload dissectors (SMB Direct, RPC-over-RDMA, Ethernet over IB…)
 * read opaque Send payloads (perftest's control messages) as their protocol and flag them
 * malformed: off, as in test/wire/ib-tshark.test.ts.
 */
const TSHARK_IB_OPTS = [
  ...['smc', 'smb_direct', 'rpcordma', 'nvme-rdma', 'lnet', 'iser', 'fcoib', 'infiniband_sdp'].flatMap((p) => ['--disable-protocol', p]),
  ...['mellanox_eoib', 'eth_over_ib'].flatMap((h) => ['--disable-heuristic', h]),
];

/** The names of the CM attribute IDs tshark prints (IBTA Vol. 1 ch. 12). */
const CM_ATTR: Record<string, string> = {
  '0x0010': 'REQ',
  '0x0011': 'MRA',
  '0x0012': 'REJ',
  '0x0013': 'REP',
  '0x0014': 'RTU',
  '0x0015': 'DREQ',
  '0x0016': 'DREP',
  '0x0017': 'SIDR_REQ',
  '0x0018': 'SIDR_REP',
};

/**
 * The wire check of RoCEv2 captures: tshark decodes every pcap in `dir` as RRoCE (UDP 4791)
 * with no malformed frame and no error-level expert info; there are CM MADs and data packets.
 * (Wireshark's infiniband dissector shows the ICRC but does not verify it; our receive path
 * does, and the peer dropping a bad one would show as a failed run.) Returns the failures and
 * a summary per file.
 */
export function roceWireCheck(dir: string, opts: { needData?: boolean; needCm?: boolean } = {}): { failures: string[]; summary: string[] } {
  const failures: string[] = [];
  const summary: string[] = [];
  if (!hasTshark) return { failures: ['tshark is not installed (apt-get install tshark)'], summary };
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.pcap')) : [];
  if (files.length === 0) failures.push(`no pcap written in ${dir}`);
  let cmTotal = 0;
  let dataTotal = 0;
  for (const f of files) {
    const path = join(dir, f);
    const bad = spawnSync('tshark', ['-r', path, ...TSHARK_IB_OPTS, '-Y', '_ws.malformed || _ws.expert.severity >= "error"'], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    if (bad.status !== 0) failures.push(`${f}: tshark failed: ${bad.stderr.trim()}`);
    else if (bad.stdout.trim() !== '') failures.push(`${f}: malformed/error frames:\n${bad.stdout.split('\n').slice(0, 5).join('\n')}`);
    const fields = spawnSync(
      'tshark',
      ['-r', path, ...TSHARK_IB_OPTS, '-T', 'fields', '-e', 'infiniband.bth.opcode', '-e', 'infiniband.mad.attributeid'],
      { encoding: 'utf8', maxBuffer: 512 << 20 },
    );
    const cm = new Map<string, number>();
    const ops = new Map<string, number>();
    for (const line of fields.stdout.split('\n')) {
      if (!line.trim()) continue;
      const [op = '', attr = ''] = line.split('\t');
      if (attr) {
        const k = CM_ATTR[attr] ?? attr;
        cm.set(k, (cm.get(k) ?? 0) + 1);
      } else if (op) ops.set(op, (ops.get(op) ?? 0) + 1);
    }
    const nCm = [...cm.values()].reduce((a, b) => a + b, 0);
    const nData = [...ops.values()].reduce((a, b) => a + b, 0);
    cmTotal += nCm;
    dataTotal += nData;
    summary.push(
      `${f}: CM ${[...cm].map(([k, n]) => `${k}×${n}`).join(' ') || 'none'}; data packets ${nData} (BTH opcodes ${[...ops].map(([o, n]) => `${o}×${n}`).join(' ')})`,
    );
  }
  if (files.length > 0 && opts.needCm !== false && cmTotal === 0) failures.push('no CM MAD decoded');
  if (files.length > 0 && opts.needData !== false && dataTotal === 0) failures.push('no RoCE data packet decoded');
  return { failures, summary };
}

/** A host-side `node SCRIPT ARGS` in the netns (examples), with a time limit (SIGTERM: rc 128+). */
export async function hostNode(
  dir: string,
  script: string,
  args: string[],
  ms: number,
  env: NodeJS.ProcessEnv = {},
): Promise<{ rc: number; lines: string[] }> {
  const p = run(join(dir, 'host-exec.sh'), ['node', script, ...args], dir, env);
  const t = setTimeout(() => kill(p), ms);
  const rc = await p.done;
  clearTimeout(t);
  return { rc, lines: p.lines };
}

/** The lines between `BEGIN tag` and `END tag rc=N` of a guest script's output, and that N (−1 when either marker is missing). */
export function section(lines: string[], tag: string): { rc: number; lines: string[] } {
  const b = lines.indexOf(`BEGIN ${tag}`);
  const e = lines.findIndex((l, i) => i > b && l.startsWith(`END ${tag} rc=`));
  if (b < 0 || e < 0) return { rc: -1, lines: b < 0 ? [] : lines.slice(b + 1) };
  return { rc: Number(lines[e]!.slice(`END ${tag} rc=`.length)), lines: lines.slice(b + 1, e) };
}

/**
 * perftest's closing handshake: a guest perftest may exit 1 with "Bad wc status 2" / "Failed to
 * close connection" after its measurement and result row. Its last Send of `ctx_close_connection`
 * is on the wire and answered, and our end, done, closes the connection (FIN) a millisecond
 * later, as the captures show; siw or rxe in the emulated guest then reports that Send's
 * completion in error. Seen on `ib_write_bw` as server and client and on `ib_read_lat` as client.
 * Callers tolerate it only beside the result row (or a passive server's connection line).
 */
export function perftestCloseRace(out: readonly string[], rc: number): boolean {
  return rc === 1 && out.some((l) => /Bad wc status 2/.test(l));
}

/**
 * perftest's report needs the guest's CPU clock: it samples the cycle counter against
 * `gettimeofday` and gives up ("Correlation coefficient r^2: … < 0.9", then "Can't produce a
 * report", exit 1) when the samples do not line up, which happens in the emulated guest when the
 * host is busy. The exchange itself has run; the tool fails on its own clock, and the softrdma
 * end then sees the peer leave ("the control connection was closed"). A latency test prints its
 * row with every figure `inf` instead (its cycles-per-microsecond is 0), and exits 0.
 */
export function perftestClockFailure(out: readonly string[]): boolean {
  return (
    out.some((l) => /Correlation coefficient r\^2: [\d.]+ < 0\.9/.test(l)) &&
    out.some((l) => /Can't produce a report|^\s*\d+\s+\d+\s+inf\s/.test(l))
  );
}

/**
 * The failures of one perftest exchange, or none when the guest's perftest failed on its clock
 * ({@link perftestClockFailure}): then they are printed as a KNOWN line, and not counted.
 */
export function unlessClockFailure(name: string, guestOut: readonly string[], failures: readonly string[]): string[] {
  if (failures.length === 0 || !perftestClockFailure(guestOut)) return [...failures];
  console.log(
    `KNOWN: ${name}: the guest's perftest could not calibrate its clock ("Correlation coefficient r^2 < 0.9", "Can't produce a report"); not counted: ${failures.join('; ')}`,
  );
  return [];
}

/**
 * The environment variables softrdma reads (`SOFTRDMA_*`): one table of them, and one parser
 * per variable. Every reader of a variable goes through this module, so a bad value is refused
 * where it is read, with an {@link EnvError} that names the variable, the value and what is
 * allowed, instead of being ignored. The table is what `softrdma help env` and docs/cli.md list.
 *
 * The parsers are syntactic: a device name that exists, or an address that is on this host, is
 * checked by the module that owns devices or addresses.
 */
import { statSync } from 'node:fs';
import { isIP } from 'node:net';
import { isAbsolute } from 'node:path';

/** A bad value of an environment variable. */
export class EnvError extends RangeError {
  readonly code = 'ERR_SOFTRDMA_ENV';
  constructor(
    /** The variable's name. */
    readonly variable: string,
    /** The value found (or the bad part of it). */
    readonly value: string,
    /** What is allowed, in words. */
    readonly allowed: string,
  ) {
    super(`${variable}: bad value "${value}" (allowed: ${allowed})`);
    this.name = 'EnvError';
  }
}

/** One environment variable: its name, the values it takes, and what it does. */
export interface EnvVar {
  readonly name: string;
  readonly syntax: string;
  readonly help: string;
}

export const ENV_DEVICE = 'SOFTRDMA_DEVICE';
export const ENV_ROCE_ADDRS = 'SOFTRDMA_ROCE_ADDRS';
export const ENV_ROCE_PORT = 'SOFTRDMA_ROCE_PORT';
export const ENV_MPA = 'SOFTRDMA_MPA';
export const ENV_IBCM = 'SOFTRDMA_IBCM';
export const ENV_PCAP = 'SOFTRDMA_PCAP';
export const ENV_CRC32C = 'SOFTRDMA_CRC32C';
export const ENV_NATIVE = 'SOFTRDMA_NATIVE';
export const ENV_GSO = 'SOFTRDMA_GSO';
export const ENV_GRO = 'SOFTRDMA_GRO';
export const ENV_GC_TUNING = 'SOFTRDMA_GC_TUNING';
export const ENV_STATS_DIR = 'SOFTRDMA_STATS_DIR';
export const ENV_SOCKET = 'SOFTRDMA_SOCKET';

const MPA_ALLOWED = 'crc=never|allow|require markers=refuse|allow|require rev=1|2 p2p=none|write,read,send settle=MS accept=MS';
const IBCM_ALLOWED = 'accept=MS halfopen=N persource=N pressure=MS resp=0..31';

/** Every `SOFTRDMA_*` variable, in the order `softrdma help env` lists them. */
export const ENV_VARS: readonly EnvVar[] = Object.freeze([
  {
    name: ENV_DEVICE,
    syntax: 'DEVICE',
    help: 'the device rdma_cm uses when an address does not choose one: softrdma0 (iWARP) or softroce0 (RoCEv2); default softrdma0',
  },
  {
    name: ENV_ROCE_ADDRS,
    syntax: 'ADDR[,ADDR...]',
    help: "the RoCE device's GID table: these IPv4 or IPv6 addresses instead of the host's (two processes on one host need different ones)",
  },
  { name: ENV_ROCE_PORT, syntax: '1..65535', help: "the RoCE device's UDP port (default 4791)" },
  { name: ENV_MPA, syntax: 'KEY=VALUE ...', help: `MPA start-up settings of the iWARP CM, keys separated by spaces: ${MPA_ALLOWED}` },
  { name: ENV_IBCM, syntax: 'KEY=VALUE ...', help: `limits of the RoCE device's CM, keys separated by spaces: ${IBCM_ALLOWED}` },
  {
    name: ENV_PCAP,
    syntax: 'DIR',
    help: 'write a pcap capture of every connection (iWARP) and UDP endpoint (RoCE) into DIR, for Wireshark',
  },
  {
    name: ENV_CRC32C,
    syntax: 'hw|native|js',
    help: "the CRC32c code of MPA: hw (the CPU's CRC32C instruction through the package addon, the default), native (@node-rs/crc32) or js; each falls back to the next when it is missing",
  },
  {
    name: ENV_NATIVE,
    syntax: '0|1',
    help: "the RoCE device's datagram layer: 1 (default) the native addon (recvmmsg/sendmmsg) when it is built, 0 Node's dgram",
  },
  { name: ENV_GSO, syntax: '0|1', help: 'native datagram layer: 0 turns UDP segmentation offload (UDP_SEGMENT) off; default 1' },
  { name: ENV_GRO, syntax: '0|1', help: 'native datagram layer: 0 turns UDP receive coalescing (UDP_GRO) off; default 1' },
  {
    name: ENV_GC_TUNING,
    syntax: '0|1',
    help: "the softrdma command's V8 setting for fast socket receivers (synchronous ArrayBuffer sweeping): 0 leaves V8 as it is; default 1",
  },
  {
    name: ENV_STATS_DIR,
    syntax: 'DIR',
    help: 'where a process publishes its RoCE counters for softrdma stat (default $XDG_RUNTIME_DIR/softrdma, else <tmpdir>/softrdma-<uid>)',
  },
  {
    name: ENV_SOCKET,
    syntax: 'PATH',
    help: 'the unix socket of softrdma daemon, which softrdma exec hands to its program (default $XDG_RUNTIME_DIR/softrdma/daemon.sock, else <tmpdir>/softrdma-<uid>/daemon.sock)',
  },
]);

const env = (name: string): string | undefined => {
  const v = process.env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
};

/** A 0|1 switch (`SOFTRDMA_NATIVE`, `SOFTRDMA_GSO`, `SOFTRDMA_GRO`, `SOFTRDMA_GC_TUNING`): true unless set to 0; undefined when unset. */
export function switchFromEnv(
  name: typeof ENV_NATIVE | typeof ENV_GSO | typeof ENV_GRO | typeof ENV_GC_TUNING,
  value = env(name),
): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== '0' && value !== '1') throw new EnvError(name, value, '0 or 1');
  return value === '1';
}

/**
 * `SOFTRDMA_STATS_DIR`: where counters are published; undefined when unset. It must be absolute,
 * since the publishing process and `softrdma stat` may run in different directories, and not a
 * file (the directory is made at the first publication).
 */
export function statsDirFromEnv(value = env(ENV_STATS_DIR)): string | undefined {
  if (value === undefined) return undefined;
  let isFile = false;
  try {
    isFile = !statSync(value).isDirectory();
  } catch {
    // Not there yet: it is made at the first publication.
  }
  if (!isAbsolute(value) || isFile || value.includes('\0'))
    throw new EnvError(ENV_STATS_DIR, value, 'an absolute directory path (made if missing), not a file');
  return value;
}

/** `SOFTRDMA_SOCKET`: the daemon's socket path; undefined when unset. Absolute, and short enough for `sun_path` (108 bytes with its NUL). */
export function socketFromEnv(value = env(ENV_SOCKET)): string | undefined {
  if (value === undefined) return undefined;
  if (!isAbsolute(value) || value.includes('\0') || Buffer.byteLength(value) > 107)
    throw new EnvError(ENV_SOCKET, value, 'an absolute path of at most 107 bytes');
  return value;
}

/** `SOFTRDMA_DEVICE`: a device name, or undefined when unset (which devices exist is the device list's business). */
export function deviceFromEnv(value = env(ENV_DEVICE)): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(value)) throw new EnvError(ENV_DEVICE, value, 'a device name such as softrdma0 or softroce0');
  return value;
}

/** `SOFTRDMA_ROCE_ADDRS`: the IPv4 and IPv6 addresses, each checked; undefined when unset. */
export function roceAddrsFromEnv(value = env(ENV_ROCE_ADDRS)): string[] | undefined {
  if (value === undefined) return undefined;
  const out: string[] = [];
  for (const a of value.split(',').map((x) => x.trim())) {
    if (isIP(a) === 0) throw new EnvError(ENV_ROCE_ADDRS, a, 'comma-separated IPv4 or IPv6 addresses, e.g. 127.0.0.1,192.168.1.2,::1');
    out.push(a);
  }
  return out;
}

/** `SOFTRDMA_ROCE_PORT`: the RoCE device's UDP port; undefined when unset. */
export function rocePortFromEnv(value = env(ENV_ROCE_PORT)): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 1 && n <= 65535)) throw new EnvError(ENV_ROCE_PORT, value, 'a UDP port, 1..65535');
  return n;
}

/** `SOFTRDMA_PCAP`: the capture directory, or null when tracing is off. */
export function pcapDirFromEnv(value = env(ENV_PCAP)): string | null {
  if (value === undefined) return null;
  let isFile = false;
  try {
    isFile = !statSync(value).isDirectory();
  } catch {
    // Not there yet: it is made at the first capture.
  }
  if (isFile || value.includes('\0')) throw new EnvError(ENV_PCAP, value, 'a directory (made if missing), not a file');
  return value;
}

/**
 * `SOFTRDMA_CRC32C`: which CRC32c code MPA prefers (default hw; hw falls back to native, native
 * to js).
 */
export function crc32cFromEnv(value = env(ENV_CRC32C)): 'hw' | 'native' | 'js' {
  if (value === undefined) return 'hw';
  if (value !== 'hw' && value !== 'js' && value !== 'native') throw new EnvError(ENV_CRC32C, value, 'hw, native or js');
  return value;
}

/** The settings `SOFTRDMA_MPA` can make, as plain values (the iWARP CM maps them onto its types). */
export interface MpaEnv {
  crc?: 'never' | 'allow' | 'require';
  markers?: 'refuse' | 'allow' | 'require';
  revision?: 1 | 2;
  /** false: no peer-to-peer mode; else the RTR types, in order of preference. */
  p2p?: false | ('write' | 'read' | 'send')[];
  settleMs?: number;
  acceptTimeoutMs?: number;
}

/** Splits `KEY=VALUE` settings separated by spaces or semicolons. */
function settings(value: string): { item: string; k: string; v: string }[] {
  return value
    .split(/[\s;]+/)
    .filter(Boolean)
    .map((item) => {
      const eq = item.indexOf('=');
      return { item, k: eq < 0 ? item : item.slice(0, eq), v: eq < 0 ? '' : item.slice(eq + 1) };
    });
}

/** `SOFTRDMA_MPA="crc=require p2p=write,read rev=2"` (see the iWARP CM's `cmParamsFromEnv`). */
export function mpaFromEnv(value = env(ENV_MPA)): MpaEnv {
  const out: MpaEnv = {};
  if (value === undefined) return out;
  for (const { item, k, v } of settings(value)) {
    const bad = (): never => {
      throw new EnvError(ENV_MPA, item, MPA_ALLOWED);
    };
    if (k === 'crc') {
      if (v !== 'never' && v !== 'allow' && v !== 'require') bad();
      out.crc = v as MpaEnv['crc'];
    } else if (k === 'markers') {
      if (v !== 'refuse' && v !== 'allow' && v !== 'require') bad();
      out.markers = v as MpaEnv['markers'];
    } else if (k === 'rev') {
      if (v !== '1' && v !== '2') bad();
      out.revision = Number(v) as 1 | 2;
    } else if (k === 'settle') {
      if (!/^\d{1,5}$/.test(v)) bad();
      out.settleMs = Number(v);
    } else if (k === 'accept') {
      if (!/^\d{1,7}$/.test(v)) bad();
      out.acceptTimeoutMs = Number(v);
    } else if (k === 'p2p') {
      if (v === 'none') {
        out.p2p = false;
        continue;
      }
      const types = v.split(',');
      if (types.some((t) => t !== 'write' && t !== 'read' && t !== 'send')) bad();
      out.p2p = types as ('write' | 'read' | 'send')[];
    } else bad();
  }
  return out;
}

/** The settings `SOFTRDMA_IBCM` can make. */
export interface IbCmEnv {
  acceptTimeoutMs?: number;
  maxHalfOpen?: number;
  maxHalfOpenPerSource?: number;
  pressureTimeoutMs?: number;
  maxResponseTimeout?: number;
}

/** `SOFTRDMA_IBCM` keys → what they set, with the accepted range (a rule table). */
const IBCM_KEYS: Readonly<Record<string, { readonly key: keyof IbCmEnv; readonly min: number; readonly max: number }>> = Object.freeze({
  accept: { key: 'acceptTimeoutMs', min: 0, max: 9_999_999 },
  halfopen: { key: 'maxHalfOpen', min: 1, max: 1_000_000 },
  persource: { key: 'maxHalfOpenPerSource', min: 1, max: 1_000_000 },
  pressure: { key: 'pressureTimeoutMs', min: 1, max: 9_999_999 },
  resp: { key: 'maxResponseTimeout', min: 0, max: 31 },
});

/** `SOFTRDMA_IBCM="accept=2000 persource=8"` (see the IB CM's `ibCmParamsFromEnv`). */
export function ibcmFromEnv(value = env(ENV_IBCM)): IbCmEnv {
  const out: IbCmEnv = {};
  if (value === undefined) return out;
  for (const { item, k, v } of settings(value)) {
    const rule = Object.hasOwn(IBCM_KEYS, k) ? IBCM_KEYS[k] : undefined;
    const n = /^\d{1,7}$/.test(v) ? Number(v) : Number.NaN;
    if (!rule || !(n >= rule.min && n <= rule.max)) throw new EnvError(ENV_IBCM, item, IBCM_ALLOWED);
    out[rule.key] = n;
  }
  return out;
}

/**
 * Reads every variable of {@link ENV_VARS} once, so that a program (the CLI) refuses a bad
 * setting before it starts rather than when it first reaches the code that reads it.
 * `devices` (when given) is the list `SOFTRDMA_DEVICE` must name one of.
 */
export function checkEnv(devices?: readonly string[]): void {
  const dev = deviceFromEnv();
  if (dev !== undefined && devices && !devices.includes(dev))
    throw new EnvError(ENV_DEVICE, dev, `one of the devices: ${devices.join(', ')}`);
  roceAddrsFromEnv();
  rocePortFromEnv();
  mpaFromEnv();
  ibcmFromEnv();
  pcapDirFromEnv();
  crc32cFromEnv();
  switchFromEnv(ENV_NATIVE);
  switchFromEnv(ENV_GSO);
  switchFromEnv(ENV_GRO);
  switchFromEnv(ENV_GC_TUNING);
  statsDirFromEnv();
  socketFromEnv();
}

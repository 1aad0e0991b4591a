/**
 * `softrdma perf`: the parameters of one end of a run (after perftest's defaults and
 * `force_dependecies`), the `-a` sizes, and perftest's buffer-layout arithmetic (`INC`,
 * `BUFF_SIZE`), shared by the connection, the data resources and the test loops.
 */
import { performance } from 'node:perf_hooks';

export type Verb = 'write' | 'read' | 'send' | 'atomic';

/** perftest's `-A`: the atomic operation of ib_atomic_bw / ib_atomic_lat. */
export type AtomicType = 'CMP_AND_SWAP' | 'FETCH_AND_ADD';

/** Everything a run needs, after perftest's defaults and `force_dependecies`. */
export interface PerfParams {
  verb: Verb;
  lat: boolean;
  server: boolean;
  /**
   * `-d`: the device; with rdma_cm every id uses it (rdmaUseDevice); none: rdma_cm's choice
   * (SOFTRDMA_DEVICE, else softrdma0), without -R the first device.
   */
  dev?: string;
  /**
   * `-R`: connect with rdma_cm. Without it an InfiniBand (RoCEv2) device uses perftest's TCP
   * exchange and `ibv_modify_qp` (perf-eth.ts); an iWARP device always uses rdma_cm (it has no
   * other way to connect).
   */
  rdmaCm: boolean;
  /** `-x`: the source GID index (-1: perftest's choice, the first IPv4-mapped GID). */
  gidIndex: number;
  /**
   * `-c UD` (send tests on an InfiniBand device without -R): UD QPs, one datagram per message,
   * messages of at most the path MTU, receives `UD_ADDITION` octets longer for the GRH.
   */
  ud: boolean;
  /** `-s` was given: a UD message larger than the MTU is then refused rather than cut to it. */
  sizeGiven: boolean;
  /** perftest's -m as an `ibv_mtu` (1 = 256 … 5 = 4096); 0: the port's active MTU. */
  mtu: number;
  /** Client: the server's address. */
  addr: string;
  /** Server: the address to bind. */
  bind: string;
  port: number;
  /** Message size; the buffer size with `all` (8 MiB). */
  size: number;
  all: boolean;
  /** Iterations per size and QP (0 in duration mode). */
  iters: number;
  /** Duration mode: seconds (0: iteration mode). */
  duration: number;
  margin: number;
  txDepth: number;
  rxDepth: number;
  qps: number;
  cqMod: number;
  /** Work requests per `ibv_post_send` (perftest `--post_list`); 1: one at a time. */
  postList: number;
  outReads: number;
  /** Atomic tests: the operation (perftest default FETCH_AND_ADD). */
  atomicType?: AtomicType;
  noPeak: boolean;
  gbits: boolean;
  json: boolean;
  busyPoll: boolean;
  /**
   * bw tests (`--perform_warm_up`): one untimed pass of the first size before the measured ones,
   * so the figure is steady state (V8 has compiled the hot paths, TCP windows have grown).
   */
  warmUp: boolean;
  /** Show a progress line (stdout is a terminal). */
  progress: boolean;
  /**
   * softrdma's `--dump-buffer=FILE`: after the run, the data buffer (both halves: local
   * sources and Read sinks, then the areas the peer targets) is written to FILE, so that a
   * test can check what the peer placed or returned.
   */
  dumpFile?: string;
  /** Called with the bound port once the server listens. */
  onListening?: (port: number) => void;
}

/** perftest's `MAX_SIZE` and the `-a` sizes 2^1 … 2^23 (UD: 2^1 … the MTU). */
export const MAX_SIZE = 8388608;
export function allSizes(max = MAX_SIZE): number[] {
  const s: number[] = [];
  for (let i = 1; 2 ** i <= max; i++) s.push(2 ** i);
  return s;
}

/** Reads and atomics are requests answered by responses: both count against ORD/IRD. */
export const isRequestVerb = (v: Verb): boolean => v === 'read' || v === 'atomic';

/** `INC(size, cache_line)`. */
export function inc(size: number, cl: number): number {
  return size > cl ? Math.ceil(size / cl) * cl : cl;
}

/** `BUFF_SIZE(size, cycle_buffer)`. */
export function buffSize(size: number, cycle: number): number {
  return size < cycle ? cycle : size;
}

export const now = (): number => performance.now();

/** The loops poll without sleeping on a completion channel (`--busy-poll`, and always in duration mode). */
export const busyPollOf = (p: PerfParams): boolean => p.busyPoll || p.duration > 0;

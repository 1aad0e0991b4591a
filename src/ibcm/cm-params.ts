/**
 * The InfiniBand CM's vocabulary (IBTA Vol. 1 chapter 12): its timeout encoding, connection
 * states, the events it reports, the parameters of a REQ and a REP, the options of a CM, the
 * listener limits and their `SOFTRDMA_IBCM` settings. The state machines are in `cm.ts`, the
 * connection objects in `connection.ts`.
 *
 * @module
 */
import type { CmMsgResponse, CmRep, CmReq, CmSidrRep, CmTransport } from '../wire/ib/cm.js';
import { ibcmFromEnv } from '../util/env.js';
import type { IbCmConnection, IbCmSidrRequest } from './connection.js';
import type { GsiAddress, GsiPort, Timers } from './gsi.js';

/** IBTA timeout encoding: 4.096 µs × 2^t, in milliseconds (§12.7.x "…Timeout" fields, §9.7.6.1.3). */
export function ibTimeoutMs(t: number): number {
  return 4.096e-3 * 2 ** t;
}

/**
 * The QP Local ACK Timeout for a path: the round trip (2 × packet life time) plus the
 * responder's ACK delay, as a 5-bit exponent. In log2 terms the sum of two powers is the
 * larger one, plus one when they are within one of each other (Linux `cm_ack_timeout`).
 */
export function cmAckTimeout(caAckDelay: number, packetLifeTime: number): number {
  const rtt = packetLifeTime + 1; // 2 × PacketLifeTime
  let t: number;
  if (rtt >= caAckDelay) t = rtt + (caAckDelay >= rtt - 1 ? 1 : 0);
  else t = caAckDelay + (rtt >= caAckDelay - 1 ? 1 : 0);
  return Math.min(31, t);
}

/** The connection states (IBTA Vol. 1 §12.9; names of Linux `enum ib_cm_state`). */
export type IbCmState =
  | 'IDLE'
  | 'REQ_SENT'
  | 'REQ_RCVD'
  | 'MRA_REQ_SENT'
  | 'MRA_REQ_RCVD'
  | 'REP_SENT'
  | 'REP_RCVD'
  | 'MRA_REP_SENT'
  | 'MRA_REP_RCVD'
  | 'ESTABLISHED'
  | 'DREQ_SENT'
  | 'DREQ_RCVD'
  | 'TIMEWAIT';

/** What a connection reports to its consumer. */
export type IbCmEvent =
  /** Active: the peer's CM asked for more time (MRA for our REQ). */
  | { type: 'mra'; serviceTimeout: number }
  /** Active: the REP; move the QP to RTR/RTS with it, then `ready()` (or `reject()`). */
  | { type: 'rep'; rep: CmRep }
  /** Passive: the RTU arrived (or `establish()` was called); the connection is up. */
  | { type: 'established'; privateData: Uint8Array }
  /** The peer refused (or answered a stale connection). */
  | { type: 'rejected'; reason: number; ari: Uint8Array; privateData: Uint8Array; msgRejected: CmMsgResponse }
  /**
   * Our REQ or REP was never answered after MaxCMRetries retransmissions (Linux REQ_ERROR/REP_ERROR),
   * or, passive, the listener's limits ended the connection before it was established: `REP` when
   * its REP was awaiting the RTU (the peer got REJ Timeout), `decision` when the consumer had not
   * accepted or rejected the REQ in time or it was evicted undecided (the peer got REJ 3, No
   * Resources) ({@link IbCmListenLimits}).
   */
  | { type: 'timeout'; message: 'REQ' | 'REP' | 'decision' | 'port' }
  /** The peer disconnected (DREQ); answer with `disconnect()` (DREP). */
  | { type: 'dreq'; privateData: Uint8Array }
  /** Our DREQ was answered (DREP) or timed out. */
  | { type: 'disconnected'; privateData: Uint8Array; timedOut: boolean }
  /** TIMEWAIT is over: the comm ID and the (CA GUID, QPN) pair are free again. */
  | { type: 'timewait-exit' };

/** A pending SIDR exchange of the active side reports one of these. */
export type IbCmSidrEvent = { type: 'sidr-rep'; rep: CmSidrRep; from: GsiAddress } | { type: 'timeout' };

/** What a listener receives. */
export type IbCmListenEvent =
  | { type: 'req'; conn: IbCmConnection; req: CmReq; from: GsiAddress }
  | { type: 'sidr-req'; request: IbCmSidrRequest };

/** What a SIDR_REQ names (IBTA §12.11.1): the peer, the service, and the retransmission bounds. */
export interface IbCmSidrParams {
  destGid: Uint8Array;
  destQpn?: number;
  /** Our GID to send from (default: the port's first). */
  localGid?: Uint8Array;
  serviceId: bigint;
  pkey?: number;
  privateData?: Uint8Array;
  /** Default: 2 × 4.096 µs × 2^18 + 4.096 µs × 2^20, as a REQ. */
  timeoutMs?: number;
  maxRetries?: number;
}

/** The active side's parameters (IBTA Table 106; defaults are what Linux rdma_cm sends on RoCE). */
export interface IbCmConnectParams {
  /** The peer's GID (its CM is at QPN 1 unless `destQpn` says otherwise). */
  destGid: Uint8Array;
  destQpn?: number;
  /** Our GID for this path; must be one of the CM's GIDs. */
  localGid: Uint8Array;
  serviceId: bigint;
  qpn: number;
  startingPsn: number;
  /** RC (default) or UC. */
  transport?: CmTransport.RC | CmTransport.UC;
  qkey?: number;
  responderResources?: number;
  initiatorDepth?: number;
  retryCount?: number;
  rnrRetryCount?: number;
  /** 1..5 (256..4096); default 3 (1024), the rxe active MTU on a 1500-octet link. */
  pathMtu?: number;
  pkey?: number;
  hopLimit?: number;
  trafficClass?: number;
  flowLabel?: number;
  sl?: number;
  /** Default 18 (`CMA_IBOE_PACKET_LIFETIME`). */
  packetLifeTime?: number;
  /** The peer may take 4.096 µs × 2^t to answer (default 20, as rdma_cm). */
  remoteCmResponseTimeout?: number;
  /** We answer a REP within 4.096 µs × 2^t (default 20). */
  localCmResponseTimeout?: number;
  /** Default 15 (`CMA_MAX_CM_RETRIES`). */
  maxCmRetries?: number;
  srq?: boolean;
  privateData?: Uint8Array;
}

/** The passive side's REP parameters (IBTA Table 110). */
export interface IbCmAcceptParams {
  qpn: number;
  startingPsn: number;
  qkey?: number;
  responderResources?: number;
  initiatorDepth?: number;
  rnrRetryCount?: number;
  failoverAccepted?: number;
  e2eFlowControl?: boolean;
  srq?: boolean;
  privateData?: Uint8Array;
}

/** Options of {@link IbCm}. */
export interface IbCmOptions {
  port: GsiPort;
  /** Our CA (node) GUID: with the comm ID it names a connection (IBTA §12.9.1). */
  caGuid: bigint;
  /** The GID table of the port (index = sgid_index), read on each REQ. */
  gids: () => readonly Uint8Array[];
  timers?: Timers;
  /** Source of randomness for comm IDs and TIDs (default: the CSPRNG, `randomUnit`); seed it in tests. */
  random?: () => number;
  /** The CA's ACK delay exponent for REP TargetACKDelay (default 15, rxe's). */
  caAckDelay?: number;
  /** TIMEWAIT duration; default 4.096 µs × 2^(the path's Local ACK Timeout), as Linux. */
  timewaitMs?: number;
  /** Connections and pending SIDR requests at once (default 65536). */
  maxConnections?: number;
  /**
   * The longest wait a peer may ask of us, as a timeout exponent (4.096 µs × 2^t): a REQ's Local
   * CM Response Timeout and Local ACK Timeout (our REP retransmission interval and TIMEWAIT) and
   * the ServiceTimeout of an MRA for our REP are cut to it. Default 22 (about 17 s): above the
   * 20 (4.3 s) Linux rdma_cm sends, far below the 31 (2.4 hours) a hostile REQ may carry.
   */
  maxResponseTimeout?: number;
  /** Defaults of every listener's limits ({@link IBCM_LISTEN_LIMITS}). */
  listenLimits?: Partial<IbCmListenLimits>;
}

/**
 * A listener's bounds on the passive connections peers make it hold before they are
 * established: *half-open* = REQ_RCVD, MRA_REQ_SENT (the consumer decides), REP_SENT,
 * MRA_REP_RCVD (the REP awaits its RTU). As the iWARP listener's (`CM_LISTEN_LIMITS` in
 * `src/iwarp/cm.ts`): per source and per listener, in time, and full means the oldest goes, not
 * the newest. A source is the GRH source GID a REQ arrived with; RoCEv2 cannot authenticate it
 * (a spoofed source is one more source), so the per-listener cap and the timers are what bound
 * a spoofing peer, while a legitimate active side, which answers the REP at once, leaves the
 * half-open set within a round trip.
 */
export interface IbCmListenLimits {
  /** Half-open connections per listener; a new REQ beyond it evicts the oldest (REJ 3 if undecided, REJ Timeout if its REP awaits the RTU). */
  maxHalfOpen: number;
  /** Half-open connections per source GID; a new REQ beyond it evicts that source's oldest. */
  maxHalfOpenPerSource: number;
  /** How long a REQ may wait for the consumer's accept/reject before the CM rejects it (REJ 3, No Resources); 0 = no limit. */
  acceptTimeoutMs: number;
  /** Under pressure (half-open at half of `maxHalfOpen` or more) a REP awaits its RTU this long in all (one retransmission). */
  pressureTimeoutMs: number;
}

/** The listener limits and their defaults (docs/spec-notes.md, "InfiniBand CM"). A rule table. */
export const IBCM_LISTEN_LIMITS: Readonly<Record<keyof IbCmListenLimits, { readonly default: number; readonly why: string }>> =
  Object.freeze({
    maxHalfOpen: { default: 1024, why: 'as the iWARP listener; the undecided REQs are bounded by the backlog too' },
    maxHalfOpenPerSource: {
      default: 128,
      why: 'one GID cannot fill the listener (1024), and a host opening many connections at once (ucmatose -c 50, perftest -q 64) against a slow listener is served',
    },
    acceptTimeoutMs: { default: 8_000, why: 'as the iWARP listener: a consumer that never answers cannot hold a REQ' },
    pressureTimeoutMs: { default: 1_000, why: 'a real active side sends its RTU one round trip after the REP' },
  });

/** The MRA ServiceTimeout rdma_cm sends while its consumer decides, and the most an active side honours (Linux `CMA_CM_MRA_SETTING`: 24, about 67 s). */
export const CMA_CM_MRA_SETTING = 24;
/** The states in which a passive connection is half-open ({@link IbCmListenLimits}). */
export const HALF_OPEN: ReadonlySet<IbCmState> = new Set<IbCmState>(['REQ_RCVD', 'MRA_REQ_SENT', 'REP_SENT', 'MRA_REP_RCVD']);

/** Counters of one CM, for tests and diagnostics. */
export interface IbCmStats {
  sent: Record<string, number>;
  received: Record<string, number>;
  retransmits: number;
  duplicates: number;
  malformed: number;
  unmatched: number;
  /** Half-open passive connections evicted for newer REQs (per source or per listener). */
  evicted: number;
  /** REQs the consumer left undecided past `acceptTimeoutMs`. */
  expired: number;
}

/** The key of a (CA GUID or GID, number) pair in the CM's maps. */
export const key2 = (a: bigint | string, b: number) => `${a.toString(16)}:${b}`;
/** The key of a GID (hex). */
export const gidKey = (g: Uint8Array) => Buffer.from(g).toString('hex');
/** No private data. */
export const EMPTY = new Uint8Array(0);
/** Incoming SIDR requests remembered at once (pending or answered); the oldest is forgotten first. */
export const MAX_SIDR_IN = 4096;
/** Undecided REQs a listener holds by default (rdma_cm's backlog when the consumer gives none). */
export const DEFAULT_BACKLOG = 1024;

/** The default listener limits ({@link IBCM_LISTEN_LIMITS}). */
export function defaultLimits(): IbCmListenLimits {
  return Object.fromEntries(Object.entries(IBCM_LISTEN_LIMITS).map(([k, v]) => [k, v.default])) as unknown as IbCmListenLimits;
}

/** `over` on `base`, validated (RangeError): non-negative integers, the caps at least 1, the pressure timeout above 0. */
export function limitsOf(over: Partial<IbCmListenLimits>, base: IbCmListenLimits): IbCmListenLimits {
  const l = { ...base };
  for (const k of Object.keys(IBCM_LISTEN_LIMITS) as (keyof IbCmListenLimits)[]) {
    const v = over[k] ?? base[k];
    const min = k === 'acceptTimeoutMs' ? 0 : 1;
    if (!Number.isSafeInteger(v) || v < min) throw new RangeError(`IB CM listener limit ${k} = ${String(v)}; an integer ≥ ${min}`);
    l[k] = v;
  }
  return l;
}

/** What `SOFTRDMA_IBCM` can set: the listener limits and the per-CM cap on peer-chosen waits. */
export interface IbCmEnvParams {
  listenLimits: Partial<IbCmListenLimits>;
  maxResponseTimeout?: number;
}

/**
 * RoCE CM settings from the environment, `SOFTRDMA_IBCM="accept=2000 persource=8"`: the RoCE
 * counterpart of `SOFTRDMA_MPA`'s `accept=MS`, for rdma_cm and IT-API programs that cannot pass
 * {@link IbCmOptions} themselves. Keys, separated by spaces or semicolons:
 * - `accept=MS`: {@link IbCmListenLimits.acceptTimeoutMs} (0: no limit);
 * - `halfopen=N`, `persource=N`: {@link IbCmListenLimits.maxHalfOpen}, `maxHalfOpenPerSource`;
 * - `pressure=MS`: {@link IbCmListenLimits.pressureTimeoutMs};
 * - `resp=T`: {@link IbCmOptions.maxResponseTimeout}, the CM response timeout exponent (0–31)
 *   that caps what a REQ or MRA may make us wait (IBTA "Communication Management", REQ: Local
 *   CM Response Timeout). Per CM: it takes effect when the port's CM opens (QP1).
 * Parsed by the environment module (`ibcmFromEnv`); throws its EnvError (a RangeError) naming
 * the bad setting, so a typo never goes unnoticed.
 */
export function ibCmParamsFromEnv(value?: string): IbCmEnvParams {
  const { maxResponseTimeout, ...listenLimits } = ibcmFromEnv(value?.trim());
  return { listenLimits, ...(maxResponseTimeout !== undefined && { maxResponseTimeout }) };
}

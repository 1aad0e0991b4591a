/**
 * The work-request table: one row per Send Queue WR type, holding everything the core and
 * the transports need to know about it (RNICPI 1.0 §6.9 `ri_wr_type_t`/`ri_wr_flags_t`,
 * §6.10 `ri_wc_type_t`; RDMA Protocol Verbs §8.1–8.2). Posting validates against it, the
 * requester schedules by it, completions take their type from it, and each transport says
 * which rows it carries. Adding a WR type means adding a row here (and, if it goes on a
 * wire, teaching the transports its framing).
 */
import { RiRet } from '../rnicpi/status.js';
import { RiWcType, RiWrFlags, RiWrType } from '../rnicpi/types.js';

/** What a WR's SGL means. */
export enum SglRole {
  /** No SGL (Bind, Fast-Register, Local Invalidate). */
  NONE = 0,
  /** Gathered and sent (Send, Write): checked for Local Read. */
  SOURCE = 1,
  /** Scattered into by the response (Read): checked for Local Write. */
  SINK = 2,
  /** The 8-byte result buffer of an atomic. */
  RESULT = 3,
}

/** Which SGE limit of the QP applies to the SGL (RNICPI `sq_max_sges` / `sq_max_sges_rdmaw`). */
export enum SgeLimit {
  NONE = 0,
  SEND = 1,
  RDMA_WRITE = 2,
  RDMA_READ = 3,
}

/** How the requester runs a WR. */
export enum WrExec {
  /** Local memory operation at the SQ head, no wire traffic (Verbs §8.2.2.1). */
  LOCAL = 0,
  /** A message that goes out and completes on delivery (iWARP: taken by the LLP; IB: ACKed). */
  MESSAGE = 1,
  /** A request answered by a response (Read, atomics): counts against ORD (Verbs §6.5). */
  REQUEST = 2,
}

/** Transports a WR type is defined on. */
export type TransportKind = 'iwarp' | 'loopback' | 'rocev2';

/** One row of the table. */
export interface WrRow {
  readonly type: RiWrType;
  readonly name: string;
  /** Flags beyond {@link COMMON_FLAGS} that the type may carry. */
  readonly flags: number;
  readonly sgl: SglRole;
  readonly sgeLimit: SgeLimit;
  /** At most this many SGEs whatever the QP allows (Read with Local Invalidate: 1). */
  readonly maxSges: number;
  /** A remote STag/TO (or the STag to invalidate) is required. */
  readonly remote: 'none' | 'address' | 'stag';
  readonly exec: WrExec;
  /** The completion type of its WC (RNICPI §6.10). */
  readonly wcType: RiWcType;
  /** Transports that carry it. */
  readonly transports: readonly TransportKind[];
  /** The post-time error on a transport that does not carry it (RNICPI §6.9 notes). */
  readonly unsupported: RiRet;
  /**
   * A capability the connection must have agreed (`TransportCaps`): iWARP carries atomics
   * and immediate data only to a peer that negotiated RFC 7306 (see the spec-notes).
   */
  readonly needs: 'atomics' | 'immediateData' | null;
}

/** Flags every SQ WR may carry (RNICPI §6.9). */
export const COMMON_FLAGS =
  RiWrFlags.SIGNALED_FLAG |
  RiWrFlags.LOCAL_SOLICITED_FLAG |
  RiWrFlags.COALESCE_FLAG |
  RiWrFlags.INLINE_OK_FLAG |
  RiWrFlags.CONSUMER_FLAG0 |
  RiWrFlags.CONSUMER_FLAG1;

const SE = RiWrFlags.SOLICITED_EVENT_FLAG;
const RF = RiWrFlags.READ_FENCE_FLAG;
const LF = RiWrFlags.LOCAL_FENCE_FLAG;
const ALL: readonly TransportKind[] = ['iwarp', 'loopback', 'rocev2'];
const INVALID = RiRet.WR_INVALID_TYPE;

const ROWS: readonly WrRow[] = [
  // type                                name               flags   sgl             sge limit              max  remote     exec            WC type
  row(RiWrType.SEND, 'Send', SE | RF, SglRole.SOURCE, SgeLimit.SEND, 0, 'none', WrExec.MESSAGE, RiWcType.SEND, ALL, INVALID),
  row(
    RiWrType.SEND_INVALIDATE,
    'Send with Invalidate',
    SE | RF,
    SglRole.SOURCE,
    SgeLimit.SEND,
    0,
    'stag',
    WrExec.MESSAGE,
    RiWcType.SEND,
    ALL,
    INVALID,
  ),
  row(
    RiWrType.RDMA_WRITE,
    'RDMA Write',
    RF,
    SglRole.SOURCE,
    SgeLimit.RDMA_WRITE,
    0,
    'address',
    WrExec.MESSAGE,
    RiWcType.RDMA_WRITE,
    ALL,
    INVALID,
  ),
  row(RiWrType.RDMA_READ, 'RDMA Read', 0, SglRole.SINK, SgeLimit.RDMA_READ, 0, 'address', WrExec.REQUEST, RiWcType.RDMA_READ, ALL, INVALID),
  row(
    RiWrType.RDMA_READ_LOCAL_INVALIDATE,
    'RDMA Read with Local Invalidate',
    0,
    SglRole.SINK,
    SgeLimit.RDMA_READ,
    1,
    'address',
    WrExec.REQUEST,
    RiWcType.RDMA_READ_LOCAL_INVALIDATE,
    ['iwarp', 'loopback'],
    INVALID,
  ),
  row(RiWrType.BIND, 'Bind Memory Window', 0, SglRole.NONE, SgeLimit.NONE, 0, 'none', WrExec.LOCAL, RiWcType.BIND, ALL, INVALID),
  row(
    RiWrType.FAST_REGISTER,
    'Fast-Register',
    0,
    SglRole.NONE,
    SgeLimit.NONE,
    0,
    'none',
    WrExec.LOCAL,
    RiWcType.FAST_REGISTER,
    ALL,
    INVALID,
  ),
  row(
    RiWrType.LOCAL_INVALIDATE_MR,
    'Local Invalidate (MR)',
    LF,
    SglRole.NONE,
    SgeLimit.NONE,
    0,
    'none',
    WrExec.LOCAL,
    RiWcType.LOCAL_INVALIDATE,
    ALL,
    INVALID,
  ),
  row(
    RiWrType.LOCAL_INVALIDATE_MW,
    'Local Invalidate (MW)',
    LF,
    SglRole.NONE,
    SgeLimit.NONE,
    0,
    'none',
    WrExec.LOCAL,
    RiWcType.LOCAL_INVALIDATE,
    ALL,
    INVALID,
  ),
  // Atomics (IBTA Vol. 1 §9.4.5; RFC 7306 §5 for iWARP), masked and extended ones included
  // (operand size and masks are WQE fields; the executor is atomics.ts). On iWARP only
  // towards a peer that negotiated RFC 7306.
  row(
    RiWrType.COMPARE_AND_SWAP,
    'Compare and Swap',
    RF,
    SglRole.RESULT,
    SgeLimit.SEND,
    1,
    'address',
    WrExec.REQUEST,
    RiWcType.COMPARE_AND_SWAP,
    ALL,
    RiRet.RNIC_ATOMICS_UNSUPPORTED,
    'atomics',
  ),
  row(
    RiWrType.FETCH_AND_ADD,
    'Fetch and Add',
    RF,
    SglRole.RESULT,
    SgeLimit.SEND,
    1,
    'address',
    WrExec.REQUEST,
    RiWcType.FETCH_AND_ADD,
    ALL,
    RiRet.RNIC_ATOMICS_UNSUPPORTED,
    'atomics',
  ),
  // Immediate data (IBTA Vol. 1 §9.4.1; RFC 7306 §6 Immediate Data for iWARP).
  row(
    RiWrType.SEND_IMMEDIATE,
    'Send with Immediate',
    SE | RF,
    SglRole.SOURCE,
    SgeLimit.SEND,
    0,
    'none',
    WrExec.MESSAGE,
    RiWcType.SEND,
    ALL,
    INVALID,
    'immediateData',
  ),
  row(
    RiWrType.RDMA_WRITE_IMMEDIATE,
    'RDMA Write with Immediate',
    SE | RF,
    SglRole.SOURCE,
    SgeLimit.RDMA_WRITE,
    0,
    'address',
    WrExec.MESSAGE,
    RiWcType.RDMA_WRITE,
    ALL,
    INVALID,
    'immediateData',
  ),
];

function row(
  type: RiWrType,
  name: string,
  flags: number,
  sgl: SglRole,
  sgeLimit: SgeLimit,
  maxSges: number,
  remote: WrRow['remote'],
  exec: WrExec,
  wcType: RiWcType,
  transports: readonly TransportKind[],
  unsupported: RiRet,
  needs: WrRow['needs'] = null,
): WrRow {
  return { type, name, flags, sgl, sgeLimit, maxSges, remote, exec, wcType, transports, unsupported, needs };
}

/** The table indexed by WR type (undefined: not a WR type at all → `WR_INVALID_TYPE`). */
export const WR_TABLE: readonly (WrRow | undefined)[] = (() => {
  const t: (WrRow | undefined)[] = [];
  for (const r of ROWS) t[r.type] = r;
  return t;
})();

/** The row of `type`, if it is a WR type. */
export function wrRow(type: number): WrRow | undefined {
  return Number.isInteger(type) ? WR_TABLE[type] : undefined;
}

/** Does the WR type put anything on the wire? */
export function isWireWr(type: number): boolean {
  const r = WR_TABLE[type];
  return r !== undefined && r.exec !== WrExec.LOCAL;
}

/** Is the WR type a request answered by a response (counted against ORD)? */
export function isRequestWr(type: number): boolean {
  return WR_TABLE[type]?.exec === WrExec.REQUEST;
}

/** Every flag the type may carry. */
export function allowedFlags(r: WrRow): number {
  return COMMON_FLAGS | r.flags;
}

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
import type { IbService } from './qp-states.js';
import { TxOp } from './transport.js';

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

/**
 * The family of an RNIC, fixed when it is made: iWARP (RDMA Protocol Verbs; RNICPI
 * `RI_TRANSPORT_IWARP`) or InfiniBand (IBTA Vol. 1, carried by RoCEv2; `RI_TRANSPORT_IB`).
 * The family decides the WR types, QP states and attributes; which transport moves the packets
 * (TCP, UDP, the in-process loopback) is the transport's business, not the core's.
 */
export type TransportFamily = 'iwarp' | 'ib';

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
  /** The RNIC families that define it. */
  readonly families: readonly TransportFamily[];
  /**
   * The services whose QPs carry it (IBTA Vol. 1 §9.8.3 Table 38 "Service Types and Operations",
   * as Linux rxe's `rxe_wr_opcode_info[].mask[qpt]`): UD sends datagrams only; UC has no RDMA
   * Read, atomics or Send with Invalidate; local memory operations need a connected service.
   * iWARP QPs are RC.
   */
  readonly services: readonly IbService[];
  /** What the requester hands the transport for it, or null for a local operation. */
  readonly txOp: TxOp | null;
  /** The post-time error on an RNIC family that does not define it (RNICPI §6.9 notes). */
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
const ALL: readonly TransportFamily[] = ['iwarp', 'ib'];
const IWARP: readonly TransportFamily[] = ['iwarp'];
const INVALID = RiRet.WR_INVALID_TYPE;
const RC_UC_UD: readonly IbService[] = ['RC', 'UC', 'UD'];
const RC_UC: readonly IbService[] = ['RC', 'UC'];
const RC: readonly IbService[] = ['RC'];

// biome-ignore format: a table, one row per line
const ROWS: readonly WrRow[] = [
  row({ type: RiWrType.SEND, name: 'Send', flags: SE | RF, sgl: SglRole.SOURCE, sgeLimit: SgeLimit.SEND, maxSges: 0, remote: 'none', exec: WrExec.MESSAGE, wcType: RiWcType.SEND, txOp: TxOp.SEND, families: ALL, services: RC_UC_UD, unsupported: INVALID }),
  row({ type: RiWrType.SEND_INVALIDATE, name: 'Send with Invalidate', flags: SE | RF, sgl: SglRole.SOURCE, sgeLimit: SgeLimit.SEND, maxSges: 0, remote: 'stag', exec: WrExec.MESSAGE, wcType: RiWcType.SEND, txOp: TxOp.SEND_INVALIDATE, families: ALL, services: RC, unsupported: INVALID }),
  row({ type: RiWrType.RDMA_WRITE, name: 'RDMA Write', flags: RF, sgl: SglRole.SOURCE, sgeLimit: SgeLimit.RDMA_WRITE, maxSges: 0, remote: 'address', exec: WrExec.MESSAGE, wcType: RiWcType.RDMA_WRITE, txOp: TxOp.RDMA_WRITE, families: ALL, services: RC_UC, unsupported: INVALID }),
  row({ type: RiWrType.RDMA_READ, name: 'RDMA Read', flags: 0, sgl: SglRole.SINK, sgeLimit: SgeLimit.RDMA_READ, maxSges: 0, remote: 'address', exec: WrExec.REQUEST, wcType: RiWcType.RDMA_READ, txOp: TxOp.READ_REQUEST, families: ALL, services: RC, unsupported: INVALID }),
  row({ type: RiWrType.RDMA_READ_LOCAL_INVALIDATE, name: 'RDMA Read with Local Invalidate', flags: 0, sgl: SglRole.SINK, sgeLimit: SgeLimit.RDMA_READ, maxSges: 1, remote: 'address', exec: WrExec.REQUEST, wcType: RiWcType.RDMA_READ_LOCAL_INVALIDATE, txOp: TxOp.READ_REQUEST, families: IWARP, services: RC, unsupported: INVALID }),
  row({ type: RiWrType.BIND, name: 'Bind Memory Window', flags: 0, sgl: SglRole.NONE, sgeLimit: SgeLimit.NONE, maxSges: 0, remote: 'none', exec: WrExec.LOCAL, wcType: RiWcType.BIND, txOp: null, families: ALL, services: RC_UC, unsupported: INVALID }),
  row({ type: RiWrType.FAST_REGISTER, name: 'Fast-Register', flags: 0, sgl: SglRole.NONE, sgeLimit: SgeLimit.NONE, maxSges: 0, remote: 'none', exec: WrExec.LOCAL, wcType: RiWcType.FAST_REGISTER, txOp: null, families: ALL, services: RC_UC, unsupported: INVALID }),
  row({ type: RiWrType.LOCAL_INVALIDATE_MR, name: 'Local Invalidate (MR)', flags: LF, sgl: SglRole.NONE, sgeLimit: SgeLimit.NONE, maxSges: 0, remote: 'none', exec: WrExec.LOCAL, wcType: RiWcType.LOCAL_INVALIDATE, txOp: null, families: ALL, services: RC_UC, unsupported: INVALID }),
  row({ type: RiWrType.LOCAL_INVALIDATE_MW, name: 'Local Invalidate (MW)', flags: LF, sgl: SglRole.NONE, sgeLimit: SgeLimit.NONE, maxSges: 0, remote: 'none', exec: WrExec.LOCAL, wcType: RiWcType.LOCAL_INVALIDATE, txOp: null, families: ALL, services: RC_UC, unsupported: INVALID }),
  // Atomics (IBTA Vol. 1 §9.4.5; RFC 7306 §5 for iWARP), masked and extended ones included
  // (operand size and masks are WQE fields; the executor is atomics.ts). On iWARP only
  // towards a peer that negotiated RFC 7306.
  row({ type: RiWrType.COMPARE_AND_SWAP, name: 'Compare and Swap', flags: RF, sgl: SglRole.RESULT, sgeLimit: SgeLimit.SEND, maxSges: 1, remote: 'address', exec: WrExec.REQUEST, wcType: RiWcType.COMPARE_AND_SWAP, txOp: TxOp.ATOMIC_REQUEST, families: ALL, services: RC, unsupported: RiRet.RNIC_ATOMICS_UNSUPPORTED, needs: 'atomics' }),
  row({ type: RiWrType.FETCH_AND_ADD, name: 'Fetch and Add', flags: RF, sgl: SglRole.RESULT, sgeLimit: SgeLimit.SEND, maxSges: 1, remote: 'address', exec: WrExec.REQUEST, wcType: RiWcType.FETCH_AND_ADD, txOp: TxOp.ATOMIC_REQUEST, families: ALL, services: RC, unsupported: RiRet.RNIC_ATOMICS_UNSUPPORTED, needs: 'atomics' }),
  // Immediate data (IBTA Vol. 1 §9.4.1; RFC 7306 §6 Immediate Data for iWARP).
  row({ type: RiWrType.SEND_IMMEDIATE, name: 'Send with Immediate', flags: SE | RF, sgl: SglRole.SOURCE, sgeLimit: SgeLimit.SEND, maxSges: 0, remote: 'none', exec: WrExec.MESSAGE, wcType: RiWcType.SEND, txOp: TxOp.SEND_IMM, families: ALL, services: RC_UC_UD, unsupported: INVALID, needs: 'immediateData' }),
  row({ type: RiWrType.RDMA_WRITE_IMMEDIATE, name: 'RDMA Write with Immediate', flags: SE | RF, sgl: SglRole.SOURCE, sgeLimit: SgeLimit.RDMA_WRITE, maxSges: 0, remote: 'address', exec: WrExec.MESSAGE, wcType: RiWcType.RDMA_WRITE, txOp: TxOp.RDMA_WRITE, families: ALL, services: RC_UC, unsupported: INVALID, needs: 'immediateData' }),
];

/** A row from its fields; `needs` defaults to none. */
function row(r: Omit<WrRow, 'needs'> & { needs?: WrRow['needs'] }): WrRow {
  return { ...r, needs: r.needs ?? null };
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

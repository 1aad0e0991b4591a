/**
 * Posting work requests (RDMA Protocol Verbs §8.1–8.2.1, RNICPI §5.5–5.6).
 *
 * Each function validates one WR completely and either queues a WQE (a private copy of the
 * WR) or returns the immediate error and changes nothing. List posting stops at the first
 * immediate error and reports how many WRs were posted (Verbs §8.2.1); that loop lives in
 * the provider, one call to these functions per WR.
 *
 * Every local SGE of an SQ WR (a Send's or Write's source, a Read's sink, an atomic's result
 * buffer) is checked against its region here, when it is posted (issue 17, finding 5: a Read
 * longer than its own sink went on the wire before its sink was looked at). A violation is the
 * spec's *completion* error (Verbs §8.1.3.2, the manual's E15 "completes with
 * IBV_WC_LOC_PROT_ERR"; RNICPI §2.4 lets the provider choose): the WR is queued already failed,
 * completes with that status in post order when it reaches the SQ head, the QP terminates
 * (Verbs §8.3), and nothing of it goes on the wire. The check is left to execution only when a
 * local memory operation (Bind, Fast-Register, Invalidate) is still queued ahead of the WR,
 * because that one may legitimately change the verdict; the requester checks every SGE again
 * before the first octet or Read Request goes out, since the region may also have changed since
 * the post (a deregistration, a remote invalidation).
 */
import { RiRet } from '../rnicpi/status.js';
import { RiWrType } from '../rnicpi/types.js';
import { type AtomicArgs } from './atomics.js';
import { type MemObject } from './memory.js';
import type { Qp } from './qp.js';
import type { Srq } from './srq.js';
import { type UdDest } from './transport.js';
import { type FmrSpec } from './wqe.js';
/** An SGE as the Consumer gives it. */
export interface SgeIn {
    stag: number;
    to: bigint;
    len: number;
}
/** One Send Queue WR, with the fields of every type (unused ones ignored). */
export interface SqWrIn {
    type: RiWrType;
    flags: number;
    id: bigint;
    sgl?: readonly SgeIn[];
    /** Remote STag: Write/Read target, Send with Invalidate's STag to invalidate. */
    rtag?: number;
    /** Remote TO of a Write or Read. */
    remoteTo?: bigint;
    mw?: MemObject;
    mr?: MemObject;
    mrStag?: number;
    bindVa?: bigint;
    bindLength?: number;
    bindFlags?: number;
    fmr?: FmrSpec;
    target?: MemObject;
    targetStag?: number;
    /** UD Send: the destination (address vector, remote QPN and Q_Key). */
    ud?: UdDest;
    /** Send/Write with Immediate: the 32-bit immediate data. */
    imm?: number;
    /** Atomics: the operation, its operand size and masks (atomics.ts). */
    atomic?: AtomicArgs;
}
/**
 * Can the QP's connection carry the row? A row that needs a negotiated capability (iWARP
 * atomics and immediate data: RFC 7306, agreed per connection) is refused at post time once
 * the connection is known not to have it, as rdma-core's siw provider refuses the opcodes
 * (EINVAL with `bad_wr`). Before a connection exists the WR is queued; the requester fails
 * it without touching the wire if the connection turns out not to have it.
 */
export declare function connectionCarries(qp: Qp, needs: 'atomics' | 'immediateData' | null, atomic?: AtomicArgs | null): boolean;
/**
 * Posts one SQ WR. `privileged` is the caller's domain: Fast-Register needs it (RNICPI
 * §3.3); the QP's STag0/FastReg enable is checked when the WQE executes (Verbs §7.3).
 */
export declare function postSq(qp: Qp, wr: SqWrIn, privileged: boolean): RiRet;
/** Posts one receive WR to a QP's RQ (RNICPI `ri_qp_post_recv`). */
export declare function postRq(qp: Qp, flags: number, id: bigint, sglIn: readonly SgeIn[]): RiRet;
/** Posts one receive WR to an S-RQ (RNICPI `ri_srq_post_recv`). */
export declare function postSrq(srq: Srq, flags: number, id: bigint, sglIn: readonly SgeIn[]): RiRet;

/**
 * The work-request table: one row per Send Queue WR type, holding everything the core and
 * the transports need to know about it (RNICPI 1.0 §6.9 `ri_wr_type_t`/`ri_wr_flags_t`,
 * §6.10 `ri_wc_type_t`; RDMA Protocol Verbs §8.1–8.2). Posting validates against it, the
 * requester schedules by it, completions take their type from it, and each transport says
 * which rows it carries. Adding a WR type means adding a row here (and, if it goes on a
 * wire, teaching the transports its framing).
 */
import { RiRet } from '../rnicpi/status.js';
import { RiWcType, RiWrType } from '../rnicpi/types.js';
/** What a WR's SGL means. */
export declare enum SglRole {
    /** No SGL (Bind, Fast-Register, Local Invalidate). */
    NONE = 0,
    /** Gathered and sent (Send, Write): checked for Local Read. */
    SOURCE = 1,
    /** Scattered into by the response (Read): checked for Local Write. */
    SINK = 2,
    /** The 8-byte result buffer of an atomic. */
    RESULT = 3
}
/** Which SGE limit of the QP applies to the SGL (RNICPI `sq_max_sges` / `sq_max_sges_rdmaw`). */
export declare enum SgeLimit {
    NONE = 0,
    SEND = 1,
    RDMA_WRITE = 2,
    RDMA_READ = 3
}
/** How the requester runs a WR. */
export declare enum WrExec {
    /** Local memory operation at the SQ head, no wire traffic (Verbs §8.2.2.1). */
    LOCAL = 0,
    /** A message that goes out and completes on delivery (iWARP: taken by the LLP; IB: ACKed). */
    MESSAGE = 1,
    /** A request answered by a response (Read, atomics): counts against ORD (Verbs §6.5). */
    REQUEST = 2
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
export declare const COMMON_FLAGS: number;
/** The table indexed by WR type (undefined: not a WR type at all → `WR_INVALID_TYPE`). */
export declare const WR_TABLE: readonly (WrRow | undefined)[];
/** The row of `type`, if it is a WR type. */
export declare function wrRow(type: number): WrRow | undefined;
/** Does the WR type put anything on the wire? */
export declare function isWireWr(type: number): boolean;
/** Is the WR type a request answered by a response (counted against ORD)? */
export declare function isRequestWr(type: number): boolean;
/** Every flag the type may carry. */
export declare function allowedFlags(r: WrRow): number;

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
export var SglRole;
(function (SglRole) {
    /** No SGL (Bind, Fast-Register, Local Invalidate). */
    SglRole[SglRole["NONE"] = 0] = "NONE";
    /** Gathered and sent (Send, Write): checked for Local Read. */
    SglRole[SglRole["SOURCE"] = 1] = "SOURCE";
    /** Scattered into by the response (Read): checked for Local Write. */
    SglRole[SglRole["SINK"] = 2] = "SINK";
    /** The 8-byte result buffer of an atomic. */
    SglRole[SglRole["RESULT"] = 3] = "RESULT";
})(SglRole || (SglRole = {}));
/** Which SGE limit of the QP applies to the SGL (RNICPI `sq_max_sges` / `sq_max_sges_rdmaw`). */
export var SgeLimit;
(function (SgeLimit) {
    SgeLimit[SgeLimit["NONE"] = 0] = "NONE";
    SgeLimit[SgeLimit["SEND"] = 1] = "SEND";
    SgeLimit[SgeLimit["RDMA_WRITE"] = 2] = "RDMA_WRITE";
    SgeLimit[SgeLimit["RDMA_READ"] = 3] = "RDMA_READ";
})(SgeLimit || (SgeLimit = {}));
/** How the requester runs a WR. */
export var WrExec;
(function (WrExec) {
    /** Local memory operation at the SQ head, no wire traffic (Verbs §8.2.2.1). */
    WrExec[WrExec["LOCAL"] = 0] = "LOCAL";
    /** A message that goes out and completes on delivery (iWARP: taken by the LLP; IB: ACKed). */
    WrExec[WrExec["MESSAGE"] = 1] = "MESSAGE";
    /** A request answered by a response (Read, atomics): counts against ORD (Verbs §6.5). */
    WrExec[WrExec["REQUEST"] = 2] = "REQUEST";
})(WrExec || (WrExec = {}));
/** Flags every SQ WR may carry (RNICPI §6.9). */
export const COMMON_FLAGS = RiWrFlags.SIGNALED_FLAG |
    RiWrFlags.LOCAL_SOLICITED_FLAG |
    RiWrFlags.COALESCE_FLAG |
    RiWrFlags.INLINE_OK_FLAG |
    RiWrFlags.CONSUMER_FLAG0 |
    RiWrFlags.CONSUMER_FLAG1;
const SE = RiWrFlags.SOLICITED_EVENT_FLAG;
const RF = RiWrFlags.READ_FENCE_FLAG;
const LF = RiWrFlags.LOCAL_FENCE_FLAG;
const ALL = ['iwarp', 'loopback', 'rocev2'];
const INVALID = RiRet.WR_INVALID_TYPE;
const ROWS = [
    // type                                name               flags   sgl             sge limit              max  remote     exec            WC type
    row(RiWrType.SEND, 'Send', SE | RF, SglRole.SOURCE, SgeLimit.SEND, 0, 'none', WrExec.MESSAGE, RiWcType.SEND, ALL, INVALID),
    row(RiWrType.SEND_INVALIDATE, 'Send with Invalidate', SE | RF, SglRole.SOURCE, SgeLimit.SEND, 0, 'stag', WrExec.MESSAGE, RiWcType.SEND, ALL, INVALID),
    row(RiWrType.RDMA_WRITE, 'RDMA Write', RF, SglRole.SOURCE, SgeLimit.RDMA_WRITE, 0, 'address', WrExec.MESSAGE, RiWcType.RDMA_WRITE, ALL, INVALID),
    row(RiWrType.RDMA_READ, 'RDMA Read', 0, SglRole.SINK, SgeLimit.RDMA_READ, 0, 'address', WrExec.REQUEST, RiWcType.RDMA_READ, ALL, INVALID),
    row(RiWrType.RDMA_READ_LOCAL_INVALIDATE, 'RDMA Read with Local Invalidate', 0, SglRole.SINK, SgeLimit.RDMA_READ, 1, 'address', WrExec.REQUEST, RiWcType.RDMA_READ_LOCAL_INVALIDATE, ['iwarp', 'loopback'], INVALID),
    row(RiWrType.BIND, 'Bind Memory Window', 0, SglRole.NONE, SgeLimit.NONE, 0, 'none', WrExec.LOCAL, RiWcType.BIND, ALL, INVALID),
    row(RiWrType.FAST_REGISTER, 'Fast-Register', 0, SglRole.NONE, SgeLimit.NONE, 0, 'none', WrExec.LOCAL, RiWcType.FAST_REGISTER, ALL, INVALID),
    row(RiWrType.LOCAL_INVALIDATE_MR, 'Local Invalidate (MR)', LF, SglRole.NONE, SgeLimit.NONE, 0, 'none', WrExec.LOCAL, RiWcType.LOCAL_INVALIDATE, ALL, INVALID),
    row(RiWrType.LOCAL_INVALIDATE_MW, 'Local Invalidate (MW)', LF, SglRole.NONE, SgeLimit.NONE, 0, 'none', WrExec.LOCAL, RiWcType.LOCAL_INVALIDATE, ALL, INVALID),
    // Atomics (IBTA Vol. 1 §9.4.5; RFC 7306 §5 for iWARP), masked and extended ones included
    // (operand size and masks are WQE fields; the executor is atomics.ts). On iWARP only
    // towards a peer that negotiated RFC 7306.
    row(RiWrType.COMPARE_AND_SWAP, 'Compare and Swap', RF, SglRole.RESULT, SgeLimit.SEND, 1, 'address', WrExec.REQUEST, RiWcType.COMPARE_AND_SWAP, ALL, RiRet.RNIC_ATOMICS_UNSUPPORTED, 'atomics'),
    row(RiWrType.FETCH_AND_ADD, 'Fetch and Add', RF, SglRole.RESULT, SgeLimit.SEND, 1, 'address', WrExec.REQUEST, RiWcType.FETCH_AND_ADD, ALL, RiRet.RNIC_ATOMICS_UNSUPPORTED, 'atomics'),
    // Immediate data (IBTA Vol. 1 §9.4.1; RFC 7306 §6 Immediate Data for iWARP).
    row(RiWrType.SEND_IMMEDIATE, 'Send with Immediate', SE | RF, SglRole.SOURCE, SgeLimit.SEND, 0, 'none', WrExec.MESSAGE, RiWcType.SEND, ALL, INVALID, 'immediateData'),
    row(RiWrType.RDMA_WRITE_IMMEDIATE, 'RDMA Write with Immediate', SE | RF, SglRole.SOURCE, SgeLimit.RDMA_WRITE, 0, 'address', WrExec.MESSAGE, RiWcType.RDMA_WRITE, ALL, INVALID, 'immediateData'),
];
function row(type, name, flags, sgl, sgeLimit, maxSges, remote, exec, wcType, transports, unsupported, needs = null) {
    return { type, name, flags, sgl, sgeLimit, maxSges, remote, exec, wcType, transports, unsupported, needs };
}
/** The table indexed by WR type (undefined: not a WR type at all → `WR_INVALID_TYPE`). */
export const WR_TABLE = (() => {
    const t = [];
    for (const r of ROWS)
        t[r.type] = r;
    return t;
})();
/** The row of `type`, if it is a WR type. */
export function wrRow(type) {
    return Number.isInteger(type) ? WR_TABLE[type] : undefined;
}
/** Does the WR type put anything on the wire? */
export function isWireWr(type) {
    const r = WR_TABLE[type];
    return r !== undefined && r.exec !== WrExec.LOCAL;
}
/** Is the WR type a request answered by a response (counted against ORD)? */
export function isRequestWr(type) {
    return WR_TABLE[type]?.exec === WrExec.REQUEST;
}
/** Every flag the type may carry. */
export function allowedFlags(r) {
    return COMMON_FLAGS | r.flags;
}
//# sourceMappingURL=wr-table.js.map
/**
 * How RoCEv2 (InfiniBand RC) reports the core's neutral faults on its wire, and what the
 * requester makes of a NAK: the NAK code of each {@link Fault} (IBTA Vol. 1 §9.7.5.2.x, as
 * Linux rxe chooses them in `rxe_resp.c`) and the work-completion status of each NAK code
 * (§9.7.5.2, §11.6.2 "Completion return status"; rdma-core's `IBV_WC_REM_*_ERR`).
 *
 * - Class C (§9.7.5.2.x "Invalid Request"): an opcode out of sequence, an operation not
 *   enabled, a length the message does not allow → NAK 0x61;
 * - R_Key, range or rights of a remote access → 0x62 Remote Access Error;
 * - the responder could not complete a valid request (a bad receive WQE, a source gone) →
 *   0x63 Remote Operational Error.
 */
import { RiWcStatus } from '../rnicpi/types.js';
import { Fault } from '../rnic/faults.js';
import { NakCode } from '../wire/ib/index.js';
/** The NAK code a responder sends for `f` (0x63 for anything without an entry). */
export declare function nakOfFault(f: Fault): NakCode;
/** The completion status of the WQE a NAK with `code` refused (IBTA Vol. 1 §11.6.2). */
export declare function wcStatusOfNak(code: number): RiWcStatus;

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

import { Fault } from '../rnic/faults.js';
import { RiWcStatus } from '../rnicpi/types.js';
import { NakCode } from '../wire/ib/index.js';

const NAK_OF_FAULT: Readonly<Partial<Record<Fault, NakCode>>> = {
  [Fault.INVALID_STAG]: NakCode.RemoteAccessError,
  [Fault.BOUNDS]: NakCode.RemoteAccessError,
  [Fault.RIGHTS]: NakCode.RemoteAccessError,
  [Fault.NOT_ASSOCIATED]: NakCode.RemoteAccessError,
  [Fault.WRAP]: NakCode.RemoteAccessError,
  [Fault.READ_SRC_INVALID_STAG]: NakCode.RemoteAccessError,
  [Fault.READ_SRC_BOUNDS]: NakCode.RemoteAccessError,
  [Fault.READ_SRC_RIGHTS]: NakCode.RemoteAccessError,
  [Fault.READ_SRC_NOT_ASSOCIATED]: NakCode.RemoteAccessError,
  [Fault.READ_SRC_WRAP]: NakCode.RemoteAccessError,
  // Send with Invalidate of an R_Key that may not be invalidated: rxe answers 0x61.
  [Fault.INVALIDATE_INVALID_STAG]: NakCode.InvalidRequest,
  [Fault.INVALIDATE_NOT_ASSOCIATED]: NakCode.InvalidRequest,
  [Fault.INVALIDATE_RIGHTS]: NakCode.InvalidRequest,
  [Fault.CANNOT_INVALIDATE]: NakCode.InvalidRequest,
  // A message longer than the receive buffer: rxe's "length error" is 0x61 (class C).
  [Fault.MSG_TOO_LONG]: NakCode.InvalidRequest,
  [Fault.BAD_OFFSET]: NakCode.InvalidRequest,
  [Fault.IRD_EXCEEDED]: NakCode.InvalidRequest,
  [Fault.READ_NOT_ENABLED]: NakCode.InvalidRequest,
  [Fault.UNEXPECTED_OP]: NakCode.InvalidRequest,
  // Atomics (§9.4.5; rxe): a misaligned target, more than the responder's resources or an
  // unsupported operation are invalid requests; the target's key, range or rights an access error.
  [Fault.ATOMIC_MISALIGNED]: NakCode.InvalidRequest,
  [Fault.ATOMIC_IRD_EXCEEDED]: NakCode.InvalidRequest,
  [Fault.ATOMIC_UNSUPPORTED]: NakCode.InvalidRequest,
  [Fault.ATOMIC_INVALID_STAG]: NakCode.RemoteAccessError,
  [Fault.ATOMIC_BOUNDS]: NakCode.RemoteAccessError,
  [Fault.ATOMIC_RIGHTS]: NakCode.RemoteAccessError,
  [Fault.ATOMIC_NOT_ASSOCIATED]: NakCode.RemoteAccessError,
  [Fault.ATOMIC_WRAP]: NakCode.RemoteAccessError,
  [Fault.READ_SRC_GONE]: NakCode.RemoteOperationalError,
  [Fault.LOCAL_CATASTROPHIC]: NakCode.RemoteOperationalError,
  [Fault.STREAM_CATASTROPHIC]: NakCode.RemoteOperationalError,
  [Fault.HANDLED]: NakCode.RemoteOperationalError,
};

/** The NAK code a responder sends for `f` (0x63 for anything without an entry). */
export function nakOfFault(f: Fault): NakCode {
  return NAK_OF_FAULT[f] ?? NakCode.RemoteOperationalError;
}

const WC_STATUS_OF_NAK: Readonly<Partial<Record<NakCode, RiWcStatus>>> = {
  [NakCode.InvalidRequest]: RiWcStatus.REMOTE_INVALID_REQ_ERROR,
  [NakCode.RemoteAccessError]: RiWcStatus.REMOTE_ACCESS_ERROR,
};

/** The completion status of the WQE a NAK with `code` refused (IBTA Vol. 1 §11.6.2; 0x63 and any other: Remote Operational Error). */
export function wcStatusOfNak(code: number): RiWcStatus {
  return WC_STATUS_OF_NAK[code as NakCode] ?? RiWcStatus.REMOTE_OP_ERROR;
}

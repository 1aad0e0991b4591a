/**
 * How iWARP reports the core's neutral faults on its wire: the Terminate layer, error type
 * and code of each {@link Fault} (RFC 5040 §7.2 RDMAP codes, RFC 5041 §7.2 DDP codes), as
 * Linux siw chooses them. And the affiliated event of the errors only the iWARP transport can
 * see (MPA CRC and framing, DDP MSN/MO/QN, RDMAP version/opcode: RDMA Protocol Verbs §7.3).
 */
import { RiAsyncEventType } from '../rnicpi/types.js';
import { Fault, type WireError } from '../rnic/faults.js';
import { DdpTaggedEcode, DdpUntaggedEcode, RdmapEcode, RdmapEtype, TerminateError } from '../wire/errors.js';
import { RdmapOpcode } from '../wire/rdmap.js';

const rp = (ecode: RdmapEcode, why?: string) => () => TerminateError.rdmap(RdmapEtype.RemoteProtection, ecode, why);
const ro = (ecode: RdmapEcode, why?: string) => () => TerminateError.rdmap(RdmapEtype.RemoteOperation, ecode, why);
const dt = (ecode: DdpTaggedEcode, why?: string) => () => TerminateError.ddpTagged(ecode, why);
const du = (ecode: DdpUntaggedEcode, why?: string) => () => TerminateError.ddpUntagged(ecode, why);

/**
 * The Terminate of each fault. Tagged sink errors are DDP tagged buffer errors (RFC 5041
 * §7.2), except rights, which DDP does not know and RDMAP reports as a remote protection
 * error (RFC 5040 §7.2), as siw does; a Read Request's source errors are RDMAP remote
 * protection errors (RFC 5040 §7.2).
 */
const TERMINATE_OF_FAULT: Readonly<Partial<Record<Fault, () => TerminateError>>> = {
  [Fault.INVALID_STAG]: dt(DdpTaggedEcode.InvalidStag),
  [Fault.BOUNDS]: dt(DdpTaggedEcode.BaseOrBounds),
  [Fault.RIGHTS]: rp(RdmapEcode.AccessRights),
  [Fault.NOT_ASSOCIATED]: dt(DdpTaggedEcode.StagNotAssociated),
  [Fault.WRAP]: dt(DdpTaggedEcode.ToWrap),
  // No receive posted: iWARP has no RNR (RFC 5041 §7, Verbs §13.2).
  [Fault.NO_RECV_BUFFER]: du(DdpUntaggedEcode.InvalidMsnNoBuffer, 'no receive WQE posted'),
  [Fault.MSG_TOO_LONG]: du(DdpUntaggedEcode.MessageTooLong),
  [Fault.BAD_OFFSET]: du(DdpUntaggedEcode.InvalidMo),
  [Fault.INVALIDATE_INVALID_STAG]: rp(RdmapEcode.InvalidStag, 'Send with Invalidate'),
  [Fault.INVALIDATE_NOT_ASSOCIATED]: rp(RdmapEcode.StagNotAssociated, 'Send with Invalidate'),
  [Fault.INVALIDATE_RIGHTS]: rp(RdmapEcode.AccessRights, 'Send with Invalidate'),
  [Fault.CANNOT_INVALIDATE]: rp(RdmapEcode.CannotInvalidate, 'Send with Invalidate'),
  // IRD exceeded: "Invalid MSN - MSN range is not valid" (RFC 5040 §6.10, Verbs §7.3: 0x1203).
  [Fault.IRD_EXCEEDED]: du(DdpUntaggedEcode.InvalidMsnRange, 'more Read Requests than IRD'),
  // Reads not enabled: the Read Request queue does not exist (Verbs §7.3: 0x1201).
  [Fault.READ_NOT_ENABLED]: du(DdpUntaggedEcode.InvalidQn, 'RDMA Read not enabled'),
  [Fault.READ_SRC_INVALID_STAG]: rp(RdmapEcode.InvalidStag),
  [Fault.READ_SRC_BOUNDS]: rp(RdmapEcode.BaseOrBounds),
  [Fault.READ_SRC_RIGHTS]: rp(RdmapEcode.AccessRights),
  [Fault.READ_SRC_NOT_ASSOCIATED]: rp(RdmapEcode.StagNotAssociated),
  [Fault.READ_SRC_WRAP]: rp(RdmapEcode.ToWrap),
  [Fault.READ_SRC_GONE]: rp(RdmapEcode.InvalidStag, 'Read source invalidated'),
  [Fault.UNEXPECTED_RESPONSE]: ro(RdmapEcode.UnexpectedOpcode, 'Read Response with no Read outstanding'),
  [Fault.RESPONSE_STAG_MISMATCH]: dt(DdpTaggedEcode.InvalidStag, 'Read Response STag does not match the ORQ head'),
  [Fault.RESPONSE_OUT_OF_RANGE]: dt(DdpTaggedEcode.BaseOrBounds, 'Read Response outside the requested sink'),
  [Fault.UNEXPECTED_OP]: ro(RdmapEcode.UnexpectedOpcode),
  // Atomics (RFC 7306 §5): an Atomic Request's target is checked like a Read Request's source
  // (RDMAP remote protection errors), and the request counts against IRD on the shared queue.
  // See the spec-notes for the codes RFC 7306 leaves to us.
  [Fault.ATOMIC_IRD_EXCEEDED]: du(DdpUntaggedEcode.InvalidMsnRange, 'more Read and Atomic Requests than IRD'),
  [Fault.ATOMIC_MISALIGNED]: ro(RdmapEcode.Unspecified, 'Atomic Request target not 8-octet aligned'),
  [Fault.ATOMIC_INVALID_STAG]: rp(RdmapEcode.InvalidStag, 'Atomic Request'),
  [Fault.ATOMIC_BOUNDS]: rp(RdmapEcode.BaseOrBounds, 'Atomic Request'),
  [Fault.ATOMIC_RIGHTS]: rp(RdmapEcode.AccessRights, 'Atomic Request without Remote Atomic access'),
  [Fault.ATOMIC_NOT_ASSOCIATED]: rp(RdmapEcode.StagNotAssociated, 'Atomic Request'),
  [Fault.ATOMIC_WRAP]: rp(RdmapEcode.ToWrap, 'Atomic Request'),
  [Fault.ATOMIC_UNSUPPORTED]: ro(RdmapEcode.UnexpectedOpcode, 'AOpCode or operand size not supported'),
  [Fault.UNEXPECTED_ATOMIC_RESPONSE]: ro(RdmapEcode.UnexpectedOpcode, 'Atomic Response with no matching atomic outstanding'),
  // RDMAP "Local Catastrophic" (Verbs §6.2 T8).
  [Fault.LOCAL_CATASTROPHIC]: () => new TerminateError(0, 0, 0),
  // "Catastrophic error, localized to RDMAP Stream" 0x0207 (Verbs §7.3).
  [Fault.STREAM_CATASTROPHIC]: () => new TerminateError(0, 2, 7),
};

/**
 * The fault behind a Terminate received for one of our Atomic Requests (the inverse of the
 * atomic rows above), so the core can complete the atomic with its own status.
 */
export function faultOfAtomicTerminate(layer: number, etype: number, ecode: number): Fault | undefined {
  if (layer === 1 && etype === 2 && ecode === DdpUntaggedEcode.InvalidMsnRange) return Fault.ATOMIC_IRD_EXCEEDED;
  if (layer !== 0) return undefined;
  if (etype === RdmapEtype.RemoteProtection) {
    switch (ecode) {
      case RdmapEcode.InvalidStag:
        return Fault.ATOMIC_INVALID_STAG;
      case RdmapEcode.BaseOrBounds:
        return Fault.ATOMIC_BOUNDS;
      case RdmapEcode.AccessRights:
        return Fault.ATOMIC_RIGHTS;
      case RdmapEcode.StagNotAssociated:
        return Fault.ATOMIC_NOT_ASSOCIATED;
      case RdmapEcode.ToWrap:
        return Fault.ATOMIC_WRAP;
    }
  }
  if (etype === RdmapEtype.RemoteOperation && ecode === RdmapEcode.UnexpectedOpcode) return Fault.ATOMIC_UNSUPPORTED;
  if (etype === RdmapEtype.RemoteOperation && ecode === RdmapEcode.Unspecified) return Fault.ATOMIC_MISALIGNED;
  return undefined;
}

/**
 * The fault behind a Terminate received for one of our Read Requests (the inverse of the Read
 * rows above), so the core can complete the Read with its own status rather than a flush.
 */
export function faultOfReadTerminate(layer: number, etype: number, ecode: number): Fault | undefined {
  if (layer === 1 && etype === 2 && ecode === DdpUntaggedEcode.InvalidMsnRange) return Fault.IRD_EXCEEDED;
  if (layer === 1 && etype === 2 && ecode === DdpUntaggedEcode.InvalidQn) return Fault.READ_NOT_ENABLED;
  if (layer !== 0 || etype !== RdmapEtype.RemoteProtection) return undefined;
  switch (ecode) {
    case RdmapEcode.InvalidStag:
      return Fault.READ_SRC_INVALID_STAG;
    case RdmapEcode.BaseOrBounds:
      return Fault.READ_SRC_BOUNDS;
    case RdmapEcode.AccessRights:
      return Fault.READ_SRC_RIGHTS;
    case RdmapEcode.StagNotAssociated:
      return Fault.READ_SRC_NOT_ASSOCIATED;
    case RdmapEcode.ToWrap:
      return Fault.READ_SRC_WRAP;
  }
  return undefined;
}

/**
 * A Terminate message as the QP keeps it (RNICPI §6.7 `terminate_buffer`): the message after its
 * DDP header, its layer/type/code (RFC 5040 §7.2), who sent it, and the fault behind it.
 */
export function terminateRecord(
  t: { layer: number; etype: number; ecode: number },
  bytes: Uint8Array,
  local: boolean,
  fault?: Fault,
): WireError {
  return { bytes, local, ...(fault !== undefined && { fault }), codes: { layer: t.layer, etype: t.etype, ecode: t.ecode } };
}

/** The Terminate that reports `f` on an iWARP stream. */
export function terminateOfFault(f: Fault): TerminateError {
  return (TERMINATE_OF_FAULT[f] ?? TERMINATE_OF_FAULT[Fault.LOCAL_CATASTROPHIC]!)();
}

/**
 * The affiliated async event for an error the iWARP transport found itself (Verbs §7.3,
 * RNICPI §6.11); `opcode` is the offending segment's RDMAP opcode, or -1.
 */
export function asyncEventForTerminate(err: TerminateError, opcode: number): RiAsyncEventType {
  const layer = err.layer;
  if (layer === 2) return err.ecode === 2 ? RiAsyncEventType.QP_LLQ_INTEGRITY_ERROR_CRC : RiAsyncEventType.QP_LLQ_INTEGRITY_ERROR_BAD_FPDU;
  const readReq = opcode === RdmapOpcode.ReadRequest;
  if (layer === 1) {
    if (err.etype === 1) {
      if (err.ecode === DdpTaggedEcode.InvalidVersion) return RiAsyncEventType.QP_REMOTE_OP_ERROR_DDP_VERSION;
      if (err.ecode === DdpTaggedEcode.BaseOrBounds) return RiAsyncEventType.QP_PROTECTION_ERROR_BOUNDS_VIOLATION;
      if (err.ecode === DdpTaggedEcode.ToWrap) return RiAsyncEventType.QP_PROTECTION_ERROR_WRAP_ERROR;
      return RiAsyncEventType.QP_PROTECTION_ERROR_STAG_QP_MISMATCH;
    }
    if (err.etype === 2) {
      if (err.ecode === DdpUntaggedEcode.InvalidQn) return RiAsyncEventType.QP_REMOTE_OP_ERROR_DDP_QN;
      if (err.ecode === DdpUntaggedEcode.InvalidVersion) return RiAsyncEventType.QP_REMOTE_OP_ERROR_DDP_VERSION;
      if (readReq) return RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_TOO_MANY_RDMA_RDs;
      return RiAsyncEventType.QP_RQ_PROTECTION_ERROR_INVALID_MSN;
    }
    return RiAsyncEventType.QP_LLQ_INTEGRITY_ERROR_SIZE;
  }
  if (err.etype === RdmapEtype.RemoteProtection) {
    if (err.ecode === RdmapEcode.AccessRights) return RiAsyncEventType.QP_PROTECTION_ERROR_ACCESS_VIOLATION;
    return RiAsyncEventType.QP_PROTECTION_ERROR_STAG_QP_MISMATCH;
  }
  if (err.ecode === RdmapEcode.InvalidVersion) return RiAsyncEventType.QP_REMOTE_OP_ERROR_RDMA_VERSION;
  if (err.ecode === RdmapEcode.UnexpectedOpcode) return RiAsyncEventType.QP_REMOTE_OP_ERROR_OPCODE;
  return RiAsyncEventType.QP_LOCAL_CATASTROPHIC_ERROR;
}

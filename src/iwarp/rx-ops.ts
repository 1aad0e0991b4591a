/**
 * What the iWARP transport does with each inbound RDMAP message, by opcode (RFC 5040 §4;
 * RFC 7306 §5–6), as Linux siw's `siw_qp_rx.c` beside its transmit side: the DDP sequencing
 * of each untagged queue (RFC 5041 §5: one MSN per queue, starting at 1) and the header checks
 * of the message here, its semantics (access, placement, receive matching, ORQ/IRQ) in the
 * core's responder and completer. A fault the core reports ends the receive side with its
 * Terminate through {@link IwarpConn.fault}; a DDP or RDMAP error found here is thrown as a
 * {@link TerminateError} and caught by the connection's FPDU loop.
 *
 * @packageDocumentation
 */
import { type AtomicArgs, AtomicKind } from '../rnic/atomics.js';
import { Fault } from '../rnic/faults.js';
import { logger } from '../util/log.js';
import { copyUlpdu, type Fpdu } from '../wire/deframer.js';
import { DdpUntaggedEcode, RdmapEcode, RdmapEtype, TerminateError } from '../wire/errors.js';
import { type RdmapHeaderStruct, RdmapOpcode } from '../wire/rdmap.js';
import { decodeTerminate } from '../wire/terminate.js';
import type { IwarpConn } from './datapath.js';
import { faultOfAtomicTerminate, faultOfReadTerminate, terminateRecord } from './terminate-map.js';
import { AOP_EXTENDED, copyUlpduPrefixInto, IMM_AFTER_WRITE } from './tx-headers.js';

const log = logger('conn');

/** What handles one inbound message of an opcode. */
export type RxHandler = (c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu) => void;

/** Inbound RDMA Write (RFC 5040 §4.3): placement is the responder's. */
export function rxWrite(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void {
  const len = f.length - h.headerLength;
  c.fault(c.qp.responder.rxWrite(h.stag, h.to, len, h.last, f, h.headerLength), f);
}

/** Inbound Read Response: matched against the ORQ by the responder (RFC 5040 §4.5). */
export function rxReadResponse(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void {
  const len = f.length - h.headerLength;
  c.fault(c.qp.completer.rxReadResponse(h.stag, h.to, len, h.last, f, h.headerLength, c), f);
}

/** Inbound Send family (RFC 5040 §4.6–4.7): the DDP MSN here, receive matching in the responder. */
export function rxSend(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void {
  if (h.msn !== c.recvMsn) {
    throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidMsnRange, `MSN ${h.msn}, expected ${c.recvMsn}`);
  }
  const s = c.rxSeg;
  s.offset = h.mo;
  s.len = f.length - h.headerLength;
  s.last = h.last;
  s.se = h.info.solicited;
  s.invalidate = h.info.invalidate;
  s.invStag = s.invalidate ? h.invalidateStag : 0;
  s.imm = undefined;
  const r = c.qp.responder.rxSend(s, f, h.headerLength);
  if (r === Fault.OK && h.last) c.recvMsn = (c.recvMsn + 1) >>> 0;
  c.fault(r, f);
}

/** Inbound RDMA Read Request (RFC 5040 §4.4): DDP sequencing here, IRD and access in the responder. */
export function rxReadRequest(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void {
  const qp = c.qp;
  if (!qp.enableRdmaRead) {
    // Reads not enabled: the Read Request queue does not exist (Verbs §7.3: 0x1201).
    c.fault(Fault.READ_NOT_ENABLED, f);
    return;
  }
  if (h.msn !== c.recvReadMsn) {
    throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidMsnRange, `Read Request MSN ${h.msn}, expected ${c.recvReadMsn}`);
  }
  if (h.mo !== 0) throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidMo);
  if (!h.last) throw TerminateError.rdmap(RdmapEtype.RemoteOperation, RdmapEcode.CatastrophicStream, 'Read Request without L bit');
  const r = qp.responder.rxReadRequest(h.sinkStag, h.sinkTo, h.readSize, h.srcStag, h.srcTo, c);
  if (r === Fault.OK) c.recvReadMsn = (c.recvReadMsn + 1) >>> 0;
  c.fault(r, f);
}

/**
 * Inbound Immediate Data (RFC 7306 §6), on the Send queue: softrdma's Send with Immediate
 * (payload after the header), or, marked {@link IMM_AFTER_WRITE}, the immediate of the RDMA
 * Write before it. The verbs' 32-bit immediate is the low-order half of the 64 bits.
 */
export function rxImmediate(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void {
  if (c.rfc7306Refused(f)) return;
  if (h.msn !== c.recvMsn) {
    throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidMsnRange, `MSN ${h.msn}, expected ${c.recvMsn}`);
  }
  const imm = Number(h.immediateData & 0xffff_ffffn);
  const len = f.length - h.headerLength;
  let r: Fault;
  if (h.rsvdUlp32 === IMM_AFTER_WRITE && h.mo === 0 && h.last && len === 0) r = c.qp.responder.rxWriteImm(imm, h.info.solicited);
  else {
    const s = c.rxSeg;
    s.offset = h.mo;
    s.len = len;
    s.last = h.last;
    s.se = h.info.solicited;
    s.invalidate = false;
    s.invStag = 0;
    s.imm = imm;
    r = c.qp.responder.rxSend(s, f, h.headerLength);
  }
  if (r === Fault.OK && h.last) c.recvMsn = (c.recvMsn + 1) >>> 0;
  c.fault(r, f);
}

/** Inbound Atomic Request (RFC 7306 §5.1): DDP sequencing on the Read Request queue here, the rest in the core. */
export function rxAtomicRequest(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void {
  if (c.rfc7306Refused(f)) return;
  if (h.msn !== c.recvReadMsn) {
    throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidMsnRange, `Atomic Request MSN ${h.msn}, expected ${c.recvReadMsn}`);
  }
  if (h.mo !== 0) throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidMo);
  if (!h.last) throw TerminateError.rdmap(RdmapEtype.RemoteOperation, RdmapEcode.CatastrophicStream, 'Atomic Request without L bit');
  const extra = f.length - h.headerLength;
  const ext = (h.atomicOpcode & AOP_EXTENDED) !== 0;
  const kind = h.atomicOpcode & ~AOP_EXTENDED;
  let args: AtomicArgs;
  if (kind > AtomicKind.COMPARE_SWAP || (!ext && extra !== 0) || (ext && extra !== 32 && extra !== 96)) {
    // An AOpCode or operand size we do not implement.
    args = { kind: -1 as AtomicKind, size: 0, addSwap: [], addSwapMask: [], compare: [], compareMask: [] };
  } else {
    args = {
      kind,
      size: 8 + extra / 4,
      addSwap: [h.addSwapData],
      addSwapMask: [h.addSwapMask],
      compare: [h.compareData],
      compareMask: [h.compareMask],
    };
    if (extra > 0) {
      const dv = operandWords(f, h, extra);
      for (let o = 0; o < extra; o += 32) {
        args.addSwap.push(dv.getBigUint64(o));
        args.addSwapMask.push(dv.getBigUint64(o + 8));
        args.compare.push(dv.getBigUint64(o + 16));
        args.compareMask.push(dv.getBigUint64(o + 24));
      }
    }
  }
  const r = c.qp.responder.rxAtomicRequest(h.requestId, args, h.remoteStag, h.remoteTo, c);
  if (r === Fault.OK) c.recvReadMsn = (c.recvReadMsn + 1) >>> 0;
  c.fault(r, f);
}

/** Inbound Atomic Response (RFC 7306 §5.2) on its own queue (QN 3): matched to the ORQ head by the core. */
export function rxAtomicResponse(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void {
  if (c.rfc7306Refused(f)) return;
  if (h.msn !== c.recvAtomicRespMsn) {
    throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidMsnRange, `Atomic Response MSN ${h.msn}, expected ${c.recvAtomicRespMsn}`);
  }
  if (h.mo !== 0 || !h.last) throw TerminateError.ddpUntagged(DdpUntaggedEcode.InvalidMo);
  const extra = f.length - h.headerLength;
  if (extra % 8 !== 0 || extra > 24) {
    c.fault(Fault.UNEXPECTED_ATOMIC_RESPONSE, f);
    return;
  }
  const orig = [h.originalValue];
  if (extra > 0) {
    const dv = operandWords(f, h, extra);
    for (let o = 0; o < extra; o += 8) orig.push(dv.getBigUint64(o));
  }
  const r = c.qp.completer.rxAtomicResponse(h.originalRequestId, orig, c);
  if (r === Fault.OK) c.recvAtomicRespMsn = (c.recvAtomicRespMsn + 1) >>> 0;
  c.fault(r, f);
}

/** Inbound Terminate (RFC 5040 §4.8): recorded for Query QP; no Terminate goes back. */
export function rxTerminate(c: IwarpConn, h: RdmapHeaderStruct, f: Fpdu): void {
  const all = new Uint8Array(f.length);
  copyUlpduPrefixInto(f, all);
  const body = all.subarray(h.headerLength);
  let layer = 0;
  let etype = 0;
  let ecode = 0;
  let fault: Fault | undefined;
  try {
    const t = decodeTerminate(all, h.headerLength);
    layer = t.layer;
    etype = t.etype;
    ecode = t.ecode;
    // The Terminate names the offending segment: a Read or Atomic Request of ours gets its own
    // status (Verbs §6.6.2.4, "Remote Termination Error ... related to this Work Request").
    const seg = t.ddpHeader;
    const op = seg && seg.length >= 2 ? seg[1]! & 0x0f : -1;
    if (op === RdmapOpcode.AtomicRequest) fault = faultOfAtomicTerminate(layer, etype, ecode);
    else if (op === RdmapOpcode.ReadRequest) fault = faultOfReadTerminate(layer, etype, ecode);
  } catch {
    // A malformed Terminate still terminates the stream; its code is then unknown.
  }
  c.rxStopped = true;
  c.qp.rnic.counters.terminatesReceived++;
  log('QP[%d] Terminate received: %s', c.qp.id, new TerminateError(layer, etype, ecode).message);
  c.qp.onTerminateReceived(terminateRecord({ layer, etype, ecode }, body.slice(0, 52), false, fault));
}

/** The operand words an RFC 7306 message carries after its fixed header (§5: 32- or 96-octet extensions). */
function operandWords(f: Fpdu, h: RdmapHeaderStruct, extra: number): DataView {
  const b = new Uint8Array(extra);
  copyUlpdu(f, b, 0, h.headerLength, extra);
  return new DataView(b.buffer);
}

/** Per-opcode receive handlers (RFC 5040 §4; RFC 7306 §5–6, refused unless negotiated). */
export const RX_HANDLERS: readonly (RxHandler | undefined)[] = [
  rxWrite, // 0 Write
  rxReadRequest, // 1 Read Request
  rxReadResponse, // 2 Read Response
  rxSend, // 3 Send
  rxSend, // 4 Send with Invalidate
  rxSend, // 5 Send with SE
  rxSend, // 6 Send with SE and Invalidate
  rxTerminate, // 7 Terminate
  rxImmediate, // 8 Immediate Data (RFC 7306)
  rxImmediate, // 9 Immediate Data with SE
  rxAtomicRequest, // 10 Atomic Request
  rxAtomicResponse, // 11 Atomic Response
];

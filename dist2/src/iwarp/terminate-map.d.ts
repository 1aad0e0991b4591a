/**
 * How iWARP reports the core's neutral faults on its wire: the Terminate layer, error type
 * and code of each {@link Fault} (RFC 5040 §7.2 RDMAP codes, RFC 5041 §7.2 DDP codes), as
 * Linux siw chooses them. And the affiliated event of the errors only the iWARP transport can
 * see (MPA CRC and framing, DDP MSN/MO/QN, RDMAP version/opcode: RDMA Protocol Verbs §7.3).
 */
import { RiAsyncEventType } from '../rnicpi/types.js';
import { Fault } from '../rnic/faults.js';
import { TerminateError } from '../wire/errors.js';
/**
 * The fault behind a Terminate received for one of our Atomic Requests (the inverse of the
 * atomic rows above), so the core can complete the atomic with its own status.
 */
export declare function faultOfAtomicTerminate(layer: number, etype: number, ecode: number): Fault | undefined;
/**
 * The fault behind a Terminate received for one of our Read Requests (the inverse of the Read
 * rows above), so the core can complete the Read with its own status rather than a flush.
 */
export declare function faultOfReadTerminate(layer: number, etype: number, ecode: number): Fault | undefined;
/** The Terminate that reports `f` on an iWARP stream. */
export declare function terminateOfFault(f: Fault): TerminateError;
/**
 * The affiliated async event for an error the iWARP transport found itself (Verbs §7.3,
 * RNICPI §6.11); `opcode` is the offending segment's RDMAP opcode, or -1.
 */
export declare function asyncEventForTerminate(err: TerminateError, opcode: number): RiAsyncEventType;

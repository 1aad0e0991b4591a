/**
 * The rdma_cm events of one id as awaitable values, and the mapping of the failure events
 * (manual §5.4: REJECTED, UNREACHABLE, CONNECT_ERROR…) to typed errors.
 * @internal
 */
import { rdma_cm_event_type, type rdma_cm_event, type rdma_cm_id } from '../verbs/index.js';
import type { CmEvents } from './device.js';
import { ConnectError } from './errors.js';
/** An rdma_cm event reduced to what outlives its acknowledgement. */
export interface CmEvent {
    type: rdma_cm_event_type;
    status: number;
    privateData: Uint8Array | null;
}
/**
 * The private data of an event, copied. The InfiniBand CM carries no length (IBTA Vol. 1 §12.6):
 * on the RoCE device it arrives zero-padded to the message's field (56 octets in a REQ after the
 * cma_hdr, 196 in a REP, 148 in a REJ), so the padding — every trailing zero octet — is removed;
 * private data that must end in zero octets needs a length of its own on RoCE.
 */
export declare function privateDataOf(ev: rdma_cm_event): Uint8Array | null;
/** Routes the events of `id` (one waiter at a time; events queue until taken, at most a few per id). */
export declare class IdEvents {
    #private;
    readonly id: rdma_cm_id;
    /** Called for events once nobody waits with {@link next} (the connection's DISCONNECTED). */
    onEvent: ((ev: CmEvent) => void) | null;
    constructor(events: CmEvents, id: rdma_cm_id);
    /** The next event; rejects with `signal.reason` when `signal` aborts first. */
    next(signal?: AbortSignal): Promise<CmEvent>;
    /** Hands the events still queued, then every later one, to `fn`. */
    forward(fn: (ev: CmEvent) => void): void;
}
/** The typed error of an event that is not the one a step waited for. */
export declare function eventError(what: string, ev: CmEvent, where: string): ConnectError;

/**
 * Shared bits of the IT-API example client and server: printing Events and waiting for them.
 * Written against the IT-API binding only.
 */
import { it_event_type_t, type it_evd_handle_t, type it_event_t } from '../../src/itapi/index.js';
/** The first IT-API Interface (an iWARP RNIC of softrdma). */
export declare function interfaceName(): string;
/** One line describing an Event (its name and the fields that matter for it). */
export declare function describe(ev: it_event_t): string;
/** Waits for the next Event of `evd` and prints it. */
export declare function nextEvent(evd: it_evd_handle_t, who: string, ms?: number): Promise<it_event_t>;
/** Waits for an Event with number `n` (printing everything it sees on the way). */
export declare function expectEvent(evd: it_evd_handle_t, n: it_event_type_t, who: string): Promise<it_event_t>;
/** The client's buffer description, carried in its connect private data. */
export interface BufferOffer {
    addr: bigint;
    context: number;
    length: number;
    greeting: string;
}
export declare function encodeOffer(o: BufferOffer): Uint8Array;
export declare function decodeOffer(pd: Uint8Array): BufferOffer;

import { type ri_cq_handle_t } from '../rnicpi/types.js';
import type { ItWaitResult } from './api.js';
import type { ItCqTarget } from './access.js';
import type { Ep } from './ep.js';
import { type Ia, ItObject } from './objects.js';
import { IT_HANDLE_KIND, it_event_type_t as ET, it_handle_type_enum_t as HT, type it_evd_callback_rtn_t, type it_evd_flags_t, type it_event_t } from './types.js';
/** A queued Event. */
export interface Queued {
    readonly ev: it_event_t;
    /** A Notification Event (counts for criteria regardless of the threshold). */
    readonly notify: boolean;
    /** Called when the Consumer dequeues it (work-queue accounting). */
    readonly onDequeue: (() => void) | null;
}
interface Waiter {
    resolve(r: ItWaitResult): void;
    cleanup(): void;
}
/** Largest SEVD queue the IA grants (`IT_ERR_RESOURCE_QUEUE_SIZE` above). */
export declare const MAX_SEVD_QUEUE: number;
/** Next synthetic fd number (`IT_EVD_CREATE_FD`; see the spec-notes). */
export declare function nextFd(): number;
/** Common part of SEVDs and AEVDs. */
export declare abstract class Evd extends ItObject {
    private readonly ia_;
    /** `evd_flag` as given at creation (CREATE_FD is cleared if the fd goes away). */
    flags: it_evd_flags_t;
    /** −1 when none. */
    readonly fd: number;
    readonly [IT_HANDLE_KIND]: HT.IT_HANDLE_TYPE_EVD;
    enabled: boolean;
    cb: {
        fn: it_evd_callback_rtn_t;
        arg: unknown;
    } | null;
    /** The callback may fire at the next transition into criteria (set when drained). */
    cbArmed: boolean;
    cbScheduled: boolean;
    cbRunning: boolean;
    readonly waiters: Waiter[];
    constructor(ia_: Ia, 
    /** `evd_flag` as given at creation (CREATE_FD is cleared if the fd goes away). */
    flags: it_evd_flags_t, 
    /** −1 when none. */
    fd: number);
    get ia(): Ia;
    abstract readonly isAevd: boolean;
    /** In Notification criteria (what wakes waiters and fires callbacks). */
    abstract inCriteria(): boolean;
    /** No Event to hand out (callback re-arming). */
    abstract isEmpty(): boolean;
    /** Takes the Event a satisfied wait returns. */
    protected abstract takeForWait(): it_event_t | null;
    /** `it_evd_dequeue`: the next Event, or null when empty. */
    abstract dequeue(): it_event_t | null;
    /** Pulls pending completions from the RNIC into the queue(s). */
    abstract sync(): void;
    /** `nmore` of a wait: Events left (SEVD); null for an AEVD. */
    abstract nmore(): number | null;
    /** Hands Events to waiters while in criteria, then considers the callback. */
    wake(): void;
    /** Fires the callback once on a transition into criteria after a drain. */
    maybeCallback(): void;
    attachCallback(fn: it_evd_callback_rtn_t, arg: unknown): void;
    /** `it_evd_wait` once the state checks passed. */
    wait(timeoutUs: bigint, signal: AbortSignal | undefined): Promise<ItWaitResult>;
    /** Hook before a wait checks criteria (the AEVD refreshes its Notifications). */
    protected prepareWait(): void;
    /** Ends every wait with `IT_ERR_ABORT` (EVD or IA freed). */
    abortWaiters(): void;
    /** Frees the EVD unconditionally (the busy checks are the caller's). */
    abstract destroy(): void;
}
/** A Simple Event Dispatcher. */
export declare class Sevd extends Evd implements ItCqTarget {
    readonly stream: ET;
    queueSize: number;
    threshold: number;
    readonly isAevd = false;
    readonly queue: Queued[];
    private notifyCount;
    overflowed: boolean;
    /** An overflow now would be reported. */
    private reportArmed;
    private readonly notifyOnOverflow;
    private readonly autoReset;
    /** DTO overflow happened: every later completion is dropped (it cannot be corrected). */
    dtoDead: boolean;
    aevd: Aevd | null;
    /** Objects feeding this SEVD (Endpoints, Listens): `evd_bound`, `IT_ERR_EVD_BUSY`. */
    feeders: number;
    /** DTO: the Endpoints whose work queues complete here (broken by a DTO overflow). */
    readonly eps: Set<Ep>;
    /** DTO: the RNICPI CQ. */
    cq: ri_cq_handle_t | null;
    /** DTO: CQ entries reserved by the attached work queues (plus the queue size). */
    private cqReserved;
    private cqCapacity;
    private draining;
    constructor(ia: Ia, stream: ET, flags: it_evd_flags_t, fd: number, queueSize: number, threshold: number);
    get length(): number;
    inCriteria(): boolean;
    isEmpty(): boolean;
    nmore(): number;
    /** Creates the CQ of a DTO SEVD; false if the RNIC refuses (`IT_ERR_RESOURCES`). */
    createCq(): boolean;
    /**
     * Reserves CQ room for `n` more completions (a work queue attached, or the queue grown), so
     * the CQ can never overflow behind the SEVD; false if the RNIC cannot grow it.
     */
    reserveCq(n: number): boolean;
    /** Returns CQ room reserved by a work queue that is gone (the CQ keeps its size). */
    unreserveCq(n: number): void;
    /** The CQ's event handler fired. */
    onRiCqEvent(): void;
    /** Moves every completion from the CQ into the SEVD (converted by the posting Endpoint). */
    drain(): void;
    sync(): void;
    /**
     * Queues an Event (the caller has already changed any state the Event reports). Returns
     * false if it was dropped because the SEVD overflowed.
     */
    post(ev: it_event_t, notify: boolean, onDequeue?: (() => void) | null): boolean;
    /** Room left (CM_REQ: a full queue drops new connection requests). */
    get full(): boolean;
    /** The queue gained Events or criteria may have changed: waiters, AEVD, callback. */
    changed(): void;
    /** Removes the head Event. */
    shift(): Queued | undefined;
    /** The queue has room again: AUTO_RESET re-arms overflow reporting and clears the flag. */
    private roomMade;
    protected takeForWait(): it_event_t | null;
    dequeue(): it_event_t | null;
    /** Records an Event dropped because the SEVD is full (a CM_REQ SEVD drops requests). */
    drop(): void;
    private overflow;
    /** Clears `evd_overflowed` (`it_evd_modify`): re-arms reporting. */
    clearOverflow(): void;
    /** New queue size (validated by the caller): grows the CQ first for a DTO SEVD. */
    resize(size: number): boolean;
    setEnabled(on: boolean): void;
    destroy(): void;
}
/** An Aggregate Event Dispatcher. */
export declare class Aevd extends Evd {
    readonly isAevd = true;
    readonly members: Set<Sevd>;
    /** DEQUEUE_NOTIFICATIONS: SEVDs with a queued Notification Event, oldest first. */
    private notes;
    private readonly noted;
    /** Round-robin cursor over members (starvation-free hand-out). */
    private rr;
    get dequeueNotifications(): boolean;
    nmore(): null;
    /** A member entered or stayed in criteria while enabled. */
    memberChanged(s: Sevd): void;
    /** A member lost an Event: the AEVD may have become empty (callback re-arming). */
    memberShifted(): void;
    private note;
    /** Members still in criteria get a new Notification (at each dequeue and wait). */
    private refresh;
    protected prepareWait(): void;
    inCriteria(): boolean;
    isEmpty(): boolean;
    sync(): void;
    private members_;
    private takeNote;
    protected takeForWait(): it_event_t | null;
    dequeue(): it_event_t | null;
    attach(s: Sevd): void;
    detach(s: Sevd): void;
    setEnabled(on: boolean): void;
    destroy(): void;
}
export {};

/**
 * Event Dispatchers (IT-API §2 Event model, `it_evd_*` pages).
 *
 * An SEVD queues the Events of one Event Stream; an AEVD aggregates SEVDs of one IA. The rules
 * implemented here, in one place:
 * - **Notification criteria**: an SEVD is in criteria when it holds a Notification Event or at
 *   least `sevd_threshold` Events (0 = thresholding off). Non-notification Events are successful
 *   DTO completions without `IT_NOTIFY_FLAG` (and, for Receives, without a solicited Send);
 *   everything else notifies. Waiters, AEVD Notifications and callbacks all key off criteria.
 * - **Overflow**: an Event that does not fit is dropped and `evd_overflowed` is set; with
 *   reporting armed (NOTIFY, or the stream default) `IT_ASYNC_AFF_SEVD_ENQUEUE_FAILURE` goes to
 *   the IA's affiliated SEVD (the affiliated SEVD itself reports to the unaffiliated one, which
 *   never reports). AUTO_RESET re-arms reporting as soon as room is made; otherwise only
 *   clearing `evd_overflowed` does. Non-DTO streams stop dropping once there is room; a DTO SEVD
 *   keeps dropping and breaks every Endpoint feeding it (`dto_evd_overflow_detection`).
 * - **AEVD**: without `IT_EVD_DEQUEUE_NOTIFICATIONS` it hands out the member SEVDs' Events
 *   (each keeps its SEVD in `evd`); with it, it queues `IT_AEVD_NOTIFICATION_EVENT`s naming a
 *   member that entered criteria while enabled, and re-notifies on the next dequeue/wait if that
 *   member is still in criteria.
 * - **Callbacks** (privileged): edge-triggered, only after the EVD was drained, one invocation
 *   at a time, from a microtask.
 *
 * A DTO SEVD owns one RNICPI CQ shared by the Endpoints that feed it; completions are drained
 * from the CQ into the SEVD when the CQ's event handler fires and before every dequeue, wait and
 * query, and converted by the Endpoint that posted the work request.
 *
 * @module
 */
import { RiRet } from '../rnicpi/status.js';
import { RiCmpltNotifyType, RiCqModifyMask, type ri_cq_handle_t, type ri_wc_t } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import type { ItWaitResult } from './api.js';
import type { ItCqTarget } from './access.js';
import type { Ep } from './ep.js';
import { type Ia, ItObject } from './objects.js';
import { it_status_t as S } from './status.js';
import {
  IT_HANDLE_KIND,
  IT_TIMEOUT_INFINITE,
  it_evd_flags_t as EF,
  it_event_type_t as ET,
  it_handle_type_enum_t as HT,
  type it_evd_callback_rtn_t,
  type it_evd_flags_t,
  type it_event_t,
} from './types.js';

const log = logger('itapi:evd');

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
export const MAX_SEVD_QUEUE = 1 << 16;

let fdSeq = 100;
/** Next synthetic fd number (`IT_EVD_CREATE_FD`; see the spec-notes). */
export function nextFd(): number {
  return fdSeq++;
}

/** Longest single timer (setTimeout's limit); longer waits chain timers. */
const MAX_TIMER_MS = 2_147_483_647;

/** Common part of SEVDs and AEVDs. */
export abstract class Evd extends ItObject {
  readonly [IT_HANDLE_KIND] = HT.IT_HANDLE_TYPE_EVD as const;
  enabled = true;
  cb: { fn: it_evd_callback_rtn_t; arg: unknown } | null = null;
  /** The callback may fire at the next transition into criteria (set when drained). */
  cbArmed = false;
  cbScheduled = false;
  cbRunning = false;
  readonly waiters: Waiter[] = [];
  readonly #ia_: Ia;
  constructor(
    ia_: Ia,
    /** `evd_flag` as given at creation (CREATE_FD is cleared if the fd goes away). */
    public flags: it_evd_flags_t,
    /** −1 when none. */
    readonly fd: number,
  ) {
    super();
    this.#ia_ = ia_;
  }
  get ia(): Ia {
    return this.#ia_;
  }
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
  wake(): void {
    while (this.waiters.length > 0 && this.inCriteria()) {
      const ev = this.takeForWait();
      if (!ev) break;
      const w = this.waiters.shift()!;
      w.cleanup();
      w.resolve({ status: S.IT_SUCCESS, event: ev, nmore: this.nmore() });
    }
    this.maybeCallback();
  }

  /** Fires the callback once on a transition into criteria after a drain. */
  maybeCallback(): void {
    if (!this.cb || !this.cbArmed || this.cbScheduled || this.freed) return;
    if (!this.inCriteria()) return;
    this.cbArmed = false;
    this.cbScheduled = true;
    queueMicrotask(() => {
      this.cbScheduled = false;
      const cb = this.cb;
      if (!cb || this.freed) return;
      this.cbRunning = true;
      try {
        cb.fn(this, cb.arg);
      } catch (e) {
        log('EVD callback threw: %s', (e as Error).message);
      } finally {
        this.cbRunning = false;
      }
      if (this.cb && !this.freed && this.isEmpty()) this.cbArmed = true;
    });
  }

  attachCallback(fn: it_evd_callback_rtn_t, arg: unknown): void {
    this.cb = { fn, arg };
    this.sync();
    this.cbArmed = this.isEmpty();
  }

  /** `it_evd_wait` once the state checks passed. */
  wait(timeoutUs: bigint, signal: AbortSignal | undefined): Promise<ItWaitResult> {
    this.sync();
    this.prepareWait();
    if (this.inCriteria()) {
      const ev = this.takeForWait();
      if (ev) return Promise.resolve({ status: S.IT_SUCCESS, event: ev, nmore: this.nmore() });
    }
    if (signal?.aborted) return Promise.resolve({ status: S.IT_ERR_INTERRUPT });
    if (timeoutUs === 0n) return Promise.resolve({ status: S.IT_ERR_TIMEOUT_EXPIRED, nmore: this.nmore() });
    return new Promise<ItWaitResult>((resolve) => {
      let timer: NodeJS.Timeout | null = null;
      const waiter: Waiter = {
        resolve,
        cleanup: () => {
          if (timer) clearTimeout(timer);
          timer = null;
          signal?.removeEventListener('abort', onAbort);
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
        },
      };
      const onAbort = (): void => {
        waiter.cleanup();
        resolve({ status: S.IT_ERR_INTERRUPT });
      };
      if (timeoutUs !== IT_TIMEOUT_INFINITE) {
        let leftMs = Number((timeoutUs + 999n) / 1000n);
        const arm = (): void => {
          const ms = Math.min(leftMs, MAX_TIMER_MS);
          leftMs -= ms;
          timer = setTimeout(() => {
            if (leftMs > 0) {
              arm();
              return;
            }
            timer = null;
            waiter.cleanup();
            resolve({ status: S.IT_ERR_TIMEOUT_EXPIRED, nmore: this.nmore() });
          }, ms);
        };
        arm();
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Hook before a wait checks criteria (the AEVD refreshes its Notifications). */
  protected prepareWait(): void {}

  /** Ends every wait with `IT_ERR_ABORT` (EVD or IA freed). */
  abortWaiters(): void {
    for (const w of this.waiters.splice(0)) {
      w.cleanup();
      w.resolve({ status: S.IT_ERR_ABORT });
    }
  }

  /** Frees the EVD unconditionally (the busy checks are the caller's). */
  abstract destroy(): void;
}

/** Effective overflow behaviour of an SEVD: report? re-arm automatically? */
function overflowMode(stream: ET, flags: number): { notify: boolean; autoReset: boolean } {
  if (flags & EF.IT_EVD_OVERFLOW_DEFAULT) {
    switch (stream) {
      case ET.IT_DTO_EVENT_STREAM:
        return { notify: true, autoReset: false };
      case ET.IT_CM_MSG_EVENT_STREAM:
      case ET.IT_ASYNC_AFF_EVENT_STREAM:
        return { notify: true, autoReset: true };
      default:
        // CM_REQ (silent; a full queue times the connect out), UNAFF (never), SOFTWARE (cannot).
        return { notify: false, autoReset: false };
    }
  }
  return { notify: (flags & EF.IT_EVD_OVERFLOW_NOTIFY) !== 0, autoReset: (flags & EF.IT_EVD_OVERFLOW_AUTO_RESET) !== 0 };
}

/** A Simple Event Dispatcher. */
export class Sevd extends Evd implements ItCqTarget {
  readonly isAevd = false;
  readonly queue: Queued[] = [];
  #notifyCount = 0;
  overflowed = false;
  /** An overflow now would be reported. */
  #reportArmed: boolean;
  readonly #notifyOnOverflow: boolean;
  readonly #autoReset: boolean;
  /** DTO overflow happened: every later completion is dropped (it cannot be corrected). */
  dtoDead = false;
  aevd: Aevd | null = null;
  /** Objects feeding this SEVD (Endpoints, Listens): `evd_bound`, `IT_ERR_EVD_BUSY`. */
  feeders = 0;
  /** DTO: the Endpoints (RC and UD) whose work queues complete here (broken by a DTO overflow). */
  readonly eps = new Set<Pick<Ep, 'onDtoEvdOverflow'>>();
  /** DTO: the RNICPI CQ. */
  cq: ri_cq_handle_t | null = null;
  /** DTO: CQ entries reserved by the attached work queues (plus the queue size). */
  #cqReserved = 0;
  #cqCapacity = 0;
  #draining = false;

  constructor(
    ia: Ia,
    readonly stream: ET,
    flags: it_evd_flags_t,
    fd: number,
    public queueSize: number,
    public threshold: number,
  ) {
    super(ia, flags, fd);
    const m = overflowMode(stream, flags);
    this.#notifyOnOverflow = m.notify;
    this.#autoReset = m.autoReset;
    this.#reportArmed = m.notify;
  }

  get length(): number {
    return this.queue.length;
  }

  inCriteria(): boolean {
    return this.#notifyCount > 0 || (this.threshold > 0 && this.queue.length >= this.threshold);
  }
  isEmpty(): boolean {
    return this.queue.length === 0;
  }
  nmore(): number {
    return this.queue.length;
  }

  // ------------------------------------------------------------------ CQ (DTO stream)

  /** Creates the CQ of a DTO SEVD; false if the RNIC refuses (`IT_ERR_RESOURCES`). */
  createCq(): boolean {
    const ia = this.ia;
    this.#cqReserved = this.queueSize;
    const r = ia.ops.ri_cq_create(ia.rnic, { num_cqe: this.#cqReserved, handler_id: ia.device.cqHandlerId }, null, this);
    if (r.status !== RiRet.SUCCESS) return false;
    this.cq = r.cq;
    this.#cqCapacity = r.cq_attr.num_cqe;
    ia.ops.ri_cq_req_notification(ia.rnic, r.cq, RiCmpltNotifyType.ANY);
    return true;
  }

  /**
   * Reserves CQ room for `n` more completions (a work queue attached, or the queue grown), so
   * the CQ can never overflow behind the SEVD; false if the RNIC cannot grow it.
   */
  reserveCq(n: number): boolean {
    if (!this.cq) return true;
    const want = this.#cqReserved + n;
    if (want > this.#cqCapacity) {
      const ia = this.ia;
      const r = ia.ops.ri_cq_modify(ia.rnic, this.cq, RiCqModifyMask.NUM_CQE, { num_cqe: want, handler_id: 0 });
      if (r.status !== RiRet.SUCCESS) return false;
      this.#cqCapacity = r.cq_attr.num_cqe;
    }
    this.#cqReserved = want;
    return true;
  }

  /** Returns CQ room reserved by a work queue that is gone (the CQ keeps its size). */
  unreserveCq(n: number): void {
    if (this.cq) this.#cqReserved = Math.max(this.queueSize, this.#cqReserved - n);
  }

  /** A DTO Endpoint (RC or UD) that fed this SEVD is freed: it stops feeding it and gives back the `n` CQ entries it reserved. */
  releaseEp(ep: Pick<Ep, 'onDtoEvdOverflow'>, n: number): void {
    this.feeders--;
    this.unreserveCq(n);
    this.eps.delete(ep);
  }

  /** The CQ's event handler fired. */
  onRiCqEvent(): void {
    this.drain();
  }

  /** Moves every completion from the CQ into the SEVD (converted by the posting Endpoint). */
  drain(): void {
    const cq = this.cq;
    if (!cq || this.freed || this.#draining) return;
    const ia = this.ia;
    this.#draining = true;
    try {
      for (;;) {
        const r = ia.ops.ri_cq_poll(ia.rnic, cq, 64);
        if (r.status !== RiRet.SUCCESS) break;
        for (const wc of r.wcs as ri_wc_t[]) {
          const ep = wc.qp_os_data as Ep | null;
          ep?.onWc(wc);
        }
      }
    } finally {
      this.#draining = false;
    }
    if (!this.freed) ia.ops.ri_cq_req_notification(ia.rnic, cq, RiCmpltNotifyType.ANY);
  }

  sync(): void {
    this.drain();
  }

  // ------------------------------------------------------------------ queueing

  /**
   * Queues an Event (the caller has already changed any state the Event reports). Returns
   * false if it was dropped because the SEVD overflowed.
   */
  post(ev: it_event_t, notify: boolean, onDequeue: (() => void) | null = null): boolean {
    if (this.freed) return false;
    if (this.dtoDead || this.queue.length >= this.queueSize) {
      this.#overflow();
      return false;
    }
    this.queue.push({ ev, notify, onDequeue });
    if (notify) this.#notifyCount++;
    this.changed();
    return true;
  }

  /** Room left (CM_REQ: a full queue drops new connection requests). */
  get full(): boolean {
    return this.queue.length >= this.queueSize;
  }

  /** The queue gained Events or criteria may have changed: waiters, AEVD, callback. */
  changed(): void {
    this.wake();
    if (this.aevd && this.enabled) this.aevd.memberChanged(this);
  }

  /** Removes the head Event. */
  shift(): Queued | undefined {
    const q = this.queue.shift();
    if (!q) return undefined;
    if (q.notify) this.#notifyCount--;
    this.#roomMade();
    if (this.queue.length === 0 && this.cb) this.cbArmed = true;
    this.aevd?.memberShifted();
    q.onDequeue?.();
    return q;
  }

  /** The queue has room again: AUTO_RESET re-arms overflow reporting and clears the flag. */
  #roomMade(): void {
    if (this.overflowed && this.#autoReset && !this.dtoDead && this.queue.length < this.queueSize) {
      this.overflowed = false;
      this.#reportArmed = this.#notifyOnOverflow;
    }
  }

  protected takeForWait(): it_event_t | null {
    return this.shift()?.ev ?? null;
  }

  dequeue(): it_event_t | null {
    this.sync();
    const q = this.shift();
    if (!q) return null;
    // A dequeue never wakes waiters, but criteria of the AEVD may change.
    return q.ev;
  }

  /** Records an Event dropped because the SEVD is full (a CM_REQ SEVD drops requests). */
  drop(): void {
    this.#overflow();
  }

  #overflow(): void {
    this.overflowed = true;
    if (this.stream === ET.IT_DTO_EVENT_STREAM && !this.dtoDead) {
      // Irrecoverable (IT-API §5.1): every Endpoint on this SEVD breaks and cannot be reset.
      this.dtoDead = true;
      log('DTO SEVD overflow (queue %d): its Endpoints are broken', this.queueSize);
      for (const ep of [...this.eps]) ep.onDtoEvdOverflow();
    }
    if (!this.#reportArmed) return;
    this.#reportArmed = false;
    const ia = this.ia;
    if (this.stream === ET.IT_ASYNC_AFF_EVENT_STREAM) {
      const u = ia.unaffEvd;
      u?.post({ event_number: ET.IT_ASYNC_UNAFF_SEVD_ENQUEUE_FAILURE, evd: u, ia, spigot_id: 0 }, true);
    } else if (this.stream !== ET.IT_ASYNC_UNAFF_EVENT_STREAM) {
      const a = ia.affEvd;
      a?.post({ event_number: ET.IT_ASYNC_AFF_SEVD_ENQUEUE_FAILURE, evd: a, cause: { sevd: this } }, true);
    }
  }

  // ------------------------------------------------------------------ modify

  /** Clears `evd_overflowed` (`it_evd_modify`): re-arms reporting. */
  clearOverflow(): void {
    this.overflowed = false;
    this.#reportArmed = this.#notifyOnOverflow;
  }

  /** New queue size (validated by the caller): grows the CQ first for a DTO SEVD. */
  resize(size: number): boolean {
    if (size > this.queueSize && !this.reserveCq(size - this.queueSize)) return false;
    this.queueSize = size;
    this.#roomMade();
    this.changed();
    return true;
  }

  setEnabled(on: boolean): void {
    if (this.enabled === on) return;
    this.enabled = on;
    // Enabling an SEVD already in criteria notifies its AEVD at once.
    if (on && this.aevd) this.aevd.memberChanged(this);
  }

  destroy(): void {
    if (this.freed) return;
    this.freed = true;
    this.abortWaiters();
    this.cb = null;
    this.aevd?.detach(this);
    this.aevd = null;
    const ia = this.ia;
    if (this.cq) {
      const st = ia.ops.ri_cq_destroy(ia.rnic, this.cq);
      if (st.status !== RiRet.SUCCESS) log('ri_cq_destroy: %s', RiRet[st.status]);
      this.cq = null;
    }
    this.queue.length = 0;
    this.#notifyCount = 0;
    if (ia.affEvd === this) ia.affEvd = null;
    if (ia.unaffEvd === this) ia.unaffEvd = null;
    ia.evds.delete(this);
  }
}

/** An Aggregate Event Dispatcher. */
export class Aevd extends Evd {
  readonly isAevd = true;
  readonly members = new Set<Sevd>();
  /** DEQUEUE_NOTIFICATIONS: SEVDs with a queued Notification Event, oldest first. */
  #notes: Sevd[] = [];
  readonly #noted = new Set<Sevd>();
  /** Round-robin cursor over members (starvation-free hand-out). */
  #rr = 0;

  get dequeueNotifications(): boolean {
    return (this.flags & EF.IT_EVD_DEQUEUE_NOTIFICATIONS) !== 0;
  }

  nmore(): null {
    return null;
  }

  /** A member entered or stayed in criteria while enabled. */
  memberChanged(s: Sevd): void {
    if (this.dequeueNotifications) this.#note(s);
    this.wake();
  }

  /** A member lost an Event: the AEVD may have become empty (callback re-arming). */
  memberShifted(): void {
    if (this.cb && this.isEmpty()) this.cbArmed = true;
  }

  #note(s: Sevd): void {
    if (s.enabled && s.inCriteria() && !this.#noted.has(s)) {
      this.#noted.add(s);
      this.#notes.push(s);
    }
  }

  /** Members still in criteria get a new Notification (at each dequeue and wait). */
  #refresh(): void {
    if (!this.dequeueNotifications) return;
    for (const s of this.members) this.#note(s);
  }

  protected override prepareWait(): void {
    this.#refresh();
  }

  inCriteria(): boolean {
    if (this.dequeueNotifications) return this.#notes.length > 0;
    for (const s of this.members) if (s.enabled && s.inCriteria()) return true;
    return false;
  }

  isEmpty(): boolean {
    if (this.dequeueNotifications) return this.#notes.length === 0;
    for (const s of this.members) if (s.length > 0) return false;
    return true;
  }

  sync(): void {
    for (const s of this.members) s.sync();
  }

  #members_(): Sevd[] {
    const m = [...this.members];
    if (m.length === 0) return m;
    const k = this.#rr++ % m.length;
    return [...m.slice(k), ...m.slice(0, k)];
  }

  #takeNote(): it_event_t | null {
    const s = this.#notes.shift();
    if (!s) return null;
    this.#noted.delete(s);
    if (this.#notes.length === 0 && this.cb) this.cbArmed = true;
    return { event_number: ET.IT_AEVD_NOTIFICATION_EVENT, aevd: this, sevd: s };
  }

  protected takeForWait(): it_event_t | null {
    if (this.dequeueNotifications) return this.#takeNote();
    for (const s of this.#members_()) if (s.enabled && s.inCriteria()) return s.shift()?.ev ?? null;
    return null;
  }

  dequeue(): it_event_t | null {
    this.sync();
    if (this.dequeueNotifications) {
      this.#refresh();
      return this.#takeNote();
    }
    // The first Event of some member (even a disabled one), members served round robin.
    for (const s of this.#members_()) if (s.length > 0) return s.shift()!.ev;
    return null;
  }

  attach(s: Sevd): void {
    this.members.add(s);
    s.aevd = this;
    if (s.enabled) this.memberChanged(s);
  }

  detach(s: Sevd): void {
    this.members.delete(s);
    this.#noted.delete(s);
    this.#notes = this.#notes.filter((x) => x !== s);
    if (s.aevd === this) s.aevd = null;
  }

  setEnabled(on: boolean): void {
    this.enabled = on;
  }

  destroy(): void {
    if (this.freed) return;
    this.freed = true;
    this.abortWaiters();
    this.cb = null;
    for (const s of [...this.members]) this.detach(s);
    this.ia.evds.delete(this);
  }
}

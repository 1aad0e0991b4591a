/**
 * Completion Queues (RDMA Protocol Verbs §8.2.3–8.2.5, RNICPI §5.3 `ri_cq_*`).
 *
 * A CQ is a bounded ring of completions. It reports overflow instead of overwriting
 * (RNICPI `RI_RNIC_CQ_OVERFLOW_CHECKING`), and it carries the one-shot notification arm:
 * "next completion" or "next solicited completion", where every unsuccessful completion
 * counts as solicited (RNICPI `ri_cq_req_notification`).
 *
 * Completion handlers are never called re-entrantly from inside a post or poll call, and never
 * once `destroy` has returned. They run at the first of: the end of the socket callback that
 * delivered the completion ({@link deliverCqNotifications}, called by the LLP and datagram
 * layers once the received data is processed, so a consumer hears of it synchronously from the
 * wire, with no microtask or promise in between), or a microtask after the completion was added
 * (every other source: a flush, a timer, a post that completes at once).
 */
import { logger } from '../util/log.js';
import type { Qp } from './qp.js';

const log = logger('cq');

/** `ri_cmplt_notify_type_t` (RNICPI §6.12). */
export enum NotifyType {
  SOLICITED = 0,
  ANY = 1,
}

/**
 * One work completion, with the fields of RNICPI `ri_rc_wc_t` (§6.10). The engine fills
 * these; the consumer faces copy out what they need.
 */
export interface WorkCompletion {
  op_type: number;
  cq_os_data: unknown;
  flags: number;
  invalidated_rtag: number;
  qp_os_data: unknown;
  id: bigint;
  op_status: number;
  bytes_transferred: number;
  immediate_data: number;
  err_data: bigint;
  /** The local QP number (the verbs WC carries it, Verbs §8.2.3). */
  qp_num: number;
  /**
   * A UD QP's completions are RNICPI's general WCs (`ri_gen_wc_t`): these members are present
   * on them only. `qpn` is the local QP, `remote_qpn` a datagram's source QP (its DETH), and
   * `grh_present` says the first 40 octets of the receive buffer hold the GRH (IBTA Vol. 1 §11.4.2.1).
   */
  qpn?: number;
  remote_lid?: number;
  remote_qpn?: number;
  remote_sl?: number;
  local_lid_pathbits?: number;
  ether_type?: number;
  grh_present?: number;
  pkey_index?: number;
  freed_resource_count?: number;
}

/** A queued completion and the queue slot it releases when polled. */
interface Cqe {
  wc: WorkCompletion;
  qp: Qp | null;
  /** True for a Send Queue completion, false for Receive Queue / S-RQ. */
  sq: boolean;
  /** Sequence number of the WQE within its queue. */
  seq: number;
  /** Solicited for notification purposes. */
  solicited: boolean;
}

/** Called when an armed CQ fires. */
export type CqNotifyFn = (cq: Cq) => void;

/** The CQs whose notification is due and not yet delivered, in the order they fired. */
let due: Cq[] = [];

/**
 * Delivers every due CQ notification now. The receive paths call it at the end of a socket
 * callback, when the transport has handled the data and is not inside a consumer's call, so
 * the completion handler (and through it `ibv_get_cq_event`'s channel and the Node API) runs
 * synchronously from the wire. A notification delivered here is not delivered again by its
 * microtask.
 */
export function deliverCqNotifications(): void {
  while (due.length > 0) {
    const fired = due;
    due = [];
    for (const cq of fired) cq.deliverNotification();
  }
}

export class Cq {
  #ring: (Cqe | undefined)[];
  #head = 0;
  #count = 0;
  /** 0 = disarmed, otherwise the strongest notify type requested + 1. */
  #armed = 0;
  #notifyPending = false;
  /** Overflow or internal error: `ri_cq_query` answers CQ_ERROR from then on. */
  error = false;
  destroyed = false;
  /** Work queues (QP SQ/RQ) that use this CQ: CQ_INUSE guard. */
  users = 0;
  readonly #notify: CqNotifyFn;
  readonly #onOverflow: (cq: Cq, qp: Qp | null, sq: boolean) => void;
  constructor(
    readonly id: number,
    capacity: number,
    /** Completion Event Handler identifier, fixed for the CQ's life (0 = none). */
    readonly handlerId: number,
    readonly osData: unknown,
    notify: CqNotifyFn,
    onOverflow: (cq: Cq, qp: Qp | null, sq: boolean) => void,
  ) {
    this.#notify = notify;
    this.#onOverflow = onOverflow;
    this.#ring = new Array(capacity);
  }

  get capacity(): number {
    return this.#ring.length;
  }
  get depth(): number {
    return this.#count;
  }

  /**
   * Adds a completion. Returns false, marks the CQ in error and reports overflow when the
   * ring is full: a completion is never silently overwritten.
   */
  push(wc: WorkCompletion, qp: Qp | null, sq: boolean, seq: number, solicited: boolean): boolean {
    if (this.destroyed) return false;
    if (this.#count === this.#ring.length) {
      if (!this.error) {
        this.error = true;
        log('CQ[%d] overflow (capacity %d)', this.id, this.#ring.length);
      }
      this.#onOverflow(this, qp, sq);
      return false;
    }
    wc.cq_os_data = this.osData;
    const tail = (this.#head + this.#count) % this.#ring.length;
    this.#ring[tail] = { wc, qp, sq, seq, solicited: solicited || wc.op_status !== 0 };
    this.#count++;
    if (this.#armed !== 0) {
      const any = this.#armed === NotifyType.ANY + 1;
      if (any || solicited || wc.op_status !== 0) {
        this.#armed = 0;
        this.#scheduleNotify();
      }
    }
    return true;
  }

  #scheduleNotify(): void {
    if (this.#notifyPending) return;
    this.#notifyPending = true;
    due.push(this);
    queueMicrotask(this.#notifyTask);
  }

  /** The deferred notification, made once per CQ: a completion allocates no closure for it. */
  readonly #notifyTask = (): void => {
    if (!this.#notifyPending) return;
    const i = due.indexOf(this);
    if (i >= 0) due.splice(i, 1);
    this.deliverNotification();
  };

  /** Calls the handler for the pending notification, if one is pending (once per firing). */
  deliverNotification(): void {
    if (!this.#notifyPending) return;
    this.#notifyPending = false;
    if (!this.destroyed) this.#notify(this);
  }

  /**
   * Arms the CQ. Entries already queued never trigger it; ANY takes precedence over
   * SOLICITED; one arm gives at most one callback (RNICPI `ri_cq_req_notification`).
   */
  arm(type: NotifyType): void {
    const want = type + 1;
    if (want > this.#armed) this.#armed = want;
  }

  get armedType(): NotifyType | null {
    return this.#armed === 0 ? null : ((this.#armed - 1) as NotifyType);
  }

  /** Removes up to `max` completions into `out`; returns how many. */
  poll(out: WorkCompletion[], max: number): number {
    let n = 0;
    while (n < max && this.#count > 0) {
      const e = this.#ring[this.#head]!;
      this.#ring[this.#head] = undefined;
      this.#head = (this.#head + 1) % this.#ring.length;
      this.#count--;
      out[n++] = e.wc;
      // The WC releases its queue slot (and those of earlier unsignaled WRs) only now,
      // when the consumer has retrieved it (Verbs §8.1.3.1).
      if (e.qp) e.qp.onCompletionPolled(e.sq, e.seq);
    }
    return n;
  }

  /** Resizes without losing completions; false if `capacity` < queued entries. */
  resize(capacity: number): boolean {
    if (capacity < this.#count) return false;
    const ring: (Cqe | undefined)[] = new Array(capacity);
    for (let i = 0; i < this.#count; i++) ring[i] = this.#ring[(this.#head + i) % this.#ring.length];
    this.#ring = ring;
    this.#head = 0;
    return true;
  }

  /** Drops every queued completion that belongs to `qp` (QP destroyed). */
  purgeQp(qp: Qp): void {
    const kept: Cqe[] = [];
    for (let i = 0; i < this.#count; i++) {
      const e = this.#ring[(this.#head + i) % this.#ring.length]!;
      if (e.qp !== qp) kept.push(e);
    }
    this.#ring.fill(undefined);
    this.#head = 0;
    this.#count = kept.length;
    for (let i = 0; i < kept.length; i++) this.#ring[i] = kept[i];
  }

  destroy(): void {
    this.destroyed = true;
    this.#ring.fill(undefined);
    this.#count = 0;
  }
}

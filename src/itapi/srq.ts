/**
 * Shared Receive Queues (IT-API 2.1 `it_srq_*`): one RNICPI S-RQ, the Receives posted to it and
 * its low watermark (the RNIC's SRQ limit, or a check on each completion for a watermark of 1).
 *
 * @module
 */
import { RiRet } from '../rnicpi/status.js';
import { RiAsyncEventType, RiSrqAttrMask, type ri_data_seg_t, type ri_event_record_t, type ri_srq_handle_t } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import type { ItAsyncTarget } from './access.js';
import { fail, type Ia, ItObject, type Pz } from './objects.js';
import { it_status_t as S } from './status.js';
import { IT_HANDLE_KIND, it_event_type_t as ET, it_handle_type_enum_t as HT } from './types.js';
import type { RecvRec } from './ep-events.js';

const log = logger('itapi:ep');

/** A Shared Receive Queue: one RNICPI SRQ. */
export class Srq extends ItObject implements ItAsyncTarget {
  readonly [IT_HANDLE_KIND] = HT.IT_HANDLE_TYPE_SRQ as const;
  readonly recvs = new Map<bigint, RecvRec>();
  #nextId = 1n;
  /** Receives posted / completed (any status) / completion dequeued. */
  posted = 0;
  consumed = 0;
  retired = 0;
  /** Endpoints using the S-RQ (`IT_ERR_SRQ_BUSY`). */
  users = 0;
  /** IT-API low watermark while armed; 0 = disarmed. */
  lowWatermark = 0;
  /**
   * The RNICPI S-RQ: set by `it_srq_create` as `ri_srq_create` returns, which takes this object as
   * the S-RQ's context (its events come back to it) and so needs it first.
   */
  srq!: ri_srq_handle_t;
  maxRecvDtos = 0;
  maxRecvSegs = 0;
  readonly #ia_: Ia;
  constructor(
    ia_: Ia,
    readonly pz: Pz,
  ) {
    super();
    this.#ia_ = ia_;
  }
  get ia(): Ia {
    return this.#ia_;
  }
  get outstanding(): number {
    return this.posted - this.retired;
  }

  post(rec: RecvRec, sgl: ri_data_seg_t[]): void {
    if (this.outstanding >= this.maxRecvDtos) fail(S.IT_ERR_TOO_MANY_POSTS);
    const id = this.#nextId++;
    this.recvs.set(id, rec);
    const r = this.#ia_.ops.ri_srq_post(this.#ia_.rnic, this.srq, [{ flags: 0, id, sg_list: sgl }]);
    if (r.status !== RiRet.SUCCESS) {
      this.recvs.delete(id);
      if (r.status === RiRet.RNIC_SG_LIMIT_EXCEEDED || r.status === RiRet.WR_SG_INVALID_FORMAT) fail(S.IT_ERR_INVALID_NUM_SEGMENTS);
      fail(S.IT_ERR_TOO_MANY_POSTS);
    }
    this.posted++;
  }

  /** Arms the low watermark `lw` (> 0). The RNIC's SRQ limit fires at "≤ lowat" (lowat = lw − 1). */
  arm(lw: number): RiRet {
    if (lw > 1) {
      const r = this.#ia_.ops.ri_srq_modify(this.#ia_.rnic, this.srq, RiSrqAttrMask.LOWAT, { lowat: lw - 1 });
      if (r.status !== RiRet.SUCCESS) return r.status;
    }
    this.lowWatermark = lw;
    return RiRet.SUCCESS;
  }

  /**
   * A watermark of 1 ("below one Receive", i.e. empty) cannot be an RNICPI limit (lowat 0
   * disarms): the IT-API layer checks it on each S-RQ Receive completion.
   */
  checkLowWatermark(): void {
    if (this.lowWatermark === 1 && this.posted - this.consumed < 1) this.#fire();
  }

  #fire(): void {
    this.lowWatermark = 0;
    const a = this.#ia_.affEvd;
    a?.post({ event_number: ET.IT_ASYNC_AFF_SRQ_LOW_WATERMARK, evd: a, cause: { srq: this } }, true);
  }

  onRiAsync(ev: ri_event_record_t): void {
    if (this.freed) return;
    if (ev.event_type === RiAsyncEventType.SRQ_LIMIT_REACHED) {
      if (this.lowWatermark > 1) this.#fire();
      return;
    }
    log('S-RQ async event %s', RiAsyncEventType[ev.event_type]);
  }

  destroy(): void {
    if (this.freed) return;
    this.freed = true;
    const st = this.#ia_.ops.ri_srq_destroy(this.#ia_.rnic, this.srq);
    if (st.status !== RiRet.SUCCESS) log('ri_srq_destroy: %s', RiRet[st.status]);
    this.#ia_.srqs.delete(this);
  }
}

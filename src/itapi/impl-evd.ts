/**
 * IT-API 2.1 over RNICPI: Event Dispatchers (`it_evd_*`; IT-API 2.1 Ch. 6, the EVD group); the
 * dispatchers themselves are `evd.ts`.
 *
 * @module
 */
import type { ItApi, ItWaitOptions } from './api.js';
import { Aevd, Evd, MAX_SEVD_QUEUE, nextFd, Sevd } from './evd.js';
import { check, fail, Ia } from './objects.js';
import { it_status_t as S } from './status.js';
import {
  IT_TIMEOUT_INFINITE,
  isItEventStream,
  it_evd_flags_t as EF,
  it_evd_param_mask_t as EVM,
  it_event_type_t as ET,
  type it_evd_param_t,
} from './types.js';
import { isUint, checkMask, pick } from './impl-common.js';

/** `it_evd_create` flag validity. */
function checkEvdFlags(stream: ET, flags: number): void {
  const defined =
    EF.IT_EVD_DEQUEUE_NOTIFICATIONS |
    EF.IT_EVD_CREATE_FD |
    EF.IT_EVD_OVERFLOW_DEFAULT |
    EF.IT_EVD_OVERFLOW_NOTIFY |
    EF.IT_EVD_OVERFLOW_AUTO_RESET;
  if (!isUint(flags) || (flags & ~defined) !== 0) fail(S.IT_ERR_INVALID_FLAGS);
  const overflowFlags = EF.IT_EVD_OVERFLOW_DEFAULT | EF.IT_EVD_OVERFLOW_NOTIFY | EF.IT_EVD_OVERFLOW_AUTO_RESET;
  if (stream === ET.IT_AEVD_NOTIFICATION_EVENT_STREAM) {
    if (flags & overflowFlags) fail(S.IT_ERR_INVALID_FLAGS, 'overflow flags are for SEVDs');
    return;
  }
  if (flags & EF.IT_EVD_DEQUEUE_NOTIFICATIONS) fail(S.IT_ERR_INVALID_FLAGS, 'DEQUEUE_NOTIFICATIONS is for AEVDs');
  const def = (flags & EF.IT_EVD_OVERFLOW_DEFAULT) !== 0;
  const notify = (flags & EF.IT_EVD_OVERFLOW_NOTIFY) !== 0;
  const auto = (flags & EF.IT_EVD_OVERFLOW_AUTO_RESET) !== 0;
  if (def && (notify || auto)) fail(S.IT_ERR_INVALID_FLAGS, 'OVERFLOW_DEFAULT excludes NOTIFY/AUTO_RESET');
  if (auto && !notify) fail(S.IT_ERR_INVALID_FLAGS, 'AUTO_RESET needs NOTIFY');
  if (auto && stream === ET.IT_DTO_EVENT_STREAM) fail(S.IT_ERR_INVALID_FLAGS, 'a DTO overflow cannot be reset');
  if (notify && stream === ET.IT_ASYNC_UNAFF_EVENT_STREAM) fail(S.IT_ERR_INVALID_FLAGS, 'UNAFF overflow is never reported');
}

/** Wait/dequeue legality of an EVD; `wait` adds the wait-only rules. */
function checkDequeueState(e: Evd, wait: boolean): void {
  if (e instanceof Sevd && e.aevd) {
    if (!e.aevd.dequeueNotifications) fail(S.IT_ERR_INVALID_EVD_STATE, 'the SEVD feeds an AEVD without DEQUEUE_NOTIFICATIONS');
    if (wait && e.enabled) fail(S.IT_ERR_INVALID_EVD_STATE, 'disable the SEVD to wait on it');
  }
  if (wait && e.fd >= 0 && e.enabled) fail(S.IT_ERR_INVALID_EVD_STATE, 'disable the EVD with an fd to wait on it');
}

/** The EVD group of {@link ItApi}. */
export const itEvd: Pick<
  ItApi,
  | 'it_evd_callback_attach'
  | 'it_evd_callback_detach'
  | 'it_evd_create'
  | 'it_evd_dequeue'
  | 'it_evd_free'
  | 'it_evd_modify'
  | 'it_evd_post_se'
  | 'it_evd_query'
  | 'it_evd_wait'
> = {
  it_evd_callback_attach(evd_handle, callback, arg) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    if (!e.ia.privileged) fail(S.IT_ERR_NO_PERMISSION, 'callbacks are for Privileged Consumers');
    if (e.cb) fail(S.IT_ERR_CALLBACK_EXISTS);
    if (e.waiters.length > 0) fail(S.IT_ERR_EVD_WAIT);
    if (e.fd >= 0) fail(S.IT_ERR_INVALID_EVD_STATE, 'the EVD has an fd');
    if (e instanceof Sevd && e.aevd) fail(S.IT_ERR_INVALID_EVD_STATE, 'the SEVD feeds an AEVD');
    if (typeof callback !== 'function') fail(S.IT_ERR_INVALID_EVD_STATE, 'no callback function');
    e.attachCallback(callback, arg);
    e.maybeCallback();
  },

  it_evd_callback_detach(evd_handle) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    if (!e.ia.privileged) fail(S.IT_ERR_NO_PERMISSION);
    if (!e.cb) fail(S.IT_ERR_INVALID_EVD_STATE, 'no callback attached');
    e.cb = null;
    e.cbArmed = false;
  },

  it_evd_create(ia_handle, event_number, evd_flag, sevd_queue_size, sevd_threshold, aevd_handle) {
    const ia = check(ia_handle, Ia, S.IT_ERR_INVALID_IA);
    if (!isUint(event_number) || !isItEventStream(event_number)) fail(S.IT_ERR_INVALID_EVD_TYPE);
    checkEvdFlags(event_number, evd_flag);
    const fdWanted = (evd_flag & EF.IT_EVD_CREATE_FD) !== 0;
    if (event_number === ET.IT_AEVD_NOTIFICATION_EVENT_STREAM) {
      if (aevd_handle !== null && aevd_handle !== undefined) fail(S.IT_ERR_AEVD_NOT_ALLOWED);
      const a = new Aevd(ia, evd_flag, fdWanted ? nextFd() : -1);
      ia.evds.add(a);
      return { evd_handle: a, fd: a.fd };
    }
    let aevd: Aevd | null = null;
    if (aevd_handle !== null && aevd_handle !== undefined) {
      if (fdWanted) fail(S.IT_ERR_MISMATCH_FD, 'an SEVD feeding an AEVD has no fd');
      const x = check(aevd_handle, Evd, S.IT_ERR_INVALID_AEVD);
      if (!(x instanceof Aevd) || x.ia !== ia) fail(S.IT_ERR_INVALID_AEVD);
      aevd = x;
    }
    if (event_number === ET.IT_ASYNC_AFF_EVENT_STREAM && ia.affEvd) fail(S.IT_ERR_ASYNC_AFF_EVD_EXISTS);
    if (event_number === ET.IT_ASYNC_UNAFF_EVENT_STREAM && ia.unaffEvd) fail(S.IT_ERR_ASYNC_UNAFF_EVD_EXISTS);
    if (!isUint(sevd_queue_size)) fail(S.IT_ERR_RESOURCE_QUEUE_SIZE);
    if (sevd_queue_size > MAX_SEVD_QUEUE) fail(S.IT_ERR_RESOURCE_QUEUE_SIZE, `at most ${MAX_SEVD_QUEUE}`);
    const size = Math.max(1, sevd_queue_size);
    if (!isUint(sevd_threshold) || sevd_threshold > size) fail(S.IT_ERR_INVALID_THRESHOLD);
    const s = new Sevd(ia, event_number, evd_flag, fdWanted ? nextFd() : -1, size, sevd_threshold);
    if (event_number === ET.IT_DTO_EVENT_STREAM && !s.createCq()) fail(S.IT_ERR_RESOURCES, 'completion queue');
    ia.evds.add(s);
    if (event_number === ET.IT_ASYNC_AFF_EVENT_STREAM) ia.affEvd = s;
    if (event_number === ET.IT_ASYNC_UNAFF_EVENT_STREAM) ia.unaffEvd = s;
    if (aevd) aevd.attach(s);
    return { evd_handle: s, fd: s.fd };
  },

  it_evd_dequeue(evd_handle) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    checkDequeueState(e, false);
    const ev = e.dequeue();
    return ev ? { status: S.IT_SUCCESS, event: ev } : { status: S.IT_ERR_QUEUE_EMPTY };
  },

  it_evd_free(evd_handle) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    if (e.cbRunning) fail(S.IT_ERR_INVALID_EVD_STATE, 'a callback invocation is running');
    if (e instanceof Sevd) {
      const selfFed =
        e.stream === ET.IT_ASYNC_AFF_EVENT_STREAM ||
        e.stream === ET.IT_ASYNC_UNAFF_EVENT_STREAM ||
        e.stream === ET.IT_SOFTWARE_EVENT_STREAM;
      if (!selfFed && e.feeders > 0) fail(S.IT_ERR_EVD_BUSY, 'still fed by an Endpoint or Listen');
    } else if ((e as Aevd).members.size > 0) {
      fail(S.IT_ERR_EVD_BUSY, 'SEVDs still feed the AEVD');
    }
    e.destroy();
  },

  it_evd_modify(evd_handle, mask, params) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    const modifiable =
      EVM.IT_EVD_PARAM_QUEUE_SIZE |
      EVM.IT_EVD_PARAM_THRESHOLD |
      EVM.IT_EVD_PARAM_AEVD_HANDLE |
      EVM.IT_EVD_PARAM_ENABLED |
      EVM.IT_EVD_PARAM_OVERFLOWED;
    if (!isUint(mask) || Number(mask) === 0 || (mask & ~modifiable) !== 0) fail(S.IT_ERR_INVALID_MASK);
    const p = params ?? {};
    const enabledAfter = mask & EVM.IT_EVD_PARAM_ENABLED ? p.evd_enabled === true : e.enabled;
    if (e instanceof Aevd) {
      const sevdOnly =
        EVM.IT_EVD_PARAM_QUEUE_SIZE | EVM.IT_EVD_PARAM_THRESHOLD | EVM.IT_EVD_PARAM_AEVD_HANDLE | EVM.IT_EVD_PARAM_OVERFLOWED;
      if (mask & sevdOnly) fail(S.IT_ERR_INVALID_MASK, 'queue size, threshold, AEVD and overflow are SEVD parameters');
      if (mask & EVM.IT_EVD_PARAM_ENABLED) {
        e.setEnabled(enabledAfter);
        e.wake();
      }
      return;
    }
    const s = e as Sevd;
    s.sync();
    const size = mask & EVM.IT_EVD_PARAM_QUEUE_SIZE ? p.sevd_queue_size : s.queueSize;
    const threshold = mask & EVM.IT_EVD_PARAM_THRESHOLD ? p.sevd_threshold : s.threshold;
    if (mask & EVM.IT_EVD_PARAM_QUEUE_SIZE) {
      if (!isUint(size) || size > MAX_SEVD_QUEUE) fail(S.IT_ERR_RESOURCE_QUEUE_SIZE);
      if (size < s.length || size < 1) fail(S.IT_ERR_INVALID_QUEUE_SIZE, `${s.length} Events are queued`);
      if (isUint(threshold) && size < threshold) fail(S.IT_ERR_INVALID_QUEUE_SIZE, 'below the threshold');
    }
    if (mask & EVM.IT_EVD_PARAM_THRESHOLD) {
      if (!isUint(threshold) || threshold > (size as number)) fail(S.IT_ERR_INVALID_THRESHOLD);
    }
    let newAevd: Aevd | null | undefined;
    if (mask & EVM.IT_EVD_PARAM_AEVD_HANDLE) {
      const h = p.aevd ?? null;
      if (h !== null) {
        const x = check(h, Evd, S.IT_ERR_INVALID_AEVD);
        if (!(x instanceof Aevd) || x.ia !== s.ia) fail(S.IT_ERR_INVALID_AEVD);
        newAevd = x;
        if (s.cb) fail(S.IT_ERR_CALLBACK_EXISTS, 'the SEVD has a callback');
      } else newAevd = null;
      if (newAevd !== s.aevd) {
        // Re-association: only a disabled SEVD without fd, and only away from an
        // AEVD that hands out Notifications (a plain AEVD link is permanent).
        if (enabledAfter) fail(S.IT_ERR_INVALID_EVD_STATE, 'disable the SEVD first');
        if (s.fd >= 0) fail(S.IT_ERR_INVALID_EVD_STATE, 'the SEVD has an fd');
        if (s.aevd && !s.aevd.dequeueNotifications) fail(S.IT_ERR_INVALID_EVD_STATE, 'a link to a plain AEVD is permanent');
      }
    }
    if (mask & EVM.IT_EVD_PARAM_OVERFLOWED && p.evd_overflowed !== false) {
      fail(S.IT_ERR_INVALID_MASK, 'evd_overflowed can only be cleared');
    }
    // ---- apply ----
    if (mask & EVM.IT_EVD_PARAM_QUEUE_SIZE && size !== s.queueSize) {
      if (!s.resize(size as number)) fail(S.IT_ERR_RESOURCE_QUEUE_SIZE);
    }
    if (mask & EVM.IT_EVD_PARAM_THRESHOLD) s.threshold = threshold as number;
    if (mask & EVM.IT_EVD_PARAM_OVERFLOWED) s.clearOverflow();
    if (newAevd !== undefined && newAevd !== s.aevd) {
      s.aevd?.detach(s);
      if (newAevd) newAevd.attach(s);
    }
    if (mask & EVM.IT_EVD_PARAM_ENABLED) s.setEnabled(enabledAfter);
    s.changed();
  },

  it_evd_post_se(evd_handle, event) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    if (!(e instanceof Sevd) || e.stream !== ET.IT_SOFTWARE_EVENT_STREAM) fail(S.IT_ERR_INVALID_SOFT_EVD);
    if (e.full) return { status: S.IT_ERR_EVD_QUEUE_FULL };
    e.post({ event_number: ET.IT_SOFTWARE_EVENT, evd: e, data: event }, true);
    return { status: S.IT_SUCCESS };
  },

  it_evd_query(evd_handle, mask) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    checkMask(mask, (1 << 12) - 1);
    e.sync();
    const s = e instanceof Sevd ? e : null;
    const a = e instanceof Aevd ? e : null;
    const bound = s
      ? s.feeders > 0 ||
        s.aevd !== null ||
        s.stream === ET.IT_ASYNC_AFF_EVENT_STREAM ||
        s.stream === ET.IT_ASYNC_UNAFF_EVENT_STREAM ||
        s.stream === ET.IT_SOFTWARE_EVENT_STREAM
      : a!.members.size > 0;
    const full: it_evd_param_t = {
      ia: e.ia,
      event_number: s ? s.stream : ET.IT_AEVD_NOTIFICATION_EVENT_STREAM,
      evd_flag: e.flags,
      sevd_queue_size: s ? s.queueSize : 0,
      sevd_threshold: s ? s.threshold : 0,
      aevd: s ? s.aevd : null,
      fd: e.fd,
      evd_bound: bound,
      evd_enabled: e.enabled,
      evd_overflowed: s ? s.overflowed : false,
      evd_callback: e.cb !== null,
    };
    return pick(mask, full, [
      [EVM.IT_EVD_PARAM_IA, 'ia'],
      [EVM.IT_EVD_PARAM_EVENT_NUMBER, 'event_number'],
      [EVM.IT_EVD_PARAM_FLAG, 'evd_flag'],
      [EVM.IT_EVD_PARAM_QUEUE_SIZE, 'sevd_queue_size'],
      [EVM.IT_EVD_PARAM_THRESHOLD, 'sevd_threshold'],
      [EVM.IT_EVD_PARAM_AEVD_HANDLE, 'aevd'],
      [EVM.IT_EVD_PARAM_FD, 'fd'],
      [EVM.IT_EVD_PARAM_BOUND, 'evd_bound'],
      [EVM.IT_EVD_PARAM_ENABLED, 'evd_enabled'],
      [EVM.IT_EVD_PARAM_OVERFLOWED, 'evd_overflowed'],
      [EVM.IT_EVD_PARAM_CALLBACK, 'evd_callback'],
    ]);
  },

  async it_evd_wait(evd_handle, timeout, options?: ItWaitOptions) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    checkDequeueState(e, true);
    if (e.cb) fail(S.IT_ERR_CALLBACK_EXISTS, 'the EVD has a callback');
    if (e instanceof Sevd && e.threshold > 1 && e.waiters.length > 0) fail(S.IT_ERR_WAITER_LIMIT);
    const t = typeof timeout === 'bigint' ? timeout : BigInt(timeout as number);
    return e.wait(t < 0n ? IT_TIMEOUT_INFINITE : t, options?.signal);
  },
};

/**
 * Asynchronous events of a C program's contexts under `softrdma exec` (docs/preload.md,
 * "Asynchronous events"): `ibv_get_async_event` and `context->async_fd`.
 *
 * At `ibv_open_device` the daemon makes a socket pair for the context; the program's end becomes
 * `async_fd`. The daemon takes the verbs face's events for the context as they come, acknowledges
 * each at once (so that the face's destroy calls never wait for a program that does not read
 * them), queues it with the program's own pointer to the object (QP, CQ, S-RQ) or the port, and
 * writes one byte. The program reads a byte (blocking, or EAGAIN on a non-blocking fd, so
 * `poll()` works) and fetches the event (`GET_ASYNC_EVENT`). An event whose object was destroyed
 * before the program fetched it is dropped, so no pointer to freed memory is handed out.
 */
import { logger } from '../util/log.js';
import type { Context } from '../verbs/device.js';
import { ibv_ack_async_event, ibv_get_async_event } from '../verbs/ibv_context.js';
import type { ibv_async_event } from '../verbs/types.js';
import type { Answer } from './calls.js';
import type { Client } from './client.js';
import { preloadAddon } from './native.js';
import { PreloadOp, uintField } from './protocol.js';

const log = logger('daemon');

const EINVAL = 22;
const EAGAIN = 11;

/** Events queued for a program that does not read them; newer ones are dropped (and logged). */
export const MAX_ASYNC_EVENTS = 256;

/** One queued event: its type, and the element as the program names it (a pointer or a port). */
export interface QueuedAsync {
  type: number;
  element: ['qp' | 'cq' | 'srq', bigint, object] | ['port', number, null];
}

export interface ClientAsync {
  fd: number;
  queue: QueuedAsync[];
}

/**
 * Starts the events of the client's context `h`; returns the program's end of the socket pair,
 * or undefined without the daemon addon (the program's `async_fd` is then -1).
 */
export function startAsyncEvents(c: Client, h: number, ctx: Context): number | undefined {
  const addon = preloadAddon();
  if (!addon) return undefined;
  const [mine, theirs] = addon.socketPair();
  c.asyncs.set(h, { fd: mine, queue: [] });
  void pump(c, h, ctx);
  return theirs;
}

async function pump(c: Client, h: number, ctx: Context): Promise<void> {
  const addon = preloadAddon()!;
  for (;;) {
    const ev = {} as ibv_async_event;
    if ((await ibv_get_async_event(ctx, ev)) !== 0) return;
    ibv_ack_async_event(ev);
    const a = c.asyncs.get(h);
    if (!a) return;
    const q = queued(c, ev);
    if (!q) continue;
    if (a.queue.length >= MAX_ASYNC_EVENTS) {
      log('client %d: context %d: %d async events not read; event %d dropped', c.id, h, a.queue.length, ev.event_type);
      continue;
    }
    a.queue.push(q);
    const n = addon.write(a.fd, Buffer.of(1));
    if (n !== 1) log('client %d: context %d: async event not signalled (%d)', c.id, h, n);
  }
}

/** The event with the program's pointer to its object; null for an object the client does not hold. */
function queued(c: Client, ev: ibv_async_event): QueuedAsync | null {
  const e = ev.element;
  if (e.qp) {
    for (const q of c.qps.values()) if (q.qp === e.qp) return { type: ev.event_type, element: ['qp', q.user, q.qp] };
    return null;
  }
  if (e.cq) {
    for (const q of c.cqs.values()) if (q.cq === e.cq) return { type: ev.event_type, element: ['cq', q.user, q.cq] };
    return null;
  }
  if (e.srq) {
    for (const q of c.srqs.values()) if (q.srq === e.srq) return { type: ev.event_type, element: ['srq', q.user, q.srq] };
    return null;
  }
  return { type: ev.event_type, element: ['port', e.port_num ?? 0, null] };
}

/** Whether the client still holds the object an event names. */
function held(c: Client, q: QueuedAsync): boolean {
  const [kind, , obj] = q.element;
  if (kind === 'port') return true;
  const maps = { qp: c.qps, cq: c.cqs, srq: c.srqs } as const;
  for (const v of maps[kind].values()) if ((v as unknown as Record<string, unknown>)[kind] === obj) return true;
  return false;
}

/** Answers GET_ASYNC_EVENT; null for other ops. */
export function asyncCall(c: Client, op: number, m: Map<string, string>): Answer | null {
  if (op !== PreloadOp.GET_ASYNC_EVENT) return null;
  const a = c.asyncs.get(uintField(m, 'ctx') ?? 0);
  if (!a) return { errno: EINVAL };
  for (let q = a.queue.shift(); q; q = a.queue.shift()) {
    if (!held(c, q)) continue;
    const [kind, value] = q.element;
    return {
      errno: 0,
      fields: [
        ['event_type', q.type],
        [kind, value],
      ],
    };
  }
  return { errno: EAGAIN };
}

/**
 * The rdma_cm events of one id as awaitable values, and the mapping of the failure events
 * (manual §5.4: REJECTED, UNREACHABLE, CONNECT_ERROR…) to typed errors.
 * @internal
 */
import { errnoName, ibv_transport_type, rdma_cm_event_type, rdma_event_str, type rdma_cm_event, type rdma_cm_id } from '../verbs/index.js';
import type { CmEvents } from './device.js';
import { ConnectError } from './errors.js';

/** An rdma_cm event reduced to what outlives its acknowledgement. */
export interface CmEvent {
  type: rdma_cm_event_type;
  status: number;
  privateData: Uint8Array | null;
}

function copyEvent(ev: rdma_cm_event): CmEvent {
  return { type: ev.event, status: ev.status, privateData: privateDataOf(ev) };
}

/**
 * The private data of an event, copied. The InfiniBand CM carries no length (IBTA Vol. 1 §12.6):
 * on the RoCE device it arrives zero-padded to the message's field (56 octets in a REQ after the
 * cma_hdr, 196 in a REP, 148 in a REJ), so the padding — every trailing zero octet — is removed;
 * private data that must end in zero octets needs a length of its own on RoCE.
 */
export function privateDataOf(ev: rdma_cm_event): Uint8Array | null {
  const pd = ev.param?.conn?.private_data;
  if (!pd) return null;
  let len = Math.min(ev.param?.conn?.private_data_len ?? pd.length, pd.length);
  if (ev.id?.verbs?.device.transport_type === ibv_transport_type.IBV_TRANSPORT_IB) while (len > 0 && pd[len - 1] === 0) len--;
  return Uint8Array.from(pd.subarray(0, len));
}

/** Routes the events of `id` (one waiter at a time; events queue until taken, at most a few per id). */
export class IdEvents {
  readonly #queue: CmEvent[] = [];
  #waiter: ((ev: CmEvent) => void) | null = null;
  /** Called for events once nobody waits with {@link next} (the connection's DISCONNECTED). */
  onEvent: ((ev: CmEvent) => void) | null = null;
  constructor(
    events: CmEvents,
    readonly id: rdma_cm_id,
  ) {
    events.on(id, (ev) => this.#push(copyEvent(ev)));
  }
  #push(ev: CmEvent): void {
    const w = this.#waiter;
    if (w) {
      this.#waiter = null;
      w(ev);
    } else if (this.onEvent) this.onEvent(ev);
    else this.#queue.push(ev);
  }
  /** The next event; rejects with `signal.reason` when `signal` aborts first. */
  next(signal?: AbortSignal): Promise<CmEvent> {
    const q = this.#queue.shift();
    if (q) return Promise.resolve(q);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<CmEvent>((resolve, reject) => {
      const onAbort = (): void => {
        this.#waiter = null;
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiter = (ev) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(ev);
      };
    });
  }
  /** Hands the events still queued, then every later one, to `fn`. */
  forward(fn: (ev: CmEvent) => void): void {
    this.onEvent = fn;
    for (const ev of this.#queue.splice(0)) fn(ev);
  }
}

/** The typed error of an event that is not the one a step waited for. */
export function eventError(what: string, ev: CmEvent, where: string): ConnectError {
  const T = rdma_cm_event_type;
  const name = rdma_event_str(ev.type);
  switch (ev.type) {
    case T.RDMA_CM_EVENT_REJECTED:
      return ev.privateData && ev.privateData.length > 0
        ? new ConnectError(
            `${what}: ${where} rejected the connection (${name}, with ${ev.privateData.length} bytes of private data)`,
            'ECONNREFUSED',
            111,
            ev.privateData,
          )
        : new ConnectError(`${what}: ${where} refused the connection (${name})`, 'ECONNREFUSED', 111);
    case T.RDMA_CM_EVENT_UNREACHABLE:
    case T.RDMA_CM_EVENT_ADDR_ERROR:
    case T.RDMA_CM_EVENT_ROUTE_ERROR: {
      // The event's own errno (ETIMEDOUT, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL, …).
      const errno = ev.status < 0 ? -ev.status : 110;
      const code = errnoName(errno);
      return new ConnectError(`${what}: ${where} is unreachable (${name}, ${code})`, code, errno);
    }
    default:
      return new ConnectError(`${what}: ${where}: ${name} (status ${ev.status})`, 'ECONNRESET', 104);
  }
}

/**
 * Event channels and ids (manual §5.1: `rdma_create_event_channel`, `rdma_create_id`,
 * `rdma_destroy_id`, `rdma_migrate_id`, `rdma_set_option`), events (`rdma_get_cm_event`,
 * `rdma_ack_cm_event`), an id's addresses and ports, and `rdma_get_devices`.
 *
 * @module
 */
import { rdma_port_space } from './constants.js';
import type { Context } from './device.js';
import { EBUSY, EINVAL, EOPNOTSUPP, setErrno } from './errno.js';
import type { rdma_cm_event, rdma_cm_id, rdma_event_channel, sockaddr } from './types.js';
import { CmId, EventChannel, deviceContexts, failRdma, idOk } from './rdma_cm_id.js';
import { leaveAll } from './rdma_cm_mcast.js';
import { ibDestroy } from './rdma_cm_roce.js';

// ------------------------------------------------------------------------------ API

export function rdma_create_event_channel(): rdma_event_channel | null {
  return new EventChannel();
}

export function rdma_destroy_event_channel(channel: rdma_event_channel): void {
  const ch = channel as EventChannel;
  if (!(ch instanceof EventChannel) || ch.dead) {
    setErrno(EINVAL);
    return;
  }
  // Every id of the channel must be destroyed first (C: undefined behaviour); refuse instead.
  for (const id of ch.ids) {
    if (!id.dead) {
      setErrno(EBUSY);
      return;
    }
  }
  ch.close();
}

export function rdma_create_id(
  channel: rdma_event_channel | null,
  context: unknown,
  ps: rdma_port_space,
): { ret: number; id: rdma_cm_id | null } {
  const ch = channel as EventChannel | null;
  if (ch !== null && (!(ch instanceof EventChannel) || ch.dead)) return { ret: failRdma(EINVAL), id: null };
  // TCP on every device; UDP (SIDR, UD QPs) and IB on the RoCE device only (chooseDevice).
  // IPoIB needs an IPoIB netdev, which softrdma does not have.
  if (ps !== rdma_port_space.RDMA_PS_TCP && ps !== rdma_port_space.RDMA_PS_UDP && ps !== rdma_port_space.RDMA_PS_IB)
    return { ret: failRdma(EOPNOTSUPP), id: null };
  const id = new CmId(ch, context, ps);
  ch?.ids.add(id);
  return { ret: 0, id };
}

export function rdma_destroy_id(id: rdma_cm_id): number {
  const i = id as CmId;
  if (!idOk(i)) return failRdma(EINVAL);
  if (i.unacked > 0) return failRdma(EBUSY);
  i.dead = true;
  i.releasePort();
  i.connectAbort?.abort();
  void i.listener?.close();
  if (i.req && i.req.state === 'pending') i.req.reject(new Uint8Array(0));
  if (i.conn && !i.conn.closed) i.conn.disconnect('abortive');
  leaveAll(i);
  ibDestroy(i);
  i.channel?.ids.delete(i);
  return 0;
}

/**
 * `rdma_migrate_id`: events of the id not yet retrieved move with it to the new channel; events
 * retrieved from the old channel must be acked first (C blocks until then; here EBUSY).
 */
export function rdma_migrate_id(id: rdma_cm_id, channel: rdma_event_channel | null): number {
  const i = id as CmId;
  const to = channel as EventChannel | null;
  if (!idOk(i) || (to !== null && (!(to instanceof EventChannel) || to.dead))) return failRdma(EINVAL);
  const queued = i.channel?.queuedFor(i) ?? 0;
  if (i.unacked > queued) return failRdma(EBUSY);
  const pending = i.channel?.take(i) ?? [];
  i.channel?.ids.delete(i);
  i.channel = to;
  i.unacked = 0;
  if (to) {
    to.ids.add(i);
    for (const ev of pending) {
      i.unacked++;
      to.push(ev);
    }
  } else if (pending.length > 0) {
    // A synchronous id keeps only the last event.
    i.event = pending[pending.length - 1]!;
  }
  return 0;
}

export function rdma_set_option(id: rdma_cm_id, level: number, optname: number, optval: number | Uint8Array): number {
  const i = id as CmId;
  if (!idOk(i)) return failRdma(EINVAL);
  // RDMA_OPTION_ID (0): TOS, REUSEADDR, AFONLY — accepted (TCP and RoCE need none of them);
  // ACK_TIMEOUT (3): the Local ACK Timeout of a RoCE QP (Linux `rdma_set_ack_timeout`, 5 bits).
  if (level === 0 && optname === 3) {
    const v = typeof optval === 'number' ? optval : (optval[0] ?? -1);
    if (!Number.isInteger(v) || v < 0 || v > 31) return failRdma(EINVAL);
    i.ackTimeout = v;
    return 0;
  }
  if (level === 0 && optname >= 0 && optname <= 2) return 0;
  return failRdma(EINVAL);
}

export function rdma_get_src_port(id: rdma_cm_id): number {
  return (id as CmId).route.addr.src_addr.port;
}
export function rdma_get_dst_port(id: rdma_cm_id): number {
  return (id as CmId).route.addr.dst_addr.port;
}
export function rdma_get_local_addr(id: rdma_cm_id): sockaddr {
  return { ...(id as CmId).route.addr.src_addr };
}
export function rdma_get_peer_addr(id: rdma_cm_id): sockaddr {
  return { ...(id as CmId).route.addr.dst_addr };
}

/** `rdma_get_devices`: rdma_cm's context of every device (softrdma0, softroce0). */
export function rdma_get_devices(): Context[] | null {
  return deviceContexts();
}
export function rdma_free_devices(_list: readonly unknown[]): void {}

export function rdma_get_cm_event(channel: rdma_event_channel): Promise<{ ret: number; event: rdma_cm_event | null }> {
  const ch = channel as EventChannel;
  if (!(ch instanceof EventChannel)) return Promise.resolve({ ret: failRdma(EINVAL), event: null });
  return ch.get();
}

/** Events already acked: a second ack of one is an error (the event is freed in C). */
const ackedEvents = new WeakSet<rdma_cm_event>();

export function rdma_ack_cm_event(event: rdma_cm_event): number {
  const id = event?.id as CmId | undefined;
  if (!(id instanceof CmId) || ackedEvents.has(event)) return failRdma(EINVAL);
  ackedEvents.add(event);
  if (id.unacked > 0) id.unacked--;
  return 0;
}

/**
 * Making a connection (`device.connect()`, `ConnectionRequest.accept()`): the rdma_cm calls on
 * an id with its QP (address and route resolution, `rdma_connect`, `rdma_accept`) and the wait
 * for ESTABLISHED, with what they leave behind undone on failure.
 *
 * @module
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import {
  RDMA_PS_TCP,
  rdma_accept,
  rdma_cm_event_type,
  rdma_connect,
  rdma_create_id,
  rdma_resolve_addr,
  rdma_resolve_route,
  rdmaUseDevice,
  type rdma_cm_id,
} from '../verbs/index.js';
import { eventError, IdEvents } from './cm.js';
import type { RdmaDevice } from './device.js';
import { ConnectError, DeviceNotFoundError } from './errors.js';
import { Connection } from './connection.js';
import { lastError } from './connection-parts.js';
import { type ConnectOptions, type ConnectionOptions, RETRY_COUNT } from './connection-types.js';

// ------------------------------------------------------------------------------ connect

/** `device.connect()`: resolve, create the QP, `rdma_connect`, wait for ESTABLISHED. */
export async function connect(device: RdmaDevice, opts: ConnectOptions): Promise<Connection> {
  if (!opts || !Number.isInteger(opts.port) || opts.port <= 0 || opts.port > 65535)
    throw new RangeError(`connect: port must be 1..65535; got ${String(opts?.port)}`);
  const host = opts.host ?? '127.0.0.1';
  const timeout = opts.timeout ?? 10_000;
  const where = `${host}:${opts.port}`;
  const outer = opts.signal;
  if (outer?.aborted) throw outer.reason;
  // One signal for the caller's abort and the timeout.
  const ac = new AbortController();
  const onOuter = (): void => ac.abort(outer!.reason);
  outer?.addEventListener('abort', onOuter, { once: true });
  const timer = setTimeout(
    () => ac.abort(new ConnectError(`connect to ${where}: no connection within ${timeout} ms`, 'ETIMEDOUT', 110)),
    timeout,
  );
  const signal = ac.signal;
  const made = rdma_create_id(device.events.channel, null, RDMA_PS_TCP);
  if (!made.id) {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
    throw lastError('rdma_create_id');
  }
  const id = made.id;
  const events = new IdEvents(device.events, id);
  let conn: Connection | null = null;
  try {
    // This device, whatever rdma_cm's default (both devices own every local address).
    if (rdmaUseDevice(id, device.context) !== 0) throw lastError('connect: rdmaUseDevice');
    let address = host;
    if (!isIP(host)) {
      try {
        address = (await lookup(host, { family: 4 })).address;
      } catch (e) {
        // A name that does not resolve: Node's code (ENOTFOUND, EAI_AGAIN), errno EHOSTUNREACH.
        const code = (e as NodeJS.ErrnoException).code ?? 'ENOTFOUND';
        throw new ConnectError(`connect to ${where}: cannot resolve ${host} (${code})`, code, 113);
      }
    }
    if (signal.aborted) throw signal.reason;
    if ((await rdma_resolve_addr(id, null, { family: isIP(address) === 6 ? 'ipv6' : 'ipv4', address, port: opts.port }, timeout)) !== 0)
      throw lastError(`connect to ${where}: rdma_resolve_addr`);
    let ev = await events.next(signal);
    if (ev.type !== rdma_cm_event_type.RDMA_CM_EVENT_ADDR_RESOLVED) throw eventError('connect', ev, where);
    // rdma_cm binds the id to a device when it resolves the address (librdmacm: the device that
    // owns the route); a connection of this device must be on it.
    if (id.verbs && id.verbs.device !== device.device) {
      throw new DeviceNotFoundError(
        `connect to ${where}: rdma_cm chose device ${id.verbs.device.name} for this connection, not ${device.name} (${device.transport})`,
      );
    }
    if ((await rdma_resolve_route(id, timeout)) !== 0) throw lastError(`connect to ${where}: rdma_resolve_route`);
    ev = await events.next(signal);
    if (ev.type !== rdma_cm_event_type.RDMA_CM_EVENT_ROUTE_RESOLVED) throw eventError('connect', ev, where);
    conn = new Connection(device, id, events, opts);
    const pd = opts.privateData ?? null;
    const param = {
      private_data: pd,
      private_data_len: pd?.length ?? 0,
      responder_resources: 16,
      initiator_depth: 16,
      flow_control: 0,
      retry_count: RETRY_COUNT,
      rnr_retry_count: 7,
      srq: 0,
      qp_num: 0,
    };
    if ((await rdma_connect(id, param)) !== 0) throw lastError(`connect to ${where}: rdma_connect`);
    ev = await events.next(signal);
    if (ev.type !== rdma_cm_event_type.RDMA_CM_EVENT_ESTABLISHED) throw eventError('connect', ev, where);
    conn.start(ev);
    device.owned.add(conn);
    return conn;
  } catch (e) {
    // Destroying the id first cancels a connect in progress; then the QP and the rest.
    device.events.destroy(id);
    conn?.destroyUnestablished();
    throw e;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
  }
}

/** @internal `ConnectionRequest.accept()`: the QP on the request's id, `rdma_accept`, ESTABLISHED. */
export async function accept(
  device: RdmaDevice,
  id: rdma_cm_id,
  events: IdEvents,
  opts: ConnectionOptions & { privateData?: Uint8Array },
  peerData: Uint8Array,
): Promise<Connection> {
  let conn: Connection | null = null;
  try {
    conn = new Connection(device, id, events, opts);
    const pd = opts.privateData ?? null;
    const param = {
      private_data: pd,
      private_data_len: pd?.length ?? 0,
      responder_resources: 16,
      initiator_depth: 16,
      flow_control: 0,
      retry_count: RETRY_COUNT,
      rnr_retry_count: 7,
      srq: 0,
      qp_num: 0,
    };
    if ((await rdma_accept(id, param)) !== 0) throw lastError('accept: rdma_accept');
    const ev = await events.next(AbortSignal.timeout(10_000));
    if (ev.type !== rdma_cm_event_type.RDMA_CM_EVENT_ESTABLISHED) throw eventError('accept', ev, 'the client');
    conn.start({ ...ev, privateData: peerData });
    device.owned.add(conn);
    return conn;
  } catch (e) {
    device.events.destroy(id);
    conn?.destroyUnestablished();
    throw e;
  }
}

/**
 * The daemon's answers to librdmacm's calls made by a C program under `softrdma exec`
 * (docs/preload.md, "rdma_cm"): event channels, ids, addresses, connections, each the rdma_cm
 * face's own call (src/verbs/rdma_cm.ts) on the client's objects, named by handles.
 *
 * Events: for each event channel the daemon keeps one end of a socket pair whose other end is
 * the program's `channel->fd`; it takes the face's events as they come, queues them, and writes
 * one byte per event, so that `poll()` and `O_NONBLOCK` on the fd behave as librdmacm's. The
 * program reads a byte and then fetches the event (`CM_GET_EVENT`) with its id, the listening id
 * of a CONNECT_REQUEST (whose new id gets a handle then), the private data and `param.conn` or
 * `param.ud`. QPs: the program makes its QP with `ibv_create_qp` and attaches it to the id
 * (`rdmaAttachQp`).
 */
import { logger } from '../util/log.js';
import { ibv_transport_type, rdma_cm_join_mc_attr_mask, rdma_cm_mc_join_flags, rdma_port_space } from '../verbs/constants.js';
import { softrdmaLastError } from '../verbs/errno.js';
import {
  type CmId,
  type EventChannel,
  rdma_accept,
  rdma_ack_cm_event,
  rdma_bind_addr,
  rdma_connect,
  rdma_create_event_channel,
  rdma_create_id,
  rdma_destroy_event_channel,
  rdma_destroy_id,
  rdma_disconnect,
  rdma_get_cm_event,
  rdma_get_devices,
  rdma_join_multicast_ex,
  rdma_leave_multicast,
  rdma_listen,
  rdmaListenReady,
  rdma_migrate_id,
  rdma_reject,
  rdma_resolve_addr,
  rdma_resolve_route,
  rdma_set_option,
  rdmaAttachQp,
  rdmaDetachQp,
  rdmaUseDevice,
} from '../verbs/rdma_cm.js';
import type { In, rdma_cm_event, rdma_conn_param, sockaddr } from '../verbs/types.js';
import { type Answer, flatten, hexField } from './calls.js';
import type { Client } from './client.js';
import { preloadAddon } from './native.js';
import { PreloadOp, uintField } from './protocol.js';

const log = logger('daemon');

const EINVAL = 22;
const EAGAIN = 11;
const ENODEV = 19;
const EOPNOTSUPP = 95;

type Fields = [string, string | number | bigint][];

/** Private data of a connection (RDMA_MAX_PRIVATE_DATA is 256 bytes in librdmacm). */
const PRIVATE_DATA = 256;
/** Events queued for a channel the program does not read; more end the client (a stuck program). */
const MAX_QUEUED_EVENTS = 4096;

/** An event channel of a client: the face's channel, the daemon's end of `channel->fd`, the events taken. */
interface ClientCmChannel {
  ch: EventChannel;
  fd: number;
  queue: rdma_cm_event[];
}

/** A client's rdma_cm objects: event channels, ids (both ways), and events fetched and not acked. */
export class ClientCm {
  readonly channels = new Map<number, ClientCmChannel>();
  readonly ids = new Map<number, CmId>();
  readonly #idHandles = new Map<CmId, number>();
  readonly events = new Map<number, rdma_cm_event>();

  /** The id's handle, given on first sight (a CONNECT_REQUEST's new id). */
  handleOf(c: Client, id: CmId): number {
    let h = this.#idHandles.get(id);
    if (h === undefined) {
      h = c.handle();
      this.#idHandles.set(id, h);
      this.ids.set(h, id);
    }
    return h;
  }

  forget(h: number): void {
    const id = this.ids.get(h);
    if (id) this.#idHandles.delete(id);
    this.ids.delete(h);
  }

  /**
   * Destroys every id (events not acked are dropped, QPs taken off) and channel, as the kernel's
   * rdma_cm does when a process's file closes.
   */
  free(): void {
    const addon = preloadAddon();
    this.events.clear();
    for (const [h, id] of this.ids) {
      id.unacked = 0;
      rdmaDetachQp(id);
      if (rdma_destroy_id(id) !== 0) log('cm id %d: %s', h, softrdmaLastError().message);
      this.forget(h);
    }
    // CONNECT_REQUEST ids never fetched by the program.
    for (const ch of this.channels.values()) {
      for (const id of [...ch.ch.ids]) {
        id.unacked = 0;
        rdma_destroy_id(id);
      }
    }
    for (const [h, ch] of this.channels) {
      rdma_destroy_event_channel(ch.ch);
      addon?.close(ch.fd);
      this.channels.delete(h);
    }
  }
}

/** Takes the face's events of a channel, queues them and signals each on the program's fd. */
async function pump(c: Client, h: number): Promise<void> {
  const addon = preloadAddon()!;
  for (;;) {
    const ch = c.cm.channels.get(h);
    if (!ch) return;
    const r = await rdma_get_cm_event(ch.ch);
    if (r.ret !== 0 || !r.event) return;
    const live = c.cm.channels.get(h);
    if (!live) return;
    if (live.queue.length >= MAX_QUEUED_EVENTS) {
      log('client %d: cm channel %d: %d events not read; dropping the client', c.id, h, live.queue.length);
      c.onFatal?.();
      return;
    }
    live.queue.push(r.event);
    const n = addon.write(live.fd, Buffer.of(1));
    if (n !== 1) log('client %d: cm channel %d: event not signalled (%d)', c.id, h, n);
  }
}

/** `addr=` (text, IPv4 or IPv6) and `port=` under `prefix`; null when absent or malformed. */
function sockaddrOf(m: Map<string, string>, prefix: string): sockaddr | null {
  const address = m.get(`${prefix}addr`);
  const port = uintField(m, `${prefix}port`, 0xffff);
  if (address === undefined || port === null || !/^[0-9a-fA-F.:]{2,45}$/.test(address)) return null;
  return { family: address.includes(':') ? 'ipv6' : 'ipv4', address, port };
}

/** The id's addresses and device, which the program's `struct rdma_cm_id` mirrors. */
function idFields(i: CmId, out: Fields): Fields {
  const { src_addr: s, dst_addr: d } = i.route.addr;
  out.push(['src.addr', s.address], ['src.port', s.port], ['dst.addr', d.address], ['dst.port', d.port]);
  if (i.verbs) out.push(['device', i.verbs.device.name]);
  return out;
}

/** `struct rdma_conn_param` as the program sent it (`param=1`), or null (none given). */
function connParamOf(m: Map<string, string>): In<rdma_conn_param> | null | undefined {
  if (m.get('param') !== '1') return null;
  const pd = m.has('private_data') ? hexField(m, 'private_data', PRIVATE_DATA) : new Uint8Array(0);
  if (!pd) return undefined;
  const n = (k: string, max: number) => uintField(m, k, max) ?? 0;
  return {
    private_data: pd,
    private_data_len: pd.length,
    responder_resources: n('responder_resources', 255),
    initiator_depth: n('initiator_depth', 255),
    flow_control: n('flow_control', 255),
    retry_count: n('retry_count', 255),
    rnr_retry_count: n('rnr_retry_count', 255),
    srq: n('srq', 255),
    qp_num: n('qp_num', 0xff_ffff),
  };
}

const lastErr = (): number => softrdmaLastError().errno || EINVAL;
const ret = (r: number): Answer => (r === 0 ? { errno: 0 } : { errno: lastErr() });

/**
 * A program's multicast join context, a number to the daemon (the C pointer): the face carries
 * it to the MULTICAST_JOIN or MULTICAST_ERROR event, and `CM_GET_EVENT` gives it back.
 */
class McContext {
  constructor(readonly value: bigint) {}
}

/** Answers the CM_* ops; null for other ops. */
export function cmCall(c: Client, op: number, m: Map<string, string>): Answer | Promise<Answer> | null {
  const cm = c.cm;
  const id = (): CmId | null => cm.ids.get(uintField(m, 'id') ?? 0) ?? null;
  const withId = async (f: (i: CmId) => number | Promise<number>): Promise<Answer> => {
    const i = id();
    if (!i) return { errno: EINVAL };
    const r = await f(i);
    return r === 0 ? { errno: 0, fields: idFields(i, []) } : { errno: lastErr(), fields: idFields(i, []) };
  };
  switch (op) {
    case PreloadOp.CM_CREATE_CHANNEL: {
      const addon = preloadAddon();
      if (!addon) return { errno: EOPNOTSUPP };
      const ch = rdma_create_event_channel() as EventChannel | null;
      if (!ch) return { errno: lastErr() };
      const [mine, theirs] = addon.socketPair();
      const h = c.handle();
      cm.channels.set(h, { ch, fd: mine, queue: [] });
      void pump(c, h);
      return { errno: 0, fields: [['channel', h]], passFd: theirs };
    }
    case PreloadOp.CM_DESTROY_CHANNEL: {
      const h = uintField(m, 'channel') ?? 0;
      const ch = cm.channels.get(h);
      if (!ch) return { errno: EINVAL };
      rdma_destroy_event_channel(ch.ch);
      if (!ch.ch.dead) return { errno: lastErr() };
      cm.channels.delete(h);
      preloadAddon()?.close(ch.fd);
      return { errno: 0 };
    }
    case PreloadOp.CM_CREATE_ID: {
      const chh = uintField(m, 'channel') ?? 0;
      const ch = chh ? cm.channels.get(chh) : undefined;
      const ps = uintField(m, 'ps', 0xffff);
      if ((chh && !ch) || ps === null) return { errno: EINVAL };
      const r = rdma_create_id(ch?.ch ?? null, null, ps as rdma_port_space);
      if (r.ret !== 0 || !r.id) return { errno: lastErr() };
      // The program's `SOFTRDMA_DEVICE` (the daemon's own would name one device for all its
      // clients): the id is on that device, when the device carries its port space.
      const want = m.get('device');
      if (want !== undefined) {
        const ctx = rdma_get_devices()?.find((x) => x.device.name === want);
        if (!ctx) {
          rdma_destroy_id(r.id);
          return { errno: ENODEV };
        }
        const iwarp = ctx.device.transport_type === ibv_transport_type.IBV_TRANSPORT_IWARP;
        if (!(iwarp && ps !== rdma_port_space.RDMA_PS_TCP)) rdmaUseDevice(r.id, ctx);
      }
      return { errno: 0, fields: [['id', cm.handleOf(c, r.id as CmId)]] };
    }
    case PreloadOp.CM_DESTROY_ID: {
      const h = uintField(m, 'id') ?? 0;
      const i = cm.ids.get(h);
      if (!i) return { errno: EINVAL };
      rdmaDetachQp(i);
      // Events of the id not yet fetched by the program go with it (as the kernel drops an
      // id's queued events); their signal bytes stay, and the program's fetch skips them.
      for (const ch of cm.channels.values()) {
        for (const ev of ch.queue.filter((e) => e.id === i)) rdma_ack_cm_event(ev);
        ch.queue = ch.queue.filter((e) => e.id !== i);
      }
      if (rdma_destroy_id(i) !== 0) return { errno: lastErr() };
      cm.forget(h);
      return { errno: 0 };
    }
    case PreloadOp.CM_BIND_ADDR: {
      const a = sockaddrOf(m, '');
      return a ? withId((i) => rdma_bind_addr(i, a)) : { errno: EINVAL };
    }
    case PreloadOp.CM_LISTEN:
      return withId(async (i) => {
        const r = rdma_listen(i, uintField(m, 'backlog', 0xffff) ?? 0);
        if (r !== 0) return r;
        // The kernel's rdma_listen returns with the listening socket in place (iw_cm creates it
        // before answering), and programs rely on it: perftest -R tells its client to connect
        // right after. So the answer waits until the TCP listener is bound; a listen that
        // failed meanwhile (the port taken) is this call's error, errno set by the verbs face.
        try {
          await rdmaListenReady(i);
          return 0;
        } catch {
          return -1;
        }
      });
    case PreloadOp.CM_RESOLVE_ADDR: {
      const dst = sockaddrOf(m, 'dst.');
      const src = m.has('src.addr') ? sockaddrOf(m, 'src.') : null;
      if (!dst || (m.has('src.addr') && !src)) return { errno: EINVAL };
      return withId((i) => rdma_resolve_addr(i, src, dst, uintField(m, 'timeout') ?? 2000));
    }
    case PreloadOp.CM_RESOLVE_ROUTE:
      return withId((i) => rdma_resolve_route(i, uintField(m, 'timeout') ?? 2000));
    case PreloadOp.CM_ATTACH_QP: {
      const q = c.qps.get(uintField(m, 'qp') ?? 0);
      return q ? withId((i) => rdmaAttachQp(i, q.qp)) : { errno: EINVAL };
    }
    case PreloadOp.CM_DETACH_QP:
      return withId((i) => {
        rdmaDetachQp(i);
        return 0;
      });
    case PreloadOp.CM_CONNECT:
    case PreloadOp.CM_ACCEPT: {
      const p = connParamOf(m);
      if (p === undefined) return { errno: EINVAL };
      return withId((i) => (op === PreloadOp.CM_CONNECT ? rdma_connect(i, p) : rdma_accept(i, p)));
    }
    case PreloadOp.CM_REJECT: {
      const pd = m.has('private_data') ? hexField(m, 'private_data', PRIVATE_DATA) : new Uint8Array(0);
      return pd ? withId((i) => rdma_reject(i, pd)) : { errno: EINVAL };
    }
    case PreloadOp.CM_DISCONNECT:
      return withId((i) => rdma_disconnect(i));
    case PreloadOp.CM_MIGRATE_ID: {
      const chh = uintField(m, 'channel') ?? 0;
      const ch = chh ? cm.channels.get(chh) : undefined;
      if (chh && !ch) return { errno: EINVAL };
      return withId((i) => rdma_migrate_id(i, ch?.ch ?? null));
    }
    case PreloadOp.CM_SET_OPTION: {
      const level = uintField(m, 'level');
      const optname = uintField(m, 'optname');
      const value = uintField(m, 'value');
      if (level === null || optname === null || value === null) return { errno: EINVAL };
      return withId((i) => rdma_set_option(i, level, optname, value));
    }
    case PreloadOp.CM_GET_EVENT: {
      const ch = cm.channels.get(uintField(m, 'channel') ?? 0);
      if (!ch) return { errno: EINVAL };
      const ev = ch.queue.shift();
      if (!ev) return { errno: EAGAIN };
      const h = c.handle();
      cm.events.set(h, ev);
      const i = ev.id as CmId;
      const fields: Fields = [
        ['ev', h],
        ['event', ev.event],
        ['status', ev.status],
        ['id', cm.handleOf(c, i)],
        ['listen', ev.listen_id ? cm.handleOf(c, ev.listen_id as CmId) : 0],
        ['ps', i.ps],
      ];
      const udp = i.ps === rdma_port_space.RDMA_PS_UDP || i.ps === rdma_port_space.RDMA_PS_IPOIB;
      const p = udp ? ev.param.ud : ev.param.conn;
      const mc = (p.private_data as unknown) instanceof McContext ? (p.private_data as unknown as McContext) : null;
      const pd = p.private_data && !mc ? p.private_data.subarray(0, p.private_data_len) : null;
      if (mc) fields.push(['mc_context', mc.value]);
      if (pd?.length) fields.push(['private_data', Buffer.from(pd).toString('hex')]);
      if (udp) {
        const u = ev.param.ud;
        fields.push(['qp_num', u.qp_num], ['qkey', u.qkey]);
        if (u.ah_attr) flatten(u.ah_attr, 'ah_attr.', fields);
      } else {
        const k = ev.param.conn;
        fields.push(
          ['responder_resources', k.responder_resources],
          ['initiator_depth', k.initiator_depth],
          ['flow_control', k.flow_control],
          ['retry_count', k.retry_count],
          ['rnr_retry_count', k.rnr_retry_count],
          ['srq', k.srq],
          ['qp_num', k.qp_num],
        );
      }
      return { errno: 0, fields: idFields(i, fields) };
    }
    case PreloadOp.CM_JOIN_MCAST: {
      const a = sockaddrOf(m, '');
      const raw = m.get('context') ?? '0';
      if (!a || !/^[0-9]{1,20}$/.test(raw)) return { errno: EINVAL };
      const context = new McContext(BigInt(raw) & 0xffff_ffff_ffff_ffffn);
      const M = rdma_cm_join_mc_attr_mask;
      const F = rdma_cm_mc_join_flags;
      const join_flags = m.get('send_only') === '1' ? F.RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER : F.RDMA_MC_JOIN_FLAG_FULLMEMBER;
      return withId((i) =>
        rdma_join_multicast_ex(
          i,
          { comp_mask: M.RDMA_CM_JOIN_MC_ATTR_ADDRESS | M.RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS, join_flags, addr: a },
          context,
        ),
      );
    }
    case PreloadOp.CM_LEAVE_MCAST: {
      const a = sockaddrOf(m, '');
      return a ? withId((i) => rdma_leave_multicast(i, a)) : { errno: EINVAL };
    }
    case PreloadOp.CM_ACK_EVENT: {
      const h = uintField(m, 'ev') ?? 0;
      const ev = cm.events.get(h);
      if (!ev) return { errno: EINVAL };
      cm.events.delete(h);
      return ret(rdma_ack_cm_event(ev));
    }
    default:
      return null;
  }
}

/**
 * The verbs access layer: devices, contexts and asynchronous events.
 *
 * libibverbs is a consumer face over RNICPI (`src/rnicpi/`). This module plays the access
 * layer's part for the process: it loads the "softrdma" provider once, opens each RNIC
 * (`ri_rnic_open`), registers the one asynchronous event handler and the one completion event
 * handler per RNIC, and hands each `ibv_open_device` its own RNIC handle
 * (`ri_rnic_get_hdl`). Every `ibv_*` call then goes through that handle's `ri_ops_t`.
 *
 * The handle is obtained at the kernel location: in a single Node process the library is both
 * the user-level and the kernel-level access layer, and RNICPI lets only the kernel side name a
 * completion event handler at CQ creation (`ri_cq_create`, "non-privileged consumers must pass
 * 0"). Nothing privileged is exposed through the verbs API itself.
 */
import { createAccessLayer, type RiAccessLayer, riLoadProvider } from '../provider/access-layer.js';
import { roceGidTableOf, type SoftrdmaProviderInstance, type SoftrdmaVpInfo } from '../provider/softrdma.js';
import type { ri_ops_t } from '../rnicpi/ops.js';
import { bytesOfRiGid } from '../rnicpi/gid.js';
import { RiRet } from '../rnicpi/status.js';
import {
  RiAsyncEventType,
  RiConsumerDomain,
  RiDiagOpType,
  RiIbPortState,
  RiPblMode,
  RI_QUERY_RNIC_PORT_INFO,
  RiTransportType,
  type ri_ib_port_attr_t,
  type ri_event_record_t,
  type ri_rnic_attr_t,
  type ri_rnic_handle_t,
} from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import {
  ibv_atomic_cap,
  ibv_device_cap_flags,
  ibv_event_type,
  ibv_mtu,
  ibv_node_type,
  ibv_port_state,
  ibv_transport_type,
  IBV_LINK_LAYER_ETHERNET,
} from './constants.js';
import { EAGAIN, EBADF, EBUSY, EINVAL, ENOMEM, EOPNOTSUPP, EPERM, setErrno } from './errno.js';
import {
  type ibv_async_event,
  type ibv_context,
  type ibv_device,
  type ibv_device_attr,
  type ibv_gid,
  type ibv_port_attr,
  VERBS_HANDLE,
} from './types.js';

const log = logger('verbs');

/** Objects that can be the subject of an affiliated asynchronous event. */
export interface AsyncTarget {
  readonly context: Context;
  /** Builds the `element` of the event for this object. */
  asyncElement(): ibv_async_event['element'];
  /** Counts an acknowledged event (`ibv_ack_async_event`). */
  ackAsync(): void;
  /**
   * Counts an event handed to the consumer by `ibv_get_async_event`: only those must be acked
   * before the object can be destroyed (C's `events_reported`; queued, unread events are dropped
   * with the object).
   */
  reportAsync(): void;
  /** True once destroyed: no event is delivered for it any more. */
  readonly dead: boolean;
}

/** Objects that receive completion events (an `ibv_cq`). */
export interface CompletionTarget {
  onCompletionEvent(): void;
}

/** One softrdma RNIC as an `ibv_device`. */
export class Device implements ibv_device {
  readonly [VERBS_HANDLE] = 'ibv_device' as const;
  /** An iWARP RNIC, or (RoCEv2) an InfiniBand channel adapter, as Linux rxe shows. */
  readonly node_type: ibv_node_type;
  readonly transport_type: ibv_transport_type;
  readonly name: string;
  readonly dev_name: string;
  readonly dev_path: string;
  readonly ibdev_path: string;
  /** Node GUID: the EUI-64 of the device's MAC, as siw derives it. */
  /** The node GUID: `ri_rnic_query`'s on InfiniBand, read once the RNIC is open (`boot`). */
  guid: bigint;
  readonly mac: Uint8Array;
  /** The completion event handler id every CQ of this device is created with. */
  cqHandlerId = 0;
  constructor(
    readonly vp: SoftrdmaVpInfo,
    /** The consumer vector (AL-serialized kernel ops). */
    readonly ops: ri_ops_t,
    index: number,
  ) {
    this.name = vp.name;
    const ib = vp.transportType === RiTransportType.IB;
    this.node_type = ib ? ibv_node_type.IBV_NODE_CA : ibv_node_type.IBV_NODE_RNIC;
    this.transport_type = ib ? ibv_transport_type.IBV_TRANSPORT_IB : ibv_transport_type.IBV_TRANSPORT_IWARP;
    this.dev_name = `uverbs${index}`;
    this.dev_path = `/sys/class/infiniband_verbs/uverbs${index}`;
    this.ibdev_path = `/sys/class/infiniband/${vp.name}`;
    // The device's identity belongs to the provider (a MAC and its EUI-64 node GUID, stable
    // per host and device): the RoCE device's node GUID is what `ri_rnic_query` reports, and
    // the CA GUID of its IB CM (IBTA Vol. 1 §12.9.1). RNICPI gives an iWARP RNIC no GUID: the
    // provider's identity stands for it (its MAC is the port's GID).
    this.mac = vp.identity.mac;
    this.guid = vp.identity.nodeGuid;
  }
}

/** The node GUID `ri_rnic_query` reports for an InfiniBand RNIC (through a handle of its own). */
function nodeGuidOf(vp: SoftrdmaVpInfo, ops: ri_ops_t): bigint {
  const h = ops.ri_rnic_get_hdl(vp, RiConsumerDomain.KERNEL, null, null);
  if (h.status !== RiRet.SUCCESS) return vp.identity.nodeGuid;
  const q = ops.ri_rnic_query(h.rnic, 0, 1 << 20);
  ops.ri_rnic_free_hdl(vp, h.rnic);
  return q.status === RiRet.SUCCESS && 'ib' in q.attrs.trans_attr ? q.attrs.trans_attr.ib.node_guid : vp.identity.nodeGuid;
}

let asyncFdSeq = 100;

/** An opened device (`ibv_context`). */
export class Context implements ibv_context {
  readonly [VERBS_HANDLE] = 'ibv_context' as const;
  readonly async_fd = asyncFdSeq++;
  readonly num_comp_vectors = 1;
  async_nonblocking = false;
  closed = false;
  /** Objects created through this context and not yet destroyed. */
  readonly objects = new Set<{ readonly dead: boolean }>();
  readonly #events: ibv_async_event[] = [];
  readonly #waiters: { ev: ibv_async_event; resolve: (ret: number) => void }[] = [];
  constructor(
    readonly device: Device,
    readonly rnic: ri_rnic_handle_t,
  ) {}
  get ops(): ri_ops_t {
    return this.device.ops;
  }

  /** Queues an asynchronous event, or hands it to the oldest waiter. */
  postAsync(type: ibv_event_type, element: ibv_async_event['element']): void {
    if (this.closed) return;
    const w = this.#waiters.shift();
    if (w) {
      w.ev.event_type = type;
      w.ev.element = element;
      reported(element);
      w.resolve(0);
      return;
    }
    this.#events.push({ event_type: type, element });
  }

  /** Drops the queued (not yet read) events of an object being destroyed. */
  dropAsync(target: object): void {
    for (let i = this.#events.length - 1; i >= 0; i--) {
      const e = this.#events[i]!.element;
      if (e.qp === target || e.cq === target || e.srq === target) this.#events.splice(i, 1);
    }
  }

  /** `ibv_get_async_event`: resolves with 0 once an event is copied into `ev`. */
  getAsync(ev: ibv_async_event): Promise<number> {
    if (this.closed) return Promise.resolve(fail(EBADF));
    const e = this.#events.shift();
    if (e) {
      ev.event_type = e.event_type;
      ev.element = e.element;
      reported(e.element);
      return Promise.resolve(0);
    }
    if (this.async_nonblocking) return Promise.resolve(fail(EAGAIN));
    // errno is set as the blocked call returns (in its own flow), not by ibv_close_device.
    return new Promise<number>((resolve) => this.#waiters.push({ ev, resolve })).then((r) => (r === EBADF ? fail(EBADF) : r));
  }

  close(): void {
    this.closed = true;
    for (const w of this.#waiters.splice(0)) w.resolve(EBADF);
    this.#events.length = 0;
  }
}

/** Counts an event handed to the consumer on its object (see {@link AsyncTarget.reportAsync}). */
function reported(element: ibv_async_event['element']): void {
  const t = (element.qp ?? element.cq ?? element.srq) as unknown as Partial<AsyncTarget> | null;
  t?.reportAsync?.();
}

/** Sets errno and returns it (the ibverbs int convention). */
export function fail(errno: number, detail?: string): number {
  setErrno(errno, detail);
  return errno;
}

/** The errno a C provider gives for each RNICPI return code (EINVAL for any other). */
const ERRNO_OF_RI: Readonly<Partial<Record<RiRet, number>>> = {
  [RiRet.SUCCESS]: 0,
  [RiRet.RESOURCE_SHORTAGE]: ENOMEM,
  [RiRet.CQ_CAPACITY_EXCEEDED]: ENOMEM,
  [RiRet.RNIC_WR_LIMIT_EXCEEDED]: ENOMEM,
  [RiRet.RNIC_SG_LIMIT_EXCEEDED]: ENOMEM,
  [RiRet.RNIC_IRD_ORD_EXCEEDED]: ENOMEM,
  // A full queue, as rdma-core providers answer.
  [RiRet.QP_CAPACITY_EXCEEDED]: ENOMEM,
  [RiRet.PD_INUSE]: EBUSY,
  [RiRet.CQ_INUSE]: EBUSY,
  [RiRet.SRQ_INUSE]: EBUSY,
  [RiRet.WINDOWS_BOUND]: EBUSY,
  [RiRet.RNIC_INUSE]: EBUSY,
  [RiRet.QP_INUSE]: EBUSY,
  [RiRet.STILL_FLUSHING_WQES]: EBUSY,
  [RiRet.MULTICAST_ATTACHED]: EBUSY,
  [RiRet.NO_PERMISSION]: EPERM,
  [RiRet.OP_UNSUPPORTED]: EOPNOTSUPP,
  [RiRet.XPORT_UNSUPPORTED]: EOPNOTSUPP,
  [RiRet.RNIC_ATOMICS_UNSUPPORTED]: EOPNOTSUPP,
  [RiRet.SRQ_UNSUPPORTED]: EOPNOTSUPP,
  [RiRet.QP_INVALID_SERVICE_TYPE]: EOPNOTSUPP,
};

/** Maps an RNICPI return code to the errno a C provider would give. */
export function errnoOf(st: RiRet): number {
  return ERRNO_OF_RI[st] ?? EINVAL;
}

// ------------------------------------------------------------------------------ the AL

interface AccessLayerState {
  al: RiAccessLayer;
  provider: SoftrdmaProviderInstance;
  devices: Device[];
}

let state: AccessLayerState | null = null;
/** Every live context, to route asynchronous events by resource. */
const liveContexts = new Set<Context>();

/**
 * The ibverbs event type of each RNICPI asynchronous event (null: not reported). Anything else
 * (Terminate received, LLP reset/lost, bad closes, integrity and remote-operation errors) is
 * `IBV_EVENT_QP_FATAL`.
 */
const IBV_EVENT_OF_RI: Readonly<Partial<Record<RiAsyncEventType, ibv_event_type | null>>> = {
  // A clean close is reported by rdma_cm (DISCONNECTED); the per-QP S-RQ mark has no ibverbs
  // counterpart.
  [RiAsyncEventType.QP_LLQ_CLOSE_COMPLETE]: null,
  [RiAsyncEventType.QP_RQ_LIMIT_REACHED]: null,
  [RiAsyncEventType.QP_PROTECTION_ERROR_STAG_QP_MISMATCH]: ibv_event_type.IBV_EVENT_QP_ACCESS_ERR,
  [RiAsyncEventType.QP_PROTECTION_ERROR_BOUNDS_VIOLATION]: ibv_event_type.IBV_EVENT_QP_ACCESS_ERR,
  [RiAsyncEventType.QP_PROTECTION_ERROR_ACCESS_VIOLATION]: ibv_event_type.IBV_EVENT_QP_ACCESS_ERR,
  [RiAsyncEventType.QP_PROTECTION_ERROR_INVALID_PD]: ibv_event_type.IBV_EVENT_QP_ACCESS_ERR,
  [RiAsyncEventType.QP_PROTECTION_ERROR_WRAP_ERROR]: ibv_event_type.IBV_EVENT_QP_ACCESS_ERR,
  [RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_INVALID_STAG]: ibv_event_type.IBV_EVENT_QP_ACCESS_ERR,
  [RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_BOUNDS_VIOLATION]: ibv_event_type.IBV_EVENT_QP_ACCESS_ERR,
  [RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_ACCESS_VIOLATION]: ibv_event_type.IBV_EVENT_QP_ACCESS_ERR,
  [RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_INVALID_PD]: ibv_event_type.IBV_EVENT_QP_ACCESS_ERR,
  [RiAsyncEventType.QP_IRRQ_PROTECTION_ERROR_WRAP_ERROR]: ibv_event_type.IBV_EVENT_QP_ACCESS_ERR,
  // The QP cannot complete work because its CQ failed (overrun): the manual's QP_FATAL ("if the
  // cause is the CQ, the CQ also gets CQ_ERR"), not QP_REQ_ERR (a bad request).
  [RiAsyncEventType.QP_CQ_SQ_ERROR]: ibv_event_type.IBV_EVENT_QP_FATAL,
  [RiAsyncEventType.QP_CQ_RQ_ERROR]: ibv_event_type.IBV_EVENT_QP_FATAL,
  [RiAsyncEventType.CQ_OVERFLOW_DETECTED]: ibv_event_type.IBV_EVENT_CQ_ERR,
  [RiAsyncEventType.CQ_OP_ERROR]: ibv_event_type.IBV_EVENT_CQ_ERR,
  [RiAsyncEventType.CQ_ERROR]: ibv_event_type.IBV_EVENT_CQ_ERR,
  [RiAsyncEventType.SRQ_LIMIT_REACHED]: ibv_event_type.IBV_EVENT_SRQ_LIMIT_REACHED,
  [RiAsyncEventType.SRQ_CATASTROPHIC_ERROR]: ibv_event_type.IBV_EVENT_SRQ_ERR,
  [RiAsyncEventType.QP_SRQ_ERROR]: ibv_event_type.IBV_EVENT_SRQ_ERR,
  [RiAsyncEventType.LOCAL_CATASTROPHIC_ERROR]: ibv_event_type.IBV_EVENT_DEVICE_FATAL,
  [RiAsyncEventType.QP_LAST_WQE_REACHED]: ibv_event_type.IBV_EVENT_QP_LAST_WQE_REACHED,
  // InfiniBand QPs (RoCEv2 device).
  [RiAsyncEventType.QP_SEND_QUEUE_DRAINED]: ibv_event_type.IBV_EVENT_SQ_DRAINED,
  [RiAsyncEventType.QP_COMMUNICATION_ESTABLISHED]: ibv_event_type.IBV_EVENT_COMM_EST,
  [RiAsyncEventType.QP_PATH_MIGRATED]: ibv_event_type.IBV_EVENT_PATH_MIG,
};

/** Maps an RNICPI asynchronous event to the ibverbs event type (null: not reported). */
export function ibvEventOf(t: RiAsyncEventType): ibv_event_type | null {
  const e = IBV_EVENT_OF_RI[t];
  return e === undefined ? ibv_event_type.IBV_EVENT_QP_FATAL : e;
}

/** Listeners that want every RNICPI event of a device (the rdma_cm layer). */
const rawListeners = new Set<(dev: Device, ev: ri_event_record_t) => void>();
export function onRawAsyncEvent(fn: (dev: Device, ev: ri_event_record_t) => void): () => void {
  rawListeners.add(fn);
  return () => rawListeners.delete(fn);
}

function boot(): AccessLayerState {
  if (state) return state;
  const devices: Device[] = [];
  const al = createAccessLayer();
  // One iWARP RNIC (softrdma0) and one RoCEv2 RNIC (softroce0).
  const provider = riLoadProvider<SoftrdmaProviderInstance>(al, 'softrdma', { rnics: 1, roce: 1 });
  for (const att of al.attachments()) {
    const vp = att.vp_hdl as SoftrdmaVpInfo;
    const dev = new Device(vp, att.ops, devices.length);
    const opened = att.ops.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, dev);
    if (opened.status !== RiRet.SUCCESS) throw new Error(`ri_rnic_open(${vp.name}): ${RiRet[opened.status]}`);
    if (vp.transportType === RiTransportType.IB) dev.guid = nodeGuidOf(vp, att.ops);
    att.ops.ri_async_set_event_handler(vp, (_os, ev) => {
      for (const l of rawListeners) l(dev, ev);
      if ('port_event' in ev.event_data) {
        // Unaffiliated port events go to every context of the device (ibv_get_async_event).
        const pe = ev.event_data.port_event;
        const t = pe.sr_gid_change
          ? ibv_event_type.IBV_EVENT_GID_CHANGE
          : pe.port_state === RiIbPortState.ACTIVE
            ? ibv_event_type.IBV_EVENT_PORT_ACTIVE
            : ibv_event_type.IBV_EVENT_PORT_ERR;
        for (const c of liveContexts)
          if (c.device === dev) c.postAsync(t, { cq: null, qp: null, srq: null, port_num: pe.port_number || 1 });
        return;
      }
      const type = ibvEventOf(ev.event_type);
      if (type === null || !('resource_os_data' in ev.event_data)) return;
      const target = ev.event_data.resource_os_data as AsyncTarget | null;
      if (target && typeof target === 'object' && 'asyncElement' in target) {
        if (ev.event_type === RiAsyncEventType.QP_BAD_CLOSE && (target as { quietBadClose?: boolean }).quietBadClose) return;
        if (!target.dead) target.context.postAsync(type, target.asyncElement());
      } else if (type === ibv_event_type.IBV_EVENT_DEVICE_FATAL) {
        for (const c of liveContexts) if (c.device === dev) c.postAsync(type, { cq: null, qp: null, srq: null, port_num: 0 });
      }
    });
    const h = att.ops.ri_cq_set_event_handler(vp, 0, (_os, cqOs) => {
      (cqOs as CompletionTarget | null)?.onCompletionEvent();
    });
    if (h.status !== RiRet.SUCCESS) throw new Error(`ri_cq_set_event_handler: ${RiRet[h.status]}`);
    dev.cqHandlerId = h.handler_id;
    devices.push(dev);
    log('device %s ready (cq handler %d)', dev.name, dev.cqHandlerId);
  }
  state = { al, provider, devices };
  return state;
}

/** The devices (booting the provider on first use). */
export function devices(): readonly Device[] {
  return boot().devices;
}

/** `ibv_open_device`. */
export function openDevice(dev: Device): Context | null {
  const r = dev.ops.ri_rnic_get_hdl(dev.vp, RiConsumerDomain.KERNEL, null, null);
  if (r.status !== RiRet.SUCCESS) {
    // A RoCE device pinned to addresses this host lacks says which (SOFTRDMA_ROCE_ADDRS).
    const why = roceGidTableOf(dev.vp)?.problems();
    fail(errnoOf(r.status), why?.length ? `${dev.name}: ${why.join('; ')}` : undefined);
    return null;
  }
  const ctx = new Context(dev, r.rnic);
  liveContexts.add(ctx);
  return ctx;
}

/** `ibv_close_device`: refuses (EBUSY) while objects remain, as the RNIC handle does. */
export function closeDevice(ctx: Context): number {
  if (ctx.closed) return fail(EINVAL);
  const st = ctx.ops.ri_rnic_free_hdl(ctx.device.vp, ctx.rnic);
  if (st.status !== RiRet.SUCCESS) return fail(errnoOf(st.status));
  ctx.close();
  liveContexts.delete(ctx);
  return 0;
}

/** The RNIC attributes (`ri_rnic_query`). */
export function rnicAttrs(ctx: Context): ri_rnic_attr_t | null {
  const q = ctx.ops.ri_rnic_query(ctx.rnic, 0, 1 << 20);
  if (q.status !== RiRet.SUCCESS) {
    fail(errnoOf(q.status));
    return null;
  }
  return q.attrs;
}

/** `ibv_query_device`, from `ri_rnic_query`: what the RNIC really has, nothing more. */
export function queryDevice(ctx: Context, a: ibv_device_attr): number {
  if (ctx.closed) return fail(EINVAL);
  const r = rnicAttrs(ctx);
  if (!r) return EINVAL;
  const dev = ctx.device;
  a.fw_ver = '0.1.0';
  const ibAttr = 'ib' in r.trans_attr ? r.trans_attr.ib : null;
  a.node_guid = ibAttr ? ibAttr.node_guid : dev.guid;
  a.sys_image_guid = ibAttr ? ibAttr.system_image_guid : dev.guid;
  a.max_mr_size = 0xffff_ffffn;
  a.page_size_cap = r.mem_page_sizes_bit_mask;
  a.vendor_id = r.vendor_id;
  a.vendor_part_id = r.vendor_part_id;
  a.hw_ver = r.hw_version;
  a.max_qp = r.max_qps;
  a.max_qp_wr = r.max_wrs_qp;
  // Memory windows (type 2B: bound by a WR, per QP) and the memory management extensions
  // (fast registration, local and remote invalidation) are what an iWARP RNIC offers.
  a.device_cap_flags =
    ibv_device_cap_flags.IBV_DEVICE_MEM_MGT_EXTENSIONS |
    ibv_device_cap_flags.IBV_DEVICE_MEM_WINDOW |
    ibv_device_cap_flags.IBV_DEVICE_MEM_WINDOW_TYPE_2B |
    ibv_device_cap_flags.IBV_DEVICE_RESIZE_MAX_WR |
    ibv_device_cap_flags.IBV_DEVICE_SRQ_RESIZE |
    ibv_device_cap_flags.IBV_DEVICE_N_NOTIFY_CQ;
  a.max_sge = r.max_sgl_send_recvqp;
  a.max_sge_rd = r.max_sgl_rdma_read;
  a.max_cq = r.max_cqs;
  a.max_cqe = r.max_cqes_per_cq;
  a.max_mr = r.max_mrs;
  a.max_pd = r.max_pds;
  // The RDMA Verbs manual (rdma_conn_param): responder_resources ≤ the local max_qp_rd_atom and
  // the remote max_qp_init_rd_atom; initiator_depth ≤ the local max_qp_init_rd_atom. So
  // max_qp_rd_atom is the responder side (IRD per QP) and max_qp_init_rd_atom the initiator side
  // (ORD per QP), as librdmacm caps them and rxe checks max_dest_rd_atomic.
  a.max_qp_rd_atom = r.max_ird_per_qp;
  a.max_ee_rd_atom = 0;
  a.max_res_rd_atom = r.max_ird;
  a.max_qp_init_rd_atom = r.max_ord_per_qp;
  a.max_ee_init_rd_atom = 0;
  // From the RNIC's atomic executor (ri_rnic_query's softrdma extension); on iWARP the
  // operations reach only peers that negotiated RFC 7306, others refuse them at post time.
  a.atomic_cap = (r.softrdma_atomics?.atomic_cap ?? ibv_atomic_cap.IBV_ATOMIC_NONE) as ibv_atomic_cap;
  const ib = 'ib' in r.trans_attr ? r.trans_attr.ib : null;
  a.max_ee = 0;
  a.max_rdd = 0;
  a.max_mw = r.max_mws;
  a.max_raw_ipv6_qp = 0;
  a.max_raw_ethy_qp = 0;
  a.max_mcast_grp = ib ? ib.max_mcgs : 0;
  a.max_mcast_qp_attach = ib ? ib.max_qps_per_mcg : 0;
  a.max_total_mcast_qp_attach = ib ? ib.max_multicast_qps : 0;
  a.max_ah = ib ? ib.max_addr_hdls : 0;
  a.max_fmr = 0;
  a.max_map_per_fmr = 0;
  a.max_srq = r.max_srq;
  a.max_srq_wr = r.max_wrs_srq;
  a.max_srq_sge = r.max_sgl_srq;
  a.max_pkeys = ib ? ib.partition_table_size : 1;
  a.local_ca_ack_delay = 0;
  a.phys_port_cnt = 1;
  return 0;
}

/** The IB port attributes of a RoCEv2 device (`ri_rnic_query` with port info), or null on iWARP. */
export function ibPort(ctx: Context): ri_ib_port_attr_t | null {
  if (ctx.device.transport_type !== ibv_transport_type.IBV_TRANSPORT_IB) return null;
  const q = ctx.ops.ri_rnic_query(ctx.rnic, RI_QUERY_RNIC_PORT_INFO, 1 << 20);
  if (q.status !== RiRet.SUCCESS || !('ib' in q.attrs.trans_attr)) return null;
  return q.attrs.trans_attr.ib.port_attrs?.[0] ?? null;
}

/**
 * `ibv_query_port`: one Ethernet port, active. iWARP: MTU as Linux siw derives it from 1500.
 * RoCEv2: the port RNICPI reports (active MTU, GID table length, message size), as rxe.
 */
export function queryPort(ctx: Context, port: number, a: ibv_port_attr): number {
  if (ctx.closed || port !== 1) return fail(EINVAL);
  const ib = ibPort(ctx);
  a.state = ibv_port_state.IBV_PORT_ACTIVE;
  a.max_mtu = ib ? (ib.max_mtu as number as ibv_mtu) : ibv_mtu.IBV_MTU_4096;
  a.active_mtu = ib ? ((ib.sr_active_mtu ?? ib.max_mtu) as number as ibv_mtu) : ibv_mtu.IBV_MTU_1024;
  a.gid_tbl_len = ib ? ib.src_gid_table_size : 1;
  a.port_cap_flags = 0;
  a.max_msg_sz = ib ? ib.max_msg_size : 0xffff_ffff;
  a.bad_pkey_cntr = 0;
  a.qkey_viol_cntr = ib ? ib.bad_qkey_count : 0;
  a.pkey_tbl_len = 1;
  a.lid = 0;
  a.sm_lid = 0;
  a.lmc = 0;
  a.max_vl_num = 1;
  a.sm_sl = 0;
  a.subnet_timeout = 0;
  a.init_type_reply = 0;
  a.active_width = 2; // 4X
  a.active_speed = 2; // 5.0 Gbps per lane
  a.phys_state = 5; // LinkUp
  a.link_layer = IBV_LINK_LAYER_ETHERNET;
  a.flags = 0;
  a.port_cap_flags2 = 0;
  a.active_speed_ex = 0;
  return 0;
}

/**
 * `ibv_query_gid`. iWARP: index 0 is the MAC in the first 6 bytes (as siw reports it). RoCEv2:
 * the port's GID table (the IPv4-mapped GIDs of the host's addresses, followed as they come and
 * go; an empty slot reads as the all-zero GID, as the kernel's table shows a free entry).
 */
export function queryGid(ctx: Context, port: number, index: number, gid: ibv_gid): number {
  if (ctx.closed || port !== 1 || !Number.isInteger(index) || index < 0) return fail(EINVAL);
  const raw = gid.raw instanceof Uint8Array && gid.raw.length === 16 ? gid.raw : new Uint8Array(16);
  if (ctx.device.transport_type === ibv_transport_type.IBV_TRANSPORT_IB) {
    const g = ibPort(ctx)?.src_gid_table?.[index];
    if (!g) return fail(EINVAL);
    gid.raw = bytesOfRiGid(g, raw);
    return 0;
  }
  if (index !== 0) return fail(EINVAL);
  raw.fill(0);
  raw.set(ctx.device.mac, 0);
  gid.raw = raw;
  return 0;
}

/**
 * softrdma: the network interface of each GID table entry of a RoCEv2 port, by index (null: an
 * empty slot or an interface not known), from the table's owner; empty on iWARP. rdma-core
 * gives the same through `ibv_query_gid_ex` (`ndev_ifindex`).
 */
export function gidNetdevs(ctx: Context): (string | null)[] {
  return (roceGidTableOf(ctx.device.vp)?.entries() ?? []).map((e) => e?.netdev ?? null);
}

/**
 * softrdma: the RoCEv2 device's counters (rxe's `hw_counters` names; `rdma statistic show link`),
 * from the RNICPI diagnostics (`ri_rnic_diag` RNIC_DETAILS, `hw_counters`); null on iWARP.
 */
export function hwCounters(ctx: Context): Record<string, number> | null {
  if (ctx.closed || ctx.device.transport_type !== ibv_transport_type.IBV_TRANSPORT_IB) return null;
  const d = diagJson(ctx, RiDiagOpType.RNIC_DETAILS, 0);
  const c = d?.hw_counters;
  return c && typeof c === 'object' ? { ...(c as Record<string, number>) } : null;
}

/** One `ri_rnic_diag` answer (JSON text) parsed, or null. */
function diagJson(ctx: Context, op: RiDiagOpType, arg: unknown): Record<string, unknown> | null {
  const first = ctx.ops.ri_rnic_diag(ctx.rnic, op, arg, null);
  const size = 'oplen' in first ? first.oplen : 0;
  if (!size) return null;
  const buf = new Uint8Array(size);
  const r = ctx.ops.ri_rnic_diag(ctx.rnic, op, arg, buf);
  if (r.status !== RiRet.SUCCESS) return null;
  try {
    return JSON.parse(Buffer.from(buf).toString('utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The GID types of a RoCEv2 port (`IBV_GID_TYPE_ROCE_V2` for each entry); empty on iWARP. */
export function gidTypes(ctx: Context): readonly number[] {
  return ibPort(ctx)?.sr_gid_types ?? [];
}

/** `ibv_query_pkey`: iWARP has no partitions; index 0 reads as the default key. */
export function queryPkey(ctx: Context, port: number, index: number): { ret: number; pkey: number } {
  if (ctx.closed || port !== 1 || index !== 0) return { ret: fail(EINVAL), pkey: 0 };
  return { ret: 0, pkey: 0xffff };
}

/**
 * IT-API on the RoCE Interface (`softroce0`, `IT_IB_TRANSPORT`): the device-level half. The
 * Endpoint logic stays in `ep.ts`; this module holds what the InfiniBand CM needs there:
 *
 * - the Interface's **CM**: the process's RDMA IP CM service of the port (`src/ibcm/rdma-ip.ts`:
 *   QP1, the IB CM, the services), shared with rdma_cm — opened on this face's RNIC when IT-API
 *   is the first to need it. IT-API connections use rdma_cm's conventions on it (IBTA Vol. 1
 *   Annex A11 as Linux `cma.c`): an `IT_IANA_PORT` qualifier is the service ID
 *   `RDMA_PS_TCP << 16 | port`, and a REQ's private data starts with the `cma_hdr` (the
 *   addresses), so an IT-API Endpoint talks to any rdma_cm peer (rping, perftest `-R`, rxe);
 * - **paths**: `it_path_t.remote.ib` with IPv4-mapped GIDs (Annex A17.4.5.1) and the RoCE
 *   path's hop limit, MTU and packet life time of `src/ibcm/qp-plan.ts`, as rdma_cm's routes;
 *   the QP transitions a connection makes are that module's plans (Linux `cm_init_qp_*_attr`);
 * - **requests** and **Listen Points** shaped like the iWARP CM's, so the Listen/request code of
 *   `ep.ts` serves both transports.
 *
 * @module
 */
import { EventEmitter } from 'node:events';
import type { IbCmConnection, IbCmEvent } from '../ibcm/cm.js';
import { gidIndexIn } from '../ibcm/gsi.js';
import { IBOE_HOP_LIMIT, IBOE_PACKET_LIFETIME, IBOE_PATH_MTU, type QpAccess, rcInitPlan, runQpPlan } from '../ibcm/qp-plan.js';
import { CMA_USER_PDATA, type CmaAddresses, ephemeralPort, RdmaIpCm } from '../ibcm/rdma-ip.js';
import { RiGsiPort } from '../ibcm/ri-gsi.js';
import { hostMemory } from '../rnic/hostmem.js';
import type { ri_ops_t } from '../rnicpi/ops.js';
import { bytesOfRiGid } from '../rnicpi/gid.js';
import { RiRet } from '../rnicpi/status.js';
import { RI_QUERY_RNIC_PORT_INFO, RiConsumerDomain, RiTransportType, type ri_qp_handle_t, type ri_rnic_handle_t } from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import {
  CMA_HDR_LEN,
  CmRejReason,
  type CmReq,
  gidFromIpv4,
  ipv4FromGid,
  RdmaPs,
  rdmaServiceId,
  SidrStatus,
  stringifyGid,
} from '../wire/ib/cm.js';
import type { ItDevice } from './access.js';
import { type it_path_t, it_conn_reject_code_t as RJ } from './types.js';

const log = logger('itapi:roce');

export { IBOE_HOP_LIMIT, IBOE_PACKET_LIFETIME, IBOE_PATH_MTU };
/** Private data on RoCE: a REQ's less the `cma_hdr`; REP; REJ (IBTA Table 99, as rdma_cm). */
export const IB_PDATA_CONNECT = CMA_USER_PDATA.REQ;
export const IB_PDATA_ACCEPT = CMA_USER_PDATA.REP;
export const IB_PDATA_REJECT = CMA_USER_PDATA.REJ;

/** True for the RoCE (InfiniBand-transport) Interface. */
export function isIbDevice(dev: ItDevice): boolean {
  return dev.vp.transportType === RiTransportType.IB;
}

/** One RNIC handle per RoCE Interface for QP1 (the IAs come and go; the CM outlives them). */
const gsiRnic = new WeakMap<ItDevice, ri_rnic_handle_t>();

function deviceRnic(dev: ItDevice): ri_rnic_handle_t | RiRet {
  const have = gsiRnic.get(dev);
  if (have) return have;
  const r = dev.ops.ri_rnic_get_hdl(dev.vp, RiConsumerDomain.KERNEL, null, null);
  if (r.status !== RiRet.SUCCESS) return r.status;
  gsiRnic.set(dev, r.rnic);
  return r.rnic;
}

/** The port's GID table (RNICPI port attributes). */
export function roceGids(dev: ItDevice): Uint8Array[] {
  const rnic = deviceRnic(dev);
  if (typeof rnic === 'number') return [];
  const q = dev.ops.ri_rnic_query(rnic, RI_QUERY_RNIC_PORT_INFO, 1 << 20);
  if (q.status !== RiRet.SUCCESS || !('ib' in q.attrs.trans_attr)) return [];
  const table = q.attrs.trans_attr.ib.port_attrs?.[0]?.src_gid_table ?? [];
  return table.map((g) => bytesOfRiGid(g));
}

/** The IPv4 addresses of the port (those of its IPv4-mapped GIDs). */
export function roceAddresses(dev: ItDevice): string[] {
  return roceGids(dev)
    .map((g) => ipv4FromGid(g))
    .filter((a): a is string => a !== null);
}

/** The GID table index of `gid` (0 when it is not in the table). */
export function gidIndexOf(dev: ItDevice, gid: Uint8Array): number {
  return Math.max(0, gidIndexIn(roceGids(dev), gid));
}

/** The CA GUID of the device's CM: the node GUID `ri_rnic_query` reports (IBTA Vol. 1 §12.9.1). */
function caGuidOf(dev: ItDevice): bigint | RiRet {
  const rnic = deviceRnic(dev);
  if (typeof rnic === 'number') return rnic;
  const q = dev.ops.ri_rnic_query(rnic, 0, 1 << 20);
  if (q.status !== RiRet.SUCCESS) return q.status;
  if (!('ib' in q.attrs.trans_attr)) return RiRet.XPORT_UNSUPPORTED;
  return q.attrs.trans_attr.ib.node_guid;
}

/** The CM of the RoCE Interface (QP1 opened on first use), or the RNICPI status of the failure. */
export function roceCm(dev: ItDevice): RdmaIpCm | RiRet {
  const caGuid = caGuidOf(dev);
  if (typeof caGuid === 'number') return caGuid;
  return RdmaIpCm.of({
    name: dev.name,
    openGsi: () => {
      const rnic = deviceRnic(dev);
      if (typeof rnic === 'number') return rnic;
      return RiGsiPort.open({ ops: dev.ops, rnic, cqHandlerId: dev.cqHandlerId, addressOf: (b) => hostMemory.addressOf(b) });
    },
    caGuid,
    gids: () => roceGids(dev),
  });
}

// ------------------------------------------------------------------------------------ paths

/** The 16 octets of an IPv6-text GID (`::ffff:192.0.2.1`, `fe80::1`), or null. */
export function gidFromText(text: string): Uint8Array | null {
  if (typeof text !== 'string') return null;
  let s = text.trim();
  const out = new Uint8Array(16);
  const v4 = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  let tail: number[] = [];
  if (v4) {
    const o = v4.slice(2, 6).map(Number);
    if (o.some((x) => x > 255)) return null;
    tail = [(o[0]! << 8) | o[1]!, (o[2]! << 8) | o[3]!];
    s = v4[1]!.endsWith('::') ? v4[1]! : v4[1]!.slice(0, -1);
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const words = (p: string) =>
    p === '' ? [] : p.split(':').map((w) => (/^[0-9a-f]{1,4}$/i.test(w) ? Number.parseInt(w, 16) : Number.NaN));
  const head = words(halves[0]!);
  const back = halves.length === 2 ? [...words(halves[1]!), ...tail] : [];
  const front = halves.length === 2 ? head : [...head, ...tail];
  const fill = 8 - front.length - back.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0) || (halves.length === 2 && fill < 1)) return null;
  const all = [...front, ...new Array<number>(fill).fill(0), ...back];
  if (all.some((w) => !Number.isInteger(w))) return null;
  all.forEach((w, i) => {
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
}

/** An `it_path_t` on the RoCE Interface between the GIDs of two IPv4 addresses. */
export function ibPathOf(local: string, remote: string, timeoutUs: bigint): it_path_t {
  return {
    spigot_id: 0,
    timeout: timeoutUs,
    remote: {
      ib: {
        partition_key: 0xffff,
        path_mtu: IBOE_PATH_MTU,
        packet_lifetime: IBOE_PACKET_LIFETIME,
        local_port_lid: 0,
        remote_port_lid: 0,
        local_port_gid: stringifyGid(gidFromIpv4(local)),
        remote_port_gid: stringifyGid(gidFromIpv4(remote)),
        packet_rate: 0,
        sl: 0,
        subnet_local: 0,
        flow_label: 0,
        traffic_class: 0,
        hop_limit: IBOE_HOP_LIMIT,
      },
    },
  };
}

/** The IT-API reject code of each IB CM REJ reason (any other: IT_CN_REJ_OTHER). */
const REJECT_CODE_OF: Readonly<Partial<Record<CmRejReason, RJ>>> = {
  [CmRejReason.TIMEOUT]: RJ.IT_CN_REJ_TIMEOUT,
  [CmRejReason.STALE_CONN]: RJ.IT_CN_REJ_STALE_CONN,
  [CmRejReason.INVALID_SERVICE_ID]: RJ.IT_CN_REJ_BAD_PATH,
  [CmRejReason.INVALID_GID]: RJ.IT_CN_REJ_BAD_PATH,
  [CmRejReason.INVALID_LID]: RJ.IT_CN_REJ_BAD_PATH,
  [CmRejReason.NO_QP]: RJ.IT_CN_REJ_RESOURCES,
  [CmRejReason.NO_EEC]: RJ.IT_CN_REJ_RESOURCES,
  [CmRejReason.NO_RESOURCES]: RJ.IT_CN_REJ_RESOURCES,
};

/** The IT-API reject code of an IB CM REJ reason (the active side's NONPEER_REJECT). */
export function rejectCodeOf(reason: number): RJ {
  return REJECT_CODE_OF[reason as CmRejReason] ?? RJ.IT_CN_REJ_OTHER;
}

// ------------------------------------------------------------------------------------ the QP

/** Moves a new RC QP RESET → INIT with the remote access it allows (the connection plan's INIT, `src/ibcm/qp-plan.ts`). */
export function ibQpInit(ops: ri_ops_t, rnic: ri_rnic_handle_t, qp: ri_qp_handle_t, access: QpAccess): RiRet {
  return runQpPlan(ops, rnic, qp, rcInitPlan(access));
}

// ------------------------------------------------------------------------- passive side

/**
 * A REQ delivered to an IT-API Listen Point, shaped like the iWARP CM's request: `state`,
 * the consumer's private data (after the `cma_hdr`), the peer's IRD/ORD (the REQ's responder
 * resources and initiator depth), the addresses of the `cma_hdr`; `'aborted'` when the active
 * side gave up (REJ, timeout) before the consumer answered.
 */
export class IbItRequest extends EventEmitter {
  state: 'pending' | 'accepted' | 'rejected' | 'aborted' = 'pending';
  readonly privateData: Uint8Array;
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly localAddress: string;
  readonly localPort: number;
  constructor(
    readonly cm: RdmaIpCm,
    readonly conn: IbCmConnection,
    readonly req: CmReq,
    addrs: CmaAddresses,
    port: number,
  ) {
    super();
    this.privateData = req.privateData.subarray(CMA_HDR_LEN);
    this.remoteAddress = addrs.src;
    this.remotePort = addrs.srcPort;
    this.localAddress = addrs.dst;
    this.localPort = port;
    conn.onEvent = (e) => this.#onEvent(e);
  }
  get peerIrd(): number {
    return this.req.responderResources;
  }
  get peerOrd(): number {
    return this.req.initiatorDepth;
  }
  #onEvent(e: IbCmEvent): void {
    if (this.state !== 'pending') return;
    if (e.type === 'rejected' || e.type === 'timeout') {
      log('request from %s aborted (%s)', this.remoteAddress, e.type);
      this.state = 'aborted';
      this.emit('aborted');
    }
  }
  /** REJ 28 (Consumer Defined) with the consumer's private data. */
  reject(pd: Uint8Array = new Uint8Array(0)): void {
    if (this.state !== 'pending') return;
    this.state = 'rejected';
    try {
      this.conn.reject(pd.subarray(0, IB_PDATA_REJECT));
    } catch (e) {
      log('reject: %s', (e as Error).message);
    }
  }
  /** The Endpoint takes the connection over (its events go there from now on). */
  take(onEvent: (e: IbCmEvent) => void): void {
    this.state = 'accepted';
    this.conn.onEvent = onEvent;
  }
}

/**
 * An IT-API Listen Point on the RoCE Interface: the RDMA_PS_TCP service of `port` (connection
 * requests, `'request'`) and its RDMA_PS_UDP service (UD service requests, `'ud-request'`) on
 * every address of the port, shaped like the iWARP CM listener (`close()`).
 */
export class IbItListen extends EventEmitter {
  #closed = false;
  private constructor(
    readonly cm: RdmaIpCm,
    readonly port: number,
  ) {
    super();
  }

  /** Listens on `port` (0: an unused one of the ephemeral range); null when the port is taken. */
  static listen(cm: RdmaIpCm, port: number): IbItListen | null {
    for (let tries = 0; tries < (port === 0 ? 64 : 1); tries++) {
      const p = port === 0 ? ephemeralPort() : port;
      const l = new IbItListen(cm, p);
      const tcp = rdmaServiceId(RdmaPs.TCP, p);
      const udp = rdmaServiceId(RdmaPs.UDP, p);
      if (!cm.listen(tcp, '0.0.0.0', (ev, addrs) => l.#onRequest(ev, addrs, 'rc'))) continue;
      if (!cm.listen(udp, '0.0.0.0', (ev, addrs) => l.#onRequest(ev, addrs, 'ud'))) {
        cm.unlisten(tcp, '0.0.0.0');
        continue;
      }
      cm.hold();
      return l;
    }
    return null;
  }

  #onRequest(ev: Parameters<Parameters<RdmaIpCm['listen']>[2]>[0], addrs: CmaAddresses, service: 'rc' | 'ud'): void {
    if (service === 'ud') {
      if (ev.type === 'sidr-req') this.emit('ud-request', ev.request, addrs);
      else ev.conn.reject();
      return;
    }
    if (ev.type !== 'req') {
      // A SIDR_REQ to a connection service: SIDR_REP "service ID not supported".
      ev.request.reject(SidrStatus.UNSUPPORTED);
      return;
    }
    this.emit('request', new IbItRequest(this.cm, ev.conn, ev.req, addrs, this.port));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.cm.unlisten(rdmaServiceId(RdmaPs.TCP, this.port), '0.0.0.0');
    this.cm.unlisten(rdmaServiceId(RdmaPs.UDP, this.port), '0.0.0.0');
    this.cm.release();
  }
}

/** `::ffff:a.b.c.d` of an IPv4 address (logs). */
export function gidTextOf(ip: string): string {
  return stringifyGid(gidFromIpv4(ip));
}

/**
 * IT-API's UD service on the RoCE Interface (`softroce0`): UD Endpoints (`it_ep_ud_create`,
 * `it_post_sendto`, `it_post_recvfrom`), Address Handles (`it_address_handle_*`) and UD service
 * resolution (`it_ud_service_request*`, `it_ud_service_reply`) over the IB CM's SIDR.
 *
 * - A **UD Endpoint** is an IB UD QP taken straight to RTS with its Q_Key (`ud_ep_key`); its id
 *   (`ud_ep_id`) is the QPN. Receives reserve 40 octets for the GRH (IT-API §2.7): a receive
 *   completion (`IT_DTO_UD_RECV_CMPL_EVENT`, an `it_all_dto_cmpl_event_t`) reports the payload
 *   plus 40, `IT_UD_IB_GRH_PRESENT` (RoCE always carries the GRH), the sender's QPN and a partial
 *   path (SL, LID 0).
 * - An **Address Handle** is an RNICPI AH (`ri_ah_create`) of the path's remote GID, from the
 *   GID index of its local GID.
 * - **Service resolution** uses rdma_cm's conventions, so rdma_cm's UD services (udaddy) answer
 *   and are reached: an IANA port is the service ID `RDMA_PS_UDP << 16 | port`, a SIDR_REQ starts
 *   with the `cma_hdr`. A request handle sends one SIDR_REQ per `it_ud_service_request` (the CM
 *   retransmits it until a SIDR_REP or its timeout, after which nothing is delivered and the
 *   Consumer may ask again); every SIDR_REP is an `IT_CM_MSG_UD_SERVICE_REPLY_EVENT`. A Listen
 *   Point on the RoCE Interface hears the port's UD service requests as
 *   `IT_CM_REQ_UD_SERVICE_REQUEST_EVENT`s; `it_ud_service_reply` answers with a SIDR_REP.
 *
 * @module
 */
import type { IbCmSidrPending, IbCmSidrRequest } from '../ibcm/cm.js';
import { udPlan, runQpPlan } from '../ibcm/qp-plan.js';
import { CMA_USER_PDATA, cmaPrivateDataOf, ephemeralPort, type RdmaIpCm, roceSourceFor } from '../ibcm/rdma-ip.js';
import { RiRet } from '../rnicpi/status.js';
import { riGidOfBytes } from '../rnicpi/gid.js';
import {
  RiQpAttrMask,
  RiSvcType,
  RiWcStatus,
  RiWcType,
  RiWrFlags,
  RiWrType,
  riWcIsGen,
  type ri_address_handle_t,
  type ri_data_seg_t,
  type ri_event_record_t,
  type ri_qp_handle_t,
  type ri_ud_address_vector_t,
  type ri_wc_t,
} from '../rnicpi/types.js';
import { logger } from '../util/log.js';
import { CMA_HDR_LEN, gidFromIpv4, ipv4FromGid, RdmaPs, rdmaServiceId, SidrStatus } from '../wire/ib/cm.js';
import type { ItAsyncTarget } from './access.js';
import type { Sevd } from './evd.js';
import { fail, type Ia, ItObject, type Pz } from './objects.js';
import { gidFromText, gidIndexOf, IBOE_HOP_LIMIT, roceAddresses } from './roce.js';
import { it_status_t as S } from './status.js';
import {
  IT_HANDLE_KIND,
  IT_ID_KIND,
  it_dto_flags_t as DF,
  it_dto_status_t as DS,
  it_event_type_t as ET,
  it_handle_type_enum_t as HT,
  IT_IANA_PORT,
  IT_MAX_PRIV_DATA,
  IT_UD_IB_GRH_PRESENT,
  type it_dto_ud_flags_t,
  it_ud_svc_req_status_t as US,
  it_ep_state_ud_t as UST,
  type it_all_dto_cmpl_event_t,
  type it_conn_qual_t,
  type it_dto_cmpl_event_t,
  type it_net_addr_t,
  type it_path_t,
  type it_remote_ep_info_t,
  type it_ud_svc_req_identifier_t,
} from './types.js';
import { GRH_LEN } from '../wire/ib/constants.js';

const log = logger('itapi:ud');

/** Private data as an event carries it: `IT_MAX_PRIV_DATA` octets (the length is not conveyed). */
function pdataBuffer(src: Uint8Array): Uint8Array {
  const b = new Uint8Array(IT_MAX_PRIV_DATA);
  b.set(src.subarray(0, IT_MAX_PRIV_DATA));
  return b;
}

/** The GRH area at the head of every UD receive buffer (IT-API §2.7, IBTA §11.4.2.1). */
export const UD_GRH_LEN = GRH_LEN;
/** The largest UD message on the RoCE Interface: its path MTU (1024, as rxe on a 1500-octet link). */
export const UD_MAX_MESSAGE = 1024;
/** SIDR private data: a SIDR_REQ's less the `cma_hdr`; a SIDR_REP's (IBTA Tables 113/114, as rdma_cm). */
export const UD_PDATA_REQUEST = CMA_USER_PDATA.SIDR_REQ;
export const UD_PDATA_REPLY = CMA_USER_PDATA.SIDR_REP;

// =============================================================================================
// Address Handles
// =============================================================================================

/** The RNICPI address vector of an IB path (global: RoCE always carries the GRH). */
export function avOfPath(ia: Ia, path: it_path_t): ri_ud_address_vector_t | null {
  if (!path || typeof path !== 'object' || !path.remote || !('ib' in path.remote)) return null;
  const ib = path.remote.ib;
  const dgid = gidFromText(ib.remote_port_gid);
  if (!dgid) return null;
  const sgid = ib.local_port_gid ? gidFromText(ib.local_port_gid) : null;
  const hop = Number.isInteger(ib.hop_limit) && ib.hop_limit > 0 && ib.hop_limit < 256 ? ib.hop_limit : IBOE_HOP_LIMIT;
  return {
    av_common: {
      sl: (ib.sl ?? 0) & 0xf,
      send_global_routing_hdr_flg: 1,
      hop_limit: hop,
      source_gid_index: sgid ? gidIndexOf(ia.device, sgid) : 0,
      flow_label: (ib.flow_label ?? 0) & 0xfffff,
      dgid: riGidOfBytes(dgid),
      dlid: 0,
      traffic_class: (ib.traffic_class ?? 0) & 0xff,
      max_static_rate: 0,
      source_path_bits: 0,
    },
    physical_port: 1,
  } as ri_ud_address_vector_t;
}

/** A UD Address Handle: one RNICPI AH in the PZ's PD. */
export class Ah extends ItObject {
  readonly [IT_HANDLE_KIND] = HT.IT_HANDLE_TYPE_ADDR as const;
  constructor(
    readonly pz: Pz,
    public ah: ri_address_handle_t,
    public path: it_path_t,
  ) {
    super();
  }
  get ia(): Ia {
    return this.pz.ia;
  }
  destroy(): void {
    if (this.freed) return;
    this.freed = true;
    const st = this.ia.ops.ri_ah_destroy(this.ia.rnic, this.ah);
    if (st.status !== RiRet.SUCCESS) log('ri_ah_destroy: %s', RiRet[st.status]);
    this.ia.ahs.delete(this);
  }
}

// =============================================================================================
// UD Endpoints
// =============================================================================================

/** The attributes a UD Endpoint keeps. */
export interface UdEpAttrs {
  max_dto_payload_size: number;
  max_request_dtos: number;
  max_recv_dtos: number;
  max_send_segments: number;
  max_recv_segments: number;
  ud_ep_key: number;
}

interface SendRec {
  cookie: bigint;
  flags: number;
  seq: number;
}

/** A UD Endpoint (born UD_OPERATIONAL; an error makes it UD_NONOPERATIONAL for good). */
export class UdEp extends ItObject implements ItAsyncTarget {
  readonly [IT_HANDLE_KIND] = HT.IT_HANDLE_TYPE_EP as const;
  state: UST = UST.IT_EP_STATE_UD_OPERATIONAL;
  qp!: ri_qp_handle_t;
  qpn = 0;
  #sqNext = 0;
  #sqRetired = 0;
  #rqPosted = 0;
  #rqRetired = 0;
  #nextId = 1n;
  readonly #sends = new Map<bigint, SendRec>();
  readonly #recvs = new Map<bigint, { cookie: bigint; flags: number }>();
  cqReservation = { req: 0, recv: 0 };

  readonly #ia_: Ia;
  constructor(
    ia_: Ia,
    readonly pz: Pz,
    readonly reqEvd: Sevd,
    readonly recvEvd: Sevd,
    readonly attr: UdEpAttrs,
    readonly spigot: number,
  ) {
    super();
    this.#ia_ = ia_;
  }
  get ia(): Ia {
    return this.#ia_;
  }
  get #ops() {
    return this.#ia_.ops;
  }

  /** The UD QP, taken to RTS with the Q_Key (`cma_init_ud_qp`'s sequence). */
  createQp(): RiRet {
    const ia = this.#ia_;
    const a = this.attr;
    const r = this.#ops.ri_qp_create(
      ia.rnic,
      {
        scq: { scq_handle: this.reqEvd.cq! },
        rcq: { rcq_handle: this.recvEvd.cq! },
        srq: null,
        srq_valid: false,
        pd: this.pz.pd,
        sq_size: Math.max(1, a.max_request_dtos),
        rq_size: Math.max(1, a.max_recv_dtos),
        sq_max_sges: Math.max(1, a.max_send_segments),
        sq_max_sges_rdmaw: 1,
        rq_max_sges: Math.max(1, a.max_recv_segments),
        enable_rdma_read: false,
        enable_rdma_write: false,
        max_rdma_read_outgoing: 0,
        max_rdma_read_incoming: 0,
        qp_xport: { qp_ib: { trans_type: RiSvcType.UNRELIABLE_DATAGRAM } },
      },
      null,
      this,
    );
    if (r.status !== RiRet.SUCCESS) return r.status;
    this.qp = r.qp;
    this.qpn = r.attrs.qp_id;
    const m = runQpPlan(this.#ops, ia.rnic, r.qp, udPlan(a.ud_ep_key));
    if (m !== RiRet.SUCCESS) {
      this.#ops.ri_qp_destroy(ia.rnic, r.qp);
      return m;
    }
    a.max_request_dtos = r.attrs.sq_size;
    a.max_recv_dtos = r.attrs.rq_size;
    return RiRet.SUCCESS;
  }

  /** Changes the Q_Key (`IT_EP_PARAM_EP_KEY`). */
  setKey(key: number): RiRet {
    const r = this.#ops.ri_qp_modify(this.#ia_.rnic, this.qp, RiQpAttrMask.QKEY, { qp_xport: { qp_ib: { recv_qkey: key >>> 0 } } });
    if (r.status === RiRet.SUCCESS) this.attr.ud_ep_key = key >>> 0;
    return r.status;
  }

  get sqOutstanding(): number {
    return this.#sqNext - this.#sqRetired;
  }
  get rqOutstanding(): number {
    return this.#rqPosted - this.#rqRetired;
  }

  /** `it_post_sendto` after validation. */
  postSendto(sgl: ri_data_seg_t[], cookie: bigint, flags: number, ah: Ah, info: it_remote_ep_info_t): void {
    if (this.sqOutstanding >= this.attr.max_request_dtos) fail(S.IT_ERR_TOO_MANY_POSTS);
    const rec: SendRec = { cookie, flags, seq: this.#sqNext++ };
    const len = sgl.reduce((n, s) => n + s.len, 0);
    if (this.state === UST.IT_EP_STATE_UD_NONOPERATIONAL || len > this.attr.max_dto_payload_size) {
      queueMicrotask(() =>
        this.#completeSend(rec, this.state === UST.IT_EP_STATE_UD_NONOPERATIONAL ? DS.IT_DTO_ERR_FLUSHED : DS.IT_DTO_ERR_LOCAL_LENGTH, 0),
      );
      return;
    }
    const id = this.#nextId++;
    this.#sends.set(id, rec);
    const r = this.#ops.ri_qp_postsq(this.#ia_.rnic, this.qp, [
      {
        type: RiWrType.SEND,
        // Every WR completes (the SQ accounting retires on completions); unsignalled successes are not shown.
        flags: RiWrFlags.SIGNALED_FLAG | ((flags & DF.IT_SOLICITED_WAIT_FLAG) !== 0 ? RiWrFlags.SOLICITED_EVENT_FLAG : 0),
        id,
        sg_list: sgl,
        num_sgls: sgl.length,
        remote_node_address: ah.ah,
        dest_qp: info.ud_ep_id >>> 0,
        dest_qkey: info.ud_ep_key >>> 0,
        max_static_rate: 0,
      },
    ]);
    if (r.status === RiRet.SUCCESS) return;
    this.#sends.delete(id);
    if (r.status === RiRet.QP_CAPACITY_EXCEEDED) {
      this.#sqNext--;
      fail(S.IT_ERR_TOO_MANY_POSTS);
    }
    if (r.status === RiRet.RNIC_SG_LIMIT_EXCEEDED || r.status === RiRet.WR_SG_INVALID_FORMAT) {
      this.#sqNext--;
      fail(S.IT_ERR_INVALID_NUM_SEGMENTS);
    }
    log('ri_qp_postsq: %s', RiRet[r.status]);
    queueMicrotask(() => this.#completeSend(rec, r.status === RiRet.QP_INVALID_STATE ? DS.IT_DTO_ERR_FLUSHED : DS.IT_DTO_ERR_LOCAL_EP, 0));
  }

  /** `it_post_recvfrom` after validation. */
  postRecvfrom(sgl: ri_data_seg_t[], cookie: bigint, flags: number): void {
    if (this.rqOutstanding >= this.attr.max_recv_dtos) fail(S.IT_ERR_TOO_MANY_POSTS);
    this.#rqPosted++;
    if (this.state === UST.IT_EP_STATE_UD_NONOPERATIONAL) {
      queueMicrotask(() => this.#completeRecv({ cookie, flags }, DS.IT_DTO_ERR_FLUSHED, 0, null));
      return;
    }
    const id = this.#nextId++;
    this.#recvs.set(id, { cookie, flags });
    const r = this.#ops.ri_qp_postrq(this.#ia_.rnic, this.qp, [{ flags: 0, id, sg_list: sgl }]);
    if (r.status === RiRet.SUCCESS) return;
    this.#recvs.delete(id);
    this.#rqPosted--;
    if (r.status === RiRet.QP_CAPACITY_EXCEEDED) fail(S.IT_ERR_TOO_MANY_POSTS);
    if (r.status === RiRet.RNIC_SG_LIMIT_EXCEEDED || r.status === RiRet.WR_SG_INVALID_FORMAT) fail(S.IT_ERR_INVALID_NUM_SEGMENTS);
    this.#rqPosted++;
    queueMicrotask(() => this.#completeRecv({ cookie, flags }, DS.IT_DTO_ERR_FLUSHED, 0, null));
  }

  /** A Work Completion of the UD QP (drained by an SEVD). */
  onWc(wc: ri_wc_t): void {
    if (this.freed) return;
    if (wc.op_type === RiWcType.DATA_RECEIVED) {
      const rec = this.#recvs.get(wc.id);
      if (!rec) return;
      this.#recvs.delete(wc.id);
      const st =
        wc.op_status === RiWcStatus.SUCCESS
          ? DS.IT_DTO_SUCCESS
          : wc.op_status === RiWcStatus.WR_FLUSHED_ERROR
            ? DS.IT_DTO_ERR_FLUSHED
            : DS.IT_DTO_ERR_LOCAL_EP;
      this.#completeRecv(rec, st, wc.bytes_transferred, riWcIsGen(wc) ? wc : null);
      return;
    }
    const rec = this.#sends.get(wc.id);
    if (!rec) return;
    this.#sends.delete(wc.id);
    const st =
      wc.op_status === RiWcStatus.SUCCESS
        ? DS.IT_DTO_SUCCESS
        : wc.op_status === RiWcStatus.WR_FLUSHED_ERROR
          ? DS.IT_DTO_ERR_FLUSHED
          : DS.IT_DTO_ERR_LOCAL_EP;
    this.#completeSend(rec, st, wc.bytes_transferred);
  }

  #completeSend(rec: SendRec, st: DS, bytes: number): void {
    const seq = rec.seq;
    const retire = () => {
      if (seq + 1 > this.#sqRetired) this.#sqRetired = seq + 1;
    };
    const signaled = (rec.flags & DF.IT_COMPLETION_FLAG) !== 0;
    if (st === DS.IT_DTO_SUCCESS && !signaled) {
      retire();
      return;
    }
    const ev: it_dto_cmpl_event_t = {
      event_number: ET.IT_DTO_SEND_CMPL_EVENT,
      evd: this.reqEvd,
      ep: this,
      cookie: rec.cookie,
      dto_status: st,
      transferred_length: st === DS.IT_DTO_SUCCESS ? bytes : 0,
      unlinked_mr_handle: null,
    };
    this.reqEvd.post(ev, st !== DS.IT_DTO_SUCCESS || (rec.flags & DF.IT_NOTIFY_FLAG) !== 0, retire);
  }

  #completeRecv(
    rec: { cookie: bigint; flags: number },
    st: DS,
    bytes: number,
    wc: { remote_qpn: number; remote_sl: number; remote_lid: number; grh_present: number } | null,
  ): void {
    const ev: it_all_dto_cmpl_event_t = {
      event_number: ET.IT_DTO_UD_RECV_CMPL_EVENT,
      evd: this.recvEvd,
      ep: this,
      cookie: rec.cookie,
      dto_status: st,
      // The payload plus the 40-octet GRH area (the RNIC counts it, IBTA §11.4.1.1).
      transferred_length: st === DS.IT_DTO_SUCCESS ? bytes : 0,
      unlinked_mr_handle: null,
      flags: wc && wc.grh_present !== 0 ? IT_UD_IB_GRH_PRESENT : (0 as it_dto_ud_flags_t),
      ud_ep_id: wc?.remote_qpn ?? 0,
      src_path: {
        spigot_id: this.spigot,
        timeout: 0n,
        remote: {
          ib: {
            partition_key: 0,
            path_mtu: 0,
            packet_lifetime: 0,
            local_port_lid: 0,
            remote_port_lid: wc?.remote_lid ?? 0,
            local_port_gid: '::',
            remote_port_gid: '::',
            packet_rate: 0,
            sl: wc?.remote_sl ?? 0,
            subnet_local: 0,
            flow_label: 0,
            traffic_class: 0,
            hop_limit: 0,
          },
        },
      },
    };
    this.recvEvd.post(ev, st !== DS.IT_DTO_SUCCESS || (rec.flags & DF.IT_NOTIFY_FLAG) !== 0, () => this.#rqRetired++);
  }

  /** A QP error: UD_NONOPERATIONAL (its WRs are flushed by the RNIC). */
  onRiAsync(ev: ri_event_record_t): void {
    if (this.freed) return;
    log('UD EP QP%d async event %d: UD_NONOPERATIONAL', this.qpn, ev.event_type);
    this.state = UST.IT_EP_STATE_UD_NONOPERATIONAL;
    const a = this.#ia_.affEvd;
    a?.post({ event_number: ET.IT_ASYNC_AFF_EP_FAILURE, evd: a, cause: { ep: this } }, true);
  }

  /** A DTO SEVD this Endpoint feeds overflowed. */
  onDtoEvdOverflow(): void {
    this.state = UST.IT_EP_STATE_UD_NONOPERATIONAL;
  }

  destroy(): void {
    if (this.freed) return;
    this.freed = true;
    const ia = this.#ia_;
    const st = this.#ops.ri_qp_destroy(ia.rnic, this.qp);
    if (st.status !== RiRet.SUCCESS) log('ri_qp_destroy: %s', RiRet[st.status]);
    this.reqEvd.releaseEp(this, this.cqReservation.req);
    this.recvEvd.releaseEp(this, this.cqReservation.recv);
    ia.udEps.delete(this);
  }
}

// =============================================================================================
// UD service resolution
// =============================================================================================

let nextRequestId = 1;

/** A UD Service Request Handle (active side): SIDR_REQs to the service of `port` at the path's GID. */
export class UdSvcHandle extends ItObject {
  readonly [IT_HANDLE_KIND] = HT.IT_HANDLE_TYPE_UD_SVC_REQ as const;
  readonly requestId = nextRequestId++;
  readonly #pending = new Set<IbCmSidrPending>();
  #held = true;
  readonly #ia_: Ia;
  constructor(
    ia_: Ia,
    readonly cm: RdmaIpCm,
    readonly replyEvd: Sevd,
    readonly connQual: it_conn_qual_t,
    readonly path: it_path_t,
    readonly privateData: Uint8Array,
    readonly host: string,
    readonly local: string | null,
  ) {
    super();
    this.#ia_ = ia_;
    cm.hold();
  }
  get ia(): Ia {
    return this.#ia_;
  }
  get port(): number {
    const q = this.connQual;
    return q.type === IT_IANA_PORT ? q.conn_qual.port : 0;
  }

  /** `it_ud_service_request`: one SIDR_REQ (retransmitted by the CM until answered or timed out). */
  request(): void {
    void (async () => {
      const own = roceAddresses(this.#ia_.device);
      const src = this.local && own.includes(this.local) ? this.local : await roceSourceFor(own, this.host);
      if (this.freed || !src) {
        if (!src) log('UD service request: no source address toward %s', this.host);
        return;
      }
      const pd = cmaPrivateDataOf({ address: src, port: ephemeralPort() }, this.host, this.privateData);
      const p = this.cm.cm.sidrRequest(
        { destGid: gidFromIpv4(this.host), localGid: gidFromIpv4(src), serviceId: rdmaServiceId(RdmaPs.UDP, this.port), privateData: pd },
        (e) => {
          this.#pending.delete(p);
          if (this.freed) return;
          if (e.type === 'timeout') {
            log('UD service request %d to %s:%d timed out (the Consumer may request again)', this.requestId, this.host, this.port);
            return;
          }
          const rep = e.rep;
          const status = statusOfSidr(rep.status);
          this.replyEvd.post(
            {
              event_number: ET.IT_CM_MSG_UD_SERVICE_REPLY_EVENT,
              evd: this.replyEvd,
              ud_svc: this,
              status,
              ep_info: {
                ud_ep_id: status === US.IT_UD_SVC_EP_INFO_VALID ? rep.qpn : 0,
                ud_ep_key: status === US.IT_UD_SVC_EP_INFO_VALID ? rep.qkey : 0,
              },
              dst_path: null,
              private_data: pdataBuffer(rep.privateData),
              private_data_present: rep.privateData.length > 0,
            },
            true,
          );
        },
      );
      this.#pending.add(p);
    })();
  }

  destroy(): void {
    if (this.freed) return;
    this.freed = true;
    for (const p of this.#pending) p.destroy();
    this.#pending.clear();
    this.replyEvd.feeders--;
    if (this.#held) this.cm.release();
    this.#held = false;
    this.#ia_.udSvcs.delete(this);
  }
}

/** The IT-API status of each SIDR_REP status (IBTA Table 115); any other is a rejection. */
const STATUS_OF_SIDR: Readonly<Partial<Record<SidrStatus, US>>> = {
  [SidrStatus.SUCCESS]: US.IT_UD_SVC_EP_INFO_VALID,
  [SidrStatus.UNSUPPORTED]: US.IT_UD_SVC_ID_NOT_SUPPORTED,
  [SidrStatus.NO_QP]: US.IT_UD_NO_EP_AVAILABLE,
  [SidrStatus.REDIRECT]: US.IT_UD_REQ_REDIRECTED,
};

/** The IT-API status of a SIDR_REP status (IBTA Table 115). */
function statusOfSidr(s: number): US {
  return STATUS_OF_SIDR[s as SidrStatus] ?? US.IT_UD_SVC_REQ_REJECTED;
}

/** The SIDR_REP status answering each IT-API reply status (REDIRECTED, and any other, is the caller's error). */
const SIDR_OF_STATUS: Readonly<Partial<Record<US, SidrStatus>>> = {
  [US.IT_UD_SVC_EP_INFO_VALID]: SidrStatus.SUCCESS,
  [US.IT_UD_SVC_ID_NOT_SUPPORTED]: SidrStatus.UNSUPPORTED,
  [US.IT_UD_SVC_REQ_REJECTED]: SidrStatus.REJECT,
  [US.IT_UD_NO_EP_AVAILABLE]: SidrStatus.NO_QP,
};

/** The SIDR_REP status answering an IT-API reply status (REDIRECTED is the caller's error). */
export function sidrOfStatus(s: US): SidrStatus | null {
  return SIDR_OF_STATUS[s] ?? null;
}

/** A received UD service request (`ud_svc_req_id`): answered once by `it_ud_service_reply`. */
export class UdSvcRequest implements it_ud_svc_req_identifier_t {
  readonly [IT_ID_KIND] = 'ud_svc_req_id' as const;
  replied = false;
  constructor(
    readonly ia: Ia,
    readonly request: IbCmSidrRequest,
    readonly source: it_net_addr_t,
  ) {}
  /** The Consumer's private data (after the `cma_hdr`). */
  get privateData(): Uint8Array {
    return this.request.req.privateData.subarray(CMA_HDR_LEN);
  }
  reply(status: SidrStatus, info: it_remote_ep_info_t | null, pd: Uint8Array): void {
    this.replied = true;
    if (status === SidrStatus.SUCCESS && info)
      this.request.accept({ qpn: info.ud_ep_id >>> 0, qkey: info.ud_ep_key >>> 0, privateData: pd });
    else this.request.reject(status, pd);
  }
}

/** The IPv4 address of an IB path's remote GID, or null. */
export function hostOfPath(path: it_path_t): { host: string; local: string | null } | null {
  if (!path || typeof path !== 'object' || !path.remote || !('ib' in path.remote)) return null;
  const d = gidFromText(path.remote.ib.remote_port_gid);
  const host = d ? ipv4FromGid(d) : null;
  if (!host) return null;
  const s = path.remote.ib.local_port_gid ? gidFromText(path.remote.ib.local_port_gid) : null;
  return { host, local: s ? ipv4FromGid(s) : null };
}

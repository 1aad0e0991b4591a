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
import type { IbCmSidrRequest } from '../ibcm/cm.js';
import { type RdmaIpCm } from '../ibcm/rdma-ip.js';
import { RiRet } from '../rnicpi/status.js';
import { type ri_address_handle_t, type ri_data_seg_t, type ri_event_record_t, type ri_qp_handle_t, type ri_ud_address_vector_t, type ri_wc_t } from '../rnicpi/types.js';
import { SidrStatus } from '../wire/ib/cm.js';
import type { ItAsyncTarget } from './access.js';
import type { Sevd } from './evd.js';
import { type Ia, ItObject, type Pz } from './objects.js';
import { IT_HANDLE_KIND, IT_ID_KIND, it_handle_type_enum_t as HT, it_ud_svc_req_status_t as US, it_ep_state_ud_t as UST, type it_conn_qual_t, type it_net_addr_t, type it_path_t, type it_remote_ep_info_t, type it_ud_svc_req_identifier_t } from './types.js';
/** The GRH area at the head of every UD receive buffer (IT-API §2.7, IBTA §11.4.2.1). */
export declare const UD_GRH_LEN = 40;
/** The largest UD message on the RoCE Interface: its path MTU (1024, as rxe on a 1500-octet link). */
export declare const UD_MAX_MESSAGE = 1024;
/** SIDR private data: a SIDR_REQ's 216 octets less the `cma_hdr`; a SIDR_REP's 136 (IBTA Table 113/114). */
export declare const UD_PDATA_REQUEST: number;
export declare const UD_PDATA_REPLY = 136;
/** The RNICPI address vector of an IB path (global: RoCE always carries the GRH). */
export declare function avOfPath(ia: Ia, path: it_path_t): ri_ud_address_vector_t | null;
/** A UD Address Handle: one RNICPI AH in the PZ's PD. */
export declare class Ah extends ItObject {
    readonly pz: Pz;
    ah: ri_address_handle_t;
    path: it_path_t;
    readonly [IT_HANDLE_KIND]: HT.IT_HANDLE_TYPE_ADDR;
    constructor(pz: Pz, ah: ri_address_handle_t, path: it_path_t);
    get ia(): Ia;
    destroy(): void;
}
/** The attributes a UD Endpoint keeps. */
export interface UdEpAttrs {
    max_dto_payload_size: number;
    max_request_dtos: number;
    max_recv_dtos: number;
    max_send_segments: number;
    max_recv_segments: number;
    ud_ep_key: number;
}
/** A UD Endpoint (born UD_OPERATIONAL; an error makes it UD_NONOPERATIONAL for good). */
export declare class UdEp extends ItObject implements ItAsyncTarget {
    private readonly ia_;
    readonly pz: Pz;
    readonly reqEvd: Sevd;
    readonly recvEvd: Sevd;
    readonly attr: UdEpAttrs;
    readonly spigot: number;
    readonly [IT_HANDLE_KIND]: HT.IT_HANDLE_TYPE_EP;
    state: UST;
    qp: ri_qp_handle_t;
    qpn: number;
    private sqNext;
    private sqRetired;
    private rqPosted;
    private rqRetired;
    private nextId;
    private readonly sends;
    private readonly recvs;
    cqReservation: {
        req: number;
        recv: number;
    };
    constructor(ia_: Ia, pz: Pz, reqEvd: Sevd, recvEvd: Sevd, attr: UdEpAttrs, spigot: number);
    get ia(): Ia;
    private get ops();
    /** The UD QP, taken to RTS with the Q_Key (`cma_init_ud_qp`'s sequence). */
    createQp(): RiRet;
    /** Changes the Q_Key (`IT_EP_PARAM_EP_KEY`). */
    setKey(key: number): RiRet;
    get sqOutstanding(): number;
    get rqOutstanding(): number;
    /** `it_post_sendto` after validation. */
    postSendto(sgl: ri_data_seg_t[], cookie: bigint, flags: number, ah: Ah, info: it_remote_ep_info_t): void;
    /** `it_post_recvfrom` after validation. */
    postRecvfrom(sgl: ri_data_seg_t[], cookie: bigint, flags: number): void;
    /** A Work Completion of the UD QP (drained by an SEVD). */
    onWc(wc: ri_wc_t): void;
    private completeSend;
    private completeRecv;
    /** A QP error: UD_NONOPERATIONAL (its WRs are flushed by the RNIC). */
    onRiAsync(ev: ri_event_record_t): void;
    /** A DTO SEVD this Endpoint feeds overflowed. */
    onDtoEvdOverflow(): void;
    destroy(): void;
}
/** A UD Service Request Handle (active side): SIDR_REQs to the service of `port` at the path's GID. */
export declare class UdSvcHandle extends ItObject {
    private readonly ia_;
    readonly cm: RdmaIpCm;
    readonly replyEvd: Sevd;
    readonly connQual: it_conn_qual_t;
    readonly path: it_path_t;
    readonly privateData: Uint8Array;
    readonly host: string;
    readonly local: string | null;
    readonly [IT_HANDLE_KIND]: HT.IT_HANDLE_TYPE_UD_SVC_REQ;
    readonly requestId: number;
    private readonly pending;
    private held;
    constructor(ia_: Ia, cm: RdmaIpCm, replyEvd: Sevd, connQual: it_conn_qual_t, path: it_path_t, privateData: Uint8Array, host: string, local: string | null);
    get ia(): Ia;
    get port(): number;
    /** `it_ud_service_request`: one SIDR_REQ (retransmitted by the CM until answered or timed out). */
    request(): void;
    destroy(): void;
}
/** The SIDR_REP status answering an IT-API reply status (REDIRECTED is the caller's error). */
export declare function sidrOfStatus(s: US): SidrStatus | null;
/** A received UD service request (`ud_svc_req_id`): answered once by `it_ud_service_reply`. */
export declare class UdSvcRequest implements it_ud_svc_req_identifier_t {
    readonly ia: Ia;
    readonly request: IbCmSidrRequest;
    readonly source: it_net_addr_t;
    readonly [IT_ID_KIND]: "ud_svc_req_id";
    replied: boolean;
    constructor(ia: Ia, request: IbCmSidrRequest, source: it_net_addr_t);
    /** The Consumer's private data (after the `cma_hdr`). */
    get privateData(): Uint8Array;
    reply(status: SidrStatus, info: it_remote_ep_info_t | null, pd: Uint8Array): void;
}
/** The IPv4 address of an IB path's remote GID, or null. */
export declare function hostOfPath(path: it_path_t): {
    host: string;
    local: string | null;
} | null;

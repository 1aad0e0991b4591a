/**
 * Listen Points and connection requests (IT-API 2.1 `it_listen_create`, `it_listen_free`,
 * `it_ep_accept`, `it_reject`, `it_handoff`): a CM listener (iWARP or the RoCE Interface's)
 * feeding a CM_REQ SEVD, the requests it delivers (`it_cn_est_identifier_t`) and, on RoCE, the
 * UD service requests.
 *
 * @module
 */
import type { IbCmSidrRequest } from '../ibcm/cm.js';
import type { CmaAddresses } from '../ibcm/rdma-ip.js';
import type { CmConnectRequest, CmListener } from '../iwarp/cm.js';
import { logger } from '../util/log.js';
import type { Sevd } from './evd.js';
import { type Ia, ItObject } from './objects.js';
import type { IbItListen, IbItRequest } from './roce.js';
import { UdSvcRequest } from './ud.js';
import {
  IT_HANDLE_KIND,
  IT_ID_KIND,
  it_event_type_t as ET,
  it_handle_type_enum_t as HT,
  IT_IANA_PORT,
  type it_cn_est_identifier_t,
  type it_conn_qual_t,
  type it_conn_request_event_t,
} from './types.js';
import { netAddrOf, pdataBuffer } from './ep-events.js';

const log = logger('itapi:ep');

/** A Listen Point: one CM listener feeding a CM_REQ SEVD. */
export class Listen extends ItObject {
  readonly [IT_HANDLE_KIND] = HT.IT_HANDLE_TYPE_LISTEN as const;
  readonly #ia_: Ia;
  constructor(
    ia_: Ia,
    readonly spigot: number,
    readonly evd: Sevd,
    readonly port: number,
    /** The iWARP CM's listener, or the RoCE Interface's ({@link IbItListen}). */
    readonly cm: CmListener | IbItListen,
    readonly suppressIrdOrd: boolean,
  ) {
    super();
    this.#ia_ = ia_;
    cm.on('request', (r: CmConnectRequest | IbItRequest) => this.#onRequest(r));
    // RoCE: the port's UD service requests (SIDR_REQ to RDMA_PS_UDP) arrive here too.
    cm.on('ud-request', (r: IbCmSidrRequest, a: CmaAddresses) => this.#onUdRequest(r, a));
    cm.on('failure', (f: { kind: string; remoteAddress: string }) => log('handshake from %s failed: %s', f.remoteAddress, f.kind));
  }
  get ia(): Ia {
    return this.#ia_;
  }
  get connQual(): it_conn_qual_t {
    return { type: IT_IANA_PORT, conn_qual: { port: this.port } };
  }
  /** A UD service request: `IT_CM_REQ_UD_SERVICE_REQUEST_EVENT` (a full SEVD drops it; the requester retransmits). */
  #onUdRequest(r: IbCmSidrRequest, a: CmaAddresses): void {
    if (this.freed || this.evd.full) {
      if (!this.freed) this.evd.drop();
      return;
    }
    const id = new UdSvcRequest(this.#ia_, r, netAddrOf(a.src));
    this.#ia_.udRequests.add(id);
    const pd = id.privateData;
    this.evd.post(
      {
        event_number: ET.IT_CM_REQ_UD_SERVICE_REQUEST_EVENT,
        evd: this.evd,
        ud_svc_req_id: id,
        conn_qual: this.connQual,
        source_addr: id.source,
        spigot_id: this.spigot,
        private_data: pdataBuffer(pd),
        private_data_present: pd.length > 0,
      },
      true,
    );
  }

  #onRequest(r: CmConnectRequest | IbItRequest): void {
    if (this.freed) {
      r.reject();
      return;
    }
    deliverRequest(this, new PendingRequest(this.#ia_, r, this.suppressIrdOrd));
  }
  /** Stops listening; requests already delivered stay valid (`it_listen_free`). */
  destroy(): void {
    if (this.freed) return;
    this.freed = true;
    this.evd.feeders--;
    void this.cm.close();
    this.#ia_.listens.delete(this);
  }
}

/**
 * A connection request (`it_cn_est_identifier_t`): the CM request behind it, consumed once by
 * `it_ep_accept`, `it_reject` or `it_handoff`.
 */
export class PendingRequest implements it_cn_est_identifier_t {
  readonly [IT_ID_KIND] = 'cn_est_id' as const;
  consumed = false;
  /** Dropped because the CM_REQ SEVD was full: never shown to the Consumer. */
  held = false;
  /** The CONN_REQUEST Event delivered for it (re-delivered by `it_handoff`). */
  event: it_conn_request_event_t | null = null;
  constructor(
    readonly ia: Ia,
    readonly cm: CmConnectRequest | IbItRequest,
    readonly suppressIrdOrd: boolean,
  ) {}
  consume(): void {
    this.consumed = true;
    this.ia.requests.delete(this);
  }
  /** `it_ia_free`: ends a request nobody will answer. */
  terminate(): void {
    if (this.consumed) return;
    this.consume();
    if (this.cm.state === 'pending') this.cm.reject();
  }
}

/**
 * Queues `IT_CM_REQ_CONN_REQUEST_EVENT` for `req` on the Listen's SEVD. A full SEVD drops the
 * request: it is left unanswered, so the active side times out
 * (`IT_CN_REJ_TIMEOUT`), and forgotten when the Initiator gives up.
 */
export function deliverRequest(listen: Listen, req: PendingRequest, original: it_conn_request_event_t | null = null): void {
  const ia = listen.ia;
  const cm = req.cm;
  ia.requests.add(req);
  const evd = listen.evd;
  if (evd.full) {
    req.held = true;
    log('CM_REQ SEVD full: connection request from %s:%d dropped', cm.remoteAddress, cm.remotePort);
    evd.drop();
    cm.once('aborted', () => {
      if (req.held) req.consume();
    });
    return;
  }
  const suppressed = req.suppressIrdOrd || cm.peerIrd === null;
  // it_handoff: the new Event is indistinguishable from the original (but for its id and SEVD).
  const ev: it_conn_request_event_t = original
    ? { ...original, evd, cn_est_id: req }
    : {
        event_number: ET.IT_CM_REQ_CONN_REQUEST_EVENT,
        evd,
        cn_est_id: req,
        conn_qual: listen.connQual,
        source_addr: netAddrOf(cm.remoteAddress),
        spigot_id: listen.spigot,
        max_message_size: 0,
        rdma_read_ird: suppressed ? 0 : (cm.peerIrd ?? 0),
        rdma_read_ord: suppressed ? 0 : (cm.peerOrd ?? 0),
        private_data: pdataBuffer(cm.privateData),
        private_data_present: cm.privateData.length > 0,
      };
  req.event = ev;
  evd.post(ev, true);
}

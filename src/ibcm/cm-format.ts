/**
 * The REQ of the InfiniBand CM, as the active side formats it and the passive side first checks
 * it (IBTA Vol. 1 §12.6.5 "REQ"; §12.9.8.3 for the rejects): pure functions over the message,
 * kept apart from the CM's state machines in `cm.ts`, as Linux `ib_cm` keeps `cm_format_req` and
 * `cm_req_handler`'s validation.
 *
 * @packageDocumentation
 */
import { CmRejReason, CmTransport, type CmReq, emptyCmPath } from '../wire/ib/cm.js';
import { DEFAULT_PKEY } from '../wire/ib/mad.js';
import { EMPTY, type IbCmConnectParams } from './cm-params.js';
import { sameGid } from './gsi.js';

/**
 * The REQ for a connect (IBTA §12.6.5), defaults as Linux `cm_format_req` sends them. A routed
 * path (hop limit > 1, RoCEv2) carries the permissive LID in both LID fields and SubnetLocal 0.
 */
export function formatReq(
  p: IbCmConnectParams,
  localCommId: number,
  caGuid: bigint,
  path: { pathMtu: number; hopLimit: number; localAckTimeout: number },
): CmReq {
  const { pathMtu, hopLimit, localAckTimeout } = path;
  const routed = hopLimit > 1;
  return {
    kind: 'REQ',
    localCommId,
    vendorId: 0,
    serviceId: p.serviceId,
    localCaGuid: caGuid,
    localQkey: p.qkey ?? 0,
    localQpn: p.qpn,
    responderResources: p.responderResources ?? 1,
    localEecn: 0,
    initiatorDepth: p.initiatorDepth ?? 1,
    remoteEecn: 0,
    remoteCmResponseTimeout: p.remoteCmResponseTimeout ?? 20,
    transport: p.transport ?? CmTransport.RC,
    e2eFlowControl: false,
    startingPsn: p.startingPsn,
    localCmResponseTimeout: p.localCmResponseTimeout ?? 20,
    retryCount: p.retryCount ?? 7,
    pkey: p.pkey ?? DEFAULT_PKEY,
    pathMtu,
    rdcExists: false,
    rnrRetryCount: p.rnrRetryCount ?? 7,
    maxCmRetries: p.maxCmRetries ?? 15,
    srq: p.srq ?? false,
    extendedTransport: 0,
    primary: {
      localLid: routed ? 0xffff : 0,
      remoteLid: routed ? 0xffff : 0,
      localGid: p.localGid.slice(),
      remoteGid: p.destGid.slice(),
      flowLabel: p.flowLabel ?? 0,
      packetRate: 0,
      trafficClass: p.trafficClass ?? 0,
      hopLimit,
      sl: p.sl ?? 0,
      subnetLocal: !routed,
      localAckTimeout,
    },
    alternate: emptyCmPath(),
    sapSupported: false,
    privateData: p.privateData ?? EMPTY,
  };
}

/**
 * Why a REQ for a listened service must be refused, from its own fields (IBTA §12.9.8.3 and
 * Table 100): the primary path's remote GID must be one of ours (the ARI then names a GID we do
 * have, Linux: index 0), the transport RC or UC, the path MTU a valid enumeration value (1..5).
 */
export function reqRejectReason(req: CmReq, gids: readonly Uint8Array[]): { reason: number; ari: Uint8Array } | null {
  if (!gids.some((g) => sameGid(g, req.primary.remoteGid))) return { reason: CmRejReason.INVALID_GID, ari: gids[0]?.slice() ?? EMPTY };
  if (req.transport !== CmTransport.RC && req.transport !== CmTransport.UC)
    return { reason: CmRejReason.INVALID_TRANSPORT_TYPE, ari: EMPTY };
  if (req.pathMtu < 1 || req.pathMtu > 5) return { reason: CmRejReason.INVALID_MTU, ari: EMPTY };
  return null;
}

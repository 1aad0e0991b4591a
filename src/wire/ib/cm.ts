/**
 * InfiniBand Communication Management messages (IBTA Vol. 1 chapter 12): REQ, MRA, REJ, REP,
 * RTU, DREQ, DREP (§12.6), SIDR_REQ and SIDR_REP (§12.11), as MADs of management class 0x07,
 * class version 2, method Send (§12.6.1), plus the rdma_cm conventions carried inside them:
 * the service ID of a port space and the `cma_hdr` at the head of REQ and SIDR_REQ private data.
 *
 * Every message body follows the 24-octet MAD header; the offsets below are from the start of
 * the body (add 24 for the offset in the MAD). Bit fields are numbered from the most
 * significant bit of their octet, as the IBTA tables draw them.
 *
 * | Message  | Layout (IBTA Vol. 1 Release 1.4, chapter 12; the table numbers Linux cites)       |
 * |----------|---------------------------------------------------------------------------------|
 * | REQ      | Table 106: comm ID, service ID, CA GUID, Q_Key, QPN, PSN, timeouts, primary and alternate path, 92 octets of private data at 140 |
 * | MRA      | Table 107: comm IDs, message MRAed:2, service timeout:5, 222 octets              |
 * | REJ      | Table 108: comm IDs, message rejected:2, ARI length:7, reason, 72 octets of ARI, 148 octets |
 * | REP      | Table 110: comm IDs, Q_Key, QPN, EECN, PSN, RDMA resources, CA GUID, 196 octets  |
 * | RTU      | Table 111: comm IDs, 224 octets                                                   |
 * | DREQ     | Table 112: comm IDs, remote QPN/EECN, 220 octets                                  |
 * | DREP     | Table 113: comm IDs, 224 octets                                                   |
 * | SIDR_REQ | Table 119: request ID, P_Key, service ID, 216 octets                              |
 * | SIDR_REP | Table 120: request ID, status, info length, QPN, service ID, Q_Key, 72 octets of info, 136 octets |
 *
 * Private data is always the whole field on the wire (the CM has no length for it): the
 * decoders return the whole field, the encoders zero-fill what the caller leaves out.
 *
 * On RoCE (Annex A16/A17) the LIDs are unused: Linux sends the permissive LID 0xFFFF in both
 * LID fields of a routed path (hop limit > 1) and puts the IPv4-mapped GIDs
 * (`::ffff:a.b.c.d`) of the two ends in the GID fields (`cm.c:cm_format_req`).
 *
 * @packageDocumentation
 */
import {
  checkU64,
  checkUint,
  decodeMadHeader,
  encodeMadHeader,
  hx,
  MAD_BASE_VERSION,
  MAD_HDR_LEN,
  MAD_SIZE,
  MadDropReason,
  type MadHeader,
  MadMethod,
  MadWireError,
} from './mad.js';

/** Management class of Communication Management (IBTA Vol. 1 §13.4.4, Table 139). */
export const MGMT_CLASS_CM = 0x07;
/** The CM class version (IBTA Vol. 1 §12.6.1; Linux `IB_CM_CLASS_VERSION`). */
export const CM_CLASS_VERSION = 2;
/** Octets of a CM message body after the MAD header. */
export const CM_BODY_LEN = MAD_SIZE - MAD_HDR_LEN;

/** CM attribute IDs (IBTA Vol. 1 §12.6.1). LAP/APR are not supported on RoCE. */
export enum CmAttrId {
  ClassPortInfo = 0x0001,
  REQ = 0x0010,
  MRA = 0x0011,
  REJ = 0x0012,
  REP = 0x0013,
  RTU = 0x0014,
  DREQ = 0x0015,
  DREP = 0x0016,
  SIDR_REQ = 0x0017,
  SIDR_REP = 0x0018,
  LAP = 0x0019,
  APR = 0x001a,
}

/** Private data sizes (IBTA Vol. 1 §12.6, §12.11; Linux `enum ib_cm_data_size`). */
export const CM_PRIVATE_DATA_SIZE = {
  REQ: 92,
  MRA: 222,
  REJ: 148,
  REP: 196,
  RTU: 224,
  DREQ: 220,
  DREP: 224,
  SIDR_REQ: 216,
  SIDR_REP: 136,
} as const;
/** Octets of REJ ARI and SIDR_REP Additional Information (Tables 108 and 120). */
export const CM_ARI_LEN = 72;

/** Which message an MRA or REJ answers (IBTA Vol. 1 Tables 107/108; 3 is reserved). */
export enum CmMsgResponse {
  REQ = 0,
  REP = 1,
  OTHER = 2,
}

/** REQ Transport Service Type (IBTA Vol. 1 Table 106; 3 = see Extended Transport Type). */
export enum CmTransport {
  RC = 0,
  UC = 1,
  RD = 2,
  EXTENDED = 3,
}

/** REJ reasons (IBTA Vol. 1 §12.6, the REJ reason table; the numbers of Linux `enum ib_cm_rej_reason`). */
export enum CmRejReason {
  NO_QP = 1,
  NO_EEC = 2,
  NO_RESOURCES = 3,
  /** The sender gave up waiting for a response; ARI = the sender's CA GUID. */
  TIMEOUT = 4,
  UNSUPPORTED = 5,
  INVALID_COMM_ID = 6,
  INVALID_COMM_INSTANCE = 7,
  /** No listener for the REQ's service ID (what Linux `cm_match_req` sends). */
  INVALID_SERVICE_ID = 8,
  INVALID_TRANSPORT_TYPE = 9,
  /** The remote (CA GUID, QPN) or comm ID is still in use or in TIMEWAIT. */
  STALE_CONN = 10,
  RDC_NOT_EXIST = 11,
  /** The REQ's GID is not one of ours; ARI = a GID of ours (`cm_req_handler`). */
  INVALID_GID = 12,
  INVALID_LID = 13,
  INVALID_SL = 14,
  INVALID_TRAFFIC_CLASS = 15,
  INVALID_HOP_LIMIT = 16,
  INVALID_PACKET_RATE = 17,
  INVALID_ALT_GID = 18,
  INVALID_ALT_LID = 19,
  INVALID_ALT_SL = 20,
  INVALID_ALT_TRAFFIC_CLASS = 21,
  INVALID_ALT_HOP_LIMIT = 22,
  INVALID_ALT_PACKET_RATE = 23,
  PORT_CM_REDIRECT = 24,
  PORT_REDIRECT = 25,
  INVALID_MTU = 26,
  INSUFFICIENT_RESP_RESOURCES = 27,
  /** The consumer refused (rdma_reject); private data is the consumer's. */
  CONSUMER_DEFINED = 28,
  INVALID_RNR_RETRY = 29,
  DUPLICATE_LOCAL_COMM_ID = 30,
  INVALID_CLASS_VERSION = 31,
  INVALID_FLOW_LABEL = 32,
  INVALID_ALT_FLOW_LABEL = 33,
  VENDOR_OPTION_NOT_SUPPORTED = 35,
}

/** SIDR_REP status (IBTA Vol. 1 §12.11, Table 120; Linux `enum ib_cm_sidr_status`). */
export enum SidrStatus {
  SUCCESS = 0,
  /** No service with that ID (what Linux sends when nothing listens). */
  UNSUPPORTED = 1,
  REJECT = 2,
  NO_QP = 3,
  REDIRECT = 4,
  UNSUPPORTED_VERSION = 5,
}

/** One path of a REQ (IBTA Vol. 1 Table 106, the "Primary …" and "Alternate …" fields). */
export interface CmPath {
  localLid: number;
  remoteLid: number;
  /** The active side's GID (16 octets). */
  localGid: Uint8Array;
  /** The passive side's GID (16 octets). */
  remoteGid: Uint8Array;
  flowLabel: number;
  packetRate: number;
  trafficClass: number;
  hopLimit: number;
  sl: number;
  subnetLocal: boolean;
  /** Local ACK Timeout (5 bits): 4.096 µs × 2^t, the QP's ACK timeout. */
  localAckTimeout: number;
}

/** Connection Request (IBTA Vol. 1 §12.6, Table 106). */
export interface CmReq {
  kind: 'REQ';
  localCommId: number;
  vendorId: number;
  serviceId: bigint;
  localCaGuid: bigint;
  localQkey: number;
  localQpn: number;
  responderResources: number;
  localEecn: number;
  initiatorDepth: number;
  remoteEecn: number;
  /** How long the passive side may take to answer (5 bits, 4.096 µs × 2^t). */
  remoteCmResponseTimeout: number;
  transport: CmTransport;
  e2eFlowControl: boolean;
  startingPsn: number;
  /** How long the active side will take to answer a REP. */
  localCmResponseTimeout: number;
  retryCount: number;
  pkey: number;
  /** Path MTU, the enum of the IBTA (1 = 256 … 5 = 4096). */
  pathMtu: number;
  rdcExists: boolean;
  rnrRetryCount: number;
  maxCmRetries: number;
  srq: boolean;
  extendedTransport: number;
  primary: CmPath;
  /** All zero when there is none (see {@link cmReqHasAltPath}). */
  alternate: CmPath;
  sapSupported: boolean;
  privateData: Uint8Array;
}

/** Message Receipt Acknowledgement (IBTA Vol. 1 §12.6, Table 107). */
export interface CmMra {
  kind: 'MRA';
  localCommId: number;
  remoteCommId: number;
  msgMraed: CmMsgResponse;
  /** 5 bits: the sender will answer within 4.096 µs × 2^t. */
  serviceTimeout: number;
  privateData: Uint8Array;
}

/** Reject (IBTA Vol. 1 §12.6, Table 108). */
export interface CmRej {
  kind: 'REJ';
  localCommId: number;
  remoteCommId: number;
  msgRejected: CmMsgResponse;
  reason: number;
  /** Additional Rejection Information: the first RejectedInfoLength octets (≤ 72). */
  ari: Uint8Array;
  privateData: Uint8Array;
}

/** Connection Reply (IBTA Vol. 1 §12.6, Table 110). */
export interface CmRep {
  kind: 'REP';
  localCommId: number;
  remoteCommId: number;
  localQkey: number;
  localQpn: number;
  localEecn: number;
  startingPsn: number;
  responderResources: number;
  initiatorDepth: number;
  targetAckDelay: number;
  failoverAccepted: number;
  e2eFlowControl: boolean;
  rnrRetryCount: number;
  srq: boolean;
  localCaGuid: bigint;
  privateData: Uint8Array;
}

/** Ready To Use (IBTA Vol. 1 §12.6, Table 111). */
export interface CmRtu {
  kind: 'RTU';
  localCommId: number;
  remoteCommId: number;
  privateData: Uint8Array;
}

/** Disconnection Request (IBTA Vol. 1 §12.6, Table 112). */
export interface CmDreq {
  kind: 'DREQ';
  localCommId: number;
  remoteCommId: number;
  /** The receiver's QPN (or EECN): the receiver checks it against its own. */
  remoteQpn: number;
  privateData: Uint8Array;
}

/** Disconnection Reply (IBTA Vol. 1 §12.6, Table 113). */
export interface CmDrep {
  kind: 'DREP';
  localCommId: number;
  remoteCommId: number;
  privateData: Uint8Array;
}

/** Service ID Resolution Request (IBTA Vol. 1 §12.11, Table 119). */
export interface CmSidrReq {
  kind: 'SIDR_REQ';
  requestId: number;
  pkey: number;
  serviceId: bigint;
  privateData: Uint8Array;
}

/** Service ID Resolution Reply (IBTA Vol. 1 §12.11, Table 120). */
export interface CmSidrRep {
  kind: 'SIDR_REP';
  requestId: number;
  status: number;
  qpn: number;
  serviceId: bigint;
  qkey: number;
  /** Additional Information: the first AdditionalInformationLength octets (≤ 72). */
  info: Uint8Array;
  privateData: Uint8Array;
}

/** Any CM message this codec carries. */
export type CmMessage = CmReq | CmMra | CmRej | CmRep | CmRtu | CmDreq | CmDrep | CmSidrReq | CmSidrRep;
export type CmKind = CmMessage['kind'];

/** The attribute ID of each message kind. */
export const CM_ATTR_OF: Record<CmKind, CmAttrId> = {
  REQ: CmAttrId.REQ,
  MRA: CmAttrId.MRA,
  REJ: CmAttrId.REJ,
  REP: CmAttrId.REP,
  RTU: CmAttrId.RTU,
  DREQ: CmAttrId.DREQ,
  DREP: CmAttrId.DREP,
  SIDR_REQ: CmAttrId.SIDR_REQ,
  SIDR_REP: CmAttrId.SIDR_REP,
};

const KIND_OF_ATTR = new Map<number, CmKind>(Object.entries(CM_ATTR_OF).map(([k, v]) => [v, k as CmKind]));

/** A decoded CM MAD. */
export interface CmMad {
  header: MadHeader;
  msg: CmMessage;
}

// ---------------------------------------------------------------------------------------------
// Field helpers. `b` is the body (the MAD after its header).

function put24(dv: DataView, at: number, v: number, low8: number): void {
  dv.setUint32(at, ((v << 8) | low8) >>> 0);
}

function checkPd(kind: CmKind, pd: Uint8Array | undefined): void {
  const max = CM_PRIVATE_DATA_SIZE[kind];
  if (pd && pd.length > max) throw new RangeError(`${kind} private data is at most ${max} octets, got ${pd.length}`);
}

function checkPath(name: string, p: CmPath): void {
  checkUint(`${name} LocalLID`, p.localLid, 16);
  checkUint(`${name} RemoteLID`, p.remoteLid, 16);
  checkGid(`${name} LocalGID`, p.localGid);
  checkGid(`${name} RemoteGID`, p.remoteGid);
  checkUint(`${name} FlowLabel`, p.flowLabel, 20);
  checkUint(`${name} PacketRate`, p.packetRate, 6);
  checkUint(`${name} TrafficClass`, p.trafficClass, 8);
  checkUint(`${name} HopLimit`, p.hopLimit, 8);
  checkUint(`${name} SL`, p.sl, 4);
  checkUint(`${name} LocalAckTimeout`, p.localAckTimeout, 5);
}

/** Writes a path at body offset `at` (44 octets: Table 106, offsets 52–95 and 96–139). */
function putPath(b: Uint8Array, dv: DataView, at: number, p: CmPath, lastLowBits: number): void {
  dv.setUint16(at, p.localLid);
  dv.setUint16(at + 2, p.remoteLid);
  b.set(p.localGid, at + 4);
  b.set(p.remoteGid, at + 20);
  dv.setUint32(at + 36, ((p.flowLabel << 12) | p.packetRate) >>> 0);
  b[at + 40] = p.trafficClass;
  b[at + 41] = p.hopLimit;
  b[at + 42] = (p.sl << 4) | (p.subnetLocal ? 0x08 : 0);
  b[at + 43] = (p.localAckTimeout << 3) | lastLowBits;
}

function getPath(b: Uint8Array, dv: DataView, at: number): CmPath {
  return {
    localLid: dv.getUint16(at),
    remoteLid: dv.getUint16(at + 2),
    localGid: b.slice(at + 4, at + 20),
    remoteGid: b.slice(at + 20, at + 36),
    flowLabel: dv.getUint32(at + 36) >>> 12,
    packetRate: b[at + 39]! & 0x3f,
    trafficClass: b[at + 40]!,
    hopLimit: b[at + 41]!,
    sl: b[at + 42]! >>> 4,
    subnetLocal: (b[at + 42]! & 0x08) !== 0,
    localAckTimeout: b[at + 43]! >>> 3,
  };
}

/** An all-zero path: "no alternate path" in a REQ. */
export function emptyCmPath(): CmPath {
  return {
    localLid: 0,
    remoteLid: 0,
    localGid: new Uint8Array(16),
    remoteGid: new Uint8Array(16),
    flowLabel: 0,
    packetRate: 0,
    trafficClass: 0,
    hopLimit: 0,
    sl: 0,
    subnetLocal: false,
    localAckTimeout: 0,
  };
}

/** True if a REQ carries an alternate path (Linux `cm_req_has_alt_path`: a LID or GID set). */
export function cmReqHasAltPath(req: CmReq): boolean {
  return req.alternate.localLid !== 0 || req.alternate.localGid.some((x) => x !== 0);
}

// ---------------------------------------------------------------------------------------------
// Body encoders (b = the 232-octet body, zero on entry).

function encodeBody(m: CmMessage, b: Uint8Array): void {
  const dv = new DataView(b.buffer, b.byteOffset, b.length);
  checkPd(m.kind, m.privateData);
  switch (m.kind) {
    case 'REQ': {
      checkUint('LocalCommID', m.localCommId, 32);
      checkUint('VendorID', m.vendorId, 24);
      checkU64('ServiceID', m.serviceId);
      checkU64('LocalCA_GUID', m.localCaGuid);
      checkUint('LocalQ_Key', m.localQkey, 32);
      checkUint('LocalQPN', m.localQpn, 24);
      checkUint('ResponderResources', m.responderResources, 8);
      checkUint('LocalEECN', m.localEecn, 24);
      checkUint('InitiatorDepth', m.initiatorDepth, 8);
      checkUint('RemoteEECN', m.remoteEecn, 24);
      checkUint('RemoteCMResponseTimeout', m.remoteCmResponseTimeout, 5);
      checkUint('TransportServiceType', m.transport, 2);
      checkUint('StartingPSN', m.startingPsn, 24);
      checkUint('LocalCMResponseTimeout', m.localCmResponseTimeout, 5);
      checkUint('RetryCount', m.retryCount, 3);
      checkUint('P_Key', m.pkey, 16);
      checkUint('PathMTU', m.pathMtu, 4);
      checkUint('RNRRetryCount', m.rnrRetryCount, 3);
      checkUint('MaxCMRetries', m.maxCmRetries, 4);
      checkUint('ExtendedTransportType', m.extendedTransport, 3);
      checkPath('Primary', m.primary);
      checkPath('Alternate', m.alternate);
      dv.setUint32(0, m.localCommId);
      dv.setUint32(4, m.vendorId); // octet 4 reserved, VendorID in 5–7
      dv.setBigUint64(8, m.serviceId);
      dv.setBigUint64(16, m.localCaGuid);
      dv.setUint32(28, m.localQkey);
      put24(dv, 32, m.localQpn, m.responderResources);
      put24(dv, 36, m.localEecn, m.initiatorDepth);
      put24(dv, 40, m.remoteEecn, (m.remoteCmResponseTimeout << 3) | (m.transport << 1) | (m.e2eFlowControl ? 1 : 0));
      put24(dv, 44, m.startingPsn, (m.localCmResponseTimeout << 3) | m.retryCount);
      dv.setUint16(48, m.pkey);
      b[50] = (m.pathMtu << 4) | (m.rdcExists ? 0x08 : 0) | m.rnrRetryCount;
      b[51] = (m.maxCmRetries << 4) | (m.srq ? 0x08 : 0) | m.extendedTransport;
      putPath(b, dv, 52, m.primary, 0);
      putPath(b, dv, 96, m.alternate, m.sapSupported ? 0x04 : 0);
      if (m.privateData) b.set(m.privateData, 140);
      return;
    }
    case 'MRA':
      checkUint('LocalCommID', m.localCommId, 32);
      checkUint('RemoteCommID', m.remoteCommId, 32);
      checkUint('MessageMRAed', m.msgMraed, 2);
      if ((m.msgMraed as number) === 3) throw new RangeError('MessageMRAed 3 is reserved');
      checkUint('ServiceTimeout', m.serviceTimeout, 5);
      dv.setUint32(0, m.localCommId);
      dv.setUint32(4, m.remoteCommId);
      b[8] = m.msgMraed << 6;
      b[9] = m.serviceTimeout << 3;
      if (m.privateData) b.set(m.privateData, 10);
      return;
    case 'REJ':
      checkUint('LocalCommID', m.localCommId, 32);
      checkUint('RemoteCommID', m.remoteCommId, 32);
      checkUint('MessageRejected', m.msgRejected, 2);
      if ((m.msgRejected as number) === 3) throw new RangeError('MessageRejected 3 is reserved');
      checkUint('Reason', m.reason, 16);
      if (m.ari.length > CM_ARI_LEN) throw new RangeError(`ARI is at most ${CM_ARI_LEN} octets`);
      dv.setUint32(0, m.localCommId);
      dv.setUint32(4, m.remoteCommId);
      b[8] = m.msgRejected << 6;
      b[9] = m.ari.length << 1;
      dv.setUint16(10, m.reason);
      b.set(m.ari, 12);
      if (m.privateData) b.set(m.privateData, 84);
      return;
    case 'REP':
      checkUint('LocalCommID', m.localCommId, 32);
      checkUint('RemoteCommID', m.remoteCommId, 32);
      checkUint('LocalQ_Key', m.localQkey, 32);
      checkUint('LocalQPN', m.localQpn, 24);
      checkUint('LocalEECN', m.localEecn, 24);
      checkUint('StartingPSN', m.startingPsn, 24);
      checkUint('ResponderResources', m.responderResources, 8);
      checkUint('InitiatorDepth', m.initiatorDepth, 8);
      checkUint('TargetACKDelay', m.targetAckDelay, 5);
      checkUint('FailoverAccepted', m.failoverAccepted, 2);
      checkUint('RNRRetryCount', m.rnrRetryCount, 3);
      checkU64('LocalCA_GUID', m.localCaGuid);
      dv.setUint32(0, m.localCommId);
      dv.setUint32(4, m.remoteCommId);
      dv.setUint32(8, m.localQkey);
      put24(dv, 12, m.localQpn, 0);
      put24(dv, 16, m.localEecn, 0);
      put24(dv, 20, m.startingPsn, 0);
      b[24] = m.responderResources;
      b[25] = m.initiatorDepth;
      b[26] = (m.targetAckDelay << 3) | (m.failoverAccepted << 1) | (m.e2eFlowControl ? 1 : 0);
      b[27] = (m.rnrRetryCount << 5) | (m.srq ? 0x10 : 0);
      dv.setBigUint64(28, m.localCaGuid);
      if (m.privateData) b.set(m.privateData, 36);
      return;
    case 'RTU':
    case 'DREP':
      checkUint('LocalCommID', m.localCommId, 32);
      checkUint('RemoteCommID', m.remoteCommId, 32);
      dv.setUint32(0, m.localCommId);
      dv.setUint32(4, m.remoteCommId);
      if (m.privateData) b.set(m.privateData, 8);
      return;
    case 'DREQ':
      checkUint('LocalCommID', m.localCommId, 32);
      checkUint('RemoteCommID', m.remoteCommId, 32);
      checkUint('RemoteQPN/EECN', m.remoteQpn, 24);
      dv.setUint32(0, m.localCommId);
      dv.setUint32(4, m.remoteCommId);
      put24(dv, 8, m.remoteQpn, 0);
      if (m.privateData) b.set(m.privateData, 12);
      return;
    case 'SIDR_REQ':
      checkUint('RequestID', m.requestId, 32);
      checkUint('P_Key', m.pkey, 16);
      checkU64('ServiceID', m.serviceId);
      dv.setUint32(0, m.requestId);
      dv.setUint16(4, m.pkey);
      dv.setBigUint64(8, m.serviceId);
      if (m.privateData) b.set(m.privateData, 16);
      return;
    case 'SIDR_REP':
      checkUint('RequestID', m.requestId, 32);
      checkUint('Status', m.status, 8);
      checkUint('QPN', m.qpn, 24);
      checkU64('ServiceID', m.serviceId);
      checkUint('Q_Key', m.qkey, 32);
      if (m.info.length > CM_ARI_LEN) throw new RangeError(`Additional Information is at most ${CM_ARI_LEN} octets`);
      dv.setUint32(0, m.requestId);
      b[4] = m.status;
      b[5] = m.info.length;
      put24(dv, 8, m.qpn, 0);
      dv.setBigUint64(12, m.serviceId);
      dv.setUint32(20, m.qkey);
      b.set(m.info, 24);
      if (m.privateData) b.set(m.privateData, 96);
      return;
  }
}

/**
 * Encodes a CM message as a whole 256-octet MAD: header (BaseVersion 1, class 0x07, class
 * version 2, method Send, status 0, the given TID and AttributeModifier) and body. RangeError
 * on any out-of-range field or oversized private data.
 */
export function encodeCmMad(tid: bigint, msg: CmMessage, attrMod = 0): Uint8Array {
  const out = new Uint8Array(MAD_SIZE);
  encodeMadHeader(
    {
      baseVersion: MAD_BASE_VERSION,
      mgmtClass: MGMT_CLASS_CM,
      classVersion: CM_CLASS_VERSION,
      method: MadMethod.Send,
      status: 0,
      classSpecific: 0,
      tid,
      attrId: CM_ATTR_OF[msg.kind],
      resv: 0,
      attrMod,
    },
    out,
    0,
  );
  encodeBody(msg, out.subarray(MAD_HDR_LEN));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Body decoders.

function field(detail: string): MadWireError {
  return new MadWireError(MadDropReason.Field, detail);
}

function decodeBody(kind: CmKind, b: Uint8Array): CmMessage {
  const dv = new DataView(b.buffer, b.byteOffset, b.length);
  switch (kind) {
    case 'REQ':
      return {
        kind,
        localCommId: dv.getUint32(0),
        vendorId: dv.getUint32(4) & 0xffffff,
        serviceId: dv.getBigUint64(8),
        localCaGuid: dv.getBigUint64(16),
        localQkey: dv.getUint32(28),
        localQpn: dv.getUint32(32) >>> 8,
        responderResources: b[35]!,
        localEecn: dv.getUint32(36) >>> 8,
        initiatorDepth: b[39]!,
        remoteEecn: dv.getUint32(40) >>> 8,
        remoteCmResponseTimeout: b[43]! >>> 3,
        transport: (b[43]! >>> 1) & 3,
        e2eFlowControl: (b[43]! & 1) !== 0,
        startingPsn: dv.getUint32(44) >>> 8,
        localCmResponseTimeout: b[47]! >>> 3,
        retryCount: b[47]! & 7,
        pkey: dv.getUint16(48),
        pathMtu: b[50]! >>> 4,
        rdcExists: (b[50]! & 0x08) !== 0,
        rnrRetryCount: b[50]! & 7,
        maxCmRetries: b[51]! >>> 4,
        srq: (b[51]! & 0x08) !== 0,
        extendedTransport: b[51]! & 7,
        primary: getPath(b, dv, 52),
        alternate: getPath(b, dv, 96),
        sapSupported: (b[139]! & 0x04) !== 0,
        privateData: b.slice(140, 140 + CM_PRIVATE_DATA_SIZE.REQ),
      };
    case 'MRA': {
      const msgMraed = b[8]! >>> 6;
      if (msgMraed === 3) throw field('MRA MessageMRAed 3 is reserved');
      return {
        kind,
        localCommId: dv.getUint32(0),
        remoteCommId: dv.getUint32(4),
        msgMraed,
        serviceTimeout: b[9]! >>> 3,
        privateData: b.slice(10, 10 + CM_PRIVATE_DATA_SIZE.MRA),
      };
    }
    case 'REJ': {
      const msgRejected = b[8]! >>> 6;
      if (msgRejected === 3) throw field('REJ MessageRejected 3 is reserved');
      const ariLen = b[9]! >>> 1;
      if (ariLen > CM_ARI_LEN) throw field(`REJ RejectedInfoLength ${ariLen} > ${CM_ARI_LEN}`);
      return {
        kind,
        localCommId: dv.getUint32(0),
        remoteCommId: dv.getUint32(4),
        msgRejected,
        reason: dv.getUint16(10),
        ari: b.slice(12, 12 + ariLen),
        privateData: b.slice(84, 84 + CM_PRIVATE_DATA_SIZE.REJ),
      };
    }
    case 'REP':
      return {
        kind,
        localCommId: dv.getUint32(0),
        remoteCommId: dv.getUint32(4),
        localQkey: dv.getUint32(8),
        localQpn: dv.getUint32(12) >>> 8,
        localEecn: dv.getUint32(16) >>> 8,
        startingPsn: dv.getUint32(20) >>> 8,
        responderResources: b[24]!,
        initiatorDepth: b[25]!,
        targetAckDelay: b[26]! >>> 3,
        failoverAccepted: (b[26]! >>> 1) & 3,
        e2eFlowControl: (b[26]! & 1) !== 0,
        rnrRetryCount: b[27]! >>> 5,
        srq: (b[27]! & 0x10) !== 0,
        localCaGuid: dv.getBigUint64(28),
        privateData: b.slice(36, 36 + CM_PRIVATE_DATA_SIZE.REP),
      };
    case 'RTU':
    case 'DREP':
      return { kind, localCommId: dv.getUint32(0), remoteCommId: dv.getUint32(4), privateData: b.slice(8, 8 + 224) };
    case 'DREQ':
      return {
        kind,
        localCommId: dv.getUint32(0),
        remoteCommId: dv.getUint32(4),
        remoteQpn: dv.getUint32(8) >>> 8,
        privateData: b.slice(12, 12 + CM_PRIVATE_DATA_SIZE.DREQ),
      };
    case 'SIDR_REQ':
      return {
        kind,
        requestId: dv.getUint32(0),
        pkey: dv.getUint16(4),
        serviceId: dv.getBigUint64(8),
        privateData: b.slice(16, 16 + CM_PRIVATE_DATA_SIZE.SIDR_REQ),
      };
    case 'SIDR_REP': {
      const infoLen = b[5]!;
      if (infoLen > CM_ARI_LEN) throw field(`SIDR_REP AdditionalInformationLength ${infoLen} > ${CM_ARI_LEN}`);
      return {
        kind,
        requestId: dv.getUint32(0),
        status: b[4]!,
        qpn: dv.getUint32(8) >>> 8,
        serviceId: dv.getBigUint64(12),
        qkey: dv.getUint32(20),
        info: b.slice(24, 24 + infoLen),
        privateData: b.slice(96, 96 + CM_PRIVATE_DATA_SIZE.SIDR_REP),
      };
    }
  }
}

/**
 * Decodes a CM MAD (exactly 256 octets). A MAD that is not a CM Send of class version 2, or
 * whose attribute is not one of the nine messages, or that holds a reserved message code or
 * an oversized ARI / Additional Information length, throws a {@link MadWireError}.
 * Reserved bits are ignored on receive (IBTA Vol. 1 §1.4 "reserved … ignored by the receiver").
 */
export function decodeCmMad(buf: Uint8Array): CmMad {
  if (buf.length !== MAD_SIZE) throw new MadWireError(MadDropReason.Length, `a MAD is ${MAD_SIZE} octets, got ${buf.length}`);
  const header = decodeMadHeader(buf, 0);
  if (header.baseVersion !== MAD_BASE_VERSION) {
    throw new MadWireError(MadDropReason.BaseVersion, `BaseVersion ${header.baseVersion}`);
  }
  if (header.mgmtClass !== MGMT_CLASS_CM) throw new MadWireError(MadDropReason.Class, `MgmtClass ${hx(header.mgmtClass, 2)}`);
  if (header.classVersion !== CM_CLASS_VERSION) {
    throw new MadWireError(MadDropReason.ClassVersion, `CM ClassVersion ${header.classVersion}`);
  }
  if (header.method !== MadMethod.Send) throw new MadWireError(MadDropReason.Method, `CM Method ${hx(header.method, 2)}`);
  const kind = KIND_OF_ATTR.get(header.attrId);
  if (!kind) throw new MadWireError(MadDropReason.Attribute, `CM AttributeID ${hx(header.attrId, 4)}`);
  return { header, msg: decodeBody(kind, buf.subarray(MAD_HDR_LEN)) };
}

export * from './cma.js';

import { checkGid, ipv4FromGid } from './cma.js';

/** A GID as the usual colon-separated IPv6 text (`::ffff:1.2.3.4` for IPv4-mapped ones). */
export function stringifyGid(g: Uint8Array): string {
  const v4 = ipv4FromGid(g);
  if (v4) return `::ffff:${v4}`;
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push((((g[i] ?? 0) << 8) | (g[i + 1] ?? 0)).toString(16));
  return words.join(':');
}

// ---------------------------------------------------------------------------------------------
// Stringify.

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

function pdSummary(pd: Uint8Array): string {
  let n = pd.length;
  while (n > 0 && pd[n - 1] === 0) n--;
  return n === 0 ? '' : ` pd=${hex(pd.subarray(0, Math.min(n, 16)))}${n > 16 ? `…(${n})` : ''}`;
}

/** The name of a REJ reason (`CONSUMER_DEFINED`), or its number. */
export function cmRejReasonName(r: number): string {
  return CmRejReason[r] ?? `reason ${r}`;
}

/** One-line description of a CM message, e.g. `REQ lcid=0x… sid=0x0000000001061c06 qpn=0x11 …`. */
export function stringifyCmMessage(m: CmMessage): string {
  switch (m.kind) {
    case 'REQ':
      return (
        `REQ lcid=${hx(m.localCommId, 8)} sid=${hx(m.serviceId, 16)} guid=${hx(m.localCaGuid, 16)} qpn=${hx(m.localQpn, 6)}` +
        ` psn=${hx(m.startingPsn, 6)} ${CmTransport[m.transport]} rr=${m.responderResources} id=${m.initiatorDepth}` +
        ` mtu=${m.pathMtu} retry=${m.retryCount}/${m.rnrRetryCount} tmo=${m.remoteCmResponseTimeout}/${m.localCmResponseTimeout}` +
        ` maxcm=${m.maxCmRetries} pkey=${hx(m.pkey, 4)} ${stringifyGid(m.primary.localGid)}→${stringifyGid(m.primary.remoteGid)}` +
        ` hop=${m.primary.hopLimit} ack=${m.primary.localAckTimeout}${pdSummary(m.privateData)}`
      );
    case 'MRA':
      return `MRA lcid=${hx(m.localCommId, 8)} rcid=${hx(m.remoteCommId, 8)} for=${CmMsgResponse[m.msgMraed]} tmo=${m.serviceTimeout}${pdSummary(m.privateData)}`;
    case 'REJ':
      return (
        `REJ lcid=${hx(m.localCommId, 8)} rcid=${hx(m.remoteCommId, 8)} for=${CmMsgResponse[m.msgRejected]}` +
        ` ${cmRejReasonName(m.reason)}(${m.reason})${m.ari.length ? ` ari=${hex(m.ari)}` : ''}${pdSummary(m.privateData)}`
      );
    case 'REP':
      return (
        `REP lcid=${hx(m.localCommId, 8)} rcid=${hx(m.remoteCommId, 8)} qpn=${hx(m.localQpn, 6)} psn=${hx(m.startingPsn, 6)}` +
        ` rr=${m.responderResources} id=${m.initiatorDepth} rnr=${m.rnrRetryCount} guid=${hx(m.localCaGuid, 16)}${pdSummary(m.privateData)}`
      );
    case 'RTU':
    case 'DREP':
      return `${m.kind} lcid=${hx(m.localCommId, 8)} rcid=${hx(m.remoteCommId, 8)}${pdSummary(m.privateData)}`;
    case 'DREQ':
      return `DREQ lcid=${hx(m.localCommId, 8)} rcid=${hx(m.remoteCommId, 8)} rqpn=${hx(m.remoteQpn, 6)}${pdSummary(m.privateData)}`;
    case 'SIDR_REQ':
      return `SIDR_REQ rid=${hx(m.requestId, 8)} pkey=${hx(m.pkey, 4)} sid=${hx(m.serviceId, 16)}${pdSummary(m.privateData)}`;
    case 'SIDR_REP':
      return (
        `SIDR_REP rid=${hx(m.requestId, 8)} status=${SidrStatus[m.status] ?? m.status} qpn=${hx(m.qpn, 6)}` +
        ` sid=${hx(m.serviceId, 16)} qkey=${hx(m.qkey, 8)}${pdSummary(m.privateData)}`
      );
  }
}

/** One-line description of a CM MAD: the TID, then the message. */
export function stringifyCmMad(m: CmMad): string {
  return `CM tid=${hx(m.header.tid, 16)} ${stringifyCmMessage(m.msg)}`;
}

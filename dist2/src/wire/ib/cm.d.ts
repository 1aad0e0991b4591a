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
import { type MadHeader } from './mad.js';
/** Management class of Communication Management (IBTA Vol. 1 §13.4.4, Table 139). */
export declare const MGMT_CLASS_CM = 7;
/** The CM class version (IBTA Vol. 1 §12.6.1; Linux `IB_CM_CLASS_VERSION`). */
export declare const CM_CLASS_VERSION = 2;
/** Octets of a CM message body after the MAD header. */
export declare const CM_BODY_LEN: number;
/** CM attribute IDs (IBTA Vol. 1 §12.6.1). LAP/APR are not supported on RoCE. */
export declare enum CmAttrId {
    ClassPortInfo = 1,
    REQ = 16,
    MRA = 17,
    REJ = 18,
    REP = 19,
    RTU = 20,
    DREQ = 21,
    DREP = 22,
    SIDR_REQ = 23,
    SIDR_REP = 24,
    LAP = 25,
    APR = 26
}
/** Private data sizes (IBTA Vol. 1 §12.6, §12.11; Linux `enum ib_cm_data_size`). */
export declare const CM_PRIVATE_DATA_SIZE: {
    readonly REQ: 92;
    readonly MRA: 222;
    readonly REJ: 148;
    readonly REP: 196;
    readonly RTU: 224;
    readonly DREQ: 220;
    readonly DREP: 224;
    readonly SIDR_REQ: 216;
    readonly SIDR_REP: 136;
};
/** Octets of REJ ARI and SIDR_REP Additional Information (Tables 108 and 120). */
export declare const CM_ARI_LEN = 72;
/** Which message an MRA or REJ answers (IBTA Vol. 1 Tables 107/108; 3 is reserved). */
export declare enum CmMsgResponse {
    REQ = 0,
    REP = 1,
    OTHER = 2
}
/** REQ Transport Service Type (IBTA Vol. 1 Table 106; 3 = see Extended Transport Type). */
export declare enum CmTransport {
    RC = 0,
    UC = 1,
    RD = 2,
    EXTENDED = 3
}
/** REJ reasons (IBTA Vol. 1 §12.6, the REJ reason table; the numbers of Linux `enum ib_cm_rej_reason`). */
export declare enum CmRejReason {
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
    VENDOR_OPTION_NOT_SUPPORTED = 35
}
/** SIDR_REP status (IBTA Vol. 1 §12.11, Table 120; Linux `enum ib_cm_sidr_status`). */
export declare enum SidrStatus {
    SUCCESS = 0,
    /** No service with that ID (what Linux sends when nothing listens). */
    UNSUPPORTED = 1,
    REJECT = 2,
    NO_QP = 3,
    REDIRECT = 4,
    UNSUPPORTED_VERSION = 5
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
export declare const CM_ATTR_OF: Record<CmKind, CmAttrId>;
/** A decoded CM MAD. */
export interface CmMad {
    header: MadHeader;
    msg: CmMessage;
}
/** An all-zero path: "no alternate path" in a REQ. */
export declare function emptyCmPath(): CmPath;
/** True if a REQ carries an alternate path (Linux `cm_req_has_alt_path`: a LID or GID set). */
export declare function cmReqHasAltPath(req: CmReq): boolean;
/**
 * Encodes a CM message as a whole 256-octet MAD: header (BaseVersion 1, class 0x07, class
 * version 2, method Send, status 0, the given TID and AttributeModifier) and body. RangeError
 * on any out-of-range field or oversized private data.
 */
export declare function encodeCmMad(tid: bigint, msg: CmMessage, attrMod?: number): Uint8Array;
/**
 * Decodes a CM MAD (exactly 256 octets). A MAD that is not a CM Send of class version 2, or
 * whose attribute is not one of the nine messages, or that holds a reserved message code or
 * an oversized ARI / Additional Information length, throws a {@link MadWireError}.
 * Reserved bits are ignored on receive (IBTA Vol. 1 §1.4 "reserved … ignored by the receiver").
 */
export declare function decodeCmMad(buf: Uint8Array): CmMad;
/** rdma_cm port spaces (`enum rdma_ucm_port_space`; the IBTA Annex A11 "RDMA IP CM Service"). */
export declare enum RdmaPs {
    IPOIB = 2,
    IB = 319,
    TCP = 262,
    UDP = 273
}
/** The rdma_cm service-ID prefix and mask (`IB_CMA_SERVICE_ID`, `IB_CMA_SERVICE_ID_MASK`). */
export declare const IB_CMA_SERVICE_ID = 16777216n;
export declare const IB_CMA_SERVICE_ID_MASK = 18446744073692774400n;
/** The service ID of `port` in port space `ps`: `ps << 16 | port` (Annex A11.3.1; `cma.c:rdma_get_service_id`). */
export declare function rdmaServiceId(ps: RdmaPs | number, port: number): bigint;
/** The port space and port of an rdma_cm service ID, or null when it is not one. */
export declare function parseRdmaServiceId(sid: bigint): {
    ps: number;
    port: number;
} | null;
/** The Q_Key rdma_cm uses for RDMA_PS_UDP / RDMA_PS_IPOIB UD QPs (`RDMA_UDP_QKEY`). */
export declare const RDMA_UDP_QKEY = 19088743;
/** Octets of the `cma_hdr` (Annex A11.3.2, "IP Addressing Header"; `cma.c:struct cma_hdr`). */
export declare const CMA_HDR_LEN = 36;
/** The only `cma_version` (`CMA_VERSION`). */
export declare const CMA_VERSION = 0;
/**
 * The rdma_cm header at the head of REQ and SIDR_REQ private data (Annex A11.3.2; Linux
 * `cma_format_hdr`): version, IP version (high nibble), the source port and both addresses.
 * The destination port is the low 16 bits of the service ID. An IPv4 address sits in the
 * last 4 octets of its 16-octet field, after 12 zero octets.
 */
export interface CmaHdr {
    cmaVersion: number;
    /** 4 or 6. */
    ipVersion: number;
    srcPort: number;
    /** 16 octets. */
    srcAddr: Uint8Array;
    /** 16 octets. */
    dstAddr: Uint8Array;
}
/** Writes a `cma_hdr` into `out[offset..offset+36)` (or a new buffer). */
export declare function encodeCmaHdr(h: CmaHdr, out?: Uint8Array, offset?: number): Uint8Array;
/**
 * Reads the `cma_hdr` of REQ/SIDR_REQ private data. Linux rejects a version other than 0 and
 * an IP version other than 4 or 6 (`cma.c:cma_get_net_info` → `cma_save_ip_info`); so does
 * this decoder, with a {@link MadWireError} of reason Field.
 */
export declare function decodeCmaHdr(pd: Uint8Array, offset?: number): CmaHdr;
/** The IPv4-mapped GID `::ffff:a.b.c.d` of a RoCE v2 IPv4 address (Annex A17.4.5.1; `ipv6_addr_set_v4mapped`). */
export declare function gidFromIpv4(ip: string): Uint8Array;
/** The IPv4 address of an IPv4-mapped GID, or null for any other GID. */
export declare function ipv4FromGid(gid: Uint8Array): string | null;
/** The 16-octet `cma_hdr` form of an IPv4 address: 12 zero octets, then the address. */
export declare function cmaAddrFromIpv4(ip: string): Uint8Array;
/** The IPv4 address in a `cma_hdr` address field (its last 4 octets). */
export declare function ipv4FromCmaAddr(a: Uint8Array): string;
/** A GID as the usual colon-separated IPv6 text (`::ffff:1.2.3.4` for IPv4-mapped ones). */
export declare function stringifyGid(g: Uint8Array): string;
/** The name of a REJ reason (`CONSUMER_DEFINED`), or its number. */
export declare function cmRejReasonName(r: number): string;
/** One-line description of a CM message, e.g. `REQ lcid=0x… sid=0x0000000001061c06 qpn=0x11 …`. */
export declare function stringifyCmMessage(m: CmMessage): string;
/** One-line description of a CM MAD: the TID, then the message. */
export declare function stringifyCmMad(m: CmMad): string;

/**
 * IT-API 2.1 over RNICPI: the implementation of every function of {@link ItApi}.
 *
 * Each function validates its arguments in the order the binding documents (handle, IA
 * catastrophe, state, flags, sizes), throws the page's `ItError` for an immediate error and
 * changes nothing in that case (except `it_lmr_modify`, which destroys the LMR on most errors,
 * as its page says), then delegates to the object modules: `evd.ts` (Event Dispatchers),
 * `ep.ts` (Endpoints, connection management, posting, S-RQs), `mem.ts` (LMRs, RMRs). Every
 * RNIC resource is reached through the IA's RNICPI `ri_ops_t` (`access.ts`).
 *
 * softrdma's Interfaces are iWARP (`IT_IWARP_TCP_TRANSPORT`). The transport-dependent calls
 * (UD Endpoints, Address Handles, UD service resolution, Atomics) answer the code of
 * `IT_API_FUNCTIONS[name].iwarpStatus` after validating the handle they are given; they are
 * reported absent in `it_ia_info_t`. An InfiniBand-transport Interface (a RoCEv2 face) would
 * implement them behind the same checks (`transportOf(ia)`).
 *
 * @module
 */
import net from 'node:net';
import { endianness, networkInterfaces } from 'node:os';
import { roceSourceFor } from '../ibcm/rdma-ip.js';
import { CmListener } from '../iwarp/cm.js';
import { hostMemory } from '../rnic/hostmem.js';
import { RiRet } from '../rnicpi/status.js';
import {
  RiMemFlags,
  RiMrRereg,
  RiMwType,
  RiWrFlags,
  RiWrType,
  type ri_data_seg_t,
  type ri_phys_buf_t,
  type ri_rnic_attr_t,
  type ri_wr_t,
} from '../rnicpi/types.js';
import { ipv4FromGid } from '../wire/ib/cm.js';
import { type ItApi, IT_API_FUNCTION_NAMES, IT_API_FUNCTIONS, type ItWaitOptions } from './api.js';
import { type ItDevice, itDevice, itDevices } from './access.js';
import { deliverRequest, Ep, type EpAttrs, epAttrsOf, Listen, PendingRequest, pdataBuffer, type SqRec, Srq } from './ep.js';
import { Aevd, Evd, MAX_SEVD_QUEUE, nextFd, Sevd } from './evd.js';
import { Lmr, Rmr } from './mem.js';
import { check, checkHandle, fail, Ia, IA_RNIC_LOCATION, Pz, setCurrentFn, softrdmaItapiPrivileged } from './objects.js';
import { Ah, avOfPath, hostOfPath, sidrOfStatus, UD_GRH_LEN, UD_MAX_MESSAGE, UD_PDATA_REPLY, UD_PDATA_REQUEST, UdEp, UdSvcHandle, UdSvcRequest } from './ud.js';
import { gidFromText, IB_PDATA_ACCEPT, IB_PDATA_CONNECT, IB_PDATA_REJECT, IbItListen, ibPathOf, isIbDevice, roceAddresses, roceCm } from './roce.js';
import { isItError, it_status_t as S } from './status.js';
import {
  IT_COMPARE_AND_SWAP,
  IT_FETCH_AND_ADD,
  IT_HARD_HI_WATERMARK_DISABLE,
  IT_HANDLE_KIND,
  IT_MAX_PRIV_DATA,
  IT_TIMEOUT_INFINITE,
  isItEventStream,
  it_addr_mode_t as AM,
  it_addr_param_mask_t as ADM,
  it_ah_flags_t as AHF,
  it_cn_est_flags_t as CF,
  it_conn_qual_type_t as CQ,
  it_dg_type_t as DG,
  it_dto_flags_t as DF,
  it_ep_param_mask_t as EPM,
  it_ep_rc_creation_flags_t as EPF,
  it_ep_state_rc_t as ST,
  it_evd_flags_t as EF,
  it_evd_param_mask_t as EVM,
  it_event_type_t as ET,
  it_iobl_type_t as IOBL,
  it_ip_vers_t,
  it_listen_flags_t as LFL,
  it_listen_param_mask_t as LPM,
  it_lmr_flag_t as LF,
  it_lmr_param_mask_t as LMM,
  it_mem_priv_t as PRIV,
  it_net_addr_type_t as NA,
  it_pz_param_mask_t as PZM,
  it_rmr_param_mask_t as RMM,
  it_rmr_type_t as RT,
  it_sc_flags_t as SC,
  it_srq_param_mask_t as SQM,
  it_transport_service_type_t as SVC,
  it_transport_type_t as TT,
  it_ud_svc_req_param_mask_t as UDM,
  it_ud_svc_req_status_t as US,
  type it_ep_attributes_partial_t,
  type it_ep_attributes_t,
  type it_ep_param_partial_t,
  type it_evd_param_t,
  type it_ia_info_t,
  type it_interface_t,
  type it_iobl_t,
  type it_lmr_param_t,
  type it_lmr_triplet_t,
  type it_net_addr_t,
  type it_path_t,
  type it_rc_only_attributes_t,
  type it_rmr_param_t,
  type it_rmr_triplet_t,
  type it_spigot_info_t,
  type it_srq_param_t,
  type it_conn_qual_t,
} from './types.js';

// =============================================================================================
// Interface attributes (what it_ia_query reports, and what the calls enforce)
// =============================================================================================

/** Largest private data per call (the RFC 6581 word travels in front of it, never shown). */
const PDATA_CONNECT = IT_MAX_PRIV_DATA;
const PDATA_ACCEPT = IT_MAX_PRIV_DATA;
const PDATA_REJECT = IT_MAX_PRIV_DATA;
const PDATA_DISCONNECT = 0;
/** Largest message (and RDMA) of an iWARP RC Endpoint: the 32-bit DDP/RDMAP length. */
const MAX_RC_LEN = 0xffff_ffff;
/** Default connection-establishment timeout of a Path (µs): siw's MPA Reply timeout. */
const DEFAULT_PATH_TIMEOUT_US = 10_000_000n;
/** The STag used for a segment whose LMR handle is not an LMR (fails as an invalid STag). */
const BAD_STAG = 0xffff_ffff;
const EMPTY = new Uint8Array(0);

const limitCache = new WeakMap<ItDevice, ri_rnic_attr_t>();
function limits(ia: Ia): ri_rnic_attr_t {
  let l = limitCache.get(ia.device);
  if (!l) {
    const r = ia.ops.ri_rnic_query(ia.rnic, 0, 1 << 20);
    if (r.status !== RiRet.SUCCESS) fail(S.IT_ERR_RESOURCES, `ri_rnic_query: ${RiRet[r.status]}`);
    l = r.attrs;
    limitCache.set(ia.device, l);
  }
  return l;
}

/** The transport of an Interface: iWARP (`softrdma0`) or InfiniBand (the RoCE Interface `softroce0`). */
function transportOfDevice(d: ItDevice): TT {
  return isIbDevice(d) ? TT.IT_IB_TRANSPORT : TT.IT_IWARP_TCP_TRANSPORT;
}
function transportOf(ia: Ia): TT {
  return transportOfDevice(ia.device);
}
function isIb(ia: Ia): boolean {
  return isIbDevice(ia.device);
}

/** Private data limits of an IA: iWARP's MPA frames carry 256 octets; the IB CM's REQ (less the `cma_hdr`), REP and REJ fewer. */
function pdataLimits(ia: Ia): { connect: number; accept: number; reject: number; disconnect: number } {
  return isIb(ia)
    ? { connect: IB_PDATA_CONNECT, accept: IB_PDATA_ACCEPT, reject: IB_PDATA_REJECT, disconnect: PDATA_DISCONNECT }
    : { connect: PDATA_CONNECT, accept: PDATA_ACCEPT, reject: PDATA_REJECT, disconnect: PDATA_DISCONNECT };
}

function localAddrs(): it_net_addr_t[] {
  const out: it_net_addr_t[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      out.push(a.family === 'IPv4' ? { addr_type: NA.IT_IPV4, addr: { ipv4: a.address } } : { addr_type: NA.IT_IPV6, addr: { ipv6: a.address } });
    }
  }
  return out;
}

function spigotInfo(): it_spigot_info_t {
  const addrs = localAddrs();
  return {
    spigot_id: 0,
    max_rc_send_len: MAX_RC_LEN,
    max_rc_rdma_len: MAX_RC_LEN,
    max_ud_send_len: 0,
    spigot_online: true,
    active_side_conn_qual: (CQ.IT_IANA_PORT | CQ.IT_IANA_LR_PORT) as CQ,
    passive_side_conn_qual: CQ.IT_IANA_PORT,
    num_net_addr: addrs.length,
    net_addr: addrs,
  };
}

/** The RoCE Interface's Spigot: its GIDs' IPv4 addresses; connections by IANA port (rdma_cm's service IDs). */
function roceSpigotInfo(ia: Ia): it_spigot_info_t {
  const addrs: it_net_addr_t[] = roceAddresses(ia.device).map((a) => ({ addr_type: NA.IT_IPV4, addr: { ipv4: a } }));
  return {
    spigot_id: 0,
    max_rc_send_len: MAX_RC_LEN,
    max_rc_rdma_len: MAX_RC_LEN,
    max_ud_send_len: UD_MAX_MESSAGE,
    spigot_online: true,
    active_side_conn_qual: CQ.IT_IANA_PORT,
    passive_side_conn_qual: CQ.IT_IANA_PORT,
    num_net_addr: addrs.length,
    net_addr: addrs,
  };
}

function iaInfo(ia: Ia): it_ia_info_t {
  const vid = new Uint8Array(64);
  const ib = isIb(ia);
  const pd = pdataLimits(ia);
  return {
    ia_name: ia.device.name,
    api_major_version: 2,
    api_minor_version: 1,
    sw_major_version: 0,
    sw_minor_version: 1,
    vendor: ib ? { ib: { vendor: limits(ia).vendor_id, device: limits(ia).vendor_part_id, revision: limits(ia).hw_version } } : { iwarp: { valid_vid: false, vid } },
    dto_alignment_hint: 64,
    transport_type: transportOf(ia),
    supported_service_types: ib ? ((SVC.IT_RC_SERVICE | SVC.IT_UD_SERVICE) as SVC) : SVC.IT_RC_SERVICE,
    ep_work_queues_resizable: true,
    three_way_handshake_support: false,
    private_data_support: true,
    max_message_size_support: false,
    ird_ord_ia_support: true,
    ird_ord_suppressible: true,
    spigot_online_support: false,
    spigot_offline_support: false,
    connect_private_data_len: pd.connect,
    accept_private_data_len: pd.accept,
    reject_private_data_len: pd.reject,
    disconnect_private_data_len: pd.disconnect,
    ud_req_private_data_len: ib ? UD_PDATA_REQUEST : 0,
    ud_rep_private_data_len: ib ? UD_PDATA_REPLY : 0,
    num_spigots: 1,
    spigot_info: [ib ? roceSpigotInfo(ia) : spigotInfo()],
    affiliated_err_evd: ia.affEvd,
    unaffiliated_err_evd: ia.unaffEvd,
    srq_support: true,
    hard_hi_watermark_support: false,
    soft_hi_watermark_support: false,
    srq_resizable: true,
    extended_iwarp_qp_states: false,
    // A TCP socket can become an iWARP connection only.
    socket_conversion_support: !ib,
    rdma_read_ord_increasable: true,
    rdma_read_ird_modifiable: true,
    rmr_types_supported: RT.IT_RMR_TYPE_NARROW,
    addr_mode_relative_support: true,
    // iWARP's Read sink is a tagged buffer (Remote Write); IB's needs Local Write only.
    rdma_read_requires_remote_write: !ib,
    ep_rdma_enables_modifiable: false,
    rdma_read_local_extensions: true,
    dto_evd_overflow_detection: true,
    // Atomics towards peers that negotiated RFC 7306 (the RNIC's executor, src/rnic/atomics.ts).
    atomic_support: true,
    lmr_link_support: true,
    direct_lmr_handle_support: ia.directLmr !== null,
    direct_lmr_handle: ia.directLmr,
    post_send_unlink_remote_support: true,
    narrow_rmr_unlink_support: true,
    wide_rmr_unlink_support: false,
    unlink_fence_support: true,
    iobl_types_supported: (IOBL.IT_IOBL_PAGE_LIST | IOBL.IT_IOBL_VE_PAGE_LIST) as IOBL,
  };
}

// =============================================================================================
// Small validation helpers
// =============================================================================================

function isUint(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0;
}

/** Private data of a call: `null` or a buffer of at most `max` bytes. */
function pdataOf(p: Uint8Array | null | undefined, max: number): Uint8Array {
  if (p === null || p === undefined) return EMPTY;
  if (!(p instanceof Uint8Array) || p.length > max) fail(S.IT_ERR_INVALID_PDATA_LENGTH);
  return p;
}

/** A query mask: undefined bits → `IT_ERR_INVALID_MASK`. */
function checkMask(mask: number, defined: number): void {
  if (!isUint(mask) || (mask & ~defined) !== 0) fail(S.IT_ERR_INVALID_MASK);
}

/** The fields of `full` whose mask bit (or ALL, bit 0x1) is set. */
function pick<T extends object>(mask: number, full: T, bits: readonly (readonly [number, keyof T])[]): Partial<T> {
  const out: Partial<T> = {};
  for (const [bit, key] of bits) if (mask & 0x1 || mask & bit) out[key] = full[key];
  return out;
}

function addrOf(a: Uint8Array | bigint | null | undefined): bigint | null {
  if (a instanceof Uint8Array) return hostMemory.addressOf(a);
  if (typeof a === 'bigint') return a;
  return null;
}

function cookieOf(c: bigint): bigint {
  return BigInt.asUintN(64, typeof c === 'bigint' ? c : BigInt(c as number));
}

/** `IT_ERR_INVALID_DTO_FLAGS` unless `f` uses only `allowed` and NOTIFY comes with COMPLETION. */
function checkDtoFlags(f: number, allowed: number): void {
  if (!isUint(f) || (f & ~allowed) !== 0) fail(S.IT_ERR_INVALID_DTO_FLAGS);
  if (f & DF.IT_NOTIFY_FLAG && !(f & DF.IT_COMPLETION_FLAG)) fail(S.IT_ERR_INVALID_DTO_FLAGS);
}

const BASE_SQ = DF.IT_COMPLETION_FLAG | DF.IT_NOTIFY_FLAG | DF.IT_BARRIER_FENCE_FLAG | DF.IT_COALESCE_WR_FLAG;
const SEND_FLAGS = BASE_SQ | DF.IT_SOLICITED_WAIT_FLAG;
const READ_FLAGS = BASE_SQ | DF.IT_UNLINK_LOCAL_SINK;
const UNLINK_FLAGS = BASE_SQ | DF.IT_UNLINK_FENCE_FLAG;
const RECV_FLAGS = DF.IT_COMPLETION_FLAG | DF.IT_NOTIFY_FLAG | DF.IT_COALESCE_WR_FLAG;
/** A datagram Send: no fences (BARRIER_FENCE is illegal on any UD WR). */
const SENDTO_FLAGS = DF.IT_COMPLETION_FLAG | DF.IT_NOTIFY_FLAG | DF.IT_SOLICITED_WAIT_FLAG | DF.IT_COALESCE_WR_FLAG;

/** An RC Endpoint handle; a UD Endpoint is the wrong type (`IT_ERR_INVALID_EP_TYPE`). */
function rcEp(h: unknown): Ep {
  if (h instanceof UdEp && !h.freed) {
    if (h.ia.disabled) fail(S.IT_ERR_IA_CATASTROPHE);
    fail(S.IT_ERR_INVALID_EP_TYPE, 'a UD Endpoint');
  }
  return check(h, Ep, S.IT_ERR_INVALID_EP);
}
/** A UD Endpoint handle; an RC Endpoint is the wrong type (`IT_ERR_INVALID_EP_TYPE`). */
function udEp(h: unknown): UdEp {
  if (h instanceof Ep && !h.freed) {
    if (h.ia.disabled) fail(S.IT_ERR_IA_CATASTROPHE);
    fail(S.IT_ERR_INVALID_EP_TYPE, 'not a UD Endpoint');
  }
  return check(h, UdEp, S.IT_ERR_INVALID_EP);
}

/** RNICPI WR flags of an IT-API WR: always signalled (the Endpoint filters the completions). */
function riFlags(f: number, kind: 'send' | 'write' | 'read' | 'mem' | 'unlink'): number {
  let r = RiWrFlags.SIGNALED_FLAG;
  if (f & DF.IT_SOLICITED_WAIT_FLAG) r |= RiWrFlags.SOLICITED_EVENT_FLAG;
  // iWARP Read Fence exists for Sends and RDMA Writes (RNICPI); Reads and memory WRs complete
  // in order behind earlier Reads anyway.
  if (f & DF.IT_BARRIER_FENCE_FLAG && (kind === 'send' || kind === 'write')) r |= RiWrFlags.READ_FENCE_FLAG;
  if (f & DF.IT_UNLINK_FENCE_FLAG && kind === 'unlink') r |= RiWrFlags.LOCAL_FENCE_FLAG;
  if (f & DF.IT_COALESCE_WR_FLAG) r |= RiWrFlags.COALESCE_FLAG;
  return r;
}

/** RNICPI rights of IT-API privileges (note: the remote bits are swapped between the two). */
function memAttrOf(privs: number, relative: boolean): number {
  let a = RiMemFlags.LOCAL_READ | RiMemFlags.BINDING;
  if (privs & PRIV.IT_PRIV_LOCAL_WRITE) a |= RiMemFlags.LOCAL_WRITE;
  if (privs & PRIV.IT_PRIV_REMOTE_READ) a |= RiMemFlags.REMOTE_READ;
  if (privs & PRIV.IT_PRIV_REMOTE_WRITE) a |= RiMemFlags.REMOTE_WRITE;
  // IT-API it_post_atomic: the target needs Remote Read and Remote Write (or IT_PRIV_ATOMIC).
  if (privs & PRIV.IT_PRIV_ATOMIC || (privs & PRIV.IT_PRIV_REMOTE) === PRIV.IT_PRIV_REMOTE) a |= RiMemFlags.ATOMICS;
  if (relative) a |= RiMemFlags.ZBVA;
  return a;
}

/** LMR privileges: non-zero, defined bits, Remote Write needs Local Write. */
function checkPrivs(privs: number): void {
  if (!isUint(privs) || privs === 0 || (privs & ~PRIV.IT_PRIV_ALL) !== 0) fail(S.IT_ERR_INVALID_PRIVS);
  if (privs & PRIV.IT_PRIV_REMOTE_WRITE && !(privs & PRIV.IT_PRIV_LOCAL_WRITE)) fail(S.IT_ERR_INVALID_PRIVS);
}

function checkAddrMode(m: number): void {
  if (m !== AM.IT_ADDR_MODE_ABSOLUTE && m !== AM.IT_ADDR_MODE_RELATIVE) fail(S.IT_ERR_INVALID_ADDR_MODE);
}

/** SQ posts are legal in CONNECTED and NONOPERATIONAL (flushed) only. */
function udEpParams(ep: UdEp, mask: number): it_ep_param_partial_t {
  const all = (mask & EPM.IT_EP_PARAM_ALL) !== 0;
  const has = (b: number): boolean => all || (mask & b) !== 0;
  const out: { -readonly [K in keyof it_ep_param_partial_t]: it_ep_param_partial_t[K] } = {};
  if (has(EPM.IT_EP_PARAM_IA)) out.ia = ep.ia;
  if (has(EPM.IT_EP_PARAM_SPIGOT)) out.spigot_id = ep.spigot;
  if (has(EPM.IT_EP_PARAM_STATE)) out.ep_state = { ud: ep.state };
  if (has(EPM.IT_EP_PARAM_SERV_TYPE)) out.service_type = SVC.IT_UD_SERVICE;
  if (has(EPM.IT_EP_PARAM_PZ)) out.pz = ep.pz;
  if (has(EPM.IT_EP_PARAM_REQ_SEVD)) out.request_sevd = ep.reqEvd;
  if (has(EPM.IT_EP_PARAM_RECV_SEVD)) out.recv_sevd = ep.recvEvd;
  const a = ep.attr;
  const attr: { -readonly [K in keyof it_ep_attributes_partial_t]: it_ep_attributes_partial_t[K] } = {};
  if (has(EPM.IT_EP_PARAM_MAX_PAYLOAD)) attr.max_dto_payload_size = a.max_dto_payload_size;
  if (has(EPM.IT_EP_PARAM_MAX_REQ_DTO)) attr.max_request_dtos = a.max_request_dtos;
  if (has(EPM.IT_EP_PARAM_MAX_RECV_DTO)) attr.max_recv_dtos = a.max_recv_dtos;
  if (has(EPM.IT_EP_PARAM_MAX_SEND_SEG)) attr.max_send_segments = a.max_send_segments;
  if (has(EPM.IT_EP_PARAM_MAX_RECV_SEG)) attr.max_recv_segments = a.max_recv_segments;
  if (has(EPM.IT_EP_PARAM_PRIV_OPS_ENABLE)) attr.priv_ops_enable = false;
  if (has(EPM.IT_EP_PARAM_EP_ID) || has(EPM.IT_EP_PARAM_EP_KEY)) attr.srv = { ud: { ep_info: { ud_ep_id: ep.qpn, ud_ep_key: a.ud_ep_key } } };
  if (Object.keys(attr).length > 0) out.attr = attr;
  return out;
}

function checkSqState(ep: Ep): void {
  if (ep.state !== ST.IT_EP_STATE_CONNECTED && ep.state !== ST.IT_EP_STATE_NONOPERATIONAL) fail(S.IT_ERR_INVALID_EP_STATE);
}

/** One local segment as an RNICPI SGE. */
function sgeOf(ep: { ia: Ia }, t: it_lmr_triplet_t, invalidLmrImmediate: boolean): ri_data_seg_t {
  if (!t || typeof t !== 'object' || typeof t.addr !== 'bigint' || !isUint(t.length) || t.length > MAX_RC_LEN) {
    fail(S.IT_ERR_INVALID_NUM_SEGMENTS, 'malformed segment');
  }
  const l = t.lmr as unknown;
  if (l instanceof Lmr) {
    if (l.direct) {
      // The Direct LMR Handle: STag 0 with an I/O address (privileged Endpoints only; others
      // get IT_DTO_ERR_LOCAL_PROTECTION from the RNIC).
      if (l.ia !== ep.ia && invalidLmrImmediate) fail(S.IT_ERR_INVALID_LMR, 'no Direct LMR on this IA');
      return { tag: 0, addr: t.addr, len: t.length };
    }
    return { tag: l.ltag, addr: t.addr, len: t.length };
  }
  if (invalidLmrImmediate) fail(S.IT_ERR_INVALID_LMR);
  // Not an LMR: the RNIC reports it as an invalid STag (IT_DTO_ERR_LOCAL_PROTECTION).
  return { tag: BAD_STAG, addr: t.addr, len: t.length };
}

function sglOf(ep: { ia: Ia }, segs: readonly it_lmr_triplet_t[] | null, max: number, invalidLmrImmediate: boolean): ri_data_seg_t[] {
  const list = segs ?? [];
  if (!Array.isArray(list) || list.length > max) fail(S.IT_ERR_INVALID_NUM_SEGMENTS);
  return list.map((t) => sgeOf(ep, t, invalidLmrImmediate));
}

function cnOf(id: unknown): PendingRequest {
  if (!(id instanceof PendingRequest) || id.consumed || id.held || id.ia.freed) fail(S.IT_ERR_INVALID_CN_EST_ID);
  if (id.ia.disabled) fail(S.IT_ERR_IA_CATASTROPHE);
  return id;
}

/** Private data of an outgoing Receive/Send length check for the EP's Receives (no DTO payload check). */
function hwm(v: number): boolean {
  return v === 0 || v === IT_HARD_HI_WATERMARK_DISABLE;
}

// =============================================================================================
// Event Dispatcher helpers
// =============================================================================================

/** `it_evd_create` flag validity. */
function checkEvdFlags(stream: ET, flags: number): void {
  const defined = EF.IT_EVD_DEQUEUE_NOTIFICATIONS | EF.IT_EVD_CREATE_FD | EF.IT_EVD_OVERFLOW_DEFAULT | EF.IT_EVD_OVERFLOW_NOTIFY | EF.IT_EVD_OVERFLOW_AUTO_RESET;
  if (!isUint(flags) || (flags & ~defined) !== 0) fail(S.IT_ERR_INVALID_FLAGS);
  const overflowFlags = EF.IT_EVD_OVERFLOW_DEFAULT | EF.IT_EVD_OVERFLOW_NOTIFY | EF.IT_EVD_OVERFLOW_AUTO_RESET;
  if (stream === ET.IT_AEVD_NOTIFICATION_EVENT_STREAM) {
    if (flags & overflowFlags) fail(S.IT_ERR_INVALID_FLAGS, 'overflow flags are for SEVDs');
    return;
  }
  if (flags & EF.IT_EVD_DEQUEUE_NOTIFICATIONS) fail(S.IT_ERR_INVALID_FLAGS, 'DEQUEUE_NOTIFICATIONS is for AEVDs');
  const def = (flags & EF.IT_EVD_OVERFLOW_DEFAULT) !== 0;
  const notify = (flags & EF.IT_EVD_OVERFLOW_NOTIFY) !== 0;
  const auto = (flags & EF.IT_EVD_OVERFLOW_AUTO_RESET) !== 0;
  if (def && (notify || auto)) fail(S.IT_ERR_INVALID_FLAGS, 'OVERFLOW_DEFAULT excludes NOTIFY/AUTO_RESET');
  if (auto && !notify) fail(S.IT_ERR_INVALID_FLAGS, 'AUTO_RESET needs NOTIFY');
  if (auto && stream === ET.IT_DTO_EVENT_STREAM) fail(S.IT_ERR_INVALID_FLAGS, 'a DTO overflow cannot be reset');
  if (notify && stream === ET.IT_ASYNC_UNAFF_EVENT_STREAM) fail(S.IT_ERR_INVALID_FLAGS, 'UNAFF overflow is never reported');
}

/** Wait/dequeue legality of an EVD; `wait` adds the wait-only rules. */
function checkDequeueState(e: Evd, wait: boolean): void {
  if (e instanceof Sevd && e.aevd) {
    if (!e.aevd.dequeueNotifications) fail(S.IT_ERR_INVALID_EVD_STATE, 'the SEVD feeds an AEVD without DEQUEUE_NOTIFICATIONS');
    if (wait && e.enabled) fail(S.IT_ERR_INVALID_EVD_STATE, 'disable the SEVD to wait on it');
  }
  if (wait && e.fd >= 0 && e.enabled) fail(S.IT_ERR_INVALID_EVD_STATE, 'disable the EVD with an fd to wait on it');
}

// =============================================================================================
// Endpoint helpers
// =============================================================================================

function checkEpAttrs(ia: Ia, a: it_ep_attributes_t, flags: number): { attr: EpAttrs; srq: Srq | null } {
  const l = limits(ia);
  if (!a || typeof a !== 'object' || !a.srv || !('rc' in a.srv)) fail(S.IT_ERR_INVALID_EP_ATTR, 'RC attributes (srv.rc) required');
  const rc: it_rc_only_attributes_t = a.srv.rc;
  if (!isUint(a.max_dto_payload_size) || a.max_dto_payload_size > MAX_RC_LEN) fail(S.IT_ERR_PAYLOAD_SIZE);
  if (!isUint(a.max_request_dtos) || a.max_request_dtos > l.max_wrs_qp) fail(S.IT_ERR_RESOURCE_REQ_DTO);
  if (!isUint(a.max_send_segments) || a.max_send_segments > l.max_sgl_send_recvqp) fail(S.IT_ERR_RESOURCE_SSEG);
  if (!isUint(rc.max_rdma_read_segments) || rc.max_rdma_read_segments > l.max_sgl_rdma_read) fail(S.IT_ERR_RESOURCE_RRSEG);
  if (!isUint(rc.max_rdma_write_segments) || rc.max_rdma_write_segments > l.max_sgl_rdma_write) fail(S.IT_ERR_RESOURCE_RWSEG);
  if (!isUint(rc.rdma_read_ird) || rc.rdma_read_ird > l.max_ird_per_qp) fail(S.IT_ERR_RESOURCE_IRD);
  if (!isUint(rc.rdma_read_ord) || rc.rdma_read_ord > l.max_ord_per_qp) fail(S.IT_ERR_RESOURCE_ORD);
  let srq: Srq | null = null;
  if (flags & EPF.IT_EP_SRQ) {
    srq = check(rc.srq, Srq, S.IT_ERR_INVALID_SRQ);
    if (srq.ia !== ia) fail(S.IT_ERR_INVALID_SRQ);
    // Neither watermark is supported by this IA: only "no watermark" is accepted.
    if (rc.soft_hi_watermark !== 0 && rc.soft_hi_watermark !== undefined) fail(S.IT_ERR_SOFT_HI_WATERMARK);
    if (rc.hard_hi_watermark !== undefined && !hwm(rc.hard_hi_watermark)) fail(S.IT_ERR_HARD_HI_WATERMARK);
  } else {
    if (!isUint(a.max_recv_dtos) || a.max_recv_dtos > l.max_wrs_qp) fail(S.IT_ERR_RESOURCE_RECV_DTO);
    if (!isUint(a.max_recv_segments) || a.max_recv_segments > l.max_sgl_send_recvqp) fail(S.IT_ERR_RESOURCE_RSEG);
  }
  if (a.priv_ops_enable && !ia.privileged) fail(S.IT_ERR_NO_PERMISSION, 'Privileged Mode Endpoints need a Privileged Consumer');
  const attr = epAttrsOf(a);
  if (srq) {
    attr.max_recv_dtos = 0;
    attr.max_recv_segments = 0;
  }
  attr.soft_hi_watermark = 0;
  attr.hard_hi_watermark = 0;
  return { attr, srq };
}

function epParams(ep: Ep, mask: number): it_ep_param_partial_t {
  const all = (mask & EPM.IT_EP_PARAM_ALL) !== 0;
  const has = (b: number): boolean => all || (mask & b) !== 0;
  const out: { -readonly [K in keyof it_ep_param_partial_t]: it_ep_param_partial_t[K] } = {};
  if (has(EPM.IT_EP_PARAM_IA)) out.ia = ep.ia;
  if (has(EPM.IT_EP_PARAM_SPIGOT)) out.spigot_id = ep.spigot;
  if (has(EPM.IT_EP_PARAM_STATE)) out.ep_state = { rc: ep.state };
  if (has(EPM.IT_EP_PARAM_SERV_TYPE)) out.service_type = SVC.IT_RC_SERVICE;
  if (has(EPM.IT_EP_PARAM_PATH) && ep.dstPath) out.dst_path = ep.dstPath;
  if (has(EPM.IT_EP_PARAM_PZ)) out.pz = ep.pz;
  if (has(EPM.IT_EP_PARAM_REQ_SEVD)) out.request_sevd = ep.reqEvd;
  if (has(EPM.IT_EP_PARAM_RECV_SEVD)) out.recv_sevd = ep.recvEvd;
  if (has(EPM.IT_EP_PARAM_CONN_SEVD)) out.connect_sevd = ep.connEvd;
  const a = ep.attr;
  const { ird, ord } = ep.qpIrdOrd();
  const attr: { -readonly [K in keyof it_ep_attributes_partial_t]: it_ep_attributes_partial_t[K] } = {};
  const rc: Partial<{ -readonly [K in keyof it_rc_only_attributes_t]: it_rc_only_attributes_t[K] }> = {};
  if (has(EPM.IT_EP_PARAM_MAX_PAYLOAD)) attr.max_dto_payload_size = a.max_dto_payload_size;
  if (has(EPM.IT_EP_PARAM_MAX_REQ_DTO)) attr.max_request_dtos = a.max_request_dtos;
  if (has(EPM.IT_EP_PARAM_MAX_RECV_DTO)) attr.max_recv_dtos = ep.srq ? 0 : a.max_recv_dtos;
  if (has(EPM.IT_EP_PARAM_MAX_SEND_SEG)) attr.max_send_segments = a.max_send_segments;
  if (has(EPM.IT_EP_PARAM_MAX_RECV_SEG)) attr.max_recv_segments = ep.srq ? 0 : a.max_recv_segments;
  if (has(EPM.IT_EP_PARAM_PRIV_OPS_ENABLE)) attr.priv_ops_enable = a.priv_ops_enable;
  if (has(EPM.IT_EP_PARAM_RDMA_RD_ENABLE)) rc.rdma_read_enable = a.rdma_read_enable;
  if (has(EPM.IT_EP_PARAM_RDMA_WR_ENABLE)) rc.rdma_write_enable = a.rdma_write_enable;
  if (has(EPM.IT_EP_PARAM_MAX_RDMA_READ_SEG)) rc.max_rdma_read_segments = a.max_rdma_read_segments;
  if (has(EPM.IT_EP_PARAM_MAX_RDMA_WRITE_SEG)) rc.max_rdma_write_segments = a.max_rdma_write_segments;
  if (has(EPM.IT_EP_PARAM_MAX_IRD)) rc.rdma_read_ird = ird;
  if (has(EPM.IT_EP_PARAM_MAX_ORD)) rc.rdma_read_ord = ord;
  if (has(EPM.IT_EP_PARAM_SRQ)) rc.srq = ep.srq;
  if (has(EPM.IT_EP_PARAM_SOFT_HI_WATERMARK)) rc.soft_hi_watermark = 0;
  if (has(EPM.IT_EP_PARAM_HARD_HI_WATERMARK)) rc.hard_hi_watermark = 0;
  if (has(EPM.IT_EP_PARAM_ATOMICS_ENABLE)) rc.atomics_enable = a.atomics_enable;
  if (Object.keys(rc).length > 0) attr.srv = { rc };
  if (Object.keys(attr).length > 0) out.attr = attr;
  return out;
}

const EP_MODIFIABLE =
  EPM.IT_EP_PARAM_MAX_PAYLOAD |
  EPM.IT_EP_PARAM_MAX_REQ_DTO |
  EPM.IT_EP_PARAM_MAX_RECV_DTO |
  EPM.IT_EP_PARAM_RDMA_RD_ENABLE |
  EPM.IT_EP_PARAM_RDMA_WR_ENABLE |
  EPM.IT_EP_PARAM_MAX_IRD |
  EPM.IT_EP_PARAM_MAX_ORD |
  EPM.IT_EP_PARAM_EP_KEY |
  EPM.IT_EP_PARAM_SOFT_HI_WATERMARK |
  EPM.IT_EP_PARAM_HARD_HI_WATERMARK |
  EPM.IT_EP_PARAM_ATOMICS_ENABLE;

// =============================================================================================
// The API
// =============================================================================================

/**
 * `it_ep_connect` on the RoCE Interface after the common checks: the path's remote GID must be
 * IPv4-mapped (rdma_cm's `cma_hdr` carries IPv4 addresses), the qualifier an IANA port (the
 * service ID `RDMA_PS_TCP << 16 | port`), the private data at most 56 octets.
 */
function connectIb(ep: Ep, path: it_path_t, connect_qual: it_conn_qual_t, private_data: Uint8Array | null | undefined): void {
  if (!('ib' in path.remote)) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'an InfiniBand path is needed on the RoCE Interface');
  const ib = path.remote.ib;
  const dgid = gidFromText(ib.remote_port_gid);
  const host = dgid ? ipv4FromGid(dgid) : null;
  if (!host) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'the remote GID must be IPv4-mapped (::ffff:a.b.c.d)');
  const sgid = ib.local_port_gid ? gidFromText(ib.local_port_gid) : null;
  const local = sgid ? ipv4FromGid(sgid) : null;
  if (typeof path.timeout !== 'bigint' || path.timeout < 0n) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'timeout');
  if (!connect_qual || typeof connect_qual !== 'object' || connect_qual.type !== CQ.IT_IANA_PORT) {
    fail(S.IT_ERR_INVALID_CONN_QUAL, 'RoCE connections are to IANA ports (rdma_cm service IDs)');
  }
  const port = connect_qual.conn_qual.port;
  if (!isUint(port) || port === 0 || port > 0xffff) fail(S.IT_ERR_INVALID_CONN_QUAL);
  const pd = pdataOf(private_data, IB_PDATA_CONNECT);
  const us = path.timeout === 0n ? DEFAULT_PATH_TIMEOUT_US : path.timeout;
  const timeoutMs = Math.max(1, Number((us + 999n) / 1000n));
  const opts: Parameters<Ep['connectIb']>[3] = { timeoutMs, pdata: pd };
  if (local && local !== '0.0.0.0') opts.localAddress = local;
  ep.connectIb(host, port, path, opts);
}

const impl: ItApi = {
  // ---- UD Address Handles (not on an iWARP IA) ------------------------------------------

  it_address_handle_create(pz_handle, destination_path, ah_flags) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    const ia = pz.ia;
    if (!isIb(ia)) fail(S.IT_ERR_OP_NOT_SUPPORTED, 'no UD service on an iWARP IA');
    if (!isUint(ah_flags) || (ah_flags & ~AHF.IT_AH_PATH_COMPLETE) !== 0) fail(S.IT_ERR_INVALID_FLAGS);
    if (!destination_path || typeof destination_path !== 'object') fail(S.IT_ERR_INVALID_SOURCE_PATH);
    if (destination_path.spigot_id !== 0) fail(S.IT_ERR_INVALID_SPIGOT);
    const av = avOfPath(ia, destination_path);
    if (!av) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'an IB path with a remote GID is needed');
    const r = ia.ops.ri_ah_create(ia.rnic, pz.pd, av, null, null);
    if (r.status !== RiRet.SUCCESS) fail(S.IT_ERR_RESOURCES, `ri_ah_create: ${RiRet[r.status]}`);
    const ah = new Ah(pz, r.ah, destination_path);
    ia.ahs.add(ah);
    return ah as never;
  },
  it_address_handle_free(addr_handle) {
    check(addr_handle, Ah, S.IT_ERR_INVALID_AH).destroy();
  },
  it_address_handle_modify(addr_handle, mask, params) {
    const ah = check(addr_handle, Ah, S.IT_ERR_INVALID_AH);
    if (mask !== ADM.IT_ADDR_PARAM_PATH) fail(S.IT_ERR_INVALID_MASK, 'only the path can change');
    const path = params?.path;
    if (!path || typeof path !== 'object') fail(S.IT_ERR_INVALID_SOURCE_PATH);
    if (path.spigot_id !== 0) fail(S.IT_ERR_INVALID_SPIGOT);
    const av = avOfPath(ah.ia, path);
    if (!av) fail(S.IT_ERR_INVALID_SOURCE_PATH);
    const st = ah.ia.ops.ri_ah_modify(ah.ia.rnic, ah.ah, av);
    if (st.status !== RiRet.SUCCESS) fail(S.IT_ERR_INVALID_SOURCE_PATH, `ri_ah_modify: ${RiRet[st.status]}`);
    ah.path = path;
  },
  it_address_handle_query(addr_handle, mask) {
    const ah = check(addr_handle, Ah, S.IT_ERR_INVALID_AH);
    checkMask(mask, ADM.IT_ADDR_PARAM_ALL | ADM.IT_ADDR_PARAM_IA | ADM.IT_ADDR_PARAM_PZ | ADM.IT_ADDR_PARAM_PATH);
    return pick(mask, { ia: ah.ia, pz: ah.pz, path: ah.path }, [
      [ADM.IT_ADDR_PARAM_IA, 'ia'],
      [ADM.IT_ADDR_PARAM_PZ, 'pz'],
      [ADM.IT_ADDR_PARAM_PATH, 'path'],
    ]);
  },

  // ---- Utilities -------------------------------------------------------------------------

  async it_convert_net_addr(source_addr, addr_type, options?: ItWaitOptions) {
    if (!source_addr || typeof source_addr !== 'object') fail(S.IT_ERR_INVALID_ADDRESS);
    const t = source_addr.addr_type;
    if (t !== NA.IT_IPV4 && t !== NA.IT_IPV6 && t !== NA.IT_IB_GID && t !== NA.IT_VIA_HOSTADDR) fail(S.IT_ERR_INVALID_NETADDR);
    if (addr_type !== NA.IT_IPV4 && addr_type !== NA.IT_IPV6 && addr_type !== NA.IT_IB_GID && addr_type !== NA.IT_VIA_HOSTADDR) {
      fail(S.IT_ERR_INVALID_NETADDR);
    }
    if (options?.signal?.aborted) return { status: S.IT_ERR_INTERRUPT };
    if (t === NA.IT_IPV4) {
      const v = 'ipv4' in source_addr.addr ? source_addr.addr.ipv4 : '';
      if (!net.isIPv4(v)) fail(S.IT_ERR_INVALID_ADDRESS);
      if (addr_type === NA.IT_IPV4) return { status: S.IT_SUCCESS, destination_addr: source_addr };
      if (addr_type === NA.IT_IPV6) return { status: S.IT_SUCCESS, destination_addr: { addr_type: NA.IT_IPV6, addr: { ipv6: `::ffff:${v}` } } };
      fail(S.IT_ERR_INVALID_CONVERSION);
    }
    if (t === NA.IT_IPV6) {
      const v = 'ipv6' in source_addr.addr ? source_addr.addr.ipv6 : '';
      if (!net.isIPv6(v)) fail(S.IT_ERR_INVALID_ADDRESS);
      if (addr_type === NA.IT_IPV6) return { status: S.IT_SUCCESS, destination_addr: source_addr };
      if (addr_type === NA.IT_IPV4) {
        const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(v);
        if (m) return { status: S.IT_SUCCESS, destination_addr: { addr_type: NA.IT_IPV4, addr: { ipv4: m[1]! } } };
      }
      fail(S.IT_ERR_INVALID_CONVERSION);
    }
    // GIDs and VIA host addresses have no IP form on an iWARP Interface.
    return fail(S.IT_ERR_INVALID_CONVERSION);
  },

  // ---- Endpoints and connection management ----------------------------------------------

  it_ep_accept(ep_handle, cn_est_id, private_data) {
    const ep = rcEp(ep_handle);
    const req = cnOf(cn_est_id);
    if (req.ia !== ep.ia) fail(S.IT_ERR_INVALID_CN_EST_ID, 'the request belongs to another IA');
    // iWARP is 2-way only: the passive side accepts with an UNCONNECTED Endpoint.
    if (ep.state !== ST.IT_EP_STATE_UNCONNECTED) fail(S.IT_ERR_INVALID_EP_STATE);
    const pd = pdataOf(private_data, pdataLimits(ep.ia).accept);
    ep.accept(req, pd);
    return { status: S.IT_SUCCESS };
  },

  it_ep_connect(ep_handle, path, conn_attr, connect_qual, cn_est_flags, private_data) {
    const ep = rcEp(ep_handle);
    if (ep.state !== ST.IT_EP_STATE_UNCONNECTED) fail(S.IT_ERR_INVALID_EP_STATE);
    const f = cn_est_flags;
    const known = CF.IT_CONNECT_FLAG_TWO_WAY | CF.IT_CONNECT_FLAG_THREE_WAY | CF.IT_CONNECT_SUPPRESS_IRD_ORD;
    if (!isUint(f) || (f & ~known) !== 0) fail(S.IT_ERR_INVALID_CN_EST_FLAGS);
    const twoWay = (f & CF.IT_CONNECT_FLAG_TWO_WAY) !== 0;
    const threeWay = (f & CF.IT_CONNECT_FLAG_THREE_WAY) !== 0;
    if (twoWay === threeWay) fail(S.IT_ERR_INVALID_CN_EST_FLAGS, 'exactly one of TWO_WAY and THREE_WAY');
    if (threeWay) fail(S.IT_ERR_INVALID_CN_EST_FLAGS, 'no three-way handshake on iWARP');
    // conn_attr: iWARP has no CM knobs; any value (or IT_NO_ADDR) means the defaults.
    void conn_attr;
    if (!path || typeof path !== 'object' || !path.remote) fail(S.IT_ERR_INVALID_SOURCE_PATH);
    if (path.spigot_id !== 0) fail(S.IT_ERR_INVALID_SPIGOT);
    if (isIb(ep.ia)) {
      connectIb(ep, path, connect_qual, private_data);
      return;
    }
    if (!('iwarp' in path.remote)) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'an iWARP path is needed');
    const iw = path.remote.iwarp;
    const v6 = iw.ip_vers === it_ip_vers_t.IT_IP_VERS_IPV6;
    const host = v6 ? ('ipv6' in iw.raddr ? iw.raddr.ipv6 : '') : 'ipv4' in iw.raddr ? iw.raddr.ipv4 : '';
    const local = v6 ? ('ipv6' in iw.laddr ? iw.laddr.ipv6 : '') : 'ipv4' in iw.laddr ? iw.laddr.ipv4 : '';
    if (!net.isIP(host)) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'remote address');
    if (local && !net.isIP(local)) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'local address');
    if (typeof path.timeout !== 'bigint' || path.timeout < 0n) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'timeout');
    let port: number;
    let localPort: number | undefined;
    if (!connect_qual || typeof connect_qual !== 'object') fail(S.IT_ERR_INVALID_CONN_QUAL);
    if (connect_qual.type === CQ.IT_IANA_PORT) port = connect_qual.conn_qual.port;
    else if (connect_qual.type === CQ.IT_IANA_LR_PORT) {
      port = connect_qual.conn_qual.lr_port.remote;
      localPort = connect_qual.conn_qual.lr_port.local;
      if (!isUint(localPort) || localPort === 0 || localPort > 0xffff) fail(S.IT_ERR_INVALID_CONN_QUAL);
    } else fail(S.IT_ERR_INVALID_CONN_QUAL, 'iWARP qualifiers are IANA ports');
    if (!isUint(port) || port === 0 || port > 0xffff) fail(S.IT_ERR_INVALID_CONN_QUAL);
    const pd = pdataOf(private_data, PDATA_CONNECT);
    const us = path.timeout === 0n ? DEFAULT_PATH_TIMEOUT_US : path.timeout;
    const timeoutMs = Math.max(1, Number((us + 999n) / 1000n));
    const opts: Parameters<Ep['connect']>[3] = { timeoutMs, pdata: pd, suppress: (f & CF.IT_CONNECT_SUPPRESS_IRD_ORD) !== 0 };
    if (local && local !== '0.0.0.0' && local !== '::') opts.localAddress = local;
    if (localPort !== undefined) opts.localPort = localPort;
    ep.connect(host, port, path, opts);
  },

  it_ep_disconnect(ep_handle, private_data) {
    const ep = rcEp(ep_handle);
    pdataOf(private_data, PDATA_DISCONNECT);
    if (ep.state === ST.IT_EP_STATE_UNCONNECTED) fail(S.IT_ERR_INVALID_EP_STATE);
    ep.disconnect();
  },

  it_ep_free(ep_handle) {
    if (ep_handle instanceof UdEp) {
      check(ep_handle, UdEp, S.IT_ERR_INVALID_EP).destroy();
      return;
    }
    const ep = rcEp(ep_handle);
    if (ep.narrowLinked > 0) fail(S.IT_ERR_EP_BUSY, 'a Narrow RMR is linked through the Endpoint');
    ep.destroy();
  },

  it_ep_modify(ep_handle, mask, ep_attr) {
    if (ep_handle instanceof UdEp) {
      const u = check(ep_handle, UdEp, S.IT_ERR_INVALID_EP);
      // A UD Endpoint: its key and its payload size.
      if (!isUint(mask) || Number(mask) === 0 || (mask & ~(EPM.IT_EP_PARAM_EP_KEY | EPM.IT_EP_PARAM_MAX_PAYLOAD)) !== 0) fail(S.IT_ERR_INVALID_MASK);
      const a = ep_attr ?? {};
      const key = a.srv && 'ud' in a.srv ? a.srv.ud.ep_info?.ud_ep_key : undefined;
      if (mask & EPM.IT_EP_PARAM_EP_KEY && (!isUint(key) || key > 0xffff_ffff || (key & 0x8000_0000) !== 0)) fail(S.IT_ERR_INVALID_EP_KEY);
      if (mask & EPM.IT_EP_PARAM_MAX_PAYLOAD && (!isUint(a.max_dto_payload_size) || a.max_dto_payload_size > UD_MAX_MESSAGE)) fail(S.IT_ERR_PAYLOAD_SIZE);
      if (mask & EPM.IT_EP_PARAM_EP_KEY && u.setKey(key!) !== RiRet.SUCCESS) fail(S.IT_ERR_INVALID_EP_STATE);
      if (mask & EPM.IT_EP_PARAM_MAX_PAYLOAD) u.attr.max_dto_payload_size = a.max_dto_payload_size!;
      return;
    }
    const ep = rcEp(ep_handle);
    if (!isUint(mask) || Number(mask) === 0 || (mask & ~EP_MODIFIABLE) !== 0) fail(S.IT_ERR_INVALID_MASK);
    if (mask & EPM.IT_EP_PARAM_EP_KEY) fail(S.IT_ERR_INVALID_MASK, 'ud_ep_key is a UD attribute');
    const ia = ep.ia;
    const l = limits(ia);
    const a = ep_attr ?? {};
    const rc: Partial<it_rc_only_attributes_t> = a.srv && 'rc' in a.srv ? a.srv.rc : {};
    const st = ep.state;
    // ---- validate everything first (the call is atomic) ----
    if (mask & (EPM.IT_EP_PARAM_RDMA_RD_ENABLE | EPM.IT_EP_PARAM_RDMA_WR_ENABLE | EPM.IT_EP_PARAM_ATOMICS_ENABLE)) {
      // ep_rdma_enables_modifiable is FALSE: the enables are creation-only.
      fail(S.IT_ERR_INVALID_MASK, 'RDMA/atomics enables are fixed at creation on this IA');
    }
    if (mask & EPM.IT_EP_PARAM_MAX_PAYLOAD) {
      if (st !== ST.IT_EP_STATE_UNCONNECTED && st !== ST.IT_EP_STATE_NONOPERATIONAL) fail(S.IT_ERR_INVALID_EP_STATE);
      if (!isUint(a.max_dto_payload_size) || a.max_dto_payload_size > MAX_RC_LEN) fail(S.IT_ERR_PAYLOAD_SIZE);
    }
    if (mask & EPM.IT_EP_PARAM_MAX_IRD) {
      if (st !== ST.IT_EP_STATE_UNCONNECTED && st !== ST.IT_EP_STATE_ACTIVE2_CONNECTION_PENDING) fail(S.IT_ERR_INVALID_EP_STATE);
      if (!isUint(rc.rdma_read_ird) || rc.rdma_read_ird > l.max_ird_per_qp) fail(S.IT_ERR_RESOURCE_IRD);
    }
    if (mask & EPM.IT_EP_PARAM_MAX_ORD) {
      if (st !== ST.IT_EP_STATE_UNCONNECTED && st !== ST.IT_EP_STATE_ACTIVE2_CONNECTION_PENDING && st !== ST.IT_EP_STATE_CONNECTED) {
        fail(S.IT_ERR_INVALID_EP_STATE);
      }
      if (!isUint(rc.rdma_read_ord) || rc.rdma_read_ord > l.max_ord_per_qp) fail(S.IT_ERR_RESOURCE_ORD);
    }
    if (mask & EPM.IT_EP_PARAM_MAX_REQ_DTO) {
      if (!isUint(a.max_request_dtos) || a.max_request_dtos > l.max_wrs_qp || a.max_request_dtos < ep.sqOutstanding) {
        fail(S.IT_ERR_RESOURCE_REQ_DTO);
      }
    }
    if (mask & EPM.IT_EP_PARAM_MAX_RECV_DTO) {
      if (ep.srq) fail(S.IT_ERR_INVALID_RECV_DTO, 'the Endpoint uses an S-RQ');
      if (!isUint(a.max_recv_dtos) || a.max_recv_dtos > l.max_wrs_qp || a.max_recv_dtos < ep.rqOutstanding) {
        fail(S.IT_ERR_RESOURCE_RECV_DTO);
      }
    }
    if (mask & EPM.IT_EP_PARAM_SOFT_HI_WATERMARK && rc.soft_hi_watermark !== 0) fail(S.IT_ERR_SOFT_HI_WATERMARK);
    if (mask & EPM.IT_EP_PARAM_HARD_HI_WATERMARK && !hwm(rc.hard_hi_watermark ?? 0)) fail(S.IT_ERR_HARD_HI_WATERMARK);
    // ---- the RNIC part, all or nothing ----
    let qmask = 0;
    const qa: { sq_size?: number; rq_size?: number; max_rdma_read_outgoing?: number; max_rdma_read_incoming?: number } = {};
    if (mask & EPM.IT_EP_PARAM_MAX_REQ_DTO && a.max_request_dtos !== ep.attr.max_request_dtos) {
      qmask |= 1 << 1;
      qa.sq_size = Math.max(1, a.max_request_dtos!);
    }
    if (mask & EPM.IT_EP_PARAM_MAX_RECV_DTO && a.max_recv_dtos !== ep.attr.max_recv_dtos) {
      qmask |= 1 << 2;
      qa.rq_size = Math.max(1, a.max_recv_dtos!);
    }
    if (mask & EPM.IT_EP_PARAM_MAX_ORD) {
      qmask |= 1 << 3;
      qa.max_rdma_read_outgoing = rc.rdma_read_ord!;
    }
    if (mask & EPM.IT_EP_PARAM_MAX_IRD) {
      qmask |= 1 << 4;
      qa.max_rdma_read_incoming = rc.rdma_read_ird!;
    }
    if (qmask !== 0) {
      // CQ room for bigger work queues first, so that a refusal changes nothing.
      const growReq = qa.sq_size !== undefined ? Math.max(0, qa.sq_size - ep.cqReservation.req) : 0;
      const growRecv = qa.rq_size !== undefined ? Math.max(0, qa.rq_size - ep.cqReservation.recv) : 0;
      if (!ep.reqEvd.reserveCq(growReq)) fail(S.IT_ERR_RESOURCE_REQ_DTO);
      if (!ep.recvEvd.reserveCq(growRecv)) {
        ep.reqEvd.unreserveCq(growReq);
        fail(S.IT_ERR_RESOURCE_RECV_DTO);
      }
      const r = ia.ops.ri_qp_modify(ia.rnic, ep.qp, qmask, qa);
      if (r.status !== RiRet.SUCCESS) {
        ep.reqEvd.unreserveCq(growReq);
        ep.recvEvd.unreserveCq(growRecv);
        // The RNIC changes attributes only while the QP is Idle or RTS (RNICPI ri_qp_modify).
        if (r.status === RiRet.RNIC_WR_LIMIT_EXCEEDED || r.status === RiRet.QP_CANNOT_SHRINK) {
          fail(qmask & (1 << 2) ? S.IT_ERR_RESOURCE_RECV_DTO : S.IT_ERR_RESOURCE_REQ_DTO);
        }
        if (r.status === RiRet.RNIC_IRD_ORD_EXCEEDED) fail(qmask & (1 << 4) ? S.IT_ERR_RESOURCE_IRD : S.IT_ERR_RESOURCE_ORD);
        fail(S.IT_ERR_INVALID_EP_STATE, `ri_qp_modify: ${RiRet[r.status]}`);
      }
      ep.cqReservation.req += growReq;
      ep.cqReservation.recv += growRecv;
      if (qa.sq_size !== undefined) ep.attr.max_request_dtos = r.attrs.sq_size;
      if (qa.rq_size !== undefined) ep.attr.max_recv_dtos = r.attrs.rq_size;
      if (qa.max_rdma_read_outgoing !== undefined) ep.attr.rdma_read_ord = qa.max_rdma_read_outgoing;
      if (qa.max_rdma_read_incoming !== undefined) ep.attr.rdma_read_ird = qa.max_rdma_read_incoming;
    }
    if (mask & EPM.IT_EP_PARAM_MAX_PAYLOAD) ep.attr.max_dto_payload_size = a.max_dto_payload_size!;
  },

  it_ep_query(ep_handle, mask) {
    if (ep_handle instanceof UdEp) {
      const u = check(ep_handle, UdEp, S.IT_ERR_INVALID_EP);
      checkMask(mask, (1 << 28) - 1);
      return udEpParams(u, mask);
    }
    const ep = rcEp(ep_handle);
    checkMask(mask, (1 << 28) - 1);
    return epParams(ep, mask);
  },

  it_ep_rc_create(pz_handle, request_sevd_handle, recv_sevd_handle, connect_sevd_handle, flags, ep_attr) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    const ia = pz.ia;
    const evdOf = (h: unknown, invalid: S): Evd => {
      const e = check(h, Evd, invalid);
      if (e.ia !== ia) fail(invalid);
      return e;
    };
    const req = evdOf(request_sevd_handle, S.IT_ERR_INVALID_REQ_EVD);
    const recv = evdOf(recv_sevd_handle, S.IT_ERR_INVALID_RECV_EVD);
    const conn = evdOf(connect_sevd_handle, S.IT_ERR_INVALID_CONN_EVD);
    if (!(req instanceof Sevd) || req.stream !== ET.IT_DTO_EVENT_STREAM) fail(S.IT_ERR_INVALID_EVD_TYPE, 'request SEVD');
    if (!(recv instanceof Sevd) || recv.stream !== ET.IT_DTO_EVENT_STREAM) fail(S.IT_ERR_INVALID_EVD_TYPE, 'recv SEVD');
    if (!(conn instanceof Sevd) || conn.stream !== ET.IT_CM_MSG_EVENT_STREAM) fail(S.IT_ERR_INVALID_EVD_TYPE, 'connect SEVD');
    if (req.overflowed || req.dtoDead) fail(S.IT_ERR_INVALID_REQ_EVD_STATE);
    if (recv.overflowed || recv.dtoDead) fail(S.IT_ERR_INVALID_RECV_EVD_STATE);
    if (!isUint(flags) || (flags & ~(EPF.IT_EP_REUSEADDR | EPF.IT_EP_SRQ)) !== 0) fail(S.IT_ERR_INVALID_FLAGS);
    const { attr, srq } = checkEpAttrs(ia, ep_attr, flags);
    const ep = new Ep(ia, pz, req, recv, conn, flags, srq, attr);
    const sq = Math.max(1, attr.max_request_dtos);
    const rq = srq ? srq.maxRecvDtos : Math.max(1, attr.max_recv_dtos);
    if (!req.reserveCq(sq)) fail(S.IT_ERR_RESOURCES, 'request SEVD completion queue');
    if (!recv.reserveCq(rq)) {
      req.unreserveCq(sq);
      fail(S.IT_ERR_RESOURCES, 'recv SEVD completion queue');
    }
    ep.cqReservation = { req: sq, recv: rq };
    const st = ep.createQp();
    if (st !== RiRet.SUCCESS) {
      req.unreserveCq(sq);
      recv.unreserveCq(rq);
      if (st === RiRet.RNIC_WR_LIMIT_EXCEEDED) fail(S.IT_ERR_RESOURCE_REQ_DTO);
      if (st === RiRet.RNIC_SG_LIMIT_EXCEEDED) fail(S.IT_ERR_RESOURCE_SSEG);
      if (st === RiRet.RNIC_IRD_ORD_EXCEEDED) fail(S.IT_ERR_RESOURCE_IRD);
      fail(S.IT_ERR_RESOURCES, `ri_qp_create: ${RiRet[st]}`);
    }
    for (const e of [req, recv, conn]) e.feeders++;
    req.eps.add(ep);
    recv.eps.add(ep);
    if (srq) srq.users++;
    ia.eps.add(ep);
    return ep;
  },

  it_ep_reset(ep_handle) {
    const ep = rcEp(ep_handle);
    if (ep.state !== ST.IT_EP_STATE_NONOPERATIONAL) fail(S.IT_ERR_INVALID_EP_STATE);
    if (ep.cannotReset) fail(S.IT_ERR_CANNOT_RESET, 'broken by a DTO SEVD overflow');
    if (!ep.reset()) fail(S.IT_ERR_CANNOT_RESET, 'the connection is still being torn down with RMRs linked');
  },

  it_ep_ud_create(pz_handle, request_sevd_handle, recv_sevd_handle, ep_attr, spigot_id) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    const ia = pz.ia;
    if (!isIb(ia)) fail(S.IT_ERR_OP_NOT_SUPPORTED, 'no UD service on an iWARP IA');
    const evdOf = (h: unknown, invalid: S): Evd => {
      const e = check(h, Evd, invalid);
      if (e.ia !== ia) fail(invalid);
      return e;
    };
    const req = evdOf(request_sevd_handle, S.IT_ERR_INVALID_REQ_EVD);
    const recv = evdOf(recv_sevd_handle, S.IT_ERR_INVALID_RECV_EVD);
    if (!(req instanceof Sevd) || req.stream !== ET.IT_DTO_EVENT_STREAM) fail(S.IT_ERR_INVALID_EVD_TYPE, 'request SEVD');
    if (!(recv instanceof Sevd) || recv.stream !== ET.IT_DTO_EVENT_STREAM) fail(S.IT_ERR_INVALID_EVD_TYPE, 'recv SEVD');
    if (req.overflowed || req.dtoDead) fail(S.IT_ERR_INVALID_REQ_EVD_STATE);
    if (recv.overflowed || recv.dtoDead) fail(S.IT_ERR_INVALID_RECV_EVD_STATE);
    if (spigot_id !== 0) fail(S.IT_ERR_INVALID_SPIGOT);
    const l = limits(ia);
    const a = ep_attr;
    if (!a || typeof a !== 'object' || !a.srv || !('ud' in a.srv)) fail(S.IT_ERR_INVALID_EP_KEY, 'UD attributes (srv.ud) required');
    if (!isUint(a.max_dto_payload_size) || a.max_dto_payload_size > UD_MAX_MESSAGE) fail(S.IT_ERR_PAYLOAD_SIZE, `a UD message is at most ${UD_MAX_MESSAGE} octets`);
    if (!isUint(a.max_request_dtos) || a.max_request_dtos > l.max_wrs_qp) fail(S.IT_ERR_RESOURCE_REQ_DTO);
    if (!isUint(a.max_recv_dtos) || a.max_recv_dtos > l.max_wrs_qp) fail(S.IT_ERR_RESOURCE_RECV_DTO);
    if (!isUint(a.max_send_segments) || a.max_send_segments > l.max_sgl_send_recvqp) fail(S.IT_ERR_RESOURCE_SSEG);
    if (!isUint(a.max_recv_segments) || a.max_recv_segments > l.max_sgl_send_recvqp) fail(S.IT_ERR_RESOURCE_RSEG);
    if (a.priv_ops_enable) fail(S.IT_ERR_PRIV_OPS_UNAVAILABLE, 'no privileged operations on UD Endpoints');
    const key = a.srv.ud.ep_info?.ud_ep_key;
    if (!isUint(key) || key > 0xffff_ffff || (key & 0x8000_0000) !== 0) fail(S.IT_ERR_INVALID_EP_KEY, 'a Q_Key below 0x80000000 (the high bit is for privileged keys)');
    const ep = new UdEp(
      ia,
      pz,
      req,
      recv,
      {
        max_dto_payload_size: a.max_dto_payload_size,
        max_request_dtos: a.max_request_dtos,
        max_recv_dtos: a.max_recv_dtos,
        max_send_segments: a.max_send_segments,
        max_recv_segments: a.max_recv_segments,
        ud_ep_key: key,
      },
      spigot_id,
    );
    const sq = Math.max(1, a.max_request_dtos);
    const rq = Math.max(1, a.max_recv_dtos);
    if (!req.reserveCq(sq)) fail(S.IT_ERR_RESOURCES, 'request SEVD completion queue');
    if (!recv.reserveCq(rq)) {
      req.unreserveCq(sq);
      fail(S.IT_ERR_RESOURCES, 'recv SEVD completion queue');
    }
    ep.cqReservation = { req: sq, recv: rq };
    const st = ep.createQp();
    if (st !== RiRet.SUCCESS) {
      req.unreserveCq(sq);
      recv.unreserveCq(rq);
      if (st === RiRet.RNIC_WR_LIMIT_EXCEEDED) fail(S.IT_ERR_RESOURCE_REQ_DTO);
      if (st === RiRet.RNIC_SG_LIMIT_EXCEEDED) fail(S.IT_ERR_RESOURCE_SSEG);
      fail(S.IT_ERR_RESOURCES, `ri_qp_create: ${RiRet[st]}`);
    }
    req.feeders++;
    recv.feeders++;
    req.eps.add(ep as never);
    recv.eps.add(ep as never);
    ia.udEps.add(ep);
    return ep as never;
  },

  // ---- Event Dispatchers -----------------------------------------------------------------

  it_evd_callback_attach(evd_handle, callback, arg) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    if (!e.ia.privileged) fail(S.IT_ERR_NO_PERMISSION, 'callbacks are for Privileged Consumers');
    if (e.cb) fail(S.IT_ERR_CALLBACK_EXISTS);
    if (e.waiters.length > 0) fail(S.IT_ERR_EVD_WAIT);
    if (e.fd >= 0) fail(S.IT_ERR_INVALID_EVD_STATE, 'the EVD has an fd');
    if (e instanceof Sevd && e.aevd) fail(S.IT_ERR_INVALID_EVD_STATE, 'the SEVD feeds an AEVD');
    if (typeof callback !== 'function') fail(S.IT_ERR_INVALID_EVD_STATE, 'no callback function');
    e.attachCallback(callback, arg);
    e.maybeCallback();
  },

  it_evd_callback_detach(evd_handle) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    if (!e.ia.privileged) fail(S.IT_ERR_NO_PERMISSION);
    if (!e.cb) fail(S.IT_ERR_INVALID_EVD_STATE, 'no callback attached');
    e.cb = null;
    e.cbArmed = false;
  },

  it_evd_create(ia_handle, event_number, evd_flag, sevd_queue_size, sevd_threshold, aevd_handle) {
    const ia = check(ia_handle, Ia, S.IT_ERR_INVALID_IA);
    if (!isUint(event_number) || !isItEventStream(event_number)) fail(S.IT_ERR_INVALID_EVD_TYPE);
    checkEvdFlags(event_number, evd_flag);
    const fdWanted = (evd_flag & EF.IT_EVD_CREATE_FD) !== 0;
    if (event_number === ET.IT_AEVD_NOTIFICATION_EVENT_STREAM) {
      if (aevd_handle !== null && aevd_handle !== undefined) fail(S.IT_ERR_AEVD_NOT_ALLOWED);
      const a = new Aevd(ia, evd_flag, fdWanted ? nextFd() : -1);
      ia.evds.add(a);
      return { evd_handle: a, fd: a.fd };
    }
    let aevd: Aevd | null = null;
    if (aevd_handle !== null && aevd_handle !== undefined) {
      if (fdWanted) fail(S.IT_ERR_MISMATCH_FD, 'an SEVD feeding an AEVD has no fd');
      const x = check(aevd_handle, Evd, S.IT_ERR_INVALID_AEVD);
      if (!(x instanceof Aevd) || x.ia !== ia) fail(S.IT_ERR_INVALID_AEVD);
      aevd = x;
    }
    if (event_number === ET.IT_ASYNC_AFF_EVENT_STREAM && ia.affEvd) fail(S.IT_ERR_ASYNC_AFF_EVD_EXISTS);
    if (event_number === ET.IT_ASYNC_UNAFF_EVENT_STREAM && ia.unaffEvd) fail(S.IT_ERR_ASYNC_UNAFF_EVD_EXISTS);
    if (!isUint(sevd_queue_size)) fail(S.IT_ERR_RESOURCE_QUEUE_SIZE);
    if (sevd_queue_size > MAX_SEVD_QUEUE) fail(S.IT_ERR_RESOURCE_QUEUE_SIZE, `at most ${MAX_SEVD_QUEUE}`);
    const size = Math.max(1, sevd_queue_size);
    if (!isUint(sevd_threshold) || sevd_threshold > size) fail(S.IT_ERR_INVALID_THRESHOLD);
    const s = new Sevd(ia, event_number, evd_flag, fdWanted ? nextFd() : -1, size, sevd_threshold);
    if (event_number === ET.IT_DTO_EVENT_STREAM && !s.createCq()) fail(S.IT_ERR_RESOURCES, 'completion queue');
    ia.evds.add(s);
    if (event_number === ET.IT_ASYNC_AFF_EVENT_STREAM) ia.affEvd = s;
    if (event_number === ET.IT_ASYNC_UNAFF_EVENT_STREAM) ia.unaffEvd = s;
    if (aevd) aevd.attach(s);
    return { evd_handle: s, fd: s.fd };
  },

  it_evd_dequeue(evd_handle) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    checkDequeueState(e, false);
    const ev = e.dequeue();
    return ev ? { status: S.IT_SUCCESS, event: ev } : { status: S.IT_ERR_QUEUE_EMPTY };
  },

  it_evd_free(evd_handle) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    if (e.cbRunning) fail(S.IT_ERR_INVALID_EVD_STATE, 'a callback invocation is running');
    if (e instanceof Sevd) {
      const selfFed =
        e.stream === ET.IT_ASYNC_AFF_EVENT_STREAM || e.stream === ET.IT_ASYNC_UNAFF_EVENT_STREAM || e.stream === ET.IT_SOFTWARE_EVENT_STREAM;
      if (!selfFed && e.feeders > 0) fail(S.IT_ERR_EVD_BUSY, 'still fed by an Endpoint or Listen');
    } else if ((e as Aevd).members.size > 0) {
      fail(S.IT_ERR_EVD_BUSY, 'SEVDs still feed the AEVD');
    }
    e.destroy();
  },

  it_evd_modify(evd_handle, mask, params) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    const modifiable = EVM.IT_EVD_PARAM_QUEUE_SIZE | EVM.IT_EVD_PARAM_THRESHOLD | EVM.IT_EVD_PARAM_AEVD_HANDLE | EVM.IT_EVD_PARAM_ENABLED | EVM.IT_EVD_PARAM_OVERFLOWED;
    if (!isUint(mask) || Number(mask) === 0 || (mask & ~modifiable) !== 0) fail(S.IT_ERR_INVALID_MASK);
    const p = params ?? {};
    const enabledAfter = mask & EVM.IT_EVD_PARAM_ENABLED ? p.evd_enabled === true : e.enabled;
    if (e instanceof Aevd) {
      const sevdOnly = EVM.IT_EVD_PARAM_QUEUE_SIZE | EVM.IT_EVD_PARAM_THRESHOLD | EVM.IT_EVD_PARAM_AEVD_HANDLE | EVM.IT_EVD_PARAM_OVERFLOWED;
      if (mask & sevdOnly) fail(S.IT_ERR_INVALID_MASK, 'queue size, threshold, AEVD and overflow are SEVD parameters');
      if (mask & EVM.IT_EVD_PARAM_ENABLED) {
        e.setEnabled(enabledAfter);
        e.wake();
      }
      return;
    }
    const s = e as Sevd;
    s.sync();
    const size = mask & EVM.IT_EVD_PARAM_QUEUE_SIZE ? p.sevd_queue_size : s.queueSize;
    const threshold = mask & EVM.IT_EVD_PARAM_THRESHOLD ? p.sevd_threshold : s.threshold;
    if (mask & EVM.IT_EVD_PARAM_QUEUE_SIZE) {
      if (!isUint(size) || size > MAX_SEVD_QUEUE) fail(S.IT_ERR_RESOURCE_QUEUE_SIZE);
      if (size < s.length || size < 1) fail(S.IT_ERR_INVALID_QUEUE_SIZE, `${s.length} Events are queued`);
      if (isUint(threshold) && size < threshold) fail(S.IT_ERR_INVALID_QUEUE_SIZE, 'below the threshold');
    }
    if (mask & EVM.IT_EVD_PARAM_THRESHOLD) {
      if (!isUint(threshold) || threshold > (size as number)) fail(S.IT_ERR_INVALID_THRESHOLD);
    }
    let newAevd: Aevd | null | undefined;
    if (mask & EVM.IT_EVD_PARAM_AEVD_HANDLE) {
      const h = p.aevd ?? null;
      if (h !== null) {
        const x = check(h, Evd, S.IT_ERR_INVALID_AEVD);
        if (!(x instanceof Aevd) || x.ia !== s.ia) fail(S.IT_ERR_INVALID_AEVD);
        newAevd = x;
        if (s.cb) fail(S.IT_ERR_CALLBACK_EXISTS, 'the SEVD has a callback');
      } else newAevd = null;
      if (newAevd !== s.aevd) {
        // Re-association: only a disabled SEVD without fd, and only away from an
        // AEVD that hands out Notifications (a plain AEVD link is permanent).
        if (enabledAfter) fail(S.IT_ERR_INVALID_EVD_STATE, 'disable the SEVD first');
        if (s.fd >= 0) fail(S.IT_ERR_INVALID_EVD_STATE, 'the SEVD has an fd');
        if (s.aevd && !s.aevd.dequeueNotifications) fail(S.IT_ERR_INVALID_EVD_STATE, 'a link to a plain AEVD is permanent');
      }
    }
    if (mask & EVM.IT_EVD_PARAM_OVERFLOWED && p.evd_overflowed !== false) {
      fail(S.IT_ERR_INVALID_MASK, 'evd_overflowed can only be cleared');
    }
    // ---- apply ----
    if (mask & EVM.IT_EVD_PARAM_QUEUE_SIZE && size !== s.queueSize) {
      if (!s.resize(size as number)) fail(S.IT_ERR_RESOURCE_QUEUE_SIZE);
    }
    if (mask & EVM.IT_EVD_PARAM_THRESHOLD) s.threshold = threshold as number;
    if (mask & EVM.IT_EVD_PARAM_OVERFLOWED) s.clearOverflow();
    if (newAevd !== undefined && newAevd !== s.aevd) {
      s.aevd?.detach(s);
      if (newAevd) newAevd.attach(s);
    }
    if (mask & EVM.IT_EVD_PARAM_ENABLED) s.setEnabled(enabledAfter);
    s.changed();
  },

  it_evd_post_se(evd_handle, event) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    if (!(e instanceof Sevd) || e.stream !== ET.IT_SOFTWARE_EVENT_STREAM) fail(S.IT_ERR_INVALID_SOFT_EVD);
    if (e.full) return { status: S.IT_ERR_EVD_QUEUE_FULL };
    e.post({ event_number: ET.IT_SOFTWARE_EVENT, evd: e, data: event }, true);
    return { status: S.IT_SUCCESS };
  },

  it_evd_query(evd_handle, mask) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    checkMask(mask, (1 << 12) - 1);
    e.sync();
    const s = e instanceof Sevd ? e : null;
    const a = e instanceof Aevd ? e : null;
    const bound = s
      ? s.feeders > 0 ||
        s.aevd !== null ||
        s.stream === ET.IT_ASYNC_AFF_EVENT_STREAM ||
        s.stream === ET.IT_ASYNC_UNAFF_EVENT_STREAM ||
        s.stream === ET.IT_SOFTWARE_EVENT_STREAM
      : a!.members.size > 0;
    const full: it_evd_param_t = {
      ia: e.ia,
      event_number: s ? s.stream : ET.IT_AEVD_NOTIFICATION_EVENT_STREAM,
      evd_flag: e.flags,
      sevd_queue_size: s ? s.queueSize : 0,
      sevd_threshold: s ? s.threshold : 0,
      aevd: s ? s.aevd : null,
      fd: e.fd,
      evd_bound: bound,
      evd_enabled: e.enabled,
      evd_overflowed: s ? s.overflowed : false,
      evd_callback: e.cb !== null,
    };
    return pick(mask, full, [
      [EVM.IT_EVD_PARAM_IA, 'ia'],
      [EVM.IT_EVD_PARAM_EVENT_NUMBER, 'event_number'],
      [EVM.IT_EVD_PARAM_FLAG, 'evd_flag'],
      [EVM.IT_EVD_PARAM_QUEUE_SIZE, 'sevd_queue_size'],
      [EVM.IT_EVD_PARAM_THRESHOLD, 'sevd_threshold'],
      [EVM.IT_EVD_PARAM_AEVD_HANDLE, 'aevd'],
      [EVM.IT_EVD_PARAM_FD, 'fd'],
      [EVM.IT_EVD_PARAM_BOUND, 'evd_bound'],
      [EVM.IT_EVD_PARAM_ENABLED, 'evd_enabled'],
      [EVM.IT_EVD_PARAM_OVERFLOWED, 'evd_overflowed'],
      [EVM.IT_EVD_PARAM_CALLBACK, 'evd_callback'],
    ]);
  },

  async it_evd_wait(evd_handle, timeout, options?: ItWaitOptions) {
    const e = check(evd_handle, Evd, S.IT_ERR_INVALID_EVD);
    checkDequeueState(e, true);
    if (e.cb) fail(S.IT_ERR_CALLBACK_EXISTS, 'the EVD has a callback');
    if (e instanceof Sevd && e.threshold > 1 && e.waiters.length > 0) fail(S.IT_ERR_WAITER_LIMIT);
    const t = typeof timeout === 'bigint' ? timeout : BigInt(timeout as number);
    return e.wait(t < 0n ? IT_TIMEOUT_INFINITE : t, options?.signal);
  },

  // ---- Handles, contexts, paths ------------------------------------------------------------

  it_get_consumer_context(handle) {
    const h = checkHandle(handle);
    const c = h.context;
    if (c === null || c === 0n) return { status: S.IT_ERR_NO_CONTEXT, context: 0n };
    return { status: S.IT_SUCCESS, context: c };
  },

  it_get_handle_type(handle) {
    return checkHandle(handle)[IT_HANDLE_KIND];
  },

  async it_get_pathinfo(ia_handle, spigot_id, net_addr, num_paths, options?: ItWaitOptions) {
    check(ia_handle, Ia, S.IT_ERR_INVALID_IA);
    if (spigot_id !== 0) fail(S.IT_ERR_INVALID_SPIGOT);
    if (!net_addr || typeof net_addr !== 'object') fail(S.IT_ERR_INVALID_ADDRESS);
    const t = net_addr.addr_type;
    if (t !== NA.IT_IPV4 && t !== NA.IT_IPV6) fail(S.IT_ERR_INVALID_NETADDR, 'an iWARP path needs an IP address');
    const ip = 'ipv4' in net_addr.addr ? net_addr.addr.ipv4 : 'ipv6' in net_addr.addr ? net_addr.addr.ipv6 : '';
    if (t === NA.IT_IPV4 ? !net.isIPv4(ip) : !net.isIPv6(ip)) fail(S.IT_ERR_INVALID_ADDRESS);
    if (!isUint(num_paths)) fail(S.IT_ERR_INVALID_ADDRESS, 'num_paths');
    if (options?.signal?.aborted) return { status: S.IT_ERR_INTERRUPT };
    if (isIb(ia_handle as Ia)) {
      // RoCE: IPv4 only (its GIDs are IPv4-mapped); the source is the route's, as rdma_cm's.
      if (t !== NA.IT_IPV4) fail(S.IT_ERR_INVALID_NETADDR, 'RoCE paths are to IPv4 addresses');
      const src = await roceSourceFor(roceAddresses((ia_handle as Ia).device), ip);
      if (!src) fail(S.IT_ERR_INVALID_NETADDR, 'the RoCE Interface has no IPv4 address');
      return { status: S.IT_SUCCESS, paths: num_paths > 0 ? [ibPathOf(src, ip, DEFAULT_PATH_TIMEOUT_US)] : [], total_paths: 1 };
    }
    // One path: the local address the stack would use (loopback for loopback, else unspecified
    // and chosen by the routing table at connect time).
    const loop = t === NA.IT_IPV4 ? ip.startsWith('127.') : ip === '::1';
    const path: it_path_t =
      t === NA.IT_IPV4
        ? {
            spigot_id: 0,
            timeout: DEFAULT_PATH_TIMEOUT_US,
            remote: { iwarp: { ip_vers: it_ip_vers_t.IT_IP_VERS_IPV4, laddr: { ipv4: loop ? '127.0.0.1' : '0.0.0.0' }, raddr: { ipv4: ip } } },
          }
        : {
            spigot_id: 0,
            timeout: DEFAULT_PATH_TIMEOUT_US,
            remote: { iwarp: { ip_vers: it_ip_vers_t.IT_IP_VERS_IPV6, laddr: { ipv6: loop ? '::1' : '::' }, raddr: { ipv6: ip } } },
          };
    return { status: S.IT_SUCCESS, paths: num_paths > 0 ? [path] : [], total_paths: 1 };
  },

  it_handoff(conn_qual, spigot_id, cn_est_id) {
    const req = cnOf(cn_est_id);
    if (spigot_id !== 0) fail(S.IT_ERR_INVALID_SPIGOT);
    if (!conn_qual || conn_qual.type !== CQ.IT_IANA_PORT) fail(S.IT_ERR_INVALID_CONN_QUAL);
    const port = conn_qual.conn_qual.port;
    const target = [...req.ia.listens].find((l) => !l.freed && l.port === port && l.spigot === spigot_id);
    if (!target) fail(S.IT_ERR_INVALID_CONN_QUAL, 'no Listen of this IA on that qualifier');
    req.consume();
    deliverRequest(target, new PendingRequest(req.ia, req.cm, target.suppressIrdOrd), req.event);
  },

  it_hton64(hostint) {
    return swap64(hostint);
  },
  it_ntoh64(netint) {
    return swap64(netint);
  },

  // ---- Interface Adapter -------------------------------------------------------------------

  it_ia_create(name, major_version, minor_version) {
    const dev = typeof name === 'string' ? itDevice(name) : undefined;
    if (!dev) fail(S.IT_ERR_INVALID_NAME);
    if (major_version !== 2) fail(S.IT_ERR_INVALID_MAJOR_VERSION, 'this Interface implements IT-API 2.x');
    if (!isUint(minor_version) || minor_version > 1) fail(S.IT_ERR_INVALID_MINOR_VERSION);
    const r = dev.ops.ri_rnic_get_hdl(dev.vp, IA_RNIC_LOCATION, null, null);
    if (r.status !== RiRet.SUCCESS) fail(S.IT_ERR_RESOURCES, `ri_rnic_get_hdl: ${RiRet[r.status]}`);
    const ia = new Ia(dev, r.rnic, softrdmaItapiPrivileged(), major_version, minor_version);
    if (ia.privileged) {
      // The Direct LMR Handle (STag 0, I/O addresses, privileged Endpoints only).
      const direct = new Lmr(ia, null as unknown as Pz, null, 0, 0);
      direct.privs = PRIV.IT_PRIV_LOCAL;
      ia.directLmr = direct;
    }
    return ia;
  },

  it_ia_free(ia_handle) {
    if (!(ia_handle instanceof Ia) || ia_handle.freed) fail(S.IT_ERR_INVALID_IA);
    if (ia_handle.callbackRunning()) fail(S.IT_ERR_INVALID_EVD_STATE, 'an EVD callback is running');
    ia_handle.destroy();
  },

  it_ia_info_free(ia_info) {
    for (const d of itDevices()) {
      for (const l of d.listeners) if (l instanceof Ia) l.infos.delete(ia_info);
    }
  },

  it_ia_query(ia_handle) {
    const ia = check(ia_handle, Ia, S.IT_ERR_INVALID_IA);
    const info = iaInfo(ia);
    ia.infos.add(info);
    return info;
  },

  it_interface_list(num_interfaces) {
    const all: it_interface_t[] = itDevices().map((d) => ({
      major_version: 2,
      minor_version: 1,
      transport_type: transportOfDevice(d),
      name: d.name,
    }));
    const n = isUint(num_interfaces) ? num_interfaces : 0;
    return { interfaces: all.slice(0, n), total_interfaces: all.length };
  },

  // ---- Listen Points -----------------------------------------------------------------------

  it_listen_create(ia_handle, spigot_id, connect_evd, flags, conn_qual) {
    const ia = check(ia_handle, Ia, S.IT_ERR_INVALID_IA);
    if (spigot_id !== 0) fail(S.IT_ERR_INVALID_SPIGOT);
    const e = check(connect_evd, Evd, S.IT_ERR_INVALID_CONN_EVD);
    if (e.ia !== ia) fail(S.IT_ERR_INVALID_CONN_EVD);
    if (!(e instanceof Sevd) || e.stream !== ET.IT_CM_REQ_EVENT_STREAM) fail(S.IT_ERR_INVALID_EVD_TYPE);
    if (!isUint(flags) || (flags & ~(LFL.IT_LISTEN_CONN_QUAL_INPUT | LFL.IT_LISTEN_SUPPRESS_IRD_ORD)) !== 0) fail(S.IT_ERR_INVALID_FLAGS);
    if (!conn_qual || conn_qual.type !== CQ.IT_IANA_PORT) fail(S.IT_ERR_INVALID_CONN_QUAL, 'Listen Points are on IANA ports (iWARP; RoCE: rdma_cm service IDs)');
    const input = (flags & LFL.IT_LISTEN_CONN_QUAL_INPUT) !== 0;
    let port = 0;
    if (input) {
      port = conn_qual.conn_qual.port;
      if (!isUint(port) || port === 0 || port > 0xffff) fail(S.IT_ERR_INVALID_CONN_QUAL);
      // One Listen per port and Interface (iWARP's TCP port and RoCE's service ID are apart).
      for (const x of ia.device.listeners) {
        if (x instanceof Ia) for (const l of x.listens) if (!l.freed && l.port === port) fail(S.IT_ERR_CONN_QUAL_BUSY);
      }
    }
    const suppress = (flags & LFL.IT_LISTEN_SUPPRESS_IRD_ORD) !== 0;
    if (isIb(ia)) {
      const roce = roceCm(ia.device);
      if (typeof roce === 'number') fail(S.IT_ERR_RESOURCES, `the CM (QP1) cannot be opened: ${RiRet[roce]}`);
      const ibl = IbItListen.listen(roce, port);
      if (!ibl) fail(input ? S.IT_ERR_CONN_QUAL_BUSY : S.IT_ERR_RESOURCES, `service ID of port ${port} taken`);
      const l = new Listen(ia, spigot_id, e, ibl.port, ibl, suppress);
      e.feeders++;
      ia.listens.add(l);
      return { listen_handle: l, conn_qual: l.connQual };
    }
    const cm = CmListener.listenSync({ port, revision: suppress ? 1 : 2 });
    if (!cm) fail(input ? S.IT_ERR_CONN_QUAL_BUSY : S.IT_ERR_RESOURCES, `port ${port} cannot be bound`);
    const l = new Listen(ia, spigot_id, e, cm.port, cm, suppress);
    e.feeders++;
    ia.listens.add(l);
    return { listen_handle: l, conn_qual: l.connQual };
  },

  it_listen_free(listen_handle) {
    check(listen_handle, Listen, S.IT_ERR_INVALID_LISTEN).destroy();
  },

  it_listen_query(listen_handle, mask) {
    const l = check(listen_handle, Listen, S.IT_ERR_INVALID_LISTEN);
    checkMask(mask, LPM.IT_LISTEN_PARAM_ALL | LPM.IT_LISTEN_PARAM_IA_HANDLE | LPM.IT_LISTEN_PARAM_SPIGOT_ID | LPM.IT_LISTEN_PARAM_CONNECT_EVD | LPM.IT_LISTEN_PARAM_CONN_QUAL);
    return pick(mask, { ia_handle: l.ia, spigot_id: l.spigot, connect_evd: l.evd, connect_qual: l.connQual }, [
      [LPM.IT_LISTEN_PARAM_IA_HANDLE, 'ia_handle'],
      [LPM.IT_LISTEN_PARAM_SPIGOT_ID, 'spigot_id'],
      [LPM.IT_LISTEN_PARAM_CONNECT_EVD, 'connect_evd'],
      [LPM.IT_LISTEN_PARAM_CONN_QUAL, 'connect_qual'],
    ]);
  },

  // ---- Local Memory Regions ------------------------------------------------------------------

  it_lmr_create(pz_handle, addr, iobl, length, addr_mode, privs, flags, shared_id) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    const ia = pz.ia;
    const fl = Number(flags) === 0 ? LF.IT_LMR_FLAG_NONE : flags;
    const definedFlags = LF.IT_LMR_FLAG_NONE | LF.IT_LMR_FLAG_SHARED | LF.IT_LMR_FLAG_NONCOHERENT | LF.IT_LMR_FLAG_NON_SHAREABLE;
    if (!isUint(fl) || (fl & ~definedFlags) !== 0) fail(S.IT_ERR_INVALID_FLAGS);
    if (fl & LF.IT_LMR_FLAG_SHARED && fl & LF.IT_LMR_FLAG_NON_SHAREABLE) fail(S.IT_ERR_INVALID_FLAGS);
    checkAddrMode(addr_mode);
    checkPrivs(privs);
    const rel = addr_mode === AM.IT_ADDR_MODE_RELATIVE;
    const va = addrOf(addr);
    if (iobl !== null && iobl !== undefined) {
      if (!ia.privileged) fail(S.IT_ERR_NO_PERMISSION, 'I/O Buffer Lists are for Privileged Consumers');
      return createLmrIobl(ia, pz, va, iobl, length, addr_mode, privs, fl, shared_id);
    }
    if (!isUint(length) || length === 0 || length > MAX_RC_LEN) fail(S.IT_ERR_INVALID_LENGTH);
    if (va === null || !hostMemory.resolve(va, length)) fail(S.IT_ERR_FAULT, 'the range is not host memory');
    const lmr = new Lmr(ia, pz, null, fl, shared_id ?? 0);
    const attr = { va, length, mem_attr: memAttrOf(privs, rel), pd: pz.pd };
    let r: { status: RiRet; mr?: unknown; out_mr?: unknown; ltag?: number; rtag?: number };
    const match =
      fl & LF.IT_LMR_FLAG_SHARED
        ? [...ia.lmrs].find(
            (o) =>
              !o.freed &&
              !o.direct &&
              o.linked &&
              !o.unlinkedCreate &&
              o.sharedId === (shared_id ?? 0) &&
              o.addr === va &&
              o.length === length &&
              o.addrMode === addr_mode &&
              (o.flags & LF.IT_LMR_FLAG_NON_SHAREABLE) === 0 &&
              (o.flags & LF.IT_LMR_FLAG_NONCOHERENT) === (fl & LF.IT_LMR_FLAG_NONCOHERENT),
          )
        : undefined;
    if (match) {
      r = ia.ops.ri_mr_reg_shared(ia.rnic, match.mr!, attr, 0, null, lmr);
    } else {
      r = ia.ops.ri_mr_reg(ia.rnic, attr, 0, null, lmr);
    }
    if (r.status !== RiRet.SUCCESS) fail(regError(r.status), `registration: ${RiRet[r.status]}`);
    lmr.mr = (r.mr ?? r.out_mr) as Lmr['mr'];
    lmr.ltag = r.ltag!;
    lmr.addr = va;
    lmr.length = length;
    lmr.privs = privs;
    lmr.addrMode = addr_mode;
    lmr.rmrContext = privs & PRIV.IT_PRIV_REMOTE ? (r.rtag ?? r.ltag!) : null;
    if (match) {
      lmr.shared = true;
      match.shared = true;
    }
    ia.lmrs.add(lmr);
    return { lmr_handle: lmr, rmr_context: lmr.rmrContext };
  },

  it_lmr_create_unlinked(pz_handle, iobl_num_elts, flags, shared_id) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    const ia = pz.ia;
    if (!ia.privileged) fail(S.IT_ERR_NO_PERMISSION, 'unlinked LMRs are for Privileged Consumers');
    const fl = Number(flags) === 0 ? LF.IT_LMR_FLAG_NONE : flags;
    if (!isUint(fl) || (fl & ~(LF.IT_LMR_FLAG_NONE | LF.IT_LMR_FLAG_NONCOHERENT | LF.IT_LMR_FLAG_NON_SHAREABLE)) !== 0) {
      fail(S.IT_ERR_INVALID_FLAGS);
    }
    if (!isUint(iobl_num_elts) || iobl_num_elts === 0 || iobl_num_elts > limits(ia).max_pbl_size) fail(S.IT_ERR_RESOURCE_IOBL_LENGTH);
    const lmr = new Lmr(ia, pz, null, fl, shared_id ?? 0, true);
    const r = ia.ops.ri_ltag_alloc(ia.rnic, iobl_num_elts, pz.pd, RiMemFlags.LOCAL | RiMemFlags.REMOTE | RiMemFlags.BINDING, 0, null, lmr);
    if (r.status !== RiRet.SUCCESS) fail(S.IT_ERR_RESOURCES, `ri_ltag_alloc: ${RiRet[r.status]}`);
    lmr.mr = r.mr;
    lmr.ltag = r.ltag;
    lmr.linked = false;
    lmr.ioblNumElts = r.address_list_length;
    lmr.ioblType = IOBL.IT_IOBL_PAGE_LIST;
    ia.lmrs.add(lmr);
    return lmr;
  },

  it_lmr_flush_to_mem(local_segments) {
    memSync(local_segments);
  },

  it_lmr_free(lmr_handle) {
    const lmr = check(lmr_handle, Lmr, S.IT_ERR_INVALID_LMR);
    if (lmr.direct) fail(S.IT_ERR_INVALID_LMR, 'the Direct LMR Handle cannot be freed');
    if (lmr.linkedRmrs > 0 || !lmr.free()) fail(S.IT_ERR_LMR_BUSY, 'an RMR is linked to it');
  },

  it_lmr_link(lmr_handle, addr, iobl, length, addr_mode, privs, ep_handle, cookie, dto_flags) {
    const lmr = check(lmr_handle, Lmr, S.IT_ERR_INVALID_LMR);
    if (lmr.direct) fail(S.IT_ERR_INVALID_LMR, 'the Direct LMR Handle cannot be linked');
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    if (!ep.attr.priv_ops_enable) fail(S.IT_ERR_OP_NOT_SUPPORTED, 'LMR Link needs a Privileged Mode Endpoint');
    checkDtoFlags(dto_flags, BASE_SQ);
    checkAddrMode(addr_mode);
    checkPrivs(privs);
    const rel = addr_mode === AM.IT_ADDR_MODE_RELATIVE;
    const va = addrOf(addr) ?? 0n;
    if (!isUint(length)) fail(S.IT_ERR_INVALID_IOBL, 'length');
    let pbl: bigint[];
    let pageSize: number;
    let fbo: number;
    if (iobl) {
      if (iobl.iobl_type !== IOBL.IT_IOBL_PAGE_LIST || !('ce_list' in iobl.list)) fail(S.IT_ERR_INVALID_IOBL, 'LMR Link takes a page list');
      const ce = iobl.list.ce_list;
      const n = iobl.num_elts ?? ce.list_elt.length;
      if (!isUint(n) || n > ce.list_elt.length || !isUint(ce.elt_len) || !isUint(iobl.fbo)) fail(S.IT_ERR_INVALID_IOBL);
      pbl = ce.list_elt.slice(0, n).map((x) => BigInt(x));
      pageSize = ce.elt_len;
      fbo = iobl.fbo;
    } else {
      // The virtual buffer's own pages (a host buffer is physically contiguous).
      if (va === 0n) fail(S.IT_ERR_INVALID_IOBL, 'an address or an IOBL is needed');
      pageSize = 4096;
      const pa = hostMemory.physOf(va);
      fbo = Number(pa % BigInt(pageSize));
      const first = pa - BigInt(fbo);
      const count = Math.max(1, Math.ceil((fbo + length) / pageSize));
      pbl = Array.from({ length: count }, (_, i) => first + BigInt(i * pageSize));
    }
    const ctx = nextContext(lmr.ltag);
    const wr: ri_wr_t = {
      type: RiWrType.FAST_REGISTER,
      flags: riFlags(dto_flags, 'mem'),
      id: 0n,
      attr: {
        common: { va: rel ? 0n : va, length, mem_attr: memAttrOf(privs, rel), pd: lmr.pz.pd },
        phys_buf_list: pbl,
        nbufs: pbl.length,
        pble_size: pageSize,
        address_offset: fbo,
      },
      ltag: ctx,
      rtag: ctx,
      mr_handle: lmr.mr!,
    };
    ep.postSq(
      { kind: 'lmr_link', cookie: cookieOf(cookie), flags: dto_flags, lmr, link: { lmr: null, addr: va, length, privs, addrMode: addr_mode, context: ctx } },
      wr,
    );
    return ctx;
  },

  it_lmr_modify(lmr_handle, mask, params) {
    const lmr = check(lmr_handle, Lmr, S.IT_ERR_INVALID_LMR);
    if (lmr.direct) fail(S.IT_ERR_INVALID_LMR);
    const modifiable = LMM.IT_LMR_PARAM_PZ | LMM.IT_LMR_PARAM_MEM_PRIV;
    if (!isUint(mask) || Number(mask) === 0 || (mask & ~modifiable) !== 0) fail(S.IT_ERR_INVALID_MASK);
    if (lmr.linkedRmrs > 0) fail(S.IT_ERR_LMR_BUSY);
    const ia = lmr.ia;
    const p = params ?? {};
    // From here on every error destroys the LMR (it_lmr_modify; erratum GN48).
    const destroyAnd = (st: S, why?: string): never => {
      lmr.destroy();
      return fail(st, why);
    };
    let pz = lmr.pz;
    if (mask & LMM.IT_LMR_PARAM_PZ) {
      const x = p.pz as unknown;
      if (!(x instanceof Pz) || x.freed || x.ia !== ia) destroyAnd(S.IT_ERR_INVALID_PZ, 'the LMR was destroyed');
      pz = x as Pz;
    }
    let privs = lmr.privs;
    if (mask & LMM.IT_LMR_PARAM_MEM_PRIV) {
      privs = p.privs as number;
      const ok = isUint(privs) && privs !== 0 && (privs & ~PRIV.IT_PRIV_ALL) === 0 && !(privs & PRIV.IT_PRIV_REMOTE_WRITE && !(privs & PRIV.IT_PRIV_LOCAL_WRITE));
      if (!ok) destroyAnd(S.IT_ERR_INVALID_PRIVS, 'the LMR was destroyed');
    }
    let change = 0;
    if (mask & LMM.IT_LMR_PARAM_PZ) change |= RiMrRereg.PD;
    if (mask & LMM.IT_LMR_PARAM_MEM_PRIV) change |= RiMrRereg.ACCESS;
    const rel = lmr.addrMode === AM.IT_ADDR_MODE_RELATIVE;
    const r = ia.ops.ri_mr_rereg(ia.rnic, lmr.mr!, change, { va: lmr.addr, length: lmr.length, mem_attr: memAttrOf(privs, rel), pd: pz.pd }, lmr.ltag, null, lmr);
    if (r.status !== RiRet.SUCCESS) {
      if (r.status === RiRet.WINDOWS_BOUND) fail(S.IT_ERR_LMR_BUSY);
      destroyAnd(r.status === RiRet.MEM_INVALID_ACCESS ? S.IT_ERR_INVALID_PRIVS : S.IT_ERR_RESOURCES, `ri_mr_rereg: ${RiRet[r.status]}`);
      return;
    }
    lmr.pz = pz;
    lmr.privs = privs;
    lmr.ltag = r.ltag;
    lmr.rmrContext = privs & PRIV.IT_PRIV_REMOTE ? (r.rtag ?? r.ltag) : null;
  },

  it_lmr_query(lmr_handle, mask) {
    const lmr = check(lmr_handle, Lmr, S.IT_ERR_INVALID_LMR);
    checkMask(mask, (1 << 15) - 1);
    return pick(mask, lmr.params(), [
      [LMM.IT_LMR_PARAM_IA, 'ia'],
      [LMM.IT_LMR_PARAM_PZ, 'pz'],
      [LMM.IT_LMR_PARAM_ADDR, 'addr'],
      [LMM.IT_LMR_PARAM_LENGTH, 'length'],
      [LMM.IT_LMR_PARAM_MEM_PRIV, 'privs'],
      [LMM.IT_LMR_PARAM_FLAG, 'flags'],
      [LMM.IT_LMR_PARAM_SHARED_ID, 'shared_id'],
      [LMM.IT_LMR_PARAM_RMR_CONTEXT, 'rmr_context'],
      [LMM.IT_LMR_PARAM_ACTUAL_ADDR, 'actual_addr'],
      [LMM.IT_LMR_PARAM_ACTUAL_LENGTH, 'actual_length'],
      [LMM.IT_LMR_PARAM_ADDR_MODE, 'addr_mode'],
      [LMM.IT_LMR_PARAM_LINKED, 'linked'],
      [LMM.IT_LMR_PARAM_IOBL_NUM_ELTS, 'iobl_num_elts'],
      [LMM.IT_LMR_PARAM_IOBL_TYPE, 'iobl_type'],
    ] as const satisfies readonly (readonly [number, keyof it_lmr_param_t])[]);
  },

  it_lmr_refresh_from_mem(local_segments) {
    memSync(local_segments);
  },

  it_lmr_unlink(lmr_handle, ep_handle, cookie, dto_flags) {
    const lmr = check(lmr_handle, Lmr, S.IT_ERR_INVALID_LMR);
    if (lmr.direct) fail(S.IT_ERR_INVALID_LMR, 'the Direct LMR Handle cannot be unlinked');
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    checkDtoFlags(dto_flags, UNLINK_FLAGS);
    ep.postSq(
      { kind: 'lmr_unlink', cookie: cookieOf(cookie), flags: dto_flags, lmr },
      { type: RiWrType.LOCAL_INVALIDATE_MR, flags: riFlags(dto_flags, 'unlink'), id: 0n, ltag: lmr.ltag, rtag: 0, mrw_handle: lmr.mr! },
    );
  },

  it_make_rdma_addr_absolute(addr) {
    return addr instanceof Uint8Array ? hostMemory.addressOf(addr) : BigInt.asUintN(64, addr);
  },

  it_make_rdma_addr_relative(offset) {
    return BigInt(offset);
  },

  it_mem_map(ia_handle, vaddr, _aspace_id, len) {
    const ia = check(ia_handle, Ia, S.IT_ERR_INVALID_IA);
    if (!ia.privileged) fail(S.IT_ERR_NO_PERMISSION);
    const va = addrOf(vaddr);
    if (va === null || !isUint(len) || len === 0 || !hostMemory.resolve(va, len)) fail(S.IT_ERR_FAULT);
    const p = ia.ops.ri_mem_pin(ia.rnic, va, len, ia);
    if (p.status !== RiRet.SUCCESS) fail(S.IT_ERR_FAULT, `ri_mem_pin: ${RiRet[p.status]}`);
    const m = ia.ops.ri_mem_map(ia.rnic, va, len, ia);
    if (m.status !== RiRet.SUCCESS) {
      ia.ops.ri_mem_unpin(ia.rnic, va, len, ia);
      fail(S.IT_ERR_FAULT, `ri_mem_map: ${RiRet[m.status]}`);
    }
    const mapped = Number(m.io.phys_len);
    ia.maps.set(`${m.io.phys_address}:${mapped}`, { vaddr: va, len });
    return { io_addr: m.io.phys_address, mapped_len: mapped };
  },

  it_mem_unmap(ia_handle, io_addr, mapped_len) {
    const ia = check(ia_handle, Ia, S.IT_ERR_INVALID_IA);
    if (!ia.privileged) fail(S.IT_ERR_NO_PERMISSION);
    const k = `${io_addr}:${mapped_len}`;
    const m = ia.maps.get(k);
    if (!m) fail(S.IT_ERR_FAULT, 'no such mapping');
    ia.ops.ri_mem_unmap(ia.rnic, { phys_address: io_addr, phys_len: BigInt(mapped_len) }, ia);
    ia.ops.ri_mem_unpin(ia.rnic, m.vaddr, m.len, ia);
    ia.maps.delete(k);
  },

  // ---- Data Transfer Operations ------------------------------------------------------------

  it_post_atomic(ep_handle, op, swap_or_add, compare, result, cookie, dto_flags, rdma_addr, rmr_context) {
    // IT-API §6 it_post_atomic: softrdma carries atomics on iWARP with RFC 7306 towards a peer
    // that negotiated it (the spec-notes); towards any other peer the WR completes in error
    // (IT_DTO_ERR_LOCAL_EP) without reaching the wire, and the connection breaks.
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    if (op !== IT_COMPARE_AND_SWAP && op !== IT_FETCH_AND_ADD) fail(S.IT_ERR_INVALID_ATOMIC_OP, `op ${op}`);
    checkDtoFlags(dto_flags, BASE_SQ);
    if (typeof swap_or_add !== 'bigint' || typeof compare !== 'bigint') fail(S.IT_ERR_INVALID_ATOMIC_OP, 'operands are bigints');
    const sgl = sglOf(ep, [result], 1, false);
    // The result buffer holds the 8-octet original value (IT-API: "at least 8 bytes").
    if (sgl.length !== 1 || sgl[0]!.len < 8) fail(S.IT_ERR_INVALID_NUM_SEGMENTS, 'the result buffer is shorter than 8 bytes');
    const cas = op === IT_COMPARE_AND_SWAP;
    ep.postSq(
      { kind: cas ? 'cmp_swap' : 'fetch_add', cookie: cookieOf(cookie), flags: dto_flags },
      {
        type: cas ? RiWrType.COMPARE_AND_SWAP : RiWrType.FETCH_AND_ADD,
        flags: riFlags(dto_flags, 'read'),
        id: 0n,
        rtag: rmr_context >>> 0,
        rdma_addr: BigInt.asUintN(64, rdma_addr),
        // RNICPI's operand 1 is the compare value (CAS) or the addend (FAA); operand 2 the swap value.
        atomic_operand1: BigInt.asUintN(64, cas ? compare : swap_or_add),
        atomic_operand2: BigInt.asUintN(64, cas ? swap_or_add : 0n),
        atomic_result: sgl[0]!,
      },
      8,
    );
  },

  it_post_rdma_read(ep_handle, local_segments, cookie, dto_flags, rdma_addr, rmr_context) {
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    checkDtoFlags(dto_flags, READ_FLAGS);
    const sgl = sglOf(ep, local_segments, ep.attr.max_rdma_read_segments, false);
    const unlink = (dto_flags & DF.IT_UNLINK_LOCAL_SINK) !== 0;
    let sink: Lmr | undefined;
    if (unlink) {
      if (sgl.length !== 1) fail(S.IT_ERR_INVALID_DTO_FLAGS, 'IT_UNLINK_LOCAL_SINK needs exactly one segment');
      const l = local_segments[0]!.lmr as unknown;
      if (l instanceof Lmr && !l.direct) sink = l;
    }
    const rec: Omit<SqRec, 'seq'> = { kind: 'read', cookie: cookieOf(cookie), flags: dto_flags };
    if (sink) rec.sink = sink;
    ep.postSq(
      rec,
      {
        type: unlink ? RiWrType.RDMA_READ_LOCAL_INVALIDATE : RiWrType.RDMA_READ,
        flags: riFlags(dto_flags, 'read'),
        id: 0n,
        sg_list: sgl,
        rdma_addr: BigInt.asUintN(64, rdma_addr),
        rtag: rmr_context >>> 0,
      },
      totalOf(sgl),
    );
  },

  it_post_rdma_read_to_rmr(ep_handle, local_segments, cookie, dto_flags, rdma_addr, rmr_context) {
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    checkDtoFlags(dto_flags, READ_FLAGS);
    const list = local_segments ?? [];
    if (!Array.isArray(list) || list.length > ep.attr.max_rdma_read_segments) fail(S.IT_ERR_INVALID_NUM_SEGMENTS);
    const sgl: ri_data_seg_t[] = list.map((t: it_rmr_triplet_t) => {
      if (!t || typeof t.addr !== 'bigint' || !isUint(t.length)) fail(S.IT_ERR_INVALID_NUM_SEGMENTS, 'malformed segment');
      const r = t.rmr as unknown;
      return { tag: r instanceof Rmr ? r.rtag : BAD_STAG, addr: t.addr, len: t.length };
    });
    const unlink = (dto_flags & DF.IT_UNLINK_LOCAL_SINK) !== 0;
    let sink: Rmr | undefined;
    if (unlink) {
      if (sgl.length !== 1) fail(S.IT_ERR_INVALID_DTO_FLAGS, 'IT_UNLINK_LOCAL_SINK needs exactly one segment');
      const r = list[0]!.rmr as unknown;
      if (r instanceof Rmr) sink = r;
    }
    const rec: Omit<SqRec, 'seq'> = { kind: 'read', cookie: cookieOf(cookie), flags: dto_flags };
    if (sink) rec.sink = sink;
    ep.postSq(
      rec,
      {
        type: unlink ? RiWrType.RDMA_READ_LOCAL_INVALIDATE : RiWrType.RDMA_READ,
        flags: riFlags(dto_flags, 'read'),
        id: 0n,
        sg_list: sgl,
        rdma_addr: BigInt.asUintN(64, rdma_addr),
        rtag: rmr_context >>> 0,
      },
      totalOf(sgl),
    );
  },

  it_post_rdma_write(ep_handle, local_segments, cookie, dto_flags, rdma_addr, rmr_context) {
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    checkDtoFlags(dto_flags, BASE_SQ);
    const sgl = sglOf(ep, local_segments, ep.attr.max_rdma_write_segments, false);
    ep.postSq(
      { kind: 'write', cookie: cookieOf(cookie), flags: dto_flags },
      {
        type: RiWrType.RDMA_WRITE,
        flags: riFlags(dto_flags, 'write'),
        id: 0n,
        sg_list: sgl,
        rdma_addr: BigInt.asUintN(64, rdma_addr),
        rtag: rmr_context >>> 0,
      },
      totalOf(sgl),
    );
  },

  it_post_recv(handle, local_segments, cookie, dto_flags) {
    if (handle instanceof Srq) {
      const srq = check(handle, Srq, S.IT_ERR_INVALID_SRQ);
      checkDtoFlags(dto_flags, RECV_FLAGS);
      if (!(dto_flags & DF.IT_COMPLETION_FLAG)) fail(S.IT_ERR_INVALID_DTO_FLAGS, 'Receives need IT_COMPLETION_FLAG');
      const list = local_segments ?? [];
      if (!Array.isArray(list) || list.length > srq.maxRecvSegs) fail(S.IT_ERR_INVALID_NUM_SEGMENTS);
      const sgl = list.map((t) => {
        if (!t || typeof t.addr !== 'bigint' || !isUint(t.length)) fail(S.IT_ERR_INVALID_NUM_SEGMENTS, 'malformed segment');
        const l = t.lmr as unknown;
        return { tag: l instanceof Lmr ? l.ltag : BAD_STAG, addr: t.addr, len: t.length };
      });
      srq.post({ cookie: cookieOf(cookie), flags: dto_flags }, sgl);
      return;
    }
    const ep = rcEp(handle);
    checkDtoFlags(dto_flags, RECV_FLAGS);
    if (!(dto_flags & DF.IT_COMPLETION_FLAG)) fail(S.IT_ERR_INVALID_DTO_FLAGS, 'Receives need IT_COMPLETION_FLAG');
    if (ep.srq) fail(S.IT_ERR_INVALID_SRQ, 'the Endpoint receives through its S-RQ');
    const sgl = sglOf(ep, local_segments, ep.attr.max_recv_segments, false);
    ep.postRecv({ cookie: cookieOf(cookie), flags: dto_flags }, sgl);
  },

  it_post_recvfrom(ep_handle, local_segments, cookie, dto_flags) {
    const ep = udEp(ep_handle);
    checkDtoFlags(dto_flags, RECV_FLAGS);
    if (!(dto_flags & DF.IT_COMPLETION_FLAG)) fail(S.IT_ERR_INVALID_DTO_FLAGS, 'Receives need IT_COMPLETION_FLAG');
    const sgl = sglOf({ ia: ep.ia }, local_segments, ep.attr.max_recv_segments, false);
    if (sgl.length === 0) fail(S.IT_ERR_INVALID_NUM_SEGMENTS, `a UD Receive needs at least one segment (${UD_GRH_LEN} octets for the GRH)`);
    ep.postRecvfrom(sgl, cookieOf(cookie), dto_flags);
  },

  it_post_send(ep_handle, local_segments, cookie, dto_flags) {
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    checkDtoFlags(dto_flags, SEND_FLAGS);
    const sgl = sglOf(ep, local_segments, ep.attr.max_send_segments, true);
    ep.postSq({ kind: 'send', cookie: cookieOf(cookie), flags: dto_flags }, { type: RiWrType.SEND, flags: riFlags(dto_flags, 'send'), id: 0n, sg_list: sgl }, totalOf(sgl));
  },

  it_post_send_and_unlink(ep_handle, local_segments, cookie, dto_flags, rmr_context) {
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    checkDtoFlags(dto_flags, SEND_FLAGS);
    const sgl = sglOf(ep, local_segments, ep.attr.max_send_segments, true);
    ep.postSq(
      { kind: 'send', cookie: cookieOf(cookie), flags: dto_flags },
      { type: RiWrType.SEND_INVALIDATE, flags: riFlags(dto_flags, 'send'), id: 0n, sg_list: sgl, rtag: rmr_context >>> 0 },
      totalOf(sgl),
    );
  },

  it_post_sendto(ep_handle, local_segments, cookie, dto_flags, remote_ep_addr) {
    const ep = udEp(ep_handle);
    checkDtoFlags(dto_flags, SENDTO_FLAGS);
    const d = remote_ep_addr;
    if (!d || typeof d !== 'object' || d.type !== DG.IT_DG_TYPE_IB_UD || !d.addr?.ud) fail(S.IT_ERR_INVALID_AH, 'an IB UD destination is needed');
    const ah = check(d.addr.ud.addr, Ah, S.IT_ERR_INVALID_AH);
    // The AH must be of the Endpoint's PZ (IT-API §2.7; IBTA: the AH's PD is the QP's).
    if (ah.pz !== ep.pz || ah.path.spigot_id !== ep.spigot) fail(S.IT_ERR_INVALID_AH, 'the Address Handle belongs to another PZ or Spigot');
    const info = d.addr.ud.ep_info;
    if (!info || !isUint(info.ud_ep_id) || !isUint(info.ud_ep_key)) fail(S.IT_ERR_INVALID_AH, 'ep_info');
    const sgl = sglOf({ ia: ep.ia }, local_segments, ep.attr.max_send_segments, true);
    ep.postSendto(sgl, cookieOf(cookie), dto_flags, ah, info);
  },

  // ---- Protection Zones ----------------------------------------------------------------------

  it_pz_create(ia_handle) {
    const ia = check(ia_handle, Ia, S.IT_ERR_INVALID_IA);
    const r = ia.ops.ri_pd_alloc(ia.rnic, null, null);
    if (r.status !== RiRet.SUCCESS) fail(S.IT_ERR_RESOURCES, `ri_pd_alloc: ${RiRet[r.status]}`);
    const pz = new Pz(ia, r.pd);
    ia.pzs.add(pz);
    return pz;
  },

  it_pz_free(pz_handle) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    if (!pz.free()) fail(S.IT_ERR_PZ_BUSY);
  },

  it_pz_query(pz_handle, mask) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    checkMask(mask, PZM.IT_PZ_PARAM_ALL | PZM.IT_PZ_PARAM_IA);
    return pick(mask, { ia: pz.ia }, [[PZM.IT_PZ_PARAM_IA, 'ia']]);
  },

  // ---- Connection rejection ------------------------------------------------------------------

  it_reject(cn_est_id, private_data) {
    const req = cnOf(cn_est_id);
    const pd = pdataOf(private_data, pdataLimits(req.ia).reject);
    req.consume();
    if (req.cm.state === 'pending') req.cm.reject(pd);
  },

  // ---- Remote Memory Regions -----------------------------------------------------------------

  it_rmr_create(pz_handle, rmr_type) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    // rmr_types_supported = NARROW: DEFAULT means Narrow; Wide windows are not offered.
    if (rmr_type !== RT.IT_RMR_TYPE_DEFAULT && rmr_type !== RT.IT_RMR_TYPE_NARROW) fail(S.IT_ERR_INVALID_RMR_TYPE);
    const ia = pz.ia;
    const rmr = new Rmr(ia, pz, null as never, 0);
    const r = ia.ops.ri_mw_alloc(ia.rnic, pz.pd, RiMwType.TYPE_NARROW, null, rmr);
    if (r.status !== RiRet.SUCCESS) fail(S.IT_ERR_RESOURCES, `ri_mw_alloc: ${RiRet[r.status]}`);
    rmr.mw = r.mw;
    rmr.rtag = r.rtag;
    ia.rmrs.add(rmr);
    return rmr;
  },

  it_rmr_free(rmr_handle) {
    check(rmr_handle, Rmr, S.IT_ERR_INVALID_RMR).destroy();
  },

  it_rmr_link(rmr_handle, lmr_handle, addr, length, addr_mode, privs, ep_handle, cookie, dto_flags) {
    const rmr = check(rmr_handle, Rmr, S.IT_ERR_INVALID_RMR);
    const lmr = check(lmr_handle, Lmr, S.IT_ERR_INVALID_LMR);
    if (lmr.direct) fail(S.IT_ERR_INVALID_LMR, 'the Direct LMR Handle has no remote access');
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    checkDtoFlags(dto_flags, BASE_SQ);
    checkAddrMode(addr_mode);
    if (!isUint(privs) || (privs & ~PRIV.IT_PRIV_ALL) !== 0 || (privs & PRIV.IT_PRIV_REMOTE) === 0) fail(S.IT_ERR_INVALID_PRIVS);
    if (!isUint(length) || length === 0) fail(S.IT_ERR_INVALID_LENGTH);
    const va = addrOf(addr);
    if (va === null) fail(S.IT_ERR_ADDRESS);
    const relLmr = lmr.addrMode === AM.IT_ADDR_MODE_RELATIVE;
    if (!relLmr) {
      if (va < lmr.addr || va >= lmr.addr + BigInt(lmr.length)) fail(S.IT_ERR_ADDRESS, 'outside the LMR');
      if (va + BigInt(length) > lmr.addr + BigInt(lmr.length)) fail(S.IT_ERR_INVALID_LENGTH, 'beyond the LMR');
    }
    const ctx = nextContext(rmr.rtag);
    let rights = 0;
    if (privs & PRIV.IT_PRIV_REMOTE_READ) rights |= RiMemFlags.REMOTE_READ;
    if (privs & PRIV.IT_PRIV_REMOTE_WRITE) rights |= RiMemFlags.REMOTE_WRITE;
    if (addr_mode === AM.IT_ADDR_MODE_RELATIVE) rights |= RiMemFlags.ZBVA;
    ep.postSq(
      {
        kind: 'rmr_link',
        cookie: cookieOf(cookie),
        flags: dto_flags,
        rmr,
        relLmr,
        link: { lmr, addr: va, length, privs: privs & PRIV.IT_PRIV_REMOTE, addrMode: addr_mode, context: ctx },
      },
      {
        type: RiWrType.BIND,
        flags: riFlags(dto_flags, 'mem'),
        id: 0n,
        mw_handle: rmr.mw,
        rtag: ctx,
        mr_handle: lmr.mr!,
        ltag: lmr.ltag,
        vaddr: va,
        length,
        mem_attr: rights,
      },
    );
    return ctx;
  },

  it_rmr_query(rmr_handle, mask) {
    const rmr = check(rmr_handle, Rmr, S.IT_ERR_INVALID_RMR);
    checkMask(mask, (1 << 11) - 1);
    return pick(mask, rmr.params(), [
      [RMM.IT_RMR_PARAM_IA, 'ia'],
      [RMM.IT_RMR_PARAM_PZ, 'pz'],
      [RMM.IT_RMR_PARAM_LINKED, 'linked'],
      [RMM.IT_RMR_PARAM_LMR, 'lmr'],
      [RMM.IT_RMR_PARAM_ADDR, 'addr'],
      [RMM.IT_RMR_PARAM_LENGTH, 'length'],
      [RMM.IT_RMR_PARAM_MEM_PRIV, 'privs'],
      [RMM.IT_RMR_PARAM_RMR_CONTEXT, 'rmr_context'],
      [RMM.IT_RMR_PARAM_TYPE, 'type'],
      [RMM.IT_RMR_PARAM_ADDR_MODE, 'addr_mode'],
    ] as const satisfies readonly (readonly [number, keyof it_rmr_param_t])[]);
  },

  it_rmr_unlink(rmr_handle, ep_handle, cookie, dto_flags) {
    const rmr = check(rmr_handle, Rmr, S.IT_ERR_INVALID_RMR);
    const ep = rcEp(ep_handle);
    checkSqState(ep);
    checkDtoFlags(dto_flags, UNLINK_FLAGS);
    ep.postSq(
      { kind: 'rmr_unlink', cookie: cookieOf(cookie), flags: dto_flags, rmr },
      { type: RiWrType.LOCAL_INVALIDATE_MW, flags: riFlags(dto_flags, 'unlink'), id: 0n, ltag: 0, rtag: rmr.rtag, mrw_handle: rmr.mw },
    );
  },

  // ---- Contexts and socket conversion --------------------------------------------------------

  it_set_consumer_context(handle, context) {
    const h = checkHandle(handle);
    h.context = context === 0n ? null : context;
  },

  it_socket_convert(sd, ep_handle, flags, msg) {
    const ep = rcEp(ep_handle);
    if (!isUint(flags) || (flags & ~SC.IT_SC_NO_REQ_REP) !== 0) fail(S.IT_ERR_INVALID_FLAGS);
    if (!(sd instanceof net.Socket)) fail(S.IT_ERR_OP_NOT_SUPPORTED, 'not a TCP socket');
    if (isIb(ep.ia)) fail(S.IT_ERR_OP_NOT_SUPPORTED, 'socket conversion is iWARP only');
    if (sd.destroyed) fail(S.IT_ERR_INVALID_SD, 'the socket is closed');
    if (sd.connecting || sd.readyState !== 'open') fail(S.IT_ERR_INVALID_SD_STATE, 'the socket is not connected');
    if (msg !== null && msg !== undefined && !(msg instanceof Uint8Array)) fail(S.IT_ERR_INVALID_FLAGS, 'msg');
    if (ep.state !== ST.IT_EP_STATE_UNCONNECTED) fail(S.IT_ERR_INVALID_EP_STATE);
    ep.convert(sd, msg && msg.length > 0 ? msg : null, (flags & SC.IT_SC_NO_REQ_REP) !== 0);
  },

  // ---- Shared Receive Queues -----------------------------------------------------------------

  it_srq_create(pz_handle, max_recv_segments, max_recv_dtos) {
    const pz = check(pz_handle, Pz, S.IT_ERR_INVALID_PZ);
    const ia = pz.ia;
    const l = limits(ia);
    if (!isUint(max_recv_dtos) || max_recv_dtos > l.max_wrs_srq) fail(S.IT_ERR_RESOURCE_RECV_DTO);
    if (!isUint(max_recv_segments) || max_recv_segments > l.max_sgl_srq) fail(S.IT_ERR_RESOURCE_RSEG);
    // The S-RQ object is the SRQ's os_data: its events come back to it.
    const srq = new Srq(ia, pz, null as never, 0, 0);
    const r = ia.ops.ri_srq_create(ia.rnic, { max_wrs: Math.max(1, max_recv_dtos), max_sgl: Math.max(1, max_recv_segments), lowat: 0, pd: pz.pd }, null, srq);
    if (r.status !== RiRet.SUCCESS) fail(S.IT_ERR_RESOURCES, `ri_srq_create: ${RiRet[r.status]}`);
    srq.srq = r.srq;
    srq.maxRecvDtos = r.srq_attrs.max_wrs;
    srq.maxRecvSegs = r.srq_attrs.max_sgl;
    ia.srqs.add(srq);
    return srq;
  },

  it_srq_free(srq_handle) {
    const srq = check(srq_handle, Srq, S.IT_ERR_INVALID_SRQ);
    if (srq.users > 0) fail(S.IT_ERR_SRQ_BUSY);
    srq.destroy();
  },

  it_srq_modify(srq_handle, mask, params) {
    const srq = check(srq_handle, Srq, S.IT_ERR_INVALID_SRQ);
    const modifiable = SQM.IT_SRQ_PARAM_MAX_RECV_DTO | SQM.IT_SRQ_PARAM_LOW_WATERMARK;
    if (!isUint(mask) || Number(mask) === 0 || (mask & ~modifiable) !== 0) fail(S.IT_ERR_INVALID_MASK);
    const ia = srq.ia;
    const p = params ?? {};
    const size = mask & SQM.IT_SRQ_PARAM_MAX_RECV_DTO ? p.max_recv_dtos : srq.maxRecvDtos;
    if (mask & SQM.IT_SRQ_PARAM_MAX_RECV_DTO) {
      if (!isUint(size) || size === 0 || size < srq.outstanding) fail(S.IT_ERR_INVALID_SRQ_SIZE);
      if (size > limits(ia).max_wrs_srq) fail(S.IT_ERR_RESOURCES);
    }
    if (mask & SQM.IT_SRQ_PARAM_LOW_WATERMARK) {
      const lw = p.low_watermark;
      if (!isUint(lw) || lw === 0 || lw > (size as number)) fail(S.IT_ERR_SRQ_LOW_WATERMARK);
    }
    if (mask & SQM.IT_SRQ_PARAM_MAX_RECV_DTO && size !== srq.maxRecvDtos) {
      const r = ia.ops.ri_srq_modify(ia.rnic, srq.srq, 0x1, { max_wrs: size as number });
      if (r.status !== RiRet.SUCCESS) fail(r.status === RiRet.SRQ_CANNOT_SHRINK ? S.IT_ERR_INVALID_SRQ_SIZE : S.IT_ERR_RESOURCES);
      srq.maxRecvDtos = r.attrs.max_wrs;
    }
    if (mask & SQM.IT_SRQ_PARAM_LOW_WATERMARK) {
      const st = srq.arm(p.low_watermark as number);
      if (st !== RiRet.SUCCESS) fail(S.IT_ERR_SRQ_LOW_WATERMARK, RiRet[st]);
    }
  },

  it_srq_query(srq_handle, mask) {
    const srq = check(srq_handle, Srq, S.IT_ERR_INVALID_SRQ);
    checkMask(mask, (1 << 6) - 1);
    const full: it_srq_param_t = {
      ia: srq.ia,
      pz: srq.pz,
      max_recv_dtos: srq.maxRecvDtos,
      max_recv_segs: srq.maxRecvSegs,
      low_watermark: srq.lowWatermark,
    };
    return pick(mask, full, [
      [SQM.IT_SRQ_PARAM_IA, 'ia'],
      [SQM.IT_SRQ_PARAM_PZ, 'pz'],
      [SQM.IT_SRQ_PARAM_MAX_RECV_DTO, 'max_recv_dtos'],
      [SQM.IT_SRQ_PARAM_MAX_RECV_SEG, 'max_recv_segs'],
      [SQM.IT_SRQ_PARAM_LOW_WATERMARK, 'low_watermark'],
    ]);
  },

  // ---- UD service resolution (not on an iWARP IA) ----------------------------------------

  it_ud_service_reply(ud_svc_req_id, status, ep_info, private_data) {
    const id = ud_svc_req_id as unknown;
    if (!(id instanceof UdSvcRequest) || id.replied || !id.ia.udRequests.has(id)) fail(S.IT_ERR_INVALID_UD_SVC_REQ_ID);
    if (id.ia.disabled) fail(S.IT_ERR_IA_CATASTROPHE);
    if (status === US.IT_UD_REQ_REDIRECTED) fail(S.IT_ERR_INVALID_UD_STATUS, 'IT_UD_REQ_REDIRECTED is for implementations only');
    const sidr = sidrOfStatus(status);
    if (sidr === null) fail(S.IT_ERR_INVALID_UD_STATUS);
    const pd = pdataOf(private_data, UD_PDATA_REPLY);
    if (sidr === 0 && (!ep_info || !isUint(ep_info.ud_ep_id) || !isUint(ep_info.ud_ep_key))) fail(S.IT_ERR_INVALID_UD_STATUS, 'EP_INFO_VALID needs ep_info');
    id.ia.udRequests.delete(id);
    id.reply(sidr, ep_info, pd);
  },
  it_ud_service_request(ud_svc_handle) {
    const h = check(ud_svc_handle, UdSvcHandle, S.IT_ERR_INVALID_UD_SVC);
    h.request();
  },
  it_ud_service_request_handle_create(conn_qual, reply_evd, destination_path, private_data) {
    const e = check(reply_evd, Evd, S.IT_ERR_INVALID_CONN_EVD);
    if (!(e instanceof Sevd) || e.stream !== ET.IT_CM_MSG_EVENT_STREAM) fail(S.IT_ERR_INVALID_EVD_TYPE, 'the reply SEVD is a CM_MSG one');
    const ia = e.ia;
    if (!isIb(ia)) fail(S.IT_ERR_OP_NOT_SUPPORTED, 'no UD service on an iWARP IA');
    const pd = pdataOf(private_data, UD_PDATA_REQUEST);
    if (!conn_qual || typeof conn_qual !== 'object' || conn_qual.type !== CQ.IT_IANA_PORT) fail(S.IT_ERR_INVALID_CONN_QUAL, 'UD services are on IANA ports (rdma_cm service IDs)');
    const port = conn_qual.conn_qual.port;
    if (!isUint(port) || port === 0 || port > 0xffff) fail(S.IT_ERR_INVALID_CONN_QUAL);
    if (!destination_path || typeof destination_path !== 'object') fail(S.IT_ERR_INVALID_SOURCE_PATH);
    if (destination_path.spigot_id !== 0) fail(S.IT_ERR_INVALID_SPIGOT);
    const where = hostOfPath(destination_path);
    if (!where) fail(S.IT_ERR_INVALID_SOURCE_PATH, 'an IB path to an IPv4-mapped GID is needed');
    const cm = roceCm(ia.device);
    if (typeof cm === 'number') fail(S.IT_ERR_RESOURCES, `the CM (QP1) cannot be opened: ${RiRet[cm]}`);
    const h = new UdSvcHandle(ia, cm, e, conn_qual, destination_path, pd.slice(), where.host, where.local);
    e.feeders++;
    ia.udSvcs.add(h);
    return h as never;
  },
  it_ud_service_request_handle_free(ud_svc_handle) {
    check(ud_svc_handle, UdSvcHandle, S.IT_ERR_INVALID_UD_SVC).destroy();
  },
  it_ud_service_request_handle_query(ud_svc_handle, mask) {
    const h = check(ud_svc_handle, UdSvcHandle, S.IT_ERR_INVALID_UD_SVC);
    const U = UDM;
    checkMask(mask, U.IT_UD_PARAM_ALL | U.IT_UD_PARAM_IA_HANDLE | U.IT_UD_PARAM_REQ_ID | U.IT_UD_PARAM_REPLY_EVD | U.IT_UD_PARAM_CONN_QUAL | U.IT_UD_PARAM_DEST_PATH | U.IT_UD_PARAM_PRIV_DATA | U.IT_UD_PARAM_PRIV_DATA_LENGTH);
    const full = {
      ia: h.ia,
      request_id: h.requestId,
      reply_evd: h.replyEvd,
      conn_qual: h.connQual,
      destination_path: h.path,
      private_data: pdataBuffer(h.privateData),
      private_data_length: h.privateData.length,
    };
    return pick(mask, full, [
      [U.IT_UD_PARAM_IA_HANDLE, 'ia'],
      [U.IT_UD_PARAM_REQ_ID, 'request_id'],
      [U.IT_UD_PARAM_REPLY_EVD, 'reply_evd'],
      [U.IT_UD_PARAM_CONN_QUAL, 'conn_qual'],
      [U.IT_UD_PARAM_DEST_PATH, 'destination_path'],
      [U.IT_UD_PARAM_PRIV_DATA, 'private_data'],
      [U.IT_UD_PARAM_PRIV_DATA_LENGTH, 'private_data_length'],
    ]);
  },
};

// =============================================================================================
// Helpers used above
// =============================================================================================

function totalOf(sgl: readonly ri_data_seg_t[]): number {
  let n = 0;
  for (const s of sgl) n += s.len;
  return n;
}

function swap64(x: bigint): bigint {
  const v = BigInt.asUintN(64, x);
  if (endianness() === 'BE') return v;
  let r = 0n;
  for (let i = 0n; i < 8n; i++) r |= ((v >> (i * 8n)) & 0xffn) << ((7n - i) * 8n);
  return r;
}

/** A new RMR Context for a (re)link: same STag index, the next key (RDMAC verbs §7.2). */
function nextContext(stag: number): number {
  return ((stag & ~0xff) | ((stag + 1) & 0xff)) >>> 0;
}

function regError(st: RiRet): S {
  switch (st) {
    case RiRet.MEM_INVALID_ADDRESS:
      return S.IT_ERR_FAULT;
    case RiRet.MEM_INVALID_LENGTH:
      return S.IT_ERR_INVALID_LENGTH;
    case RiRet.MEM_INVALID_ACCESS:
      return S.IT_ERR_INVALID_PRIVS;
    case RiRet.MEM_INVALID_PBLE:
    case RiRet.MEM_INVALID_PBLE_LENGTH:
    case RiRet.MEM_INVALID_OFFSET:
      return S.IT_ERR_INVALID_IOBL;
    case RiRet.PD_INVALID_HANDLE:
      return S.IT_ERR_INVALID_PZ;
    default:
      return S.IT_ERR_RESOURCES;
  }
}

/** `it_lmr_create` with an I/O Buffer List (privileged): a physical registration. */
function createLmrIobl(ia: Ia, pz: Pz, va: bigint | null, iobl: it_iobl_t, length: number, mode: AM, privs: number, fl: number, sharedId: number) {
  const rel = mode === AM.IT_ADDR_MODE_RELATIVE;
  if (!iobl || typeof iobl !== 'object' || !iobl.list) fail(S.IT_ERR_INVALID_IOBL);
  let list: bigint[] | ri_phys_buf_t[];
  let pble = 0;
  let total = 0;
  if (iobl.iobl_type === IOBL.IT_IOBL_PAGE_LIST && 'ce_list' in iobl.list) {
    const ce = iobl.list.ce_list;
    const n = iobl.num_elts;
    if (!isUint(n) || n === 0 || n > ce.list_elt.length || !isUint(ce.elt_len) || ce.elt_len === 0) fail(S.IT_ERR_INVALID_IOBL);
    list = ce.list_elt.slice(0, n).map((x) => BigInt(x));
    pble = ce.elt_len;
    total = n * ce.elt_len;
  } else if (iobl.iobl_type === IOBL.IT_IOBL_VE_PAGE_LIST && 've_list' in iobl.list) {
    const ve = iobl.list.ve_list.list_elt.slice(0, iobl.num_elts);
    if (ve.length === 0 || ve.length !== iobl.num_elts) fail(S.IT_ERR_INVALID_IOBL);
    list = ve.map((e) => {
      if (!e || typeof e.io_addr !== 'bigint' || !isUint(e.elt_len)) fail(S.IT_ERR_INVALID_IOBL);
      total += e.elt_len;
      return { phys_address: e.io_addr, phys_len: BigInt(e.elt_len) };
    });
  } else {
    return fail(S.IT_ERR_INVALID_IOBL, 'supported: PAGE_LIST and VE_PAGE_LIST');
  }
  if (!isUint(iobl.fbo) || (pble > 0 && iobl.fbo >= pble)) fail(S.IT_ERR_INVALID_IOBL, 'fbo');
  if (!isUint(length) || length === 0 || length > total - iobl.fbo) fail(S.IT_ERR_INVALID_LENGTH);
  if (!rel && va === null) fail(S.IT_ERR_FAULT, 'Absolute Addressing needs the virtual address');
  const regVa = rel ? 0n : (va as bigint);
  const lmr = new Lmr(ia, pz, null, fl, sharedId ?? 0);
  const r = ia.ops.ri_mr_reg_phys(
    ia.rnic,
    {
      common: { va: regVa, length, mem_attr: memAttrOf(privs, rel), pd: pz.pd },
      phys_buf_list: list,
      nbufs: list.length,
      pble_size: pble,
      address_offset: iobl.fbo,
    },
    0,
    null,
    lmr,
  );
  if (r.status !== RiRet.SUCCESS) fail(regError(r.status), `ri_mr_reg_phys: ${RiRet[r.status]}`);
  lmr.mr = r.mr;
  lmr.ltag = r.ltag;
  lmr.addr = regVa;
  lmr.length = length;
  lmr.privs = privs;
  lmr.addrMode = mode;
  lmr.ioblNumElts = list.length;
  lmr.ioblType = iobl.iobl_type;
  lmr.rmrContext = privs & PRIV.IT_PRIV_REMOTE ? (r.rtag ?? r.ltag) : null;
  ia.lmrs.add(lmr);
  return { lmr_handle: lmr, rmr_context: lmr.rmrContext };
}

/**
 * `it_lmr_flush_to_mem` / `it_lmr_refresh_from_mem`: softrdma memory is coherent (the NONCOHERENT
 * flag is silently ignored, as the pages allow), so both are successful no-ops once the IA is
 * known to be enabled.
 */
function memSync(segs: readonly it_lmr_triplet_t[]): void {
  for (const t of segs ?? []) {
    const l = t?.lmr as unknown;
    if (l instanceof Lmr && !l.freed && l.ia.disabled) fail(S.IT_ERR_IA_CATASTROPHE);
  }
}

// =============================================================================================
// Export: every function wrapped so that its immediate errors name it
// =============================================================================================

function wrap<F extends (...a: never[]) => unknown>(name: string, fn: F, isAsync: boolean): F {
  if (isAsync) {
    return (async (...args: Parameters<F>) => {
      setCurrentFn(name);
      try {
        return await (fn as (...a: Parameters<F>) => Promise<unknown>)(...args);
      } finally {
        setCurrentFn(undefined);
      }
    }) as unknown as F;
  }
  return ((...args: Parameters<F>) => {
    setCurrentFn(name);
    try {
      return fn(...args);
    } finally {
      setCurrentFn(undefined);
    }
  }) as unknown as F;
}

/** The IT-API 2.1 implementation: all 79 functions. */
export const itapi: ItApi = Object.freeze(
  Object.fromEntries(
    IT_API_FUNCTION_NAMES.map((n) => [n, wrap(n, (impl[n] as (...a: never[]) => unknown).bind(impl), IT_API_FUNCTIONS[n].async)]),
  ) as unknown as ItApi,
);

export { isItError };

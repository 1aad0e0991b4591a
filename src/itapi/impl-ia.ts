/**
 * IT-API 2.1 over RNICPI: the Interface Adapter and the IA-wide calls (`it_ia_*`,
 * `it_interface_list`, `it_convert_net_addr`, `it_get_pathinfo`, consumer contexts,
 * `it_get_handle_type`, `it_hton64`/`it_ntoh64`; IT-API 2.1 Ch. 6, the IA group).
 *
 * @module
 */
import net from 'node:net';
import { endianness, networkInterfaces } from 'node:os';
import { roceSourceFor } from '../ibcm/rdma-ip.js';
import { RiRet } from '../rnicpi/status.js';
import type { ItApi, ItWaitOptions } from './api.js';
import { type ItDevice, itDevice, itDevices } from './access.js';
import { Lmr } from './mem.js';
import { check, checkHandle, fail, Ia, IA_RNIC_LOCATION, type Pz, softrdmaItapiPrivileged } from './objects.js';
import { UD_MAX_MESSAGE, UD_PDATA_REPLY, UD_PDATA_REQUEST } from './ud.js';
import { ibPathOf, isIbDevice, roceAddresses } from './roce.js';
import { it_status_t as S } from './status.js';
import {
  IT_HANDLE_KIND,
  it_conn_qual_type_t as CQ,
  it_iobl_type_t as IOBL,
  it_ip_vers_t,
  it_mem_priv_t as PRIV,
  it_net_addr_type_t as NA,
  it_rmr_type_t as RT,
  it_transport_service_type_t as SVC,
  it_transport_type_t as TT,
  type it_ia_info_t,
  type it_interface_t,
  type it_net_addr_t,
  type it_path_t,
  type it_spigot_info_t,
} from './types.js';
import { MAX_RC_LEN, DEFAULT_PATH_TIMEOUT_US, isIb, limits, pdataLimits, isUint } from './impl-common.js';

/** The transport of an Interface: iWARP (`softrdma0`) or InfiniBand (the RoCE Interface `softroce0`). */
function transportOfDevice(d: ItDevice): TT {
  return isIbDevice(d) ? TT.IT_IB_TRANSPORT : TT.IT_IWARP_TCP_TRANSPORT;
}

function transportOf(ia: Ia): TT {
  return transportOfDevice(ia.device);
}

function localAddrs(): it_net_addr_t[] {
  const out: it_net_addr_t[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      out.push(
        a.family === 'IPv4' ? { addr_type: NA.IT_IPV4, addr: { ipv4: a.address } } : { addr_type: NA.IT_IPV6, addr: { ipv6: a.address } },
      );
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
    vendor: ib
      ? { ib: { vendor: limits(ia).vendor_id, device: limits(ia).vendor_part_id, revision: limits(ia).hw_version } }
      : { iwarp: { valid_vid: false, vid } },
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

function swap64(x: bigint): bigint {
  const v = BigInt.asUintN(64, x);
  if (endianness() === 'BE') return v;
  let r = 0n;
  for (let i = 0n; i < 8n; i++) r |= ((v >> (i * 8n)) & 0xffn) << ((7n - i) * 8n);
  return r;
}

/** The IA group of {@link ItApi}. */
export const itIa: Pick<
  ItApi,
  | 'it_convert_net_addr'
  | 'it_get_consumer_context'
  | 'it_get_handle_type'
  | 'it_get_pathinfo'
  | 'it_hton64'
  | 'it_ntoh64'
  | 'it_ia_create'
  | 'it_ia_free'
  | 'it_ia_info_free'
  | 'it_ia_query'
  | 'it_interface_list'
  | 'it_set_consumer_context'
> = {
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
      if (addr_type === NA.IT_IPV6)
        return { status: S.IT_SUCCESS, destination_addr: { addr_type: NA.IT_IPV6, addr: { ipv6: `::ffff:${v}` } } };
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
            remote: {
              iwarp: { ip_vers: it_ip_vers_t.IT_IP_VERS_IPV4, laddr: { ipv4: loop ? '127.0.0.1' : '0.0.0.0' }, raddr: { ipv4: ip } },
            },
          }
        : {
            spigot_id: 0,
            timeout: DEFAULT_PATH_TIMEOUT_US,
            remote: { iwarp: { ip_vers: it_ip_vers_t.IT_IP_VERS_IPV6, laddr: { ipv6: loop ? '::1' : '::' }, raddr: { ipv6: ip } } },
          };
    return { status: S.IT_SUCCESS, paths: num_paths > 0 ? [path] : [], total_paths: 1 };
  },

  it_hton64(hostint) {
    return swap64(hostint);
  },

  it_ntoh64(netint) {
    return swap64(netint);
  },

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

  it_set_consumer_context(handle, context) {
    const h = checkHandle(handle);
    h.context = context === 0n ? null : context;
  },
};

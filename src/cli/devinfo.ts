/**
 * `softrdma devinfo [-v] [-d DEV] [-i PORT]`: what `ibv_devinfo` prints, from the same verbs
 * calls (`ibv_get_device_list`, `ibv_query_device`, `ibv_query_port`, `ibv_query_gid`).
 */
import { datagramLayer } from '../util/native-udp.js';
import { ibv_mtu, ibv_transport_type } from '../verbs/constants.js';
import { closeDevice, devices, gidTypes, openDevice, queryDevice, queryGid, queryPort } from '../verbs/device.js';
import { softrdmaLastError } from '../verbs/errno.js';
import type { ibv_device_attr, ibv_gid, ibv_port_attr } from '../verbs/types.js';
import { crc32cImplText } from '../wire/crc32c.js';
import { gidText } from './pingpong.js';
import { command, parseCommand } from './spec.js';

/** ibv_devinfo's names of `enum ibv_atomic_cap`. */
const ATOMIC_CAP_NAMES: Record<number, string> = { 0: 'ATOMIC_NONE', 1: 'ATOMIC_HCA', 2: 'ATOMIC_GLOB' };

function guid(g: bigint): string {
  const h = g.toString(16).padStart(16, '0');
  return `${h.slice(0, 4)}:${h.slice(4, 8)}:${h.slice(8, 12)}:${h.slice(12, 16)}`;
}

/** ibv_devinfo's own port state names (not ibv_port_state_str's). */
const PORT_STATE = ['PORT_NOP', 'PORT_DOWN', 'PORT_INIT', 'PORT_ARMED', 'PORT_ACTIVE', 'PORT_ACTIVE_DEFER'];

const MTU: Record<number, number> = {
  [ibv_mtu.IBV_MTU_256]: 256,
  [ibv_mtu.IBV_MTU_512]: 512,
  [ibv_mtu.IBV_MTU_1024]: 1024,
  [ibv_mtu.IBV_MTU_2048]: 2048,
  [ibv_mtu.IBV_MTU_4096]: 4096,
};

/** GID types as ibv_devinfo names them after the GID (`enum ibv_gid_type`). */
const GID_TYPE = ['IB', 'RoCE v1', 'RoCE v2'];

export function devinfo(argv: readonly string[], out: (s: string) => void, err: (s: string) => void = out): number {
  // ibv_devinfo: `ib_port = strtol(optarg, NULL, 0); if (ib_port <= 0) { usage(); return 1; }`:
  // the table's range, and its exit code 1.
  const { values: v, numbers } = parseCommand(command('devinfo')!, argv);
  const values = v as { 'ib-dev'?: string; list?: boolean; verbose?: boolean };
  const ibPort = numbers['ib-port'] ?? 0;
  const devs = devices().filter((d) => !values['ib-dev'] || d.name === values['ib-dev']);
  if (devs.length === 0) {
    out(values['ib-dev'] ? `IB device '${values['ib-dev']}' wasn't found\n` : 'No IB devices found\n');
    return values['ib-dev'] ? 255 : 0;
  }
  if (values.list) {
    out(`${devs.length} HCA${devs.length === 1 ? '' : 's'} found:\n`);
    for (const d of devs) out(`\t${d.name}\n`);
    return 0;
  }
  for (const dev of devs) {
    const ctx = openDevice(dev);
    if (!ctx) {
      err(`softrdma devinfo: ${softrdmaLastError().message}\n`);
      return 1;
    }
    const a = {} as ibv_device_attr;
    if (queryDevice(ctx, a) !== 0) return 1;
    if (ibPort > a.phys_port_cnt) {
      // ibv_devinfo's words and status ("rc = 3 is taken by failure to clean up").
      closeDevice(ctx);
      err('Invalid port requested for device\n');
      return 4;
    }
    out(`hca_id:\t${dev.name}\n`);
    out(
      `\ttransport:\t\t\t${dev.transport_type === ibv_transport_type.IBV_TRANSPORT_IWARP ? 'iWARP' : 'InfiniBand'} (${dev.transport_type})\n`,
    );
    out(`\tfw_ver:\t\t\t\t${a.fw_ver}\n`);
    out(`\tnode_guid:\t\t\t${guid(a.node_guid)}\n`);
    out(`\tsys_image_guid:\t\t\t${guid(a.sys_image_guid)}\n`);
    out(`\tvendor_id:\t\t\t0x${a.vendor_id.toString(16).padStart(4, '0')}\n`);
    out(`\tvendor_part_id:\t\t\t${a.vendor_part_id}\n`);
    out(`\thw_ver:\t\t\t\t0x${a.hw_ver.toString(16)}\n`);
    if (values.verbose) {
      const rows: [string, string | number][] = [
        ['max_mr_size', `0x${a.max_mr_size.toString(16)}`],
        ['page_size_cap', `0x${a.page_size_cap.toString(16)}`],
        ['max_qp', a.max_qp],
        ['max_qp_wr', a.max_qp_wr],
        ['device_cap_flags', `0x${a.device_cap_flags.toString(16).padStart(8, '0')}`],
        ['max_sge', a.max_sge],
        ['max_sge_rd', a.max_sge_rd],
        ['max_cq', a.max_cq],
        ['max_cqe', a.max_cqe],
        ['max_mr', a.max_mr],
        ['max_pd', a.max_pd],
        ['max_qp_rd_atom', a.max_qp_rd_atom],
        ['max_ee_rd_atom', a.max_ee_rd_atom],
        ['max_res_rd_atom', a.max_res_rd_atom],
        ['max_qp_init_rd_atom', a.max_qp_init_rd_atom],
        ['max_ee_init_rd_atom', a.max_ee_init_rd_atom],
        ['atomic_cap', `${ATOMIC_CAP_NAMES[a.atomic_cap] ?? 'ATOMIC_?'} (${a.atomic_cap})`],
        ['max_ee', a.max_ee],
        ['max_rdd', a.max_rdd],
        ['max_mw', a.max_mw],
        ['max_raw_ipv6_qp', a.max_raw_ipv6_qp],
        ['max_raw_ethy_qp', a.max_raw_ethy_qp],
        ['max_mcast_grp', a.max_mcast_grp],
        ['max_mcast_qp_attach', a.max_mcast_qp_attach],
        ['max_total_mcast_qp_attach', a.max_total_mcast_qp_attach],
        ['max_ah', a.max_ah],
        ['max_fmr', a.max_fmr],
        ['max_srq', a.max_srq],
        ['max_srq_wr', a.max_srq_wr],
        ['max_srq_sge', a.max_srq_sge],
        ['max_pkeys', a.max_pkeys],
        ['local_ca_ack_delay', a.local_ca_ack_delay],
      ];
      for (const [k, v] of rows) out(`\t${`${k}:`.padEnd(32)}${v}\n`);
    }
    out(`\tphys_port_cnt:\t\t\t${a.phys_port_cnt}\n`);
    for (let port = 1; port <= a.phys_port_cnt; port++) {
      if (ibPort && ibPort !== port) continue;
      const p = {} as ibv_port_attr;
      if (queryPort(ctx, port, p) !== 0) continue;
      out(`\t\tport:\t${port}\n`);
      out(`\t\t\tstate:\t\t\t${PORT_STATE[p.state] ?? 'invalid state'} (${p.state})\n`);
      out(`\t\t\tmax_mtu:\t\t${MTU[p.max_mtu]} (${p.max_mtu})\n`);
      out(`\t\t\tactive_mtu:\t\t${MTU[p.active_mtu]} (${p.active_mtu})\n`);
      out(`\t\t\tsm_lid:\t\t\t${p.sm_lid}\n`);
      out(`\t\t\tport_lid:\t\t${p.lid}\n`);
      out(`\t\t\tport_lmc:\t\t0x${p.lmc.toString(16).padStart(2, '0')}\n`);
      out('\t\t\tlink_layer:\t\tEthernet\n');
      if (values.verbose) {
        out(`\t\t\tmax_msg_sz:\t\t0x${p.max_msg_sz.toString(16)}\n`);
        out(`\t\t\tport_cap_flags:\t\t0x${p.port_cap_flags.toString(16).padStart(8, '0')}\n`);
        out(`\t\t\tmax_vl_num:\t\t${p.max_vl_num}\n`);
        out(`\t\t\tbad_pkey_cntr:\t\t0x${p.bad_pkey_cntr.toString(16)}\n`);
        out(`\t\t\tqkey_viol_cntr:\t\t0x${p.qkey_viol_cntr.toString(16)}\n`);
        out(`\t\t\tsm_sl:\t\t\t${p.sm_sl}\n`);
        out(`\t\t\tpkey_tbl_len:\t\t${p.pkey_tbl_len}\n`);
        out(`\t\t\tgid_tbl_len:\t\t${p.gid_tbl_len}\n`);
        const g: ibv_gid = { raw: new Uint8Array(16) };
        if (dev.transport_type === ibv_transport_type.IBV_TRANSPORT_IB) {
          // RoCE: every entry of the GID table with its type, as rdma-core's ibv_devinfo.
          const types = gidTypes(ctx);
          for (let i = 0; i < p.gid_tbl_len && queryGid(ctx, port, i, g) === 0; i++) {
            // An empty slot (an address that went away) is skipped, as ibv_devinfo skips null GIDs.
            if (g.raw.every((b) => b === 0)) continue;
            out(`\t\t\tGID[${String(i).padStart(3)}]:\t\t${gidText(g.raw)}, ${GID_TYPE[types[i] ?? 0]}\n`);
          }
          // softrdma's own line: the UDP layer the RoCEv2 datagrams go through (src/roce/net.ts).
          out(`\t\t\tdatagram_layer:\t\t${datagramLayer().text}\n`);
        } else if (queryGid(ctx, port, 0, g) === 0) {
          const hex = [...g.raw].map((b) => b.toString(16).padStart(2, '0'));
          const groups: string[] = [];
          for (let i = 0; i < 16; i += 2) groups.push(hex[i]! + hex[i + 1]!);
          out(`\t\t\tGID[  0]:\t\t${groups.join(':')}\n`);
          // softrdma's own line: the CRC32C code of MPA (src/wire/crc32c.ts).
          out(`\t\t\tmpa_crc32c:\t\t${crc32cImplText}\n`);
        }
      }
      out('\n');
    }
    closeDevice(ctx);
  }
  return 0;
}

/**
 * `softrdma devices` (rdma-core's `ibv_devices`) and `softrdma link` (iproute2's `rdma link`):
 * the devices by name and node GUID, and each port's state with the addresses it answers on.
 */
import { networkInterfaces } from 'node:os';
import { ibv_port_state, ibv_transport_type } from '../verbs/constants.js';
import { closeDevice, devices, gidNetdevs, openDevice, queryDevice, queryGid, queryPort } from '../verbs/device.js';
import { softrdmaLastError } from '../verbs/errno.js';
import type { Context } from '../verbs/device.js';
import type { ibv_device_attr, ibv_port_attr } from '../verbs/types.js';
import type { CliIo } from './cli.js';
import { gidText } from './pingpong.js';
import { command, parseCommand } from './spec.js';

export function devicesCmd(argv: readonly string[], io: CliIo): number {
  const { values } = parseCommand(command('devices')!, argv);
  const list = devices().map((d) => ({ device: d.name, node_guid: d.guid.toString(16).padStart(16, '0') }));
  if (values.json) {
    io.out(`${JSON.stringify(list)}\n`);
    return 0;
  }
  // ibv_devices' own layout: "    %-16s\t%016llx".
  io.out(`    ${'device'.padEnd(16)}\t   node GUID\n`);
  io.out(`    ${'------'.padEnd(16)}\t----------------\n`);
  for (const d of list) io.out(`    ${d.device.padEnd(16)}\t${d.node_guid}\n`);
  return 0;
}

/** rdma's names for the port states (`rdma link`: "ACTIVE", "DOWN", …). */
const STATE: Record<number, string> = {
  [ibv_port_state.IBV_PORT_NOP]: 'NOP',
  [ibv_port_state.IBV_PORT_DOWN]: 'DOWN',
  [ibv_port_state.IBV_PORT_INIT]: 'INIT',
  [ibv_port_state.IBV_PORT_ARMED]: 'ARMED',
  [ibv_port_state.IBV_PORT_ACTIVE]: 'ACTIVE',
  [ibv_port_state.IBV_PORT_ACTIVE_DEFER]: 'ACTIVE_DEFER',
};

/** The running interfaces and their IPv4/IPv6 addresses (what the iWARP device can listen and connect on). */
function netdevs(): { netdev: string; addresses: string[] }[] {
  return Object.entries(networkInterfaces()).map(([netdev, list]) => ({ netdev, addresses: (list ?? []).map((a) => a.address) }));
}

/** The RoCE port's GID table grouped by interface, in index order (the addresses of its GIDs: IPv4 for IPv4-mapped ones, else IPv6). */
function gidNetdevRows(ctx: Context): { netdev: string; addresses: string[] }[] {
  const names = gidNetdevs(ctx);
  const out: { netdev: string; addresses: string[] }[] = [];
  const g = { raw: new Uint8Array(16) };
  for (let i = 0; i < names.length && queryGid(ctx, 1, i, g) === 0; i++) {
    if (g.raw.every((b) => b === 0)) continue;
    const address = gidText(g.raw).replace(/^::ffff:(?=\d+\.)/, '');
    const netdev = names[i] ?? '-';
    const row = out.find((o) => o.netdev === netdev);
    if (row) row.addresses.push(address);
    else out.push({ netdev, addresses: [address] });
  }
  return out;
}

export function linkCmd(argv: readonly string[], io: CliIo): number {
  const { values, positionals } = parseCommand(command('link')!, argv);
  const args = positionals[0] === 'show' || positionals[0] === 'list' ? positionals.slice(1) : positionals;
  if (args.length > 1) {
    io.err(`softrdma link: unexpected argument '${args[1]}'\n`);
    return 2;
  }
  const [wantDev, wantPortText] = (args[0] ?? '').split('/');
  const wantPort = wantPortText === undefined ? undefined : Number(wantPortText);
  const devs = devices().filter((d) => !wantDev || d.name === wantDev);
  if (wantDev && devs.length === 0) {
    io.err(`Wrong device name\n`);
    return 1;
  }
  const rows: {
    ifname: string;
    port: number;
    state: string;
    physical_state: string;
    transport: string;
    netdevs: ReturnType<typeof netdevs>;
  }[] = [];
  for (const dev of devs) {
    const ctx = openDevice(dev);
    if (!ctx) {
      io.err(`softrdma link: ${softrdmaLastError().message}\n`);
      return 1;
    }
    const a = {} as ibv_device_attr;
    queryDevice(ctx, a);
    if (wantPort !== undefined && !(Number.isInteger(wantPort) && wantPort >= 1 && wantPort <= a.phys_port_cnt)) {
      closeDevice(ctx);
      io.err('Wrong port number\n');
      return 1;
    }
    for (let port = 1; port <= a.phys_port_cnt; port++) {
      if (wantPort !== undefined && port !== wantPort) continue;
      const p = {} as ibv_port_attr;
      if (queryPort(ctx, port, p) !== 0) continue;
      rows.push({
        ifname: dev.name,
        port,
        state: STATE[p.state] ?? String(p.state),
        physical_state: p.state === ibv_port_state.IBV_PORT_ACTIVE ? 'LINK_UP' : 'DISABLED',
        transport: dev.transport_type === ibv_transport_type.IBV_TRANSPORT_IWARP ? 'iWARP' : 'InfiniBand',
        netdevs: dev.transport_type === ibv_transport_type.IBV_TRANSPORT_IWARP ? netdevs() : gidNetdevRows(ctx),
      });
    }
    closeDevice(ctx);
  }
  if (values.json) {
    io.out(`${JSON.stringify(rows)}\n`);
    return 0;
  }
  for (const r of rows) {
    const nd = r.netdevs.map((n) => `${n.netdev} ${n.addresses.join(' ')}`).join(', ');
    io.out(`link ${r.ifname}/${r.port} state ${r.state} physical_state ${r.physical_state} transport ${r.transport} netdev ${nd || '-'}\n`);
  }
  return 0;
}

/**
 * The configuration of the provider's RoCEv2 RNICs: each one's GID table (`gid-table.ts`), UDP
 * port and active MTU, and the way back from an RNIC to its table.
 *
 * @module
 */
import { RoceGidTable } from './gid-table.js';
import { roceUdpPortFromEnv } from './ib.js';
import type { RnicConfig } from '../rnic/rnic.js';
import { SoftrdmaVp, type SoftrdmaVpInfo } from './handles.js';

/**
 * The configuration of the `i`th RoCEv2 RNIC: the InfiniBand family, carried by the RoCEv2
 * transport (its binder, `registerIbBinder('rocev2', …)`), its own GID table (`gid-table.ts`: the
 * host's addresses, followed while the RNIC is open, or `SOFTRDMA_ROCE_ADDRS`), the UDP
 * port of `SOFTRDMA_ROCE_PORT` (default 4791), and an active MTU of 1024, as Linux rxe derives
 * it from a 1500-octet Ethernet MTU.
 */
export function roceConfig(base: Partial<RnicConfig> | undefined, i: number): Partial<RnicConfig> {
  const port = roceUdpPortFromEnv();
  const table = new RoceGidTable();
  const gids = () => table.gids();
  roceTables.set(gids, table);
  return {
    ...base,
    name: `softroce${i}`,
    family: 'ib',
    ibLink: 'rocev2',
    gids,
    watchGids: (fn) => table.watch(fn),
    activeMtu: 3,
    ...(port !== undefined && { roceUdpPort: port }),
  };
}

/** The GID table of each RoCEv2 RNIC made by {@link roceConfig}, by its `gids` accessor. */
const roceTables = new WeakMap<object, RoceGidTable>();

/** The GID table owner of a RoCEv2 RNIC (null: another RNIC, or one whose table is fixed). */
export function roceGidTableOf(vp: SoftrdmaVpInfo): RoceGidTable | null {
  if (!(vp instanceof SoftrdmaVp)) return null;
  const g = vp.engine.config.gids;
  return (g && roceTables.get(g)) ?? null;
}

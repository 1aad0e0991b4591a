/**
 * The identity of a softrdma device: its MAC (the GID of an iWARP port) and its node GUID, the
 * EUI-64 of that MAC (IEEE EUI-64 from a MAC-48: FF FE in the middle, the U/L bit inverted), as
 * a real NIC's. The node GUID is the CA GUID of the IB CM (IBTA Vol. 1 §12.9.1), which with a
 * QPN names a connection to every peer (§12.9.8.3.1), so it must not be something a spoofer can
 * work out from the host's address or a process ID.
 *
 * A RoCE device's is stable per host and device: a keyed hash of the host's machine ID (`/etc/machine-id`,
 * as machine-id(5) asks: never used directly, only through a keyed hash with an application key)
 * and the device name. Without a machine ID the host name and the MACs of its interfaces stand
 * in. Every face reads it from the provider (`ri_rnic_query`'s `node_guid` on InfiniBand, its
 * `vendor_id` and `vendor_part_id` on both transports); this is the one place they are set.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';

/**
 * The vendor of every softrdma device, as `ri_rnic_query` reports it (`vendor_id`,
 * `vendor_part_id`): no IEEE OUI is registered for a software RNIC; "SOF" stands for one.
 */
export const SOFTRDMA_VENDOR_ID = 0x534f46;
export const SOFTRDMA_VENDOR_PART_ID = 1;

/** The MAC and node GUID of one device. */
export interface DeviceIdentity {
  readonly mac: Uint8Array;
  readonly nodeGuid: bigint;
}

let hostKey: string | undefined;

/** What identifies this host (secret input of the keyed hash; never shown). */
function hostSecret(): string {
  if (hostKey !== undefined) return hostKey;
  for (const f of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    try {
      const id = readFileSync(f, 'utf8').trim();
      if (id) return (hostKey = `machine-id:${id}`);
    } catch {
      // not there: the next source
    }
  }
  const macs = Object.values(networkInterfaces())
    .flatMap((l) => l ?? [])
    .filter((a) => !a.internal && a.mac !== '00:00:00:00:00:00')
    .map((a) => a.mac);
  return (hostKey = `host:${hostname()}:${[...new Set(macs)].sort().join(',')}`);
}

/** The EUI-64 of a MAC-48 (FF FE inserted, the universal/local bit inverted). */
export function eui64OfMac(m: Uint8Array): bigint {
  return (
    (BigInt(m[0]! ^ 2) << 56n) |
    (BigInt(m[1]!) << 48n) |
    (BigInt(m[2]!) << 40n) |
    (0xfffen << 24n) |
    (BigInt(m[3]!) << 16n) |
    (BigInt(m[4]!) << 8n) |
    BigInt(m[5]!)
  );
}

/**
 * The identity of the device `name` on this host: the same in every process. An iWARP RNIC has
 * no IB CM and RNICPI gives it no GUID, so nothing names a connection by it: it keeps a fixed
 * locally administered MAC, `02:53:4f:46:00:<n>` ("SOF", n from the device name's number), its
 * port's GID.
 */
export function deviceIdentity(name: string, ib: boolean): DeviceIdentity {
  if (!ib) {
    const mac = Uint8Array.from([0x02, 0x53, 0x4f, 0x46, 0x00, Number(/\d+$/.exec(name)?.[0] ?? 0) & 0xff]);
    return { mac, nodeGuid: eui64OfMac(mac) };
  }
  const h = createHmac('sha256', hostSecret()).update(`softrdma device identity\0${name}`).digest();
  const mac = Uint8Array.from(h.subarray(0, 6));
  // A unicast, locally administered address (IEEE 802: I/G bit 0, U/L bit 1).
  mac[0] = (mac[0]! & 0xfc) | 0x02;
  return { mac, nodeGuid: eui64OfMac(mac) };
}

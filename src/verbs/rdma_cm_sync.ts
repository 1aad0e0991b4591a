/**
 * Synchronous ids (manual §5.1: `rdma_get_request`, `rdma_getaddrinfo`, `rdma_freeaddrinfo`,
 * `rdma_create_ep`, `rdma_destroy_ep`): an id without an event channel, whose calls return when
 * the event they wait for has arrived.
 *
 * @module
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AF_INET, AF_INET6, ibv_qp_type, RAI_PASSIVE, rdma_port_space } from './constants.js';
import { EADDRNOTAVAIL, EINVAL, getErrno } from './errno.js';
import { ibv_destroy_srq } from './ibverbs.js';
import type { ibv_pd, ibv_qp_init_attr, In, rdma_addrinfo, rdma_cm_id, sockaddr } from './types.js';
import { rdma_bind_addr, rdma_resolve_addr, rdma_resolve_route } from './rdma_cm_addr.js';
import { rdma_create_id, rdma_destroy_id } from './rdma_cm_channel.js';
import { rdma_create_qp, rdma_destroy_qp } from './rdma_cm_conn.js';
import { CmId, failRdma, idOk } from './rdma_cm_id.js';

// ------------------------------------------------------------------------------ synchronous ids

/** `rdma_get_request` on a synchronous listening id: the next connection request's new id. */
export async function rdma_get_request(listen: rdma_cm_id): Promise<{ ret: number; id: rdma_cm_id | null }> {
  const l = listen as CmId;
  if (!idOk(l) || l.state !== 'listen' || l.channel) return { ret: failRdma(EINVAL), id: null };
  for (;;) {
    const ready = l.pendingRequests.shift();
    if (ready) {
      // A listener made by rdma_create_ep with QP attributes hands out ids that have a QP.
      if (l.epQp && !ready.qp && rdma_create_qp(ready, l.epQp.pd, { ...l.epQp.attr, cap: { ...l.epQp.attr.cap } }) !== 0) {
        const e = getErrno();
        ready.req?.reject(new Uint8Array(0));
        ready.dead = true;
        return { ret: failRdma(e), id: null };
      }
      return { ret: 0, id: ready };
    }
    await l.nextSync();
  }
}

export async function rdma_getaddrinfo(
  node: string | null,
  service: string | null,
  hints: In<rdma_addrinfo> | null,
): Promise<{ ret: number; res: rdma_addrinfo | null }> {
  // At least one of node and service (getaddrinfo(3): EAI_NONAME; librdmacm fails).
  if (node === null && service === null) return { ret: failRdma(EINVAL), res: null };
  const passive = ((hints?.ai_flags ?? 0) & RAI_PASSIVE) !== 0;
  const port = service ? Number(service) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) return { ret: failRdma(EINVAL), res: null };
  let address = passive ? '0.0.0.0' : '127.0.0.1';
  if (node) {
    if (isIP(node)) address = node;
    else {
      try {
        address = (await lookup(node, { family: 4 })).address;
      } catch {
        return { ret: failRdma(EADDRNOTAVAIL), res: null };
      }
    }
  }
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  const sa: sockaddr = { family, address, port };
  const res: rdma_addrinfo = {
    ai_flags: hints?.ai_flags ?? 0,
    ai_family: family === 'ipv6' ? AF_INET6 : AF_INET,
    ai_qp_type: ibv_qp_type.IBV_QPT_RC,
    ai_port_space: rdma_port_space.RDMA_PS_TCP,
    ai_src_len: passive ? 16 : 0,
    ai_dst_len: passive ? 0 : 16,
    ai_src_addr: passive ? sa : null,
    ai_dst_addr: passive ? null : sa,
    ai_src_canonname: null,
    ai_dst_canonname: node,
    ai_route_len: 0,
    ai_route: null,
    ai_connect_len: 0,
    ai_connect: null,
    ai_next: null,
  };
  return { ret: 0, res };
}

export function rdma_freeaddrinfo(_res: rdma_addrinfo): void {}

/** `rdma_create_ep`: a synchronous id with address and route resolved (or bound), and a QP. */
export async function rdma_create_ep(
  res: rdma_addrinfo,
  pd: ibv_pd | null,
  attr: In<ibv_qp_init_attr> | null,
): Promise<{ ret: number; id: rdma_cm_id | null }> {
  const { id } = rdma_create_id(null, null, rdma_port_space.RDMA_PS_TCP);
  if (!id) return { ret: -1, id: null };
  const i = id as CmId;
  if (res.ai_flags & RAI_PASSIVE) {
    if (!res.ai_src_addr || rdma_bind_addr(i, res.ai_src_addr) !== 0) return { ret: failRdma(EINVAL), id: null };
  } else {
    if (!res.ai_dst_addr) return { ret: failRdma(EINVAL), id: null };
    await rdma_resolve_addr(i, res.ai_src_addr, res.ai_dst_addr, 2000);
    await rdma_resolve_route(i, 2000);
  }
  if (attr) {
    if (res.ai_flags & RAI_PASSIVE) i.epQp = { pd, attr };
    else if (rdma_create_qp(i, pd, attr) !== 0) {
      const e = getErrno();
      rdma_destroy_id(i);
      return { ret: failRdma(e), id: null };
    }
  }
  return { ret: 0, id: i };
}

export function rdma_destroy_ep(id: rdma_cm_id): number {
  const i = id as CmId;
  if (!(i instanceof CmId)) return failRdma(EINVAL);
  rdma_destroy_qp(i);
  if (i.srq) ibv_destroy_srq(i.srq);
  return rdma_destroy_id(i);
}

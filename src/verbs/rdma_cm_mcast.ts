/**
 * Multicast on UD ids (manual §5.1: `rdma_join_multicast`, `rdma_join_multicast_ex`,
 * `rdma_leave_multicast`): RoCE only; the QP attaches to the group's MGID. iWARP has no
 * multicast (ENOSYS, as Linux rdma_cm on iWARP).
 *
 * @module
 */
import { QPN_MULTICAST } from '../wire/ib/bth.js';
import { isIP } from 'node:net';
import { RDMA_UDP_QKEY, gidFromIpv4 } from '../wire/ib/cm.js';
import { rdma_cm_event_type, rdma_cm_join_mc_attr_mask, rdma_cm_mc_join_flags } from './constants.js';
import { EADDRINUSE, EADDRNOTAVAIL, EINVAL, ENOSYS } from './errno.js';
import { ipv6Bytes } from '../wire/ib/gid-address.js';
import { gidIndex, ibAhAttr, isIbContext } from './rdma_cm_ib.js';
import { mcastAttach, type Qp } from './ibverbs.js';
import type { In, rdma_cm_id, rdma_cm_join_mc_attr_ex, sockaddr } from './types.js';
import { stripV6 } from './rdma_cm_addr.js';
import { type CmId, emptyParam, failRdma, idOk, sockaddrOk } from './rdma_cm_id.js';

/**
 * `rdma_join_multicast` (manual §5.2.21). On the RoCE device, as Linux `cma_iboe_join_multicast`
 * with librdmacm's `ucma_process_join`: the IPv4 group G becomes the MGID `::ffff:G`, the id's QP
 * (if it has one) is attached to it (`ibv_attach_mcast`; the RoCEv2 transport then makes the
 * real IGMP join through its socket), and MULTICAST_JOIN follows with `param.ud`: an address
 * handle attribute to the group, QPN 0xFFFFFF, Q_Key RDMA_UDP_QKEY, private_data = `context`.
 * An IPv6 group (`ff00::/8`) is its own MGID, as `cma_iboe_set_mgid` makes it, and the
 * transport's join is an MLD report. The id must be bound or resolved to the RoCE device; a
 * group joined twice is EADDRINUSE. Multicast needs UD QPs, which
 * iWARP does not have: on softrdma0 ENOSYS (Linux rdma_cm on iWARP).
 */
export async function rdma_join_multicast(id: rdma_cm_id, addr: sockaddr, context: unknown): Promise<number> {
  return joinMulticast(id as CmId, addr, context, false);
}

/**
 * `rdma_join_multicast_ex` (librdmacm, rdma_cma.h): `rdma_join_multicast` with join flags. Both
 * `RDMA_CM_JOIN_MC_ATTR_ADDRESS` and `RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS` must be in `comp_mask`, and
 * the flag must be a known one, else EINVAL. A send-only full member
 * (`RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER`) gets its MULTICAST_JOIN event, with the address
 * handle attribute to send to the group, but its QP is not attached and no IGMP join is made,
 * so it receives nothing sent to the group: as librdmacm's `ucma_process_join` skips the attach
 * and Linux `cma_iboe_join_multicast` the IGMP join for a send-only member.
 */
export async function rdma_join_multicast_ex(id: rdma_cm_id, mc_join_attr: In<rdma_cm_join_mc_attr_ex>, context: unknown): Promise<number> {
  const M = rdma_cm_join_mc_attr_mask;
  const a = mc_join_attr;
  if (!a || typeof a !== 'object') return failRdma(EINVAL);
  const mask = a.comp_mask ?? 0;
  const flags = a.join_flags ?? -1;
  if (!Number.isInteger(mask) || !Number.isInteger(flags)) return failRdma(EINVAL);
  if (mask & ~(M.RDMA_CM_JOIN_MC_ATTR_ADDRESS | M.RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS))
    return failRdma(EINVAL, 'rdma_join_multicast_ex: unknown comp_mask bits (EINVAL)');
  if (!(mask & M.RDMA_CM_JOIN_MC_ATTR_ADDRESS))
    return failRdma(EINVAL, 'rdma_join_multicast_ex: RDMA_CM_JOIN_MC_ATTR_ADDRESS is required (EINVAL)');
  if (!(mask & M.RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS) || flags < 0 || flags >= rdma_cm_mc_join_flags.RDMA_MC_JOIN_FLAG_RESERVED) {
    return failRdma(EINVAL, 'rdma_join_multicast_ex: a join flag (FULLMEMBER or SENDONLY_FULLMEMBER) is required (EINVAL)');
  }
  return joinMulticast(id as CmId, a.addr as sockaddr, context, flags === rdma_cm_mc_join_flags.RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER);
}

async function joinMulticast(i: CmId, addr: sockaddr, context: unknown, sendOnly: boolean): Promise<number> {
  if (!idOk(i) || !sockaddrOk(addr)) return failRdma(EINVAL);
  if (!isIbContext(i.verbs)) return failRdma(ENOSYS);
  if (i.state !== 'bound' && i.state !== 'addr' && i.state !== 'route') return failRdma(EINVAL);
  const g = stripV6(addr.address);
  const v6 = isIP(g) === 6;
  if (v6 ? ipv6Bytes(g)[0] !== 0xff : isIP(g) !== 4 || Number(g.split('.')[0]) < 224 || Number(g.split('.')[0]) > 239) {
    return failRdma(EINVAL, `rdma_join_multicast: ${g} is not a multicast address (EINVAL)`);
  }
  if (i.mcast.has(g)) return failRdma(EADDRINUSE);
  const mgid = v6 ? Uint8Array.from(ipv6Bytes(g)) : gidFromIpv4(g);
  const joined = { mgid, attached: false };
  i.mcast.set(g, joined);
  const sgid = i.route.addr.addr.ibaddr.sgid.raw;
  const sgidIndex = Math.max(0, gidIndex(i.verbs!, sgid));
  // The join completes later, as Linux's (a work item): a leave before it cancels it.
  setImmediate(() => {
    if (i.dead || i.mcast.get(g) !== joined) return;
    if (i.qp && !i.qp.dead && !sendOnly) {
      const r = ibv_attach_mcast_ib(i.qp, mgid);
      if (r !== 0) {
        i.mcast.delete(g);
        const p = emptyParam();
        p.ud.private_data = context as Uint8Array | null;
        i.post(rdma_cm_event_type.RDMA_CM_EVENT_MULTICAST_ERROR, -r, p);
        return;
      }
      joined.attached = true;
    }
    const p = emptyParam();
    p.ud.private_data = context as Uint8Array | null;
    p.ud.private_data_len = 0;
    p.ud.ah_attr = ibAhAttr(mgid, sgidIndex);
    p.ud.qp_num = QPN_MULTICAST;
    p.ud.qkey = RDMA_UDP_QKEY;
    i.post(rdma_cm_event_type.RDMA_CM_EVENT_MULTICAST_JOIN, 0, p);
  });
  return 0;
}

/** `rdma_leave_multicast`: the QP leaves the group (IGMP leave with its last member). A group not joined: EADDRNOTAVAIL. */
export function rdma_leave_multicast(id: rdma_cm_id, addr: sockaddr): number {
  const i = id as CmId;
  if (!idOk(i) || !sockaddrOk(addr)) return failRdma(EADDRNOTAVAIL);
  const g = stripV6(addr.address);
  const j = i.mcast.get(g);
  if (!j) return failRdma(EADDRNOTAVAIL);
  i.mcast.delete(g);
  if (j.attached && i.qp && !i.qp.dead) ibv_detach_mcast_ib(i.qp, j.mgid);
  return 0;
}

/** Leaves every group the id joined (before its QP or the id goes). */
export function leaveAll(i: CmId): void {
  for (const [g, j] of [...i.mcast]) {
    i.mcast.delete(g);
    if (j.attached && i.qp && !i.qp.dead) ibv_detach_mcast_ib(i.qp, j.mgid);
  }
}

function ibv_attach_mcast_ib(qp: Qp, mgid: Uint8Array): number {
  return mcastAttach(qp, { raw: mgid }, 0, false);
}
function ibv_detach_mcast_ib(qp: Qp, mgid: Uint8Array): number {
  return mcastAttach(qp, { raw: mgid }, 0, true);
}

/**
 * Address handles and multicast attachment (manual §4.5: `ibv_create_ah`, `ibv_destroy_ah`,
 * `ibv_init_ah_from_wc`, `ibv_attach_mcast`): a RoCEv2 device's RNICPI address handles, and the
 * GRH (or RoCEv2's IPv4 header) at the start of a UD receive buffer.
 *
 * @module
 */
import { GRH_LEN } from '../wire/ib/constants.js';
import { RiRet } from '../rnicpi/status.js';
import { riGidOfBytes } from '../rnicpi/gid.js';
import { ibv_wc_flags } from './constants.js';
import { type Context, errnoOf, fail, queryGid } from './device.js';
import { EINVAL, ENOMEM } from './errno.js';
import type { ibv_ah, ibv_ah_attr, ibv_gid, ibv_grh, ibv_pd, ibv_qp, ibv_wc, In } from './types.js';
import { Ah, type Pd, type Qp, alive, nullWith } from './ibv_objects.js';
import { riAvOf } from './ibv_qp.js';

// ------------------------------------------------------------------------------ address handles

/**
 * The 40 octets at the start of a UD receive buffer, or null. RoCEv2 over IPv4 puts 20 zero
 * octets and the IPv4 header there (Linux rxe; rdma-core's `ibv_init_ah_from_wc` reads it so):
 * the GIDs are then the IPv4-mapped source and destination addresses. Otherwise it is the IB
 * GRH (IBTA Vol. 1 §8.3, the IPv6 layout).
 */
function decodeGrh(b: Uint8Array): In<ibv_grh> | null {
  if (b.length < GRH_LEN) return null;
  const v = new DataView(b.buffer, b.byteOffset, GRH_LEN);
  if (b.subarray(0, 20).every((x) => x === 0) && b[20]! >> 4 === 4) {
    const mapped = (at: number) => {
      const g = new Uint8Array(16);
      g[10] = 0xff;
      g[11] = 0xff;
      g.set(b.subarray(at, at + 4), 12);
      return { raw: g };
    };
    return {
      version_tclass_flow: (6 << 28) | (b[21]! << 20),
      paylen: v.getUint16(22) - 20,
      next_hdr: 0x1b,
      hop_limit: b[28]!,
      sgid: mapped(32),
      dgid: mapped(36),
    };
  }
  return {
    version_tclass_flow: v.getUint32(0),
    paylen: v.getUint16(4),
    next_hdr: b[6]!,
    hop_limit: b[7]!,
    sgid: { raw: b.slice(8, 24) },
    dgid: { raw: b.slice(24, 40) },
  };
}

/** `ibv_create_ah` on a RoCEv2 device (`ri_ah_create`); iWARP keeps the unsupported errno (index.ts). */
export function createAh(pd: ibv_pd, attr: In<ibv_ah_attr>): Ah | null {
  const p = pd as Pd;
  if (!alive(p, 'ibv_pd') || !attr || typeof attr !== 'object') return nullWith(EINVAL);
  // RoCE: every address is global (a GRH carries the IP addresses: IBTA Annex A17).
  if ((attr.is_global ?? 0) !== 1) return nullWith(EINVAL);
  const av = riAvOf(attr);
  if (!av) return nullWith(EINVAL);
  const ctx = p.context;
  const r = ctx.ops.ri_ah_create(ctx.rnic, p.ri, { av_common: av, physical_port: attr.port_num ?? 0 }, null, null);
  if (r.status !== RiRet.SUCCESS) return nullWith(errnoOf(r.status));
  const ah = new Ah(ctx, p, r.ah);
  ctx.objects.add(ah);
  return ah;
}

/**
 * `ibv_attach_mcast` / `ibv_detach_mcast` on a RoCEv2 device (manual §4.6.13–14;
 * `ri_mcast_attach`/`ri_mcast_detach`): a UD QP joins or leaves the multicast group `gid` (an
 * IPv4-mapped group address on RoCEv2). As Linux `ib_attach_mcast`: a QP that is not UD or a GID
 * that is not a multicast group is EINVAL, a full group ENOMEM; detaching a group the QP is not
 * in is EINVAL. iWARP keeps the unsupported errno (index.ts).
 */
export function mcastAttach(qp: ibv_qp, gid: In<ibv_gid>, lid: number, detach: boolean): number {
  const q = qp as Qp;
  if (!alive(q, 'ibv_qp')) return fail(EINVAL);
  const raw = gid?.raw;
  if (!(raw instanceof Uint8Array) || raw.length !== 16 || !Number.isInteger(lid)) return fail(EINVAL);
  const mgid = riGidOfBytes(raw);
  const ctx = q.context;
  const r = detach ? ctx.ops.ri_mcast_detach(ctx.rnic, lid, mgid, q.ri) : ctx.ops.ri_mcast_attach(ctx.rnic, lid, mgid, q.ri, null, null);
  if (r.status === RiRet.SUCCESS) return 0;
  if (r.status === RiRet.RNIC_QPS_PER_MCAST_PORT_EXCEEDED || r.status === RiRet.RESOURCE_SHORTAGE) return fail(ENOMEM);
  return fail(EINVAL, `ibv_${detach ? 'detach' : 'attach'}_mcast: ${RiRet[r.status]} (EINVAL)`);
}

/** `ibv_destroy_ah` (`ri_ah_destroy`). */
export function destroyAh(ah: ibv_ah): number {
  const a = ah as Ah;
  if (!(a instanceof Ah) || a.dead) return fail(EINVAL);
  const st = a.context.ops.ri_ah_destroy(a.context.rnic, a.ri);
  if (st.status !== RiRet.SUCCESS) return fail(errnoOf(st.status));
  a.dead = true;
  a.context.objects.delete(a);
  return 0;
}

/**
 * `ibv_init_ah_from_wc` on a RoCEv2 device (manual §4.6.11): the reply path of a received
 * datagram. RoCE datagrams always carry a GRH (`IBV_WC_GRH`): the reply goes to its source GID,
 * from the local GID it was sent to (its index in the GID table), as rdma-core does.
 */
export function initAhFromWc(
  ctx: Context,
  port_num: number,
  wc: In<ibv_wc>,
  grhIn: Uint8Array | In<ibv_grh> | null,
  ah_attr: ibv_ah_attr,
): number {
  if (ctx.closed || port_num !== 1 || !wc || !ah_attr) return fail(EINVAL);
  const grh = grhIn instanceof Uint8Array ? decodeGrh(grhIn) : grhIn;
  if (!((wc.wc_flags ?? 0) & ibv_wc_flags.IBV_WC_GRH) || !grh)
    return fail(EINVAL, 'ibv_init_ah_from_wc: a RoCE reply needs the GRH of the datagram (EINVAL)');
  const want = grh.dgid?.raw;
  const src = grh.sgid?.raw;
  if (!(want instanceof Uint8Array) || !(src instanceof Uint8Array) || want.length !== 16 || src.length !== 16) return fail(EINVAL);
  let index = -1;
  const g = { raw: new Uint8Array(16) };
  for (let i = 0; queryGid(ctx, 1, i, g) === 0; i++) {
    if (g.raw.every((b, k) => b === want[k])) {
      index = i;
      break;
    }
  }
  if (index < 0) return fail(EINVAL, 'ibv_init_ah_from_wc: the datagram was not sent to a GID of this port (EINVAL)');
  const vtf = grh.version_tclass_flow ?? 0;
  ah_attr.grh = {
    dgid: { raw: Uint8Array.from(src) },
    flow_label: vtf & 0xf_ffff,
    sgid_index: index,
    hop_limit: 0xff,
    traffic_class: (vtf >>> 20) & 0xff,
  };
  ah_attr.dlid = wc.slid ?? 0;
  ah_attr.sl = wc.sl ?? 0;
  ah_attr.src_path_bits = wc.dlid_path_bits ?? 0;
  ah_attr.static_rate = 0;
  ah_attr.is_global = 1;
  ah_attr.port_num = port_num;
  return 0;
}

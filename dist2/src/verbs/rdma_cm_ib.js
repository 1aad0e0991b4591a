import { cmaAddresses, cmaPrivateDataOf, RdmaIpCm, ephemeralPort, randomPsn, roceSourceFor } from '../ibcm/rdma-ip.js';
import { RiGsiPort } from '../ibcm/ri-gsi.js';
import { hostMemory } from '../rnic/hostmem.js';
import { RiRet } from '../rnicpi/status.js';
import { CMA_HDR_LEN, gidFromIpv4, ipv4FromGid, stringifyGid } from '../wire/ib/cm.js';
import { ibv_access_flags, ibv_qp_attr_mask, ibv_qp_state, ibv_transport_type } from './constants.js';
import { queryGid } from './device.js';
import { EADDRINUSE, EINVAL, ENODEV } from './errno.js';
import { ibv_modify_qp } from './ibverbs.js';
/** Hop limit of rdma_cm's RoCE paths (Linux `cma_resolve_iboe_route`: 64 when routed). */
export const IBOE_HOP_LIMIT = 64;
/** Packet life time of rdma_cm's RoCE paths (`CMA_IBOE_PACKET_LIFETIME`). */
export const IBOE_PACKET_LIFETIME = 18;
/** Path MTU of the RoCE device's paths: its active MTU, 1024 (`enum ibv_mtu` 3), as rxe on 1500-octet Ethernet. */
export const IBOE_PATH_MTU = 3;
/** The RNR timer a connected QP advertises: 12 (0.64 ms), as ibv_rc_pingpong; Linux rdma_cm leaves 0 (655 ms). */
export const CM_MIN_RNR_TIMER = 12;
/** The MRA service timeout rdma_cm sends while its consumer decides (`CMA_CM_MRA_SETTING`: 24, about 67 s). */
export const CMA_MRA_TIMEOUT = 24;
/** User private data in a REQ and a SIDR_REQ after the `cma_hdr` (`rdma_cm` limits). */
export const REQ_USER_PD = 92 - CMA_HDR_LEN;
export const SIDR_REQ_USER_PD = 216 - CMA_HDR_LEN;
/** True when `ctx` is the RoCE (InfiniBand transport) device. */
export function isIbContext(ctx) {
    return !!ctx && ctx.device.transport_type === ibv_transport_type.IBV_TRANSPORT_IB;
}
/** True when `dev` is the RoCE device. */
export function isIbDevice(dev) {
    return dev.transport_type === ibv_transport_type.IBV_TRANSPORT_IB;
}
/** The RoCE device's GID table (`ibv_query_gid` of each index until it fails). */
export function gidTable(ctx) {
    const out = [];
    for (let i = 0; i < 256; i++) {
        const g = { raw: new Uint8Array(16) };
        if (queryGid(ctx, 1, i, g) !== 0)
            break;
        out.push(g.raw);
    }
    return out;
}
/** The IPv4 addresses of the RoCE device (those of its IPv4-mapped GIDs). */
export function ibAddresses(ctx) {
    return gidTable(ctx)
        .map((g) => ipv4FromGid(g))
        .filter((a) => a !== null);
}
const sameGid = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
/** The GID table index of `gid`, or -1. */
export function gidIndex(ctx, gid) {
    return gidTable(ctx).findIndex((g) => sameGid(g, gid));
}
/**
 * The source address of a RoCE path to `dst` (rdma_resolve_addr with no source): see
 * {@link roceSourceFor}. null when the device has no IPv4 address.
 */
export function ibSourceFor(ctx, dst) {
    return roceSourceFor(ibAddresses(ctx), dst);
}
export { ephemeralPort, randomPsn };
/**
 * REQ / SIDR_REQ private data: the `cma_hdr` then the user's data, or EINVAL when the user's
 * data does not fit (`limit` octets).
 */
export function cmaPrivateData(src, dst, user, limit) {
    if ((user?.length ?? 0) > limit)
        return EINVAL;
    return cmaPrivateDataOf(src, dst, user);
}
export { cmaAddresses };
/** The address handle attributes of a RoCE path (a GRH always: Annex A17). */
export function ibAhAttr(dgid, sgidIndex, hopLimit = IBOE_HOP_LIMIT) {
    return {
        grh: { dgid: { raw: Uint8Array.from(dgid) }, flow_label: 0, sgid_index: sgidIndex, hop_limit: hopLimit, traffic_class: 0 },
        dlid: 0,
        sl: 0,
        src_path_bits: 0,
        static_rate: 0,
        is_global: 1,
        port_num: 1,
    };
}
/** The access flags rdma_cm gives a RoCE RC QP at INIT: local write, remote read, write and atomics. */
export const IB_CM_ACCESS = ibv_access_flags.IBV_ACCESS_LOCAL_WRITE | ibv_access_flags.IBV_ACCESS_REMOTE_READ | ibv_access_flags.IBV_ACCESS_REMOTE_WRITE | ibv_access_flags.IBV_ACCESS_REMOTE_ATOMIC;
/** Moves an RC QP INIT→RTR→RTS with `p` (0, or the errno of the modify that failed). */
export function ibQpToRts(qp, p) {
    const M = ibv_qp_attr_mask;
    let r = ibv_modify_qp(qp, {
        qp_state: ibv_qp_state.IBV_QPS_RTR,
        ah_attr: ibAhAttr(p.dgid, p.sgidIndex),
        path_mtu: p.pathMtu,
        dest_qp_num: p.destQpn,
        rq_psn: p.rqPsn,
        max_dest_rd_atomic: p.responderResources,
        min_rnr_timer: CM_MIN_RNR_TIMER,
    }, M.IBV_QP_STATE | M.IBV_QP_AV | M.IBV_QP_PATH_MTU | M.IBV_QP_DEST_QPN | M.IBV_QP_RQ_PSN | M.IBV_QP_MAX_DEST_RD_ATOMIC | M.IBV_QP_MIN_RNR_TIMER);
    if (r !== 0)
        return r;
    r = ibv_modify_qp(qp, { qp_state: ibv_qp_state.IBV_QPS_RTS, timeout: p.timeout, retry_cnt: p.retryCnt, rnr_retry: p.rnrRetry, sq_psn: p.sqPsn, max_rd_atomic: p.initiatorDepth }, M.IBV_QP_STATE | M.IBV_QP_TIMEOUT | M.IBV_QP_RETRY_CNT | M.IBV_QP_RNR_RETRY | M.IBV_QP_SQ_PSN | M.IBV_QP_MAX_QP_RD_ATOMIC);
    return r;
}
/** A UD QP of rdma_cm straight to RTS (Linux `cma_init_ud_qp`): INIT with `qkey`, RTR, RTS. */
export function ibUdQpToRts(qp, qkey) {
    const M = ibv_qp_attr_mask;
    let r = ibv_modify_qp(qp, { qp_state: ibv_qp_state.IBV_QPS_INIT, pkey_index: 0, port_num: 1, qkey }, M.IBV_QP_STATE | M.IBV_QP_PKEY_INDEX | M.IBV_QP_PORT | M.IBV_QP_QKEY);
    if (r !== 0)
        return r;
    r = ibv_modify_qp(qp, { qp_state: ibv_qp_state.IBV_QPS_RTR }, M.IBV_QP_STATE);
    if (r !== 0)
        return r;
    return ibv_modify_qp(qp, { qp_state: ibv_qp_state.IBV_QPS_RTS, sq_psn: 0 }, M.IBV_QP_STATE | M.IBV_QP_SQ_PSN);
}
/**
 * rdma_cm's view of the IB CM of one RoCE device: the process's {@link RdmaIpCm} of the port
 * (`src/ibcm/rdma-ip.ts`: QP1, the {@link IbCm} over it, the services by service ID dispatched
 * on the `cma_hdr`'s destination, as Linux `cma_ib_id_from_event`), opened on this context's
 * RNIC when rdma_cm is the first face to need it, and the context the ids it serves are on.
 */
export class RoceCm {
    ctx;
    shared;
    constructor(ctx, shared) {
        this.ctx = ctx;
        this.shared = shared;
    }
    /** The CM of `ctx`'s device (QP1 opened on first use), or the errno of a failure to open QP1. */
    static of(ctx) {
        if (ctx.closed)
            return ENODEV;
        const c = RdmaIpCm.of({
            name: ctx.device.name,
            openGsi: () => RiGsiPort.open({ ops: ctx.ops, rnic: ctx.rnic, cqHandlerId: ctx.device.cqHandlerId, addressOf: (b) => hostMemory.addressOf(b) }),
            caGuid: ctx.device.guid,
            gids: () => gidTable(ctx),
        });
        if (typeof c === 'number')
            return c === RiRet.QP_INUSE ? EADDRINUSE : ENODEV;
        return new RoceCm(ctx, c);
    }
    get cm() {
        return this.shared.cm;
    }
    /** An id starts using the CM. */
    hold() {
        this.shared.hold();
    }
    /** An id stops using it; the last user lets it close once idle. */
    release() {
        this.shared.release();
    }
    /**
     * Listens on `sid` for the rdma_cm listener bound to `address` ('0.0.0.0' for all). EADDRINUSE
     * when that address (or the wildcard, or any address against a wildcard) is taken on it.
     */
    listen(sid, address, handler) {
        return this.shared.listen(sid, address, handler) ? 0 : EADDRINUSE;
    }
    /** Stops the listener of `address` on `sid`. */
    unlisten(sid, address) {
        this.shared.unlisten(sid, address);
    }
}
/** `::ffff:a.b.c.d` text of an IPv4 address's GID (for logs). */
export function gidText(address) {
    return stringifyGid(gidFromIpv4(address));
}
//# sourceMappingURL=rdma_cm_ib.js.map
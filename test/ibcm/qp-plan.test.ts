/**
 * Conformance of the connection plans (`src/ibcm/qp-plan.ts`): the attributes each state step
 * gives a QP for the RC active side, the RC passive side, RC INIT and UD (IBTA Vol. 1 §12.7.27
 * and §12.7.34 for what the REQ and REP carry, §11.2.4.2 for what each transition takes, as
 * Linux `cm_init_qp_*_attr`), the RNICPI calls the executor makes of them, and two QPs of a
 * RoCE RNIC connected by the two plans of one exchange.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  CM_MIN_RNR_TIMER,
  IBOE_HOP_LIMIT,
  type QpPlanStep,
  rcActivePlan,
  rcInitPlan,
  rcPassivePlan,
  riModifyOf,
  runQpPlan,
  udPlan,
} from '../../src/ibcm/qp-plan.js';
import { roceConfig } from '../../src/provider/softrdma.js';
import { riGidOfBytes } from '../../src/rnicpi/gid.js';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiQpAttrMask, RiQpState, RiSvcType, type ri_ib_qp_attr_t, type ri_qp_attr_t } from '../../src/rnicpi/types.js';
import { type CmRep, type CmReq, CmTransport, emptyCmPath, gidFromIpv4 } from '../../src/wire/ib/cm.js';
import { allocPd, cleanupAll, createCq, type Env, name, ok, openRnic, qpAttrsIn } from '../conformance/helpers.js';

after(cleanupAll);

const M = RiQpAttrMask;
const G0 = gidFromIpv4('192.0.2.10');
const G_ACTIVE = gidFromIpv4('192.0.2.11');
const G_PASSIVE = gidFromIpv4('192.0.2.12');
/** The port's GID table: the active side's GID at index 1, the passive side's at 2. */
const GIDS = [G0, G_ACTIVE, G_PASSIVE];

/** A REQ in which every value the plans read is distinct, so that a swap shows. */
function req(over: Partial<CmReq> = {}): CmReq {
  return {
    kind: 'REQ',
    localCommId: 0x1001,
    vendorId: 0,
    serviceId: 0x106_0000_0000_1c06n,
    localCaGuid: 0xaan,
    localQkey: 0,
    localQpn: 0x31,
    responderResources: 5,
    localEecn: 0,
    initiatorDepth: 3,
    remoteEecn: 0,
    remoteCmResponseTimeout: 20,
    transport: CmTransport.RC,
    e2eFlowControl: false,
    startingPsn: 0x11_1111,
    localCmResponseTimeout: 20,
    retryCount: 6,
    pkey: 0xffff,
    pathMtu: 4,
    rdcExists: false,
    rnrRetryCount: 5,
    maxCmRetries: 15,
    srq: false,
    extendedTransport: 0,
    primary: { ...emptyCmPath(), localGid: G_ACTIVE, remoteGid: G_PASSIVE, hopLimit: 9, localAckTimeout: 17 },
    alternate: emptyCmPath(),
    sapSupported: false,
    privateData: new Uint8Array(0),
    ...over,
  };
}

function rep(over: Partial<CmRep> = {}): CmRep {
  return {
    kind: 'REP',
    localCommId: 0x2002,
    remoteCommId: 0x1001,
    localQkey: 0,
    localQpn: 0x42,
    localEecn: 0,
    startingPsn: 0x22_2222,
    responderResources: 2,
    initiatorDepth: 4,
    targetAckDelay: 15,
    failoverAccepted: 0,
    e2eFlowControl: false,
    rnrRetryCount: 3,
    srq: false,
    localCaGuid: 0xbbn,
    privateData: new Uint8Array(0),
    ...over,
  };
}

describe('the plans: attributes per step', () => {
  it('RC active (after the REP): RTR with the REP QPN, our REQ PSN as RQ PSN, the REQ path toward the passive GID, responder resources min(ours, REP initiator depth); RTS with the REP PSN, the REQ timeout and retry count, the REP RNR retry count, initiator depth min(ours, REP responder resources)', () => {
    const plan = rcActivePlan(req(), rep(), { gids: GIDS });
    const expected: QpPlanStep[] = [
      {
        state: 'RTR',
        path: { dgid: G_PASSIVE, sgidIndex: 1, hopLimit: IBOE_HOP_LIMIT, pathMtu: 4 },
        destQpn: 0x42,
        rqPsn: 0x11_1111,
        maxDestRdAtomic: 4,
        minRnrTimer: CM_MIN_RNR_TIMER,
      },
      { state: 'RTS', timeout: 17, retryCnt: 6, rnrRetry: 3, sqPsn: 0x22_2222, maxRdAtomic: 2 },
    ];
    assert.deepEqual(plan, expected);
    assert.equal(CM_MIN_RNR_TIMER, 12);
    assert.equal(IBOE_HOP_LIMIT, 64);
  });

  it('RC passive (before the REP): RTR with the REQ QPN, the REP PSN as RQ PSN, the REQ path toward the active GID, the REP responder resources; RTS with the REQ PSN, timeout, retry and RNR retry counts, the REP initiator depth', () => {
    const plan = rcPassivePlan(req(), { startingPsn: 0x33_3333, responderResources: 1, initiatorDepth: 2 }, { gids: GIDS });
    const expected: QpPlanStep[] = [
      {
        state: 'RTR',
        path: { dgid: G_ACTIVE, sgidIndex: 2, hopLimit: IBOE_HOP_LIMIT, pathMtu: 4 },
        destQpn: 0x31,
        rqPsn: 0x33_3333,
        maxDestRdAtomic: 1,
        minRnrTimer: CM_MIN_RNR_TIMER,
      },
      { state: 'RTS', timeout: 17, retryCnt: 6, rnrRetry: 5, sqPsn: 0x11_1111, maxRdAtomic: 2 },
    ];
    assert.deepEqual(plan, expected);
  });

  it("a consumer's Local ACK Timeout replaces the REQ's on both sides; a local GID not in the table is index 0", () => {
    const a = rcActivePlan(req(), rep(), { gids: [G0], timeout: 9 });
    const p = rcPassivePlan(req(), { startingPsn: 1, responderResources: 1, initiatorDepth: 1 }, { gids: [], timeout: 10 });
    assert.equal(a[1]!.timeout, 9);
    assert.equal(p[1]!.timeout, 10);
    assert.equal(a[0]!.path!.sgidIndex, 0);
    assert.equal(p[0]!.path!.sgidIndex, 0);
    assert.equal(rcActivePlan(req(), rep(), { gids: GIDS, timeout: null })[1]!.timeout, 17);
  });

  it('RC INIT: P_Key index 0, port 1 and the access given; UD: INIT with the Q_Key (as an unsigned 32-bit value), RTR, RTS with send PSN 0', () => {
    assert.deepEqual(rcInitPlan({ read: true, write: false, atomic: true }), [
      { state: 'INIT', pkeyIndex: 0, port: 1, access: { read: true, write: false, atomic: true } },
    ]);
    assert.deepEqual(udPlan(0x8001_0000 | 0), [
      { state: 'INIT', pkeyIndex: 0, port: 1, qkey: 0x8001_0000 },
      { state: 'RTR' },
      { state: 'RTS', sqPsn: 0 },
    ]);
    assert.deepEqual(udPlan(0x11, 2)[0], { state: 'INIT', pkeyIndex: 0, port: 2, qkey: 0x11 });
  });
});

describe('the executor: RNICPI 1.0 masks', () => {
  it('each step becomes one ri_qp_modify: INIT takes P_Key, port and access (or the Q_Key); RTR the primary path, QPN, RQ PSN, RNR timer and IRD; RTS the primary path, SQ PSN and ORD', () => {
    const [rtr, rts] = rcActivePlan(req(), rep(), { gids: GIDS });
    const init = riModifyOf(rcInitPlan({ read: true, write: true, atomic: false })[0]!);
    assert.equal(init.mask, M.NEXT_STATE | M.PRIMARY_PKEY | M.PORT_NUM | M.ENABLE_RDMA_READ | M.ENABLE_RDMA_WRITE | M.ENABLE_ATOMICS);
    assert.equal(init.attrs.state, RiQpState.INITIALIZED);
    assert.deepEqual([init.attrs.enable_rdma_read, init.attrs.enable_rdma_write], [true, true]);
    const ib = (a: ReturnType<typeof riModifyOf>['attrs']): Partial<ri_ib_qp_attr_t> =>
      a.qp_xport && 'qp_ib' in a.qp_xport ? a.qp_xport.qp_ib : {};
    assert.equal(ib(init.attrs).enable_atomic, false);

    const r = riModifyOf(rtr!);
    assert.equal(r.mask, M.NEXT_STATE | M.PRIMARY_PATH | M.DEST_QPID | M.RECV_PSN | M.MIN_RNR_TIMER | M.MAX_RDMA_READ_INCOMING);
    assert.equal(r.attrs.state, RiQpState.READY_TO_RECEIVE);
    assert.equal(r.attrs.max_rdma_read_incoming, 4);
    const x = ib(r.attrs);
    assert.deepEqual([x.dest_qpn, x.recv_psn, x.min_rnrnak_timer], [0x42, 0x11_1111, 12]);
    assert.deepEqual([x.primary_av!.path_mtu, x.primary_av!.physical_port, x.primary_av!.pkey_index], [4, 1, 0]);
    const av = x.primary_av!.av;
    assert.deepEqual([av.send_global_routing_hdr_flg, av.hop_limit, av.source_gid_index], [1, 64, 1]);
    assert.deepEqual(av.dgid, riGidOfBytes(G_PASSIVE));

    const s = riModifyOf(rts!);
    assert.equal(s.mask, M.NEXT_STATE | M.PRIMARY_PATH | M.SEND_PSN | M.MAX_RDMA_READ_OUTGOING);
    assert.equal(s.attrs.state, RiQpState.READY_TO_SEND);
    assert.equal(s.attrs.max_rdma_read_outgoing, 2);
    const y = ib(s.attrs);
    assert.equal(y.send_psn, 0x22_2222);
    assert.deepEqual([y.primary_av!.local_ack_timeout, y.primary_av!.retry_count, y.primary_av!.rnr_retry_count], [17, 6, 3]);

    const [ui, ur, us] = udPlan(0x1234).map(riModifyOf);
    assert.equal(ui!.mask, M.NEXT_STATE | M.QKEY | M.PRIMARY_PKEY | M.PORT_NUM);
    assert.equal(ib(ui!.attrs).recv_qkey, 0x1234);
    assert.equal(ur!.mask, M.NEXT_STATE);
    assert.equal(ur!.attrs.qp_xport, undefined);
    assert.equal(us!.mask, M.NEXT_STATE | M.SEND_PSN);
    assert.equal(ib(us!.attrs).send_psn, 0);
  });
});

describe('the executor on a RoCE RNIC', () => {
  /** A RoCE RNIC with the GID table above, its IB QPs on the in-process loopback link. */
  const roce = () => openRnic({ config: { ...roceConfig(undefined, 0), gids: () => GIDS, ibLink: 'loopback' } });
  function qpOf(env: Env, t: RiSvcType) {
    const pd = allocPd(env);
    const cq = createCq(env);
    const r = ok(
      env.ops.ri_qp_create(
        env.rnic,
        qpAttrsIn(pd, cq, cq, { qp_xport: { qp_ib: { trans_type: t } }, max_rdma_read_outgoing: 0, max_rdma_read_incoming: 0 }),
        null,
        'qp',
      ),
    );
    return { qp: r.qp, qpn: r.attrs.qp_id };
  }
  const query = (env: Env, qp: unknown): { a: ri_qp_attr_t; ib: ri_ib_qp_attr_t } => {
    const a = ok(env.ops.ri_qp_query(env.rnic, qp as never)).attrs;
    assert.ok('qp_ib' in a.qp_xport);
    return { a, ib: a.qp_xport.qp_ib };
  };

  it('the active and passive plans of one exchange bring two RC QPs to RTS facing each other: each sends the PSN the other receives first', () => {
    const env = roce();
    const act = qpOf(env, RiSvcType.RELIABLE_CONNECTION);
    const pas = qpOf(env, RiSvcType.RELIABLE_CONNECTION);
    const q = req({ localQpn: act.qpn, responderResources: 4, initiatorDepth: 3 });
    const answer = { startingPsn: 0x33_3333, responderResources: 2, initiatorDepth: 1 };
    const access = { read: true, write: true, atomic: true };
    for (const s of [act, pas]) assert.equal(runQpPlan(env.ops, env.rnic, s.qp, rcInitPlan(access)), RiRet.SUCCESS);
    assert.equal(runQpPlan(env.ops, env.rnic, pas.qp, rcPassivePlan(q, answer, { gids: GIDS })), RiRet.SUCCESS);
    const r = rep({
      localQpn: pas.qpn,
      startingPsn: answer.startingPsn,
      responderResources: answer.responderResources,
      initiatorDepth: answer.initiatorDepth,
    });
    assert.equal(runQpPlan(env.ops, env.rnic, act.qp, rcActivePlan(q, r, { gids: GIDS })), RiRet.SUCCESS);
    const A = query(env, act.qp);
    const P = query(env, pas.qp);
    for (const s of [A, P]) {
      assert.equal(s.a.state, RiQpState.READY_TO_SEND);
      assert.deepEqual([s.a.enable_rdma_read, s.a.enable_rdma_write, s.ib.enable_atomic], [true, true, true]);
      assert.deepEqual(
        [s.ib.primary_av.path_mtu, s.ib.primary_av.local_ack_timeout, s.ib.primary_av.retry_count, s.ib.min_rnrnak_timer],
        [4, 17, 6, 12],
      );
      assert.equal(s.ib.primary_av.av.hop_limit, 64);
    }
    assert.equal(A.ib.dest_qpn, pas.qpn);
    assert.equal(P.ib.dest_qpn, act.qpn);
    assert.equal(A.ib.send_psn, P.ib.recv_psn);
    assert.equal(P.ib.send_psn, A.ib.recv_psn);
    assert.deepEqual([A.ib.recv_psn, P.ib.recv_psn], [0x11_1111, 0x33_3333]);
    // Each side's read depth toward the other is what the other allows.
    assert.equal(A.a.max_rdma_read_outgoing, P.a.max_rdma_read_incoming);
    assert.equal(P.a.max_rdma_read_outgoing, 1);
    assert.equal(A.a.max_rdma_read_incoming, 1);
    // Each addresses the other's GID from its own.
    assert.deepEqual([A.ib.primary_av.av.dgid, A.ib.primary_av.av.source_gid_index], [riGidOfBytes(G_PASSIVE), 1]);
    assert.deepEqual([P.ib.primary_av.av.dgid, P.ib.primary_av.av.source_gid_index], [riGidOfBytes(G_ACTIVE), 2]);
    // The RNR retry count each uses is the one its peer asked for.
    assert.deepEqual([A.ib.primary_av.rnr_retry_count, P.ib.primary_av.rnr_retry_count], [3, 5]);
    env.close();
  });

  it('UD: RTS with the Q_Key and send PSN 0; `after` runs once per step; a failing step stops the plan with its status', () => {
    const env = roce();
    const ud = qpOf(env, RiSvcType.UNRELIABLE_DATAGRAM);
    const seen: string[] = [];
    assert.equal(
      runQpPlan(env.ops, env.rnic, ud.qp, udPlan(0x8765_4321), (s) => {
        seen.push(s.state);
        return RiRet.SUCCESS;
      }),
      RiRet.SUCCESS,
    );
    assert.deepEqual(seen, ['INIT', 'RTR', 'RTS']);
    const U = query(env, ud.qp);
    assert.equal(U.a.state, RiQpState.READY_TO_SEND);
    assert.deepEqual([U.ib.recv_qkey, U.ib.send_psn], [0x8765_4321, 0]);

    // A QP in RTS cannot go to INIT: the first step fails, nothing after it runs.
    seen.length = 0;
    const st = runQpPlan(env.ops, env.rnic, ud.qp, udPlan(1), (s) => {
      seen.push(s.state);
      return RiRet.SUCCESS;
    });
    assert.notEqual(name(st), name(RiRet.SUCCESS));
    assert.deepEqual(seen, []);
    // `after` failing stops the plan in the state reached.
    const rc = qpOf(env, RiSvcType.UNRELIABLE_DATAGRAM);
    assert.equal(
      runQpPlan(env.ops, env.rnic, rc.qp, udPlan(2), (s) => (s.state === 'INIT' ? RiRet.FAIL : RiRet.SUCCESS)),
      RiRet.FAIL,
    );
    assert.equal(query(env, rc.qp).a.state, RiQpState.INITIALIZED);
    env.close();
  });
});

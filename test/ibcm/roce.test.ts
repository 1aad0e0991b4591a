/**
 * The IB CM on a real GSI: QP1 of two RoCEv2 RNICs obtained through RNICPI
 * (`ri_special_qp_get`), MADs carried as UD datagrams over loopback UDP (127.0.0.1 and
 * 127.0.0.2, one ephemeral port), and an RC QP pair connected with the values the CM
 * exchanged. Also what RNICPI says about QP1 itself.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { IbCm, type IbCmConnection, type IbCmEvent, type IbCmListenEvent } from '../../src/ibcm/cm.js';
import { RiGsiPort } from '../../src/ibcm/ri-gsi.js';
import { roceConfig } from '../../src/provider/softrdma.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import { RoceNet } from '../../src/roce/net.js';
import { RiRet } from '../../src/rnicpi/status.js';
import {
  RiQpAttrMask,
  RiQpState,
  RiSqpType,
  RiSvcType,
  RiWcStatus,
  RiWrFlags,
  RiWrType,
  type ri_gen_wc_t,
} from '../../src/rnicpi/types.js';
import {
  type CmMessage,
  CmRejReason,
  type CmRep,
  type CmReq,
  CmTransport,
  decodeCmMad,
  emptyCmPath,
  encodeCmMad,
  RdmaPs,
  rdmaServiceId,
} from '../../src/wire/ib/cm.js';
import { GSI_QKEY } from '../../src/wire/ib/mad.js';
import { allocPd, bufOf, cleanupAll, code, createCq, type Env, ok, openRnic, qpAttrsIn, regMr } from '../conformance/helpers.js';
import { gidOf, until } from '../helpers/engine.js';

after(cleanupAll);

const SID = rdmaServiceId(RdmaPs.TCP, 7174);
/** Short CM timeouts (the REQ is retransmitted after 2 × 4 ms + 16 ms), so a loss costs little. */
const FAST = { packetLifeTime: 10, remoteCmResponseTimeout: 12, localCmResponseTimeout: 12 };

interface Node {
  env: Env;
  gid: Uint8Array;
  gsi: RiGsiPort;
  cm: IbCm;
  net: () => RoceNet;
  address: string;
  port: number;
}

async function freePort(): Promise<number> {
  const probe = RoceNet.acquire('127.0.0.1', 0);
  await probe.ready;
  const port = probe.port;
  probe.close();
  return port;
}

/** A RoCEv2 RNIC on `address` (its only GID) opened through RNICPI, with the IB CM on its QP1. */
function node(address: string, port: number, caGuid: bigint): Node {
  const gid = gidOf(address);
  const env = openRnic({ config: { ...roceConfig(undefined, 0), name: `roce-${address}`, gids: () => [gid], roceUdpPort: port } });
  const handlerId = ok(
    env.ops.ri_cq_set_event_handler(env.vp, 0, (_o, cq) => (cq as { onCompletionEvent?: () => void }).onCompletionEvent?.()),
  ).handler_id;
  const gsi = RiGsiPort.open({ ops: env.ops, rnic: env.rnic, cqHandlerId: handlerId, addressOf: (b) => hostMemory.addressOf(b) });
  assert.ok(gsi instanceof RiGsiPort, `RiGsiPort.open: ${RiRet[gsi as RiRet]}`);
  const cm = new IbCm({ port: gsi, caGuid, gids: () => gsi.gids() });
  return { env, gid, gsi, cm, net: () => RoceNet.find(address, port)!, address, port };
}

function close(...ns: Node[]): void {
  for (const n of ns) {
    n.cm.close();
    n.env.close();
  }
}

function events(): { list: IbCmEvent[]; on: (e: IbCmEvent) => void; next: (t: IbCmEvent['type']) => Promise<IbCmEvent> } {
  const list: IbCmEvent[] = [];
  return {
    list,
    on: (e) => list.push(e),
    next: async (t) => {
      await until(() => list.some((e) => e.type === t), 10_000, `CM event ${t}`);
      return list.find((e) => e.type === t)!;
    },
  };
}

describe('QP1 through RNICPI (ri_special_qp_get)', () => {
  it('GSI on a RoCE RNIC: QPN 1, UD, Q_Key 0x80010000 fixed; once per port (QP_INUSE); no SMI; iWARP → XPORT_UNSUPPORTED; CQs not shared with ordinary QPs', () => {
    const env = openRnic({ config: { ...roceConfig(undefined, 0), ibLink: 'loopback' } });
    const pd = allocPd(env);
    const cq = createCq(env);
    const attrs = qpAttrsIn(pd, cq, cq, { qp_xport: { qp_ib: { trans_type: RiSvcType.UNRELIABLE_DATAGRAM } } });
    const { ops, rnic } = env;
    assert.equal(code(ops.ri_special_qp_get(rnic, 1, RiSqpType.SMI, attrs, null, null)), 'RI_RET_QP_INVALID_SPECIAL_TYPE');
    assert.equal(code(ops.ri_special_qp_get(rnic, 2, RiSqpType.GSI, attrs, null, null)), 'RI_RET_RNIC_INVALID_PORT');
    assert.equal(
      code(
        ops.ri_special_qp_get(
          rnic,
          1,
          RiSqpType.GSI,
          qpAttrsIn(pd, cq, cq, { qp_xport: { qp_ib: { trans_type: RiSvcType.RELIABLE_CONNECTION } } }),
          null,
          null,
        ),
      ),
      'RI_RET_INVALID_PARAMETER',
    );
    const r = ok(ops.ri_special_qp_get(rnic, 1, RiSqpType.GSI, attrs, null, 'gsi'));
    assert.equal(r.attrs.qp_id, 1);
    assert.ok('qp_ib' in r.attrs.qp_xport);
    assert.equal(r.attrs.qp_xport.qp_ib.trans_type, RiSvcType.UNRELIABLE_DATAGRAM);
    assert.equal(r.attrs.qp_xport.qp_ib.recv_qkey, GSI_QKEY);
    assert.equal(
      code(
        ops.ri_special_qp_get(
          rnic,
          1,
          RiSqpType.GSI,
          qpAttrsIn(pd, createCq(env), undefined, { qp_xport: { qp_ib: { trans_type: RiSvcType.UNRELIABLE_DATAGRAM } } }),
          null,
          null,
        ),
      ),
      'RI_RET_QP_INUSE',
    );
    // Its CQ is the special QP's own.
    assert.equal(
      code(
        ops.ri_qp_create(rnic, qpAttrsIn(pd, cq, cq, { qp_xport: { qp_ib: { trans_type: RiSvcType.UNRELIABLE_DATAGRAM } } }), null, null),
      ),
      'RI_RET_CQ_INVALID_HANDLE',
    );
    // Another Q_Key is refused; the GSI one is accepted.
    const path = { pkey_index: 0, physical_port: 1 } as never;
    const M = RiQpAttrMask;
    assert.equal(
      code(
        ops.ri_qp_modify(rnic, r.qp, M.NEXT_STATE | M.QKEY | M.PRIMARY_PKEY | M.PORT_NUM, {
          state: RiQpState.INITIALIZED,
          qp_xport: { qp_ib: { recv_qkey: 0x11111111, primary_av: path } },
        }),
      ),
      'RI_RET_INVALID_PARAMETER',
    );
    ok(
      ops.ri_qp_modify(rnic, r.qp, M.NEXT_STATE | M.QKEY | M.PRIMARY_PKEY | M.PORT_NUM, {
        state: RiQpState.INITIALIZED,
        qp_xport: { qp_ib: { recv_qkey: GSI_QKEY, primary_av: path } },
      }),
    );
    // Destroyed, QP1 can be had again, and the CQ serves ordinary QPs.
    ok(ops.ri_qp_destroy(rnic, r.qp));
    const again = ok(ops.ri_special_qp_get(rnic, 1, RiSqpType.GSI, attrs, null, null));
    ok(ops.ri_qp_destroy(rnic, again.qp));
    ok(ops.ri_qp_create(rnic, attrs, null, null));
    env.close();
    const iw = openRnic();
    assert.equal(
      code(iw.ops.ri_special_qp_get(iw.rnic, 1, RiSqpType.GSI, qpAttrsIn(allocPd(iw), createCq(iw)), null, null)),
      'RI_RET_XPORT_UNSUPPORTED',
    );
    iw.close();
  });
});

describe('IB CM over QP1 on RoCEv2 (loopback UDP)', () => {
  it('REQ → REP → RTU, an RC pair moved to RTS with the exchanged values carries a Send, then DREQ → DREP', async () => {
    const port = await freePort();
    const a = node('127.0.0.1', port, 0x0002c90300aaaa01n);
    const b = node('127.0.0.2', port, 0x0002c90300bbbb02n);
    try {
      // An RC QP on each side, INIT.
      const rcSide = (n: Node) => {
        const pd = allocPd(n.env);
        const cq = createCq(n.env);
        const qp = ok(
          n.env.ops.ri_qp_create(
            n.env.rnic,
            qpAttrsIn(pd, cq, cq, {
              qp_xport: { qp_ib: { trans_type: RiSvcType.RELIABLE_CONNECTION } },
              max_rdma_read_outgoing: 0,
              max_rdma_read_incoming: 0,
            }),
            null,
            'rc',
          ),
        ).qp;
        const M = RiQpAttrMask;
        ok(
          n.env.ops.ri_qp_modify(n.env.rnic, qp, M.NEXT_STATE | M.PRIMARY_PKEY | M.PORT_NUM | M.ENABLE_RDMA_WRITE, {
            state: RiQpState.INITIALIZED,
            enable_rdma_write: true,
            qp_xport: { qp_ib: { primary_av: { pkey_index: 0, physical_port: 1 } as never } },
          }),
        );
        const qpn = ok(n.env.ops.ri_qp_query(n.env.rnic, qp)).attrs.qp_id;
        return { pd, cq, qp, qpn };
      };
      const toRts = (
        n: Node,
        s: ReturnType<typeof rcSide>,
        destQpn: number,
        dgid: Uint8Array,
        rqPsn: number,
        sqPsn: number,
        timeout: number,
      ) => {
        const M = RiQpAttrMask;
        const v = new DataView(dgid.buffer, dgid.byteOffset, 16);
        const av = {
          sl: 0,
          send_global_routing_hdr_flg: 1,
          hop_limit: 64,
          source_gid_index: 0,
          flow_label: 0,
          dgid: { gid_prefix: v.getBigUint64(0), gid_guid: v.getBigUint64(8) },
          dlid: 0,
          traffic_class: 0,
          max_static_rate: 0,
          source_path_bits: 0,
        };
        ok(
          n.env.ops.ri_qp_modify(
            n.env.rnic,
            s.qp,
            M.NEXT_STATE | M.PRIMARY_PATH | M.DEST_QPID | M.RECV_PSN | M.MIN_RNR_TIMER | M.MAX_RDMA_READ_INCOMING,
            {
              state: RiQpState.READY_TO_RECEIVE,
              max_rdma_read_incoming: 1,
              qp_xport: {
                qp_ib: {
                  dest_qpn: destQpn,
                  recv_psn: rqPsn,
                  min_rnrnak_timer: 12,
                  primary_av: {
                    pkey_index: 0,
                    physical_port: 1,
                    path_mtu: 3,
                    local_ack_timeout: 0,
                    retry_count: 0,
                    rnr_retry_count: 0,
                    av,
                  },
                },
              },
            },
          ),
        );
        ok(
          n.env.ops.ri_qp_modify(n.env.rnic, s.qp, M.NEXT_STATE | M.PRIMARY_PATH | M.SEND_PSN | M.MAX_RDMA_READ_OUTGOING, {
            state: RiQpState.READY_TO_SEND,
            max_rdma_read_outgoing: 1,
            qp_xport: {
              qp_ib: {
                send_psn: sqPsn,
                primary_av: {
                  pkey_index: 0,
                  physical_port: 1,
                  path_mtu: 3,
                  local_ack_timeout: timeout,
                  retry_count: 7,
                  rnr_retry_count: 7,
                  av,
                },
              },
            },
          }),
        );
      };
      const qa = rcSide(a);
      const qb = rcSide(b);
      const rbuf = bufOf(new Uint8Array(64));
      const rmr = regMr({ env: b.env, rnic: b.env.rnic, pd: qb.pd }, rbuf);
      ok(b.env.ops.ri_qp_postrq(b.env.rnic, qb.qp, [{ flags: 0, id: 7n, sg_list: [{ addr: rbuf.va, tag: rmr.ltag, len: 64 }] }]));
      // Passive: accept the REQ with our QP, moved to RTS with its values first (as rdma_cm).
      const ev = events();
      let passive = null as IbCmConnection | null;
      let seenReq = null as CmReq | null;
      b.cm.listen(SID, (e: IbCmListenEvent) => {
        assert.equal(e.type, 'req');
        if (e.type !== 'req') return;
        seenReq = e.req;
        passive = e.conn;
        e.conn.onEvent = ev.on;
        toRts(b, qb, e.req.localQpn, e.req.primary.localGid, 0x4242, e.req.startingPsn, e.req.primary.localAckTimeout);
        e.conn.accept({ qpn: qb.qpn, startingPsn: 0x4242, privateData: Buffer.from('welcome') });
      });
      const aev = events();
      const conn = a.cm.connect(
        { destGid: b.gid, localGid: a.gid, serviceId: SID, qpn: qa.qpn, startingPsn: 0x1111, privateData: Buffer.from('hello') },
        aev.on,
      );
      const rep = ((await aev.next('rep')) as { rep: CmRep }).rep;
      assert.equal(Buffer.from(rep.privateData.subarray(0, 7)).toString(), 'welcome');
      assert.equal(rep.localQpn, qb.qpn);
      assert.ok(seenReq);
      assert.equal(Buffer.from(seenReq!.privateData.subarray(0, 5)).toString(), 'hello');
      assert.deepEqual(seenReq!.primary.localGid, a.gid, 'the REQ names the active side by its IPv4-mapped GID');
      // Each side receives from the PSN it announced, and sends from the one the peer announced (Linux ib_cm).
      toRts(a, qa, rep.localQpn, b.gid, 0x1111, rep.startingPsn, 14);
      conn.ready();
      await ev.next('established');
      assert.equal(passive!.state, 'ESTABLISHED');
      // The QPs the CM connected carry a Send.
      const sbuf = bufOf(Uint8Array.from(Buffer.from('over the CM')));
      const smr = regMr({ env: a.env, rnic: a.env.rnic, pd: qa.pd }, sbuf);
      ok(
        a.env.ops.ri_qp_postsq(a.env.rnic, qa.qp, [
          {
            type: RiWrType.SEND,
            flags: RiWrFlags.SIGNALED_FLAG,
            id: 1n,
            sg_list: [{ addr: sbuf.va, tag: smr.ltag, len: 11 }],
            num_sgls: 1,
          },
        ]),
      );
      let wc: ri_gen_wc_t | null = null;
      await until(
        () => {
          const r = b.env.ops.ri_cq_poll(b.env.rnic, qb.cq, 1);
          if (r.status === RiRet.SUCCESS) wc = r.wcs[0] as ri_gen_wc_t;
          return wc !== null;
        },
        10_000,
        'the Send over the connected QPs',
      );
      assert.equal(wc!.op_status, RiWcStatus.SUCCESS);
      assert.equal(Buffer.from(rbuf.bytes.subarray(0, 11)).toString(), 'over the CM');
      // Release.
      conn.disconnect();
      await ev.next('dreq');
      passive!.disconnect();
      await aev.next('disconnected');
      assert.equal(conn.state, 'TIMEWAIT');
      assert.equal(passive!.state, 'TIMEWAIT');
      assert.deepEqual(
        [a.cm.stats.sent.REQ, a.cm.stats.sent.RTU, a.cm.stats.sent.DREQ, b.cm.stats.sent.REP, b.cm.stats.sent.DREP],
        [1, 1, 1, 1, 1],
      );
      assert.ok(a.gsi.stats.sent >= 3 && b.gsi.stats.received >= 3);
    } finally {
      close(a, b);
    }
  });

  it('the exact rejects over the wire: no listener → 8, a GID the peer does not have → 12 (ARI: its GID), a stale (CA GUID, QPN) → 10, a consumer reject → 28 with its private data', async () => {
    const port = await freePort();
    const a = node('127.0.0.1', port, 0x0002c90300aaaa01n);
    const b = node('127.0.0.2', port, 0x0002c90300bbbb02n);
    try {
      const rejected = async (p: Parameters<IbCm['connect']>[0]) => {
        const ev = events();
        a.cm.connect({ ...FAST, ...p }, ev.on);
        return (await ev.next('rejected')) as Extract<IbCmEvent, { type: 'rejected' }>;
      };
      const base = { destGid: b.gid, localGid: a.gid, serviceId: SID, qpn: 0x99, startingPsn: 1 };
      assert.equal((await rejected(base)).reason, CmRejReason.INVALID_SERVICE_ID);
      // REQs from QP 0x9c that reached the listener (a retransmitted REQ of the consumer-rejected
      // 0x9b, sent when a loaded machine delays the REJ past the response timeout, may reach it too).
      let reqs9c = 0;
      b.cm.listen(SID, (e) => {
        if (e.type !== 'req') return;
        if (e.req.localQpn === 0x9c) reqs9c++;
        if (e.req.localQpn === 0x9b) e.conn.reject(Buffer.from('not today'));
        else e.conn.accept({ qpn: 0x300, startingPsn: 1 });
      });
      const consumer = await rejected({ ...base, qpn: 0x9b });
      assert.equal(consumer.reason, CmRejReason.CONSUMER_DEFINED);
      assert.equal(Buffer.from(consumer.privateData.subarray(0, 9)).toString(), 'not today');
      // A connection from QP 0x9c, then another REQ from the same QP while the first lives: stale.
      const ev = events();
      a.cm.connect({ ...FAST, ...base, qpn: 0x9c }, ev.on);
      await ev.next('rep');
      assert.equal((await rejected({ ...base, qpn: 0x9c })).reason, CmRejReason.STALE_CONN);
      assert.equal(reqs9c, 1, 'the stale REQ never reached the listener');
      // A REQ sent to B's address that names, as B's GID, one B does not have: a raw GSI peer.
      const c = node('127.0.0.3', port, 0x0002c90300cccc03n);
      try {
        const got: CmMessage[] = [];
        c.gsi.onReceive((mad) => got.push(decodeCmMad(mad).msg));
        const req = reqTo(b.gid, gidOf('10.9.9.9'), c.gid);
        c.gsi.send(encodeCmMad(0x1234n, req), { gid: b.gid, qpn: 1, qkey: GSI_QKEY, pkey: 0xffff, localGid: c.gid });
        await until(() => got.length > 0, 10_000, 'the REJ');
        const rej = got[0] as Extract<CmMessage, { kind: 'REJ' }>;
        assert.equal(rej.kind, 'REJ');
        assert.equal(rej.reason, CmRejReason.INVALID_GID);
        assert.equal(rej.remoteCommId, req.localCommId);
        assert.deepEqual(rej.ari.subarray(0, 16), b.gid, 'ARI: the GID B does have');
      } finally {
        c.cm.close();
        c.env.close();
      }
    } finally {
      close(a, b);
    }
  });

  it("a forged REJ of a REQ from a third address, naming only the victim's comm ID, leaves an established connection established on both sides", async () => {
    const port = await freePort();
    const a = node('127.0.0.1', port, 0x0002c90300aaaa01n);
    const b = node('127.0.0.2', port, 0x0002c90300bbbb02n);
    const c = node('127.0.0.3', port, 0x0002c90300cccc03n);
    try {
      const bEvents: IbCmEvent[] = [];
      let server: IbCmConnection | undefined;
      b.cm.listen(SID, (e) => {
        if (e.type !== 'req') return;
        server = e.conn;
        e.conn.onEvent = (x) => bEvents.push(x);
        e.conn.accept({ qpn: 0x300, startingPsn: 1 });
      });
      const ev = events();
      const conn: IbCmConnection = a.cm.connect(
        { ...FAST, destGid: b.gid, localGid: a.gid, serviceId: SID, qpn: 0x9d, startingPsn: 1 },
        (e) => {
          ev.on(e);
          if (e.type === 'rep') conn.ready();
        },
      );
      await until(() => server?.state === 'ESTABLISHED' && conn.state === 'ESTABLISHED', 10_000, 'established');
      for (const [victim, to] of [
        [server!, b],
        [conn, a],
      ] as const) {
        const rej: CmMessage = {
          kind: 'REJ',
          localCommId: 0x1234_5678,
          remoteCommId: victim.localCommId,
          msgRejected: 0,
          reason: CmRejReason.CONSUMER_DEFINED,
          ari: new Uint8Array(0),
          privateData: new Uint8Array(0),
        };
        c.gsi.send(encodeCmMad(0x77n, rej), { gid: to.gid, qpn: 1, qkey: GSI_QKEY, pkey: 0xffff, localGid: c.gid });
      }
      await until(() => b.cm.stats.received.REJ === 1 && a.cm.stats.received.REJ === 1, 10_000, 'the forged REJs received');
      assert.equal(server!.state, 'ESTABLISHED');
      assert.equal(conn.state, 'ESTABLISHED');
      assert.ok(!bEvents.some((e) => e.type === 'rejected' || e.type === 'disconnected'), JSON.stringify(bEvents.map((e) => e.type)));
      assert.ok(!ev.list.some((e) => e.type === 'rejected' || e.type === 'disconnected'));
    } finally {
      c.cm.close();
      c.env.close();
      close(a, b);
    }
  });

  for (const lost of ['REQ', 'REP', 'RTU', 'DREQ'] as const) {
    it(`a lost ${lost} (dropped by the RoCEv2 endpoint's tap) is recovered by retransmission`, async () => {
      const port = await freePort();
      const a = node('127.0.0.1', port, 0x0002c90300aaaa01n);
      const b = node('127.0.0.2', port, 0x0002c90300bbbb02n);
      try {
        const pev = events();
        b.cm.listen(SID, (e) => {
          if (e.type !== 'req') return;
          e.conn.onEvent = (x) => {
            pev.on(x);
            if (x.type === 'dreq') e.conn.disconnect();
          };
          e.conn.accept({ qpn: e.req.localQpn + 0x100, startingPsn: 5 });
        });
        await a.net().ready;
        await b.net().ready;
        let dropped = 0;
        const tap = (pkt: Uint8Array): 'pass' | 'drop' => {
          const k = madKind(pkt);
          if (k === lost && dropped === 0) {
            dropped++;
            return 'drop';
          }
          return 'pass';
        };
        a.net().setTap(tap);
        b.net().setTap(tap);
        const ev = events();
        const conn = a.cm.connect({ destGid: b.gid, localGid: a.gid, serviceId: SID, qpn: 0x77, startingPsn: 9, ...FAST }, ev.on);
        await ev.next('rep');
        conn.ready();
        // A lost RTU: the passive side retransmits its REP, the active side answers it with the RTU again.
        await pev.next('established');
        conn.disconnect();
        await ev.next('disconnected');
        assert.equal(dropped, 1, `one ${lost} was dropped`);
        assert.equal((ev.list.find((e) => e.type === 'disconnected') as { timedOut: boolean }).timedOut, false);
        const retransmits = a.cm.stats.retransmits + b.cm.stats.retransmits;
        assert.ok(retransmits >= 1, 'recovered by a retransmission');
      } finally {
        close(a, b);
      }
    });
  }
});

/** The CM message kind of a RoCEv2 packet to QP1 (BTH, DETH, then the MAD), or null. */
function madKind(pkt: Uint8Array): string | null {
  const destQp = (pkt[5]! << 16) | (pkt[6]! << 8) | pkt[7]!;
  if (destQp !== 1 || pkt.length < 12 + 8 + 256) return null;
  try {
    return decodeCmMad(pkt.subarray(20, 20 + 256)).msg.kind;
  } catch {
    return null;
  }
}

/** A REQ from `from` to the CM at `to`, naming `claimed` as the passive side's GID. */
function reqTo(to: Uint8Array, claimed: Uint8Array, from: Uint8Array): CmReq {
  void to;
  return {
    kind: 'REQ',
    localCommId: 0x5150,
    vendorId: 0,
    serviceId: SID,
    localCaGuid: 0x0002c90300cccc03n,
    localQkey: 0,
    localQpn: 0x55,
    responderResources: 1,
    localEecn: 0,
    initiatorDepth: 1,
    remoteEecn: 0,
    remoteCmResponseTimeout: 20,
    transport: CmTransport.RC,
    e2eFlowControl: false,
    startingPsn: 1,
    localCmResponseTimeout: 20,
    retryCount: 7,
    pkey: 0xffff,
    pathMtu: 3,
    rdcExists: false,
    rnrRetryCount: 7,
    maxCmRetries: 15,
    srq: false,
    extendedTransport: 0,
    primary: {
      ...emptyCmPath(),
      localLid: 0xffff,
      remoteLid: 0xffff,
      localGid: from,
      remoteGid: claimed,
      hopLimit: 64,
      localAckTimeout: 19,
    },
    alternate: emptyCmPath(),
    sapSupported: false,
    privateData: new Uint8Array(0),
  };
}

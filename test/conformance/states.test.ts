/**
 * Conformance: the iWARP QP state machine on live connections (RNICPI-050, 053, 054;
 * RDMA Verbs §10 S2, S7–S11, S13–S20, S23, S25, Q7, D12). Connections are loopback TCP with
 * the MPA start-up halves; a scripted raw peer plays the remote side where exact bytes matter.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { after, test } from 'node:test';
import { SOFTRDMA_KERNEL_OPS as K } from '../../src/provider/softrdma.js';
import { RiRet } from '../../src/rnicpi/status.js';
import {
  RiAsyncEventType,
  RiDiagOpType,
  RiQpAttrMask,
  RiQpState,
  RiWcStatus,
  RiWcType,
  RiWrFlags,
  RiWrType,
} from '../../src/rnicpi/types.js';
import { configureIwarp } from '../../src/iwarp/llp-attrs.js';
import { mpaAccept, mpaReadRequest } from '../../src/iwarp/mpa-startup.js';
import { RawPeer } from '../helpers/rawpeer.js';
import {
  buf,
  cleanupAll,
  code,
  connect,
  drain,
  type Env,
  makeSide,
  modifyState,
  name,
  ok,
  openRnic,
  pollWcs,
  postRecv,
  postSend,
  qpAttrsIn,
  query,
  regMr,
  type Side,
  seg,
  settle,
  state,
  toRts,
  twoSides,
  until,
  transportTest,
} from './helpers.js';

after(cleanupAll);

function events(env: Env, type: RiAsyncEventType) {
  return env.events.filter((e) => e.event_type === type);
}

function termInfo(s: Side): { layer: number; etype: number; ecode: number; local: boolean } | null {
  const out = new Uint8Array(1 << 16);
  const r = ok(K.ri_rnic_diag(s.rnic, RiDiagOpType.QP_DETAILS, s.qp, out));
  return JSON.parse(new TextDecoder().decode(out.subarray(0, r.oplen))).terminate;
}

/** A QP (MPA Responder) in RTS facing a scripted raw peer. */
async function rawVictim(): Promise<{ env: Env; s: Side; peer: RawPeer; server: net.Server; done(): void }> {
  const env = openRnic();
  const s = makeSide(env);
  const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as net.AddressInfo).port;
  let sock: net.Socket | null = null;
  const accepted = (async () => {
    const [c] = (await once(server, 'connection')) as [net.Socket];
    sock = c;
    const req = await mpaReadRequest(c);
    const out = mpaAccept(c, req.frame, { revision: 2, crc: false, markers: false, ird: 4, ord: 4 });
    ok(toRts(s, out.stream, out.mpa));
  })();
  const peer = await RawPeer.connect(port);
  await accepted;
  return {
    env,
    s,
    peer,
    server,
    done() {
      server.close();
      peer.sock.destroy();
      (sock as net.Socket | null)?.destroy();
      env.close();
    },
  };
}

transportTest('RNICPI-050 modifying MPA attributes after the QP entered RDMA mode returns LL_BAD_STATE', async () => {
  const t = await twoSides();
  try {
    const before = query(t.a);
    const r = K.ri_qp_modify(t.a.rnic, t.a.qp, RiQpAttrMask.MPA_ATTR, {
      qp_xport: {
        qp_iwarp: { mpa_attributes: { recv_marker_enabled: false, xmit_marker_enabled: false, crc_enabled: true, ddp_rdma_version: 1 } },
      },
    });
    assert.equal(code(r), name(RiRet.LL_BAD_STATE));
    assert.deepEqual(query(t.a).qp_xport, before.qp_xport);
    assert.equal(state(t.a), RiQpState.READY_TO_SEND);
  } finally {
    t.done();
  }
});

test('RNICPI-053 Idle→RTS with stream_msg_buf sends that buffer as the last streaming-mode bytes before any FPDU', async () => {
  const envA = openRnic();
  const envB = openRnic();
  const a = makeSide(envA);
  const b = makeSide(envB);
  const mb = regMr(b, buf(64));
  const ma = regMr(a, buf(64, 0x5a));
  // b, the MPA Responder, gives its MPA Reply to ri_qp_modify instead of writing it: a's MPA
  // start-up only completes if the Reply arrives intact and before b's first FPDU.
  const pair = await connect(a, b, { replyAsStreamMsg: true, beforeRts: (s) => s === b && void ok(postRecv(b, mb, 1n)) });
  try {
    ok(K.ri_qp_post_send(b.rnic, b.qp, RiWrType.SEND, RiWrFlags.SIGNALED_FLAG, 9n, [], 0, 0, 0), 'b may post at once (SAFE_POST_ON_RTS)');
    ok(postRecv(a, ma, 2n));
    ok(postSend(a, ma, 3n, RiWrFlags.SIGNALED_FLAG, 40));
    const [rwc] = await pollWcs(envB, b.rnic, b.cq, 1);
    assert.equal(rwc!.op_status, RiWcStatus.SUCCESS);
    assert.equal(rwc!.bytes_transferred, 40);
    assert.ok(mb.b.bytes.subarray(0, 40).every((x) => x === 0x5a));
    const wcsB = await pollWcs(envB, b.rnic, b.cq, 1);
    assert.equal(wcsB[0]!.id, 9n);
    const q = query(b);
    assert.ok('qp_iwarp' in q.qp_xport);
    assert.equal(q.qp_xport.qp_iwarp.stream_msg_buf, null, 'never returned by query');
  } finally {
    envA.close();
    envB.close();
    pair.close();
  }
});

transportTest('RNICPI-054 after conversion ri_qp_query returns the (possibly new) LLP handle', async () => {
  const t = await twoSides();
  try {
    const qa = query(t.a);
    const qb = query(t.b);
    assert.ok('qp_iwarp' in qa.qp_xport && 'qp_iwarp' in qb.qp_xport);
    assert.equal(qa.qp_xport.qp_iwarp.llp_stream_handle, t.pair.streamA);
    assert.equal(qb.qp_xport.qp_iwarp.llp_stream_handle, t.pair.streamB);
    assert.equal(qa.state, RiQpState.READY_TO_SEND);
  } finally {
    t.done();
  }
});

transportTest('RNICPI LLP handle already owned by a QP: a second conversion with it returns LL_BAD_STATE', async () => {
  const t = await twoSides();
  try {
    const other = makeSide(t.envA);
    assert.equal(
      code(toRts(other, t.pair.streamA, { crc: false, recvMarkers: false, xmitMarkers: false, ddpRdmapVersion: 1 })),
      name(RiRet.LL_BAD_STATE),
    );
    assert.equal(state(other), RiQpState.IDLE);
  } finally {
    t.done();
  }
});

transportTest('VERBS-10.S2 Modify Idle→Terminate, Idle→Closing or RTS→Idle → QP_INVALID_STATE and the state is unchanged', async () => {
  const t = await twoSides();
  try {
    const idle = makeSide(t.envA);
    for (const to of [RiQpState.TERMINATE, RiQpState.CLOSING]) {
      assert.equal(code(modifyState(idle, to)), name(RiRet.QP_INVALID_STATE));
      assert.equal(state(idle), RiQpState.IDLE);
    }
    for (const to of [RiQpState.IDLE, 5, 6, 7, 8, 9, 10] as RiQpState[]) {
      assert.equal(code(modifyState(t.a, to)), name(RiRet.QP_INVALID_STATE), `RTS→${RiQpState[to]}`);
      assert.equal(state(t.a), RiQpState.READY_TO_SEND);
    }
    ok(modifyState(t.a, RiQpState.READY_TO_SEND), 'RTS→RTS');
    // The connection is untouched: data still flows.
    const mb = regMr(t.b, buf(8));
    ok(postRecv(t.b, mb, 1n));
    ok(postSend(t.a, regMr(t.a, buf(8)), 2n));
    await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
  } finally {
    t.done();
  }
});

test('VERBS-10.S7 after Idle→RTS the SQ WRs queued while Idle execute in order', async () => {
  const envA = openRnic();
  const envB = openRnic();
  const a = makeSide(envA);
  const b = makeSide(envB);
  const ma = regMr(a, buf(64, 7));
  const mb = regMr(b, buf(64));
  const pair = await connect(a, b, {
    beforeRts: (s) => {
      if (s === b) for (let i = 0; i < 3; i++) ok(K.ri_qp_post_recv(b.rnic, b.qp, 0, BigInt(10 + i), [seg(mb, i * 16, 16)], 1));
      else for (let i = 0; i < 3; i++) ok(postSend(a, ma, BigInt(i + 1), RiWrFlags.SIGNALED_FLAG, i + 1));
    },
  });
  try {
    const sq = await pollWcs(envA, a.rnic, a.cq, 3);
    assert.deepEqual(
      sq.map((w) => [w.id, w.op_status]),
      [
        [1n, 0],
        [2n, 0],
        [3n, 0],
      ],
    );
    const rq = await pollWcs(envB, b.rnic, b.cq, 3);
    assert.deepEqual(
      rq.map((w) => [w.id, w.bytes_transferred]),
      [
        [10n, 1],
        [11n, 2],
        [12n, 3],
      ],
    );
  } finally {
    envA.close();
    envB.close();
    pair.close();
  }
});

transportTest(
  'VERBS-10.S8 Modify RTS→Error: the peer sees an LLP Reset, no Terminate is sent, every outstanding WR completes Flushed',
  async () => {
    const t = await twoSides();
    try {
      const ma = regMr(t.a, buf(16));
      ok(postRecv(t.a, ma, 1n));
      ok(postRecv(t.a, ma, 2n));
      ok(postRecv(t.b, regMr(t.b, buf(16)), 3n));
      ok(modifyState(t.a, RiQpState.ERROR));
      assert.equal(state(t.a), RiQpState.ERROR);
      assert.deepEqual(
        drain(t.envA, t.a.rnic, t.a.cq).map((w) => [w.id, w.op_status]),
        [
          [1n, RiWcStatus.WR_FLUSHED_ERROR],
          [2n, RiWcStatus.WR_FLUSHED_ERROR],
        ],
      );
      assert.equal(termInfo(t.a), null, 'no Terminate generated');
      await until(() => state(t.b) === RiQpState.ERROR, 'peer in Error');
      await until(() => events(t.envB, RiAsyncEventType.QP_LLQ_CONNECTION_RESET).length === 1, 'peer reset event');
      assert.equal(events(t.envB, RiAsyncEventType.QP_TERMINATE_MESSAGE_RECEIVED).length, 0);
      assert.equal(termInfo(t.b), null, 'the peer received no Terminate');
      const [f] = await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
      assert.equal(f!.op_status, RiWcStatus.WR_FLUSHED_ERROR);
    } finally {
      t.done();
    }
  },
);

transportTest(
  'VERBS-10.S9 Modify RTS→Terminate: the peer receives a Terminate RDMAP/Local Catastrophic/0, and the local QP reaches Error by itself',
  async () => {
    const t = await twoSides();
    try {
      ok(modifyState(t.a, RiQpState.TERMINATE));
      await until(() => termInfo(t.b) !== null, 'peer got the Terminate');
      assert.deepEqual(termInfo(t.b), { layer: 0, etype: 0, ecode: 0, local: false });
      await until(() => state(t.a) === RiQpState.ERROR, 'local QP in Error', 3000);
    } finally {
      t.done();
    }
  },
);

transportTest('VERBS-10.S10 after RTS→Terminate, ri_qp_query returns the Terminate buffer with is_terminate_local true', async () => {
  const t = await twoSides();
  try {
    ok(modifyState(t.a, RiQpState.TERMINATE));
    const q = query(t.a);
    assert.equal(q.state, RiQpState.TERMINATE);
    assert.ok('qp_iwarp' in q.qp_xport);
    const iw = q.qp_xport.qp_iwarp;
    assert.equal(iw.is_terminate_local, true);
    assert.ok(iw.terminate_msg_length > 0 && iw.terminate_msg_length <= 52);
    assert.equal(iw.terminate_buffer.length, 52);
    // The Terminate control field: layer RDMAP (0), etype Local Catastrophic (0), code 0,
    // no headers copied (RFC 5040 §7.1, Verbs §6.4 Figure 12).
    assert.deepEqual([...iw.terminate_buffer.subarray(0, 4)], [0, 0, 0, 0]);
    await until(() => state(t.a) === RiQpState.ERROR, 'Error');
    const q2 = query(t.a);
    assert.ok('qp_iwarp' in q2.qp_xport);
    assert.deepEqual(q2.qp_xport.qp_iwarp.terminate_buffer, iw.terminate_buffer, 'still readable in Error');
  } finally {
    t.done();
  }
});

transportTest(
  'VERBS-10.S11 any Modify QP while in Terminate or in Closing → QP_INVALID_STATE, attribute-only changes included',
  async () => {
    const t1 = await twoSides();
    const t2 = await twoSides();
    try {
      ok(modifyState(t1.a, RiQpState.TERMINATE));
      ok(modifyState(t2.a, RiQpState.CLOSING));
      for (const [s, st] of [
        [t1.a, RiQpState.TERMINATE],
        [t2.a, RiQpState.CLOSING],
      ] as const) {
        assert.equal(state(s), st);
        for (const to of [0, 1, 2, 3, 4] as RiQpState[]) assert.equal(code(modifyState(s, to)), name(RiRet.QP_INVALID_STATE));
        assert.equal(
          code(K.ri_qp_modify(s.rnic, s.qp, RiQpAttrMask.MAX_RDMA_READ_OUTGOING, { max_rdma_read_outgoing: 1 })),
          name(RiRet.QP_INVALID_STATE),
        );
        assert.equal(state(s), st);
      }
    } finally {
      t1.done();
      t2.done();
    }
  },
);

transportTest(
  'VERBS-10.S13 the peer sends a Terminate: AE "Terminate Message Received" with the QP, no Terminate back, then Error with every WR Flushed',
  async () => {
    const t = await twoSides();
    try {
      ok(postRecv(t.b, regMr(t.b, buf(8)), 7n));
      ok(modifyState(t.a, RiQpState.TERMINATE));
      await until(() => events(t.envB, RiAsyncEventType.QP_TERMINATE_MESSAGE_RECEIVED).length === 1, 'AE on the peer');
      const ev = events(t.envB, RiAsyncEventType.QP_TERMINATE_MESSAGE_RECEIVED)[0]!;
      assert.ok('resource_os_data' in ev.event_data && ev.event_data.resource_os_data === t.b.qpOsData);
      await until(() => state(t.b) === RiQpState.ERROR, 'peer in Error');
      const [wc] = await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
      assert.deepEqual([wc!.id, wc!.op_status], [7n, RiWcStatus.WR_FLUSHED_ERROR]);
      await until(() => state(t.a) === RiQpState.ERROR, 'local in Error');
      // The side that sent the Terminate never got one back.
      assert.equal(termInfo(t.a)?.local, true);
      assert.equal(events(t.envA, RiAsyncEventType.QP_TERMINATE_MESSAGE_RECEIVED).length, 0);
    } finally {
      t.done();
    }
  },
);

transportTest(
  'VERBS-10.S14 peer FIN with the SQ and IRRQ empty: RTS→Closing→Idle, AE "LLP Close Complete", all RQ WRs Flushed',
  async () => {
    const t = await twoSides();
    try {
      ok(postRecv(t.a, regMr(t.a, buf(8)), 1n));
      ok(modifyState(t.b, RiQpState.CLOSING)); // the peer starts a graceful close (FIN)
      await until(() => state(t.a) === RiQpState.IDLE, 'local Idle', 3000);
      assert.equal(events(t.envA, RiAsyncEventType.QP_LLQ_CLOSE_COMPLETE).length, 1);
      const ev = events(t.envA, RiAsyncEventType.QP_LLQ_CLOSE_COMPLETE)[0]!;
      assert.ok('resource_os_data' in ev.event_data && ev.event_data.resource_os_data === t.a.qpOsData);
      assert.deepEqual(
        drain(t.envA, t.a.rnic, t.a.cq).map((w) => [w.id, w.op_status]),
        [[1n, RiWcStatus.WR_FLUSHED_ERROR]],
      );
      const q = query(t.a);
      assert.ok('qp_iwarp' in q.qp_xport);
      assert.equal(q.qp_xport.qp_iwarp.llp_stream_handle, null, 'disassociated');
    } finally {
      t.done();
    }
  },
);

transportTest(
  'VERBS-10.S16 Modify RTS→Closing with an empty SQ: no AE from the Modify itself; later "LLP Close Complete" and Idle',
  async () => {
    const t = await twoSides();
    try {
      ok(modifyState(t.b, RiQpState.CLOSING));
      await settle(2);
      assert.equal(t.envB.events.length, 0, 'no AE for the Modify');
      await until(() => state(t.b) === RiQpState.IDLE, 'Idle', 3000);
      assert.deepEqual(
        t.envB.events.map((e) => e.event_type),
        [RiAsyncEventType.QP_LLQ_CLOSE_COMPLETE],
      );
    } finally {
      t.done();
    }
  },
);

transportTest('VERBS-10.S17 Modify RTS→Closing with a non-empty SQ → Error with an LLP Reset and AE "Bad Close"', async () => {
  const t = await twoSides();
  try {
    const src = regMr(t.b, buf(64));
    const sink = regMr(t.a, buf(64));
    ok(K.ri_qp_post_rdma_read(t.a.rnic, t.a.qp, RiWrType.RDMA_READ, RiWrFlags.SIGNALED_FLAG, 1n, [seg(sink)], src.b.va, 1, src.rtag!));
    ok(modifyState(t.a, RiQpState.CLOSING));
    assert.equal(state(t.a), RiQpState.ERROR);
    await until(() => events(t.envA, RiAsyncEventType.QP_BAD_CLOSE).length === 1, 'Bad Close');
    const [wc] = await pollWcs(t.envA, t.a.rnic, t.a.cq, 1);
    assert.deepEqual([wc!.id, wc!.op_status], [1n, RiWcStatus.WR_FLUSHED_ERROR]);
    await until(() => events(t.envB, RiAsyncEventType.QP_LLQ_CONNECTION_RESET).length === 1, 'peer saw the reset');
  } finally {
    t.done();
  }
});

transportTest(
  'VERBS-10.S18 PostRQ accepted during Closing is Flushed and the QP stays Closing; PostSQ accepted during Closing ends in Error with "Bad Close"',
  async () => {
    const t = await twoSides();
    try {
      const m = regMr(t.a, buf(8));
      ok(modifyState(t.a, RiQpState.CLOSING));
      ok(postRecv(t.a, m, 1n));
      assert.equal(state(t.a), RiQpState.CLOSING);
      assert.deepEqual(
        drain(t.envA, t.a.rnic, t.a.cq).map((w) => [w.id, w.op_status]),
        [[1n, RiWcStatus.WR_FLUSHED_ERROR]],
      );
      ok(postSend(t.a, m, 2n));
      assert.equal(state(t.a), RiQpState.ERROR);
      await until(() => events(t.envA, RiAsyncEventType.QP_BAD_CLOSE).length === 1, 'Bad Close');
      assert.deepEqual(
        drain(t.envA, t.a.rnic, t.a.cq).map((w) => [w.id, w.op_status]),
        [[2n, RiWcStatus.WR_FLUSHED_ERROR]],
      );
    } finally {
      t.done();
    }
  },
);

test('VERBS-10.S15 peer FIN while an SQ WR is outstanding → Terminate with 0x0207 and AE "Bad LLP Close" (and VERBS-10.D12: a zero-length tagged access skips every STag check)', async () => {
  const v = await rawVictim();
  try {
    // A zero-length RDMA Write with a junk STag: no check, no error (and it releases the
    // Responder's hold on transmission).
    v.peer.write(0xdead_be00, 0n, new Uint8Array(0));
    const sink = regMr(v.s, buf(64));
    ok(K.ri_qp_post_rdma_read(v.s.rnic, v.s.qp, RiWrType.RDMA_READ, RiWrFlags.SIGNALED_FLAG, 1n, [seg(sink)], 0x1000n, 1, 0x4242));
    // The Read Request reaches the peer, which never answers and closes instead.
    await until(() => v.peer.fpdus.length >= 1, 'Read Request on the wire');
    assert.equal(state(v.s), RiQpState.READY_TO_SEND, 'the zero-length Write caused no error');
    v.peer.sock.end();
    const term = await v.peer.terminate();
    assert.deepEqual([term.layer, term.etype, term.ecode], [0, 2, 7]);
    await until(() => events(v.env, RiAsyncEventType.QP_BAD_LLQ_CLOSE).length === 1, 'AE Bad LLP Close');
  } finally {
    v.done();
  }
});

test('VERBS-10.S19 a non-Terminate segment arriving during Closing → LLP Reset, the segment is not placed, "Bad Close", Error', async () => {
  const v = await rawVictim();
  try {
    const m = regMr(v.s, buf(64, 0x11));
    ok(modifyState(v.s, RiQpState.CLOSING));
    v.peer.write(m.rtag!, m.b.va, new Uint8Array(16).fill(0xee));
    await until(() => state(v.s) === RiQpState.ERROR, 'Error');
    await until(() => events(v.env, RiAsyncEventType.QP_BAD_CLOSE).length === 1, 'Bad Close');
    assert.ok(
      m.b.bytes.every((x) => x === 0x11),
      'nothing placed',
    );
  } finally {
    v.done();
  }
});

test('VERBS-10.S20 an incoming LLP RST in RTS → Error, AE "LLP Connection Reset", no Terminate sent', async () => {
  const v = await rawVictim();
  try {
    ok(postRecv(v.s, regMr(v.s, buf(8)), 5n));
    v.peer.sock.resetAndDestroy();
    await until(() => state(v.s) === RiQpState.ERROR, 'Error');
    await until(() => events(v.env, RiAsyncEventType.QP_LLQ_CONNECTION_RESET).length === 1, 'AE');
    assert.equal(termInfo(v.s), null);
    const [wc] = await pollWcs(v.env, v.s.rnic, v.s.cq, 1);
    assert.deepEqual([wc!.id, wc!.op_status], [5n, RiWcStatus.WR_FLUSHED_ERROR]);
  } finally {
    v.done();
  }
});

test('VERBS-10.S23 segments arriving while in Terminate are ignored (no placement, no completions)', async () => {
  const v = await rawVictim();
  try {
    const m = regMr(v.s, buf(64, 0x22));
    const r = regMr(v.s, buf(64, 0x22));
    ok(postRecv(v.s, r, 1n));
    ok(modifyState(v.s, RiQpState.TERMINATE));
    v.peer.write(m.rtag!, m.b.va, new Uint8Array(8).fill(0xee));
    v.peer.send(1, new Uint8Array(8).fill(0xee));
    // TCP delivers the peer's FIN after both segments: once the QP is in Error they were seen.
    v.peer.sock.end();
    await until(() => state(v.s) === RiQpState.ERROR, 'Error');
    assert.ok(
      m.b.bytes.every((x) => x === 0x22),
      'no tagged placement',
    );
    assert.ok(
      r.b.bytes.every((x) => x === 0x22),
      'no untagged placement',
    );
    const wcs = drain(v.env, v.s.rnic, v.s.cq);
    assert.deepEqual(
      wcs.map((w) => [w.id, w.op_status]),
      [[1n, RiWcStatus.WR_FLUSHED_ERROR]],
      'the receive was flushed, not completed',
    );
  } finally {
    v.done();
  }
});

transportTest('VERBS-10.S25 after Closing→Idle the QP can go Idle→RTS on a new stream and transfer data', async () => {
  const t = await twoSides();
  let again: Awaited<ReturnType<typeof connect>> | null = null;
  try {
    ok(modifyState(t.b, RiQpState.CLOSING));
    await until(() => state(t.a) === RiQpState.IDLE && state(t.b) === RiQpState.IDLE, 'both Idle', 3000);
    again = await connect(t.a, t.b);
    const mb = regMr(t.b, buf(16));
    ok(postRecv(t.b, mb, 1n));
    const ma = regMr(t.a, buf(16, 0x33));
    ok(postSend(t.a, ma, 2n));
    const [wc] = await pollWcs(t.envB, t.b.rnic, t.b.cq, 1);
    assert.deepEqual([wc!.op_type, wc!.op_status, wc!.bytes_transferred], [RiWcType.DATA_RECEIVED, RiWcStatus.SUCCESS, 16]);
    assert.ok(mb.b.bytes.every((x) => x === 0x33));
  } finally {
    t.done();
    again?.close();
  }
});

transportTest('VERBS-10.Q7 Destroy QP succeeds in each of the five states when no MW is bound', async () => {
  const env = openRnic();
  const idle = makeSide(env);
  ok(K.ri_qp_destroy(env.rnic, idle.qp), 'Idle');
  const err = makeSide(env);
  ok(modifyState(err, RiQpState.ERROR));
  ok(K.ri_qp_destroy(env.rnic, err.qp), 'Error');
  env.close();
  for (const st of [RiQpState.READY_TO_SEND, RiQpState.CLOSING, RiQpState.TERMINATE]) {
    const t = await twoSides();
    try {
      if (st !== RiQpState.READY_TO_SEND) ok(modifyState(t.a, st));
      assert.equal(state(t.a), st);
      assert.equal(code(K.ri_qp_destroy(t.a.rnic, t.a.qp)), name(RiRet.SUCCESS), RiQpState[st]);
      assert.equal(code(K.ri_qp_query(t.a.rnic, t.a.qp)), name(RiRet.QP_INVALID_HANDLE));
    } finally {
      t.done();
    }
  }
});

test('RNICPI-051 on an RDMAC RNIC (protocol_version 0) turning recv/xmit markers off returns MPA_ATTR_UNSUPPORTED', {
  skip: 'softrdma is an IETF RNIC (protocol_version 1): markers may be turned off; see the IETF counterpart test',
}, () => {});

test('RNICPI-052 ddp_rdma_version 1 on an RDMAC-only RNIC returns INVALID_DDP_RDMAP_VERSION', {
  skip: 'softrdma is an IETF RNIC (protocol_version 1), not RDMAC-only; see the IETF counterpart test',
}, () => {});

test('RNICPI-051/052 IETF counterpart: a non-permissive IETF RNIC refuses ddp_rdma_version 0 (INVALID_DDP_RDMAP_VERSION) at create and modify, and accepts any marker setting', () => {
  const env = openRnic();
  const a = ok(K.ri_rnic_query(env.rnic, 0, 1 << 20)).attrs;
  assert.ok('iwarp' in a.trans_attr);
  assert.equal(a.trans_attr.iwarp.protocol_version, 1);
  assert.equal(a.trans_attr.iwarp.iwarp_rnic_flags & (1 << 4), 0, 'not IETF_PERMISSIVE');
  const s = makeSide(env);
  const mpa = (v: number, markers: boolean) => ({
    qp_xport: {
      qp_iwarp: { mpa_attributes: { recv_marker_enabled: markers, xmit_marker_enabled: markers, crc_enabled: true, ddp_rdma_version: v } },
    },
  });
  assert.equal(code(K.ri_qp_modify(env.rnic, s.qp, RiQpAttrMask.MPA_ATTR, mpa(0, false))), name(RiRet.INVALID_DDP_RDMAP_VERSION));
  ok(K.ri_qp_modify(env.rnic, s.qp, RiQpAttrMask.MPA_ATTR, mpa(1, true)));
  const q = query(s);
  assert.ok('qp_iwarp' in q.qp_xport);
  assert.equal(q.qp_xport.qp_iwarp.mpa_attributes.recv_marker_enabled, true);
  ok(K.ri_qp_modify(env.rnic, s.qp, RiQpAttrMask.MPA_ATTR, mpa(1, false)));
  const r = K.ri_qp_create(env.rnic, { ...qpAttrsIn(s.pd, s.cq), ...mpa(0, false) }, null, null);
  assert.equal(code(r), name(RiRet.INVALID_DDP_RDMAP_VERSION));
  env.close();
});

test('an RNIC without Marker support answers MPA_ATTR_UNSUPPORTED to Markers at modify, changes nothing, and accepts them again once supported (RNICPI 1.0 §6.1.4)', () => {
  const env = openRnic();
  const s = makeSide(env);
  const mpa = (markers: boolean) => ({
    qp_xport: {
      qp_iwarp: { mpa_attributes: { recv_marker_enabled: markers, xmit_marker_enabled: false, crc_enabled: false, ddp_rdma_version: 1 } },
    },
  });
  const before = query(s);
  configureIwarp(env.vp.engine, { markers: false });
  assert.equal(code(K.ri_qp_modify(env.rnic, s.qp, RiQpAttrMask.MPA_ATTR, mpa(true))), name(RiRet.MPA_ATTR_UNSUPPORTED));
  assert.deepEqual(query(s), before, 'a refused modify changes nothing');
  ok(K.ri_qp_modify(env.rnic, s.qp, RiQpAttrMask.MPA_ATTR, mpa(false)));
  configureIwarp(env.vp.engine, { markers: true });
  ok(K.ri_qp_modify(env.rnic, s.qp, RiQpAttrMask.MPA_ATTR, mpa(true)));
  const q = query(s);
  assert.ok('qp_iwarp' in q.qp_xport);
  assert.equal(q.qp_xport.qp_iwarp.mpa_attributes.recv_marker_enabled, true);
  env.close();
});

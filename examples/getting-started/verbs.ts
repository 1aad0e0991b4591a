/**
 * Getting started with softrdma's verbs face (docs/getting-started.md): one process, both ends
 * of an RC connection over loopback. The server listens with rdma_cm, the client connects;
 * the client Sends a message into the server's posted Receive and RDMA-Writes into the server's
 * registered buffer; both poll their completion queues; everything is torn down.
 *
 *   node dist/examples/getting-started/verbs.js
 */
import {
  IBV_ACCESS_LOCAL_WRITE,
  IBV_ACCESS_REMOTE_WRITE,
  IBV_QPT_RC,
  IBV_SEND_SIGNALED,
  IBV_WC_SUCCESS,
  IBV_WR_RDMA_WRITE,
  IBV_WR_SEND,
  RDMA_CM_EVENT_ADDR_RESOLVED,
  RDMA_CM_EVENT_CONNECT_REQUEST,
  RDMA_CM_EVENT_DISCONNECTED,
  RDMA_CM_EVENT_ESTABLISHED,
  RDMA_CM_EVENT_ROUTE_RESOLVED,
  RDMA_PS_TCP,
  ibv_dereg_mr,
  ibv_poll_cq,
  ibv_post_recv,
  ibv_post_send,
  ibv_reg_mr,
  rdma_accept,
  rdma_ack_cm_event,
  rdma_bind_addr,
  rdma_connect,
  rdma_create_event_channel,
  rdma_create_id,
  rdma_create_qp,
  rdma_destroy_event_channel,
  rdma_destroy_id,
  rdma_destroy_qp,
  rdma_disconnect,
  rdma_event_str,
  rdma_get_cm_event,
  rdma_get_src_port,
  rdma_listen,
  rdma_resolve_addr,
  rdma_resolve_route,
  rdmaListenReady,
  softrdmaLastError,
  type ibv_cq,
  type ibv_mr,
  type ibv_wc,
  type rdma_cm_event,
  type rdma_cm_event_type,
  type rdma_event_channel,
} from '../../src/verbs/index.js';

/** Fails with the reason when a verbs call reported failure (0 / -1 / null convention). */
function check<T>(value: T, what: string): NonNullable<T> {
  if (value === null || value === undefined || value === -1 || (typeof value === 'number' && value !== 0)) {
    throw new Error(`${what} failed: ${softrdmaLastError().message}`);
  }
  return value as NonNullable<T>;
}

/** The next event on `ch`, which must be `want`. */
async function expectEvent(ch: rdma_event_channel, want: rdma_cm_event_type): Promise<rdma_cm_event> {
  const { ret, event } = await rdma_get_cm_event(ch);
  if (ret !== 0 || !event) throw new Error(`rdma_get_cm_event: ${softrdmaLastError().message}`);
  if (event.event !== want)
    throw new Error(`expected ${rdma_event_str(want)}, got ${rdma_event_str(event.event)} (status ${event.status})`);
  return event;
}

/** Polls `cq` until one completion arrives; it must be a success. */
async function completion(cq: ibv_cq): Promise<ibv_wc> {
  const wc: ibv_wc[] = [];
  for (;;) {
    const n = ibv_poll_cq(cq, 1, wc);
    if (n < 0) throw new Error(`ibv_poll_cq: ${n}`);
    if (n === 1) {
      if (wc[0]!.status !== IBV_WC_SUCCESS) throw new Error(`completion with status ${wc[0]!.status}`);
      return wc[0]!;
    }
    await new Promise((r) => setImmediate(r)); // let the connection's sockets run
  }
}

const qpAttr = { qp_type: IBV_QPT_RC, cap: { max_send_wr: 4, max_recv_wr: 4, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 } };

async function main(): Promise<void> {
  // 1. The server: an event channel, an id bound to loopback (port 0: any free port), listening.
  const sch = check(rdma_create_event_channel(), 'rdma_create_event_channel');
  const listenId = check(rdma_create_id(sch, null, RDMA_PS_TCP).id, 'rdma_create_id');
  check(rdma_bind_addr(listenId, { family: 'ipv4', address: '127.0.0.1', port: 0 }), 'rdma_bind_addr');
  check(rdma_listen(listenId, 1), 'rdma_listen');
  await rdmaListenReady(listenId); // softrdma: the TCP listener is bound
  const port = rdma_get_src_port(listenId);
  console.log(`server listening on 127.0.0.1 port ${port}`);

  // 2. The client: resolve the address and route, create its QP (rdma_cm makes the PD and CQs), connect.
  const cch = check(rdma_create_event_channel(), 'rdma_create_event_channel');
  const cid = check(rdma_create_id(cch, null, RDMA_PS_TCP).id, 'rdma_create_id');
  check(await rdma_resolve_addr(cid, null, { family: 'ipv4', address: '127.0.0.1', port }, 2000), 'rdma_resolve_addr');
  rdma_ack_cm_event(await expectEvent(cch, RDMA_CM_EVENT_ADDR_RESOLVED));
  check(await rdma_resolve_route(cid, 2000), 'rdma_resolve_route');
  rdma_ack_cm_event(await expectEvent(cch, RDMA_CM_EVENT_ROUTE_RESOLVED));
  check(rdma_create_qp(cid, null, qpAttr), 'rdma_create_qp (client)');
  const cqp = cid.qp!;
  check(await rdma_connect(cid, null), 'rdma_connect');

  // 3. The server takes the request: a QP for the new id, its memory registered, a Receive posted, accept.
  const req = await expectEvent(sch, RDMA_CM_EVENT_CONNECT_REQUEST);
  const sid = req.id;
  check(rdma_create_qp(sid, null, qpAttr), 'rdma_create_qp (server)');
  const sqp = sid.qp!;
  const serverBuf = new Uint8Array(64);
  const serverMr: ibv_mr = check(
    ibv_reg_mr(sqp.pd, serverBuf, serverBuf.length, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE),
    'ibv_reg_mr (server)',
  );
  check(ibv_post_recv(sqp, { wr_id: 1n, sg_list: [{ addr: serverMr.addr, length: 32, lkey: serverMr.lkey }] }).ret, 'ibv_post_recv');
  check(await rdma_accept(sid, null), 'rdma_accept');
  rdma_ack_cm_event(req);
  rdma_ack_cm_event(await expectEvent(cch, RDMA_CM_EVENT_ESTABLISHED));
  rdma_ack_cm_event(await expectEvent(sch, RDMA_CM_EVENT_ESTABLISHED));
  console.log('connected');

  // 4. The client registers its buffer, Sends "hello" and RDMA-Writes "written by RDMA Write" into the
  //    server's buffer at offset 32 (address and rkey would travel in private data between two hosts).
  const clientBuf = new Uint8Array(64);
  const clientMr: ibv_mr = check(ibv_reg_mr(cqp.pd, clientBuf, clientBuf.length, IBV_ACCESS_LOCAL_WRITE), 'ibv_reg_mr (client)');
  clientBuf.set(new TextEncoder().encode('hello'));
  check(
    ibv_post_send(cqp, {
      wr_id: 10n,
      opcode: IBV_WR_SEND,
      send_flags: IBV_SEND_SIGNALED,
      sg_list: [{ addr: clientMr.addr, length: 5, lkey: clientMr.lkey }],
    }).ret,
    'ibv_post_send (Send)',
  );
  const text = new TextEncoder().encode('written by RDMA Write');
  clientBuf.set(text, 32);
  check(
    ibv_post_send(cqp, {
      wr_id: 11n,
      opcode: IBV_WR_RDMA_WRITE,
      send_flags: IBV_SEND_SIGNALED,
      sg_list: [{ addr: clientMr.addr + 32n, length: text.length, lkey: clientMr.lkey }],
      wr: { rdma: { remote_addr: serverMr.addr + 32n, rkey: serverMr.rkey } },
    }).ret,
    'ibv_post_send (RDMA Write)',
  );

  // 5. Completions: the client's two sends, the server's receive.
  console.log(`client: completion wr_id ${(await completion(cqp.send_cq)).wr_id}`);
  console.log(`client: completion wr_id ${(await completion(cqp.send_cq)).wr_id}`);
  const rwc = await completion(sqp.recv_cq);
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  console.log(`server: received ${JSON.stringify(decode(serverBuf.subarray(0, rwc.byte_len)))}`);
  console.log(`server: buffer now holds ${JSON.stringify(decode(serverBuf.subarray(32, 32 + text.length)))}`);

  // 6. Tear down: disconnect, then QPs, MRs, ids and channels.
  check(await rdma_disconnect(cid), 'rdma_disconnect');
  rdma_ack_cm_event(await expectEvent(cch, RDMA_CM_EVENT_DISCONNECTED));
  rdma_ack_cm_event(await expectEvent(sch, RDMA_CM_EVENT_DISCONNECTED));
  check(ibv_dereg_mr(clientMr), 'ibv_dereg_mr');
  check(ibv_dereg_mr(serverMr), 'ibv_dereg_mr');
  for (const id of [cid, sid]) {
    rdma_destroy_qp(id);
    check(rdma_destroy_id(id), 'rdma_destroy_id');
  }
  check(rdma_destroy_id(listenId), 'rdma_destroy_id');
  rdma_destroy_event_channel(cch);
  rdma_destroy_event_channel(sch);
  console.log('done');
}

main().catch((e: unknown) => {
  console.error(`verbs example failed: ${(e as Error).message}`);
  process.exitCode = 1;
});
